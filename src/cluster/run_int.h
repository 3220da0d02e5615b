/*
 * cluster/run_int.h: what the cluster run's files share (run.c drives the run's phases;
 * report.c checks a node's facts and builds the report document; scan.c the scan phase).
 * Internal to src/cluster; not a public interface.
 */
#ifndef NCCLCHECK_NET_CLUSTER_RUN_INT_H
#define NCCLCHECK_NET_CLUSTER_RUN_INT_H

#include <pthread.h>
#include <stdint.h>

#include <jansson.h>

#include "cluster/run.h"
#include "link/agent.h"
#include "cluster/sched.h"

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
	struct node_model *m;	/* its facts decoded (cluster_peer_model); NULL when refused */
	struct caddr *addrs;
	size_t naddrs;
	int range_lo, range_hi;
	char boot_id[64];	/* its kernel's (host.boot_id), "" when unknown */
	long long pus;		/* CPUs (topology.cpus.pus), 0 when unknown */
	long long nofile;	/* descriptor limit (limits.nofile.hard): -1 unlimited, 0 unknown */
};

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
	/* the master's: each node's own findings (node_rules) and how the link tests settled them */
	struct findings **node_fs;
	struct cluster_settled *settled;
	/* bandwidth flows measured again alone (the rounds' flows are run->links): measurements
	 * the judgement of slow hosts and links weighs (rules/cluster_bw.h) */
	struct cluster_bw_meas *bw_alone;
	int nbw_alone;
	/* this node's MASTER_ADDR as it resolved here when it is one of its own addresses: on
	 * rank 0, the address the workers can be told to use ("" when not known) */
	char master_ip[64];
	/* the report's link tests, moved out of links by cluster_report_doc (run.h) */
	struct cluster_links *report_links;
	/* who maps each node's whole range, and in which round (cluster_plan_scanners); NULL
	 * before the scan phase: the ring successor */
	int *scanner, *scan_round;
	int scan_rounds;
};

/* cluster_run.c: one test's request from `peer` to the target's address, and running it */
void cluster_build_req(struct run *run, enum link_kind kind, int target, int peer,
		       const struct caddr *a, struct link_req *req);
void cluster_run_req(struct run *run, int target, int peer, const struct link_req *req,
		     struct cluster_link *l);
/* Did the connect test from `peer` to `addr` of `target` connect? What it measured into *out
 * (may be NULL), copied under the lock: other threads append to run->links. */
int cluster_connected(struct run *run, int target, int peer, const char *addr,
		      struct link_connect_result *out);
/* cluster_scan.c: targets scanned at once; the second look at scans that saw drops */
int cluster_scan_concurrency(const struct run *run);
/* A test's ports and timeouts on its link: the connect test tries ports spread over the
 * target's range and probes loss; the others derive their timeouts from its round trip and
 * loss (link_timeouts_derive) and MTU/bandwidth listen on the port it found open. */
void cluster_req_timing(struct run *run, int target, int peer, struct link_req *req);
void cluster_verify_scans(struct run *run);
/* Who maps each node's whole range and when (sched_full_scans over what the connect tests
 * measured: a lossy or long link's scan costs more), into run->scanner / scan_round. */
void cluster_plan_scanners(struct run *run);
/* The node that maps `target`'s whole range. */
int cluster_full_scanner(const struct run *run, int target);

/* Fills n from a peer's facts and their model (which n then owns). */
void cluster_node_fill(struct cnode *n, json_t *facts, struct node_model *m,
		       const char *fallback_name);
/* The rendezvous's events, judged by rules/cluster_rdv.c into fs. */
void cluster_events_findings(struct rdv *r, const struct rdv_opts *ro, const char *master_ip,
			     struct findings *fs);
/* Runs node_rules on every node's facts into run->node_fs (the hook then settles them). */
void cluster_node_checks(struct run *run);
void cluster_node_checks_free(struct run *run);
/* The node findings the link tests confirmed as errors: they count toward the exit code. */
size_t cluster_node_errors(const struct run *run);
json_t *cluster_report_doc(struct run *run, struct findings *fs, int code);
json_t *cluster_local_report(struct run *run, const struct err *why, int *code);

#endif
