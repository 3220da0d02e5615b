/* net/sock: see sock.h. */
#include "net/sock.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/file.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static const char *const fail_names[] = {
	[NET_OK] = "ok", [NET_REFUSED] = "refused", [NET_TIMEOUT] = "timeout",
	[NET_NOROUTE] = "no-route", [NET_UNREACH] = "unreachable", [NET_RESOLVE] = "resolve",
	[NET_LOCAL] = "local", [NET_OTHER] = "other",
};

const char *net_fail_name(enum net_fail f)
{
	return (unsigned)f < sizeof(fail_names) / sizeof(fail_names[0]) ? fail_names[f] : "other";
}

int net_fail_parse(const char *s, enum net_fail *out)
{
	for (unsigned i = 0; i < sizeof(fail_names) / sizeof(fail_names[0]); i++)
		if (s && !strcmp(s, fail_names[i])) {
			*out = (enum net_fail)i;
			return 0;
		}
	return -1;
}

int net_poll(struct pollfd *p, size_t n, int64_t deadline_ms)
{
	for (;;) {
		int64_t left = deadline_ms < 0 ? -1 : deadline_ms - time_now_ms();
		int rc;

		if (deadline_ms >= 0 && left < 0)
			left = 0;
		rc = poll(p, (nfds_t)n, left > 3600000 ? 3600000 : (int)left);
		if (rc > 0)
			return rc;
		if (rc == 0 && left == 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

int net_wait_fd(int fd, short events, int64_t deadline_ms, short *revents)
{
	struct pollfd p = { .fd = fd, .events = events };
	int rc = net_poll(&p, 1, deadline_ms);

	if (rc > 0 && revents)
		*revents = p.revents;
	return rc > 0 ? 1 : rc;
}

static enum net_fail classify(int err)
{
	switch (err) {
	case ECONNREFUSED: case ECONNRESET: return NET_REFUSED;
	case ETIMEDOUT: return NET_TIMEOUT;
	case EHOSTUNREACH: case EHOSTDOWN: return NET_NOROUTE;
	case ENETUNREACH: case ENETDOWN: return NET_UNREACH;
	case EACCES: case EPERM: case EADDRNOTAVAIL: case EADDRINUSE: return NET_LOCAL;
	default: return NET_OTHER;
	}
}

static void fmt_addr(const struct sockaddr *sa, char *buf, size_t len, int with_port)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2] = "?", serv[16] = "0";
	struct sockaddr_in v4;

	/* a dual-stack listener sees IPv4 peers as ::ffff:a.b.c.d: name them as people know them */
	if (sa->sa_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((const struct sockaddr_in6 *)sa)->sin6_addr)) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;

		memset(&v4, 0, sizeof(v4));
		v4.sin_family = AF_INET;
		v4.sin_port = s6->sin6_port;
		memcpy(&v4.sin_addr, s6->sin6_addr.s6_addr + 12, 4);
		sa = (const struct sockaddr *)&v4;
	}

	getnameinfo(sa, sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						    : sizeof(struct sockaddr_in),
		    host, sizeof(host), serv, sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV);
	if (!with_port)
		snprintf(buf, len, "%s", host);
	else if (sa->sa_family == AF_INET6)
		snprintf(buf, len, "[%s]:%s", host, serv);
	else
		snprintf(buf, len, "%s:%s", host, serv);
}

/*
 * The control channel's segments stay small: a path MTU black hole (a hop narrower than the
 * interfaces, ICMP filtered) would otherwise swallow the first full-size frame, and the checker
 * itself would stall in the fault it is there to find. 1200 bytes fit IPv6's minimum MTU with
 * headers; the link tests use their own sockets and measure the real path.
 */
#define NET_CONTROL_MSS 1200

static void clamp_mss(int fd)
{
	int mss = NET_CONTROL_MSS;

	setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss));
}

