/*
 * Cloud-specific tips, only where this node's facts make them relevant (facts.cloud from
 * probe/cloud.c, research/launch-and-cloud.md §2): AWS EFA without its NCCL plugin, the security
 * group and placement group; Alibaba's MTU, source/destination check and eRDMA; AutoDL's private
 * NIC and its torch 1.11 image; GCP's MTU, gVNIC and GPUDirect-TCPX(O); Azure's HPC nccl.conf;
 * OCI's RoCE settings; Docker bridges and Kubernetes pod networks (docker0 itself is net.c's:
 * net.bootstrap.docker, net.ifname.docker_eligible).
 * Where the second seed's cloud advice is outdated or wrong, the finding says so. /dev/shm in
 * containers is rules/resources.c's. Pure.
 */
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/compat_tables.h"
#include "util/addr.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/version.h"

struct cloud {
	struct findings *out;
	const char *provider;	/* "aws", ..., or NULL when unknown */
	const char *evidence;	/* why we think so */
	const char *kind;	/* host.container.kind */
	const struct node_model *m;
	const char *nccl;	/* the NCCL the job runs with, or NULL when none is known */
	long port_lo, port_hi, master_port;
};

static int is(const struct cloud *c, const char *p)
{
	return c->provider && !strcmp(c->provider, p);
}

static void ev_cloud(const struct cloud *c, struct finding *f)
{
	if (c->provider)
		finding_evidence(f, "cloud.provider = %s: %s", c->provider, str_or(c->evidence, "?"));
}

static const char *setting(const struct cloud *c, const char *name)
{
	const struct nccl_setting *st = node_model_setting(c->m, name);
	return st ? st->value : NULL;
}

static const char *env(const struct cloud *c, const char *name)
{
	return node_model_env(c->m, name);
}

/* "eth0 1500, eth1 9001": the MTU of every interface that is up, loopback aside. */
static void mtus(const struct cloud *c, struct strbuf *sb)
{
	for (size_t i = 0; i < c->m->nifaces; i++) {
		const struct nm_iface *it = &c->m->ifaces[i];

		if (!it->up || (it->kind && !strcmp(it->kind, "loopback")))
			continue;
		strbuf_addf(sb, "%s%s %ld", sb->len ? ", " : "", it->name, it->mtu);
	}
}

static const struct nm_iface *iface(const struct cloud *c, const char *name)
{
	return node_model_iface(c->m, name);
}

/* "a, b" of a NULL-terminated list. */
static void join(const char *const *v, struct strbuf *sb)
{
	for (; v && *v; v++)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", *v);
}

/* The interface the nodes talk over: MASTER_ADDR's route, else NCCL's bootstrap, else the default route. */
static const char *cluster_if(const struct cloud *c)
{
	return node_model_cluster_ifname(c->m);
}

/* Rank 0's address when it is another node's (MASTER_ADDR resolved, not here), else NULL. */
static const char *peer(const struct cloud *c)
{
	const struct nm_master *m = &c->m->master;

	if (m->resolved && !m->local && m->ifname && strncmp(m->ifname, "lo", 2))
		return m->resolved;
	return NULL;
}

/* This node's IPv4 address on the interface the nodes talk over, or NULL. */
static const char *own_ip(const struct cloud *c)
{
	const char *ifn = cluster_if(c);
	const struct ifs_addr *a = ifn ? node_model_addr(c->m, ifn, 4) : NULL;

	return a ? a->text : NULL;
}

/*
 * A path-MTU test with `payload` bytes: to rank 0 when that is another node, else to this node
 * from the others (its own address is known; theirs are not, here).
 */
static void fix_ping(const struct cloud *c, struct finding *f, long payload, const char *why)
{
	if (peer(c))
		finding_fix(f, N_("ping -M do -s %ld -c 3 %s   # %s"), payload, peer(c), why);
	else if (own_ip(c))
		finding_fix(f, N_("ping -M do -s %ld -c 3 %s   # from every other node: %s"), payload, own_ip(c),
			    why);
}

/* RDMA devices with an ACTIVE port of `link_layer` ("InfiniBand", "Ethernet"; NULL: any). */
static int active_rdma(const struct cloud *c, const char *link_layer, struct strbuf *names)
{
	const struct nm_rdma *r = &c->m->rdma;
	int n = 0;

	for (int d = 0; d < r->ndevices; d++) {
		int hit = 0;

		for (size_t j = 0; j < r->nports; j++) {
			const char *st = r->ports[j].state, *ll = r->ports[j].link_layer;

			if (r->ports[j].dev_index == d && st && !strcmp(st, "ACTIVE") &&
			    (!link_layer || (ll && !strcmp(ll, link_layer))))
				hit = 1;
		}
		if (hit) {
			n++;
			if (names)
				strbuf_addf(names, "%s%s", names->len ? "," : "", str_or(r->dev_names[d], "?"));
		}
	}
	return n;
}

static int gpu_named(const struct cloud *c, const char *needle)
{
	for (size_t i = 0; i < c->m->ngpus; i++)
		if (c->m->gpus[i].name && strstr(c->m->gpus[i].name, needle))
			return 1;
	return 0;
}


/* ---- AWS ---- */

/*
 * How the aws CLI names this instance: by the instance id DMI gave, else by its private address
 * (unique within a VPC). 0 when neither is known.
 */
static int aws_self(const struct cloud *c, struct strbuf *sb)
{
	if (c->m->cloud.instance_id)
		strbuf_addf(sb, "--instance-ids %s", c->m->cloud.instance_id);
	else if (own_ip(c))
		strbuf_addf(sb, "--filters Name=private-ip-address,Values=%s", own_ip(c));
	return sb->len > 0;
}

/* A net plugin file of aws-ofi-nccl (libnccl-net-ofi.so, or libnccl-net.so beside it): its index or -1. */
static long ofi_plugin(const struct cloud *c)
{
	for (size_t i = 0; i < c->m->stack.nplugins; i++) {
		const char *n = c->m->stack.plugin_names[i];
		if (n && (strstr(n, "ofi") || strstr(n, "aws")))
			return (long)i;
	}
	return -1;
}

