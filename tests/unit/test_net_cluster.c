/*
 * net/cluster_run: the check of a peer's facts (strict), and a whole run of three nodes in one
 * process over loopback — the master drives connect, MTU, a small port scan and the bandwidth
 * rounds through the workers' agents, and every node gets the same report.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster_loopback.h"
#include "cmocka_helpers.h"
#include "ncclcheck.h"
#include "cluster/run.h"
#include "net/frame.h"
#include "net/proto.h"
#include "net/sock.h"
#include "report/render.h"
#include "model/node.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static const char *good =
	"{\"schema_version\":1,\"host\":{\"hostname\":\"n1\"},\"net\":{\"interfaces\":["
	"{\"name\":\"lo\",\"up\":true,\"addrs\":[{\"addr\":\"127.0.0.1\",\"family\":4,"
	"\"class\":\"private\"}]}]},\"sysctl\":{\"ip_local_port_range\":[45000,45063]}}";

static void facts_check(void **state)
{
	static const struct { const char *json, *want; } bad[] = {
		{ "[]", "is a JSON object" },
		{ "{}", "'schema_version' is missing" },
		{ "{\"schema_version\":99,\"host\":{},\"net\":{}}", "schema_version 99" },
		{ "{\"schema_version\":1,\"host\":{\"hostname\":7},\"net\":{}}", "'host.hostname' is not" },
		{ "{\"schema_version\":1,\"host\":{\"hostname\":\"\"},\"net\":{}}",
		  "'host.hostname' is empty" },
		{ "{\"schema_version\":1,\"host\":{}}", "'net' is missing" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{\"interfaces\":{}}}", "'net.interfaces' is not an array" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{\"interfaces\":[{\"name\":\"averyveryverylongname\"}]}}",
		  "'net.interfaces.0.name'" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{\"interfaces\":[{\"name\":\"e\",\"up\":1}]}}",
		  "'net.interfaces[0].up' is not a boolean" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{\"interfaces\":[{\"name\":\"e\",\"virtual\":1}]}}",
		  "'net.interfaces[0].virtual' is not a boolean" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{\"interfaces\":[{\"name\":\"e\",\"addrs\":"
		  "[{\"addr\":\"10.0.0.300\",\"family\":4}]}]}}", "'net.interfaces.0.addrs.0.addr' is not a numeric" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{\"interfaces\":[{\"name\":\"e\",\"addrs\":"
		  "[{\"addr\":\"fe80::1\"}]}]}}", "'net.interfaces.0.addrs.0' is not" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{},\"sysctl\":{\"ip_local_port_range\":[9,3]}}",
		  "'sysctl.ip_local_port_range' is [9, 3]" },
		{ "{\"schema_version\":1,\"host\":{},\"net\":{},\"gpus\":{}}", "'facts.gpus' is not an array" },
	};
	struct err e = ERR_INIT;
	struct node_model *m;
	json_t *j = json_lit(good);

	(void)state;
	m = cluster_peer_model(j, &e);
	assert_non_null(m);
	assert_string_equal(m->hostname, "n1");
	assert_int_equal(m->nifaces, 1);
	assert_int_equal(m->ports.lo, 45000);
	node_model_free(m);
	json_decref(j);
	/* unknown markers are facts too: a node that could not read its interfaces */
	j = json_lit("{\"schema_version\":1,\"host\":{\"hostname\":{\"unknown\":\"x\"}},"
		     "\"net\":{\"interfaces\":{\"unknown\":\"no /sys\"}}}");
	m = cluster_peer_model(j, &e);
	assert_non_null(m);
	assert_null(m->hostname);
	node_model_free(m);
	json_decref(j);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		j = json_lit(bad[i].json);
		m = cluster_peer_model(j, &e);
		if (m)
			fail_msg("accepted: %s", bad[i].json);
		if (!strstr(e.msg, bad[i].want))
			fail_msg("'%s' lacks '%s'", e.msg, bad[i].want);
		assert_int_equal(e.code, ERR_PEER);
		json_decref(j);
	}
}

static json_t *fake_probe(void *arg)
{
	struct node_run *nr = arg;
	json_t *f = json_lit(good);

	json_object_set_new(json_object_get(f, "host"), "hostname", json_string(nr->host));
	return f;
}

static int hook_calls;
static size_t hook_links;

static void hook(const struct cluster_input *in, struct findings *fs)
{
	hook_calls++;
	hook_links = in->nlinks;
	assert_int_equal(in->n, 3);
	assert_string_equal(in->names[2], "node-2");
	assert_non_null(in->models[1]);
	(void)fs;
}

