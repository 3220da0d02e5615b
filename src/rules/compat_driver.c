/*
 * The NVIDIA driver against what has to run on it: torch's CUDA build, the installed toolkits, the
 * seed's minimum, and itself (NVML vs the kernel module vs libcuda). Also cuDNN against the CUDA
 * it sits next to. Judged by compat_tables.c; every verdict names the driver to install or the
 * torch wheel that fits the driver already there.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

#include "model/compat_tables.h"
#include "util/i18n.h"
#include "util/version.h"

/* "13.0" -> "cu130", the wheel index name. */
static void cu_tag(const char *cuda, char *buf, size_t len)
{
	struct version v;

	if (version_parse(cuda, &v) < 0 || v.n < 2)
		snprintf(buf, len, "cpu");
	else
		snprintf(buf, len, "cu%ld%ld", v.part[0], v.part[1]);
}

static long driver_branch(const char *driver)
{
	struct version v;

	return version_parse(driver, &v) == 0 ? v.part[0] : 0;
}

/*
 * The commands that install a driver >= `need`. R580 is the current long-term branch and runs
 * every CUDA up to 13.0 (newer drivers run older CUDA), so older needs are served by it.
 */
static void fix_install_driver(struct finding *f, const struct node_model *m, const char *need)
{
	const char *os = m->os_id;
	long br = driver_branch(need);

	if (br < 580)
		br = 580;
	if (os && !strcmp(os, "ubuntu"))
		finding_fix(f, N_("sudo apt-get install -y nvidia-driver-%ld-server && sudo reboot   "
			       "# any driver >= %s works"), br, need);
	else if (os && (!strcmp(os, "rhel") || !strcmp(os, "rocky") || !strcmp(os, "almalinux") ||
			!strcmp(os, "centos") || !strcmp(os, "fedora") || !strcmp(os, "amzn")))
		finding_fix(f, N_("sudo dnf install -y cuda-drivers-%ld && sudo reboot   "
			       "# from NVIDIA's CUDA repository; any driver >= %s works"), br, need);
	else
		finding_fix(f, N_("sudo apt-get install -y cuda-drivers-%ld && sudo reboot   "
			       "# from NVIDIA's CUDA repository; any driver >= %s works"), br, need);
}

static void evidence_driver(struct finding *f, const struct nm_driver *driver)
{
	const char *v = driver->version;

	if (v)
		finding_evidence(f, "driver.version = %s (from %s)", v,
				 driver->source ? driver->source : "?");
	if (driver->cuda_max)
		finding_evidence(f, "driver.cuda_max = %s (from %s)", driver->cuda_max,
				 driver->cuda_max_source ? driver->cuda_max_source : "?");
}

/* Writes a wheel (pin "torch==2.11", CUDA "12.6") of `t` the driver runs in full; 0 if none. */
static int fits_release(const struct compat_torch_cuda *t, const char *driver, const char *cuda_max,
			char *pin, size_t plen, char *cuda, size_t clen)
{
	int n = 0;

	while (n < 4 && t->variants[n])
		n++;
	for (int k = n - 1; k >= 0; k--) {
		if (compat_driver_supports(driver, cuda_max, t->variants[k], NULL) != COMPAT_FULL)
			continue;
		snprintf(pin, plen, "torch==%s", t->torch);
		snprintf(cuda, clen, "%s", t->variants[k]);
		return 1;
	}
	return 0;
}

/*
 * The newest wheel the driver runs in full: of torch release `tv` itself (returns 1), else of the
 * newest older release that has one (returns 2); 0 when none does.
 */
static int wheel_for_driver(const char *tv, const char *driver, const char *cuda_max, char *pin,
			    size_t plen, char *cuda, size_t clen)
{
	const struct compat_torch_cuda *own = compat_torch_variants(tv);

	if (own && fits_release(own, driver, cuda_max, pin, plen, cuda, clen))
		return 1;
	for (size_t i = 0; i < compat_torch_cuda_count; i++) {
		const struct compat_torch_cuda *t = &compat_torch_cuda_tab[i];
		if (version_cmp_str(t->torch, tv) < 0 && fits_release(t, driver, cuda_max, pin, plen, cuda, clen))
			return 2;
	}
	return 0;
}

