/*
 * The reasoner: observations (obs.h) -> findings. Resolves streams to ranks, turns signature hits
 * into findings and reasons across ranks (wrong bootstrap interface, NCCL version mismatch, missing
 * ranks, partial init, rendezvous vs NCCL hangs, watchdog desync). Pure: no I/O, and it reads the
 * observations only.
 */
#ifndef NCCLCHECK_EXPLAIN_REASON_H
#define NCCLCHECK_EXPLAIN_REASON_H

#include <jansson.h>

#include "explain/obs.h"
#include "finding.h"

/*
 * Adds the findings to `fs`, best first, and returns the payload for render_json_doc
 * ({inputs, lines, bytes, master_addr, interfaces, nccl_env, ranks, untracked_lines}), a new
 * reference.
 */
json_t *explain_reason(const struct run_obs *o, struct findings *fs);

#endif
