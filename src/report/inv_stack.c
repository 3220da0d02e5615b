/*
 * Inventory section for the software stack: every NCCL copy (the one programs load by default
 * and the one torch maps marked), net plugins, NCCL config files, each Python with its torch and
 * Lightning, and the host resources NCCL needs (/dev/shm, locked memory).
 */
#include "report/inventory.h"

#include <string.h>

#include "util/i18n.h"
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

/* Whether some torch process maps this libnccl (by its path, realpath or another name). */
static int mapped_by_torch(const struct node_model *m, const struct nm_nccl_lib *lib)
{
	for (size_t i = 0; i < m->stack.npython; i++) {
		const char *mp = m->stack.python[i].nccl_mapped;

		if (!mp || m->stack.python[i].nccl_static == 1)
			continue;
		if ((lib->realpath && !strcmp(mp, lib->realpath)) || (lib->path && !strcmp(mp, lib->path)))
			return 1;
		for (const char **a = lib->paths; a && *a; a++)
			if (!strcmp(*a, mp))
				return 1;
	}
	return 0;
}

/* `v` (n strings) joined with ", " into buf, as many as fit. */
static void join(const char *const *v, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (o + 2 >= len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", v[i]);
		if (o >= len)
			o = len - 1;
	}
}

static size_t count(const char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

/* TCCL, Tencent Cloud's NCCL: the probe tags the copies under /opt/tencent/tccl */
static int tccl_copy(const struct nm_nccl_lib *lib)
{
	for (const char *const *v = lib->found_by; v && *v; v++)
		if (!strcmp(*v, "tccl"))
			return 1;
	return 0;
}

static void nccl_lines(FILE *out, const struct node_model *m)
{
	const struct nm_stack *st = &m->stack;
	const char *np = st->net_plugin_state;
	char fb[256];
	int first = 1;

	if (st->nccl_unknown)
		inv_line(out, N_("NCCL copies"), N_("unknown (%s)"), st->nccl_unknown);
	else if (!st->nnccl_libs)
		inv_line(out, N_("NCCL copies"), N_("none found (%s)"), str_or(st->nccl_default_why, "-"));
	for (size_t i = 0; i < st->nnccl_libs; i++) {
		const struct nm_nccl_lib *lib = &st->nccl_libs[i];
		int torch = mapped_by_torch(m, lib);

		join(lib->found_by, count(lib->found_by), fb, sizeof(fb));
		/* the words in the reader's language here: the line as a whole is no msgid */
		inv_line(out, first ? "NCCL copies" : "", "%-8s %s  [%s%s%s%s%s]",
			 lib->version ? lib->version : _("unknown"), str_or(lib->path, "-"),
			 tccl_copy(lib) ? _("TCCL (Tencent Cloud), ") : "",
			 lib->is_default ? _("default, ") : "", torch ? "torch, " : "", _("found by "), fb);
		if (lib->unknown)
			inv_line(out, "", "         unknown (%s)", lib->unknown);
		first = 0;
	}
	if (np && !strcmp(np, "loads"))
		inv_line(out, N_("net plugin"), "%s", str_or(st->net_plugin_path, "-"));
	else if (np && !strcmp(np, "disabled"))
		inv_line(out, N_("net plugin"), N_("disabled (NCCL_NET_PLUGIN=none)"));
	else if (np && !strcmp(np, "missing"))
		inv_line(out, N_("net plugin"), N_("NCCL_NET_PLUGIN=%s not found"), str_or(st->net_plugin_env, "-"));
	else if (np)
		inv_line(out, N_("net plugin"), N_("none (NCCL uses its internal IB/socket transports)"));
	for (size_t i = 0; i < st->nplugins; i++)
		if (!st->net_plugin_path ||
		    strcmp(str_or(st->plugin_realpaths[i], "-"), st->net_plugin_path))
			inv_line(out, "", N_("also present: %s"), str_or(st->plugin_paths[i], "-"));
	for (size_t i = 0; i < st->nconfs; i++) {
		const struct nm_conf *c = &st->confs[i];
		char names[256] = "";
		size_t o = 0;

		if (c->unreadable) {
			inv_line(out, N_("nccl.conf"), N_("%s: unknown (%s)"), str_or(c->path, "-"), c->unreadable);
			continue;
		}
		for (size_t k = 0; k < c->nvars; k++) {
			if (o + 2 < sizeof(names))
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s=%s", o ? " " : "",
						      c->vars[k].name, str_or(c->vars[k].value, "-"));
			if (o >= sizeof(names))
				o = sizeof(names) - 1;
		}
		if (c->applies)
			inv_line(out, N_("nccl.conf"), N_("%s: %s  (read by %s)"), str_or(c->path, "-"),
				 names[0] ? names : "(no settings)", c->applies);
		else
			inv_line(out, N_("nccl.conf"), "%s: %s", str_or(c->path, "-"),
				 names[0] ? names : "(no settings)");
	}
}

