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
#include "probe/python.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/ldso.h"
#include "probe/probe.h"
#include "probe/torch_static.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/timeutil.h"
#include "util/version.h"
#include "util/xalloc.h"

/*
 * Kept compatible with Python 3.6+ (no walrus, no f-strings). Lightning is read from package
 * metadata first: importing it costs seconds. Every step catches BaseException, so a broken
 * package yields a reason, and the answer line is always printed last.
 */
const char python_probe_script[] =
	"import sys, os, time, json\n"
	"t0 = time.time()\n"
	"r = {}\n"
	"deep = len(sys.argv) > 1 and sys.argv[1] == \"import\"\n"
	"def err(e):\n"
	"    return \"%s: %s\" % (type(e).__name__, str(e)[:300])\n"
	"def meta(names):\n"
	"    try:\n"
	"        from importlib import metadata\n"
	"    except Exception:\n"
	"        return None\n"
	"    for n in names:\n"
	"        try:\n"
	"            return metadata.version(n)\n"
	"        except Exception:\n"
	"            pass\n"
	"    return None\n"
	"try:\n"
	"    r[\"python\"] = {\"version\": \"%d.%d.%d\" % tuple(sys.version_info[:3]),\n"
	"                   \"executable\": sys.executable, \"prefix\": sys.prefix,\n"
	"                   \"implementation\": sys.implementation.name}\n"
	"    sp = []\n"
	"    try:\n"
	"        import site\n"
	"        sp = list(site.getsitepackages())\n"
	"        if site.ENABLE_USER_SITE:\n"
	"            sp.append(site.getusersitepackages())\n"
	"    except Exception:\n"
	"        pass\n"
	"    for p in sys.path:\n"
	"        if p.endswith((\"site-packages\", \"dist-packages\")) and p not in sp:\n"
	"            sp.append(p)\n"
	"    r[\"site_packages\"] = [p for p in sp if os.path.isdir(p)]\n"
	"    import importlib.util\n"
	"    def pkg(mod, dists):\n"
	"        v = meta(dists)\n"
	"        if v:\n"
	"            return {\"version\": v, \"source\": \"metadata\"}\n"
	"        try:\n"
	"            if importlib.util.find_spec(mod) is None:\n"
	"                return {\"installed\": False}\n"
	"            m = __import__(mod)\n"
	"            return {\"version\": str(getattr(m, \"__version__\", \"\")), \"source\": \"import\"}\n"
	"        except BaseException as e:\n"
	"            return {\"error\": err(e)}\n"
	"    r[\"lightning\"] = pkg(\"lightning\", [\"lightning\"])\n"
	"    r[\"pytorch_lightning\"] = pkg(\"pytorch_lightning\", [\"pytorch-lightning\", \"pytorch_lightning\"])\n"
	"    t = {}\n"
	"    r[\"torch\"] = t\n"
	"    try:\n"
	"        spec = importlib.util.find_spec(\"torch\")\n"
	"    except BaseException as e:\n"
	"        spec = None\n"
	"        t[\"error\"] = err(e)\n"
	"    if spec is None and \"error\" not in t:\n"
	"        t[\"installed\"] = False\n"
	"    elif spec is not None and not deep:\n"
	"        t[\"mode\"] = \"static\"\n"
	"        o = getattr(spec, \"origin\", None)\n"
	"        if o and os.path.basename(o) == \"__init__.py\":\n"
	"            t[\"dir\"] = os.path.dirname(o)\n"
	"    elif spec is not None:\n"
	"        t[\"mode\"] = \"import\"\n"
	"        t1 = time.time()\n"
	"        try:\n"
	"            import torch\n"
	"            t[\"import_ms\"] = int((time.time() - t1) * 1000)\n"
	"            t[\"version\"] = str(torch.__version__)\n"
	"            t[\"path\"] = os.path.dirname(torch.__file__)\n"
	"            t[\"cuda\"] = getattr(torch.version, \"cuda\", None)\n"
	"            try:\n"
	"                t[\"cudnn\"] = torch.backends.cudnn.version()\n"
	"            except BaseException as e:\n"
	"                t[\"cudnn_error\"] = err(e)\n"
	"            try:\n"
	"                t[\"cuda_available\"] = bool(torch.cuda.is_available())\n"
	"                t[\"device_count\"] = int(torch.cuda.device_count())\n"
	"            except BaseException as e:\n"
	"                t[\"cuda_error\"] = err(e)\n"
	"            try:\n"
	"                v = torch.cuda.nccl.version()\n"
	"                t[\"nccl\"] = list(v) if isinstance(v, tuple) else v\n"
	"            except BaseException as e:\n"
	"                t[\"nccl_error\"] = err(e)\n"
	"            try:\n"
	"                libs, host = [], None\n"
	"                f = open(\"/proc/self/maps\")\n"
	"                for line in f:\n"
	"                    parts = line.split(None, 5)\n"
	"                    if len(parts) < 6:\n"
	"                        continue\n"
	"                    p = parts[5].strip()\n"
	"                    b = os.path.basename(p)\n"
	"                    if b.startswith(\"libnccl\") and \".so\" in b and not b.startswith(\"libnccl-\") and p not in libs:\n"
	"                        libs.append(p)\n"
	"                    if b.startswith(\"libtorch_cuda\") and host is None:\n"
	"                        host = p\n"
	"                f.close()\n"
	"                t[\"mapped\"] = libs\n"
	"                t[\"torch_cuda_lib\"] = host\n"
	"            except BaseException as e:\n"
	"                t[\"maps_error\"] = err(e)\n"
	"        except BaseException as e:\n"
	"            t[\"error\"] = err(e)\n"
	"except BaseException as e:\n"
	"    r[\"error\"] = err(e)\n"
	"r[\"elapsed_ms\"] = int((time.time() - t0) * 1000)\n"
	"sys.stdout.write(\"\\n" PYPROBE_MARKER "\" + json.dumps(r) + \"\\n\")\n"
	"sys.stdout.flush()\n";

