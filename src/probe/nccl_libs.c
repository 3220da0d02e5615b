/*
 * Every NCCL copy on the machine, the one the dynamic loader gives a plain program, net plugins
 * and NCCL's config files. Several copies with different versions are the usual reason why
 * nccl-tests passes and torch hangs (or the reverse), so each copy is found by every route a
 * program could take to it, and its version is read from the library itself: ncclGetVersion()
 * after dlopen, in a forked child with a deadline, because a foreign libnccl may crash or hang.
 */
#include "probe/probe.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <link.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/ldso.h"
#include "probe/ncclconf.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ---- collecting copies --------------------------------------------------------------------- */

/* libnccl.so, libnccl.so.2, libnccl.so.2.28.9: the library itself, not plugins or archives */
static int is_nccl_name(const char *name)
{
	const char *p;

	if (strncmp(name, "libnccl.so", 10))
		return 0;
	for (p = name + 10; *p; p++)
		if (*p != '.' && (*p < '0' || *p > '9'))
			return 0;
	return 1;
}

/* libnccl-net.so, libnccl-net-ofi.so, libnccl-net_aws.so.0 ... */
static int is_plugin_name(const char *name)
{
	return !strncmp(name, "libnccl-net", 11) && strstr(name, ".so") != NULL;
}

static int is_soname_path(const char *path)
{
	const char *b = strrchr(path, '/');
	return !strcmp(b ? b + 1 : path, "libnccl.so.2");
}


static void array_add_unique(json_t *obj, const char *key, const char *s)
{
	json_t *arr = jarr_child(obj, key);

	if (!jarr_has_str(arr, s))
		json_array_append_new(arr, json_string(s));
}

/* Records `path` (a file or a symlink to one) as a copy found by `tag`, merged by realpath. */
static json_t *add_copy(json_t *libs, const char *path, const char *tag)
{
	char real[PATH_MAX];
	size_t i;
	json_t *lib;

	if (!realpath(path, real))
		return NULL;
	json_array_foreach(libs, i, lib) {
		const char *have = jpath_str(lib, "path");
		if (strcmp(jpath_str(lib, "realpath") ? jpath_str(lib, "realpath") : "", real))
			continue;
		array_add_unique(lib, "paths", path);
		array_add_unique(lib, "found_by", tag);
		/* name the copy by the file the loader opens (libnccl.so.2), not a dev symlink */
		if (have && !jpath_bool(lib, "default", 0) && !is_soname_path(have) &&
		    is_soname_path(path))
			jset_str(lib, "path", path);
		return lib;
	}
	lib = json_object();
	jset_str(lib, "path", path);
	jset_str(lib, "realpath", real);
	array_add_unique(lib, "paths", path);
	array_add_unique(lib, "found_by", tag);
	jset_bool(lib, "default", 0);
	json_array_append_new(libs, lib);
	return lib;
}

static void add_plugin(json_t *plugins, const char *path, const char *tag)
{
	char real[PATH_MAX];
	const char *base = strrchr(path, '/');
	size_t i;
	json_t *pl;

	if (!realpath(path, real))
		return;
	json_array_foreach(plugins, i, pl)
		if (!strcmp(jpath_str(pl, "realpath") ? jpath_str(pl, "realpath") : "", real)) {
			array_add_unique(pl, "found_by", tag);
			return;
		}
	pl = json_object();
	jset_str(pl, "path", path);
	jset_str(pl, "realpath", real);
	jset_str(pl, "name", base ? base + 1 : path);
	array_add_unique(pl, "found_by", tag);
	json_array_append_new(plugins, pl);
}

/* Scans one directory for NCCL copies and net plugins. */
static void scan_dir(json_t *nccl, const char *dir, const char *tag)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		int lib = is_nccl_name(de->d_name), plug = !lib && is_plugin_name(de->d_name);
		char *p;

		if (!lib && !plug)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lib)
			add_copy(jarr_child(nccl, "libs"), p, tag);
		else
			add_plugin(jarr_child(nccl, "plugins"), p, tag);
		free(p);
	}
	closedir(d);
}

