/*
 * net/cluster_run: see cluster_run.h. The master drives every link test over the rendezvous
 * connections: a pair's test is link_run() over a channel whose two sides are the agents of the
 * two nodes — the master's own agent in-process, a worker's agent through rdv_call() (a plan of
 * phase "agent" to that worker, answered by its result). Workers serve those calls until the
 * master's "done", then wait for the report.
 */
#include "cluster/run.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncclcheck.h"
#include "link/agent.h"
#include "link/ceiling.h"
#include "cluster/sched.h"
#include "rules/cluster_rdv.h"
#include "probe/probe.h"
#include "report/render.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "cluster/run_int.h"

#define WORKER_IDLE_MS (10L * 60 * 1000)	/* the master's heartbeats keep it honest */
#define FACTS_TIMEOUT_MS 60000
#define REPORT_TIMEOUT_MS 60000
/* a worker the master aborted waits this long for the master's failure report */
#define FAILURE_REPORT_WAIT_MS 3000
#define AGENT_SLACK_MS 3000
/*
 * A node silent this long is given up as dead: twice the stall that spoils a port scan
 * (LINK_SCAN_STARVED_MS), so that a stopped or starved node shows in one of two ways and never
 * as a false verdict: stalled past a scan's limit but short of this, its scans say they could
 * not run (cluster.link.untested) and the run finishes; silent longer, it is named dead. With
 * the two equal (3 s each) the first could not happen: a stop long enough to spoil a scan always
 * made a dead peer first. A stop's stall shows in a scan's timers less the look it was in (at
 * most a look again), and its silence at the master plus a heartbeat: twice leaves both margins.
 */
#define CLUSTER_DEAD_MS (2 * LINK_SCAN_STARVED_MS)

void cluster_opts_init(struct cluster_opts *o)
{
	memset(o, 0, sizeof(*o));
	rdv_opts_init(&o->rdv);
	o->rdv.dead_ms = CLUSTER_DEAD_MS;
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

/* ---- the run ---- */

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

static void add_link(struct run *run, struct cluster_link *l)
{
	/* a scan's per-port array (64 KiB) is scratch once its intervals are made: kept for
	 * every link, it grew rank 0 with the square of the node count (124 MiB of 32 nodes') */
	free(l->res.s.state);
	l->res.s.state = NULL;
	pthread_mutex_lock(&run->mu);
	ALLOC_GROW(run->links, run->nlinks + 1, run->alinks);
	run->links[run->nlinks++] = *l;
	run->done++;
	if (run->o->progress)
		run->o->progress(run->o->progress_arg, run->phase, run->done, run->total);
	pthread_mutex_unlock(&run->mu);
}

int cluster_connected(struct run *run, int target, int peer, const char *addr,
		      struct link_connect_result *out)
{
	int found = 0;

	pthread_mutex_lock(&run->mu);
	for (size_t i = 0; i < run->nlinks && !found; i++) {
		const struct cluster_link *l = &run->links[i];

		found = l->kind == LINK_CONNECT && l->target == target && l->peer == peer &&
			l->ran && l->res.c.status == LINK_OK && !strcmp(l->res.addr, addr);
		if (found && out)
			*out = l->res.c;
	}
	pthread_mutex_unlock(&run->mu);
	return found;
}

/*
 * Which tests run on an address: connect always; the path MTU where TCP got through (its probes
 * need an open port); the port scan always, because the connect test's port is one the kernel
 * picks from the very range a firewall may filter — the scan is what tells that apart.
 */
static int wanted(struct run *run, enum link_kind kind, int target, int peer, const struct caddr *a)
{
	switch (kind) {
	case LINK_MTU: return cluster_connected(run, target, peer, a->addr, NULL);
	case LINK_SCAN: return run->nodes[target].range_lo > 0;
	default: return 1;
	}
}

/* The request of one test from `peer` to the target's address `a`. */
void cluster_build_req(struct run *run, enum link_kind kind, int target, int peer,
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
		if (peer != cluster_full_scanner(run, target) && run->o->sampled_ports > 0) {
			/* one peer maps the whole range; the others sample it (a rule may name a source),
			 * each at ports of its own within the stride: the second looks at two samplers'
			 * drops then listen side by side (cluster_verify_scans) */
			int span = t->range_hi - t->range_lo + 1;
			int k = run->o->sampled_ports < span ? run->o->sampled_ports : span;
			long off;

			if (k > LINK_SCAN_LIST_MAX)
				k = LINK_SCAN_LIST_MAX;
			off = (long)(span / k) * peer / (run->n > 0 ? run->n : 1);
			for (int i = 0; i < k; i++)
				req->list[i] = (uint16_t)(t->range_lo + (long)i * span / k + off);
			req->nlist = k;
		}
	}
	if (kind == LINK_BW)
		req->duration_ms = (int)run->o->bw_ms;
	cluster_req_timing(run, target, peer, req);
}

