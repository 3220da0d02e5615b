/*
 * Verdicts on the software stack above the driver: NCCL's version (the seed's floor, and what the
 * installed torch was built with), torch against Lightning and Python, and several NCCL copies
 * on one machine, where torch and nccl-tests (or a C++ program) load different ones and the
 * user benchmarks a library their training never uses. Pure: reads the node model only.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/stack.h"
#include "model/stack_tables.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/version.h"
#include "util/xalloc.h"
#include "util/strbuf.h"

/* The directory part of `path` (caller frees). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}


/* The nccl.libs[] entry for a file, matched by realpath or by any of its paths. */
static int has_str(const char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return 1;
	return 0;
}

static const struct nm_nccl_lib *find_lib(const struct node_model *m, const char *path)
{
	if (!path)
		return NULL;
	for (size_t i = 0; i < m->stack.nnccl_libs; i++) {
		const struct nm_nccl_lib *lib = &m->stack.nccl_libs[i];

		if ((lib->realpath && !strcmp(lib->realpath, path)) || (lib->path && !strcmp(lib->path, path)) ||
		    has_str(lib->paths, path))
			return lib;
	}
	return NULL;
}

static const struct nm_nccl_lib *default_lib(const struct node_model *m)
{
	for (size_t i = 0; i < m->stack.nnccl_libs; i++)
		if (m->stack.nccl_libs[i].is_default)
			return &m->stack.nccl_libs[i];
	return NULL;
}

/* "nvidia-nccl-cu13" for a torch built with CUDA 13.x; NULL when unknown. */
static const char *nccl_wheel(const char *cuda, char *buf, size_t len)
{
	struct version v;

	if (!cuda || version_parse(cuda, &v) < 0)
		return NULL;
	snprintf(buf, len, "nvidia-nccl-cu%ld", v.part[0]);
	return buf;
}