static void tune(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int net_sockaddr(const char *addr, int port, struct sockaddr_storage *ss, socklen_t *len,
		 struct err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	char serv[16];

	if (!addr || !*addr || strlen(addr) >= INET6_ADDRSTRLEN + IF_NAMESIZE + 1 || port < 0 ||
	    port > 65535)
		return err_set(e, ERR_USAGE, "'%s' is not a numeric address", addr ? addr : "");
	snprintf(serv, sizeof(serv), "%d", port);
	if (getaddrinfo(addr, serv, &hints, &ai) || !ai)
		return err_set(e, ERR_USAGE, "'%s' is not a numeric address", addr);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

void net_sockaddr_set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
	else if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
}

int net_socket(int family, int type, int nonblock, struct err *e)
{
	int fd = socket(family, type | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);

	if (fd < 0)
		return err_sys(e, "socket");
	return fd;
}

/* How errors name an address: "10.0.0.1:80", "[fe80::1]:80", a Unix path ("@": abstract). */
static void sa_name(const struct sockaddr *sa, socklen_t len, char *buf, size_t n)
{
	if (sa->sa_family == AF_UNIX) {
		const struct sockaddr_un *su = (const struct sockaddr_un *)sa;
		size_t pl = len > offsetof(struct sockaddr_un, sun_path)
			? len - offsetof(struct sockaddr_un, sun_path) : 0;

		if (pl && !su->sun_path[0])
			snprintf(buf, n, "@%.*s", (int)(pl - 1), su->sun_path + 1);
		else
			snprintf(buf, n, "%.*s", (int)strnlen(su->sun_path, pl), su->sun_path);
		return;
	}
	fmt_addr(sa, buf, n, 1);
}

int net_bind_source(int fd, int family, const struct net_connect_opts *o, struct err *e)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (!o)
		return 0;
	if (o->src_ifname && *o->src_ifname &&
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, o->src_ifname,
		       (socklen_t)strlen(o->src_ifname) + 1) < 0 &&
	    !(errno == EPERM && (o->flags & NET_SOFT_IFNAME)))
		return err_sys(e, "cannot bind to interface '%s'", o->src_ifname);
	if ((!o->src_addr || !*o->src_addr) && o->src_port) {
		int one = 1;

		memset(&ss, 0, sizeof(ss));
		ss.ss_family = (sa_family_t)family;
		len = family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
		net_sockaddr_set_port(&ss, o->src_port);
		if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
		    bind(fd, (struct sockaddr *)&ss, len) < 0)
			return err_sys(e, "cannot bind to source port %d", o->src_port);
		return 0;
	}
	if (!o->src_addr || !*o->src_addr)
		return 0;
	if (net_sockaddr(o->src_addr, o->src_port, &ss, &len, NULL) < 0)
		return err_set(e, ERR_USAGE, "source address '%s' is not a numeric address",
			       o->src_addr);
	if (o->src_port) {
		int one = 1;

		if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
			return err_sys(e, "SO_REUSEADDR");
	}
	if (ss.ss_family != family)
		return err_set(e, ERR_USAGE, "source address '%s' is not of the target's family",
			       o->src_addr);
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		return err_sys(e, "cannot bind to source address '%s'", o->src_addr);
	return 0;
}

int net_connect_start(const struct sockaddr *sa, socklen_t len, const struct net_connect_opts *o,
		      int *err_no, struct err *e)
{
	int tcp = sa->sa_family == AF_INET || sa->sa_family == AF_INET6;
	int fd;

	*err_no = 0;
	fd = net_socket(sa->sa_family, SOCK_STREAM, 1, e);
	if (fd < 0)
		return -1;
	if (tcp && !(o && (o->flags & NET_FULL_MSS)))
		clamp_mss(fd);
	if (tcp && net_bind_source(fd, sa->sa_family, o, e) < 0) {
		close(fd);
		return -1;
	}
	if (connect(fd, sa, len) == 0) {
		if (tcp)
			tune(fd);
		return fd;
	}
	/* (a Unix socket whose backlog is full answers EAGAIN: not under way, a failure) */
	if (errno == EINPROGRESS) {
		*err_no = EINPROGRESS;
		return fd;
	}
	*err_no = errno ? errno : EIO;
	close(fd);
	return -1;
}

int net_connect_result(int fd)
{
	int soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		soerr = errno;
	if (!soerr) {
		struct sockaddr_storage ss;

		sl = sizeof(ss);
		if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
		    (ss.ss_family == AF_INET || ss.ss_family == AF_INET6))
			tune(fd);
	}
	return soerr;
}

