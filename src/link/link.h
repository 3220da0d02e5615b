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

#include "model/link.h"
#include "util/err.h"

#define LINK_PINGS_MAX 10000
#define LINK_SCAN_LIST_MAX 4096		/* listed ports per request: a batch (every isolated
					 * drop of a lossy full range in one look again) */
#define LINK_SCAN_BATCH_DEFAULT 4096	/* listeners per batch on the target */
#define LINK_SCAN_BATCH_MAX 32768
#define LINK_SCAN_TIMEOUT_DEFAULT 400	/* ms without an answer = dropped (SYN retry is at 1 s) */
#define LINK_PROBES_MAX 256		/* loss probe connects */
#define LINK_TIMEOUT_MAX 60000		/* ms: no single step may wait longer */
#define LINK_DURATION_MAX 120000

struct link_req {
	enum link_kind kind;
	char addr[LINK_ADDR_LEN];	/* the target's address on the interface under test */
	char src[LINK_ADDR_LEN];	/* the client's source address; "" = the kernel's choice */
	char ifname[LINK_IFNAME_LEN];	/* the client's interface (SO_BINDTODEVICE); "" = none */
	int timeout_ms;			/* per connect / per probe; 0 = the test's default */

	/* LINK_CONNECT: ports the target listens on (0 = one the kernel picks; a port another
	 * socket holds falls back to 0), pings after, then `probes` connects at once (the loss
	 * probe, 0 = none). LINK_MTU, LINK_BW: ports[0] is the port to listen on (nports 1; a
	 * port the connect test found open), 0 or nports 0 = the kernel's choice. */
	uint16_t ports[LINK_CONNECT_PORTS_MAX];
	int nports;
	int pings;
	int probes;

	/* LINK_SCAN: [lo, hi] when nlist == 0, else the list; `window` concurrent connects */
	uint16_t lo, hi;
	uint16_t list[LINK_SCAN_LIST_MAX];
	int nlist;
	int window;			/* 0 = all ports of the batch at once */
	int batch;			/* listeners per batch (link_run); 0 = LINK_SCAN_BATCH_DEFAULT */
	int retry_ms;			/* each look again at isolated drops; 0 = the default */
	int looks;			/* looks again at least (more while some answer); 0 = 1 */
	int first_only;			/* the first pass only, no looks again: a batch of a range
					 * that link_run looks at again once, over every batch */
	int look_all;			/* looks again at every drop, not only isolated ones: a list
					 * of a range's isolated drops (its neighbours are not in it) */
	int src_port;			/* connects from this source port (one whose replies came
					 * back in an earlier pass), 0 = the kernel's choice */

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
	/* CONNECT: how many connects the listeners queue (the backlog asked, capped by the
	 * target's net.core.somaxconn: 128 before Linux 5.4); 0 when unknown. The loss probe
	 * sends no more than its listeners hold, or the target's own queue drops handshakes
	 * and reads as loss on the link. */
	int accepts;
	/* SCAN: the ports it listens on in this batch, and those it could not take */
	uint16_t *listening;
	size_t nlistening;
	uint16_t *in_use;
	size_t nin_use;
};

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
/* The per-port states (65536 entries, caller frees) from a scan's intervals and in-use list:
 * a result decoded from JSON carries no state array. */
uint8_t *link_scan_states(const struct link_scan_result *s);
/*
 * One scan's figures added into another's: ports retried and first drops summed, looks and
 * lateness the most of either (a batch of a range, or a pass over it again).
 */
void link_scan_add(struct link_scan_result *into, const struct link_scan_result *part);
/*
 * Another full pass over the same range: every port dropped in `into` that answered in `again`
 * takes that answer (a filter drops every SYN, so one answer proves the port passes), counted
 * in into->flaky; then `into` is finished again for `req` (and holds its state array).
 */
void link_scan_merge(const struct link_req *req, struct link_result *into,
		     const struct link_result *again);

/*
 * The ports of `req` (its range or list) that `state` holds dropped and that sit alone among
 * answered ones (runs of a few, what loss makes; a filter drops runs): written to out (room for
 * 65536), their number returned. Pure.
 */
size_t link_scan_isolated_drops(const struct link_req *req, const uint8_t *state, uint16_t *out);

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
