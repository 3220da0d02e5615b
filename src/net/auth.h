/*
 * Authentication of the cluster protocol: both sides hold a per-job token (NCCLCHECK_TOKEN or
 * --token-file, read by cmd/) and prove it with HMAC-SHA256 over both sides' fresh nonces, the
 * role and the claimed rank, so a recorded answer cannot be replayed and a worker also knows its
 * master is genuine. Comparisons are constant-time (util/crypto.h).
 */
#ifndef NCCLCHECK_NET_AUTH_H
#define NCCLCHECK_NET_AUTH_H

#include <stddef.h>

#include "net/proto.h"
#include "util/err.h"

#define AUTH_TOKEN_MAX 4096

/* n bytes as 2n lowercase hex digits and a NUL into out. */
void auth_hex(const void *p, size_t n, char *out);

/* A fresh random nonce as PROTO_NONCE_HEX lowercase hex digits (util/crypto.h's random source). */
int auth_nonce(char out[PROTO_NONCE_HEX + 1], struct err *e);

/*
 * HMAC-SHA256(token, "ncclcheck-cluster-v1" | role | worker_nonce | master_nonce | rank |
 * nnodes) as lowercase hex. role is "worker" (its answer to the challenge) or "master" (the
 * welcome's proof).
 */
void auth_mac(const void *token, size_t len, const char *role, const char *worker_nonce,
	      const char *master_nonce, long rank, long nnodes, char out[PROTO_MAC_HEX + 1]);

/* 1 when the two MACs are equal (constant time; any length mismatch is unequal), else 0. */
int auth_equal(const char *want, const char *got);

/*
 * Turns a token file's or variable's text into the token: surrounding whitespace (a trailing
 * newline) removed. -1 when it is empty or longer than AUTH_TOKEN_MAX. The result points into
 * `text`; *len is its length.
 */
int auth_token_parse(const char *text, size_t n, const char **tok, size_t *len, struct err *e);

#endif
