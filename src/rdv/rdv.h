/*
 * Rendezvous of `ncclcheck cluster`: one process per node, a star around rank 0 (the master),
 * which listens on MASTER_ADDR:MASTER_PORT itself — the port torch's TCPStore will use — so a
 * join proves that path. iperf3's control connection is the model: one TCP connection per worker,
 * a state machine, typed messages (net/proto.h) in capped frames (net/frame.h), HMAC auth
 * (net/auth.h).
 *
 * Each node runs an I/O thread: on the master a poll loop that accepts and serves every client
 * concurrently with per-client deadlines (a peer that sends garbage, an oversized frame, a wrong
 * token, or stalls in the handshake is dropped with an event and never holds up the others), and
 * on a worker a connect-with-backoff loop then the control connection. Both sides send
 * heartbeats; a peer silent for dead_ms (killed, SIGSTOPped, cable pulled) is declared dead by
 * name, and the master tells every other node at once (abort), so nobody hangs.
 *
 * The calling thread sees synchronous collectives over the star: gather (every node contributes a
 * payload for a phase and step; the master gets them by rank), bcast (the master's payload to
 * every node) and the final report. Every wait is bounded; on failure the error names the ranks
 * and hosts, and rdv_events() holds what happened, typed, for the findings.
 */
#ifndef NCCLCHECK_NET_RDV_H
#define NCCLCHECK_NET_RDV_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "net/sock.h"
#include "util/err.h"

struct rdv_opts {
	const char *master_host;	/* MASTER_ADDR: workers connect here */
	int master_port;		/* MASTER_PORT: the master listens here */
	const char *listen_addr;	/* master: bind address (NULL: every address, as TCPStore) */
	int rank, nnodes;
	const char *host;		/* this node's name, as the others will see it */
	long join_timeout_ms;		/* default 60000: workers retry until then; the master waits */
	long heartbeat_ms;		/* default 500 */
	long dead_ms;			/* default 3000: a peer silent that long is dead */
	long handshake_ms;		/* default 5000: each handshake step of one client */
	const void *token;		/* NULL: no authentication (the master warns) */
	size_t token_len;
	const char *proc_root;		/* where to look for the holder of a taken port */
	/* the verb every node runs ("attach"), for the findings' fixes; NULL: "cluster", whose
	 * port is the job's own MASTER_PORT (a node that cannot reach it, torch cannot either) */
	const char *verb;
	/* master: a joined node that dies or goes silent is an event (RDV_EV_DEAD) and leaves,
	 * and the run goes on without it: for answers that are useful in part (attach's stacks),
	 * where one frozen node must not take every other node's answer with it */
	int survive_dead;
	size_t frame_cap;		/* default FRAME_MAX_DEFAULT */
	const char *const *expected_hosts;	/* optional, by rank (a Slurm node list): names missing ranks */
	size_t nexpected;
};

void rdv_opts_init(struct rdv_opts *o);

/* What happened, typed: each becomes a finding in the caller. */
enum rdv_event_kind {
	RDV_EV_AUTH_NONE = 0,	/* master: no token, anyone who reaches the port may join */
	RDV_EV_MISSING,		/* rank never arrived before the join deadline */
	RDV_EV_DUPLICATE_RANK,	/* a second node claimed a rank already taken */
	RDV_EV_WRONG_COUNT,	/* a node was told another node count */
	RDV_EV_BAD_RANK,	/* a node claimed a rank outside 0..nnodes-1 */
	RDV_EV_VERSION,		/* protocol versions differ */
	RDV_EV_AUTH_FAILED,	/* a wrong token (or none where one is needed) */
	RDV_EV_GARBAGE,		/* a peer sent something that is not our protocol */
	RDV_EV_OVERSIZED,	/* a peer announced a frame over the cap */
	RDV_EV_STALLED,		/* a peer stopped in the handshake past its deadline */
	RDV_EV_DEAD,		/* a joined node closed or went silent mid-run */
	RDV_EV_UNREACHABLE,	/* worker: the master could not be reached before the deadline */
	RDV_EV_REJECTED,	/* worker: the master refused this node (code says why) */
	RDV_EV_ABORTED,		/* the run was aborted by the master or a node (code says why) */
	RDV_EV_SLOW,		/* a node sent no result for a phase before its deadline */
	RDV_EV_COUNT,
};

struct rdv_event {
	enum rdv_event_kind kind;
	int rank;		/* the rank it is about, -1 when unknown */
	char host[256];		/* its host when known, else "" */
	char addr[64];		/* the peer address it came from, else "" */
	char code[32];		/* reject / abort code, net_fail name for UNREACHABLE */
	char msg[512];		/* one line, for people */
	int64_t at_ms;		/* time_now_ms() when it happened */
	int count;		/* how many connections from addr's host did this (strangers) */
};

/* "auth_none", "missing", "duplicate_rank", ... (stable: finding ids end in them). */
const char *rdv_event_name(enum rdv_event_kind k);

struct rdv;

/* Copies the options; nothing starts yet. */
struct rdv *rdv_new(const struct rdv_opts *o);
/* Stops the I/O thread (if still running), closes everything. */
void rdv_free(struct rdv *r);

/*
 * Master: listens (a taken port fails here, naming its holder) and starts serving; worker:
 * starts connecting. Returns at once; the join runs concurrently with the caller's probing.
 */
int rdv_start(struct rdv *r, struct err *e);
/*
 * Waits until every node has joined (master) or this node is welcomed (worker). On timeout the
 * master aborts the joined workers naming the missing ranks; a config error (duplicate rank,
 * wrong count, version) fails at once. -1 with the reason in `e` and the events recorded.
 */
