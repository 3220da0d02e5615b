/*
 * run's cluster launch decides together: the launch rule's inputs travel in every node's facts
 * (probe/env.c records each variable the rule reads), the master judges them with the node
 * rules, and every node reads the same launch findings out of the report
 * (cluster_report_node_findings) — over real loopback sockets here, two nodes in one process,
 * node 1 with a WORLD_SIZE that does not add up. Also the strict reading of bad reports.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cluster_loopback.h"
#include "cmocka_helpers.h"
#include "ncclcheck.h"
#include "cluster/run.h"
#include "launch/vars.h"
#include "net/sock.h"
#include "probe/probe.h"
#include "rules/launch_consistency.h"
#include "util/envmap.h"
#include "util/xalloc.h"

/* Every variable the launch rule reads is in the facts, so a peer's facts judge like its env. */
static void launch_vars_recorded(void **state)
{
	static const char *const kv[] = { "NNODES", "2", "LOCAL_WORLD_SIZE", "1", "WORLD_SIZE", "3",
					   NULL };
	struct envmap *em = envmap_new(NULL);
	struct probe_ctx ctx;
	struct launch_facts lf;
	struct findings *local = findings_new(), *judged = findings_new();
	json_t *facts = json_object(), *env;
	(void)state;

	for (int id = LV_NONE + 1; id < LV_COUNT; id++)
		envmap_set(em, lv_name(id), "1");
	probe_ctx_init(&ctx, em);
	probe_env(&ctx, facts);
	env = json_object_get(facts, "env");
	for (int id = LV_NONE + 1; id < LV_COUNT; id++)
		if (!json_is_string(json_object_get(env, lv_name(id))))
			fail_msg("probe_env does not record %s, which the launch rule reads", lv_name(id));
	json_decref(facts);
	envmap_free(em);

	/* the inconsistency of the lab test: found the same from the env and from the facts */
	em = envmap_new(NULL);
	for (const char *const *p = kv; *p; p += 2)
		envmap_set(em, p[0], p[1]);
	probe_ctx_init(&ctx, em);
	facts = json_object();
	probe_env(&ctx, facts);
	launch_facts_from_env(&lf, em, 0);
	rule_launch_consistency(&lf, local);
	rule_launch_env(facts, judged);
	assert_int_equal(local->n, 1);
	assert_string_equal(local->v[0]->id, "launch.world_size");
	assert_int_equal(judged->n, 1);
	assert_string_equal(judged->v[0]->id, "launch.world_size");
	assert_string_equal(judged->v[0]->title, local->v[0]->title);
	findings_free(local);
	findings_free(judged);
	json_decref(facts);
	envmap_free(em);
}

static const char *good =
	"{\"schema_version\":1,\"host\":{\"hostname\":\"n\"},\"net\":{\"interfaces\":["
	"{\"name\":\"lo\",\"up\":true,\"addrs\":[{\"addr\":\"127.0.0.1\",\"family\":4,"
	"\"class\":\"private\"}]}]},\"sysctl\":{\"ip_local_port_range\":[45000,45063]}}";

static json_t *probe(void *arg)
{
	struct node_run *nr = arg;
	json_t *f = json_lit(good);

	json_object_set_new(json_object_get(f, "host"), "hostname", json_string(nr->host));
	if (!strcmp(nr->host, "node-1"))
		json_object_set_new(f, "env", json_pack("{s:s, s:s, s:s}", "NNODES", "2",
							"LOCAL_WORLD_SIZE", "1", "WORLD_SIZE", "3"));
	return f;
}

