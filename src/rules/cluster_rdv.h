/*
 * The rendezvous's events as findings (cluster.rdv.*, cluster.auth.*, cluster.peer.*): the
 * `cluster` run hands over what rdv_events() recorded, and what it could not use. Pure.
 */
#ifndef NCCLCHECK_RULES_CLUSTER_RDV_H
#define NCCLCHECK_RULES_CLUSTER_RDV_H

#include <stddef.h>

#include "finding.h"
#include "rdv/rdv.h"

/*
 * One finding per event, with the fix; an abort that repeats an event already said adds none.
 * `master_ip`: on rank 0, the numeric address its MASTER_ADDR resolves to there (one of its
 * own), which a worker that cannot resolve or reach the name can use; NULL or "" when unknown.
 */
void cluster_rdv_findings(const struct rdv_event *ev, size_t n, const struct rdv_opts *ro,
			  const char *master_ip, struct findings *fs);

/* cluster.rdv.aborted (`why`: the run's error) when no event explained the failure. */
void cluster_rdv_aborted(struct findings *fs, const char *why);

/* cluster.peer.facts: rank `rank` (on `host`) sent facts that fail the check, `why`. */
void cluster_peer_facts_refused(struct findings *fs, const char *host, int rank, const char *why);

#endif
