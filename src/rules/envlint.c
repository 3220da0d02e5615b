/*
 * NCCL_* lint: every NCCL variable this node sets, from the environment or an nccl.conf file,
 * checked the way NCCL will read it (rules/nccl_vars.c): names NCCL does not know, values its
 * parsers turn into something else without a word (NCCL_IB_DISABLE=true is 0), knobs the seed
 * articles recommend that NCCL documents as debugging aids, and settings that contradict the
 * hardware. Network interface settings are checked in rules/net_iface.c with the prediction. Pure.
 */
#include "rules/rules.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/nccl_vars.h"
#include "model/stack_tables.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/version.h"
#include "util/xalloc.h"

#define ORIGIN_LEN 512

struct lint {
	const struct node_model *m;
	const char *version;		/* modelled NCCL */
	const char *version_why;
	int assumed;
	const struct nccl_settings *s;
	struct findings *out;
	int problems;
};

/* "environment" or "/etc/nccl.conf line 3". */
static void origin(const struct nccl_setting *st, char *buf, size_t len)
{
	if (st->from_file && st->line > 0)
		snprintf(buf, len, N_("%s line %d"), st->source, st->line);
	else
		snprintf(buf, len, "%s", st->source);
}

/* Quotes a value for a POSIX shell when it needs it. */
static void shell_word(struct strbuf *sb, const char *v)
{
	int plain = *v != '\0';

	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.,:/=^+@%", *p))
			plain = 0;
	if (plain) {
		strbuf_addstr(sb, v);
		return;
	}
	strbuf_addch(sb, '\'');
	for (const char *p = v; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

/* The fix that sets `name` to `value` where the current value comes from. */
static void fix_set(struct finding *f, const struct nccl_setting *st, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	if (!st || !st->from_file) {
		strbuf_addf(&sb, "export %s=", name);
		shell_word(&sb, value);
	} else {
		strbuf_addf(&sb, "sed -i 's|^%s=.*|%s=%s|' %s", st->name, name, value, st->source);
	}
	finding_fix(f, "%s", sb.buf);
	strbuf_release(&sb);
	/* the same as data: in the place the value comes from now */
	finding_setting(f, st && st->from_file ? WHERE_NCCL_CONF : WHERE_ENV, SCOPE_ALL, name, "%s", value);
	if (st && strcmp(st->name, name))
		finding_setting(f, st->from_file ? WHERE_NCCL_CONF : WHERE_ENV, SCOPE_ALL, st->name, NULL);
}

static void fix_unset(struct finding *f, const struct nccl_setting *st)
{
	if (!st->from_file)
		finding_fix(f, "unset %s", st->name);
	else
		finding_fix(f, "sed -i '/^%s=/d' %s", st->name, st->source);
	finding_setting(f, st->from_file ? WHERE_NCCL_CONF : WHERE_ENV, SCOPE_ALL, st->name, NULL);
}

static struct finding *lint_add(struct lint *l, enum severity sev, const char *id, const struct nccl_setting *st,
			   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct finding *lint_add(struct lint *l, enum severity sev, const char *id, const struct nccl_setting *st,
			   const char *fmt, ...)
{
	char title[512], where[ORIGIN_LEN];
	va_list ap;
	struct finding *f;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	f = finding_add(l->out, sev, id, "%s", title);
	if (st) {
		origin(st, where, sizeof(where));
		finding_evidence(f, N_("%s=%s (source: %s)"), st->name, st->value, where);
	}
	if (sev >= SEV_WARN)
		l->problems++;
	return f;
}

static void evidence_version(struct lint *l, struct finding *f)
{
	finding_evidence(f, "NCCL %s (%s)", l->version, l->version_why);
}

static int version_ge(const struct lint *l, const char *v)
{
	return version_cmp_str(l->version, v) >= 0;
}

/* ---- single variables ---- */

static void lint_unknown(struct lint *l, const struct nccl_setting *st)
{
	const char **names = xcalloc(nccl_vars_count, sizeof(*names));
	const char *best;
	struct finding *f;

	for (size_t i = 0; i < nccl_vars_count; i++)
		names[i] = nccl_vars[i].name;
	best = suggest_closest(st->name, names, nccl_vars_count);
	if (best)
		f = lint_add(l, SEV_WARN, "nccl.env.unknown", st,
			"%s is not an NCCL variable; did you mean %s? NCCL ignores it", st->name, best);
	else
		f = lint_add(l, SEV_WARN, "nccl.env.unknown", st, "%s is not a variable NCCL reads; it has no effect",
			st->name);
	if (best && !strcmp(best, "NCCL_SOCKET_IFNAME"))
		finding_why(f, "NCCL looks up each variable by its exact name; a misspelt one is silently ignored, "
			    "so the setting you meant is not in force and NCCL picks the interface by itself.");
	else
		finding_why(f, "NCCL looks up each variable by its exact name; a misspelt one is silently ignored, "
			    "so the setting you meant is not in force.");
	fix_unset(f, st);
	if (best)
		fix_set(f, NULL, best, st->value);
	free(names);
}

static void lint_version(struct lint *l, const struct nccl_setting *st, const struct nccl_var *v)
{
	struct finding *f;

	/* removed before any NCCL a PyTorch 2.x ships: true whatever the version */
	if (v->gone && (version_cmp_str(v->gone, "2.7.8") <= 0 || (!l->assumed && version_ge(l, v->gone)))) {
		if (v->note)
			f = lint_add(l, SEV_WARN, "nccl.env.removed", st, "%s is no longer read by NCCL %s: %s",
				     st->name, l->assumed ? v->gone : l->version, v->note);
		else
			f = lint_add(l, SEV_WARN, "nccl.env.removed", st, "%s is no longer read by NCCL %s", st->name,
				     l->assumed ? v->gone : l->version);
		finding_why(f, "NCCL %s and newer do not read %s; setting it changes nothing.", v->gone, st->name);
		if (!l->assumed)
			evidence_version(l, f);
		fix_unset(f, st);
		return;
	}
	if (v->since && !l->assumed && !version_ge(l, v->since)) {
		f = lint_add(l, SEV_WARN, "nccl.env.too_new", st, "%s is read from NCCL %s on; this job loads %s, "
			"which ignores it", st->name, v->since, l->version);
		finding_why(f, "The variable appeared in NCCL %s. Older releases do not look it up, so the "
			    "setting silently has no effect.", v->since);
		evidence_version(l, f);
		finding_fix(f, N_("# upgrade NCCL to %s or newer (pip install -U nvidia-nccl-cu12 or a newer torch), "
			    "or drop the setting:"), v->since);
		fix_unset(f, st);
	}
}

static void lint_int(struct lint *l, const struct nccl_setting *st, const struct nccl_var *v)
{
	enum nv_parse how;
	long long n = nccl_parse_int(st->value, &how);
	struct finding *f;
	int ib_disable = !strcmp(st->name, "NCCL_IB_DISABLE");
	long long def = v->def && strcmp(v->def, "unset") ? strtoll(v->def, NULL, 10) : 0;
	int has_def = v->def && strcmp(v->def, "unset");

	switch (how) {
	case NV_PARSE_EMPTY:
		if (has_def)
			f = lint_add(l, SEV_INFO, "nccl.env.empty", st, "%s is set but empty: NCCL uses its default %s",
				     st->name, v->def);
		else
			f = lint_add(l, SEV_INFO, "nccl.env.empty", st, "%s is set but empty: NCCL uses its default",
				     st->name);
		fix_unset(f, st);
		return;
	case NV_PARSE_JUNK:
		if (ib_disable) {
			f = lint_add(l, SEV_WARN, "nccl.env.int", st, "%s='%s' is read as 0: InfiniBand stays enabled",
				     st->name, st->value);
			finding_why(f, "NCCL reads integer variables with strtoll(value, NULL, 0) and no error check: "
				    "text without digits (true, yes, on) becomes 0 without a warning, so "
				    "NCCL_IB_DISABLE=true does not disable IB; only a non-zero number does.");
		} else {
			f = lint_add(l, SEV_WARN, "nccl.env.int", st, "%s='%s' is read as 0", st->name, st->value);
			finding_why(f, "NCCL reads integer variables with strtoll(value, NULL, 0) and no error check: "
				    "text without digits (true, yes, on) becomes 0 without a warning.");
		}
		fix_set(f, st, st->name, ib_disable && (!strcasecmp(st->value, "true") || !strcasecmp(st->value, "yes") ||
							!strcasecmp(st->value, "on")) ? "1" : "0");
		return;
	case NV_PARSE_TRAILING:
		f = lint_add(l, SEV_WARN, "nccl.env.int", st, "%s='%s' is read as %lld: NCCL ignores the rest",
			st->name, st->value, n);
		finding_why(f, "strtoll() stops at the first character that is not a digit and NCCL does not "
			    "check what is left, so units and suffixes (4M, 1k) are dropped silently.");
		{
			char buf[32];
			snprintf(buf, sizeof(buf), "%lld", n);
			fix_set(f, st, st->name, buf);
		}
		return;
	case NV_PARSE_OCTAL:
		f = lint_add(l, SEV_WARN, "nccl.env.int", st, "%s='%s' is octal to NCCL: it reads %lld", st->name,
			st->value, n);
		finding_why(f, "NCCL parses integers with base 0, so a leading zero means octal.");
		{
			char buf[32];
			snprintf(buf, sizeof(buf), "%lld", n);
			fix_set(f, st, st->name, buf);
		}
		return;
	case NV_PARSE_HEX:
		f = lint_add(l, SEV_INFO, "nccl.env.int", st, "%s='%s' is hexadecimal: NCCL reads %lld", st->name,
			st->value, n);
		return;
	case NV_PARSE_RANGE:
		if (has_def)
			f = lint_add(l, SEV_WARN, "nccl.env.int", st, "%s='%s' is out of range: NCCL uses the default %s",
				     st->name, st->value, v->def);
		else
			f = lint_add(l, SEV_WARN, "nccl.env.int", st, "%s='%s' is out of range: NCCL uses the default",
				     st->name, st->value);
		fix_unset(f, st);
		return;
	case NV_PARSE_OK:
		break;
	}
	if (v->min <= v->max && (n < v->min || n > v->max) && !(has_def && n == def)) {
		f = lint_add(l, SEV_WARN, "nccl.env.range", st, "%s=%lld is outside %lld..%lld", st->name, n, v->min,
			v->max);
		finding_why(f, "NCCL documents %s for %lld..%lld; other values are clamped, treated as "
			    "'infinite' or rejected at init depending on the variable.", st->name, v->min, v->max);
		fix_unset(f, st);
	}
}

/* NV_FLOAT as src/ras/ras_param.cc reads it: the whole value, finite and above 0. */
static void lint_float(struct lint *l, const struct nccl_setting *st, const struct nccl_var *v)
{
	char *end = NULL;
	double d;
	struct finding *f;

	if (v->typed_since && !l->assumed && !version_ge(l, v->typed_since)) {
		lint_int(l, st, v); /* this NCCL still reads it with NCCL_PARAM's strtoll */
		return;
	}
	if (!*st->value) {
		f = lint_add(l, SEV_INFO, "nccl.env.empty", st, "%s is set but empty: NCCL uses its default %s",
			st->name, v->def);
		fix_unset(f, st);
		return;
	}
	errno = 0;
	d = strtod(st->value, &end);
	if (!errno && end != st->value && !*end && isfinite(d) && d > 0)
		return;
	f = lint_add(l, SEV_WARN, "nccl.env.float", st, "%s='%s' is not a number above 0: NCCL uses %s",
		st->name, st->value, v->def);
	finding_why(f, "NCCL %s reads %s with strtod() over the whole value and falls back to its "
		    "default for anything else, with only an INFO line.", l->assumed ? v->typed_since :
		    l->version, st->name);
	evidence_version(l, f);
	fix_unset(f, st);
}

/* Enum values newer than the variable: an older NCCL takes them as unknown. */
static const struct {
	const char *name, *value, *since, *older;
} value_since[] = {
	{ "NCCL_DEBUG", "ATTN", "2.32.3", "WARN" },
};

/* 1 when the value is one this NCCL does not know yet (and a finding says so). */
static int lint_value_version(struct lint *l, const struct nccl_setting *st)
{
	struct finding *f;

	for (size_t i = 0; i < sizeof(value_since) / sizeof(value_since[0]); i++) {
		if (strcmp(value_since[i].name, st->name) || strcasecmp(value_since[i].value, st->value) ||
		    l->assumed || version_ge(l, value_since[i].since))
			continue;
		f = lint_add(l, SEV_WARN, "nccl.env.value", st, "%s=%s is a value from NCCL %s on; NCCL %s "
			"does not know it: %s", st->name, st->value, value_since[i].since, l->version,
			!strcmp(st->name, "NCCL_DEBUG") ? N_("it prints nothing at all, not even warnings") :
			N_("it ignores the setting"));
		finding_why(f, "NCCL %s added %s as a value of %s; older releases compare against the "
			    "values they know and treat any other like an unknown one.", value_since[i].since,
			    value_since[i].value, st->name);
		evidence_version(l, f);
		fix_set(f, st, st->name, value_since[i].older);
		return 1;
	}
	return 0;
}

struct enum_effect {
	const char *name, *effect;
};

/* What NCCL does with a value it does not recognise. */
static const struct enum_effect enum_effects[] = {
	{ "NCCL_DEBUG", N_("NCCL prints nothing at all, not even warnings") },
	{ "NCCL_LAUNCH_MODE", N_("NCCL uses PARALLEL") },
	{ "NCCL_SOCKET_FAMILY", N_("NCCL does not filter by family and takes IPv4 or IPv6, whichever comes first") },
	{ "NCCL_IB_ADDR_FAMILY", N_("NCCL keeps its default (AF_INET)") },
	{ "NCCL_CHECK_MODE", N_("NCCL keeps its default") },
};

static int in_list(const char *v, const char *list, int ci)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, "|");
		if (strlen(v) == n && !(ci ? strncasecmp(v, p, n) : strncmp(v, p, n)))
			return 1;
		p += n + (p[n] == '|');
	}
	return 0;
}

