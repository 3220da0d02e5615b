/*
 * The Python stack of every interpreter that matters: python3 on PATH, /usr/bin/python3 when it
 * is another one, the active venv and conda environment, and each --python. A small script runs
 * in each (the children start before the other probes and are collected after them) and prints
 * one JSON line: versions of Python and Lightning (package metadata), the site-packages
 * directories, and where torch is, found without importing it (importing costs seconds on a GPU
 * machine). The torch facts then come from its files (probe/torch_static.h), read here on the
 * C side; an interpreter whose files cannot settle them, or every one with --deep, imports torch
 * instead and reports torch's own answers, including which libnccl the process maps (its
 * /proc/self/maps).
 */
#include "probe/python_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/vars.h"
#include "probe/ldso.h"
#include "probe/probe.h"
#include "probe/torch_static.h"
#include "util/file.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/timeutil.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ---- choosing and running the interpreters ------------------------------------------------- */

struct py_cand {
	char *path;
	char *key;		/* identity: realpath, plus the venv it belongs to */
	json_t *why;		/* array of reasons it is inspected */
	int started, done;
	char *start_err;
	struct subproc sp;
	json_t *entry;		/* the python[] element being filled */
	/* output drained while waiting, so a chatty child never blocks on a full pipe */
	struct strbuf out, err;
	int out_eof, err_eof;
	char *fallback;		/* why the static path gave way to the import, or NULL */
};

struct python_run {
	struct py_cand *v;
	size_t n, alloc;
	int64_t t0;
	long timeout_ms;
	/* the job's environment, and no .pyc files in the user's trees */
	struct envmap *env;
};

/* The directory above bin/ when it holds a pyvenv.cfg: a venv shares its interpreter binary. */
static char *venv_root(const char *path)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/'), *cfg;

	if (!slash) {
		free(copy);
		return NULL;
	}
	*slash = '\0';
	slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	cfg = xasprintf("%s/pyvenv.cfg", copy[0] ? copy : "/");
	if (!file_exists(cfg)) {
		free(cfg);
		free(copy);
		return NULL;
	}
	free(cfg);
	return copy;
}

static char *cand_key(const char *path)
{
	char real[PATH_MAX];
	char *venv = venv_root(path), *key;

	key = xasprintf("%s|%s", realpath(path, real) ? real : path, venv ? venv : "");
	free(venv);
	return key;
}

static void add_cand(struct python_run *run, const char *path, const char *why)
{
	char *key = cand_key(path);

	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->v[i].key, key)) {
			json_array_append_new(run->v[i].why, json_string(why));
			free(key);
			return;
		}
	ALLOC_GROW(run->v, run->n + 1, run->alloc);
	memset(&run->v[run->n], 0, sizeof(run->v[run->n]));
	strbuf_init(&run->v[run->n].out, 0);
	strbuf_init(&run->v[run->n].err, 0);
	run->v[run->n].path = xstrdup(path);
	run->v[run->n].key = key;
	run->v[run->n].why = json_array();
	json_array_append_new(run->v[run->n].why, json_string(why));
	run->n++;
}

static void env_python(const struct probe_ctx *ctx, struct python_run *run, const char *var,
		       const char *why)
{
	const char *root = probe_ctx_env(ctx, var);
	static const char *const names[] = { "bin/python", "bin/python3" };

	if (!root)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s", root, names[i]);
		if (access(p, X_OK) == 0) {
			add_cand(run, p, why);
			free(p);
			return;
		}
		free(p);
	}
}

/* Runs the script in `mode` ("static": find torch, "import": import it) as the job would. */
static void start_one(struct python_run *run, struct py_cand *c, const char *mode)
{
	char *argv[] = { c->path, "-c", (char *)python_probe_script, (char *)mode, NULL };
	struct err e = ERR_INIT;
	struct stat st;

	if (stat(c->path, &st) < 0) {
		c->start_err = xasprintf("'%s' does not exist", c->path);
		return;
	}
	if (access(c->path, X_OK) < 0 || S_ISDIR(st.st_mode)) {
		c->start_err = xasprintf("'%s' is not an executable file", c->path);
		return;
	}
	if (subproc_start_envp(&c->sp, argv, envmap_envp(run->env), &e) < 0)
		c->start_err = xasprintf("cannot start '%s': %s", c->path, e.msg);
	else
		c->started = 1;
}