static void fix_wheel(struct finding *f, const struct nm_python *py, const char *tv, const char *driver,
		      const char *cuda_max)
{
	char pin[32], cuda[16], tag[16];
	const char *pyp = py->path;
	int which = wheel_for_driver(tv, driver, cuda_max, pin, sizeof(pin), cuda, sizeof(cuda));

	if (!which)
		return;
	cu_tag(cuda, tag, sizeof(tag));
	finding_fix(f, N_("%s -m pip install --force-reinstall '%s.*' --index-url "
		       "https://download.pytorch.org/whl/%s   # %s build for CUDA %s, which this driver runs%s"),
		    pyp ? pyp : "python3", pin, tag, which == 1 ? N_("the same torch release,") :
		    N_("an older torch"), cuda, which == 1 ? "" : N_(" (no build of this release does)"));
}

/* ---- driver presence and health ---- */

static int torch_wants_cuda(const struct node_model *m, const struct nm_python **which)
{
	for (size_t i = 0; i < m->stack.npython; i++) {
		const struct nm_python *py = &m->stack.python[i];

		if (py->torch_cuda && py->torch) {
			*which = py;
			return 1;
		}
	}
	return 0;
}

static void rule_absent(const struct node_model *m, const struct nm_driver *driver, struct findings *out)
{
	const struct nm_python *py = NULL;
	const char *kind = m->cloud.container;
	const char *nst = driver->nvml_status;
	int libs_only = nst && !strcmp(nst, "init_failed");
	struct finding *f;

	if (torch_wants_cuda(m, &py)) {
		const char *tc = py->torch_cuda;
		const char *need = compat_driver_full(tc, NULL);
		f = finding_add(out, SEV_WARN, "gpu.driver.absent",
				"no NVIDIA driver, but torch %s at %s is built for CUDA %s",
				py->torch, py->path, tc);
		finding_why(f, "without a driver torch.cuda.is_available() is False and the NCCL backend "
			    "cannot start: training falls back to CPU or fails at init_process_group");
		if (kind && (!strcmp(kind, "docker") || !strcmp(kind, "podman")) && libs_only)
			finding_fix(f, N_("docker run --gpus all ...   # the NVIDIA libraries are in the image "
				       "but the container was started without GPUs"));
		else if (kind && !strcmp(kind, "kubernetes"))
			finding_fix(f, "request GPUs in the pod spec: resources.limits.nvidia.com/gpu: 1");
		else if (need)
			fix_install_driver(f, m, need);
	} else {
		f = finding_add(out, SEV_INFO, "gpu.driver.absent", "no NVIDIA driver on this machine");
		finding_why(f, "fine for a CPU-only node; a GPU training node needs the driver");
		if (kind && (!strcmp(kind, "docker") || !strcmp(kind, "podman")))
			finding_fix(f, N_("docker run --gpus all ...   # on a GPU host, start the container with GPUs"));
		else
			fix_install_driver(f, m, compat_driver_floor("13.0"));
	}
	finding_evidence(f, "driver.present = false: %s", driver->reason ? driver->reason : "");
	if (driver->nvml_error)
		finding_evidence(f, "driver.nvml: %s", driver->nvml_error);
}

/* User-space libraries from one driver release, kernel module from another. */
static int rule_mismatch(const struct nm_driver *driver, struct findings *out)
{
	const char *kver = driver->kmod_version;
	const char *lver = driver->nvml_library_version;
	long long code = driver->nvml_error_code;
	struct finding *f;

	if (code != 18 && !(kver && lver && strcmp(kver, lver)))
		return 0;
	if (kver && lver)
		f = finding_add(out, SEV_ERROR, "gpu.driver.mismatch",
				"NVIDIA kernel module %s but user-space driver libraries %s", kver, lver);
	else
		f = finding_add(out, SEV_ERROR, "gpu.driver.mismatch",
				"NVML: driver/library version mismatch%s%s", kver ? "; kernel module " : "",
				kver ? kver : "");
	finding_why(f, "the driver was upgraded but the old kernel module is still loaded: nvidia-smi "
		    "fails with 'Driver/library version mismatch' and CUDA cannot initialise");
	finding_fix(f, N_("sudo reboot   # loads the new kernel module"));
	finding_fix(f, N_("sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia "
		       "nvidia_uvm   # without a reboot, when no process uses the GPUs"));
	if (kver)
		finding_evidence(f, "driver.kernel_module.version = %s (%s)", kver,
				 driver->kmod_source);
	if (lver)
		finding_evidence(f, "driver.nvml.library_version = %s (%s)", lver, driver->nvml_library);
	if (driver->nvml_error)
		finding_evidence(f, "driver.nvml.error = %s", driver->nvml_error);
	return 1;
}

