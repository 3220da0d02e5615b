/*
 * Network rules (rules/net_iface.c, net_ports.c, host_limits.c, rdma.c) on hand-made facts: the
 * MASTER_ADDR route against the predicted bootstrap interface and the exact NCCL_SOCKET_IFNAME
 * fix, NCCL_SOCKET_IFNAME pitfalls, NCCL_COMM_ID, port range and seed advice, the firewall
 * model, limits, host name and RDMA.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "rules/rules.h"

#define LO "{\"ifname\":\"lo\",\"family\":4,\"addr\":\"127.0.0.1\",\"prefixlen\":8,\"class\":\"loopback\",\"flags\":{\"running\":true}}"
#define ETH0 "{\"ifname\":\"eth0\",\"family\":4,\"addr\":\"203.0.113.10\",\"prefixlen\":24,\"class\":\"documentation\",\"flags\":{\"running\":true}}"
#define ETH1 "{\"ifname\":\"eth1\",\"family\":4,\"addr\":\"10.0.0.2\",\"prefixlen\":24,\"class\":\"private\",\"flags\":{\"running\":true}}"
#define ETH1_DOWN "{\"ifname\":\"eth1\",\"family\":4,\"addr\":\"10.0.0.2\",\"prefixlen\":24,\"class\":\"private\",\"flags\":{\"running\":false}}"
#define ETH10 "{\"ifname\":\"eth10\",\"family\":4,\"addr\":\"192.168.10.2\",\"prefixlen\":24,\"class\":\"private\",\"flags\":{\"running\":true}}"
#define MASTER_ETH1 "\"master\":{\"set\":true,\"addr\":\"10.0.0.1\",\"resolved\":\"10.0.0.1\",\"port\":29500,\"local\":false,\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\"}"

/* What rules/net.c was: the four network rules, in their order. */
static void rule_net(const struct node_model *m, struct findings *fs)
{
	rule_net_iface(m, fs);
	rule_net_ports(m, fs);
	rule_host_limits(m, fs);
	rule_rdma(m, fs);
}

/* facts: env members, net.ifaddrs entries, more net members, more top-level members */
static struct findings *run(const char *env, const char *ifaddrs, const char *net, const char *extra)
{
	char buf[16384];
	json_t *facts;
	struct findings *fs = findings_new();

	snprintf(buf, sizeof(buf),
		 "{\"schema_version\":1,\"env\":{%s},\"net\":{\"assume_nccl\":\"2.28.9\",\"ifaddrs\":[%s]%s%s}%s%s}",
		 env, ifaddrs, *net ? "," : "", net, *extra ? "," : "", extra);
	facts = json_lit(buf);
	run_rule(rule_net, facts, fs);
	json_decref(facts);
	return fs;
}





static void test_master_mismatch(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* the second seed's AutoDL failure, on one node */
	fs = run("", LO "," ETH0 "," ETH1, MASTER_ETH1, "");
	f = expect_finding(fs, "net.bootstrap.master_mismatch", SEV_ERROR);
	assert_string_equal(f->title, "NCCL will bootstrap on eth0 203.0.113.10, but MASTER_ADDR 10.0.0.1 is reached through eth1");
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth1"));
	assert_true(finding_evidence_contains(f, "documentation range, treated as public"));
	assert_true(finding_evidence_contains(f, "NCCL 2.28.9 modelled (NCCLCHECK_ASSUME_NCCL)"));
	f = expect_finding(fs, "net.nccl.bootstrap", SEV_INFO);
	assert_true(strstr(f->title, "eth0 203.0.113.10") != NULL);
	findings_free(fs);

	/* eth10 comes first and also matches 'eth1': only the exact form works */
	fs = run("", LO "," ETH10 "," ETH1, MASTER_ETH1, "");
	f = expect_finding(fs, "net.bootstrap.master_mismatch", SEV_ERROR);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME==eth1"));
	findings_free(fs);

	/* the interface to the master is down: NCCL 2.28 skips it, so bring it up first */
	fs = run("", LO "," ETH0 "," ETH1_DOWN, MASTER_ETH1, "");
	f = expect_finding(fs, "net.bootstrap.master_mismatch", SEV_ERROR);
	assert_true(finding_has_fix(f, "ip link set eth1 up   # NCCL 2.28.9 skips interfaces that are not running, then:"));
	findings_free(fs);

	/* NCCL_COMM_ID decides bootstrap whatever NCCL_SOCKET_IFNAME says */
	fs = run("\"NCCL_COMM_ID\":\"203.0.113.1:5000\",\"NCCL_SOCKET_IFNAME\":\"eth1\"", LO "," ETH0 "," ETH1, MASTER_ETH1, "");
	f = expect_finding(fs, "net.bootstrap.master_mismatch", SEV_ERROR);
	assert_true(finding_has_fix(f, "unset NCCL_COMM_ID   # it decides NCCL's bootstrap interface"));
	expect_finding(fs, "nccl.env.comm_id", SEV_WARN);
	findings_free(fs);
}