static void scan_glob(json_t *nccl, const char *pattern, const char *tag)
{
	glob_t g;

	if (glob(pattern, GLOB_ONLYDIR | GLOB_NOSORT, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++)
		scan_dir(nccl, g.gl_pathv[i], tag);
	globfree(&g);
}

static void scan_path_list(json_t *nccl, const char *list, const char *tag)
{
	const char *q = list;

	while (q && *q) {
		size_t n = strcspn(q, ":;");
		if (n) {
			char *dir = xstrndup(q, n);
			scan_dir(nccl, dir, tag);
			free(dir);
		}
		q += n + (q[n] ? 1 : 0);
	}
}

/* The conda installations a user may train from: the active one, and the usual locations. */
static void scan_conda(const struct probe_ctx *ctx, json_t *nccl, const char *home)
{
	const char *prefix = probe_ctx_env(ctx, "CONDA_PREFIX");
	static const char *const bases[] = { "miniconda3", "anaconda3", "miniforge3", "mambaforge" };
	char buf[PATH_MAX];

	if (prefix) {
		snprintf(buf, sizeof(buf), "%s/lib", prefix);
		scan_dir(nccl, buf, "conda");
	}
	for (size_t i = 0; home && i < ARRAY_SIZE(bases); i++) {
		snprintf(buf, sizeof(buf), "%s/%s/lib", home, bases[i]);
		scan_dir(nccl, buf, "conda");
		snprintf(buf, sizeof(buf), "%s/%s/envs/*/lib", home, bases[i]);
		scan_glob(nccl, buf, "conda");
	}
	scan_dir(nccl, "/opt/conda/lib", "conda");
	scan_glob(nccl, "/opt/conda/envs/*/lib", "conda");
}

/* ---- reading each copy's version ------------------------------------------------------------ */

/*
 * NCCL 2.32's TLS (src/misc/crypt.cc): only a build with TLS_BACKEND=OPENSSL3 holds the PSK
 * identity "nccl-psk-v1" (and dlopens libssl.so.3 / libcrypto.so.3 when a key is set); a build
 * without it answers a key with "NCCL was built without TLS support". Searched in the loaded
 * image's read-only segments, in the child that loaded it.
 */
/* The read-only, non-executable PT_LOAD file ranges of the loaded image (where .rodata is). */
struct psk_search {
	uintptr_t base;
	struct {
		uint64_t off, len;
	} seg[8];
	int nseg;
};

static int psk_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct psk_search *ps = arg;

	(void)size;
	if (info->dlpi_addr != ps->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum && ps->nseg < (int)ARRAY_SIZE(ps->seg); i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W) && !(ph->p_flags & PF_X)) {
			ps->seg[ps->nseg].off = ph->p_offset;
			ps->seg[ps->nseg++].len = ph->p_filesz;
		}
	}
	return 1;
}

/*
 * Whether the file's ranges hold the PSK identity. Read from the file, not the mapping: an
 * instrumented library's globals carry poisoned redzones a sanitizer would trip over.
 */
static int psk_in_file(const char *path, const struct psk_search *ps)
{
	static const char id[] = "nccl-psk-v1";
	enum { CHUNK = 1 << 20, OVERLAP = sizeof(id) - 2 };
	char *buf = xmalloc(CHUNK + OVERLAP);
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;

	for (int i = 0; fd >= 0 && i < ps->nseg && !found; i++) {
		uint64_t done = 0;
		size_t keep = 0;

		while (done < ps->seg[i].len && !found) {
			size_t want = ps->seg[i].len - done < CHUNK ? ps->seg[i].len - done : CHUNK;
			ssize_t n = pread(fd, buf + keep, want, (off_t)(ps->seg[i].off + done));

			if (n <= 0)
				break;
			size_t total = keep + (size_t)n;

			found = memmem(buf, total, id, sizeof(id) - 1) != NULL;
			done += (uint64_t)n;
			/* a match may straddle two chunks: the tail goes in front of the next one */
			keep = total < OVERLAP ? total : OVERLAP;
			memmove(buf, buf + total - keep, keep);
		}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return found;
}

/* "tls B S": B 1/0 built with TLS; S 1/0 libssl.so.3 and libcrypto.so.3 load (-1: not asked). */
static void tls_report(void *h, const char *path, int fd)
{
	struct link_map *lm = NULL;
	struct psk_search ps;
	int built, ssl = -1;

	memset(&ps, 0, sizeof(ps));
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) || !lm)
		return;
	ps.base = (uintptr_t)lm->l_addr;
	dl_iterate_phdr(psk_segments, &ps);
	if (!ps.nseg)
		return;
	built = psk_in_file(path, &ps);
	if (built)
		ssl = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) &&
		      dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
	dprintf(fd, "tls %d %d\n", built, ssl);
}

