/*
 * TCP bandwidth, 1..N streams, one thread per stream on both sides (bounded by
 * LINK_BW_STREAMS_MAX). The peer sends for a duration (or a byte count) and half-closes; the
 * target counts what arrived between its first and last byte and sends that back as a 32-byte
 * trailer on the same stream, so the figure is the receiver's goodput, like iperf3's receiver
 * line, and the client needs no second round trip to learn it.
 */
#include "net/link_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

struct bw_server;

struct receiver {
	struct bw_server *s;
	int fd;
	pthread_t thr;
	atomic_int done;
};

struct bw_server {
	struct link_server base;
	int lfd;
	int stop[2];
	atomic_int stopping;
	int streams;
	int64_t deadline_ms;	/* when the acceptor gives up waiting for streams */
	pthread_t acceptor;
	int acc_started;
	struct receiver rx[LINK_BW_STREAMS_MAX];
	int nrx;
	pthread_mutex_t lock;
};

static void *receiver_main(void *arg)
{
	struct receiver *r = arg;
	char *buf = xmalloc(BUF_SIZE);
	struct trailer t = { .magic = TRAILER_MAGIC };

	for (;;) {
		struct pollfd p[2] = { { .fd = r->fd, .events = POLLIN },
				       { .fd = r->s->stop[0], .events = POLLIN } };
		ssize_t n = recv(r->fd, buf, BUF_SIZE, MSG_DONTWAIT);

		if (n > 0) {
			int64_t now = time_now_ns();

			if (!t.bytes)
				t.first_ns = now;
			t.last_ns = now;
			t.bytes += n;
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			goto out;
		if (poll(p, 2, 1000) < 0 && errno != EINTR)
			goto out;
		if (p[1].revents)
			goto out;
	}
	link_write_full(r->fd, &t, sizeof(t), time_now_ms() + 2000, NULL);
out:
	free(buf);
	atomic_store(&r->done, 1);
	return NULL;
}

static void *acceptor_main(void *arg)
{
	struct bw_server *s = arg;

	while (s->nrx < s->streams && !atomic_load(&s->stopping)) {
		struct pollfd p[2] = { { .fd = s->lfd, .events = POLLIN },
				       { .fd = s->stop[0], .events = POLLIN } };
		int64_t left = s->deadline_ms - time_now_ms();
		int fd;

		if (left <= 0)
			break;
		if (poll(p, 2, (int)left) <= 0 || p[1].revents)
			continue;
		fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			continue;
		pthread_mutex_lock(&s->lock);
		s->rx[s->nrx].s = s;
		s->rx[s->nrx].fd = fd;
		atomic_init(&s->rx[s->nrx].done, 0);
		if (pthread_create(&s->rx[s->nrx].thr, NULL, receiver_main, &s->rx[s->nrx]))
			close(fd);
		else
			s->nrx++;
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

static void bw_stop(struct link_server *b, int wait_ms)
{
	struct bw_server *s = (struct bw_server *)b;
	int64_t until = time_now_ms() + wait_ms;
	char c = 1;

	/* let streams that are still draining finish, up to wait_ms */
	if (s->acc_started) {
		while (time_now_ms() < until) {
			int busy = 0;

			pthread_mutex_lock(&s->lock);
			for (int i = 0; i < s->nrx; i++)
				busy |= !atomic_load(&s->rx[i].done);
			pthread_mutex_unlock(&s->lock);
			if (!busy)
				break;
			usleep(10000);
		}
	}
	atomic_store(&s->stopping, 1);
	if (write(s->stop[1], &c, 1) < 0) {
		/* an empty pipe takes one byte */
	}
	if (s->acc_started)
		pthread_join(s->acceptor, NULL);
	for (int i = 0; i < s->nrx; i++) {
		pthread_join(s->rx[i].thr, NULL);
		close(s->rx[i].fd);
	}
	if (s->lfd >= 0)
		close(s->lfd);
	close(s->stop[0]);
	close(s->stop[1]);
	pthread_mutex_destroy(&s->lock);
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
	pthread_mutex_init(&s->lock, NULL);
	if (pipe2(s->stop, O_CLOEXEC) < 0) {
		err_sys(e, "pipe");
		pthread_mutex_destroy(&s->lock);
		free(s);
		return NULL;
	}
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

struct sender {
	const struct link_req *req;
	uint16_t port;
	pthread_t thr;
	struct trailer t;
	int ok;
	struct err e;
};

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	const struct link_req *req = s->req;
	enum link_status st;
	int err, fd;
	char *buf;
	int64_t end_ns, sent = 0;

	fd = link_connect_to(req->addr, s->port, req->src, req->ifname, req->timeout_ms, &st,
			     &err, &s->e);
	if (fd < 0) {
		if (s->e.code == ERR_NONE)
			err_set(&s->e, ERR_PEER, "stream connect to %s port %u: %s", req->addr,
				(unsigned)s->port, link_status_name(st));
		return NULL;
	}
	buf = xcalloc(1, BUF_SIZE);
	end_ns = time_now_ns() + (int64_t)req->duration_ms * 1000000;
	for (;;) {
		size_t n = BUF_SIZE;
		ssize_t w;

		if (req->bytes) {
			if (sent >= req->bytes)
				break;
			if ((int64_t)n > req->bytes - sent)
				n = (size_t)(req->bytes - sent);
		} else if (time_now_ns() >= end_ns)
			break;
		w = send(fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w > 0) {
			sent += w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			err_sys(&s->e, "stream send");
			goto out;
		}
		if (link_poll(fd, POLLOUT, time_now_ms() + req->timeout_ms) <= 0) {
			err_set(&s->e, ERR_TIMEOUT, "the receiver stopped reading for %d ms",
				req->timeout_ms);
			goto out;
		}
	}
	shutdown(fd, SHUT_WR);
	if (link_read_full(fd, &s->t, sizeof(s->t), time_now_ms() + req->timeout_ms + 2000,
			   &s->e) < 0)
		goto out;
	if (s->t.magic != TRAILER_MAGIC || s->t.bytes < 0 || s->t.bytes > sent ||
	    s->t.last_ns < s->t.first_ns) {
		err_set(&s->e, ERR_PEER, "the receiver's trailer is not one");
		goto out;
	}
	s->ok = 1;
out:
	free(buf);
	close(fd);
	return NULL;
}

int link_bw_client(const struct link_req *req, const struct link_ready *ready,
		   struct link_result *res, struct err *e)
{
	struct link_bw_result *b = &res->b;
	struct sender *s;
	int64_t first = INT64_MAX, last = INT64_MIN;
	int started = 0, rc = 0;

	if (ready->nports < 1 || !ready->ports[0])
		return err_set(e, ERR_PEER, "the target opened no port to receive on");
	s = xcalloc((size_t)req->streams, sizeof(*s));
	for (int i = 0; i < req->streams; i++) {
		s[i].req = req;
		s[i].port = ready->ports[0];
		if (pthread_create(&s[i].thr, NULL, sender_main, &s[i]))
			break;
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(s[i].thr, NULL);
	b->streams = req->streams;
	b->total_bytes = 0;
	for (int i = 0; i < req->streams; i++) {
		double secs;

		if (i >= started || !s[i].ok) {
			if (!rc) {
				if (i >= started)
					err_set(e, ERR_SYS, "cannot start stream thread %d", i);
				else
					*e = s[i].e;
				rc = -1;
			}
			continue;
		}
		secs = (double)(s[i].t.last_ns - s[i].t.first_ns) / 1e9;
		b->bytes[i] = s[i].t.bytes;
		b->gbps[i] = secs > 0 ? (double)s[i].t.bytes * 8 / secs / 1e9 : 0;
		b->total_bytes += s[i].t.bytes;
		if (s[i].t.bytes) {
			first = s[i].t.first_ns < first ? s[i].t.first_ns : first;
			last = s[i].t.last_ns > last ? s[i].t.last_ns : last;
		}
	}
	b->seconds = last > first ? (double)(last - first) / 1e9 : 0;
	b->total_gbps = b->seconds > 0 ? (double)b->total_bytes * 8 / b->seconds / 1e9 : 0;
	free(s);
	return rc;
}
