/*
 * Roles, the agent that executes role messages on a node, and the pair driver that runs a whole
 * test over a channel. See link_test.h and link_agent.h.
 */
#include "link/agent.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/link_int.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct link_server *link_server_start(const struct link_req *req, struct link_ready *ready,
				      struct err *e)
{
	struct link_server *s;

	link_ready_init(ready);
	ready->kind = req->kind;
	if (link_req_check(req, e) < 0)
		return NULL;
	switch (req->kind) {
	case LINK_CONNECT:
		s = link_connect_server(req, ready, e);
		break;
	case LINK_SCAN:
		s = link_scan_server(req, ready, e);
		break;
	case LINK_MTU:
		s = link_mtu_server(req, ready, e);
		break;
	default:
		s = link_bw_server(req, ready, e);
		break;
	}
	if (!s)
		link_ready_release(ready);
	return s;
}

void link_server_stop(struct link_server *s, int wait_ms)
{
	if (s)
		s->stop(s, wait_ms);
}

int link_client_run(const struct link_req *req, const struct link_ready *ready,
		    struct link_result *res, struct err *e)
{
	if (link_req_check(req, e) < 0)
		return -1;
	if (ready->kind != req->kind)
		return err_set(e, ERR_PEER, "a %s ready for a %s test", link_kind_name(ready->kind),
			       link_kind_name(req->kind));
	res->kind = req->kind;
	snprintf(res->addr, sizeof(res->addr), "%s", req->addr);
	snprintf(res->src, sizeof(res->src), "%s", req->src);
	snprintf(res->ifname, sizeof(res->ifname), "%s", req->ifname);
	switch (req->kind) {
	case LINK_CONNECT:
		return link_connect_client(req, ready, res, e);
	case LINK_SCAN:
		return link_scan_client(req, ready, res, e);
	case LINK_MTU:
		return link_mtu_client(req, ready, res, e);
	default:
		return link_bw_client(req, ready, res, e);
	}
}

int link_msg_timeout_ms(const struct link_req *req, const char *op)
{
	long t = 10000;

	if (strcmp(op, "run"))
		return (int)t + (req->kind == LINK_BW ? 5000 : 0);
	switch (req->kind) {
	case LINK_CONNECT:
		t += (long)req->nports * req->timeout_ms + (long)req->pings * 2;
		if (req->probes)
			t += 4000;
		break;
	case LINK_SCAN:
		t += 2L * req->timeout_ms +
		     (long)LINK_LOOKS_MAX *
		     (req->retry_ms ? req->retry_ms : LINK_SCAN_RETRY_TIMEOUT_MS);
		break;
	case LINK_MTU:
		t += 20L * req->timeout_ms;
		break;
	case LINK_BW:
		t += req->duration_ms + 2L * req->timeout_ms;
		if (req->bytes)
			t += 120000;
		break;
	}
	return t > 600000 ? 600000 : (int)t;
}

/* ---- the agent --------------------------------------------------------------------------- */

struct link_agent {
	pthread_mutex_t lock;
	struct {
		long id;
		struct link_server *s;
	} srv[LINK_AGENT_SERVERS_MAX];
	long next_id;
};

struct link_agent *link_agent_new(void)
{
	struct link_agent *a = xcalloc(1, sizeof(*a));

	pthread_mutex_init(&a->lock, NULL);
	a->next_id = 1;
	return a;
}

void link_agent_free(struct link_agent *a)
{
	if (!a)
		return;
	for (int i = 0; i < LINK_AGENT_SERVERS_MAX; i++)
		link_server_stop(a->srv[i].s, 0);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

static int only_keys(const json_t *msg, const char *const *keys, struct err *e)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)msg, key, v) {
		int ok = 0;

		for (int i = 0; keys[i]; i++)
			ok |= !strcmp(key, keys[i]);
		if (!ok)
			return err_set(e, ERR_PARSE, "unexpected member '%s' in a link message", key);
	}
	return 0;
}

