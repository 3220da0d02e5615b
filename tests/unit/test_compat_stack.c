/*
 * rules/compat_stack: NCCL's floor and torch's pin, torch against Lightning and Python, several
 * NCCL copies, net plugin and config files, on facts fixtures (a hand-made one shaped like the
 * 2xH200 GPU machine, the CI machine's shape, and the GPU machine's recording when present).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "rules/rules.h"
#include "model/compat_tables.h"
#include "model/stack_tables.h"
#include "util/json.h"

static struct findings *run(const json_t *facts)
{
	struct findings *fs = findings_new();

	run_rule(rule_compat_stack, facts, fs);
	return fs;
}



static void must_title(const struct finding *f, const char *needle)
{
	if (!strstr(f->title, needle))
		fail_msg("title '%s' lacks '%s'", f->title, needle);
}

static json_t *h200(void)
{
	return load_fixture_json("facts/stack-h200x2-handmade.json");
}

static json_t *ci(void)
{
	return load_fixture_json("facts/stack-ci-debian.json");
}

static json_t *py0(json_t *facts)
{
	return json_array_get(json_object_get(facts, "python"), 0);
}

#define WHEEL_DIR "/usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib"

/* The GPU machine's shape: torch's wheel NCCL 2.28.9 beside the system's 2.28.3. */
static void gpu_machine_two_copies(void **state)
{
	json_t *facts = h200();
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "nccl.copies.differ", SEV_WARN);

	(void)state;
	must_title(f, "torch uses NCCL 2.28.9");
	must_title(f, "load NCCL 2.28.3 (/usr/lib/x86_64-linux-gnu/libnccl.so.2)");
	assert_true(finding_fix_contains(f, "export LD_LIBRARY_PATH=" WHEEL_DIR ":$LD_LIBRARY_PATH"));
	assert_true(finding_fix_contains(f, "LD_PRELOAD=" WHEEL_DIR "/libnccl.so.2 ./build/all_reduce_perf"));
	assert_true(finding_fix_contains(f, "dpkg -S /usr/lib/x86_64-linux-gnu/libnccl.so.2"));
	expect_finding(fs, "compat.torch_nccl", SEV_OK);
	expect_finding(fs, "nccl.version", SEV_OK);
	f = expect_finding(fs, "compat.lightning_torch.untested", SEV_INFO);
	must_title(f, "torch 2.11.0+cu130 is newer than the 2.10");
	assert_null(findings_find(fs, "compat.python_torch"));
	assert_null(findings_find(fs, "compat.lightning.two_packages"));
	assert_int_equal(findings_count(fs, SEV_ERROR), 0);
	findings_free(fs);
	json_decref(facts);
}

/* The facts recorded on the real GPU machine (added by the lead), when present. */
static void gpu_machine_recorded(void **state)
{
	char path[4096];
	json_t *doc, *facts, *py, *lib;
	struct findings *fs;
	const char *tv = NULL, *dv = NULL;
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "%s/facts/gpu-h200x2.json", FIXTURES_DIR);
	if (access(path, R_OK) != 0)
		skip();
	doc = load_fixture_json("facts/gpu-h200x2.json");
	facts = json_object_get(doc, "facts") ? json_object_get(doc, "facts") : doc;
	fs = run(facts);
	json_array_foreach(json_object_get(facts, "python"), i, py)
		if (!tv)
			tv = jpath_str(py, "torch.nccl_version");
	json_array_foreach(jpath(facts, "nccl.libs"), i, lib)
		if (jpath_bool(lib, "default", 0))
			dv = jpath_str(lib, "version");
	if (tv) {
		assert_true(!strncmp(tv, "2.28.", 5));
		if (dv && strcmp(tv, dv))
			expect_finding(fs, "nccl.copies.differ", SEV_WARN);
	}
	findings_free(fs);
	json_decref(doc);
}

