/*
 * rules/resources: /dev/shm (Docker's 64 MB, read-only, missing, full) with the fix for the
 * container kind, and RLIMIT_MEMLOCK against the RDMA devices in facts.
 */
#include <string.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "rules/rules.h"
#include "util/json.h"

static struct findings *run_lit(const char *text, json_t **keep)
{
	struct findings *fs = findings_new();
	json_t *facts = json_lit(text);

	run_rule(rule_resources, facts, fs);
	if (keep)
		*keep = facts;
	else
		json_decref(facts);
	return fs;
}



#define SHM(size, avail, writable) \
	"\"shm\": {\"path\": \"/dev/shm\", \"exists\": true, \"size_bytes\": " #size \
	", \"avail_bytes\": " #avail ", \"writable\": " #writable "}"

/* Docker's default 64 MB /dev/shm on a 2-GPU container. */
static void docker_default(void **state)
{
	struct findings *fs = run_lit("{\"host\": {\"container\": {\"kind\": \"docker\"}}, "
				      "\"gpus\": [{}, {}], " SHM(67108864, 67108864, true) "}", NULL);
	const struct finding *f = expect_finding(fs, "shm.small", SEV_WARN);

	(void)state;
	assert_non_null(strstr(f->title, "/dev/shm is only 64 MiB"));
	assert_true(finding_fix_contains(f, "docker run --shm-size="));
	assert_true(finding_fix_contains(f, "--ipc=host"));
	findings_free(fs);
}

static void kubernetes_fix(void **state)
{
	struct findings *fs = run_lit("{\"host\": {\"container\": {\"kind\": \"kubernetes\"}}, "
				      SHM(67108864, 67108864, true) "}", NULL);
	const struct finding *f = expect_finding(fs, "shm.small", SEV_WARN);

	(void)state;
	assert_true(finding_fix_contains(f, "emptyDir: {medium: Memory"));
	assert_true(finding_fix_contains(f, "mountPath: /dev/shm"));
	findings_free(fs);
}

/* With one GPU NCCL has no local peer to use SHM with: only a note. */
static void one_gpu(void **state)
{
	struct findings *fs = run_lit("{\"gpus\": [{}], " SHM(67108864, 67108864, true) "}", NULL);

	(void)state;
	expect_finding(fs, "shm.small", SEV_INFO);
	findings_free(fs);
}

static void not_writable_and_missing(void **state)
{
	struct findings *fs = run_lit(
		"{\"host\": {\"container\": {\"kind\": \"docker\"}}, \"shm\": {\"path\": \"/dev/shm\", "
		"\"exists\": true, \"size_bytes\": 8589934592, \"read_only\": true, \"writable\": false, "
		"\"error\": \"cannot create and write a file in '/dev/shm': Read-only file system\"}}",
		NULL);
	const struct finding *f = expect_finding(fs, "shm.not_writable", SEV_ERROR);

	(void)state;
	assert_true(finding_fix_contains(f, "docker run --shm-size="));
	assert_non_null(strstr(f->evidence[0], "Read-only file system"));
	findings_free(fs);

	fs = run_lit("{\"shm\": {\"path\": \"/dev/shm\", \"exists\": false, \"writable\": false, "
		     "\"error\": \"No such file or directory\"}}", NULL);
	f = expect_finding(fs, "shm.missing", SEV_ERROR);
	assert_true(finding_fix_contains(f, "mount -o remount,size="));
	findings_free(fs);

	/* writable by nobody but a tmpfs: the permissions, not the mount */
	fs = run_lit("{\"shm\": {\"path\": \"/dev/shm\", \"exists\": true, \"size_bytes\": 8589934592, "
		     "\"read_only\": false, \"writable\": false, \"error\": \"Permission denied\"}}", NULL);
	f = expect_finding(fs, "shm.not_writable", SEV_ERROR);
	assert_true(finding_fix_contains(f, "chmod 1777 /dev/shm"));
	findings_free(fs);
}

static void full_and_fine(void **state)
{
	struct findings *fs = run_lit("{" SHM(17179869184, 10485760, true) "}", NULL);

	(void)state;
	expect_finding(fs, "shm.full", SEV_WARN);
	findings_free(fs);
	fs = run_lit("{" SHM(17179869184, 17179869184, true) "}", NULL);
	expect_finding(fs, "shm", SEV_OK);
	findings_free(fs);
	/* no shm facts (an older document): nothing to say */
	fs = run_lit("{\"shm\": {\"unknown\": \"not probed\"}}", NULL);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

#define RDMA "\"rdma\": {\"devices\": [{\"name\": \"mlx5_0\"}, {\"name\": \"mlx5_1\"}]}"

static void memlock_with_rdma(void **state)
{
	struct findings *fs = run_lit("{\"host\": {\"container\": {\"kind\": \"docker\"}}, " RDMA ", "
				      "\"limits\": {\"memlock\": {\"soft\": 65536, \"hard\": 65536}}}",
				      NULL);
	const struct finding *f = expect_finding(fs, "memlock.limited", SEV_ERROR);

	(void)state;
	assert_non_null(strstr(f->title, "limited to 64 KiB while RDMA devices exist (mlx5_0, mlx5_1)"));
	assert_true(finding_fix_contains(f, "ulimit -l unlimited"));
	assert_true(finding_fix_contains(f, "docker run --ulimit memlock=-1"));
	assert_true(finding_fix_contains(f, "/etc/security/limits.conf"));
	findings_free(fs);

	/* a large but finite limit: still below what NCCL asks for */
	fs = run_lit("{" RDMA ", \"limits\": {\"memlock\": {\"soft\": 4294967296, \"hard\": -1}}}", NULL);
	expect_finding(fs, "memlock.limited", SEV_WARN);
	findings_free(fs);

	fs = run_lit("{" RDMA ", \"limits\": {\"memlock\": {\"soft\": -1, \"hard\": -1}}}", NULL);
	expect_finding(fs, "memlock", SEV_OK);
	findings_free(fs);

	fs = run_lit("{" RDMA ", \"env\": {\"NCCL_IB_DISABLE\": \"1\"}, "
		     "\"limits\": {\"memlock\": {\"soft\": 65536, \"hard\": 65536}}}", NULL);
	expect_finding(fs, "memlock.limited", SEV_INFO);
	findings_free(fs);
}

/* Without RDMA devices the limit does not matter to NCCL. */
static void memlock_without_rdma(void **state)
{
	struct findings *fs = run_lit("{\"rdma\": {\"devices\": []}, "
				      "\"limits\": {\"memlock\": {\"soft\": 65536, \"hard\": 65536}}}",
				      NULL);

	(void)state;
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	fs = run_lit("{\"limits\": {\"memlock\": {\"soft\": 65536}}}", NULL);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

/* The GPU machine's shape: a large /dev/shm, unlimited memlock, no RDMA. */
static void gpu_machine(void **state)
{
	json_t *facts = load_fixture_json("facts/stack-h200x2-handmade.json");
	struct findings *fs = findings_new();

	(void)state;
	run_rule(rule_resources, facts, fs);
	expect_finding(fs, "shm", SEV_OK);
	assert_int_equal(findings_count(fs, SEV_ERROR) + findings_count(fs, SEV_WARN), 0);
	findings_free(fs);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(docker_default),
		cmocka_unit_test(kubernetes_fix),
		cmocka_unit_test(one_gpu),
		cmocka_unit_test(not_writable_and_missing),
		cmocka_unit_test(full_and_fine),
		cmocka_unit_test(memlock_with_rdma),
		cmocka_unit_test(memlock_without_rdma),
		cmocka_unit_test(gpu_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
