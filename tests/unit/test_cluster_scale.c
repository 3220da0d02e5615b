/*
 * What changes with many nodes, on four nodes built from the lab's real facts: the
 * neighbour-table rule (rules/cluster_neigh.c; each node has two subnets shared with its three
 * peers = 6 entries, and docker0's 172.17.0.1 everywhere, no neighbour) against the limits the
 * test sets, and reachability when only ring neighbours were tested (past --full-mesh-max).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_fixture.h"
#include "cmocka_helpers.h"
#include "model/cluster.h"
#include "rules/cluster.h"
#include "util/json.h"

#define N 4

struct fixture {
	json_t *facts[N];
	struct node_model *m[N];
	struct cluster_node nodes[N];
	struct cluster_view v;
	struct findings *fs;
};

/* Replaces address `from` by `to` wherever the facts list it. */
static void set_addr(json_t *facts, const char *from, const char *to)
{
	json_t *net = json_object_get(facts, "net"), *e, *a;
	size_t i, k;

	json_array_foreach(json_object_get(net, "ifaddrs"), i, e)
		if (!strcmp(jpath_str(e, "addr") ? jpath_str(e, "addr") : "", from))
			json_object_set_new(e, "addr", json_string(to));
	json_array_foreach(json_object_get(net, "interfaces"), i, e)
		json_array_foreach(json_object_get(e, "addrs"), k, a)
			if (!strcmp(jpath_str(a, "addr") ? jpath_str(a, "addr") : "", from))
				json_object_set_new(a, "addr", json_string(to));
}

/* Four nodes; thresholds t2/t3 on every node (0: not visible, as in a container). */
static void build(struct fixture *x, long t2, long t3)
{
	memset(x, 0, sizeof(*x));
	cluster_fixture_load(x->facts, N);
	for (int i = 0; i < N; i++) {
		char a[32], b[32];

		if (i >= 2) {
			snprintf(a, sizeof(a), "203.0.113.%d", 10 + i);
			snprintf(b, sizeof(b), "203.0.113.%d", 10 + i % 2);
			set_addr(x->facts[i], b, a);
			snprintf(a, sizeof(a), "10.10.0.%d", 10 + i);
			snprintf(b, sizeof(b), "10.10.0.%d", 10 + i % 2);
			set_addr(x->facts[i], b, a);
		}
		if (t3) {
			json_t *sc = json_object_get(x->facts[i], "sysctl");

			json_object_set_new(sc, "neigh_gc_thresh2", json_integer(t2));
			json_object_set_new(sc, "neigh_gc_thresh3", json_integer(t3));
		}
	}
	x->v.n = N;
	cluster_fixture_view(x->facts, x->m, x->nodes, NULL, &x->v);
	x->fs = findings_new();
	xrule_neigh(&x->v, x->fs);
}

static void release(struct fixture *x)
{
	cluster_fixture_free(x->facts, x->m, NULL, &x->v);
	findings_free(x->fs);
}

static void overflow_is_an_error_per_node(void **state)
{
	struct fixture x;
	const struct finding *f;
	(void)state;

	build(&x, 3, 5);
	f = expect_finding(x.fs, "cluster.neigh.table_small", SEV_ERROR);
	assert_int_equal(count_id(x.fs, "cluster.neigh.table_small"), N);
	assert_non_null(strstr(f->title, "needs 6 neighbour entries"));
	assert_non_null(strstr(f->title, "at most 5"));
	/* both shared subnets counted, docker0's duplicate address not */
	assert_non_null(strstr(f->evidence[0], "eth0 203.0.113.0/24: 3 peers"));
	assert_non_null(strstr(f->evidence[0], "eth1 10.10.0.0/24: 3 peers"));
	assert_null(strstr(f->evidence[0], "docker0"));
	assert_int_equal(f->nsettings, 2);
	assert_string_equal(f->settings[0].name, "net.ipv4.neigh.default.gc_thresh3");
	assert_string_equal(f->settings[0].value, "1024");
	assert_int_equal(f->settings[0].where, WHERE_SYSCTL);
	assert_int_equal(f->settings[0].scope, SCOPE_NODE);
	assert_string_equal(f->settings[1].value, "768");
	release(&x);
}

static void past_thresh2_is_a_warning(void **state)
{
	struct fixture x;
	(void)state;

	build(&x, 4, 6);
	expect_finding(x.fs, "cluster.neigh.table_small", SEV_WARN);
	release(&x);
}

static void enough_or_unknown_is_silent(void **state)
{
	struct fixture x;
	(void)state;

	build(&x, 512, 1024);	/* the kernel's defaults: 6 entries fit */
	expect_no_finding(x.fs, "cluster.neigh.table_small");
	release(&x);
	build(&x, 0, 0);	/* a container: the host's limits are not visible */
	expect_no_finding(x.fs, "cluster.neigh.table_small");
	release(&x);
}

/* peer c reached (or not) target s's address on ifname */
static void connect_link(struct cluster_link *l, int c, int s, const char *ifname, int ok)
{
	memset(l, 0, sizeof(*l));
	l->peer = c;
	l->target = s;
	l->ran = 1;
	l->kind = LINK_CONNECT;
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname);
	snprintf(l->res.addr, sizeof(l->res.addr), "10.10.0.%d", 10 + s);
	l->res.c.status = ok ? LINK_OK : LINK_TIMEOUT;
}

static void sampled_reachability(void **state)
{
	struct fixture x;
	struct cluster_link links[2 * N];
	(void)state;

	build(&x, 0, 0);
	/* a ring: every node tested by its two neighbours only */
	for (int i = 0; i < N; i++) {
		connect_link(&links[2 * i], (i + 1) % N, i, "eth1", 1);
		connect_link(&links[2 * i + 1], (i + N - 1) % N, i, "eth1", 1);
	}
	x.v.links = links;
	x.v.nlinks = 2 * N;
	/* a full mesh with peers missing proves nothing; a sampled plan's ring does */
	assert_int_equal(cluster_if_reachable(&x.v, 0, "eth1"), -1);
	x.v.sampled = 1;
	assert_int_equal(cluster_if_reachable(&x.v, 0, "eth1"), 1);
	assert_int_equal(cluster_if_reachable(&x.v, 0, "eth0"), -1);	/* never tested */
	links[1].res.c.status = LINK_TIMEOUT;
	assert_int_equal(cluster_if_reachable(&x.v, 0, "eth1"), 0);
	/* one neighbour is not enough */
	links[1] = links[0];
	x.v.nlinks = 1;
	assert_int_equal(cluster_if_reachable(&x.v, 0, "eth1"), -1);
	release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overflow_is_an_error_per_node),
		cmocka_unit_test(past_thresh2_is_a_warning),
		cmocka_unit_test(enough_or_unknown_is_silent),
		cmocka_unit_test(sampled_reachability),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
