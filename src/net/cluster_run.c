/*
 * net/cluster_run: see cluster_run.h. The master drives every link test over the rendezvous
 * connections: a pair's test is link_run() over a channel whose two sides are the agents of the
 * two nodes — the master's own agent in-process, a worker's agent through rdv_call() (a plan of
 * phase "agent" to that worker, answered by its result). Workers serve those calls until the
 * master's "done", then wait for the report.
 */
#include "net/cluster_run.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncclcheck.h"
#include "net/link_agent.h"
#include "net/ceiling.h"
#include "net/link_findings.h"
#include "net/sched.h"
#include "probe/probe.h"
#include "report/render.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define WORKER_IDLE_MS (10L * 60 * 1000)	/* the master's heartbeats keep it honest */
#define FACTS_TIMEOUT_MS 60000
#define REPORT_TIMEOUT_MS 60000
#define AGENT_SLACK_MS 3000
#define CLUSTER_TEXT_LINKS 24	/* more link tests than this are listed with --verbose only */

void cluster_opts_init(struct cluster_opts *o)
{
	memset(o, 0, sizeof(*o));
	rdv_opts_init(&o->rdv);
	o->full_mesh_max = SCHED_FULL_MESH_MAX;
	o->connect = 1;
	o->mtu = 1;
	o->ports = 1;
	o->bw = 1;
	o->bw_ms = 500;
	o->facts_timeout_ms = FACTS_TIMEOUT_MS;
	o->pings = 20;
	o->sampled_ports = 64;
}

/* ---- facts of a node, as the link tests need them ---- */

struct caddr {
	char ifname[LINK_IFNAME_LEN];
	char addr[LINK_ADDR_LEN];
	int family;
	int priv;		/* a private address: where a cluster's own traffic usually goes */
	struct link_ceiling ceil;	/* from the interface's speed and MTU in the facts */
};

struct cnode {
	char name[256];
	json_t *facts;		/* NULL when it was refused */
	struct caddr *addrs;
	size_t naddrs;
	int range_lo, range_hi;
};

static int want_class(const char *cls)
{
	/* what NCCL could bootstrap over: not loopback, link-local, multicast, unspecified */
	return cls && (!strcmp(cls, "private") || !strcmp(cls, "public") ||
		       !strcmp(cls, "cgnat") || !strcmp(cls, "documentation"));
}

#define FIELD_ERR(e, ...) err_set((e), ERR_PEER, __VA_ARGS__)

int cluster_facts_check(const json_t *facts, struct err *e)
{
	json_t *v, *net, *ifs, *it;
	size_t i;

	if (!json_is_object(facts))
		return FIELD_ERR(e, "the facts are not a JSON object");
	v = json_object_get(facts, "schema_version");
	if (!json_is_integer(v))
		return FIELD_ERR(e, "facts field 'schema_version' is missing or not an integer");
	if (json_integer_value(v) != FACTS_SCHEMA_VERSION)
		return FIELD_ERR(e, "facts schema_version %lld, this node reads %d: run the same "
				 "ncclcheck on every node", (long long)json_integer_value(v),
				 FACTS_SCHEMA_VERSION);
	v = json_object_get(facts, "host");
	if (!json_is_object(v))
		return FIELD_ERR(e, "facts field 'host' is missing or not an object");
	v = json_object_get(v, "hostname");
	if (v && !json_is_string(v) && !junknown(v))
		return FIELD_ERR(e, "facts field 'host.hostname' is not a string");
	if (json_is_string(v) && (json_string_length(v) == 0 || json_string_length(v) > 255))
		return FIELD_ERR(e, "facts field 'host.hostname' is empty or too long");
	net = json_object_get(facts, "net");
	if (!json_is_object(net))
		return FIELD_ERR(e, "facts field 'net' is missing or not an object");
	ifs = json_object_get(net, "interfaces");
	if (ifs && !json_is_array(ifs) && !junknown(ifs))
		return FIELD_ERR(e, "facts field 'net.interfaces' is not an array");
	json_array_foreach(json_is_array(ifs) ? ifs : NULL, i, it) {
		json_t *name = json_object_get(it, "name"), *up = json_object_get(it, "up");
		json_t *addrs = json_object_get(it, "addrs"), *a;
		size_t k;

		if (!json_is_object(it) || !json_is_string(name) || json_string_length(name) == 0 ||
		    json_string_length(name) >= LINK_IFNAME_LEN)
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.name' is missing or not an "
					 "interface name", i);
		if (up && !json_is_boolean(up))
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.up' is not a boolean", i);
		if (addrs && !json_is_array(addrs))
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.addrs' is not an array", i);
		if ((v = json_object_get(it, "mtu")) && !json_is_integer(v))
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.mtu' is not an integer", i);
		if ((v = json_object_get(it, "speed_mbps")) && !json_is_integer(v) && !json_is_null(v))
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.speed_mbps' is not an integer",
					 i);
		if ((v = json_object_get(it, "virtual")) && !json_is_boolean(v))
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.virtual' is not a boolean", i);
		json_array_foreach(addrs, k, a) {
			json_t *ad = json_object_get(a, "addr"), *fam = json_object_get(a, "family");
			json_t *cls = json_object_get(a, "class");
			unsigned char buf[16];

			if (!json_is_object(a) || !json_is_string(ad) || !json_is_integer(fam) ||
			    (cls && !json_is_string(cls) && !json_is_null(cls)))
				return FIELD_ERR(e, "facts field 'net.interfaces.%zu.addrs.%zu' is not "
						 "{addr, family, class}", i, k);
			if (json_string_length(ad) >= LINK_ADDR_LEN ||
			    inet_pton(json_integer_value(fam) == 6 ? AF_INET6 : AF_INET,
				      json_string_value(ad), buf) != 1)
				return FIELD_ERR(e, "facts field 'net.interfaces.%zu.addrs.%zu.addr' is not "
						 "a numeric IPv%lld address", i, k,
						 (long long)json_integer_value(fam));
		}
	}
	v = jpath(facts, "sysctl.ip_local_port_range");
	if (v && !junknown(v)) {
		json_t *lo = json_array_get(v, 0), *hi = json_array_get(v, 1);

		if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(lo) ||
		    !json_is_integer(hi) || json_integer_value(lo) < 1 ||
		    json_integer_value(hi) > 65535 || json_integer_value(lo) > json_integer_value(hi))
			return FIELD_ERR(e, "facts field 'sysctl.ip_local_port_range' is not [lo, hi]");
	}
	return 0;
}