static void aws_efa(struct cloud *c)
{
	const char *state = c->m->stack.net_plugin_state;
	const char *ppath = c->m->stack.net_plugin_path;
	struct strbuf names = STRBUF_INIT, self = STRBUF_INIT;
	long have;
	struct finding *f;

	join(c->m->cloud.efa, &names);
	if (state && !strcmp(state, "loads")) {
		/* libnccl-net.so may be any plugin; aws-ofi-nccl's own files name it */
		int ofi = ppath && (strstr(ppath, "ofi") || strstr(ppath, "aws"));

		f = finding_add(c->out, ofi ? SEV_OK : SEV_INFO, "cloud.aws.efa_plugin",
				"NCCL will load the net plugin %s for EFA (%s)%s", str_or(ppath, "?"), names.buf,
				ofi ? "" : ": make sure it is aws-ofi-nccl");
		finding_evidence(f, "nccl.net_plugin: state loads, path %s", str_or(ppath, "?"));
		if (!ofi)
			finding_fix(f, N_("strings %s | grep -i -m1 ofi   # aws-ofi-nccl names itself; no output: another plugin"),
				    str_or(ppath, "?"));
		goto stale;
	}
	if (state && !strcmp(state, "disabled")) {
		f = finding_add(c->out, SEV_WARN, "cloud.aws.efa_plugin",
				"NCCL_NET_PLUGIN=none: NCCL will not use the EFA device(s) %s", names.buf);
		finding_why(f, "NCCL has no EFA transport of its own; only the aws-ofi-nccl plugin drives EFA. With "
			    "plugins disabled NCCL uses TCP sockets over the ENA interface, many times slower.");
		finding_fix(f, "unset NCCL_NET_PLUGIN");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_NET_PLUGIN", NULL);
		finding_evidence(f, "nccl.net_plugin: state disabled (NCCL_NET_PLUGIN=%s)",
				 str_or(c->m->stack.net_plugin_env, "?"));
		goto stale;
	}
	have = ofi_plugin(c);
	f = finding_add(c->out, SEV_WARN, "cloud.aws.efa_plugin",
			"EFA device(s) %s but no aws-ofi-nccl plugin loads: NCCL will use TCP sockets over ENA",
			names.buf);
	finding_evidence(f, "cloud.efa: %s", names.buf);
	finding_evidence(f, "nccl.net_plugin: state %s, tries %s", str_or(state, "?"),
			 str_or(c->m->stack.net_plugin_tries, "?"));
	finding_why(f, "NCCL drives EFA only through the aws-ofi-nccl net plugin (libnccl-net-ofi.so, optionally "
		    "also installed as libnccl-net.so); without it NCCL falls back to NET/Socket silently. Old "
		    "recipes also export FI_PROVIDER=efa and FI_EFA_USE_DEVICE_RDMA=1 for "
		    "p4d/p5: aws-ofi-nccl's own table limits FI_PROVIDER=efa to aws-ofi-nccl <= 1.5.0 and says not "
		    "to set FI_EFA_USE_DEVICE_RDMA with libfabric >= 1.18 and aws-ofi-nccl >= 1.7.");
	if (have >= 0) {
		const char *p = str_or(c->m->stack.plugin_paths[have], "?");
		const char *n = str_or(c->m->stack.plugin_names[have], "?");
		const char *slash = strrchr(p, '/');
		int ofi_name = !strncmp(n, "libnccl-net-ofi.so", 18);

		finding_evidence(f, "nccl.plugins: %s (not on the loader's path)", p);
		finding_fix(f, "export LD_LIBRARY_PATH=%.*s:$LD_LIBRARY_PATH%s", slash ? (int)(slash - p) : (int)strlen(p),
			    p, ofi_name ? " NCCL_NET_PLUGIN=ofi" : "");
		if (ofi_name)
			finding_setting(f, WHERE_ENV, SCOPE_NODE, "NCCL_NET_PLUGIN", "ofi");
	} else {
		finding_fix(f, "curl -O https://efa-installer.amazonaws.com/aws-efa-installer-latest.tar.gz && tar xf "
			    "aws-efa-installer-latest.tar.gz && cd aws-efa-installer && sudo ./efa_installer.sh -y");
		finding_fix(f, N_("export LD_LIBRARY_PATH=/opt/amazon/ofi-nccl/lib:/opt/amazon/efa/lib:$LD_LIBRARY_PATH   "
			    "# where recent EFA installers put aws-ofi-nccl (unverified here); or use an AWS Deep "
			    "Learning AMI or container, which ship it"));
	}
	finding_fix(f, N_("# only with aws-ofi-nccl <= 1.5.0 / libfabric < 1.18 (p4d, p5): export FI_PROVIDER=efa "
		    "FI_EFA_USE_DEVICE_RDMA=1"));
stale:
	{
		static const char *const old[] = { "FI_PROVIDER", "FI_EFA_USE_DEVICE_RDMA", "FI_EFA_FORK_SAFE" };
		struct strbuf set = STRBUF_INIT;

		for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++)
			if (env(c, old[i]))
				strbuf_addf(&set, "%s%s=%s", set.len ? " " : "", old[i], env(c, old[i]));
		if (set.len) {
			f = finding_add(c->out, SEV_INFO, "cloud.aws.efa_env", "%s: settings from old EFA recipes",
					set.buf);
			finding_why(f, "aws-ofi-nccl's environment table: FI_PROVIDER=efa only for aws-ofi-nccl <= "
				    "1.5.0, FI_EFA_USE_DEVICE_RDMA=1 not with libfabric >= 1.18 and aws-ofi-nccl >= "
				    "1.7, FI_EFA_FORK_SAFE 'not needed anymore'. Current plugins choose these "
				    "themselves; stale values hide what the plugin would do.");
			for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++)
				if (env(c, old[i])) {
					finding_fix(f, N_("unset %s   # unless your aws-ofi-nccl is older than the versions above"),
						    old[i]);
					finding_setting(f, WHERE_ENV, SCOPE_ALL, old[i], NULL);
				}
			finding_evidence(f, "env: %s", set.buf);
		}
		strbuf_release(&set);
	}
	/* EFA instances belong in one cluster placement group; offline we cannot see which group */
	f = finding_add(c->out, SEV_INFO, "cloud.aws.placement",
			"AWS EFA: launch all nodes in one cluster placement group");
	finding_why(f, "AWS's EFA guides say to launch every instance that uses EFA in a cluster placement "
		    "group (the second seed says the same). ncclcheck does not query the instance metadata "
		    "service, so it cannot see the group; check it.");
	if (aws_self(c, &self))
		finding_fix(f, N_("aws ec2 describe-instances %s --query "
			    "'Reservations[].Instances[].Placement.GroupName' --output text   # the same "
			    "cluster group on every node"), self.buf);
	finding_fix(f, N_("aws ec2 create-placement-group --group-name nccl-cluster --strategy cluster   "
		    "# then launch with --placement GroupName=nccl-cluster"));
	finding_evidence(f, "cloud.efa: %s", names.buf);
	strbuf_release(&names);
	strbuf_release(&self);
}

