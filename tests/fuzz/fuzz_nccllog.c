/* coll/nccl_log.c reads NCCL's INFO log (any bytes): it must never crash or overrun. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/nccl_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nccl_log_summary s;
	char *buf = malloc(size + 1), *line, *save = NULL, **lines;
	size_t n;

	memcpy(buf, data, size);
	buf[size] = '\0';
	nccl_log_init(&s);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		nccl_log_line(&s, line);
	n = nccl_log_describe(&s, &lines);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(buf);
	return 0;
}
