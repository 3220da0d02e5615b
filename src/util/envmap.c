/* envmap: see envmap.h. */
#include "util/envmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void put(struct envmap *em, char *entry)
{
	ALLOC_GROW(em->v, em->n + 2, em->alloc);
	em->v[em->n++] = entry;
	em->v[em->n] = NULL;
}

struct envmap *envmap_new(char *const *envp)
{
	struct envmap *em = xcalloc(1, sizeof(*em));

	ALLOC_GROW(em->v, 1, em->alloc);
	em->v[0] = NULL;
	for (size_t i = 0; envp && envp[i]; i++)
		if (strchr(envp[i], '='))
			put(em, xstrdup(envp[i]));
	return em;
}

void envmap_free(struct envmap *em)
{
	if (!em)
		return;
	for (size_t i = 0; i < em->n; i++)
		free(em->v[i]);
	free(em->v);
	free(em);
}

static long find(const struct envmap *em, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < em->n; i++)
		if (!strncmp(em->v[i], name, len) && em->v[i][len] == '=')
			return (long)i;
	return -1;
}

const char *envmap_get(const struct envmap *em, const char *name)
{
	long i = em && name ? find(em, name) : -1;

	return i < 0 ? NULL : em->v[i] + strlen(name) + 1;
}

void envmap_set(struct envmap *em, const char *name, const char *value)
{
	long i = find(em, name);

	if (i >= 0) {
		free(em->v[i]);
		memmove(&em->v[i], &em->v[i + 1], (em->n - (size_t)i) * sizeof(*em->v));
		em->n--;
	}
	if (value)
		put(em, xasprintf("%s=%s", name, value));
}

char *const *envmap_envp(const struct envmap *em)
{
	return em->v;
}

int envmap_name_ok(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}
