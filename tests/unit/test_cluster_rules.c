/*
 * Cross-node rules and the interface verdict on cluster views built from two lab nodes' real
 * facts (tests/fixtures/facts/cluster/) and link results like the lab's scenarios measure them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_fixture.h"
#include "cmocka_helpers.h"
#include "model/cluster.h"
#include "rules/cluster.h"
#include "util/json.h"
#include "util/xalloc.h"

#define MAXN 4
#define MAXL 64

struct fixture {
	json_t *facts[MAXN];
	struct node_model *m[MAXN];
	struct cluster_node nodes[MAXN];
	struct cluster_link links[MAXL];
	struct cluster_view v;
	struct findings *fs;
};

static void load(struct fixture *x, size_t n)
{
	memset(x, 0, sizeof(*x));
	cluster_fixture_load(x->facts, n);
	x->v.n = n;
}

/* Builds the models (after the test edited the facts) and the view. */
static void build(struct fixture *x)
{
	cluster_fixture_view(x->facts, x->m, x->nodes, x->links, &x->v);
	x->fs = findings_new();
}

static void release(struct fixture *x)
{
	cluster_fixture_free(x->facts, x->m, x->links, &x->v);
	findings_free(x->fs);
}

/* peer c -> target s's address on ifname: the connect result `st`. */
static void link_connect(struct fixture *x, int c, int s, const char *ifname, const char *addr,
			 enum link_status st)
{
	struct cluster_link *l = &x->links[x->v.nlinks++];

	memset(l, 0, sizeof(*l));
	l->peer = c;
	l->target = s;
	l->ran = 1;
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname);
	l->kind = LINK_CONNECT;
	snprintf(l->res.addr, sizeof(l->res.addr), "%s", addr);
	l->res.c.status = st;
	l->res.c.ntries = 1;
	l->res.c.tries[0].port = 40000;
	l->res.c.tries[0].status = st;
	l->res.c.rtt_p50_us = st == LINK_OK ? 42 : 0;
}

/* What the lab's cloud-public-blocked (eth0_ok 0) or healthy (1) scenario measures. */
static void lab_links(struct fixture *x, int eth0_ok, const char *n1_private)
{
	link_connect(x, 0, 1, "eth0", "203.0.113.11", eth0_ok ? LINK_OK : LINK_TIMEOUT);
	link_connect(x, 1, 0, "eth0", "203.0.113.10", eth0_ok ? LINK_OK : LINK_TIMEOUT);
	link_connect(x, 0, 1, n1_private, "10.10.0.11", LINK_OK);
	link_connect(x, 1, 0, "eth1", "10.10.0.10", LINK_OK);
}

/* Renames an interface in a facts document (ifaddrs, interfaces, wherever the name is). */
static void rename_if(json_t *facts, const char *from, const char *to)
{
	const char *lists[][2] = { { "ifaddrs", "ifname" }, { "interfaces", "name" } };
	json_t *net = json_object_get(facts, "net"), *e;
	size_t i;

	for (size_t k = 0; k < 2; k++)
		json_array_foreach(json_object_get(net, lists[k][0]), i, e) {
			const char *n = json_string_value(json_object_get(e, lists[k][1]));
			if (n && !strcmp(n, from))
				json_object_set_new(e, lists[k][1], json_string(to));
		}
}

static const struct setting *setting_of(const struct finding *f, const char *name, const char *node)
{
	for (size_t i = 0; i < f->nsettings; i++)
		if (!strcmp(f->settings[i].name, name) &&
		    (!node || (f->settings[i].node && !strcmp(f->settings[i].node, node))))
			return &f->settings[i];
	return NULL;
}