int net_connect_sa(const struct sockaddr *sa, socklen_t len, const struct net_connect_opts *o,
		   int64_t deadline_ms, enum net_fail *why, struct err *e)
{
	char what[INET6_ADDRSTRLEN + IF_NAMESIZE + sizeof(((struct sockaddr_un *)0)->sun_path) + 16];
	enum net_fail dummy;
	int fd, err_no = 0;

	if (!why)
		why = &dummy;
	sa_name(sa, len, what, sizeof(what));
	fd = net_connect_start(sa, len, o, &err_no, e);
	if (fd < 0 && !err_no) {
		*why = NET_LOCAL;	/* errno: the local call's */
		return -1;
	}
	if (fd < 0) {
		*why = classify(err_no);
		errno = err_no;
		err_sys(e, "cannot connect to '%s'", what);
		errno = err_no;
		return -1;
	}
	if (!err_no)
		goto ok;
	switch (net_wait_fd(fd, POLLOUT, deadline_ms, NULL)) {
	case 0:
		*why = NET_TIMEOUT;
		err_set(e, ERR_TIMEOUT, "cannot connect to '%s': no answer before the deadline", what);
		close(fd);
		errno = ETIMEDOUT;
		return -1;
	case -1:
		err_no = errno;
		*why = NET_OTHER;
		err_sys(e, "cannot wait for '%s'", what);
		close(fd);
		errno = err_no;
		return -1;
	}
	err_no = net_connect_result(fd);
	if (err_no) {
		*why = classify(err_no);
		err_set(e, *why == NET_TIMEOUT ? ERR_TIMEOUT : ERR_SYS, "cannot connect to '%s': %s",
			what, err_errno_text(err_no));
		close(fd);
		errno = err_no;
		return -1;
	}
ok:
	*why = NET_OK;
	return fd;
}

int net_connect(const char *host, int port, const struct net_connect_opts *o, int64_t deadline_ms,
		enum net_fail *why, struct err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG };
	struct addrinfo *res = NULL;
	enum net_fail dummy;
	char serv[16];
	int rc, fd = -1, err_no = 0;

	if (!why)
		why = &dummy;
	*why = NET_OTHER;
	if (!host || !*host || port <= 0 || port > 65535) {
		*why = NET_LOCAL;
		errno = 0;
		return err_set(e, ERR_USAGE, "bad address '%s' port %d", host ? host : "", port);
	}
	hints.ai_family = o ? o->family : AF_UNSPEC;
	snprintf(serv, sizeof(serv), "%d", port);
	rc = getaddrinfo(host, serv, &hints, &res);
	if (rc == EAI_NONAME || rc == EAI_NODATA || rc == EAI_ADDRFAMILY) {
		/* AI_ADDRCONFIG hides literal addresses of a family with no configured address */
		hints.ai_flags = 0;
		rc = getaddrinfo(host, serv, &hints, &res);
	}
	if (rc) {
		*why = NET_RESOLVE;
		err_set(e, ERR_NOTFOUND, "cannot resolve '%s': %s", host,
			rc == EAI_SYSTEM ? err_errno_text(errno) : err_gai_text(rc));
		errno = 0;
		return -1;
	}
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		fd = net_connect_sa(ai->ai_addr, ai->ai_addrlen, o, deadline_ms, why, e);
		err_no = errno;
		if (fd >= 0 || time_now_ms() >= deadline_ms)
			break;
	}
	freeaddrinfo(res);
	if (fd >= 0)
		err_clear(e);
	errno = fd >= 0 ? 0 : err_no;
	return fd;
}

