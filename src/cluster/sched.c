/* Pair rounds, bandwidth rounds and the slow host / slow link classifier. See sched.h. */
#include "cluster/sched.h"

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

/* Greedy rounds for an assignment; the schedule's cost (NULL cost: the number of rounds). */
static int full_rounds(int n, const int *cost, const int *scanner, int *round, int *nrounds,
		       char *scratch)
{
	char *target_in = scratch, *scanner_in = scratch + n;
	int left = n, total = 0;

	for (int t = 0; t < n; t++)
		round[t] = -1;
	*nrounds = 0;
	while (left > 0) {
		int dearest = 0;

		memset(scratch, 0, 2 * (size_t)n);
		for (int t = 0; t < n; t++) {
			int s = scanner[t];

			if (round[t] >= 0 || scanner_in[t] || target_in[s] || scanner_in[s])
				continue;
			round[t] = *nrounds;
			target_in[t] = scanner_in[s] = 1;
			left--;
			if (cost && cost[s * n + t] > dearest)
				dearest = cost[s * n + t];
		}
		total += cost ? dearest : 1;
		(*nrounds)++;
	}
	return total;
}

int sched_full_scans(int n, const int *cost, int *scanner, int *round)
{
	int *try = xcalloc((size_t)n + 1, sizeof(*try)), *tr = xcalloc((size_t)n + 1, sizeof(*tr));
	char *scratch = xcalloc(2 * (size_t)n + 1, 1);
	int nrounds, best, k, tn;

	for (int t = 0; t < n; t++)
		scanner[t] = sched_full_scanner(n, t);
	best = full_rounds(n, cost, scanner, round, &nrounds, scratch);
	if (cost && n > 2 && n <= SCHED_SCANNER_SEARCH_MAX) {
		/* every assignment, as an odometer over each target's peers */
		for (int t = 0; t < n; t++)
			try[t] = t ? 0 : 1;
		for (;;) {
			int c = full_rounds(n, cost, try, tr, &tn, scratch);

			if (c < best) {
				best = c;
				nrounds = tn;
				memcpy(scanner, try, (size_t)n * sizeof(*try));
				memcpy(round, tr, (size_t)n * sizeof(*tr));
			}
			for (k = 0; k < n; k++) {
				do
					try[k]++;
				while (try[k] == k);
				if (try[k] < n)
					break;
				try[k] = k ? 0 : 1;
			}
			if (k == n)
				break;
		}
	}
	free(try);
	free(tr);
	free(scratch);
	return nrounds;
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

int sched_bw_alone_rounds(const struct cluster_bw_verdict *v, int cap, struct sched_bw_round **out)
{
	char *done = xcalloc((size_t)v->nretest + 1, 1), *busy = xcalloc((size_t)v->n + 1, 1);
	int nr = 0, left = v->nretest;

	*out = xcalloc((size_t)v->nretest + 1, sizeof(**out));
	if (cap < 1)
		cap = 1;
	while (left) {
		struct sched_bw_round *r = &(*out)[nr++];

		r->phase = SCHED_BW_ALONE;
		r->flows = xcalloc((size_t)cap, sizeof(*r->flows));
		memset(busy, 0, (size_t)v->n);
		for (int i = 0; i < v->nretest && r->nflows < cap; i++) {
			const struct cluster_bw_flow *f = &v->retest[i];

			if (done[i] || busy[f->from] || busy[f->to])
				continue;
			done[i] = busy[f->from] = busy[f->to] = 1;
			r->flows[r->nflows++] = (struct sched_flow){ f->from, f->to };
			left--;
		}
	}
	free(done);
	free(busy);
	return nr;
}

int sched_bw_suspects(const struct cluster_bw_verdict *v, struct sched_bw_round *r)
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
		if (v->node[i] == CLUSTER_BW_NODE_SUSPECT)
			want[nwant++] = i;
	/* good nodes: no slow flow at all; the classifier's pick first */
	if (v->known_good >= 0)
		good[ngood++] = v->known_good;
	for (int i = 0; i < v->n; i++) {
		int clean = v->node[i] == CLUSTER_BW_NODE_OK && i != v->known_good;

		for (int k = 0; k < v->nlinks && clean; k++)
			clean = v->links[k].v == CLUSTER_BW_LINK_OK ||
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
