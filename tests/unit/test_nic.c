/*
 * Network probe pieces: interface kinds and address classes, the kernel route tables, and the
 * probes run against fixture trees standing for /sys and /proc of a machine with a PCI NIC, an
 * IPoIB port on a ConnectX, a bond, a Docker bridge and a tun device.
 */
#include "cmocka_helpers.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "probe/nic.h"
#include "probe/probe.h"
#include "util/envmap.h"
#include "util/json.h"

static const char *cls(const char *addr)
{
	unsigned char b[16];

	if (inet_pton(AF_INET, addr, b) == 1)
		return nic_addr_class(4, b);
	assert_int_equal(inet_pton(AF_INET6, addr, b), 1);
	return nic_addr_class(6, b);
}

static void test_addr_class(void **state)
{
	(void)state;
	assert_string_equal(cls("10.1.2.3"), "private");
	assert_string_equal(cls("172.16.0.1"), "private");
	assert_string_equal(cls("172.32.0.1"), "public");
	assert_string_equal(cls("192.168.1.1"), "private");
	assert_string_equal(cls("100.64.0.1"), "cgnat");
	assert_string_equal(cls("100.127.255.254"), "cgnat");
	assert_string_equal(cls("100.128.0.1"), "public");
	assert_string_equal(cls("203.0.113.10"), "documentation");
	assert_string_equal(cls("198.51.100.1"), "documentation");
	assert_string_equal(cls("192.0.2.2"), "documentation");
	assert_string_equal(cls("8.8.8.8"), "public");
	assert_string_equal(cls("127.0.1.1"), "loopback");
	assert_string_equal(cls("169.254.1.1"), "link-local");
	assert_string_equal(cls("224.0.0.1"), "multicast");
	assert_string_equal(cls("0.0.0.0"), "unspecified");
	assert_string_equal(cls("::1"), "loopback");
	assert_string_equal(cls("fe80::1"), "link-local");
	assert_string_equal(cls("fd00::2"), "private");
	assert_string_equal(cls("2001:db8::1"), "documentation");
	assert_string_equal(cls("2606:4700::1111"), "public");
	assert_string_equal(cls("::ffff:10.0.0.1"), "private");
}

static void test_kind(void **state)
{
	struct nic_traits t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.name = "lo";
	t.arphrd = 772;
	assert_string_equal(nic_kind(&t), "loopback");
	memset(&t, 0, sizeof(t));
	t.name = "eth0";
	t.arphrd = 1;
	t.has_device = 1;
	t.driver = "ixgbe";
	assert_string_equal(nic_kind(&t), "physical");
	t.has_device = 0;
	t.driver = "veth";
	assert_string_equal(nic_kind(&t), "veth");
	t.driver = "802.1Q VLAN Support";
	assert_string_equal(nic_kind(&t), "vlan");
	t.driver = NULL;
	t.is_bridge = 1;
	t.name = "br-3f2a";
	assert_string_equal(nic_kind(&t), "docker");
	t.name = "virbr0";
	assert_string_equal(nic_kind(&t), "bridge");
	t.is_bridge = 0;
	t.arphrd = 65534;
	t.name = "tailscale0";
	assert_string_equal(nic_kind(&t), "tun");
	t.arphrd = 32;
	t.name = "ib0";
	assert_string_equal(nic_kind(&t), "ib");
	memset(&t, 0, sizeof(t));
	t.name = "dummy0";
	t.arphrd = 1;
	assert_string_equal(nic_kind(&t), "other");
}

static void test_routes(void **state)
{
	static const char r4[] =
		"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
		"eth1\t00000000\t0100000A\t0003\t0\t0\t200\t00000000\t0\t0\t0\n"
		"eth0\t00000000\t017100CB\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
		"eth0\t007100CB\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";
	static const char r4_onlink[] = "Iface\tDestination\tGateway\n"
					"wg0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0\n";
	static const char r4_none[] = "Iface\tDestination\n eth0\t007100CB\t00000000\t0001\t0\t0\t0\t00FFFFFF\n";
	struct nic_route r;

	(void)state;
	assert_int_equal(nic_parse_route4(r4, sizeof(r4) - 1, &r), 1);
	assert_string_equal(r.ifname, "eth0");
	assert_string_equal(r.gateway, "203.0.113.1");
	assert_int_equal(nic_parse_route4(r4_onlink, sizeof(r4_onlink) - 1, &r), 1);
	assert_string_equal(r.gateway, "");
	assert_int_equal(nic_parse_route4(r4_none, sizeof(r4_none) - 1, &r), 0);
	assert_int_equal(nic_parse_route4("", 0, &r), 0);
}

