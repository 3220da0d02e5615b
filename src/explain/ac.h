/*
 * Aho-Corasick matcher over literal anchors, so that a line is scanned once whatever the number
 * of signatures. States within a few bytes of the root, where a scan spends most of its time, are
 * DFA rows over byte classes (one table load per byte); the deeper ones, nearly all of the states
 * but rarely visited, keep only their goto edges and a failure link, followed at scan time
 * (amortised: a failure step undoes an earlier forward one). An anchor costs ~21 bytes per new
 * state below the rows, never a wider row or time per line.
 * Matching is case-sensitive.
 */
#ifndef NCCLCHECK_EXPLAIN_AC_H
#define NCCLCHECK_EXPLAIN_AC_H

#include <stddef.h>
#include <stdint.h>

struct ac;

/* States are 32-bit ids; this bounds the build's arrays, 800 times the signature table's trie. */
#define AC_MAX_STATES (1u << 24)

struct ac *ac_new(void);
void ac_free(struct ac *a);
/*
 * Registers `pat` (non-empty) for `consumer`; one pattern may have many consumers. Before build.
 * Returns 0 when it was refused (empty, after build, or past AC_MAX_STATES), else 1.
 */
int ac_add(struct ac *a, const char *pat, uint16_t consumer);
void ac_build(struct ac *a);

/*
 * Per-caller scan state, so that one built automaton (immutable) serves any number of threads:
 * `seen` has ac_consumers() slots.
 */
struct ac_seen {
	uint32_t *seen;
	uint32_t gen;
};
size_t ac_consumers(const struct ac *a);

/*
 * Scans `s` and calls `hit(ctx, consumer, end)` for every consumer whose pattern occurs, with the
 * offset just past the first occurrence; each consumer at most once per call.
 */
typedef void (*ac_hit_fn)(void *ctx, uint16_t consumer, size_t end);
void ac_scan(const struct ac *a, struct ac_seen *st, const char *s, size_t len, ac_hit_fn hit,
	     void *ctx);

size_t ac_states(const struct ac *a);

#endif