static json_t *agent_start(struct link_agent *a, const json_t *msg, struct err *e)
{
	static const char *const keys[] = { "op", "req", NULL };
	struct link_req req;
	struct link_ready ready;
	struct link_server *s;
	int slot = -1;
	long id;
	json_t *reply;

	if (only_keys(msg, keys, e) < 0 ||
	    link_req_from_json(json_object_get(msg, "req"), &req, e) < 0)
		return NULL;
	pthread_mutex_lock(&a->lock);
	for (int i = 0; i < LINK_AGENT_SERVERS_MAX && slot < 0; i++)
		if (!a->srv[i].s)
			slot = i;
	if (slot < 0) {
		pthread_mutex_unlock(&a->lock);
		err_set(e, ERR_USAGE, "%d link servers are open already", LINK_AGENT_SERVERS_MAX);
		return NULL;
	}
	a->srv[slot].s = (struct link_server *)a;	/* reserved while it starts */
	id = a->next_id++;
	pthread_mutex_unlock(&a->lock);

	s = link_server_start(&req, &ready, e);
	pthread_mutex_lock(&a->lock);
	a->srv[slot].s = s;
	a->srv[slot].id = s ? id : 0;
	pthread_mutex_unlock(&a->lock);
	if (!s)
		return NULL;
	reply = json_pack("{sIso}", "id", (json_int_t)id, "ready", link_ready_to_json(&ready));
	link_ready_release(&ready);
	return reply;
}

static json_t *agent_stop(struct link_agent *a, const json_t *msg, struct err *e)
{
	static const char *const keys[] = { "op", "id", NULL };
	const json_t *jid = json_object_get(msg, "id");
	struct link_server *s = NULL;

	if (only_keys(msg, keys, e) < 0)
		return NULL;
	if (!json_is_integer(jid) || json_integer_value(jid) < 1)
		return err_set(e, ERR_PARSE, "a stop message has no 'id'"), NULL;
	pthread_mutex_lock(&a->lock);
	for (int i = 0; i < LINK_AGENT_SERVERS_MAX; i++)
		if (a->srv[i].s && a->srv[i].id == json_integer_value(jid)) {
			s = a->srv[i].s;
			a->srv[i].s = NULL;
			a->srv[i].id = 0;
		}
	pthread_mutex_unlock(&a->lock);
	if (!s)
		return err_set(e, ERR_USAGE, "no link server %lld", (long long)json_integer_value(jid)),
		       NULL;
	link_server_stop(s, 3000);
	return json_object();
}

static json_t *agent_run(const json_t *msg, struct err *e)
{
	static const char *const keys[] = { "op", "req", "ready", NULL };
	struct link_req req;
	struct link_ready ready;
	struct link_result res;
	json_t *reply = NULL;

	if (only_keys(msg, keys, e) < 0 ||
	    link_req_from_json(json_object_get(msg, "req"), &req, e) < 0 ||
	    link_ready_from_json(json_object_get(msg, "ready"), req.kind, &ready, e) < 0)
		return NULL;
	link_result_init(&res, req.kind);
	if (link_client_run(&req, &ready, &res, e) == 0) {
		if (req.kind == LINK_SCAN)
			link_scan_finish(&req, &res);
		reply = json_pack("{so}", "result", link_result_to_json(&res));
	}
	link_result_release(&res);
	link_ready_release(&ready);
	return reply;
}

json_t *link_agent_handle(struct link_agent *a, const json_t *msg, struct err *e)
{
	const char *op = json_string_value(json_object_get(msg, "op"));

	if (!json_is_object(msg) || !op)
		return err_set(e, ERR_PARSE, "a link message is not an object with an 'op'"), NULL;
	if (!strcmp(op, "start"))
		return agent_start(a, msg, e);
	if (!strcmp(op, "run"))
		return agent_run(msg, e);
	if (!strcmp(op, "stop"))
		return agent_stop(a, msg, e);
	return err_set(e, ERR_PARSE, "unknown link message op '%.32s'", op), NULL;
}

json_t *link_local_call(void *arg, enum link_side side, const json_t *msg, int timeout_ms,
			struct err *e)
{
	struct link_local_chan *c = arg;

	(void)timeout_ms;
	return link_agent_handle(side == LINK_SIDE_TARGET ? c->target : c->peer, msg, e);
}

/* ---- the pair driver --------------------------------------------------------------------- */