/* The CI machine: Debian's CPU torch 1.13 on Python 3.11 and CUDA 13's NCCL 2.28.9. */
static void ci_machine(void **state)
{
	json_t *facts = ci();
	struct findings *fs = run(facts);
	const struct finding *f;

	(void)state;
	f = expect_finding(fs, "compat.python_torch", SEV_WARN);
	must_title(f, "torch 1.13.0a0 is not released for Python 3.11.2");
	f = expect_finding(fs, "nccl.version", SEV_OK);
	must_title(f, "NCCL 2.28.9");
	expect_finding(fs, "nccl.copies", SEV_OK);
	assert_null(findings_find(fs, "compat.torch_nccl"));
	assert_null(findings_find(fs, "compat.torch_nccl.older"));
	findings_free(fs);
	json_decref(facts);
}

/* NCCL 2.32's TLS: what the loaded build can do, said as a note; older NCCL says nothing. */
static void nccl_tls_capability(void **state)
{
	json_t *facts = ci(), *lib = json_array_get(jpath(facts, "nccl.libs"), 0);
	json_t *tls = json_object();
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_str(lib, "version", "2.32.3");
	json_object_set_new(lib, "tls", tls);
	jset_bool(tls, "built", 1);
	jset_bool(tls, "libssl", 0);
	fs = run(facts);
	f = expect_finding(fs, "nccl.tls", SEV_INFO);
	must_title(f, "NCCL 2.32.3 built with TLS, but libssl.so.3 / libcrypto.so.3 do not load: a "
		   "program that sets a key fails at its first connection");
	assert_true(finding_has_fix(f, "apt-get install -y libssl3   # Debian/Ubuntu; RHEL-like: dnf "
				    "install -y openssl-libs"));
	findings_free(fs);
	jset_bool(tls, "libssl", 1);
	fs = run(facts);
	f = expect_finding(fs, "nccl.tls", SEV_INFO);
	must_title(f, "can encrypt its sockets when the program calls ncclSetEncryption");
	assert_int_equal(f->nfix, 0);
	findings_free(fs);
	json_object_set_new(tls, "built", json_false());
	json_object_del(tls, "libssl");
	fs = run(facts);
	must_title(expect_finding(fs, "nccl.tls", SEV_INFO), "NCCL 2.32.3 built without TLS: cannot encrypt");
	findings_free(fs);
	/* before 2.32 there is no TLS to speak of, whatever a document says */
	jset_str(lib, "version", "2.31.2");
	fs = run(facts);
	expect_no_finding(fs, "nccl.tls");
	findings_free(fs);
	json_decref(facts);
}

static void nccl_too_old(void **state)
{
	json_t *facts = ci(), *lib = json_array_get(jpath(facts, "nccl.libs"), 0);
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_str(lib, "version", "2.4.8");
	fs = run(facts);
	f = expect_finding(fs, "nccl.too_old", SEV_ERROR);
	must_title(f, "NCCL 2.4.8 is older than 2.7.8");
	assert_true(finding_fix_contains(f, "apt-get install --only-upgrade libnccl2"));
	findings_free(fs);
	json_decref(facts);

	/* torch's own NCCL too old: the fix upgrades torch in that interpreter */
	facts = h200();
	jset_str(json_object_get(py0(facts), "torch"), "nccl_version", "2.7.3");
	fs = run(facts);
	f = expect_finding(fs, "nccl.too_old", SEV_ERROR);
	assert_true(finding_fix_contains(f, "/usr/bin/python3 -m pip install --upgrade torch"));
	findings_free(fs);
	json_decref(facts);
}