/* Fills n from facts already checked. */
static void cnode_fill(struct cnode *n, json_t *facts, const char *fallback_name)
{
	const char *h = jpath_str(facts, "host.hostname");
	json_t *ifs = jpath(facts, "net.interfaces"), *it, *rg;
	size_t i, alloc = 0;

	snprintf(n->name, sizeof(n->name), "%s", h ? h : fallback_name);
	n->facts = json_incref(facts);
	json_array_foreach(json_is_array(ifs) ? ifs : NULL, i, it) {
		json_t *a;
		size_t k;

		if (json_is_false(json_object_get(it, "up")))
			continue;
		json_array_foreach(json_object_get(it, "addrs"), k, a) {
			struct caddr *c;

			if (!want_class(json_string_value(json_object_get(a, "class"))))
				continue;
			ALLOC_GROW(n->addrs, n->naddrs + 1, alloc);
			c = &n->addrs[n->naddrs++];
			snprintf(c->ifname, sizeof(c->ifname), "%s",
				 json_string_value(json_object_get(it, "name")));
			snprintf(c->addr, sizeof(c->addr), "%s",
				 json_string_value(json_object_get(a, "addr")));
			c->family = (int)json_integer_value(json_object_get(a, "family"));
			c->priv = !strcmp(json_string_value(json_object_get(a, "class")), "private");
			ceiling_compute((double)json_integer_value(json_object_get(it, "speed_mbps")),
					json_is_true(json_object_get(it, "virtual")),
					(int)json_integer_value(json_object_get(it, "mtu")), c->family == 6,
					&c->ceil);
		}
	}
	rg = jpath(facts, "sysctl.ip_local_port_range");
	if (json_is_array(rg)) {
		n->range_lo = (int)json_integer_value(json_array_get(rg, 0));
		n->range_hi = (int)json_integer_value(json_array_get(rg, 1));
	}
}

/* ---- the run ---- */

struct run {
	const struct cluster_opts *o;
	struct rdv *r;
	struct link_agent *agent;
	pthread_mutex_t mu;
	long next_id;
	struct cnode *nodes;
	int n;
	struct cluster_link *links;
	size_t nlinks, alinks;
	int done, total;
	const char *phase;
	struct findings *fs;
	int64_t t0;
	json_t *timings;
};

struct pair_ch {
	struct run *run;
	int rank[2];		/* by enum link_side */
};

static json_t *pair_call(void *arg, enum link_side side, const json_t *msg, int timeout_ms,
			 struct err *e)
{
	struct pair_ch *pc = arg;
	struct run *run = pc->run;
	json_t *reply = NULL, *ok, *er;
	long id;

	if (pc->rank[side] == rdv_rank(run->r))
		return link_agent_handle(run->agent, msg, e);
	pthread_mutex_lock(&run->mu);
	id = run->next_id++;
	pthread_mutex_unlock(&run->mu);
	if (rdv_call(run->r, pc->rank[side], "agent", id, (json_t *)msg, timeout_ms + AGENT_SLACK_MS,
		     &reply, e) < 0)
		return NULL;
	/* the worker's answer: exactly {"ok": REPLY} or {"error": TEXT} */
	ok = json_object_get(reply, "ok");
	er = json_object_get(reply, "error");
	if (json_is_object(reply) && json_object_size(reply) == 1 && json_is_object(ok)) {
		json_incref(ok);
		json_decref(reply);
		return ok;
	}
	if (json_is_object(reply) && json_object_size(reply) == 1 && json_is_string(er))
		err_set(e, ERR_PEER, "%.200s", json_string_value(er));
	else
		err_set(e, ERR_PEER, "a link agent's answer is not {ok} or {error}");
	json_decref(reply);
	return NULL;
}

static void add_link(struct run *run, const struct cluster_link *l)
{
	pthread_mutex_lock(&run->mu);
	ALLOC_GROW(run->links, run->nlinks + 1, run->alinks);
	run->links[run->nlinks++] = *l;
	run->done++;
	if (run->o->progress)
		run->o->progress(run->o->progress_arg, run->phase, run->done, run->total);
	pthread_mutex_unlock(&run->mu);
}

/* Did the connect test from peer to this target address work? */
static int connected(struct run *run, int target, int peer, const char *addr)
{
	int ok = 0;

	pthread_mutex_lock(&run->mu);
	for (size_t i = 0; i < run->nlinks && !ok; i++) {
		const struct cluster_link *l = &run->links[i];

		ok = l->kind == LINK_CONNECT && l->target == target && l->peer == peer && l->ran &&
		     l->res.c.status == LINK_OK && !strcmp(l->res.addr, addr);
	}
	pthread_mutex_unlock(&run->mu);
	return ok;
}

/*
 * Which tests run on an address: connect always; the path MTU where TCP got through (its probes
 * need an open port); the port scan always, because the connect test's port is one the kernel
 * picks from the very range a firewall may filter — the scan is what tells that apart.
 */
static int wanted(struct run *run, enum link_kind kind, int target, int peer, const struct caddr *a)
{
	switch (kind) {
	case LINK_MTU: return connected(run, target, peer, a->addr);
	case LINK_SCAN: return run->nodes[target].range_lo > 0;
	default: return 1;
	}
}