static void public_blocked_names_eth1(void **state)
{
	struct fixture x;
	const struct finding *f;
	const struct setting *st;
	(void)state;

	load(&x, 2);
	build(&x);
	lab_links(&x, 0, "eth1");
	cluster_rules_run(&x.v, x.fs);

	/* NCCL's default choice is eth0, which times out between the nodes */
	f = expect_finding(x.fs, "cluster.link.unreachable", SEV_ERROR);
	assert_non_null(strstr(f->title, "eth0"));
	assert_non_null(strstr(f->title, "timed out"));
	assert_string_equal(f->ifname, "eth0");
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth1"));
	/* the firewall fix lets in only the peer (its address on that network, from its facts) */
	assert_true(finding_fix_contains(f, "iptables -I INPUT -i eth0 -p tcp -s 203.0.113.11 "
					    "-j ACCEPT") ||
		    finding_fix_contains(f, "iptables -I INPUT -i eth0 -p tcp -s 203.0.113.10 "
					    "-j ACCEPT"));
	assert_false(finding_fix_contains(f, "<"));
	st = setting_of(f, "NCCL_SOCKET_IFNAME", NULL);
	assert_non_null(st);
	assert_string_equal(st->value, "eth1");
	assert_int_equal(st->where, WHERE_ENV);
	assert_int_equal(st->scope, SCOPE_ALL);

	f = expect_finding(x.fs, "cluster.verdict.ifname", SEV_ERROR);
	assert_non_null(strstr(f->title, "NCCL_SOCKET_IFNAME=eth1"));
	assert_string_equal(setting_of(f, "NCCL_SOCKET_IFNAME", NULL)->value, "eth1");
	assert_string_equal(setting_of(f, "GLOO_SOCKET_IFNAME", NULL)->value, "eth1");

	/* docker0's 172.17.0.1 on both nodes: NCCL's defaults skip docker*, so it is a note */
	f = expect_finding(x.fs, "cluster.ip.duplicate", SEV_INFO);
	assert_non_null(strstr(f->title, "172.17.0.1"));
	expect_no_finding(x.fs, "link.connect.ok");
	expect_no_finding(x.fs, "cluster.versions.nccl");
	expect_finding(x.fs, "cluster.versions.same", SEV_OK);
	release(&x);
}

static void healthy_keeps_nccls_choice(void **state)
{
	struct fixture x;
	const struct finding *f;
	(void)state;

	load(&x, 2);
	build(&x);
	lab_links(&x, 1, "eth1");
	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.verdict.ifname", SEV_OK);
	assert_int_equal(f->nsettings, 0);
	expect_finding(x.fs, "link.connect.ok", SEV_OK);
	expect_no_finding(x.fs, "cluster.link.unreachable");
	assert_int_equal(findings_count(x.fs, SEV_ERROR), 0);
	release(&x);
}

/* Gives `ifname` the one IPv4 address `addr` (its class `cls`) wherever the facts list it. */
static void readdress_if(json_t *facts, const char *ifname, const char *addr, const char *cls)
{
	json_t *net = json_object_get(facts, "net"), *e, *a;
	size_t i, j;

	json_array_foreach(json_object_get(net, "ifaddrs"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "ifname")), ifname) &&
		    json_integer_value(json_object_get(e, "family")) == 4) {
			json_object_set_new(e, "addr", json_string(addr));
			json_object_set_new(e, "class", json_string(cls));
		}
	json_array_foreach(json_object_get(net, "interfaces"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "name")), ifname))
			json_array_foreach(json_object_get(e, "addrs"), j, a)
				if (json_integer_value(json_object_get(a, "family")) == 4) {
					json_object_set_new(a, "addr", json_string(addr));
					json_object_set_new(a, "class", json_string(cls));
				}
}

/* Sets the loaded (default) NCCL copy's version and TLS capability in a node's facts. */
static void set_tls(json_t *facts, const char *version, int built, int libssl)
{
	json_t *lib = json_array_get(jpath(facts, "nccl.libs"), 0), *tls = json_object();

	json_object_set_new(lib, "version", json_string(version));
	json_object_set_new(tls, "built", json_boolean(built));
	if (libssl >= 0)
		json_object_set_new(tls, "libssl", json_boolean(libssl));
	json_object_set_new(lib, "tls", tls);
}

