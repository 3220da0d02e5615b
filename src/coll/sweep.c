/* nccl-tests' size sweep, timing and checking, over a coll_backend. */
#include "coll/sweep.h"

#include <stdlib.h>
#include <string.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

#define SWEEP_MAX_SIZES 128
#define SWEEP_MAX_LOCAL 16

size_t coll_sweep_sizes(const struct sweep_opts *o, size_t *sizes, size_t max)
{
	size_t n = 0, s = o->minbytes;

	while (s <= o->maxbytes && n < max) {
		size_t next = o->stepfactor > 1 ? s * (size_t)o->stepfactor : s + o->stepbytes;
		sizes[n++] = s;
		if (next <= s)
			break;
		s = next;
	}
	return n;
}

struct bufs {
	void *send[SWEEP_MAX_LOCAL], *recv[SWEEP_MAX_LOCAL];
	unsigned char *host; /* staging for device backends */
	size_t send_bytes, recv_bytes;
};

static uint32_t seed_of(size_t size_idx, int in_place, int iter)
{
	return (uint32_t)(size_idx * 7919u + (unsigned)in_place * 104729u + (unsigned)iter + 1);
}

static void make_calls(const struct sweep_opts *o, const struct bufs *bf,
                       const struct coll_counts *c, int first_rank, int in_place,
                       struct coll_call *calls)
{
	size_t es = coll_dtype_size(o->dtype);

	for (int i = 0; i < o->nlocal; i++) {
		char *rb = bf->recv[i];
		size_t g = (size_t)(first_rank + i);
		calls[i] = (struct coll_call){
		    .kind = o->kind,
		    .count = c->param,
		    .dtype = o->dtype,
		    .op = o->op,
		    .root = o->root,
		    .in_place = in_place,
		    .send = in_place ? rb + c->send_inplace * g * es : bf->send[i],
		    .recv = rb + (in_place ? c->recv_inplace * g * es : 0),
		};
	}
}

/* Fresh inputs for every local rank. */
static int fill_all(const struct sweep_opts *o, const struct coll_backend *be, struct bufs *bf,
                    const struct coll_counts *c, const struct coll_call *calls, int first_rank,
                    int nranks, uint32_t seed, struct err *e)
{
	size_t bytes = c->send * coll_dtype_size(o->dtype);

	for (int i = 0; i < o->nlocal; i++) {
		void *dst = be->host_memory ? calls[i].send : bf->host;
		coll_fill(o->kind, o->dtype, o->op, nranks, first_rank + i, o->root, seed, c, dst);
		if (!be->host_memory &&
		    be->upload(be->ctx, i, calls[i].send, bf->host, bytes, e) < 0)
			return -1;
	}
	return 0;
}

static int check_all(const struct sweep_opts *o, const struct coll_backend *be, struct bufs *bf,
                     const struct coll_counts *c, const struct coll_call *calls, int first_rank,
                     int nranks, uint32_t seed, int64_t *wrong, struct err *e)
{
	size_t bytes = coll_recv_elems(o->kind, c) * coll_dtype_size(o->dtype);

	for (int i = 0; i < o->nlocal; i++) {
		const void *src = calls[i].recv;
		if (!be->host_memory) {
			if (be->download(be->ctx, i, bf->host, calls[i].recv, bytes, e) < 0)
				return -1;
			src = bf->host;
		}
		*wrong += (int64_t)coll_check(o->kind, o->dtype, o->op, nranks, first_rank + i,
		                              o->root, seed, c, src);
	}
	return 0;
}

static int run_sync(const struct coll_backend *be, const struct coll_call *calls, int n,
                    struct err *e)
{
	if (be->run(be->ctx, calls, n, e) < 0)
		return -1;
	return be->sync ? be->sync(be->ctx, e) : 0;
}

/* One placement of one size: the mean time per op on this process, and #wrong. */
static int measure(const struct sweep_opts *o, const struct coll_backend *be, struct boot *b,
                   struct bufs *bf, const struct coll_counts *c, size_t size_idx, int in_place,
                   double *sec, int64_t *wrong, struct err *e)
{
	struct coll_call calls[SWEEP_MAX_LOCAL];
	int first = boot_rank(b) * o->nlocal, nranks = boot_world(b) * o->nlocal;
	int64_t total = 0;

	make_calls(o, bf, c, first, in_place, calls);
	*wrong = 0;
	if (o->check_every_iter && o->check) {
		for (int it = 0; it < o->iters; it++) {
			uint32_t seed = seed_of(size_idx, in_place, it);
			int64_t t0;
			if (fill_all(o, be, bf, c, calls, first, nranks, seed, e) < 0 ||
			    boot_barrier(b, e) < 0)
				return -1;
			t0 = time_now_ns();
			if (run_sync(be, calls, o->nlocal, e) < 0)
				return -1;
			total += time_now_ns() - t0;
			if (check_all(o, be, bf, c, calls, first, nranks, seed, wrong, e) < 0)
				return -1;
		}
		*sec = o->iters ? (double)total / 1e9 / o->iters : 0;
		return 0;
	}
	if (boot_barrier(b, e) < 0)
		return -1;
	total = time_now_ns();
	for (int it = 0; it < o->iters; it++)
		if (be->run(be->ctx, calls, o->nlocal, e) < 0)
			return -1;
	if (be->sync && be->sync(be->ctx, e) < 0)
		return -1;
	total = time_now_ns() - total;
	*sec = o->iters ? (double)total / 1e9 / o->iters : 0;
	for (int k = 0; k < o->check; k++) {
		uint32_t seed = seed_of(size_idx, in_place, 1000 + k);
		if (fill_all(o, be, bf, c, calls, first, nranks, seed, e) < 0 ||
		    run_sync(be, calls, o->nlocal, e) < 0 ||
		    check_all(o, be, bf, c, calls, first, nranks, seed, wrong, e) < 0)
			return -1;
	}
	return 0;
}

