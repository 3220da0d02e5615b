/* rules/launch_consistency.c: the launcher's numbers against each other and against Trainer(...). */
#include "cmocka_helpers.h"

#include "model/node.h"
#include "rules/launch_consistency.h"
#include "util/envmap.h"

static struct findings *check(const struct launch_facts *lf)
{
	struct findings *fs = findings_new();
	rule_launch_consistency(lf, fs);
	/* run's cluster phase takes the rule's findings by this table: it must know every id */
	for (size_t i = 0; i < fs->n; i++)
		if (!launch_consistency_id(fs->v[i]->id))
			fail_msg("launch_consistency_id() does not know %s", fs->v[i]->id);
	return fs;
}

static struct envmap *env(const char *const *kv)
{
	struct envmap *em = envmap_new(NULL);
	for (; *kv; kv += 2)
		envmap_set(em, kv[0], kv[1]);
	return em;
}

static void test_clean(void **state)
{
	static const char *const kv[] = { "SLURM_JOB_ID", "7", "SLURM_PROCID", "9", "SLURM_NODEID", "1",
					   "SLURM_JOB_NUM_NODES", "2", "SLURM_NTASKS", "16",
					   "SLURM_NTASKS_PER_NODE", "8", "SLURM_TASKS_PER_NODE", "8(x2)", NULL };
	struct envmap *em = env(kv);
	struct launch_facts lf;
	struct findings *fs;
	(void)state;

	launch_facts_from_env(&lf, em, 8);
	assert_int_equal(lf.slurm_tasks_here, 8);
	lf.lightning_devices = 8;
	lf.lightning_num_nodes = 2;
	fs = check(&lf);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	envmap_free(em);
}

static void test_mismatches(void **state)
{
	static const char *const kv[] = { "SLURM_JOB_ID", "7", "SLURM_PROCID", "0", "SLURM_NODEID", "0",
					   "SLURM_JOB_NUM_NODES", "2", "SLURM_NTASKS", "8",
					   "SLURM_NTASKS_PER_NODE", "4", NULL };
	struct envmap *em = env(kv);
	struct launch_facts lf;
	struct findings *fs;
	(void)state;

	launch_facts_from_env(&lf, em, 8);
	lf.lightning_devices = 8;
	lf.lightning_num_nodes = 4;
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.devices_mismatch"));
	assert_non_null(findings_find(fs, "launch.nodes_mismatch"));
	assert_string_equal(finding_find_setting(findings_find(fs, "launch.devices_mismatch"),
						 "--ntasks-per-node")->value, "8");
	assert_null(findings_find(fs, "launch.world_size"));	/* 8 = 2 x 4 */
	findings_free(fs);
	envmap_free(em);

	/* torchrun: WORLD_SIZE by hand that does not add up */
	static const char *const kv2[] = { "TORCHELASTIC_RUN_ID", "x", "WORLD_SIZE", "6", "LOCAL_WORLD_SIZE", "4",
					    "NNODES", "2", NULL };
	em = env(kv2);
	launch_facts_from_env(&lf, em, 4);
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.world_size"));
	assert_int_equal(findings_find(fs, "launch.world_size")->sev, SEV_ERROR);
	findings_free(fs);
	envmap_free(em);

	/* --ntasks inconsistent with --ntasks-per-node inside a step */
	static const char *const kv3[] = { "SLURM_JOB_ID", "7", "SLURM_PROCID", "0", "SLURM_JOB_NUM_NODES", "2",
					    "SLURM_NTASKS", "10", "SLURM_NTASKS_PER_NODE", "4", NULL };
	em = env(kv3);
	launch_facts_from_env(&lf, em, 4);
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.world_size"));
	findings_free(fs);
	envmap_free(em);
}

static void test_gpus(void **state)
{
	static const char *const hidden[] = { "SLURM_JOB_ID", "1", "SLURM_PROCID", "0", "CUDA_VISIBLE_DEVICES", "", NULL };
	static const char *const over[] = { "TORCHELASTIC_RUN_ID", "x", "LOCAL_WORLD_SIZE", "8",
					     "CUDA_VISIBLE_DEVICES", "0,1,2,3", NULL };
	static const char *const one[] = { "SLURM_JOB_ID", "1", "SLURM_PROCID", "0", "SLURM_NTASKS_PER_NODE", "4",
					    "CUDA_VISIBLE_DEVICES", "2", NULL };
	struct launch_facts lf;
	struct findings *fs;
	struct envmap *em;
	(void)state;

	em = env(hidden);
	launch_facts_from_env(&lf, em, 4);
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.gpus.hidden"));
	findings_free(fs);
	envmap_free(em);

	em = env(over);
	launch_facts_from_env(&lf, em, 8);
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.gpus.oversubscribed"));
	findings_free(fs);
	envmap_free(em);

	em = env(one);
	launch_facts_from_env(&lf, em, 4);
	lf.lightning_devices = 4;
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.gpus.one_per_task"));
	assert_null(findings_find(fs, "launch.gpus.oversubscribed"));
	findings_free(fs);
	envmap_free(em);
}

