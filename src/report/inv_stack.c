/*
 * Inventory section for the software stack: every NCCL copy (the one programs load by default
 * and the one torch maps marked), net plugins, NCCL config files, each Python with its torch and
 * Lightning, and the host resources NCCL needs (/dev/shm, locked memory).
 */
#include "report/inventory.h"

#include <string.h>

#include "util/json.h"
#include "util/strbuf.h"

static void bytes(long long b, char *buf, size_t len)
{
	if (b < 0)
		snprintf(buf, len, "unlimited");
	else if (b >= (1LL << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (double)(1LL << 30));
	else if (b >= (1LL << 20))
		snprintf(buf, len, "%lld MiB", b >> 20);
	else
		snprintf(buf, len, "%lld KiB", b >> 10);
}

/* Realpaths of the libnccl files that some torch process maps. */
static int mapped_by_torch(const json_t *facts, const json_t *lib)
{
	size_t i;
	json_t *py;
	const char *rp = jpath_str(lib, "realpath"), *p = jpath_str(lib, "path");

	json_array_foreach(json_object_get(facts, "python"), i, py) {
		const char *m = jpath_str(py, "torch.nccl_mapped");
		size_t j;
		json_t *a;
		if (!m || jpath_bool(py, "torch.nccl_static", 0))
			continue;
		if ((rp && !strcmp(m, rp)) || (p && !strcmp(m, p)))
			return 1;
		json_array_foreach(json_object_get(lib, "paths"), j, a)
			if (json_is_string(a) && !strcmp(json_string_value(a), m))
				return 1;
	}
	return 0;
}

static void join(const json_t *arr, char *buf, size_t len)
{
	size_t i, o = 0;
	json_t *v;

	buf[0] = '\0';
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v) || o + 2 >= len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", json_string_value(v));
		if (o >= len)
			o = len - 1;
	}
}

static void nccl_lines(FILE *out, const json_t *facts)
{
	const json_t *libs = jpath(facts, "nccl.libs"), *lib, *c;
	const char *np = jpath_str(facts, "nccl.net_plugin.state");
	size_t i;
	char fb[256];
	int first = 1;

	if (junknown(jpath(facts, "nccl")))
		inv_line(out, "NCCL copies", "unknown (%s)", junknown(jpath(facts, "nccl")));
	else if (!json_array_size(libs))
		inv_line(out, "NCCL copies", "none found (%s)",
			 str_or(jpath_str(facts, "nccl.default.why"), "-"));
	json_array_foreach(libs, i, lib) {
		const char *v = jpath_str(lib, "version"), *why = junknown(json_object_get(lib, "version"));
		int def = jpath_bool(lib, "default", 0), torch = mapped_by_torch(facts, lib);

		join(json_object_get(lib, "found_by"), fb, sizeof(fb));
		inv_line(out, first ? "NCCL copies" : "", "%-8s %s  [%s%s%s%s]",
			 v ? v : "unknown", str_or(jpath_str(lib, "path"), "-"), def ? "default, " : "",
			 torch ? "torch, " : "", "found by ", fb);
		if (why)
			inv_line(out, "", "         unknown (%s)", why);
		first = 0;
	}
	if (np && !strcmp(np, "loads"))
		inv_line(out, "net plugin", "%s", str_or(jpath_str(facts, "nccl.net_plugin.path"), "-"));
	else if (np && !strcmp(np, "disabled"))
		inv_line(out, "net plugin", "disabled (NCCL_NET_PLUGIN=none)");
	else if (np && !strcmp(np, "missing"))
		inv_line(out, "net plugin", "NCCL_NET_PLUGIN=%s not found",
			 str_or(jpath_str(facts, "nccl.net_plugin.env"), "-"));
	else if (np)
		inv_line(out, "net plugin", "none (NCCL uses its internal IB/socket transports)");
	json_array_foreach(jpath(facts, "nccl.plugins"), i, lib)
		if (!jpath_str(facts, "nccl.net_plugin.path") ||
		    strcmp(str_or(jpath_str(lib, "realpath"), "-"), jpath_str(facts, "nccl.net_plugin.path")))
			inv_line(out, "", "also present: %s", str_or(jpath_str(lib, "path"), "-"));
	json_array_foreach(jpath(facts, "nccl.conf"), i, c) {
		const json_t *vars = json_object_get(c, "vars");
		const char *k;
		json_t *v;
		char names[256] = "";
		size_t o = 0;

		if (junknown(vars)) {
			inv_line(out, "nccl.conf", "%s: unknown (%s)", str_or(jpath_str(c, "path"), "-"),
				 junknown(vars));
			continue;
		}
		json_object_foreach((json_t *)vars, k, v) {
			if (o + 2 < sizeof(names))
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s=%s",
						      o ? " " : "", k, str_or(json_string_value(v), "-"));
			if (o >= sizeof(names))
				o = sizeof(names) - 1;
		}
		if (jpath_str(c, "applies"))
			inv_line(out, "nccl.conf", "%s: %s  (read by %s)", str_or(jpath_str(c, "path"), "-"),
				 names[0] ? names : "(no settings)", jpath_str(c, "applies"));
		else
			inv_line(out, "nccl.conf", "%s: %s", str_or(jpath_str(c, "path"), "-"),
				 names[0] ? names : "(no settings)");
	}
}

