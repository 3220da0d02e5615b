/*
 * The isolated side of the GPU probe: what runs in the subproc_fork() child that dlopen()s NVML
 * and libcuda (nvml.c starts it and parses its answer). Each part of the answer is one JSON line
 * written as soon as it is known, so a hang or crash later still leaves the earlier parts.
 */
#include "probe/probe.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/gpu.h"
#include "probe/nvml_abi.h"
#include "util/dl.h"
#include "util/json.h"
#include "util/xalloc.h"

/* ---- the child's side: runs in a subproc_fork() child ---- */

static void *sym_first(void *h, const char *a, const char *b, const char **used)
{
	void *f = dlsym(h, a);

	*used = a;
	if (!f && b) {
		f = dlsym(h, b);
		*used = b;
	}
	return f;
}

static const char *nvml_err_text(nvml_error_string_fn es, nvmlReturn_t rc)
{
	const char *s = es ? es(rc) : NULL;
	return s && *s ? s : nvml_error_name(rc);
}

static void child_pci(void *h, nvmlDevice_t d, json_t *g, json_t *errs, nvml_error_string_fn es)
{
	const char *used;
	nvml_dev_pci_fn fn = (nvml_dev_pci_fn)sym_first(h, "nvmlDeviceGetPciInfo_v3",
							  "nvmlDeviceGetPciInfo_v2", &used);
	nvmlPciInfo_t pci;
	nvmlReturn_t rc;

	if (!fn) {
		jset_str(errs, "bus_id", "nvmlDeviceGetPciInfo_v3 and _v2 are missing");
		return;
	}
	memset(&pci, 0, sizeof(pci));
	rc = fn(d, &pci);
	pci.busId[sizeof(pci.busId) - 1] = '\0';
	if (rc == NVML_SUCCESS)
		jset_str(g, "bus_id", pci.busId);
	else
		jset_str(errs, "bus_id", nvml_err_text(es, rc));
}

