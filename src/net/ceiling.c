/* Link ceilings: line rate, MTU overhead, and the measured-far-below-it finding. */
#include "net/ceiling.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


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
