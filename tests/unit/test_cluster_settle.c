/*
 * Settling node guesses by the link tests (rules/cluster_settle.c): the node rules run on two or
 * three lab nodes' real facts (tests/fixtures/facts/cluster/, edited into each guess's variant),
 * then synthetic link results — the ones the lab's scenarios measure — confirm or withdraw each
 * settleable finding; unmeasured paths leave it unsettled and other ids are not touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_fixture.h"
#include "cmocka_helpers.h"
#include "model/cluster.h"
#include "cluster/run.h"
#include "report/cluster_text.h"
#include "rules/cluster.h"
#include "rules/rules.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAXN 3
#define MAXL 96

struct fixture {
	json_t *facts[MAXN];
	struct node_model *m[MAXN];
	struct cluster_node nodes[MAXN];
	struct cluster_link links[MAXL];
	struct cluster_view v;
	struct findings *fs;		/* node 0's own findings */
	struct cluster_settled st;
};

/* n nodes; node i gets lab-n(i%2)'s facts (a third node is a copy of the first: its addresses
 * collide, which only the docker cases, with two nodes, look at) */
static void load(struct fixture *x, size_t n)
{
	memset(x, 0, sizeof(*x));
	cluster_fixture_load(x->facts, n);
	x->v.n = n;
}

static void build(struct fixture *x)
{
	cluster_fixture_view(x->facts, x->m, x->nodes, x->links, &x->v);
	x->fs = findings_new();
	rules_run_node(x->m[0], x->fs);
	cluster_settled_init(&x->st);
}

static void settle(struct fixture *x)
{
	cluster_settle(&x->v, 0, x->fs, &x->st);
}

static void release(struct fixture *x)
{
	cluster_fixture_free(x->facts, x->m, x->links, &x->v);
	findings_free(x->fs);
	cluster_settled_release(&x->st);
}

/* ---- editing the facts ---- */

static json_t *iface_of(json_t *facts, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(jpath(facts, "net.interfaces"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "name")), name))
			return e;
	fail_msg("no interface %s in the fixture", name);
	return NULL;
}

static void set_env(json_t *facts, const char *name, const char *value)
{
	json_object_set_new(json_object_get(facts, "env"), name, json_string(value));
}

/* Takes docker0 and its veths away: a container whose only NICs are veths (a bridge network). */
static void drop_docker(json_t *facts)
{
	const char *lists[][2] = { { "ifaddrs", "ifname" }, { "interfaces", "name" } };
	json_t *net = json_object_get(facts, "net");

	for (size_t k = 0; k < 2; k++) {
		json_t *arr = json_object_get(net, lists[k][0]);

		for (size_t i = json_array_size(arr); i-- > 0;) {
			const char *n = json_string_value(json_object_get(json_array_get(arr, i),
									  lists[k][1]));
			if (n && (!strcmp(n, "docker0") || !strncmp(n, "vethdock", 8)))
				json_array_remove(arr, i);
		}
	}
}

/* ---- link results ---- */

static struct cluster_link *link_new(struct fixture *x, enum link_kind kind, int c, int s,
				     const char *ifname)
{
	struct cluster_link *l = &x->links[x->v.nlinks++];
	const struct ifs_addr *a = node_model_addr(x->m[s], ifname, 4);

	assert_true(x->v.nlinks <= MAXL);
	memset(l, 0, sizeof(*l));
	l->peer = c;
	l->target = s;
	l->ran = 1;
	l->kind = kind;
	l->res.kind = kind;
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname);
	snprintf(l->res.addr, sizeof(l->res.addr), "%s", a ? a->text : "192.0.2.1");
	return l;
}

static void connect_to(struct fixture *x, int c, int s, const char *ifname, enum link_status st)
{
	struct cluster_link *l = link_new(x, LINK_CONNECT, c, s, ifname);

	l->res.c.status = st;
	l->res.c.ntries = 1;
	l->res.c.tries[0] = (struct link_port_try){ .port = 40000, .status = st };
}

