/*
 * cluster/sched: which node pairs test their links in which round, and which flows to measure
 * again. Pure: no I/O, no clock, no global state; randomness only from the caller's seed. Who is
 * slow is a judgement, rules/cluster_bw.h's: the scheduler asks cluster_bw_judge (a pure function
 * of the flows measured so far) which flows are suspect, and re-tests those; the findings come
 * from the same judgement run by xrule_bw on the cluster view.
 *
 * Link tests (connect, ports, MTU) run in rounds of disjoint pairs, so a node is in at most one
 * pair at a time and every round takes the time of one pair test:
 *   - N <= full_mesh_max (default 32): every pair, by the circle method (N-1 rounds for even N,
 *     N for odd N, where each round gives one node a bye);
 *   - beyond it: ring neighbours (i, i+1) in 2 rounds (3 for odd N) plus `samples` random
 *     perfect matchings, so the number of rounds stays flat in N.
 * Node i's whole ephemeral range is scanned by its ring successor (i+1) mod N unless, up to
 * SCHED_SCANNER_SEARCH_MAX nodes, another peer costs less over what the connect tests measured
 * (sched_full_scans); every other peer scans sampled ports.
 *
 * Bandwidth runs in a constant number of rounds (frontier-2026 §3(d)): every node sends to its
 * ring successor (all flows at once), then to its predecessor; then two shifted pairings (the
 * circle rounds with the fewest ring edges, both directions at once) give every node a third and
 * fourth peer; then suspects are re-tested against a known-good node (rules/cluster_bw.h tells a
 * slow host, slow with every peer, from a slow link, slow with one peer and fine with others).
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

#include "rules/cluster_bw.h"

#define SCHED_FULL_MESH_MAX 32
#define SCHED_SAMPLES_DEFAULT 2
#define SCHED_NODES_MAX 65536

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

/* The node that scans node i's whole port range by default: its ring successor. */
int sched_full_scanner(int n, int i);

#define SCHED_SCANNER_SEARCH_MAX 6	/* up to this many nodes, every assignment is weighed */

/*
 * Who maps each target's whole range, and in which round: `cost[s * n + t]` is what a full scan
 * of t from s costs (1 on a clean link; more where the connect test measured loss or a long
 * round trip: every batch then waits out its timeout). Fills scanner[t] and round[t] and returns
 * the number of rounds. In a round no node is both a target and a scanner (its own connects
 * would take ports it listens on) and a node scans one target. A schedule costs the sum over its
 * rounds of the round's dearest scan; for n <= SCHED_SCANNER_SEARCH_MAX every assignment is
 * weighed and the ring successor's kept unless another costs less (a lossy node then maps no
 * innocent one's range, and its own scan shares a round); beyond, or with cost NULL, t + 1 scans
 * t. Pure.
 */
int sched_full_scans(int n, const int *cost, int *scanner, int *round);

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

/*
 * The suspects round: every SUSPECT node (an UNKNOWN link has one at an end), paired with a
 * distinct known-good node (both directions). Suspects beyond the good nodes wait for a later
 * call. Returns the number of flows (0: nothing to re-test, or no good node to test against).
 */
int sched_bw_suspects(const struct cluster_bw_verdict *v, struct sched_bw_round *r);

/*
 * v->retest in rounds for SCHED_BW_ALONE: at most `cap` flows each (>= 1), no node in two flows
 * of a round. Returns the number of rounds (*out: that many, each flows[] its own allocation).
 */
int sched_bw_alone_rounds(const struct cluster_bw_verdict *v, int cap, struct sched_bw_round **out);

#endif
