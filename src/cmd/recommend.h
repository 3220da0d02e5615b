/*
 * What `config` and `run` share: the verdict (a saved document, or this node probed now), the
 * recommendation built from it, and the launcher-number options both take.
 */
#ifndef NCCLCHECK_CMD_RECOMMEND_H
#define NCCLCHECK_CMD_RECOMMEND_H

#include <getopt.h>

#include <jansson.h>

#include "emit/emit.h"
#include "finding.h"
#include "probe/probe.h"

struct verdict_opts {
	const char *from;		/* --from FILE: a saved node / cluster document */
	struct probe_ctx po;		/* otherwise this node is probed (with the process's environment) */
	int nodes, gpus_per_node, master_port, rdzv_port;
	const char *master_addr;	/* points into master_buf */
	char master_buf[256];
	int cloud_set;
	enum emit_cloud cloud;
	int find_unused, static_graph;
	const char *torchrun, *script, *job_name, *image;
};

struct verdict {
	json_t *facts;			/* this node's (or the first node's) facts; may be NULL */
	struct findings *fs;
	struct recommendation *rec;
	int cluster;			/* from a cluster document: its cross-node findings stand */
};

void verdict_opts_init(struct verdict_opts *o);
/*
 * Handles one of the shared options (returns 1), or says it is not one (0); a bad value prints
 * the usage error and returns -EXIT_USAGE.
 */
int verdict_option(struct verdict_opts *o, const char *verb, int c, const char *arg);
/* The options verdict_option() handles, for getopt_long tables: codes 1000 and up. */
#define VERDICT_LONGOPTS \
	{ "from", required_argument, NULL, 1000 }, \
	{ "nodes", required_argument, NULL, 1001 }, \
	{ "gpus-per-node", required_argument, NULL, 1002 }, \
	{ "master", required_argument, NULL, 1003 }, \
	{ "rdzv-port", required_argument, NULL, 1004 }, \
	{ "cloud", required_argument, NULL, 1005 }, \
	{ "find-unused-parameters", no_argument, NULL, 1006 }, \
	{ "static-graph", no_argument, NULL, 1007 }, \
	{ "launcher", required_argument, NULL, 1008 }, \
	{ "script", required_argument, NULL, 1009 }, \
	{ "job-name", required_argument, NULL, 1010 }, \
	{ "image", required_argument, NULL, 1011 }, \
	{ "no-python", no_argument, NULL, 1012 }, \
	{ "python-timeout", required_argument, NULL, 1013 }

/*
 * Gathers the verdict and builds the recommendation. Prints what went wrong and returns an
 * EXIT_* code (usage for a bad document, cannot-run otherwise), 0 on success.
 */
int verdict_gather(const struct verdict_opts *o, struct verdict *v);
void verdict_release(struct verdict *v);

/*
 * The findings as the job will run: this node's rules again on its facts with the recommended
 * environment applied (for a cluster document: its errors that no setting addresses), plus
 * `extra` (may be NULL). Caller frees.
 */
struct findings *verdict_what_if(const struct verdict *v, const struct findings *extra);

/*
 * The same from a document in memory (a cluster report): `self` is this node's facts in it
 * (NULL: the first node's), `source` says where the verdict came from.
 */
int verdict_gather_doc(const struct verdict_opts *o, struct verdict *v, const json_t *doc,
		       const json_t *self, const char *source);

/* ---- run's cluster phase (cmd/run_cluster.c) ---- */

struct run_cluster_opts {
	int no_cluster;			/* --no-cluster */
	long node_rank;			/* --node-rank, -1 */
	const char *token_file;		/* --token-file */
	long timeout_ms;		/* --timeout: how long to wait for every node to join */
	int verbose, no_color;
};

enum run_plan {
	RUN_PLAN_NODE = 0,		/* this node's checks only */
	RUN_PLAN_CLUSTER,		/* every node's, together (this process takes part) */
	RUN_PLAN_OUT,			/* another local rank of this node takes part; node checks here */
};

struct launch;
/*
 * Decides which checks run: the cluster check when the launch (run's --master / --nodes /
 * --node-rank, torchrun's own arguments in CMD, then the launcher's environment) shows more than
 * one node. Fills `l` (launch_release() it) and a line saying why in `why`. -EXIT_USAGE after a
 * usage error was printed.
 */
int run_cluster_plan(const struct verdict_opts *vo, const struct run_cluster_opts *ro,
		     char *const *cmd, struct launch *l, char *why, size_t len);
/* The job's identity on this node, for the local ranks' gate (net/run_gate.h). */
void run_gate_key(const struct verdict_opts *vo, const struct launch *l, char *key, size_t len);
/*
 * Runs the cluster check with the other nodes and makes the verdict from its report. 0, or an
 * EXIT_* code after the reason was printed (the findings when the check could not finish).
 * `launch` gets every node's launch-consistency findings from the report, each about its node:
 * the master judged them from each node's facts, so every node decides on the same ones.
 */
int run_cluster_verdict(const struct verdict_opts *vo, const struct run_cluster_opts *ro,
			const struct launch *l, struct verdict *v, struct findings *launch);

#endif
