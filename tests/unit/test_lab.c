/* Unit tests for the lab's plan, names and parsers: no root, nothing touches the machine. */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "lab/plan.h"
#include "util/json.h"
#include "util/xalloc.h"

static struct lab_plan *plan(const char *prefix, int nodes, const char *scenario)
{
	struct err e = ERR_INIT;
	const struct lab_scenario *sc = lab_scenario_find(scenario);
	struct lab_plan *p;

	assert_non_null(sc);
	p = lab_plan_new(prefix, nodes, sc, 0, NULL, &e);
	if (!p)
		fail_msg("plan %s/%d/%s: %s", prefix, nodes, scenario, e.msg);
	return p;
}

/* Every interface name a batch line creates or touches, checked against IFNAMSIZ. */
static void check_names(const char *batch)
{
	static const char *const keys[] = { "link add ", "peer name ", " dev ", "link set " };
	char *copy = xstrdup(batch), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			const char *p = strstr(l, keys[k]);
			size_t n;

			if (!p)
				continue;
			p += strlen(keys[k]);
			n = strcspn(p, " ");
			if (n > 15)
				fail_msg("interface name longer than 15: '%.*s' in '%s'", (int)n, p, l);
		}
	}
	free(copy);
}

static void test_every_scenario_fits(void **state)
{
	size_t n;
	const struct lab_scenario *sc = lab_scenarios(&n);

	(void)state;
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++) {
		static const int sizes[] = { 1, 2, 3, 16, 64 };
		for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
			struct err e = ERR_INIT;
			struct lab_plan *p = lab_plan_new("abcdefghi", sizes[s], &sc[i], 1, NULL, &e);

			if (sizes[s] < sc[i].min_nodes) {
				assert_null(p);
				assert_int_equal(e.code, ERR_USAGE);
				continue;
			}
			assert_non_null(p);
			assert_true(sc[i].summary && sc[i].reproduces && sc[i].seed && sc[i].show);
			assert_non_null(strstr(sc[i].seed, "seed "));
			for (size_t j = 0; j < p->nns; j++) {
				const char *role;
				check_names(p->ns[j].ip.buf);
				assert_true(lab_ns_matches("abcdefghi", p->ns[j].name, &role));
				assert_string_equal(role, p->ns[j].role);
			}
			lab_plan_free(p);
		}
	}
}

static void test_names(void **state)
{
	const char *role = NULL;

	(void)state;
	assert_true(lab_ns_matches("ncl", "ncl-n0", &role));
	assert_string_equal(role, "n0");
	assert_true(lab_ns_matches("ncl", "ncl-n63", NULL));
	assert_true(lab_ns_matches("ncl", "ncl-hub", NULL));
	assert_true(lab_ns_matches("ncl", "ncl-rtr", NULL));
	assert_true(lab_ns_matches("ncl", "ncl-core", NULL));
	assert_false(lab_ns_matches("ncl", "ncl-n00", NULL));
	assert_false(lab_ns_matches("ncl", "ncl-n", NULL));
	assert_false(lab_ns_matches("ncl", "ncl-n1x", NULL));
	assert_false(lab_ns_matches("ncl", "ncl-n123", NULL));
	assert_false(lab_ns_matches("ncl", "ncl-other", NULL));
	assert_false(lab_ns_matches("ncl", "nclx-n0", NULL));
	assert_false(lab_ns_matches("ncl", "ncl-n1-n0", NULL));
	assert_false(lab_ns_matches("ncl", "ncl", NULL));
	assert_true(lab_ns_matches("a-b", "a-b-n1", NULL));

	assert_true(lab_link_matches("ncl", "ncl-pub"));
	assert_true(lab_link_matches("ncl", "ncl-priv"));
	assert_true(lab_link_matches("ncl", "ncl-wan"));
	assert_true(lab_link_matches("ncl", "ncl-wanc"));
	assert_true(lab_link_matches("ncl", "ncl-n3e0"));
	assert_true(lab_link_matches("ncl", "ncl-n63e1"));
	assert_true(lab_link_matches("ncl", "ncl-n0rt"));
	assert_false(lab_link_matches("ncl", "ncl-n3e2"));
	assert_false(lab_link_matches("ncl", "ncl-keep"));
	assert_false(lab_link_matches("ncl", "ncl-e0"));
	assert_false(lab_link_matches("ncl", "ncl-ne0"));
	assert_false(lab_link_matches("ncl", "eth0"));
	assert_false(lab_link_matches("ncl", "ncl2-pub"));

	assert_int_equal(lab_prefix_check("ncl", NULL), 0);
	assert_int_equal(lab_prefix_check("nct3-abcd", NULL), 0);
	assert_int_equal(lab_prefix_check("a", NULL), 0);
	assert_int_equal(lab_prefix_check("", NULL), -1);
	assert_int_equal(lab_prefix_check("nct3-abcde", NULL), -1);
	assert_int_equal(lab_prefix_check("Ncl", NULL), -1);
	assert_int_equal(lab_prefix_check("1ncl", NULL), -1);
	assert_int_equal(lab_prefix_check("ncl-", NULL), -1);
	assert_int_equal(lab_prefix_check("n/cl", NULL), -1);
	assert_int_equal(lab_prefix_check("n.l", NULL), -1);
}

