/* emit: the recommendation's lint, its inputs (findings, facts, saved documents) and every writer. */
#include "cmocka_helpers.h"

#include <stdlib.h>

#include "emit/emit.h"
#include "util/envmap.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/xalloc.h"

static struct recommendation *two_by_eight(void)
{
	struct recommendation *rec = rec_new();

	rec->nodes = 2;
	rec->gpus_per_node = 8;
	rec->master_addr = strdup("10.10.0.10");
	rec->bf16 = 1;
	rec_defaults(rec);
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "eth1",
		"NCCL would bootstrap on eth0", "net.bootstrap.master_mismatch");
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "GLOO_SOCKET_IFNAME", "eth1", "gloo too", "x");
	return rec;
}

static int has_note(const struct recommendation *rec, const char *needle)
{
	for (size_t i = 0; i < rec->nnotes; i++)
		if (strstr(rec->notes[i], needle))
			return 1;
	return 0;
}

#define assert_has(sb, s) do { if (!strstr((sb).buf, (s))) fail_msg("missing '%s' in:\n%s", (s), (sb).buf); } while (0)
#define assert_hasnt(sb, s) do { if (strstr((sb).buf, (s))) fail_msg("unexpected '%s' in:\n%s", (s), (sb).buf); } while (0)

static void test_lint(void **state)
{
	struct recommendation *rec = rec_new();
	(void)state;

	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_ALGO", "Ring", NULL, NULL), -1);
	assert_true(has_note(rec, "NCCL_ALGO=Ring not set"));
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_PROTO", "Simple", NULL, NULL), -1);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_DISABLE", "0", NULL, NULL), -1);
	assert_true(has_note(rec, "enables nothing"));
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_DISABLE", "1", "no IB", NULL), 0);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_TIMEOUT", "600", NULL, NULL), -1);
	assert_true(has_note(rec, "the collective timeout is torch's"));
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_PORT_RANGE", "1-2", NULL, NULL), -1);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_NO_SUCH_THING", "1", NULL, NULL), -1);
	assert_true(has_note(rec, "NCCL reads no variable of that name"));
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_GDR_LEVEL", "2", NULL, NULL), -1);
	assert_true(has_note(rec, "NCCL stopped reading it in 2.4.0"));
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_VERSION", "2.21", NULL, NULL), -1);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "FI_EFA_USE_DEVICE_RDMA", "1", NULL, NULL), -1);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_RETRY_CNT", "13", NULL, NULL), -1);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "eth1\nrm", NULL, NULL), -1);
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "bad name", "1", NULL, NULL), -1);
	/* renamed by torch 2.2: written under the new name */
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_BLOCKING_WAIT", "1", "w", NULL), 0);
	assert_null(rec_get(rec, "NCCL_BLOCKING_WAIT"));
	assert_non_null(rec_get(rec, "TORCH_NCCL_BLOCKING_WAIT"));
	assert_true(has_note(rec, "torch 2.2 renamed it"));
	/* the same name again replaces */
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_DISABLE", "1", "again", NULL);
	assert_int_equal(rec->n, 2);
	assert_string_equal(rec_get(rec, "NCCL_IB_DISABLE")->why, "again");
	/* unsetting wrong advice is right: no lint, no rename */
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_ALGO", NULL, "unset it", NULL), 0);
	/* ... except torch's old name while the job's torch may read only that one */
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_BLOCKING_WAIT", NULL, "unset", NULL), -1);
	assert_true(has_note(rec, "NCCL_BLOCKING_WAIT is not unset: a torch of unknown version may read only"));
	rec->torch_version = strdup("1.13.1");
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_ASYNC_ERROR_HANDLING", NULL, "u", NULL), -1);
	free(rec->torch_version);
	rec->torch_version = strdup("2.11.0+cu130");
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_BLOCKING_WAIT", NULL, "unset", NULL), 0);
	assert_non_null(rec_get(rec, "NCCL_BLOCKING_WAIT"));
	assert_null(rec_get(rec, "NCCL_ALGO")->value);
	/* plugin-owned names pass */
	assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_OFI_FOO", "1", NULL, NULL), 0);
	rec_free(rec);
}

