/*
 * attach across nodes: the stack summary a node sends (its encoder and the decoder of a peer's
 * bytes), the groups of every node's ranks, and a real rendezvous on loopback whose master runs
 * attach_across() while this thread plays the workers: one answers with its ranks, one sends a
 * summary the decoder refuses, one joins and never answers, one dies once joined. The master's
 * report names each, and the one that answered is in it.
 */
#include "cmocka_helpers.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attach/across.h"
#include "attach/jobstacks.h"
#include "net/sock.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

static struct js_rank rank_of(int rank, int pid, const char *host, enum js_kind k,
			      const char *doing, const char *stack)
{
	struct js_rank r = { .rank = rank, .pid = pid, .kind = k, .doing = (char *)doing,
			     .stack = (char *)stack };

	snprintf(r.host, sizeof(r.host), "%s", host);
	return r;
}

static void test_round_trip(void **state)
{
	struct js_rank v[2] = {
		rank_of(9, 4242, "10.0.0.3", JS_IDLE, "it is idle: state S; it is in f (a.py:3)",
			"in <module> (train.py:9) → f (a.py:3)"),
		rank_of(-1, 7, "10.0.0.3", JS_BUSY, "", ""),
	};
	struct js_node n = { 0 };
	struct err e = ERR_INIT;
	json_t *j = js_encode(v, 2);
	char *text = json_dumps(j, 0);
	json_t *back = json_loads(text, 0, NULL);

	(void)state;
	assert_int_equal(js_decode(back, &n, &e), 0);
	assert_int_equal(n.n, 2);
	assert_int_equal(n.v[0].rank, 9);
	assert_int_equal(n.v[0].pid, 4242);
	assert_string_equal(n.v[0].host, "10.0.0.3");
	assert_int_equal(n.v[0].kind, JS_IDLE);
	assert_string_equal(n.v[0].stack, "in <module> (train.py:9) → f (a.py:3)");
	assert_int_equal(n.v[1].rank, -1);
	assert_int_equal(n.v[1].kind, JS_BUSY);
	assert_string_equal(n.v[1].doing, "");
	js_node_release(&n);
	json_decref(back);
	free(text);
	json_decref(j);
}

