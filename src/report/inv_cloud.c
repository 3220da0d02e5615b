/* Inventory section for the cloud: the provider probe/cloud.c decided on and why, the instance
 * type and cloud fabric devices when known, and the hints when no provider was found. */
#include "report/inventory.h"

#include <string.h>

#include "util/json.h"
#include "util/strbuf.h"


void inv_cloud(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	const json_t *facts = m->facts;

	const json_t *c = json_object_get(facts, "cloud"), *h;
	const char *p = jpath_str(c, "provider");
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!json_is_object(c) || !p)
		return;	/* a document from before the cloud probe */
	inv_heading(out, o, "Cloud");
	if (junknown(c))
		inv_line(out, "provider", "unknown (%s)", junknown(c));
	else if (!strcmp(p, "unknown"))
		inv_line(out, "provider", "unknown (%s)", jpath_str(c, "why") ? jpath_str(c, "why") : "no signature");
	else
		inv_line(out, "provider", "%s, by %s: %s", jpath_str(c, "name") ? jpath_str(c, "name") : p,
			 jpath_str(c, "method") ? jpath_str(c, "method") : "?",
			 jpath_str(c, "evidence") ? jpath_str(c, "evidence") : "?");
	if (jpath_str(c, "instance_type"))
		inv_line(out, "instance type", "%s", jpath_str(c, "instance_type"));
	jarr_join(json_object_get(c, "efa"), &sb);
	if (sb.len)
		inv_line(out, "EFA", "%s", sb.buf);
	strbuf_reset(&sb);
	jarr_join(json_object_get(c, "erdma"), &sb);
	if (sb.len)
		inv_line(out, "eRDMA", "%s", sb.buf);
	/* with a verdict the hints repeat it; without one they are all there is */
	if (!strcmp(p, "unknown") || o->verbose)
		json_array_foreach(json_object_get(c, "hints"), i, h)
			if (json_is_string(h))
				inv_line(out, i ? "" : "hints", "%s", json_string_value(h));
	strbuf_release(&sb);
}
