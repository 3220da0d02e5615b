/*
 * No fix leaves a value for the user to fill in. Every node rule runs on rich facts (a lab node's
 * real facts, tests/fixtures/facts/cluster/lab-n0.json) under scenarios that reach each fix that
 * once printed "<id>", "<sg-id>", "<peer's IP address>", "<interface>", ...; every fix line and
 * every setting value is scanned for an "<word ...>" placeholder. Each scenario must also produce
 * the finding it is there for, so that the scan cannot pass by reaching nothing.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "rules/launch_consistency.h"
#include "rules/rules.h"
#include "util/json.h"

/*
 * Findings allowed a placeholder, each with its reason. A secret is the user's to make: a
 * setting value in angle brackets is never written as a value nor applied (finding.h).
 */
static const struct {
	const char *id;
	const char *why;
} allowed[] = {
	{ "cluster.auth.none", "the token is a secret the user makes; its setting is a placeholder "
			       "by design, and its fix line prints the real value" },
};

/* The first "<word...>" in `s` (a letter right after '<', a '>' before the next '<'), or NULL. */
static const char *placeholder(const char *s)
{
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		const char *end = strpbrk(p + 1, "<>");

		if (((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')) && end && *end == '>')
			return p;
	}
	return NULL;
}

static int is_allowed(const char *id)
{
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (!strcmp(allowed[i].id, id))
			return 1;
	return 0;
}

static void scan(const struct findings *fs, const char *scenario)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = fs->v[i];

		if (is_allowed(f->id))
			continue;
		for (size_t j = 0; j < f->nfix; j++)
			if (placeholder(f->fix[j]))
				fail_msg("%s: %s leaves a placeholder in its fix: %s", scenario, f->id,
					 f->fix[j]);
		for (size_t j = 0; j < f->nsettings; j++)
			if (f->settings[j].value && placeholder(f->settings[j].value))
				fail_msg("%s: %s recommends %s=%s", scenario, f->id, f->settings[j].name,
					 f->settings[j].value);
	}
}

/* The scanner itself: what it must catch and what it must let through. */
static void detector(void **state)
{
	(void)state;
	assert_non_null(placeholder("aws ec2 describe-instances --instance-ids <id> --query x"));
	assert_non_null(placeholder("ping -M do -s 8472 <peer's IP address>"));
	assert_non_null(placeholder("export MASTER_ADDR=<rank 0's private IP address>"));
	assert_null(placeholder("find / -xdev -name 'libnccl-net-ofi.so*' 2>/dev/null"));
	assert_null(placeholder("sort < in > out"));
	assert_null(placeholder("a <=b and c> d"));
}

#define MASTER_REMOTE "\"master\": {\"set\": true, \"addr\": \"10.10.0.11\", \"resolved\": \"10.10.0.11\", " \
	"\"local\": false, \"source_addr\": \"10.10.0.10\", \"source_ifname\": \"eth1\", \"port\": 29500}"
#define NO_CONTAINER "\"host\": {\"container\": {\"kind\": \"none\"}}"
#define IB_ACTIVE "\"rdma\": {\"devices\": [{\"name\": \"mlx5_ib0\", \"netdevs\": [\"ib0\"], \"ports\": " \
	"[{\"port\": 1, \"state\": \"ACTIVE\", \"link_layer\": \"InfiniBand\"}]}]}"
#define LO_DOWN "{\"ifname\": \"lo\", \"family\": 4, \"addr\": \"127.0.0.1\", \"prefixlen\": 8, " \
	"\"flags\": {\"running\": false}}"

