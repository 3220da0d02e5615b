/* Sanity of the facts document itself: a saved document from another tool version, or one cut short. */
#include "rules/rules.h"

#include "probe/probe.h"
#include "util/i18n.h"

void rule_facts_health(const struct node_model *m, struct findings *out)
{
	long long v = m->schema_version;
	struct finding *f;

	if (v != FACTS_SCHEMA_VERSION) {
		f = finding_add(out, SEV_WARN, "facts.schema",
				"facts document has schema_version %lld; this ncclcheck reads %d", v,
				FACTS_SCHEMA_VERSION);
		finding_why(f, "verdicts on facts of another schema may be wrong or missing");
		finding_fix(f, N_("ncclcheck node --json > facts.json   # re-collect with this version"));
	}
}
