/*
 * NCCL's choice of network interfaces, re-implemented as a pure function so that a rule can say,
 * before launch, exactly which interface and address NCCL will bootstrap on and which ones
 * NET/Socket will use. Mirrors ncclFindInterfaces / findInterfaces / ncclFindInterfaceMatchSubnet /
 * parseStringList / matchIfList (src/misc/socket.cc, src/misc/utils.cc; src/os/linux.cc from 2.29)
 * and bootstrapNetInit (src/bootstrap.cc), including the differences between NCCL versions.
 * Input order matters: entries must be in getifaddrs() order, as NCCL walks them.
 */
#ifndef NCCLCHECK_RULES_IFSELECT_H
#define NCCLCHECK_RULES_IFSELECT_H

#include <stddef.h>

#include <jansson.h>

#include "util/version.h"

#define IFS_MAX_IFS 16		/* MAX_IFS in NCCL's socket.h */
#define IFS_PREFIX_MAX 64	/* struct netIf's prefix buffer */

/* One getifaddrs() entry that carries an IPv4 or IPv6 address. */
struct ifs_addr {
	const char *name;
	int family;		/* 4 or 6 */
	unsigned char addr[16];	/* network byte order; IPv4 uses the first 4 bytes */
	int prefixlen;		/* netmask length; -1 when unknown (never matches a subnet) */
	unsigned scope_id;	/* sin6_scope_id: the interface index for link-local IPv6, else 0 */
	int running;		/* IFF_RUNNING */
	unsigned ifindex;	/* the interface's index (if_nametoindex), 0 when unknown */
	const char *text;	/* the address as text, for messages */
};

/* A parsed NCCL_SOCKET_IFNAME-style list ("^=eth0,eth1:1234"). */
struct ifs_token {
	char prefix[IFS_PREFIX_MAX];
	int port;		/* parsed, and ignored for IP interfaces */
};

struct ifs_spec {
	int exclude;		/* leading '^' */
	int exact;		/* '=' (after the optional '^') */
	int n;			/* tokens kept: at most IFS_MAX_IFS */
	struct ifs_token tok[IFS_MAX_IFS];
	int entries;		/* non-empty entries in the whole value (> n when NCCL cut it at 16) */
	int long_prefix;	/* an entry longer than 63 bytes (NCCL <= 2.29 overflows its buffer) */
	int with_port;		/* an entry carried ":port" */
	int with_space;		/* an entry contains whitespace, which NCCL does not trim */
};

/*
 * Parses `s` exactly as NCCL does; `exact_supported` is 0 for NCCL older than 2.5.6, where '=' is
 * part of the name.
 */
void ifs_spec_parse(const char *s, int exact_supported, struct ifs_spec *out);
/* matchIfList(...) XOR exclude: whether interface `name` is selected by `spec`. */
int ifs_spec_selects(const struct ifs_spec *spec, const char *name);
/* matchIfList(...) alone: whether the list names `name`, before the '^'; 0 for an empty list. */
int ifs_spec_names(const struct ifs_spec *spec, const char *name);

/* NCCL_COMM_ID as ncclSocketGetAddrFromString reads it. */
struct ifs_commid {
	int valid;		/* NCCL accepts the string (the address may still need a lookup) */
	const char *error;	/* NCCL's WARN text when not valid */
	int bracket;		/* "[v6]:port" form */
	char host[IFS_PREFIX_MAX];	/* host part of the unbracketed form */
	int port;		/* -1 when absent (NCCL then uses 65535) */
	int have_addr;		/* addr/family/scope_id known */
	int family;
	unsigned char addr[16];
	unsigned scope_id;
	char scope_ifname[16];	/* "%ifname" of the bracketed form */
	int needs_lookup;	/* a host name that the probe did not resolve */
};

/*
 * `resolved` is the first address getaddrinfo() gave for the host part (the probe looks it up;
 * may be NULL). `addrs` serve to map a "%ifname" scope to its interface index.
 */
void ifs_commid_parse(const char *s, const char *resolved, const struct ifs_addr *addrs, size_t n,
		      struct ifs_commid *out);

