/*
 * net/rdv over loopback: a healthy join and the collectives; then every hostile or broken peer the
 * master must survive and name — garbage, an oversized frame, a stalled client, a wrong token,
 * two nodes on one rank, a wrong count, another protocol version, a node that dies or goes
 * silent mid-run, a master that goes silent. Every case is bounded by short deadlines.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "cmocka_helpers.h"
#include "net/auth.h"
#include "net/frame.h"
#include "net/proto.h"
#include "rdv/rdv.h"
#include "net/sock.h"
#include "util/timeutil.h"

static int free_port(void)
{
	struct err e = ERR_INIT;
	int fd = net_listen("127.0.0.1", 0, 1, NULL, &e), port = net_local_port(fd);

	close(fd);
	return port;
}

static struct rdv *node_cap(int port, int rank, int nnodes, const char *token, long join_ms,
			    size_t frame_cap)
{
	struct rdv_opts o;
	char host[32];

	rdv_opts_init(&o);
	snprintf(host, sizeof(host), "node-%d", rank);
	o.master_host = "127.0.0.1";
	o.listen_addr = "127.0.0.1";
	o.master_port = port;
	o.rank = rank;
	o.nnodes = nnodes;
	o.host = host;
	o.join_timeout_ms = join_ms;
	o.heartbeat_ms = 100;
	o.dead_ms = 600;
	o.handshake_ms = 400;
	o.token = token;
	o.token_len = token ? strlen(token) : 0;
	o.frame_cap = frame_cap;
	return rdv_new(&o);
}

static struct rdv *node(int port, int rank, int nnodes, const char *token, long join_ms)
{
	return node_cap(port, rank, nnodes, token, join_ms, 0);
}

static int has_event(struct rdv *r, enum rdv_event_kind k, const char *text)
{
	struct rdv_event *ev;
	size_t n = rdv_events(r, &ev);
	int found = 0;

	for (size_t i = 0; i < n && !found; i++)
		found = ev[i].kind == k && (!text || strstr(ev[i].msg, text));
	if (!found)
		for (size_t i = 0; i < n; i++)
			print_message("  event %s: %s\n", rdv_event_name(ev[i].kind), ev[i].msg);
	free(ev);
	return found;
}

static void start(struct rdv *r)
{
	struct err e = ERR_INIT;

	if (rdv_start(r, &e) < 0)
		fail_msg("start: %s", e.msg);
}

static void healthy_three_nodes(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 3, "tok", 5000), *w1 = node(port, 1, 3, "tok", 5000),
		   *w2 = node(port, 2, 3, "tok", 5000);
	struct err e = ERR_INIT;
	json_t *all = NULL, *plan, *got = NULL, *rep;
	int code = 0;
	int64_t t0 = time_now_ms();

	(void)state;
	start(m);
	start(w2);
	start(w1);
	assert_int_equal(rdv_wait_joined(w1, &e), 0);
	assert_int_equal(rdv_wait_joined(w2, &e), 0);
	assert_int_equal(rdv_wait_joined(m, &e), 0);
	assert_int_equal(rdv_joined(m), 3);
	assert_string_equal(rdv_member_host(m, 2), "node-2");
	assert_non_null(strstr(rdv_member_addr(m, 1), "127.0.0.1:"));

	assert_int_equal(rdv_gather(w2, "facts", 0, json_pack("{s:i}", "n", 2), 2000, &all, &e), 0);
	assert_null(all);
	assert_int_equal(rdv_gather(w1, "facts", 0, json_pack("{s:i}", "n", 1), 2000, &all, &e), 0);
	assert_int_equal(rdv_gather(m, "facts", 0, json_pack("{s:i}", "n", 0), 2000, &all, &e), 0);
	assert_int_equal(json_array_size(all), 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(json_integer_value(json_object_get(json_array_get(all, i), "n")), i);
	json_decref(all);

	plan = json_pack("[i,i]", 7, 8);
	assert_int_equal(rdv_bcast(m, "connect", 1, &plan, 2000, &e), 0);
	json_decref(plan);
	assert_int_equal(rdv_bcast(w1, "connect", 1, &got, 2000, &e), 0);
	assert_int_equal(json_integer_value(json_array_get(got, 1)), 8);
	json_decref(got);
	/* a plan that never comes is a bounded wait */
	assert_int_equal(rdv_bcast(w2, "other", 0, &got, 200, &e), -1);
	assert_int_equal(e.code, ERR_TIMEOUT);

	assert_int_equal(rdv_gather(w1, "connect", 1, json_array(), 2000, &all, &e), 0);
	assert_int_equal(rdv_gather(w2, "connect", 1, json_array(), 2000, &all, &e), 0);
	assert_int_equal(rdv_gather(m, "connect", 1, json_array(), 2000, &all, &e), 0);
	json_decref(all);

	rep = json_pack("{s:s}", "verdict", "ok");
	code = 1;
	assert_int_equal(rdv_report(m, &rep, NULL, &code, 2000, &e), 0);
	json_decref(rep);
	code = 0;
	assert_int_equal(rdv_report(w2, &got, NULL, &code, 2000, &e), 0);
	assert_int_equal(code, 1);
	assert_string_equal(json_string_value(json_object_get(got, "verdict")), "ok");
	json_decref(got);
	assert_int_equal(rdv_report(w1, &got, NULL, &code, 2000, &e), 0);
	json_decref(got);
	rdv_finish(w1);
	rdv_finish(w2);
	rdv_finish(m);
	assert_false(has_event(m, RDV_EV_DEAD, NULL));
	assert_false(has_event(w1, RDV_EV_DEAD, NULL));
	assert_true(time_now_ms() - t0 < 3000);
	rdv_free(w1);
	rdv_free(w2);
	rdv_free(m);
}

