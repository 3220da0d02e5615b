/* The link tests' plain control connection. See link_ctl.h. */
#include "link/ctl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link/link_int.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define FRAME_WHOLE_MS 10000

int link_ctl_send(int fd, const json_t *msg, int64_t deadline_ms, struct err *e)
{
	char *text = json_dumps(msg, JSON_COMPACT);
	size_t n = text ? strlen(text) : 0;
	uint32_t be;
	int rc;

	if (!text)
		return err_set(e, ERR_INTERNAL, "cannot encode a control message");
	if (n > LINK_CTL_FRAME_MAX) {
		free(text);
		return err_set(e, ERR_USAGE, "a control message of %zu bytes is over the cap", n);
	}
	be = htonl((uint32_t)n);
	rc = net_write_full(fd, &be, sizeof(be), deadline_ms, e);
	if (rc == 0)
		rc = net_write_full(fd, text, n, deadline_ms, e);
	free(text);
	return rc;
}

json_t *link_ctl_recv(int fd, int64_t deadline_ms, struct err *e)
{
	uint32_t be, n;
	char *buf;
	json_t *j;
	json_error_t jerr;

	if (net_read_full(fd, &be, sizeof(be), deadline_ms, e) < 0)
		return NULL;
	n = ntohl(be);
	if (n == 0 || n > LINK_CTL_FRAME_MAX)
		return err_set(e, ERR_PEER, "a control frame of %u bytes (the cap is %u)", n,
			       LINK_CTL_FRAME_MAX), NULL;
	buf = xmalloc(n);
	/* the body must follow the header promptly: a peer cannot park us on half a frame */
	if (net_read_full(fd, buf, n, time_now_ms() + FRAME_WHOLE_MS < deadline_ms
				       ? time_now_ms() + FRAME_WHOLE_MS : deadline_ms, e) < 0) {
		free(buf);
		return NULL;
	}
	j = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (!j || !json_is_object(j)) {
		json_decref(j);
		return err_set(e, ERR_PEER, "a control frame is not a JSON object"), NULL;
	}
	return j;
}

static void serve_conn(int fd, struct link_agent *agent, const volatile sig_atomic_t *stop)
{
	while (!*stop) {
		struct err e = ERR_INIT;
		json_t *msg, *reply, *out;
		int r = link_poll(fd, POLLIN, time_now_ms() + 1000);

		if (r == 0)
			continue;
		if (r < 0)
			return;
		msg = link_ctl_recv(fd, time_now_ms() + FRAME_WHOLE_MS, &e);
		if (!msg) {
			if (e.code == ERR_PEER && strcmp(e.msg, "the peer closed the connection")) {
				out = json_pack("{ss}", "error", e.msg);
				link_ctl_send(fd, out, time_now_ms() + 1000, NULL);
				json_decref(out);
			}
			return;	/* garbage or a closed connection: drop it */
		}
		reply = link_agent_handle(agent, msg, &e);
		json_decref(msg);
		out = reply ? json_pack("{so}", "ok", reply) : json_pack("{ss}", "error", e.msg);
		r = link_ctl_send(fd, out, time_now_ms() + FRAME_WHOLE_MS, NULL);
		json_decref(out);
		if (r < 0)
			return;
	}
}

int link_ctl_serve(int lfd, struct link_agent *agent, const volatile sig_atomic_t *stop,
		   int idle_ms, struct err *e)
{
	int64_t idle_until = time_now_ms() + idle_ms;

	while (!*stop && time_now_ms() < idle_until) {
		int r = link_poll(lfd, POLLIN, time_now_ms() + 500), fd;

		if (r < 0 && errno != EINTR)
			return err_sys(e, "poll");
		if (r <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			continue;
		serve_conn(fd, agent, stop);
		close(fd);
		idle_until = time_now_ms() + idle_ms;
	}
	return 0;
}

json_t *link_ctl_call(void *arg, enum link_side side, const json_t *msg, int timeout_ms,
		      struct err *e)
{
	struct link_ctl_chan *c = arg;
	int64_t deadline = time_now_ms() + timeout_ms;
	json_t *reply, *ok, *er;

	if (side == LINK_SIDE_PEER)
		return link_agent_handle(c->local, msg, e);
	if (link_ctl_send(c->fd, msg, deadline, e) < 0)
		return NULL;
	reply = link_ctl_recv(c->fd, deadline, e);
	if (!reply)
		return NULL;
	ok = json_object_get(reply, "ok");
	er = json_object_get(reply, "error");
	if (json_object_size(reply) == 1 && json_is_object(ok)) {
		json_incref(ok);
		json_decref(reply);
		return ok;
	}
	if (json_object_size(reply) == 1 && json_is_string(er))
		err_set(e, ERR_PEER, "the target says: %.200s", json_string_value(er));
	else
		err_set(e, ERR_PEER, "the target's reply is neither {ok} nor {error}");
	json_decref(reply);
	return NULL;
}