static void test_healthy_layout(void **state)
{
	struct lab_plan *p = plan("ncl", 2, "healthy");
	int hub = lab_plan_ns(p, "hub"), n1 = lab_plan_ns(p, "n1");
	const char *hb, *e0, *e1;

	(void)state;
	assert_int_equal(p->nns, 3);
	assert_int_equal(lab_plan_ns(p, "rtr"), -1);
	assert_string_equal(p->master_addr, "10.10.0.10");
	assert_int_equal(p->master_port, 29500);
	assert_string_equal(p->node[1].eth0, "203.0.113.11/24");
	assert_string_equal(p->node[1].eth1, "10.10.0.11/24");
	/* the hub creates eth0 before eth1 for each node: NCCL sees them in that order */
	hb = p->ns[hub].ip.buf;
	e0 = strstr(hb, "link add ncl-n1e0 type veth peer name eth0 netns ncl-n1");
	e1 = strstr(hb, "link add ncl-n1e1 type veth peer name eth1 netns ncl-n1");
	assert_non_null(e0);
	assert_non_null(e1);
	assert_true(e0 < e1);
	assert_int_equal(p->ns[hub].phase, LAB_PHASE_CREATE);
	assert_int_equal(p->ns[n1].phase, LAB_PHASE_CONFIG);
	assert_non_null(strstr(p->ns[n1].ip.buf, "addr add 10.10.0.11/24 dev eth1\n"));
	assert_non_null(strstr(p->ns[n1].sysctl.buf, "net/ipv4/ip_local_port_range=32768 60999\n"));
	assert_null(strstr(p->ns[n1].ip.buf, "docker0"));
	assert_int_equal(p->ns[n1].ipt.len, 0);
	assert_int_equal(json_array_size(p->faults), 0);
	assert_non_null(strstr(p->node[1].env.buf, "MASTER_ADDR=10.10.0.10\n"));
	assert_non_null(strstr(p->node[1].env.buf, "NODE_RANK=1\n"));
	assert_non_null(strstr(p->node[1].env.buf, "NNODES=2\n"));
	assert_non_null(strstr(p->node[1].hosts.buf, "10.10.0.10\tncl-n0\n"));
	assert_non_null(strstr(p->node[1].hosts.buf, "10.10.0.11\tncl-n1\n"));
	lab_plan_free(p);
}

static void test_faults(void **state)
{
	struct lab_plan *p;
	int rtr, core;

	(void)state;
	p = plan("ncl", 2, "cloud-public-blocked");
	assert_string_equal(p->ns[lab_plan_ns(p, "n0")].ipt.buf,
			    "-A INPUT -i eth0 -p tcp -s 203.0.113.0/24 -j DROP\n");
	assert_int_equal(json_array_size(p->faults), 2);
	lab_plan_free(p);

	p = plan("ncl", 2, "cloud-public-reject");
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n1")].ipt.buf, "--syn"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n1")].ipt.buf, "REJECT --reject-with tcp-reset"));
	lab_plan_free(p);

	p = plan("ncl", 2, "firewall-port-range");
	assert_string_equal(p->ns[lab_plan_ns(p, "n0")].ipt.buf,
			    "-A INPUT ! -i lo -p tcp --syn --dport 29500 -j ACCEPT\n"
			    "-A INPUT ! -i lo -p tcp --syn --dport 49152:65535 -j ACCEPT\n"
			    "-A INPUT ! -i lo -p tcp --syn -j DROP\n");
	lab_plan_free(p);

	p = plan("ncl", 2, "docker0-duplicate");
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n1")].ip.buf, "addr add 172.17.0.1/16 dev docker0"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n0")].ip.buf, "addr add 172.17.0.1/16 dev docker0"));
	lab_plan_free(p);

	p = plan("ncl", 3, "mtu-blackhole");
	rtr = lab_plan_ns(p, "rtr");
	core = lab_plan_ns(p, "core");
	assert_true(rtr > 0 && core > 0);
	assert_int_equal(p->node[2].eth1_mtu, 9000);
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "hub")].ip.buf,
			       "link add ncl-n2rt mtu 9000 type veth peer name eth1 mtu 9000 netns ncl-n2"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "hub")].ip.buf,
			       "link add ncl-wan mtu 1500 type veth peer name ncl-wanc mtu 1500 netns ncl-core"));
	assert_null(strstr(p->ns[lab_plan_ns(p, "hub")].ip.buf, "ncl-priv"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n2")].ip.buf,
			       "route add 10.10.0.0/24 via 10.10.0.1 dev eth1 onlink"));
	assert_non_null(strstr(p->ns[rtr].ipt.buf, "--icmp-type fragmentation-needed -j DROP"));
	assert_non_null(strstr(p->ns[rtr].sysctl.buf, "net/ipv4/ip_forward=1"));
	assert_non_null(strstr(p->ns[core].sysctl.buf, "net/ipv4/conf/default/rp_filter=0"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n0")].sysctl.buf, "net/ipv4/tcp_mtu_probing=0"));
	lab_plan_free(p);

	p = plan("ncl", 3, "slow-link");
	assert_null(strstr(p->ns[lab_plan_ns(p, "n1")].tc.buf, "tbf"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "n2")].tc.buf, "qdisc add dev eth1 root tbf rate 100mbit"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "hub")].tc.buf, "qdisc add dev ncl-n2e1 root tbf"));
	assert_non_null(strstr(p->ns[lab_plan_ns(p, "hub")].tc.buf, "qdisc add dev ncl-n2e0 root tbf"));
	lab_plan_free(p);

	p = plan("ncl", 3, "dns-broken");
	assert_string_equal(p->master_addr, "ncl-n0");
	assert_non_null(strstr(p->node[1].env.buf, "MASTER_ADDR=ncl-n0\n"));
	assert_non_null(strstr(p->node[1].hosts.buf, "\tncl-n0\n"));
	assert_null(strstr(p->node[2].hosts.buf, "\tncl-n0\n"));
	assert_non_null(strstr(p->node[2].hosts.buf, "\tncl-n1\n"));
	lab_plan_free(p);
}

