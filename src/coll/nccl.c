/* bench over real NCCL: a child per process loads NCCL and the CUDA driver and runs the sweep. */
#include "coll/nccl.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "coll/nccl_abi.h"
#include "coll/nccl_log.h"
#include "util/dl.h"
#include "util/i18n.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define MAX_LOCAL 16

extern char **environ;

struct nccl_api {
	nccl_get_version_fn get_version;
	nccl_get_unique_id_fn get_unique_id;
	nccl_comm_init_rank_config_fn init_rank_config;
	nccl_comm_get_async_error_fn get_async_error;
	nccl_comm_fn abort, finalize, destroy;
	nccl_get_error_string_fn error_string;
	nccl_get_last_error_fn last_error;
	nccl_group_fn group_start, group_end;
	nccl_all_reduce_fn all_reduce;
	nccl_all_gather_fn all_gather;
	nccl_reduce_scatter_fn reduce_scatter;
	nccl_broadcast_fn broadcast;
	nccl_send_fn send;
	nccl_recv_fn recv;
};

struct cuda_api {
	cu_init_fn init;
	cu_device_get_count_fn device_get_count;
	cu_device_get_fn device_get;
	cu_device_get_name_fn device_get_name;
	cu_device_get_attribute_fn device_get_attribute;
	cu_primary_ctx_retain_fn primary_ctx_retain;
	cu_ctx_set_current_fn ctx_set_current;
	cu_mem_alloc_fn mem_alloc;
	cu_mem_free_fn mem_free;
	cu_memcpy_htod_fn htod;
	cu_memcpy_dtoh_fn dtoh;
	cu_stream_create_fn stream_create;
	cu_stream_fn stream_sync, stream_query;
	cu_get_error_string_fn error_string;
};

struct child {
	struct nccl_api n;
	struct cuda_api cu;
	int nlocal, nranks, first_rank;
	long timeout_ms;
	int pipe_fd;       /* to the parent */
	int64_t last_beat; /* ms */
	nccl_comm_t comm[MAX_LOCAL];
	cu_context_t ctx[MAX_LOCAL];
	cu_stream_t stream[MAX_LOCAL];
	char log[512];
};

/* ---- pipe messages, child -> parent ---- */

/* PM_BEAT: "still working", so the parent's last-resort timer only fires on a silent child */
enum { PM_VERSION = 1, PM_DEVICES, PM_ROW, PM_NOTE, PM_ERROR, PM_BEAT };

struct pmsg {
	int type, code;
	size_t n;
	union {
		struct nccl_device dev[MAX_LOCAL * 8];
		struct coll_row row;
		char text[512];
	} u;
};

static void psend(int pipe_fd, int type, int code, const void *p, size_t len, size_t n)
{
	struct pmsg *m = xcalloc(1, sizeof(*m));
	const char *c = (const char *)m;
	size_t left = sizeof(*m);

	m->type = type;
	m->code = code;
	m->n = n;
	memcpy(&m->u, p, len < sizeof(m->u) ? len : sizeof(m->u));
	while (left) {
		ssize_t w = write(pipe_fd, c, left);
		if (w <= 0 && errno != EINTR)
			break;
		if (w > 0) {
			c += w;
			left -= (size_t)w;
		}
	}
	free(m);
}

/* ---- the child ---- */

#define SYM(h, api, field, name)                                                                   \
	do {                                                                                       \
		if (dl_sym(h, name, (void **)&(api)->field, e) < 0)                                \
			return -1;                                                                 \
	} while (0)