static void test_from_findings(void **state)
{
	struct findings *fs = findings_new();
	struct recommendation *rec = rec_new();
	struct finding *f;
	(void)state;

	f = finding_add(fs, SEV_ERROR, "net.bootstrap.master_mismatch", "NCCL will bootstrap on eth0");
	finding_export(f, "NCCL_SOCKET_IFNAME", "eth1");
	finding_export(f, "NCCL_ALGO", "Ring");		/* from a blog: the lint drops it */
	finding_fix(f, "unset NCCL_P2P_DISABLE   # it hides NVLink");
	finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_P2P_DISABLE", NULL);
	f = finding_add(fs, SEV_OK, "ok.one", "passed");
	finding_export(f, "NCCL_CROSS_NIC", "1");
	/* fix lines are prose: a saved document's finding without settings[] recommends nothing */
	f = finding_add(fs, SEV_ERROR, "old.doc", "from an old document");
	finding_fix(f, "export NCCL_MIN_NCHANNELS=4");
	f->decoded = 1;
	f = finding_add(fs, SEV_WARN, "x.y", "with settings");
	finding_setting(f, WHERE_SYSCTL, SCOPE_ALL, "net.ipv4.ip_local_port_range", "50000 51000");
	finding_setting(f, WHERE_ENV, SCOPE_NODE, "NCCL_IB_HCA", "=mlx5_0");
	finding_node(f, "n1");
	rec_from_findings(rec, fs);
	assert_string_equal(rec_get(rec, "NCCL_SOCKET_IFNAME")->value, "eth1");
	assert_string_equal(rec_get(rec, "NCCL_SOCKET_IFNAME")->source, "net.bootstrap.master_mismatch");
	assert_string_equal(rec_get(rec, "GLOO_SOCKET_IFNAME")->value, "eth1");
	assert_null(rec_get(rec, "NCCL_ALGO"));
	assert_null(rec_get(rec, "NCCL_MIN_NCHANNELS"));
	assert_non_null(rec_get(rec, "NCCL_P2P_DISABLE"));
	assert_null(rec_get(rec, "NCCL_P2P_DISABLE")->value);
	assert_null(rec_get(rec, "NCCL_CROSS_NIC"));	/* an ok finding recommends nothing */
	assert_int_equal(rec_get(rec, "net.ipv4.ip_local_port_range")->where, WHERE_SYSCTL);
	assert_string_equal(rec_get(rec, "NCCL_IB_HCA")->node, "n1");
	rec_free(rec);

	/* an exclude list cannot become Gloo's exact names */
	rec = rec_new();
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "^docker,lo", "x", NULL);
	rec_from_findings(rec, NULL);
	assert_null(rec_get(rec, "GLOO_SOCKET_IFNAME"));
	assert_true(has_note(rec, "Gloo takes exact interface names"));
	rec_free(rec);
	rec = rec_new();
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "=eth1,=eth2", "x", NULL);
	rec_from_findings(rec, NULL);
	assert_string_equal(rec_get(rec, "GLOO_SOCKET_IFNAME")->value, "eth1,eth2");
	rec_free(rec);
	findings_free(fs);
}