int rdv_wait_joined(struct rdv *r, struct err *e);
/*
 * The same, for at most slice_ms: 1 when every node joined (master) or this node was welcomed
 * (worker), 0 when the slice passed first (the caller shows rdv_join_status and waits again),
 * -1 as rdv_wait_joined.
 */
int rdv_wait_joined_for(struct rdv *r, long slice_ms, struct err *e);

/* Where the join stands, for a live line while nodes arrive. */
struct rdv_join_status {
	int joined, expected;		/* master: nodes joined (itself included) of nnodes;
					   worker: 1 once welcomed */
	char missing[512];		/* master: "2 (n2), 3", the ranks not joined yet */
	long left_ms;			/* until the join deadline, >= 0 */
	char last_fail[300];		/* worker: why the last attempt to reach the master failed */
};
void rdv_join_status(struct rdv *r, struct rdv_join_status *st);

/*
 * Every node contributes `mine` (stolen; an object or array) for (phase, step). The master
 * waits, up to timeout_ms, for every rank's and returns them as an array indexed by rank in
 * *all (new reference); a worker queues its part and returns at once with *all = NULL.
 * phase "facts" travels as the facts message (mine must be the facts object).
 */
int rdv_gather(struct rdv *r, const char *phase, long step, json_t *mine, long timeout_ms,
	       json_t **all, struct err *e);
/*
 * As rdv_gather, but the master waits for what comes: at the deadline, or once the run has
 * failed (a node died), it returns every rank's part that came (json null for the others,
 * each named in an RDV_EV_SLOW event when the deadline passed) and the run goes on. For
 * answers that are useful in part (attach's stacks: a node that froze must not hide the rest).
 */
int rdv_gather_partial(struct rdv *r, const char *phase, long step, json_t *mine,
		       long timeout_ms, json_t **all, struct err *e);
/*
 * The master sends *payload (borrowed) to every worker; a worker waits, up to timeout_ms, for
 * the master's payload of (phase, step) and gets it in *payload (new reference).
 */
int rdv_bcast(struct rdv *r, const char *phase, long step, json_t **payload, long timeout_ms,
	      struct err *e);
/* As bcast, for the final report document and exit code every node prints and returns; on the
 * master, sp's elements go in place of its placeholder in *report (sp NULL: none), each made,
 * encoded and freed in turn (util/json.h). */
struct jsplice;
int rdv_report(struct rdv *r, json_t **report, const struct jsplice *sp, int *exit_code,
	       long timeout_ms, struct err *e);

/*
 * Master: a request to one worker (a plan of (phase, id) to `rank` alone) and its answer (that
 * rank's result of (phase, id)), waited for up to timeout_ms. Thread-safe: several threads may
 * call at once with distinct ids. `payload` is borrowed; *reply is a new reference. A timeout
 * fails this call only, not the run.
 */
int rdv_call(struct rdv *r, int rank, const char *phase, long id, json_t *payload,
	     long timeout_ms, json_t **reply, struct err *e);
/*
 * Worker: the next plan the master sent, whatever its phase (for serving rdv_call requests and
 * an end marker). Copies the phase name into `phase`; *payload is a new reference.
 */
int rdv_next_plan(struct rdv *r, long timeout_ms, char *phase, size_t len, long *step,
		  json_t **payload, struct err *e);
/* Worker: the answer to a request (a result of (phase, step)); `payload` is stolen. */
int rdv_reply(struct rdv *r, const char *phase, long step, json_t *payload, struct err *e);

/*
 * Worker, after the master ended the run with an abort: the master's own failure report (new
 * reference in *report), so every node prints the same header, node table and findings. Waits
 * up to timeout_ms; -1 when none came or the master was lost rather than aborting.
 */
int rdv_failure_report(struct rdv *r, json_t **report, long timeout_ms);

/*
 * In a forked child: closes this process's copies of the rendezvous' descriptors, without a word
 * to anyone and without the I/O thread (a fork does not carry it), so that the parent's death is
 * not hidden from the peers by a copy. The child must not use `r` afterwards, nor free it.
 */
void rdv_close_inherited(struct rdv *r);
/* Tells the other side(s) the run is over for `code` (master: every worker). Never blocks. */
void rdv_abort(struct rdv *r, const char *code, const char *message, int rank);
/* Says bye, flushes what is queued (bounded by a second or two), stops the I/O thread. */
void rdv_finish(struct rdv *r);

/* 1 when the run has failed (the reason copied into `e`, which may be NULL), else 0. */
int rdv_failed(struct rdv *r, struct err *e);
/*
 * A descriptor that turns readable (and stays so) once the run has failed: a dead or silent
 * peer, an abort. A caller blocked in a poll loop of its own (bench's ring, moving data between
 * ranks while the bootstrap idles) adds it to its set, learns at once that a peer was named
 * dead, and asks rdv_failed for the name. Owned by the rdv; -1 if the pipe could not be made.
 */
int rdv_fail_fd(const struct rdv *r);

int rdv_is_master(const struct rdv *r);
int rdv_rank(const struct rdv *r);
int rdv_nnodes(const struct rdv *r);
/* How many nodes have joined so far, this one included (for progress lines). */
int rdv_joined(struct rdv *r);
/* The host a rank said it is (master: from its hello; else the expected host), or NULL. */
const char *rdv_member_host(struct rdv *r, int rank);
/* The address a joined rank connected from (master only), or NULL. */
const char *rdv_member_addr(struct rdv *r, int rank);

/* A copy of the events so far (caller frees *out). */
size_t rdv_events(struct rdv *r, struct rdv_event **out);

#endif