/* torch runs an older NCCL than its wheel ships because LD_LIBRARY_PATH puts one first. */
static void torch_pin_older(void **state)
{
	json_t *facts = h200(), *t = json_object_get(py0(facts), "torch");
	json_t *lib = json_object(), *fb = json_array();
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_str(t, "nccl_version", "2.26.2");
	jset_str(t, "nccl_mapped", "/opt/nccl/lib/libnccl.so.2");
	jset_str(lib, "path", "/opt/nccl/lib/libnccl.so.2");
	jset_str(lib, "realpath", "/opt/nccl/lib/libnccl.so.2.26.2");
	jset_str(lib, "version", "2.26.2");
	json_array_append_new(fb, json_string("LD_LIBRARY_PATH"));
	json_object_set_new(lib, "found_by", fb);
	json_array_append_new(jpath(facts, "nccl.libs"), lib);
	fs = run(facts);
	f = expect_finding(fs, "compat.torch_nccl.older", SEV_WARN);
	must_title(f, "torch 2.11.0+cu130 runs NCCL 2.26.2, older than the 2.28.9 its wheels ship");
	assert_true(finding_fix_contains(f, "grep -vx '/opt/nccl/lib'"));
	assert_true(finding_fix_contains(f, "/usr/bin/python3 -m pip install 'nvidia-nccl-cu13==2.28.9'"));
	findings_free(fs);

	jset_str(t, "nccl_version", "2.29.7");
	fs = run(facts);
	expect_finding(fs, "compat.torch_nccl.newer", SEV_INFO);
	findings_free(fs);
	json_decref(facts);
}

/* A pin the research marks unverified only informs. */
static void torch_pin_unverified(void **state)
{
	json_t *facts = ci(), *t = json_object_get(json_array_get(json_object_get(facts, "python"), 1),
						    "torch");
	struct findings *fs;

	(void)state;
	jset_str(t, "cuda", "11.7");
	jset_str(t, "nccl_version", "2.10.3");
	fs = run(facts);
	expect_finding(fs, "compat.torch_nccl.older", SEV_INFO);
	findings_free(fs);
	json_decref(facts);
}

static void lightning_vs_torch(void **state)
{
	json_t *facts = ci(), *py = json_array_get(json_object_get(facts, "python"), 1);
	json_t *l = json_object();
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_bool(l, "installed", 1);
	jset_str(l, "version", "2.6.6");
	json_object_set_new(py, "lightning", l);
	fs = run(facts);
	f = expect_finding(fs, "compat.lightning_torch", SEV_ERROR);
	must_title(f, "lightning 2.6.6 needs torch 2.1 or newer; torch 1.13.0a0 is installed");
	assert_true(finding_fix_contains(f, "/usr/bin/python3 -m pip install 'torch>=2.1'"));
	assert_true(finding_fix_contains(f, "'lightning==2.2.*'")); /* the newest line that still takes torch 1.13 */
	assert_null(findings_find(fs, "compat.lightning_python"));
	findings_free(fs);

	/* Lightning 2.6.1+ need Python 3.10 */
	jset_str(py, "version", "3.9.18");
	fs = run(facts);
	f = expect_finding(fs, "compat.lightning_python", SEV_ERROR);
	must_title(f, "needs Python 3.10 or newer");
	findings_free(fs);

	/* ... but 2.6.0 still took 3.9 */
	jset_str(json_object_get(py, "lightning"), "version", "2.6.0");
	fs = run(facts);
	assert_null(findings_find(fs, "compat.lightning_python"));
	findings_free(fs);
	json_decref(facts);
}

static void lightning_ok_and_two_packages(void **state)
{
	json_t *facts = h200(), *py = py0(facts);
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_str(json_object_get(py, "torch"), "version", "2.8.0+cu128");
	jset_str(json_object_get(py, "torch"), "cuda", "12.8");
	jset_str(json_object_get(py, "pytorch_lightning"), "version", "2.5.1");
	fs = run(facts);
	expect_finding(fs, "compat.lightning_torch", SEV_OK);
	f = expect_finding(fs, "compat.lightning.two_packages", SEV_WARN);
	must_title(f, "lightning 2.6.6 and pytorch-lightning 2.5.1");
	assert_true(finding_fix_contains(f, "'lightning==2.6.6' 'pytorch-lightning==2.6.6'"));
	findings_free(fs);
	json_decref(facts);
}

