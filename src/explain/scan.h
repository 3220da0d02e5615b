/*
 * The scanner: lines -> struct run_obs (obs.h). Each line is stripped of its prefixes, assigned
 * to a stream (one process), scanned once for every anchor of the signature table and of the
 * extractors (extract.c), and what the anchors say is recorded in the stream or the job-wide
 * observations. Memory is bounded whatever the input.
 */
#ifndef NCCLCHECK_EXPLAIN_SCAN_H
#define NCCLCHECK_EXPLAIN_SCAN_H

#include <stdint.h>

#include "explain/lreader.h"
#include "explain/obs.h"

struct scan;

/* `master_addr` (may be NULL): MASTER_ADDR from the command line, preferred to the log's. */
struct scan *scan_new(const char *master_addr);
void scan_free(struct scan *s);

void scan_begin_input(struct scan *s, const char *name);
void scan_line(struct scan *s, const struct lr_line *l);
void scan_end_input(struct scan *s, uint64_t bytes);

/*
 * How many anchors of the tables the shared automaton refused (0 unless the tables outgrow its
 * state limit: then signatures would go silently dead, which a unit test catches), and its
 * number of states.
 */
size_t scan_anchors_refused(size_t *states);

/* The observations so far (finishes the per-stream texts); valid until the next scan call. */
const struct run_obs *scan_result(struct scan *s);

#endif
