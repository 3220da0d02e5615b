/*
 * lab plan: the topology every scenario shares (hub bridges, node NICs, optional docker0 and the
 * routed private segment), computed as text so it can be tested without root. See plan.h.
 */
#include "lab/plan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/xalloc.h"

int lab_prefix_check(const char *prefix, struct err *e)
{
	size_t n = prefix ? strlen(prefix) : 0;

	if (!n)
		return err_set(e, ERR_USAGE, "the lab prefix is empty");
	if (n > LAB_PREFIX_MAX)
		return err_set(e, ERR_USAGE,
			       "lab prefix '%s' is %zu characters; at most %d keep interface names "
			       "within 15", prefix, n, LAB_PREFIX_MAX);
	if (!islower((unsigned char)prefix[0]) || prefix[n - 1] == '-')
		return err_set(e, ERR_USAGE,
			       "lab prefix '%s' must start with a lowercase letter and not end in '-'",
			       prefix);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)prefix[i];
		if (!islower(c) && !isdigit(c) && c != '-')
			return err_set(e, ERR_USAGE,
				       "lab prefix '%s' may only hold a-z, 0-9 and '-'", prefix);
	}
	return 0;
}

/* "n0".."n63": no sign, no leading zero. */
static int is_node_role(const char *s)
{
	if (s[0] != 'n' || !isdigit((unsigned char)s[1]))
		return 0;
	if (s[1] == '0' && s[2])
		return 0;
	for (const char *p = s + 1; *p; p++)
		if (!isdigit((unsigned char)*p) || p - s > 2)
			return 0;
	return 1;
}

int lab_ns_matches(const char *prefix, const char *name, const char **role)
{
	size_t n = strlen(prefix);
	const char *r;

	if (strncmp(name, prefix, n) || name[n] != '-')
		return 0;
	r = name + n + 1;
	if (strcmp(r, "hub") && strcmp(r, "rtr") && strcmp(r, "core") && !is_node_role(r))
		return 0;
	if (role)
		*role = r;
	return 1;
}

int lab_link_matches(const char *prefix, const char *name)
{
	size_t n = strlen(prefix), len;
	const char *r;
	char role[8];

	if (strncmp(name, prefix, n) || name[n] != '-')
		return 0;
	r = name + n + 1;
	if (!strcmp(r, "pub") || !strcmp(r, "priv") || !strcmp(r, "wan") || !strcmp(r, "wanc"))
		return 1;
	len = strlen(r);
	if (len < 4 || len - 2 >= sizeof(role))
		return 0;
	if (strcmp(r + len - 2, "e0") && strcmp(r + len - 2, "e1") && strcmp(r + len - 2, "rt"))
		return 0;
	memcpy(role, r, len - 2);
	role[len - 2] = '\0';
	return is_node_role(role);
}

static int add_ns(struct lab_plan *p, const char *role, enum lab_phase phase)
{
	struct lab_ns *ns = &p->ns[p->nns];

	ns->name = xasprintf("%s-%s", p->prefix, role);
	ns->role = xstrdup(role);
	ns->phase = phase;
	strbuf_init(&ns->sysctl, 0);
	strbuf_init(&ns->ip, 0);
	strbuf_init(&ns->tc, 0);
	strbuf_init(&ns->ipt, 0);
	return (int)p->nns++;
}

int lab_plan_ns(const struct lab_plan *p, const char *role)
{
	for (size_t i = 0; i < p->nns; i++)
		if (!strcmp(p->ns[i].role, role))
			return (int)i;
	return -1;
}

void lab_plan_sysctl(struct lab_plan *p, int ns, const char *key, const char *val)
{
	strbuf_addf(&p->ns[ns].sysctl, "%s=%s\n", key, val);
}

void lab_plan_fault(struct lab_plan *p, int ns, const char *fmt, ...)
{
	json_t *f = json_object();
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	jset_str(f, "netns", p->ns[ns].name);
	jset_str(f, "what", sb.buf);
	json_array_append_new(p->faults, f);
	strbuf_release(&sb);
}

