/*
 * What NCCL will do on this node's network and what will stop it, from the model's interface
 * prediction (rules/ifselect.c through model/node.c): the predicted bootstrap and NET/Socket
 * interfaces against the kernel's route to MASTER_ADDR (the second seed's AutoDL failure: NCCL on
 * public eth0, the other nodes on private eth1), NCCL_SOCKET_IFNAME values that match nothing or
 * too much, NCCL_COMM_ID, and a public bootstrap address while a private one exists. Every
 * NCCL_SOCKET_IFNAME it recommends is proven with the model's "what if" first. Pure.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

struct net {
	const struct node_model *m;
	struct findings *out;
};

static void ev_version(struct net *n, struct finding *f)
{
	finding_evidence(f, N_("NCCL %s modelled (%s)"), n->m->nccl.version, n->m->nccl.why);
}

static void ev_source(struct finding *f, const char *name, const char *value, const char *source)
{
	if (value)
		finding_evidence(f, N_("%s=%s (source: %s)"), name, value, str_or(source, "?"));
}

/*
 * What brings NCCL an interface when none it may use is running: each interface that has an
 * address but is not running, by name (down: set it up; up without a carrier: its link is down).
 * Returns how many it named.
 */
static int fix_not_running(const struct net *n, struct finding *f)
{
	const char *seen[64];
	size_t ns = 0;

	for (size_t i = 0; i < n->m->ifs.in.naddrs && ns < 64; i++) {
		const struct ifs_addr *a = &n->m->ifs.in.addrs[i];
		const struct nm_iface *it = node_model_iface(n->m, a->name);
		int dup = 0;

		for (size_t j = 0; j < ns; j++)
			dup |= !strcmp(seen[j], a->name);
		if (dup || a->running || !strncmp(a->name, "lo", 2))
			continue;
		seen[ns++] = a->name;
		if (it && it->up)
			finding_fix(f, N_("ip link show dev %s   # UP but NO-CARRIER: its cable, switch port or "
				    "virtual NIC is down"), a->name);
		else
			finding_fix(f, N_("ip link set dev %s up   # it has an address (%s) but is down"), a->name,
				    a->text);
	}
	return (int)ns;
}

/* "eth0 203.0.113.10, eth1 10.0.0.2" for the interfaces that have an address NCCL could use. */
static void list_interfaces(const struct net *n, struct strbuf *sb, int names_only)
{
	const char *seen[64];
	size_t ns = 0;

	for (size_t i = 0; i < n->m->ifs.in.naddrs && ns < 64; i++) {
		const struct ifs_addr *a = &n->m->ifs.in.addrs[i];
		int dup = 0;

		for (size_t j = 0; j < ns; j++)
			if (!strcmp(seen[j], a->name))
				dup = 1;
		if (dup)
			continue;
		seen[ns++] = a->name;
		if (names_only)
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", a->name);
		else
			strbuf_addf(sb, "%s%s %s%s", sb->len ? ", " : "", a->name, a->text,
				    a->running ? "" : " (not running)");
	}
}

static int public_like(const char *cls)
{
	return cls && (!strcmp(cls, "public") || !strcmp(cls, "documentation"));
}

/* ---- prediction ---- */

/*
 * The interface to name in NCCL_SOCKET_IFNAME instead of link-local ones: the first in getifaddrs
 * order with a routable address that NCCL's automatic pass would accept, kept only when the
 * prediction with "=name" bootstraps on a routable address.
 */
static const char *routable_ifname(const struct net *n)
{
	const struct ifs_facts *fa = &n->m->ifs;
	const struct ifs_result *r = &n->m->pred;

	for (size_t i = 0; i < fa->in.naddrs; i++) {
		const struct ifs_addr *a = &fa->in.addrs[i];
		struct ifs_input in = fa->in;
		struct ifs_result *p;
		char v[IFS_PREFIX_MAX + 2];
		int ok;

		if (ifs_addr_link_local_any(a) || !strncmp(a->name, "lo", 2) ||
		    !strncmp(a->name, "docker", 6) || !strncmp(a->name, "virbr", 5) ||
		    (r->running_filter && !a->running) || (r->family != -1 && a->family != r->family))
			continue;
		snprintf(v, sizeof(v), "=%s", a->name);
		in.socket_ifname = v;
		p = xcalloc(1, sizeof(*p));
		ifs_predict(&in, p);
		ok = p->boot_status == IFS_OK && p->boot && !ifs_addr_link_local_any(p->boot);
		for (int j = 0; ok && j < p->sockets.n; j++)
			ok = !ifs_addr_link_local_any(p->sockets.v[j]);
		free(p);
		if (ok)
			return a->name;
	}
	return NULL;
}

