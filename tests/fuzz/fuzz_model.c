/*
 * The facts boundary as `--facts FILE` and cluster peers meet it: arbitrary bytes through the
 * loader (size cap, strict JSON, schema_version), then the node model (typed checks), then every
 * node rule, the inventory and the model's "what if" on each interface. Anything accepted must be
 * safe to use whole; anything refused must say why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "facts/load.h"
#include "finding.h"
#include "model/node.h"
#include "report/inventory.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	struct render_opts ro;
	struct findings *fs;
	struct node_model *m;
	json_t *facts;
	FILE *sink;
	char fix[80];

	if (size > 1 << 20)
		return 0;
	facts = facts_load_bytes((const char *)data, size, &e);
	if (!facts) {
		if (!e.msg[0])
			abort();
		return 0;
	}
	m = node_model_new(facts, &e);
	if (!m) {
		if (!e.msg[0])
			abort();
		json_decref(facts);
		return 0;
	}
	fs = findings_new();
	rules_run_node(m, fs);
	findings_sort(fs);
	json_decref(findings_to_json(fs));
	findings_free(fs);
	for (size_t i = 0; i < m->ifs.in.naddrs; i++)
		(void)node_model_ifname_for(m, m->ifs.in.addrs[i].name, fix, sizeof(fix));
	memset(&ro, 0, sizeof(ro));
	sink = fopen("/dev/null", "w");
	if (sink) {
		render_inventory_text(sink, m, &ro);
		fclose(sink);
	}
	node_model_free(m);
	json_decref(facts);
	return 0;
}
