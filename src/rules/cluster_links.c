/*
 * What the link tests measured between every pair, judged: interfaces a peer cannot reach (and
 * whether NCCL would use them), the exact firewall map of each node's ephemeral port range, path
 * MTU black holes — and the verdict: the NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) that works
 * for every pair, proven by re-running NCCL's interface choice on every node's model.
 */
#include "rules/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/cluster_bw.h"
#include "rules/link_findings.h"
#include "util/addr.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *status_words(enum link_status s)
{
	switch (s) {
	case LINK_OK: return N_("connects");
	case LINK_REFUSED: return N_("refused (a REJECT rule: the host answers, TCP is turned away)");
	case LINK_TIMEOUT: return N_("timed out (a DROP rule or security group swallows TCP)");
	case LINK_NOROUTE: return N_("no route from the client");
	case LINK_HOSTUNREACH: return N_("host unreachable (no ARP answer or ICMP prohibited)");
	default: return N_("failed locally");
	}
}

/* The verdict's fix lines and settings, added to `f` (nothing when there is no working value). */
static void add_verdict_fix(const struct cluster_view *v, const struct cluster_verdict *vd,
			    struct finding *f)
{
	int same_name = 1;

	if (!vd->ok || vd->already)
		return;
	for (size_t i = 1; i < v->n; i++)
		same_name &= vd->ifname[i] && vd->ifname[0] && !strcmp(vd->ifname[i], vd->ifname[0]);
	if (vd->value[0]) {
		finding_export(f, "NCCL_SOCKET_IFNAME", "%s", vd->value);
	} else {
		for (size_t i = 0; i < v->n; i++) {
			finding_fix(f, N_("on %s: export NCCL_SOCKET_IFNAME=%s"), v->nodes[i].name,
				    vd->per_node[i]);
			finding_setting_for(f, WHERE_ENV, v->nodes[i].name, "NCCL_SOCKET_IFNAME", "%s",
					    vd->per_node[i]);
		}
	}
	/* gloo (torch's CPU barriers, Lightning's) takes exact interface names */
	if (same_name) {
		finding_export(f, "GLOO_SOCKET_IFNAME", "%s", vd->ifname[0]);
	} else {
		for (size_t i = 0; i < v->n; i++) {
			finding_fix(f, N_("on %s: export GLOO_SOCKET_IFNAME=%s"), v->nodes[i].name,
				    vd->ifname[i]);
			finding_setting_for(f, WHERE_ENV, v->nodes[i].name, "GLOO_SOCKET_IFNAME", "%s",
					    vd->ifname[i]);
		}
	}
}

/* Peer `c`'s address on the network of `a` (the target's interface), or NULL. */
static const char *peer_on_subnet(const struct cluster_view *v, size_t c, const struct ifs_addr *a)
{
	const struct node_model *m = v->nodes[c].m;

	for (size_t k = 0; m && a && k < m->ifs.in.naddrs; k++) {
		const struct ifs_addr *b = &m->ifs.in.addrs[k];

		if (b->family == a->family && addr_same_subnet(a->family, a->addr, b->addr,
							       a->prefixlen))
			return b->text;
	}
	return NULL;
}

/*
 * The sources an ACCEPT rule on `target`'s `ifn` must let in, comma-separated as iptables -s
 * takes them: each failing peer's source address in its test, else its address on the
 * target's network (rank 0 has every node's facts); the network itself only when a peer has
 * neither. "" when nothing is known: then no rule is printed, never one that opens the
 * interface to anyone.
 */
static void peer_sources(const struct cluster_view *v, enum link_kind kind, size_t target,
			 const char *ifn, char *buf, size_t len)
{
	const struct ifs_addr *a = v->nodes[target].m ? node_model_addr(v->nodes[target].m, ifn, 0)
						      : NULL;
	struct strbuf sb = STRBUF_INIT;

	int whole_net = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < v->n; c++) {
		const struct link_result *r = c == target ? NULL :
			cluster_link_find(v, kind, c, target, ifn);
		const char *src;

		if (!r || (kind == LINK_CONNECT && r->c.status == LINK_OK))
			continue;
		src = r->src[0] ? r->src : peer_on_subnet(v, c, a);
		if (!src)
			whole_net = 1;
		else
			strbuf_add_unique(&sb, src);
	}
	if (sb.len && !whole_net && sb.len < len)
		snprintf(buf, len, "%s", sb.buf);
	else if (a)
		addr_subnet_text(a->family, a->addr, a->prefixlen, a->text, buf, len);
	strbuf_release(&sb);
}