/* The request of one test from `peer` to the target's address `a`. */
static void build_req(struct run *run, enum link_kind kind, int target, int peer,
		      const struct caddr *a, struct link_req *req)
{
	const struct cnode *t = &run->nodes[target];

	link_req_init(req, kind);
	snprintf(req->addr, sizeof(req->addr), "%s", a->addr);
	if (kind == LINK_CONNECT)
		req->pings = run->o->pings;
	if (kind == LINK_SCAN) {
		req->lo = (uint16_t)t->range_lo;
		req->hi = (uint16_t)t->range_hi;
		if (peer != sched_full_scanner(run->n, target) && run->o->sampled_ports > 0) {
			/* one peer maps the whole range; the others sample it (a rule may name a source) */
			int span = t->range_hi - t->range_lo + 1;
			int k = run->o->sampled_ports < span ? run->o->sampled_ports : span;

			if (k > LINK_SCAN_LIST_MAX)
				k = LINK_SCAN_LIST_MAX;
			for (int i = 0; i < k; i++)
				req->list[i] = (uint16_t)(t->range_lo + (long)i * span / k);
			req->nlist = k;
		}
	}
	if (kind == LINK_BW)
		req->duration_ms = (int)run->o->bw_ms;
}

/* Runs one request over the pair's channel into l (ran / error set). */
static void run_req(struct run *run, int target, int peer, const struct link_req *req,
		    struct cluster_link *l)
{
	struct pair_ch pc = { .run = run, .rank = { [LINK_SIDE_TARGET] = target,
						    [LINK_SIDE_PEER] = peer } };
	struct link_chan ch = { .call = pair_call, .arg = &pc };
	struct err e = ERR_INIT;

	if (link_run(&ch, req, &l->res, &e) < 0) {
		l->ran = 0;
		snprintf(l->error, sizeof(l->error), "%s", e.msg);
	} else {
		l->ran = 1;
		l->error[0] = '\0';
	}
}

static void one_test(struct run *run, enum link_kind kind, int target, int peer,
		     const struct caddr *a)
{
	struct cluster_link l;
	struct link_req req;

	memset(&l, 0, sizeof(l));
	l.target = target;
	l.peer = peer;
	l.kind = kind;
	l.ceil = a->ceil;
	snprintf(l.ifname, sizeof(l.ifname), "%s", a->ifname);
	build_req(run, kind, target, peer, a, &req);
	run_req(run, target, peer, &req, &l);
	add_link(run, &l);
}

/*
 * Drops seen while other scans ran may be the load, not a firewall (in a lab every node shares
 * one kernel; on a cluster, a congested switch): each scan with dropped ports has a sample of
 * them tried again alone with the long timeout, and when any answers, the whole scan is redone
 * alone. A real filter costs one sample round; a false alarm never reaches the findings.
 */
static void verify_scans(struct run *run)
{
	for (size_t i = 0; i < run->nlinks && !rdv_failed(run->r, NULL); i++) {
		struct cluster_link *l = &run->links[i], probe;
		const struct cnode *t = &run->nodes[l->target];
		const struct caddr *a = NULL;
		struct link_req req;
		int k = 0;

		if (l->kind != LINK_SCAN || !l->ran || !l->res.s.counts[LINK_PORT_DROPPED])
			continue;
		for (size_t j = 0; j < t->naddrs; j++)
			if (!strcmp(t->addrs[j].addr, l->res.addr))
				a = &t->addrs[j];
		if (!a)
			continue;
		link_req_init(&req, LINK_SCAN);
		snprintf(req.addr, sizeof(req.addr), "%s", l->res.addr);
		req.timeout_ms = LINK_SCAN_RETRY_TIMEOUT;
		for (size_t v = 0; v < l->res.s.niv && k < 256; v++) {
			const struct link_interval *iv = &l->res.s.iv[v];
			long span = (long)iv->hi - iv->lo + 1, take = span < 32 ? span : 32;

			if (iv->state != LINK_PORT_DROPPED)
				continue;
			for (long p = 0; p < take && k < 256; p++)
				req.list[k++] = (uint16_t)(iv->lo + p * span / take);
		}
		if (!k)
			continue;
		req.nlist = k;
		memset(&probe, 0, sizeof(probe));
		run_req(run, l->target, l->peer, &req, &probe);
		if (probe.ran && (probe.res.s.counts[LINK_PORT_OPEN] || probe.res.s.counts[LINK_PORT_REJECTED])) {
			struct cluster_link again = *l;

			build_req(run, LINK_SCAN, l->target, l->peer, a, &req);
			memset(&again.res, 0, sizeof(again.res));
			run_req(run, l->target, l->peer, &req, &again);
			if (again.ran) {
				link_result_release(&l->res);
				*l = again;
			} else {
				link_result_release(&again.res);
			}
		}
		link_result_release(&probe.res);
	}
}

struct pair_job {
	struct run *run;
	enum link_kind kind;
	int a, b;
	pthread_t th;
};

struct addr_job {
	struct run *run;
	enum link_kind kind;
	int target, peer;
	const struct caddr *a;
	pthread_t th;
};

static void *addr_main(void *arg)
{
	struct addr_job *aj = arg;

	if (!rdv_failed(aj->run->r, NULL))
		one_test(aj->run, aj->kind, aj->target, aj->peer, aj->a);
	return NULL;
}

/*
 * One direction of a pair: the peer tests every address of the target at once — a dropped
 * address costs its timeout once, not once per address. Scans one after the other: they are
 * bound by the CPU (thousands of sockets per batch) and by the descriptor limit, not by waiting.
 */
static void *direction_main(void *arg)
{
	struct pair_job *j = arg;
	struct run *run = j->run;
	int target = j->a, peer = j->b;
	const struct cnode *t = &run->nodes[target];
	struct addr_job *aj = xcalloc(t->naddrs + 1, sizeof(*aj));

	for (size_t i = 0; i < t->naddrs; i++) {
		aj[i] = (struct addr_job){ .run = run, .kind = j->kind, .target = target, .peer = peer,
					   .a = &t->addrs[i] };
		if (!wanted(run, j->kind, target, peer, &t->addrs[i]))
			continue;
		if (j->kind == LINK_SCAN || pthread_create(&aj[i].th, NULL, addr_main, &aj[i]) != 0) {
			addr_main(&aj[i]);
			aj[i].th = 0;
		}
	}
	for (size_t i = 0; i < t->naddrs; i++)
		if (aj[i].th)
			pthread_join(aj[i].th, NULL);
	free(aj);
	return NULL;
}

