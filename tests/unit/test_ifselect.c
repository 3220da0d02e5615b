/*
 * NCCL's interface choice, case by case. Each row is a getifaddrs() listing, the NCCL_* values and
 * the NCCL version, with what NCCL's bootstrap and NET/Socket would pick; the expectations were
 * worked out from NCCL's source (socket.cc, utils.cc, bootstrap.cc at the tags named).
 */
#include "cmocka_helpers.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ifselect.h"
#include "model/nccl_vars.h"

/*
 * "name addr/prefix [down] [idx=N]; ..." in getifaddrs order. IPv6 link-local entries get
 * scope_id = idx, as getifaddrs reports them.
 */
struct parsed {
	struct ifs_addr a[40];
	char names[40][32];
	char texts[40][64];
	size_t n;
};

static void parse_addrs(const char *spec, struct parsed *p)
{
	char buf[2048], *save = NULL, *ent;

	memset(p, 0, sizeof(*p));
	snprintf(buf, sizeof(buf), "%s", spec);
	for (ent = strtok_r(buf, ";", &save); ent; ent = strtok_r(NULL, ";", &save)) {
		struct ifs_addr *a = &p->a[p->n];
		char name[32], addr[64], w1[16] = "", w2[16] = "";
		char *slash;
		int k = sscanf(ent, " %31s %63s %15s %15s", name, addr, w1, w2);

		assert_true(k >= 2);
		slash = strchr(addr, '/');
		assert_non_null(slash);
		*slash = '\0';
		a->prefixlen = atoi(slash + 1);
		if (inet_pton(AF_INET, addr, a->addr) == 1)
			a->family = 4;
		else if (inet_pton(AF_INET6, addr, a->addr) == 1)
			a->family = 6;
		else
			fail_msg("bad address %s", addr);
		a->running = strcmp(w1, "down") && strcmp(w2, "down");
		if (!strncmp(w1, "idx=", 4) || !strncmp(w2, "idx=", 4))
			a->ifindex = (unsigned)atoi(strchr(!strncmp(w1, "idx=", 4) ? w1 : w2, '=') + 1);
		if (a->family == 6 && a->addr[0] == 0xfe && (a->addr[1] & 0xc0) == 0x80)
			a->scope_id = a->ifindex;
		snprintf(p->names[p->n], sizeof(p->names[0]), "%s", name);
		snprintf(p->texts[p->n], sizeof(p->texts[0]), "%s", addr);
		a->name = p->names[p->n];
		a->text = p->texts[p->n];
		p->n++;
	}
}

#define TWO_NICS "lo 127.0.0.1/8; eth0 203.0.113.10/24; eth1 10.0.0.2/24"

struct tcase {
	const char *what;
	const char *addrs;
	const char *ifname, *family, *comm_id, *resolved;
	const char *version;
	const char *boot;		/* "eth0 203.0.113.10", "-" none, "!bad" bad COMM_ID, "?" unresolved */
	const char *sockets;		/* "eth0,eth1", "-" none, "!bad", "?" */
	enum ifs_rule boot_rule;
};