static int load_nccl(struct nccl_api *n, const char *path, char *where, size_t wlen, struct err *e)
{
	const char *names[] = {path ? path : "libnccl.so.2", NULL};
	void *h = dl_open_first(NULL, NULL, names, e);

	if (!h) {
		char why[ERR_MSG_LEN];
		snprintf(why, sizeof(why), "%s", e->msg);
		return err_set(e, ERR_NOTFOUND, "cannot load NCCL (%s): %s", names[0], why);
	}
	if (dl_path(h, where, (unsigned)wlen) < 0)
		snprintf(where, wlen, "%s", names[0]);
	SYM(h, n, get_version, "ncclGetVersion");
	SYM(h, n, get_unique_id, "ncclGetUniqueId");
	SYM(h, n, init_rank_config, "ncclCommInitRankConfig");
	SYM(h, n, get_async_error, "ncclCommGetAsyncError");
	SYM(h, n, abort, "ncclCommAbort");
	SYM(h, n, finalize, "ncclCommFinalize");
	SYM(h, n, destroy, "ncclCommDestroy");
	SYM(h, n, error_string, "ncclGetErrorString");
	SYM(h, n, group_start, "ncclGroupStart");
	SYM(h, n, group_end, "ncclGroupEnd");
	SYM(h, n, all_reduce, "ncclAllReduce");
	SYM(h, n, all_gather, "ncclAllGather");
	SYM(h, n, reduce_scatter, "ncclReduceScatter");
	SYM(h, n, broadcast, "ncclBroadcast");
	SYM(h, n, send, "ncclSend");
	SYM(h, n, recv, "ncclRecv");
	/* ncclGetLastError arrived in 2.13: optional */
	n->last_error = NULL;
	dl_sym(h, "ncclGetLastError", (void **)&n->last_error, NULL);
	return 0;
}

static int load_cuda(struct cuda_api *c, const char *path, struct err *e)
{
	const char *names[] = {path ? path : "libcuda.so.1", NULL};
	void *h = dl_open_first(NULL, NULL, names, e);

	if (!h) {
		char why[ERR_MSG_LEN];
		snprintf(why, sizeof(why), "%s", e->msg);
		return err_set(e, ERR_NOTFOUND,
		               "cannot load the CUDA driver %s (%s): this machine "
		               "has no NVIDIA driver, so no GPU to run NCCL on",
		               names[0], why);
	}
	SYM(h, c, init, "cuInit");
	SYM(h, c, device_get_count, "cuDeviceGetCount");
	SYM(h, c, device_get, "cuDeviceGet");
	SYM(h, c, device_get_name, "cuDeviceGetName");
	SYM(h, c, device_get_attribute, "cuDeviceGetAttribute");
	SYM(h, c, primary_ctx_retain, "cuDevicePrimaryCtxRetain");
	SYM(h, c, ctx_set_current, "cuCtxSetCurrent");
	SYM(h, c, mem_alloc, "cuMemAlloc_v2");
	SYM(h, c, mem_free, "cuMemFree_v2");
	SYM(h, c, htod, "cuMemcpyHtoD_v2");
	SYM(h, c, dtoh, "cuMemcpyDtoH_v2");
	SYM(h, c, stream_create, "cuStreamCreate");
	SYM(h, c, stream_sync, "cuStreamSynchronize");
	SYM(h, c, stream_query, "cuStreamQuery");
	SYM(h, c, error_string, "cuGetErrorString");
	return 0;
}

static const char *cu_str(const struct child *ch, cu_result_t r)
{
	const char *s = NULL;

	if (ch->cu.error_string && ch->cu.error_string(r, &s) == CU_SUCCESS && s)
		return s;
	return "unknown CUDA error";
}

static int cu_fail(const struct child *ch, struct err *e, cu_result_t r, const char *what)
{
	return err_set(
	    e, r == 100 ? ERR_NOTFOUND : ERR_SYS, "%s failed: %s (CUDA error %d)%s", what,
	    cu_str(ch, r), r,
	    r == 100 ? ": this machine has no usable GPU (bench --backend tcp needs none)" : "");
}

static int nccl_fail(const struct child *ch, int local, nccl_result_t r, const char *what,
                     struct err *e)
{
	const char *last =
	    ch->n.last_error ? ch->n.last_error(local >= 0 ? ch->comm[local] : NULL) : NULL;

