/*
 * Cause, then consequences. One fault makes many findings: a node that drops part of its port
 * range fails the connect test whenever the test's port lands there, which confirms the node's
 * own guesses about that interface and leaves no interface "every peer reaches". Counting each
 * would bury the one fix under errors that are not separate problems, and accuse an interface
 * that works. So, after every rule and the settling have run:
 *
 *   1. the port-range findings (link.ports.blocked) with the same closed ports on several
 *      nodes or interfaces group into one root cause (link.ports.range: "a and b drop TCP
 *      ports A-B on eth0 and eth1", one fix block with each node's exact commands); the
 *      members fold under it (a single one is its own root);
 *   2. the fold table below folds each finding that a root explains, by a predicate on the
 *      measurements of the subjects (node, interface, the ports the tests used);
 *   3. a folded finding names its root in caused_by and does not count (finding.h).
 *
 * Pure: reads the view, rewrites caused_by in the findings it is given.
 */
#include "rules/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int node_index(const struct cluster_view *v, const char *name)
{
	for (size_t i = 0; name && i < v->n; i++)
		if (v->nodes[i].name && !strcmp(v->nodes[i].name, name))
			return (int)i;
	return -1;
}

static int closed_state(enum link_port_state s)
{
	return s == LINK_PORT_DROPPED || s == LINK_PORT_REJECTED || s == LINK_PORT_UNREACH;
}

/* Whether the scan from `peer` into `target`'s `ifname` found `port` closed. */
static int port_closed(const struct cluster_view *v, size_t peer, size_t target,
		       const char *ifname, unsigned port)
{
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];

		if (!l->ran || l->kind != LINK_SCAN || (size_t)l->peer != peer ||
		    (size_t)l->target != target || strcmp(l->ifname, ifname))
			continue;
		for (size_t k = 0; k < l->res.s.niv; k++) {
			const struct link_interval *x = &l->res.s.iv[k];

			if (closed_state(x->state) && x->lo <= port && port <= x->hi)
				return 1;
		}
	}
	return 0;
}

/*
 * A connect test `l` that failed only because every port it tried lies in a range the peer's
 * own scan of that interface found closed: the interface works, the port did not.
 */
static int connect_hit_closed(const struct cluster_view *v, const struct cluster_link *l)
{
	const struct link_connect_result *c = &l->res.c;

	if (!l->ran || l->kind != LINK_CONNECT || c->status == LINK_OK || c->ntries <= 0)
		return 0;
	for (int t = 0; t < c->ntries; t++)
		if (c->tries[t].status != LINK_OK &&
		    !port_closed(v, (size_t)l->peer, (size_t)l->target, l->ifname,
				 c->tries[t].port))
			return 0;
	return 1;
}

/*
 * Whether every failed connect test into node `x` over `ifname` is explained by a closed port
 * (and at least one failed). `peer` >= 0: only that peer's tests must be, and there must be one.
 */
static int failures_all_closed(const struct cluster_view *v, size_t x, const char *ifname,
			       int peer)
{
	int failed = 0;

	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];

		if (!l->ran || l->kind != LINK_CONNECT || (size_t)l->target != x ||
		    strcmp(l->ifname, ifname) || l->res.c.status == LINK_OK)
			continue;
		if (!connect_hit_closed(v, l))
			return 0;
		failed += peer < 0 || l->peer == peer;
	}
	return failed > 0;
}

/* ---- the fold table ---- */

struct fold_ctx {
	const struct cluster_view *v;
	const struct cluster_verdict *vd;
	const struct findings *out;
};

/*
 * explains(ctx, cause, f, by): whether the root `cause` explains `f`. For a node's own
 * confirmed guess `by` is the failed link test that confirmed it (else NULL).
 */
struct fold_rule {
	const char *cause;
	const char *consequence;
	int (*explains)(const struct fold_ctx *c, const struct finding *cause,
			const struct finding *f, const struct cluster_link *by);
};

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* link.ports.blocked on X over I explains "X's I is unreachable" when every failed connect
 * into X over I tried only ports the scans found closed */
