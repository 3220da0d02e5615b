/*
 * Cause, then consequences (rules/cluster_fold.c), through the whole cross-node hook
 * (cluster_xrules: every rule, the settling, the fold) on three lab nodes' real facts with
 * synthetic link results. The faults sit on the third node (not the master) and on its second
 * interface (eth1, not the first), so a fold that picks the wrong node or interface fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_fixture.h"
#include "cmocka_helpers.h"
#include "model/cluster.h"
#include "model/node.h"
#include "rules/cluster.h"
#include "rules/rules.h"
#include "util/json.h"
#include "util/xalloc.h"

#define N 3
#define MAXL 64

struct fixture {
	json_t *facts[N];
	struct node_model *m[N];
	const struct node_model *models[N];	/* m[], as the rules read them */
	const char *names[N];
	struct cluster_link links[MAXL];
	size_t nlinks;
	struct findings *node_fs[N];
	struct cluster_settled settled[N];
	struct findings *out;
};

/*
 * lab-n`base`'s facts as a third node: its own name and addresses (.12), so nothing collides
 * (lab-n0's keep MASTER_ADDR, 10.10.0.10: the master's address is not the node's own).
 */
static json_t *third_node(int base)
{
	json_t *f = load_fixture_json(base ? "facts/cluster/lab-n1.json" :
				      "facts/cluster/lab-n0.json");
	char *s = json_dumps(f, JSON_COMPACT), *p;
	json_error_t jerr;
	json_t *g;
	static const char *const from[2][3] = {
		{ "\"addr\":\"10.10.0.10\"", "203.0.113.10", "xr1-n0" },
		{ "10.10.0.11", "203.0.113.11", "xr1-n1" } };
	static const char *const to[2][3] = {
		{ "\"addr\":\"10.10.0.12\"", "203.0.113.12", "xr1-n2" },
		{ "10.10.0.12", "203.0.113.12", "xr1-n2" } };

	for (size_t k = 0; k < 3; k++)
		for (p = strstr(s, from[base][k]); p; p = strstr(p + 1, from[base][k]))
			memcpy(p, to[base][k], strlen(to[base][k]));	/* same length */
	g = json_loads(s, 0, &jerr);
	assert_non_null(g);
	free(s);
	json_decref(f);
	return g;
}

static void load_as(struct fixture *x, int base)
{
	memset(x, 0, sizeof(*x));
	x->facts[0] = load_fixture_json("facts/cluster/lab-n0.json");
	x->facts[1] = load_fixture_json("facts/cluster/lab-n1.json");
	x->facts[2] = third_node(base);
	for (size_t i = 0; i < N; i++) {
		struct err e = ERR_INIT;

		x->names[i] = jpath_str(x->facts[i], "host.hostname");
		x->node_fs[i] = findings_new();
		x->models[i] = x->m[i] = node_model_new(x->facts[i], &e);
		if (!x->m[i])
			fail_msg("%s", e.msg);
		rules_run_node(x->m[i], x->node_fs[i]);
		cluster_settled_init(&x->settled[i]);
	}
	assert_string_equal(x->names[2], "xr1-n2");
}

static void load(struct fixture *x)
{
	load_as(x, 1);
}

static const char *addr_of(struct fixture *x, int node, const char *ifname)
{
	static const char *const a[N][2] = { { "203.0.113.10", "10.10.0.10" },
					     { "203.0.113.11", "10.10.0.11" },
					     { "203.0.113.12", "10.10.0.12" } };

	return a[node][!strcmp(ifname, "eth1")];
	(void)x;
}

static struct cluster_link *link_new(struct fixture *x, enum link_kind kind, int c, int s,
				     const char *ifname)
{
	struct cluster_link *l = &x->links[x->nlinks++];

	assert_true(x->nlinks <= MAXL);
	memset(l, 0, sizeof(*l));
	l->peer = c;
	l->target = s;
	l->ran = 1;
	l->kind = kind;
	l->res.kind = kind;
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname);
	snprintf(l->res.addr, sizeof(l->res.addr), "%s", addr_of(x, s, ifname));
	snprintf(l->res.src, sizeof(l->res.src), "%s", addr_of(x, c, ifname));
	return l;
}

