/*
 * The CPU ring over TCP: item schedules per collective, run by one non-blocking loop per stripe
 * (a thread each for large collectives, all in the caller's thread for small ones).
 */
#include "coll/tcp_ring.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/sock.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define RING_MAX_STRIPES 16
#define RING_SCRATCH     (256 * 1024)
#define RING_MAX_WATCH   256
#define RING_MAX_MAPS    8
#define RING_HUGE        (2u << 20) /* a transparent huge page on x86-64 and arm64 (4K base) */

struct ring {
	struct boot *b;
	int rank, n, nstripes;
	size_t segment;
	long timeout_ms;
	int sfd[RING_MAX_STRIPES], rfd[RING_MAX_STRIPES];
	unsigned char *scratch[RING_MAX_STRIPES];
	/* one worker per stripe, started in ring_new, woken per collective */
	pthread_t th[RING_MAX_STRIPES];
	int efd[RING_MAX_STRIPES]; /* wakes worker k (a dependency landed, or abort) */
	int main_efd;              /* the last worker to finish wakes the caller */
	int nthreads;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned gen; /* bumped per threaded collective */
	int busy, quit;
	struct loop *cur;
	/* the sweep's buffers that tcp_alloc mapped itself (huge-page aligned) */
	struct {
		void *p;
		size_t len;
	} maps[RING_MAX_MAPS];
};

/* Below this many bytes per rank the caller's thread runs every stripe: no wake-up latency. */
#define RING_THREADED_MIN (1u << 20)

/* A piece this rank sends: ready once receive item `dep` is complete (-1: at once). */
struct sitem {
	const char *src;
	size_t len;
	long dep;
};

/* A piece this rank receives: reduced into dst with `other` (dst = other op in), or copied. */
struct ritem {
	char *dst;
	const char *other;
	size_t len;
};

struct sched {
	struct sitem *s;
	size_t ns, salloc;
	struct ritem *r;
	size_t nr, ralloc;
};

int ring_supports(enum coll_id id)
{
	return id == COLL_ALLREDUCE || id == COLL_ALLGATHER || id == COLL_BROADCAST;
}

static int start_workers(struct ring *r, struct err *e);

int ring_send_fd(const struct ring *r)
{
	return r && r->n > 1 ? r->sfd[0] : -1;
}

struct ring *ring_new(struct boot *b, const struct ring_opts *o, struct err *e)
{
	struct ring *r = xcalloc(1, sizeof(*r));

	r->b = b;
	r->rank = boot_rank(b);
	r->n = boot_world(b);
	r->nstripes = o->nstripes < 1                  ? 1
	              : o->nstripes > RING_MAX_STRIPES ? RING_MAX_STRIPES
	                                               : o->nstripes;
	r->segment = o->segment ? o->segment : 512 * 1024;
	r->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
	if (boot_ring(b, r->nstripes, r->sfd, r->rfd, e) < 0) {
		free(r);
		return NULL;
	}
	for (int s = 0; s < r->nstripes; s++) {
		r->scratch[s] = xmalloc(RING_SCRATCH + 16);
		if (o->window > 0 && r->rfd[s] >= 0)
			setsockopt(r->rfd[s], IPPROTO_TCP, TCP_WINDOW_CLAMP, &o->window,
			           sizeof(o->window));
	}
	if (start_workers(r, e) < 0) {
		ring_free(r);
		return NULL;
	}
	return r;
}

void ring_free(struct ring *r)
{
	if (!r)
		return;
	if (r->nthreads) {
		pthread_mutex_lock(&r->mu);
		r->quit = 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		for (int k = 0; k < r->nthreads; k++)
			pthread_join(r->th[k], NULL);
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
	}
	for (int k = 0; k < RING_MAX_STRIPES; k++)
		if (r->efd[k] > 0)
			close(r->efd[k]);
	if (r->main_efd > 0)
		close(r->main_efd);
	for (int s = 0; s < r->nstripes; s++) {
		if (r->sfd[s] >= 0)
			close(r->sfd[s]);
		if (r->rfd[s] >= 0)
			close(r->rfd[s]);
		free(r->scratch[s]);
	}
	for (int i = 0; i < RING_MAX_MAPS; i++)
		if (r->maps[i].p)
			munmap(r->maps[i].p, r->maps[i].len);
	free(r);
}

