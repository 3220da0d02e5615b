/* rules_run_facts: see rules.h. */
#include "rules/rules.h"

#include "model/node.h"

struct node_model *rules_judge_facts(const json_t *facts, struct findings *out)
{
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(facts, &e);

	if (!m) {
		struct finding *f = finding_add(out, SEV_ERROR, "facts.invalid",
						"the facts cannot be judged: %s", e.msg);
		finding_why(f, "The rules run only on a validated model of the facts; a document "
			       "with members of the wrong type is rejected rather than half-used.");
		return NULL;
	}
	rules_run_node(m, out);
	return m;
}

void rules_run_facts(const json_t *facts, struct findings *out)
{
	node_model_free(rules_judge_facts(facts, out));
}