/*
 * Every pair over eth0 and eth1: connects on `port`, a scan of 32768-60999. Into the nodes of
 * the bit mask `bad` on `bad_if` the scans find [32768, drop_hi] dropped.
 */
static void measure(struct fixture *x, int bad, const char *bad_if, unsigned drop_hi,
		    unsigned port)
{
	static const char *const ifs[] = { "eth0", "eth1" };

	for (int s = 0; s < N; s++)
		for (int c = 0; c < N; c++)
			for (size_t k = 0; k < 2; k++) {
				int hit = ((bad >> s) & 1) && !strcmp(ifs[k], bad_if);
				int blocked = hit && port <= drop_hi;
				struct cluster_link *l;
				struct link_scan_result *r;

				if (c == s)
					continue;
				l = link_new(x, LINK_CONNECT, c, s, ifs[k]);
				l->res.c.status = blocked ? LINK_TIMEOUT : LINK_OK;
				l->res.c.ntries = 1;
				l->res.c.tries[0] = (struct link_port_try){
					.port = (uint16_t)port, .status = l->res.c.status };
				l->res.c.rtt_p50_us = 80;
				l = link_new(x, LINK_SCAN, c, s, ifs[k]);
				r = &l->res.s;
				r->lo = 32768;
				r->hi = 60999;
				r->iv = xcalloc(2, sizeof(*r->iv));
				if (hit) {
					r->iv[r->niv++] = (struct link_interval){
						.lo = 32768, .hi = (uint16_t)drop_hi,
						.state = LINK_PORT_DROPPED };
					r->iv[r->niv++] = (struct link_interval){
						.lo = (uint16_t)(drop_hi + 1), .hi = 60999,
						.state = LINK_PORT_OPEN };
				} else {
					r->iv[r->niv++] = (struct link_interval){
						.lo = 32768, .hi = 60999, .state = LINK_PORT_OPEN };
				}
				r->counts[LINK_PORT_OPEN] = 1;
			}
}

static void judge(struct fixture *x)
{
	struct cluster_input in = { .n = N, .names = x->names, .models = x->models,
				    .links = x->links, .nlinks = x->nlinks,
				    .node_findings = x->node_fs, .settled = x->settled };

	x->out = findings_new();
	cluster_xrules(&in, x->out);
	findings_sort(x->out);
}

static void release(struct fixture *x)
{
	for (size_t i = 0; i < N; i++) {
		node_model_free(x->m[i]);
		json_decref(x->facts[i]);
		findings_free(x->node_fs[i]);
		cluster_settled_release(&x->settled[i]);
	}
	for (size_t i = 0; i < x->nlinks; i++)
		free(x->links[i].res.s.iv);
	findings_free(x->out);
}

static void dump(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		print_message("  %s %s [%s %s] %s%s\n", severity_name(fs->v[i]->sev), fs->v[i]->id,
			      fs->v[i]->node ? fs->v[i]->node : "-",
			      fs->v[i]->ifname ? fs->v[i]->ifname : "-", fs->v[i]->title,
			      fs->v[i]->caused_by ? " (folded)" : "");
}

static int same_pair(const struct finding *f, const char *a, const char *b)
{
	return f->node && f->peer && ((!strcmp(f->node, a) && !strcmp(f->peer, b)) ||
				      (!strcmp(f->node, b) && !strcmp(f->peer, a)));
}

/* The roots of severity >= warn with `id`. */
static size_t roots(const struct findings *fs, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += !strcmp(fs->v[i]->id, id) && !finding_folded(fs->v[i]) &&
		     fs->v[i]->sev >= SEV_WARN;
	return n;
}

/*
 * xr1-n1 and xr1-n2 (not the master) drop 32768-49151 on eth1 (not the first interface) and
 * the connect tests into them landed there (port 40000): one root for both, about eth1, with
 * their sysctls and nobody else's; every per-link finding and the unreachable interfaces
 * folded under it, naming it; xr1-n0 is named by nothing.
 */
