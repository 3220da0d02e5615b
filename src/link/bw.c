/*
 * TCP bandwidth, 1..N streams. The peer sends for a duration (or a byte count) and half-closes;
 * the target counts what arrived between its first and last byte and sends that back as a
 * 32-byte trailer on the same stream, so the figure is the receiver's goodput, like iperf3's
 * receiver line, and the client needs no second round trip to learn it.
 *
 * Threads: each side runs min(streams, online CPUs) workers, each multiplexing its share of the
 * streams with poll(), so 8 streams on a 2-core host do not fight as 16 threads (iperf3 3.12 runs
 * every stream in one thread; one thread per core keeps its efficiency where cores are few and
 * scales where they are many).
 */
#include "link/link_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

#define BUF_SIZE (256 * 1024)
#define TRAILER_MAGIC 0x6e636277u	/* "ncbw" */

struct trailer {
	uint32_t magic, pad;
	int64_t bytes;
	int64_t first_ns, last_ns;	/* the receiver's monotonic clock */
};

static int workers_for(int streams)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (cpus < 1)
		cpus = 1;
	return streams < cpus ? streams : (int)cpus;
}

/* ---- the receiving side (target) --------------------------------------------------------- */

struct bw_server;

struct rx_worker {
	struct bw_server *s;
	int fds[LINK_BW_STREAMS_MAX];
	int nfds;
	pthread_t thr;
	atomic_int done;
};

struct bw_server {
	struct link_server base;
	int lfd;
	int stop[2];
	int streams;
	int64_t deadline_ms;	/* when the acceptor gives up waiting for streams */
	pthread_t acceptor;
	int acc_started;
	atomic_int acc_done;
	int fds[LINK_BW_STREAMS_MAX];
	int nfds;
	struct rx_worker rx[LINK_BW_STREAMS_MAX];
	int nrx;
};

static void *rx_main(void *arg)
{
	struct rx_worker *w = arg;
	char *buf = xmalloc(BUF_SIZE);
	struct trailer t[LINK_BW_STREAMS_MAX];
	int live = w->nfds;

	memset(t, 0, sizeof(t));
	while (live) {
		struct pollfd p[LINK_BW_STREAMS_MAX + 1];

		for (int i = 0; i < w->nfds; i++)
			p[i] = (struct pollfd){ .fd = w->fds[i], .events = POLLIN };
		p[w->nfds] = (struct pollfd){ .fd = w->s->stop[0], .events = POLLIN };
		if (net_poll(p, (size_t)w->nfds + 1, time_now_ms() + 1000) < 0)
			break;
		if (p[w->nfds].revents)
			break;
		for (int i = 0; i < w->nfds; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			for (;;) {
				ssize_t n = recv(w->fds[i], buf, BUF_SIZE, MSG_DONTWAIT);

				if (n > 0) {
					int64_t now = time_now_ns();

					if (!t[i].bytes)
						t[i].first_ns = now;
					t[i].last_ns = now;
					t[i].bytes += n;
					continue;
				}
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
					break;
				if (n == 0) {
					t[i].magic = TRAILER_MAGIC;
					net_write_full(w->fds[i], &t[i], sizeof(t[i]),
							time_now_ms() + 2000, NULL);
				}
				/* EOF (trailer sent) or an error: this stream is over */
				shutdown(w->fds[i], SHUT_RDWR);
				w->fds[i] = -w->fds[i] - 1;	/* keep it for close, poll skips it */
				live--;
				break;
			}
		}
	}
	for (int i = 0; i < w->nfds; i++)
		if (w->fds[i] < 0)
			w->fds[i] = -w->fds[i] - 1;
	free(buf);
	atomic_store(&w->done, 1);
	return NULL;
}

