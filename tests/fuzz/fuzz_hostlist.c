/*
 * Slurm host lists come from the job's environment (SLURM_JOB_NODELIST): any text must expand
 * into at most the cap of names or be refused, never crash, loop or leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	char *s, **hosts;
	size_t n;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (hostlist_expand(s, 4096, &hosts, &n, &e) == 0) {
		if (n == 0 || n > 4096)
			abort();
		for (size_t i = 0; i < n; i++)
			if (!hosts[i][0])
				abort();
		hostlist_free(hosts, n);
	}
	free(s);
	return 0;
}
