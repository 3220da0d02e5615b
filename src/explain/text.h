/* Bounded helpers over a line slice [p, end) that is not NUL-terminated (scanner only). */
#ifndef NCCLCHECK_EXPLAIN_TEXT_H
#define NCCLCHECK_EXPLAIN_TEXT_H

#include <stddef.h>

/* Copies [p, end) up to the first byte of `stop` (or end) into out; returns the bytes taken. */
size_t xt_take(const char *p, const char *end, const char *stop, char *out, size_t cap);
/* Copies a line excerpt, replacing control bytes so the text is printable and valid-ish JSON. */
void xt_excerpt(const char *p, size_t len, char *out, size_t cap);
/* The first occurrence of `lit` in [p, end), or NULL. */
const char *xt_find(const char *p, const char *end, const char *lit);
/* A decimal after `lit` (and spaces) in [p, end); -1 when absent. */
long xt_num_after(const char *p, const char *end, const char *lit);

static inline int xt_digit(char c)
{
	return c >= '0' && c <= '9';
}

#endif