static int collect(void *arg, const char *name, const char *value)
{
	struct strbuf *sb = arg;

	strbuf_addf(sb, "[%s=%s]", name, value);
	return 0;
}

static void test_env_parse(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	const char ok[] = "# comment\nMASTER_ADDR=10.10.0.10\n\nNODE_RANK=1\nEMPTY=\nA_1=x=y";

	(void)state;
	assert_int_equal(lab_env_parse(ok, strlen(ok), collect, &sb, &e), 0);
	assert_string_equal(sb.buf, "[MASTER_ADDR=10.10.0.10][NODE_RANK=1][EMPTY=][A_1=x=y]");
	strbuf_reset(&sb);
	assert_int_equal(lab_env_parse("1A=x\n", 5, collect, &sb, &e), -1);
	assert_int_equal(lab_env_parse("A-B=x\n", 6, collect, &sb, &e), -1);
	assert_int_equal(e.code, ERR_PARSE);
	assert_non_null(strstr(e.msg, "line 1"));
	assert_int_equal(lab_env_parse("A=1\nnoequals\n", 13, collect, &sb, &e), -1);
	assert_non_null(strstr(e.msg, "line 2"));
	assert_int_equal(lab_env_parse("=x\n", 3, collect, &sb, &e), -1);
	assert_int_equal(lab_env_parse("A=\0x\n", 5, collect, &sb, &e), -1);
	assert_int_equal(lab_env_parse("", 0, collect, &sb, &e), 0);
	strbuf_release(&sb);
}

static void test_state_roundtrip(void **state)
{
	struct lab_plan *p = plan("nct4", 2, "mtu-blackhole");
	json_t *doc = lab_plan_to_json(p), *back, *bad;
	char *text = json_dumps(doc, 0);
	struct err e = ERR_INIT;

	(void)state;
	back = lab_state_parse(text, strlen(text), &e);
	assert_non_null(back);
	assert_string_equal(jpath_str(back, "scenario"), "mtu-blackhole");
	assert_string_equal(jpath_str(back, "nodes.1.eth1"), "10.10.0.11/24");
	assert_int_equal(jpath_int(back, "nodes.1.eth1_mtu", 0), 9000);
	assert_string_equal(jpath_str(back, "namespaces.1"), "nct4-rtr");
	assert_true(json_array_size(json_object_get(back, "faults")) > 2);

	/* a state file may only name the lab's own namespaces */
	bad = json_deep_copy(doc);
	json_array_append_new(json_object_get(bad, "namespaces"), json_string("other-ns"));
	free(text);
	text = json_dumps(bad, 0);
	assert_null(lab_state_parse(text, strlen(text), &e));
	assert_int_equal(e.code, ERR_PARSE);
	json_decref(bad);

	assert_null(lab_state_parse("[]", 2, &e));
	assert_null(lab_state_parse("{\"version\":1}", 13, &e));
	assert_null(lab_state_parse("not json", 8, &e));
	json_decref(back);
	json_decref(doc);
	free(text);
	lab_plan_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_scenario_fits),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_healthy_layout),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_env_parse),
		cmocka_unit_test(test_state_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