/* A scan of [lo, hi]: `bad` (closed from 32768 to bad_hi) then open, or all open when bad is 0. */
static void scan_of(struct fixture *x, int c, int s, const char *ifname, enum link_port_state bad,
		    uint16_t bad_hi)
{
	struct cluster_link *l = link_new(x, LINK_SCAN, c, s, ifname);
	struct link_scan_result *r = &l->res.s;

	r->lo = 32768;
	r->hi = 60999;
	r->iv = xcalloc(2, sizeof(*r->iv));
	if (bad) {
		r->iv[r->niv++] = (struct link_interval){ .lo = 32768, .hi = bad_hi, .state = bad };
		if (bad_hi < 60999)
			r->iv[r->niv++] = (struct link_interval){ .lo = bad_hi + 1, .hi = 60999,
								  .state = LINK_PORT_OPEN };
	} else {
		r->iv[r->niv++] = (struct link_interval){ .lo = 32768, .hi = 60999,
							  .state = LINK_PORT_OPEN };
	}
}

static void mtu_to(struct fixture *x, int c, int s, const char *ifname, int if_mtu, int path_mtu,
		   int blackhole)
{
	struct cluster_link *l = link_new(x, LINK_MTU, c, s, ifname);

	l->res.m = (struct link_mtu_result){ .if_mtu = if_mtu, .path_mtu = path_mtu,
					     .blackhole = blackhole, .probes = 12 };
}

/* What a healthy lab measures between every pair on `ifname` (MTU `mtu`). */
static void good(struct fixture *x, const char *ifname, int mtu)
{
	for (int s = 0; s < (int)x->v.n; s++)
		for (int c = 0; c < (int)x->v.n; c++) {
			if (c == s)
				continue;
			connect_to(x, c, s, ifname, LINK_OK);
			scan_of(x, c, s, ifname, 0, 0);
			mtu_to(x, c, s, ifname, mtu, mtu, 0);
		}
}

/* ---- asserting ---- */

static const struct cluster_settle_entry *entry(const struct fixture *x, const char *id)
{
	for (size_t i = 0; i < x->st.n; i++)
		if (!strcmp(x->st.v[i].f->id, id))
			return &x->st.v[i];
	for (size_t i = 0; i < x->st.n; i++)
		print_message("  settled: %s %s\n", x->st.v[i].f->id,
			      cluster_settle_name(x->st.v[i].verdict));
	fail_msg("'%s' was not settled", id);
	return NULL;
}

static int has_evidence(const struct finding *f, const char *needle)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (strstr(f->evidence[i], needle))
			return 1;
	return 0;
}

/* `id` confirmed with severity `sev`, its evidence naming the link test (each needle). */
static void expect_confirmed(const struct fixture *x, const char *id, enum severity sev,
			     const char *n1, const char *n2)
{
	const struct cluster_settle_entry *e = entry(x, id);
	const struct finding *f = findings_find(x->fs, id);

	if (e->verdict != CLUSTER_CONFIRMED)
		fail_msg("%s is %s, not confirmed: %s", id, cluster_settle_name(e->verdict),
			 e->evidence);
	assert_ptr_equal(f, e->f);
	assert_int_equal(f->sev, sev);
	assert_int_equal(f->conf, CONF_HIGH);
	assert_true(has_evidence(f, "confirmed by measurement: "));
	if (!strstr(e->evidence, n1) || (n2 && !strstr(e->evidence, n2)))
		fail_msg("%s's evidence lacks '%s'/'%s': %s", id, n1, n2 ? n2 : "", e->evidence);
}

static void expect_withdrawn(const struct fixture *x, const char *id, const char *needle)
{
	const struct cluster_settle_entry *e = entry(x, id);

	if (e->verdict != CLUSTER_WITHDRAWN)
		fail_msg("%s is %s, not withdrawn: %s", id, cluster_settle_name(e->verdict),
			 e->evidence);
	expect_no_finding(x->fs, id);
	assert_ptr_equal(findings_find(x->st.withdrawn, id), e->f);
	assert_true(has_evidence(e->f, "withdrawn by measurement: "));
	if (!strstr(e->evidence, needle))
		fail_msg("%s's evidence lacks '%s': %s", id, needle, e->evidence);
}

