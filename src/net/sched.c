/* Pair rounds, bandwidth rounds and the slow host / slow link classifier. See sched.h. */
#include "net/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void add_pair(struct sched_round *r, int a, int b)
{
	r->pairs[r->npairs++] = (struct sched_pair){ a < b ? a : b, a < b ? b : a };
}

/*
 * Round r (0 <= r < m-1) of the circle method over m (even) slots: slot m-1 stays, the others
 * rotate. Slots >= n are byes.
 */
static void circle_round(int n, int m, int r, struct sched_round *out)
{
	out->pairs = xcalloc((size_t)m / 2 + 1, sizeof(*out->pairs));
	out->npairs = 0;
	if (m - 1 < n && r < n)
		add_pair(out, m - 1, r);
	for (int k = 1; k < m / 2; k++) {
		int a = (r + k) % (m - 1), b = (r - k + (m - 1)) % (m - 1);

		if (a < n && b < n)
			add_pair(out, a, b);
	}
}

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64*: small, good enough to sample pairs, and the caller's seed repeats runs */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

int sched_full_scanner(int n, int i)
{
	return n > 1 ? (i + 1) % n : i;
}

static int is_ring_edge(int n, int a, int b)
{
	int d = abs(a - b);

	return d == 1 || (n > 2 && d == n - 1);
}

/* A random perfect matching (one bye when n is odd) with few pairs already used. */
static void sample_round(int n, uint64_t *rng, int **partner, int nprev, struct sched_round *out)
{
	int *perm = xcalloc((size_t)n, sizeof(*perm)), *best = xcalloc((size_t)n, sizeof(*best));
	int best_overlap = -1;

	for (int attempt = 0; attempt < 8 && best_overlap != 0; attempt++) {
		int overlap = 0;

		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(rng_next(rng) % (uint64_t)(i + 1)), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i + 1 < n; i += 2) {
			overlap += is_ring_edge(n, perm[i], perm[i + 1]);
			for (int s = 0; s < nprev; s++)
				overlap += partner[s][perm[i]] == perm[i + 1];
		}
		if (best_overlap < 0 || overlap < best_overlap) {
			best_overlap = overlap;
			memcpy(best, perm, (size_t)n * sizeof(*perm));
		}
	}
	out->pairs = xcalloc((size_t)n / 2 + 1, sizeof(*out->pairs));
	out->npairs = 0;
	partner[nprev] = xcalloc((size_t)n, sizeof(int));
	for (int i = 0; i < n; i++)
		partner[nprev][i] = -1;
	for (int i = 0; i + 1 < n; i += 2) {
		add_pair(out, best[i], best[i + 1]);
		partner[nprev][best[i]] = best[i + 1];
		partner[nprev][best[i + 1]] = best[i];
	}
	free(perm);
	free(best);
}

int sched_pairs(int n, const struct sched_opts *o, struct sched_plan *p)
{
	int max = o && o->full_mesh_max > 0 ? o->full_mesh_max : SCHED_FULL_MESH_MAX;
	int samples = o && o->samples >= 0 ? o->samples : SCHED_SAMPLES_DEFAULT;
	uint64_t rng = (o ? o->seed : 0) ^ 0x9E3779B97F4A7C15ULL;
	int **partner;

	memset(p, 0, sizeof(*p));
	if (n < 1 || n > SCHED_NODES_MAX || samples > 64)
		return -1;
	if (n == 1)
		return 0;
	if (n <= max || n <= 3) {
		int m = n + (n & 1);

		p->full_mesh = 1;
		p->nrounds = m - 1;
		p->rounds = xcalloc((size_t)p->nrounds, sizeof(*p->rounds));
		for (int r = 0; r < p->nrounds; r++)
			circle_round(n, m, r, &p->rounds[r]);
		return 0;
	}
	/* ring neighbours: even edges, odd edges, and for odd n the closing edge alone */
	p->rounds = xcalloc((size_t)(3 + samples), sizeof(*p->rounds));
	for (int parity = 0; parity < 2; parity++) {
		struct sched_round *r = &p->rounds[p->nrounds++];

		r->pairs = xcalloc((size_t)n / 2 + 1, sizeof(*r->pairs));
		for (int i = parity; i + 1 < n; i += 2)
			add_pair(r, i, i + 1);
		if (!(n & 1) && parity == 1)
			add_pair(r, n - 1, 0);
	}
	if (n & 1) {
		struct sched_round *r = &p->rounds[p->nrounds++];

		r->pairs = xcalloc(1, sizeof(*r->pairs));
		add_pair(r, n - 1, 0);
	}
	partner = xcalloc((size_t)samples + 1, sizeof(*partner));
	for (int s = 0; s < samples; s++)
		sample_round(n, &rng, partner, s, &p->rounds[p->nrounds++]);
	for (int s = 0; s < samples; s++)
		free(partner[s]);
	free(partner);
	return 0;
}

