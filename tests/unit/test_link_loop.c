/*
 * net/link_* end to end over loopback, both roles in this process through two agents and the
 * pair driver (the very path the cluster takes, minus the wire): connect ok and refused with
 * ping-pong latency, an exact scan (ports nobody listens on, ports another socket holds), the
 * MTU search, and a short bandwidth run with several streams.
 */
#include "cmocka_helpers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "link/agent.h"
#include "link/link_int.h"
#include "util/timeutil.h"

static struct link_local_chan lc;
static struct link_chan ch = { link_local_call, &lc };

static int setup(void **state)
{
	(void)state;
	lc.target = link_agent_new();
	lc.peer = link_agent_new();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	link_agent_free(lc.target);
	link_agent_free(lc.peer);
	return 0;
}

static void connect_ok(void **state)
{
	struct link_req r;
	struct link_result res;
	struct err e = ERR_INIT;

	(void)state;
	link_req_init(&r, LINK_CONNECT);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	snprintf(r.src, sizeof(r.src), "127.0.0.2");
	r.nports = 2;
	r.pings = 50;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.c.status, LINK_OK);
	assert_int_equal(res.c.ntries, 2);
	assert_int_equal(res.c.tries[0].status, LINK_OK);
	assert_int_equal(res.c.tries[1].status, LINK_OK);
	assert_true(res.c.tries[0].port != res.c.tries[1].port);
	assert_int_equal(res.c.pings, 50);
	assert_true(res.c.rtt_p50_us > 0 && res.c.rtt_p50_us <= res.c.rtt_p99_us);
	assert_true(res.c.rtt_min_us <= res.c.rtt_p50_us && res.c.rtt_p99_us <= res.c.rtt_max_us);
	link_result_release(&res);
}

static void connect_refused(void **state)
{
	struct link_req r;
	struct link_ready ready;
	struct link_result res;
	struct err e = ERR_INIT;
	uint16_t port;
	int fd = link_listen("127.0.0.1", 0, 1, &port, &e);

	(void)state;
	assert_true(fd >= 0);
	close(fd);	/* a port nobody listens on any more: the kernel answers with an RST */
	link_req_init(&r, LINK_CONNECT);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	link_ready_init(&ready);
	ready.kind = LINK_CONNECT;
	ready.ports[0] = port;
	ready.nports = 1;
	link_result_init(&res, LINK_CONNECT);
	assert_int_equal(link_client_run(&r, &ready, &res, &e), 0);
	assert_int_equal(res.c.status, LINK_REFUSED);
	assert_int_equal(res.c.tries[0].err, ECONNREFUSED);
	assert_int_equal(res.c.pings, 0);
	link_result_release(&res);

	/* a source address that is not ours: a local error, told apart from the network's */
	snprintf(r.src, sizeof(r.src), "192.0.2.77");
	link_result_init(&res, LINK_CONNECT);
	assert_int_equal(link_client_run(&r, &ready, &res, &e), 0);
	assert_int_equal(res.c.status, LINK_ERROR);
	link_result_release(&res);
}

/* `n` probe connects to 127.0.0.1:port under way at once, as the loss probe starts them. */
static void start_probes(uint16_t port, struct pollfd *p, int n)
{
	struct sockaddr_storage ss;
	socklen_t len;

	assert_int_equal(net_sockaddr("127.0.0.1", port, &ss, &len, NULL), 0);
	for (int i = 0; i < n; i++) {
		struct net_connect_opts o = LINK_CONNECT_OPTS(NULL, NULL);
		int err_no = 0, fd = net_connect_start((struct sockaddr *)&ss, len, &o, &err_no, NULL);

		assert_true(fd >= 0);
		p[i] = (struct pollfd){ .fd = fd, .events = POLLOUT };
	}
}

/*
 * A process that looks only after the deadline (starved on a loaded node): the connects that
 * completed are answered, with no retransmit; only those the kernel still has under way (a
 * full accept queue drops their SYNs) are unanswered.
 */
