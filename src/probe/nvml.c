/*
 * NVIDIA driver and GPU facts. NVML (and libcuda's version calls, see cuda.c) are dlopen()ed in a
 * forked child with a deadline, because a wedged driver can hang nvmlInit for minutes and a
 * mismatched one can crash it; the parent only parses the child's JSON answer. The kernel module's
 * /proc/driver/nvidia/version (under the injectable proc root) is read directly as the fallback
 * and as the referee when user-space libraries and kernel module disagree.
 */
#include "probe/probe.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probe/gpu.h"
#include "probe/nvml_abi.h"
#include "util/file.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/version.h"
#include "util/xalloc.h"

/* Generous: nvmlInit and cuInit on an 8-GPU node without persistence mode take seconds. */
#define GPU_ANSWER_CAP (1 << 20)

/* ---- parsers (pure) ---- */

static int is_version_token(const char *s, size_t n)
{
	int dots = 0;

	if (!n || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (s[i + 1] == '.')
				return 0;
			dots++;
		} else if (!isdigit((unsigned char)s[i])) {
			return 0;
		}
	}
	return dots >= 1;
}

int nvidia_proc_version_parse(const char *text, char *ver, size_t len, int *open_module)
{
	const char *line = strstr(text, "NVRM version:"), *p, *eol;

	if (!line || !len)
		return -1;
	eol = strchr(line, '\n');
	if (!eol)
		eol = line + strlen(line);
	*open_module = 0;
	for (p = line; p + 18 <= eol; p++)
		if (!strncmp(p, "Open Kernel Module", 18))
			*open_module = 1;
	/* the version is the first whitespace-separated token made only of digits and dots */
	p = line + strlen("NVRM version:");
	while (p < eol) {
		size_t n;

		while (p < eol && isspace((unsigned char)*p))
			p++;
		n = 0;
		while (p + n < eol && !isspace((unsigned char)p[n]))
			n++;
		if (is_version_token(p, n) && n < len) {
			memcpy(ver, p, n);
			ver[n] = '\0';
			return 0;
		}
		p += n;
	}
	return -1;
}

int soname_version(const char *path, const char *prefix, int min_parts, char *out, size_t len)
{
	const char *base = strrchr(path, '/'), *v;
	size_t pl = strlen(prefix), n;
	int parts = 1;

	base = base ? base + 1 : path;
	if (strncmp(base, prefix, pl))
		return -1;
	v = base + pl;
	n = strlen(v);
	if (!is_version_token(v, n) && !(n && strspn(v, "0123456789") == n))
		return -1;
	for (size_t i = 0; i < n; i++)
		parts += v[i] == '.';
	if (parts < min_parts || n >= len)
		return -1;
	memcpy(out, v, n + 1);
	return 0;
}

static int hexfield(const char **p, char stop, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!isxdigit((unsigned char)**p))
		return -1;
	v = strtoul(*p, &end, 16);
	if (end - *p > 8 || v > max || (stop && *end != stop) || (!stop && *end))
		return -1;
	*out = v;
	*p = stop ? end + 1 : end;
	return 0;
}

int pci_busid_normalize(const char *in, char *out, size_t len)
{
	unsigned long dom = 0, bus, dev, fn;
	const char *p = in;
	int colons = 0;

	for (const char *c = in; *c; c++)
		colons += *c == ':';
	if (colons == 2 && hexfield(&p, ':', 0xffffffffUL, &dom) < 0)
		return -1;
	if (colons < 1 || colons > 2 || hexfield(&p, ':', 0xff, &bus) < 0 ||
	    hexfield(&p, '.', 0x1f, &dev) < 0 || hexfield(&p, 0, 0x7, &fn) < 0)
		return -1;
	if ((size_t)snprintf(out, len, "%04lx:%02lx:%02lx.%lx", dom, bus, dev, fn) >= len)
		return -1;
	return 0;
}

