/* Slow hosts and slow links from the measured bandwidth flows: see cluster_bw.h. */
#include "rules/cluster_bw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct edge {
	int node, peer, slow, out;
};

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->node != y->node)
		return x->node - y->node;
	if (x->out != y->out)
		return x->out - y->out;
	return x->peer - y->peer;
}

static int cmp_link(const void *a, const void *b)
{
	const struct cluster_bw_link *x = a, *y = b;

	return x->a != y->a ? x->a - y->a : x->b - y->b;
}

static int cmp_flow(const void *a, const void *b)
{
	const struct cluster_bw_flow *x = a, *y = b;

	return x->from != y->from ? x->from - y->from : x->to - y->to;
}

static int cmp_meas(const void *a, const void *b)
{
	return cmp_flow(&(struct cluster_bw_flow){ ((const struct cluster_bw_meas *)a)->from,
					      ((const struct cluster_bw_meas *)a)->to },
			&(struct cluster_bw_flow){ ((const struct cluster_bw_meas *)b)->from,
					      ((const struct cluster_bw_meas *)b)->to });
}

static int cmp_flow_cleared(const void *a, const void *b)
{
	const struct cluster_bw_cleared *x = a, *y = b;

	if (x->from != y->from || x->to != y->to)
		return x->from != y->from ? x->from - y->from : x->to - y->to;
	return cmp_double(&x->busy_gbps, &y->busy_gbps);
}

/*
 * What fast and slow mean for one class of flows (g: their figures, sorted). `ref_gbps` > 0
 * fixes fast; else the 90th percentile: a slow host can touch most flows of a small ring (4 of
 * 6 with 3 nodes), so the median would call slow normal.
 *
 * Fast flows on a busy machine spread by 2x and more, so some fall under the threshold by
 * chance; a slow node or link sits apart, below a clear gap (a factor 1/slow_frac) in the
 * sorted flows (the reference closes the list: flows far under a given ceiling are slow
 * together). Slow are the flows under the widest such gap below the threshold (the higher of
 * equal ones); without one, none is slow.
 */
static void class_threshold(const double *g, int ng, double ref_gbps, double slow_frac,
			    double *ref, double *slow)
{
	double widest = 0, cut = 0;

	if (ref_gbps <= 0)
		ref_gbps = g[(int)(0.9 * (ng - 1) + 0.5)];
	*ref = ref_gbps;
	*slow = slow_frac * ref_gbps;
	for (int i = 0; i < ng; i++) {
		double next = i + 1 < ng ? g[i + 1] : ref_gbps > g[i] ? ref_gbps : g[i];
		double r = g[i] > 0 ? next / g[i] : next > 0 ? 1e9 : 1;

		if (g[i] >= *slow || r < 1 / slow_frac || r < widest)
			continue;
		widest = r;
		cut = g[i] > 0 ? sqrt(g[i] * next) : next / 2;
	}
	if (!widest)
		*slow = 0;
	else if (cut < *slow)
		*slow = cut;
}

/* A class of flows: the ones between hosts (key -1), or the ones inside one host (its key). */
struct fclass {
	int key, nflows;
	double ref, slow;
};

struct keyed {
	int key;
	double gbps;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return x->key != y->key ? (x->key > y->key) - (x->key < y->key) : cmp_double(&x->gbps,
										     &y->gbps);
}

static int flow_key(const int *host, int from, int to)
{
	return host && host[from] >= 0 && host[from] == host[to] ? host[from] : -1;
}

/* The classes, sorted by key; *ncls of them. */
static struct fclass *make_classes(const struct cluster_bw_input *in, double slow_frac, int *ncls)
{
	struct keyed *k = xcalloc((size_t)in->nm + 1, sizeof(*k));
	double *g = xcalloc((size_t)in->nm + 1, sizeof(*g));
	struct fclass *c = xcalloc((size_t)in->nm + 1, sizeof(*c));

	*ncls = 0;
	for (int i = 0; i < in->nm; i++)
		k[i] = (struct keyed){ flow_key(in->host, in->m[i].from, in->m[i].to),
				       in->m[i].gbps };
	qsort(k, (size_t)in->nm, sizeof(*k), cmp_keyed);
	for (int i = 0; i < in->nm;) {
		int j = i;
		struct fclass *cl = &c[(*ncls)++];

		while (j < in->nm && k[j].key == k[i].key) {
			g[j - i] = k[j].gbps;
			j++;
		}
		cl->key = k[i].key;
		cl->nflows = j - i;
		/* a ceiling is a link's: it says nothing of flows inside one kernel */
		class_threshold(g, j - i, cl->key < 0 ? in->ref_gbps : 0, slow_frac, &cl->ref,
				&cl->slow);
		i = j;
	}
	free(k);
	free(g);
	return c;
}

