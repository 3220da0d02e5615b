/* Aho-Corasick DFA over byte classes: see ac.h. */
#include "explain/ac.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define AC_OUT 0x8000u		/* transition bit: the target state ends at least one pattern */
#define AC_MAX_STATES 0x8000u	/* 15 bits: the table stays half the size, twice as cache-friendly */

struct ac_cons {
	uint16_t consumer;
	int32_t next;		/* next consumer of the same state, -1 at the end */
};

/*
 * Until ac_build() the trie is kept as sibling lists: the alphabet is known only once every
 * pattern is in, and a 256-wide row per state (the old layout, 5 MB for the signature table)
 * must never exist, not even while building, since peak RSS is what `explain` is measured by.
 */
struct ac_node {
	int32_t child, sib;	/* first child, next sibling; 0 none (the root is nobody's child) */
	uint8_t byte;		/* label of the edge into this node */
};

struct ac {
	/*
	 * states x (1 << shift) transitions, the first ncls of each row used; AC_OUT marks states
	 * with output. A byte's class is its own when some pattern contains it, else 0, the class
	 * of every other byte: bytes outside all patterns are interchangeable, and each byte inside
	 * one labels distinct trie edges, so no coarser partition exists for a case-sensitive DFA.
	 * Rows are ncls rounded up to a power of two so that the scan's dependent chain has a
	 * shift, not a multiply: 15% faster for 10% more table (128 for the 116 classes of the
	 * signature table).
	 */
	uint16_t *next;
	uint8_t cls[256];
	size_t ncls;
	unsigned shift;
	struct ac_node *trie;	/* build-time only, freed by ac_build() */
	int32_t *dict;		/* nearest proper suffix state that ends a pattern, -1 none */
	int32_t *cons;		/* first consumer index per state, -1 none */
	size_t nstates, astates;
	struct ac_cons *cv;
	size_t ncv, acv;
	size_t nseen;		/* consumer ids are below this */
	uint8_t start2[65536 / 8];	/* first two bytes of every pattern: at the root, positions whose
					 * pair is not here cannot start a match and are skipped with
					 * independent loads instead of the DFA's dependent chain */
	int short_pat;			/* a one-byte pattern exists: no skipping */
	int built;
};

static int32_t new_state(struct ac *a, uint8_t byte)
{
	size_t s = a->nstates++;

	if (a->nstates > a->astates) {
		a->astates = a->astates ? a->astates * 2 : 256;
		a->trie = xrealloc(a->trie, a->astates * sizeof(*a->trie));
		a->cons = xrealloc(a->cons, a->astates * sizeof(*a->cons));
	}
	a->trie[s].child = a->trie[s].sib = 0;
	a->trie[s].byte = byte;
	a->cons[s] = -1;
	return (int32_t)s;
}

struct ac *ac_new(void)
{
	struct ac *a = xcalloc(1, sizeof(*a));

	new_state(a, 0);	/* root */
	return a;
}

void ac_free(struct ac *a)
{
	if (!a)
		return;
	free(a->next);
	free(a->trie);
	free(a->dict);
	free(a->cons);
	free(a->cv);
	free(a);
}

size_t ac_states(const struct ac *a)
{
	return a->nstates;
}

int ac_add(struct ac *a, const char *pat, uint16_t consumer)
{
	int32_t s = 0;

	if (a->built || !pat || !*pat || a->nstates + strlen(pat) >= AC_MAX_STATES)
		return 0;
	if (!pat[1]) {
		a->short_pat = 1;
	} else {
		unsigned k = (unsigned)(unsigned char)pat[0] << 8 | (unsigned char)pat[1];
		a->start2[k >> 3] |= (uint8_t)(1u << (k & 7));
	}
	for (const unsigned char *p = (const unsigned char *)pat; *p; p++) {
		int32_t t = a->trie[s].child;

		while (t && a->trie[t].byte != *p)
			t = a->trie[t].sib;
		if (!t) {
			t = new_state(a, *p);	/* may move a->trie */
			a->trie[t].sib = a->trie[s].child;
			a->trie[s].child = t;
		}
		s = t;
	}
	ALLOC_GROW(a->cv, a->ncv + 1, a->acv);
	a->cv[a->ncv].consumer = consumer;
	a->cv[a->ncv].next = a->cons[s];
	a->cons[s] = (int32_t)a->ncv++;
	if ((size_t)consumer + 1 > a->nseen)
		a->nseen = (size_t)consumer + 1;
	return 1;
}

