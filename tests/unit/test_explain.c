/*
 * explain: the line reader, prefix stripping, the anchor matcher, one test per signature
 * (table-driven from tests/fixtures/logs/signatures.log, and every row of the table must have a
 * section there), and the cross-rank scenarios under tests/fixtures/logs/scenarios/.
 */
#include "cmocka_helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain/ac.h"
#include "explain/explain.h"
#include "explain/lreader.h"
#include "explain/ngc.h"
#include "explain/scan.h"
#include "explain/sigs.h"
#include "finding.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;

	if (!f)
		fail_msg("cannot open %s", path);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return strbuf_detach(&sb, NULL);
}

struct run {
	struct findings *fs;
	json_t *payload;
};

static struct run explain_text(const char *text, size_t len, const char *master)
{
	struct explain_opts o = { master };
	struct explain *x = explain_new(&o);
	struct lreader *r = lreader_mem(text, len, EXPLAIN_MAX_LINE);
	struct err e = ERR_INIT;
	struct run out;

	assert_int_equal(explain_feed(x, "test.log", r, &e), 0);
	lreader_free(r);
	out.fs = findings_new();
	out.payload = explain_finish(x, out.fs);
	explain_free(x);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a scenario directory, in name order, as one explain run. */
static struct run explain_dir(const char *rel, const char *master)
{
	char dir[4096], **names = NULL;
	size_t n = 0, alloc = 0;
	struct explain_opts o = { master };
	struct explain *x = explain_new(&o);
	DIR *d;
	struct dirent *de;
	struct run out;

	snprintf(dir, sizeof(dir), "%s/logs/scenarios/%s", FIXTURES_DIR, rel);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = xasprintf("%s/%s", dir, de->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *text = slurp(names[i], &len);
		struct lreader *r = lreader_mem(text, len, EXPLAIN_MAX_LINE);
		struct err e = ERR_INIT;
		assert_int_equal(explain_feed(x, strrchr(names[i], '/') + 1, r, &e), 0);
		lreader_free(r);
		free(text);
		free(names[i]);
	}
	free(names);
	out.fs = findings_new();
	out.payload = explain_finish(x, out.fs);
	explain_free(x);
	return out;
}

static void run_free(struct run *r)
{
	findings_free(r->fs);
	json_decref(r->payload);
}

static const struct finding *expect(const struct run *r, const char *id)
{
	const struct finding *f = findings_find(r->fs, id);

	if (!f) {
		for (size_t i = 0; i < r->fs->n; i++)
			print_message("  have: %s (%s)\n", r->fs->v[i]->id, r->fs->v[i]->title);
		fail_msg("no finding '%s'", id);
	}
	return f;
}

static int fix_has(const struct finding *f, const char *s)
{
	for (size_t i = 0; i < f->nfix; i++)
		if (strstr(f->fix[i], s))
			return 1;
	return 0;
}

/* The setting `name` of f, as an env variable for every node, with `value` (NULL: unset). */
static void expect_setting(const struct finding *f, const char *name, const char *value)
{
	const struct setting *st = finding_find_setting(f, name);

	if (!st)
		fail_msg("%s: no setting %s", f->id, name);
	assert_int_equal(st->where, WHERE_ENV);
	assert_int_equal(st->scope, SCOPE_ALL);
	if (value)
		assert_string_equal(st->value, value);
	else
		assert_null(st->value);
}

/* ---- line reader ---------------------------------------------------------------------------- */

static void test_lreader_lines(void **state)
{
	static const char in[] = "a\r\nbb\n\nccc";
	struct lreader *r = lreader_mem(in, sizeof(in) - 1, 16);
	struct lr_line l;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, 1);
	assert_int_equal(l.lineno, 1);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, 2);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, 0);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_memory_equal(l.s, "ccc", 3);
	assert_int_equal(l.lineno, 4);
	assert_int_equal(lreader_next(r, &l, &e), 0);
	assert_int_equal(lreader_bytes(r), sizeof(in) - 1);
	lreader_free(r);
}

/* An over-long line through a pipe keeps its head and counts the rest, in bounded memory. */
static void test_lreader_long_line_fd(void **state)
{
	FILE *tmp = tmpfile();
	struct lreader *r;
	struct lr_line l;
	struct err e = ERR_INIT;
	size_t big = 3u << 20;	/* 3 MiB: longer than the reader's 1 MiB buffer */

	(void)state;
	assert_non_null(tmp);
	for (size_t i = 0; i < big; i++)
		fputc(i == 0 ? 'H' : 'x', tmp);
	fputs("\nnext\nlast-no-newline", tmp);
	fflush(tmp);
	rewind(tmp);
	r = lreader_fd(fileno(tmp), 100);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, 100);
	assert_int_equal(l.s[0], 'H');
	assert_int_equal(l.dropped, big - 100);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, 4);
	assert_memory_equal(l.s, "next", 4);
	assert_int_equal(l.lineno, 2);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, 15);
	assert_int_equal(lreader_next(r, &l, &e), 0);
	lreader_free(r);
	fclose(tmp);
}

/* ---- prefixes ------------------------------------------------------------------------------- */

static void test_strip_prefixes(void **state)
{
	char scratch[EXPLAIN_MAX_LINE];
	struct explain_line_info li;
	static const char torch[] = "[rank3]:node1:4712:4790 [2] NCCL INFO Bootstrap: Using eth1:10.0.0.2<0>";
	static const char srun[] = " 12: [default1]:hello";
	static const char warn[] = "[2025-03-01 10:00:01] node1:4712:4712 [0] misc/socket.cc:484 NCCL WARN boom";
	static const char ansi[] = "\033[1;31m[rank0]:\033[0m RuntimeError: x";
	static const char *const attn[] = {
		"[2026-12-02 06:11:22] node0:4711:4799 [0] misc/crypt.cc:640 (ncclCryptHelloVerdict) "
		"NCCL ATTN Socket magic mismatch from 10.0.0.9<53422>",
		"[rank2]:[2026-12-02 06:11:22.123] node0:4711:4799 [0] misc/crypt.cc:640 "
		"(ncclCryptHelloVerdict) NCCL ATTN Socket magic mismatch from 10.0.0.9<53422>",
		"node0:4711:4799 [1] misc/crypt.cc:640 NCCL ATTN Socket magic mismatch from x",
		/* NCCL_DEBUG_TIMESTAMP_FORMAT=%F_%T.%3f: no brackets */
		"2026-12-02 06:11:22.123 node0:4711:4799 [1] misc/crypt.cc:640 NCCL ATTN Socket magic "
		"mismatch from x",
	};

	(void)state;
	explain_strip(torch, sizeof(torch) - 1, scratch, &li);
	assert_int_equal(li.prefix_rank, 3);
	assert_int_equal(li.nccl, 1);
	assert_int_equal(li.pid, 4712);
	assert_int_equal(li.hlen, 5);
	assert_memory_equal(li.body, "Bootstrap: Using", 16);

	explain_strip(srun, sizeof(srun) - 1, scratch, &li);
	assert_int_equal(li.prefix_rank, 12);
	assert_int_equal(li.local_rank, 1);
	assert_int_equal(li.blen, 5);

	explain_strip(warn, sizeof(warn) - 1, scratch, &li);
	assert_int_equal(li.nccl, 2);
	assert_int_equal(li.blen, 4);

	explain_strip(ansi, sizeof(ansi) - 1, scratch, &li);
	assert_int_equal(li.prefix_rank, 0);
	assert_memory_equal(li.body, "RuntimeError: x", 15);

	/* NCCL 2.32 (debug.cc): WARN and ATTN start with a newline (an empty line before them) and a
	 * timestamp by default, "[%F %T] " (subseconds with %3f), then "[dev] file:line (func)" */
	for (size_t i = 0; i < sizeof(attn) / sizeof(attn[0]); i++) {
		explain_strip(attn[i], strlen(attn[i]), scratch, &li);
		assert_int_equal(li.nccl, 2);
		assert_int_equal(li.pid, 4711);
		assert_int_equal(li.hlen, 5);
		assert_memory_equal(li.body, "Socket magic mismatch", 21);
	}
	explain_strip(attn[1], strlen(attn[1]), scratch, &li);
	assert_int_equal(li.prefix_rank, 2);
	assert_int_equal((int)li.srclen, (int)strlen("misc/crypt.cc:640 (ncclCryptHelloVerdict)"));
	explain_strip("", 0, scratch, &li);
	assert_int_equal(li.nccl, 0);
	assert_int_equal(li.blen, 0);
}


/* Issue #29: what a paste does to a line is undone before the prefixes are read. */
static void test_decode_paste(void **state)
{
	static const struct {
		const char *in, *out;
	} t[] = {
		{ "\xef\xbb\xbfh1:5:6 [0] NCCL WARN x", "h1:5:6 [0] NCCL WARN x" },
		{ "> > h1:5:6 [0] NCCL WARN x", "h1:5:6 [0] NCCL WARN x" },
		{ "{\"log\":\"h1:5:6 [0] NCCL WARN a \\\"b\\\" \\u003ceth0\\u003e\\n\",\"stream\":\"stderr\"}",
		  "h1:5:6 [0] NCCL WARN a \"b\" <eth0>" },
		{ "ib0:1.2.3.4&lt;0&gt; &quot;x&quot; it&#39;s &amp; &ampx", "ib0:1.2.3.4<0> \"x\" it's & &ampx" },
		{ "Cuda failure \xe2\x80\x9cinvalid\xe2\x80\x9d \xe2\x80\x98" "a\xe2\x80\x99", "Cuda failure \"invalid\" 'a'" },
		{ "2024-05-01T10:00:00.123Z node-3 h1:5:6 [0] NCCL INFO x", "h1:5:6 [0] NCCL INFO x" },
		{ "2024-05-01T10:00:00Z Traceback (most recent call last):", "Traceback (most recent call last):" },
		{ "May 01 10:00:00 node-3 python[1234]: [rank0]: x", "[rank0]: x" },
		{ "[pod/trainer-worker-0/pytorch] > [rank1]: y", "[rank1]: y" },
		/* not a paste's wrapping: left as it is */
		{ "2026-12-02 06:11:22 h1:5:6 [0] NCCL INFO x", "2026-12-02 06:11:22 h1:5:6 [0] NCCL INFO x" },
		{ "May be a problem: no", "May be a problem: no" },
		{ "{\"loss\": 1.5}", "{\"loss\": 1.5}" },
		{ "{\"log\":\"cut \\u00", "cut \\u00" },
		{ "[pod/x", "[pod/x" },
		{ "", "" },
	};
	char buf[EXPLAIN_MAX_LINE];
	size_t len, skip;
	const char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = explain_decode(t[i].in, strlen(t[i].in), buf, &len);
		if (len != strlen(t[i].out) || memcmp(s, t[i].out, len))
			fail_msg("'%s' -> '%.*s', expected '%s'", t[i].in, (int)len, s, t[i].out);
	}
	/* literal "\n" joins: pieces one by one; an escaped backslash starts none */
	s = "a\\nb\\\\nc\\nd";
	len = explain_escaped_piece(s, strlen(s), &skip);
	assert_int_equal(len, 1);
	assert_int_equal(skip, 2);
	len = explain_escaped_piece(s + 3, strlen(s + 3), &skip);
	assert_int_equal(len, 5);
	assert_memory_equal(s + 3, "b\\\\nc", 5);
	len = explain_escaped_piece("plain", 5, &skip);
	assert_int_equal(len, 5);
	assert_int_equal(skip, 0);
}

/* Issue #29: a log pasted out of a repr, one line, is read as its lines. */
static void test_decode_repr_log(void **state)
{
	static const char log[] = "'h1:5:6 [0] NCCL INFO start\\nh1:5:6 [0] NCCL WARN NET/IB : Got completion "
				  "from peer 10.0.0.2<1234> with status=12 opcode=0 len=0 vendor err 129\\nend'\n";
	struct run r;

	(void)state;
	r = explain_text(log, sizeof(log) - 1, NULL);
	expect(&r, "nccl.ib.retry_exceeded");
	run_free(&r);
}

/* Issue #13: prefixes of pasted and old logs (OpenMPI tags, Ray, pdsh, no host, NCCL 2.2-2.4). */
static void test_strip_loose(void **state)
{
	static const struct {
		const char *line;
		int nccl, rank;
		const char *host, *src, *body;
	} t[] = {
		{ "[1,23]<stdout>:gpu7:15:91 [3] NCCL WARN Call to recv failed", 2, 23, "gpu7", NULL, "Call to recv failed" },
		{ "(RayWorkerWrapper pid=1978, ip=10.41.0.8) h1:5:6 [0] NCCL INFO Using network IB", 1, -1, "h1", NULL, "Using network IB" },
		{ "node01: VM-0-14:106:196 [0] transport/net_ib.cc:73 NCCL WARN NET/IB : Got async event : port error", 2, -1, "VM-0-14", "transport/net_ib.cc:73", "NET/IB" },
		{ "transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'", 2, -1, NULL, "transport/nvls.cc:165", "Cuda failure" },
		{ "NCCL INFO transport/nvls.cc:324 -> 1", 1, -1, NULL, NULL, "transport/nvls.cc:324" },
		{ "e66aa18dc444:3171:3171 [0] misc/ibvwrap.cu:61 WARN Failed to open libibverbs.so[.1]", 2, -1, "e66aa18dc444", "misc/ibvwrap.cu:61", "Failed to open" },
		{ "gpu2:46654:46654 [0] INFO NET : Using interface ib0:12.12.12.102<0>", 1, -1, "gpu2", NULL, "NET : Using" },
		{ "include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol", 2, -1, NULL, "include/socket.h:344", "Socket creation" },
		/* other loggers: not NCCL */
		{ "INFO 2020-08-18 05:25:52,914 Etcd machines: ['http://0.0.0.0:2379']", 0, -1, NULL, NULL, "INFO 2020" },
		{ "train.py:45 INFO hello", 0, -1, NULL, NULL, "train.py:45" },
		{ "node01: just a message", 0, -1, NULL, NULL, "node01: just" },
		/* Ray's tag before pdsh's */
		{ "(RayWorkerWrapper pid=1890, ip=10.41.0.8) node01: h2:7:8 [0] NCCL WARN NET/IB : x", 2, -1, "h2", NULL, "NET/IB" },
	};
	char scratch[EXPLAIN_MAX_LINE];
	struct explain_line_info li;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		explain_strip(t[i].line, strlen(t[i].line), scratch, &li);
		if (li.nccl != t[i].nccl)
			fail_msg("'%s': level %d, expected %d", t[i].line, li.nccl, t[i].nccl);
		assert_int_equal(li.prefix_rank, t[i].rank);
		if (t[i].host) {
			assert_int_equal(li.hlen, strlen(t[i].host));
			assert_memory_equal(li.host, t[i].host, li.hlen);
		} else {
			assert_int_equal(li.hlen, 0);
		}
		if (t[i].src) {
			assert_int_equal(li.srclen, strlen(t[i].src));
			assert_memory_equal(li.src, t[i].src, li.srclen);
		}
		if (li.blen < strlen(t[i].body) || memcmp(li.body, t[i].body, strlen(t[i].body)))
			fail_msg("'%s': body '%.*s'", t[i].line, (int)li.blen, li.body);
	}
}

/* The first finding whose id starts with `prefix`, or NULL. */
static const struct finding *find_prefix(const struct run *r, const char *prefix)
{
	for (size_t i = 0; i < r->fs->n; i++)
		if (!strncmp(r->fs->v[i]->id, prefix, strlen(prefix)))
			return r->fs->v[i];
	return NULL;
}

static const struct finding *top_error(const struct run *r)
{
	for (size_t i = 0; i < r->fs->n; i++)
		if (r->fs->v[i]->sev == SEV_ERROR)
			return r->fs->v[i];
	return r->fs->n ? r->fs->v[0] : NULL;
}

