/*
 * The GPU probes' parsers (probe/gpu.h), the merge of the isolated child's answer into facts, and
 * probe_nvml() itself against the fake libnvidia-ml / libcuda built in tests/fakes.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"

#include "probe/gpu.h"
#include "probe/probe.h"
#include "util/envmap.h"
#include "util/json.h"

static void test_proc_version(void **state)
{
	char v[32];
	int open = -1;

	(void)state;
	assert_int_equal(nvidia_proc_version_parse(
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n"
		"GCC version:  gcc version 12.2.0\n", v, sizeof(v), &open), 0);
	assert_string_equal(v, "535.129.03");
	assert_int_equal(open, 0);
	assert_int_equal(nvidia_proc_version_parse(
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  "
		"(dvs-builder@U16-I1-N08-12-3)  Thu Sep 25 2025\n", v, sizeof(v), &open), 0);
	assert_string_equal(v, "580.95.05");
	assert_int_equal(open, 1);
	/* aarch64 and two-part versions */
	assert_int_equal(nvidia_proc_version_parse("NVRM version: NVIDIA UNIX aarch64 Kernel Module  570.26  x\n",
						   v, sizeof(v), &open), 0);
	assert_string_equal(v, "570.26");
	assert_int_equal(nvidia_proc_version_parse("", v, sizeof(v), &open), -1);
	assert_int_equal(nvidia_proc_version_parse("NVRM version: nothing here\n580.1.2", v, sizeof(v), &open), -1);
	assert_int_equal(nvidia_proc_version_parse("NVRM version: 1.2.", v, sizeof(v), &open), -1);
	assert_int_equal(nvidia_proc_version_parse("NVRM version: 535.129.03", v, 4, &open), -1);
}

