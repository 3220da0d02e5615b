/*
 * ifselect: see ifselect.h. Each function names the NCCL function it mirrors; where NCCL's
 * behaviour changed between releases the version test says when (checked against the tags
 * v2.18.5 .. v2.30.7 of github.com/NVIDIA/nccl).
 */
#include "model/ifselect.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "model/nccl_vars.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/xalloc.h"

/* parseStringList(): split on ',', then "prefix[:port...]"; empty entries and empty prefixes vanish. */
static void parse_list(const char *s, int max, struct ifs_spec *out)
{
	const char *p = s;

	while (*p) {
		size_t elen = strcspn(p, ",");
		size_t plen = strcspn(p, ":,");

		if (plen > 0) {
			out->entries++;
			if (plen >= IFS_PREFIX_MAX)
				out->long_prefix = 1;
			for (size_t i = 0; i < plen; i++)
				if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')
					out->with_space = 1;
			if (plen < elen)
				out->with_port = 1;
			if (out->n < max) {
				struct ifs_token *t = &out->tok[out->n++];
				size_t keep = plen < IFS_PREFIX_MAX ? plen : IFS_PREFIX_MAX - 1;

				memcpy(t->prefix, p, keep);
				t->prefix[keep] = '\0';
				t->port = plen < elen ? atoi(p + plen + 1) : -1;
			}
		}
		p += elen;
		if (*p == ',')
			p++;
	}
}

void ifs_spec_parse(const char *s, int exact_supported, struct ifs_spec *out)
{
	memset(out, 0, sizeof(*out));
	if (!s)
		return;
	if (*s == '^') {
		out->exclude = 1;
		s++;
	}
	if (exact_supported && *s == '=') {
		out->exact = 1;
		s++;
	}
	parse_list(s, IFS_MAX_IFS, out);
}

/* matchIf(): a prefix compare, or with '=' the whole name. */
static int match_one(const char *name, const char *ref, int exact)
{
	if (exact)
		return !strcmp(name, ref);
	return !strncmp(name, ref, strlen(ref));
}

int ifs_spec_names(const struct ifs_spec *spec, const char *name)
{
	for (int i = 0; i < spec->n; i++)
		if (match_one(name, spec->tok[i].prefix, spec->exact))
			return 1;
	return 0;
}

int ifs_spec_selects(const struct ifs_spec *spec, const char *name)
{
	/* matchIfList(): an empty list matches everything, so "^" with nothing after matches nothing */
	return (spec->n == 0 || ifs_spec_names(spec, name)) ^ spec->exclude;
}

/* The behaviour switches, by release. */
struct ifs_beh {
	int running_filter;	/* IFF_RUNNING checked: 2.28.3 */
	int virbr;		/* "^docker,lo,virbr" then "virbr" last: 2.28.3 */
	int exact;		/* searchExact: 2.5.6 */
	int commid_fatal;	/* NCCLCHECK on the COMM_ID parse inside ncclFindInterfaces: 2.27.3 */
};

static void behaviour(const struct version *v, struct ifs_beh *b)
{
	struct version v228, v256, v227;

	version_parse("2.28", &v228);
	version_parse("2.5.6", &v256);
	version_parse("2.27", &v227);
	b->running_filter = version_cmp(v, &v228) >= 0;
	b->virbr = b->running_filter;
	b->exact = version_cmp(v, &v256) >= 0;
	b->commid_fatal = version_cmp(v, &v227) >= 0;
}

/* findInterfaces() / ncclOsFindInterfaces(): one pass over getifaddrs in its order. */
static void scan(const struct ifs_input *in, const struct ifs_beh *b, const char *list, int family,
		 int max, enum ifs_rule rule, struct ifs_list *out)
{
	struct ifs_spec spec;

	ifs_spec_parse(list, b->exact, &spec);
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < in->naddrs && out->n < max; i++) {
		const struct ifs_addr *a = &in->addrs[i];
		int dup = 0;
		static const unsigned char v6_loopback[16] = { [15] = 1 };

		if (!a->name || (a->family != 4 && a->family != 6))
			continue;
		if (b->running_filter && !a->running)
			continue;
		if (family != -1 && a->family != family)
			continue;
		if (a->family == 6 && !memcmp(a->addr, v6_loopback, 16))
			continue;
		if (!ifs_spec_selects(&spec, a->name))
			continue;
		for (int j = 0; j < out->n; j++)
			if (!strcmp(out->v[j]->name, a->name))
				dup = 1;
		if (!dup)
			out->v[out->n++] = a;
	}
	if (out->n) {
		out->rule = rule;
		out->spec = list;
	}
}

