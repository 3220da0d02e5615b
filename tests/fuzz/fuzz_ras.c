/*
 * A RAS STATUS answer is whatever the peer on the RAS socket sends: the JSON and text decoders
 * (and the NCCL 2.28.x comma repair) must turn any bytes into a report or a clean error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attach/ras.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	struct ras_report *r;
	char *buf;

	if (size > 1 << 20)
		return 0;
	/* the client hands the decoder a NUL-terminated buffer */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	r = ras_report_parse(buf, size, &e);
	if (r) {
		/* touch what the reasoning reads */
		for (size_t i = 0; i < r->ncomms; i++)
			for (size_t j = 0; j < r->comms[i].nranks; j++)
				(void)r->comms[i].ranks[j].counts[RAS_NOPS - 1];
		(void)ras_version_at_least(r, 2, 27, 3);
		ras_report_free(r);
	}
	free(buf);
	return 0;
}