static void test_third_node_second_interface(void **state)
{
	struct fixture x;
	const struct finding *root;
	int ipt = 0;

	(void)state;
	load(&x);
	measure(&x, (1 << 1) | (1 << 2), "eth1", 49151, 40000);
	judge(&x);
	dump(x.out);
	assert_int_equal(roots(x.out, "link.ports.range"), 1);
	root = findings_find(x.out, "link.ports.range");
	assert_false(finding_folded(root));
	assert_null(root->node);
	assert_string_equal(root->ifname, "eth1");
	assert_string_equal(root->title, "xr1-n1 and xr1-n2 drop TCP ports 32768-49151 on eth1");
	/* the fix is for xr1-n1 and xr1-n2 only, with the real peers' addresses on eth1 */
	assert_int_equal(root->nsettings, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(root->settings[i].where, WHERE_SYSCTL);
		assert_string_equal(root->settings[i].node, i ? "xr1-n2" : "xr1-n1");
		assert_string_equal(root->settings[i].value, "49152 60999");
	}
	for (size_t i = 0; i < root->nfix; i++) {
		assert_null(strstr(root->fix[i], "<"));
		assert_null(strstr(root->fix[i], "xr1-n0"));
		if (strstr(root->fix[i], "iptables")) {
			ipt++;
			assert_non_null(strstr(root->fix[i], "-i eth1 "));
			assert_non_null(strstr(root->fix[i], ipt == 1 ? "-s 10.10.0.10,10.10.0.12 "
								      : "-s 10.10.0.10,10.10.0.11 "));
			assert_non_null(strstr(root->fix[i], "--dport 32768:49151 "));
		}
	}
	assert_int_equal(ipt, 2);
	/* no root names an innocent node or interface */
	assert_int_equal(roots(x.out, "link.ports.blocked"), 0);
	assert_int_equal(roots(x.out, "cluster.link.unreachable"), 0);
	assert_int_equal(roots(x.out, "cluster.verdict.none"), 0);
	for (size_t i = 0; i < x.out->n; i++) {
		const struct finding *f = x.out->v[i];

		if (!strcmp(f->id, "link.ports.blocked") || !strcmp(f->id, "cluster.link.unreachable")) {
			assert_true(finding_cause_is(f, root));
			assert_true(!strcmp(f->node, "xr1-n1") || !strcmp(f->node, "xr1-n2"));
			assert_string_equal(f->ifname, "eth1");
		}
	}
	/* counts agree: the folded ones are not errors */
	assert_int_equal(findings_count(x.out, SEV_ERROR), root->sev == SEV_ERROR);
	/* the innocent nodes' own findings are never folded under xr1-n2's block */
	for (size_t n = 0; n < N; n++)
		for (size_t i = 0; i < x.node_fs[n]->n; i++) {
			const struct finding *f = x.node_fs[n]->v[i];

			print_message("  node %zu: %s %s%s\n", n, severity_name(f->sev), f->id,
				      f->caused_by ? " (folded)" : "");
			if (n == 0)
				assert_null(f->caused_by);
		}
	release(&x);
}

/*
 * A firewall that drops six separate ranges on xr1-n1's and xr1-n2's eth1: the fix lets the
 * peers through every one of them on both, not the first few.
 */
static void test_many_closed_ranges(void **state)
{
	struct fixture x;
	const struct finding *root;
	int ipt = 0;

	(void)state;
	load(&x);
	measure(&x, (1 << 1) | (1 << 2), "eth1", 49151, 50000);
	for (size_t i = 0; i < x.nlinks; i++) {
		struct link_scan_result *r = &x.links[i].res.s;

		if (x.links[i].kind != LINK_SCAN || (x.links[i].target != 1 && x.links[i].target != 2) ||
		    strcmp(x.links[i].ifname, "eth1"))
			continue;
		free(r->iv);
		r->iv = xcalloc(12, sizeof(*r->iv));
		r->niv = 0;
		for (unsigned k = 0; k < 6; k++) {
			unsigned lo = 32768 + k * 4000;

			r->iv[r->niv++] = (struct link_interval){
				.lo = (uint16_t)lo, .hi = (uint16_t)(lo + 999),
				.state = LINK_PORT_DROPPED };
			r->iv[r->niv++] = (struct link_interval){
				.lo = (uint16_t)(lo + 1000), .hi = k == 5 ? 60999 : (uint16_t)(lo + 3999),
				.state = LINK_PORT_OPEN };
		}
	}
	judge(&x);
	dump(x.out);
	root = findings_find(x.out, "link.ports.range");
	assert_non_null(root);
	for (size_t i = 0; i < root->nfix; i++)
		if (strstr(root->fix[i], "iptables")) {
			char dport[32];

			snprintf(dport, sizeof(dport), "--dport %u:%u ", 32768 + ipt % 6 * 4000,
				 32768 + ipt % 6 * 4000 + 999);
			assert_non_null(strstr(root->fix[i], dport));
			ipt++;
		}
	assert_int_equal(ipt, 12);
	release(&x);
}

