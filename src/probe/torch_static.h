/*
 * The torch facts that `import torch` would give, read from the installed files instead (the
 * import costs seconds on a GPU machine, and every node of a cluster run pays it): the version
 * and CUDA build from torch/version.py, and which libnccl the torch process will map — the
 * DT_NEEDED of lib/libtorch_cuda.so resolved the way ld.so resolves it (LD_PRELOAD,
 * DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH with $ORIGIN, the cache, the system directories), or
 * NCCL linked into libtorch_cuda itself. What the files cannot settle is said, so the caller
 * falls back to importing.
 */
#ifndef NCCLCHECK_PROBE_TORCH_STATIC_H
#define NCCLCHECK_PROBE_TORCH_STATIC_H

#include <stddef.h>

#include "probe/ldso.h"
#include "util/err.h"

#define TS_STR_MAX 128

/* torch/version.py, parsed (never executed). */
struct torch_version_py {
	char version[TS_STR_MAX];	/* __version__ */
	char cuda[TS_STR_MAX];		/* "" when cuda = None (a CPU build) */
	int has_cuda;			/* the cuda line was there */
	char git_version[TS_STR_MAX];
	char hip[TS_STR_MAX];
};

/* Parses version.py's simple assignments. -1 with `e` set when __version__ is missing. */
int torch_version_py_parse(const char *text, size_t len, struct torch_version_py *out,
			   struct err *e);

struct torch_static {
	struct torch_version_py v;
	char *torch_cuda_lib;		/* <torch>/lib/libtorch_cuda.so, NULL for a CPU build */
	char *nccl_path;		/* the libnccl it will map; the torch_cuda lib when static */
	const char *nccl_how;		/* "LD_LIBRARY_PATH", "RUNPATH", "ld.so.cache", ... */
	int nccl_static;		/* NCCL linked into libtorch_cuda */
	char *cudnn_path;		/* the libcudnn it will map, NULL when none is needed */
	int needs_cudnn;		/* libtorch_cuda.so has a libcudnn DT_NEEDED */
	char unsettled[256];		/* non-empty: what the files could not tell (import instead) */
};

/*
 * Reads the torch package in `torch_dir` (the directory holding __init__.py). `s` is the loader
 * as the job would run (its LD_PRELOAD, LD_LIBRARY_PATH, cache, system directories). Returns 0
 * (check `unsettled`), or -1 with `e` set when there is no readable version.py.
 */
int torch_static_read(const char *torch_dir, const struct ld_search *s, struct torch_static *out,
		      struct err *e);
void torch_static_release(struct torch_static *t);

/*
 * Resolves `soname` needed by the object at `obj_path` whose DT_RPATH / DT_RUNPATH are given
 * (NULL when absent), as ld.so does for that object's own DT_NEEDED. New string or NULL.
 */
char *ld_resolve_needed(const struct ld_search *s, const char *obj_path, const char *rpath,
			const char *runpath, const char *soname, const char **how);

#endif