static void aws(struct cloud *c)
{
	const char *itype = c->m->cloud.instance_type;
	int n_efa = (int)c->m->cloud.nefa;
	struct strbuf self = STRBUF_INIT;
	struct finding *f;

	if (!is(c, "aws") && !n_efa)
		return;
	if (n_efa)
		aws_efa(c);
	else if (itype && (!strncmp(itype, "p4d", 3) || !strncmp(itype, "p5", 2) || !strncmp(itype, "p6", 2))) {
		f = finding_add(c->out, SEV_WARN, "cloud.aws.no_efa",
				"%s instance without an EFA device: NCCL will use TCP sockets over ENA", itype);
		finding_why(f, "%s instances reach their inter-node bandwidth only through EFA, which must be "
			    "requested at launch (network interfaces of type efa); none is visible under "
			    "/sys/class/infiniband here.", itype);
		if (aws_self(c, &self))
			finding_fix(f, N_("aws ec2 describe-instances %s --query "
				    "'Reservations[].Instances[].NetworkInterfaces[].InterfaceType' --output text"
				    "   # 'efa' expected"), self.buf);
		finding_evidence(f, "cloud.instance_type = %s (DMI product_name)", itype);
		ev_cloud(c, f);
	}
	if (!is(c, "aws"))
		goto out;
	f = finding_add(c->out, SEV_INFO, "cloud.aws.security_group",
			"AWS: the nodes' security group must admit itself: TCP %ld-%ld and %ld%s", c->port_lo,
			c->port_hi, c->master_port, n_efa ? ", and all traffic for EFA" : "");
	finding_why(f, "NCCL has no port setting: its listeners take ports from net.ipv4.ip_local_port_range "
		    "(%ld-%ld here%s) and torch's TCPStore listens on MASTER_PORT %ld. The second seed's "
		    "'32768-60999' is Linux's default range, right only where the range was not changed. EFA's "
		    "traffic is not TCP at all: AWS requires a rule allowing all traffic to and from the security "
		    "group itself, inbound and outbound.", c->port_lo, c->port_hi,
		    c->port_lo == NM_PORT_LO_DEFAULT && c->port_hi == NM_PORT_HI_DEFAULT ? ", the default" : ", not the default: open this range",
		    c->master_port);
	strbuf_reset(&self);
	if (aws_self(c, &self)) {
		/* the group id is the account's, not the node's: the fix looks it up, then scopes to it */
		finding_fix(f, N_("aws ec2 describe-instances %s --query 'Reservations[].Instances[]."
			    "SecurityGroups[].[GroupId,GroupName]' --output text   # this node's groups"), self.buf);
		finding_fix(f, N_("SG=$(aws ec2 describe-instances %s --query 'Reservations[0].Instances[0]."
			    "SecurityGroups[0].GroupId' --output text)   # the first of them"), self.buf);
		if (n_efa) {
			finding_fix(f, N_("aws ec2 authorize-security-group-ingress --group-id \"$SG\" --protocol -1 "
				    "--source-group \"$SG\""));
			finding_fix(f, N_("aws ec2 authorize-security-group-egress --group-id \"$SG\" --ip-permissions "
				    "\"IpProtocol=-1,UserIdGroupPairs=[{GroupId=$SG}]\""));
		} else {
			finding_fix(f, N_("aws ec2 authorize-security-group-ingress --group-id \"$SG\" --protocol tcp "
				    "--port %ld-%ld --source-group \"$SG\""), c->port_lo, c->port_hi);
			if (c->master_port < c->port_lo || c->master_port > c->port_hi)
				finding_fix(f, N_("aws ec2 authorize-security-group-ingress --group-id \"$SG\" "
					    "--protocol tcp --port %ld --source-group \"$SG\""), c->master_port);
		}
	}
	finding_evidence(f, "sysctl.ip_local_port_range = %ld %ld", c->port_lo, c->port_hi);
	ev_cloud(c, f);
out:
	strbuf_release(&self);
}

/* ---- Alibaba Cloud ---- */

