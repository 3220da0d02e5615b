/*
 * What NCCL will do on this node's network, and what will stop it: the predicted bootstrap and
 * NET/Socket interfaces (rules/ifselect.c) against the kernel's route to MASTER_ADDR (the second
 * seed's AutoDL failure: NCCL on public eth0, the other nodes on private eth1), NCCL_SOCKET_IFNAME
 * values that match nothing or too much, NCCL_COMM_ID, the ephemeral port range a firewall must
 * open (and which seed's port advice is wrong here), the local firewall itself, the open-files
 * limit, a host name that resolves to loopback, and RDMA that NCCL cannot use. Pure.
 */
#include "rules/rules.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/fwmodel.h"
#include "rules/ifselect.h"
#include "rules/nccl_vars.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

struct net {
	const json_t *facts;
	struct findings *out;
	struct ifs_facts in;
	struct ifs_result r;
	const json_t *master;
	const char *master_if;	/* interface the kernel routes MASTER_ADDR through, or NULL */
	int master_loopback;	/* MASTER_ADDR is 127.x / ::1 / localhost: a single-node run */
};

static const char *nz(const char *s)
{
	return s ? s : "?";
}

static void ev_version(struct net *n, struct finding *f)
{
	finding_evidence(f, "NCCL %s modelled (%s)", n->in.version, n->in.version_why);
}

static void ev_source(struct finding *f, const char *name, const char *value, const char *source)
{
	if (value)
		finding_evidence(f, "%s=%s (from %s)", name, value, nz(source));
}

/* "eth0 203.0.113.10, eth1 10.0.0.2" for the interfaces that have an address NCCL could use. */
static void list_interfaces(const struct net *n, struct strbuf *sb, int names_only)
{
	const char *seen[64];
	size_t ns = 0;

	for (size_t i = 0; i < n->in.in.naddrs && ns < 64; i++) {
		const struct ifs_addr *a = &n->in.in.addrs[i];
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

static const struct ifs_addr *first_addr(const struct net *n, const char *name, int family)
{
	for (size_t i = 0; i < n->in.in.naddrs; i++) {
		const struct ifs_addr *a = &n->in.in.addrs[i];
		if (!strcmp(a->name, name) && (!family || a->family == family))
			return a;
	}
	return NULL;
}

/* The class probe/nic.c gave the address ("private", "documentation"...). */
static const char *addr_class(const struct net *n, const char *addr)
{
	const json_t *e;
	size_t i;

	json_array_foreach(jpath(n->facts, "net.ifaddrs"), i, e)
		if (jpath_str(e, "addr") && !strcmp(jpath_str(e, "addr"), addr))
			return jpath_str(e, "class");
	return NULL;
}

static int public_like(const char *cls)
{
	return cls && (!strcmp(cls, "public") || !strcmp(cls, "documentation"));
}

/* "10.0.0.0/24" for an interface address, for firewall commands. */
static void subnet_of(const struct ifs_addr *a, char *buf, size_t len)
{
	unsigned char b[16];
	int bytes = a->family == 4 ? 4 : 16, plen = a->prefixlen;
	char text[INET6_ADDRSTRLEN];

	if (plen < 0 || plen > bytes * 8) {
		snprintf(buf, len, "%s", a->text);
		return;
	}
	memcpy(b, a->addr, 16);
	for (int i = 0; i < bytes; i++) {
		int bits = plen - i * 8;
		b[i] &= bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));
	}
	inet_ntop(a->family == 4 ? AF_INET : AF_INET6, b, text, sizeof(text));
	snprintf(buf, len, "%s/%d", text, plen);
}

/*
 * The NCCL_SOCKET_IFNAME value that makes NCCL bootstrap on `want`: the plain name, or "=name"
 * when the name is also a prefix of another interface that would come first. Verified by running
 * the prediction with it. Returns 0 and fills `out`, or -1 when no value does (the interface is
 * down on 2.28+, or NCCL_COMM_ID decides).
 */
static int ifname_fix(const struct net *n, const char *want, char *out, size_t len)
{
	const char *cands[2];
	char exact[64];

	snprintf(exact, sizeof(exact), "=%s", want);
	cands[0] = want;
	cands[1] = exact;
	for (int i = 0; i < 2; i++) {
		struct ifs_input in = n->in.in;
		struct ifs_result r;

		in.socket_ifname = cands[i];
		ifs_predict(&in, &r);
		if (r.boot_status == IFS_OK && !strcmp(r.boot->name, want) && r.sockets.n == 1) {
			snprintf(out, len, "%s", cands[i]);
			return 0;
		}
	}
	return -1;
}

/* ---- prediction ---- */