static void test_numbers_and_doc(void **state)
{
	json_t *doc = json_lit("{\"findings\": [{\"id\": \"net.x\", \"severity\": \"error\", "
			       "\"confidence\": \"high\", \"title\": \"t\", \"fix\": [], \"settings\": "
			       "[{\"name\": \"NCCL_SOCKET_IFNAME\", \"value\": \"eth1\", \"where\": \"env\", "
			       "\"scope\": \"all\"}], \"evidence\": []}], "
			       "\"facts\": {\"schema_version\": 1, \"env\": {\"NNODES\": \"4\", \"MASTER_PORT\": \"6000\"},"
			       " \"gpus\": [{\"compute_capability\": \"9.0\"}, {\"compute_capability\": \"7.0\"}],"
			       " \"net\": {\"master\": {\"addr\": \"10.0.0.1\", \"source_ifname\": \"eth1\"}}}}");
	struct recommendation *rec = rec_new();
	struct findings *fs = findings_new();
	struct err e = ERR_INIT;
	(void)state;

	assert_int_equal(rec_from_doc(rec, doc, fs, &e), 0);
	assert_int_equal(rec->nodes, 4);
	assert_int_equal(rec->gpus_per_node, 2);
	assert_int_equal(rec->bf16, 0);	/* a V100 among them */
	assert_int_equal(rec->master_port, 6000);
	assert_string_equal(rec->master_addr, "10.0.0.1");
	assert_string_equal(rec->ifname, "eth1");
	assert_int_equal(fs->n, 1);
	rec_free(rec);
	findings_free(fs);
	json_decref(doc);

	/* a cluster document: node names, node count, the first node's facts */
	doc = json_lit("{\"findings\": [], \"nodes\": [{\"name\": \"a1\", \"facts\": {\"gpus\": "
		       "[{\"compute_capability\": \"8.0\"}]}}, {\"name\": \"a2\", \"facts\": {}}]}");
	rec = rec_new();
	fs = findings_new();
	assert_int_equal(rec_from_doc(rec, doc, fs, &e), 0);
	assert_int_equal(rec->nodes, 2);
	assert_int_equal(rec->nhosts, 2);
	assert_string_equal(rec->hosts[1], "a2");
	assert_int_equal(rec->bf16, 1);
	rec_free(rec);
	findings_free(fs);
	json_decref(doc);

	/* garbage is refused with a reason */
	const char *bad[] = { "[]", "{\"facts\": {}}", "{\"findings\": [{\"id\": 3}], \"facts\": {}}",
			      "{\"findings\": []}" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		doc = json_lit(bad[i]);
		rec = rec_new();
		fs = findings_new();
		err_clear(&e);
		assert_int_equal(rec_from_doc(rec, doc, fs, &e), -1);
		assert_true(e.msg[0] != '\0');
		rec_free(rec);
		findings_free(fs);
		json_decref(doc);
	}
}

static void test_check(void **state)
{
	struct recommendation *rec = two_by_eight();
	struct err e = ERR_INIT;
	(void)state;

	assert_int_equal(rec_check(rec, &e), 0);
	free(rec->master_addr);
	rec->master_addr = strdup("10.0.0.1;reboot");
	assert_int_equal(rec_check(rec, &e), -1);
	free(rec->master_addr);
	rec->master_addr = strdup("fe80::1");
	assert_int_equal(rec_check(rec, &e), 0);
	rec->master_port = 70000;
	assert_int_equal(rec_check(rec, &e), -1);
	rec->master_port = 29500;
	rec->nodes = 0;
	assert_int_equal(rec_check(rec, &e), -1);
	rec_free(rec);
}

