/*
 * cluster/scan: how many port scans a cluster run may have at once, the second look at scans
 * that saw drops, and the timing of every test on a link from what the connect test measured
 * on it first (see run_int.h).
 */
#include "cluster/run_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * How many targets may be scanned at once. Nodes on separate machines: all of them. Nodes that
 * share one kernel (a lab, containers on one host: one boot id) share its CPUs too, and a
 * CPU-starved target answers SYNs late enough to look like a filter, which costs a second
 * scan: a pair of CPUs per address scanned at once then.
 */
int cluster_scan_concurrency(const struct run *run)
{
	const struct cnode *first = &run->nodes[0];
	int cap;

	for (int i = 1; i < run->n; i++)
		if (!first->boot_id[0] || strcmp(first->boot_id, run->nodes[i].boot_id))
			return run->n;
	cap = (int)(first->pus / 2) / (int)(first->naddrs ? first->naddrs : 1);
	return cap > 1 ? cap : 1;
}

#define CONNECT_SPREAD 4	/* ports of the target's range the connect test tries at once */
/* per direction, all at once: at a 2-3 % handshake loss about 9 retransmits a pair, so every
 * link of one lossy node clears link.loss's bar of 3 (64 left one under it in about one run in
 * three, and the warning then named a pair with an innocent end) */
#define LOSS_PROBES 192

void cluster_req_timing(struct run *run, int target, int peer, struct link_req *req)
{
	const struct cnode *t = &run->nodes[target];
	struct link_connect_result c;
	struct link_timeouts to;
	int have;

	if (req->kind == LINK_CONNECT) {
		/* the midpoints of the range's quarters, at once: a filter on part of the range
		 * fails some of them and the others still prove the interface; the loss probe
		 * then runs on a port that answered */
		long span = t->range_hi - t->range_lo + 1;

		req->probes = LOSS_PROBES;
		if (t->range_lo <= 0 || span < CONNECT_SPREAD)
			return;
		req->nports = CONNECT_SPREAD;
		for (int k = 0; k < CONNECT_SPREAD; k++)
			req->ports[k] = (uint16_t)(t->range_lo + (2L * k + 1) * span /
						   (2 * CONNECT_SPREAD));
		return;
	}
	have = cluster_connected(run, target, peer, req->addr, &c);
	link_timeouts_derive(have ? c.rtt_p99_us : 0, have ? c.loss_pct : -1, &to);
	switch (req->kind) {
	case LINK_SCAN:
		req->timeout_ms = to.scan_ms;
		req->retry_ms = to.retry_ms;
		req->looks = to.looks;
		break;
	case LINK_MTU:
		req->timeout_ms = to.mtu_ms;
		break;
	case LINK_BW:
		req->timeout_ms = to.bw_stall_ms;
		break;
	default:
		break;
	}
	if ((req->kind == LINK_MTU || req->kind == LINK_BW) && have && c.open_port) {
		req->nports = 1;
		req->ports[0] = c.open_port;
	}
}

int cluster_full_scanner(const struct run *run, int target)
{
	return run->scanner ? run->scanner[target] : sched_full_scanner(run->n, target);
}

/* A loss or a round trip this large makes every batch of a scan wait out its timeout. */
#define SCAN_DEAR_LOSS_PCT 0.5
#define SCAN_DEAR_RTT_US 10000.0
#define SCAN_DEAR 4		/* such a scan costs several clean ones: a weight, not a time */

/*
 * What a full scan of t from s costs: its dearest address, from the connect test over it. An
 * address no connect reached costs the same from everyone (its batches all wait).
 */
static int scan_cost(struct run *run, int t, int s)
{
	int cost = 1;

	for (size_t i = 0; i < run->nodes[t].naddrs; i++) {
		struct link_connect_result c;

		if (cluster_connected(run, t, s, run->nodes[t].addrs[i].addr, &c) &&
		    (c.loss_pct >= SCAN_DEAR_LOSS_PCT || c.rtt_p50_us >= SCAN_DEAR_RTT_US))
			cost = SCAN_DEAR;
	}
	return cost;
}

void cluster_plan_scanners(struct run *run)
{
	int n = run->n, *cost = NULL;

	/* weighed only where sched_full_scans searches (n^2 lookups over n^2 links) */
	if (n <= SCHED_SCANNER_SEARCH_MAX) {
		cost = xcalloc((size_t)n * (size_t)n + 1, sizeof(*cost));
		for (int t = 0; t < n; t++)
			for (int s = 0; s < n; s++)
				cost[s * n + t] = s == t ? 0 : scan_cost(run, t, s);
	}
	free(run->scanner);
	free(run->scan_round);
	run->scanner = xcalloc((size_t)n + 1, sizeof(*run->scanner));
	run->scan_round = xcalloc((size_t)n + 1, sizeof(*run->scan_round));
	run->scan_rounds = sched_full_scans(n, cost, run->scanner, run->scan_round);
	free(cost);
}