static void alibaba(struct cloud *c)
{
	size_t n_erdma = c->m->cloud.nerdma;
	const char *ifn = cluster_if(c);
	struct strbuf all = STRBUF_INIT;
	struct finding *f;

	if (!is(c, "alibaba") && !n_erdma)
		return;
	mtus(c, &all);
	if (is(c, "alibaba")) {
		f = finding_add(c->out, SEV_INFO, "cloud.alibaba.mtu",
				"Alibaba Cloud: MTU %s; the second seed's 'set MTU to 8000' helps only when every hop "
				"carries it", all.len ? all.buf : "unknown");
		finding_why(f, "Alibaba Cloud documents 1500 for every instance and jumbo frames of 8500 bytes (not "
			    "8000) on the instance families that support them; a path's MTU is the smallest of its "
			    "hops and larger packets are fragmented or dropped. A larger MTU does not fix NCCL errors; "
			    "set on one node only, it makes NCCL hang once messages grow.");
		fix_ping(c, f, 8472, "8500-byte packets pass?");
		if (ifn)
			finding_fix(f, N_("ip link set dev %s mtu 8500   # on every node, only when that ping passes"), ifn);
		finding_evidence(f, "net.interfaces[].mtu: %s", all.len ? all.buf : "-");
		ev_cloud(c, f);

		f = finding_add(c->out, SEV_INFO, "cloud.alibaba.src_dst_check",
				"Alibaba Cloud: the second seed's 'turn off the source/destination check' is not "
				"needed for NCCL between instances%s",
				c->kind && !strcmp(c->kind, "kubernetes") ? ", unless the CNI routes pod IPs" : "");
		finding_why(f, "The check drops packets whose source or destination is not the instance's own "
			    "address. It matters only when an instance forwards traffic for other addresses: a "
			    "NAT, VPN or router instance, or a container network that routes pod or container IPs "
			    "across the VPC without encapsulation. NCCL between instances uses their own private "
			    "addresses.");
		if (peer(c) && ifn)
			finding_fix(f, N_("ip route get %s   # 'dev %s%s%s' without 'via': direct, the check does "
				    "not apply"), peer(c), ifn, own_ip(c) ? " src " : "", own_ip(c) ? own_ip(c) : "");
		else if (ifn)
			finding_fix(f, N_("ip -4 route show dev %s scope link   # the other nodes' addresses in "
				    "these subnets are reached directly: the check does not apply"), ifn);
		ev_cloud(c, f);
	}
	if (n_erdma) {
		struct strbuf names = STRBUF_INIT;
		const char *hca = setting(c, "NCCL_IB_HCA"), *gid = setting(c, "NCCL_IB_GID_INDEX");

		join(c->m->cloud.erdma, &names);
		if (c->nccl && version_cmp_str(c->nccl, "2.19") < 0) {
			f = finding_add(c->out, SEV_WARN, "cloud.alibaba.erdma",
					"eRDMA device(s) %s need NCCL 2.19 or newer; this job runs NCCL %s", names.buf,
					c->nccl);
			finding_why(f, "Alibaba's eRDMA guide requires NCCL >= 2.19; older NCCL cannot use the "
				    "devices and falls back to TCP sockets.");
			finding_fix(f, N_("python3 -m pip install --upgrade 'torch>=2.2'   # torch 2.2+ wheels carry "
				    "NCCL 2.19.3 or newer"));
		} else if (!hca || !strstr(hca, "erdma") || !gid) {
			f = finding_add(c->out, SEV_INFO, "cloud.alibaba.erdma",
					"eRDMA device(s) %s: Alibaba's settings for NCCL are not all set", names.buf);
			finding_why(f, "Alibaba's PAI guide for eRDMA sets NCCL_IB_HCA=erdma, NCCL_IB_GID_INDEX=1, "
				    "NCCL_IB_QPS_PER_CONNECTION=8 and NCCL_NET_PLUGIN=none (NCCL_IB_TC, _SL and "
				    "_TIMEOUT do not apply); vendor values, not NCCL defaults.");
			finding_fix(f, "export NCCL_IB_HCA=erdma NCCL_IB_GID_INDEX=1 NCCL_IB_QPS_PER_CONNECTION=8 "
				    "NCCL_NET_PLUGIN=none");
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_HCA", "erdma");
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_GID_INDEX", "1");
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_QPS_PER_CONNECTION", "8");
			finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_NET_PLUGIN", "none");
		} else {
			f = finding_add(c->out, SEV_OK, "cloud.alibaba.erdma", "eRDMA device(s) %s with NCCL_IB_HCA=%s",
					names.buf, hca);
		}
		if (c->kind && !strcmp(c->kind, "kubernetes"))
			finding_fix(f, N_("# in Kubernetes: hostNetwork: true in the pod spec, so NCCL reaches the eRDMA "
				    "device (Alibaba's ACK guide)"));
		finding_evidence(f, "cloud.erdma: %s", names.buf);
		if (c->nccl)
			finding_evidence(f, "NCCL %s", c->nccl);
		strbuf_release(&names);
	}
	strbuf_release(&all);
}

/* ---- Alibaba PAI Lingjun's preset, copied to another cloud ---- */

/*
 * The NCCL variables PAI injects on Lingjun resources (alibabacloud.com/help/en/pai/user-guide/
 * use-a-custom-image, "Default settings in PAI"; NCCL_DEBUG=INFO aside). Tuned for Lingjun's
 * mlx5 RoCE fabric: its GID table, its traffic class mapping, its interface names.
 */
static const struct {
	const char *name, *value;
} lingjun_preset[] = {
	{ "NCCL_IB_TC", "136" }, { "NCCL_IB_SL", "5" }, { "NCCL_IB_GID_INDEX", "3" },
	{ "NCCL_SOCKET_IFNAME", "eth" }, { "NCCL_IB_HCA", "mlx5" }, { "NCCL_IB_TIMEOUT", "22" },
	{ "NCCL_IB_QPS_PER_CONNECTION", "8" }, { "NCCL_NET_PLUGIN", "none" },
};
#define LINGJUN_N (sizeof(lingjun_preset) / sizeof(lingjun_preset[0]))

/* The unset (or nccl.conf line removal) for one setting, as data and as a command. */
static void unset_setting(struct finding *f, const struct nccl_setting *st)
{
	if (st->from_file)
		finding_fix(f, "sed -i '/^%s=/d' %s", st->name, st->source);
	else
		finding_fix(f, "unset %s", st->name);
	finding_setting(f, st->from_file ? WHERE_NCCL_CONF : WHERE_ENV, SCOPE_ALL, st->name, NULL);
}

/* What `name=value` of the preset does on this node, into `sb`; 1 when it does harm. */
static int lingjun_judge(const struct cloud *c, const char *name, struct strbuf *sb)
{
	const struct node_model *m = c->m;
	struct strbuf names = STRBUF_INIT;
	int harm = 0, any = 0, ports = active_rdma(c, NULL, NULL);

	if (!strcmp(name, "NCCL_SOCKET_IFNAME")) {
		for (size_t i = 0; i < m->nifaces; i++) {
			if (!m->ifaces[i].up || (m->ifaces[i].kind && !strcmp(m->ifaces[i].kind, "loopback")))
				continue;
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", m->ifaces[i].name);
			any |= !strncmp(m->ifaces[i].name, "eth", 3);
		}
		harm = names.len && !any;
		if (harm)
			strbuf_addf(sb, "matches none of this node's interfaces (%s): NCCL finds no socket "
				    "interface and cannot bootstrap", names.buf);
		else
			strbuf_addstr(sb, "NCCL's prediction judges it like any other value");
	} else if (!strcmp(name, "NCCL_IB_HCA")) {
		for (int d = 0; d < m->rdma.ndevices; d++) {
			const char *n = m->rdma.dev_names[d];

			strbuf_addf(&names, "%s%s", names.len ? ", " : "", n ? n : "?");
			any |= n && !strncmp(n, "mlx5", 4);
		}
		harm = m->rdma.ndevices > 0 && !any;
		if (harm)
			strbuf_addf(sb, "matches none of this node's RDMA devices (%s): NCCL leaves them unused",
				    names.buf);
		else
			strbuf_addstr(sb, m->rdma.ndevices ? "selects this node's mlx5 devices" :
				      "no effect here: no RDMA device");
	} else if (!strcmp(name, "NCCL_NET_PLUGIN")) {
		for (size_t i = 0; i < m->stack.nplugins; i++) {
			const char *n = m->stack.plugin_names[i];

			if (n && strstr(n, "net"))
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", n);
		}
		harm = names.len > 0;
		if (harm)
			strbuf_addf(sb, "stops NCCL from loading this node's network plugin (%s): traffic "
				    "it would carry falls back to NCCL's own IB or TCP transport", names.buf);
		else
			strbuf_addstr(sb, "no effect here: no network plugin is installed");
	} else if (!ports) {
		strbuf_addstr(sb, "no effect here: no active RDMA port");
	} else {
		strbuf_addstr(sb, "a value for Lingjun's RoCE fabric, applied to this node's RDMA ports; "
			      "this fabric's operator documents its own (or none)");
	}
	strbuf_release(&names);
	return harm;
}

