/*
 * cuDNN facts: every copy a build or a program could pick up, from headers (cudnn_version.h, or
 * cudnn.h before cuDNN 8) and from libraries (/etc/ld.so.cache, system and toolkit lib
 * directories, conda and pip's nvidia/cudnn/lib). A library's version comes from its file name
 * when that carries one, else from cudnnGetVersion() in an isolated child: pip wheels only ship
 * "libcudnn.so.9".
 */
#include "probe/probe.h"

#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/gpu.h"
#include "probe/ldso.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/version.h"
#include "util/xalloc.h"

#define CUDNN_CHILD_TIMEOUT_MS 5000

/* ---- parsers (pure) ---- */

static int define_value(const char *text, const char *name, int *out)
{
	size_t nl = strlen(name);
	const char *p = text;

	while ((p = strstr(p, "#define ")) != NULL) {
		p += 8;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, name, nl) && (p[nl] == ' ' || p[nl] == '\t')) {
			char *end;
			long v = strtol(p + nl, &end, 10);
			if (end != p + nl && v >= 0 && v < 100000) {
				*out = (int)v;
				return 0;
			}
		}
	}
	return -1;
}

int cudnn_header_parse(const char *text, int *major, int *minor, int *patch)
{
	if (define_value(text, "CUDNN_MAJOR", major) || define_value(text, "CUDNN_MINOR", minor) ||
	    define_value(text, "CUDNN_PATCHLEVEL", patch))
		return -1;
	return 0;
}

int cudnn_version_decode(long code, int *major, int *minor, int *patch)
{
	/* 9.x: M*10000 + m*100 + p (90300 = 9.3.0); up to 8.x: M*1000 + m*100 + p (8401 = 8.4.1) */
	if (code >= 10000 && code < 1000000) {
		*major = (int)(code / 10000);
		*minor = (int)(code / 100 % 100);
		*patch = (int)(code % 100);
		return *major >= 9 ? 0 : -1;
	}
	if (code >= 1000 && code < 10000) {
		*major = (int)(code / 1000);
		*minor = (int)(code / 100 % 10);
		*patch = (int)(code % 100);
		return *major >= 1 && *major <= 8 ? 0 : -1;
	}
	return -1;
}

long cudnn_version_encode(int major, int minor, int patch)
{
	if (major >= 9)
		return major * 10000L + minor * 100L + patch;
	return major * 1000L + minor * 100L + patch;
}

/* ---- the library child ---- */

struct lib_list {
	char **v;
	size_t n, alloc;
};

/* Runs in a subproc_fork() child: one "index code cudart" line per library that answers. */
static int version_child(void *arg, int fd)
{
	const struct lib_list *libs = arg;

	for (size_t i = 0; i < libs->n; i++) {
		void *h = dlopen(libs->v[i], RTLD_NOW | RTLD_LOCAL);
		size_t (*ver)(void), (*rt)(void);

		if (!h)
			continue;
		ver = (size_t (*)(void))dlsym(h, "cudnnGetVersion");
		rt = (size_t (*)(void))dlsym(h, "cudnnGetCudartVersion");
		if (ver)
			dprintf(fd, "%zu %zu %zu\n", i, ver(), rt ? rt() : (size_t)0);
	}
	return 0;
}

/* ---- finding the copies ---- */

static const char *toolkit_of(const json_t *facts, const char *path)
{
	size_t i;
	json_t *t;

	json_array_foreach(jpath(facts, "cuda.toolkits"), i, t) {
		const char *tp = json_string_value(json_object_get(t, "path"));
		size_t n = tp ? strlen(tp) : 0;
		if (n > 1 && !strncmp(path, tp, n) && path[n] == '/')
			return tp;
	}
	return NULL;
}

static void set_version(json_t *c, int major, int minor, int patch)
{
	jset_fmt(c, "version", "%d.%d.%d", major, minor, patch);
	jset_int(c, "major", major);
	jset_int(c, "version_code", cudnn_version_encode(major, minor, patch));
}

