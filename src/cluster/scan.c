/*
 * net/cluster_scan: how many port scans a cluster run may have at once, and the second look at
 * scans that saw drops (see cluster_run_int.h).
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

/*
 * Drops seen while other scans ran may be the load, not a firewall (in a lab every node shares
 * one kernel; on a cluster, a congested switch): each scan with dropped ports has a sample of
 * them tried again with the long timeout, and when any answers, the whole scan is redone. A
 * real filter costs one sample round; a false alarm never reaches the findings.
 */
static void verify_one(struct run *run, size_t i)
{
	struct cluster_link *l = &run->links[i], probe;
	const struct cnode *t = &run->nodes[l->target];
	const struct caddr *a = NULL;
	struct link_req req;
	int k = 0;

	for (size_t j = 0; j < t->naddrs; j++)
		if (!strcmp(t->addrs[j].addr, l->res.addr))
			a = &t->addrs[j];
	if (!a)
		return;
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
		return;
	req.nlist = k;
	memset(&probe, 0, sizeof(probe));
	cluster_run_req(run, l->target, l->peer, &req, &probe);
	if (probe.ran && (probe.res.s.counts[LINK_PORT_OPEN] || probe.res.s.counts[LINK_PORT_REJECTED])) {
		struct cluster_link again = *l;

		cluster_build_req(run, LINK_SCAN, l->target, l->peer, a, &req);
		memset(&again.res, 0, sizeof(again.res));
		cluster_run_req(run, l->target, l->peer, &req, &again);
		if (again.ran) {
			link_result_release(&l->res);
			*l = again;
		} else {
			link_result_release(&again.res);
		}
	}
	link_result_release(&probe.res);
}

struct verify_job {
	struct run *run;
	size_t link;
	pthread_t th;
};

static void *verify_main(void *arg)
{
	struct verify_job *j = arg;

	verify_one(j->run, j->link);
	return NULL;
}

static int suspect(const struct cluster_link *l)
{
	return l->kind == LINK_SCAN && l->ran && l->res.s.counts[LINK_PORT_DROPPED];
}

/*
 * The suspects in rounds where no node has two roles (a node's own connects would take ports
 * it listens on), up to scan_concurrency() at once: a firewall on every node costs one round
 * of samples, not one per link.
 */
void cluster_verify_scans(struct run *run)
{
	struct verify_job *jobs = xcalloc((size_t)run->n + 1, sizeof(*jobs));
	char *busy = xcalloc((size_t)run->n, 1), *done = xcalloc(run->nlinks + 1, 1);
	int cap = cluster_scan_concurrency(run), nj;

	do {
		nj = 0;
		memset(busy, 0, (size_t)run->n);
		for (size_t i = 0; i < run->nlinks && nj < cap && !rdv_failed(run->r, NULL); i++) {
			const struct cluster_link *l = &run->links[i];

			if (done[i] || !suspect(l) || busy[l->target] || busy[l->peer])
				continue;
			done[i] = busy[l->target] = busy[l->peer] = 1;
			jobs[nj] = (struct verify_job){ .run = run, .link = i };
			if (pthread_create(&jobs[nj].th, NULL, verify_main, &jobs[nj]) != 0)
				verify_main(&jobs[nj]), jobs[nj].th = 0;
			nj++;
		}
		for (int k = 0; k < nj; k++)
			if (jobs[k].th)
				pthread_join(jobs[k].th, NULL);
	} while (nj);
	free(jobs);
	free(busy);
	free(done);
}
