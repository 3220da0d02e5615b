/*
 * NCCL's DIAGNOSTICS asked of RAS once, and what came of it as findings: `attach` asks after its
 * STATUS polls, `cluster --with-ras` once on rank 0 after the link tests (RAS is job-wide: one
 * answer covers every rank). One implementation for both, so both say the same thing.
 */
#ifndef NCCLCHECK_ATTACH_RAS_ASK_H
#define NCCLCHECK_ATTACH_RAS_ASK_H

#include "attach/ras.h"
#include "attach/ras_diag.h"

struct ras_diag_ask {
	int asked;		/* DIAGNOSTICS was sent */
	char *skipped;		/* why it was not sent (an older NCCL, no answer to STATUS), or NULL */
	struct ras_answer answer;
	struct ras_diag diag;	/* decoded when error is NULL */
	char *error;		/* the exchange or its decoding failed */
};

/* Records why DIAGNOSTICS was not asked (printf-style). */
void ras_diag_ask_skip(struct ras_diag_ask *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A rank of the STATUS report is still in init (init_state ncclInProgress). */
int ras_report_initialising(const struct ras_report *r);

/*
 * Whether the STATUS report `r` allows DIAGNOSTICS: NCCL >= 2.31 (older servers lack it) and no
 * communicator initialising (the checks need the ranks' peer info; asking during init has
 * crashed NCCL). 0 with the reason recorded as skipped.
 */
int ras_diag_ask_ready(struct ras_diag_ask *a, const struct ras_report *r);

/* Sends DIAGNOSTICS on a connection of its own (o->diagnostics is set here) and decodes it. */
void ras_diag_ask_query(struct ras_diag_ask *a, const struct ras_opts *o);

/*
 * The whole ask for a one-shot caller (cluster --with-ras): STATUS to learn the NCCL version,
 * then DIAGNOSTICS on NCCL >= 2.31, each exchange within deadline_ms. Nothing answering STATUS
 * is recorded as skipped (with where it asked), never as a failure.
 */
void ras_diag_ask_once(struct ras_diag_ask *a, const char *host, const char *port,
		       double timeout_s, long deadline_ms);

/*
 * The findings (nccl.diag.*): why it was not asked or did not answer (nccl.diag.unavailable),
 * BUSY (nccl.diag.busy, its fix `again`), or the report folded by ras_diag_fold. `addr` names
 * the RAS socket ("127.0.0.1:28028").
 */
void ras_diag_ask_findings(const struct ras_diag_ask *a, const char *addr, const char *again,
			   struct findings *fs);

void ras_diag_ask_release(struct ras_diag_ask *a);

#endif
