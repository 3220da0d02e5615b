/*
 * net/sched: which node pairs test their links in which round, and who is slow. Pure: no I/O,
 * no clock, no global state; randomness only from the caller's seed.
 *
 * Link tests (connect, ports, MTU) run in rounds of disjoint pairs, so a node is in at most one
 * pair at a time and every round takes the time of one pair test:
 *   - N <= full_mesh_max (default 32): every pair, by the circle method (N-1 rounds for even N,
 *     N for odd N, where each round gives one node a bye);
 *   - beyond it: ring neighbours (i, i+1) in 2 rounds (3 for odd N) plus `samples` random
 *     perfect matchings, so the number of rounds stays flat in N.
 * Node i's whole ephemeral range is scanned by its ring successor (i+1) mod N; every other peer
 * scans sampled ports (sched_full_scanner).
 *
 * Bandwidth runs in a constant number of rounds (frontier-2026 §3(d)): every node sends to its
 * ring successor (all flows at once), then to its predecessor; then two shifted pairings (the
 * circle rounds with the fewest ring edges, both directions at once) give every node a third and
 * fourth peer; then suspects are re-tested against a known-good node. sched_bw_classify tells a
 * slow host (slow with every peer) from a slow link (slow with one peer, fine with others).
 *
 * Nodes that share one kernel (one boot id: namespaces of a lab, containers of one machine) move
 * bytes with that kernel's CPUs, no NIC or cable in between: their flows are judged among
 * themselves, never against flows between machines, and slow ones are measured again with few
 * flows at once (SCHED_BW_ALONE). Only what stays slow then (a shaper, a CPU-capped container) is
 * a slow host or link; slowness that goes away was the host's CPUs shared by every flow at once.
 */
#ifndef NCCLCHECK_SCHED_H
#define NCCLCHECK_SCHED_H

#include <stdint.h>

#include "finding.h"

#define SCHED_FULL_MESH_MAX 32
#define SCHED_SAMPLES_DEFAULT 2
#define SCHED_NODES_MAX 65536
#define SCHED_SLOW_FRAC 0.6	/* slower than this share of the reference: slow */

struct sched_pair {
	int a, b;		/* a < b */
};

struct sched_round {
	struct sched_pair *pairs;
	int npairs;
};

struct sched_plan {
	struct sched_round *rounds;
	int nrounds;
	int full_mesh;		/* 1: every pair is in some round */
};

struct sched_opts {
	int full_mesh_max;	/* 0 = SCHED_FULL_MESH_MAX */
	int samples;		/* extra random matchings beyond the mesh limit; -1 = default */
	uint64_t seed;
};

/* The link-test rounds for n nodes (1 <= n <= SCHED_NODES_MAX); -1 when n is out of range. */
int sched_pairs(int n, const struct sched_opts *o, struct sched_plan *p);
void sched_plan_release(struct sched_plan *p);

/* The node that scans node i's whole port range: its ring successor. */
int sched_full_scanner(int n, int i);

/* ---- bandwidth ------------------------------------------------------------------------- */

enum sched_bw_phase {
	SCHED_BW_RING_NEXT = 0,	/* i -> i+1, all at once */
	SCHED_BW_RING_PREV,	/* i -> i-1 */
	SCHED_BW_SHIFT,		/* pairs of a circle round, both directions */
	SCHED_BW_SUSPECT,	/* suspect <-> known-good node, both directions */
	SCHED_BW_ALONE,		/* a slow flow inside one kernel again, its CPUs unshared */
};

struct sched_flow {
	int from, to;
};

struct sched_bw_round {
	enum sched_bw_phase phase;
	struct sched_flow *flows;
	int nflows;
};

struct sched_bw_plan {
	struct sched_bw_round *rounds;
	int nrounds;
};

/* Rounds 1-4 (2 for n = 2, none for n = 1). */
int sched_bw_plan(int n, struct sched_bw_plan *p);
void sched_bw_plan_release(struct sched_bw_plan *p);

/* One measured flow. */
struct sched_meas {
	int from, to;
	double gbps;
};

enum sched_node_verdict {
	SCHED_NODE_UNMEASURED = 0,
	SCHED_NODE_OK,		/* some measurement at full speed */
	SCHED_NODE_SLOW,	/* slow with two or more different peers: the host */
	SCHED_NODE_SUSPECT,	/* slow, but with one peer only: host or link, not yet known */
};