/* Queues one line for a namespace's iptables or tc batch and records it as a fault. */
static void plan_cmd(struct lab_plan *p, int ns, struct strbuf *batch, const char *tool,
		     const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addf(batch, "%s\n", sb.buf);
	lab_plan_fault(p, ns, "%s %s", tool, sb.buf);
	strbuf_release(&sb);
}

void lab_plan_ipt(struct lab_plan *p, int ns, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plan_cmd(p, ns, &p->ns[ns].ipt, "iptables", fmt, ap);
	va_end(ap);
}

void lab_plan_tc(struct lab_plan *p, int ns, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plan_cmd(p, ns, &p->ns[ns].tc, "tc", fmt, ap);
	va_end(ap);
}

void lab_plan_hosts(struct lab_plan *p, int i, int omit_master)
{
	struct strbuf *h = &p->node[i].hosts;

	strbuf_reset(h);
	strbuf_addf(h, "# ncclcheck lab '%s': the nodes' names (private addresses)\n"
		    "127.0.0.1\tlocalhost\n"
		    "::1\tlocalhost ip6-localhost ip6-loopback\n", p->prefix);
	for (int j = 0; j < p->nnodes; j++) {
		if (omit_master && j == 0)
			continue;
		strbuf_addf(h, "%s.%d\t%s\n", LAB_PRIV_NET, LAB_HOST_BASE + j, p->ns[p->node[j].ns].name);
	}
}

/* The hub creates every veth pair, so each node sees eth0 before eth1 (ifindex order). */
static void plan_hub(struct lab_plan *p, int hub, int rtr, int core)
{
	struct strbuf *b = &p->ns[hub].ip;
	const char *P = p->prefix;

	/* bridges without IPv6 stay quiet: no link-local chatter on the segments */
	lab_plan_sysctl(p, hub, "net/ipv6/conf/all/disable_ipv6", "1");
	lab_plan_sysctl(p, hub, "net/ipv6/conf/default/disable_ipv6", "1");
	strbuf_addf(b, "link add %s-pub type bridge mcast_snooping 0\n", P);
	strbuf_addf(b, "link set %s-pub up\n", P);
	if (rtr < 0) {
		strbuf_addf(b, "link add %s-priv type bridge mcast_snooping 0\n", P);
		strbuf_addf(b, "link set %s-priv up\n", P);
	} else {
		strbuf_addf(b, "link add %s-wan mtu %d type veth peer name %s-wanc mtu %d netns %s\n",
			    P, LAB_HOP_MTU, P, LAB_HOP_MTU, p->ns[core].name);
		strbuf_addf(b, "link set %s-wan netns %s\n", P, p->ns[rtr].name);
	}
	for (int i = 0; i < p->nnodes; i++) {
		const char *node = p->ns[p->node[i].ns].name;

		strbuf_addf(b, "link add %s-n%de0 type veth peer name eth0 netns %s\n", P, i, node);
		strbuf_addf(b, "link set %s-n%de0 master %s-pub up\n", P, i, P);
		if (rtr < 0) {
			strbuf_addf(b, "link add %s-n%de1 type veth peer name %s netns %s\n", P, i,
				    p->node[i].priv_if, node);
			strbuf_addf(b, "link set %s-n%de1 master %s-priv up\n", P, i, P);
		} else {
			strbuf_addf(b, "link add %s-n%drt mtu %d type veth peer name %s mtu %d "
				    "netns %s\n", P, i, LAB_JUMBO_MTU, p->node[i].priv_if, LAB_JUMBO_MTU,
				    node);
			strbuf_addf(b, "link set %s-n%drt netns %s\n", P, i, p->ns[rtr].name);
		}
	}
}