static void probe_wait_late(void **state)
{
	struct pollfd p[8], q[6];
	struct link_connect_result c, d;
	struct err e = ERR_INIT;
	uint16_t port, full;
	int lfd = link_listen("127.0.0.1", 0, 64, &port, &e);
	int sfd = link_listen("127.0.0.1", 0, 1, &full, &e);

	(void)state;
	assert_true(lfd >= 0 && sfd >= 0);
	start_probes(port, p, 8);
	start_probes(full, q, 6);
	usleep(200 * 1000);	/* loopback handshakes are done long before */
	memset(&c, 0, sizeof(c));
	link_probe_wait(p, 8, time_now_ms() - 1, &c);
	assert_int_equal(c.unanswered, 0);
	assert_int_equal(c.retrans, 0);
	memset(&d, 0, sizeof(d));
	link_probe_wait(q, 6, time_now_ms() - 1, &d);
	assert_true(d.unanswered >= 3 && d.unanswered < 6);	/* a backlog of 1 queues 1-2 */
	assert_int_equal(d.retrans, 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(q[i].fd, -1);
	close(lfd);
	close(sfd);
}

/* Listeners the target does not own: a batch skips and reports them. */
static void scan_exact(void **state)
{
	struct link_req r;
	struct link_ready ready;
	struct link_result res;
	struct err e = ERR_INIT;
	struct link_server *s;
	int busy, nlisten = 0;
	uint16_t busy_port;

	(void)state;
	busy = link_listen("127.0.0.1", 0, 1, &busy_port, &e);
	assert_true(busy >= 0);
	link_req_init(&r, LINK_SCAN);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	r.lo = (uint16_t)(busy_port > 200 ? busy_port - 200 : 1025);
	r.hi = (uint16_t)(r.lo + 399);
	r.batch = 150;	/* three batches */
	r.window = 64;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.s.batches, 3);
	/* every port answered; the one held by another socket is in use, and bridged over */
	assert_int_equal(res.s.counts[LINK_PORT_OPEN] + res.s.counts[LINK_PORT_IN_USE], 400);
	assert_true(res.s.counts[LINK_PORT_IN_USE] >= 1);
	assert_int_equal(res.s.state[busy_port], LINK_PORT_IN_USE);
	for (size_t i = 0; i < res.s.niv; i++)
		assert_int_equal(res.s.iv[i].state, LINK_PORT_OPEN);
	link_result_release(&res);
	close(busy);

	/* a target that listens on only part of the batch: the rest is rejected (RST), exactly */
	link_req_init(&r, LINK_SCAN);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	r.lo = 23100;
	r.hi = 23199;
	s = link_server_start(&r, &ready, &e);
	assert_non_null(s);
	nlisten = (int)ready.nlistening;
	link_server_stop(s, 0);
	link_ready_release(&ready);
	assert_true(nlisten > 90);
	r.hi = 23149;
	s = link_server_start(&r, &ready, &e);
	assert_non_null(s);
	link_ready_release(&ready);
	/* the peer is told about all 100, as a lying target could: only half listen */
	{
		struct link_req all = r;
		struct link_ready fake;

		all.hi = 23199;
		link_ready_init(&fake);
		fake.kind = LINK_SCAN;
		fake.listening = calloc(100, sizeof(uint16_t));
		for (int i = 0; i < 100; i++)
			fake.listening[fake.nlistening++] = (uint16_t)(23100 + i);
		link_result_init(&res, LINK_SCAN);
		assert_int_equal(link_client_run(&all, &fake, &res, &e), 0);
		link_scan_finish(&all, &res);
		link_ready_release(&fake);
	}
	link_server_stop(s, 0);
	assert_int_equal(res.s.state[23100], LINK_PORT_OPEN);
	assert_int_equal(res.s.state[23199], LINK_PORT_REJECTED);
	assert_true(res.s.niv >= 2);
	assert_int_equal(res.s.iv[res.s.niv - 1].state, LINK_PORT_REJECTED);
	assert_int_equal(res.s.iv[res.s.niv - 1].lo, 23150);
	assert_int_equal(res.s.iv[res.s.niv - 1].hi, 23199);
	assert_int_equal(res.s.counts[LINK_PORT_REJECTED], 50);
	link_result_release(&res);
}

