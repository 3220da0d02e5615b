/*
 * model/node and facts/load: a facts document decoded once, strictly. Wrong types are refused
 * with the member's path (a peer's or a hand-edited document is never half-used); absent and
 * unknown facts are fine; the NCCL version is decided once; the "what if" proves a value.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <string.h>

#include "facts/load.h"
#include "model/node.h"
#include "rules/rules.h"

#define IFADDRS "\"ifaddrs\":[{\"ifname\":\"lo\",\"addr\":\"127.0.0.1\",\"prefixlen\":8}," \
	"{\"ifname\":\"eth0\",\"addr\":\"203.0.113.10\",\"prefixlen\":24}," \
	"{\"ifname\":\"eth1\",\"addr\":\"10.0.0.2\",\"prefixlen\":24}," \
	"{\"ifname\":\"eth10\",\"addr\":\"10.1.0.2\",\"prefixlen\":24}]"

static void expect_rejected(const char *doc, const char *needle)
{
	json_t *j = json_lit(doc);
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(j, &e);

	if (m)
		fail_msg("accepted: %s", doc);
	assert_int_equal(e.code, ERR_PARSE);
	if (!strstr(e.msg, needle))
		fail_msg("'%s' does not name '%s'", e.msg, needle);
	json_decref(j);
}

static void test_rejects(void **state)
{
	(void)state;
	expect_rejected("[]", "object");
	expect_rejected("{\"env\":{\"NCCL_DEBUG\":1}}", "env.NCCL_DEBUG");
	expect_rejected("{\"env\":[\"NCCL_DEBUG=INFO\"]}", "env");
	expect_rejected("{\"net\":{\"ifaddrs\":[1]}}", "net.ifaddrs[0]");
	expect_rejected("{\"net\":{\"ifaddrs\":[{\"ifname\":7,\"addr\":\"10.0.0.1\"}]}}", "net.ifaddrs[0].ifname");
	expect_rejected("{\"net\":{\"ifaddrs\":[{\"ifname\":\"e\",\"addr\":\"10.0.0.1\",\"flags\":{\"running\":\"yes\"}}]}}",
			"net.ifaddrs[0].flags");
	expect_rejected("{\"net\":{\"master\":{\"port\":\"29500\"}}}", "net.master.port");
	expect_rejected("{\"net\":{\"master\":{\"port\":70000}}}", "net.master.port");
	expect_rejected("{\"sysctl\":{\"ip_local_port_range\":[60999,32768]}}", "ip_local_port_range");
	expect_rejected("{\"sysctl\":{\"ip_local_port_range\":[\"a\",2]}}", "ip_local_port_range");
	expect_rejected("{\"nccl\":{\"conf\":[{\"path\":\"/etc/nccl.conf\",\"vars\":{\"NCCL_ALGO\":[]}}]}}",
			"nccl.conf[0].vars.NCCL_ALGO");
	expect_rejected("{\"python\":[{\"torch\":{\"version\":2.5}}]}", "python[0].torch.version");
	expect_rejected("{\"gpus\":[1,2]}", "gpus[0]");
	expect_rejected("{\"firewall\":[]}", "firewall");
	expect_rejected("{\"rdma\":{\"devices\":[{\"name\":\"mlx5_0\",\"ports\":[{\"state\":1}]}]}}",
			"rdma.devices[0].ports[0].state");
}

static void test_decodes(void **state)
{
	struct node_model *m;
	json_t *j;

	(void)state;
	/* absent and unknown facts are normal: the defaults live in the model, once */
	j = json_lit("{\"net\":{\"master\":{\"set\":true,\"addr\":\"rank0\",\"resolved\":{\"unknown\":\"no such host\"}}},"
		     "\"sysctl\":{\"ip_local_port_range\":{\"unknown\":\"not readable\"}},"
		     "\"firewall\":{\"unknown\":\"needs root\"}}");
	m = model_of(j);
	assert_int_equal(m->have_ifs, 0);
	assert_int_equal(m->master.port, NM_MASTER_PORT_DEFAULT);
	assert_string_equal(m->master.resolve_error, "no such host");
	assert_null(m->master.resolved);
	assert_int_equal(m->ports.known, 0);
	assert_int_equal(m->ports.lo, NM_PORT_LO_DEFAULT);
	assert_int_equal(m->ports.hi, NM_PORT_HI_DEFAULT);
	assert_string_equal(m->ports.unknown, "not readable");
	assert_string_equal(m->fw_unknown, "needs root");
	assert_null(m->fw);
	assert_true(m->nccl.assumed);
	assert_string_equal(m->nccl.version, NCCL_MODEL_DEFAULT);
	node_model_free(m);
	json_decref(j);

	/* one NCCL decision: torch's, used by the settings (2.23+ reads NCCL_CONF_FILE) and the prediction */
	j = json_lit("{\"env\":{\"NCCL_CONF_FILE\":\"/opt/my.conf\"},"
		     "\"python\":[{\"path\":\"/usr/bin/python3\",\"torch\":{\"version\":\"2.4.0\"}},"
		     "{\"path\":\"/venv/bin/python\",\"torch\":{\"version\":\"2.9.1\",\"nccl_version\":\"2.27.5\"}}],"
		     "\"nccl\":{\"conf\":[{\"path\":\"/opt/my.conf\",\"source\":\"NCCL_CONF_FILE\","
		     "\"vars\":{\"NCCL_SOCKET_IFNAME\":\"eth1\"}}]},"
		     "\"net\":{" IFADDRS ",\"master\":{\"set\":true,\"addr\":\"10.0.0.1\",\"resolved\":\"10.0.0.1\","
		     "\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\",\"port\":29400}}}");
	m = model_of(j);
	assert_string_equal(m->nccl.version, "2.27.5");
	assert_string_equal(m->nccl.loaded, "2.27.5");
	assert_false(m->nccl.assumed);
	assert_string_equal(m->stack.torch->torch, "2.4.0");
	assert_string_equal(m->stack.nccl_python->path, "/venv/bin/python");
	assert_string_equal(node_model_setting(m, "NCCL_SOCKET_IFNAME")->value, "eth1");
	assert_string_equal(m->ifs.ifname_source, "/opt/my.conf");
	assert_string_equal(m->pred.boot->name, "eth1");
	assert_int_equal(m->master.port, 29400);
	assert_string_equal(node_model_cluster_ifname(m), "eth1");
	assert_string_equal(node_model_addr_class(m, "203.0.113.10"), "documentation");
	assert_string_equal(node_model_addr_class(m, "10.0.0.2"), "private");
	node_model_free(m);
	json_decref(j);

	/* the model option wins over everything the facts say */
	j = json_lit("{\"net\":{\"assume_nccl\":\"2.27.7\"," IFADDRS "}}");
	{
		struct node_model_opts o = { "2.18.3" };
		struct err e = ERR_INIT;

		m = model_of(j);
		assert_string_equal(m->nccl.version, "2.27.7");
		assert_true(m->nccl.user_assumed);
		node_model_free(m);
		m = node_model_new_opts(j, &o, &e);
		assert_non_null(m);
		assert_string_equal(m->nccl.version, "2.18.3");
		node_model_free(m);
		o.assume_nccl = "two";
		assert_null(node_model_new_opts(j, &o, &e));
		assert_int_equal(e.code, ERR_USAGE);
	}
	json_decref(j);
}

