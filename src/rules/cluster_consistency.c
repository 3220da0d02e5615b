/*
 * Cross-node consistency: what must be the same on every node and is not (the NCCL each node
 * loads, torch, NCCL_* settings that NCCL requires to agree, IB present on some nodes only), and
 * what collides between nodes (host names, addresses such as docker0's 172.17.0.1 everywhere).
 */
#include "rules/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

typedef const char *(*node_str_fn)(const struct node_model *m);

static const char *get_nccl(const struct node_model *m)
{
	return m->nccl.assumed ? NULL : m->nccl.version;
}

static const char *get_torch(const struct node_model *m)
{
	return m->stack.torch ? m->stack.torch->torch : NULL;
}

static const char *get_torch_cuda(const struct node_model *m)
{
	return m->stack.torch ? m->stack.torch->torch_cuda : NULL;
}

static const char *get_lightning(const struct node_model *m)
{
	return m->stack.torch ? m->stack.torch->lightning : NULL;
}

static const char *get_python(const struct node_model *m)
{
	return m->stack.torch ? m->stack.torch->version : NULL;
}

static const char *get_driver(const struct node_model *m)
{
	return m->stack.driver;
}

/* Distinct non-NULL values of `get` over the nodes, most common first. */
struct tally {
	const char *value[64];
	size_t count[64];
	size_t n;
};

static void tally_add(struct tally *t, const char *value)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->value[i], value)) {
			t->count[i]++;
			break;
		}
	if (i == t->n && t->n < ARRAY_SIZE(t->value)) {
		t->value[t->n] = value;
		t->count[t->n++] = 1;
	}
	/* keep the majority first: it is what the fix aligns the others to */
	for (i = t->n - 1; i > 0 && t->count[i] > t->count[i - 1]; i--) {
		const char *v = t->value[i];
		size_t c = t->count[i];
		t->value[i] = t->value[i - 1];
		t->count[i] = t->count[i - 1];
		t->value[i - 1] = v;
		t->count[i - 1] = c;
	}
}

static void tally_nodes(const struct cluster_view *v, node_str_fn get, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < v->n; i++) {
		const char *s = get(v->nodes[i].m);
		if (s)
			tally_add(t, s);
	}
}

/* "2.28.9 on n0, n2; 2.27.3 on n1" */
static void describe(const struct cluster_view *v, node_str_fn get, const struct tally *t,
		     struct strbuf *sb)
{
	for (size_t k = 0; k < t->n; k++) {
		int first = 1;

		strbuf_addf(sb, "%s%s on ", k ? "; " : "", t->value[k]);
		for (size_t i = 0; i < v->n; i++) {
			const char *s = get(v->nodes[i].m);
			if (s && !strcmp(s, t->value[k])) {
				strbuf_addf(sb, "%s%s", first ? "" : ", ", v->nodes[i].name);
				first = 0;
			}
		}
	}
}

struct version_check {
	const char *what;
	node_str_fn get;
	const char *id;
	enum severity sev;
	const char *why;
	const char *fix;	/* "%s": the majority value */
};

