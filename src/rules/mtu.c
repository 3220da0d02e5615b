/*
 * MTU on the interfaces NCCL will use (the prediction of rules/ifselect.c). One node cannot see
 * the path to the others, so this only points at the set-ups where a path-MTU black hole is
 * likely — a jumbo MTU, or NCCL spread over interfaces of different MTUs — and gives the exact
 * command that proves the path. On the GPU machine such a black hole let the TCPStore and NCCL's
 * first bootstrap messages through and then hung init (docs/gpu-runs.md). Pure.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

#define MTU_MAX_IFS (IFS_MAX_IFS + 1)

struct nif {
	const struct ifs_addr *a;
	long mtu;
	const char *kind;
};

static void add(const struct node_model *m, const struct ifs_addr *a, struct nif *v, int *n)
{
	const struct nm_iface *it;

	/* link-local IPv6 reaches no other node through a router: not a path to judge */
	if (!a || !strncmp(a->name, "lo", 2) || ifs_addr_link_local(a) || *n >= MTU_MAX_IFS)
		return;
	for (int i = 0; i < *n; i++)
		if (!strcmp(v[i].a->name, a->name))
			return;
	it = node_model_iface(m, a->name);
	if (!it || it->mtu <= 0)
		return;
	v[*n].a = a;
	v[*n].mtu = it->mtu;
	v[*n].kind = it->kind;
	(*n)++;
}

/* MASTER_ADDR when the kernel reaches it through `a`'s interface and it is another node. */
static const char *peer_for(const struct node_model *m, const struct ifs_addr *a)
{
	const char *via = m->master.ifname, *r = m->master.resolved;

	if (!r || !via || strcmp(via, a->name) || m->master.local)
		return NULL;
	return r;
}

/* What the clouds say about MTU, when facts name the cloud (research/launch-and-cloud.md §2, §3.4). */
static const char *cloud_note(const struct node_model *m)
{
	const char *p = m->cloud.provider;

	if (!p)
		return "";
	if (!strcmp(p, "aws"))
		return " AWS: 9001 works inside one VPC; traffic through an internet gateway, a VPN or between "
		       "regions is limited to 1500 (8500 over inter-region peering), larger packets with "
		       "Don't Fragment set are dropped.";
	if (!strcmp(p, "alibaba"))
		return " Alibaba Cloud: jumbo frames are 8500 bytes, on the instance families that support "
		       "them; a path's MTU is the smallest of its hops.";
	if (!strcmp(p, "gcp"))
		return " GCP: every VM takes the MTU of its VPC network (1460 by default in third-party configs, "
		       "up to 8896; not checked against Google's documentation); a VM set by hand above it "
		       "black-holes large packets.";
	return "";
}

static void fix_ping(struct finding *f, const struct node_model *m, const struct nif *x)
{
	const char *peer = peer_for(m, x->a);
	int v6 = x->a->family == 6;
	long payload = x->mtu - (v6 ? 48 : 28);

	/* rank 0 when it is another node; else this node's own address, pinged from the others */
	finding_fix(f, N_("ping %s-M do -s %ld -c 3 %s   # from %s, over %s: "
		    "'message too long' or no reply = the path is smaller than %ld"), v6 ? "-6 " : "", payload,
		    peer ? peer : x->a->text, peer ? "every node to every other" : "every other node",
		    x->a->name, x->mtu);
}

void rule_mtu(const struct node_model *m, struct findings *out)
{
	const struct ifs_result *r = &m->pred;
	struct nif v[MTU_MAX_IFS];
	int n = 0, differ = 0;
	struct finding *f;

	if (!m->have_ifs)
		return;
	if (r->boot_status == IFS_OK)
		add(m, r->boot, v, &n);
	for (int i = 0; i < r->sockets.n; i++)
		add(m, r->sockets.v[i], v, &n);
	for (int i = 1; i < n; i++)
		differ |= v[i].mtu != v[0].mtu;

	if (differ) {
		struct strbuf sb = STRBUF_INIT;

		for (int i = 0; i < n; i++)
			strbuf_addf(&sb, "%s%s %ld", i ? ", " : "", v[i].a->name, v[i].mtu);
		f = finding_add(out, SEV_INFO, "net.mtu.differ", "NCCL's interfaces have different MTUs: %s", sb.buf);
		finding_evidence(f, "net.interfaces[].mtu: %s", sb.buf);
		finding_evidence(f, "NCCL %s: bootstrap %s, NET/Socket over %d interface(s)", m->nccl.version,
				 r->boot ? r->boot->name : "-", r->sockets.n);
		finding_why(f, "Each interface's MTU must hold on the whole path to the other nodes, and every node "
			    "must use the same MTU on the network it shares with the others: a node that sends "
			    "larger frames than a peer or a hop accepts gets its large packets dropped while "
			    "small ones pass. One node cannot see the others; check each path.%s", cloud_note(m));
		for (int i = 0; i < n; i++)
			if (v[i].mtu > 1500)
				fix_ping(f, m, &v[i]);
		strbuf_release(&sb);
	}
	for (int i = 0; i < n; i++) {
		const struct nif *x = &v[i];

		/* IPoIB's 2044/4092/65520 is set fabric-wide by the partition: not a cloud jumbo frame */
		if (x->mtu <= 1500 || (x->kind && !strcmp(x->kind, "ib")))
			continue;
		f = finding_add(out, SEV_INFO, "net.mtu.jumbo",
				"%s (NCCL's %s interface) has MTU %ld: every hop to the other nodes must carry "
				"%ld-byte packets", x->a->name, x->a == r->boot ? "bootstrap" : "NET/Socket", x->mtu,
				x->mtu);
		finding_evidence(f, "net.interfaces[%s].mtu = %ld", x->a->name, x->mtu);
		finding_evidence(f, "NCCL %s (%s)", m->nccl.version, m->nccl.why);
		finding_why(f, "Jumbo frames help only when the other nodes and every switch or router between "
			    "them accept them; otherwise full-size segments vanish (a path-MTU black hole) while "
			    "small messages pass. NCCL then connects, exchanges its first bootstrap messages and "
			    "hangs in init or in the first large transfer, with no error.%s", cloud_note(m));
		fix_ping(f, m, x);
		finding_fix(f, N_("ip link set dev %s mtu 1500   # on every node, if only the small ping "
			    "(-s %d) gets through"), x->a->name, x->a->family == 6 ? 1452 : 1472);
	}
}