/* NCCL 2.32's encryption capability differs between nodes: a warning naming each node. */
static void nccl_tls_differs(void **state)
{
	struct fixture x;
	const struct finding *f;
	(void)state;

	load(&x, 2);
	set_tls(x.facts[0], "2.32.3", 1, 1);
	set_tls(x.facts[1], "2.32.3", 1, 0);
	build(&x);
	xrule_versions(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.nccl.tls", SEV_WARN);
	assert_true(finding_evidence_contains(f, "built with TLS, OpenSSL 3 loads: can encrypt"));
	assert_true(finding_evidence_contains(f, "libssl.so.3 / libcrypto.so.3 do not load"));
	assert_true(finding_fix_contains(f, "on " ) && finding_fix_contains(f, "apt-get install -y libssl3"));
	release(&x);

	/* the same on both (even both unable): nothing to align; and 2.31 has no TLS at all */
	load(&x, 2);
	set_tls(x.facts[0], "2.32.3", 0, -1);
	set_tls(x.facts[1], "2.32.3", 0, -1);
	build(&x);
	xrule_versions(&x.v, x.fs);
	expect_no_finding(x.fs, "cluster.nccl.tls");
	release(&x);
	load(&x, 2);
	set_tls(x.facts[0], "2.31.2", 1, 1);
	set_tls(x.facts[1], "2.31.2", 0, -1);
	build(&x);
	xrule_versions(&x.v, x.fs);
	expect_no_finding(x.fs, "cluster.nccl.tls");
	release(&x);
}

/*
 * GH200's case (uccl PR #1034): every node has 169.254.3.1 on the interface NCCL picks first, and
 * a connect to it lands on the peer's own host, so the link test reads it as a working path. The
 * verdict names the routable interface instead; it never keeps or recommends the link-local one.
 */
static void link_local_never_recommended(void **state)
{
	struct fixture x;
	const struct finding *f;
	struct cluster_verdict vd;
	(void)state;

	load(&x, 2);
	readdress_if(x.facts[0], "eth0", "169.254.3.1", "link-local");
	readdress_if(x.facts[1], "eth0", "169.254.3.1", "link-local");
	build(&x);
	/* NCCL's own choice on each node is that link-local eth0 */
	assert_string_equal(x.m[0]->pred.boot->name, "eth0");
	link_connect(&x, 0, 1, "eth0", "169.254.3.1", LINK_OK);
	link_connect(&x, 1, 0, "eth0", "169.254.3.1", LINK_OK);
	link_connect(&x, 0, 1, "eth1", "10.10.0.11", LINK_OK);
	link_connect(&x, 1, 0, "eth1", "10.10.0.10", LINK_OK);
	cluster_verdict_compute(&x.v, &vd);
	assert_true(vd.ok);
	assert_false(vd.already);
	assert_string_equal(vd.ifname[0], "eth1");
	assert_string_equal(vd.ifname[1], "eth1");
	assert_string_equal(vd.value, "eth1");
	cluster_verdict_release(&vd);
	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.verdict.ifname", SEV_ERROR);
	assert_string_equal(setting_of(f, "NCCL_SOCKET_IFNAME", NULL)->value, "eth1");
	assert_string_equal(setting_of(f, "GLOO_SOCKET_IFNAME", NULL)->value, "eth1");
	for (size_t i = 0; i < x.fs->n; i++)
		for (size_t k = 0; k < x.fs->v[i]->nsettings; k++)
			if (x.fs->v[i]->settings[k].value &&
			    strstr(x.fs->v[i]->settings[k].value, "eth0") &&
			    !strstr(x.fs->v[i]->settings[k].value, "^"))
				fail_msg("%s recommends %s=%s", x.fs->v[i]->id,
					 x.fs->v[i]->settings[k].name, x.fs->v[i]->settings[k].value);
	release(&x);

	/* with only the link-local interface reached, there is no verdict value at all */
	load(&x, 2);
	readdress_if(x.facts[0], "eth0", "169.254.3.1", "link-local");
	readdress_if(x.facts[1], "eth0", "169.254.3.1", "link-local");
	build(&x);
	link_connect(&x, 0, 1, "eth0", "169.254.3.1", LINK_OK);
	link_connect(&x, 1, 0, "eth0", "169.254.3.1", LINK_OK);
	link_connect(&x, 0, 1, "eth1", "10.10.0.11", LINK_TIMEOUT);
	link_connect(&x, 1, 0, "eth1", "10.10.0.10", LINK_TIMEOUT);
	cluster_verdict_compute(&x.v, &vd);
	assert_false(vd.ok);
	cluster_verdict_release(&vd);
	release(&x);
}

static void names_differ_one_list_for_all(void **state)
{
	struct fixture x;
	const struct finding *f;
	struct cluster_verdict vd;
	(void)state;

	load(&x, 2);
	rename_if(x.facts[1], "eth1", "ens5");
	build(&x);
	lab_links(&x, 0, "ens5");
	cluster_verdict_compute(&x.v, &vd);
	assert_true(vd.ok);
	assert_false(vd.already);
	assert_string_equal(vd.ifname[0], "eth1");
	assert_string_equal(vd.ifname[1], "ens5");
	assert_string_equal(vd.value, "eth1,ens5");
	cluster_verdict_release(&vd);

	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.verdict.ifname", SEV_ERROR);
	assert_string_equal(setting_of(f, "NCCL_SOCKET_IFNAME", NULL)->value, "eth1,ens5");
	/* gloo wants exact names: one per node */
	assert_string_equal(setting_of(f, "GLOO_SOCKET_IFNAME", x.nodes[0].name)->value, "eth1");
	assert_string_equal(setting_of(f, "GLOO_SOCKET_IFNAME", x.nodes[1].name)->value, "ens5");
	assert_int_equal(setting_of(f, "GLOO_SOCKET_IFNAME", x.nodes[1].name)->scope, SCOPE_NODE);
	release(&x);
}

static void ifname_that_one_node_lacks(void **state)
{
	struct fixture x;
	const struct finding *f;
	(void)state;

	load(&x, 2);
	rename_if(x.facts[1], "eth1", "ens5");
	for (int i = 0; i < 2; i++)
		json_object_set_new(json_object_get(x.facts[i], "env"), "NCCL_SOCKET_IFNAME",
				    json_string("eth1"));
	build(&x);
	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.ifname.missing", SEV_ERROR);
	assert_non_null(strstr(f->title, x.nodes[1].name));
	assert_true(finding_evidence_contains(f, "ens5"));
	release(&x);
}

static void nowhere_to_go(void **state)
{
	struct fixture x;
	(void)state;

	load(&x, 2);
	build(&x);
	link_connect(&x, 0, 1, "eth0", "203.0.113.11", LINK_TIMEOUT);
	link_connect(&x, 1, 0, "eth0", "203.0.113.10", LINK_OK);
	link_connect(&x, 0, 1, "eth1", "10.10.0.11", LINK_REFUSED);
	link_connect(&x, 1, 0, "eth1", "10.10.0.10", LINK_OK);
	cluster_rules_run(&x.v, x.fs);
	expect_finding(x.fs, "cluster.verdict.none", SEV_ERROR);
	/* eth1 is not what NCCL picks by default: a warning; eth0 is, an error */
	assert_true(findings_count(x.fs, SEV_ERROR) >= 2);
	release(&x);
}

static void versions_and_settings_that_differ(void **state)
{
	struct fixture x;
	const struct finding *f;
	json_t *lib;
	(void)state;

	load(&x, 2);
	lib = json_array_get(json_object_get(json_object_get(x.facts[1], "nccl"), "libs"), 0);
	json_object_set_new(lib, "version", json_string("2.27.3"));
	json_object_set_new(json_object_get(x.facts[1], "env"), "NCCL_PROTO", json_string("Simple"));
	json_object_set_new(json_object_get(x.facts[0], "env"), "NCCL_DEBUG", json_string("INFO"));
	/* NCCL_HOSTID names the host: different on every node is right, never "align it" */
	json_object_set_new(json_object_get(x.facts[0], "env"), "NCCL_HOSTID", json_string("a"));
	json_object_set_new(json_object_get(x.facts[1], "env"), "NCCL_HOSTID", json_string("b"));
	build(&x);
	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.versions.nccl", SEV_ERROR);
	assert_true(finding_evidence_contains(f, "2.27.3"));
	assert_true(finding_evidence_contains(f, "2.28.9"));
	expect_no_finding(x.fs, "cluster.versions.same");

	/* NCCL_PROTO must agree on every rank; NCCL_DEBUG may differ */
	for (size_t i = 0; i < x.fs->n; i++) {
		f = x.fs->v[i];
		if (strcmp(f->id, "cluster.env.differs"))
			continue;
		assert_null(strstr(f->title, "NCCL_HOSTID"));
		if (strstr(f->title, "NCCL_PROTO")) {
			assert_int_equal(f->sev, SEV_ERROR);
			assert_non_null(finding_find_setting(f, "NCCL_PROTO"));
		} else if (strstr(f->title, "NCCL_DEBUG")) {
			assert_int_equal(f->sev, SEV_WARN);
			assert_null(finding_find_setting(f, "NCCL_DEBUG"));	/* not aligned blindly */
		}
	}
	release(&x);
}

static void port_range_map_and_blackhole(void **state)
{
	struct fixture x;
	const struct finding *f;
	struct cluster_link *l;
	const struct setting *st;
	(void)state;

	load(&x, 2);
	build(&x);
	lab_links(&x, 1, "eth1");
	l = &x.links[x.v.nlinks++];
	memset(l, 0, sizeof(*l));
	l->peer = 0;
	l->target = 1;
	l->ran = 1;
	snprintf(l->ifname, sizeof(l->ifname), "eth1");
	l->kind = LINK_SCAN;
	snprintf(l->res.src, sizeof(l->res.src), "10.10.0.10");
	l->res.s.lo = 32768;
	l->res.s.hi = 60999;
	l->res.s.iv = xcalloc(2, sizeof(*l->res.s.iv));
	l->res.s.iv[0] = (struct link_interval){ .lo = 32768, .hi = 49151, .state = LINK_PORT_DROPPED };
	l->res.s.iv[1] = (struct link_interval){ .lo = 49152, .hi = 60999, .state = LINK_PORT_OPEN };
	l->res.s.niv = 2;
	l->res.s.counts[LINK_PORT_DROPPED] = 16384;
	l->res.s.counts[LINK_PORT_OPEN] = 11848;

	l = &x.links[x.v.nlinks++];
	memset(l, 0, sizeof(*l));
	l->peer = 1;
	l->target = 0;
	l->ran = 1;
	snprintf(l->ifname, sizeof(l->ifname), "eth1");
	l->kind = LINK_MTU;
	l->res.m = (struct link_mtu_result){ .if_mtu = 9000, .path_mtu = 1500, .blackhole = 1,
					   .probes = 14 };

	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "link.ports.blocked", SEV_ERROR);
	assert_non_null(strstr(f->title, "drops TCP ports 32768-49151 on eth1; NCCL's listener "
				   "lands there in 58 % of starts"));
	assert_true(finding_fix_contains(f, "iptables -I INPUT -i eth1 -p tcp -s 10.10.0.10 --dport "
					    "32768:60999 -j ACCEPT"));
	assert_false(finding_fix_contains(f, "<"));
	st = setting_of(f, "net.ipv4.ip_local_port_range", x.nodes[1].name);
	assert_non_null(st);
	assert_string_equal(st->value, "49152 60999");
	assert_int_equal(st->where, WHERE_SYSCTL);
	f = expect_finding(x.fs, "link.mtu.blackhole", SEV_ERROR);
	assert_true(finding_fix_contains(f, "mtu 1500"));
	expect_no_finding(x.fs, "link.ports.ok");
	expect_no_finding(x.fs, "link.mtu.smaller");
	findings_free(x.fs);

	/* the same path with a router that says so: TCP adapts, only information */
	x.fs = findings_new();
	l->res.m = (struct link_mtu_result){ .if_mtu = 9000, .path_mtu = 1500, .icmp_mtu = 1500,
					   .probes = 14 };
	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "link.mtu.smaller", SEV_INFO);
	assert_non_null(strstr(f->title, "carries 1500 bytes, less than the interface MTU 9000"));
	expect_no_finding(x.fs, "link.mtu.blackhole");
	findings_free(x.fs);

	/* the whole range dropped and the connect test timed out: one finding, not two */
	x.fs = findings_new();
	for (size_t i = 0; i < x.v.nlinks; i++) {
		struct cluster_link *c = &x.links[i];
		if (c->kind == LINK_CONNECT && c->peer == 0 && c->target == 1 &&
		    !strcmp(c->ifname, "eth1"))
			c->res.c.status = c->res.c.tries[0].status = LINK_TIMEOUT;
		if (c->kind == LINK_SCAN) {
			c->res.s.iv[0] = (struct link_interval){ .lo = 32768, .hi = 60999,
								  .state = LINK_PORT_DROPPED };
			c->res.s.niv = 1;
		}
	}
	cluster_rules_run(&x.v, x.fs);
	expect_finding(x.fs, "cluster.link.unreachable", SEV_ERROR);
	expect_no_finding(x.fs, "link.ports.blocked");
	expect_no_finding(x.fs, "link.ports.ok");
	release(&x);
}