static void test_env_and_torchrun(void **state)
{
	struct recommendation *rec = two_by_eight();
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	rec_set(rec, WHERE_SYSCTL, SCOPE_ALL, NULL, "net.ipv4.ip_local_port_range", "50000 51000", "why", NULL);
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n1", "NCCL_IB_HCA", "=mlx5_0", "only n1 has it", NULL);
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_ALGO", "Tree", NULL, NULL);
	emit_env(&sb, rec);
	assert_has(sb, "# net.bootstrap.master_mismatch: NCCL would bootstrap on eth0\nexport NCCL_SOCKET_IFNAME=eth1\n");
	assert_has(sb, "export GLOO_SOCKET_IFNAME=eth1\n");
	assert_has(sb, "case \"$(uname -n)\" in\nn1|n1.*)\n");
	assert_has(sb, "\texport NCCL_IB_HCA==mlx5_0\n");
	assert_has(sb, "# as root: sysctl -w net.ipv4.ip_local_port_range=\"50000 51000\"");
	assert_has(sb, "NCCL_ALGO=Tree not set");
	assert_hasnt(sb, "export NCCL_ALGO");
	strbuf_reset(&sb);
	assert_int_equal(emit_sysctl(&sb, rec), 1);
	assert_has(sb, "# why\nnet.ipv4.ip_local_port_range = 50000 51000\n");
	strbuf_reset(&sb);
	assert_int_equal(emit_nccl_conf(&sb, rec), 0);
	assert_string_equal(sb.buf, "");
	rec_set(rec, WHERE_NCCL_CONF, SCOPE_ALL, NULL, "NCCL_IB_PCI_RELAXED_ORDERING", "1", "azure", NULL);
	assert_int_equal(emit_nccl_conf(&sb, rec), 1);
	assert_has(sb, "\nNCCL_IB_PCI_RELAXED_ORDERING=1\n");
	strbuf_reset(&sb);

	emit_torchrun(&sb, rec, 1);
	assert_has(sb, "#!/bin/sh\n");
	assert_has(sb, "\t--nnodes=2 \\\n\t--node_rank=1 \\\n\t--nproc_per_node=8 \\\n"
		   "\t--master_addr=10.10.0.10 \\\n\t--master_port=29500 \\\n\ttrain.py\n");
	assert_has(sb, "exec torchrun");
	assert_has(sb, "export NCCL_SOCKET_IFNAME=eth1");
	strbuf_reset(&sb);

	emit_torchrun_c10d(&sb, rec);
	assert_has(sb, "--rdzv_backend=c10d");
	assert_has(sb, "--rdzv_endpoint=10.10.0.10:29400");
	assert_has(sb, "grep -qF ' 10.10.0.10/'; then is_host=1; fi\n");
	assert_has(sb, "--rdzv_conf=is_host=\"$is_host\"");
	assert_hasnt(sb, "--node_rank");
	strbuf_reset(&sb);
	free(rec->master_addr);
	rec->master_addr = strdup("fd00::10");
	emit_torchrun_c10d(&sb, rec);
	assert_has(sb, "--rdzv_endpoint=[fd00::10]:29400");
	strbuf_reset(&sb);
	free(rec->master_addr);
	rec->master_addr = strdup("gpu-a1");
	emit_torchrun_c10d(&sb, rec);
	assert_has(sb, "if [ \"$(uname -n)\" = gpu-a1 ]");
	strbuf_reset(&sb);
	free(rec->master_addr);
	rec->master_addr = NULL;
	emit_torchrun(&sb, rec, 0);
	assert_has(sb, "--master_addr=\"${MASTER_ADDR:?");
	strbuf_release(&sb);
	rec_free(rec);
}

static void test_lightning(void **state)
{
	struct recommendation *rec = two_by_eight();
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	emit_lightning(&sb, rec);
	assert_has(sb, "    devices=8,");
	assert_has(sb, "    num_nodes=2,");
	assert_has(sb, "strategy=DDPStrategy(");
	assert_has(sb, "        gradient_as_bucket_view=True,\n");
	assert_has(sb, "precision=\"bf16-mixed\"");
	assert_hasnt(sb, "        static_graph=True");
	assert_hasnt(sb, "        find_unused_parameters=True");
	strbuf_reset(&sb);
	rec->bf16 = 0;
	rec->static_graph = 1;
	rec->find_unused = 1;
	emit_lightning(&sb, rec);
	assert_has(sb, "precision=\"16-mixed\"");
	assert_has(sb, "        static_graph=True,\n");
	assert_has(sb, "only because the model's graph is the same every step");
	assert_has(sb, "        find_unused_parameters=True,\n");
	strbuf_reset(&sb);
	/* Lightning 1.x from the facts: the old package and precision spellings */
	{
		json_t *facts = json_lit("{\"python\": [{\"torch\": {\"installed\": false}, \"lightning\": "
					 "{\"installed\": true, \"version\": \"2.6.6\"}}, {\"torch\": {\"installed\": true},"
					 " \"lightning\": {\"installed\": false}, \"pytorch_lightning\": {\"installed\": true,"
					 " \"version\": \"1.8.6\"}}]}");
		rec_numbers_from_facts(rec, facts);
		json_decref(facts);
	}
	assert_int_equal(rec->pl_package, 1);
	assert_int_equal(rec->pl_major, 1);
	rec->bf16 = 1;
	emit_lightning(&sb, rec);
	assert_has(sb, "import pytorch_lightning as pl");
	assert_has(sb, "from pytorch_lightning.strategies import DDPStrategy");
	assert_has(sb, "    precision=\"bf16\",");
	strbuf_reset(&sb);
	rec->bf16 = 0;
	emit_lightning(&sb, rec);
	assert_has(sb, "    precision=16,");
	strbuf_release(&sb);
	rec_free(rec);
}

