/*
 * Inventory section for the network: interfaces with kind, state and address classes, the
 * default route, the route to MASTER_ADDR, the interfaces NCCL will use (the prediction of
 * rules/ifselect.c), the port range, open-files limit, firewall, RDMA and host-name resolution.
 */
#include "report/inventory.h"

#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/wrap.h"

/*
 * The words of the interface table that are ncclcheck's own (a kind, a state, an address class),
 * each a msgid; names (veth, docker, ib, bond, vlan, tun) read the same in every language.
 */
static const char *const iface_words[] = {
	N_("physical"), N_("bridge"), N_("loopback"), N_("other"),
	N_("running"), N_("up, no carrier"), N_("down"),
	N_("unspecified"), N_("link-local"), N_("private"), N_("cgnat"), N_("documentation"),
	N_("multicast"), N_("public"), N_("unknown"),
};

static const char *iface_word(const char *w)
{
	for (size_t i = 0; w && i < sizeof(iface_words) / sizeof(iface_words[0]); i++)
		if (!strcmp(w, iface_words[i]))
			return _(iface_words[i]);
	return str_or(w, "-");
}

/* `text` padded with blanks to `cols` display columns (a Chinese word is two a character). */
static void add_col(struct strbuf *sb, const char *text, size_t cols)
{
	size_t w = wrap_cols(text, strlen(text));

	strbuf_addstr(sb, text);
	strbuf_addchars(sb, ' ', (w < cols ? cols - w : 0) + 1);
}

static void interfaces(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	int shown = 0, hidden = 0;

	if (m->ifaces_unknown) {
		inv_line(out, N_("interfaces"), N_("unknown (%s)"), m->ifaces_unknown);
		return;
	}
	for (size_t i = 0; i < m->nifaces; i++) {
		const struct nm_iface *it = &m->ifaces[i];
		struct strbuf sb = STRBUF_INIT;

		if (!o->verbose && !it->up && !it->naddrs) {
			hidden++;
			continue;
		}
		add_col(&sb, it->name, 10);
		add_col(&sb, iface_word(it->kind), 8);
		add_col(&sb, iface_word(it->running ? "running" : it->up ? "up, no carrier" : "down"), 12);
		strbuf_addf(&sb, "mtu %-5ld", it->mtu);
		if (it->speed_mbps > 0)
			strbuf_addf(&sb, " %ld Mb/s", it->speed_mbps);
		for (size_t j = 0; j < it->naddrs; j++)
			strbuf_addf(&sb, "%s%s/%ld (%s)", j ? ", " : "  ", str_or(it->addrs[j].addr, "-"),
				    it->addrs[j].prefixlen, iface_word(it->addrs[j].cls));
		strbuf_rtrim(&sb);
		inv_line(out, shown ? "" : N_("interfaces"), "%s", sb.buf);
		strbuf_release(&sb);
		shown++;
	}
	if (!shown)
		inv_line(out, N_("interfaces"), N_("none"));
	if (hidden)
		inv_line(out, "", N_("(%d down without addresses; --verbose shows them)"), hidden);
}

static void routes(FILE *out, const struct node_model *nm)
{
	const struct nm_route *dr = &nm->default_route;
	const struct nm_master *m = &nm->master;
	const char *addr = str_or(m->addr, "-"), *resolved = str_or(m->resolved, "-");

	if (dr->unknown)
		inv_line(out, N_("default route"), N_("unknown (%s)"), dr->unknown);
	else if (dr->present)
		inv_line(out, N_("default route"), "%s%s%s", str_or(dr->ifname, "-"),
			 dr->gateway ? " via " : "", dr->gateway ? dr->gateway : "");
	else if (dr->recorded)
		inv_line(out, N_("default route"), N_("none"));
	if (!m->recorded)
		return;
	if (!m->set)
		inv_line(out, N_("MASTER_ADDR"), N_("not set (pass --master-addr to check the route to rank 0)"));
	else if (m->resolve_error)
		inv_line(out, N_("MASTER_ADDR"), "%s: %s", addr, m->resolve_error);
	else if (m->route_error)
		inv_line(out, N_("MASTER_ADDR"), "%s: %s", addr, m->route_error);
	else
		inv_line(out, N_("MASTER_ADDR"), m->local ? N_("%s%s%s: reached through %s (source %s), "
							      "this node") :
			 N_("%s%s%s: reached through %s (source %s)"), addr,
			 strcmp(addr, resolved) ? " = " : "", strcmp(addr, resolved) ? resolved : "",
			 str_or(m->ifname, "-"), str_or(m->source_addr, "-"));
}

