/*
 * The cluster view: every node's model plus what was measured between them. Cross-node rules
 * (rules/cluster_*.c) read only this; they are pure, so a saved `cluster --json` (every node's
 * facts and the link results) gives the same verdict anywhere, and unit tests build views from
 * fixture facts of several nodes.
 *
 * Links are directed: `peer` reached the address res.addr that `target` has on its interface
 * `ifname`. NCCL's sockets connect without binding a source, so what decides whether node X
 * can listen on interface I is whether every peer reaches X's address on I — that is the
 * question every link answers.
 */
#ifndef NCCLCHECK_MODEL_CLUSTER_H
#define NCCLCHECK_MODEL_CLUSTER_H

#include <stddef.h>

#include <jansson.h>

#include "finding.h"
#include "model/node.h"
#include "model/link.h"

struct cluster_node {
	const char *name;		/* the node's hostname (or "rank R" when it has none) */
	int rank;			/* its node rank */
	const struct node_model *m;
	int clock_known;
	long long clock_offset_ms;	/* its clock minus the master's, RTT-corrected */
	const char *boot_id;		/* its kernel's (host.boot_id); NULL or "" when unknown */
};

/* One link test (cluster/run.c fills them): the peer (client side) reached the target's address. */
struct cluster_link {
	int target, peer;		/* ranks = indexes into nodes[] */
	char ifname[LINK_IFNAME_LEN];	/* the target's interface under test */
	enum link_kind kind;
	int ran;			/* 0: the test could not run (error says why) */
	char error[256];
	struct link_result res;
	struct link_ceiling ceil;	/* the target interface's, from its facts (bandwidth) */
};

/* One measured bandwidth flow: `from` sent, `to` received. */
struct cluster_bw_meas {
	int from, to;
	double gbps;
};

struct cluster_view {
	const struct cluster_node *nodes;
	size_t n;
	const struct cluster_link *links;
	size_t nlinks;
	/*
	 * Past --full-mesh-max only ring neighbours and sampled pairs are tested: an interface
	 * then counts as reachable from every peer when every peer that tried got through and
	 * at least both ring neighbours did.
	 */
	int sampled;
	/*
	 * Bandwidth flows measured again alone (few at once) after the rounds; the rounds' own
	 * flows are the LINK_BW links. rules/cluster_bw.c weighs both.
	 */
	const struct cluster_bw_meas *bw_alone;
	size_t nbw_alone;
};

/*
 * What the orchestration hands the cross-node rules (the `cluster` run's hook, rules/cluster.h
 * cluster_xrules): every node's validated facts and every measurement; the hook builds the
 * node models and the view from it.
 */
struct findings;
struct cluster_settled;
struct cluster_input {
	size_t n;
	const char *const *names;	/* by rank */
	/* by rank, each node's facts decoded (cluster/run.h cluster_peer_model); NULL: refused */
	const struct node_model *const *models;
	const char *const *boot_ids;	/* by rank, may be NULL: each node's host.boot_id */
	const struct cluster_link *links;
	size_t nlinks;
	int sampled;			/* more nodes than the full mesh: ring neighbours + samples */
	const struct cluster_bw_meas *bw_alone;	/* flows measured again alone */
	size_t nbw_alone;
	/*
	 * By rank, may be NULL: each node's own findings (the node_rules hook's), which the hook
	 * settles by the link tests into settled[] (rules/cluster.h cluster_settle) when the view
	 * is complete; left as they are otherwise.
	 */
	struct findings *const *node_findings;
	struct cluster_settled *settled;
};

/* Whether NCCL on this node, as configured, uses `ifname` (bootstrap or NET/Socket). */
int cluster_nccl_uses(const struct node_model *m, const char *ifname);

/*
 * Whether `peer` reached `target`'s address on `ifname`: CLUSTER_REACHED (the connect test),
 * CLUSTER_REACHED_LATER (the connect test failed, the port scan over the same path then found
 * its ports open: link_connect_contradicted), CLUSTER_NOT_REACHED, or CLUSTER_UNTESTED.
 */
enum cluster_reach { CLUSTER_UNTESTED = -1, CLUSTER_NOT_REACHED, CLUSTER_REACHED,
		     CLUSTER_REACHED_LATER };
enum cluster_reach cluster_path_reach(const struct cluster_view *v, size_t peer, size_t target,
				      const char *ifname);

/*
 * Whether every peer reached `node`'s address on `ifname` (cluster_path_reach): 1 yes, 0 no (a
 * peer failed), -1 not measured (no connect test for it).
 */
int cluster_if_reachable(const struct cluster_view *v, size_t node, const char *ifname);

/* The `kind` test that ran from `peer` to `target`'s interface `ifname`, or NULL. */
const struct cluster_link *cluster_link_of(const struct cluster_view *v, enum link_kind kind,
					   size_t peer, size_t target, const char *ifname);
/* Its result, or NULL. */
const struct link_result *cluster_link_find(const struct cluster_view *v, enum link_kind kind,
					    size_t peer, size_t target, const char *ifname);

/*
 * The verdict: per node, the interface NCCL should use (every peer reaches it), and one
 * NCCL_SOCKET_IFNAME value that makes NCCL pick exactly those on every node — the common name,
 * else a list of the names — proven with each node's model. per_node[] is set when no single
 * value works (each node then gets its own). ok 0: some node has no interface every peer reaches.
 */
#define CLUSTER_VALUE_MAX 256
struct cluster_verdict {
	int ok;
	int measured;			/* there were connect tests to judge by */
	const char **ifname;		/* per node: the chosen interface, NULL when none works */
	char value[CLUSTER_VALUE_MAX];	/* the one NCCL_SOCKET_IFNAME for all, "" when per-node */
	char (*per_node)[CLUSTER_VALUE_MAX];	/* per node: its own value when value is "" */
	int already;			/* every node already picks a working interface as configured */
};

void cluster_verdict_compute(const struct cluster_view *v, struct cluster_verdict *out);
void cluster_verdict_release(struct cluster_verdict *out);


/*
 * What the link tests made of one node's own guesses (rules/cluster_settle.c): `ncclcheck node`
 * can only suspect a container bridge, a jumbo MTU, a public bootstrap address or a firewall;
 * the cluster measured the paths. Each finding whose id is in the settle table gets a verdict.
 */
enum cluster_settle {
	CLUSTER_UNSETTLED = 0,	/* no measurement speaks to it: kept as it was */
	CLUSTER_CONFIRMED,	/* the link tests show the problem: kept, confidence high */
	CLUSTER_WITHDRAWN,	/* the link tests disprove it: taken out of the node's findings */
};

#define CLUSTER_SETTLE_EVIDENCE 384

struct cluster_settle_entry {
	const struct finding *f;	/* in the node's findings, or in `withdrawn` */
	enum cluster_settle verdict;
	char evidence[CLUSTER_SETTLE_EVIDENCE];	/* the link test that settled it, or why none did */
	const struct cluster_link *by;	/* confirmed: the failed link test (in the view), or NULL */
};

struct cluster_settled {
	struct findings *withdrawn;	/* owned: the findings the measurement disproved */
	struct cluster_settle_entry *v;	/* one per settleable finding, in the node's order */
	size_t n, alloc;
	size_t nconfirmed, nwithdrawn, nunsettled;
	int done;			/* cluster_settle ran (the link tests finished) */
};

void cluster_settled_init(struct cluster_settled *s);
void cluster_settled_release(struct cluster_settled *s);
const char *cluster_settle_name(enum cluster_settle v);	/* "unsettled", "confirmed", "withdrawn" */

#endif