static void test_slurm_mpi_k8s(void **state)
{
	struct recommendation *rec = two_by_eight();
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	emit_sbatch(&sb, rec);
	assert_has(sb, "#!/bin/bash\n");
	assert_has(sb, "#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gres=gpu:8\n");
	assert_has(sb, "MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n");
	assert_has(sb, "srun --ntasks-per-node=8 --kill-on-bad-exit=1 python3 train.py\n");
	assert_has(sb, "export NCCL_SOCKET_IFNAME=eth1");
	strbuf_reset(&sb);

	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n1", "NCCL_IB_HCA", "=mlx5_0", "only n1", NULL);
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_DISABLE", NULL, "unset it", NULL);
	emit_taskprolog(&sb, rec);
	assert_has(sb, "echo 'export NCCL_SOCKET_IFNAME=eth1'\n");
	assert_has(sb, "echo 'unset NCCL_IB_DISABLE'\n");
	assert_has(sb, "case \"${SLURMD_NODENAME:-$(uname -n)}\" in\nn1|n1.*)\n\techo 'export NCCL_IB_HCA==mlx5_0'\n");
	assert_has(sb, "exit 0\n");
	strbuf_reset(&sb);

	emit_mpirun(&sb, rec);
	assert_has(sb, "mpirun -np 16 --map-by ppr:8:node");
	assert_has(sb, "--hostfile hostfile");
	assert_has(sb, "\t-x NCCL_SOCKET_IFNAME \\\n");
	assert_has(sb, "--mca btl_tcp_if_include eth1");
	assert_has(sb, "-x MASTER_ADDR=10.10.0.10 -x MASTER_PORT=29500");
	strbuf_reset(&sb);
	rec->hosts = calloc(2, sizeof(char *));
	rec->hosts[0] = strdup("a1");
	rec->hosts[1] = strdup("a2");
	rec->nhosts = 2;
	emit_mpirun(&sb, rec);
	assert_has(sb, "--host a1:8,a2:8");
	strbuf_reset(&sb);

	emit_k8s(&sb, rec);
	assert_has(sb, "kind: PyTorchJob\n");
	assert_has(sb, "hostNetwork: true\n");
	assert_has(sb, "medium: Memory\n");
	assert_has(sb, "mountPath: /dev/shm\n");
	assert_has(sb, "initContainers:");
	assert_has(sb, "exec ncclcheck cluster");
	assert_has(sb, "nvidia.com/gpu: 8\n");
	assert_has(sb, "- name: NCCL_SOCKET_IFNAME\n");
	assert_has(sb, "value: \"eth1\"\n");
	assert_has(sb, "    Worker:\n      replicas: 1\n");
	strbuf_release(&sb);
	rec_free(rec);
}

static void test_sh_word_and_apply(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct recommendation *rec = two_by_eight();
	struct envmap *em = envmap_new(NULL);
	json_t *facts = json_lit("{\"env\": {\"NCCL_DEBUG\": \"WARN\"}}");
	(void)state;

	emit_sh_word(&sb, "eth1");
	emit_sh_word(&sb, " ");
	emit_sh_word(&sb, "it's");
	emit_sh_word(&sb, "");
	assert_string_equal(sb.buf, "eth1' ''it'\\''s'''");
	strbuf_release(&sb);

	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_DEBUG", NULL, "unset", NULL);
	envmap_set(em, "NCCL_DEBUG", "INFO");
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n1", "NCCL_IB_HCA", "=mlx5_1", "n1's", NULL);
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n2", "NCCL_IB_HCA", "=mlx5_2", "n2's", NULL);
	rec_apply_env(rec, em, "n1.cluster.local");
	assert_string_equal(envmap_get(em, "NCCL_IB_HCA"), "=mlx5_1");
	assert_string_equal(envmap_get(em, "NCCL_SOCKET_IFNAME"), "eth1");
	assert_null(envmap_get(em, "NCCL_DEBUG"));
	rec_apply_facts(rec, facts, "n2");
	assert_string_equal(jpath_str(facts, "env.NCCL_IB_HCA"), "=mlx5_2");
	assert_string_equal(jpath_str(facts, "env.GLOO_SOCKET_IFNAME"), "eth1");
	assert_null(jpath(facts, "env.NCCL_DEBUG"));
	json_decref(facts);
	envmap_free(em);
	rec_free(rec);
}