/*
 * Link-local addresses (169.254/16, fe80::/10) NCCL would use: peers on other segments cannot reach
 * them (GH200 nodes bootstrapped on 169.254.3.1 and peers got "Connection refused").
 */
static void report_link_local(struct net *n)
{
	const struct ifs_result *r = &n->m->pred;
	const struct ifs_addr *ll = NULL;
	const char *good;
	struct finding *f;
	int boot = r->boot && ifs_addr_link_local_any(r->boot);

	if (boot)
		ll = r->boot;
	for (int i = 0; !ll && i < r->sockets.n; i++)
		if (ifs_addr_link_local_any(r->sockets.v[i]))
			ll = r->sockets.v[i];
	if (!ll)
		return;
	if (boot)
		f = finding_add(n->out, SEV_WARN, "net.bootstrap.link_local",
				"NCCL will bootstrap on the %s link-local address %s of %s",
				ll->family == 4 ? "IPv4" : "IPv6", ll->text, ll->name);
	else
		f = finding_add(n->out, SEV_WARN, "net.socket.link_local",
				"NCCL's NET/Socket transport will use the %s link-local address %s of %s",
				ll->family == 4 ? "IPv4" : "IPv6", ll->text, ll->name);
	for (int i = 0; i < r->sockets.n; i++)
		if (ifs_addr_link_local_any(r->sockets.v[i]))
			finding_evidence(f, "NET/Socket device %s %s is link-local", r->sockets.v[i]->name,
					 r->sockets.v[i]->text);
	ev_version(n, f);
	ev_source(f, "NCCL_SOCKET_IFNAME", n->m->ifs.in.socket_ifname, n->m->ifs.ifname_source);
	finding_why(f, "A link-local address (169.254.0.0/16, fe80::/10) is only reachable on its own "
		    "L2 segment, and many nodes carry the same one (a BMC or USB network), so peers "
		    "connect to the wrong host or get 'Connection refused'. NCCL's automatic choice "
		    "does not skip them.");
	if ((good = routable_ifname(n))) {
		finding_export(f, "NCCL_SOCKET_IFNAME", "=%s", good);
	} else if (ll->family == 6) {
		finding_export(f, "NCCL_SOCKET_FAMILY", "AF_INET");
	} else {
		finding_fix(f, N_("# no interface with a routable address is up here: give one an address, "
			    "then set NCCL_SOCKET_IFNAME to it"));
	}
}