	return err_set(e, ERR_SYS,
	               "%s failed: %s%s%s; NCCL's log is %s (try 'ncclcheck explain "
	               "%s')",
	               what, ch->n.error_string ? ch->n.error_string(r) : "?",
	               last && *last ? ": " : "", last && *last ? last : "", ch->log, ch->log);
}

static void abort_all(struct child *ch)
{
	for (int i = 0; i < ch->nlocal; i++)
		if (ch->comm[i]) {
			ch->n.abort(ch->comm[i]);
			ch->comm[i] = NULL;
		}
}

/* Polls every communicator until none is in progress; aborts them at the deadline. */
static int wait_comms(struct child *ch, const char *what, int64_t deadline, struct err *e)
{
	for (;;) {
		int busy = 0;
		for (int i = 0; i < ch->nlocal; i++) {
			nccl_result_t st = NCCL_SUCCESS;
			nccl_result_t r = ch->n.get_async_error(ch->comm[i], &st);
			if (r != NCCL_SUCCESS)
				return nccl_fail(ch, i, r, "ncclCommGetAsyncError", e);
			if (st == NCCL_IN_PROGRESS)
				busy = 1;
			else if (st != NCCL_SUCCESS)
				return nccl_fail(ch, i, st, what, e);
		}
		if (!busy)
			return 0;
		if (time_now_ms() > deadline) {
			abort_all(ch);
			return err_set(e, ERR_TIMEOUT,
			               "%s did not finish within %ld s: aborted "
			               "(ncclCommAbort); NCCL's log is %s (try 'ncclcheck explain "
			               "%s')",
			               what, ch->timeout_ms / 1000, ch->log, ch->log);
		}
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
}

static int be_alloc(void *ctx, int local, size_t bytes, void **p, struct err *e)
{
	struct child *ch = ctx;
	cu_deviceptr_t d = 0;
	cu_result_t r;

	ch->cu.ctx_set_current(ch->ctx[local]);
	r = ch->cu.mem_alloc(&d, bytes);
	if (r != CU_SUCCESS)
		return cu_fail(ch, e, r, "cuMemAlloc");
	*p = (void *)(uintptr_t)d;
	return 0;
}

static void be_release(void *ctx, int local, void *p)
{
	struct child *ch = ctx;

	ch->cu.ctx_set_current(ch->ctx[local]);
	ch->cu.mem_free((cu_deviceptr_t)(uintptr_t)p);
}

static int be_upload(void *ctx, int local, void *dst, const void *src, size_t n, struct err *e)
{
	struct child *ch = ctx;
	cu_result_t r;

	ch->cu.ctx_set_current(ch->ctx[local]);
	r = ch->cu.htod((cu_deviceptr_t)(uintptr_t)dst, src, n);
	return r == CU_SUCCESS ? 0 : cu_fail(ch, e, r, "cuMemcpyHtoD");
}

static int be_download(void *ctx, int local, void *dst, const void *src, size_t n, struct err *e)
{
	struct child *ch = ctx;
	cu_result_t r;

	ch->cu.ctx_set_current(ch->ctx[local]);
	r = ch->cu.dtoh(dst, (cu_deviceptr_t)(uintptr_t)src, n);
	return r == CU_SUCCESS ? 0 : cu_fail(ch, e, r, "cuMemcpyDtoH");
}

static nccl_result_t issue(struct child *ch, int i, const struct coll_call *c)
{
	struct nccl_api *n = &ch->n;
	size_t es = coll_dtype_size(c->dtype);
	nccl_result_t r = NCCL_SUCCESS;

	switch (c->kind->id) {
	case COLL_ALLREDUCE:
		return n->all_reduce(c->send, c->recv, c->count, c->dtype, c->op, ch->comm[i],
		                     ch->stream[i]);
	case COLL_ALLGATHER:
		return n->all_gather(c->send, c->recv, c->count, c->dtype, ch->comm[i],
		                     ch->stream[i]);
	case COLL_REDUCESCATTER:
		return n->reduce_scatter(c->send, c->recv, c->count, c->dtype, c->op, ch->comm[i],
		                         ch->stream[i]);
	case COLL_BROADCAST:
		return n->broadcast(c->send, c->recv, c->count, c->dtype, c->root, ch->comm[i],
		                    ch->stream[i]);
	case COLL_ALLTOALL:
		/* as nccl-tests: a send and a receive per peer inside one group */
		for (int p = 0; p < ch->nranks && r == NCCL_SUCCESS; p++) {
			r = n->send((const char *)c->send + (size_t)p * c->count * es, c->count,
			            c->dtype, p, ch->comm[i], ch->stream[i]);
			if (r == NCCL_SUCCESS || r == NCCL_IN_PROGRESS)
				r = n->recv((char *)c->recv + (size_t)p * c->count * es, c->count,
				            c->dtype, p, ch->comm[i], ch->stream[i]);
		}
		return r;
	default:
		return NCCL_INVALID_ARGUMENT;
	}
}

static int be_run(void *ctx, const struct coll_call *calls, int ncalls, struct err *e)
{
	struct child *ch = ctx;
	nccl_result_t r;
	int grouped = ncalls > 1 || calls[0].kind->id == COLL_ALLTOALL;

	if (grouped && (r = ch->n.group_start()) != NCCL_SUCCESS)
		return nccl_fail(ch, -1, r, "ncclGroupStart", e);
	for (int i = 0; i < ncalls; i++) {
		ch->cu.ctx_set_current(ch->ctx[i]);
		r = issue(ch, i, &calls[i]);
		if (r != NCCL_SUCCESS && r != NCCL_IN_PROGRESS)
			return nccl_fail(ch, i, r, calls[i].kind->name, e);
	}
	if (grouped) {
		r = ch->n.group_end();
		if (r != NCCL_SUCCESS && r != NCCL_IN_PROGRESS)
			return nccl_fail(ch, 0, r, "ncclGroupEnd", e);
	}
	/* non-blocking communicators may still be enqueuing: wait until they accept the next */
	return wait_comms(ch, calls[0].kind->name, time_now_ms() + ch->timeout_ms, e);
}

/* Waits for the streams, watching NCCL's asynchronous errors; aborts at the deadline. */
static int be_sync(void *ctx, struct err *e)
{
	struct child *ch = ctx;
	int64_t deadline = time_now_ms() + ch->timeout_ms;

	if (time_now_ms() - ch->last_beat > 1000) {
		ch->last_beat = time_now_ms();
		psend(ch->pipe_fd, PM_BEAT, 0, "", 0, 0);
	}
	for (;;) {
		int busy = 0;
		for (int i = 0; i < ch->nlocal; i++) {
			cu_result_t r;
			nccl_result_t st = NCCL_SUCCESS;
			ch->cu.ctx_set_current(ch->ctx[i]);
			r = ch->cu.stream_query(ch->stream[i]);
			if (r == CU_ERROR_NOT_READY)
				busy = 1;
			else if (r != CU_SUCCESS)
				return cu_fail(ch, e, r, "the collective's stream");
			ch->n.get_async_error(ch->comm[i], &st);
			if (st != NCCL_SUCCESS && st != NCCL_IN_PROGRESS) {
				int rc = nccl_fail(ch, i, st, "the collective", e);
				abort_all(ch);
				return rc;
			}
		}
		if (!busy)
			return 0;
		if (time_now_ms() > deadline) {
			abort_all(ch);
			return err_set(
			    e, ERR_TIMEOUT,
			    "a collective did not finish within %ld s: "
			    "aborted (ncclCommAbort); a peer may be dead or stuck; NCCL's "
			    "log is %s (try 'ncclcheck explain %s')",
			    ch->timeout_ms / 1000, ch->log, ch->log);
		}
		sched_yield();
	}
}

static int child_setup(struct child *ch, const struct nccl_opts *o, struct boot *b, struct err *e)
{
	nccl_unique_id_t id;
	char where[512];
	int version = 0, ndev = 0;
	cu_result_t r;
	nccl_result_t nr;
	struct nccl_device mine[MAX_LOCAL], *all;

	if (load_nccl(&ch->n, o->nccl_path, where, sizeof(where), e) < 0)
		return -1;
	ch->n.get_version(&version);
	psend(ch->pipe_fd, PM_VERSION, version, where, strlen(where) + 1, 0);
	if (load_cuda(&ch->cu, o->cuda_path, e) < 0)
		return err_prefix(e, "NCCL %d.%d.%d loaded from %s, but", version / 10000,
		                  version / 100 % 100, version % 100, where);
	if ((r = ch->cu.init(0)) != CU_SUCCESS)
		return cu_fail(ch, e, r, "cuInit");
	if ((r = ch->cu.device_get_count(&ndev)) != CU_SUCCESS)
		return cu_fail(ch, e, r, "cuDeviceGetCount");
	if (o->first_device + ch->nlocal > ndev)
		return err_set(e, ERR_NOTFOUND,
		               "Invalid number of GPUs: %d requested but only %d "
		               "were found (device %d onwards, -g %d)",
		               o->first_device + ch->nlocal, ndev, o->first_device, ch->nlocal);
	for (int i = 0; i < ch->nlocal; i++) {
		cu_device_t dev;
		int a = 0;
		struct nccl_device *d = &mine[i];
		memset(d, 0, sizeof(*d));
		if ((r = ch->cu.device_get(&dev, o->first_device + i)) != CU_SUCCESS)
			return cu_fail(ch, e, r, "cuDeviceGet");
		if ((r = ch->cu.primary_ctx_retain(&ch->ctx[i], dev)) != CU_SUCCESS)
			return cu_fail(ch, e, r, "cuDevicePrimaryCtxRetain");
		ch->cu.ctx_set_current(ch->ctx[i]);
		if ((r = ch->cu.stream_create(&ch->stream[i], CU_STREAM_NON_BLOCKING)) !=
		    CU_SUCCESS)
			return cu_fail(ch, e, r, "cuStreamCreate");
		d->rank = ch->first_rank + i;
		d->pid = (int)getpid();
		d->device = o->first_device + i;
		gethostname(d->host, sizeof(d->host) - 1);
		ch->cu.device_get_name(d->name, sizeof(d->name) - 1, dev);
		ch->cu.device_get_attribute(&a, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
		d->pci_domain = (unsigned)a;
		ch->cu.device_get_attribute(&a, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev);
		d->pci_bus = (unsigned)a;
		ch->cu.device_get_attribute(&a, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);
		d->pci_dev = (unsigned)a;
	}
	/* rank 0's id to everyone: the only thing NCCL needs from a launcher */
	memset(&id, 0, sizeof(id));
	if (boot_rank(b) == 0 && (nr = ch->n.get_unique_id(&id)) != NCCL_SUCCESS)
		return nccl_fail(ch, -1, nr, "ncclGetUniqueId", e);
	if (boot_bcast(b, &id, sizeof(id), e) < 0)
		return -1;
	all = xcalloc((size_t)boot_world(b), sizeof(mine[0]) * (size_t)ch->nlocal);
	if (boot_gather(b, mine, sizeof(mine[0]) * (size_t)ch->nlocal, all, e) < 0) {
		free(all);
		return -1;
	}
	if (boot_rank(b) == 0)
		psend(ch->pipe_fd, PM_DEVICES, 0, all, sizeof(mine[0]) * (size_t)ch->nranks,
		      (size_t)ch->nranks);
	free(all);

	if (ch->nlocal > 1 && (nr = ch->n.group_start()) != NCCL_SUCCESS)
		return nccl_fail(ch, -1, nr, "ncclGroupStart", e);
	for (int i = 0; i < ch->nlocal; i++) {
		nccl_config_t cfg = {.size = sizeof(cfg),
		                     .magic = NCCL_CONFIG_MAGIC,
		                     .version = 22800,
		                     .blocking = 0,
		                     .cga_cluster_size = NCCL_CONFIG_UNDEF,
		                     .min_ctas = NCCL_CONFIG_UNDEF,
		                     .max_ctas = NCCL_CONFIG_UNDEF,
		                     .net_name = NULL,
		                     .split_share = NCCL_CONFIG_UNDEF,
		                     .traffic_class = NCCL_CONFIG_UNDEF,
		                     .comm_name = NULL,
		                     .collnet_enable = NCCL_CONFIG_UNDEF,
		                     .cta_policy = NCCL_CONFIG_UNDEF,
		                     .shrink_share = NCCL_CONFIG_UNDEF,
		                     .nvls_ctas = NCCL_CONFIG_UNDEF,
		                     .nchannels_per_net_peer = NCCL_CONFIG_UNDEF,
		                     /* what nccl-tests sets when built against 2.28+ headers */
		                     .nvlink_centric_sched = 1};
		if (version < 22800) {
			cfg.size = NCCL_CONFIG_SIZE_2_14;
			cfg.version = 21400;
		}
		ch->cu.ctx_set_current(ch->ctx[i]);
		nr = ch->n.init_rank_config(&ch->comm[i], ch->nranks, id, ch->first_rank + i, &cfg);
		if (nr != NCCL_SUCCESS && nr != NCCL_IN_PROGRESS)
			return nccl_fail(ch, i, nr, "ncclCommInitRankConfig", e);
	}
	if (ch->nlocal > 1 && (nr = ch->n.group_end()) != NCCL_SUCCESS && nr != NCCL_IN_PROGRESS)
		return nccl_fail(ch, 0, nr, "ncclGroupEnd (init)", e);
	return wait_comms(ch, "NCCL init (ncclCommInitRankConfig)", time_now_ms() + ch->timeout_ms,
	                  e);
}

static int child_row(void *arg, const struct coll_row *row)
{
	struct child *ch = arg;

	psend(ch->pipe_fd, PM_ROW, 0, row, sizeof(*row), 0);
	return 0;
}

static void child_notes(struct child *ch)
{
	FILE *f = fopen(ch->log, "r");
	struct nccl_log_summary s;
	char line[2048], **lines;
	size_t n;

	if (!f)
		return;
	nccl_log_init(&s);
	while (fgets(line, sizeof(line), f))
		nccl_log_line(&s, line);
	fclose(f);
	n = nccl_log_describe(&s, &lines);
	for (size_t i = 0; i < n; i++) {
		psend(ch->pipe_fd, PM_NOTE, 0, lines[i], strlen(lines[i]) + 1, 0);
		free(lines[i]);
	}
	free(lines);
	snprintf(line, sizeof(line), N_("NCCL's own log of this run: %s"), ch->log);
	psend(ch->pipe_fd, PM_NOTE, 0, line, strlen(line) + 1, 0);
}

static void child_main(const struct nccl_opts *o, const struct sweep_opts *so, struct boot *b,
                       int pipe_fd)
{
	struct child *ch = xcalloc(1, sizeof(*ch));
	struct envmap *env = envmap_new(envmap_envp(o->env));
	struct coll_backend be = {.name = "nccl",
	                          .ctx = ch,
	                          .batched = 1,
	                          .alloc = be_alloc,
	                          .release = be_release,
	                          .upload = be_upload,
	                          .download = be_download,
	                          .run = be_run,
	                          .sync = be_sync};
	struct err e = ERR_INIT;
	int rc;

	ch->pipe_fd = pipe_fd;
	ch->nlocal = so->nlocal;
	ch->nranks = boot_world(b) * so->nlocal;
	ch->first_rank = boot_rank(b) * so->nlocal;
	ch->timeout_ms = o->timeout_ms;
	/* NCCL's INFO lines go to a file of ours, not the user's terminal */
	snprintf(ch->log, sizeof(ch->log), "%s/ncclcheck-bench-nccl.rank%d.%d.log",
	         o->log_dir ? o->log_dir : "/tmp", boot_rank(b), (int)getpid());
	if (!envmap_get(env, "NCCL_DEBUG") || strcmp(envmap_get(env, "NCCL_DEBUG"), "TRACE"))
		envmap_set(env, "NCCL_DEBUG", "INFO");
	if (!envmap_get(env, "NCCL_DEBUG_SUBSYS"))
		envmap_set(env, "NCCL_DEBUG_SUBSYS", "INIT,TUNING,NET");
	envmap_set(env, "NCCL_DEBUG_FILE", ch->log);
	environ = (char **)envmap_envp(env); /* a fresh child, one thread: NCCL reads getenv */

	rc = child_setup(ch, o, b, &e);
	if (rc == 0)
		rc = coll_sweep(so, &be, b, boot_rank(b) == 0 ? child_row : NULL, ch, &e);
	if (rc == 0) {
		for (int i = 0; i < ch->nlocal; i++)
			ch->n.finalize(ch->comm[i]);
		if (wait_comms(ch, "ncclCommFinalize", time_now_ms() + ch->timeout_ms, &e) == 0)
			for (int i = 0; i < ch->nlocal; i++)
				ch->n.destroy(ch->comm[i]);
		if (boot_rank(b) == 0)
			child_notes(ch);
		_exit(0);
	}
	boot_report_error(b, e.msg);
	psend(ch->pipe_fd, PM_ERROR, e.code, e.msg, strlen(e.msg) + 1, 0);
	abort_all(ch);
	_exit(3);
}

/* ---- the parent ---- */

static int read_msg(int fd, struct pmsg *m, int64_t deadline)
{
	char *p = (char *)m;
	size_t left = sizeof(*m);

	while (left) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		int64_t now = time_now_ms();
		int pr;
		if (now >= deadline)
			return -2;
		pr = poll(&pf, 1, (int)(deadline - now > 1000 ? 1000 : deadline - now));
		if (pr <= 0)
			continue;
		ssize_t r = read(fd, p, left);
		if (r == 0)
			return left == sizeof(*m) ? 0 : -1;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		left -= (size_t)r;
	}
	return 1;
}

int coll_nccl_bench(const struct nccl_opts *o, const struct sweep_opts *so, struct boot *b,
                    const struct nccl_sink *sink, struct err *e)
{
	int fds[2], sp[2], status = 0, got_error = 0, wfd = -1, wrank = -1;
	size_t nw;
	int64_t heard;
	struct pmsg *m;
	pid_t pid;
	/* the child enforces the timeout itself; this is the last resort if it cannot */
	long silence_ms = o->timeout_ms * 3 + 30000;

	if (so->nlocal < 1 || so->nlocal > MAX_LOCAL)
		return err_set(e, ERR_USAGE, "-g %d: 1..%d GPUs per process", so->nlocal,
		               MAX_LOCAL);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return err_sys(e, "pipe");
	/* the child's bootstrap: it asks, this process runs the collectives (coll/boot_relay.c) */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sp) < 0) {
		close(fds[0]);
		close(fds[1]);
		return err_sys(e, "socketpair");
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		close(sp[0]);
		close(sp[1]);
		return err_sys(e, "fork");
	}
	if (pid == 0) {
		close(fds[0]);
		close(sp[0]);
		boot_become_child(b, sp[1]);
		child_main(o, so, b, fds[1]);
		_exit(3);
	}
	close(fds[1]);
	close(sp[1]);
	m = xcalloc(1, sizeof(*m));
	heard = time_now_ms();
	/* a peer named dead or giving up by the rendezvous ends this rank's run at once: the child
	 * would only wait in NCCL for a peer that will never come */
	nw = boot_watch_fds(b, &wfd, &wrank, 1);
	for (;;) {
		struct pollfd pf[3] = {{.fd = fds[0], .events = POLLIN},
				       {.fd = sp[0], .events = POLLIN},
				       {.fd = nw ? wfd : -1, .events = POLLIN}};
		int rc;
		if (sp[0] >= 0 && time_now_ms() - heard < silence_ms) {
			/* a relay request and the child's reports may come in any order */
			if (poll(pf, 3, 1000) <= 0)
				continue;
			if (pf[2].revents && boot_watch_event(b, wfd, wrank, e) > 0) {
				kill(pid, SIGKILL);
				got_error = 1;
				break;
			}
			heard = time_now_ms();
			if (pf[1].revents) {
				struct err e2 = ERR_INIT;
				int sr = boot_relay_serve(b, sp[0], &e2);
				if (sr < 0) { /* our own child speaking nonsense: a bug, stop */
					kill(pid, SIGKILL);
					err_set(e, ERR_INTERNAL, "%s", e2.msg);
					got_error = 1;
					break;
				}
				if (sr == 1) {
					close(sp[0]);
					sp[0] = -1;
				}
				continue;
			}
		}
		rc = read_msg(fds[0], m, heard + silence_ms);
		if (rc == -2) {
			kill(pid, SIGKILL);
			err_set(e, ERR_TIMEOUT,
			        "the NCCL child said nothing for %ld s and was killed",
			        silence_ms / 1000);
			got_error = 1;
			break;
		}
		if (rc <= 0)
			break;
		switch (m->type) {
		case PM_VERSION:
			m->u.text[sizeof(m->u.text) - 1] = '\0';
			if (sink && sink->version)
				sink->version(sink->arg, m->code, m->u.text);
			break;
		case PM_DEVICES:
			if (sink && sink->devices && m->n <= sizeof(m->u.dev) / sizeof(m->u.dev[0]))
				sink->devices(sink->arg, m->u.dev, m->n);
			break;
		case PM_ROW:
			if (sink && sink->row)
				sink->row(sink->arg, &m->u.row);
			break;
		case PM_NOTE:
			m->u.text[sizeof(m->u.text) - 1] = '\0';
			if (sink && sink->note)
				sink->note(sink->arg, m->u.text);
			break;
		case PM_ERROR:
			m->u.text[sizeof(m->u.text) - 1] = '\0';
			err_set(e, m->code ? (enum err_code)m->code : ERR_SYS, "%s", m->u.text);
			got_error = 1;
			break;
		default:
			break;
		}
	}
	free(m);
	close(fds[0]);
	if (sp[0] >= 0)
		close(sp[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got_error)
		return -1;
	if (WIFSIGNALED(status))
		return err_set(e, ERR_SYS,
		               "NCCL (or the CUDA driver) crashed the bench child with "
		               "signal %d",
		               WTERMSIG(status));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return err_set(e, ERR_SYS, "the NCCL child exited with status %d",
		               WEXITSTATUS(status));
	return 0;
}

const char *coll_nccl_pick_lib(const json_t *facts, char *buf, size_t len)
{
	json_t *libs = json_object_get(json_object_get(facts, "nccl"), "libs"), *lib, *tag;
	size_t i, j;

	/* the copy torch itself maps is the one training will run */
	json_array_foreach(libs, i, lib)
	{
		json_array_foreach(json_object_get(lib, "found_by"), j, tag)
		{
			const char *t = json_string_value(tag);
			const char *p = json_string_value(json_object_get(lib, "path"));
			if (t && p && !strncmp(t, "mapped-by-torch:", 16)) {
				snprintf(buf, len, "%s", p);
				return "the copy torch loads";
			}
		}
	}
	json_array_foreach(libs, i, lib)
	{
		const char *p = json_string_value(json_object_get(lib, "path"));
		if (p && json_is_true(json_object_get(lib, "default"))) {
			snprintf(buf, len, "%s", p);
			return "the dynamic loader's default";
		}
	}
	return NULL;
}
