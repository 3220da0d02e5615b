/*
 * net/run_gate: see run_gate.h. The socket is in the abstract namespace ("\0ncclcheck-run-UID-
 * KEY"), so it needs no file, vanishes with its process, and is per network namespace: exactly
 * one node. SOCK_CLOEXEC everywhere: nothing of it survives into CMD.
 */
#include "launch/gate.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "net/frame.h"
#include "net/sock.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define GATE_FRAME_CAP ((size_t)1 << 20)
#define GATE_WRITE_MS 2000

struct run_gate {
	int fd;
};

static socklen_t gate_addr(struct sockaddr_un *sa, const char *key)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	/* sun_path[0] stays '\0': the abstract namespace */
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "ncclcheck-run-%u-%s",
		     (unsigned)getuid(), key);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path) - 1)
		n = (int)sizeof(sa->sun_path) - 2;
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

struct run_gate *run_gate_open(const char *key, struct err *e)
{
	struct sockaddr_un sa;
	socklen_t len = gate_addr(&sa, key);
	struct run_gate *g;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0) {
		err_sys(e, "socket(AF_UNIX)");
		return NULL;
	}
	if (bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 1024) < 0) {
		err_set(e, ERR_SYS, "cannot open the local ranks' gate: %s%s", err_errno_text(errno),
			errno == EADDRINUSE ? " (another 'ncclcheck run' of this job is local rank 0 "
			"here too)" : "");
		close(fd);
		return NULL;
	}
	g = xcalloc(1, sizeof(*g));
	g->fd = fd;
	return g;
}

int run_gate_release(struct run_gate *g, int go, const json_t *env, int expect, long wait_ms)
{
	/* "o" steals the reference: the caller's env keeps its own, a fresh {} has only this one */
	json_t *msg = json_pack("{s:b, s:o}", "go", go, "env",
				env && go ? json_incref((json_t *)env) : json_object());
	int64_t until = time_now_ms() + wait_ms;
	int told = 0;

	while (expect < 0 || told < expect) {
		struct err e = ERR_INIT;
		int c;

		if (net_wait_fd(g->fd, POLLIN, until, NULL) <= 0)
			break;
		c = accept4(g->fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		if (frame_write(c, msg, GATE_FRAME_CAP, time_now_ms() + GATE_WRITE_MS, &e) == FRAME_OK)
			told++;
		close(c);
		if (expect < 0)
			until = time_now_ms() + wait_ms;	/* a quiet spell ends it */
	}
	json_decref(msg);
	close(g->fd);
	g->fd = -1;
	return told;
}

void run_gate_free(struct run_gate *g)
{
	if (!g)
		return;
	if (g->fd >= 0)
		close(g->fd);
	free(g);
}

static int name_ok(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* {"go": bool, "env": {NAME: string | null}} and nothing else. */
static int decode(json_t *msg, json_t **env, struct err *e)
{
	json_t *go = json_object_get(msg, "go"), *en = json_object_get(msg, "env"), *v;
	const char *k;

	if (json_object_size(msg) != 2 || !json_is_boolean(go) || !json_is_object(en))
		return err_set(e, ERR_PEER, "local rank 0's answer is not {go, env}");
	json_object_foreach(en, k, v)
		if (!name_ok(k) || (!json_is_string(v) && !json_is_null(v)) ||
		    (json_is_string(v) && strchr(json_string_value(v), '\n')))
			return err_set(e, ERR_PEER, "local rank 0's answer has a bad variable '%.60s'", k);
	*env = json_incref(en);
	return json_is_true(go) ? 1 : 0;
}

int run_gate_wait(const char *key, long connect_ms, long wait_ms, json_t **env, struct err *e)
{
	struct sockaddr_un sa;
	socklen_t len = gate_addr(&sa, key);
	int64_t until = time_now_ms() + connect_ms;
	json_t *msg = NULL;
	int fd = -1, rc;
	enum frame_status st;

	*env = NULL;
	for (;;) {
		enum net_fail why;

		fd = net_connect_sa((struct sockaddr *)&sa, len, NULL, until, &why, e);
		if (fd >= 0)
			break;
		if (why == NET_LOCAL)
			return -1;
		if (time_now_ms() >= until)
			return err_set(e, ERR_TIMEOUT, "local rank 0 of this node never opened its gate "
				       "within %ld s (is 'ncclcheck run' started on every task?)",
				       connect_ms / 1000);
		usleep(100 * 1000);
	}
	st = frame_read(fd, GATE_FRAME_CAP, time_now_ms() + wait_ms, &msg, e);
	close(fd);
	if (st != FRAME_OK) {
		if (st == FRAME_EOF)
			err_set(e, ERR_PEER, "local rank 0 of this node ended without a verdict");
		else if (st == FRAME_TIMEOUT)
			err_set(e, ERR_TIMEOUT, "no verdict from local rank 0 within %ld s", wait_ms / 1000);
		return -1;
	}
	rc = decode(msg, env, e);
	json_decref(msg);
	return rc;
}