static void lint_enum(struct lint *l, const struct nccl_setting *st, const struct nccl_var *v, int ci)
{
	const char *effect = N_("NCCL ignores it");
	struct finding *f;
	char want[128];

	if (!v->values || in_list(st->value, v->values, ci))
		return;
	for (size_t i = 0; i < sizeof(enum_effects) / sizeof(enum_effects[0]); i++)
		if (!strcmp(enum_effects[i].name, st->name))
			effect = enum_effects[i].effect;
	snprintf(want, sizeof(want), "%s", v->values);
	for (char *c = want; *c; c++)
		if (*c == '|')
			*c = '/';
	f = lint_add(l, SEV_WARN, "nccl.env.value", st, "%s='%s' is not one of %s: %s", st->name, st->value, want,
		effect);
	if (!ci && in_list(st->value, v->values, 1))
		finding_why(f, "NCCL compares %s with strcmp(): case matters.", st->name);
	else
		finding_why(f, "NCCL accepts %s%s for %s.", want, ci ? " (any case)" : " exactly", st->name);
	{
		/* suggest the allowed value that matches ignoring case, else the first */
		char first[64] = "";
		const char *p = v->values;
		while (*p) {
			size_t n = strcspn(p, "|");
			if (strlen(st->value) == n && !strncasecmp(st->value, p, n)) {
				snprintf(first, sizeof(first), "%.*s", (int)n, p);
				break;
			}
			if (!first[0])
				snprintf(first, sizeof(first), "%.*s", (int)n, p);
			p += n + (p[n] == '|');
		}
		fix_set(f, st, st->name, first);
	}
}

