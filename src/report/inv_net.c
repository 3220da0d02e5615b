/*
 * Inventory section for the network: interfaces with kind, state and address classes, the
 * default route, the route to MASTER_ADDR, the interfaces NCCL will use (the prediction of
 * rules/ifselect.c), the port range, open-files limit, firewall, RDMA and host-name resolution.
 */
#include "report/inventory.h"

#include <string.h>

#include "util/json.h"
#include "util/strbuf.h"

static void interfaces(FILE *out, const json_t *facts, const struct render_opts *o)
{
	const json_t *list = jpath(facts, "net.interfaces"), *it, *a;
	size_t i, j;
	int shown = 0, hidden = 0;

	if (junknown(list)) {
		inv_line(out, "interfaces", "unknown (%s)", junknown(list));
		return;
	}
	json_array_foreach(list, i, it) {
		struct strbuf sb = STRBUF_INIT;
		const json_t *addrs = json_object_get(it, "addrs");
		long long speed = jpath_int(it, "speed_mbps", -1);

		if (!o->verbose && !jpath_bool(it, "up", 0) && !json_array_size(addrs)) {
			hidden++;
			continue;
		}
		strbuf_addf(&sb, "%-10s %-8s %-12s mtu %-5lld", str_or(jpath_str(it, "name"), "-"), str_or(jpath_str(it, "kind"), "-"),
			    jpath_bool(it, "running", 0) ? "running" : jpath_bool(it, "up", 0) ? "up, no carrier" : "down",
			    jpath_int(it, "mtu", -1));
		if (speed > 0)
			strbuf_addf(&sb, " %lld Mb/s", speed);
		json_array_foreach(addrs, j, a)
			strbuf_addf(&sb, "%s%s/%lld (%s)", j ? ", " : "  ", str_or(jpath_str(a, "addr"), "-"),
				    jpath_int(a, "prefixlen", -1), str_or(jpath_str(a, "class"), "-"));
		strbuf_rtrim(&sb);
		inv_line(out, shown ? "" : "interfaces", "%s", sb.buf);
		strbuf_release(&sb);
		shown++;
	}
	if (!shown)
		inv_line(out, "interfaces", "none");
	if (hidden)
		inv_line(out, "", "(%d down without addresses; --verbose shows them)", hidden);
}

static void routes(FILE *out, const json_t *facts)
{
	const json_t *dr = jpath(facts, "net.default_route"), *m = jpath(facts, "net.master");

	if (junknown(dr))
		inv_line(out, "default route", "unknown (%s)", junknown(dr));
	else if (jpath_bool(dr, "present", 0))
		inv_line(out, "default route", "%s%s%s", str_or(jpath_str(dr, "ifname"), "-"), jpath_str(dr, "gateway") ? " via " : "",
			 jpath_str(dr, "gateway") ? jpath_str(dr, "gateway") : "");
	else if (dr)
		inv_line(out, "default route", "none");
	if (!m)
		return;
	if (!jpath_bool(m, "set", 0))
		inv_line(out, "MASTER_ADDR", "not set (pass --master-addr to check the route to rank 0)");
	else if (junknown(jpath(m, "resolved")))
		inv_line(out, "MASTER_ADDR", "%s: %s", str_or(jpath_str(m, "addr"), "-"), junknown(jpath(m, "resolved")));
	else if (junknown(jpath(m, "source_addr")))
		inv_line(out, "MASTER_ADDR", "%s: %s", str_or(jpath_str(m, "addr"), "-"), junknown(jpath(m, "source_addr")));
	else
		inv_line(out, "MASTER_ADDR", "%s%s%s: reached through %s (source %s)%s", str_or(jpath_str(m, "addr"), "-"),
			 strcmp(str_or(jpath_str(m, "addr"), "-"), str_or(jpath_str(m, "resolved"), "-")) ? " = " : "",
			 strcmp(str_or(jpath_str(m, "addr"), "-"), str_or(jpath_str(m, "resolved"), "-")) ? str_or(jpath_str(m, "resolved"), "-") : "",
			 str_or(jpath_str(m, "source_ifname"), "-"), str_or(jpath_str(m, "source_addr"), "-"),
			 jpath_bool(m, "local", 0) ? ", this node" : "");
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
	inv_line(out, "NCCL will use", "%s", sb.buf);
	inv_line(out, "", "(NCCL %s: %s)", m->nccl.version, m->nccl.why);
	strbuf_release(&sb);
}

