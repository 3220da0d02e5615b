/*
 * The probe table: which probes run, what each needs before it, and how long each took. Slow
 * probes that only wait on a child (the Python interpreters importing torch) have a `start` that
 * launches the child before anything else runs, and a `finish` that collects it in its turn.
 */
#include "probe/probe.h"

#include <string.h>

#include "ncclcheck.h"
#include "util/json.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define PROBE_NEEDS_MAX 4

struct probe_entry {
	const char *name;
	/* A probe that runs in one call... */
	void (*run)(const struct probe_ctx *ctx, json_t *facts);
	/* ...or one started first and finished in its turn; finish returns its wall time in ms. */
	void *(*start)(const struct probe_ctx *ctx);
	long (*finish)(void *state, const struct probe_ctx *ctx, json_t *facts);
	/* Probes whose facts this one reads. */
	const char *needs[PROBE_NEEDS_MAX];
};

static void *python_start(const struct probe_ctx *ctx)
{
	return probe_python_start(ctx);
}

static long python_finish(void *state, const struct probe_ctx *ctx, json_t *facts)
{
	return probe_python_finish(state, ctx, facts);
}

static const struct probe_entry probes[] = {
	{ .name = "host", .run = probe_host },
	{ .name = "env", .run = probe_env },
	{ .name = "nic", .run = probe_nic },
	{ .name = "sysctl", .run = probe_sysctl },
	{ .name = "rdma", .run = probe_rdma },
	{ .name = "firewall", .run = probe_firewall },
	{ .name = "nvml", .run = probe_nvml },		/* driver, gpus, topology.gpu_gpu */
	{ .name = "cuda", .run = probe_cuda },
	{ .name = "cudnn", .run = probe_cudnn },
	{ .name = "topo", .run = probe_topo, .needs = { "nvml" } },	/* the GPUs' bus ids */
	{ .name = "nccl_libs", .run = probe_nccl_libs },
	{ .name = "resources", .run = probe_resources },
	{ .name = "cloud", .run = probe_cloud, .needs = { "nic", "rdma", "nccl_libs" } },
	/* the static torch path reads the GPUs, the loader's NCCL copies and cuDNN's versions */
	{ .name = "python", .start = python_start, .finish = python_finish,
	  .needs = { "nvml", "nccl_libs", "cudnn" } },
	/* site-packages copies and the libnccl torch maps, merged into nccl.libs */
	{ .name = "nccl_libs_site", .run = probe_nccl_libs_site, .needs = { "python", "nccl_libs" } },
};

#define NPROBES ARRAY_SIZE(probes)

static long index_of(const char *name)
{
	for (size_t i = 0; i < NPROBES; i++)
		if (!strcmp(probes[i].name, name))
			return (long)i;
	return -1;
}

/*
 * order[] gets the table's indices, each after everything it needs and otherwise in table order.
 * A need that names no probe or a cycle leaves those probes at the end in table order: the table
 * is ours and test_probe_table checks it, so this only keeps a mistake from dropping a probe.
 */
static void schedule(size_t order[NPROBES])
{
	int done[NPROBES] = { 0 };
	size_t n = 0;

	while (n < NPROBES) {
		size_t pick = NPROBES;
		for (size_t i = 0; i < NPROBES && pick == NPROBES; i++) {
			int ready = !done[i];
			for (size_t k = 0; ready && k < PROBE_NEEDS_MAX && probes[i].needs[k]; k++) {
				long j = index_of(probes[i].needs[k]);
				ready = j >= 0 && done[j];
			}
			if (ready)
				pick = i;
		}
		for (size_t i = 0; i < NPROBES && pick == NPROBES; i++)
			if (!done[i])
				pick = i;
		done[pick] = 1;
		order[n++] = pick;
	}
}

size_t probe_schedule(const char **names, size_t max)
{
	size_t order[NPROBES];

	schedule(order);
	for (size_t i = 0; i < NPROBES && i < max; i++)
		names[i] = probes[order[i]].name;
	return NPROBES;
}

json_t *probe_node(const struct probe_ctx *ctx)
{
	json_t *facts = json_object(), *timings = json_object(), *tool = json_object();
	void *state[NPROBES] = { NULL };
	size_t order[NPROBES];
	int64_t t0 = time_now_ms();
	char when[32];

	jset_int(facts, "schema_version", FACTS_SCHEMA_VERSION);
	jset_str(tool, "name", "ncclcheck");
	jset_str(tool, "version", NCCLCHECK_VERSION);
	json_object_set_new(facts, "tool", tool);
	time_iso8601(when, sizeof(when));
	jset_str(facts, "collected_at", when);

	/* children first, so they overlap with every other probe */
	for (size_t i = 0; i < NPROBES; i++)
		if (probes[i].start)
			state[i] = probes[i].start(ctx);
	schedule(order);
	for (size_t k = 0; k < NPROBES; k++) {
		const struct probe_entry *p = &probes[order[k]];
		int64_t t = time_now_ms();

		if (p->run) {
			p->run(ctx, facts);
			jset_int(timings, p->name, time_now_ms() - t);
		} else {
			jset_int(timings, p->name, p->finish(state[order[k]], ctx, facts));
		}
	}
	jset_int(timings, "total", time_now_ms() - t0);
	json_object_set_new(facts, "timings_ms", timings);
	return facts;
}
