/* net/sock over loopback: connect outcomes told apart, deadlines, the holder of a taken port. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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

/* The control channel's segments are clamped; the link tests' and bench's sockets are not. */
static void segment_size_clamped_unless_full(void **state)
{
	struct err e = ERR_INIT;
	enum net_fail why;
	struct net_connect_opts full = { .flags = NET_FULL_MSS };
	int lfd = net_listen("127.0.0.1", 0, 8, NULL, &e), port = net_local_port(lfd), mss = 0;
	int flfd = net_listen_flags("127.0.0.1", 0, 8, NET_FULL_MSS, NULL, &e), fport, cfd, afd;
	socklen_t sl = sizeof(mss);

	(void)state;
	assert_true(lfd >= 0 && flfd >= 0);
	fport = net_local_port(flfd);
	cfd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 1000, &why, &e);
	assert_true(cfd >= 0);
	assert_int_equal(getsockopt(cfd, IPPROTO_TCP, TCP_MAXSEG, &mss, &sl), 0);
	assert_true(mss <= 1200);
	close(cfd);
	cfd = net_connect("127.0.0.1", fport, &full, time_now_ms() + 1000, &why, &e);
	assert_true(cfd >= 0);
	afd = net_accept(flfd, time_now_ms() + 1000, NULL, 0, &e);
	assert_true(afd >= 0);
	sl = sizeof(mss);
	assert_int_equal(getsockopt(cfd, IPPROTO_TCP, TCP_MAXSEG, &mss, &sl), 0);
	assert_true(mss > 1200);	/* loopback's MTU is 64 KiB */
	sl = sizeof(mss);
	assert_int_equal(getsockopt(afd, IPPROTO_TCP, TCP_MAXSEG, &mss, &sl), 0);
	assert_true(mss > 1200);
	close(afd);
	close(cfd);
	close(flfd);
	close(lfd);
}

/* A port scan's connects: started at once, finished by their POLLOUT, outcome by errno. */
static void connect_start_and_result(void **state)
{
	struct err e = ERR_INIT;
	struct sockaddr_storage ss;
	socklen_t len;
	int lfd = net_listen("127.0.0.1", 0, 8, NULL, &e), port = net_local_port(lfd);
	int fd, err_no = -1;

	(void)state;
	assert_int_equal(net_sockaddr("127.0.0.1", port, &ss, &len, &e), 0);
	fd = net_connect_start((struct sockaddr *)&ss, len, NULL, &err_no, &e);
	assert_true(fd >= 0);
	assert_true(err_no == 0 || err_no == EINPROGRESS);
	assert_int_equal(net_wait_fd(fd, POLLOUT, time_now_ms() + 1000, NULL), 1);
	assert_int_equal(net_connect_result(fd), 0);
	close(fd);
	close(lfd);
	/* nobody listens now: refused, at once or through the result */
	fd = net_connect_start((struct sockaddr *)&ss, len, NULL, &err_no, &e);
	if (fd >= 0) {
		assert_int_equal(net_wait_fd(fd, POLLOUT, time_now_ms() + 1000, NULL), 1);
		err_no = net_connect_result(fd);
		close(fd);
	}
	assert_int_equal(err_no, ECONNREFUSED);
	/* a name is no numeric address; a source of the other family is refused before trying */
	assert_int_equal(net_sockaddr("localhost", 1, &ss, &len, &e), -1);
	assert_non_null(strstr(e.msg, "not a numeric address"));
	struct net_connect_opts o = { .src_addr = "::1" };
	assert_int_equal(net_sockaddr("127.0.0.1", port, &ss, &len, &e), 0);
	assert_int_equal(net_connect_start((struct sockaddr *)&ss, len, &o, &err_no, &e), -1);
	assert_int_equal(err_no, 0);
	assert_non_null(strstr(e.msg, "not of the target's family"));
}

static void poll_keeps_its_deadline(void **state)
{
	int p[2];
	struct pollfd pf;
	int64_t t0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pf = (struct pollfd){ .fd = p[0], .events = POLLIN };
	t0 = time_now_ms();
	assert_int_equal(net_poll(&pf, 1, t0 + 80), 0);
	assert_true(time_now_ms() - t0 >= 79 && time_now_ms() - t0 < 1000);
	/* a deadline already past still reports what is ready */
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(net_poll(&pf, 1, t0), 1);
	assert_true(pf.revents & POLLIN);
	assert_int_equal(net_wait_fd(p[0], POLLIN, -1, NULL), 1);
	close(p[0]);
	close(p[1]);
}

