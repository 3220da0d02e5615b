/* nccl.conf files are user-written text: any bytes must split into NAME=value lines or be skipped. */
#include <stdint.h>
#include <string.h>

#include "probe/ncclconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ncclconf c;

	if (size > 1 << 20)
		return 0;
	ncclconf_parse((const char *)data, size, &c);
	for (size_t i = 0; i < c.n; i++)
		if (strlen(c.v[i].name) > 1023 || strlen(c.v[i].value) > 1023 || !c.v[i].name[0])
			__builtin_trap();
	ncclconf_release(&c);
	return 0;
}
