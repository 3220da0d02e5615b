/*
 * net/rdv: see rdv.h. One mutex guards the whole state; the I/O thread holds it except while it
 * polls (or connects), the calling thread holds it to queue messages and waits on the condition
 * variable (CLOCK_MONOTONIC) for the I/O thread's news.
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
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static const char *const event_names[RDV_EV_COUNT] = {
	[RDV_EV_AUTH_NONE] = "auth_none", [RDV_EV_MISSING] = "missing",
	[RDV_EV_DUPLICATE_RANK] = "duplicate_rank", [RDV_EV_WRONG_COUNT] = "wrong_count",
	[RDV_EV_BAD_RANK] = "bad_rank", [RDV_EV_VERSION] = "version",
	[RDV_EV_AUTH_FAILED] = "auth_failed", [RDV_EV_GARBAGE] = "garbage",
	[RDV_EV_OVERSIZED] = "oversized", [RDV_EV_STALLED] = "stalled", [RDV_EV_DEAD] = "dead",
	[RDV_EV_UNREACHABLE] = "unreachable", [RDV_EV_REJECTED] = "rejected",
	[RDV_EV_ABORTED] = "aborted", [RDV_EV_SLOW] = "slow",
};

const char *rdv_event_name(enum rdv_event_kind k)
{
	return (unsigned)k < RDV_EV_COUNT ? event_names[k] : "?";
}

void rdv_opts_init(struct rdv_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->master_port = 29500;
	o->nnodes = 1;
	o->join_timeout_ms = 60000;
	o->heartbeat_ms = 500;
	o->dead_ms = 3000;
	o->handshake_ms = 5000;
	o->frame_cap = FRAME_MAX_DEFAULT;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct rdv *rdv_new(const struct rdv_opts *o)
{
	struct rdv *r = xcalloc(1, sizeof(*r));
	pthread_condattr_t ca;

	r->o = *o;
	r->master_host = dup_or_null(o->master_host);
	r->listen_addr = dup_or_null(o->listen_addr);
	r->host = xstrdup(o->host ? o->host : "?");
	r->proc_root = dup_or_null(o->proc_root);
	if (o->token && o->token_len) {
		r->token = xmalloc(o->token_len);
		memcpy(r->token, o->token, o->token_len);
	} else {
		r->o.token_len = 0;
	}
	if (o->nexpected) {
		r->expected = xcalloc(o->nexpected, sizeof(*r->expected));
		for (size_t i = 0; i < o->nexpected; i++)
			r->expected[i] = dup_or_null(o->expected_hosts[i]);
	}
	r->o.master_host = r->master_host;
	r->o.listen_addr = r->listen_addr;
	r->o.host = r->host;
	r->o.proc_root = r->proc_root;
	r->o.token = r->token;
	r->o.expected_hosts = (const char *const *)r->expected;
	if (r->o.frame_cap == 0)
		r->o.frame_cap = FRAME_MAX_DEFAULT;
	if (r->o.heartbeat_ms <= 0)
		r->o.heartbeat_ms = 500;
	if (r->o.dead_ms < 2 * r->o.heartbeat_ms)
		r->o.dead_ms = 2 * r->o.heartbeat_ms;
	if (r->o.handshake_ms <= 0)
		r->o.handshake_ms = 5000;
	r->master = o->rank == 0;
	r->lfd = -1;
	r->wake[0] = r->wake[1] = -1;
	if (pipe2(r->failpipe, O_CLOEXEC | O_NONBLOCK) < 0)
		r->failpipe[0] = r->failpipe[1] = -1;
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (r->master && o->nnodes > 0 && o->nnodes <= PROTO_NODES_MAX) {
		r->mem = xcalloc((size_t)o->nnodes, sizeof(*r->mem));
		snprintf(r->mem[0].host, sizeof(r->mem[0].host), "%s", r->host);
		r->mem[0].joined = 1;
		r->mem[0].pid = getpid();
	}
	return r;
}

struct client *rdv_client_new(int fd, const char *addr)
{
	struct client *c = xcalloc(1, sizeof(*c));

	c->fd = fd;
	c->rank = -1;
	snprintf(c->addr, sizeof(c->addr), "%s", addr ? addr : "?");
	snprintf(c->src, sizeof(c->src), "%s", c->addr);
	{
		/* "10.0.0.1:4242" or "[fe80::1]:4242": the port is after the last colon */
		char *colon = strrchr(c->src, ':');

		if (colon && (c->src[0] == '[' || !memchr(c->src, ':', (size_t)(colon - c->src))))
			*colon = '\0';
	}
	c->accepted_at = time_now_ms();
	frame_reader_init(&c->rd, 0);
	return c;
}