/* ---- schedules ---- */

/* Sends of one block, each depending on the matching piece of receive step `dep_base` (or -1). */
static void add_sends(struct sched *s, const char *src, size_t bytes, size_t seg, long dep_base)
{
	for (size_t k = 0, off = 0; off < bytes; k++, off += seg) {
		ALLOC_GROW(s->s, s->ns + 1, s->salloc);
		s->s[s->ns++] = (struct sitem){.src = src + off,
		                               .len = bytes - off < seg ? bytes - off : seg,
		                               .dep = dep_base < 0 ? -1 : dep_base + (long)k};
	}
}

static void add_recvs(struct sched *s, char *dst, const char *other, size_t bytes, size_t seg)
{
	for (size_t off = 0; off < bytes; off += seg) {
		ALLOC_GROW(s->r, s->nr + 1, s->ralloc);
		s->r[s->nr++] = (struct ritem){.dst = dst + off,
		                               .other = other ? other + off : NULL,
		                               .len = bytes - off < seg ? bytes - off : seg};
	}
}

static size_t blk_off(size_t count, int b, int n)
{
	return (size_t)((unsigned __int128)count * (unsigned)b / (unsigned)n);
}

/*
 * All-reduce: reduce-scatter then all-gather, 2(n-1) steps. At step t this rank sends the block
 * it received (and reduced) at step t-1, so send step t's pieces wait on receive step t-1's.
 */
static void sched_allreduce(struct sched *s, const struct coll_call *c, int rank, int n, size_t seg)
{
	size_t es = coll_dtype_size(c->dtype);
	const char *in = c->send;
	char *out = c->recv;
	long rstart = 0; /* first receive item of the previous step */

	for (int t = 0; t < 2 * (n - 1); t++) {
		int rs = t < n - 1, st = rs ? t : t - (n - 1);
		int sb = rs ? ((rank - st) % n + n) % n : ((rank + 1 - st) % n + n) % n;
		int rb = rs ? ((rank - st - 1) % n + n) % n : ((rank - st) % n + n) % n;
		size_t so = blk_off(c->count, sb, n) * es,
		       sl = blk_off(c->count, sb + 1, n) * es - so;
		size_t ro = blk_off(c->count, rb, n) * es,
		       rl = blk_off(c->count, rb + 1, n) * es - ro;
		long here = (long)s->nr;

		add_sends(s, (t == 0 ? in : out) + so, sl, seg, t == 0 ? -1 : rstart);
		add_recvs(s, out + ro, rs ? in + ro : NULL, rl, seg);
		rstart = here;
	}
}

/* All-gather: this rank's block goes round; step t forwards what step t-1 brought. */
static void sched_allgather(struct sched *s, const struct coll_call *c, int rank, int n, size_t seg)
{
	size_t bytes = c->count * coll_dtype_size(c->dtype);
	long rstart = 0;

	for (int t = 0; t < n - 1; t++) {
		int sb = ((rank - t) % n + n) % n, rb = ((rank - t - 1) % n + n) % n;
		long here = (long)s->nr;

		add_sends(s, t == 0 ? (const char *)c->send : (char *)c->recv + sb * bytes, bytes,
		          seg, t == 0 ? -1 : rstart);
		add_recvs(s, (char *)c->recv + rb * bytes, NULL, bytes, seg);
		rstart = here;
	}
}

/* Broadcast: a pipelined chain root -> root+1 -> ... ; every middle rank forwards each piece. */
static void sched_broadcast(struct sched *s, const struct coll_call *c, int rank, int n, size_t seg)
{
	size_t bytes = c->count * coll_dtype_size(c->dtype);
	int pos = ((rank - c->root) % n + n) % n;

	if (pos > 0)
		add_recvs(s, c->recv, NULL, bytes, seg);
	if (pos < n - 1)
		add_sends(s, pos == 0 ? c->send : c->recv, bytes, seg, pos == 0 ? -1 : 0);
}