/* peer c -> target s's ifname: a port scan of 32768-60999 whose ports are `open` except
 * [dlo, dhi], dropped (dlo > dhi: none dropped). */
static void link_scan(struct fixture *x, int c, int s, const char *ifname, int dlo, int dhi)
{
	struct cluster_link *l = &x->links[x->v.nlinks++];
	struct link_scan_result *r = &l->res.s;

	memset(l, 0, sizeof(*l));
	l->peer = c;
	l->target = s;
	l->ran = 1;
	snprintf(l->ifname, sizeof(l->ifname), "%s", ifname);
	l->kind = LINK_SCAN;
	r->lo = 32768;
	r->hi = 60999;
	r->iv = xcalloc(3, sizeof(*r->iv));
	if (dlo > dhi) {
		r->iv[r->niv++] = (struct link_interval){ .lo = 32768, .hi = 60999,
							  .state = LINK_PORT_OPEN };
		r->counts[LINK_PORT_OPEN] = 28232;
		return;
	}
	r->iv[r->niv++] = (struct link_interval){ .lo = 32768, .hi = (uint16_t)(dlo - 1),
						  .state = LINK_PORT_OPEN };
	r->iv[r->niv++] = (struct link_interval){ .lo = (uint16_t)dlo, .hi = (uint16_t)dhi,
						  .state = LINK_PORT_DROPPED };
	r->iv[r->niv++] = (struct link_interval){ .lo = (uint16_t)(dhi + 1), .hi = 60999,
						  .state = LINK_PORT_OPEN };
	r->counts[LINK_PORT_DROPPED] = dhi - dlo + 1;
	r->counts[LINK_PORT_OPEN] = 28232 - (dhi - dlo + 1);
}