/*
 * Answers that wait in epoll past the timeout are answers. With a 1 ms timeout every connect
 * of a 2,000-port batch is "expired" by the time the scanner reads its events, 512 at a time:
 * each must still count as open (a stalled scanner once reported ports 512..4095 of a batch as
 * a dropped run on a healthy machine). Then a merge: a second pass's answers replace drops.
 */
static void scan_answers_outlive_the_timeout(void **state)
{
	struct link_req r;
	struct link_result res, again;
	struct err e = ERR_INIT;
	int retried, first_drops, looks, late_ms;

	(void)state;
	link_req_init(&r, LINK_SCAN);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	r.lo = 24000;
	r.hi = 25999;
	r.batch = 2000;
	r.window = 2000;
	r.timeout_ms = 1;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.s.counts[LINK_PORT_DROPPED], 0);
	assert_int_equal(res.s.counts[LINK_PORT_OPEN] + res.s.counts[LINK_PORT_IN_USE], 2000);

	/* pretend the first pass lost 24100-24199 and a second one saw 24150-24199 answer */
	link_result_init(&again, LINK_SCAN);
	again.s.state = calloc(65536, 1);
	for (int p = 24100; p < 24200; p++) {
		res.s.state[p] = LINK_PORT_DROPPED;
		again.s.state[p] = p < 24150 ? LINK_PORT_DROPPED : LINK_PORT_REJECTED;
	}
	res.s.state[24300] = LINK_PORT_OPEN;
	again.s.state[24300] = LINK_PORT_DROPPED;	/* an answer is never taken back */
	/* the second pass's figures: retries and first drops add up, looks and lateness the most */
	retried = res.s.retried;
	first_drops = res.s.first_drops;
	again.s.retried = 3;
	again.s.first_drops = 7;
	again.s.looks = res.s.looks + 2;
	again.s.late_ms = res.s.late_ms + 40;
	late_ms = res.s.late_ms + 40;
	looks = res.s.looks + 2;
	link_scan_merge(&r, &res, &again);
	assert_int_equal(res.s.retried, retried + 3);
	assert_int_equal(res.s.first_drops, first_drops + 7);
	assert_int_equal(res.s.looks, looks);
	assert_int_equal(res.s.late_ms, late_ms);
	assert_int_equal(res.s.flaky, 50);
	assert_int_equal(res.s.counts[LINK_PORT_DROPPED], 50);
	assert_int_equal(res.s.state[24149], LINK_PORT_DROPPED);
	assert_int_equal(res.s.state[24150], LINK_PORT_REJECTED);
	assert_int_equal(res.s.state[24300], LINK_PORT_OPEN);
	link_result_release(&again);
	link_result_release(&res);
}

static void scan_list_and_split(void **state)
{
	struct link_req r, parts[8];
	struct link_result res;
	struct err e = ERR_INIT;

	(void)state;
	link_req_init(&r, LINK_SCAN);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	assert_int_equal(link_scan_split(&r, 4096, parts, 8), 7);	/* 28,232 ports */
	assert_int_equal(parts[0].lo, 32768);
	assert_int_equal(parts[0].hi, 32768 + 4095);
	assert_int_equal(parts[6].hi, 60999);
	r.nlist = 3;
	r.list[0] = 23300;
	r.list[1] = 23305;
	r.list[2] = 23301;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.s.counts[LINK_PORT_OPEN], 3);
	assert_int_equal(res.s.niv, 2);	/* 23300-23301 and 23305: never claims 23302-23304 */
	assert_int_equal(res.s.iv[0].hi, 23301);
	assert_int_equal(res.s.iv[1].lo, 23305);
	link_result_release(&res);
}

