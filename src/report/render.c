/* Text and JSON renderers: see render.h. */
#include "report/render.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "util/json.h"

int render_want_color(FILE *stream)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (nc && *nc)
		return 0;
	if (term && !strcmp(term, "dumb"))
		return 0;
	return isatty(fileno(stream));
}

const char *render_sgr(const struct render_opts *o, enum severity sev)
{
	static const char *const sgr[] = { "\033[32m", "\033[36m", "\033[33m", "\033[1;31m" };

	return o && o->color ? sgr[sev] : "";
}

const char *render_bold(const struct render_opts *o)
{
	return o && o->color ? "\033[1m" : "";
}

const char *render_reset(const struct render_opts *o)
{
	return o && o->color ? "\033[0m" : "";
}

static const char *label(enum severity sev)
{
	static const char *const l[] = { "ok   ", "info ", "warn ", "ERROR" };
	return l[sev];
}

/* Prints `text` indented under a label, continuing wrapped/multi-line text at the same column. */
static void indented(FILE *out, const char *tag, const char *text)
{
	const char *p = text;

	fprintf(out, "       %-6s ", tag);
	for (; *p; p++) {
		fputc(*p, out);
		if (*p == '\n' && p[1])
			fputs("              ", out);
	}
	fputc('\n', out);
}

static void one(FILE *out, const struct finding *f, const struct render_opts *o)
{
	size_t i;

	fprintf(out, "%s%s%s  %s%s%s", render_sgr(o, f->sev), label(f->sev), render_reset(o),
		render_bold(o), f->title, render_reset(o));
	if (f->node)
		fprintf(out, "  [%s]", f->node);
	fprintf(out, "  (%s)\n", f->id);
	for (i = 0; i < f->nfix; i++)
		indented(out, i ? "" : "fix:", f->fix[i]);
	if (f->why)
		indented(out, "why:", f->why);
	for (i = 0; i < f->nevidence; i++) {
		if (!o->verbose && i == 6) {
			indented(out, "", "… (--verbose shows all evidence)");
			break;
		}
		indented(out, i ? "" : "seen:", f->evidence[i]);
	}
}

void render_findings_text(FILE *out, const struct findings *fs, const struct render_opts *o)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i]->sev != SEV_OK || o->verbose)
			one(out, fs->v[i], o);
	if (!o->verbose) {
		for (i = 0; i < fs->n; i++)
			if (fs->v[i]->sev == SEV_OK)
				fprintf(out, "%s%s%s  %s\n", render_sgr(o, SEV_OK), label(SEV_OK),
					render_reset(o), fs->v[i]->title);
	}
}

void render_summary_line(FILE *out, const struct findings *fs, const struct render_opts *o)
{
	size_t e = findings_count(fs, SEV_ERROR), w = findings_count(fs, SEV_WARN);
	size_t n = findings_count(fs, SEV_INFO), k = findings_count(fs, SEV_OK);

	fprintf(out, "%s%zu error%s%s, %zu warning%s, %zu note%s, %zu check%s passed\n",
		e ? render_sgr(o, SEV_ERROR) : render_bold(o), e, e == 1 ? "" : "s", render_reset(o),
		w, w == 1 ? "" : "s", n, n == 1 ? "" : "s", k, k == 1 ? "" : "s");
}

json_t *render_json_doc(const char *verb, json_t *payload, const struct findings *fs, int exit_code)
{
	json_t *doc = json_object(), *tool = json_object(), *sum = json_object();
	const char *key;
	json_t *val;

	jset_int(doc, "schema_version", REPORT_SCHEMA_VERSION);
	jset_str(tool, "name", "ncclcheck");
	jset_str(tool, "version", NCCLCHECK_VERSION);
	json_object_set_new(doc, "tool", tool);
	jset_str(doc, "verb", verb);
	if (payload)
		json_object_foreach(payload, key, val)
			json_object_set(doc, key, val);
	if (fs) {
		json_object_set_new(doc, "findings", findings_to_json(fs));
		jset_int(sum, "error", (long long)findings_count(fs, SEV_ERROR));
		jset_int(sum, "warn", (long long)findings_count(fs, SEV_WARN));
		jset_int(sum, "info", (long long)findings_count(fs, SEV_INFO));
		jset_int(sum, "ok", (long long)findings_count(fs, SEV_OK));
		json_object_set_new(doc, "summary", sum);
	} else {
		json_decref(sum);
	}
	jset_int(doc, "exit_code", exit_code);
	return doc;
}

int render_json_print(FILE *out, const json_t *doc)
{
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(6)) < 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}
