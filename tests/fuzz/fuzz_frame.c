/*
 * The frame decoder reads bytes from any peer that connects to the master's port: whatever the
 * bytes and however recv() splits them, it must hold the cap, never crash and never leak.
 * The first input byte picks the chunk size the rest is fed in.
 */
#include <stdint.h>
#include <stdlib.h>

#include "net/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_reader r;
	struct err e = ERR_INIT;
	size_t chunk, off = 1;

	if (size < 1)
		return 0;
	chunk = (size_t)data[0] % 17 + 1;
	frame_reader_init(&r, 4096);
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk, used = 0;
		json_t *got = NULL;
		enum frame_status st = frame_reader_feed(&r, data + off, n, &used, &got, &e);

		if (used == 0 && st != FRAME_OK)
			break;
		off += used;
		if (got) {
			if (!json_is_object(got))
				abort();
			json_decref(got);
		}
		if (st == FRAME_TOOBIG || st == FRAME_NOTJSON)
			break;
	}
	frame_reader_release(&r);
	return 0;
}
