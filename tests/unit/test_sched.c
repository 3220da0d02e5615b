/*
 * net/sched: circle-method rounds are disjoint and cover every pair exactly once up to the mesh
 * limit; beyond it the rounds stay flat in N (ring + samples) and still hold every ring edge;
 * the bandwidth plan's rounds use each NIC once per direction; and the classifier tells a slow
 * host from a slow link, even next to another slow link, and leaves a lone pair undecided.
 * Nodes of one kernel (one boot id) are judged among themselves: what is slow only while every
 * flow shares its CPUs is no slow host or link (link.bw.same_host), what stays slow alone is.
 */
#include "cmocka_helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cluster/sched.h"

/* Every round disjoint; returns how often each unordered pair appears (n*n array). */
static int *check_rounds(int n, const struct sched_plan *p)
{
	int *seen = calloc((size_t)n * n, sizeof(int)), *busy = calloc((size_t)n, sizeof(int));

	for (int r = 0; r < p->nrounds; r++) {
		memset(busy, 0, (size_t)n * sizeof(int));
		for (int k = 0; k < p->rounds[r].npairs; k++) {
			int a = p->rounds[r].pairs[k].a, b = p->rounds[r].pairs[k].b;

			assert_true(a >= 0 && a < b && b < n);
			assert_int_equal(busy[a]++, 0);
			assert_int_equal(busy[b]++, 0);
			seen[a * n + b]++;
		}
	}
	free(busy);
	return seen;
}

static void full_mesh(void **state)
{
	(void)state;
	for (int n = 2; n <= 32; n++) {
		struct sched_plan p;
		int *seen;

		assert_int_equal(sched_pairs(n, NULL, &p), 0);
		assert_true(p.full_mesh);
		assert_int_equal(p.nrounds, n % 2 ? n : n - 1);
		seen = check_rounds(n, &p);
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				assert_int_equal(seen[a * n + b], 1);
		/* even n: every node in every round; odd: one bye per round */
		for (int r = 0; r < p.nrounds; r++)
			assert_int_equal(p.rounds[r].npairs, n / 2);
		free(seen);
		sched_plan_release(&p);
	}
	{
		struct sched_plan p;

		assert_int_equal(sched_pairs(1, NULL, &p), 0);
		assert_int_equal(p.nrounds, 0);
		assert_int_equal(sched_pairs(0, NULL, &p), -1);
		assert_int_equal(sched_pairs(SCHED_NODES_MAX + 1, NULL, &p), -1);
	}
}

static void beyond_mesh(void **state)
{
	struct sched_opts o = { .full_mesh_max = 32, .samples = 2, .seed = 7 };

	(void)state;
	for (int n = 33; n <= 1025; n += (n < 80 ? 1 : 97)) {
		struct sched_plan p, q;
		int *seen;

		assert_int_equal(sched_pairs(n, &o, &p), 0);
		assert_false(p.full_mesh);
		/* flat in N: 2 ring rounds (3 for odd N) + the samples */
		assert_int_equal(p.nrounds, 2 + (n & 1) + 2);
		seen = check_rounds(n, &p);
		for (int i = 0; i < n; i++) {
			int s = sched_full_scanner(n, i), a = i < s ? i : s, b = i < s ? s : i;

			assert_true(seen[a * n + b] >= 1);	/* the full scan has its round */
		}
		free(seen);
		/* the same seed gives the same plan */
		assert_int_equal(sched_pairs(n, &o, &q), 0);
		for (int r = 0; r < p.nrounds; r++) {
			assert_int_equal(p.rounds[r].npairs, q.rounds[r].npairs);
			assert_memory_equal(p.rounds[r].pairs, q.rounds[r].pairs,
					    (size_t)p.rounds[r].npairs * sizeof(struct sched_pair));
		}
		/* sampled rounds are near-perfect matchings */
		assert_int_equal(p.rounds[p.nrounds - 1].npairs, n / 2);
		sched_plan_release(&p);
		sched_plan_release(&q);
	}
	/* a lower mesh limit switches earlier */
	{
		struct sched_opts lo = { .full_mesh_max = 4, .samples = 0 };
		struct sched_plan p;

		assert_int_equal(sched_pairs(6, &lo, &p), 0);
		assert_false(p.full_mesh);
		assert_int_equal(p.nrounds, 2);
		sched_plan_release(&p);
	}
}