static void three_nodes_in_process(void **state)
{
	int port = cluster_loopback_port();
	struct node_run nodes[3];
	int64_t t0 = time_now_ms();

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct node_run *nr = &nodes[i];

		cluster_loopback_init(nr, i, 3, port, fake_probe);
		nr->o.pings = 3;
		nr->o.bw_ms = 100;
		nr->o.xrules = i == 0 ? hook : NULL;
		cluster_loopback_start(nr);
	}
	for (int i = 0; i < 3; i++)
		pthread_join(nodes[i].th, NULL);
	assert_true(time_now_ms() - t0 < 20000);
	for (int i = 0; i < 3; i++) {
		json_t *r = nodes[i].report, *links = json_object_get(r, "links");
		json_t *f;
		size_t k;
		int connects = 0, scans = 0, bws = 0;

		assert_non_null(r);
		if (nodes[i].code != EXIT_CLEAN)
			render_json_print(stdout, r);
		assert_int_equal(nodes[i].code, EXIT_CLEAN);
		assert_int_equal(json_array_size(json_object_get(r, "nodes")), 3);
		/* 3 pairs, both ways, one address: 6 connects, 6 MTU probes, 6 scans */
		json_array_foreach(links, k, f) {
			const char *t = json_string_value(json_object_get(f, "test"));

			assert_true(json_is_true(json_object_get(f, "ran")));
			connects += !strcmp(t, "connect");
			scans += !strcmp(t, "scan");
			bws += !strcmp(t, "bw");
		}
		assert_int_equal(connects, 6);
		assert_int_equal(scans, 6);
		assert_true(bws >= 6);	/* ring next, ring previous, shifted pairings */
		assert_true(json_equal(json_object_get(r, "findings"),
				       json_object_get(nodes[0].report, "findings")));
		/* the master wrote its links one at a time on the wire (struct cluster_links): the
		 * workers got the very array the master's own document holds */
		assert_true(json_equal(links, json_object_get(nodes[0].report, "links")));
	}
	for (int i = 0; i < 3; i++)
		json_decref(nodes[i].report);
	assert_int_equal(hook_calls, 1);
	assert_true(hook_links >= 24);
}

/* node 1 sends facts of another schema: the master says which node, and judges the rest */
static json_t *stale_probe(void *arg)
{
	struct node_run *nr = arg;
	json_t *f = fake_probe(arg);

	if (!strcmp(nr->host, "node-1"))
		json_object_set_new(f, "schema_version", json_integer(99));
	return f;
}

static void peer_with_unusable_facts(void **state)
{
	int port = cluster_loopback_port();
	struct node_run nodes[2];
	json_t *f;
	size_t k;
	int seen = 0;

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct node_run *nr = &nodes[i];

		cluster_loopback_init(nr, i, 2, port, stale_probe);
		nr->o.connect = nr->o.mtu = nr->o.ports = nr->o.bw = 0;
		cluster_loopback_start(nr);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(nodes[i].th, NULL);
	assert_non_null(nodes[0].report);
	assert_int_equal(nodes[0].code, EXIT_FINDINGS);
	json_array_foreach(json_object_get(nodes[0].report, "findings"), k, f) {
		const char *title = json_string_value(json_object_get(f, "title"));

		if (strcmp(json_string_value(json_object_get(f, "id")), "cluster.peer.facts"))
			continue;
		seen++;
		assert_string_equal(json_string_value(json_object_get(f, "severity")), "error");
		assert_non_null(strstr(title, "node-1 (rank 1) sent facts this node cannot use"));
		assert_non_null(strstr(title, "schema_version 99"));
	}
	assert_int_equal(seen, 1);
	for (int i = 0; i < 2; i++)
		json_decref(nodes[i].report);
}

struct master_run {
	struct cluster_opts o;
	json_t *report;
	int code;
};

static void *master_main(void *arg)
{
	struct master_run *mr = arg;
	struct err e = ERR_INIT;

	mr->code = cluster_run(&mr->o, &mr->report, &e);
	if (mr->code < 0)
		print_message("cluster_run: %s\n", e.msg);
	return NULL;
}

/* A raw hello (no token, so AUTH carries nothing); the master's answer to it, or to the AUTH. */
static void raw_hello(int port, long version, long rank, const char *host, const char *want_code)
{
	struct err e = ERR_INIT;
	struct msg h, in;
	int fd = -1;

	for (int i = 0; i < 100 && fd < 0; i++) {	/* the master may not listen yet */
		fd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 1000, NULL, &e);
		if (fd < 0)
			usleep(20000);
	}
	assert_true(fd >= 0);
	msg_init(&h, MSG_HELLO);
	h.u.hello.version = version;
	h.u.hello.rank = rank;
	h.u.hello.nnodes = 2;
	h.u.hello.host = (char *)host;
	h.u.hello.tool = (char *)"ncclcheck 9.9";
	strcpy(h.u.hello.nonce, "00112233445566778899aabbccddeeff");
	assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 2000, &e), 0);
	if (msg_recv(fd, 65536, time_now_ms() + 2000, &in, &e) < 0)
		fail_msg("%s: no answer to the hello: %s", host, e.msg);
	if (in.type == MSG_CHALLENGE) {
		msg_release(&in);
		msg_init(&h, MSG_AUTH);
		assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 2000, &e), 0);
		assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 2000, &in, &e), 0);
	}
	if (!strcmp(want_code, "welcome")) {	/* joins, then gives up with a code of its own */
		assert_int_equal(in.type, MSG_WELCOME);
		msg_release(&in);
		msg_init(&h, MSG_ABORT);
		h.u.abort.code = (char *)"interrupted";
		h.u.abort.message = (char *)"the operator pressed Ctrl-C";
		h.u.abort.rank = rank;
		assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 2000, &e), 0);
		usleep(200 * 1000);
	} else {
		assert_int_equal(in.type, MSG_REJECT);
		assert_string_equal(in.u.reject.code, want_code);
		msg_release(&in);
	}
	close(fd);
}

