/* Includes cmocka with the headers it needs first, and small shared test helpers. */
#ifndef NCCLCHECK_TEST_CMOCKA_HELPERS_H
#define NCCLCHECK_TEST_CMOCKA_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>

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

#endif