static void report_prediction(struct net *n)
{
	const struct ifs_result *r = &n->m->pred;
	struct finding *f;
	struct strbuf socks = STRBUF_INIT, all = STRBUF_INIT;

	for (int i = 0; i < r->sockets.n; i++)
		strbuf_addf(&socks, "%s[%d]%s:%s", i ? " " : "", i, r->sockets.v[i]->name, r->sockets.v[i]->text);
	list_interfaces(n, &all, 0);

	if (r->boot_status == IFS_OK) {
		f = finding_add(n->out, SEV_INFO, "net.nccl.bootstrap", "NCCL %s will bootstrap on %s %s, picked by %s",
				n->m->nccl.version, r->boot->name, r->boot->text, ifs_rule_describe(r->boot_rule));
		finding_evidence(f, N_("NET/Socket devices: %s, picked by %s"), socks.len ? socks.buf : "none",
				 ifs_rule_describe(r->sockets.rule));
		if (r->sockets.n)
			finding_evidence(f, N_("IB out-of-band interface (if NCCL uses IB): %s"),
					 r->sockets.v[0]->name);
		finding_evidence(f, "net.ifaddrs (getifaddrs order): %s", all.len ? all.buf : "none");
		ev_version(n, f);
		ev_source(f, "NCCL_SOCKET_IFNAME", n->m->ifs.in.socket_ifname, n->m->ifs.ifname_source);
		ev_source(f, "NCCL_SOCKET_FAMILY", n->m->ifs.in.socket_family, n->m->ifs.family_source);
		ev_source(f, "NCCL_COMM_ID", n->m->ifs.in.comm_id, n->m->ifs.comm_id_source);
		/* two formats, not "%s%s": a translation cannot tell where pasted pieces meet */
		finding_why(f, r->virbr_last ? N_("Reproduces ncclFindInterfaces()/bootstrapNetInit() of "
						  "NCCL %s over this node's getifaddrs() list: %s, virbr* "
						  "is tried last.")
					     : N_("Reproduces ncclFindInterfaces()/bootstrapNetInit() of "
						  "NCCL %s over this node's getifaddrs() list: %s."),
			    n->m->nccl.version,
			    r->running_filter ? N_("interfaces that are not RUNNING are skipped (2.28+)")
					      : N_("interfaces that are down but have an address still count "
						   "(before 2.28)"));
	} else if (r->boot_status == IFS_NONE && !r->commid_set && !(r->ifname_set && !r->ifname_ignored)) {
		/* (a NCCL_SOCKET_IFNAME that matches nothing is reported by report_ifname) */
		f = finding_add(n->out, SEV_ERROR, "net.nccl.no_interface",
				"NCCL %s will find no interface to bootstrap on: '%s'", n->m->nccl.version,
				str_or(r->boot_warn, "?"));
		finding_evidence(f, "net.ifaddrs: %s", all.len ? all.buf : "none");
		ev_version(n, f);
		ev_source(f, "NCCL_SOCKET_IFNAME", n->m->ifs.in.socket_ifname, n->m->ifs.ifname_source);
		ev_source(f, "NCCL_SOCKET_FAMILY", n->m->ifs.in.socket_family, n->m->ifs.family_source);
		finding_why(f, "Every rank fails in ncclCommInitRank (%s).",
			    version_cmp_str(n->m->nccl.version, "2.24") >= 0 ? "ncclInvalidUsage" : "ncclInternalError");
		if (n->m->ifs.in.socket_family) {
			finding_fix(f, "unset NCCL_SOCKET_FAMILY");
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_SOCKET_FAMILY", NULL);
		}
		if (!n->m->ifs.in.socket_ifname && !fix_not_running(n, f))
			finding_fix(f, N_("ip -br addr show   # no interface but loopback has an address: give "
				    "the node's network interface one"));
	}
	report_link_local(n);
	if (r->boot && !strncmp(r->boot->name, "docker", 6)) {
		f = finding_add(n->out, SEV_WARN, "net.bootstrap.docker",
				"NCCL will bootstrap on %s %s, a Docker bridge", r->boot->name, r->boot->text);
		finding_why(f, "Docker gives every host the same bridge address (172.17.0.1), so other nodes "
			    "connect to themselves. NCCL only falls back to docker* when nothing else is usable.");
		finding_evidence(f, "net.ifaddrs: %s", all.buf);
	}
	strbuf_release(&socks);
	strbuf_release(&all);
}

/* ---- NCCL_SOCKET_IFNAME ---- */