/* ---- the event loop ---- */

struct stripe {
	size_t sj, soff; /* next send item on this stripe, bytes of it sent */
	size_t rj, roff,
	    have; /* next receive item, bytes of it finished, bytes waiting in scratch */
};

struct loop {
	struct ring *r;
	const struct sched *s;
	enum coll_dtype t;
	enum coll_op op;
	size_t es;
	unsigned char *done; /* per receive item; release/acquire: the data is there */
	long *rev;           /* the send item waiting on each receive item, or -1 */
	int threaded;
	int abort;    /* atomic: a stripe failed or the caller gave up */
	int64_t last; /* atomic: when any stripe last moved a byte (ms) */
	int failed;   /* under r->mu: err holds the first failure */
	struct err err;
	struct stripe st[RING_MAX_STRIPES];
};

static int stripe_finished(const struct loop *l, int k)
{
	return l->st[k].sj >= l->s->ns && l->st[k].rj >= l->s->nr;
}

static void wake(int fd)
{
	uint64_t one = 1;

	if (fd > 0 && write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		return; /* an eventfd write only fails when the counter is full: it is awake */
}

static int peer_err(struct loop *l, int peer, int sending, ssize_t rc, struct err *e)
{
	const char *who = boot_peer_name(l->r->b, peer);

	if (rc == 0)
		return err_set(e, ERR_PEER,
		               "%s closed its ring connection mid-collective (did it "
		               "die?)",
		               who);
	return err_set(e, ERR_PEER, "%s: ring connection lost while %s (%s)", who,
	               sending ? "sending" : "receiving", err_errno_text(errno));
}

/* Moves what it can on stripe k without blocking; returns bytes moved, or -1. */
static ssize_t stripe_step(struct loop *l, int k, struct err *e)
{
	struct ring *r = l->r;
	struct stripe *st = &l->st[k];
	const struct sched *s = l->s;
	int S = r->nstripes, next = (r->rank + 1) % r->n, prev = (r->rank + r->n - 1) % r->n;
	ssize_t moved = 0;

	while (st->sj < s->ns) {
		const struct sitem *it = &s->s[st->sj];
		ssize_t w;

		if (it->dep >= 0 && !__atomic_load_n(&l->done[it->dep], __ATOMIC_ACQUIRE))
			break;
		w = send(r->sfd[k], it->src + st->soff, it->len - st->soff,
		         MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				break;
			return peer_err(l, next, 1, w, e);
		}
		moved += w;
		st->soff += (size_t)w;
		if (st->soff == it->len) {
			st->sj += (size_t)S;
			st->soff = 0;
		}
	}
	while (st->rj < s->nr) {
		const struct ritem *it = &s->r[st->rj];
		unsigned char *scr = r->scratch[k];
		ssize_t got;

		if (!it->other) {
			got = recv(r->rfd[k], it->dst + st->roff, it->len - st->roff, MSG_DONTWAIT);
		} else {
			size_t want = it->len - st->roff - st->have;
			if (want > RING_SCRATCH)
				want = RING_SCRATCH;
			got = recv(r->rfd[k], scr + st->have, want, MSG_DONTWAIT);
		}
		if (got <= 0) {
			if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
				break;
			return peer_err(l, prev, 0, got, e);
		}
		moved += got;
		if (!it->other) {
			st->roff += (size_t)got;
		} else {
			/* reduce every whole element now; a split element waits in scratch */
			size_t total = st->have + (size_t)got, whole = total - total % l->es;
			coll_reduce(l->t, l->op, it->dst + st->roff, it->other + st->roff, scr,
			            whole / l->es);
			st->roff += whole;
			st->have = total - whole;
			if (st->have)
				memmove(scr, scr + whole, st->have);
		}
		if (st->roff == it->len) {
			long waiter = l->rev[st->rj];
			__atomic_store_n(&l->done[st->rj], 1, __ATOMIC_RELEASE);
			if (l->threaded && waiter >= 0 && waiter % S != k)
				wake(r->efd[waiter % S]);
			st->rj += (size_t)S;
			st->roff = 0;
		}
	}
	return moved;
}

/*
 * After a failure: give the rendezvous a moment to say who really died (the neighbour that
 * closed may only be passing on another rank's death).
 */
static void name_culprit(struct loop *l, struct err *e)
{
	int fds[RING_MAX_WATCH], ranks[RING_MAX_WATCH];
	size_t n = boot_watch_fds(l->r->b, fds, ranks, RING_MAX_WATCH);
	int64_t until = time_now_ms() + 1000; /* returns at the first death it hears of */

	while (n && time_now_ms() < until) {
		struct pollfd p[RING_MAX_WATCH];
		for (size_t i = 0; i < n; i++)
			p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		if (net_poll(p, n, time_now_ms() + 50) <= 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			struct err e2 = ERR_INIT;
			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int ev = boot_watch_event(l->r->b, fds[i], ranks[i], &e2);
			/* a death, or a peer's report of one, explains more than a closed neighbour
			 */
			if (ev == 1 || (ev == 2 && strstr(e2.msg, " is gone"))) {
				*e = e2;
				return;
			}
			fds[i] = fds[--n];
			ranks[i] = ranks[n];
			i--;
			break;
		}
	}
}

static void loop_init(struct loop *l, int S)
{
	const struct sched *s = l->s;

	l->done = xcalloc(s->nr + 1, 1);
	l->rev = xmalloc((s->nr + 1) * sizeof(*l->rev));
	for (size_t j = 0; j <= s->nr; j++)
		l->rev[j] = -1;
	for (size_t i = 0; i < s->ns; i++)
		if (s->s[i].dep >= 0)
			l->rev[s->s[i].dep] = (long)i;
	for (int k = 0; k < S; k++)
		l->st[k] = (struct stripe){.sj = (size_t)k, .rj = (size_t)k};
	l->last = time_now_ms();
}

static void loop_release(struct loop *l)
{
	free(l->done);
	free(l->rev);
}

/* No byte moved for the timeout: name the neighbour this rank waits on. */
static int stall_err(const struct loop *l, struct err *e)
{
	const struct ring *r = l->r;
	int waiting_recv = 0;

	for (int k = 0; k < r->nstripes; k++)
		waiting_recv |= l->st[k].rj < l->s->nr;
	return err_set(
	    e, ERR_TIMEOUT, "%s: no progress for %ld s (%s)",
	    boot_peer_name(r->b, waiting_recv ? (r->rank + r->n - 1) % r->n : (r->rank + 1) % r->n),
	    r->timeout_ms / 1000,
	    waiting_recv ? "no data arrives from it" : "it stopped reading what this rank sends");
}

/* The first failure wins; every stripe is told to stop. */
static void loop_fail(struct loop *l, const struct err *e)
{
	struct ring *r = l->r;

	pthread_mutex_lock(&r->mu);
	if (!l->failed) {
		l->failed = 1;
		l->err = *e;
	}
	pthread_mutex_unlock(&r->mu);
	__atomic_store_n(&l->abort, 1, __ATOMIC_RELEASE);
	for (int k = 0; k < r->nthreads; k++)
		wake(r->efd[k]);
}

/* One stripe's loop, in its worker thread. */
static void stripe_run(struct loop *l, int k)
{
	struct ring *r = l->r;
	const struct sched *s = l->s;
	struct stripe *st = &l->st[k];
	struct err e = ERR_INIT;

	while (!stripe_finished(l, k) && !__atomic_load_n(&l->abort, __ATOMIC_ACQUIRE)) {
		struct pollfd p[3];
		nfds_t np = 0;
		ssize_t m = stripe_step(l, k, &e);

		if (m < 0) {
			loop_fail(l, &e);
			return;
		}
		if (m > 0) {
			__atomic_store_n(&l->last, time_now_ms(), __ATOMIC_RELAXED);
			continue;
		}
		if (stripe_finished(l, k))
			break;
		if (st->sj < s->ns &&
		    (s->s[st->sj].dep < 0 ||
		     __atomic_load_n(&l->done[s->s[st->sj].dep], __ATOMIC_ACQUIRE)))
			p[np++] = (struct pollfd){.fd = r->sfd[k], .events = POLLOUT};
		if (st->rj < s->nr)
			p[np++] = (struct pollfd){.fd = r->rfd[k], .events = POLLIN};
		p[np++] = (struct pollfd){.fd = r->efd[k], .events = POLLIN};
		if (net_poll(p, np, time_now_ms() + 200) > 0 && (p[np - 1].revents & POLLIN)) {
			uint64_t v;
			if (read(r->efd[k], &v, sizeof(v)) < 0 && errno != EAGAIN)
				break;
		}
	}
}

struct worker_arg {
	struct ring *r;
	int k;
};

static void *worker_main(void *arg)
{
	struct worker_arg wa = *(struct worker_arg *)arg;
	struct ring *r = wa.r;
	unsigned seen = 0;

	free(arg);
	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (r->gen == seen && !r->quit)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->quit)
			break;
		seen = r->gen;
		struct loop *l = r->cur;
		pthread_mutex_unlock(&r->mu);
		stripe_run(l, wa.k);
		pthread_mutex_lock(&r->mu);
		if (--r->busy == 0)
			wake(r->main_efd);
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

static int start_workers(struct ring *r, struct err *e)
{
	r->main_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->main_efd < 0)
		return err_sys(e, "eventfd");
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	if (r->n == 1 || r->nstripes == 1)
		return 0; /* nothing to run in parallel */
	for (int k = 0; k < r->nstripes; k++) {
		struct worker_arg *wa = xmalloc(sizeof(*wa));
		r->efd[k] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (r->efd[k] < 0) {
			free(wa);
			return err_sys(e, "eventfd");
		}
		*wa = (struct worker_arg){.r = r, .k = k};
		if (pthread_create(&r->th[k], NULL, worker_main, wa)) {
			free(wa);
			return err_set(e, ERR_SYS, "cannot start ring worker threads");
		}
		r->nthreads++;
	}
	return 0;
}