/*
 * Both directions of a pair at once: each node is the target of one and the peer of the other.
 * Not for scans: a peer's own outgoing connections take ephemeral ports, the very ports its
 * target role must listen on, and the scan would lose them as "in use".
 */
static void *pair_main(void *arg)
{
	struct pair_job *j = arg, back = *j;

	back.a = j->b;
	back.b = j->a;
	if (j->kind == LINK_SCAN) {
		direction_main(j);
		direction_main(&back);
		return NULL;
	}
	if (pthread_create(&back.th, NULL, direction_main, &back) != 0) {
		direction_main(&back);
		back.th = 0;
	}
	direction_main(j);
	if (back.th)
		pthread_join(back.th, NULL);
	return NULL;
}

static int phase_total(struct run *run, const struct sched_plan *plan, enum link_kind kind)
{
	int total = 0;

	for (int r = 0; r < plan->nrounds; r++)
		for (int k = 0; k < plan->rounds[r].npairs; k++)
			for (int dir = 0; dir < 2; dir++) {
				const struct sched_pair *p = &plan->rounds[r].pairs[k];
				int target = dir ? p->b : p->a, peer = dir ? p->a : p->b;
				const struct cnode *t = &run->nodes[target];

				for (size_t i = 0; i < t->naddrs; i++)
					total += wanted(run, kind, target, peer, &t->addrs[i]);
			}
	return total;
}

static void phase_start(struct run *run, const char *name, int total)
{
	run->phase = name;
	run->done = 0;
	run->total = total;
	if (run->o->progress)
		run->o->progress(run->o->progress_arg, run->phase, 0, run->total);
}

static void run_phase(struct run *run, enum link_kind kind, const struct sched_plan *plan)
{
	int64_t t0 = time_now_ms();

	phase_start(run, link_kind_name(kind), phase_total(run, plan, kind));
	for (int r = 0; r < plan->nrounds && !rdv_failed(run->r, NULL); r++) {
		const struct sched_round *rd = &plan->rounds[r];
		struct pair_job *jobs = xcalloc((size_t)rd->npairs + 1, sizeof(*jobs));

		for (int k = 0; k < rd->npairs; k++) {
			struct pair_job *j = &jobs[k];

			j->run = run;
			j->kind = kind;
			j->a = rd->pairs[k].a;
			j->b = rd->pairs[k].b;
			if (pthread_create(&j->th, NULL, pair_main, j) != 0)
				pair_main(j), j->th = 0;
		}
		for (int k = 0; k < rd->npairs; k++)
			if (jobs[k].th)
				pthread_join(jobs[k].th, NULL);
		free(jobs);
	}
	jset_int(run->timings, run->phase, time_now_ms() - t0);
}

/* ---- bandwidth: a constant number of rounds, then suspects against a known-good node ---- */

/* The address a flow to `target` uses: a private one that connected, else any that connected. */
static const struct caddr *bw_addr(struct run *run, int target, int peer)
{
	const struct cnode *t = &run->nodes[target];
	const struct caddr *any = NULL;

	for (size_t i = 0; i < t->naddrs; i++) {
		if (!connected(run, target, peer, t->addrs[i].addr))
			continue;
		if (t->addrs[i].priv)
			return &t->addrs[i];
		if (!any)
			any = &t->addrs[i];
	}
	return any;
}

struct flow_job {
	struct run *run;
	int from, to;
	const struct caddr *a;
	pthread_t th;
};

static void *flow_main(void *arg)
{
	struct flow_job *f = arg;

	if (!rdv_failed(f->run->r, NULL))
		one_test(f->run, LINK_BW, f->to, f->from, f->a);
	return NULL;
}

/* All flows of a round at once; their figures appended to *m. */
static void bw_round(struct run *run, const struct sched_bw_round *rd, struct sched_meas **m,
		     int *nm, int *am)
{
	struct flow_job *jobs = xcalloc((size_t)rd->nflows + 1, sizeof(*jobs));
	size_t first = run->nlinks;

	for (int k = 0; k < rd->nflows; k++) {
		struct flow_job *f = &jobs[k];

		*f = (struct flow_job){ .run = run, .from = rd->flows[k].from, .to = rd->flows[k].to };
		f->a = bw_addr(run, f->to, f->from);
		if (!f->a)
			continue;	/* no address of the receiver connected: nothing to measure */
		if (pthread_create(&f->th, NULL, flow_main, f) != 0) {
			flow_main(f);
			f->th = 0;
		}
	}
	for (int k = 0; k < rd->nflows; k++)
		if (jobs[k].th)
			pthread_join(jobs[k].th, NULL);
	free(jobs);
	for (size_t i = first; i < run->nlinks; i++) {
		const struct cluster_link *l = &run->links[i];

		if (l->kind != LINK_BW || !l->ran)
			continue;
		ALLOC_GROW(*m, (size_t)*nm + 1, *am);
		(*m)[(*nm)++] = (struct sched_meas){ .from = l->peer, .to = l->target,
						     .gbps = l->res.b.total_gbps };
	}
}

static void run_bw(struct run *run)
{
	struct sched_bw_plan plan;
	struct sched_meas *m = NULL;
	struct sched_verdict v;
	struct sched_bw_round sus;
	const char **names;
	int nm = 0, am = 0, total = 0;
	int64_t t0 = time_now_ms();

	if (sched_bw_plan(run->n, &plan) < 0 || plan.nrounds == 0)
		return;
	for (int r = 0; r < plan.nrounds; r++)
		total += plan.rounds[r].nflows;
	phase_start(run, "bw", total);
	for (int r = 0; r < plan.nrounds && !rdv_failed(run->r, NULL); r++)
		bw_round(run, &plan.rounds[r], &m, &nm, &am);
	sched_bw_plan_release(&plan);
	if (rdv_failed(run->r, NULL) || !nm) {
		free(m);
		return;
	}
	memset(&v, 0, sizeof(v));
	if (sched_bw_classify(run->n, m, nm, 0, 0, &v) == 0) {
		memset(&sus, 0, sizeof(sus));
		if (sched_bw_suspects(&v, &sus) > 0) {
			run->total += sus.nflows;
			bw_round(run, &sus, &m, &nm, &am);
			sched_verdict_release(&v);
			memset(&v, 0, sizeof(v));
			sched_bw_classify(run->n, m, nm, 0, 0, &v);
		}
		free(sus.flows);
		names = xcalloc((size_t)run->n, sizeof(*names));
		for (int i = 0; i < run->n; i++)
			names[i] = run->nodes[i].name;
		sched_bw_findings(&v, names, NULL, run->fs);
		free(names);
		sched_verdict_release(&v);
	}
	free(m);
	jset_int(run->timings, "bw", time_now_ms() - t0);
}

