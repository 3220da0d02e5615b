/*
 * net/rdv: see rdv.h. One mutex guards the whole state; the I/O thread holds it except while it
 * polls (or connects), the calling thread holds it to queue messages and waits on the condition
 * variable (CLOCK_MONOTONIC) for the I/O thread's news.
 */
#include "net/rdv.h"

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

/* More simultaneous strangers than this on the port are turned away at once. */
#define EXTRA_CLIENTS 64
/* Bytes read from one client per loop turn, so one fast sender cannot starve the others. */
#define READ_BUDGET (256 << 10)

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

enum cstate {
	C_HELLO,	/* accepted, waiting for hello */
	C_AUTH,		/* challenge sent, waiting for auth */
	C_JOINED,	/* welcomed: a member */
	C_BYE,		/* said bye: its EOF is expected */
	C_CLOSING,	/* refused: flush the reject, then close */
};

struct client {
	int fd;			/* -1 once closed (reaped at the end of the loop turn) */
	enum cstate st;
	char addr[64];
	struct frame_reader rd;
	struct strbuf out;
	size_t out_off;
	int64_t deadline;	/* handshake step / closing deadline */
	int64_t last_rx;
	long rank, nnodes;	/* what its hello claimed */
	int sent_bytes;		/* it sent anything at all (a silent connect-close is a port probe) */
	char host[PROTO_HOST_MAX + 1];
	char wnonce[PROTO_NONCE_HEX + 1], mnonce[PROTO_NONCE_HEX + 1];
};

struct member {
	struct client *c;
	int joined, gone, byed;
	char host[PROTO_HOST_MAX + 1];
	char addr[64];
	char last_fail[256];	/* the last refused attempt that claimed this rank */
};

struct slot {
	char phase[64];
	long step;
	json_t **v;
	int got;
	struct slot *next;
};

struct inmsg {
	struct msg m;
	struct inmsg *next;
};

struct rdv {
	struct rdv_opts o;
	char *master_host, *listen_addr, *host, *proc_root;
	unsigned char *token;
	char **expected;
	int master;

	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	int th_started;
	int wake[2];

	int stop;		/* the caller is done: flush and end the I/O thread */
	int64_t stop_deadline;
	int failed;		/* fatal: `fail` says why */
	struct err fail;
	int joined_all;		/* master: every rank joined; worker: welcomed */
	int reported;		/* the report went out (master) / came in (worker) */
	int64_t join_deadline;
	int64_t next_hb;
	long hb_seq;

	struct rdv_event *ev;
	size_t nev, aev;
	struct slot *slots;

	/* master */
	int lfd;
	struct client **cl;
	size_t ncl, acl;
	struct member *mem;

	/* worker */
	struct client *wc;
	struct inmsg *inbox;
	char last_fail[300];
	enum net_fail last_why;
};

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
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (r->master && o->nnodes > 0 && o->nnodes <= PROTO_NODES_MAX) {
		r->mem = xcalloc((size_t)o->nnodes, sizeof(*r->mem));
		snprintf(r->mem[0].host, sizeof(r->mem[0].host), "%s", r->host);
		r->mem[0].joined = 1;
	}
	return r;
}

static struct client *client_new(int fd, const char *addr)
{
	struct client *c = xcalloc(1, sizeof(*c));

	c->fd = fd;
	c->rank = -1;
	snprintf(c->addr, sizeof(c->addr), "%s", addr ? addr : "?");
	frame_reader_init(&c->rd, 0);
	strbuf_init(&c->out, 0);
	return c;
}

static void client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static void client_free(struct client *c)
{
	if (!c)
		return;
	client_close(c);
	frame_reader_release(&c->rd);
	strbuf_release(&c->out);
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
	for (size_t i = 0; i < r->ncl; i++)
		client_free(r->cl[i]);
	free(r->cl);
	client_free(r->wc);
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

static void wake(struct rdv *r)
{
	if (r->wake[1] >= 0 && write(r->wake[1], "x", 1) < 0) {
		/* full pipe: a wake-up is pending already */
	}
}

__attribute__((format(printf, 7, 8)))
static void add_event(struct rdv *r, enum rdv_event_kind k, int rank, const char *host,
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
}

static const char *rank_host(struct rdv *r, int rank)
{
	if (r->mem && rank >= 0 && rank < r->o.nnodes && r->mem[rank].host[0])
		return r->mem[rank].host;
	if (rank >= 0 && (size_t)rank < r->o.nexpected && r->expected[rank])
		return r->expected[rank];
	return NULL;
}

/* "rank 2 (node-b)" or "rank 2" */
static void rank_name(struct rdv *r, int rank, char *buf, size_t len)
{
	const char *h = rank_host(r, rank);

	if (h)
		snprintf(buf, len, "rank %d (%s)", rank, h);
	else
		snprintf(buf, len, "rank %d", rank);
}

static int queue_msg(struct rdv *r, struct client *c, const struct msg *m)
{
	struct err e = ERR_INIT;
	json_t *j;
	enum frame_status st;

	if (!c || c->fd < 0)
		return -1;
	j = msg_to_json(m, &e);
	if (!j)
		return -1;
	st = frame_encode(j, r->o.frame_cap, &c->out, &e);
	json_decref(j);
	wake(r);
	return st == FRAME_OK ? 0 : -1;
}

static void queue_reject(struct rdv *r, struct client *c, const char *code, const char *text)
{
	struct msg m;

	msg_init(&m, MSG_REJECT);
	m.u.reject.code = (char *)code;
	m.u.reject.message = (char *)text;
	queue_msg(r, c, &m);
	c->st = C_CLOSING;
	c->deadline = time_now_ms() + 1000;
}

static const char *rank_host(struct rdv *r, int rank);

static void queue_abort(struct rdv *r, struct client *c, const char *code, const char *text,
			int rank)
{
	struct msg m;

	msg_init(&m, MSG_ABORT);
	m.u.abort.code = (char *)code;
	m.u.abort.message = (char *)text;
	m.u.abort.rank = rank;
	m.u.abort.host = (char *)(rank >= 0 ? rank_host(r, rank) : NULL);
	queue_msg(r, c, &m);
}

/* Master: the run cannot go on. Every joined worker hears why at once. */
static void master_fail(struct rdv *r, const char *code, int rank, int skip, enum err_code ec,
			const char *text)
{
	if (r->failed)
		return;
	r->failed = 1;
	err_set(&r->fail, ec, "%s", text);
	for (int i = 1; r->mem && i < r->o.nnodes; i++)
		if (r->mem[i].joined && !r->mem[i].gone && i != skip)
			queue_abort(r, r->mem[i].c, code, text, rank);
	pthread_cond_broadcast(&r->cv);
}

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
	r->failed = 1;
	err_set(&r->fail, ec, "%s", buf);
	pthread_cond_broadcast(&r->cv);
}

