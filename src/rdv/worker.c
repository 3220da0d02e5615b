/*
 * net/rdv, worker side: connect with backoff, the handshake, then the control connection to
 * the master (heartbeats, plans and the report into the inbox). Locking: see rdv.c.
 */
#include "rdv/rdv_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "net/auth.h"
#include "net/frame.h"
#include "net/proto.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static void worker_fail(struct rdv *r, enum err_code ec, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void worker_fail(struct rdv *r, enum err_code ec, const char *fmt, ...)
{
	char buf[ERR_MSG_LEN];
	va_list ap;

	if (r->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rdv_set_failed(r, ec, buf);
}

/* ---- worker ---- */

/* 0 welcomed; 1 worth another try (the master went away mid-handshake); -1 fatal. */
static int worker_handshake(struct rdv *r, int fd, struct err *e)
{
	struct msg m, in;
	char wnonce[PROTO_NONCE_HEX + 1], want[PROTO_MAC_HEX + 1];
	int64_t dl;
	char tool[64];
	int rc = -1;

	if (auth_nonce(wnonce, e) < 0)
		return -1;
	snprintf(tool, sizeof(tool), "ncclcheck %s", NCCLCHECK_VERSION);
	msg_init(&m, MSG_HELLO);
	m.u.hello.version = PROTO_VERSION;
	m.u.hello.rank = r->o.rank;
	m.u.hello.nnodes = r->o.nnodes;
	m.u.hello.pid = getpid();
	m.u.hello.host = r->host;
	m.u.hello.tool = tool;
	memcpy(m.u.hello.nonce, wnonce, sizeof(wnonce));
	dl = rdv_deadline_after(r->o.handshake_ms);
	if (msg_send(fd, &m, r->o.frame_cap, dl, e) < 0)
		return e->code == ERR_PEER || e->code == ERR_TIMEOUT ? 1 : -1;
	if (msg_recv(fd, 65536, dl, &in, e) < 0) {
		if (e->code == ERR_PEER && !strstr(e->msg, "message") && !strstr(e->msg, "frame"))
			return 1;	/* EOF or reset before the challenge */
		if (e->code == ERR_TIMEOUT)
			return 1;
		err_prefix(e, "the process on %s:%d does not speak ncclcheck's protocol",
			   r->o.master_host, r->o.master_port);
		return -1;
	}
	if (in.type == MSG_REJECT) {
		pthread_mutex_lock(&r->mu);
		rdv_add_event(r, RDV_EV_REJECTED, r->o.rank, r->host, NULL, in.u.reject.code,
			  "the master refused this node: %s", in.u.reject.message);
		pthread_mutex_unlock(&r->mu);
		err_set(e, !strcmp(in.u.reject.code, REJECT_AUTH) ? ERR_PEER : ERR_USAGE,
			"the master refused this node (%s): %s", in.u.reject.code, in.u.reject.message);
		msg_release(&in);
		return -1;
	}
	if (in.type != MSG_CHALLENGE) {
		err_set(e, ERR_PEER, "the master sent '%s' where a challenge belongs",
			msg_type_name(in.type));
		msg_release(&in);
		return -1;
	}
	if (in.u.challenge.version != PROTO_VERSION) {
		pthread_mutex_lock(&r->mu);
		rdv_add_event(r, RDV_EV_VERSION, 0, NULL, NULL, REJECT_VERSION,
			  "the master speaks protocol version %ld, this node (%s) %d", in.u.challenge.version,
			  r->host, PROTO_VERSION);
		pthread_mutex_unlock(&r->mu);
		err_set(e, ERR_USAGE, "the master speaks protocol version %ld, this node %d: run the "
			"same ncclcheck on every node", in.u.challenge.version, PROTO_VERSION);
		msg_release(&in);
		return -1;
	}
	if (!in.u.challenge.auth && r->o.token_len) {
		pthread_mutex_lock(&r->mu);
		rdv_add_event(r, RDV_EV_AUTH_FAILED, 0, NULL, NULL, REJECT_AUTH,
			  "this node has a token but the master on %s:%d asks for none",
			  r->o.master_host, r->o.master_port);
		pthread_mutex_unlock(&r->mu);
		err_set(e, ERR_PEER, "this node has a token but the master on %s:%d asks for none: "
			"give every node the same NCCLCHECK_TOKEN / --token-file", r->o.master_host,
			r->o.master_port);
		msg_release(&in);
		return -1;
	}
	msg_init(&m, MSG_AUTH);
	if (in.u.challenge.auth)
		auth_mac(r->o.token, r->o.token_len, "worker", wnonce, in.u.challenge.nonce,
			 r->o.rank, r->o.nnodes, m.u.auth.mac);
	if (in.u.challenge.auth && !r->o.token_len)
		m.u.auth.mac[0] = '\0';
	pthread_mutex_lock(&r->mu);
	r->o.heartbeat_ms = in.u.challenge.heartbeat_ms;
	if (r->o.dead_ms < 2 * r->o.heartbeat_ms)
		r->o.dead_ms = 2 * r->o.heartbeat_ms;
	pthread_mutex_unlock(&r->mu);
	{
		char mnonce[PROTO_NONCE_HEX + 1];
		struct msg w;

		memcpy(mnonce, in.u.challenge.nonce, sizeof(mnonce));
		msg_release(&in);
		if (msg_send(fd, &m, r->o.frame_cap, dl, e) < 0)
			return 1;
		if (msg_recv(fd, 65536, dl, &w, e) < 0) {
			if (e->code == ERR_TIMEOUT || (e->code == ERR_PEER && !strstr(e->msg, "message")))
				return 1;
			return -1;
		}
		if (w.type == MSG_REJECT) {
			pthread_mutex_lock(&r->mu);
			rdv_add_event(r, !strcmp(w.u.reject.code, REJECT_AUTH) ? RDV_EV_AUTH_FAILED
									    : RDV_EV_REJECTED,
				  r->o.rank, r->host, NULL, w.u.reject.code,
				  "the master refused this node: %s", w.u.reject.message);
			pthread_mutex_unlock(&r->mu);
			err_set(e, !strcmp(w.u.reject.code, REJECT_AUTH) ? ERR_PEER : ERR_USAGE,
				"the master refused this node (%s): %s", w.u.reject.code,
				w.u.reject.message);
			msg_release(&w);
			return -1;
		}
		if (w.type != MSG_WELCOME) {
			err_set(e, ERR_PEER, "the master sent '%s' where a welcome belongs",
				msg_type_name(w.type));
			msg_release(&w);
			return -1;
		}
		rc = 0;
		if (r->o.token_len) {
			auth_mac(r->o.token, r->o.token_len, "master", wnonce, mnonce, r->o.rank,
				 r->o.nnodes, want);
			if (!auth_equal(want, w.u.welcome.mac)) {
				pthread_mutex_lock(&r->mu);
				rdv_add_event(r, RDV_EV_AUTH_FAILED, 0, NULL, NULL, REJECT_AUTH,
					  "the master on %s:%d did not prove the token",
					  r->o.master_host, r->o.master_port);
				pthread_mutex_unlock(&r->mu);
				err_set(e, ERR_PEER, "the master on %s:%d did not prove the token: it is "
					"not this job's master", r->o.master_host, r->o.master_port);
				rc = -1;
			}
		}
		msg_release(&w);
	}
	return rc;
}

/* Sleeps up to ms, or less when the caller stops us. */
static void nap(struct rdv *r, long ms)
{
	if (ms > 0)
		net_wait_fd(r->wake[0], POLLIN, time_now_ms() + ms, NULL);
}

/* The master is gone: closed, reset or silent. Not news after the report or a failure. */
static void worker_lost(struct rdv *r, struct client *c, const char *why)
{
	char own[300];

	if (r->reported || r->stop || r->failed) {
		rdv_client_close(c);
		return;
	}
	/* this node's own link first: if it is gone, the master is not to blame */
	if (rdv_own_link_down(c->fd, own, sizeof(own))) {
		rdv_client_close(c);
		rdv_add_event(r, RDV_EV_DEAD, r->o.rank, r->host, NULL, "link_down",
			  "this node (rank %d, %s) lost its own link: %s; the master (%s) is not "
			  "to blame", r->o.rank, r->host, own, c->addr);
		worker_fail(r, ERR_PEER, "this node (rank %d, %s) lost its own link: %s", r->o.rank,
			    r->host, own);
		return;
	}
	rdv_client_close(c);
	rdv_add_event(r, RDV_EV_DEAD, 0, NULL, c->addr, "dead", "the master (rank 0, %s) %s (this "
		  "node's own link to it is up)", c->addr, why);
	worker_fail(r, ERR_PEER, "the master (rank 0, %s) %s", c->addr, why);
}

static void worker_read(struct rdv *r, struct client *c)
{
	char buf[16384];
	size_t budget = READ_BUDGET;

	while (c->fd >= 0 && budget) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
		size_t off = 0;

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
			worker_lost(r, c, "closed the connection (its process ended or was killed)");
			return;
		}
		if (n < 0)
			return;
		budget -= (size_t)n;
		c->last_rx = time_now_ms();
		while (off < (size_t)n && c->fd >= 0) {
			struct err e = ERR_INIT;
			json_t *j = NULL;
			size_t used = 0;
			enum frame_status st = frame_reader_feed(&c->rd, buf + off, (size_t)n - off, &used,
								 &j, &e);
			struct inmsg *im;

			off += used;
			if (st == FRAME_AGAIN)
				break;
			im = xcalloc(1, sizeof(*im));
			if (st != FRAME_OK || msg_from_json(j, &im->m, &e) < 0) {
				json_decref(j);
				free(im);
				rdv_add_event(r, RDV_EV_GARBAGE, 0, NULL, c->addr, frame_status_name(st),
					  "the master sent something that is not ncclcheck's protocol: %s",
					  e.msg);
				worker_fail(r, ERR_PEER, "the master broke the protocol: %s", e.msg);
				rdv_client_close(c);
				return;
			}
			json_decref(j);
			switch (im->m.type) {
			case MSG_HEARTBEAT:
			case MSG_BYE:
				msg_release(&im->m);
				free(im);
				break;
			case MSG_ABORT: {
				struct msg_abort *a = &im->m.u.abort;

				rdv_add_event(r, RDV_EV_ABORTED, (int)a->rank, a->host, NULL, a->code, "%s",
					  a->message);
				if (!r->failed)
					r->master_aborted = 1;
				worker_fail(r, !strcmp(a->code, "missing") ? ERR_TIMEOUT : ERR_PEER,
					    "the master ended the run: %s", a->message);
				msg_release(&im->m);
				free(im);
				break;
			}
			case MSG_PLAN:
			case MSG_REPORT: {
				struct inmsg **pp = &r->inbox;

				if (im->m.type == MSG_REPORT)
					r->reported = 1;
				while (*pp)
					pp = &(*pp)->next;
				*pp = im;
				pthread_cond_broadcast(&r->cv);
				break;
			}
			default:
				rdv_add_event(r, RDV_EV_GARBAGE, 0, NULL, c->addr, "protocol",
					  "the master sent '%s' mid-run", msg_type_name(im->m.type));
				worker_fail(r, ERR_PEER, "the master broke the protocol (sent '%s' mid-run)",
					    msg_type_name(im->m.type));
				msg_release(&im->m);
				free(im);
				rdv_client_close(c);
				return;
			}
		}
	}
}

