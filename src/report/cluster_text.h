/* The cluster report as text: see cluster_text.c. */
#ifndef NCCLCHECK_REPORT_CLUSTER_TEXT_H
#define NCCLCHECK_REPORT_CLUSTER_TEXT_H

#include <jansson.h>

struct strbuf;

/*
 * The report as lines for people (everything but the findings, which render_findings_text
 * shows); the measurement of every link test when verbose or when there are few.
 */
void cluster_report_text(const json_t *report, int verbose, struct strbuf *sb);
/*
 * The first screen's last line: the nodes, how many link tests ran and how long it took, and
 * that -v shows the measurements, the node checks and the findings folded under their causes.
 * `deferred`: link tests the report's "links" holds as a placeholder (cluster/run.h
 * struct cluster_links), counted with the array's.
 */
void cluster_report_brief(const json_t *report, size_t deferred, struct strbuf *sb);

#endif