static void test_soname_and_busid(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(soname_version("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.95.05", "libnvidia-ml.so.", 2, out, sizeof(out)), 0);
	assert_string_equal(out, "580.95.05");
	assert_int_equal(soname_version("/lib/libcuda.so.1", "libcuda.so.", 2, out, sizeof(out)), -1);
	assert_int_equal(soname_version("/lib/libcudnn.so.9", "libcudnn.so.", 1, out, sizeof(out)), 0);
	assert_string_equal(out, "9");
	assert_int_equal(soname_version("libcudnn.so.8.9.2", "libcudnn.so.", 3, out, sizeof(out)), 0);
	assert_string_equal(out, "8.9.2");
	assert_int_equal(soname_version("libcudnn.so.8.9.2", "libcudnn_ops.so.", 1, out, sizeof(out)), -1);
	assert_int_equal(soname_version("libcudnn.so.8.x", "libcudnn.so.", 1, out, sizeof(out)), -1);

	assert_int_equal(pci_busid_normalize("00000000:9A:00.0", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:9a:00.0");
	assert_int_equal(pci_busid_normalize("0001:18:1f.7", out, sizeof(out)), 0);
	assert_string_equal(out, "0001:18:1f.7");
	assert_int_equal(pci_busid_normalize("18:00.0", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:18:00.0");
	assert_int_equal(pci_busid_normalize("0000:100:00.0", out, sizeof(out)), -1);
	assert_int_equal(pci_busid_normalize("0000:18:00.8", out, sizeof(out)), -1);
	assert_int_equal(pci_busid_normalize("0000:18:00.0x", out, sizeof(out)), -1);
	assert_int_equal(pci_busid_normalize("garbage", out, sizeof(out)), -1);
	assert_int_equal(pci_busid_normalize("", out, sizeof(out)), -1);
	assert_int_equal(pci_busid_normalize("1:2:3:4.0", out, sizeof(out)), -1);
}

static int vjson(const char *text, char *v, size_t len)
{
	return cuda_version_json_parse(text, strlen(text), v, len);
}

static void test_cuda_versions(void **state)
{
	char rel[16], build[16], v[32];
	int code;

	(void)state;
	assert_int_equal(nvcc_version_parse(
		"nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\n"
		"Built on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\n"
		"Build cuda_13.0.r13.0/compiler.36424714_0\n", rel, sizeof(rel), build, sizeof(build)), 0);
	assert_string_equal(rel, "13.0");
	assert_string_equal(build, "13.0.88");
	assert_int_equal(nvcc_version_parse("Cuda compilation tools, release 10.2", rel, sizeof(rel), build, sizeof(build)), 0);
	assert_string_equal(rel, "10.2");
	assert_string_equal(build, "");
	assert_int_equal(nvcc_version_parse("command not found", rel, sizeof(rel), build, sizeof(build)), -1);
	assert_int_equal(nvcc_version_parse("release x.y", rel, sizeof(rel), build, sizeof(build)), -1);

	assert_int_equal(vjson("{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"12.4.1\"}}", v, sizeof(v)), 0);
	assert_string_equal(v, "12.4.1");
	assert_int_equal(vjson("{\"cuda\": {\"version\": \"11.8.20220929\"}}", v, sizeof(v)), 0);
	assert_string_equal(v, "11.8");
	assert_int_equal(vjson("{\"cuda\": {\"version\": 12}}", v, sizeof(v)), -1);
	assert_int_equal(vjson("not json", v, sizeof(v)), -1);
	assert_int_equal(vjson("[]", v, sizeof(v)), -1);

	assert_int_equal(cuda_version_txt_parse("CUDA Version 10.2.89\n", v, sizeof(v)), 0);
	assert_string_equal(v, "10.2.89");
	assert_int_equal(cuda_version_txt_parse("CUDA Version \n", v, sizeof(v)), -1);

	assert_int_equal(cuda_header_version_parse("#define CUDA_VERSIONX 1\n#define CUDA_VERSION 13000\n", &code), 0);
	assert_int_equal(code, 13000);
	assert_int_equal(cuda_header_version_parse("#define CUDA_VERSION\n", &code), -1);
	assert_int_equal(cuda_header_version_parse("#define CUDA_VERSION 99999999\n", &code), -1);
}

static void test_cudnn(void **state)
{
	int maj, min, pat;

	(void)state;
	assert_int_equal(cudnn_header_parse("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n"
					    "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n",
					    &maj, &min, &pat), 0);
	assert_int_equal(maj * 10000 + min * 100 + pat, 91900);
	/* cuDNN 7's cudnn.h aligns the values with spaces */
	assert_int_equal(cudnn_header_parse("#define CUDNN_MAJOR      7\n#define CUDNN_MINOR      6\n"
					    "#  define CUDNN_PATCHLEVEL 5\n", &maj, &min, &pat), -1);
	assert_int_equal(cudnn_header_parse("#define CUDNN_MAJOR      7\n#define CUDNN_MINOR      6\n"
					    "#define CUDNN_PATCHLEVEL 5\n", &maj, &min, &pat), 0);
	assert_int_equal(maj * 100 + min * 10 + pat, 765);
	assert_int_equal(cudnn_header_parse("#define CUDNN_MAJOR_X 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n",
					    &maj, &min, &pat), -1);

	assert_int_equal(cudnn_version_decode(91900, &maj, &min, &pat), 0);
	assert_true(maj == 9 && min == 19 && pat == 0);
	assert_int_equal(cudnn_version_decode(90300, &maj, &min, &pat), 0);
	assert_true(maj == 9 && min == 3 && pat == 0);
	assert_int_equal(cudnn_version_decode(8907, &maj, &min, &pat), 0);
	assert_true(maj == 8 && min == 9 && pat == 7);
	assert_int_equal(cudnn_version_decode(7605, &maj, &min, &pat), 0);
	assert_true(maj == 7 && min == 6 && pat == 5);
	assert_int_equal(cudnn_version_decode(80000, &maj, &min, &pat), -1);
	assert_int_equal(cudnn_version_decode(999, &maj, &min, &pat), -1);
	assert_int_equal(cudnn_version_decode(-5, &maj, &min, &pat), -1);
	assert_int_equal(cudnn_version_encode(9, 1, 0), 90100);
	assert_int_equal(cudnn_version_encode(8, 4, 1), 8401);
}

static void test_error_names(void **state)
{
	(void)state;
	assert_string_equal(nvml_error_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
	assert_string_equal(nvml_error_name(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
	assert_string_equal(nvml_error_name(12345), "NVML_ERROR_(unlisted)");
	assert_non_null(nvml_error_hint(18));
	assert_null(nvml_error_hint(0));
	assert_string_equal(cuda_error_name(34), "CUDA_ERROR_STUB_LIBRARY");
	assert_string_equal(cuda_error_name(-1), "CUDA_ERROR_(unlisted)");
	assert_non_null(strstr(cuda_error_hint(999), "nvidia_uvm"));
}

static json_t *merge(const char *answer, const char *kmod, const char *fate)
{
	json_t *facts = json_object(), *k = kmod ? json_lit(kmod) : NULL;

	nvml_answer_merge(facts, answer, strlen(answer), k, fate);
	json_decref(k);
	return facts;
}

static void test_merge_full(void **state)
{
	json_t *f = merge(
		"{\"part\":\"cuda\",\"library\":\"/lib/libcuda.so.1\",\"library_real\":\"/lib/libcuda.so.580.95.05\",\"version_code\":13000}\n"
		"{\"part\":\"nvml\",\"library_real\":\"/lib/libnvidia-ml.so.580.95.05\",\"init\":0,\"driver_version\":\"580.95.05\","
		"\"cuda_version\":13000,\"cuda_version_fn\":\"nvmlSystemGetCudaDriverVersion_v2\",\"count\":2,"
		"\"gpus\":[{\"index\":0,\"name\":\"NVIDIA H200\",\"bus_id\":\"00000000:18:00.0\",\"memory_total_mb\":143771,"
		"\"cc_major\":9,\"cc_minor\":0,\"numa_node\":0,\"nvlinks_up\":2,\"links\":[{\"link\":0,\"remote_bus_id\":\"00000000:9A:00.0\",\"remote_type\":0},"
		"{\"link\":1,\"remote_bus_id\":\"00000000:9A:00.0\"}]},"
		"{\"index\":1,\"name\":\"NVIDIA H200\",\"bus_id\":\"00000000:9A:00.0\",\"memory_total_mb\":143771,\"cc_major\":9,\"cc_minor\":0,"
		"\"nvlinks_up\":2,\"links\":[{\"link\":0,\"remote_bus_id\":\"00000000:18:00.0\"},{\"link\":1,\"remote_bus_id\":\"00000000:18:00.0\"}]}],"
		"\"pairs\":[{\"a\":0,\"b\":1,\"level\":40},{\"a\":0,\"b\":0,\"level\":10},{\"a\":0,\"b\":7,\"level\":10},{\"a\":1,\"b\":0,\"level\":77}]}\n"
		"{\"part\":\"cuda_init\",\"init_rc\":0,\"device_count\":2}\n",
		"{\"loaded\":true,\"version\":\"580.95.05\",\"source\":\"/proc/driver/nvidia/version\"}", NULL);

	(void)state;
	assert_true(jpath_bool(f, "driver.present", 0));
	assert_string_equal(jpath_str(f, "driver.version"), "580.95.05");
	assert_string_equal(jpath_str(f, "driver.source"), "nvml");
	assert_string_equal(jpath_str(f, "driver.cuda_max"), "13.0");
	assert_string_equal(jpath_str(f, "driver.nvml.library_version"), "580.95.05");
	assert_string_equal(jpath_str(f, "driver.cuda_driver.library_version"), "580.95.05");
	assert_string_equal(jpath_str(f, "driver.cuda_driver.init"), "CUDA_SUCCESS");
	assert_int_equal(jpath_int(f, "driver.cuda_driver.device_count", -1), 2);
	assert_int_equal(json_array_size(json_object_get(f, "gpus")), 2);
	assert_string_equal(jpath_str(f, "gpus.1.bus_id"), "0000:9a:00.0");
	assert_string_equal(jpath_str(f, "gpus.0.compute_capability"), "9.0");
	assert_false(json_object_get(json_array_get(json_object_get(f, "gpus"), 1), "numa_node"));
	/* a remote without a type is a GPU when its bus id is one of ours */
	assert_int_equal(json_integer_value(json_object_get(jpath(f, "gpus.0.nvlink_peers"), "0000:9a:00.0")), 2);
	assert_int_equal(jpath_int(f, "gpus.0.nvlink_switch_links", -1), 0);
	/* only the valid pair survives: same index, out of range and unknown levels are dropped */
	assert_int_equal(json_array_size(jpath(f, "topology.gpu_gpu")), 1);
	assert_string_equal(jpath_str(f, "topology.gpu_gpu.0.level"), "NV2");
	assert_string_equal(jpath_str(f, "topology.gpu_gpu.0.pci_level"), "NODE");
	json_decref(f);
}

static void test_merge_failures(void **state)
{
	json_t *f;

	(void)state;
	/* nothing at all from the child, which hung: unknown, not absent */
	f = merge("", NULL, "hung and was stopped after 20000 ms");
	assert_non_null(junknown(jpath(f, "driver.present")));
	assert_non_null(junknown(json_object_get(f, "gpus")));
	json_decref(f);

	/* hung, but the kernel module is there: present, version from /proc */
	f = merge("{\"part\":\"cuda\",\"load_error\":\"libcuda.so.1: cannot open\"}\n", "{\"loaded\":true,\"version\":\"535.129.03\",\"source\":\"/p\"}",
		  "hung");
	assert_true(jpath_bool(f, "driver.present", 0));
	assert_string_equal(jpath_str(f, "driver.version"), "535.129.03");
	assert_string_equal(jpath_str(f, "driver.source"), "/p");
	assert_string_equal(jpath_str(f, "driver.cuda_driver.status"), "not_found");
	json_decref(f);

	/* driver not loaded: absent, with the reason */
	f = merge("{\"part\":\"nvml\",\"init\":9,\"init_error\":\"Driver Not Loaded\"}\n", "{\"loaded\":false}", NULL);
	assert_false(jpath_bool(f, "driver.present", 1));
	assert_non_null(strstr(jpath_str(f, "driver.reason"), "no NVIDIA driver"));
	assert_int_equal(json_array_size(json_object_get(f, "gpus")), 0);
	assert_true(json_is_array(json_object_get(f, "gpus")));
	json_decref(f);

	/* garbage, wrong types and a truncated last line must not crash or leak into facts */
	f = merge("\x01\x02 not json\n{\"part\":7}\n{\"part\":\"nvml\",\"init\":\"0\"}\n{\"part\":\"nvml\",\"init\":0,\"gpus\":[1,\"x\",{\"name\":[]}],"
		  "\"pairs\":{}}\n{\"part\":\"cuda\",\"version_code\":\"13000\"}\n{\"part\":\"nvm", NULL, "crashed (signal 11)");
	assert_true(json_is_object(json_object_get(f, "driver")));
	assert_string_equal(jpath_str(f, "driver.cuda_driver.status"), "failed");
	json_decref(f);

	/* an unknown NVML status code still reads as a failure, with a name */
	f = merge("{\"part\":\"nvml\",\"init\":4242}\n", NULL, NULL);
	assert_string_equal(jpath_str(f, "driver.nvml.error_name"), "NVML_ERROR_(unlisted)");
	assert_true(jpath_bool(f, "driver.present", 0));
	assert_non_null(junknown(jpath(f, "driver.version")));
	json_decref(f);
}

/* The real probe: fork, dlopen the fake library, parse the answer. */
static void test_probe_with_fakes(void **state)
{
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts;

	(void)state;
	probe_ctx_init(&o, env);
	o.root_proc = FIXTURES_DIR "/gpu/proc/proprietary535";
	o.nvml_lib = FAKES_DIR "/libnvidia-ml.so.1";
	o.cuda_lib = FAKES_DIR "/libcuda.so.1";
	/* the fake library's own input, read in the probe's child */
	setenv("FAKE_NVML_SCENARIO", "h200x2", 1);
	facts = json_object();
	probe_nvml(&o, facts);
	assert_string_equal(jpath_str(facts, "driver.version"), "580.95.05");
	assert_string_equal(jpath_str(facts, "driver.kernel_module.version"), "535.129.03");
	assert_string_equal(jpath_str(facts, "gpus.0.name"), "NVIDIA H200");
	assert_string_equal(jpath_str(facts, "topology.gpu_gpu.0.level"), "NV18");
	json_decref(facts);

	setenv("FAKE_NVML_SCENARIO", "hang", 1);
	o.gpu_timeout_ms = 300;
	facts = json_object();
	probe_nvml(&o, facts);
	assert_non_null(strstr(jpath_str(facts, "driver.probe_error"), "hung"));
	/* the module's file still says there is a driver */
	assert_true(jpath_bool(facts, "driver.present", 0));
	json_decref(facts);
	unsetenv("FAKE_NVML_SCENARIO");
	envmap_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_version),
		cmocka_unit_test(test_soname_and_busid),
		cmocka_unit_test(test_cuda_versions),
		cmocka_unit_test(test_cudnn),
		cmocka_unit_test(test_error_names),
		cmocka_unit_test(test_merge_full),
		cmocka_unit_test(test_merge_failures),
		cmocka_unit_test(test_probe_with_fakes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
