/*
 * What a link can carry, and how far a measured figure is from it (frontier-2026 §3(c)).
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

#include "finding.h"
#include "util/err.h"

#define CEILING_LOW_PCT 60.0		/* below this share of a real line rate: a finding */
#define CEILING_LOW_PCT_NOMINAL 10.0	/* a nominal (virtual) speed only catches a hard cap */

struct link_ceiling {
	double line_gbps;	/* 0 = unknown */
	int nominal;		/* the speed is a software link's nominal figure */
	int mtu;
	int ipv6;
	double goodput_frac;	/* TCP payload / wire bytes at this MTU */
	double ceiling_gbps;	/* line_gbps * goodput_frac; 0 = unknown */
};

/* Pure: the ceiling of a link of `speed_mbps` (<= 0: unknown) at `mtu`. */
void ceiling_compute(double speed_mbps, int nominal, int mtu, int ipv6, struct link_ceiling *c);

/* measured / ceiling in percent; -1 when the ceiling is unknown. */
double ceiling_percent(const struct link_ceiling *c, double measured_gbps);

/*
 * Reads speed, MTU and whether the interface is a software link from `sysfs` (normally
 * "/sys/class/net"; tests pass a fixture tree). -1 with `e` set when the interface is missing.
 */
int ceiling_read(const char *sysfs, const char *ifname, int ipv6, struct link_ceiling *c,
		 struct err *e);

/*
 * Adds "link.bw.low" (warn) when the measured figure is under the bar for this ceiling:
 * CEILING_LOW_PCT of a real line rate, CEILING_LOW_PCT_NOMINAL of a nominal one. `node` is the
 * sender, `peer` the receiver; `what` names the subject in the title ("the link", "host n2").
 * Returns 1 when it added the finding, 0 when the figure is fine or the ceiling unknown.
 */
int ceiling_check(struct findings *fs, const struct link_ceiling *c, double measured_gbps,
		  int streams, const char *node, const char *peer, const char *ifname);

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
