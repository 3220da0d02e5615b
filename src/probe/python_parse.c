/*
 * The script that probe/python.c runs in each interpreter, and the strict decoding of the one
 * JSON line it prints into a facts entry.
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
	"def supply():\n"
	"    # RECORD of the wheels a job imports, checked cheaply: sha256 of each package's top-level\n"
	"    # __init__.py (runs on import) and the size of every shared library (a stat, no read)\n"
	"    s = {\"dists\": [], \"payloads\": []}\n"
	"    try:\n"
	"        from importlib import metadata\n"
	"        import hashlib, base64\n"
	"    except Exception:\n"
	"        return s\n"
	"    for n in (\"torch\", \"lightning\", \"pytorch-lightning\", \"nvidia-nccl-cu11\", \"nvidia-nccl-cu12\", \"nvidia-nccl-cu13\"):\n"
	"        try:\n"
	"            d = metadata.distribution(n)\n"
	"        except Exception:\n"
	"            continue\n"
	"        e = {\"name\": n, \"version\": str(d.version), \"checked\": 0, \"mismatch\": []}\n"
	"        try:\n"
	"            e[\"installer\"] = (d.read_text(\"INSTALLER\") or \"\").strip()[:40]\n"
	"            for f in d.files or []:\n"
	"                ps = str(f)\n"
	"                parts = ps.split(\"/\")\n"
	"                so = parts[-1].endswith(\".so\") or \".so.\" in parts[-1]\n"
	"                top = len(parts) == 2 and parts[1] == \"__init__.py\" and not parts[0].endswith(\".dist-info\")\n"
	"                if not (so and f.size) and not (top and f.hash and f.hash.mode == \"sha256\"):\n"
	"                    continue\n"
	"                a = str(f.locate())\n"
	"                if not os.path.isfile(a):\n"
	"                    continue\n"
	"                e[\"checked\"] += 1\n"
	"                if so and f.size and os.path.getsize(a) != int(f.size):\n"
	"                    e[\"mismatch\"].append({\"path\": a, \"kind\": \"size\"})\n"
	"                elif top:\n"
	"                    h = hashlib.sha256()\n"
	"                    fh = open(a, \"rb\")\n"
	"                    h.update(fh.read())\n"
	"                    fh.close()\n"
	"                    if base64.urlsafe_b64encode(h.digest()).rstrip(b\"=\").decode() != f.hash.value:\n"
	"                        e[\"mismatch\"].append({\"path\": a, \"kind\": \"sha256\"})\n"
	"                if len(e[\"mismatch\"]) >= 16:\n"
	"                    break\n"
	"        except BaseException as x:\n"
	"            e[\"error\"] = err(x)\n"
	"        s[\"dists\"].append(e)\n"
	"    try:\n"
	"        sp = importlib.util.find_spec(\"lightning\")\n"
	"        for d in (getattr(sp, \"submodule_search_locations\", None) or []) if sp else []:\n"
	"            p = os.path.join(d, \"_runtime\")\n"
	"            if os.path.isdir(p) and p not in s[\"payloads\"]:\n"
	"                s[\"payloads\"].append(p)\n"
	"    except BaseException as x:\n"
	"        s[\"error\"] = err(x)\n"
	"    return s\n"
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
	"    r[\"supply\"] = supply()\n"
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
void python_excerpt(const char *s, size_t len, char *out, size_t outlen)
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

const char *python_str_member(const json_t *o, const char *key)
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
	} else if (python_str_member(t, "nccl_error")) {
		jset_fmt(out, "nccl_error", "%s", python_str_member(t, "nccl_error"));
	}
	return;
bad:
	jset_unknown(out, "nccl_version", "torch.cuda.nccl.version() returned an unexpected value");
}

/* Which libnccl the process maps; a torch build that links NCCL statically maps none. */
static void torch_mapped(const json_t *t, json_t *out)
{
	json_t *m = json_object_get(t, "mapped"), *x;
	const char *host = python_str_member(t, "torch_cuda_lib");
	size_t i;

	if (python_str_member(t, "maps_error")) {
		jset_unknown(out, "nccl_mapped", "cannot read /proc/self/maps: %s",
			     python_str_member(t, "maps_error"));
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
void python_set_cudnn(json_t *out, long long v)
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
	s = python_str_member(t, "mode");
	if (s && !strcmp(s, "static") && !python_str_member(t, "version") && !python_str_member(t, "error")) {
		/* found, not imported: the C side reads the rest from its files (python_torch_static) */
		out = json_object();
		jset_bool(out, "installed", 1);
		jset_str(out, "source", "static");
		if ((s = python_str_member(t, "dir")) && s[0] == '/')
			jset_str(out, "path", s);
		json_object_set_new(entry, "torch", out);
		return;
	}
	if (!python_str_member(t, "version")) {
		s = python_str_member(t, "error");
		jset_unknown(entry, "torch", "import torch failed: %s", s ? s : "no version reported");
		return;
	}
	out = json_object();
	jset_bool(out, "installed", 1);
	jset_str(out, "source", "import");
	jset_str(out, "version", python_str_member(t, "version"));
	if ((s = python_str_member(t, "path")))
		jset_str(out, "path", s);
	if ((s = python_str_member(t, "cuda")))
		jset_str(out, "cuda", s);
	else
		json_object_set_new(out, "cuda", json_null()); /* a CPU-only build */
	if (int_member(t, "cudnn", &v) == 0 && v > 0) {
		python_set_cudnn(out, v);
	} else if ((s = python_str_member(t, "cudnn_error"))) {
		jset_unknown(out, "cudnn", "torch.backends.cudnn.version() failed: %s", s);
	} else {
		json_object_set_new(out, "cudnn", json_null());
	}
	if ((s = python_str_member(t, "cuda_error"))) {
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
	} else if ((s = python_str_member(p, "version")) && *s) {
		jset_bool(out, "installed", 1);
		jset_str(out, "version", s);
		if ((s = python_str_member(p, "source")))
			jset_str(out, "source", s);
	} else {
		json_decref(out);
		s = python_str_member(p, "error");
		jset_unknown(entry, key, "import %s failed: %s", key, s ? s : "no version reported");
		return;
	}
	json_object_set_new(entry, key, out);
}

/* The wheels' RECORD check and Lightning payloads: strings and counts kept only when well typed. */
static void supply_part(const json_t *r, json_t *entry)
{
	json_t *p = json_object_get(r, "supply"), *out, *dists, *pay, *x, *y;
	size_t i, j;

	if (!json_is_object(p)) {
		jset_unknown(entry, "supply", "the probe's answer has no supply section");
		return;
	}
	out = json_object();
	dists = json_array();
	json_array_foreach(json_object_get(p, "dists"), i, x) {
		json_t *d, *mm;
		long long n;
		if (!python_str_member(x, "name") || !python_str_member(x, "version") ||
		    json_array_size(dists) >= 16)
			continue;
		d = json_object();
		jset_str(d, "name", python_str_member(x, "name"));
		jset_str(d, "version", python_str_member(x, "version"));
		if (python_str_member(x, "installer"))
			jset_str(d, "installer", python_str_member(x, "installer"));
		if (!int_member(x, "checked", &n) && n >= 0)
			jset_int(d, "checked", n);
		if (python_str_member(x, "error"))
			jset_str(d, "error", python_str_member(x, "error"));
		mm = json_array();
		json_array_foreach(json_object_get(x, "mismatch"), j, y) {
			const char *path = python_str_member(y, "path"), *k = python_str_member(y, "kind");
			json_t *o;
			if (!path || path[0] != '/' || !k || (strcmp(k, "sha256") && strcmp(k, "size")) ||
			    json_array_size(mm) >= 16)
				continue;
			o = json_object();
			jset_str(o, "path", path);
			jset_str(o, "kind", k);
			json_array_append_new(mm, o);
		}
		json_object_set_new(d, "mismatch", mm);
		json_array_append_new(dists, d);
	}
	json_object_set_new(out, "dists", dists);
	pay = json_array();
	json_array_foreach(json_object_get(p, "payloads"), i, x)
		if (json_is_string(x) && json_string_value(x)[0] == '/' && json_array_size(pay) < 16)
			json_array_append(pay, x);
	json_object_set_new(out, "payloads", pay);
	if (python_str_member(p, "error"))
		jset_str(out, "error", python_str_member(p, "error"));
	json_object_set_new(entry, "supply", out);
}

int python_parse_output(const char *out, size_t len, json_t *entry, struct err *e)
{
	const char *ans = find_marker(out, len), *end, *s;
	json_error_t jerr;
	json_t *r, *py, *sp, *x;
	char ex[160];
	size_t i;

	if (!ans) {
		python_excerpt(out, len, ex, sizeof(ex));
		if (!ex[0])
			return err_set(e, ERR_PARSE, "the probe printed nothing");
		return err_set(e, ERR_PARSE, "the probe printed '%s'", ex);
	}
	end = memchr(ans, '\n', len - (size_t)(ans - out));
	r = json_loadb(ans, end ? (size_t)(end - ans) : len - (size_t)(ans - out), 0, &jerr);
	if (!json_is_object(r)) {
		json_decref(r);
		python_excerpt(ans, end ? (size_t)(end - ans) : len - (size_t)(ans - out), ex, sizeof(ex));
		return err_set(e, ERR_PARSE, "the probe's answer is not a JSON object: '%s'", ex);
	}
	py = json_object_get(r, "python");
	if (!json_is_object(py) || !python_str_member(py, "version")) {
		s = python_str_member(r, "error");
		err_set(e, ERR_PARSE, "the probe failed: %s", s ? s : "no Python version in its answer");
		json_decref(r);
		return -1;
	}
	jset_str(entry, "version", python_str_member(py, "version"));
	if ((s = python_str_member(py, "executable")))
		jset_str(entry, "executable", s);
	if ((s = python_str_member(py, "prefix")))
		jset_str(entry, "prefix", s);
	if ((s = python_str_member(py, "implementation")))
		jset_str(entry, "implementation", s);
	sp = json_array();
	json_array_foreach(json_object_get(r, "site_packages"), i, x)
		if (json_is_string(x) && json_string_value(x)[0] == '/' && json_array_size(sp) < 64)
			json_array_append(sp, x);
	json_object_set_new(entry, "site_packages", sp);
	if ((s = python_str_member(r, "error"))) {
		/* the script died after the interpreter facts: the rest is unknown, with the reason */
		jset_unknown(entry, "torch", "the probe failed: %s", s);
		jset_unknown(entry, "lightning", "the probe failed: %s", s);
		jset_unknown(entry, "pytorch_lightning", "the probe failed: %s", s);
		jset_unknown(entry, "supply", "the probe failed: %s", s);
	} else {
		torch_part(json_object_get(r, "torch"), entry);
		package_part(r, "lightning", entry);
		package_part(r, "pytorch_lightning", entry);
		supply_part(r, entry);
	}
	json_decref(r);
	return 0;
}