static void limits(FILE *out, const json_t *facts)
{
	const json_t *r = jpath(facts, "sysctl.ip_local_port_range");

	if (json_is_array(r))
		inv_line(out, "ephemeral ports", "%lld-%lld (NCCL listens there; rmem_max %lld, wmem_max %lld)",
			 (long long)json_integer_value(json_array_get(r, 0)),
			 (long long)json_integer_value(json_array_get(r, 1)), jpath_int(facts, "sysctl.rmem_max", -1),
			 jpath_int(facts, "sysctl.wmem_max", -1));
	else if (junknown(r))
		inv_line(out, "ephemeral ports", "unknown (%s)", junknown(r));
	if (json_is_object(jpath(facts, "limits.nofile")) && !junknown(jpath(facts, "limits.nofile")))
		inv_line(out, "open files", "%lld (hard %lld)", jpath_int(facts, "limits.nofile.soft", -1),
			 jpath_int(facts, "limits.nofile.hard", -1));
}

static void firewall(FILE *out, const json_t *facts)
{
	const json_t *fw = jpath(facts, "firewall"), *s;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!fw)
		return;
	if (junknown(fw)) {
		inv_line(out, "firewall", "unknown (%s)", junknown(fw));
		return;
	}
	json_array_foreach(json_object_get(fw, "source"), i, s)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", str_or(json_string_value(s), "-"));
	inv_line(out, "firewall", "%zu rules in %zu chains (%s)", json_array_size(json_object_get(fw, "rules")),
		 json_array_size(json_object_get(fw, "chains")), sb.len ? sb.buf : "-");
	strbuf_release(&sb);
}

static void rdma(FILE *out, const json_t *facts)
{
	const json_t *r = jpath(facts, "rdma"), *d, *p;
	size_t i, j;
	int n = 0;

	if (!r)
		return;
	json_array_foreach(json_object_get(r, "devices"), i, d)
		json_array_foreach(json_object_get(d, "ports"), j, p) {
			inv_line(out, n++ ? "" : "RDMA", "%s port %lld: %s, %s, %s", str_or(jpath_str(d, "name"), "-"),
				 jpath_int(p, "port", -1), str_or(jpath_str(p, "state"), "-"), str_or(jpath_str(p, "rate"), "-"),
				 str_or(jpath_str(p, "link_layer"), "-"));
		}
	if (!n)
		inv_line(out, "RDMA", "none (/sys/class/infiniband is empty)");
	if (json_is_object(jpath(r, "verbs")))
		inv_line(out, "", "libibverbs %s%s%s; GPUDirect RDMA module %s",
			 jpath_bool(r, "verbs.loaded", 0) ? "loads from " : "does not load",
			 jpath_bool(r, "verbs.loaded", 0) ? str_or(jpath_str(r, "verbs.path"), "-") : "",
			 "", jpath_bool(r, "peermem.loaded", 0) ? str_or(jpath_str(r, "peermem.module"), "-") : "not loaded");
}

static void hostname(FILE *out, const json_t *facts)
{
	const json_t *h = jpath(facts, "hostname_resolution"), *a;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!h)
		return;
	if (junknown(h)) {
		inv_line(out, "host name", "unknown (%s)", junknown(h));
		return;
	}
	if (junknown(jpath(h, "addrs")))
		strbuf_addf(&sb, "unresolved (%s)", junknown(jpath(h, "addrs")));
	json_array_foreach(jpath(h, "addrs"), i, a)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", str_or(json_string_value(a), "-"));
	inv_line(out, "host name", "%s -> %s", str_or(jpath_str(h, "name"), "-"), sb.buf);
	strbuf_release(&sb);
}

void inv_net(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	const json_t *facts = m->facts;

	if (!jpath(facts, "net"))
		return;
	inv_heading(out, o, "Network");
	interfaces(out, facts, o);
	routes(out, facts);
	prediction(out, m);
	limits(out, facts);
	firewall(out, facts);
	rdma(out, facts);
	hostname(out, facts);
}