static int ports_explain_unreachable(const struct fold_ctx *c, const struct finding *cause,
				     const struct finding *f, const struct cluster_link *by)
{
	int x = node_index(c->v, f->node);

	(void)by;
	return x >= 0 && same(cause->node, f->node) && same(cause->ifname, f->ifname) &&
	       failures_all_closed(c->v, (size_t)x, f->ifname, node_index(c->v, cause->peer));
}

/*
 * ... and a test from X over I that could not open its connection to a peer whose connect test
 * from X over I worked: X's own source port (from the same ephemeral range) landed in the
 * closed ports, and a filter that keeps no connection state drops the peer's replies to it too.
 * NCCL's connections from X fail the same way; the fix that moves the range covers both.
 */
static int ports_explain_outgoing(const struct fold_ctx *c, const struct finding *cause,
				  const struct finding *f, const struct cluster_link *by)
{
	int x = node_index(c->v, f->node), y = node_index(c->v, f->peer);
	const struct link_result *r;

	(void)by;
	if (x < 0 || y < 0 || !same(cause->node, f->node) || !same(cause->ifname, f->ifname))
		return 0;
	r = cluster_link_find(c->v, LINK_CONNECT, (size_t)x, (size_t)y, f->ifname);
	return r && r->c.status == LINK_OK;
}

/* ... and a node's own guess that a connect test into X over I confirmed, when that test hit a
 * closed port; and the node's own firewall guess on I, which the scan confirmed: the same
 * firewall seen from inside */
static int ports_explain_guess(const struct fold_ctx *c, const struct finding *cause,
			       const struct finding *f, const struct cluster_link *by)
{
	int x = node_index(c->v, f->node);

	if (x < 0 || !by || !same(cause->node, f->node) || by->target != x ||
	    strcmp(by->ifname, cause->ifname ? cause->ifname : ""))
		return 0;
	/* the scan that confirmed it found the block's closed ports */
	if (by->kind == LINK_SCAN)
		return 1;
	return connect_hit_closed(c->v, by);
}

/* an unreachable interface explains the other tests into it that failed: X's I, from a peer
 * whose connect test into X's I failed */
static int unreachable_explains_test(const struct fold_ctx *c, const struct finding *cause,
				     const struct finding *f, const struct cluster_link *by)
{
	/* link.mtu.blackhole is about the target (node); the tests' own failures about the
	 * client (node) and the target (peer) */
	int mtu = !strcmp(f->id, "link.mtu.blackhole");
	const char *target = mtu ? f->node : f->peer, *client = mtu ? f->peer : f->node;
	int t = node_index(c->v, target), p = node_index(c->v, client);
	const struct link_result *r;

	(void)by;
	if (t < 0 || p < 0 || !same(cause->node, target) || !same(cause->ifname, f->ifname))
		return 0;
	r = cluster_link_find(c->v, LINK_CONNECT, (size_t)p, (size_t)t, f->ifname);
	return r && r->c.status != LINK_OK;
}

/* the verdict's proven NCCL_SOCKET_IFNAME moves NCCL off X's I: what was wrong with I on X
 * no longer matters to the job */
static int verdict_moots(const struct fold_ctx *c, const struct finding *cause,
			 const struct finding *f, const struct cluster_link *by)
{
	int x = node_index(c->v, f->node);
	const char *ifn = by ? by->ifname : f->ifname;

	(void)cause;
	if (x < 0 || !ifn || !c->vd->ok || c->vd->already || !c->vd->ifname[x])
		return 0;
	if (by && by->target != x)
		return 0;
	return strcmp(c->vd->ifname[x], ifn) != 0;
}

/* every node has an interface whose failures are all closed ports: the port range is the
 * verdict, not "no interface works" */