static const char *found_by_str(const struct nm_nccl_lib *lib, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (const char *const *v = lib->found_by; v && *v; v++) {
		if (o + 4 >= len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", *v);
		if (o >= len)
			o = len - 1;
	}
	return buf;
}

/* ---- NCCL's own version ------------------------------------------------------------------ */

static void nccl_floor(const struct node_model *m, struct findings *out)
{
	const char *path = m->nccl.loaded_path, *why = m->nccl.loaded_why;
	const char *v = m->nccl.loaded;
	struct finding *f;

	if (!v)
		return;
	if (version_cmp_str(v, STACK_NCCL_MIN) >= 0) {
		f = finding_add(out, SEV_OK, "nccl.version", "NCCL %s is at least %s", v,
				STACK_NCCL_MIN);
		finding_evidence(f, "nccl: %s, %s%s%s", v, str_or(why, "?"), path ? ", " : "", path ? path : "");
		return;
	}
	f = finding_add(out, SEV_ERROR, "nccl.too_old",
			"NCCL %s is older than %s, the minimum for multi-node training", v,
			STACK_NCCL_MIN);
	finding_evidence(f, "nccl: %s, %s%s%s", v, str_or(why, "?"), path ? " at " : "", path ? path : "");
	finding_why(f, "The setup guide this tool follows requires NCCL %s or newer; torch itself "
		    "refuses to build against anything older than 2.7, point-to-point send/recv "
		    "arrived in 2.7.3, and error reporting that lets torch abort a hung job (not "
		    "hang forever) needs a recent NCCL.", STACK_NCCL_MIN);
	if (m->stack.nccl_python) {
		finding_fix(f, "%s -m pip install --upgrade torch", str_or(m->stack.nccl_python->path, "?"));
	} else {
		finding_fix(f, "apt-get install --only-upgrade libnccl2 libnccl-dev");
		finding_fix(f, N_("# or, in a conda environment: conda install -c conda-forge nccl"));
	}
}

/* The NCCL a torch process runs against, compared with the one its release was built with. */
static void torch_pin(const struct nm_python *py, const struct node_model *m, struct findings *out)
{
	const char *torch = py->torch, *cuda = py->torch_cuda;
	const char *nccl = py->torch_nccl, *mapped;
	const char *pypath = str_or(py->path, "?");
	const struct torch_nccl_pin *pin;
	struct finding *f;
	char wheel[32];
	int cmp;

	if (!torch || !nccl || !(pin = stack_find_nccl_pin(torch, cuda)))
		return;
	mapped = py->nccl_mapped;
	cmp = version_cmp_str(nccl, pin->nccl);
	if (cmp == 0) {
		f = finding_add(out, SEV_OK, "compat.torch_nccl", "torch %s runs the NCCL %s it was "
				"built with", torch, nccl);
		finding_evidence(f, "python: %s; torch.cuda.nccl.version(): %s; maps %s", pypath, nccl,
				 str_or(mapped, "?"));
		return;
	}
	if (cmp > 0) {
		f = finding_add(out, SEV_INFO, "compat.torch_nccl.newer",
				"torch %s runs NCCL %s, newer than the %s its wheels ship", torch, nccl,
				pin->nccl);
		finding_evidence(f, "python: %s; maps %s", pypath, str_or(mapped, "?"));
		finding_why(f, "A newer NCCL is usually fine (NCCL keeps its ABI within 2.x); it means "
			    "someone upgraded the nvidia-nccl wheel or put another libnccl first in "
			    "the search path. Use the same NCCL on every node.");
		return;
	}
	f = finding_add(out, pin->verified ? SEV_WARN : SEV_INFO, "compat.torch_nccl.older",
			"torch %s runs NCCL %s, older than the %s its wheels ship", torch, nccl,
			pin->nccl);
	finding_evidence(f, "python: %s; torch.cuda.nccl.version(): %s", pypath, nccl);
	finding_evidence(f, "torch.nccl_mapped: %s%s", str_or(mapped, "?"),
			 py->nccl_static == 1 ? " (NCCL linked statically)" : "");
	finding_evidence(f, "torch %s (CUDA %s) wheels pin NCCL %s%s", torch, str_or(cuda, "?"), pin->nccl,
			 pin->verified ? "" : " (inferred, not from a primary record)");
	finding_why(f, "PyTorch tests each release against one NCCL. An older one usually means "
		    "that LD_LIBRARY_PATH or LD_PRELOAD puts a system libnccl ahead of the wheel's, "
		    "or a stale nvidia-nccl wheel; it lacks the fixes the release relies on (torch "
		    "2.7 moved to 2.26.2 to avoid a hang in ncclCommAbort).");
	if (mapped) {
		const struct nm_nccl_lib *lib = find_lib(m, mapped);
		const char *const *fb = lib ? lib->found_by : NULL;
		char *dir = dir_of(mapped);
		if (has_str(fb, "LD_PRELOAD")) {
			finding_fix(f, N_("unset LD_PRELOAD   # it preloads %s"), mapped);
			finding_setting(f, WHERE_ENV, SCOPE_NODE, "LD_PRELOAD", NULL);
		} else if (has_str(fb, "LD_LIBRARY_PATH"))
			finding_fix(f, "export LD_LIBRARY_PATH=$(echo \"$LD_LIBRARY_PATH\" | tr ':' "
				    "'\\n' | grep -vx '%s' | paste -sd:)", dir);
		free(dir);
	}
	if (nccl_wheel(cuda, wheel, sizeof(wheel)))
		finding_fix(f, "%s -m pip install '%s==%s'", pypath, wheel, pin->nccl);
	else
		finding_fix(f, "%s -m pip install --force-reinstall 'torch==%s'", pypath, torch);
}

/* ---- torch, Lightning, Python -------------------------------------------------------------- */

/* The newest Lightning line that still supports `torch` (table order is newest first). */
static const struct lightning_compat *lightning_for_torch(const char *torch)
{
	for (size_t i = 0; i < stack_lightning_count; i++)
		if (version_cmp_str(torch, stack_lightning[i].torch_min) >= 0)
			return &stack_lightning[i];
	return NULL;
}

static void lightning_one(const struct nm_python *py, const char *pkg, struct findings *out)
{
	char mm[32];
	const char *lv, *torch = py->torch, *pyv = py->version;
	const char *pypath = str_or(py->path, "?");
	const char *dist = !strcmp(pkg, "lightning") ? "lightning" : "pytorch-lightning";
	const struct lightning_compat *row;
	struct finding *f;

	lv = !strcmp(pkg, "lightning") ? py->lightning_pkg : py->pl_pkg;
	if (!lv || !(row = stack_find_lightning(lv)))
		return;
	if (torch && version_cmp_str(torch, row->torch_min) < 0) {
		const struct lightning_compat *alt = lightning_for_torch(torch);
		f = finding_add(out, SEV_ERROR, "compat.lightning_torch",
				"%s %s needs torch %s or newer; torch %s is installed", dist, lv,
				row->torch_min, torch);
		finding_evidence(f, "python: %s; %s %s; torch %s", pypath, dist, lv, torch);
		finding_why(f, "Lightning's lower bound on torch is a hard requirement (its upper "
			    "bounds are only what CI tested). The seed's pairs are torch 1.12 with "
			    "Lightning 1.8 and torch 2.0 with Lightning 2.0.");
		finding_fix(f, "%s -m pip install 'torch>=%s'", pypath, row->torch_min);
		if (alt)
			finding_fix(f, N_("# or keep torch %s: %s -m pip install '%s==%s.*'"), torch, pypath,
				    dist, alt->lightning);
	} else if (torch && stack_major_minor(torch, mm, sizeof(mm)) == 0 &&
		   version_cmp_str(mm, row->torch_tested) > 0) {
		f = finding_add(out, SEV_INFO, "compat.lightning_torch.untested",
				"torch %s is newer than the %s that %s %s was tested with", torch,
				row->torch_tested, dist, lv);
		finding_evidence(f, "python: %s; %s %s; torch %s", pypath, dist, lv, torch);
		finding_why(f, "Lightning's upper bounds are informational: pip does not enforce them "
			    "and newer torch usually works. If training fails inside Lightning, try "
			    "the newest Lightning first.");
		finding_fix(f, "%s -m pip install --upgrade '%s'", pypath, dist);
	} else if (torch) {
		f = finding_add(out, SEV_OK, "compat.lightning_torch", "%s %s supports torch %s",
				dist, lv, torch);
		finding_evidence(f, "python: %s", pypath);
	}
	if (pyv && version_cmp_str(pyv, row->python_min) < 0) {
		f = finding_add(out, SEV_ERROR, "compat.lightning_python",
				"%s %s needs Python %s or newer; %s is Python %s", dist, lv,
				row->python_min, pypath, pyv);
		finding_evidence(f, "python: %s %s; %s %s", pypath, pyv, dist, lv);
		finding_why(f, "The package declares python_requires >= %s; it was installed by "
			    "bypassing that check and fails on import or at run time.",
			    row->python_min);
		finding_fix(f, N_("# use a Python %s or newer environment, e.g.: python%s -m venv ~/venv "
			    "&& ~/venv/bin/pip install torch %s"), row->python_min, row->python_min, dist);
	}
}

static void lightning_pair(const struct nm_python *py, struct findings *out)
{
	const char *a = py->lightning_pkg, *b = py->pl_pkg;
	struct finding *f;

	lightning_one(py, "lightning", out);
	lightning_one(py, "pytorch_lightning", out);
	if (a && b && version_cmp_str(a, b) != 0) {
		f = finding_add(out, SEV_WARN, "compat.lightning.two_packages",
				"lightning %s and pytorch-lightning %s are both installed", a, b);
		finding_evidence(f, "python: %s", str_or(py->path, "?"));
		finding_why(f, "`import lightning.pytorch` and `import pytorch_lightning` are separate "
			    "copies of the framework; mixing them (a callback from one, a Trainer from "
			    "the other) fails with confusing type errors, and only one is what your "
			    "script imports.");
		finding_fix(f, "%s -m pip install --upgrade 'lightning==%s' 'pytorch-lightning==%s'",
			    str_or(py->path, "?"), version_cmp_str(a, b) > 0 ? a : b,
			    version_cmp_str(a, b) > 0 ? a : b);
	}
}

static void python_torch(const struct nm_python *py, struct findings *out)
{
	const char *torch = py->torch, *pyv = py->version;
	const struct torch_python *row;
	struct finding *f;
	char mm[32];

	if (!torch || !pyv || !(row = stack_find_torch_python(torch)) ||
	    stack_major_minor(pyv, mm, sizeof(mm)) < 0)
		return;
	if (version_cmp_str(mm, row->python_min) >= 0 && version_cmp_str(mm, row->python_max) <= 0)
		return;
	f = finding_add(out, SEV_WARN, "compat.python_torch",
			"torch %s is not released for Python %s (its wheels cover %s to %s)", torch,
			pyv, row->python_min, row->python_max);
	finding_evidence(f, "python: %s %s; torch %s at %s", str_or(py->path, "?"), pyv, torch,
			 str_or(py->torch_path, "?"));
	finding_why(f, "This torch came from a distribution package or a source build, not a "
		    "PyTorch wheel: nodes that install the wheel get a different torch, CUDA and "
		    "NCCL than this one. Use one environment on every node.");
	finding_fix(f, N_("# install an official wheel into a Python %s..%s environment, e.g.: "
		    "python%s -m venv ~/venv && ~/venv/bin/pip install 'torch==%s.*'"), row->python_min,
		    row->python_max, row->python_max, row->torch);
}

/* ---- several NCCL copies ------------------------------------------------------------------- */

static void unreadable_copies(const struct node_model *m, struct findings *out)
{
	for (size_t i = 0; i < m->stack.nnccl_libs; i++) {
		const struct nm_nccl_lib *lib = &m->stack.nccl_libs[i];
		const char *why = lib->unknown;
		const char *path = str_or(lib->path, "?");
		struct finding *f;
		char fb[256];

		if (!why)
			continue;
		f = finding_add(out, lib->is_default ? SEV_ERROR : SEV_WARN,
				"nccl.lib.unreadable", "%s could not be loaded: %s", path, why);
		finding_evidence(f, "nccl.libs: %s (found by %s)%s", path,
				 found_by_str(lib, fb, sizeof(fb)),
				 lib->is_default ? ", the copy programs load by default" : "");
		finding_why(f, "A program that loads this file fails the same way (or crashes in "
			    "NCCL's initialisation). A libnccl.so.2 that is not NCCL, or lacks its "
			    "dependencies, is usually a leftover from another install.");
		finding_fix(f, "ldd %s | grep 'not found'", path);
		finding_fix(f, N_("# if it is a leftover: mv %s %s.disabled && ldconfig"), path, path);
	}
}

static void copies(const struct node_model *m, struct findings *out)
{
	const struct nm_python *py = m->stack.nccl_python;
	const struct nm_nccl_lib *def = default_lib(m), *tlib = NULL;
	const char *tv = py ? py->torch_nccl : NULL;
	const char *tmapped = py ? py->nccl_mapped : NULL;
	int tstatic = py ? py->nccl_static == 1 : 0;
	const char *dv = def ? def->version : NULL;
	const char *dpath = def ? def->path : NULL;
	size_t nver = 0, nlibs = 0;
	const char *first = NULL;
	struct finding *f;
	char fb[256];

	for (size_t i = 0; i < m->stack.nnccl_libs; i++) {
		const char *v = m->stack.nccl_libs[i].version;
		nlibs++;
		if (!v)
			continue;
		if (!first)
			first = v, nver = 1;
		else if (version_cmp_str(first, v) != 0)
			nver = 2;
	}
	if (tmapped && !tstatic)
		tlib = find_lib(m, tmapped);

	if (tv && def && dv && version_cmp_str(tv, dv) != 0) {
		char *dir = tstatic ? NULL : dir_of(tmapped ? tmapped : "");
		f = finding_add(out, SEV_WARN, "nccl.copies.differ",
				"torch uses NCCL %s but nccl-tests and C/C++ programs load NCCL %s (%s)",
				tv, dv, str_or(dpath, "?"));
		finding_evidence(f, "torch (%s): NCCL %s, maps %s%s", str_or(py->path, "?"), tv,
				 str_or(tmapped, "?"), tstatic ? " (linked statically)" : "");
		finding_evidence(f, "default for a plain program: %s (NCCL %s, chosen by %s; found by "
				 "%s)", str_or(dpath, "?"), dv, str_or(def->default_how, "?"),
				 found_by_str(def, fb, sizeof(fb)));
		finding_why(f, "The dynamic loader picks a plain program's libnccl.so.2 from "
			    "LD_PRELOAD, LD_LIBRARY_PATH, the ld.so cache and the system directories, "
			    "in that order; torch wheels load their own copy. So nccl-tests (the seed's "
			    "check) measures NCCL %s while training runs %s, and a pass there proves "
			    "little about torch.", dv, tv);
		if (dir && tmapped && tmapped[0] == '/') {
			finding_fix(f, N_("export LD_LIBRARY_PATH=%s:$LD_LIBRARY_PATH   # before running "
				    "nccl-tests, so it tests torch's NCCL"), dir);
			finding_fix(f, N_("# or per run: LD_PRELOAD=%s ./build/all_reduce_perf -b 8 -e 256M "
				    "-f 2 -g 1"), tmapped);
		} else {
			finding_fix(f, N_("# torch links NCCL %s statically: build nccl-tests against the "
				    "same version (make NCCL_HOME=<nccl %s install>)"), tv, tv);
		}
		if (dpath && has_str(def->found_by, "LD_LIBRARY_PATH")) {
			char *ddir = dir_of(dpath);
			finding_fix(f, N_("# or drop the stale copy's directory: export LD_LIBRARY_PATH=$(echo "
				    "\"$LD_LIBRARY_PATH\" | tr ':' '\\n' | grep -vx '%s' | paste -sd:)"),
				    ddir);
			free(ddir);
		} else if (dpath) {
			finding_fix(f, N_("# or replace the stale copy: dpkg -S %s   # then upgrade that "
				    "package to NCCL %s"), dpath, tv);
		}
		free(dir);
		return;
	}
	if (tv && !def && tmapped && !tstatic && tmapped[0] == '/') {
		char *dir = dir_of(tmapped);
		f = finding_add(out, SEV_INFO, "nccl.default.none",
				"torch brings NCCL %s, but programs outside torch find no libnccl.so.2", tv);
		finding_evidence(f, "torch (%s) maps %s", str_or(py->path, "?"), tmapped);
		finding_evidence(f, "nccl.default: %s", str_or(m->stack.nccl_default_why, "?"));
		finding_why(f, "nccl-tests and other NCCL programs will not start (\"libnccl.so.2: "
			    "cannot open shared object file\") unless they are pointed at torch's copy.");
		finding_fix(f, "export LD_LIBRARY_PATH=%s:$LD_LIBRARY_PATH", dir);
		free(dir);
		return;
	}
	if (nver > 1) {
		f = finding_add(out, SEV_INFO, "nccl.copies.several",
				"%zu NCCL copies with different versions; programs load %s by default",
				nlibs, dpath ? dpath : "none of them");
		for (size_t i = 0; i < m->stack.nnccl_libs; i++) {
			const struct nm_nccl_lib *lib = &m->stack.nccl_libs[i];
			const char *v = lib->version;
			finding_evidence(f, "%s: %s (found by %s)%s%s", str_or(lib->path, "?"),
					 v ? v : "version unknown", found_by_str(lib, fb, sizeof(fb)),
					 lib->is_default ? ", default" : "",
					 tlib == lib ? ", mapped by torch" : "");
		}
		finding_why(f, "Which copy a job gets depends on how it is started; use one NCCL "
			    "everywhere so what you test is what you train with.");
		if (dpath)
			finding_fix(f, N_("# check what a given program loads: ldd $(which all_reduce_perf) "
				    "| grep nccl"));
		return;
	}
	if (first) {
		f = finding_add(out, SEV_OK, "nccl.copies", "one NCCL version (%s) in %zu cop%s", first,
				nlibs, nlibs == 1 ? "y" : "ies");
		if (dpath)
			finding_evidence(f, "default: %s", dpath);
	}
}

/* ---- net plugin and config files ------------------------------------------------------------ */

/*
 * Where the plugin NCCL_NET_PLUGIN=`env` names is: a copy the probe found elsewhere
 * (nccl.plugins[]) gives the directory to put on the loader's path; else the exact search for it.
 */
static void plugin_dir_fix(const struct node_model *m, const char *env, struct finding *f)
{
	/* names and paths go into a shell line unquoted: only characters that need no quoting */
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-";
	char want[128];

	if (!env || !*env || strspn(env, plain) != strlen(env))
		return;
	snprintf(want, sizeof(want), "libnccl-net-%s.so", env);
	for (size_t i = 0; i < m->stack.nplugins; i++) {
		const char *n = m->stack.plugin_names[i], *p = m->stack.plugin_paths[i];
		const char *slash = p ? strrchr(p, '/') : NULL;
		size_t len = slash ? (size_t)(slash - p) : 0;
		int safe = 1;

		for (size_t k = 0; k < len; k++)
			safe &= p[k] == '/' || strchr(plain, p[k]) != NULL;
		if (n && slash && slash != p && safe && (!strcmp(n, want) || !strcmp(n, env))) {
			finding_fix(f, "export LD_LIBRARY_PATH=%.*s:$LD_LIBRARY_PATH", (int)(slash - p), p);
			return;
		}
	}
	finding_fix(f, N_("find / -xdev -name '%s*' 2>/dev/null   # then put its directory first in "
		    "LD_LIBRARY_PATH"), want);
}

static void plugin_and_conf(const struct node_model *m, struct findings *out)
{
	const char *state = m->stack.net_plugin_state;
	const char *env = m->stack.net_plugin_env;
	struct finding *f;

	if (state && !strcmp(state, "missing")) {
		f = finding_add(out, SEV_WARN, "nccl.net_plugin.missing",
				"NCCL_NET_PLUGIN=%s names a plugin that is not found", str_or(env, "?"));
		finding_evidence(f, "nccl.net_plugin: tries %s and libnccl-net-%s.so; neither is in "
				 "LD_LIBRARY_PATH, the ld.so cache or the system directories",
				 str_or(env, "?"), str_or(env, "?"));
		finding_why(f, "NCCL then falls back to its internal IB/socket transports (older NCCL "
			    "fails instead); on AWS EFA or other plugin-based fabrics the fallback is "
			    "plain TCP and many times slower.");
		plugin_dir_fix(m, env, f);
		finding_fix(f, N_("# or, to use NCCL's own transports: export NCCL_NET_PLUGIN=none"));
	} else if (state && !strcmp(state, "loads")) {
		f = finding_add(out, SEV_INFO, "nccl.net_plugin", "NCCL will load the net plugin %s",
				str_or(m->stack.net_plugin_path, "?"));
		finding_evidence(f, "nccl.net_plugin: %s (NCCL_NET_PLUGIN=%s)",
				 str_or(m->stack.net_plugin_path, "?"), env ? env : "unset");
		finding_why(f, "A net plugin replaces NCCL's IB and socket transports; its version must "
			    "match the fabric and the NCCL in use. Set NCCL_NET_PLUGIN=none to rule "
			    "it out when debugging.");
	}
	for (size_t i = 0; i < m->stack.nconfs; i++) {
		const struct nm_conf *c = &m->stack.confs[i];

		if (c->exists)
			continue;
		f = finding_add(out, SEV_WARN, "nccl.conf.missing",
				"%s=%s names a file that cannot be read", str_or(c->source, "?"),
				str_or(c->path, "?"));
		finding_evidence(f, "nccl.conf: %s: %s", str_or(c->path, "?"), str_or(c->unreadable, "?"));
		finding_why(f, "NCCL silently skips a missing config file, so the settings you meant "
			    "to apply are not applied; with NCCL_CONF_FILE set, NCCL 2.23+ also stops "
			    "reading ~/.nccl.conf.");
		finding_fix(f, N_("unset NCCL_CONF_FILE   # or point it at the file you meant"));
		finding_setting(f, WHERE_ENV, SCOPE_NODE, "NCCL_CONF_FILE", NULL);
	}
}

/*
 * NCCL 2.32 encrypts its TCP sockets (bootstrap, NET/Socket, RAS) only when the program calls
 * ncclSetEncryption with a pre-shared key: no variable turns it on, so whether a job encrypts is
 * not known here. What is known: whether the loaded build has TLS (src/misc/crypt.cc exists only
 * with TLS_BACKEND=OPENSSL3) and whether the OpenSSL 3 it dlopens is there.
 */
static void nccl_tls(const struct node_model *m, struct findings *out)
{
	enum nm_tls t = node_model_nccl_tls(m);
	const struct nm_nccl_lib *l = node_model_loaded_lib(m);
	struct finding *f;

	if (t == NM_TLS_UNKNOWN)
		return;
	f = finding_add(out, SEV_INFO, "nccl.tls", "NCCL %s %s%s", l->version, nm_tls_words(t),
			t == NM_TLS_READY ? " its sockets when the program calls ncclSetEncryption" :
			t == NM_TLS_NO_LIBSSL ? ": a program that sets a key fails at its first "
						"connection" : "");
	finding_evidence(f, "nccl: %s at %s", l->version, str_or(l->realpath, l->path));
	finding_why(f, "NCCL 2.32 encrypts its own TCP sockets (TLS 1.3 with a pre-shared key) only "
		    "when the program calls ncclSetEncryption(); no environment variable does it, so "
		    "whether this job encrypts is not known here. A node whose NCCL encrypts drops "
		    "peers that do not (\"TLS handshake from ... failed, discarding peer connection\"), "
		    "so every node needs the same capability. %s",
		    t == NM_TLS_NONE ? "This build answers a key with 'NCCL was built without TLS "
				       "support but a pre-shared key was configured'." :
		    t == NM_TLS_NO_LIBSSL ? "This build dlopens libcrypto.so.3 and libssl.so.3 when a "
					    "key is set ('ncclCrypt: failed to open ...')." : "");
	if (t == NM_TLS_NO_LIBSSL)
		finding_fix(f, N_("apt-get install -y libssl3   # Debian/Ubuntu; RHEL-like: dnf install -y "
			    "openssl-libs"));
}

/*
 * TCCL (Tencent Cloud's NCCL, found under /opt/tencent/tccl) is one more NCCL copy: a process uses
 * it only when it loads that file. Tencent's own guide says community PyTorch links NCCL
 * statically, so swapping the shared library does not put TCCL under torch; it documents an
 * NCCL plugin, a PyTorch plugin or a torch built against TCCL instead.
 */
static void tccl(const struct node_model *m, struct findings *out)
{
	const struct nm_python *py = m->stack.nccl_python;
	const struct nm_nccl_lib *t = NULL;
	const char *tmapped = py ? py->nccl_mapped : NULL;
	struct finding *f;
	char fb[256];

	for (size_t i = 0; i < m->stack.nnccl_libs && !t; i++)
		if (has_str(m->stack.nccl_libs[i].found_by, "tccl"))
			t = &m->stack.nccl_libs[i];
	if (!t)
		return;
	if (py && tmapped && py->nccl_static != 1 && find_lib(m, tmapped) == t) {
		f = finding_add(out, SEV_OK, "nccl.tccl", "torch loads TCCL (%s), Tencent Cloud's NCCL",
				str_or(t->path, "?"));
		finding_evidence(f, "torch (%s) maps %s", str_or(py->path, "?"), tmapped);
		return;
	}
	f = finding_add(out, SEV_INFO, "nccl.tccl.unused",
			"TCCL, Tencent Cloud's NCCL, is installed at %s but torch does not load it",
			str_or(t->path, "?"));
	finding_evidence(f, "nccl.libs: %s (%s; found by %s)%s", str_or(t->path, "?"),
			 t->version ? t->version : "version unknown", found_by_str(t, fb, sizeof(fb)),
			 t->is_default ? ", the copy programs load by default" : "");
	if (py && py->nccl_static == 1)
		finding_evidence(f, "torch (%s) links NCCL %s statically", str_or(py->path, "?"),
				 str_or(py->torch_nccl, "?"));
	else if (py && tmapped)
		finding_evidence(f, "torch (%s) maps %s", str_or(py->path, "?"), tmapped);
	finding_why(f, "TCCL is Tencent's extension of NCCL for its RDMA network, one more NCCL copy "
		    "on this node: a process runs it only if it loads that file. A torch wheel "
		    "brings its own NCCL (or links it statically), so training runs the wheel's "
		    "NCCL and TCCL's speed-up never applies; nccl-tests may meanwhile measure TCCL.");
	finding_fix(f, N_("# Tencent's guide: its NCCL plugin (recommended), its PyTorch plugin, or "
		    "torch built against TCCL (cloud.tencent.com/document/product/1646/93319)"));
}

void rule_compat_stack(const struct node_model *m, struct findings *out)
{
	nccl_floor(m, out);
	nccl_tls(m, out);
	for (size_t i = 0; i < m->stack.npython; i++) {
		torch_pin(&m->stack.python[i], m, out);
		lightning_pair(&m->stack.python[i], out);
		python_torch(&m->stack.python[i], out);
	}
	unreadable_copies(m, out);
	copies(m, out);
	tccl(m, out);
	plugin_and_conf(m, out);
}