static json_t *probe_fixture(void (*fn)(const struct probe_ctx *, json_t *))
{
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object();
	char sys[4096], proc[4096];

	probe_ctx_init(&o, env);
	snprintf(sys, sizeof(sys), "%s/sys/nic", FIXTURES_DIR);
	snprintf(proc, sizeof(proc), "%s/proc/nic", FIXTURES_DIR);
	o.root_sys = sys;
	o.root_proc = proc;
	fn(&o, facts);
	envmap_free(env);
	return facts;
}

static const json_t *iface(const json_t *facts, const char *name)
{
	size_t i;
	json_t *it;

	json_array_foreach(jpath(facts, "net.interfaces"), i, it)
		if (!strcmp(jpath_str(it, "name"), name))
			return it;
	fail_msg("no interface %s", name);
	return NULL;
}

static void test_probe_nic_fixture(void **state)
{
	json_t *facts;
	const json_t *it;

	(void)state;
	unsetenv("MASTER_ADDR");
	facts = probe_fixture(probe_nic);
	/* in ifindex order */
	assert_string_equal(jpath_str(facts, "net.interfaces.0.name"), "lo");
	assert_string_equal(jpath_str(facts, "net.interfaces.6.name"), "tun0");
	it = iface(facts, "eth0");
	assert_string_equal(jpath_str(it, "kind"), "physical");
	assert_string_equal(jpath_str(it, "driver"), "ixgbe");
	assert_string_equal(jpath_str(it, "pci"), "0000:5e:00.0");
	assert_string_equal(jpath_str(it, "vendor"), "0x8086");
	assert_int_equal(jpath_int(it, "speed_mbps", 0), 10000);
	assert_true(jpath_bool(it, "running", 0));
	assert_false(jpath_bool(it, "virtual", 1));
	it = iface(facts, "eth1");
	assert_false(jpath_bool(it, "up", 1));
	assert_int_equal(jpath_int(it, "mtu", 0), 9000);
	assert_true(json_is_null(json_object_get(it, "speed_mbps")));
	assert_string_equal(jpath_str(iface(facts, "docker0"), "kind"), "docker");
	assert_false(jpath_bool(iface(facts, "docker0"), "running", 1));
	assert_string_equal(jpath_str(iface(facts, "bond0"), "kind"), "bond");
	assert_string_equal(jpath_str(iface(facts, "ib0"), "kind"), "ib");
	assert_string_equal(jpath_str(iface(facts, "ib0"), "driver"), "mlx5_core");
	assert_string_equal(jpath_str(iface(facts, "tun0"), "kind"), "tun");
	assert_string_equal(jpath_str(iface(facts, "lo"), "kind"), "loopback");
	/* the lowest-metric default route */
	assert_string_equal(jpath_str(facts, "net.default_route.ifname"), "eth0");
	assert_string_equal(jpath_str(facts, "net.default_route.gateway"), "203.0.113.1");
	assert_string_equal(jpath_str(facts, "net.default_route.ipv6.gateway"), "fe80::1");
	assert_false(jpath_bool(facts, "net.master.set", 1));
	/* getifaddrs is this machine's: at least lo is there, in order, with classes */
	assert_true(json_array_size(jpath(facts, "net.ifaddrs")) >= 1);
	assert_non_null(jpath_str(facts, "net.ifaddrs.0.class"));
	json_decref(facts);
}