static void router_sysctls(struct lab_plan *p, int ns)
{
	lab_plan_sysctl(p, ns, "net/ipv4/ip_forward", "1");
	/* the path back to a node is asymmetric by design; strict rp_filter would drop it */
	lab_plan_sysctl(p, ns, "net/ipv4/conf/all/rp_filter", "0");
	lab_plan_sysctl(p, ns, "net/ipv4/conf/default/rp_filter", "0");
	lab_plan_sysctl(p, ns, "net/ipv4/conf/all/send_redirects", "0");
	lab_plan_sysctl(p, ns, "net/ipv4/conf/default/send_redirects", "0");
	lab_plan_sysctl(p, ns, "net/ipv6/conf/all/disable_ipv6", "1");
	lab_plan_sysctl(p, ns, "net/ipv6/conf/default/disable_ipv6", "1");
}

/*
 * The routed private segment: nodes -> rtr (jumbo legs) -> 1500-byte hop -> core -> back to rtr
 * -> the peer. Policy routing makes even node-to-node traffic on the same router cross the hop.
 */
static void plan_routers(struct lab_plan *p, int rtr, int core)
{
	struct strbuf *r = &p->ns[rtr].ip, *c = &p->ns[core].ip;
	const char *P = p->prefix;

	router_sysctls(p, rtr);
	router_sysctls(p, core);
	strbuf_addstr(r, "link set lo up\n");
	strbuf_addf(r, "addr add %s/30 dev %s-wan\n", LAB_WAN_RTR, P);
	strbuf_addf(r, "link set %s-wan up\n", P);
	for (int i = 0; i < p->nnodes; i++) {
		strbuf_addf(r, "addr add %s/32 dev %s-n%drt\n", LAB_RTR_ADDR, P, i);
		strbuf_addf(r, "link set %s-n%drt up\n", P, i);
		strbuf_addf(r, "route add %s.%d/32 dev %s-n%drt src %s table 200\n", LAB_PRIV_NET,
			    LAB_HOST_BASE + i, P, i, LAB_RTR_ADDR);
	}
	strbuf_addf(r, "rule add iif %s-wan table 200 pref 100\n", P);
	strbuf_addf(r, "route add default via %s dev %s-wan\n", LAB_WAN_CORE, P);

	strbuf_addstr(c, "link set lo up\n");
	strbuf_addf(c, "addr add %s/30 dev %s-wanc\n", LAB_WAN_CORE, P);
	strbuf_addf(c, "link set %s-wanc up\n", P);
	strbuf_addf(c, "route add %s.0/24 via %s dev %s-wanc\n", LAB_PRIV_NET, LAB_WAN_RTR, P);
}

