/* report/: findings model, text and JSON rendering. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "report/render.h"

static struct findings *sample(void)
{
	struct findings *fs = findings_new();
	struct finding *f;

	finding_add(fs, SEV_OK, "compat.driver", "driver 580.82 supports CUDA 13.0");
	f = finding_add(fs, SEV_WARN, "env.nccl_algo_forced", "NCCL_ALGO=Ring is forced globally");
	finding_fix(f, "unset NCCL_ALGO");
	finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_ALGO", NULL);
	f = finding_add(fs, SEV_ERROR, "net.bootstrap.wrong_if", "NCCL will bootstrap on eth0");
	finding_export(f, "NCCL_SOCKET_IFNAME", "eth1");
	finding_why(f, "MASTER_ADDR is reached through eth1");
	finding_evidence(f, "eth0 203.0.113.5/24");
	finding_node(f, "node1");
	finding_add(fs, SEV_INFO, "host.container", "running in docker");
	return fs;
}

static void sorts_errors_first_stably(void **state)
{
	struct findings *fs = sample();

	(void)state;
	findings_sort(fs);
	assert_int_equal(fs->v[0]->sev, SEV_ERROR);
	assert_int_equal(fs->v[1]->sev, SEV_WARN);
	assert_int_equal(fs->v[2]->sev, SEV_INFO);
	assert_int_equal(fs->v[3]->sev, SEV_OK);
	assert_int_equal(findings_max(fs), SEV_ERROR);
	assert_int_equal(findings_count(fs, SEV_WARN), 1);
	assert_non_null(findings_find(fs, "env.nccl_algo_forced"));
	assert_null(findings_find(fs, "nope"));
	findings_free(fs);
}

static void json_round_trip(void **state)
{
	struct findings *fs = sample(), *back = findings_new();
	json_t *j = findings_to_json(fs), *j2;
	char *a, *b;

	(void)state;
	assert_int_equal(findings_from_json(back, j, NULL, 0), 0);
	j2 = findings_to_json(back);
	a = json_dumps(j, JSON_SORT_KEYS);
	b = json_dumps(j2, JSON_SORT_KEYS);
	assert_string_equal(a, b);
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 2), "node")), "node1");
	free(a);
	free(b);
	json_decref(j);
	json_decref(j2);
	findings_free(fs);
	findings_free(back);

	back = findings_new();
	j = json_lit("[{\"id\":\"x\",\"severity\":\"bogus\",\"title\":\"t\"}]");
	assert_int_equal(findings_from_json(back, j, NULL, 0), -1);
	json_decref(j);
	findings_free(back);
}

static void text_puts_fix_first_and_no_colour(void **state)
{
	struct findings *fs = sample();
	struct render_opts ro = { .color = 0, .verbose = 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char *err, *fix, *why;

	(void)state;
	findings_sort(fs);
	render_findings_text(m, fs, &ro);
	render_summary_line(m, fs, &ro);
	fclose(m);
	err = strstr(buf, "NCCL will bootstrap on eth0");
	fix = strstr(buf, "fix:   export NCCL_SOCKET_IFNAME=eth1");
	why = strstr(buf, "why:");
	assert_non_null(err);
	assert_non_null(fix);
	assert_non_null(why);
	assert_true(err < fix && fix < why);
	assert_null(strchr(buf, '\033'));
	assert_non_null(strstr(buf, "1 error, 1 warning, 1 note, 1 check passed"));
	free(buf);
	findings_free(fs);
}

static void json_doc_has_schema_and_summary(void **state)
{
	struct findings *fs = sample();
	json_t *payload = json_lit("{\"facts\":{\"schema_version\":1}}");
	json_t *doc = render_json_doc("node", payload, fs, 1);

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(doc, "schema_version")), REPORT_SCHEMA_VERSION);
	assert_string_equal(json_string_value(json_object_get(doc, "verb")), "node");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "summary"), "error")), 1);
	assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), 1);
	assert_non_null(json_object_get(doc, "facts"));
	json_decref(doc);
	json_decref(payload);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorts_errors_first_stably),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(text_puts_fix_first_and_no_colour),
		cmocka_unit_test(json_doc_has_schema_and_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