static struct slot *slot_get(struct rdv *r, const char *phase, long step)
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

static void slot_put(struct rdv *r, const char *phase, long step, int rank, json_t *v)
{
	struct slot *s = slot_get(r, phase, step);

	if (s->v[rank])
		json_decref(s->v[rank]);
	else
		s->got++;
	s->v[rank] = json_incref(v);
	pthread_cond_broadcast(&r->cv);
}

static void slot_remove(struct rdv *r, struct slot *s)
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
static int client_flush(struct client *c)
{
	while (c->fd >= 0 && c->out_off < c->out.len) {
		ssize_t w = send(c->fd, c->out.buf + c->out_off, c->out.len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0) {
			c->out_off += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1;
	}
	if (c->out_off == c->out.len) {
		strbuf_reset(&c->out);
		c->out_off = 0;
	}
	return 0;
}

static int64_t deadline_after(long ms)
{
	return time_now_ms() + (ms > 0 ? ms : 0);
}

static int cond_wait_until(struct rdv *r, int64_t deadline_ms)
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

/* ---- master ---- */

static void member_dead(struct rdv *r, int rank, const char *why)
{
	struct member *m = &r->mem[rank];
	char who[300], text[600];

	if (m->gone)
		return;
	m->gone = 1;
	if (m->c)
		client_close(m->c);
	m->c = NULL;
	/* after the report, leaving is how a run ends; after a failure, the others leave on abort */
	if (r->reported || m->byed || r->failed)
		return;
	rank_name(r, rank, who, sizeof(who));
	snprintf(text, sizeof(text), "%s %s", who, why);
	add_event(r, RDV_EV_DEAD, rank, m->host, m->addr, "dead", "%s", text);
	master_fail(r, "dead", rank, rank, ERR_PEER, text);
}

static void drop_client(struct rdv *r, struct client *c)
{
	if (c->rank >= 0 && r->mem && (c->st == C_JOINED) && r->mem[c->rank].c == c)
		r->mem[c->rank].c = NULL;
	client_close(c);
}

/* A refused claim, remembered for the missing-rank report of that rank. */
static void note_fail(struct rdv *r, long rank, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note_fail(struct rdv *r, long rank, const char *fmt, ...)
{
	va_list ap;

	if (!r->mem || rank < 0 || rank >= r->o.nnodes)
		return;
	va_start(ap, fmt);
	vsnprintf(r->mem[rank].last_fail, sizeof(r->mem[rank].last_fail), fmt, ap);
	va_end(ap);
}

static void config_error(struct rdv *r, struct client *c, enum rdv_event_kind k, const char *code,
			 const char *text)
{
	add_event(r, k, (int)c->rank, c->host, c->addr, code, "%s", text);
	queue_reject(r, c, code, text);
	master_fail(r, code, (int)c->rank, -1, ERR_USAGE, text);
}

static void on_hello(struct rdv *r, struct client *c, const struct msg_hello *h)
{
	struct msg m;
	char text[700];

	c->rank = h->rank;
	c->nnodes = h->nnodes;
	snprintf(c->host, sizeof(c->host), "%s", h->host);
	snprintf(c->wnonce, sizeof(c->wnonce), "%s", h->nonce);
	if (h->version != PROTO_VERSION) {
		snprintf(text, sizeof(text), "rank %ld (%s, %s) speaks protocol version %ld (%s), "
			 "the master (%s) speaks %d (ncclcheck %s): run the same ncclcheck on every "
			 "node", h->rank, h->host, c->addr, h->version, h->tool, r->host,
			 PROTO_VERSION, NCCLCHECK_VERSION);
		config_error(r, c, RDV_EV_VERSION, REJECT_VERSION, text);
		return;
	}
	if (r->failed) {
		queue_reject(r, c, REJECT_ABORTED, r->fail.msg);
		return;
	}
	if (auth_nonce(c->mnonce, NULL) < 0) {
		queue_reject(r, c, REJECT_PROTOCOL, "the master cannot make a nonce");
		return;
	}
	msg_init(&m, MSG_CHALLENGE);
	m.u.challenge.version = PROTO_VERSION;
	m.u.challenge.auth = r->o.token_len ? 1 : 0;
	m.u.challenge.heartbeat_ms = r->o.heartbeat_ms;
	memcpy(m.u.challenge.nonce, c->mnonce, sizeof(c->mnonce));
	queue_msg(r, c, &m);
	c->st = C_AUTH;
	c->deadline = deadline_after(r->o.handshake_ms);
}

/* The claim of a hello (count, rank, not taken), once its token is proven. */
static int claim_ok(struct rdv *r, struct client *c)
{
	char text[1400];
	long rank = c->rank;

	if (c->nnodes != r->o.nnodes) {
		snprintf(text, sizeof(text), "%s (%s, rank %ld) was told the job has %ld nodes, the "
			 "master (%s) %d: NNODES / --nodes must be the same on every node", c->host,
			 c->addr, rank, c->nnodes, r->host, r->o.nnodes);
		config_error(r, c, RDV_EV_WRONG_COUNT, REJECT_WRONG_COUNT, text);
		return 0;
	}
	if (rank >= r->o.nnodes) {
		snprintf(text, sizeof(text), "%s (%s) claims rank %ld, but the job has %d nodes "
			 "(ranks 0..%d)", c->host, c->addr, rank, r->o.nnodes, r->o.nnodes - 1);
		config_error(r, c, RDV_EV_BAD_RANK, REJECT_BAD_RANK, text);
		return 0;
	}
	if (rank == 0 || r->mem[rank].joined) {
		snprintf(text, sizeof(text), "two nodes claim rank %ld: %s (%s) and %s (%s): every "
			 "node needs its own NODE_RANK / --node-rank", rank, r->mem[rank].host,
			 rank == 0 ? "the master" : r->mem[rank].addr, c->host, c->addr);
		config_error(r, c, RDV_EV_DUPLICATE_RANK, REJECT_DUPLICATE_RANK, text);
		return 0;
	}
	return 1;
}

static void on_auth(struct rdv *r, struct client *c, const struct msg_auth *a)
{
	char text[700], want[PROTO_MAC_HEX + 1];
	struct msg m;
	long rank = c->rank;

	if (r->o.token_len) {
		auth_mac(r->o.token, r->o.token_len, "worker", c->wnonce, c->mnonce, rank,
			 r->o.nnodes, want);
		if (!auth_equal(want, a->mac)) {
			snprintf(text, sizeof(text), "%s from %s claimed rank %ld with %s", c->host,
				 c->addr, rank, a->mac[0] ? "a wrong token" : "no token");
			add_event(r, RDV_EV_AUTH_FAILED, (int)rank, c->host, c->addr, REJECT_AUTH,
				  "%s", text);
			note_fail(r, rank, "its attempt from %s (%s) was refused: %s", c->addr, c->host,
				  a->mac[0] ? "wrong token" : "no token");
			queue_reject(r, c, REJECT_AUTH, a->mac[0] ?
				     "the token does not match the master's (NCCLCHECK_TOKEN / "
				     "--token-file must be the same on every node)" :
				     "the master wants a token (NCCLCHECK_TOKEN or --token-file)");
			return;
		}
	}
	/* counts and ranks are judged only after the token: a stranger cannot end the run */
	if (!claim_ok(r, c))
		return;
	if (r->failed) {
		queue_reject(r, c, REJECT_ABORTED, r->fail.msg);
		return;
	}
	msg_init(&m, MSG_WELCOME);
	m.u.welcome.nnodes = r->o.nnodes;
	if (r->o.token_len)
		auth_mac(r->o.token, r->o.token_len, "master", c->wnonce, c->mnonce, rank,
			 r->o.nnodes, m.u.welcome.mac);
	queue_msg(r, c, &m);
	c->st = C_JOINED;
	c->last_rx = time_now_ms();
	r->mem[rank].c = c;
	r->mem[rank].joined = 1;
	snprintf(r->mem[rank].host, sizeof(r->mem[rank].host), "%s", c->host);
	snprintf(r->mem[rank].addr, sizeof(r->mem[rank].addr), "%s", c->addr);
	{
		int all = 1;

		for (int i = 0; i < r->o.nnodes; i++)
			all &= r->mem[i].joined;
		r->joined_all = all;
	}
	pthread_cond_broadcast(&r->cv);
}

static void on_member_msg(struct rdv *r, struct client *c, struct msg *m)
{
	int rank = (int)c->rank;
	long claimed = -1;

	switch (m->type) {
	case MSG_HEARTBEAT: claimed = m->u.heartbeat.rank; break;
	case MSG_FACTS: claimed = m->u.facts.rank; break;
	case MSG_RESULT: claimed = m->u.result.rank; break;
	case MSG_BYE: claimed = m->u.bye.rank; break;
	case MSG_ABORT: claimed = rank; break;
	default: break;
	}
	if (claimed != rank) {
		char why[200];

		if (claimed < 0)
			snprintf(why, sizeof(why), "broke the protocol (sent '%s' mid-run)",
				 msg_type_name(m->type));
		else
			snprintf(why, sizeof(why), "broke the protocol (a '%s' for rank %ld)",
				 msg_type_name(m->type), claimed);
		add_event(r, RDV_EV_GARBAGE, rank, c->host, c->addr, "protocol", "%s from %s %s",
			  c->host, c->addr, why);
		member_dead(r, rank, why);
		return;
	}
	switch (m->type) {
	case MSG_FACTS:
		slot_put(r, "facts", 0, rank, m->u.facts.facts);
		break;
	case MSG_RESULT:
		slot_put(r, m->u.result.phase, m->u.result.step, rank, m->u.result.payload);
		break;
	case MSG_BYE:
		c->st = C_BYE;
		r->mem[rank].byed = 1;
		pthread_cond_broadcast(&r->cv);
		break;
	case MSG_ABORT: {
		char who[300], text[PROTO_TEXT_MAX + 400];

		rank_name(r, rank, who, sizeof(who));
		snprintf(text, sizeof(text), "%s gave up: %s", who, m->u.abort.message);
		add_event(r, RDV_EV_ABORTED, rank, c->host, c->addr, m->u.abort.code, "%s", text);
		master_fail(r, m->u.abort.code, rank, rank, ERR_PEER, text);
		break;
	}
	default:
		break;
	}
}

static void master_on_msg(struct rdv *r, struct client *c, struct msg *m)
{
	if (c->st == C_HELLO && m->type == MSG_HELLO) {
		on_hello(r, c, &m->u.hello);
		return;
	}
	if (c->st == C_AUTH && m->type == MSG_AUTH) {
		on_auth(r, c, &m->u.auth);
		return;
	}
	if (c->st == C_JOINED) {
		on_member_msg(r, c, m);
		return;
	}
	if (c->st == C_CLOSING || c->st == C_BYE)
		return;
	add_event(r, RDV_EV_GARBAGE, -1, c->host[0] ? c->host : NULL, c->addr, "protocol",
		  "%s sent '%s' out of turn (expected '%s'); dropped", c->addr, msg_type_name(m->type),
		  c->st == C_HELLO ? "hello" : "auth");
	drop_client(r, c);
}

static void client_eof(struct rdv *r, struct client *c, const char *why)
{
	if (c->st == C_JOINED && c->rank >= 0 && r->mem && r->mem[c->rank].c == c) {
		member_dead(r, (int)c->rank, why);
		return;
	}
	if ((c->st == C_HELLO || c->st == C_AUTH) && c->sent_bytes)
		add_event(r, RDV_EV_GARBAGE, -1, NULL, c->addr, "eof",
			  "%s closed the connection in the middle of the handshake", c->addr);
	drop_client(r, c);
}

static int text_header(const unsigned char *h)
{
	for (int i = 0; i < FRAME_HDR; i++)
		if (h[i] < 0x20 || h[i] > 0x7e)
			return 0;
	return 1;
}

static void master_read(struct rdv *r, struct client *c)
{
	char buf[16384];
	size_t budget = READ_BUDGET;

	while (c->fd >= 0 && budget) {
		ssize_t n = recv(c->fd, buf, sizeof(buf) < budget ? sizeof(buf) : budget, MSG_DONTWAIT);
		size_t off = 0;

		if (n == 0) {
			client_eof(r, c, "closed the connection (the process ended or was killed)");
			return;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				client_eof(r, c, "reset the connection (the process ended or was killed)");
			return;
		}
		budget -= (size_t)n;
		c->sent_bytes = 1;
		c->last_rx = time_now_ms();
		if (c->st == C_CLOSING)
			continue;	/* a refused peer's last words are not read */
		while (off < (size_t)n && c->fd >= 0) {
			struct err e = ERR_INIT;
			json_t *j = NULL;
			size_t used = 0;
			enum frame_status st;
			struct msg m;

			c->rd.cap = c->st == C_JOINED ? r->o.frame_cap : 65536;
			st = frame_reader_feed(&c->rd, buf + off, (size_t)n - off, &used, &j, &e);
			off += used;
			if (st == FRAME_AGAIN)
				break;
			if (st != FRAME_OK || msg_from_json(j, &m, &e) < 0) {
				enum rdv_event_kind k = st == FRAME_TOOBIG ? RDV_EV_OVERSIZED
									   : RDV_EV_GARBAGE;

				if (st == FRAME_TOOBIG && c->st != C_JOINED && text_header(c->rd.hdr)) {
					/* "GET " is no length: a stranger speaking text (HTTP, SSH, ...) */
					k = RDV_EV_GARBAGE;
					err_set(&e, ERR_PEER, "it starts with '%.4s', not a frame header",
						(const char *)c->rd.hdr);
				}

				json_decref(j);
				add_event(r, k, c->st == C_JOINED ? (int)c->rank : -1,
					  c->host[0] ? c->host : NULL, c->addr, frame_status_name(st),
					  "%s%s%s sent %s: %s; dropped", c->addr, c->host[0] ? " " : "",
					  c->host, k == RDV_EV_OVERSIZED ? "an oversized frame" :
					  "something that is not ncclcheck's protocol", e.msg);
				if (c->st == C_JOINED && c->rank >= 0) {
					member_dead(r, (int)c->rank, "broke the protocol");
				} else {
					note_fail(r, c->rank, "its attempt from %s was dropped: %s", c->addr,
						  e.msg);
					drop_client(r, c);
				}
				return;
			}
			json_decref(j);
			master_on_msg(r, c, &m);
			msg_release(&m);
		}
	}
}

static void master_accept(struct rdv *r)
{
	for (;;) {
		char peer[64];
		struct err e = ERR_INIT;
		int fd = net_accept(r->lfd, 0, peer, sizeof(peer), &e);
		size_t live = 0;

		if (fd < 0)
			return;
		for (size_t i = 0; i < r->ncl; i++)
			live += r->cl[i]->fd >= 0;
		if (live >= (size_t)r->o.nnodes + EXTRA_CLIENTS || r->stop) {
			close(fd);
			continue;
		}
		ALLOC_GROW(r->cl, r->ncl + 1, r->acl);
		r->cl[r->ncl] = client_new(fd, peer);
		r->cl[r->ncl]->deadline = deadline_after(r->o.handshake_ms);
		r->cl[r->ncl]->rd.cap = 65536;
		r->ncl++;
	}
}

static void master_timers(struct rdv *r, int64_t now)
{
	for (size_t i = 0; i < r->ncl; i++) {
		struct client *c = r->cl[i];

		if (c->fd < 0)
			continue;
		if ((c->st == C_HELLO || c->st == C_AUTH) && now >= c->deadline) {
			add_event(r, RDV_EV_STALLED, -1, c->host[0] ? c->host : NULL, c->addr,
				  c->st == C_HELLO ? "hello" : "auth",
				  "%s%s%s sent no %s within %.1f s; dropped", c->addr,
				  c->host[0] ? " " : "", c->host, c->st == C_HELLO ? "hello" : "answer to "
				  "the challenge", (double)r->o.handshake_ms / 1000);
			note_fail(r, c->rank, "its attempt from %s stalled in the handshake", c->addr);
			drop_client(r, c);
		} else if (c->st == C_CLOSING && (now >= c->deadline || c->out.len == 0)) {
			drop_client(r, c);
		}
	}
	for (int i = 1; r->mem && i < r->o.nnodes; i++) {
		struct member *m = &r->mem[i];

		if (m->joined && !m->gone && !m->byed && m->c && now - m->c->last_rx > r->o.dead_ms) {
			char why[200];

			snprintf(why, sizeof(why), "sent nothing for %.1f s, not even a heartbeat (the "
				 "process is stopped, hung, or its host is gone)",
				 (double)(now - m->c->last_rx) / 1000);
			member_dead(r, i, why);
		}
	}
	if (!r->joined_all && !r->failed && now >= r->join_deadline) {
		struct strbuf sb = STRBUF_INIT;
		int nmiss = 0;

		for (int i = 1; i < r->o.nnodes; i++) {
			const char *h = rank_host(r, i);

			if (r->mem[i].joined)
				continue;
			add_event(r, RDV_EV_MISSING, i, h, NULL, "missing", "rank %d%s%s%s never "
				  "arrived within %.0f s%s%s", i, h ? " (" : "", h ? h : "", h ? ")" : "",
				  (double)r->o.join_timeout_ms / 1000, r->mem[i].last_fail[0] ? "; " : "",
				  r->mem[i].last_fail);
			strbuf_addf(&sb, "%s%d%s%s%s", nmiss ? ", " : "", i, h ? " (" : "",
				    h ? h : "", h ? ")" : "");
			nmiss++;
		}
		{
			char text[1024];

			snprintf(text, sizeof(text), "%s %s never joined the master %s:%d within %.0f s",
				 nmiss == 1 ? "rank" : "ranks", sb.buf, r->host, r->o.master_port,
				 (double)r->o.join_timeout_ms / 1000);
			master_fail(r, "missing", -1, -1, ERR_TIMEOUT, text);
		}
		strbuf_release(&sb);
	}
	if (now >= r->next_hb) {
		struct msg hb;

		msg_init(&hb, MSG_HEARTBEAT);
		hb.u.heartbeat.rank = 0;
		hb.u.heartbeat.seq = r->hb_seq++;
		for (int i = 1; r->mem && i < r->o.nnodes; i++)
			if (r->mem[i].joined && !r->mem[i].gone && r->mem[i].c)
				queue_msg(r, r->mem[i].c, &hb);
		r->next_hb = now + r->o.heartbeat_ms;
	}
}

static int master_flushed(struct rdv *r)
{
	for (size_t i = 0; i < r->ncl; i++)
		if (r->cl[i]->fd >= 0 && r->cl[i]->out.len > r->cl[i]->out_off)
			return 0;
	for (int i = 1; r->mem && i < r->o.nnodes; i++)
		if (r->mem[i].joined && !r->mem[i].gone && !r->mem[i].byed && !r->failed)
			return 0;
	return 1;
}

static void reap(struct rdv *r)
{
	size_t j = 0;

	for (size_t i = 0; i < r->ncl; i++) {
		struct client *c = r->cl[i];
		int member = c->rank >= 0 && r->mem && c->rank < r->o.nnodes && r->mem[c->rank].c == c;

		if (c->fd < 0 && !member)
			client_free(c);
		else
			r->cl[j++] = c;
	}
	r->ncl = j;
}

static void drain_wake(struct rdv *r)
{
	char buf[64];

	while (read(r->wake[0], buf, sizeof(buf)) > 0) {
	}
}

static void *master_main(void *arg)
{
	struct rdv *r = arg;
	struct pollfd *pfd = NULL;
	struct client **pc = NULL;
	size_t apfd = 0, apc = 0;

	pthread_mutex_lock(&r->mu);
	for (;;) {
		int64_t now = time_now_ms(), next;
		size_t n = 0;
		int timeout;

		if (r->stop && (master_flushed(r) || now >= r->stop_deadline))
			break;
		master_timers(r, now);
		for (size_t i = 0; i < r->ncl; i++)
			if (r->cl[i]->fd >= 0 && r->cl[i]->out.len > r->cl[i]->out_off &&
			    client_flush(r->cl[i]) < 0)
				client_eof(r, r->cl[i], "reset the connection");
		reap(r);

		ALLOC_GROW(pfd, r->ncl + 2, apfd);
		ALLOC_GROW(pc, r->ncl + 2, apc);
		pfd[n] = (struct pollfd){ .fd = r->wake[0], .events = POLLIN };
		pc[n++] = NULL;
		pfd[n] = (struct pollfd){ .fd = r->stop ? -1 : r->lfd, .events = POLLIN };
		pc[n++] = NULL;
		next = r->next_hb;
		for (size_t i = 0; i < r->ncl; i++) {
			struct client *c = r->cl[i];

			if (c->fd < 0)
				continue;
			pfd[n] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
			if (c->out.len > c->out_off)
				pfd[n].events |= POLLOUT;
			if ((c->st == C_HELLO || c->st == C_AUTH || c->st == C_CLOSING) &&
			    c->deadline < next)
				next = c->deadline;
			if (c->st == C_JOINED && c->last_rx + r->o.dead_ms + 1 < next)
				next = c->last_rx + r->o.dead_ms + 1;
			pc[n++] = c;
		}
		if (!r->joined_all && r->join_deadline < next)
			next = r->join_deadline;
		if (r->stop && r->stop_deadline < next)
			next = r->stop_deadline;
		timeout = next <= now ? 0 : next - now > 1000 ? 1000 : (int)(next - now);

		pthread_mutex_unlock(&r->mu);
		poll(pfd, n, timeout);
		pthread_mutex_lock(&r->mu);

		if (pfd[0].revents)
			drain_wake(r);
		if (pfd[1].revents & POLLIN)
			master_accept(r);
		for (size_t i = 2; i < n; i++) {
			struct client *c = pc[i];

			if (c->fd < 0 || !pfd[i].revents)
				continue;
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				master_read(r, c);
			if (c->fd >= 0 && (pfd[i].revents & POLLOUT) && client_flush(c) < 0)
				client_eof(r, c, "reset the connection");
		}
	}
	/* whatever is left is closed now */
	for (size_t i = 0; i < r->ncl; i++)
		client_close(r->cl[i]);
	pthread_mutex_unlock(&r->mu);
	free(pfd);
	free(pc);
	return NULL;
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
	dl = deadline_after(r->o.handshake_ms);
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
		add_event(r, RDV_EV_REJECTED, r->o.rank, r->host, NULL, in.u.reject.code,
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
		add_event(r, RDV_EV_VERSION, 0, NULL, NULL, REJECT_VERSION,
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
		add_event(r, RDV_EV_AUTH_FAILED, 0, NULL, NULL, REJECT_AUTH,
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
			add_event(r, !strcmp(w.u.reject.code, REJECT_AUTH) ? RDV_EV_AUTH_FAILED
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
				add_event(r, RDV_EV_AUTH_FAILED, 0, NULL, NULL, REJECT_AUTH,
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
	struct pollfd p = { .fd = r->wake[0], .events = POLLIN };

	if (ms > 0)
		poll(&p, 1, (int)ms);
}

/* The master is gone: closed, reset or silent. Not news after the report or a failure. */
static void worker_lost(struct rdv *r, struct client *c, const char *why)
{
	client_close(c);
	if (r->reported || r->stop || r->failed)
		return;
	add_event(r, RDV_EV_DEAD, 0, NULL, c->addr, "dead", "the master (rank 0, %s) %s", c->addr, why);
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
				add_event(r, RDV_EV_GARBAGE, 0, NULL, c->addr, frame_status_name(st),
					  "the master sent something that is not ncclcheck's protocol: %s",
					  e.msg);
				worker_fail(r, ERR_PEER, "the master broke the protocol: %s", e.msg);
				client_close(c);
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

				add_event(r, RDV_EV_ABORTED, (int)a->rank, a->host, NULL, a->code, "%s",
					  a->message);
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
				add_event(r, RDV_EV_GARBAGE, 0, NULL, c->addr, "protocol",
					  "the master sent '%s' mid-run", msg_type_name(im->m.type));
				worker_fail(r, ERR_PEER, "the master broke the protocol (sent '%s' mid-run)",
					    msg_type_name(im->m.type));
				msg_release(&im->m);
				free(im);
				client_close(c);
				return;
			}
		}
	}
}

static void *worker_main(void *arg)
{
	struct rdv *r = arg;
	long backoff = 100;
	int fd = -1;
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
			add_event(r, RDV_EV_UNREACHABLE, 0, NULL, NULL, net_fail_name(r->last_why),
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
		pthread_mutex_unlock(&r->mu);
		nap(r, backoff);
		backoff = backoff * 2 > 1000 ? 1000 : backoff * 2;
	}

	net_peer_name(fd, addr, sizeof(addr), 1);
	pthread_mutex_lock(&r->mu);
	r->wc = client_new(fd, addr);
	r->wc->rd.cap = r->o.frame_cap;
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

		if (r->stop && (c->fd < 0 || c->out.len == c->out_off || now >= r->stop_deadline))
			break;
		if (c->fd < 0 && !r->stop) {
			/* nothing more to do but wait for the caller */
			pthread_mutex_unlock(&r->mu);
			nap(r, 1000);
			pthread_mutex_lock(&r->mu);
			drain_wake(r);	/* a stale wake-up must not turn this into a busy loop */
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
			queue_msg(r, c, &hb);
			r->next_hb = now + r->o.heartbeat_ms;
		}
		if (c->out.len > c->out_off && client_flush(c) < 0) {
			worker_lost(r, c, "reset the connection");
			continue;
		}
		p[0] = (struct pollfd){ .fd = r->wake[0], .events = POLLIN };
		p[1] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
		if (c->out.len > c->out_off)
			p[1].events |= POLLOUT;
		next = r->next_hb;
		if (c->last_rx + r->o.dead_ms + 1 < next)
			next = c->last_rx + r->o.dead_ms + 1;
		if (r->stop && r->stop_deadline < next)
			next = r->stop_deadline;
		timeout = next <= now ? 0 : (int)(next - now);
		pthread_mutex_unlock(&r->mu);
		poll(p, 2, timeout);
		pthread_mutex_lock(&r->mu);
		if (p[0].revents)
			drain_wake(r);
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR))
			worker_read(r, c);
	}
	client_close(r->wc);
	pthread_mutex_unlock(&r->mu);
	return NULL;
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
	r->join_deadline = deadline_after(r->o.join_timeout_ms);
	r->next_hb = time_now_ms();
	if (r->master) {
		r->lfd = net_listen(r->o.listen_addr, r->o.master_port, 256, r->o.proc_root, e);
		if (r->lfd < 0)
			return err_prefix(e, "the master cannot listen on MASTER_PORT %d (torch's "
					  "TCPStore needs it too)", r->o.master_port);
		if (!r->o.token_len)
			add_event(r, RDV_EV_AUTH_NONE, -1, NULL, NULL, "none",
				  "no token: any process that reaches port %d may join this run",
				  r->o.master_port);
		r->joined_all = r->o.nnodes == 1;
	}
	if (pthread_create(&r->th, NULL, r->master ? master_main : worker_main, r) != 0)
		return err_set(e, ERR_SYS, "cannot start the rendezvous thread");
	r->th_started = 1;
	return 0;
}

int rdv_wait_joined(struct rdv *r, struct err *e)
{
	int rc = 0;

	pthread_mutex_lock(&r->mu);
	while (!r->joined_all && !r->failed && time_now_ms() < r->join_deadline + 5000)
		cond_wait_until(r, r->join_deadline + 5000);
	if (r->failed)
		rc = err_set(e, r->fail.code, "%s", r->fail.msg);
	else if (!r->joined_all)
		rc = err_set(e, ERR_TIMEOUT, "the join did not finish in time");
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_gather(struct rdv *r, const char *phase, long step, json_t *mine, long timeout_ms,
	       json_t **all, struct err *e)
{
	int64_t dl = deadline_after(timeout_ms);
	struct slot *s;
	int rc = 0;

	*all = NULL;
	pthread_mutex_lock(&r->mu);
	if (r->failed || !r->joined_all) {
		rc = err_set(e, r->failed ? r->fail.code : ERR_INTERNAL, "%s",
			     r->failed ? r->fail.msg : "not joined");
		json_decref(mine);
		goto out;
	}
	if (!r->master) {
		struct msg m;

		if (!strcmp(phase, "facts")) {
			msg_init(&m, MSG_FACTS);
			m.u.facts.rank = r->o.rank;
			m.u.facts.facts = mine;
		} else {
			msg_init(&m, MSG_RESULT);
			m.u.result.phase = (char *)phase;
			m.u.result.step = step;
			m.u.result.rank = r->o.rank;
			m.u.result.payload = mine;
		}
		if (queue_msg(r, r->wc, &m) < 0)
			rc = err_set(e, ERR_INTERNAL, "cannot send this node's '%s' (too big or not "
				     "an object)", phase);
		json_decref(mine);
		goto out;
	}
	s = slot_get(r, phase, step);
	if (!s->v[0])
		s->got++;
	else
		json_decref(s->v[0]);
	s->v[0] = mine;
	while (s->got < r->o.nnodes && !r->failed)
		if (cond_wait_until(r, dl) == ETIMEDOUT)
			break;
	if (r->failed) {
		rc = err_set(e, r->fail.code, "%s", r->fail.msg);
		goto out;
	}
	if (s->got < r->o.nnodes) {
		struct strbuf sb = STRBUF_INIT;
		char text[1024];

		for (int i = 0; i < r->o.nnodes; i++) {
			char who[300];

			if (s->v[i])
				continue;
			rank_name(r, i, who, sizeof(who));
			add_event(r, RDV_EV_SLOW, i, rank_host(r, i), r->mem[i].addr, phase,
				  "%s sent no '%s' result within %.1f s", who, phase,
				  (double)timeout_ms / 1000);
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", who);
		}
		snprintf(text, sizeof(text), "%s sent no '%s' result within %.1f s", sb.buf, phase,
			 (double)timeout_ms / 1000);
		strbuf_release(&sb);
		master_fail(r, "slow", -1, -1, ERR_TIMEOUT, text);
		rc = err_set(e, ERR_TIMEOUT, "%s", text);
		goto out;
	}
	*all = json_array();
	for (int i = 0; i < r->o.nnodes; i++)
		json_array_append(*all, s->v[i]);
	slot_remove(r, s);
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

/* Worker: waits for the first inbox message of `type` (and phase/step for plans). */
static struct inmsg *inbox_take(struct rdv *r, enum msg_type type, const char *phase, long step,
				int64_t dl)
{
	for (;;) {
		for (struct inmsg **pp = &r->inbox; *pp; pp = &(*pp)->next) {
			struct inmsg *im = *pp;

			if (im->m.type != type)
				continue;
			if (type == MSG_PLAN && (im->m.u.plan.step != step ||
						 strcmp(im->m.u.plan.phase, phase)))
				continue;
			*pp = im->next;
			return im;
		}
		if (r->failed)
			return NULL;
		if (cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl)
			return NULL;
	}
}

int rdv_bcast(struct rdv *r, const char *phase, long step, json_t **payload, long timeout_ms,
	      struct err *e)
{
	int rc = 0;

	pthread_mutex_lock(&r->mu);
	if (r->master) {
		struct msg m;

		if (r->failed) {
			rc = err_set(e, r->fail.code, "%s", r->fail.msg);
			goto out;
		}
		msg_init(&m, MSG_PLAN);
		m.u.plan.phase = (char *)phase;
		m.u.plan.step = step;
		m.u.plan.payload = *payload;
		for (int i = 1; i < r->o.nnodes; i++)
			if (r->mem[i].c && !r->mem[i].gone && queue_msg(r, r->mem[i].c, &m) < 0) {
				rc = err_set(e, ERR_INTERNAL, "cannot send the '%s' plan (too big?)", phase);
				break;
			}
	} else {
		struct inmsg *im = inbox_take(r, MSG_PLAN, phase, step, deadline_after(timeout_ms));

		*payload = NULL;
		if (!im) {
			if (r->failed)
				rc = err_set(e, r->fail.code, "%s", r->fail.msg);
			else
				rc = err_set(e, ERR_TIMEOUT, "the master sent no '%s' plan within %.1f s",
					     phase, (double)timeout_ms / 1000);
			goto out;
		}
		*payload = json_incref(im->m.u.plan.payload);
		msg_release(&im->m);
		free(im);
	}
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_report(struct rdv *r, json_t **report, int *exit_code, long timeout_ms, struct err *e)
{
	int rc = 0;

	pthread_mutex_lock(&r->mu);
	if (r->master) {
		struct msg m;

		msg_init(&m, MSG_REPORT);
		m.u.report.exit_code = *exit_code;
		m.u.report.report = *report;
		for (int i = 1; i < r->o.nnodes; i++)
			if (r->mem[i].c && !r->mem[i].gone && queue_msg(r, r->mem[i].c, &m) < 0)
				rc = err_set(e, ERR_INTERNAL, "cannot send the report to rank %d", i);
		r->reported = 1;
	} else {
		struct inmsg *im = inbox_take(r, MSG_REPORT, NULL, 0, deadline_after(timeout_ms));

		*report = NULL;
		if (!im) {
			rc = r->failed ? err_set(e, r->fail.code, "%s", r->fail.msg)
				       : err_set(e, ERR_TIMEOUT, "the master sent no report within %.1f s",
						 (double)timeout_ms / 1000);
			goto out;
		}
		*report = json_incref(im->m.u.report.report);
		*exit_code = (int)im->m.u.report.exit_code;
		msg_release(&im->m);
		free(im);
	}
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_call(struct rdv *r, int rank, const char *phase, long id, json_t *payload,
	     long timeout_ms, json_t **reply, struct err *e)
{
	int64_t dl = deadline_after(timeout_ms);
	struct msg m;
	struct slot *s;
	int rc = 0;

	*reply = NULL;
	pthread_mutex_lock(&r->mu);
	if (!r->master || rank <= 0 || rank >= r->o.nnodes) {
		rc = err_set(e, ERR_INTERNAL, "rdv_call to rank %d", rank);
		goto out;
	}
	if (r->failed || !r->mem[rank].c || r->mem[rank].gone) {
		rc = err_set(e, r->failed ? r->fail.code : ERR_PEER, "%s",
			     r->failed ? r->fail.msg : "that node is gone");
		goto out;
	}
	msg_init(&m, MSG_PLAN);
	m.u.plan.phase = (char *)phase;
	m.u.plan.step = id;
	m.u.plan.payload = payload;
	if (queue_msg(r, r->mem[rank].c, &m) < 0) {
		rc = err_set(e, ERR_INTERNAL, "cannot send a '%s' request (too big?)", phase);
		goto out;
	}
	s = slot_get(r, phase, id);
	while (!s->v[rank] && !r->failed && !r->mem[rank].gone)
		if (cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl)
			break;
	if (s->v[rank]) {
		*reply = s->v[rank];
		s->v[rank] = NULL;
	} else if (r->failed) {
		rc = err_set(e, r->fail.code, "%s", r->fail.msg);
	} else {
		char who[300];

		rank_name(r, rank, who, sizeof(who));
		rc = err_set(e, ERR_TIMEOUT, "%s did not answer a '%s' request within %.1f s", who,
			     phase, (double)timeout_ms / 1000);
	}
	slot_remove(r, s);
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_next_plan(struct rdv *r, long timeout_ms, char *phase, size_t len, long *step,
		  json_t **payload, struct err *e)
{
	int64_t dl = deadline_after(timeout_ms);
	int rc = -1;

	*payload = NULL;
	pthread_mutex_lock(&r->mu);
	for (;;) {
		for (struct inmsg **pp = &r->inbox; *pp; pp = &(*pp)->next) {
			struct inmsg *im = *pp;

			if (im->m.type != MSG_PLAN)
				continue;
			*pp = im->next;
			snprintf(phase, len, "%s", im->m.u.plan.phase);
			*step = im->m.u.plan.step;
			*payload = json_incref(im->m.u.plan.payload);
			msg_release(&im->m);
			free(im);
			rc = 0;
			goto out;
		}
		if (r->failed) {
			err_set(e, r->fail.code, "%s", r->fail.msg);
			goto out;
		}
		if (cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl) {
			err_set(e, ERR_TIMEOUT, "the master sent nothing to do within %.1f s",
				(double)timeout_ms / 1000);
			goto out;
		}
	}
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_reply(struct rdv *r, const char *phase, long step, json_t *payload, struct err *e)
{
	json_t *none = NULL;

	if (r->master) {
		json_decref(payload);
		return err_set(e, ERR_INTERNAL, "rdv_reply on the master");
	}
	return rdv_gather(r, phase, step, payload, 0, &none, e);
}

void rdv_abort(struct rdv *r, const char *code, const char *message, int rank)
{
	pthread_mutex_lock(&r->mu);
	if (r->master) {
		for (int i = 1; r->mem && i < r->o.nnodes; i++)
			if (r->mem[i].c && !r->mem[i].gone)
				queue_abort(r, r->mem[i].c, code, message, rank);
		if (!r->failed) {
			r->failed = 1;
			err_set(&r->fail, ERR_PEER, "%s", message);
		}
	} else if (r->wc && r->wc->fd >= 0) {
		queue_abort(r, r->wc, code, message, rank);
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
		queue_msg(r, r->wc, &m);
	}
	r->stop = 1;
	r->stop_deadline = deadline_after(r->master ? 3000 : 1500);
	wake(r);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->th, NULL);
	r->th_started = 0;
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
	h = rank_host(r, rank);
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