static void test_master_match(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("\"NCCL_SOCKET_IFNAME\":\"^eth0,lo\"", LO "," ETH0 "," ETH1, MASTER_ETH1, "");
	expect_finding(fs, "net.bootstrap.master_match", SEV_OK);
	expect_no_finding(fs, "net.bootstrap.master_mismatch");
	expect_no_finding(fs, "net.socket.extra_interfaces");
	findings_free(fs);

	/* bootstrap right, but NET/Socket also spreads over eth0 */
	fs = run("", LO "," ETH1 "," ETH0, MASTER_ETH1, "");
	expect_finding(fs, "net.bootstrap.master_match", SEV_OK);
	f = expect_finding(fs, "net.socket.extra_interfaces", SEV_WARN);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth1"));
	findings_free(fs);

	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"localhost\",\"resolved\":\"127.0.0.1\","
		 "\"source_addr\":\"127.0.0.1\",\"source_ifname\":\"lo\",\"local\":true}", "");
	f = expect_finding(fs, "net.master.loopback", SEV_INFO);
	/* this node's own private address, as advice for a multi-node job: not applied to this one */
	assert_true(finding_has_fix(f, "# for a multi-node job with rank 0 on this node: export "
				    "MASTER_ADDR=10.0.0.2 on every node"));
	assert_null(finding_find_setting(f, "MASTER_ADDR"));
	expect_no_finding(fs, "net.bootstrap.master_mismatch");
	findings_free(fs);

	/* NCCL would bootstrap on public eth0: the one private address is still the one to name */
	fs = run("", LO "," ETH0 "," ETH1, "\"master\":{\"set\":true,\"addr\":\"localhost\",\"resolved\":\"127.0.0.1\","
		 "\"source_addr\":\"127.0.0.1\",\"source_ifname\":\"lo\",\"local\":true}", "");
	f = expect_finding(fs, "net.master.loopback", SEV_INFO);
	assert_true(finding_fix_contains(f, "export MASTER_ADDR=10.0.0.2 on every node"));
	findings_free(fs);

	/* NCCL's on public eth0 and two private networks: no guess */
	fs = run("", LO "," ETH0 "," ETH1 "," ETH10, "\"master\":{\"set\":true,\"addr\":\"localhost\",\"resolved\":\"127.0.0.1\","
		 "\"source_addr\":\"127.0.0.1\",\"source_ifname\":\"lo\",\"local\":true}", "");
	f = expect_finding(fs, "net.master.loopback", SEV_INFO);
	assert_int_equal(f->nfix, 0);
	findings_free(fs);

	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"node0\",\"resolved\":{\"unknown\":\"cannot resolve 'node0'\"}}", "");
	f = expect_finding(fs, "net.master.unresolved", SEV_ERROR);
	/* rank 0 is another machine: how to find its address there, named */
	assert_true(finding_fix_contains(f, "getent ahostsv4 node0   # no answer here"));
	assert_true(finding_fix_contains(f, "hostname -I   # on node0 (rank 0)"));
	assert_null(finding_find_setting(f, "MASTER_ADDR"));
	findings_free(fs);

	/* MASTER_ADDR is this node's own (unresolvable) host name: its private address */
	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"node0\",\"resolved\":{\"unknown\":\"cannot resolve 'node0'\"}}",
		 "\"host\":{\"hostname\":\"node0.cluster\"}");
	f = expect_finding(fs, "net.master.unresolved", SEV_ERROR);
	assert_true(finding_has_fix(f, "export MASTER_ADDR=10.0.0.2"));
	assert_string_equal(finding_find_setting(f, "MASTER_ADDR")->value, "10.0.0.2");
	findings_free(fs);

	/* no MASTER_ADDR: a public bootstrap address next to a private one is suspicious */
	fs = run("", LO "," ETH0 "," ETH1, "\"master\":{\"set\":false}", "");
	f = expect_finding(fs, "net.bootstrap.public", SEV_WARN);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth1"));
	assert_true(finding_evidence_contains(f, "documentation range"));
	findings_free(fs);
}

