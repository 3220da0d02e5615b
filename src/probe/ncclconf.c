/* NCCL's config files (nccl.conf), split into NAME=value lines exactly as NCCL does it. */
#include "probe/ncclconf.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define NCCLCONF_MAX 1023

void ncclconf_parse(const char *data, size_t len, struct ncclconf *out)
{
	size_t pos = 0;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *line = data + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos, s = 0, vlen;
		struct ncclconf_var *v;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (!n)
			continue;
		if (line[0] == '#') {
			out->comment_lines++;
			continue;
		}
		/* NCCL walks a C string: a NUL ends the line as surely as '\n' */
		while (s < n && line[s] != '\0' && line[s] != '=')
			s++;
		if (s == n || line[s] == '\0' || s == 0) {
			out->ignored_lines++;
			continue;
		}
		vlen = strnlen(line + s + 1, n - s - 1);
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		v = &out->v[out->n];
		v->name = xstrndup(line, s < NCCLCONF_MAX ? s : NCCLCONF_MAX);
		v->value = xstrndup(line + s + 1, vlen < NCCLCONF_MAX ? vlen : NCCLCONF_MAX);
		v->line = lineno;
		v->shadowed = 0;
		for (size_t i = 0; i < out->n; i++)
			if (!strcmp(out->v[i].name, v->name)) {
				v->shadowed = 1;
				break;
			}
		out->n++;
	}
}

void ncclconf_release(struct ncclconf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].value);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
