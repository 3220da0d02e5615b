/* The collectives' table (nccl-tests' testColl), their exact test data and the host reductions. */
#include "coll/coll.h"

#include <string.h>

#include "util/xalloc.h"

/* nccl-tests rounds per-rank counts of the split collectives down to 16 bytes. */
static size_t base_count(size_t nelem, size_t esize, int nranks)
{
	size_t align = esize >= 16 ? 1 : 16 / esize;

	return (nelem / (size_t)nranks) & ~(align - 1);
}

static void counts_allreduce(size_t nelem, size_t esize, int nranks, struct coll_counts *c)
{
	(void)esize;
	(void)nranks;
	*c = (struct coll_counts){.send = nelem, .recv = nelem, .param = nelem};
}

static void counts_allgather(size_t nelem, size_t esize, int nranks, struct coll_counts *c)
{
	size_t base = base_count(nelem, esize, nranks);

	*c = (struct coll_counts){
	    .send = base, .recv = base * nranks, .param = base, .send_inplace = base};
}

static void counts_reducescatter(size_t nelem, size_t esize, int nranks, struct coll_counts *c)
{
	size_t base = base_count(nelem, esize, nranks);

	*c = (struct coll_counts){
	    .send = base * nranks, .recv = base, .param = base, .recv_inplace = base};
}

static void counts_alltoall(size_t nelem, size_t esize, int nranks, struct coll_counts *c)
{
	size_t base = base_count(nelem, esize, nranks);

	*c = (struct coll_counts){.send = base * nranks, .recv = base * nranks, .param = base};
}

static double bytes_param(size_t param, size_t esize, int nranks)
{
	(void)nranks;
	return (double)param * (double)esize;
}

static double bytes_param_n(size_t param, size_t esize, int nranks)
{
	return (double)param * (double)esize * nranks;
}

static double factor_allreduce(int n)
{
	return 2.0 * (n - 1) / n;
}

static double factor_split(int n)
{
	return (double)(n - 1) / n;
}

static double factor_one(int n)
{
	(void)n;
	return 1.0;
}

static const struct coll_kind kinds[COLL_NKINDS] = {
    [COLL_ALLREDUCE] = {.id = COLL_ALLREDUCE,
                        .name = "allreduce",
                        .perf = "all_reduce_perf",
                        .reduces = 1,
                        .counts = counts_allreduce,
                        .alg_bytes = bytes_param,
                        .bus_factor = factor_allreduce},
    [COLL_ALLGATHER] = {.id = COLL_ALLGATHER,
                        .name = "allgather",
                        .perf = "all_gather_perf",
                        .counts = counts_allgather,
                        .alg_bytes = bytes_param_n,
                        .bus_factor = factor_split},
    [COLL_REDUCESCATTER] = {.id = COLL_REDUCESCATTER,
                            .name = "reducescatter",
                            .perf = "reduce_scatter_perf",
                            .reduces = 1,
                            .counts = counts_reducescatter,
                            .alg_bytes = bytes_param_n,
                            .bus_factor = factor_split},
    [COLL_BROADCAST] = {.id = COLL_BROADCAST,
                        .name = "broadcast",
                        .perf = "broadcast_perf",
                        .rooted = 1,
                        .counts = counts_allreduce,
                        .alg_bytes = bytes_param,
                        .bus_factor = factor_one},
    [COLL_ALLTOALL] = {.id = COLL_ALLTOALL,
                       .name = "alltoall",
                       .perf = "alltoall_perf",
                       .counts = counts_alltoall,
                       .alg_bytes = bytes_param_n,
                       .bus_factor = factor_split},
};

const struct coll_kind *coll_kind_get(enum coll_id id)
{
	return (unsigned)id < COLL_NKINDS ? &kinds[id] : NULL;
}