/* The caller's side of a threaded collective: start the stripes, watch the peers, wait. */
static int run_threaded(struct ring *r, const struct sched *s, const struct coll_call *c,
                        struct err *e)
{
	struct loop l = {.r = r,
	                 .s = s,
	                 .t = c->dtype,
	                 .op = c->op,
	                 .es = coll_dtype_size(c->dtype),
	                 .threaded = 1};
	int wfd[RING_MAX_WATCH], wrank[RING_MAX_WATCH], from_watch = 0, busy;
	size_t nw = boot_watch_fds(r->b, wfd, wrank, RING_MAX_WATCH);
	struct err watched = ERR_INIT;
	uint64_t v;

	loop_init(&l, r->nstripes);
	pthread_mutex_lock(&r->mu);
	r->cur = &l;
	r->busy = r->nthreads;
	r->gen++;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	for (;;) {
		struct pollfd p[RING_MAX_WATCH + 1];
		size_t np = 0;

		pthread_mutex_lock(&r->mu);
		busy = r->busy;
		pthread_mutex_unlock(&r->mu);
		if (!busy)
			break;
		p[np++] = (struct pollfd){.fd = r->main_efd, .events = POLLIN};
		for (size_t i = 0; i < nw; i++)
			p[np++] = (struct pollfd){.fd = wfd[i], .events = POLLIN};
		if (net_poll(p, np, time_now_ms() + 200) > 0) {
			if ((p[0].revents & POLLIN) && read(r->main_efd, &v, sizeof(v)) < 0 &&
			    errno != EAGAIN)
				break;
			size_t kept = 0;
			for (size_t i = 1; i < np; i++) {
				struct err e2 = ERR_INIT;
				if (!p[i].revents) {
					wfd[kept] = wfd[i - 1];
					wrank[kept++] = wrank[i - 1];
					continue;
				}
				int ev = boot_watch_event(r->b, wfd[i - 1], wrank[i - 1], &e2);
				if (ev > 0) {
					/* kept apart: a stripe may have failed first on the symptom */
					if (!from_watch || ev == 1 || strstr(e2.msg, " is gone"))
						watched = e2;
					from_watch = 1;
					loop_fail(&l, &e2);
				}
				/* else: not failed after all; stop watching */
			}
			nw = kept;
		}
		if (!__atomic_load_n(&l.abort, __ATOMIC_ACQUIRE) &&
		    time_now_ms() - __atomic_load_n(&l.last, __ATOMIC_RELAXED) > r->timeout_ms) {
			struct err e2 = ERR_INIT;
			loop_fail(&l, (stall_err(&l, &e2), &e2));
		}
	}
	if (l.failed) {
		/*
		 * What the rendezvous said beats a stripe's closed socket: a neighbour that
		 * closed its ring connection may only be passing on another rank's death, and the
		 * stripe and the watch race for who fails first.
		 */
		*e = from_watch ? watched : l.err;
		if (!from_watch)
			name_culprit(&l, e);
		loop_release(&l);
		return -1;
	}
	loop_release(&l);
	return 0;
}