const char *nvml_error_name(int rc)
{
	static const struct { int rc; const char *name; } names[] = {
		{ NVML_SUCCESS, "NVML_SUCCESS" },
		{ NVML_ERROR_UNINITIALIZED, "NVML_ERROR_UNINITIALIZED" },
		{ NVML_ERROR_INVALID_ARGUMENT, "NVML_ERROR_INVALID_ARGUMENT" },
		{ NVML_ERROR_NOT_SUPPORTED, "NVML_ERROR_NOT_SUPPORTED" },
		{ NVML_ERROR_NO_PERMISSION, "NVML_ERROR_NO_PERMISSION" },
		{ NVML_ERROR_ALREADY_INITIALIZED, "NVML_ERROR_ALREADY_INITIALIZED" },
		{ NVML_ERROR_NOT_FOUND, "NVML_ERROR_NOT_FOUND" },
		{ NVML_ERROR_INSUFFICIENT_SIZE, "NVML_ERROR_INSUFFICIENT_SIZE" },
		{ NVML_ERROR_INSUFFICIENT_POWER, "NVML_ERROR_INSUFFICIENT_POWER" },
		{ NVML_ERROR_DRIVER_NOT_LOADED, "NVML_ERROR_DRIVER_NOT_LOADED" },
		{ NVML_ERROR_TIMEOUT, "NVML_ERROR_TIMEOUT" },
		{ NVML_ERROR_IRQ_ISSUE, "NVML_ERROR_IRQ_ISSUE" },
		{ NVML_ERROR_LIBRARY_NOT_FOUND, "NVML_ERROR_LIBRARY_NOT_FOUND" },
		{ NVML_ERROR_FUNCTION_NOT_FOUND, "NVML_ERROR_FUNCTION_NOT_FOUND" },
		{ NVML_ERROR_CORRUPTED_INFOROM, "NVML_ERROR_CORRUPTED_INFOROM" },
		{ NVML_ERROR_GPU_IS_LOST, "NVML_ERROR_GPU_IS_LOST" },
		{ NVML_ERROR_RESET_REQUIRED, "NVML_ERROR_RESET_REQUIRED" },
		{ NVML_ERROR_OPERATING_SYSTEM, "NVML_ERROR_OPERATING_SYSTEM" },
		{ NVML_ERROR_LIB_RM_VERSION_MISMATCH, "NVML_ERROR_LIB_RM_VERSION_MISMATCH" },
		{ NVML_ERROR_IN_USE, "NVML_ERROR_IN_USE" },
		{ NVML_ERROR_MEMORY, "NVML_ERROR_MEMORY" },
		{ NVML_ERROR_NO_DATA, "NVML_ERROR_NO_DATA" },
		{ NVML_ERROR_INSUFFICIENT_RESOURCES, "NVML_ERROR_INSUFFICIENT_RESOURCES" },
		{ NVML_ERROR_ARGUMENT_VERSION_MISMATCH, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH" },
		{ NVML_ERROR_NOT_READY, "NVML_ERROR_NOT_READY" },
		{ NVML_ERROR_GPU_NOT_FOUND, "NVML_ERROR_GPU_NOT_FOUND" },
		{ NVML_ERROR_UNKNOWN, "NVML_ERROR_UNKNOWN" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].rc == rc)
			return names[i].name;
	return "NVML_ERROR_(unlisted)";
}

const char *nvml_error_hint(int rc)
{
	switch (rc) {
	case NVML_ERROR_DRIVER_NOT_LOADED:
		return "the NVIDIA kernel module is not loaded";
	case NVML_ERROR_LIB_RM_VERSION_MISMATCH:
		return "the NVIDIA user-space libraries and the loaded kernel module are different "
		       "driver versions (a driver update without a reboot)";
	case NVML_ERROR_NO_PERMISSION:
		return "this user may not open /dev/nvidia*";
	case NVML_ERROR_GPU_IS_LOST:
		return "a GPU fell off the bus and needs a reset or a reboot";
	case NVML_ERROR_RESET_REQUIRED:
		return "a GPU needs a reset (nvidia-smi -r) or a reboot";
	case NVML_ERROR_IRQ_ISSUE:
		return "the kernel driver reports an interrupt problem (see dmesg)";
	default:
		return NULL;
	}
}

/* ---- the parent's side ---- */

static void set_cuda_version(json_t *o, const char *key, int code)
{
	char buf[32];

	version_cuda_code_str(code, buf, sizeof(buf));
	jset_str(o, key, buf);
}

static const char *str_field(const json_t *o, const char *key, size_t max)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s && strlen(s) <= max ? s : NULL;
}

