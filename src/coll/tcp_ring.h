/*
 * The CPU ring over TCP (bench --backend tcp): all-reduce as a pipelined reduce-scatter +
 * all-gather (Gloo's shape, research/bench-anchors.md §4.1), all-gather and a pipelined chain
 * broadcast. Each block is cut into segments that flow round the ring over several sockets per
 * neighbour (stripes); one non-blocking event loop moves bytes on every stripe and reduces each
 * piece the moment it lands, so reduction overlaps the transfers and the kernel keeps sending
 * from the socket buffers while the CPU adds. Memory: the caller's buffers plus one small scratch
 * per stripe.
 */
#ifndef NCCLCHECK_COLL_TCP_RING_H
#define NCCLCHECK_COLL_TCP_RING_H

#include <stddef.h>

#include "coll/boot.h"
#include "coll/coll.h"
#include "coll/sweep.h"
#include "util/err.h"

struct ring_opts {
	int nstripes;    /* sockets per neighbour (1..16) */
	size_t segment;  /* bytes per pipelined piece (0: 512 KiB) */
	long timeout_ms; /* no progress for this long is an error naming the peer */
	int window;		/* > 0: TCP_WINDOW_CLAMP on the receiving sockets (bytes) */
};

struct ring;

/* Connects the ring through `b` (which must outlive it). */
struct ring *ring_new(struct boot *b, const struct ring_opts *o, struct err *e);
void ring_free(struct ring *r);

/*
 * Runs one collective to completion. ERR_USAGE for a collective the ring does not implement
 * (reducescatter, alltoall); ERR_PEER / ERR_TIMEOUT naming the rank when a peer dies or stalls.
 */
int ring_run(struct ring *r, const struct coll_call *c, struct err *e);
/* The socket towards the next rank (its local address names the interface used), -1: none. */
int ring_send_fd(const struct ring *r);
/* Whether the ring implements `id`. */
int ring_supports(enum coll_id id);
/* The ring as a sweep backend (host memory, each call completes). */
void ring_backend(struct ring *r, struct coll_backend *be);

#endif