static const struct version_check version_checks[] = {
	{
		.what = "the NCCL that torch loads", .get = get_nccl, .id = "cluster.versions.nccl",
		.sev = SEV_ERROR,
		.why = "Every rank must run the same NCCL: versions differ in their wire protocol and "
		       "init handshake, and a mix hangs at init or fails with 'remote process exited "
		       "or there was a network error' / ncclInternalError.",
		.fix = "make every node load NCCL %s: install the same torch build (its wheel brings "
		       "nvidia-nccl) on every node, or point LD_LIBRARY_PATH at one libnccl",
	},
	{
		.what = "torch", .get = get_torch, .id = "cluster.versions.torch", .sev = SEV_ERROR,
		.why = "DDP exchanges pickled state and the c10d store protocol between ranks; "
		       "different torch versions on the nodes break at rendezvous or in the first "
		       "collective.",
		.fix = "pip install torch==%s (the same build, same CUDA) on every node",
	},
	{
		.what = "torch's CUDA build", .get = get_torch_cuda, .id = "cluster.versions.cuda",
		.sev = SEV_WARN,
		.why = "torch wheels of different CUDA builds bring different NCCL and cuDNN copies.",
		.fix = "install the same torch CUDA build (cu%s) on every node",
	},
	{
		.what = "Lightning", .get = get_lightning, .id = "cluster.versions.lightning",
		.sev = SEV_WARN,
		.why = "Lightning's launcher and strategy defaults change between versions; nodes "
		       "that disagree start differently (environment detection, ranks).",
		.fix = "pip install lightning==%s on every node",
	},
	{
		.what = "Python", .get = get_python, .id = "cluster.versions.python", .sev = SEV_WARN,
		.why = "Checkpoints and pickled objects may not load across Python versions.",
		.fix = "use Python %s on every node",
	},
	{
		.what = "the NVIDIA driver", .get = get_driver, .id = "cluster.versions.driver",
		.sev = SEV_WARN,
		.why = "Different drivers usually work together, but they support different CUDA "
		       "versions and fix different NCCL-relevant bugs; a failure on one node only is "
		       "then hard to read.",
		.fix = "install driver %s on every node",
	},
};

/*
 * NCCL 2.32's socket encryption, per node (model/node.c node_model_nccl_tls): a program that sets
 * a key runs only where every node can encrypt, and an encrypting node drops plaintext peers.
 * Whether the program sets one is not known, so a difference is a warning, never an accusation.
 */
static void nccl_tls_differs(const struct cluster_view *v, struct findings *out)
{
	enum nm_tls first = NM_TLS_UNKNOWN;
	int differ = 0, no_libssl = 0;
	struct finding *f;

	for (size_t i = 0; i < v->n; i++) {
		enum nm_tls t = node_model_nccl_tls(v->nodes[i].m);

		if (t == NM_TLS_UNKNOWN)
			continue;
		differ |= first != NM_TLS_UNKNOWN && t != first;
		no_libssl |= t == NM_TLS_NO_LIBSSL;
		if (first == NM_TLS_UNKNOWN)
			first = t;
	}
	if (!differ)
		return;
	f = finding_add(out, SEV_WARN, "cluster.nccl.tls",
			"NCCL's socket encryption differs between nodes: a job that calls "
			"ncclSetEncryption cannot start on all of them");
	finding_why(f, "NCCL 2.32 encrypts its TCP sockets only when the program calls "
		    "ncclSetEncryption() with a pre-shared key (no environment variable does it; "
		    "torch's NCCL backend is not known to call it). If the job does, a node built "
		    "without TLS or without OpenSSL 3 fails to start, and the nodes that encrypt drop "
		    "its connections ('TLS handshake from ... failed, discarding peer connection'). "
		    "A job that does not encrypt is not affected.");
	for (size_t i = 0; i < v->n; i++) {
		const struct node_model *m = v->nodes[i].m;
		const struct nm_nccl_lib *l = node_model_loaded_lib(m);

		finding_evidence(f, "%s: %s%s%s", v->nodes[i].name, nm_tls_words(node_model_nccl_tls(m)),
				 l ? " at " : "", l ? str_or(l->realpath, l->path) : "");
	}
	finding_fix(f, N_("# load the same NCCL build on every node (one nvidia-nccl wheel or one "
		    "libnccl2 package)%s"), no_libssl ? ", and where libssl.so.3 does not load:" : "");
	for (size_t i = 0; no_libssl && i < v->n; i++)
		if (node_model_nccl_tls(v->nodes[i].m) == NM_TLS_NO_LIBSSL)
			finding_fix(f, N_("on %s: apt-get install -y libssl3   # RHEL-like: dnf install -y "
				    "openssl-libs"), v->nodes[i].name);
}

