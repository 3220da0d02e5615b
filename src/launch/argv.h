/*
 * What a torchrun command line says about the job's shape: `ncclcheck run -- torchrun --nnodes=2
 * --node_rank=1 --master_addr=A --master_port=P train.py` names the rendezvous in CMD itself, not
 * in the environment, and the cluster check must meet on the very address and port torchrun will
 * use. Pure: reads the words, runs nothing.
 */
#ifndef NCCLCHECK_NET_LAUNCH_ARGV_H
#define NCCLCHECK_NET_LAUNCH_ARGV_H

struct torchrun_argv {
	int torchrun;		/* CMD is torchrun, python -m torch.distributed.run or .launch */
	long nnodes;		/* -1 not given; --nnodes=MIN:MAX with MIN != MAX (elastic): -2 */
	long node_rank;		/* -1 not given */
	char master_addr[256];	/* --master_addr, else the host of --rdzv_endpoint; "" */
	int master_port;	/* --master_port, else the port of --rdzv_endpoint; 0 */
	int standalone;		/* --standalone: a single node with its own rendezvous */
	int c10d;		/* --rdzv_backend=c10d (the rendezvous port is rdzv_endpoint's) */
};

/* Fills `out` from CMD's words (NULL-terminated). Returns 1 when CMD is torchrun, else 0. */
int launch_argv_torchrun(char *const *argv, struct torchrun_argv *out);

#endif