/*
 * n1's connect test into n0's eth1 timed out on its two ports, and the port scan over the same
 * path then found them open (a full neighbour table, a loaded host): no unreachable interface,
 * no verdict change, an info note with the figures. When the scan drops the connect's ports,
 * the failure stands.
 */
static void transient_connect_is_not_unreachable(void **state)
{
	struct fixture x;
	const struct finding *f;
	struct cluster_link *c;
	(void)state;

	load(&x, 2);
	build(&x);
	lab_links(&x, 1, "eth1");
	c = &x.links[3];	/* 1 -> 0 over eth1 */
	c->res.c.status = LINK_TIMEOUT;
	c->res.c.ntries = 2;
	c->res.c.tries[0] = (struct link_port_try){ .port = 36297, .status = LINK_TIMEOUT };
	c->res.c.tries[1] = (struct link_port_try){ .port = 43355, .status = LINK_TIMEOUT };
	link_scan(&x, 1, 0, "eth1", 1, 0);
	cluster_rules_run(&x.v, x.fs);
	expect_no_finding(x.fs, "cluster.link.unreachable");
	f = expect_finding(x.fs, "link.connect.transient", SEV_INFO);
	assert_non_null(strstr(f->title, "eth1"));
	assert_int_equal(f->nfix, 0);
	f = expect_finding(x.fs, "cluster.verdict.ifname", SEV_OK);
	assert_int_equal(f->nsettings, 0);
	assert_int_equal(findings_count(x.fs, SEV_ERROR), 0);
	findings_free(x.fs);

	/* the scan drops both ports the connect tried: a filter, not a moment's loss */
	x.fs = findings_new();
	free(x.links[4].res.s.iv);
	x.v.nlinks--;
	link_scan(&x, 1, 0, "eth1", 36000, 43999);
	cluster_rules_run(&x.v, x.fs);
	expect_no_finding(x.fs, "link.connect.transient");
	assert_true(findings_count(x.fs, SEV_ERROR) > 0);
	release(&x);
}