/* Rounds of "sample, and when any answers, scan again" per suspect scan. */
#define VERIFY_ROUNDS 2
#define VERIFY_SAMPLE 256
#define VERIFY_WINDOW 1024

/*
 * Drops seen while other scans ran may be the load, not a firewall (in a lab every node shares
 * one kernel; on a cluster, a congested switch or packet loss): each scan with dropped ports has
 * a sample of them tried again with the long timeout, and when any answers, the whole range is
 * scanned again and the two passes merged — a port that answered in either is not filtered (a
 * filter drops every SYN). Up to VERIFY_ROUNDS rounds, so a port stays dropped only when it
 * failed in every pass, spread over seconds. A real filter costs one sample per round; a stall
 * of the scanner or the target (CPU starvation, a SIGSTOP) never reaches the findings.
 */
/*
 * The ports a sample of scan `l`'s drops tries: up to VERIFY_SAMPLE, 32 a dropped run at most,
 * spread over it; a port another sample of the same round listens on (`claimed`, a bit per port
 * of the same target address; NULL: none) gives way to the next free one of its stride.
 */
static int sample_ports(const struct cluster_link *l, const uint8_t *claimed, uint16_t *out)
{
	int k = 0;

	for (size_t v = 0; v < l->res.s.niv && k < VERIFY_SAMPLE; v++) {
		const struct link_interval *iv = &l->res.s.iv[v];
		long span = (long)iv->hi - iv->lo + 1, take = span < 32 ? span : 32;
		long stride = span / take;

		if (iv->state != LINK_PORT_DROPPED)
			continue;
		for (long p = 0; p < take && k < VERIFY_SAMPLE; p++) {
			long port = iv->lo + p * span / take, d = 0;

			while (claimed && d < stride && claimed[(port + d) / 8] & (1u << ((port + d) % 8)))
				d++;
			if (d < stride)
				out[k++] = (uint16_t)(port + d);
		}
	}
	return k;
}

/*
 * A sample of the drops of scan `l` (its `ports`, sample_ports) tried again with the long
 * timeout: 1 when any answered (some drops were the load, not a filter), 0 when every one dropped
 * again, -1 when nothing could be tried. A sample listens on at most VERIFY_SAMPLE ports of the
 * target's address and waits, so samples run side by side, on one address too when their ports
 * differ.
 */
static int sample_answers(struct run *run, const struct cluster_link *l, const uint16_t *ports,
			  int n)
{
	struct cluster_link probe;
	struct link_req req;
	int answered;

	if (n <= 0)
		return -1;
	link_req_init(&req, LINK_SCAN);
	snprintf(req.addr, sizeof(req.addr), "%s", l->res.addr);
	cluster_req_timing(run, l->target, l->peer, &req);
	req.timeout_ms = req.retry_ms;	/* samples wait past a SYN retransmit */
	memcpy(req.list, ports, (size_t)n * sizeof(*ports));
	req.nlist = n;
	memset(&probe, 0, sizeof(probe));
	cluster_run_req(run, l->target, l->peer, &req, &probe);
	answered = !probe.ran ? -1
		 : probe.res.s.counts[LINK_PORT_OPEN] || probe.res.s.counts[LINK_PORT_REJECTED] ? 1
		 : probe.res.s.counts[LINK_PORT_DROPPED] ? 0 : -1;
	link_result_release(&probe.res);
	return answered;
}

/* `first`: what the first round's sample said (sampled before, side by side with others). */
static void verify_one(struct run *run, size_t i, int first)
{
	struct cluster_link *l = &run->links[i];
	const struct cnode *t = &run->nodes[l->target];
	const struct caddr *a = NULL;

	for (size_t j = 0; j < t->naddrs; j++)
		if (!strcmp(t->addrs[j].addr, l->res.addr))
			a = &t->addrs[j];
	if (!a)
		return;
	for (int round = 0; round < VERIFY_ROUNDS && l->res.s.counts[LINK_PORT_DROPPED]; round++) {
		struct cluster_link again;
		struct link_req req;
		uint16_t ports[VERIFY_SAMPLE];

		if ((round ? sample_answers(run, l, ports, sample_ports(l, NULL, ports)) : first) != 1)
			return;	/* every sampled port dropped again, seconds later: consistent */
		again = *l;
		cluster_build_req(run, LINK_SCAN, l->target, l->peer, a, &req);
		/* the pass again waits past a SYN retransmit and in smaller bursts: ports that
		 * lost their SYN, or came late at the tail of a burst through a slow queue, then
		 * answer, while a filter still drops them */
		req.timeout_ms = req.retry_ms;
		req.window = VERIFY_WINDOW;
		memset(&again.res, 0, sizeof(again.res));
		cluster_run_req(run, l->target, l->peer, &req, &again);
		if (again.ran) {
			link_scan_merge(&req, &l->res, &again.res);
			free(l->res.s.state);	/* scratch again, as add_link made it */
			l->res.s.state = NULL;
		}
		link_result_release(&again.res);
		if (!again.ran)
			return;
	}
}