static int ports_explain_no_verdict(const struct fold_ctx *c, const struct finding *cause,
				    const struct finding *f, const struct cluster_link *by)
{
	(void)cause;
	(void)f;
	(void)by;
	for (size_t x = 0; x < c->v->n; x++) {
		const struct node_model *m = c->v->nodes[x].m;
		int ok = 0;

		for (size_t k = 0; m && k < m->nifaces && !ok; k++) {
			const char *ifn = m->ifaces[k].name;

			ok = cluster_if_reachable(c->v, x, ifn) == 1 ||
			     failures_all_closed(c->v, x, ifn, -1);
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* every connect test that failed anywhere hit closed ports (and one did): the verdict's move
 * to another interface is not needed, the port range fix is */
static int ports_explain_verdict_move(const struct fold_ctx *c, const struct finding *cause,
				      const struct finding *f, const struct cluster_link *by)
{
	int failed = 0;

	(void)cause;
	(void)f;
	(void)by;
	for (size_t i = 0; i < c->v->nlinks; i++) {
		const struct cluster_link *l = &c->v->links[i];

		if (!l->ran || l->kind != LINK_CONNECT || l->res.c.status == LINK_OK)
			continue;
		if (!connect_hit_closed(c->v, l))
			return 0;
		failed++;
	}
	return failed > 0;
}

/* The MTU test a link.mtu.blackhole finding is about (node: the target, peer: the client). */
static const struct cluster_link *mtu_link_of(const struct cluster_view *v, const struct finding *f)
{
	int t = node_index(v, f->node), p = node_index(v, f->peer);

	for (size_t i = 0; t >= 0 && p >= 0 && i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];

		if (l->ran && l->kind == LINK_MTU && l->target == t && l->peer == p &&
		    same(l->ifname, f->ifname) && l->res.m.blackhole)
			return l;
	}
	return NULL;
}

static size_t index_in(const struct findings *out, const struct finding *f)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i] == f)
			return i;
	return (size_t)-1;
}

/* one black hole seen from several pairs: the same interface, the same size that passes; the
 * first one reported is the root */
static int same_black_hole(const struct fold_ctx *c, const struct finding *cause,
			   const struct finding *f, const struct cluster_link *by)
{
	const struct cluster_link *a = mtu_link_of(c->v, cause), *b = mtu_link_of(c->v, f);

	(void)by;
	return a && b && same(cause->ifname, f->ifname) &&
	       a->res.m.path_mtu == b->res.m.path_mtu && a->res.m.if_mtu == b->res.m.if_mtu &&
	       index_in(c->out, cause) < index_in(c->out, f);
}

/* a node's MTU guess that a black hole on that interface confirmed */
static int black_hole_explains_guess(const struct fold_ctx *c, const struct finding *cause,
				     const struct finding *f, const struct cluster_link *by)
{
	const struct cluster_link *a = mtu_link_of(c->v, cause);
	int x = node_index(c->v, f->node);

	return a && by && x >= 0 && by->kind == LINK_MTU && by->res.m.blackhole &&
	       same(by->ifname, cause->ifname) && (by->target == x || by->peer == x) &&
	       by->res.m.path_mtu == a->res.m.path_mtu;
}

/* a bulk transfer that stalls between the two ends of a black hole on that interface: the
 * full-size segments vanished */
static int black_hole_explains_stall(const struct fold_ctx *c, const struct finding *cause,
				     const struct finding *f, const struct cluster_link *by)
{
	(void)by;
	return mtu_link_of(c->v, cause) && same(cause->ifname, f->ifname) &&
	       ((same(cause->node, f->node) && same(cause->peer, f->peer)) ||
		(same(cause->node, f->peer) && same(cause->peer, f->node)));
}

/* a slow link between the two ends of a black hole whose bandwidth was measured over the
 * black hole's interface: its full-size segments vanish and are sent again smaller, so the
 * transfer crawls; the black hole is the cause, fixing it is the fix. The finding of the
 * cluster-wide bandwidth verdict names no interface: the pair's measured flows say which */
static int black_hole_explains_slow(const struct fold_ctx *c, const struct finding *cause,
				    const struct finding *f, const struct cluster_link *by)
{
	int a = node_index(c->v, f->node), b = node_index(c->v, f->peer);

	(void)by;
	if (!mtu_link_of(c->v, cause) || a < 0 || b < 0 ||
	    !((same(cause->node, f->node) && same(cause->peer, f->peer)) ||
	      (same(cause->node, f->peer) && same(cause->peer, f->node))))
		return 0;
	if (f->ifname)
		return same(cause->ifname, f->ifname);
	for (size_t i = 0; i < c->v->nlinks; i++) {
		const struct cluster_link *l = &c->v->links[i];

		if (l->ran && l->kind == LINK_BW && same(l->ifname, cause->ifname) &&
		    ((l->peer == a && l->target == b) || (l->peer == b && l->target == a)))
			return 1;
	}
	return 0;
}

