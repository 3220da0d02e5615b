/*
 * bench --backend nccl: real NCCL and the CUDA driver, both dlopen'ed in a child process so a
 * crash or a hang inside them never takes the tool down. The child asks its parent, which holds
 * the bootstrap, to pass the ncclUniqueId and every barrier; it initialises its communicators
 * non-blocking (ncclCommInitRankConfig, blocking = 0) and aborts them at the timeout; it runs
 * the nccl-tests sweep on -g GPUs (one rank each, grouped) and sends rows back over a pipe.
 */
#ifndef NCCLCHECK_COLL_NCCL_H
#define NCCLCHECK_COLL_NCCL_H

#include <stddef.h>

#include <jansson.h>

#include "coll/boot.h"
#include "coll/sweep.h"
#include "util/envmap.h"
#include "util/err.h"

struct nccl_opts {
	const char *nccl_path; /* NULL: "libnccl.so.2" as the loader finds it */
	const char *cuda_path; /* NULL: "libcuda.so.1" */
	int first_device;      /* CUDA ordinal of local rank 0 (nccl-tests: localRank * g) */
	long timeout_ms;
	const struct envmap *env; /* the job's environment; the child adds NCCL_DEBUG* */
	const char *log_dir;      /* where the child's NCCL writes its INFO log */
};

struct nccl_device {
	int rank, pid, device;
	unsigned pci_domain, pci_bus, pci_dev;
	char host[64], name[96];
};

/* What the parent hears from the child, in order: version, devices, rows, notes. */
struct nccl_sink {
	void *arg;
	void (*version)(void *arg, int code, const char *path);
	void (*devices)(void *arg, const struct nccl_device *d, size_t n);
	int (*row)(void *arg, const struct coll_row *row);
	void (*note)(void *arg, const char *text);
};

/*
 * Runs the sweep `so` (so->nlocal GPUs here) in a child. Returns 0, or -1 with `e` saying what
 * failed, NCCL's own words included (ERR_NOTFOUND: no NCCL / no driver / no GPU). Only rank 0's
 * sink hears rows and notes. `b` must not be used by the caller while this runs.
 */
int coll_nccl_bench(const struct nccl_opts *o, const struct sweep_opts *so, struct boot *b,
                    const struct nccl_sink *sink, struct err *e);

/*
 * Which libnccl to load from a facts document (probe_nccl_libs + the Python probe): the one torch
 * maps, else the loader's default. Returns how it was chosen, or NULL when facts name none.
 */
const char *coll_nccl_pick_lib(const json_t *facts, char *buf, size_t len);

#endif
