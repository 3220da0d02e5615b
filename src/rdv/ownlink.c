/*
 * When a peer goes silent, the first suspect is this node's own link: a node can see its own
 * interface go down and its route vanish, and the others cannot. So before blaming a peer, a
 * node looks at the interface that carries the connection (its local address) and at the route
 * to the peer. A node whose own link is gone says so by name, and the peer is not blamed.
 */
#include "rdv/rdv_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/sock.h"

static int same_ip(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return 0;
}

static void ip_text(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *a = sa->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
						  : (const void *)&((const struct sockaddr_in *)sa)->sin_addr;

	if (!inet_ntop(sa->sa_family, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

/* "down", "up", ... from sysfs, or "" when it cannot be read */
static void operstate(const char *ifname, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", ifname);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* 1 when the route from `ip` to `peer` is gone (net/sock asks the table; nothing is sent). */
static int no_route(const char *ip, const char *peer)
{
	struct sockaddr_storage out;
	struct err e = ERR_INIT;

	if (net_route_source(peer, ip, &out, &e) == 0)
		return 0;
	return errno == ENETUNREACH || errno == EHOSTUNREACH;
}

/* A dual-stack socket names IPv4 ends ::ffff:a.b.c.d: back to AF_INET, as interfaces list them. */
static void unmap(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	if (ss->ss_family != AF_INET6)
		return;
	memcpy(&s6, ss, sizeof(s6));
	if (!IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
		return;
	memset(ss, 0, sizeof(*ss));
	s4->sin_family = AF_INET;
	s4->sin_port = s6.sin6_port;
	memcpy(&s4->sin_addr, s6.sin6_addr.s6_addr + 12, 4);
}

int rdv_own_link_down(int fd, char *buf, size_t len)
{
	struct sockaddr_storage la, pa;
	socklen_t ll = sizeof(la), pl = sizeof(pa);
	struct ifaddrs *ifa, *i;
	char ip[INET6_ADDRSTRLEN], peer[INET6_ADDRSTRLEN], st[32];
	const char *ifname = NULL;
	unsigned flags = 0;
	int down = 0;

	if (fd < 0 || getsockname(fd, (struct sockaddr *)&la, &ll) < 0 ||
	    getpeername(fd, (struct sockaddr *)&pa, &pl) < 0 ||
	    (la.ss_family != AF_INET && la.ss_family != AF_INET6))
		return 0;
	unmap(&la);
	unmap(&pa);
	ip_text((struct sockaddr *)&la, ip, sizeof(ip));
	ip_text((struct sockaddr *)&pa, peer, sizeof(peer));
	if (getifaddrs(&ifa) < 0)
		return 0;
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && same_ip(i->ifa_addr, (struct sockaddr *)&la)) {
			ifname = i->ifa_name;
			flags = i->ifa_flags;
			break;
		}
	if (!ifname) {
		snprintf(buf, len, "my address %s is gone from every interface of this node", ip);
		down = 1;
	} else if (!(flags & IFF_LOOPBACK)) {
		operstate(ifname, st, sizeof(st));
		if (!(flags & IFF_UP))
			snprintf(buf, len, "my %s went down (it is set down: ip link set %s up; it "
				 "carries %s)", ifname, ifname, ip), down = 1;
		else if (!strcmp(st, "down") || !strcmp(st, "lowerlayerdown") ||
			 !(flags & IFF_RUNNING))
			snprintf(buf, len, "my %s went down (no carrier, operstate %s; it carries %s)",
				 ifname, st[0] ? st : "?", ip), down = 1;
		else if (no_route(ip, peer))
			snprintf(buf, len, "this node has no route from %s (%s) to %s any more "
				 "(ip route get %s)", ip, ifname, peer, peer), down = 1;
	}
	freeifaddrs(ifa);
	return down;
}
