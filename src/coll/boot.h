/*
 * How bench ranks find each other: rank 0 listens on the master address; every other rank
 * connects to it (retrying until the deadline), says who it is and which options it runs with,
 * and gets everyone's data address back. The control connections then stay open for barriers,
 * sums and broadcasts (a star through rank 0), and the ring's data sockets are connected
 * rank -> rank+1 with several stripes. Sockets, deadlines and the host:port parser are
 * net/sock's.
 *
 * The NCCL backend's forked child never touches these connections: it asks its parent over a
 * socketpair (boot_become_child / boot_relay_serve), so only the parent holds the bootstrap.
 *
 * Everything a peer sends is decoded strictly (fixed little binary frames with a magic, a type,
 * a capped length) and a peer that sends garbage, disagrees or vanishes is named in the error.
 * The rest of coll/ uses only the functions below.
 */
#ifndef NCCLCHECK_COLL_BOOT_H
#define NCCLCHECK_COLL_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct boot_opts {
	int rank, world;
	const char *master;       /* "host:port" (or "[v6]:port"): rank 0 listens there */
	const char *const *peers; /* or every rank's "host:port" (rank 0's is the master) */
	size_t npeers;
	long timeout_ms;      /* for joining, and for every later exchange */
	uint64_t params_hash; /* every rank must run the same options */
};

struct boot;

struct boot *boot_new(const struct boot_opts *o, struct err *e);
/* Sends "bye" (workers) or waits for every bye (rank 0), then closes. NULL is fine. */
void boot_free(struct boot *b);
/* Closes without the goodbye (after an error, or in a child that inherited the sockets). */
void boot_drop(struct boot *b);

int boot_rank(const struct boot *b);
int boot_world(const struct boot *b);
/* "rank 2 (10.10.0.12)": how errors name a peer. */
const char *boot_peer_name(const struct boot *b, int rank);

int boot_barrier(struct boot *b, struct err *e);
/* Element-wise sum of v[0..n) over all ranks; every rank gets the sums. n <= 64. */
int boot_sum(struct boot *b, double *v, size_t n, struct err *e);
/* Rank 0's `len` bytes to every rank. */
int boot_bcast(struct boot *b, void *buf, size_t len, struct err *e);
/* Every rank's `len` bytes to rank 0, in rank order into all[world * len] (rank 0 only). */
int boot_gather(struct boot *b, const void *mine, size_t len, void *all, struct err *e);
/* Best effort: tells rank 0 (or, from rank 0, everyone) why this rank gives up. */
void boot_report_error(struct boot *b, const char *msg);

/*
 * A forked child's side (coll/boot_relay.c): closes its copies of the sockets and from then on
 * asks the parent, over `relay_fd` (one end of a non-blocking socketpair), for every barrier,
 * sum, broadcast, gather and error report. rank/world/peer names stay as they were.
 */
void boot_become_child(struct boot *b, int relay_fd);
/*
 * The parent's side: reads one request of the child from `fd`, runs it over the control
 * connections and answers with its outcome (a peer's failure goes back to the child as its
 * error). 0: served; 1: the child closed its end; -1: the child spoke nonsense (in `e`).
 */
int boot_relay_serve(struct boot *b, int fd, struct err *e);

/*
 * Connects `nstripes` sockets to rank+1 and accepts as many from rank-1 (none for one rank).
 * The fds are non-blocking, TCP_NODELAY, and belong to the caller.
 */
int boot_ring(struct boot *b, int nstripes, int *send_fds, int *recv_fds, struct err *e);

/*
 * The control connections a collective keeps an eye on while it runs (rank 0: one per worker,
 * ranks[i] saying whose; a worker: the one to rank 0). Returns how many.
 */
size_t boot_watch_fds(const struct boot *b, int *fds, int *ranks, size_t max);
/*
 * Called when a watched fd is readable mid-collective: 1 when the peer is gone, 2 when it gave
 * up and said why (the reason in `e` either way), 0 when it only sent its next control message
 * early (stop watching it).
 */
int boot_watch_event(struct boot *b, int fd, int rank, struct err *e);

/*
 * Decodes rank 0's address table (a worker's view of everyone): exactly `world` entries of
 * port, length and a printable host, nothing after them. 0, or -1 when it is not such a table.
 */
int boot_decode_table(const unsigned char *p, size_t len, int world, uint64_t *nonce,
		      char (*addr)[64], int *port);

#endif