static int want_connect(const struct cluster_opts *o) { return o->connect; }
static int want_mtu(const struct cluster_opts *o) { return o->connect && o->mtu; }
static int want_scan(const struct cluster_opts *o) { return o->ports; }
static int want_bw(const struct cluster_opts *o) { return o->connect && o->bw; }

/* ---- findings from what the rendezvous saw ---- */

static const char *event_id(const struct rdv_event *ev)
{
	const char *code = ev->code;

	switch (ev->kind) {
	case RDV_EV_AUTH_NONE: return "cluster.auth.none";
	case RDV_EV_MISSING: return "cluster.rdv.missing";
	case RDV_EV_DUPLICATE_RANK: return "cluster.rdv.duplicate_rank";
	case RDV_EV_WRONG_COUNT: return "cluster.rdv.wrong_count";
	case RDV_EV_BAD_RANK: return "cluster.rdv.bad_rank";
	case RDV_EV_VERSION: return "cluster.rdv.version";
	case RDV_EV_AUTH_FAILED: return "cluster.auth.failed";
	case RDV_EV_GARBAGE: return "cluster.peer.garbage";
	case RDV_EV_OVERSIZED: return "cluster.peer.oversized";
	case RDV_EV_STALLED: return "cluster.peer.stalled";
	case RDV_EV_DEAD: return "cluster.peer.dead";
	case RDV_EV_UNREACHABLE: return "cluster.rdv.unreachable";
	case RDV_EV_SLOW: return "cluster.peer.slow";
	case RDV_EV_REJECTED:
	case RDV_EV_ABORTED:
		if (!strcmp(code, "duplicate_rank")) return "cluster.rdv.duplicate_rank";
		if (!strcmp(code, "wrong_count")) return "cluster.rdv.wrong_count";
		if (!strcmp(code, "bad_rank")) return "cluster.rdv.bad_rank";
		if (!strcmp(code, "version")) return "cluster.rdv.version";
		if (!strcmp(code, "auth")) return "cluster.auth.failed";
		if (!strcmp(code, "missing")) return "cluster.rdv.missing";
		if (!strcmp(code, "dead")) return "cluster.peer.dead";
		if (!strcmp(code, "slow")) return "cluster.peer.slow";
		return "cluster.rdv.aborted";
	default: return "cluster.rdv.aborted";
	}
}

static void event_finding(const struct rdv_opts *ro, const struct rdv_event *ev,
			  struct findings *fs)
{
	const char *id = event_id(ev);
	enum severity sev = SEV_ERROR;
	struct finding *f;

	if (ev->kind == RDV_EV_AUTH_NONE || ev->kind == RDV_EV_GARBAGE ||
	    ev->kind == RDV_EV_OVERSIZED || ev->kind == RDV_EV_STALLED)
		sev = SEV_WARN;
	if (ev->kind == RDV_EV_AUTH_FAILED && ro->rank == 0)
		sev = SEV_WARN;	/* the master refused a stranger; a missing rank is the error */
	if (findings_find(fs, id) && (ev->kind == RDV_EV_ABORTED || ev->kind == RDV_EV_REJECTED))
		return;	/* the same news through two channels */
	f = finding_add(fs, sev, id, "%s", ev->msg);
	if (ev->rank >= 0)
		finding_rank(f, ev->rank);
	if (ev->host[0])
		finding_node(f, ev->host);
	if (ev->addr[0])
		finding_evidence(f, "peer address: %s", ev->addr);
	if (!strcmp(id, "cluster.auth.none")) {
		finding_why(f, "without a token any process that reaches MASTER_PORT can join and "
			    "feed this run its facts and results");
		finding_fix(f, "head -c 32 /dev/urandom | base64 > token; copy it to every node, "
			    "then: ncclcheck cluster --token-file token");
		finding_export(f, "NCCLCHECK_TOKEN", "<the same secret on every node>");
	} else if (!strcmp(id, "cluster.rdv.missing")) {
		finding_why(f, "a node that never reaches MASTER_ADDR:MASTER_PORT is a node whose "
			    "torch rendezvous will hang there too");
		finding_fix(f, "on the missing node: ncclcheck cluster (same --nodes, its own "
			    "--node-rank), and check that it can reach %s:%d (ncclcheck node "
			    "--master-addr %s)", ro->master_host ? ro->master_host : "MASTER_ADDR",
			    ro->master_port, ro->master_host ? ro->master_host : "MASTER_ADDR");
	} else if (!strcmp(id, "cluster.rdv.unreachable")) {
		finding_why(f, "torch's TCPStore listens on the same address and port: if this node "
			    "cannot reach it, init_process_group will hang here as well");
		if (!strcmp(ev->code, "refused"))
			finding_fix(f, "start rank 0 first, or open TCP %d on it (a REJECT rule also "
				    "answers 'refused')", ro->master_port);
		else if (!strcmp(ev->code, "timeout"))
			finding_fix(f, "MASTER_ADDR must be rank 0's address on a network this node "
				    "reaches; a DROP rule or security group blocks TCP %d", ro->master_port);
		else if (!strcmp(ev->code, "resolve"))
			finding_fix(f, "MASTER_ADDR does not resolve here: use an address or add it "
				    "to /etc/hosts");
		else
			finding_fix(f, "check the route to MASTER_ADDR: ip route get %s",
				    ro->master_host ? ro->master_host : "MASTER_ADDR");
	} else if (!strcmp(id, "cluster.rdv.duplicate_rank")) {
		finding_why(f, "every node needs its own node rank; torchrun's rendezvous would "
			    "fail or pair the wrong processes");
		finding_fix(f, "give each node its own NODE_RANK / --node-rank 0..N-1 (under srun: "
			    "--ntasks-per-node=1, or let ncclcheck read SLURM_NODEID)");
		finding_setting(f, WHERE_LAUNCHER, SCOPE_ALL, "--ntasks-per-node", "1");
	} else if (!strcmp(id, "cluster.rdv.wrong_count") || !strcmp(id, "cluster.rdv.bad_rank")) {
		finding_fix(f, "start every node with the same --nodes / NNODES and ranks 0..N-1");
	} else if (!strcmp(id, "cluster.rdv.version")) {
		finding_fix(f, "install the same ncclcheck on every node");
	} else if (!strcmp(id, "cluster.auth.failed")) {
		finding_fix(f, "give every node the same NCCLCHECK_TOKEN or --token-file");
	} else if (!strcmp(id, "cluster.peer.dead")) {
		finding_why(f, "a node that dies or stops mid-run here would hang the job's "
			    "collectives until NCCL's timeout");
		finding_fix(f, "look at that node: is the process stopped (kill -CONT), killed "
			    "(dmesg: OOM), or is its network gone?");
	}
}

