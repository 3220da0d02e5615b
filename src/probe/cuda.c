/*
 * CUDA facts: the driver API's own answer (cuDriverGetVersion, cuInit through a dlopen()ed
 * libcuda.so.1, run inside nvml.c's isolated child) as a second opinion next to NVML, and the
 * CUDA toolkits installed on the machine (nvcc on PATH, /usr/local/cuda*, $CUDA_HOME), each with
 * the version its own files state.
 */
#include "probe/probe.h"

#include <ctype.h>
#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/cuda_abi.h"
#include "probe/gpu.h"
#include "util/dl.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/version.h"
#include "util/xalloc.h"

#define NVCC_TIMEOUT_MS 5000
/* Default places toolkits live; NCCLCHECK_CUDA_SEARCH (colon-separated globs) replaces them. */
#define CUDA_SEARCH_DEFAULT "/usr/local/cuda:/usr/local/cuda-*:/opt/cuda:/opt/cuda-*"

/* ---- parsers (pure) ---- */

/* Copies a dotted version starting at p ("13.0", "12.4.1"); returns its length, 0 if none. */
static size_t copy_version(const char *p, char *out, size_t len)
{
	size_t n = 0;

	while (isdigit((unsigned char)p[n]) || (p[n] == '.' && isdigit((unsigned char)p[n + 1])))
		n++;
	if (!n || n >= len || !memchr(p, '.', n))
		return 0;
	memcpy(out, p, n);
	out[n] = '\0';
	return n;
}

int nvcc_version_parse(const char *text, char *release, size_t rlen, char *build, size_t blen)
{
	const char *p = strstr(text, "release ");

	if (!p || !copy_version(p + 8, release, rlen))
		return -1;
	if (blen)
		build[0] = '\0';
	p = strstr(p, ", V");
	if (p && blen)
		copy_version(p + 3, build, blen);
	return 0;
}

/*
 * Toolkits up to 11.x sometimes wrote a date as the third part ("11.8.20220929"); the update
 * number is what the driver table keys on, so a date-like part is dropped.
 */
static void drop_date_part(char *ver)
{
	char *last = strrchr(ver, '.');

	if (last && strchr(ver, '.') != last && strlen(last + 1) >= 4)
		*last = '\0';
}

int cuda_version_json_parse(const char *text, size_t n, char *ver, size_t len)
{
	json_t *doc = json_loadb(text, n, 0, NULL);
	const char *v = json_string_value(jpath(doc, "cuda.version"));
	int rc = -1;

	if (v && copy_version(v, ver, len)) {
		drop_date_part(ver);
		rc = 0;
	}
	json_decref(doc);
	return rc;
}

int cuda_version_txt_parse(const char *text, char *ver, size_t len)
{
	const char *p = strstr(text, "CUDA Version ");

	if (!p || !copy_version(p + 13, ver, len))
		return -1;
	return 0;
}

int cuda_header_version_parse(const char *text, int *code)
{
	const char *p = text;

	while ((p = strstr(p, "#define CUDA_VERSION")) != NULL) {
		char *end;
		long v;

		p += strlen("#define CUDA_VERSION");
		if (*p != ' ' && *p != '\t')
			continue;
		v = strtol(p, &end, 10);
		if (end != p && v >= 1000 && v < 1000000) {
			*code = (int)v;
			return 0;
		}
	}
	return -1;
}

const char *cuda_error_name(int rc)
{
	switch (rc) {
	case CUDA_SUCCESS: return "CUDA_SUCCESS";
	case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
	case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
	case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
	case CUDA_ERROR_STUB_LIBRARY: return "CUDA_ERROR_STUB_LIBRARY";
	case CUDA_ERROR_INSUFFICIENT_DRIVER: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
	case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
	case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
	case CUDA_ERROR_SYSTEM_NOT_READY: return "CUDA_ERROR_SYSTEM_NOT_READY";
	case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
	case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
	case CUDA_ERROR_UNKNOWN: return "CUDA_ERROR_UNKNOWN";
	default: return "CUDA_ERROR_(unlisted)";
	}
}

const char *cuda_error_hint(int rc)
{
	switch (rc) {
	case CUDA_ERROR_STUB_LIBRARY:
		return "libcuda.so.1 is the toolkit's stub (lib64/stubs), which only exists for linking; "
		       "remove the stubs directory from LD_LIBRARY_PATH";
	case CUDA_ERROR_NO_DEVICE:
		return "the driver sees no CUDA device (check CUDA_VISIBLE_DEVICES and that the "
		       "container was started with GPUs)";
	case CUDA_ERROR_INSUFFICIENT_DRIVER:
		return "the kernel driver is older than this libcuda needs";
	case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
		return "libcuda.so.1 (a forward-compatibility package?) does not match the kernel driver";
	case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
		return "CUDA forward compatibility is only supported on data-center GPUs";
	case CUDA_ERROR_SYSTEM_NOT_READY:
		return "the system is not ready for CUDA (on NVSwitch machines: nvidia-fabricmanager "
		       "is not running)";
	case CUDA_ERROR_UNKNOWN:
		return "often the nvidia_uvm kernel module is not loaded (sudo modprobe nvidia_uvm)";
	default:
		return NULL;
	}
}

