/*
 * Cross-node rules: pure functions of the cluster view (model/cluster.h) — what no single node
 * can tell: versions and settings that differ between nodes, names and addresses that collide,
 * and what the link tests measured between every pair, ending in the interface verdict.
 */
#ifndef NCCLCHECK_RULES_CLUSTER_H
#define NCCLCHECK_RULES_CLUSTER_H

#include "finding.h"
#include "model/cluster.h"

/*
 * The hook `cluster` runs (cluster/run.h): every cross-node rule on every node's model plus
 * the link results (rules_run_facts() is its per-node hook). The rules on measurements alone
 * (bandwidth, each link test) run first and whatever the models; the rules on models run when
 * every node's facts made a model.
 */
void cluster_xrules(const struct cluster_input *in, struct findings *out);

/* Every cross-node rule, in report order. */
void cluster_rules_run(const struct cluster_view *v, struct findings *out);

/* cluster_consistency.c: versions, NCCL_* settings, IB, hostnames, duplicate addresses, MTU, GPUs, clocks */
void xrule_versions(const struct cluster_view *v, struct findings *out);
void xrule_settings(const struct cluster_view *v, struct findings *out);
void xrule_hosts(const struct cluster_view *v, struct findings *out);
/* cluster_links.c: reachability, the port-range map, path MTU; and the verdict */
void xrule_links(const struct cluster_view *v, struct findings *out);
/* rules/link_noise.c: link.latency, link.loss, cluster.link.untested */
void xrule_link_noise(const struct cluster_view *v, struct findings *out);
/*
 * link.loss's judgement, pure: over n nodes, probes[a * n + b] and retrans[a * n + b] (a < b)
 * the completed and the retransmitted handshakes of each pair (probes <= 0: no figure). The
 * node the loss is at (>= 0); LOSS_UNSURE when packets are lost but no one node stands out
 * (suspect[x] = 1 for each node whose links the lost handshakes fit, maybe none: spread over
 * every link); LOSS_NONE when there is no loss to speak of.
 */
enum { LOSS_NONE = -2, LOSS_UNSURE = -1 };
int link_loss_judge(size_t n, const int *probes, const int *retrans, unsigned char *suspect);
void xrule_verdict(const struct cluster_view *v, struct findings *out);
/*
 * cluster_links.c: each link test on its own — one that could not run (cluster.link.failed), and
 * each bandwidth figure against its link's ceiling (link.bw.ok / low / stalled)
 */
void xrule_link_results(const struct cluster_view *v, struct findings *out);
/* cluster_bw.c: slow hosts and slow links from every bandwidth flow (rules/cluster_bw.h) */
void xrule_bw(const struct cluster_view *v, struct findings *out);
/* cluster_neigh.c: the host's neighbour table against the on-link peers each node needs */
void xrule_neigh(const struct cluster_view *v, struct findings *out);

/*
 * cluster_settle.c: settles node `node`'s own findings `fs` (what rules_run_node said about it)
 * by the link tests: a finding whose id is in the settle table is confirmed (kept, confidence
 * high, severity raised to error when the measured failure is on an interface NCCL uses, the
 * link test as its last evidence line), withdrawn (moved from fs to out->withdrawn) or left
 * unsettled; each gets an entry in `out` (cluster_settled_init'ed by the caller). Other
 * findings are left untouched.
 */
void cluster_settle(const struct cluster_view *v, size_t node, struct findings *fs,
		    struct cluster_settled *out);
/*
 * cluster_fold.c: cause, then consequences. Groups the port-range findings that share their
 * closed ports into one root (link.ports.range), then folds every finding in `out` and every
 * node's confirmed guess (node_fs[i] with settled[i]; both may be NULL) that a root explains
 * under it (finding.caused_by), by the fold table there. Runs after every rule and the settling.
 */
void cluster_fold(const struct cluster_view *v, struct findings *out,
		  struct findings *const *node_fs, struct cluster_settled *settled);

/* Whether the link tests can settle findings with this id. */
int cluster_settleable(const char *id);

/* Clock offsets above this are worth a warning (logs of different nodes no longer line up). */
#define CLUSTER_CLOCK_SKEW_MS 2000

#endif