/*
 * PAI's preset is right on Lingjun. Copied with a container image or a job script to another
 * cloud, it names interfaces and devices that are not there and switches off that cloud's network
 * plugin. Judged where it runs: off Alibaba, each setting's effect on this node.
 */
static void lingjun(struct cloud *c)
{
	const struct nccl_setting *st[LINGJUN_N];
	size_t matched = 0, nharm = 0;
	int harm[LINGJUN_N];
	struct strbuf judged[LINGJUN_N];
	struct finding *f;

	if (is(c, "alibaba"))
		return;
	for (size_t i = 0; i < LINGJUN_N; i++) {
		st[i] = node_model_setting(c->m, lingjun_preset[i].name);
		if (st[i] && strcmp(st[i]->value, lingjun_preset[i].value))
			st[i] = NULL;
		matched += st[i] != NULL;
	}
	/* Alibaba's own traffic class and service level, and most of the rest */
	if (matched < 4 || !(st[0] || st[1]))
		return;
	for (size_t i = 0; i < LINGJUN_N; i++) {
		strbuf_init(&judged[i], 0);
		harm[i] = st[i] && lingjun_judge(c, lingjun_preset[i].name, &judged[i]);
		nharm += harm[i];
	}
	if (nharm || c->provider) {
		if (nharm)
			f = finding_add(c->out, SEV_WARN, "cloud.lingjun_preset",
					"%zu of Alibaba PAI Lingjun's NCCL settings do not fit this node "
					"(%s)", nharm, c->provider ? c->provider : "cloud not identified");
		else
			f = finding_add(c->out, SEV_INFO, "cloud.lingjun_preset",
					"Alibaba PAI Lingjun's NCCL settings on a node of another cloud "
					"(%s): none breaks anything here", c->provider);
		finding_why(f, "NCCL_IB_TC=136, NCCL_IB_SL=5, NCCL_IB_GID_INDEX=3, NCCL_SOCKET_IFNAME=eth, "
			    "NCCL_IB_HCA=mlx5, NCCL_IB_TIMEOUT=22, NCCL_IB_QPS_PER_CONNECTION=8 and "
			    "NCCL_NET_PLUGIN=none are what PAI sets on Lingjun resources for their mlx5 RoCE "
			    "network (alibabacloud.com/help/en/pai/user-guide/use-a-custom-image). Copied "
			    "into an image or job script that runs elsewhere, they describe Lingjun's "
			    "interfaces, devices and switch configuration, not this node's.");
		for (size_t i = 0; i < LINGJUN_N; i++)
			if (st[i])
				finding_evidence(f, "%s=%s (%s): %s", st[i]->name, st[i]->value, st[i]->source,
						 judged[i].buf);
		ev_cloud(c, f);
		for (size_t i = 0; i < LINGJUN_N; i++)
			if (harm[i])
				unset_setting(f, st[i]);
	}
	for (size_t i = 0; i < LINGJUN_N; i++)
		strbuf_release(&judged[i]);
}

/* ---- AutoDL ---- */

static void autodl(struct cloud *c)
{
	struct strbuf all = STRBUF_INIT;
	const char *priv = NULL, *priv_addr = NULL;
	int npriv = 0;
	struct finding *f;

	if (!is(c, "autodl"))
		return;
	for (size_t i = 0; i < c->m->nifaces; i++) {
		const struct nm_iface *it = &c->m->ifaces[i];
		const char *k = it->kind, *n = it->name;

		if (k && (!strcmp(k, "loopback") || !strcmp(k, "docker")))
			continue;
		if (!strncmp(n, "docker", 6))
			continue;
		for (size_t j = 0; j < it->naddrs; j++) {
			const char *cls = it->addrs[j].cls;

			if (it->addrs[j].family != 4)
				continue;
			strbuf_addf(&all, "%s%s %s (%s)", all.len ? ", " : "", n, str_or(it->addrs[j].addr, "?"),
				    str_or(cls, "?"));
			if (cls && !strcmp(cls, "private") && (!priv || strcmp(priv, n))) {
				priv = n;
				priv_addr = it->addrs[j].addr;
				npriv++;
			}
		}
	}
	f = finding_add(c->out, SEV_INFO, "cloud.autodl.private_nic",
			"AutoDL: the second seed says the private NIC is usually eth1; here: %s",
			all.len ? all.buf : "no IPv4 interface");
	finding_why(f, "Unverified: no AutoDL documentation of its network layout was found, and this node was "
		    "recognised by its host name only. Do not assume eth1: NCCL must use the interface that "
		    "reaches rank 0's address (with MASTER_ADDR set, net.bootstrap.* checks exactly that). The "
		    "seed also says to open the NCCL port range in AutoDL's console (not verified either): NCCL "
		    "listens on TCP %ld-%ld here, torch's TCPStore on %ld.", c->port_lo, c->port_hi, c->master_port);
	if (npriv == 1) {
		finding_fix(f, N_("export NCCL_SOCKET_IFNAME=%s GLOO_SOCKET_IFNAME=%s   # the one private IPv4 "
			    "interface here"), priv, priv);
		finding_setting(f, WHERE_ENV, SCOPE_NODE, "NCCL_SOCKET_IFNAME", "%s", priv);
		finding_setting(f, WHERE_ENV, SCOPE_NODE, "GLOO_SOCKET_IFNAME", "%s", priv);
	}
	if (peer(c))
		finding_fix(f, N_("ncclcheck node --master-addr %s   # checks the route NCCL needs"), peer(c));
	else if (npriv == 1 && addr_classify_text(priv_addr) == ADDR_PRIVATE)
		finding_fix(f, N_("ncclcheck node --master-addr %s   # on the other nodes when this one is rank 0: "
			    "checks the route NCCL needs"), priv_addr);
	finding_evidence(f, "net.interfaces: %s", all.len ? all.buf : "-");
	ev_cloud(c, f);
	strbuf_release(&all);

	for (size_t i = 0; i < c->m->stack.npython; i++) {
		const struct nm_python *py = &c->m->stack.python[i];
		const char *tv = py->torch, *nv = py->torch_nccl;
		const char *full = compat_driver_full("12.6", NULL), *floor = compat_driver_floor("12.6");
		int st;

		if (!tv || strncmp(tv, "1.11", 4) || (tv[4] && tv[4] != '.' && tv[4] != '+'))
			continue;
		st = py->nccl_static;
		f = finding_add(c->out, SEV_INFO, "cloud.autodl.torch111",
				"torch %s (the second seed's recommended AutoDL image) runs NCCL %s%s: not an optimised "
				"NCCL, an old one", tv, nv ? nv : "2.10.3", nv ? "" : " (reportedly)");
		if (nv)
			finding_evidence(f, "python[%zu].torch.nccl_version = %s%s", i, nv,
					 st == 1 ? ", linked statically" : "");
		finding_why(f, "The second seed recommends AutoDL's torch 1.11.0 image for its 'optimised NCCL'. %s "
			    "Current torch wheels carry NCCL 2.28.9 (torch 2.11), with years of fixes (interface "
			    "selection, hangs in ncclCommAbort, error reporting).",
			    st == 1 ? "This torch links NCCL into itself, so no other NCCL in the image is used."
			    : nv ? "This torch reports that NCCL itself."
				 : "torch 1.11's wheels link NCCL statically, reportedly 2.10.3 (not verified from a "
				   "primary source), so no other NCCL in the image would be used.");
		finding_fix(f, N_("%s -m pip install 'torch==2.11.*' lightning --index-url "
			    "https://download.pytorch.org/whl/cu126 --extra-index-url https://pypi.org/simple   "
			    "# CUDA 12.6 build: driver >= %s, or >= %s with minor-version compatibility"),
			    str_or(py->path, "?"), str_or(full, "?"), str_or(floor, "?"));
		finding_evidence(f, "python[%zu].torch = %s (%s)", i, tv, str_or(py->path, "?"));
	}
}

