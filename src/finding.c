/* finding: see finding.h. */
#include "finding.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/envmap.h"
#include "util/json.h"
#include "util/xalloc.h"

static const char *const sev_names[] = { "ok", "info", "warn", "error" };
static const char *const conf_names[] = { "low", "medium", "high" };
static const char *const where_names[] = {
	[WHERE_ENV] = "env", [WHERE_NCCL_CONF] = "nccl.conf", [WHERE_SYSCTL] = "sysctl",
	[WHERE_LAUNCHER] = "launcher",
};

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (s && !strcmp(s, names[i]))
			return (int)i;
	return -1;
}

const char *confidence_name(enum confidence c)
{
	return (unsigned)c < ARRAY_SIZE(conf_names) ? conf_names[c] : "low";
}

int confidence_parse(const char *s, enum confidence *out)
{
	int i = name_index(conf_names, ARRAY_SIZE(conf_names), s);

	if (i < 0)
		return -1;
	*out = (enum confidence)i;
	return 0;
}

const char *setting_where_name(enum setting_where w)
{
	return (unsigned)w < ARRAY_SIZE(where_names) ? where_names[w] : "env";
}

int setting_where_parse(const char *s, enum setting_where *out)
{
	int i = name_index(where_names, ARRAY_SIZE(where_names), s);

	if (i < 0)
		return -1;
	*out = (enum setting_where)i;
	return 0;
}

const char *severity_name(enum severity sev)
{
	return (unsigned)sev < ARRAY_SIZE(sev_names) ? sev_names[sev] : "?";
}

int severity_parse(const char *s, enum severity *out)
{
	int i = name_index(sev_names, ARRAY_SIZE(sev_names), s);

	if (i < 0)
		return -1;
	*out = (enum severity)i;
	return 0;
}

struct findings *findings_new(void)
{
	return xcalloc(1, sizeof(struct findings));
}

static void finding_free(struct finding *f)
{
	size_t i;

	free(f->id);
	free(f->title);
	free(f->node);
	free(f->peer);
	free(f->ifname);
	free(f->ranks);
	free(f->why);
	free(f->rerun);
	free(f->check);
	finding_caused_by(f, NULL);
	for (i = 0; i < f->nsettings; i++) {
		free(f->settings[i].name);
		free(f->settings[i].value);
		free(f->settings[i].node);
	}
	free(f->settings);
	for (i = 0; i < f->nfix; i++)
		free(f->fix[i]);
	free(f->fix);
	for (i = 0; i < f->nevidence; i++)
		free(f->evidence[i]);
	free(f->evidence);
	free(f);
}

static int has_upper(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isupper((unsigned char)s[i]))
			return 1;
	return 0;
}

/* Any env setting of that name: an export and an unset of it may be alternatives ("or ..."). */
static int has_env_setting(const struct finding *f, const char *name, size_t n)
{
	for (size_t i = 0; i < f->nsettings; i++) {
		const struct setting *st = &f->settings[i];
		if (st->where == WHERE_ENV && strlen(st->name) == n && !strncmp(st->name, name, n))
			return 1;
	}
	return 0;
}

int finding_unsettled(const struct finding *f, char *name, size_t len)
{
	for (size_t i = 0; i < f->nfix; i++) {
		const char *p = f->fix[i], *end;
		int exp;

		if (!strncmp(p, "on ", 3) && strstr(p, ": "))
			p = strstr(p, ": ") + 2;
		if (!strncmp(p, "export ", 7))
			exp = 1;
		else if (!strncmp(p, "unset ", 6))
			exp = 0;
		else
			continue;
		p += exp ? 7 : 6;
		end = strstr(p, " #");
		if (!end)
			end = p + strlen(p);
		if (exp && strpbrk(p, "$`'\"") && strpbrk(p, "$`'\"") < end)
			continue;
		while (p < end) {
			size_t w, n;

			p += strspn(p, " \t");
			w = strcspn(p, " \t");
			if (p + w > end)
				w = (size_t)(end - p);
			if (!w)
				break;
			n = exp ? strcspn(p, "=") : w;
			if (n > w || !envmap_name_ok(p, n) || (!exp && !has_upper(p, n)))
				break;	/* prose after the names: "unset X on every node" */
			if (!has_env_setting(f, p, n)) {
				snprintf(name, len, "%.*s", (int)n, p);
				return 1;
			}
			p += w;
		}
	}
	return 0;
}

