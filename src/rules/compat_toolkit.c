/*
 * The first seed's "CUDA Toolkit 与 PyTorch 匹配" (check with nvcc --version), said precisely: a
 * torch wheel brings its own CUDA runtime, so the toolkit matters only when CUDA extensions are
 * compiled against torch (apex, flash-attn, DeepSpeed's ops). torch.utils.cpp_extension takes
 * the toolkit from CUDA_HOME / CUDA_PATH, else nvcc on PATH, else /usr/local/cuda, and refuses a
 * different CUDA major than torch's build; a different minor only warns. Driver against toolkit
 * is judged in compat_driver.c. Pure.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

#include "model/compat_tables.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/version.h"

/* The toolkit a torch extension build would use, as cpp_extension's _find_cuda_home() finds it. */
struct build_tk {
	const struct nm_toolkit *t;	/* cuda.toolkits[] entry, NULL when none */
	size_t idx;
	const char *path;
	const char *version;
	char how[160];		/* "CUDA_HOME=/usr/local/cuda", "nvcc on PATH (/usr/bin/nvcc)" */
	const char *bad_var;	/* CUDA_HOME or CUDA_PATH names no toolkit */
	const char *bad_value;
};

static int same_dir(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && !strncmp(a, b, la);
}

/* The toolkit whose real path or one of whose aliases is `dir`. */
static const struct nm_toolkit *toolkit_at(const struct node_model *m, const char *dir, size_t *idx)
{
	for (size_t i = 0; i < m->cuda.ntoolkits; i++) {
		const struct nm_toolkit *t = &m->cuda.toolkits[i];
		int hit = t->path && same_dir(t->path, dir);

		for (size_t j = 0; !hit && j < t->naliases; j++)
			hit = same_dir(t->aliases[j], dir);
		if (hit) {
			*idx = i;
			return t;
		}
	}
	return NULL;
}

static void pick(const struct node_model *m, struct build_tk *b)
{
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH" };
	const char *nvcc_tk = m->cuda.nvcc_toolkit;

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < 2; i++) {
		const char *v = node_model_env(m, vars[i]);

		if (!v || !*v)
			continue;
		b->t = toolkit_at(m, v, &b->idx);
		if (!b->t) {
			b->bad_var = vars[i];
			b->bad_value = v;
			return;
		}
		snprintf(b->how, sizeof(b->how), "%s=%s", vars[i], v);
		goto out;
	}
	if (m->cuda.nvcc_found && nvcc_tk) {
		b->t = toolkit_at(m, nvcc_tk, &b->idx);
		snprintf(b->how, sizeof(b->how), "nvcc on PATH: %s", str_or(m->cuda.nvcc_path, "?"));
		if (!b->t) {
			b->path = nvcc_tk;
			b->version = m->cuda.nvcc_version;
			return;
		}
		goto out;
	}
	b->t = toolkit_at(m, "/usr/local/cuda", &b->idx);
	if (b->t)
		snprintf(b->how, sizeof(b->how), "/usr/local/cuda (no CUDA_HOME, no nvcc on PATH)");
out:
	if (b->t) {
		b->path = b->t->path;
		b->version = b->t->version;
		/* a toolkit without version files: nvcc's own answer, when it is that toolkit's nvcc */
		if (!b->version && nvcc_tk && b->path && same_dir(nvcc_tk, b->path))
			b->version = m->cuda.nvcc_version;
	}
}

/* The installed toolkit closest to torch's CUDA: same major.minor, else same major (newest). */
static const struct nm_toolkit *best_match(const struct node_model *m, const struct version *want,
					     int *exact)
{
	const struct nm_toolkit *best = NULL;
	struct version bv = { 0, { 0 } };

	*exact = 0;
	for (size_t i = 0; i < m->cuda.ntoolkits; i++) {
		const struct nm_toolkit *t = &m->cuda.toolkits[i];
		struct version v;

		if (version_parse(str_or(t->version, ""), &v) < 0 ||
		    v.part[0] != want->part[0])
			continue;
		if (v.part[1] == want->part[1]) {
			*exact = 1;
			return t;
		}
		if (!best || version_cmp(&v, &bv) > 0) {
			best = t;
			bv = v;
		}
	}
	return best;
}

