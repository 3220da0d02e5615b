/*
 * The run of `ncclcheck cluster` on one node: rendezvous (net/rdv.h), this node's facts, the
 * exchange of facts (each peer's validated before use), the link-test phases driven by the master
 * over every pair in rounds of disjoint pairs (net/link_test.h's pair driver over the cluster's
 * protocol), the cross-node rules (a hook), and the report the master builds and every node
 * prints. Nothing here prints: progress goes through a callback, the result is a JSON document.
 *
 * Report document (render_json_doc("cluster", ...)):
 *   { ..., verb: "cluster", nodes: [{rank, name, addr, facts, findings, settled}],
 *     links: [{target, peer, target_name, peer_name, ifname, phase, ok, error, result}], rounds,
 *     timings_ms,
 *     findings: [...], summary, exit_code }
 * nodes[].findings are the node's own (as `ncclcheck node` sees it) after the link tests settled
 * them; settled[] is {id, verdict: confirmed|withdrawn|unsettled, severity, title, evidence} per
 * settleable finding, with the whole finding for a withdrawn one (rules/cluster.h); the kept
 * ones carry "settled": "confirmed" or "unsettled" in findings[] too.
 */
#ifndef NCCLCHECK_NET_CLUSTER_RUN_H
#define NCCLCHECK_NET_CLUSTER_RUN_H

#include <stddef.h>

#include <jansson.h>

#include "finding.h"
#include "link/link.h"
#include "model/cluster.h"
#include "rdv/rdv.h"
#include "util/err.h"
#include "util/json.h"

/* struct cluster_link (one link test's record) and struct cluster_input (what the cross-node
 * rules see) are model/cluster.h's: the rules read them. */

/* The cross-node rules (rules/cluster.h cluster_xrules; pure: no I/O). */
typedef void (*cluster_rules_fn)(const struct cluster_input *in, struct findings *fs);

/* Per-node rules on one node's model (rules/rules.h rules_run_node). */
typedef void (*cluster_node_rules_fn)(const struct node_model *m, struct findings *fs);

struct cluster_opts {
	struct rdv_opts rdv;
	/* This node's facts; called while the join runs (new reference, never NULL). */
	json_t *(*probe)(void *arg);
	void *probe_arg;
	int full_mesh_max;		/* all pairs up to this many nodes (default 32); ring and
					 * sampled matchings beyond (net/sched.h) */
	int connect;			/* phase: TCP connect + latency to every address (default 1) */
	int mtu;			/* phase: path MTU with DF where connect worked (default 1) */
	int ports;			/* phase: the target's ip_local_port_range (default 1): the
					 * ring successor scans all of it, other peers sample it */
	int sampled_ports;		/* ports a sampling peer tries (default 64) */
	int bw;				/* phase: bandwidth in constant rounds (default 1) */
	long facts_timeout_ms;		/* how long the master waits for every node's facts (60 s) */
	long bw_ms;			/* per flow (default 500) */
	int pings;			/* round trips per connect test (default 20) */
	cluster_rules_fn xrules;	/* NULL: none yet */
	cluster_node_rules_fn node_rules;	/* NULL: none */
	/*
	 * On the master only, once, after the link tests and the cross-node rules: findings from a
	 * source outside the nodes (cmd/cluster.c's --with-ras asks NCCL's RAS), judged with the
	 * rest for the exit code. It must bound its own time: the workers wait for the report.
	 */
	void (*master_findings)(void *arg, struct findings *fs);
	void *master_findings_arg;
	/* Progress: a phase name and pairs done of total (master), or a state line (worker). */
	void (*progress)(void *arg, const char *phase, int done, int total);
	void *progress_arg;
	/*
	 * While the nodes join: where the join stands (rdv_join_status), about every quarter of a
	 * second until it is over; progress_arg is its argument. NULL: silent.
	 */
	void (*waiting)(void *arg, const struct rdv_join_status *st, int master);
	/*
	 * NULL: the report comes back holding its links. Else the master's report keeps "links" as
	 * an empty placeholder and its link tests come back in *links (NULL on a worker, whose
	 * report came whole over the wire), for the caller to write (struct cluster_links).
	 */
	struct cluster_links **links;
};

void cluster_opts_init(struct cluster_opts *o);

/*
 * The master's link tests kept as measured until a writer needs them: the report's "links" is
 * the placeholder sp.at, and sp makes each element in turn (util/json.h). As one jansson tree
 * they were most of rank 0's memory: ten times their JSON text, 102 MB at 32 nodes (issue #23).
 * jdump_splice writes them one at a time; jsplice_materialize puts them in the document for
 * the writers that read a tree (HTML, the verbose text).
 */
struct cluster_links {
	struct jsplice sp;
	struct cluster_link *v;
	size_t n;
	char (*names)[256];	/* each rank's name */
	int nnodes;
};
void cluster_links_free(struct cluster_links *l);

/*
 * Runs the whole cluster check on this node. Returns the exit code (0, 1, 3) and the report in
 * *report (new reference, never NULL once the rendezvous was tried): the master's report when
 * the run completed, else this node's own account of why it could not (with its findings).
 * -1 with `e` set only when nothing could start (the port is taken, bad options): exit 3 then.
 */
int cluster_run(const struct cluster_opts *o, json_t **report, struct err *e);

/*
 * The exit code of a finished run from its cluster findings and the count of nodes' confirmed
 * errors: 1 when an error stands other than cluster.link.untested (a real error wins: what the
 * untested pair would show cannot clear it), else 3 when a link test could not run its probes
 * (no verdict on that pair: the check could not run), else 0. Folded findings do not count.
 */
int cluster_exit_code(const struct findings *fs, size_t node_errors);

/*
 * A peer's facts document decoded once into its model (model/node.h; strings point into
 * `facts`, which must outlive it), with what the link tests need beyond the model's own reading:
 * this schema_version, a net section, interface names that fit, and numeric addresses with their
 * family. NULL with the reason in `e` (ERR_PEER).
 */
struct node_model *cluster_peer_model(const json_t *facts, struct err *e);

/*
 * From a cluster report: every node's own findings (nodes[].findings, what the master's node
 * rules said about that node's facts) whose id `want` accepts, each made about its node
 * (finding_node: its name, finding_rank: its rank) and appended to `out` in nodes[] order. Strict:
 * a nodes[] entry without an integer rank and a name, or findings that do not decode, make it
 * return -1 with the node named in `e`, and nothing is added. A node without findings (its facts
 * were refused: the report's own findings say so) adds nothing.
 */
int cluster_report_node_findings(const json_t *report, int (*want)(const char *id),
				 struct findings *out, struct err *e);

/* The report as text: report/cluster_text.h. */

#endif
