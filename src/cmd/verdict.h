/*
 * The verdict `config` and `run` share: where it comes from (a saved document, or this node
 * probed now), the recommendation built from it, and the job options both verbs take (the
 * launch ones of cmd.h plus the job's shape). Implemented in cmd/config.c; run's cluster phase
 * in cmd/run_cluster.c.
 */
#ifndef NCCLCHECK_CMD_VERDICT_H
#define NCCLCHECK_CMD_VERDICT_H

#include <jansson.h>

#include "cmd/cmd.h"
#include "emit/emit.h"
#include "finding.h"
#include "probe/probe.h"

struct verdict_opts {
	const char *from;		/* --from FILE: a saved node / cluster document */
	struct probe_ctx po;		/* otherwise this node is probed (with the process's environment) */
	struct cli_launch launch;	/* --master, --nodes, --node-rank, --nproc-per-node */
	int nodes, gpus_per_node, master_port, rdzv_port;	/* 0: not given */
	const char *master_addr;	/* points into launch.master_addr, or NULL */
	int cloud_set;
	enum emit_cloud cloud;
	int find_unused, static_graph;
	const char *torchrun, *script, *job_name, *image;
};

struct node_model;

struct verdict {
	json_t *facts;			/* this node's (or the first node's) facts; may be NULL */
	struct node_model *model;	/* those facts decoded (NULL: none, or they do not decode) */
	struct findings *fs;
	struct recommendation *rec;
	int cluster;			/* from a cluster document: its cross-node findings stand */
};

void verdict_opts_init(struct verdict_opts *o);

/* The job options' ids (above cmd.h's launch ones) and rows, for config's and run's tables. */
enum verdict_opt_id {
	OPT_VERDICT_FROM = 300, OPT_VERDICT_RDZV_PORT, OPT_VERDICT_CLOUD,
	OPT_VERDICT_FIND_UNUSED, OPT_VERDICT_STATIC_GRAPH, OPT_VERDICT_LAUNCHER, OPT_VERDICT_SCRIPT,
	OPT_VERDICT_JOB_NAME, OPT_VERDICT_IMAGE, OPT_VERDICT_NO_PYTHON, OPT_VERDICT_PYTHON_TIMEOUT,
};
#define VERDICT_ROW_FROM { .name = "from", .arg = "FILE", .id = OPT_VERDICT_FROM, \
	.help = N_("a saved 'ncclcheck cluster --json' or 'node --json' document (or bare\n" \
		   "facts) instead of checking this node now, as 'ncclcheck node' does") }
#define VERDICT_ROW_NO_PYTHON { .name = "no-python", .id = OPT_VERDICT_NO_PYTHON, \
	.help = N_("skip the Python probe when checking this node (importing torch takes\n" \
		   "seconds)") }
#define VERDICT_ROW_PYTHON_TIMEOUT { .name = "python-timeout", .arg = "SEC", \
	.id = OPT_VERDICT_PYTHON_TIMEOUT, \
	.help = N_("give up on an interpreter after SEC seconds (default 20)") }
/* The job's shape: the launch rows of cmd.h and the rest of what the emitted lines need. */
#define VERDICT_ROWS_JOB \
	CLI_ROW_NODES, \
	{ .name = "nproc-per-node", .arg = "N", .id = OPT_LAUNCH_NPROC, \
	  .help = N_("processes per node = Lightning devices = torchrun's --nproc-per-node\n" \
		     "(default: the GPUs seen)") }, \
	{ .name = "gpus-per-node", .arg = "N", .id = OPT_LAUNCH_NPROC, .flags = CLI_OPT_ALIAS }, \
	CLI_ROW_MASTER, \
	{ .name = "rdzv-port", .arg = "PORT", .id = OPT_VERDICT_RDZV_PORT, \
	  .help = N_("the c10d rendezvous port (default 29400)") }, \
	{ .name = "cloud", .arg = "NAME", .id = OPT_VERDICT_CLOUD, \
	  .help = N_("add a cloud's documented settings: autodl, aws, aliyun, azure, gcp,\n" \
		     "oci or generic (default: the detected cloud)") }, \
	{ .name = "launcher", .arg = "CMD", .id = OPT_VERDICT_LAUNCHER, \
	  .help = N_("the torchrun command (default: torchrun)") }, \
	{ .name = "script", .arg = "CMD", .id = OPT_VERDICT_SCRIPT, \
	  .help = N_("the training script and its arguments (default: train.py)") }, \
	{ .name = "job-name", .arg = "NAME", .id = OPT_VERDICT_JOB_NAME, \
	  .help = N_("sbatch / Kubernetes job name (default: train)") }, \
	{ .name = "image", .arg = "IMAGE", .id = OPT_VERDICT_IMAGE, \
	  .help = N_("container image for --k8s (default: a placeholder to fill in)") }, \
	{ .name = "find-unused-parameters", .id = OPT_VERDICT_FIND_UNUSED, \
	  .help = N_("the model has parameters without a gradient in some steps") }, \
	{ .name = "static-graph", .id = OPT_VERDICT_STATIC_GRAPH, \
	  .help = N_("the model's graph is the same every step (DDP static_graph)") }

/*
 * Takes option `id` when it is one of the rows above or a launch row (1), else 0; CLI_STOP after
 * a usage error (c->code holds the exit code).
 */
int verdict_option(struct verdict_opts *o, struct cli *c, int id);

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
	const struct cli *cli;		/* run's command line: -v, --no-color for the report */
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