static const struct fold_rule fold_rules[] = {
	{ .cause = "link.ports.blocked", .consequence = "cluster.link.unreachable",
	  .explains = ports_explain_unreachable },
	{ .cause = "link.ports.blocked", .consequence = "cluster.link.failed",
	  .explains = ports_explain_outgoing },
	{ .cause = "link.ports.blocked", .consequence = "net.bootstrap.master_mismatch",
	  .explains = ports_explain_guess },
	{ .cause = "link.ports.blocked", .consequence = "net.bootstrap.public",
	  .explains = ports_explain_guess },
	{ .cause = "link.ports.blocked", .consequence = "net.socket.extra_interfaces",
	  .explains = ports_explain_guess },
	{ .cause = "link.ports.blocked", .consequence = "cloud.container.bridge",
	  .explains = ports_explain_guess },
	{ .cause = "link.ports.blocked", .consequence = "net.firewall.blocks",
	  .explains = ports_explain_guess },
	{ .cause = "link.ports.blocked", .consequence = "cluster.verdict.none",
	  .explains = ports_explain_no_verdict },
	{ .cause = "link.ports.blocked", .consequence = "cluster.verdict.ifname",
	  .explains = ports_explain_verdict_move },
	{ .cause = "cluster.link.unreachable", .consequence = "link.mtu.blackhole",
	  .explains = unreachable_explains_test },
	{ .cause = "link.mtu.blackhole", .consequence = "link.mtu.blackhole",
	  .explains = same_black_hole },
	{ .cause = "link.mtu.blackhole", .consequence = "link.bw.stalled",
	  .explains = black_hole_explains_stall },
	{ .cause = "link.mtu.blackhole", .consequence = "link.bw.slow_link",
	  .explains = black_hole_explains_slow },
	{ .cause = "link.mtu.blackhole", .consequence = "net.mtu.jumbo",
	  .explains = black_hole_explains_guess },
	{ .cause = "link.mtu.blackhole", .consequence = "net.mtu.differ",
	  .explains = black_hole_explains_guess },
	{ .cause = "link.mtu.blackhole", .consequence = "cloud.gcp.mtu",
	  .explains = black_hole_explains_guess },
	{ .cause = "link.mtu.blackhole", .consequence = "cloud.alibaba.mtu",
	  .explains = black_hole_explains_guess },
	{ .cause = "cluster.link.unreachable", .consequence = "link.bw.stalled",
	  .explains = unreachable_explains_test },
	{ .cause = "cluster.link.unreachable", .consequence = "cluster.link.failed",
	  .explains = unreachable_explains_test },
	{ .cause = "cluster.verdict.ifname", .consequence = "cluster.link.unreachable",
	  .explains = verdict_moots },
	{ .cause = "cluster.verdict.ifname", .consequence = "net.bootstrap.master_mismatch",
	  .explains = verdict_moots },
	{ .cause = "cluster.verdict.ifname", .consequence = "net.bootstrap.public",
	  .explains = verdict_moots },
	{ .cause = "cluster.verdict.ifname", .consequence = "cloud.container.bridge",
	  .explains = verdict_moots },
	{ .cause = "cluster.verdict.ifname", .consequence = "net.firewall.blocks",
	  .explains = verdict_moots },
};

/* The root `f` is folded under (following caused_by through `out`), or f itself. */
static const struct finding *root_of(const struct findings *out, const struct finding *f)
{
	for (int depth = 0; depth < 8 && f->caused_by; depth++) {
		const struct finding *up = NULL;

		for (size_t i = 0; i < out->n && !up; i++)
			if (finding_cause_is(f, out->v[i]))
				up = out->v[i];
		if (!up)
			break;
		f = up;
	}
	return f;
}