static void several_copies_without_torch(void **state)
{
	json_t *facts = h200();
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_unknown(facts, "python", "not probed (--no-python)");
	fs = run(facts);
	f = expect_finding(fs, "nccl.copies.several", SEV_INFO);
	must_title(f, "2 NCCL copies with different versions; programs load "
		      "/usr/lib/x86_64-linux-gnu/libnccl.so.2 by default");
	assert_true(f->nevidence == 2);
	findings_free(fs);
	json_decref(facts);
}

static void no_default_copy(void **state)
{
	json_t *facts = h200();
	struct findings *fs;
	const struct finding *f;

	(void)state;
	json_array_remove(jpath(facts, "nccl.libs"), 0);
	fs = run(facts);
	f = expect_finding(fs, "nccl.default.none", SEV_INFO);
	assert_true(finding_fix_contains(f, "export LD_LIBRARY_PATH=" WHEEL_DIR ":$LD_LIBRARY_PATH"));
	findings_free(fs);
	json_decref(facts);
}

static void static_torch_differs(void **state)
{
	json_t *facts = h200(), *t = json_object_get(py0(facts), "torch");
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_str(t, "nccl_version", "2.21.5");
	jset_str(t, "nccl_mapped", "/usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so");
	jset_bool(t, "nccl_static", 1);
	fs = run(facts);
	f = expect_finding(fs, "nccl.copies.differ", SEV_WARN);
	assert_true(finding_fix_contains(f, "links NCCL 2.21.5 statically"));
	findings_free(fs);
	json_decref(facts);
}

/* A TCCL copy (Tencent Cloud's NCCL, /opt/tencent/tccl) torch does not load, then one it does. */
static json_t *with_tccl(json_t *facts)
{
	json_t *lib = json_object(), *fb = json_array();

	jset_str(lib, "path", "/opt/tencent/tccl/lib/libnccl.so.2");
	jset_str(lib, "realpath", "/opt/tencent/tccl/lib/libnccl.so.2.12.10");
	jset_str(lib, "version", "2.12.10");
	json_array_append_new(fb, json_string("ldconfig"));
	json_array_append_new(fb, json_string("tccl"));
	json_object_set_new(lib, "found_by", fb);
	json_array_append_new(jpath(facts, "nccl.libs"), lib);
	return facts;
}

static void tccl_copy(void **state)
{
	json_t *facts = with_tccl(h200()), *t = json_object_get(py0(facts), "torch");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "nccl.tccl.unused", SEV_INFO);

	(void)state;
	must_title(f, "installed at /opt/tencent/tccl/lib/libnccl.so.2 but torch does not load it");
	assert_true(finding_fix_contains(f, "NCCL plugin"));
	assert_null(findings_find(fs, "nccl.tccl"));
	findings_free(fs);

	jset_str(t, "nccl_mapped", "/opt/tencent/tccl/lib/libnccl.so.2");
	jset_str(t, "nccl_version", "2.12.10");
	fs = run(facts);
	expect_finding(fs, "nccl.tccl", SEV_OK);
	assert_null(findings_find(fs, "nccl.tccl.unused"));
	findings_free(fs);
	json_decref(facts);

	/* no TCCL copy: neither */
	facts = h200();
	fs = run(facts);
	assert_null(findings_find(fs, "nccl.tccl"));
	assert_null(findings_find(fs, "nccl.tccl.unused"));
	findings_free(fs);
	json_decref(facts);
}

static void unreadable_copy(void **state)
{
	json_t *facts = h200(), *lib = json_array_get(jpath(facts, "nccl.libs"), 0);
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_unknown(lib, "version", "loading it crashed the probe child (signal 11: Segmentation fault)");
	fs = run(facts);
	f = expect_finding(fs, "nccl.lib.unreadable", SEV_ERROR); /* it is what programs load by default */
	must_title(f, "signal 11");
	assert_true(finding_fix_contains(f, "ldd /usr/lib/x86_64-linux-gnu/libnccl.so.2"));
	findings_free(fs);
	json_decref(facts);
}