void findings_free(struct findings *fs)
{
	if (!fs)
		return;
#ifndef NDEBUG
	for (size_t i = 0; i < fs->n; i++) {
		char name[128];

		if (!fs->v[i]->decoded && finding_unsettled(fs->v[i], name, sizeof(name))) {
			/* a debug build's assert: the rule must add the setting (finding_export) */
			fprintf(stderr, "ncclcheck: internal: finding %s recommends %s in a fix line "
				"but not in settings[]\n", fs->v[i]->id, name);
			abort();
		}
	}
#endif
	for (size_t i = 0; i < fs->n; i++)
		finding_free(fs->v[i]);
	free(fs->v);
	free(fs);
}

static char *vfmt(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return xstrdup("");
	return s;
}

struct finding *finding_add(struct findings *fs, enum severity sev, const char *id,
			    const char *title_fmt, ...)
{
	struct finding *f = xcalloc(1, sizeof(*f));
	va_list ap;

	f->id = xstrdup(id);
	f->sev = sev;
	f->conf = CONF_HIGH;
	va_start(ap, title_fmt);
	f->title = vfmt(title_fmt, ap);
	va_end(ap);
	ALLOC_GROW(fs->v, fs->n + 1, fs->alloc);
	fs->v[fs->n++] = f;
	return f;
}

void finding_fix(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(f->fix, f->nfix + 1, f->afix);
	va_start(ap, fmt);
	f->fix[f->nfix++] = vfmt(fmt, ap);
	va_end(ap);
}

void finding_evidence(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(f->evidence, f->nevidence + 1, f->aevidence);
	va_start(ap, fmt);
	f->evidence[f->nevidence++] = vfmt(fmt, ap);
	va_end(ap);
}

void finding_why(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->why);
	va_start(ap, fmt);
	f->why = vfmt(fmt, ap);
	va_end(ap);
}

void finding_node(struct finding *f, const char *node)
{
	free(f->node);
	f->node = node ? xstrdup(node) : NULL;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? xstrdup(v) : NULL;
}

void finding_pair(struct finding *f, const char *node, const char *peer, const char *ifname)
{
	set_str(&f->node, node);
	set_str(&f->peer, peer);
	set_str(&f->ifname, ifname);
}

void finding_rank(struct finding *f, int rank)
{
	for (size_t i = 0; i < f->nranks; i++)
		if (f->ranks[i] == rank)
			return;
	ALLOC_GROW(f->ranks, f->nranks + 1, f->aranks);
	f->ranks[f->nranks++] = rank;
}

void finding_rerun(struct finding *f, const char *rerun)
{
	set_str(&f->rerun, rerun);
}

void finding_check(struct finding *f, const char *check)
{
	set_str(&f->check, check);
}

static void cause_set(struct finding *f, const char *id, const char *node, const char *ifname)
{
	if (f->caused_by) {
		free(f->caused_by->id);
		free(f->caused_by->node);
		free(f->caused_by->ifname);
		free(f->caused_by);
		f->caused_by = NULL;
	}
	if (!id)
		return;
	f->caused_by = xcalloc(1, sizeof(*f->caused_by));
	f->caused_by->id = xstrdup(id);
	f->caused_by->node = node ? xstrdup(node) : NULL;
	f->caused_by->ifname = ifname ? xstrdup(ifname) : NULL;
}

void finding_caused_by(struct finding *f, const struct finding *cause)
{
	if (cause)
		cause_set(f, cause->id, cause->node, cause->ifname);
	else
		cause_set(f, NULL, NULL, NULL);
}

