/* coll/tune.c: a setting is recommended only when it beats the defaults by more than their spread.
 */
#include "cmocka_helpers.h"

#include "coll/tune.h"
#include "rules/bench.h"

static struct tune_result res_of(double a, double b, double c)
{
	struct tune_result r = {.busbw = {a, b, c}, .n = 3};
	return r;
}

static void test_spread_and_pick(void **state)
{
	size_t n;
	const struct tune_config *cfg = tune_configs(&n);
	struct tune_result r[3];
	struct findings *fs;
	const struct finding *f;

	(void)state;
	assert_string_equal(cfg[0].label, "defaults");
	assert_true(n >= 8);
	r[0] = res_of(1.19, 1.20, 1.22); /* the 10 Gbit/s lab: defaults ~1.2 GB/s, 2.5 % spread */
	r[1] = res_of(1.21, 1.22, 1.21); /* better, but inside the spread */
	r[2] = res_of(0.72, 0.90, 1.04); /* "4 x 4": slower */
	double sp = tune_spread(&r[0], 0.02);
	assert_true(sp > 0.024 && sp < 0.026);
	assert_int_equal(tune_pick(r, 3, sp), 0);
	fs = findings_new();
	tune_findings(cfg, r, 3, sp, fs);
	f = findings_find(fs, "bench.tune.defaults");
	assert_non_null(f);
	assert_non_null(finding_find_setting(f, "NCCL_NSOCKS_PERTHREAD"));
	findings_free(fs);

	r[1] = res_of(1.50, 1.52, 1.49); /* clearly better */
	assert_int_equal(tune_pick(r, 3, sp), 1);
	fs = findings_new();
	tune_findings(cfg, r, 3, sp, fs);
	f = findings_find(fs, "bench.tune.better");
	assert_non_null(f);
	assert_string_equal(finding_find_setting(f, cfg[1].names[0])->value, cfg[1].values[0]);
	findings_free(fs);

	/* a noisy default raises the bar */
	r[0] = res_of(1.0, 1.3, 1.6);
	assert_int_equal(tune_pick(r, 3, tune_spread(&r[0], 0.02)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spread_and_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