static const struct fclass *class_of(const struct fclass *c, int ncls, int key)
{
	int lo = 0, hi = ncls - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (c[mid].key == key)
			return &c[mid];
		if (c[mid].key < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* The fastest and slowest of the pair's figures measured alone; 0 when there are none. */
static int alone_range(const struct cluster_bw_meas *alone, int nalone, int from, int to,
		       double *best, double *worst)
{
	struct cluster_bw_meas key = { .from = from, .to = to };
	const struct cluster_bw_meas *hit;
	int found = 0;

	if (!alone || nalone <= 0)
		return 0;	/* bsearch wants a real array even for none */
	hit = bsearch(&key, alone, (size_t)nalone, sizeof(*alone), cmp_meas);
	if (!hit)
		return 0;
	while (hit > alone && cmp_meas(hit - 1, &key) == 0)
		hit--;
	for (; hit < alone + nalone && cmp_meas(hit, &key) == 0; hit++, found++) {
		if (!found || hit->gbps > *best)
			*best = hit->gbps;
		if (!found || hit->gbps < *worst)
			*worst = hit->gbps;
	}
	return found;
}

static int meas_ok(int n, const struct cluster_bw_meas *m, int nm)
{
	if (nm < 0 || (nm && !m))
		return 0;
	for (int i = 0; i < nm; i++)
		if (m[i].from < 0 || m[i].from >= n || m[i].to < 0 || m[i].to >= n ||
		    m[i].from == m[i].to || !(m[i].gbps >= 0))
			return 0;
	return 1;
}

/*
 * Per flow: slow or not. A slow flow inside one kernel is cleared by a figure measured alone
 * at or above its class's threshold, confirmed by figures all below it, and listed for a retest
 * when it has none.
 */
static int *flow_slowness(const struct cluster_bw_input *in, const struct fclass *cls, int ncls,
			  const struct cluster_bw_meas *alone, struct cluster_bw_verdict *v)
{
	int *slow = xcalloc((size_t)in->nm + 1, sizeof(int));
	int ar = 0, ac = 0;

	for (int i = 0; i < in->nm; i++) {
		int key = flow_key(in->host, in->m[i].from, in->m[i].to);
		const struct fclass *c = class_of(cls, ncls, key);
		double best = 0, worst = 0;

		slow[i] = in->m[i].gbps < c->slow;
		if (!slow[i] || key < 0)
			continue;
		if (!alone_range(alone, in->nalone, in->m[i].from, in->m[i].to, &best, &worst)) {
			ALLOC_GROW(v->retest, (size_t)v->nretest + 1, ar);
			v->retest[v->nretest++] = (struct cluster_bw_flow){ in->m[i].from, in->m[i].to };
		} else if (best >= c->slow) {
			slow[i] = 0;
			ALLOC_GROW(v->cleared, (size_t)v->ncleared + 1, ac);
			v->cleared[v->ncleared++] = (struct cluster_bw_cleared){
				.from = in->m[i].from, .to = in->m[i].to,
				.busy_gbps = in->m[i].gbps, .alone_gbps = best,
				.slow_gbps = c->slow };
		}
	}
	/* one entry per direction: the rounds may have measured a pair twice */
	if (v->nretest) {
		int k = 0;

		qsort(v->retest, (size_t)v->nretest, sizeof(*v->retest), cmp_flow);
		for (int i = 0; i < v->nretest; i++)
			if (!k || cmp_flow(&v->retest[k - 1], &v->retest[i]))
				v->retest[k++] = v->retest[i];
		v->nretest = k;
	}
	if (v->ncleared) {
		int k = 0;

		qsort(v->cleared, (size_t)v->ncleared, sizeof(*v->cleared), cmp_flow_cleared);
		for (int i = 0; i < v->ncleared; i++) {
			if (k && v->cleared[k - 1].from == v->cleared[i].from &&
			    v->cleared[k - 1].to == v->cleared[i].to)
				continue;	/* sorted slowest first within a pair */
			v->cleared[k++] = v->cleared[i];
		}
		v->ncleared = k;
	}
	return slow;
}

int cluster_bw_classify(int n, const struct cluster_bw_meas *m, int nm, double ref_gbps,
		      double slow_frac, struct cluster_bw_verdict *v)
{
	struct cluster_bw_input in = { .m = m, .nm = nm, .ref_gbps = ref_gbps,
				     .slow_frac = slow_frac };

	return cluster_bw_judge(n, &in, v);
}

int cluster_bw_judge(int n, const struct cluster_bw_input *in, struct cluster_bw_verdict *v)
{
	const struct cluster_bw_meas *m = in->m;
	int nm = in->nm, ncls = 0, *slow, *fast_any, *slow_any;
	double slow_frac = in->slow_frac > 0 ? in->slow_frac : CLUSTER_BW_SLOW_FRAC, best_good = -1;
	struct cluster_bw_meas *alone = NULL;
	struct fclass *cls;
	struct edge *e;

	memset(v, 0, sizeof(*v));
	if (n < 1 || n > CLUSTER_BW_NODES_MAX || !meas_ok(n, m, nm) ||
	    !meas_ok(n, in->alone, in->nalone))
		return -1;
	v->n = n;
	v->node = xcalloc((size_t)n, sizeof(*v->node));
	v->slow_send = xcalloc((size_t)n, sizeof(int));
	v->slow_recv = xcalloc((size_t)n, sizeof(int));
	v->known_good = -1;
	cls = make_classes(in, slow_frac, &ncls);
	/* the verdict's own figures: the largest class's, the flows between hosts on a tie */
	v->ref_gbps = in->ref_gbps;
	v->slow_gbps = slow_frac * in->ref_gbps;
	for (int c = 0, most = 0; c < ncls; c++)
		if (cls[c].nflows > most || (cls[c].nflows == most && cls[c].key < 0)) {
			most = cls[c].nflows;
			v->ref_gbps = cls[c].ref;
			v->slow_gbps = cls[c].slow;
		}
	if (in->nalone) {
		alone = xcalloc((size_t)in->nalone, sizeof(*alone));
		memcpy(alone, in->alone, (size_t)in->nalone * sizeof(*alone));
		qsort(alone, (size_t)in->nalone, sizeof(*alone), cmp_meas);
	}
	slow = flow_slowness(in, cls, ncls, alone, v);

	/* per node, its flows out and in, by peer */
	e = xcalloc((size_t)nm * 2 + 1, sizeof(*e));
	for (int i = 0; i < nm; i++) {
		e[2 * i] = (struct edge){ m[i].from, m[i].to, slow[i], 1 };
		e[2 * i + 1] = (struct edge){ m[i].to, m[i].from, slow[i], 0 };
	}
	qsort(e, (size_t)nm * 2, sizeof(*e), cmp_edge);
	fast_any = xcalloc((size_t)n, sizeof(int));
	slow_any = xcalloc((size_t)n, sizeof(int));
	for (int i = 0; i < 2 * nm;) {
		int node = e[i].node, out = e[i].out, j = i, peers = 0, all_slow = 1;

		while (j < 2 * nm && e[j].node == node && e[j].out == out) {
			int k = j, peer_slow = 1;

			while (k < 2 * nm && e[k].node == node && e[k].out == out &&
			       e[k].peer == e[j].peer) {
				peer_slow &= e[k].slow;
				k++;
			}
			peers++;
			all_slow &= peer_slow;
			if (peer_slow)
				slow_any[node] = 1;
			else
				fast_any[node] = 1;
			j = k;
		}
		/* every flow this way slow, with two or more different peers: the host itself */
		if (all_slow && peers >= 2)
			*(out ? &v->slow_send[node] : &v->slow_recv[node]) = 1;
		i = j;
	}
	for (int i = 0; i < nm; i++) {
		v->node[m[i].from] = v->node[m[i].from] ? v->node[m[i].from] : CLUSTER_BW_NODE_OK;
		v->node[m[i].to] = v->node[m[i].to] ? v->node[m[i].to] : CLUSTER_BW_NODE_OK;
	}
	for (int i = 0; i < n; i++) {
		if (v->node[i] == CLUSTER_BW_NODE_UNMEASURED)
			continue;
		if (v->slow_send[i] || v->slow_recv[i])
			v->node[i] = CLUSTER_BW_NODE_SLOW;
		else if (slow_any[i] && !fast_any[i])
			v->node[i] = CLUSTER_BW_NODE_SUSPECT;
	}
	/* links: unordered pairs, their slowest flow, slow when any flow of theirs is */
	v->links = xcalloc((size_t)nm + 1, sizeof(*v->links));
	for (int i = 0; i < nm; i++) {
		int a = m[i].from < m[i].to ? m[i].from : m[i].to;
		int b = m[i].from < m[i].to ? m[i].to : m[i].from;
		const struct fclass *c = class_of(cls, ncls, flow_key(in->host, a, b));

		v->links[i] = (struct cluster_bw_link){ .a = a, .b = b, .min_gbps = m[i].gbps,
						   .v = slow[i] ? CLUSTER_BW_LINK_SLOW : CLUSTER_BW_LINK_OK,
						   .same_host = c->key >= 0, .ref_gbps = c->ref,
						   .slow_gbps = c->slow, .alone_gbps = -1 };
	}
	qsort(v->links, (size_t)nm, sizeof(*v->links), cmp_link);
	for (int i = 0; i < nm; i++) {
		struct cluster_bw_link *l = &v->links[v->nlinks];

		if (v->nlinks && l[-1].a == v->links[i].a && l[-1].b == v->links[i].b) {
			if (v->links[i].min_gbps < l[-1].min_gbps)
				l[-1].min_gbps = v->links[i].min_gbps;
			if (v->links[i].v == CLUSTER_BW_LINK_SLOW)
				l[-1].v = CLUSTER_BW_LINK_SLOW;
			continue;
		}
		*l = v->links[i];
		v->nlinks++;
	}
	for (int i = 0; i < v->nlinks; i++) {
		struct cluster_bw_link *l = &v->links[i];
		double best = 0, worst = 0, b2 = 0, w2 = 0;
		int got = alone_range(alone, in->nalone, l->a, l->b, &best, &worst);

		if (alone_range(alone, in->nalone, l->b, l->a, &b2, &w2)) {
			worst = got && worst < w2 ? worst : w2;
			got = 1;
		}
		if (got)
			l->alone_gbps = worst;
		if (l->v != CLUSTER_BW_LINK_SLOW)
			l->v = CLUSTER_BW_LINK_OK;
		else if (v->node[l->a] == CLUSTER_BW_NODE_SLOW || v->node[l->b] == CLUSTER_BW_NODE_SLOW)
			l->v = CLUSTER_BW_LINK_HOST;
		else if (v->node[l->a] == CLUSTER_BW_NODE_SUSPECT || v->node[l->b] == CLUSTER_BW_NODE_SUSPECT)
			l->v = CLUSTER_BW_LINK_UNKNOWN;
	}
	/* the known-good node: nothing slow about it, the fastest slowest flow */
	for (int i = 0; i < n; i++) {
		double worst = -1;

		if (v->node[i] != CLUSTER_BW_NODE_OK || slow_any[i])
			continue;
		for (int k = 0; k < v->nlinks; k++)
			if ((v->links[k].a == i || v->links[k].b == i) &&
			    (worst < 0 || v->links[k].min_gbps < worst))
				worst = v->links[k].min_gbps;
		if (worst > best_good) {
			best_good = worst;
			v->known_good = i;
		}
	}
	free(e);
	free(fast_any);
	free(slow_any);
	free(slow);
	free(cls);
	free(alone);
	return 0;
}

void cluster_bw_verdict_release(struct cluster_bw_verdict *v)
{
	free(v->node);
	free(v->slow_send);
	free(v->slow_recv);
	free(v->links);
	free(v->retest);
	free(v->cleared);
	memset(v, 0, sizeof(*v));
}

static const char *name_of(const char *const *names, int i, char *buf, size_t len)
{
	if (names && names[i])
		return names[i];
	snprintf(buf, len, "node %d", i);
	return buf;
}

void cluster_bw_findings(const struct cluster_bw_verdict *v, const char *const *names,
		       const char *ifname, struct findings *fs)
{
	char b1[32], b2[32];

	for (int i = 0; i < v->n; i++) {
		struct finding *f;
		const char *nm = name_of(names, i, b1, sizeof(b1));
		const struct cluster_bw_link *sl = NULL;
		int alone = 0;

		if (v->node[i] != CLUSTER_BW_NODE_SLOW)
			continue;
		/* its slow links' class says what fast means for it, and whether one kernel */
		for (int k = 0; k < v->nlinks; k++) {
			const struct cluster_bw_link *l = &v->links[k];

			if ((l->a != i && l->b != i) || l->v == CLUSTER_BW_LINK_OK)
				continue;
			sl = sl ? sl : l;
			alone |= l->same_host && l->alone_gbps >= 0;
		}
		f = finding_add(fs, SEV_WARN, "link.bw.slow_host",
				"%s is slow with every peer%s%s: it %s below %.2f Gbit/s while the "
				"others reach %.2f", nm, ifname ? " over " : "", ifname ? ifname : "",
				v->slow_send[i] && v->slow_recv[i] ? "sends and receives" :
				v->slow_send[i] ? "sends" : "receives",
				sl ? sl->slow_gbps : v->slow_gbps, sl ? sl->ref_gbps : v->ref_gbps);
		finding_node(f, nm);
		if (alone)
			finding_why(f, "slow towards two or more different peers, and these "
				    "nodes share one kernel (same boot id): measured again with "
				    "few flows at once it stayed slow, so not the CPUs every flow "
				    "shares but a limit of this node's own (a shaper on its "
				    "interfaces, a CPU-capped container); a ring all-reduce runs "
				    "at the speed of its slowest member");
		else
			finding_why(f, "slow towards two or more different peers, so the cause "
				    "is on this host (its NIC, a cap, a smaller instance, a busy "
				    "CPU), not one link; a ring all-reduce runs at the speed of "
				    "its slowest member");
		for (int k = 0; k < v->nlinks; k++) {
			const struct cluster_bw_link *l = &v->links[k];

			if (l->a != i && l->b != i)
				continue;
			if (l->alone_gbps >= 0)
				finding_evidence(f, "%s <-> %s: %.3f Gbit/s (slowest direction), "
						 "%.3f measured alone",
						 name_of(names, l->a, b1, sizeof(b1)),
						 name_of(names, l->b, b2, sizeof(b2)), l->min_gbps,
						 l->alone_gbps);
			else
				finding_evidence(f, "%s <-> %s: %.3f Gbit/s (slowest direction)",
						 name_of(names, l->a, b1, sizeof(b1)),
						 name_of(names, l->b, b2, sizeof(b2)), l->min_gbps);
		}
		nm = name_of(names, i, b1, sizeof(b1));
		finding_fix(f, N_("tc qdisc show; ethtool %s; top   # on %s: a shaper, the negotiated "
			    "speed, CPU"), ifname ? ifname : "IF", nm);
	}
	for (int k = 0; k < v->nlinks; k++) {
		const struct cluster_bw_link *l = &v->links[k];
		struct finding *f;
		const char *a = name_of(names, l->a, b1, sizeof(b1));
		const char *b = name_of(names, l->b, b2, sizeof(b2));

		if (l->v != CLUSTER_BW_LINK_SLOW && l->v != CLUSTER_BW_LINK_UNKNOWN)
			continue;
		if (l->v == CLUSTER_BW_LINK_SLOW) {
			f = finding_add(fs, SEV_WARN, "link.bw.slow_link",
					"the link %s <-> %s%s%s is slow: %.2f Gbit/s, while both "
					"reach %.2f with other peers", a, b, ifname ? " over " : "",
					ifname ? ifname : "", l->min_gbps, l->ref_gbps);
			if (l->same_host && l->alone_gbps >= 0)
				finding_why(f, "both ends are fast with other nodes, and all "
					    "share one kernel (same boot id): measured again "
					    "alone this pair stayed slow, so a limit on this path "
					    "(a shaper or filter on an end's interface), not the "
					    "CPUs every flow shares");
			else
				finding_why(f, "both ends are fast with other nodes, so the "
					    "path between these two is the cause: a switch port, a "
					    "cable, a route over another network, a policer");
		} else {
			f = finding_add(fs, SEV_WARN, "link.bw.slow_pair",
					"%s <-> %s%s%s is slow (%.2f Gbit/s, %.2f expected) and "
					"there is no third node to tell host from link", a, b,
					ifname ? " over " : "", ifname ? ifname : "", l->min_gbps,
					l->ref_gbps);
			finding_why(f, "with one peer each, a slow host and a slow link look the "
				    "same; a run with a third node, or the link's ceiling, tells them "
				    "apart");
		}
		finding_pair(f, a, b, ifname);
		finding_evidence(f, "slowest flow %.3f Gbit/s; slow means below %.3f (%.0f %% of "
				 "%.3f)", l->min_gbps, l->slow_gbps, 100 * l->slow_gbps /
				 (l->ref_gbps > 0 ? l->ref_gbps : 1), l->ref_gbps);
		if (l->alone_gbps >= 0)
			finding_evidence(f, "measured again alone: %.3f Gbit/s", l->alone_gbps);
	}
	if (v->ncleared) {
		int shown = v->ncleared < 16 ? v->ncleared : 16;
		struct finding *f;

		f = finding_add(fs, SEV_INFO, "link.bw.same_host",
				"%d flow%s between nodes of one kernel looked slow while every "
				"flow ran at once, and reached full speed measured again alone: "
				"that was the host's CPUs, not a link%s%s", v->ncleared,
				v->ncleared == 1 ? "" : "s", ifname ? " over " : "",
				ifname ? ifname : "");
		finding_why(f, "these nodes are network namespaces or containers of one host (the "
			    "same boot id): bytes between them never leave its kernel, so what a "
			    "flow reaches is the CPU time it got while the others ran on the same "
			    "cores; no NIC, cable or host of their own is slow, and nothing is "
			    "blamed for it");
		for (int k = 0; k < shown; k++) {
			const struct cluster_bw_cleared *c = &v->cleared[k];

			finding_evidence(f, "%s -> %s: %.3f Gbit/s with the others, %.3f alone "
					 "(slow means below %.3f)",
					 name_of(names, c->from, b1, sizeof(b1)),
					 name_of(names, c->to, b2, sizeof(b2)), c->busy_gbps,
					 c->alone_gbps, c->slow_gbps);
		}
		if (shown < v->ncleared)
			finding_evidence(f, "... and %d more", v->ncleared - shown);
	}
}

/* host[i]: the first node with i's boot id (one kernel), -1 when unknown. */
static int *hosts_of(const struct cluster_view *v)
{
	int *host = xcalloc(v->n ? v->n : 1, sizeof(*host));

	for (size_t i = 0; i < v->n; i++) {
		const char *b = v->nodes[i].boot_id;

		host[i] = -1;
		for (size_t j = 0; j <= i && b && b[0] && host[i] < 0; j++)
			if (v->nodes[j].boot_id && !strcmp(b, v->nodes[j].boot_id))
				host[i] = (int)j;
	}
	return host;
}

/* The verdict on the view's flows; -1 when there are none (or they do not add up). */
static int judge_view(const struct cluster_view *v, struct cluster_bw_verdict *out)
{
	struct cluster_bw_meas *m = xcalloc(v->nlinks ? v->nlinks : 1, sizeof(*m));
	struct cluster_bw_input in = { .m = m, .alone = v->bw_alone, .nalone = (int)v->nbw_alone };
	int nm = 0, rc = -1;
	int *host;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];

		if (l->kind == LINK_BW && l->ran)
			m[nm++] = (struct cluster_bw_meas){ .from = l->peer, .to = l->target,
							    .gbps = l->res.b.total_gbps };
	}
	if (nm) {
		host = hosts_of(v);
		in.nm = nm;
		in.host = host;
		rc = cluster_bw_judge((int)v->n, &in, out);
		free(host);
	}
	free(m);
	return rc;
}

void xrule_bw(const struct cluster_view *v, struct findings *out)
{
	struct cluster_bw_verdict vd;
	const char **names;

	if (judge_view(v, &vd) < 0)
		return;
	names = xcalloc(v->n ? v->n : 1, sizeof(*names));
	for (size_t i = 0; i < v->n; i++)
		names[i] = v->nodes[i].name;
	cluster_bw_findings(&vd, names, NULL, out);
	free(names);
	cluster_bw_verdict_release(&vd);
}

int cluster_bw_alone_slow(const struct cluster_view *v, struct cluster_bw_flow **pairs)
{
	struct cluster_bw_verdict vd;
	int n = 0;

	*pairs = NULL;
	if (judge_view(v, &vd) < 0)
		return 0;
	*pairs = xcalloc((size_t)vd.nlinks + 1, sizeof(**pairs));
	for (int k = 0; k < vd.nlinks; k++) {
		const struct cluster_bw_link *x = &vd.links[k];

		if (x->same_host && x->alone_gbps >= 0 && x->v != CLUSTER_BW_LINK_OK)
			(*pairs)[n++] = (struct cluster_bw_flow){ x->a, x->b };
	}
	cluster_bw_verdict_release(&vd);
	return n;
}