static void test_ifname(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth9\"", LO "," ETH0 "," ETH1, MASTER_ETH1, "");
	f = expect_finding(fs, "net.ifname.nomatch", SEV_ERROR);
	assert_string_equal(f->title, "NCCL_SOCKET_IFNAME=eth9 matches no interface; this node has lo, eth0, eth1");
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth1   # the interface that reaches MASTER_ADDR 10.0.0.1"));
	expect_no_finding(fs, "net.nccl.no_interface");
	findings_free(fs);

	/* matching, but not running: said so */
	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth1\"", LO "," ETH0 "," ETH1_DOWN, "", "");
	f = expect_finding(fs, "net.ifname.nomatch", SEV_ERROR);
	assert_true(finding_evidence_contains(f, "eth1 is not running (NCCL 2.28.9 skips it)"));
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"e\"", LO "," ETH0, "", "");
	expect_finding(fs, "net.ifname.ignored", SEV_WARN);
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth0, eth1\"", LO "," ETH0 "," ETH1, "", "");
	f = expect_finding(fs, "net.ifname.space", SEV_WARN);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth0,eth1"));
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth1:29500\"", LO "," ETH1, "", "");
	expect_finding(fs, "net.ifname.port", SEV_INFO);
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,x14,x15,eth1\"", LO "," ETH1, "", "");
	expect_finding(fs, "net.ifname.too_many", SEV_WARN);
	expect_finding(fs, "net.ifname.nomatch", SEV_ERROR);
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"^docker0\"", LO "," ETH1, MASTER_ETH1, "");
	f = expect_finding(fs, "net.ifname.lo_eligible", SEV_ERROR);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=^docker0,lo"));
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth1\"", LO "," ETH1 "," ETH10, "", "");
	f = expect_finding(fs, "net.ifname.prefix", SEV_WARN);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME==eth1"));
	findings_free(fs);
}

/* Link-local addresses NCCL can pick: flagged with the NCCL_SOCKET_IFNAME that avoids them. */
static void test_link_local_v4(void **state)
{
#define LL4 "{\"ifname\":\"enP5p1s0\",\"family\":4,\"addr\":\"169.254.3.1\",\"prefixlen\":16," \
	"\"flags\":{\"running\":true}}"
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* the GH200 shape: the link-local interface comes first in getifaddrs order */
	fs = run("", LO "," LL4 "," ETH1, "", "");
	f = expect_finding(fs, "net.bootstrap.link_local", SEV_WARN);
	assert_non_null(strstr(f->title, "IPv4 link-local address 169.254.3.1 of enP5p1s0"));
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME==eth1"));
	findings_free(fs);
	/* bootstrap on eth1, but NET/Socket also takes the link-local interface */
	fs = run("", LO "," ETH1 "," LL4, "", "");
	expect_no_finding(fs, "net.bootstrap.link_local");
	f = expect_finding(fs, "net.socket.link_local", SEV_WARN);
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME==eth1"));
	findings_free(fs);
	/* excluded by the user's NCCL_SOCKET_IFNAME: nothing to say */
	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth\"", LO "," LL4 "," ETH1, "", "");
	expect_no_finding(fs, "net.bootstrap.link_local");
	expect_no_finding(fs, "net.socket.link_local");
	findings_free(fs);
	/* only link-local: no interface to recommend, no false NCCL_SOCKET_IFNAME */
	fs = run("", LO "," LL4, "", "");
	f = expect_finding(fs, "net.bootstrap.link_local", SEV_WARN);
	assert_false(finding_fix_contains(f, "NCCL_SOCKET_IFNAME="));
	findings_free(fs);
	/* 169.253.x and 169.255.x are not link-local */
	fs = run("", LO ",{\"ifname\":\"eth0\",\"family\":4,\"addr\":\"169.253.3.1\",\"prefixlen\":16,"
		 "\"flags\":{\"running\":true}}", "", "");
	expect_no_finding(fs, "net.bootstrap.link_local");
	findings_free(fs);
#undef LL4
}

