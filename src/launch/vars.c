/* The launcher variables: see vars.h. */
#include "launch/vars.h"

#include "model/node.h"
#include "util/envmap.h"

#define TORCH "torch env:// (torchrun sets it; or by hand)"
#define TORCHRUN "torchrun"
#define HAND "a launch by hand (torchrun --nnodes=$NNODES ..., Lightning)"
#define KUBEFLOW "Kubeflow PyTorchJob / Trainer v2"
#define SLURM "Slurm"
#define OMPI "Open MPI mpirun"
#define HYDRA "MPICH / Intel MPI (Hydra)"

const struct launch_var launch_vars[LV_COUNT] = {
	[LV_MASTER_ADDR] = { .name = "MASTER_ADDR", .launcher = TORCH,
			     .meaning = "rank 0's address: the TCPStore and NCCL's bootstrap root" },
	[LV_MASTER_PORT] = { .name = "MASTER_PORT", .launcher = TORCH,
			     .meaning = "rank 0's TCPStore port (29500 when unset)" },
	[LV_RANK] = { .name = "RANK", .launcher = TORCH, .meaning = "the global rank",
		       .per_process = 1 },
	[LV_WORLD_SIZE] = { .name = "WORLD_SIZE", .launcher = TORCH,
			    .meaning = "the number of processes in the job" },
	[LV_LOCAL_RANK] = { .name = "LOCAL_RANK", .launcher = TORCHRUN,
			    .meaning = "the rank among this node's processes (its GPU)",
			    .per_process = 1 },
	[LV_LOCAL_WORLD_SIZE] = { .name = "LOCAL_WORLD_SIZE", .launcher = TORCHRUN,
				  .meaning = "processes on this node (--nproc_per_node)",
				  .per_process = 1 },
	[LV_GROUP_RANK] = { .name = "GROUP_RANK", .launcher = TORCHRUN,
			    .meaning = "this node's rank (torchrun's --node_rank)",
			    .per_process = 1 },
	[LV_GROUP_WORLD_SIZE] = { .name = "GROUP_WORLD_SIZE", .launcher = TORCHRUN,
				  .meaning = "the number of nodes (torchrun's --nnodes)",
				  .per_process = 1 },
	[LV_TORCHELASTIC_RUN_ID] = { .name = "TORCHELASTIC_RUN_ID", .launcher = TORCHRUN,
				     .meaning = "torchrun's run id", .marker = 1 },
	[LV_TORCHELASTIC_USE_AGENT_STORE] = {
		.name = "TORCHELASTIC_USE_AGENT_STORE", .launcher = TORCHRUN,
		.meaning = "torchrun's agent serves the TCPStore at MASTER_ADDR:MASTER_PORT" },
	[LV_NODE_RANK] = { .name = "NODE_RANK", .launcher = HAND, .meaning = "this node's rank" },
	[LV_NNODES] = { .name = "NNODES", .launcher = HAND, .meaning = "the number of nodes" },
	[LV_NUM_NODES] = { .name = "NUM_NODES", .launcher = HAND, .meaning = "the number of nodes" },
	[LV_PET_NNODES] = { .name = "PET_NNODES", .launcher = KUBEFLOW,
			    .meaning = "torchrun's --nnodes (N, or an elastic MIN:MAX)" },
	[LV_PET_NODE_RANK] = { .name = "PET_NODE_RANK", .launcher = KUBEFLOW,
			       .meaning = "torchrun's --node_rank" },
	[LV_PET_MASTER_ADDR] = { .name = "PET_MASTER_ADDR", .launcher = KUBEFLOW,
				 .meaning = "torchrun's --master_addr" },
	[LV_PET_MASTER_PORT] = { .name = "PET_MASTER_PORT", .launcher = KUBEFLOW,
				 .meaning = "torchrun's --master_port" },
	[LV_SLURM_JOB_ID] = { .name = "SLURM_JOB_ID", .launcher = SLURM,
			      .meaning = "the allocation's id: inside sbatch / salloc / srun" },
	[LV_SLURM_STEP_ID] = { .name = "SLURM_STEP_ID", .launcher = SLURM,
			       .meaning = "the step's id: inside an srun task" },
	[LV_SLURM_PROCID] = { .name = "SLURM_PROCID", .launcher = SLURM,
			      .meaning = "the task's global rank", .marker = 1 },
	[LV_SLURM_LOCALID] = { .name = "SLURM_LOCALID", .launcher = SLURM,
			       .meaning = "the task's rank on its node" },
	[LV_SLURM_NODEID] = { .name = "SLURM_NODEID", .launcher = SLURM,
			      .meaning = "this node's index in the allocation" },
	[LV_SLURM_JOB_NUM_NODES] = { .name = "SLURM_JOB_NUM_NODES", .launcher = SLURM,
				     .meaning = "nodes in the allocation (--nodes)" },
	[LV_SLURM_NNODES] = { .name = "SLURM_NNODES", .launcher = SLURM,
			      .meaning = "nodes in the allocation (older name)" },
	[LV_SLURM_STEP_NUM_NODES] = { .name = "SLURM_STEP_NUM_NODES", .launcher = SLURM,
				      .meaning = "nodes in this step" },
	[LV_SLURM_NTASKS] = { .name = "SLURM_NTASKS", .launcher = SLURM,
			      .meaning = "tasks in the job (--ntasks)" },
	[LV_SLURM_NTASKS_PER_NODE] = { .name = "SLURM_NTASKS_PER_NODE", .launcher = SLURM,
				       .meaning = "--ntasks-per-node (set only when given)" },
	[LV_SLURM_TASKS_PER_NODE] = { .name = "SLURM_TASKS_PER_NODE", .launcher = SLURM,
				      .meaning = "the allocation's tasks per node, \"2(x3),1\"" },
	[LV_SLURM_STEP_TASKS_PER_NODE] = { .name = "SLURM_STEP_TASKS_PER_NODE", .launcher = SLURM,
					   .meaning = "the step's tasks per node, \"2(x3),1\"" },
	[LV_SLURM_STEP_NODELIST] = { .name = "SLURM_STEP_NODELIST", .launcher = SLURM,
				     .meaning = "the step's hosts (a hostlist)" },
	[LV_SLURM_JOB_NODELIST] = { .name = "SLURM_JOB_NODELIST", .launcher = SLURM,
				    .meaning = "the allocation's hosts (a hostlist)" },
	[LV_SLURM_NODELIST] = { .name = "SLURM_NODELIST", .launcher = SLURM,
				.meaning = "the allocation's hosts (older name)" },
	[LV_OMPI_COMM_WORLD_RANK] = { .name = "OMPI_COMM_WORLD_RANK", .launcher = OMPI,
				      .meaning = "the global rank", .marker = 1 },
	[LV_OMPI_COMM_WORLD_SIZE] = { .name = "OMPI_COMM_WORLD_SIZE", .launcher = OMPI,
				      .meaning = "the number of processes (-np)" },
	[LV_OMPI_COMM_WORLD_LOCAL_RANK] = { .name = "OMPI_COMM_WORLD_LOCAL_RANK", .launcher = OMPI,
					    .meaning = "the rank on this node" },
	[LV_OMPI_COMM_WORLD_LOCAL_SIZE] = { .name = "OMPI_COMM_WORLD_LOCAL_SIZE", .launcher = OMPI,
					    .meaning = "processes on this node" },
	[LV_PMI_RANK] = { .name = "PMI_RANK", .launcher = HYDRA, .meaning = "the global rank",
			  .marker = 1 },
	[LV_PMI_SIZE] = { .name = "PMI_SIZE", .launcher = HYDRA,
			  .meaning = "the number of processes" },
	[LV_PMI_LOCAL_RANK] = { .name = "PMI_LOCAL_RANK", .launcher = HYDRA,
				.meaning = "the rank on this node" },
	[LV_PMI_LOCAL_SIZE] = { .name = "PMI_LOCAL_SIZE", .launcher = HYDRA,
				.meaning = "processes on this node" },
	[LV_MPI_LOCALRANKID] = { .name = "MPI_LOCALRANKID", .launcher = HYDRA,
				 .meaning = "the rank on this node" },
	[LV_MPI_LOCALNRANKS] = { .name = "MPI_LOCALNRANKS", .launcher = HYDRA,
				 .meaning = "processes on this node" },
	[LV_PMIX_RANK] = { .name = "PMIX_RANK", .launcher = "a PMIx launcher (prterun, srun --mpi=pmix)",
			   .meaning = "the global rank", .marker = 1 },
	[LV_PMIX_NAMESPACE] = { .name = "PMIX_NAMESPACE",
				.launcher = "a PMIx launcher (prterun, srun --mpi=pmix)",
				.meaning = "the job's namespace: one per job" },
	[LV_OMPI_MCA_ESS_BASE_JOBID] = { .name = "OMPI_MCA_ess_base_jobid", .launcher = OMPI,
					 .meaning = "the job's id: one per mpirun" },
	[LV_JSM_NAMESPACE_RANK] = { .name = "JSM_NAMESPACE_RANK", .launcher = "IBM jsrun",
				    .meaning = "the global rank", .marker = 1 },
	[LV_CUDA_VISIBLE_DEVICES] = { .name = "CUDA_VISIBLE_DEVICES",
				      .launcher = "Slurm (--gres, --gpus-per-task) or the user",
				      .meaning = "the GPUs this process sees" },
};

enum launch_var_id lv_first(lv_getter get, const void *src, const enum launch_var_id *ids)
{
	for (; *ids != LV_NONE; ids++)
		if (get(src, launch_vars[*ids].name))
			return *ids;
	return LV_NONE;
}

const char *lv_first_value(lv_getter get, const void *src, const enum launch_var_id *ids)
{
	enum launch_var_id id = lv_first(get, src, ids);

	return id == LV_NONE ? NULL : get(src, launch_vars[id].name);
}

const char *lv_from_envmap(const void *envmap, const char *name)
{
	return envmap_get(envmap, name);
}

const char *lv_from_model(const void *node_model, const char *name)
{
	return node_model_env(node_model, name);
}