static void plugin_and_conf(void **state)
{
	json_t *facts = h200(), *np = jpath(facts, "nccl.net_plugin"), *conf = json_object();
	struct findings *fs;
	const struct finding *f;

	(void)state;
	jset_str(np, "env", "ofi");
	jset_str(np, "state", "missing");
	jset_str(conf, "path", "/home/u/nccl.conf");
	jset_str(conf, "source", "NCCL_CONF_FILE");
	jset_bool(conf, "exists", 0);
	jset_unknown(conf, "vars", "cannot open '/home/u/nccl.conf': No such file or directory");
	json_array_append_new(jpath(facts, "nccl.conf"), conf);
	fs = run(facts);
	f = expect_finding(fs, "nccl.net_plugin.missing", SEV_WARN);
	must_title(f, "NCCL_NET_PLUGIN=ofi");
	assert_true(finding_fix_contains(f, "export NCCL_NET_PLUGIN=none"));
	/* nothing found anywhere: the exact search, not a directory to fill in */
	assert_true(finding_has_fix(f, "find / -xdev -name 'libnccl-net-ofi.so*' 2>/dev/null   # then put its "
				    "directory first in LD_LIBRARY_PATH"));
	f = expect_finding(fs, "nccl.conf.missing", SEV_WARN);
	must_title(f, "NCCL_CONF_FILE=/home/u/nccl.conf");
	findings_free(fs);

	/* the probe found it off the loader's path: its directory, filled in */
	json_object_set_new(jpath(facts, "nccl"), "plugins",
			    json_lit("[{\"path\": \"/opt/aws-ofi-nccl/lib/libnccl-net-ofi.so\", "
				     "\"name\": \"libnccl-net-ofi.so\"}]"));
	fs = run(facts);
	f = expect_finding(fs, "nccl.net_plugin.missing", SEV_WARN);
	assert_true(finding_has_fix(f, "export LD_LIBRARY_PATH=/opt/aws-ofi-nccl/lib:$LD_LIBRARY_PATH"));
	findings_free(fs);

	/* a directory that would need shell quoting (a peer's facts are not trusted): the search */
	json_object_set_new(jpath(facts, "nccl"), "plugins",
			    json_lit("[{\"path\": \"/opt/x;reboot/libnccl-net-ofi.so\", "
				     "\"name\": \"libnccl-net-ofi.so\"}]"));
	fs = run(facts);
	f = expect_finding(fs, "nccl.net_plugin.missing", SEV_WARN);
	assert_false(finding_fix_contains(f, "reboot"));
	assert_true(finding_fix_contains(f, "find / -xdev -name 'libnccl-net-ofi.so*'"));
	findings_free(fs);

	jset_str(np, "state", "loads");
	jset_str(np, "path", "/opt/aws-ofi-nccl/lib/libnccl-net-ofi.so");
	fs = run(facts);
	expect_finding(fs, "nccl.net_plugin", SEV_INFO);
	findings_free(fs);
	json_decref(facts);
}