static void test_prediction_edges(void **state)
{
	struct findings *fs;

	(void)state;
	const struct finding *f;

	fs = run("", "{\"ifname\":\"lo\",\"family\":4,\"addr\":\"127.0.0.1\",\"prefixlen\":8,\"flags\":{\"running\":false}}", "", "");
	f = expect_finding(fs, "net.nccl.no_interface", SEV_ERROR);
	assert_true(finding_fix_contains(f, "ip -br addr show   # no interface but loopback has an address"));
	findings_free(fs);

	/* NCCL 2.28 skips eth1 (down) and eth2 (up, no carrier): each named with what brings it */
	fs = run("", "{\"ifname\":\"lo\",\"family\":4,\"addr\":\"127.0.0.1\",\"prefixlen\":8,\"flags\":"
		 "{\"running\":false}}," ETH1_DOWN ",{\"ifname\":\"eth2\",\"family\":4,\"addr\":\"10.1.0.2\",\"prefixlen\":24,"
		 "\"flags\":{\"running\":false}}", "\"interfaces\":[{\"name\":\"eth1\",\"up\":false},"
		 "{\"name\":\"eth2\",\"up\":true}]", "");
	f = expect_finding(fs, "net.nccl.no_interface", SEV_ERROR);
	assert_true(finding_has_fix(f, "ip link set dev eth1 up   # it has an address (10.0.0.2) but is down"));
	assert_true(finding_fix_contains(f, "ip link show dev eth2   # UP but NO-CARRIER"));
	assert_false(finding_fix_contains(f, "dev lo"));
	findings_free(fs);

	fs = run("", LO ",{\"ifname\":\"eth0\",\"family\":6,\"addr\":\"fe80::2\",\"prefixlen\":64,\"scope_id\":2,"
		 "\"flags\":{\"running\":true}}", "", "");
	expect_finding(fs, "net.bootstrap.link_local", SEV_WARN);
	findings_free(fs);

	fs = run("", LO ",{\"ifname\":\"docker0\",\"family\":4,\"addr\":\"172.17.0.1\",\"prefixlen\":16,\"flags\":{\"running\":true}}",
		 "", "");
	expect_finding(fs, "net.bootstrap.docker", SEV_WARN);
	findings_free(fs);

	fs = run("\"NCCL_COMM_ID\":\"[fe80::1\"", LO "," ETH1, "", "");
	expect_finding(fs, "nccl.env.comm_id", SEV_ERROR);
	findings_free(fs);

	fs = run("\"NCCL_COMM_ID\":\"192.168.77.1:5000\"", LO "," ETH1, "", "");
	expect_finding(fs, "nccl.env.comm_id", SEV_ERROR);
	findings_free(fs);
}

static void test_ports(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("", LO "," ETH1, MASTER_ETH1, "\"sysctl\":{\"ip_local_port_range\":[32768,60999]}");
	f = expect_finding(fs, "net.ports.range", SEV_INFO);
	assert_string_equal(f->title, "NCCL listens on TCP ports 32768-60999 here (net.ipv4.ip_local_port_range): "
				      "the other nodes must reach them on eth1");
	assert_true(strstr(f->why, "49152-65535, which misses part of this node's range"));
	assert_true(strstr(f->why, "32768-60999, which covers this range (it is the Linux default)"));
	assert_true(finding_has_fix(f, "iptables -I INPUT -i eth1 -p tcp -s 10.0.0.0/24 -m multiport --dports 29500,32768:60999 -j ACCEPT"));
	expect_no_finding(fs, "net.ports.master_in_range");
	findings_free(fs);

	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"10.0.0.1\",\"resolved\":\"10.0.0.1\",\"port\":40000,"
		 "\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\"}",
		 "\"sysctl\":{\"ip_local_port_range\":[1024,65535]}");
	f = expect_finding(fs, "net.ports.range", SEV_INFO);
	assert_true(strstr(f->why, "the second says 32768-60999, which misses part"));
	f = expect_finding(fs, "net.ports.master_in_range", SEV_WARN);
	assert_true(finding_has_fix(f, "sysctl -w net.ipv4.ip_local_reserved_ports=40000"));
	findings_free(fs);

	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"10.0.0.1\",\"resolved\":\"10.0.0.1\",\"port\":40000,"
		 "\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\"}",
		 "\"sysctl\":{\"ip_local_port_range\":[1024,65535],\"ip_local_reserved_ports\":\"40000\"}");
	expect_no_finding(fs, "net.ports.master_in_range");
	findings_free(fs);
}

#define RANGE "\"sysctl\":{\"ip_local_port_range\":[32768,60999]}"

/* Every ACCEPT a finding proposes names the interface and the sources it lets in. */
static void assert_scoped(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		for (size_t k = 0; k < fs->v[i]->nfix; k++) {
			const char *x = fs->v[i]->fix[k];

			if (strstr(x, "<"))
				fail_msg("%s: a placeholder in '%s'", fs->v[i]->id, x);
			if (strstr(x, "iptables -I") && (!strstr(x, " -i ") || !strstr(x, " -s ")))
				fail_msg("%s: an unscoped ACCEPT '%s'", fs->v[i]->id, x);
			if (strstr(x, "nft insert") && (!strstr(x, "iifname") || !strstr(x, "saddr")))
				fail_msg("%s: an unscoped accept '%s'", fs->v[i]->id, x);
		}
}