static void plan_node(struct lab_plan *p, int i, int routed)
{
	struct lab_node *n = &p->node[i];
	struct lab_ns *ns = &p->ns[n->ns];
	struct strbuf *b = &ns->ip;

	snprintf(n->eth0, sizeof(n->eth0), "%s.%d/24", LAB_PUB_NET, LAB_HOST_BASE + i);
	snprintf(n->eth1, sizeof(n->eth1), "%s.%d/24", LAB_PRIV_NET, LAB_HOST_BASE + i);
	n->eth1_mtu = routed ? LAB_JUMBO_MTU : 1500;
	n->docker0 = !!(p->flags & LAB_DOCKER0);

	/* the kernel's default, but set: the firewall scenario depends on it being exactly this */
	lab_plan_sysctl(p, n->ns, "net/ipv4/ip_local_port_range", LAB_PORT_RANGE);
	strbuf_addstr(b, "link set lo up\n");
	strbuf_addf(b, "addr add %s dev eth0\n", n->eth0);
	strbuf_addstr(b, "link set eth0 up\n");
	if (!routed) {
		strbuf_addf(b, "addr add %s dev %s\n", n->eth1, n->priv_if);
		strbuf_addf(b, "link set %s up\n", n->priv_if);
	} else {
		/* the /24 stays on eth1 (NCCL's subnet match sees it), the traffic goes via rtr */
		strbuf_addf(b, "addr add %s dev %s noprefixroute\n", n->eth1, n->priv_if);
		strbuf_addf(b, "link set %s up\n", n->priv_if);
		strbuf_addf(b, "route add %s.0/24 via %s dev %s onlink\n", LAB_PRIV_NET,
			    LAB_RTR_ADDR, n->priv_if);
	}
	if (n->docker0) {
		/* a bridge with one running "container" port, so docker0 has carrier like on a
		 * host that runs a container; the port pair gets no addresses at all */
		strbuf_addstr(b, "link add docker0 type bridge mcast_snooping 0\n");
		strbuf_addstr(b, "link add vethdock0 type veth peer name vethdock1\n");
		strbuf_addstr(b, "link set vethdock0 addrgenmode none\n");
		strbuf_addstr(b, "link set vethdock1 addrgenmode none\n");
		strbuf_addstr(b, "link set vethdock0 master docker0\n");
		strbuf_addf(b, "addr add %s dev docker0\n", LAB_DOCKER0_CIDR);
		strbuf_addstr(b, "link set vethdock0 up\n");
		strbuf_addstr(b, "link set vethdock1 up\n");
		strbuf_addstr(b, "link set docker0 up\n");
	}

	strbuf_addf(&n->env,
		    "# ncclcheck lab '%s', node %s: the launch environment 'ncclcheck lab exec' exports\n"
		    "MASTER_ADDR=%s\nMASTER_PORT=%d\nNODE_RANK=%d\nNNODES=%d\nWORLD_SIZE=%d\n"
		    "NCCLCHECK_LAB=%s\nNCCLCHECK_LAB_NODE=%s\n",
		    p->prefix, n->name, p->master_addr, p->master_port, i, p->nnodes, p->nnodes,
		    p->prefix, n->name);
	lab_plan_hosts(p, i, 0);
}

int lab_private_name_check(const char *name, struct err *e)
{
	static const char *const taken[] = { "eth0", "lo", "docker0", "vethdock0", "vethdock1" };
	size_t n = strlen(name);

	if (!n || n > 15 || !islower((unsigned char)name[0]))
		return err_set(e, ERR_USAGE, "'%s' is not an interface name (a-z first, at most 15 "
			       "characters)", name);
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)name[i]) && !isdigit((unsigned char)name[i]))
			return err_set(e, ERR_USAGE, "'%s' is not an interface name (a-z and 0-9 "
				       "only)", name);
	for (size_t i = 0; i < ARRAY_SIZE(taken); i++)
		if (!strcmp(name, taken[i]))
			return err_set(e, ERR_USAGE, "'%s' is already a NIC of every lab node", name);
	return 0;
}