void rdv_client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

void rdv_client_free(struct client *c)
{
	if (!c)
		return;
	rdv_client_close(c);
	frame_reader_release(&c->rd);
	while (c->out.head) {
		struct seg *g = c->out.head;

		c->out.head = g->next;
		rdv_blob_unref(g->b);
		free(g);
	}
	free(c);
}

static void slots_free(struct slot *s, int n)
{
	while (s) {
		struct slot *next = s->next;

		for (int i = 0; i < n; i++)
			json_decref(s->v[i]);
		free(s->v);
		free(s);
		s = next;
	}
}

void rdv_free(struct rdv *r)
{
	if (!r)
		return;
	if (r->th_started) {
		pthread_mutex_lock(&r->mu);
		r->stop = 1;
		r->stop_deadline = time_now_ms();
		pthread_mutex_unlock(&r->mu);
		if (r->wake[1] >= 0 && write(r->wake[1], "x", 1) < 0) {
			/* the pipe is full: the thread is awake anyway */
		}
		pthread_join(r->th, NULL);
	}
	if (r->probe_started)
		pthread_join(r->probe_th, NULL);
	for (size_t i = 0; i < r->ncl; i++)
		rdv_client_free(r->cl[i]);
	free(r->cl);
	rdv_client_free(r->wc);
	slots_free(r->slots, r->o.nnodes);
	while (r->inbox) {
		struct inmsg *n = r->inbox->next;

		msg_release(&r->inbox->m);
		free(r->inbox);
		r->inbox = n;
	}
	if (r->lfd >= 0)
		close(r->lfd);
	if (r->wake[0] >= 0)
		close(r->wake[0]);
	if (r->wake[1] >= 0)
		close(r->wake[1]);
	for (int i = 0; i < 2; i++)
		if (r->failpipe[i] >= 0)
			close(r->failpipe[i]);
	for (size_t i = 0; i < r->o.nexpected; i++)
		free(r->expected[i]);
	free(r->expected);
	free(r->mem);
	free(r->ev);
	free(r->master_host);
	free(r->listen_addr);
	free(r->host);
	free(r->proc_root);
	free(r->token);
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
	free(r);
}

/* ---- small helpers (all called with the lock held) ---- */

void rdv_wake(struct rdv *r)
{
	if (r->wake[1] >= 0 && write(r->wake[1], "x", 1) < 0) {
		/* full pipe: a wake-up is pending already */
	}
}

__attribute__((format(printf, 7, 8)))
void rdv_add_event(struct rdv *r, enum rdv_event_kind k, int rank, const char *host,
		  const char *addr, const char *code, const char *fmt, ...)
{
	struct rdv_event *ev;
	va_list ap;

	ALLOC_GROW(r->ev, r->nev + 1, r->aev);
	ev = &r->ev[r->nev++];
	memset(ev, 0, sizeof(*ev));
	ev->kind = k;
	ev->rank = rank;
	snprintf(ev->host, sizeof(ev->host), "%s", host ? host : "");
	snprintf(ev->addr, sizeof(ev->addr), "%s", addr ? addr : "");
	snprintf(ev->code, sizeof(ev->code), "%s", code ? code : "");
	va_start(ap, fmt);
	vsnprintf(ev->msg, sizeof(ev->msg), fmt, ap);
	va_end(ap);
	ev->at_ms = time_now_ms();
	ev->count = 1;
}