static const struct tcase cases[] = {
	/* default order */
	{ "unset: first non-docker/lo in getifaddrs order", TWO_NICS, NULL, NULL, NULL, NULL, "2.28.9",
	  "eth0 203.0.113.10", "eth0,eth1", IFS_RULE_AUTO },
	{ "ib* beats ethernet even when listed later", "lo 127.0.0.1/8; eth0 10.0.0.2/24; ib0 192.168.50.2/24",
	  NULL, NULL, NULL, NULL, "2.28.9", "ib0 192.168.50.2", "ib0", IFS_RULE_IB },
	{ "down ib0 skipped from 2.28", "lo 127.0.0.1/8; eth0 10.0.0.2/24; ib0 192.168.50.2/24 down",
	  NULL, NULL, NULL, NULL, "2.28.3", "eth0 10.0.0.2", "eth0", IFS_RULE_AUTO },
	{ "docker-only host falls back to docker0", "lo 127.0.0.1/8; docker0 172.17.0.1/16", NULL, NULL,
	  NULL, NULL, "2.28.9", "docker0 172.17.0.1", "docker0", IFS_RULE_DOCKER },
	{ "lo-only host falls back to lo", "lo 127.0.0.1/8; lo ::1/128", NULL, NULL, NULL, NULL, "2.21.5",
	  "lo 127.0.0.1", "lo", IFS_RULE_LO },
	{ "virbr0 first in order: 2.27 takes it", "lo 127.0.0.1/8; virbr0 192.168.122.1/24; eth0 10.0.0.2/24",
	  NULL, NULL, NULL, NULL, "2.27.7", "virbr0 192.168.122.1", "virbr0,eth0", IFS_RULE_AUTO },
	{ "virbr0 first in order: 2.28.3 skips it", "lo 127.0.0.1/8; virbr0 192.168.122.1/24; eth0 10.0.0.2/24",
	  NULL, NULL, NULL, NULL, "2.28.3", "eth0 10.0.0.2", "eth0", IFS_RULE_AUTO },
	{ "virbr-only host: 2.27 takes virbr0 in the main pass", "lo 127.0.0.1/8; virbr0 192.168.122.1/24",
	  NULL, NULL, NULL, NULL, "2.27.7", "virbr0 192.168.122.1", "virbr0", IFS_RULE_AUTO },
	{ "virbr-only host: 2.28 prefers lo over virbr0", "lo 127.0.0.1/8; virbr0 192.168.122.1/24",
	  NULL, NULL, NULL, NULL, "2.28.9", "lo 127.0.0.1", "lo", IFS_RULE_LO },
	{ "down interface with an address: 2.27 still uses it", "lo 127.0.0.1/8; eth0 203.0.113.10/24 down; eth1 10.0.0.2/24",
	  NULL, NULL, NULL, NULL, "2.27.7", "eth0 203.0.113.10", "eth0,eth1", IFS_RULE_AUTO },
	{ "down interface with an address: 2.28 skips it", "lo 127.0.0.1/8; eth0 203.0.113.10/24 down; eth1 10.0.0.2/24",
	  NULL, NULL, NULL, NULL, "2.28.9", "eth1 10.0.0.2", "eth1", IFS_RULE_AUTO },
	{ "more than 16 candidates: NET/Socket keeps 16",
	  "lo 127.0.0.1/8; e0 10.0.0.1/24; e1 10.0.1.1/24; e2 10.0.2.1/24; e3 10.0.3.1/24; e4 10.0.4.1/24; "
	  "e5 10.0.5.1/24; e6 10.0.6.1/24; e7 10.0.7.1/24; e8 10.0.8.1/24; e9 10.0.9.1/24; e10 10.0.10.1/24; "
	  "e11 10.0.11.1/24; e12 10.0.12.1/24; e13 10.0.13.1/24; e14 10.0.14.1/24; e15 10.0.15.1/24; e16 10.0.16.1/24",
	  NULL, NULL, NULL, NULL, "2.28.9", "e0 10.0.0.1",
	  "e0,e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,e11,e12,e13,e14,e15", IFS_RULE_AUTO },
	{ "two IPv4 addresses on one interface: the first counts", "lo 127.0.0.1/8; eth0 10.0.0.2/24; eth0 10.0.9.2/24",
	  NULL, NULL, NULL, NULL, "2.28.9", "eth0 10.0.0.2", "eth0", IFS_RULE_AUTO },
	/* NCCL_SOCKET_IFNAME grammar */
	{ "exact name", TWO_NICS, "eth1", NULL, NULL, NULL, "2.28.9", "eth1 10.0.0.2", "eth1", IFS_RULE_USER },
	{ "prefix matches several", TWO_NICS, "eth", NULL, NULL, NULL, "2.28.9", "eth0 203.0.113.10",
	  "eth0,eth1", IFS_RULE_USER },
	{ "prefix eth1 also matches eth10, listed first", "lo 127.0.0.1/8; eth10 192.168.10.2/24; eth1 10.0.0.2/24",
	  "eth1", NULL, NULL, NULL, "2.28.9", "eth10 192.168.10.2", "eth10,eth1", IFS_RULE_USER },
	{ "'=' makes it exact", "lo 127.0.0.1/8; eth10 192.168.10.2/24; eth1 10.0.0.2/24", "=eth1", NULL, NULL,
	  NULL, "2.28.9", "eth1 10.0.0.2", "eth1", IFS_RULE_USER },
	{ "'=' before 2.5.6 is part of the name", "lo 127.0.0.1/8; eth1 10.0.0.2/24", "=eth1", NULL, NULL, NULL,
	  "2.5.0", "-", "-", IFS_RULE_NONE },
	{ "'^' excludes: ^eth0,lo", TWO_NICS, "^eth0,lo", NULL, NULL, NULL, "2.28.9", "eth1 10.0.0.2", "eth1",
	  IFS_RULE_USER },
	{ "'^docker0' alone makes lo eligible (and first)", "lo 127.0.0.1/8; eth0 10.0.0.2/24; docker0 172.17.0.1/16",
	  "^docker0", NULL, NULL, NULL, "2.28.9", "lo 127.0.0.1", "lo,eth0", IFS_RULE_USER },
	{ "'^=' exact exclusion keeps docker01", "lo 127.0.0.1/8; docker0 172.17.0.1/16; docker01 172.18.0.1/16",
	  "^=docker0,lo", NULL, NULL, NULL, "2.28.9", "docker01 172.18.0.1", "docker01", IFS_RULE_USER },
	{ "'=^eth0' is the exact name '^eth0'", TWO_NICS, "=^eth0", NULL, NULL, NULL, "2.28.9", "-", "-",
	  IFS_RULE_NONE },
	{ "list order does not matter, getifaddrs order does", TWO_NICS, "eth1,eth0", NULL, NULL, NULL, "2.28.9",
	  "eth0 203.0.113.10", "eth0,eth1", IFS_RULE_USER },
	{ "no trimming: ' eth1' matches nothing", TWO_NICS, "eth0, eth1", NULL, NULL, NULL, "2.28.9",
	  "eth0 203.0.113.10", "eth0", IFS_RULE_USER },
	{ "empty entries are skipped", TWO_NICS, ",,eth1,,", NULL, NULL, NULL, "2.28.9", "eth1 10.0.0.2", "eth1",
	  IFS_RULE_USER },
	{ "only the first 16 entries count", TWO_NICS, "x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,x14,x15,eth1", NULL, NULL, NULL,
	  "2.28.9", "-", "-", IFS_RULE_NONE },
	{ "':port' is ignored", TWO_NICS, "eth1:1234", NULL, NULL, NULL, "2.28.9", "eth1 10.0.0.2", "eth1",
	  IFS_RULE_USER },
	{ "one character is ignored: automatic choice", TWO_NICS, "e", NULL, NULL, NULL, "2.28.9",
	  "eth0 203.0.113.10", "eth0,eth1", IFS_RULE_AUTO },
	{ "empty value is ignored", TWO_NICS, "", NULL, NULL, NULL, "2.28.9", "eth0 203.0.113.10", "eth0,eth1",
	  IFS_RULE_AUTO },
	{ "'^=' with nothing after excludes everything", TWO_NICS, "^=", NULL, NULL, NULL, "2.28.9", "-", "-",
	  IFS_RULE_NONE },
	{ "',,' is an empty list, which matches everything (lo first)", TWO_NICS, ",,", NULL, NULL, NULL,
	  "2.28.9", "lo 127.0.0.1", "lo,eth0,eth1", IFS_RULE_USER },
	{ "user list skips down interfaces from 2.28", "lo 127.0.0.1/8; eth1 10.0.0.2/24 down", "eth1", NULL,
	  NULL, NULL, "2.28.9", "-", "-", IFS_RULE_NONE },
	/* IPv6 and NCCL_SOCKET_FAMILY */
	{ "IPv6 link-local only", "lo 127.0.0.1/8; lo ::1/128; eth0 fe80::2/64 idx=2", NULL, NULL, NULL, NULL,
	  "2.28.9", "eth0 fe80::2", "eth0", IFS_RULE_AUTO },
	{ "dual stack: IPv4 first", "lo 127.0.0.1/8; eth0 10.0.0.2/24; lo ::1/128; eth0 2001:db8::2/64; eth0 fe80::2/64 idx=2",
	  NULL, NULL, NULL, NULL, "2.28.9", "eth0 10.0.0.2", "eth0", IFS_RULE_AUTO },
	{ "AF_INET6: the global address before the link-local one",
	  "lo 127.0.0.1/8; eth0 10.0.0.2/24; lo ::1/128; eth0 2001:db8::2/64; eth0 fe80::2/64 idx=2",
	  NULL, "AF_INET6", NULL, NULL, "2.28.9", "eth0 2001:db8::2", "eth0", IFS_RULE_AUTO },
	{ "lowercase family is not recognised: no filter", "lo 127.0.0.1/8; eth0 10.0.0.2/24; eth0 2001:db8::2/64",
	  NULL, "af_inet6", NULL, NULL, "2.28.9", "eth0 10.0.0.2", "eth0", IFS_RULE_AUTO },
	{ "AF_INET6 on a host with only ::1: nothing", "lo 127.0.0.1/8; eth0 10.0.0.2/24; lo ::1/128", NULL,
	  "AF_INET6", NULL, NULL, "2.28.9", "-", "-", IFS_RULE_NONE },
	{ "AF_INET skips an IPv6-only interface", "lo 127.0.0.1/8; eth0 2001:db8::2/64; eth1 10.0.0.2/24", NULL,
	  "AF_INET", NULL, NULL, "2.28.9", "eth1 10.0.0.2", "eth1", IFS_RULE_AUTO },
	/* NCCL_COMM_ID */
	{ "COMM_ID subnet picks bootstrap and the one socket device", TWO_NICS, NULL, NULL, "10.0.0.1:5000", NULL,
	  "2.28.9", "eth1 10.0.0.2", "eth1", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID overrides NCCL_SOCKET_IFNAME for bootstrap only", TWO_NICS, "eth0", NULL, "10.0.0.1:5000", NULL,
	  "2.28.9", "eth1 10.0.0.2", "eth0", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID 127.0.0.1 matches lo", TWO_NICS, NULL, NULL, "127.0.0.1:5000", NULL, "2.28.9", "lo 127.0.0.1",
	  "lo", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID in no local subnet: bootstrap fails, sockets automatic", TWO_NICS, NULL, NULL,
	  "192.168.9.9:5000", NULL, "2.28.9", "-", "eth0,eth1", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID subnet match ignores IFF_RUNNING", "lo 127.0.0.1/8; eth0 203.0.113.10/24; eth1 10.0.0.2/24 down",
	  NULL, NULL, "10.0.0.1:5000", NULL, "2.28.9", "eth1 10.0.0.2", "eth1", IFS_RULE_BOOT_COMMID },
	{ "bad COMM_ID: fatal for both from 2.27", TWO_NICS, NULL, NULL, "[fe80::1:5000", NULL, "2.28.9", "!bad",
	  "!bad", IFS_RULE_BOOT_COMMID },
	{ "bad COMM_ID: 2.26 still finds sockets", TWO_NICS, NULL, NULL, "[fe80::1:5000", NULL, "2.26.6", "!bad",
	  "eth0,eth1", IFS_RULE_BOOT_COMMID },
	{ "empty COMM_ID: bootstrap fails, sockets automatic", TWO_NICS, NULL, NULL, "", NULL, "2.28.9", "!bad",
	  "eth0,eth1", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID host name not looked up", TWO_NICS, NULL, NULL, "master:29500", NULL, "2.28.9", "?", "?",
	  IFS_RULE_BOOT_COMMID },
	{ "COMM_ID host name resolved by the probe", TWO_NICS, NULL, NULL, "master:29500", "10.0.0.7", "2.28.9",
	  "eth1 10.0.0.2", "eth1", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID [fe80::1%eth1]: the link-local address on that interface",
	  "lo 127.0.0.1/8; eth0 fe80::5/64 idx=2; eth1 fe80::2/64 idx=3", NULL, NULL, "[fe80::1%eth1]:5000", NULL,
	  "2.28.9", "eth1 fe80::2", "eth1", IFS_RULE_BOOT_COMMID },
	{ "COMM_ID [fe80::1] without scope never matches a link-local address",
	  "lo 127.0.0.1/8; eth1 fe80::2/64 idx=3", NULL, NULL, "[fe80::1]:5000", NULL, "2.28.9", "-", "eth1",
	  IFS_RULE_BOOT_COMMID },
};

