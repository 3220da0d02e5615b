/* The rule table: every single-node rule, in the order its findings read best. */
#include "rules/rules.h"

#include "rules/launch_consistency.h"

static const struct rule rules_node[] = {
	{ "facts", rule_facts_health },
	{ "compat_driver", rule_compat_driver },
	{ "compat_toolkit", rule_compat_toolkit },
	{ "compat_cudnn", rule_compat_cudnn },
	{ "cpu_affinity", rule_cpu_affinity },
	{ "supply", rule_supply },
	{ "compat_stack", rule_compat_stack },
	{ "launcher_env", rule_launcher_env },
	{ "launch", rule_launch_node },
	{ "resources", rule_resources },
	{ "nccl_env", rule_nccl_env },
	{ "other_ccl", rule_other_ccl },
	{ "net_iface", rule_net_iface },
	{ "net_ports", rule_net_ports },
	{ "host_limits", rule_host_limits },
	{ "rdma", rule_rdma },
	{ "mtu", rule_mtu },
	{ "cloud", rule_cloud },
};

void rules_run_node(const struct node_model *m, struct findings *out)
{
	for (size_t i = 0; i < sizeof(rules_node) / sizeof(rules_node[0]); i++)
		rules_node[i].fn(m, out);
}