static void report_prediction(struct net *n)
{
	struct ifs_result *r = &n->r;
	struct finding *f;
	struct strbuf socks = STRBUF_INIT, all = STRBUF_INIT;

	for (int i = 0; i < r->sockets.n; i++)
		strbuf_addf(&socks, "%s[%d]%s:%s", i ? " " : "", i, r->sockets.v[i]->name, r->sockets.v[i]->text);
	list_interfaces(n, &all, 0);

	if (r->boot_status == IFS_OK) {
		f = finding_add(n->out, SEV_INFO, "net.nccl.bootstrap", "NCCL %s will bootstrap on %s %s, picked by %s",
				n->in.version, r->boot->name, r->boot->text, ifs_rule_describe(r->boot_rule));
		finding_evidence(f, "NET/Socket devices: %s, picked by %s", socks.len ? socks.buf : "none",
				 ifs_rule_describe(r->sockets.rule));
		if (r->sockets.n)
			finding_evidence(f, "IB out-of-band interface (if NCCL uses IB): %s", r->sockets.v[0]->name);
		finding_evidence(f, "net.ifaddrs (getifaddrs order): %s", all.len ? all.buf : "none");
		ev_version(n, f);
		ev_source(f, "NCCL_SOCKET_IFNAME", n->in.in.socket_ifname, n->in.ifname_source);
		ev_source(f, "NCCL_SOCKET_FAMILY", n->in.in.socket_family, n->in.family_source);
		ev_source(f, "NCCL_COMM_ID", n->in.in.comm_id, n->in.comm_id_source);
		finding_why(f, "Reproduces ncclFindInterfaces()/bootstrapNetInit() of NCCL %s over this node's "
			    "getifaddrs() list: %s%s.", n->in.version,
			    r->running_filter ? "interfaces that are not RUNNING are skipped (2.28+)"
					      : "interfaces that are down but have an address still count (before 2.28)",
			    r->virbr_last ? ", virbr* is tried last" : "");
	} else if (r->boot_status == IFS_NONE && !r->commid_set && !(r->ifname_set && !r->ifname_ignored)) {
		/* (a NCCL_SOCKET_IFNAME that matches nothing is reported by report_ifname) */
		f = finding_add(n->out, SEV_ERROR, "net.nccl.no_interface",
				"NCCL %s will find no interface to bootstrap on: '%s'", n->in.version,
				nz(r->boot_warn));
		finding_evidence(f, "net.ifaddrs: %s", all.len ? all.buf : "none");
		ev_version(n, f);
		ev_source(f, "NCCL_SOCKET_IFNAME", n->in.in.socket_ifname, n->in.ifname_source);
		ev_source(f, "NCCL_SOCKET_FAMILY", n->in.in.socket_family, n->in.family_source);
		finding_why(f, "Every rank fails in ncclCommInitRank (%s).",
			    version_cmp_str(n->in.version, "2.24") >= 0 ? "ncclInvalidUsage" : "ncclInternalError");
		if (n->in.in.socket_family)
			finding_fix(f, "unset NCCL_SOCKET_FAMILY");
		if (!n->in.in.socket_ifname)
			finding_fix(f, "ip link set <interface> up   # no interface with an address is running");
	}
	if (r->boot && ifs_addr_link_local(r->boot)) {
		f = finding_add(n->out, SEV_WARN, "net.bootstrap.link_local",
				"NCCL will bootstrap on the IPv6 link-local address %s of %s", r->boot->text,
				r->boot->name);
		finding_why(f, "NCCL sends the address with its scope id to the other ranks; a link-local "
			    "address only works between nodes on the same L2 segment whose interface has the same "
			    "index. Use an interface with a routable (IPv4 or global IPv6) address.");
		finding_fix(f, "export NCCL_SOCKET_FAMILY=AF_INET");
	}
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
	struct ifs_result *r = &n->r;
	const char *v = n->in.in.socket_ifname, *src = n->in.ifname_source;
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
			finding_fix(f, "export NCCL_SOCKET_IFNAME=%s", clean);
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
		for (size_t i = 0; i < n->in.in.naddrs; i++) {
			const struct ifs_addr *a = &n->in.in.addrs[i];
			int seen = 0;

			for (size_t j = 0; j < i; j++)
				if (!strcmp(n->in.in.addrs[j].name, a->name))
					seen = 1;
			if (seen || !ifs_spec_selects(&r->spec, a->name))
				continue;
			if (r->running_filter && !a->running)
				strbuf_addf(&notes, "%s%s is not running (NCCL %s skips it)", notes.len ? "; " : "",
					    a->name, n->in.version);
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
		if (n->master_if && !n->master_loopback) {
			char fix[80];
			if (ifname_fix(n, n->master_if, fix, sizeof(fix)) == 0)
				finding_fix(f, "export NCCL_SOCKET_IFNAME=%s   # the interface that reaches MASTER_ADDR %s",
					    fix, jpath_str(n->master, "addr"));
		}
		finding_fix(f, "unset NCCL_SOCKET_IFNAME   # or let NCCL choose");
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
			f = finding_add(n->out, boot && !n->master_loopback ? SEV_ERROR : SEV_WARN,
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
				finding_fix(f, "export NCCL_SOCKET_IFNAME=%s", fix.buf);
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
				finding_fix(f, "export NCCL_SOCKET_IFNAME==%s", tok);
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
	struct ifs_result *r = &n->r;
	const char *v = n->in.in.comm_id;
	struct finding *f;

	if (!r->commid_set)
		return;
	if (r->boot_status == IFS_BAD_COMMID) {
		f = finding_add(n->out, SEV_ERROR, "nccl.env.comm_id", "NCCL_COMM_ID='%s' is invalid: %s", v,
				r->commid.error ? r->commid.error : "NCCL cannot parse it");
		ev_source(f, "NCCL_COMM_ID", v, n->in.comm_id_source);
		finding_why(f, "NCCL stops with 'Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or "
			    "[<ipv6>]:<port> or <hostname>:<port>'. PyTorch never needs NCCL_COMM_ID: it passes "
			    "NCCL's unique id through its own store.");
		finding_fix(f, "unset NCCL_COMM_ID");
		return;
	}
	if (r->boot_status == IFS_UNRESOLVED) {
		f = finding_add(n->out, SEV_WARN, "nccl.env.comm_id", "NCCL_COMM_ID host '%s' did not resolve here",
				r->commid.host);
		ev_source(f, "NCCL_COMM_ID", v, n->in.comm_id_source);
		finding_evidence(f, "net.comm_id.resolved: %s",
				 nz(junknown(jpath(n->facts, "net.comm_id.resolved"))));
		finding_fix(f, "unset NCCL_COMM_ID");
		return;
	}
	if (r->boot_status == IFS_NONE) {
		f = finding_add(n->out, SEV_ERROR, "nccl.env.comm_id",
				"NCCL_COMM_ID=%s is in no subnet of this node: NCCL cannot bootstrap here", v);
		ev_source(f, "NCCL_COMM_ID", v, n->in.comm_id_source);
		finding_why(f, "With NCCL_COMM_ID set, bootstrap uses only the local interface in the same subnet "
			    "as that address and ignores NCCL_SOCKET_IFNAME; without one NCCL stops with "
			    "'NET/Socket : No usable listening interface found'. Every node, not only rank 0, "
			    "needs such an interface.");
		finding_fix(f, "unset NCCL_COMM_ID");
		return;
	}
	f = finding_add(n->out, SEV_WARN, "nccl.env.comm_id",
			"NCCL_COMM_ID=%s fixes NCCL's root address: risky with PyTorch", v);
	ev_source(f, "NCCL_COMM_ID", v, n->in.comm_id_source);
	finding_why(f, "Every communicator then shares one root address and a constant magic; PyTorch creates "
		    "several communicators (subgroups, splits), which collide, and rank 0 must own that exact "
		    "address.%s", r->commid.port < 0 ? " Without ':port' NCCL listens on port 65535." : "");
	finding_fix(f, "unset NCCL_COMM_ID   # torch passes NCCL's unique id through MASTER_ADDR:MASTER_PORT");
}

/* ---- MASTER_ADDR ---- */

static void report_master(struct net *n)
{
	struct ifs_result *r = &n->r;
	const json_t *m = n->master;
	const char *addr = jpath_str(m, "addr"), *src_addr = jpath_str(m, "source_addr");
	struct finding *f;
	char fix[80];

	if (!jpath_bool(m, "set", 0) || !addr)
		return;
	if (junknown(jpath(m, "resolved"))) {
		f = finding_add(n->out, SEV_ERROR, "net.master.unresolved", "MASTER_ADDR '%s' does not resolve here: %s",
				addr, junknown(jpath(m, "resolved")));
		finding_why(f, "Every rank connects to MASTER_ADDR:MASTER_PORT (torch's TCPStore) first; "
			    "a name that does not resolve on this node fails the whole job.");
		finding_fix(f, "export MASTER_ADDR=<rank 0's private IP address>");
		return;
	}
	if (junknown(jpath(m, "source_addr"))) {
		f = finding_add(n->out, SEV_ERROR, "net.master.no_route", "this node has no route to MASTER_ADDR %s: %s",
				jpath_str(m, "resolved"), junknown(jpath(m, "source_addr")));
		finding_fix(f, "ip route get %s", jpath_str(m, "resolved"));
		return;
	}
	if (n->master_loopback) {
		f = finding_add(n->out, SEV_INFO, "net.master.loopback",
				"MASTER_ADDR %s is this machine's loopback: fine for one node, unreachable from others",
				addr);
		finding_fix(f, "export MASTER_ADDR=<this node's private IP address>   # for a multi-node job");
		return;
	}
	if (!n->master_if || r->boot_status != IFS_OK)
		return;
	if (strcmp(r->boot->name, n->master_if)) {
		const struct ifs_addr *ma = first_addr(n, n->master_if, 0);
		const char *bcls = addr_class(n, r->boot->text), *mcls = ma ? addr_class(n, ma->text) : NULL;

		f = finding_add(n->out, SEV_ERROR, "net.bootstrap.master_mismatch",
				"NCCL will bootstrap on %s %s, but MASTER_ADDR %s is reached through %s", r->boot->name,
				r->boot->text, addr, n->master_if);
		finding_evidence(f, "kernel route to %s: source %s on %s%s", jpath_str(m, "resolved"), nz(src_addr),
				 n->master_if, jpath_bool(m, "local", 0) ? " (MASTER_ADDR is this node)" : "");
		finding_evidence(f, "predicted bootstrap: %s %s, picked by %s%s%s%s", r->boot->name, r->boot->text,
				 ifs_rule_describe(r->boot_rule), bcls ? "; address class " : "", bcls ? bcls : "",
				 bcls && !strcmp(bcls, "documentation") ? " range, treated as public" : "");
		if (ma)
			finding_evidence(f, "%s: %s (%s%s)", n->master_if, ma->text, nz(mcls),
					 mcls && !strcmp(mcls, "documentation") ? " range, treated as public" : "");
		ev_version(n, f);
		ev_source(f, "NCCL_SOCKET_IFNAME", n->in.in.socket_ifname, n->in.ifname_source);
		ev_source(f, "NCCL_COMM_ID", n->in.in.comm_id, n->in.comm_id_source);
		finding_why(f, "NCCL advertises its bootstrap address (%s) to the other ranks and they must "
			    "connect back to it. The nodes reach each other on %s's network (that is where "
			    "MASTER_ADDR is), so connections to %s hang or are refused and init dies with "
			    "ncclInternalError / 'unhandled system error'. This is the cloud two-NIC trap: "
			    "public %s, private %s.", r->boot->text, n->master_if, r->boot->text,
			    public_like(bcls) ? r->boot->name : "eth0", n->master_if);
		if (r->commid_set) {
			finding_fix(f, "unset NCCL_COMM_ID   # it decides NCCL's bootstrap interface");
		} else if (ifname_fix(n, n->master_if, fix, sizeof(fix)) == 0) {
			finding_fix(f, "export NCCL_SOCKET_IFNAME=%s", fix);
			finding_fix(f, "export GLOO_SOCKET_IFNAME=%s   # the same for torch's Gloo (CPU) groups",
				    n->master_if);
		} else {
			finding_fix(f, "ip link set %s up   # NCCL %s skips interfaces that are not running, then:",
				    n->master_if, n->in.version);
			finding_fix(f, "export NCCL_SOCKET_IFNAME==%s", n->master_if);
		}
		return;
	}
	f = finding_add(n->out, SEV_OK, "net.bootstrap.master_match",
			"NCCL bootstraps on %s, the interface that reaches MASTER_ADDR %s", r->boot->name, addr);
	finding_evidence(f, "kernel route source %s on %s", nz(src_addr), n->master_if);
	if (r->sockets.n > 1) {
		struct strbuf extra = STRBUF_INIT;
		for (int i = 0; i < r->sockets.n; i++)
			if (strcmp(r->sockets.v[i]->name, n->master_if))
				strbuf_addf(&extra, "%s%s %s", extra.len ? ", " : "", r->sockets.v[i]->name,
					    r->sockets.v[i]->text);
		f = finding_add(n->out, SEV_WARN, "net.socket.extra_interfaces",
				"NCCL's NET/Socket transport will also use %s, not only %s", extra.buf, n->master_if);
		finding_why(f, "Without NCCL_SOCKET_IFNAME (or with a prefix that matches several names) every "
			    "matching interface becomes a NET/Socket device, and NCCL spreads channels over them. "
			    "If the other nodes cannot reach %s on those, transfers hang after a clean init.",
			    extra.buf);
		if (ifname_fix(n, n->master_if, fix, sizeof(fix)) == 0)
			finding_fix(f, "export NCCL_SOCKET_IFNAME=%s", fix);
		strbuf_release(&extra);
	}
}

/* Public bootstrap address while a private one exists, when MASTER_ADDR does not settle it. */
static void report_public(struct net *n)
{
	struct ifs_result *r = &n->r;
	const char *cls;
	struct finding *f;

	if (n->master_if || r->boot_status != IFS_OK || n->in.in.socket_ifname || r->commid_set)
		return;
	cls = addr_class(n, r->boot->text);
	if (!public_like(cls))
		return;
	for (size_t i = 0; i < n->in.in.naddrs; i++) {
		const struct ifs_addr *a = &n->in.in.addrs[i];
		const char *c = addr_class(n, a->text);
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
			if (ifname_fix(n, a->name, fix, sizeof(fix)) == 0)
				finding_fix(f, "export NCCL_SOCKET_IFNAME=%s", fix);
			return;
		}
	}
}

/* ---- ports and firewall ---- */

static void report_ports(struct net *n)
{
	const json_t *range = jpath(n->facts, "sysctl.ip_local_port_range");
	long lo, hi, mport = (long)jpath_int(n->master, "port", 29500);
	const struct ifs_addr *b = n->r.boot;
	struct finding *f;
	char subnet[80] = "<peer subnet>";
	const char *ifname;

	/* the network the nodes talk over: MASTER_ADDR's (where NCCL belongs, fixed or not), else NCCL's,
	 * else the default route's */
	if (n->master_if && !n->master_loopback && first_addr(n, n->master_if, 0))
		b = first_addr(n, n->master_if, 0);
	if (!b && jpath_str(n->facts, "net.default_route.ifname"))
		b = first_addr(n, jpath_str(n->facts, "net.default_route.ifname"), 0);
	ifname = b ? b->name : "<interface>";

	if (!json_is_array(range) || json_array_size(range) != 2)
		return;
	lo = (long)json_integer_value(json_array_get(range, 0));
	hi = (long)json_integer_value(json_array_get(range, 1));
	if (b)
		subnet_of(b, subnet, sizeof(subnet));
	f = finding_add(n->out, SEV_INFO, "net.ports.range",
			"NCCL listens on TCP ports %ld-%ld here (net.ipv4.ip_local_port_range): the other nodes must "
			"reach them%s%s", lo, hi, b ? " on " : "", b ? b->name : "");
	finding_evidence(f, "sysctl.ip_local_port_range = %ld %ld", lo, hi);
	finding_why(f, "NCCL has no port setting: every listener (bootstrap root and ring, proxy, NET/Socket) "
		    "binds port 0 and gets a port from this range; torch's TCPStore adds MASTER_PORT (%ld). "
		    "The first seed says to open 49152-65535, which %s; the second says 32768-60999, which %s.",
		    mport,
		    lo >= 49152 && hi <= 65535 ? "covers this range" : "misses part of this node's range",
		    lo >= 32768 && hi <= 60999 ? "covers this range (it is the Linux default)"
					       : "misses part of this node's range");
	finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s -m multiport --dports %ld,%ld:%ld -j ACCEPT",
		    ifname, subnet, mport, lo, hi);
	finding_fix(f, "# cloud security group: allow inbound TCP %ld-%ld and %ld from the cluster's own "
		    "security group or subnet %s", lo, hi, mport, subnet);
	finding_fix(f, "# or narrow the range on every node: sysctl -w net.ipv4.ip_local_port_range=\"50000 51000\"");
	if (mport >= lo && mport <= hi) {
		const char *res = jpath_str(n->facts, "sysctl.ip_local_reserved_ports");
		char want[16];

		snprintf(want, sizeof(want), "%ld", mport);
		if (!res || !strstr(res, want)) {
			f = finding_add(n->out, SEV_WARN, "net.ports.master_in_range",
					"MASTER_PORT %ld is inside the ephemeral range %ld-%ld", mport, lo, hi);
			finding_why(f, "Any outgoing connection on rank 0's node can take that port first; the "
				    "TCPStore then fails with 'address already in use'.");
			finding_fix(f, "sysctl -w net.ipv4.ip_local_reserved_ports=%ld", mport);
		}
	}
}