/* Folds `f` under the first cause the table finds for it in `out`; 1 if it did. */
static int fold_one(const struct fold_ctx *c, struct findings *out, struct finding *f,
		    const struct cluster_link *by)
{
	if (finding_folded(f) || f->sev < SEV_WARN)
		return 0;
	for (size_t r = 0; r < ARRAY_SIZE(fold_rules); r++) {
		const struct fold_rule *rule = &fold_rules[r];

		if (strcmp(rule->consequence, f->id))
			continue;
		for (size_t i = 0; i < out->n; i++) {
			const struct finding *cause = out->v[i];

			if (cause == f || strcmp(cause->id, rule->cause) || cause->sev < SEV_WARN ||
			    !rule->explains(c, cause, f, by))
				continue;
			cause = root_of(out, cause);
			if (cause == f)
				continue;
			finding_caused_by(f, cause);
			return 1;
		}
	}
	return 0;
}

/* ---- grouping the port-range findings ---- */

struct member {
	struct finding *f;
	const struct cluster_link *scan;
	int node;
	char key[256];		/* the closed intervals, and the open range to move into */
};

/*
 * The scan a link.ports.blocked finding shows: its peer's, or, for the one finding per target
 * and interface (no peer), the scan of that interface that found the most closed ports.
 */
static const struct cluster_link *scan_of(const struct cluster_view *v, const struct finding *f)
{
	int t = node_index(v, f->node), p = f->peer ? node_index(v, f->peer) : -1;
	const struct cluster_link *best = NULL;
	long most = 0;

	for (size_t i = 0; t >= 0 && i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const struct link_scan_result *s = &l->res.s;
		long closed;

		if (!l->ran || l->kind != LINK_SCAN || l->target != t || !same(l->ifname, f->ifname))
			continue;
		if (f->peer) {
			if (l->peer == p)
				return l;
			continue;
		}
		closed = 0;
		for (size_t k = 0; k < s->niv; k++)
			if (closed_state(s->iv[k].state))
				closed += (long)s->iv[k].hi - s->iv[k].lo + 1;
		if (closed > most) {
			most = closed;
			best = l;
		}
	}
	return best;
}

static void closed_text(const struct link_scan_result *s, struct strbuf *sb, char *verb,
			size_t n)
{
	int drop = 0, rej = 0, shown = 0, more = 0;

	for (size_t k = 0; k < s->niv; k++) {
		const struct link_interval *x = &s->iv[k];

		if (!closed_state(x->state))
			continue;
		drop += x->state != LINK_PORT_REJECTED;
		rej += x->state == LINK_PORT_REJECTED;
		/* a title, not a port map: the scan's evidence has every range */
		if (shown == 8) {
			more++;
			continue;
		}
		shown++;
		if (x->lo == x->hi)
			strbuf_addf(sb, "%s%u", sb->len ? ", " : "", x->lo);
		else
			strbuf_addf(sb, "%s%u-%u", sb->len ? ", " : "", x->lo, x->hi);
	}
	if (more)
		strbuf_addf(sb, " and %d more range%s", more, more == 1 ? "" : "s");
	snprintf(verb, n, "%s", drop && rej ? "close" : rej ? "reject" : "drop");
}

/* Whether v[i] already stood at an earlier index. */
static int seen_before(const char *const *v, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(v[i], v[j]))
			return 1;
	return 0;
}

/* "a", "a and b", "a, b and c" of the distinct strings in v[0..n) */
static void and_list(const char *const *v, size_t n, struct strbuf *sb)
{
	struct strbuf head = STRBUF_INIT;
	const char *last = NULL;

	for (size_t i = 0; i < n; i++) {
		if (seen_before(v, i))
			continue;
		if (last)
			strbuf_addf(&head, "%s%s", head.len ? ", " : "", last);
		last = v[i];
	}
	/* the last pair as a format of its own: "a 和 b" in a translation (util/i18n.h) */
	if (head.len)
		strbuf_addf(sb, N_("%s and %s"), head.buf, last);
	else if (last)
		strbuf_addstr(sb, last);
	strbuf_release(&head);
}

/*
 * The addresses of the peers whose scans of node `x`'s `ifname` met closed ports, comma-
 * separated: every sampler, not only the scan a member shows (link.ports.blocked is one
 * finding per target and interface).
 */