static void report_ifname(struct net *n)
{
	const struct ifs_result *r = &n->m->pred;
	const char *v = n->m->ifs.in.socket_ifname, *src = n->m->ifs.ifname_source;
	struct finding *f;
	struct strbuf all = STRBUF_INIT;

	if (!v)
		return;
	list_interfaces(n, &all, 1);
	if (r->ifname_ignored) {
		f = finding_add(n->out, SEV_WARN, "net.ifname.ignored",
				"NCCL_SOCKET_IFNAME='%s' is ignored: NCCL needs at least 2 characters", v);
		ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
		finding_why(f, "NCCL only uses the variable when strlen(value) > 1; otherwise it chooses the "
			    "interface automatically.");
		goto out;
	}
	if (r->spec.with_space) {
		f = finding_add(n->out, r->sockets.n ? SEV_WARN : SEV_ERROR, "net.ifname.space",
				"NCCL_SOCKET_IFNAME='%s' contains a space: NCCL does not trim it", v);
		ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
		finding_why(f, "NCCL splits the list at ',' and compares each entry as it is, so \"eth0, eth1\" "
			    "asks for an interface called \" eth1\".");
		{
			char clean[256];
			size_t k = 0;
			for (const char *p = v; *p && k + 1 < sizeof(clean); p++)
				if (*p != ' ' && *p != '\t')
					clean[k++] = *p;
			clean[k] = '\0';
			finding_export(f, "NCCL_SOCKET_IFNAME", "%s", clean);
		}
	}
	if (r->spec.entries > IFS_MAX_IFS) {
		f = finding_add(n->out, SEV_WARN, "net.ifname.too_many",
				"NCCL_SOCKET_IFNAME lists %d entries; NCCL reads only the first %d", r->spec.entries,
				IFS_MAX_IFS);
		ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
	}
	if (r->spec.with_port) {
		f = finding_add(n->out, SEV_INFO, "net.ifname.port",
				"NCCL_SOCKET_IFNAME='%s': the ':port' part does not choose a port", v);
		ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
		finding_why(f, "NCCL parses 'name:port' but ignores the port for IP interfaces; its listening "
			    "ports always come from the kernel's ephemeral range (net.ipv4.ip_local_port_range).");
	}
	if (r->socket_status == IFS_NONE) {
		struct strbuf notes = STRBUF_INIT;

		/* say why the names that do match were not taken */
		for (size_t i = 0; i < n->m->ifs.in.naddrs; i++) {
			const struct ifs_addr *a = &n->m->ifs.in.addrs[i];
			int seen = 0;

			for (size_t j = 0; j < i; j++)
				if (!strcmp(n->m->ifs.in.addrs[j].name, a->name))
					seen = 1;
			if (seen || !ifs_spec_selects(&r->spec, a->name))
				continue;
			if (r->running_filter && !a->running)
				strbuf_addf(&notes, "%s%s is not running (NCCL %s skips it)", notes.len ? "; " : "",
					    a->name, n->m->nccl.version);
			else if (r->family != -1 && a->family != r->family)
				strbuf_addf(&notes, "%s%s has no IPv%d address (NCCL_SOCKET_FAMILY)",
					    notes.len ? "; " : "", a->name, r->family);
		}
		f = finding_add(n->out, SEV_ERROR, "net.ifname.nomatch",
				"NCCL_SOCKET_IFNAME=%s matches no interface; this node has %s", v,
				all.len ? all.buf : "no interface with an address");
		ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
		if (notes.len)
			finding_evidence(f, "%s", notes.buf);
		ev_version(n, f);
		finding_why(f, "NCCL uses the list as given and does not fall back to its automatic choice: "
			    "bootstrap fails with 'Bootstrap : no socket interface found' and NET/Socket with "
			    "'NET/Socket : no interface found'. Names are prefixes ('eth' matches eth0 and eth1), "
			    "'=name' is exact, '^' excludes, case matters.");
		if (n->m->master.ifname && !n->m->master.loopback) {
			char fix[80];
			if (node_model_ifname_for(n->m, n->m->master.ifname, fix, sizeof(fix)) == 0) {
				finding_fix(f, N_("export NCCL_SOCKET_IFNAME=%s   # the interface that reaches MASTER_ADDR %s"),
					    fix, n->m->master.addr);
				finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_SOCKET_IFNAME", "%s", fix);
			}
		}
		finding_fix(f, N_("unset NCCL_SOCKET_IFNAME   # or let NCCL choose"));
		if (!finding_find_setting(f, "NCCL_SOCKET_IFNAME"))
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_SOCKET_IFNAME", NULL);
		strbuf_release(&notes);
		goto out;
	}
	/* an exclusion list replaces NCCL's own, which also kept lo and docker* out */
	if (r->spec.exclude && r->sockets.n) {
		for (int i = 0; i < r->sockets.n; i++) {
			const struct ifs_addr *a = r->sockets.v[i];
			int lo = !strncmp(a->name, "lo", 2), docker = !strncmp(a->name, "docker", 6);
			int boot = r->boot && !strcmp(r->boot->name, a->name);

			if (!lo && !docker)
				continue;
			f = finding_add(n->out, boot && !n->m->master.loopback ? SEV_ERROR : SEV_WARN,
					lo ? "net.ifname.lo_eligible" : "net.ifname.docker_eligible",
					"NCCL_SOCKET_IFNAME=%s makes %s eligible%s", v, a->name,
					boot ? ": NCCL will bootstrap on it" : " for NET/Socket");
			ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
			finding_evidence(f, "predicted: bootstrap %s, NET/Socket %d interface(s)",
					 r->boot ? r->boot->name : "none", r->sockets.n);
			finding_why(f, "A '^' list replaces NCCL's default exclusions (docker*, lo*), so it must "
				    "name them again; %s then advertises %s to the other nodes, which cannot reach it. "
				    "NCCL's maintainers recommend '^docker0,lo' or leaving the variable unset.",
				    a->name, a->text);
			{
				struct strbuf fix = STRBUF_INIT;
				strbuf_addstr(&fix, v);
				if (lo)
					strbuf_addstr(&fix, ",lo");
				if (docker)
					strbuf_addstr(&fix, ",docker");
				finding_export(f, "NCCL_SOCKET_IFNAME", "%s", fix.buf);
				strbuf_release(&fix);
			}
		}
	}
	/* a prefix that also catches a longer name: eth1 and eth10 */
	if (!r->spec.exclude && !r->spec.exact) {
		for (int t = 0; t < r->spec.n; t++) {
			const char *tok = r->spec.tok[t].prefix;
			struct strbuf others = STRBUF_INIT;
			int exact_exists = 0;

			for (int i = 0; i < r->sockets.n; i++) {
				const char *name = r->sockets.v[i]->name;
				if (!strcmp(name, tok))
					exact_exists = 1;
				else if (!strncmp(name, tok, strlen(tok)))
					strbuf_addf(&others, "%s%s", others.len ? ", " : "", name);
			}
			if (exact_exists && others.len) {
				f = finding_add(n->out, SEV_WARN, "net.ifname.prefix",
						"NCCL_SOCKET_IFNAME=%s also matches %s: NCCL takes names as prefixes",
						v, others.buf);
				ev_source(f, "NCCL_SOCKET_IFNAME", v, src);
				finding_evidence(f, "predicted bootstrap: %s; NET/Socket: %d interfaces",
						 r->boot ? r->boot->name : "none", r->sockets.n);
				finding_why(f, "'%s' selects every interface whose name starts with it; NET/Socket "
					    "then spreads traffic over all of them. A leading '=' selects the exact name.",
					    tok);
				finding_export(f, "NCCL_SOCKET_IFNAME", "=%s", tok);
			}
			strbuf_release(&others);
		}
	}
out:
	strbuf_release(&all);
}

