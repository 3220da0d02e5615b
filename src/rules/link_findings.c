/* Link results as findings. See link_findings.h. */
#include "rules/link_findings.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

static const char *nm(const char *name, const char *fallback)
{
	return name && *name ? name : fallback;
}

/* Literal ids, so that the finding catalogue's test sees every one of them. */
static const char *const connect_ids[LINK_STATUS_N] = {
	[LINK_OK] = "link.connect.ok",
	[LINK_REFUSED] = "link.connect.refused",
	[LINK_TIMEOUT] = "link.connect.timeout",
	[LINK_NOROUTE] = "link.connect.noroute",
	[LINK_HOSTUNREACH] = "link.connect.hostunreach",
	[LINK_ERROR] = "link.connect.error",
};

static void connect_findings(const struct link_result *r, const struct link_who *w,
			     struct findings *fs)
{
	const char *peer = nm(w->peer, "this node"), *tgt = nm(w->target, r->addr);
	const char *ifn = nm(w->ifname, nm(r->ifname, "?"));
	struct finding *f;
	const char *id;

	if (r->c.status == LINK_OK) {
		f = finding_add(fs, SEV_OK, "link.connect.ok",
				"%s -> %s (%s) over %s: TCP connects; round trip p50 %.0f us, p99 "
				"%.0f us", peer, tgt, r->addr, ifn, r->c.rtt_p50_us, r->c.rtt_p99_us);
		finding_pair(f, w->peer, w->target, ifn);
		return;
	}
	id = (unsigned)r->c.status < LINK_STATUS_N && connect_ids[r->c.status] ?
	     connect_ids[r->c.status] : "link.connect.error";
	f = finding_add(fs, SEV_ERROR, id, "%s -> %s (%s) over %s: TCP connect %s", peer, tgt,
			r->addr, ifn,
			r->c.status == LINK_TIMEOUT ? N_("times out (packets are dropped)") :
			r->c.status == LINK_REFUSED ? N_("is refused (a reset comes back)") :
			r->c.status == LINK_NOROUTE ? N_("finds no route") :
			r->c.status == LINK_HOSTUNREACH ? N_("reports the host unreachable") :
			N_("fails on this node"));
	finding_pair(f, w->peer, w->target, ifn);
	for (int i = 0; i < r->c.ntries; i++)
		finding_evidence(f, "connect from %s to %s port %u: %s after %d ms",
				 r->src[0] ? r->src : "the default source", r->addr,
				 (unsigned)r->c.tries[i].port, link_status_name(r->c.tries[i].status),
				 r->c.tries[i].connect_us / 1000);
	switch (r->c.status) {
	case LINK_TIMEOUT:
		finding_why(f, "NCCL's bootstrap and NET/Socket connections over %s will hang: "
			    "NCCL retries a timed-out connect for minutes before it gives up, so the "
			    "job stalls in init instead of failing. A firewall or security group "
			    "drops TCP between these addresses", ifn);
		finding_fix(f, N_("iptables -S INPUT; nft list ruleset   # on %s: a DROP rule for %s"),
			    tgt, ifn);
		break;
	case LINK_REFUSED:
		finding_why(f, "a reset for a port that listens is a firewall REJECT rule; NCCL "
			    "fails at once in init with 'Connection refused' over %s", ifn);
		finding_fix(f, N_("iptables -S INPUT   # on %s: a REJECT rule for %s"), tgt, ifn);
		break;
	case LINK_NOROUTE:
	case LINK_HOSTUNREACH:
		finding_why(f, "the kernel (or a router, by ICMP) says the address cannot be "
			    "reached from %s: NCCL fails at once with 'No route to host' or "
			    "'Network is unreachable'", r->src[0] ? r->src : "the default source");
		finding_fix(f, N_("ip route get %s   # on %s: which interface and source the kernel "
			    "picks"), r->addr, peer);
		break;
	default:
		finding_why(f, "the connect failed before reaching the network (errno %d)",
			    r->c.tries[0].err);
		break;
	}
}

static void add_interval(struct strbuf *sb, uint16_t lo, uint16_t hi)
{
	if (sb->len)
		strbuf_addstr(sb, ", ");
	if (lo == hi)
		strbuf_addf(sb, "%u", (unsigned)lo);
	else
		strbuf_addf(sb, "%u-%u", (unsigned)lo, (unsigned)hi);
}

static void scan_findings(const struct link_result *r, const struct link_who *w,
			  struct findings *fs)
{
	const struct link_scan_result *s = &r->s;
	const char *peer = nm(w->peer, "this node"), *tgt = nm(w->target, r->addr);
	const char *ifn = nm(w->ifname, nm(r->ifname, "?"));
	struct strbuf blocked = STRBUF_INIT;
	const struct link_interval *best = NULL;
	int nblocked = s->counts[LINK_PORT_DROPPED] + s->counts[LINK_PORT_REJECTED] +
		       s->counts[LINK_PORT_UNREACH];
	struct finding *f;
	char range[48];