/*
 * A stand-in for "another node" on the network of `a`: MASTER_ADDR when it is in that subnet, else
 * the subnet's first host other than this one. Peers reach an interface from its own network, so
 * that is the source a firewall rule sees.
 */
static void peer_on(const struct net *n, const struct ifs_addr *a, char *buf, size_t len)
{
	const char *m = jpath_str(n->master, "resolved");
	unsigned char b[16], net[16];
	int bytes = a->family == 4 ? 4 : 16, plen = a->prefixlen;

	buf[0] = '\0';
	if (m && inet_pton(a->family == 4 ? AF_INET : AF_INET6, m, b) == 1 && plen >= 0 && plen <= bytes * 8) {
		int same = 1;
		for (int i = 0; i < bytes; i++) {
			int bits = plen - i * 8;
			unsigned char mask = bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));
			if ((b[i] & mask) != (a->addr[i] & mask))
				same = 0;
		}
		if (same) {
			snprintf(buf, len, "%s", m);
			return;
		}
	}
	if (plen < 0 || plen > bytes * 8)
		return;
	memcpy(net, a->addr, 16);
	for (int i = 0; i < bytes; i++) {
		int bits = plen - i * 8;
		net[i] &= bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));
	}
	if (plen >= bytes * 8 - 1) {
		memcpy(net, a->addr, 16);
		net[bytes - 1] ^= plen == bytes * 8 ? 0 : 1;
	} else {
		net[bytes - 1] |= 1;
		if (!memcmp(net, a->addr, (size_t)bytes))
			net[bytes - 1] = (unsigned char)((net[bytes - 1] & ~3u) | 2);
	}
	inet_ntop(a->family == 4 ? AF_INET : AF_INET6, net, buf, (socklen_t)len);
}