static void bw_plan(void **state)
{
	(void)state;
	for (int n = 2; n <= 40; n++) {
		struct sched_bw_plan p;
		int *out = calloc((size_t)n, sizeof(int)), *in = calloc((size_t)n, sizeof(int));

		assert_int_equal(sched_bw_plan(n, &p), 0);
		/* constant in N: 2 ring rounds, then 2 shifted pairings where there are new peers */
		if (n >= 6)
			assert_int_equal(p.nrounds, 4);
		else
			assert_true(p.nrounds >= 2 && p.nrounds <= 4);
		for (int r = 0; r < p.nrounds; r++) {
			memset(out, 0, (size_t)n * sizeof(int));
			memset(in, 0, (size_t)n * sizeof(int));
			for (int k = 0; k < p.rounds[r].nflows; k++) {
				const struct sched_flow *f = &p.rounds[r].flows[k];

				assert_true(f->from != f->to);
				assert_int_equal(out[f->from]++, 0);	/* one flow out per NIC */
				assert_int_equal(in[f->to]++, 0);	/* one flow in */
				if (p.rounds[r].phase == SCHED_BW_SHIFT && n >= 6) {
					int d = abs(f->from - f->to);

					assert_false(d == 1 || d == n - 1);	/* new peers */
				}
			}
		}
		assert_int_equal(p.rounds[0].phase, SCHED_BW_RING_NEXT);
		assert_int_equal(p.rounds[1].phase, SCHED_BW_RING_PREV);
		free(out);
		free(in);
		sched_bw_plan_release(&p);
	}
}

/* Flows of the whole plan for n nodes, gbps by a rule. */
static int measure(int n, double (*rate)(int from, int to), struct cluster_bw_meas *m)
{
	struct sched_bw_plan p;
	int nm = 0;

	assert_int_equal(sched_bw_plan(n, &p), 0);
	for (int r = 0; r < p.nrounds; r++)
		for (int k = 0; k < p.rounds[r].nflows; k++) {
			const struct sched_flow *f = &p.rounds[r].flows[k];

			m[nm++] = (struct cluster_bw_meas){ f->from, f->to, rate(f->from, f->to) };
		}
	sched_bw_plan_release(&p);
	return nm;
}

static double host5_capped(int from, int to)
{
	return from == 5 || to == 5 ? 0.095 : 9.4;
}

static double link23_slow(int from, int to)
{
	return (from == 2 && to == 3) || (from == 3 && to == 2) ? 2.0 : 9.4;
}

static double links_around2(int from, int to)
{
	int a = from < to ? from : to, b = from < to ? to : from;

	return (a == 1 && b == 2) || (a == 2 && b == 3) ? 1.0 : 9.4;
}

