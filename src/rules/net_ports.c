/*
 * The ports the other nodes must reach on this one: NCCL has no port setting, every listener takes
 * an ephemeral port, so the range (and which seed's firewall advice is wrong here) and the local
 * packet filter evaluated with the model's firewall rules (rules/fwmodel.c) for a peer on each
 * interface NCCL will use. Pure.
 */
#include "rules/rules.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "util/addr.h"
#include "util/i18n.h"
#include "util/strbuf.h"

struct net {
	const struct node_model *m;
	struct findings *out;
};

static void report_ports(struct net *n)
{
	long lo = n->m->ports.lo, hi = n->m->ports.hi, mport = n->m->master.port;
	const struct ifs_addr *b = n->m->pred.boot;
	struct finding *f;
	char subnet[80] = "";
	const char *ifname;

	/* the network the nodes talk over: MASTER_ADDR's (where NCCL belongs, fixed or not), else NCCL's,
	 * else the default route's */
	if (n->m->master.ifname && !n->m->master.loopback && node_model_addr(n->m, n->m->master.ifname, 0))
		b = node_model_addr(n->m, n->m->master.ifname, 0);
	if (!b && n->m->default_ifname)
		b = node_model_addr(n->m, n->m->default_ifname, 0);
	ifname = b ? b->name : "";

	if (!n->m->ports.known)
		return;
	if (b)
		addr_subnet_text(b->family, b->addr, b->prefixlen, b->text, subnet, sizeof(subnet));
	/* two whole sentences, not " on " pasted in: a translation words them differently */
	if (b)
		f = finding_add(n->out, SEV_INFO, "net.ports.range",
				"NCCL listens on TCP ports %ld-%ld here (net.ipv4.ip_local_port_range): the other "
				"nodes must reach them on %s", lo, hi, b->name);
	else
		f = finding_add(n->out, SEV_INFO, "net.ports.range",
				"NCCL listens on TCP ports %ld-%ld here (net.ipv4.ip_local_port_range): the other "
				"nodes must reach them", lo, hi);
	finding_evidence(f, "sysctl.ip_local_port_range = %ld %ld", lo, hi);
	finding_why(f, "NCCL has no port setting: every listener (bootstrap root and ring, proxy, NET/Socket) "
		    "binds port 0 and gets a port from this range; torch's TCPStore adds MASTER_PORT (%ld). "
		    "The first seed says to open 49152-65535, which %s; the second says 32768-60999, which %s.",
		    mport,
		    lo >= 49152 && hi <= 65535 ? N_("covers this range") : N_("misses part of this node's range"),
		    lo >= 32768 && hi <= 60999 ? N_("covers this range (it is the Linux default)")
					       : N_("misses part of this node's range"));
	/* scoped to the nodes' own network: never an open port on every interface to anyone */
	if (b) {
		finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s -m multiport --dports %ld,%ld:%ld "
			    "-j ACCEPT", ifname, subnet, mport, lo, hi);
		finding_fix(f, N_("# cloud security group: allow inbound TCP %ld-%ld and %ld from the "
				  "cluster's own security group or subnet %s"), lo, hi, mport, subnet);
	}
	finding_fix(f, "%s", N_("# or narrow the range on every node: sysctl -w "
				"net.ipv4.ip_local_port_range=\"50000 51000\""));
	if (mport >= lo && mport <= hi) {
		const char *res = n->m->ports.reserved;
		char want[16];

		snprintf(want, sizeof(want), "%ld", mport);
		if (!res || !strstr(res, want)) {
			f = finding_add(n->out, SEV_WARN, "net.ports.master_in_range",
					"MASTER_PORT %ld is inside the ephemeral range %ld-%ld", mport, lo, hi);
			finding_why(f, "Any outgoing connection on rank 0's node can take that port first; the "
				    "TCPStore then fails with 'address already in use'.");
			finding_fix(f, "sysctl -w net.ipv4.ip_local_reserved_ports=%ld", mport);
			finding_setting(f, WHERE_SYSCTL, SCOPE_NODE, "net.ipv4.ip_local_reserved_ports", "%ld",
					mport);
		}
	}
}

/*
 * A stand-in for "another node" on the network of `a`: MASTER_ADDR when it is in that subnet, else
 * the subnet's first host other than this one. Peers reach an interface from its own network, so
 * that is the source a firewall rule sees.
 */
