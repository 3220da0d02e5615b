/*
 * probe/python: what an interpreter prints becomes facts only through the marker line, with
 * every field type-checked; anything else becomes "unknown, because the probe printed ...".
 * The last case runs the embedded script under a real interpreter when one is installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "probe/probe.h"
#include "probe/python.h"
#include "util/envmap.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"

static json_t *parse_ok(const char *out)
{
	json_t *entry = json_object();
	struct err e = ERR_INIT;

	if (python_parse_output(out, strlen(out), entry, &e) < 0)
		fail_msg("parse failed: %s", e.msg);
	return entry;
}

static void parse_fail(const char *out, size_t len, const char *want)
{
	json_t *entry = json_object();
	struct err e = ERR_INIT;

	assert_int_equal(python_parse_output(out, len, entry, &e), -1);
	if (!strstr(e.msg, want))
		fail_msg("message '%s' lacks '%s'", e.msg, want);
	json_decref(entry);
}

/* What torch 2.11 from the cu130 wheel prints on the GPU machine (shape, not a recording). */
static void gpu_wheel(void **state)
{
	json_t *e = parse_ok(
		"some warning on stdout\n"
		PYPROBE_MARKER "{\"python\": {\"version\": \"3.12.3\", \"executable\": "
		"\"/usr/bin/python3\", \"prefix\": \"/usr\", \"implementation\": \"cpython\"}, "
		"\"site_packages\": [\"/usr/local/lib/python3.12/dist-packages\", 7, \"relative\"], "
		"\"lightning\": {\"version\": \"2.6.6\", \"source\": \"metadata\"}, "
		"\"pytorch_lightning\": {\"installed\": false}, "
		"\"torch\": {\"import_ms\": 1800, \"version\": \"2.11.0+cu130\", \"cuda\": \"13.0\", "
		"\"cudnn\": 91701, \"cuda_available\": true, \"device_count\": 2, "
		"\"nccl\": [2, 28, 9], \"mapped\": [\"/usr/local/lib/python3.12/dist-packages/nvidia/"
		"nccl/lib/libnccl.so.2\"], \"torch_cuda_lib\": \"/x/libtorch_cuda.so\"}}\n");

	(void)state;
	assert_string_equal(jpath_str(e, "version"), "3.12.3");
	assert_int_equal(json_array_size(json_object_get(e, "site_packages")), 1);
	assert_string_equal(jpath_str(e, "torch.version"), "2.11.0+cu130");
	assert_string_equal(jpath_str(e, "torch.cuda"), "13.0");
	assert_string_equal(jpath_str(e, "torch.cudnn"), "9.17.1");
	assert_string_equal(jpath_str(e, "torch.nccl_version"), "2.28.9");
	assert_int_equal(jpath_int(e, "torch.nccl_version_code", 0), 22809);
	assert_string_equal(jpath_str(e, "torch.nccl_mapped"),
			    "/usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/libnccl.so.2");
	assert_false(jpath_bool(e, "torch.nccl_static", 1));
	assert_true(jpath_bool(e, "torch.cuda_available", 0));
	assert_int_equal(jpath_int(e, "torch.device_count", -1), 2);
	assert_string_equal(jpath_str(e, "lightning.version"), "2.6.6");
	assert_false(jpath_bool(e, "pytorch_lightning.installed", 1));
	json_decref(e);
}

/* torch < 1.10 returned the packed int; a static build maps no libnccl. */
static void old_int_and_static(void **state)
{
	json_t *e = parse_ok(
		PYPROBE_MARKER "{\"python\": {\"version\": \"3.8.10\"}, \"site_packages\": [], "
		"\"lightning\": {\"installed\": false}, \"pytorch_lightning\": {\"version\": \"1.5.10\"}, "
		"\"torch\": {\"version\": \"1.9.1+cu111\", \"cuda\": \"11.1\", \"cudnn\": 8005, "
		"\"nccl\": 2708, \"mapped\": [], \"torch_cuda_lib\": \"/site/torch/lib/libtorch_cuda.so\"}}");

	(void)state;
	assert_string_equal(jpath_str(e, "torch.nccl_version"), "2.7.8");
	assert_string_equal(jpath_str(e, "torch.cudnn"), "8.0.5");
	assert_true(jpath_bool(e, "torch.nccl_static", 0));
	assert_string_equal(jpath_str(e, "torch.nccl_mapped"), "/site/torch/lib/libtorch_cuda.so");
	assert_string_equal(jpath_str(e, "pytorch_lightning.version"), "1.5.10");
	json_decref(e);
}

