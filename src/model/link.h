/*
 * What a link test measured, as data the cluster view (model/cluster.h) and the rules read: the
 * test kinds, what a connect met, the per-port states of a scan, and each kind's result; and what
 * a link can carry (its ceiling). link/ measures and fills these; nothing here does I/O, so the
 * model and the rules stand on this header, not on link/ (link/link.h includes it).
 *
 * The line rate comes from /sys/class/net/IF/speed (Mbit/s; -1 or unreadable = unknown). A
 * software link (veth, bridge, bond without a `device`) reports a nominal speed (veth says
 * 10000 whatever it carries), so the ceiling keeps it but marks it nominal. TCP's goodput share
 * of the line is (MTU - 52) / (MTU + 38) for IPv4 with timestamps (IPv6: MTU - 72): 94.1 % at
 * 1500, 99.0 % at 9000 — Ethernet header, FCS, preamble and inter-frame gap are the 38.
 */
#ifndef NCCLCHECK_MODEL_LINK_H
#define NCCLCHECK_MODEL_LINK_H

#include <stddef.h>
#include <stdint.h>

#define LINK_ADDR_LEN 64		/* numeric IPv4/IPv6 text, scope included */
#define LINK_IFNAME_LEN 16		/* IFNAMSIZ */
#define LINK_CONNECT_PORTS_MAX 8
#define LINK_BW_STREAMS_MAX 64

enum link_kind {
	LINK_CONNECT = 0,	/* TCP connect to 1..8 ports, then K ping-pongs for latency */
	LINK_SCAN,		/* every port of a range (or a list): open / rejected / dropped */
	LINK_MTU,		/* largest DF packet that passes, up to the interface MTU */
	LINK_BW,		/* TCP goodput, 1..N streams, client sends, server receives */
};

/* What one TCP connect attempt met. */
enum link_status {
	LINK_OK = 0,
	LINK_REFUSED,		/* RST (or ICMP port unreachable): the host is there, the port is not */
	LINK_TIMEOUT,		/* no answer within the deadline: a DROP rule or a dead path */
	LINK_NOROUTE,		/* ENETUNREACH: no route from the chosen source */
	LINK_HOSTUNREACH,	/* EHOSTUNREACH: ARP failed or ICMP host unreachable / prohibited */
	LINK_ERROR,		/* a local failure (source address not ours, no fd) */
	LINK_STATUS_N,
};

/* Per-port states of a scan. */
enum link_port_state {
	LINK_PORT_UNTESTED = 0,	/* outside the request */
	LINK_PORT_OPEN,
	LINK_PORT_REJECTED,	/* RST / ICMP port unreachable */
	LINK_PORT_DROPPED,	/* no answer */
	LINK_PORT_UNREACH,	/* ICMP host/net unreachable or prohibited */
	LINK_PORT_IN_USE,	/* the target could not listen there (another socket holds it) */
	LINK_PORT_ERROR,	/* a local failure on either side */
	LINK_PORT_STATE_N,
};

struct link_port_try {
	uint16_t port;
	enum link_status status;
	int err;			/* errno of a failure, 0 on success */
	int connect_us;
};

struct link_connect_result {
	enum link_status status;	/* OK when any port connected, else the first port's */
	struct link_port_try tries[LINK_CONNECT_PORTS_MAX];
	int ntries;
	int pings;			/* round trips done */
	/* p50 and p99 of the round trips that needed no retransmit (a lost ping's wait is TCP's
	 * retransmit timeout, not the path's); min and max of every ping */
	double rtt_p50_us, rtt_p99_us, rtt_min_us, rtt_max_us;
	uint16_t open_port;		/* the first port that connected: known open, 0 = none */
	/* the loss probe: `probes` connects at once to an open port; a SYN or SYN-ACK lost costs
	 * the kernel's 1 s retransmit (counted by TCP_INFO); `unanswered`: not done after it */
	int probes, retrans, unanswered;
	double loss_pct;		/* per packet, from retrans / clean handshakes; -1 = none */
};

struct link_interval {
	uint16_t lo, hi;
	enum link_port_state state;
};

struct link_scan_result {
	uint16_t lo, hi;		/* the range asked (list mode: min and max of the list) */
	int counts[LINK_PORT_STATE_N];	/* ports per state */
	/* maximal runs of one state over the tested ports; in-use ports inside a run of one
	 * state do not break it (they are listed in in_use) */
	struct link_interval *iv;
	size_t niv;
	uint16_t *in_use;
	size_t nin_use;
	int retried;			/* isolated drops looked at again with a longer timeout */
	int flaky;			/* ports dropped in one pass that answered in another:
					 * a filter drops every SYN, so these were loss or load */
	int batches;
	long elapsed_ms;
	/* how the scan was run (derived from the link's round trip and loss) and what it met */
	int timeout_ms;			/* first look, per port */
	int retry_ms;			/* each look again at isolated drops */
	int looks;			/* looks again done (the most over batches) */
	int first_drops;		/* ports without an answer on their first look */
	int late_ms;			/* the most this process's timers fired late: CPU
					 * starvation; drops then say nothing about the network */
	int src_port;			/* a source port whose replies came back (an open port's
					 * connect), 0: none; the looks again bind to it */
	uint8_t *state;			/* 65536 entries, enum link_port_state: scratch, NULL
					 * in a result decoded from JSON or kept by a cluster
					 * run (the intervals hold it all) */
};