/* One start / run / stop on the channel; `out` gets the peer's result (decoded strictly). */
static int run_once(const struct link_chan *ch, const struct link_req *req,
		    struct link_result *out, struct err *e)
{
	json_t *jreq = link_req_to_json(req), *msg, *reply, *jready, *rr;
	json_int_t id;
	struct link_ready ready;
	int rc = -1;

	msg = json_pack("{sssO}", "op", "start", "req", jreq);
	reply = ch->call(ch->arg, LINK_SIDE_TARGET, msg, link_msg_timeout_ms(req, "start"), e);
	json_decref(msg);
	if (!reply) {
		err_prefix(e, "target could not start the %s test", link_kind_name(req->kind));
		json_decref(jreq);
		return -1;
	}
	jready = json_object_get(reply, "ready");
	if (!json_is_integer(json_object_get(reply, "id")) ||
	    link_ready_from_json(jready, req->kind, &ready, e) < 0) {
		if (e->code == ERR_NONE || !json_is_integer(json_object_get(reply, "id")))
			err_set(e, ERR_PEER, "the target's answer to 'start' is malformed");
		json_decref(reply);
		json_decref(jreq);
		return -1;
	}
	id = json_integer_value(json_object_get(reply, "id"));
	link_ready_release(&ready);

	msg = json_pack("{sssOsO}", "op", "run", "req", jreq, "ready", jready);
	rr = ch->call(ch->arg, LINK_SIDE_PEER, msg, link_msg_timeout_ms(req, "run"), e);
	json_decref(msg);
	if (!rr)
		err_prefix(e, "peer could not run the %s test", link_kind_name(req->kind));
	else if (link_result_from_json(json_object_get(rr, "result"), out, e) < 0 ||
		 out->kind != req->kind)
		err_prefix(e, "the peer's %s result", link_kind_name(req->kind));
	else
		rc = 0;
	json_decref(rr);

	msg = json_pack("{sssI}", "op", "stop", "id", id);
	json_decref(reply);
	reply = ch->call(ch->arg, LINK_SIDE_TARGET, msg, link_msg_timeout_ms(req, "stop"),
			 rc < 0 ? NULL : e);
	json_decref(msg);
	if (!reply && rc == 0) {
		err_prefix(e, "target could not stop the %s test", link_kind_name(req->kind));
		rc = -1;
	}
	json_decref(reply);
	json_decref(jreq);
	return rc;
}

/*
 * The looks again of a scan of several batches, once over all of them: every batch ran its first
 * pass only (first_only), and the isolated drops of the whole range are asked again as lists —
 * a lossy link then waits out the SYN retransmit a few times, not once per batch.
 */
static int look_again(const struct link_chan *ch, const struct link_req *req,
		      struct link_result *res, struct err *e)
{
	uint16_t *drops = xcalloc(65536, sizeof(*drops));
	size_t nd = link_scan_isolated_drops(req, res->s.state, drops);
	int rc = 0;
	/* a list is one batch of listeners on the target */
	size_t most = req->batch > 0 && req->batch < LINK_SCAN_LIST_MAX ? (size_t)req->batch
									 : LINK_SCAN_LIST_MAX;

	for (size_t i = 0; i < nd && rc == 0; i += most) {
		struct link_req lr = *req;
		struct link_result part;
		size_t k = nd - i < most ? nd - i : most;

		lr.first_only = 0;
		/* each was alone among answers in its range: in a list it has no neighbours, and a
		 * source-port filter on this side drops the list's first pass in long runs (the
		 * kernel draws a port for a destination port near where it drew it before) */
		lr.look_all = 1;
		/* from a source port the batches found replies come back to: a filter on this side
		 * of part of its own range dropped the kernel's picks for these ports before */
		lr.src_port = res->s.src_port;
		lr.nlist = (int)k;
		memcpy(lr.list, drops + i, k * sizeof(*drops));
		/* a first look of its own that waits past a SYN retransmit, as each look again:
		 * it is one of the looks asked for */
		lr.timeout_ms = req->retry_ms ? req->retry_ms : LINK_SCAN_RETRY_TIMEOUT_MS;
		lr.looks = req->looks > 1 ? req->looks - 1 : 1;
		link_result_init(&part, LINK_SCAN);
		rc = run_once(ch, &lr, &part, e);
		if (rc == 0) {
			int answered = 0;

			if (!part.s.state)
				part.s.state = link_scan_states(&part.s);
			for (size_t j = 0; j < k; j++) {
				uint8_t st = part.s.state[lr.list[j]];

				if (st == LINK_PORT_OPEN || st == LINK_PORT_REJECTED) {
					res->s.state[lr.list[j]] = st;
					answered++;
				}
			}
			res->s.retried += (int)k + part.s.retried;
			res->s.flaky += answered;
			if (1 + part.s.looks > res->s.looks)
				res->s.looks = 1 + part.s.looks;
			if (part.s.late_ms > res->s.late_ms)
				res->s.late_ms = part.s.late_ms;
		}
		link_result_release(&part);
	}
	free(drops);
	return rc;
}

