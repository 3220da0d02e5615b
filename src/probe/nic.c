/*
 * Network facts: getifaddrs() in its own order (the order NCCL walks), per-interface sysfs
 * attributes, the default route, the kernel's route to MASTER_ADDR (a connected UDP socket and
 * getsockname, so the kernel's own choice, policy routing included), what the host name and
 * NCCL_COMM_ID resolve to. Name lookups run in a forked child with a deadline: a dead DNS server
 * must not hang the tool.
 */
#include "probe/nic.h"
#include "probe/probe.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "launch/vars.h"
#include "util/addr.h"
#include "util/err.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/xalloc.h"

#define LOOKUP_TIMEOUT_MS 3000
#define MASTER_PORT_DEFAULT 29500	/* torchrun's */

/* ---- pure helpers (nic.h) ---- */

static int starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

const char *nic_kind(const struct nic_traits *t)
{
	const char *drv = t->driver ? t->driver : "";

	if (t->arphrd == 772 || (t->name && !strcmp(t->name, "lo")))
		return "loopback";
	if (t->arphrd == 32)
		return "ib";
	if (t->is_bond || !strcmp(drv, "bonding"))
		return "bond";
	if (t->is_bridge || !strcmp(drv, "bridge"))
		return starts_with(t->name, "docker") || starts_with(t->name, "br-") ? "docker" : "bridge";
	if (!strcmp(drv, "veth"))
		return "veth";
	if (t->is_tun || t->arphrd == 65534 || !strcmp(drv, "tun"))
		return "tun";
	if (t->is_vlan || !strcmp(drv, "802.1Q VLAN Support") || !strcmp(drv, "8021q"))
		return "vlan";
	if (t->has_device)
		return "physical";
	if (starts_with(t->name, "docker"))
		return "docker";
	return "other";
}

const char *nic_addr_class(int family, const unsigned char *a)
{
	return addr_class_name(addr_classify(family, a));
}

/* Copies the next line of [p, end) into buf (cut to fit); returns the start of the line after. */
static const char *next_line(const char *p, const char *end, char *buf, size_t len)
{
	size_t n = 0;

	while (p < end && *p != '\n') {
		if (n + 1 < len)
			buf[n++] = *p;
		p++;
	}
	buf[n] = '\0';
	return p < end ? p + 1 : p;
}

int nic_parse_route4(const char *text, size_t len, struct nic_route *out)
{
	const char *p = text, *end = text + len;
	char line[512];
	int found = 0;

	p = next_line(p, end, line, sizeof(line));	/* header */
	while (p < end) {
		char ifname[32];
		unsigned long dest, gw, flags, mask;
		long metric;

		p = next_line(p, end, line, sizeof(line));
		if (sscanf(line, "%31s %lx %lx %lx %*s %*s %ld %lx", ifname, &dest, &gw, &flags, &metric,
			   &mask) != 6)
			continue;
		if (dest != 0 || mask != 0 || !(flags & 0x1) /* RTF_UP */)
			continue;
		if (found && metric >= out->metric)
			continue;
		snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
		out->metric = metric;
		out->gateway[0] = '\0';
		if (flags & 0x2) { /* RTF_GATEWAY: the value is the raw in_addr, printed in host order */
			struct in_addr ia;
			ia.s_addr = (in_addr_t)gw;
			inet_ntop(AF_INET, &ia, out->gateway, sizeof(out->gateway));
		}
		found = 1;
	}
	return found;
}

static int hex16(const char *s, unsigned char *out)
{
	for (int i = 0; i < 16; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (unsigned char)v;
	}
	return 0;
}