static void others(const struct node_model *m, const struct build_tk *b, struct finding *f)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < m->cuda.ntoolkits; i++) {
		const struct nm_toolkit *t = &m->cuda.toolkits[i];

		if (t != b->t)
			strbuf_addf(&sb, "%s%s at %s", sb.len ? ", " : "", str_or(t->version, "?"),
				    str_or(t->path, "?"));
	}
	if (sb.len)
		finding_evidence(f, "other toolkits (not used for builds): %s", sb.buf);
	strbuf_release(&sb);
}

static void fix_cuda_home(struct finding *f, const struct nm_toolkit *t)
{
	finding_fix(f, N_("export CUDA_HOME=%s PATH=%s/bin:$PATH   # CUDA %s, already installed"),
		    str_or(t->path, "?"), str_or(t->path, "?"), str_or(t->version, "?"));
	if (t->path)
		finding_setting(f, WHERE_ENV, SCOPE_NODE, "CUDA_HOME", "%s", t->path);
}

static void fix_install(struct finding *f, const struct version *tc)
{
	finding_fix(f, N_("sudo apt-get install -y cuda-toolkit-%ld-%ld && export CUDA_HOME=/usr/local/cuda-%ld.%ld   "
		    "# from NVIDIA's CUDA repository"), tc->part[0], tc->part[1], tc->part[0], tc->part[1]);
	finding_setting(f, WHERE_ENV, SCOPE_NODE, "CUDA_HOME", "/usr/local/cuda-%ld.%ld", tc->part[0],
			tc->part[1]);
}

/* A wheel of the same torch release built for the toolkit's CUDA major, when one exists. */
static void fix_wheel(struct finding *f, const struct nm_python *py, const char *tv, const struct version *tk)
{
	const struct compat_torch_cuda *rel = compat_torch_variants(tv);
	struct version tvv, cv;
	const char *pick_v = NULL;

	if (!rel || version_parse(tv, &tvv) < 0)
		return;
	for (int i = 0; i < 4 && rel->variants[i]; i++)
		if (version_parse(rel->variants[i], &cv) == 0 && cv.part[0] == tk->part[0] &&
		    (!pick_v || cv.part[1] <= tk->part[1]))
			pick_v = rel->variants[i];
	if (!pick_v || version_parse(pick_v, &cv) < 0)
		return;
	char tag[32];

	/* "cu126" one value: two numbers in a row are not read back from the line (i18n_text) */
	snprintf(tag, sizeof(tag), "cu%ld%ld", cv.part[0], cv.part[1]);
	finding_fix(f, N_("%s -m pip install --force-reinstall 'torch==%ld.%ld.*' --index-url "
		    "https://download.pytorch.org/whl/%s   # or torch's CUDA %s build, to match the toolkit "
		    "(the driver must run it)"), str_or(py->path, "?"), tvv.part[0], tvv.part[1], tag, pick_v);
}