/* Which pass of NCCL's search picked an interface. */
enum ifs_rule {
	IFS_RULE_NONE = 0,
	IFS_RULE_USER,		/* NCCL_SOCKET_IFNAME */
	IFS_RULE_IB,		/* automatic: names starting with "ib" (IPoIB) first */
	IFS_RULE_COMMID,	/* automatic: the subnet of NCCL_COMM_ID */
	IFS_RULE_AUTO,		/* automatic: everything but docker*, lo* (and virbr* from 2.28) */
	IFS_RULE_DOCKER,	/* automatic fallback: docker* */
	IFS_RULE_LO,		/* automatic fallback: lo* */
	IFS_RULE_VIRBR,		/* automatic fallback: virbr* (2.28+) */
	IFS_RULE_BOOT_COMMID,	/* bootstrap with NCCL_COMM_ID set: its subnet, nothing else */
};

/* A phrase for findings: "NCCL_SOCKET_IFNAME", "the automatic pass (all but docker*, lo*)". */
const char *ifs_rule_describe(enum ifs_rule r);

enum ifs_status {
	IFS_OK = 0,
	IFS_NONE,		/* no interface matched: NCCL fails */
	IFS_BAD_COMMID,		/* NCCL_COMM_ID cannot be parsed: NCCL fails */
	IFS_UNRESOLVED,		/* cannot tell: NCCL_COMM_ID names a host the probe did not resolve */
};

struct ifs_list {
	int n;
	const struct ifs_addr *v[IFS_MAX_IFS];
	enum ifs_rule rule;
	const char *spec;	/* the list that selected them: the user's value, "ib", "^docker,lo" */
};

struct ifs_input {
	const struct ifs_addr *addrs;	/* getifaddrs() order */
	size_t naddrs;
	const char *socket_ifname;	/* NULL when unset */
	const char *socket_family;
	const char *comm_id;
	const char *comm_id_resolved;	/* see ifs_commid_parse */
	struct version nccl;		/* the NCCL whose behaviour to reproduce */
};

struct ifs_result {
	/* version-dependent behaviour that applied */
	int running_filter;	/* 2.28+: interfaces without IFF_RUNNING are skipped */
	int virbr_last;		/* 2.28+: virbr* excluded from the automatic pass, tried last */
	int exact_supported;	/* 2.5.6+: '=' means an exact name */
	/* how NCCL reads the environment */
	int ifname_set;		/* NCCL_SOCKET_IFNAME is set ... */
	int ifname_ignored;	/* ... but has at most one character, so NCCL ignores it */
	struct ifs_spec spec;	/* parsed NCCL_SOCKET_IFNAME when used */
	int family;		/* -1 (any), 4 or 6 */
	int family_ignored;	/* NCCL_SOCKET_FAMILY set to something NCCL does not recognise */
	int commid_set;
	struct ifs_commid commid;
	/* ncclFindInterfaces(maxIfs = 16): NET/Socket's devices; the first is also IB's OOB interface */
	enum ifs_status socket_status;
	struct ifs_list sockets;
	/* bootstrapNetInit: one interface */
	enum ifs_status boot_status;
	const struct ifs_addr *boot;
	enum ifs_rule boot_rule;
	const char *boot_warn;	/* NCCL's WARN when bootstrap fails */
};

void ifs_predict(const struct ifs_input *in, struct ifs_result *out);

/* Whether the predicted address is IPv6 link-local (fe80::/10): usable only on one L2 segment. */
int ifs_addr_link_local(const struct ifs_addr *a);
/* Link-local of either family: IPv4 169.254.0.0/16 (RFC 3927) or IPv6 fe80::/10. */
int ifs_addr_link_local_any(const struct ifs_addr *a);

/*
 * The input for one node as the node model (model/node.c) decodes it from facts: net.ifaddrs[],
 * the NCCL_* settings NCCL would see (environment over nccl.conf files), and the NCCL version to
 * model with the reason for it. Strings are borrowed from the facts.
 */
struct ifs_facts {
	struct ifs_input in;
	struct ifs_addr *addrs;		/* owned */
	char *version;			/* owned: "2.28.9" */
	const char *version_why;	/* why that version */
	int version_assumed;		/* no NCCL known: the default assumption */
	const char *ifname_source;	/* where NCCL_SOCKET_IFNAME came from ("environment", a path) */
	const char *family_source;
	const char *comm_id_source;
};

void ifs_facts_release(struct ifs_facts *f);


#endif