static void add_header(json_t *arr, const json_t *facts, const char *dir)
{
	static const char *const names[] = { "cudnn_version.h", "cudnn.h" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = path_join(dir, names[i]), real[PATH_MAX];
		struct strbuf sb = STRBUF_INIT;
		int maj, min, pat, dup = 0;
		size_t k;
		json_t *c;

		if (!realpath(p, real) || file_read(real, &sb, 1 << 20, NULL) < 0 ||
		    cudnn_header_parse(sb.buf, &maj, &min, &pat) < 0) {
			free(p);
			strbuf_release(&sb);
			continue;
		}
		strbuf_release(&sb);
		json_array_foreach(arr, k, c)
			dup |= !strcmp(json_string_value(json_object_get(c, "realpath")), real);
		if (!dup) {
			const char *tk = toolkit_of(facts, p);
			c = json_object();
			jset_str(c, "path", p);
			jset_str(c, "realpath", real);
			jset_str(c, "source", "header");
			set_version(c, maj, min, pat);
			if (tk)
				jset_str(c, "toolkit", tk);
			json_array_append_new(arr, c);
		}
		free(p);
		return; /* cudnn_version.h wins over cudnn.h in the same directory */
	}
}

/* Remembers library `path` found by `how`; one entry per real file. */
static void add_lib(json_t *libs, const json_t *facts, const char *path, const char *how)
{
	char real[PATH_MAX];
	const char *base = strrchr(path, '/');
	size_t i;
	json_t *c;

	base = base ? base + 1 : path;
	/* only the front library: libcudnn_ops.so.9 and friends carry the same version */
	if (strncmp(base, "libcudnn.so.", 12) || !realpath(path, real))
		return;
	json_array_foreach(libs, i, c) {
		if (!strcmp(json_string_value(json_object_get(c, "realpath")), real)) {
			json_t *fb = json_object_get(c, "found_by");
			size_t j;
			json_t *h;
			json_array_foreach(fb, j, h)
				if (!strcmp(json_string_value(h), how))
					return;
			json_array_append_new(fb, json_string(how));
			return;
		}
	}
	c = json_object();
	jset_str(c, "path", path);
	jset_str(c, "realpath", real);
	jset_str(c, "source", "library");
	json_object_set_new(c, "found_by", json_array());
	json_array_append_new(json_object_get(c, "found_by"), json_string(how));
	if (toolkit_of(facts, real))
		jset_str(c, "toolkit", toolkit_of(facts, real));
	json_array_append_new(libs, c);
}

static void glob_libs(json_t *libs, const json_t *facts, const char *dirpat, const char *how)
{
	char *pat = xasprintf("%s/libcudnn.so.*", dirpat);
	glob_t g;

	if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			add_lib(libs, facts, g.gl_pathv[i], how);
	globfree(&g);
	free(pat);
}

/* The copies the dynamic loader's cache knows (probe/ldso.h). */
static void ldcache_libs(const struct probe_ctx *ctx, json_t *libs, const json_t *facts)
{
	char *path = probe_etc_path(ctx, "ld.so.cache");
	struct ldcache c;

	if (ldcache_read(path, &c, NULL) == 0) {
		for (size_t i = 0; i < c.n; i++)
			if (!strncmp(c.v[i].key, "libcudnn.so.", 12) && ldcache_native(c.v[i].flags))
				add_lib(libs, facts, c.v[i].path, "ldconfig");
	}
	ldcache_release(&c);
	free(path);
}

static void python_libs(const struct probe_ctx *ctx, json_t *libs, const json_t *facts)
{
	static const char *const sites[] = {
		"/usr/lib/python3*/dist-packages", "/usr/lib/python3*/site-packages",
		"/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
		"/opt/conda/lib/python3*/site-packages", "/opt/conda/envs/*/lib/python3*/site-packages",
	};
	static const char *const home_sites[] = {
		".local/lib/python3*/site-packages", ".pyenv/versions/*/lib/python3*/site-packages",
		"miniconda3/lib/python3*/site-packages", "miniconda3/envs/*/lib/python3*/site-packages",
		"anaconda3/lib/python3*/site-packages", "anaconda3/envs/*/lib/python3*/site-packages",
	};
	const char *home = probe_ctx_env(ctx, "HOME"), *venv = probe_ctx_env(ctx, "VIRTUAL_ENV");
	const char *conda = probe_ctx_env(ctx, "CONDA_PREFIX");
	char *d;

	for (size_t i = 0; i < ARRAY_SIZE(sites); i++) {
		d = xasprintf("%s/nvidia/cudnn/lib", sites[i]);
		glob_libs(libs, facts, d, "site-packages");
		free(d);
	}
	for (size_t i = 0; home && *home && i < ARRAY_SIZE(home_sites); i++) {
		d = xasprintf("%s/%s/nvidia/cudnn/lib", home, home_sites[i]);
		glob_libs(libs, facts, d, "site-packages");
		free(d);
	}
	if (venv && *venv) {
		d = xasprintf("%s/lib/python3*/site-packages/nvidia/cudnn/lib", venv);
		glob_libs(libs, facts, d, "venv");
		free(d);
	}
	if (conda && *conda) {
		d = xasprintf("%s/lib/python3*/site-packages/nvidia/cudnn/lib", conda);
		glob_libs(libs, facts, d, "conda");
		free(d);
		glob_libs(libs, facts, conda, "conda");
		d = xasprintf("%s/lib", conda);
		glob_libs(libs, facts, d, "conda");
		free(d);
	}
}

