/* The cross-node rule table: see cluster.h. */
#include "rules/cluster.h"

#include "rules/rules.h"
#include "util/xalloc.h"

static void (*const xrules[])(const struct cluster_view *, struct findings *) = {
	xrule_versions, xrule_settings, xrule_hosts, xrule_neigh, xrule_link_noise, xrule_links,
	xrule_verdict,
};

void cluster_rules_run(const struct cluster_view *v, struct findings *out)
{
	if (!v->n)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(xrules); i++)
		xrules[i](v, out);
}

void cluster_xrules(const struct cluster_input *in, struct findings *out)
{
	struct cluster_node *nodes = xcalloc(in->n ? in->n : 1, sizeof(*nodes));
	struct cluster_view v = { .nodes = nodes, .n = in->n, .links = in->links,
				  .nlinks = in->nlinks, .sampled = in->sampled,
				  .bw_alone = in->bw_alone, .nbw_alone = in->nbw_alone };
	size_t ok = 0;

	for (size_t i = 0; i < in->n; i++) {
		nodes[i] = (struct cluster_node){ .name = in->names[i], .rank = (int)i,
						   .m = in->models[i],
						   .boot_id = in->boot_ids ? in->boot_ids[i] : NULL };
		ok += in->models[i] != NULL;
	}
	/* measurements alone: whatever the models */
	xrule_bw(&v, out);
	xrule_link_results(&v, out);
	/*
	 * every rule indexes nodes by rank: judge only a complete set (a refused node's facts were
	 * reported where they were decoded, cluster.peer.facts)
	 */
	if (ok == in->n) {
		cluster_rules_run(&v, out);
		for (size_t i = 0; in->node_findings && in->settled && i < in->n; i++)
			if (in->node_findings[i])
				cluster_settle(&v, i, in->node_findings[i], &in->settled[i]);
		cluster_fold(&v, out, in->node_findings, in->settled);
	}
	free(nodes);
}