/* The model's prediction (the same one the net.nccl.bootstrap finding states). */
static void prediction(FILE *out, const struct node_model *m)
{
	const struct ifs_result *r = &m->pred;
	struct strbuf sb = STRBUF_INIT;

	if (!m->have_ifs)
		return;
	if (r->boot_status == IFS_OK)
		strbuf_addf(&sb, "bootstrap %s %s", r->boot->name, r->boot->text);
	else
		strbuf_addstr(&sb, r->boot_status == IFS_UNRESOLVED ? "bootstrap unknown" : "bootstrap FAILS");
	strbuf_addstr(&sb, "; NET/Socket ");
	for (int i = 0; i < r->sockets.n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", r->sockets.v[i]->name);
	if (!r->sockets.n)
		strbuf_addstr(&sb, r->socket_status == IFS_UNRESOLVED ? "unknown" : "none");
	inv_line(out, N_("NCCL will use"), "%s", sb.buf);
	inv_line(out, "", N_("(modelled on NCCL %s: %s)"), m->nccl.version, m->nccl.why);
	strbuf_release(&sb);
}

static void limits(FILE *out, const struct node_model *m)
{
	if (m->ports.known)
		inv_line(out, N_("ephemeral ports"), N_("%ld-%ld (NCCL listens there; rmem_max %lld, wmem_max %lld)"),
			 m->ports.lo, m->ports.hi, m->limits.rmem_max, m->limits.wmem_max);
	else if (m->ports.unknown)
		inv_line(out, N_("ephemeral ports"), N_("unknown (%s)"), m->ports.unknown);
	/* a member not recorded shows as -1 (the model keeps -2 for "unknown") */
	if (m->limits.nofile_known)
		inv_line(out, N_("open files"), _("%lld (hard %lld)"),
			 m->limits.nofile_soft == -2 ? -1 : m->limits.nofile_soft,
			 m->limits.nofile_hard == -2 ? -1 : m->limits.nofile_hard);
}

static void firewall(FILE *out, const struct node_model *m)
{
	struct strbuf sb = STRBUF_INIT;

	if (!m->fw_recorded)
		return;
	if (m->fw_unknown) {
		inv_line(out, N_("firewall"), N_("unknown (%s)"), m->fw_unknown);
		return;
	}
	for (size_t i = 0; i < m->fw_nsources; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", str_or(m->fw_sources[i], "-"));
	inv_line(out, N_("firewall"), N_("%zu rules in %zu chains (%s)"), m->fw_nrules, m->fw_nchains,
		 sb.len ? sb.buf : "-");
	strbuf_release(&sb);
}

static void rdma(FILE *out, const struct nm_rdma *r)
{
	int n = 0;

	if (!r->recorded)
		return;
	for (size_t i = 0; i < r->nports; i++) {
		const struct nm_rdma_port *p = &r->ports[i];

		inv_line(out, n++ ? "" : N_("RDMA"), "%s port %ld: %s, %s, %s", str_or(p->dev, "-"),
			 p->port_known ? p->port : -1, str_or(p->state, "-"), str_or(p->rate, "-"),
			 str_or(p->link_layer, "-"));
	}
	if (!n)
		inv_line(out, N_("RDMA"), N_("none (/sys/class/infiniband is empty)"));
	if (r->verbs_probed)
		inv_line(out, "", r->verbs_loaded == 1 ?
			 (r->peermem_loaded ? N_("libibverbs loads from %s; GPUDirect RDMA module %s") :
			  N_("libibverbs loads from %s; GPUDirect RDMA module not loaded")) :
			 (r->peermem_loaded ? N_("libibverbs does not load%s; GPUDirect RDMA module %s") :
			  N_("libibverbs does not load%s; GPUDirect RDMA module not loaded")),
			 r->verbs_loaded == 1 ? str_or(r->verbs_path, "-") : "",
			 r->peermem_loaded ? str_or(r->peermem_module, "-") : "");
}

static void hostname(FILE *out, const struct nm_hostname *h)
{
	struct strbuf sb = STRBUF_INIT;

	if (!h->recorded)
		return;
	if (h->unknown) {
		inv_line(out, N_("host name"), N_("unknown (%s)"), h->unknown);
		return;
	}
	if (h->addrs_unknown)
		strbuf_addf(&sb, "unresolved (%s)", h->addrs_unknown);
	for (size_t i = 0; i < h->naddrs; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", str_or(h->addrs[i], "-"));
	inv_line(out, N_("host name"), "%s -> %s", str_or(h->name, "-"), sb.buf);
	strbuf_release(&sb);
}

void inv_net(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	if (!m->net_recorded)
		return;
	inv_heading(out, o, N_("Network"));
	interfaces(out, m, o);
	routes(out, m);
	prediction(out, m);
	limits(out, m);
	firewall(out, m);
	rdma(out, &m->rdma);
	hostname(out, &m->hostname_res);
}