static void free_bufs(const struct coll_backend *be, struct bufs *bf, int nlocal)
{
	for (int i = 0; i < nlocal; i++) {
		if (bf->send[i])
			be->release(be->ctx, i, bf->send[i]);
		if (bf->recv[i])
			be->release(be->ctx, i, bf->recv[i]);
	}
	free(bf->host);
}

int coll_sweep(const struct sweep_opts *o, const struct coll_backend *be, struct boot *b,
               coll_row_fn fn, void *arg, struct err *e)
{
	size_t sizes[SWEEP_MAX_SIZES], nsizes = coll_sweep_sizes(o, sizes, SWEEP_MAX_SIZES);
	int nranks = boot_world(b) * o->nlocal, rc = 0;
	size_t es = coll_dtype_size(o->dtype);
	struct coll_row_shape big;
	struct bufs bf = {0};

	if (o->nlocal < 1 || o->nlocal > SWEEP_MAX_LOCAL)
		return err_set(e, ERR_USAGE, "%d ranks per process (1..%d)", o->nlocal,
		               SWEEP_MAX_LOCAL);
	if (!nsizes)
		return err_set(e, ERR_USAGE, "no sizes between -b %zu and -e %zu", o->minbytes,
		               o->maxbytes);
	/* the largest size decides the buffers; in place works inside the receive buffer */
	coll_shape(o->kind, sizes[nsizes - 1], o->dtype, nranks, 0, &big);
	bf.send_bytes = big.c.send * es;
	bf.recv_bytes = big.bytes;
	for (int i = 0; i < o->nlocal; i++)
		if (be->alloc(be->ctx, i, bf.send_bytes ? bf.send_bytes : es, &bf.send[i], e) < 0 ||
		    be->alloc(be->ctx, i, bf.recv_bytes ? bf.recv_bytes : es, &bf.recv[i], e) < 0) {
			free_bufs(be, &bf, o->nlocal);
			return -1;
		}
	if (!be->host_memory)
		bf.host = xcalloc(1, bf.recv_bytes > bf.send_bytes ? bf.recv_bytes + es
		                                                   : bf.send_bytes + es);

	/* nccl-tests' warm-up: every size of the sweep, out of place */
	for (size_t s = 0; s < nsizes && o->warmup; s++) {
		struct coll_row_shape sh;
		struct coll_call calls[SWEEP_MAX_LOCAL];
		coll_shape(o->kind, sizes[s], o->dtype, nranks, 0, &sh);
		make_calls(o, &bf, &sh.c, boot_rank(b) * o->nlocal, 0, calls);
		for (int w = 0; w < o->warmup; w++)
			if (be->run(be->ctx, calls, o->nlocal, e) < 0)
				goto fail;
		if (be->sync && be->sync(be->ctx, e) < 0)
			goto fail;
	}

	for (size_t s = 0; s < nsizes; s++) {
		struct coll_row_shape sh;
		struct coll_row row = {0};
		double v[4];

		coll_shape(o->kind, sizes[s], o->dtype, nranks, 0, &sh);
		for (int ip = 0; ip < 2; ip++) {
			double sec;
			int64_t wrong;
			if (measure(o, be, b, &bf, &sh.c, s, ip, &sec, &wrong, e) < 0)
				goto fail;
			v[ip] = sec;
			v[2 + ip] = (double)wrong;
		}
		if (boot_sum(b, v, 4, e) < 0)
			goto fail;
		row.bytes = sh.bytes;
		row.count = sh.c.param;
		row.checked = o->check != 0;
		for (int ip = 0; ip < 2; ip++) {
			double sec = v[ip] / boot_world(b);
			row.time_us[ip] = sec * 1e6;
			coll_bw(o->kind, sh.c.param, o->dtype, nranks, sec, &row.algbw[ip],
			        &row.busbw[ip]);
			row.wrong[ip] = (int64_t)v[2 + ip];
		}
		if (boot_rank(b) == 0 && fn && (rc = fn(arg, &row)) != 0)
			break;
	}
	free_bufs(be, &bf, o->nlocal);
	return rc;
fail:
	free_bufs(be, &bf, o->nlocal);
	return -1;
}