/* "What if": the prediction re-run with a candidate, and the proven NCCL_SOCKET_IFNAME value. */
static void test_whatif(void **state)
{
	struct node_model *m;
	struct ifs_result r;
	char v[64];
	json_t *j;

	(void)state;
	j = json_lit("{\"net\":{\"assume_nccl\":\"2.28.9\"," IFADDRS "}}");
	m = model_of(j);
	assert_string_equal(m->pred.boot->name, "eth0");	/* automatic: the first non-lo */
	{
		struct nm_override ov = { "NCCL_SOCKET_IFNAME", "eth1" };

		assert_int_equal(node_model_predict(m, &ov, 1, &r), 0);
		assert_string_equal(r.boot->name, "eth1");
		assert_int_equal(r.sockets.n, 2);	/* eth1 is a prefix of eth10 */
	}
	/* so the proven value is the exact one */
	assert_int_equal(node_model_ifname_for(m, "eth1", v, sizeof(v)), 0);
	assert_string_equal(v, "=eth1");
	assert_int_equal(node_model_ifname_for(m, "eth0", v, sizeof(v)), 0);
	assert_string_equal(v, "eth0");
	assert_int_equal(node_model_ifname_for(m, "ib0", v, sizeof(v)), -1);
	/* the model itself did not change */
	assert_string_equal(m->pred.boot->name, "eth0");
	node_model_free(m);
	json_decref(j);

	j = json_lit("{\"net\":{}}");
	m = model_of(j);
	assert_int_equal(node_model_predict(m, NULL, 0, &r), -1);
	assert_int_equal(node_model_ifname_for(m, "eth0", v, sizeof(v)), -1);
	node_model_free(m);
	json_decref(j);
}