int net_udp_connect(const char *addr, int port, const struct net_connect_opts *o, int df,
		    struct err *e)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int fd, saved, one = 1;

	if (net_sockaddr(addr, port, &ss, &len, e) < 0)
		return -1;
	fd = net_socket(ss.ss_family, SOCK_DGRAM, 1, e);
	if (fd < 0)
		return -1;
	if (net_bind_source(fd, ss.ss_family, o, e) < 0)
		goto fail;
	if (df) {
		int v6 = ss.ss_family == AF_INET6;
		int mode = v6 ? IPV6_PMTUDISC_PROBE : IP_PMTUDISC_PROBE;

		if (setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
			       v6 ? IPV6_MTU_DISCOVER : IP_MTU_DISCOVER, &mode, sizeof(mode)) < 0 ||
		    setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_RECVERR : IP_RECVERR,
			       &one, sizeof(one)) < 0) {
			err_sys(e, "cannot set DF probing on a UDP socket");
			goto fail;
		}
	}
	if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
		err_sys(e, "cannot reach %s", addr);
		goto fail;
	}
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int net_udp_bind(const char *addr, int port, struct err *e)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int fd, saved;

	if (net_sockaddr(addr, port, &ss, &len, e) < 0)
		return -1;
	fd = net_socket(ss.ss_family, SOCK_DGRAM, 1, e);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&ss, len) < 0) {
		saved = errno;
		err_sys(e, "cannot bind a UDP socket to %s", addr);
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int net_route_source(const char *addr, const char *src, struct sockaddr_storage *local,
		     struct err *e)
{
	struct net_connect_opts o = { .src_addr = src };
	socklen_t ll = sizeof(*local);
	int fd = net_udp_connect(addr, 9, &o, 0, e);

	if (fd < 0)
		return -1;
	if (getsockname(fd, (struct sockaddr *)local, &ll) < 0) {
		err_sys(e, "no route to %s", addr);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int net_tcp_acks(int fd, unsigned *unacked, unsigned *since_ack_ms)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_last_ack_recv) + sizeof(ti.tcpi_last_ack_recv))
		return -1;
	*unacked = ti.tcpi_unacked;
	*since_ack_ms = ti.tcpi_last_ack_recv;
	return 0;
}

int net_route_source_name(const char *host, char *buf, size_t len, struct err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *res = NULL;
	struct sockaddr_storage local;
	char num[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	int rc = getaddrinfo(host, NULL, &hints, &res);

	if (rc != 0 || !res)
		return err_set(e, ERR_USAGE, "cannot resolve '%s': %s", host,
			       rc ? err_gai_text(rc) : N_("no address"));
	fmt_addr(res->ai_addr, num, sizeof(num), 0);
	freeaddrinfo(res);
	if (net_route_source(num, NULL, &local, e) < 0)
		return -1;
	fmt_addr((struct sockaddr *)&local, buf, len, 0);
	return 0;
}

int net_listen(const char *addr, int port, int backlog, const char *proc_root, struct err *e)
{
	return net_listen_flags(addr, port, backlog, 0, proc_root, e);
}

int net_listen_flags(const char *addr, int port, int backlog, unsigned flags, const char *proc_root,
		     struct err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res = NULL, *ai;
	char serv[16];
	int rc, fd = -1, one = 1, zero = 0, saved = 0;

	if (port < 0 || port > 65535)
		return err_set(e, ERR_USAGE, "bad port %d", port);
	snprintf(serv, sizeof(serv), "%d", port);
	if (!addr || !*addr) {
		/* one dual-stack socket where IPv6 exists, else IPv4: try "::" then "0.0.0.0" */
		struct err le = ERR_INIT;

		fd = net_listen_flags("::", port, backlog, flags, proc_root, &le);
		if (fd >= 0)
			return fd;
		if (errno == EADDRINUSE) {
			err_set(e, le.code, "%s", le.msg);
			errno = EADDRINUSE;
			return -1;
		}
		return net_listen_flags("0.0.0.0", port, backlog, flags, proc_root, e);
	}
	rc = getaddrinfo(addr, serv, &hints, &res);
	if (rc) {
		err_set(e, ERR_NOTFOUND, "cannot listen on '%s': %s", addr,
			rc == EAI_SYSTEM ? err_errno_text(errno) : err_gai_text(rc));
		errno = EADDRNOTAVAIL;
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			saved = errno;
			err_sys(e, "cannot create a socket to listen on '%s'", addr);
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!(flags & NET_FULL_MSS))
			clamp_mss(fd);	/* accepted sockets inherit it */
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, backlog > 0 ? backlog : 128) == 0)
			break;
		saved = errno;
		if (errno == EADDRINUSE && (flags & NET_QUIET_TAKEN)) {
			err_sys(e, "cannot listen on '%s' port %d", addr, port);
		} else if (errno == EADDRINUSE) {
			char who[128];

			if (net_port_holder(proc_root, port, who, sizeof(who)) == 0)
				err_set(e, ERR_SYS, "port %d on '%s' is taken by %s", port, addr, who);
			else
				err_set(e, ERR_SYS, "port %d on '%s' is taken (by a process this user "
					"cannot see, or one in another state than LISTEN)", port, addr);
		} else {
			err_sys(e, "cannot listen on '%s' port %d", addr, port);
		}
		close(fd);
		fd = -1;
		if (saved == EADDRINUSE)
			break;
	}
	freeaddrinfo(res);
	if (fd >= 0)
		err_clear(e);
	errno = fd >= 0 ? 0 : saved;
	return fd;
}