static void expect_unsettled(const struct fixture *x, const char *id, const char *needle)
{
	const struct cluster_settle_entry *e = entry(x, id);

	if (e->verdict != CLUSTER_UNSETTLED)
		fail_msg("%s is %s, not unsettled", id, cluster_settle_name(e->verdict));
	assert_ptr_equal(findings_find(x->fs, id), e->f);
	assert_false(has_evidence(e->f, "by measurement"));
	if (!strstr(e->evidence, needle))
		fail_msg("%s's reason lacks '%s': %s", id, needle, e->evidence);
}

/* ---- the cases ---- */

/* A rule on the master that drops MASTER_PORT 29500 on eth1 (MASTER_ADDR's interface). */
static void drop_master_port(json_t *facts)
{
	json_array_append_new(jpath(facts, "firewall.rules"), json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[[i,i]], s:s, s:s, s:b, s:b, s:b, s:[]}",
		"action", "DROP", "chain", "INPUT", "family", "ip", "table", "filter", "proto",
		"tcp", "dports", 29500, 29500, "iface", "eth1", "text",
		"-A INPUT -i eth1 -p tcp --dport 29500 -j DROP", "conditional", 0, "iface_neg", 0,
		"src_neg", 0, "states"));
}

/* cloud-public-blocked's layout: NCCL bootstraps on eth0 while MASTER_ADDR is on eth1 */
static void master_mismatch_and_firewall(void **state)
{
	struct fixture x;
	(void)state;

	/* the lab's healthy scenario: eth0 carries everything, the local DROP rule is not there */
	load(&x, 2);
	build(&x);
	expect_finding(x.fs, "net.bootstrap.master_mismatch", SEV_ERROR);
	expect_finding(x.fs, "net.firewall.blocks", SEV_ERROR);
	/* eth0's DROP covers 29500 too, but the ranks join over eth1: no claim about it */
	expect_no_finding(x.fs, "net.firewall.master_port");
	good(&x, "eth0", 1500);
	good(&x, "eth1", 1500);
	settle(&x);
	expect_withdrawn(&x, "net.bootstrap.master_mismatch", "every peer (1) connects to");
	expect_withdrawn(&x, "net.firewall.blocks", "every port of 32768-60999 open");
	assert_non_null(findings_find(x.fs, "gpu.driver.absent"));
	assert_int_equal(x.st.nwithdrawn, 2);
	assert_int_equal(x.st.nconfirmed + x.st.nunsettled, x.st.n - 2);
	release(&x);

	/*
	 * 29500 dropped on eth1 as the node reads its rules, yet every peer joined the cluster's
	 * rendezvous there (a rule the model misreads, or one added after): withdrawn. A peer that
	 * was given another MASTER_ADDR did not join through it: unsettled.
	 */
	for (int other = 0; other < 2; other++) {
		load(&x, 2);
		drop_master_port(x.facts[0]);
		if (other)
			json_object_set_new(jpath(x.facts[1], "net.master"), "addr",
					    json_string("10.10.0.99"));
		build(&x);
		expect_finding(x.fs, "net.firewall.master_port", SEV_ERROR);
		settle(&x);
		if (other)
			expect_unsettled(&x, "net.firewall.master_port", "do not show it joining");
		else
			expect_withdrawn(&x, "net.firewall.master_port",
					 "every peer (1) joined this run's rendezvous at MASTER_ADDR "
					 "10.10.0.10:29500");
		release(&x);
	}

	/* cloud-public-blocked: eth0 times out, its whole range drops */
	load(&x, 2);
	build(&x);
	connect_to(&x, 1, 0, "eth0", LINK_TIMEOUT);
	scan_of(&x, 1, 0, "eth0", LINK_PORT_DROPPED, 60999);
	good(&x, "eth1", 1500);
	settle(&x);
	expect_confirmed(&x, "net.bootstrap.master_mismatch", SEV_ERROR, "eth0 203.0.113.10:40000",
			 "timeout (the connect test)");
	expect_confirmed(&x, "net.firewall.blocks", SEV_ERROR, "ports 32768-60999 dropped",
			 "port scan");
	release(&x);

	/* part of the range only, found by the scan: confirmed, the closed part named */
	load(&x, 2);
	build(&x);
	connect_to(&x, 1, 0, "eth0", LINK_OK);
	scan_of(&x, 1, 0, "eth0", LINK_PORT_REJECTED, 49151);
	settle(&x);
	expect_confirmed(&x, "net.firewall.blocks", SEV_ERROR, "ports 32768-49151 rejected", NULL);
	expect_confirmed(&x, "net.bootstrap.master_mismatch", SEV_ERROR, "32768-49151 rejected",
			 NULL);
	release(&x);
}

