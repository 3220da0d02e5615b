/* The rule table: every single-node rule, in the order its findings read best. */
#include "rules/rules.h"

const struct rule rules_node[] = {
	{ "facts", rule_facts_health },
	{ "compat_driver", rule_compat_driver },
	{ "compat_toolkit", rule_compat_toolkit },
	{ "compat_cudnn", rule_compat_cudnn },
	{ "gpu_topology", rule_gpu_topology },
	{ "compat_stack", rule_compat_stack },
	{ "launcher_env", rule_launcher_env },
	{ "resources", rule_resources },
	{ "nccl_env", rule_nccl_env },
	{ "net", rule_net },
	{ "mtu", rule_mtu },
	{ "cloud", rule_cloud },
};
const unsigned rules_node_count = sizeof(rules_node) / sizeof(rules_node[0]);

void rules_run_node(const json_t *facts, struct findings *out)
{
	for (unsigned i = 0; i < rules_node_count; i++)
		rules_node[i].fn(facts, out);
}