static int int_field(const json_t *o, const char *key, long long lo, long long hi, long long *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return -1;
	*out = json_integer_value(v);
	return 0;
}

static const char *pci_level_name(long long level)
{
	switch (level) {
	case NVML_TOPOLOGY_INTERNAL:
	case NVML_TOPOLOGY_SINGLE:
		return "PIX";
	case NVML_TOPOLOGY_MULTIPLE:
		return "PXB";
	case NVML_TOPOLOGY_HOSTBRIDGE:
		return "PHB";
	case NVML_TOPOLOGY_NODE:
		return "NODE";
	case NVML_TOPOLOGY_SYSTEM:
		return "SYS";
	default:
		return NULL;
	}
}

/* A required GPU field: the value, or an unknown marker with NVML's own error. */
static void gpu_unknown(json_t *g, const json_t *errs, const char *key)
{
	const char *why = str_field(errs, key, 200);
	jset_unknown(g, key, "NVML did not report it%s%s", why ? ": " : "", why ? why : "");
}

static json_t *gpu_fact(const json_t *a)
{
	json_t *g = json_object(), *errs = json_object_get(a, "errors");
	char bus[32];
	const char *s;
	long long v, mj, mn;

	if (int_field(a, "index", 0, 4096, &v) == 0)
		jset_int(g, "index", v);
	if ((s = str_field(a, "handle_error", 200))) {
		jset_unknown(g, "name", "nvmlDeviceGetHandleByIndex failed: %s", s);
		return g;
	}
	if ((s = str_field(a, "name", 96)))
		jset_str(g, "name", s);
	else
		gpu_unknown(g, errs, "name");
	if ((s = str_field(a, "uuid", 96)))
		jset_str(g, "uuid", s);
	if ((s = str_field(a, "bus_id", 32)) && pci_busid_normalize(s, bus, sizeof(bus)) == 0)
		jset_str(g, "bus_id", bus);
	else
		gpu_unknown(g, errs, "bus_id");
	if (int_field(a, "memory_total_mb", 0, 1LL << 40, &v) == 0)
		jset_int(g, "memory_total_mb", v);
	else
		gpu_unknown(g, errs, "memory_total_mb");
	if (int_field(a, "cc_major", 0, 99, &mj) == 0 && int_field(a, "cc_minor", 0, 99, &mn) == 0)
		jset_fmt(g, "compute_capability", "%lld.%lld", mj, mn);
	else
		gpu_unknown(g, errs, "compute_capability");
	if (int_field(a, "numa_node", 0, 4095, &v) == 0)
		jset_int(g, "numa_node", v);
	if (int_field(a, "nvlinks_up", 0, NVML_NVLINK_MAX_LINKS, &v) == 0)
		jset_int(g, "nvlinks_up", v);
	return g;
}

/* Is `bus` (normalised) one of the GPUs' bus ids? */
static int is_gpu_bus(const json_t *gpus, const char *bus)
{
	size_t i;
	json_t *g;

	json_array_foreach(gpus, i, g) {
		const char *b = json_string_value(json_object_get(g, "bus_id"));
		if (b && !strcmp(b, bus))
			return 1;
	}
	return 0;
}