static int run_loop(struct ring *r, const struct sched *s, const struct coll_call *c, struct err *e)
{
	struct loop l = {
	    .r = r, .s = s, .t = c->dtype, .op = c->op, .es = coll_dtype_size(c->dtype)};
	int wfd[RING_MAX_WATCH], wrank[RING_MAX_WATCH], S = r->nstripes;
	size_t nw = boot_watch_fds(r->b, wfd, wrank, RING_MAX_WATCH);
	int64_t last = time_now_ms();
	int rc = 0;

	loop_init(&l, S);
	for (;;) {
		struct pollfd p[2 * RING_MAX_STRIPES + RING_MAX_WATCH];
		ssize_t moved = 0;
		size_t np = 0;

		for (int k = 0; k < S; k++) {
			ssize_t m = stripe_step(&l, k, e);
			if (m < 0) {
				rc = -1;
				goto out;
			}
			moved += m;
		}
		if (moved) {
			last = time_now_ms();
			continue;
		}
		int all = 1;
		for (int k = 0; k < S; k++)
			all = all && stripe_finished(&l, k);
		if (all)
			break;
		for (int k = 0; k < S; k++) {
			const struct stripe *st = &l.st[k];
			if (st->sj < s->ns && (s->s[st->sj].dep < 0 || l.done[s->s[st->sj].dep]))
				p[np++] = (struct pollfd){.fd = r->sfd[k], .events = POLLOUT};
			if (st->rj < s->nr)
				p[np++] = (struct pollfd){.fd = r->rfd[k], .events = POLLIN};
		}
		size_t wbase = np;
		for (size_t i = 0; i < nw; i++)
			p[np++] = (struct pollfd){.fd = wfd[i], .events = POLLIN};
		int pr = net_poll(p, np, time_now_ms() + 500);
		if (pr < 0 && errno != EINTR) {
			rc = err_sys(e, "poll");
			goto out;
		}
		for (size_t i = wbase; pr > 0 && i < np; i++) {
			size_t w = i - wbase;
			if (!p[i].revents)
				continue;
			if (boot_watch_event(r->b, wfd[w], wrank[w], e) > 0) {
				loop_release(&l);
				return -1; /* the rendezvous already said who and why */
			}
			wfd[w] = -1; /* not failed after all: stop watching */
		}
		size_t kept = 0;
		for (size_t i = 0; i < nw; i++)
			if (wfd[i] >= 0) {
				wfd[kept] = wfd[i];
				wrank[kept++] = wrank[i];
			}
		nw = kept;
		if (time_now_ms() - last > r->timeout_ms) {
			rc = stall_err(&l, e);
			goto out;
		}
	}
out:
	if (rc < 0)
		name_culprit(&l, e);
	loop_release(&l);
	return rc;
}