enum sched_link_verdict {
	SCHED_LINK_OK = 0,
	SCHED_LINK_SLOW,	/* slow while both ends are fast with others: the link */
	SCHED_LINK_HOST,	/* slow because an end is a slow host */
	SCHED_LINK_UNKNOWN,	/* slow, ends not told apart (e.g. two nodes only) */
};

struct sched_link {
	int a, b;		/* a < b */
	enum sched_link_verdict v;
	double min_gbps;	/* the slowest flow measured on it (either direction) */
	int same_host;		/* both ends on one kernel: judged among its flows */
	double ref_gbps, slow_gbps;	/* what fast and slow mean for flows like this one */
	double alone_gbps;	/* its slowest flow measured again alone; -1 when it was not */
};

/* A flow inside one kernel that was slow among all flows at once and fast measured alone. */
struct sched_cleared {
	int from, to;
	double busy_gbps, alone_gbps, slow_gbps;
};

struct sched_verdict {
	int n;
	double ref_gbps;	/* what "fast" means here */
	double slow_gbps;	/* below this: slow */
	enum sched_node_verdict *node;	/* n entries */
	int *slow_send, *slow_recv;	/* per node: 1 when every flow out / in is slow */
	struct sched_link *links;
	int nlinks;
	int known_good;		/* a node with no slow flow, -1 when none */
	/* slow flows inside one kernel with no figure measured alone yet: SCHED_BW_ALONE's work */
	struct sched_flow *retest;
	int nretest;
	struct sched_cleared *cleared;	/* inside one kernel: slow at once, fast alone */
	int ncleared;
};

/*
 * Classifies nodes and links from the measured flows. `ref_gbps` > 0 fixes what fast means
 * (e.g. the links' ceiling); 0 takes the 90th percentile of all flows. `slow_frac` 0 means
 * SCHED_SLOW_FRAC. A flow is slow when it is under slow_frac x the reference and set apart from
 * the faster ones by a gap of 1/slow_frac or more in the sorted flows (the reference ends the
 * list): the spread of fast flows on a busy machine is not a slow host.
 */
int sched_bw_classify(int n, const struct sched_meas *m, int nm, double ref_gbps,
		      double slow_frac, struct sched_verdict *v);

/*
 * sched_bw_classify knowing which nodes share a kernel. host[i] (n entries, or NULL: every
 * node its own) is equal for nodes with one boot id, -1 when unknown. A flow between two nodes
 * of one host is compared only with that host's flows (ref_gbps, a link ceiling, applies to the
 * flows between hosts only); when slow, its figures in `alone` (flows measured again, few at
 * once: they set no reference) decide: any at or above the threshold clears it (contention),
 * all below confirm it; without one it stays slow and is listed in v->retest.
 */
struct sched_bw_input {
	const struct sched_meas *m;	/* the rounds' flows */
	int nm;
	const struct sched_meas *alone;	/* SCHED_BW_ALONE's figures */
	int nalone;
	const int *host;
	double ref_gbps, slow_frac;
};

int sched_bw_judge(int n, const struct sched_bw_input *in, struct sched_verdict *v);
void sched_verdict_release(struct sched_verdict *v);

/*
 * The suspects round: every SUSPECT node (an UNKNOWN link has one at an end), paired with a
 * distinct known-good node (both directions). Suspects beyond the good nodes wait for a later
 * call. Returns the number of flows (0: nothing to re-test, or no good node to test against).
 */
int sched_bw_suspects(const struct sched_verdict *v, struct sched_bw_round *r);

/*
 * v->retest in rounds for SCHED_BW_ALONE: at most `cap` flows each (>= 1), no node in two flows
 * of a round. Returns the number of rounds (*out: that many, each flows[] its own allocation).
 */
int sched_bw_alone_rounds(const struct sched_verdict *v, int cap, struct sched_bw_round **out);

/*
 * Findings from a verdict: link.bw.slow_host (warn) per slow node, link.bw.slow_link (warn)
 * per slow link, link.bw.slow_pair (warn) for a slow pair whose ends could not be told apart,
 * link.bw.same_host (info) once when flows inside one kernel were slow only while sharing its
 * CPUs. names[i] names node i; ifname the interface measured (may be NULL).
 */
void sched_bw_findings(const struct sched_verdict *v, const char *const *names,
		       const char *ifname, struct findings *fs);

#endif