int nic_parse_route6(const char *text, size_t len, struct nic_route *out)
{
	const char *p = text, *end = text + len;
	char line[512];
	int found = 0;

	while (p < end) {
		char dest[33], nh[33], ifname[32];
		unsigned plen;
		unsigned long metric, flags;
		unsigned char gw[16];
		static const unsigned char zero[16];

		p = next_line(p, end, line, sizeof(line));
		if (sscanf(line, "%32s %x %*s %*s %32s %lx %*s %*s %lx %31s", dest, &plen, nh, &metric, &flags,
			   ifname) != 6)
			continue;
		if (strspn(dest, "0") != 32 || plen != 0 || strlen(nh) != 32 || hex16(nh, gw) < 0)
			continue;
		/* RTF_UP, and not the kernel's unreachable placeholder (RTF_REJECT) on lo */
		if (!(flags & 0x1) || (flags & 0x200))
			continue;
		if (found && (long)metric >= out->metric)
			continue;
		snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
		out->metric = (long)metric;
		out->gateway[0] = '\0';
		if (memcmp(gw, zero, 16))
			inet_ntop(AF_INET6, gw, out->gateway, sizeof(out->gateway));
		found = 1;
	}
	return found;
}

/* ---- getifaddrs ---- */

static int prefixlen_of(const struct sockaddr *mask)
{
	const unsigned char *b;
	int n = 0, len;

	if (!mask)
		return -1;
	if (mask->sa_family == AF_INET) {
		b = (const unsigned char *)&((const struct sockaddr_in *)mask)->sin_addr;
		len = 4;
	} else if (mask->sa_family == AF_INET6) {
		b = ((const struct sockaddr_in6 *)mask)->sin6_addr.s6_addr;
		len = 16;
	} else {
		return -1;
	}
	for (int i = 0; i < len; i++)
		for (int bit = 7; bit >= 0; bit--) {
			if (!(b[i] & (1u << bit)))
				return n;
			n++;
		}
	return n;
}

static const unsigned char *sa_bytes(const struct sockaddr *sa, int *family)
{
	if (sa->sa_family == AF_INET) {
		*family = 4;
		return (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
	}
	*family = 6;
	return ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
}

/* Addresses in getifaddrs order, and the flags of every interface (AF_PACKET entries included). */
static void probe_ifaddrs(json_t *net, json_t *flags_by_name)
{
	struct ifaddrs *ifa, *i;
	json_t *list;

	if (getifaddrs(&ifa) < 0) {
		jset_unknown(net, "ifaddrs", "getifaddrs() failed: %s", err_errno_text(errno));
		return;
	}
	list = json_array();
	for (i = ifa; i; i = i->ifa_next) {
		json_t *e, *fl;
		char text[INET6_ADDRSTRLEN];
		const unsigned char *b;
		int fam;

		if (!i->ifa_name)
			continue;
		if (!json_object_get(flags_by_name, i->ifa_name))
			json_object_set_new(flags_by_name, i->ifa_name, json_integer(i->ifa_flags));
		if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
			continue;
		b = sa_bytes(i->ifa_addr, &fam);
		inet_ntop(fam == 4 ? AF_INET : AF_INET6, b, text, sizeof(text));
		e = json_object();
		jset_str(e, "ifname", i->ifa_name);
		jset_int(e, "family", fam);
		jset_str(e, "addr", text);
		jset_int(e, "prefixlen", prefixlen_of(i->ifa_netmask));
		if (fam == 6)
			jset_int(e, "scope_id", ((const struct sockaddr_in6 *)i->ifa_addr)->sin6_scope_id);
		jset_int(e, "index", if_nametoindex(i->ifa_name));
		fl = json_object();
		jset_bool(fl, "up", !!(i->ifa_flags & IFF_UP));
		jset_bool(fl, "running", !!(i->ifa_flags & IFF_RUNNING));
		jset_bool(fl, "loopback", !!(i->ifa_flags & IFF_LOOPBACK));
		json_object_set_new(e, "flags", fl);
		jset_str(e, "class", nic_addr_class(fam, b));
		json_array_append_new(list, e);
	}
	freeifaddrs(ifa);
	json_object_set_new(net, "ifaddrs", list);
}

/* ---- /sys/class/net ---- */

/* The basename a sysfs link points at ("ixgbe" for device/driver), or -1. */
static int link_base(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *slash;

	if (n < 0)
		return -1;
	target[n] = '\0';
	slash = strrchr(target, '/');
	snprintf(buf, len, "%.*s", (int)len - 1, slash ? slash + 1 : target);
	return 0;
}

/* The kernel driver behind a virtual interface (veth, bridge, tun...), which sysfs does not name. */
static int ethtool_driver(const char *ifname, char *buf, size_t len)
{
	struct ethtool_drvinfo info;
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	memset(&ifr, 0, sizeof(ifr));
	info.cmd = ETHTOOL_GDRVINFO;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)&info;
	rc = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	if (rc < 0 || !info.driver[0])
		return -1;
	snprintf(buf, len, "%.*s", (int)sizeof(info.driver), info.driver);
	return 0;
}