static void peer_on(const struct net *n, const struct ifs_addr *a, char *buf, size_t len)
{
	const char *m = n->m->master.resolved;
	unsigned char b[16], net[16];
	int bytes = a->family == 4 ? 4 : 16, plen = a->prefixlen, fam;

	buf[0] = '\0';
	if (m && addr_parse(m, &fam, b) == 0 && fam == a->family &&
	    addr_same_subnet(a->family, b, a->addr, plen)) {
		snprintf(buf, len, "%s", m);
		return;
	}
	if (plen < 0 || plen > bytes * 8)
		return;
	memcpy(net, a->addr, 16);
	for (int i = 0; i < bytes; i++) {
		int bits = plen - i * 8;
		net[i] &= bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));
	}
	if (plen >= bytes * 8 - 1) {
		memcpy(net, a->addr, 16);
		net[bytes - 1] ^= plen == bytes * 8 ? 0 : 1;
	} else {
		net[bytes - 1] |= 1;
		if (!memcmp(net, a->addr, (size_t)bytes))
			net[bytes - 1] = (unsigned char)((net[bytes - 1] & ~3u) | 2);
	}
	inet_ntop(a->family == 4 ? AF_INET : AF_INET6, net, buf, (socklen_t)len);
}

/*
 * MASTER_PORT on rank 0's node: the ranks join over the interface MASTER_ADDR is on, so that
 * interface (and a peer on its network) is the only one whose firewall says anything about
 * them. A rule on another interface (a public eth0 while MASTER_ADDR is on eth1) is not a
 * finding. Returns whether it found a block.
 */
static int report_master_port(struct net *n)
{
	const struct node_model *nm = n->m;
	const char *ifn = nm->master.ifname;
	const struct ifs_addr *a = ifn ? node_model_addr(nm, ifn, 0) : NULL;
	char peer[INET6_ADDRSTRLEN] = "", subnet[80];
	struct fw_packet mp;
	struct fw_result mr;
	struct finding *f;

	if (!nm->fw || !nm->master.local || nm->master.loopback || !a)
		return 0;
	peer_on(n, a, peer, sizeof(peer));
	mp.family = a->family;
	mp.iface = ifn;
	mp.src = peer[0] ? peer : NULL;
	mp.port = nm->master.port;
	fw_eval(nm->fw, &mp, &mr);
	if (mr.verdict == FW_ACCEPT)
		return 0;
	addr_subnet_text(a->family, a->addr, a->prefixlen, a->text, subnet, sizeof(subnet));
	f = finding_add(n->out, mr.uncertain ? SEV_WARN : SEV_ERROR, "net.firewall.master_port",
			"the local firewall %s MASTER_PORT %ld on %s, the interface of MASTER_ADDR "
			"%s: ranks on %s cannot join", mr.verdict == FW_DROP ? N_("drops") : N_("rejects"),
			nm->master.port, ifn, str_or(nm->master.addr, a->text), subnet);
	if (mr.rule)
		finding_evidence(f, "rule: %s", mr.rule);
	else
		finding_evidence(f, "policy of chain %s", str_or(mr.chain, "?"));
	finding_evidence(f, "MASTER_ADDR %s is this node's %s address %s",
			 str_or(nm->master.addr, "?"), ifn, a->text);
	if (peer[0])
		finding_evidence(f, N_("evaluated for a peer at %s on %s's network"), peer, ifn);
	if (mr.uncertain)
		finding_evidence(f, "%s",
				 N_("some rules use matches ncclcheck does not model; verify by hand"));
	if (mr.source && !strcmp(mr.source, "nft"))
		finding_fix(f, "nft insert rule %s %s %s iifname \"%s\" %s saddr %s tcp dport %ld accept",
			    str_or(mr.family, "?"), str_or(mr.table, "?"), str_or(mr.chain, "?"), ifn,
			    a->family == 6 ? "ip6" : "ip", subnet, nm->master.port);
	else
		finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s --dport %ld -j ACCEPT", ifn,
			    subnet, nm->master.port);
	return 1;
}