struct python_run *probe_python_start(const struct probe_ctx *ctx)
{
	struct python_run *run;
	char *p;

	if (ctx->skip_python)
		return NULL;
	run = xcalloc(1, sizeof(*run));
	run->t0 = time_now_ms();
	run->timeout_ms = ctx->python_timeout_ms > 0 ? ctx->python_timeout_ms : 20000;
	if ((p = probe_which(ctx, "python3"))) {
		add_cand(run, p, "PATH");
		free(p);
	}
	if (access("/usr/bin/python3", X_OK) == 0)
		add_cand(run, "/usr/bin/python3", "/usr/bin");
	env_python(ctx, run, "VIRTUAL_ENV", "venv");
	env_python(ctx, run, "CONDA_PREFIX", "conda");
	for (size_t i = 0; i < ctx->npythons; i++)
		add_cand(run, ctx->pythons[i], "--python");

	run->env = envmap_new(envmap_envp(ctx->env));
	envmap_set(run->env, "PYTHONDONTWRITEBYTECODE", "1");
	for (size_t i = 0; i < run->n; i++)
		start_one(run, &run->v[i], ctx->deep ? "import" : "static");
	return run;
}

static void set_all_unknown(json_t *entry, const char *fmt, const char *arg)
{
	static const char *const parts[] = { "version", "torch", "lightning", "pytorch_lightning" };

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		jset_unknown(entry, parts[i], fmt, arg);
}

#define PY_OUT_CAP (256 * 1024)

/* Replaces `dst` with the contents of `src`, leaving `src` empty. */
static void strbuf_swap_into(struct strbuf *dst, struct strbuf *src)
{
	strbuf_reset(dst);
	strbuf_add(dst, src->buf, src->len);
	strbuf_release(src);
}

static void finish_one(struct python_run *run, struct py_cand *c)
{
	struct subproc_result r;
	struct err e = ERR_INIT;
	char buf[ERR_MSG_LEN + 64];
	json_t *entry = c->entry;

	c->done = 1;
	if (!c->started) {
		set_all_unknown(entry, "%s", c->start_err);
		return;
	}
	subproc_result_init(&r);
	subproc_finish(&c->sp, run->timeout_ms, PY_OUT_CAP, &r);
	/* what was drained while waiting comes first; subproc_finish read the rest */
	strbuf_add(&c->out, r.out.buf, r.out.len);
	strbuf_add(&c->err, r.errout.buf, r.errout.len);
	strbuf_swap_into(&r.out, &c->out);
	strbuf_swap_into(&r.errout, &c->err);
	jset_int(entry, "elapsed_ms", r.elapsed_ms);
	if (r.timed_out) {
		snprintf(buf, sizeof(buf), "'%s' did not answer within %ld s (importing torch can "
			 "hang on a broken driver or a slow network file system; raise "
			 "--python-timeout)", c->path, run->timeout_ms / 1000);
		set_all_unknown(entry, "%s", buf);
	} else if (python_parse_output(r.out.buf, r.out.len, entry, &e) < 0) {
		/* stderr explains a failed exec or a crash better than an empty stdout */
		if (!r.out.len && r.errout.len) {
			char ex[160];
			python_excerpt(r.errout.buf, r.errout.len, ex, sizeof(ex));
			snprintf(buf, sizeof(buf), "'%s' exited with %s %d and printed '%s'", c->path,
				 r.exited ? "status" : "signal", r.status, ex);
		} else {
			snprintf(buf, sizeof(buf), "%s (%s %d)", e.msg,
				 r.exited ? "exit status" : "signal", r.status);
		}
		set_all_unknown(entry, "%s", buf);
	}
	subproc_result_release(&r);
}