/* Each hostile summary: refused with a reason, nothing kept. */
static void test_hostile(void **state)
{
	static const struct {
		const char *json, *why;
	} bad[] = {
		{ "[]", "not an object" },
		{ "{\"v\": 2, \"ranks\": []}", "not version 1" },
		{ "{\"v\": 1}", "no 'ranks' array" },
		{ "{\"v\": 1, \"ranks\": [1]}", "not an object" },
		{ "{\"v\": 1, \"ranks\": [{\"rank\": 0, \"pid\": 0, \"host\": \"h\", \"kind\": \"idle\","
		  " \"doing\": \"\", \"stack\": \"\"}]}", "'pid' is not an integer" },
		{ "{\"v\": 1, \"ranks\": [{\"rank\": 0, \"pid\": 5, \"host\": \"h\", \"kind\": \"weird\","
		  " \"doing\": \"\", \"stack\": \"\"}]}", "none of the known ones" },
		{ "{\"v\": 1, \"ranks\": [{\"rank\": 0, \"pid\": 5, \"host\": \"h\", \"kind\": \"idle\","
		  " \"doing\": \"\\u001b[2J\", \"stack\": \"\"}]}", "control character" },
		{ "{\"v\": 1, \"ranks\": [{\"rank\": 0, \"pid\": 5, \"host\": \"h\", \"kind\": \"idle\","
		  " \"doing\": \"a\\u0000b\", \"stack\": \"\"}]}", "control character" },
		{ "{\"v\": 1, \"ranks\": [{\"rank\": 0, \"pid\": 5, \"host\": 3, \"kind\": \"idle\","
		  " \"doing\": \"\", \"stack\": \"\"}]}", "'host' is not a string" },
		{ "{\"v\": 1, \"ranks\": [{\"rank\": 1e3, \"pid\": 5, \"host\": \"h\", \"kind\": \"idle\","
		  " \"doing\": \"\", \"stack\": \"\"}]}", "'rank' is not an integer" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i].json, JSON_ALLOW_NUL, NULL);
		struct js_node n = { 0 };
		struct err e = ERR_INIT;

		assert_non_null(j);
		assert_int_equal(js_decode(j, &n, &e), -1);
		if (!strstr(e.msg, bad[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, e.msg, bad[i].why);
		assert_null(n.v);
		assert_int_equal(n.n, 0);
		json_decref(j);
	}
	{
		/* a host longer than the field, a text past the cap, too many ranks */
		struct js_rank r = rank_of(0, 5, "h", JS_IDLE, "", "");
		char *big = calloc(JS_TEXT_MAX + 2, 1);
		struct js_node n = { 0 };
		struct err e = ERR_INIT;
		json_t *j, *arr = json_array();

		memset(big, 'x', JS_TEXT_MAX + 1);
		r.stack = big;
		j = js_encode(&r, 1);	/* the encoder cuts its own texts to the cap */
		assert_int_equal(js_decode(j, &n, &e), 0);
		assert_string_equal(n.v[0].stack, "…");
		js_node_release(&n);
		json_object_set_new(json_array_get(json_object_get(j, "ranks"), 0), "stack",
				    json_string(big));
		assert_int_equal(js_decode(j, &n, &e), -1);
		assert_non_null(strstr(e.msg, "'stack' is 4097 bytes"));
		json_decref(j);
		for (int i = 0; i <= JS_RANKS_MAX; i++)
			json_array_append_new(arr, json_object());
		j = json_pack("{s:i, s:o}", "v", 1, "ranks", arr);
		assert_int_equal(js_decode(j, &n, &e), -1);
		assert_non_null(strstr(e.msg, "lists 1025 ranks"));
		json_decref(j);
		free(big);
	}
}

/* A 256-frame stack's phrase is over the cap: the innermost frames are what is kept. */
static void test_deep_stack(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct js_rank r;
	struct js_node n = { 0 };
	struct err e = ERR_INIT;
	json_t *j;

	(void)state;
	strbuf_addstr(&sb, "in <module> (train.py:1)");
	for (int i = 0; i < 255; i++)
		strbuf_addf(&sb, " → recurse_%d (deep.py:%d)", i, i + 10);
	assert_true(sb.len >= JS_TEXT_MAX);
	r = rank_of(0, 5, "h", JS_BUSY, "it is running", sb.buf);
	j = js_encode(&r, 1);
	assert_int_equal(js_decode(j, &n, &e), 0);
	assert_true(strlen(n.v[0].stack) < JS_TEXT_MAX);
	assert_true(!strncmp(n.v[0].stack, "… → recurse_", strlen("… → recurse_")));
	assert_non_null(strstr(n.v[0].stack, "→ recurse_254 (deep.py:264)"));
	js_node_release(&n);
	json_decref(j);
	strbuf_release(&sb);
}

/* 3 nodes: the 3 ranks in all_reduce first, the odd one last; a rank without a stack left out. */
static void test_groups(void **state)
{
	struct js_rank a[2] = { rank_of(0, 10, "h0", JS_IDLE, "", "in all_reduce (train.py:88)"),
				rank_of(1, 11, "h0", JS_IDLE, "", "in all_reduce (train.py:88)") };
	struct js_rank b[2] = { rank_of(2, 20, "h1", JS_IDLE, "", "in all_reduce (train.py:88)"),
				rank_of(3, 21, "h1", JS_BUSY, "", "") };
	struct js_rank c[1] = { rank_of(9, 30, "h2", JS_IDLE, "",
					"in __next__ (dataloader.py:631)") };
	struct js_node nodes[3] = {
		{ .node = 0, .name = "node-0", .answered = 1, .v = a, .n = 2 },
		{ .node = 1, .name = "node-1", .answered = 1, .v = b, .n = 2 },
		{ .node = 2, .name = "node-3", .answered = 1, .v = c, .n = 1 },
	};
	struct js_group *g;
	size_t ng = js_groups(nodes, 3, &g);
	json_t *j;

	(void)state;
	assert_int_equal(ng, 2);
	assert_string_equal(g[0].stack, "in all_reduce (train.py:88)");
	assert_int_equal(g[0].n, 3);
	assert_string_equal(g[1].stack, "in __next__ (dataloader.py:631)");
	assert_int_equal(g[1].n, 1);
	j = js_groups_json(nodes, g, ng);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(
		json_array_get(j, 1), "ranks"), 0), "rank")), 9);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(
		json_array_get(j, 1), "ranks"), 0), "node")), "node-3");
	json_decref(j);
	js_groups_release(g, ng);
}

/* ---- a real rendezvous on loopback ---- */

struct master_run {
	struct attach_opts o;
	struct across_opts x;
	json_t *doc;
	int code, rc;
	pthread_t th;
};

static void *master_main(void *arg)
{
	struct master_run *m = arg;
	struct err e = ERR_INIT;

	m->rc = attach_across(&m->o, &m->x, &m->doc, &m->code, &e);
	if (m->rc < 0)
		print_message("attach_across: %s\n", e.msg);
	return NULL;
}

static int free_port(void)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 1, NULL, &e), port = net_local_port(lfd);

	assert_true(lfd >= 0);
	close(lfd);
	return port;
}

static struct rdv *worker(int port, int rank, int nnodes, const char *host)
{
	struct rdv_opts ro;
	struct rdv *r;
	struct err e = ERR_INIT;

	rdv_opts_init(&ro);
	ro.master_host = "127.0.0.1";
	ro.master_port = port;
	ro.rank = rank;
	ro.nnodes = nnodes;
	ro.host = host;
	ro.join_timeout_ms = 8000;
	ro.token = "t";
	ro.token_len = 1;
	r = rdv_new(&ro);
	assert_int_equal(rdv_start(r, &e), 0);
	return r;
}