static void lint_level(struct lint *l, const struct nccl_setting *st)
{
	static const char *const base = "LOC|NVL|NVB|PIX|PXB|PXN|PHB|SYS";
	const char *v = st->value;
	struct finding *f;
	int digits = *v != '\0';

	for (const char *p = v; *p; p++)
		if (!isdigit((unsigned char)*p))
			digits = 0;
	if (digits || in_list(v, base, 0) || (version_ge(l, "2.27") && in_list(v, "C2C|P2C", 0)))
		return;
	f = lint_add(l, SEV_WARN, "nccl.env.value", st, "%s='%s' is not a topology level: NCCL ignores it",
		st->name, v);
	finding_why(f, "NCCL compares the level with strcmp() against LOC, NVL, NVB, PIX, PXB, PXN, PHB, SYS%s "
		    "(or a legacy number); anything else, including lower case, is silently ignored.",
		    version_ge(l, "2.27") ? ", C2C, P2C" : "");
	if (in_list(v, base, 1)) {
		char up[16];
		snprintf(up, sizeof(up), "%s", v);
		for (char *c = up; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		fix_set(f, st, st->name, up);
	} else {
		fix_unset(f, st);
	}
}

/* NCCL_ALGO / NCCL_PROTO: "[func:][^]tok,tok;func:..." (2.24+), plain token lists before. */
static void lint_tuning(struct lint *l, const struct nccl_setting *st, int algo)
{
	static const char *const algos = "Tree|Ring|CollNetDirect|CollNetChain|NVLS|NVLSTree|PAT";
	static const char *const protos = "LL|LL128|Simple";
	static const char *const funcs = "Broadcast|Reduce|AllGather|ReduceScatter|AllReduce";
	static const char *const algos_text = "Tree/Ring/CollNetDirect/CollNetChain/NVLS/NVLSTree/PAT";
	static const char *const protos_text = "LL/LL128/Simple";
	static const char *const funcs_text = "Broadcast/Reduce/AllGather/ReduceScatter/AllReduce";
	const char *elems = algo ? algos : protos;
	int grammar = version_ge(l, "2.24");
	/* what is wrong, as the title says it: each a whole format of its own (the reader's language) */
	enum { TOK_OK, TOK_NOT_FUNC, TOK_NO_PREFIX, TOK_NOT_ELEM } why_bad = TOK_OK;
	char *copy = xstrdup(st->value), *save = NULL, *part, bad[128] = "";
	int first = 1;
	struct finding *f;

	for (part = strtok_r(copy, ";", &save); part && !bad[0]; part = strtok_r(NULL, ";", &save), first = 0) {
		char *colon = grammar ? strchr(part, ':') : NULL, *list = part, *s2 = NULL, *tok;

		if (colon) {
			*colon = '\0';
			if (!in_list(part, funcs, 1)) {
				snprintf(bad, sizeof(bad), "%s", part);
				why_bad = TOK_NOT_FUNC;
				break;
			}
			list = colon + 1;
		} else if (!first && grammar) {
			snprintf(bad, sizeof(bad), "%s", part);
			why_bad = TOK_NO_PREFIX;
			break;
		}
		if (*list == '^')
			list++;
		for (tok = strtok_r(list, ",", &s2); tok; tok = strtok_r(NULL, ",", &s2))
			if (!in_list(tok, elems, 1) && !(algo && !grammar && !strcasecmp(tok, "CollNet"))) {
				snprintf(bad, sizeof(bad), "%s", tok);
				why_bad = TOK_NOT_ELEM;
				break;
			}
	}
	free(copy);
	if (bad[0]) {
		const char *elems_text = algo ? algos_text : protos_text;

		if (!grammar)
			f = lint_add(l, SEV_WARN, "nccl.env.tuning_syntax", st, "%s='%s': '%s' is not one of %s "
				     "(spaces are not trimmed), and NCCL %s silently skips it", st->name, st->value,
				     bad, elems_text, l->version);
		else if (why_bad == TOK_NOT_FUNC)
			f = lint_add(l, SEV_ERROR, "nccl.env.tuning_syntax", st, "%s='%s' makes NCCL fail at init: "
				     "'%s' is not a collective (%s)", st->name, st->value, bad, funcs_text);
		else if (why_bad == TOK_NO_PREFIX)
			f = lint_add(l, SEV_ERROR, "nccl.env.tuning_syntax", st, "%s='%s' makes NCCL fail at init: "
				     "every entry after the first needs a 'Function:' prefix", st->name, st->value);
		else
			f = lint_add(l, SEV_ERROR, "nccl.env.tuning_syntax", st, "%s='%s' makes NCCL fail at init: "
				     "'%s' is not one of %s (spaces are not trimmed)", st->name, st->value, bad,
				     elems_text);
		if (grammar)
			finding_why(f, "From 2.24 NCCL parses %s strictly and returns ncclInvalidUsage "
				    "(\"Unrecognized element token\" / \"All entries except the first must have a "
				    "prefix\"); every rank fails to create its communicator.", st->name);
		else
			finding_why(f, "Before 2.24 NCCL skips tokens it does not know, so the restriction you "
				    "meant may not be in force.");
		evidence_version(l, f);
		fix_unset(f, st);
		return;
	}
	/* whole formats, not a pasted word: xgettext takes only a ternary's first literal */
	if (algo)
		f = lint_add(l, SEV_WARN, "nccl.env.algo_forced", st,
			     "%s=%s forces NCCL's algorithm for every collective and message size", st->name,
			     st->value);
	else
		f = lint_add(l, SEV_WARN, "nccl.env.proto_forced", st,
			     "%s=%s forces NCCL's protocol for every collective and message size", st->name,
			     st->value);
	finding_why(f, "%s, but NCCL's documentation describes it as a debugging knob: NCCL's tuner picks "
		    "per collective and per message size, and one forced choice is wrong for some of them (a "
		    "forced protocol like Simple is slow for small messages, a forced algorithm can disable NVLS "
		    "or tree on large jobs). Leave it unset unless a measurement shows it helps.",
		    algo ? N_("Both seed articles recommend setting NCCL_ALGO (Tree, Ring)")
			 : N_("The second seed recommends NCCL_PROTO=Simple"));
	fix_unset(f, st);
}

static void lint_subsys(struct lint *l, const struct nccl_setting *st)
{
	static const char *const known = "INIT|COLL|P2P|SHM|NET|GRAPH|TUNING|ENV|ALLOC|CALL|PROXY|NVLS|"
					 "BOOTSTRAP|REG|PROFILE|RAS|DESTROY|ALLOC_HOST|ALL";
	char *copy = xstrdup(st->value), *save = NULL, *tok, *p = copy;
	struct finding *f;

	if (*p == '^')
		p++;
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!in_list(tok, known, 1)) {
			f = lint_add(l, SEV_INFO, "nccl.env.value", st, "NCCL_DEBUG_SUBSYS: '%s' is not a subsystem; "
				"NCCL ignores that name", tok);
			finding_why(f, "Subsystems are INIT, COLL, P2P, SHM, NET, GRAPH, TUNING, ENV, ALLOC, CALL, "
				    "PROXY, NVLS, BOOTSTRAP, REG, PROFILE, RAS or ALL.");
			break;
		}
	free(copy);
}