/*
 * Connect tests into `s`'s `ifn` from `who` that timed out although the port scan over the same
 * path then found their ports open: not a filter (it drops every SYN to those ports), so nothing
 * to fix on either node; the figures stay visible for a run that keeps losing handshakes.
 */
static void connect_transient(const struct cluster_view *v, size_t s, const char *ifn,
			      const char *who, struct findings *out)
{
	struct finding *f;

	f = finding_add(out, SEV_INFO, "link.connect.transient",
			"%s's %s: the connect test from %s timed out, then the port scan over the "
			"same path found those ports open", v->nodes[s].name, ifn, who);
	finding_pair(f, v->nodes[s].name, NULL, ifn);
	finding_why(f, "A firewall drops every handshake to a port, so the ports the scan reached "
		       "are not filtered: the connect's handshakes were lost for a while (the "
		       "sender's neighbour (ARP) table full, a host too loaded to answer, a link "
		       "flapping). Not counted as unreachable.");
	for (size_t c = 0; c < v->n; c++) {
		const struct link_result *r = c == s ? NULL :
			cluster_link_find(v, LINK_CONNECT, c, s, ifn);

		if (r && cluster_path_reach(v, c, s, ifn) == CLUSTER_REACHED_LATER)
			finding_evidence(f, "%s -> %s %s: connect %s on %d port(s), scan: open",
					 v->nodes[c].name, v->nodes[s].name, r->addr,
					 link_status_name(r->c.status), r->c.ntries);
	}
}

static void connect_failures(const struct cluster_view *v, const struct cluster_verdict *vd,
			     struct findings *out)
{
	size_t tested = 0, failed = 0;
	double worst_p50 = 0;

	for (size_t s = 0; s < v->n; s++) {
		const struct node_model *m = v->nodes[s].m;

		for (size_t k = 0; k < m->nifaces; k++) {
			const char *ifn = m->ifaces[k].name;
			struct strbuf who = STRBUF_INIT, late = STRBUF_INIT;
			const struct link_result *one = NULL;
			size_t nfail = 0, nclient = 0;
			enum link_status st = LINK_OK;
			struct finding *f;
			int used;

			for (size_t c = 0; c < v->n; c++) {
				const struct link_result *r = c == s ? NULL :
					cluster_link_find(v, LINK_CONNECT, c, s, ifn);
				if (!r)
					continue;
				nclient++;
				tested++;
				if (r->c.status == LINK_OK) {
					worst_p50 = r->c.rtt_p50_us > worst_p50 ? r->c.rtt_p50_us : worst_p50;
					continue;
				}
				if (cluster_path_reach(v, c, s, ifn) == CLUSTER_REACHED_LATER) {
					strbuf_addf(&late, "%s%s", late.len ? ", " : "", v->nodes[c].name);
					continue;
				}
				failed++;
				if (!nfail)
					st = r->c.status;
				strbuf_addf(&who, "%s%s", nfail ? ", " : "", v->nodes[c].name);
				one = r;
				nfail++;
			}
			if (late.len)
				connect_transient(v, s, ifn, late.buf, out);
			strbuf_release(&late);
			if (!nfail) {
				strbuf_release(&who);
				continue;
			}
			used = cluster_nccl_uses(m, ifn);
			f = finding_add(out, used ? SEV_ERROR : SEV_WARN, "cluster.link.unreachable",
					"%s's %s (%s) is unreachable from %s: %s", v->nodes[s].name,
					ifn, one->addr, who.buf, status_words(st));
			if (nfail == 1 && nclient == 1)
				finding_pair(f, v->nodes[s].name, who.buf, ifn);
			else
				finding_pair(f, v->nodes[s].name, NULL, ifn);
			finding_why(f, used ? "NCCL on %s will listen on %s (its bootstrap or NET/Socket "
					    "interface), so the peers that cannot reach it hang at init "
					    "— ping may still work: ICMP passing says nothing about TCP."
					  : N_("NCCL does not use %s's %s as configured; it is listed so "
					       "that nobody points NCCL_SOCKET_IFNAME at it."),
				    v->nodes[s].name, ifn);
			for (size_t c = 0; c < v->n; c++) {
				const struct link_result *r = c == s ? NULL :
					cluster_link_find(v, LINK_CONNECT, c, s, ifn);
				if (r)
					finding_evidence(f, "%s -> %s %s:%u: %s", v->nodes[c].name,
							 v->nodes[s].name, r->addr,
							 r->c.ntries ? r->c.tries[0].port : 0,
							 link_status_name(r->c.status));
			}
			if (used)
				add_verdict_fix(v, vd, f);
			if (st == LINK_TIMEOUT || st == LINK_REFUSED) {
				char srcs[256];

				peer_sources(v, LINK_CONNECT, s, ifn, srcs, sizeof(srcs));
				finding_fix(f, N_("# or let the peers through on %s (and the same inbound "
						  "rule in the cloud security group), on %s"), ifn,
					    v->nodes[s].name);
				if (srcs[0])
					finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s -j ACCEPT", ifn,
						    srcs);
			}
			finding_check(f, N_("ncclcheck cluster   # re-run after the change"));
			strbuf_release(&who);
		}
	}
	if (tested && !failed)
		finding_add(out, SEV_OK, "link.connect.ok",
			    "every node reaches every other on every interface tested (%zu connect "
			    "tests, round trip p50 at most %.0f us)", tested, worst_p50);
}

