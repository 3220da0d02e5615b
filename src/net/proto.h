/*
 * The cluster protocol's messages: every frame is one JSON object with a "type" and the fields
 * of that type, decoded strictly into the structs below by one field table per type (systemd's
 * dispatch-table idea): an unknown type, a missing or extra key, a wrong JSON type, an integer
 * out of range, an over-long or control-character string are all rejected with a message that
 * names the message and the field. Peer input never reaches the rest of the program as loose
 * JSON, except the payload members (facts, plan/result payloads, report), which their owners
 * decode strictly in turn (facts validation, the link tests' from_json, findings_from_json).
 *
 * The conversation (M master, W worker; one TCP connection per worker, to MASTER_ADDR:MASTER_PORT):
 *   W->M hello {version, rank, nnodes, host, pid, tool, nonce}
 *   M->W challenge {version, nonce, auth, heartbeat_ms}     or reject {code, message}
 *   W->M auth {mac}               HMAC(token, "worker" ...) — "" when the master wants none
 *   M->W welcome {mac, nnodes}    the master's own proof, so a worker knows its master
 *        or reject {code, message}
 *   then, in any order the run needs: W->M facts {rank, facts}; M->W plan {phase, step,
 *   payload}; W->M result {phase, step, rank, payload}; M->W report {exit_code, report};
 *   both ways heartbeat {rank, seq} every heartbeat_ms; abort {code, message, rank, host?,
 *   findings?};
 *   bye {rank} before closing.
 */
#ifndef NCCLCHECK_NET_PROTO_H
#define NCCLCHECK_NET_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "util/err.h"

/* Bump when a message changes meaning; a master refuses hellos of another version by name.
 * 2: a report larger than one frame travels as several (FRAME_MORE). */
#define PROTO_VERSION 2
#define PROTO_NONCE_HEX 32	/* 16 random bytes */
#define PROTO_MAC_HEX 64	/* HMAC-SHA256 */
#define PROTO_HOST_MAX 255
#define PROTO_TEXT_MAX 4096	/* reject / abort messages */
#define PROTO_NODES_MAX 4096

enum msg_type {
	MSG_HELLO = 0,
	MSG_CHALLENGE,
	MSG_AUTH,
	MSG_WELCOME,
	MSG_REJECT,
	MSG_FACTS,
	MSG_PLAN,
	MSG_RESULT,
	MSG_REPORT,
	MSG_HEARTBEAT,
	MSG_ABORT,
	MSG_BYE,
	MSG_TYPE_COUNT,
};

struct msg_hello {
	long version;		/* PROTO_VERSION of the sender */
	long rank;		/* the node rank it claims, 0..nnodes-1 */
	long nnodes;		/* the node count it was told */
	long pid;
	char *host;		/* its hostname */
	char *tool;		/* "ncclcheck 0.1.0" */
	char nonce[PROTO_NONCE_HEX + 1];
};

struct msg_challenge {
	long version;
	long auth;		/* 1: the master holds a token and wants a MAC; 0: none */
	long heartbeat_ms;	/* how often both sides send heartbeats */
	char nonce[PROTO_NONCE_HEX + 1];
};

struct msg_auth {
	char mac[PROTO_MAC_HEX + 1];	/* "" when the master wants none */
};

struct msg_welcome {
	long nnodes;
	char mac[PROTO_MAC_HEX + 1];	/* the master's proof; "" without a token */
};

/* Why the master refuses a worker: code is one of the REJECT_* strings. */
#define REJECT_VERSION "version"
#define REJECT_WRONG_COUNT "wrong_count"
#define REJECT_BAD_RANK "bad_rank"
#define REJECT_DUPLICATE_RANK "duplicate_rank"
#define REJECT_AUTH "auth"
#define REJECT_PROTOCOL "protocol"
#define REJECT_ABORTED "aborted"

struct msg_reject {
	char *code;
	char *message;
};

struct msg_facts {
	long rank;
	json_t *facts;		/* object: the node's facts document (validated by its consumer) */
};

struct msg_plan {
	char *phase;
	long step;
	json_t *payload;	/* object or array: the phase's own plan */
};

struct msg_result {
	char *phase;
	long step;
	long rank;
	json_t *payload;	/* object or array: the phase's own result */
};

struct msg_report {
	long exit_code;
	json_t *report;		/* object: the document every node prints */
};

struct msg_heartbeat {
	long rank;
	long seq;
};

struct msg_abort {
	char *code;		/* "missing", "dead", "duplicate_rank", ... */
	char *message;
	long rank;		/* the rank it is about, -1 when none */
	char *host;		/* optional: that rank's host, NULL when absent */
	json_t *findings;	/* optional array of findings (findings_from_json) */
};

struct msg_bye {
	long rank;
};

struct msg {
	enum msg_type type;
	union {
		struct msg_hello hello;
		struct msg_challenge challenge;
		struct msg_auth auth;
		struct msg_welcome welcome;
		struct msg_reject reject;
		struct msg_facts facts;
		struct msg_plan plan;
		struct msg_result result;
		struct msg_report report;
		struct msg_heartbeat heartbeat;
		struct msg_abort abort;
		struct msg_bye bye;
	} u;
};

/* "hello", "challenge", ...; NULL for an out-of-range type. */
const char *msg_type_name(enum msg_type t);

/* A zeroed message of type t (strings NULL, json NULL, abort.rank -1). */
void msg_init(struct msg *m, enum msg_type t);
/* Frees what the message owns (strings, json references) and zeroes it. */
void msg_release(struct msg *m);

/*
 * Decodes a frame's object into `m` (which it initialises). -1 with ERR_PEER and a message
 * naming the type and field ("message 'hello': field 'rank' is a string, not an integer");
 * nothing is left allocated in `m` then.
 */
int msg_from_json(const json_t *j, struct msg *m, struct err *e);
/*
 * Encodes `m` (new reference). Returns NULL with ERR_INTERNAL when `m` would not pass
 * msg_from_json() (a bug of the sender: never put on the wire what the peer must refuse).
 */
json_t *msg_to_json(const struct msg *m, struct err *e);

/* Blocking send / receive of one message with a deadline (frame + msg_*_json). */
int msg_send(int fd, const struct msg *m, size_t cap, int64_t deadline_ms, struct err *e);
int msg_recv(int fd, size_t cap, int64_t deadline_ms, struct msg *m, struct err *e);

#endif
