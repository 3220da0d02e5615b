/*
 * How bench ranks find each other: on the rendezvous `cluster` uses (rdv/: rank 0 listens on the
 * master address, every other rank joins it, with the same token, HMAC, join timeout and
 * dead-peer logic). Joined, every rank says where its ring listens and which options it runs
 * with; rank 0 checks them and sends everyone the table. Barriers, sums, broadcasts and gathers
 * are the rendezvous' gather and bcast, numbered by a step counter (every rank runs the same
 * collectives in the same order); the ring's data sockets are connected rank -> rank+1 with
 * several stripes, on net/sock. A peer that dies or gives up is named by the rendezvous, which
 * tells every rank at once.
 *
 * The NCCL backend's forked child never touches these connections: it asks its parent over a
 * socketpair (boot_become_child / boot_relay_serve), so only the parent holds the rendezvous.
 *
 * The rest of coll/ uses only the functions below.
 */
#ifndef NCCLCHECK_COLL_BOOT_H
#define NCCLCHECK_COLL_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "util/err.h"

struct boot_opts {
	int rank, world;
	const char *master;       /* "host:port" (or "[v6]:port"): rank 0 listens there */
	const char *const *peers; /* or every rank's "host:port" (rank 0's is the master) */
	size_t npeers;
	long timeout_ms;      /* for joining, and for every later exchange */
	uint64_t params_hash; /* every rank must run the same options */
	const void *token;    /* the job's token (NULL: none), as cluster's --token-file */
	size_t token_len;
	const char *proc_root; /* where to look for the holder of a taken port (NULL: /proc) */
};

struct boot;

struct boot *boot_new(const struct boot_opts *o, struct err *e);
/* Says bye (workers) or waits for every bye (rank 0), then closes. NULL is fine. */
void boot_free(struct boot *b);
/* Closes without the goodbye (after an error, or in a child that inherited the sockets). */
void boot_drop(struct boot *b);

int boot_rank(const struct boot *b);
int boot_world(const struct boot *b);
/* "rank 2 (10.10.0.12)": how errors name a peer (the address it advertised). */
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
 * A forked child's side (coll/boot_relay.c): closes its copies of the rendezvous' descriptors
 * (rdv_close_inherited) and of the ring's listener, and from then on asks the parent, over
 * `relay_fd` (one end of a non-blocking socketpair), for every barrier, sum, broadcast, gather
 * and error report. rank/world/peer names stay as they were.
 */
void boot_become_child(struct boot *b, int relay_fd);
/*
 * The parent's side: reads one request of the child from `fd`, runs it over the rendezvous and
 * answers with its outcome (a peer's failure goes back to the child as its error). 0: served;
 * 1: the child closed its end; -1: the child spoke nonsense (in `e`).
 */
int boot_relay_serve(struct boot *b, int fd, struct err *e);

/*
 * Connects `nstripes` sockets to rank+1 and accepts as many from rank-1 (none for one rank).
 * The fds are non-blocking, TCP_NODELAY, and belong to the caller.
 */
int boot_ring(struct boot *b, int nstripes, int *send_fds, int *recv_fds, struct err *e);

/*
 * What a collective keeps an eye on while it runs: a descriptor that turns readable once the run
 * failed (a peer died, went silent or gave up; the rendezvous' rdv_fail_fd). Returns how many
 * (0 or 1); ranks[i] is -1.
 */
size_t boot_watch_fds(const struct boot *b, int *fds, int *ranks, size_t max);
/*
 * Called when a watched fd is readable mid-collective: 1 with the reason in `e` when the run has
 * failed, else 0.
 */
int boot_watch_event(struct boot *b, int fd, int rank, struct err *e);

/*
 * Decodes rank 0's table (a worker's view of everyone): {"nonce": 16 hex digits, "ranks":
 * exactly `world` {"addr": a printable host, "port": 1..65535}}. 0, or -1 when it is not such a
 * table.
 */
int boot_decode_table(const json_t *t, int world, uint64_t *nonce, char (*addr)[64], int *port);

#endif