static void expect_list(const char *what, const struct ifs_list *l, enum ifs_status st, const char *want)
{
	char got[512] = "";

	if (!strcmp(want, "!bad")) {
		if (st != IFS_BAD_COMMID)
			fail_msg("%s: sockets status %d, expected bad COMM_ID", what, st);
		return;
	}
	if (!strcmp(want, "?")) {
		if (st != IFS_UNRESOLVED)
			fail_msg("%s: sockets status %d, expected unresolved", what, st);
		return;
	}
	for (int i = 0; i < l->n; i++) {
		if (i)
			strcat(got, ",");
		strcat(got, l->v[i]->name);
	}
	if (!l->n)
		strcpy(got, "-");
	if (strcmp(got, want))
		fail_msg("%s: NET/Socket %s, expected %s", what, got, want);
	if ((st == IFS_OK) != (l->n > 0))
		fail_msg("%s: status %d with %d interfaces", what, st, l->n);
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		struct parsed p;
		struct ifs_input in;
		struct ifs_result r;
		char got[128];

		parse_addrs(c->addrs, &p);
		memset(&in, 0, sizeof(in));
		in.addrs = p.a;
		in.naddrs = p.n;
		in.socket_ifname = c->ifname;
		in.socket_family = c->family;
		in.comm_id = c->comm_id;
		in.comm_id_resolved = c->resolved;
		assert_int_equal(version_parse(c->version, &in.nccl), 0);
		ifs_predict(&in, &r);

		if (!strcmp(c->boot, "!bad")) {
			if (r.boot_status != IFS_BAD_COMMID || !r.boot_warn)
				fail_msg("%s: bootstrap status %d, expected bad COMM_ID", c->what, r.boot_status);
		} else if (!strcmp(c->boot, "?")) {
			if (r.boot_status != IFS_UNRESOLVED)
				fail_msg("%s: bootstrap status %d, expected unresolved", c->what, r.boot_status);
		} else if (!strcmp(c->boot, "-")) {
			if (r.boot || r.boot_status != IFS_NONE || !r.boot_warn)
				fail_msg("%s: bootstrap on %s, expected none", c->what,
					 r.boot ? r.boot->name : "(null)");
		} else {
			if (!r.boot)
				fail_msg("%s: no bootstrap interface, expected %s", c->what, c->boot);
			snprintf(got, sizeof(got), "%s %s", r.boot->name, r.boot->text);
			if (strcmp(got, c->boot))
				fail_msg("%s: bootstrap %s, expected %s", c->what, got, c->boot);
		}
		if (c->boot_rule != IFS_RULE_NONE && r.boot_rule != c->boot_rule)
			fail_msg("%s: bootstrap rule %d (%s), expected %d", c->what, r.boot_rule,
				 ifs_rule_describe(r.boot_rule), c->boot_rule);
		expect_list(c->what, &r.sockets, r.socket_status, c->sockets);
	}
}

