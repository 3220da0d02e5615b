/* Aho-Corasick automaton, a DFA near the root and a goto/failure automaton below: see ac.h. */
#include "explain/ac.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * Deepest level kept as full rows. On the throughput bench's log 62% of the scan's transitions end
 * within two bytes of the root and 69% within three, while levels 0-3 hold 734 of the signature
 * table's 19.6k states. Measured scan-only (CPU time, interleaved): depth 3 as fast as the full
 * DFA, depth 4 ~5% slower (its 300 kB of rows crowd the caches), depth 2 within noise of both.
 */
#define AC_DENSE_DEPTH 3
#define AC_NO_CLASS 0x100u	/* classes are bytes, 0 that of bytes no pattern has */
/* dense entries are (id << 1 | output) in 16 bits: the rows and the level below them fit */
#define AC_DENSE_IDS 0x8000u

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

/*
 * A state below the dense levels: its goto edges and its failure link, followed at scan time.
 * States are numbered in BFS order, so a state's children are consecutive ids.
 */
struct ac_deep {
	uint32_t kid;		/* first child */
	uint32_t fail;
	uint16_t lab0;		/* class of the edge into kid, AC_NO_CLASS for a leaf: the common
				 * case needs no other load */
	uint8_t nkid;
	uint8_t out;		/* this state ends a pattern, or a suffix of it does */
};