/* ---- parsing the answer ----------------------------------------------------------------- */

/* A short, printable excerpt of what an interpreter printed, for "unknown, because ...". */
static void excerpt(const char *s, size_t len, char *out, size_t outlen)
{
	size_t o = 0, i = 0;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	for (; i < len && o + 4 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];
		out[o++] = c == '\n' || c == '\t' ? ' ' : (c < 0x20 || c > 0x7e) ? '?' : (char)c;
	}
	while (o && out[o - 1] == ' ')
		o--;
	if (i < len && o + 4 <= outlen) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

/* The start of the last line that begins with the marker, or NULL. */
static const char *find_marker(const char *out, size_t len)
{
	size_t ml = strlen(PYPROBE_MARKER);
	const char *found = NULL;

	for (size_t i = 0; i + ml <= len; i++)
		if ((i == 0 || out[i - 1] == '\n') && !memcmp(out + i, PYPROBE_MARKER, ml))
			found = out + i + ml;
	return found;
}

static const char *str_member(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int int_member(const json_t *o, const char *key, long long *v)
{
	json_t *j = json_object_get(o, key);

	if (!json_is_integer(j))
		return -1;
	*v = json_integer_value(j);
	return 0;
}

/* torch.cuda.nccl.version(): a tuple (2, 28, 9) since torch 1.10, the packed int before. */
static void torch_nccl(const json_t *t, json_t *out)
{
	json_t *v = json_object_get(t, "nccl");
	long long code = -1;
	char buf[64];

	if (json_is_array(v) && json_array_size(v) >= 2 && json_array_size(v) <= 4) {
		long long p[3] = { 0, 0, 0 };
		for (size_t i = 0; i < 3 && i < json_array_size(v); i++) {
			json_t *x = json_array_get(v, i);
			if (!json_is_integer(x) || json_integer_value(x) < 0 ||
			    json_integer_value(x) > 99999)
				goto bad;
			p[i] = json_integer_value(x);
		}
		if (p[1] > 99 || p[2] > 99)
			goto bad;
		code = p[0] <= 2 && p[1] <= 8 ? p[0] * 1000 + p[1] * 100 + p[2]
					      : p[0] * 10000 + p[1] * 100 + p[2];
	} else if (json_is_integer(v) && json_integer_value(v) > 0 &&
		   json_integer_value(v) < 1000000) {
		code = json_integer_value(v);
	} else if (v) {
		goto bad;
	}
	if (code > 0) {
		version_nccl_code_str((int)code, buf, sizeof(buf));
		jset_str(out, "nccl_version", buf);
		jset_int(out, "nccl_version_code", code);
	} else if (str_member(t, "nccl_error")) {
		jset_fmt(out, "nccl_error", "%s", str_member(t, "nccl_error"));
	}
	return;
bad:
	jset_unknown(out, "nccl_version", "torch.cuda.nccl.version() returned an unexpected value");
}

/* Which libnccl the process maps; a torch build that links NCCL statically maps none. */
static void torch_mapped(const json_t *t, json_t *out)
{
	json_t *m = json_object_get(t, "mapped"), *x;
	const char *host = str_member(t, "torch_cuda_lib");
	size_t i;

	if (str_member(t, "maps_error")) {
		jset_unknown(out, "nccl_mapped", "cannot read /proc/self/maps: %s",
			     str_member(t, "maps_error"));
		return;
	}
	if (json_is_array(m) && json_array_size(m) > 0) {
		json_t *all = json_array();
		json_array_foreach(m, i, x)
			if (json_is_string(x) && json_string_value(x)[0] == '/')
				json_array_append(all, x);
		if (json_array_size(all)) {
			json_object_set(out, "nccl_mapped", json_array_get(all, 0));
			if (json_array_size(all) > 1)
				json_object_set(out, "nccl_mapped_all", all);
			jset_bool(out, "nccl_static", 0);
		}
		json_decref(all);
		if (json_object_get(out, "nccl_mapped"))
			return;
	}
	if (!json_object_get(out, "nccl_version_code"))
		return; /* no NCCL in this build: nothing to map */
	if (host && host[0] == '/') {
		jset_str(out, "nccl_mapped", host);
		jset_bool(out, "nccl_static", 1);
	} else {
		jset_unknown(out, "nccl_mapped", "torch reports NCCL but the process maps neither a "
			     "libnccl nor libtorch_cuda");
	}
}

/* torch.backends.cudnn.version()'s code, in the encoding of its era (91002, 8907). */
static void set_cudnn(json_t *out, long long v)
{
	char buf[48];

	if (v >= 10000)
		snprintf(buf, sizeof(buf), "%lld.%lld.%lld", v / 10000, v / 100 % 100, v % 100);
	else
		snprintf(buf, sizeof(buf), "%lld.%lld.%lld", v / 1000, v / 100 % 10, v % 100);
	jset_str(out, "cudnn", buf);
	jset_int(out, "cudnn_code", v);
}

static void torch_part(const json_t *t, json_t *entry)
{
	json_t *out;
	long long v;
	const char *s;

	if (!json_is_object(t)) {
		jset_unknown(entry, "torch", "the probe's answer has no torch section");
		return;
	}
	if (json_is_false(json_object_get(t, "installed"))) {
		out = json_object();
		jset_bool(out, "installed", 0);
		json_object_set_new(entry, "torch", out);
		return;
	}
	s = str_member(t, "mode");
	if (s && !strcmp(s, "static") && !str_member(t, "version") && !str_member(t, "error")) {
		/* found, not imported: the C side reads the rest from its files (python_torch_static) */
		out = json_object();
		jset_bool(out, "installed", 1);
		jset_str(out, "source", "static");
		if ((s = str_member(t, "dir")) && s[0] == '/')
			jset_str(out, "path", s);
		json_object_set_new(entry, "torch", out);
		return;
	}
	if (!str_member(t, "version")) {
		s = str_member(t, "error");
		jset_unknown(entry, "torch", "import torch failed: %s", s ? s : "no version reported");
		return;
	}
	out = json_object();
	jset_bool(out, "installed", 1);
	jset_str(out, "source", "import");
	jset_str(out, "version", str_member(t, "version"));
	if ((s = str_member(t, "path")))
		jset_str(out, "path", s);
	if ((s = str_member(t, "cuda")))
		jset_str(out, "cuda", s);
	else
		json_object_set_new(out, "cuda", json_null()); /* a CPU-only build */
	if (int_member(t, "cudnn", &v) == 0 && v > 0) {
		set_cudnn(out, v);
	} else if ((s = str_member(t, "cudnn_error"))) {
		jset_unknown(out, "cudnn", "torch.backends.cudnn.version() failed: %s", s);
	} else {
		json_object_set_new(out, "cudnn", json_null());
	}
	if ((s = str_member(t, "cuda_error"))) {
		jset_unknown(out, "cuda_available", "torch.cuda.is_available() failed: %s", s);
	} else {
		json_t *ca = json_object_get(t, "cuda_available");
		if (json_is_boolean(ca))
			json_object_set(out, "cuda_available", ca);
		if (int_member(t, "device_count", &v) == 0 && v >= 0)
			jset_int(out, "device_count", v);
	}
	if (int_member(t, "import_ms", &v) == 0 && v >= 0)
		jset_int(out, "import_ms", v);
	torch_nccl(t, out);
	torch_mapped(t, out);
	json_object_set_new(entry, "torch", out);
}

static void package_part(const json_t *r, const char *key, json_t *entry)
{
	json_t *p = json_object_get(r, key), *out;
	const char *s;

	if (!json_is_object(p)) {
		jset_unknown(entry, key, "the probe's answer has no %s section", key);
		return;
	}
	out = json_object();
	if (json_is_false(json_object_get(p, "installed"))) {
		jset_bool(out, "installed", 0);
	} else if ((s = str_member(p, "version")) && *s) {
		jset_bool(out, "installed", 1);
		jset_str(out, "version", s);
		if ((s = str_member(p, "source")))
			jset_str(out, "source", s);
	} else {
		json_decref(out);
		s = str_member(p, "error");
		jset_unknown(entry, key, "import %s failed: %s", key, s ? s : "no version reported");
		return;
	}
	json_object_set_new(entry, key, out);
}

int python_parse_output(const char *out, size_t len, json_t *entry, struct err *e)
{
	const char *ans = find_marker(out, len), *end, *s;
	json_error_t jerr;
	json_t *r, *py, *sp, *x;
	char ex[160];
	size_t i;

	if (!ans) {
		excerpt(out, len, ex, sizeof(ex));
		if (!ex[0])
			return err_set(e, ERR_PARSE, "the probe printed nothing");
		return err_set(e, ERR_PARSE, "the probe printed '%s'", ex);
	}
	end = memchr(ans, '\n', len - (size_t)(ans - out));
	r = json_loadb(ans, end ? (size_t)(end - ans) : len - (size_t)(ans - out), 0, &jerr);
	if (!json_is_object(r)) {
		json_decref(r);
		excerpt(ans, end ? (size_t)(end - ans) : len - (size_t)(ans - out), ex, sizeof(ex));
		return err_set(e, ERR_PARSE, "the probe's answer is not a JSON object: '%s'", ex);
	}
	py = json_object_get(r, "python");
	if (!json_is_object(py) || !str_member(py, "version")) {
		s = str_member(r, "error");
		err_set(e, ERR_PARSE, "the probe failed: %s", s ? s : "no Python version in its answer");
		json_decref(r);
		return -1;
	}
	jset_str(entry, "version", str_member(py, "version"));
	if ((s = str_member(py, "executable")))
		jset_str(entry, "executable", s);
	if ((s = str_member(py, "prefix")))
		jset_str(entry, "prefix", s);
	if ((s = str_member(py, "implementation")))
		jset_str(entry, "implementation", s);
	sp = json_array();
	json_array_foreach(json_object_get(r, "site_packages"), i, x)
		if (json_is_string(x) && json_string_value(x)[0] == '/' && json_array_size(sp) < 64)
			json_array_append(sp, x);
	json_object_set_new(entry, "site_packages", sp);
	if ((s = str_member(r, "error"))) {
		/* the script died after the interpreter facts: the rest is unknown, with the reason */
		jset_unknown(entry, "torch", "the probe failed: %s", s);
		jset_unknown(entry, "lightning", "the probe failed: %s", s);
		jset_unknown(entry, "pytorch_lightning", "the probe failed: %s", s);
	} else {
		torch_part(json_object_get(r, "torch"), entry);
		package_part(r, "lightning", entry);
		package_part(r, "pytorch_lightning", entry);
	}
	json_decref(r);
	return 0;
}

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
			excerpt(r.errout.buf, r.errout.len, ex, sizeof(ex));
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
		const char *r = str_member(x, "realpath");
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
	const char *cvd = envmap_get(ctx->env, "CUDA_VISIBLE_DEVICES"), *init, *p;
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
	const char *dir = str_member(t, "path");
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
		snprintf(why, n, "nccl_mapped: '%s': %s", ts.nccl_path, strerror(errno));
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
	jset_str(t, "nccl_version", str_member(lib, "version"));
	jset_int(t, "nccl_version_code", json_integer_value(json_object_get(lib, "version_code")));
	json_decref(lib);
	jset_str(t, "nccl_mapped", real);
	jset_bool(t, "nccl_static", ts.nccl_static);
	jset_str(t, "nccl_how", ts.nccl_how);

	if (!ts.cudnn_path) {
		json_object_set_new(t, "cudnn", json_null());	/* built without cuDNN */
	} else if (!realpath(ts.cudnn_path, real)) {
		snprintf(why, n, "cudnn: '%s': %s", ts.cudnn_path, strerror(errno));
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
		set_cudnn(t, json_integer_value(json_object_get(lib, "version_code")));
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
		const char *src = str_member(t, "source");
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
	const char *ea = str_member(a, "executable"), *eb = str_member(b, "executable");
	const char *pa = str_member(a, "prefix"), *pb = str_member(b, "prefix");
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
		jset_unknown(facts, "python", "not probed (--no-python)");
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