static void *acceptor_main(void *arg)
{
	struct bw_server *s = arg;
	int nw;

	/* all streams first, then the workers: each owns a fixed share */
	while (s->nfds < s->streams) {
		struct pollfd p[2] = { { .fd = s->lfd, .events = POLLIN },
				       { .fd = s->stop[0], .events = POLLIN } };
		int64_t left = s->deadline_ms - time_now_ms();
		int fd;

		if (left <= 0 || net_poll(p, 2, s->deadline_ms) < 0 || p[1].revents)
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			s->fds[s->nfds++] = fd;
	}
	nw = workers_for(s->nfds ? s->nfds : 1);
	for (int i = 0; i < nw && s->nfds; i++) {
		struct rx_worker *w = &s->rx[i];

		w->s = s;
		atomic_init(&w->done, 0);
		for (int k = i; k < s->nfds; k += nw)
			w->fds[w->nfds++] = s->fds[k];
		if (pthread_create(&w->thr, NULL, rx_main, w))
			break;
		s->nrx++;
	}
	atomic_store(&s->acc_done, 1);
	return NULL;
}

static void bw_stop(struct link_server *b, int wait_ms)
{
	struct bw_server *s = (struct bw_server *)b;
	int64_t until = time_now_ms() + wait_ms;
	char c = 1;

	/* the client asks to stop once its trailers came back, so the workers are finishing:
	 * give them (and an acceptor still waiting for streams) up to wait_ms, then the pipe */
	while (s->acc_started && time_now_ms() < until) {
		int busy = !atomic_load(&s->acc_done);

		for (int i = 0; !busy && i < s->nrx; i++)
			busy |= !atomic_load(&s->rx[i].done);
		if (!busy)
			break;
		usleep(10000);
	}
	if (write(s->stop[1], &c, 1) < 0) {
		/* an empty pipe takes one byte */
	}
	if (s->acc_started)
		pthread_join(s->acceptor, NULL);
	for (int i = 0; i < s->nrx; i++)
		pthread_join(s->rx[i].thr, NULL);
	for (int i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	if (s->lfd >= 0)
		close(s->lfd);
	close(s->stop[0]);
	close(s->stop[1]);
	free(s);
}

struct link_server *link_bw_server(const struct link_req *req, struct link_ready *ready,
				   struct err *e)
{
	struct bw_server *s = xcalloc(1, sizeof(*s));
	uint16_t port = 0;

	s->base.kind = LINK_BW;
	s->base.stop = bw_stop;
	s->streams = req->streams;
	s->deadline_ms = time_now_ms() + req->timeout_ms + 5000;
	s->lfd = -1;
	atomic_init(&s->acc_done, 0);
	if (pipe2(s->stop, O_CLOEXEC) < 0) {
		err_sys(e, "pipe");
		free(s);
		return NULL;
	}
	/* the port the connect test found open, when given (taken by now: the kernel's pick) */
	s->lfd = req->nports ? link_listen(req->addr, req->ports[0], LINK_BW_STREAMS_MAX, &port,
					   NULL) : -1;
	if (s->lfd < 0)
		s->lfd = link_listen(req->addr, 0, LINK_BW_STREAMS_MAX, &port, e);
	if (s->lfd < 0)
		goto fail;
	ready->ports[0] = port;
	ready->nports = 1;
	if (pthread_create(&s->acceptor, NULL, acceptor_main, s)) {
		err_set(e, ERR_SYS, "cannot start the bandwidth acceptor");
		goto fail;
	}
	s->acc_started = 1;
	return &s->base;
fail:
	bw_stop(&s->base, 0);
	return NULL;
}

/* ---- the sending side (peer) ------------------------------------------------------------- */

struct stream {
	int fd;
	int64_t sent;
	int64_t progress_ms;	/* last time a send made progress */
	int finished;		/* sent all it should and half-closed */
	int stalled;
	int ok;			/* its trailer came back and made sense */
	struct trailer t;
	size_t tgot;
};

struct tx_worker {
	const struct link_req *req;
	struct stream *st[LINK_BW_STREAMS_MAX];
	int n;
	char *buf;
	pthread_t thr;
	struct err e;
};

static void half_close(struct stream *s)
{
	shutdown(s->fd, SHUT_WR);
	s->finished = 1;
}

static void *tx_main(void *arg)
{
	struct tx_worker *w = arg;
	const struct link_req *req = w->req;
	int64_t end_ns = time_now_ns() + (int64_t)req->duration_ms * 1000000;
	int sending = w->n, waiting;

	for (int i = 0; i < w->n; i++)
		w->st[i]->progress_ms = time_now_ms();
	while (sending) {
		struct pollfd p[LINK_BW_STREAMS_MAX];
		int timed_out = !req->bytes && time_now_ns() >= end_ns;

		for (int i = 0; i < w->n; i++) {
			struct stream *s = w->st[i];

			if (!s->finished && !s->stalled && timed_out) {
				half_close(s);
				sending--;
			}
			p[i] = (struct pollfd){ .fd = s->finished || s->stalled ? -1 : s->fd,
						.events = POLLOUT };
		}
		if (!sending)
			break;
		if (net_poll(p, (size_t)w->n, time_now_ms() + 50) < 0)
			break;
		for (int i = 0; i < w->n; i++) {
			struct stream *s = w->st[i];
			int64_t now_ms = time_now_ms();

			if (s->finished || s->stalled)
				continue;
			if (!p[i].revents) {
				/* a result, not a failure: an MTU black hole looks like this */
				if (now_ms - s->progress_ms > req->timeout_ms) {
					s->stalled = 1;
					sending--;
				}
				continue;
			}
			for (int k = 0; k < 64; k++) {
				size_t len = BUF_SIZE;
				ssize_t r;

				if (req->bytes && s->sent + (int64_t)len > req->bytes)
					len = (size_t)(req->bytes - s->sent);
				if (req->bytes && !len) {
					half_close(s);
					sending--;
					break;
				}
				r = send(s->fd, w->buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
				if (r > 0) {
					s->sent += r;
					s->progress_ms = now_ms;
					continue;
				}
				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
					if (w->e.code == ERR_NONE)
						err_sys(&w->e, "stream send");
					half_close(s);
					sending--;
				}
				break;
			}
		}
	}
	/* the trailers: every finished stream answers with what its receiver counted */
	waiting = 0;
	for (int i = 0; i < w->n; i++)
		waiting += w->st[i]->finished && !w->st[i]->stalled;
	{
		int64_t deadline = time_now_ms() + req->timeout_ms + 2000;

		while (waiting && time_now_ms() < deadline) {
			struct pollfd p[LINK_BW_STREAMS_MAX];

			for (int i = 0; i < w->n; i++) {
				struct stream *s = w->st[i];

				p[i] = (struct pollfd){ .fd = s->finished && !s->stalled &&
							s->tgot < sizeof(s->t) ? s->fd : -1,
							.events = POLLIN };
			}
			if (net_poll(p, (size_t)w->n, time_now_ms() + 100) < 0)
				break;
			for (int i = 0; i < w->n; i++) {
				struct stream *s = w->st[i];
				ssize_t r;

				if (p[i].fd < 0 || !p[i].revents)
					continue;
				r = recv(s->fd, (char *)&s->t + s->tgot, sizeof(s->t) - s->tgot,
					 MSG_DONTWAIT);
				if (r > 0)
					s->tgot += (size_t)r;
				if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
					s->tgot = sizeof(s->t) + 1;	/* cut short */
					waiting--;
					continue;
				}
				if (s->tgot == sizeof(s->t)) {
					s->ok = s->t.magic == TRAILER_MAGIC && s->t.bytes >= 0 &&
						s->t.bytes <= s->sent && s->t.last_ns >= s->t.first_ns;
					waiting--;
				}
			}
		}
	}
	/* what was sent never drained to the receiver: the same stall, seen later */
	for (int i = 0; i < w->n; i++)
		if (w->st[i]->finished && !w->st[i]->stalled && w->st[i]->tgot < sizeof(w->st[i]->t))
			w->st[i]->stalled = 1;
	return NULL;
}

