/*
 * Every node but rank 0 prints the report document rank 0 sent it (cluster_report_text): the
 * node checks with their settled[] verdicts, the links and timings. Whatever that JSON holds —
 * members missing, of the wrong type, settled[] entries without strings — it must print, not
 * crash. run reads every node's launch findings out of it too (cluster_report_node_findings):
 * accepted or refused whole, never a crash or a leak.
 */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "cluster/run.h"
#include "report/cluster_text.h"
#include "rules/launch_consistency.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *doc;

	if (size > 1 << 20)
		return 0;
	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		return 0;
	{
		struct findings *fs = findings_new();
		struct err e = ERR_INIT;

		if (cluster_report_node_findings(doc, launch_consistency_id, fs, &e) < 0 && fs->n)
			abort();	/* refused: nothing may have been added */
		findings_free(fs);
	}
	for (int verbose = 0; verbose < 2; verbose++) {
		struct strbuf sb = STRBUF_INIT;

		cluster_report_text(doc, verbose, &sb);
		strbuf_release(&sb);
	}
	json_decref(doc);
	return 0;
}
