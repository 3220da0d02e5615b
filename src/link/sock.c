/*
 * Socket helpers of the link tests: numeric addresses only, explicit deadlines, source binding.
 * See link_int.h.
 */
#include "link/link_int.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/timeutil.h"

int link_addr_valid(const char *addr)
{
	struct sockaddr_storage ss;
	socklen_t len;

	return addr && *addr && link_sockaddr(addr, 0, &ss, &len, NULL) == 0;
}

int link_sockaddr(const char *addr, uint16_t port, struct sockaddr_storage *ss, socklen_t *len,
		  struct err *e)
{
	struct addrinfo hints, *ai = NULL;
	char portbuf[8];
	int rc;

	if (!addr || !*addr || strlen(addr) >= LINK_ADDR_LEN)
		return err_set(e, ERR_USAGE, "'%s' is not a numeric address", addr ? addr : "");
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	snprintf(portbuf, sizeof(portbuf), "%u", (unsigned)port);
	rc = getaddrinfo(addr, portbuf, &hints, &ai);
	if (rc || !ai)
		return err_set(e, ERR_USAGE, "'%s' is not a numeric address", addr);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

int link_socket(const struct sockaddr_storage *ss, int type, int nonblock, struct err *e)
{
	int fd = socket(ss->ss_family, type | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);

	if (fd < 0)
		return err_sys(e, "socket");
	return fd;
}

int link_bind_source(int fd, int family, const char *src, const char *ifname, struct err *e)
{
	if (ifname && *ifname &&
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname)) < 0 &&
	    errno != EPERM)
		/* without CAP_NET_RAW the source address alone picks the path: routes decide */
		return err_sys(e, "cannot bind to interface '%s'", ifname);
	if (src && *src) {
		struct sockaddr_storage ss;
		socklen_t len;

		if (link_sockaddr(src, 0, &ss, &len, e) < 0)
			return -1;
		if (ss.ss_family != family)
			return err_set(e, ERR_USAGE, "source '%s' is not of the target's family", src);
		if (bind(fd, (struct sockaddr *)&ss, len) < 0)
			return err_sys(e, "cannot bind to source address '%s'", src);
	}
	return 0;
}

int link_poll(int fd, short events, int64_t deadline_ms)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int64_t left = deadline_ms - time_now_ms();
		int rc;

		if (left < 0)
			left = 0;
		rc = poll(&p, 1, (int)left);
		if (rc > 0)
			return 1;
		if (rc == 0)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

enum link_status link_status_from_errno(int err)
{
	switch (err) {
	case 0:
		return LINK_OK;
	case ECONNREFUSED:
		return LINK_REFUSED;
	case ETIMEDOUT:
		return LINK_TIMEOUT;
	case ENETUNREACH:
		return LINK_NOROUTE;
	case EHOSTUNREACH:
	case EHOSTDOWN:
	case EACCES:	/* ICMP "administratively prohibited" */
		return LINK_HOSTUNREACH;
	default:
		return LINK_ERROR;
	}
}

int link_connect_to(const char *addr, uint16_t port, const char *src, const char *ifname,
		    int timeout_ms, enum link_status *st, int *err_out, struct err *e)
{
	struct sockaddr_storage ss;
	socklen_t len, olen;
	int fd, soerr = 0, one = 1;

	*st = LINK_ERROR;
	*err_out = 0;
	if (link_sockaddr(addr, port, &ss, &len, e) < 0)
		return -1;
	fd = link_socket(&ss, SOCK_STREAM, 1, e);
	if (fd < 0)
		return -1;
	if (link_bind_source(fd, ss.ss_family, src, ifname, e) < 0) {
		*err_out = errno;
		close(fd);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
		if (errno != EINPROGRESS) {
			*err_out = errno;
			*st = link_status_from_errno(errno);
			close(fd);
			return -1;
		}
		switch (link_poll(fd, POLLOUT, time_now_ms() + timeout_ms)) {
		case 0:
			*err_out = ETIMEDOUT;
			*st = LINK_TIMEOUT;
			close(fd);
			return -1;
		case -1:
			*err_out = errno;
			close(fd);
			return -1;
		}
		olen = sizeof(soerr);
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &olen) < 0)
			soerr = errno;
		if (soerr) {
			*err_out = soerr;
			*st = link_status_from_errno(soerr);
			close(fd);
			return -1;
		}
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*st = LINK_OK;
	return fd;
}

int link_listen(const char *addr, uint16_t port, int backlog, uint16_t *bound, struct err *e)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1, saved;

	if (link_sockaddr(addr, port, &ss, &len, e) < 0)
		return -1;
	fd = link_socket(&ss, SOCK_STREAM, 1, e);
	if (fd < 0)
		return -1;
	/* ports in TIME_WAIT from earlier tests must still be usable */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, backlog) < 0) {
		saved = errno;
		if (port)
			err_sys(e, "cannot listen on %s port %u", addr, (unsigned)port);
		else
			err_sys(e, "cannot listen on %s", addr);
		close(fd);
		errno = saved;
		return -1;
	}
	if (bound) {
		len = sizeof(ss);
		getsockname(fd, (struct sockaddr *)&ss, &len);
		*bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
							: ((struct sockaddr_in *)&ss)->sin_port);
	}
	return fd;
}

void link_close_rst(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

long link_raise_nofile(struct err *e)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return err_sys(e, "getrlimit(RLIMIT_NOFILE)");
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			return err_sys(e, "setrlimit(RLIMIT_NOFILE)");
	}
	return rl.rlim_cur > 1L << 30 ? 1L << 30 : (long)rl.rlim_cur;
}

double link_percentile(const double *sorted, int n, double pct)
{
	int i;

	if (n <= 0)
		return 0;
	i = (int)(pct / 100.0 * n + 0.999999) - 1;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	return sorted[i];
}

int link_if_mtu(const char *ifname)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), mtu = -1;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s, SIOCGIFMTU, &ifr) == 0)
		mtu = ifr.ifr_mtu;
	close(s);
	return mtu;
}

static int same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a->sa_family != b->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
}

int link_route_ifname(const char *addr, const char *src, char *ifname, size_t len, int *mtu,
		      struct err *e)
{
	struct sockaddr_storage ss, local;
	socklen_t sl, ll = sizeof(local);
	struct ifaddrs *ifa = NULL;
	int fd, found = 0;

	if (link_sockaddr(addr, 9, &ss, &sl, e) < 0)
		return -1;
	fd = link_socket(&ss, SOCK_DGRAM, 0, e);
	if (fd < 0)
		return -1;
	/* a connected UDP socket sends nothing: it only asks the routing table */
	if (link_bind_source(fd, ss.ss_family, src, NULL, e) < 0 ||
	    connect(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    getsockname(fd, (struct sockaddr *)&local, &ll) < 0) {
		if (e && e->code == ERR_NONE)
			err_sys(e, "no route to %s", addr);
		close(fd);
		return -1;
	}
	close(fd);
	if (getifaddrs(&ifa) < 0)
		return err_sys(e, "getifaddrs");
	for (struct ifaddrs *i = ifa; i && !found; i = i->ifa_next)
		if (i->ifa_addr && same_addr(i->ifa_addr, &local)) {
			snprintf(ifname, len, "%s", i->ifa_name);
			found = 1;
		}
	freeifaddrs(ifa);
	if (!found)
		return err_set(e, ERR_NOTFOUND, "no interface holds the source address towards %s",
			       addr);
	if (mtu)
		*mtu = link_if_mtu(ifname);
	return 0;
}

long link_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;

	if (!d)
		return 64;	/* no /proc: assume a few */
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}