static long read_long_at(const char *dir, const char *name, long def)
{
	char *p = path_join(dir, name);
	long v;
	int rc = file_read_long(p, &v);

	free(p);
	return rc < 0 ? def : v;
}

static int exists_at(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	int rc = file_exists(p);

	free(p);
	return rc;
}

static int cmp_index(const void *a, const void *b)
{
	long x = jpath_int(*(json_t *const *)a, "index", 0), y = jpath_int(*(json_t *const *)b, "index", 0);
	return (x > y) - (x < y);
}

static json_t *interface_facts(const struct probe_ctx *ctx, const char *dir, const char *name,
			       const json_t *ifaddrs, const json_t *flags_by_name)
{
	json_t *it = json_object(), *addrs = json_array(), *e, *fl = json_object_get(flags_by_name, name);
	struct nic_traits t;
	char drv[64] = "", pci[64] = "", buf[64], *p;
	long speed, flags;
	size_t i;

	memset(&t, 0, sizeof(t));
	t.name = name;
	t.arphrd = (int)read_long_at(dir, "type", 1);
	p = path_join(dir, "device");
	t.has_device = file_exists(p);
	free(p);
	p = path_join(dir, "device/driver");
	if (link_base(p, drv, sizeof(drv)) < 0 && !strcmp(ctx->root_sys, "/"))
		ethtool_driver(name, drv, sizeof(drv));
	free(p);
	t.driver = drv[0] ? drv : NULL;
	t.is_bridge = exists_at(dir, "bridge");
	t.is_bond = exists_at(dir, "bonding");
	t.is_tun = exists_at(dir, "tun_flags");

	jset_str(it, "name", name);
	jset_int(it, "index", read_long_at(dir, "ifindex", 0));
	/* IFF_RUNNING is not in sysfs `flags`: take getifaddrs' flags when this is the live system */
	flags = fl ? (long)json_integer_value(fl) : read_long_at(dir, "flags", 0);
	jset_bool(it, "up", !!(flags & IFF_UP));
	if (fl)
		jset_bool(it, "running", !!(flags & IFF_RUNNING));
	else
		jset_bool(it, "running", (flags & IFF_UP) && read_long_at(dir, "carrier", 0) == 1);
	p = path_join(dir, "operstate");
	if (file_read_line(p, buf, sizeof(buf)) == 0)
		jset_str(it, "operstate", buf);
	free(p);
	jset_int(it, "mtu", read_long_at(dir, "mtu", -1));
	/* virtual NICs answer EINVAL or -1; NCCL then assumes 10 Gb/s */
	speed = read_long_at(dir, "speed", -1);
	if (speed > 0)
		jset_int(it, "speed_mbps", speed);
	else
		json_object_set_new(it, "speed_mbps", json_null());
	jset_str(it, "driver", t.driver);
	jset_str(it, "kind", nic_kind(&t));
	jset_bool(it, "virtual", !t.has_device);
	p = path_join(dir, "device");
	{
		char real[PATH_MAX];
		if (t.has_device && realpath(p, real)) {
			const char *slash = strrchr(real, '/');
			snprintf(pci, sizeof(pci), "%.63s", slash ? slash + 1 : real);
		}
	}
	free(p);
	jset_str(it, "pci", pci[0] ? pci : NULL);
	p = path_join(dir, "device/vendor");
	if (file_read_line(p, buf, sizeof(buf)) == 0)
		jset_str(it, "vendor", buf);
	free(p);

	json_array_foreach(ifaddrs, i, e) {
		json_t *a;
		const char *n = jpath_str(e, "ifname");

		if (!n || strcmp(n, name))
			continue;
		a = json_object();
		jset_str(a, "addr", jpath_str(e, "addr"));
		jset_int(a, "prefixlen", jpath_int(e, "prefixlen", -1));
		jset_int(a, "family", jpath_int(e, "family", 0));
		jset_str(a, "class", jpath_str(e, "class"));
		json_array_append_new(addrs, a);
	}
	json_object_set_new(it, "addrs", addrs);
	return it;
}