/* A scenario: facts merged over the lab node's, and the findings it is there to reach. */
static const struct {
	const char *name;
	const char *overlay;
	const char *expect[4];
} scenarios[] = {
	{ "lab node as collected", "{}", { "net.nccl.bootstrap" } },
	{ "AWS p5 with EFA, no instance id (Xen)",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"aws\", \"instance_type\": \"p5.48xlarge\", "
	  "\"efa\": [\"rdmap16s27\"]}, \"nccl\": {\"net_plugin\": {\"state\": \"internal\"}, \"plugins\": []}}",
	  { "cloud.aws.efa_plugin", "cloud.aws.placement", "cloud.aws.security_group" } },
	{ "AWS p5 without EFA, instance id from DMI",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"aws\", \"instance_type\": \"p5.48xlarge\", "
	  "\"instance_id\": \"i-0af01c0123456789a\", \"efa\": []}}",
	  { "cloud.aws.no_efa", "cloud.aws.security_group" } },
	{ "AWS, no address and no instance id",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"aws\", \"efa\": [\"rdmap16s27\"]}, "
	  "\"net\": {\"ifaddrs\": [], \"master\": {\"set\": false}}}",
	  { "cloud.aws.placement", "cloud.aws.security_group" } },
	{ "Alibaba, rank 0 elsewhere",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"alibaba\"}, \"net\": {" MASTER_REMOTE "}}",
	  { "cloud.alibaba.mtu", "cloud.alibaba.src_dst_check" } },
	{ "Alibaba, rank 0 here",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"alibaba\"}}",
	  { "cloud.alibaba.mtu", "cloud.alibaba.src_dst_check" } },
	{ "Alibaba, no MASTER_ADDR",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"alibaba\"}, \"net\": {\"master\": {\"set\": false}}}",
	  { "cloud.alibaba.mtu", "cloud.alibaba.src_dst_check" } },
	{ "AutoDL, no MASTER_ADDR",
	  "{\"cloud\": {\"provider\": \"autodl\"}, \"net\": {\"master\": {\"set\": false}}}",
	  { "cloud.autodl.private_nic" } },
	{ "AutoDL, rank 0 elsewhere",
	  "{\"cloud\": {\"provider\": \"autodl\"}, \"net\": {" MASTER_REMOTE "}}",
	  { "cloud.autodl.private_nic" } },
	{ "GCP, virtio-net and a bridge above the VPC's MTU",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"gcp\"}, \"net\": {\"default_route\": "
	  "{\"present\": true, \"ifname\": \"eth1\"}, \"interfaces\": [{\"name\": \"eth1\", \"kind\": \"physical\", "
	  "\"driver\": \"virtio_net\", \"up\": true, \"mtu\": 1460}, {\"name\": \"docker0\", \"kind\": \"docker\", "
	  "\"up\": true, \"mtu\": 1500}]}}",
	  { "cloud.gcp.mtu", "cloud.gcp.gvnic" } },
	{ "Azure InfiniBand, GPU unknown",
	  "{" NO_CONTAINER ", \"cloud\": {\"provider\": \"azure\"}, \"gpus\": [], " IB_ACTIVE "}",
	  { "cloud.azure.nccl_conf" } },
	{ "MASTER_ADDR on loopback",
	  "{\"net\": {\"master\": {\"set\": true, \"addr\": \"127.0.0.1\", \"resolved\": \"127.0.0.1\", "
	  "\"source_addr\": \"127.0.0.1\", \"source_ifname\": \"lo\", \"local\": true}}}",
	  { "net.master.loopback" } },
	{ "MASTER_ADDR on loopback, two private addresses",
	  "{\"net\": {\"master\": {\"set\": true, \"addr\": \"127.0.0.1\", \"resolved\": \"127.0.0.1\", "
	  "\"source_addr\": \"127.0.0.1\", \"source_ifname\": \"lo\", \"local\": true}, \"ifaddrs\": ["
	  "{\"ifname\": \"lo\", \"family\": 4, \"addr\": \"127.0.0.1\", \"prefixlen\": 8, \"flags\": {\"running\": true}},"
	  "{\"ifname\": \"eth0\", \"family\": 4, \"addr\": \"203.0.113.10\", \"prefixlen\": 24, \"flags\": {\"running\": true}},"
	  "{\"ifname\": \"eth1\", \"family\": 4, \"addr\": \"10.10.0.10\", \"prefixlen\": 24, \"flags\": {\"running\": true}},"
	  "{\"ifname\": \"eth2\", \"family\": 4, \"addr\": \"10.20.0.10\", \"prefixlen\": 24, \"flags\": {\"running\": true}}]}}",
	  { "net.master.loopback" } },
	{ "MASTER_ADDR unresolved, another machine",
	  "{\"net\": {\"master\": {\"set\": true, \"addr\": \"node0\", \"resolved\": {\"unknown\": \"no such name\"}}}}",
	  { "net.master.unresolved" } },
	{ "MASTER_ADDR unresolved, this machine's own name",
	  "{\"net\": {\"master\": {\"set\": true, \"addr\": \"xr1-n0\", \"resolved\": {\"unknown\": \"no such name\"}}}}",
	  { "net.master.unresolved" } },
	{ "no running interface",
	  "{\"net\": {\"ifaddrs\": [" LO_DOWN ", {\"ifname\": \"eth1\", \"family\": 4, \"addr\": \"10.10.0.10\", "
	  "\"prefixlen\": 24, \"flags\": {\"running\": false}}], \"master\": {\"set\": false}}}",
	  { "net.nccl.no_interface" } },
	{ "no interface with an address",
	  "{\"net\": {\"ifaddrs\": [" LO_DOWN "], \"master\": {\"set\": false}}}",
	  { "net.nccl.no_interface" } },
	{ "net plugin not found",
	  "{\"nccl\": {\"net_plugin\": {\"env\": \"ofi\", \"state\": \"missing\"}}}",
	  { "nccl.net_plugin.missing" } },
	{ "host name 'localhost'",
	  "{\"hostname_resolution\": {\"name\": \"localhost\", \"addrs\": [\"127.0.0.1\"], \"loopback\": true}}",
	  { "net.hostname.loopback" } },
	{ "jumbo MTU, no MASTER_ADDR",
	  "{\"net\": {\"master\": {\"set\": false}, \"interfaces\": [{\"name\": \"eth1\", \"kind\": \"physical\", "
	  "\"up\": true, \"mtu\": 9001}]}}",
	  { "net.mtu.jumbo" } },
};