void xrule_versions(const struct cluster_view *v, struct findings *out)
{
	int differ = 0;

	for (size_t c = 0; c < ARRAY_SIZE(version_checks); c++) {
		const struct version_check *vc = &version_checks[c];
		struct strbuf sb = STRBUF_INIT;
		struct tally t;
		struct finding *f;
		enum severity sev = vc->sev;

		tally_nodes(v, vc->get, &t);
		if (t.n < 2)
			continue;
		/* torch patch releases talk to each other; only major.minor is an error */
		if (vc->get == get_torch) {
			struct version a, b;
			if (!version_parse(t.value[0], &a) && !version_parse(t.value[1], &b) &&
			    a.part[0] == b.part[0] && a.part[1] == b.part[1])
				sev = SEV_WARN;
		}
		differ = 1;
		describe(v, vc->get, &t, &sb);
		f = finding_add(out, sev, vc->id, "%s differs between nodes: %s", vc->what, sb.buf);
		finding_why(f, "%s", vc->why);
		finding_fix(f, vc->fix, t.value[0]);
		for (size_t i = 0; i < v->n; i++) {
			const char *s = vc->get(v->nodes[i].m);
			finding_evidence(f, "%s: %s", v->nodes[i].name, s ? s : "(none found)");
		}
		strbuf_release(&sb);
	}
	nccl_tls_differs(v, out);
	if (!differ && v->n > 1) {
		struct tally t;

		tally_nodes(v, get_nccl, &t);
		finding_add(out, SEV_OK, "cluster.versions.same",
			    "the same driver, NCCL, torch and Lightning on all %zu nodes%s%s%s", v->n,
			    t.n ? " (NCCL " : "", t.n ? t.value[0] : "", t.n ? ")" : "");
	}
}

/* NCCL_* settings that must agree on every rank, or NCCL fails or hangs. */
static const char *const must_match[] = {
	"NCCL_SOCKET_MAGIC", "NCCL_NET", "NCCL_NET_PLUGIN", "NCCL_IB_DISABLE", "NCCL_PROTO",
	"NCCL_ALGO", "NCCL_SOCKET_FAMILY", "NCCL_COLLNET_ENABLE", "NCCL_NVLS_ENABLE",
	"NCCL_CROSS_NIC", "NCCL_BUFFSIZE", "NCCL_NSOCKS_PERTHREAD", "NCCL_SOCKET_NTHREADS",
};