static void torch_desc(const json_t *py, char *buf, size_t len)
{
	const json_t *t = json_object_get(py, "torch");
	const char *why = junknown(t), *nv = jpath_str(t, "nccl_version");
	const char *cuda = jpath_str(t, "cuda");

	if (why) {
		snprintf(buf, len, "torch unknown (%s)", why);
	} else if (!jpath_bool(t, "installed", 0)) {
		snprintf(buf, len, "no torch");
	} else {
		size_t o = (size_t)snprintf(buf, len, "torch %s, %s%s", str_or(jpath_str(t, "version"), "-"),
					    cuda ? "CUDA " : "CPU-only build", cuda ? cuda : "");
		if (o < len && nv)
			o += (size_t)snprintf(buf + o, len - o, ", NCCL %s %s %s", nv,
					      jpath_bool(t, "nccl_static", 0) ? "static in" : "from",
					      str_or(jpath_str(t, "nccl_mapped"), "-"));
		else if (o < len && !cuda)
			o += (size_t)snprintf(buf + o, len - o, ", no NCCL");
		if (o < len && jpath_str(t, "cudnn"))
			o += (size_t)snprintf(buf + o, len - o, ", cuDNN %s", jpath_str(t, "cudnn"));
		if (o < len && json_is_boolean(json_object_get(t, "cuda_available")))
			snprintf(buf + o, len - o, ", %lld GPU%s visible",
				 jpath_int(t, "device_count", 0),
				 jpath_int(t, "device_count", 0) == 1 ? "" : "s");
	}
}

static void pkg_desc(const json_t *py, const char *key, const char *label, char *buf, size_t len)
{
	const json_t *p = json_object_get(py, key);

	if (junknown(p))
		snprintf(buf, len, "%s unknown", label);
	else if (jpath_str(p, "version"))
		snprintf(buf, len, "%s %s", label, jpath_str(p, "version"));
	else
		buf[0] = '\0';
}

static void python_lines(FILE *out, const json_t *facts)
{
	const json_t *pys = json_object_get(facts, "python"), *py;
	size_t i;

	if (junknown(pys)) {
		inv_line(out, "python", "%s", junknown(pys));
		return;
	}
	if (!json_array_size(pys))
		inv_line(out, "python", "no interpreter found");
	json_array_foreach(pys, i, py) {
		char why[128], t[512], l[64], pl[64];
		const char *ver = jpath_str(py, "version"), *unk = junknown(json_object_get(py, "version"));

		join(json_object_get(py, "why"), why, sizeof(why));
		inv_line(out, "python", "%s (%s)  %lld ms", str_or(jpath_str(py, "path"), "-"), why,
			 jpath_int(py, "elapsed_ms", 0));
		if (unk) {
			inv_line(out, "", "unknown (%s)", unk);
			continue;
		}
		torch_desc(py, t, sizeof(t));
		pkg_desc(py, "lightning", "lightning", l, sizeof(l));
		pkg_desc(py, "pytorch_lightning", "pytorch_lightning", pl, sizeof(pl));
		inv_line(out, "", "Python %s; %s%s%s%s%s", str_or(ver, "-"), t, l[0] ? "; " : "", l,
			 pl[0] ? "; " : "", pl);
	}
}

static void resource_lines(FILE *out, const json_t *facts)
{
	const json_t *shm = jpath(facts, "shm"), *ml = jpath(facts, "limits.memlock");
	char a[32], b[32];

	if (json_is_object(shm) && !junknown(shm)) {
		if (!jpath_bool(shm, "exists", 1)) {
			inv_line(out, "/dev/shm", "missing (%s)", str_or(jpath_str(shm, "error"), "-"));
		} else {
			bytes(jpath_int(shm, "size_bytes", 0), a, sizeof(a));
			bytes(jpath_int(shm, "avail_bytes", 0), b, sizeof(b));
			inv_line(out, "/dev/shm", "%s, %s free, %s", a, b,
				 jpath_bool(shm, "writable", 0) ? "writable" : "NOT writable");
		}
	}
	if (junknown(ml)) {
		inv_line(out, "memlock", "unknown (%s)", junknown(ml));
	} else if (json_is_object(ml)) {
		bytes(jpath_int(ml, "soft", 0), a, sizeof(a));
		bytes(jpath_int(ml, "hard", 0), b, sizeof(b));
		inv_line(out, "memlock", "soft %s, hard %s", a, b);
	}
}

void inv_stack(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	const json_t *facts = m->facts;

	inv_heading(out, o, "NCCL and Python stack");
	nccl_lines(out, facts);
	python_lines(out, facts);
	resource_lines(out, facts);
}