static void test_case_count(void **state)
{
	(void)state;
	/* the issue asks for at least 30 table cases */
	assert_true(sizeof(cases) / sizeof(cases[0]) >= 30);
}

static void test_spec_parse(void **state)
{
	struct ifs_spec s;

	(void)state;
	ifs_spec_parse("^=eth0:99,, eth1,x:1:2", 1, &s);
	assert_true(s.exclude);
	assert_true(s.exact);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.tok[0].prefix, "eth0");
	assert_int_equal(s.tok[0].port, 99);
	assert_string_equal(s.tok[1].prefix, " eth1");
	assert_int_equal(s.tok[1].port, -1);
	assert_int_equal(s.tok[2].port, 1);
	assert_true(s.with_space);
	assert_true(s.with_port);

	ifs_spec_parse(":1234,eth0", 1, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.tok[0].prefix, "eth0");

	ifs_spec_parse("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r", 1, &s);
	assert_int_equal(s.n, 16);
	assert_int_equal(s.entries, 18);

	{
		char longname[200];
		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		ifs_spec_parse(longname, 1, &s);
		assert_true(s.long_prefix);
		assert_int_equal(strlen(s.tok[0].prefix), IFS_PREFIX_MAX - 1);
	}
	ifs_spec_parse("=eth1", 0, &s);
	assert_false(s.exact);
	assert_string_equal(s.tok[0].prefix, "=eth1");
}

