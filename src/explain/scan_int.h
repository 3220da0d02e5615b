/* The scanner's own state, shared by scan.c (streams, lines) and extract.c (line families). */
#ifndef NCCLCHECK_EXPLAIN_SCAN_INT_H
#define NCCLCHECK_EXPLAIN_SCAN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "attach/ras_diag.h"
#include "explain/ac.h"
#include "explain/obs.h"
#include "explain/scan.h"
#include "explain/strip.h"

struct scan {
	const struct ac *ac;	/* shared, built once per process */
	struct ac_seen seen;
	struct run_obs obs;	/* job-wide observations, filled in place; arrays below */
	struct input_obs *in;
	uint32_t nin, ain, cur;
	char cur_if[32];	/* ifconfig / ip addr listings: the interface being listed */
	struct stream_obs *st;
	uint32_t nst, ast;
	uint32_t *hash;		/* open addressing: stream index + 1, 0 empty */
	uint32_t *htag;		/* the key's hash, compared before touching the stream */
	uint32_t hcap;
	uint32_t last_stream;	/* index + 1 of the stream of the previous line */
	uint32_t last_nccl;	/* index + 1 of the stream of the input's last NCCL line with a host */
	uint32_t sock_wrap;	/* index + 1 of the stream whose "NET/Socket : Using" list wraps onto the next lines */
	uint32_t scache[64];	/* direct-mapped: recent streams by a cheap key hash, index + 1 */
	/* per stream: its latest line, apart from the streams so that the per-line copy does not
	 * drag the big structs through the cache */
	char (*last_text)[OBS_TEXT];
	struct sig_hit *hits;	/* one per signature */
	struct ras_diag diag;	/* NCCL DIAG lines (NCCL_RUN_DIAGNOSTICS, ncclras -D pasted) */
	char scratch[EXPLAIN_MAX_LINE];
	char decoded[EXPLAIN_MAX_LINE];	/* explain_decode's output */
};

/* One line being scanned. */
struct lctx {
	struct scan *x;
	struct stream_obs *s;
	uint32_t si;
	const struct explain_line_info *li;
	struct loc loc;
	uint16_t hits[48];
	size_t ends[48];
	int nhits;
};

/* The rank a line names for its stream, kept when at least as sure as the one known. */
void scan_set_rank(struct stream_obs *s, int rank, int prio, int nranks);

/* Extractors (extract.c): the anchors, consumer ids explain_nsigs + index. */
size_t extract_count(void);
const char *extract_anchor(size_t e);	/* NULL: found by extract_inet_at() instead */
size_t extract_inet(void);		/* the index of the `inet` address extractor */
/* The offset just after "inet " of an ifconfig / ip addr address line, or 0. */
size_t extract_inet_at(const char *b, size_t len);
/* Runs extractor `e` on the line; `at` is the offset just past its anchor in the body. */
void extract_run(struct lctx *c, size_t e, size_t at);
/* An `ip -br addr` / table line "eno1  UP  192.168.3.10/20": its interface, when it is one. */
void extract_brief(struct lctx *c);
/* A "[1]br-0a:172.19.0.1<0>" line continuing a wrapped NET/Socket list: 1 when it was one. */
int extract_sock_cont(struct lctx *c);

#endif
