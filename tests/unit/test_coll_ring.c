/*
 * coll/tcp_ring.c on loopback: N ranks as threads of this process, each with its own bootstrap
 * and ring sockets, running real collectives and checking every element exactly.
 */
#include "cmocka_helpers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coll/boot.h"
#include "coll/coll.h"
#include "coll/sweep.h"
#include "coll/tcp_ring.h"
#include "net/sock.h"
#include "util/xalloc.h"

#define MAXR 8

struct job {
	int rank, world, port, stripes;
	size_t segment;
	enum coll_id coll;
	enum coll_dtype t;
	enum coll_op op;
	size_t count; /* param count */
	int in_place, root;
	uint64_t wrong;
	int rc;
	char msg[ERR_MSG_LEN];
};

static void *rank_main(void *arg)
{
	struct job *j = arg;
	char master[64];
	struct err e = ERR_INIT;
	struct boot_opts bo = {.rank = j->rank,
	                       .world = j->world,
	                       .master = master,
	                       .timeout_ms = 10000,
	                       .params_hash = 42};
	const struct coll_kind *k = coll_kind_get(j->coll);
	size_t es = coll_dtype_size(j->t);
	struct ring_opts ro = {.nstripes = j->stripes, .segment = j->segment, .timeout_ms = 10000};
	struct coll_counts c;
	struct boot *b;
	struct ring *r = NULL;
	char *send, *recv;

	snprintf(master, sizeof(master), "127.0.0.1:%d", j->port);
	b = boot_new(&bo, &e);
	if (b)
		r = ring_new(b, &ro, &e);
	if (!r) {
		j->rc = -1;
		snprintf(j->msg, sizeof(j->msg), "%s", e.msg);
		boot_drop(b);
		return NULL;
	}
	/* counts for exactly `count` params */
	if (j->coll == COLL_ALLGATHER)
		c = (struct coll_counts){.send = j->count,
		                         .recv = j->count * j->world,
		                         .param = j->count,
		                         .send_inplace = j->count};
	else
		c = (struct coll_counts){.send = j->count, .recv = j->count, .param = j->count};
	send = calloc(c.send + 1, es);
	recv = calloc(c.recv + 1, es);
	for (int it = 0; it < 3 && j->rc == 0; it++) {
		struct coll_call call = {.kind = k,
		                         .count = j->count,
		                         .dtype = j->t,
		                         .op = j->op,
		                         .root = j->root,
		                         .in_place = j->in_place,
		                         .send = send,
		                         .recv = recv};
		if (j->in_place)
			call.send = recv + c.send_inplace * (size_t)j->rank * es;
		coll_fill(k, j->t, j->op, j->world, j->rank, j->root, 100 + it, &c, call.send);
		if (ring_run(r, &call, &e) < 0) {
			j->rc = -1;
			snprintf(j->msg, sizeof(j->msg), "%s", e.msg);
			break;
		}
		j->wrong +=
		    coll_check(k, j->t, j->op, j->world, j->rank, j->root, 100 + it, &c, recv);
	}
	free(send);
	free(recv);
	ring_free(r);
	if (j->rc == 0)
		boot_free(b);
	else
		boot_drop(b);
	return NULL;
}

static int next_port(void)
{
	static int p;

	if (!p)
		p = 10000 + (int)(getpid() % 20000) / 64 * 64; /* below the ephemeral range */
	return p++;
}

static void run_ranks(int world, enum coll_id coll, enum coll_dtype t, enum coll_op op,
                      size_t count, int in_place, int stripes, size_t segment, int root)
{
	pthread_t th[MAXR];
	struct job jobs[MAXR];
	int port = next_port();

	for (int i = 0; i < world; i++) {
		jobs[i] = (struct job){.rank = i,
		                       .world = world,
		                       .port = port,
		                       .stripes = stripes,
		                       .segment = segment,
		                       .coll = coll,
		                       .t = t,
		                       .op = op,
		                       .count = count,
		                       .in_place = in_place,
		                       .root = root};
		assert_int_equal(pthread_create(&th[i], NULL, rank_main, &jobs[i]), 0);
	}
	for (int i = 0; i < world; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < world; i++) {
		if (jobs[i].rc)
			fail_msg("rank %d of %d (%s, %s, count %zu): %s", i, world,
			         coll_kind_get(coll)->name, coll_dtype_name(t), count, jobs[i].msg);
		if (jobs[i].wrong)
			fail_msg("rank %d of %d (%s %s %s, count %zu, %s): %llu wrong", i, world,
			         coll_kind_get(coll)->name, coll_dtype_name(t), coll_op_name(op),
			         count, in_place ? "in place" : "out of place",
			         (unsigned long long)jobs[i].wrong);
	}
}