static void probe_interfaces(const struct probe_ctx *ctx, json_t *net, const json_t *flags_by_name)
{
	char *root = probe_sys_path(ctx, "class/net");
	const json_t *ifaddrs = json_object_get(net, "ifaddrs");
	json_t **items = NULL, *list;
	size_t n = 0, alloc = 0;
	struct dirent *d;
	DIR *dir = opendir(root);

	if (!dir) {
		jset_unknown(net, "interfaces", "cannot list '%s': %s", root, err_errno_text(errno));
		free(root);
		return;
	}
	while ((d = readdir(dir)) != NULL) {
		char *p;

		if (d->d_name[0] == '.' || strlen(d->d_name) >= IFNAMSIZ)
			continue;
		p = path_join(root, d->d_name);
		ALLOC_GROW(items, n + 1, alloc);
		items[n++] = interface_facts(ctx, p, d->d_name, ifaddrs, flags_by_name);
		free(p);
	}
	closedir(dir);
	free(root);
	qsort(items, n, sizeof(*items), cmp_index);
	list = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, items[i]);
	free(items);
	json_object_set_new(net, "interfaces", list);
}

static void probe_default_route(const struct probe_ctx *ctx, json_t *net)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct nic_route r;
	json_t *dr = json_object();
	char *p = probe_proc_path(ctx, "net/route");

	memset(&r, 0, sizeof(r));
	jset_str(dr, "source", p);
	if (file_read(p, &sb, 1 << 20, &e) < 0) {
		free(p);
		strbuf_release(&sb);
		json_decref(dr);
		jset_unknown(net, "default_route", "%s", e.msg);
		return;
	}
	free(p);
	if (nic_parse_route4(sb.buf, sb.len, &r)) {
		jset_bool(dr, "present", 1);
		jset_str(dr, "ifname", r.ifname);
		jset_str(dr, "gateway", r.gateway[0] ? r.gateway : NULL);
	} else {
		jset_bool(dr, "present", 0);
	}
	strbuf_reset(&sb);
	p = probe_proc_path(ctx, "net/ipv6_route");
	if (file_read(p, &sb, 4 << 20, &e) == 0 && nic_parse_route6(sb.buf, sb.len, &r)) {
		json_t *v6 = json_object();
		jset_str(v6, "ifname", r.ifname);
		jset_str(v6, "gateway", r.gateway[0] ? r.gateway : NULL);
		json_object_set_new(dr, "ipv6", v6);
	}
	free(p);
	strbuf_release(&sb);
	json_object_set_new(net, "default_route", dr);
}

/* ---- name lookups, in a child ---- */

struct lookup {
	const char *host;
};

/* Child side: the addresses getaddrinfo() gives, one per line, in its order. */
static int lookup_child(void *arg, int fd)
{
	const struct lookup *l = arg;
	struct addrinfo hints, *res, *ai;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(l->host, NULL, &hints, &res);
	if (rc) {
		dprintf(fd, "!%s\n", err_gai_text(rc));
		return 1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		char text[INET6_ADDRSTRLEN];
		int fam;
		const unsigned char *b;

		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		b = sa_bytes(ai->ai_addr, &fam);
		inet_ntop(ai->ai_family, b, text, sizeof(text));
		dprintf(fd, "%s\n", text);
	}
	freeaddrinfo(res);
	return 0;
}

