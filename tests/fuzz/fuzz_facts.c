/*
 * Facts documents come from files users pass (--facts) and from peers over the wire (cluster):
 * every rule must survive any JSON, and the loader any bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "finding.h"
#include "model/node.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *facts;
	struct findings *fs;
	struct node_model *m;
	struct err e = ERR_INIT;

	if (size > 1 << 20)
		return 0;
	facts = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (!facts)
		return 0;
	/* any JSON: the model takes it or refuses it with a reason, and the rules survive what it takes */
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
	node_model_free(m);
	json_decref(facts);
	return 0;
}