/* Debian's python3-torch: a CPU build without NCCL; nothing is unknown, it is just absent. */
static void cpu_build(void **state)
{
	json_t *e = parse_ok(
		PYPROBE_MARKER "{\"python\": {\"version\": \"3.11.2\"}, \"site_packages\": [], "
		"\"lightning\": {\"installed\": false}, \"pytorch_lightning\": {\"installed\": false}, "
		"\"torch\": {\"version\": \"1.13.0a0\", \"cuda\": null, \"cudnn\": null, "
		"\"cuda_available\": false, \"device_count\": 0, \"nccl_error\": \"AttributeError: "
		"module 'torch._C' has no attribute '_nccl_version'\", \"mapped\": [], "
		"\"torch_cuda_lib\": null}}");

	(void)state;
	assert_true(json_is_null(jpath(e, "torch.cuda")));
	assert_null(jpath(e, "torch.nccl_version"));
	assert_null(jpath(e, "torch.nccl_mapped"));
	assert_non_null(jpath_str(e, "torch.nccl_error"));
	json_decref(e);
}

static void import_failures(void **state)
{
	json_t *e = parse_ok(
		PYPROBE_MARKER "{\"python\": {\"version\": \"3.10.12\"}, \"site_packages\": [], "
		"\"lightning\": {\"error\": \"ImportError: cannot import name 'x'\"}, "
		"\"pytorch_lightning\": {}, "
		"\"torch\": {\"error\": \"OSError: libcudnn.so.9: cannot open shared object file\"}}");

	(void)state;
	assert_non_null(strstr(junknown(jpath(e, "torch")), "import torch failed: OSError"));
	assert_non_null(strstr(junknown(jpath(e, "lightning")), "ImportError"));
	assert_non_null(junknown(jpath(e, "pytorch_lightning")));
	json_decref(e);

	/* the script itself died after the interpreter facts */
	e = parse_ok(PYPROBE_MARKER "{\"python\": {\"version\": \"3.9.0\"}, \"error\": "
		     "\"KeyboardInterrupt: \"}");
	assert_string_equal(jpath_str(e, "version"), "3.9.0");
	assert_non_null(strstr(junknown(jpath(e, "torch")), "KeyboardInterrupt"));
	json_decref(e);
}

/* Hostile or broken answers: wrong types never become facts. */
static void wrong_types(void **state)
{
	json_t *e = parse_ok(
		PYPROBE_MARKER "{\"python\": {\"version\": \"3.11.0\", \"executable\": 5}, "
		"\"site_packages\": \"notalist\", \"lightning\": [], \"pytorch_lightning\": null, "
		"\"torch\": {\"version\": \"2.5.1\", \"cuda\": 12, \"cudnn\": \"9\", "
		"\"cuda_available\": \"yes\", \"device_count\": -3, \"nccl\": [2, \"21\", 5], "
		"\"mapped\": [\"relative/libnccl.so.2\", 3]}}");

	(void)state;
	assert_null(jpath(e, "executable"));
	assert_int_equal(json_array_size(json_object_get(e, "site_packages")), 0);
	assert_non_null(junknown(jpath(e, "lightning")));
	assert_true(json_is_null(jpath(e, "torch.cuda")));
	assert_null(jpath(e, "torch.device_count"));
	assert_null(jpath(e, "torch.cuda_available"));
	assert_non_null(junknown(jpath(e, "torch.nccl_version")));
	assert_null(jpath(e, "torch.nccl_mapped"));
	json_decref(e);
}

static void garbage(void **state)
{
	static const char bin[] = "\x01\x02\xff garbage\n\tmore";

	(void)state;
	parse_fail("", 0, "printed nothing");
	parse_fail("   \n", 4, "printed nothing");
	parse_fail("pyenv: python3: command not found\n", 34,
		   "printed 'pyenv: python3: command not found'");
	parse_fail(bin, sizeof(bin) - 1, "printed '??? garbage  more'");
	/* the marker inside a line is not an answer */
	parse_fail("x" PYPROBE_MARKER "{}", strlen("x" PYPROBE_MARKER "{}"), "printed 'x@@");
	parse_fail(PYPROBE_MARKER "{\"python\": ", strlen(PYPROBE_MARKER "{\"python\": "),
		   "not a JSON object");
	parse_fail(PYPROBE_MARKER "[1,2]", strlen(PYPROBE_MARKER "[1,2]"), "not a JSON object");
	parse_fail(PYPROBE_MARKER "{}", strlen(PYPROBE_MARKER "{}"), "no Python version");
}

