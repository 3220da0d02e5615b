/*
 * Who am I in this job: node rank, node count and the master's address, from the command line
 * or from the launcher's own environment (torchrun, Slurm srun, Open MPI mpirun, PMI / PMIx
 * launchers, Kubeflow PyTorchJob / Trainer v2, or a torchrun-style script's MASTER_ADDR /
 * NODE_RANK / NNODES). Pure: it reads an envmap (util/envmap.h), never the process environment.
 * Contracts: ../shared/research/launch-and-cloud.md §1.
 *
 * One process per node takes part in `cluster`: where a launcher starts several per node (srun
 * --ntasks-per-node=8, torchrun --nproc-per-node=8, mpirun -np 16 on 2 nodes), only local rank 0
 * joins; the others are told to stay out (participate = 0) with a note.
 */
#ifndef NCCLCHECK_NET_LAUNCH_H
#define NCCLCHECK_NET_LAUNCH_H

#include <stddef.h>

#include "util/envmap.h"
#include "util/err.h"

enum launcher {
	LAUNCH_FLAGS = 0,	/* --master/--nodes/--node-rank only */
	LAUNCH_TORCHRUN,	/* a worker started by torchrun (TORCHELASTIC_RUN_ID) */
	LAUNCH_OMPI,		/* Open MPI mpirun (OMPI_COMM_WORLD_*) */
	LAUNCH_SLURM,		/* a Slurm step task (SLURM_PROCID) */
	LAUNCH_PMI,		/* MPICH / Intel MPI Hydra, Slurm pmi2, Cray PALS (PMI_RANK) */
	LAUNCH_PMIX,		/* a PMIx server's client without Open MPI's variables (PMIX_RANK) */
	LAUNCH_KUBEFLOW,	/* Kubeflow PET_* (PyTorchJob, Trainer v2) */
	LAUNCH_ENV,		/* a torchrun-style script's MASTER_ADDR / NODE_RANK / NNODES */
};

/* "flags", "torchrun", "openmpi", "slurm", "pmi", "pmix", "kubeflow", "env" */
const char *launcher_name(enum launcher l);

/* The command line's part; NULL / -1 where not given. */
struct launch_flags {
	const char *master;	/* "ADDR:PORT", "[v6]:PORT" or "ADDR" (port then from the env or 29500) */
	long nodes;
	long node_rank;
};

#define LAUNCH_DEFAULT_PORT 29500	/* torch's default MASTER_PORT */
#define LAUNCH_HOSTS_MAX 65536

struct launch {
	enum launcher kind;
	char master_addr[256];
	int master_port;
	int node_rank, nnodes;
	int local_rank;		/* -1 unknown */
	int local_size;		/* processes of this job on this node, -1 unknown */
	int participate;	/* 0: another local rank of this node joins instead */
	char note[256];		/* why not, or an assumption worth saying */
	/* where each value came from: "--node-rank", "NODE_RANK", "SLURM_NODEID", ... */
	char src_addr[64], src_port[64], src_rank[64], src_nodes[64];
	char **hosts;		/* the job's hosts by node rank, when the launcher lists them */
	size_t nhosts;
};

void launch_release(struct launch *l);

/*
 * Fills `out` from the flags (which win) and the environment. -1 with ERR_USAGE naming what is
 * missing or malformed ("no node count: pass --nodes N or set NNODES").
 */
int launch_detect(const struct envmap *env, const struct launch_flags *f, struct launch *out,
		  struct err *e);

/*
 * Expands a Slurm hostlist ("node[01-03,7],gpu5", "rack[0-1]_blade[0-2]") into host names in
 * order, zero padding kept from each range's lower bound. At most `max` names; -1 with ERR_PARSE
 * for a malformed expression. *hosts is an array of `*n` strings (free with hostlist_free).
 */
int hostlist_expand(const char *expr, size_t max, char ***hosts, size_t *n, struct err *e);
void hostlist_free(char **hosts, size_t n);

#endif