/*
 * A report 16 times the frame cap reaches every worker whole (as a FRAME_MORE series), encoded
 * once for all of them; the master waits for every worker's bye, and nobody is declared dead.
 */
static void report_over_one_frame(void **state)
{
	enum { N = 4 };
	int port = free_port();
	struct rdv *n[N];
	struct err e = ERR_INIT;
	json_t *rep = json_array(), *doc, *got;
	int code = 1;

	(void)state;
	for (int i = 0; i < N; i++) {
		n[i] = node_cap(port, i, N, "tok", 5000, 64 << 10);
		start(n[i]);
	}
	for (int i = 0; i < N; i++)
		assert_int_equal(rdv_wait_joined(n[i], &e), 0);
	for (int i = 0; i < 16 << 10; i++)	/* about 1 MiB */
		json_array_append_new(rep, json_pack("{s:i, s:s}", "i", i, "pad",
						     "0123456789abcdef0123456789abcdef0123456789"));
	doc = json_pack("{s:o}", "links", rep);
	assert_int_equal(rdv_report(n[0], &doc, NULL, &code, 2000, &e), 0);
	for (int i = 1; i < N; i++) {
		code = 0;
		assert_int_equal(rdv_report(n[i], &got, NULL, &code, 5000, &e), 0);
		assert_int_equal(code, 1);
		assert_true(json_equal(got, doc));
		json_decref(got);
	}
	for (int i = N - 1; i >= 0; i--)
		rdv_finish(n[i]);
	for (int i = 0; i < N; i++) {
		assert_false(has_event(n[i], RDV_EV_DEAD, NULL));
		rdv_free(n[i]);
	}
	json_decref(doc);
}

static int raw(int port)
{
	struct err e = ERR_INIT;
	int fd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 1000, NULL, &e);

	assert_true(fd >= 0);
	return fd;
}

/* Garbage, an oversized frame and a stalled client at once: all dropped, the join still works. */
static void hostile_clients_dropped(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 2, NULL, 5000), *w = node(port, 1, 2, NULL, 5000);
	struct err e = ERR_INIT;
	unsigned char big[4] = { 0xff, 0xff, 0xff, 0xf0 };
	int g, o, s, j;
	json_t *gossip = json_pack("{s:s}", "type", "gossip");

	(void)state;
	start(m);
	j = raw(port);
	assert_int_equal(frame_write(j, gossip, 1024, time_now_ms() + 1000, &e), FRAME_OK);
	json_decref(gossip);
	g = raw(port);
	o = raw(port);
	s = raw(port);
	assert_int_equal(write(g, "GET / HTTP/1.1\r\n\r\n", 18), 18);
	assert_int_equal(write(o, big, 4), 4);
	usleep(100 * 1000);
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), 0);
	assert_int_equal(rdv_wait_joined(m, &e), 0);
	usleep(600 * 1000);	/* past the stalled client's handshake deadline */
	assert_true(has_event(m, RDV_EV_GARBAGE, "starts with 'GET '"));
	assert_true(has_event(m, RDV_EV_OVERSIZED, "oversized"));
	assert_true(has_event(m, RDV_EV_GARBAGE, "unknown message type 'gossip'"));
	assert_true(has_event(m, RDV_EV_STALLED, "sent no hello"));
	assert_true(has_event(m, RDV_EV_AUTH_NONE, NULL));
	/* the dropped ones were closed by the master */
	char c;
	assert_int_equal(read(g, &c, 1), 0);
	assert_int_equal(read(s, &c, 1), 0);
	close(g);
	close(j);
	close(o);
	close(s);
	rdv_finish(w);
	rdv_finish(m);
	rdv_free(w);
	rdv_free(m);
}