static void rule_health(const struct node_model *m, const struct nm_driver *driver, struct findings *out)
{
	const char *nst = driver->nvml_status;
	const char *init = driver->cuda_init;
	struct finding *f;

	if (nst && strcmp(nst, "ok") != 0 && driver->nvml_error_code != 18) {
		const char *hint = driver->nvml_hint;
		f = finding_add(out, SEV_WARN, "gpu.nvml.failed", "NVML failed: %s",
				driver->nvml_error ? driver->nvml_error : nst);
		finding_why(f, "%s; GPU facts and topology are missing from this report",
			    hint ? hint : "the NVIDIA management library did not answer");
		if (driver->nvml_error_code == 4)
			finding_fix(f, N_("sudo usermod -aG video $USER   # then log in again; or run ncclcheck as root"));
		else
			finding_fix(f, N_("nvidia-smi   # shows the same failure; if it hangs, the driver is wedged: sudo reboot"));
		finding_evidence(f, "driver.nvml.status = %s", nst);
	}
	if (nst && !strcmp(nst, "ok") && m->gpus_known && m->ngpus == 0) {
		f = finding_add(out, SEV_WARN, "gpu.none", "the NVIDIA driver %s is loaded but lists no GPU",
				driver->version ? driver->version : "");
		finding_why(f, "NCCL needs at least one GPU per rank");
		finding_fix(f, N_("lspci -d 10de:   # lists the NVIDIA devices on the PCI bus; none means the "
			       "VM or container was given no GPU"));
		finding_evidence(f, "gpus = []");
	}
	if (init && strcmp(init, "CUDA_SUCCESS") != 0) {
		const char *hint = driver->cuda_init_hint;
		f = finding_add(out, SEV_ERROR, "gpu.cuda.init", "cuInit fails with %s: CUDA is unusable", init);
		finding_why(f, "%s; torch.cuda.is_available() returns False",
			    hint ? hint : "the CUDA driver cannot initialise");
		if (!strcmp(init, "CUDA_ERROR_UNKNOWN")) {
			finding_fix(f, "sudo modprobe nvidia_uvm");
		} else if (!strcmp(init, "CUDA_ERROR_STUB_LIBRARY")) {
			finding_fix(f, "export LD_LIBRARY_PATH=$(echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | "
				    "grep -v /stubs | paste -sd:)");
		} else if (!strcmp(init, "CUDA_ERROR_NO_DEVICE")) {
			finding_fix(f, N_("unset CUDA_VISIBLE_DEVICES   # or list real GPU indices in it"));
			finding_setting(f, WHERE_ENV, SCOPE_NODE, "CUDA_VISIBLE_DEVICES", NULL);
		} else if (!strcmp(init, "CUDA_ERROR_SYSTEM_NOT_READY")) {
			finding_fix(f, "sudo systemctl enable --now nvidia-fabricmanager");
		} else {
			finding_fix(f, N_("nvidia-smi && dmesg | grep -i nvrm | tail   # the kernel log names the cause"));
		}
		finding_evidence(f, "driver.cuda_driver.init = %s (%s)", init,
				 driver->cuda_library ? driver->cuda_library : "libcuda.so.1");
	}
}

