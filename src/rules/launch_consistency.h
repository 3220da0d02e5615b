/*
 * Launcher consistency: do the launcher's numbers (Slurm's --nodes / --ntasks-per-node,
 * torchrun's, Open MPI's), the GPUs each task sees and the Trainer's devices / num_nodes
 * describe the same job? A pure rule over a small typed struct, filled from the job's
 * environment (an envmap), a facts document's "env", or the text of a batch script / Trainer call.
 * Finding ids start with "launch.".
 */
#ifndef NCCLCHECK_RULES_LAUNCH_CONSISTENCY_H
#define NCCLCHECK_RULES_LAUNCH_CONSISTENCY_H

#include <jansson.h>

#include "finding.h"

struct envmap;

/* 0 (or -1 where 0 is a value) means "not known". */
struct launch_facts {
	/* Slurm, from the environment of a batch script or a task */
	int slurm_job;			/* SLURM_JOB_ID is set: inside an allocation */
	int slurm_step;			/* SLURM_STEP_ID / SLURM_PROCID: inside an srun task */
	int slurm_nodes;		/* SLURM_JOB_NUM_NODES (SLURM_NNODES) */
	int slurm_ntasks;		/* SLURM_NTASKS */
	int slurm_ntasks_per_node;	/* SLURM_NTASKS_PER_NODE: set only with --ntasks-per-node */
	int slurm_tasks_here;		/* this node's count in SLURM_TASKS_PER_NODE ("2(x3),1") */
	int slurm_nodeid;		/* SLURM_NODEID, -1 */
	/* torchrun / manual / MPI */
	int torchrun;			/* TORCHELASTIC_RUN_ID is set */
	int world_size;			/* WORLD_SIZE / OMPI_COMM_WORLD_SIZE / PMI_SIZE */
	int local_world_size;		/* LOCAL_WORLD_SIZE / OMPI_COMM_WORLD_LOCAL_SIZE */
	int nnodes;			/* NNODES / PET_NNODES */
	int node_rank;			/* NODE_RANK / GROUP_RANK, -1 */
	/* GPUs */
	int gpus_on_node;		/* GPUs the node has (facts) */
	int gpus_visible;		/* entries in CUDA_VISIBLE_DEVICES; -1 unset (all of them) */
	/* the user's Trainer(...) and batch script, when scanned */
	int lightning_devices;
	int lightning_num_nodes;
	int script_nodes;		/* #SBATCH --nodes / -N */
	int script_ntasks_per_node;	/* #SBATCH --ntasks-per-node */
	int script_python_no_srun;	/* line number of a python/torchrun started without srun */
	int script_srun_no_tpn;		/* line of an srun without --ntasks-per-node (none in #SBATCH) */
	int script_torchrun_no_rank;	/* line of srun ... torchrun with neither --node_rank nor c10d */
	/* torchrun's own TCPStore and a store the script asks for on another port */
	int agent_store;		/* TORCHELASTIC_USE_AGENT_STORE is true: a torchrun worker */
	int master_port;		/* MASTER_PORT, or torchrun's --master_port in the script */
	int script_torchrun;		/* line of a torchrun command in the script */
	int script_c10d;		/* that torchrun uses --rdzv_backend=c10d */
	int init_tcp_port;		/* the port of an init_method / --dist-url "tcp://host:port" */
	int init_tcp_line;		/* its line */
};

void launch_facts_init(struct launch_facts *lf);

struct node_model;
/*
 * From the job's environment (a task's, or the batch script's), and the node's GPU count. The
 * variables are launch/vars.h's; probe/env.c records every one of them in the facts' "env", so
 * the rule judges a peer's facts exactly as that node's own environment: run's cluster phase
 * decides from them on the master, for every node at once.
 */
void launch_facts_from_env(struct launch_facts *lf, const struct envmap *env, int gpus_on_node);
/* The same from a node model (its env and GPUs), for `node`. */
void launch_facts_from_model(struct launch_facts *lf, const struct node_model *m);
/*
 * Adds what a batch script or a Python file says: #SBATCH --nodes / --ntasks-per-node, srun and
 * python lines, Trainer(devices=N, num_nodes=N). Text only; nothing is run.
 */
void launch_scan_text(struct launch_facts *lf, const char *text);

/*
 * Whether `id` is one that rule_launch_consistency() emits (run's cluster phase takes exactly
 * these from every node's findings in the report: what run used to judge on each node alone).
 */
int launch_consistency_id(const char *id);

/* The checks; nothing is reported about numbers that are not known. */
void rule_launch_consistency(const struct launch_facts *lf, struct findings *out);
/* `node`'s form, a node rule (rules/rules.c's table): the launch environment the model recorded. */
void rule_launch_node(const struct node_model *m, struct findings *out);
/*
 * The same on a facts document (decoded by the model; silent when the model refuses it, which
 * the node rules report as facts.invalid): the cluster master's hook for a peer's facts.
 */
void rule_launch_env(const json_t *facts, struct findings *out);

#endif
