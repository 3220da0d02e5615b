/*
 * /etc/ld.so.cache is read from a root tests (and a broken system) can fill with anything: the
 * parser must bound every offset and count by the image, and the loader model built on it must
 * survive what comes out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/ldso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ldcache c;
	struct ld_search s;
	const char *how;
	char *p;

	if (size > 4 << 20)
		return 0;
	if (ldcache_parse(data, size, &c, NULL) < 0)
		return 0;
	for (size_t i = 0; i < c.n; i++)
		(void)ldcache_native(c.v[i].flags);
	/* resolution against the parsed cache only: no directories, no environment */
	memset(&s, 0, sizeof(s));
	s.cache = &c;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	free(p);
	ldcache_release(&c);
	return 0;
}