int ring_run(struct ring *r, const struct coll_call *c, struct err *e)
{
	const struct coll_kind *k = c->kind;
	size_t es = coll_dtype_size(c->dtype), seg = r->segment - r->segment % es;
	struct sched s = {0};
	size_t local_bytes;
	int rc;

	if (!ring_supports(k->id))
		return err_set(e, ERR_USAGE,
		               "%s is not implemented by --backend tcp (it runs "
		               "allreduce, allgather and broadcast)",
		               k->name);
	if (seg < es)
		seg = es;
	/* what stays on this rank: the in-place-or-copy part of each collective */
	local_bytes = c->count * es;
	if (r->n == 1 || k->id == COLL_ALLGATHER) {
		char *dst = k->id == COLL_ALLGATHER
		                ? (char *)c->recv + (size_t)r->rank * local_bytes
		                : c->recv;
		if (dst != c->send && (k->id != COLL_BROADCAST || r->rank == c->root || r->n == 1))
			memmove(dst, c->send, local_bytes);
		if (r->n == 1)
			return 0;
	}
	if (k->id == COLL_BROADCAST && r->rank == c->root && c->recv != c->send)
		memmove(c->recv, c->send, local_bytes);
	switch (k->id) {
	case COLL_ALLREDUCE:
		sched_allreduce(&s, c, r->rank, r->n, seg);
		break;
	case COLL_ALLGATHER:
		sched_allgather(&s, c, r->rank, r->n, seg);
		break;
	default:
		sched_broadcast(&s, c, r->rank, r->n, seg);
		break;
	}
	if (r->nthreads && c->count * es >= RING_THREADED_MIN)
		rc = run_threaded(r, &s, c, e);
	else
		rc = run_loop(r, &s, c, e);
	free(s.s);
	free(s.r);
	return rc;
}