/* Fills `addrs` (unique, in order); returns 0, or -1 with the reason in `why`. */
static int lookup(const char *host, json_t *addrs, char *why, size_t len)
{
	struct subproc_result r;
	struct err e = ERR_INIT;
	struct lookup l = { host };
	char *line, *save = NULL;
	int rc = -1;

	subproc_result_init(&r);
	if (subproc_fork(lookup_child, &l, LOOKUP_TIMEOUT_MS, 64 << 10, &r, &e) < 0) {
		snprintf(why, len, "cannot start the lookup: %.200s", e.msg);
		goto out;
	}
	if (r.timed_out) {
		snprintf(why, len, "looking up '%s' took more than %d s (DNS not answering?)", host,
			 LOOKUP_TIMEOUT_MS / 1000);
		goto out;
	}
	for (line = strtok_r(r.out.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t i;
		json_t *v;
		int dup = 0;

		if (line[0] == '!') {
			snprintf(why, len, "cannot resolve '%s': %s", host, line + 1);
			goto out;
		}
		json_array_foreach(addrs, i, v)
			if (!strcmp(json_string_value(v), line))
				dup = 1;
		if (!dup)
			json_array_append_new(addrs, json_string(line));
	}
	if (!json_array_size(addrs)) {
		snprintf(why, len, "'%s' resolves to no IPv4 or IPv6 address", host);
		goto out;
	}
	rc = 0;
out:
	subproc_result_release(&r);
	return rc;
}

static int any_loopback(const json_t *addrs)
{
	size_t i;
	json_t *v;

	json_array_foreach(addrs, i, v) {
		unsigned char b[16];
		const char *s = json_string_value(v);

		if (inet_pton(AF_INET, s, b) == 1 && b[0] == 127)
			return 1;
		if (inet_pton(AF_INET6, s, b) == 1 && !strcmp(nic_addr_class(6, b), "loopback"))
			return 1;
	}
	return 0;
}

static void probe_hostname(json_t *facts)
{
	json_t *hr = json_object(), *addrs = json_array();
	char name[256], why[256];

	if (gethostname(name, sizeof(name)) < 0) {
		json_decref(addrs);
		json_decref(hr);
		jset_unknown(facts, "hostname_resolution", "gethostname() failed: %s", err_errno_text(errno));
		return;
	}
	name[sizeof(name) - 1] = '\0';
	jset_str(hr, "name", name);
	if (lookup(name, addrs, why, sizeof(why)) < 0) {
		json_decref(addrs);
		jset_unknown(hr, "addrs", "%s", why);
	} else {
		jset_bool(hr, "loopback", any_loopback(addrs));
		json_object_set_new(hr, "addrs", addrs);
	}
	json_object_set_new(facts, "hostname_resolution", hr);
}

/* The interface that owns `addr` in the live getifaddrs list, or NULL. */
static const char *owner_of(const json_t *ifaddrs, const char *addr)
{
	size_t i;
	json_t *e;

	json_array_foreach(ifaddrs, i, e) {
		const char *a = jpath_str(e, "addr");
		if (a && !strcmp(a, addr))
			return jpath_str(e, "ifname");
	}
	return NULL;
}

/* The source address the kernel picks for `addr`: connect(2) a UDP socket, no packet is sent. */
static int route_source(const char *addr, long port, char *src, size_t len, char *why, size_t wlen)
{
	struct sockaddr_storage ss, local;
	socklen_t sl = sizeof(local);
	int fam, fd, rc;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		fam = AF_INET;
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
	} else if (inet_pton(AF_INET6, addr, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		fam = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
	} else {
		snprintf(why, wlen, "'%s' is not an address", addr);
		return -1;
	}
	fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, wlen, "socket() failed: %s", err_errno_text(errno));
		return -1;
	}
	rc = connect(fd, (struct sockaddr *)&ss, fam == AF_INET ? sizeof(struct sockaddr_in)
							     : sizeof(struct sockaddr_in6));
	if (rc < 0) {
		snprintf(why, wlen, "no route to %s: %s", addr, err_errno_text(errno));
		close(fd);
		return -1;
	}
	if (getsockname(fd, (struct sockaddr *)&local, &sl) < 0) {
		snprintf(why, wlen, "getsockname() failed: %s", err_errno_text(errno));
		close(fd);
		return -1;
	}
	close(fd);
	inet_ntop(fam, fam == AF_INET ? (const void *)&((struct sockaddr_in *)&local)->sin_addr
				      : (const void *)&((struct sockaddr_in6 *)&local)->sin6_addr, src, len);
	return 0;
}