int net_accept(int lfd, int64_t deadline_ms, char *peer, size_t peerlen, struct err *e)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			tune(fd);
			if (peer && peerlen)
				fmt_addr((struct sockaddr *)&ss, peer, peerlen, 1);
			return fd;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return err_sys(e, "cannot accept a connection");
		switch (net_wait_fd(lfd, POLLIN, deadline_ms, NULL)) {
		case 0: return err_set(e, ERR_TIMEOUT, "no connection came before the deadline");
		case -1: return err_sys(e, "cannot wait for a connection");
		}
	}
}

int net_read_full(int fd, void *buf, size_t n, int64_t deadline_ms, struct err *e)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		/* MSG_DONTWAIT: the deadline holds on blocking sockets too */
		ssize_t r = recv(fd, p + got, n - got, MSG_DONTWAIT);

		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		if (r == 0)
			return err_set(e, ERR_PEER, "the peer closed the connection after %zu of %zu "
				       "bytes", got, n);
		if (errno == EINTR)
			continue;
		if (errno == ECONNRESET)
			return err_set(e, ERR_PEER, "the peer reset the connection");
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return err_sys(e, "cannot read from the peer");
		switch (net_wait_fd(fd, POLLIN, deadline_ms, NULL)) {
		case 0: return err_set(e, ERR_TIMEOUT, "the peer sent %zu of %zu bytes before the "
				       "deadline", got, n);
		case -1: return err_sys(e, "cannot wait for the peer");
		}
	}
	return 0;
}

long net_read_some(int fd, void *buf, size_t cap, int64_t deadline_ms, struct err *e)
{
	for (;;) {
		ssize_t r = recv(fd, buf, cap, MSG_DONTWAIT);

		if (r >= 0)
			return (long)r;
		if (errno == EINTR)
			continue;
		if (errno == ECONNRESET)
			return err_set(e, ERR_PEER, "the peer reset the connection");
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return err_sys(e, "cannot read from the peer");
		switch (net_wait_fd(fd, POLLIN, deadline_ms, NULL)) {
		case 0: return err_set(e, ERR_TIMEOUT, "the peer sent nothing before the deadline");
		case -1: return err_sys(e, "cannot wait for the peer");
		}
	}
}

int net_write_full(int fd, const void *buf, size_t n, int64_t deadline_ms, struct err *e)
{
	const char *p = buf;
	size_t put = 0;

	while (put < n) {
		ssize_t w = send(fd, p + put, n - put, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (w >= 0) {
			put += (size_t)w;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EPIPE || errno == ECONNRESET)
			return err_set(e, ERR_PEER, "the peer closed the connection");
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return err_sys(e, "cannot write to the peer");
		switch (net_wait_fd(fd, POLLOUT, deadline_ms, NULL)) {
		case 0: return err_set(e, ERR_TIMEOUT, "the peer took %zu of %zu bytes before the "
				       "deadline", put, n);
		case -1: return err_sys(e, "cannot wait for the peer");
		}
	}
	return 0;
}

int net_local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -1;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return -1;
}

/* The peer's (getpeername) or our own (getsockname) address of fd, as text; "?" when none. */
static int sock_name(int fd, int (*get)(int, struct sockaddr *, socklen_t *), char *buf,
		     size_t len, int with_port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (get(fd, (struct sockaddr *)&ss, &sl) < 0) {
		snprintf(buf, len, "?");
		return -1;
	}
	fmt_addr((struct sockaddr *)&ss, buf, len, with_port);
	return 0;
}

int net_peer_name(int fd, char *buf, size_t len, int with_port)
{
	return sock_name(fd, getpeername, buf, len, with_port);
}