/* A placeholder value is never written as a value: a commented instruction in every output. */
static void test_placeholders(void **state)
{
	static const char *const forms[] = {
		"NCCLCHECK_TOKEN=<", "NCCLCHECK_TOKEN='<", "NCCLCHECK_TOKEN=\"<", "-x NCCLCHECK_TOKEN",
		"MASTER_ADDR=<", "MASTER_ADDR='<", "value: \"<", "value: '<", "value: <",
		"NCCL_IB_HCA=<", "NCCL_IB_HCA='<", "sysctl.x = <",
	};
	struct recommendation *rec = two_by_eight();
	struct envmap *em = envmap_new(NULL);
	struct strbuf out[11];
	(void)state;

	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCLCHECK_TOKEN", "<the same secret on every node>",
		"without a token anyone who reaches the port may join", "cluster.auth.none");
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n1", "NCCL_IB_HCA", "<n1's RDMA devices>", "n1's", NULL);
	rec_set(rec, WHERE_NCCL_CONF, SCOPE_ALL, NULL, "NCCL_IB_HCA", "<the RDMA devices>", "x", NULL);
	rec_set(rec, WHERE_SYSCTL, SCOPE_ALL, NULL, "sysctl.x", "<a value>", "x", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		strbuf_init(&out[i], 0);
	emit_env(&out[0], rec);
	emit_torchrun(&out[1], rec, 1);
	emit_torchrun_c10d(&out[2], rec);
	emit_lightning(&out[3], rec);
	emit_sbatch(&out[4], rec);
	emit_taskprolog(&out[5], rec);
	emit_mpirun(&out[6], rec);
	emit_k8s(&out[7], rec);
	emit_nccl_conf(&out[8], rec);
	emit_sysctl(&out[9], rec);
	emit_env(&out[10], rec);
	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(forms); j++)
			assert_hasnt(out[i], forms[j]);
		/* the real values are still written */
		if (i != 3 && i < 8)
			assert_has(out[i], "eth1");
	}
	assert_has(out[0], "# export NCCLCHECK_TOKEN=...   # to fill in: <the same secret on every node>\n");
	assert_has(out[0], "\t# export NCCL_IB_HCA=...   # to fill in: <n1's RDMA devices>\n");
	assert_has(out[4], "# export NCCLCHECK_TOKEN=...   # to fill in:");
	assert_has(out[5], "# echo export NCCLCHECK_TOKEN=...   # to fill in:");
	assert_has(out[6], "# export NCCLCHECK_TOKEN=...");
	assert_has(out[7], "secretKeyRef: {name: ncclcheck-token, key: value}");
	assert_has(out[7], "# - name: NCCLCHECK_TOKEN");
	assert_has(out[8], "# NCCL_IB_HCA=...   # to fill in: <the RDMA devices>");
	assert_has(out[9], "# sysctl.x=...   # to fill in: <a value>");
	/* nor does run apply one */
	rec_apply_env(rec, em, "n1");
	assert_null(envmap_get(em, "NCCLCHECK_TOKEN"));
	assert_null(envmap_get(em, "NCCL_IB_HCA"));
	assert_string_equal(envmap_get(em, "NCCL_SOCKET_IFNAME"), "eth1");
	assert_true(rec_placeholder("<x>"));
	assert_false(rec_placeholder("<x"));
	assert_false(rec_placeholder("eth1"));
	assert_false(rec_placeholder(NULL));
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		strbuf_release(&out[i]);
	envmap_free(em);
	rec_free(rec);
}