static void probe_master(const struct probe_ctx *ctx, json_t *net)
{
	const char *addr = ctx->master_addr, *from = "--master-addr";
	const char *port_env = probe_ctx_env(ctx, lv_name(LV_MASTER_PORT));
	json_t *m = json_object(), *addrs = json_array();
	const json_t *ifaddrs = json_object_get(net, "ifaddrs");
	char why[256], src[INET6_ADDRSTRLEN];
	const char *first, *owner;
	long port = MASTER_PORT_DEFAULT;

	if (!addr || !*addr) {
		addr = probe_ctx_env(ctx, lv_name(LV_MASTER_ADDR));
		from = lv_name(LV_MASTER_ADDR);
	}
	if (!addr || !*addr) {
		jset_bool(m, "set", 0);
		json_decref(addrs);
		json_object_set_new(net, "master", m);
		return;
	}
	jset_bool(m, "set", 1);
	jset_str(m, "addr", addr);
	jset_str(m, "from", from);
	if (port_env && *port_env) {
		char *end;
		long v = strtol(port_env, &end, 10);
		if (!*end && v > 0 && v < 65536)
			port = v;
	}
	jset_int(m, "port", port);
	if (lookup(addr, addrs, why, sizeof(why)) < 0) {
		json_decref(addrs);
		jset_unknown(m, "resolved", "%s", why);
		json_object_set_new(net, "master", m);
		return;
	}
	first = json_string_value(json_array_get(addrs, 0));
	jset_str(m, "resolved", first);
	json_object_set_new(m, "resolved_all", addrs);
	owner = json_is_array(ifaddrs) ? owner_of(ifaddrs, first) : NULL;
	jset_bool(m, "local", owner != NULL);
	if (route_source(first, port, src, sizeof(src), why, sizeof(why)) < 0) {
		jset_unknown(m, "source_addr", "%s", why);
	} else {
		const char *ifn = json_is_array(ifaddrs) ? owner_of(ifaddrs, src) : NULL;
		jset_str(m, "source_addr", src);
		/* MASTER_ADDR on this node: the kernel routes through lo, NCCL sees the owning NIC */
		jset_str(m, "source_ifname", owner ? owner : ifn);
	}
	json_object_set_new(net, "master", m);
}

/* NCCL_COMM_ID's host part, looked up as NCCL does (first getaddrinfo answer). */
static void probe_comm_id(const struct probe_ctx *ctx, json_t *net)
{
	const char *v = probe_ctx_env(ctx, "NCCL_COMM_ID");
	json_t *c, *addrs;
	char host[256], why[256];
	size_t n;

	if (!v || strlen(v) <= 1 || v[0] == '[')
		return;
	c = json_object();
	jset_str(c, "value", v);
	n = strcspn(v, ":,");
	if (!n || n >= sizeof(host)) {
		json_object_set_new(net, "comm_id", c);
		return;
	}
	memcpy(host, v, n);
	host[n] = '\0';
	jset_str(c, "host", host);
	addrs = json_array();
	if (lookup(host, addrs, why, sizeof(why)) < 0)
		jset_unknown(c, "resolved", "%s", why);
	else
		jset_str(c, "resolved", json_string_value(json_array_get(addrs, 0)));
	json_decref(addrs);
	json_object_set_new(net, "comm_id", c);
}

void probe_nic(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *net = jobj_child(facts, "net"), *flags_by_name = json_object();

	probe_ifaddrs(net, flags_by_name);
	/* a fixture /sys stands for another machine: its flags, not this one's */
	probe_interfaces(ctx, net, strcmp(ctx->root_sys, "/") ? NULL : flags_by_name);
	json_decref(flags_by_name);
	probe_default_route(ctx, net);
	probe_master(ctx, net);
	probe_comm_id(ctx, net);
	if (ctx->assume_nccl)
		jset_str(net, "assume_nccl", ctx->assume_nccl);
	probe_hostname(facts);
}