#define LOADS(lit) facts_load_bytes(lit, strlen(lit), &e)

static void test_loader(void **state)
{
	struct err e = ERR_INIT;
	char path[4096];
	json_t *j;

	(void)state;
	j = LOADS("{\"schema_version\":1}");
	assert_non_null(j);
	json_decref(j);
	/* the whole `node --json` document: its facts member */
	j = LOADS("{\"verb\":\"node\",\"facts\":{\"schema_version\":1,\"tool\":\"x\"}}");
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "tool")), "x");
	json_decref(j);
	assert_null(LOADS("{\"schema_version\":1,\"schema_version\":2}"));
	assert_non_null(strstr(e.msg, "not JSON"));
	assert_null(LOADS("{\"tool\":1}"));
	assert_non_null(strstr(e.msg, "no schema_version"));
	assert_null(LOADS("{\"schema_version\":\"1\"}"));
	assert_null(LOADS("[1"));
	assert_null(facts_load_file("/nonexistent/facts.json", &e));
	assert_int_equal(e.code, ERR_SYS);
	snprintf(path, sizeof(path), "%s/facts/gpu-h200x2.json", FIXTURES_DIR);
	j = facts_load_file(path, &e);
	assert_non_null(j);
	{
		struct node_model *m = model_of(j);

		assert_true(m->ngpus >= 1);
		node_model_free(m);
	}
	json_decref(j);
}

/* rules/facts.c: a document of another schema is said to be one; CPU affinity gives its setting. */
static void test_facts_rules(void **state)
{
	struct findings *fs = findings_new();
	const struct finding *f;
	json_t *j;

	(void)state;
	j = json_lit("{\"schema_version\":99,\"host\":{\"cpus\":64,\"numa_nodes\":2},"
		     "\"topology\":{\"cpus\":{\"pus\":8,\"bound_pus\":8,\"numa_nodes\":1}},\"gpus\":[{},{}]}");
	run_rule(rule_facts_health, j, fs);
	f = expect_finding(fs, "facts.schema", SEV_WARN);
	assert_non_null(strstr(f->title, "99"));
	run_rule(rule_cpu_affinity, j, fs);
	f = expect_finding(fs, "host.cpus.restricted", SEV_INFO);
	assert_string_equal(finding_find_setting(f, "OMP_NUM_THREADS")->value, "4");
	findings_free(fs);
	json_decref(j);

	fs = findings_new();
	j = json_lit("{\"schema_version\":1}");
	run_rule(rule_facts_health, j, fs);
	expect_no_finding(fs, "facts.schema");
	findings_free(fs);
	json_decref(j);
	/* the facts entry point: a document the model rejects is one error naming the member */
	fs = findings_new();
	j = json_lit("{\"gpus\":[1,2]}");
	rules_run_facts(j, fs);
	assert_int_equal(fs->n, 1);
	f = expect_finding(fs, "facts.invalid", SEV_ERROR);
	assert_non_null(strstr(f->title, "gpus[0]"));
	findings_free(fs);
	json_decref(j);
	fs = findings_new();
	j = json_lit("{\"schema_version\":1}");
	rules_run_facts(j, fs);
	expect_no_finding(fs, "facts.invalid");
	findings_free(fs);
	json_decref(j);

	/* the launch rule is in `node`'s table: an srun task whose WORLD_SIZE is not the job's */
	fs = findings_new();
	j = json_lit("{\"schema_version\":1,\"env\":{\"SLURM_JOB_ID\":\"7\",\"SLURM_STEP_ID\":\"0\","
		     "\"SLURM_PROCID\":\"0\",\"SLURM_JOB_NUM_NODES\":\"2\",\"SLURM_NTASKS\":\"4\","
		     "\"SLURM_NTASKS_PER_NODE\":\"2\",\"WORLD_SIZE\":\"8\"}}");
	rules_run_facts(j, fs);
	f = expect_finding(fs, "launch.world_size", SEV_ERROR);
	assert_non_null(strstr(f->title, "WORLD_SIZE=8"));
	findings_free(fs);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_decodes),
		cmocka_unit_test(test_whatif),
		cmocka_unit_test(test_loader),
		cmocka_unit_test(test_facts_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
