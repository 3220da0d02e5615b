#define _GNU_SOURCE /* gethostname */
/*
 * A stand-in libnccl.so.2 that really runs collectives, for bench --backend nccl in CI: every
 * rank of a communicator must live in this process (-g N, or one rank), buffers are host memory
 * (fake_cuda.c's cuMemAlloc), and it writes NCCL-style INFO lines to NCCL_DEBUG_FILE so the
 * summary of what NCCL chose is exercised. Types float, double, int32; ops sum prod max min.
 *
 * FAKE_NCCL_SCENARIO: init_hang   init stays ncclInProgress forever (bench must abort it)
 *                     init_error  init fails with ncclSystemError and a last-error text
 *                     wrong       allreduce adds one to element 0 (bench must count it)
 * FAKE_NCCL_TUNED=NAME=VALUE: every operation takes 10 ms longer unless the environment has
 *                     NAME=VALUE (bench tune must find and recommend it; 2 ms was within
 *                     the scheduler's noise of a 2-core box running two suites at once)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define MAXC   16

typedef struct {
	char internal[128];
} id_t_;

struct nccl_comm {
	int nranks, rank, aborted;
	id_t_ id;
};

struct op {
	int kind; /* 0 allreduce 1 allgather 2 reducescatter 3 broadcast 4 send 5 recv */
	const void *send;
	void *recv;
	size_t count;
	int dtype, redop, root, peer;
	struct nccl_comm *comm;
};

static struct nccl_comm *comms[MAXC];
static int ncomms, group_depth;
static struct op pending[MAXC * 64];
static int npending;
static char last_err[256];

static int scenario(const char *s)
{
	const char *v = getenv("FAKE_NCCL_SCENARIO");
	return v && !strcmp(v, s);
}

static void info(const char *fmt, const char *a, long long n)
{
	const char *path = getenv("NCCL_DEBUG_FILE");
	char host[64] = "fake";
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	gethostname(host, sizeof(host) - 1);
	fprintf(f, "%s:%d:%d [0] NCCL INFO ", host, (int)getpid(), (int)getpid());
	fprintf(f, fmt, a, n);
	fputc('\n', f);
	fclose(f);
}

EXPORT int ncclGetVersion(int *v)
{
	*v = 22809;
	return 0;
}

EXPORT const char *ncclGetErrorString(int r)
{
	static const char *const s[] = {"no error",
	                                "unhandled cuda error",
	                                "unhandled system error",
	                                "internal error",
	                                "invalid argument",
	                                "invalid usage",
	                                "remote process exited or there was a network error",
	                                "NCCL operation in progress"};
	return r >= 0 && r < 8 ? s[r] : "unknown result code";
}

EXPORT const char *ncclGetLastError(struct nccl_comm *c)
{
	(void)c;
	return last_err;
}

EXPORT int ncclGetUniqueId(id_t_ *id)
{
	memset(id, 0, sizeof(*id));
	snprintf(id->internal, sizeof(id->internal), "fake-%d", (int)getpid());
	return 0;
}

EXPORT int ncclCommInitRankConfig(struct nccl_comm **out, int nranks, id_t_ id, int rank, void *cfg)
{
	struct nccl_comm *c;

	(void)cfg;
	if (scenario("init_error")) {
		snprintf(last_err, sizeof(last_err),
		         "socketStartConnect: Connect to 10.0.0.2<43211> "
		         "failed : Software caused connection abort");
		return 2;
	}
	if (ncomms == MAXC)
		return 5;
	c = calloc(1, sizeof(*c));
	c->nranks = nranks;
	c->rank = rank;
	c->id = id;
	comms[ncomms++] = c;
	*out = c;
	info("Using network %s", "Socket", 0);
	info("NET/Socket : Using [0]lo:127.0.0.1<0>%s", "", 0);
	info("%s2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels", "", 0);
	if (nranks > 1)
		info("Channel 00/0 : %s%lld[0] -> 1[1] via P2P/fake", "", rank);
	return scenario("init_hang") ? 7 : 0;
}

EXPORT int ncclCommGetAsyncError(struct nccl_comm *c, int *st)
{
	*st = scenario("init_hang") && !c->aborted ? 7 : 0;
	return 0;
}

EXPORT int ncclCommAbort(struct nccl_comm *c)
{
	if (c)
		c->aborted = 1;
	return 0;
}

EXPORT int ncclCommFinalize(struct nccl_comm *c)
{
	(void)c;
	return 0;
}

EXPORT int ncclCommDestroy(struct nccl_comm *c)
{
	for (int i = 0; i < ncomms; i++)
		if (comms[i] == c) {
			comms[i] = comms[--ncomms];
			break;
		}
	free(c);
	return 0;
}

static size_t esize(int t)
{
	return t == 8 ? 8 : t == 7 || t == 2 ? 4 : 0;
}

static double get(int t, const void *p, size_t i)
{
	return t == 8   ? ((const double *)p)[i]
	       : t == 7 ? ((const float *)p)[i]
	                : ((const int32_t *)p)[i];
}

static void put(int t, void *p, size_t i, double v)
{
	if (t == 8)
		((double *)p)[i] = v;
	else if (t == 7)
		((float *)p)[i] = (float)v;
	else
		((int32_t *)p)[i] = (int32_t)v;
}