/* ---- GCP ---- */

/*
 * `gcloud compute instances list` narrowed to this VM's interface on the cluster network (its
 * address is unique in the project's VPC networks), one row per interface; 0 when no address is
 * known. The VM's name, zone and network are the project's, not in the facts.
 */
static int gcp_self(const struct cloud *c, struct strbuf *sb)
{
	if (!own_ip(c))
		return 0;
	strbuf_addf(sb, "gcloud compute instances list --flatten=networkInterfaces "
		    "--filter='networkInterfaces.networkIP=%s'", own_ip(c));
	return 1;
}

static void gcp(struct cloud *c)
{
	const char *ifn = cluster_if(c), *dr = c->m->default_ifname;
	const struct nm_iface *nic = iface(c, ifn), *drit = iface(c, dr);
	long nmtu = nic ? nic->mtu : -1, dmtu = drit ? drit->mtu : -1;
	struct strbuf all = STRBUF_INIT, big = STRBUF_INIT, virtio = STRBUF_INIT, self = STRBUF_INIT;
	int gve = 0;
	struct finding *f;

	if (!is(c, "gcp"))
		return;
	mtus(c, &all);
	for (size_t i = 0; i < c->m->nifaces; i++) {
		const struct nm_iface *it = &c->m->ifaces[i];
		const char *n = it->name, *drv = it->driver, *k = it->kind;
		long m = it->mtu;

		if (drv && !strcmp(drv, "gve"))
			gve = 1;
		if (drv && !strcmp(drv, "virtio_net"))
			strbuf_addf(&virtio, "%s%s", virtio.len ? ", " : "", str_or(n, "?"));
		if (it->up && dmtu > 0 && m > dmtu && !(k && !strcmp(k, "loopback")))
			strbuf_addf(&big, "%s%s %ld", big.len ? ", " : "", str_or(n, "?"), m);
	}
	/* container bridges at 1500 over a 1460 VPC, or a hand-set jumbo MTU on NCCL's interface */
	if (big.len || nmtu > 1460) {
		f = finding_add(c->out, SEV_INFO, "cloud.gcp.mtu", "GCP: MTU %s; every VM takes its VPC network's MTU",
				all.buf);
		finding_why(f, "A GCP VPC network has one MTU for all its VMs (1460 by default according to "
			    "third-party configs, up to 8896; not checked against Google's documentation). %s",
			    big.len ? "Interfaces above the primary NIC's MTU (container bridges often use 1500) send "
				      "packets the VPC drops."
				    : "An MTU above the VPC's black-holes large packets: NCCL hangs once messages grow.");
		if (big.len)
			finding_evidence(f, "above %s's %ld: %s", str_or(dr, "?"), dmtu, big.buf);
		if (gcp_self(c, &self)) {
			finding_fix(f, N_("NET=$(%s --format='value(networkInterfaces.network.basename())')"
				    "   # this VM's VPC network"), self.buf);
			finding_fix(f, N_("gcloud compute networks describe \"$NET\" --format='value(mtu)'   # no "
				    "node's interface may exceed it"));
		}
		fix_ping(c, f, (nmtu > 0 ? nmtu : 1460) - 28, "full-size packets pass?");
		ev_cloud(c, f);
	}
	if (virtio.len && !gve) {
		f = finding_add(c->out, SEV_INFO, "cloud.gcp.gvnic", "GCP: %s use%s virtio-net, not gVNIC", virtio.buf,
				strchr(virtio.buf, ',') ? "" : "s");
		finding_why(f, "gVNIC (driver gve) is Google's high-bandwidth virtual NIC; GKE GPU node pools enable "
			    "it with --enable-gvnic, and Google's newer GPU machine types are documented with gVNIC "
			    "(which types require it was not verified here).");
		strbuf_reset(&self);
		if (gcp_self(c, &self))
			finding_fix(f, N_("%s --format='value(name,zone.basename(),networkInterfaces.nicType)'   "
				    "# GVNIC expected; empty or VIRTIO_NET: not gVNIC"), self.buf);
		finding_fix(f, N_("# the NIC type is fixed when a VM is created: recreate it (or its instance "
			    "template) with --network-interface=nic-type=GVNIC and an image whose kernel has "
			    "the gve driver"));
		ev_cloud(c, f);
	}
	if ((gpu_named(c, "H100") || gpu_named(c, "H200")) && !active_rdma(c, NULL, NULL)) {
		const char *state = c->m->stack.net_plugin_state;
		int tcpx = 0;

		for (size_t i = 0; i < c->m->nenv; i++) {
			const char *k = c->m->env[i].name;

			if (!strncmp(k, "NCCL_FASTRAK_", 13) || !strncmp(k, "NCCL_GPUDIRECTTCPX_", 19))
				tcpx = 1;
		}
		if (!(state && !strcmp(state, "loads")) && !tcpx) {
			f = finding_add(c->out, SEV_WARN, "cloud.gcp.tcpx",
					"GCP H100/H200 VM without GPUDirect-TCPX/TCPXO: NCCL will use plain TCP sockets");
			finding_why(f, "A3 VMs move GPU traffic over their extra NICs only through Google's "
				    "GPUDirect-TCPX (A3 High) or TCPXO (A3 Mega) NCCL plugin; without it NCCL falls "
				    "back to TCP (about 4 GB/s against about 340 GB/s with TCPXO, per NVIDIA's GKE "
				    "guide). A3 Ultra and A4 use RDMA NICs instead, and none is active here.");
			finding_fix(f, N_("source /var/lib/tcpxo/lib64/nccl-env-profile.sh   # A3 Mega (TCPXO), as "
				    "Google's cluster-toolkit scripts do"));
			finding_fix(f, N_("export LD_LIBRARY_PATH=/usr/local/tcpx/lib64:$LD_LIBRARY_PATH   # A3 High "
				    "(TCPX), plus the NCCL_GPUDIRECTTCPX_* settings of Google's guide"));
			finding_evidence(f, "nccl.net_plugin.state = %s", str_or(state, "?"));
			ev_cloud(c, f);
		}
	}
	strbuf_release(&all);
	strbuf_release(&big);
	strbuf_release(&virtio);
	strbuf_release(&self);
}

