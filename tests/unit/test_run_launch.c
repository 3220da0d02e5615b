/*
 * run's cluster phase inputs: torchrun's own arguments in CMD (net/launch_argv) and the local
 * ranks' gate (net/run_gate), over a real abstract Unix socket, including a local rank 0 that
 * answers garbage and one that never comes.
 */
#include "cmocka_helpers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "net/frame.h"
#include "launch/argv.h"
#include "launch/gate.h"

static void test_torchrun_argv(void **state)
{
	char *a[] = { "torchrun", "--nnodes=2", "--nproc-per-node", "8", "--node_rank", "1",
		      "--master_addr=10.0.0.1", "--master-port", "29501", "train.py", "--node_rank=7",
		      NULL };
	char *b[] = { "/usr/bin/python3", "-u", "-m", "torch.distributed.run", "--nnodes", "1:4",
		      "--rdzv_backend=c10d", "--rdzv_endpoint=[fd00::1]:29400", "x.py", NULL };
	char *c[] = { "python3", "train.py", "--nnodes=2", NULL };
	char *d[] = { "torchrun", "--standalone", "--nnodes=1:1", "--no_python", "--node-rank=0", "sh",
		      NULL };
	char *e[] = { "torchrun", "--rdzv_endpoint", "head:29400", "--nnodes=2", NULL };
	struct torchrun_argv t;
	(void)state;

	assert_int_equal(launch_argv_torchrun(a, &t), 1);
	assert_int_equal(t.nnodes, 2);
	assert_int_equal(t.node_rank, 1);	/* the script's own --node_rank=7 is not read */
	assert_string_equal(t.master_addr, "10.0.0.1");
	assert_int_equal(t.master_port, 29501);
	assert_int_equal(launch_argv_torchrun(b, &t), 1);
	assert_int_equal(t.nnodes, -2);		/* elastic */
	assert_true(t.c10d);
	assert_string_equal(t.master_addr, "fd00::1");
	assert_int_equal(t.master_port, 29400);
	assert_int_equal(t.node_rank, -1);
	assert_int_equal(launch_argv_torchrun(c, &t), 0);
	assert_int_equal(t.nnodes, -1);
	assert_int_equal(launch_argv_torchrun(d, &t), 1);
	assert_true(t.standalone);
	assert_int_equal(t.nnodes, 1);
	assert_int_equal(t.node_rank, 0);
	assert_int_equal(launch_argv_torchrun(e, &t), 1);
	assert_string_equal(t.master_addr, "head");
	assert_int_equal(t.master_port, 29400);
	assert_int_equal(t.nnodes, 2);
	assert_int_equal(launch_argv_torchrun(NULL, &t), 0);
}

struct waiter {
	const char *key;
	long connect_ms;
	int rc;
	json_t *env;
	struct err e;
};

static void *wait_main(void *arg)
{
	struct waiter *w = arg;

	w->e = (struct err)ERR_INIT;
	w->rc = run_gate_wait(w->key, w->connect_ms, 5000, &w->env, &w->e);
	return NULL;
}

static void key_for(char *key, size_t len, const char *what)
{
	snprintf(key, len, "unit-%d-%s", (int)getpid(), what);
}

static void test_gate_go_and_stop(void **state)
{
	struct waiter w[2];
	pthread_t th[2];
	struct err e = ERR_INIT;
	struct run_gate *g;
	json_t *env = json_pack("{s:s, s:n}", "NCCL_SOCKET_IFNAME", "eth1", "NCCL_ALGO");
	char key[64];
	(void)state;

	key_for(key, sizeof(key), "go");
	/* the waiters may come before the gate opens: they retry */
	for (int i = 0; i < 2; i++) {
		w[i] = (struct waiter){ .key = key, .connect_ms = 5000 };
		assert_int_equal(pthread_create(&th[i], NULL, wait_main, &w[i]), 0);
	}
	usleep(200 * 1000);
	g = run_gate_open(key, &e);
	assert_non_null(g);
	assert_null(run_gate_open(key, &e));	/* one local rank 0 per job and node */
	assert_int_equal(run_gate_release(g, 1, env, 2, 5000), 2);
	run_gate_free(g);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].rc, 1);
		assert_string_equal(json_string_value(json_object_get(w[i].env, "NCCL_SOCKET_IFNAME")),
				    "eth1");
		assert_true(json_is_null(json_object_get(w[i].env, "NCCL_ALGO")));
		json_decref(w[i].env);
	}
	json_decref(env);

	key_for(key, sizeof(key), "stop");
	g = run_gate_open(key, &e);
	assert_non_null(g);
	w[0] = (struct waiter){ .key = key, .connect_ms = 2000 };
	assert_int_equal(pthread_create(&th[0], NULL, wait_main, &w[0]), 0);
	/* expect unknown: until a quiet spell */
	assert_int_equal(run_gate_release(g, 0, NULL, -1, 500), 1);
	run_gate_free(g);
	pthread_join(th[0], NULL);
	assert_int_equal(w[0].rc, 0);
	json_decref(w[0].env);
}

static void test_gate_never_opened(void **state)
{
	struct err e = ERR_INIT;
	json_t *env = NULL;
	char key[64];
	(void)state;

	key_for(key, sizeof(key), "never");
	assert_int_equal(run_gate_wait(key, 300, 1000, &env, &e), -1);
	assert_non_null(strstr(e.msg, "never opened its gate"));
	assert_null(env);
}

/* A fake local rank 0 that answers `msg` (or closes at once when NULL). */
struct fake {
	int fd;
	json_t *msg;
};

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	struct err e = ERR_INIT;
	int c = accept(f->fd, NULL, NULL);

	if (c >= 0) {
		if (f->msg)
			frame_write(c, f->msg, 1 << 20, 0, &e);
		close(c);
	}
	return NULL;
}

static int fake_listen(const char *key)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), n;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "ncclcheck-run-%u-%s",
		     (unsigned)getuid(), key);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n)), 0);
	assert_int_equal(listen(fd, 4), 0);
	return fd;
}

static void test_gate_rejects_garbage(void **state)
{
	const char *bad[] = {
		"{\"go\": 1, \"env\": {}}",
		"{\"go\": true, \"env\": []}",
		"{\"go\": true, \"env\": {\"A B\": \"x\"}}",
		"{\"go\": true, \"env\": {\"A\": 3}}",
		"{\"go\": true, \"env\": {\"A\": \"x\\ny\"}}",
		"{\"go\": true, \"env\": {}, \"extra\": 1}",
		NULL,	/* closes without a word */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fake f;
		pthread_t th;
		struct err e = ERR_INIT;
		json_t *env = NULL;
		char key[64];

		key_for(key, sizeof(key), "bad");
		f.fd = fake_listen(key);
		f.msg = bad[i] ? json_loads(bad[i], 0, NULL) : NULL;
		assert_true(!bad[i] || f.msg);
		assert_int_equal(pthread_create(&th, NULL, fake_main, &f), 0);
		assert_int_equal(run_gate_wait(key, 2000, 2000, &env, &e), -1);
		assert_null(env);
		assert_true(e.msg[0] != '\0');
		pthread_join(th, NULL);
		close(f.fd);
		json_decref(f.msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torchrun_argv),
		cmocka_unit_test(test_gate_go_and_stop),
		cmocka_unit_test(test_gate_never_opened),
		cmocka_unit_test(test_gate_rejects_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
