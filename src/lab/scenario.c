/*
 * The lab's scenarios, in one table: what each breaks, the field failure it reproduces, the seed
 * section it comes from, how to see it with plain tools, and the function that adds the fault to
 * the plan. `lab --help`, `lab status`, the README and the tests all follow this table.
 */
#include "lab/plan.h"

#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

static int node_ns(const struct lab_plan *p, int i)
{
	return p->node[i].ns;
}

static void public_drop(struct lab_plan *p)
{
	for (int i = 0; i < p->nnodes; i++)
		lab_plan_ipt(p, node_ns(p, i), "-A INPUT -i eth0 -p tcp -s %s.0/24 -j DROP",
			     LAB_PUB_NET);
}

/* SYNs only: a rule on every RST would swallow the peer's resets, turning refusals into hangs */
static void public_reject(struct lab_plan *p)
{
	for (int i = 0; i < p->nnodes; i++)
		lab_plan_ipt(p, node_ns(p, i),
			     "-A INPUT -i eth0 -p tcp --syn -s %s.0/24 -j REJECT --reject-with "
			     "tcp-reset", LAB_PUB_NET);
}

/*
 * A stateful-looking firewall without conntrack: only new connections (SYN without ACK) are
 * filtered, so replies to a node's own connections always pass.
 */
static void port_range(struct lab_plan *p)
{
	for (int i = 0; i < p->nnodes; i++) {
		int ns = node_ns(p, i);

		lab_plan_ipt(p, ns, "-A INPUT ! -i lo -p tcp --syn --dport %d -j ACCEPT",
			     p->master_port);
		lab_plan_ipt(p, ns, "-A INPUT ! -i lo -p tcp --syn --dport %s -j ACCEPT",
			     LAB_OPEN_RANGE);
		lab_plan_ipt(p, ns, "-A INPUT ! -i lo -p tcp --syn -j DROP");
		lab_plan_fault(p, ns, "net.ipv4.ip_local_port_range = %s (NCCL's listeners land here)",
			       LAB_PORT_RANGE);
	}
}

static void docker0_dup(struct lab_plan *p)
{
	for (int i = 0; i < p->nnodes; i++)
		lab_plan_fault(p, node_ns(p, i), "docker0 %s, the same on every node",
			       LAB_DOCKER0_CIDR);
}

static void mtu_blackhole(struct lab_plan *p)
{
	int rtr = lab_plan_ns(p, "rtr");

	for (int i = 0; i < p->nnodes; i++) {
		/* Linux's default, set so that TCP cannot probe its way around the black hole */
		lab_plan_sysctl(p, node_ns(p, i), "net/ipv4/tcp_mtu_probing", "0");
		lab_plan_fault(p, node_ns(p, i), "eth1 MTU %d, routed via %s (%s)", LAB_JUMBO_MTU,
			       p->ns[rtr].name, LAB_RTR_ADDR);
	}
	lab_plan_fault(p, rtr, "%s-wan MTU %d: the hop to %s-core", p->prefix, LAB_HOP_MTU,
		       p->prefix);
	lab_plan_ipt(p, rtr, "-A OUTPUT -p icmp --icmp-type fragmentation-needed -j DROP");
	lab_plan_ipt(p, rtr, "-A FORWARD -p icmp --icmp-type fragmentation-needed -j DROP");
}

static void slow_link(struct lab_plan *p)
{
	int last = p->nnodes - 1, hub = lab_plan_ns(p, "hub");
	static const char tbf[] = "root tbf rate " LAB_SLOW_RATE " burst 64kb latency 50ms";

	/* tbf shapes egress only: cap the node's side and the hub's side of each link */
	lab_plan_tc(p, node_ns(p, last), "qdisc add dev eth0 %s", tbf);
	lab_plan_tc(p, node_ns(p, last), "qdisc add dev %s %s", p->node[last].priv_if, tbf);
	lab_plan_tc(p, hub, "qdisc add dev %s-n%de0 %s", p->prefix, last, tbf);
	lab_plan_tc(p, hub, "qdisc add dev %s-n%de1 %s", p->prefix, last, tbf);
}

static void dns_broken(struct lab_plan *p)
{
	int last = p->nnodes - 1;

	lab_plan_hosts(p, last, 1);
	lab_plan_fault(p, node_ns(p, last),
		       "/etc/hosts has no entry for %s, and MASTER_ADDR=%s on every node",
		       p->ns[node_ns(p, 0)].name, p->master_addr);
}

