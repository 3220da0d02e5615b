/*
 * rules/mtu on hand-made facts: a jumbo MTU on NCCL's interface and different MTUs across NCCL's
 * interfaces give the exact ping that proves the path; 1500 everywhere, loopback, IPoIB,
 * link-local-only interfaces and interfaces NCCL will not use give nothing.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "rules/rules.h"

#define IFA(n, a, cls) "{\"ifname\":\"" n "\",\"family\":4,\"addr\":\"" a "\",\"prefixlen\":24,\"class\":\"" cls "\",\"flags\":{\"running\":true}}"
#define IF(n, kind, mtu) "{\"name\":\"" n "\",\"kind\":\"" kind "\",\"up\":true,\"mtu\":" #mtu "}"
#define LO IFA("lo", "127.0.0.1", "loopback")
#define MASTER "\"master\":{\"set\":true,\"addr\":\"10.0.0.1\",\"resolved\":\"10.0.0.1\",\"port\":29500,\"local\":false,\"source_addr\":\"10.0.0.2\",\"source_ifname\":\"eth1\"}"

static struct findings *run(const char *env, const char *ifaddrs, const char *interfaces, const char *more)
{
	char buf[8192];
	struct findings *fs = findings_new();
	json_t *facts;

	snprintf(buf, sizeof(buf),
		 "{\"env\":{%s},\"net\":{\"assume_nccl\":\"2.28.9\",\"ifaddrs\":[%s],\"interfaces\":[%s]%s%s}}",
		 env, ifaddrs, interfaces, *more ? "," : "", more);
	facts = json_lit(buf);
	run_rule(rule_mtu, facts, fs);
	json_decref(facts);
	return fs;
}

static void jumbo(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth1\"", LO "," IFA("eth0", "203.0.113.10", "documentation") "," IFA("eth1", "10.0.0.2", "private"),
		 IF("lo", "loopback", 65536) "," IF("eth0", "physical", 1500) "," IF("eth1", "physical", 9001), MASTER);
	f = expect_finding(fs, "net.mtu.jumbo", SEV_INFO);
	assert_string_equal(f->title, "eth1 (NCCL's bootstrap interface) has MTU 9001: every hop to the other nodes must carry 9001-byte packets");
	assert_true(finding_has_fix(f, "ping -M do -s 8973 -c 3 10.0.0.1   # from every node to every other, over eth1: 'message too long' or no reply = the path is smaller than 9001"));
	assert_true(finding_fix_contains(f, "ip link set dev eth1 mtu 1500"));
	assert_non_null(strstr(f->why, "hangs in init"));
	expect_no_finding(fs, "net.mtu.differ");
	findings_free(fs);

	/* no MASTER_ADDR: the others ping this node's own address; the cloud's limits in the why */
	fs = run("", LO "," IFA("eth0", "10.0.0.2", "private"), IF("eth0", "physical", 9001),
		 "\"default_route\":{\"ifname\":\"eth0\"}}, \"cloud\": {\"provider\": \"aws\"");
	f = expect_finding(fs, "net.mtu.jumbo", SEV_INFO);
	assert_true(finding_has_fix(f, "ping -M do -s 8973 -c 3 10.0.0.2   # from every other node, over eth0: "
				    "'message too long' or no reply = the path is smaller than 9001"));
	assert_non_null(strstr(f->why, "AWS: 9001 works inside one VPC"));
	findings_free(fs);
}

static void differ(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* NCCL_SOCKET_IFNAME unset: both interfaces carry NET/Socket traffic */
	fs = run("", LO "," IFA("eth0", "10.1.0.2", "private") "," IFA("eth1", "10.0.0.2", "private"),
		 IF("lo", "loopback", 65536) "," IF("eth0", "physical", 1500) "," IF("eth1", "physical", 8500), "");
	f = expect_finding(fs, "net.mtu.differ", SEV_INFO);
	assert_string_equal(f->title, "NCCL's interfaces have different MTUs: eth0 1500, eth1 8500");
	assert_true(finding_fix_contains(f, "ping -M do -s 8472 -c 3"));
	f = expect_finding(fs, "net.mtu.jumbo", SEV_INFO);
	assert_non_null(strstr(f->title, "eth1 (NCCL's NET/Socket interface)"));
	findings_free(fs);
}

static void quiet(void **state)
{
	struct findings *fs;

	(void)state;
	/* 1500 everywhere */
	fs = run("", LO "," IFA("eth0", "10.0.0.2", "private"), IF("lo", "loopback", 65536) "," IF("eth0", "physical", 1500), "");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	/* a jumbo interface NCCL will not use */
	fs = run("\"NCCL_SOCKET_IFNAME\":\"eth0\"", LO "," IFA("eth0", "10.0.0.2", "private") "," IFA("eth1", "10.9.0.2", "private"),
		 IF("eth0", "physical", 1500) "," IF("eth1", "physical", 9000), "");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	/* IPoIB: its MTU is the fabric's */
	fs = run("", LO "," IFA("ib0", "192.168.0.2", "private"), IF("ib0", "ib", 2044), "");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
	/* a bridge with only a link-local IPv6 address next to eth0 */
	fs = run("", LO "," IFA("eth0", "10.0.0.2", "private") ",{\"ifname\":\"br0\",\"family\":6,\"addr\":\"fe80::1\",\"prefixlen\":64,\"scope_id\":3,\"flags\":{\"running\":true}}",
		 IF("eth0", "physical", 1400) "," IF("br0", "bridge", 1500), "");
	expect_no_finding(fs, "net.mtu.differ");
	findings_free(fs);
	/* no network facts */
	fs = run("", "", "", "");
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

static void ipv6(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = run("", "{\"ifname\":\"eth0\",\"family\":6,\"addr\":\"fd00::2\",\"prefixlen\":64,\"flags\":{\"running\":true}}",
		 IF("eth0", "physical", 9000), "");
	f = expect_finding(fs, "net.mtu.jumbo", SEV_INFO);
	assert_true(finding_fix_contains(f, "ping -6 -M do -s 8952 -c 3 fd00::2   # from every other node"));
	assert_true(finding_fix_contains(f, "(-s 1452)"));
	findings_free(fs);
}

/* The recorded GPU machine: eth0 at 1400 and lab bridges with link-local addresses only. */
static void gpu_machine(void **state)
{
	json_t *facts = load_fixture_json("facts/gpu-h200x2.json");
	json_t *doc = json_object_get(facts, "facts") ? json_object_get(facts, "facts") : facts;
	struct findings *fs = findings_new();

	(void)state;
	run_rule(rule_mtu, doc, fs);
	expect_no_finding(fs, "net.mtu.differ");
	expect_no_finding(fs, "net.mtu.jumbo");
	findings_free(fs);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jumbo),
		cmocka_unit_test(differ),
		cmocka_unit_test(quiet),
		cmocka_unit_test(ipv6),
		cmocka_unit_test(gpu_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
