/* Every node's rank stacks: the wire form, its decoder and the groups (jobstacks.h). */
#include "attach/jobstacks.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const kind_names[] = {
	[JS_UNKNOWN] = "unknown", [JS_GONE] = "gone", [JS_STOPPED] = "stopped",
	[JS_ZOMBIE] = "zombie", [JS_DSTATE] = "dstate", [JS_IDLE] = "idle", [JS_BUSY] = "busy",
	[JS_ALIVE] = "alive",
};

const char *js_kind_name(enum js_kind k)
{
	return (unsigned)k < JS_KIND_COUNT ? kind_names[k] : "unknown";
}

/*
 * A text that fits the decoder's cap. A deep stack's phrase (256 frames) does not: its innermost
 * frames, at the end, say what the rank does, so the outer ones go ("… → " in their place),
 * cut at a frame's arrow, never inside a UTF-8 character.
 */
static json_t *fit(const char *s)
{
	size_t len = strlen(s);
	const char *arrow;
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (len < JS_TEXT_MAX)
		j = json_string(s);
	else if (!(arrow = strstr(s + len - (JS_TEXT_MAX - 16), " → ")))
		j = json_string("…");	/* one frame longer than the cap: no arrow to cut at */
	else {
		strbuf_addf(&sb, "…%s", arrow);
		j = json_string(sb.buf);
		strbuf_release(&sb);
	}
	/* not UTF-8 (json_string refuses it): the rank is still sent, without these words */
	return j ? j : json_string("");
}

json_t *js_encode(const struct js_rank *v, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n && i < JS_RANKS_MAX; i++)
		json_array_append_new(arr, json_pack("{s:i, s:i, s:s, s:s, s:o, s:o}",
						     "rank", v[i].rank, "pid", v[i].pid,
						     "host", v[i].host, "kind", js_kind_name(v[i].kind),
						     "doing", fit(v[i].doing), "stack", fit(v[i].stack)));
	return json_pack("{s:i, s:o}", "v", JS_VERSION, "ranks", arr);
}

/* A peer's text: a string, bounded, no control characters (it is printed to a terminal). */
static const char *text_of(const json_t *o, const char *key, size_t cap, struct err *e)
{
	const json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);

	if (!s)
		return err_set(e, ERR_PEER, "'%s' is not a string", key), NULL;
	if (len >= cap)
		return err_set(e, ERR_PEER, "'%s' is %zu bytes (at most %zu)", key, len, cap - 1),
		       NULL;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return err_set(e, ERR_PEER, "'%s' holds a control character", key), NULL;
	return s;
}

static int int_of(const json_t *o, const char *key, long lo, long hi, int *out, struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return err_set(e, ERR_PEER, "'%s' is not an integer in %ld..%ld", key, lo, hi);
	*out = (int)json_integer_value(v);
	return 0;
}

static int rank_decode(const json_t *o, struct js_rank *r, struct err *e)
{
	const char *host, *kind, *doing, *stack;
	size_t k;

	if (!json_is_object(o))
		return err_set(e, ERR_PEER, "not an object");
	if (int_of(o, "rank", -1, 1 << 24, &r->rank, e) < 0 ||
	    int_of(o, "pid", 1, 1 << 30, &r->pid, e) < 0 ||
	    !(host = text_of(o, "host", sizeof(r->host), e)) ||
	    !(kind = text_of(o, "kind", 16, e)) ||
	    !(doing = text_of(o, "doing", JS_TEXT_MAX, e)) ||
	    !(stack = text_of(o, "stack", JS_TEXT_MAX, e)))
		return -1;
	for (k = 0; k < JS_KIND_COUNT && strcmp(kind_names[k], kind); k++)
		;
	if (k == JS_KIND_COUNT)
		return err_set(e, ERR_PEER, "'kind' \"%s\" is none of the known ones", kind);
	r->kind = (enum js_kind)k;
	memcpy(r->host, host, strlen(host) + 1);
	r->doing = xstrdup(doing);
	r->stack = xstrdup(stack);
	return 0;
}

int js_decode(const json_t *j, struct js_node *out, struct err *e)
{
	const json_t *ranks = json_object_get(j, "ranks");
	struct js_rank *v;
	size_t n;

	out->v = NULL;
	out->n = 0;
	if (!json_is_object(j))
		return err_set(e, ERR_PEER, "the stack summary is not an object");
	if (!json_is_integer(json_object_get(j, "v")) ||
	    json_integer_value(json_object_get(j, "v")) != JS_VERSION)
		return err_set(e, ERR_PEER, "the stack summary is not version %d (another "
			       "ncclcheck version on that node?)", JS_VERSION);
	if (!json_is_array(ranks))
		return err_set(e, ERR_PEER, "the stack summary has no 'ranks' array");
	n = json_array_size(ranks);
	if (n > JS_RANKS_MAX)
		return err_set(e, ERR_PEER, "the stack summary lists %zu ranks (at most %d)", n,
			       JS_RANKS_MAX);
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		if (rank_decode(json_array_get(ranks, i), &v[i], e) < 0) {
			err_prefix(e, "the stack summary's rank entry %zu", i);
			for (size_t k = 0; k <= i; k++) {
				free(v[k].doing);
				free(v[k].stack);
			}
			free(v);
			return -1;
		}
	out->v = v;
	out->n = n;
	return 0;
}

void js_node_release(struct js_node *n)
{
	for (size_t i = 0; i < n->n; i++) {
		free(n->v[i].doing);
		free(n->v[i].stack);
	}
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

static int by_size(const void *a, const void *b)
{
	const struct js_group *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	/* equal sizes: the order the nodes came in, stable for every node that prints it */
	if (x->m[0].node != y->m[0].node)
		return x->m[0].node < y->m[0].node ? -1 : 1;
	return x->m[0].rank < y->m[0].rank ? -1 : x->m[0].rank > y->m[0].rank;
}

size_t js_groups(const struct js_node *nodes, size_t nnodes, struct js_group **out)
{
	struct js_group *g = NULL;
	size_t ng = 0, ag = 0;

	for (size_t i = 0; i < nnodes; i++)
		for (size_t j = 0; j < nodes[i].n; j++) {
			const char *s = nodes[i].v[j].stack;
			size_t k;

			if (!s || !*s)
				continue;
			for (k = 0; k < ng && strcmp(g[k].stack, s); k++)
				;
			if (k == ng) {
				ALLOC_GROW(g, ng + 1, ag);
				g[ng++] = (struct js_group){ .stack = s };
			}
			g[k].m = xrealloc(g[k].m, (g[k].n + 1) * sizeof(*g[k].m));
			g[k].m[g[k].n++] = (struct js_member){ .node = i, .rank = j };
		}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), by_size);
	*out = g;
	return ng;
}

void js_groups_release(struct js_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].m);
	free(g);
}

json_t *js_groups_json(const struct js_node *nodes, const struct js_group *g, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *ranks = json_array();

		for (size_t k = 0; k < g[i].n; k++) {
			const struct js_node *nd = &nodes[g[i].m[k].node];
			const struct js_rank *r = &nd->v[g[i].m[k].rank];

			json_array_append_new(ranks, json_pack("{s:o, s:s, s:i, s:s, s:i}", "rank",
							       r->rank >= 0 ? json_integer(r->rank)
									    : json_null(),
							       "node", nd->name, "node_rank", nd->node,
							       "host", r->host, "pid", r->pid));
		}
		json_array_append_new(arr, json_pack("{s:s, s:o}", "stack", g[i].stack, "ranks",
						     ranks));
	}
	return arr;
}