/* --no-ports, a peer that never tested, a sampled scan: nothing to withdraw by */
static void unmeasured_stays_unsettled(void **state)
{
	struct fixture x;
	struct cluster_link *l;
	(void)state;

	load(&x, 2);
	build(&x);
	connect_to(&x, 1, 0, "eth0", LINK_OK);
	settle(&x);
	expect_unsettled(&x, "net.bootstrap.master_mismatch", "no port scan");
	expect_unsettled(&x, "net.firewall.blocks", "no port scan");
	expect_finding(x.fs, "net.bootstrap.master_mismatch", SEV_ERROR);
	release(&x);

	/* a scan whose every port failed locally (no fd, ...): neither closed nor open */
	load(&x, 2);
	build(&x);
	connect_to(&x, 1, 0, "eth0", LINK_OK);
	scan_of(&x, 1, 0, "eth0", LINK_PORT_ERROR, 60999);
	settle(&x);
	expect_unsettled(&x, "net.firewall.blocks", "without testing every port");
	release(&x);

	/* three nodes; rank 2 never connected to rank 0's eth0; a sampled scan from rank 1 */
	load(&x, 3);
	build(&x);
	connect_to(&x, 1, 0, "eth0", LINK_OK);
	l = link_new(&x, LINK_SCAN, 1, 0, "eth0");
	l->res.s.iv = xcalloc(1, sizeof(*l->res.s.iv));
	l->res.s.iv[0] = (struct link_interval){ .lo = 40000, .hi = 40063, .state = LINK_PORT_OPEN };
	l->res.s.niv = 1;
	settle(&x);
	expect_unsettled(&x, "net.bootstrap.master_mismatch", "not every peer ran a connect test");
	expect_unsettled(&x, "net.firewall.blocks", "without testing every port");
	assert_int_equal(x.st.nunsettled, x.st.n);
	release(&x);
}

/* no MASTER_ADDR: a public bootstrap address while eth1 is private */
static void public_bootstrap(void **state)
{
	struct fixture x;
	(void)state;

	for (int broken = 0; broken < 2; broken++) {
		load(&x, 2);
		json_object_set_new(jpath(x.facts[0], "net"), "master", json_pack("{s:b}", "set", 0));
		json_object_del(json_object_get(x.facts[0], "env"), "MASTER_ADDR");
		build(&x);
		expect_finding(x.fs, "net.bootstrap.public", SEV_WARN);
		if (broken) {
			connect_to(&x, 1, 0, "eth0", LINK_REFUSED);
			settle(&x);
			/* a measured failure on NCCL's bootstrap interface: now an error */
			expect_confirmed(&x, "net.bootstrap.public", SEV_ERROR, "refused", "eth0");
		} else {
			good(&x, "eth0", 1500);
			settle(&x);
			expect_withdrawn(&x, "net.bootstrap.public", "found every port open");
		}
		release(&x);
	}
}

