/* Link ceilings: line rate, MTU overhead, and the measured-far-below-it finding. */
#include "link/ceiling.h"

#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "util/xalloc.h"


void ceiling_compute(double speed_mbps, int nominal, int mtu, int ipv6, struct link_ceiling *c)
{
	int hdr = ipv6 ? 72 : 52;

	memset(c, 0, sizeof(*c));
	c->mtu = mtu;
	c->ipv6 = ipv6;
	c->nominal = nominal;
	c->line_gbps = speed_mbps > 0 ? speed_mbps / 1000.0 : 0;
	c->goodput_frac = mtu > hdr ? (double)(mtu - hdr) / (double)(mtu + 38) : 0;
	c->ceiling_gbps = c->line_gbps * c->goodput_frac;
}

double ceiling_percent(const struct link_ceiling *c, double measured_gbps)
{
	if (c->ceiling_gbps <= 0)
		return -1;
	return 100.0 * measured_gbps / c->ceiling_gbps;
}

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

int ceiling_check(struct findings *fs, const struct link_ceiling *c, double measured_gbps,
		  int streams, const char *node, const char *peer, const char *ifname)
{
	double pct = ceiling_percent(c, measured_gbps);
	double bar = c->nominal ? CEILING_LOW_PCT_NOMINAL : CEILING_LOW_PCT;
	struct finding *f;

	if (pct < 0 || pct >= bar)
		return 0;
	f = finding_add(fs, SEV_WARN, "link.bw.low",
			"%s -> %s over %s: %.2f Gbit/s is %.0f %% of what the link can carry "
			"(%.2f Gbit/s)", node ? node : "this node", peer ? peer : "the peer",
			ifname ? ifname : "?", measured_gbps, pct, c->ceiling_gbps);
	finding_pair(f, node, peer, ifname);
	finding_why(f, "a ring all-reduce runs at its slowest link: every rank waits for this one. "
		    "The ceiling is the line rate (%.0f Mbit/s%s) times TCP's share at MTU %d "
		    "(%.1f %%); under %.0f %% of it is more than overhead: a cap (tc, a policer, "
		    "a smaller instance type), a degraded NIC or cable, retransmissions, or a "
		    "CPU-bound host", c->line_gbps * 1000, c->nominal ? ", nominal for a software "
		    "link" : "", c->mtu, 100 * c->goodput_frac, bar);
	finding_evidence(f, "measured %.3f Gbit/s with %d TCP stream%s; ceiling %.3f Gbit/s = "
			 "%.0f Mbit/s x %.3f", measured_gbps, streams, streams == 1 ? "" : "s",
			 c->ceiling_gbps, c->line_gbps * 1000, c->goodput_frac);
	finding_fix(f, "tc qdisc show dev %s; ethtool %s; ethtool -S %s | grep -i -E "
		    "'err|drop|retrans'   # on %s and %s: a shaper, the negotiated speed, errors",
		    ifname ? ifname : "IF", ifname ? ifname : "IF", ifname ? ifname : "IF",
		    node ? node : "this node", peer ? peer : "the peer");
	finding_fix(f, "nstat -az TcpRetransSegs   # before and after a transfer: retransmissions "
		    "mean loss on the path");
	return 1;
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
		snprintf(l->why, sizeof(l->why), "%s has no line rate in sysfs (%s/%s/speed: "
			 "loopback, a virtual or a down link)", l->ifname, sysfs, l->ifname);
	else if (l->c.nominal)
		snprintf(l->why, sizeof(l->why), "%s is a software link: its %.0f Mbit/s is "
			 "nominal, and a tc cap does not show in sysfs", l->ifname,
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
		snprintf(l->why, sizeof(l->why), "no connection to a peer to follow");
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
		snprintf(l->why, sizeof(l->why), "no interface holds the connection's local "
			 "address");
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
		snprintf(l->why, sizeof(l->why), "the peer sent a malformed link description");
		return;
	}
	snprintf(l->host, sizeof(l->host), "%s", w->host);
	snprintf(l->ifname, sizeof(l->ifname), "%s", w->ifname);
	snprintf(l->why, sizeof(l->why), "%s", w->why);
	l->known = w->known;
	if (w->mtu >= 68 && w->mtu <= 65536)
		ceiling_compute(w->speed_mbps, w->nominal, w->mtu, w->ipv6, &l->c);
}

static const char *who(const struct ceiling_link *l, char *buf, size_t len)
{
	snprintf(buf, len, "rank %d%s%s%s %s", l->rank, l->host[0] ? " (" : "", l->host,
		 l->host[0] ? ")" : "", l->ifname[0] ? l->ifname : "?");
	return buf;
}

static void add_line(char ***lines, size_t *n, size_t *alloc, char *s)
{
	ALLOC_GROW(*lines, *n + 1, *alloc);
	(*lines)[(*n)++] = s;
}

#define CEILING_MAX_LINES 16 /* per-link lines; the rest is summed up in one */

