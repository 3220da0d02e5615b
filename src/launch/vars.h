/*
 * The launcher variables: every environment variable through which a launcher (torchrun, Slurm,
 * Open MPI, MPICH/Intel MPI's PMI, PMIx, jsrun, Kubeflow) or a hand-written launch tells a process
 * who it is in the job, listed once with who sets it and what it means
 * (../shared/research/launch-and-cloud.md §1).
 *
 * Readers name a variable by its id, never by a string of their own: probe/env.c records every
 * one of them in the facts' "env" (so what a rule reads is always recorded), launch/detect.c reads
 * them to find the rendezvous, rules/launch_consistency.c and rules/launcher_env.c judge them,
 * emit/recommend.c takes the job's numbers from them. Each reader keeps its own precedence (a list
 * of ids): torchrun's own GROUP_RANK comes before NODE_RANK when detect.c finds the rendezvous of
 * a torchrun process, while the consistency rule reads the user's NODE_RANK first.
 *
 * The header has no dependencies, so that the model, probes, rules and emitters may all include
 * it without reaching into launch/'s orchestration.
 */
#ifndef NCCLCHECK_LAUNCH_VARS_H
#define NCCLCHECK_LAUNCH_VARS_H

#include <stddef.h>

enum launch_var_id {
	LV_NONE = 0,	/* ends a list of ids */
	/* torch's env:// init and torchrun */
	LV_MASTER_ADDR, LV_MASTER_PORT, LV_RANK, LV_WORLD_SIZE, LV_LOCAL_RANK,
	LV_LOCAL_WORLD_SIZE, LV_GROUP_RANK, LV_GROUP_WORLD_SIZE, LV_TORCHELASTIC_RUN_ID,
	LV_TORCHELASTIC_USE_AGENT_STORE,
	/* a launch by hand (and Lightning's) */
	LV_NODE_RANK, LV_NNODES, LV_NUM_NODES,
	/* Kubeflow PyTorchJob / Trainer v2: torchrun's arguments */
	LV_PET_NNODES, LV_PET_NODE_RANK, LV_PET_MASTER_ADDR, LV_PET_MASTER_PORT,
	/* Slurm */
	LV_SLURM_JOB_ID, LV_SLURM_STEP_ID, LV_SLURM_PROCID, LV_SLURM_LOCALID, LV_SLURM_NODEID,
	LV_SLURM_JOB_NUM_NODES, LV_SLURM_NNODES, LV_SLURM_STEP_NUM_NODES, LV_SLURM_NTASKS,
	LV_SLURM_NTASKS_PER_NODE, LV_SLURM_TASKS_PER_NODE, LV_SLURM_STEP_TASKS_PER_NODE,
	LV_SLURM_STEP_NODELIST, LV_SLURM_JOB_NODELIST, LV_SLURM_NODELIST,
	/* Open MPI */
	LV_OMPI_COMM_WORLD_RANK, LV_OMPI_COMM_WORLD_SIZE, LV_OMPI_COMM_WORLD_LOCAL_RANK,
	LV_OMPI_COMM_WORLD_LOCAL_SIZE,
	/* MPICH / Intel MPI (Hydra, PMI) */
	LV_PMI_RANK, LV_PMI_SIZE, LV_PMI_LOCAL_RANK, LV_PMI_LOCAL_SIZE, LV_MPI_LOCALRANKID,
	LV_MPI_LOCALNRANKS,
	/* PMIx (prte, OpenPMIx-based launchers), IBM jsrun */
	LV_PMIX_RANK, LV_PMIX_NAMESPACE, LV_OMPI_MCA_ESS_BASE_JOBID, LV_JSM_NAMESPACE_RANK,
	/* the GPUs a task sees (Slurm's --gres / --gpus-per-task binding, or the user) */
	LV_CUDA_VISIBLE_DEVICES,
	LV_COUNT
};

struct launch_var {
	const char *name;
	const char *launcher;	/* who sets it */
	const char *meaning;
	int marker;		/* set in every process the launcher starts: its presence means it runs */
	/*
	 * Set by a launcher for each process it starts (torchrun, Lightning's own spawns), never
	 * part of a node's launch by hand: exported in a shell, it is left over. The node-level
	 * contract (MASTER_ADDR, MASTER_PORT, NODE_RANK, NNODES, WORLD_SIZE: what `cluster` and a
	 * manual Lightning launch read) is not.
	 */
	int per_process;
};

/* Indexed by enum launch_var_id; launch_vars[LV_NONE].name is NULL. */
extern const struct launch_var launch_vars[LV_COUNT];

/* The variable's name. */
static inline const char *lv_name(enum launch_var_id id)
{
	return launch_vars[id].name;
}

/*
 * A reader of variables: an envmap, a facts document's env, a node model. Returns the value of
 * `name`, or NULL when unset.
 */
typedef const char *(*lv_getter)(const void *src, const char *name);

/* The id of the first variable of `ids` (ended by LV_NONE) that `get` finds set, or LV_NONE. */
enum launch_var_id lv_first(lv_getter get, const void *src, const enum launch_var_id *ids);
/* The value of the first variable of `ids` that `get` finds set, or NULL. */
const char *lv_first_value(lv_getter get, const void *src, const enum launch_var_id *ids);

/* The getters of the two sources readers have: a struct envmap and a struct node_model's env. */
const char *lv_from_envmap(const void *envmap, const char *name);
const char *lv_from_model(const void *node_model, const char *name);

#endif