static int version_child(void *arg, int fd)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	const char *path = arg;
	int (*get)(int *) = NULL;
	int code = 0, rc;
	void *h;

	/* a crash must show as the signal, whatever handlers the parent installed */
	for (size_t i = 0; i < ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *why = dlerror();
		dprintf(fd, "dlopen %s\n", why ? why : "failed");
		return 2;
	}
	*(void **)&get = dlsym(h, "ncclGetVersion");
	if (!get) {
		dprintf(fd, "nosym\n");
		return 3;
	}
	rc = get(&code);
	dprintf(fd, "ok %d %d\n", rc, code);
	if (rc == 0 && code >= 23200)
		tls_report(h, path, fd);
	return 0;
}

static void read_version(const struct probe_ctx *ctx, json_t *lib)
{
	const char *path = jpath_str(lib, "realpath");
	struct subproc_result r;
	struct err e = ERR_INIT;
	long timeout = ctx->lib_timeout_ms;
	int rc, code;

	subproc_result_init(&r);
	if (subproc_fork(version_child, (void *)path, timeout, 4096, &r, &e) < 0) {
		jset_unknown(lib, "version", "could not fork to load it: %s", e.msg);
	} else if (r.timed_out) {
		jset_unknown(lib, "version", "loading it and calling ncclGetVersion() did not "
			     "return within %ld ms", timeout);
	} else if (!r.exited) {
		jset_unknown(lib, "version", "loading it crashed the probe child (signal %d: %s)",
			     r.status, strsignal(r.status));
	} else if (sscanf(r.out.buf, "ok %d %d", &rc, &code) == 2) {
		char v[32];
		if (rc != 0 || code <= 0) {
			jset_unknown(lib, "version", "ncclGetVersion() returned error %d", rc);
		} else {
			const char *t = strstr(r.out.buf, "\ntls ");
			int built, ssl;

			version_nccl_code_str(code, v, sizeof(v));
			jset_str(lib, "version", v);
			jset_int(lib, "version_code", code);
			if (t && sscanf(t + 5, "%d %d", &built, &ssl) == 2) {
				json_t *tls = jobj_child(lib, "tls");

				jset_bool(tls, "built", built);
				if (ssl >= 0)
					jset_bool(tls, "libssl", ssl);
			} else if (code >= 23200) {
				jset_unknown(lib, "tls", "the probe child could not find the library's "
					     "segments");
			}
		}
	} else if (!strncmp(r.out.buf, "nosym", 5)) {
		jset_unknown(lib, "version", "it does not export ncclGetVersion, so it is not NCCL");
	} else if (!strncmp(r.out.buf, "dlopen ", 7)) {
		strbuf_rtrim(&r.out);
		jset_unknown(lib, "version", "it does not load: %s", r.out.buf + 7);
	} else {
		jset_unknown(lib, "version", "the probe child exited with status %d", r.status);
	}
	jset_int(lib, "probe_ms", r.elapsed_ms);
	subproc_result_release(&r);
}

void probe_nccl_lib_version(const struct probe_ctx *ctx, json_t *lib)
{
	read_version(ctx, lib);
}

