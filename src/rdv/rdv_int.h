/*
 * net/rdv internals shared by rdv.c (state, helpers, lifecycle), rdv_master.c, rdv_worker.c and
 * rdv_coll.c. Every helper here is called with r->mu held unless it says otherwise.
 */
#ifndef NCCLCHECK_RDV_RDV_INT_H
#define NCCLCHECK_RDV_RDV_INT_H

#include <pthread.h>
#include <stdint.h>

#include "net/frame.h"
#include "net/proto.h"
#include "rdv/rdv.h"
#include "util/err.h"
#include "util/strbuf.h"

/*
 * Connections that have not proven themselves yet (hello, auth) are the only ones limited:
 * members never count. Past PENDING_MAX in all, or PER_SRC_PENDING from one address, a newcomer
 * is still accepted and the oldest unproven connection of the most crowded address (its own
 * address, for the per-address cap) is closed instead: a real worker finishes its handshake in
 * milliseconds and is never the oldest for long, while squatters only push each other out.
 */
#define PENDING_MAX 128
/* After a configuration error (duplicate rank, wrong count, ...) the master stays this long to
 * tell nodes that arrive a moment later the same sentence, instead of leaving them to time out. */
#define CONFIG_LINGER_MS 2500
#define PER_SRC_PENDING 64
/* How long the master waits at the end for the workers' byes, at most. */
#define STOP_MASTER_MAX_MS 30000
/* ... and after a failure, to flush the aborts and the failure report (a master whose own link
 * is down must not wait 30 s for buffers that will never drain). */
#define STOP_FAILED_MAX_MS 3000
/* A member silent past dead_ms whose kernel has acknowledged none of the master's heartbeats
 * for this long has lost its link (or its host): a kernel ACKs within an RTO of 200 ms. */
#define ACK_SILENT_MS 1000
/* Bytes read from one client per loop turn, so one fast sender cannot starve the others. */
#define READ_BUDGET (256 << 10)

enum cstate {
	C_HELLO,	/* accepted, waiting for hello */
	C_AUTH,		/* challenge sent, waiting for auth */
	C_JOINED,	/* welcomed: a member */
	C_BYE,		/* said bye: its EOF is expected */
	C_CLOSING,	/* refused: flush the reject, then close */
};

/*
 * Bytes queued for one peer: a list of encoded messages. A message sent to many peers (the
 * report) is encoded once and shared: each queue holds a reference, not a copy, so the master's
 * memory does not grow with the number of workers it sends the report to.
 */
struct blob {
	int refs;		/* under r->mu */
	size_t len;
	char *buf;
};

struct seg {
	struct blob *b;
	size_t off;		/* bytes of b already sent */
	struct seg *next;
};

struct outq {
	struct seg *head, *tail;
};

struct client {
	int fd;			/* -1 once closed (reaped at the end of the loop turn) */
	enum cstate st;
	char addr[64];
	char src[64];		/* addr without the port: what per-address limits count */
	int64_t accepted_at;
	struct frame_reader rd;
	struct outq out;
	int64_t deadline;	/* handshake step / closing deadline */
	int64_t last_rx;
	long rank, nnodes, pid;	/* what its hello claimed */
	int sent_bytes;		/* it sent anything at all (a silent connect-close is a port probe) */
	char host[PROTO_HOST_MAX + 1];
	char wnonce[PROTO_NONCE_HEX + 1], mnonce[PROTO_NONCE_HEX + 1];
};

struct member {
	struct client *c;
	int joined, gone, byed;
	long pid;
	char host[PROTO_HOST_MAX + 1];
	char addr[64];
	char last_fail[256];	/* the last refused attempt that claimed this rank */
};

struct slot {
	char phase[64];
	long step;
	json_t **v;
	int got;
	struct slot *next;
};

struct inmsg {
	struct msg m;
	struct inmsg *next;
};

struct rdv {
	struct rdv_opts o;
	char *master_host, *listen_addr, *host, *proc_root;
	unsigned char *token;
	char **expected;
	int master;

	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	int th_started;
	int wake[2];

