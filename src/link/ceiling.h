/*
 * What a link can carry, read from sysfs (frontier-2026 §3(c)); the judgement of a figure against
 * it is rules/link_ceiling.c's.
 *
 * The line rate comes from /sys/class/net/IF/speed (Mbit/s; -1 or unreadable = unknown). A
 * software link (veth, bridge, bond without a `device`) reports a nominal speed (veth says
 * 10000 whatever it carries), so the ceiling keeps it but marks it nominal. TCP's goodput share
 * of the line is (MTU - 52) / (MTU + 38) for IPv4 with timestamps (IPv6: MTU - 72): 94.1 % at
 * 1500, 99.0 % at 9000 — Ethernet header, FCS, preamble and inter-frame gap are the 38.
 */
#ifndef NCCLCHECK_CEILING_H
#define NCCLCHECK_CEILING_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "model/link.h"
#include "util/err.h"

/*
 * Reads speed, MTU and whether the interface is a software link from `sysfs` (normally
 * "/sys/class/net"; tests pass a fixture tree). -1 with `e` set when the interface is missing.
 */
int ceiling_read(const char *sysfs, const char *ifname, int ipv6, struct link_ceiling *c,
		 struct err *e);

/*
 * One rank's end of a collective's network path (bench): the interface its traffic leaves by
 * and that interface's ceiling. `why` says why the ceiling is unknown (no such interface, no
 * sysfs speed, a software link's nominal speed) when `known` is 0.
 */
struct ceiling_link {
	int rank;
	int known;
	char host[64];
	char ifname[16];
	char why[160];
	struct link_ceiling c;
};

/* The ceiling of `ifname` as ceiling_read sees it under `sysfs`; never fails (unknown + why). */
void ceiling_link_of_ifname(const char *sysfs, const char *ifname, int ipv6, int rank,
			    const char *host, struct ceiling_link *l);

/* Same, for the interface holding a connected socket's local address (a ring's send socket). */
void ceiling_link_of_socket(const char *sysfs, int fd, int rank, const char *host,
			    struct ceiling_link *l);

/*
 * The fixed-size form ranks exchange (boot_gather): every rank fills one, rank 0 decodes the
 * others' strictly (NUL-terminated names, sane speed and MTU, else "unknown: peer sent ...").
 */
struct ceiling_wire {
	char host[64];
	char ifname[16];
	char why[160];
	int32_t rank, known, nominal, ipv6;
	int32_t speed_mbps, mtu;
};

void ceiling_link_to_wire(const struct ceiling_link *l, struct ceiling_wire *w);
void ceiling_link_from_wire(const struct ceiling_wire *w, struct ceiling_link *l);

#endif