/* matchSubnet(): same family, same masked bits, and for IPv6 the same scope id. */
static int match_subnet(const struct ifs_addr *l, const struct ifs_commid *r)
{
	int bytes = l->family == 4 ? 4 : 16;

	if (l->family != r->family || l->prefixlen < 0 || l->prefixlen > bytes * 8)
		return 0;
	for (int i = 0; i < bytes; i++) {
		int bits = l->prefixlen - i * 8;
		unsigned char mask = bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));

		if ((l->addr[i] & mask) != (r->addr[i] & mask))
			return 0;
	}
	return l->family == 4 || l->scope_id == r->scope_id;
}

/* ncclFindInterfaceMatchSubnet(): the first entry in the subnet; no running/family/name filter. */
static const struct ifs_addr *subnet_match(const struct ifs_input *in, const struct ifs_commid *c)
{
	if (!c->have_addr)
		return NULL;
	for (size_t i = 0; i < in->naddrs; i++)
		if (in->addrs[i].name && match_subnet(&in->addrs[i], c))
			return &in->addrs[i];
	return NULL;
}

static int addr_from_text(const char *text, int *family, unsigned char *addr)
{
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, text, addr) == 1) {
		*family = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, text, addr) == 1) {
		*family = 6;
		return 0;
	}
	return -1;
}

/* ncclSocketGetAddrFromString(). */
void ifs_commid_parse(const char *s, const char *resolved, const struct ifs_addr *addrs, size_t n,
		      struct ifs_commid *out)
{
	memset(out, 0, sizeof(*out));
	out->port = -1;
	if (!s || strlen(s) <= 1) {
		out->error = "Net : string is null";
		return;
	}
	if (s[0] != '[') {
		struct ifs_spec one;

		memset(&one, 0, sizeof(one));
		parse_list(s, 1, &one);
		if (one.n != 1) {
			out->error = "Net : No valid <IPv4_or_hostname>:<port> pair found";
			return;
		}
		snprintf(out->host, sizeof(out->host), "%s", one.tok[0].prefix);
		out->port = one.tok[0].port;
		out->valid = 1;
		/* getaddrinfo(AF_UNSPEC): the probe's answer when it looked the host up, else a literal */
		if ((resolved && !addr_from_text(resolved, &out->family, out->addr)) ||
		    !addr_from_text(out->host, &out->family, out->addr))
			out->have_addr = 1;
		else
			out->needs_lookup = 1;
		return;
	}
	/* "[addr]:port" or "[addr%ifname]:port" */
	{
		size_t len = strlen(s), i, j = 0;
		char ip[64];

		for (i = 1; i < len; i++) {
			if (s[i] == '%')
				j = i;
			if (s[i] == ']')
				break;
		}
		if (i == len) {
			out->error = "Net : No valid [IPv6]:port pair found";
			return;
		}
		out->bracket = 1;
		out->valid = 1;
		snprintf(ip, sizeof(ip), "%.*s", (int)((j ? j : i) - 1), s + 1);
		out->port = i + 2 <= len ? atoi(s + i + 2) : 0;
		if (j)
			snprintf(out->scope_ifname, sizeof(out->scope_ifname), "%.*s", (int)(i - j - 1),
				 s + j + 1);
		/* NCCL does not check inet_pton here: a bad address leaves garbage, which matches nothing */
		if (inet_pton(AF_INET6, ip, out->addr) == 1) {
			out->family = 6;
			out->have_addr = 1;
		}
		if (j) {
			/* if_nametoindex(): 0 for a name this node does not have */
			for (size_t k = 0; k < n; k++) {
				if (addrs[k].name && !strcmp(addrs[k].name, out->scope_ifname)) {
					out->scope_id = addrs[k].ifindex ? addrs[k].ifindex
									 : addrs[k].scope_id;
					if (out->scope_id)
						break;
				}
			}
		}
	}
}

const char *ifs_rule_describe(enum ifs_rule r)
{
	switch (r) {
	case IFS_RULE_USER: return "NCCL_SOCKET_IFNAME";
	case IFS_RULE_IB: return N_("NCCL's first automatic pass, names starting with 'ib' (IPoIB wins)");
	case IFS_RULE_COMMID: return N_("the subnet of NCCL_COMM_ID");
	case IFS_RULE_AUTO: return N_("NCCL's automatic pass, every interface but docker*, lo* (and virbr* from 2.28)");
	case IFS_RULE_DOCKER: return N_("NCCL's fallback to docker*, as nothing else was usable");
	case IFS_RULE_LO: return N_("NCCL's fallback to lo*, as nothing else was usable");
	case IFS_RULE_VIRBR: return N_("NCCL's last fallback to virbr*, as nothing else was usable");
	case IFS_RULE_BOOT_COMMID: return N_("NCCL_COMM_ID, whose subnet alone decides bootstrap");
	case IFS_RULE_NONE: break;
	}
	return "nothing";
}