json_t *ceiling_coll_report(const struct ceiling_link *links, size_t n, const char *const *next,
			    double peak_busbw, double avg_busbw, int streams, char ***lines,
			    size_t *nlines, struct findings *fs)
{
	double peak = peak_busbw * 8, avg = avg_busbw * 8; /* GB/s of bytes -> Gbit/s */
	json_t *arr = json_array(), *doc;
	const struct ceiling_link *low = NULL;
	size_t alloc = 0, lowi = 0, shown = 0;
	const char *verdict = "unknown";
	char buf[128];

	*lines = NULL;
	*nlines = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ceiling_link *l = &links[i];
		json_t *j = json_pack("{s:i, s:s, s:s, s:b}", "rank", l->rank, "host", l->host,
				      "ifname", l->ifname, "known", l->known);

		json_object_set_new(j, "line_rate_gbps", l->c.line_gbps > 0
							 ? json_real(l->c.line_gbps)
							 : json_null());
		json_object_set_new(j, "nominal", json_boolean(l->c.nominal));
		json_object_set_new(j, "mtu", l->c.mtu ? json_integer(l->c.mtu) : json_null());
		if (l->known) {
			json_object_set_new(j, "tcp_goodput_gbps", json_real(l->c.ceiling_gbps));
			json_object_set_new(j, "peak_busbw_pct",
					    json_real(ceiling_percent(&l->c, peak)));
			json_object_set_new(j, "avg_busbw_pct",
					    json_real(ceiling_percent(&l->c, avg)));
			if (!low || l->c.ceiling_gbps < low->c.ceiling_gbps) {
				low = l;
				lowi = i;
			}
		} else {
			json_object_set_new(j, "tcp_goodput_gbps", json_null());
			json_object_set_new(j, "why", json_string(l->why));
		}
		json_array_append_new(arr, j);
		if (shown >= CEILING_MAX_LINES)
			continue;
		shown++;
		if (l->known)
			add_line(lines, nlines, &alloc,
				 xasprintf("Link ceiling, %s: line rate %g Gbit/s (sysfs), MTU %d: "
					   "TCP goodput <= %.2f Gbit/s; busbw %.2f Gbit/s = "
					   "%.1f %% of it (peak), %.1f %% (avg)",
					   who(l, buf, sizeof(buf)), l->c.line_gbps, l->c.mtu,
					   l->c.ceiling_gbps, peak, ceiling_percent(&l->c, peak),
					   ceiling_percent(&l->c, avg)));
		else if (l->c.ceiling_gbps > 0)
			add_line(lines, nlines, &alloc,
				 xasprintf("Link ceiling, %s: ceiling unknown (%s); busbw %.2f "
					   "Gbit/s = %.1f %% of the nominal %.2f Gbit/s at MTU %d",
					   who(l, buf, sizeof(buf)), l->why, peak,
					   ceiling_percent(&l->c, peak), l->c.ceiling_gbps,
					   l->c.mtu));
		else
			add_line(lines, nlines, &alloc,
				 xasprintf("Link ceiling, %s: ceiling unknown (%s)",
					   who(l, buf, sizeof(buf)), l->why));
	}
	if (n > shown)
		add_line(lines, nlines, &alloc,
			 xasprintf("Link ceiling: %zu more links in --json", n - shown));
	doc = json_pack("{s:o, s:f, s:f}", "links", arr, "peak_busbw_gbps", peak,
			"avg_busbw_gbps", avg);
	if (low) {
		double pct = ceiling_percent(&low->c, peak);
		verdict = pct < CEILING_LOW_PCT ? "low" : "ok";
		json_object_set_new(doc, "lowest",
				    json_pack("{s:i, s:s, s:s, s:f}", "rank", low->rank, "host",
					      low->host, "ifname", low->ifname, "ceiling_gbps",
					      low->c.ceiling_gbps));
		json_object_set_new(doc, "peak_pct", json_real(pct));
		json_object_set_new(doc, "avg_pct", json_real(ceiling_percent(&low->c, avg)));
		add_line(lines, nlines, &alloc,
			 xasprintf("Link ceiling: peak busbw %.2f Gbit/s is %.1f %% of the lowest "
				   "known ceiling (%s, %.2f Gbit/s)%s",
				   peak, pct, who(low, buf, sizeof(buf)), low->c.ceiling_gbps,
				   pct < CEILING_LOW_PCT ? ": under 60 %, see link.bw.low" : ""));
		if (pct < CEILING_LOW_PCT && fs) {
			struct link_ceiling strict = low->c;
			strict.nominal = 0; /* known means real: the 60 % bar */
			ceiling_check(fs, &strict, peak, streams, low->host[0] ? low->host : NULL,
				      next ? next[lowi] : NULL, low->ifname);
		}
	} else {
		json_object_set_new(doc, "lowest", json_null());
		json_object_set_new(doc, "peak_pct", json_null());
		json_object_set_new(doc, "avg_pct", json_null());
		add_line(lines, nlines, &alloc,
			 xasprintf("Link ceiling: unknown on every link, no verdict"));
	}
	json_object_set_new(doc, "verdict", json_string(verdict));
	return doc;
}