/*
 * nvlink_peers {bus_id: links} and nvlink_switch_links: NCCL and nvidia-smi call a pair NV<n>
 * with n the direct links between them, or, through NVSwitch, the links each has to the fabric.
 */
static void gpu_links(json_t *g, const json_t *a, const json_t *gpus)
{
	json_t *peers = json_object(), *lk;
	long long sw = 0;
	size_t i;

	json_array_foreach(json_object_get(a, "links"), i, lk) {
		const char *rb = str_field(lk, "remote_bus_id", 32);
		char bus[32];
		long long type = -1, n;

		if (i >= NVML_NVLINK_MAX_LINKS)
			break;
		int_field(lk, "remote_type", 0, 255, &type);
		if (type == NVML_NVLINK_DEVICE_TYPE_SWITCH) {
			sw++;
			continue;
		}
		if (!rb || pci_busid_normalize(rb, bus, sizeof(bus)) < 0)
			continue;
		/*
		 * Drivers without nvmlDeviceGetNvLinkRemoteDeviceType cannot say what is at the far
		 * end: one of our GPUs' bus ids means a GPU, anything else is an NVSwitch (IBM's NPUs
		 * are long gone).
		 */
		if (type < 0 && !is_gpu_bus(gpus, bus)) {
			sw++;
			continue;
		}
		/* not jpath: bus ids contain dots */
		n = json_integer_value(json_object_get(peers, bus));
		jset_int(peers, bus, n + 1);
	}
	json_object_set_new(g, "nvlink_peers", peers);
	jset_int(g, "nvlink_switch_links", sw);
}

static json_t *gpu_pairs(const json_t *pairs, const json_t *gpus)
{
	json_t *out = json_array(), *p;
	size_t i, n = json_array_size(gpus);

	json_array_foreach(pairs, i, p) {
		long long a, b, level, direct = 0, swa, swb, nv;
		const char *lname;
		const char *busb;
		json_t *ga, *gb, *q;

		if (int_field(p, "a", 0, (long long)n - 1, &a) < 0 ||
		    int_field(p, "b", 0, (long long)n - 1, &b) < 0 || a == b ||
		    int_field(p, "level", 0, 1000, &level) < 0 || !(lname = pci_level_name(level)))
			continue;
		ga = json_array_get(gpus, (size_t)a);
		gb = json_array_get(gpus, (size_t)b);
		busb = json_string_value(json_object_get(gb, "bus_id"));
		if (busb)
			direct = json_integer_value(json_object_get(json_object_get(ga, "nvlink_peers"), busb));
		swa = jpath_int(ga, "nvlink_switch_links", 0);
		swb = jpath_int(gb, "nvlink_switch_links", 0);
		nv = direct ? direct : (swa && swb ? (swa < swb ? swa : swb) : 0);
		q = json_object();
		jset_int(q, "a", a);
		jset_int(q, "b", b);
		jset_str(q, "pci_level", lname);
		jset_int(q, "nvlinks", nv);
		if (nv)
			jset_fmt(q, "level", "NV%lld", nv);
		else
			jset_str(q, "level", lname);
		jset_str(q, "via", direct ? "nvlink" : nv ? "nvswitch" : "pci");
		json_array_append_new(out, q);
	}
	return out;
}

