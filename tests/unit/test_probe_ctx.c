/*
 * The probe context and the probe table: knobs come from an environment given as data, the
 * job's variables are read from the context, and the schedule honours every probe's needs.
 */
#include "cmocka_helpers.h"

#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "util/envmap.h"

static void knobs_from_envmap(void **state)
{
	char *const envp[] = {
		"NCCLCHECK_SYS_ROOT=/fx/sys", "NCCLCHECK_PROC_ROOT=", "NCCLCHECK_GPU_TIMEOUT_MS=300",
		"NCCLCHECK_LIB_TIMEOUT_MS=12x", "NCCLCHECK_NVML_LIB=/x/libnvidia-ml.so.1",
		"NCCLCHECK_ASSUME_NCCL=2.21.5", "MASTER_ADDR=10.0.0.1", "EMPTY=", NULL,
	};
	struct envmap *env = envmap_new(envp);
	struct probe_ctx ctx;
	char *p;

	(void)state;
	probe_ctx_init(&ctx, env);
	assert_string_equal(ctx.root_sys, "/");
	assert_null(ctx.nvml_lib);
	probe_ctx_knobs(&ctx, env);
	assert_string_equal(ctx.root_sys, "/fx/sys");
	assert_string_equal(ctx.root_proc, "/");	/* empty: ignored */
	assert_int_equal(ctx.gpu_timeout_ms, 300);
	assert_int_equal(ctx.lib_timeout_ms, 3000);	/* garbage: the default */
	assert_string_equal(ctx.nvml_lib, "/x/libnvidia-ml.so.1");
	assert_null(ctx.cuda_lib);
	assert_string_equal(ctx.assume_nccl, "2.21.5");
	assert_string_equal(probe_ctx_env(&ctx, "MASTER_ADDR"), "10.0.0.1");
	assert_null(probe_ctx_env(&ctx, "EMPTY"));
	assert_null(probe_ctx_env(&ctx, "HOME"));	/* not ours: the job's */

	p = probe_sys_path(&ctx, "class/net");
	assert_string_equal(p, "/fx/sys/class/net");
	free(p);
	p = probe_proc_path(&ctx, "net/route");
	assert_string_equal(p, "/proc/net/route");
	free(p);
	envmap_free(env);
}

/* PATH is the job's, not ours: an empty element is the current directory, as for the shell. */
static void which_uses_the_jobs_path(void **state)
{
	char *const envp[] = { "PATH=/nonexistent-ncclcheck:/bin", NULL };
	struct envmap *env = envmap_new(envp), *none = envmap_new(NULL);
	struct probe_ctx ctx;
	char *p;

	(void)state;
	probe_ctx_init(&ctx, env);
	p = probe_which(&ctx, "sh");
	assert_string_equal(p, "/bin/sh");
	free(p);
	assert_null(probe_which(&ctx, "no-such-tool-ncclcheck"));
	probe_ctx_init(&ctx, none);
	assert_null(probe_which(&ctx, "sh"));
	envmap_free(env);
	envmap_free(none);
}

static long pos(const char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (long)i;
	return -1;
}

static void schedule_honours_needs(void **state)
{
	const char *names[64];
	size_t n = probe_schedule(names, 64);

	(void)state;
	assert_true(n > 10 && n <= 64);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(pos(names, n, names[i]), (long)i); /* each once */
	assert_true(pos(names, n, "nvml") < pos(names, n, "topo"));
	assert_true(pos(names, n, "nic") < pos(names, n, "cloud"));
	assert_true(pos(names, n, "rdma") < pos(names, n, "cloud"));
	assert_true(pos(names, n, "nccl_libs") < pos(names, n, "cloud"));
	assert_true(pos(names, n, "python") < pos(names, n, "nccl_libs_site"));
	assert_true(pos(names, n, "nccl_libs") < pos(names, n, "nccl_libs_site"));
	assert_int_equal(pos(names, n, "host"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(knobs_from_envmap),
		cmocka_unit_test(which_uses_the_jobs_path),
		cmocka_unit_test(schedule_honours_needs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
