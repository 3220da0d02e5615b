/*
 * NCCL's own diagnostics (NCCL >= 2.31): the report RAS answers to "DIAGNOSTICS" and that
 * NCCL_RUN_DIAGNOSTICS prints on rank 0, decoded into typed lines, and folded into findings.
 *
 * The format (NVIDIA/nccl src/ras/diagnostics*.cc and client_support.cc at 889806836, 2.31;
 * Xid/SXid at 12df1a11, 2.32): each line is "<host>:<pid> NCCL DIAG <tag><check>: <text>" with
 * the tag "[OK]   " or "[INFO] ", framed by "=== RAS Diagnostics ===" and "RAS diagnostics
 * completed in <ms> ms across <n> ranks|RAS peers". The checks compare the ranks of each
 * communicator: GPU inventory, CUDA driver version, ECC, NVLink, NCCL environment (the
 * process environ's NCCL_* only), Xid/SXid. A server busy with another request answers
 * "BUSY: diagnostics already in progress"; one asked for JSON "ERROR: diagnostics only supports
 * text output"; an NCCL older than 2.31 "ERROR: Unknown command DIAGNOSTICS".
 *
 * Decoding is strict about the frame and lenient about the text: an unknown check or wording
 * (a newer NCCL) is kept as a note, never guessed into a difference.
 */
#ifndef NCCLCHECK_ATTACH_RAS_DIAG_H
#define NCCLCHECK_ATTACH_RAS_DIAG_H

#include <stddef.h>

#include "finding.h"
#include "util/err.h"

#define RAS_DIAG_MAX_LINES 512
#define RAS_DIAG_RANKS 8	/* NCCL prints at most 8 ranks of a set, then "(N=total)" */

enum ras_diag_check {
	RAS_DIAG_OTHER = 0,
	RAS_DIAG_GPU,		/* "GPU inventory" */
	RAS_DIAG_DRIVER,	/* "CUDA driver version" */
	RAS_DIAG_ECC,
	RAS_DIAG_NVLINK,
	RAS_DIAG_ENV,		/* "NCCL environment" */
	RAS_DIAG_XID,		/* "Xid/SXid", "Xid N detected", "SXid N detected" */
};

enum ras_diag_kind {
	RAS_DIAG_OK,		/* [OK]: consistent, or an event that needs no action */
	RAS_DIAG_NOTE,		/* [INFO] that accuses nobody: unavailable, incomplete, a summary */
	RAS_DIAG_DIFF,		/* [INFO] ranks differ: GPU count/model, driver, NVLink count, env key */
	RAS_DIAG_FAULT,		/* [INFO] a fault on some ranks: ECC, inactive NVLink, Xid/SXid */
	RAS_DIAG_ENV_VALUE,	/* "NCCL environment: K=V on rank(s) {..}" after its DIFF */
	RAS_DIAG_HEADER,	/* "=== RAS Diagnostics ===" */
	RAS_DIAG_DONE,		/* "RAS diagnostics completed in ..." */
	RAS_DIAG_FAILED,	/* "ERROR: diagnostics summary failed (N)" */
};

struct ras_diag_line {
	enum ras_diag_kind kind;
	enum ras_diag_check check;
	char host[64];		/* the "<host>:<pid>" prefix; "" and -1 without one */
	long pid;
	char text[512];		/* after the tag, control bytes as '?' */
	char comm[24];		/* "0x..." when the line names a communicator */
	int comm_ranks;		/* "across N ranks", else 0 */
	int ranks[RAS_DIAG_RANKS];	/* the rank set the line names */
	int nranks;		/* shown */
	int ranks_total;	/* "(N=total)", else nranks */
	char key[128];		/* env: the variable; GPU/driver/NVLink: "rank R (value)" reference */
	char value[256];	/* env value line: the value ("(unset)" as NCCL prints it) */
	char where[96];		/* filled by the caller: "rank0.log:12" for evidence, or "" */
};

enum ras_diag_answer {
	RAS_DIAG_REPORT,	/* a report (maybe cut short: see done) */
	RAS_DIAG_BUSY,		/* another diagnostics request is running */
	RAS_DIAG_UNKNOWN_CMD,	/* NCCL < 2.31 */
	RAS_DIAG_REFUSED,	/* another ERROR line */
};

struct ras_diag {
	enum ras_diag_answer answer;
	char answer_text[160];	/* the BUSY/ERROR line */
	struct ras_diag_line *v;
	size_t n, alloc;
	size_t dropped;		/* lines past RAS_DIAG_MAX_LINES */
	size_t unparsed;	/* lines that are not DIAG lines */
	int done;		/* the "completed" line was seen */
	double ms;
	int peers;
};

/* One line (no newline) -> `out`: 1 when it is a DIAG line, 0 when not (out untouched). */
int ras_diag_parse_line(const char *s, size_t len, struct ras_diag_line *out);

/* A whole answer. -1 with `e` only when it is empty or holds nothing of the protocol. */
int ras_diag_parse(const char *buf, size_t len, struct ras_diag *d, struct err *e);
void ras_diag_add(struct ras_diag *d, const struct ras_diag_line *l);
void ras_diag_release(struct ras_diag *d);

/* The adder a caller supplies: attach's finding_add, explain's ranked rs_add. */
typedef struct finding *(*ras_diag_add_fn)(void *ctx, const char *id, enum severity sev,
					     const char *title);

/*
 * Folds the differences and faults into findings (ids nccl.diag.*): one per check and kind,
 * the ranks named, NCCL's line as evidence. `source` names where the report came from ("RAS
 * at localhost:28028", "the log"). Returns how many findings it added. A report with only [OK]
 * lines adds nccl.diag.consistent.
 */
size_t ras_diag_fold(const struct ras_diag *d, const char *source, ras_diag_add_fn add, void *ctx);

#endif