/* a container whose only NICs are veths: the peers do or do not reach NCCL here */
static void container_bridge(void **state)
{
	struct fixture x;
	(void)state;

	for (int broken = 0; broken < 2; broken++) {
		load(&x, 2);
		drop_docker(x.facts[0]);
		build(&x);
		expect_finding(x.fs, "cloud.container.bridge", SEV_WARN);
		good(&x, "eth1", 1500);
		if (broken) {
			connect_to(&x, 1, 0, "eth0", LINK_TIMEOUT);
			settle(&x);
			expect_confirmed(&x, "cloud.container.bridge", SEV_ERROR, "eth0", "timeout");
		} else {
			good(&x, "eth0", 1500);
			settle(&x);
			/* every interface NCCL uses was checked: eth0 and eth1 */
			expect_withdrawn(&x, "cloud.container.bridge", "NCCL's other 1 interface");
		}
		release(&x);
	}
}

/* eth1 at 9000 on both nodes: mtu-blackhole's hop, or a fabric that carries it */
static void jumbo_and_differing_mtus(void **state)
{
	struct fixture x;
	(void)state;

	for (int broken = 0; broken < 2; broken++) {
		load(&x, 2);
		for (int i = 0; i < 2; i++)
			json_object_set_new(iface_of(x.facts[i], "eth1"), "mtu", json_integer(9000));
		build(&x);
		expect_finding(x.fs, "net.mtu.jumbo", SEV_INFO);
		expect_finding(x.fs, "net.mtu.differ", SEV_INFO);
		good(&x, "eth0", 1500);
		if (broken) {
			mtu_to(&x, 1, 0, "eth1", 9000, 1500, 1);
			mtu_to(&x, 0, 1, "eth1", 9000, 1500, 1);
			settle(&x);
			expect_confirmed(&x, "net.mtu.jumbo", SEV_ERROR, "over 1500 bytes vanish",
					 "path MTU test");
			expect_confirmed(&x, "net.mtu.differ", SEV_ERROR, "interface MTU 9000", "eth1");
		} else {
			good(&x, "eth1", 9000);
			settle(&x);
			expect_withdrawn(&x, "net.mtu.jumbo", "largest packet 9000 bytes");
			expect_withdrawn(&x, "net.mtu.differ", "no black hole");
		}
		release(&x);
	}

	/* --no-mtu: nothing speaks to it */
	load(&x, 2);
	json_object_set_new(iface_of(x.facts[0], "eth1"), "mtu", json_integer(9000));
	build(&x);
	settle(&x);
	expect_unsettled(&x, "net.mtu.jumbo", "not every peer ran a path MTU test");
	release(&x);
}

/*
 * Three nodes, eth1 at 9000 everywhere: rank 1's path MTU test into rank 0 passed (twice), rank
 * 2's never ran. One peer's clean path says nothing about another's hop: unsettled until every
 * peer has tested, withdrawn once rank 2 has too.
 */
static void mtu_every_peer(void **state)
{
	struct fixture x;
	(void)state;

	for (int all = 0; all < 2; all++) {
		load(&x, 3);
		for (int i = 0; i < 3; i++)
			json_object_set_new(iface_of(x.facts[i], "eth1"), "mtu", json_integer(9000));
		build(&x);
		expect_finding(x.fs, "net.mtu.jumbo", SEV_INFO);
		good(&x, "eth0", 1500);
		mtu_to(&x, 1, 0, "eth1", 9000, 9000, 0);
		mtu_to(&x, 1, 0, "eth1", 9000, 9000, 0);
		mtu_to(&x, 0, 1, "eth1", 9000, 9000, 0);
		mtu_to(&x, 0, 2, "eth1", 9000, 9000, 0);
		if (all)
			mtu_to(&x, 2, 0, "eth1", 9000, 9000, 0);
		settle(&x);
		if (all) {
			expect_withdrawn(&x, "net.mtu.jumbo", "largest packet 9000 bytes");
			expect_withdrawn(&x, "net.mtu.differ", "no black hole");
		} else {
			expect_unsettled(&x, "net.mtu.jumbo", "not every peer ran a path MTU test");
			expect_unsettled(&x, "net.mtu.differ", "not every peer ran a path MTU test");
		}
		release(&x);
	}
}