/* ---- NCCL_COMM_ID ---- */

static void report_comm_id(struct net *n)
{
	const struct ifs_result *r = &n->m->pred;
	const char *v = n->m->ifs.in.comm_id;
	struct finding *f;

	if (!r->commid_set)
		return;
	if (r->boot_status == IFS_BAD_COMMID) {
		f = finding_add(n->out, SEV_ERROR, "nccl.env.comm_id", "NCCL_COMM_ID='%s' is invalid: %s", v,
				r->commid.error ? r->commid.error : "NCCL cannot parse it");
		ev_source(f, "NCCL_COMM_ID", v, n->m->ifs.comm_id_source);
		finding_why(f, "NCCL stops with 'Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or "
			    "[<ipv6>]:<port> or <hostname>:<port>'. PyTorch never needs NCCL_COMM_ID: it passes "
			    "NCCL's unique id through its own store.");
		finding_fix(f, "unset NCCL_COMM_ID");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_COMM_ID", NULL);
		return;
	}
	if (r->boot_status == IFS_UNRESOLVED) {
		f = finding_add(n->out, SEV_WARN, "nccl.env.comm_id", "NCCL_COMM_ID host '%s' did not resolve here",
				r->commid.host);
		ev_source(f, "NCCL_COMM_ID", v, n->m->ifs.comm_id_source);
		finding_evidence(f, "net.comm_id.resolved: %s",
				 str_or(n->m->comm_id_unresolved, "?"));
		finding_fix(f, "unset NCCL_COMM_ID");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_COMM_ID", NULL);
		return;
	}
	if (r->boot_status == IFS_NONE) {
		f = finding_add(n->out, SEV_ERROR, "nccl.env.comm_id",
				"NCCL_COMM_ID=%s is in no subnet of this node: NCCL cannot bootstrap here", v);
		ev_source(f, "NCCL_COMM_ID", v, n->m->ifs.comm_id_source);
		finding_why(f, "With NCCL_COMM_ID set, bootstrap uses only the local interface in the same subnet "
			    "as that address and ignores NCCL_SOCKET_IFNAME; without one NCCL stops with "
			    "'NET/Socket : No usable listening interface found'. Every node, not only rank 0, "
			    "needs such an interface.");
		finding_fix(f, "unset NCCL_COMM_ID");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_COMM_ID", NULL);
		return;
	}
	f = finding_add(n->out, SEV_WARN, "nccl.env.comm_id",
			"NCCL_COMM_ID=%s fixes NCCL's root address: risky with PyTorch", v);
	ev_source(f, "NCCL_COMM_ID", v, n->m->ifs.comm_id_source);
	finding_why(f, "Every communicator then shares one root address and a constant magic; PyTorch creates "
		    "several communicators (subgroups, splits), which collide, and rank 0 must own that exact "
		    "address.%s", r->commid.port < 0 ? " Without ':port' NCCL listens on port 65535." : "");
	finding_fix(f, N_("unset NCCL_COMM_ID   # torch passes NCCL's unique id through MASTER_ADDR:MASTER_PORT"));
	finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_COMM_ID", NULL);
}