static void collisions_and_clocks(void **state)
{
	struct fixture x;
	const struct finding *f;
	(void)state;

	load(&x, 3);	/* nodes 0 and 2 are the same facts: one host name, every address twice */
	build(&x);
	x.nodes[1].clock_known = 1;
	x.nodes[1].clock_offset_ms = -5200;
	cluster_rules_run(&x.v, x.fs);
	f = expect_finding(x.fs, "cluster.hostname.duplicate", SEV_WARN);
	assert_non_null(strstr(f->title, x.nodes[0].name));
	/* eth0 is NCCL's choice on both: the same address from two nodes is fatal */
	f = expect_finding(x.fs, "cluster.ip.duplicate", SEV_ERROR);
	f = expect_finding(x.fs, "cluster.clock.skew", SEV_WARN);
	assert_non_null(strstr(f->title, "-5.2 s"));
	release(&x);
}

/* Grafts the H200 node's driver, GPUs and Python stack onto a lab node's facts. */
static void graft_stack(json_t *facts)
{
	json_t *h = load_fixture_json("facts/stack-h200x2-handmade.json");

	json_object_set(facts, "driver", json_object_get(h, "driver"));
	json_object_set(facts, "gpus", json_object_get(h, "gpus"));
	json_object_set(facts, "python", json_object_get(h, "python"));
	json_decref(h);
}