static const struct lab_scenario scenarios[] = {
	{
		.name = "healthy",
		.summary = N_("no fault: every interface passes every port and size"),
		.reproduces = N_("a working pair of cloud VMs: the baseline every other scenario breaks"),
		.seed = N_("seed 1 §2.3 and seed 2 §2.1 (ping / iperf between the nodes)"),
		.show = N_("any TCP connect between nodes works on eth0 and on eth1"),
		.min_nodes = 1,
		.flags = 0,
	},
	{
		.name = "cloud-public-blocked",
		.summary = N_("TCP between the nodes' public eth0 addresses is dropped; ping still works"),
		.reproduces = N_("AutoDL-style VMs: eth0 holds the public address, eth1 the private one, and TCP "
			   "between public addresses is dropped. NCCL takes the first interface that is not "
			   "docker or lo (eth0), so the job hangs after the data loads and ends in "
			   "ncclInternalError / 'unhandled system error'. Fix: NCCL_SOCKET_IFNAME=eth1"),
		.seed = N_("seed 2 §1 (several NICs on cloud VMs), §2.2, §3.1 and §5.1 (AutoDL: eth1 is "
			   "the private NIC)"),
		.show = N_("from n1, a TCP connect to n0's eth0 address times out while its eth1 address "
			   "connects; ping over eth0 still answers"),
		.min_nodes = 2,
		.flags = LAB_NEEDS_IPTABLES,
		.faults = public_drop,
	},
	{
		.name = "cloud-public-reject",
		.summary = N_("TCP between the nodes' public eth0 addresses is refused with a reset"),
		.reproduces = N_("the same layout behind a firewall that rejects instead of dropping: NCCL fails "
			   "fast during init with 'Connection refused' instead of hanging"),
		.seed = N_("seed 2 §1 and §2.4 (a firewall between the nodes)"),
		.show = N_("from n1, a TCP connect to n0's eth0 address is refused at once; eth1 connects"),
		.min_nodes = 2,
		.flags = LAB_NEEDS_IPTABLES,
		.faults = public_reject,
	},
	{
		.name = "firewall-port-range",
		.summary = N_("only MASTER_PORT and 49152-65535 accept connections; the kernel hands out "
			   "32768-60999"),
		.reproduces = N_("a firewall opened for the range seed 1 names while NCCL listens on kernel "
			   "ephemeral ports: the rendezvous on MASTER_PORT succeeds, then NCCL's bootstrap "
			   "and proxy connections land on closed ports and hang. Fix: open 32768-60999, or "
			   "narrow net.ipv4.ip_local_port_range into the open range"),
		.seed = N_("seed 1 §2.3 (open 49152-65535) against seed 2 §2.4 and §5.2 (32768-60999)"),
		.show = N_("from n1, a listener on n0 port 50000 accepts, one on port 40000 times out; "
			   "listeners bound to port 0 land below 49152"),
		.min_nodes = 2,
		.flags = LAB_NEEDS_IPTABLES,
		.faults = port_range,
	},
	{
		.name = "docker0-duplicate",
		.summary = N_("every node has docker0 with the same 172.17.0.1/16 (up, with a container port)"),
		.reproduces = N_("hosts that run Docker: whenever NCCL or Gloo ends up on docker0 "
			   "(NCCL_SOCKET_IFNAME=docker0 or an exclude list that leaves it, a hostname that "
			   "resolves to it), every rank advertises 172.17.0.1 and connects to itself"),
		.seed = N_("seed 2 §1 (virtual networks confuse NCCL's interface detection) and §2.2 "
			   "(ifconfig shows every interface)"),
		.show = N_("ip addr shows 172.17.0.1 on every node's docker0; from n1, 172.17.0.1 is n1 "
			   "itself, never n0"),
		.min_nodes = 2,
		.flags = LAB_DOCKER0,
		.faults = docker0_dup,
	},
	{
		.name = "mtu-blackhole",
		.summary = N_("eth1 runs MTU 9000 through a 1500-byte router hop that drops ICMP "
			   "'fragmentation needed'"),
		.reproduces = N_("jumbo frames on the nodes while a hop in between carries 1500 and path-MTU "
			   "discovery is blocked: connections and small messages pass (the TCPStore "
			   "rendezvous works), then NCCL init stalls at its first bootstrap exchange that "
			   "needs full-size segments (seen with NCCL 2.28.9 on 2xH200)"),
		.seed = N_("seed 2 §5.3 (Alibaba Cloud: raise the MTU)"),
		.show = N_("from n1, 1 KB over TCP to n0's eth1 address arrives and 1 MB stalls; "
			   "ping -M do -s 8000 fails where -s 1000 passes"),
		.min_nodes = 2,
		.flags = LAB_ROUTED | LAB_NEEDS_IPTABLES,
		.faults = mtu_blackhole,
	},
	{
		.name = "slow-link",
		.summary = N_("the last node's eth0 and eth1 are capped at 100 Mbit/s both ways (tbf)"),
		.reproduces = N_("one slow node or link (a degraded NIC, a smaller instance type): a ring "
			   "all-reduce runs at the slowest link, so two nodes train slower than one"),
		.seed = N_("seed 1 §2.3 (iperf between the nodes) and seed 2 §4.3 (slow communication: "
			   "check the bandwidth)"),
		.show = N_("iperf3 to the last node measures about 95 Mbit/s, to any other node gigabits"),
		.min_nodes = 2,
		.flags = LAB_NEEDS_TC,
		.faults = slow_link,
	},
	{
		.name = "dns-broken",
		.summary = N_("MASTER_ADDR is node 0's hostname, which the last node cannot resolve"),
		.reproduces = N_("MASTER_ADDR set to a hostname that one node's /etc/hosts or DNS does not know: "
			   "that rank fails at once in init_process_group ('Name or service not known') "
			   "while the others wait for it until the timeout"),
		.seed = N_("seed 1 §4.1 and §4.2 (MASTER_ADDR; connection timeouts) and seed 2 §3.3 (the "
			   "launch script's MASTER_ADDR)"),
		.show = N_("getent hosts <prefix>-n0 answers on n0 and fails on the last node"),
		.min_nodes = 2,
		.flags = LAB_MASTER_BY_NAME,
		.faults = dns_broken,
	},
};

const struct lab_scenario *lab_scenarios(size_t *n)
{
	*n = ARRAY_SIZE(scenarios);
	return scenarios;
}

const struct lab_scenario *lab_scenario_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(scenarios); i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return NULL;
}