static void events_findings(struct rdv *r, const struct rdv_opts *ro, struct findings *fs)
{
	struct rdv_event *ev;
	size_t n = rdv_events(r, &ev);

	for (size_t i = 0; i < n; i++)
		event_finding(ro, &ev[i], fs);
	free(ev);
}

/*
 * One finding per measured link. With the cross-node rules present they judge connect, port
 * and MTU results themselves, knowing which interfaces NCCL will use (a blocked eth0 is an error
 * only while NCCL would use it), so only the bandwidth findings come from here then.
 */
static void links_findings(struct run *run, int judged_elsewhere)
{
	for (size_t i = 0; i < run->nlinks; i++) {
		const struct cluster_link *l = &run->links[i];
		const struct cnode *t = &run->nodes[l->target], *p = &run->nodes[l->peer];
		struct link_who who = { .peer = p->name, .target = t->name, .ifname = l->ifname,
					.range_lo = t->range_lo, .range_hi = t->range_hi };

		if (l->ran && judged_elsewhere && l->kind != LINK_BW) {
			continue;
		} else if (l->ran) {
			link_findings(&l->res, &who, l->kind == LINK_BW ? &l->ceil : NULL, run->fs);
		} else {
			struct finding *f = finding_add(run->fs, SEV_ERROR, "cluster.link.failed",
							"%s -> %s (%s) over %s: the %s test could not "
							"run", p->name, t->name, l->res.addr, l->ifname,
							link_kind_name(l->kind));

			finding_pair(f, p->name, t->name, l->ifname);
			finding_evidence(f, "%s", l->error);
		}
	}
}

/* ---- the report ---- */