static void read_missing_versions(const struct probe_ctx *ctx, json_t *libs)
{
	size_t i;
	json_t *lib;

	json_array_foreach(libs, i, lib)
		if (!json_object_get(lib, "version"))
			read_version(ctx, lib);
}

/* ---- default copy, net plugin, config files --------------------------------------------------- */

static void load_cache(const struct probe_ctx *ctx, struct ldcache *c, json_t *search)
{
	char *path = probe_etc_path(ctx, "ld.so.cache");
	struct err e = ERR_INIT;

	if (ldcache_read(path, c, &e) < 0)
		jset_unknown(search, "cache", "%s", e.msg);
	else
		jset_fmt(search, "cache", "%s (%zu entries)", path, c->n);
	free(path);
}

static void mark_default(json_t *nccl, const struct ld_search *s)
{
	const char *how = NULL;
	char *path = ld_search_resolve(s, "libnccl.so.2", &how);
	json_t *def = json_object(), *lib;

	if (!path) {
		jset_bool(def, "found", 0);
		jset_str(def, "why", "no libnccl.so.2 in LD_PRELOAD, LD_LIBRARY_PATH, the ld.so cache "
				     "or the system directories");
	} else {
		const char *tag = !strcmp(how, "ld.so.cache")	     ? "ldconfig"
				  : !strcmp(how, "system directory") ? "/usr/lib"
								     : how;
		lib = add_copy(jarr_child(nccl, "libs"), path, tag);
		jset_bool(def, "found", 1);
		jset_str(def, "path", path);
		jset_str(def, "how", how);
		if (lib) {
			jset_bool(lib, "default", 1);
			jset_str(lib, "default_how", how);
			jset_str(lib, "path", path);
		}
	}
	json_object_set_new(nccl, "default", def);
	free(path);
}

/*
 * NCCL_NET_PLUGIN: unset tries libnccl-net.so; "none" disables; otherwise NCCL tries the value
 * as a library name, then libnccl-net-<value>.so.
 */
static void net_plugin(const struct probe_ctx *ctx, json_t *nccl, const struct ld_search *s)
{
	const char *env = envmap_get(ctx->env, "NCCL_NET_PLUGIN");
	json_t *np = json_object();
	const char *how = NULL;
	char *path = NULL, *alt = NULL;

	jset_str(np, "env", env);
	if (env && !strcasecmp(env, "none")) {
		jset_str(np, "state", "disabled");
	} else {
		const char *name = env && *env ? env : "libnccl-net.so";
		path = strchr(name, '/') ? (elf_loadable(name) ? xstrdup(name) : NULL)
					 : ld_search_resolve(s, name, &how);
		if (!path && env && *env) {
			alt = xasprintf("libnccl-net-%s.so", env);
			path = ld_search_resolve(s, alt, &how);
			name = alt;
		}
		jset_str(np, "tries", name);
		if (path) {
			jset_str(np, "state", "loads");
			jset_str(np, "path", path);
			jset_str(np, "how", how ? how : "path");
			add_plugin(jarr_child(nccl, "plugins"), path, "NCCL_NET_PLUGIN");
		} else {
			jset_str(np, "state", env && *env ? "missing" : "internal");
		}
	}
	json_object_set_new(nccl, "net_plugin", np);
	free(path);
	free(alt);
}

static const char *user_home(void)
{
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir ? pw->pw_dir : NULL;
}

#define CONF_MAX (1u << 20)