/* Versions: the file name's when it has one, else the library's own answer. */
static void lib_versions(json_t *libs)
{
	struct lib_list todo = { NULL, 0, 0 };
	size_t *which = NULL, i;
	struct subproc_result r;
	json_t *c;
	char ver[32];

	json_array_foreach(libs, i, c) {
		const char *real = json_string_value(json_object_get(c, "realpath"));
		struct version v;

		if (soname_version(real, "libcudnn.so.", 3, ver, sizeof(ver)) == 0 &&
		    version_parse(ver, &v) == 0) {
			set_version(c, (int)v.part[0], (int)v.part[1], (int)v.part[2]);
			jset_str(c, "version_from", "file name");
			continue;
		}
		ALLOC_GROW(todo.v, todo.n + 1, todo.alloc);
		which = xrealloc(which, (todo.n + 1) * sizeof(*which));
		which[todo.n] = i;
		todo.v[todo.n++] = (char *)real;
	}
	if (todo.n) {
		const char *p;

		subproc_result_init(&r);
		if (subproc_fork(version_child, &todo, CUDNN_CHILD_TIMEOUT_MS, 64 * 1024, &r, NULL) == 0) {
			for (p = r.out.buf; *p;) {
				unsigned long long idx, code, rt;
				int maj, min, pat;
				if (sscanf(p, "%llu %llu %llu", &idx, &code, &rt) == 3 && idx < todo.n &&
				    cudnn_version_decode((long)code, &maj, &min, &pat) == 0) {
					c = json_array_get(libs, which[idx]);
					set_version(c, maj, min, pat);
					jset_str(c, "version_from", "cudnnGetVersion");
					if (rt >= 1000 && rt < 1000000) {
						version_cuda_code_str((int)rt, ver, sizeof(ver));
						jset_str(c, "cuda_build", ver);
					}
				}
				p = strchr(p, '\n');
				if (!p)
					break;
				p++;
			}
		}
		subproc_result_release(&r);
	}
	/* what could not be asked still has a major version in its soname */
	json_array_foreach(libs, i, c) {
		const char *real = json_string_value(json_object_get(c, "realpath"));
		const char *path = json_string_value(json_object_get(c, "path"));
		if (json_object_get(c, "version"))
			continue;
		if (soname_version(path, "libcudnn.so.", 1, ver, sizeof(ver)) == 0 ||
		    soname_version(real, "libcudnn.so.", 1, ver, sizeof(ver)) == 0)
			jset_int(c, "major", atoi(ver));
		jset_unknown(c, "version", "'%s' did not answer cudnnGetVersion()", real);
	}
	free(todo.v);
	free(which);
}

void probe_cudnn_lib_versions(json_t *libs)
{
	lib_versions(libs);
}

void probe_cudnn(const struct probe_ctx *ctx, json_t *facts)
{
	static const char *const inc_dirs[] = { "/usr/include", "/usr/include/x86_64-linux-gnu",
						"/usr/include/aarch64-linux-gnu", "/usr/local/include" };
	static const char *const lib_dirs[] = { "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
						"/usr/lib64", "/usr/lib", "/usr/local/lib" };
	json_t *arr = json_array(), *libs = json_array(), *t;
	size_t i;

	json_array_foreach(jpath(facts, "cuda.toolkits"), i, t) {
		const char *tp = json_string_value(json_object_get(t, "path"));
		char *d;
		if (!tp)
			continue;
		d = path_join(tp, "include");
		add_header(arr, facts, d);
		free(d);
		d = path_join(tp, "lib64");
		glob_libs(libs, facts, d, "cuda");
		free(d);
		d = path_join(tp, "lib");
		glob_libs(libs, facts, d, "cuda");
		free(d);
	}
	for (i = 0; i < ARRAY_SIZE(inc_dirs); i++)
		add_header(arr, facts, inc_dirs[i]);
	ldcache_libs(ctx, libs, facts);
	for (i = 0; i < ARRAY_SIZE(lib_dirs); i++)
		glob_libs(libs, facts, lib_dirs[i], "system");
	python_libs(ctx, libs, facts);
	lib_versions(libs);
	json_array_extend(arr, libs);
	json_decref(libs);
	json_object_set_new(facts, "cudnn", arr);
}
