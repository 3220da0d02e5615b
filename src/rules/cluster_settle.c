/*
 * Settling a node's guesses by measurement. `ncclcheck node` sees one machine: it can suspect
 * that a container bridge, a public bootstrap address, docker0, a jumbo MTU or the local
 * firewall will break NCCL between nodes, but not know. `cluster` has measured every path, so
 * each such finding is confirmed (the link tests show the problem: kept, confidence high, the
 * link test named in its evidence, severity raised to error when the failure is on an interface
 * NCCL uses), withdrawn (the link tests disprove it: removed from the node's findings and listed
 * as settled) or left unsettled (no measurement speaks to it, e.g. --no-ports or --no-mtu).
 *
 * Pure: reads the cluster view and the node's findings, no I/O. Withdrawing needs every peer to
 * have measured the path; one failure is enough to confirm.
 */
#include "rules/cluster.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct settle_ctx {
	const struct cluster_view *v;
	size_t node;
	const struct node_model *m;
	const struct finding *f;
	char ev[CLUSTER_SETTLE_EVIDENCE];
	enum severity sev;	/* what a confirmed finding becomes at least */
	const struct cluster_link *by;	/* the failed link test that confirmed it */
};

typedef enum cluster_settle (*settle_judge_fn)(struct settle_ctx *c);

struct settle_rule {
	const char *id;
	const char *measured_by;	/* for people: which link test settles it */
	settle_judge_fn judge;
};

static void ev_set(struct settle_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void ev_set(struct settle_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->ev, sizeof(c->ev), fmt, ap);
	va_end(ap);
}

static const char *name_of(const struct settle_ctx *c, size_t i)
{
	return c->v->nodes[i].name ? c->v->nodes[i].name : "?";
}

static enum severity used_sev(const struct settle_ctx *c, const char *ifname)
{
	return cluster_nccl_uses(c->m, ifname) ? SEV_ERROR : SEV_WARN;
}

/* ---- the measurements ---- */

/* Whether `addr` (text) is on the subnet of this node's address on `ifname`. */
static int on_subnet(const struct node_model *m, const char *ifname, const char *addr)
{
	const struct ifs_addr *a = node_model_addr(m, ifname, 0);
	unsigned char b[16];
	int bits;

	if (!a || a->prefixlen < 0 ||
	    inet_pton(a->family == 6 ? AF_INET6 : AF_INET, addr, b) != 1)
		return 0;
	for (bits = 0; bits < a->prefixlen; bits++) {
		int k = bits / 8, mask = 0x80 >> (bits % 8);

		if ((a->addr[k] & mask) != (b[k] & mask))
			return 0;
	}
	return 1;
}

/* Another node with this node's IPv4 address on `ifname`: a peer that dials it reaches itself. */
static int duplicate_addr(struct settle_ctx *c, const char *ifname)
{
	const struct ifs_addr *a = node_model_addr(c->m, ifname, 4);

	if (!a)
		return 0;
	for (size_t j = 0; j < c->v->n; j++) {
		const struct node_model *mj = c->v->nodes[j].m;

		if (j == c->node || !mj)
			continue;
		for (size_t b = 0; b < mj->ifs.in.naddrs; b++) {
			const struct ifs_addr *bd = &mj->ifs.in.addrs[b];

			if (bd->family == 4 && !memcmp(bd->addr, a->addr, 4)) {
				ev_set(c, "%s on %s's %s is also %s's %s address (the nodes' facts "
				       "side by side, cluster.ip.duplicate): a peer that connects to it "
				       "reaches itself",
				       a->text, name_of(c, c->node), ifname, name_of(c, j), bd->name);
				return 1;
			}
		}
	}
	return 0;
}

/* The ports of [lo, hi] a scan tested, and whether any of them was closed (first closed run). */
static void scan_cover(const struct link_scan_result *s, long lo, long hi, long *tested,
		       const struct link_interval **closed)
{
	*tested = 0;
	*closed = NULL;
	for (size_t k = 0; k < s->niv; k++) {
		const struct link_interval *x = &s->iv[k];
		long a = x->lo > lo ? x->lo : lo, b = x->hi < hi ? x->hi : hi;

		/* a local failure on either side says nothing about the path */
		if (x->state == LINK_PORT_UNTESTED || x->state == LINK_PORT_ERROR || a > b)
			continue;
		*tested += b - a + 1;
		if (x->state != LINK_PORT_OPEN && x->state != LINK_PORT_IN_USE && !*closed)
			*closed = x;
	}
}

