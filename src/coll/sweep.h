/*
 * nccl-tests' measurement loop over any backend: the warm-up over every size, then per size the
 * out-of-place and in-place runs, timed on the host clock, averaged over ranks (nccl-tests' -a 1),
 * and checked. A backend either completes each call (tcp) or enqueues and syncs (nccl).
 */
#ifndef NCCLCHECK_COLL_SWEEP_H
#define NCCLCHECK_COLL_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "coll/boot.h"
#include "coll/coll.h"
#include "util/err.h"

struct coll_backend {
	const char *name;
	void *ctx;
	int host_memory; /* buffers are ordinary memory: fill and check them in place */
	int batched;     /* run() only enqueues; sync() waits (NCCL streams) */
	int (*alloc)(void *ctx, int local, size_t bytes, void **p, struct err *e);
	void (*release)(void *ctx, int local, void *p);
	/* only when !host_memory */
	int (*upload)(void *ctx, int local, void *dst, const void *src, size_t n, struct err *e);
	int (*download)(void *ctx, int local, void *dst, const void *src, size_t n, struct err *e);
	/* one call per local rank (several GPUs of one process run as one group) */
	int (*run)(void *ctx, const struct coll_call *calls, int ncalls, struct err *e);
	int (*sync)(void *ctx, struct err *e);
};

struct sweep_opts {
	const struct coll_kind *kind;
	enum coll_dtype dtype;
	enum coll_op op;
	int root;
	size_t minbytes, maxbytes, stepbytes;
	int stepfactor; /* > 1: multiply (-f); else add stepbytes (-i) */
	int iters, warmup, check;
	int nlocal; /* ranks in this process (-g) */
	/*
	 * tcp: every timed iteration gets fresh inputs and is checked (outside the timed part);
	 * otherwise nccl-tests' way: `check` extra checked runs after the timed ones.
	 */
	int check_every_iter;
};

struct coll_row {
	size_t bytes, count;
	double time_us[2], algbw[2], busbw[2]; /* [0] out of place, [1] in place */
	int64_t wrong[2];
	int checked;
};

/* Called on rank 0 for every row; non-zero stops the sweep (that value is returned). */
typedef int (*coll_row_fn)(void *arg, const struct coll_row *row);

/* The byte sizes the sweep visits (nccl-tests' loop); returns how many, at most max. */
size_t coll_sweep_sizes(const struct sweep_opts *o, size_t *sizes, size_t max);

int coll_sweep(const struct sweep_opts *o, const struct coll_backend *be, struct boot *b,
               coll_row_fn fn, void *arg, struct err *e);

#endif