static int rdma_active_ports(const struct node_model *m, struct strbuf *names)
{
	int n = 0;

	for (size_t i = 0; i < m->rdma.nports; i++) {
		const struct nm_rdma_port *p = &m->rdma.ports[i];

		if (p->state && !strcmp(p->state, "ACTIVE")) {
			if (names)
				strbuf_addf(names, "%s%s:%ld/%s", n ? ", " : "", str_or(p->dev, "(null)"), p->port,
					    str_or(p->link_layer, "?"));
			n++;
		}
	}
	return n;
}

static void lint_semantics(struct lint *l, const struct nccl_setting *st)
{
	const char *n = st->name, *v = st->value;
	enum nv_parse how;
	struct finding *f;

	if (!strcmp(n, "NCCL_DEBUG") && (!strcasecmp(v, "INFO") || !strcasecmp(v, "TRACE"))) {
		int trace = !strcasecmp(v, "TRACE");
		if (trace)
			f = lint_add(l, SEV_WARN, "nccl.env.debug", st,
				     "NCCL_DEBUG=%s is left on: every rank logs every call", v);
		else
			f = lint_add(l, SEV_INFO, "nccl.env.debug", st,
				     "NCCL_DEBUG=%s is left on: every rank logs its set-up", v);
		finding_why(f, "INFO is what you want while diagnosing (ncclcheck explain reads it), but it adds "
			    "dozens of lines per rank at every communicator creation; TRACE slows every call. "
			    "WARN keeps the lines that explain a failure.");
		fix_set(f, st, n, "WARN");
	} else if (!strcmp(n, "NCCL_LAUNCH_MODE") && !strcasecmp(v, "PARALLEL")) {
		f = lint_add(l, SEV_INFO, "nccl.env.launch_mode", st,
			"NCCL_LAUNCH_MODE=PARALLEL is already NCCL's default: it changes nothing");
		finding_why(f, "The first seed recommends it as a 'parallel launch mode'. NCCL has launched "
			    "PARALLEL by default for years; the mode only matters when one process drives several "
			    "GPUs, and PyTorch DDP / Lightning run one process per GPU.");
		fix_unset(f, st);
	} else if (!strcmp(n, "NCCL_LAUNCH_MODE") && !strcasecmp(v, "GROUP")) {
		f = lint_add(l, SEV_WARN, "nccl.env.launch_mode", st, "NCCL_LAUNCH_MODE=GROUP is deprecated since NCCL 2.9");
		finding_why(f, "GROUP launches the kernels of one process's GPUs as a group; it is deprecated and "
			    "only meant for single-process multi-GPU programs, which PyTorch DDP is not.");
		fix_unset(f, st);
	} else if (!strcmp(n, "NCCL_BUFFSIZE")) {
		long long b = nccl_parse_int(v, &how);
		if (how == NV_PARSE_OK && b == 4194304) {
			f = lint_add(l, SEV_INFO, "nccl.env.buffsize", st,
				"NCCL_BUFFSIZE=4194304 is NCCL's default (4 MiB): it changes nothing");
			finding_why(f, "The first seed lists it as a tuning step; 4 MiB is what NCCL uses anyway.");
			fix_unset(f, st);
		} else if (how == NV_PARSE_OK && b > 0 && (b & (b - 1))) {
			f = lint_add(l, SEV_WARN, "nccl.env.buffsize", st,
				"NCCL_BUFFSIZE=%lld is not a power of two", b);
			finding_why(f, "NCCL documents power-of-two buffer sizes; others waste memory per channel "
				    "and peer and can misalign the protocol's slices.");
			fix_unset(f, st);
		} else if (how == NV_PARSE_OK && b > 0 && b < 65536) {
			f = lint_add(l, SEV_WARN, "nccl.env.buffsize", st,
				"NCCL_BUFFSIZE=%lld is tiny: every transfer is cut into pieces that small", b);
			fix_unset(f, st);
		}
	} else if (!strcmp(n, "NCCL_IB_GID_INDEX") && version_ge(l, "2.21")) {
		f = lint_add(l, SEV_INFO, "nccl.env.gid_index", st,
			"NCCL_IB_GID_INDEX=%s overrides the GID that NCCL %s selects by itself", v, l->version);
		finding_why(f, "From 2.21 NCCL picks the RoCE GID dynamically (NCCL_IB_ADDR_FAMILY, "
			    "NCCL_IB_ROCE_VERSION_NUM); NCCL's troubleshooting guide says the index should not be "
			    "set unless the provider requires it (some clouds do). A wrong index fails with "
			    "'ibv_modify_qp failed'.");
		evidence_version(l, f);
	} else if ((!strcmp(n, "NCCL_P2P_DISABLE") || !strcmp(n, "NCCL_SHM_DISABLE")) &&
		   nccl_parse_int(v, &how) != 0 && how == NV_PARSE_OK) {
		int p2p = !strcmp(n, "NCCL_P2P_DISABLE");
		if (p2p)
			f = lint_add(l, SEV_WARN, "nccl.env.p2p_disabled", st,
				     "%s=%s: GPUs in this node talk through host memory instead of NVLink/PCIe "
				     "peer access", n, v);
		else
			f = lint_add(l, SEV_WARN, "nccl.env.shm_disabled", st,
				     "%s=%s: GPUs in this node talk through the network instead of shared memory "
				     "when P2P is not possible", n, v);
		finding_why(f, "This is a workaround for broken peer-to-peer set-ups (some VMs, ACS); on a "
			    "healthy machine it costs intra-node bandwidth.");
		fix_unset(f, st);
	} else if (!strcmp(n, "NCCL_IB_DISABLE") && nccl_parse_int(v, &how) != 0 && how == NV_PARSE_OK) {
		struct strbuf ports = STRBUF_INIT;
		if (rdma_active_ports(l->m, &ports) > 0) {
			f = lint_add(l, SEV_WARN, "nccl.env.ib_disabled", st,
				"NCCL_IB_DISABLE=%s while RDMA ports are active (%s): NCCL uses TCP sockets", v,
				ports.buf);
			finding_why(f, "The second seed sets NCCL_IB_DISABLE=1 for machines without InfiniBand. This "
				    "one has active RDMA ports, so disabling IB forces every inter-node byte through "
				    "TCP at a fraction of the bandwidth.");
			finding_evidence(f, "rdma.devices: %s", ports.buf);
			fix_unset(f, st);
		}
		strbuf_release(&ports);
	} else if (!strcmp(n, "NCCL_COMM_BLOCKING") && nccl_parse_int(v, &how) == 0 && how == NV_PARSE_OK) {
		f = lint_add(l, SEV_WARN, "nccl.env.comm_blocking", st,
			"NCCL_COMM_BLOCKING=0 makes every communicator non-blocking");
		finding_why(f, "ncclCommInitRank then returns ncclInProgress and every caller must poll; programs "
			    "that do not expect it treat that as an error.");
		fix_unset(f, st);
	}
}