/*
 * The port scans into this node on `ifname` over [lo, hi]: CONFIRMED when one found a closed
 * port, WITHDRAWN when one tested every port and none found a closed one, else UNSETTLED.
 */
static enum cluster_settle ports_judge(struct settle_ctx *c, const char *ifname, long lo,
				       long hi, const char **full_by)
{
	const struct cluster_view *v = c->v;
	int full = 0, any = 0;

	*full_by = NULL;
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const struct link_interval *x;
		long tested;

		if (!l->ran || l->kind != LINK_SCAN || (size_t)l->target != c->node ||
		    strcmp(l->ifname, ifname))
			continue;
		any = 1;
		scan_cover(&l->res.s, lo, hi, &tested, &x);
		if (x) {
			long a = x->lo > lo ? x->lo : lo, b = x->hi < hi ? x->hi : hi;

			ev_set(c, "%s -> %s %s %s: ports %ld-%ld %s (the port scan of %ld-%ld)",
			       name_of(c, (size_t)l->peer), name_of(c, c->node), ifname, l->res.addr,
			       a, b, link_port_state_name(x->state), lo, hi);
			c->sev = used_sev(c, ifname);
			c->by = l;
			return CLUSTER_CONFIRMED;
		}
		if (tested == hi - lo + 1 && !full) {
			full = 1;
			*full_by = name_of(c, (size_t)l->peer);
		}
	}
	if (!any)
		ev_set(c, "no port scan of %s's %s (--no-ports, or the connect test failed)",
		       name_of(c, c->node), ifname);
	else if (!full)
		ev_set(c, "the scans of %s's %s sampled %ld-%ld without testing every port",
		       name_of(c, c->node), ifname, lo, hi);
	return full ? CLUSTER_WITHDRAWN : CLUSTER_UNSETTLED;
}

/*
 * Whether every peer can open NCCL's connections to this node on `ifname`: the connect test from
 * every peer, then the exact scan of the ephemeral port range (NCCL's listeners bind port 0).
 * `dup`: an address another node also has confirms it too (docker0's 172.17.0.1).
 */
static enum cluster_settle path_judge(struct settle_ctx *c, const char *ifname, int dup)
{
	const struct cluster_view *v = c->v;
	const struct ifs_addr *a = node_model_addr(c->m, ifname, 0);
	const char *full_by;
	enum cluster_settle ps;
	int r;

	if (dup && duplicate_addr(c, ifname)) {
		c->sev = used_sev(c, ifname);
		return CLUSTER_CONFIRMED;
	}
	r = cluster_if_reachable(v, c->node, ifname);
	if (r == 0) {
		for (size_t p = 0; p < v->n; p++) {
			const struct cluster_link *l = p == c->node ? NULL :
				cluster_link_of(v, LINK_CONNECT, p, c->node, ifname);
			const struct link_result *lr = l ? &l->res : NULL;

			if (lr && lr->c.status != LINK_OK) {
				c->by = l;
				ev_set(c, "%s -> %s %s %s:%u: %s (the connect test)", name_of(c, p),
				       name_of(c, c->node), ifname, lr->addr,
				       lr->c.ntries ? lr->c.tries[0].port : 0,
				       link_status_name(lr->c.status));
				break;
			}
		}
		c->sev = used_sev(c, ifname);
		return CLUSTER_CONFIRMED;
	}
	if (r < 0) {
		ev_set(c, "not every peer ran a connect test to %s's %s", name_of(c, c->node),
		       ifname);
		return CLUSTER_UNSETTLED;
	}
	ps = ports_judge(c, ifname, c->m->ports.lo, c->m->ports.hi, &full_by);
	if (ps != CLUSTER_WITHDRAWN)
		return ps;
	ev_set(c, "every peer (%zu) connects to %s's %s %s, and %s's scan of its port range "
	       "%ld-%ld found every port open (the connect test and the port scan)", v->n - 1,
	       name_of(c, c->node), ifname, a ? a->text : "?", full_by, c->m->ports.lo,
	       c->m->ports.hi);
	return CLUSTER_WITHDRAWN;
}

/*
 * The path MTU tests into this node on `ifname` and out of it towards peers on that subnet:
 * a black hole confirms; every peer's test passing (or a smaller hop that ICMP announces, which
 * TCP adapts to) withdraws.
 */
