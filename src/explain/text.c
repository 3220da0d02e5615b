/* Bounded slice helpers: see text.h. */
#include "explain/text.h"

#include <ctype.h>
#include <string.h>

size_t xt_take(const char *p, const char *end, const char *stop, char *out, size_t cap)
{
	size_t n = 0, w = 0;

	while (p + n < end && !strchr(stop, p[n]) && p[n]) {
		if (w + 1 < cap)
			out[w++] = p[n];
		n++;
	}
	if (cap)
		out[w] = '\0';
	return n;
}

void xt_excerpt(const char *p, size_t len, char *out, size_t cap)
{
	size_t w = 0;

	while (len && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	for (size_t i = 0; i < len && w + 1 < cap; i++) {
		unsigned char c = (unsigned char)p[i];
		out[w++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
	}
	while (w && out[w - 1] == ' ')
		w--;
	out[w] = '\0';
}

const char *xt_find(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if (p >= end)
		return NULL;
	return memmem(p, (size_t)(end - p), lit, n);
}

long xt_num_after(const char *p, const char *end, const char *lit)
{
	const char *q = xt_find(p, end, lit);
	long v = 0;
	int any = 0;

	if (!q)
		return -1;
	q += strlen(lit);
	while (q < end && *q == ' ')
		q++;
	while (q < end && isdigit((unsigned char)*q) && v < 100000000) {
		v = v * 10 + (*q++ - '0');
		any = 1;
	}
	return any ? v : -1;
}