static void read_some_and_unix_sockets(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct err e = ERR_INIT;
	enum net_fail why;
	char buf[16];
	int lfd, cfd, afd;
	int64_t t0;

	(void)state;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/ncclcheck-test-sock-%ld", (long)getpid());
	unlink(sa.sun_path);
	/* nobody there: a failure naming the path, not a wait */
	assert_int_equal(net_connect_sa((struct sockaddr *)&sa, sizeof(sa), NULL,
					time_now_ms() + 1000, &why, &e), -1);
	assert_non_null(strstr(e.msg, sa.sun_path));
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(lfd, 4), 0);
	cfd = net_connect_sa((struct sockaddr *)&sa, sizeof(sa), NULL, time_now_ms() + 1000, &why,
			     &e);
	assert_true(cfd >= 0);
	assert_int_equal(why, NET_OK);
	afd = accept(lfd, NULL, NULL);
	assert_true(afd >= 0);
	t0 = time_now_ms();
	assert_int_equal(net_read_some(cfd, buf, sizeof(buf), t0 + 80, &e), -1);
	assert_int_equal(e.code, ERR_TIMEOUT);
	assert_int_equal(write(afd, "abc", 3), 3);
	assert_int_equal(net_read_some(cfd, buf, sizeof(buf), time_now_ms() + 1000, &e), 3);
	close(afd);
	assert_int_equal(net_read_some(cfd, buf, sizeof(buf), time_now_ms() + 1000, &e), 0);
	close(cfd);
	close(lfd);
	unlink(sa.sun_path);
}

/* The MTU test's sockets: a UDP echo port and a connected DF prober; the route's source. */
static void udp_and_route(void **state)
{
	struct err e = ERR_INIT;
	struct sockaddr_storage local;
	char buf[16], name[64];
	int sfd = net_udp_bind("127.0.0.1", 0, &e), port = net_local_port(sfd), cfd, df = 0;
	socklen_t sl = sizeof(df);

	(void)state;
	assert_true(sfd >= 0 && port > 0);
	cfd = net_udp_connect("127.0.0.1", port, NULL, 1, &e);
	assert_true(cfd >= 0);
	assert_int_equal(getsockopt(cfd, IPPROTO_IP, IP_MTU_DISCOVER, &df, &sl), 0);
	assert_int_equal(df, IP_PMTUDISC_PROBE);
	assert_int_equal(send(cfd, "ping", 4, 0), 4);
	assert_int_equal(net_read_some(sfd, buf, sizeof(buf), time_now_ms() + 1000, &e), 4);
	close(cfd);
	/* the port is ours now: a second bind fails with errno kept */
	assert_int_equal(net_udp_bind("127.0.0.1", port, &e), -1);
	assert_int_equal(errno, EADDRINUSE);
	close(sfd);
	assert_int_equal(net_route_source("127.0.0.1", NULL, &local, &e), 0);
	assert_int_equal(local.ss_family, AF_INET);
	cfd = net_udp_connect("127.0.0.1", 9, NULL, 0, &e);
	assert_int_equal(net_local_name(cfd, name, sizeof(name), 0), 0);
	assert_string_equal(name, "127.0.0.1");
	close(cfd);
}

/* A port scan's listeners: a taken port is errno EADDRINUSE, no /proc walk in the message. */
static void quiet_taken_port(void **state)
{
	struct err e = ERR_INIT;
	int lfd = net_listen("127.0.0.1", 0, 8, NULL, &e), port = net_local_port(lfd);

	(void)state;
	assert_int_equal(net_listen_flags("127.0.0.1", port, 4, NET_QUIET_TAKEN, NULL, &e), -1);
	assert_int_equal(errno, EADDRINUSE);
	assert_null(strstr(e.msg, "is taken"));
	assert_non_null(strstr(e.msg, "cannot listen on '127.0.0.1'"));
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
	/* port 0 is a listener's ephemeral port, never a peer's */
	assert_int_equal(net_parse_hostport("a:0", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_listen_hostport("a:0", h, sizeof(h), &p), 0);
	assert_int_equal(p, 0);
	assert_int_equal(net_parse_listen_hostport("a:-1", h, sizeof(h), &p), -1);
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
		cmocka_unit_test(segment_size_clamped_unless_full),
		cmocka_unit_test(connect_start_and_result),
		cmocka_unit_test(poll_keeps_its_deadline),
		cmocka_unit_test(read_some_and_unix_sockets),
		cmocka_unit_test(udp_and_route),
		cmocka_unit_test(quiet_taken_port),
		cmocka_unit_test(hostport),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