/* Reads what is waiting on one of a child's pipes; notes EOF. Keeps at most PY_OUT_CAP bytes. */
static void drain_some(int fd, struct strbuf *sb, int *eof)
{
	char buf[16384];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0) {
		size_t room = sb->len < PY_OUT_CAP ? PY_OUT_CAP - sb->len : 0;
		strbuf_add(sb, buf, (size_t)n < room ? (size_t)n : room);
	} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
		*eof = 1;
	}
}

/*
 * Collects the children in the order they finish, not the order they started: a child that
 * answered at once must not be judged by the deadline of a slow one collected before it. Output
 * is drained as it comes (a child that fills a pipe would otherwise stall until its deadline);
 * a child whose pipes are both at EOF has exited and is reaped; one past its deadline is killed.
 */
static void collect_all(struct python_run *run)
{
	size_t cap = 2 * (run->n ? run->n : 1);
	struct pollfd *pf = xcalloc(cap, sizeof(*pf));
	size_t *idx = xcalloc(cap, sizeof(*idx));

	for (size_t i = 0; i < run->n; i++)
		if (!run->v[i].started && !run->v[i].done)
			finish_one(run, &run->v[i]);
	for (;;) {
		int64_t now = time_now_ms(), next = -1;
		nfds_t k = 0;

		for (size_t i = 0; i < run->n; i++) {
			struct py_cand *c = &run->v[i];
			int64_t deadline = c->sp.start_ms + run->timeout_ms;
			if (c->done)
				continue;
			if (deadline <= now || (c->out_eof && c->err_eof)) {
				finish_one(run, c); /* reaps it, or kills it and says so */
				continue;
			}
			if (!c->out_eof) {
				pf[k] = (struct pollfd){ .fd = c->sp.ofd, .events = POLLIN };
				idx[k++] = 2 * i;
			}
			if (!c->err_eof) {
				pf[k] = (struct pollfd){ .fd = c->sp.efd, .events = POLLIN };
				idx[k++] = 2 * i + 1;
			}
			if (next < 0 || deadline < next)
				next = deadline;
		}
		if (!k)
			break;
		if (poll(pf, k, (int)(next - now)) < 0 && errno != EINTR)
			break;
		for (nfds_t j = 0; j < k; j++) {
			struct py_cand *c = &run->v[idx[j] / 2];
			if (!pf[j].revents)
				continue;
			if (idx[j] % 2)
				drain_some(c->sp.efd, &c->err, &c->err_eof);
			else
				drain_some(c->sp.ofd, &c->out, &c->out_eof);
		}
	}
	/* only reached early when poll itself failed: collect the rest by their deadlines */
	for (size_t i = 0; i < run->n; i++)
		if (!run->v[i].done)
			finish_one(run, &run->v[i]);
	free(pf);
	free(idx);
}

/* ---- the static path: torch's facts from its files ----------------------------------------- */

/* The loader as the job runs it (probe/ldso.h), built once per run when a torch is read. */
struct py_loader {
	struct ldcache cache;
	struct ldso_dirs dirs;
	struct ld_search s;
	char cwd[PATH_MAX];
};

static void loader_init(const struct probe_ctx *ctx, struct py_loader *l)
{
	char *path = probe_etc_path(ctx, "ld.so.cache");

	memset(l, 0, sizeof(*l));
	if (ldcache_read(path, &l->cache, NULL) < 0)
		memset(&l->cache, 0, sizeof(l->cache));
	free(path);
	ldso_dirs_get(&l->dirs);
	l->s.preload = envmap_get(ctx->env, "LD_PRELOAD");
	l->s.library_path = envmap_get(ctx->env, "LD_LIBRARY_PATH");
	l->s.cache = &l->cache;
	l->s.system_dirs = (const char *const *)l->dirs.dirs;
	l->s.nsystem_dirs = l->dirs.ndirs;
	l->s.hwcaps = (const char *const *)l->dirs.hwcaps;
	l->s.nhwcaps = l->dirs.nhwcaps;
	l->s.cwd = getcwd(l->cwd, sizeof(l->cwd)) ? l->cwd : ".";
}

