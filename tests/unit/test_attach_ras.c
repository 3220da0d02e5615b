/* RAS: address parsing and the strict decoders of the JSON and text STATUS reports. */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "attach/ras.h"
#include "util/xalloc.h"

/* The STATUS answer of poll `i` of a recorded transcript (caller frees). */
static char *status_of(const char *name, size_t i)
{
	char rel[256];
	json_t *t, *ex;
	char *s;

	snprintf(rel, sizeof(rel), "attach/ras/%s.json", name);
	t = load_fixture_json(rel);
	ex = json_object_get(json_array_get(json_object_get(t, "polls"), i), "exchange");
	s = xstrdup(json_string_value(json_object_get(json_array_get(ex, json_array_size(ex) - 1),
						      "recv")));
	json_decref(t);
	return s;
}

static struct ras_report *parse(const char *s, struct err *e)
{
	return ras_report_parse(s, strlen(s), e);
}

static void test_addr(void **state)
{
	char h[64], p[8];
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(ras_addr_parse("localhost:28028", h, sizeof(h), p, sizeof(p), &e), 0);
	assert_string_equal(h, "localhost");
	assert_string_equal(p, "28028");
	assert_int_equal(ras_addr_parse("10.0.0.5", h, sizeof(h), p, sizeof(p), &e), 0);
	assert_string_equal(p, RAS_DEFAULT_PORT);
	assert_int_equal(ras_addr_parse("[fe80::1%eth0]:9000", h, sizeof(h), p, sizeof(p), &e), 0);
	assert_string_equal(h, "fe80::1%eth0");
	assert_string_equal(p, "9000");
	assert_int_equal(ras_addr_parse(":1234", h, sizeof(h), p, sizeof(p), &e), 0);
	assert_string_equal(h, "localhost");
	assert_int_equal(ras_addr_parse("host:0", h, sizeof(h), p, sizeof(p), &e), -1);
	assert_int_equal(ras_addr_parse("host:70000", h, sizeof(h), p, sizeof(p), &e), -1);
	assert_int_equal(ras_addr_parse("fe80::1:80", h, sizeof(h), p, sizeof(p), &e), -1);
	assert_int_equal(ras_addr_parse("a b:1", h, sizeof(h), p, sizeof(p), &e), -1);
	assert_int_equal(ras_addr_parse("[::1", h, sizeof(h), p, sizeof(p), &e), -1);
	assert_int_equal(ras_addr_parse("", h, sizeof(h), p, sizeof(p), &e), -1);
}

static void test_json_sleep(void **state)
{
	char *s = status_of("sleep", 0);
	struct err e = ERR_INIT;
	struct ras_report *r = parse(s, &e);

	(void)state;
	if (!r)
		fail_msg("%s", e.msg);
	assert_true(r->json);
	assert_string_equal(r->version, "2.28.9");
	assert_true(ras_version_at_least(r, 2, 27, 3));
	assert_false(ras_version_at_least(r, 2, 29, 0));
	assert_int_equal(r->ncomms, 1);
	assert_string_equal(r->comms[0].hash, "0xabc1");
	assert_int_equal(r->comms[0].size, 2);
	assert_int_equal(r->comms[0].nranks, 2);
	assert_string_equal(r->comms[0].ranks[1].host, "10.77.0.2");
	assert_int_equal(r->comms[0].ranks[1].pid, 4202);
	assert_int_equal(r->comms[0].ranks[0].counts[4], 6);
	assert_int_equal(r->comms[0].ranks[1].counts[4], 5);
	assert_true(r->comms[0].ranks[1].counts_known & (1u << 4));
	assert_false(r->repaired);
	ras_report_free(r);
	free(s);
}

static void test_json_dead_needs_repair(void **state)
{
	char *s = status_of("dead", 0);
	struct err e = ERR_INIT;
	struct ras_report *r;
	json_error_t je;

	(void)state;
	/* NCCL 2.28.9's own bytes are not JSON ... */
	assert_null(json_loads(s, 0, &je));
	/* ... and the decoder repairs exactly that comma */
	r = parse(s, &e);
	if (!r)
		fail_msg("%s", e.msg);
	assert_true(r->repaired);
	assert_int_equal(r->comms[0].nmissing, 1);
	assert_true(r->comms[0].missing[0].dead);
	assert_int_equal(r->comms[0].missing[0].pid, 4202);
	assert_int_equal(r->timeouts, 1);
	ras_report_free(r);
	/* a 2.29 report with the same flaw is not "repaired": only 2.28.x had it */
	{
		char *p = strstr(s, "2.28.9");
		memcpy(p, "2.29.2", 6);
		assert_null(parse(s, &e));
	}
	free(s);
}