struct ac {
	/*
	 * States [0, ndense) (depth <= AC_DENSE_DEPTH): ndense x (1 << shift) transitions, the
	 * first ncls of each row used, each (target << 1 | target has output). A byte's class is
	 * its own when some pattern contains it, else 0, the class of every other byte: bytes
	 * outside all patterns are interchangeable, and each byte inside one labels distinct trie
	 * edges, so no coarser partition exists for a case-sensitive DFA. Rows are ncls rounded
	 * up to a power of two so that the scan's dependent chain has a shift, not a multiply.
	 */
	uint16_t *dense;
	struct ac_deep *deep;	/* states [ndense, nstates), indexed by id - ndense */
	uint8_t *lab;		/* class of the edge into each state (for states with several kids) */
	uint8_t cls[256];
	size_t ncls;
	unsigned shift;
	uint32_t ndense;
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
	free(a->dense);
	free(a->deep);
	free(a->lab);
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

/* Child of s along class c, 0 none (the root is nobody's child). */
static uint32_t goto_kid(const struct ac *a, const uint32_t *kid, const uint8_t *nkid, uint32_t s,
			 unsigned c)
{
	for (uint32_t t = kid[s]; t < kid[s] + nkid[s]; t++)
		if (a->lab[t] == c)
			return t;
	return 0;
}

/* The DFA transition from f on class c, while building (dense rows hold plain ids until the end). */
static uint32_t delta(const struct ac *a, const uint32_t *kid, const uint8_t *nkid,
		      const uint32_t *fail, uint32_t f, unsigned c)
{
	size_t w = (size_t)1 << a->shift;

	for (;;) {
		uint32_t t;

		if (f < a->ndense)
			return a->dense[(size_t)f * w + c];
		t = goto_kid(a, kid, nkid, f, c);
		if (t)
			return t;
		f = fail[f];
	}
}

void ac_build(struct ac *a)
{
	size_t n = a->nstates, w, nd, dd = AC_DENSE_DEPTH;
	size_t ends[AC_DENSE_DEPTH + 2];	/* one past the last state of each level */
	uint32_t *order, *rank, *kid, *fail;
	uint8_t *nkid;
	int32_t *cons;
	size_t qt = 1;

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

	/*
	 * Renumber in BFS order: depth never decreases with the id, so the dense levels are a prefix
	 * and a state's children are consecutive. The dense levels end at AC_DENSE_DEPTH, or earlier
	 * where their rows would point past the 16-bit ids (the root alone always fits: 257 ids).
	 */
	order = xmalloc(n * sizeof(*order));
	rank = xmalloc(n * sizeof(*rank));
	kid = xmalloc(n * sizeof(*kid));
	nkid = xcalloc(n, sizeof(*nkid));
	a->lab = xcalloc(n, sizeof(*a->lab));
	order[0] = 0;
	rank[0] = 0;
	for (size_t d = 0; d < ARRAY_SIZE(ends); d++)
		ends[d] = n;	/* levels the trie does not reach are empty */
	ends[0] = 1;
	for (size_t qh = 0, depth = 0; qh < n; qh++) {
		uint32_t s = order[qh];

		if (qh == ends[depth] && depth + 1 < ARRAY_SIZE(ends))
			ends[++depth] = qt;	/* the level before is done: all of this one is queued */
		kid[qh] = (uint32_t)qt;
		for (int32_t t = a->trie[s].child; t; t = a->trie[t].sib) {
			rank[t] = (uint32_t)qt;
			a->lab[qt] = a->cls[a->trie[t].byte];
			order[qt++] = (uint32_t)t;
			nkid[qh]++;
		}
	}
	while (dd > 0 && ends[dd + 1] > AC_DENSE_IDS)
		dd--;
	nd = ends[dd];
	free(a->trie);
	a->trie = NULL;
	cons = xmalloc(n * sizeof(*cons));
	for (size_t s = 0; s < n; s++)
		cons[rank[s]] = a->cons[s];
	free(a->cons);
	a->cons = cons;
	free(rank);
	free(order);
	a->ndense = (uint32_t)nd;
	a->astates = n;

	a->dense = xcalloc(nd * w, sizeof(*a->dense));
	a->deep = xcalloc(n - nd ? n - nd : 1, sizeof(*a->deep));
	a->dict = xmalloc(n * sizeof(*a->dict));
	fail = xmalloc(n * sizeof(*fail));
	fail[0] = 0;
	/* BFS order: a state's failure target is shallower, so finished before it */
	for (uint32_t s = 0; s < n; s++) {
		uint32_t f = fail[s];

		a->dict[s] = !s ? -1 : a->cons[f] >= 0 ? (int32_t)f : a->dict[f];
		for (uint32_t t = kid[s]; t < kid[s] + nkid[s]; t++)
			fail[t] = s ? delta(a, kid, nkid, fail, f, a->lab[t]) : 0;
		if (s < nd) {
			uint16_t *row = &a->dense[(size_t)s * w];

			if (s)
				memcpy(row, &a->dense[(size_t)f * w], w * sizeof(*row));
			for (uint32_t t = kid[s]; t < kid[s] + nkid[s]; t++)
				row[a->lab[t]] = (uint16_t)t;
		}
	}
	for (size_t s = nd; s < n; s++) {
		struct ac_deep *d = &a->deep[s - nd];

		d->kid = kid[s];
		d->nkid = nkid[s];
		d->lab0 = nkid[s] ? a->lab[kid[s]] : AC_NO_CLASS;
		d->fail = fail[s];
		d->out = a->cons[s] >= 0 || a->dict[s] >= 0;
	}
	free(fail);
	free(kid);
	free(nkid);
	/* mark transitions into states with output, so the scan loop tests one bit (padding is 0) */
	for (size_t i = 0; i < nd * w; i++) {
		uint16_t t = a->dense[i];
		a->dense[i] = (uint16_t)(t << 1 | (a->cons[t] >= 0 || a->dict[t] >= 0));
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
	const uint16_t *dense = a->dense;
	const struct ac_deep *deep = a->deep;
	const uint8_t *cls = a->cls;
	unsigned sh = a->shift;
	uint32_t nd = a->ndense;
	uint32_t st = 0;

	if (!a->built)
		return;
	if (++sn->gen == 0) {	/* wrapped: forget every stamp */
		memset(sn->seen, 0, a->nseen * sizeof(*sn->seen));
		sn->gen = 1;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned k;
		uint32_t t;

		if (!st && !a->short_pat) {
			while (i + 1 < len) {
				unsigned p = (unsigned)s[i] << 8 | s[i + 1];
				if (a->start2[p >> 3] & (1u << (p & 7)))
					break;
				i++;
			}
			if (i + 1 >= len)
				break;	/* one byte left at the root: no pattern is that short */
		}
		k = cls[s[i]];
		while (st >= nd) {
			const struct ac_deep *d = &deep[st - nd];

			if (d->lab0 == k) {
				st = d->kid;
				goto moved;
			}
			for (uint32_t j = 1; j < d->nkid; j++)
				if (a->lab[d->kid + j] == k) {
					st = d->kid + j;
					goto moved;
				}
			st = d->fail;
		}
		t = dense[((size_t)st << sh) + k];
		st = t >> 1;
		if (t & 1)
			report(a, sn, (int32_t)st, i + 1, hit, ctx);
		continue;
moved:
		if (deep[st - nd].out)
			report(a, sn, (int32_t)st, i + 1, hit, ctx);
	}
}
