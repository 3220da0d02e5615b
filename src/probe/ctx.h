/*
 * The one input of every probe: where the machine's /sys, /proc and /etc are, the environment the
 * job will run with (as data, not the process's own variables), time limits, library overrides
 * and the extra interpreters to look at. cmd/ builds it once from the real process; `run`, `config` and
 * `cluster` can build it from another environment and probe "as the job will run" without
 * setenv() on ncclcheck itself.
 */
#ifndef NCCLCHECK_PROBE_CTX_H
#define NCCLCHECK_PROBE_CTX_H

#include <stddef.h>

#include "util/envmap.h"

struct probe_ctx {
	/* File-system roots, "/" in production; tests point them at fixture trees. */
	const char *root_sys;
	const char *root_proc;
	const char *root_etc;
	/*
	 * The job's environment: PATH, LD_LIBRARY_PATH, LD_PRELOAD, MASTER_ADDR, NCCL_*, HOME,
	 * VIRTUAL_ENV, ... Borrowed, never NULL after probe_ctx_init(); outlives the probes.
	 */
	const struct envmap *env;

	/* Time limits for the isolated children, in ms. */
	long python_timeout_ms;	/* each interpreter (--python-timeout) */
	long gpu_timeout_ms;	/* the NVML / libcuda child */
	long lib_timeout_ms;	/* each libnccl copy's ncclGetVersion() child */

	/* Full paths that replace the soname search (NULL: search as the loader would). */
	const char *nvml_lib;
	const char *cuda_lib;
	const char *ibverbs_lib;
	/* ':'-separated glob patterns of CUDA toolkit directories (NULL: the built-in list). */
	const char *cuda_search;
	/* An `lstopo --of xml` file hwloc reads instead of the machine (NULL: the machine). */
	const char *hwloc_xml;
	/* The directory NCCL's shared-memory segments go to (default /dev/shm). */
	const char *shm_path;
	/* Predict NCCL's behaviour for this version instead of the one torch loads (NULL: no). */
	const char *assume_nccl;

	/* Extra interpreters to inspect (--python), beyond python3 on PATH, /usr/bin/python3, venv/conda. */
	const char *const *pythons;
	size_t npythons;
	int skip_python;
	/* --deep: import torch in each interpreter instead of reading its files (probe/python.c) */
	int deep;
	/* --master-addr: the address rank 0's TCPStore listens on (else MASTER_ADDR in env) */
	const char *master_addr;
};

/* Defaults: roots "/", the built-in time limits, no overrides; `env` is the job's environment. */
void probe_ctx_init(struct probe_ctx *ctx, const struct envmap *env);

/*
 * Applies ncclcheck's own knobs from `knobs` (usually the same map as the job's environment):
 * NCCLCHECK_SYS_ROOT / _PROC_ROOT / _ETC_ROOT, NCCLCHECK_GPU_TIMEOUT_MS, NCCLCHECK_LIB_TIMEOUT_MS,
 * NCCLCHECK_NVML_LIB / _CUDA_LIB / _IBVERBS_LIB, NCCLCHECK_CUDA_SEARCH, NCCLCHECK_HWLOC_XML,
 * NCCLCHECK_SHM_PATH, NCCLCHECK_ASSUME_NCCL. Empty values and unparsable numbers are ignored.
 * The strings are borrowed from `knobs`, which must outlive the context and not change.
 */
void probe_ctx_knobs(struct probe_ctx *ctx, const struct envmap *knobs);

/* The job's value of NAME, or NULL when it is unset or empty. */
const char *probe_ctx_env(const struct probe_ctx *ctx, const char *name);

/* Path of `rel` under the sys, proc or etc root (caller frees). */
char *probe_sys_path(const struct probe_ctx *ctx, const char *rel);
char *probe_proc_path(const struct probe_ctx *ctx, const char *rel);
char *probe_etc_path(const struct probe_ctx *ctx, const char *rel);

/* The first executable `name` in the job's PATH, as a shell finds it (caller frees); NULL if none. */
char *probe_which(const struct probe_ctx *ctx, const char *name);

#endif
