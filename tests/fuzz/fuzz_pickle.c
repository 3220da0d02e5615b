/*
 * Flight-recorder dumps are files anyone could have written: the pickle reader and the dump
 * decoder must reject any bytes cleanly, within their caps, and never recurse on a cyclic memo.
 */
#include <stdint.h>
#include <stdlib.h>

#include "attach/fr.h"
#include "attach/pickle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* small caps so the cap paths run on small inputs */
	struct pk_limits lim = { .max_input = 1 << 20, .max_nodes = 20000, .max_depth = 16,
				 .max_str = 4096, .max_memo = 4096 };
	struct err e = ERR_INIT;
	struct pk_doc *d = pk_load(data, size, &lim, &e);

	if (d) {
		(void)pk_get(pk_root(d), "entries");
		pk_free(d);
	}
	fr_dump_free(fr_dump_parse(data, size, 0, "fuzz", &e));
	return 0;
}