/* Another scan of the same target interface already judged (one finding per target and
 * interface: the whole map from its designated scanner, the samplers only as more peers). The
 * first usable scan of a (target, interface) judges them all: widest_scan looks at every later
 * one, so a later scan is never judged again, whether or not the first one saw a failure. */
static int judged_before(const struct cluster_view *v, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (v->links[k].kind == LINK_SCAN && v->links[k].target == v->links[i].target &&
		    !strcmp(v->links[k].ifname, v->links[i].ifname) &&
		    !link_scan_starved(&v->links[k].res.s))
			return 1;
	return 0;
}

/* The scan of (target, ifname) that tested the most ports with a failure: the map to show. */
static const struct cluster_link *widest_scan(const struct cluster_view *v, size_t i)
{
	const struct cluster_link *best = &v->links[i];

	for (size_t k = i + 1; k < v->nlinks; k++) {
		const struct cluster_link *l = &v->links[k];

		if (l->kind == LINK_SCAN && l->target == best->target && l->ran &&
		    !strcmp(l->ifname, best->ifname) && !link_scan_starved(&l->res.s) &&
		    l->res.s.niv > 0 && (long)l->res.s.counts[LINK_PORT_OPEN] +
		    l->res.s.counts[LINK_PORT_DROPPED] > (long)best->res.s.counts[LINK_PORT_OPEN] +
		    best->res.s.counts[LINK_PORT_DROPPED])
			best = l;
	}
	return best;
}