static void test_commid_parse(void **state)
{
	struct ifs_commid c;

	(void)state;
	ifs_commid_parse("10.1.2.3", NULL, NULL, 0, &c);
	assert_true(c.valid);
	assert_true(c.have_addr);
	assert_int_equal(c.port, -1);	/* NCCL then listens on 65535 */

	ifs_commid_parse("fe80::1:5000", NULL, NULL, 0, &c);
	assert_true(c.valid);		/* split at the first ':', host "fe80" */
	assert_string_equal(c.host, "fe80");
	assert_true(c.needs_lookup);

	ifs_commid_parse("[2001:db8::1]:29500", NULL, NULL, 0, &c);
	assert_true(c.valid && c.bracket && c.have_addr);
	assert_int_equal(c.family, 6);
	assert_int_equal(c.port, 29500);
	assert_int_equal(c.scope_id, 0);

	ifs_commid_parse("[2001:db8::1]", NULL, NULL, 0, &c);
	assert_true(c.valid);
	assert_int_equal(c.port, 0);

	ifs_commid_parse("x", NULL, NULL, 0, &c);
	assert_false(c.valid);
	assert_string_equal(c.error, "Net : string is null");

	ifs_commid_parse("[::1", NULL, NULL, 0, &c);
	assert_false(c.valid);
}

