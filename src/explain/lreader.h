/*
 * Streaming line reader with bounded memory: logs can be gigabytes with a single line of hundreds
 * of megabytes and no newline, so lines are capped (the head is kept, the rest only counted) and
 * the file is never loaded whole.
 */
#ifndef NCCLCHECK_EXPLAIN_LREADER_H
#define NCCLCHECK_EXPLAIN_LREADER_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct lreader;

struct lr_line {
	const char *s;		/* not NUL-terminated; valid until the next call */
	size_t len;		/* at most the reader's max_line */
	uint64_t dropped;	/* bytes of an over-long line that were skipped */
	uint64_t lineno;	/* 1-based */
};

/* Reads `fd` (not closed by the reader). `max_line` bytes of each line are kept. */
struct lreader *lreader_fd(int fd, size_t max_line);
/* Reads lines out of `buf`, which must outlive the reader (fuzzing, tests). */
struct lreader *lreader_mem(const void *buf, size_t len, size_t max_line);
void lreader_free(struct lreader *r);

/* 1 with a line (without its '\n' or "\r\n"), 0 at the end, -1 on a read error with `e` set. */
int lreader_next(struct lreader *r, struct lr_line *out, struct err *e);
/* Bytes consumed so far. */
uint64_t lreader_bytes(const struct lreader *r);

#endif
