/* coll/boot.c's address table comes from rank 0 over the network: any bytes, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "coll/boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char addr[8][64];
	int port[8];
	uint64_t nonce;

	/* the world size is the worker's own (from its flags), 1..8 here */
	for (int w = 1; w <= 8; w++)
		boot_decode_table(data, size, w, &nonce, addr, port);
	return 0;
}