static void node_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		json_t *facts = load_fixture_json("facts/cluster/lab-n0.json");
		json_t *over = json_lit(scenarios[i].overlay);
		struct node_model *m;
		struct findings *fs = findings_new();

		assert_int_equal(json_object_update_recursive(facts, over), 0);
		m = model_of(facts);
		rules_run_node(m, fs);
		for (size_t j = 0; j < 4 && scenarios[i].expect[j]; j++)
			if (!findings_find(fs, scenarios[i].expect[j]))
				fail_msg("%s: no finding '%s' to scan", scenarios[i].name, scenarios[i].expect[j]);
		scan(fs, scenarios[i].name);
		findings_free(fs);
		node_model_free(m);
		json_decref(over);
		json_decref(facts);
	}
}

/* The batch-script checks: a node without GPUs (a login node) and one with them. */
static void launch_rules(void **state)
{
	static const char *const scripts[] = {
		"#!/bin/sh\n#SBATCH -N 2\npython3 train.py\n",
		"#!/bin/bash\n#SBATCH --nodes=2\nsrun torchrun --nproc_per_node=8 train.py\n",
	};

	(void)state;
	for (int gpus = 0; gpus <= 8; gpus += 8)
		for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
			struct launch_facts lf;
			struct findings *fs = findings_new();

			launch_facts_init(&lf);
			launch_scan_text(&lf, scripts[i]);
			lf.gpus_on_node = gpus;
			rule_launch_consistency(&lf, fs);
			assert_true(fs->n > 0);
			scan(fs, scripts[i]);
			findings_free(fs);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(detector),
		cmocka_unit_test(node_rules),
		cmocka_unit_test(launch_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