int net_local_name(int fd, char *buf, size_t len, int with_port)
{
	return sock_name(fd, getsockname, buf, len, with_port);
}

/* The inode of a LISTEN (st 0A) socket on `port` in one /proc/net/tcp* table, or 0. */
static unsigned long listen_inode(const char *path, int port)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	unsigned long found = 0;
	char *line, *save = NULL;

	if (file_read(path, &sb, 16 << 20, &e) < 0)
		return 0;
	line = strtok_r(sb.buf, "\n", &save);	/* the header */
	while (line && (line = strtok_r(NULL, "\n", &save))) {
		char local[64], remote[64];
		unsigned st, lport;
		unsigned long inode;
		char *colon;

		/* sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*s %63s %63s %x %*s %*s %*s %*u %*u %lu", local, remote, &st,
			   &inode) != 4)
			continue;
		colon = strrchr(local, ':');
		if (!colon || sscanf(colon + 1, "%x", &lport) != 1)
			continue;
		if (st == 0x0A && (int)lport == port && inode) {
			found = inode;
			break;
		}
	}
	strbuf_release(&sb);
	return found;
}

int net_port_holder(const char *proc_root, int port, char *buf, size_t len)
{
	/* the probes' convention: "/" means the real /proc, anything else stands for /proc itself */
	const char *root = proc_root && *proc_root && strcmp(proc_root, "/") ? proc_root : "/proc";
	char *p4 = xasprintf("%s/net/tcp", root), *p6 = xasprintf("%s/net/tcp6", root);
	unsigned long inode = listen_inode(p4, port);
	char want[64];
	DIR *d;
	struct dirent *de;
	int rc = -1;

	if (!inode)
		inode = listen_inode(p6, port);
	free(p4);
	free(p6);
	if (!inode)
		return -1;
	snprintf(want, sizeof(want), "socket:[%lu]", inode);
	snprintf(buf, len, "socket inode %lu (its process is not visible to this user)", inode);
	rc = 0;
	d = opendir(root);
	while (d && (de = readdir(d))) {
		char *fddir, *end;
		DIR *fdd;
		struct dirent *fe;
		long pid = strtol(de->d_name, &end, 10);
		int hit = 0;

		if (*end || pid <= 0)
			continue;
		fddir = xasprintf("%s/%ld/fd", root, pid);
		fdd = opendir(fddir);
		while (fdd && !hit && (fe = readdir(fdd))) {
			char link[80], *lp = xasprintf("%s/%s", fddir, fe->d_name);
			ssize_t n = readlink(lp, link, sizeof(link) - 1);

			free(lp);
			if (n > 0) {
				link[n] = '\0';
				hit = !strcmp(link, want);
			}
		}
		if (fdd)
			closedir(fdd);
		free(fddir);
		if (hit) {
			struct strbuf comm = STRBUF_INIT;
			struct err e = ERR_INIT;
			char *cp = xasprintf("%s/%ld/comm", root, pid);

			if (file_read(cp, &comm, 256, &e) == 0)
				strbuf_trim(&comm);
			snprintf(buf, len, "pid %ld (%s)", pid, comm.len ? comm.buf : "?");
			strbuf_release(&comm);
			free(cp);
			break;
		}
	}
	if (d)
		closedir(d);
	return rc;
}

static int parse_hostport(const char *s, char *host, size_t hostlen, int *port, long min_port)
{
	const char *colon, *h = s;
	size_t hl;
	char *end;
	long p;

	if (!s || !*s)
		return -1;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':')
			return -1;
		h = s + 1;
		hl = (size_t)(rb - h);
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)
			return -1;
		hl = (size_t)(colon - s);
	}
	if (!hl || hl >= hostlen)
		return -1;
	errno = 0;
	p = strtol(colon + 1, &end, 10);
	if (errno || *end || end == colon + 1 || p < min_port || p > 65535)
		return -1;
	memcpy(host, h, hl);
	host[hl] = '\0';
	*port = (int)p;
	return 0;
}

int net_parse_hostport(const char *s, char *host, size_t hostlen, int *port)
{
	return parse_hostport(s, host, hostlen, port, 1);
}

int net_parse_listen_hostport(const char *s, char *host, size_t hostlen, int *port)
{
	return parse_hostport(s, host, hostlen, port, 0);
}