static void report_firewall(struct net *n)
{
	const json_t *fw = jpath(n->facts, "firewall");
	struct fw_model *m;
	struct fw_span spans[64];
	const json_t *range = jpath(n->facts, "sysctl.ip_local_port_range");
	long lo = 32768, hi = 60999, mport = (long)jpath_int(n->master, "port", 29500);
	const char *ifnames[IFS_MAX_IFS + 1];
	int nif = 0, any = 0, uncertain = 0;
	struct finding *f;

	if (!fw)
		return;
	if (junknown(fw)) {
		f = finding_add(n->out, SEV_INFO, "net.firewall.unreadable", "could not read the local firewall: %s",
				junknown(fw));
		finding_fix(f, "sudo ncclcheck node   # reading iptables/nftables rules needs root");
		return;
	}
	if (json_is_array(range) && json_array_size(range) == 2) {
		lo = (long)json_integer_value(json_array_get(range, 0));
		hi = (long)json_integer_value(json_array_get(range, 1));
	}
	m = fw_model_new(fw);
	if (!m)
		return;
	if (n->r.boot)
		ifnames[nif++] = n->r.boot->name;
	for (int i = 0; i < n->r.sockets.n && nif < IFS_MAX_IFS; i++)
		if (!n->r.boot || strcmp(n->r.sockets.v[i]->name, n->r.boot->name))
			ifnames[nif++] = n->r.sockets.v[i]->name;
	for (int k = 0; k < nif; k++) {
		const struct ifs_addr *a = first_addr(n, ifnames[k], 0);
		int family = a ? a->family : 4;
		char peer[INET6_ADDRSTRLEN] = "";
		size_t ns;
		struct fw_result mr;
		struct fw_packet mp;

		if (a)
			peer_on(n, a, peer, sizeof(peer));
		ns = fw_scan(m, family, ifnames[k], peer[0] ? peer : NULL, lo, hi, spans, 64);
		mp.family = family;
		mp.iface = ifnames[k];
		mp.src = peer[0] ? peer : NULL;
		mp.port = mport;

		for (size_t i = 0; i < ns; i++) {
			char subnet[80] = "<peer subnet>";

			uncertain |= spans[i].r.uncertain;
			if (spans[i].r.verdict == FW_ACCEPT)
				continue;
			any = 1;
			if (a)
				subnet_of(a, subnet, sizeof(subnet));
			f = finding_add(n->out, spans[i].r.uncertain ? SEV_WARN : SEV_ERROR, "net.firewall.blocks",
					"the local firewall %s incoming TCP %ld-%ld on %s: NCCL's listeners are there",
					spans[i].r.verdict == FW_DROP ? "drops" : "rejects", spans[i].lo, spans[i].hi,
					ifnames[k]);
			if (spans[i].r.rule)
				finding_evidence(f, "rule: %s", spans[i].r.rule);
			else
				finding_evidence(f, "policy %s of chain %s (%s %s)",
						 spans[i].r.verdict == FW_DROP ? "DROP" : "REJECT", nz(spans[i].r.chain),
						 nz(spans[i].r.family), nz(spans[i].r.table));
			finding_evidence(f, "sysctl.ip_local_port_range = %ld %ld", lo, hi);
			if (peer[0])
				finding_evidence(f, "evaluated for a peer at %s on %s's network", peer, ifnames[k]);
			if (spans[i].r.uncertain)
				finding_evidence(f, "some rules use matches ncclcheck does not model; verify by hand");
			finding_why(f, "Other ranks connect to this node's ephemeral ports (bootstrap ring, proxy, "
				    "NET/Socket). %s", spans[i].r.verdict == FW_DROP
				    ? "Dropped SYNs make each connect time out after about two minutes, retried up "
				      "to 35 times: init appears to hang."
				    : "Rejected connects fail at once with 'Connection refused' after NCCL's retries.");
			if (spans[i].r.source && !strcmp(spans[i].r.source, "nft"))
				finding_fix(f, "nft insert rule %s %s %s iifname \"%s\" %s saddr %s tcp dport %ld-%ld accept",
					    nz(spans[i].r.family), nz(spans[i].r.table), nz(spans[i].r.chain), ifnames[k],
					    family == 6 ? "ip6" : "ip", subnet, spans[i].lo, spans[i].hi);
			else
				finding_fix(f, "iptables -I INPUT -i %s -p tcp -s %s --dport %ld:%ld -j ACCEPT", ifnames[k],
					    subnet, spans[i].lo, spans[i].hi);
		}
		if (jpath_bool(n->master, "local", 0)) {
			fw_eval(m, &mp, &mr);
			if (mr.verdict != FW_ACCEPT) {
				any = 1;
				f = finding_add(n->out, mr.uncertain ? SEV_WARN : SEV_ERROR, "net.firewall.master_port",
						"the local firewall %s MASTER_PORT %ld on %s: no rank can join",
						mr.verdict == FW_DROP ? "drops" : "rejects", mport, ifnames[k]);
				if (mr.rule)
					finding_evidence(f, "rule: %s", mr.rule);
				else
					finding_evidence(f, "policy of chain %s", nz(mr.chain));
				finding_fix(f, "iptables -I INPUT -i %s -p tcp --dport %ld -j ACCEPT", ifnames[k], mport);
			}
		}
	}
	if (!any && nif) {
		f = finding_add(n->out, SEV_OK, "net.firewall.open",
				"the local firewall lets TCP %ld-%ld in on %s%s", lo, hi, ifnames[0],
				uncertain ? " (some rules could not be evaluated)" : "");
		finding_evidence(f, "%zu rules read from %s", json_array_size(json_object_get(fw, "rules")),
				 json_is_array(json_object_get(fw, "source")) ?
				 nz(json_string_value(json_array_get(json_object_get(fw, "source"), 0))) : "?");
	}
	fw_model_free(m);
}