	for (size_t i = 0; i < s->niv; i++) {
		const struct link_interval *v = &s->iv[i];

		if (v->state == LINK_PORT_OPEN) {
			if (!best || v->hi - v->lo > best->hi - best->lo)
				best = v;
		} else if (v->state != LINK_PORT_ERROR) {
			add_interval(&blocked, v->lo, v->hi);
		}
	}
	if (!nblocked) {
		f = finding_add(fs, SEV_OK, "link.ports.ok",
				"%s -> %s over %s: all %d tested ports %u-%u accept connections",
				peer, tgt, ifn, s->counts[LINK_PORT_OPEN], (unsigned)s->lo,
				(unsigned)s->hi);
		finding_pair(f, w->peer, w->target, ifn);
		strbuf_release(&blocked);
		return;
	}
	f = finding_add(fs, SEV_ERROR, "link.ports.blocked",
			"%s -> %s over %s: %d of %d ports are closed by a firewall: %s", peer, tgt,
			ifn, nblocked, nblocked + s->counts[LINK_PORT_OPEN], blocked.buf);
	finding_pair(f, w->peer, w->target, ifn);
	if (w->range_lo)
		snprintf(range, sizeof(range), "%d-%d", w->range_lo, w->range_hi);
	else
		snprintf(range, sizeof(range), "32768-60999 by default");
	finding_why(f, "NCCL listens on ports the kernel picks from net.ipv4.ip_local_port_range "
		    "(%s on %s): its bootstrap, proxy and NET/Socket connections land anywhere "
		    "in it, so a closed sub-range makes init hang at random — the rendezvous on "
		    "MASTER_PORT still works", range, tgt);
	for (size_t i = 0; i < s->niv && i < 16; i++)
		finding_evidence(f, "%u-%u: %s", (unsigned)s->iv[i].lo, (unsigned)s->iv[i].hi,
				 link_port_state_name(s->iv[i].state));
	finding_evidence(f, "%d open, %d dropped, %d rejected, %d unreachable, %zu in use; %d "
			 "ports scanned from %s in %.1f s", s->counts[LINK_PORT_OPEN],
			 s->counts[LINK_PORT_DROPPED], s->counts[LINK_PORT_REJECTED],
			 s->counts[LINK_PORT_UNREACH], s->nin_use, s->hi - s->lo + 1,
			 r->src[0] ? r->src : peer, (double)s->elapsed_ms / 1000.0);
	for (size_t i = 0; i < s->niv; i++) {
		const struct link_interval *v = &s->iv[i];

		/* an ACCEPT only for the peer measured: no source known, no rule */
		if (v->state == LINK_PORT_OPEN || v->state == LINK_PORT_ERROR || !r->src[0])
			continue;
		if (v->lo == v->hi)
			finding_fix(f, N_("iptables -I INPUT -i %s -p tcp -s %s --dport %u -j ACCEPT   "
				    "# on %s"), ifn, r->src, (unsigned)v->lo, tgt);
		else
			finding_fix(f, N_("iptables -I INPUT -i %s -p tcp -s %s --dport %u:%u -j ACCEPT   "
				    "# on %s (a cloud: the same range in the security group, from the "
				    "nodes' own group)"), ifn, r->src, (unsigned)v->lo, (unsigned)v->hi,
				    tgt);
	}
	if (best && best->hi - best->lo >= 1023) {
		/* or keep the firewall and move NCCL's listeners into what it lets through */
		finding_setting(f, WHERE_SYSCTL, SCOPE_ALL, "net.ipv4.ip_local_port_range",
				"%u %u", (unsigned)best->lo, (unsigned)best->hi);
		finding_fix(f, "or, on every node: sysctl -w net.ipv4.ip_local_port_range=\"%u %u\" "
			    "(and in /etc/sysctl.d/ to keep it): NCCL's listeners then land only on "
			    "open ports", (unsigned)best->lo, (unsigned)best->hi);
	}
	strbuf_release(&blocked);
}

static void mtu_findings(const struct link_result *r, const struct link_who *w,
			 struct findings *fs)
{
	const struct link_mtu_result *m = &r->m;
	const char *peer = nm(w->peer, "this node"), *tgt = nm(w->target, r->addr);
	const char *ifn = nm(w->ifname, nm(r->ifname, "?"));
	struct finding *f;