static void test_node_rank(void **state)
{
	static const char *const kv[] = { "SLURM_JOB_ID", "1", "SLURM_PROCID", "1", "SLURM_NODEID", "1",
					   "NODE_RANK", "0", NULL };
	struct envmap *em = env(kv);
	struct launch_facts lf;
	struct findings *fs;
	(void)state;

	launch_facts_from_env(&lf, em, 0);
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.node_rank.duplicate"));
	findings_free(fs);
	envmap_free(em);
}

static void test_scripts(void **state)
{
	struct launch_facts lf;
	struct findings *fs;
	(void)state;

	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n"
			 "#SBATCH --gres=gpu:8\nexport X=1\n# python3 in a comment\n"
			 "srun --kill-on-bad-exit=1 \\\n  python3 train.py\n");
	assert_int_equal(lf.script_nodes, 2);
	assert_int_equal(lf.script_ntasks_per_node, 8);
	assert_int_equal(lf.script_python_no_srun, 0);
	assert_int_equal(lf.script_srun_no_tpn, 0);
	fs = check(&lf);
	assert_int_equal(fs->n, 0);
	findings_free(fs);

	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/sh\n#SBATCH -N 2\npython3 train.py\n");
	assert_int_equal(lf.script_nodes, 2);
	assert_int_equal(lf.script_python_no_srun, 3);
	fs = check(&lf);
	assert_int_equal(findings_find(fs, "launch.sbatch.no_srun")->sev, SEV_ERROR);
	/* no GPU count known here: Slurm's own, for the nodes the job runs on */
	assert_true(finding_fix_contains(findings_find(fs, "launch.sbatch.no_srun"),
					 "srun --ntasks-per-node=\"$SLURM_GPUS_ON_NODE\" python3 train.py"));
	findings_free(fs);

	/* a node with 4 GPUs: that count */
	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/sh\n#SBATCH -N 2\npython3 train.py\n");
	lf.gpus_on_node = 4;
	fs = check(&lf);
	assert_true(finding_fix_contains(findings_find(fs, "launch.sbatch.no_srun"),
					 "srun --ntasks-per-node=4 python3 train.py"));
	findings_free(fs);

	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/bash\n#SBATCH --nodes=2\nsrun torchrun --nproc_per_node=8 train.py\n");
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.node_rank.duplicate"));
	assert_true(finding_has_fix(findings_find(fs, "launch.srun.ntasks_per_node"),
				    "srun --ntasks-per-node=\"$SLURM_GPUS_ON_NODE\" ...   # or #SBATCH "
				    "--ntasks-per-node=\"$SLURM_GPUS_ON_NODE\""));
	assert_null(findings_find(fs, "launch.sbatch.no_srun"));
	findings_free(fs);

	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/bash\n#SBATCH --nodes=2\nsrun --ntasks-per-node=1 torchrun "
			 "--node_rank=\"$SLURM_NODEID\" train.py\n");
	fs = check(&lf);
	assert_int_equal(fs->n, 0);
	findings_free(fs);

	/* a Trainer call in Python, against the batch script's numbers */
	launch_scan_text(&lf, "import lightning.pytorch as pl\ntrainer = pl.Trainer(\n    devices=4,\n"
			 "    num_nodes = 2,\n    max_devices=9,\n)\npython3 = 1\n");
	assert_int_equal(lf.lightning_devices, 4);
	assert_int_equal(lf.lightning_num_nodes, 2);
	assert_int_equal(lf.script_python_no_srun, 0);
	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\nsrun python3 t.py\n");
	launch_scan_text(&lf, "trainer = Trainer(devices=4, num_nodes=2)\n");
	fs = check(&lf);
	assert_non_null(findings_find(fs, "launch.devices_mismatch"));
	assert_null(findings_find(fs, "launch.nodes_mismatch"));
	findings_free(fs);

	/* numbers in a trailing comment do not count */
	launch_facts_init(&lf);
	launch_scan_text(&lf, "    num_nodes=2,  # world size = num_nodes * devices = 4\n    devices=2,  # devices=9\n");
	assert_int_equal(lf.lightning_devices, 2);
	assert_int_equal(lf.lightning_num_nodes, 2);

	/* nothing known, nothing said; garbage is harmless */
	launch_facts_init(&lf);
	launch_scan_text(&lf, "");
	launch_scan_text(&lf, "\\\n\\");
	launch_scan_text(&lf, "#SBATCH --nodes=\n#SBATCH -N\ndevices=\n");
	fs = check(&lf);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

/* launch_facts_from_model on the model of `facts` */
static void from_facts(struct launch_facts *lf, const json_t *facts)
{
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(facts, &e);

	assert_non_null(m);
	launch_facts_from_model(lf, m);
	node_model_free(m);
}

