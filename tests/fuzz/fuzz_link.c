/*
 * The link tests' peer-facing decoders (requests, readies, results: what a hostile node can send
 * through the cluster's protocol or bench p2p's control connection). The first byte picks the
 * decoder, the rest is JSON. Whatever decodes must encode and decode again to the same thing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "link/link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void req(const json_t *j)
{
	struct link_req r, back;
	struct err e = ERR_INIT;
	json_t *again;

	if (link_req_from_json(j, &r, &e) < 0)
		return;
	again = link_req_to_json(&r);
	if (link_req_from_json(again, &back, &e) < 0 || memcmp(&r, &back, sizeof(r)))
		abort();
	json_decref(again);
}

static void ready(const json_t *j, enum link_kind kind)
{
	struct link_ready r, back;
	struct err e = ERR_INIT;
	json_t *again;

	if (link_ready_from_json(j, kind, &r, &e) < 0)
		return;
	again = link_ready_to_json(&r);
	if (link_ready_from_json(again, kind, &back, &e) < 0 || back.nlistening != r.nlistening ||
	    back.nports != r.nports || back.nin_use != r.nin_use)
		abort();
	json_decref(again);
	link_ready_release(&r);
	link_ready_release(&back);
}

static void result(const json_t *j)
{
	struct link_result r, back;
	struct err e = ERR_INIT;
	json_t *again;

	if (link_result_from_json(j, &r, &e) < 0)
		return;
	again = link_result_to_json(&r);
	if (link_result_from_json(again, &back, &e) < 0 || back.kind != r.kind)
		abort();
	if (r.kind == LINK_SCAN && (back.s.niv != r.s.niv ||
				    memcmp(back.s.counts, r.s.counts, sizeof(r.s.counts))))
		abort();
	json_decref(again);
	link_result_release(&r);
	link_result_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j;

	if (size < 1 || size > 1 << 20)
		return 0;
	j = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, NULL);
	if (!j)
		return 0;
	switch (data[0] % 6) {
	case 0:
		req(j);
		break;
	case 1:
		result(j);
		break;
	default:
		ready(j, (enum link_kind)(data[0] % 6 - 2));
		break;
	}
	json_decref(j);
	return 0;
}