void sched_plan_release(struct sched_plan *p)
{
	for (int r = 0; r < p->nrounds; r++)
		free(p->rounds[r].pairs);
	free(p->rounds);
	memset(p, 0, sizeof(*p));
}

/* ---- bandwidth ------------------------------------------------------------------------- */

static struct sched_bw_round *bw_round(struct sched_bw_plan *p, enum sched_bw_phase ph, int cap)
{
	struct sched_bw_round *r = &p->rounds[p->nrounds++];

	r->phase = ph;
	r->flows = xcalloc((size_t)cap, sizeof(*r->flows));
	r->nflows = 0;
	return r;
}

/* partner[i] = j (and j = i's), -1 for a bye: j tried from i + shift on, never a ring edge. */
static void shift_pairing(int n, int shift, const int *avoid, int *partner)
{
	for (int i = 0; i < n; i++)
		partner[i] = -1;
	for (int i = 0; i < n; i++) {
		if (partner[i] >= 0)
			continue;
		for (int d = 0; d < n - 1; d++) {
			int j = (i + shift + d) % n;

			if (j == i || partner[j] >= 0 || is_ring_edge(n, i, j) ||
			    (avoid && avoid[i] == j))
				continue;
			partner[i] = j;
			partner[j] = i;
			break;
		}
	}
}

int sched_bw_plan(int n, struct sched_bw_plan *p)
{
	memset(p, 0, sizeof(*p));
	if (n < 1 || n > SCHED_NODES_MAX)
		return -1;
	if (n == 1)
		return 0;
	p->rounds = xcalloc(4, sizeof(*p->rounds));
	if (n == 2) {
		/* one link: each direction alone */
		bw_round(p, SCHED_BW_RING_NEXT, 1)->flows[0] = (struct sched_flow){ 0, 1 };
		p->rounds[0].nflows = 1;
		bw_round(p, SCHED_BW_RING_PREV, 1)->flows[0] = (struct sched_flow){ 1, 0 };
		p->rounds[1].nflows = 1;
		return 0;
	}
	for (int dir = 0; dir < 2; dir++) {
		struct sched_bw_round *r = bw_round(p, dir ? SCHED_BW_RING_PREV : SCHED_BW_RING_NEXT, n);

		for (int i = 0; i < n; i++)
			r->flows[r->nflows++] = (struct sched_flow){ i, dir ? (i - 1 + n) % n
									 : (i + 1) % n };
	}
	if (n >= 4) {
		/* two more pairings with new peers: distance n/2, then distance 2 and up, never a
		 * ring edge nor a pair of the first (greedy; a node without a partner sits out) */
		int *pa = xcalloc((size_t)n, sizeof(int)), *pb = xcalloc((size_t)n, sizeof(int));

		shift_pairing(n, n / 2, NULL, pa);
		shift_pairing(n, 2, pa, pb);
		for (int k = 0; k < 2; k++) {
			const int *pp = k ? pb : pa;
			struct sched_bw_round *r = bw_round(p, SCHED_BW_SHIFT, n);

			for (int i = 0; i < n; i++)
				if (pp[i] >= 0)
					r->flows[r->nflows++] = (struct sched_flow){ i, pp[i] };
			if (!r->nflows) {
				free(r->flows);
				p->nrounds--;
			}
		}
		free(pa);
		free(pb);
	}
	return 0;
}

