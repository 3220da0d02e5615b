/* explain's payload: the per-rank extraction as JSON, beside the findings (see reason.h). */
#include <string.h>

#include "explain/reason_int.h"
#include "util/json.h"
#include "util/xalloc.h"

static json_t *jloc(const struct run_obs *x, struct loc l)
{
	char w[512];

	if (!l.line)
		return json_null();
	obs_loc_fmt(x, l, w, sizeof(w));
	return json_string(w);
}

static json_t *jstr_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *part_json(const struct run_obs *x, const struct part *p)
{
	const struct stream_obs *m = &p->m;
	json_t *o = json_object(), *t;

	json_object_set_new(o, "rank", p->rank >= 0 ? json_integer(p->rank) : json_null());
	jset_str(o, "label", p->label);
	json_object_set_new(o, "host", jstr_or_null(m->nhost));
	json_object_set_new(o, "pid", m->npid >= 0 ? json_integer(m->npid) : json_null());
	jset_int(o, "lines", (long long)m->lines);
	json_object_set_new(o, "nccl_version", jstr_or_null(m->nccl_version));
	if (m->boot_loc.line) {
		t = json_object();
		jset_str(t, "ifname", m->boot_if);
		jset_str(t, "addr", m->boot_addr);
		jset_str(t, "class", aclass_name(aclass_of(m->boot_if, m->boot_addr)));
		json_object_set_new(t, "where", jloc(x, m->boot_loc));
		json_object_set_new(o, "bootstrap", t);
	} else {
		json_object_set_new(o, "bootstrap", json_null());
	}
	t = json_array();
	for (int i = 0; i < m->nsock; i++) {
		json_t *s = json_object();
		jset_str(s, "ifname", m->sock[i].ifname);
		jset_str(s, "addr", m->sock[i].addr);
		json_array_append_new(t, s);
	}
	json_object_set_new(o, "net_socket", t);
	json_object_set_new(o, "net_ib", jstr_or_null(m->ib));
	json_object_set_new(o, "network", jstr_or_null(m->network));
	json_object_set_new(o, "nranks", m->nranks >= 0 ? json_integer(m->nranks) :
			    m->start_nranks >= 0 ? json_integer(m->start_nranks) : json_null());
	json_object_set_new(o, "nnodes", m->nnodes >= 0 ? json_integer(m->nnodes) : json_null());
	json_object_set_new(o, "local_ranks", m->local_ranks >= 0 ? json_integer(m->local_ranks) : json_null());
	t = json_object();
	json_object_set_new(t, "start", jloc(x, m->init_start));
	json_object_set_new(t, "complete", jloc(x, m->init_complete));
	json_object_set_new(t, "total_s", m->init_total >= 0 ? json_real(m->init_total) : json_null());
	json_object_set_new(o, "init", t);
	t = json_array();
	{
		static const struct { unsigned bit; const char *name; } tr[] = {
			{ TR_NET_SOCKET, "NET/Socket" }, { TR_NET_IB, "NET/IB" }, { TR_NET_OTHER, "NET/plugin" },
			{ TR_P2P, "P2P" }, { TR_SHM, "SHM" }, { TR_COLLNET, "CollNet" },
		};
		for (size_t i = 0; i < ARRAY_SIZE(tr); i++)
			if (m->transports & tr[i].bit)
				json_array_append_new(t, json_string(tr[i].name));
	}
	json_object_set_new(o, "transports", t);
	json_object_set_new(o, "transport_example", jstr_or_null(m->via_example));
	t = json_object();
	json_object_set_new(t, "initializing", jloc(x, m->pl_init));
	json_object_set_new(t, "registered", jloc(x, m->pl_registered));
	json_object_set_new(t, "global_rank", m->pl_rank >= 0 ? json_integer(m->pl_rank) : json_null());
	json_object_set_new(t, "world_size", m->pl_world >= 0 ? json_integer(m->pl_world) : json_null());
	json_object_set_new(o, "lightning", t);
	if (m->wd_count) {
		t = json_object();
		json_object_set_new(t, "seq", m->wd_seq >= 0 ? json_integer(m->wd_seq) : json_null());
		json_object_set_new(t, "op", jstr_or_null(m->wd_op));
		json_object_set_new(t, "timeout_ms", m->wd_timeout_ms >= 0 ? json_integer(m->wd_timeout_ms) : json_null());
		jset_int(t, "count", m->wd_count);
		json_object_set_new(t, "where", jloc(x, m->wd_loc));
		json_object_set_new(o, "watchdog", t);
	} else {
		json_object_set_new(o, "watchdog", json_null());
	}
	if (m->exc_loc.line) {
		t = json_object();
		jset_str(t, "text", m->exception);
		json_object_set_new(t, "where", jloc(x, m->exc_loc));
		json_object_set_new(o, "exception", t);
	} else {
		json_object_set_new(o, "exception", json_null());
	}
	if (m->last_loc.line) {
		t = json_object();
		jset_str(t, "text", m->last);
		json_object_set_new(t, "where", jloc(x, m->last_loc));
		json_object_set_new(o, "last_line", t);
	} else {
		json_object_set_new(o, "last_line", json_null());
	}
	return o;
}


json_t *rs_payload(const struct rs *r)
{
	const struct run_obs *x = r->x;
	json_t *payload = json_object();

	{
		json_t *ins = json_array(), *ranks = json_array(), *ifs = json_array(), *env = json_object();
		for (uint32_t i = 0; i < x->nin; i++) {
			json_t *o = json_object();
			jset_str(o, "name", x->in[i].name);
			jset_int(o, "lines", (long long)x->in[i].lines);
			jset_int(o, "bytes", (long long)x->in[i].bytes);
			jset_int(o, "long_lines", (long long)x->in[i].long_lines);
			json_array_append_new(ins, o);
		}
		json_object_set_new(payload, "inputs", ins);
		jset_int(payload, "lines", (long long)x->total_lines);
		jset_int(payload, "bytes", (long long)x->total_bytes);
		if (x->master[0]) {
			json_t *m = json_object();
			jset_str(m, "value", x->master);
			jset_str(m, "source", x->master_src);
			json_object_set_new(m, "where", jloc(x, x->master_loc));
			json_object_set_new(payload, "master_addr", m);
		} else {
			json_object_set_new(payload, "master_addr", json_null());
		}
		for (int i = 0; i < x->nifs; i++) {
			json_t *o = json_object();
			jset_str(o, "ifname", x->ifs[i].ifname);
			jset_str(o, "addr", x->ifs[i].addr);
			json_object_set_new(o, "prefix", x->ifs[i].prefix >= 0 ? json_integer(x->ifs[i].prefix) : json_null());
			json_array_append_new(ifs, o);
		}
		json_object_set_new(payload, "interfaces", ifs);
		for (int i = 0; i < x->nenv; i++)
			jset_str(env, x->env[i].name, x->env[i].value);
		json_object_set_new(payload, "nccl_env", env);
		for (size_t i = 0; i < r->np; i++)
			json_array_append_new(ranks, part_json(x, &r->p[i]));
		json_object_set_new(payload, "ranks", ranks);
		jset_int(payload, "untracked_lines", (long long)x->stream_overflow);
	}
	return payload;
}
