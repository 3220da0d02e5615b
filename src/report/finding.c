/* finding: see finding.h. */
#include "report/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/xalloc.h"

static const char *const sev_names[] = { "ok", "info", "warn", "error" };

const char *severity_name(enum severity sev)
{
	return (unsigned)sev < ARRAY_SIZE(sev_names) ? sev_names[sev] : "?";
}

int severity_parse(const char *s, enum severity *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(sev_names); i++) {
		if (s && !strcmp(s, sev_names[i])) {
			*out = (enum severity)i;
			return 0;
		}
	}
	return -1;
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
	free(f->why);
	for (i = 0; i < f->nfix; i++)
		free(f->fix[i]);
	free(f->fix);
	for (i = 0; i < f->nevidence; i++)
		free(f->evidence[i]);
	free(f->evidence);
	free(f);
}

void findings_free(struct findings *fs)
{
	if (!fs)
		return;
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
		n += fs->v[i]->sev == sev;
	return n;
}

enum severity findings_max(const struct findings *fs)
{
	enum severity m = SEV_OK;

	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i]->sev > m)
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

json_t *findings_to_json(const struct findings *fs)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = fs->v[i];
		json_t *o = json_object();

		jset_str(o, "id", f->id);
		jset_str(o, "severity", severity_name(f->sev));
		jset_str(o, "title", f->title);
		if (f->node)
			jset_str(o, "node", f->node);
		json_object_set_new(o, "fix", str_array(f->fix, f->nfix));
		if (f->why)
			jset_str(o, "why", f->why);
		json_object_set_new(o, "evidence", str_array(f->evidence, f->nevidence));
		json_array_append_new(arr, o);
	}
	return arr;
}

int findings_from_json(struct findings *fs, const json_t *arr)
{
	size_t i, j;
	json_t *o, *x;

	if (!json_is_array(arr))
		return -1;
	json_array_foreach(arr, i, o) {
		enum severity sev;
		struct finding *f;
		const char *id = json_string_value(json_object_get(o, "id"));
		const char *title = json_string_value(json_object_get(o, "title"));

		if (!id || !title || severity_parse(json_string_value(json_object_get(o, "severity")), &sev))
			return -1;
		f = finding_add(fs, sev, id, "%s", title);
		if (json_is_string(json_object_get(o, "node")))
			finding_node(f, json_string_value(json_object_get(o, "node")));
		if (json_is_string(json_object_get(o, "why")))
			finding_why(f, "%s", json_string_value(json_object_get(o, "why")));
		json_array_foreach(json_object_get(o, "fix"), j, x)
			if (json_is_string(x))
				finding_fix(f, "%s", json_string_value(x));
		json_array_foreach(json_object_get(o, "evidence"), j, x)
			if (json_is_string(x))
				finding_evidence(f, "%s", json_string_value(x));
	}
	return 0;
}
