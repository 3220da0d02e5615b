/* The torch facts from its files, without importing it: see torch_static.h. */
#include "probe/torch_static.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/elf.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define VERSION_PY_MAX (64 << 10)

/* 'text' or "text" at p (after spaces); copies it into out; 0 on success. */
static int quoted(const char *p, const char *end, char *out, size_t len)
{
	char q;
	const char *s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || (*p != '\'' && *p != '"'))
		return -1;
	q = *p++;
	for (s = p; s < end && *s != q && *s != '\n'; s++)
		if (*s == '\\')
			return -1;	/* escapes never occur in these values */
	if (s >= end || *s != q || (size_t)(s - p) >= len)
		return -1;
	memcpy(out, p, (size_t)(s - p));
	out[s - p] = '\0';
	return 0;
}

static int is_none(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return end - p >= 4 && !memcmp(p, "None", 4) &&
	       (end - p == 4 || !isalnum((unsigned char)p[4]));
}

int torch_version_py_parse(const char *text, size_t len, struct torch_version_py *out,
			   struct err *e)
{
	const char *p = text, *end = text + len;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *eq, *ne;
		char name[32];
		size_t n;

		/* NAME[: type] = value */
		for (ne = p; ne < le && (isalnum((unsigned char)*ne) || *ne == '_'); ne++)
			;
		eq = memchr(p, '=', (size_t)(le - p));
		n = (size_t)(ne - p);
		if (eq && n && n < sizeof(name) && (*ne == ' ' || *ne == ':' || *ne == '=')) {
			memcpy(name, p, n);
			name[n] = '\0';
			if (!strcmp(name, "__version__"))
				quoted(eq + 1, le, out->version, sizeof(out->version));
			else if (!strcmp(name, "cuda")) {
				out->has_cuda = 1;
				if (!is_none(eq + 1, le))
					quoted(eq + 1, le, out->cuda, sizeof(out->cuda));
			} else if (!strcmp(name, "git_version"))
				quoted(eq + 1, le, out->git_version, sizeof(out->git_version));
			else if (!strcmp(name, "hip") && !is_none(eq + 1, le))
				quoted(eq + 1, le, out->hip, sizeof(out->hip));
		}
		p = nl ? nl + 1 : end;
	}
	if (!out->version[0])
		return err_set(e, ERR_PARSE, "no __version__ = '...' line");
	return 0;
}

static char *try_in(const char *dir, size_t dlen, const char *soname)
{
	char *p = xasprintf("%.*s/%s", (int)dlen, dir, soname);

	if (elf_loadable(p))
		return p;
	free(p);
	return NULL;
}

/* The first directory of a ':'-list (with $ORIGIN expanded) that holds a loadable `soname`. */
static char *try_list(const char *list, const char *origin, const char *soname)
{
	const char *p = list;

	while (p && *p) {
		const char *c = strchr(p, ':');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		char *dir = elf_expand_origin(p, n, origin), *hit = NULL;

		if (*dir)
			hit = try_in(dir, strlen(dir), soname);
		free(dir);
		if (hit)
			return hit;
		p = c ? c + 1 : NULL;
	}
	return NULL;
}

char *ld_resolve_needed(const struct ld_search *s, const char *obj_path, const char *rpath,
			const char *runpath, const char *soname, const char **how)
{
	struct ld_search pre = *s;
	char *origin = xstrdup(obj_path), *slash = strrchr(origin, '/'), *hit;

	if (slash)
		*slash = '\0';
	/* LD_PRELOAD and LD_LIBRARY_PATH alone (no cache, no system directories) */
	pre.cache = NULL;
	pre.nsystem_dirs = 0;
	pre.system_dirs = NULL;
	if (strchr(soname, '/')) {
		hit = elf_loadable(soname) ? xstrdup(soname) : NULL;
		*how = "path";
		free(origin);
		return hit;
	}
	/* DT_RPATH counts only without DT_RUNPATH, and comes before LD_LIBRARY_PATH */
	if (rpath && !runpath && (hit = try_list(rpath, origin, soname))) {
		*how = "RPATH";
		free(origin);
		return hit;
	}
	hit = ld_search_resolve(&pre, soname, how);
	if (!hit && runpath && (hit = try_list(runpath, origin, soname)))
		*how = "RUNPATH";
	if (!hit)
		hit = ld_search_resolve(s, soname, how);
	free(origin);
	return hit;
}