static void test_allreduce_exact(void **state)
{
	(void)state;
	/* odd counts, counts below and not divisible by the rank count, tiny segments */
	static const size_t counts[] = {1, 2, 3, 7, 1000, 1001, 65537};
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++)
		for (int ip = 0; ip < 2; ip++) {
			run_ranks(3, COLL_ALLREDUCE, COLL_FLOAT, COLL_SUM, counts[i], ip, 2, 4096,
			          0);
			run_ranks(4, COLL_ALLREDUCE, COLL_INT32, COLL_SUM, counts[i], ip, 3, 1000,
			          0);
		}
	run_ranks(2, COLL_ALLREDUCE, COLL_DOUBLE, COLL_SUM, 300001, 0, 4, 0, 0);
	/* >= 1 MB per rank: one worker thread per stripe */
	run_ranks(3, COLL_ALLREDUCE, COLL_FLOAT, COLL_SUM, (1 << 20) + 3, 1, 3, 100000, 0);
	run_ranks(4, COLL_ALLREDUCE, COLL_INT32, COLL_MAX, 777777, 0, 2, 65536, 0);
	run_ranks(5, COLL_ALLREDUCE, COLL_BFLOAT16, COLL_SUM, 5003, 1, 2, 2048, 0);
	run_ranks(3, COLL_ALLREDUCE, COLL_HALF, COLL_MAX, 777, 0, 1, 512, 0);
	run_ranks(3, COLL_ALLREDUCE, COLL_INT8, COLL_MIN, 12345, 0, 2, 4096, 0);
	run_ranks(2, COLL_ALLREDUCE, COLL_UINT64, COLL_PROD, 999, 1, 2, 4096, 0);
}

static void test_one_rank(void **state)
{
	(void)state;
	run_ranks(1, COLL_ALLREDUCE, COLL_FLOAT, COLL_SUM, 1000, 0, 2, 0, 0);
	run_ranks(1, COLL_ALLREDUCE, COLL_FLOAT, COLL_SUM, 1000, 1, 2, 0, 0);
	run_ranks(1, COLL_ALLGATHER, COLL_FLOAT, COLL_SUM, 10, 0, 2, 0, 0);
	run_ranks(1, COLL_BROADCAST, COLL_INT32, COLL_SUM, 10, 1, 2, 0, 0);
}

static void test_allgather_broadcast(void **state)
{
	(void)state;
	for (int ip = 0; ip < 2; ip++) {
		run_ranks(3, COLL_ALLGATHER, COLL_FLOAT, COLL_SUM, 1001, ip, 2, 1024, 0);
		run_ranks(4, COLL_ALLGATHER, COLL_INT8, COLL_SUM, 5, ip, 1, 0, 0);
		run_ranks(4, COLL_BROADCAST, COLL_FLOAT, COLL_SUM, 70001, ip, 2, 4096, 2);
		run_ranks(2, COLL_BROADCAST, COLL_DOUBLE, COLL_SUM, 3, ip, 2, 0, 1);
		run_ranks(3, COLL_ALLGATHER, COLL_FLOAT, COLL_SUM, 300001, ip, 2, 65536, 0);
		run_ranks(4, COLL_BROADCAST, COLL_FLOAT, COLL_SUM, 400001, ip, 3, 65536, 3);
	}
}

/* A rank that is gone makes its neighbours fail quickly with its name, never hang. */
struct quitter {
	int rank, world, port;
	int rc;
	char msg[ERR_MSG_LEN];
};