static void classify(void **state)
{
	struct cluster_bw_meas m[64];
	struct cluster_bw_verdict v;
	struct sched_bw_round sr;
	struct findings *fs;
	const char *names[] = { "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7" };
	int nm;

	(void)state;
	/* a slow host: slow with every peer */
	nm = measure(8, host5_capped, m);
	assert_int_equal(cluster_bw_classify(8, m, nm, 0, 0, &v), 0);
	assert_float_equal(v.ref_gbps, 9.4, 1e-9);
	for (int i = 0; i < 8; i++)
		assert_int_equal(v.node[i], i == 5 ? CLUSTER_BW_NODE_SLOW : CLUSTER_BW_NODE_OK);
	assert_true(v.slow_send[5] && v.slow_recv[5]);
	for (int k = 0; k < v.nlinks; k++)
		assert_int_equal(v.links[k].v, v.links[k].a == 5 || v.links[k].b == 5
						 ? CLUSTER_BW_LINK_HOST : CLUSTER_BW_LINK_OK);
	assert_true(v.known_good >= 0 && v.known_good != 5 && v.known_good != 4 &&
		    v.known_good != 6);
	fs = findings_new();
	cluster_bw_findings(&v, names, "eth1", fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_host");
	assert_string_equal(fs->v[0]->node, "n5");
	assert_non_null(strstr(fs->v[0]->title, "sends and receives"));
	findings_free(fs);
	assert_int_equal(sched_bw_suspects(&v, &sr), 0);
	free(sr.flows);
	cluster_bw_verdict_release(&v);

	/* a slow link: both ends fine elsewhere */
	nm = measure(8, link23_slow, m);
	assert_int_equal(cluster_bw_classify(8, m, nm, 0, 0, &v), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(v.node[i], CLUSTER_BW_NODE_OK);
	for (int k = 0; k < v.nlinks; k++)
		assert_int_equal(v.links[k].v, v.links[k].a == 2 && v.links[k].b == 3
						 ? CLUSTER_BW_LINK_SLOW : CLUSTER_BW_LINK_OK);
	fs = findings_new();
	cluster_bw_findings(&v, names, "eth1", fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_link");
	assert_string_equal(fs->v[0]->node, "n2");
	assert_string_equal(fs->v[0]->peer, "n3");
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* two slow links around n2: the shifted pairings show n2 itself is fine */
	nm = measure(8, links_around2, m);
	assert_int_equal(cluster_bw_classify(8, m, nm, 0, 0, &v), 0);
	assert_int_equal(v.node[2], CLUSTER_BW_NODE_OK);
	for (int k = 0; k < v.nlinks; k++)
		if ((v.links[k].a == 1 && v.links[k].b == 2) || (v.links[k].a == 2 && v.links[k].b == 3))
			assert_int_equal(v.links[k].v, CLUSTER_BW_LINK_SLOW);
	cluster_bw_verdict_release(&v);

	/* ring only (n = 3): two distinct peers each, the capped host is still found */
	nm = measure(3, host5_capped, m);	/* 4 of the 6 flows touch node 2 */
	for (int i = 0; i < nm; i++)
		m[i].gbps = m[i].from == 2 || m[i].to == 2 ? 0.1 : 9.4;
	assert_int_equal(cluster_bw_classify(3, m, nm, 0, 0, &v), 0);
	assert_int_equal(v.node[2], CLUSTER_BW_NODE_SLOW);
	assert_int_equal(v.node[0], CLUSTER_BW_NODE_OK);
	cluster_bw_verdict_release(&v);

	/*
	 * the lab's slow-link on a loaded box (measured): n2 capped at 100 Mbit/s, and the fast
	 * pair's two directions 8.44 and 4.94 Gbit/s — under 0.6 x 8.44. The gap names n2 alone.
	 */
	m[0] = (struct cluster_bw_meas){ 0, 1, 8.44 };
	m[1] = (struct cluster_bw_meas){ 1, 0, 4.94 };
	m[2] = (struct cluster_bw_meas){ 1, 2, 0.07 };
	m[3] = (struct cluster_bw_meas){ 2, 0, 0.07 };
	m[4] = (struct cluster_bw_meas){ 0, 2, 0.10 };
	m[5] = (struct cluster_bw_meas){ 2, 1, 0.03 };
	assert_int_equal(cluster_bw_classify(3, m, 6, 0, 0, &v), 0);
	assert_int_equal(v.node[0], CLUSTER_BW_NODE_OK);
	assert_int_equal(v.node[1], CLUSTER_BW_NODE_OK);
	assert_int_equal(v.node[2], CLUSTER_BW_NODE_SLOW);
	assert_true(v.slow_gbps > 0.1 && v.slow_gbps < 4.94);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->node, "n2");
	findings_free(fs);
	cluster_bw_verdict_release(&v);
	/* the same pair with nothing far below: a gap of 1.7x, the slower direction stays slow */
	assert_int_equal(cluster_bw_classify(2, m, 2, 0, 0, &v), 0);
	assert_int_not_equal(v.links[0].v, CLUSTER_BW_LINK_OK);
	cluster_bw_verdict_release(&v);
	/* healthy lab nodes on a loaded box (measured): 3.2 to 7.5 Gbit/s with no gap, no one slow */
	m[0] = (struct cluster_bw_meas){ 1, 2, 6.24 };
	m[1] = (struct cluster_bw_meas){ 2, 0, 4.31 };
	m[2] = (struct cluster_bw_meas){ 0, 1, 3.88 };
	m[3] = (struct cluster_bw_meas){ 0, 2, 7.05 };
	m[4] = (struct cluster_bw_meas){ 1, 0, 7.49 };
	m[5] = (struct cluster_bw_meas){ 2, 1, 3.22 };
	assert_int_equal(cluster_bw_classify(3, m, 6, 0, 0, &v), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(v.node[i], CLUSTER_BW_NODE_OK);
	for (int k = 0; k < v.nlinks; k++)
		assert_int_equal(v.links[k].v, CLUSTER_BW_LINK_OK);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	cluster_bw_verdict_release(&v);
	/* flows far under a given ceiling are slow together, even without a gap between them */
	m[0] = (struct cluster_bw_meas){ 0, 1, 3.0 };
	m[1] = (struct cluster_bw_meas){ 1, 0, 3.1 };
	assert_int_equal(cluster_bw_classify(2, m, 2, 9.41, 0, &v), 0);
	assert_int_equal(v.links[0].v, CLUSTER_BW_LINK_UNKNOWN);
	cluster_bw_verdict_release(&v);
	/* a slow host at 25 % and a slow link at 50 %: equal gaps, both stay slow */
	m[0] = (struct cluster_bw_meas){ 0, 1, 10 };
	m[1] = (struct cluster_bw_meas){ 1, 0, 10 };
	m[2] = (struct cluster_bw_meas){ 0, 2, 10 };
	m[3] = (struct cluster_bw_meas){ 2, 0, 10 };
	m[4] = (struct cluster_bw_meas){ 1, 2, 5 };
	m[5] = (struct cluster_bw_meas){ 2, 1, 5 };
	m[6] = (struct cluster_bw_meas){ 3, 0, 2.5 };
	m[7] = (struct cluster_bw_meas){ 0, 3, 2.5 };
	m[8] = (struct cluster_bw_meas){ 3, 1, 2.5 };
	m[9] = (struct cluster_bw_meas){ 1, 3, 2.5 };
	assert_int_equal(cluster_bw_classify(4, m, 10, 0, 0, &v), 0);
	assert_int_equal(v.node[3], CLUSTER_BW_NODE_SLOW);
	for (int k = 0; k < v.nlinks; k++)
		if (v.links[k].a == 1 && v.links[k].b == 2)
			assert_int_equal(v.links[k].v, CLUSTER_BW_LINK_SLOW);
	cluster_bw_verdict_release(&v);

	/* two nodes, slow both ways: undecided, and no good node to test against */
	m[0] = (struct cluster_bw_meas){ 0, 1, 0.095 };
	m[1] = (struct cluster_bw_meas){ 1, 0, 0.095 };
	assert_int_equal(cluster_bw_classify(2, m, 2, 9.41, 0, &v), 0);
	assert_int_equal(v.node[0], CLUSTER_BW_NODE_SUSPECT);
	assert_int_equal(v.node[1], CLUSTER_BW_NODE_SUSPECT);
	assert_int_equal(v.links[0].v, CLUSTER_BW_LINK_UNKNOWN);
	assert_int_equal(v.known_good, -1);
	assert_int_equal(sched_bw_suspects(&v, &sr), 0);
	free(sr.flows);
	fs = findings_new();
	cluster_bw_findings(&v, NULL, NULL, fs);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_pair");
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* a suspect with one measured peer is re-tested against the known-good node */
	m[0] = (struct cluster_bw_meas){ 0, 1, 9.4 };
	m[1] = (struct cluster_bw_meas){ 1, 2, 9.4 };
	m[2] = (struct cluster_bw_meas){ 2, 0, 9.4 };
	m[3] = (struct cluster_bw_meas){ 3, 0, 0.5 };
	assert_int_equal(cluster_bw_classify(4, m, 4, 0, 0, &v), 0);
	assert_int_equal(v.node[3], CLUSTER_BW_NODE_SUSPECT);
	assert_int_equal(sched_bw_suspects(&v, &sr), 2);
	assert_int_equal(sr.flows[0].from, 3);
	assert_true(sr.flows[0].to == 1 || sr.flows[0].to == 2);	/* not 0: its link is slow */
	assert_int_equal(sr.flows[1].to, 3);
	free(sr.flows);
	cluster_bw_verdict_release(&v);

	/* garbage in: rejected */
	m[0] = (struct cluster_bw_meas){ 0, 0, 1 };
	assert_int_equal(cluster_bw_classify(4, m, 1, 0, 0, &v), -1);
	m[0] = (struct cluster_bw_meas){ 0, 9, 1 };
	assert_int_equal(cluster_bw_classify(4, m, 1, 0, 0, &v), -1);
}

static double host5_contended(int from, int to)
{
	return from == 5 || to == 5 ? 0.9 : 9.4;
}

/* Two machines of four containers each: 30 Gbit/s inside a kernel, 9.4 between the two. */
static const int two_hosts[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };

static double two_hosts_rate(int from, int to)
{
	return two_hosts[from] == two_hosts[to] ? 30 : 9.4;
}

static double two_hosts_link15(int from, int to)
{
	int a = from < to ? from : to, b = from < to ? to : from;

	return a == 1 && b == 5 ? 2.0 : two_hosts_rate(from, to);
}

static int count_warn(const struct findings *fs)
{
	int k = 0;

	for (size_t i = 0; i < fs->n; i++)
		k += fs->v[i]->sev >= SEV_WARN;
	return k;
}

/* The retest rounds: each flow of v->retest once, at most cap per round, no node twice. */
static int check_alone_rounds(const struct cluster_bw_verdict *v, int cap)
{
	struct sched_bw_round *r;
	int nr = sched_bw_alone_rounds(v, cap, &r), seen = 0;

	for (int i = 0; i < nr; i++) {
		int busy[8] = { 0 };

		assert_int_equal(r[i].phase, SCHED_BW_ALONE);
		assert_true(r[i].nflows >= 1 && r[i].nflows <= cap);
		for (int k = 0; k < r[i].nflows; k++) {
			assert_int_equal(busy[r[i].flows[k].from]++, 0);
			assert_int_equal(busy[r[i].flows[k].to]++, 0);
		}
		seen += r[i].nflows;
		free(r[i].flows);
	}
	free(r);
	assert_int_equal(seen, v->nretest);
	return nr;
}

/* Every flow of v->retest measured alone at gbps. */
static int alone_at(const struct cluster_bw_verdict *v, double gbps, struct cluster_bw_meas *a)
{
	for (int i = 0; i < v->nretest; i++)
		a[i] = (struct cluster_bw_meas){ v->retest[i].from, v->retest[i].to, gbps };
	return v->nretest;
}

static void same_host(void **state)
{
	static const int one_host[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const int distinct[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const char *names[] = { "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7" };
	struct cluster_bw_meas m[64], a[64];
	struct cluster_bw_input in = { .m = m, .host = one_host };
	struct cluster_bw_verdict v;
	struct findings *fs;

	(void)state;
	/*
	 * One kernel, every flow at once: n5's flows got little CPU. Slow in the rounds, so it is
	 * measured again alone (each of its directions once, never two flows of n5 together) ...
	 */
	in.nm = measure(8, host5_contended, m);
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.node[5], CLUSTER_BW_NODE_SLOW);
	assert_true(v.nretest >= 4);
	for (int i = 0; i < v.nretest; i++)
		assert_true(v.retest[i].from == 5 || v.retest[i].to == 5);
	assert_int_equal(check_alone_rounds(&v, 8), v.nretest);	/* n5 in every one */
	in.nalone = alone_at(&v, 6.1, a);
	in.alone = a;
	cluster_bw_verdict_release(&v);
	/* ... where it is fast: the host's CPUs, no slow host, one info that says so */
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(v.node[i], CLUSTER_BW_NODE_OK);
	for (int k = 0; k < v.nlinks; k++) {
		assert_int_equal(v.links[k].v, CLUSTER_BW_LINK_OK);
		assert_true(v.links[k].same_host);
	}
	assert_int_equal(v.nretest, 0);
	assert_int_equal(v.ncleared, in.nalone);
	fs = findings_new();
	cluster_bw_findings(&v, names, "eth1", fs);
	assert_int_equal(fs->n, 1);
	assert_int_equal(count_warn(fs), 0);
	assert_string_equal(fs->v[0]->id, "link.bw.same_host");
	assert_int_equal(fs->v[0]->sev, SEV_INFO);
	assert_non_null(strstr(fs->v[0]->why, "same boot id"));
	assert_int_equal((int)fs->v[0]->nevidence, v.ncleared);
	assert_non_null(strstr(fs->v[0]->evidence[0], "6.100 alone"));
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* the same figures with n5 shaped (tbf in its namespace): slow alone too, still slow_host */
	in.nalone = 0;
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	in.nalone = alone_at(&v, 0.095, a);
	cluster_bw_verdict_release(&v);
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.node[5], CLUSTER_BW_NODE_SLOW);
	assert_int_equal(v.ncleared, 0);
	assert_int_equal(v.nretest, 0);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_host");
	assert_string_equal(fs->v[0]->node, "n5");
	assert_non_null(strstr(fs->v[0]->why, "share one kernel"));
	assert_non_null(strstr(fs->v[0]->evidence[0], "measured alone"));
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* a slow-looking pair inside one kernel, fast alone: no slow_link; slow alone: slow_link */
	in.nm = measure(8, link23_slow, m);
	in.nalone = 0;
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.nretest, 2);
	in.nalone = alone_at(&v, 9.0, a);
	cluster_bw_verdict_release(&v);
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(count_warn(fs), 0);
	assert_int_equal(count_id(fs, "link.bw.same_host"), 1);
	findings_free(fs);
	cluster_bw_verdict_release(&v);
	a[0].gbps = a[1].gbps = 0.1;	/* a shaper on that pair */
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_link");
	assert_string_equal(fs->v[0]->node, "n2");
	assert_string_equal(fs->v[0]->peer, "n3");
	assert_non_null(strstr(fs->v[0]->why, "stayed slow"));
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* a retest runs at most cap flows at once */
	in.nm = measure(8, host5_contended, m);
	for (int i = 0; i < in.nm; i++)
		if (m[i].from == 1 || m[i].to == 1)
			m[i].gbps = 0.9;
	in.nalone = 0;
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_true(check_alone_rounds(&v, 1) == v.nretest);
	assert_true(check_alone_rounds(&v, 2) < v.nretest);
	cluster_bw_verdict_release(&v);

	/*
	 * Two machines, healthy: 30 Gbit/s inside each kernel, 9.4 between them. Against one
	 * reference the links between the machines look slow; judged apart, nothing is.
	 */
	in.nm = measure(8, two_hosts_rate, m);
	in.host = two_hosts;
	in.nalone = 0;
	assert_int_equal(cluster_bw_classify(8, m, in.nm, 0, 0, &v), 0);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_true(count_id(fs, "link.bw.slow_link") > 0);	/* what one reference says */
	findings_free(fs);
	cluster_bw_verdict_release(&v);
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.nretest, 0);
	for (int k = 0; k < v.nlinks; k++) {
		assert_int_equal(v.links[k].v, CLUSTER_BW_LINK_OK);
		assert_int_equal(v.links[k].same_host,
				 two_hosts[v.links[k].a] == two_hosts[v.links[k].b]);
		assert_float_equal(v.links[k].ref_gbps, v.links[k].same_host ? 30 : 9.4, 1e-9);
	}
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* ... with one slow link between the machines: still the warning, nothing measured alone */
	in.nm = measure(8, two_hosts_link15, m);
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.nretest, 0);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_link");
	assert_int_equal(fs->v[0]->sev, SEV_WARN);
	assert_string_equal(fs->v[0]->node, "n1");
	assert_string_equal(fs->v[0]->peer, "n5");
	assert_non_null(strstr(fs->v[0]->title, "reach 9.40"));
	assert_non_null(strstr(fs->v[0]->why, "switch port"));
	findings_free(fs);
	cluster_bw_verdict_release(&v);
	/* a figure "measured alone" between machines changes nothing: only one kernel's are retests */
	a[0] = (struct cluster_bw_meas){ 1, 5, 9.4 };
	a[1] = (struct cluster_bw_meas){ 5, 1, 9.4 };
	in.alone = a;
	in.nalone = 2;
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.ncleared, 0);
	for (int k = 0; k < v.nlinks; k++)
		if (v.links[k].a == 1 && v.links[k].b == 5)
			assert_int_equal(v.links[k].v, CLUSTER_BW_LINK_SLOW);
	cluster_bw_verdict_release(&v);

	/* a slow host among separate machines: slow_host, no retest */
	in.nm = measure(8, host5_capped, m);
	in.host = distinct;
	in.nalone = 0;
	assert_int_equal(cluster_bw_judge(8, &in, &v), 0);
	assert_int_equal(v.nretest, 0);
	assert_int_equal(v.node[5], CLUSTER_BW_NODE_SLOW);
	fs = findings_new();
	cluster_bw_findings(&v, names, NULL, fs);
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0]->id, "link.bw.slow_host");
	assert_string_equal(fs->v[0]->node, "n5");
	assert_non_null(strstr(fs->v[0]->why, "its NIC"));
	findings_free(fs);
	cluster_bw_verdict_release(&v);

	/* garbage among the retests: rejected */
	a[0] = (struct cluster_bw_meas){ 3, 3, 1 };
	in.alone = a;
	in.nalone = 1;
	assert_int_equal(cluster_bw_judge(8, &in, &v), -1);
	in.nalone = -1;
	assert_int_equal(cluster_bw_judge(8, &in, &v), -1);
}