static const json_t *report_finding(const json_t *report, const char *id)
{
	const json_t *f;
	size_t k;

	json_array_foreach(json_object_get(report, "findings"), k, f)
		if (!strcmp(json_string_value(json_object_get(f, "id")), id))
			return f;
	fail_msg("the master's report has no '%s'", id);
	return NULL;
}

/* A master whose rendezvous a raw peer spoils (code NULL: a peer that never speaks); its report. */
static json_t *master_against(long version, long rank, const char *host, const char *code)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 1, NULL, &e), port = net_local_port(lfd);
	struct master_run mr;
	struct node_run me;
	pthread_t th;

	close(lfd);
	memset(&mr, 0, sizeof(mr));
	memset(&me, 0, sizeof(me));
	snprintf(me.host, sizeof(me.host), "node-0");
	cluster_opts_init(&mr.o);
	mr.o.rdv.master_host = "127.0.0.1";
	mr.o.rdv.listen_addr = "127.0.0.1";
	mr.o.rdv.master_port = port;
	mr.o.rdv.rank = 0;
	mr.o.rdv.nnodes = 2;
	mr.o.rdv.host = me.host;
	mr.o.rdv.join_timeout_ms = 2000;
	mr.o.rdv.handshake_ms = 500;
	mr.o.probe = fake_probe;
	mr.o.probe_arg = &me;
	mr.o.connect = mr.o.mtu = mr.o.ports = mr.o.bw = 0;
	assert_int_equal(pthread_create(&th, NULL, master_main, &mr), 0);
	if (code) {
		raw_hello(port, version, rank, host, code);
		pthread_join(th, NULL);
	} else {	/* connects and says nothing until the master gives up */
		int fd = -1;

		for (int i = 0; i < 100 && fd < 0; i++) {
			fd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 1000, NULL, &e);
			if (fd < 0)
				usleep(20000);
		}
		assert_true(fd >= 0);
		pthread_join(th, NULL);
		close(fd);
	}
	assert_non_null(mr.report);
	assert_true(mr.code == EXIT_FINDINGS || mr.code == EXIT_CANNOT_RUN);
	return mr.report;
}

/* Peers of another protocol version, of a rank outside the job, one that joins and gives up with
 * a code the master does not know, and one that never speaks. */
static void master_names_bad_peers(void **state)
{
	json_t *r;
	const json_t *f;

	(void)state;
	r = master_against(PROTO_VERSION + 1, 1, "newer", "version");
	f = report_finding(r, "cluster.rdv.version");
	assert_string_equal(json_string_value(json_object_get(f, "severity")), "error");
	assert_non_null(strstr(json_string_value(json_object_get(f, "title")), "ncclcheck 9.9"));
	json_decref(r);

	r = master_against(PROTO_VERSION, 5, "stray", "bad_rank");
	f = report_finding(r, "cluster.rdv.bad_rank");
	assert_string_equal(json_string_value(json_object_get(f, "severity")), "error");
	assert_non_null(strstr(json_string_value(json_object_get(f, "title")), "claims rank 5"));
	json_decref(r);

	r = master_against(PROTO_VERSION, 1, "quitter", "welcome");
	f = report_finding(r, "cluster.rdv.aborted");
	assert_string_equal(json_string_value(json_object_get(f, "severity")), "error");
	assert_non_null(strstr(json_string_value(json_object_get(f, "title")),
			       "the operator pressed Ctrl-C"));
	json_decref(r);

	r = master_against(0, 0, NULL, NULL);
	f = report_finding(r, "cluster.peer.stalled");
	assert_string_equal(json_string_value(json_object_get(f, "severity")), "warn");
	assert_non_null(strstr(json_string_value(json_object_get(f, "title")), "sent no hello"));
	report_finding(r, "cluster.rdv.missing");
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(facts_check),
		cmocka_unit_test(three_nodes_in_process),
		cmocka_unit_test(peer_with_unusable_facts),
		cmocka_unit_test(master_names_bad_peers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