/* The tables answer the lookups the rules rely on. */
static void tables(void **state)
{
	(void)state;
	assert_string_equal(stack_find_nccl_pin("2.11.0+cu130", "13.0")->nccl, "2.28.9");
	assert_string_equal(stack_find_nccl_pin("2.10.0+cu128", "12.8")->nccl, "2.27.5");
	assert_string_equal(stack_find_nccl_pin("2.10.0+cu130", "13.0")->nccl, "2.28.9");
	/* RELEASE.md's matrix (pytorch#190386, #187075, #194367): one row per CUDA line */
	assert_string_equal(stack_find_nccl_pin("2.12.1+cu126", "12.6")->nccl, "2.29.3");
	assert_string_equal(stack_find_nccl_pin("2.12.1+cu130", "13.0")->nccl, "2.29.7");
	assert_string_equal(stack_find_nccl_pin("2.13.0+cu126", "12.6")->nccl, "2.29.3");
	assert_string_equal(stack_find_nccl_pin("2.13.0+cu132", "13.2")->nccl, "2.29.7");
	assert_string_equal(stack_find_nccl_pin("2.14.0+cu126", "12.6")->nccl, "2.29.3");
	assert_string_equal(stack_find_nccl_pin("2.14.0+cu130", "13.0")->nccl, "2.30.7");
	assert_string_equal(stack_find_nccl_pin("2.14.0+cu132", "13.2")->nccl, "2.30.7");
	assert_string_equal(stack_find_torch_python("2.14.0")->python_max, "3.15");
	assert_string_equal(compat_torch_variants("2.14.0")->variants[1], "13.0");
	assert_string_equal(stack_find_nccl_pin("2.0.1", "11.7")->nccl, "2.14.3");
	assert_null(stack_find_nccl_pin("2.10.0", NULL)); /* CUDA variant decides */
	assert_null(stack_find_nccl_pin("3.0.0", "13.0"));
	assert_string_equal(stack_find_lightning("2.6.0")->python_min, "3.9");
	assert_string_equal(stack_find_lightning("2.6.6")->python_min, "3.10");
	assert_string_equal(stack_find_lightning("1.8.6")->torch_min, "1.10");
	assert_null(stack_find_lightning("0.9.0"));
	assert_string_equal(stack_find_torch_python("2.11.0")->python_max, "3.14");
	assert_string_equal(stack_find_renamed("NCCL_BLOCKING_WAIT")->new_name,
			    "TORCH_NCCL_BLOCKING_WAIT");
	assert_string_equal(stack_find_renamed("TORCH_NCCL_ASYNC_ERROR_HANDLING")->old_name,
			    "NCCL_ASYNC_ERROR_HANDLING");
	assert_null(stack_find_renamed("NCCL_DEBUG"));
}

/* A CPU-only torch first on PATH must not hide the CUDA torch that trains. */
static void cpu_torch_first(void **state)
{
	json_t *facts = h200(), *cpu = json_lit(
		"{\"path\": \"/root/.pyenv/shims/python3\", \"version\": \"3.11.7\", \"torch\": "
		"{\"installed\": true, \"version\": \"2.11.0+cpu\", \"cuda\": null}}");
	struct findings *fs;
	const struct finding *f;

	(void)state;
	json_array_insert_new(json_object_get(facts, "python"), 0, cpu);
	fs = run(facts);
	f = expect_finding(fs, "nccl.copies.differ", SEV_WARN);
	must_title(f, "torch uses NCCL 2.28.9");
	f = expect_finding(fs, "nccl.version", SEV_OK);
	assert_non_null(strstr(f->evidence[0], "torch.cuda.nccl.version()"));
	findings_free(fs);
	json_decref(facts);
}

/* Facts of the wrong shape (a peer's or a hand-edited file) give no findings and no crash. */
static void wrong_shapes(void **state)
{
	json_t *facts = json_lit("{\"nccl\": {\"libs\": {\"a\": 1}, \"conf\": 3, \"net_plugin\": []},"
				 " \"python\": [1, \"x\", {\"torch\": 5, \"lightning\": {\"version\": 7}}]}");
	struct findings *fs = run(facts);

	(void)state;
	assert_int_equal(findings_count(fs, SEV_ERROR) + findings_count(fs, SEV_WARN), 0);
	findings_free(fs);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_machine_two_copies),
		cmocka_unit_test(gpu_machine_recorded),
		cmocka_unit_test(ci_machine),
		cmocka_unit_test(nccl_too_old),
		cmocka_unit_test(nccl_tls_capability),
		cmocka_unit_test(torch_pin_older),
		cmocka_unit_test(torch_pin_unverified),
		cmocka_unit_test(lightning_vs_torch),
		cmocka_unit_test(lightning_ok_and_two_packages),
		cmocka_unit_test(several_copies_without_torch),
		cmocka_unit_test(no_default_copy),
		cmocka_unit_test(static_torch_differs),
		cmocka_unit_test(tccl_copy),
		cmocka_unit_test(unreadable_copy),
		cmocka_unit_test(plugin_and_conf),
		cmocka_unit_test(tables),
		cmocka_unit_test(cpu_torch_first),
		cmocka_unit_test(wrong_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
