/*
 * explain's text: the per-rank table ("rank 0  host  NCCL 2.28.9  bootstrap eth0 …") from the
 * payload of explain_finish(), the same document --json prints; the findings under it are
 * render_findings_text()'s. Computes nothing: it reads the payload.
 */
#ifndef NCCLCHECK_REPORT_EXPLAIN_TEXT_H
#define NCCLCHECK_REPORT_EXPLAIN_TEXT_H

#include <jansson.h>

struct strbuf;

/* Appends the summary line and one entry per rank (at most 64, then a count) to `out`. */
void render_explain_ranks(const json_t *payload, struct strbuf *out);

#endif