const struct coll_kind *coll_kind_by_name(const char *name)
{
	static const struct {
		const char *alias;
		enum coll_id id;
	} aliases[] = {
	    {"all_reduce", COLL_ALLREDUCE},         {"all_gather", COLL_ALLGATHER},
	    {"reduce_scatter", COLL_REDUCESCATTER}, {"alltoall", COLL_ALLTOALL},
	    {"all_to_all", COLL_ALLTOALL},
	};

	for (size_t i = 0; i < COLL_NKINDS; i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].alias, name))
			return &kinds[aliases[i].id];
	return NULL;
}

static const struct {
	const char *name;
	size_t size;
} dtypes[COLL_NDTYPES] = {
    [COLL_INT8] = {"int8", 1},         [COLL_UINT8] = {"uint8", 1}, [COLL_INT32] = {"int32", 4},
    [COLL_UINT32] = {"uint32", 4},     [COLL_INT64] = {"int64", 8}, [COLL_UINT64] = {"uint64", 8},
    [COLL_HALF] = {"half", 2},         [COLL_FLOAT] = {"float", 4}, [COLL_DOUBLE] = {"double", 8},
    [COLL_BFLOAT16] = {"bfloat16", 2},
};

size_t coll_dtype_size(enum coll_dtype t)
{
	return (unsigned)t < COLL_NDTYPES ? dtypes[t].size : 0;
}

const char *coll_dtype_name(enum coll_dtype t)
{
	return (unsigned)t < COLL_NDTYPES ? dtypes[t].name : "?";
}

int coll_dtype_parse(const char *s)
{
	static const struct {
		const char *alias;
		enum coll_dtype t;
	} aliases[] = {
	    {"float32", COLL_FLOAT}, {"fp32", COLL_FLOAT},   {"float64", COLL_DOUBLE},
	    {"fp64", COLL_DOUBLE},   {"float16", COLL_HALF}, {"fp16", COLL_HALF},
	    {"bf16", COLL_BFLOAT16}, {"int", COLL_INT32},    {"char", COLL_INT8},
	};

	for (int i = 0; i < COLL_NDTYPES; i++)
		if (!strcmp(dtypes[i].name, s))
			return i;
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].alias, s))
			return aliases[i].t;
	return -1;
}

static const char *const op_names[COLL_NOPS] = {"sum", "prod", "max", "min"};

const char *coll_op_name(enum coll_op op)
{
	return (unsigned)op < COLL_NOPS ? op_names[op] : "none";
}

int coll_op_parse(const char *s)
{
	for (int i = 0; i < COLL_NOPS; i++)
		if (!strcmp(op_names[i], s))
			return i;
	return -1;
}

void coll_shape(const struct coll_kind *k, size_t bytes, enum coll_dtype t, int nranks, int rank,
                struct coll_row_shape *s)
{
	size_t es = coll_dtype_size(t);

	k->counts(bytes / es, es, nranks, &s->c);
	s->bytes = (s->c.send > s->c.recv ? s->c.send : s->c.recv) * es;
	(void)rank;
}

void coll_bw(const struct coll_kind *k, size_t param, enum coll_dtype t, int nranks, double sec,
             double *algbw, double *busbw)
{
	double base = sec > 0 ? k->alg_bytes(param, coll_dtype_size(t), nranks) / 1.0e9 / sec : 0;

	*algbw = base;
	*busbw = base * k->bus_factor(nranks);
}

/* ---- half and bfloat16 ---- */

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

float coll_bf16_to_float(uint16_t h)
{
	return u2f((uint32_t)h << 16);
}