/* Every round of a full-scan schedule: no node a target and a scanner, none scanning twice. */
static void check_full_rounds(int n, const int *scanner, const int *round, int nrounds)
{
	for (int r = 0; r < nrounds; r++)
		for (int t = 0; t < n; t++) {
			if (round[t] != r)
				continue;
			assert_int_not_equal(scanner[t], t);
			for (int u = 0; u < n; u++)
				if (u != t && round[u] == r) {
					assert_int_not_equal(scanner[u], t);
					assert_int_not_equal(scanner[u], scanner[t]);
				}
		}
	for (int t = 0; t < n; t++)
		assert_true(round[t] >= 0 && round[t] < nrounds);
}

/* A full-scan schedule's cost: the sum over its rounds of the round's dearest scan. */
static int schedule_cost(int n, const int *cost, const int *scanner, const int *round, int r)
{
	int total = 0;

	for (int k = 0; k < r; k++) {
		int dearest = 0;

		for (int t = 0; t < n; t++)
			if (round[t] == k && cost[scanner[t] * n + t] > dearest)
				dearest = cost[scanner[t] * n + t];
		total += dearest;
	}
	return total;
}

/*
 * Who maps whose range: the ring successor on clean links (2 rounds for even N, 3 for odd);
 * with fp-n1's links dear (5 % loss), no innocent node's range is mapped by n1 and the schedule
 * costs less than the ring's (4 nodes: 4 + 1 + 1 against 4 + 4 — two rounds would make n1 scan).
 */