/* ---- MASTER_ADDR ---- */

/*
 * This node's address the other nodes could use as MASTER_ADDR: the IPv4 address of the
 * interface the nodes talk over (NCCL's bootstrap, else the default route's) when it is a private
 * one, else the one private IPv4 address of a host interface (not lo, docker*, virbr*). NULL when
 * there is none, or several to choose from.
 */
static const char *own_private_ip(const struct net *n)
{
	const char *ifn = node_model_cluster_ifname(n->m), *only = NULL;
	const struct ifs_addr *a = ifn ? node_model_addr(n->m, ifn, 4) : NULL;

	if (a && addr_classify(4, a->addr) == ADDR_PRIVATE)
		return a->text;
	for (size_t i = 0; i < n->m->ifs.in.naddrs; i++) {
		a = &n->m->ifs.in.addrs[i];
		if (a->family != 4 || addr_classify(4, a->addr) != ADDR_PRIVATE ||
		    !strncmp(a->name, "lo", 2) || !strncmp(a->name, "docker", 6) ||
		    !strncmp(a->name, "virbr", 5))
			continue;
		if (only && strcmp(only, a->text))
			return NULL;
		only = a->text;
	}
	return only;
}

/* MASTER_ADDR names this node: its host name (short or full). */
static int names_self(const struct net *n, const char *addr)
{
	const char *h = n->m->hostname;
	size_t la = strcspn(addr, "."), lh = h ? strcspn(h, ".") : 0;

	return h && (!strcasecmp(addr, h) || (la == lh && !strncasecmp(addr, h, la)));
}