void sched_bw_plan_release(struct sched_bw_plan *p)
{
	for (int r = 0; r < p->nrounds; r++)
		free(p->rounds[r].flows);
	free(p->rounds);
	memset(p, 0, sizeof(*p));
}

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
	const struct sched_link *x = a, *y = b;

	return x->a != y->a ? x->a - y->a : x->b - y->b;
}

int sched_bw_classify(int n, const struct sched_meas *m, int nm, double ref_gbps,
		      double slow_frac, struct sched_verdict *v)
{
	struct edge *e;
	int *fast_any, *slow_any;
	double best_good = -1;

	memset(v, 0, sizeof(*v));
	if (n < 1 || n > SCHED_NODES_MAX || nm < 0)
		return -1;
	for (int i = 0; i < nm; i++)
		if (m[i].from < 0 || m[i].from >= n || m[i].to < 0 || m[i].to >= n ||
		    m[i].from == m[i].to || !(m[i].gbps >= 0))
			return -1;
	if (slow_frac <= 0)
		slow_frac = SCHED_SLOW_FRAC;
	v->n = n;
	v->node = xcalloc((size_t)n, sizeof(*v->node));
	v->slow_send = xcalloc((size_t)n, sizeof(int));
	v->slow_recv = xcalloc((size_t)n, sizeof(int));
	v->known_good = -1;
	if (nm) {
		double *g = xcalloc((size_t)nm, sizeof(*g)), widest = 0, cut = 0;

		for (int i = 0; i < nm; i++)
			g[i] = m[i].gbps;
		qsort(g, (size_t)nm, sizeof(*g), cmp_double);
		/* the 90th percentile: a slow host can touch most flows of a small ring (4 of 6
		 * with 3 nodes), so the median would call slow normal */
		if (ref_gbps <= 0)
			ref_gbps = g[(int)(0.9 * (nm - 1) + 0.5)];
		v->ref_gbps = ref_gbps;
		v->slow_gbps = slow_frac * ref_gbps;
		/*
		 * Fast flows on a busy machine spread by 2x and more, so some fall under the
		 * threshold by chance; a slow node or link sits apart, below a clear gap (a factor
		 * 1/slow_frac) in the sorted flows (the reference closes the list: flows far under
		 * a given ceiling are slow together). Slow are the flows under the widest such gap
		 * below the threshold (the higher of equal ones); without one, none is slow.
		 */
		for (int i = 0; i < nm; i++) {
			double next = i + 1 < nm ? g[i + 1] : ref_gbps > g[i] ? ref_gbps : g[i];
			double r = g[i] > 0 ? next / g[i] : next > 0 ? 1e9 : 1;

			if (g[i] >= v->slow_gbps || r < 1 / slow_frac || r < widest)
				continue;
			widest = r;
			cut = g[i] > 0 ? sqrt(g[i] * next) : next / 2;
		}
		if (!widest)
			v->slow_gbps = 0;
		else if (cut < v->slow_gbps)
			v->slow_gbps = cut;
		free(g);
	}
	v->ref_gbps = ref_gbps;
	if (!nm)
		v->slow_gbps = slow_frac * ref_gbps;

	/* per node, its flows out and in, by peer */
	e = xcalloc((size_t)nm * 2 + 1, sizeof(*e));
	for (int i = 0; i < nm; i++) {
		int slow = m[i].gbps < v->slow_gbps;

		e[2 * i] = (struct edge){ m[i].from, m[i].to, slow, 1 };
		e[2 * i + 1] = (struct edge){ m[i].to, m[i].from, slow, 0 };
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
		v->node[m[i].from] = v->node[m[i].from] ? v->node[m[i].from] : SCHED_NODE_OK;
		v->node[m[i].to] = v->node[m[i].to] ? v->node[m[i].to] : SCHED_NODE_OK;
	}
	for (int i = 0; i < n; i++) {
		if (v->node[i] == SCHED_NODE_UNMEASURED)
			continue;
		if (v->slow_send[i] || v->slow_recv[i])
			v->node[i] = SCHED_NODE_SLOW;
		else if (slow_any[i] && !fast_any[i])
			v->node[i] = SCHED_NODE_SUSPECT;
	}
	/* links: unordered pairs, their slowest flow */
	v->links = xcalloc((size_t)nm + 1, sizeof(*v->links));
	for (int i = 0; i < nm; i++) {
		int a = m[i].from < m[i].to ? m[i].from : m[i].to;
		int b = m[i].from < m[i].to ? m[i].to : m[i].from;

		v->links[i] = (struct sched_link){ a, b, SCHED_LINK_OK, m[i].gbps };
	}
	qsort(v->links, (size_t)nm, sizeof(*v->links), cmp_link);
	for (int i = 0; i < nm; i++) {
		struct sched_link *l = &v->links[v->nlinks];

		if (v->nlinks && l[-1].a == v->links[i].a && l[-1].b == v->links[i].b) {
			if (v->links[i].min_gbps < l[-1].min_gbps)
				l[-1].min_gbps = v->links[i].min_gbps;
			continue;
		}
		*l = v->links[i];
		v->nlinks++;
	}
	for (int i = 0; i < v->nlinks; i++) {
		struct sched_link *l = &v->links[i];

		if (l->min_gbps >= v->slow_gbps)
			l->v = SCHED_LINK_OK;
		else if (v->node[l->a] == SCHED_NODE_SLOW || v->node[l->b] == SCHED_NODE_SLOW)
			l->v = SCHED_LINK_HOST;
		else if (v->node[l->a] == SCHED_NODE_SUSPECT || v->node[l->b] == SCHED_NODE_SUSPECT)
			l->v = SCHED_LINK_UNKNOWN;
		else
			l->v = SCHED_LINK_SLOW;
	}
	/* the known-good node: nothing slow about it, the fastest slowest flow */
	for (int i = 0; i < n; i++) {
		double worst = -1;

		if (v->node[i] != SCHED_NODE_OK || slow_any[i])
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
	return 0;
}

void sched_verdict_release(struct sched_verdict *v)
{
	free(v->node);
	free(v->slow_send);
	free(v->slow_recv);
	free(v->links);
	memset(v, 0, sizeof(*v));
}

int sched_bw_suspects(const struct sched_verdict *v, struct sched_bw_round *r)
{
	int *good, ngood = 0, *want, nwant = 0, used = 0;

	memset(r, 0, sizeof(*r));
	r->phase = SCHED_BW_SUSPECT;
	if (v->n < 2)
		return 0;
	good = xcalloc((size_t)v->n, sizeof(int));
	want = xcalloc((size_t)v->n, sizeof(int));
	/* an UNKNOWN link always has a SUSPECT end; the other end is fine elsewhere */
	for (int i = 0; i < v->n; i++)
		if (v->node[i] == SCHED_NODE_SUSPECT)
			want[nwant++] = i;
	/* good nodes: no slow flow at all; the classifier's pick first */
	if (v->known_good >= 0)
		good[ngood++] = v->known_good;
	for (int i = 0; i < v->n; i++) {
		int clean = v->node[i] == SCHED_NODE_OK && i != v->known_good;

		for (int k = 0; k < v->nlinks && clean; k++)
			clean = v->links[k].v == SCHED_LINK_OK ||
				(v->links[k].a != i && v->links[k].b != i);
		if (clean)
			good[ngood++] = i;
	}
	r->flows = xcalloc((size_t)nwant * 2 + 1, sizeof(*r->flows));
	for (int i = 0; i < nwant && used < ngood; i++, used++) {
		r->flows[r->nflows++] = (struct sched_flow){ want[i], good[used] };
		r->flows[r->nflows++] = (struct sched_flow){ good[used], want[i] };
	}
	free(good);
	free(want);
	return r->nflows;
}

static const char *name_of(const char *const *names, int i, char *buf, size_t len)
{
	if (names && names[i])
		return names[i];
	snprintf(buf, len, "node %d", i);
	return buf;
}

void sched_bw_findings(const struct sched_verdict *v, const char *const *names,
		       const char *ifname, struct findings *fs)
{
	char b1[32], b2[32];

	for (int i = 0; i < v->n; i++) {
		struct finding *f;
		const char *nm = name_of(names, i, b1, sizeof(b1));

		if (v->node[i] != SCHED_NODE_SLOW)
			continue;
		f = finding_add(fs, SEV_WARN, "link.bw.slow_host",
				"%s is slow with every peer%s%s: it %s below %.2f Gbit/s while the "
				"others reach %.2f", nm, ifname ? " over " : "", ifname ? ifname : "",
				v->slow_send[i] && v->slow_recv[i] ? "sends and receives" :
				v->slow_send[i] ? "sends" : "receives", v->slow_gbps, v->ref_gbps);
		finding_node(f, nm);
		finding_why(f, "slow towards two or more different peers, so the cause is on this "
			    "host (its NIC, a cap, a smaller instance, a busy CPU), not one link; a "
			    "ring all-reduce runs at the speed of its slowest member");
		for (int k = 0; k < v->nlinks; k++)
			if (v->links[k].a == i || v->links[k].b == i)
				finding_evidence(f, "%s <-> %s: %.3f Gbit/s (slowest direction)",
						 name_of(names, v->links[k].a, b1, sizeof(b1)),
						 name_of(names, v->links[k].b, b2, sizeof(b2)),
						 v->links[k].min_gbps);
		finding_fix(f, "tc qdisc show; ethtool %s; top   # on %s: a shaper, the negotiated "
			    "speed, CPU", ifname ? ifname : "IF", names && names[i] ? names[i] : nm);
	}
	for (int k = 0; k < v->nlinks; k++) {
		const struct sched_link *l = &v->links[k];
		struct finding *f;
		const char *a = name_of(names, l->a, b1, sizeof(b1));
		const char *b = name_of(names, l->b, b2, sizeof(b2));

		if (l->v != SCHED_LINK_SLOW && l->v != SCHED_LINK_UNKNOWN)
			continue;
		if (l->v == SCHED_LINK_SLOW) {
			f = finding_add(fs, SEV_WARN, "link.bw.slow_link",
					"the link %s <-> %s%s%s is slow: %.2f Gbit/s, while both "
					"reach %.2f with other peers", a, b, ifname ? " over " : "",
					ifname ? ifname : "", l->min_gbps, v->ref_gbps);
			finding_why(f, "both ends are fast with other nodes, so the path between "
				    "these two is the cause: a switch port, a cable, a route over "
				    "another network, a policer");
		} else {
			f = finding_add(fs, SEV_WARN, "link.bw.slow_pair",
					"%s <-> %s%s%s is slow (%.2f Gbit/s, %.2f expected) and "
					"there is no third node to tell host from link", a, b,
					ifname ? " over " : "", ifname ? ifname : "", l->min_gbps,
					v->ref_gbps);
			finding_why(f, "with one peer each, a slow host and a slow link look the "
				    "same; a run with a third node, or the link's ceiling, tells them "
				    "apart");
		}
		finding_pair(f, a, b, ifname);
		finding_evidence(f, "slowest flow %.3f Gbit/s; slow means below %.3f (%.0f %% of "
				 "%.3f)", l->min_gbps, v->slow_gbps, 100 * v->slow_gbps /
				 (v->ref_gbps > 0 ? v->ref_gbps : 1), v->ref_gbps);
	}
}