/* ---- Azure ---- */

static void azure(struct cloud *c)
{
	struct strbuf ib = STRBUF_INIT;
	const struct nccl_setting *topo;
	const char *nd = gpu_named(c, "A100") ? "ndv4" : (gpu_named(c, "H100") || gpu_named(c, "H200")) ? "ndv5" : NULL;
	struct finding *f;

	if (!is(c, "azure") || !active_rdma(c, "InfiniBand", &ib))
		goto out;
	topo = node_model_setting(c->m, "NCCL_TOPO_FILE");
	if (topo) {
		f = finding_add(c->out, SEV_OK, "cloud.azure.nccl_conf", "Azure InfiniBand with NCCL_TOPO_FILE=%s (from %s)",
				topo->value, topo->source);
		goto ev;
	}
	f = finding_add(c->out, SEV_INFO, "cloud.azure.nccl_conf",
			"Azure InfiniBand (%s) without the HPC image's NCCL settings: no NCCL_TOPO_FILE", ib.buf);
	finding_why(f, "Azure's HPC images write /etc/nccl.conf with NCCL_TOPO_FILE=/opt/microsoft/<sku>/topo.xml, "
		    "NCCL_IB_PCI_RELAXED_ORDERING=1 and NCCL_IGNORE_CPU_AFFINITY=1. In a VM the PCI topology NCCL "
		    "detects is virtual; without the file NCCL may pair GPUs with distant NICs and run slower (a "
		    "third-party report).%s",
		    c->kind && strcmp(c->kind, "none") ? " In a container, /etc/nccl.conf is the image's, not the "
							"host's: mount the host's file and /opt/microsoft." : "");
	finding_fix(f, N_("ls /opt/microsoft/*/topo.xml   # the file for this VM size%s"),
		    nd ? "" : ": add NCCL_TOPO_FILE=that path to /etc/nccl.conf");
	if (nd)
		finding_fix(f, "printf 'NCCL_TOPO_FILE=/opt/microsoft/%s/topo.xml\\nNCCL_IB_PCI_RELAXED_ORDERING=1"
			    "\\nNCCL_IGNORE_CPU_AFFINITY=1\\n' | sudo tee -a /etc/nccl.conf", nd);
	else
		finding_fix(f, "printf 'NCCL_IB_PCI_RELAXED_ORDERING=1\\nNCCL_IGNORE_CPU_AFFINITY=1\\n' | sudo tee "
			    "-a /etc/nccl.conf");
	if (nd)
		finding_setting(f, WHERE_NCCL_CONF, SCOPE_NODE, "NCCL_TOPO_FILE", "/opt/microsoft/%s/topo.xml", nd);
	finding_setting(f, WHERE_NCCL_CONF, SCOPE_NODE, "NCCL_IB_PCI_RELAXED_ORDERING", "1");
	finding_setting(f, WHERE_NCCL_CONF, SCOPE_NODE, "NCCL_IGNORE_CPU_AFFINITY", "1");
ev:
	finding_evidence(f, "active InfiniBand RDMA devices: %s", ib.buf);
	ev_cloud(c, f);
out:
	strbuf_release(&ib);
}

/* ---- OCI ---- */

