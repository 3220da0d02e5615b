/*
 * attach across nodes: what each node says its local ranks are doing (their rank, pid, the
 * verdict's words for them and their main thread's whole Python stack), as it travels from a
 * worker to the master of the rendezvous, and every node's ranks grouped by stack. The decoder
 * reads a peer's bytes: every field is checked and bounded here, once, into typed structs
 * (tests/fuzz/fuzz_jobstacks.c).
 */
#ifndef NCCLCHECK_ATTACH_JOBSTACKS_H
#define NCCLCHECK_ATTACH_JOBSTACKS_H

#include <stddef.h>

#include <jansson.h>

#include "util/err.h"
#include "util/strbuf.h"

/* a node's summary: at most this many ranks, each text at most this long */
#define JS_RANKS_MAX 1024
#define JS_TEXT_MAX 4096
#define JS_VERSION 1

/* what /proc says the process does, the verdict's classes (attach/reason_int.h's pkind) */
enum js_kind { JS_UNKNOWN = 0, JS_GONE, JS_STOPPED, JS_ZOMBIE, JS_DSTATE, JS_IDLE, JS_BUSY,
	JS_ALIVE, JS_KIND_COUNT };

struct js_rank {
	int rank;		/* in the job's largest communicator (RAS), -1 when unknown */
	int pid;
	char host[64];		/* the address RAS gives for its node */
	enum js_kind kind;
	char *doing;		/* the verdict's words: "it is idle: ...; it is in f (a.py:3)" */
	char *stack;		/* its main thread's whole stack phrase, "" when none was read */
};

struct js_node {
	int node;		/* the rendezvous rank */
	char name[256];		/* the host name it gave when it joined */
	int answered;		/* its summary came and decoded */
	int refused;		/* it came, but the decoder refused it (error says why) */
	char error[256];	/* why not, when it did not */
	struct js_rank *v;
	size_t n;
};

const char *js_kind_name(enum js_kind k);

/* {"v": 1, "ranks": [{"rank", "pid", "host", "kind", "doing", "stack"}]} (new reference). */
json_t *js_encode(const struct js_rank *v, size_t n);
/* A peer's summary into out->v/out->n (untrusted: every type, count, length and character
 * checked; nothing kept on failure). -1 with the reason in `e`. */
int js_decode(const json_t *j, struct js_node *out, struct err *e);
void js_node_release(struct js_node *n);

/* Every node's ranks by whole main-thread stack, largest group first (ranks without a stack
 * are left out). A member is (node index, rank index). */
struct js_member {
	size_t node, rank;
};
struct js_group {
	const char *stack;	/* borrowed from the nodes */
	struct js_member *m;
	size_t n;
};

size_t js_groups(const struct js_node *nodes, size_t nnodes, struct js_group **out);
void js_groups_release(struct js_group *g, size_t n);
/* [{"stack", "ranks": [{"rank", "node", "host", "pid"}]}] (new reference) */
json_t *js_groups_json(const struct js_node *nodes, const struct js_group *g, size_t n);

#endif
