/*
 * The recommendation: what the writers write, built once from the findings' settings[], the
 * facts' numbers and a cloud profile, and linted on the way in so that no writer can repeat
 * wrong or obsolete advice (README "Where the seed articles are wrong").
 */
#include "emit/emit.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/vars.h"
#include "model/ifselect.h"
#include "model/nccl_vars.h"
#include "model/stack_tables.h"
#include "model/node.h"
#include "util/envmap.h"
#include "util/json.h"
#include "util/version.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static const char *const cloud_names[] = {
	[EMIT_CLOUD_GENERIC] = "generic", [EMIT_CLOUD_AUTODL] = "autodl", [EMIT_CLOUD_AWS] = "aws",
	[EMIT_CLOUD_ALIYUN] = "aliyun", [EMIT_CLOUD_AZURE] = "azure", [EMIT_CLOUD_GCP] = "gcp",
	[EMIT_CLOUD_OCI] = "oci",
};

int emit_cloud_parse(const char *s, enum emit_cloud *out)
{
	if (!s)
		return -1;
	if (!strcmp(s, "alibaba")) {
		*out = EMIT_CLOUD_ALIYUN;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cloud_names); i++)
		if (!strcmp(s, cloud_names[i])) {
			*out = (enum emit_cloud)i;
			return 0;
		}
	return -1;
}

const char *emit_cloud_name(enum emit_cloud c)
{
	return (unsigned)c < ARRAY_SIZE(cloud_names) ? cloud_names[c] : "generic";
}

enum emit_cloud emit_cloud_from_provider(const char *p)
{
	enum emit_cloud c;

	if (p && !strcmp(p, "alibaba"))
		return EMIT_CLOUD_ALIYUN;
	if (p && !emit_cloud_parse(p, &c))
		return c;
	return EMIT_CLOUD_GENERIC;
}

struct recommendation *rec_new(void)
{
	struct recommendation *rec = xcalloc(1, sizeof(*rec));

	rec->bf16 = -1;
	return rec;
}

static void var_release(struct rec_var *v)
{
	free(v->name);
	free(v->value);
	free(v->why);
	free(v->source);
	free(v->node);
}

void rec_free(struct recommendation *rec)
{
	if (!rec)
		return;
	for (size_t i = 0; i < rec->n; i++)
		var_release(&rec->v[i]);
	free(rec->v);
	for (size_t i = 0; i < rec->nnotes; i++)
		free(rec->notes[i]);
	free(rec->notes);
	for (size_t i = 0; i < rec->nhosts; i++)
		free(rec->hosts[i]);
	free(rec->hosts);
	free(rec->master_addr);
	free(rec->rdma_devs);
	free(rec->nccl_version);
	free(rec->torch_version);
	free(rec->ifname);
	for (size_t i = 0; i < rec->nifs; i++) {
		free(rec->ifs[i].node);
		free(rec->ifs[i].ifname);
		free(rec->ifs[i].cidr);
	}
	free(rec->ifs);
	free(rec->torchrun);
	free(rec->script);
	free(rec->job_name);
	free(rec->image);
	free(rec->source);
	free(rec);
}

void rec_note(struct recommendation *rec, const char *fmt, ...)
{
	va_list ap;
	struct strbuf sb = STRBUF_INIT;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < rec->nnotes; i++)
		if (!strcmp(rec->notes[i], sb.buf)) {
			strbuf_release(&sb);
			return;
		}
	if (rec->nnotes == rec->anotes) {
		rec->anotes = rec->anotes ? 2 * rec->anotes : 8;
		rec->notes = xrealloc(rec->notes, rec->anotes * sizeof(*rec->notes));
	}
	rec->notes[rec->nnotes++] = strbuf_detach(&sb, NULL);
}

const struct rec_var *rec_get(const struct recommendation *rec, const char *name)
{
	for (size_t i = 0; i < rec->n; i++)
		if (!strcmp(rec->v[i].name, name))
			return &rec->v[i];
	return NULL;
}