static void loader_release(struct py_loader *l)
{
	ldcache_release(&l->cache);
	ldso_dirs_release(&l->dirs);
}

/* The element of facts[key] (an array of libraries) whose realpath is `real` and has a version. */
static const json_t *known_lib(const json_t *arr, const char *real)
{
	size_t i;
	json_t *x;

	json_array_foreach(arr, i, x) {
		const char *r = python_str_member(x, "realpath");
		if (r && !strcmp(r, real) && json_is_integer(json_object_get(x, "version_code")))
			return x;
	}
	return NULL;
}

/*
 * What torch.cuda.device_count() will say for a CUDA build, from the GPU probe's facts and the
 * job's CUDA_VISIBLE_DEVICES as the CUDA runtime reads it (indices up to the first one that is
 * not a device). -1 with `why` when the facts cannot settle it.
 */
static long static_device_count(const struct probe_ctx *ctx, const json_t *facts, const char *cuda,
				char *why, size_t n)
{
	const json_t *driver = json_object_get(facts, "driver"), *gpus = json_object_get(facts, "gpus");
	const char *cvd = envmap_get(ctx->env, lv_name(LV_CUDA_VISIBLE_DEVICES)), *init, *p;
	long long max_code = jpath_int(driver, "cuda_max_code", -1);
	unsigned char seen[4096] = { 0 };
	long count = 0;
	size_t ngpu;

	if (!json_is_object(driver) || json_object_get(driver, "unknown")) {
		snprintf(why, n, "the GPU probe could not tell whether there is a driver");
		return -1;
	}
	if (json_is_false(json_object_get(driver, "present")))
		return 0;
	if (!json_is_array(gpus)) {
		snprintf(why, n, "NVML did not list the GPUs");
		return -1;
	}
	init = jpath_str(driver, "cuda_driver.init");
	if (init && strcmp(init, "CUDA_SUCCESS"))
		return 0;	/* cuInit fails: the CUDA runtime sees no device */
	/* a runtime newer than the driver's major fails to initialise (minor-version compatible) */
	if (max_code > 0 && atoi(cuda) > max_code / 1000)
		return 0;
	ngpu = json_array_size(gpus);
	if (!cvd)
		return (long)ngpu;
	for (p = cvd; *p && ngpu < sizeof(seen);) {
		char *end;
		long v;

		while (*p == ' ')
			p++;
		if (!strncmp(p, "GPU-", 4) || !strncmp(p, "MIG-", 4)) {
			snprintf(why, n, "CUDA_VISIBLE_DEVICES names devices by UUID ('%.60s')", cvd);
			return -1;
		}
		if (!isdigit((unsigned char)*p))
			break;
		v = strtol(p, &end, 10);
		if (*end && *end != ',') {
			snprintf(why, n, "CUDA_VISIBLE_DEVICES has an entry the runtime may read "
				 "differently ('%.60s')", cvd);
			return -1;
		}
		if (v < 0 || (size_t)v >= ngpu || seen[v])
			break;
		seen[v] = 1;
		count++;
		p = *end ? end + 1 : end;
	}
	return count;
}

/*
 * Fills the torch section `t` of one interpreter from torch's files: version.py, the libnccl and
 * libcudnn that libtorch_cuda.so will map (their versions read the way the NCCL and cuDNN probes
 * read them, or taken from those probes' facts for the same file). Returns 0, or -1 with `why`
 * naming the fact that needs the import.
 */