/* Settings that name something of the node itself: different values are the point. */
static int per_node(const char *name)
{
	static const char *const names[] = {
		"NCCL_SOCKET_IFNAME",	/* judged by the verdict */
		"NCCL_HOSTID",		/* what makes two nodes two hosts to NCCL */
		"NCCL_IB_HCA",		/* device names may differ between instance types */
		"NCCL_TOPO_FILE", "NCCL_TOPO_DUMP_FILE", "NCCL_DEBUG_FILE",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

static const char *setting_value(const struct node_model *m, const char *name)
{
	const struct nccl_setting *s = node_model_setting(m, name);

	return s ? s->value : NULL;
}

static int active_rdma(const struct node_model *m)
{
	const char *dis = setting_value(m, "NCCL_IB_DISABLE");

	if (dis && strcmp(dis, "0"))
		return 0;
	for (size_t i = 0; i < m->rdma.nports; i++)
		if (m->rdma.ports[i].state && !strcmp(m->rdma.ports[i].state, "ACTIVE"))
			return 1;
	return 0;
}

static void settings_differ(const struct cluster_view *v, struct findings *out)
{
	/* every NCCL_* name any node sets */
	const char *names[128];
	size_t nn = 0;

	for (size_t i = 0; i < v->n; i++) {
		const struct nccl_settings *s = &v->nodes[i].m->settings;
		for (size_t k = 0; k < s->n && nn < ARRAY_SIZE(names); k++) {
			size_t j;
			if (!s->v[k].effective || per_node(s->v[k].name))
				continue;
			for (j = 0; j < nn && strcmp(names[j], s->v[k].name); j++)
				;
			if (j == nn)
				names[nn++] = s->v[k].name;
		}
	}
	for (size_t j = 0; j < nn; j++) {
		const char *first = setting_value(v->nodes[0].m, names[j]);
		int same = 1, must = 0;
		struct finding *f;

		for (size_t i = 1; i < v->n && same; i++) {
			const char *x = setting_value(v->nodes[i].m, names[j]);
			same = (!x && !first) || (x && first && !strcmp(x, first));
		}
		if (same)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(must_match); k++)
			must |= !strcmp(must_match[k], names[j]);
		f = finding_add(out, must ? SEV_ERROR : SEV_WARN,
				!strcmp(names[j], "NCCL_SOCKET_MAGIC") ? "cluster.env.socket_magic"
								       : "cluster.env.differs",
				"%s is not the same on every node", names[j]);
		finding_why(f, must ? "NCCL requires this setting to agree on every rank: ranks that "
				      "disagree fail at init, refuse each other's connections or hang."
				    : "Nodes that run with different NCCL settings behave differently; "
				      "a problem on one node then looks like a network fault.");
		for (size_t i = 0; i < v->n; i++) {
			const struct nccl_setting *s = node_model_setting(v->nodes[i].m, names[j]);
			finding_evidence(f, "%s: %s", v->nodes[i].name,
					 s ? s->value : "(unset)");
		}
		/* only what NCCL needs equal becomes a setting; the rest is for a person to decide */
		if (must && first)
			finding_export(f, names[j], "%s", first);
		else if (must)
			finding_setting(f, WHERE_ENV, SCOPE_ALL, names[j], NULL);
		if (must && !first)
			finding_fix(f, "unset %s on every node (node %s runs without it)", names[j],
				    v->nodes[0].name);
		else if (!must)
			finding_fix(f, N_("decide which value %s should have and set it the same way on "
				       "every node"), names[j]);
	}
}

static void ifname_partial(const struct cluster_view *v, struct findings *out)
{
	struct strbuf bad = STRBUF_INIT;
	size_t nbad = 0, nset = 0;
	const char *value = NULL;
	struct finding *f;

	for (size_t i = 0; i < v->n; i++) {
		const struct node_model *m = v->nodes[i].m;
		if (!m->have_ifs || !m->pred.ifname_set)
			continue;
		nset++;
		if (m->pred.socket_status == IFS_NONE || m->pred.boot_status == IFS_NONE) {
			strbuf_addf(&bad, "%s%s", nbad ? ", " : "", v->nodes[i].name);
			nbad++;
			value = setting_value(m, "NCCL_SOCKET_IFNAME");
		}
	}
	/* on every node at once it is a node finding (net.ifname.nomatch) */
	if (nbad && nbad < v->n) {
		f = finding_add(out, SEV_ERROR, "cluster.ifname.missing",
				"NCCL_SOCKET_IFNAME=%s matches no interface on %s, but does on the "
				"other node%s", value ? value : "?", bad.buf,
				v->n - nbad == 1 ? "" : "s");
		finding_why(f, "Interface names differ between the nodes, so one value does not fit "
			       "all of them: NCCL fails its init on the nodes where nothing matches.");
		for (size_t i = 0; i < v->n; i++) {
			const struct node_model *m = v->nodes[i].m;
			struct strbuf names = STRBUF_INIT;
			for (size_t k = 0; k < m->nifaces; k++)
				strbuf_addf(&names, "%s%s", k ? " " : "", m->ifaces[k].name);
			finding_evidence(f, "%s: interfaces %s", v->nodes[i].name, names.buf);
			strbuf_release(&names);
		}
		finding_fix(f, N_("use the value of cluster.verdict.ifname (it is proven on every node)"));
	}
	(void)nset;
	strbuf_release(&bad);
}

static void ib_partial(const struct cluster_view *v, struct findings *out)
{
	struct strbuf with = STRBUF_INIT, without = STRBUF_INIT;
	size_t n_with = 0;
	struct finding *f;

	for (size_t i = 0; i < v->n; i++) {
		struct strbuf *sb = active_rdma(v->nodes[i].m) ? &with : &without;
		n_with += sb == &with;
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", v->nodes[i].name);
	}
	if (n_with && n_with < v->n) {
		f = finding_add(out, SEV_ERROR, "cluster.ib.partial",
				"InfiniBand/RoCE is active on %s but not on %s", with.buf, without.buf);
		finding_why(f, "NCCL picks its network per node: nodes with an active RDMA port use "
			       "NET/IB, the others NET/Socket, and ranks on different transports cannot "
			       "connect (init fails or hangs).");
		finding_export(f, "NCCL_IB_DISABLE", "1");
		finding_fix(f, N_("or bring the RDMA ports up on %s (ibstat; the provider library, "
			       "rdma-core) and keep IB everywhere"), without.buf);
	}
	strbuf_release(&with);
	strbuf_release(&without);
}

void xrule_settings(const struct cluster_view *v, struct findings *out)
{
	settings_differ(v, out);
	ifname_partial(v, out);
	ib_partial(v, out);
}

static void duplicate_addresses(const struct cluster_view *v, struct findings *out)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct node_model *mi = v->nodes[i].m;

		for (size_t a = 0; a < mi->ifs.in.naddrs; a++) {
			const struct ifs_addr *ad = &mi->ifs.in.addrs[a];
			struct strbuf who = STRBUF_INIT;
			int used = cluster_nccl_uses(mi, ad->name), dup = 0, earlier = 0;
			struct finding *f;

			if (ad->family != 4 || ad->addr[0] == 127)
				continue;
			for (size_t j = 0; j < v->n; j++) {
				const struct node_model *mj = v->nodes[j].m;
				if (j == i)
					continue;
				for (size_t b = 0; b < mj->ifs.in.naddrs; b++) {
					const struct ifs_addr *bd = &mj->ifs.in.addrs[b];
					if (bd->family != 4 || memcmp(bd->addr, ad->addr, 4))
						continue;
					earlier |= j < i;
					dup = 1;
					used |= cluster_nccl_uses(mj, bd->name);
					strbuf_addf(&who, ", %s %s", v->nodes[j].name, bd->name);
				}
			}
			if (dup && !earlier) {
				f = finding_add(out, used ? SEV_ERROR : SEV_INFO, "cluster.ip.duplicate",
						"%s is the address of %s %s%s", ad->text, v->nodes[i].name,
						ad->name, who.buf);
				finding_why(f, used ? "NCCL would advertise this address from several "
						      "nodes: a peer that connects to it reaches itself "
						      "or the wrong node, and init hangs or fails."
						    : "The same address on several nodes (docker0's default "
						      "172.17.0.1 is the usual one) is harmless while NCCL "
						      "does not use that interface; it stays excluded by "
						      "NCCL's defaults and by the verdict's "
						      "NCCL_SOCKET_IFNAME.");
				if (used)
					finding_fix(f, "exclude %s from NCCL: use the value of "
						       "cluster.verdict.ifname", ad->name);
			}
			strbuf_release(&who);
		}
	}
}