/* the clouds' MTU notes: the same measurement over NCCL's interfaces */
static void cloud_mtu_notes(void **state)
{
	static const char *const clouds[][2] = { { "alibaba", "cloud.alibaba.mtu" },
						 { "gcp", "cloud.gcp.mtu" } };
	struct fixture x;
	(void)state;

	for (size_t k = 0; k < 2; k++)
		for (int broken = 0; broken < 2; broken++) {
			load(&x, 2);
			json_object_set_new(x.facts[0], "cloud", json_pack("{s:s}", "provider",
									   clouds[k][0]));
			build(&x);
			expect_finding(x.fs, clouds[k][1], SEV_INFO);
			good(&x, "eth0", 1500);
			if (broken) {
				mtu_to(&x, 1, 0, "eth1", 1500, 1400, 1);
				settle(&x);
				expect_confirmed(&x, clouds[k][1], SEV_ERROR, "over 1400 bytes vanish",
						 NULL);
			} else {
				good(&x, "eth1", 1500);
				settle(&x);
				expect_withdrawn(&x, clouds[k][1], "no black hole");
			}
			release(&x);
		}
}

/* Gives docker0 another address on this node: 172.18.0.1, not the 172.17.0.1 of the others. */
static void docker_unique(json_t *facts)
{
	json_t *e;
	size_t i;

	json_array_foreach(jpath(facts, "net.interfaces"), i, e) {
		json_t *a = json_array_get(json_object_get(e, "addrs"), 0);

		if (!strcmp(json_string_value(json_object_get(e, "name")), "docker0") && a)
			json_object_set_new(a, "addr", json_string("172.18.0.1"));
	}
	json_array_foreach(jpath(facts, "net.ifaddrs"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "ifname")), "docker0") &&
		    json_integer_value(json_object_get(e, "family")) == 4)
			json_object_set_new(e, "addr", json_string("172.18.0.1"));
}

/* docker0: as NCCL's bootstrap (NCCL_SOCKET_IFNAME=docker0), or left in by '^lo' */
static void docker0(void **state)
{
	static const char *const cases[][2] = { { "docker0", "net.bootstrap.docker" },
						{ "^lo", "net.ifname.docker_eligible" } };
	struct fixture x;
	(void)state;

	for (size_t k = 0; k < 2; k++) {
		/* the lab's docker0-duplicate: 172.17.0.1 on both nodes */
		load(&x, 2);
		set_env(x.facts[0], "NCCL_SOCKET_IFNAME", cases[k][0]);
		build(&x);
		assert_non_null(findings_find(x.fs, cases[k][1]));
		good(&x, "docker0", 1500);
		settle(&x);
		expect_confirmed(&x, cases[k][1], SEV_ERROR, "172.17.0.1", "reaches itself");
		release(&x);

		/* docker0 with its own, routed address on every node, which every peer reaches */
		load(&x, 2);
		set_env(x.facts[0], "NCCL_SOCKET_IFNAME", cases[k][0]);
		docker_unique(x.facts[1]);
		build(&x);
		good(&x, "docker0", 1500);
		good(&x, "eth0", 1500);
		good(&x, "eth1", 1500);
		settle(&x);
		expect_withdrawn(&x, cases[k][1], "docker0");
		release(&x);

		/* unique, but refused */
		load(&x, 2);
		set_env(x.facts[0], "NCCL_SOCKET_IFNAME", cases[k][0]);
		docker_unique(x.facts[1]);
		build(&x);
		connect_to(&x, 1, 0, "docker0", LINK_REFUSED);
		settle(&x);
		expect_confirmed(&x, cases[k][1], SEV_ERROR, "refused", "docker0");
		release(&x);
	}
}