/* mpirun: Open MPI's own interface selection follows NCCL's, by name or by the shared subnet. */
static void test_mpirun_ifaces(void **state)
{
	static const char doc[] = "{\"findings\": [], \"nodes\": ["
		"{\"name\": \"n0\", \"facts\": {\"net\": {\"interfaces\": ["
		"{\"name\": \"eth0\", \"addrs\": [{\"addr\": \"203.0.113.10\", \"prefixlen\": 24, \"family\": 4}]},"
		"{\"name\": \"eth1\", \"addrs\": [{\"addr\": \"10.10.0.10\", \"prefixlen\": 24, \"family\": 4}]}]}}},"
		"{\"name\": \"n1\", \"facts\": {\"net\": {\"interfaces\": ["
		"{\"name\": \"ens5\", \"addrs\": [{\"addr\": \"10.10.0.11\", \"prefixlen\": 24, \"family\": 4},"
		"{\"addr\": \"fe80::1\", \"prefixlen\": 64, \"family\": 6}]}]}}}]}";
	struct recommendation *rec = rec_new();
	struct findings *fs = findings_new();
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	json_t *d = json_lit(doc);
	(void)state;

	assert_int_equal(rec_from_doc(rec, d, fs, &e), 0);
	rec->gpus_per_node = 1;
	rec_defaults(rec);
	assert_string_equal(rec_if_cidr(rec, "n1.cluster", "ens5"), "10.10.0.0/24");
	assert_null(rec_if_cidr(rec, "n1", "eth1"));
	/* the same name everywhere: the name */
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "=eth1", "x", NULL);
	emit_mpirun(&sb, rec);
	assert_has(sb, "\t--mca btl_tcp_if_include eth1 --mca oob_tcp_if_include eth1 \\\n");
	assert_has(sb, "\tpython3 train.py\n");
	strbuf_reset(&sb);
	/* names that differ per node: the subnet they share, said in a comment */
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n0", "NCCL_SOCKET_IFNAME", "eth1", "n0's", NULL);
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n1", "NCCL_SOCKET_IFNAME", "ens5", "n1's", NULL);
	emit_mpirun(&sb, rec);
	assert_has(sb, "\t--mca btl_tcp_if_include 10.10.0.0/24 --mca oob_tcp_if_include 10.10.0.0/24 \\\n");
	assert_has(sb, "# the nodes' interface names differ (n0 eth1, n1 ens5)");
	assert_has(sb, "sh -c '. ./ncclcheck.env && exec \"$@\"' sh python3 train.py\n");
	strbuf_reset(&sb);
	/* no subnet known for one of them: every name, and the warning */
	rec_set(rec, WHERE_ENV, SCOPE_NODE, "n1", "NCCL_SOCKET_IFNAME", "ib0", "n1's", NULL);
	emit_mpirun(&sb, rec);
	assert_has(sb, "\t--mca btl_tcp_if_include eth1,ib0 --mca oob_tcp_if_include eth1,ib0 \\\n");
	assert_has(sb, "no one subnet is known");
	strbuf_reset(&sb);
	rec_free(rec);
	/* an exclude list: Open MPI's exclude knobs, loopback kept out */
	rec = rec_new();
	rec->nodes = 2;
	rec->gpus_per_node = 1;
	rec_defaults(rec);
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "^docker0", "x", NULL);
	emit_mpirun(&sb, rec);
	assert_has(sb, "\t--mca btl_tcp_if_exclude lo,docker0 --mca oob_tcp_if_exclude lo,docker0 \\\n");
	strbuf_release(&sb);
	json_decref(d);
	findings_free(fs);
	rec_free(rec);
}

/* Which interfaces a recommendation steers NCCL and Gloo off, read as NCCL reads the list. */
/*
 * Chinese (#28): the lint's notes (a removed variable with NCCL's own note, a never-written one
 * with its reason, a number out of range) and a placeholder come out in Chinese in the env file,
 * while the recommendation keeps the English for recommendation.json.
 */
