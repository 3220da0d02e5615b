/*
 * `config --from FILE` / `run --from FILE` read saved documents a user hands over, and
 * `config --check FILE` reads batch scripts and Trainer calls: the document decoder, the
 * recommendation's lint, every writer and the launcher scan must survive any bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "emit/emit.h"
#include "finding.h"
#include "rules/launch_consistency.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_all(const struct recommendation *rec)
{
	struct strbuf sb = STRBUF_INIT;

	emit_env(&sb, rec);
	emit_torchrun(&sb, rec, rec->nodes - 1);
	emit_torchrun_c10d(&sb, rec);
	emit_lightning(&sb, rec);
	emit_sbatch(&sb, rec);
	emit_taskprolog(&sb, rec);
	emit_mpirun(&sb, rec);
	emit_k8s(&sb, rec);
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct launch_facts lf;
	struct findings *fs;
	struct recommendation *rec;
	struct err e = ERR_INIT;
	json_error_t jerr;
	json_t *doc;
	char *text;

	if (size > 1 << 20)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	launch_facts_init(&lf);
	launch_scan_text(&lf, text);
	fs = findings_new();
	rule_launch_consistency(&lf, fs);
	findings_free(fs);
	free(text);

	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		return 0;
	rec = rec_new();
	fs = findings_new();
	if (rec_from_doc(rec, doc, fs, &e) == 0) {
		rec_from_findings(rec, fs);
		rec_apply_cloud(rec, EMIT_CLOUD_OCI);
		rec_defaults(rec);
		if (rec_check(rec, &e) == 0) {
			json_decref(rec_to_json(rec));
			write_all(rec);
		}
	}
	findings_free(fs);
	rec_free(rec);
	json_decref(doc);
	return 0;
}