/* MASTER_ADDR on eth0 while NET/Socket also opens eth1: every extra interface must be reachable */
static void extra_interfaces(void **state)
{
	struct fixture x;
	(void)state;

	for (int broken = 0; broken < 2; broken++) {
		load(&x, 2);
		json_object_set_new(jpath(x.facts[0], "net.master"), "source_ifname",
				    json_string("eth0"));
		json_object_set_new(jpath(x.facts[0], "net.master"), "source_addr",
				    json_string("203.0.113.10"));
		build(&x);
		expect_finding(x.fs, "net.socket.extra_interfaces", SEV_WARN);
		good(&x, "eth0", 1500);
		if (broken) {
			connect_to(&x, 1, 0, "eth1", LINK_HOSTUNREACH);
			settle(&x);
			expect_confirmed(&x, "net.socket.extra_interfaces", SEV_ERROR, "eth1",
					 "hostunreach");
		} else {
			good(&x, "eth1", 1500);
			settle(&x);
			expect_withdrawn(&x, "net.socket.extra_interfaces", "connects to");
		}
		release(&x);
	}
}

/* The text report from a report document: counts, the confirmed listed, withdrawn never shown. */
static void report_text(void **state)
{
	struct findings *fs = findings_new();
	struct finding *f = finding_add(fs, SEV_ERROR, "net.mtu.jumbo", "eth1 has MTU 9000");
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;
	(void)state;

	(void)f;
	doc = json_pack("{s:[{s:s, s:o, s:[{s:s, s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s, s:s},"
			"{s:s, s:s, s:s, s:s, s:s}]}, {s:s, s:[]}, {s:s, s:[], s:[{s:s}, {s:i}]}]}",
			"nodes",
			"name", "a", "findings", findings_to_json(fs), "settled",
			"id", "net.mtu.jumbo", "verdict", "confirmed", "severity", "error",
			"title", "eth1 has MTU 9000", "evidence", "b -> a eth1: packets over 1500 vanish",
			"id", "net.bootstrap.public", "verdict", "withdrawn", "severity", "warn",
			"title", "SECRET-WITHDRAWN", "evidence", "every peer connects",
			"id", "net.mtu.differ", "verdict", "unsettled", "severity", "info",
			"title", "MTUs differ", "evidence", "no path MTU test",
			"name", "b", "findings",
			"name", "c", "findings", "settled", "verdict", "confirmed", "verdict", 3);
	assert_non_null(doc);
	cluster_report_text(doc, 0, &sb);
	assert_non_null(strstr(sb.buf, "settled by the link tests"));
	assert_non_null(strstr(sb.buf, "1 confirmed, 1 withdrawn by measurement, 1 unsettled; "
				       "left: 1 error, 0 warnings, 0 notes"));
	assert_non_null(strstr(sb.buf, "confirmed error net.mtu.jumbo: eth1 has MTU 9000\n"
				       "      measured: b -> a eth1: packets over 1500 vanish"));
	assert_null(strstr(sb.buf, "SECRET-WITHDRAWN"));
	assert_null(strstr(sb.buf, "MTUs differ"));
	assert_non_null(strstr(sb.buf, "b                    not settled (the link tests did not "
				       "finish)"));
	/* a peer's entry without members is counted, shown with '?', and does not crash */
	assert_non_null(strstr(sb.buf, "confirmed ? ?: ?"));
	assert_non_null(strstr(sb.buf, "(1 confirmed error: measured failures, counted in the exit "
				       "code)"));
	strbuf_release(&sb);
	cluster_report_text(doc, 1, &sb);
	assert_non_null(strstr(sb.buf, "unsettled info net.mtu.differ: MTUs differ\n      why not: "
				       "no path MTU test"));
	assert_null(strstr(sb.buf, "SECRET-WITHDRAWN"));
	strbuf_release(&sb);
	json_decref(doc);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(master_mismatch_and_firewall),
		cmocka_unit_test(unmeasured_stays_unsettled),
		cmocka_unit_test(public_bootstrap),
		cmocka_unit_test(container_bridge),
		cmocka_unit_test(jumbo_and_differing_mtus),
		cmocka_unit_test(mtu_every_peer),
		cmocka_unit_test(cloud_mtu_notes),
		cmocka_unit_test(docker0),
		cmocka_unit_test(extra_interfaces),
		cmocka_unit_test(report_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
