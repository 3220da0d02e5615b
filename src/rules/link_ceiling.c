/* Measured bandwidth against the link's ceiling: see link_ceiling.h. */
#include "rules/link_ceiling.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/i18n.h"
#include "util/xalloc.h"

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
	finding_fix(f, N_("tc qdisc show dev %s; ethtool %s; ethtool -S %s | grep -i -E "
		    "'err|drop|retrans'   # on %s and %s: a shaper, the negotiated speed, errors"),
		    ifname ? ifname : "IF", ifname ? ifname : "IF", ifname ? ifname : "IF",
		    node ? node : "this node", peer ? peer : "the peer");
	finding_fix(f, N_("nstat -az TcpRetransSegs   # before and after a transfer: retransmissions "
		    "mean loss on the path"));
	return 1;
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
				 xasprintf(N_("Link ceiling, %s: line rate %g Gbit/s (sysfs), MTU %d: "
					   "TCP goodput <= %.2f Gbit/s; busbw %.2f Gbit/s = "
					   "%.1f %% of it (peak), %.1f %% (avg)"),
					   who(l, buf, sizeof(buf)), l->c.line_gbps, l->c.mtu,
					   l->c.ceiling_gbps, peak, ceiling_percent(&l->c, peak),
					   ceiling_percent(&l->c, avg)));
		else if (l->c.ceiling_gbps > 0)
			add_line(lines, nlines, &alloc,
				 xasprintf(N_("Link ceiling, %s: ceiling unknown (%s); busbw %.2f "
					   "Gbit/s = %.1f %% of the nominal %.2f Gbit/s at MTU %d"),
					   who(l, buf, sizeof(buf)), l->why, peak,
					   ceiling_percent(&l->c, peak), l->c.ceiling_gbps,
					   l->c.mtu));
		else
			add_line(lines, nlines, &alloc,
				 xasprintf(N_("Link ceiling, %s: ceiling unknown (%s)"),
					   who(l, buf, sizeof(buf)), l->why));
	}
	if (n > shown)
		add_line(lines, nlines, &alloc,
			 xasprintf(N_("Link ceiling: %zu more links in --json"), n - shown));
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
		/* two whole sentences, so that each translates as one */
		add_line(lines, nlines, &alloc, pct < CEILING_LOW_PCT
			 ? xasprintf(N_("Link ceiling: peak busbw %.2f Gbit/s is %.1f %% of the lowest "
					"known ceiling (%s, %.2f Gbit/s): under 60 %%, see link.bw.low"),
				     peak, pct, who(low, buf, sizeof(buf)), low->c.ceiling_gbps)
			 : xasprintf(N_("Link ceiling: peak busbw %.2f Gbit/s is %.1f %% of the lowest "
					"known ceiling (%s, %.2f Gbit/s)"),
				     peak, pct, who(low, buf, sizeof(buf)), low->c.ceiling_gbps));
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
			 xasprintf("%s", N_("Link ceiling: unknown on every link, no verdict")));
	}
	json_object_set_new(doc, "verdict", json_string(verdict));
	return doc;
}