static void *quit_main(void *arg)
{
	struct quitter *q = arg;
	char master[64];
	struct err e = ERR_INIT;
	struct boot_opts bo = {.rank = q->rank,
	                       .world = q->world,
	                       .master = master,
	                       .timeout_ms = 5000,
	                       .params_hash = 1};
	struct ring_opts ro = {.nstripes = 2, .timeout_ms = 5000};
	struct boot *b;
	struct ring *r = NULL;
	size_t n = 1 << 20;
	float *buf;

	snprintf(master, sizeof(master), "127.0.0.1:%d", q->port);
	b = boot_new(&bo, &e);
	if (b)
		r = ring_new(b, &ro, &e);
	if (!r) {
		q->rc = -2;
		snprintf(q->msg, sizeof(q->msg), "%s", e.msg);
		boot_drop(b);
		return NULL;
	}
	if (q->rank == 2) { /* dies before the collective: its sockets close */
		ring_free(r);
		boot_drop(b);
		return NULL;
	}
	buf = calloc(n, sizeof(float));
	struct coll_call c = {.kind = coll_kind_get(COLL_ALLREDUCE),
	                      .send = buf,
	                      .recv = buf,
	                      .count = n,
	                      .dtype = COLL_FLOAT,
	                      .op = COLL_SUM,
	                      .in_place = 1};
	q->rc = ring_run(r, &c, &e);
	snprintf(q->msg, sizeof(q->msg), "%s", e.msg);
	if (q->rc < 0)
		boot_report_error(b, e.msg); /* as cmd/bench.c does: the others learn why */
	free(buf);
	ring_free(r);
	boot_drop(b);
	return NULL;
}