static void report_master(struct net *n)
{
	const struct ifs_result *r = &n->m->pred;
	const struct nm_master *m = &n->m->master;
	const char *addr = m->addr, *src_addr = m->source_addr;
	struct finding *f;
	char fix[80];

	if (!m->set || !addr)
		return;
	if (m->resolve_error) {
		f = finding_add(n->out, SEV_ERROR, "net.master.unresolved", "MASTER_ADDR '%s' does not resolve here: %s",
				addr, m->resolve_error);
		finding_why(f, "Every rank connects to MASTER_ADDR:MASTER_PORT (torch's TCPStore) first; "
			    "a name that does not resolve on this node fails the whole job.");
		if (names_self(n, addr) && own_private_ip(n)) {
			finding_export(f, "MASTER_ADDR", "%s", own_private_ip(n));
			finding_evidence(f, "'%s' is this node's host name; its private address is %s", addr,
					 own_private_ip(n));
		} else {
			/* rank 0's address is on rank 0's machine, not in this node's facts */
			finding_fix(f, N_("getent ahostsv4 %s   # no answer here: this node's resolver does not "
				    "know the name"), addr);
			finding_fix(f, N_("hostname -I   # on %s (rank 0): export its private address as "
				    "MASTER_ADDR on every node"), addr);
		}
		return;
	}
	if (m->route_error) {
		f = finding_add(n->out, SEV_ERROR, "net.master.no_route", "this node has no route to MASTER_ADDR %s: %s",
				m->resolved, m->route_error);
		finding_fix(f, "ip route get %s", m->resolved);
		return;
	}
	if (n->m->master.loopback) {
		f = finding_add(n->out, SEV_INFO, "net.master.loopback",
				"MASTER_ADDR %s is this machine's loopback: fine for one node, unreachable from others",
				addr);
		/* advice for another job, not a setting: this one (single-node) works as it is */
		if (own_private_ip(n))
			finding_fix(f, N_("# for a multi-node job with rank 0 on this node: export MASTER_ADDR=%s "
				    "on every node"), own_private_ip(n));
		return;
	}
	if (!n->m->master.ifname || r->boot_status != IFS_OK)
		return;
	if (strcmp(r->boot->name, n->m->master.ifname)) {
		const struct ifs_addr *ma = node_model_addr(n->m, n->m->master.ifname, 0);
		const char *bcls = node_model_addr_class(n->m, r->boot->text), *mcls = ma ? node_model_addr_class(n->m, ma->text) : NULL;

		f = finding_add(n->out, SEV_ERROR, "net.bootstrap.master_mismatch",
				"NCCL will bootstrap on %s %s, but MASTER_ADDR %s is reached through %s", r->boot->name,
				r->boot->text, addr, n->m->master.ifname);
		if (m->local)
			finding_evidence(f, "kernel route to %s: source %s on %s (MASTER_ADDR is this node)",
					 m->resolved, str_or(src_addr, "?"), n->m->master.ifname);
		else
			finding_evidence(f, "kernel route to %s: source %s on %s", m->resolved,
					 str_or(src_addr, "?"), n->m->master.ifname);
		/* whole formats, one per address class, so each reads as a sentence in Chinese too */
		if (bcls && !strcmp(bcls, "documentation"))
			finding_evidence(f, "predicted bootstrap: %s %s, picked by %s; address class "
					 "documentation range, treated as public", r->boot->name,
					 r->boot->text, ifs_rule_describe(r->boot_rule));
		else if (bcls)
			finding_evidence(f, "predicted bootstrap: %s %s, picked by %s; address class %s",
					 r->boot->name, r->boot->text, ifs_rule_describe(r->boot_rule), bcls);
		else
			finding_evidence(f, "predicted bootstrap: %s %s, picked by %s", r->boot->name,
					 r->boot->text, ifs_rule_describe(r->boot_rule));
		if (ma && mcls && !strcmp(mcls, "documentation"))
			finding_evidence(f, "%s: %s (documentation range, treated as public)",
					 n->m->master.ifname, ma->text);
		else if (ma && mcls && !strcmp(mcls, "private"))
			finding_evidence(f, "%s: %s (private)", n->m->master.ifname, ma->text);
		else if (ma && mcls && !strcmp(mcls, "public"))
			finding_evidence(f, "%s: %s (public)", n->m->master.ifname, ma->text);
		else if (ma)
			finding_evidence(f, "%s: %s (%s)", n->m->master.ifname, ma->text, str_or(mcls, "?"));
		ev_version(n, f);
		ev_source(f, "NCCL_SOCKET_IFNAME", n->m->ifs.in.socket_ifname, n->m->ifs.ifname_source);
		ev_source(f, "NCCL_COMM_ID", n->m->ifs.in.comm_id, n->m->ifs.comm_id_source);
		finding_why(f, "NCCL advertises its bootstrap address (%s) to the other ranks and they must "
			    "connect back to it. The nodes reach each other on %s's network (that is where "
			    "MASTER_ADDR is), so connections to %s hang or are refused and init dies with "
			    "ncclInternalError / 'unhandled system error'. This is the cloud two-NIC trap: "
			    "public %s, private %s.", r->boot->text, n->m->master.ifname, r->boot->text,
			    public_like(bcls) ? r->boot->name : "eth0", n->m->master.ifname);
		if (r->commid_set) {
			finding_fix(f, N_("unset NCCL_COMM_ID   # it decides NCCL's bootstrap interface"));
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_COMM_ID", NULL);
		} else if (node_model_ifname_for(n->m, n->m->master.ifname, fix, sizeof(fix)) == 0) {
			finding_export(f, "NCCL_SOCKET_IFNAME", "%s", fix);
			finding_fix(f, N_("export GLOO_SOCKET_IFNAME=%s   # %s"), n->m->master.ifname,
				    N_("the same for torch's Gloo (CPU) groups"));
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "GLOO_SOCKET_IFNAME", "%s", n->m->master.ifname);
		} else {
			finding_fix(f, N_("ip link set %s up   # NCCL %s skips interfaces that are not running, then:"),
				    n->m->master.ifname, n->m->nccl.version);
			finding_export(f, "NCCL_SOCKET_IFNAME", "=%s", n->m->master.ifname);
		}
		return;
	}
	f = finding_add(n->out, SEV_OK, "net.bootstrap.master_match",
			"NCCL bootstraps on %s, the interface that reaches MASTER_ADDR %s", r->boot->name, addr);
	finding_evidence(f, "kernel route source %s on %s", str_or(src_addr, "?"), n->m->master.ifname);
	if (r->sockets.n > 1) {
		struct strbuf extra = STRBUF_INIT;
		for (int i = 0; i < r->sockets.n; i++)
			if (strcmp(r->sockets.v[i]->name, n->m->master.ifname))
				strbuf_addf(&extra, "%s%s %s", extra.len ? ", " : "", r->sockets.v[i]->name,
					    r->sockets.v[i]->text);
		f = finding_add(n->out, SEV_WARN, "net.socket.extra_interfaces",
				"NCCL's NET/Socket transport will also use %s, not only %s", extra.buf, n->m->master.ifname);
		finding_why(f, "Without NCCL_SOCKET_IFNAME (or with a prefix that matches several names) every "
			    "matching interface becomes a NET/Socket device, and NCCL spreads channels over them. "
			    "If the other nodes cannot reach %s on those, transfers hang after a clean init.",
			    extra.buf);
		if (node_model_ifname_for(n->m, n->m->master.ifname, fix, sizeof(fix)) == 0)
			finding_export(f, "NCCL_SOCKET_IFNAME", "%s", fix);
		strbuf_release(&extra);
	}
}

