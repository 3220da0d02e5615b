/*
 * Path MTU with DF. The target runs a UDP echo responder that answers every datagram with a
 * small receipt (sequence number and the size that arrived), so only the forward path is
 * measured. The peer sends DF datagrams with IP_PMTUDISC_PROBE (the kernel's cached path MTU
 * neither blocks nor fragments them) and IP_RECVERR (an ICMP "fragmentation needed" lands on
 * the error queue with the MTU it names), and binary-searches the largest IP packet that gets
 * through, up to the interface MTU. A size that vanishes while no ICMP came back is the black
 * hole: TCP over that path stalls on the first full-size segment. A smaller hop that sends its
 * ICMP is only a smaller MTU: the kernel adapts.
 */
#include "link/link_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

#define MTU_MAGIC 0x6e636d74u	/* "ncmt" */
#define COPIES 3		/* datagrams per probe: one lost copy is not a verdict */

struct receipt {
	uint32_t magic, seq, len;
};

struct mtu_server {
	struct link_server base;
	int fd;
	int stop[2];
	pthread_t thr;
	int started;
};

static void *echo_main(void *arg)
{
	struct mtu_server *s = arg;
	char *buf = xmalloc(65536);

	for (;;) {
		struct pollfd p[2] = { { .fd = s->stop[0], .events = POLLIN },
				       { .fd = s->fd, .events = POLLIN } };
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		struct receipt r;
		ssize_t n;

		if (net_poll(p, 2, -1) < 0)
			break;
		if (p[0].revents)
			break;
		n = recvfrom(s->fd, buf, 65536, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		if (n < (ssize_t)sizeof(r))
			continue;
		memcpy(&r, buf, sizeof(r));
		if (r.magic != MTU_MAGIC)
			continue;	/* not ours: no reply, so the port is no amplifier */
		r.len = (uint32_t)n;
		sendto(s->fd, &r, sizeof(r), MSG_DONTWAIT, (struct sockaddr *)&from, fl);
	}
	free(buf);
	return NULL;
}

static void mtu_stop(struct link_server *b, int wait_ms)
{
	struct mtu_server *s = (struct mtu_server *)b;
	char c = 1;

	(void)wait_ms;
	if (s->started) {
		if (write(s->stop[1], &c, 1) < 0) {
			/* one byte into an empty pipe: cannot fail in practice */
		}
		pthread_join(s->thr, NULL);
	}
	if (s->fd >= 0)
		close(s->fd);
	close(s->stop[0]);
	close(s->stop[1]);
	free(s);
}

struct link_server *link_mtu_server(const struct link_req *req, struct link_ready *ready,
				    struct err *e)
{
	struct mtu_server *s = xcalloc(1, sizeof(*s));

	s->base.kind = LINK_MTU;
	s->base.stop = mtu_stop;
	s->fd = -1;
	if (pipe2(s->stop, O_CLOEXEC) < 0) {
		err_sys(e, "pipe");
		free(s);
		return NULL;
	}
	/* the port the connect test found open, when given: a firewall that filters by port
	 * (UDP too) then cannot pass for a small MTU; taken by now: any */
	s->fd = req->nports ? net_udp_bind(req->addr, req->ports[0], NULL) : -1;
	if (s->fd < 0)
		s->fd = net_udp_bind(req->addr, 0, e);
	if (s->fd < 0)
		goto fail;
	ready->ports[0] = (uint16_t)net_local_port(s->fd);
	ready->nports = 1;
	if (pthread_create(&s->thr, NULL, echo_main, s)) {
		err_set(e, ERR_SYS, "cannot start the UDP echo thread");
		goto fail;
	}
	s->started = 1;
	return &s->base;
fail:
	mtu_stop(&s->base, 0);
	return NULL;
}

struct prober {
	int fd, v6, hdr;
	uint32_t seq;
	char *buf;
	int wait_ms;
	int icmp_mtu;
	int probes;
};

/* Drains the error queue; remembers an ICMP "fragmentation needed" / "packet too big". */
static void drain_errors(struct prober *p)
{
	for (int k = 0; k < 64; k++) {
		char cbuf[512], dummy[64];
		struct iovec iov = { dummy, sizeof(dummy) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				    .msg_controllen = sizeof(cbuf) };

		if (recvmsg(p->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			struct sock_extended_err ee;

			if (!((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)))
				continue;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			if ((ee.ee_origin == SO_EE_ORIGIN_ICMP && ee.ee_type == 3 &&
			     ee.ee_code == 4) ||
			    (ee.ee_origin == SO_EE_ORIGIN_ICMP6 && ee.ee_type == 2))
				if (ee.ee_info >= 68 && (!p->icmp_mtu || (int)ee.ee_info < p->icmp_mtu))
					p->icmp_mtu = (int)ee.ee_info;
		}
	}
}

/* 1: a packet of `size` bytes (IP header included) got through; 0: it did not. */
static int probe(struct prober *p, int size, int64_t *rtt_ms)
{
	int64_t t0 = time_now_ms(), deadline = t0 + p->wait_ms;
	uint32_t seq = ++p->seq;
	size_t payload = (size_t)(size - p->hdr);
	struct receipt r = { MTU_MAGIC, seq, 0 };

	p->probes++;
	memcpy(p->buf, &r, sizeof(r));
	for (int c = 0; c < COPIES; c++)
		if (send(p->fd, p->buf, payload, MSG_DONTWAIT) < 0 && errno != EAGAIN)
			drain_errors(p);	/* EMSGSIZE and ICMP errors surface here too */
	for (;;) {
		struct pollfd pf = { .fd = p->fd, .events = POLLIN };
		int64_t left = deadline - time_now_ms();
		struct receipt back;

		if (left <= 0)
			return 0;
		if (net_poll(&pf, 1, deadline) <= 0)
			continue;
		if (pf.revents & POLLERR)
			drain_errors(p);
		if (!(pf.revents & POLLIN))
			continue;
		if (recv(p->fd, &back, sizeof(back), MSG_DONTWAIT) == (ssize_t)sizeof(back) &&
		    back.magic == MTU_MAGIC && back.seq == seq && back.len == payload) {
			*rtt_ms = time_now_ms() - t0;
			return 1;
		}
	}
}

int link_mtu_client(const struct link_req *req, const struct link_ready *ready,
		    struct link_result *res, struct err *e)
{
	struct link_mtu_result *m = &res->m;
	struct net_connect_opts o = LINK_CONNECT_OPTS(req->src, req->ifname);
	struct sockaddr_storage ss;
	socklen_t len;
	struct prober p = { .fd = -1 };
	int lo, hi, top, rc = -1;
	int64_t t0 = time_now_ms(), rtt = 0;

	if (ready->nports < 1 || !ready->ports[0])
		return err_set(e, ERR_PEER, "the target opened no UDP echo port");
	if (net_sockaddr(req->addr, ready->ports[0], &ss, &len, e) < 0 ||
	    (p.fd = net_udp_connect(req->addr, ready->ports[0], &o, 1, e)) < 0)
		return -1;
	p.v6 = ss.ss_family == AF_INET6;
	p.hdr = p.v6 ? 48 : 28;
	top = req->max_mtu;
	if (!top) {
		char ifn[LINK_IFNAME_LEN];

		if (req->ifname[0])
			top = link_if_mtu(req->ifname);
		else if (link_route_ifname(req->addr, req->src, ifn, sizeof(ifn), &top, NULL) < 0)
			top = -1;
	}
	if (top < 0) {
		err_set(e, ERR_SYS, "cannot read the MTU of the interface towards %s", req->addr);
		goto out;
	}
	if (top > 65507 + p.hdr)
		top = 65507 + p.hdr;	/* the largest UDP datagram */
	m->if_mtu = top;
	p.buf = xcalloc(1, (size_t)top);
	p.wait_ms = req->timeout_ms;
	lo = req->min_mtu > top ? top : req->min_mtu;
	hi = top;
	if (probe(&p, top, &rtt)) {
		m->path_mtu = top;
		rc = 0;
		goto out;
	}
	if (!probe(&p, lo, &rtt)) {
		/* nothing gets through: not an MTU question (the connect test says why) */
		m->path_mtu = 0;
		rc = 0;
		goto out;
	}
	/* answers now have a round-trip time: wait a generous multiple of it, not the default */
	if (20 * rtt + 30 < p.wait_ms)
		p.wait_ms = (int)(20 * rtt + 30);
	/* the full size once more with that wait: a slow or lossy path may have lost the first
	 * answer, and a size that passes twice over is no black hole */
	if (probe(&p, top, &rtt)) {
		m->path_mtu = top;
		rc = 0;
		goto out;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (p.icmp_mtu > lo && p.icmp_mtu < hi)
			mid = p.icmp_mtu;	/* the hop told us: check it first */
		if (probe(&p, mid, &rtt))
			lo = mid;
		else
			hi = mid;
	}
	m->path_mtu = lo;
	rc = 0;
out:
	if (rc == 0) {
		drain_errors(&p);
		m->icmp_mtu = p.icmp_mtu;
		m->blackhole = m->path_mtu && m->path_mtu < m->if_mtu && !p.icmp_mtu;
	}
	m->probes = p.probes;
	m->wait_ms = p.wait_ms;
	m->elapsed_ms = (long)(time_now_ms() - t0);
	free(p.buf);
	if (p.fd >= 0)
		close(p.fd);
	return rc;
}
