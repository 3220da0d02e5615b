/* Inventory section for the cloud: the provider probe/cloud.c decided on and why, the instance
 * type and cloud fabric devices when known, and the hints when no provider was found. */
#include "report/inventory.h"

#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

void inv_cloud(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	const struct nm_cloud *c = &m->cloud;
	struct strbuf sb = STRBUF_INIT;

	if (!c->recorded)
		return;	/* a document from before the cloud probe */
	inv_heading(out, o, N_("Cloud"));
	if (c->unknown)
		inv_line(out, N_("provider"), N_("unknown (%s)"), c->unknown);
	else if (!c->provider)
		inv_line(out, N_("provider"), N_("unknown (%s)"), c->why ? c->why : "no signature");
	else
		inv_line(out, N_("provider"), "%s, by %s: %s", c->name ? c->name : c->provider,
			 c->method ? c->method : "?", c->evidence ? c->evidence : "?");
	if (c->instance_type)
		inv_line(out, N_("instance type"), "%s", c->instance_type);
	if (c->instance_id)
		inv_line(out, N_("instance id"), "%s", c->instance_id);
	for (size_t i = 0; i < c->nefa; i++)
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", c->efa[i]);
	if (sb.len)
		inv_line(out, N_("EFA"), "%s", sb.buf);
	strbuf_reset(&sb);
	for (size_t i = 0; i < c->nerdma; i++)
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", c->erdma[i]);
	if (sb.len)
		inv_line(out, N_("eRDMA"), "%s", sb.buf);
	/* with a verdict the hints repeat it; without one they are all there is */
	if (!c->provider || o->verbose)
		for (size_t i = 0; i < c->nhints; i++)
			if (c->hints[i])
				inv_line(out, i ? "" : N_("hints"), "%s", c->hints[i]);
	strbuf_release(&sb);
}