struct link_mtu_result {
	int if_mtu;			/* the top of the search (the client's interface MTU) */
	int path_mtu;			/* the largest IP packet that got through, 0 = none */
	int icmp_mtu;			/* the MTU an ICMP "fragmentation needed" named, 0 = none came */
	int blackhole;			/* bigger packets vanished and no ICMP said why */
	int probes;
	int wait_ms;			/* per probe, from the link's round trip */
	long elapsed_ms;
};

struct link_bw_result {
	int streams;
	/* per stream (`streams` of each, freed by link_result_release): inline, 64 of each made
	 * every kind's record 1.5 KB, a cluster's thousands of them 10 MB at 32 nodes */
	double *gbps;				/* receiver's bytes over its time */
	long long *bytes;
	int stalled;			/* streams that made no progress for timeout_ms (counted 0) */
	double total_gbps;		/* all bytes over first byte .. last byte at the receiver */
	long long total_bytes;
	double seconds;
};

struct link_result {
	enum link_kind kind;
	char addr[LINK_ADDR_LEN];
	char src[LINK_ADDR_LEN];
	char ifname[LINK_IFNAME_LEN];
	struct link_connect_result c;
	struct link_scan_result s;
	struct link_mtu_result m;
	struct link_bw_result b;
};

struct link_ceiling {
	double line_gbps;	/* 0 = unknown */
	int nominal;		/* the speed is a software link's nominal figure */
	int mtu;
	int ipv6;
	double goodput_frac;	/* TCP payload / wire bytes at this MTU */
	double ceiling_gbps;	/* line_gbps * goodput_frac; 0 = unknown */
};

/*
 * Every timeout of a link's tests, from what was measured on that link first (the connect
 * test's round trip and loss probe), with floors (a LAN's sub-millisecond round trip still
 * gets the kernel's scheduling slack) and caps (a dead path costs a bounded time).
 */
struct link_timeouts {
	int connect_ms;			/* one TCP connect (bandwidth streams, MTU has none) */
	int scan_ms;			/* a scan's first look at a port */
	int retry_ms;			/* each look again: past one SYN retransmit (1 s) */
	int looks;			/* looks again at isolated drops, at least */
	int mtu_ms;			/* one MTU probe */
	int bw_stall_ms;		/* a bandwidth stream without progress */
};
#define LINK_LOOKS_MAX 6
#define LINK_SCAN_FIRST_FLOOR_MS 400

/* Pure. rtt_us <= 0: unknown (the defaults of a LAN); loss_pct < 0: unknown. */
void link_timeouts_derive(double rtt_us, double loss_pct, struct link_timeouts *t);

/* The state `port` had in scan `s` (enum link_port_state), -1 when the scan did not test it.
 * Pure. */
int link_scan_port_state(const struct link_scan_result *s, uint16_t port);

/*
 * Whether a failed connect test `c` is contradicted by the port scan `s` that ran later over the
 * same path: the scan found open a port the connect timed out on. A filter drops every SYN to
 * that port, so the connect's handshakes were lost for a while (a full neighbour table, a loaded
 * or flapping host), not filtered. Pure; 0 when `c` connected or either is NULL.
 */
int link_connect_contradicted(const struct link_connect_result *c, const struct link_scan_result *s);

/* Per-packet loss from the share q of connects that needed a SYN retransmit (SYN or SYN-ACK
 * lost): q = 1 - (1 - p)^2. Pure. */
double link_loss_from_share(double q);

/*
 * The share of handshakes with a loss, from `retrans` retransmitted of `done` completed loss
 * probes. The probe waits past the first retransmit only, so a handshake completes clean with
 * 1 - s and after one retransmit with s(1 - s): s = retransmitted / clean, unbiased by what was
 * still under way (lost twice, or replies a filter on the prober's side drops). Pure.
 */
double link_handshake_share(int retrans, int done);

/* A scan whose own timers fired later than two looks again wait: CPU starvation, not the
 * network, decided its drops (and it saw some). Pure. */
#define LINK_SCAN_RETRY_TIMEOUT_MS 1500	/* a look again (default) */
int link_scan_starved(const struct link_scan_result *s);

/*
 * The stall of a scan's own timers past which it trusts none of its drops (link_scan_starved):
 * two looks again, here at the default. cluster/run.c derives the time a silent node is given
 * up as dead from it.
 */
#define LINK_SCAN_STARVED_MS (2 * LINK_SCAN_RETRY_TIMEOUT_MS)

/* Pure: the ceiling of a link of `speed_mbps` (<= 0: unknown) at `mtu`. */
void ceiling_compute(double speed_mbps, int nominal, int mtu, int ipv6, struct link_ceiling *c);

/* measured / ceiling in percent; -1 when the ceiling is unknown. */
double ceiling_percent(const struct link_ceiling *c, double measured_gbps);

/* Names, as the JSON and the findings spell them; the parsers return -1 on an unknown name. */
const char *link_kind_name(enum link_kind k);		/* "connect", "scan", "mtu", "bw" */
int link_kind_parse(const char *s, enum link_kind *out);
const char *link_status_name(enum link_status s);	/* "ok", "refused", "timeout", ... */
int link_status_parse(const char *s, enum link_status *out);
const char *link_port_state_name(enum link_port_state s);	/* "open", "dropped", ... */
int link_port_state_parse(const char *s, enum link_port_state *out);

#endif