static void wrong_token_refused_and_named(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 2, "right", 1200), *w = node(port, 1, 2, "wrong", 1200);
	struct err e = ERR_INIT;
	int64_t t0 = time_now_ms();

	(void)state;
	start(m);
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), -1);
	assert_non_null(strstr(e.msg, "(auth)"));
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	assert_int_equal(e.code, ERR_TIMEOUT);
	assert_non_null(strstr(e.msg, "rank 1 never joined"));
	assert_true(has_event(m, RDV_EV_AUTH_FAILED, "wrong token"));
	assert_true(has_event(m, RDV_EV_MISSING, "refused: wrong token"));
	assert_true(time_now_ms() - t0 < 3000);
	rdv_free(w);
	rdv_free(m);
}

static void worker_token_master_none(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 2, NULL, 1000), *w = node(port, 1, 2, "tok", 1000);
	struct err e = ERR_INIT;

	(void)state;
	start(m);
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), -1);
	assert_non_null(strstr(e.msg, "asks for none"));
	rdv_free(w);
	rdv_free(m);
}

static void duplicate_rank_named(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 3, NULL, 3000), *a = node(port, 1, 3, NULL, 3000),
		   *b = node(port, 1, 3, NULL, 3000);
	struct err e = ERR_INIT;

	(void)state;
	start(m);
	start(a);
	assert_int_equal(rdv_wait_joined(a, &e), 0);
	start(b);
	assert_int_equal(rdv_wait_joined(b, &e), -1);
	assert_non_null(strstr(e.msg, "duplicate_rank"));
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	assert_non_null(strstr(e.msg, "two processes claim rank 1"));
	assert_true(has_event(m, RDV_EV_DUPLICATE_RANK, "two processes claim rank 1"));
	/* the first holder hears it from the master */
	json_t *p = NULL;
	assert_int_equal(rdv_bcast(a, "facts", 0, &p, 2000, &e), -1);
	assert_non_null(strstr(e.msg, "two processes claim rank 1"));
	rdv_free(a);
	rdv_free(b);
	rdv_free(m);
}

static void wrong_count_and_rank_zero(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 2, NULL, 3000), *w = node(port, 1, 3, NULL, 3000);
	struct err e = ERR_INIT;

	(void)state;
	start(m);
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), -1);
	assert_non_null(strstr(e.msg, "wrong_count"));
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	assert_true(has_event(m, RDV_EV_WRONG_COUNT, "was told the job has 3 nodes"));
	rdv_free(w);
	rdv_free(m);

	/* a worker that believes it is rank 0 too: rank 0 is the master's */
	port = free_port();
	m = node(port, 0, 2, NULL, 3000);
	start(m);
	int fd = raw(port);
	struct msg h, in;
	msg_init(&h, MSG_HELLO);
	h.u.hello.version = PROTO_VERSION;
	h.u.hello.rank = 0;
	h.u.hello.nnodes = 2;
	h.u.hello.host = (char *)"impostor";
	h.u.hello.tool = (char *)"t";
	strcpy(h.u.hello.nonce, "00112233445566778899aabbccddeeff");
	assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	assert_int_equal(in.type, MSG_CHALLENGE);
	msg_release(&in);
	msg_init(&h, MSG_AUTH);
	assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	assert_int_equal(in.type, MSG_REJECT);
	assert_string_equal(in.u.reject.code, "duplicate_rank");
	assert_non_null(strstr(in.u.reject.message, "node-0 (the master at 127.0.0.1, pid ")); assert_non_null(strstr(in.u.reject.message, ") and impostor"));
	msg_release(&in);
	close(fd);
	rdv_free(m);
}

