/*
 * A plain control connection for link tests between two nodes without the cluster's
 * rendezvous (`ncclcheck bench p2p --serve` / `--connect`, like iperf3 -s / -c): length-prefixed
 * JSON frames (4-byte big-endian length, capped at LINK_CTL_FRAME_MAX on read and write) that
 * carry link_agent messages. Replies are {"ok": REPLY} or {"error": "message"}. No token: it is
 * for a pair of machines the user controls; the cluster verb uses its authenticated protocol
 * instead and only needs link_agent.h.
 */
#ifndef NCCLCHECK_LINK_CTL_H
#define NCCLCHECK_LINK_CTL_H

#include <signal.h>
#include <stdint.h>

#include <jansson.h>

#include "link/agent.h"

#define LINK_CTL_FRAME_MAX (4u << 20)

/* One frame out / in, until the deadline (monotonic ms). Garbage, oversize: -1, ERR_PEER. */
int link_ctl_send(int fd, const json_t *msg, int64_t deadline_ms, struct err *e);
json_t *link_ctl_recv(int fd, int64_t deadline_ms, struct err *e);

/*
 * Serves agent messages on a listening socket, one control connection at a time, until *stop
 * is set or no connection came for idle_ms. A peer that sends garbage is answered with an error
 * and dropped; a frame must arrive whole within 10 s. Returns 0, or -1 on a local failure.
 */
int link_ctl_serve(int lfd, struct link_agent *agent, const volatile sig_atomic_t *stop,
		   int idle_ms, struct err *e);

/*
 * The driver's channel: TARGET messages go over the control connection `fd`, PEER messages to
 * the local agent.
 */
struct link_ctl_chan {
	int fd;
	struct link_agent *local;
};
json_t *link_ctl_call(void *arg, enum link_side side, const json_t *msg, int timeout_ms,
		      struct err *e);

#endif
