/*
 * rules/compat_toolkit: the toolkit torch.utils.cpp_extension would build with (CUDA_HOME, nvcc on
 * PATH, /usr/local/cuda, in that order) against torch's CUDA build: another major is a warning
 * with the CUDA_HOME or install fix, another minor a note, none a note that torch needs no
 * toolkit to run; a CPU torch or no torch says nothing.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "rules/rules.h"

#define TORCH(ver, cuda) "\"python\": [{\"path\": \"/venv/bin/python\", \"torch\": {\"version\": \"" ver "\", \"cuda\": " cuda "}}]"
#define TK(path, ver, how) "{\"path\": \"" path "\", \"version\": \"" ver "\", \"found_by\": \"" how "\"}"
#define NVCC(path, tk, ver) "\"nvcc\": {\"found\": true, \"path\": \"" path "\", \"version\": \"" ver "\", \"toolkit\": \"" tk "\"}"
#define NO_NVCC "\"nvcc\": {\"found\": false}"

static struct findings *run(const char *text)
{
	struct findings *fs = findings_new();
	json_t *facts = json_lit(text);

	run_rule(rule_compat_toolkit, facts, fs);
	json_decref(facts);
	return fs;
}

static void major_mismatch(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* nvcc 12.4 on PATH, torch cu130; a 13.0 toolkit also installed */
	fs = run("{" TORCH("2.11.0+cu130", "\"13.0\"") ", \"cuda\": {" NVCC("/usr/local/cuda/bin/nvcc", "/usr/local/cuda-12.4", "12.4")
		 ", \"toolkits\": [" TK("/usr/local/cuda-12.4", "12.4.1", "nvcc on PATH") "," TK("/usr/local/cuda-13.0", "13.0.2", "search") "]}}");
	f = expect_finding(fs, "compat.toolkit.torch", SEV_WARN);
	assert_string_equal(f->title, "CUDA toolkit 12.4.1 (nvcc on PATH: /usr/local/cuda/bin/nvcc) but torch 2.11.0+cu130 is built for CUDA 13.0: CUDA extensions will not build");
	assert_non_null(strstr(f->why, "mismatches the version that was used to compile PyTorch (13.0)"));
	assert_true(finding_has_fix(f, "export CUDA_HOME=/usr/local/cuda-13.0 PATH=/usr/local/cuda-13.0/bin:$PATH   # CUDA 13.0.2, already installed"));
	/* or the torch 2.11 wheel built for 12.x */
	assert_true(finding_fix_contains(f, "'torch==2.11.*' --index-url https://download.pytorch.org/whl/cu126"));
	assert_true(finding_evidence_contains(f, "other toolkits (not used for builds): 13.0.2 at /usr/local/cuda-13.0"));
	findings_free(fs);

	/* nothing matching installed: install it */
	fs = run("{" TORCH("2.11.0+cu130", "\"13.0\"") ", \"cuda\": {" NVCC("/usr/local/cuda/bin/nvcc", "/usr/local/cuda-12.4", "12.4")
		 ", \"toolkits\": [" TK("/usr/local/cuda-12.4", "12.4.1", "nvcc on PATH") "]}}");
	f = expect_finding(fs, "compat.toolkit.torch", SEV_WARN);
	assert_true(finding_fix_contains(f, "sudo apt-get install -y cuda-toolkit-13-0 && export CUDA_HOME=/usr/local/cuda-13.0"));
	findings_free(fs);
}

static void cuda_home_first(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* CUDA_HOME beats nvcc on PATH, as in cpp_extension; it names the alias /usr/local/cuda */
	fs = run("{\"env\": {\"CUDA_HOME\": \"/usr/local/cuda/\"}, " TORCH("2.11.0+cu130", "\"13.0\"") ", \"cuda\": {"
		 NVCC("/opt/old/bin/nvcc", "/opt/old", "11.8") ", \"toolkits\": [{\"path\": \"/usr/local/cuda-13.0\", "
		 "\"version\": \"13.0\", \"aliases\": [\"/usr/local/cuda\"]}, " TK("/opt/old", "11.8", "nvcc on PATH") "]}}");
	f = expect_finding(fs, "compat.toolkit.torch", SEV_OK);
	assert_string_equal(f->title, "CUDA toolkit 13.0 (CUDA_HOME=/usr/local/cuda/) matches torch 2.11.0+cu130's CUDA 13.0");
	findings_free(fs);

	/* CUDA_HOME pointing at nothing: every extension build fails */
	fs = run("{\"env\": {\"CUDA_HOME\": \"/opt/nowhere\"}, " TORCH("2.11.0+cu130", "\"13.0\"") ", \"cuda\": {" NO_NVCC
		 ", \"toolkits\": [" TK("/usr/local/cuda-13.0", "13.0", "search") "]}}");
	f = expect_finding(fs, "compat.toolkit.cuda_home", SEV_WARN);
	assert_string_equal(f->title, "CUDA_HOME=/opt/nowhere is not a CUDA toolkit: CUDA extensions for torch 2.11.0+cu130 cannot be built");
	assert_true(finding_fix_contains(f, "export CUDA_HOME=/usr/local/cuda-13.0"));
	findings_free(fs);
}

