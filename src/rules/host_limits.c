/*
 * Host limits that decide how many sockets and how much buffer NCCL gets, and a host name that
 * hands other nodes a loopback address: the open-files limit, NCCL_SOCKET_SNDBUF/RCVBUF above the
 * kernel's ceiling, a host name resolving to 127.x, a neighbour table that overflowed. Pure.
 */
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

struct net {
	const struct node_model *m;
	struct findings *out;
};

/* NCCL_SOCKET_SNDBUF / _RCVBUF ask setsockopt() for more than the kernel's ceiling: silently capped. */
static void report_bufs(struct net *n)
{
	const struct {
		const char *var, *sysctl, *key;
		long long max;
	} b[] = { { "NCCL_SOCKET_SNDBUF", "net.core.wmem_max", "sysctl.wmem_max", n->m->limits.wmem_max },
		  { "NCCL_SOCKET_RCVBUF", "net.core.rmem_max", "sysctl.rmem_max", n->m->limits.rmem_max } };
	struct finding *f;

	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		const struct nccl_setting *st = node_model_setting(n->m, b[i].var);
		long long max = b[i].max, want;
		enum nv_parse how;

		if (!st || max <= 0)
			continue;
		want = nccl_parse_int(st->value, &how);
		if (how == NV_PARSE_EMPTY || want <= max)
			continue;
		f = finding_add(n->out, SEV_WARN, "net.sysctl.sockbuf",
				"%s=%lld is above %s (%lld): the kernel caps the socket buffer there", b[i].var, want,
				b[i].sysctl, max);
		finding_evidence(f, N_("%s=%s (source: %s)"), st->name, st->value, st->source);
		finding_evidence(f, "%s = %lld", b[i].key, max);
		finding_why(f, "setsockopt(SO_SNDBUF/SO_RCVBUF) silently clamps to the net.core maximum, so the "
			    "larger buffer you asked for is not in force on this node.");
		finding_fix(f, "sysctl -w %s=%lld", b[i].sysctl, want);
		finding_setting(f, WHERE_SYSCTL, SCOPE_NODE, b[i].sysctl, "%lld", want);
	}
}

static void report_limits(struct net *n)
{
	long long soft = n->m->limits.nofile_soft, hard = n->m->limits.nofile_hard;
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
		finding_fix(f, N_("ulimit -n %lld   # in the launching shell; %s"), want,
			    want < 65536 ? "raise the hard limit in /etc/security/limits.conf for more"
					 : "persist with 'nofile 65536' in /etc/security/limits.conf");
	}
}

static void report_hostname(struct net *n)
{
	const struct nm_hostname *hr = &n->m->hostname_res;
	const char *name = hr->name;
	const struct ifs_addr *b = n->m->pred.boot;
	struct finding *f;

	if (!name)
		return;
	if (!strcmp(name, "localhost") || hr->loopback) {
		/* two whole sentences: the renderer translates a format, not pieces of one */
		if (!strcmp(name, "localhost"))
			f = finding_add(n->out, SEV_WARN, "net.hostname.loopback", "host name '%s' is 'localhost'",
					name);
		else
			f = finding_add(n->out, SEV_WARN, "net.hostname.loopback",
					"host name '%s' resolves to a loopback address", name);
		finding_evidence(f, "hostname_resolution: %s -> %s", name,
				 str_or(hr->first, "?"));
		finding_why(f, "Tools that advertise this node by name hand out a loopback address to the others: "
			    "torch's Gloo backend (Lightning's CPU barriers) and torchrun's rendezvous use the host "
			    "name's address unless told otherwise; NCCL keys 'same node' on the host name (plus "
			    "boot id), so identical names such as 'localhost' confuse its logs and grouping.");
		if (b && !ifs_addr_link_local(b) && b->family == 4 && strncmp(b->name, "lo", 2)) {
			char uniq[64];

			/* 'localhost' is no name to keep: one made from the address is unique */
			snprintf(uniq, sizeof(uniq), "node-%s", b->text);
			for (char *p = uniq; *p; p++)
				if (*p == '.')
					*p = '-';
			if (!strcmp(name, "localhost"))
				finding_fix(f, N_("hostnamectl set-hostname %s   # a name of its own, from its address"),
					    uniq);
			finding_fix(f, N_("echo '%s %s' >> /etc/hosts   # and drop the 127.0.x.1 line for it"), b->text,
				    !strcmp(name, "localhost") ? uniq : name);
		}
		if (b && strncmp(b->name, "lo", 2))
			finding_export(f, "GLOO_SOCKET_IFNAME", "%s", b->name);
	}
}

/*
 * The kernel refused new neighbour (ARP) entries: the packet that waited for one was dropped, so
 * the first connect to a peer without an entry timed out — what a firewall looks like from the
 * other end. A counter since boot: it says this happened on this host, not when.
 */
static void report_neigh(struct net *n)
{
	long long fulls = n->m->limits.neigh_table_fulls, now = n->m->limits.neigh_entries;
	long long t2 = n->m->limits.neigh_gc_thresh2, t3 = n->m->limits.neigh_gc_thresh3;
	struct finding *f;

	if (fulls <= 0)
		return;
	f = finding_add(n->out, SEV_WARN, "net.neigh.overflowed",
			"the kernel refused new neighbour (ARP) entries %lld times since boot: "
			"packets to peers without one were dropped", fulls);
	finding_evidence(f, "/proc/net/stat/arp_cache: table_fulls %lld, entries %lld now", fulls, now);
	if (t3 > 0)
		finding_evidence(f, "net.ipv4.neigh.default.gc_thresh2 = %lld, gc_thresh3 = %lld", t2, t3);
	finding_why(f, "Past gc_thresh3 entries (the whole host's, every network namespace and "
		       "container counted) the kernel refuses a new one and drops the packet that "
		       "waited for it (dmesg: 'neighbour: arp_cache: neighbor table overflow!'), so the "
		       "first SYN to a peer times out as if a firewall dropped it: NCCL's bootstrap "
		       "hangs or reports a peer unreachable, and the peer is innocent.");
	if (t3 > 0) {
		long long want = t3 * 4 > 8192 ? t3 * 4 : 8192;

		finding_fix(f, "sysctl -w net.ipv4.neigh.default.gc_thresh3=%lld "
			       "net.ipv4.neigh.default.gc_thresh2=%lld "
			       "net.ipv4.neigh.default.gc_thresh1=%lld", want, want / 2, want / 8);
		finding_setting(f, WHERE_SYSCTL, SCOPE_NODE, "net.ipv4.neigh.default.gc_thresh3",
				"%lld", want);
	} else {
		finding_fix(f, N_("# on the host (the limits are not visible in this network namespace)"));
		finding_fix(f, "sysctl -w net.ipv4.neigh.default.gc_thresh3=8192 "
			       "net.ipv4.neigh.default.gc_thresh2=4096 "
			       "net.ipv4.neigh.default.gc_thresh1=1024");
	}
	finding_check(f, "ip -s neigh show | wc -l; dmesg | grep -c 'neighbor table overflow'");
}

void rule_host_limits(const struct node_model *m, struct findings *out)
{
	struct net n = { m, out };

	if (!m->have_ifs)
		return;
	report_limits(&n);
	report_bufs(&n);
	report_hostname(&n);
	report_neigh(&n);
}
