/* "Did you mean": the closest name to a mistyped one, for verbs, flags and NCCL_* variables. */
#ifndef NCCLCHECK_SUGGEST_H
#define NCCLCHECK_SUGGEST_H

#include <stddef.h>

/* Damerau-Levenshtein distance (adjacent swaps count as one edit), case-sensitive. */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate closest to `word`, or NULL when none is close enough to be a plausible typo
 * (distance at most a third of the word's length, at least 1, or `word` is a prefix of exactly
 * one candidate). `names` is an array of `n` strings; NULL entries are skipped.
 */
const char *suggest_closest(const char *word, const char *const *names, size_t n);

#endif
