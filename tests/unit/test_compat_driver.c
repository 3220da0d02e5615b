/*
 * Driver and cuDNN verdicts (rules/compat_driver.c) and the tables behind them
 * (rules/compat_tables.c), on facts fixtures from tests/fixtures/facts/ and small inline documents.
 */
#include <string.h>

#include "cmocka_helpers.h"

#include "finding.h"
#include "model/compat_tables.h"
#include "rules/rules.h"
#include "util/json.h"
#include "util/version.h"

static struct findings *run(json_t *facts)
{
	struct findings *fs = findings_new();

	run_rule(rule_compat_driver, facts, fs);
	run_rule(rule_compat_cudnn, facts, fs);
	json_decref(facts);
	return fs;
}

/* The finding with `id` whose title contains `needle` (NULL: any); fails when there is none. */
static const struct finding *need(const struct findings *fs, const char *id, const char *needle)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i]->id, id) && (!needle || strstr(fs->v[i]->title, needle)))
			return fs->v[i];
	fail_msg("no finding %s with '%s'", id, needle ? needle : "");
	return NULL;
}


/* A present-driver document with the given driver version, CUDA max and torch CUDA build. */
static json_t *doc(const char *driver, const char *cuda_max, const char *torch, const char *torch_cuda)
{
	json_t *d = json_lit("{\"schema_version\":1,\"host\":{\"os\":{\"id\":\"ubuntu\"}},"
			     "\"driver\":{\"present\":true,\"source\":\"nvml\"},\"gpus\":[{\"index\":0}]}");
	json_t *drv = json_object_get(d, "driver");

	if (driver)
		jset_str(drv, "version", driver);
	if (cuda_max)
		jset_str(drv, "cuda_max", cuda_max);
	if (torch) {
		json_t *py = json_lit("{\"path\":\"/venv/bin/python\",\"torch\":{\"installed\":true}}");
		jset_str(json_object_get(py, "torch"), "version", torch);
		jset_str(json_object_get(py, "torch"), "cuda", torch_cuda);
		json_object_set_new(d, "python", json_array());
		json_array_append_new(json_object_get(d, "python"), py);
	}
	return d;
}

