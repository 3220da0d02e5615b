/*
 * Measured bandwidth against what the link can carry (link/ceiling.h): link.bw.low, for one link
 * test (cluster, bench p2p) and for a collective's bus bandwidth (bench).
 */
#ifndef NCCLCHECK_RULES_LINK_CEILING_H
#define NCCLCHECK_RULES_LINK_CEILING_H

#include <jansson.h>

#include "finding.h"
#include "link/ceiling.h"

#define CEILING_LOW_PCT 60.0		/* below this share of a real line rate: a finding */
#define CEILING_LOW_PCT_NOMINAL 10.0	/* a nominal (virtual) speed only catches a hard cap */

/*
 * Adds "link.bw.low" (warn) when the measured figure is under the bar for this ceiling:
 * CEILING_LOW_PCT of a real line rate, CEILING_LOW_PCT_NOMINAL of a nominal one. `node` is the
 * sender, `peer` the receiver; `what` names the subject in the title ("the link", "host n2").
 * Returns 1 when it added the finding, 0 when the figure is fine or the ceiling unknown.
 */
int ceiling_check(struct findings *fs, const struct link_ceiling *c, double measured_gbps,
		  int streams, const char *node, const char *peer, const char *ifname);

/*
 * A collective's figures against its links' ceilings (bench's footer and JSON): one text line
 * per link and a verdict line (each without the "# "; the caller frees them and the array),
 * and link.bw.low (ceiling_check's finding) when the peak busbw is under CEILING_LOW_PCT of
 * the lowest known ceiling, naming that link's host and interface (`next` gives the host the
 * link leads to, indexed like `links`; NULL: unnamed). busbw in GB/s (bytes) as nccl-tests
 * prints it. Returns the JSON: {links: [...], peak_busbw_gbps, avg_busbw_gbps, lowest, peak_pct,
 * avg_pct, verdict: "ok" | "low" | "unknown"}.
 */
json_t *ceiling_coll_report(const struct ceiling_link *links, size_t n, const char *const *next,
			    double peak_busbw, double avg_busbw, int streams, char ***lines,
			    size_t *nlines, struct findings *fs);

#endif