static void test_firewall(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("", LO "," ETH1, MASTER_ETH1, RANGE ",\"firewall\":{\"chains\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"name\":\"INPUT\",\"hook\":\"input\",\"policy\":\"ACCEPT\",\"source\":\"iptables\"}],\"rules\":["
		 "{\"family\":\"ip\",\"table\":\"filter\",\"chain\":\"INPUT\",\"action\":\"DROP\",\"proto\":\"tcp\","
		 "\"iface\":\"eth1\",\"dports\":[[32768,60999]],\"states\":[],\"source\":\"iptables\","
		 "\"text\":\"-A INPUT -i eth1 -p tcp --dport 32768:60999 -j DROP\"}]}");
	f = expect_finding(fs, "net.firewall.blocks", SEV_ERROR);
	assert_string_equal(f->title, "the local firewall drops incoming TCP 32768-60999 on eth1: NCCL's listeners are there");
	assert_true(finding_evidence_contains(f, "rule: -A INPUT -i eth1 -p tcp --dport 32768:60999 -j DROP"));
	assert_true(finding_has_fix(f, "iptables -I INPUT -i eth1 -p tcp -s 10.0.0.0/24 --dport 32768:60999 -j ACCEPT"));
	assert_scoped(fs);
	findings_free(fs);

	/* a rule on another interface does not matter */
	fs = run("", LO "," ETH1, MASTER_ETH1, RANGE ",\"firewall\":{\"chains\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"name\":\"INPUT\",\"hook\":\"input\",\"policy\":\"ACCEPT\"}],\"rules\":["
		 "{\"family\":\"ip\",\"table\":\"filter\",\"chain\":\"INPUT\",\"action\":\"DROP\",\"iface\":\"eth0\"}]}");
	expect_finding(fs, "net.firewall.open", SEV_OK);
	assert_scoped(fs);
	findings_free(fs);

	/* nftables policy drop, an accept only for ssh, and a rule the model cannot read: a warning */
	fs = run("", LO "," ETH1, MASTER_ETH1, RANGE ",\"firewall\":{\"chains\":[{\"family\":\"inet\",\"table\":\"fw\","
		 "\"name\":\"input\",\"hook\":\"input\",\"policy\":\"DROP\",\"source\":\"nft\"}],\"rules\":["
		 "{\"family\":\"inet\",\"table\":\"fw\",\"chain\":\"input\",\"action\":\"ACCEPT\",\"proto\":\"tcp\","
		 "\"dports\":[[22,22]],\"source\":\"nft\"},"
		 "{\"family\":\"inet\",\"table\":\"fw\",\"chain\":\"input\",\"action\":\"ACCEPT\",\"conditional\":true,\"source\":\"nft\"}]}");
	f = expect_finding(fs, "net.firewall.blocks", SEV_WARN);
	assert_true(finding_evidence_contains(f, "policy DROP of chain input (inet fw)"));
	assert_true(finding_has_fix(f, "nft insert rule inet fw input iifname \"eth1\" ip saddr 10.0.0.0/24 tcp dport 32768-60999 accept"));
	assert_scoped(fs);
	findings_free(fs);

	/* accepted from the master's subnet: the peers are there */
	fs = run("", LO "," ETH1, MASTER_ETH1, RANGE ",\"firewall\":{\"chains\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"name\":\"INPUT\",\"hook\":\"input\",\"policy\":\"DROP\"}],\"rules\":["
		 "{\"family\":\"ip\",\"table\":\"filter\",\"chain\":\"INPUT\",\"action\":\"ACCEPT\",\"src\":\"10.0.0.0/24\"}]}");
	expect_finding(fs, "net.firewall.open", SEV_OK);
	assert_scoped(fs);
	findings_free(fs);

	/* the lab's cloud-public-blocked: public peers dropped on eth0; MASTER_ADDR is elsewhere (eth1) */
	fs = run("", LO "," ETH0 "," ETH1, MASTER_ETH1, RANGE ",\"firewall\":{\"chains\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"name\":\"INPUT\",\"hook\":\"input\",\"policy\":\"ACCEPT\"}],\"rules\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"chain\":\"INPUT\",\"action\":\"DROP\",\"proto\":\"tcp\",\"iface\":\"eth0\",\"src\":\"203.0.113.0/24\","
		 "\"text\":\"-A INPUT -s 203.0.113.0/24 -i eth0 -p tcp -j DROP\"}]}");
	f = expect_finding(fs, "net.firewall.blocks", SEV_ERROR);
	assert_true(strstr(f->title, "on eth0") != NULL);
	assert_true(finding_evidence_contains(f, "evaluated for a peer at 203.0.113.1 on eth0's network"));
	assert_scoped(fs);
	findings_free(fs);

	fs = run("", LO "," ETH1, MASTER_ETH1, RANGE ",\"firewall\":{\"unknown\":\"'iptables-save' failed: Permission denied\"}");
	expect_finding(fs, "net.firewall.unreadable", SEV_INFO);
	assert_scoped(fs);
	findings_free(fs);

	/* MASTER_ADDR is this node: its store port must be open too */
	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"10.0.0.2\",\"resolved\":\"10.0.0.2\",\"port\":29500,"
		 "\"local\":true,\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\"}",
		 RANGE ",\"firewall\":{\"chains\":[{\"family\":\"ip\",\"table\":\"filter\",\"name\":\"INPUT\","
		 "\"hook\":\"input\",\"policy\":\"ACCEPT\"}],\"rules\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"chain\":\"INPUT\",\"action\":\"REJECT\",\"proto\":\"tcp\",\"dports\":[[29500,29500]]}]}");
	f = expect_finding(fs, "net.firewall.master_port", SEV_ERROR);
	assert_true(strstr(f->title, "MASTER_PORT 29500 on eth1, the interface of MASTER_ADDR "
			   "10.0.0.2") != NULL);
	assert_true(finding_has_fix(f, "iptables -I INPUT -i eth1 -p tcp -s 10.0.0.0/24 --dport "
				    "29500 -j ACCEPT"));
	assert_scoped(fs);
	findings_free(fs);

	/* the same under nftables: the accept names the interface and the network too */
	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"10.0.0.2\",\"resolved\":\"10.0.0.2\",\"port\":29500,"
		 "\"local\":true,\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\"}",
		 RANGE ",\"firewall\":{\"chains\":[{\"family\":\"inet\",\"table\":\"fw\",\"name\":\"input\","
		 "\"hook\":\"input\",\"policy\":\"ACCEPT\",\"source\":\"nft\"}],\"rules\":[{\"family\":\"inet\","
		 "\"table\":\"fw\",\"chain\":\"input\",\"action\":\"DROP\",\"proto\":\"tcp\","
		 "\"dports\":[[29500,29500]],\"source\":\"nft\"}]}");
	f = expect_finding(fs, "net.firewall.master_port", SEV_ERROR);
	assert_true(finding_has_fix(f, "nft insert rule inet fw input iifname \"eth1\" ip saddr "
				    "10.0.0.0/24 tcp dport 29500 accept"));
	assert_scoped(fs);
	findings_free(fs);

	/*
	 * cloud-public-blocked's master: MASTER_ADDR is its eth1 address, the public eth0 drops all
	 * TCP (29500 too). The ranks join over eth1: nothing to say about MASTER_PORT, and no fix
	 * may open the public interface to anyone.
	 */
	fs = run("", LO "," ETH0 "," ETH1, "\"master\":{\"set\":true,\"addr\":\"10.0.0.2\","
		 "\"resolved\":\"10.0.0.2\",\"port\":29500,\"local\":true,\"source_addr\":\"10.0.0.2\","
		 "\"source_ifname\":\"eth1\"}",
		 RANGE ",\"firewall\":{\"chains\":[{\"family\":\"ip\",\"table\":\"filter\",\"name\":\"INPUT\","
		 "\"hook\":\"input\",\"policy\":\"ACCEPT\"}],\"rules\":[{\"family\":\"ip\",\"table\":\"filter\","
		 "\"chain\":\"INPUT\",\"action\":\"DROP\",\"proto\":\"tcp\",\"iface\":\"eth0\","
		 "\"text\":\"-A INPUT -i eth0 -p tcp -j DROP\"}]}");
	assert_null(findings_find(fs, "net.firewall.master_port"));
	assert_scoped(fs);
	findings_free(fs);
}

