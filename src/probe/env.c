/* Environment facts: the variables that steer NCCL, torch, Lightning and the launchers. */
#include "probe/probe.h"

#include <string.h>

#include "launch/vars.h"
#include "util/json.h"

/*
 * Prefixes and names whose values matter to a multi-node NCCL job, besides every launcher
 * variable (launch/vars.h), which is always recorded: a cluster's master judges each node's
 * launch from these facts, and run's nodes refuse together on it.
 */
static const char *const prefixes[] = {
	"NCCL_", "TORCH_NCCL_", "TORCH_DISTRIBUTED_", "TORCHELASTIC_", "SLURM_", "OMPI_", "PMI_",
	"PMIX_", "PL_", "LIGHTNING_", "CUDA_", "NVIDIA_", "TORCH_", "GLOO_", "FI_", "UCX_",
	"PET_",		/* Kubeflow's torchrun arguments (PET_NNODES, PET_NODE_RANK, ...) */
	"HCCL_", "MCCL_",	/* Huawei Ascend's and MetaX's libraries: rules/other_ccl.c */
};
static const char *const names[] = {
	"LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "VIRTUAL_ENV",
	"CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYTHONPATH", "KUBERNETES_SERVICE_HOST",
	"OMP_NUM_THREADS",
	"TERM", "SSH_TTY", "ENABLE_NCCL_HEALTH_CHECK", "TP_SOCKET_IFNAME",
	"HOSTNAME", "KUBERNETES_PORT",
};

static int wanted(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !strncmp(name, names[i], len))
			return 1;
	for (int id = LV_NONE + 1; id < LV_COUNT; id++)
		if (strlen(lv_name(id)) == len && !strncmp(name, lv_name(id), len))
			return 1;
	return 0;
}

void probe_env(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *env = jobj_child(facts, "env");

	for (char *const *e = envmap_envp(ctx->env); e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char key[256];

		if (!eq || (size_t)(eq - *e) >= sizeof(key) || !wanted(*e, (size_t)(eq - *e)))
			continue;
		memcpy(key, *e, (size_t)(eq - *e));
		key[eq - *e] = '\0';
		jset_str(env, key, eq + 1);
	}
}