static void test_tables(void **state)
{
	const char *row;
	char buf[16];

	(void)state;
	assert_string_equal(compat_driver_full("12.4", &row), "550.54.14");
	assert_string_equal(row, "12.4.0");
	assert_string_equal(compat_driver_full("12.4.1", NULL), "550.54.15");
	assert_string_equal(compat_driver_full("12.4.7", NULL), "550.54.15");
	assert_string_equal(compat_driver_full("13.0", NULL), "580.65.06");
	assert_string_equal(compat_driver_full("13.0.2", NULL), "580.95.05");
	assert_string_equal(compat_driver_full("10.2.89", NULL), "440.33");
	assert_string_equal(compat_driver_full("10.2", NULL), "440.33");
	assert_string_equal(compat_driver_full("11.0", NULL), "450.36.06");
	assert_null(compat_driver_full("12.7", NULL));
	assert_null(compat_driver_full("13", NULL));
	assert_null(compat_driver_full("garbage", NULL));
	assert_string_equal(compat_driver_floor("12.8"), "525.60.13");
	assert_string_equal(compat_driver_floor("13.2.1"), "580.65.06");
	assert_string_equal(compat_driver_floor("11.1"), "450.80.02");
	assert_null(compat_driver_floor("10.2"));
	assert_int_equal(compat_cuda_for_driver("580.95.05", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "13.0");
	assert_int_equal(compat_cuda_for_driver("470.82.01", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "11.4");
	assert_int_equal(compat_cuda_for_driver("535.104.05", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "12.2");
	assert_int_equal(compat_cuda_for_driver("418.67", buf, sizeof(buf)), -1);
	assert_string_equal(compat_torch_variants("2.11.0+cu130")->variants[2], "13.0");
	assert_string_equal(compat_torch_variants("1.12.1")->variants[0], "10.2");
	assert_null(compat_torch_variants("3.0.0"));
	/* the table stays sorted newest first: the lookups depend on it */
	for (size_t i = 1; i < compat_cuda_driver_count; i++)
		assert_true(strcmp(compat_cuda_driver_tab[i - 1].cuda, compat_cuda_driver_tab[i].cuda) != 0);
}

static void test_supports(void **state)
{
	const char *need_v;

	(void)state;
	assert_int_equal(compat_driver_supports("580.95.05", NULL, "13.0", &need_v), COMPAT_FULL);
	assert_int_equal(compat_driver_supports("535.104.05", NULL, "12.8", &need_v), COMPAT_MINOR);
	assert_string_equal(need_v, "570.26");
	assert_int_equal(compat_driver_supports("470.82.01", NULL, "12.8", NULL), COMPAT_NONE);
	assert_int_equal(compat_driver_supports("418.67", NULL, "10.2", NULL), COMPAT_NONE);
	assert_int_equal(compat_driver_supports("580.95.05", NULL, "13.5", NULL), COMPAT_UNVERIFIED);
	assert_int_equal(compat_driver_supports("470.82.01", NULL, "13.5", NULL), COMPAT_NONE);
	assert_int_equal(compat_driver_supports("470.82.01", NULL, "9.0", NULL), COMPAT_UNVERIFIED);
	assert_int_equal(compat_driver_supports(NULL, "12.2", "12.1", NULL), COMPAT_FULL);
	assert_int_equal(compat_driver_supports(NULL, "12.2", "12.8", NULL), COMPAT_MINOR);
	assert_int_equal(compat_driver_supports(NULL, "12.2", "13.0", NULL), COMPAT_NONE);
	assert_int_equal(compat_driver_supports(NULL, NULL, "13.0", NULL), COMPAT_UNVERIFIED);
	assert_int_equal(compat_driver_supports("580.95.05", NULL, "cpu", NULL), COMPAT_UNVERIFIED);
}

static void test_cudnn_table(void **state)
{
	const char *note;

	(void)state;
	assert_int_equal(compat_cudnn_cuda("9.19.0", "13.0", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("9.10.2", "13.0", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("9.11.0", "13.0", &note), COMPAT_UNVERIFIED);
	assert_int_equal(compat_cudnn_cuda("9.17.1", "13.2", &note), COMPAT_UNVERIFIED);
	assert_int_equal(compat_cudnn_cuda("9.1.0", "12.4", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("9.1.0", "11.8", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("9.17.1", "11.8", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("9.5.0", "11.4", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("9.4.0", "11.4", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("9.1.0", "10.2", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("8.9.7", "12.2", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("8.9.7", "12.4", &note), COMPAT_UNVERIFIED);
	assert_int_equal(compat_cudnn_cuda("8.7.0", "12.1", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("8.9.7", "13.0", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("8.6.0", "11.8", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("8.2.2", "10.2", &note), COMPAT_FULL);
	assert_int_equal(compat_cudnn_cuda("8.0.5", "9.2", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("7.6.5", "12.0", &note), COMPAT_NONE);
	assert_int_equal(compat_cudnn_cuda("7.6.5", "10.2", &note), COMPAT_UNVERIFIED);
	assert_int_equal(compat_cudnn_cuda("10.0.0", "13.0", &note), COMPAT_UNVERIFIED);
	assert_int_equal(compat_cudnn_cuda("x", "13.0", &note), COMPAT_UNVERIFIED);
}

/* The GPU machine's shape: 2x H200, driver 580, CUDA 13, torch 2.11 cu130 and cu128. */
static void test_h200(void **state)
{
	struct findings *fs = run(load_fixture_json("facts/gpu-h200x2-handmade.json"));
	const struct finding *f;

	(void)state;
	assert_int_equal(findings_count(fs, SEV_ERROR), 0);
	assert_int_equal(findings_count(fs, SEV_WARN), 0);
	f = need(fs, "compat.driver.torch", "torch 2.11.0+cu130");
	assert_int_equal(f->sev, SEV_OK);
	assert_int_equal(need(fs, "compat.driver.torch", "cu128")->sev, SEV_OK);
	assert_int_equal(need(fs, "compat.driver.toolkit", "13.0.1")->sev, SEV_OK);
	/* the pip cuDNN is judged against the CUDA of the torch next to it */
	assert_int_equal(need(fs, "compat.cudnn.cuda", "9.17.1 supports CUDA 13.0")->sev, SEV_OK);
	findings_free(fs);

	/* and the whole rule table: nothing of ours is an error on that machine */
	fs = findings_new();
	{
		json_t *facts = load_fixture_json("facts/gpu-h200x2-handmade.json");
		struct node_model *m = model_of(facts);
		rules_run_node(m, fs);
		node_model_free(m);
		json_decref(facts);
	}
	for (size_t i = 0; i < fs->n; i++)
		if (!strncmp(fs->v[i]->id, "gpu.", 4) || !strncmp(fs->v[i]->id, "compat.driver", 13) ||
		    !strncmp(fs->v[i]->id, "compat.cudnn", 12))
			assert_int_not_equal(fs->v[i]->sev, SEV_ERROR);
	findings_free(fs);
}

/*
 * The facts recorded on the GPU machine by tests/gpu/record_facts.sh, once committed as
 * tests/fixtures/facts/gpu-h200x2.json: the same verdicts as the hand-made fixture.
 */
static void test_recorded_h200(void **state)
{
	char path[4096];
	struct findings *fs;
	json_t *doc, *facts;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/facts/gpu-h200x2.json", FIXTURES_DIR);
	f = fopen(path, "r");
	if (!f) {
		skip();
		return;
	}
	fclose(f);
	doc = load_fixture_json("facts/gpu-h200x2.json");
	facts = json_object_get(doc, "facts") ? json_object_get(doc, "facts") : doc;
	assert_true(jpath_bool(facts, "driver.present", 0));
	assert_int_equal(json_array_size(json_object_get(facts, "gpus")), 2);
	fs = run(json_incref(facts));
	json_decref(doc);
	for (size_t i = 0; i < fs->n; i++) {
		assert_int_not_equal(fs->v[i]->sev, SEV_ERROR);
		if (!strcmp(fs->v[i]->id, "compat.driver.torch"))
			assert_int_equal(fs->v[i]->sev, SEV_OK);
	}
	assert_int_equal(count_id(fs, "gpu.driver.absent") + count_id(fs, "gpu.nvml.failed"), 0);
	findings_free(fs);
}

/* CI: no driver, a CPU torch, inside docker. */
static void test_absent_ci(void **state)
{
	struct findings *fs = run(load_fixture_json("facts/gpu-none-ci.json"));
	const struct finding *f = need(fs, "gpu.driver.absent", NULL);

	(void)state;
	assert_int_equal(f->sev, SEV_INFO);
	assert_true(finding_fix_contains(f, "docker run --gpus all"));
	assert_int_equal(findings_count(fs, SEV_ERROR), 0);
	/* no verdicts against a driver that is not there */
	assert_int_equal(count_id(fs, "compat.driver.toolkit") + count_id(fs, "compat.driver.torch"), 0);
	assert_int_equal(need(fs, "compat.cudnn.cuda", "9.19.0")->sev, SEV_OK);
	assert_int_equal(count_id(fs, "compat.cudnn.cuda"), 1); /* header and library: one verdict */
	findings_free(fs);
}

static void test_absent_cuda_torch(void **state)
{
	json_t *d = doc(NULL, NULL, "2.11.0+cu130", "13.0");
	struct findings *fs;
	const struct finding *f;

	(void)state;
	json_object_set_new(d, "driver", json_lit("{\"present\":false,\"reason\":\"no NVIDIA driver: x\","
						  "\"nvml\":{\"status\":\"init_failed\",\"error\":\"Driver Not Loaded\"}}"));
	fs = run(json_incref(d));
	f = need(fs, "gpu.driver.absent", "built for CUDA 13.0");
	assert_int_equal(f->sev, SEV_WARN);
	assert_true(finding_fix_contains(f, "sudo apt-get install -y nvidia-driver-580-server"));
	assert_true(finding_fix_contains(f, ">= 580.65.06"));
	findings_free(fs);

	json_object_set_new(d, "host", json_lit("{\"container\":{\"kind\":\"docker\"}}"));
	fs = run(json_incref(d));
	assert_true(finding_fix_contains(need(fs, "gpu.driver.absent", NULL), "--gpus all"));
	findings_free(fs);

	json_object_set_new(d, "host", json_lit("{\"container\":{\"kind\":\"kubernetes\"}}"));
	fs = run(json_incref(d));
	assert_true(finding_fix_contains(need(fs, "gpu.driver.absent", NULL), "nvidia.com/gpu"));
	findings_free(fs);
	json_decref(d);
}

static void test_unknown(void **state)
{
	json_t *d = doc(NULL, NULL, NULL, NULL);
	struct findings *fs;

	(void)state;
	json_object_set_new(json_object_get(d, "driver"), "present", json_lit("{\"unknown\":\"the NVML probe hung\"}"));
	fs = run(d);
	assert_int_equal(need(fs, "gpu.driver.unknown", "hung")->sev, SEV_WARN);
	assert_int_equal(fs->n, 1);
	findings_free(fs);
}

static void test_mismatch(void **state)
{
	json_t *d = doc(NULL, NULL, "2.11.0+cu130", "13.0");
	struct findings *fs;
	const struct finding *f;

	(void)state;
	json_object_set_new(json_object_get(d, "driver"), "nvml",
			    json_lit("{\"status\":\"init_failed\",\"error_code\":18,\"error\":\"Driver/library version mismatch\"}"));
	fs = run(json_incref(d));
	f = need(fs, "gpu.driver.mismatch", "mismatch");
	assert_int_equal(f->sev, SEV_ERROR);
	assert_true(finding_fix_contains(f, "sudo reboot"));
	/* no other driver verdicts on a driver that cannot answer */
	assert_int_equal(count_id(fs, "compat.driver.torch") + count_id(fs, "gpu.nvml.failed"), 0);
	findings_free(fs);

	json_object_set_new(json_object_get(d, "driver"), "kernel_module", json_lit("{\"loaded\":true,\"version\":\"575.57.08\"}"));
	json_object_set_new(json_object_get(d, "driver"), "nvml", json_lit("{\"status\":\"ok\",\"library_version\":\"580.95.05\"}"));
	fs = run(json_incref(d));
	assert_int_equal(need(fs, "gpu.driver.mismatch", "kernel module 575.57.08 but user-space driver libraries 580.95.05")->sev, SEV_ERROR);
	findings_free(fs);

	json_object_set_new(json_object_get(d, "driver"), "kernel_module", json_lit("{\"loaded\":true,\"version\":\"580.95.05\"}"));
	fs = run(json_incref(d));
	assert_int_equal(count_id(fs, "gpu.driver.mismatch"), 0);
	findings_free(fs);
	json_decref(d);
}

static void test_nvml_and_gpus(void **state)
{
	json_t *d = doc("580.95.05", "13.0", NULL, NULL);
	struct findings *fs;

	(void)state;
	json_object_set_new(json_object_get(d, "driver"), "nvml", json_lit("{\"status\":\"init_failed\",\"error_code\":4,\"error\":\"Insufficient Permissions\"}"));
	fs = run(json_incref(d));
	assert_true(finding_fix_contains(need(fs, "gpu.nvml.failed", "Insufficient Permissions"), "usermod -aG video"));
	findings_free(fs);

	json_object_set_new(json_object_get(d, "driver"), "nvml", json_lit("{\"status\":\"failed\",\"error\":\"the NVML probe crashed\"}"));
	fs = run(json_incref(d));
	assert_true(finding_fix_contains(need(fs, "gpu.nvml.failed", "crashed"), "nvidia-smi"));
	findings_free(fs);

	json_object_set_new(json_object_get(d, "driver"), "nvml", json_lit("{\"status\":\"ok\"}"));
	json_object_set_new(d, "gpus", json_array());
	fs = run(json_incref(d));
	assert_int_equal(need(fs, "gpu.none", "lists no GPU")->sev, SEV_WARN);
	findings_free(fs);
	json_decref(d);
}

static void test_cuinit(void **state)
{
	static const struct { const char *init, *fix; } cases[] = {
		{ "CUDA_ERROR_UNKNOWN", "modprobe nvidia_uvm" },
		{ "CUDA_ERROR_STUB_LIBRARY", "/stubs" },
		{ "CUDA_ERROR_NO_DEVICE", "CUDA_VISIBLE_DEVICES" },
		{ "CUDA_ERROR_SYSTEM_NOT_READY", "nvidia-fabricmanager" },
		{ "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "dmesg" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *d = doc("580.95.05", "13.0", NULL, NULL);
		struct findings *fs;
		const struct finding *f;

		json_object_set_new(json_object_get(d, "driver"), "cuda_driver", json_object());
		jset_str(jpath(d, "driver.cuda_driver"), "init", cases[i].init);
		fs = run(d);
		f = need(fs, "gpu.cuda.init", cases[i].init);
		assert_int_equal(f->sev, SEV_ERROR);
		assert_true(finding_fix_contains(f, cases[i].fix));
		findings_free(fs);
	}
}

static void test_cuda_sources(void **state)
{
	json_t *d = doc("580.95.05", "13.0", NULL, NULL);
	json_t *drv = json_object_get(d, "driver");
	struct findings *fs;

	(void)state;
	json_object_set_new(drv, "nvml", json_lit("{\"status\":\"ok\",\"cuda_version_code\":12080,\"cuda_version\":\"12.8\"}"));
	json_object_set_new(drv, "cuda_driver", json_lit("{\"status\":\"ok\",\"version_code\":13000,\"version\":\"13.0\",\"library\":\"/usr/local/cuda/compat/libcuda.so.1\"}"));
	fs = run(json_incref(d));
	assert_int_equal(need(fs, "compat.driver.cuda_sources", "forward-compatibility")->sev, SEV_INFO);
	findings_free(fs);

	json_object_set_new(drv, "cuda_driver", json_lit("{\"status\":\"ok\",\"version_code\":12020,\"version\":\"12.2\"}"));
	fs = run(json_incref(d));
	assert_int_equal(need(fs, "compat.driver.cuda_sources", "stale")->sev, SEV_WARN);
	findings_free(fs);

	json_object_set_new(drv, "cuda_driver", json_lit("{\"status\":\"ok\",\"version_code\":12080,\"version\":\"12.8\"}"));
	fs = run(json_incref(d));
	assert_int_equal(count_id(fs, "compat.driver.cuda_sources"), 0);
	findings_free(fs);
	json_decref(d);
}

static void test_seed_minimum(void **state)
{
	struct findings *fs = run(doc("440.33", "10.2", NULL, NULL));
	const struct finding *f = need(fs, "compat.driver.minimum", "440.33 is older than 450.80.02");

	(void)state;
	assert_int_equal(f->sev, SEV_ERROR);
	assert_true(finding_fix_contains(f, "nvidia-driver-580-server"));
	assert_true(f->nevidence >= 1);
	findings_free(fs);
	fs = run(doc("450.80.02", NULL, NULL, NULL));
	assert_int_equal(count_id(fs, "compat.driver.minimum"), 0);
	findings_free(fs);
}

static void test_torch(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* minor-version compatibility: a newer torch wheel index the driver runs in full */
	fs = run(doc("535.104.05", "12.2", "2.11.0+cu128", "12.8"));
	f = need(fs, "compat.driver.torch", "minor-version");
	assert_int_equal(f->sev, SEV_WARN);
	assert_true(finding_fix_contains(f, "/venv/bin/python -m pip install --force-reinstall 'torch==2.7.*' --index-url https://download.pytorch.org/whl/cu118"));
	assert_true(finding_fix_contains(f, "nvidia-driver-580-server"));
	findings_free(fs);

	/* the same release has a wheel the driver runs */
	fs = run(doc("560.35.03", "12.6", "2.11.0+cu130", "13.0"));
	f = need(fs, "compat.driver.torch", "too old");
	assert_int_equal(f->sev, SEV_ERROR);
	assert_true(finding_fix_contains(f, "'torch==2.11.*' --index-url https://download.pytorch.org/whl/cu126   # the same torch release"));
	findings_free(fs);

	/* far too old: only an old torch fits, and the driver upgrade */
	fs = run(load_fixture_json("facts/gpu-v100-driver470.json"));
	f = need(fs, "compat.driver.torch", "470.82.01 is too old for torch 2.11.0+cu130 (CUDA 13.0 needs driver >= 580.65.06)");
	assert_true(finding_fix_contains(f, "'torch==1.12.*' --index-url https://download.pytorch.org/whl/cu113   # an older torch"));
	assert_true(finding_fix_contains(f, "nvidia-driver-580-server"));
	findings_free(fs);

	/* only the CUDA version is known (libcuda answered, NVML did not) */
	fs = run(doc(NULL, "12.2", "2.5.1+cu121", "12.1"));
	assert_int_equal(need(fs, "compat.driver.torch", "2.5.1")->sev, SEV_OK);
	findings_free(fs);
	fs = run(doc(NULL, "12.2", "2.11.0+cu128", "12.8"));
	assert_int_equal(need(fs, "compat.driver.torch", NULL)->sev, SEV_WARN);
	findings_free(fs);
	fs = run(doc(NULL, "12.2", "2.11.0+cu130", "13.0"));
	f = need(fs, "compat.driver.torch", NULL);
	assert_int_equal(f->sev, SEV_ERROR);
	assert_true(finding_fix_contains(f, "'torch==2.7.*' --index-url https://download.pytorch.org/whl/cu118"));
	findings_free(fs);
	/* nothing known about the driver's version */
	fs = run(doc(NULL, NULL, "2.11.0+cu130", "13.0"));
	assert_int_equal(need(fs, "compat.driver.torch", "cannot tell")->sev, SEV_INFO);
	findings_free(fs);
	/* a CPU build of torch is not judged against the driver */
	fs = run(doc("580.95.05", "13.0", "2.11.0+cpu", NULL));
	assert_int_equal(count_id(fs, "compat.driver.torch"), 0);
	findings_free(fs);
}

static void test_toolkits(void **state)
{
	struct findings *fs = run(load_fixture_json("facts/gpu-v100-driver470.json"));
	const struct finding *f;

	(void)state;
	f = need(fs, "compat.driver.toolkit", "CUDA 12.4.1 at /usr/local/cuda-12.4 (needs >= 525.60.13)");
	assert_int_equal(f->sev, SEV_ERROR); /* the default toolkit */
	assert_true(finding_fix_contains(f, "sudo apt-get install -y cuda-toolkit-11-4"));
	assert_int_equal(need(fs, "compat.driver.toolkit", "CUDA 11.8 at /usr/local/cuda-11.8")->sev, SEV_WARN);
	assert_int_equal(need(fs, "compat.driver.toolkit", "CUDA 11.4.4")->sev, SEV_OK);
	findings_free(fs);

	/* a toolkit that is not the default is a warning, not an error */
	{
		json_t *d = load_fixture_json("facts/gpu-v100-driver470.json");
		json_object_del(json_array_get(jpath(d, "cuda.toolkits"), 0), "default");
		fs = run(d);
		assert_int_equal(need(fs, "compat.driver.toolkit", "CUDA 12.4.1")->sev, SEV_WARN);
		findings_free(fs);
	}
}

static void test_cudnn_rule(void **state)
{
	struct findings *fs = run(load_fixture_json("facts/gpu-v100-driver470.json"));
	const struct finding *f;

	(void)state;
	/* header and library of one toolkit: one verdict */
	f = need(fs, "compat.cudnn.cuda", "8.9.7 with CUDA 12.4.1");
	assert_int_equal(f->sev, SEV_INFO);
	assert_int_equal(count_id(fs, "compat.cudnn.cuda"), 4);
	/* a system cuDNN pairs with the default toolkit */
	assert_int_equal(need(fs, "compat.cudnn.cuda", "9.1.0 supports CUDA 12.4.1")->sev, SEV_OK);
	f = need(fs, "compat.cudnn.cuda", "9.17.1 at /usr/local/cuda-11.4/include/cudnn_version.h does not support CUDA 11.4.4");
	assert_int_equal(f->sev, SEV_ERROR);
	assert_true(finding_fix_contains(f, "cudnn9-cuda-11"));
	/* the venv's cuDNN pairs with that venv's torch */
	assert_int_equal(need(fs, "compat.cudnn.cuda", "9.17.1 supports CUDA 13.0")->sev, SEV_OK);
	findings_free(fs);
}

static void test_cpus_restricted(void **state)
{
	struct findings *fs = findings_new();
	json_t *d = json_lit("{\"host\":{\"cpus\":192,\"numa_nodes\":2},\"gpus\":[{},{},{},{},{},{},{},{}],"
			     "\"topology\":{\"cpus\":{\"pus\":64,\"numa_nodes\":1}}}");
	const struct finding *f;

	(void)state;
	run_rule(rule_cpu_affinity, d, fs);
	f = need(fs, "host.cpus.restricted", "64 of the 192 online CPUs and not every NUMA node");
	assert_int_equal(f->sev, SEV_INFO);
	assert_true(finding_fix_contains(f, "export OMP_NUM_THREADS=8"));
	findings_free(fs);

	/* the affinity mask narrows further than the cgroup */
	fs = findings_new();
	json_object_set_new(json_object_get(jpath(d, "topology"), "cpus"), "bound_pus", json_integer(4));
	run_rule(rule_cpu_affinity, d, fs);
	assert_true(finding_fix_contains(need(fs, "host.cpus.restricted", "4 of the 192"), "OMP_NUM_THREADS=1 "));
	findings_free(fs);

	/* everything usable: nothing to say */
	fs = findings_new();
	json_object_set_new(jpath(d, "topology"), "cpus", json_lit("{\"pus\":192,\"numa_nodes\":2,\"bound_pus\":192}"));
	run_rule(rule_cpu_affinity, d, fs);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	json_decref(d);
}

static void test_junk(void **state)
{
	static const char *const docs[] = {
		"{}",
		"{\"driver\":\"yes\"}",
		"{\"driver\":{\"present\":\"true\"}}",
		"{\"driver\":{\"present\":true,\"version\":5,\"cuda_max\":[]},\"python\":{},\"cuda\":{\"toolkits\":{}}}",
		"{\"driver\":{\"present\":true,\"version\":\"580\"},\"python\":[1,{\"torch\":[]},{\"torch\":{\"version\":\"x\",\"cuda\":\"y\"}}],"
		"\"cuda\":{\"toolkits\":[null,{\"version\":\"13.0\"},{\"path\":\"/x\",\"version\":\"\"}]}}",
		"{\"driver\":{\"present\":true,\"nvml\":{\"status\":7,\"error_code\":\"18\"},\"cuda_driver\":{\"init\":1}},\"gpus\":{}}",
		"{\"cudnn\":[null,{},{\"version\":\"9.1\",\"found_by\":[1,null]},{\"version\":\"8.9.7\",\"toolkit\":\"/t\"}],"
		"\"cuda\":{\"toolkits\":[{\"path\":\"/t\",\"version\":\"13.0\"}]},\"python\":[{\"site_packages\":[\"\",7]}]}",
	};
	/* which the model refuses outright; the others decode what they can */
	static const int refused[] = { 0, 1, 1, 1, 1, 1, 1 };
	/* (doc 0, {}, is accepted: nothing known, nothing said) */

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct findings *fs = findings_new();
		json_t *d = json_lit(docs[i]);
		struct err e = ERR_INIT;
		struct node_model *m = node_model_new(d, &e);

		print_message("doc %zu: %s\n", i, m ? "accepted" : e.msg);
		/* the model refuses what it cannot decode, with the member named */
		assert_int_equal(m == NULL, refused[i]);
		assert_true(m || strstr(e.msg, "is not"));
		node_model_free(m);
		run_rule(rule_cpu_affinity, d, fs);
		for (size_t k = 0; k < fs->n; k++)
			print_message("doc %zu: %s\n", i, fs->v[k]->id);
		/* half-read facts are no grounds for a claim: neither rule says anything */
		assert_int_equal(fs->n, 0);
		findings_free(fs);
		fs = run(d);
		for (size_t k = 0; k < fs->n; k++)
			print_message("doc %zu: %s\n", i, fs->v[k]->id);
		assert_int_equal(fs->n, 0);
		findings_free(fs);
	}
	/* the least a rule needs still gives the real finding, once: the silence above is the
	 * refusal's, not a dead rule's */
	{
		json_t *d = doc("470.82.01", "11.4", NULL, NULL);
		struct findings *fs;

		json_object_set_new(d, "cuda", json_lit("{\"toolkits\":[{\"path\":"
							"\"/usr/local/cuda-12.4\",\"version\":\"12.4.1\"}]}"));
		fs = run(d);
		for (size_t k = 0; k < fs->n; k++)
			print_message("real: %s\n", fs->v[k]->id);
		assert_int_equal(count_id(fs, "compat.driver.toolkit"), 1);
		assert_int_equal(need(fs, "compat.driver.toolkit", "12.4.1")->sev, SEV_ERROR);
		findings_free(fs);
	}
}

/*
 * compat_driver_full() relies on the CUDA/driver table running newest first (the last row of a
 * major.minor is its GA release, the first not newer than the asked update is the answer): a row
 * moved out of order must fail here, not silently answer wrong for "11.4.4".
 */
static void test_driver_table_order(void **state)
{
	const char *row;

	(void)state;
	assert_true(compat_cuda_driver_count > 10);
	for (size_t i = 0; i + 1 < compat_cuda_driver_count; i++) {
		const struct compat_cuda_driver *a = &compat_cuda_driver_tab[i], *b = &compat_cuda_driver_tab[i + 1];

		if (version_cmp_str(a->cuda, b->cuda) <= 0)
			fail_msg("row %zu (CUDA %s) is not newer than row %zu (CUDA %s)", i, a->cuda, i + 1, b->cuda);
		if (version_cmp_str(a->driver, b->driver) < 0)
			fail_msg("CUDA %s needs driver %s, older than CUDA %s's %s", a->cuda, a->driver, b->cuda,
				 b->driver);
	}
	/* and what the order decides */
	assert_string_equal(compat_driver_full("11.4.4", &row), "470.82.01");
	assert_string_equal(row, "11.4.4");
	assert_string_equal(compat_driver_full("11.4", &row), "470.42.01");
	assert_string_equal(row, "11.4.0");
	assert_string_equal(compat_driver_full("11.4.2", &row), "470.57.02");
	assert_string_equal(row, "11.4.2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_driver_table_order),
		cmocka_unit_test(test_supports),
		cmocka_unit_test(test_cudnn_table),
		cmocka_unit_test(test_h200),
		cmocka_unit_test(test_recorded_h200),
		cmocka_unit_test(test_absent_ci),
		cmocka_unit_test(test_absent_cuda_torch),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_nvml_and_gpus),
		cmocka_unit_test(test_cuinit),
		cmocka_unit_test(test_cuda_sources),
		cmocka_unit_test(test_seed_minimum),
		cmocka_unit_test(test_torch),
		cmocka_unit_test(test_toolkits),
		cmocka_unit_test(test_cudnn_rule),
		cmocka_unit_test(test_cpus_restricted),
		cmocka_unit_test(test_junk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