struct verify_job {
	struct run *run;
	size_t link;
	int first;		/* the first sample's answer (sample_answers) */
	int sample;		/* this job only samples, these ports */
	uint16_t ports[VERIFY_SAMPLE];
	int nports;
	pthread_t th;
};

static void *verify_main(void *arg)
{
	struct verify_job *j = arg;

	if (j->sample)
		j->first = sample_answers(j->run, &j->run->links[j->link], j->ports, j->nports);
	else
		verify_one(j->run, j->link, j->first);
	return NULL;
}

static int suspect(const struct cluster_link *l)
{
	return l->kind == LINK_SCAN && l->ran && l->res.s.counts[LINK_PORT_DROPPED];
}

/*
 * The ports a sample of link `l` claims in this round of `nj` jobs: where another sample of the
 * round listens on l's target address, its ports are taken (`bits`, one per port, scratch). The
 * sample joins the round when it loses none of its ports to them; else it waits for the next
 * one, unless it is the address's first (one sample always runs).
 */
static int claim_sample(const struct run *run, const struct verify_job *jobs, int nj,
			const struct cluster_link *l, uint8_t *bits, struct verify_job *j)
{
	uint16_t alone[VERIFY_SAMPLE];
	int n = sample_ports(l, NULL, alone), shared = 0;

	memset(bits, 0, 65536 / 8);
	for (int k = 0; k < nj; k++) {
		const struct cluster_link *o = &run->links[jobs[k].link];

		if (o->target != l->target || strcmp(o->res.addr, l->res.addr))
			continue;
		shared = 1;
		for (int p = 0; p < jobs[k].nports; p++)
			bits[jobs[k].ports[p] / 8] |= (uint8_t)(1u << (jobs[k].ports[p] % 8));
	}
	j->nports = sample_ports(l, shared ? bits : NULL, j->ports);
	return !shared || j->nports == n;
}

/*
 * First every suspect's sample, side by side (a sample mostly waits: it costs no CPU, and a real
 * filter everywhere then costs one wait, not one per link); then, for the scans whose sample
 * answered, the scans again in rounds where no node has two roles (a node's own connects would
 * take ports it listens on), up to scan_concurrency() at once.
 */
void cluster_verify_scans(struct run *run)
{
	struct verify_job *jobs = xcalloc(run->nlinks + (size_t)run->n + 1, sizeof(*jobs));
	int *first = xcalloc(run->nlinks + 1, sizeof(*first));
	char *busy = xcalloc((size_t)run->n, 1), *done = xcalloc(run->nlinks + 1, 1);
	uint8_t *bits = xcalloc(65536 / 8, 1);
	int cap = cluster_scan_concurrency(run), nj;

	do {
		nj = 0;
		/* the samplers' drops first: their ports are fixed, a whole map's can give way */
		for (size_t k = 0; k < 2 * run->nlinks && !rdv_failed(run->r, NULL); k++) {
			size_t i = k % run->nlinks;
			const struct cluster_link *l = &run->links[i];
			int whole = l->peer == cluster_full_scanner(run, l->target);

			if (done[i] || !suspect(l) || whole != (k >= run->nlinks))
				continue;
			jobs[nj] = (struct verify_job){ .run = run, .link = i, .sample = 1 };
			if (!claim_sample(run, jobs, nj, l, bits, &jobs[nj]))
				continue;
			done[i] = 1;
			if (pthread_create(&jobs[nj].th, NULL, verify_main, &jobs[nj]) != 0)
				verify_main(&jobs[nj]), jobs[nj].th = 0;
			nj++;
		}
		for (int k = 0; k < nj; k++) {
			if (jobs[k].th)
				pthread_join(jobs[k].th, NULL);
			first[jobs[k].link] = jobs[k].first;
		}
	} while (nj);
	memset(done, 0, run->nlinks + 1);
	do {
		nj = 0;
		memset(busy, 0, (size_t)run->n);
		for (size_t i = 0; i < run->nlinks && nj < cap && !rdv_failed(run->r, NULL); i++) {
			const struct cluster_link *l = &run->links[i];

			if (done[i] || !suspect(l) || first[i] != 1 || busy[l->target] ||
			    busy[l->peer])
				continue;
			done[i] = busy[l->target] = busy[l->peer] = 1;
			jobs[nj] = (struct verify_job){ .run = run, .link = i, .first = 1 };
			if (pthread_create(&jobs[nj].th, NULL, verify_main, &jobs[nj]) != 0)
				verify_main(&jobs[nj]), jobs[nj].th = 0;
			nj++;
		}
		for (int k = 0; k < nj; k++)
			if (jobs[k].th)
				pthread_join(jobs[k].th, NULL);
	} while (nj);
	free(jobs);
	free(first);
	free(busy);
	free(done);
	free(bits);
}