static void test_probe_master(void **state)
{
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object();

	(void)state;
	probe_ctx_init(&o, env);
	o.master_addr = "127.0.0.1";
	probe_nic(&o, facts);
	assert_true(jpath_bool(facts, "net.master.set", 0));
	assert_string_equal(jpath_str(facts, "net.master.from"), "--master-addr");
	assert_string_equal(jpath_str(facts, "net.master.resolved"), "127.0.0.1");
	assert_string_equal(jpath_str(facts, "net.master.source_addr"), "127.0.0.1");
	json_decref(facts);

	facts = json_object();
	o.master_addr = "no-such-host.invalid";
	probe_nic(&o, facts);
	assert_non_null(junknown(jpath(facts, "net.master.resolved")));
	json_decref(facts);
	envmap_free(env);
}

static void test_probe_rdma_sysctl_fixture(void **state)
{
	json_t *facts;

	(void)state;
	facts = probe_fixture(probe_rdma);
	assert_string_equal(jpath_str(facts, "rdma.devices.0.name"), "mlx5_0");
	assert_string_equal(jpath_str(facts, "rdma.devices.0.ports.0.state"), "ACTIVE");
	assert_string_equal(jpath_str(facts, "rdma.devices.0.ports.0.phys_state"), "LinkUp");
	assert_string_equal(jpath_str(facts, "rdma.devices.0.ports.0.rate"), "100 Gb/sec (4X EDR)");
	assert_string_equal(jpath_str(facts, "rdma.devices.0.ports.0.link_layer"), "InfiniBand");
	assert_string_equal(jpath_str(facts, "rdma.devices.0.netdevs.0"), "ib0");
	assert_true(jpath_bool(facts, "rdma.peermem.loaded", 0));
	assert_string_equal(jpath_str(facts, "rdma.peermem.module"), "nvidia_peermem");
	/* a fixture /sys is another machine: its libibverbs cannot be asked */
	assert_null(jpath(facts, "rdma.verbs"));
	json_decref(facts);

	facts = probe_fixture(probe_sysctl);
	assert_int_equal(jpath_int(facts, "sysctl.ip_local_port_range.0", 0), 50000);
	assert_int_equal(jpath_int(facts, "sysctl.ip_local_port_range.1", 0), 51000);
	assert_string_equal(jpath_str(facts, "sysctl.ip_local_reserved_ports"), "29500");
	assert_int_equal(jpath_int(facts, "sysctl.rmem_max", 0), 212992);
	assert_int_equal(jpath_int(facts, "sysctl.neigh_gc_thresh2", 0), 2048);
	assert_int_equal(jpath_int(facts, "sysctl.neigh_gc_thresh3", 0), 4096);
	/* the neighbour table's counters: entries now, table_fulls summed over both CPUs */
	assert_int_equal(jpath_int(facts, "sysctl.neigh_entries", -1), 0x3fc);
	assert_int_equal(jpath_int(facts, "sysctl.neigh_table_fulls", -1), 0x4b4e + 0x1ef2);
	assert_true(jpath_int(facts, "limits.nofile.soft", 0) != 0);
	json_decref(facts);
}

static void test_probe_missing_roots(void **state)
{
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object();

	(void)state;
	probe_ctx_init(&o, env);
	o.root_sys = "/nonexistent-ncclcheck-sys";
	o.root_proc = "/nonexistent-ncclcheck-proc";
	probe_nic(&o, facts);
	probe_rdma(&o, facts);
	probe_sysctl(&o, facts);
	assert_non_null(junknown(jpath(facts, "net.interfaces")));
	assert_non_null(junknown(jpath(facts, "net.default_route")));
	assert_non_null(junknown(jpath(facts, "sysctl.ip_local_port_range")));
	/* what a container sees: the host keeps the neighbour table's limits to itself */
	assert_non_null(junknown(jpath(facts, "sysctl.neigh_gc_thresh3")));
	assert_non_null(junknown(jpath(facts, "sysctl.neigh_table_fulls")));
	assert_int_equal(json_array_size(jpath(facts, "rdma.devices")), 0);
	json_decref(facts);
	envmap_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_class),
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_routes),
		cmocka_unit_test(test_probe_nic_fixture),
		cmocka_unit_test(test_probe_master),
		cmocka_unit_test(test_probe_rdma_sysctl_fixture),
		cmocka_unit_test(test_probe_missing_roots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
