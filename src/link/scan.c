/*
 * The port-range scan, exact and fast. The target listens on every port of a batch (so "nothing
 * listens" can never be mistaken for "rejected"); the peer fires non-blocking connects at all of
 * them with a sliding window, and each port is open (handshake done), rejected (RST or ICMP port
 * unreachable) or dropped (no answer within timeout_ms). Dropped ports that sit alone among
 * answered ones are looked at again with a timeout past the kernel's 1 s SYN retry (by link_run
 * once over every batch of a range, when there are several), at least
 * req->looks times and for as long as a look finds answers, so lost SYNs do not make a port
 * "dropped": under loss q a port survives k looks with probability q^2k, a filtered one always. Open connections are closed with an RST, leaving no
 * TIME_WAIT on either side, so a 28,232-port range can be scanned again at once.
 */
#include "link/link_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

#define RETRY_RUN_MAX 8		/* drops in a run this short among answers are looked at again */
#define FD_MARGIN 64		/* fds kept free for everything else in the process */

struct scan_server {
	struct link_server base;
	int *fds;
	size_t nfds;
};

static void scan_stop(struct link_server *b, int wait_ms)
{
	struct scan_server *s = (struct scan_server *)b;

	(void)wait_ms;
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	free(s->fds);
	free(s);
}

/* The ports of a (batch) request, ascending. */
static uint16_t *req_ports(const struct link_req *req, size_t *n)
{
	uint16_t *p;

	if (req->nlist) {
		uint8_t seen[65536 / 8] = { 0 };

		p = xcalloc((size_t)req->nlist, sizeof(*p));
		*n = 0;
		for (int i = 0; i < req->nlist; i++)
			seen[req->list[i] / 8] |= (uint8_t)(1u << (req->list[i] % 8));
		for (long q = 1; q < 65536; q++)
			if (seen[q / 8] & (1u << (q % 8)))
				p[(*n)++] = (uint16_t)q;
		return p;
	}
	*n = (size_t)(req->hi - req->lo) + 1;
	p = xcalloc(*n, sizeof(*p));
	for (size_t i = 0; i < *n; i++)
		p[i] = (uint16_t)(req->lo + i);
	return p;
}

struct link_server *link_scan_server(const struct link_req *req, struct link_ready *ready,
				     struct err *e)
{
	struct scan_server *s;
	size_t n;
	uint16_t *ports = req_ports(req, &n);
	int batch = req->batch ? req->batch : LINK_SCAN_BATCH_DEFAULT;
	long lim = link_raise_nofile(e);

	if (lim < 0) {
		free(ports);
		return NULL;
	}
	if (n > (size_t)batch) {
		err_set(e, ERR_USAGE, "a scan batch of %zu ports is over the batch of %d (split the "
			"range)", n, batch);
		free(ports);
		return NULL;
	}
	/* batch to fit: only as many listeners as fds are left; the ports past them are neither
	 * listening nor in use, and the driver asks for them in the next batch */
	lim -= FD_MARGIN + link_open_fds();
	if (lim < 1) {
		err_set(e, ERR_SYS, "no file descriptors left for scan listeners (RLIMIT_NOFILE)");
		free(ports);
		return NULL;
	}
	if ((long)n > lim)
		n = (size_t)lim;
	s = xcalloc(1, sizeof(*s));
	s->base.kind = LINK_SCAN;
	s->base.stop = scan_stop;
	s->fds = xcalloc(n, sizeof(*s->fds));
	ready->listening = xcalloc(n, sizeof(*ready->listening));
	ready->in_use = xcalloc(n, sizeof(*ready->in_use));
	for (size_t i = 0; i < n; i++) {
		struct err le = ERR_INIT;
		int fd = link_listen(req->addr, ports[i], 4, NULL, &le);

		if (fd >= 0) {
			s->fds[s->nfds++] = fd;
			ready->listening[ready->nlistening++] = ports[i];
		} else if (errno == EADDRINUSE || errno == EACCES) {
			ready->in_use[ready->nin_use++] = ports[i];
		} else {
			*e = le;
			free(ports);
			scan_stop(&s->base, 0);
			link_ready_release(ready);
			return NULL;
		}
	}
	free(ports);
	return &s->base;
}