/* Runs one request over the pair's channel into l (ran / error set). */
void cluster_run_req(struct run *run, int target, int peer, const struct link_req *req,
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
	cluster_build_req(run, kind, target, peer, a, &req);
	cluster_run_req(run, target, peer, &req, &l);
	add_link(run, &l);
}


/* Which scans a job runs: a target's whole range from its designated scanner, or the samples. */
enum scan_part { SCAN_ANY, SCAN_FULL, SCAN_SAMPLED };

struct pair_job {
	struct run *run;
	enum link_kind kind;
	enum scan_part part;
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
 * Whether both ends can hold one scan batch per address at once: the target a batch of
 * listeners on each address, the peer a window of connects from each of its own.
 */
static int scans_fit_at_once(const struct run *run, int target, int peer)
{
	long long need = (long long)run->nodes[target].naddrs *
			 (LINK_SCAN_BATCH_DEFAULT + 2 * 64) + 1024;	/* + both ends' fd margins */

	for (int k = 0; k < 2; k++) {
		long long lim = run->nodes[k ? peer : target].nofile;

		if (lim != -1 && lim < need)
			return 0;
	}
	return 1;
}

/*
 * One direction of a pair: the peer tests every address of the target at once — a dropped
 * address costs its timeout once, not once per address. Scans too, where both ends have the
 * descriptors for it (each address is its own source and its own listeners); else one after
 * the other.
 */
static void *direction_main(void *arg)
{
	struct pair_job *j = arg;
	struct run *run = j->run;
	int target = j->a, peer = j->b;
	const struct cnode *t = &run->nodes[target];
	struct addr_job *aj = xcalloc(t->naddrs + 1, sizeof(*aj));
	int serial = j->kind == LINK_SCAN && !scans_fit_at_once(run, target, peer);
	int full = peer == cluster_full_scanner(run, target);

	if (j->kind == LINK_SCAN && ((j->part == SCAN_FULL && !full) ||
				     (j->part == SCAN_SAMPLED && full))) {
		free(aj);
		return NULL;
	}
	for (size_t i = 0; i < t->naddrs; i++) {
		aj[i] = (struct addr_job){ .run = run, .kind = j->kind, .target = target, .peer = peer,
					   .a = &t->addrs[i] };
		if (!wanted(run, j->kind, target, peer, &t->addrs[i]))
			continue;
		if (serial || pthread_create(&aj[i].th, NULL, addr_main, &aj[i]) != 0) {
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

/* The pair rounds of a plan; scans only `part` of their directions. */
static void run_rounds(struct run *run, enum link_kind kind, enum scan_part part,
		       const struct sched_plan *plan)
{
	for (int r = 0; r < plan->nrounds && !rdv_failed(run->r, NULL); r++) {
		const struct sched_round *rd = &plan->rounds[r];
		struct pair_job *jobs = xcalloc((size_t)rd->npairs + 1, sizeof(*jobs));

		for (int k = 0; k < rd->npairs; k++) {
			struct pair_job *j = &jobs[k];

			j->run = run;
			j->kind = kind;
			j->part = part;
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
}

static void run_phase(struct run *run, enum link_kind kind, const struct sched_plan *plan)
{
	int64_t t0 = time_now_ms();

	phase_start(run, link_kind_name(kind), phase_total(run, plan, kind));
	run_rounds(run, kind, SCAN_ANY, plan);
	jset_int(run->timings, run->phase, time_now_ms() - t0);
}

/*
 * The whole ranges in rounds of their own (two or three, whatever N is): cluster_plan_scanners
 * says who maps each target and when — the ring successor, unless its link measured loss or a
 * long round trip and another peer's does not — and no node is a target and a scanner in one
 * round (its own connects would take ports from the range it listens on). The pair rounds then
 * run only the samples (64 ports each), so the phase no longer costs a full scan per pair round.
 */
static void join_jobs(struct pair_job *jobs, int n)
{
	for (int k = 0; k < n; k++)
		if (jobs[k].th)
			pthread_join(jobs[k].th, NULL);
}

static void run_full_scans(struct run *run)
{
	struct pair_job *jobs = xcalloc((size_t)run->n + 1, sizeof(*jobs));
	int cap = cluster_scan_concurrency(run);

	cluster_plan_scanners(run);
	for (int round = 0; round < run->scan_rounds && run->n > 1 && !rdv_failed(run->r, NULL);
	     round++) {
		int nj = 0;

		for (int t = 0; t < run->n && !rdv_failed(run->r, NULL); t++) {
			if (run->scan_round[t] != round)
				continue;
			if (nj == cap) {
				join_jobs(jobs, nj);
				nj = 0;
			}
			jobs[nj] = (struct pair_job){ .run = run, .kind = LINK_SCAN, .part = SCAN_FULL,
						      .a = t, .b = run->scanner[t] };
			if (pthread_create(&jobs[nj].th, NULL, direction_main, &jobs[nj]) != 0)
				direction_main(&jobs[nj]), jobs[nj].th = 0;
			nj++;
		}
		join_jobs(jobs, nj);
	}
	free(jobs);
}

/* ---- bandwidth: a constant number of rounds, then suspects against a known-good node ---- */

/*
 * Whether the path MTU test from `peer` to `addr` of `target` found a black hole: full-size
 * segments vanish there, so a flow over it can only stall for its whole timeout, and what it
 * would say is already measured (link.mtu.blackhole).
 */
static int blackholed(struct run *run, int target, int peer, const char *addr)
{
	int found = 0;

	pthread_mutex_lock(&run->mu);
	for (size_t i = 0; i < run->nlinks && !found; i++) {
		const struct cluster_link *l = &run->links[i];

		found = l->kind == LINK_MTU && l->target == target && l->peer == peer && l->ran &&
			l->res.m.blackhole && !strcmp(l->res.addr, addr);
	}
	pthread_mutex_unlock(&run->mu);
	return found;
}

/*
 * The address a flow to `target` uses: a private one that connected and carries full-size
 * segments, else any such one; none when every address that connected is a black hole.
 */
static const struct caddr *bw_addr(struct run *run, int target, int peer)
{
	const struct cnode *t = &run->nodes[target];
	const struct caddr *any = NULL;

	for (size_t i = 0; i < t->naddrs; i++) {
		if (!cluster_connected(run, target, peer, t->addrs[i].addr, NULL) ||
		    blackholed(run, target, peer, t->addrs[i].addr))
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
static void bw_round(struct run *run, const struct sched_bw_round *rd, struct cluster_bw_meas **m,
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
		(*m)[(*nm)++] = (struct cluster_bw_meas){ .from = l->peer, .to = l->target,
						     .gbps = l->res.b.total_gbps };
	}
}

/*
 * host[i]: equal for nodes with one boot id (one kernel), -1 when unknown. Their flows are CPU
 * figures, judged among themselves and measured again alone when slow (net/sched.h).
 */
static int *bw_hosts(const struct run *run)
{
	int *host = xcalloc((size_t)run->n, sizeof(*host));

	for (int i = 0; i < run->n; i++) {
		host[i] = -1;
		for (int j = 0; j <= i && run->nodes[i].boot_id[0] && host[i] < 0; j++)
			if (!strcmp(run->nodes[i].boot_id, run->nodes[j].boot_id))
				host[i] = j;
	}
	return host;
}

/* Flows measured alone at once: as many as the smallest host's cores carry, a pair of CPUs each. */
static int bw_alone_cap(const struct run *run)
{
	long long pus = 0;

	for (int i = 0; i < run->n; i++)
		if (run->nodes[i].pus > 0 && (!pus || run->nodes[i].pus < pus))
			pus = run->nodes[i].pus;
	return pus / 2 > 1 ? (int)(pus / 2) : 1;
}

static int bw_judge(struct run *run, const int *host, const struct cluster_bw_meas *m, int nm,
		    const struct cluster_bw_meas *alone, int nalone, struct cluster_bw_verdict *v)
{
	struct cluster_bw_input in = { .m = m, .nm = nm, .alone = alone, .nalone = nalone,
				     .host = host };

	return cluster_bw_judge(run->n, &in, v);
}

/*
 * The bandwidth rounds, then what the judgement (rules/cluster_bw.h) calls suspect measured
 * again: against a known-good node, and flows inside one kernel alone. The flows stay in
 * run->links, the figures measured alone in run->bw_alone: xrule_bw judges them at the end.
 */
static void run_bw(struct run *run)
{
	struct sched_bw_plan plan;
	struct cluster_bw_meas *m = NULL;
	struct cluster_bw_verdict v;
	struct sched_bw_round sus;
	int nm = 0, am = 0, aalone = 0, total = 0, *host;
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
	host = bw_hosts(run);
	memset(&v, 0, sizeof(v));
	if (bw_judge(run, host, m, nm, NULL, 0, &v) == 0) {
		memset(&sus, 0, sizeof(sus));
		if (sched_bw_suspects(&v, &sus) > 0) {
			run->total += sus.nflows;
			bw_round(run, &sus, &m, &nm, &am);
			cluster_bw_verdict_release(&v);
			bw_judge(run, host, m, nm, NULL, 0, &v);
		}
		free(sus.flows);
		if (v.nretest > 0 && !rdv_failed(run->r, NULL)) {
			struct sched_bw_round *rounds;
			int nr = sched_bw_alone_rounds(&v, bw_alone_cap(run), &rounds);
			size_t keep = run->nlinks;

			run->total += v.nretest;
			for (int r = 0; r < nr; r++) {
				if (!rdv_failed(run->r, NULL))
					bw_round(run, &rounds[r], &run->bw_alone, &run->nbw_alone,
						 &aalone);
				free(rounds[r].flows);
			}
			free(rounds);
			/* the retests are evidence of the verdict, not links of their own: a second
			 * record of a direction would be a second link.bw finding for it */
			for (size_t i = keep; i < run->nlinks; i++)
				link_result_release(&run->links[i].res);
			run->nlinks = keep;
		}
		cluster_bw_verdict_release(&v);
	}
	free(host);
	free(m);
	jset_int(run->timings, "bw", time_now_ms() - t0);
}

static int want_connect(const struct cluster_opts *o) { return o->connect; }
static int want_mtu(const struct cluster_opts *o) { return o->connect && o->mtu; }
static int want_scan(const struct cluster_opts *o) { return o->ports; }
static int want_bw(const struct cluster_opts *o) { return o->connect && o->bw; }

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

/* The join, shown as it goes: who came, who is missing, how long is left. */
static int wait_joined(struct run *run, struct err *e)
{
	const struct cluster_opts *o = run->o;
	struct rdv_join_status st;
	int rc;

	while ((rc = rdv_wait_joined_for(run->r, o->waiting ? 250 : -1, e)) == 0) {
		rdv_join_status(run->r, &st);
		o->waiting(o->progress_arg, &st, rdv_is_master(run->r));
	}
	return rc < 0 ? -1 : 0;
}

static void run_free(struct run *run)
{
	for (int i = 0; i < run->n; i++) {
		node_model_free(run->nodes[i].m);
		json_decref(run->nodes[i].facts);
		free(run->nodes[i].addrs);
	}
	cluster_node_checks_free(run);
	free(run->nodes);
	free(run->scanner);
	free(run->scan_round);
	for (size_t i = 0; i < run->nlinks; i++)
		link_result_release(&run->links[i].res);
	free(run->links);
	free(run->bw_alone);
	cluster_links_free(run->report_links);
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
	int64_t t0 = time_now_ms();

	phase_start(run, link_kind_name(LINK_SCAN), phase_total(run, p, LINK_SCAN));
	run_full_scans(run);
	run_rounds(run, LINK_SCAN, SCAN_SAMPLED, p);
	jset_int(run->timings, run->phase, time_now_ms() - t0);
	cluster_verify_scans(run);
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

/* The report's link tests: sent in place of its placeholder (run.h struct cluster_links). */
static const struct jsplice *report_splice(const struct run *run)
{
	return run->report_links ? &run->report_links->sp : NULL;
}

/* ... then handed to the caller that writes them, or put in the document it gets. */
static void hand_links(struct run *run, json_t *report)
{
	struct cluster_links *cl = run->report_links;

	run->report_links = NULL;
	if (run->o->links) {
		*run->o->links = cl;
		return;
	}
	if (cl)
		jsplice_materialize(report, &cl->sp);
	cluster_links_free(cl);
}

int cluster_run(const struct cluster_opts *o, json_t **report, struct err *e)
{
	struct run run;
	json_t *facts, *all = NULL, *done;
	struct err we = ERR_INIT;
	int code = EXIT_CANNOT_RUN, master;
	int64_t t;

	*report = NULL;
	if (o->links)
		*o->links = NULL;
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
		if (rdv_failed(run.r, NULL)) {
			/* the rendezvous judged it (a second rank 0 holds the port): its report */
			we = *e;
			*report = cluster_local_report(&run, &we, &code);
			hand_links(&run, *report);
			rdv_free(run.r);
			run_free(&run);
			return code;
		}
		rdv_free(run.r);
		run_free(&run);
		return -1;
	}
	progress(o, master ? "listening" : "joining");
	facts = o->probe(o->probe_arg);
	jset_int(run.timings, "probe", time_now_ms() - run.t0);
	if (jpath_bool(facts, "net.master.local", 0) && jpath_str(facts, "net.master.resolved"))
		snprintf(run.master_ip, sizeof(run.master_ip), "%s",
			 jpath_str(facts, "net.master.resolved"));
	if (wait_joined(&run, &we) < 0) {
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
		if (rdv_report(run.r, report, NULL, &code, REPORT_TIMEOUT_MS, &we) < 0)
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

		struct node_model *m = cluster_peer_model(f, &fe);

		if (!m) {
			cluster_peer_facts_refused(run.fs, h, i, fe.msg);
			snprintf(run.nodes[i].name, sizeof(run.nodes[i].name), "%s", h ? h : "?");
			continue;
		}
		cluster_node_fill(&run.nodes[i], f, m, h ? h : "?");
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

	cluster_node_checks(&run);
	if (o->xrules) {
		const char **names = xcalloc((size_t)run.n, sizeof(*names));
		const char **boot = xcalloc((size_t)run.n, sizeof(*boot));
		const struct node_model **ms = xcalloc((size_t)run.n, sizeof(*ms));
		int mesh = o->full_mesh_max > 0 ? o->full_mesh_max : SCHED_FULL_MESH_MAX;
		struct cluster_input in = { .n = (size_t)run.n, .names = names, .models = ms,
					    .boot_ids = boot, .links = run.links,
					    .nlinks = run.nlinks, .sampled = run.n > mesh,
					    .bw_alone = run.bw_alone,
					    .nbw_alone = (size_t)run.nbw_alone,
					    .node_findings = run.node_fs, .settled = run.settled };

		for (int i = 0; i < run.n; i++) {
			names[i] = run.nodes[i].name;
			boot[i] = run.nodes[i].boot_id;
			ms[i] = run.nodes[i].m;
		}
		o->xrules(&in, run.fs);
		free(names);
		free(boot);
		free(ms);
	}
	if (o->master_findings) {
		progress(o, "asking NCCL's RAS");
		o->master_findings(o->master_findings_arg, run.fs);
	}
	cluster_events_findings(run.r, &o->rdv, run.master_ip, run.fs);
	findings_sort(run.fs);
	/* a node's guess that the link tests confirmed as an error is a measured failure */
	code = cluster_exit_code(run.fs, cluster_node_errors(&run));
	*report = cluster_report_doc(&run, run.fs, code);
	rdv_report(run.r, report, report_splice(&run), &code, 0, &we);
	hand_links(&run, *report);
	findings_free(run.fs);
	rdv_finish(run.r);
	rdv_free(run.r);
	run_free(&run);
	return code;

failed:
	*report = cluster_local_report(&run, &we, &code);
	if (master) {
		struct err re = ERR_INIT;

		/* the workers still connected print this same report (header, node table) */
		rdv_report(run.r, report, report_splice(&run), &code, 0, &re);
	} else {
		json_t *mr = NULL;

		if (rdv_failure_report(run.r, &mr, FAILURE_REPORT_WAIT_MS) == 0 &&
		    json_is_object(mr)) {
			json_object_set_new(mr, "error", json_string(we.msg));
			json_decref(*report);
			*report = mr;
			code = EXIT_CANNOT_RUN;
			cluster_links_free(run.report_links);
			run.report_links = NULL;
		} else {
			json_decref(mr);
		}
	}
	hand_links(&run, *report);
	rdv_finish(run.r);
	rdv_free(run.r);
	run_free(&run);
	return code;
}
