/*
 * Link ceilings: what an interface can carry, read from sysfs or from a socket; see ceiling.h.
 * The reasons a link has no known ceiling stay English (the JSON, the peers' wire); they are N_()
 * so that bench prints them in the reader's language.
 */
#include "link/ceiling.h"

#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "util/i18n.h"
#include "util/xalloc.h"


static long read_long(const char *path, long def)
{
	char buf[64];
	FILE *f = fopen(path, "re");
	char *end;
	long v;

	if (!f)
		return def;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);	/* EINVAL on read: a link that is down or has no speed */
		return def;
	}
	fclose(f);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return def;
	return v;
}

int ceiling_read(const char *sysfs, const char *ifname, int ipv6, struct link_ceiling *c,
		 struct err *e)
{
	char path[512];
	struct stat st;
	long speed, mtu;

	if (!ifname || !*ifname || strchr(ifname, '/') || strlen(ifname) > 15)
		return err_set(e, ERR_USAGE, "'%s' is not an interface name", ifname ? ifname : "");
	snprintf(path, sizeof(path), "%s/%s", sysfs, ifname);
	if (stat(path, &st) < 0)
		return err_set(e, ERR_NOTFOUND, "no interface '%s'", ifname);
	snprintf(path, sizeof(path), "%s/%s/speed", sysfs, ifname);
	speed = read_long(path, -1);
	snprintf(path, sizeof(path), "%s/%s/mtu", sysfs, ifname);
	mtu = read_long(path, 1500);
	snprintf(path, sizeof(path), "%s/%s/device", sysfs, ifname);
	ceiling_compute((double)speed, stat(path, &st) < 0, (int)mtu, ipv6, c);
	return 0;
}

/* ---- a collective's links (bench) ---- */

void ceiling_link_of_ifname(const char *sysfs, const char *ifname, int ipv6, int rank,
			    const char *host, struct ceiling_link *l)
{
	struct err e = ERR_INIT;

	memset(l, 0, sizeof(*l));
	l->rank = rank;
	snprintf(l->host, sizeof(l->host), "%s", host ? host : "");
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname ? ifname : "");
	if (ceiling_read(sysfs, ifname, ipv6, &l->c, &e) < 0) {
		snprintf(l->why, sizeof(l->why), "%.159s", e.msg);
		return;
	}
	if (l->c.ceiling_gbps <= 0)
		snprintf(l->why, sizeof(l->why), N_("%s has no line rate in sysfs (%s/%s/speed: "
			 "loopback, a virtual or a down link)"), l->ifname, sysfs, l->ifname);
	else if (l->c.nominal)
		snprintf(l->why, sizeof(l->why), N_("%s is a software link: its %.0f Mbit/s is "
			 "nominal, and a tc cap does not show in sysfs"), l->ifname,
			 l->c.line_gbps * 1000);
	else
		l->known = 1;
}

static int addr_match(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a->sa_family != b->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return a->sa_family == AF_INET6 &&
	       !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
}

void ceiling_link_of_socket(const char *sysfs, int fd, int rank, const char *host,
			    struct ceiling_link *l)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa = NULL;
	char name[16] = "";

	memset(l, 0, sizeof(*l));
	l->rank = rank;
	snprintf(l->host, sizeof(l->host), "%s", host ? host : "");
	if (fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
		snprintf(l->why, sizeof(l->why), "%s", N_("no connection to a peer to follow"));
		return;
	}
	if (ss.ss_family == AF_INET6) {
		/* a v4-mapped address is the IPv4 interface's */
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
			struct sockaddr_in s4 = {.sin_family = AF_INET};
			memcpy(&s4.sin_addr, s6->sin6_addr.s6_addr + 12, 4);
			memset(&ss, 0, sizeof(ss));
			memcpy(&ss, &s4, sizeof(s4));
		}
	}
	if (getifaddrs(&ifa) == 0) {
		for (struct ifaddrs *i = ifa; i && !name[0]; i = i->ifa_next)
			if (i->ifa_addr && addr_match(i->ifa_addr, &ss))
				snprintf(name, sizeof(name), "%s", i->ifa_name);
		freeifaddrs(ifa);
	}
	if (!name[0]) {
		snprintf(l->why, sizeof(l->why), "%s",
			 N_("no interface holds the connection's local address"));
		return;
	}
	ceiling_link_of_ifname(sysfs, name, ss.ss_family == AF_INET6, rank, host, l);
}

void ceiling_link_to_wire(const struct ceiling_link *l, struct ceiling_wire *w)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->host, sizeof(w->host), "%s", l->host);
	snprintf(w->ifname, sizeof(w->ifname), "%s", l->ifname);
	snprintf(w->why, sizeof(w->why), "%s", l->why);
	w->rank = l->rank;
	w->known = l->known;
	w->nominal = l->c.nominal;
	w->ipv6 = l->c.ipv6;
	w->speed_mbps = l->c.line_gbps > 0 ? (int32_t)(l->c.line_gbps * 1000 + 0.5) : -1;
	w->mtu = l->c.mtu;
}

static int terminated(const char *s, size_t len)
{
	return memchr(s, 0, len) != NULL;
}

void ceiling_link_from_wire(const struct ceiling_wire *w, struct ceiling_link *l)
{
	memset(l, 0, sizeof(*l));
	l->rank = w->rank;
	if (!terminated(w->host, sizeof(w->host)) || !terminated(w->ifname, sizeof(w->ifname)) ||
	    !terminated(w->why, sizeof(w->why)) || w->known < 0 || w->known > 1 ||
	    w->nominal < 0 || w->nominal > 1 || w->ipv6 < 0 || w->ipv6 > 1 ||
	    w->speed_mbps < -1 || w->speed_mbps > 100000000 ||
	    (w->known && (w->mtu < 68 || w->mtu > 65536 || w->speed_mbps <= 0 || w->nominal))) {
		snprintf(l->why, sizeof(l->why), "%s", N_("the peer sent a malformed link description"));
		return;
	}
	snprintf(l->host, sizeof(l->host), "%s", w->host);
	snprintf(l->ifname, sizeof(l->ifname), "%s", w->ifname);
	snprintf(l->why, sizeof(l->why), "%s", w->why);
	l->known = w->known;
	if (w->mtu >= 68 && w->mtu <= 65536)
		ceiling_compute(w->speed_mbps, w->nominal, w->mtu, w->ipv6, &l->c);
}