static json_t *links_json(struct run *run)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < run->nlinks; i++) {
		const struct cluster_link *l = &run->links[i];
		json_t *o = json_object();

		jset_int(o, "target", l->target);
		jset_int(o, "peer", l->peer);
		jset_str(o, "target_name", run->nodes[l->target].name);
		jset_str(o, "peer_name", run->nodes[l->peer].name);
		jset_str(o, "ifname", l->ifname);
		jset_str(o, "test", link_kind_name(l->kind));
		jset_bool(o, "ran", l->ran);
		if (!l->ran)
			jset_str(o, "error", l->error);
		json_object_set_new(o, "result", link_result_to_json(&l->res));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *report_doc(struct run *run, struct findings *fs, int code)
{
	json_t *payload = json_object(), *nodes = json_array(), *doc;

	for (int i = 0; i < run->n; i++) {
		json_t *o;
		const char *addr = i ? rdv_member_addr(run->r, i) : NULL;

		if (!run->nodes[i].name[0])
			continue;	/* a run that failed before the facts: nothing known */
		o = json_object();
		jset_int(o, "rank", i);
		jset_str(o, "name", run->nodes[i].name);
		jset_str(o, "addr", addr);
		if (run->nodes[i].facts)
			json_object_set(o, "facts", run->nodes[i].facts);
		if (run->o->node_rules && run->nodes[i].facts) {
			struct findings *nf = findings_new();

			run->o->node_rules(run->nodes[i].facts, nf);
			findings_sort(nf);
			json_object_set_new(o, "findings", findings_to_json(nf));
			findings_free(nf);
		}
		json_array_append_new(nodes, o);
	}
	json_object_set_new(payload, "nodes", nodes);
	json_object_set_new(payload, "links", links_json(run));
	jset_int(run->timings, "total", time_now_ms() - run->t0);
	json_object_set(payload, "timings_ms", run->timings);
	doc = render_json_doc("cluster", payload, fs, code);
	json_decref(payload);
	return doc;
}

/* A node's own report when the run could not complete: what it knows, and why. */
static json_t *local_report(struct run *run, const struct err *why, int *code)
{
	struct findings *fs = findings_new();
	json_t *doc;
	int config = 0;

	events_findings(run->r, &run->o->rdv, fs);
	if (!findings_count(fs, SEV_ERROR)) {
		struct finding *f = finding_add(fs, SEV_ERROR, "cluster.rdv.aborted",
						"the cluster check could not finish: %s", why->msg);
		(void)f;
	}
	config = findings_find(fs, "cluster.rdv.duplicate_rank") ||
		 findings_find(fs, "cluster.rdv.wrong_count") ||
		 findings_find(fs, "cluster.rdv.bad_rank") || findings_find(fs, "cluster.rdv.version") ||
		 (findings_find(fs, "cluster.auth.failed") &&
		  findings_find(fs, "cluster.auth.failed")->sev == SEV_ERROR);
	*code = config ? EXIT_FINDINGS : EXIT_CANNOT_RUN;
	findings_sort(fs);
	doc = report_doc(run, fs, *code);
	json_object_set_new(doc, "error", json_string(why->msg));
	findings_free(fs);
	return doc;
}

/* ---- the worker's side ---- */

struct agent_job {
	struct run *run;
	long id;
	json_t *msg;
	pthread_t th;
};

static void *agent_main(void *arg)
{
	struct agent_job *j = arg;
	struct err e = ERR_INIT, re = ERR_INIT;
	json_t *reply = link_agent_handle(j->run->agent, j->msg, &e), *wrap;

	wrap = reply ? json_pack("{s:o}", "ok", reply) : json_pack("{s:s}", "error", e.msg);
	rdv_reply(j->run->r, "agent", j->id, wrap, &re);
	json_decref(j->msg);
	return NULL;
}

/* Serves the master's agent calls until "done". */
static int worker_serve(struct run *run, struct err *e)
{
	struct agent_job **jobs = NULL;
	size_t njobs = 0, alloc = 0;
	int rc = 0;

	for (;;) {
		char phase[64];
		long step;
		json_t *payload = NULL;
		struct agent_job *j;

		if (rdv_next_plan(run->r, WORKER_IDLE_MS, phase, sizeof(phase), &step, &payload, e) < 0) {
			rc = -1;
			break;
		}
		if (!strcmp(phase, "done")) {
			json_decref(payload);
			break;
		}
		if (strcmp(phase, "agent")) {
			json_decref(payload);
			continue;	/* a phase this version does not know: no answer, the master times out */
		}
		j = xcalloc(1, sizeof(*j));
		j->run = run;
		j->id = step;
		j->msg = payload;
		ALLOC_GROW(jobs, njobs + 1, alloc);
		jobs[njobs++] = j;
		if (pthread_create(&j->th, NULL, agent_main, j) != 0) {
			agent_main(j);
			j->th = 0;
		}
	}
	for (size_t i = 0; i < njobs; i++) {
		if (jobs[i]->th)
			pthread_join(jobs[i]->th, NULL);
		free(jobs[i]);
	}
	free(jobs);
	return rc;
}

/* ---- the whole run ---- */

static void progress(const struct cluster_opts *o, const char *what)
{
	if (o->progress)
		o->progress(o->progress_arg, what, -1, -1);
}

static void run_free(struct run *run)
{
	for (int i = 0; i < run->n; i++) {
		json_decref(run->nodes[i].facts);
		free(run->nodes[i].addrs);
	}
	free(run->nodes);
	for (size_t i = 0; i < run->nlinks; i++)
		link_result_release(&run->links[i].res);
	free(run->links);
	link_agent_free(run->agent);
	json_decref(run->timings);
	pthread_mutex_destroy(&run->mu);
}

static void phase_connect(struct run *run, const struct sched_plan *p)
{
	run_phase(run, LINK_CONNECT, p);
}

static void phase_mtu(struct run *run, const struct sched_plan *p)
{
	run_phase(run, LINK_MTU, p);
}

static void phase_scan(struct run *run, const struct sched_plan *p)
{
	run_phase(run, LINK_SCAN, p);
	verify_scans(run);
}

static void phase_bw(struct run *run, const struct sched_plan *p)
{
	(void)p;	/* its own constant-round plan (sched_bw_plan) */
	run_bw(run);
}

/*
 * The link phases, in order. A new test plugs in here: a name, whether the options want it, and
 * a runner over the pair plan that appends to run->links (one_test / run_phase do the rest).
 */
static const struct link_phase {
	const char *name;
	int (*wanted)(const struct cluster_opts *o);
	void (*run)(struct run *run, const struct sched_plan *plan);
} link_phases[] = {
	{ .name = "connect", .wanted = want_connect, .run = phase_connect },
	{ .name = "mtu", .wanted = want_mtu, .run = phase_mtu },
	{ .name = "scan", .wanted = want_scan, .run = phase_scan },
	{ .name = "bw", .wanted = want_bw, .run = phase_bw },
};

static int master_links(struct run *run, struct err *e)
{
	struct sched_opts so = { .full_mesh_max = run->o->full_mesh_max, .samples = -1, .seed = 1 };
	struct sched_plan plan;

	if (sched_pairs(run->n, &so, &plan) < 0)
		return err_set(e, ERR_INTERNAL, "no pair plan for %d nodes", run->n);
	jset_int(run->timings, "rounds", plan.nrounds);
	for (size_t i = 0; i < ARRAY_SIZE(link_phases) && !rdv_failed(run->r, NULL); i++)
		if (link_phases[i].wanted(run->o))
			link_phases[i].run(run, &plan);
	sched_plan_release(&plan);
	return rdv_failed(run->r, e) ? -1 : 0;
}

int cluster_run(const struct cluster_opts *o, json_t **report, struct err *e)
{
	struct run run;
	json_t *facts, *all = NULL, *done;
	struct err we = ERR_INIT;
	int code = EXIT_CANNOT_RUN, master;
	int64_t t;

	*report = NULL;
	memset(&run, 0, sizeof(run));
	pthread_mutex_init(&run.mu, NULL);
	run.o = o;
	run.t0 = time_now_ms();
	run.timings = json_object();
	run.n = o->rdv.nnodes;
	run.nodes = xcalloc((size_t)(run.n > 0 ? run.n : 1), sizeof(*run.nodes));
	run.agent = link_agent_new();
	run.r = rdv_new(&o->rdv);
	master = rdv_is_master(run.r);
	if (rdv_start(run.r, e) < 0) {
		rdv_free(run.r);
		run_free(&run);
		return -1;
	}
	progress(o, master ? "listening" : "joining");
	facts = o->probe(o->probe_arg);
	jset_int(run.timings, "probe", time_now_ms() - run.t0);
	if (rdv_wait_joined(run.r, &we) < 0) {
		json_decref(facts);
		goto failed;
	}
	jset_int(run.timings, "join", time_now_ms() - run.t0);
	progress(o, "exchanging facts");
	if (rdv_gather(run.r, "facts", 0, facts, o->facts_timeout_ms, &all, &we) < 0)
		goto failed;
	if (!master) {
		progress(o, "serving the master's link tests");
		if (worker_serve(&run, &we) < 0)
			goto failed;
		progress(o, "waiting for the report");
		if (rdv_report(run.r, report, &code, REPORT_TIMEOUT_MS, &we) < 0)
			goto failed;
		rdv_finish(run.r);
		rdv_free(run.r);
		run_free(&run);
		return code;
	}

	run.fs = findings_new();
	for (int i = 0; i < run.n; i++) {
		json_t *f = json_array_get(all, (size_t)i);
		struct err fe = ERR_INIT;
		const char *h = rdv_member_host(run.r, i);

		if (cluster_facts_check(f, &fe) < 0) {
			struct finding *fd = finding_add(run.fs, SEV_ERROR, "cluster.peer.facts",
							 "%s (rank %d) sent facts this node cannot use: %s",
							 h ? h : "?", i, fe.msg);

			finding_node(fd, h);
			finding_rank(fd, i);
			finding_fix(fd, "run the same ncclcheck on every node");
			snprintf(run.nodes[i].name, sizeof(run.nodes[i].name), "%s", h ? h : "?");
			continue;
		}
		cnode_fill(&run.nodes[i], f, h ? h : "?");
	}
	json_decref(all);
	jset_int(run.timings, "facts", time_now_ms() - run.t0);
	t = time_now_ms();
	if (master_links(&run, &we) < 0) {
		findings_free(run.fs);
		goto failed;
	}
	jset_int(run.timings, "links", time_now_ms() - t);
	done = json_object();
	rdv_bcast(run.r, "done", 0, &done, 0, &we);
	json_decref(done);

	links_findings(&run, o->xrules != NULL);
	if (o->xrules) {
		const char **names = xcalloc((size_t)run.n, sizeof(*names));
		json_t **fa = xcalloc((size_t)run.n, sizeof(*fa));
		struct cluster_input in = { .n = (size_t)run.n, .names = names, .facts = fa,
					    .links = run.links, .nlinks = run.nlinks };

		for (int i = 0; i < run.n; i++) {
			names[i] = run.nodes[i].name;
			fa[i] = run.nodes[i].facts;
		}
		o->xrules(&in, run.fs);
		free(names);
		free(fa);
	}
	events_findings(run.r, &o->rdv, run.fs);
	findings_sort(run.fs);
	code = findings_count(run.fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	*report = report_doc(&run, run.fs, code);
	rdv_report(run.r, report, &code, 0, &we);
	findings_free(run.fs);
	rdv_finish(run.r);
	rdv_free(run.r);
	run_free(&run);
	return code;

failed:
	*report = local_report(&run, &we, &code);
	rdv_finish(run.r);
	rdv_free(run.r);
	run_free(&run);
	return code;
}

/* ---- text ---- */

void cluster_report_text(const json_t *report, int verbose, struct strbuf *sb)
{
	json_t *nodes = json_object_get(report, "nodes"), *links = json_object_get(report, "links");
	json_t *n, *l;
	size_t i;

	if (json_array_size(nodes)) {
		strbuf_addf(sb, "cluster: %zu nodes", json_array_size(nodes));
		json_array_foreach(nodes, i, n)
			strbuf_addf(sb, "%s %s", i ? "," : ":",
				    json_string_value(json_object_get(n, "name")));
		strbuf_addch(sb, '\n');
	}
	if (!verbose && json_array_size(links) > CLUSTER_TEXT_LINKS) {
		strbuf_addf(sb, "\n%zu link tests (each one is a finding below; --verbose lists the "
			    "measurements)\n", json_array_size(links));
		links = NULL;
	}
	if (json_array_size(links))
		strbuf_addstr(sb, "\nlinks (peer -> target address over the target's interface):\n");
	json_array_foreach(links, i, l) {
		struct link_result r;
		struct err e = ERR_INIT;
		const char *err = json_string_value(json_object_get(l, "error"));

		strbuf_addf(sb, "  %-5s %s -> %s %s: ", json_string_value(json_object_get(l, "test")),
			    json_string_value(json_object_get(l, "peer_name")),
			    json_string_value(json_object_get(l, "target_name")),
			    json_string_value(json_object_get(l, "ifname")));
		if (err) {
			strbuf_addf(sb, "could not run: %s\n", err);
			continue;
		}
		if (link_result_from_json(json_object_get(l, "result"), &r, &e) < 0) {
			strbuf_addf(sb, "(unreadable result: %s)\n", e.msg);
			continue;
		}
		link_result_text(&r, sb);
		strbuf_addch(sb, '\n');
		link_result_release(&r);
	}
	json_array_foreach(nodes, i, n) {
		struct findings *fs = findings_new();
		char buf[256];

		if (json_object_get(n, "findings") &&
		    findings_from_json(fs, json_object_get(n, "findings"), buf, sizeof(buf)) == 0 &&
		    fs->n) {
			if (i == 0)
				strbuf_addstr(sb, "\nnode checks (as 'ncclcheck node' sees each node; "
					      "not yet settled by the link tests):\n");
			size_t ne = findings_count(fs, SEV_ERROR), nw = findings_count(fs, SEV_WARN);
			size_t ni = findings_count(fs, SEV_INFO);

			strbuf_addf(sb, "  %-20s %zu error%s, %zu warning%s, %zu note%s\n",
				    json_string_value(json_object_get(n, "name")), ne, ne == 1 ? "" : "s",
				    nw, nw == 1 ? "" : "s", ni, ni == 1 ? "" : "s");
		}
		findings_free(fs);
	}
	{
		json_t *t = json_object_get(report, "timings_ms");

		static const char *const keys[] = { "probe", "join", "links", "total" };
		const char *sep = "\n";

		for (size_t k = 0; t && k < ARRAY_SIZE(keys); k++) {
			if (!json_is_integer(json_object_get(t, keys[k])))
				continue;
			strbuf_addf(sb, "%s%s %lld ms", sep, keys[k], jpath_int(t, keys[k], -1));
			sep = ", ";
		}
		if (t)
			strbuf_addch(sb, '\n');
	}
}