const char *rdv_rank_host(struct rdv *r, int rank)
{
	if (r->mem && rank >= 0 && rank < r->o.nnodes && r->mem[rank].host[0])
		return r->mem[rank].host;
	if (rank >= 0 && (size_t)rank < r->o.nexpected && r->expected[rank])
		return r->expected[rank];
	return NULL;
}

/* "rank 2 (node-b)" or "rank 2" */
void rdv_rank_name(struct rdv *r, int rank, char *buf, size_t len)
{
	const char *h = rdv_rank_host(r, rank);

	if (h)
		snprintf(buf, len, "rank %d (%s)", rank, h);
	else
		snprintf(buf, len, "rank %d", rank);
}

struct blob *rdv_blob_encode(const struct msg *m, const struct jsplice *sp, size_t frame_cap,
			     size_t msg_cap, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j = msg_to_json(m, e);
	enum frame_status st;
	struct blob *b;

	if (!j)
		return NULL;
	st = frame_encode_splice(j, sp, frame_cap, msg_cap, &sb, e);
	json_decref(j);
	if (st != FRAME_OK) {
		strbuf_release(&sb);
		return NULL;
	}
	b = xcalloc(1, sizeof(*b));
	b->refs = 1;
	b->buf = strbuf_detach(&sb, &b->len);
	return b;
}

void rdv_blob_unref(struct blob *b)
{
	if (b && --b->refs == 0) {
		free(b->buf);
		free(b);
	}
}

void rdv_queue_blob(struct rdv *r, struct client *c, struct blob *b)
{
	struct seg *g;

	if (!c || c->fd < 0)
		return;
	g = xcalloc(1, sizeof(*g));
	g->b = b;
	b->refs++;
	if (c->out.tail)
		c->out.tail->next = g;
	else
		c->out.head = g;
	c->out.tail = g;
	rdv_wake(r);
}

int rdv_queue_msg(struct rdv *r, struct client *c, const struct msg *m)
{
	struct err e = ERR_INIT;
	struct blob *b;

	if (!c || c->fd < 0)
		return -1;
	b = rdv_blob_encode(m, NULL, r->o.frame_cap, r->o.frame_cap, &e);
	if (!b)
		return -1;
	rdv_queue_blob(r, c, b);
	rdv_blob_unref(b);
	return 0;
}

int rdv_client_pending(const struct client *c)
{
	return c->out.head != NULL;
}

void rdv_queue_abort(struct rdv *r, struct client *c, const char *code, const char *text,
		    int rank)
{
	struct msg m;

	msg_init(&m, MSG_ABORT);
	m.u.abort.code = (char *)code;
	m.u.abort.message = (char *)text;
	m.u.abort.rank = rank;
	m.u.abort.host = (char *)(rank >= 0 ? rdv_rank_host(r, rank) : NULL);
	rdv_queue_msg(r, c, &m);
}

void rdv_set_failed(struct rdv *r, enum err_code ec, const char *text)
{
	if (r->failed)
		return;
	r->failed = 1;
	err_set(&r->fail, ec, "%s", text);
	if (r->failpipe[1] >= 0 && write(r->failpipe[1], "x", 1) < 0) {
		/* cannot be full: one byte, once */
	}
	pthread_cond_broadcast(&r->cv);
}