/* Public bootstrap address while a private one exists, when MASTER_ADDR does not settle it. */
static void report_public(struct net *n)
{
	const struct ifs_result *r = &n->m->pred;
	const char *cls;
	struct finding *f;

	if (n->m->master.ifname || r->boot_status != IFS_OK || n->m->ifs.in.socket_ifname || r->commid_set)
		return;
	cls = node_model_addr_class(n->m, r->boot->text);
	if (!public_like(cls))
		return;
	for (size_t i = 0; i < n->m->ifs.in.naddrs; i++) {
		const struct ifs_addr *a = &n->m->ifs.in.addrs[i];
		const char *c = node_model_addr_class(n->m, a->text);
		char fix[80];

		if (strcmp(a->name, r->boot->name) && c && (!strcmp(c, "private") || !strcmp(c, "cgnat")) &&
		    a->running) {
			f = finding_add(n->out, SEV_WARN, "net.bootstrap.public",
					"NCCL will bootstrap on %s's public address %s while %s has the private address %s",
					r->boot->name, r->boot->text, a->name, a->text);
			if (!strcmp(cls, "documentation"))
				finding_evidence(f, "%s is in a documentation range (RFC 5737), treated as public",
						 r->boot->text);
			finding_why(f, "On clouds the nodes of a cluster usually reach each other on the private "
				    "network only. Set MASTER_ADDR (or pass --master-addr) to let ncclcheck check the "
				    "route; if the nodes talk over %s, pin it.", a->name);
			if (node_model_ifname_for(n->m, a->name, fix, sizeof(fix)) == 0)
				finding_export(f, "NCCL_SOCKET_IFNAME", "%s", fix);
			return;
		}
	}
}

void rule_net_iface(const struct node_model *m, struct findings *out)
{
	struct net n = { m, out };

	if (!m->have_ifs)
		return;
	report_prediction(&n);
	report_ifname(&n);
	report_comm_id(&n);
	report_master(&n);
	report_public(&n);
}