/* NVML's idea of the driver's CUDA version against libcuda's own. */
static void rule_cuda_sources(const struct nm_driver *driver, struct findings *out)
{
	long long n = driver->nvml_cuda_version_code;
	long long c = driver->cuda_version_code;
	const char *lib = driver->cuda_library;
	struct finding *f;

	if (!n || !c || n == c)
		return;
	if (c > n) {
		f = finding_add(out, SEV_INFO, "compat.driver.cuda_sources",
				"libcuda.so.1 reports CUDA %s, the driver CUDA %s: a forward-compatibility libcuda is in use",
				driver->cuda_version, driver->nvml_cuda_version);
		finding_why(f, "NVIDIA's cuda-compat package lets a newer CUDA run on an older data-center "
			    "driver; on other GPUs cuInit then fails with CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE");
		finding_fix(f, N_("ls -l %s   # remove its directory from LD_LIBRARY_PATH if you did not mean to use it"),
			    lib ? lib : "libcuda.so.1");
	} else {
		f = finding_add(out, SEV_WARN, "compat.driver.cuda_sources",
				"libcuda.so.1 reports CUDA %s but the driver supports CUDA %s: a stale libcuda is loaded",
				driver->cuda_version, driver->nvml_cuda_version);
		finding_why(f, "programs load an old libcuda.so.1 (a copy left in the image or on "
			    "LD_LIBRARY_PATH) instead of the driver's own, and lose features of the newer driver");
		finding_fix(f, N_("ldconfig -p | grep libcuda.so.1; ls -l %s   # delete or move the stale copy"),
			    lib ? lib : "libcuda.so.1");
	}
	finding_evidence(f, "driver.nvml.cuda_version = %s", driver->nvml_cuda_version);
	finding_evidence(f, "driver.cuda_driver.version = %s (%s)", driver->cuda_version,
			 lib ? lib : "libcuda.so.1");
}

static void rule_seed_min(const struct node_model *m, const struct nm_driver *driver, struct findings *out)
{
	const char *v = driver->version;
	struct finding *f;

	if (!v || version_cmp_str(v, COMPAT_DRIVER_SEED_MIN) >= 0)
		return;
	f = finding_add(out, SEV_ERROR, "compat.driver.minimum",
			"NVIDIA driver %s is older than %s, the minimum for CUDA 11.x and NCCL training",
			v, COMPAT_DRIVER_SEED_MIN);
	finding_why(f, "every CUDA 11+ build of torch and NCCL needs at least %s (CUDA 11.x minor-version "
		    "compatibility floor)", COMPAT_DRIVER_SEED_MIN);
	fix_install_driver(f, m, COMPAT_DRIVER_SEED_MIN);
	evidence_driver(f, driver);
}

/* ---- driver vs torch's CUDA build ---- */

static void rule_torch(const struct node_model *m, const struct nm_driver *driver, struct findings *out)
{
	const char *dv = driver->version, *cmax = driver->cuda_max;

	for (size_t i = 0; i < m->stack.npython; i++) {
		const struct nm_python *py = &m->stack.python[i];
		const char *tc = py->torch_cuda, *tv = py->torch;
		const char *need = NULL, *floor;
		enum compat_support s;
		struct finding *f;

		if (!tc || !tv)
			continue;
		s = compat_driver_supports(dv, cmax, tc, &need);
		floor = compat_driver_floor(tc);
		switch (s) {
		case COMPAT_FULL:
			f = finding_add(out, SEV_OK, "compat.driver.torch",
					"driver %s runs torch %s (CUDA %s)", dv ? dv : cmax, tv, tc);
			break;
		case COMPAT_MINOR:
			f = finding_add(out, SEV_WARN, "compat.driver.torch",
					"driver %s is older than CUDA %s wants (%s): torch %s runs in minor-version "
					"compatibility", dv ? dv : cmax, tc, need ? need : "?", tv);
			finding_why(f, "CUDA %s code runs on a %s+ driver with a limited feature set; kernels "
				    "that need PTX JIT fail with cudaErrorUnsupportedPtxVersion ('the provided PTX "
				    "was compiled with an unsupported toolchain')", tc, floor ? floor : "?");
			fix_wheel(f, py, tv, dv, cmax);
			if (need)
				fix_install_driver(f, m, need);
			break;
		case COMPAT_NONE:
			f = finding_add(out, SEV_ERROR, "compat.driver.torch",
					"driver %s is too old for torch %s (CUDA %s needs driver >= %s)",
					dv ? dv : cmax, tv, tc, floor ? floor : need ? need : "?");
			finding_why(f, "torch.cuda.is_available() returns False ('The NVIDIA driver on your "
				    "system is too old') and the NCCL backend cannot start");
			fix_wheel(f, py, tv, dv, cmax);
			fix_install_driver(f, m, need ? need : floor ? floor : "580.65.06");
			break;
		default:
			f = finding_add(out, SEV_INFO, "compat.driver.torch",
					"cannot tell whether driver %s runs torch %s (CUDA %s)",
					dv ? dv : cmax ? cmax : "(unknown)", tv, tc);
			finding_why(f, "the driver version is unknown or CUDA %s is outside the tables this "
				    "tool knows", tc);
			finding_fix(f, "%s -c 'import torch; print(torch.cuda.is_available())'",
				    py->path ? py->path : "python3");
			break;
		}
		evidence_driver(f, driver);
		finding_evidence(f, "python[%zu].torch = %s, cuda %s (%s)", i, tv, tc, py->path);
	}
}