static void mtu_loopback(void **state)
{
	struct link_req r;
	struct link_result res;
	struct err e = ERR_INIT;

	(void)state;
	link_req_init(&r, LINK_MTU);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	r.max_mtu = 9000;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.m.if_mtu, 9000);
	assert_int_equal(res.m.path_mtu, 9000);
	assert_false(res.m.blackhole);
	assert_int_equal(res.m.probes, 1);
	link_result_release(&res);

	/* no max: the interface's own MTU (lo: 65536, capped at the largest datagram) */
	r.max_mtu = 0;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.m.if_mtu, 65535);
	assert_int_equal(res.m.path_mtu, 65535);
	link_result_release(&res);
}

static void bw_streams(void **state)
{
	struct link_req r;
	struct link_result res;
	struct err e = ERR_INIT;
	long long sum = 0;

	(void)state;
	link_req_init(&r, LINK_BW);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	r.streams = 3;
	r.duration_ms = 300;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.b.streams, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(res.b.bytes[i] > 0);
		assert_true(res.b.gbps[i] > 0.01);
		sum += res.b.bytes[i];
	}
	assert_int_equal(sum, res.b.total_bytes);
	assert_true(res.b.seconds > 0.1 && res.b.seconds < 2);
	link_result_release(&res);

	/* a byte count instead of a duration: exactly that many arrive */
	r.streams = 1;
	r.duration_ms = 0;
	r.bytes = 5000000;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_int_equal(res.b.total_bytes, 5000000);
	link_result_release(&res);
}

/* Few descriptors: the target answers part of each batch and the driver asks for the rest. */
static void scan_fd_limit(void **state)
{
	struct rlimit rl = { 400, 400 }, old;
	struct link_req r;
	struct link_result res;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	link_req_init(&r, LINK_SCAN);
	snprintf(r.addr, sizeof(r.addr), "127.0.0.1");
	r.lo = 24000;
	r.hi = 25499;
	assert_int_equal(link_run(&ch, &r, &res, &e), 0);
	assert_true(res.s.batches > 4);	/* about 300 listeners a time for 1500 ports */
	assert_int_equal(res.s.counts[LINK_PORT_OPEN] + res.s.counts[LINK_PORT_IN_USE], 1500);
	for (int p = 24000; p <= 25499; p++)
		assert_int_not_equal(res.s.state[p], LINK_PORT_UNTESTED);
	link_result_release(&res);
	setrlimit(RLIMIT_NOFILE, &old);
}

/* A ping lost on a 40 us link comes back after TCP's 200 ms retransmit: that is no round trip
 * (on a lossy link it made the p99 - and the scan timeouts derived from it - 200 ms). */
static void rtt_figures_leave_retransmits_out(void **state)
{
	double t[6] = { 41, 208000, 40, 39, 43, 44 }, slow[4] = { 200100, 200050, 200300, 200000 };
	struct link_connect_result c = { 0 };

	(void)state;
	link_rtt_figures(t, 6, &c);
	assert_true(c.rtt_min_us == 39 && c.rtt_max_us == 208000);
	assert_true(c.rtt_p99_us == 44 && c.rtt_p50_us == 41);
	/* a long link is no retransmit: 200 ms each, all kept */
	memset(&c, 0, sizeof(c));
	link_rtt_figures(slow, 4, &c);
	assert_true(c.rtt_p99_us == 200300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(connect_ok),
		cmocka_unit_test(rtt_figures_leave_retransmits_out),
		cmocka_unit_test(connect_refused),
		cmocka_unit_test(probe_wait_late),
		cmocka_unit_test(scan_exact),
		cmocka_unit_test(scan_list_and_split),
		cmocka_unit_test(scan_answers_outlive_the_timeout),
		cmocka_unit_test(mtu_loopback),
		cmocka_unit_test(bw_streams),
		cmocka_unit_test(scan_fd_limit),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