static void test_host(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("", LO "," ETH1, MASTER_ETH1, "\"limits\":{\"nofile\":{\"soft\":1024,\"hard\":524288}},"
		 "\"hostname_resolution\":{\"name\":\"gpu1\",\"addrs\":[\"127.0.1.1\"],\"loopback\":true}");
	f = expect_finding(fs, "net.limits.nofile", SEV_WARN);
	assert_true(finding_has_fix(f, "ulimit -n 65536   # in the launching shell; persist with 'nofile 65536' in /etc/security/limits.conf"));
	f = expect_finding(fs, "net.hostname.loopback", SEV_WARN);
	assert_true(finding_has_fix(f, "echo '10.0.0.2 gpu1' >> /etc/hosts   # and drop the 127.0.x.1 line for it"));
	findings_free(fs);

	/* 'localhost': a unique name made from the address, set and mapped */
	fs = run("", LO "," ETH1, MASTER_ETH1,
		 "\"hostname_resolution\":{\"name\":\"localhost\",\"addrs\":[\"127.0.0.1\"],\"loopback\":true}");
	f = expect_finding(fs, "net.hostname.loopback", SEV_WARN);
	assert_true(finding_fix_contains(f, "hostnamectl set-hostname node-10-0-0-2   #"));
	assert_true(finding_has_fix(f, "echo '10.0.0.2 node-10-0-0-2' >> /etc/hosts   # and drop the 127.0.x.1 line for it"));
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_SNDBUF\":\"16777216\",\"NCCL_SOCKET_RCVBUF\":\"1048576\"", LO "," ETH1, MASTER_ETH1,
		 "\"sysctl\":{\"wmem_max\":4194304,\"rmem_max\":4194304}");
	f = expect_finding(fs, "net.sysctl.sockbuf", SEV_WARN);
	assert_true(finding_has_fix(f, "sysctl -w net.core.wmem_max=16777216"));
	assert_int_equal(findings_count(fs, SEV_WARN), 1);
	findings_free(fs);

	fs = run("", LO "," ETH1, MASTER_ETH1, "\"limits\":{\"nofile\":{\"soft\":65536,\"hard\":65536}},"
		 "\"hostname_resolution\":{\"name\":\"gpu1\",\"addrs\":[\"10.0.0.2\"],\"loopback\":false}");
	expect_no_finding(fs, "net.limits.nofile");
	expect_no_finding(fs, "net.hostname.loopback");
	findings_free(fs);

	/* the neighbour table overflowed: its figures, and limits four times the current ones */
	fs = run("", LO "," ETH1, MASTER_ETH1, "\"sysctl\":{\"neigh_gc_thresh2\":512,"
		 "\"neigh_gc_thresh3\":1024,\"neigh_table_fulls\":27200,\"neigh_entries\":1020}");
	f = expect_finding(fs, "net.neigh.overflowed", SEV_WARN);
	assert_non_null(strstr(f->title, "27200 times"));
	assert_true(finding_has_fix(f, "sysctl -w net.ipv4.neigh.default.gc_thresh3=8192 "
				       "net.ipv4.neigh.default.gc_thresh2=4096 "
				       "net.ipv4.neigh.default.gc_thresh1=1024"));
	findings_free(fs);
	/* never refused one, or not known (a network namespace): nothing */
	fs = run("", LO "," ETH1, MASTER_ETH1, "\"sysctl\":{\"neigh_gc_thresh3\":1024,"
		 "\"neigh_table_fulls\":0,\"neigh_entries\":3}");
	expect_no_finding(fs, "net.neigh.overflowed");
	findings_free(fs);
	fs = run("", LO "," ETH1, MASTER_ETH1, "\"sysctl\":{\"neigh_table_fulls\":{\"unknown\":\"x\"}}");
	expect_no_finding(fs, "net.neigh.overflowed");
	findings_free(fs);
}