static void lint_net(struct lint *l, const struct nccl_setting *st)
{
	struct finding *f;
	int ib = !strcasecmp(st->value, "IB"), sock = !strcasecmp(st->value, "Socket");
	int fails_27 = version_ge(l, "2.27");

	if (ib) {
		struct strbuf ports = STRBUF_INIT;
		int active = rdma_active_ports(l->m, &ports);
		int verbs = l->m->rdma.verbs_loaded != 0;

		if (!active || !verbs) {
			f = lint_add(l, SEV_ERROR, "nccl.env.net_ib", st, "NCCL_NET=IB but %s: NCCL fails at init",
				!l->m->rdma.ndevices ? N_("this node has no RDMA device")
				: !active ? N_("no RDMA port is ACTIVE") : N_("libibverbs does not load"));
			finding_why(f, "With NCCL_NET=IB NCCL does not fall back to TCP sockets; it stops with '%s'.",
				    fails_27 ? "Failed to initialize any NET plugin" : "Error: network IB not found.");
			finding_evidence(f, "rdma.devices: %d, active ports: %d, libibverbs %s",
					 l->m->rdma.ndevices, active,
					 verbs ? "loads" : "does not load");
			fix_unset(f, st);
		}
		strbuf_release(&ports);
		return;
	}
	if (sock)
		return;
	/* nccl.plugins[] knows file names (libnccl-net-ofi.so), not the names plugins register */
	for (size_t i = 0; i < l->m->stack.nplugins; i++) {
		const char *name = l->m->stack.plugin_names[i];
		if (name && strcasestr(name, st->value))
			return;
	}
	if (l->m->stack.nplugins) {
		f = lint_add(l, SEV_INFO, "nccl.env.net_plugin", st,
			"NCCL_NET=%s must equal the name a net plugin registers; ncclcheck cannot verify it", st->value);
		finding_why(f, "NCCL compares NCCL_NET (ignoring case) with each network's name; with no match init "
			    "fails with '%s'. NCCL_DEBUG=INFO prints 'Using network <name>'.",
			    fails_27 ? "Failed to initialize any NET plugin" : "Error: network ... not found.");
		return;
	}
	f = lint_add(l, SEV_ERROR, "nccl.env.net_unknown", st,
		"NCCL_NET=%s names no network this node has: NCCL fails at init", st->value);
	finding_why(f, "NCCL_NET must be IB, Socket or the name of a loaded net plugin (compared ignoring "
		    "case), and no net plugin was found here; no match stops init with '%s'.",
		    fails_27 ? "Failed to initialize any NET plugin" : "Error: network ... not found.");
	fix_unset(f, st);
}