static enum cluster_settle mtu_judge(struct settle_ctx *c, const char *ifname)
{
	const struct cluster_view *v = c->v;
	size_t peers = 0, tests = 0;
	unsigned char *from = xcalloc(v->n ? v->n : 1, 1);	/* which peers tested inbound */
	int top = 0;

	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const struct link_mtu_result *r = &l->res.m;
		int in = (size_t)l->target == c->node && !strcmp(l->ifname, ifname);
		int out = (size_t)l->peer == c->node && on_subnet(c->m, ifname, l->res.addr);

		if (!l->ran || l->kind != LINK_MTU || !r->if_mtu || (!in && !out))
			continue;
		tests++;
		/* distinct peers: one peer's repeated test does not stand for another's path */
		if (in && (size_t)l->peer < v->n && (size_t)l->peer != c->node && !from[l->peer]) {
			from[l->peer] = 1;
			peers++;
		}
		if (r->blackhole && r->path_mtu < r->if_mtu) {
			ev_set(c, "%s -> %s %s %s: packets over %d bytes vanish, interface MTU %d, no "
			       "ICMP 'fragmentation needed' (the path MTU test)",
			       name_of(c, (size_t)l->peer), name_of(c, (size_t)l->target), l->ifname,
			       l->res.addr, r->path_mtu, r->if_mtu);
			c->sev = used_sev(c, ifname);
			free(from);
			c->by = l;
			return CLUSTER_CONFIRMED;
		}
		top = r->path_mtu > top ? r->path_mtu : top;
	}
	free(from);
	if (!peers || peers < v->n - 1) {
		ev_set(c, "not every peer ran a path MTU test to %s's %s (--no-mtu, or the connect "
		       "test failed)", name_of(c, c->node), ifname);
		return CLUSTER_UNSETTLED;
	}
	ev_set(c, "%zu path MTU tests over %s's %s, from and to every peer: no black hole, "
	       "largest packet %d bytes (the path MTU test)", tests, name_of(c, c->node), ifname,
	       top);
	return CLUSTER_WITHDRAWN;
}

/* ---- the judges: which interfaces a finding is about ---- */

/* The interface the title names between `before` and `after` ("makes docker0 eligible"), if real. */
static const char *title_ifname(const struct settle_ctx *c, const char *before, const char *after)
{
	const char *t = c->f->title, *p = before ? strstr(t, before) : t;

	if (!p)
		return NULL;
	p += before ? strlen(before) : 0;
	for (size_t k = 0; k < c->m->nifaces; k++) {
		const char *n = c->m->ifaces[k].name;
		size_t len = strlen(n);

		if (!strncmp(p, n, len) && !strncmp(p + len, after, strlen(after)))
			return n;
	}
	return NULL;
}

static const char *boot_ifname(const struct settle_ctx *c)
{
	return c->m->have_ifs && c->m->pred.boot ? c->m->pred.boot->name : NULL;
}

static enum cluster_settle unknown_if(struct settle_ctx *c)
{
	ev_set(c, "the interface it is about is not in %s's facts", name_of(c, c->node));
	return CLUSTER_UNSETTLED;
}

/* NCCL's bootstrap interface carries NCCL's connections (master_mismatch, public). */
static enum cluster_settle judge_boot(struct settle_ctx *c)
{
	const char *b = boot_ifname(c);

	return b ? path_judge(c, b, 0) : unknown_if(c);
}

/* docker0 as NCCL's bootstrap, or made eligible by an exclude list: also its duplicate address. */
static enum cluster_settle judge_boot_docker(struct settle_ctx *c)
{
	const char *b = boot_ifname(c);

	return b ? path_judge(c, b, 1) : unknown_if(c);
}

static enum cluster_settle judge_docker_eligible(struct settle_ctx *c)
{
	const char *d = title_ifname(c, " makes ", " eligible");

	return d ? path_judge(c, d, 1) : unknown_if(c);
}

/*
 * Every interface NCCL uses (bootstrap and NET/Socket): confirmed when one fails, withdrawn
 * when all pass, else unsettled. `mtu` picks the path MTU measurement instead of the path one.
 */
static enum cluster_settle nccl_ifs(struct settle_ctx *c, int mtu)
{
	const char *names[IFS_MAX_IFS + 1];
	char first_ok[CLUSTER_SETTLE_EVIDENCE] = "";
	int n = 0;
	const struct ifs_result *r = &c->m->pred;