/* ncclFindInterfaces(maxIfs). Returns the status; `list` holds what was found. */
static enum ifs_status find_interfaces(const struct ifs_input *in, const struct ifs_beh *b,
				       struct ifs_result *r, int max, struct ifs_list *list)
{
	memset(list, 0, sizeof(*list));
	if (r->ifname_set && !r->ifname_ignored) {
		scan(in, b, in->socket_ifname, r->family, max, IFS_RULE_USER, list);
		return list->n ? IFS_OK : IFS_NONE;
	}
	scan(in, b, "ib", r->family, max, IFS_RULE_IB, list);
	if (!list->n && in->comm_id && strlen(in->comm_id) > 1) {
		if (!r->commid.valid && b->commid_fatal)
			return IFS_BAD_COMMID;
		if (r->commid.needs_lookup)
			return IFS_UNRESOLVED;
		{
			const struct ifs_addr *m = subnet_match(in, &r->commid);
			if (m) {
				list->v[list->n++] = m;
				list->rule = IFS_RULE_COMMID;
				list->spec = in->comm_id;
			}
		}
	}
	if (!list->n)
		scan(in, b, b->virbr ? "^docker,lo,virbr" : "^docker,lo", r->family, max, IFS_RULE_AUTO,
		     list);
	if (!list->n)
		scan(in, b, "docker", r->family, max, IFS_RULE_DOCKER, list);
	if (!list->n)
		scan(in, b, "lo", r->family, max, IFS_RULE_LO, list);
	if (!list->n && b->virbr)
		scan(in, b, "virbr", r->family, max, IFS_RULE_VIRBR, list);
	return list->n ? IFS_OK : IFS_NONE;
}

void ifs_predict(const struct ifs_input *in, struct ifs_result *r)
{
	struct ifs_beh b;
	struct ifs_list one;

	memset(r, 0, sizeof(*r));
	behaviour(&in->nccl, &b);
	r->running_filter = b.running_filter;
	r->virbr_last = b.virbr;
	r->exact_supported = b.exact;

	/* ncclEnvSocketFamily(): exact, case-sensitive strings; anything else means "no filter" */
	r->family = -1;
	if (in->socket_family) {
		if (!strcmp(in->socket_family, "AF_INET"))
			r->family = 4;
		else if (!strcmp(in->socket_family, "AF_INET6"))
			r->family = 6;
		else
			r->family_ignored = 1;
	}
	r->ifname_set = in->socket_ifname != NULL;
	r->ifname_ignored = r->ifname_set && strlen(in->socket_ifname) <= 1;
	if (r->ifname_set && !r->ifname_ignored)
		ifs_spec_parse(in->socket_ifname, b.exact, &r->spec);
	r->commid_set = in->comm_id != NULL;
	if (r->commid_set)
		ifs_commid_parse(in->comm_id, in->comm_id_resolved, in->addrs, in->naddrs, &r->commid);

	/* NET/Socket (and IB's OOB interface): ncclFindInterfaces(16) */
	r->socket_status = find_interfaces(in, &b, r, IFS_MAX_IFS, &r->sockets);

	/* bootstrapNetInit(): NCCL_COMM_ID, when set at all, decides alone */
	if (r->commid_set) {
		r->boot_rule = IFS_RULE_BOOT_COMMID;
		if (!r->commid.valid) {
			r->boot_status = IFS_BAD_COMMID;
			r->boot_warn = "Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or "
				       "[<ipv6>]:<port> or <hostname>:<port>";
		} else if (r->commid.needs_lookup) {
			r->boot_status = IFS_UNRESOLVED;
		} else if ((r->boot = subnet_match(in, &r->commid)) != NULL) {
			r->boot_status = IFS_OK;
		} else {
			r->boot_status = IFS_NONE;
			r->boot_warn = "NET/Socket : No usable listening interface found";
		}
		return;
	}
	r->boot_status = find_interfaces(in, &b, r, 1, &one);
	if (one.n) {
		r->boot = one.v[0];
		r->boot_rule = one.rule;
	} else if (r->boot_status == IFS_NONE) {
		r->boot_warn = "Bootstrap : no socket interface found";
	}
}

int ifs_addr_link_local(const struct ifs_addr *a)
{
	return a && a->family == 6 && a->addr[0] == 0xfe && (a->addr[1] & 0xc0) == 0x80;
}

int ifs_addr_link_local_any(const struct ifs_addr *a)
{
	return ifs_addr_link_local(a) || (a && a->family == 4 && a->addr[0] == 169 && a->addr[1] == 254);
}

void ifs_facts_release(struct ifs_facts *f)
{
	free(f->addrs);
	free(f->version);
	memset(f, 0, sizeof(*f));
}