/* NCCL_IB_HCA against /sys/class/infiniband: same [^][=]prefix grammar as NCCL_SOCKET_IFNAME. */
static void lint_hca(struct lint *l, const struct nccl_setting *st)
{
	struct ifs_spec spec;
	struct strbuf names = STRBUF_INIT;
	int any = 0, n = 0;
	struct finding *f;

	ifs_spec_parse(st->value, 1, &spec);
	for (int i = 0; i < l->m->rdma.ndevices; i++) {
		const char *name = l->m->rdma.dev_names[i];
		if (!name)
			continue;
		strbuf_addf(&names, "%s%s", n++ ? ", " : "", name);
		if (ifs_spec_selects(&spec, name))
			any = 1;
	}
	if (n && !any) {
		const struct nccl_setting *net = nccl_settings_get(l->s, "NCCL_NET");
		int forced = net && !strcasecmp(net->value, "IB");

		if (forced)
			f = lint_add(l, SEV_ERROR, "nccl.env.ib_hca_nomatch", st,
				     "NCCL_IB_HCA=%s matches none of this node's RDMA devices (%s): NCCL fails at "
				     "init", st->value, names.buf);
		else
			f = lint_add(l, SEV_WARN, "nccl.env.ib_hca_nomatch", st,
				     "NCCL_IB_HCA=%s matches none of this node's RDMA devices (%s): NCCL silently "
				     "falls back to TCP sockets", st->value, names.buf);
		finding_why(f, "NCCL finds no device ('NET/IB : No device found.', an INFO line only) and uses "
			    "the Socket transport unless NCCL_NET=IB forces IB.");
		finding_evidence(f, "rdma.devices: %s", names.buf);
		fix_unset(f, st);
	}
	strbuf_release(&names);
}