static void test_rdma(void **state)
{
	struct findings *fs;

	(void)state;
	fs = run("", LO "," ETH1, "", "\"rdma\":{\"devices\":[{\"name\":\"mlx5_0\",\"ports\":[{\"port\":1,\"state\":\"ACTIVE\","
		 "\"link_layer\":\"Ethernet\"}]}],\"verbs\":{\"loaded\":false,\"error\":\"libibverbs.so.1: cannot open\"},"
		 "\"peermem\":{\"loaded\":false}}");
	expect_finding(fs, "net.rdma.verbs", SEV_WARN);
	findings_free(fs);

	fs = run("", LO "," ETH1, "", "\"rdma\":{\"devices\":[{\"name\":\"mlx5_0\",\"ports\":[{\"port\":1,\"state\":\"ACTIVE\"}]}],"
		 "\"verbs\":{\"loaded\":true,\"devices\":[\"mlx5_0\"]},\"peermem\":{\"loaded\":false}}");
	expect_finding(fs, "net.rdma.peermem", SEV_INFO);
	expect_no_finding(fs, "net.rdma.providers");
	findings_free(fs);

	/* libibverbs loads but lists nothing while /sys has an active port: the provider is missing */
	fs = run("", LO "," ETH1, "", "\"rdma\":{\"devices\":[{\"name\":\"mlx5_0\",\"ports\":[{\"port\":1,\"state\":\"ACTIVE\"}]}],"
		 "\"verbs\":{\"loaded\":true,\"path\":\"/usr/lib/x86_64-linux-gnu/libibverbs.so.1\",\"devices\":[]},"
		 "\"peermem\":{\"loaded\":false}}");
	assert_true(finding_fix_contains(expect_finding(fs, "net.rdma.providers", SEV_WARN), "ibverbs-providers"));
	expect_no_finding(fs, "net.rdma.peermem");
	findings_free(fs);

	fs = run("", LO "," ETH1, "", "\"rdma\":{\"devices\":[{\"name\":\"mlx5_0\",\"ports\":[{\"port\":1,\"state\":\"DOWN\"}]}]}");
	expect_finding(fs, "net.rdma.down", SEV_INFO);
	findings_free(fs);
}