static void port_maps(const struct cluster_view *v, struct findings *out)
{
	size_t scans = 0, bad = 0;

	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l0 = &v->links[i], *l;
		const struct link_scan_result *s;
		const struct node_model *m;
		struct strbuf iv = STRBUF_INIT, peers = STRBUF_INIT;
		long best_lo = -1, best_hi = -1, nbad = 0, span;
		const char *verb = NULL;
		struct finding *f;

		/* starved scans measured the scheduler: cluster.link.untested says so */
		if (l0->kind != LINK_SCAN || link_scan_starved(&l0->res.s))
			continue;
		scans++;
		if (judged_before(v, i))
			continue;
		l = widest_scan(v, i);
		s = &l->res.s;
		m = v->nodes[l->target].m;
		for (size_t k = 0; k < s->niv; k++) {
			const struct link_interval *x = &s->iv[k];
			if (x->state == LINK_PORT_OPEN || x->state == LINK_PORT_IN_USE) {
				if (x->hi - x->lo > best_hi - best_lo) {
					best_lo = x->lo;
					best_hi = x->hi;
				}
				continue;
			}
			if (x->state == LINK_PORT_UNTESTED)
				continue;
			if (!verb)
				verb = x->state == LINK_PORT_REJECTED ? N_("rejects") : N_("drops");
			nbad += x->hi - x->lo + 1;
			if (x->lo == x->hi)
				strbuf_addf(&iv, "%s%u", iv.len ? ", " : "", x->lo);
			else
				strbuf_addf(&iv, "%s%u-%u", iv.len ? ", " : "", x->lo, x->hi);
		}
		if (!iv.len) {
			strbuf_release(&iv);
			continue;
		}
		bad++;
		/* nothing open and the connect test failed too: cluster.link.unreachable says it */
		if (best_lo < 0) {
			const struct link_result *c = cluster_link_find(v, LINK_CONNECT, l->peer,
								       l->target, l->ifname);
			if (c && c->c.status != LINK_OK) {
				strbuf_release(&iv);
				continue;
			}
		}
		for (size_t k = i; k < v->nlinks; k++) {
			const struct cluster_link *o = &v->links[k];

			/* a starved scan's drops are no witness */
			if (o->kind == LINK_SCAN && o->ran && !link_scan_starved(&o->res.s) &&
			    o->target == l->target &&
			    !strcmp(o->ifname, l->ifname) && o->res.s.counts[LINK_PORT_DROPPED] +
			    o->res.s.counts[LINK_PORT_REJECTED] + o->res.s.counts[LINK_PORT_UNREACH])
				strbuf_addf(&peers, "%s%s", peers.len ? ", " : "",
					    v->nodes[o->peer].name);
		}
		/* the share of the kernel's picks that land in the closed ports: NCCL's odds */
		span = m->ports.hi - m->ports.lo + 1;
		f = finding_add(out, cluster_nccl_uses(m, l->ifname) ? SEV_ERROR : SEV_WARN,
				"link.ports.blocked",
				"%s %s TCP ports %s on %s; NCCL's listener lands there in %.0f %% of "
				"starts (its ephemeral range is %ld-%ld)", v->nodes[l->target].name,
				verb, iv.buf, l->ifname, span > 0 ? 100.0 * (double)nbad / span : 100.0,
				m->ports.lo, m->ports.hi);
		finding_pair(f, v->nodes[l->target].name, NULL, l->ifname);
		finding_why(f, "NCCL has no port setting: every listener (bootstrap, NET/Socket, the "
			       "proxy) binds port 0 and the kernel picks from ip_local_port_range, so a "
			       "firewall that closes part of that range fails or hangs init at "
			       "random — the seeds' '49152-65535' advice misses most of Linux's range.");
		finding_evidence(f, N_("%u ports scanned from %s in %ld ms: %d open, %d dropped, %d "
				    "rejected; each dropped port failed %d look%s again %d ms apart, "
				    "seen from %s"), (unsigned)(s->hi - s->lo + 1), v->nodes[l->peer].name,
				 s->elapsed_ms, s->counts[LINK_PORT_OPEN], s->counts[LINK_PORT_DROPPED],
				 s->counts[LINK_PORT_REJECTED], s->looks, s->looks == 1 ? "" : "s",
				 s->retry_ms, peers.buf);
		if (best_lo >= 0 && best_hi - best_lo >= 1023) {
			finding_fix(f, N_("# keep the firewall and move NCCL's ports into the open part "
				       "(and the same line in /etc/sysctl.d/ to keep it), on %s"),
				    v->nodes[l->target].name);
			finding_fix(f, "sysctl -w net.ipv4.ip_local_port_range=\"%ld %ld\"", best_lo,
				    best_hi);
			finding_setting_for(f, WHERE_SYSCTL, v->nodes[l->target].name,
					    "net.ipv4.ip_local_port_range", "%ld %ld", best_lo, best_hi);
		}
		{
			char srcs[256];

			peer_sources(v, LINK_SCAN, (size_t)l->target, l->ifname, srcs, sizeof(srcs));
			/* whole sentences, so each reads as one in Chinese too */
			if (best_lo >= 0 && best_hi - best_lo >= 1023)
				finding_fix(f, N_("# or open the range (or the same inbound rule in the "
						  "cloud security group), on %s"), v->nodes[l->target].name);
			else
				finding_fix(f, N_("# open the range (or the same inbound rule in the cloud "
						  "security group), on %s"), v->nodes[l->target].name);
			if (srcs[0])
				finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s --dport %ld:%ld -j "
					       "ACCEPT", l->ifname, srcs, m->ports.lo, m->ports.hi);
		}
		strbuf_release(&iv);
		strbuf_release(&peers);
	}
	if (scans && !bad)
		finding_add(out, SEV_OK, "link.ports.ok",
			    "every node's whole ephemeral port range is open to its peers (%zu scans)",
			    scans);
}

