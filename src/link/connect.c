/*
 * The connect test: the target listens on 1..8 ports of its address and echoes 8-byte pings;
 * the peer connects to each from its chosen source (refused / timed out / no route / host
 * unreachable told apart by errno) and times K ping-pongs on the first connection that worked.
 */
#include "link/link_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define ECHO_CONNS_MAX 16	/* connections the echo thread serves at once */
#define OTHER_CONNECTS 16	/* the target's accept queue kept for the other tests */

struct connect_server {
	struct link_server base;
	int lfd[LINK_CONNECT_PORTS_MAX];
	int nl;
	int stop[2];
	pthread_t thr;
	int started;
};

/* Accepts and echoes until the stop pipe is readable. */
static void *echo_main(void *arg)
{
	struct connect_server *s = arg;
	struct pollfd p[1 + LINK_CONNECT_PORTS_MAX + ECHO_CONNS_MAX];
	int conns[ECHO_CONNS_MAX], nc = 0;

	for (;;) {
		int np = 0, rc;

		p[np++] = (struct pollfd){ .fd = s->stop[0], .events = POLLIN };
		for (int i = 0; i < s->nl; i++)
			p[np++] = (struct pollfd){ .fd = nc < ECHO_CONNS_MAX ? s->lfd[i] : -1,
						   .events = POLLIN };
		for (int i = 0; i < nc; i++)
			p[np++] = (struct pollfd){ .fd = conns[i], .events = POLLIN };
		rc = net_poll(p, (size_t)np, -1);
		if (rc < 0 || p[0].revents)
			break;
		for (int i = 0; i < s->nl; i++) {
			int fd;

			if (!(p[1 + i].revents & POLLIN) || nc >= ECHO_CONNS_MAX)
				continue;
			fd = accept4(s->lfd[i], NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
			if (fd >= 0)
				conns[nc++] = fd;
		}
		for (int i = nc - 1; i >= 0; i--) {
			char buf[64];
			ssize_t r;

			if (!p[1 + s->nl + i].revents)
				continue;
			r = recv(conns[i], buf, sizeof(buf), MSG_DONTWAIT);
			if (r > 0) {
				/* a ping is 8 bytes; a peer that does not read its echoes loses them */
				if (send(conns[i], buf, (size_t)r, MSG_DONTWAIT | MSG_NOSIGNAL) == r)
					continue;
			} else if (r < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			close(conns[i]);
			conns[i] = conns[--nc];
		}
	}
	for (int i = 0; i < nc; i++)
		close(conns[i]);
	return NULL;
}

static void connect_stop(struct link_server *b, int wait_ms)
{
	struct connect_server *s = (struct connect_server *)b;
	char c = 1;

	(void)wait_ms;	/* the thread only polls: it leaves as soon as the pipe is written */
	if (s->started) {
		if (write(s->stop[1], &c, 1) < 0) {
			/* the pipe cannot be full (one byte ever); nothing else to do */
		}
		pthread_join(s->thr, NULL);
	}
	for (int i = 0; i < s->nl; i++)
		close(s->lfd[i]);
	close(s->stop[0]);
	close(s->stop[1]);
	free(s);
}

struct link_server *link_connect_server(const struct link_req *req, struct link_ready *ready,
					struct err *e)
{
	struct connect_server *s = xcalloc(1, sizeof(*s));
	/* the loss probe's connects arrive at once: a backlog shorter than them would drop
	 * handshakes itself and read as loss on the link */
	int backlog = req->probes + OTHER_CONNECTS > 64 ? req->probes + OTHER_CONNECTS : 64;
	long somax = 0;

	s->base.kind = LINK_CONNECT;
	s->base.stop = connect_stop;
	if (pipe2(s->stop, O_CLOEXEC) < 0) {
		err_sys(e, "pipe");
		free(s);
		return NULL;
	}
	for (int i = 0; i < req->nports; i++) {
		uint16_t bound = 0;
		struct err le = ERR_INIT;
		int fd = link_listen(req->addr, req->ports[i], backlog, &bound, &le);

		/* a chosen port another socket holds: any port will do, the kernel's pick */
		if (fd < 0 && req->ports[i] && (errno == EADDRINUSE || errno == EACCES))
			fd = link_listen(req->addr, 0, backlog, &bound, &le);
		if (fd < 0) {
			*e = le;
			connect_stop(&s->base, 0);
			return NULL;
		}
		s->lfd[s->nl++] = fd;
		ready->ports[ready->nports++] = bound;
	}
	/* listen() caps the backlog at somaxconn without a word: say what is in effect */
	ready->accepts = backlog;
	if (file_read_long("/proc/sys/net/core/somaxconn", &somax) == 0 && somax > 0 &&
	    somax < backlog)
		ready->accepts = (int)somax;
	if (pthread_create(&s->thr, NULL, echo_main, s)) {
		err_set(e, ERR_SYS, "cannot start the echo thread");
		connect_stop(&s->base, 0);
		return NULL;
	}
	s->started = 1;
	return &s->base;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define TCP_RTO_MIN_US 200000.0	/* Linux's TCP_RTO_MIN: the soonest a lost segment is sent again */
#define PINGS_ENOUGH 5		/* round trips that give a p50 and a worst case */
#define PINGS_BUDGET_MS 1000	/* ... after which a long link stops pinging */

/* K ping-pongs of 8 bytes, or fewer on a long link (PINGS_ENOUGH once they took
 * PINGS_BUDGET_MS: 20 at 200 ms would cost 4 s of every pair's test); fills the RTT figures. */
static void pings(int fd, const struct link_req *req, struct link_connect_result *c)
{
	double *rtt = xcalloc((size_t)req->pings + 1, sizeof(*rtt));
	int64_t start = time_now_ms();
	int n = 0;

	for (int i = 0; i < req->pings; i++) {
		if (n >= PINGS_ENOUGH && time_now_ms() - start >= PINGS_BUDGET_MS)
			break;
		uint64_t seq = (uint64_t)i, back = 0;
		int64_t t0 = time_now_ns(), deadline = time_now_ms() + req->timeout_ms;

		if (net_write_full(fd, &seq, sizeof(seq), deadline, NULL) < 0 ||
		    net_read_full(fd, &back, sizeof(back), deadline, NULL) < 0 || back != seq)
			break;
		rtt[n++] = (double)(time_now_ns() - t0) / 1000.0;
	}
	c->pings = n;
	link_rtt_figures(rtt, n, c);
	free(rtt);
}

void link_rtt_figures(double *rtt, int n, struct link_connect_result *c)
{
	int k = n;

	if (n <= 0)
		return;
	qsort(rtt, (size_t)n, sizeof(*rtt), cmp_double);
	c->rtt_min_us = rtt[0];
	c->rtt_max_us = rtt[n - 1];
	/* a ping or its echo that was lost came back only after TCP's retransmit timeout (200 ms
	 * at least past the fastest): that is not a round trip, and on a lossy link it made the
	 * p99 — and every timeout derived from it — a retransmit timeout */
	while (k > 1 && rtt[k - 1] >= rtt[0] + TCP_RTO_MIN_US)
		k--;
	c->rtt_p50_us = link_percentile(rtt, k, 50);
	c->rtt_p99_us = link_percentile(rtt, k, 99);
}

/* One probe connect that ended: refused mid-probe is not an answer we trust; a completed one
 * that needed a retransmit counts (TCP_INFO: the kernel's figure, not our timing). */
static void probe_settle(int fd, struct link_connect_result *c)
{
	struct tcp_info ti;
	socklen_t tl = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (net_connect_result(fd) != 0)
		c->unanswered++;
	else if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &tl) == 0 && ti.tcpi_total_retrans > 0)
		c->retrans++;
	link_close_rst(fd);
}

void link_probe_wait(struct pollfd *p, int n, int64_t deadline_ms, struct link_connect_result *c)
{
	int left = 0;

	for (int i = 0; i < n; i++)
		left += p[i].fd >= 0;
	/* one poll always runs after the deadline: a process starved past it still finds the
	 * connects that completed in time, which are answered whenever we look */
	while (left) {
		int late = time_now_ms() >= deadline_ms;

		if (net_poll(p, (size_t)n, deadline_ms) > 0)
			for (int i = 0; i < n; i++) {
				if (p[i].fd < 0 || !p[i].revents)
					continue;
				probe_settle(p[i].fd, c);
				p[i].fd = -1;
				left--;
			}
		if (late)
			break;
	}
	for (int i = 0; i < n; i++)
		if (p[i].fd >= 0) {
			close(p[i].fd);
			p[i].fd = -1;
			c->unanswered++;
		}
}

/*
 * The loss probe's connects: as many as asked, but no more than the target's listeners queue
 * less OTHER_CONNECTS: an overflowing accept queue drops handshakes that TCP then retransmits,
 * and the target's own limit would read as loss on the link.
 */
static int probe_count(const struct link_req *req, const struct link_ready *ready)
{
	int room = ready->accepts - OTHER_CONNECTS;

	if (ready->accepts <= 0 || req->probes <= room)
		return req->probes;
	return room > 8 ? room : 8;
}

/*
 * The loss probe: `n` connects at once to an open port. A connect whose SYN or SYN-ACK was lost
 * completes only after the kernel's 1 s retransmit, which TCP_INFO counts — a figure the kernel
 * keeps, so a starved process does not fake loss. The wait ends past that first retransmit
 * (what is still under way then, lost twice or replies this side's firewall drops, is
 * `unanswered`; link_handshake_share reads the share without it). Costs one round trip on a clean
 * link, ~1.5 s when something was lost (waiting out the second retransmit cost 3.5 s a pair).
 */
#define LOSS_PROBE_WAIT_MS 1500
static void loss_probe(const struct link_req *req, uint16_t port, int n,
		       struct link_connect_result *c)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct pollfd *p = xcalloc((size_t)n, sizeof(*p));
	int done;
	int64_t deadline = time_now_ms() + LOSS_PROBE_WAIT_MS + (int64_t)(4 * c->rtt_p99_us / 1000);

	if (net_sockaddr(req->addr, port, &ss, &len, NULL) < 0) {
		free(p);
		return;
	}
	net_sockaddr_set_port(&ss, port);
	for (int i = 0; i < n; i++) {
		struct net_connect_opts o = LINK_CONNECT_OPTS(req->src, req->ifname);
		int err_no = 0, fd = net_connect_start((struct sockaddr *)&ss, len, &o, &err_no, NULL);

		p[i] = (struct pollfd){ .fd = -1 };
		if (fd < 0)
			continue;
		c->probes++;
		if (!err_no) {
			link_close_rst(fd);
			continue;
		}
		p[i] = (struct pollfd){ .fd = fd, .events = POLLOUT };
	}
	link_probe_wait(p, n, deadline, c);
	free(p);
	/* loss from the connects that completed (link_handshake_share): what is still under way
	 * is not counted either way — a source port in a filtered range is no loss */
	done = c->probes - c->unanswered;
	c->loss_pct = done > 0 ? link_loss_from_share(link_handshake_share(c->retrans, done)) : -1;
}