static void version_mismatch_named(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 2, NULL, 3000);
	struct err e = ERR_INIT;
	struct msg h, in;
	char want[64];
	int fd;

	(void)state;
	start(m);
	fd = raw(port);
	msg_init(&h, MSG_HELLO);
	h.u.hello.version = PROTO_VERSION + 1;
	h.u.hello.rank = 1;
	h.u.hello.nnodes = 2;
	h.u.hello.host = (char *)"newer";
	h.u.hello.tool = (char *)"ncclcheck 9.9";
	strcpy(h.u.hello.nonce, "00112233445566778899aabbccddeeff");
	assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	assert_int_equal(in.type, MSG_REJECT);
	assert_string_equal(in.u.reject.code, "version");
	msg_release(&in);
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	snprintf(want, sizeof(want), "protocol version %d", PROTO_VERSION + 1);
	assert_non_null(strstr(e.msg, want));
	assert_true(has_event(m, RDV_EV_VERSION, "ncclcheck 9.9"));
	close(fd);
	rdv_free(m);
}

/* A raw worker that completes the handshake (no token) and then does what the test wants. */
static int raw_join(int port, int rank, int nnodes)
{
	struct err e = ERR_INIT;
	struct msg h, in;
	int fd = raw(port);

	msg_init(&h, MSG_HELLO);
	h.u.hello.version = PROTO_VERSION;
	h.u.hello.rank = rank;
	h.u.hello.nnodes = nnodes;
	h.u.hello.host = (char *)"silent";
	h.u.hello.tool = (char *)"t";
	strcpy(h.u.hello.nonce, "00112233445566778899aabbccddeeff");
	assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	msg_release(&in);
	msg_init(&h, MSG_AUTH);
	assert_int_equal(msg_send(fd, &h, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	assert_int_equal(in.type, MSG_WELCOME);
	msg_release(&in);
	return fd;
}

/* rdv_fail_fd turns readable within ms (0: is it already). */
static int fail_fd_ready(struct rdv *r, int ms)
{
	struct pollfd pf = {.fd = rdv_fail_fd(r), .events = POLLIN};

	assert_true(pf.fd >= 0);
	return poll(&pf, 1, ms) == 1 && (pf.revents & POLLIN);
}

static void silent_and_dead_nodes_named(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 3, NULL, 3000), *w = node(port, 1, 3, NULL, 3000);
	struct err e = ERR_INIT;
	json_t *all = NULL, *p = NULL;
	int64_t t0;
	int fd;

	(void)state;
	start(m);
	start(w);
	fd = raw_join(port, 2, 3);	/* joins, then never says another word (SIGSTOP) */
	assert_int_equal(rdv_wait_joined(m, &e), 0);
	assert_int_equal(rdv_wait_joined(w, &e), 0);
	assert_false(fail_fd_ready(m, 0));
	assert_false(fail_fd_ready(w, 0));
	t0 = time_now_ms();
	assert_int_equal(rdv_gather(w, "facts", 0, json_object(), 2000, &all, &e), 0);
	assert_int_equal(rdv_gather(m, "facts", 0, json_object(), 5000, &all, &e), -1);
	assert_true(time_now_ms() - t0 < 2000);
	assert_non_null(strstr(e.msg, "rank 2 (silent) sent nothing for"));
	assert_true(has_event(m, RDV_EV_DEAD, "rank 2 (silent)"));
	/* a poll loop of the caller's own (bench's ring) hears it too, on both sides */
	assert_true(fail_fd_ready(m, 0));
	assert_true(fail_fd_ready(w, 2000));
	/* the other worker hears who it was */
	assert_int_equal(rdv_bcast(w, "links", 0, &p, 2000, &e), -1);
	assert_non_null(strstr(e.msg, "rank 2 (silent)"));
	assert_true(has_event(w, RDV_EV_ABORTED, "rank 2 (silent)"));
	close(fd);
	rdv_free(w);
	rdv_free(m);

	/* a node that dies: its connection closes, named at once */
	port = free_port();
	m = node(port, 0, 2, NULL, 3000);
	w = node(port, 1, 2, NULL, 3000);
	start(m);
	start(w);
	assert_int_equal(rdv_wait_joined(m, &e), 0);
	assert_int_equal(rdv_wait_joined(w, &e), 0);
	rdv_free(w);	/* no bye: like a kill -9 */
	t0 = time_now_ms();
	assert_true(fail_fd_ready(m, 1000));	/* without a gather: the I/O thread saw the close */
	assert_true(time_now_ms() - t0 < 1000);
	assert_int_equal(rdv_gather(m, "facts", 0, json_object(), 5000, &all, &e), -1);
	assert_true(time_now_ms() - t0 < 1000);
	assert_non_null(strstr(e.msg, "rank 1 (node-1) closed the connection"));
	rdv_free(m);
}

static void silent_master_named(void **state)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 4, NULL, &e), port = net_local_port(lfd), fd;
	struct rdv *w = node(port, 1, 2, NULL, 3000);
	struct msg in, out;
	json_t *p = NULL;
	int64_t t0;

	(void)state;
	start(w);
	fd = net_accept(lfd, time_now_ms() + 2000, NULL, 0, &e);
	assert_true(fd >= 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	assert_int_equal(in.type, MSG_HELLO);
	msg_release(&in);
	msg_init(&out, MSG_CHALLENGE);
	out.u.challenge.version = PROTO_VERSION;
	out.u.challenge.heartbeat_ms = 100;
	strcpy(out.u.challenge.nonce, "ffeeddccbbaa99887766554433221100");
	assert_int_equal(msg_send(fd, &out, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(msg_recv(fd, 65536, time_now_ms() + 1000, &in, &e), 0);
	msg_release(&in);
	msg_init(&out, MSG_WELCOME);
	out.u.welcome.nnodes = 2;
	assert_int_equal(msg_send(fd, &out, 65536, time_now_ms() + 1000, &e), 0);
	assert_int_equal(rdv_wait_joined(w, &e), 0);
	t0 = time_now_ms();
	assert_int_equal(rdv_bcast(w, "facts", 0, &p, 5000, &e), -1);
	assert_true(time_now_ms() - t0 < 2000);
	assert_non_null(strstr(e.msg, "the master (rank 0, 127.0.0.1:"));
	assert_non_null(strstr(e.msg, "sent nothing for"));
	rdv_free(w);
	close(fd);
	close(lfd);
}

static void unreachable_master_bounded(void **state)
{
	int port = free_port();
	struct rdv *w = node(port, 1, 2, NULL, 700);
	struct err e = ERR_INIT;
	int64_t t0 = time_now_ms();

	(void)state;
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), -1);
	assert_true(time_now_ms() - t0 < 2500);
	assert_int_equal(e.code, ERR_TIMEOUT);
	assert_non_null(strstr(e.msg, "could not be reached within 1 s"));
	assert_true(has_event(w, RDV_EV_UNREACHABLE, "refused"));
	rdv_free(w);
}