int link_run(const struct link_chan *ch, const struct link_req *req, struct link_result *res,
	     struct err *e)
{
	struct link_req *parts;
	int n, max, rc = 0;
	int64_t t0;

	if (link_req_check(req, e) < 0)
		return -1;
	link_result_init(res, req->kind);
	snprintf(res->addr, sizeof(res->addr), "%s", req->addr);
	snprintf(res->src, sizeof(res->src), "%s", req->src);
	snprintf(res->ifname, sizeof(res->ifname), "%s", req->ifname);
	if (req->kind != LINK_SCAN) {
		struct link_result one;

		if (run_once(ch, req, &one, e) < 0)
			return -1;
		*res = one;
		return 0;
	}
	max = 65536 / (req->batch ? req->batch : LINK_SCAN_BATCH_DEFAULT) + 2;
	parts = xcalloc((size_t)max, sizeof(*parts));
	n = link_scan_split(req, req->batch, parts, max);
	res->s.state = xcalloc(65536, 1);
	t0 = time_now_ms();
	for (int i = 0; i < n && rc == 0; i++) {
		struct link_req cur = parts[i];
		int rounds = 0;

		cur.first_only = n > 1;

		/* a target short of fds answers for the first ports only: ask again for the rest */
		while (rc == 0 && rounds++ < 256) {
			struct link_result part;
			int tested = 0, left = 0;

			link_result_init(&part, LINK_SCAN);
			rc = run_once(ch, &cur, &part, e);
			if (rc < 0) {
				link_result_release(&part);
				break;
			}
			if (!part.s.state)	/* it came as JSON: intervals only */
				part.s.state = link_scan_states(&part.s);
			/* the batch's own ports only: a peer cannot paint outside what was asked */
			if (cur.nlist) {
				struct link_req rest = cur;

				rest.nlist = 0;
				for (int k = 0; k < cur.nlist; k++) {
					uint8_t st = part.s.state[cur.list[k]];

					res->s.state[cur.list[k]] = st;
					if (st == LINK_PORT_UNTESTED)
						rest.list[rest.nlist++] = cur.list[k];
					else
						tested++;
				}
				left = rest.nlist;
				cur = rest;
			} else {
				long first_left = -1;

				for (long p = cur.lo; p <= cur.hi; p++) {
					res->s.state[p] = part.s.state[p];
					if (part.s.state[p] != LINK_PORT_UNTESTED)
						tested++;
					else if (first_left < 0)
						first_left = p;
				}
				left = first_left >= 0;
				if (left)
					cur.lo = (uint16_t)first_left;
			}
			link_scan_add(&res->s, &part.s);
			res->s.flaky += part.s.flaky;
			res->s.timeout_ms = part.s.timeout_ms;
			res->s.retry_ms = part.s.retry_ms;
			res->s.batches++;
			link_result_release(&part);
			if (!left)
				break;
			if (!tested)
				rc = err_set(e, ERR_PEER, "the target listened on no port of a scan batch");
		}
	}
	if (rc == 0 && n > 1)
		rc = look_again(ch, req, res, e);
	free(parts);
	link_scan_finish(req, res);
	res->s.elapsed_ms = (long)(time_now_ms() - t0);
	return rc;
}