	if (!c->m->have_ifs)
		return unknown_if(c);
	if (r->boot)
		names[n++] = r->boot->name;
	for (int k = 0; k < r->sockets.n && n < IFS_MAX_IFS + 1; k++)
		if (!r->boot || strcmp(r->sockets.v[k]->name, r->boot->name))
			names[n++] = r->sockets.v[k]->name;
	if (!n)
		return unknown_if(c);
	for (int k = 0; k < n; k++) {
		enum cluster_settle s = mtu ? mtu_judge(c, names[k]) : path_judge(c, names[k], 0);

		if (s != CLUSTER_WITHDRAWN)
			return s;	/* one failure confirms; one unmeasured leaves it open */
		if (!first_ok[0])
			memcpy(first_ok, c->ev, sizeof(first_ok));
	}
	if (n > 1)
		ev_set(c, "%.300s; and so on NCCL's other %d interface(s)", first_ok, n - 1);
	return CLUSTER_WITHDRAWN;
}

static enum cluster_settle judge_nccl_paths(struct settle_ctx *c)
{
	return nccl_ifs(c, 0);
}

static enum cluster_settle judge_nccl_mtu(struct settle_ctx *c)
{
	return nccl_ifs(c, 1);
}

/* net.mtu.jumbo names its interface first: "eth1 (NCCL's NET/Socket interface) has MTU 9000". */
static enum cluster_settle judge_jumbo(struct settle_ctx *c)
{
	const char *i = title_ifname(c, NULL, " (");

	return i ? mtu_judge(c, i) : unknown_if(c);
}

/* "the local firewall drops incoming TCP 32768-60999 on eth0: ..." */
static enum cluster_settle judge_firewall(struct settle_ctx *c)
{
	const char *p = strstr(c->f->title, " incoming TCP ");
	const char *i = title_ifname(c, " on ", ":"), *full_by;
	long lo, hi;

	if (!p || sscanf(p, " incoming TCP %ld-%ld", &lo, &hi) != 2 || lo < 1 || hi > 65535 ||
	    lo > hi || !i)
		return unknown_if(c);
	switch (ports_judge(c, i, lo, hi, &full_by)) {
	case CLUSTER_CONFIRMED:
		return CLUSTER_CONFIRMED;
	case CLUSTER_WITHDRAWN:
		ev_set(c, "%s -> %s %s: every port of %ld-%ld open (the exact port scan): the rule "
		       "does not drop NCCL's connections from the peers", full_by,
		       name_of(c, c->node), i, lo, hi);
		return CLUSTER_WITHDRAWN;
	default:
		return CLUSTER_UNSETTLED;
	}
}

/*
 * "the local firewall drops MASTER_PORT 29500 on eth1, the interface of MASTER_ADDR ...": the
 * cluster's own rendezvous is that join. A view with every peer's facts means every peer
 * reached rank 0 — on MASTER_ADDR:MASTER_PORT when each peer was given the same ones (their
 * facts say so). Only rank 0's node (MASTER_ADDR local) is judged; a node that was not the
 * rendezvous, or a peer given another address or port, leaves it unsettled.
 */
static enum cluster_settle judge_master_port(struct settle_ctx *c)
{
	const struct nm_master *mm = &c->m->master;
	size_t peers = 0;

	if (!mm->local || !mm->addr) {
		ev_set(c, "%s is not MASTER_ADDR's node", name_of(c, c->node));
		return CLUSTER_UNSETTLED;
	}
	for (size_t j = 0; j < c->v->n; j++) {
		const struct node_model *mj = c->v->nodes[j].m;

		if (j == c->node)
			continue;
		if (!mj || !mj->master.addr || strcmp(mj->master.addr, mm->addr) ||
		    mj->master.port != mm->port) {
			ev_set(c, "%s's facts do not show it joining through MASTER_ADDR %s:%ld",
			       name_of(c, j), mm->addr, mm->port);
			return CLUSTER_UNSETTLED;
		}
		peers++;
	}
	if (!peers) {
		ev_set(c, "no peer joined");
		return CLUSTER_UNSETTLED;
	}
	ev_set(c, "every peer (%zu) joined this run's rendezvous at MASTER_ADDR %s:%ld on %s: the "
	       "rule does not stop them (the rendezvous itself)", peers, mm->addr, mm->port,
	       name_of(c, c->node));
	return CLUSTER_WITHDRAWN;
}

/*
 * The settleable guesses. Not here, on purpose: net.ifname.lo_eligible (loopback is never link-tested), net.ports.* (facts about the range,
 * not guesses about the paths), link-local and RDMA findings (no socket test speaks to them).
 */
