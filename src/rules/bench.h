/*
 * bench's judgements: which tuning to recommend (bench tune: only what beats the noise) and
 * wrong results (any difference from the exact expected values is corruption).
 */
#ifndef NCCLCHECK_RULES_BENCH_H
#define NCCLCHECK_RULES_BENCH_H

#include <stdint.h>

#include "coll/tune.h"
#include "finding.h"

/*
 * The configuration to recommend: the best mean if it beats the defaults' mean by more than the
 * spread, else 0 (the defaults).
 */
size_t tune_pick(const struct tune_result *res, size_t n, double spread);
/* The finding that says so (bench.tune.better or bench.tune.defaults), with settings[]. */
void tune_findings(const struct tune_config *cfg, const struct tune_result *res, size_t n,
                   double spread, struct findings *fs);

/* bench.result.wrong: `coll` returned `wrong` elements that differ from the expected values. */
void bench_result_findings(struct findings *fs, const char *coll, int64_t wrong);

#endif
