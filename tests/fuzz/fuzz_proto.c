/*
 * Every message type's decoder reads what a peer sent: any JSON must be either refused with a
 * message or decoded into a struct that encodes back to an equal message (decode -> encode ->
 * decode is the identity), never crash or leak.
 */
#include <stdint.h>
#include <stdlib.h>

#include "net/frame.h"
#include "net/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	struct msg m, m2;
	json_t *j, *back;

	if (size > 1 << 20 || frame_decode_body(data, size, &j, &e) != FRAME_OK)
		return 0;
	if (msg_from_json(j, &m, &e) == 0) {
		back = msg_to_json(&m, &e);
		if (!back)
			abort();	/* a decoded message must re-encode */
		if (msg_from_json(back, &m2, &e) < 0 || m2.type != m.type)
			abort();
		if (!json_equal(j, back))
			abort();
		msg_release(&m2);
		json_decref(back);
		msg_release(&m);
	}
	json_decref(j);
	return 0;
}