/* Master: the run cannot go on. Every joined worker hears why at once. */
void rdv_master_fail(struct rdv *r, const char *code, int rank, int skip, enum err_code ec,
		    const char *text)
{
	if (r->failed)
		return;
	rdv_set_failed(r, ec, text);
	snprintf(r->fail_code, sizeof(r->fail_code), "%s", code);
	if (ec == ERR_USAGE)
		r->linger_until = rdv_deadline_after(CONFIG_LINGER_MS);
	for (int i = 1; r->mem && i < r->o.nnodes; i++)
		if (r->mem[i].joined && !r->mem[i].gone && i != skip)
			rdv_queue_abort(r, r->mem[i].c, code, text, rank);
	pthread_cond_broadcast(&r->cv);
}

struct slot *rdv_slot_get(struct rdv *r, const char *phase, long step)
{
	struct slot *s;

	for (s = r->slots; s; s = s->next)
		if (s->step == step && !strcmp(s->phase, phase))
			return s;
	s = xcalloc(1, sizeof(*s));
	snprintf(s->phase, sizeof(s->phase), "%s", phase);
	s->step = step;
	s->v = xcalloc((size_t)r->o.nnodes, sizeof(*s->v));
	s->next = r->slots;
	r->slots = s;
	return s;
}

void rdv_slot_remove(struct rdv *r, struct slot *s)
{
	struct slot **pp = &r->slots;

	while (*pp && *pp != s)
		pp = &(*pp)->next;
	if (*pp)
		*pp = s->next;
	for (int i = 0; i < r->o.nnodes; i++)
		json_decref(s->v[i]);
	free(s->v);
	free(s);
}