static void test_env_in_chinese(void **state)
{
	struct recommendation *rec = rec_new();
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	rec->nodes = 2;
	rec->gpus_per_node = 1;
	rec_defaults(rec);
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_LL_THRESHOLD", "0", "x", "x");
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_TIMEOUT", "1800", "x", "x");
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_RETRY_CNT", "13", "x", "x");
	rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCLCHECK_TOKEN", "<a shared secret>", NULL,
		"cluster.auth.none");
	assert_true(has_note(rec, "NCCL_LL_THRESHOLD not set: NCCL stopped reading it in 2.5; "
			     "removed in NCCL 2.5"));
	i18n_set_lang(I18N_ZH);
	emit_env(&sb, rec);
	i18n_set_lang(I18N_EN);
	assert_has(sb, "# ncclcheck config：本作业每个节点的环境变量\n");
	assert_has(sb, "没有设置 NCCL_LL_THRESHOLD：NCCL 从 2.5 起不再读取它；NCCL 2.5 已移除；NCCL_PROTO "
		   "只在调试时使用");
	assert_has(sb, "没有设置 NCCL_TIMEOUT=1800：NCCL 不读这个变量；集合通信超时由 torch 控制");
	assert_has(sb, "没有设置 NCCL_IB_RETRY_CNT=13：InfiniBand 重试次数是 3 位字段");
	assert_has(sb, "# cluster.auth.none: 建议设置\n# export NCCLCHECK_TOKEN=...   # 待填写：");
	assert_hasnt(sb, "not set");
	assert_hasnt(sb, "Not written");
	assert_true(has_note(rec, "NCCL_TIMEOUT=1800 not set: NCCL reads no such variable"));
	strbuf_release(&sb);
	rec_free(rec);
}

static void test_steers_off(void **state)
{
	static const struct {
		const char *nccl, *gloo, *ifname;
		int off;
	} cases[] = {
		{ .nccl = NULL, .ifname = "eth0", .off = 0 },	/* nothing recommended */
		{ .nccl = "^docker,lo", .ifname = "docker0", .off = 1 },
		{ .nccl = "^docker,lo", .ifname = "lo", .off = 1 },
		{ .nccl = "^docker,lo", .ifname = "eth0", .off = 0 },
		{ .nccl = "=eth1", .ifname = "eth1", .off = 0 },
		{ .nccl = "=eth1", .ifname = "eth10", .off = 1 },
		/* ":port" is not part of the name: NCCL reads "eth1:1234" as the prefix eth1 */
		{ .nccl = "eth1:1234,ib", .ifname = "eth1", .off = 0 },
		{ .nccl = "eth1:1234,ib", .ifname = "ib0", .off = 0 },
		{ .nccl = "eth1:1234,ib", .ifname = "eth0", .off = 1 },
		/* Gloo's names are exact, and an interface Gloo still uses is not steered off */
		{ .nccl = "eth1", .gloo = "eth0", .ifname = "eth0", .off = 0 },
		{ .nccl = "eth1", .gloo = "eth0", .ifname = "eth00", .off = 1 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct recommendation *rec = rec_new();

		if (cases[i].nccl)
			assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME",
						 cases[i].nccl, NULL, NULL), 0);
		if (cases[i].gloo)
			assert_int_equal(rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "GLOO_SOCKET_IFNAME",
						 cases[i].gloo, NULL, NULL), 0);
		if (rec_steers_off(rec, "n0", cases[i].ifname) != cases[i].off)
			fail_msg("NCCL_SOCKET_IFNAME=%s GLOO_SOCKET_IFNAME=%s, %s: steered off %d, not %d",
				 cases[i].nccl, cases[i].gloo, cases[i].ifname, !cases[i].off,
				 cases[i].off);
		rec_free(rec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lint),
		cmocka_unit_test(test_from_findings),
		cmocka_unit_test(test_numbers_and_doc),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_env_and_torchrun),
		cmocka_unit_test(test_lightning),
		cmocka_unit_test(test_slurm_mpi_k8s),
		cmocka_unit_test(test_sh_word_and_apply),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_mpirun_ifaces),
		cmocka_unit_test(test_steers_off),
		cmocka_unit_test(test_env_in_chinese),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