/*
 * Advice in circulation that no writer repeats (README "Where the seed articles are wrong",
 * launch-and-cloud.md §2.2, frontier-2026.md §2.5). value NULL: whatever the value.
 */
static const struct never {
	const char *name;
	const char *value;
	const char *why;
} nevers[] = {
	{ .name = "NCCL_ALGO",
	  .why = N_("a debugging knob: forced for every collective and size it is often slower than "
		 "NCCL's own choice, and an unparsable value is fatal from NCCL 2.24; try it for one "
		 "measured run, never globally") },
	{ .name = "NCCL_PROTO",
	  .why = N_("a debugging knob: forced globally it is often slower, and an unparsable value is "
		 "fatal from NCCL 2.24 (EFA's NCCL_PROTO=simple was only for aws-ofi-nccl <= 1.5.0)") },
	{ .name = "NCCL_IB_DISABLE", .value = "0",
	  .why = N_("0 is NCCL's default and enables nothing: NCCL uses InfiniBand/RoCE only where an "
		 "RDMA device has an active port") },
	{ .name = "NCCL_LAUNCH_MODE", .value = "PARALLEL", .why = N_("PARALLEL is NCCL's default") },
	{ .name = "NCCL_BUFFSIZE", .value = "4194304", .why = N_("4194304 (4 MiB) is NCCL's default") },
	{ .name = "NCCL_DEBUG", .value = "INFO",
	  .why = N_("for one debugging run only (NCCL_DEBUG=INFO ncclcheck run -- ...); left on it "
		 "floods every rank's log") },
	{ .name = "NCCL_TIMEOUT",
	  .why = N_("NCCL reads no such variable; the collective timeout is torch's: "
		 "init_process_group(timeout=...) or DDPStrategy(timeout=...)") },
	{ .name = "NCCL_PORT_RANGE",
	  .why = N_("NCCL reads no such variable; its listeners take the kernel's ephemeral ports "
		 "(sysctl net.ipv4.ip_local_port_range)") },
	{ .name = "NCCL_IB_PORT_RANGE", .why = N_("NCCL reads no such variable") },
	{ .name = "NCCL_P2P_PORT_RANGE", .why = N_("NCCL reads no such variable") },
	{ .name = "FI_EFA_USE_DEVICE_RDMA",
	  .why = N_("aws-ofi-nccl: \"Do not set for libfabric>=1.18.0 and aws-ofi-nccl>=1.7.0\"") },
	{ .name = "FI_EFA_FORK_SAFE", .why = N_("aws-ofi-nccl: \"Not needed anymore\"") },
	{ .name = "RDMAV_FORK_SAFE", .why = N_("aws-ofi-nccl: \"Do not use\"") },
	{ .name = "FI_PROVIDER", .value = "efa",
	  .why = N_("only for aws-ofi-nccl <= 1.5.0; newer plugins pick the EFA provider themselves") },
};

