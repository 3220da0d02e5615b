/* Aho-Corasick DFA: see ac.h. */
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

struct ac {
	uint16_t *next;		/* states x 256 transitions; AC_OUT marks states with output */
	int32_t *fail, *dict;	/* failure link; nearest suffix state that ends a pattern */
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

static int32_t new_state(struct ac *a)
{
	size_t s = a->nstates++;

	if (a->nstates > a->astates) {
		a->astates = a->astates ? a->astates * 2 : 256;
		a->next = xrealloc(a->next, a->astates * 256 * sizeof(*a->next));
		a->fail = xrealloc(a->fail, a->astates * sizeof(*a->fail));
		a->dict = xrealloc(a->dict, a->astates * sizeof(*a->dict));
		a->cons = xrealloc(a->cons, a->astates * sizeof(*a->cons));
	}
	memset(a->next + s * 256, 0, 256 * sizeof(*a->next));
	a->fail[s] = 0;
	a->dict[s] = -1;
	a->cons[s] = -1;
	return (int32_t)s;
}

struct ac *ac_new(void)
{
	struct ac *a = xcalloc(1, sizeof(*a));

	new_state(a);	/* root; 0 in `next` means "no edge yet" while building */
	return a;
}

void ac_free(struct ac *a)
{
	if (!a)
		return;
	free(a->next);
	free(a->fail);
	free(a->dict);
	free(a->cons);
	free(a->cv);
	free(a);
}

size_t ac_states(const struct ac *a)
{
	return a->nstates;
}

void ac_add(struct ac *a, const char *pat, uint16_t consumer)
{
	int32_t s = 0;

	if (a->built || !pat || !*pat || a->nstates + strlen(pat) >= AC_MAX_STATES)
		return;
	if (!pat[1]) {
		a->short_pat = 1;
	} else {
		unsigned k = (unsigned)(unsigned char)pat[0] << 8 | (unsigned char)pat[1];
		a->start2[k >> 3] |= (uint8_t)(1u << (k & 7));
	}
	for (const unsigned char *p = (const unsigned char *)pat; *p; p++) {
		uint32_t t = a->next[(size_t)s * 256 + *p];
		if (!t) {
			int32_t n = new_state(a);
			a->next[(size_t)s * 256 + *p] = (uint16_t)n;
			t = (uint32_t)n;
		}
		s = (int32_t)t;
	}
	ALLOC_GROW(a->cv, a->ncv + 1, a->acv);
	a->cv[a->ncv].consumer = consumer;
	a->cv[a->ncv].next = a->cons[s];
	a->cons[s] = (int32_t)a->ncv++;
	if ((size_t)consumer + 1 > a->nseen)
		a->nseen = (size_t)consumer + 1;
}

void ac_build(struct ac *a)
{
	int32_t *queue = xmalloc(a->nstates * sizeof(*queue));
	size_t qh = 0, qt = 0;

	/* BFS; children of the root fail to the root */
	for (int c = 0; c < 256; c++) {
		uint32_t t = a->next[c];
		if (t) {
			a->fail[t] = 0;
			queue[qt++] = (int32_t)t;
		}
	}
	while (qh < qt) {
		int32_t s = queue[qh++];
		int32_t f = a->fail[s];

		a->dict[s] = a->cons[f] >= 0 ? f : a->dict[f];
		for (int c = 0; c < 256; c++) {
			uint16_t *t = &a->next[(size_t)s * 256 + c];
			uint16_t ft = a->next[(size_t)f * 256 + c];
			if (*t) {
				a->fail[*t] = (int32_t)ft;
				queue[qt++] = (int32_t)*t;
			} else {
				*t = ft;	/* already final: f was finished earlier in BFS order */
			}
		}
	}
	free(queue);
	/* mark transitions into states with output, so the scan loop tests one bit */
	for (size_t i = 0; i < a->nstates * 256; i++) {
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
		st = next[(size_t)(st & ~AC_OUT) * 256 + s[i]];
		if (st & AC_OUT)
			report(a, sn, (int32_t)(st & ~AC_OUT), i + 1, hit, ctx);
	}
}
