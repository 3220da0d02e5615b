/*
 * A DIAGNOSTICS answer is whatever the peer on the RAS socket sends, and explain reads NCCL DIAG
 * lines out of any log: the decoder and the fold must turn any bytes into lines, findings or a
 * clean error, never a crash or an overrun (the input is not NUL-terminated here).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attach/ras_diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct finding *add(void *ctx, const char *id, enum severity sev, const char *title)
{
	return finding_add(ctx, sev, id, "%s", title);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	struct ras_diag d;
	struct ras_diag_line l;
	char *buf;

	if (size > 1 << 20)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (ras_diag_parse(buf, size, &d, &e) == 0) {
		struct findings *fs = findings_new();
		ras_diag_fold(&d, "fuzz", add, fs);
		findings_free(fs);
		ras_diag_release(&d);
	}
	(void)ras_diag_parse_line(buf, size, &l);
	free(buf);
	return 0;
}