static const struct settle_rule settle_rules[] = {
	/* the bootstrap interface is not MASTER_ADDR's: settled by whether every peer reaches it */
	{ .id = "net.bootstrap.master_mismatch", .measured_by = "connect + port scan",
	  .judge = judge_boot },
	/* a public bootstrap address while a private one exists: the same question */
	{ .id = "net.bootstrap.public", .measured_by = "connect + port scan", .judge = judge_boot },
	/* docker0 as the bootstrap: a duplicate address or a failed connect confirms */
	{ .id = "net.bootstrap.docker", .measured_by = "connect + port scan, duplicate addresses",
	  .judge = judge_boot_docker },
	/* an exclude list leaves docker0 in: the same, on the interface the title names */
	{ .id = "net.ifname.docker_eligible",
	  .measured_by = "connect + port scan, duplicate addresses", .judge = judge_docker_eligible },
	/* more NET/Socket interfaces than MASTER_ADDR's: every one must be reachable */
	{ .id = "net.socket.extra_interfaces", .measured_by = "connect + port scan",
	  .judge = judge_nccl_paths },
	/* a bridged container: do the peers reach NCCL's interfaces and ports here? */
	{ .id = "cloud.container.bridge", .measured_by = "connect + port scan",
	  .judge = judge_nccl_paths },
	/* MASTER_PORT closed on MASTER_ADDR's interface: every peer joining disproves it */
	{ .id = "net.firewall.master_port", .measured_by = "the rendezvous",
	  .judge = judge_master_port },
	/* the local firewall closes part of the range on an interface: the exact scan says */
	{ .id = "net.firewall.blocks", .measured_by = "port scan", .judge = judge_firewall },
	/* a jumbo MTU on one interface: the path MTU tests over it */
	{ .id = "net.mtu.jumbo", .measured_by = "path MTU", .judge = judge_jumbo },
	/* MTUs that differ, and the clouds' MTU notes: the path MTU tests over NCCL's interfaces */
	{ .id = "net.mtu.differ", .measured_by = "path MTU", .judge = judge_nccl_mtu },
	{ .id = "cloud.gcp.mtu", .measured_by = "path MTU", .judge = judge_nccl_mtu },
	{ .id = "cloud.alibaba.mtu", .measured_by = "path MTU", .judge = judge_nccl_mtu },
};

static const struct settle_rule *rule_for(const char *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(settle_rules); i++)
		if (!strcmp(settle_rules[i].id, id))
			return &settle_rules[i];
	return NULL;
}

int cluster_settleable(const char *id)
{
	return id && rule_for(id) != NULL;
}

static void entry_add(struct cluster_settled *out, const struct finding *f, enum cluster_settle vd,
		      const char *ev, const struct cluster_link *by)
{
	struct cluster_settle_entry *e;

	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	e = &out->v[out->n++];
	e->f = f;
	e->verdict = vd;
	e->by = vd == CLUSTER_CONFIRMED ? by : NULL;
	snprintf(e->evidence, sizeof(e->evidence), "%s", ev);
	out->nconfirmed += vd == CLUSTER_CONFIRMED;
	out->nwithdrawn += vd == CLUSTER_WITHDRAWN;
	out->nunsettled += vd == CLUSTER_UNSETTLED;
}

void cluster_settle(const struct cluster_view *v, size_t node, struct findings *fs,
		    struct cluster_settled *out)
{
	size_t keep = 0;

	out->done = 1;
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = fs->v[i];
		const struct settle_rule *rule = rule_for(f->id);
		struct settle_ctx c = { .v = v, .node = node, .f = f, .sev = f->sev };
		enum cluster_settle vd;

		if (!rule || node >= v->n || !v->nodes[node].m || f->sev == SEV_OK) {
			fs->v[keep++] = f;
			continue;
		}
		c.m = v->nodes[node].m;
		vd = rule->judge(&c);
		if (vd == CLUSTER_WITHDRAWN) {
			finding_evidence(f, "withdrawn by measurement: %s", c.ev);
			ALLOC_GROW(out->withdrawn->v, out->withdrawn->n + 1, out->withdrawn->alloc);
			out->withdrawn->v[out->withdrawn->n++] = f;
		} else {
			if (vd == CLUSTER_CONFIRMED) {
				finding_evidence(f, "confirmed by measurement: %s", c.ev);
				f->conf = CONF_HIGH;
				if (c.sev > f->sev)
					f->sev = c.sev;
			}
			fs->v[keep++] = f;
		}
		entry_add(out, f, vd, c.ev, c.by);
	}
	fs->n = keep;
}