static void torch_desc(const struct nm_python *py, char *buf, size_t len)
{
	const char *nv = py->torch_nccl, *cuda = py->torch_cuda;

	if (py->torch_unknown) {
		snprintf(buf, len, "torch unknown (%s)", py->torch_unknown);
	} else if (!py->torch_installed) {
		snprintf(buf, len, "no torch");
	} else {
		size_t o = (size_t)snprintf(buf, len, "torch %s, %s%s", str_or(py->torch, "-"),
					    cuda ? "CUDA " : "CPU-only build", cuda ? cuda : "");
		if (o < len && nv)
			o += (size_t)snprintf(buf + o, len - o, ", NCCL %s %s %s", nv,
					      py->nccl_static == 1 ? "static in" : "from",
					      str_or(py->nccl_mapped, "-"));
		else if (o < len && !cuda)
			o += (size_t)snprintf(buf + o, len - o, ", no NCCL");
		if (o < len && py->torch_cudnn)
			o += (size_t)snprintf(buf + o, len - o, ", cuDNN %s", py->torch_cudnn);
		if (o < len && py->torch_cuda_available_known)
			snprintf(buf + o, len - o, ", %lld GPU%s visible", py->torch_device_count,
				 py->torch_device_count == 1 ? "" : "s");
	}
}

static void pkg_desc(const char *unknown, const char *version, const char *label, char *buf,
		     size_t len)
{
	if (unknown)
		snprintf(buf, len, "%s unknown", label);
	else if (version)
		snprintf(buf, len, "%s %s", label, version);
	else
		buf[0] = '\0';
}

static void python_lines(FILE *out, const struct nm_stack *st)
{
	if (st->python_unknown) {
		inv_line(out, N_("python"), "%s", st->python_unknown);
		return;
	}
	if (!st->npython)
		inv_line(out, N_("python"), N_("no interpreter found"));
	for (size_t i = 0; i < st->npython; i++) {
		const struct nm_python *py = &st->python[i];
		char why[128], t[512], l[64], pl[64];

		join(py->why, py->nwhy, why, sizeof(why));
		inv_line(out, N_("python"), "%s (%s)  %lld ms", str_or(py->path, "-"), why, py->elapsed_ms);
		if (py->version_unknown) {
			inv_line(out, "", N_("unknown (%s)"), py->version_unknown);
			continue;
		}
		torch_desc(py, t, sizeof(t));
		pkg_desc(py->lightning_unknown, py->lightning_pkg, "lightning", l, sizeof(l));
		pkg_desc(py->pl_unknown, py->pl_pkg, "pytorch_lightning", pl, sizeof(pl));
		inv_line(out, "", "Python %s; %s%s%s%s%s", str_or(py->version, "-"), t, l[0] ? "; " : "",
			 l, pl[0] ? "; " : "", pl);
	}
}

static void resource_lines(FILE *out, const struct node_model *m)
{
	const struct nm_shm *shm = &m->shm;
	const struct nm_memlock *ml = &m->memlock;
	char a[32], b[32];

	/* a size not recorded shows as 0 (the model keeps -1 for "unknown") */
	if (shm->known) {
		if (!shm->exists) {
			inv_line(out, N_("/dev/shm"), N_("missing (%s)"), str_or(shm->error, "-"));
		} else {
			bytes(shm->size_known ? shm->size : 0, a, sizeof(a));
			bytes(shm->avail_known ? shm->avail : 0, b, sizeof(b));
			inv_line(out, N_("/dev/shm"), shm->writable_said ? N_("%s, %s free, writable") :
				 N_("%s, %s free, NOT writable"), a, b);
		}
	}
	if (ml->unknown) {
		inv_line(out, N_("memlock"), N_("unknown (%s)"), ml->unknown);
	} else if (ml->known) {
		bytes(ml->soft_known ? ml->soft : 0, a, sizeof(a));
		bytes(ml->hard_known ? ml->hard : 0, b, sizeof(b));
		inv_line(out, N_("memlock"), N_("soft %s, hard %s"), a, b);
	}
}

void inv_stack(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	inv_heading(out, o, N_("NCCL and Python stack"));
	nccl_lines(out, m);
	python_lines(out, &m->stack);
	resource_lines(out, m);
}