void ac_build(struct ac *a)
{
	size_t n = a->nstates, w;
	int32_t *queue, *fail;
	size_t qh = 0, qt = 0;

	if (a->built)
		return;
	/* classes in byte order; 0 stays every byte no pattern has, NUL at least (C strings) */
	for (size_t s = 1; s < n; s++)
		a->cls[a->trie[s].byte] = 1;
	a->ncls = 1;
	for (int c = 0; c < 256; c++)
		if (a->cls[c])
			a->cls[c] = (uint8_t)a->ncls++;
	while ((size_t)1 << a->shift < a->ncls)
		a->shift++;
	w = (size_t)1 << a->shift;
	a->next = xcalloc(n * w, sizeof(*a->next));	/* 0 means "no edge yet" while building */
	for (size_t s = 0; s < n; s++)
		for (int32_t t = a->trie[s].child; t; t = a->trie[t].sib)
			a->next[s * w + a->cls[a->trie[t].byte]] = (uint16_t)t;
	free(a->trie);
	a->trie = NULL;
	a->astates = n;

	queue = xmalloc(n * sizeof(*queue));
	fail = xmalloc(n * sizeof(*fail));
	a->dict = xmalloc(n * sizeof(*a->dict));
	fail[0] = 0;
	a->dict[0] = -1;
	/* BFS; children of the root fail to the root */
	for (size_t c = 0; c < a->ncls; c++) {
		uint32_t t = a->next[c];
		if (t) {
			fail[t] = 0;
			queue[qt++] = (int32_t)t;
		}
	}
	while (qh < qt) {
		int32_t s = queue[qh++];
		int32_t f = fail[s];

		a->dict[s] = a->cons[f] >= 0 ? f : a->dict[f];
		for (size_t c = 0; c < a->ncls; c++) {
			uint16_t *t = &a->next[(size_t)s * w + c];
			uint16_t ft = a->next[(size_t)f * w + c];
			if (*t) {
				fail[*t] = (int32_t)ft;
				queue[qt++] = (int32_t)*t;
			} else {
				*t = ft;	/* already final: f was finished earlier in BFS order */
			}
		}
	}
	free(queue);
	free(fail);
	/* mark transitions into states with output, so the scan loop tests one bit (padding is 0) */
	for (size_t i = 0; i < n * w; i++) {
		uint16_t t = a->next[i];
		if (a->cons[t] >= 0 || a->dict[t] >= 0)
			a->next[i] = (uint16_t)(t | AC_OUT);
	}
	a->built = 1;
}

size_t ac_consumers(const struct ac *a)
{
	return a->nseen;
}

static void report(const struct ac *a, struct ac_seen *sn, int32_t s, size_t end, ac_hit_fn hit,
		   void *ctx)
{
	for (; s >= 0; s = a->dict[s])
		for (int32_t i = a->cons[s]; i >= 0; i = a->cv[i].next) {
			uint16_t c = a->cv[i].consumer;
			if (sn->seen[c] != sn->gen) {
				sn->seen[c] = sn->gen;
				hit(ctx, c, end);
			}
		}
}

void ac_scan(const struct ac *a, struct ac_seen *sn, const char *str, size_t len, ac_hit_fn hit,
	     void *ctx)
{
	const unsigned char *s = (const unsigned char *)str;
	const uint16_t *next = a->next;
	const uint8_t *cls = a->cls;
	unsigned sh = a->shift;
	uint32_t st = 0;

	if (!a->built)
		return;
	if (++sn->gen == 0) {	/* wrapped: forget every stamp */
		memset(sn->seen, 0, a->nseen * sizeof(*sn->seen));
		sn->gen = 1;
	}
	for (size_t i = 0; i < len; i++) {
		if (!st && !a->short_pat) {
			while (i + 1 < len) {
				unsigned k = (unsigned)s[i] << 8 | s[i + 1];
				if (a->start2[k >> 3] & (1u << (k & 7)))
					break;
				i++;
			}
			if (i + 1 >= len)
				break;	/* one byte left at the root: no pattern is that short */
		}
		st = next[((size_t)(st & ~AC_OUT) << sh) + cls[s[i]]];
		if (st & AC_OUT)
			report(a, sn, (int32_t)(st & ~AC_OUT), i + 1, hit, ctx);
	}
}
