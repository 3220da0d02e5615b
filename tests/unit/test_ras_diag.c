/* NCCL's DIAGNOSTICS report (2.31+): one line per wording NCCL prints, the frame, and the fold. */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "attach/ras_diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The DIAGNOSTICS answer of the last connection of a transcript (caller frees). */
static char *diag_of(const char *name)
{
	char rel[256];
	json_t *t, *polls, *ex;
	char *s;

	snprintf(rel, sizeof(rel), "attach/ras/%s.json", name);
	t = load_fixture_json(rel);
	polls = json_object_get(t, "polls");
	ex = json_object_get(json_array_get(polls, json_array_size(polls) - 1), "exchange");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ex, 2), "send")),
			    "DIAGNOSTICS\n");
	s = xstrdup(json_string_value(json_object_get(json_array_get(ex, 2), "recv")));
	json_decref(t);
	return s;
}

static int line(const char *s, struct ras_diag_line *l)
{
	return ras_diag_parse_line(s, strlen(s), l);
}

static void test_lines(void **state)
{
	struct ras_diag_line l;

	(void)state;
	assert_int_equal(line("INFO something else", &l), 0);
	assert_int_equal(line("gpu-a:4101 NCCL DIAG === RAS Diagnostics ===", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_HEADER);
	assert_string_equal(l.host, "gpu-a");
	assert_int_equal(l.pid, 4101);

	assert_int_equal(line("h:1 NCCL DIAG [OK]   CUDA driver version: 13000 consistent across 4 "
			      "ranks in comm 0xab", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_OK);
	assert_int_equal(l.check, RAS_DIAG_DRIVER);
	assert_string_equal(l.comm, "0xab");
	assert_int_equal(l.comm_ranks, 4);

	/* a truncated rank set: 8 shown, the total after it */
	assert_int_equal(line("h:1 NCCL DIAG [INFO] GPU inventory: count mismatch across 64 ranks in "
			      "comm 0x1, rank(s) {8,9,10,11,12,13,14,15,...} (N=16) differ from "
			      "rank 0 (8)", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_DIFF);
	assert_int_equal(l.check, RAS_DIAG_GPU);
	assert_int_equal(l.nranks, 8);
	assert_int_equal(l.ranks[7], 15);
	assert_int_equal(l.ranks_total, 16);
	assert_string_equal(l.key, "rank 0 (8)");

	assert_int_equal(line("h:1 NCCL DIAG [INFO] CUDA driver version: mismatch across 2 ranks in "
			      "comm 0x1, rank(s) {1} differ from rank 0 (12080)", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_DIFF);
	assert_int_equal(l.check, RAS_DIAG_DRIVER);

	/* unavailable and incomplete accuse nobody */
	assert_int_equal(line("h:1 NCCL DIAG [INFO] ECC: unavailable via NVML across 4 ranks in comm "
			      "0x1", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_NOTE);
	assert_int_equal(line("h:1 NCCL DIAG [INFO] NVLink: diagnostics incomplete, gathered 2/4 "
			      "ranks in comm 0x1/0x2/0x3 (RAS overlay may not be ready)", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_NOTE);
	assert_int_equal(line("h:1 NCCL DIAG [INFO] ECC: corrected volatile errors at or above "
			      "threshold 10 on rank(s) {2} (worst=40) across 4 ranks in comm 0x1",
			      &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_FAULT);
	assert_int_equal(line("h:1 NCCL DIAG [INFO] NVLink: link-count mismatch across 4 ranks in "
			      "comm 0x1, rank(s) {3} differ from rank 0 (18)", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_DIFF);
	assert_int_equal(l.check, RAS_DIAG_NVLINK);

	/* env: the value may hold " on " and '='; the last " on rank(s) {" ends it */
	assert_int_equal(line("h:1 NCCL DIAG [INFO] NCCL environment: NCCL_X=a=b on rank(s) c on "
			      "rank(s) {0,2}", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_ENV_VALUE);
	assert_string_equal(l.key, "NCCL_X");
	assert_string_equal(l.value, "a=b on rank(s) c");
	assert_int_equal(l.nranks, 2);
	assert_int_equal(line("h:1 NCCL DIAG [INFO] NCCL environment: 1 rank(s) had >16384 bytes of "
			      "NCCL_* env vars; comparison may be partial", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_NOTE);

	/* Xid: [OK] when no action is needed, [INFO] a fault with its host */
	assert_int_equal(line("h:1 NCCL DIAG [OK]   Xid 43 detected 2 times on host n1. No user "
			      "action or further investigation is required for this Xid.", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_OK);
	assert_int_equal(line("h:1 NCCL DIAG [INFO] SXid 20034 detected at least 65535 times "
			      "(NVSwitch driver reported Fatal, link(s) {3,4}) on host n2. See the "
			      "NVIDIA Fabric Manager documentation", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_FAULT);
	assert_int_equal(l.check, RAS_DIAG_XID);
	assert_string_equal(l.key, "SXid 20034");
	assert_string_equal(l.value, "n2");
	assert_int_equal(line("h:1 NCCL DIAG [INFO] Xid/SXid: no kernel-log source was available on "
			      "host n3", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_NOTE);

	/* a check a newer NCCL adds is a note, never a guessed difference */
	assert_int_equal(line("h:1 NCCL DIAG [INFO] IOMMU: mismatch across 4 ranks", &l), 1);
	assert_int_equal(l.kind, RAS_DIAG_NOTE);
	assert_int_equal(l.check, RAS_DIAG_OTHER);

	/* in a log: prefixes before the host, control bytes made visible */
	assert_int_equal(line("[rank0]: node7:99 NCCL DIAG [INFO] ECC: uncorrected volatile errors "
			      "on rank(s) {1} (worst=1) across 2 ranks in comm 0x1\r", &l), 1);
	assert_string_equal(l.host, "node7");
	assert_int_equal(l.kind, RAS_DIAG_FAULT);
	assert_int_equal(line("NCCL DIAG [OK]   ECC: \x1b[31m", &l), 1);
	assert_int_equal(l.host[0], '\0');
	assert_null(strchr(l.text, 0x1b));
}

static struct finding *add(void *ctx, const char *id, enum severity sev, const char *title)
{
	return finding_add(ctx, sev, id, "%s", title);
}

static void test_report_faults(void **state)
{
	char *s = diag_of("diag_faults");
	struct ras_diag d;
	struct err e = ERR_INIT;
	struct findings *fs = findings_new();
	const struct finding *f;

	(void)state;
	assert_int_equal(ras_diag_parse(s, strlen(s), &d, &e), 0);
	assert_int_equal(d.answer, RAS_DIAG_REPORT);
	assert_true(d.done);
	assert_int_equal(d.peers, 4);
	assert_true(d.ms > 412 && d.ms < 413);
	assert_int_equal(d.unparsed, 0);
	assert_int_equal(ras_diag_fold(&d, "RAS", add, fs), 5);
	f = findings_find(fs, "nccl.diag.ecc");
	assert_non_null(f);
	assert_int_equal(f->sev, SEV_ERROR);
	assert_int_equal(f->nranks, 1);
	assert_int_equal(f->ranks[0], 3);
	assert_int_equal(findings_find(fs, "nccl.diag.nvlink")->sev, SEV_ERROR);
	assert_int_equal(findings_find(fs, "nccl.diag.xid")->sev, SEV_ERROR);
	assert_non_null(strstr(findings_find(fs, "nccl.diag.xid")->evidence[0], "host gpu-b"));
	assert_int_equal(findings_find(fs, "nccl.diag.gpu")->sev, SEV_WARN);
	/* the env finding names NCCL_IB_HCA's ranks and fix, not NCCL_DEBUG's (logging only) */
	f = findings_find(fs, "nccl.diag.env");
	assert_int_equal(f->sev, SEV_WARN);
	assert_int_equal(f->nfix, 1);
	assert_non_null(strstr(f->fix[0], "NCCL_IB_HCA"));
	assert_int_equal(f->nranks, 4);
	assert_null(findings_find(fs, "nccl.diag.driver"));
	assert_null(findings_find(fs, "nccl.diag.consistent"));
	findings_free(fs);
	ras_diag_release(&d);
	free(s);
}

static void test_report_kinds(void **state)
{
	struct ras_diag d;
	struct err e = ERR_INIT;
	struct findings *fs = findings_new();
	char *s;
	const char *env_debug = "h:1 NCCL DIAG [INFO] NCCL environment: mismatch across 2 ranks in "
				"comm 0x1 for NCCL_DEBUG\nh:1 NCCL DIAG RAS diagnostics completed in "
				"1.0 ms across 2 ranks\n";

	(void)state;
	s = diag_of("diag_clean");
	assert_int_equal(ras_diag_parse(s, strlen(s), &d, &e), 0);
	assert_int_equal(ras_diag_fold(&d, "RAS", add, fs), 1);
	assert_int_equal(findings_find(fs, "nccl.diag.consistent")->sev, SEV_OK);
	ras_diag_release(&d);
	free(s);

	s = diag_of("diag_incomplete");
	assert_int_equal(ras_diag_parse(s, strlen(s), &d, &e), 0);
	assert_int_equal(ras_diag_fold(&d, "RAS", add, fs), 1);
	assert_int_equal(findings_find(fs, "nccl.diag.incomplete")->sev, SEV_INFO);
	ras_diag_release(&d);
	free(s);

	/* only a logging variable differs: said, but as a note */
	assert_int_equal(ras_diag_parse(env_debug, strlen(env_debug), &d, &e), 0);
	assert_int_equal(ras_diag_fold(&d, "the log", add, fs), 1);
	assert_int_equal(findings_find(fs, "nccl.diag.env")->sev, SEV_INFO);
	assert_int_equal(findings_find(fs, "nccl.diag.env")->nfix, 0);
	ras_diag_release(&d);
	findings_free(fs);

	s = diag_of("diag_busy");
	assert_int_equal(ras_diag_parse(s, strlen(s), &d, &e), 0);
	assert_int_equal(d.answer, RAS_DIAG_BUSY);
	assert_string_equal(d.answer_text, "BUSY: diagnostics already in progress");
	ras_diag_release(&d);
	free(s);

	assert_int_equal(ras_diag_parse("ERROR: Unknown command DIAGNOSTICS\n", 35, &d, &e), 0);
	assert_int_equal(d.answer, RAS_DIAG_UNKNOWN_CMD);
	ras_diag_release(&d);
	assert_int_equal(ras_diag_parse("ERROR: diagnostics only supports text output\n", 45, &d, &e),
			 0);
	assert_int_equal(d.answer, RAS_DIAG_REFUSED);
	ras_diag_release(&d);

	/* not the protocol at all, or nothing */
	assert_int_equal(ras_diag_parse("HTTP/1.1 400 Bad Request\r\n", 26, &d, &e), -1);
	assert_int_equal(ras_diag_parse("", 0, &d, &e), -1);
}

static void test_caps(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct ras_diag d;
	struct err e = ERR_INIT;

	(void)state;
	for (int i = 0; i < RAS_DIAG_MAX_LINES + 10; i++)
		strbuf_addf(&sb, "h:1 NCCL DIAG [INFO] GPU inventory: model mismatch across 2 ranks "
			    "in comm 0x%x, rank(s) {1} differ from rank 0 (X)\n", i);
	assert_int_equal(ras_diag_parse(sb.buf, sb.len, &d, &e), 0);
	assert_int_equal(d.n, RAS_DIAG_MAX_LINES);
	assert_int_equal(d.dropped, 10);
	assert_false(d.done);
	ras_diag_release(&d);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_report_faults),
		cmocka_unit_test(test_report_kinds),
		cmocka_unit_test(test_caps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