static void path_mtu(const struct cluster_view *v, struct findings *out)
{
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const struct link_mtu_result *r = &l->res.m;
		struct finding *f;

		if (l->kind != LINK_MTU || !r->if_mtu || r->path_mtu >= r->if_mtu)
			continue;
		if (r->blackhole) {
			int used = cluster_nccl_uses(v->nodes[l->target].m, l->ifname) ||
				   cluster_nccl_uses(v->nodes[l->peer].m, l->ifname);

			f = finding_add(out, used ? SEV_ERROR : SEV_WARN, "link.mtu.blackhole",
					"packets over %d bytes vanish from %s to %s on %s (interface MTU "
					"%d, and no ICMP 'fragmentation needed' comes back)",
					r->path_mtu, v->nodes[l->peer].name, v->nodes[l->target].name,
					l->ifname, r->if_mtu);
			finding_why(f, "A hop on the path carries less than the interfaces' MTU and the "
				       "ICMP that would tell TCP so is filtered: small packets (ping, "
				       "the first bootstrap messages) pass, full-size segments are lost, "
				       "and NCCL stalls in init or in the first large all-reduce.");
			finding_fix(f, N_("# on %s and %s, the path's two ends (or let ICMP type 3 code 4 "
				       "through the firewalls on the path)"), v->nodes[l->peer].name,
				    v->nodes[l->target].name);
			finding_fix(f, "ip link set dev %s mtu %d", l->ifname, r->path_mtu);
		} else {
			f = finding_add(out, SEV_INFO, "link.mtu.smaller",
					"the path from %s to %s on %s carries %d bytes, less than the "
					"interface MTU %d; ICMP says so and TCP adapts",
					v->nodes[l->peer].name, v->nodes[l->target].name, l->ifname,
					r->path_mtu, r->if_mtu);
		}
		finding_pair(f, v->nodes[l->target].name, v->nodes[l->peer].name, l->ifname);
		finding_evidence(f, "%d DF probes; largest that passed %d, ICMP named %d", r->probes,
				 r->path_mtu, r->icmp_mtu);
	}
}

void xrule_links(const struct cluster_view *v, struct findings *out)
{
	struct cluster_verdict vd;

	cluster_verdict_compute(v, &vd);
	connect_failures(v, &vd, out);
	port_maps(v, out);
	path_mtu(v, out);
	cluster_verdict_release(&vd);
}

