/* The inventory's GPU section: driver, GPUs, how they connect (NVLink, PCI, NICs), toolkits, cuDNN. */
#include "report/inventory.h"

#include <string.h>

#include "util/json.h"
#include "util/strbuf.h"

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void inv_driver(FILE *out, const json_t *driver)
{
	const json_t *present = json_object_get(driver, "present");
	const char *v = jstr(driver, "version");
	struct strbuf sb = STRBUF_INIT;

	if (!json_is_object(driver)) {
		inv_line(out, "driver", "-");
		return;
	}
	if (junknown(present)) {
		inv_line(out, "driver", "unknown (%s)", junknown(present));
		return;
	}
	if (!json_is_true(present)) {
		inv_line(out, "driver", "none (%s)", jstr(driver, "reason") ? jstr(driver, "reason") : "");
		return;
	}
	if (v)
		strbuf_addf(&sb, "%s (%s)", v, jstr(driver, "source") ? jstr(driver, "source") : "?");
	else
		strbuf_addf(&sb, "unknown (%s)", junknown(json_object_get(driver, "version")) ?
			    junknown(json_object_get(driver, "version")) : "no source answered");
	if (jstr(driver, "cuda_max"))
		strbuf_addf(&sb, ", supports CUDA <= %s", jstr(driver, "cuda_max"));
	if (jpath_str(driver, "kernel_module.version"))
		strbuf_addf(&sb, "; kernel module %s (%s)", jpath_str(driver, "kernel_module.version"),
			    jpath_str(driver, "kernel_module.flavor") ? jpath_str(driver, "kernel_module.flavor") : "?");
	inv_line(out, "driver", "%s", sb.buf);
	strbuf_reset(&sb);
	if (jpath_str(driver, "nvml.status") && strcmp(jpath_str(driver, "nvml.status"), "ok"))
		inv_line(out, "NVML", "%s: %s", jpath_str(driver, "nvml.status"),
			 jpath_str(driver, "nvml.error") ? jpath_str(driver, "nvml.error") : "");
	if (jpath_str(driver, "cuda_driver.status")) {
		const json_t *cd = json_object_get(driver, "cuda_driver");
		if (!strcmp(jstr(cd, "status"), "ok")) {
			strbuf_addf(&sb, "CUDA %s (%s)", jstr(cd, "version"), jstr(cd, "library") ? jstr(cd, "library") : "?");
			if (jstr(cd, "init"))
				strbuf_addf(&sb, ", cuInit %s", !strcmp(jstr(cd, "init"), "CUDA_SUCCESS") ? "ok" : jstr(cd, "init"));
			if (json_is_integer(json_object_get(cd, "device_count")))
				strbuf_addf(&sb, ", %lld device(s)", jpath_int(cd, "device_count", 0));
		} else {
			strbuf_addf(&sb, "%s", jstr(cd, "error") ? jstr(cd, "error") : jstr(cd, "status"));
		}
		inv_line(out, "libcuda", "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void inv_gpus(FILE *out, const json_t *facts)
{
	const json_t *gpus = json_object_get(facts, "gpus");
	size_t i;
	json_t *g;

	if (junknown(gpus)) {
		inv_line(out, "gpus", "unknown (%s)", junknown(gpus));
		return;
	}
	if (!json_is_array(gpus) || !json_array_size(gpus)) {
		inv_line(out, "gpus", "none");
		return;
	}
	json_array_foreach(gpus, i, g) {
		struct strbuf sb = STRBUF_INIT;
		char key[32];

		snprintf(key, sizeof(key), "gpu %lld", jpath_int(g, "index", (long long)i));
		strbuf_addstr(&sb, jstr(g, "name") ? jstr(g, "name") : "(name unknown)");
		if (json_is_integer(json_object_get(g, "memory_total_mb")))
			strbuf_addf(&sb, ", %lld MiB", jpath_int(g, "memory_total_mb", 0));
		if (jstr(g, "bus_id"))
			strbuf_addf(&sb, ", %s", jstr(g, "bus_id"));
		if (jstr(g, "compute_capability"))
			strbuf_addf(&sb, ", cc %s", jstr(g, "compute_capability"));
		if (json_is_integer(json_object_get(g, "numa_node")))
			strbuf_addf(&sb, ", NUMA %lld", jpath_int(g, "numa_node", -1));
		if (jpath_int(g, "nvlinks_up", 0) > 0)
			strbuf_addf(&sb, ", NVLink %lld up%s", jpath_int(g, "nvlinks_up", 0),
				    jpath_int(g, "nvlink_switch_links", 0) ? " (NVSwitch)" : "");
		inv_line(out, key, "%s", sb.buf);
		strbuf_release(&sb);
	}
}

static void inv_topology(FILE *out, const json_t *facts)
{
	const json_t *topo = json_object_get(facts, "topology"), *gn = json_object_get(topo, "gpu_nic");
	struct strbuf sb = STRBUF_INIT;
	long long last = -1;
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(topo, "gpu_gpu"), i, p) {
		char key[48];
		snprintf(key, sizeof(key), "gpu%lld <-> gpu%lld", jpath_int(p, "a", -1), jpath_int(p, "b", -1));
		inv_line(out, key, "%s", jstr(p, "level") ? jstr(p, "level") : "?");
	}
	if (junknown(gn) && json_array_size(json_object_get(facts, "gpus"))) {
		inv_line(out, "gpu <-> nic", "unknown (%s)", junknown(gn));
		return;
	}
	json_array_foreach(gn, i, p) {
		long long gi = jpath_int(p, "gpu", -1);
		if (gi != last && sb.len) {
			char key[32];
			snprintf(key, sizeof(key), "gpu%lld <-> nics", last);
			inv_line(out, key, "%s", sb.buf);
			strbuf_reset(&sb);
		}
		last = gi;
		strbuf_addf(&sb, "%s%s %s", sb.len ? ", " : "", jstr(p, "nic") ? jstr(p, "nic") : "?",
			    jstr(p, "level") ? jstr(p, "level") : "?");
	}
	if (sb.len) {
		char key[32];
		snprintf(key, sizeof(key), "gpu%lld <-> nics", last);
		inv_line(out, key, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void inv_toolkits(FILE *out, const json_t *facts)
{
	const json_t *tks = jpath(facts, "cuda.toolkits"), *nvcc = jpath(facts, "cuda.nvcc");
	size_t i;
	json_t *t;

	if (!json_array_size(tks))
		inv_line(out, "CUDA toolkits", "none found");
	json_array_foreach(tks, i, t) {
		const char *v = jstr(t, "version");
		inv_line(out, i ? "" : "CUDA toolkits", "%s at %s (%s)%s", v ? v : "unknown version",
			 jstr(t, "path"), jstr(t, "source") ? jstr(t, "source") : "no version file",
			 jpath_bool(t, "default", 0) ? ", nvcc on PATH" : "");
	}
	if (json_is_true(json_object_get(nvcc, "found")) && !jstr(nvcc, "toolkit"))
		inv_line(out, "nvcc", "%s %s", jstr(nvcc, "path"), jstr(nvcc, "version") ? jstr(nvcc, "version") : "");
}

static void inv_cudnn(FILE *out, const json_t *facts)
{
	const json_t *arr = json_object_get(facts, "cudnn");
	size_t i;
	json_t *c;

	if (!json_is_array(arr))
		return;
	if (!json_array_size(arr))
		inv_line(out, "cuDNN", "none found");
	json_array_foreach(arr, i, c) {
		const char *v = jstr(c, "version");
		inv_line(out, i ? "" : "cuDNN", "%s %s %s", v ? v : "unknown version",
			 !strcmp(jstr(c, "source") ? jstr(c, "source") : "", "header") ? "header" : "library",
			 jstr(c, "path") ? jstr(c, "path") : "?");
	}
}

void inv_gpu(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	const json_t *facts = m->facts;

	inv_heading(out, o, "GPU and CUDA");
	inv_driver(out, json_object_get(facts, "driver"));
	inv_gpus(out, facts);
	inv_topology(out, facts);
	inv_toolkits(out, facts);
	inv_cudnn(out, facts);
}