/* A config-file key with spaces or other characters: NCCL sets exactly that (odd) name. */
static int lint_key(struct lint *l, const struct nccl_setting *st)
{
	struct finding *f;

	for (const char *p = st->name; *p; p++) {
		if (isalnum((unsigned char)*p) || *p == '_')
			continue;
		f = lint_add(l, SEV_WARN, "nccl.env.conf_key", st,
			"'%s' in %s is not a variable name: NCCL does not trim keys, so this setting is lost",
			st->name, st->source);
		finding_why(f, "NCCL splits each line at the first '=' and uses both halves as they are: "
			    "'NCCL_DEBUG = INFO' sets a variable called 'NCCL_DEBUG ' to ' INFO'.");
		finding_fix(f, "sed -i 's/^[[:space:]]*\\([A-Z0-9_]*\\)[[:space:]]*=[[:space:]]*/\\1=/' %s",
			    st->source);
		return 1;
	}
	return 0;
}

static void lint_one(struct lint *l, const struct nccl_setting *st)
{
	const struct nccl_var *v;

	if (st->from_file && lint_key(l, st))
		return;
	if (strncmp(st->name, "NCCL_", 5))
		return; /* other names in nccl.conf are set as environment variables too: not ours */
	v = nccl_var_find(st->name);
	if (!v) {
		if (stack_find_renamed(st->name) || nccl_var_plugin(st->name))
			return; /* PyTorch's own (rules/launcher_env.c) or a plugin's */
		lint_unknown(l, st);
		return;
	}
	if (v->owner == NV_OWN_BUILD)
		return;
	if (v->owner == NV_OWN_NCCLX) {
		struct finding *f = lint_add(l, SEV_WARN, "nccl.env.ncclx_only", st,
					"%s is read only by Meta's NCCLX; NCCL %s ignores it", st->name,
					l->version);
		finding_why(f, "%s. Upstream NCCL (libnccl.so.2, what torch's NCCL backend loads) has no "
			    "such variable, so the setting has no effect unless the job runs NCCLX "
			    "(torchcomms' ncclx backend).", v->note);
		evidence_version(l, f);
		fix_unset(f, st);
		return;
	}
	lint_version(l, st, v);
	if (lint_value_version(l, st))
		return;
	switch (v->type) {
	case NV_INT: lint_int(l, st, v); break;
	case NV_FLOAT: lint_float(l, st, v); break;
	case NV_ENUM: lint_enum(l, st, v, 1); break;
	case NV_ENUM_CS: lint_enum(l, st, v, 0); break;
	case NV_LEVEL: lint_level(l, st); break;
	case NV_ALGO: lint_tuning(l, st, 1); break;
	case NV_PROTO: lint_tuning(l, st, 0); break;
	case NV_SUBSYS: lint_subsys(l, st); break;
	case NV_NET: lint_net(l, st); break;
	case NV_HCALIST: lint_hca(l, st); break;
	default: break;
	}
	lint_semantics(l, st);
}

/* ---- combinations ---- */

static long long setting_int(const struct lint *l, const char *name, long long def, const struct nccl_setting **st)
{
	enum nv_parse how;
	long long v;

	*st = nccl_settings_get(l->s, name);
	if (!*st)
		return def;
	v = nccl_parse_int((*st)->value, &how);
	return how == NV_PARSE_EMPTY || how == NV_PARSE_RANGE ? def : v;
}