static void missing_rank_named_by_host(void **state)
{
	static const char *const hosts[] = { "gpu01", "gpu02", "gpu03" };
	int port = free_port();
	struct rdv_opts o;
	struct rdv *m, *w = node(port, 1, 3, NULL, 800);
	struct err e = ERR_INIT;
	json_t *p = NULL;

	(void)state;
	rdv_opts_init(&o);
	o.listen_addr = "127.0.0.1";
	o.master_port = port;
	o.nnodes = 3;
	o.host = "gpu01";
	o.join_timeout_ms = 800;
	o.expected_hosts = hosts;
	o.nexpected = 3;
	m = rdv_new(&o);
	start(m);
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), 0);
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	assert_non_null(strstr(e.msg, "rank 2 (gpu03) never joined"));
	assert_true(has_event(m, RDV_EV_MISSING, "rank 2 (gpu03) never arrived within 1 s"));
	/* the joined worker hears which ranks never came */
	assert_int_equal(rdv_bcast(w, "facts", 0, &p, 2000, &e), -1);
	assert_non_null(strstr(e.msg, "rank 2 (gpu03) never joined"));
	rdv_free(w);
	rdv_free(m);
}

static void taken_port_named(void **state)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 4, NULL, &e), port = net_local_port(lfd);
	struct rdv *m = node(port, 0, 2, NULL, 1000);

	(void)state;
	assert_int_equal(rdv_start(m, &e), -1);
	assert_non_null(strstr(e.msg, "cannot listen on MASTER_PORT"));
	assert_non_null(strstr(e.msg, "is taken by pid"));
	rdv_free(m);
	close(lfd);
}