/* ---- driver vs installed toolkits ---- */

static void rule_toolkits(const struct node_model *m, const struct nm_driver *driver, struct findings *out)
{
	const char *dv = driver->version, *cmax = driver->cuda_max;
	char fits[16];

	for (size_t i = 0; i < m->cuda.ntoolkits; i++) {
		const struct nm_toolkit *t = &m->cuda.toolkits[i];
		const char *tv = t->version, *path = t->path, *need = NULL, *floor;
		int dflt = t->is_default || m->cuda.ntoolkits == 1;
		enum compat_support s;
		struct finding *f;

		if (!tv)
			continue;
		s = compat_driver_supports(dv, cmax, tv, &need);
		floor = compat_driver_floor(tv);
		if (s == COMPAT_FULL) {
			f = finding_add(out, SEV_OK, "compat.driver.toolkit", "driver %s runs CUDA %s at %s",
					dv ? dv : cmax, tv, path);
		} else if (s == COMPAT_MINOR) {
			f = finding_add(out, SEV_WARN, "compat.driver.toolkit",
					"driver %s is older than CUDA %s at %s wants (%s): minor-version compatibility only",
					dv ? dv : cmax, tv, path, need ? need : "?");
			finding_why(f, "programs built with this toolkit (nccl-tests, CUDA extensions) run with a "
				    "limited feature set; PTX JIT fails with cudaErrorUnsupportedPtxVersion");
			if (need)
				fix_install_driver(f, m, need);
		} else if (s == COMPAT_NONE) {
			f = finding_add(out, dflt ? SEV_ERROR : SEV_WARN, "compat.driver.toolkit",
					"driver %s is too old for CUDA %s at %s (needs >= %s)", dv ? dv : cmax, tv,
					path, floor ? floor : need ? need : "?");
			finding_why(f, "programs built with this toolkit (nccl-tests, CUDA extensions) fail with "
				    "'CUDA driver version is insufficient for CUDA runtime version'; torch wheels "
				    "carry their own CUDA runtime and are judged separately");
			fix_install_driver(f, m, need ? need : floor ? floor : "580.65.06");
			if (dv && compat_cuda_for_driver(dv, fits, sizeof(fits)) == 0) {
				struct version v;
				version_parse(fits, &v);
				finding_fix(f, N_("sudo apt-get install -y cuda-toolkit-%ld-%ld   # or use CUDA %s, "
					       "which this driver runs"), v.part[0], v.part[1], fits);
			}
		} else {
			continue; /* CUDA 10.1 and older, or a toolkit newer than the table: no verdict */
		}
		evidence_driver(f, driver);
		finding_evidence(f, "cuda.toolkits[%zu] = %s at %s (from %s)", i, tv, path,
				 t->source ? t->source : "?");
	}
}

void rule_compat_driver(const struct node_model *m, struct findings *out)
{
	const struct nm_driver *driver = &m->driver;
	struct finding *f;

	if (!driver->section)
		return;
	if (driver->present_unknown) {
		f = finding_add(out, SEV_WARN, "gpu.driver.unknown", "could not tell whether an NVIDIA "
				"driver works: %s", driver->present_unknown);
		finding_why(f, "a driver probe that hangs or crashes usually means a wedged driver or GPU");
		finding_fix(f, N_("timeout 20 nvidia-smi; dmesg | grep -iE 'nvrm|xid' | tail   # if nvidia-smi "
			       "hangs too: sudo reboot"));
		finding_evidence(f, "driver.present: %s", driver->present_unknown);
		return;
	}
	if (driver->present != 1) {
		if (driver->present == 0)
			rule_absent(m, driver, out);
		return;
	}
	if (rule_mismatch(driver, out))
		return;
	rule_health(m, driver, out);
	rule_cuda_sources(driver, out);
	rule_seed_min(m, driver, out);
	rule_torch(m, driver, out);
	rule_toolkits(m, driver, out);
}