/* Sends what is queued; -1 when the peer is gone. */
int rdv_client_flush(struct client *c)
{
	while (c->fd >= 0 && c->out.head) {
		struct seg *g = c->out.head;
		ssize_t w = send(c->fd, g->b->buf + g->off, g->b->len - g->off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0) {
			g->off += (size_t)w;
			if (g->off == g->b->len) {
				c->out.head = g->next;
				if (!c->out.head)
					c->out.tail = NULL;
				rdv_blob_unref(g->b);
				free(g);
			}
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1;
	}
	return 0;
}

int64_t rdv_deadline_after(long ms)
{
	return time_now_ms() + (ms > 0 ? ms : 0);
}

int rdv_cond_wait_until(struct rdv *r, int64_t deadline_ms)
{
	struct timespec ts;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	ns += (deadline_ms - time_now_ms()) * 1000000LL;
	if (ns < 0)
		ns = 0;
	ts.tv_sec = (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	return pthread_cond_timedwait(&r->cv, &r->mu, &ts);
}

void rdv_drain_wake(struct rdv *r)
{
	char buf[64];

	while (read(r->wake[0], buf, sizeof(buf)) > 0) {
	}
}

/* ---- the caller's side ---- */

int rdv_start(struct rdv *r, struct err *e)
{
	if (r->o.nnodes < 1 || r->o.nnodes > PROTO_NODES_MAX)
		return err_set(e, ERR_USAGE, "the node count %d is outside 1..%d", r->o.nnodes,
			       PROTO_NODES_MAX);
	if (r->o.rank < 0 || r->o.rank >= r->o.nnodes)
		return err_set(e, ERR_USAGE, "the node rank %d is outside 0..%d", r->o.rank,
			       r->o.nnodes - 1);
	if (!r->master && (!r->o.master_host || !*r->o.master_host))
		return err_set(e, ERR_USAGE, "no master address (MASTER_ADDR or --master)");
	if (pipe2(r->wake, O_NONBLOCK | O_CLOEXEC) < 0)
		return err_sys(e, "cannot create a pipe");
	r->join_deadline = rdv_deadline_after(r->o.join_timeout_ms);
	r->next_hb = time_now_ms();
	if (r->master) {
		if (auth_nonce(r->probe_nonce, e) < 0)
			return -1;
		r->lfd = net_listen(r->o.listen_addr, r->o.master_port, 256, r->o.proc_root, e);
		if (r->lfd < 0) {
			struct err pe = ERR_INIT;

			/* the holder may be another rank 0 of this job: then both hear it now */
			if (r->o.master_host && rdv_probe_once(r, 2000) == 1 &&
			    rdv_failed(r, &pe))
				return err_set(e, ERR_USAGE, "%s", pe.msg);
			return err_prefix(e, "the master cannot listen on MASTER_PORT %d (torch's "
					  "TCPStore needs it too)", r->o.master_port);
		}
		if (!r->o.token_len)
			rdv_add_event(r, RDV_EV_AUTH_NONE, -1, NULL, NULL, "none",
				  N_("no token: any process that reaches port %d may join this run"),
				  r->o.master_port);
		r->joined_all = r->o.nnodes == 1;
	}
	if (pthread_create(&r->th, NULL, r->master ? rdv_master_main : rdv_worker_main, r) != 0)
		return err_set(e, ERR_SYS, "cannot start the rendezvous thread");
	r->th_started = 1;
	if (r->master && r->o.nnodes > 1 && r->o.master_host && *r->o.master_host &&
	    pthread_create(&r->probe_th, NULL, rdv_probe_main, r) == 0)
		r->probe_started = 1;
	return 0;
}

int rdv_wait_joined_for(struct rdv *r, long slice_ms, struct err *e)
{
	int64_t until;
	int rc = 1;

	pthread_mutex_lock(&r->mu);
	/* the I/O thread fails the join at its deadline; 5 s more is a backstop, never reached */
	until = r->join_deadline + 5000;
	if (slice_ms >= 0 && time_now_ms() + slice_ms < until)
		until = time_now_ms() + slice_ms;
	while (!r->joined_all && !r->failed && time_now_ms() < until)
		rdv_cond_wait_until(r, until);
	if (r->failed)
		rc = err_set(e, r->fail.code, "%s", r->fail.msg);
	else if (!r->joined_all && time_now_ms() >= r->join_deadline + 5000)
		rc = err_set(e, ERR_TIMEOUT, "the join did not finish in time");
	else if (!r->joined_all)
		rc = 0;
	pthread_mutex_unlock(&r->mu);
	return rc;
}

void rdv_close_inherited(struct rdv *r)
{
	/* no lock: the parent's I/O thread may have held it at the fork, and is not here to let go;
	 * the copy of the memory is all this process has, and nobody else changes it */
	for (size_t i = 0; i < r->ncl; i++)
		if (r->cl[i]->fd >= 0) {
			close(r->cl[i]->fd);
			r->cl[i]->fd = -1;
		}
	if (r->wc && r->wc->fd >= 0) {
		close(r->wc->fd);
		r->wc->fd = -1;
	}
	if (r->lfd >= 0)
		close(r->lfd);
	r->lfd = -1;
	for (int i = 0; i < 2; i++) {
		if (r->wake[i] >= 0)
			close(r->wake[i]);
		if (r->failpipe[i] >= 0)
			close(r->failpipe[i]);
		r->wake[i] = r->failpipe[i] = -1;
	}
}

int rdv_wait_joined(struct rdv *r, struct err *e)
{
	int rc;

	while ((rc = rdv_wait_joined_for(r, -1, e)) == 0)
		;
	return rc < 0 ? -1 : 0;
}

void rdv_join_status(struct rdv *r, struct rdv_join_status *st)
{
	size_t o = 0;
	int64_t left;

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&r->mu);
	st->expected = r->o.nnodes;
	left = r->join_deadline - time_now_ms();
	st->left_ms = left > 0 ? (long)left : 0;
	if (r->master) {
		for (int i = 0; r->mem && i < r->o.nnodes; i++) {
			const char *h;

			if (r->mem[i].joined) {
				st->joined++;
				continue;
			}
			h = rdv_rank_host(r, i);
			if (o < sizeof(st->missing))
				o += (size_t)snprintf(st->missing + o, sizeof(st->missing) - o,
						      "%s%d%s%s%s", o ? ", " : "", i, h ? " (" : "",
						      h ? h : "", h ? ")" : "");
		}
	} else {
		st->joined = r->joined_all;
		snprintf(st->last_fail, sizeof(st->last_fail), "%s", r->last_fail);
	}
	pthread_mutex_unlock(&r->mu);
}

void rdv_abort(struct rdv *r, const char *code, const char *message, int rank)
{
	pthread_mutex_lock(&r->mu);
	if (r->master) {
		for (int i = 1; r->mem && i < r->o.nnodes; i++)
			if (r->mem[i].c && !r->mem[i].gone)
				rdv_queue_abort(r, r->mem[i].c, code, message, rank);
		rdv_set_failed(r, ERR_PEER, message);
	} else if (r->wc && r->wc->fd >= 0) {
		rdv_queue_abort(r, r->wc, code, message, rank);
	}
	pthread_mutex_unlock(&r->mu);
}

void rdv_finish(struct rdv *r)
{
	if (!r->th_started)
		return;
	pthread_mutex_lock(&r->mu);
	if (!r->master && r->wc && r->wc->fd >= 0) {
		struct msg m;

		msg_init(&m, MSG_BYE);
		m.u.bye.rank = r->o.rank;
		rdv_queue_msg(r, r->wc, &m);
	}
	r->stop = 1;
	/* the master stays until every worker said bye or was declared gone (heartbeats still
	 * judge the silent): a worker still reading a large report is not cut off. The cap only
	 * bounds a worker that keeps heartbeating but never says bye. */
	r->stop_deadline = rdv_deadline_after(!r->master ? 1500 : r->failed ? STOP_FAILED_MAX_MS
								     : STOP_MASTER_MAX_MS);
	rdv_wake(r);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->th, NULL);
	r->th_started = 0;
	if (r->probe_started)
		pthread_join(r->probe_th, NULL);
	r->probe_started = 0;
}