/*
 * xr1-n1 drops 32768-49151 on eth1 (no connection state kept): its bw test to xr1-n0 over eth1
 * could not connect, although its connect test there worked (its source port fell in the
 * closed range; on the GPU machine, product E). One root error, the block; the failed test is
 * folded under it and xr1-n0 is named by no root.
 */
static void test_block_fails_outgoing(void **state)
{
	struct fixture x;
	const struct finding *root, *failed;
	struct cluster_link *l;

	(void)state;
	load(&x);
	measure(&x, 1 << 1, "eth1", 49151, 50000);
	l = link_new(&x, LINK_BW, 1, 0, "eth1");
	l->ran = 0;
	snprintf(l->error, sizeof(l->error), "peer could not run the bw test: stream connect to "
		 "10.10.0.10 port 50000: timeout");
	judge(&x);
	dump(x.out);
	assert_int_equal(roots(x.out, "cluster.link.failed"), 0);
	assert_int_equal(roots(x.out, "link.ports.blocked"), 1);
	root = findings_find(x.out, "link.ports.blocked");
	failed = findings_find(x.out, "cluster.link.failed");
	assert_non_null(failed);
	assert_true(finding_cause_is(failed, root));
	for (size_t i = 0; i < x.out->n; i++)
		if (x.out->v[i]->sev == SEV_ERROR && !finding_folded(x.out->v[i]))
			assert_ptr_equal(x.out->v[i], root);
	release(&x);
}

/*
 * The same block, but the connect tests' port (55000) is open: the interface is reachable, the
 * block is still one root, and there is nothing unreachable to fold.
 */
static void test_block_missed_by_connect(void **state)
{
	struct fixture x;

	(void)state;
	load(&x);
	measure(&x, 1 << 2, "eth1", 49151, 55000);
	judge(&x);
	dump(x.out);
	/* one node, one interface: link.ports.blocked is its own root */
	assert_int_equal(roots(x.out, "link.ports.blocked"), 1);
	assert_null(findings_find(x.out, "link.ports.range"));
	assert_null(findings_find(x.out, "cluster.link.unreachable"));
	assert_string_equal(findings_find(x.out, "link.ports.blocked")->node, "xr1-n2");
	assert_string_equal(findings_find(x.out, "link.ports.blocked")->ifname, "eth1");
	release(&x);
}

/*
 * A connect test that failed on an open port is not explained by the block: the unreachable
 * interface is not folded under the port range, and the verdict that moves NCCL off it stays a
 * root (the fold never hides a fault under a cause that does not explain it).
 */
static void test_unexplained_failure_stays(void **state)
{
	struct fixture x;

	(void)state;
	load(&x);
	measure(&x, 1 << 2, "eth1", 49151, 40000);
	/* xr1-n0's connect into xr1-n2's eth1 tried 55000 (open by the scan) and timed out */
	for (size_t i = 0; i < x.nlinks; i++) {
		struct cluster_link *l = &x.links[i];

		if (l->kind == LINK_CONNECT && l->peer == 0 && l->target == 2 &&
		    !strcmp(l->ifname, "eth1"))
			l->res.c.tries[0].port = 55000;
	}
	judge(&x);
	dump(x.out);
	{
		const struct finding *u = findings_find(x.out, "cluster.link.unreachable");

		assert_non_null(u);
		assert_string_equal(u->node, "xr1-n2");
		assert_true(!u->caused_by || strcmp(u->caused_by->id, "link.ports.blocked"));
	}
	assert_int_equal(roots(x.out, "cluster.verdict.ifname"), 1);
	assert_int_equal(roots(x.out, "link.ports.blocked"), 1);
	release(&x);
}

