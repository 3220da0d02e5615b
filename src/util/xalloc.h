/* Allocation that never returns NULL: out of memory is not a condition this tool can report usefully. */
#ifndef NCCLCHECK_XALLOC_H
#define NCCLCHECK_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* At most n bytes of s, stopping at a NUL; s need not be NUL-terminated within n. */
char *xstrndup(const char *s, size_t n);
/* printf into a new string; the caller frees it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array so that at least `nr` elements fit; `alloc` tracks capacity (git's ALLOC_GROW). */
#define ALLOC_GROW(arr, nr, alloc)                                                   \
	do {                                                                             \
		if ((size_t)(nr) > (size_t)(alloc)) {                                        \
			size_t alloc_grow_n_ = (size_t)(alloc) < 8 ? 8 : (size_t)(alloc) * 2;   \
			if (alloc_grow_n_ < (size_t)(nr))                                        \
				alloc_grow_n_ = (size_t)(nr);                                        \
			(arr) = xrealloc((arr), alloc_grow_n_ * sizeof(*(arr)));                 \
			(alloc) = alloc_grow_n_;                                                 \
		}                                                                            \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