static enum link_port_state state_of(int err)
{
	switch (link_status_from_errno(err)) {
	case LINK_OK:
		return LINK_PORT_OPEN;
	case LINK_REFUSED:
		return LINK_PORT_REJECTED;
	case LINK_TIMEOUT:
		return LINK_PORT_DROPPED;
	case LINK_NOROUTE:
	case LINK_HOSTUNREACH:
		return LINK_PORT_UNREACH;
	default:
		return LINK_PORT_ERROR;
	}
}

struct slot {
	int fd;
	uint16_t port;
	unsigned gen;
	int64_t t0;
};

struct probe {
	const struct link_req *req;
	struct sockaddr_storage ss;
	socklen_t len;
	uint8_t *state;
	int ep;
	struct slot *slots;
	int *free_slots, nfree;
	struct { int slot; unsigned gen; } *q;	/* FIFO in start order = expiry order */
	size_t qhead, qtail, qcap;
	int active;
	int late_ms;			/* the most epoll_wait overslept: this process starved */
	int good_port;			/* a source port whose replies came back (an open port's) */
	int src_port;			/* bind the connects to this source port, 0 = the kernel's */
};

/* The source port of an open connection: replies to it pass this side's own firewall. */
static void note_good_port(struct probe *p, int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (p->good_port || getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return;
	p->good_port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
						 : ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void finish(struct probe *p, int i, enum link_port_state st)
{
	struct slot *s = &p->slots[i];

	p->state[s->port] = (uint8_t)st;
	if (st == LINK_PORT_OPEN)
		note_good_port(p, s->fd);
	if (st == LINK_PORT_OPEN)
		link_close_rst(s->fd);
	else
		close(s->fd);
	s->fd = -1;
	s->gen++;
	p->free_slots[p->nfree++] = i;
	p->active--;
}

/* Starts one connect; the port's state is set at once when the kernel answers synchronously. */
static int start(struct probe *p, uint16_t port, int64_t now, struct err *e)
{
	struct net_connect_opts o = LINK_CONNECT_OPTS(p->req->src, p->req->ifname);
	struct sockaddr_storage ss = p->ss;
	struct epoll_event ev;
	int fd, err_no, i;

	o.src_port = p->src_port;
	net_sockaddr_set_port(&ss, port);
	fd = net_connect_start((struct sockaddr *)&ss, p->len, &o, &err_no, o.src_port ? NULL : e);
	if (fd < 0 && !err_no && o.src_port) {
		/* the good source port is taken this instant (another test's connect drew it):
		 * the kernel's pick for this one */
		o.src_port = 0;
		fd = net_connect_start((struct sockaddr *)&ss, p->len, &o, &err_no, e);
	}
	if (fd < 0 && !err_no)
		return -1;
	if (fd < 0) {
		p->state[port] = (uint8_t)state_of(err_no);
		return 0;
	}
	if (!err_no) {
		p->state[port] = LINK_PORT_OPEN;
		note_good_port(p, fd);
		link_close_rst(fd);
		return 0;
	}
	i = p->free_slots[--p->nfree];
	p->slots[i] = (struct slot){ .fd = fd, .port = port, .gen = p->slots[i].gen, .t0 = now };
	ev.events = EPOLLOUT;
	ev.data.u64 = (uint64_t)i;
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		p->free_slots[p->nfree++] = i;
		return err_sys(e, "epoll_ctl");
	}
	p->q[p->qtail % p->qcap].slot = i;
	p->q[p->qtail % p->qcap].gen = p->slots[i].gen;
	p->qtail++;
	p->active++;
	return 0;
}

/* One pass over `ports` with `timeout_ms`: every port gets a state. */
static int pass(struct probe *p, const uint16_t *ports, size_t n, int window, int timeout_ms,
		struct err *e)
{
	struct epoll_event evs[512];
	size_t next = 0;

	p->qhead = p->qtail = 0;
	p->nfree = 0;
	for (int i = window - 1; i >= 0; i--)
		p->free_slots[p->nfree++] = i;
	p->active = 0;
	while (next < n || p->active) {
		int64_t now = time_now_ms(), wait;
		int ne;

		while (p->active < window && next < n)
			if (start(p, ports[next++], now, e) < 0)
				goto fail;
		if (!p->active)
			continue;
		/* after the connects just started: their time is work, not lateness */
		now = time_now_ms();
		/* the oldest live connect expires first */
		while (p->qhead < p->qtail &&
		       p->slots[p->q[p->qhead % p->qcap].slot].gen != p->q[p->qhead % p->qcap].gen)
			p->qhead++;
		wait = p->qhead < p->qtail
			? p->slots[p->q[p->qhead % p->qcap].slot].t0 + timeout_ms - now : 0;
		ne = epoll_wait(p->ep, evs, (int)ARRAY_SIZE(evs), wait < 0 ? 0 : (int)wait);
		/* returning later than asked is this process not being run (answers ready make
		 * it return at once): the scan's timing then measured the scheduler */
		if (time_now_ms() - now - (wait < 0 ? 0 : wait) > p->late_ms)
			p->late_ms = (int)(time_now_ms() - now - (wait < 0 ? 0 : wait));
		if (ne < 0 && errno != EINTR) {
			err_sys(e, "epoll_wait");
			goto fail;
		}
		for (int k = 0; k < ne; k++) {
			int i = (int)evs[k].data.u64, soerr = 0;
			socklen_t sl = sizeof(soerr);

			if (p->slots[i].fd < 0)
				continue;
			if (getsockopt(p->slots[i].fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
				soerr = errno;
			finish(p, i, state_of(soerr));
		}
		/* answers still queued in epoll are answers: read them all before anything expires
		 * (after a stall of this process, thousands wait there, and expiring first turned
		 * every port past the first 512 of a batch into a "dropped" run) */
		if (ne == (int)ARRAY_SIZE(evs))
			continue;
		now = time_now_ms();
		while (p->qhead < p->qtail) {
			int i = p->q[p->qhead % p->qcap].slot;

			if (p->slots[i].gen != p->q[p->qhead % p->qcap].gen) {
				p->qhead++;
				continue;
			}
			if (p->slots[i].t0 + timeout_ms > now)
				break;
			/* its answer may wait behind the events just read (a loaded host): look first */
			if (net_wait_fd(p->slots[i].fd, POLLOUT, 0, NULL) == 1)
				finish(p, i, state_of(net_connect_result(p->slots[i].fd)));
			else
				finish(p, i, LINK_PORT_DROPPED);
			p->qhead++;
		}
	}
	return 0;
fail:
	for (int i = 0; i < window; i++)
		if (p->slots[i].fd >= 0) {
			close(p->slots[i].fd);
			p->slots[i].fd = -1;
		}
	return -1;
}

/* Dropped ports in short runs next to answered ones: probably a lost SYN, look again. */
static size_t isolated_drops(const uint8_t *state, const uint16_t *ports, size_t n, uint16_t *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		int left, right;

		if (state[ports[i]] != LINK_PORT_DROPPED) {
			i++;
			continue;
		}
		while (j < n && state[ports[j]] == LINK_PORT_DROPPED)
			j++;
		left = i > 0;
		right = j < n;
		if (j - i <= RETRY_RUN_MAX && (left || right))
			for (size_t k = i; k < j; k++)
				out[m++] = ports[k];
		i = j;
	}
	return m;
}

/* Every dropped port of `ports`. */
static size_t all_drops(const uint8_t *state, const uint16_t *ports, size_t n, uint16_t *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (state[ports[i]] == LINK_PORT_DROPPED)
			out[m++] = ports[i];
	return m;
}

size_t link_scan_isolated_drops(const struct link_req *req, const uint8_t *state, uint16_t *out)
{
	size_t n, m;
	uint16_t *ports = req_ports(req, &n);

	m = isolated_drops(state, ports, n, out);
	free(ports);
	return m;
}

static int port_in_req(const struct link_req *req, uint16_t port)
{
	if (!req->nlist)
		return port >= req->lo && port <= req->hi;
	for (int i = 0; i < req->nlist; i++)
		if (req->list[i] == port)
			return 1;
	return 0;
}

int link_scan_client(const struct link_req *req, const struct link_ready *ready,
		     struct link_result *res, struct err *e)
{
	struct probe p = { .req = req };
	struct link_scan_result *s = &res->s;
	size_t n = ready->nlistening, nr;
	int window = req->window ? req->window : (int)n, rc = -1;
	int64_t t0 = time_now_ms();
	long lim = link_raise_nofile(e);
	uint16_t *again;

	if (lim < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!port_in_req(req, ready->listening[i]) ||
		    (i && ready->listening[i] <= ready->listening[i - 1]))
			return err_set(e, ERR_PEER, "the target listens on ports it was not asked for");
	if (window > (int)n)
		window = (int)n;
	lim -= FD_MARGIN + link_open_fds();	/* the target may live in this process too */
	if (window > lim)
		window = (int)lim;
	if (window < 1)
		window = 1;
	if (!s->state)
		s->state = xcalloc(65536, 1);
	for (size_t i = 0; i < ready->nin_use; i++)
		if (port_in_req(req, ready->in_use[i]))
			s->state[ready->in_use[i]] = LINK_PORT_IN_USE;
	s->batches++;
	if (!n) {
		s->elapsed_ms += time_now_ms() - t0;
		return 0;
	}
	if (net_sockaddr(req->addr, 0, &p.ss, &p.len, e) < 0)
		return -1;
	p.state = s->state;
	/* a source port the caller knows replies come back to: from the first pass on */
	p.good_port = p.src_port = req->src_port;
	p.ep = epoll_create1(EPOLL_CLOEXEC);
	if (p.ep < 0)
		return err_sys(e, "epoll_create1");
	p.slots = xcalloc((size_t)window, sizeof(*p.slots));
	for (int i = 0; i < window; i++)
		p.slots[i].fd = -1;
	p.free_slots = xcalloc((size_t)window, sizeof(*p.free_slots));
	/* every started port queues once per pass: n entries never wrap */
	p.qcap = n + 1;
	p.q = xcalloc(p.qcap, sizeof(*p.q));
	if (pass(&p, ready->listening, n, window, req->timeout_ms, e) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		s->first_drops += s->state[ready->listening[i]] == LINK_PORT_DROPPED;
	/* looks again at isolated drops, spread in time: at least req->looks, and more while a
	 * look still finds answers (loss thins out with every look, a filter never answers).
	 * From a source port whose replies came back: a firewall on THIS side that drops part of
	 * its own ephemeral range drops the replies to connects that drew a source port there,
	 * and that must not read as the target filtering the port asked for. */
	p.src_port = p.good_port;
	again = xcalloc(n, sizeof(*again));
	for (int look = 0; look < LINK_LOOKS_MAX && !req->first_only; look++) {
		int w, answered = 0;

		nr = req->look_all ? all_drops(s->state, ready->listening, n, again)
				   : isolated_drops(s->state, ready->listening, n, again);
		if (!nr)
			break;
		w = (int)nr < window ? (int)nr : window;
		s->retried += (int)nr;
		p.qcap = nr + 1;
		free(p.q);
		p.q = xcalloc(p.qcap, sizeof(*p.q));
		if (pass(&p, again, nr, w,
			 req->retry_ms ? req->retry_ms : LINK_SCAN_RETRY_TIMEOUT_MS, e) < 0) {
			free(again);
			goto out;
		}
		for (size_t k = 0; k < nr; k++)
			answered += s->state[again[k]] == LINK_PORT_OPEN ||
				    s->state[again[k]] == LINK_PORT_REJECTED;
		s->flaky += answered;
		if (look + 1 > s->looks)
			s->looks = look + 1;
		if (look + 1 >= (req->looks ? req->looks : 1) && !answered)
			break;
	}
	free(again);
	rc = 0;
out:
	s->elapsed_ms += time_now_ms() - t0;
	s->timeout_ms = req->timeout_ms;
	s->retry_ms = req->retry_ms ? req->retry_ms : LINK_SCAN_RETRY_TIMEOUT_MS;
	if (!s->src_port)
		s->src_port = p.good_port;
	if (p.late_ms > s->late_ms)
		s->late_ms = p.late_ms;
	close(p.ep);
	free(p.slots);
	free(p.free_slots);
	free(p.q);
	return rc;
}

void link_scan_finish(const struct link_req *req, struct link_result *res)
{
	struct link_scan_result *s = &res->s;
	long lo, hi;
	size_t cap = 16;

	if (!s->state)
		s->state = xcalloc(65536, 1);
	if (req->nlist) {
		lo = 65535;
		hi = 1;
		for (int i = 0; i < req->nlist; i++) {
			lo = req->list[i] < lo ? req->list[i] : lo;
			hi = req->list[i] > hi ? req->list[i] : hi;
		}
	} else {
		lo = req->lo;
		hi = req->hi;
	}
	s->lo = (uint16_t)lo;
	s->hi = (uint16_t)hi;
	memset(s->counts, 0, sizeof(s->counts));
	free(s->iv);
	free(s->in_use);
	s->iv = xcalloc(cap, sizeof(*s->iv));
	s->niv = 0;
	s->in_use = xcalloc((size_t)(hi - lo) + 1, sizeof(*s->in_use));
	s->nin_use = 0;
	for (long p = lo; p <= hi; p++) {
		enum link_port_state st = (enum link_port_state)s->state[p];
		struct link_interval *last = s->niv ? &s->iv[s->niv - 1] : NULL;

		s->counts[st]++;
		if (st == LINK_PORT_UNTESTED)
			continue;
		if (st == LINK_PORT_IN_USE) {
			s->in_use[s->nin_use++] = (uint16_t)p;
			continue;
		}
		/* extend the last run when only in-use ports lie between it and p */
		if (last && last->state == st) {
			long q = last->hi + 1;

			while (q < p && s->state[q] == LINK_PORT_IN_USE)
				q++;
			if (q == p) {
				last->hi = (uint16_t)p;
				continue;
			}
		}
		if (s->niv == cap) {
			cap *= 2;
			s->iv = xrealloc(s->iv, cap * sizeof(*s->iv));
		}
		s->iv[s->niv++] = (struct link_interval){ (uint16_t)p, (uint16_t)p, st };
	}
	s->counts[LINK_PORT_UNTESTED] = 0;
	s->in_use = xrealloc(s->in_use, (s->nin_use + 1) * sizeof(*s->in_use));
}

uint8_t *link_scan_states(const struct link_scan_result *s)
{
	uint8_t *st = xcalloc(65536, 1);

	for (size_t i = 0; i < s->niv; i++)
		for (long p = s->iv[i].lo; p <= s->iv[i].hi; p++)
			st[p] = (uint8_t)s->iv[i].state;
	for (size_t i = 0; i < s->nin_use; i++)
		st[s->in_use[i]] = LINK_PORT_IN_USE;
	return st;
}

void link_scan_add(struct link_scan_result *into, const struct link_scan_result *part)
{
	if (!into->src_port)
		into->src_port = part->src_port;
	into->retried += part->retried;
	into->first_drops += part->first_drops;
	into->looks = into->looks > part->looks ? into->looks : part->looks;
	into->late_ms = into->late_ms > part->late_ms ? into->late_ms : part->late_ms;
}

void link_scan_merge(const struct link_req *req, struct link_result *into,
		     const struct link_result *again)
{
	uint8_t *b = again->s.state ? again->s.state : link_scan_states(&again->s), *a;

	if (!into->s.state)
		into->s.state = link_scan_states(&into->s);
	a = into->s.state;
	for (long p = into->s.lo; p <= into->s.hi; p++)
		if (a[p] == LINK_PORT_DROPPED && (b[p] == LINK_PORT_OPEN ||
						  b[p] == LINK_PORT_REJECTED)) {
			a[p] = b[p];
			into->s.flaky++;
		}
	link_scan_add(&into->s, &again->s);
	into->s.elapsed_ms += again->s.elapsed_ms;
	link_scan_finish(req, into);
	if (b != again->s.state)
		free(b);
}

int link_scan_split(const struct link_req *req, int batch, struct link_req *out, int max)
{
	int n = 0;

	if (batch < 1)
		batch = LINK_SCAN_BATCH_DEFAULT;
	if (req->nlist) {
		for (int i = 0; i < req->nlist && n < max; i += batch, n++) {
			out[n] = *req;
			out[n].nlist = req->nlist - i < batch ? req->nlist - i : batch;
			memmove(out[n].list, req->list + i, (size_t)out[n].nlist * sizeof(*req->list));
		}
		return n;
	}
	for (long lo = req->lo; lo <= req->hi && n < max; lo += batch, n++) {
		long hi = lo + batch - 1 > req->hi ? req->hi : lo + batch - 1;

		out[n] = *req;
		out[n].lo = (uint16_t)lo;
		out[n].hi = (uint16_t)hi;
	}
	return n;
}