static int name_ok(const char *s)
{
	if (!s || !(isupper((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int value_ok(const char *s)
{
	for (; s && *s; s++)
		if (iscntrl((unsigned char)*s))
			return 0;
	return 1;
}

/* The lint every env / nccl.conf setting passes; returns the name to use, or NULL to drop it. */
static const char *lint(struct recommendation *rec, const char *name, const char *value)
{
	const struct torch_renamed_var *tr;
	const struct nccl_var *nv;

	for (size_t i = 0; i < ARRAY_SIZE(nevers); i++)
		if (!strcmp(nevers[i].name, name) &&
		    (!nevers[i].value || (value && !strcasecmp(nevers[i].value, value)))) {
			rec_note(rec, "%s%s%s not set: %s", name, value ? "=" : "", value ? value : "",
				 nevers[i].why);
			return NULL;
		}
	tr = stack_find_renamed(name);
	if (tr && !strcmp(tr->old_name, name)) {
		rec_note(rec, "%s is written as %s: torch %s renamed it (the old name only warns)",
			 name, tr->new_name, tr->renamed_in);
		return tr->new_name;
	}
	if (strncmp(name, "NCCL_", 5))
		return name;
	if (!strcmp(name, "NCCL_IB_RETRY_CNT") && value && atoll(value) > 7) {
		rec_note(rec, "NCCL_IB_RETRY_CNT=%s not set: the InfiniBand retry count is a 3-bit "
			 "field, 7 at most (NCCL's default is 7)", value);
		return NULL;
	}
	nv = nccl_var_find(name);
	if (!nv) {
		if (nccl_var_plugin(name))
			return name;	/* a net plugin's own variable (NCCL_OFI_...) */
		rec_note(rec, "%s not set: NCCL reads no variable of that name", name);
		return NULL;
	}
	if (nv->owner != NV_OWN_NCCL) {
		rec_note(rec, "%s not set: %s", name, nv->note ? nv->note : N_("NCCL does not read it"));
		return NULL;
	}
	if (nv->gone && nv->note) {
		/* the note a whole value of its own, so that it translates */
		rec_note(rec, "%s not set: NCCL stopped reading it in %s; %s", name, nv->gone, nv->note);
		return NULL;
	}
	if (nv->gone) {
		rec_note(rec, "%s not set: NCCL stopped reading it in %s", name, nv->gone);
		return NULL;
	}
	return name;
}

/*
 * Except the old name of a renamed torch variable where the job's torch is older than the
 * rename, or unknown: that torch reads only the old name (torchrun itself exports
 * NCCL_ASYNC_ERROR_HANDLING before 2.2), and newer ones still honour it with a warning.
 */
static int keep_old_torch_name(struct recommendation *rec, const char *name)
{
	const struct torch_renamed_var *tr = stack_find_renamed(name);

	if (!tr || strcmp(tr->old_name, name))
		return 0;
	if (rec->torch_version && version_cmp_str(rec->torch_version, tr->renamed_in) >= 0)
		return 0;
	if (rec->torch_version)
		rec_note(rec, "%s is not unset: torch %s reads only this name (%s replaces it from "
			 "torch %s)", name, rec->torch_version, tr->new_name, tr->renamed_in);
	else
		rec_note(rec, "%s is not unset: a torch of unknown version may read only this name (%s "
			 "replaces it from torch %s)", name, tr->new_name, tr->renamed_in);
	return 1;
}

int rec_set(struct recommendation *rec, enum setting_where where, enum setting_scope scope,
	    const char *node, const char *name, const char *value, const char *why,
	    const char *source)
{
	struct rec_var *v = NULL;

	if (!name || !*name)
		return -1;
	if (!value_ok(value) || (node && !value_ok(node))) {
		rec_note(rec, "%s not set: its value has a control character", name);
		return -1;
	}
	if (where == WHERE_ENV || where == WHERE_NCCL_CONF) {
		if (!name_ok(name)) {
			rec_note(rec, "'%s' not set: not a variable name", name);
			return -1;
		}
		/* unsetting is safe advice, also of a wrong or obsolete name */
		if (value)
			name = lint(rec, name, value);
		else if (keep_old_torch_name(rec, name))
			return -1;
		if (!name)
			return -1;
	}
	if (scope != SCOPE_NODE)
		node = NULL;
	for (size_t i = 0; i < rec->n; i++) {
		struct rec_var *o = &rec->v[i];
		if (!strcmp(o->name, name) && o->where == where &&
		    ((!o->node && !node) || (o->node && node && !strcmp(o->node, node)))) {
			v = o;
			var_release(v);
			break;
		}
	}
	if (!v) {
		if (rec->n == rec->alloc) {
			rec->alloc = rec->alloc ? 2 * rec->alloc : 8;
			rec->v = xrealloc(rec->v, rec->alloc * sizeof(*rec->v));
		}
		v = &rec->v[rec->n++];
	}
	v->name = xstrdup(name);
	v->value = value ? xstrdup(value) : NULL;
	v->why = why ? xstrdup(why) : NULL;
	v->source = source ? xstrdup(source) : NULL;
	v->where = where;
	v->scope = node ? SCOPE_NODE : SCOPE_ALL;
	v->node = node ? xstrdup(node) : NULL;
	return 0;
}

/* Gloo takes exact interface names, comma separated; NCCL's exact (=) or plain names map over. */
static void join_gloo(struct recommendation *rec)
{
	const struct rec_var *n = rec_get(rec, "NCCL_SOCKET_IFNAME");
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	if (!n || !n->value || n->scope != SCOPE_ALL || rec_get(rec, "GLOO_SOCKET_IFNAME"))
		return;
	if (strpbrk(n->value, "^:")) {
		rec_note(rec, "GLOO_SOCKET_IFNAME not derived from NCCL_SOCKET_IFNAME=%s: Gloo takes "
			 "exact interface names, not NCCL's exclude lists; set it to the name itself",
			 n->value);
		return;
	}
	for (p = n->value; *p; p++)
		if (*p != '=')
			strbuf_addch(&sb, *p);
	if (sb.len)
		rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "GLOO_SOCKET_IFNAME", sb.buf,
			N_("the same interface for torch's Gloo groups (CPU tensors, Lightning's "
			   "barriers), which do not read NCCL_SOCKET_IFNAME"), n->source);
	strbuf_release(&sb);
}

void rec_from_findings(struct recommendation *rec, const struct findings *fs)
{
	for (size_t i = 0; fs && i < fs->n; i++) {
		const struct finding *f = fs->v[i];

		/* settings[] only: fix lines are for people, never parsed back (finding.h); a
		 * folded finding's are for a consequence: its root's fix is the fix */
		if (f->sev == SEV_OK || finding_folded(f))
			continue;
		for (size_t j = 0; j < f->nsettings; j++) {
			const struct setting *s = &f->settings[j];
			rec_set(rec, s->where, s->scope, s->node ? s->node : f->node, s->name, s->value,
				f->title, f->id);
		}
	}
	join_gloo(rec);
}

static void set_str(char **dst, const char *s)
{
	if (!*dst && s && *s)
		*dst = xstrdup(s);
}

/* The first of `ids` set to a number in 1..99999 (one not a number is passed over), or 0. */
static int env_int(lv_getter get, const void *src, const enum launch_var_id *ids)
{
	for (; *ids != LV_NONE; ids++) {
		const char *s = get(src, lv_name(*ids));
		char *end;
		long v;

		if (!s)
			continue;
		v = strtol(s, &end, 10);
		if (end != s && !*end && v > 0 && v < 100000)
			return (int)v;
	}
	return 0;
}

/* launcher variables in the order launch-and-cloud.md §1.1 gives */
static const enum launch_var_id nnodes_vars[] = {
	LV_NNODES, LV_PET_NNODES, LV_SLURM_JOB_NUM_NODES, LV_SLURM_NNODES, LV_NUM_NODES, LV_NONE
};
static const enum launch_var_id addr_vars[] = { LV_MASTER_ADDR, LV_PET_MASTER_ADDR, LV_NONE };
static const enum launch_var_id port_vars[] = { LV_MASTER_PORT, LV_PET_MASTER_PORT, LV_NONE };

void rec_numbers_from_env(struct recommendation *rec, const struct envmap *em)
{
	/* the same reading as from facts, so both agree on names and precedence */
	if (!rec->nodes)
		rec->nodes = env_int(lv_from_envmap, em, nnodes_vars);
	if (!rec->master_port)
		rec->master_port = env_int(lv_from_envmap, em, port_vars);
	for (const enum launch_var_id *n = addr_vars; *n != LV_NONE && !rec->master_addr; n++)
		set_str(&rec->master_addr, envmap_get(em, lv_name(*n)));
}

/* Each IPv4 network of a node's interfaces, for rec_if_cidr. */
static void collect_ifs(struct recommendation *rec, const char *node, const struct node_model *m)
{
	if (!node)
		return;
	for (size_t k = 0; k < m->nifaces; k++) {
		const struct nm_iface *it = &m->ifaces[k];

		for (size_t j = 0; j < it->naddrs; j++) {
			const struct nm_iface_addr *a = &it->addrs[j];
			long plen = a->prefixlen;
			struct in_addr in;
			uint32_t net;
			char buf[INET_ADDRSTRLEN];

			if (!a->addr || a->family != 4 || plen < 1 || plen > 32 ||
			    inet_pton(AF_INET, a->addr, &in) != 1)
				continue;
			net = ntohl(in.s_addr) & (plen == 32 ? 0xffffffffu : ~(0xffffffffu >> plen));
			in.s_addr = htonl(net);
			inet_ntop(AF_INET, &in, buf, sizeof(buf));
			ALLOC_GROW(rec->ifs, rec->nifs + 1, rec->aifs);
			rec->ifs[rec->nifs].node = xstrdup(node);
			rec->ifs[rec->nifs].ifname = xstrdup(it->name);
			rec->ifs[rec->nifs].cidr = xasprintf("%s/%d", buf, (int)plen);
			rec->nifs++;
		}
	}
}

void rec_numbers_from_model(struct recommendation *rec, const struct node_model *m)
{
	const char *s;
	int all_bf16 = 1;
	struct strbuf devs = STRBUF_INIT;

	if (!rec->nifs)
		collect_ifs(rec, m->hostname, m);
	if (!rec->gpus_per_node && m->ngpus)
		rec->gpus_per_node = (int)m->ngpus;
	if (rec->bf16 < 0 && m->ngpus) {
		for (size_t i = 0; i < m->ngpus; i++) {
			s = m->gpus[i].compute_capability;
			if (!s || atof(s) < 8.0)
				all_bf16 = 0;
		}
		rec->bf16 = all_bf16;
	}
	if (!rec->nodes)
		rec->nodes = env_int(lv_from_model, m, nnodes_vars);
	set_str(&rec->master_addr, m->master.addr ? m->master.addr :
		node_model_env(m, lv_name(LV_MASTER_ADDR)));
	if (!rec->master_port) {
		long port = m->master.port_recorded ? m->master.port : 0;
		rec->master_port = port > 0 && port < 65536 ? (int)port :
				   env_int(lv_from_model, m, port_vars);
	}
	s = m->master.ifname;
	if (s && strncmp(s, "lo", 2))
		set_str(&rec->ifname, s);
	if (!rec->rdma) {
		for (int d = 0; d < m->rdma.ndevices; d++) {
			int active = 0;
			for (size_t p = 0; p < m->rdma.nports; p++)
				if (m->rdma.ports[p].dev_index == d && m->rdma.ports[p].state &&
				    !strcmp(m->rdma.ports[p].state, "ACTIVE"))
					active = 1;
			if (active && m->rdma.dev_names[d]) {
				rec->rdma++;
				strbuf_addf(&devs, "%s%s", devs.len ? "," : "", m->rdma.dev_names[d]);
			}
		}
		if (devs.len)
			set_str(&rec->rdma_devs, devs.buf);
	}
	strbuf_release(&devs);
	/* which Lightning the job's interpreter has: the one with torch, lightning before pytorch_lightning */
	if (!rec->pl_major) {
		for (size_t i = 0; i < m->stack.npython; i++) {
			const struct nm_python *py = &m->stack.python[i];
			const char *v;

			if (!py->torch_installed)
				continue;
			set_str(&rec->torch_version, py->torch);
			if (py->lightning_installed) {
				v = py->lightning_pkg;
				rec->pl_package = 0;
			} else if (py->pl_installed) {
				v = py->pl_pkg;
				rec->pl_package = 1;
			} else {
				continue;
			}
			rec->pl_major = v && atoi(v) > 0 ? atoi(v) : 0;
			break;
		}
	}
	/* the NCCL the job will run: the node model's one decision */
	if (!m->nccl.assumed)
		set_str(&rec->nccl_version, m->nccl.version);
}

void rec_numbers_from_facts(struct recommendation *rec, const json_t *facts)
{
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(facts, &e);

	/* facts the model refuses are reported by the node rules (facts.invalid), never half-used */
	if (m)
		rec_numbers_from_model(rec, m);
	node_model_free(m);
}

const char *rec_if_cidr(const struct recommendation *rec, const char *node, const char *ifname)
{
	const char *found = NULL;

	for (size_t i = 0; i < rec->nifs; i++) {
		const struct rec_if *f = &rec->ifs[i];
		size_t a = strcspn(node, "."), b = strcspn(f->node, ".");

		if (strcmp(f->ifname, ifname) || a != b || strncmp(node, f->node, a))
			continue;
		if (found && strcmp(found, f->cidr))
			return NULL;	/* two IPv4 networks on it: no one answer */
		found = f->cidr;
	}
	return found;
}

int rec_from_doc(struct recommendation *rec, const json_t *doc, struct findings *fs, struct err *e)
{
	const json_t *arr = json_object_get(doc, "findings"), *nodes, *facts, *n;
	char msg[256];
	size_t i;

	if (!json_is_object(doc))
		return err_set(e, ERR_PARSE, "not a JSON object");
	if (!json_is_array(arr))
		return err_set(e, ERR_PARSE, "no \"findings\" array: not a 'node --json' or "
			       "'cluster --json' document");
	if (findings_from_json(fs, arr, msg, sizeof(msg)) < 0)
		return err_set(e, ERR_PARSE, "bad findings: %s", msg);
	facts = json_object_get(doc, "facts");
	nodes = json_object_get(doc, "nodes");
	if (json_is_array(nodes) && json_array_size(nodes)) {
		if (!rec->nodes)
			rec->nodes = (int)json_array_size(nodes);
		if (!rec->hosts) {
			rec->hosts = xcalloc(json_array_size(nodes), sizeof(*rec->hosts));
			json_array_foreach(nodes, i, n) {
				const char *name = jpath_str(n, "name");
				if (!name)
					name = jpath_str(n, "hostname");
				if (!name || !value_ok(name) || strpbrk(name, " \t'\"$`\\;&|<>(){}[]*?,:"))
					break;
				rec->hosts[rec->nhosts++] = xstrdup(name);
			}
			json_array_foreach(nodes, i, n) {
				struct err me = ERR_INIT;
				struct node_model *m = node_model_new(json_object_get(n, "facts"), &me);

				if (m)
					collect_ifs(rec, jpath_str(n, "name"), m);
				node_model_free(m);
			}
			if (rec->nhosts != json_array_size(nodes)) {
				for (i = 0; i < rec->nhosts; i++)
					free(rec->hosts[i]);
				free(rec->hosts);
				rec->hosts = NULL;
				rec->nhosts = 0;
			}
		}
		if (!json_is_object(facts))
			facts = json_object_get(json_array_get(nodes, 0), "facts");
	}
	if (!json_is_object(facts))
		return err_set(e, ERR_PARSE, "no \"facts\" object (node document) or \"nodes\" "
			       "array (cluster document)");
	rec_numbers_from_facts(rec, facts);
	return 0;
}

void rec_defaults(struct recommendation *rec)
{
	if (!rec->nodes) {
		rec->nodes = 1;
		rec_note(rec, "the number of nodes is not known from the launch environment: 1 is "
			 "written; pass --nodes");
	}
	if (!rec->gpus_per_node) {
		rec->gpus_per_node = 1;
		rec_note(rec, "no GPU was seen: 1 process per node is written; pass --gpus-per-node");
	}
	if (rec->nhosts && rec->nhosts != (size_t)rec->nodes) {
		rec_note(rec, "the verdict names %zu nodes but the job has %d: mpirun gets a hostfile "
			 "instead of the names", rec->nhosts, rec->nodes);
		for (size_t i = 0; i < rec->nhosts; i++)
			free(rec->hosts[i]);
		free(rec->hosts);
		rec->hosts = NULL;
		rec->nhosts = 0;
	}
	if (!rec->master_port)
		rec->master_port = 29500;
	if (!rec->rdzv_port)
		rec->rdzv_port = 29400;
	if (!rec->torchrun)
		rec->torchrun = xstrdup("torchrun");
	if (!rec->script)
		rec->script = xstrdup("train.py");
	if (!rec->job_name)
		rec->job_name = xstrdup("train");
}

/* Shell-, YAML- and Python-safe host names and addresses: letters, digits, '.', '-', ':', '_'. */
static int addr_ok(const char *s)
{
	if (!s || !*s || *s == '-')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(".-:_", *s))
			return 0;
	return 1;
}

int rec_check(const struct recommendation *rec, struct err *e)
{
	if (rec->nodes < 1 || rec->nodes > 100000)
		return err_set(e, ERR_USAGE, "the number of nodes must be 1..100000, not %d", rec->nodes);
	if (rec->gpus_per_node < 1 || rec->gpus_per_node > 1024)
		return err_set(e, ERR_USAGE, "GPUs per node must be 1..1024, not %d", rec->gpus_per_node);
	if (rec->master_port < 1 || rec->master_port > 65535)
		return err_set(e, ERR_USAGE, "the master port must be 1..65535, not %d", rec->master_port);
	if (rec->rdzv_port < 1 || rec->rdzv_port > 65535)
		return err_set(e, ERR_USAGE, "the rendezvous port must be 1..65535, not %d", rec->rdzv_port);
	if (rec->master_addr && !addr_ok(rec->master_addr))
		return err_set(e, ERR_USAGE, "the master address '%s' is not a host name or an IP address",
			       rec->master_addr);
	for (size_t i = 0; i < rec->nhosts; i++)
		if (!addr_ok(rec->hosts[i]))
			return err_set(e, ERR_USAGE, "'%s' is not a host name", rec->hosts[i]);
	if (rec->job_name && !addr_ok(rec->job_name))
		return err_set(e, ERR_USAGE, "the job name '%s' may use letters, digits, '.', '-' and '_' only",
			       rec->job_name);
	return 0;
}

int rec_var_applies(const struct rec_var *v, const char *node)
{
	size_t a, b;

	if (v->where != WHERE_ENV)
		return 0;
	if (v->scope == SCOPE_ALL)
		return 1;
	if (!node || !v->node)
		return 0;
	a = strcspn(node, ".");
	b = strcspn(v->node, ".");
	return !strcmp(node, v->node) || (a == b && !strncmp(node, v->node, a) &&
					  (!node[a] || !v->node[b]));
}

int rec_placeholder(const char *value)
{
	return setting_placeholder(value);
}

/* The value of env setting `name` on `node`: its own value over the every-node one. */
const struct rec_var *rec_value_on(const struct recommendation *rec, const char *name,
				   const char *node)
{
	const struct rec_var *all = NULL;

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		if (strcmp(v->name, name) || !rec_var_applies(v, node))
			continue;
		if (v->scope == SCOPE_NODE)
			return v;
		all = v;
	}
	return all;
}

/* NCCL_SOCKET_IFNAME's list read as NCCL reads it: prefixes, '=' for exact names, '^' to exclude. */
static int ifname_listed(const char *list, const char *ifname)
{
	struct ifs_spec spec;

	ifs_spec_parse(list, 1, &spec);
	return ifs_spec_names(&spec, ifname);
}

int rec_steers_off(const struct recommendation *rec, const char *node, const char *ifname)
{
	const struct rec_var *n = rec_value_on(rec, "NCCL_SOCKET_IFNAME", node);
	const struct rec_var *g = rec_value_on(rec, "GLOO_SOCKET_IFNAME", node);
	int nccl_off, gloo_off = 1;

	if (!n || !n->value || !*n->value || !ifname)
		return 0;
	nccl_off = n->value[0] == '^' ? ifname_listed(n->value, ifname) : !ifname_listed(n->value, ifname);
	if (g && g->value) {
		/* Gloo: exact names, comma separated */
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "=%s", g->value);
		gloo_off = !ifname_listed(sb.buf, ifname);
		strbuf_release(&sb);
	}
	return nccl_off && gloo_off;
}

int rec_covers(const struct recommendation *rec, const struct finding *f)
{
	size_t env = 0;

	for (size_t i = 0; i < f->nsettings; i++) {
		const struct setting *s = &f->settings[i];
		const struct rec_var *v;

		if (s->where != WHERE_ENV)
			return 0;
		v = rec_value_on(rec, s->name, s->node ? s->node : f->node);
		if (!v || (!v->value) != (!s->value) || (v->value && strcmp(v->value, s->value)))
			return 0;
		env++;
	}
	return env > 0;
}

void rec_apply_env(const struct recommendation *rec, struct envmap *em, const char *node)
{
	/* every-node settings first, so a node's own value wins */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rec->n; i++)
			if ((rec->v[i].scope == SCOPE_NODE) == pass && rec_var_applies(&rec->v[i], node) &&
			    !rec_placeholder(rec->v[i].value))
				envmap_set(em, rec->v[i].name, rec->v[i].value);
}

