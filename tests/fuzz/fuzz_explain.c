/*
 * Logs are arbitrary bytes from users: the whole explain pipeline (line reader, prefix stripper,
 * extractor, signatures, cross-rank reasoner, JSON payload) must survive any input. The input is
 * split into up to three "files" at 0xff bytes so that cross-input reasoning is exercised too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "explain/explain.h"
#include "finding.h"
#include "report/explain_text.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "rank0.log", "rank1.log", "node.log" };
	struct explain_opts o = { NULL };
	struct explain *x;
	struct findings *fs;
	json_t *payload, *doc;
	struct strbuf sb = STRBUF_INIT;
	size_t off = 0;

	if (size > 1 << 20)
		return 0;
	if (size && data[0] == '@')	/* exercise --master-addr */
		o.master_addr = "10.0.0.1";
	x = explain_new(&o);
	for (int f = 0; f < 3 && off <= size; f++) {
		const uint8_t *sep = memchr(data + off, 0xff, size - off);
		size_t n = sep ? (size_t)(sep - (data + off)) : size - off;
		/* a small line cap so the long-line path runs on small inputs */
		struct lreader *r = lreader_mem(data + off, n, f == 2 ? 64 : EXPLAIN_MAX_LINE);
		struct err e = ERR_INIT;
		explain_feed(x, names[f], r, &e);
		lreader_free(r);
		off += n + 1;
		if (!sep)
			break;
	}
	fs = findings_new();
	payload = explain_finish(x, fs);
	render_explain_ranks(payload, &sb);
	doc = json_pack("{s:O}", "p", payload);
	free(json_dumps(doc, 0));
	json_decref(doc);
	json_decref(findings_to_json(fs));
	strbuf_release(&sb);
	json_decref(payload);
	findings_free(fs);
	explain_free(x);
	return 0;
}
