/*
 * rules/launcher_env: renamed torch variables judged against the installed torch, and rank
 * variables left in an interactive shell with no launcher.
 */
#include <string.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "rules/rules.h"
#include "util/json.h"

static struct findings *run(const json_t *facts)
{
	struct findings *fs = findings_new();

	run_rule(rule_launcher_env, facts, fs);
	return fs;
}



/* Facts with one interpreter running `torch` (NULL: no torch) and the given env object. */
static json_t *facts_with(const char *torch, const char *env_json, const char *interactive)
{
	char buf[2048], t[128];

	if (torch)
		snprintf(t, sizeof(t), "{\"installed\": true, \"version\": \"%s\"}", torch);
	else
		snprintf(t, sizeof(t), "{\"installed\": false}");
	snprintf(buf, sizeof(buf),
		 "{\"host\": {\"interactive\": %s, \"container\": {\"kind\": \"none\"}},"
		 " \"env\": %s, \"python\": [{\"path\": \"/usr/bin/python3\", \"torch\": %s}]}",
		 interactive, env_json, t);
	return json_lit(buf);
}

/* The second seed's advice, on torch 2.11: outdated name, and why blocking wait is not the cure. */
static void seed_blocking_wait(void **state)
{
	json_t *facts = facts_with("2.11.0+cu130", "{\"NCCL_BLOCKING_WAIT\": \"1\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "torch.env.renamed", SEV_WARN);

	(void)state;
	assert_non_null(strstr(f->title, "NCCL_BLOCKING_WAIT=1 is the pre-2.2 name of "
					 "TORCH_NCCL_BLOCKING_WAIT; torch 2.11.0+cu130"));
	assert_non_null(strstr(f->why, "second seed"));
	assert_true(finding_fix_contains(f, "unset NCCL_BLOCKING_WAIT"));
	assert_true(finding_fix_contains(f, "export TORCH_NCCL_BLOCKING_WAIT=1"));
	findings_free(fs);
	json_decref(facts);
}

static void renamed_async(void **state)
{
	json_t *facts = facts_with("2.4.1", "{\"NCCL_ASYNC_ERROR_HANDLING\": \"1\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "torch.env.renamed", SEV_WARN);

	(void)state;
	assert_true(finding_fix_contains(f, "export TORCH_NCCL_ASYNC_ERROR_HANDLING=1"));
	findings_free(fs);
	json_decref(facts);
}

/* Both names with different values: the new one wins, the old one is dead weight. */
static void both_names(void **state)
{
	json_t *facts = facts_with("2.6.0", "{\"NCCL_DESYNC_DEBUG\": \"1\", "
				   "\"TORCH_NCCL_DESYNC_DEBUG\": \"0\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "torch.env.both_names", SEV_WARN);

	(void)state;
	assert_non_null(strstr(f->title, "torch uses TORCH_NCCL_DESYNC_DEBUG=0"));
	assert_true(finding_fix_contains(f, "unset NCCL_DESYNC_DEBUG"));
	assert_null(findings_find(fs, "torch.env.renamed"));
	findings_free(fs);
	json_decref(facts);
}

/* torch 1.13 predates the rename: the old name is right and the new one is ignored. */
static void old_torch(void **state)
{
	json_t *facts = facts_with("1.13.1", "{\"NCCL_BLOCKING_WAIT\": \"1\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f;

	(void)state;
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	json_decref(facts);

	facts = facts_with("1.13.1", "{\"TORCH_NCCL_BLOCKING_WAIT\": \"1\"}", "true");
	fs = run(facts);
	f = expect_finding(fs, "torch.env.new_name_ignored", SEV_WARN);
	assert_true(finding_fix_contains(f, "export NCCL_BLOCKING_WAIT=1"));
	findings_free(fs);
	json_decref(facts);
}

static void unknown_torch(void **state)
{
	json_t *facts = facts_with(NULL, "{\"NCCL_ENABLE_TIMING\": \"1\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "torch.env.renamed", SEV_INFO);

	(void)state;
	assert_non_null(strstr(f->title, "torch version unknown"));
	findings_free(fs);
	json_decref(facts);
}

/* LOCAL_RANK in an interactive shell: Lightning starts one process and waits for the rest. */
static void stray_local_rank(void **state)
{
	json_t *facts = facts_with("2.11.0", "{\"LOCAL_RANK\": \"0\", \"WORLD_SIZE\": \"8\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "launch.env.stale_ranks", SEV_ERROR);

	(void)state;
	assert_non_null(strstr(f->title, "LOCAL_RANK=0 exported in this interactive shell"));
	assert_non_null(strstr(f->why, "MEMBER: 1/N"));
	assert_true(finding_fix_contains(f, "unset LOCAL_RANK   #"));
	assert_false(finding_fix_contains(f, "WORLD_SIZE "));
	findings_free(fs);
	json_decref(facts);
}

static void stray_rank(void **state)
{
	json_t *facts = facts_with("2.11.0", "{\"RANK\": \"1\", \"NODE_RANK\": \"1\"}", "true");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "launch.env.stale_ranks", SEV_WARN);

	(void)state;
	assert_non_null(strstr(f->title, "RANK=1 exported"));
	assert_null(strstr(f->title, "NODE_RANK"));
	assert_non_null(strstr(f->why, "claims the same rank"));
	assert_true(finding_fix_contains(f, "unset RANK   #"));
	findings_free(fs);
	json_decref(facts);
}

/*
 * The launch by hand that `ncclcheck cluster` documents as its input (and the lab exports):
 * MASTER_ADDR, MASTER_PORT, NODE_RANK, NNODES, WORLD_SIZE in an interactive shell are meant.
 */
static void hand_launch_is_not_stale(void **state)
{
	json_t *facts = facts_with("2.11.0", "{\"MASTER_ADDR\": \"10.10.0.10\", "
				   "\"MASTER_PORT\": \"29500\", \"NODE_RANK\": \"1\", "
				   "\"NNODES\": \"2\", \"WORLD_SIZE\": \"2\"}", "true");
	struct findings *fs = run(facts);

	(void)state;
	assert_null(findings_find(fs, "launch.env.stale_ranks"));
	findings_free(fs);
	json_decref(facts);
}

/* Under a launcher, or outside a terminal, the variables are meant. */
static void launcher_or_batch(void **state)
{
	json_t *facts = facts_with("2.11.0", "{\"LOCAL_RANK\": \"0\", \"RANK\": \"3\", "
				   "\"TORCHELASTIC_RUN_ID\": \"abc\"}", "true");
	struct findings *fs = run(facts);

	(void)state;
	assert_null(findings_find(fs, "launch.env.stale_ranks"));
	findings_free(fs);
	json_decref(facts);

	facts = facts_with("2.11.0", "{\"RANK\": \"0\", \"SLURM_PROCID\": \"0\"}", "true");
	fs = run(facts);
	assert_null(findings_find(fs, "launch.env.stale_ranks"));
	findings_free(fs);
	json_decref(facts);

	facts = facts_with("2.11.0", "{\"NODE_RANK\": \"0\"}", "false");
	fs = run(facts);
	assert_null(findings_find(fs, "launch.env.stale_ranks"));
	findings_free(fs);
	json_decref(facts);
}

/* Lightning before 2.0.7 took these on any Kubernetes pod for a Kubeflow launch. */
static void kubeflow_detection(void **state)
{
	json_t *facts = json_lit(
		"{\"host\": {\"interactive\": true, \"container\": {\"kind\": \"kubernetes\"}},"
		" \"env\": {\"RANK\": \"0\", \"WORLD_SIZE\": \"2\", \"MASTER_ADDR\": \"10.0.0.1\","
		" \"MASTER_PORT\": \"29500\"},"
		" \"python\": [{\"torch\": {\"version\": \"1.13.1\"},"
		" \"pytorch_lightning\": {\"version\": \"1.9.5\"}}]}");
	struct findings *fs = run(facts);
	const struct finding *f = expect_finding(fs, "launch.env.stale_ranks", SEV_ERROR);

	(void)state;
	assert_non_null(strstr(f->why, "Kubeflow"));
	findings_free(fs);
	json_decref(facts);
}

static void nothing_set(void **state)
{
	json_t *facts = facts_with("2.11.0", "{\"PATH\": \"/usr/bin\"}", "true");
	struct findings *fs = run(facts);

	(void)state;
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_blocking_wait),
		cmocka_unit_test(renamed_async),
		cmocka_unit_test(both_names),
		cmocka_unit_test(old_torch),
		cmocka_unit_test(unknown_torch),
		cmocka_unit_test(stray_local_rank),
		cmocka_unit_test(stray_rank),
		cmocka_unit_test(hand_launch_is_not_stale),
		cmocka_unit_test(launcher_or_batch),
		cmocka_unit_test(kubeflow_detection),
		cmocka_unit_test(nothing_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