int torch_static_read(const char *torch_dir, const struct ld_search *s, struct torch_static *out,
		      struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	struct elf_dyn d;
	char *path = xasprintf("%s/version.py", torch_dir);
	int defines = -1, needs_nccl = 0;
	const char *cudnn = NULL;

	memset(out, 0, sizeof(*out));
	if (file_read(path, &sb, VERSION_PY_MAX, e) < 0 ||
	    torch_version_py_parse(sb.buf, sb.len, &out->v, e) < 0) {
		err_prefix(e, "'%s'", path);
		free(path);
		strbuf_release(&sb);
		return -1;
	}
	free(path);
	strbuf_release(&sb);
	if (!out->v.has_cuda) {
		snprintf(out->unsettled, sizeof(out->unsettled), "version.py has no cuda line");
		return 0;
	}
	if (!out->v.cuda[0])
		return 0;	/* a CPU build: no NCCL to map */

	out->torch_cuda_lib = xasprintf("%s/lib/libtorch_cuda.so", torch_dir);
	if (elf_dyn_read_path(out->torch_cuda_lib, &d, &defines, e) < 0) {
		snprintf(out->unsettled, sizeof(out->unsettled), "%s", e->msg);
		err_clear(e);
		return 0;
	}
	for (size_t i = 0; i < d.nneeded; i++) {
		if (!strncmp(d.needed[i], "libnccl.so", 10))
			needs_nccl = 1;
		if (!strncmp(d.needed[i], "libcudnn.so", 11))
			cudnn = d.needed[i];
	}
	if (needs_nccl) {
		const char *soname = NULL;
		for (size_t i = 0; i < d.nneeded; i++)
			if (!strncmp(d.needed[i], "libnccl.so", 10))
				soname = d.needed[i];
		out->nccl_path = ld_resolve_needed(s, out->torch_cuda_lib, d.rpath, d.runpath, soname,
						   &out->nccl_how);
		if (!out->nccl_path)
			snprintf(out->unsettled, sizeof(out->unsettled),
				 "libtorch_cuda.so needs %s, and the loader finds none", soname);
	} else if (defines == 1) {
		out->nccl_static = 1;
		out->nccl_path = xstrdup(out->torch_cuda_lib);
		out->nccl_how = "linked into libtorch_cuda";
	} else if (defines == 0) {
		/* a build may also dlopen NCCL lazily; only the import can tell then */
		snprintf(out->unsettled, sizeof(out->unsettled),
			 "libtorch_cuda.so neither needs libnccl nor carries NCCL (loaded lazily?)");
	} else {
		snprintf(out->unsettled, sizeof(out->unsettled),
			 "libtorch_cuda.so neither needs libnccl nor has a symbol table to tell");
	}
	if (cudnn) {
		const char *how;
		out->needs_cudnn = 1;
		out->cudnn_path = ld_resolve_needed(s, out->torch_cuda_lib, d.rpath, d.runpath, cudnn,
						    &how);
		if (!out->cudnn_path && !out->unsettled[0])
			snprintf(out->unsettled, sizeof(out->unsettled),
				 "libtorch_cuda.so needs %s, and the loader finds none", cudnn);
	} else if (elf_path_defines(out->torch_cuda_lib, "cudnnGetVersion") == 1 &&
		   !out->unsettled[0]) {
		/* cuDNN linked in (older builds): only the import can ask it its version */
		snprintf(out->unsettled, sizeof(out->unsettled),
			 "cudnn: cuDNN is linked into libtorch_cuda.so");
	}
	elf_dyn_release(&d);
	return 0;
}

void torch_static_release(struct torch_static *t)
{
	free(t->torch_cuda_lib);
	free(t->nccl_path);
	free(t->cudnn_path);
	memset(t, 0, sizeof(*t));
}