/* A killed child may leave a half line; an earlier complete answer still counts. */
static void last_marker_wins(void **state)
{
	json_t *e = parse_ok(PYPROBE_MARKER "{\"python\": {\"version\": \"3.1.0\"}}\n"
			     PYPROBE_MARKER "{\"python\": {\"version\": \"3.2.0\"}}\n");

	(void)state;
	assert_string_equal(jpath_str(e, "version"), "3.2.0");
	json_decref(e);
}

/* The embedded script under a real interpreter answers with a parseable line. */
static void real_interpreter(void **state)
{
	const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : NULL;
	char *argv[] = { (char *)py, "-c", (char *)python_probe_script, NULL };
	struct subproc_result r;
	json_t *e = json_object();
	struct err err = ERR_INIT;

	(void)state;
	if (!py)
		skip();
	subproc_result_init(&r);
	assert_int_equal(subproc_run(argv, NULL, 60000, 1 << 20, &r, NULL), 0);
	if (python_parse_output(r.out.buf, r.out.len, e, &err) < 0)
		fail_msg("%s; stderr: %s", err.msg, r.errout.buf);
	assert_non_null(jpath_str(e, "version"));
	assert_true(json_is_object(jpath(e, "torch")));
	subproc_result_release(&r);
	json_decref(e);
}

/*
 * The interpreters run with the job's environment from the context, not ncclcheck's own: a
 * PYTHONPATH that only the context has makes /usr/bin/python3 import a stand-in torch from it.
 */