	int stop;		/* the caller is done: flush and end the I/O thread */
	int64_t stop_deadline;
	int failed;		/* fatal: `fail` says why; set through rdv_set_failed only */
	int failpipe[2];	/* a byte in it once failed (rdv_fail_fd) */
	struct err fail;
	char fail_code[32];	/* master: the abort / reject code of that failure */
	int64_t linger_until;	/* master: serve latecomers' hellos (reject) until then */
	int joined_all;		/* master: every rank joined; worker: welcomed */
	int reported;		/* the report went out (master) / came in (worker) */
	int64_t join_deadline;
	int64_t next_hb;
	long hb_seq;

	struct rdv_event *ev;
	size_t nev, aev;
	struct slot *slots;

	/* master */
	int lfd;
	/* the rank-0 probe: is another process the master on MASTER_ADDR:MASTER_PORT? */
	pthread_t probe_th;
	int probe_started;
	int probe_self;		/* the probe reached this very process */
	char probe_nonce[PROTO_NONCE_HEX + 1];
	struct client **cl;
	size_t ncl, acl;
	struct member *mem;

	/* worker */
	struct client *wc;
	struct inmsg *inbox;
	char last_fail[300];
	enum net_fail last_why;
	int master_aborted;	/* the master ended the run by an abort: its report may follow */
};
/* ---- rdv.c: clients, events, messages, slots, waits ---- */

struct client *rdv_client_new(int fd, const char *addr);
void rdv_client_close(struct client *c);
void rdv_client_free(struct client *c);
void rdv_wake(struct rdv *r);
__attribute__((format(printf, 7, 8)))
void rdv_add_event(struct rdv *r, enum rdv_event_kind k, int rank, const char *host,
		   const char *addr, const char *code, const char *fmt, ...);
const char *rdv_rank_host(struct rdv *r, int rank);
void rdv_rank_name(struct rdv *r, int rank, char *buf, size_t len);
/* A message encoded into a blob of one reference (frames of at most frame_cap, the message at
 * most msg_cap; sp's elements in place of its placeholder, sp NULL: none), or NULL with the
 * reason in `e`. Needs no lock. */
struct blob *rdv_blob_encode(const struct msg *m, const struct jsplice *sp, size_t frame_cap,
			     size_t msg_cap, struct err *e);
void rdv_blob_unref(struct blob *b);
/* Queues b for c (c takes its own reference). */
void rdv_queue_blob(struct rdv *r, struct client *c, struct blob *b);
int rdv_queue_msg(struct rdv *r, struct client *c, const struct msg *m);
/* 1 when bytes wait to go to c. */
int rdv_client_pending(const struct client *c);
void rdv_queue_abort(struct rdv *r, struct client *c, const char *code, const char *text,
		     int rank);
/* The run failed for `text` (the first reason wins): waiters wake, rdv_fail_fd turns readable. */
void rdv_set_failed(struct rdv *r, enum err_code ec, const char *text);
void rdv_master_fail(struct rdv *r, const char *code, int rank, int skip, enum err_code ec,
		     const char *text);
struct slot *rdv_slot_get(struct rdv *r, const char *phase, long step);
void rdv_slot_remove(struct rdv *r, struct slot *s);
int rdv_client_flush(struct client *c);
int64_t rdv_deadline_after(long ms);
int rdv_cond_wait_until(struct rdv *r, int64_t deadline_ms);
void rdv_drain_wake(struct rdv *r);

/* ---- ownlink.c ---- */

/* 1 with a sentence for people ("my eth1 went down ...") when the connection fd rides on an
 * interface of this node that is down, or its route to the peer is gone; else 0. No lock. */
int rdv_own_link_down(int fd, char *buf, size_t len);

/* ---- the I/O threads (rdv_master.c, rdv_worker.c), started by rdv_start ---- */

void *rdv_master_main(void *arg);
/* Master: until every rank joined, asks MASTER_ADDR:MASTER_PORT whether rank 0 is this process. */
void *rdv_probe_main(void *arg);
/* One such question, without the lock: 1 another master answered (the run failed, both named),
 * 0 this process answered or nobody did. */
int rdv_probe_once(struct rdv *r, long timeout_ms);
void *rdv_worker_main(void *arg);

#endif