static double red(int op, double a, double b)
{
	return op == 1 ? a * b : op == 2 ? (a > b ? a : b) : op == 3 ? (a < b ? a : b) : a + b;
}

/* Runs the ops of one kind once every rank of the communicator has posted one. */
static void tuned_delay(void)
{
	const char *want = getenv("FAKE_NCCL_TUNED"), *eq, *have;
	char name[64];

	if (!want || !(eq = strchr(want, '=')) || (size_t)(eq - want) >= sizeof(name))
		return;
	memcpy(name, want, (size_t)(eq - want));
	name[eq - want] = '\0';
	have = getenv(name);
	if (!have || strcmp(have, eq + 1))
		usleep(10000);
}

static int execute(void)
{
	int n = npending;

	tuned_delay();
	if (!n)
		return 0;
	int nr = pending[0].comm->nranks;
	if (n % nr || nr > MAXC) {
		snprintf(last_err, sizeof(last_err),
		         "fake NCCL runs every rank in one process "
		         "(%d of %d here)",
		         n, nr);
		npending = 0;
		return 5;
	}
	for (int base = 0; base < n; base += nr) {
		struct op *o[MAXC];
		for (int i = 0; i < nr; i++)
			o[pending[base + i].comm->rank] = &pending[base + i];
		int t = o[0]->dtype;
		size_t es = esize(t), c = o[0]->count;
		if (!es)
			return 4;
		if (o[0]->kind == 0 || o[0]->kind == 2) {
			size_t total = o[0]->kind == 0 ? c : c * (size_t)nr;
			double *acc = calloc(total + 1, sizeof(double));
			for (size_t i = 0; i < total; i++) {
				acc[i] = get(t, o[0]->send, i);
				for (int r = 1; r < nr; r++)
					acc[i] = red(o[0]->redop, acc[i], get(t, o[r]->send, i));
			}
			if (scenario("wrong") && total)
				acc[0] += 1;
			for (int r = 0; r < nr; r++)
				for (size_t i = 0; i < c; i++)
					put(t, o[r]->recv, i, acc[o[0]->kind == 0 ? i : r * c + i]);
			free(acc);
			info("AllReduce: %s%lld Bytes -> Algo RING proto SIMPLE "
			     "channel{Lo..Hi}={0..1}",
			     "", (long long)(c * es));
		} else if (o[0]->kind == 1) {
			char *tmp = malloc(c * es * (size_t)nr + 1);
			for (int r = 0; r < nr; r++)
				memcpy(tmp + (size_t)r * c * es, o[r]->send, c * es);
			for (int r = 0; r < nr; r++)
				memcpy(o[r]->recv, tmp, c * es * (size_t)nr);
			free(tmp);
		} else if (o[0]->kind == 3) {
			char *tmp = malloc(c * es + 1);
			memcpy(tmp, o[o[0]->root]->send, c * es);
			for (int r = 0; r < nr; r++)
				memcpy(o[r]->recv, tmp, c * es);
			free(tmp);
		}
	}
	npending = 0;
	return 0;
}

static int post(struct op o)
{
	if (npending == (int)(sizeof(pending) / sizeof(pending[0])))
		return 5;
	pending[npending++] = o;
	return group_depth ? 0 : execute();
}

EXPORT int ncclGroupStart(void)
{
	group_depth++;
	return 0;
}

EXPORT int ncclGroupEnd(void)
{
	if (group_depth > 0 && --group_depth == 0)
		return execute();
	return 0;
}

EXPORT int ncclAllReduce(const void *s, void *r, size_t n, int t, int op, struct nccl_comm *c,
                         void *st)
{
	(void)st;
	return post((struct op){
	    .kind = 0, .send = s, .recv = r, .count = n, .dtype = t, .redop = op, .comm = c});
}

EXPORT int ncclAllGather(const void *s, void *r, size_t n, int t, struct nccl_comm *c, void *st)
{
	(void)st;
	return post(
	    (struct op){.kind = 1, .send = s, .recv = r, .count = n, .dtype = t, .comm = c});
}

EXPORT int ncclReduceScatter(const void *s, void *r, size_t n, int t, int op, struct nccl_comm *c,
                             void *st)
{
	(void)st;
	return post((struct op){
	    .kind = 2, .send = s, .recv = r, .count = n, .dtype = t, .redop = op, .comm = c});
}

EXPORT int ncclBroadcast(const void *s, void *r, size_t n, int t, int root, struct nccl_comm *c,
                         void *st)
{
	(void)st;
	return post((struct op){
	    .kind = 3, .send = s, .recv = r, .count = n, .dtype = t, .root = root, .comm = c});
}

EXPORT int ncclSend(const void *s, size_t n, int t, int peer, struct nccl_comm *c, void *st)
{
	(void)s;
	(void)n;
	(void)t;
	(void)peer;
	(void)c;
	(void)st;
	snprintf(last_err, sizeof(last_err), "fake NCCL has no send/recv");
	return 5;
}

EXPORT int ncclRecv(void *r, size_t n, int t, int peer, struct nccl_comm *c, void *st)
{
	(void)r;
	(void)n;
	(void)t;
	(void)peer;
	(void)c;
	(void)st;
	return 5;
}