static void test_facts(void **state)
{
	json_t *facts = json_lit("{\"env\": {\"SLURM_JOB_ID\": \"1\", \"SLURM_STEP_ID\": \"0\", "
				 "\"SLURM_TASKS_PER_NODE\": \"2(x3),1\", \"SLURM_NODEID\": \"3\"}, "
				 "\"gpus\": [{}, {}]}");
	struct launch_facts lf;
	(void)state;

	from_facts(&lf, facts);
	assert_int_equal(lf.slurm_tasks_here, 1);
	assert_int_equal(lf.gpus_on_node, 2);
	assert_true(lf.slurm_step);
	json_decref(facts);
	/* node's form: a task of a 2-node step that thinks it is node rank 0 */
	facts = json_lit("{\"env\": {\"SLURM_JOB_ID\": \"1\", \"SLURM_PROCID\": \"3\", \"SLURM_NODEID\": \"1\","
			 " \"NODE_RANK\": \"0\"}}");
	{
		struct findings *fs = findings_new();
		rule_launch_env(facts, fs);
		assert_non_null(findings_find(fs, "launch.node_rank.duplicate"));
		findings_free(fs);
	}
	json_decref(facts);
	facts = json_lit("{}");
	from_facts(&lf, facts);
	assert_false(lf.slurm_job);
	json_decref(facts);
}

/* torchrun's agent store against an init_method on another port (pytorch#192113). */
static void test_agent_store(void **state)
{
	static const char *const kv[] = { "TORCHELASTIC_USE_AGENT_STORE", "True", "MASTER_PORT", "29400",
					   NULL };
	static const char run_sh[] = "#!/bin/bash\ntorchrun --nnodes=2 --nproc_per_node=8 \\\n"
				     "  --master_addr=10.0.0.1 --master_port=29500 train.py\n";
	struct envmap *em;
	struct launch_facts lf;
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* a literal port other than torchrun's store: every rank is a client, nobody serves */
	launch_facts_init(&lf);
	launch_scan_text(&lf, run_sh);
	launch_scan_text(&lf, "import torch.distributed as dist\n\ndist.init_process_group(\"nccl\",\n"
			 "    init_method = \"tcp://10.0.0.1:23456\", rank=r, world_size=w)\n");
	assert_int_equal(lf.script_torchrun, 2);
	assert_int_equal(lf.master_port, 29500);
	assert_int_equal(lf.init_tcp_port, 23456);
	assert_int_equal(lf.init_tcp_line, 4);
	fs = check(&lf);
	f = findings_find(fs, "launch.torchrun.agent_store");
	assert_non_null(f);
	assert_int_equal(f->sev, SEV_WARN);
	assert_non_null(strstr(f->title, "tcp://...:23456 is not torchrun's store (port 29500)"));
	assert_true(finding_fix_contains(f, "init_method=\"env://\""));
	findings_free(fs);

	/* the same port as torchrun's store, env://, and a port only known at run time: nothing */
	launch_facts_init(&lf);
	launch_scan_text(&lf, run_sh);
	launch_scan_text(&lf, "dist.init_process_group(\"nccl\", init_method=\"tcp://10.0.0.1:29500\")\n"
			 "dist.init_process_group(\"nccl\", init_method=\"env://\")\n"
			 "dist.init_process_group(init_method=f\"tcp://{addr}:{port}\")\n");
	fs = check(&lf);
	assert_null(findings_find(fs, "launch.torchrun.agent_store"));
	findings_free(fs);

	/* no torchrun at all: a tcp:// store of one's own is what init_method is for */
	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/bash\nsrun python3 train.py --dist-url tcp://10.0.0.1:23456\n");
	assert_int_equal(lf.init_tcp_port, 23456);
	fs = check(&lf);
	assert_null(findings_find(fs, "launch.torchrun.agent_store"));
	findings_free(fs);

	/* c10d: the agent picks its store's port, the script cannot know it: nothing said */
	launch_facts_init(&lf);
	launch_scan_text(&lf, "#!/bin/bash\ntorchrun --rdzv_backend=c10d --rdzv_endpoint=h:29400 "
			 "train.py --dist_url tcp://h:23456\n");
	fs = check(&lf);
	assert_null(findings_find(fs, "launch.torchrun.agent_store"));
	findings_free(fs);

	/* inside a torchrun worker: the agent's flag and MASTER_PORT come from the environment */
	em = env(kv);
	launch_facts_from_env(&lf, em, 8);
	assert_true(lf.agent_store);
	assert_int_equal(lf.master_port, 29400);
	launch_scan_text(&lf, "dist.init_process_group(init_method='tcp://127.0.0.1:23456')\n");
	fs = check(&lf);
	f = findings_find(fs, "launch.torchrun.agent_store");
	assert_non_null(f);
	assert_non_null(strstr(f->title, "(port 29400)"));
	findings_free(fs);
	envmap_free(em);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_mismatches),
		cmocka_unit_test(test_gpus),
		cmocka_unit_test(test_node_rank),
		cmocka_unit_test(test_scripts),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_agent_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