static int static_torch(const struct probe_ctx *ctx, const json_t *facts, const struct ld_search *s,
			json_t *t, char *why, size_t n)
{
	const char *dir = python_str_member(t, "path");
	struct torch_static ts;
	struct err e = ERR_INIT;
	char real[PATH_MAX];
	const json_t *known;
	json_t *lib;
	long count;
	int rc = -1;

	if (!dir) {
		snprintf(why, n, "path: the interpreter finds torch, but not as a torch/__init__.py");
		return -1;
	}
	if (torch_static_read(dir, s, &ts, &e) < 0) {
		snprintf(why, n, "version: %s", e.msg);
		return -1;
	}
	if (ts.unsettled[0]) {
		snprintf(why, n, "nccl_mapped: %s", ts.unsettled);
		goto out;
	}
	if (ts.v.hip[0]) {
		snprintf(why, n, "cuda: a ROCm build (hip %s)", ts.v.hip);
		goto out;
	}
	jset_str(t, "version", ts.v.version);
	if (!ts.v.cuda[0]) {
		/* a CPU build: what torch itself answers for one */
		json_object_set_new(t, "cuda", json_null());
		json_object_set_new(t, "cudnn", json_null());
		jset_bool(t, "cuda_available", 0);
		jset_int(t, "device_count", 0);
		jset_str(t, "nccl_error", "a CPU build (version.py: cuda = None) has no NCCL");
		rc = 0;
		goto out;
	}
	jset_str(t, "cuda", ts.v.cuda);

	if (!realpath(ts.nccl_path, real)) {
		snprintf(why, n, "nccl_mapped: '%s': %s", ts.nccl_path, err_errno_text(errno));
		goto out;
	}
	lib = json_object();
	jset_str(lib, "realpath", real);
	if ((known = known_lib(jpath(facts, "nccl.libs"), real)))
		json_object_update(lib, (json_t *)known);
	else
		probe_nccl_lib_version(ctx, lib);
	if (!json_is_integer(json_object_get(lib, "version_code"))) {
		snprintf(why, n, "nccl_version: %s", jpath_str(lib, "version.unknown") ?
			 jpath_str(lib, "version.unknown") : "ncclGetVersion() gave no version");
		json_decref(lib);
		goto out;
	}
	jset_str(t, "nccl_version", python_str_member(lib, "version"));
	jset_int(t, "nccl_version_code", json_integer_value(json_object_get(lib, "version_code")));
	json_decref(lib);
	jset_str(t, "nccl_mapped", real);
	jset_bool(t, "nccl_static", ts.nccl_static);
	jset_str(t, "nccl_how", ts.nccl_how);

	if (!ts.cudnn_path) {
		json_object_set_new(t, "cudnn", json_null());	/* built without cuDNN */
	} else if (!realpath(ts.cudnn_path, real)) {
		snprintf(why, n, "cudnn: '%s': %s", ts.cudnn_path, err_errno_text(errno));
		goto out;
	} else {
		json_t *one = json_array();
		lib = json_object();
		jset_str(lib, "path", ts.cudnn_path);
		jset_str(lib, "realpath", real);
		json_array_append_new(one, lib);
		if ((known = known_lib(json_object_get(facts, "cudnn"), real)))
			json_object_update(lib, (json_t *)known);
		else
			probe_cudnn_lib_versions(one);
		if (!json_is_integer(json_object_get(lib, "version_code"))) {
			snprintf(why, n, "cudnn: '%.300s' gave no version", real);
			json_decref(one);
			goto out;
		}
		python_set_cudnn(t, json_integer_value(json_object_get(lib, "version_code")));
		json_decref(one);
	}

	count = static_device_count(ctx, facts, ts.v.cuda, why, n);
	if (count < 0) {
		/* the rest is settled: say what is not, rather than pay seconds for two numbers */
		jset_unknown(t, "cuda_available", "not settled statically: %s (--deep imports torch)",
			     why);
		jset_unknown(t, "device_count", "not settled statically: %s", why);
	} else {
		jset_bool(t, "cuda_available", count > 0);
		jset_int(t, "device_count", count);
	}
	why[0] = '\0';
	rc = 0;
out:
	torch_static_release(&ts);
	return rc;
}

/*
 * Every interpreter that found torch without importing it gets its facts from the files; one
 * whose files cannot settle them is run again, importing torch, with the reason kept. Returns
 * how many were restarted.
 */