/* ncclNetSocketGetNsockNthread(): auto values come from the NIC's PCI vendor (AWS ENA, GCP gVNIC). */
static void lint_sockets(struct lint *l)
{
	const struct nccl_setting *ns_st, *nt_st;
	long long ns = setting_int(l, "NCCL_NSOCKS_PERTHREAD", -2, &ns_st);
	long long nt = setting_int(l, "NCCL_SOCKET_NTHREADS", -2, &nt_st);
	const char *vendor = NULL, *ifname = NULL;
	struct finding *f;
	long long auto_nt = 0, auto_ns = 1;

	if (!ns_st && !nt_st)
		return;
	if (l->m->have_ifs && l->m->pred.sockets.n) {
		const struct nm_iface *it;

		ifname = l->m->pred.sockets.v[0]->name;
		if ((it = node_model_iface(l->m, ifname)) != NULL)
			vendor = it->vendor;
	}
	if (vendor && !strcmp(vendor, "0x1d0f")) {
		auto_nt = 2;
		auto_ns = 8;
	} else if (vendor && !strcmp(vendor, "0x1ae0")) {
		auto_nt = 4;
		auto_ns = 1;
	}
	if (nt == -2)
		nt = auto_nt;
	if (ns == -2)
		ns = auto_ns;
	if (nt > 16) {
		f = lint_add(l, SEV_WARN, "nccl.env.sockets", nt_st,
			"NCCL_SOCKET_NTHREADS=%lld is above NCCL's maximum of 16: NCCL uses 16", nt);
		fix_set(f, nt_st, "NCCL_SOCKET_NTHREADS", "16");
		nt = 16;
	}
	if (nt > 0 && ns * nt > 64) {
		char buf[32];
		f = lint_add(l, SEV_WARN, "nccl.env.sockets", ns_st ? ns_st : nt_st,
			"NCCL_NSOCKS_PERTHREAD x NCCL_SOCKET_NTHREADS = %lld x %lld = %lld is above NCCL's limit of 64 "
			"sockets: NCCL lowers NCCL_NSOCKS_PERTHREAD to %lld", ns, nt, ns * nt, 64 / nt);
		if (ns_st && nt_st)
			finding_evidence(f, "%s=%s", nt_st->name, nt_st->value);
		finding_why(f, "NET/Socket opens NCCL_NSOCKS_PERTHREAD sockets for each of NCCL_SOCKET_NTHREADS "
			    "helper threads per connection, at most 64 in all (MAX_SOCKETS).");
		snprintf(buf, sizeof(buf), "%lld", 64 / nt);
		fix_set(f, ns_st, "NCCL_NSOCKS_PERTHREAD", buf);
	} else if (ns_st && !nt_st && nt == 0) {
		if (ifname)
			f = lint_add(l, SEV_WARN, "nccl.env.sockets", ns_st,
				     "NCCL_NSOCKS_PERTHREAD=%s has no effect: with NCCL_SOCKET_NTHREADS unset NCCL "
				     "starts 0 helper threads on this NIC (%s)", ns_st->value, ifname);
		else
			f = lint_add(l, SEV_WARN, "nccl.env.sockets", ns_st,
				     "NCCL_NSOCKS_PERTHREAD=%s has no effect: with NCCL_SOCKET_NTHREADS unset NCCL "
				     "starts 0 helper threads on this NIC", ns_st->value);
		finding_why(f, "Unless the NIC is an AWS ENA (0x1d0f) or a GCP gVNIC (0x1ae0), NCCL's automatic "
			    "value is 0 threads and 1 socket, and only the variable left unset takes the automatic "
			    "value: sockets per thread times zero threads is zero. The first seed sets only "
			    "NCCL_NSOCKS_PERTHREAD=4.");
		if (vendor)
			finding_evidence(f, "net.interfaces[%s].vendor = %s", ifname, vendor);
		finding_fix(f, N_("export NCCL_SOCKET_NTHREADS=2   # and keep the product at most 64, or unset both"));
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_SOCKET_NTHREADS", "2");
	}
}

void rule_nccl_env(const struct node_model *m, struct findings *out)
{
	struct lint l;
	struct finding *f;
	size_t effective = 0;

	memset(&l, 0, sizeof(l));
	l.m = m;
	l.out = out;
	l.version = m->nccl.version;
	l.version_why = m->nccl.why;
	l.assumed = m->nccl.assumed;
	l.s = &m->settings;

	for (size_t i = 0; i < l.s->n; i++) {
		const struct nccl_setting *st = &l.s->v[i];

		if (!st->effective) {
			const struct nccl_setting *win = nccl_settings_get(l.s, st->name);
			char where[ORIGIN_LEN], wwhere[ORIGIN_LEN];

			origin(st, where, sizeof(where));
			origin(win, wwhere, sizeof(wwhere));
			if (strcmp(win->value, st->value)) {
				f = finding_add(out, SEV_INFO, "nccl.env.shadowed",
						"%s=%s in %s is overridden by %s=%s from %s", st->name, st->value,
						where, st->name, win->value, wwhere);
				finding_why(f, "NCCL loads config files with setenv(..., 0): the environment wins, "
					    "then NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf.");
			}
			continue;
		}
		effective++;
		lint_one(&l, st);
	}
	lint_sockets(&l);
	if (l.s->skipped_conf) {
		f = finding_add(out, SEV_INFO, "nccl.env.conf_skipped", "%s is not read by NCCL %s",
				l.s->skipped_conf, l.version);
		finding_why(f, "NCCL 2.23+ reads $NCCL_CONF_FILE instead of ~/.nccl.conf when it is set; older "
			    "releases ignore NCCL_CONF_FILE; 2.30 finds the home directory through $HOME.");
		finding_evidence(f, "NCCL %s (%s)", l.version, l.version_why);
	}
	if (effective && !l.problems)
		finding_add(out, SEV_OK, "nccl.env.ok", "%zu NCCL_* setting%s: variable%s NCCL reads, with values it "
			    "parses as written", effective, effective == 1 ? "" : "s", effective == 1 ? "" : "s");
}