static void peer_addrs(const struct cluster_view *v, int x, const char *ifname, struct strbuf *sb)
{
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const char *a = l->res.src;
		const struct ifs_addr *pa;
		int closed = 0;

		if (!l->ran || l->kind != LINK_SCAN || l->target != x || strcmp(l->ifname, ifname))
			continue;
		for (size_t k = 0; k < l->res.s.niv; k++)
			closed |= closed_state(l->res.s.iv[k].state);
		if (!closed)
			continue;
		if (!a[0]) {
			pa = v->nodes[l->peer].m ? node_model_addr(v->nodes[l->peer].m, ifname, 0)
						 : NULL;
			a = pa ? pa->text : NULL;
		}
		if (a)
			strbuf_add_unique(sb, a);
	}
}

/* One finding for the members of[0..n) that share a key: the root cause. */
static void group_add(const struct cluster_view *v, struct member *mb, size_t n,
		      struct findings *out)
{
	const char **nodes = xcalloc(n, sizeof(*nodes)), **ifs = xcalloc(n, sizeof(*ifs));
	struct strbuf closed = STRBUF_INIT, title = STRBUF_INIT, sb = STRBUF_INIT;
	enum severity sev = SEV_WARN;
	const struct setting *st;
	const struct link_interval **civ;
	size_t ncl = 0;
	int full = 1;
	struct finding *g;
	char verb[16];

