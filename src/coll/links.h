/*
 * A collective's links: every rank's end of the network path (its interface and that
 * interface's ceiling, link/ceiling.h), gathered on rank 0 so bench can hold busbw against the
 * slowest of them.
 */
#ifndef NCCLCHECK_COLL_LINKS_H
#define NCCLCHECK_COLL_LINKS_H

#include "coll/boot.h"
#include "link/ceiling.h"
#include "util/err.h"

/*
 * Collective: every rank passes its own link; rank 0 gets all of them in rank order in *all
 * (boot_world entries, decoded strictly: the rank is the position, a malformed one is
 * "unknown"), the others NULL. The caller frees *all.
 */
int coll_links_gather(struct boot *b, const struct ceiling_link *mine, struct ceiling_link **all,
                      struct err *e);

#endif
