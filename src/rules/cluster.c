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
	struct node_model **models = xcalloc(in->n ? in->n : 1, sizeof(*models));
	struct cluster_node *nodes = xcalloc(in->n ? in->n : 1, sizeof(*nodes));
	struct cluster_view v = { .nodes = nodes, .n = in->n, .links = in->links,
				  .nlinks = in->nlinks, .sampled = in->sampled,
				  .bw_alone = in->bw_alone, .nbw_alone = in->nbw_alone };
	struct err *why = xcalloc(in->n ? in->n : 1, sizeof(*why));
	size_t ok = 0;

	for (size_t i = 0; i < in->n; i++) {
		why[i] = (struct err)ERR_INIT;
		models[i] = in->facts[i] ? node_model_new(in->facts[i], &why[i]) : NULL;
		nodes[i] = (struct cluster_node){ .name = in->names[i], .rank = (int)i,
						   .m = models[i],
						   .boot_id = in->boot_ids ? in->boot_ids[i] : NULL };
		ok += models[i] != NULL;
	}
	/* measurements alone: whatever the models */
	xrule_bw(&v, out);
	xrule_link_results(&v, out);
	for (size_t i = 0; i < in->n; i++) {
		struct finding *f;

		if (models[i])
			continue;
		f = finding_add(out, SEV_ERROR, "cluster.peer.facts", "%s's facts cannot be judged: %s",
				in->names[i], why[i].msg[0] ? why[i].msg : "none arrived");
		finding_node(f, in->names[i]);
	}
	/* every rule indexes nodes by rank: judge only a complete set */
	if (ok == in->n) {
		cluster_rules_run(&v, out);
		for (size_t i = 0; in->node_findings && in->settled && i < in->n; i++)
			if (in->node_findings[i])
				cluster_settle(&v, i, in->node_findings[i], &in->settled[i]);
		cluster_fold(&v, out, in->node_findings, in->settled);
	}
	for (size_t i = 0; i < in->n; i++)
		node_model_free(models[i]);
	free(models);
	free(nodes);
	free(why);
}