void xrule_hosts(const struct cluster_view *v, struct findings *out)
{
	struct finding *f;

	for (size_t i = 0; i < v->n; i++) {
		const char *hi = v->nodes[i].m->hostname;
		struct strbuf who = STRBUF_INIT;
		int earlier = 0;

		if (!hi)
			continue;
		for (size_t j = 0; j < v->n; j++)
			if (j != i && v->nodes[j].m->hostname &&
			    !strcmp(v->nodes[j].m->hostname, hi)) {
				earlier |= j < i;
				strbuf_addf(&who, "%s rank %d", who.len ? "," : "", v->nodes[j].rank);
			}
		if (who.len && !earlier) {
			f = finding_add(out, SEV_WARN, "cluster.hostname.duplicate",
					"host name '%s' is used by node rank %d and %s", hi,
					v->nodes[i].rank, who.buf);
			finding_why(f, "NCCL tells hosts apart by host name plus boot id (or "
				       "NCCL_HOSTID): containers started from one image on one host "
				       "share both and are taken for one machine; a MASTER_ADDR or Slurm "
				       "node list that names the host is ambiguous too.");
			finding_fix(f, N_("give every node its own host name (hostnamectl set-hostname), "
				       "or set NCCL_HOSTID to a different value on each node"));
		}
		strbuf_release(&who);
	}
	duplicate_addresses(v, out);

	/* the interfaces the nodes talk over should carry the same MTU */
	{
		long lo = -1, hi = -1;
		struct strbuf ev = STRBUF_INIT;

		for (size_t i = 0; i < v->n; i++) {
			const char *ifn = node_model_cluster_ifname(v->nodes[i].m);
			const struct nm_iface *ifc = ifn ? node_model_iface(v->nodes[i].m, ifn) : NULL;
			if (!ifc || ifc->mtu <= 0)
				continue;
			lo = lo < 0 || ifc->mtu < lo ? ifc->mtu : lo;
			hi = ifc->mtu > hi ? ifc->mtu : hi;
			strbuf_addf(&ev, "%s%s %s mtu %ld", ev.len ? "; " : "", v->nodes[i].name, ifn,
				    ifc->mtu);
		}
		if (lo > 0 && lo != hi) {
			f = finding_add(out, SEV_WARN, "cluster.mtu.differs",
					"the nodes' interfaces have different MTUs (%ld to %ld)", lo, hi);
			finding_why(f, "TCP agrees on the smaller MSS per connection, but a larger MTU "
				       "on one side only hints at a path where big packets vanish; the "
				       "path-MTU test (cluster.mtu.*) says whether they do.");
			finding_evidence(f, "%s", ev.buf);
			/* the smallest: a larger MTU the path may not carry is what to take back */
			for (size_t i = 0; i < v->n; i++) {
				const char *ifn = node_model_cluster_ifname(v->nodes[i].m);
				const struct nm_iface *ifc = ifn ? node_model_iface(v->nodes[i].m, ifn)
								 : NULL;

				if (!ifc || ifc->mtu <= lo)
					continue;
				finding_fix(f, N_("# on %s"), v->nodes[i].name);
				finding_fix(f, "ip link set dev %s mtu %ld", ifn, lo);
			}
		}
		strbuf_release(&ev);
	}

	/* GPUs per node: Lightning's devices= and torchrun's --nproc_per_node are one number */
	{
		size_t lo = (size_t)-1, hi = 0;
		for (size_t i = 0; i < v->n; i++) {
			size_t g = v->nodes[i].m->ngpus;
			lo = g < lo ? g : lo;
			hi = g > hi ? g : hi;
		}
		if (lo != hi) {
			f = finding_add(out, SEV_WARN, "cluster.gpus.differs",
					"the nodes have different GPU counts (%zu to %zu)", lo, hi);
			finding_why(f, "torchrun's --nproc_per_node and Lightning's devices= are one "
				       "number for every node; with more it leaves GPUs idle, with fewer "
				       "ranks fail to find their device.");
			for (size_t i = 0; i < v->n; i++)
				finding_evidence(f, "%s: %zu GPU%s", v->nodes[i].name,
						 v->nodes[i].m->ngpus, v->nodes[i].m->ngpus == 1 ? "" : "s");
			finding_fix(f, "launch %zu process%s per node (devices=%zu), or give every node "
				       "the same GPUs", lo, lo == 1 ? "" : "es", lo);
		}
	}

	for (size_t i = 0; i < v->n; i++) {
		long long off = v->nodes[i].clock_offset_ms;

		if (!v->nodes[i].clock_known || (off < 0 ? -off : off) <= CLUSTER_CLOCK_SKEW_MS)
			continue;
		f = finding_add(out, SEV_WARN, "cluster.clock.skew",
				"%s's clock is %+.1f s off node rank 0's", v->nodes[i].name,
				(double)off / 1000.0);
		finding_node(f, v->nodes[i].name);
		finding_why(f, "NCCL does not need synchronised clocks, but logs of different nodes "
			       "no longer line up (a watchdog timeout looks like it came first on the "
			       "wrong node), and TLS or Kerberos-based storage may refuse the node.");
		finding_fix(f, N_("enable time sync on %s: timedatectl set-ntp true (or chronyd)"),
			    v->nodes[i].name);
	}
}