/* ---- the isolated child's side (see nvml.c) ---- */

static void *open_libcuda(const char *lib, json_t *out)
{
	static const char *const names[] = { "libcuda.so.1", NULL };
	struct err e = ERR_INIT;
	char path[PATH_MAX], real[PATH_MAX];
	void *h = dl_open_first(lib, "NCCLCHECK_CUDA_LIB", names, &e);

	if (!h) {
		jset_str(out, "load_error", e.msg);
		return NULL;
	}
	if (dl_path(h, path, sizeof(path)) == 0) {
		jset_str(out, "library", path);
		if (realpath(path, real))
			jset_str(out, "library_real", real);
	}
	return h;
}

void cuda_child_query(const char *lib, json_t *out)
{
	cu_driver_get_version_fn ver;
	void *h;
	int v = 0;
	CUresult rc;

	jset_str(out, "part", "cuda");
	h = open_libcuda(lib, out);
	if (!h)
		return;
	ver = (cu_driver_get_version_fn)dlsym(h, "cuDriverGetVersion");
	if (!ver) {
		jset_str(out, "load_error", "symbol 'cuDriverGetVersion' missing from libcuda.so.1");
		return;
	}
	rc = ver(&v);
	if (rc == CUDA_SUCCESS)
		jset_int(out, "version_code", v);
	else
		jset_int(out, "version_rc", rc);
}

void cuda_child_init(const char *lib, json_t *out)
{
	json_t *scratch = json_object();
	cu_init_fn init;
	cu_device_get_count_fn count;
	void *h;
	int n = 0;
	CUresult rc;

	jset_str(out, "part", "cuda_init");
	h = open_libcuda(lib, scratch);
	json_decref(scratch);
	if (!h)
		return;
	init = (cu_init_fn)dlsym(h, "cuInit");
	count = (cu_device_get_count_fn)dlsym(h, "cuDeviceGetCount");
	if (!init)
		return;
	rc = init(0);
	jset_int(out, "init_rc", rc);
	if (rc == CUDA_SUCCESS && count && count(&n) == CUDA_SUCCESS)
		jset_int(out, "device_count", n);
}

/* ---- toolkits ---- */

/* The version a toolkit directory states about itself, and which file said so. */
static int toolkit_version(const char *dir, char *ver, size_t len, const char **source)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	int rc = -1, code;

	p = path_join(dir, "version.json");
	if (file_read(p, &sb, 256 * 1024, NULL) == 0 && cuda_version_json_parse(sb.buf, sb.len, ver, len) == 0) {
		*source = "version.json";
		rc = 0;
	}
	free(p);
	strbuf_reset(&sb);
	if (rc) {
		p = path_join(dir, "version.txt");
		if (file_read(p, &sb, 4096, NULL) == 0 && cuda_version_txt_parse(sb.buf, ver, len) == 0) {
			*source = "version.txt";
			rc = 0;
		}
		free(p);
		strbuf_reset(&sb);
	}
	if (rc) {
		/* pip-assembled toolkits (this CI's, conda's) ship neither file, but always cuda.h */
		p = path_join(dir, "include/cuda.h");
		if (file_read(p, &sb, 1 << 20, NULL) == 0 && cuda_header_version_parse(sb.buf, &code) == 0) {
			version_cuda_code_str(code, ver, len);
			*source = "include/cuda.h";
			rc = 0;
		}
		free(p);
	}
	strbuf_release(&sb);
	return rc;
}

static int looks_like_toolkit(const char *dir)
{
	static const char *const marks[] = { "bin/nvcc", "version.json", "version.txt", "include/cuda.h" };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		char *p = path_join(dir, marks[i]);
		int ok = file_exists(p);
		free(p);
		if (ok)
			return 1;
	}
	return 0;
}

