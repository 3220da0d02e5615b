/*
 * Who is slow, from the bandwidth flows the cluster measured (cluster/sched.h plans them): a slow
 * host (slow with every peer) told from a slow link (slow with one peer, fine with others), and
 * flows inside one kernel (one boot id: namespaces of a lab, containers of one machine) judged
 * among themselves, where slowness that goes away measured alone was the shared CPUs.
 *
 * Pure. Two callers: the scheduler asks cluster_bw_judge which flows to measure again (the
 * suspects against a known-good node, the same-kernel flows alone); xrule_bw, at the end of the
 * run, judges the same measurements (the cluster view's bandwidth links plus the flows measured
 * alone) and says link.bw.slow_host / slow_link / slow_pair / same_host.
 */
#ifndef NCCLCHECK_RULES_CLUSTER_BW_H
#define NCCLCHECK_RULES_CLUSTER_BW_H

#include "finding.h"
#include "model/cluster.h"

#define CLUSTER_BW_SLOW_FRAC 0.6	/* slower than this share of the reference: slow */
#define CLUSTER_BW_NODES_MAX 65536	/* as many as the scheduler plans for (SCHED_NODES_MAX) */

struct cluster_bw_flow {
	int from, to;
};

/* One measured flow: struct cluster_bw_meas, model/cluster.h. */

enum cluster_bw_node_verdict {
	CLUSTER_BW_NODE_UNMEASURED = 0,
	CLUSTER_BW_NODE_OK,		/* some measurement at full speed */
	CLUSTER_BW_NODE_SLOW,	/* slow with two or more different peers: the host */
	CLUSTER_BW_NODE_SUSPECT,	/* slow, but with one peer only: host or link, not yet known */
};

enum cluster_bw_link_verdict {
	CLUSTER_BW_LINK_OK = 0,
	CLUSTER_BW_LINK_SLOW,	/* slow while both ends are fast with others: the link */
	CLUSTER_BW_LINK_HOST,	/* slow because an end is a slow host */
	CLUSTER_BW_LINK_UNKNOWN,	/* slow, ends not told apart (e.g. two nodes only) */
};

struct cluster_bw_link {
	int a, b;		/* a < b */
	enum cluster_bw_link_verdict v;
	double min_gbps;	/* the slowest flow measured on it (either direction) */
	int same_host;		/* both ends on one kernel: judged among its flows */
	double ref_gbps, slow_gbps;	/* what fast and slow mean for flows like this one */
	double alone_gbps;	/* its slowest flow measured again alone; -1 when it was not */
};

/* A flow inside one kernel that was slow among all flows at once and fast measured alone. */
struct cluster_bw_cleared {
	int from, to;
	double busy_gbps, alone_gbps, slow_gbps;
};

struct cluster_bw_verdict {
	int n;
	double ref_gbps;	/* what "fast" means here */
	double slow_gbps;	/* below this: slow */
	enum cluster_bw_node_verdict *node;	/* n entries */
	int *slow_send, *slow_recv;	/* per node: 1 when every flow out / in is slow */
	struct cluster_bw_link *links;
	int nlinks;
	int known_good;		/* a node with no slow flow, -1 when none */
	/* slow flows inside one kernel with no figure measured alone yet: SCHED_BW_ALONE's work */
	struct cluster_bw_flow *retest;
	int nretest;
	struct cluster_bw_cleared *cleared;	/* inside one kernel: slow at once, fast alone */
	int ncleared;
};

/*
 * Classifies nodes and links from the measured flows. `ref_gbps` > 0 fixes what fast means
 * (e.g. the links' ceiling); 0 takes the 90th percentile of all flows. `slow_frac` 0 means
 * CLUSTER_BW_SLOW_FRAC. A flow is slow when it is under slow_frac x the reference and set apart from
 * the faster ones by a gap of 1/slow_frac or more in the sorted flows (the reference ends the
 * list): the spread of fast flows on a busy machine is not a slow host.
 */
int cluster_bw_classify(int n, const struct cluster_bw_meas *m, int nm, double ref_gbps,
		      double slow_frac, struct cluster_bw_verdict *v);

/*
 * cluster_bw_classify knowing which nodes share a kernel. host[i] (n entries, or NULL: every
 * node its own) is equal for nodes with one boot id, -1 when unknown. A flow between two nodes
 * of one host is compared only with that host's flows (ref_gbps, a link ceiling, applies to the
 * flows between hosts only); when slow, its figures in `alone` (flows measured again, few at
 * once: they set no reference) decide: any at or above the threshold clears it (contention),
 * all below confirm it; without one it stays slow and is listed in v->retest.
 */
struct cluster_bw_input {
	const struct cluster_bw_meas *m;	/* the rounds' flows */
	int nm;
	const struct cluster_bw_meas *alone;	/* SCHED_BW_ALONE's figures */
	int nalone;
	const int *host;
	double ref_gbps, slow_frac;
};

int cluster_bw_judge(int n, const struct cluster_bw_input *in, struct cluster_bw_verdict *v);
void cluster_bw_verdict_release(struct cluster_bw_verdict *v);

/*
 * Findings from a verdict: link.bw.slow_host (warn) per slow node, link.bw.slow_link (warn)
 * per slow link, link.bw.slow_pair (warn) for a slow pair whose ends could not be told apart,
 * link.bw.same_host (info) once when flows inside one kernel were slow only while sharing its
 * CPUs. names[i] names node i; ifname the interface measured (may be NULL).
 */
void cluster_bw_findings(const struct cluster_bw_verdict *v, const char *const *names,
		       const char *ifname, struct findings *fs);

/*
 * The rule: the view's bandwidth links (every flow the rounds measured) and v->bw_alone (flows
 * measured again alone), judged with nodes of one boot id as one host; its findings, by name.
 */
void xrule_bw(const struct cluster_view *v, struct findings *out);

/*
 * The pairs (a < b) of one kernel whose flow stayed slow measured alone (a shaper in a namespace,
 * a CPU-capped container): of a kernel's flows, the only ones a line rate may judge, since the
 * others' figures are CPU time. Returns how many; *pairs is allocated (free it) even when none.
 */
int cluster_bw_alone_slow(const struct cluster_view *v, struct cluster_bw_flow **pairs);

#endif
