/*
 * Link results as findings: what failed between which two nodes over which interface, with the
 * evidence (ports, sizes, figures) and the fix as lines and settings[]. Pure: no I/O.
 *
 * New ids: link.connect.refused / .timeout / .noroute / .hostunreach / .error (error),
 * link.connect.ok (ok), link.ports.blocked (error), link.ports.ok (ok), link.mtu.blackhole
 * (error), link.mtu.smaller (info), link.mtu.ok (ok), link.bw.low (warn, rules/link_ceiling.c),
 * link.bw.ok (ok).
 */
#ifndef NCCLCHECK_LINK_FINDINGS_H
#define NCCLCHECK_LINK_FINDINGS_H

#include "finding.h"
#include "rules/link_ceiling.h"
#include "model/link.h"

/* Who a result is about: the peer ran the client side, the target the server side. */
struct link_who {
	const char *peer;	/* node name of the client side (NULL: "this node") */
	const char *target;	/* node name of the server side (NULL: its address) */
	const char *ifname;	/* the interface under test, by name (NULL: unknown) */
	/* scans: the target's ip_local_port_range, when known (0 = unknown) */
	int range_lo, range_hi;
};

/*
 * Adds the findings of one result. `ceil` is the link's ceiling for bandwidth results (NULL or
 * unknown: no ceiling verdict). Passed tests give one "ok" finding each.
 */
void link_findings(const struct link_result *r, const struct link_who *who,
		   const struct link_ceiling *ceil, struct findings *fs);

#endif