	closed_text(&mb[0].scan->res.s, &closed, verb, sizeof(verb));
	for (size_t i = 0; i < n; i++) {
		nodes[i] = mb[i].f->node;
		ifs[i] = mb[i].f->ifname;
		sev = mb[i].f->sev > sev ? mb[i].f->sev : sev;
	}
	/* every node on every interface named, or per node */
	for (size_t a = 0; a < n && full; a++)
		for (size_t b = 0; b < n && full; b++) {
			int found = 0;

			for (size_t k = 0; k < n && !found; k++)
				found = !strcmp(nodes[k], nodes[a]) && !strcmp(ifs[k], ifs[b]);
			full = found;
		}
	{
		size_t nn = 0;

		for (size_t i = 0; i < n; i++)
			nn += !seen_before(nodes, i);
		if (full) {
			/* whole sentences, not pieces: a translation words each (util/i18n.h) */
			static const char *const fmt[2][3] = {
				{ N_("%s drop TCP ports %s on %s"), N_("%s reject TCP ports %s on %s"),
				  N_("%s close TCP ports %s on %s") },
				{ N_("%s drops TCP ports %s on %s"), N_("%s rejects TCP ports %s on %s"),
				  N_("%s closes TCP ports %s on %s") },
			};
			struct strbuf who = STRBUF_INIT, where = STRBUF_INIT;
			int k = !strcmp(verb, "drop") ? 0 : !strcmp(verb, "reject") ? 1 : 2;

			and_list(nodes, n, &who);
			and_list(ifs, n, &where);
			strbuf_addf(&title, fmt[nn == 1][k], who.buf, closed.buf, where.buf);
			strbuf_release(&who);
			strbuf_release(&where);
		} else {
			const char **pairs = xcalloc(n, sizeof(*pairs));
			struct strbuf *pb = xcalloc(n, sizeof(*pb));

			for (size_t i = 0; i < n; i++) {
				strbuf_init(&pb[i], 0);
				strbuf_addf(&pb[i], "%s's %s", nodes[i], ifs[i]);
				pairs[i] = pb[i].buf;
			}
			struct strbuf where = STRBUF_INIT;

			and_list(pairs, n, &where);
			strbuf_addf(&title, !strcmp(verb, "drop") ? N_("TCP ports %s are dropped on %s") :
					    !strcmp(verb, "reject") ? N_("TCP ports %s are rejected on %s") :
					    N_("TCP ports %s are closed on %s"), closed.buf, where.buf);
			strbuf_release(&where);
			for (size_t i = 0; i < n; i++)
				strbuf_release(&pb[i]);
			free(pb);
			free(pairs);
		}
	}
	g = finding_add(out, sev, "link.ports.range", "%s", title.buf);
	{
		int one_node = 1, one_if = 1;

		for (size_t i = 1; i < n; i++) {
			one_node &= !strcmp(nodes[i], nodes[0]);
			one_if &= !strcmp(ifs[i], ifs[0]);
		}
		finding_pair(g, one_node ? nodes[0] : NULL, NULL, one_if ? ifs[0] : NULL);
	}
	finding_why(g, "NCCL has no port setting: every listener (bootstrap, NET/Socket, the proxy) "
		       "binds port 0 and the kernel picks it from net.ipv4.ip_local_port_range, so "
		       "a firewall that closes part of that range makes init hang whenever a "
		       "listener lands there. The connect tests that hit those ports failed for the "
		       "same reason: the interfaces themselves work.");
	/* the fix: per node, the open part as its range (what NCCL needs), or the firewall
	 * opened to the peers on each interface */
	civ = xcalloc(mb[0].scan->res.s.niv + 1, sizeof(*civ));
	for (size_t k = 0; k < mb[0].scan->res.s.niv; k++)
		if (closed_state(mb[0].scan->res.s.iv[k].state))
			civ[ncl++] = &mb[0].scan->res.s.iv[k];
	for (size_t i = 0; i < n; i++) {
		if (seen_before(nodes, i))
			continue;
		st = finding_find_setting(mb[i].f, "net.ipv4.ip_local_port_range");
		finding_fix(g, N_("# on %s"), nodes[i]);
		if (st && st->value) {
			finding_fix(g, "sysctl -w net.ipv4.ip_local_port_range=\"%s\"", st->value);
			finding_setting_for(g, WHERE_SYSCTL, nodes[i], "net.ipv4.ip_local_port_range",
					    "%s", st->value);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (seen_before(nodes, i))
			continue;
		finding_fix(g, N_("# or keep the range and let the peers through the firewall, on %s"),
			    nodes[i]);
		for (size_t k = 0; k < n; k++) {
			int seen = 0;

			if (strcmp(nodes[k], nodes[i]))
				continue;
			for (size_t j = 0; j < k; j++)
				seen |= !strcmp(nodes[j], nodes[k]) && !strcmp(ifs[j], ifs[k]);
			if (seen)
				continue;
			strbuf_reset(&sb);
			peer_addrs(v, mb[k].node, ifs[k], &sb);
			for (size_t c = 0; c < ncl && sb.len; c++)
				finding_fix(g, "iptables -I INPUT -i %s -p tcp -s %s --dport %u:%u "
					       "-j ACCEPT", ifs[k], sb.buf, civ[c]->lo, civ[c]->hi);
		}
	}
	for (size_t i = 0; i < n; i++) {
		finding_evidence(g, "%s over %s: %s", mb[i].f->node, mb[i].f->ifname,
				 mb[i].f->evidence && mb[i].f->nevidence ? mb[i].f->evidence[0]
									  : mb[i].f->title);
		finding_caused_by(mb[i].f, g);
	}
	finding_check(g, N_("ncclcheck cluster   # re-run after the change"));
	free(civ);
	free(nodes);
	free(ifs);
	strbuf_release(&closed);
	strbuf_release(&title);
	strbuf_release(&sb);
}

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (strcmp(x->f->ifname, y->f->ifname))
		return strcmp(x->f->ifname, y->f->ifname);
	return x->scan->peer - y->scan->peer;
}