int rdv_failed(struct rdv *r, struct err *e)
{
	int f;

	pthread_mutex_lock(&r->mu);
	f = r->failed;
	if (f && e)
		err_set(e, r->fail.code, "%s", r->fail.msg);
	pthread_mutex_unlock(&r->mu);
	return f;
}

int rdv_fail_fd(const struct rdv *r)
{
	return r->failpipe[0];
}

int rdv_is_master(const struct rdv *r)
{
	return r->master;
}

int rdv_rank(const struct rdv *r)
{
	return r->o.rank;
}

int rdv_nnodes(const struct rdv *r)
{
	return r->o.nnodes;
}

int rdv_joined(struct rdv *r)
{
	int n = 0;

	pthread_mutex_lock(&r->mu);
	if (r->master)
		for (int i = 0; r->mem && i < r->o.nnodes; i++)
			n += r->mem[i].joined;
	else
		n = r->joined_all ? 1 : 0;
	pthread_mutex_unlock(&r->mu);
	return n;
}

const char *rdv_member_host(struct rdv *r, int rank)
{
	const char *h;

	if (rank == r->o.rank)
		return r->host;
	pthread_mutex_lock(&r->mu);
	h = rdv_rank_host(r, rank);
	pthread_mutex_unlock(&r->mu);
	return h;
}

const char *rdv_member_addr(struct rdv *r, int rank)
{
	const char *a = NULL;

	pthread_mutex_lock(&r->mu);
	if (r->mem && rank > 0 && rank < r->o.nnodes && r->mem[rank].joined)
		a = r->mem[rank].addr;
	pthread_mutex_unlock(&r->mu);
	return a;
}

size_t rdv_events(struct rdv *r, struct rdv_event **out)
{
	size_t n;

	pthread_mutex_lock(&r->mu);
	n = r->nev;
	*out = xcalloc(n ? n : 1, sizeof(**out));
	if (n)
		memcpy(*out, r->ev, n * sizeof(**out));
	pthread_mutex_unlock(&r->mu);
	return n;
}
