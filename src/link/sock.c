/*
 * What the link tests add to net/sock: their status of a connect, numeric addresses only, the
 * interface towards a peer. The sockets themselves are net/sock's. See link_int.h.
 */
#include "link/link_int.h"

#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
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

	return addr && *addr && strlen(addr) < LINK_ADDR_LEN &&
	       net_sockaddr(addr, 0, &ss, &len, NULL) == 0;
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
	struct net_connect_opts o = LINK_CONNECT_OPTS(src, ifname);
	struct sockaddr_storage ss;
	struct err ce = ERR_INIT;
	enum net_fail why;
	socklen_t len;
	int fd;

	*st = LINK_ERROR;
	*err_out = 0;
	if (strlen(addr) >= LINK_ADDR_LEN || net_sockaddr(addr, port, &ss, &len, e) < 0)
		return err_set(e, ERR_USAGE, "'%s' is not a numeric address", addr);
	fd = net_connect_sa((struct sockaddr *)&ss, len, &o, time_now_ms() + timeout_ms, &why, &ce);
	if (fd >= 0) {
		*st = LINK_OK;
		return fd;
	}
	*err_out = errno;
	if (why == NET_LOCAL)
		*e = ce;	/* this side could not even try: the only failure `e` carries */
	else
		*st = link_status_from_errno(*err_out);
	return -1;
}

int link_listen(const char *addr, uint16_t port, int backlog, uint16_t *bound, struct err *e)
{
	/* SO_REUSEADDR: ports in TIME_WAIT from earlier tests must still be usable */
	int fd = net_listen_flags(addr, port, backlog, NET_FULL_MSS | NET_QUIET_TAKEN, NULL, e);

	if (fd >= 0 && bound)
		*bound = (uint16_t)net_local_port(fd);
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
	struct sockaddr_storage local;
	struct ifaddrs *ifa = NULL;
	int found = 0;

	if (net_route_source(addr, src, &local, e) < 0)
		return -1;
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