static void test_peer_gone(void **state)
{
	pthread_t th[4];
	struct quitter q[4];
	int port = next_port();

	(void)state;
	for (int i = 0; i < 4; i++) {
		q[i] = (struct quitter){.rank = i, .world = 4, .port = port};
		pthread_create(&th[i], NULL, quit_main, &q[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 4; i++) {
		if (i == 2)
			continue;
		assert_int_equal(q[i].rc, -1);
	}
	for (int i = 0; i < 4; i++)
		print_message("rank %d: %s\n", i, q[i].msg);
	/* the neighbours name rank 2 */
	assert_non_null(strstr(q[0].msg, "rank 2"));
	assert_non_null(strstr(q[1].msg, "rank 2"));
	assert_non_null(strstr(q[3].msg, "rank 2"));
}

/* Rank 0 of test_child_relay: a plain bootstrap, then it vanishes without a goodbye. */
static void *relay_rank0(void *arg)
{
	struct job *j = arg;
	char master[64], buf[6] = "hello";
	struct err e = ERR_INIT;
	struct boot_opts bo = {.rank = 0, .world = 2, .master = master, .timeout_ms = 10000};
	double v[2] = {1, 2};
	int mine = 100, all[2] = {0, 0};
	struct boot *b;

	snprintf(master, sizeof(master), "127.0.0.1:%d", j->port);
	j->rc = -1;
	b = boot_new(&bo, &e);
	if (b && boot_barrier(b, &e) == 0 && boot_sum(b, v, 2, &e) == 0 &&
	    boot_bcast(b, buf, sizeof(buf), &e) == 0 && boot_gather(b, &mine, sizeof(mine), all, &e) == 0)
		j->rc = v[0] == 11 && v[1] == 22 && all[0] == 100 && all[1] == 101 ? 0 : 1;
	snprintf(j->msg, sizeof(j->msg), "%s", e.msg);
	boot_drop(b);
	return NULL;
}

/* What the forked child does, through its parent only; its exit status says which step failed. */
static int relay_child(struct boot *b)
{
	struct err e = ERR_INIT;
	double v[2] = {10, 20};
	char buf[6] = "";
	int mine = 101;

	if (boot_barrier(b, &e) < 0)
		return 10;
	if (boot_sum(b, v, 2, &e) < 0 || v[0] != 11 || v[1] != 22)
		return 11;
	if (boot_bcast(b, buf, sizeof(buf), &e) < 0 || strcmp(buf, "hello"))
		return 12;
	if (boot_gather(b, &mine, sizeof(mine), NULL, &e) < 0)
		return 13;
	/* rank 0 is gone: the parent sees it and the child hears it, by name */
	if (boot_barrier(b, &e) == 0 || !strstr(e.msg, "rank 0") || !strstr(e.msg, "127.0.0.1"))
		return 14;
	return 0;
}

/* A forked child's collectives run by its parent (as coll/nccl.c's NCCL child's): exact results,
 * and a peer that vanishes named to the child. */
static void test_child_relay(void **state)
{
	struct job j0 = {.port = next_port()};
	char master[64];
	struct err e = ERR_INIT;
	struct boot_opts bo = {.rank = 1, .world = 2, .master = master, .timeout_ms = 10000};
	struct boot *b;
	pthread_t th;
	int sp[2], st = -1, sr;
	pid_t pid;

	(void)state;
	snprintf(master, sizeof(master), "127.0.0.1:%d", j0.port);
	assert_int_equal(pthread_create(&th, NULL, relay_rank0, &j0), 0);
	b = boot_new(&bo, &e);
	assert_non_null(b);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sp), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(sp[0]);
		boot_become_child(b, sp[1]);
		_exit(relay_child(b));
	}
	close(sp[1]);
	while ((sr = boot_relay_serve(b, sp[0], &e)) == 0)
		;
	assert_int_equal(sr, 1); /* the child closed its end: it is done */
	close(sp[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	pthread_join(th, NULL);
	assert_int_equal(j0.rc, 0);
	boot_drop(b);
}

static void test_join_timeout(void **state)
{
	char master[64];
	struct err e = ERR_INIT;
	struct boot_opts bo = {.rank = 0, .world = 3, .master = master, .timeout_ms = 300};

	(void)state;
	snprintf(master, sizeof(master), "127.0.0.1:%d", next_port());
	assert_null(boot_new(&bo, &e));
	assert_non_null(strstr(e.msg, "missing ranks 1, 2"));
}

static void test_hostport(void **state)
{
	char h[64];
	int p;

	(void)state;
	assert_int_equal(net_parse_listen_hostport("10.0.0.1:29500", h, sizeof(h), &p), 0);
	assert_string_equal(h, "10.0.0.1");
	assert_int_equal(p, 29500);
	assert_int_equal(net_parse_listen_hostport("[::1]:80", h, sizeof(h), &p), 0);
	assert_string_equal(h, "::1");
	assert_int_equal(net_parse_listen_hostport("::1:80", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_listen_hostport("host", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_listen_hostport("host:99999", h, sizeof(h), &p), -1);
	assert_int_equal(net_parse_listen_hostport(":80", h, sizeof(h), &p), -1);
}

static void test_decode_table(void **state)
{
	static const char ok[] = "{\"nonce\": \"0000000000000001\", \"ranks\": ["
				 "{\"addr\": \"10.0.0.1\", \"port\": 80}, {\"addr\": \"n1\", \"port\": 443}]}";
	static const char *const bad[] = {
		/* one rank short, a trailing member, a short nonce, a control character in a host,
		 * port 0, a port that is not a number */
		"{\"nonce\": \"0000000000000001\", \"ranks\": [{\"addr\": \"a\", \"port\": 1}]}",
		"{\"nonce\": \"0000000000000001\", \"ranks\": [{\"addr\": \"a\", \"port\": 1}, "
		"{\"addr\": \"b\", \"port\": 2}], \"x\": 1}",
		"{\"nonce\": \"01\", \"ranks\": [{\"addr\": \"a\", \"port\": 1}, "
		"{\"addr\": \"b\", \"port\": 2}]}",
		"{\"nonce\": \"0000000000000001\", \"ranks\": [{\"addr\": \"a\\n\", \"port\": 1}, "
		"{\"addr\": \"b\", \"port\": 2}]}",
		"{\"nonce\": \"0000000000000001\", \"ranks\": [{\"addr\": \"a\", \"port\": 0}, "
		"{\"addr\": \"b\", \"port\": 2}]}",
		"{\"nonce\": \"0000000000000001\", \"ranks\": [{\"addr\": \"a\", \"port\": \"1\"}, "
		"{\"addr\": \"b\", \"port\": 2}]}",
	};
	char addr[4][64];
	int port[4];
	uint64_t nonce;
	json_t *t;

	(void)state;
	t = json_loads(ok, 0, NULL);
	assert_non_null(t);
	assert_int_equal(boot_decode_table(t, 2, &nonce, addr, port), 0);
	assert_int_equal(nonce, 1);
	assert_string_equal(addr[0], "10.0.0.1");
	assert_int_equal(port[1], 443);
	assert_string_equal(addr[1], "n1");
	assert_int_equal(boot_decode_table(t, 3, &nonce, addr, port), -1);
	json_decref(t);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = json_loads(bad[i], 0, NULL);
		assert_non_null(t);
		assert_int_equal(boot_decode_table(t, 2, &nonce, addr, port), -1);
		json_decref(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hostport),
	    cmocka_unit_test(test_decode_table),
	    cmocka_unit_test(test_one_rank),
	    cmocka_unit_test(test_allreduce_exact),
	    cmocka_unit_test(test_allgather_broadcast),
	    cmocka_unit_test(test_peer_gone),
	    cmocka_unit_test(test_join_timeout),
	    cmocka_unit_test(test_child_relay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