/*
 * A node's own guesses: xr1-n2 (lab-n0's layout: NCCL bootstraps on eth0, a local DROP rule)
 * drops 32768-49151 on eth0 and the connect tests into it landed there. Its guesses, confirmed
 * by those tests, fold under the block; xr1-n0 has the same guesses but clean paths: they are
 * withdrawn there, and nothing of xr1-n0's is folded under xr1-n2's cause.
 */
static void test_node_guesses_fold(void **state)
{
	struct fixture x;
	size_t folded = 0;

	(void)state;
	load_as(&x, 0);
	measure(&x, 1 << 2, "eth0", 49151, 40000);
	judge(&x);
	dump(x.out);
	assert_int_equal(roots(x.out, "link.ports.blocked"), 1);
	assert_string_equal(findings_find(x.out, "link.ports.blocked")->node, "xr1-n2");
	assert_string_equal(findings_find(x.out, "link.ports.blocked")->ifname, "eth0");
	for (size_t n = 0; n < N; n++)
		for (size_t k = 0; k < x.settled[n].n; k++) {
			const struct cluster_settle_entry *e = &x.settled[n].v[k];

			print_message("  node %zu: %s %s %s\n", n, e->f->id,
				      cluster_settle_name(e->verdict),
				      e->f->caused_by ? e->f->caused_by->id : "-");
			if (n != 2) {
				assert_null(e->f->caused_by);
				continue;
			}
			if (e->verdict != CLUSTER_CONFIRMED)
				continue;
			/* every confirmed guess on xr1-n2 is explained by its block */
			assert_non_null(e->f->caused_by);
			assert_string_equal(e->f->caused_by->id, "link.ports.blocked");
			assert_string_equal(e->f->caused_by->node, "xr1-n2");
			folded++;
		}
	assert_true(folded >= 2);	/* master_mismatch and firewall.blocks at least */
	release(&x);
}

/*
 * One MTU black hole on xr1-n2's eth1 (a 1500-byte hop, interface MTU 9000), seen by the path
 * MTU tests from both peers: one root, the other folded under it, the title naming the path;
 * eth0's clean tests and every other pair are left alone.
 */
static void test_black_hole_once(void **state)
{
	struct fixture x;
	const struct finding *root = NULL;
	size_t folded = 0;

	(void)state;
	load(&x);
	measure(&x, 0, "-", 0, 40000);
	for (int s = 0; s < N; s++)
		for (int c = 0; c < N; c++) {
			static const char *const ifs[] = { "eth0", "eth1" };

			for (size_t k = 0; c != s && k < 2; k++) {
				struct cluster_link *l = link_new(&x, LINK_MTU, c, s, ifs[k]);
				int hole = s == 2 && k == 1;

				l->res.m = (struct link_mtu_result){
					.if_mtu = hole ? 9000 : 1500, .path_mtu = 1500,
					.blackhole = hole, .probes = 12 };
			}
		}
	/* the bulk transfers from both peers into xr1-n2's eth1 stall; eth0's do not */
	for (int c = 0; c < 2; c++) {
		struct cluster_link *l = link_new(&x, LINK_BW, c, 2, "eth1");

		l->res.b = (struct link_bw_result){ .streams = 1, .stalled = 1 };
		l = link_new(&x, LINK_BW, c, 2, "eth0");
		l->res.b = (struct link_bw_result){ .streams = 1, .total_gbps = 5 };
	}
	judge(&x);
	dump(x.out);
	assert_int_equal(roots(x.out, "link.bw.stalled"), 0);
	assert_non_null(findings_find(x.out, "link.bw.stalled"));
	assert_int_equal(roots(x.out, "link.mtu.blackhole"), 1);
	for (size_t i = 0; i < x.out->n; i++) {
		const struct finding *f = x.out->v[i];

		if (strcmp(f->id, "link.mtu.blackhole"))
			continue;
		assert_string_equal(f->node, "xr1-n2");
		assert_string_equal(f->ifname, "eth1");
		if (!f->caused_by)
			root = f;
	}
	assert_non_null(root);
	for (size_t i = 0; i < x.out->n; i++)
		if (!strcmp(x.out->v[i]->id, "link.mtu.blackhole") && x.out->v[i]->caused_by) {
			assert_true(finding_cause_is(x.out->v[i], root));
			folded++;
		}
	assert_int_equal(folded, 1);
	assert_non_null(strstr(root->title, "packets over 1500 bytes vanish on eth1 between "));
	assert_non_null(strstr(root->title, "xr1-n2"));
	release(&x);
}

