/*
 * What an interpreter prints (a shim's banner, a killed child's half line, a hostile
 * sitecustomize) goes through the Python probe's parser and then the stack rules.
 */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "probe/python.h"
#include "finding.h"
#include "model/node.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *entry = json_object(), *facts = json_object(), *arr = json_array();
	struct findings *fs;
	struct node_model *m;
	struct err e = ERR_INIT;

	if (size > 1 << 20) {
		json_decref(entry);
		json_decref(facts);
		json_decref(arr);
		return 0;
	}
	python_parse_output((const char *)data, size, entry, NULL);
	json_array_append_new(arr, entry);
	json_object_set_new(facts, "python", arr);
	/* the probe's own output must always make a model */
	m = node_model_new(facts, &e);
	if (!m)
		abort();
	fs = findings_new();
	rules_run_node(m, fs);
	findings_free(fs);
	node_model_free(m);
	json_decref(facts);
	return 0;
}