int finding_folded(const struct finding *f)
{
	return f->caused_by != NULL;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int finding_cause_is(const struct finding *f, const struct finding *cause)
{
	return f->caused_by && !strcmp(f->caused_by->id, cause->id) &&
	       same_str(f->caused_by->node, cause->node) &&
	       same_str(f->caused_by->ifname, cause->ifname);
}

static struct setting *setting_put(struct finding *f, enum setting_where where,
				   enum setting_scope scope, const char *name, char *value,
				   const char *node)
{
	struct setting *st = NULL;

	for (size_t i = 0; i < f->nsettings; i++) {
		struct setting *x = &f->settings[i];
		if (x->where == where && !strcmp(x->name, name) &&
		    !strcmp(x->node ? x->node : "", node ? node : "")) {
			st = x;
			break;
		}
	}
	if (!st) {
		ALLOC_GROW(f->settings, f->nsettings + 1, f->asettings);
		st = &f->settings[f->nsettings++];
		memset(st, 0, sizeof(*st));
		st->name = xstrdup(name);
		st->node = node ? xstrdup(node) : NULL;
	}
	free(st->value);
	st->value = value;
	st->where = where;
	st->scope = scope;
	return st;
}

struct setting *finding_setting(struct finding *f, enum setting_where where, enum setting_scope scope,
				const char *name, const char *value_fmt, ...)
{
	char *value = NULL;
	va_list ap;

	if (value_fmt) {
		va_start(ap, value_fmt);
		value = vfmt(value_fmt, ap);
		va_end(ap);
	}
	return setting_put(f, where, scope, name, value, scope == SCOPE_NODE ? f->node : NULL);
}

struct setting *finding_setting_for(struct finding *f, enum setting_where where, const char *node,
				    const char *name, const char *value_fmt, ...)
{
	char *value = NULL;
	va_list ap;

	if (value_fmt) {
		va_start(ap, value_fmt);
		value = vfmt(value_fmt, ap);
		va_end(ap);
	}
	return setting_put(f, where, SCOPE_NODE, name, value, node);
}

int setting_placeholder(const char *value)
{
	size_t n = value ? strlen(value) : 0;

	return n >= 2 && value[0] == '<' && value[n - 1] == '>';
}

void finding_export(struct finding *f, const char *name, const char *value_fmt, ...)
{
	char *value;
	va_list ap;

	va_start(ap, value_fmt);
	value = vfmt(value_fmt, ap);
	va_end(ap);
	finding_fix(f, "export %s=%s", name, value);
	setting_put(f, WHERE_ENV, SCOPE_ALL, name, value, NULL);
}

const struct setting *finding_find_setting(const struct finding *f, const char *name)
{
	for (size_t i = 0; i < f->nsettings; i++)
		if (!strcmp(f->settings[i].name, name))
			return &f->settings[i];
	return NULL;
}

const struct finding *findings_find(const struct findings *fs, const char *id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i]->id, id))
			return fs->v[i];
	return NULL;
}

size_t findings_count(const struct findings *fs, enum severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += fs->v[i]->sev == sev && !finding_folded(fs->v[i]);
	return n;
}

enum severity findings_max(const struct findings *fs)
{
	enum severity m = SEV_OK;

	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i]->sev > m && !finding_folded(fs->v[i]))
			m = fs->v[i]->sev;
	return m;
}

void findings_sort(struct findings *fs)
{
	/* insertion sort: stable, and finding lists are short */
	for (size_t i = 1; i < fs->n; i++) {
		struct finding *f = fs->v[i];
		size_t j = i;
		while (j > 0 && fs->v[j - 1]->sev < f->sev) {
			fs->v[j] = fs->v[j - 1];
			j--;
		}
		fs->v[j] = f;
	}
}

static json_t *str_array(char **v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *s = json_string(v[i]);
		/* invalid UTF-8 (a log line, a hostile peer) must not drop the line silently */
		json_array_append_new(a, s ? s : json_string("(line not valid UTF-8)"));
	}
	return a;
}