static void test_link_local(void **state)
{
	struct ifs_addr a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.family = 6;
	inet_pton(AF_INET6, "fe80::1", a.addr);
	assert_true(ifs_addr_link_local(&a));
	inet_pton(AF_INET6, "febf::1", a.addr);
	assert_true(ifs_addr_link_local(&a));
	inet_pton(AF_INET6, "fec0::1", a.addr);
	assert_false(ifs_addr_link_local(&a));
}

static void test_from_facts(void **state)
{
	const struct ifs_facts *fp;
	const struct ifs_result *rp;
	struct node_model *m;
	json_t *facts;

	(void)state;
	/* /etc/nccl.conf names eth0, the environment wins with eth1; ~/.nccl.conf comes before /etc */
	facts = json_lit("{\"schema_version\":1,"
			 "\"env\":{\"NCCL_SOCKET_IFNAME\":\"eth1\"},"
			 "\"nccl\":{\"conf\":[{\"path\":\"/etc/nccl.conf\",\"vars\":{\"NCCL_SOCKET_IFNAME\":\"eth0\","
			 "\"NCCL_SOCKET_FAMILY\":\"AF_INET6\"}},"
			 "{\"path\":\"/root/.nccl.conf\",\"vars\":{\"NCCL_SOCKET_FAMILY\":\"AF_INET\"}}]},"
			 "\"net\":{\"assume_nccl\":\"2.27.7\",\"ifaddrs\":["
			 "{\"ifname\":\"lo\",\"family\":4,\"addr\":\"127.0.0.1\",\"prefixlen\":8,\"flags\":{\"running\":true}},"
			 "{\"ifname\":\"eth0\",\"family\":4,\"addr\":\"203.0.113.10\",\"prefixlen\":24,\"flags\":{\"running\":false}},"
			 "{\"ifname\":\"eth1\",\"family\":4,\"addr\":\"10.0.0.2\",\"prefixlen\":24,\"flags\":{\"running\":true}},"
			 "{\"ifname\":\"bad\",\"family\":4,\"addr\":\"not an address\"}]}}");
	m = model_of(facts);
	fp = &m->ifs;
	rp = &m->pred;
	assert_int_equal(m->have_ifs, 1);
	assert_string_equal(fp->version, "2.27.7");
	assert_string_equal(fp->version_why, "NCCLCHECK_ASSUME_NCCL");
	assert_int_equal(fp->in.naddrs, 3);
	assert_string_equal(fp->in.socket_ifname, "eth1");
	assert_string_equal(fp->ifname_source, "environment");
	assert_string_equal(fp->in.socket_family, "AF_INET");
	assert_string_equal(fp->family_source, "/root/.nccl.conf");
	assert_non_null(rp->boot);
	assert_string_equal(rp->boot->name, "eth1");
	node_model_free(m);
	json_decref(facts);

	/* no NCCL anywhere: the documented default assumption */
	facts = json_lit("{\"net\":{\"ifaddrs\":[]}}");
	m = model_of(facts);
	assert_int_equal(m->have_ifs, 1);
	assert_true(m->ifs.version_assumed);
	assert_string_equal(m->ifs.version, NCCL_MODEL_DEFAULT);
	node_model_free(m);
	json_decref(facts);

	facts = json_lit("{\"net\":{\"ifaddrs\":{\"unknown\":\"getifaddrs failed\"}}}");
	m = model_of(facts);
	assert_int_equal(m->have_ifs, 0);
	node_model_free(m);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_case_count),
		cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_commid_parse),
		cmocka_unit_test(test_link_local),
		cmocka_unit_test(test_from_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
