/* suggest: see suggest.h. */
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	size_t *m = xcalloc((la + 1) * (lb + 1), sizeof(*m));
#define M(x, y) m[(x) * (lb + 1) + (y)]

	for (i = 0; i <= la; i++)
		M(i, 0) = i;
	for (j = 0; j <= lb; j++)
		M(0, j) = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = M(i - 1, j) + 1;
			if (M(i, j - 1) + 1 < best)
				best = M(i, j - 1) + 1;
			if (M(i - 1, j - 1) + cost < best)
				best = M(i - 1, j - 1) + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    M(i - 2, j - 2) + 1 < best)
				best = M(i - 2, j - 2) + 1;
			M(i, j) = best;
		}
	}
	d = M(la, lb);
#undef M
	free(m);
	return d;
}

const char *suggest_closest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL, *prefix_hit = NULL;
	size_t best_d = (size_t)-1, limit, wl = strlen(word), i, prefix_hits = 0;

	if (!wl)
		return NULL;
	limit = wl / 3;
	if (limit < 1)
		limit = 1;
	for (i = 0; i < n; i++) {
		size_t d;

		if (!names[i])
			continue;
		if (!strncmp(names[i], word, wl)) {
			prefix_hit = names[i];
			prefix_hits++;
		}
		d = suggest_distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	if (best && best_d <= limit)
		return best;
	if (prefix_hits == 1)
		return prefix_hit;
	return NULL;
}