struct lab_plan *lab_plan_new(const char *prefix, int nodes, const struct lab_scenario *sc,
			      int docker0, const char *const *priv_names, struct err *e)
{
	struct lab_plan *p;
	int hub, rtr = -1, core = -1, routed;

	if (lab_prefix_check(prefix, e) < 0)
		return NULL;
	if (nodes < 1 || nodes > LAB_NODES_MAX) {
		err_set(e, ERR_USAGE, "a lab has 1 to %d nodes, not %d", LAB_NODES_MAX, nodes);
		return NULL;
	}
	if (nodes < sc->min_nodes) {
		err_set(e, ERR_USAGE, "scenario '%s' needs at least %d nodes", sc->name,
			sc->min_nodes);
		return NULL;
	}
	for (int i = 0; priv_names && i < nodes; i++)
		if (priv_names[i] && lab_private_name_check(priv_names[i], e) < 0)
			return NULL;
	p = xcalloc(1, sizeof(*p));
	snprintf(p->prefix, sizeof(p->prefix), "%s", prefix);
	p->nnodes = nodes;
	p->sc = sc;
	p->flags = sc->flags | (docker0 ? LAB_DOCKER0 : 0);
	p->ns = xcalloc((size_t)nodes + 3, sizeof(*p->ns));
	p->node = xcalloc((size_t)nodes, sizeof(*p->node));
	p->faults = json_array();
	p->master_port = LAB_MASTER_PORT;
	routed = !!(p->flags & LAB_ROUTED);

	hub = add_ns(p, "hub", LAB_PHASE_CREATE);
	if (routed) {
		rtr = add_ns(p, "rtr", LAB_PHASE_CONFIG);
		core = add_ns(p, "core", LAB_PHASE_CONFIG);
	}
	for (int i = 0; i < nodes; i++) {
		snprintf(p->node[i].name, sizeof(p->node[i].name), "n%d", i % LAB_NODES_MAX);
		snprintf(p->node[i].priv_if, sizeof(p->node[i].priv_if), "%s",
			 priv_names && priv_names[i] ? priv_names[i] : "eth1");
		p->node[i].ns = add_ns(p, p->node[i].name, LAB_PHASE_CONFIG);
		strbuf_init(&p->node[i].env, 0);
		strbuf_init(&p->node[i].hosts, 0);
	}
	if (p->flags & LAB_MASTER_BY_NAME)
		snprintf(p->master_addr, sizeof(p->master_addr), "%s", p->ns[p->node[0].ns].name);
	else
		snprintf(p->master_addr, sizeof(p->master_addr), "%s.%d", LAB_PRIV_NET,
			 LAB_HOST_BASE);

	plan_hub(p, hub, rtr, core);
	if (routed)
		plan_routers(p, rtr, core);
	for (int i = 0; i < nodes; i++)
		plan_node(p, i, routed);
	if (sc->faults)
		sc->faults(p);
	return p;
}

void lab_plan_free(struct lab_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nns; i++) {
		free(p->ns[i].name);
		free(p->ns[i].role);
		strbuf_release(&p->ns[i].sysctl);
		strbuf_release(&p->ns[i].ip);
		strbuf_release(&p->ns[i].tc);
		strbuf_release(&p->ns[i].ipt);
	}
	for (int i = 0; i < p->nnodes; i++) {
		strbuf_release(&p->node[i].env);
		strbuf_release(&p->node[i].hosts);
	}
	json_decref(p->faults);
	free(p->ns);
	free(p->node);
	free(p);
}

json_t *lab_plan_to_json(const struct lab_plan *p)
{
	json_t *doc = json_object(), *nss, *nodes;

	jset_int(doc, "version", 1);
	jset_str(doc, "prefix", p->prefix);
	jset_str(doc, "scenario", p->sc->name);
	jset_str(doc, "summary", p->sc->summary);
	jset_bool(doc, "docker0", !!(p->flags & LAB_DOCKER0));
	jset_bool(doc, "routed", !!(p->flags & LAB_ROUTED));
	jset_str(doc, "master_addr", p->master_addr);
	jset_int(doc, "master_port", p->master_port);
	nss = jarr_child(doc, "namespaces");
	for (size_t i = 0; i < p->nns; i++)
		json_array_append_new(nss, json_string(p->ns[i].name));
	nodes = jarr_child(doc, "nodes");
	for (int i = 0; i < p->nnodes; i++) {
		const struct lab_node *n = &p->node[i];
		json_t *o = json_object();

		jset_str(o, "name", n->name);
		jset_str(o, "netns", p->ns[n->ns].name);
		jset_str(o, "hostname", p->ns[n->ns].name);
		jset_int(o, "rank", i);
		jset_str(o, "eth0", n->eth0);
		jset_str(o, "eth1", n->eth1);
		jset_int(o, "eth1_mtu", n->eth1_mtu);
		if (strcmp(n->priv_if, "eth1"))
			jset_str(o, "private_if", n->priv_if);
		jset_str(o, "docker0", n->docker0 ? LAB_DOCKER0_CIDR : NULL);
		json_array_append_new(nodes, o);
	}
	json_object_set(doc, "faults", p->faults);
	return doc;
}