static void judge(const struct node_model *m, const struct nm_python *py, size_t pi,
		  const struct build_tk *b, struct findings *out)
{
	const char *tc = py->torch_cuda, *tv = py->torch;
	struct version want, have;
	const struct nm_toolkit *match;
	struct finding *f;
	int exact;

	if (version_parse(tc, &want) < 0 || want.n < 2)
		return;
	match = best_match(m, &want, &exact);
	if (b->bad_var) {
		f = finding_add(out, SEV_WARN, "compat.toolkit.cuda_home",
				"%s=%s is not a CUDA toolkit: CUDA extensions for torch %s cannot be built",
				b->bad_var, b->bad_value, tv);
		finding_why(f, "torch.utils.cpp_extension takes the toolkit from %s before anything else and runs "
			    "its bin/nvcc; a directory without one fails every CUDA extension build (apex, "
			    "flash-attn, DeepSpeed ops). Running torch itself does not need a toolkit.", b->bad_var);
		if (match)
			fix_cuda_home(f, match);
		else {
			finding_fix(f, "unset %s", b->bad_var);
			finding_setting(f, WHERE_ENV, SCOPE_NODE, b->bad_var, NULL);
		}
		goto ev;
	}
	if (!b->path || !b->version || version_parse(b->version, &have) < 0) {
		f = finding_add(out, SEV_INFO, "compat.toolkit.none",
				"no CUDA toolkit for builds: torch %s runs without one (its wheel brings CUDA %s's runtime)",
				tv, tc);
		finding_why(f, "The first seed asks for a CUDA toolkit that matches PyTorch. That holds only for "
			    "compiling CUDA extensions (apex, flash-attn, DeepSpeed ops): torch.utils.cpp_extension "
			    "then needs nvcc of CUDA %ld.x. Training, NCCL and torch's own kernels use the CUDA "
			    "libraries inside the wheel and the driver.", want.part[0]);
		if (match)
			fix_cuda_home(f, match);
		else
			fix_install(f, &want);
		goto ev;
	}
	if (have.part[0] != want.part[0]) {
		f = finding_add(out, SEV_WARN, "compat.toolkit.torch",
				"CUDA toolkit %s (%s) but torch %s is built for CUDA %s: CUDA extensions will not build",
				b->version, b->how, tv, tc);
		finding_why(f, "torch.utils.cpp_extension refuses a toolkit of another CUDA major: 'The detected "
			    "CUDA version (%s) mismatches the version that was used to compile PyTorch (%s)'. apex, "
			    "flash-attn and DeepSpeed's ops (built at install or at first use) fail that way. torch "
			    "itself and NCCL are unaffected: the wheel carries its own CUDA runtime.", b->version, tc);
		if (match)
			fix_cuda_home(f, match);
		else
			fix_install(f, &want);
		fix_wheel(f, py, tv, &have);
	} else if (have.part[1] != want.part[1]) {
		f = finding_add(out, SEV_INFO, "compat.toolkit.torch",
				"CUDA toolkit %s (%s) and torch %s's CUDA %s differ in the minor version", b->version,
				b->how, tv, tc);
		finding_why(f, "torch.utils.cpp_extension only warns ('has a minor version mismatch ... Most likely "
			    "this shouldn't be a problem') and builds; most extensions work. %s",
			    have.part[1] < want.part[1]
			    ? "An older toolkit than torch's can fail on CUDA headers or GPU architectures that torch's "
			      "build assumes."
			    : "A newer toolkit than torch's can link the extension against CUDA library symbols that "
			      "the wheel's older runtime lacks ('undefined symbol' at import).");
		if (match && exact)
			fix_cuda_home(f, match);
		else
			fix_install(f, &want);
	} else {
		f = finding_add(out, SEV_OK, "compat.toolkit.torch", "CUDA toolkit %s (%s) matches torch %s's CUDA %s",
				b->version, b->how, tv, tc);
	}
	finding_evidence(f, "build toolkit: CUDA %s at %s, found through %s", b->version, b->path, b->how);
ev:
	finding_evidence(f, "python[%zu].torch = %s, cuda %s (%s)", pi, str_or(tv, "?"), tc, str_or(py->path, "?"));
	others(m, b, f);
}

void rule_compat_toolkit(const struct node_model *m, struct findings *out)
{
	struct build_tk b;

	if (!m->cuda.known)
		return;
	pick(m, &b);
	for (size_t i = 0; i < m->stack.npython; i++)
		if (m->stack.python[i].torch_cuda && m->stack.python[i].torch)
			judge(m, &m->stack.python[i], i, &b, out);
}
