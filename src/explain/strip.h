/*
 * Prefix stripping: what launchers and NCCL put before a message. torchrun's [rank3]: and
 * [default0]:, srun -l's "3: " (stacked ones too), ANSI escapes, and NCCL's
 * "[ts] host:pid:tid [dev] NCCL LEVEL " prefix. Pure; exposed for tests.
 */
#ifndef NCCLCHECK_EXPLAIN_STRIP_H
#define NCCLCHECK_EXPLAIN_STRIP_H

#include <stddef.h>

/* Lines longer than this keep their head only. */
#define EXPLAIN_MAX_LINE 8192

struct explain_line_info {
	const char *body;	/* the message after every prefix */
	size_t blen;
	int prefix_rank;	/* [rank3]: or srun -l "3: "; -1 */
	int local_rank;		/* [default0]: (torchrun role + local rank); -1 */
	int nccl;		/* 0 not an NCCL line, 1 INFO, 2 WARN, 3 another NCCL level */
	const char *host;	/* NCCL's host:pid:tid prefix */
	size_t hlen;
	long pid;
	const char *src;	/* NCCL's source location before the level ("transport/nvls.cc:165"), or NULL */
	size_t srclen;
};

/*
 * Fills `li` for the line [s, s + len) (at most EXPLAIN_MAX_LINE bytes are looked at). `scratch`
 * (EXPLAIN_MAX_LINE bytes) receives the line without ANSI escapes when it has any.
 */
void explain_strip(const char *s, size_t len, char *scratch, struct explain_line_info *li);

#endif
