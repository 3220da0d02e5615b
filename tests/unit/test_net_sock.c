/* net/sock over loopback: connect outcomes told apart, deadlines, the holder of a taken port. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "net/sock.h"
#include "util/timeutil.h"

static void connect_accept_and_move_bytes(void **state)
{
	struct err e = ERR_INIT;
	char peer[64], buf[6] = { 0 };
	enum net_fail why = NET_OTHER;
	int lfd, cfd, afd, port;

	(void)state;
	lfd = net_listen("127.0.0.1", 0, 8, NULL, &e);
	assert_true(lfd >= 0);
	port = net_local_port(lfd);
	assert_true(port > 0);
	cfd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 2000, &why, &e);
	assert_true(cfd >= 0);
	assert_int_equal(why, NET_OK);
	afd = net_accept(lfd, time_now_ms() + 2000, peer, sizeof(peer), &e);
	assert_true(afd >= 0);
	assert_non_null(strstr(peer, "127.0.0.1:"));
	assert_int_equal(net_write_full(cfd, "hello", 5, time_now_ms() + 1000, &e), 0);
	assert_int_equal(net_read_full(afd, buf, 5, time_now_ms() + 1000, &e), 0);
	assert_string_equal(buf, "hello");

	/* nothing more comes: the deadline holds */
	int64_t t0 = time_now_ms();
	assert_int_equal(net_read_full(afd, buf, 1, t0 + 150, &e), -1);
	assert_int_equal(e.code, ERR_TIMEOUT);
	assert_true(time_now_ms() - t0 < 1000);
	/* the peer closes: a typed peer error, not a timeout */
	close(cfd);
	assert_int_equal(net_read_full(afd, buf, 1, time_now_ms() + 1000, &e), -1);
	assert_int_equal(e.code, ERR_PEER);
	assert_int_equal(net_write_full(afd, "x", 1, time_now_ms() + 1000, &e) < 0 ||
			 net_write_full(afd, "x", 1, time_now_ms() + 1000, &e) < 0, 1);
	close(afd);
	close(lfd);
}

static void refused_is_told_apart(void **state)
{
	struct err e = ERR_INIT;
	enum net_fail why = NET_OK;
	int lfd = net_listen("127.0.0.1", 0, 8, NULL, &e), port = net_local_port(lfd);

	(void)state;
	close(lfd);	/* nobody listens there now */
	assert_int_equal(net_connect("127.0.0.1", port, NULL, time_now_ms() + 1000, &why, &e), -1);
	assert_int_equal(why, NET_REFUSED);
	assert_non_null(strstr(e.msg, "refused"));
	assert_string_equal(net_fail_name(why), "refused");
}

static void accept_deadline(void **state)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 8, NULL, &e);
	int64_t t0 = time_now_ms();

	(void)state;
	assert_int_equal(net_accept(lfd, t0 + 100, NULL, 0, &e), -1);
	assert_int_equal(e.code, ERR_TIMEOUT);
	assert_true(time_now_ms() - t0 < 1000);
	close(lfd);
}

static void bad_arguments(void **state)
{
	struct err e = ERR_INIT;
	enum net_fail why = NET_OK;

	(void)state;
	/* (no name lookup here: a resolver query would leave loopback) */
	assert_int_equal(net_connect("127.0.0.1", 0, NULL, time_now_ms() + 10, &why, &e), -1);
	assert_int_equal(e.code, ERR_USAGE);
}

static void taken_port_names_its_holder(void **state)
{
	struct err e = ERR_INIT;
	char who[128], want[64];
	int lfd = net_listen("127.0.0.1", 0, 8, NULL, &e), port = net_local_port(lfd);

	(void)state;
	assert_int_equal(net_port_holder(NULL, port, who, sizeof(who)), 0);
	snprintf(want, sizeof(want), "pid %ld (", (long)getpid());
	assert_non_null(strstr(who, want));
	assert_non_null(strstr(who, "test_net_sock"));
	assert_int_equal(net_listen("127.0.0.1", port, 8, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "is taken by pid"));
	/* the wildcard form reports the holder too */
	assert_int_equal(net_listen(NULL, port, 8, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "is taken by pid"));
	close(lfd);
	assert_int_equal(net_port_holder(NULL, port, who, sizeof(who)), -1);
	/* a fixture /proc without the table: nobody found, no crash */
	assert_int_equal(net_port_holder("/nonexistent", port, who, sizeof(who)), -1);
}

static void wildcard_listen_takes_ipv4(void **state)
{
	struct err e = ERR_INIT;
	enum net_fail why;
	int lfd = net_listen(NULL, 0, 8, NULL, &e), port = net_local_port(lfd), cfd;

	(void)state;
	assert_true(lfd >= 0);
	cfd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 1000, &why, &e);
	assert_true(cfd >= 0);
	close(cfd);
	/* a source address that is ours works; one that is not is a local failure */
	struct net_connect_opts o = { .src_addr = "127.0.0.1" };
	cfd = net_connect("127.0.0.1", port, &o, time_now_ms() + 1000, &why, &e);
	assert_true(cfd >= 0);
	close(cfd);
	o.src_addr = "192.0.2.55";
	assert_int_equal(net_connect("127.0.0.1", port, &o, time_now_ms() + 1000, &why, &e), -1);
	assert_int_equal(why, NET_LOCAL);
	close(lfd);
}

static void hostport(void **state)
{
	char h[64];
	int p;

	(void)state;
	assert_int_equal(net_parse_hostport("10.0.0.1:29500", h, sizeof(h), &p), 0);
	assert_string_equal(h, "10.0.0.1");
	assert_int_equal(p, 29500);
	assert_int_equal(net_parse_hostport("[fe80::1%eth0]:1", h, sizeof(h), &p), 0);
	assert_string_equal(h, "fe80::1%eth0");
	assert_int_equal(net_parse_hostport("node-0:65535", h, sizeof(h), &p), 0);
	assert_int_equal(net_parse_hostport("node-0", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_hostport("node-0:", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_hostport(":1", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_hostport("a:65536", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_hostport("a:12x", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_hostport("::1:5", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_hostport("[::1]5", h, sizeof(h), &p), -1);
	enum net_fail f;
	assert_int_equal(net_fail_parse("no-route", &f), 0);
	assert_int_equal(f, NET_NOROUTE);
	assert_int_equal(net_fail_parse("nope", &f), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(connect_accept_and_move_bytes),
		cmocka_unit_test(refused_is_told_apart),
		cmocka_unit_test(accept_deadline),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(taken_port_names_its_holder),
		cmocka_unit_test(wildcard_listen_takes_ipv4),
		cmocka_unit_test(hostport),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