/* An idle connection to the master from 127.0.0.2 (another source address than the nodes'). */
static int squat(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET }, b = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	inet_pton(AF_INET, "127.0.0.2", &a.sin_addr);
	inet_pton(AF_INET, "127.0.0.1", &b.sin_addr);
	b.sin_port = htons((uint16_t)port);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    connect(fd, (struct sockaddr *)&b, sizeof(b)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* 300 idle connections (more than every limit) before the nodes come: they still join, the
 * squatter is named once with its address and a count, not 300 times. */
static void flood_does_not_lock_out(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 3, "tok", 8000), *w1 = node(port, 1, 3, "tok", 8000),
		   *w2 = node(port, 2, 3, "tok", 8000);
	struct err e = ERR_INIT;
	struct rdv_event *ev;
	int fds[300], nsq = 0, named = 0;
	size_t n;

	(void)state;
	start(m);
	for (int i = 0; i < 300; i++)
		if ((fds[nsq] = squat(port)) >= 0)
			nsq++;
	assert_true(nsq >= 250);
	usleep(100000);
	start(w1);
	start(w2);
	assert_int_equal(rdv_wait_joined(w1, &e), 0);
	assert_int_equal(rdv_wait_joined(w2, &e), 0);
	assert_int_equal(rdv_wait_joined(m, &e), 0);
	n = rdv_events(m, &ev);
	for (size_t i = 0; i < n; i++) {
		if (ev[i].kind != RDV_EV_STALLED)
			continue;
		named++;
		assert_non_null(strstr(ev[i].addr, "127.0.0.2"));
		/* one event that counts them (how many the master had evicted or timed out when the
		 * nodes got in depends on the machine's load: 2-core CI saw fewer than 100) */
		assert_true(ev[i].count >= 2);
	}
	free(ev);
	assert_int_equal(named, 1);
	for (int i = 0; i < nsq; i++)
		close(fds[i]);
	rdv_finish(w1);
	rdv_finish(w2);
	rdv_finish(m);
	rdv_free(w1);
	rdv_free(w2);
	rdv_free(m);
}

/* A second rank 0 on another address (its own host) and on the master's own port: both
 * named, pid included, the run fails at once on both, not at the join timeout. */
static void second_master_named(void **state)
{
	int port = free_port();
	struct rdv *m = node(port, 0, 3, "tok", 20000), *w = node(port, 1, 3, "tok", 20000);
	struct rdv_opts o;
	struct rdv *imp;
	struct err e = ERR_INIT;
	int64_t t0 = time_now_ms();
	char want[64];

	(void)state;
	start(m);
	start(w);
	assert_int_equal(rdv_wait_joined(w, &e), 0);
	rdv_opts_init(&o);
	o.master_host = "127.0.0.1";
	o.listen_addr = "127.0.0.2";
	o.master_port = port;
	o.rank = 0;
	o.nnodes = 3;
	o.host = "impostor";
	o.join_timeout_ms = 20000;
	o.token = "tok";
	o.token_len = 3;
	imp = rdv_new(&o);
	start(imp);
	assert_int_equal(rdv_wait_joined(imp, &e), -1);
	assert_non_null(strstr(e.msg, "two processes claim rank 0: node-0 (the master at "
				      "127.0.0.1, pid "));
	snprintf(want, sizeof(want), "impostor (127.0.0.1:");
	assert_non_null(strstr(e.msg, want));
	snprintf(want, sizeof(want), "pid %d)", (int)getpid());
	assert_non_null(strstr(e.msg, want));
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	assert_non_null(strstr(e.msg, "two processes claim rank 0"));
	assert_true(has_event(m, RDV_EV_DUPLICATE_RANK, "impostor"));
	assert_true(has_event(imp, RDV_EV_DUPLICATE_RANK, "node-0"));
	assert_true(time_now_ms() - t0 < 5000);
	rdv_free(imp);

	/* on the master's own address: its listen fails, and it still tells the master */
	rdv_free(w);
	rdv_free(m);
	port = free_port();
	m = node(port, 0, 2, NULL, 20000);
	start(m);
	imp = node(port, 0, 2, NULL, 20000);
	assert_int_equal(rdv_start(imp, &e), -1);
	assert_non_null(strstr(e.msg, "two processes claim rank 0"));
	assert_int_equal(rdv_wait_joined(m, &e), -1);
	assert_non_null(strstr(e.msg, "two processes claim rank 0"));
	rdv_free(imp);
	rdv_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_three_nodes),
		cmocka_unit_test(report_over_one_frame),
		cmocka_unit_test(hostile_clients_dropped),
		cmocka_unit_test(wrong_token_refused_and_named),
		cmocka_unit_test(worker_token_master_none),
		cmocka_unit_test(duplicate_rank_named),
		cmocka_unit_test(wrong_count_and_rank_zero),
		cmocka_unit_test(version_mismatch_named),
		cmocka_unit_test(silent_and_dead_nodes_named),
		cmocka_unit_test(silent_master_named),
		cmocka_unit_test(unreachable_master_bounded),
		cmocka_unit_test(missing_rank_named_by_host),
		cmocka_unit_test(taken_port_named),
		cmocka_unit_test(flood_does_not_lock_out),
		cmocka_unit_test(second_master_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