static void merge_cuda(json_t *driver, const json_t *c)
{
	json_t *cd = json_object();
	const char *s;
	long long v;
	char ver[32];

	if ((s = str_field(c, "load_error", 400))) {
		jset_str(cd, "status", "not_found");
		jset_str(cd, "error", s);
		json_object_set_new(driver, "cuda_driver", cd);
		return;
	}
	if ((s = str_field(c, "library", PATH_MAX)))
		jset_str(cd, "library", s);
	if ((s = str_field(c, "library_real", PATH_MAX))) {
		jset_str(cd, "library_real", s);
		if (soname_version(s, "libcuda.so.", 2, ver, sizeof(ver)) == 0)
			jset_str(cd, "library_version", ver);
	}
	if (int_field(c, "version_code", 1000, 1000000, &v) == 0) {
		set_cuda_version(cd, "version", (int)v);
		jset_int(cd, "version_code", v);
		jset_str(cd, "status", "ok");
	} else {
		jset_str(cd, "status", "failed");
		if (int_field(c, "version_rc", INT_MIN, INT_MAX, &v) == 0) {
			jset_str(cd, "error", cuda_error_name((int)v));
			jset_int(cd, "error_code", v);
			if (cuda_error_hint((int)v))
				jset_str(cd, "hint", cuda_error_hint((int)v));
		}
	}
	json_object_set_new(driver, "cuda_driver", cd);
}

static void merge_cuda_init(json_t *driver, const json_t *c)
{
	json_t *cd = jobj_child(driver, "cuda_driver");
	long long rc, n;

	if (int_field(c, "init_rc", INT_MIN, INT_MAX, &rc) < 0)
		return;
	jset_str(cd, "init", cuda_error_name((int)rc));
	if (rc != 0 && cuda_error_hint((int)rc))
		jset_str(cd, "init_hint", cuda_error_hint((int)rc));
	if (int_field(c, "device_count", 0, 4096, &n) == 0)
		jset_int(cd, "device_count", n);
}

/* NVML's answer into driver.nvml, gpus and topology.gpu_gpu. */
static void merge_nvml(json_t *facts, json_t *driver, const json_t *a)
{
	json_t *nv = json_object(), *gpus, *g;
	const char *s;
	long long v;
	size_t i;
	char ver[32];

	if ((s = str_field(a, "library", PATH_MAX)))
		jset_str(nv, "library", s);
	if ((s = str_field(a, "library_real", PATH_MAX)) &&
	    soname_version(s, "libnvidia-ml.so.", 2, ver, sizeof(ver)) == 0)
		jset_str(nv, "library_version", ver);
	if ((s = str_field(a, "load_error", 400))) {
		jset_str(nv, "status", "not_found");
		jset_str(nv, "error", s);
		json_object_set_new(driver, "nvml", nv);
		return;
	}
	if (int_field(a, "init", INT_MIN, INT_MAX, &v) == 0 && v != 0) {
		jset_str(nv, "status", "init_failed");
		jset_int(nv, "error_code", v);
		jset_str(nv, "error_name", nvml_error_name((int)v));
		jset_str(nv, "error", (s = str_field(a, "init_error", 200)) ? s : nvml_error_name((int)v));
		if (nvml_error_hint((int)v))
			jset_str(nv, "hint", nvml_error_hint((int)v));
		json_object_set_new(driver, "nvml", nv);
		return;
	}
	if (int_field(a, "init", 0, 0, &v) < 0) {
		jset_str(nv, "status", "failed");
		jset_str(nv, "error", "the NVML answer was cut short");
		json_object_set_new(driver, "nvml", nv);
		return;
	}
	jset_str(nv, "status", "ok");
	if ((s = str_field(a, "driver_version", 79)))
		jset_str(nv, "driver_version", s);
	if ((s = str_field(a, "nvml_version", 79)))
		jset_str(nv, "version", s);
	if (int_field(a, "cuda_version", 1000, 1000000, &v) == 0) {
		jset_int(nv, "cuda_version_code", v);
		set_cuda_version(nv, "cuda_version", (int)v);
		if ((s = str_field(a, "cuda_version_fn", 64)))
			jset_str(nv, "cuda_version_source", s);
	} else if ((s = str_field(a, "cuda_version_error", 200))) {
		jset_str(nv, "cuda_version_error", s);
	}
	json_object_set_new(driver, "nvml", nv);

	if ((s = str_field(a, "count_error", 200))) {
		jset_unknown(facts, "gpus", "NVML could not count the GPUs: %s", s);
		return;
	}
	gpus = json_array();
	json_array_foreach(json_object_get(a, "gpus"), i, g) {
		if (i >= 4096)
			break;
		json_array_append_new(gpus, gpu_fact(g));
	}
	/* links need every GPU's bus id first */
	json_array_foreach(json_object_get(a, "gpus"), i, g) {
		json_t *f = json_array_get(gpus, i);
		if (f && json_object_get(g, "links"))
			gpu_links(f, g, gpus);
	}
	json_object_set_new(facts, "gpus", gpus);
	if (json_is_array(json_object_get(a, "pairs"))) {
		json_t *topo = jobj_child(facts, "topology");
		json_object_set_new(topo, "gpu_gpu", gpu_pairs(json_object_get(a, "pairs"), gpus));
		jset_str(topo, "gpu_gpu_source", "nvml");
	}
}

