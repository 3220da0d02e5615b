/*
 * A bounded reader for the small subset of Python's pickle format that PyTorch's flight recorder
 * dumps use (torch::jit::Pickler, protocol 2; and Python's own pickle.dump, protocols 2-5, as
 * torch's Python tools re-save them): dicts, lists, tuples, str, bytes, int, float, bool, None
 * and the memo. Nothing is ever called or imported: the only GLOBALs accepted are torch's
 * container helpers (torch.jit._pickle restore_type_tag / build_intlist / build_doublelist /
 * build_boollist), which are identity functions on their first argument.
 *
 * Everything is capped: input size, nodes, nesting depth, string length, memo size. Values live
 * in one arena freed with pk_free(); a malicious memo can make a value contain itself, so every
 * walker must bound its depth (fr.c does).
 */
#ifndef NCCLCHECK_ATTACH_PICKLE_H
#define NCCLCHECK_ATTACH_PICKLE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum pk_type {
	PK_NONE = 0,
	PK_BOOL,
	PK_INT,
	PK_FLOAT,
	PK_STR,		/* UTF-8 as written; may hold NUL bytes (len says how long) */
	PK_BYTES,
	PK_LIST,
	PK_TUPLE,
	PK_DICT,	/* items[2*i] = key, items[2*i+1] = value, in insertion order */
};

struct pk_value {
	enum pk_type type;
	union {
		int b;
		int64_t i;
		double f;
		struct {
			char *s;	/* NUL-terminated copy */
			size_t len;
		} str;
		struct {
			struct pk_value **items;
			size_t n, alloc;	/* a dict holds 2*n items */
		} c;
	} u;
};

/* Caps; zero members take the defaults below. */
struct pk_limits {
	size_t max_input;	/* bytes (default 64 MiB) */
	size_t max_nodes;	/* values created (default 4 M) */
	size_t max_depth;	/* open MARKs / stack nesting of containers (default 64) */
	size_t max_str;		/* one string or bytes value (default 1 MiB) */
	size_t max_memo;	/* memo slots (default 1 M) */
};

struct pk_doc;

/*
 * Decodes `data`; returns the document or NULL with the reason in `e` (the byte offset and the
 * opcode where it failed). The input is not kept.
 */
struct pk_doc *pk_load(const void *data, size_t len, const struct pk_limits *lim, struct err *e);
void pk_free(struct pk_doc *d);
/* The top-level value (never NULL for a loaded document). */
const struct pk_value *pk_root(const struct pk_doc *d);

/* Dict lookup by string key (first match), or NULL. */
const struct pk_value *pk_get(const struct pk_value *dict, const char *key);
const char *pk_type_name(enum pk_type t);

#endif