static json_t *settings_json(const struct finding *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->nsettings; i++) {
		const struct setting *st = &f->settings[i];
		json_t *o = json_object();

		jset_str(o, "name", st->name);
		json_object_set_new(o, "value", st->value ? json_string(st->value) : json_null());
		jset_str(o, "where", setting_where_name(st->where));
		jset_str(o, "scope", st->scope == SCOPE_NODE ? "node" : "all");
		if (st->node)
			jset_str(o, "node", st->node);
		json_array_append_new(a, o);
	}
	return a;
}

json_t *findings_to_json(const struct findings *fs)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = fs->v[i];
		json_t *o = json_object();

		jset_str(o, "id", f->id);
		jset_str(o, "severity", severity_name(f->sev));
		jset_str(o, "confidence", confidence_name(f->conf));
		jset_str(o, "title", f->title);
		if (f->node)
			jset_str(o, "node", f->node);
		if (f->peer)
			jset_str(o, "peer", f->peer);
		if (f->ifname)
			jset_str(o, "ifname", f->ifname);
		if (f->nranks) {
			json_t *r = json_array();
			for (size_t k = 0; k < f->nranks; k++)
				json_array_append_new(r, json_integer(f->ranks[k]));
			json_object_set_new(o, "ranks", r);
		}
		json_object_set_new(o, "fix", str_array(f->fix, f->nfix));
		json_object_set_new(o, "settings", settings_json(f));
		if (f->why)
			jset_str(o, "why", f->why);
		json_object_set_new(o, "evidence", str_array(f->evidence, f->nevidence));
		if (f->rerun)
			jset_str(o, "rerun", f->rerun);
		if (f->check)
			jset_str(o, "check", f->check);
		if (f->caused_by) {
			json_t *c = json_object();

			jset_str(c, "id", f->caused_by->id);
			if (f->caused_by->node)
				jset_str(c, "node", f->caused_by->node);
			if (f->caused_by->ifname)
				jset_str(c, "ifname", f->caused_by->ifname);
			json_object_set_new(o, "caused_by", c);
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

#define FERR(...) do { if (err) snprintf(err, errlen, __VA_ARGS__); goto bad; } while (0)

static const char *opt_str(const json_t *o, const char *key, int *bad)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return NULL;
	if (!json_is_string(v))
		*bad = 1;
	return json_string_value(v);
}

static int str_lines(const json_t *o, const char *key, struct finding *f,
		     void (*add)(struct finding *, const char *, ...))
{
	const json_t *a = json_object_get(o, key), *x;
	size_t j;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return -1;
	json_array_foreach(a, j, x) {
		if (!json_is_string(x))
			return -1;
		add(f, "%s", json_string_value(x));
	}
	return 0;
}

