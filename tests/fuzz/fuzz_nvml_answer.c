/*
 * The NVML child's answer is parsed by the parent after a library we do not control ran in the
 * child: it may be cut short, garbled or hostile. The merge must keep facts well-formed, and the
 * driver rules must survive whatever facts come out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "probe/gpu.h"
#include "finding.h"
#include "report/inventory.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *facts, *kmod;
	struct findings *fs;
	struct node_model *m;
	struct err e = ERR_INIT;
	struct render_opts ro = { .verbose = 1 };
	FILE *null;

	if (size > 1 << 20)
		return 0;
	facts = json_object();
	kmod = size && data[0] & 1 ? json_pack("{s:b,s:s}", "loaded", 1, "version", "575.57.08") : NULL;
	nvml_answer_merge(facts, (const char *)data, size, kmod, size && data[0] & 2 ? "crashed (signal 11)" : NULL);
	/* the probe's own output must always make a model */
	m = node_model_new(facts, &e);
	if (!m)
		abort();
	fs = findings_new();
	rule_compat_driver(m, fs);
	rule_compat_cudnn(m, fs);
	findings_free(fs);
	null = fopen("/dev/null", "w");
	if (null) {
		inv_gpu(null, m, &ro);
		fclose(null);
	}
	node_model_free(m);
	json_decref(kmod);
	json_decref(facts);
	return 0;
}