/*
 * Is there a driver? The kernel module is the ground truth; NVML answering proves it too. Only
 * when both say no (or NVML says "driver not loaded") is it absent; a hung or crashed child
 * without /proc evidence leaves it unknown.
 */
static void decide_driver(json_t *facts, json_t *driver, const json_t *kmod, const char *fate)
{
	const json_t *nv = json_object_get(driver, "nvml"), *cd = json_object_get(driver, "cuda_driver");
	const char *nst = json_string_value(json_object_get(nv, "status"));
	const char *kver = json_string_value(json_object_get(kmod, "version"));
	const char *nver = json_string_value(json_object_get(nv, "driver_version"));
	long long code = jpath_int(nv, "error_code", 0);
	int nvml_ok = nst && !strcmp(nst, "ok");

	if (nvml_ok || jpath_bool(kmod, "loaded", 0) || (nst && !strcmp(nst, "init_failed") && code != NVML_ERROR_DRIVER_NOT_LOADED)) {
		jset_bool(driver, "present", 1);
	} else if (fate && (!nst || !strcmp(nst, "failed"))) {
		jset_unknown(driver, "present", "the NVML probe %s before it answered", fate);
	} else {
		/* whole sentences (msgids): the kernel module is not loaded on this branch */
		const char *why = nst && !strcmp(nst, "not_found") ?
			N_("no NVIDIA driver: the kernel module is not loaded and libnvidia-ml.so.1 is "
			   "not installed") :
			nst && !strcmp(nst, "init_failed") ?
			N_("no NVIDIA driver: the kernel module is not loaded (NVML: driver not loaded)") :
			N_("no NVIDIA driver: the kernel module is not loaded");

		jset_bool(driver, "present", 0);
		jset_str(driver, "reason", why);
		if (!json_object_get(facts, "gpus"))
			json_object_set_new(facts, "gpus", json_array());
	}
	if (nver) {
		jset_str(driver, "version", nver);
		jset_str(driver, "source", "nvml");
	} else if (kver) {
		jset_str(driver, "version", kver);
		jset_str(driver, "source", json_string_value(json_object_get(kmod, "source")));
	} else if (jpath_bool(driver, "present", 0)) {
		jset_unknown(driver, "version", "NVML failed (%s) and the kernel module's version file "
			     "is not readable", nst ? nst : "no answer");
	}
	if (json_is_integer(json_object_get(nv, "cuda_version_code"))) {
		jset_int(driver, "cuda_max_code", jpath_int(nv, "cuda_version_code", 0));
		jset_str(driver, "cuda_max", jpath_str(nv, "cuda_version"));
		jset_str(driver, "cuda_max_source", "nvml");
	} else if (json_is_integer(json_object_get(cd, "version_code"))) {
		jset_int(driver, "cuda_max_code", jpath_int(cd, "version_code", 0));
		jset_str(driver, "cuda_max", jpath_str(cd, "version"));
		jset_str(driver, "cuda_max_source", "cuDriverGetVersion");
	}
	if (!json_object_get(facts, "gpus")) {
		const char *err = json_string_value(json_object_get(nv, "error"));
		jset_unknown(facts, "gpus", "NVML %s%s%s", nst ? "failed" : (fate ? fate : "did not answer"),
			     err ? ": " : "", err ? err : "");
	}
}