/* ---- limits, host name, RDMA ---- */

/* NCCL_SOCKET_SNDBUF / _RCVBUF ask setsockopt() for more than the kernel's ceiling: silently capped. */
static void report_bufs(struct net *n)
{
	static const struct {
		const char *var, *sysctl, *key;
	} b[] = { { "NCCL_SOCKET_SNDBUF", "net.core.wmem_max", "sysctl.wmem_max" },
		  { "NCCL_SOCKET_RCVBUF", "net.core.rmem_max", "sysctl.rmem_max" } };
	struct nccl_settings s;
	struct finding *f;

	nccl_settings_collect(n->facts, n->in.version, &s);
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		const struct nccl_setting *st = nccl_settings_get(&s, b[i].var);
		long long max = jpath_int(n->facts, b[i].key, -1), want;
		enum nv_parse how;

		if (!st || max <= 0)
			continue;
		want = nccl_parse_int(st->value, &how);
		if (how == NV_PARSE_EMPTY || want <= max)
			continue;
		f = finding_add(n->out, SEV_WARN, "net.sysctl.sockbuf",
				"%s=%lld is above %s (%lld): the kernel caps the socket buffer there", b[i].var, want,
				b[i].sysctl, max);
		finding_evidence(f, "%s=%s (from %s)", st->name, st->value, st->source);
		finding_evidence(f, "%s = %lld", b[i].key, max);
		finding_why(f, "setsockopt(SO_SNDBUF/SO_RCVBUF) silently clamps to the net.core maximum, so the "
			    "larger buffer you asked for is not in force on this node.");
		finding_fix(f, "sysctl -w %s=%lld", b[i].sysctl, want);
	}
	nccl_settings_release(&s);
}