static const json_t *node_of(const json_t *payload, int rank)
{
	const json_t *n;
	size_t i;

	json_array_foreach(json_object_get(payload, "nodes"), i, n)
		if (json_integer_value(json_object_get(n, "node_rank")) == rank)
			return n;
	return NULL;
}

static int has_finding(const json_t *doc, const char *id, const char *in_title)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(doc, "findings"), i, f)
		if (!strcmp(json_string_value(json_object_get(f, "id")), id) &&
		    (!in_title || strstr(json_string_value(json_object_get(f, "title")), in_title)))
			return 1;
	return 0;
}

static void test_across_loopback(void **state)
{
	struct master_run m = { 0 };
	struct js_rank mine = rank_of(9, 4242, "10.0.0.3", JS_IDLE, "it is idle",
				      "in <module> (job.py:49) → load_batch (job.py:39)");
	struct rdv *w1, *w2, *w3, *w4;
	struct err e = ERR_INIT;
	json_t *none = NULL, *rep = NULL, *payload, *g;
	int port = free_port(), code = -1;
	int64_t t0 = time_now_ms();

	(void)state;
	/* the master: no RAS, no dumps; its own collection says nothing, the nodes' words do */
	m.o.proc_root = "/proc";
	m.o.no_stacks = 1;
	m.o.want_json = 1;
	attach_opts_defaults(&m.o);
	rdv_opts_init(&m.x.rdv);
	m.x.rdv.master_host = "127.0.0.1";
	m.x.rdv.listen_addr = "127.0.0.1";
	m.x.rdv.master_port = port;
	m.x.rdv.rank = 0;
	m.x.rdv.nnodes = 5;
	m.x.rdv.host = "node-0";
	m.x.rdv.join_timeout_ms = 8000;
	m.x.rdv.token = "t";
	m.x.rdv.token_len = 1;
	m.x.answer_ms = 3000;
	assert_int_equal(pthread_create(&m.th, NULL, master_main, &m), 0);

	w1 = worker(port, 1, 5, "node-1");
	w2 = worker(port, 2, 5, "node-2");
	w3 = worker(port, 3, 5, "node-3");
	w4 = worker(port, 4, 5, "node-4");
	assert_int_equal(rdv_wait_joined(w1, &e), 0);
	assert_int_equal(rdv_wait_joined(w2, &e), 0);
	assert_int_equal(rdv_wait_joined(w3, &e), 0);
	assert_int_equal(rdv_wait_joined(w4, &e), 0);
	/* node 4 dies once joined: it leaves the run, which goes on without it */
	rdv_free(w4);
	/* node 1 answers; node 2's summary has a terminal escape in it; node 3 never answers */
	assert_int_equal(rdv_gather(w1, "stacks", 0, js_encode(&mine, 1), 0, &none, &e), 0);
	assert_int_equal(rdv_gather(w2, "stacks", 0,
				    json_pack("{s:i, s:[{s:i, s:i, s:s, s:s, s:s, s:s}]}", "v", 1,
					      "ranks", "rank", 1, "pid", 5, "host", "h", "kind",
					      "idle", "doing", "\x1b[2J", "stack", ""), 0, &none, &e),
			 0);
	assert_int_equal(rdv_report(w1, &rep, NULL, &code, 20000, &e), 0);
	/* bounded by the answer budget, not by the silent node (slack for a loaded box) */
	assert_true(time_now_ms() - t0 < 15000);
	rdv_finish(w1);
	rdv_free(w1);
	rdv_finish(w2);
	rdv_free(w2);
	rdv_finish(w3);
	rdv_free(w3);
	pthread_join(m.th, NULL);
	assert_int_equal(m.rc, 0);

	/* the worker got the master's report, the same document */
	assert_true(json_equal(rep, m.doc));
	assert_int_equal(code, m.code);
	payload = json_object_get(rep, "payload");
	g = json_array_get(json_object_get(payload, "job_stack_groups"), 0);
	assert_string_equal(json_string_value(json_object_get(g, "stack")),
			    "in <module> (job.py:49) → load_batch (job.py:39)");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(g, "ranks"), 0), "node")), "node-1");
	assert_true(json_is_true(json_object_get(node_of(payload, 1), "answered")));
	assert_false(json_is_true(json_object_get(node_of(payload, 2), "answered")));
	assert_non_null(strstr(json_string_value(json_object_get(node_of(payload, 2), "error")),
			       "control character"));
	assert_string_equal(json_string_value(json_object_get(node_of(payload, 3), "error")),
			    "sent no stacks in time");
	assert_string_equal(json_string_value(json_object_get(node_of(payload, 4), "error")),
			    "died or went silent before it answered");
	assert_true(has_finding(rep, "cluster.peer.dead", "node-4"));
	assert_true(has_finding(rep, "attach.peer.stacks", "node 2 (node-2)"));
	assert_true(has_finding(rep, "cluster.peer.slow", NULL));
	json_decref(rep);
	json_decref(m.doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_deep_stack),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_across_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