void nvml_answer_merge(json_t *facts, const char *answer, size_t n, const json_t *kmod,
		       const char *child_fate)
{
	json_t *driver = json_object();
	const char *p = answer, *end = answer + n;
	int seen_nvml = 0;

	if (kmod)
		json_object_set(driver, "kernel_module", (json_t *)kmod);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		json_t *part = json_loadb(p, len, JSON_REJECT_DUPLICATES, NULL);
		const char *kind = json_string_value(json_object_get(part, "part"));

		if (json_is_object(part) && kind) {
			if (!strcmp(kind, "cuda"))
				merge_cuda(driver, part);
			else if (!strcmp(kind, "cuda_init"))
				merge_cuda_init(driver, part);
			else if (!strcmp(kind, "nvml") && !seen_nvml) {
				seen_nvml = 1;
				merge_nvml(facts, driver, part);
			}
		}
		json_decref(part);
		p += len + 1;
	}
	if (!seen_nvml && child_fate) {
		json_t *nv = json_object();
		jset_str(nv, "status", "failed");
		jset_fmt(nv, "error", "the NVML probe %s", child_fate);
		json_object_set_new(driver, "nvml", nv);
	}
	decide_driver(facts, driver, kmod, child_fate);
	json_object_set_new(facts, "driver", driver);
}

/* What the kernel module says about itself, or {"loaded": false} when it is not loaded. */
static json_t *read_kernel_module(const struct probe_ctx *ctx)
{
	char *path = probe_proc_path(ctx, "driver/nvidia/version");
	struct strbuf sb = STRBUF_INIT;
	json_t *k = json_object();
	char ver[64];
	int open_mod = 0;

	jset_str(k, "source", path);
	if (file_read(path, &sb, 16 * 1024, NULL) < 0) {
		jset_bool(k, "loaded", 0);
	} else if (nvidia_proc_version_parse(sb.buf, ver, sizeof(ver), &open_mod) == 0) {
		jset_bool(k, "loaded", 1);
		jset_str(k, "version", ver);
		jset_str(k, "flavor", open_mod ? "open" : "proprietary");
	} else {
		/* the module is there (the file is), but it does not say which version it is */
		jset_bool(k, "loaded", 1);
		jset_unknown(k, "version", "'%s' has no 'NVRM version:' line with a version", path);
	}
	free(path);
	strbuf_release(&sb);
	return k;
}

void probe_nvml(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *kmod = read_kernel_module(ctx);
	struct subproc_result r;
	struct err e = ERR_INIT;
	char fate[ERR_MSG_LEN + 64] = "";

	subproc_result_init(&r);
	if (subproc_fork(gpu_child_run, (void *)ctx, ctx->gpu_timeout_ms, GPU_ANSWER_CAP, &r, &e) < 0)
		snprintf(fate, sizeof(fate), "could not start: %s", e.msg);
	else if (r.timed_out)
		snprintf(fate, sizeof(fate), "hung and was stopped after %ld ms", r.elapsed_ms);
	else if (!r.exited)
		snprintf(fate, sizeof(fate), "crashed (signal %d)", r.status);
	else if (r.status != 0) /* a sanitizer or the library itself bailed out */
		snprintf(fate, sizeof(fate), "exited with status %d", r.status);
	nvml_answer_merge(facts, r.out.buf, r.out.len, kmod, fate[0] ? fate : NULL);
	if (fate[0])
		jset_str(json_object_get(facts, "driver"), "probe_error", fate);
	json_decref(kmod);
	subproc_result_release(&r);
}
