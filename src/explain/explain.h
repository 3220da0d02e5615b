/*
 * ncclcheck explain: turns NCCL / torch / Lightning / launcher logs into ranked findings.
 *
 *   lines (lreader.c) -> prefixes stripped (strip.c) -> one multi-literal scan per line over every
 *   anchor (ac.c) -> per-stream records and signature hits (scan.c, extract.c, sigs.c): a value,
 *   struct run_obs (obs.h) -> at the end, streams resolved to ranks and the cross-rank reasoner
 *   (reason*.c) -> findings and the per-rank payload.
 *
 * This is the facade over the scanner and the reasoner. Memory is bounded whatever the input:
 * lines are capped by the reader, streams and evidence are capped by the scanner, and only line
 * numbers (not lines) are kept as evidence.
 */
#ifndef NCCLCHECK_EXPLAIN_H
#define NCCLCHECK_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "explain/lreader.h"
#include "explain/strip.h"
#include "finding.h"
#include "util/err.h"

struct explain;

struct explain_opts {
	const char *master_addr;	/* --master-addr: used when the log does not show it */
};

struct explain *explain_new(const struct explain_opts *o);
void explain_free(struct explain *x);

/* Reads every line of `r` as the input called `name` (shown in evidence as name:line). */
int explain_feed(struct explain *x, const char *name, struct lreader *r, struct err *e);

/*
 * Reads a log file, '-' (standard input, named "<stdin>"), or a directory: its files in natural
 * order (rank2.log before rank10.log) and the files of its subdirectories one level down. Stops
 * at the first input that cannot be read, with `e` set.
 */
int explain_feed_path(struct explain *x, const char *path, struct err *e);
/* Reads an open descriptor (not closed) as the input `name`. */
int explain_feed_fd(struct explain *x, const char *name, int fd, struct err *e);

/* The lower-level interface explain_feed uses (fuzzing feeds lines one by one). */
void explain_begin_input(struct explain *x, const char *name);
void explain_line(struct explain *x, const struct lr_line *l);
void explain_end_input(struct explain *x, uint64_t bytes);

/*
 * Resolves ranks and runs the reasoner: adds the findings to `fs` best first (callers need not
 * sort) and returns the payload for render_json_doc ({inputs, master_addr, ranks, …}), a new
 * reference. Call once.
 */
json_t *explain_finish(struct explain *x, struct findings *fs);

/* Natural order of two strings (digit runs compare as numbers): rank2.log < rank10.log. */
int explain_natcmp(const char *a, const char *b);

#endif