static void conf_file(json_t *confs, const char *path, const char *source, const char *applies)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct ncclconf c;
	json_t *entry, *vars, *lines, *dups;
	struct stat st;

	if (stat(path, &st) < 0 && errno == ENOENT && strcmp(source, "NCCL_CONF_FILE"))
		return; /* the usual case: no such file, nothing to say */
	entry = json_object();
	jset_str(entry, "path", path);
	jset_str(entry, "source", source);
	if (applies)
		jset_str(entry, "applies", applies);
	if (file_read(path, &sb, CONF_MAX, &e) < 0) {
		jset_bool(entry, "exists", errno != ENOENT);
		jset_unknown(entry, "vars", "%s", e.msg);
		json_array_append_new(confs, entry);
		strbuf_release(&sb);
		return;
	}
	jset_bool(entry, "exists", 1);
	if (sb.len >= CONF_MAX)
		jset_fmt(entry, "truncated", "only the first %u bytes were read", CONF_MAX);
	ncclconf_parse(sb.buf, sb.len, &c);
	vars = json_object();
	lines = json_object();
	dups = json_array();
	for (size_t i = 0; i < c.n; i++) {
		if (c.v[i].shadowed) {
			json_t *d = json_object();
			jset_str(d, "name", c.v[i].name);
			jset_str(d, "value", c.v[i].value);
			jset_int(d, "line", c.v[i].line);
			json_array_append_new(dups, d);
			continue;
		}
		jset_str(vars, c.v[i].name, c.v[i].value);
		jset_int(lines, c.v[i].name, c.v[i].line);
	}
	json_object_set_new(entry, "vars", vars);
	json_object_set_new(entry, "lines", lines);
	json_object_set_new(entry, "duplicates", dups);
	jset_int(entry, "comment_lines", c.comment_lines);
	jset_int(entry, "ignored_lines", c.ignored_lines);
	json_array_append_new(confs, entry);
	ncclconf_release(&c);
	strbuf_release(&sb);
}

/*
 * In NCCL's order of precedence (first wins, and the environment beats them all): 2.23+ reads
 * $NCCL_CONF_FILE instead of ~/.nccl.conf when it is set, then /etc/nccl.conf.
 */
static void conf_files(const struct probe_ctx *ctx, json_t *nccl)
{
	json_t *confs = jarr_child(nccl, "conf");
	const char *cf = probe_ctx_env(ctx, "NCCL_CONF_FILE"), *home = user_home();
	const char *envhome = probe_ctx_env(ctx, "HOME");
	char *etc = probe_etc_path(ctx, "nccl.conf");
	char buf[PATH_MAX];
	int have_cf = cf && *cf;

	if (have_cf)
		conf_file(confs, cf, "NCCL_CONF_FILE", "NCCL 2.23 and newer");
	if (home) {
		snprintf(buf, sizeof(buf), "%s/.nccl.conf", home);
		conf_file(confs, buf, "~/.nccl.conf",
			  have_cf ? "NCCL 2.22 and older (2.23+ read NCCL_CONF_FILE instead)" : NULL);
	}
	if (envhome && *envhome && (!home || strcmp(envhome, home))) {
		/* NCCL 2.30 takes the home directory from $HOME, older ones from the passwd entry */
		snprintf(buf, sizeof(buf), "%s/.nccl.conf", envhome);
		conf_file(confs, buf, "$HOME/.nccl.conf",
			  have_cf ? "no NCCL (NCCL_CONF_FILE is set)" : "NCCL 2.30 and newer");
	}
	conf_file(confs, etc, "/etc/nccl.conf", NULL);
	free(etc);
}

/* ---- the probe ----------------------------------------------------------------------------- */

static void fill_search(const struct probe_ctx *ctx, struct ld_search *s, const struct ldcache *cache,
			const struct ldso_dirs *d, char *cwd, size_t cwdlen)
{
	memset(s, 0, sizeof(*s));
	s->preload = envmap_get(ctx->env, "LD_PRELOAD");
	s->library_path = envmap_get(ctx->env, "LD_LIBRARY_PATH");
	s->cache = cache;
	s->system_dirs = (const char *const *)d->dirs;
	s->nsystem_dirs = d->ndirs;
	s->hwcaps = (const char *const *)d->hwcaps;
	s->nhwcaps = d->nhwcaps;
	s->cwd = getcwd(cwd, cwdlen) ? cwd : ".";
}