static void minor_and_none(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("{" TORCH("2.11.0+cu128", "\"12.8\"") ", \"cuda\": {" NO_NVCC ", \"toolkits\": [{\"path\": "
		 "\"/usr/local/cuda-12.4\", \"version\": \"12.4.1\", \"aliases\": [\"/usr/local/cuda\"]}]}}");
	f = expect_finding(fs, "compat.toolkit.torch", SEV_INFO);
	assert_non_null(strstr(f->title, "(/usr/local/cuda (no CUDA_HOME, no nvcc on PATH))"));
	assert_non_null(strstr(f->why, "An older toolkit than torch's"));
	assert_true(finding_fix_contains(f, "cuda-toolkit-12-8"));
	findings_free(fs);

	/* no toolkit at all: the seed's requirement holds only for building extensions */
	fs = run("{" TORCH("2.11.0+cu130", "\"13.0\"") ", \"cuda\": {" NO_NVCC ", \"toolkits\": []}}");
	f = expect_finding(fs, "compat.toolkit.none", SEV_INFO);
	assert_string_equal(f->title, "no CUDA toolkit for builds: torch 2.11.0+cu130 runs without one (its wheel brings CUDA 13.0's runtime)");
	assert_non_null(strstr(f->why, "only for compiling CUDA extensions"));
	assert_true(finding_fix_contains(f, "cuda-toolkit-13-0"));
	findings_free(fs);

	/* a toolkit exists but cpp_extension would not find it */
	fs = run("{" TORCH("2.11.0+cu130", "\"13.0\"") ", \"cuda\": {" NO_NVCC ", \"toolkits\": [" TK("/opt/cuda-13.0", "13.0.2", "search") "]}}");
	f = expect_finding(fs, "compat.toolkit.none", SEV_INFO);
	assert_true(finding_fix_contains(f, "export CUDA_HOME=/opt/cuda-13.0"));
	findings_free(fs);
}

static void silent(void **state)
{
	struct findings *fs;

	(void)state;
	/* CPU torch: no CUDA to match */
	fs = run("{" TORCH("1.13.0a0", "null") ", \"cuda\": {" NO_NVCC ", \"toolkits\": []}}");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	/* no torch */
	fs = run("{\"python\": [{\"path\": \"/usr/bin/python3\"}], \"cuda\": {" NO_NVCC ", \"toolkits\": []}}");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	/* no cuda facts (an older document) */
	fs = run("{" TORCH("2.11.0+cu130", "\"13.0\"") "}");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

/* The recorded GPU machine: CUDA_HOME=/usr/local/cuda -> 13.0, torch cu130. */
static void gpu_machine(void **state)
{
	json_t *facts = load_fixture_json("facts/gpu-h200x2.json");
	json_t *doc = json_object_get(facts, "facts") ? json_object_get(facts, "facts") : facts;
	struct findings *fs = findings_new();
	const struct finding *f;

	(void)state;
	run_rule(rule_compat_toolkit, doc, fs);
	f = expect_finding(fs, "compat.toolkit.torch", SEV_OK);
	assert_string_equal(f->title, "CUDA toolkit 13.0 (CUDA_HOME=/usr/local/cuda) matches torch 2.11.0+cu130's CUDA 13.0");
	findings_free(fs);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(major_mismatch),
		cmocka_unit_test(cuda_home_first),
		cmocka_unit_test(minor_and_none),
		cmocka_unit_test(silent),
		cmocka_unit_test(gpu_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
