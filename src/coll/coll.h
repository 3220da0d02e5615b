/*
 * Collectives behind one interface, shaped like nccl-tests' testColl: a collective knows its
 * element counts for a requested size, how to fill its inputs, how to check its outputs and its
 * bus-bandwidth factor; a backend (coll/tcp_ring.c, coll/nccl.c) knows how to run it. The data
 * are chosen so that every reduction is exact in every type whatever the order (small integers),
 * so a check compares bit for bit.
 */
#ifndef NCCLCHECK_COLL_H
#define NCCLCHECK_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Numbered as ncclDataType_t, so the NCCL backend passes them through. */
enum coll_dtype {
	COLL_INT8 = 0,
	COLL_UINT8,
	COLL_INT32,
	COLL_UINT32,
	COLL_INT64,
	COLL_UINT64,
	COLL_HALF,
	COLL_FLOAT,
	COLL_DOUBLE,
	COLL_BFLOAT16,
	COLL_NDTYPES
};

/* Numbered as ncclRedOp_t. COLL_NONE is a collective without a reduction (its redop column). */
enum coll_op { COLL_SUM = 0, COLL_PROD, COLL_MAX, COLL_MIN, COLL_NOPS, COLL_NONE = -1 };

enum coll_id {
	COLL_ALLREDUCE,
	COLL_ALLGATHER,
	COLL_REDUCESCATTER,
	COLL_BROADCAST,
	COLL_ALLTOALL,
	COLL_NKINDS
};

/* nccl-tests' getCollByteCount, in elements. */
struct coll_counts {
	size_t send, recv;   /* elements in this rank's send / receive buffer */
	size_t param;        /* the count passed to the collective (the "count" column) */
	size_t send_inplace; /* in place, the send buffer starts send_inplace*rank elements in */
	size_t recv_inplace; /* ... and the receive buffer recv_inplace*rank elements in */
};

struct coll_kind {
	enum coll_id id;
	const char *name; /* "allreduce": the bench verb */
	const char *perf; /* "all_reduce_perf": nccl-tests' binary, in the header lines */
	int reduces;      /* takes an op (else redop prints "none") */
	int rooted;       /* takes a root (else root prints -1) */
	void (*counts)(size_t nelem, size_t esize, int nranks, struct coll_counts *c);
	/* algbw's bytes per second: nccl-tests' *GetBw numerator, per param count */
	double (*alg_bytes)(size_t param, size_t esize, int nranks);
	double (*bus_factor)(int nranks);
};

const struct coll_kind *coll_kind_by_name(const char *name);
const struct coll_kind *coll_kind_get(enum coll_id id);

size_t coll_dtype_size(enum coll_dtype t);
/* nccl-tests' names: "int8" "uint8" "int32" "uint32" "int64" "uint64" "half" "float" "double"
 * "bfloat16"; the parser also takes "float32", "float64", "fp16", "bf16", "int". -1: unknown. */
const char *coll_dtype_name(enum coll_dtype t);
int coll_dtype_parse(const char *s);
const char *coll_op_name(enum coll_op op); /* "sum" "prod" "max" "min" "none" */
int coll_op_parse(const char *s);          /* -1: unknown */

/* The sizes of one row: size column (bytes), counts, and the bytes each buffer needs. */
struct coll_row_shape {
	size_t bytes; /* max(send, recv) * esize: nccl-tests' size column */
	struct coll_counts c;
};
void coll_shape(const struct coll_kind *k, size_t bytes, enum coll_dtype t, int nranks, int rank,
                struct coll_row_shape *s);

/* algbw and busbw in GB/s (1e9 bytes) for one op of `param` elements that took `sec` seconds. */
void coll_bw(const struct coll_kind *k, size_t param, enum coll_dtype t, int nranks, double sec,
             double *algbw, double *busbw);

/* One call of a collective, as a backend receives it. */
struct coll_call {
	const struct coll_kind *kind;
	void *send, *recv; /* already offset for in place */
	size_t count;      /* the param count */
	enum coll_dtype dtype;
	enum coll_op op;
	int root;
	int in_place;
};

/*
 * Fills this rank's send buffer for `seed` (every rank derives its own inputs; nobody exchanges
 * them). `buf` holds c->send elements; for in place the caller passes the in-place send pointer.
 */
void coll_fill(const struct coll_kind *k, enum coll_dtype t, enum coll_op op, int nranks, int rank,
               int root, uint32_t seed, const struct coll_counts *c, void *buf);
/*
 * Counts the elements of this rank's receive buffer (c->recv elements, or c->param for the
 * rooted/reducing ones that receive param) that differ from what the collective must produce.
 */
uint64_t coll_check(const struct coll_kind *k, enum coll_dtype t, enum coll_op op, int nranks,
                    int rank, int root, uint32_t seed, const struct coll_counts *c,
                    const void *buf);
/* Elements the receive buffer holds after the collective (what coll_check reads). */
size_t coll_recv_elems(const struct coll_kind *k, const struct coll_counts *c);

/* Reduces n elements: dst[i] = a[i] op b[i] (dst may alias a or b). */
void coll_reduce(enum coll_dtype t, enum coll_op op, void *dst, const void *a, const void *b,
                 size_t n);

/* half / bfloat16 bits <-> float, round to nearest even (exact for the test data). */
float coll_half_to_float(uint16_t h);
uint16_t coll_float_to_half(float f);
float coll_bf16_to_float(uint16_t h);
uint16_t coll_float_to_bf16(float f);

#endif