void xrule_verdict(const struct cluster_view *v, struct findings *out)
{
	struct cluster_verdict vd;
	struct finding *f;
	struct strbuf names = STRBUF_INIT;

	cluster_verdict_compute(v, &vd);
	if (!vd.measured) {
		cluster_verdict_release(&vd);
		return;
	}
	for (size_t i = 0; i < v->n; i++)
		strbuf_addf(&names, "%s%s %s", i ? ", " : "", v->nodes[i].name,
			    vd.ifname[i] ? vd.ifname[i] : "(none)");
	if (!vd.ok) {
		f = finding_add(out, SEV_ERROR, "cluster.verdict.none",
				"no NCCL_SOCKET_IFNAME works: some node has no interface that every "
				"other node reaches (%s)", names.buf);
		finding_why(f, "NCCL needs one address per node that every peer can open TCP "
			       "connections to; see the cluster.link.unreachable findings for which "
			       "pair fails on which interface.");
		finding_fix(f, "allow TCP between the nodes on their private network (the cloud "
			       "security group: all TCP from the cluster's own subnet), then re-run "
			       "ncclcheck cluster");
	} else if (vd.already) {
		f = finding_add(out, SEV_OK, "cluster.verdict.ifname",
				"NCCL's own interface choice works for every pair: %s", names.buf);
	} else {
		struct strbuf now = STRBUF_INIT;

		/* what NCCL picks today and no peer reaches: the interface the user is to leave */
		for (size_t i = 0; i < v->n; i++) {
			const struct node_model *m = v->nodes[i].m;

			if (m && m->have_ifs && m->pred.boot &&
			    !cluster_if_reachable(v, i, m->pred.boot->name))
				strbuf_addf(&now, "%s%s %s", now.len ? ", " : "", v->nodes[i].name,
					    m->pred.boot->name);
		}
		f = finding_add(out, SEV_ERROR, "cluster.verdict.ifname",
				"NCCL as configured uses an interface some peer cannot reach%s%s%s; "
				"with NCCL_SOCKET_IFNAME%s%s every node uses one that every peer "
				"reaches (%s)", now.len ? " (" : "", now.len ? now.buf : "",
				now.len ? ")" : "", vd.value[0] ? "=" : N_(" set per node"), vd.value, names.buf);
		strbuf_release(&now);
		finding_why(f, "The value was tried on every node's own interface list with NCCL's "
			       "selection rules (bootstrap and NET/Socket): each node then picks the "
			       "interface named here, and the link tests showed every peer reaching "
			       "it.");
		add_verdict_fix(v, &vd, f);
		finding_check(f, N_("ncclcheck cluster   # with the variables exported, or: ncclcheck run -- "
				    "<your launch command>"));
	}
	strbuf_release(&names);
	cluster_verdict_release(&vd);
}

/*
 * A flow inside one kernel has no line rate: a veth's or bridge's speed is a number its driver
 * makes up, and with every flow at once the figure is the CPU time the flow got. Such a link
 * meets its nominal ceiling only when it stayed slow measured alone (a shaper in a namespace);
 * a real NIC's ceiling (SR-IOV between containers) always applies.
 */
static const struct link_ceiling *bw_ceiling(const struct cluster_view *v,
					     const struct cluster_link *l,
					     const struct cluster_bw_flow *slow, int nslow)
{
	const char *tb = v->nodes[l->target].boot_id, *pb = v->nodes[l->peer].boot_id;
	int a = l->target < l->peer ? l->target : l->peer;
	int b = l->target < l->peer ? l->peer : l->target;

	if (!l->ceil.nominal || !tb || !tb[0] || !pb || strcmp(tb, pb))
		return &l->ceil;
	for (int k = 0; k < nslow; k++)
		if (slow[k].from == a && slow[k].to == b)
			return &l->ceil;
	return NULL;
}

void xrule_link_results(const struct cluster_view *v, struct findings *out)
{
	struct cluster_bw_flow *slow = NULL;
	int nslow = -1;

	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const char *tn = v->nodes[l->target].name, *pn = v->nodes[l->peer].name;
		struct link_who who = { .peer = pn, .target = tn, .ifname = l->ifname };
		struct finding *f;

		if (!l->ran) {
			f = finding_add(out, SEV_ERROR, "cluster.link.failed",
					"%s -> %s (%s) over %s: the %s test could not run", pn, tn,
					l->res.addr, l->ifname, link_kind_name(l->kind));
			finding_pair(f, pn, tn, l->ifname);
			finding_evidence(f, "%s", l->error);
			continue;
		}
		if (l->kind != LINK_BW)
			continue;	/* connect, ports and MTU: judged across the pairs above */
		if (nslow < 0)
			nslow = cluster_bw_alone_slow(v, &slow);
		link_findings(&l->res, &who, bw_ceiling(v, l, slow, nslow), out);
	}
	free(slow);
}
