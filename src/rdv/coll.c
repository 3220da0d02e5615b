/*
 * net/rdv, the caller's collectives over the star: gather, bcast, report, call / next_plan /
 * reply. Each waits on the condition variable for the I/O thread's news. Locking: see rdv.c.
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

/* Members that left (survive_dead) without their part of `s`: nothing more will come of them. */
static int gone_unanswered(const struct rdv *r, const struct slot *s)
{
	int n = 0;

	for (int i = 1; i < r->o.nnodes; i++)
		n += r->mem[i].gone && !s->v[i];
	return n;
}

/* partial: the master returns what came by the deadline (null for the others, each named in
 * an RDV_EV_SLOW event) instead of failing the run, and what came before a failure */
static int gather(struct rdv *r, const char *phase, long step, json_t *mine, long timeout_ms,
		  int partial, json_t **all, struct err *e)
{
	int64_t dl = rdv_deadline_after(timeout_ms);
	struct slot *s;
	int rc = 0;

	*all = NULL;
	pthread_mutex_lock(&r->mu);
	/* a partial gather keeps what came before a failure */
	if ((r->failed && !partial) || !r->joined_all) {
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
		if (rdv_queue_msg(r, r->wc, &m) < 0)
			rc = err_set(e, ERR_INTERNAL, "cannot send this node's '%s' (too big or not "
				     "an object)", phase);
		json_decref(mine);
		goto out;
	}
	s = rdv_slot_get(r, phase, step);
	if (!s->v[0])
		s->got++;
	else
		json_decref(s->v[0]);
	s->v[0] = mine;
	while (s->got + (partial ? gone_unanswered(r, s) : 0) < r->o.nnodes && !r->failed)
		if (rdv_cond_wait_until(r, dl) == ETIMEDOUT)
			break;
	if (partial) {
		*all = json_array();
		for (int i = 0; i < r->o.nnodes; i++) {
			char who[300];

			json_array_append(*all, s->v[i] ? s->v[i] : json_null());
			if (s->v[i] || r->failed || r->mem[i].gone)
				continue;	/* a node that left is named dead already */
			rdv_rank_name(r, i, who, sizeof(who));
			rdv_add_event(r, RDV_EV_SLOW, i, rdv_rank_host(r, i), r->mem[i].addr, phase,
				      "%s sent no '%s' result within %.1f s", who, phase,
				      (double)timeout_ms / 1000);
		}
		rdv_slot_remove(r, s);
		goto out;
	}
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
			rdv_rank_name(r, i, who, sizeof(who));
			rdv_add_event(r, RDV_EV_SLOW, i, rdv_rank_host(r, i), r->mem[i].addr, phase,
				  "%s sent no '%s' result within %.1f s", who, phase,
				  (double)timeout_ms / 1000);
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", who);
		}
		snprintf(text, sizeof(text), "%s sent no '%s' result within %.1f s", sb.buf, phase,
			 (double)timeout_ms / 1000);
		strbuf_release(&sb);
		rdv_master_fail(r, "slow", -1, -1, ERR_TIMEOUT, text);
		rc = err_set(e, ERR_TIMEOUT, "%s", text);
		goto out;
	}
	*all = json_array();
	for (int i = 0; i < r->o.nnodes; i++)
		json_array_append(*all, s->v[i]);
	rdv_slot_remove(r, s);
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_gather(struct rdv *r, const char *phase, long step, json_t *mine, long timeout_ms,
	       json_t **all, struct err *e)
{
	return gather(r, phase, step, mine, timeout_ms, 0, all, e);
}

int rdv_gather_partial(struct rdv *r, const char *phase, long step, json_t *mine,
		       long timeout_ms, json_t **all, struct err *e)
{
	return gather(r, phase, step, mine, timeout_ms, 1, all, e);
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
		if (rdv_cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl)
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
			if (r->mem[i].c && !r->mem[i].gone && rdv_queue_msg(r, r->mem[i].c, &m) < 0) {
				rc = err_set(e, ERR_INTERNAL, "cannot send the '%s' plan (too big?)", phase);
				break;
			}
	} else {
		struct inmsg *im = inbox_take(r, MSG_PLAN, phase, step, rdv_deadline_after(timeout_ms));

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

int rdv_report(struct rdv *r, json_t **report, const struct jsplice *sp, int *exit_code,
	       long timeout_ms, struct err *e)
{
	int rc = 0;

	if (r->master) {
		struct msg m;
		struct blob *b;

		/* encoded once, without the lock: the I/O thread keeps heartbeating meanwhile, and
		 * every worker's queue shares the one copy */
		msg_init(&m, MSG_REPORT);
		m.u.report.exit_code = *exit_code;
		m.u.report.report = *report;
		b = rdv_blob_encode(&m, sp, r->o.frame_cap, FRAME_MSG_MAX, e);
		pthread_mutex_lock(&r->mu);
		if (!b)
			rc = err_prefix(e, "cannot send the report");
		for (int i = 1; b && i < r->o.nnodes; i++)
			if (r->mem[i].c && !r->mem[i].gone)
				rdv_queue_blob(r, r->mem[i].c, b);
		rdv_blob_unref(b);
		r->reported = 1;
	} else {
		struct inmsg *im;

		pthread_mutex_lock(&r->mu);
		im = inbox_take(r, MSG_REPORT, NULL, 0, rdv_deadline_after(timeout_ms));

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

int rdv_failure_report(struct rdv *r, json_t **report, long timeout_ms)
{
	int64_t dl = rdv_deadline_after(timeout_ms);
	int rc = -1;

	*report = NULL;
	pthread_mutex_lock(&r->mu);
	while (!r->master && r->master_aborted) {
		struct inmsg **pp = &r->inbox;

		while (*pp && (*pp)->m.type != MSG_REPORT)
			pp = &(*pp)->next;
		if (*pp) {
			struct inmsg *im = *pp;

			*pp = im->next;
			*report = json_incref(im->m.u.report.report);
			msg_release(&im->m);
			free(im);
			rc = 0;
			break;
		}
		if (!r->wc || r->wc->fd < 0 ||
		    (rdv_cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl))
			break;
	}
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_call(struct rdv *r, int rank, const char *phase, long id, json_t *payload,
	     long timeout_ms, json_t **reply, struct err *e)
{
	int64_t dl = rdv_deadline_after(timeout_ms);
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
	if (rdv_queue_msg(r, r->mem[rank].c, &m) < 0) {
		rc = err_set(e, ERR_INTERNAL, "cannot send a '%s' request (too big?)", phase);
		goto out;
	}
	s = rdv_slot_get(r, phase, id);
	while (!s->v[rank] && !r->failed && !r->mem[rank].gone)
		if (rdv_cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl)
			break;
	if (s->v[rank]) {
		*reply = s->v[rank];
		s->v[rank] = NULL;
	} else if (r->failed) {
		rc = err_set(e, r->fail.code, "%s", r->fail.msg);
	} else {
		char who[300];

		rdv_rank_name(r, rank, who, sizeof(who));
		rc = err_set(e, ERR_TIMEOUT, "%s did not answer a '%s' request within %.1f s", who,
			     phase, (double)timeout_ms / 1000);
	}
	rdv_slot_remove(r, s);
out:
	pthread_mutex_unlock(&r->mu);
	return rc;
}

int rdv_next_plan(struct rdv *r, long timeout_ms, char *phase, size_t len, long *step,
		  json_t **payload, struct err *e)
{
	int64_t dl = rdv_deadline_after(timeout_ms);
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
		if (rdv_cond_wait_until(r, dl) == ETIMEDOUT && time_now_ms() >= dl) {
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
