/*
 * The gate of `ncclcheck run` on one node: where a launcher starts several processes per node
 * (srun --ntasks-per-node=8, mpirun -np 16 on 2 nodes), only local rank 0 takes part in the
 * cluster check; the other local ranks must neither start CMD before the verdict (their torch
 * would dial MASTER_PORT while the rendezvous still holds it) nor start it when the verdict
 * stops the job. They wait at the gate, an abstract Unix socket of this network namespace (one
 * node) named after the user and the job, and local rank 0 tells each of them go or stop, with
 * the environment the verdict gives this node. The message is decoded strictly: an object
 * {"go": bool, "env": {NAME: string | null}} (null: unset), names of [A-Za-z_][A-Za-z0-9_]*.
 */
#ifndef NCCLCHECK_NET_RUN_GATE_H
#define NCCLCHECK_NET_RUN_GATE_H

#include <jansson.h>

#include "util/err.h"

struct run_gate;

/* Local rank 0: opens the gate `key` (the job's identity) before its checks. NULL with e set. */
struct run_gate *run_gate_open(const char *key, struct err *e);
/*
 * Tells the waiting local ranks the verdict: `env` (borrowed; an object NAME -> string | null)
 * when go, and accepts latecomers until `expect` were told or `wait_ms` passed (expect < 0:
 * until no one came for wait_ms). Returns how many were told; closes the gate.
 */
int run_gate_release(struct run_gate *g, int go, const json_t *env, int expect, long wait_ms);
void run_gate_free(struct run_gate *g);

/*
 * Any other local rank: waits for local rank 0's verdict, connecting for up to connect_ms and
 * then waiting up to wait_ms. 1 go (with *env, a new reference), 0 stop, -1 with e set.
 */
int run_gate_wait(const char *key, long connect_ms, long wait_ms, json_t **env, struct err *e);

#endif