#define CONNECT_TRIES 3

int link_bw_client(const struct link_req *req, const struct link_ready *ready,
		   struct link_result *res, struct err *e)
{
	struct link_bw_result *b = &res->b;
	struct stream *st;
	struct tx_worker *w;
	int64_t first = INT64_MAX, last = INT64_MIN;
	int nw, started = 0, rc = 0;

	if (ready->nports < 1 || !ready->ports[0])
		return err_set(e, ERR_PEER, "the target opened no port to receive on");
	st = xcalloc((size_t)req->streams, sizeof(*st));
	for (int i = 0; i < req->streams; i++) {
		enum link_status status;
		int err;
		struct err le = ERR_INIT;

		/* a timed-out connect is tried again from a new source port: replies to a source
		 * port this side filters never come, and the next port the kernel picks is
		 * another (the port map names such a filter; a transfer is not its test) */
		for (int a = 0; a < CONNECT_TRIES; a++) {
			st[i].fd = link_connect_to(req->addr, ready->ports[0], req->src, req->ifname,
						   req->timeout_ms, &status, &err, &le);
			if (st[i].fd >= 0 || status != LINK_TIMEOUT)
				break;
		}
		if (st[i].fd < 0) {
			if (le.code != ERR_NONE)
				*e = le;
			else
				err_set(e, ERR_PEER, "stream connect to %s port %u: %s", req->addr,
					(unsigned)ready->ports[0], link_status_name(status));
			for (int k = 0; k < i; k++)
				close(st[k].fd);
			free(st);
			return -1;
		}
	}
	nw = workers_for(req->streams);
	w = xcalloc((size_t)nw, sizeof(*w));
	for (int i = 0; i < nw; i++) {
		w[i].req = req;
		w[i].buf = xcalloc(1, BUF_SIZE);
		for (int k = i; k < req->streams; k += nw)
			w[i].st[w[i].n++] = &st[k];
	}
	for (int i = 0; i < nw; i++) {
		if (pthread_create(&w[i].thr, NULL, tx_main, &w[i]))
			break;
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(w[i].thr, NULL);
	if (started < nw) {
		rc = err_set(e, ERR_SYS, "cannot start bandwidth worker %d", started);
	}
	for (int i = 0; i < started && !rc; i++)
		if (w[i].e.code != ERR_NONE) {
			*e = w[i].e;
			rc = -1;
		}
	b->streams = req->streams;
	free(b->gbps);
	free(b->bytes);
	b->gbps = xcalloc((size_t)(req->streams > 0 ? req->streams : 1), sizeof(*b->gbps));
	b->bytes = xcalloc((size_t)(req->streams > 0 ? req->streams : 1), sizeof(*b->bytes));
	b->total_bytes = 0;
	b->stalled = 0;
	for (int i = 0; i < req->streams && !rc; i++) {
		double secs;

		if (st[i].stalled) {
			b->stalled++;
			continue;
		}
		if (!st[i].ok) {
			rc = err_set(e, ERR_PEER, "stream %d: the receiver's trailer did not come "
				     "back whole", i);
			break;
		}
		secs = (double)(st[i].t.last_ns - st[i].t.first_ns) / 1e9;
		b->bytes[i] = st[i].t.bytes;
		b->gbps[i] = secs > 0 ? (double)st[i].t.bytes * 8 / secs / 1e9 : 0;
		b->total_bytes += st[i].t.bytes;
		if (st[i].t.bytes) {
			first = st[i].t.first_ns < first ? st[i].t.first_ns : first;
			last = st[i].t.last_ns > last ? st[i].t.last_ns : last;
		}
	}
	b->seconds = last > first ? (double)(last - first) / 1e9 : 0;
	b->total_gbps = b->seconds > 0 ? (double)b->total_bytes * 8 / b->seconds / 1e9 : 0;
	for (int i = 0; i < req->streams; i++)
		close(st[i].fd);
	for (int i = 0; i < nw; i++)
		free(w[i].buf);
	free(w);
	free(st);
	return rc;
}