int findings_from_json(struct findings *fs, const json_t *arr, char *err, size_t errlen)
{
	struct findings *tmp = findings_new();
	size_t i, j;
	json_t *o, *x;

	if (!json_is_array(arr))
		FERR("findings: not an array");
	json_array_foreach(arr, i, o) {
		enum severity sev;
		enum confidence conf = CONF_HIGH;
		struct finding *f;
		int bad = 0;
		const char *id, *title, *s;

		if (!json_is_object(o))
			FERR("findings[%zu]: not an object", i);
		id = opt_str(o, "id", &bad);
		title = opt_str(o, "title", &bad);
		if (!id || !*id || !title || bad)
			FERR("findings[%zu]: no id or title", i);
		if (severity_parse(json_string_value(json_object_get(o, "severity")), &sev))
			FERR("findings[%zu] (%s): bad severity", i, id);
		if (json_object_get(o, "confidence") &&
		    confidence_parse(json_string_value(json_object_get(o, "confidence")), &conf))
			FERR("findings[%zu] (%s): bad confidence", i, id);
		f = finding_add(tmp, sev, id, "%s", title);
		f->conf = conf;
		f->decoded = 1;
		if ((s = opt_str(o, "node", &bad)))
			finding_node(f, s);
		set_str(&f->peer, opt_str(o, "peer", &bad));
		set_str(&f->ifname, opt_str(o, "ifname", &bad));
		set_str(&f->rerun, opt_str(o, "rerun", &bad));
		set_str(&f->check, opt_str(o, "check", &bad));
		if ((s = opt_str(o, "why", &bad)))
			finding_why(f, "%s", s);
		if (bad)
			FERR("findings[%zu] (%s): a text member is not a string", i, id);
		x = json_object_get(o, "caused_by");
		if (x) {
			const char *cid = json_is_object(x) ? opt_str(x, "id", &bad) : NULL;
			const char *cnode = json_is_object(x) ? opt_str(x, "node", &bad) : NULL;
			const char *cif = json_is_object(x) ? opt_str(x, "ifname", &bad) : NULL;

			if (!cid || !*cid || bad)
				FERR("findings[%zu] (%s): caused_by is not {id, node, ifname}", i, id);
			cause_set(f, cid, cnode, cif);
		}
		if (str_lines(o, "fix", f, finding_fix) || str_lines(o, "evidence", f, finding_evidence))
			FERR("findings[%zu] (%s): fix/evidence must be arrays of strings", i, id);
		x = json_object_get(o, "ranks");
		if (x) {
			json_t *r;
			if (!json_is_array(x))
				FERR("findings[%zu] (%s): ranks is not an array", i, id);
			json_array_foreach(x, j, r) {
				if (!json_is_integer(r) || json_integer_value(r) < 0 ||
				    json_integer_value(r) > (1 << 24))
					FERR("findings[%zu] (%s): a rank is not a small integer", i, id);
				finding_rank(f, (int)json_integer_value(r));
			}
		}
		x = json_object_get(o, "settings");
		if (x) {
			json_t *st;
			if (!json_is_array(x))
				FERR("findings[%zu] (%s): settings is not an array", i, id);
			json_array_foreach(x, j, st) {
				enum setting_where where;
				const char *name, *node, *scope;
				const json_t *v = json_object_get(st, "value");

				name = opt_str(st, "name", &bad);
				node = opt_str(st, "node", &bad);
				scope = opt_str(st, "scope", &bad);
				if (!json_is_object(st) || bad || !name || !*name ||
				    (v && !json_is_string(v) && !json_is_null(v)) ||
				    setting_where_parse(json_string_value(json_object_get(st, "where")), &where) ||
				    (scope && strcmp(scope, "all") && strcmp(scope, "node")))
					FERR("findings[%zu] (%s): settings[%zu] is malformed", i, id, j);
				setting_put(f, where, scope && !strcmp(scope, "node") ? SCOPE_NODE : SCOPE_ALL,
					    name, json_is_string(v) ? xstrdup(json_string_value(v)) : NULL, node);
			}
		}
	}
	for (i = 0; i < tmp->n; i++) {
		ALLOC_GROW(fs->v, fs->n + 1, fs->alloc);
		fs->v[fs->n++] = tmp->v[i];
	}
	tmp->n = 0;
	findings_free(tmp);
	return 0;
bad:
	findings_free(tmp);
	return -1;
}

struct finding *finding_copy(struct findings *to, const struct finding *f)
{
	struct finding *g = finding_add(to, f->sev, f->id, "%s", f->title);

	if (f->why)
		finding_why(g, "%s", f->why);
	for (size_t k = 0; k < f->nfix; k++)
		finding_fix(g, "%s", f->fix[k]);
	for (size_t k = 0; k < f->nevidence; k++)
		finding_evidence(g, "%s", f->evidence[k]);
	finding_pair(g, f->node, f->peer, f->ifname);
	for (size_t k = 0; k < f->nranks; k++)
		finding_rank(g, f->ranks[k]);
	for (size_t k = 0; k < f->nsettings; k++) {
		const struct setting *st = &f->settings[k];
		if (st->scope == SCOPE_NODE)
			finding_setting_for(g, st->where, st->node ? st->node : f->node, st->name,
					    st->value ? "%s" : NULL, st->value);
		else
			finding_setting(g, st->where, SCOPE_ALL, st->name, st->value ? "%s" : NULL,
					st->value);
	}
	if (f->caused_by)
		cause_set(g, f->caused_by->id, f->caused_by->node, f->caused_by->ifname);
	g->decoded = f->decoded;
	return g;
}
