/* version: see version.h. */
#include "util/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int version_parse(const char *s, struct version *v)
{
	memset(v, 0, sizeof(*v));
	if (!s)
		return -1;
	while (*s == ' ' || *s == 'v' || *s == 'V')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	while (v->n < VERSION_PARTS && isdigit((unsigned char)*s)) {
		char *end;
		long x = strtol(s, &end, 10);
		v->part[v->n++] = x;
		s = end;
		if (*s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	return 0;
}

int version_cmp(const struct version *a, const struct version *b)
{
	int i;

	for (i = 0; i < VERSION_PARTS; i++) {
		long x = i < a->n ? a->part[i] : 0;
		long y = i < b->n ? b->part[i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

int version_cmp_str(const char *a, const char *b)
{
	struct version va, vb;
	int ra = version_parse(a, &va), rb = version_parse(b, &vb);

	if (ra || rb)
		return ra - rb; /* unparseable (-1) sorts lowest */
	return version_cmp(&va, &vb);
}

void version_nccl_code_str(int code, char *out, unsigned len)
{
	if (code >= 20900)
		snprintf(out, len, "%d.%d.%d", code / 10000, code % 10000 / 100, code % 100);
	else
		snprintf(out, len, "%d.%d.%d", code / 1000, code % 1000 / 100, code % 100);
}

void version_cuda_code_str(int code, char *out, unsigned len)
{
	snprintf(out, len, "%d.%d", code / 1000, code % 1000 / 10);
}
