/*
 * The neighbour table: every peer a node reaches on a shared subnet (no router in between) is an
 * ARP entry in the kernel's one table per host. Past gc_thresh3 the kernel refuses new entries
 * ("neighbour: arp_cache: neighbor table overflow!"), the first packet to a peer without one is
 * dropped, and NCCL's connects time out at random — the failure nothing in NCCL's log explains.
 * Past gc_thresh2 the collector evicts entries older than 5 s, so a ring's peers are looked up
 * again and again. A flat network of a few hundred nodes with two NICs each gets there with the
 * defaults (128 / 512 / 1024).
 */
#include "rules/cluster.h"

#include <string.h>

#include "rules/rules.h"
#include "util/addr.h"
#include "util/i18n.h"
#include "util/strbuf.h"

/* Whether `peer` has an IPv4 address on the subnet of `a` (a's prefix length). */
static int on_link(const struct ifs_addr *a, const struct node_model *peer)
{
	if (!peer->have_ifs)
		return 0;
	for (size_t k = 0; k < peer->ifs.in.naddrs; k++) {
		const struct ifs_addr *b = &peer->ifs.in.addrs[k];

		/* a peer holding my own address (docker0's 172.17.0.1 everywhere) is no neighbour */
		if (b->family == 4 && a->prefixlen > 0 && memcmp(a->addr, b->addr, 4) &&
		    addr_same_subnet(4, a->addr, b->addr, a->prefixlen))
			return 1;
	}
	return 0;
}

/* The on-link neighbours node i needs at once: per IPv4 address of its, the peers on that subnet. */
static long needed_entries(const struct cluster_view *v, size_t i, struct strbuf *ev)
{
	const struct node_model *m = v->nodes[i].m;
	long total = 0;

	for (size_t k = 0; m->have_ifs && k < m->ifs.in.naddrs; k++) {
		const struct ifs_addr *a = &m->ifs.in.addrs[k];
		char net[64];
		long n = 0;

		if (a->family != 4 || a->prefixlen <= 0 || !strcmp(a->name, "lo"))
			continue;
		for (size_t j = 0; j < v->n; j++)
			n += j != i && on_link(a, v->nodes[j].m);
		if (!n)
			continue;
		addr_subnet_text(4, a->addr, a->prefixlen, a->text, net, sizeof(net));
		strbuf_addf(ev, "%s%s %s: %ld peer%s", ev->len ? "; " : "", a->name, net, n,
			    n == 1 ? "" : "s");
		total += n;
	}
	return total;
}

static long round_up(long x, long step)
{
	return (x + step - 1) / step * step;
}

void xrule_neigh(const struct cluster_view *v, struct findings *out)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct node_model *m = v->nodes[i].m;
		long long t2 = m->limits.neigh_gc_thresh2, t3 = m->limits.neigh_gc_thresh3;
		struct strbuf ev = STRBUF_INIT;
		long need;
		struct finding *f;

		if (t3 <= 0 || t2 <= 0)
			continue;	/* not visible here (a container): the host's limits are unknown */
		need = needed_entries(v, i, &ev);
		if (need > t3)
			f = finding_add(out, SEV_ERROR, "cluster.neigh.table_small",
					"%s needs %ld neighbour entries for its peers but the kernel "
					"keeps at most %lld (gc_thresh3): connects to the rest time out",
					v->nodes[i].name, need, t3);
		else if (need > t2)
			f = finding_add(out, SEV_WARN, "cluster.neigh.table_small",
					"%s needs %ld neighbour entries for its peers, more than "
					"gc_thresh2 (%lld): the kernel keeps evicting them",
					v->nodes[i].name, need, t2);
		else {
			strbuf_release(&ev);
			continue;
		}
		finding_node(f, v->nodes[i].name);
		finding_why(f, "Every peer on a shared subnet is an ARP entry in the host kernel's "
			       "one neighbour table. Past gc_thresh3 new entries are refused (dmesg: "
			       "'neighbor table overflow'), so the first SYN to a peer without one is "
			       "dropped and NCCL's or the rendezvous' connects time out at random; past "
			       "gc_thresh2 entries older than 5 s are evicted and looked up again. "
			       "The limits are per host: containers on it share them.");
		finding_evidence(f, "on-link peers: %s; limits gc_thresh2 %lld, gc_thresh3 %lld", ev.buf,
				 t2, t3);
		{
			long t3n = round_up(2 * need > 1024 ? 2 * need : 1024, 1024);

			finding_setting_for(f, WHERE_SYSCTL, v->nodes[i].name,
					    "net.ipv4.neigh.default.gc_thresh3", "%ld", t3n);
			finding_setting_for(f, WHERE_SYSCTL, v->nodes[i].name,
					    "net.ipv4.neigh.default.gc_thresh2", "%ld", t3n * 3 / 4);
			finding_fix(f, N_("on %s: sysctl -w net.ipv4.neigh.default.gc_thresh3=%ld "
				       "net.ipv4.neigh.default.gc_thresh2=%ld (and in /etc/sysctl.d/ to "
				       "keep it)"), v->nodes[i].name, t3n, t3n * 3 / 4);
		}
		strbuf_release(&ev);
	}
}