static void full_scans(void **state)
{
	int scanner[8], round[8], cost[64], ring[8], ring_round[8];

	(void)state;
	for (int n = 2; n <= 8; n++) {
		int r = sched_full_scans(n, NULL, scanner, round);

		assert_int_equal(r, 2 + (n & 1));
		for (int t = 0; t < n; t++)
			assert_int_equal(scanner[t], sched_full_scanner(n, t));
		check_full_rounds(n, scanner, round, r);
	}
	for (int n = 3; n <= 5; n++) {
		int r, rr;

		for (int s = 0; s < n; s++)
			for (int t = 0; t < n; t++)
				cost[s * n + t] = s == t ? 0 : s == 1 || t == 1 ? 4 : 1;
		rr = sched_full_scans(n, NULL, ring, ring_round);
		r = sched_full_scans(n, cost, scanner, round);
		check_full_rounds(n, scanner, round, r);
		for (int t = 0; t < n; t++)
			if (t != 1)
				assert_int_not_equal(scanner[t], 1);
		assert_true(schedule_cost(n, cost, scanner, round, r) <
			    schedule_cost(n, cost, ring, ring_round, rr));
		if (n == 4)
			assert_int_equal(schedule_cost(n, cost, scanner, round, r), 6);
	}
	/* all clean: the ring's, unchanged */
	for (int s = 0; s < 4; s++)
		for (int t = 0; t < 4; t++)
			cost[s * 4 + t] = s != t;
	sched_full_scans(4, cost, scanner, round);
	for (int t = 0; t < 4; t++)
		assert_int_equal(scanner[t], (t + 1) % 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_mesh),
		cmocka_unit_test(beyond_mesh),
		cmocka_unit_test(full_scans),
		cmocka_unit_test(bw_plan),
		cmocka_unit_test(classify),
		cmocka_unit_test(same_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
