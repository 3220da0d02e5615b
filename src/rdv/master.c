/*
 * net/rdv, master side: the poll loop that accepts, handshakes and serves every client, its
 * timers (handshake deadlines, dead members, the join deadline, heartbeats). Locking: see rdv.c.
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

static void queue_reject(struct rdv *r, struct client *c, const char *code, const char *text)
{
	struct msg m;

	msg_init(&m, MSG_REJECT);
	m.u.reject.code = (char *)code;
	m.u.reject.message = (char *)text;
	rdv_queue_msg(r, c, &m);
	c->st = C_CLOSING;
	c->deadline = time_now_ms() + 1000;
}

static void slot_put(struct rdv *r, const char *phase, long step, int rank, json_t *v)
{
	struct slot *s = rdv_slot_get(r, phase, step);

	if (s->v[rank])
		json_decref(s->v[rank]);
	else
		s->got++;
	s->v[rank] = json_incref(v);
	pthread_cond_broadcast(&r->cv);
}

/* ---- master ---- */

/*
 * fmt says what the member did as one sentence whose first conversion is the member's name
 * (rdv_rank_name): the event keeps it English and the renderer finds the whole sentence in the
 * reader's language.
 */
static void member_dead(struct rdv *r, int rank, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void member_dead(struct rdv *r, int rank, const char *fmt, ...)
{
	struct member *m = &r->mem[rank];
	char who[300], text[1200], own[300];
	va_list ap;

	if (m->gone)
		return;
	/* a member the master stops hearing from: the master's own link first, the member is not
	 * to blame if that is gone (and then every member would go silent at once) */
	if (!r->reported && !m->byed && !r->failed && m->c &&
	    rdv_own_link_down(m->c->fd, own, sizeof(own))) {
		rdv_rank_name(r, rank, who, sizeof(who));
		snprintf(text, sizeof(text), "this node (rank 0, %s) lost its own link: %s; %s is "
			 "not to blame", r->host, own, who);
		rdv_add_event(r, RDV_EV_DEAD, 0, r->host, NULL, "link_down", "%s", text);
		rdv_master_fail(r, "dead", 0, -1, ERR_PEER, text);
	}
	m->gone = 1;
	if (m->c)
		rdv_client_close(m->c);
	m->c = NULL;
	/* after the report, leaving is how a run ends; after a failure, the others leave on abort */
	if (r->reported || m->byed || r->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rdv_add_event(r, RDV_EV_DEAD, rank, m->host, m->addr, "dead", "%s", text);
	if (r->o.survive_dead && r->joined_all) {
		pthread_cond_broadcast(&r->cv);	/* a partial gather stops waiting for it */
		return;
	}
	rdv_master_fail(r, "dead", rank, rank, ERR_PEER, text);
}

/*
 * What a connection that never became a member did, as an event. A flood is one event per
 * source address and kind (its count grows), not hundreds: the report names the intruder and
 * what it did, and the first connection's own words stay as they were.
 */
static void stranger_event(struct rdv *r, enum rdv_event_kind k, const struct client *c,
			   const char *code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void stranger_event(struct rdv *r, enum rdv_event_kind k, const struct client *c,
			   const char *code, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	for (size_t i = 0; i < r->nev; i++) {
		struct rdv_event *ev = &r->ev[i];
		size_t n = strlen(c->src);

		/* a source whose connections stall is one finding whether each was evicted or
		 * timed out in the handshake (which happens first depends on the load) */
		if (ev->kind != k || ev->rank != -1 ||
		    (k != RDV_EV_STALLED && strcmp(ev->code, code)) ||
		    strncmp(ev->addr, c->src, n) || (ev->addr[n] && ev->addr[n] != ':'))
			continue;
		ev->count++;
		{
			char *more = strstr(ev->msg, " [");

			if (more)
				*more = '\0';
			snprintf(text, sizeof(text) - 120, "%.380s", ev->msg);
			snprintf(ev->msg, sizeof(ev->msg), "%.380s [%d connections from %.60s did "
				 "this]", text, ev->count, c->src);
		}
		return;
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rdv_add_event(r, k, -1, c->host[0] ? c->host : NULL, c->addr, code, "%s", text);
}

static void drop_client(struct rdv *r, struct client *c)
{
	if (c->rank >= 0 && r->mem && (c->st == C_JOINED) && r->mem[c->rank].c == c)
		r->mem[c->rank].c = NULL;
	rdv_client_close(c);
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
	rdv_add_event(r, k, (int)c->rank, c->host, c->addr, code, "%s", text);
	queue_reject(r, c, code, text);
	rdv_master_fail(r, code, (int)c->rank, -1, ERR_USAGE, text);
}

static void on_hello(struct rdv *r, struct client *c, const struct msg_hello *h)
{
	struct msg m;
	char text[700];

	if (h->rank == 0 && !strcmp(h->nonce, r->probe_nonce)) {
		/* our own probe reached us: MASTER_ADDR:MASTER_PORT is this process */
		r->probe_self = 1;
		drop_client(r, c);
		return;
	}
	c->rank = h->rank;
	c->nnodes = h->nnodes;
	c->pid = h->pid;
	snprintf(c->host, sizeof(c->host), "%s", h->host);
	snprintf(c->wnonce, sizeof(c->wnonce), "%s", h->nonce);
	if (h->version != PROTO_VERSION) {
		snprintf(text, sizeof(text), "rank %ld (%s, %s) speaks protocol version %ld (%s), "
			 "the master (%s) speaks %d (ncclcheck %s): run the same ncclcheck on every "
			 "node", h->rank, h->host, c->addr, h->version, h->tool, r->host,
			 PROTO_VERSION, NCCLCHECK_VERSION);
		if (r->o.token_len) {
			/* it cannot prove the token in a protocol we may not share: a stranger must not
			 * end the run, so it is refused and named (a warning: if it was a real node,
			 * its rank's absence is the error and names this attempt) */
			stranger_event(r, RDV_EV_GARBAGE, c, REJECT_VERSION, "%s", text);
			note_fail(r, h->rank, "its attempt from %s was refused: protocol version %ld",
				  c->addr, h->version);
			queue_reject(r, c, REJECT_VERSION, text);
			return;
		}
		config_error(r, c, RDV_EV_VERSION, REJECT_VERSION, text);
		return;
	}
	if (r->failed) {
		/* the same code and sentence the joined nodes got in their abort */
		queue_reject(r, c, r->fail_code[0] ? r->fail_code : REJECT_ABORTED, r->fail.msg);
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
	rdv_queue_msg(r, c, &m);
	c->st = C_AUTH;	/* the deadline stays the accept's: one budget for the whole handshake */
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
		snprintf(text, sizeof(text), "two processes claim rank %ld: %s (%s%s, pid %ld) and "
			 "%s (%s, pid %ld): every node needs its own NODE_RANK / --node-rank", rank,
			 r->mem[rank].host, rank == 0 ? "the master at " : "", rank == 0 ?
			 (r->o.master_host ? r->o.master_host : "MASTER_ADDR") : r->mem[rank].addr,
			 r->mem[rank].pid, c->host, c->addr, c->pid);
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
			rdv_add_event(r, RDV_EV_AUTH_FAILED, (int)rank, c->host, c->addr, REJECT_AUTH,
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
	rdv_queue_msg(r, c, &m);
	c->st = C_JOINED;
	c->last_rx = time_now_ms();
	r->mem[rank].c = c;
	r->mem[rank].joined = 1;
	r->mem[rank].pid = c->pid;
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
		char who[300];

		rdv_rank_name(r, rank, who, sizeof(who));
		if (claimed < 0) {
			rdv_add_event(r, RDV_EV_GARBAGE, rank, c->host, c->addr, "protocol",
				      "%s from %s broke the protocol (sent '%s' mid-run)", c->host,
				      c->addr, msg_type_name(m->type));
			member_dead(r, rank, N_("%s broke the protocol (sent '%s' mid-run)"), who,
				    msg_type_name(m->type));
		} else {
			rdv_add_event(r, RDV_EV_GARBAGE, rank, c->host, c->addr, "protocol",
				      "%s from %s broke the protocol (a '%s' for rank %ld)", c->host,
				      c->addr, msg_type_name(m->type), claimed);
			member_dead(r, rank, N_("%s broke the protocol (a '%s' for rank %ld)"), who,
				    msg_type_name(m->type), claimed);
		}
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

		rdv_rank_name(r, rank, who, sizeof(who));
		snprintf(text, sizeof(text), "%s gave up: %s", who, m->u.abort.message);
		rdv_add_event(r, RDV_EV_ABORTED, rank, c->host, c->addr, m->u.abort.code, "%s", text);
		rdv_master_fail(r, m->u.abort.code, rank, rank, ERR_PEER, text);
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
	stranger_event(r, RDV_EV_GARBAGE, c, "protocol",
		       "%s sent '%s' out of turn (expected '%s'); dropped", c->addr,
		       msg_type_name(m->type), c->st == C_HELLO ? "hello" : "auth");
	drop_client(r, c);
}

/* why: a sentence whose one conversion is the member's name, as member_dead() takes it */
static void client_eof(struct rdv *r, struct client *c, const char *why)
	__attribute__((format(printf, 3, 0)));
static void client_eof(struct rdv *r, struct client *c, const char *why)
{
	if (c->st == C_JOINED && c->rank >= 0 && r->mem && r->mem[c->rank].c == c) {
		char who[300];

		rdv_rank_name(r, (int)c->rank, who, sizeof(who));
		member_dead(r, (int)c->rank, why, who);
		return;
	}
	if ((c->st == C_HELLO || c->st == C_AUTH) && c->sent_bytes)
		stranger_event(r, RDV_EV_GARBAGE, c, "eof",
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
			client_eof(r, c, N_("%s closed the connection (the process ended or was killed)"));
			return;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				client_eof(r, c, N_("%s reset the connection (the process ended or was killed)"));
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
				if (c->st == C_JOINED)
					rdv_add_event(r, k, (int)c->rank, c->host, c->addr,
						  frame_status_name(st), "%s %s sent %s: %s; dropped",
						  c->addr, c->host, k == RDV_EV_OVERSIZED ?
						  N_("an oversized frame") :
						  N_("something that is not ncclcheck's protocol"), e.msg);
				else
					stranger_event(r, k, c, frame_status_name(st),
						       "%s%s%s sent %s: %s; dropped", c->addr,
						       c->host[0] ? " " : "", c->host,
						       k == RDV_EV_OVERSIZED ? N_("an oversized frame") :
						       N_("something that is not ncclcheck's protocol"),
						       e.msg);
				if (c->st == C_JOINED && c->rank >= 0) {
					char who[300];

					rdv_rank_name(r, (int)c->rank, who, sizeof(who));
					member_dead(r, (int)c->rank, N_("%s broke the protocol"), who);
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

/* Unproven connections (hello, auth): the only ones the limits count. */
static int pending(const struct client *c)
{
	return c->fd >= 0 && (c->st == C_HELLO || c->st == C_AUTH);
}

/*
 * Makes room for one more unproven connection from `src`: past the per-address cap, the oldest
 * of src's own; past the total cap, the oldest of the address holding the most. Never a member.
 */
static void make_room(struct rdv *r, const char *src)
{
	size_t total = 0, mine = 0, best = 0;
	const char *crowd = NULL;
	struct client *victim = NULL;

	for (size_t i = 0; i < r->ncl; i++) {
		struct client *c = r->cl[i];
		size_t same = 0;

		if (!pending(c))
			continue;
		total++;
		if (!strcmp(c->src, src))
			mine++;
		for (size_t k = 0; k < r->ncl; k++)
			same += pending(r->cl[k]) && !strcmp(r->cl[k]->src, c->src);
		if (same > best) {
			best = same;
			crowd = c->src;
		}
	}
	if (mine >= PER_SRC_PENDING)
		crowd = src;
	else if (total < PENDING_MAX)
		return;
	for (size_t i = 0; i < r->ncl; i++) {
		struct client *c = r->cl[i];

		if (pending(c) && !strcmp(c->src, crowd) &&
		    (!victim || c->accepted_at < victim->accepted_at))
			victim = c;
	}
	if (!victim)
		return;
	stranger_event(r, RDV_EV_STALLED, victim, "evicted",
		       "%s held connections to the master's port open without finishing the "
		       "handshake; the oldest were closed to let others in", victim->src);
	note_fail(r, victim->rank, "its attempt from %s was closed to make room (the port was "
		  "crowded by unproven connections)", victim->addr);
	drop_client(r, victim);
}

static void master_accept(struct rdv *r)
{
	for (;;) {
		char peer[64];
		struct err e = ERR_INIT;
		struct client *c;
		int fd = net_accept(r->lfd, 0, peer, sizeof(peer), &e);

		if (fd < 0)
			return;
		if (r->stop && time_now_ms() >= r->linger_until) {
			close(fd);
			continue;
		}
		c = rdv_client_new(fd, peer);
		make_room(r, c->src);
		/* one budget for the whole handshake, from the accept: trickling bytes buys nothing */
		c->deadline = rdv_deadline_after(r->o.handshake_ms);
		c->rd.cap = 65536;
		ALLOC_GROW(r->cl, r->ncl + 1, r->acl);
		r->cl[r->ncl++] = c;
	}
}

static void master_timers(struct rdv *r, int64_t now)
{
	for (size_t i = 0; i < r->ncl; i++) {
		struct client *c = r->cl[i];

		if (c->fd < 0)
			continue;
		if ((c->st == C_HELLO || c->st == C_AUTH) && now >= c->deadline) {
			stranger_event(r, RDV_EV_STALLED, c, c->st == C_HELLO ? "hello" : "auth",
				       "%s%s%s sent no %s within %.1f s; dropped", c->addr,
				       c->host[0] ? " " : "", c->host, c->st == C_HELLO ? "hello" :
				       N_("answer to the challenge"), (double)r->o.handshake_ms / 1000);
			note_fail(r, c->rank, "its attempt from %s stalled in the handshake", c->addr);
			drop_client(r, c);
		} else if (c->st == C_CLOSING && (now >= c->deadline || !rdv_client_pending(c))) {
			drop_client(r, c);
		}
	}
	for (int i = 1; r->mem && i < r->o.nnodes; i++) {
		struct member *m = &r->mem[i];

		if (m->joined && !m->gone && !m->byed && m->c && now - m->c->last_rx > r->o.dead_ms) {
			char who[300];
			unsigned unacked, since_ack;

			rdv_rank_name(r, i, who, sizeof(who));
			/* its kernel acknowledges the heartbeats even while its process is stopped:
			 * when it no longer does, the node's link (or the node) is gone */
			if (net_tcp_acks(m->c->fd, &unacked, &since_ack) == 0 && unacked > 0 &&
			    since_ack >= ACK_SILENT_MS)
				member_dead(r, i, N_("%s sent nothing for %.1f s and its host has "
						     "acknowledged nothing this node sent for %.1f s: its "
						     "link or its host is down (a stopped process would "
						     "still be acknowledged)"), who,
					    (double)(now - m->c->last_rx) / 1000, (double)since_ack / 1000);
			else
				member_dead(r, i, N_("%s sent nothing for %.1f s, not even a heartbeat "
						     "(the process is stopped, hung, or its host is gone)"),
					    who, (double)(now - m->c->last_rx) / 1000);
		}
	}
	if (!r->joined_all && !r->failed && now >= r->join_deadline) {
		struct strbuf sb = STRBUF_INIT;
		int nmiss = 0;

		for (int i = 1; i < r->o.nnodes; i++) {
			const char *h = rdv_rank_host(r, i);

			if (r->mem[i].joined)
				continue;
			rdv_add_event(r, RDV_EV_MISSING, i, h, NULL, "missing", "rank %d%s%s%s never "
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
			rdv_master_fail(r, "missing", -1, -1, ERR_TIMEOUT, text);
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
				rdv_queue_msg(r, r->mem[i].c, &hb);
		r->next_hb = now + r->o.heartbeat_ms;
	}
}

static int master_flushed(struct rdv *r)
{
	for (size_t i = 0; i < r->ncl; i++)
		if (r->cl[i]->fd >= 0 && rdv_client_pending(r->cl[i]))
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
			rdv_client_free(c);
		else
			r->cl[j++] = c;
	}
	r->ncl = j;
}

void *rdv_master_main(void *arg)
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

		if (r->stop && (master_flushed(r) || now >= r->stop_deadline) &&
		    now >= r->linger_until)
			break;
		master_timers(r, now);
		for (size_t i = 0; i < r->ncl; i++)
			if (r->cl[i]->fd >= 0 && rdv_client_pending(r->cl[i]) &&
			    rdv_client_flush(r->cl[i]) < 0)
				client_eof(r, r->cl[i], N_("%s reset the connection"));
		reap(r);

		ALLOC_GROW(pfd, r->ncl + 2, apfd);
		ALLOC_GROW(pc, r->ncl + 2, apc);
		pfd[n] = (struct pollfd){ .fd = r->wake[0], .events = POLLIN };
		pc[n++] = NULL;
		pfd[n] = (struct pollfd){ .fd = r->stop && now >= r->linger_until ? -1 : r->lfd,
					  .events = POLLIN };
		pc[n++] = NULL;
		next = r->next_hb;
		for (size_t i = 0; i < r->ncl; i++) {
			struct client *c = r->cl[i];

			if (c->fd < 0)
				continue;
			pfd[n] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
			if (rdv_client_pending(c))
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
		if (r->stop && r->linger_until > now && r->linger_until < next)
			next = r->linger_until;
		timeout = next <= now ? 0 : next - now > 1000 ? 1000 : (int)(next - now);

		pthread_mutex_unlock(&r->mu);
		net_poll(pfd, n, time_now_ms() + timeout);
		pthread_mutex_lock(&r->mu);

		if (pfd[0].revents)
			rdv_drain_wake(r);
		if (pfd[1].revents & POLLIN)
			master_accept(r);
		for (size_t i = 2; i < n; i++) {
			struct client *c = pc[i];

			if (c->fd < 0 || !pfd[i].revents)
				continue;
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				master_read(r, c);
			if (c->fd >= 0 && (pfd[i].revents & POLLOUT) && rdv_client_flush(c) < 0)
				client_eof(r, c, N_("%s reset the connection"));
		}
	}
	/* whatever is left is closed now */
	for (size_t i = 0; i < r->ncl; i++)
		rdv_client_close(r->cl[i]);
	pthread_mutex_unlock(&r->mu);
	free(pfd);
	free(pc);
	return NULL;
}

/* ---- is rank 0 this process? ---- */

/*
 * A second process started with rank 0 listens happily on its own host and waits for workers
 * that all go to MASTER_ADDR, while the real master waits for the rank that process should have
 * been. So a master asks MASTER_ADDR:MASTER_PORT itself, as a would-be rank 0: its own listener
 * knows the nonce and drops the question; another master judges the claim like any duplicate
 * rank (after the token, so a stranger cannot end a run), names both processes, aborts its run
 * and rejects us with that same sentence, which ends ours.
 */
int rdv_probe_once(struct rdv *r, long timeout_ms)
{
	int64_t dl = rdv_deadline_after(timeout_ms);
	struct err e = ERR_INIT;
	struct msg m, in;
	char tool[64], text[PROTO_TEXT_MAX + 200];
	int fd, other = 0;

	fd = net_connect(r->o.master_host, r->o.master_port, NULL, dl, NULL, &e);
	if (fd < 0)
		return 0;
	snprintf(tool, sizeof(tool), "ncclcheck %s", NCCLCHECK_VERSION);
	msg_init(&m, MSG_HELLO);
	m.u.hello.version = PROTO_VERSION;
	m.u.hello.rank = 0;
	m.u.hello.nnodes = r->o.nnodes;
	m.u.hello.pid = getpid();
	m.u.hello.host = r->host;
	m.u.hello.tool = tool;
	memcpy(m.u.hello.nonce, r->probe_nonce, sizeof(r->probe_nonce));
	if (msg_send(fd, &m, r->o.frame_cap, dl, &e) < 0 || msg_recv(fd, 65536, dl, &in, &e) < 0) {
		close(fd);
		return 0;	/* ourselves (dropped), or nobody who speaks the protocol */
	}
	if (in.type == MSG_CHALLENGE) {
		char mnonce[PROTO_NONCE_HEX + 1];

		memcpy(mnonce, in.u.challenge.nonce, sizeof(mnonce));
		msg_release(&in);
		msg_init(&m, MSG_AUTH);
		if (r->o.token_len)
			auth_mac(r->o.token, r->o.token_len, "worker", r->probe_nonce, mnonce, 0,
				 r->o.nnodes, m.u.auth.mac);
		if (msg_send(fd, &m, r->o.frame_cap, dl, &e) < 0 ||
		    msg_recv(fd, 65536, dl, &in, &e) < 0) {
			close(fd);
			return 0;
		}
	}
	close(fd);
	if (in.type == MSG_REJECT && !strcmp(in.u.reject.code, REJECT_DUPLICATE_RANK)) {
		snprintf(text, sizeof(text), "%s", in.u.reject.message);
		other = 1;
	}
	msg_release(&in);
	if (!other)
		return 0;	/* another job's master, or one of another version: not ours to judge */
	pthread_mutex_lock(&r->mu);
	rdv_add_event(r, RDV_EV_DUPLICATE_RANK, 0, r->host, NULL, REJECT_DUPLICATE_RANK, "%s", text);
	rdv_master_fail(r, REJECT_DUPLICATE_RANK, 0, -1, ERR_USAGE, text);
	rdv_wake(r);
	pthread_mutex_unlock(&r->mu);
	return 1;
}

void *rdv_probe_main(void *arg)
{
	struct rdv *r = arg;

	for (;;) {
		int done;

		pthread_mutex_lock(&r->mu);
		done = r->stop || r->failed || r->probe_self || r->joined_all;
		pthread_mutex_unlock(&r->mu);
		if (done || rdv_probe_once(r, 1000))
			return NULL;
		for (int i = 0; i < 10; i++) {
			pthread_mutex_lock(&r->mu);
			done = r->stop || r->failed || r->probe_self;
			pthread_mutex_unlock(&r->mu);
			if (done)
				return NULL;
			nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
		}
	}
}
