/* The probe context: defaults, ncclcheck's knobs, the job's environment and the path helpers. */
#include "probe/ctx.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"
#include "util/xalloc.h"

/* What an isolated child may take before it is called hung. */
#define PYTHON_TIMEOUT_MS_DEFAULT 20000
#define GPU_TIMEOUT_MS_DEFAULT 20000
#define LIB_TIMEOUT_MS_DEFAULT 3000

void probe_ctx_init(struct probe_ctx *ctx, const struct envmap *env)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->root_sys = ctx->root_proc = ctx->root_etc = "/";
	ctx->env = env;
	ctx->python_timeout_ms = PYTHON_TIMEOUT_MS_DEFAULT;
	ctx->gpu_timeout_ms = GPU_TIMEOUT_MS_DEFAULT;
	ctx->lib_timeout_ms = LIB_TIMEOUT_MS_DEFAULT;
}

static const char *knob(const struct envmap *knobs, const char *name, const char *dflt)
{
	const char *v = envmap_get(knobs, name);

	return v && *v ? v : dflt;
}

static long knob_ms(const struct envmap *knobs, const char *name, long dflt)
{
	const char *v = envmap_get(knobs, name);
	char *end;
	long ms;

	if (!v || !*v)
		return dflt;
	ms = strtol(v, &end, 10);
	return *end || ms <= 0 ? dflt : ms;
}

void probe_ctx_knobs(struct probe_ctx *ctx, const struct envmap *knobs)
{
	ctx->root_sys = knob(knobs, "NCCLCHECK_SYS_ROOT", ctx->root_sys);
	ctx->root_proc = knob(knobs, "NCCLCHECK_PROC_ROOT", ctx->root_proc);
	ctx->root_etc = knob(knobs, "NCCLCHECK_ETC_ROOT", ctx->root_etc);
	ctx->gpu_timeout_ms = knob_ms(knobs, "NCCLCHECK_GPU_TIMEOUT_MS", ctx->gpu_timeout_ms);
	ctx->lib_timeout_ms = knob_ms(knobs, "NCCLCHECK_LIB_TIMEOUT_MS", ctx->lib_timeout_ms);
	ctx->nvml_lib = knob(knobs, "NCCLCHECK_NVML_LIB", ctx->nvml_lib);
	ctx->cuda_lib = knob(knobs, "NCCLCHECK_CUDA_LIB", ctx->cuda_lib);
	ctx->ibverbs_lib = knob(knobs, "NCCLCHECK_IBVERBS_LIB", ctx->ibverbs_lib);
	ctx->cuda_search = knob(knobs, "NCCLCHECK_CUDA_SEARCH", ctx->cuda_search);
	ctx->hwloc_xml = knob(knobs, "NCCLCHECK_HWLOC_XML", ctx->hwloc_xml);
	ctx->shm_path = knob(knobs, "NCCLCHECK_SHM_PATH", ctx->shm_path);
	ctx->assume_nccl = knob(knobs, "NCCLCHECK_ASSUME_NCCL", ctx->assume_nccl);
}

const char *probe_ctx_env(const struct probe_ctx *ctx, const char *name)
{
	const char *v = envmap_get(ctx->env, name);

	return v && *v ? v : NULL;
}

/* The roots name the directory that stands for /sys, /proc or /etc itself. */
char *probe_sys_path(const struct probe_ctx *ctx, const char *rel)
{
	return strcmp(ctx->root_sys, "/") ? path_join(ctx->root_sys, rel) : path_join("/sys", rel);
}

char *probe_proc_path(const struct probe_ctx *ctx, const char *rel)
{
	return strcmp(ctx->root_proc, "/") ? path_join(ctx->root_proc, rel) : path_join("/proc", rel);
}

char *probe_etc_path(const struct probe_ctx *ctx, const char *rel)
{
	return strcmp(ctx->root_etc, "/") ? path_join(ctx->root_etc, rel) : path_join("/etc", rel);
}

char *probe_which(const struct probe_ctx *ctx, const char *name)
{
	const char *p = probe_ctx_env(ctx, "PATH");

	while (p && *p) {
		size_t n = strcspn(p, ":");
		/* an empty element is the current directory, as for the shell */
		char *cand = xasprintf("%.*s/%s", (int)n, n ? p : ".", name);

		if (access(cand, X_OK) == 0 && !file_is_dir(cand))
			return cand;
		free(cand);
		p += n + (p[n] ? 1 : 0);
	}
	return NULL;
}