/* ---- as a sweep backend ---- */

/*
 * Buffers of a few huge pages or more are mapped 2 MiB-aligned and advised MADV_HUGEPAGE: the
 * kernel's copies to and from them and the reduction stream through 512x fewer pages (THP is
 * usually "madvise" only), and the first touch faults 32 times per 64 MiB, not 16384. Fresh
 * anonymous memory is zero, like calloc's; pages nobody writes still cost nothing.
 */
static void *map_huge(size_t bytes, size_t *len)
{
	size_t want = (bytes + RING_HUGE - 1) / RING_HUGE * RING_HUGE;
	char *raw = mmap(NULL, want + RING_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                 -1, 0);
	size_t lead;

	if (raw == MAP_FAILED)
		return NULL;
	lead = (RING_HUGE - (uintptr_t)raw % RING_HUGE) % RING_HUGE;
	if (lead)
		munmap(raw, lead);
	if (RING_HUGE - lead)
		munmap(raw + lead + want, RING_HUGE - lead);
#ifdef MADV_HUGEPAGE
	madvise(raw + lead, want, MADV_HUGEPAGE); /* advice only: 4K pages work too */
#endif
	*len = want;
	return raw + lead;
}

static int tcp_alloc(void *ctx, int local, size_t bytes, void **p, struct err *e)
{
	struct ring *r = ctx;

	(void)local;
	for (int i = 0; bytes >= 4 * (size_t)RING_HUGE && i < RING_MAX_MAPS; i++) {
		if (r->maps[i].p)
			continue;
		*p = map_huge(bytes, &r->maps[i].len);
		if (!*p)
			break; /* calloc says why */
		r->maps[i].p = *p;
		return 0;
	}
	*p = calloc(1, bytes); /* untouched pages cost nothing until the data is written */
	if (!*p)
		return err_set(e, ERR_SYS, "out of memory for a %zu-byte buffer", bytes);
	return 0;
}

static void tcp_release(void *ctx, int local, void *p)
{
	struct ring *r = ctx;

	(void)local;
	for (int i = 0; i < RING_MAX_MAPS; i++)
		if (r->maps[i].p && r->maps[i].p == p) {
			munmap(p, r->maps[i].len);
			r->maps[i].p = NULL;
			return;
		}
	free(p);
}

static int tcp_run(void *ctx, const struct coll_call *calls, int ncalls, struct err *e)
{
	if (ncalls != 1)
		return err_set(e, ERR_USAGE, "--backend tcp runs one rank per process (no -g)");
	return ring_run(ctx, &calls[0], e);
}

void ring_backend(struct ring *r, struct coll_backend *be)
{
	*be = (struct coll_backend){.name = "tcp",
	                            .ctx = r,
	                            .host_memory = 1,
	                            .alloc = tcp_alloc,
	                            .release = tcp_release,
	                            .run = tcp_run};
}