static void every_node_reads_node1s_error(void **state)
{
	struct err e = ERR_INIT;
	int port = cluster_loopback_port();
	struct node_run nodes[2];
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct node_run *nr = &nodes[i];

		cluster_loopback_init(nr, i, 2, port, probe);
		nr->o.pings = 2;
		nr->o.mtu = nr->o.ports = nr->o.bw = 0;
		/* the master's node rules: here the launch rule alone (run gives rules_run_node) */
		nr->o.node_rules = rule_launch_node;
		cluster_loopback_start(nr);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(nodes[i].th, NULL);
	for (int i = 0; i < 2; i++) {
		struct findings *fs = findings_new();

		assert_non_null(nodes[i].report);
		assert_true(nodes[i].code == EXIT_CLEAN || nodes[i].code == EXIT_FINDINGS);
		assert_int_equal(cluster_report_node_findings(nodes[i].report, launch_consistency_id,
							      fs, &e), 0);
		/* node 0 learns node 1's error from the report, exactly as node 1 does */
		assert_int_equal(fs->n, 1);
		assert_string_equal(fs->v[0]->id, "launch.world_size");
		assert_int_equal(fs->v[0]->sev, SEV_ERROR);
		assert_string_equal(fs->v[0]->node, "node-1");
		assert_int_equal(fs->v[0]->nranks, 1);
		assert_int_equal(fs->v[0]->ranks[0], 1);
		findings_free(fs);
		json_decref(nodes[i].report);
	}
}

/* A report whose nodes[] a peer got wrong: refused whole, nothing half-added. */
static void bad_reports(void **state)
{
	static const struct { const char *json, *want; } bad[] = {
		{ "{}", "no 'nodes' array" },
		{ "{\"nodes\":{}}", "no 'nodes' array" },
		{ "{\"nodes\":[{\"name\":\"a\",\"findings\":[]}]}", "nodes.0 has no rank and name" },
		{ "{\"nodes\":[{\"rank\":0,\"findings\":[]}]}", "nodes.0 has no rank and name" },
		{ "{\"nodes\":[{\"rank\":5,\"name\":\"a\"}]}", "nodes.0 has no rank and name" },
		{ "{\"nodes\":[{\"rank\":0,\"name\":\"a\",\"findings\":{}}]}",
		  "of a (rank 0) are unreadable: not an array" },
		{ "{\"nodes\":[{\"rank\":0,\"name\":\"a\",\"findings\":[{\"id\":\"launch.world_size\","
		  "\"severity\":\"error\",\"title\":\"t\"}]},"
		  "{\"rank\":1,\"name\":\"b\",\"findings\":[{\"id\":7}]}]}",
		  "of b (rank 1) are unreadable" },
	};
	static const char *ok =
		"{\"nodes\":[{\"rank\":0,\"name\":\"a\"},{\"rank\":1,\"name\":\"b\",\"findings\":["
		"{\"id\":\"net.x\",\"severity\":\"error\",\"title\":\"other\"},"
		"{\"id\":\"launch.env.stale_ranks\",\"severity\":\"error\","
		"\"title\":\"another rule's\"},"
		"{\"id\":\"launch.gpus.hidden\",\"severity\":\"error\",\"title\":\"t\"}]}]}";
	struct findings *fs = findings_new();
	struct err e = ERR_INIT;
	json_t *j;
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		j = json_lit(bad[i].json);
		if (cluster_report_node_findings(j, launch_consistency_id, fs, &e) == 0)
			fail_msg("accepted: %s", bad[i].json);
		if (!strstr(e.msg, bad[i].want))
			fail_msg("'%s' lacks '%s'", e.msg, bad[i].want);
		assert_int_equal(fs->n, 0);
		json_decref(j);
	}
	j = json_lit(ok);
	assert_int_equal(cluster_report_node_findings(j, launch_consistency_id, fs, &e), 0);
	assert_int_equal(fs->n, 1);	/* only the launch rule's finding, about node b */
	assert_string_equal(fs->v[0]->id, "launch.gpus.hidden");
	assert_string_equal(fs->v[0]->node, "b");
	assert_int_equal(fs->v[0]->ranks[0], 1);
	json_decref(j);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(launch_vars_recorded),
		cmocka_unit_test(every_node_reads_node1s_error),
		cmocka_unit_test(bad_reports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
