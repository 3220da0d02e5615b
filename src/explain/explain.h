/*
 * ncclcheck explain: turns NCCL / torch / Lightning / launcher logs into ranked diagnoses.
 *
 *   lines (lreader) -> prefixes stripped (torchrun [rank3]:, srun -l "3: ", ANSI, NCCL's
 *   host:pid:tid [dev] NCCL INFO) -> one multi-literal scan per line over every anchor ->
 *   per-stream extraction (version, interfaces, transports, init, Lightning, watchdog, traceback)
 *   and signature hits -> at the end, streams resolved to ranks and the cross-rank reasoner.
 *
 * Memory is bounded whatever the input: lines are capped by the reader, streams and evidence are
 * capped here, and only line numbers (not lines) are kept as evidence.
 */
#ifndef NCCLCHECK_EXPLAIN_H
#define NCCLCHECK_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "explain/lreader.h"
#include "finding.h"
#include "util/err.h"

/* Lines longer than this keep their head only. */
#define EXPLAIN_MAX_LINE 8192

struct explain;

struct explain_opts {
	const char *master_addr;	/* --master-addr: used when the log does not show it */
};

struct explain *explain_new(const struct explain_opts *o);
void explain_free(struct explain *x);

/* Reads every line of `r` as the input called `name` (shown in evidence as name:line). */
int explain_feed(struct explain *x, const char *name, struct lreader *r, struct err *e);

/* The lower-level interface explain_feed uses (fuzzing feeds lines one by one). */
void explain_begin_input(struct explain *x, const char *name);
void explain_line(struct explain *x, const struct lr_line *l);
void explain_end_input(struct explain *x, uint64_t bytes);

/*
 * Resolves ranks and runs the reasoner: adds the diagnoses to `fs` best first (callers need not
 * sort) and returns the payload for render_json_doc ({inputs, master_addr, ranks, diagnoses}),
 * a new reference. Call once.
 */
json_t *explain_finish(struct explain *x, struct findings *fs);

/* Human text for the per-rank table of a payload from explain_finish (appended to `out`). */
struct strbuf;
void explain_ranks_text(const json_t *payload, struct strbuf *out);

/*
 * Prefix stripping, exposed for tests. `scratch` (EXPLAIN_MAX_LINE bytes) receives the line
 * without ANSI escapes when it has any.
 */
struct explain_line_info {
	const char *body;	/* the message after every prefix */
	size_t blen;
	int prefix_rank;	/* [rank3]: or srun -l "3: "; -1 */
	int local_rank;		/* [default0]: (torchrun role + local rank); -1 */
	int nccl;		/* 0 not an NCCL line, 1 INFO, 2 WARN, 3 another NCCL level */
	const char *host;	/* NCCL's host:pid:tid prefix */
	size_t hlen;
	long pid;
};
void explain_strip(const char *s, size_t len, char *scratch, struct explain_line_info *li);

#endif