static void test_json_strict(void **state)
{
	struct err e = ERR_INIT;
	static const char *bad[] = {
		"{\"nccl_version\": 2, \"communicators\": []}",
		"{\"nccl_version\": \"x\", \"communicators\": []}",
		"{\"nccl_version\": \"2.28.9\"}",
		"{\"nccl_version\": \"2.28.9\", \"communicators\": [{\"hash\": \"0x1\", \"size\": 1, "
		"\"ranks\": [{}, {}], \"missing_ranks\": []}]}",
		"{\"nccl_version\": \"2.28.9\", \"communicators\": [{\"hash\": \"0x1\", \"size\": 2, "
		"\"ranks\": [{\"rank\": 0, \"host\": \"h\", \"pid\": \"12\", \"cuda_dev\": 0, "
		"\"nvml_dev\": 0}], \"missing_ranks\": []}]}",
		"{\"nccl_version\": \"2.28.9\", \"nccl_version\": \"2.28.9\", \"communicators\": []}",
		"[1, 2]",
		"garbage",
		"",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ras_report *r = parse(bad[i], &e);
		if (r)
			fail_msg("accepted bad report %zu: %s", i, bad[i]);
		assert_true(e.msg[0] != '\0');
	}
	{
		static const char nul[] = "{\"a\": \0}";
		assert_null(ras_report_parse(nul, sizeof(nul) - 1, &e));
	}
}

static void test_text_reports(void **state)
{
	char *s = status_of("text_sleep", 0);
	struct err e = ERR_INIT;
	struct ras_report *r = parse(s, &e);

	(void)state;
	if (!r)
		fail_msg("%s", e.msg);
	assert_false(r->json);
	assert_string_equal(r->version, "2.27.3");
	assert_int_equal(r->ncomms, 1);
	assert_string_equal(r->comms[0].hash, "0xabc1");
	assert_int_equal(r->comms[0].nranks, 2);
	assert_int_equal(r->comms[0].ranks[0].counts[4], 6);
	assert_int_equal(r->comms[0].ranks[1].counts[4], 5);
	assert_int_equal(r->comms[0].ranks[1].pid, 4202);
	ras_report_free(r);
	free(s);

	s = status_of("text_8ranks", 0);
	r = parse(s, &e);
	if (!r)
		fail_msg("%s", e.msg);
	assert_int_equal(r->comms[0].nranks, 1);
	assert_int_equal(r->comms[0].ranks[0].rank, 5);
	assert_int_equal(r->comms[0].ranks[0].counts[4], 1199);
	assert_true(r->comms[0].text_known & (1u << 4));
	assert_int_equal(r->comms[0].text_hi[4], 1200);
	assert_int_equal(r->comms[0].text_hi_n[4], 7);
	ras_report_free(r);
	free(s);

	s = status_of("text_dead", 0);
	r = parse(s, &e);
	if (!r)
		fail_msg("%s", e.msg);
	assert_int_equal(r->ndead, 1);
	assert_int_equal(r->dead[0].pid, 4202);
	assert_string_equal(r->dead[0].host, "10.77.0.2");
	assert_int_equal(r->comms[0].nmissing, 1);
	assert_int_equal(r->comms[0].missing[0].rank, 1);
	assert_int_equal(r->timeouts, 1);
	ras_report_free(r);
	free(s);
}

static void test_transcript_roundtrip(void **state)
{
	struct ras_answer a = { 0 };
	json_t *j;

	(void)state;
	a.x = xcalloc(1, sizeof(*a.x));
	a.nx = a.ax = 1;
	a.x[0].send = xstrdup("STATUS\n");
	a.x[0].recv = xstrdup("{}");
	a.x[0].recv_len = 2;
	a.t_ms = 7;
	j = ras_transcript_json(&a, 1, "test");
	assert_int_equal(json_integer_value(json_object_get(j, "ncclcheck_ras_transcript")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(j, "polls"), 0), "exchange"), 0), "recv")), "{}");
	json_decref(j);
	ras_answer_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_json_sleep),
		cmocka_unit_test(test_json_dead_needs_repair),
		cmocka_unit_test(test_json_strict),
		cmocka_unit_test(test_text_reports),
		cmocka_unit_test(test_transcript_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
