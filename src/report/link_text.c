/* Link results as short lines for people: see link_text.h. */
#include "report/link_text.h"

#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

static void from(const struct link_result *r, struct strbuf *sb)
{
	if (r->src[0])
		strbuf_addf(sb, _(" from %s"), r->src);
	if (r->ifname[0])
		strbuf_addf(sb, _(" via %s"), r->ifname);
}

static void scan_text(const struct link_result *r, struct strbuf *sb)
{
	const struct link_scan_result *s = &r->s;
	size_t shown = s->niv < 12 ? s->niv : 12;

	strbuf_addf(sb, _("ports %u-%u of %s"), (unsigned)s->lo, (unsigned)s->hi, r->addr);
	from(r, sb);
	strbuf_addstr(sb, ":");
	for (size_t i = 0; i < shown; i++) {
		const struct link_interval *v = &s->iv[i];

		if (v->lo == v->hi)
			strbuf_addf(sb, "%s %u %s", i ? "," : "", (unsigned)v->lo,
				    link_port_state_name(v->state));
		else
			strbuf_addf(sb, "%s %u-%u %s", i ? "," : "", (unsigned)v->lo,
				    (unsigned)v->hi, link_port_state_name(v->state));
	}
	if (shown < s->niv)
		strbuf_addf(sb, _(", ... (%zu intervals)"), s->niv);
	strbuf_addf(sb, _(" (%d open, %d rejected, %d dropped"), s->counts[LINK_PORT_OPEN],
		    s->counts[LINK_PORT_REJECTED], s->counts[LINK_PORT_DROPPED]);
	if (s->counts[LINK_PORT_UNREACH])
		strbuf_addf(sb, _(", %d unreachable"), s->counts[LINK_PORT_UNREACH]);
	if (s->counts[LINK_PORT_ERROR])
		strbuf_addf(sb, _(", %d local errors"), s->counts[LINK_PORT_ERROR]);
	if (s->nin_use)
		strbuf_addf(sb, _(", %zu in use on the target"), s->nin_use);
	strbuf_addf(sb, _("; %d batches, %.1f s)"), s->batches, (double)s->elapsed_ms / 1000.0);
}

void link_result_text(const struct link_result *r, struct strbuf *sb)
{
	switch (r->kind) {
	case LINK_CONNECT:
		strbuf_addf(sb, _("connect %s"), r->addr);
		from(r, sb);
		strbuf_addf(sb, ": %s", link_status_name(r->c.status));
		for (int i = 0; i < r->c.ntries; i++)
			strbuf_addf(sb, _("%sport %u %s in %d us"), i ? ", " : " (",
				    (unsigned)r->c.tries[i].port,
				    link_status_name(r->c.tries[i].status),
				    r->c.tries[i].connect_us);
		strbuf_addstr(sb, r->c.ntries ? ")" : "");
		if (r->c.pings)
			strbuf_addf(sb, _("; rtt p50 %.0f us, p99 %.0f us over %d pings"),
				    r->c.rtt_p50_us, r->c.rtt_p99_us, r->c.pings);
		break;
	case LINK_SCAN:
		scan_text(r, sb);
		break;
	case LINK_MTU:
		strbuf_addf(sb, _("path MTU to %s"), r->addr);
		from(r, sb);
		if (!r->m.path_mtu)
			strbuf_addf(sb, _(": nothing got through (up to %d)"), r->m.if_mtu);
		else if (r->m.path_mtu == r->m.if_mtu)
			strbuf_addf(sb, _(": %d, the interface MTU"), r->m.path_mtu);
		else if (r->m.blackhole)
			strbuf_addf(sb, _(": %d of %d, BLACK HOLE: bigger packets vanish and no ICMP "
				    "'fragmentation needed' comes back"), r->m.path_mtu, r->m.if_mtu);
		else
			strbuf_addf(sb, _(": %d of %d (a smaller hop; ICMP said %d, so TCP adapts)"),
				    r->m.path_mtu, r->m.if_mtu, r->m.icmp_mtu);
		strbuf_addf(sb, _(" (%d probes, %ld ms)"), r->m.probes, r->m.elapsed_ms);
		break;
	case LINK_BW:
		strbuf_addf(sb, _("bandwidth to %s"), r->addr);
		from(r, sb);
		strbuf_addf(sb, _(": %.2f Gbit/s with %d stream%s"), r->b.total_gbps, r->b.streams,
			    r->b.streams == 1 ? "" : "s");
		if (r->b.streams > 1 && r->b.gbps) {
			strbuf_addstr(sb, " (");
			for (int i = 0; i < r->b.streams; i++)
				strbuf_addf(sb, "%s%.2f", i ? " " : "", r->b.gbps[i]);
			strbuf_addstr(sb, ")");
		}
		strbuf_addf(sb, _(", %lld MB in %.2f s"), r->b.total_bytes / 1000000, r->b.seconds);
		if (r->b.stalled)
			strbuf_addf(sb, _("; %d stream%s STALLED (no progress within the timeout)"),
				    r->b.stalled, r->b.stalled == 1 ? "" : "s");
		break;
	}
}