void probe_nccl_libs(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *nccl = jobj_child(facts, "nccl"), *search = json_object(), *dirs = json_array();
	struct ldcache cache;
	struct ldso_dirs d;
	struct ld_search s;
	char cwd[PATH_MAX];
	const char *lp = envmap_get(ctx->env, "LD_LIBRARY_PATH");

	jarr_child(nccl, "libs");
	jarr_child(nccl, "plugins");
	ldso_dirs_get(&d);
	load_cache(ctx, &cache, search);
	fill_search(ctx, &s, &cache, &d, cwd, sizeof(cwd));

	/* every route a program could take, most specific first */
	if (s.preload) {
		const char *q = s.preload;
		while (*q) {
			size_t n;
			char *ent;
			q += strspn(q, " :");
			n = strcspn(q, " :");
			if (!n)
				break;
			ent = xstrndup(q, n);
			if (strchr(ent, '/') && is_nccl_name(strrchr(ent, '/') + 1))
				add_copy(jarr_child(nccl, "libs"), ent, "LD_PRELOAD");
			free(ent);
			q += n;
		}
	}
	scan_path_list(nccl, lp, "LD_LIBRARY_PATH");
	for (size_t i = 0; i < cache.n; i++) {
		if (is_nccl_name(cache.v[i].key))
			add_copy(jarr_child(nccl, "libs"), cache.v[i].path, "ldconfig");
		else if (is_plugin_name(cache.v[i].key))
			add_plugin(jarr_child(nccl, "plugins"), cache.v[i].path, "ldconfig");
	}
	for (size_t i = 0; i < d.ndirs; i++) {
		scan_dir(nccl, d.dirs[i], "/usr/lib");
		json_array_append_new(dirs, json_string(d.dirs[i]));
	}
	scan_glob(nccl, "/usr/lib*", "/usr/lib");
	scan_glob(nccl, "/usr/local/lib*", "/usr/lib");
	scan_glob(nccl, "/usr/local/cuda*/lib*", "cuda");
	scan_glob(nccl, "/usr/local/cuda*/targets/*/lib", "cuda");
	scan_conda(ctx, nccl, user_home());
	/*
	 * TCCL, Tencent Cloud's extension of NCCL for its RDMA network: its package installs under
	 * /opt/tencent/tccl (cloud.tencent.com/document/product/1573/93190, 1646/93319). The tag
	 * says which copy is TCCL whatever route found it too.
	 */
	scan_dir(nccl, "/opt/tencent/tccl", "tccl");
	scan_glob(nccl, "/opt/tencent/tccl/lib*", "tccl");

	mark_default(nccl, &s);
	net_plugin(ctx, nccl, &s);
	read_missing_versions(ctx, jarr_child(nccl, "libs"));
	conf_files(ctx, nccl);

	jset_str(search, "ld_preload", s.preload);
	jset_str(search, "ld_library_path", s.library_path);
	json_object_set_new(search, "system_dirs", dirs);
	jset_str(search, "system_dirs_source", d.source);
	json_object_set_new(nccl, "search", search);
	ldcache_release(&cache);
	ldso_dirs_release(&d);
}

void probe_nccl_libs_site(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *nccl = jobj_child(facts, "nccl"), *py, *libs = jarr_child(nccl, "libs"), *sp;
	size_t i, j;

	json_array_foreach(json_object_get(facts, "python"), i, py) {
		const char *who = jpath_str(py, "path");
		const char *mapped = jpath_str(py, "torch.nccl_mapped");
		char tag[PATH_MAX + 32];

		snprintf(tag, sizeof(tag), "site-packages:%s", who ? who : "?");
		json_array_foreach(json_object_get(py, "site_packages"), j, sp) {
			char dir[PATH_MAX];
			if (!json_is_string(sp))
				continue;
			snprintf(dir, sizeof(dir), "%s/nvidia/nccl/lib", json_string_value(sp));
			scan_dir(nccl, dir, tag);
			snprintf(dir, sizeof(dir), "%s/torch/lib", json_string_value(sp));
			scan_dir(nccl, dir, tag);
		}
		if (mapped && !jpath_bool(py, "torch.nccl_static", 0) && mapped[0] == '/') {
			snprintf(tag, sizeof(tag), "mapped-by-torch:%s", who ? who : "?");
			add_copy(libs, mapped, tag);
		}
	}
	read_missing_versions(ctx, libs);
}
