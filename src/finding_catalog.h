/*
 * The catalogue of finding ids: every id a node rule or explain's reasoner emits, with its default
 * severity and one line saying what it is about. explain's log signatures (explain/sigs.c) carry
 * their own id, severity and title and are not repeated here. tests/unit/test_finding_catalog.c
 * fails when code emits an id that is not here, when a row is emitted by nothing or asserted by no
 * test, and when docs/findings.md (a section per id: what it means, the fix, how to verify) does
 * not match these rows.
 */
#ifndef NCCLCHECK_FINDING_CATALOG_H
#define NCCLCHECK_FINDING_CATALOG_H

#include <stddef.h>

#include "finding.h"

struct finding_kind {
	const char *id;		/* stable, dotted: "net.ifname.nomatch" */
	enum severity sev;	/* the severity it usually has; some rules raise or lower it per case */
	const char *summary;	/* one line, for catalogues and docs/findings.md */
};

extern const struct finding_kind finding_catalog[];
extern const size_t finding_catalog_count;

/* The row of `id`, or NULL. */
const struct finding_kind *finding_catalog_find(const char *id);

#endif
