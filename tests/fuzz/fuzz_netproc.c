/* /proc/net/route and /proc/net/ipv6_route parsers: fixture trees and odd kernels feed them. */
#include <stdint.h>
#include <stdlib.h>

#include "probe/nic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nic_route r;

	if (size > 1 << 20)
		return 0;
	nic_parse_route4((const char *)data, size, &r);
	nic_parse_route6((const char *)data, size, &r);
	return 0;
}
