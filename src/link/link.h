/*
 * Link tests between two nodes: TCP connect + latency, the exact firewall map of a port range,
 * path MTU with DF (the black hole told from a smaller hop), and TCP bandwidth with 1..N streams.
 *
 * Every test has two roles. The SERVER role runs on the node under test (the "target": it
 * listens on its own address of the interface under test); the CLIENT role runs on the peer and
 * reaches for it. A test is one typed request (struct link_req), which the server answers with a
 * struct link_ready (the ports it actually opened), which the client turns into a struct
 * link_result. Requests, readies and results travel between nodes as JSON; their decoders are
 * strict, because that JSON comes from a peer (malformed or out-of-range input is rejected with a
 * message, nothing is half-used).
 *
 * Three levels of API:
 *   - the roles: link_server_start / link_server_stop on the target, link_client_run on the peer;
 *   - an agent (link_agent.h) that executes role messages on a node, whatever carries them;
 *   - a pair driver (link_run) that runs a whole test over a struct link_chan (the cluster's
 *     protocol, or link_ctl's plain TCP control connection), batching port scans.
 * Nothing here prints, exits or reads the environment; deadlines are explicit; threads are
 * bounded (one per server, one per bandwidth stream).
 */
#ifndef NCCLCHECK_LINK_TEST_H
#define NCCLCHECK_LINK_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "util/err.h"

#define LINK_ADDR_LEN 64		/* numeric IPv4/IPv6 text, scope included */
#define LINK_IFNAME_LEN 16		/* IFNAMSIZ */
#define LINK_CONNECT_PORTS_MAX 8
#define LINK_PINGS_MAX 10000
#define LINK_SCAN_LIST_MAX 1024		/* sampled ports per request */
#define LINK_SCAN_BATCH_DEFAULT 4096	/* listeners per batch on the target */
#define LINK_SCAN_BATCH_MAX 32768
#define LINK_SCAN_TIMEOUT_DEFAULT 400	/* ms without an answer = dropped (SYN retry is at 1 s) */
#define LINK_SCAN_RETRY_TIMEOUT 1500	/* ms for the second look at isolated drops */
#define LINK_BW_STREAMS_MAX 64
#define LINK_TIMEOUT_MAX 60000		/* ms: no single step may wait longer */
#define LINK_DURATION_MAX 120000

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

struct link_req {
	enum link_kind kind;
	char addr[LINK_ADDR_LEN];	/* the target's address on the interface under test */
	char src[LINK_ADDR_LEN];	/* the client's source address; "" = the kernel's choice */
	char ifname[LINK_IFNAME_LEN];	/* the client's interface (SO_BINDTODEVICE); "" = none */
	int timeout_ms;			/* per connect / per probe; 0 = the test's default */

	/* LINK_CONNECT: ports the target listens on (0 = one the kernel picks), pings after */
	uint16_t ports[LINK_CONNECT_PORTS_MAX];
	int nports;
	int pings;

	/* LINK_SCAN: [lo, hi] when nlist == 0, else the list; `window` concurrent connects */
	uint16_t lo, hi;
	uint16_t list[LINK_SCAN_LIST_MAX];
	int nlist;
	int window;			/* 0 = all ports of the batch at once */
	int batch;			/* listeners per batch (link_run); 0 = LINK_SCAN_BATCH_DEFAULT */

	/* LINK_MTU: search [min_mtu, max_mtu] (IP packet sizes); max 0 = the client's if MTU */
	int min_mtu, max_mtu;

	/* LINK_BW: streams, and a duration (ms) or a byte count per stream (the first non-zero) */
	int streams;
	int duration_ms;
	long long bytes;
};

/* The server's answer to a request: where it listens. */
struct link_ready {
	enum link_kind kind;
	uint16_t ports[LINK_CONNECT_PORTS_MAX];	/* CONNECT: actual ports; MTU, BW: ports[0] */
	int nports;
	/* SCAN: the ports it listens on in this batch, and those it could not take */
	uint16_t *listening;
	size_t nlistening;
	uint16_t *in_use;
	size_t nin_use;
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
	double rtt_p50_us, rtt_p99_us, rtt_min_us, rtt_max_us;
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
	int batches;
	long elapsed_ms;
	uint8_t *state;			/* 65536 entries, enum link_port_state */
};

struct link_mtu_result {
	int if_mtu;			/* the top of the search (the client's interface MTU) */
	int path_mtu;			/* the largest IP packet that got through, 0 = none */
	int icmp_mtu;			/* the MTU an ICMP "fragmentation needed" named, 0 = none came */
	int blackhole;			/* bigger packets vanished and no ICMP said why */
	int probes;
	long elapsed_ms;
};