static void oci(struct cloud *c)
{
	const char *dr = c->m->default_ifname;
	const struct nm_rdma *r = &c->m->rdma;
	struct strbuf roce = STRBUF_INIT, hca = STRBUF_INIT;
	struct finding *f;

	if (!is(c, "oci") || !active_rdma(c, "Ethernet", &roce) || setting(c, "NCCL_IB_HCA"))
		goto out;
	/* the GPU fabric's devices: active RoCE devices other than the one behind the default route */
	for (int d = 0; d < r->ndevices; d++) {
		int front = 0, act = 0;

		for (const char *const *nd = r->dev_netdevs[d]; *nd; nd++)
			front |= dr && !strcmp(*nd, dr);
		for (size_t j = 0; j < r->nports; j++)
			act |= r->ports[j].dev_index == d && r->ports[j].state &&
			       !strcmp(r->ports[j].state, "ACTIVE");
		if (act && !front)
			strbuf_addf(&hca, "%s%s", hca.len ? "," : "", str_or(r->dev_names[d], "?"));
	}
	f = finding_add(c->out, SEV_INFO, "cloud.oci.roce", "OCI RoCE (%s) without NCCL_IB_HCA: Oracle's sample settings",
			roce.buf);
	finding_why(f, "Oracle's H100 sample job names the GPU fabric's devices in NCCL_IB_HCA (leaving out the "
		    "front-end NIC) and sets NCCL_IB_TC=41, NCCL_IB_SL=0, NCCL_IB_TIMEOUT=22 and "
		    "NCCL_IB_QPS_PER_CONNECTION=16; NCCL_IB_GID_INDEX=3 is needed only before NCCL 2.21, which picks "
		    "the GID itself. Vendor sample values, not NCCL defaults.");
	if (hca.len) {
		finding_fix(f, "export NCCL_IB_HCA==%s NCCL_IB_TC=41 NCCL_IB_SL=0 NCCL_IB_TIMEOUT=22 "
			    "NCCL_IB_QPS_PER_CONNECTION=16", hca.buf);
		finding_setting(f, WHERE_ENV, SCOPE_NODE, "NCCL_IB_HCA", "=%s", hca.buf);
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_TC", "41");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_SL", "0");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_TIMEOUT", "22");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_QPS_PER_CONNECTION", "16");
	}
	if (c->nccl && version_cmp_str(c->nccl, "2.21") < 0) {
		finding_fix(f, N_("export NCCL_IB_GID_INDEX=3   # NCCL %s is older than 2.21"), c->nccl);
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_IB_GID_INDEX", "3");
	}
	finding_evidence(f, "active RoCE devices: %s; front-end interface %s", roce.buf, str_or(dr, "?"));
	ev_cloud(c, f);
out:
	strbuf_release(&roce);
	strbuf_release(&hca);
}

/* ---- containers ---- */

/* Every non-loopback interface with an address is a veth: a bridged container or a pod network. */
static int veth_only(const struct cloud *c, const char **first)
{
	int veth = 0;

	for (size_t i = 0; i < c->m->nifaces; i++) {
		const struct nm_iface *it = &c->m->ifaces[i];
		const char *k = it->kind;

		if (!it->naddrs || (k && !strcmp(k, "loopback")))
			continue;
		if (!k || strcmp(k, "veth"))
			return 0;
		if (!veth++)
			*first = it->name;
	}
	return veth > 0;
}

/*
 * The interface NCCL bootstraps on here (NCCL_SOCKET_IFNAME honoured), when it is one of the
 * veths; else the first veth.
 */
static const char *nccl_veth(const struct cloud *c, const char *first)
{
	const struct ifs_addr *b = c->m->have_ifs ? c->m->pred.boot : NULL;
	const struct nm_iface *it = b ? iface(c, b->name) : NULL;

	return it && it->kind && !strcmp(it->kind, "veth") ? it->name : first;
}

static void containers(struct cloud *c)
{
	const char *first = NULL, *netns = c->m->cloud.container_netns;
	struct finding *f;
	int loop = 0;

	if (!c->kind)
		return;
	loop = c->m->master.resolved && addr_classify_text(c->m->master.resolved) == ADDR_LOOPBACK;
	/*
	 * A network namespace made inside the container (ip netns, a lab node) is not the
	 * runtime's bridge: its veths lead wherever their maker wired them, which the link tests,
	 * not the container's markers, can tell.
	 */
	if ((!strcmp(c->kind, "docker") || !strcmp(c->kind, "podman")) && veth_only(c, &first) &&
	    !loop && !(netns && !strcmp(netns, "nested"))) {
		const char *nic = nccl_veth(c, first);
		const struct nm_iface *fi = iface(c, nic);

		f = finding_add(c->out, SEV_WARN, "cloud.container.bridge",
				"a %s container on a bridge network: other nodes cannot reach NCCL here at %s %s",
				c->kind, str_or(nic, "?"), str_or(fi ? fi->first_addr : NULL, "?"));
		finding_why(f, "Inside a bridged container NCCL only sees the container's own interface and "
			    "advertises its address, which other hosts cannot route to; its listeners take random "
			    "ports from the container's ip_local_port_range, which -p cannot publish. Fine for one "
			    "node; multi-node NCCL needs the host's network.");
		finding_fix(f, N_("%s run --network host ...   # the container uses the host's interfaces"), c->kind);
		finding_evidence(f, "host.container.kind = %s (%s)", c->kind,
				 str_or(c->m->cloud.container_evidence, "?"));
		finding_evidence(f, "every interface with an address is a veth; NCCL's is %s",
				 str_or(nic, "?"));
		if (netns)
			finding_evidence(f, "host.container.netns = %s (this process's network "
					 "namespace is the container's own)", netns);
	}
	if (!strcmp(c->kind, "kubernetes") && veth_only(c, &first)) {
		struct strbuf rd = STRBUF_INIT;
		int nr = active_rdma(c, NULL, &rd);

		f = finding_add(c->out, SEV_INFO, "cloud.k8s.pod_network",
				"a Kubernetes pod on the pod network (%s is a veth): NCCL runs over the CNI", str_or(first, "?"));
		finding_why(f, "Pod addresses are routable between nodes, so NCCL's sockets work, but through the "
			    "CNI's overlay or NAT: lower bandwidth and often a smaller MTU. RDMA devices (EFA, "
			    "InfiniBand, eRDMA) are usable only with hostNetwork or an RDMA device plugin with "
			    "Multus/SR-IOV.%s", nr ? " RDMA ports are active in this pod, so a device plugin is in use." : "");
		finding_fix(f, N_("hostNetwork: true   # in the pod spec, with dnsPolicy: ClusterFirstWithHostNet"));
		finding_evidence(f, "host.container.kind = kubernetes (%s)",
				 str_or(c->m->cloud.container_evidence, "?"));
		strbuf_release(&rd);
	}
}

void rule_cloud(const struct node_model *m, struct findings *out)
{
	struct cloud c;

	memset(&c, 0, sizeof(c));
	c.m = m;
	c.out = out;
	c.provider = m->cloud.provider;
	c.evidence = m->cloud.evidence;
	c.kind = m->cloud.container;
	/* the model's one decision; a guessed default says nothing about this node's NCCL */
	c.nccl = m->nccl.assumed ? NULL : m->nccl.version;
	c.port_lo = m->ports.lo;
	c.port_hi = m->ports.hi;
	c.master_port = m->master.port;
	aws(&c);
	alibaba(&c);
	lingjun(&c);
	autodl(&c);
	gcp(&c);
	azure(&c);
	oci(&c);
	containers(&c);
}
