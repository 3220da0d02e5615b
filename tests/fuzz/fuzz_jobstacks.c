/*
 * attach --all-nodes: the master decodes each worker's stack summary, a peer's bytes. Here they
 * are anything at all: the JSON they parse to goes through the decoder, and what it accepts
 * through the groups and their JSON, as the master's report does.
 */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "attach/jobstacks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct js_node nodes[2] = { { .node = 0, .name = "a" }, { .node = 1, .name = "b" } };
	struct js_group *g;
	struct err e = ERR_INIT;
	json_t *j, *out;
	size_t ng;

	if (size > 1 << 20)
		return 0;
	j = json_loadb((const char *)data, size, JSON_ALLOW_NUL, NULL);
	if (!j)
		return 0;
	if (js_decode(j, &nodes[0], &e) == 0) {
		/* a second node with the same ranks: groups across nodes, and back on the wire */
		out = js_encode(nodes[0].v, nodes[0].n);
		if (js_decode(out, &nodes[1], &e) < 0)
			abort();	/* what the decoder accepted, encoded again, must decode */
		json_decref(out);
		ng = js_groups(nodes, 2, &g);
		json_decref(js_groups_json(nodes, g, ng));
		js_groups_release(g, ng);
		js_node_release(&nodes[1]);
	}
	js_node_release(&nodes[0]);
	json_decref(j);
	return 0;
}