struct link_bw_result {
	int streams;
	double gbps[LINK_BW_STREAMS_MAX];	/* per stream, receiver's bytes over its time */
	long long bytes[LINK_BW_STREAMS_MAX];
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

/* ---- names ------------------------------------------------------------------------------- */
const char *link_kind_name(enum link_kind k);		/* "connect", "scan", "mtu", "bw" */
int link_kind_parse(const char *s, enum link_kind *out);
const char *link_status_name(enum link_status s);	/* "ok", "refused", "timeout", ... */
int link_status_parse(const char *s, enum link_status *out);
const char *link_port_state_name(enum link_port_state s);	/* "open", "dropped", ... */
int link_port_state_parse(const char *s, enum link_port_state *out);
/* The status a connect errno means (ECONNREFUSED -> REFUSED, ETIMEDOUT -> TIMEOUT, ...). */
enum link_status link_status_from_errno(int err);

/* ---- requests, readies, results ---------------------------------------------------------- */
/* A request with the defaults of its kind filled in; addr must still be set. */
void link_req_init(struct link_req *r, enum link_kind kind);
/* Checks bounds and addresses; the decoders call it too. */
int link_req_check(const struct link_req *r, struct err *e);

json_t *link_req_to_json(const struct link_req *r);
int link_req_from_json(const json_t *j, struct link_req *r, struct err *e);

void link_ready_init(struct link_ready *r);
void link_ready_release(struct link_ready *r);
json_t *link_ready_to_json(const struct link_ready *r);
/* Strict; `kind` must match the request the ready answers. */
int link_ready_from_json(const json_t *j, enum link_kind kind, struct link_ready *r,
			 struct err *e);

void link_result_init(struct link_result *r, enum link_kind kind);
void link_result_release(struct link_result *r);
json_t *link_result_to_json(const struct link_result *r);
/* Strict (a peer's result); the scan's per-port array is rebuilt from the intervals. */
int link_result_from_json(const json_t *j, struct link_result *r, struct err *e);

/* ---- roles ------------------------------------------------------------------------------- */
struct link_server;

/*
 * Target side: opens what the request needs on req->addr (listeners, an echo thread, a UDP echo
 * responder, a receiver) and describes it in `ready`. A scan request opens at most
 * req->batch ports (all of [lo, hi] or the list must fit: link_run splits ranges).
 */
struct link_server *link_server_start(const struct link_req *req, struct link_ready *ready,
				      struct err *e);
/* Stops it and frees it (NULL is fine). Waits at most `wait_ms` for its threads. */
void link_server_stop(struct link_server *s, int wait_ms);

/*
 * Peer side: runs the request against the ready the target sent. Fills `res` (for a scan, the
 * states of the ready's ports are merged into res->s.state, so calls accumulate over batches:
 * call link_scan_finish() after the last). Returns -1 only when the test could not run at all
 * (bad ready, no fds); a refused or dropped connection is a result, not an error.
 */
int link_client_run(const struct link_req *req, const struct link_ready *ready,
		    struct link_result *res, struct err *e);

/* Scans: intervals, counts and in_use from res->s.state over [lo, hi] (or the list). */
void link_scan_finish(const struct link_req *req, struct link_result *res);

/*
 * Splits a scan request into batch requests of at most `batch` ports each (ranges stay ranges).
 * Returns the number of batches written to out (at most `max`), pure.
 */
int link_scan_split(const struct link_req *req, int batch, struct link_req *out, int max);

/*
 * The local interface the kernel routes `addr` through (from `src` when given): its name, and
 * its MTU in *mtu (may be NULL). -1 with `e` set when there is no route.
 */
int link_route_ifname(const char *addr, const char *src, char *ifname, size_t len, int *mtu,
		      struct err *e);

/* Raises RLIMIT_NOFILE's soft limit to the hard one; returns the new soft limit or -1. */
long link_raise_nofile(struct err *e);

/* ---- text ------------------------------------------------------------------------------ */
struct strbuf;
/*
 * One or a few lines for people: "connect 10.10.0.10:41234 from 10.10.0.11: ok in 85 us, rtt
 * p50 31 us p99 80 us (100 pings)", "ports 32768-60999 of 10.10.0.10: 32768-49151 dropped,
 * 49152-60999 open (28232 ports in 2.1 s)", ... Appends to sb, no trailing newline.
 */
void link_result_text(const struct link_result *r, struct strbuf *sb);

/* ---- the pair driver --------------------------------------------------------------------- */
enum link_side { LINK_SIDE_TARGET = 0, LINK_SIDE_PEER = 1 };

/*
 * How a pair driver reaches the agents of the two nodes of a pair: sends `msg` (link_agent's
 * message) to the agent on `side` and returns its reply (a new reference) or NULL with `e` set.
 * The cluster wires it to its protocol; link_ctl to a plain TCP control connection; unit tests
 * to two in-process agents.
 */
struct link_chan {
	json_t *(*call)(void *arg, enum link_side side, const json_t *msg, int timeout_ms,
			struct err *e);
	void *arg;
};

/*
 * Runs one whole test over a channel: start on the target, run on the peer, stop on the target;
 * scans of a range in batches (req->batch ports each), isolated drops retried. -1 with `e` set
 * when a step failed (a peer vanished, garbage came back); `res` is then partly filled.
 */
int link_run(const struct link_chan *ch, const struct link_req *req, struct link_result *res,
	     struct err *e);

#endif
