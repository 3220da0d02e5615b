/* Includes cmocka with the headers it needs first, and small shared test helpers. */
#ifndef NCCLCHECK_TEST_CMOCKA_HELPERS_H
#define NCCLCHECK_TEST_CMOCKA_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "finding.h"
#include "model/node.h"

/*
 * Every NAME=VALUE a finding's "export ..." fix line recommends (before any '#' comment) is also
 * in its settings[]: config and run apply settings, not prose. Values that are placeholders
 * ("<rank 0's IP>") or expand other variables ("dir:$LD_LIBRARY_PATH") are prose only.
 */
static inline void expect_exports_are_settings(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = fs->v[i];

		for (size_t j = 0; j < f->nfix; j++) {
			char line[1024], *save = NULL, *tok;

			if (strncmp(f->fix[j], "export ", 7))
				continue;
			snprintf(line, sizeof(line), "%s", f->fix[j] + 7);
			line[strcspn(line, "#")] = '\0';
			for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
				char *eq = strchr(tok, '=');

				if (!eq || strpbrk(eq, "$<"))
					continue;
				*eq = '\0';
				if (!finding_find_setting(f, tok))
					fail_msg("finding '%s' recommends 'export %s=...' without a setting: %s",
						 f->id, tok, f->fix[j]);
			}
		}
	}
}

/*
 * Runs a node rule on the model of `facts`. A document the model rejects runs nothing (tests of
 * rejection call node_model_new themselves).
 */
static inline void run_rule(void (*rule)(const struct node_model *, struct findings *),
			    const json_t *facts, struct findings *fs)
{
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(facts, &e);

	if (!m) {
		print_message("  (the model refuses these facts: %s)\n", e.msg);
		return;
	}
	rule(m, fs);
	node_model_free(m);
	expect_exports_are_settings(fs);
}

/* The model of `facts`; fails the test when the model rejects it. */
static inline struct node_model *model_of(const json_t *facts)
{
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(facts, &e);

	if (!m)
		fail_msg("node_model_new: %s", e.msg);
	return m;
}

/* Loads tests/fixtures/<rel> as JSON; fails the test when it cannot. */
static inline json_t *load_fixture_json(const char *rel)
{
	char path[4096];
	json_error_t jerr;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES_DIR, rel);
	j = json_load_file(path, 0, &jerr);
	if (!j)
		fail_msg("fixture %s: %s (line %d)", path, jerr.text, jerr.line);
	return j;
}

/* Parses an inline JSON literal; fails the test when it is not JSON. */
static inline json_t *json_lit(const char *text)
{
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);

	if (!j)
		fail_msg("bad JSON literal: %s: %s", jerr.text, text);
	return j;
}

/* The finding `id` with severity `sev`; fails the test (listing what there is) otherwise. */
static inline const struct finding *expect_finding(const struct findings *fs, const char *id,
						   enum severity sev)
{
	const struct finding *f = findings_find(fs, id);

	if (!f) {
		for (size_t i = 0; i < fs->n; i++)
			print_message("  have: %s %s\n", fs->v[i]->id, fs->v[i]->title);
		fail_msg("no finding '%s'", id);
	}
	if (f->sev != sev)
		fail_msg("finding '%s' is %s, expected %s (%s)", id, severity_name(f->sev),
			 severity_name(sev), f->title);
	return f;
}

static inline void expect_no_finding(const struct findings *fs, const char *id)
{
	const struct finding *f = findings_find(fs, id);

	if (f)
		fail_msg("unexpected finding '%s': %s", id, f->title);
}

/* How many findings have the id `id`. */
static inline size_t count_id(const struct findings *fs, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += !strcmp(fs->v[i]->id, id);
	return n;
}

/* 1 when one of the fix lines is exactly `fix`. */
static inline int finding_has_fix(const struct finding *f, const char *fix)
{
	for (size_t i = 0; i < f->nfix; i++)
		if (!strcmp(f->fix[i], fix))
			return 1;
	return 0;
}

/* 1 when one of the fix lines contains `needle`. */
static inline int finding_fix_contains(const struct finding *f, const char *needle)
{
	for (size_t i = 0; i < f->nfix; i++)
		if (strstr(f->fix[i], needle))
			return 1;
	return 0;
}

/* 1 when one of the evidence lines contains `needle`. */
static inline int finding_evidence_contains(const struct finding *f, const char *needle)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (strstr(f->evidence[i], needle))
			return 1;
	return 0;
}

#endif