/*
 * A black hole between xr1-n0 and xr1-n2 on eth1 also makes their bulk transfer over eth1
 * crawl (link.bw.slow_link: slow there, both fast with xr1-n1): the slow link folds under the
 * black hole. A black hole on the pair xr1-n1 <-> xr1-n2 explains nothing about xr1-n0 <-> xr1-n2:
 * that slow link stays a root.
 */
static void slow_beside_hole(int hole_peer, int *slow_roots, int *slow_folded)
{
	struct fixture x;
	const struct finding *hole = NULL, *slow = NULL;

	load(&x);
	measure(&x, 0, "-", 0, 40000);
	for (int c = 0; c < N; c++) {
		for (int s = 0; s < N; s++) {
			struct cluster_link *l;
			int pair02 = (c == 0 && s == 2) || (c == 2 && s == 0);

			if (c == s)
				continue;
			l = link_new(&x, LINK_MTU, c, s, "eth1");
			l->res.m = (struct link_mtu_result){
				.if_mtu = 9000, .path_mtu = c == hole_peer && s == 2 ? 1500 : 9000,
				.blackhole = c == hole_peer && s == 2, .probes = 12 };
			l = link_new(&x, LINK_BW, c, s, "eth1");
			l->res.b = (struct link_bw_result){ .streams = 1,
							    .total_gbps = pair02 ? 0.4 : 8 };
		}
	}
	judge(&x);
	dump(x.out);
	for (size_t i = 0; i < x.out->n; i++) {
		const struct finding *f = x.out->v[i];

		if (!strcmp(f->id, "link.mtu.blackhole") && !f->caused_by)
			hole = f;
		if (!strcmp(f->id, "link.bw.slow_link"))
			slow = f;
	}
	assert_non_null(hole);
	assert_string_equal(hole->node, "xr1-n2");
	assert_non_null(slow);
	assert_true(same_pair(slow, "xr1-n0", "xr1-n2"));
	*slow_roots = (int)roots(x.out, "link.bw.slow_link");
	*slow_folded = slow->caused_by && finding_cause_is(slow, hole);
	release(&x);
}

static void test_black_hole_slow_link(void **state)
{
	int r, folded;

	(void)state;
	slow_beside_hole(0, &r, &folded);	/* the hole is xr1-n0 -> xr1-n2 */
	assert_int_equal(r, 0);
	assert_true(folded);
	slow_beside_hole(1, &r, &folded);	/* the hole is xr1-n1 -> xr1-n2 */
	assert_int_equal(r, 1);
	assert_false(folded);
}

/* The fold keeps JSON and counts in step: caused_by survives the round trip. */
static void test_caused_by_json(void **state)
{
	struct fixture x;
	struct findings *back = findings_new();
	json_t *j;
	char err[256];

	(void)state;
	load(&x);
	measure(&x, 1 << 2, "eth1", 49151, 40000);
	judge(&x);
	j = findings_to_json(x.out);
	assert_int_equal(findings_from_json(back, j, err, sizeof(err)), 0);
	assert_int_equal(back->n, x.out->n);
	for (size_t i = 0; i < back->n; i++) {
		assert_int_equal(finding_folded(back->v[i]), finding_folded(x.out->v[i]));
		if (back->v[i]->caused_by) {
			assert_string_equal(back->v[i]->caused_by->id, "link.ports.blocked");
			assert_string_equal(back->v[i]->caused_by->node, "xr1-n2");
			assert_string_equal(back->v[i]->caused_by->ifname, "eth1");
		}
	}
	assert_int_equal(findings_count(back, SEV_ERROR), findings_count(x.out, SEV_ERROR));
	json_decref(j);
	findings_free(back);
	release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_third_node_second_interface),
		cmocka_unit_test(test_many_closed_ranges),
		cmocka_unit_test(test_block_fails_outgoing),
		cmocka_unit_test(test_block_missed_by_connect),
		cmocka_unit_test(test_unexplained_failure_stays),
		cmocka_unit_test(test_caused_by_json),
		cmocka_unit_test(test_node_guesses_fold),
		cmocka_unit_test(test_black_hole_once),
		cmocka_unit_test(test_black_hole_slow_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
