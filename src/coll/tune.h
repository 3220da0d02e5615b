/*
 * bench tune: which NCCL socket settings beat the defaults on this link, measured. The seeds
 * guess "4 threads x 4 sockets"; on a virtual 10 Gbit/s link that measured slower than the
 * defaults (research/frontier-2026.md §4.1). So a setting is recommended only when it beats the
 * defaults by more than the defaults' own run-to-run spread; otherwise the answer is "keep the
 * defaults", and says so. Pure: configurations in, measurements in, findings out.
 */
#ifndef NCCLCHECK_COLL_TUNE_H
#define NCCLCHECK_COLL_TUNE_H

#include <stddef.h>

#include "finding.h"

#define TUNE_MAX_VARS 3
#define TUNE_MAX_REPS 8

struct tune_config {
	const char *label;
	size_t nvars;
	const char *names[TUNE_MAX_VARS];
	const char *values[TUNE_MAX_VARS];
};

struct tune_result {
	double busbw[TUNE_MAX_REPS]; /* GB/s, one per repeat */
	size_t n;
};

/* The configurations tried, defaults first. */
const struct tune_config *tune_configs(size_t *n);

double tune_mean(const struct tune_result *r);
/* (max - min) / mean of the defaults' repeats, at least `floor` (a fraction). */
double tune_spread(const struct tune_result *r, double floor);
#endif
