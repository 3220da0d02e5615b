/*
 * The bandwidth and per-link rules on a cluster view of measurements alone (no models needed):
 * xrule_bw judges the view's bandwidth links plus the flows measured alone exactly as the
 * scheduler's cluster_bw_judge does, so the findings name the slow host; flows inside one
 * kernel that were fast alone blame nobody. xrule_link_results says which test could not run
 * and holds each bandwidth figure against its ceiling, a nominal one only for a flow of one
 * kernel that stayed slow alone.
 */
#include "cmocka_helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cluster/sched.h"
#include "rules/cluster.h"
#include "rules/cluster_bw.h"
#include "util/xalloc.h"

#define N 8

static const char *const names[N] = { "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7" };

struct bw_view {
	struct cluster_node nodes[N];
	struct cluster_link links[64];
	struct cluster_bw_meas alone[64];
	struct cluster_view v;
};

/* Every flow of the bandwidth plan, as the cluster's links record them (peer sends). */
static void build(struct bw_view *x, double (*rate)(int, int), const char *const *boot)
{
	struct sched_bw_plan p;

	memset(x, 0, sizeof(*x));
	for (int i = 0; i < N; i++)
		x->nodes[i] = (struct cluster_node){ .name = names[i], .rank = i,
						     .boot_id = boot ? boot[i] : NULL };
	assert_int_equal(sched_bw_plan(N, &p), 0);
	for (int r = 0; r < p.nrounds; r++)
		for (int k = 0; k < p.rounds[r].nflows; k++) {
			const struct sched_flow *f = &p.rounds[r].flows[k];
			struct cluster_link *l = &x->links[x->v.nlinks++];

			assert_true(x->v.nlinks <= 64);
			*l = (struct cluster_link){ .target = f->to, .peer = f->from, .kind = LINK_BW,
						    .ran = 1 };
			snprintf(l->ifname, sizeof(l->ifname), "eth1");
			l->res.kind = LINK_BW;
			l->res.b.streams = 1;
			l->res.b.total_gbps = rate(f->from, f->to);
			ceiling_compute(10000, boot != NULL, 1500, 0, &l->ceil);
		}
	sched_bw_plan_release(&p);
	x->v.nodes = x->nodes;
	x->v.n = N;
	x->v.links = x->links;
	x->v.bw_alone = x->alone;
}

static double host5_slow(int from, int to)
{
	return from == 5 || to == 5 ? 0.095 : 9.4;
}

static const struct finding *only(const struct findings *fs, const char *id, size_t *count)
{
	const struct finding *f = NULL;

	*count = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i]->id, id)) {
			f = f ? f : fs->v[i];
			(*count)++;
		}
	return f;
}

static void slow_host_between_machines(void **state)
{
	struct bw_view *x = xcalloc(1, sizeof(*x));
	struct findings *fs = findings_new();
	const struct finding *f;
	size_t n, n5 = 0;

	(void)state;
	build(x, host5_slow, NULL);
	for (size_t i = 0; i < x->v.nlinks; i++)
		n5 += x->links[i].peer == 5 || x->links[i].target == 5;
	assert_true(n5 >= 4);
	xrule_bw(&x->v, fs);
	f = only(fs, "link.bw.slow_host", &n);
	assert_int_equal(n, 1);
	assert_string_equal(f->node, "n5");
	assert_null(only(fs, "link.bw.slow_link", &n));
	/* each figure against a real 10 Gbit/s line: n5's flows are far under it */
	findings_free(fs);
	fs = findings_new();
	xrule_link_results(&x->v, fs);
	only(fs, "link.bw.low", &n);
	assert_int_equal(n, n5);	/* every flow n5 sends or receives */
	only(fs, "link.bw.ok", &n);
	assert_int_equal(n, x->v.nlinks - n5);
	findings_free(fs);
	free(x);
}

static void one_kernel_fast_alone_blames_nobody(void **state)
{
	static const char *const one[N] = { "b", "b", "b", "b", "b", "b", "b", "b" };
	struct bw_view *x = xcalloc(1, sizeof(*x));
	struct findings *fs = findings_new();
	size_t n;

	(void)state;
	build(x, host5_slow, one);
	/* what the scheduler measured again alone: every slow flow of n5, fast now */
	for (size_t i = 0; i < x->v.nlinks; i++)
		if (x->links[i].peer == 5 || x->links[i].target == 5)
			x->alone[x->v.nbw_alone++] = (struct cluster_bw_meas){
				x->links[i].peer, x->links[i].target, 9.0 };
	xrule_bw(&x->v, fs);
	assert_null(only(fs, "link.bw.slow_host", &n));
	assert_non_null(only(fs, "link.bw.same_host", &n));
	assert_int_equal(n, 1);
	findings_free(fs);
	/* a veth's nominal speed judges none of these CPU figures */
	fs = findings_new();
	xrule_link_results(&x->v, fs);
	assert_null(only(fs, "link.bw.low", &n));
	findings_free(fs);

	/* the same flows slow alone too (a shaper in n5's namespace): the host, and its ceiling */
	for (size_t i = 0; i < x->v.nbw_alone; i++)
		x->alone[i].gbps = 0.09;
	fs = findings_new();
	xrule_bw(&x->v, fs);
	assert_string_equal(only(fs, "link.bw.slow_host", &n)->node, "n5");
	findings_free(fs);
	fs = findings_new();
	xrule_link_results(&x->v, fs);
	assert_non_null(only(fs, "link.bw.low", &n));
	findings_free(fs);
	free(x);
}

static void a_test_that_could_not_run(void **state)
{
	struct bw_view *x = xcalloc(1, sizeof(*x));
	struct findings *fs = findings_new();
	const struct finding *f;
	size_t n;

	(void)state;
	build(x, host5_slow, NULL);
	x->v.nlinks = 1;
	x->links[0] = (struct cluster_link){ .target = 1, .peer = 0, .kind = LINK_SCAN, .ran = 0 };
	snprintf(x->links[0].ifname, sizeof(x->links[0].ifname), "eth0");
	snprintf(x->links[0].error, sizeof(x->links[0].error), "too many open files");
	snprintf(x->links[0].res.addr, sizeof(x->links[0].res.addr), "10.0.0.2");
	xrule_link_results(&x->v, fs);
	f = only(fs, "cluster.link.failed", &n);
	assert_int_equal(n, 1);
	assert_int_equal(f->sev, SEV_ERROR);
	assert_non_null(strstr(f->title, "n0 -> n1 (10.0.0.2) over eth0: the scan test"));
	assert_string_equal(f->evidence[0], "too many open files");
	/* no bandwidth flows: nothing to judge, nothing said */
	findings_free(fs);
	fs = findings_new();
	xrule_bw(&x->v, fs);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slow_host_between_machines),
		cmocka_unit_test(one_kernel_fast_alone_blames_nobody),
		cmocka_unit_test(a_test_that_could_not_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
