/* coll/coll.c and report/bench.c: nccl-tests' counts, factors and format; exact test data. */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "report/bench.h"

static void test_counts_and_factors(void **state)
{
	const struct coll_kind *ar = coll_kind_by_name("allreduce");
	const struct coll_kind *ag = coll_kind_by_name("all_gather");
	struct coll_row_shape s;
	double alg, bus;

	(void)state;
	assert_non_null(ar);
	assert_non_null(ag);
	assert_null(coll_kind_by_name("allreduc"));
	coll_shape(ar, 1000, COLL_FLOAT, 3, 0, &s);
	assert_int_equal(s.c.param, 250);
	assert_int_equal(s.bytes, 1000);
	/* 16-byte rounding of the per-rank count, as nccl-tests: 1000 B / 3 ranks -> 80 floats */
	coll_shape(ag, 1000, COLL_FLOAT, 3, 0, &s);
	assert_int_equal(s.c.param, 80);
	assert_int_equal(s.c.recv, 240);
	assert_int_equal(s.bytes, 960);
	coll_bw(ar, 250000000, COLL_FLOAT, 4, 1.0, &alg, &bus);
	assert_true(alg > 0.999 && alg < 1.001);
	assert_true(bus > 1.499 && bus < 1.501);
	coll_bw(ar, 1000, COLL_FLOAT, 1, 1.0, &alg, &bus);
	assert_true(bus == 0); /* one rank: busbw 0, like nccl-tests */
	coll_bw(ag, 1000, COLL_FLOAT, 4, 1e-6, &alg, &bus);
	assert_true(alg > 15.99 && alg < 16.01);
	assert_true(bus > 11.99 && bus < 12.01);
	assert_int_equal(coll_dtype_parse("float32"), COLL_FLOAT);
	assert_int_equal(coll_dtype_parse("bf16"), COLL_BFLOAT16);
	assert_int_equal(coll_dtype_parse("floaty"), -1);
	assert_int_equal(coll_op_parse("max"), COLL_MAX);
	assert_int_equal(coll_op_parse("avg"), -1);
}

static void test_half_bf16(void **state)
{
	(void)state;
	for (int i = -2048; i <= 2048; i++) {
		assert_true(coll_half_to_float(coll_float_to_half((float)i)) == (float)i);
		if (i >= -256 && i <= 256)
			assert_true(coll_bf16_to_float(coll_float_to_bf16((float)i)) == (float)i);
	}
	assert_int_equal(coll_float_to_half(1.0f), 0x3c00);
	assert_int_equal(coll_float_to_half(65504.0f), 0x7bff);
	assert_int_equal(coll_float_to_half(1e6f), 0x7c00);
	assert_int_equal(coll_float_to_bf16(1.0f), 0x3f80);
	assert_true(coll_half_to_float(0x0001) == 1.0f / 16777216.0f);
}

/* Every rank's fill, reduced on the host, passes the check; one flipped element is one wrong. */
static void allreduce_roundtrip(enum coll_dtype t, enum coll_op op, int nranks, size_t n)
{
	const struct coll_kind *k = coll_kind_get(COLL_ALLREDUCE);
	size_t es = coll_dtype_size(t);
	struct coll_counts c;
	char *acc = calloc(n + 1, es), *in = calloc(n + 1, es);

	k->counts(n, es, nranks, &c);
	for (int r = 0; r < nranks; r++) {
		coll_fill(k, t, op, nranks, r, 0, 7, &c, r ? in : acc);
		if (r)
			coll_reduce(t, op, acc, acc, in, n);
	}
	assert_int_equal(coll_check(k, t, op, nranks, 0, 0, 7, &c, acc), 0);
	/* another seed is other data */
	if (n > 64)
		assert_true(coll_check(k, t, op, nranks, 0, 0, 8, &c, acc) > 0);
	if (n) {
		acc[(n / 2) * es] ^= 0x40;
		assert_int_equal(coll_check(k, t, op, nranks, 1, 0, 7, &c, acc), 1);
	}
	free(acc);
	free(in);
}

static void test_exact_data(void **state)
{
	(void)state;
	for (int t = 0; t < COLL_NDTYPES; t++)
		for (int op = 0; op < COLL_NOPS; op++)
			allreduce_roundtrip(t, op, t == COLL_INT8 || t == COLL_UINT8 ? 5 : 33,
			                    1001);
	allreduce_roundtrip(COLL_FLOAT, COLL_SUM, 1, 0);
	allreduce_roundtrip(COLL_BFLOAT16, COLL_SUM, 80, 4096);
}

/*
 * The three forms of every reduction agree with the in-place one element by element: three
 * distinct buffers, in place (dst == a), and an overlapping dst (the plain loop), at lengths
 * around the vector block (64) so the tail loop runs too.
 */