struct try_job {
	const struct link_req *req;
	uint16_t port;
	struct link_port_try t;
	int fd;
	pthread_t th;
};

static void *try_main(void *arg)
{
	struct try_job *j = arg;
	int64_t t0 = time_now_ns();
	struct err le = ERR_INIT;

	j->fd = link_connect_to(j->req->addr, j->port, j->req->src, j->req->ifname,
				j->req->timeout_ms, &j->t.status, &j->t.err, &le);
	j->t.port = j->port;
	j->t.connect_us = (int)((time_now_ns() - t0) / 1000);
	if (j->fd < 0 && le.code != ERR_NONE && j->t.status == LINK_ERROR && !j->t.err)
		j->t.err = EINVAL;
	return NULL;
}

int link_connect_client(const struct link_req *req, const struct link_ready *ready,
			struct link_result *res, struct err *e)
{
	struct link_connect_result *c = &res->c;
	struct try_job jobs[LINK_CONNECT_PORTS_MAX];
	int first = -1;

	if (ready->nports < 1 || ready->nports > LINK_CONNECT_PORTS_MAX)
		return err_set(e, ERR_PEER, "the target opened no port to connect to");
	/* every port at once: a port a filter drops costs its timeout once, not once per port */
	for (int i = 0; i < ready->nports; i++) {
		jobs[i] = (struct try_job){ .req = req, .port = ready->ports[i], .fd = -1 };
		if (pthread_create(&jobs[i].th, NULL, try_main, &jobs[i]) != 0) {
			try_main(&jobs[i]);
			jobs[i].th = 0;
		}
	}
	c->ntries = 0;
	for (int i = 0; i < ready->nports; i++) {
		if (jobs[i].th)
			pthread_join(jobs[i].th, NULL);
		c->tries[c->ntries++] = jobs[i].t;
		if (jobs[i].fd < 0)
			continue;
		if (first < 0) {
			first = jobs[i].fd;
			c->open_port = jobs[i].port;
		} else {
			close(jobs[i].fd);
		}
	}
	c->status = c->tries[0].status;
	if (first >= 0) {
		c->status = LINK_OK;
		pings(first, req, c);
		close(first);
		if (req->probes > 0)
			loss_probe(req, c->open_port, probe_count(req, ready), c);
	}
	return 0;
}