static void child_gets_the_jobs_environment(void **state)
{
	char dir[] = "/tmp/ncclcheck-pyenv-XXXXXX", path[256];
	static const char *const pythons[] = { "/usr/bin/python3" };
	struct envmap *env;
	struct probe_ctx ctx;
	struct python_run *run;
	json_t *facts = json_object(), *p;
	size_t i;
	const char *found = NULL;
	FILE *f;

	(void)state;
	if (access("/usr/bin/python3", X_OK) != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/torch", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/torch/__init__.py", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("import os\n__version__ = os.environ['STANDIN_VERSION']\n", f);
	fclose(f);
	assert_null(getenv("STANDIN_VERSION"));
	env = envmap_new(NULL);
	envmap_set(env, "PYTHONPATH", dir);
	envmap_set(env, "STANDIN_VERSION", "9.8.7+job");
	probe_ctx_init(&ctx, env);
	ctx.pythons = pythons;
	ctx.npythons = 1;
	ctx.python_timeout_ms = 20000;
	run = probe_python_start(&ctx);
	probe_python_finish(run, &ctx, facts);
	json_array_foreach(json_object_get(facts, "python"), i, p)
		if (!strcmp(jpath_str(p, "path"), "/usr/bin/python3"))
			found = jpath_str(p, "torch.version");
	assert_non_null(found);
	assert_string_equal(found, "9.8.7+job");
	json_decref(facts);
	envmap_free(env);
	unlink(path);
	snprintf(path, sizeof(path), "%s/torch", dir);
	rmdir(path);
	rmdir(dir);
}

/* The static answer: torch found, not imported; the C side reads the rest from its files. */
static void static_answer(void **state)
{
	static const char head[] = PYPROBE_MARKER "{\"python\": {\"version\": \"3.11.2\"}, "
		"\"lightning\": {\"installed\": false}, \"pytorch_lightning\": {\"installed\": false}, ";
	char buf[512];
	json_t *e;

	(void)state;
	snprintf(buf, sizeof(buf), "%s\"torch\": {\"mode\": \"static\", \"dir\": \"/s/torch\"}}\n", head);
	e = parse_ok(buf);
	assert_string_equal(jpath_str(e, "torch.source"), "static");
	assert_string_equal(jpath_str(e, "torch.path"), "/s/torch");
	assert_true(jpath_bool(e, "torch.installed", 0));
	assert_null(jpath(e, "torch.version"));
	json_decref(e);
	/* a relative or mistyped dir is not a path: the C side falls back to importing */
	snprintf(buf, sizeof(buf), "%s\"torch\": {\"mode\": \"static\", \"dir\": 7}}\n", head);
	e = parse_ok(buf);
	assert_string_equal(jpath_str(e, "torch.source"), "static");
	assert_null(jpath(e, "torch.path"));
	json_decref(e);
	/* find_spec failed: unknown with the reason, not a static entry */
	snprintf(buf, sizeof(buf), "%s\"torch\": {\"mode\": \"static\", \"error\": \"E: x\"}}\n", head);
	e = parse_ok(buf);
	assert_non_null(strstr(jpath_str(e, "torch.unknown"), "E: x"));
	json_decref(e);
	/* the import path says so */
	snprintf(buf, sizeof(buf), "%s\"torch\": {\"mode\": \"import\", \"version\": \"2.1\"}}\n", head);
	e = parse_ok(buf);
	assert_string_equal(jpath_str(e, "torch.source"), "import");
	json_decref(e);
}

/*
 * The whole probe on a stand-in whose __init__.py refuses to be imported: the static path reads
 * version.py and never imports it; --deep (ctx.deep) imports it and says why it failed.
 */
static void static_never_imports(void **state)
{
	char dir[] = "/tmp/ncclcheck-pystatic-XXXXXX", path[256];
	static const char *const pythons[] = { "/usr/bin/python3" };
	struct envmap *env;
	struct probe_ctx ctx;
	json_t *facts, *p, *t;
	size_t i;
	FILE *f;

	(void)state;
	if (access("/usr/bin/python3", X_OK) != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/torch", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/torch/__init__.py", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("raise RuntimeError('imported')\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/torch/version.py", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("__version__ = '3.1.4+cpu'\ncuda = None\nhip = None\n", f);
	fclose(f);
	env = envmap_new(NULL);
	envmap_set(env, "PYTHONPATH", dir);
	/* 0: static; 1: --deep; 2: a version.py the files cannot settle, so it imports and fails */
	for (int deep = 0; deep < 3; deep++) {
		if (deep == 2) {
			f = fopen(path, "w");
			assert_non_null(f);
			fputs("__version__ = '3.1.4'\n", f);
			fclose(f);
		}
		probe_ctx_init(&ctx, env);
		ctx.pythons = pythons;
		ctx.npythons = 1;
		ctx.python_timeout_ms = 20000;
		ctx.deep = deep == 1;
		facts = json_object();
		probe_python_finish(probe_python_start(&ctx), &ctx, facts);
		t = NULL;
		json_array_foreach(json_object_get(facts, "python"), i, p)
			if (!strcmp(jpath_str(p, "path"), "/usr/bin/python3"))
				t = json_object_get(p, "torch");
		assert_non_null(t);
		if (!deep) {
			assert_string_equal(jpath_str(t, "source"), "static");
			assert_string_equal(jpath_str(t, "version"), "3.1.4+cpu");
			assert_true(json_is_null(json_object_get(t, "cuda")));
			assert_false(jpath_bool(t, "cuda_available", 1));
			assert_int_equal(jpath_int(t, "device_count", -1), 0);
			assert_non_null(strstr(jpath_str(t, "path"), dir));
		} else {
			assert_non_null(strstr(jpath_str(t, "unknown"), "RuntimeError: imported"));
			if (deep == 2)
				assert_non_null(strstr(jpath_str(t, "unknown"),
						       "version.py has no cuda line"));
		}
		json_decref(facts);
	}
	envmap_free(env);
	unlink(path);
	snprintf(path, sizeof(path), "%s/torch/__init__.py", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/torch", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_wheel),
		cmocka_unit_test(old_int_and_static),
		cmocka_unit_test(cpu_build),
		cmocka_unit_test(import_failures),
		cmocka_unit_test(wrong_types),
		cmocka_unit_test(garbage),
		cmocka_unit_test(last_marker_wins),
		cmocka_unit_test(real_interpreter),
		cmocka_unit_test(child_gets_the_jobs_environment),
		cmocka_unit_test(static_answer),
		cmocka_unit_test(static_never_imports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