static void report_limits(struct net *n)
{
	long long soft = jpath_int(n->facts, "limits.nofile.soft", -2), hard = jpath_int(n->facts, "limits.nofile.hard", -2);
	struct finding *f;

	if (soft == -2 || soft == -1)
		return;
	if (soft < 4096) {
		long long want = hard == -1 || hard >= 65536 ? 65536 : hard;
		f = finding_add(n->out, SEV_WARN, "net.limits.nofile",
				"open-files limit is %lld: large jobs run out of sockets ('Too many open files')", soft);
		finding_evidence(f, "limits.nofile: soft %lld, hard %lld", soft, hard);
		finding_why(f, "NCCL opens sockets per peer and channel (NET/Socket adds helper sockets), torch's "
			    "DataLoader workers and the TCPStore add more; 1024 is quickly reached at scale.");
		finding_fix(f, "ulimit -n %lld   # in the launching shell; %s", want,
			    want < 65536 ? "raise the hard limit in /etc/security/limits.conf for more"
					 : "persist with 'nofile 65536' in /etc/security/limits.conf");
	}
}

static void report_hostname(struct net *n)
{
	const json_t *hr = jpath(n->facts, "hostname_resolution");
	const char *name = jpath_str(hr, "name");
	const struct ifs_addr *b = n->r.boot;
	struct finding *f;

	if (!name || junknown(hr))
		return;
	if (!strcmp(name, "localhost") || jpath_bool(hr, "loopback", 0)) {
		const json_t *addrs = jpath(hr, "addrs");
		f = finding_add(n->out, SEV_WARN, "net.hostname.loopback", "host name '%s' %s", name,
				!strcmp(name, "localhost") ? "is 'localhost'"
				: "resolves to a loopback address");
		finding_evidence(f, "hostname_resolution: %s -> %s", name,
				 json_is_array(addrs) ? nz(json_string_value(json_array_get(addrs, 0))) : "?");
		finding_why(f, "Tools that advertise this node by name hand out a loopback address to the others: "
			    "torch's Gloo backend (Lightning's CPU barriers) and torchrun's rendezvous use the host "
			    "name's address unless told otherwise; NCCL keys 'same node' on the host name (plus "
			    "boot id), so identical names such as 'localhost' confuse its logs and grouping.");
		if (b && !ifs_addr_link_local(b) && b->family == 4 && strncmp(b->name, "lo", 2))
			finding_fix(f, "echo '%s %s' >> /etc/hosts   # and drop the 127.0.x.1 line for it", b->text,
				    !strcmp(name, "localhost") ? "<unique name>" : name);
		if (b && strncmp(b->name, "lo", 2))
			finding_fix(f, "export GLOO_SOCKET_IFNAME=%s", b->name);
	}
}