/* ---- cuDNN vs CUDA ---- */

/* torch.version.cuda of the interpreter whose site-packages contain `path`, or NULL. */
static const char *python_cuda(const struct node_model *m, const char *path, const char **where)
{
	if (!path)
		return NULL;
	for (size_t i = 0; i < m->stack.npython; i++) {
		const struct nm_python *py = &m->stack.python[i];

		for (const char *const *sp = py->site_packages; sp && *sp; sp++) {
			size_t n = strlen(*sp);
			if (n && !strncmp(path, *sp, n) && path[n] == '/' && py->torch_cuda) {
				*where = py->path;
				return py->torch_cuda;
			}
		}
	}
	return NULL;
}

/* The CUDA a cuDNN copy is used with: its own toolkit's, else the default toolkit's. */
static const char *cudnn_cuda(const struct node_model *m, const struct nm_cudnn *c, const char **where)
{
	const char *tk = c->toolkit, *dflt = NULL;

	/* pip and conda copies belong to the interpreter whose site-packages hold them: its torch's CUDA */
	for (const char *const *h = c->found_by; h && *h; h++)
		if (!strcmp(*h, "site-packages") || !strcmp(*h, "venv") || !strcmp(*h, "conda"))
			return python_cuda(m, c->path, where);
	for (size_t i = 0; i < m->cuda.ntoolkits; i++) {
		const struct nm_toolkit *t = &m->cuda.toolkits[i];
		const char *p = t->path, *v = t->version;
		if (!p || !v)
			continue;
		if (tk && !strcmp(tk, p)) {
			*where = p;
			return v;
		}
		if (!tk && (!dflt || t->is_default)) {
			dflt = v;
			*where = p;
		}
	}
	return dflt;
}

void rule_compat_cudnn(const struct node_model *m, struct findings *out)
{
	char seen[16][48];
	size_t nseen = 0;

	for (size_t i = 0; i < m->ncudnn; i++) {
		const struct nm_cudnn *c = &m->cudnn[i];
		const char *cv = c->version, *where = NULL, *note = NULL;
		const char *cuda = cv ? cudnn_cuda(m, c, &where) : NULL;
		enum compat_support s;
		struct finding *f;
		char key[48];
		int dup = 0;

		if (!cuda)
			continue;
		snprintf(key, sizeof(key), "%s/%s", cv, cuda);
		for (size_t k = 0; k < nseen; k++)
			dup |= !strcmp(seen[k], key);
		if (dup)
			continue;
		if (nseen < 16)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", key);
		s = compat_cudnn_cuda(cv, cuda, &note);
		if (s == COMPAT_FULL) {
			f = finding_add(out, SEV_OK, "compat.cudnn.cuda", "cuDNN %s supports CUDA %s", cv, cuda);
		} else if (s == COMPAT_NONE) {
			struct version v;
			version_parse(cuda, &v);
			f = finding_add(out, SEV_ERROR, "compat.cudnn.cuda",
					"cuDNN %s at %s does not support CUDA %s (of %s)", cv,
					c->path, cuda, where ? where : "?");
			finding_why(f, "%s; code built against it fails with CUDNN_STATUS_NOT_SUPPORTED or "
				    "missing symbols", note);
			finding_fix(f, N_("sudo apt-get install -y cudnn9-cuda-%ld   # cuDNN 9 built for CUDA %ld, "
				       "from NVIDIA's CUDA repository"), v.part[0], v.part[0]);
		} else {
			f = finding_add(out, SEV_INFO, "compat.cudnn.cuda",
					"cuDNN %s with CUDA %s: not in the support matrices this tool knows", cv, cuda);
			finding_why(f, "%s", note);
			finding_fix(f, N_("python3 -c 'import torch; print(torch.backends.cudnn.is_available())'   "
				       "# a quick check that cuDNN loads"));
		}
		finding_evidence(f, "cudnn[%zu] = %s at %s (%s)", i, cv, c->path, c->source);
		finding_evidence(f, "CUDA %s from %s", cuda, where ? where : "?");
	}
}
