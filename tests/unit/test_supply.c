/*
 * rules/supply.c on facts fixtures: the advisory table's releases, the Lightning payload, RECORD
 * mismatches judged only for pip/uv installs, and the clean cases that must stay silent. Also the
 * probe parser's typing of the supply section.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "probe/python.h"
#include "rules/rules.h"
#include "util/err.h"
#include "util/json.h"

#define SP "/venv/lib/python3.12/site-packages"

/* A facts document with one interpreter whose supply section is `supply` (JSON text). */
static json_t *facts_with(const char *supply)
{
	char buf[4096];

	snprintf(buf, sizeof(buf),
		 "{\"python\": [{\"path\": \"/venv/bin/python\", \"version\": \"3.12.3\", "
		 "\"site_packages\": [\"" SP "\"], \"torch\": {\"installed\": false}, "
		 "\"lightning\": {\"installed\": true, \"version\": \"2.6.3\"}, "
		 "\"pytorch_lightning\": {\"installed\": false}, \"supply\": %s}]}", supply);
	return json_lit(buf);
}

static struct findings *run(const char *supply)
{
	json_t *facts = facts_with(supply);
	struct findings *fs = findings_new();

	run_rule(rule_supply, facts, fs);
	json_decref(facts);
	return fs;
}

static void compromised_releases(void **state)
{
	static const char *const bad[] = { "2.6.2", "2.6.3" };
	char s[256];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		snprintf(s, sizeof(s), "{\"dists\": [{\"name\": \"lightning\", \"version\": \"%s\", "
			 "\"installer\": \"pip\", \"mismatch\": []}], \"payloads\": []}", bad[i]);
		struct findings *fs = run(s);
		const struct finding *f = expect_finding(fs, "supply.compromised", SEV_ERROR);
		assert_non_null(strstr(f->title, "GHSA-w37p-236h-pfx3"));
		assert_true(finding_fix_contains(f, "/venv/bin/python -m pip uninstall -y lightning"));
		assert_true(finding_fix_contains(f, "'lightning>=2.6.4'"));
		assert_true(finding_fix_contains(f, "rotate every credential"));
		expect_no_finding(fs, "supply.lightning_payload");
		findings_free(fs);
	}
}

static void neighbours_are_clean(void **state)
{
	static const char *const good[] = { "2.6.1", "2.6.4", "2.6.30", "2.6.6" };
	char s[256];

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		snprintf(s, sizeof(s), "{\"dists\": [{\"name\": \"lightning\", \"version\": \"%s\", "
			 "\"installer\": \"pip\", \"mismatch\": []}], \"payloads\": []}", good[i]);
		struct findings *fs = run(s);
		assert_int_equal(fs->n, 0);
		findings_free(fs);
	}
	/* the same version of another distribution is not the advisory's */
	struct findings *fs = run("{\"dists\": [{\"name\": \"pytorch-lightning\", \"version\": "
				  "\"2.6.3\", \"installer\": \"pip\", \"mismatch\": []}]}");
	expect_no_finding(fs, "supply.compromised");
	findings_free(fs);
}

static void payload_dir(void **state)
{
	struct findings *fs = run("{\"dists\": [{\"name\": \"lightning\", \"version\": \"2.6.4\", "
				  "\"installer\": \"pip\", \"mismatch\": []}], "
				  "\"payloads\": [\"" SP "/lightning/_runtime\"]}");
	const struct finding *f = expect_finding(fs, "supply.lightning_payload", SEV_ERROR);

	(void)state;
	assert_non_null(strstr(f->title, SP "/lightning/_runtime"));
	assert_true(finding_fix_contains(f, "rm -rf '" SP "/lightning/_runtime'"));
	expect_no_finding(fs, "supply.compromised");
	findings_free(fs);
}

static void record_mismatch_pip_only(void **state)
{
	static const char *const fmt =
		"{\"dists\": [{\"name\": \"torch\", \"version\": \"2.11.0\", \"installer\": \"%s\", "
		"\"mismatch\": [{\"path\": \"" SP "/torch/__init__.py\", \"kind\": \"sha256\"}, "
		"{\"path\": \"" SP "/torch/lib/libtorch_cuda.so\", \"kind\": \"size\"}]}]}";
	char s[512];
	const struct finding *f;
	struct findings *fs;

	(void)state;
	snprintf(s, sizeof(s), fmt, "uv");
	fs = run(s);
	f = expect_finding(fs, "supply.record_mismatch", SEV_WARN);
	assert_non_null(strstr(f->title, "2 file(s) of torch 2.11.0"));
	assert_true(finding_evidence_contains(f, "torch/__init__.py: the sha256 differs"));
	assert_true(finding_evidence_contains(f, "libtorch_cuda.so: the size differs"));
	assert_true(finding_fix_contains(f, "--force-reinstall --no-deps --no-cache-dir "
					    "'torch==2.11.0'"));
	findings_free(fs);
	/* conda relocates files after RECORD was written: not judged */
	snprintf(s, sizeof(s), fmt, "conda");
	fs = run(s);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

/* Older facts documents have no supply section, or an unknown one: nothing to judge. */
static void absent_or_unknown(void **state)
{
	struct findings *fs = run("{\"unknown\": \"the probe failed: x\"}");

	(void)state;
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

/* The parser keeps well-typed entries and drops the rest. */
static void parser_types(void **state)
{
	static const char out[] =
		"noise\n" PYPROBE_MARKER "{\"python\": {\"version\": \"3.12.3\"}, "
		"\"torch\": {\"installed\": false}, \"lightning\": {\"installed\": false}, "
		"\"pytorch_lightning\": {\"installed\": false}, \"supply\": {\"dists\": ["
		"{\"name\": \"lightning\", \"version\": \"2.6.3\", \"installer\": \"pip\", "
		"\"checked\": 1, \"mismatch\": [{\"path\": \"rel/x\", \"kind\": \"sha256\"}, "
		"{\"path\": \"/a/b\", \"kind\": \"md5\"}, {\"path\": \"/a/c\", \"kind\": \"size\"}]}, "
		"{\"name\": 7, \"version\": \"1\"}], \"payloads\": [\"/p/lightning/_runtime\", 3, "
		"\"relative\"]}}\n";
	json_t *e = json_object(), *d;
	struct err er = { 0 };

	(void)state;
	assert_int_equal(python_parse_output(out, sizeof(out) - 1, e, &er), 0);
	d = json_object_get(e, "supply");
	assert_int_equal(json_array_size(json_object_get(d, "dists")), 1);
	assert_int_equal(json_array_size(jpath(d, "dists.0.mismatch")), 1);
	assert_string_equal(jpath_str(d, "dists.0.mismatch.0.path"), "/a/c");
	assert_int_equal(json_array_size(json_object_get(d, "payloads")), 1);
	json_decref(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compromised_releases),
		cmocka_unit_test(neighbours_are_clean),
		cmocka_unit_test(payload_dir),
		cmocka_unit_test(record_mismatch_pip_only),
		cmocka_unit_test(absent_or_unknown),
		cmocka_unit_test(parser_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