/* Facts without a net section, or with garbage in it, give no network verdict and no crash. */
/*
 * Malformed or partial facts: the rules neither crash nor guess. Where nothing is known they say
 * nothing; an interface list that is known to be empty is exactly one finding (NCCL will find
 * no interface); a prefix length out of range and a firewall chain that jumps to itself (which
 * must terminate) make no warning or error.
 */
static void test_robust(void **state)
{
	static const struct {
		const char *doc;
		const char *only;	/* the one finding expected, NULL: none at all */
	} cases[] = {
		{ "{}", NULL },
		{ "{\"net\":{\"ifaddrs\":{\"unknown\":\"x\"}}}", NULL },
		{ "{\"net\":{\"ifaddrs\":[1,\"a\",{}]}}", NULL },
		{ "{\"net\":{\"ifaddrs\":[],\"master\":{\"set\":true}},\"firewall\":{\"rules\":[{}],"
		  "\"chains\":[{}]}}", "net.nccl.no_interface" },
		{ "{\"net\":{\"ifaddrs\":[{\"ifname\":\"eth0\",\"addr\":\"10.0.0.1\",\"prefixlen\":99}]},"
		  "\"sysctl\":{\"ip_local_port_range\":[\"a\",2]},\"firewall\":{\"chains\":[{\"family\":"
		  "\"ip\",\"table\":\"t\",\"name\":\"c\",\"hook\":\"input\"}],\"rules\":[{\"family\":\"ip\","
		  "\"table\":\"t\",\"chain\":\"c\",\"action\":\"JUMP\",\"target\":\"c\"}]}}", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *facts = json_lit(cases[i].doc);
		struct findings *fs = findings_new();

		run_rule(rule_net, facts, fs);
		run_rule(rule_nccl_env, facts, fs);
		for (size_t k = 0; k < fs->n; k++)
			print_message("case %zu: %s %s\n", i, severity_name(fs->v[k]->sev),
				      fs->v[k]->id);
		if (!cases[i].only) {
			assert_int_equal(fs->n, 0);
		} else {
			assert_int_equal(fs->n, 1);
			assert_string_equal(fs->v[0]->id, cases[i].only);
			assert_int_equal(fs->v[0]->sev, SEV_ERROR);
		}
		findings_free(fs);
		json_decref(facts);
	}
}

/* MASTER_ADDR with no route, and a '^' list that lets docker0 in: the findings no other test reached. */
static void test_more_net(void **state)
{
	struct findings *fs;
	const struct finding *f;
	const struct setting *st;

	(void)state;
	fs = run("", LO "," ETH1, "\"master\":{\"set\":true,\"addr\":\"10.9.0.1\",\"resolved\":\"10.9.0.1\","
		 "\"port\":29500,\"local\":false,\"source_addr\":{\"unknown\":\"no route to 10.9.0.1: Network is "
		 "unreachable\"}}", "");
	f = expect_finding(fs, "net.master.no_route", SEV_ERROR);
	assert_non_null(strstr(f->title, "10.9.0.1"));
	assert_true(finding_has_fix(f, "ip route get 10.9.0.1"));
	expect_no_finding(fs, "net.bootstrap.master_mismatch");
	findings_free(fs);

	fs = run("\"NCCL_SOCKET_IFNAME\":\"^eth0,lo\"",
		 LO ",{\"ifname\":\"docker0\",\"family\":4,\"addr\":\"172.17.0.1\",\"prefixlen\":16,"
		 "\"class\":\"private\",\"flags\":{\"running\":true}}," ETH0, "", "");
	f = expect_finding(fs, "net.ifname.docker_eligible", SEV_ERROR);
	assert_non_null(strstr(f->title, "docker0"));
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=^eth0,lo,docker"));
	st = finding_find_setting(f, "NCCL_SOCKET_IFNAME");
	assert_non_null(st);
	assert_string_equal(st->value, "^eth0,lo,docker");
	assert_int_equal(st->where, WHERE_ENV);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_master_mismatch),
		cmocka_unit_test(test_master_match),
		cmocka_unit_test(test_ifname),
		cmocka_unit_test(test_prediction_edges),
		cmocka_unit_test(test_link_local_v4),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_firewall),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_rdma),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_more_net),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