static size_t static_pass(struct python_run *run, const struct probe_ctx *ctx, const json_t *facts)
{
	struct py_loader l;
	int have_loader = 0;
	size_t restarted = 0;

	for (size_t i = 0; i < run->n; i++) {
		struct py_cand *c = &run->v[i];
		json_t *t = json_object_get(c->entry, "torch");
		const char *src = python_str_member(t, "source");
		char why[400];

		if (!src || strcmp(src, "static"))
			continue;
		if (!have_loader) {
			loader_init(ctx, &l);
			have_loader = 1;
		}
		if (static_torch(ctx, facts, &l.s, t, why, sizeof(why)) == 0)
			continue;
		c->fallback = xstrdup(why);
		json_object_clear(c->entry);
		jset_str(c->entry, "path", c->path);
		json_object_set(c->entry, "why", c->why);
		c->done = c->started = 0;
		c->out_eof = c->err_eof = 0;
		strbuf_reset(&c->out);
		strbuf_reset(&c->err);
		free(c->start_err);
		c->start_err = NULL;
		start_one(run, c, "import");
		restarted++;
	}
	if (have_loader)
		loader_release(&l);
	return restarted;
}

/* After the import it forced: say which fact did, beside the import's answer. */
static void note_fallbacks(struct python_run *run)
{
	for (size_t i = 0; i < run->n; i++) {
		json_t *t = json_object_get(run->v[i].entry, "torch");
		const char *u = json_string_value(json_object_get(t, "unknown"));

		if (!run->v[i].fallback || !json_is_object(t))
			continue;
		if (u)	/* the import failed too: both reasons, in one */
			jset_unknown(run->v[i].entry, "torch", "%s (imported because the files could "
				     "not settle %s)", u, run->v[i].fallback);
		else
			jset_str(t, "static_fallback", run->v[i].fallback);
	}
}

/* Two routes to one environment (a pyenv shim and the binary it runs): keep the first. */
static int same_env(const json_t *a, const json_t *b)
{
	const char *ea = python_str_member(a, "executable"), *eb = python_str_member(b, "executable");
	const char *pa = python_str_member(a, "prefix"), *pb = python_str_member(b, "prefix");
	char ra[PATH_MAX], rb[PATH_MAX];

	if (!ea || !eb || !pa || !pb || strcmp(pa, pb))
		return 0;
	return realpath(ea, ra) && realpath(eb, rb) && !strcmp(ra, rb);
}

long probe_python_finish(struct python_run *run, const struct probe_ctx *ctx, json_t *facts)
{
	json_t *arr;
	long elapsed;

	if (!run) {
		jset_unknown(facts, "python", N_("not probed (--no-python)"));
		return 0;
	}
	for (size_t i = 0; i < run->n; i++) {
		run->v[i].entry = json_object();
		jset_str(run->v[i].entry, "path", run->v[i].path);
		json_object_set(run->v[i].entry, "why", run->v[i].why);
	}
	collect_all(run);
	if (static_pass(run, ctx, facts)) {
		collect_all(run);	/* the interpreters whose torch had to be imported after all */
		note_fallbacks(run);
	}
	arr = json_array();
	for (size_t i = 0; i < run->n; i++) {
		struct py_cand *c = &run->v[i];
		json_t *entry = c->entry, *prev;
		size_t j;
		int merged = 0;

		json_array_foreach(arr, j, prev)
			if (same_env(prev, entry)) {
				json_t *w;
				size_t k;
				json_array_foreach(c->why, k, w)
					json_array_append(json_object_get(prev, "why"), w);
				jarr_child(prev, "also_as");
				json_array_append_new(json_object_get(prev, "also_as"),
						      json_string(c->path));
				merged = 1;
				break;
			}
		if (merged)
			json_decref(entry);
		else
			json_array_append_new(arr, entry);
	}
	json_object_set_new(facts, "python", arr);
	elapsed = (long)(time_now_ms() - run->t0);
	for (size_t i = 0; i < run->n; i++) {
		free(run->v[i].path);
		free(run->v[i].key);
		free(run->v[i].start_err);
		strbuf_release(&run->v[i].out);
		strbuf_release(&run->v[i].err);
		json_decref(run->v[i].why);
		free(run->v[i].fallback);
	}
	envmap_free(run->env);
	free(run->v);
	free(run);
	return elapsed;
}