static void group_ports(const struct cluster_view *v, struct findings *out)
{
	struct member *mb = NULL;
	size_t n = 0, alloc = 0, end = out->n;
	char *done;

	for (size_t i = 0; i < end; i++) {
		struct finding *f = out->v[i];
		const struct cluster_link *l;
		const struct setting *st;
		struct strbuf sb = STRBUF_INIT;
		char verb[16];

		if (strcmp(f->id, "link.ports.blocked") || finding_folded(f) || f->sev < SEV_WARN ||
		    !(l = scan_of(v, f)))
			continue;
		ALLOC_GROW(mb, n + 1, alloc);
		mb[n].f = f;
		mb[n].scan = l;
		mb[n].node = l->target;
		closed_text(&l->res.s, &sb, verb, sizeof(verb));
		st = finding_find_setting(f, "net.ipv4.ip_local_port_range");
		snprintf(mb[n].key, sizeof(mb[n].key), "%s %s|%s", verb, sb.buf,
			 st && st->value ? st->value : "");
		strbuf_release(&sb);
		n++;
	}
	/* by node rank, then interface name: the same title on every run */
	if (n)	/* qsort's array may not be NULL, even for no elements */
		qsort(mb, n, sizeof(*mb), member_cmp);
	done = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++) {
		struct member *grp;
		size_t k = 0;

		if (done[i])
			continue;
		grp = xcalloc(n, sizeof(*grp));
		for (size_t j = i; j < n; j++)
			if (!done[j] && !strcmp(mb[j].key, mb[i].key)) {
				grp[k++] = mb[j];
				done[j] = 1;
			}
		/* one finding is its own root: a group is for a cause seen more than once */
		if (k > 1)
			group_add(v, grp, k, out);
		free(grp);
	}
	free(done);
	free(mb);
}

/* A black hole root with others folded under it names every node whose packets vanish. */
static void retitle_black_holes(const struct cluster_view *v, struct findings *out)
{
	for (size_t i = 0; i < out->n; i++) {
		struct finding *r = out->v[i];
		const struct cluster_link *l;
		const char **names;
		size_t n = 0, folded = 0;
		struct strbuf sb = STRBUF_INIT;

		if (strcmp(r->id, "link.mtu.blackhole") || finding_folded(r) ||
		    !(l = mtu_link_of(v, r)))
			continue;
		names = xcalloc(2 * out->n + 2, sizeof(*names));
		names[n++] = r->peer;
		names[n++] = r->node;
		for (size_t k = 0; k < out->n; k++)
			if (finding_cause_is(out->v[k], r) && !strcmp(out->v[k]->id, r->id)) {
				names[n++] = out->v[k]->peer;
				names[n++] = out->v[k]->node;
				folded++;
			}
		if (folded) {
			strbuf_addf(&sb, "packets over %d bytes vanish on %s between ", l->res.m.path_mtu,
				    r->ifname);
			and_list(names, n, &sb);
			strbuf_addf(&sb, " (interface MTU %d, and no ICMP 'fragmentation needed' comes "
				    "back)", l->res.m.if_mtu);
			free(r->title);
			r->title = strbuf_detach(&sb, NULL);
		}
		strbuf_release(&sb);
		free(names);
	}
}

void cluster_fold(const struct cluster_view *v, struct findings *out,
		  struct findings *const *node_fs, struct cluster_settled *settled)
{
	struct cluster_verdict vd;
	struct fold_ctx c = { .v = v, .vd = &vd, .out = out };
	int again = 1;

	cluster_verdict_compute(v, &vd);
	group_ports(v, out);
	/* a consequence may be the cause of another (unreachable -> its MTU test): to a fixpoint,
	 * each pass re-pointing at the roots */
	for (int pass = 0; again && pass < 4; pass++) {
		again = 0;
		for (size_t i = 0; i < out->n; i++)
			again |= fold_one(&c, out, out->v[i], NULL);
		for (size_t i = 0; i < out->n; i++)
			if (out->v[i]->caused_by) {
				const struct finding *r = root_of(out, out->v[i]);

				if (r != out->v[i] && !finding_cause_is(out->v[i], r))
					finding_caused_by(out->v[i], r);
			}
	}
	retitle_black_holes(v, out);
	for (size_t x = 0; node_fs && settled && x < v->n; x++) {
		for (size_t k = 0; node_fs[x] && k < settled[x].n; k++) {
			const struct cluster_settle_entry *e = &settled[x].v[k];

			if (e->verdict != CLUSTER_CONFIRMED)
				continue;
			for (size_t i = 0; i < node_fs[x]->n; i++) {
				struct finding *f = node_fs[x]->v[i];

				if (f != e->f)
					continue;
				/* a node's own findings carry no node: the node is `x` */
				if (f->node) {
					fold_one(&c, out, f, e->by);
					continue;
				}
				finding_node(f, v->nodes[x].name);
				if (!fold_one(&c, out, f, e->by))
					finding_node(f, NULL);
			}
		}
	}
	cluster_verdict_release(&vd);
}
