/* coll/boot.c's table comes from rank 0 over the network: any document, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "coll/boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char addr[8][64];
	int port[8];
	uint64_t nonce;
	json_t *t = json_loadb((const char *)data, size, 0, NULL);

	/* the world size is the worker's own (from its flags), 1..8 here */
	for (int w = 1; t && w <= 8; w++)
		boot_decode_table(t, w, &nonce, addr, port);
	json_decref(t);
	return 0;
}
