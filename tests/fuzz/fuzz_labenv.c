/* A node's env file is exported by `lab exec`: any bytes give NAME=value pairs or a clean error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(void *arg, const char *name, const char *value)
{
	size_t *n = arg;

	/* names are non-empty and values carry no line break: what setenv gets is one line */
	if (!*name || strchr(value, '\n'))
		abort();
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	size_t n = 0;

	if (size > 1 << 20)
		return 0;
	lab_env_parse((const char *)data, size, check, &n, &e);
	return 0;
}