/* Adds `dir` (found via `how`) to toolkits, merging it with an entry of the same real path. */
static json_t *add_toolkit(json_t *tks, const char *dir, const char *how)
{
	char real[PATH_MAX], ver[64];
	const char *source = NULL;
	size_t i;
	json_t *t;

	if (!file_is_dir(dir) || !realpath(dir, real) || !looks_like_toolkit(real))
		return NULL;
	json_array_foreach(tks, i, t) {
		if (!strcmp(json_string_value(json_object_get(t, "path")), real)) {
			json_t *al = jarr_child(t, "aliases"), *a;
			size_t k;
			int dup = !strcmp(dir, real);
			json_array_foreach(al, k, a)
				dup |= !strcmp(json_string_value(a), dir);
			if (!dup)
				json_array_append_new(al, json_string(dir));
			if (!json_array_size(al))
				json_object_del(t, "aliases");
			return t;
		}
	}
	t = json_object();
	jset_str(t, "path", real);
	if (strcmp(dir, real))
		json_array_append_new(jarr_child(t, "aliases"), json_string(dir));
	if (toolkit_version(real, ver, sizeof(ver), &source) == 0) {
		jset_str(t, "version", ver);
		jset_str(t, "source", source);
	} else {
		jset_unknown(t, "version", "'%s' has no version.json, version.txt or include/cuda.h", real);
	}
	jset_str(t, "found_by", how);
	json_array_append_new(tks, t);
	return t;
}

static void search_toolkits(const struct probe_ctx *ctx, json_t *tks)
{
	const char *spec = ctx->cuda_search;
	char *copy = xstrdup(spec ? spec : CUDA_SEARCH_DEFAULT), *save = NULL;
	static const char *const envs[] = { "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT" };

	for (size_t i = 0; i < ARRAY_SIZE(envs); i++) {
		const char *v = probe_ctx_env(ctx, envs[i]);
		if (v)
			add_toolkit(tks, v, envs[i]);
	}
	for (char *pat = strtok_r(copy, ":", &save); pat; pat = strtok_r(NULL, ":", &save)) {
		glob_t g;
		if (glob(pat, GLOB_NOSORT | GLOB_ONLYDIR, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++)
				add_toolkit(tks, g.gl_pathv[i], "search");
		}
		globfree(&g);
	}
	free(copy);
}

/* nvcc on PATH: which toolkit a build would use, and the version nvcc itself reports. */
static void probe_nvcc(const struct probe_ctx *ctx, json_t *cuda, json_t *tks)
{
	char *nvcc = probe_which(ctx, "nvcc");
	char *argv[] = { NULL, "--version", NULL };
	struct subproc_result r;
	struct err e = ERR_INIT;
	json_t *nv = json_object();
	char real[PATH_MAX], rel[64], build[64];

	if (!nvcc) {
		jset_bool(nv, "found", 0);
		json_object_set_new(cuda, "nvcc", nv);
		return;
	}
	jset_bool(nv, "found", 1);
	jset_str(nv, "path", nvcc);
	subproc_result_init(&r);
	argv[0] = nvcc;
	if (subproc_run(argv, NULL, NVCC_TIMEOUT_MS, 64 * 1024, &r, &e) < 0) {
		jset_unknown(nv, "version", "cannot run '%s': %s", nvcc, e.msg);
	} else if (r.timed_out) {
		jset_unknown(nv, "version", "'%s --version' did not answer within %d s", nvcc,
			     NVCC_TIMEOUT_MS / 1000);
	} else if (nvcc_version_parse(r.out.buf, rel, sizeof(rel), build, sizeof(build)) == 0) {
		jset_str(nv, "version", rel);
		if (build[0])
			jset_str(nv, "build", build);
	} else {
		jset_unknown(nv, "version", "'%s --version' printed no 'release X.Y' (exit %d)", nvcc, r.status);
	}
	/* the toolkit nvcc belongs to: <root>/bin/nvcc */
	if (realpath(nvcc, real)) {
		char *slash = strrchr(real, '/');
		json_t *t;

		if (slash)
			*slash = '\0';
		slash = strrchr(real, '/');
		if (slash && !strcmp(slash, "/bin")) {
			*slash = '\0';
			t = add_toolkit(tks, real[0] ? real : "/", "nvcc on PATH");
			if (t) {
				jset_bool(t, "default", 1);
				jset_str(nv, "toolkit", json_string_value(json_object_get(t, "path")));
				if (junknown(json_object_get(t, "version")) && json_is_string(json_object_get(nv, "version"))) {
					jset_str(t, "version", jpath_str(nv, "version"));
					jset_str(t, "source", "nvcc --version");
				}
			}
		}
	}
	json_object_set_new(cuda, "nvcc", nv);
	subproc_result_release(&r);
	free(nvcc);
}

void probe_cuda(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *cuda = jobj_child(facts, "cuda"), *tks = json_array();

	(void)ctx;
	probe_nvcc(ctx, cuda, tks);
	search_toolkits(ctx, tks);
	json_object_set_new(cuda, "toolkits", tks);
}