/* Issue #13: cross-line rules on logs as users paste them. */
static void test_issue13_rules(void **state)
{
	static const char master[] =
		"node0 WORLD_SIZE:8 NODE_RANK:0 MASTER_ADDR:10.1.1.1 MASTER_PORT:9001\n"
		"node1 WORLD_SIZE:8 NODE_RANK:1 MASTER_ADDR:10.1.1.7 MASTER_PORT:9001\n";
	static const char same_master[] =
		"MASTER_ADDR=10.1.1.1\nMASTER_ADDR=10.1.1.1\n";
	static const char dup[] =
		"initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\ninitializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n"
		"initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\ninitializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n";
	static const char restart[] =	/* every rank once, one printed again (a restart): no finding */
		"initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/2\ninitializing ddp: GLOBAL_RANK: 1, MEMBER: 2/2\n"
		"initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/2\n";
	static const char nt_hang[] =
		"# Using devices\n"
		"#  Rank  0 Group  0 Pid  11 on box device  0 [0x01] NVIDIA GeForce RTX 4090\n"
		"#  Rank  1 Group  0 Pid  11 on box device  1 [0x24] NVIDIA GeForce RTX 4090\n"
		"#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
		"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n";
	static const char nt_done[] =
		"#  Rank  0 Group  0 Pid  11 on box device  0 [0x01] NVIDIA GeForce RTX 4090\n"
		"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n"
		"# Avg bus bandwidth    : 10.1\n";
	static const char kb_219[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLTOALL_BASE, Timeout(ms)=600000) ran for 600008 milliseconds before timing out.\n";
	static const char kb_221[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLTOALL_BASE, Timeout(ms)=600000) ran for 600008 milliseconds before timing out.\n";
	static const char kb_219_prose[] =	/* nccl-tests has no watchdog: the reporter's "hangs" */
		"h1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n"
		"alltoall_perf on all 14 nodes with PXN on: hangs, the progress threads idle\n";
	static const char kb_219_prose_ar[] =	/* a hang that is not an all-to-all: not this bug */
		"h1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n"
		"all_reduce_perf on all 14 nodes: hangs at 4194304 bytes\n";
	static const char kb_221_prose[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"alltoall_perf on all 14 nodes with PXN on: hangs, the progress threads idle\n";
	static const char kb_peermem[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:6 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n";
	static const char kb_peermem_fixed[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.23.4+cuda12.6\n"
		"h1:5:6 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n";
	static const char node[] =
		"gpu-b07:5120:5188 [3] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error\n"
		"gpu-a01:4711:4790 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.2<40122> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(master, sizeof(master) - 1, NULL);
	f = expect(&r, "explain.launch.master_addr_differs");
	assert_true(strstr(f->title, "10.1.1.1") && strstr(f->title, "10.1.1.7"));
	assert_non_null(finding_find_setting(f, "MASTER_ADDR"));
	run_free(&r);

	r = explain_text(same_master, sizeof(same_master) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.launch.master_addr_differs"));
	run_free(&r);

	r = explain_text(dup, sizeof(dup) - 1, NULL);
	f = expect(&r, "explain.lightning.duplicate_rank");
	assert_true(fix_has(f, "--ntasks-per-node"));
	run_free(&r);

	r = explain_text(restart, sizeof(restart) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.lightning.duplicate_rank"));
	run_free(&r);

	r = explain_text(nt_hang, sizeof(nt_hang) - 1, NULL);
	f = expect(&r, "explain.hang.p2p");
	assert_int_equal(f->conf, CONF_HIGH);	/* GeForce boards */
	expect_setting(f, "NCCL_P2P_DISABLE", "1");
	run_free(&r);

	r = explain_text(nt_done, sizeof(nt_done) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.p2p"));
	run_free(&r);

	r = explain_text(kb_219, sizeof(kb_219) - 1, NULL);
	f = expect(&r, "nccl.known_bug.cumem_a2a_hang");
	assert_string_equal(f->evidence[1], "source: https://github.com/NVIDIA/nccl/commit/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2");
	assert_int_equal(f->conf, CONF_HIGH);
	expect_setting(f, "NCCL_CUMEM_ENABLE", "0");
	run_free(&r);

	r = explain_text(kb_peermem, sizeof(kb_peermem) - 1, NULL);
	f = expect(&r, "nccl.known_bug.peermem_name");
	assert_int_equal(f->conf, CONF_HIGH);	/* the log shows 2.21.5 */
	assert_true(fix_has(f, "2.23.4"));
	run_free(&r);

	r = explain_text(kb_peermem_fixed, sizeof(kb_peermem_fixed) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.peermem_name"));
	expect(&r, "nccl.ib.gdr_disabled");
	run_free(&r);

	r = explain_text(kb_221, sizeof(kb_221) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.cumem_a2a_hang"));
	run_free(&r);

	r = explain_text(kb_219_prose, sizeof(kb_219_prose) - 1, NULL);
	f = expect(&r, "nccl.known_bug.cumem_a2a_hang");
	expect_setting(f, "NCCL_CUMEM_ENABLE", "0");
	assert_true(finding_evidence_contains(f, "test.log:2: hang"));
	assert_true(finding_evidence_contains(f, "test.log:2: all-to-all"));
	run_free(&r);

	r = explain_text(kb_219_prose_ar, sizeof(kb_219_prose_ar) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.cumem_a2a_hang"));
	run_free(&r);

	r = explain_text(kb_221_prose, sizeof(kb_221_prose) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.cumem_a2a_hang"));
	run_free(&r);

	/* the port event outranks the completion error it causes, and names the node */
	r = explain_text(node, sizeof(node) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.async_event");
	assert_non_null(strstr(f->title, "gpu-b07"));
	assert_true(fix_has(f, "--exclude=gpu-b07"));
	run_free(&r);
}

/* ---- knowledge tables: IB completion statuses, async events, CUDA error strings ------------- */

/* Each table row is chosen from the whole matched line, in every format NCCL has printed it. */
static void test_ib_cuda_tables(void **state)
{
	static const char st9_220[] =
		"n1:1:2 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.1.3.201<33057> "
		"with status=9 opcode=0 len=0 vendor err 138 (Send) localGid ::ffff:10.206.1.23 remoteGids::ffff:10.206.1.11\n";
	static const char st11_old[] =
		"n1:1:2 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 11, opcode 2, len 1048576, vendor err 137\n";
	static const char st11_230[] =
		"n1:1:2 [0] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<4242> with "
		"status=IBV_WC_REM_OP_ERR(11) opcode=IBV_WC_RDMA_WRITE(1) vendor_err=137 hca mlx5_0\n";
	static const char st1[] =	/* status=1 must not be read as 12 or the other way round */
		"n1:1:2 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4242> with status=12 opcode=0 len=0 vendor err 129 (Send)\n";
	/* the event name sits past the 200-character excerpt the finding keeps */
	static const char qp_access[] =
		"[2025-11-09 07:39:30] h100-28:238:1219 [0] transport/net_ib.cc:180 NCCL WARN NET/IB : mlx5_ib0:1 async fatal "
		"event on QP (0x7f69f01519a8) qpn=1234 handle=5 send_cq=6 recv_cq=7 state=6 sq_psn=123456 rq_psn=654321: "
		"local access violation work queue error\n";
	static const char dev_fatal[] =
		"gpu-b07:1:2 [0] transport/net_ib/common.cc:123 NCCL WARN NET/IB : mlx5_3:1 async fatal event: local catastrophic error\n";
	static const char port_down_new[] =
		"gpu-b07:1:2 [0] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal async event: port error(10)\n";
	static const char sm_change[] =
		"gpu-b07:1:2 [0] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal async event: SM change(14)\n";
	static const char speed[] =	/* an INFO line about the port is no event */
		"gpu-b07:1:2 [0] NCCL INFO NET/IB : mlx5_3:1 speed change detected: 400000 -> 200000 Mbps\n";
	static const char cuda999[] =
		"n1:1:2 [1] init.cc:416 NCCL WARN Cuda failure 999 'unknown error'\n";
	static const char cuda801[] =
		"n1:1:2 [0] init.cc:416 NCCL WARN Cuda failure 'operation not supported'\n";
	static const char cuda_other[] =	/* a string the table does not know keeps the generic row */
		"n1:1:2 [0] init.cc:416 NCCL WARN Cuda failure 'some future error'\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(st9_220, sizeof(st9_220) - 1, NULL);
	f = expect(&r, "nccl.ib.completion_error");
	assert_non_null(strstr(f->title, "remote invalid request (completion status 9)"));
	run_free(&r);

	r = explain_text(st11_old, sizeof(st11_old) - 1, NULL);
	f = expect(&r, "nccl.ib.completion_error");
	assert_non_null(strstr(f->title, "remote operation error (completion status 11)"));
	assert_true(fix_has(f, "NCCL_NET_GDR_LEVEL=0"));
	run_free(&r);

	r = explain_text(st11_230, sizeof(st11_230) - 1, NULL);
	f = expect(&r, "nccl.ib.completion_error");
	assert_non_null(strstr(f->title, "completion status 11"));
	run_free(&r);

	/* status 12 has a row of its own: one line, one finding, and never read as status 1 */
	r = explain_text(st1, sizeof(st1) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.ib.completion_error"));
	assert_string_equal(top_error(&r)->id, "nccl.ib.retry_exceeded");
	run_free(&r);

	r = explain_text(qp_access, sizeof(qp_access) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.async_qp_error");
	assert_non_null(strstr(f->title, "local access violation"));
	assert_non_null(strstr(f->title, "h100-28"));
	assert_int_equal(f->conf, CONF_MEDIUM);
	run_free(&r);

	r = explain_text(dev_fatal, sizeof(dev_fatal) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.async_event");
	assert_non_null(strstr(f->title, "catastrophic"));
	assert_true(fix_has(f, "--exclude=gpu-b07"));
	run_free(&r);

	/* NCCL 2.23+ files a port going down among the "non-fatal" events: still the link failing */
	r = explain_text(port_down_new, sizeof(port_down_new) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.async_event");
	assert_non_null(strstr(f->title, "went down"));
	assert_null(findings_find(r.fs, "nccl.ib.async_event_nonfatal"));
	run_free(&r);

	r = explain_text(sm_change, sizeof(sm_change) - 1, NULL);
	f = expect(&r, "nccl.ib.async_event_nonfatal");
	assert_int_equal(f->sev, SEV_WARN);
	assert_non_null(strstr(f->title, "subnet manager"));
	assert_null(findings_find(r.fs, "nccl.ib.async_event"));
	run_free(&r);

	r = explain_text(speed, sizeof(speed) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.ib.async_event"));
	assert_null(findings_find(r.fs, "nccl.ib.async_event_nonfatal"));
	assert_null(findings_find(r.fs, "nccl.ib.async_qp_error"));
	run_free(&r);

	r = explain_text(cuda999, sizeof(cuda999) - 1, NULL);
	f = expect(&r, "nccl.cuda.failure");
	assert_non_null(strstr(f->title, "unknown error"));
	assert_true(fix_has(f, "xid"));
	run_free(&r);

	r = explain_text(cuda801, sizeof(cuda801) - 1, NULL);
	f = expect(&r, "nccl.cuda.failure");
	expect_setting(f, "NCCL_CUMEM_ENABLE", "0");
	run_free(&r);

	r = explain_text(cuda_other, sizeof(cuda_other) - 1, NULL);
	f = expect(&r, "nccl.cuda.failure");
	assert_string_equal(f->title, "a CUDA call inside NCCL failed: 'some future error'");
	run_free(&r);
	/* c10d's connect failures by errno; a refusal keeps its own row */
	{
		static const char noroute[] =
			"[W socket.cpp:558] [c10d] The client socket has failed to connect to [fake-host]:1234 (errno: 113 - No route to host).\n";
		static const char refused[] =
			"[W socket.cpp:558] [c10d] The client socket has failed to connect to [node0]:29500 (errno: 111 - Connection refused).\n";

		r = explain_text(noroute, sizeof(noroute) - 1, NULL);
		f = expect(&r, "torch.store.connect_failed");
		assert_non_null(strstr(f->title, "errno 113"));
		assert_non_null(strstr(f->title, "[fake-host]:1234"));
		run_free(&r);
		r = explain_text(refused, sizeof(refused) - 1, NULL);
		assert_null(findings_find(r.fs, "torch.store.connect_failed"));
		expect(&r, "torch.store.connect_refused");
		run_free(&r);
	}
	/* gloo's host-name lookup says the same words as its interface lookup: no GLOO_SOCKET_IFNAME blamed */
	{
		static const char byname[] =
			"RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:127] rp != nullptr. Unable to find address for: dgx-1.ai\n";
		static const char byif[] =
			"RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. Unable to find address for: ^lo\n";

		r = explain_text(byname, sizeof(byname) - 1, NULL);
		f = expect(&r, "torch.gloo.ifname");
		assert_null(strstr(f->title, "GLOO_SOCKET_IFNAME="));
		assert_non_null(strstr(f->title, "dgx-1.ai"));
		run_free(&r);
		r = explain_text(byif, sizeof(byif) - 1, NULL);
		f = expect(&r, "torch.gloo.ifname");
		assert_non_null(strstr(f->title, "GLOO_SOCKET_IFNAME=^lo"));
		run_free(&r);
	}
	/* older NCCL's socket errors, verbs-call failures, CUDA IPC opens: each read by its error */
	{
		static const char old_to[] =
			"gpu-a:1:2 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out\n";
		static const char cq[] =
			"spark01:2683:2826 [0] misc/ibvwrap.cc:268 NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory\n";
		static const char open_dev[] =
			"n1:1:2 [0] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed\n";
		static const char skipped[] =	/* an optional verb NCCL skips is INFO, not a failure */
			"n1:1:2 [0] NCCL INFO Call to ibv_query_ece skipped, internal_name doesn't exist\n";
		static const char query_dev[] =
			"n1:1:2 [0] misc/ibvwrap.cc:152 NCCL WARN Call to ibv_query_device failed with error Input/output error errno 5\n";
		static const char teardown[] =
			"n1:1:2 [0] misc/ibvwrap.cc:250 NCCL WARN Call to ibv_destroy_qp failed with error Invalid argument errno 22\n";
		static const char ece[] =
			"n1:1:2 [0] misc/ibvwrap.cc:214 NCCL WARN Call to ibv_set_ece failed with error Operation not supported errno 95\n"
			"n1:1:2 [0] misc/ibvwrap.cc:262 NCCL WARN Call to ibv_modify_qp failed with error No such device errno 19\n";
		static const char query_port[] =
			"n1:1:2 [0] transport/net_ib.cc:440 NCCL WARN NET/IB : Unable to query port_num 1\n";
		static const char gdr_lib[] =
			"n1:1:2 [0] misc/gdrwrap.cc:73 NCCL WARN Failed to open libgdrapi.so - libgdrapi.so: cannot open shared object file: No such file or directory\n";
		static const char merge[] =
			"n1:1:2 [0] transport/net_ib.cc:500 NCCL WARN NET/IB : Trying to merge multiple devices together when NCCL_IB_MERGE_NICS=0. Please enable it or disable device merging in NCCL.\n";
		static const char ipc[] =
			"z-pc:909608:910337 [0] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices\n";

		r = explain_text(old_to, sizeof(old_to) - 1, NULL);
		f = expect(&r, "nccl.connect.failed_old");
		assert_non_null(strstr(f->title, "timed out"));
		run_free(&r);
		r = explain_text(cq, sizeof(cq) - 1, NULL);
		f = expect(&r, "nccl.ib.verbs_call");
		assert_non_null(strstr(f->title, "lockable memory"));
		run_free(&r);
		r = explain_text(open_dev, sizeof(open_dev) - 1, NULL);
		f = expect(&r, "nccl.ib.verbs_call");
		assert_non_null(strstr(f->title, "could not open"));
		run_free(&r);
		r = explain_text(skipped, sizeof(skipped) - 1, NULL);
		assert_null(findings_find(r.fs, "nccl.ib.verbs_call"));
		run_free(&r);
		r = explain_text(query_dev, sizeof(query_dev) - 1, NULL);
		f = expect(&r, "nccl.ib.verbs_call");
		assert_non_null(strstr(f->title, "ibv_query_device"));
		run_free(&r);
		/* a teardown verb and ECE follow another error: not the cause */
		r = explain_text(teardown, sizeof(teardown) - 1, NULL);
		assert_null(findings_find(r.fs, "nccl.ib.verbs_call"));
		run_free(&r);
		r = explain_text(ece, sizeof(ece) - 1, NULL);
		assert_null(findings_find(r.fs, "nccl.ib.verbs_call"));
		expect(&r, "nccl.ib.modify_qp");
		run_free(&r);
		r = explain_text(query_port, sizeof(query_port) - 1, NULL);
		f = expect(&r, "nccl.ib.open_device");
		assert_non_null(strstr(f->title, "query a port"));
		run_free(&r);
		r = explain_text(gdr_lib, sizeof(gdr_lib) - 1, NULL);
		f = expect(&r, "nccl.gdrcopy.failed");
		assert_non_null(strstr(f->title, "libgdrapi.so"));
		assert_null(findings_find(r.fs, "launch.lib_missing"));
		run_free(&r);
		r = explain_text(merge, sizeof(merge) - 1, NULL);
		f = expect(&r, "nccl.ib.setting");
		assert_non_null(strstr(f->title, "NCCL_IB_MERGE_NICS=0"));
		run_free(&r);
		r = explain_text(ipc, sizeof(ipc) - 1, NULL);
		f = expect(&r, "nccl.p2p.ipc_open");
		expect_setting(f, "NCCL_P2P_DISABLE", "1");
		run_free(&r);
	}
	/* an NCCL WARN no row knows is quoted at low confidence, never "unrecognised"; a known one is not */
	{
		static const char unknown[] =
			"n1:1:2 [0] transport/foo.cc:12 NCCL WARN Something unexpected happened in the frobnicator\n"
			"n1:1:2 [0] NCCL INFO foo.cc:13 -> 3\n";
		static const char known[] =
			"n1:1:2 [0] init.cc:416 NCCL WARN Cuda failure 'operation not supported'\n";

		r = explain_text(unknown, sizeof(unknown) - 1, NULL);
		f = expect(&r, "explain.nccl.warn_unknown");
		assert_int_equal(f->conf, CONF_LOW);
		assert_non_null(strstr(f->title, "frobnicator"));
		assert_null(findings_find(r.fs, "explain.log.unrecognised"));
		run_free(&r);
		r = explain_text(known, sizeof(known) - 1, NULL);
		assert_null(findings_find(r.fs, "explain.nccl.warn_unknown"));
		run_free(&r);
	}
}

/* The hosts of one bundle compared: the odd host is named; one host, or agreeing hosts, say nothing. */
static void test_hosts_facts(void **state)
{
	static const char net[] =
		"hgx-01:100:100 [0] NCCL INFO cudaDriverVersion 12040\n"
		"hgx-01:100:120 [0] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin v6 (v6)\n"
		"hgx-01:100:120 [0] NCCL INFO Using network IB\n"
		"hgx-02:200:200 [0] NCCL INFO cudaDriverVersion 12040\n"
		"hgx-02:200:220 [0] NCCL INFO Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so\n"
		"hgx-02:200:220 [0] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin v6 (v6)\n"
		"hgx-02:200:220 [0] NCCL INFO Using network IB\n"
		"hgx-03:300:300 [0] NCCL INFO cudaDriverVersion 12020\n"
		"hgx-03:300:320 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.\n"
		"hgx-03:300:320 [0] NCCL INFO Using network Socket\n"
		"hgx-03:300:320 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer hgx-01<41109>\n";
	static const char same[] =
		"hgx-01:100:120 [0] NCCL INFO Using network IB\n"
		"hgx-01:101:121 [1] NCCL INFO Using network Socket\n"	/* two processes of ONE host */
		"hgx-02:200:220 [0] NCCL INFO Using network IB\n";
	static const char quiet[] =	/* a difference without any failure is a low-confidence warning */
		"hgx-01:100:120 [0] NCCL INFO Using network IB\n"
		"hgx-02:200:220 [0] NCCL INFO Using network Socket\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(net, sizeof(net) - 1, NULL);
	f = expect(&r, "explain.hosts.network_differs");
	assert_int_equal(f->sev, SEV_ERROR);
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "Socket on hgx-03"));
	assert_non_null(strstr(f->title, "IB on the other 2 hosts"));
	expect_setting(f, "NCCL_NET", "Socket");
	f = expect(&r, "explain.hosts.plugin_differs");
	assert_non_null(strstr(f->title, "internal on hgx-03"));
	expect_setting(f, "NCCL_NET_PLUGIN", "none");
	f = expect(&r, "explain.hosts.driver_differs");
	assert_int_equal(f->sev, SEV_WARN);
	assert_int_equal(f->conf, CONF_LOW);
	assert_non_null(strstr(f->title, "12020 on hgx-03"));
	run_free(&r);

	r = explain_text(same, sizeof(same) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.network_differs"));
	run_free(&r);

	r = explain_text(quiet, sizeof(quiet) - 1, NULL);
	f = expect(&r, "explain.hosts.network_differs");
	assert_int_equal(f->sev, SEV_WARN);
	assert_int_equal(f->conf, CONF_LOW);
	run_free(&r);
}

/* ---- matcher -------------------------------------------------------------------------------- */

struct acr {
	int seen[8];
	size_t end[8];
};

static void ac_cb(void *ctx, uint16_t c, size_t end)
{
	struct acr *a = ctx;
	a->seen[c]++;
	a->end[c] = end;
}

/*
 * The line cap itself: EXPLAIN_MAX_LINE is 8 KiB, the reader keeps exactly that much of a longer
 * line (from a file and from memory), and a signature is seen only when its anchor lies inside
 * the kept head. A larger cap (4 MiB, say) fails the last assertions.
 */
static void test_line_cap(void **state)
{
	static const char pre[] = "node0:1:1 [0] x.cc:1 NCCL WARN ";
	static const char in_cap[] = " Call to bind failed: Address already in use";
	static const char past_cap[] = " Too many open files";
	size_t big = 5u << 20, n;
	struct strbuf sb = STRBUF_INIT;
	FILE *tmp = tmpfile();
	struct lreader *r;
	struct lr_line l;
	struct err e = ERR_INIT;
	struct run run;

	(void)state;
	assert_int_equal(EXPLAIN_MAX_LINE, 8192);
	/* a 5 MiB line from a file: 8192 bytes kept, the rest counted */
	assert_non_null(tmp);
	for (size_t i = 0; i < big; i++)
		fputc('a' + (int)(i % 26), tmp);
	fputs("\nnext\n", tmp);
	fflush(tmp);
	rewind(tmp);
	r = lreader_fd(fileno(tmp), EXPLAIN_MAX_LINE);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_int_equal(l.len, EXPLAIN_MAX_LINE);
	assert_int_equal(l.dropped, big - EXPLAIN_MAX_LINE);
	assert_int_equal(l.s[EXPLAIN_MAX_LINE - 1], 'a' + (EXPLAIN_MAX_LINE - 1) % 26);
	assert_int_equal(lreader_next(r, &l, &e), 1);
	assert_memory_equal(l.s, "next", 4);
	lreader_free(r);
	fclose(tmp);

	/* line 1: its anchor ends at 8100 (kept); line 2: its anchor starts at 9000 (dropped) */
	strbuf_addstr(&sb, pre);
	for (n = sizeof(pre) - 1; n < 8100 - (sizeof(in_cap) - 1); n++)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, in_cap);
	for (n = 0; n < 64 * 1024; n++)
		strbuf_addch(&sb, 'x');
	strbuf_addch(&sb, '\n');
	n = sb.len;
	strbuf_addstr(&sb, pre);
	while (sb.len - n < 9000)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, past_cap);
	for (n = 0; n < 64 * 1024; n++)
		strbuf_addch(&sb, 'x');
	strbuf_addch(&sb, '\n');
	run = explain_text(sb.buf, sb.len, NULL);
	expect(&run, "nccl.bind.address_in_use");
	assert_null(findings_find(run.fs, "sys.too_many_files"));
	assert_int_equal(jpath_int(run.payload, "inputs.0.long_lines", -1), 2);
	assert_int_equal(jpath_int(run.payload, "lines", -1), 2);
	run_free(&run);
	strbuf_release(&sb);
}

static void test_ac(void **state)
{
	struct ac *a = ac_new();
	struct acr r = { { 0 }, { 0 } };
	struct ac_seen sn = { NULL, 0 };
	static const char s[] = "xx ushers she said his hers";

	(void)state;
	ac_add(a, "he", 0);
	ac_add(a, "she", 1);
	ac_add(a, "hers", 2);
	ac_add(a, "nothere", 3);
	ac_build(a);
	sn.seen = xcalloc(ac_consumers(a), sizeof(*sn.seen));
	ac_scan(a, &sn, s, sizeof(s) - 1, ac_cb, &r);
	assert_int_equal(r.seen[0], 1);	/* each consumer once per scan */
	assert_int_equal(r.seen[1], 1);
	assert_int_equal(r.seen[2], 1);
	assert_int_equal(r.seen[3], 0);
	assert_int_equal(r.end[1], 7);	/* "she" first ends in "ushers" */
	ac_scan(a, &sn, "he", 2, ac_cb, &r);	/* a new scan reports again */
	assert_int_equal(r.seen[0], 2);
	free(sn.seen);
	ac_free(a);
}

/* Every anchor of the signature and extractor tables is in the automaton: past its state limit it
 * refuses patterns, and their signatures would never fire. */
static void test_ac_takes_every_anchor(void **state)
{
	struct ac *a = ac_new();
	size_t states = 0;
	char *big = xmalloc(AC_MAX_STATES + 1);

	(void)state;
	assert_int_equal(scan_anchors_refused(&states), 0);
	assert_true(states > 1000);
	print_message("automaton: %zu states of at most %u\n", states, AC_MAX_STATES);
	/* the limit is real: a pattern longer than the state space is refused, not truncated */
	memset(big, 'x', AC_MAX_STATES);
	big[AC_MAX_STATES] = 0;
	assert_int_equal(ac_add(a, big, 0), 0);
	assert_int_equal(ac_add(a, "ok", 1), 1);
	free(big);
	ac_free(a);
}

struct ac_all {
	int *seen;
	size_t *end;
};

static void ac_all_cb(void *ctx, uint16_t c, size_t end)
{
	struct ac_all *r = ctx;
	r->seen[c]++;
	r->end[c] = end;
}

static uint32_t ac_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * The automaton against a plain search: each consumer is reported once, at the end of the first
 * occurrence of any of its patterns, and only then. Texts and patterns come from a small alphabet
 * so that matches overlap and break deep in the trie, where states have no rows and the scan
 * follows failure links; `big` makes a trie too wide for the rows' 16-bit ids at the usual depth.
 */
static void ac_check_random(uint32_t seed, size_t npat, size_t minlen, size_t maxlen,
			    const char *alpha, size_t tlen)
{
	size_t na = strlen(alpha), ncons = npat / 2 + 1;
	char **pats = xcalloc(npat, sizeof(*pats));
	char *text = xmalloc(tlen + 1);
	size_t *want = xcalloc(ncons, sizeof(*want));
	struct ac_all r = { xcalloc(ncons, sizeof(int)), xcalloc(ncons, sizeof(size_t)) };
	struct ac_seen sn = { NULL, 0 };
	struct ac *a = ac_new();
	uint32_t x = seed;

	for (size_t i = 0; i < npat; i++) {
		size_t len = minlen + ac_rand(&x) % (maxlen - minlen + 1);

		pats[i] = xmalloc(len + 1);
		for (size_t k = 0; k < len; k++)
			pats[i][k] = alpha[ac_rand(&x) % na];
		pats[i][len] = 0;
		assert_int_equal(ac_add(a, pats[i], (uint16_t)(i % ncons)), 1);
	}
	ac_build(a);
	/* random text with copies of patterns (whole and cut short) and an uppercase letter or two */
	for (size_t k = 0; k < tlen;) {
		const char *p = pats[ac_rand(&x) % npat];
		size_t m = strlen(p) - (ac_rand(&x) % 3 == 0);

		if (ac_rand(&x) % 2 == 0 && k + m <= tlen) {
			memcpy(text + k, p, m);
			k += m;
		} else {
			text[k++] = ac_rand(&x) % 50 ? alpha[ac_rand(&x) % na] : 'Q';
		}
	}
	text[tlen] = 0;
	for (size_t i = 0; i < npat; i++) {
		size_t m = strlen(pats[i]), c = i % ncons;

		for (size_t k = 0; k + m <= tlen; k++)
			if (!memcmp(text + k, pats[i], m)) {
				if (!want[c] || k + m < want[c])
					want[c] = k + m;
				break;
			}
	}
	sn.seen = xcalloc(ac_consumers(a), sizeof(*sn.seen));
	ac_scan(a, &sn, text, tlen, ac_all_cb, &r);
	for (size_t c = 0; c < ncons; c++) {
		if (r.seen[c] != !!want[c] || (want[c] && r.end[c] != want[c]))
			fail_msg("seed %u consumer %zu: seen %d end %zu, want end %zu", seed, c,
				 r.seen[c], r.end[c], want[c]);
	}
	for (size_t i = 0; i < npat; i++)
		free(pats[i]);
	free(pats);
	free(text);
	free(want);
	free(r.seen);
	free(r.end);
	free(sn.seen);
	ac_free(a);
}

static void test_ac_random(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 40; seed++) {
		ac_check_random(seed, 60, 2, 14, "ab c", 3000);	/* deep overlaps, failure chains */
		ac_check_random(seed, 40, 1, 9, "abc", 500);	/* one-byte patterns: no start filter */
	}
	/* 24000 patterns of 6 letters: levels 0-4 hold over 32k states, so fewer levels get rows */
	ac_check_random(7, 24000, 6, 6, "abcdefghijklmnopqrstuvwxyz", 3000);
}

/*
 * The automaton's alphabet is the bytes its patterns use, every other byte one class: such a byte
 * inside a would-be match breaks it, as does a different case (matching is case-sensitive); bytes
 * above 0x7f and NUL are bytes like any other, overlapping patterns are all reported, and a
 * pattern that ends the buffer is seen.
 */
static void test_ac_classes(void **state)
{
	static const char *pats[] = { "abcd", "bc", "bcde", "cd", "Error", "\xe2\x80\x94x", "tail",
				      "xyz" };
	static const char s[] = "ab!cd xy\xffz error ERROR Error abcdef \xe2\x80\x94x tail";
	const char *ab = strstr(s, "abcdef");
	struct ac *a = ac_new();
	struct acr r = { { 0 }, { 0 } };
	struct ac_seen sn = { NULL, 0 };

	(void)state;
	for (uint16_t i = 0; i < 8; i++)
		ac_add(a, pats[i], i);
	ac_build(a);
	sn.seen = xcalloc(ac_consumers(a), sizeof(*sn.seen));
	ac_scan(a, &sn, s, sizeof(s) - 1, ac_cb, &r);
	assert_int_equal(r.seen[0], 1);
	assert_int_equal(r.end[0], (size_t)(ab - s) + 4);
	assert_int_equal(r.seen[1], 1);	/* "ab!cd" has no "bc": the first is inside "abcdef" */
	assert_int_equal(r.end[1], (size_t)(ab - s) + 3);
	assert_int_equal(r.seen[2], 1);
	assert_int_equal(r.end[2], (size_t)(ab - s) + 5);
	assert_int_equal(r.seen[3], 1);
	assert_int_equal(r.end[3], 5);	/* "cd" right after '!', a byte of no pattern */
	assert_int_equal(r.seen[4], 1);
	assert_int_equal(r.end[4], (size_t)(strstr(s, "Error") - s) + 5);
	assert_int_equal(r.seen[5], 1);
	assert_int_equal(r.end[5], (size_t)(strstr(s, "\xe2\x80\x94x") - s) + 4);
	assert_int_equal(r.seen[6], 1);
	assert_int_equal(r.end[6], sizeof(s) - 1);
	assert_int_equal(r.seen[7], 0);	/* 0xff between "xy" and "z" */

	/* "error" alone, a NUL before "bc", "abc" cut by the end of the buffer */
	memset(&r, 0, sizeof(r));
	ac_scan(a, &sn, "error ERROR x\0bc abc", 20, ac_cb, &r);
	assert_int_equal(r.seen[4], 0);
	assert_int_equal(r.seen[1], 1);
	assert_int_equal(r.end[1], 16);
	assert_int_equal(r.seen[0] + r.seen[2] + r.seen[3], 0);
	memset(&r, 0, sizeof(r));
	ac_scan(a, &sn, "bcdef", 3, ac_cb, &r);	/* only "bcd" is scanned */
	assert_int_equal(r.seen[1], 1);
	assert_int_equal(r.seen[3], 1);
	assert_int_equal(r.end[3], 3);
	assert_int_equal(r.seen[0] + r.seen[2], 0);
	free(sn.seen);
	ac_free(a);
}

/* ---- one test per signature ----------------------------------------------------------------- */

/*
 * Every variable a signature's fix exports or unsets is also in the finding's settings[], so that
 * config/run need not read the fix lines; the row's rerun and check are the finding's.
 */
static void assert_fix_settings(const struct finding *f, const struct explain_sig *g)
{
	assert_string_equal(f->rerun ? f->rerun : "", g->rerun ? g->rerun : "");
	assert_string_equal(f->check ? f->check : "", g->check ? g->check : "");
	for (size_t k = 0; k < f->nfix; k++) {
		const char *line = f->fix[k], *p;
		int unset = !strncmp(line, "unset ", 6);
		if (strncmp(line, "export ", 7) && !unset)
			continue;
		p = line + (unset ? 6 : 7);
		/* each NAME (export NAME=… / unset NAME …) up to the comment */
		while (*p && *p != '#') {
			char name[64];
			size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
			if (!n || n >= sizeof(name) || (!unset && p[n] != '='))
				break;
			memcpy(name, p, n);
			name[n] = '\0';
			if (!finding_find_setting(f, name))
				fail_msg("%s: '%s' recommends %s but settings[] lacks it", g->id, line, name);
			p += n;
			while (*p && *p != ' ')
				p++;
			while (*p == ' ')
				p++;
		}
	}
}

static void test_every_signature(void **state)
{
	char path[4096], *text, *p;
	size_t len, tested = 0;
	char *done = xcalloc(explain_nsigs, 1);

	(void)state;
	snprintf(path, sizeof(path), "%s/logs/signatures.log", FIXTURES_DIR);
	text = slurp(path, &len);
	p = strstr(text, "\n### ");
	while (p) {
		char id[128];
		char *body, *next;
		const struct explain_sig *g;
		struct run r;
		const struct finding *f;

		p += 5;
		sscanf(p, "%127s", id);
		body = strchr(p, '\n');
		assert_non_null(body);
		body++;
		next = strstr(body, "\n### ");
		g = explain_sig_find(id);
		if (!g)
			fail_msg("signatures.log has a section for unknown signature '%s'", id);
		r = explain_text(body, next ? (size_t)(next - body + 1) : strlen(body), NULL);
		f = expect(&r, id);
		assert_int_equal(f->sev, g->sev);
		assert_true(f->nfix > 0);
		assert_non_null(f->why);
		assert_true(f->nevidence > 0);
		assert_non_null(strstr(f->evidence[0], "test.log:"));
		if (g->flags & SIG_BENIGN)
			assert_true(f->sev <= SEV_INFO);
		assert_int_equal(f->conf, g->conf);
		assert_fix_settings(f, g);
		done[g - explain_sigs] = 1;
		tested++;
		run_free(&r);
		p = next;
	}
	for (size_t i = 0; i < explain_nsigs; i++)
		if (!done[i])
			fail_msg("signature '%s' has no section in signatures.log", explain_sigs[i].id);
	assert_true(explain_nsigs >= 40);
	assert_int_equal(tested, explain_nsigs);
	free(done);
	free(text);
}

/* No text of the tables carries a "\\n" typed as two characters (a new line was meant). */
static void test_table_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < explain_nsigs; i++) {
		const struct explain_sig *g = &explain_sigs[i];
		const char *t[] = { g->title, g->cause, g->fix };
		for (size_t k = 0; k < ARRAY_SIZE(t); k++)
			if (t[k] && strstr(t[k], "\\n"))
				fail_msg("signature '%s' has a literal \\n: %s", g->id, t[k]);
		for (const struct explain_sig_variant *v = g->variants; v && v->when; v++) {
			const char *u[] = { v->title, v->cause, v->fix };
			for (size_t k = 0; k < ARRAY_SIZE(u); k++)
				if (u[k] && strstr(u[k], "\\n"))
					fail_msg("signature '%s' (%s) has a literal \\n: %s", g->id, v->when, u[k]);
		}
	}
	for (size_t k = 0; k < explain_nknown_bugs; k++) {
		const struct explain_known_bug *kb = &explain_known_bugs[k];
		if (strstr(kb->fix, "\\n") || strstr(kb->cause, "\\n"))
			fail_msg("known bug '%s' has a literal \\n", kb->id);
	}
}

/* Every known-bug row names its source, its symptom signature and a fix. */
static void test_known_bugs_complete(void **state)
{
	(void)state;
	for (size_t k = 0; k < explain_nknown_bugs; k++) {
		const struct explain_known_bug *kb = &explain_known_bugs[k];
		assert_non_null(kb->source);
		assert_true(!strncmp(kb->source, "https://", 8));
		assert_true(kb->symptom ? explain_sig_find(kb->symptom) != NULL
					: (kb->needs & (KB_NEED_HANG | KB_NEED_WRONG)) != 0);
		assert_non_null(kb->fix);
		assert_true(!kb->to || kb->from < kb->to);
		assert_true(!strncmp(kb->id, "nccl.known_bug.", 15));
		/* the release it says to upgrade to is past the affected range */
		if (kb->fixed_in) {
			unsigned a, b, c = 0;

			assert_true(sscanf(kb->fixed_in, "%u.%u.%u", &a, &b, &c) >= 2);
			if ((int)(a * 10000 + b * 100 + c) < kb->to)
				fail_msg("known bug '%s': fixed in %s, inside its range", kb->id, kb->fixed_in);
		}
	}
}

/* Every signature row is complete: an id, an anchor, a title, a cause and a fix. */
static void test_table_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < explain_nsigs; i++) {
		const struct explain_sig *g = &explain_sigs[i];
		assert_non_null(g->id);
		assert_non_null(g->anchors[0]);
		assert_true(g->title && *g->title && g->cause && *g->cause && g->fix && *g->fix);
		for (size_t j = i + 1; j < explain_nsigs; j++)
			if (!strcmp(g->id, explain_sigs[j].id))
				fail_msg("duplicate signature id '%s'", g->id);
	}
}

/* ---- cross-rank scenarios ------------------------------------------------------------------- */

static void test_wrong_interface(void **state)
{
	struct run r = explain_dir("wrong_iface", NULL);
	const struct finding *f = expect(&r, "explain.net.wrong_interface");

	(void)state;
	assert_int_equal(f->sev, SEV_ERROR);
	assert_true(fix_has(f, "export NCCL_SOCKET_IFNAME=eth1"));
	assert_non_null(strstr(f->title, "eth0"));
	assert_non_null(strstr(f->title, "10.0.0.1"));
	/* the wrong interface is ranked first */
	assert_string_equal(r.fs->v[0]->id, "explain.net.wrong_interface");
	assert_string_equal(jpath_str(r.payload, "ranks.0.bootstrap.class"), "public");
	assert_string_equal(jpath_str(r.payload, "ranks.1.bootstrap.addr"), "203.0.113.2");
	assert_string_equal(jpath_str(r.payload, "master_addr.value"), "10.0.0.1");
	assert_int_equal(f->conf, CONF_HIGH);
	/* the diagnosis is the finding: no second copy in the payload */
	assert_null(json_object_get(r.payload, "diagnoses"));
	/* the fix as data: both variables, on every node, and the ranks it is about */
	expect_setting(f, "NCCL_SOCKET_IFNAME", "eth1");
	expect_setting(f, "GLOO_SOCKET_IFNAME", "eth1");
	assert_int_equal(f->nranks, 2);
	assert_int_equal(f->ranks[0], 0);
	assert_int_equal(f->ranks[1], 1);
	assert_non_null(f->check);
	run_free(&r);
}

/* Without MASTER_ADDR in the log, --master-addr lets explain name the interface. */
static void test_wrong_interface_master_flag(void **state)
{
	static const char log[] =
		"node1:5322:5322 [0] NCCL INFO Bootstrap: Using eth0:203.0.113.2<0>\n"
		"node1:5322:5391 [0] NCCL INFO NET/Socket : Using [0]eth0:203.0.113.2<0> [1]ens5:172.31.4.9<0>\n"
		"node1:5322:5391 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2 - Init START\n";
	static const char no_list[] =
		"node1:5322:5322 [0] NCCL INFO Bootstrap: Using eth0:203.0.113.2<0>\n"
		"node1:5322:5391 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2 - Init START\n";
	struct run r = explain_text(log, sizeof(log) - 1, "172.31.4.1");
	const struct finding *f = expect(&r, "explain.net.wrong_interface");

	(void)state;
	assert_true(fix_has(f, "NCCL_SOCKET_IFNAME=ens5"));
	expect_setting(f, "NCCL_SOCKET_IFNAME", "ens5");
	run_free(&r);
	/* without it, NCCL's NET/Socket list still shows the one private interface (issue #13) */
	r = explain_text(log, sizeof(log) - 1, NULL);
	f = expect(&r, "explain.net.wrong_interface");
	expect_setting(f, "NCCL_SOCKET_IFNAME", "ens5");
	assert_non_null(strstr(f->why, "--master-addr confirms it"));
	run_free(&r);
	/* and without that list, only --master-addr can name it */
	r = explain_text(no_list, sizeof(no_list) - 1, NULL);
	f = expect(&r, "explain.net.wrong_interface");
	assert_true(fix_has(f, "ip -o route get"));
	assert_non_null(strstr(f->why, "--master-addr"));
	/* without a name to give, the setting is the same shell expression the fix line exports */
	assert_non_null(finding_find_setting(f, "NCCL_SOCKET_IFNAME"));
	assert_true(!strncmp(finding_find_setting(f, "NCCL_SOCKET_IFNAME")->value,
			     "$(ip -o route get \"$MASTER_ADDR\" | sed -n", 40));
	run_free(&r);
}

/*
 * issue #13: the recorded two-node logs with the public eth0 blocked, as a user pastes them
 * (NCCL's and torch's output only: without the launcher's MASTER_ADDR line and `ip addr`). NCCL's
 * own "NET/Socket : Using [0]eth0:203.0.113.1 [1]eth1:10.0.0.1" shows the private interface:
 * the fix names eth1 instead of the generic `ip route get` one-liner, with that line as evidence.
 */
static struct run explain_real_pasted(const char *setup, const char *master, const char *extra)
{
	struct explain_opts o = { master };
	struct explain *x = explain_new(&o);
	struct run out;

	for (int rank = 0; rank < 2; rank++) {
		char path[4096], *text, *line, *save = NULL, name[32];
		struct strbuf kept = STRBUF_INIT;
		struct lreader *r;
		struct err e = ERR_INIT;
		size_t len;

		snprintf(path, sizeof(path), "%s/logs/real/%s/rank%d.log", FIXTURES_DIR, setup, rank);
		text = slurp(path, &len);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			int shell = line[0] == '+' && line[1] == ' ';
			int ipaddr = line[0] >= '0' && line[0] <= '9' && strstr(line, "    inet ");
			if (!shell && !ipaddr)
				strbuf_addf(&kept, "%s\n", line);
		}
		snprintf(name, sizeof(name), "rank%d.log", rank);
		r = lreader_mem(kept.buf, kept.len, EXPLAIN_MAX_LINE);
		assert_int_equal(explain_feed(x, name, r, &e), 0);
		lreader_free(r);
		strbuf_release(&kept);
		free(text);
	}
	if (extra) {
		struct lreader *r = lreader_mem(extra, strlen(extra), EXPLAIN_MAX_LINE);
		struct err e = ERR_INIT;
		assert_int_equal(explain_feed(x, "node2.log", r, &e), 0);
		lreader_free(r);
	}
	out.fs = findings_new();
	out.payload = explain_finish(x, out.fs);
	explain_free(x);
	return out;
}

static void test_socket_list_suggestion(void **state)
{
	struct run r = explain_real_pasted("firewalled", NULL, NULL);
	const struct finding *f = expect(&r, "explain.net.wrong_interface");

	(void)state;
	assert_true(json_is_null(json_object_get(r.payload, "master_addr")));
	expect_setting(f, "NCCL_SOCKET_IFNAME", "eth1");
	expect_setting(f, "GLOO_SOCKET_IFNAME", "eth1");
	assert_true(fix_has(f, "only private interface in NCCL's NET/Socket list"));
	assert_false(fix_has(f, "ip -o route get"));
	assert_true(finding_evidence_contains(f, "rank0.log:14: NET/Socket: eth0 203.0.113.1 (public), "
					      "eth1 10.0.0.1 (private)"));
	expect_setting(expect(&r, "explain.init.stuck"), "NCCL_SOCKET_IFNAME", "eth1");
	run_free(&r);

	/* a public MASTER_ADDR: the job means that network; the list is no reason to leave it */
	r = explain_real_pasted("firewalled", "198.51.100.7", NULL);
	f = expect(&r, "explain.net.wrong_interface");
	assert_true(fix_has(f, "ip -o route get 198.51.100.7"));
	run_free(&r);

	/* two private networks in the lists (a third node lists ens5 10.1.0.3): the log cannot tell */
	r = explain_real_pasted("firewalled", NULL,
				"vm2:7:7 [0] NCCL INFO NET/Socket : Using [0]ens5:10.1.0.3<0>\n");
	f = expect(&r, "explain.net.wrong_interface");
	assert_true(fix_has(f, "ip -o route get \"$MASTER_ADDR\""));
	run_free(&r);
}

/* unset is a setting with no value; the sysctl of a fix is a sysctl setting without quotes. */
static void test_settings_kinds(void **state)
{
	static const char refused[] =
		"node1:4712:4790 [0] misc/socket.cc:598 NCCL WARN socketStartConnect: connect to "
		"172.17.0.1<35519> returned Connection refused, exceeded error retry count after 35 attempts\n";
	static const char net[] = "node0:4711:4711 [0] NCCL INFO NCCL_NET set by environment to IB\n"
				  "node0:4711:4711 [0] net.cc:776 NCCL WARN Failed to initialize any NET plugin\n";
	struct run r = explain_text(refused, sizeof(refused) - 1, "10.0.0.1");
	const struct finding *f = expect(&r, "nccl.connect.refused");
	const struct setting *st = finding_find_setting(f, "net.ipv4.ip_local_port_range");

	(void)state;
	assert_non_null(st);
	assert_int_equal(st->where, WHERE_SYSCTL);
	assert_string_equal(st->value, "50000 51000");
	run_free(&r);
	r = explain_text(net, sizeof(net) - 1, NULL);
	f = expect(&r, "nccl.net.not_found");
	expect_setting(f, "NCCL_NET", NULL);
	run_free(&r);
}

static void test_healthy(void **state)
{
	struct run r = explain_dir("healthy", NULL);
	const struct finding *f = expect(&r, "explain.init.ok");

	(void)state;
	assert_int_equal(findings_count(r.fs, SEV_ERROR), 0);
	assert_int_equal(findings_count(r.fs, SEV_WARN), 0);
	assert_non_null(strstr(f->title, "2 ranks"));
	expect(&r, "nccl.plugin.absent");	/* said, and said to be benign */
	assert_int_equal(expect(&r, "nccl.plugin.absent")->sev, SEV_INFO);
	assert_int_equal(jpath_int(r.payload, "ranks.1.rank", -1), 1);
	assert_string_equal(jpath_str(r.payload, "ranks.0.transports.0"), "NET/Socket");
	assert_int_equal(jpath_int(r.payload, "ranks.0.nnodes", -1), 2);
	assert_non_null(jpath_str(r.payload, "ranks.0.lightning.registered"));
	assert_true(json_is_real(jpath(r.payload, "ranks.1.init.total_s")));
	run_free(&r);
}

static void test_version_mismatch(void **state)
{
	struct run r = explain_dir("version_mismatch", NULL);
	const struct finding *f = expect(&r, "explain.nccl.version_mismatch");

	(void)state;
	assert_non_null(strstr(f->title, "2.27.3"));
	assert_true(fix_has(f, "pip install nvidia-nccl-cu13==2.28.9"));
	expect(&r, "nccl.bootstrap.truncated");
	assert_string_equal(jpath_str(r.payload, "ranks.1.nccl_version"), "2.27.3+cuda12.9");
	run_free(&r);
}

/*
 * One pasted bundle, no rank prefixes, two hosts: each host keeps its own version, the bare
 * "NCCL version" line going to the process whose NCCL line precedes it; a tie names the newer.
 */
static void test_version_mismatch_hosts(void **state)
{
	static const char bundle[] =
		"node1:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"NCCL version 2.18.1+cuda12.1\n"
		"node2:2234:2234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
		"node2:2234:2234 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
		"node1:1234:1300 [0] transport/net_socket.cc:443 NCCL WARN NET/Socket : peer 10.0.0.2<52346> "
		"message truncated : receiving 1048576 bytes instead of 65536.\n";
	static const char same[] =
		"node1:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"NCCL version 2.19.3+cuda12.2\n"
		"node2:2234:2234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
		"NCCL version 2.19.3+cuda12.2\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(bundle, sizeof(bundle) - 1, NULL);
	f = expect(&r, "explain.nccl.version_mismatch");
	assert_non_null(strstr(f->title, "2.18.1 on node1"));
	assert_non_null(strstr(f->title, "2.19.3 on node2"));
	assert_true(fix_has(f, "nvidia-nccl-cu12==2.19.3"));
	run_free(&r);

	r = explain_text(same, sizeof(same) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.nccl.version_mismatch"));
	run_free(&r);
}

static void test_missing_rank(void **state)
{
	struct run r = explain_dir("missing_rank", NULL);
	const struct finding *f = expect(&r, "explain.ranks.missing");

	(void)state;
	assert_non_null(strstr(f->title, "rank 2 of 4"));
	expect(&r, "explain.init.stuck");
	run_free(&r);
}

static void test_lightning(void **state)
{
	struct run r = explain_dir("lightning_hang", NULL);

	(void)state;
	expect(&r, "explain.lightning.rendezvous_hang");
	assert_null(findings_find(r.fs, "explain.lightning.duplicate_rank"));
	run_free(&r);
	r = explain_dir("lightning_dup", NULL);
	assert_true(fix_has(expect(&r, "explain.lightning.duplicate_rank"), "NODE_RANK"));
	run_free(&r);
}

static void test_watchdog_desync(void **state)
{
	struct run r = explain_dir("watchdog_desync", NULL);
	const struct finding *f = expect(&r, "explain.watchdog.desync");

	(void)state;
	assert_string_equal(f->node, "rank 2");
	assert_int_equal(jpath_int(r.payload, "ranks.2.watchdog.seq", -1), 41);
	assert_string_equal(jpath_str(r.payload, "ranks.0.watchdog.op"), "ALLREDUCE");
	assert_int_equal(jpath_int(r.payload, "ranks.0.watchdog.timeout_ms", -1), 600000);
	run_free(&r);
}

/*
 * An NCCL 2.32 / torch 2.12 run (scenarios/nccl232, built from the documented formats: NCCL's
 * debug.cc and crypt.cc ATTN lines, its diagnostics lines, torch's "... environments:" lines as
 * meta-pytorch/torchforge#55 shows them): torch's own settings become facts (the flight recorder
 * ran, so the desync fix reads its dumps instead of asking for a rerun; the NCCL version), and
 * NCCL's diagnostics are folded in as they are (ECC on the rank that fell behind; NCCL_DEBUG
 * differing is only a note).
 */
static void test_nccl232(void **state)
{
	struct run r = explain_dir("nccl232", NULL);
	const struct finding *f = expect(&r, "explain.watchdog.desync");

	(void)state;
	assert_true(fix_has(f, "ncclcheck attach --no-ras --fr"));
	assert_false(fix_has(f, "export TORCH_NCCL_TRACE_BUFFER_SIZE"));
	/* the signature's own advice too: no rerun asking for what already ran */
	f = expect(&r, "torch.watchdog.timeout");
	assert_true(fix_has(f, "ncclcheck attach --no-ras --fr"));
	assert_false(fix_has(f, "TORCH_NCCL_TRACE_BUFFER_SIZE="));
	assert_null(f->rerun);
	f = expect(&r, "nccl.diag.ecc");
	assert_int_equal(f->sev, SEV_ERROR);
	assert_int_equal(f->ranks[0], 3);
	assert_non_null(strstr(f->evidence[0], "rank0.log:9: NCCL DIAG ECC"));
	assert_int_equal(expect(&r, "nccl.diag.env")->sev, SEV_INFO);
	assert_null(findings_find(r.fs, "nccl.diag.consistent"));
	assert_int_equal(expect(&r, "nccl.socket.closed_before_hello")->sev, SEV_INFO);
	expect(&r, "nccl.socket.wrong_type");
	assert_string_equal(jpath_str(r.payload, "ranks.0.nccl_version"), "2.32.3");
	assert_string_equal(jpath_str(r.payload, "nccl_env.TORCH_NCCL_TRACE_BUFFER_SIZE"), "2000");
	assert_string_equal(jpath_str(r.payload, "nccl_env.TORCH_NCCL_DUMP_ON_TIMEOUT"), "1");
	/* not a setting the reasoning reads: not recorded */
	assert_null(jpath_str(r.payload, "nccl_env.TORCH_NCCL_NAN_CHECK"));
	run_free(&r);
}

/* torch printed different values of one setting in two processes: said, with torch's words */
static void test_torch_env_differs(void **state)
{
	static const char log[] =
		"[rank0]:I1202 06:10:01.1 1 ProcessGroupNCCL.cpp:980] [PG ID 0 PG GUID 0 Rank 0] "
		"ProcessGroupNCCL environments: NCCL version: 2.27.5, TORCH_NCCL_ASYNC_ERROR_HANDLING: 3, "
		"TORCH_DISTRIBUTED_DEBUG: OFF\n"
		"[rank1]:I1202 06:10:01.1 2 ProcessGroupNCCL.cpp:980] [PG ID 0 PG GUID 0 Rank 1] "
		"ProcessGroupNCCL environments: NCCL version: 2.27.5, TORCH_NCCL_ASYNC_ERROR_HANDLING: 0, "
		"TORCH_DISTRIBUTED_DEBUG: DETAIL\n";
	struct run r = explain_text(log, sizeof(log) - 1, NULL);
	const struct finding *f = expect(&r, "explain.hosts.env_differs");

	(void)state;
	assert_non_null(strstr(f->title, "TORCH_NCCL_ASYNC_ERROR_HANDLING"));
	assert_true(fix_has(f, "env | grep ^TORCH_"));
	assert_non_null(strstr(f->why, "torch's ProcessGroupNCCL printed"));
	/* a debug setting differing is not worth a finding */
	for (size_t i = 0; i < r.fs->n; i++)
		assert_null(strstr(r.fs->v[i]->title, "TORCH_DISTRIBUTED_DEBUG"));
	run_free(&r);
}

/*
 * torchrun's agent store against a script's own tcp:// store (pytorch/pytorch#192113): the log
 * of pytorch/pytorch#143858 (scenarios/agent_store); the same port as the agent's is fine, and
 * without ranks waiting on that port nothing is said.
 */
static void test_agent_store(void **state)
{
	static const char same[] =
		"torchrun --nproc_per_node=4 --master-port 35980 test.py\n"
		"init_method=\"tcp://localhost:35980\"\n"
		"[c10d - trace] The server socket on localhost:35980 is not yet listening (errno: 111 - "
		"Connection refused), will retry.\n";
	static const char no_wait[] =
		"torchrun --nproc_per_node=4 test.py\n"
		"dist.init_process_group(\"nccl\", init_method=\"tcp://10.0.0.1:23456\")\n";
	static const char flagged[] =
		"TORCHELASTIC_USE_AGENT_STORE=True\nMASTER_PORT=29500\n"
		"dist.init_process_group(\"nccl\", init_method='tcp://10.0.0.1:23456')\n"
		"torch.distributed.DistNetworkError: The client socket has timed out after 600000ms "
		"while trying to connect to (10.0.0.1, 23456).\n";
	struct run r = explain_dir("agent_store", NULL);
	const struct finding *f = expect(&r, "explain.launch.agent_store_port");

	(void)state;
	assert_int_equal(f->sev, SEV_ERROR);
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "init_method=\"env://\""));
	assert_true(fix_has(f, "--master-port=35980"));
	assert_ptr_equal(top_error(&r), f);
	run_free(&r);

	r = explain_text(same, sizeof(same) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.launch.agent_store_port"));
	run_free(&r);
	r = explain_text(no_wait, sizeof(no_wait) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.launch.agent_store_port"));
	run_free(&r);
	r = explain_text(flagged, sizeof(flagged) - 1, NULL);
	f = expect(&r, "explain.launch.agent_store_port");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_non_null(strstr(f->title, "on port 29500"));
	run_free(&r);
}

/* Tracebacks: the final exception of each rank; the last line each rank printed. */
static void test_traceback(void **state)
{
	static const char log[] =
		"0: \033[32mepoch 0\033[0m\n"
		"1: Traceback (most recent call last):\n"
		"0: step 1\n"
		"1:   File \"train.py\", line 10, in <module>\n"
		"1:     dist.all_reduce(t)\n"
		"1:     ^^^^^^^^^^^^^^^^^^\n"
		"1: torch.distributed.DistBackendError: NCCL error in: x.cpp:1, remote process exited or there was a network error, NCCL version 2.21.5\n"
		"1: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"
		"0: step 2\n";
	struct run r = explain_text(log, sizeof(log) - 1, NULL);

	(void)state;
	assert_string_equal(jpath_str(r.payload, "ranks.1.exception.text"),
			    "torch.distributed.DistBackendError: NCCL error in: x.cpp:1, remote process exited or there was a network error, NCCL version 2.21.5");
	assert_string_equal(jpath_str(r.payload, "ranks.1.exception.where"), "test.log:7");
	assert_string_equal(jpath_str(r.payload, "ranks.0.last_line.text"), "step 2");
	assert_string_equal(jpath_str(r.payload, "ranks.0.last_line.where"), "test.log:9");
	expect(&r, "nccl.error.remote");
	run_free(&r);
}

/* NCCL_SOCKET_IFNAME naming a missing interface: the value, and the interface that would work. */
static void test_ifname_nomatch(void **state)
{
	static const char log[] =
		"+ export MASTER_ADDR=10.0.0.1\n"
		"2: eth1    inet 10.0.0.2/24 brd 10.0.0.255 scope global eth1\\       valid_lft forever\n"
		"node1:5322:5322 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth9\n"
		"node1:5322:5322 [0] misc/socket.cc:484 NCCL WARN Bootstrap : no socket interface found\n";
	struct run r = explain_text(log, sizeof(log) - 1, NULL);
	const struct finding *f = expect(&r, "explain.net.ifname_nomatch");

	(void)state;
	assert_non_null(strstr(f->title, "eth9"));
	assert_true(fix_has(f, "NCCL_SOCKET_IFNAME=eth1"));
	run_free(&r);
}

/* Init completed on one rank only; MASTER_ADDR from torchrun's arguments; ifconfig output. */
static void test_partial_init_ifconfig(void **state)
{
	static const char log[] =
		"+ torchrun --nnodes=2 --nproc-per-node=1 --node-rank=0 --master_addr=192.168.10.1 --master_port=29500 train.py\n"
		"docker0: flags=4099<UP,BROADCAST,MULTICAST>  mtu 1500\n"
		"        inet 172.17.0.1  netmask 255.255.0.0  broadcast 172.17.255.255\n"
		"enp3s0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n"
		"        inet 192.168.10.2  netmask 255.255.255.0  broadcast 192.168.10.255\n"
		"[rank0]:n0:11:11 [0] NCCL INFO Bootstrap : Using enp3s0:192.168.10.1<0>\n"
		"[rank0]:n0:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init START\n"
		"[rank1]:n1:12:12 [0] NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>\n"
		"[rank1]:n1:12:12 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 busId 1000 - Init START\n"
		"[rank0]:n0:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n";
	struct run r = explain_text(log, sizeof(log) - 1, NULL);
	const struct finding *f;

	(void)state;
	assert_string_equal(jpath_str(r.payload, "master_addr.value"), "192.168.10.1");
	f = expect(&r, "explain.net.wrong_interface");
	assert_string_equal(f->node, "rank 1");
	assert_non_null(strstr(f->title, "docker0"));
	assert_true(fix_has(f, "NCCL_SOCKET_IFNAME=enp3s0"));
	f = expect(&r, "explain.init.partial");
	assert_string_equal(f->node, "rank 1");
	assert_int_equal(jpath_int(r.payload, "interfaces.1.prefix", -1), 24);
	run_free(&r);
}

/* Garbage, NULs and nothing recognisable: no crash, and an honest "unrecognised". */
/* The hints about the log itself, and Lightning's "registered, then nothing". */
static void test_log_hints(void **state)
{
	static const char one_rank[] =
		"node1:5322:5391 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks 4 cudaDev 0 - Init START\n"
		"node1:5322:5391 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks 4 cudaDev 0 - Init COMPLETE\n";
	static const char warn_only[] =
		"node0:4711:4711 [0] misc/socket.cc:1 NCCL WARN Bootstrap : no socket interface found\n";
	static const char registered[] =
		"Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\n"
		"----------------------------------------------------------------------------------------------------\n"
		"distributed_backend=nccl\n"
		"All distributed processes registered. Starting with 2 processes\n";
	struct run r = explain_text(one_rank, sizeof(one_rank) - 1, NULL);
	const struct finding *f = expect(&r, "explain.log.single_rank");

	(void)state;
	assert_int_equal(f->sev, SEV_INFO);
	assert_null(findings_find(r.fs, "explain.ranks.missing"));
	run_free(&r);

	r = explain_text(warn_only, sizeof(warn_only) - 1, NULL);
	f = expect(&r, "explain.log.no_nccl_debug");
	expect_setting(f, "NCCL_DEBUG", "INFO");
	expect_setting(f, "NCCL_DEBUG_SUBSYS", "INIT,NET,BOOTSTRAP");
	run_free(&r);

	r = explain_text(registered, sizeof(registered) - 1, NULL);
	f = expect(&r, "explain.lightning.nccl_hang");
	assert_int_equal(f->sev, SEV_WARN);
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(finding_evidence_contains(f, "test.log:4: All distributed processes registered"));
	assert_null(findings_find(r.fs, "explain.lightning.rendezvous_hang"));
	run_free(&r);
}

/*
 * Rank-file discovery: natural order (rank2 before rank10), one level of subdirectories (a
 * directory per node), deeper ones and dot files skipped, and an unreadable path is an error.
 */
static void test_feed_path(void **state)
{
	char dir[] = "/tmp/ncclcheck-explain-XXXXXX", path[4096];
	static const char *const files[] = {
		"rank10.log", "rank2.log", ".hidden.log", "node1/rank3.log", "node1/deep/rank4.log",
	};
	struct explain *x;
	struct findings *fs;
	json_t *payload;
	struct err e = ERR_INIT;

	(void)state;
	assert_true(explain_natcmp("rank2.log", "rank10.log") < 0);
	assert_true(explain_natcmp("rank10.log", "rank10.log") == 0);
	assert_true(explain_natcmp("node1/rank3.log", "node10") < 0);
	assert_true(explain_natcmp("a", "b") < 0);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/node1", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/node1/deep", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		FILE *f;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "hello from %s\n", files[i]);
		fclose(f);
	}
	x = explain_new(NULL);
	assert_int_equal(explain_feed_path(x, dir, &e), 0);
	fs = findings_new();
	payload = explain_finish(x, fs);
	assert_int_equal(json_array_size(json_object_get(payload, "inputs")), 3);
	assert_non_null(strstr(jpath_str(payload, "inputs.0.name"), "/node1/rank3.log"));
	assert_non_null(strstr(jpath_str(payload, "inputs.1.name"), "/rank2.log"));
	assert_non_null(strstr(jpath_str(payload, "inputs.2.name"), "/rank10.log"));
	json_decref(payload);
	findings_free(fs);
	explain_free(x);

	x = explain_new(NULL);
	snprintf(path, sizeof(path), "%s/nope.log", dir);
	assert_int_equal(explain_feed_path(x, path, &e), -1);
	assert_non_null(strstr(e.msg, "cannot read '"));
	assert_non_null(strstr(e.msg, "No such file"));
	explain_free(x);
	for (size_t i = ARRAY_SIZE(files); i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/node1/deep", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/node1", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_garbage(void **state)
{
	char buf[4096];
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)((i * 131 + 7) & 0xff);
	buf[100] = '\0';
	r = explain_text(buf, sizeof(buf), NULL);
	expect(&r, "explain.log.unrecognised");
	assert_int_equal(findings_count(r.fs, SEV_ERROR), 0);
	run_free(&r);
	r = explain_text("", 0, NULL);
	expect(&r, "explain.log.unrecognised");
	run_free(&r);
}

/* A recognised log that names no failure says what to rerun with, at low confidence; never
 * beside an error or a run that completed. */
static void test_no_cause(void **state)
{
	static const char thin[] = "NCCL version 2.19.3+cuda12.2\nAborted (core dumped)\n";
	static const char failing[] = "NCCL version 2.19.3+cuda12.2\n"
		"n1:4712:4790 [0] misc/socket.cc:611 NCCL WARN socketStartConnect: connect to 198.51.100.4<40211> "
		"failed : Network is unreachable\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(thin, sizeof(thin) - 1, NULL);
	f = expect(&r, "explain.log.no_cause");
	assert_int_equal(f->conf, CONF_LOW);
	assert_true(fix_has(f, "NCCL_DEBUG=INFO"));
	run_free(&r);

	r = explain_text(failing, sizeof(failing) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.log.no_cause"));
	run_free(&r);
}

/* nccl-tests on one node failing with a system error; across nodes stopping after the header;
 * NCCL's socket list of one bond and many docker bridges (NVIDIA/nccl#697, public log 033) */
static void test_nccltests_and_bridges(void **state)
{
	static const char one_node_system[] =
		"# Using devices\n"
		"#  Rank  0 Group  0 Pid  11 on box device  0 [0x01] NVIDIA A100-SXM4-40GB\n"
		"#  Rank  1 Group  0 Pid  11 on box device  1 [0x24] NVIDIA A100-SXM4-40GB\n"
		"box: Test NCCL failure common.cu:1005 'unhandled system error (run with NCCL_DEBUG=INFO for details)'\n";
	static const char two_node_hang[] =
		"# Using devices\n"
		"#  Rank  0 Group  0 Pid  11 on node-a device  0 [0x01] NVIDIA A100-SXM4-40GB\n"
		"#  Rank  1 Group  0 Pid  12 on node-b device  0 [0x01] NVIDIA A100-SXM4-40GB\n"
		"#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
		"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n";
	struct run r;
	const struct finding *f;
	char path[4096], *text;
	size_t len;

	(void)state;
	r = explain_text(one_node_system, sizeof(one_node_system) - 1, NULL);
	f = expect(&r, "explain.nccltests.single_node_system");
	assert_non_null(strstr(f->title, "2 GPUs on box"));
	assert_true(fix_has(f, "--ipc=host"));
	assert_null(findings_find(r.fs, "explain.hang.nccltests"));
	run_free(&r);

	r = explain_text(two_node_hang, sizeof(two_node_hang) - 1, NULL);
	f = expect(&r, "explain.hang.nccltests");
	assert_non_null(strstr(f->title, "between the nodes never completed"));
	assert_null(findings_find(r.fs, "explain.hang.p2p"));
	assert_null(findings_find(r.fs, "explain.nccltests.single_node_system"));
	run_free(&r);

	snprintf(path, sizeof(path), "%s/logs/public/033-socket-many-bridges-wrapped.log",
		 FIXTURES_DIR);
	text = slurp(path, &len);
	r = explain_text(text, len, NULL);
	f = expect(&r, "explain.net.socket_bridges");
	assert_non_null(strstr(f->title, "only bond0 reaches the other nodes"));
	expect_setting(f, "NCCL_SOCKET_IFNAME", "bond0");
	run_free(&r);
	free(text);
}

/* GPU P2P over PCIe: a pasted topology matrix read together with the failure it explains. */
static void test_p2p_topology(void **state)
{
	static const char topo_switch[] =
		"$ nvidia-smi topo -m\n"
		"\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\n"
		"GPU0\t X \tPIX\tPXB\tPXB\tSYS\t0-23\t0\n"
		"GPU1\tPIX\t X \tPXB\tPXB\tSYS\t0-23\t0\n"
		"GPU2\tPXB\tPXB\t X \tPIX\tSYS\t0-23\t0\n"
		"GPU3\tPXB\tPXB\tPIX\t X \tSYS\t0-23\t0\n";
	static const char timeout[] =
		"[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
		"WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 "
		"milliseconds before timing out.\n";
	static const char topo_nvlink[] =	/* NVLink everywhere: not a PCIe P2P problem */
		"GPU0     X      NV12    NV12    SYS     0-63    0\n"
		"GPU1    NV12     X      NV12    SYS     0-63    0\n"
		"GPU2    NV12    NV12     X      SYS     0-63    0\n";
	static const char topo_host_iommu[] =
		"GPU0     X      PHB    0-11\n"
		"GPU1    PHB      X     0-11\n"
		"[ 8123.456789] amd_iommu: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000e address=0xf4000000 flags=0x0020]\n";
	static const char net_error[] =	/* a network cause wins: P2P is not accused */
		"GPU0     X      PHB    0-11\n"
		"GPU1    PHB      X     0-11\n"
		"n1:4712:4790 [0] misc/socket.cc:598 NCCL WARN socketPollConnect: connect to 203.0.113.10<41131> "
		"returned Connection timed out, exceeded error retry count after 35 attempts\n";
	static const char geforce[] =
		"|   0  NVIDIA GeForce RTX 4090        Off | 00000000:01:00.0 Off |                  Off |\n";
	struct strbuf sb = STRBUF_INIT;
	struct run r;
	const struct finding *f;

	(void)state;
	strbuf_addf(&sb, "%s%s", topo_switch, timeout);
	r = explain_text(sb.buf, sb.len, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.pcie.acs");	/* switch paths only */
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "PCIe switch"));
	expect_setting(f, "NCCL_P2P_DISABLE", "1");
	assert_true(fix_has(f, "ACSCtl"));
	assert_false(fix_has(f, "iommu=pt"));	/* no path through the CPU: the IOMMU is not suspected */
	run_free(&r);

	r = explain_text(topo_switch, sizeof(topo_switch) - 1, NULL);	/* no failure: nothing to say */
	assert_null(find_prefix(&r, "explain.pcie."));
	run_free(&r);

	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s%s", topo_nvlink, timeout);
	r = explain_text(sb.buf, sb.len, NULL);
	assert_null(find_prefix(&r, "explain.pcie."));
	run_free(&r);

	r = explain_text(topo_host_iommu, sizeof(topo_host_iommu) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.pcie.iommu");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_true(fix_has(f, "iommu=pt"));
	run_free(&r);

	r = explain_text(net_error, sizeof(net_error) - 1, NULL);
	assert_null(find_prefix(&r, "explain.pcie."));
	run_free(&r);

	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s%s", geforce, timeout);
	r = explain_text(sb.buf, sb.len, NULL);
	f = expect(&r, "explain.pcie.p2p");	/* a board without P2P of its own: not the IOMMU */
	assert_int_equal(f->conf, CONF_HIGH);
	assert_non_null(strstr(f->title, "GeForce RTX 4090"));
	run_free(&r);
	strbuf_release(&sb);
}

/*
 * P2P with nothing that tells the mechanism: the IOMMU first; a driver branch reported to break
 * P2P outranks it, wherever the log names the driver (nvidia-smi, collect_env, prose).
 */
static void test_p2p_driver(void **state)
{
	static const char prose560[] =
		"NCCL might hang with P2P enabled (driver 560).\n"
		"NCCL_P2P_DISABLE=1 python ./myscript.py\n";
	static const char smi545[] =
		"| NVIDIA-SMI 545.23.08              Driver Version: 545.23.08    CUDA Version: 12.3     |\n"
		"training hangs after NCCL init, works with NCCL_P2P_DISABLE=1\n";
	static const char env535[] =
		"GPU 0: NVIDIA RTX A6000\nGPU 1: NVIDIA RTX A6000\n"
		"Nvidia driver version: 535.104.05\n"
		"all_reduce_perf deadlocks; it works with NCCL_P2P_DISABLE=1\n";
	static const char devquery[] =
		"  CUDA Driver Version / Runtime Version          12.2 / 12.1\n"
		"the collective hangs; it works with NCCL_P2P_DISABLE=1\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(prose560, sizeof(prose560) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.pcie.driver_p2p_bug");
	assert_non_null(strstr(f->title, "driver 560"));
	assert_true(fix_has(f, "nvidia-driver-570"));
	expect_setting(f, "NCCL_P2P_DISABLE", "1");
	run_free(&r);

	r = explain_text(smi545, sizeof(smi545) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.pcie.driver_p2p_bug");
	assert_non_null(strstr(f->title, "driver 545.23.08"));
	assert_true(fix_has(f, "nvidia-driver-535"));
	run_free(&r);

	/* a driver no report blames: the IOMMU first, with the ACS and driver checks after it */
	r = explain_text(env535, sizeof(env535) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.pcie.iommu");
	assert_non_null(strstr(f->title, "likeliest cause is the IOMMU"));
	assert_true(fix_has(f, "iommu=pt"));
	assert_true(fix_has(f, "ACSCtl"));
	assert_false(fix_has(f, "nvidia-driver-"));
	run_free(&r);

	/* deviceQuery's CUDA driver API version is not a driver branch */
	r = explain_text(devquery, sizeof(devquery) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.pcie.iommu");
	assert_null(findings_find(r.fs, "explain.pcie.driver_p2p_bug"));
	run_free(&r);
}

/*
 * IB status 5 is one finding: alone with vendor err 249 it names ACS and the firmware; after a
 * first error of another status it stays the symptom below that one.
 */
static void test_ib_flush(void **state)
{
	static const char alone[] =
		"NET/IB : Got completion from peer with error 5, opcode 0, len 5384, vendor err 249 (Send)\n";
	static const char after12[] =
		"n1:11:22 [0] transport/net_ib.cc:1695 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4242> "
		"with error 12, opcode 0, len 0, vendor err 129 (Send)\n"
		"n1:11:22 [0] transport/net_ib.cc:1695 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4242> "
		"with error 5, opcode 0, len 0, vendor err 249 (Send)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(alone, sizeof(alone) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.wr_flushed");
	assert_non_null(strstr(f->title, "vendor err 249"));
	assert_true(fix_has(f, "ACSCtl"));
	assert_true(fix_has(f, "bios-version"));
	assert_null(findings_find(r.fs, "nccl.ib.completion_error"));
	run_free(&r);

	r = explain_text(after12, sizeof(after12) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.retry_exceeded");	/* status 12 has its own row */
	assert_non_null(findings_find(r.fs, "nccl.ib.wr_flushed"));	/* below it, a symptom */
	run_free(&r);
}

/* Two ranks on one GPU: the fix speaks the launcher the log names, and only that one. */
static void test_duplicate_gpu_launcher(void **state)
{
	static const char dup[] =
		"ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
		"Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10\n";
	static const char *const launchers[][2] = {
		{ "(pid=4242) ray::WorkerDict.__init__() failed\n", "@ray.remote(num_gpus=1)" },
		{ "srun -N2 --ntasks-per-node=8 python train.py\n", "--gpus-per-task=1" },
		{ "mpirun -np 8 python train.py\n", "OMPI_COMM_WORLD_LOCAL_RANK" },
		{ "", NULL },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(launchers); i++) {
		struct run r;
		const struct finding *f;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s", launchers[i][0], dup);
		r = explain_text(sb.buf, sb.len, NULL);
		f = expect(&r, "nccl.duplicate_gpu");
		if (launchers[i][1])
			assert_true(fix_has(f, launchers[i][1]));
		assert_true(fix_has(f, "LOCAL_RANK"));
		if (!launchers[i][1]) {
			assert_false(fix_has(f, "ray"));
			assert_false(fix_has(f, "srun"));
		}
		run_free(&r);
	}
	strbuf_release(&sb);
}

/*
 * The reporter's own "NCCL 2.25.1" dates a known bug when no NCCL line does (two different ones
 * decide nothing), and a stack stuck in abort stands for the bug's watchdog symptom.
 */
static void test_prose_version_abort(void **state)
{
	static const char abort_hang[] =
		"(PyTorch nightly with NCCL 2.25.1-1: ProcessGroupNCCL.abort() never returns)\n"
		"    frame #3: 0x00007fb090db1068 libtorch_cuda.so`c10d::ProcessGroupNCCL::abort() + 664\n";
	static const char two_versions[] =
		"(works with NCCL 2.26.2, hangs with NCCL 2.25.1: ProcessGroupNCCL.abort() never returns)\n"
		"    frame #3: 0x00007fb090db1068 libtorch_cuda.so`c10d::ProcessGroupNCCL::abort() + 664\n";
	static const char fixed[] =
		"(with NCCL 2.26.5: ProcessGroupNCCL.abort() never returns)\n"
		"    frame #3: 0x00007fb090db1068 libtorch_cuda.so`c10d::ProcessGroupNCCL::abort() + 664\n";
	static const char no_abort[] =
		"(with NCCL 2.25.1 the job hangs at step 100)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(abort_hang, sizeof(abort_hang) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.known_bug.abort_hang_2251");
	assert_true(fix_has(f, "2.26.2"));
	assert_null(findings_find(r.fs, "explain.log.unrecognised"));	/* the stack was read */
	run_free(&r);

	r = explain_text(two_versions, sizeof(two_versions) - 1, NULL);	/* version_required: undecided */
	assert_null(findings_find(r.fs, "nccl.known_bug.abort_hang_2251"));
	run_free(&r);

	r = explain_text(fixed, sizeof(fixed) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.abort_hang_2251"));
	run_free(&r);

	r = explain_text(no_abort, sizeof(no_abort) - 1, NULL);	/* a hang alone is not this bug */
	assert_null(findings_find(r.fs, "nccl.known_bug.abort_hang_2251"));
	run_free(&r);
}

/*
 * A socket connect to an address of loopback or Docker's default bridge names the interface the
 * peer advertised; the same range in an IB completion's peer is the fabric's and names nothing.
 */
static void test_peer_address(void **state)
{
	static const char docker[] =
		"n1:11:22 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 172.17.0.1<45123> failed : Connection refused\n";
	static const char loop[] =
		"n1:11:22 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 127.0.1.1<45123> failed : Connection refused\n";
	static const char ib[] =
		"n1:11:22 [0] transport/net_ib.cc:881 NCCL WARN NET/IB : Got completion from peer 172.17.127.143<49577> "
		"with error 12, opcode 1, len 0, vendor err 129\n";
	static const char ll[] =
		"node1:1:2 [0] NCCL INFO Bootstrap : Using eth0:fe80::42:acff:fe11:2%eth0<0>\n"
		"node2:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n";
	static const char lan[] =
		"n1:11:22 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 10.1.2.3<45123> failed : Connection refused\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(docker, sizeof(docker) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.net.peer_address");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "docker0"));
	assert_true(fix_has(f, "NCCL_SOCKET_IFNAME"));
	run_free(&r);

	r = explain_text(loop, sizeof(loop) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.net.peer_address");
	assert_int_equal(f->conf, CONF_HIGH);
	run_free(&r);

	r = explain_text(ib, sizeof(ib) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.net.peer_address"));
	run_free(&r);

	r = explain_text(lan, sizeof(lan) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.net.peer_address"));
	run_free(&r);

	r = explain_text(ll, sizeof(ll) - 1, NULL);	/* a link-local bootstrap, two hosts */
	f = expect(&r, "explain.net.peer_address");
	assert_non_null(strstr(f->title, "link-local"));
	assert_true(fix_has(f, "NCCL_SOCKET_FAMILY=AF_INET"));
	run_free(&r);

	r = explain_text(ll, strchr(ll, '\n') - ll + 1, NULL);	/* one host only: it serves */
	assert_null(findings_find(r.fs, "explain.net.peer_address"));
	run_free(&r);
}

/*
 * One pasted file with the NCCL lines of two hosts and no ranks: a part per host, and their
 * bootstrap addresses compared (private next to public, or two RFC 1918 blocks).
 */
static void test_hosts_bootstrap(void **state)
{
	static const char diff[] =
		"nodeA:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"nodeB:200:200 [0] NCCL INFO Bootstrap : Using enp3s0:198.51.100.7<0>\n"
		"nodeA:100:150 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 198.51.100.7<43521> failed : Connection timed out\n";
	static const char blocks[] =
		"nodeA:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"nodeB:200:200 [0] NCCL INFO Bootstrap : Using eth0:192.168.1.7<0>\n";
	static const char same[] =
		"nodeA:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"nodeB:200:200 [0] NCCL INFO Bootstrap : Using ens5:10.7.3.9<0>\n"
		"nodeA:100:150 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 10.7.3.9<43521> failed : Connection timed out\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(diff, sizeof(diff) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hosts.bootstrap_differs");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "nodeA eth0 10.0.0.1"));
	assert_non_null(strstr(f->title, "nodeB enp3s0 198.51.100.7"));
	assert_string_equal(jpath_str(r.payload, "ranks.1.host"), "nodeB");	/* a part per host */
	run_free(&r);

	r = explain_text(blocks, sizeof(blocks) - 1, NULL);	/* nothing failed: a difference to rule out */
	f = expect(&r, "explain.hosts.bootstrap_differs");
	assert_int_equal(f->sev, SEV_WARN);
	assert_int_equal(f->conf, CONF_LOW);
	run_free(&r);

	r = explain_text(same, sizeof(same) - 1, NULL);	/* one private block, two subnets: routed */
	assert_null(findings_find(r.fs, "explain.hosts.bootstrap_differs"));
	run_free(&r);
}

/* NCCL on sockets where the reporter says the nodes have InfiniBand: the HCAs are not seen. */
static void test_ib_unused(void **state)
{
	static const char slow[] =
		"node1:1234:1234 [0] NCCL INFO NET/IB : No device found.\n"
		"node1:1234:1234 [0] NCCL INFO Using network Socket\n"
		"# Avg bus bandwidth    : 1.40\n"
		"(our nodes have 8x HDR InfiniBand; why is it so slow?)\n";
	static const char ethernet[] =	/* no fabric named: NCCL's line is fine */
		"node1:1234:1234 [0] NCCL INFO NET/IB : No device found.\n"
		"node1:1234:1234 [0] NCCL INFO Using network Socket\n"
		"# Avg bus bandwidth    : 1.40\n";
	static const char disabled[] =	/* the user turned IB off: said by its own row */
		"export NCCL_IB_DISABLE=1\n"
		"node1:1234:1234 [0] NCCL INFO Using network Socket\n"
		"(the nodes have InfiniBand)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(slow, sizeof(slow) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.rdma.ib_unused");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_non_null(strstr(f->title, "1.40 GB/s"));
	assert_true(fix_has(f, "--device=/dev/infiniband"));
	run_free(&r);

	r = explain_text(ethernet, sizeof(ethernet) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.ib_unused"));
	run_free(&r);

	r = explain_text(disabled, sizeof(disabled) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.ib_unused"));
	run_free(&r);
}

/*
 * Init completed on two hosts, then a hang with no error: without NCCL's connection lines the
 * data connections were never made (ports); with them, the ranks are elsewhere (low).
 */
static void test_hang_after_init(void **state)
{
	static const char base[] =
		"node1:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"node1:100:150 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - Init START\n"
		"node1:100:150 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - Init COMPLETE\n"
		"node2:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
		"node2:200:250 [0] NCCL INFO comm 0x66d0 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - Init START\n"
		"node2:200:250 [0] NCCL INFO comm 0x66d0 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - Init COMPLETE\n";
	static const char hang[] = "(then it hangs forever at the first all_reduce; no error)\n";
	static const char via[] =
		"node1:100:150 [0] NCCL INFO Channel 00/0 : 0[1b000] -> 1[1b000] [send] via NET/Socket/0\n"
		"node2:200:250 [0] NCCL INFO Channel 00/0 : 1[1b000] -> 0[1b000] [send] via NET/Socket/0\n";
	struct strbuf sb = STRBUF_INIT;
	struct run r;
	const struct finding *f;

	(void)state;
	strbuf_addf(&sb, "%s%s", base, hang);
	r = explain_text(sb.buf, sb.len, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hang.after_init");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "ip_local_port_range"));
	run_free(&r);

	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s%s%s", base, via, hang);
	r = explain_text(sb.buf, sb.len, NULL);
	f = expect(&r, "explain.hang.after_init");
	assert_int_equal(f->conf, CONF_LOW);
	assert_true(fix_has(f, "TORCH_NCCL_TRACE_BUFFER_SIZE"));
	run_free(&r);

	strbuf_reset(&sb);	/* a watchdog on collective 57: earlier ones crossed the network */
	strbuf_addf(&sb, "%s%s", base,
		    "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
		    "WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
		    "600012 milliseconds before timing out.\n");
	r = explain_text(sb.buf, sb.len, NULL);
	f = findings_find(r.fs, "explain.hang.after_init");
	assert_true(!f || f->conf == CONF_LOW);
	run_free(&r);

	r = explain_text(base, sizeof(base) - 1, NULL);	/* no hang: nothing to say */
	assert_null(findings_find(r.fs, "explain.hang.after_init"));
	run_free(&r);

	strbuf_reset(&sb);	/* the reporter's words in Chinese: "it keeps hanging after init" */
	strbuf_addf(&sb, "%s%s", base, "\xe5\x88\x9d\xe5\xa7\x8b\xe5\x8c\x96\xe4\xb9\x8b\xe5\x90\x8e"
		    "\xe4\xb8\x80\xe7\x9b\xb4\xe5\x8d\xa1\xe4\xbd\x8f\n");
	r = explain_text(sb.buf, sb.len, NULL);
	expect(&r, "explain.hang.after_init");
	run_free(&r);
	strbuf_release(&sb);
}

/* A hang with CUDA graphs and a stack in NCCL's launch path; graphs alone with no hang say nothing. */
/* torch's "CUDA error: <string>" reads the same table as NCCL's "Cuda failure N '<string>'" */
static void test_cuda_error_strings(void **state)
{
	static const struct {
		const char *log, *id, *title, *fix;
	} cases[] = {
		{ "RuntimeError: CUDA error: out of memory\n", "cuda.error", "('CUDA error: out of memory', 2)",
		  "torch.cuda.set_device" },
		{ "RuntimeError: CUDA error: CUDA driver is a stub library\n", "cuda.error", "stub library",
		  "stubs" },
		{ "RuntimeError: CUDA driver error: uncorrectable NVLink error detected during the execution\n",
		  "cuda.error", "NVLink error", "nvidia-smi nvlink -e" },
		{ "h9:1:2 [0] misc/x.cc:1 NCCL WARN Cuda failure 220 'uncorrectable NVLink error detected during the execution'\n",
		  "nccl.cuda.failure", "NVLink error hit a GPU of h9", "on h9:" },
		{ "RuntimeError: CUDA error: misaligned address\n", "cuda.error", "('misaligned address', 716)",
		  "CUDA_LAUNCH_BLOCKING=1" },
		{ "RuntimeError: CUDA error: operation not permitted when stream is capturing\n", "cuda.error",
		  "(900)", "--enforce-eager" },
		/* a string the table does not know: the generic title with the string */
		{ "RuntimeError: CUDA error: some future error\n", "cuda.error", "a CUDA call failed: some future error",
		  "CUDA_LAUNCH_BLOCKING=1" },
		/* strings with a signature of their own keep it */
		{ "RuntimeError: CUDA error: an illegal memory access was encountered\n", "cuda.illegal_access",
		  "illegal memory access", NULL },
		{ "RuntimeError: CUDA error: device-side assert triggered\n", "cuda.device_assert", NULL, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r = explain_text(cases[i].log, strlen(cases[i].log), NULL);
		const struct finding *f = top_error(&r);

		assert_non_null(f);
		assert_string_equal(f->id, cases[i].id);
		if (cases[i].title)
			assert_non_null(strstr(f->title, cases[i].title));
		if (cases[i].fix)
			assert_true(fix_has(f, cases[i].fix));
		/* no host in the log: the prose names "the failing node", never a placeholder */
		assert_null(strstr(f->title, "<node>"));
		/* a message no row knows names what failed, not why: low confidence, the table's medium */
		if (!strcmp(f->id, "cuda.error"))
			assert_int_equal(f->conf, strstr(f->title, "some future error") ? CONF_LOW : CONF_MEDIUM);
		run_free(&r);
	}
}

/* torchrun's own lines about signals and stopped workers follow a failure; they name it only alone */
static void test_torchrun_signals(void **state)
{
	static const char term[] =
		"torch.distributed.elastic.multiprocessing.api: [WARNING] Received Signals.SIGTERM death signal, shutting down workers\n";
	static const char hup[] =
		"WARNING:torch.distributed.elastic.agent.server.api:Received Signals.SIGHUP death signal, shutting down workers\n";
	static const char after_oom[] =
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
		"torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 1235 closing signal SIGTERM\n"
		"torch.distributed.elastic.multiprocessing.api: [WARNING] Received Signals.SIGTERM death signal, shutting down workers\n";
	static const char barrier[] = "RuntimeError: [Rank 0]: Ranks 3, 7 failed to pass monitoredBarrier in 30000 ms\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(term, sizeof(term) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "torch.elastic.death_signal");
	assert_non_null(strstr(f->title, "SIGTERM"));
	assert_true(fix_has(f, "sacct"));
	run_free(&r);

	r = explain_text(hup, sizeof(hup) - 1, NULL);
	assert_string_equal(top_error(&r)->id, "torch.elastic.sighup");
	assert_null(findings_find(r.fs, "torch.elastic.death_signal"));
	run_free(&r);

	r = explain_text(after_oom, sizeof(after_oom) - 1, NULL);
	assert_string_equal(top_error(&r)->id, "cuda.oom");
	run_free(&r);

	/* the reporter's words only: a hang on two nodes is first tested with cluster */
	static const char prose[] = "Training works on one node but hangs when I use two nodes, no error at all.\n";
	r = explain_text(prose, sizeof(prose) - 1, NULL);
	f = expect(&r, "explain.log.unrecognised");
	assert_true(fix_has(f, "ncclcheck cluster"));
	run_free(&r);

	r = explain_text(barrier, sizeof(barrier) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "torch.barrier.monitored_missing");
	assert_non_null(strstr(f->title, "rank(s) 3, 7 never reached"));
	run_free(&r);
}

/* NCCL WARN lines of 2.4-2.30 that had no row (a scan of every WARN string of seven releases) */
static void test_nccl_warn_scan(void **state)
{
	static const struct {
		const char *line, *id, *title;
	} cases[] = {
		{ "MNNVL (cliqueSize 4) is available but not supported on this system. Check the IMEX configuration.",
		  "nccl.mnnvl.imex", "IMEX" },
		{ "NET/IB : mlx5_0:1 Got async error event: port error", "nccl.ib.async_event", "went down" },
		{ "NET/IB : mlx5_0:1 Got async error event: SM change", "nccl.ib.async_event_nonfatal", "subnet manager" },
		{ "NET/IB : Attempted to merge incompatible devices: [0]mlx5_0:1/IB and [1]mlx5_2:1/RoCE. Try selecting NICs of only one link type using NCCL_IB_HCA",
		  "nccl.ib.incompatible_devices", "different link types" },
		{ "socketPollConnect to 10.0.0.2<43215> failed with error Connection refused", "nccl.connect.refused",
		  "10.0.0.2<43215>" },
		{ "Error : no algorithm/protocol available for function AllReduce with datatype ncclFloat32. NCCL_ALGO was set to NVLS.",
		  "nccl.env.algo_unavailable", "exclude every one" },
		/* without NCCL_ALGO/NCCL_PROTO the same words are NCCL's own failure, not the user's setting */
		{ "Error : no algorithm/protocol available for function AllReduce with datatype ncclBfloat16.",
		  "nccl.env.algo_unavailable", "found no algorithm" },
		{ "NCCL version mismatch with remote peer 10.0.0.2<43215> (local: 2.30.7, remote 2.28.9)",
		  "nccl.version.peer_mismatch", "different NCCL versions" },
		{ "Your program may be hanging, this may be caused by a collective mismatch around rank 3. Please check your collective calls at and around this rank.",
		  "nccl.collective.suspected_mismatch", "around rank 3:" },
		{ "RAS keep-alive timeout error (60s) on socket connection with 10.0.0.7<36223>", "nccl.ras.peer_lost",
		  "lost contact with 10.0.0.7:" },
		/* 2.23+'s fatal form names its event after "async fatal event: " */
		{ "NET/IB : mlx5_0:1 async fatal event: QP access violation", "nccl.ib.async_event",
		  "reported 'QP access violation'" },
		{ "Could not find real path of /sys/class/pci_bus/0000:00/../../0000:00:05.0", "nccl.topo.sysfs",
		  "(/sys/class/pci_bus/0000:00/../../0000:00:05.0)" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *log = xasprintf("n1:1:2 [0] x.cc:1 NCCL WARN %s\n", cases[i].line);
		struct run r = explain_text(log, strlen(log), NULL);
		const struct finding *f = top_error(&r);

		if (!f || strcmp(f->id, cases[i].id))
			fail_msg("case %zu: want %s, got %s", i, cases[i].id, f ? f->id : "nothing");
		assert_non_null(strstr(f->title, cases[i].title));
		run_free(&r);
		free(log);
	}
	/* Huawei Ascend's HCCL (vllm-ascend#1955, #486): a log from an NPU node is read, not "unrecognised" */
	static const char hccl[] =
		"[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [2717288][HcclSocket][Listen] socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail. Please check the port status and whether the port is been using by other process.\n"
		"[rank1]: EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.\n";
	struct run rh = explain_text(hccl, sizeof(hccl) - 1, NULL);
	const struct finding *h = expect(&rh, "hccl.listen_failed");

	assert_non_null(strstr(h->title, "port 16666"));
	assert_true(fix_has(h, "sport = :16666"));
	h = expect(&rh, "hccl.connect_timeout");
	assert_true(fix_has(h, "HCCL_CONNECT_TIMEOUT=1200"));
	run_free(&rh);

	/* INFO lines that are warnings: a rail mismatch and P2P off for a PCIe pair are never the error */
	static const char info[] =
		"n1:1:2 [0] NCCL INFO NET/IB : There are mismatched physical devices between local (0,1) and remote (2,3). To disable this warning, set NCCL_IB_WARN_RAIL_LOCAL=0\n"
		"n1:1:2 [0] NCCL INFO P2P is disabled between connected GPUs 0 and 1. You can repress this message with NCCL_IGNORE_DISABLED_P2P=1.\n";
	struct run r = explain_text(info, sizeof(info) - 1, NULL);
	const struct finding *f = expect(&r, "nccl.ib.rail_mismatch");

	assert_int_equal(f->sev, SEV_WARN);
	assert_non_null(strstr(f->title, "local (0,1) and remote (2,3)"));
	f = expect(&r, "nccl.p2p.nvml_disabled");
	assert_int_equal(f->sev, SEV_WARN);
	for (size_t i = 0; i < r.fs->n; i++)
		assert_int_not_equal(r.fs->v[i]->sev, SEV_ERROR);
	run_free(&r);
}

/* A torch release named in the log stands for the NCCL its wheels ship, and is compared with one named */
static void test_torch_release_nccl(void **state)
{
	static const char older[] =
		"PyTorch version: 2.3.1+cu121\n"
		"h1:5:9 [0] NCCL INFO NCCL version 2.12.10+cuda12.1\n"
		"h1:5:9 [0] enqueue.cc:336 NCCL WARN Cuda failure 'some future error'\n";
	static const char same[] =
		"torch==2.6.0\n"
		"h1:5:9 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:9 [0] enqueue.cc:336 NCCL WARN Cuda failure 'some future error'\n";
	static const char reset[] =
		"PyTorch version: 2.3.1+cu121\n"
		"h1:5:9 [0] NCCL INFO NCCL version 2.12.10+cuda12.1\n"
		"h1:5:9 [0] misc/socket.cc:59 NCCL WARN socketProgressOpt: Call to recv from 10.0.0.2<48812> failed : Connection reset by peer\n";
	static const char kb[] =	/* launch_blocking_hang: 2.13 to 2.17.0; torch 2.0.1+cu117 ships 2.14.3 */
		"PyTorch version: 2.0.1+cu117\n"
		"export CUDA_LAUNCH_BLOCKING=1\n"
		"[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800512 milliseconds before timing out.\n";
	static const char two[] =	/* two releases named: none is assumed */
		"torch==2.0.1\ntorch==2.6.0\nexport CUDA_LAUNCH_BLOCKING=1\n"
		"[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800512 milliseconds before timing out.\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(older, sizeof(older) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.torch.nccl_older");
	assert_non_null(strstr(f->title, "torch 2.3.1 runs NCCL 2.12.10+cuda12.1, older than the 2.20.5"));
	assert_true(fix_has(f, "nvidia-nccl-cu12==2.20.5"));
	run_free(&r);

	r = explain_text(same, sizeof(same) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.torch.nccl_older"));
	run_free(&r);

	/* a reset socket is the network's whatever NCCL runs: the old NCCL is a warning there */
	r = explain_text(reset, sizeof(reset) - 1, NULL);
	f = expect(&r, "explain.torch.nccl_older");
	assert_int_equal(f->sev, SEV_WARN);
	assert_string_not_equal(top_error(&r)->id, "explain.torch.nccl_older");
	run_free(&r);

	r = explain_text(kb, sizeof(kb) - 1, NULL);
	f = expect(&r, "nccl.known_bug.launch_blocking_hang");
	assert_int_equal(f->conf, CONF_MEDIUM);	/* inferred from torch's release: never high */
	assert_true(fix_has(f, "the log names torch's release, not its NCCL"));
	run_free(&r);

	r = explain_text(two, sizeof(two) - 1, NULL);
	f = findings_find(r.fs, "nccl.known_bug.launch_blocking_hang");
	if (f)	/* without a version the row may still show, but never as the affected 2.14.3 */
		assert_false(fix_has(f, "the log names torch's release"));
	run_free(&r);
}

static void test_cudagraph_hang(void **state)
{
	static const char spin[] =
		"(vLLM with TP=8 and default CUDA graphs: the shards hang, py-spy shows)\n"
		"    sched_yield (libc.so.6)\n"
		"    ncclLaunchKernelBefore_NoUncapturedCuda (enqueue.cc:968)\n"
		"    doLaunches (group.cc:161)\n";
	static const char no_hang[] = "(vLLM with TP=8 and default CUDA graphs serves fine)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(spin, sizeof(spin) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hang.cudagraph");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "NCCL_GRAPH_MIXING_SUPPORT=0"));
	run_free(&r);

	r = explain_text(no_hang, sizeof(no_hang) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.cudagraph"));
	run_free(&r);
}

/* One signature, three meanings: ibv_modify_qp's errno picks the cause and the fix. */
static void test_sig_variants(void **state)
{
	static const struct {
		const char *line, *title, *fix, *not_fix;
	} cases[] = {
		{ "n1:4712:4790 [1] misc/ibvwrap.cc:376 NCCL WARN Call to ibv_modify_qp failed with 110 Connection "
		  "timed out, on dev mlx5_3:1, curr state RTR, next state RTS, local GID index 3\n",
		  "timed out", "NCCL_CROSS_NIC=0", "unset NCCL_IB_GID_INDEX" },
		{ "n1:4712:4790 [1] misc/ibvwrap.cc:376 NCCL WARN Call to ibv_modify_qp failed with 22 Invalid "
		  "argument, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 5\n",
		  "GID index", "unset NCCL_IB_GID_INDEX", "NCCL_CROSS_NIC" },
		{ "n1:4712:4790 [0] misc/ibvwrap.cc:334 NCCL WARN Call to ibv_modify_qp failed with error No such "
		  "device errno 19\n", "No such device", "2.26.2", "NCCL_CROSS_NIC" },
		{ "n1:4712:4790 [0] misc/ibvwrap.cc:334 NCCL WARN Call to ibv_modify_qp failed with error Operation "
		  "not permitted\n", "could not bring up", "show_gids", "NCCL_CROSS_NIC" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r = explain_text(cases[i].line, strlen(cases[i].line), NULL);
		const struct finding *f = expect(&r, "nccl.ib.modify_qp");

		assert_non_null(strstr(f->title, cases[i].title));
		assert_true(fix_has(f, cases[i].fix));
		assert_false(fix_has(f, cases[i].not_fix));
		run_free(&r);
	}
}

/* How nccl-tests was started: -g N per process against the node's GPUs, and a non-MPI build. */
/* Shared memory in a container: NCCL's own bus error, and ENOSPC under a docker run without --shm-size. */
static void test_shm_container(void **state)
{
	static const char sigbus[] =
		"[8d6bf97c3bf4:3039 :0:3095] Caught signal 7 (Bus error: nonexistent physical address)\n"
		"==== backtrace (tid:   3095) ====\n"
		" 2 0x000000000007587d ncclGroupEnd()  ???:0\n"
		" 5 0x00000000000489b1 ncclCommInitRank()  /usr/lib/x86_64-linux-gnu/libnccl.so.2:0\n"
		"(running in Docker)\n";
	static const char loader[] =	/* a bus error without NCCL's frames: the DataLoader's row */
		"ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
		"RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error.\n";
	static const char nospc[] =
		"OSError: [Errno 28] No space left on device\n"
		"docker run -it --name m -v /data:/data --gpus all nvcr.io/nvidia/pytorch:23.09-py3\n";
	static const char sized[] =	/* the container's /dev/shm was sized: a disk, not shm */
		"OSError: [Errno 28] No space left on device\n"
		"docker run -it --shm-size=64g --gpus all nvcr.io/nvidia/pytorch:23.09-py3\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(sigbus, sizeof(sigbus) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.shm.sigbus");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_true(fix_has(f, "--shm-size=16g"));
	run_free(&r);

	r = explain_text(loader, sizeof(loader) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.shm.sigbus"));
	run_free(&r);

	r = explain_text(nospc, sizeof(nospc) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.shm.container_full");
	assert_int_equal(f->conf, CONF_HIGH);
	run_free(&r);

	r = explain_text(sized, sizeof(sized) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.shm.container_full"));
	run_free(&r);
}

/* NVIDIA/nccl#1612: a scan's short connection ends the bootstrap before 2.27.3; a peer that closed
 * in bootstrap without a scan named stays the generic row, and 2.27.3 is not affected. */
static void test_known_bug_boot_scan(void **state)
{
	static const char scan[] =
		"(bootstrap fails while the security team's nmap -sT runs over our port range)\n"
		"h1:5:6 [0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>\n"
		"h1:5:6 [0] NCCL INFO misc/socket.cc:731 -> 6\n"
		"h1:5:6 [0] NCCL INFO bootstrap.cc:701 -> 6\n";
	static const char died[] =
		"h1:5:6 [0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>\n"
		"h1:5:6 [0] NCCL INFO bootstrap.cc:701 -> 6\n";
	static const char fixed[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.27.3+cuda12.8\n"
		"(bootstrap fails while nmap runs)\n"
		"h1:5:6 [0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>\n"
		"h1:5:6 [0] NCCL INFO bootstrap.cc:701 -> 6\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(scan, sizeof(scan) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.known_bug.bootstrap_short_connect");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "2.27.3"));
	run_free(&r);

	r = explain_text(died, sizeof(died) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.bootstrap_short_connect"));
	expect(&r, "nccl.socket.closed_by_peer");
	run_free(&r);

	r = explain_text(fixed, sizeof(fixed) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.bootstrap_short_connect"));
	run_free(&r);
}

/* Kubernetes pods that reach the store and then stall with no error: a mesh sidecar is the
 * suspect, medium when the log names it; an error of its own is not this. */
static void test_k8s_sidecar(void **state)
{
	static const char stall[] =
		"(Kubeflow PyTorchJob with istio injection on; init_process_group never returns)\n"
		"[I socket.cpp:725] [c10d] The client socket has connected to [10-1-0-200.job-master-0.kubeflow.svc.cluster.local]:23456 on [job-worker-0]:38244.\n";
	static const char refused[] =
		"(Kubeflow PyTorchJob; init_process_group never returns)\n"
		"[I socket.cpp:725] [c10d] The client socket has connected to [10-1-0-200.job-master-0.kubeflow.svc.cluster.local]:23456 on [job-worker-0]:38244.\n"
		"h:1:2 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: connect to 10.1.0.201<40000> returned Connection refused, exceeded error retry count after 35 attempts\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(stall, sizeof(stall) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.k8s.sidecar");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "sidecar.istio.io/inject"));
	run_free(&r);

	r = explain_text(refused, sizeof(refused) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.k8s.sidecar"));
	run_free(&r);
}

/* A topology XML that lacks an attribute: NCCL's bug before 2.8, a file that does not fit after. */
static void test_topo_attribute(void **state)
{
	static const char old[] =
		"graph/xml.h:77 NCCL WARN Attribute arch of node cpu not found\n"
		"NCCL INFO graph/topo.cc:380 -> 3\n";
	static const char now[] =
		"h:1:2 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n"
		"h:1:2 [1] graph/xml.h:101 NCCL WARN Attribute arch of node cpu not found\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(old, sizeof(old) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.known_bug.topo_file_cpu_attr");
	assert_int_equal(f->conf, CONF_MEDIUM);	/* the version is not in the log */
	run_free(&r);

	r = explain_text(now, sizeof(now) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.topo.xml_attribute");
	assert_non_null(strstr(f->title, "(arch of node cpu not found)"));
	assert_true(fix_has(f, "unset NCCL_TOPO_FILE"));
	run_free(&r);
}

/* nccl-tests' wrong results that nothing else explains: the reruns that find the path. */
static void test_wrong_results(void **state)
{
	static const char oob[] =
		"mpirun -x NCCL_IB_CUDA_SUPPORT=1 -np 2 -host a,b ./build/all_reduce_perf -b 9 -e 32M -g 8 -c 1\n"
		"Out of bounds values : 248 FAILED\n";
	static const char forced[] =
		"mpirun -x NCCL_PROTO=LL128 -np 2 ./build/all_reduce_perf -g 1\n"
		"Out of bounds values : 12 FAILED\n";
#define ONE_HOST_RUN \
		"#  Rank  0 Group  0 Pid  12345 on      ws1 device  0 [0x01] NVIDIA GeForce RTX 4090\n" \
		"#  Rank  1 Group  0 Pid  12345 on      ws1 device  1 [0x21] NVIDIA GeForce RTX 4090\n" \
		"#       size         count      type   redop    root     time   algbw   busbw #wrong\n" \
		"     1048576        262144     float     sum      -1    120.2    8.72    8.72      2\n" \
		"# Out of bounds values : 4 FAILED\n" \
		"# Avg bus bandwidth    : 4.3\n"
	static const char one_host[] = "./build/all_reduce_perf -b 8 -e 1M -g 2\n" ONE_HOST_RUN;
	static const char one_host_p2p_off[] =
		"NCCL_P2P_DISABLE=1 ./build/all_reduce_perf -b 8 -e 1M -g 2\n" ONE_HOST_RUN;
#undef ONE_HOST_RUN
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(oob, sizeof(oob) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "bench.result.wrong");
	assert_non_null(strstr(f->title, "248 values out of bounds"));
	assert_non_null(strstr(f->title, "NCCL_IB_CUDA_SUPPORT set"));
	assert_true(fix_has(f, "NCCL_NET_GDR_LEVEL=LOC"));
	run_free(&r);

	r = explain_text(forced, sizeof(forced) - 1, NULL);
	assert_null(findings_find(r.fs, "bench.result.wrong"));	/* the forced protocol says why */
	expect(&r, "nccl.env.proto_forced");
	run_free(&r);

	/* one host, no network: GPU to GPU corrupted it, and GDR is not among the reruns */
	r = explain_text(one_host, sizeof(one_host) - 1, NULL);
	f = top_error(&r);
	assert_non_null(f);
	assert_string_equal(f->id, "explain.pcie.p2p");
	assert_int_equal(f->conf, CONF_HIGH);	/* a GeForce board without P2P of its own */
	assert_non_null(strstr(f->title, "results come back wrong"));
	assert_true(fix_has(f, "NCCL_P2P_DISABLE=1"));
	assert_null(findings_find(r.fs, "bench.result.wrong"));	/* one cause, one finding */
	run_free(&r);

	/* P2P already off there: the generic reruns again, not P2P */
	r = explain_text(one_host_p2p_off, sizeof(one_host_p2p_off) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "bench.result.wrong");
	run_free(&r);
}

/*
 * A known NCCL bug that names the cause silences the three generic suspects of wrong results: the
 * one-host P2P verdict, nccl-tests' generic reruns and GPUDirect RDMA in the reporter's words. Each
 * log is paired with the same log on the fixed release, where the generic finding is back.
 */
static void test_known_bug_silences_generic(void **state)
{
#define ONE_HOST_ROWS \
		"#  Rank  0 Group  0 Pid  12345 on      ws1 device  0 [0x01] NVIDIA H100 PCIe\n" \
		"#  Rank  1 Group  0 Pid  12345 on      ws1 device  1 [0x21] NVIDIA H100 PCIe\n"
#define SYMK "buffers registered with ncclCommWindowRegister(comm, buf, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n" \
		"# Out of bounds values : 4 FAILED\n"
#define QPS "h1:5:5 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 4.\n" \
		"#  Out of bounds values : 12 FAILED\n"
#define GDR_NAN "h1:5:5 [0] NCCL INFO NCCL_COMM_SPLIT_SHARE_RESOURCES set by environment to 1.\n" \
		"(the allreduce across our two nodes returns NaN, then the job hangs)\n" \
		"nodeA:4101:4101 [0] INFO 0 -> 4 via NET/IB/0/GDRDMA\n" \
		"nodeB:5202:5202 [0] INFO 4 -> 0 via NET/IB/0/GDRDMA\n"
	static const struct {
		const char *affected, *fixed, *bug, *generic;
	} cases[] = {
		{ ONE_HOST_ROWS "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n" SYMK,
		  /* past the copy-engine race (2.30.3) and the RMA sub-window bug (2.31.2) too */
		  ONE_HOST_ROWS "h1:5:5 [0] NCCL INFO NCCL version 2.31.2+cuda12.9\n" SYMK,
		  "nccl.known_bug.symk_corruption_2287", "explain.pcie." },
		{ "h1:5:5 [0] NCCL INFO NCCL version 2.11.4+cuda11.4\n" QPS,
		  "h1:5:5 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n" QPS,	/* past the LL128 bugs too */
		  "nccl.known_bug.multi_qp_split_21210", "bench.result.wrong" },
		{ "h1:5:5 [0] NCCL INFO NCCL version 2.25.1+cuda12.4\n" GDR_NAN,
		  "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.4\n" GDR_NAN,
		  "nccl.known_bug.split_share_hang_2262", "explain.rdma.gdr_wrong_results" },
	};
#undef ONE_HOST_ROWS
#undef SYMK
#undef QPS
#undef GDR_NAN

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run r = explain_text(cases[i].affected, strlen(cases[i].affected), NULL);

		expect(&r, cases[i].bug);
		if (find_prefix(&r, cases[i].generic))
			fail_msg("%s beside %s", find_prefix(&r, cases[i].generic)->id, cases[i].bug);
		run_free(&r);
		r = explain_text(cases[i].fixed, strlen(cases[i].fixed), NULL);
		assert_null(findings_find(r.fs, cases[i].bug));
		if (!find_prefix(&r, cases[i].generic))
			fail_msg("no %s on the fixed release (case %zu)", cases[i].generic, i);
		run_free(&r);
	}
}

/*
 * nccl-tests' device table is not the whole job when the paste kept one host's rows: anything else
 * that shows the run spanned hosts takes the one-host P2P verdict away, and the generic reruns
 * (GPUDirect RDMA first) come instead. A genuine one-host paste keeps it.
 */
static void test_wrong_results_spanning_hosts(void **state)
{
#define ROWS_A \
	"#  Rank  0 Group  0 Pid  4711 on      gpu-a device  0 [0x18] NVIDIA A100-SXM4-80GB\n" \
	"#  Rank  1 Group  0 Pid  4711 on      gpu-a device  1 [0x2a] NVIDIA A100-SXM4-80GB\n" \
	"#  Rank  2 Group  0 Pid  4711 on      gpu-a device  2 [0x3a] NVIDIA A100-SXM4-80GB\n" \
	"#  Rank  3 Group  0 Pid  4711 on      gpu-a device  3 [0x5d] NVIDIA A100-SXM4-80GB\n"
#define INIT_A \
	"gpu-a:4711:4711 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n" \
	"gpu-a:4711:4711 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
#define RESULT \
	"#       size         count      type   redop    root     time   algbw   busbw #wrong\n" \
	"     1048576        262144     float     sum      -1    120.2    8.72    8.72      2\n" \
	"# Out of bounds values : 4 FAILED\n" \
	"# Avg bus bandwidth    : 4.3\n"
	static const char *const one_host[] = {
		"./build/all_reduce_perf -b 8 -e 1M -g 4\n" INIT_A ROWS_A RESULT,
		"mpirun -np 4 -H gpu-a:4 ./build/all_reduce_perf -b 8 -e 1M -g 1\n" INIT_A ROWS_A RESULT,
		("gpu-a:4711:4711 [0] NCCL INFO comm 0x55d0 rank 0 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE\n"
		 INIT_A ROWS_A RESULT),
	};
	static const char *const spanning[] = {
		/* a connection over the network */
		(INIT_A "gpu-a:4711:4711 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0\n"
		 ROWS_A RESULT),
		/* NCCL counts more ranks than the rows */
		("gpu-a:4711:4711 [0] NCCL INFO comm 0x55d0 rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE\n"
		 INIT_A ROWS_A RESULT),
		/* mpirun: two processes of 4 GPUs, two hosts */
		"mpirun -np 2 -H gpu-a,gpu-b ./build/all_reduce_perf -b 8 -e 1M -g 4\n" INIT_A ROWS_A RESULT,
		/* NCCL lines of another host */
		INIT_A "gpu-b:5202:5202 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n" ROWS_A RESULT,
		/* the second host's rows only: ranks 4-7 */
		("#  Rank  4 Group  0 Pid  5202 on      gpu-b device  0 [0x18] NVIDIA A100-SXM4-80GB\n"
		 "#  Rank  5 Group  0 Pid  5202 on      gpu-b device  1 [0x2a] NVIDIA A100-SXM4-80GB\n" RESULT),
		"(all_reduce_perf across two nodes, the output of the first)\n" ROWS_A RESULT,
	};
#undef ROWS_A
#undef INIT_A
#undef RESULT
	struct run r;
	const struct finding *f;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(one_host); i++) {
		r = explain_text(one_host[i], strlen(one_host[i]), NULL);
		f = top_error(&r);
		if (!f || strncmp(f->id, "explain.pcie.", 13))
			fail_msg("one host %zu: %s first, not explain.pcie.*", i, f ? f->id : "nothing");
		assert_null(findings_find(r.fs, "bench.result.wrong"));
		run_free(&r);
	}
	for (size_t i = 0; i < ARRAY_SIZE(spanning); i++) {
		r = explain_text(spanning[i], strlen(spanning[i]), NULL);
		if (find_prefix(&r, "explain.pcie."))
			fail_msg("spanning %zu: %s", i, find_prefix(&r, "explain.pcie.")->id);
		f = expect(&r, "bench.result.wrong");
		assert_true(fix_has(f, "NCCL_NET_GDR_LEVEL=LOC"));
		run_free(&r);
	}
}

/* nccl-tests' header and then nothing: one host's rows of a run the paste shows spanning hosts
 * is a hang between the nodes, not P2P between one host's GPUs. */
static void test_nccltests_hang_spanning_hosts(void **state)
{
#define ROWS_A \
	"#  Rank  0 Group  0 Pid  4711 on      gpu-a device  0 [0x18] NVIDIA A100-SXM4-80GB\n" \
	"#  Rank  1 Group  0 Pid  4711 on      gpu-a device  1 [0x2a] NVIDIA A100-SXM4-80GB\n" \
	"#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
	static const char one_host[] = "./build/all_reduce_perf -b 8 -e 1M -g 2\n" ROWS_A;
	static const char *const spanning[] = {
		"gpu-a:4711:4711 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0\n" ROWS_A,
		"mpirun -np 2 -H gpu-a,gpu-b ./build/all_reduce_perf -b 8 -e 1M -g 2\n" ROWS_A,
	};
#undef ROWS_A
	struct run r;

	(void)state;
	r = explain_text(one_host, sizeof(one_host) - 1, NULL);
	assert_string_equal(top_error(&r)->id, "explain.hang.p2p");
	run_free(&r);
	for (size_t i = 0; i < ARRAY_SIZE(spanning); i++) {
		r = explain_text(spanning[i], strlen(spanning[i]), NULL);
		assert_string_equal(top_error(&r)->id, "explain.hang.nccltests");
		assert_null(find_prefix(&r, "explain.pcie."));
		run_free(&r);
	}
}

/* One host's device rows with something saying the job spanned hosts: the /dev/shm, NVLS and
 * container-interface verdicts read 'one node' from spans_hosts(), not from the table alone. */
static void test_one_host_rules_spanning_hosts(void **state)
{
#define SHM_ROWS \
	"# Using devices\n" \
	"#  Rank  0 Group  0 Pid  11 on box device  0 [0x01] NVIDIA A100-SXM4-40GB\n" \
	"#  Rank  1 Group  0 Pid  11 on box device  1 [0x24] NVIDIA A100-SXM4-40GB\n" \
	"box: Test NCCL failure common.cu:1005 'unhandled system error (run with NCCL_DEBUG=INFO for details)'\n"
#define NVLS_ROWS \
	"h:1:1 [0] NCCL INFO NCCL version 2.26.5+cuda12.4\n" \
	"$ NCCL_P2P_DISABLE=1 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4\n" \
	"#  Rank  0 Group  0 Pid 2081556 on   deepseek device  0 [0000:0f:00] NVIDIA H800\n" \
	"#  Rank  1 Group  0 Pid 2081556 on   deepseek device  1 [0000:34:00] NVIDIA H800\n" \
	"(the test stays stuck after init)\n"
#define VETH_ROWS \
	"#  Rank  0 Group  0 Pid  11 on box device  0 [0x01] NVIDIA A100-SXM4-40GB\n" \
	"#  Rank  1 Group  0 Pid  11 on box device  1 [0x24] NVIDIA A100-SXM4-40GB\n" \
	"A veth* interface exists on the host. ncclCommInitRank() hangs.\n"
	static const char shm_one[] = SHM_ROWS;
	static const char shm_net[] =
		"box:11:11 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/Socket/0\n" SHM_ROWS;
	static const char nvls_one[] = NVLS_ROWS;
	static const char nvls_net[] =
		"h:1:1 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0\n" NVLS_ROWS;
	static const char nvls_ranks[] =	/* nranks 16 from a table of two rows */
		"h:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 16 cudaDev 0 busId 1000 - Init COMPLETE\n" NVLS_ROWS;
	static const char veth_one[] = VETH_ROWS;
	static const char veth_hosts[] = "mpirun -np 2 -H box,box2 ./build/all_reduce_perf -g 2\n" VETH_ROWS;
#undef SHM_ROWS
#undef NVLS_ROWS
#undef VETH_ROWS
	struct run r;

	(void)state;
	r = explain_text(shm_one, sizeof(shm_one) - 1, NULL);
	expect(&r, "explain.nccltests.single_node_system");
	run_free(&r);
	r = explain_text(shm_net, sizeof(shm_net) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.nccltests.single_node_system"));
	run_free(&r);

	r = explain_text(nvls_one, sizeof(nvls_one) - 1, NULL);
	expect(&r, "explain.hang.nvls");
	run_free(&r);
	r = explain_text(nvls_net, sizeof(nvls_net) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.nvls"));
	run_free(&r);
	r = explain_text(nvls_ranks, sizeof(nvls_ranks) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.nvls"));
	run_free(&r);

	/* here one node silenced the verdict: the spanning paste must get it */
	r = explain_text(veth_one, sizeof(veth_one) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.net.virtual_iface"));
	run_free(&r);
	r = explain_text(veth_hosts, sizeof(veth_hosts) - 1, NULL);
	expect(&r, "explain.net.virtual_iface");
	run_free(&r);
}

/* A PCIe topology matrix and a timeout with one host's device rows: P2P is one node's suspect
 * only while nothing says the job spanned hosts. */
static void test_p2p_topology_spanning_hosts(void **state)
{
#define TOPO_ROWS \
	"#  Rank  0 Group  0 Pid  11 on box device  0 [0x01] NVIDIA A100-PCIE-40GB\n" \
	"#  Rank  1 Group  0 Pid  11 on box device  1 [0x24] NVIDIA A100-PCIE-40GB\n" \
	"$ nvidia-smi topo -m\n" \
	"\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\n" \
	"GPU0\t X \tPXB\tSYS\t0-23\t0\n" \
	"GPU1\tPXB\t X \tSYS\t0-23\t0\n" \
	"[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: " \
	"WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 " \
	"milliseconds before timing out.\n"
	static const char one_host[] = TOPO_ROWS;
	static const char *const spanning[] = {
		"box:11:11 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0\n" TOPO_ROWS,
		"box:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 8 cudaDev 0 busId 1000 - Init COMPLETE\n" TOPO_ROWS,
	};
#undef TOPO_ROWS
	struct run r;

	(void)state;
	r = explain_text(one_host, sizeof(one_host) - 1, NULL);
	assert_non_null(find_prefix(&r, "explain.pcie."));
	run_free(&r);
	for (size_t i = 0; i < ARRAY_SIZE(spanning); i++) {
		r = explain_text(spanning[i], strlen(spanning[i]), NULL);
		assert_null(find_prefix(&r, "explain.pcie."));
		run_free(&r);
	}
}

/* A GPU model the log names gives the architecture the build lacks; a longer name is not it. */
static void test_gpu_arch(void **state)
{
	static const char k40[] =
		"(one node with 4x Tesla K40m, DDP with mp.spawn)\n"
		"[0] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device function'\n";
	static const char a3000[] =
		"(a laptop RTX A3000)\n"
		"[0] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device function'\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(k40, sizeof(k40) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.cuda.failure");
	assert_true(fix_has(f, "must include sm_35 (K40)"));
	run_free(&r);

	r = explain_text(a3000, sizeof(a3000) - 1, NULL);
	f = top_error(&r);
	assert_true(fix_has(f, "must include this GPU's architecture"));
	run_free(&r);
}

/* An IB queue pair that fails after bootstrap got through is the HCA's, not the socket interface's. */
static void test_ib_error_not_interface(void **state)
{
	static const char log[] =
		"host-a:76786:76786 [0] NCCL INFO Bootstrap : Using [0]eth1:9.73.133.81<0>\n"
		"host-a:76786:76786 [0] NCCL INFO NET/IB : Using [0]mlx5_3:1/RoCE ; OOB eth1:9.73.133.81<0>\n"
		"host-a:76786:76786 [0] NCCL INFO Using network IB\n"
		"host-a:76786:77145 [3] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device\n"
		"host-a:76786:77145 [3] NCCL INFO transport/net_ib.cc:395 -> 2\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(log, sizeof(log) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.ib.modify_qp");
	assert_null(findings_find(r.fs, "explain.net.wrong_interface"));
	run_free(&r);
}

/* Containers on several hosts and nothing but a system error: host networking; one host: not. */
static void test_container_hosts(void **state)
{
	static const char two[] =
		"(trained on two machines, each inside a Docker container; the second machine errors)\n"
		"RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:518, unhandled system error, NCCL version 2.4.8\n";
	static const char one[] =
		"(trained inside a Docker container on one machine)\n"
		"RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:518, unhandled system error, NCCL version 2.4.8\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(two, sizeof(two) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.net.container_bridge");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "--network=host"));
	run_free(&r);

	r = explain_text(one, sizeof(one) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.net.container_bridge"));
	run_free(&r);
}

static void test_nccltests_launch(void **state)
{
	static const char ordinal[] =
		"$ mpirun -np 8 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4\n"
		"# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n"
		"node1: Test CUDA failure common.cu:732 'invalid device ordinal'\n";
	static const char one_gpu[] =	/* -g 1: the ordinal error is someone else's */
		"$ mpirun -np 8 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 1\n"
		"node1: Test CUDA failure common.cu:732 'invalid device ordinal'\n";
	static const char no_mpi[] =
		"$ mpirun -H 10.0.0.1,10.0.0.2 -np 2 ./all_reduce_perf -b 8 -e 128M -f 2 -g 1\n"
		"# Avg bus bandwidth    : 3.94145\n"
		"# Avg bus bandwidth    : 3.94156\n";
	static const char mpi[] =	/* built with MPI: one table of every rank, one summary each run */
		"$ mpirun -np 2 ./all_reduce_perf -g 1\n"
		"#  Rank  0 Group  0 Pid 11 on a device  0 [0x01] NVIDIA H100\n"
		"#  Rank  1 Group  0 Pid 12 on b device  0 [0x01] NVIDIA H100\n"
		"# Avg bus bandwidth    : 180.1\n"
		"# Avg bus bandwidth    : 181.2\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(ordinal, sizeof(ordinal) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.nccltests.gpus_per_process");
	assert_true(fix_has(f, "-g 1"));
	run_free(&r);

	r = explain_text(one_gpu, sizeof(one_gpu) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.nccltests.gpus_per_process"));
	run_free(&r);

	r = explain_text(no_mpi, sizeof(no_mpi) - 1, NULL);
	f = expect(&r, "explain.nccltests.not_mpi_build");
	assert_true(fix_has(f, "MPI=1"));
	run_free(&r);

	r = explain_text(mpi, sizeof(mpi) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.nccltests.not_mpi_build"));
	run_free(&r);
}

/* Container interfaces that NCCL's default filter leaves eligible, with a hang at init. */
static void test_virtual_iface(void **state)
{
	static const char prose[] =
		"A docker container runs in bridge networking mode, so a veth* interface exists on the host.\n"
		"ncclCommInitRank() hangs on every rank; nothing is printed after init starts.\n";
	static const char nccl[] =
		"n0:1:1 [0] NCCL INFO Bootstrap : Using veth1a2b:10.1.0.5<0>\n"
		"n0:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init START\n";
	static const char pinned[] =	/* NCCL_SOCKET_IFNAME set: the filter is the user's */
		"export NCCL_SOCKET_IFNAME=eth0\n"
		"A veth* interface exists on the host. ncclCommInitRank() hangs.\n";
	static const char good_boot[] =	/* NCCL shows it bootstrapped on eth0 */
		"n0:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>\n"
		"a veth interface exists; the job hangs\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(prose, sizeof(prose) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.net.virtual_iface");
	assert_int_equal(f->conf, CONF_LOW);
	assert_true(fix_has(f, "NCCL_SOCKET_IFNAME"));
	run_free(&r);
	r = explain_text(nccl, sizeof(nccl) - 1, NULL);
	f = expect(&r, "explain.net.virtual_iface");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "veth1a2b"));
	run_free(&r);
	r = explain_text(pinned, sizeof(pinned) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.net.virtual_iface"));
	run_free(&r);
	r = explain_text(good_boot, sizeof(good_boot) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.net.virtual_iface"));
	run_free(&r);
}

/* Two NICs of one host in one subnet: the route order picks the NIC, not NCCL_SOCKET_IFNAME. */
static void test_subnet_overlap(void **state)
{
	static const char brief[] =
		"NCCL_SOCKET_IFNAME=enp37s0f0\n"
		"eno1       192.168.3.x/20   (1 Gb)\n"
		"enp37s0f0  192.168.5.x/20   (10 Gb)\n";
	static const char ipaddr[] =	/* `ip -br addr` with states; /24 each: separate subnets */
		"eno1             UP             192.168.3.10/24 fe80::1/64\n"
		"enp37s0f0        UP             192.168.5.10/24\n";
	static const char far[] =	/* two hosts' listings far apart: not one host */
		"node a:\neth0  UP  10.0.0.1/24\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nnode b:\nens5  UP  10.0.0.2/24\n";
	static const char covered[] =	/* the /28 covers the redacted octet: the subnet is unknown */
		"NCCL_SOCKET_IFNAME=enp37s0f0\n"
		"eno1       192.168.3.x/28   (1 Gb)\n"
		"enp37s0f0  192.168.3.*/28   (10 Gb)\n";
	static const char stars[] =	/* two redacted octets, outside the /16 */
		"NCCL_SOCKET_IFNAME=enp37s0f0\n"
		"eno1       10.20.*.*/16   (1 Gb)\n"
		"enp37s0f0  10.20.5.*/16   (10 Gb)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(brief, sizeof(brief) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hosts.route_differs");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "192.168.0.0/20"));
	assert_true(fix_has(f, "ip route show 192.168.0.0/20"));
	run_free(&r);
	r = explain_text(ipaddr, sizeof(ipaddr) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.route_differs"));
	run_free(&r);
	r = explain_text(far, sizeof(far) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.route_differs"));
	run_free(&r);
	r = explain_text(covered, sizeof(covered) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.route_differs"));
	run_free(&r);
	r = explain_text(stars, sizeof(stars) - 1, NULL);
	f = findings_find(r.fs, "explain.hosts.route_differs");
	assert_non_null(f);
	assert_non_null(strstr(f->title, "10.20.0.0/16"));
	run_free(&r);
}

/* NCCL_IGNORE_NET_MISMATCH over device sets that differ. */
static void test_hca_differs(void **state)
{
	static const char log[] =
		"NCCL 2.30.7, 2 nodes x 8 H20, RoCE over eRDMA, NCCL_IGNORE_NET_MISMATCH=1\n"
		"n1:1:1 [0] NCCL WARN NET/IB : Unable to open device erdma_1\n"
		"(init completes, then the job hangs)\n";
	static const char no_override[] =	/* NCCL's own check is on: it will say so itself */
		"n1:1:1 [0] NCCL WARN NET/IB : Unable to open device erdma_1\n(the job hangs)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(log, sizeof(log) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hosts.hca_differs");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_true(fix_has(f, "NCCL_IB_HCA=^=erdma_1"));
	run_free(&r);
	r = explain_text(no_override, sizeof(no_override) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.hca_differs"));
	run_free(&r);
}

/* NCCL's own echoes of one setting disagree between processes. */
static void test_env_differs(void **state)
{
	static const char log[] =
		"a:11:11 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0,mlx5_1\n"
		"b:22:22 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_2\n"
		"b:22:22 [0] graph/connect.cc:128 NCCL WARN Error : ring 0 does not loop back to start (3 != 0)\n";
	static const char same[] =
		"a:11:11 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\n"
		"b:22:22 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\n";
	static const char ifname[] =	/* names differ per host by design */
		"a:11:11 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0\n"
		"b:22:22 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ens5\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(log, sizeof(log) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hosts.env_differs");
	assert_non_null(strstr(f->title, "mlx5_2"));
	assert_true(fix_has(f, "NCCL_IB_HCA"));
	run_free(&r);
	r = explain_text(same, sizeof(same) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.env_differs"));
	run_free(&r);
	r = explain_text(ifname, sizeof(ifname) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hosts.env_differs"));
	run_free(&r);
}

/* Known NCCL bugs found from facts other than a signature: the arch, a hang, pip's pin. */
static void test_known_bug_facts(void **state)
{
	static const char nvls[] = "NCCL version 2.19.3+cuda12.2\nfree(): invalid next size (fast)\n";
	static const char nvls_old[] = "NCCL version 2.16.5+cuda12.2\nfree(): invalid next size (fast)\n";
	static const char arm[] =
		"nvidia-nccl-cu13==2.28.9 on GB200 (aarch64), 128 GPUs: training wedges between step 0 and 347,\n"
		"all ranks sit at 100% GPU utilisation with no error.\n";
	static const char arm_fixed[] =
		"nvidia-nccl-cu13==2.30.7 on GB200 (aarch64): training wedges at step 10\n";
	static const char x86[] =
		"nvidia-nccl-cu13==2.28.9 on H100 (x86_64): training wedges at step 10\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(nvls, sizeof(nvls) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.known_bug.nvls_dual_port");
	assert_int_equal(f->conf, CONF_MEDIUM);	/* a generic crash: the version alone is not proof */
	run_free(&r);
	r = explain_text(nvls_old, sizeof(nvls_old) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.nvls_dual_port"));
	expect(&r, "sys.heap_corruption");
	run_free(&r);

	r = explain_text(arm, sizeof(arm) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.known_bug.arm_cas_wedge");
	assert_true(fix_has(f, "2.29.3"));
	run_free(&r);
	r = explain_text(arm_fixed, sizeof(arm_fixed) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.arm_cas_wedge"));
	run_free(&r);
	r = explain_text(x86, sizeof(x86) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.arm_cas_wedge"));
	run_free(&r);
}

/*
 * The known-bug rows keyed on a symptom line: a log of an affected version names the bug (first,
 * where `top` is set) and its fixed release; the same log with a fixed version (or, for a row
 * that no release fixes, without the fact it needs) does not.
 */
struct kb_case {
	const char *id;
	const char *log, *fixed_log;
	const char *bare_log;	/* the affected log without the distinguishing fact: silent, or NULL */
	const char *fix;	/* a literal of the fix */
	int top;		/* the bug must be the first error */
};

static const struct kb_case kb_cases[] = {
{
	.id = "nccl.known_bug.pxn_hang_2297", .fix = "NCCL_PXN_DISABLE=1",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda13.0\n"
		"h1:5:5 [0] NCCL INFO Using network IB\n"
		"(16 nodes: the job hangs at the first all_reduce)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"h1:5:5 [0] NCCL INFO Using network IB\n"
		"(16 nodes: the job hangs at the first all_reduce)\n",
},
{
	.id = "nccl.known_bug.uds_split_2203", .top = 1, .fix = "2.20.5",
	.log = "h1:33:33 [2] NCCL INFO NCCL version 2.20.3+cuda12.3\n"
		"h1:33:10589 [2] misc/ipcsocket.cc:57 NCCL WARN UDS: Binding to socket /tmp/nccl-socket-2-e647f8d8e15809a1 failed : Address already in use (98)\n"
		"h1:33:10589 [2] NCCL INFO proxy.cc:1697 -> 2\n"
		"h1:33:10589 [2] NCCL INFO init.cc:1210 -> 2\n",
	.fixed_log = "h1:33:33 [2] NCCL INFO NCCL version 2.20.5+cuda12.4\n"
		"h1:33:10589 [2] misc/ipcsocket.cc:57 NCCL WARN UDS: Binding to socket /tmp/nccl-socket-2-e647f8d8e15809a1 failed : Address already in use (98)\n",
},
{
	.id = "nccl.known_bug.plugin_path_2273", .top = 1, .fix = "2.27.5",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
		"h1:5:5 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net-/opt/amazon/ofi-nccl/lib/libnccl-net-ofi.so.so.\n"
		"h1:5:5 [0] NCCL INFO NET/IB : No device found.\n"
		"h1:5:5 [0] NCCL INFO Using network Socket\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.7+cuda12.9\n"
		"h1:5:5 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net-/opt/amazon/ofi-nccl/lib/libnccl-net-ofi.so.so.\n",
},
{
	.id = "nccl.known_bug.shm_bus_error", .fix = "--shm-size",
	.log = "NCCL version 2.18.5+cuda12.2\n"
		"[4c217144f0b1:113168] *** Process received signal ***\n"
		"[4c217144f0b1:113168] Signal: Bus error (7)\n",
	.fixed_log = "NCCL version 2.19.3+cuda12.2\n"
		"[4c217144f0b1:113168] Signal: Bus error (7)\n",
},
{
	.id = "nccl.known_bug.launch_blocking_hang", .top = 1, .fix = "unset CUDA_LAUNCH_BLOCKING",
	.log = "$ CUDA_LAUNCH_BLOCKING=1 torchrun --nnodes=2 --nproc_per_node=8 train.py\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.7\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800011 milliseconds before timing out.\n",
	.fixed_log = "$ CUDA_LAUNCH_BLOCKING=1 torchrun --nnodes=2 --nproc_per_node=8 train.py\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800011 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.abort_hang_2251", .fix = "2.26.2",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.25.1+cuda12.8\n"
		"[rank0]:[E313 10:20:00.1 ProcessGroupNCCL.cpp:1418] [PG 0 Rank 0] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"[rank0]:[E313 10:20:00.1 ProcessGroupNCCL.cpp:1418] [PG 0 Rank 0] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1\n",
},
{
	.id = "nccl.known_bug.nonblocking_hang_226", .fix = "TORCH_NCCL_USE_COMM_NONBLOCKING=0",
	.log = "dist.init_process_group(backend=\"nccl\", device_id=torch.device(\"cuda\", local_rank))\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.6\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=412, OpType=ALLGATHER, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "dist.init_process_group(backend=\"nccl\", device_id=torch.device(\"cuda\", local_rank))\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=412, OpType=ALLGATHER, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.mixed_cpu_hang", .top = 1, .fix = "2.22.3",
	.log = "node-a: Vendor ID: GenuineIntel   node-b: Vendor ID: AuthenticAMD\n"
		"NCCL version 2.19.3+cuda12.2\n"
		"all_reduce_perf hangs at 4194304 bytes\n",
	.fixed_log = "node-a: Vendor ID: GenuineIntel   node-b: Vendor ID: AuthenticAMD\n"
		"NCCL version 2.23.4+cuda12.6\n"
		"all_reduce_perf hangs at 4194304 bytes\n",
},
{
	.id = "nccl.known_bug.ring_pci_speed", .fix = "2.19.4",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n"
		"h1:5:5 [0] NCCL INFO Topology detection : could not read /sys/devices/pci0001:00/0001:00:00.0/../max_link_speed, ignoring\n"
		"h1:5:9 [7] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (13 != 15).\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.20.5+cuda12.4\n"
		"h1:5:9 [7] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (13 != 15).\n",
},
{
	.id = "nccl.known_bug.ring_rewrite_25", .fix = "2.5.6",
	.log = "NCCL version 2.3.7+cuda9.0\n"
		"learnfair0536:46395:46758 [2] misc/rings.cu:326 NCCL WARN Error : ring 0 does not loop back to start (4 != 2)\n",
	.fixed_log = "NCCL version 2.7.8+cuda11.0\n"
		"learnfair0536:46395:46758 [2] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (4 != 2)\n",
},
{
	.id = "nccl.known_bug.alltoallv_hang", .fix = "2.18.1",
	.log = "NCCL version 2.16.5+cuda11.8\n"
		"[rank8]:[E ProcessGroupNCCL.cpp:828] [Rank 8] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=90, OpType=ALLTOALL_BASE, Timeout(ms)=1800000) ran for 1800105 milliseconds before timing out.\n",
	.fixed_log = "NCCL version 2.18.3+cuda12.1\n"
		"[rank8]:[E ProcessGroupNCCL.cpp:828] [Rank 8] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=90, OpType=ALLTOALL_BASE, Timeout(ms)=1800000) ran for 1800105 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.static_link_2283", .fix = "2.28.7",
	.log = "2.10.0a0+git1a2b3c4 (2, 28, 3)\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device\n",
},
{
	.id = "nccl.known_bug.nvls_search_218", .fix = "NCCL_NVLS_ENABLE=0",
	.log = "p5:77:77 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
		"p5:77:90 [0] NCCL INFO NVLS multicast support is available on dev 0\n"
		"[p5:00077] *** Process received signal ***\n"
		"[p5:00077] Signal: Segmentation fault (11)\n",
	.fixed_log = "p5:77:77 [0] NCCL INFO NCCL version 2.18.5+cuda12.2\n"
		"p5:77:90 [0] NCCL INFO NVLS multicast support is available on dev 0\n"
		"[p5:00077] Signal: Segmentation fault (11)\n",
},
{
	.id = "nccl.known_bug.cumem_host_alloc", .fix = "NCCL_CUMEM_HOST_ENABLE=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.2\n"
		"[2025-04-28 10:00:01] h1:5:9 [0] include/alloc.h:120 NCCL WARN Cuda failure 2 'out of memory'\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:9 [0] include/alloc.h:120 NCCL WARN Cuda failure 2 'out of memory'\n",
},
{
	.id = "nccl.known_bug.stack_unlimited_mnnvl", .fix = "ulimit -s 8192",
	.log = "$ ulimit -s unlimited; srun python train.py   # 4 GB200 (aarch64) nodes\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"[gb200-a01:4711] *** Process received signal ***\n",
	.fixed_log = "$ srun python train.py   # 4 GB200 (aarch64) nodes\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"[gb200-a01:4711] *** Process received signal ***\n",
},
{
	.id = "nccl.known_bug.connect_abort_retry", .fix = "2.24.3",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:90 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused connection abort\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"h1:5:90 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused connection abort\n",
},
{
	.id = "nccl.known_bug.accept_eintr", .top = 1, .fix = "2.27.3",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:60 [0] misc/socket.cc:447 NCCL WARN socketTryAccept: Accept failed: Interrupted system call\n"
		"h1:5:60 [0] NCCL INFO misc/socket.cc:559 -> 2\n"
		"h1:5:60 [0] NCCL INFO bootstrap.cc:280 -> 2\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
		"h1:5:60 [0] misc/socket.cc:447 NCCL WARN socketTryAccept: Accept failed: Interrupted system call\n",
},
{
	.id = "nccl.known_bug.ras_missing_ranks", .fix = "NCCL_RAS_ENABLE=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"h1:5:70 [0] NCCL INFO RAS client listening socket at ::1<28028>\n"
		"[h1:00005] *** Process received signal ***\n"
		" 4 0x0000000000122927 rasClientRunComms() /build/nccl/src/ras/client_support.cc:993\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.3+cuda12.9\n"
		"h1:5:70 [0] NCCL INFO RAS client listening socket at ::1<28028>\n"
		"[h1:00005] *** Process received signal ***\n",
},
{
	.id = "nccl.known_bug.cumem_cudagraph_memory", .fix = "NCCL_CUMEM_ENABLE=0",
	.log = "INFO 05-28 10:00:00 model_runner.py:1000] Capturing cudagraphs for decoding.\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.20.5+cuda12.4\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 79.15 GiB of which 20.00 MiB is free.\n",
	.fixed_log = "INFO 05-28 10:00:00 model_runner.py:1000] Capturing cudagraphs for decoding.\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.22.3+cuda12.5\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 79.15 GiB of which 20.00 MiB is free.\n",
},
{
	.id = "nccl.known_bug.nic_fusion_fatal", .top = 1, .fix = "NCCL_NET_MERGE_LEVEL=LOC",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.25.1+cuda12.8\n"
		"h1:5:40 [0] graph/topo.cc:965 NCCL WARN TOPO/NET : Tried merging multiple devices together and failed. Try setting NCCL_NET_MERGE_LEVEL=LOC\n"
		"h1:5:40 [0] NCCL INFO graph/topo.cc:1064 -> 5\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"h1:5:40 [0] graph/topo.cc:965 NCCL WARN TOPO/NET : Tried merging multiple devices together and failed. Try setting NCCL_NET_MERGE_LEVEL=LOC\n",
},
{
	.id = "nccl.known_bug.connect_port_exhaustion", .fix = "2.19.4",
	.log = "NCCL version 2.18.5+cuda12.2\n"
		"h1:5:90 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.3.7<45763> failed : Cannot assign requested address\n",
	.fixed_log = "NCCL version 2.21.5+cuda12.4\n"
		"h1:5:90 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.3.7<45763> failed : Cannot assign requested address\n",
},
{
	.id = "nccl.known_bug.init_crash_2127", .fix = "2.12.12",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.12.10+cuda11.6\n"
		"[h1:00005] *** Process received signal ***\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.12.12+cuda11.6\n"
		"[h1:00005] *** Process received signal ***\n",
},
{
	.id = "nccl.known_bug.graph_destroy_2143", .fix = "2.14.3",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.12.12+cuda11.6\n"
		"torch.cuda.graphs: capturing CUDA graph for the decoder step\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.7\n"
		"torch.cuda.graphs: capturing CUDA graph for the decoder step\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
},
{
	.id = "nccl.known_bug.dmabuf_mofed_2134", .fix = "NCCL_DMABUF_ENABLE=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.13.4+cuda11.7\n"
		"h1:5:60 [0] misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Protocol not supported\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.7\n"
		"h1:5:60 [0] misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Protocol not supported\n",
},
{
	.id = "nccl.known_bug.graph_interleave_2155", .fix = "2.15.5",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.7\n"
		"two CUDA graphs captured on two streams: the job hangs at the first replay\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.15.5+cuda11.8\n"
		"two CUDA graphs captured on two streams: the job hangs at the first replay\n",
},
{
	.id = "nccl.known_bug.abort_crash_2165", .fix = "2.16.5",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.7\n"
		"[h1:00005] Signal: Segmentation fault (11)\n"
		"[h1:00005] [ 3] /usr/lib/libnccl.so.2(ncclCommAbort+0x9c)[0x7f0c3a1b2c3d]\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.16.5+cuda11.8\n"
		"[h1:00005] Signal: Segmentation fault (11)\n"
		"[h1:00005] [ 3] /usr/lib/libnccl.so.2(ncclCommAbort+0x9c)[0x7f0c3a1b2c3d]\n",
},
{
	.id = "nccl.known_bug.sharp_bf16_2181", .top = 1, .fix = "NCCL_COLLNET_ENABLE=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n"
		"h1:5:5 [0] NCCL INFO NCCL_COLLNET_ENABLE set by environment to 1.\n"
		"model dtype bfloat16; all_reduce hangs after the first step\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.3+cuda12.1\n"
		"h1:5:5 [0] NCCL INFO NCCL_COLLNET_ENABLE set by environment to 1.\n"
		"model dtype bfloat16; all_reduce hangs after the first step\n",
},
{
	.id = "nccl.known_bug.sharp_multiproc_2181", .fix = "NCCL_COLLNET_ENABLE=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n"
		"h1:5:5 [0] NCCL INFO NCCL_COLLNET_ENABLE set by environment to 1.\n"
		"Out of bounds values : 96 FAILED\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.3+cuda12.1\n"
		"h1:5:5 [0] NCCL INFO NCCL_COLLNET_ENABLE set by environment to 1.\n"
		"Out of bounds values : 96 FAILED\n",
},
{
	.id = "nccl.known_bug.alltoallv_self_2194", .fix = "2.19.4",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
		"  File \"moe.py\", line 88, in dispatch\n    dist.all_to_all_single(out, inp, out_splits, in_splits)\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.19.4+cuda12.3\n"
		"  File \"moe.py\", line 88, in dispatch\n    dist.all_to_all_single(out, inp, out_splits, in_splits)\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
},
{
	.id = "nccl.known_bug.cross_nic_2215", .fix = "NCCL_CROSS_NIC",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.20.5+cuda12.4\n"
		"h1:5:5 [0] NCCL INFO NCCL_CROSS_NIC set by environment to 1.\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:5 [0] NCCL INFO NCCL_CROSS_NIC set by environment to 1.\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.collnet_crash_2223", .fix = "NCCL_COLLNET_ENABLE=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:5 [0] NCCL INFO Plugin name set by env to libnccl-net.so; CollNet enabled (IB SHARP)\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.22.3+cuda12.5\n"
		"h1:5:5 [0] NCCL INFO Plugin name set by env to libnccl-net.so; CollNet enabled (IB SHARP)\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
},
{
	.id = "nccl.known_bug.nonblocking_p2p_2243", .fix = "TORCH_NCCL_USE_COMM_NONBLOCKING=0",
	.log = "export TORCH_NCCL_USE_COMM_NONBLOCKING=1\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"[rank1]:[E ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=RECV, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "export TORCH_NCCL_USE_COMM_NONBLOCKING=1\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.24.3+cuda12.6\n"
		"[rank1]:[E ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=RECV, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.double_free_2262", .fix = "NCCL_DEBUG=WARN",
	.log = "[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
		"double free or corruption (!prev)\n",
	.fixed_log = "[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n"
		"double free or corruption (!prev)\n",
},
{
	.id = "nccl.known_bug.mixed_arch_2262", .fix = "2.26.2",
	.log = "node-a (GH200, aarch64) and node-b (Intel(R) Xeon Platinum 8480+): NCCL version 2.23.4+cuda12.6\n"
		"the first all_reduce across the two nodes hangs\n",
	.fixed_log = "node-a (GH200, aarch64) and node-b (Intel(R) Xeon Platinum 8480+): NCCL version 2.26.2+cuda12.8\n"
		"the first all_reduce across the two nodes hangs\n",
},
{
	.id = "nccl.known_bug.mnnvl_a2a_2265", .fix = "2.27.3",
	.log = "gb200-r01:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"[rank64]:[E ProcessGroupNCCL.cpp:632] [Rank 64] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=ALLTOALL_BASE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n"
		"(72 GB200 GPUs x 2 racks, aarch64)\n",
	.fixed_log = "gb200-r01:5:5 [0] NCCL INFO NCCL version 2.26.5+cuda12.9\n"
		"[rank64]:[E ProcessGroupNCCL.cpp:632] [Rank 64] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=ALLTOALL_BASE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n"
		"(72 GB200 GPUs x 2 racks, aarch64)\n",
},
{
	.id = "nccl.known_bug.mnnvl_pxn_2273", .fix = "NCCL_PXN_DISABLE=1",
	.log = "gb200-r01:5:5 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
		"gb200-r01:5:40 [0] transport/net.cc:844 NCCL WARN Cuda failure 1 'invalid argument'\n"
		"(2 x GB200 NVL72 trays, aarch64)\n",
	.fixed_log = "gb200-r01:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"gb200-r01:5:40 [0] transport/net.cc:844 NCCL WARN Cuda failure 1 'invalid argument'\n"
		"(2 x GB200 NVL72 trays, aarch64)\n",
},
{
	.id = "nccl.known_bug.symk_init_2273", .fix = "2.27.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"h1:5:40 [0] enqueue.cc:42 NCCL WARN Cuda failure 'named symbol not found'\n"
		"h1:5:40 [0] NCCL INFO init.cc:1650 -> 1\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.7+cuda12.9\n"
		"h1:5:40 [0] enqueue.cc:42 NCCL WARN Cuda failure 'named symbol not found'\n",
},
{
	.id = "nccl.known_bug.roce_flap_event_2283", .top = 1, .fix = "2.28.3",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"h1:5:30 [0] transport/net_ib.cc:176 NCCL WARN NET/IB : mlx5_2:1 unknown event type (18)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"h1:5:30 [0] transport/net_ib/common.cc:112 NCCL WARN NET/IB : mlx5_2:1 GID table changed\n",
},
{
	.id = "nccl.known_bug.proxy_order_2289", .fix = "2.28.9",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.7+cuda12.9\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9120, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9120, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.fp8_no_algo_2292", .top = 1, .fix = "2.29.2",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"h1:5:9 [0] enqueue.cc:1859 NCCL WARN Error : no algorithm/protocol available for function AllReduce with datatype ncclFloat8e4m3.\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.2+cuda12.9\n"
		"h1:5:9 [0] enqueue.cc:1859 NCCL WARN Error : no algorithm/protocol available for function AllReduce with datatype ncclFloat8e4m3.\n",
},
{
	.id = "nccl.known_bug.rma_graph_2304", .fix = "2.30.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.4+cuda13.0\n"
		"cublasMp: capturing the AllGather+Matmul into a CUDA graph\n"
		"h1:5:9 [0] NCCL WARN Cuda failure 900 'operation not permitted when stream is capturing'\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"cublasMp: capturing the AllGather+Matmul into a CUDA graph\n"
		"h1:5:9 [0] NCCL WARN Cuda failure 900 'operation not permitted when stream is capturing'\n",
},
{
	.id = "nccl.known_bug.hopper_ll128_2155", .fix = "NCCL_PROTO=^LL128",
	.log = "#  Rank  0 Group  0 Pid  4711 on     h1 device  0 [0x19] NVIDIA H100 80GB HBM3\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.8\n"
		"all_reduce_perf -g 2 hangs after the header\n",
	.fixed_log = "#  Rank  0 Group  0 Pid  4711 on     h1 device  0 [0x19] NVIDIA H100 80GB HBM3\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.15.5+cuda11.8\n"
		"all_reduce_perf -g 2 hangs after the header\n",
},
{
	.id = "nccl.known_bug.proxy_poll_eintr_2162", .top = 1, .fix = "2.16.2",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.14.3+cuda11.7\n"
		"h1:5:66 [0] proxy.cc:1119 NCCL WARN [Proxy Service] Poll failed: Interrupted system call\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.16.2+cuda11.8\n"
		"h1:5:66 [0] proxy.cc:1119 NCCL WARN [Proxy Service] Poll failed: Interrupted system call\n",
},
{
	.id = "nccl.known_bug.gin_init_2287", .fix = "2.29.2",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"[h1:00005] *** Process received signal ***\n"
		"[h1:00005] [ 2] /usr/lib/x86_64-linux-gnu/libnccl.so.2(_ZL17ncclNetPluginInitP8ncclCommP12netPluginLib+0x1b4)[0x7f0c3a1b2c3d]\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.2+cuda12.9\n"
		"[h1:00005] *** Process received signal ***\n"
		"[h1:00005] [ 2] /usr/lib/x86_64-linux-gnu/libnccl.so.2(_ZL17ncclNetPluginInitP8ncclCommP12netPluginLib+0x1b4)[0x7f0c3a1b2c3d]\n",
},
{
	.id = "nccl.known_bug.proxy_stranger_2307", .fix = "2.30.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"the security team's nmap sweep ran at 02:00; the job hangs since then\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda12.9\n"
		"the security team's nmap sweep ran at 02:00; the job hangs since then\n",
},
{
	.id = "nccl.known_bug.cx8_gdr_off_2292", .fix = "2.29.2",
	.log = "gb200-a01:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"gb200-a01:5:5 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC\n"
		"(GB200, ConnectX-8) all_reduce_perf hangs at the first size\n",
	.fixed_log = "gb200-a01:5:5 [0] NCCL INFO NCCL version 2.29.2+cuda12.9\n"
		"gb200-a01:5:5 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC\n"
		"(GB200, ConnectX-8) all_reduce_perf hangs at the first size\n",
},
{
	.id = "nccl.known_bug.b40_tma_2312", .fix = "NCCL_SYM_TMA_ENABLE=0",
	.log = "#  Rank  0 Group  0 Pid  4711 on     h1 device  0 [0x19] NVIDIA B40\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.31.2+cuda13.0\n"
		"torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n",
	.fixed_log = "#  Rank  0 Group  0 Pid  4711 on     h1 device  0 [0x19] NVIDIA B40\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.32.3+cuda13.0\n"
		"torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n",
},
{
	.id = "nccl.known_bug.mlopart_b100", .fix = "NCCL_CUMEM_ENABLE=0",
	.log = "(2 ranks per B100 PCIe GPU under MPS with MLOPart)\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.31.2+cuda13.0\n"
		"h1:5:40 [0] NCCL WARN Cuda failure 101 'invalid device ordinal'\n",
	.fixed_log = "(2 ranks per B100 PCIe GPU under MPS with MLOPart)\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.29.3+cuda12.9\n"
		"h1:5:40 [0] NCCL WARN Cuda failure 101 'invalid device ordinal'\n",
},
{
	.id = "nccl.known_bug.pat_connect_2323", .fix = "unset NCCL_RUNTIME_CONNECT",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda12.9\n"
		"h1:5:5 [0] NCCL INFO NCCL_RUNTIME_CONNECT set by environment to 0\n"
		"(3 nodes: 8, 8 and 4 GPUs) the job hangs during init\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.32.3+cuda13.0\n"
		"h1:5:5 [0] NCCL INFO NCCL_RUNTIME_CONNECT set by environment to 0\n"
		"(3 nodes: 8, 8 and 4 GPUs) the job hangs during init\n",
},
{
	.id = "nccl.known_bug.p2p_setup_copy_2181", .fix = "2.18.6",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
		"h1:5:40 [0] transport.cc:154 NCCL WARN Cuda failure 'invalid argument'\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.6+cuda12.2\n"
		"h1:5:40 [0] transport.cc:154 NCCL WARN Cuda failure 'invalid argument'\n",
},
{
	.id = "nccl.known_bug.ce_default_stream_2283", .fix = "NCCL_SYM_CE_THRESHOLD",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.2+cuda13.1\n"
		"h1:5:9 [0] ce_coll.cc:392 NCCL WARN Cuda failure 'invalid argument'\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda13.1\n"
		"h1:5:9 [0] ce_coll.cc:392 NCCL WARN Cuda failure 'invalid argument'\n",
},
{
	.id = "nccl.known_bug.inspector_2283", .fix = "NCCL_INSPECTOR_ENABLE",
	.log = "export NCCL_PROFILER_PLUGIN=inspector NCCL_INSPECTOR_ENABLE=1\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"training hangs after a few hundred steps\n",
	.fixed_log = "export NCCL_PROFILER_PLUGIN=inspector NCCL_INSPECTOR_ENABLE=1\n"
		"h1:5:5 [0] NCCL INFO NCCL version 2.30.3+cuda12.9\n"
		"training hangs after a few hundred steps\n",
},
{
	.id = "nccl.known_bug.split_share_hang_2262", .fix = "NCCL_COMM_SPLIT_SHARE_RESOURCES",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"h1:5:5 [0] NCCL INFO NCCL_COMM_SPLIT_SHARE_RESOURCES set by environment to 1.\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.4\n"
		"h1:5:5 [0] NCCL INFO NCCL_COMM_SPLIT_SHARE_RESOURCES set by environment to 1.\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
},
{
	.id = "nccl.known_bug.split_share_corruption_2273", .fix = "NCCL_COMM_SPLIT_SHARE_RESOURCES",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.4\n"
		"export NCCL_COMM_SPLIT_SHARE_RESOURCES=1\n"
		"double free or corruption (!prev)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
		"export NCCL_COMM_SPLIT_SHARE_RESOURCES=1\n"
		"double free or corruption (!prev)\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.4\n"
		"double free or corruption (!prev)\n",
},
{
	.id = "nccl.known_bug.graph_capture_leak_2194", .fix = "2.19.4",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.5+cuda12.2\n"
		"capturing the decode step into a CUDA graph for every new batch size\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.19.4+cuda12.3\n"
		"capturing the decode step into a CUDA graph for every new batch size\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.5+cuda12.2\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB\n",
},
{
	.id = "nccl.known_bug.gdr_c2c_mnnvl_2263", .fix = "unset NCCL_NET_GDR_C2C",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"export NCCL_NET_GDR_C2C=1\n"
		"Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		"[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.26.2\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.3+cuda12.8\n"
		"export NCCL_NET_GDR_C2C=1\n"
		"Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		"[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.26.2\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n"
		"Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		"[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.26.2\n",
},
{
	.id = "nccl.known_bug.topo_file_mnnvl_2273", .fix = "unset NCCL_TOPO_FILE",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.5+cuda12.8\n"
		"export NCCL_TOPO_FILE=/etc/nccl/gb200-topo.xml\n"
		"Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		"[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.5\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
		"export NCCL_TOPO_FILE=/etc/nccl/gb200-topo.xml\n"
		"Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		"[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.5\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.26.5+cuda12.8\n"
		"Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		"[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.5\n",
},
{
	.id = "nccl.known_bug.shm_create_crash_2183", .fix = "2.18.3",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.17.1+cuda12.1\n"
		"h1:5:40 [0] include/shmutils.h:42 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Q2bJd8 (size 9637888)\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
		"h1:5:40 [0] include/shmutils.h:42 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Q2bJd8 (size 9637888)\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.17.1+cuda12.1\n"
		"h1:5:40 [0] include/shmutils.h:42 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Q2bJd8 (size 9637888)\n",
},
{
	.id = "nccl.known_bug.reg_graph_crash_2243", .fix = "NCCL_GRAPH_REGISTER=0",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"export TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK=1   # and the decode step runs as a CUDA graph\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.24.3+cuda12.6\n"
		"export TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK=1   # and the decode step runs as a CUDA graph\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"the decode step runs as a CUDA graph\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
},
{
	.id = "nccl.known_bug.net_assign_crash_2287", .fix = "2.28.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"h1:5:5 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.7+cuda12.9\n"
		"h1:5:5 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin\n"
		"[h1:00005] Signal: Segmentation fault (11)\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"h1:5:5 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin\n",
},
{
	.id = "nccl.known_bug.multi_qp_split_21210", .fix = "NCCL_IB_QPS_PER_CONNECTION",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.11.4+cuda11.4\n"
		"h1:5:5 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 4.\n"
		"#  Out of bounds values : 12 FAILED\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.12.10+cuda11.6\n"
		"h1:5:5 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 4.\n"
		"#  Out of bounds values : 12 FAILED\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.11.4+cuda11.4\n"
		"#  Out of bounds values : 12 FAILED\n",
},
{
	.id = "nccl.known_bug.symk_corruption_2287", .fix = "2.28.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"buffers registered with ncclCommWindowRegister(comm, buf, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n"
		"#  Out of bounds values : 12 FAILED\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.7+cuda12.9\n"
		"buffers registered with ncclCommWindowRegister(comm, buf, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n"
		"#  Out of bounds values : 12 FAILED\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.28.3+cuda12.9\n"
		"#  Out of bounds values : 12 FAILED\n",
},
{
	.id = "nccl.known_bug.proxy_magic_hang_2307", .fix = "2.30.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"h1:5:1226 [0] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong magic 74656d2f20544547 != 7970663b906d70b9\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"h1:5:1226 [0] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong magic 74656d2f20544547 != 7970663b906d70b9\n"
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	/* the stranger was dropped and nothing hung: harmless */
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"h1:5:1226 [0] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong magic 74656d2f20544547 != 7970663b906d70b9\n",
},
{
	.id = "nccl.known_bug.ce_two_rank_2312", .fix = "2.31.2",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.4+cuda13.0\n"
		"h1:5:5 [0] NCCL INFO NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)\n"
		"h1:5:9 [0] ce_coll.cc:210 NCCL WARN Cuda failure 'invalid resource handle'\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.31.2+cuda13.0\n"
		"h1:5:5 [0] NCCL INFO NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)\n"
		"h1:5:9 [0] ce_coll.cc:210 NCCL WARN Cuda failure 'invalid resource handle'\n",
	/* no NVLS: the multicast sync is never chosen */
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.4+cuda13.0\n"
		"h1:5:9 [0] ce_coll.cc:210 NCCL WARN Cuda failure 'invalid resource handle'\n",
},
{
	.id = "nccl.known_bug.rma_subwindow_2312", .fix = "2.31.2",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"windows carved from one pool: ncclCommWindowRegister(comm, pool + off, size, &win, NCCL_WIN_DEFAULT)\n"
		"#  Out of bounds values : 12 FAILED\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.31.2+cuda13.0\n"
		"windows carved from one pool: ncclCommWindowRegister(comm, pool + off, size, &win, NCCL_WIN_DEFAULT)\n"
		"#  Out of bounds values : 12 FAILED\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"#  Out of bounds values : 12 FAILED\n",
},
{
	.id = "nccl.known_bug.ce_batch_race_2303", .fix = "2.30.3",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda13.0\n"
		"buffers registered with ncclCommWindowRegister(comm, buf, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n"
		"#  Out of bounds values : 12 FAILED\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.3+cuda13.0\n"
		"buffers registered with ncclCommWindowRegister(comm, buf, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n"
		"#  Out of bounds values : 12 FAILED\n",
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda13.0\n"
		"#  Out of bounds values : 12 FAILED\n",
},
{
	.id = "nccl.known_bug.window_graph_2307", .fix = "2.30.7",
	.log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda13.0\n"
		"capturing the decode step into a CUDA graph; ncclCommWindowRegister(comm, kv, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n"
		"h1:5:9 [0] dev_runtime.cc:612 NCCL WARN Cuda failure 900 'operation not permitted when stream is capturing'\n",
	.fixed_log = "h1:5:5 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"capturing the decode step into a CUDA graph; ncclCommWindowRegister(comm, kv, size, &win, NCCL_WIN_COLL_SYMMETRIC)\n"
		"h1:5:9 [0] dev_runtime.cc:612 NCCL WARN Cuda failure 900 'operation not permitted when stream is capturing'\n",
	/* no window registered: some other call broke the capture */
	.bare_log = "h1:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda13.0\n"
		"capturing the decode step into a CUDA graph\n"
		"h1:5:9 [0] dev_runtime.cc:612 NCCL WARN Cuda failure 900 'operation not permitted when stream is capturing'\n",
},
{
	.id = "nccl.known_bug.comm_id_subnet_2292", .fix = "2.30.3",
	.log = "node2:5:5 [0] NCCL INFO NCCL_COMM_ID set by environment to 172.17.16.2:12340\n"
		"node2:5:5 [0] NCCL INFO Bootstrap: Using lo:127.0.0.1<0>\n"
		"node2:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda12.9\n"
		"[rank8]:[E ProcessGroupNCCL.cpp:632] [Rank 8] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	.fixed_log = "node2:5:5 [0] NCCL INFO NCCL_COMM_ID set by environment to 172.17.16.2:12340\n"
		"node2:5:5 [0] NCCL INFO Bootstrap: Using lo:127.0.0.1<0>\n"
		"node2:5:5 [0] NCCL INFO NCCL version 2.30.3+cuda12.9\n"
		"[rank8]:[E ProcessGroupNCCL.cpp:632] [Rank 8] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
	/* NCCL_COMM_ID set but the bootstrap took the right interface: not this bug */
	.bare_log = "node2:5:5 [0] NCCL INFO NCCL_COMM_ID set by environment to 172.17.16.2:12340\n"
		"node2:5:5 [0] NCCL INFO Bootstrap: Using eth0:172.17.16.5<0>\n"
		"node2:5:5 [0] NCCL INFO NCCL version 2.29.7+cuda12.9\n"
		"[rank8]:[E ProcessGroupNCCL.cpp:632] [Rank 8] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
},
{
	/* the same bug; without NCCL_COMM_ID a loopback bootstrap is a set-up matter (another rule) */
	.id = "nccl.known_bug.comm_id_subnet_2292", .fix = "unset NCCL_COMM_ID",
	.log = "export NCCL_COMM_ID=10.0.0.1:12340\n"
		"node2:5:5 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>\n"
		"node2:5:5 [0] NCCL INFO NCCL version 2.30.2+cuda12.9\n"
		"the job hangs after Init START on the second node\n",
	.fixed_log = "export NCCL_COMM_ID=10.0.0.1:12340\n"
		"node2:5:5 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>\n"
		"node2:5:5 [0] NCCL INFO NCCL version 2.28.9+cuda12.9\n"
		"the job hangs after Init START on the second node\n",
	.bare_log = "node2:5:5 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>\n"
		"node2:5:5 [0] NCCL INFO NCCL version 2.30.2+cuda12.9\n"
		"the job hangs after Init START on the second node\n",
},
{
	.id = "nccl.known_bug.gdr_flush_arm_2307", .top = 1, .fix = "2.30.7",
	.log = "gh200-01:4711:4711 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
		"gh200-01:4711:4790 [0] transport/net.cc:1257 NCCL WARN NET: GDR Flush only supported on x86_64\n",
	.fixed_log = "gh200-01:4711:4711 [0] NCCL INFO NCCL version 2.30.7+cuda13.0\n"
		"gh200-01:4711:4790 [0] transport/net.cc:1257 NCCL WARN NET: GDR Flush only supported on x86_64\n",
},
};

static void test_known_bug_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kb_cases) / sizeof(kb_cases[0]); i++) {
		const struct kb_case *c = &kb_cases[i];
		struct run r = explain_text(c->log, strlen(c->log), NULL);
		const struct finding *f = findings_find(r.fs, c->id);

		if (!f)
			fail_msg("%s: not found on its affected log", c->id);
		if (c->top && strcmp(top_error(&r)->id, c->id))
			fail_msg("%s: the first error is %s", c->id, top_error(&r)->id);
		if (!fix_has(f, c->fix))
			fail_msg("%s: the fix lacks '%s'", c->id, c->fix);
		run_free(&r);
		r = explain_text(c->fixed_log, strlen(c->fixed_log), NULL);
		if (findings_find(r.fs, c->id))
			fail_msg("%s: reported on a fixed version", c->id);
		run_free(&r);
		if (!c->bare_log)
			continue;
		r = explain_text(c->bare_log, strlen(c->bare_log), NULL);
		if (findings_find(r.fs, c->id))
			fail_msg("%s: reported without the fact it needs", c->id);
		run_free(&r);
	}
}

/* A generic symptom with no NCCL version anywhere: the rows that require one stay silent (no
 * "upgrade" claim for a release the log does not show). */
static void test_known_bug_no_version(void **state)
{
	static const char *const logs[] = {
		"[rank0]:[E ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9120, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600040 milliseconds before timing out.\n",
		("[rank0]: torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:77, unhandled system error\n"
		 "double free or corruption (!prev)\n"),	/* one log of two lines */
		"h1:5:40 [0] enqueue.cc:42 NCCL WARN Cuda failure 'named symbol not found'\n",
		"h1:5:30 [0] transport/net_ib.cc:176 NCCL WARN NET/IB : mlx5_2:1 unknown event type (18)\n",
	};
	/* transport/net.cc is not transport.cc: its CUDA failure is not the 2.18 set-up race */
	static const char net_cc[] =
		"h1:5:5 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
		"h1:5:40 [0] transport/net.cc:844 NCCL WARN Cuda failure 'invalid argument'\n";
	struct run r0 = explain_text(net_cc, sizeof(net_cc) - 1, NULL);

	assert_null(findings_find(r0.fs, "nccl.known_bug.p2p_setup_copy_2181"));
	run_free(&r0);
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		struct run r = explain_text(logs[i], strlen(logs[i]), NULL);
		for (size_t k = 0; k < r.fs->n; k++)
			if (!strncmp(r.fs->v[k]->id, "nccl.known_bug.", 15))
				for (size_t b = 0; b < explain_nknown_bugs; b++)
					if (!strcmp(explain_known_bugs[b].id, r.fs->v[k]->id) &&
					    explain_known_bugs[b].version_required)
						fail_msg("log %zu: %s without a version", i, r.fs->v[k]->id);
		run_free(&r);
	}
}

static int evidence_has(const struct finding *f, const char *s)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (strstr(f->evidence[i], s))
			return 1;
	return 0;
}

/*
 * A known-bug row's setting is read by its value, whatever form the log gives it in (NCCL's echo,
 * an export, mpirun's -x): every QP count above 1 is several QPs, not only the 2, 4 and 8 someone
 * wrote down; 1 and a value NCCL would not read are not. The setting's line is the evidence.
 */
static void test_known_bug_setting_values(void **state)
{
	static const struct {
		const char *id, *line;
		int fires;
	} cases[] = {
		{ "nccl.known_bug.multi_qp_split_21210",
		  "h1:5:5 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 3.", 1 },
		{ "nccl.known_bug.multi_qp_split_21210", "export NCCL_IB_QPS_PER_CONNECTION=16", 1 },
		{ "nccl.known_bug.multi_qp_split_21210",
		  "mpirun -np 16 -x NCCL_IB_QPS_PER_CONNECTION=16 ./all_reduce_perf -b 8 -e 1G", 1 },
		{ "nccl.known_bug.multi_qp_split_21210",
		  "h1:5:5 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 1.", 0 },
		{ "nccl.known_bug.multi_qp_split_21210", "export NCCL_IB_QPS_PER_CONNECTION=1", 0 },
		{ "nccl.known_bug.multi_qp_split_21210", "export NCCL_IB_QPS_PER_CONNECTION=4x", 0 },
		{ "nccl.known_bug.multi_qp_split_21210", "export NCCL_IB_QPS_PER_CONNECTION=auto", 0 },
		{ "nccl.known_bug.split_share_corruption_2273",
		  "h1:5:5 [0] NCCL INFO NCCL_COMM_SPLIT_SHARE_RESOURCES set by environment to 1.", 1 },
		{ "nccl.known_bug.split_share_corruption_2273", "export NCCL_COMM_SPLIT_SHARE_RESOURCES=0", 0 },
		{ "nccl.known_bug.gdr_c2c_mnnvl_2263", "srun --export=ALL,NCCL_NET_GDR_C2C=1 python train.py", 1 },
		{ "nccl.known_bug.gdr_c2c_mnnvl_2263", "export NCCL_NET_GDR_C2C=0", 0 },
		{ "nccl.known_bug.topo_file_mnnvl_2273",
		  "h1:5:5 [0] NCCL INFO NCCL_TOPO_FILE set by environment to /etc/nccl/gb200-topo.xml", 1 },
		{ "nccl.known_bug.topo_file_mnnvl_2273", "h1:5:5 [0] NCCL INFO NCCL_TOPO_FILE set by environment to ", 0 },
	};
	/* each row's other facts and an affected version, the setting's line second */
	static const struct {
		const char *id, *head, *tail, *what;
	} rows[] = {
		{ "nccl.known_bug.multi_qp_split_21210", "h1:5:5 [0] NCCL INFO NCCL version 2.11.4+cuda11.4\n",
		  "#  Out of bounds values : 12 FAILED\n", "NCCL_IB_QPS_PER_CONNECTION above 1" },
		{ "nccl.known_bug.split_share_corruption_2273",
		  "h1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n", "double free or corruption (!prev)\n",
		  "NCCL_COMM_SPLIT_SHARE_RESOURCES=1" },
		{ "nccl.known_bug.gdr_c2c_mnnvl_2263", "h1:5:5 [0] NCCL INFO NCCL version 2.26.2+cuda12.8\n",
		  "Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		  "[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.26.2\n",
		  "NCCL_NET_GDR_C2C=1" },
		{ "nccl.known_bug.topo_file_mnnvl_2273", "h1:5:5 [0] NCCL INFO NCCL version 2.26.5+cuda12.8\n",
		  "Linux gb200-n1 6.8.0-1013-nvidia-64k #14 SMP aarch64 GNU/Linux\n"
		  "[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.5\n",
		  "NCCL_TOPO_FILE" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *head = NULL, *tail = NULL, *what = NULL;
		char log[1024];
		struct run r;
		const struct finding *f;

		for (size_t k = 0; k < ARRAY_SIZE(rows); k++)
			if (!strcmp(rows[k].id, cases[i].id)) {
				head = rows[k].head;
				tail = rows[k].tail;
				what = rows[k].what;
			}
		assert_non_null(head);
		snprintf(log, sizeof(log), "%s%s\n%s", head, cases[i].line, tail);
		r = explain_text(log, strlen(log), NULL);
		f = findings_find(r.fs, cases[i].id);
		if (cases[i].fires && !f)
			fail_msg("%s: not found with '%s'", cases[i].id, cases[i].line);
		if (!cases[i].fires && f)
			fail_msg("%s: reported with '%s'", cases[i].id, cases[i].line);
		if (f && !evidence_has(f, what))
			fail_msg("%s: '%s' is not in the evidence", cases[i].id, what);
		if (f && !evidence_has(f, ":2: "))
			fail_msg("%s: the setting's line (2) is not in the evidence", cases[i].id);
		run_free(&r);
	}
}

/* NCCL_SOCKET_IFNAME from shell and launcher lines, read with NCCL's own '^' and '=' rules. */
static void test_ifname_assignments(void **state)
{
	static const char exact[] =
		"NCCL_SOCKET_IFNAME==enp90s0np0\n"
		"Bootstrap : no socket interface found\n"
		"inet 10.168.206.131/31 scope global enp90s0np0\n";
	static const char lo[] =
		"$ cat /etc/nccl.conf\nNCCL_SOCKET_IFNAME=^docker0\n"
		"(mpirun over two pods: the job hangs at NCCL initialization)\n";
	static const char lo_ok[] =	/* lo excluded by prefix: nothing to say */
		"export NCCL_SOCKET_IFNAME=^docker,lo\n(the job hangs at NCCL initialization)\n";
	static const char lo_chosen_other[] =	/* NCCL shows it bootstrapped on eth0: not lo */
		"NCCL_SOCKET_IFNAME=^docker0\n"
		"n0:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n(the job hangs)\n";
	static const char echo_wins[] =	/* NCCL's own echo replaces the shell line */
		"export NCCL_SOCKET_IFNAME=^docker0\n"
		"n0:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth\n(the job hangs)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(exact, sizeof(exact) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.net.ifname_nomatch");
	assert_non_null(strstr(f->title, "'=' (exact match) was not honoured"));
	assert_true(fix_has(f, "export NCCL_SOCKET_IFNAME=enp90s0np0 "));
	run_free(&r);

	r = explain_text(lo, sizeof(lo) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "net.ifname.lo_eligible");
	assert_true(fix_has(f, "export NCCL_SOCKET_IFNAME=^docker0,lo "));
	run_free(&r);

	r = explain_text(lo_ok, sizeof(lo_ok) - 1, NULL);
	assert_null(findings_find(r.fs, "net.ifname.lo_eligible"));
	run_free(&r);
	r = explain_text(lo_chosen_other, sizeof(lo_chosen_other) - 1, NULL);
	assert_null(findings_find(r.fs, "net.ifname.lo_eligible"));
	run_free(&r);
	r = explain_text(echo_wins, sizeof(echo_wins) - 1, NULL);
	assert_null(findings_find(r.fs, "net.ifname.lo_eligible"));
	run_free(&r);
}

/* torchrun's static --node-rank mixed with a c10d rendezvous; one launch line sets many NCCL_*. */
static void test_launch_lines(void **state)
{
	static const char c10d[] =
		"torchrun --nproc_per_node=8 --nnodes=2 --node-rank=0 --rdzv_id=61 --rdzv_backend=c10d --rdzv_endpoint=$(hostname) train.py\n"
		"(both nodes: stuck at startup, no error)\n";
	static const char c10d_ok[] =	/* one endpoint, no --node-rank: the documented way */
		"torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=10.0.0.1:29400 train.py\n"
		"(both nodes: stuck at startup, no error)\n";
	static const char statik[] =	/* the static launch with --node-rank: not this finding */
		"torchrun --nnodes=2 --node-rank=1 --master-addr=10.0.0.1 --master-port=29500 train.py\n";
	static const char ll128[] =
		"mpirun -np 2 -x NCCL_DEBUG=WARN -x NCCL_PROTO=LL128 -x NCCL_IB_DISABLE=1 all_reduce_perf -g 1\n"
		"Out of bounds values : 2 FAILED\n"
		"Avg bus bandwidth    : 1.49781\n";
	static const char ll128_ok[] =	/* correct results: a forced protocol is not blamed */
		"mpirun -np 2 -x NCCL_PROTO=LL128 all_reduce_perf -g 1\n"
		"Out of bounds values : 0 OK\n"
		"Avg bus bandwidth    : 1.49781\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(c10d, sizeof(c10d) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.launch.node_rank_c10d");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_non_null(strstr(f->title, "--node-rank=0"));
	assert_true(fix_has(f, "without --node-rank"));
	run_free(&r);
	r = explain_text(c10d_ok, sizeof(c10d_ok) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.launch.node_rank_c10d"));
	run_free(&r);
	r = explain_text(statik, sizeof(statik) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.launch.node_rank_c10d"));
	run_free(&r);

	r = explain_text(ll128, sizeof(ll128) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.env.proto_forced");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_true(fix_has(f, "unset NCCL_PROTO"));
	run_free(&r);
	r = explain_text(ll128_ok, sizeof(ll128_ok) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.env.proto_forced"));
	run_free(&r);

	/* wrong results and a NCCL older than the LL128 corruption fixes: a known bug, at medium */
	{
		static const char old_nccl[] =
			"node1:4711:4711 [0] NCCL INFO NCCL version 2.17.1+cuda11.8\n"
			"Out of bounds values : 12 FAILED\n";
		static const char new_nccl[] =
			"node1:4711:4711 [0] NCCL INFO NCCL version 2.18.3+cuda12.1\n"
			"Out of bounds values : 12 FAILED\n";
		static const char no_version[] = "Out of bounds values : 12 FAILED\n";

		r = explain_text(old_nccl, sizeof(old_nccl) - 1, NULL);
		f = top_error(&r);
		assert_string_equal(f->id, "nccl.known_bug.ll128_corruption");
		assert_int_equal(f->conf, CONF_MEDIUM);
		expect_setting(f, "NCCL_PROTO", "^LL128");
		run_free(&r);
		r = explain_text(new_nccl, sizeof(new_nccl) - 1, NULL);
		assert_null(findings_find(r.fs, "nccl.known_bug.ll128_corruption"));
		run_free(&r);
		r = explain_text(no_version, sizeof(no_version) - 1, NULL);
		assert_null(findings_find(r.fs, "nccl.known_bug.ll128_corruption"));
		run_free(&r);
	}
}

/*
 * An NGC PyTorch image named and no "NCCL version" line: the NCCL its release ships (ngc.c) is
 * the version the known-bug table reads, and the finding says where it came from; a version line
 * the log does print wins over the image, and two images of different NCCLs decide nothing.
 */
static void test_ngc_container(void **state)
{
	static const char image[] =
		"FROM nvcr.io/nvidia/pytorch:19.11-py3\n"
		"Out of bounds values : 12 FAILED\n";
	static const char printed[] =	/* the log's own version line: 2.21.5, not affected */
		"FROM nvcr.io/nvidia/pytorch:19.11-py3\n"
		"node1:4711:4711 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"Out of bounds values : 12 FAILED\n";
	static const char unknown[] =	/* a release the table lacks: no version */
		"docker run --gpus all nvcr.io/nvidia/pytorch:19.13-py3\n"
		"image: nvcr.io/nvidia/pytorch:18.01-py3\n"
		"Out of bounds values : 12 FAILED\n";
	static const char two[] =	/* two releases of different NCCLs: neither decides */
		"FROM nvcr.io/nvidia/pytorch:19.03-py3\n"
		"then with nvcr.io/nvidia/pytorch:19.11-py3 too\n"
		"Out of bounds values : 12 FAILED\n";
	struct run r;
	const struct finding *f;

	(void)state;
	assert_int_equal(ngc_pytorch_nccl(19, 11), 20506);
	assert_int_equal(ngc_pytorch_nccl(19, 3), 20403);
	assert_int_equal(ngc_pytorch_nccl(19, 13), 0);
	assert_int_equal(ngc_pytorch_nccl(19, 4), 0);	/* no page read for 19.04 */
	for (size_t i = 0; i < ngc_pytorch_nreleases; i++) {
		const struct ngc_pytorch *g = &ngc_pytorch_releases[i];
		assert_true(g->mm >= 1 && g->mm <= 12 && g->nccl > 20000 && g->cuda);
		for (size_t j = i + 1; j < ngc_pytorch_nreleases; j++)
			assert_false(g->yy == ngc_pytorch_releases[j].yy &&
				     g->mm == ngc_pytorch_releases[j].mm);
	}

	r = explain_text(image, sizeof(image) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "nccl.known_bug.ll128_corruption");
	assert_non_null(strstr(f->why, "NCCL 2.5.6 (the NCCL of nvcr.io/nvidia/pytorch:19.11-py3)"));
	assert_true(finding_evidence_contains(f, "test.log:1: NCCL version: 2.5.6 (the NCCL of nvcr.io/nvidia/pytorch:19.11-py3)"));
	assert_true(fix_has(f, "torch.cuda.nccl.version()"));
	run_free(&r);

	r = explain_text(printed, sizeof(printed) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.ll128_corruption"));
	run_free(&r);

	r = explain_text(unknown, sizeof(unknown) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.ll128_corruption"));
	run_free(&r);

	r = explain_text(two, sizeof(two) - 1, NULL);
	assert_null(findings_find(r.fs, "nccl.known_bug.ll128_corruption"));
	run_free(&r);
}

/* Across machines pasted together: pip pins of one package at two versions, GDR on some links. */
static void test_cross_host(void **state)
{
	static const char pins[] =
		"machine 1:\n$ pip freeze | grep nccl\nnvidia-nccl-cu11==2.14.3\nnvidia-nccl-cu12==2.20.5\n"
		"machines 2,3,4:\n$ pip freeze | grep nccl\nnvidia-nccl-cu11==2.14.3\nnvidia-nccl-cu12==2.19.3\n";
	static const char same[] =	/* cu11 beside cu12 is two packages, not a mismatch */
		"nvidia-nccl-cu11==2.14.3\nnvidia-nccl-cu12==2.20.5\nnvidia-nccl-cu12==2.20.5\n";
	static const char peer[] =
		"gpu-a01:4711:4790 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.7<40122> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
		"gpu-a02:4712:4790 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.7<40123> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
		"srun: error: gpu-a01: task 0: Exited with exit code 1\n";
	static const char peers[] =
		"gpu-a01:4711:4790 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.7<40122> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
		"gpu-a02:4712:4790 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.9<40123> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n";
	static const char three[] =
		"srun -N4 --ntasks-per-node=1 python train.py\n"
		"node1:111:150 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 10.0.0.5<43521> failed : Connection timed out\n"
		"node2:222:250 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 10.0.0.5<41233> failed : Connection timed out\n"
		"node3:333:350 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 10.0.0.5<39876> failed : Connection timed out\n";
	static const char gdr[] =
		"9[1a000] -> 2[6b000] [send] via NET/IB/0/GDRDMA\n"
		"9[1a000] -> 2[6b000] [receive] via NET/IB/1\n";
	static const char gdr_all[] =
		"n0:1:2 [0] NCCL INFO Channel 00/0 : 9[1a000] -> 2[6b000] [send] via NET/IB/0/GDRDMA\n"
		"n0:1:2 [0] NCCL INFO Channel 00/0 : 2[6b000] -> 9[1a000] [receive] via NET/IB/0/GDRDMA\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(pins, sizeof(pins) - 1, NULL);
	f = top_error(&r);
	assert_string_equal(f->id, "explain.nccl.version_mismatch");
	assert_non_null(strstr(f->title, "2.20.5"));
	assert_non_null(strstr(f->title, "2.19.3"));
	assert_int_equal(f->conf, CONF_MEDIUM);
	run_free(&r);

	r = explain_text(same, sizeof(same) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.nccl.version_mismatch"));
	run_free(&r);

	r = explain_text(gdr, sizeof(gdr) - 1, NULL);
	f = expect(&r, "explain.rdma.gdr_partial");
	assert_true(fix_has(f, "nvidia-peermem"));
	run_free(&r);

	r = explain_text(peer, sizeof(peer) - 1, NULL);
	f = expect(&r, "explain.hosts.common_peer");
	assert_non_null(strstr(f->title, "10.1.0.7"));
	assert_true(fix_has(f, "srun --exclude="));	/* the launcher in use is Slurm */
	run_free(&r);

	r = explain_text(three, sizeof(three) - 1, NULL);	/* three witnesses: the verdict comes first */
	f = top_error(&r);
	assert_string_equal(f->id, "explain.hosts.common_peer");
	assert_int_equal(f->conf, CONF_HIGH);
	assert_true(fix_has(f, "srun --exclude=$(getent hosts 10.0.0.5"));
	expect(&r, "nccl.connect.timeout");	/* 2.12-2.20's "failed : Connection timed out" */
	run_free(&r);

	r = explain_text(peers, sizeof(peers) - 1, NULL);	/* two peers: not one node's fault */
	assert_null(findings_find(r.fs, "explain.hosts.common_peer"));
	run_free(&r);

	r = explain_text(gdr_all, sizeof(gdr_all) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.gdr_partial"));
	run_free(&r);
}

/*
 * The ranking: best first by severity, then confidence and the rule's bonus. A severity never
 * rises down the list, so a medium-confidence error stays above a high-confidence note (weights
 * the other way round would put "the log has no NCCL INFO lines" above the error it is about).
 */
static void assert_ranked(const struct run *r, const char *what)
{
	for (size_t i = 1; i < r->fs->n; i++) {
		const struct finding *a = r->fs->v[i - 1], *b = r->fs->v[i];

		if (b->sev > a->sev)
			fail_msg("%s: %s (severity %d) ranked below %s (severity %d)", what, b->id,
				 (int)b->sev, a->id, (int)a->sev);
	}
}

static void test_ranking(void **state)
{
	static const char truncated[] =
		"node1:4712:4790 [0] bootstrap.cc:134 NCCL WARN Message truncated : received 1024 "
		"bytes instead of 4096\n";
	static const char *const scenarios[] = { "healthy", "lightning_dup", "lightning_hang",
						 "missing_rank", "version_mismatch",
						 "watchdog_desync", "wrong_iface", "nccl232" };
	const struct finding *err, *note;
	struct run r;
	(void)state;

	/* a medium-confidence error and the high-confidence note that NCCL INFO is missing */
	r = explain_text(truncated, sizeof(truncated) - 1, NULL);
	err = expect(&r, "nccl.bootstrap.truncated");
	note = expect(&r, "explain.log.no_nccl_debug");
	assert_int_equal(err->sev, SEV_ERROR);
	assert_int_equal(err->conf, CONF_MEDIUM);
	assert_int_equal(note->sev, SEV_INFO);
	assert_int_equal(note->conf, CONF_HIGH);
	assert_ptr_equal(r.fs->v[0], err);
	assert_ranked(&r, "truncated");
	run_free(&r);

	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		r = explain_dir(scenarios[i], NULL);
		assert_ranked(&r, scenarios[i]);
		run_free(&r);
	}
}

/* round 6 of the fresh corpus: mechanisms, each with the case that must stay silent */
static void test_round6_mechanisms(void **state)
{
	static const char nt_nccl1_hang[] =	/* NCCL 1's single-process tests: no host, no Pid */
		" Using devices\n"
		"   Rank  0 uses device  0 [0x05] Tesla M40 24GB\n"
		"   Rank  1 uses device  1 [0x08] Tesla M40 24GB\n"
		"\n"
		"      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n";
	static const char nt_2018_done[] =	/* "Rank N on host device" rows, then a result */
		"#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB\n"
		"#   Rank  1 on     node03 device  1 [0x00] Tesla P100-PCIE-16GB\n"
		"#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n"
		"# Avg bus bandwidth    : 6.6972\n";
	static const char torch_rank_lines[] =	/* torch's "[Rank 0]" lines are not a device table */
		"[Rank 0] Watchdog caught collective operation timeout on device 0\n"
		"[Rank 1] Watchdog caught collective operation timeout on device 1\n";
	static const char named_symbol[] =
		"(training on H100 GPUs with a locally built NCCL)\n"
		"gcn75:2336636:2336906 [0] enqueue.cc:58 NCCL WARN Cuda failure 'named symbol not found'\n";
	static const char nccl1[] =
		"# NCCL Tests compiled with NCCL 1.0\n"
		"#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB\n"
		"#   Rank  1 on     node03 device  1 [0x00] Tesla P100-PCIE-16GB\n"
		"NCCL failure all_reduce.cu:95 'unhandled cuda error'\n";
	static const char nvls[] =
		"h:1:1 [0] NCCL INFO NCCL version 2.26.5+cuda12.4\n"
		"$ NCCL_P2P_DISABLE=1 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4\n"
		"#  Rank  0 Group  0 Pid 2081556 on   deepseek device  0 [0000:0f:00] NVIDIA H800\n"
		"#  Rank  1 Group  0 Pid 2081556 on   deepseek device  1 [0000:34:00] NVIDIA H800\n"
		"(the test stays stuck after init)\n";
	static const char nvls_pcie[] =		/* H100 PCIe boards have no NVSwitch */
		"h:1:1 [0] NCCL INFO NCCL version 2.26.5+cuda12.4\n"
		"$ NCCL_P2P_DISABLE=1 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4\n"
		"#  Rank  0 Group  0 Pid 11 on   box device  0 [0000:0f:00] NVIDIA H100 PCIe\n"
		"#  Rank  1 Group  0 Pid 11 on   box device  1 [0000:34:00] NVIDIA H100 PCIe\n"
		"(the test stays stuck after init)\n";
	static const char nvls_p2p_on[] =	/* P2P not ruled out and no NVLS line: P2P first */
		"h:1:1 [0] NCCL INFO NCCL version 2.26.5+cuda12.4\n"
		"#  Rank  0 Group  0 Pid 11 on   box device  0 [0000:0f:00] NVIDIA H800\n"
		"#  Rank  1 Group  0 Pid 11 on   box device  1 [0000:34:00] NVIDIA H800\n"
		"(the test stays stuck after init)\n";
	static const char nvls_old[] =		/* NVLS came with 2.17 */
		"h:1:1 [0] NCCL INFO NCCL version 2.16.5+cuda12.0\n"
		"$ NCCL_P2P_DISABLE=1 ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4\n"
		"#  Rank  0 Group  0 Pid 11 on   box device  0 [0000:0f:00] NVIDIA H100 80GB HBM3\n"
		"#  Rank  1 Group  0 Pid 11 on   box device  1 [0000:34:00] NVIDIA H100 80GB HBM3\n"
		"(the test stays stuck after init)\n";
	static const char p2p_nohelp[] =	/* the reporter's run with P2P off hung too */
		"#  Rank  0 Group  0 Pid 11 on   box device  0 [0x1a] NVIDIA GeForce RTX 4090\n"
		"#  Rank  1 Group  0 Pid 11 on   box device  1 [0x1b] NVIDIA GeForce RTX 4090\n"
		"it hangs; NCCL_P2P_DISABLE=1 or not makes no difference\n";
	static const char blind[] =
		"$ torchrun --nproc_per_node=8 --nnodes=2 --node_rank=0 --master_addr=10.0.0.1 --master_port=1234 train.py\n"
		"[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n";
	static const char blind_one_node[] =
		"$ torchrun --nproc_per_node=8 --nnodes=1 train.py\n"
		"[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n";
	static const char blind_with_info[] =
		"$ torchrun --nproc_per_node=8 --nnodes=2 --node_rank=0 --master_addr=10.0.0.1 --master_port=1234 train.py\n"
		"n1:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
		"[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(nt_nccl1_hang, sizeof(nt_nccl1_hang) - 1, NULL);
	f = expect(&r, "explain.hang.p2p");
	assert_non_null(strstr(f->title, "2 GPUs of this node"));
	assert_true(fix_has(f, "ACSCtl"));
	run_free(&r);

	r = explain_text(nt_2018_done, sizeof(nt_2018_done) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.p2p"));
	run_free(&r);

	r = explain_text(torch_rank_lines, sizeof(torch_rank_lines) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.p2p"));
	assert_null(findings_find(r.fs, "explain.nccltests.single_node_system"));
	run_free(&r);

	r = explain_text(named_symbol, sizeof(named_symbol) - 1, NULL);
	f = expect(&r, "nccl.cuda.failure");
	assert_non_null(strstr(f->title, "named symbol not found"));
	assert_true(fix_has(f, "NVCC_GENCODE"));
	assert_non_null(strstr(f->why, "sm_90"));
	run_free(&r);

	r = explain_text(nccl1, sizeof(nccl1) - 1, NULL);
	f = expect(&r, "nccl.version.nccl1");
	assert_non_null(strstr(f->title, "NCCL 1.0"));
	assert_true(fix_has(f, "NCCL_HOME"));
	assert_null(findings_find(r.fs, "explain.pcie.iommu"));	/* the library first */
	run_free(&r);

	r = explain_text(nvls, sizeof(nvls) - 1, NULL);
	f = expect(&r, "explain.hang.nvls");
	assert_int_equal(f->conf, CONF_MEDIUM);
	expect_setting(f, "NCCL_NVLS_ENABLE", "0");
	assert_null(findings_find(r.fs, "explain.pcie.iommu"));
	run_free(&r);

	r = explain_text(nvls_pcie, sizeof(nvls_pcie) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.nvls"));
	run_free(&r);

	r = explain_text(nvls_p2p_on, sizeof(nvls_p2p_on) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.nvls"));
	run_free(&r);

	r = explain_text(nvls_old, sizeof(nvls_old) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.hang.nvls"));
	run_free(&r);

	r = explain_text(p2p_nohelp, sizeof(p2p_nohelp) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.pcie.iommu"));
	assert_null(findings_find(r.fs, "explain.pcie.p2p"));
	run_free(&r);

	r = explain_text(blind, sizeof(blind) - 1, NULL);
	f = expect(&r, "explain.multinode.no_detail");
	assert_int_equal(f->conf, CONF_LOW);
	expect_setting(f, "NCCL_IB_DISABLE", "1");
	run_free(&r);

	r = explain_text(blind_one_node, sizeof(blind_one_node) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.multinode.no_detail"));
	run_free(&r);

	r = explain_text(blind_with_info, sizeof(blind_with_info) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.multinode.no_detail"));
	run_free(&r);
}

/* Round 7 (issue #29): wrong results over GPUDirect RDMA in the reporter's words, and "never
 * finishes" read as a hang. Each mechanism with the cases that must stay silent. */
static void test_round7_mechanisms(void **state)
{
	static const char gdr_nan[] =
		"(the allreduce across our two nodes returns NaN for every element)\n"
		"nodeA:4101:4101 [0] INFO 0 -> 4 via NET/IB/0/GDRDMA\n"
		"nodeB:5202:5202 [0] INFO 4 -> 0 via NET/IB/0/GDRDMA\n";
	static const char gdr_wrong_modern[] =
		"the sums all-reduced between the nodes give wrong results\n"
		"gpu1:77:90 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n"
		"gpu2:66:80 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [receive] via NET/IB/0/GDRDMA\n";
	static const char nan_loss[] =
		"(after 300 steps the loss is NaN)\n"
		"nodeA:4101:4101 [0] INFO 0 -> 4 via NET/IB/0/GDRDMA\n";
	static const char nan_no_gdr[] =
		"(the allreduce returns NaN)\n"
		"nodeA:4101:4101 [0] INFO 0 -> 4 via NET/IB/0\n";
	static const char gdr_quiet[] =
		"nodeA:4101:4101 [0] INFO 0 -> 4 via NET/IB/0/GDRDMA\n"
		"nodeB:5202:5202 [0] INFO 4 -> 0 via NET/IB/0/GDRDMA\n";
	static const char nan_gdr_error[] =
		"(the allreduce returns NaN)\n"
		"nodeA:4101:4101 [0] INFO 0 -> 4 via NET/IB/0/GDRDMA\n"
		"nodeA:4101:4120 [0] transport/net_ib.cc:818 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129\n";
	static const char never_finishes[] =
		"(./build/all_reduce_perf -g 2 never finishes on this workstation; lspci -vvv | grep ACSCtl prints nothing)\n";
	static const char finishes[] =
		"(./build/all_reduce_perf -g 2 on this workstation; lspci -vvv | grep ACSCtl prints nothing)\n";
	struct run r;
	const struct finding *f;

	(void)state;
	r = explain_text(gdr_nan, sizeof(gdr_nan) - 1, NULL);
	f = expect(&r, "explain.rdma.gdr_wrong_results");
	assert_int_equal(f->conf, CONF_MEDIUM);
	assert_true(fix_has(f, "NCCL_NET_GDR_LEVEL=LOC"));
	assert_true(fix_has(f, "update the GPU driver"));
	run_free(&r);

	r = explain_text(gdr_wrong_modern, sizeof(gdr_wrong_modern) - 1, NULL);
	expect(&r, "explain.rdma.gdr_wrong_results");
	run_free(&r);

	r = explain_text(nan_loss, sizeof(nan_loss) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.gdr_wrong_results"));	/* the model diverged */
	run_free(&r);

	r = explain_text(nan_no_gdr, sizeof(nan_no_gdr) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.gdr_wrong_results"));
	run_free(&r);

	r = explain_text(gdr_quiet, sizeof(gdr_quiet) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.gdr_wrong_results"));
	run_free(&r);

	r = explain_text(nan_gdr_error, sizeof(nan_gdr_error) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.rdma.gdr_wrong_results"));	/* the IB error says why */
	run_free(&r);

	r = explain_text(never_finishes, sizeof(never_finishes) - 1, NULL);
	f = expect(&r, "explain.pcie.iommu");
	assert_non_null(strstr(f->title, "hangs"));
	run_free(&r);

	r = explain_text(finishes, sizeof(finishes) - 1, NULL);
	assert_null(findings_find(r.fs, "explain.pcie.iommu"));
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lreader_lines),
		cmocka_unit_test(test_lreader_long_line_fd),
		cmocka_unit_test(test_strip_prefixes),
		cmocka_unit_test(test_strip_loose),
		cmocka_unit_test(test_decode_paste),
		cmocka_unit_test(test_decode_repr_log),
		cmocka_unit_test(test_issue13_rules),
		cmocka_unit_test(test_line_cap),
		cmocka_unit_test(test_ac),
		cmocka_unit_test(test_ac_takes_every_anchor),
		cmocka_unit_test(test_ac_classes),
		cmocka_unit_test(test_ac_random),
		cmocka_unit_test(test_table_complete),
		cmocka_unit_test(test_every_signature),
		cmocka_unit_test(test_wrong_interface),
		cmocka_unit_test(test_wrong_interface_master_flag),
		cmocka_unit_test(test_settings_kinds),
		cmocka_unit_test(test_socket_list_suggestion),
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_version_mismatch),
		cmocka_unit_test(test_version_mismatch_hosts),
		cmocka_unit_test(test_missing_rank),
		cmocka_unit_test(test_lightning),
		cmocka_unit_test(test_watchdog_desync),
		cmocka_unit_test(test_nccl232),
		cmocka_unit_test(test_torch_env_differs),
		cmocka_unit_test(test_agent_store),
		cmocka_unit_test(test_traceback),
		cmocka_unit_test(test_ifname_nomatch),
		cmocka_unit_test(test_partial_init_ifconfig),
		cmocka_unit_test(test_log_hints),
		cmocka_unit_test(test_feed_path),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_nccltests_and_bridges),
		cmocka_unit_test(test_p2p_topology),
		cmocka_unit_test(test_p2p_driver),
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_ib_flush),
		cmocka_unit_test(test_cudagraph_hang),
		cmocka_unit_test(test_cuda_error_strings),
		cmocka_unit_test(test_torchrun_signals),
		cmocka_unit_test(test_nccl_warn_scan),
		cmocka_unit_test(test_torch_release_nccl),
		cmocka_unit_test(test_hang_after_init),
		cmocka_unit_test(test_ib_unused),
		cmocka_unit_test(test_hosts_bootstrap),
		cmocka_unit_test(test_table_text),
		cmocka_unit_test(test_peer_address),
		cmocka_unit_test(test_prose_version_abort),
		cmocka_unit_test(test_duplicate_gpu_launcher),
		cmocka_unit_test(test_sig_variants),
		cmocka_unit_test(test_shm_container),
		cmocka_unit_test(test_container_hosts),
		cmocka_unit_test(test_ib_error_not_interface),
		cmocka_unit_test(test_known_bug_boot_scan),
		cmocka_unit_test(test_gpu_arch),
		cmocka_unit_test(test_wrong_results),
		cmocka_unit_test(test_topo_attribute),
		cmocka_unit_test(test_k8s_sidecar),
		cmocka_unit_test(test_nccltests_launch),
		cmocka_unit_test(test_cross_host),
		cmocka_unit_test(test_ifname_assignments),
		cmocka_unit_test(test_known_bug_facts),
		cmocka_unit_test(test_known_bug_rows),
		cmocka_unit_test(test_known_bug_no_version),
		cmocka_unit_test(test_known_bug_setting_values),
		cmocka_unit_test(test_known_bug_silences_generic),
		cmocka_unit_test(test_wrong_results_spanning_hosts),
		cmocka_unit_test(test_nccltests_hang_spanning_hosts),
		cmocka_unit_test(test_one_host_rules_spanning_hosts),
		cmocka_unit_test(test_p2p_topology_spanning_hosts),
		cmocka_unit_test(test_virtual_iface),
		cmocka_unit_test(test_subnet_overlap),
		cmocka_unit_test(test_hca_differs),
		cmocka_unit_test(test_env_differs),
		cmocka_unit_test(test_launch_lines),
		cmocka_unit_test(test_no_cause),
		cmocka_unit_test(test_known_bugs_complete),
		cmocka_unit_test(test_ngc_container),
		cmocka_unit_test(test_ib_cuda_tables),
		cmocka_unit_test(test_hosts_facts),
		cmocka_unit_test(test_round6_mechanisms),
		cmocka_unit_test(test_round7_mechanisms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
