/* The cross-node rule table: see cluster.h. */
#include "rules/cluster.h"

#include "util/xalloc.h"

static void (*const xrules[])(const struct cluster_view *, struct findings *) = {
	xrule_versions, xrule_settings, xrule_hosts, xrule_links, xrule_verdict,
};

void cluster_rules_run(const struct cluster_view *v, struct findings *out)
{
	if (!v->n)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(xrules); i++)
		xrules[i](v, out);
}