static void report_firewall(struct net *n)
{
	const struct fw_model *m = n->m->fw;
	struct fw_span spans[64];
	long lo = n->m->ports.lo, hi = n->m->ports.hi;
	const char *ifnames[IFS_MAX_IFS + 1];
	int nif = 0, any = 0, uncertain = 0;
	struct finding *f;

	if (n->m->fw_unknown) {
		f = finding_add(n->out, SEV_INFO, "net.firewall.unreadable", "could not read the local firewall: %s",
				n->m->fw_unknown);
		finding_fix(f, N_("sudo ncclcheck node   # reading iptables/nftables rules needs root"));
		return;
	}
	if (!m)
		return;
	if (n->m->pred.boot)
		ifnames[nif++] = n->m->pred.boot->name;
	for (int i = 0; i < n->m->pred.sockets.n && nif < IFS_MAX_IFS; i++)
		if (!n->m->pred.boot || strcmp(n->m->pred.sockets.v[i]->name, n->m->pred.boot->name))
			ifnames[nif++] = n->m->pred.sockets.v[i]->name;
	for (int k = 0; k < nif; k++) {
		const struct ifs_addr *a = node_model_addr(n->m, ifnames[k], 0);
		int family = a ? a->family : 4;
		char peer[INET6_ADDRSTRLEN] = "";
		size_t ns;

		if (a)
			peer_on(n, a, peer, sizeof(peer));
		ns = fw_scan(m, family, ifnames[k], peer[0] ? peer : NULL, lo, hi, spans, 64);

		for (size_t i = 0; i < ns; i++) {
			char subnet[80] = "";

			uncertain |= spans[i].r.uncertain;
			if (spans[i].r.verdict == FW_ACCEPT)
				continue;
			any = 1;
			if (a)
				addr_subnet_text(a->family, a->addr, a->prefixlen, a->text, subnet, sizeof(subnet));
			f = finding_add(n->out, spans[i].r.uncertain ? SEV_WARN : SEV_ERROR, "net.firewall.blocks",
					"the local firewall %s incoming TCP %ld-%ld on %s: NCCL's listeners are there",
					spans[i].r.verdict == FW_DROP ? N_("drops") : N_("rejects"), spans[i].lo, spans[i].hi,
					ifnames[k]);
			if (spans[i].r.rule)
				finding_evidence(f, "rule: %s", spans[i].r.rule);
			else
				finding_evidence(f, "policy %s of chain %s (%s %s)",
						 spans[i].r.verdict == FW_DROP ? "DROP" : "REJECT", str_or(spans[i].r.chain, "?"),
						 str_or(spans[i].r.family, "?"), str_or(spans[i].r.table, "?"));
			finding_evidence(f, "sysctl.ip_local_port_range = %ld %ld", lo, hi);
			if (peer[0])
				finding_evidence(f, N_("evaluated for a peer at %s on %s's network"), peer, ifnames[k]);
			if (spans[i].r.uncertain)
				finding_evidence(f, "%s",
				 N_("some rules use matches ncclcheck does not model; verify by hand"));
			finding_why(f, "Other ranks connect to this node's ephemeral ports (bootstrap ring, proxy, "
				    "NET/Socket). %s", spans[i].r.verdict == FW_DROP
				    ? N_("Dropped SYNs make each connect time out after about two minutes, "
					 "retried up to 35 times: init appears to hang.")
				    : N_("Rejected connects fail at once with 'Connection refused' after "
					 "NCCL's retries."));
			if (!a)
				continue;	/* no network to scope an ACCEPT to: no fix line */
			if (spans[i].r.source && !strcmp(spans[i].r.source, "nft"))
				finding_fix(f, "nft insert rule %s %s %s iifname \"%s\" %s saddr %s tcp dport %ld-%ld accept",
					    str_or(spans[i].r.family, "?"), str_or(spans[i].r.table, "?"), str_or(spans[i].r.chain, "?"), ifnames[k],
					    family == 6 ? "ip6" : "ip", subnet, spans[i].lo, spans[i].hi);
			else
				finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s --dport %ld:%ld -j ACCEPT", ifnames[k],
					    subnet, spans[i].lo, spans[i].hi);
		}
	}
	any |= report_master_port(n);
	if (!any && nif) {
		f = finding_add(n->out, SEV_OK, "net.firewall.open",
				"the local firewall lets TCP %ld-%ld in on %s%s", lo, hi, ifnames[0],
				uncertain ? " (some rules could not be evaluated)" : "");
		finding_evidence(f, "%zu rules read from %s", n->m->fw_nrules, str_or(n->m->fw_source, "?"));
	}
}

void rule_net_ports(const struct node_model *m, struct findings *out)
{
	struct net n = { m, out };

	if (!m->have_ifs)
		return;
	report_ports(&n);
	report_firewall(&n);
}