static void test_reduce_forms(void **state)
{
	static const size_t lens[] = {0, 1, 63, 64, 65, 200, 1001};

	(void)state;
	for (int t = 0; t < COLL_NDTYPES; t++)
		for (int op = 0; op < COLL_NOPS; op++)
			for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
				size_t n = lens[li], es = coll_dtype_size(t), bytes = n * es;
				unsigned char *a = malloc(bytes + 2 * es), *b = malloc(bytes + es);
				unsigned char *d = malloc(bytes + es), *ref = malloc(bytes + es);
				for (size_t i = 0; i < bytes; i++) {
					a[i] = (unsigned char)(i * 7 + 3);
					b[i] = (unsigned char)(i * 13 + 1);
				}
				/* reference: element by element, in place on a copy */
				memcpy(ref, a, bytes);
				for (size_t i = 0; i < n; i++)
					coll_reduce(t, op, ref + i * es, ref + i * es, b + i * es, 1);
				coll_reduce(t, op, d, a, b, n);
				assert_memory_equal(d, ref, bytes);
				memcpy(d, a, bytes);
				coll_reduce(t, op, d, d, b, n);
				assert_memory_equal(d, ref, bytes);
				/* dst one element past a inside the same buffer: reads before writes */
				if (n > 1) {
					memmove(a + es, a, bytes);
					coll_reduce(t, op, a, a + es, b, n);
					assert_memory_equal(a, ref, bytes);
				}
				free(a);
				free(b);
				free(d);
				free(ref);
			}
}

static void test_allgather_data(void **state)
{
	const struct coll_kind *k = coll_kind_get(COLL_ALLGATHER);
	struct coll_counts c;
	int n = 3;
	float *out;

	(void)state;
	k->counts(300, 4, n, &c);
	out = calloc(c.recv, 4);
	for (int r = 0; r < n; r++)
		coll_fill(k, COLL_FLOAT, COLL_SUM, n, r, 0, 3, &c, out + r * c.param);
	for (int r = 0; r < n; r++)
		assert_int_equal(coll_check(k, COLL_FLOAT, COLL_SUM, n, r, 0, 3, &c, out), 0);
	out[c.param] += 1;
	assert_int_equal(coll_check(k, COLL_FLOAT, COLL_SUM, n, 0, 0, 3, &c, out), 1);
	free(out);
}

static void test_float_str(void **state)
{
	char b[32];

	(void)state;
	bench_float_str(10.52, 7, b, sizeof(b));
	assert_string_equal(b, "  10.52");
	bench_float_str(36123.4, 7, b, sizeof(b));
	assert_string_equal(b, "36123.4");
	bench_float_str(123456.7, 7, b, sizeof(b));
	assert_string_equal(b, " 123457");
	bench_float_str(12345678.0, 7, b, sizeof(b));
	assert_string_equal(b, "1.2e+07");
	bench_float_str(416.15, 6, b, sizeof(b));
	assert_string_equal(b, "416.15");
	bench_float_str(1234.5, 6, b, sizeof(b));
	assert_string_equal(b, "1234.5");
}

static void test_report_text(void **state)
{
	struct bench_device dev = {.rank = 0, .pid = 42, .host = "node01", .name = "cpu"};
	struct bench_meta m = {.perf = "all_reduce_perf",
	                       .backend = "tcp",
	                       .nthreads = 1,
	                       .ngpus = 1,
	                       .minbytes = 8,
	                       .maxbytes = 8,
	                       .step = 2,
	                       .step_factor = 1,
	                       .warmup = 1,
	                       .iters = 20,
	                       .agg = 1,
	                       .check = 1,
	                       .devs = &dev,
	                       .ndevs = 1};
	struct bench_row row = {.bytes = 8,
	                        .count = 2,
	                        .type = "float",
	                        .redop = "sum",
	                        .root = -1,
	                        .has_oop = 1,
	                        .has_ip = 1,
	                        .oop = {10.52, 0.0, 0.0, 0, 1},
	                        .ip = {10.31, 0.0, 0.0, 2, 1}};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct bench_report *r = bench_report_new(f, &m);
	json_t *j;

	(void)state;
	bench_report_columns(r);
	bench_report_row(r, &row);
	assert_int_equal(bench_report_footer(r), 1);
	fclose(f);
	assert_non_null(strstr(text,
	                       "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) "
	                       "warmup iters: 1 iters: 20 agg iters: 1 validation: 1 graph: 0 "
	                       "unalign: 0\n"));
	assert_non_null(strstr(text, "#  Rank  0 Group  0 Pid     42 on     node01 device  0 "
	                             "[0000:00:00] cpu\n"));
	assert_non_null(strstr(
	    text, "#       size         count      type   redop    root     time   algbw   busbw  "
	          "#wrong     time   algbw   busbw  #wrong \n"
	          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)  "
	          "           (us)  (GB/s)  (GB/s)         \n"));
	assert_non_null(strstr(text,
	                       "           8             2     float     sum      -1    10.52"
	                       "    0.00    0.00       0    10.31    0.00    0.00       2\n"));
	assert_non_null(strstr(text, "# Out of bounds values : 1 FAILED\n"
	                             "# Avg bus bandwidth    : 0 \n"));
	j = bench_report_json(r);
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(j, "out_of_bounds"), "count")), 1);
	assert_int_equal(json_array_size(json_object_get(j, "results")), 1);
	json_decref(j);
	bench_report_free(r);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counts_and_factors), cmocka_unit_test(test_half_bf16),
	    cmocka_unit_test(test_exact_data),         cmocka_unit_test(test_allgather_data),
	    cmocka_unit_test(test_reduce_forms),
	    cmocka_unit_test(test_float_str),          cmocka_unit_test(test_report_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