static void report_rdma(struct net *n)
{
	const json_t *rdma = jpath(n->facts, "rdma"), *d, *p;
	size_t i, j;
	int active = 0, devices = 0, ib_disabled = 0;
	struct finding *f;
	struct strbuf names = STRBUF_INIT;
	struct nccl_settings s;
	const struct nccl_setting *st;

	if (!rdma || junknown(rdma))
		return;
	json_array_foreach(json_object_get(rdma, "devices"), i, d) {
		devices++;
		json_array_foreach(json_object_get(d, "ports"), j, p)
			if (jpath_str(p, "state") && !strcmp(jpath_str(p, "state"), "ACTIVE")) {
				strbuf_addf(&names, "%s%s:%lld", active ? ", " : "", nz(jpath_str(d, "name")),
					    jpath_int(p, "port", 1));
				active++;
			}
	}
	nccl_settings_collect(n->facts, n->in.version, &s);
	st = nccl_settings_get(&s, "NCCL_IB_DISABLE");
	ib_disabled = st && atoi(st->value) != 0;
	nccl_settings_release(&s);
	if (!devices || ib_disabled)
		goto out;
	if (!active) {
		f = finding_add(n->out, SEV_INFO, "net.rdma.down", "%d RDMA device(s) but no port is ACTIVE: NCCL "
				"uses TCP sockets", devices);
		finding_fix(f, "ibstat   # check cabling / subnet manager, or the RoCE interface's link");
		goto out;
	}
	if (json_is_object(jpath(rdma, "verbs")) && !jpath_bool(rdma, "verbs.loaded", 0)) {
		f = finding_add(n->out, SEV_WARN, "net.rdma.verbs",
				"RDMA ports are active (%s) but libibverbs does not load: NCCL silently uses TCP sockets",
				names.buf);
		finding_evidence(f, "rdma.verbs.error: %s", nz(jpath_str(rdma, "verbs.error")));
		finding_fix(f, "apt-get install ibverbs-providers libibverbs1   # or your distribution's rdma-core");
		goto out;
	}
	/*
	 * libibverbs itself loads, but lists no device although /sys has them: the per-vendor
	 * provider (libmlx5, …) is missing, a common container mistake; NCCL then says
	 * "NET/IB : No device found" and falls back to sockets.
	 */
	if (json_is_array(jpath(rdma, "verbs.devices")) && !json_array_size(jpath(rdma, "verbs.devices"))) {
		f = finding_add(n->out, SEV_WARN, "net.rdma.providers",
				"RDMA ports are active (%s) but libibverbs lists no device: its provider "
				"library is missing, so NCCL silently uses TCP sockets", names.buf);
		finding_evidence(f, "rdma.verbs.path: %s; rdma.verbs.devices: []",
				 nz(jpath_str(rdma, "verbs.path")));
		finding_fix(f, "apt-get install ibverbs-providers   # libmlx5 and the other providers (rdma-core)");
		finding_fix(f, "ibv_devices   # must list the devices /sys/class/infiniband shows");
		goto out;
	}
	if (json_is_object(jpath(rdma, "peermem")) && !jpath_bool(rdma, "peermem.loaded", 0)) {
		f = finding_add(n->out, SEV_INFO, "net.rdma.peermem",
				"RDMA is active (%s) but nvidia_peermem is not loaded", names.buf);
		finding_why(f, "Without it (or DMA-BUF support: kernel 5.12+, open GPU kernel modules) NCCL "
			    "stages GPU data through host memory instead of GPUDirect RDMA: correct but slower.");
		finding_fix(f, "modprobe nvidia_peermem");
	}
out:
	strbuf_release(&names);
}

void rule_net(const json_t *facts, struct findings *out)
{
	struct net n;
	const char *resolved;

	memset(&n, 0, sizeof(n));
	n.facts = facts;
	n.out = out;
	if (ifs_from_facts(facts, &n.in) < 0) {
		ifs_facts_release(&n.in);
		return;
	}
	ifs_predict(&n.in.in, &n.r);
	n.master = jpath(facts, "net.master");
	n.master_if = jpath_str(n.master, "source_ifname");
	resolved = jpath_str(n.master, "resolved");
	if (resolved) {
		unsigned char b[16];
		if ((inet_pton(AF_INET, resolved, b) == 1 && b[0] == 127) || !strcmp(resolved, "::1"))
			n.master_loopback = 1;
	}
	if (n.master_if && !strncmp(n.master_if, "lo", 2))
		n.master_loopback = 1;

	report_prediction(&n);
	report_ifname(&n);
	report_comm_id(&n);
	report_master(&n);
	report_public(&n);
	report_ports(&n);
	report_firewall(&n);
	report_limits(&n);
	report_bufs(&n);
	report_hostname(&n);
	report_rdma(&n);
	ifs_facts_release(&n.in);
}