	if (!m->path_mtu)
		return;	/* nothing passed at all: the connect test names that */
	if (m->path_mtu >= m->if_mtu) {
		f = finding_add(fs, SEV_OK, "link.mtu.ok",
				"%s -> %s over %s: %d-byte packets with DF pass (the interface MTU)",
				peer, tgt, ifn, m->path_mtu);
		finding_pair(f, w->peer, w->target, ifn);
		return;
	}
	if (m->blackhole) {
		f = finding_add(fs, SEV_ERROR, "link.mtu.blackhole",
				"%s -> %s over %s: MTU black hole — packets over %d bytes vanish "
				"(interface MTU %d) and no ICMP says so", peer, tgt, ifn, m->path_mtu,
				m->if_mtu);
		finding_why(f, "TCP sends full-size segments of the interface MTU; a hop that "
			    "carries only %d drops them, and the ICMP 'fragmentation needed' that "
			    "would make the kernel shrink them is filtered. Small messages pass, so "
			    "the rendezvous works, then NCCL stalls at its first large transfer",
			    m->path_mtu);
		finding_fix(f, N_("ip link set dev %s mtu %d   # on every node, or the largest size "
			    "every hop carries"), ifn, m->path_mtu);
		finding_fix(f, N_("or let ICMP type 3 code 4 (fragmentation needed) through the "
			    "firewalls and routers on the path"));
		finding_fix(f, "or: sysctl -w net.ipv4.tcp_mtu_probing=1 on every node (TCP then "
			    "finds the size itself, after a stall)");
		finding_setting(f, WHERE_SYSCTL, SCOPE_ALL, "net.ipv4.tcp_mtu_probing", "1");
	} else {
		f = finding_add(fs, SEV_INFO, "link.mtu.smaller",
				"%s -> %s over %s: the path carries %d-byte packets, not the "
				"interface's %d; a router says so (ICMP), so TCP adapts", peer, tgt,
				ifn, m->path_mtu, m->if_mtu);
		finding_fix(f, N_("ip link set dev %s mtu %d   # optional: no fragmentation or "
			    "first-packet loss"), ifn, m->path_mtu);
	}
	finding_pair(f, w->peer, w->target, ifn);
	finding_evidence(f, "largest DF packet through: %d bytes; %d was lost; ICMP named %s; "
			 "%d probes in %ld ms", m->path_mtu, m->path_mtu + 1,
			 m->icmp_mtu ? "a smaller MTU" : "nothing", m->probes, m->elapsed_ms);
}

static void bw_findings(const struct link_result *r, const struct link_who *w,
			const struct link_ceiling *ceil, struct findings *fs)
{
	const char *ifn = nm(w->ifname, nm(r->ifname, "?"));
	struct finding *f;
	double pct;

	if (r->b.stalled) {
		f = finding_add(fs, SEV_ERROR, "link.bw.stalled",
				"%s -> %s over %s: a TCP transfer stalls (%d of %d stream%s made no "
				"progress)", nm(w->peer, "this node"), nm(w->target, r->addr), ifn,
				r->b.stalled, r->b.streams, r->b.streams == 1 ? "" : "s");
		finding_pair(f, w->peer, w->target, ifn);
		finding_why(f, "the connection was made and then bulk data stopped moving: an MTU "
			    "black hole (full-size segments vanish) or a path that drops traffic "
			    "after the handshake. NCCL hangs in the same way at its first large "
			    "transfer");
		finding_fix(f, N_("ncclcheck bench p2p --connect ... --tests mtu   # is it the MTU?"));
		return;
	}
	if (ceil && ceiling_check(fs, ceil, r->b.total_gbps, r->b.streams, nm(w->peer, NULL),
				  nm(w->target, r->addr), ifn))
		return;
	pct = ceil ? ceiling_percent(ceil, r->b.total_gbps) : -1;
	if (pct > 100 && ceil->nominal)
		/* a veth's or bridge's speed is a number the driver makes up, not a line rate */
		f = finding_add(fs, SEV_OK, "link.bw.ok",
				"%s -> %s over %s: %.2f Gbit/s with %d stream%s, above the nominal "
				"%.0f Mbit/s a software link reports (it has no line rate)",
				nm(w->peer, "this node"), nm(w->target, r->addr), ifn, r->b.total_gbps,
				r->b.streams, r->b.streams == 1 ? "" : "s", ceil->line_gbps * 1000);
	else if (pct >= 0)
		f = finding_add(fs, SEV_OK, "link.bw.ok",
				"%s -> %s over %s: %.2f Gbit/s with %d stream%s, %.0f %% of the "
				"link's %.2f Gbit/s%s", nm(w->peer, "this node"),
				nm(w->target, r->addr), ifn, r->b.total_gbps, r->b.streams,
				r->b.streams == 1 ? "" : "s", pct, ceil->ceiling_gbps,
				ceil->nominal ? " (nominal)" : "");
	else
		f = finding_add(fs, SEV_OK, "link.bw.ok",
				"%s -> %s over %s: %.2f Gbit/s with %d stream%s (line rate unknown)",
				nm(w->peer, "this node"), nm(w->target, r->addr), ifn, r->b.total_gbps,
				r->b.streams, r->b.streams == 1 ? "" : "s");
	finding_pair(f, w->peer, w->target, ifn);
}

void link_findings(const struct link_result *r, const struct link_who *who,
		   const struct link_ceiling *ceil, struct findings *fs)
{
	static const struct link_who none;

	if (!who)
		who = &none;
	switch (r->kind) {
	case LINK_CONNECT:
		connect_findings(r, who, fs);
		break;
	case LINK_SCAN:
		scan_findings(r, who, fs);
		break;
	case LINK_MTU:
		mtu_findings(r, who, fs);
		break;
	case LINK_BW:
		bw_findings(r, who, ceil, fs);
		break;
	}
}