uint16_t coll_float_to_bf16(float f)
{
	uint32_t u = f2u(f);

	if ((u & 0x7fffffff) > 0x7f800000) /* NaN stays NaN */
		return (uint16_t)((u >> 16) | 0x40);
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float coll_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;

	if (exp == 0x1f)
		return u2f(sign | 0x7f800000 | (man << 13));
	if (exp == 0) {
		/* subnormal: man * 2^-24 */
		float v = (float)man / 16777216.0f;
		return sign ? -v : v;
	}
	return u2f(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t coll_float_to_half(float f)
{
	uint32_t u = f2u(f), sign = (u >> 16) & 0x8000;
	int32_t exp = (int32_t)((u >> 23) & 0xff) - 127 + 15;
	uint32_t man = u & 0x7fffff;

	if (((u >> 23) & 0xff) == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
	if (exp >= 0x1f)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {
		/* subnormal or zero: shift the implicit one in, round to nearest even */
		if (exp < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		uint32_t shift = (uint32_t)(14 - exp), half_ulp = 1u << (shift - 1);
		uint32_t r = man >> shift, rem = man & ((1u << shift) - 1);
		if (rem > half_ulp || (rem == half_ulp && (r & 1)))
			r++;
		return (uint16_t)(sign | r);
	}
	uint32_t r = ((uint32_t)exp << 10) | (man >> 13), rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
		r++; /* may carry into the exponent, which is right */
	return (uint16_t)(sign | r);
}

/*
 * Input value of element `i` on `rank`: small non-negative integers, so sums of up to 80 ranks
 * stay exact in bfloat16 (8 bits of mantissa) and products stay powers of two.
 */
static inline uint32_t input_hash(int rank, size_t i, uint32_t seed)
{
	uint32_t h = (uint32_t)i * 0x9E3779B1u ^ ((uint32_t)rank + 1) * 0x85EBCA77u ^
	             seed * 0xC2B2AE3Du ^ (uint32_t)((uint64_t)i >> 32);

	h ^= h >> 15;
	h *= 0x2C1B3C6Du;
	h ^= h >> 12;
	return h;
}

/* A run of input values as doubles; the op only picks the range (written to vectorise). */
static void input_run(int rank, size_t i0, size_t n, uint32_t seed, enum coll_op op, double *v)
{
	switch (op) {
	case COLL_PROD:
		for (size_t j = 0; j < n; j++)
			v[j] = (input_hash(rank, i0 + j, seed) & 7) == 0 ? 2 : 1;
		break;
	case COLL_MAX:
	case COLL_MIN:
		for (size_t j = 0; j < n; j++)
			v[j] = input_hash(rank, i0 + j, seed) & 15;
		break;
	default:
		for (size_t j = 0; j < n; j++)
			v[j] = input_hash(rank, i0 + j, seed) & 3;
		break;
	}
}

static int is_float(enum coll_dtype t)
{
	return t == COLL_HALF || t == COLL_FLOAT || t == COLL_DOUBLE || t == COLL_BFLOAT16;
}

/* Wraps an exact integer result the way the type's storage does. */
static double wrap_int(enum coll_dtype t, uint64_t r)
{
	switch (t) {
	case COLL_INT8:
		return (int8_t)(uint8_t)r;
	case COLL_UINT8:
		return (uint8_t)r;
	case COLL_INT32:
		return (int32_t)(uint32_t)r;
	case COLL_UINT32:
		return (uint32_t)r;
	case COLL_INT64:
		return (double)(int64_t)r;
	default:
		return (double)r;
	}
}

/* acc = acc op in, element-wise, with the type's integer wrap-around. */
static void combine_run(enum coll_dtype t, enum coll_op op, double *acc, const double *in, size_t n)
{
	switch (op) {
	case COLL_MAX:
		for (size_t j = 0; j < n; j++)
			acc[j] = acc[j] > in[j] ? acc[j] : in[j];
		return;
	case COLL_MIN:
		for (size_t j = 0; j < n; j++)
			acc[j] = acc[j] < in[j] ? acc[j] : in[j];
		return;
	case COLL_PROD:
		if (is_float(t)) {
			for (size_t j = 0; j < n; j++)
				acc[j] *= in[j];
			return;
		}
		for (size_t j = 0; j < n; j++)
			acc[j] = wrap_int(t, (uint64_t)(int64_t)acc[j] * (uint64_t)in[j]);
		return;
	default:
		for (size_t j = 0; j < n; j++)
			acc[j] += in[j];
		if (!is_float(t) && t != COLL_INT64 && t != COLL_UINT64)
			for (size_t j = 0; j < n; j++)
				acc[j] = wrap_int(t, (uint64_t)(int64_t)acc[j]);
		return;
	}
}

/* Stores n exact values as type t (typed loops: the switch stays outside them). */
static void store_run(enum coll_dtype t, const double *v, size_t n, void *out)
{
	switch (t) {
	case COLL_INT8:
		for (size_t j = 0; j < n; j++)
			((uint8_t *)out)[j] = (uint8_t)(int64_t)v[j];
		break;
	case COLL_UINT8:
		for (size_t j = 0; j < n; j++)
			((uint8_t *)out)[j] = (uint8_t)(uint64_t)v[j];
		break;
	case COLL_INT32:
		for (size_t j = 0; j < n; j++)
			((uint32_t *)out)[j] = (uint32_t)(int64_t)v[j];
		break;
	case COLL_UINT32:
		for (size_t j = 0; j < n; j++)
			((uint32_t *)out)[j] = (uint32_t)(uint64_t)v[j];
		break;
	case COLL_INT64:
		for (size_t j = 0; j < n; j++)
			((int64_t *)out)[j] = (int64_t)v[j];
		break;
	case COLL_UINT64:
		for (size_t j = 0; j < n; j++)
			((uint64_t *)out)[j] = (uint64_t)v[j];
		break;
	case COLL_HALF:
		for (size_t j = 0; j < n; j++)
			((uint16_t *)out)[j] = coll_float_to_half((float)v[j]);
		break;
	case COLL_FLOAT:
		for (size_t j = 0; j < n; j++)
			((float *)out)[j] = (float)v[j];
		break;
	case COLL_DOUBLE:
		memcpy(out, v, n * sizeof(double));
		break;
	case COLL_BFLOAT16:
		for (size_t j = 0; j < n; j++)
			((uint16_t *)out)[j] = coll_float_to_bf16((float)v[j]);
		break;
	default:
		break;
	}
}

#define RUN 2048

/* Every rank's input at [i0, i0+n) combined with `op`. */
static void reduced_run(enum coll_dtype t, enum coll_op op, int nranks, size_t i0, size_t n,
                        uint32_t seed, double *acc, double *tmp)
{
	input_run(0, i0, n, seed, op, acc);
	for (int r = 1; r < nranks; r++) {
		input_run(r, i0, n, seed, op, tmp);
		combine_run(t, op, acc, tmp, n);
	}
}

size_t coll_recv_elems(const struct coll_kind *k, const struct coll_counts *c)
{
	return k->id == COLL_ALLREDUCE || k->id == COLL_BROADCAST ? c->param : c->recv;
}

void coll_fill(const struct coll_kind *k, enum coll_dtype t, enum coll_op op, int nranks, int rank,
               int root, uint32_t seed, const struct coll_counts *c, void *buf)
{
	enum coll_op vop = k->reduces ? op : COLL_SUM;
	size_t es = coll_dtype_size(t);
	double v[RUN];

	(void)nranks;
	/* a broadcast's non-roots get other values, so one that moves nothing cannot pass in place
	 */
	if (k->id == COLL_BROADCAST && rank != root)
		seed ^= 0x5bd1e995u;
	for (size_t i = 0; i < c->send; i += RUN) {
		size_t n = c->send - i < RUN ? c->send - i : RUN;
		input_run(k->id == COLL_BROADCAST ? root : rank, i, n, seed, vop, v);
		store_run(t, v, n, (char *)buf + i * es);
	}
}

/* The expected values of receive elements [i0, i0+n) of `rank`, into acc. */
static void expected_run(const struct coll_kind *k, enum coll_dtype t, enum coll_op op, int nranks,
                         int rank, int root, uint32_t seed, size_t p, size_t i0, size_t n,
                         double *acc, double *tmp)
{
	switch (k->id) {
	case COLL_ALLREDUCE:
		reduced_run(t, op, nranks, i0, n, seed, acc, tmp);
		break;
	case COLL_REDUCESCATTER:
		reduced_run(t, op, nranks, (size_t)rank * p + i0, n, seed, acc, tmp);
		break;
	case COLL_BROADCAST:
		input_run(root, i0, n, seed, COLL_SUM, acc);
		break;
	default:
		/* allgather / alltoall: block b of the receive buffer comes from rank b */
		for (size_t j = 0; j < n;) {
			size_t i = i0 + j, b = i / p, off = i % p, m = p - off;
			if (m > n - j)
				m = n - j;
			input_run((int)b, k->id == COLL_ALLTOALL ? (size_t)rank * p + off : off, m,
			          seed, COLL_SUM, acc + j);
			j += m;
		}
		break;
	}
}

uint64_t coll_check(const struct coll_kind *k, enum coll_dtype t, enum coll_op op, int nranks,
                    int rank, int root, uint32_t seed, const struct coll_counts *c, const void *buf)
{
	size_t es = coll_dtype_size(t), total = coll_recv_elems(k, c), p = c->param ? c->param : 1;
	double acc[RUN], tmp[RUN];
	unsigned char want[RUN * 8];
	uint64_t wrong = 0;

	for (size_t i = 0; i < total; i += RUN) {
		size_t n = total - i < RUN ? total - i : RUN;
		const unsigned char *got = (const unsigned char *)buf + i * es;
		expected_run(k, t, op, nranks, rank, root, seed, p, i, n, acc, tmp);
		store_run(t, acc, n, want);
		if (!memcmp(want, got, n * es))
			continue;
		for (size_t j = 0; j < n; j++)
			if (memcmp(want + j * es, got + j * es, es))
				wrong++;
	}
	return wrong;
}

/*
 * ---- host reductions (the tcp ring's inner loop) ----
 * Each (type, op) has a restrict-qualified three-operand loop, an in-place one (dst == a: the
 * ring's in-place all-reduce) and a plain one for overlap. restrict is what lets -O2 vectorise:
 * GCC's default cost model at -O2 does not version loops for aliasing, so without it the
 * reduction ran one element at a time in distribution builds (-O2).
 */
#define RED_BLOCK 64 /* a fixed inner trip count: -O2's cheap vectoriser needs no epilogue */
#define RED_FNS(NAME, T, EXPR)                                                                     \
	static void red3_##NAME(T *restrict d, const T *restrict a, const T *restrict b, size_t n) \
	{                                                                                          \
		size_t i = 0;                                                                      \
		for (; i + RED_BLOCK <= n; i += RED_BLOCK)                                         \
			for (size_t k = i; k < i + RED_BLOCK; k++) {                               \
				T x = a[k], y = b[k];                                              \
				d[k] = (EXPR);                                                     \
			}                                                                          \
		for (; i < n; i++) {                                                               \
			T x = a[i], y = b[i];                                                      \
			d[i] = (EXPR);                                                             \
		}                                                                                  \
	}                                                                                          \
	static void red2_##NAME(T *restrict d, const T *restrict b, size_t n)                      \
	{                                                                                          \
		size_t i = 0;                                                                      \
		for (; i + RED_BLOCK <= n; i += RED_BLOCK)                                         \
			for (size_t k = i; k < i + RED_BLOCK; k++) {                               \
				T x = d[k], y = b[k];                                              \
				d[k] = (EXPR);                                                     \
			}                                                                          \
		for (; i < n; i++) {                                                               \
			T x = d[i], y = b[i];                                                      \
			d[i] = (EXPR);                                                             \
		}                                                                                  \
	}                                                                                          \
	static void redx_##NAME(T *d, const T *a, const T *b, size_t n)                            \
	{                                                                                          \
		for (size_t i = 0; i < n; i++) {                                                   \
			T x = a[i], y = b[i];                                                      \
			d[i] = (EXPR);                                                             \
		}                                                                                  \
	}

/* signed types add and multiply through their unsigned twin, so overflow wraps defined */
#define RED_TYPE(TAG, T, UT)                                                                       \
	RED_FNS(sum_##TAG, UT, (UT)(x + y))                                                        \
	RED_FNS(prod_##TAG, UT, (UT)(x * y))                                                       \
	RED_FNS(max_##TAG, T, x > y ? x : y)                                                       \
	RED_FNS(min_##TAG, T, x < y ? x : y)

RED_TYPE(i8, int8_t, uint8_t)
RED_TYPE(u8, uint8_t, uint8_t)
RED_TYPE(i32, int32_t, uint32_t)
RED_TYPE(u32, uint32_t, uint32_t)
RED_TYPE(i64, int64_t, uint64_t)
RED_TYPE(u64, uint64_t, uint64_t)
RED_TYPE(f32, float, float)
RED_TYPE(f64, double, double)

static int overlap(const void *p, const void *q, size_t bytes)
{
	uintptr_t x = (uintptr_t)p, y = (uintptr_t)q;

	return x < y + bytes && y < x + bytes;
}

#define RED_RUN(NAME, T)                                                                           \
	do {                                                                                       \
		size_t bytes_ = n * sizeof(T);                                                     \
		if (dst == a && !overlap(dst, b, bytes_))                                          \
			red2_##NAME(dst, b, n);                                                    \
		else if (!overlap(dst, a, bytes_) && !overlap(dst, b, bytes_))                     \
			red3_##NAME(dst, a, b, n);                                                 \
		else                                                                               \
			redx_##NAME(dst, a, b, n);                                                 \
	} while (0)

#define RED_INT(TAG, T, UT)                                                                        \
	do {                                                                                       \
		switch (op) {                                                                      \
		case COLL_PROD:                                                                    \
			RED_RUN(prod_##TAG, UT);                                                   \
			break;                                                                     \
		case COLL_MAX:                                                                     \
			RED_RUN(max_##TAG, T);                                                     \
			break;                                                                     \
		case COLL_MIN:                                                                     \
			RED_RUN(min_##TAG, T);                                                     \
			break;                                                                     \
		default:                                                                           \
			RED_RUN(sum_##TAG, UT);                                                    \
			break;                                                                     \
		}                                                                                  \
	} while (0)

static float red_f(enum coll_op op, float x, float y)
{
	switch (op) {
	case COLL_PROD:
		return x * y;
	case COLL_MAX:
		return x > y ? x : y;
	case COLL_MIN:
		return x < y ? x : y;
	default:
		return x + y;
	}
}

void coll_reduce(enum coll_dtype t, enum coll_op op, void *dst, const void *a, const void *b,
                 size_t n)
{
	switch (t) {
	case COLL_INT8:
		RED_INT(i8, int8_t, uint8_t);
		break;
	case COLL_UINT8:
		RED_INT(u8, uint8_t, uint8_t);
		break;
	case COLL_INT32:
		RED_INT(i32, int32_t, uint32_t);
		break;
	case COLL_UINT32:
		RED_INT(u32, uint32_t, uint32_t);
		break;
	case COLL_INT64:
		RED_INT(i64, int64_t, uint64_t);
		break;
	case COLL_UINT64:
		RED_INT(u64, uint64_t, uint64_t);
		break;
	case COLL_FLOAT:
		RED_INT(f32, float, float);
		break;
	case COLL_DOUBLE:
		RED_INT(f64, double, double);
		break;
	case COLL_HALF:
		for (size_t i = 0; i < n; i++)
			((uint16_t *)dst)[i] = coll_float_to_half(
			    red_f(op, coll_half_to_float(((const uint16_t *)a)[i]),
			          coll_half_to_float(((const uint16_t *)b)[i])));
		break;
	case COLL_BFLOAT16:
		for (size_t i = 0; i < n; i++)
			((uint16_t *)dst)[i] = coll_float_to_bf16(
			    red_f(op, coll_bf16_to_float(((const uint16_t *)a)[i]),
			          coll_bf16_to_float(((const uint16_t *)b)[i])));
		break;
	default:
		break;
	}
}