static void stacks_gpus_rdma_mtu_that_differ(void **state)
{
	struct fixture x;
	const struct finding *f;
	json_t *py, *torch, *ifs, *ifc, *dev;
	size_t i;
	(void)state;

	load(&x, 2);
	graft_stack(x.facts[0]);
	graft_stack(x.facts[1]);
	/* json_object_set shares the grafted objects: give node 1 its own copies to edit */
	json_object_set_new(x.facts[1], "python",
			    json_deep_copy(json_object_get(x.facts[1], "python")));
	json_object_set_new(x.facts[1], "driver",
			    json_deep_copy(json_object_get(x.facts[1], "driver")));
	json_object_set_new(x.facts[1], "gpus", json_deep_copy(json_object_get(x.facts[1], "gpus")));
	py = json_array_get(json_object_get(x.facts[1], "python"), 0);
	torch = json_object_get(py, "torch");
	json_object_set_new(py, "version", json_string("3.10.12"));
	json_object_set_new(torch, "version", json_string("2.9.1+cu128"));
	json_object_set_new(torch, "cuda", json_string("12.8"));
	json_object_set_new(json_object_get(py, "lightning"), "version", json_string("2.4.0"));
	json_object_set_new(json_object_get(x.facts[1], "driver"), "version",
			    json_string("570.86.15"));
	json_array_remove(json_object_get(x.facts[1], "gpus"), 1);
	/* node 1 has an active InfiniBand port, node 0 none */
	dev = json_pack("{s:s, s:[s], s:[{s:i, s:s, s:s}]}", "name", "mlx5_0", "netdevs", "ib0",
			"ports", "port", 1, "state", "ACTIVE", "link_layer", "InfiniBand");
	json_array_append_new(json_object_get(json_object_get(x.facts[1], "rdma"), "devices"), dev);
	/* jumbo frames on node 1 only */
	ifs = json_object_get(json_object_get(x.facts[1], "net"), "interfaces");
	json_array_foreach(ifs, i, ifc)
		if (strcmp(json_string_value(json_object_get(ifc, "name")), "lo"))
			json_object_set_new(ifc, "mtu", json_integer(9000));
	json_object_set_new(json_object_get(x.facts[0], "env"), "NCCL_SOCKET_MAGIC",
			    json_string("0x1234"));
	build(&x);
	cluster_rules_run(&x.v, x.fs);

	f = expect_finding(x.fs, "cluster.versions.torch", SEV_ERROR);	/* 2.11 vs 2.9 */
	assert_true(finding_evidence_contains(f, "2.9.1+cu128"));
	f = expect_finding(x.fs, "cluster.versions.cuda", SEV_WARN);
	assert_true(finding_evidence_contains(f, "12.8"));
	expect_finding(x.fs, "cluster.versions.python", SEV_WARN);
	expect_finding(x.fs, "cluster.versions.driver", SEV_WARN);
	expect_no_finding(x.fs, "cluster.versions.same");
	f = expect_finding(x.fs, "cluster.gpus.differs", SEV_WARN);
	assert_non_null(strstr(f->title, "(1 to 2)"));
	f = expect_finding(x.fs, "cluster.ib.partial", SEV_ERROR);
	assert_non_null(strstr(f->title, x.nodes[1].name));
	f = expect_finding(x.fs, "cluster.mtu.differs", SEV_WARN);
	assert_non_null(strstr(f->title, "1500 to 9000"));
	/* the fix names the node and interface to take back to 1500: no "<if>" to fill in */
	{
		char on[128];

		snprintf(on, sizeof(on), "# on %s", x.nodes[1].name);
		assert_true(finding_fix_contains(f, on));
		assert_true(finding_fix_contains(f, "ip link set dev eth"));
		assert_true(finding_fix_contains(f, " mtu 1500"));
		for (size_t k = 0; k < f->nfix; k++)
			assert_null(strchr(f->fix[k], '<'));
	}
	f = expect_finding(x.fs, "cluster.env.socket_magic", SEV_ERROR);
	assert_non_null(strstr(f->title, "NCCL_SOCKET_MAGIC"));
	f = expect_finding(x.fs, "cluster.versions.lightning", SEV_WARN);
	assert_true(finding_evidence_contains(f, "2.4.0"));
	assert_null(findings_find(x.fs, "cluster.versions.nccl"));
	release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(public_blocked_names_eth1),
		cmocka_unit_test(healthy_keeps_nccls_choice),
		cmocka_unit_test(names_differ_one_list_for_all),
		cmocka_unit_test(link_local_never_recommended),
		cmocka_unit_test(nccl_tls_differs),
		cmocka_unit_test(ifname_that_one_node_lacks),
		cmocka_unit_test(nowhere_to_go),
		cmocka_unit_test(versions_and_settings_that_differ),
		cmocka_unit_test(port_range_map_and_blackhole),
		cmocka_unit_test(transient_connect_is_not_unreachable),
		cmocka_unit_test(collisions_and_clocks),
		cmocka_unit_test(stacks_gpus_rdma_mtu_that_differ),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