void rec_apply_facts(const struct recommendation *rec, json_t *facts, const char *node)
{
	json_t *env = jobj_child(facts, "env");

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rec->n; i++) {
			const struct rec_var *v = &rec->v[i];
			if ((v->scope == SCOPE_NODE) != pass || !rec_var_applies(v, node) ||
			    rec_placeholder(v->value))
				continue;
			if (v->value)
				jset_str(env, v->name, v->value);
			else
				json_object_del(env, v->name);
		}
}

json_t *rec_to_json(const struct recommendation *rec)
{
	json_t *o = json_object(), *arr = json_array(), *notes = json_array();

	jset_int(o, "nodes", rec->nodes);
	jset_int(o, "gpus_per_node", rec->gpus_per_node);
	if (rec->master_addr)
		jset_str(o, "master_addr", rec->master_addr);
	else
		json_object_set_new(o, "master_addr", json_null());
	jset_int(o, "master_port", rec->master_port);
	jset_int(o, "rdzv_port", rec->rdzv_port);
	json_object_set_new(o, "bf16", rec->bf16 < 0 ? json_null() : json_boolean(rec->bf16));
	jset_str(o, "cloud", emit_cloud_name(rec->cloud));
	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		json_t *s = json_object();
		jset_str(s, "name", v->name);
		json_object_set_new(s, "value", v->value ? json_string(v->value) : json_null());
		jset_str(s, "where", setting_where_name(v->where));
		jset_str(s, "scope", v->scope == SCOPE_NODE ? "node" : "all");
		if (v->node)
			jset_str(s, "node", v->node);
		if (v->why)
			jset_str(s, "why", v->why);
		if (v->source)
			jset_str(s, "source", v->source);
		json_array_append_new(arr, s);
	}
	json_object_set_new(o, "settings", arr);
	for (size_t i = 0; i < rec->nnotes; i++)
		json_array_append_new(notes, json_string(rec->notes[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}