/* MASTER_ADDR's name: tried this many times, this far apart, before the worker gives up */
#define RESOLVE_TRIES 2
#define RESOLVE_RETRY_MS 1000

void *rdv_worker_main(void *arg)
{
	struct rdv *r = arg;
	long backoff = 100;
	int fd = -1, unresolved = 0;
	char addr[64];

	/* connect with backoff until the join deadline */
	for (;;) {
		struct err e = ERR_INIT;
		enum net_fail why = NET_OTHER;
		int64_t now = time_now_ms(), dl;
		int rc;

		pthread_mutex_lock(&r->mu);
		if (r->stop) {
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		if (now >= r->join_deadline) {
			rdv_add_event(r, RDV_EV_UNREACHABLE, 0, NULL, NULL, net_fail_name(r->last_why),
				  "the master %s:%d could not be reached within %.0f s: %s",
				  r->o.master_host, r->o.master_port, (double)r->o.join_timeout_ms / 1000,
				  r->last_fail[0] ? r->last_fail : "no attempt finished");
			worker_fail(r, ERR_TIMEOUT, "the master %s:%d could not be reached within %.0f s "
				    "(last attempt: %s)", r->o.master_host, r->o.master_port,
				    (double)r->o.join_timeout_ms / 1000,
				    r->last_fail[0] ? r->last_fail : "none finished");
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		pthread_mutex_unlock(&r->mu);
		dl = now + 3000 < r->join_deadline ? now + 3000 : r->join_deadline;
		fd = net_connect(r->o.master_host, r->o.master_port, NULL, dl, &why, &e);
		if (fd >= 0) {
			rc = worker_handshake(r, fd, &e);
			if (rc == 0)
				break;
			close(fd);
			fd = -1;
			if (rc < 0) {
				pthread_mutex_lock(&r->mu);
				worker_fail(r, e.code, "%s", e.msg);
				pthread_mutex_unlock(&r->mu);
				return NULL;
			}
			why = NET_OTHER;
		}
		pthread_mutex_lock(&r->mu);
		r->last_why = why;
		snprintf(r->last_fail, sizeof(r->last_fail), "%s", e.msg);
		/*
		 * A name that does not resolve will not start resolving while rank 0 waits: one
		 * retry a second later (a resolver that was busy), then the answer now, not at
		 * the join deadline.
		 */
		if (why == NET_RESOLVE && ++unresolved >= RESOLVE_TRIES) {
			rdv_add_event(r, RDV_EV_UNREACHABLE, 0, NULL, NULL, net_fail_name(why),
				  "the master %s:%d could not be reached: %s (tried %d times, %.0f s "
				  "apart)", r->o.master_host, r->o.master_port, e.msg, unresolved,
				  (double)RESOLVE_RETRY_MS / 1000);
			worker_fail(r, ERR_NOTFOUND, "the master %s:%d could not be reached: %s",
				    r->o.master_host, r->o.master_port, e.msg);
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		pthread_mutex_unlock(&r->mu);
		nap(r, why == NET_RESOLVE ? RESOLVE_RETRY_MS : backoff);
		backoff = backoff * 2 > 1000 ? 1000 : backoff * 2;
	}

	net_peer_name(fd, addr, sizeof(addr), 1);
	pthread_mutex_lock(&r->mu);
	r->wc = rdv_client_new(fd, addr);
	r->wc->rd.cap = r->o.frame_cap;
	/* the welcome proved the master (with a token): its report may span several frames */
	r->wc->rd.msg_cap = FRAME_MSG_MAX;
	r->wc->st = C_JOINED;
	r->wc->last_rx = time_now_ms();
	r->wc->rank = 0;
	r->joined_all = 1;
	pthread_cond_broadcast(&r->cv);
	for (;;) {
		struct client *c = r->wc;
		int64_t now = time_now_ms(), next;
		struct pollfd p[2];
		int timeout;

		if (r->stop && (c->fd < 0 || !rdv_client_pending(c) || now >= r->stop_deadline))
			break;
		if (c->fd < 0 && !r->stop) {
			/* nothing more to do but wait for the caller */
			pthread_mutex_unlock(&r->mu);
			nap(r, 1000);
			pthread_mutex_lock(&r->mu);
			rdv_drain_wake(r);	/* a stale wake-up must not turn this into a busy loop */
			continue;
		}
		if (!r->reported && !r->failed && now - c->last_rx > r->o.dead_ms) {
			char why[200];

			snprintf(why, sizeof(why), "sent nothing for %.1f s, not even a heartbeat "
				 "(stopped, hung, or its host is gone)", (double)(now - c->last_rx) / 1000);
			worker_lost(r, c, why);
			continue;
		}
		if (now >= r->next_hb) {
			struct msg hb;

			msg_init(&hb, MSG_HEARTBEAT);
			hb.u.heartbeat.rank = r->o.rank;
			hb.u.heartbeat.seq = r->hb_seq++;
			rdv_queue_msg(r, c, &hb);
			r->next_hb = now + r->o.heartbeat_ms;
		}
		if (rdv_client_pending(c) && rdv_client_flush(c) < 0) {
			worker_lost(r, c, "reset the connection");
			continue;
		}
		p[0] = (struct pollfd){ .fd = r->wake[0], .events = POLLIN };
		p[1] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
		if (rdv_client_pending(c))
			p[1].events |= POLLOUT;
		next = r->next_hb;
		if (c->last_rx + r->o.dead_ms + 1 < next)
			next = c->last_rx + r->o.dead_ms + 1;
		if (r->stop && r->stop_deadline < next)
			next = r->stop_deadline;
		timeout = next <= now ? 0 : (int)(next - now);
		pthread_mutex_unlock(&r->mu);
		net_poll(p, 2, time_now_ms() + timeout);
		pthread_mutex_lock(&r->mu);
		if (p[0].revents)
			rdv_drain_wake(r);
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR))
			worker_read(r, c);
	}
	rdv_client_close(r->wc);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}
