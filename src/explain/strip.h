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

/*
 * Undoes what a paste did to a line before its launcher prefixes: a UTF-8 BOM, docker's json-file
 * wrapping ({"log":"...\n","stream":...}), HTML entities copied from a web page, curly quotes,
 * e-mail/GitHub quoting ("> "), log collectors' "2024-05-01T10:00:00Z host " and journald's
 * "May 01 10:00:00 host ident[pid]: ", kubectl's "[pod/name/container] ". Returns the clean line,
 * [s, s + len) itself or `buf` (EXPLAIN_MAX_LINE bytes); `*olen` its length. Linear, never grows.
 */
const char *explain_decode(const char *s, size_t len, char *buf, size_t *olen);

/*
 * A log pasted out of a Python repr or a JSON string has its lines joined by literal "\n". Returns
 * the length of the first piece of [s, s + len) up to such an escape (`*skip`: the bytes to step
 * over to the next piece), or `len` with `*skip` 0 when the line is not such a join.
 */
size_t explain_escaped_piece(const char *s, size_t len, size_t *skip);

#endif
