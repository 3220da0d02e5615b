/* The probe table: which probes run, in what order, and how long each took. */
#include "probe/probe.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "util/file.h"
#include "util/json.h"
#include "util/timeutil.h"

static const struct probe_entry {
	const char *name;
	void (*fn)(const struct probe_opts *o, json_t *facts);
} probes[] = {
	{ "host", probe_host },
	{ "env", probe_env },
	{ "nic", probe_nic },
	{ "sysctl", probe_sysctl },
	{ "rdma", probe_rdma },
	{ "firewall", probe_firewall },
	{ "nvml", probe_nvml },		/* driver, gpus, topology.gpu_gpu */
	{ "cuda", probe_cuda },
	{ "cudnn", probe_cudnn },
	{ "topo", probe_topo },		/* after nvml: needs the GPUs' bus ids */
	{ "nccl_libs", probe_nccl_libs },
	{ "resources", probe_resources },
	{ "cloud", probe_cloud },	/* last: reads net, rdma and nccl.conf facts */
};

static const char *root_from_env(const char *var)
{
	const char *v = getenv(var);
	return v && *v ? v : "/";
}

void probe_opts_init(struct probe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->root_sys = root_from_env("NCCLCHECK_SYS_ROOT");
	o->root_proc = root_from_env("NCCLCHECK_PROC_ROOT");
	o->root_etc = root_from_env("NCCLCHECK_ETC_ROOT");
	o->python_timeout_ms = 20000;
}

/* The roots name the directory that stands for /sys, /proc or /etc itself. */
char *probe_sys_path(const struct probe_opts *o, const char *rel)
{
	return strcmp(o->root_sys, "/") ? path_join(o->root_sys, rel) : path_join("/sys", rel);
}

char *probe_proc_path(const struct probe_opts *o, const char *rel)
{
	return strcmp(o->root_proc, "/") ? path_join(o->root_proc, rel) : path_join("/proc", rel);
}

char *probe_etc_path(const struct probe_opts *o, const char *rel)
{
	return strcmp(o->root_etc, "/") ? path_join(o->root_etc, rel) : path_join("/etc", rel);
}

json_t *probe_node(const struct probe_opts *o)
{
	json_t *facts = json_object(), *timings = json_object(), *tool = json_object();
	int64_t t0 = time_now_ms();
	char when[32];

	jset_int(facts, "schema_version", FACTS_SCHEMA_VERSION);
	jset_str(tool, "name", "ncclcheck");
	jset_str(tool, "version", NCCLCHECK_VERSION);
	json_object_set_new(facts, "tool", tool);
	time_iso8601(when, sizeof(when));
	jset_str(facts, "collected_at", when);

	struct python_run *py = probe_python_start(o);	/* overlaps with every other probe */
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		int64_t t = time_now_ms();
		probes[i].fn(o, facts);
		jset_int(timings, probes[i].name, time_now_ms() - t);
	}
	jset_int(timings, "python", probe_python_finish(py, o, facts));
	int64_t tsite = time_now_ms();
	probe_nccl_libs_site(o, facts);
	jset_int(timings, "nccl_libs_site", time_now_ms() - tsite);
	jset_int(timings, "total", time_now_ms() - t0);
	json_object_set_new(facts, "timings_ms", timings);
	return facts;
}