static void child_nvlinks(void *h, nvmlDevice_t d, json_t *g)
{
	nvml_link_state_fn state = (nvml_link_state_fn)dlsym(h, "nvmlDeviceGetNvLinkState");
	nvml_link_pci_fn rpci = (nvml_link_pci_fn)dlsym(h, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
	nvml_link_type_fn rtype = (nvml_link_type_fn)dlsym(h, "nvmlDeviceGetNvLinkRemoteDeviceType");
	json_t *links = json_array();
	int up = 0;

	if (!state) {
		json_decref(links);
		return;
	}
	/* Never stop at the first failing link: NCCL's topology code skips and carries on too. */
	for (unsigned l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
		int st = 0, type = -1;
		nvmlPciInfo_t pci;
		json_t *lk;

		if (state(d, l, &st) != NVML_SUCCESS || st != NVML_FEATURE_ENABLED)
			continue;
		up++;
		lk = json_object();
		jset_int(lk, "link", l);
		memset(&pci, 0, sizeof(pci));
		if (rpci && rpci(d, l, &pci) == NVML_SUCCESS) {
			pci.busId[sizeof(pci.busId) - 1] = '\0';
			jset_str(lk, "remote_bus_id", pci.busId);
		}
		if (rtype && rtype(d, l, &type) == NVML_SUCCESS)
			jset_int(lk, "remote_type", type);
		json_array_append_new(links, lk);
	}
	jset_int(g, "nvlinks_up", up);
	json_object_set_new(g, "links", links);
}

static json_t *child_gpu(void *h, nvmlDevice_t d, unsigned idx, nvml_error_string_fn es)
{
	nvml_dev_string_fn name = (nvml_dev_string_fn)dlsym(h, "nvmlDeviceGetName");
	nvml_dev_string_fn uuid = (nvml_dev_string_fn)dlsym(h, "nvmlDeviceGetUUID");
	nvml_dev_memory_fn mem = (nvml_dev_memory_fn)dlsym(h, "nvmlDeviceGetMemoryInfo");
	nvml_dev_cc_fn cc = (nvml_dev_cc_fn)dlsym(h, "nvmlDeviceGetCudaComputeCapability");
	nvml_dev_uint_fn numa = (nvml_dev_uint_fn)dlsym(h, "nvmlDeviceGetNumaNodeId");
	json_t *g = json_object(), *errs = json_object();
	char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
	nvmlReturn_t rc;

	jset_int(g, "index", idx);
	if (name && (rc = name(d, buf, sizeof(buf))) == NVML_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		jset_str(g, "name", buf);
	} else {
		jset_str(errs, "name", name ? nvml_err_text(es, rc) : "nvmlDeviceGetName is missing");
	}
	if (uuid && (rc = uuid(d, buf, sizeof(buf))) == NVML_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		jset_str(g, "uuid", buf);
	}
	child_pci(h, d, g, errs, es);
	if (mem) {
		nvmlMemory_t m;
		memset(&m, 0, sizeof(m));
		if ((rc = mem(d, &m)) == NVML_SUCCESS)
			jset_int(g, "memory_total_mb", (long long)(m.total >> 20));
		else
			jset_str(errs, "memory_total_mb", nvml_err_text(es, rc));
	}
	if (cc) {
		int maj = 0, min = 0;
		if ((rc = cc(d, &maj, &min)) == NVML_SUCCESS) {
			jset_int(g, "cc_major", maj);
			jset_int(g, "cc_minor", min);
		} else {
			jset_str(errs, "compute_capability", nvml_err_text(es, rc));
		}
	}
	/* NUMA affinity is a newer call: a missing symbol or NOT_SUPPORTED just leaves it out. */
	if (numa) {
		unsigned n = 0;
		if (numa(d, &n) == NVML_SUCCESS)
			jset_int(g, "numa_node", n);
	}
	child_nvlinks(h, d, g);
	if (json_object_size(errs))
		json_object_set_new(g, "errors", errs);
	else
		json_decref(errs);
	return g;
}

void nvml_child_query(const char *lib, json_t *out)
{
	static const char *const names[] = { "libnvidia-ml.so.1", NULL };
	struct err e = ERR_INIT;
	nvml_error_string_fn es;
	nvml_init_fn init;
	nvml_get_string_fn gs;
	nvml_get_int_fn gi;
	nvml_count_fn count;
	nvml_handle_by_index_fn byidx;
	nvml_dev_topo_fn topo;
	nvml_shutdown_fn fini;
	const char *used;
	char path[PATH_MAX], real[PATH_MAX], buf[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
	nvmlDevice_t devs[64];
	unsigned n = 0;
	nvmlReturn_t rc;
	void *h;
	int v;

	jset_str(out, "part", "nvml");
	h = dl_open_first(lib, "NCCLCHECK_NVML_LIB", names, &e);
	if (!h) {
		jset_str(out, "load_error", e.msg);
		return;
	}
	if (dl_path(h, path, sizeof(path)) == 0) {
		jset_str(out, "library", path);
		if (realpath(path, real))
			jset_str(out, "library_real", real);
	}
	es = (nvml_error_string_fn)dlsym(h, "nvmlErrorString");
	init = (nvml_init_fn)sym_first(h, "nvmlInit_v2", "nvmlInit", &used);
	if (!init) {
		jset_str(out, "load_error", "the library exports neither nvmlInit_v2 nor nvmlInit");
		return;
	}
	rc = init();
	jset_int(out, "init", rc);
	if (rc != NVML_SUCCESS) {
		jset_str(out, "init_error", nvml_err_text(es, rc));
		return;
	}
	gs = (nvml_get_string_fn)dlsym(h, "nvmlSystemGetDriverVersion");
	if (gs && gs(buf, sizeof(buf)) == NVML_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		jset_str(out, "driver_version", buf);
	}
	gs = (nvml_get_string_fn)dlsym(h, "nvmlSystemGetNVMLVersion");
	if (gs && gs(buf, sizeof(buf)) == NVML_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		jset_str(out, "nvml_version", buf);
	}
	/* _v2 asks libcuda itself; the plain call (older drivers) answers from the kernel driver. */
	gi = (nvml_get_int_fn)sym_first(h, "nvmlSystemGetCudaDriverVersion_v2",
					"nvmlSystemGetCudaDriverVersion", &used);
	if (gi) {
		rc = gi(&v);
		if (rc == NVML_SUCCESS) {
			jset_int(out, "cuda_version", v);
			jset_str(out, "cuda_version_fn", used);
		} else {
			jset_str(out, "cuda_version_error", nvml_err_text(es, rc));
		}
	}
	count = (nvml_count_fn)sym_first(h, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount", &used);
	byidx = (nvml_handle_by_index_fn)sym_first(h, "nvmlDeviceGetHandleByIndex_v2",
						   "nvmlDeviceGetHandleByIndex", &used);
	if (!count || !byidx) {
		jset_str(out, "count_error", "nvmlDeviceGetCount or nvmlDeviceGetHandleByIndex is missing");
	} else if ((rc = count(&n)) != NVML_SUCCESS) {
		jset_str(out, "count_error", nvml_err_text(es, rc));
		n = 0;
	} else {
		json_t *gpus = json_array();
		unsigned got = 0;

		jset_int(out, "count", n);
		for (unsigned i = 0; i < n && got < ARRAY_SIZE(devs); i++) {
			nvmlDevice_t d = NULL;
			rc = byidx(i, &d);
			if (rc != NVML_SUCCESS) {
				json_t *g = json_object();
				jset_int(g, "index", i);
				jset_str(g, "handle_error", nvml_err_text(es, rc));
				json_array_append_new(gpus, g);
				continue;
			}
			devs[got++] = d;
			json_array_append_new(gpus, child_gpu(h, d, i, es));
		}
		json_object_set_new(out, "gpus", gpus);
		topo = (nvml_dev_topo_fn)dlsym(h, "nvmlDeviceGetTopologyCommonAncestor");
		if (topo && got == n) {
			json_t *pairs = json_array();
			for (unsigned a = 0; a < got; a++)
				for (unsigned b = a + 1; b < got; b++) {
					int level = -1;
					json_t *p;
					if (topo(devs[a], devs[b], &level) != NVML_SUCCESS)
						continue;
					p = json_object();
					jset_int(p, "a", a);
					jset_int(p, "b", b);
					jset_int(p, "level", level);
					json_array_append_new(pairs, p);
				}
			json_object_set_new(out, "pairs", pairs);
		}
	}
	fini = (nvml_shutdown_fn)dlsym(h, "nvmlShutdown");
	if (fini)
		fini();
}

/* Writes one JSON line to fd; the parent reads whatever lines arrived before a hang or crash. */
static void child_emit(int fd, json_t *part)
{
	char *s = json_dumps(part, JSON_COMPACT);
	size_t n, off = 0;

	json_decref(part);
	if (!s)
		return;
	n = strlen(s);
	s[n] = '\n'; /* replaces the NUL: we write n + 1 bytes and never read s as a string again */
	while (off < n + 1) {
		ssize_t w = write(fd, s + off, n + 1 - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(s);
}

int gpu_child_run(void *arg, int fd)
{
	const struct probe_ctx *ctx = arg;
	json_t *part;

	/* libcuda's version query needs no device and cannot hang: it goes first */
	part = json_object();
	cuda_child_query(ctx->cuda_lib, part);
	child_emit(fd, part);
	part = json_object();
	nvml_child_query(ctx->nvml_lib, part);
	child_emit(fd, part);
	part = json_object();
	cuda_child_init(ctx->cuda_lib, part);
	child_emit(fd, part);
	return 0;
}
