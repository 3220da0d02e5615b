/*
 * cluster/report: the facts check of a node (see run.h), the hand-over of what the rendezvous saw
 * to its rule (rules/cluster_rdv.c), and the run's report document. Judgements are rules/'s, the
 * text report/cluster_text.c's.
 */
#include "cluster/run.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncclcheck.h"
#include "link/agent.h"
#include "link/ceiling.h"
#include "model/node.h"
#include "rules/cluster_rdv.h"
#include "cluster/sched.h"
#include "probe/probe.h"
#include "report/render.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "cluster/run_int.h"

/* ---- facts of a node ---- */

static int want_class(const char *cls)
{
	/* what NCCL could bootstrap over: not loopback, link-local, multicast, unspecified */
	return cls && (!strcmp(cls, "private") || !strcmp(cls, "public") ||
		       !strcmp(cls, "cgnat") || !strcmp(cls, "documentation"));
}

#define FIELD_ERR(e, ...) err_set((e), ERR_PEER, __VA_ARGS__)

/* What the link tests need beyond the model's own reading: a peer's addresses are dialled. */
static int peer_usable(const struct node_model *m, struct err *e)
{
	if (m->schema_version < 0)
		return FIELD_ERR(e, "facts field 'schema_version' is missing");
	if (m->schema_version != FACTS_SCHEMA_VERSION)
		return FIELD_ERR(e, "facts schema_version %d, this node reads %d: run the same "
				 "ncclcheck on every node", m->schema_version, FACTS_SCHEMA_VERSION);
	if (m->hostname && (!m->hostname[0] || strlen(m->hostname) > 255))
		return FIELD_ERR(e, "facts field 'host.hostname' is empty or too long");
	if (!m->net_recorded)
		return FIELD_ERR(e, "facts field 'net' is missing");
	for (size_t i = 0; i < m->nifaces; i++) {
		const struct nm_iface *it = &m->ifaces[i];

		if (!it->name[0] || strlen(it->name) >= LINK_IFNAME_LEN)
			return FIELD_ERR(e, "facts field 'net.interfaces.%zu.name' is not an interface "
					 "name", i);
		for (size_t k = 0; k < it->naddrs; k++) {
			const struct nm_iface_addr *a = &it->addrs[k];
			unsigned char buf[16];

			if (!a->addr || (a->family != 4 && a->family != 6))
				return FIELD_ERR(e, "facts field 'net.interfaces.%zu.addrs.%zu' is not "
						 "{addr, family, class}", i, k);
			if (strlen(a->addr) >= LINK_ADDR_LEN ||
			    inet_pton(a->family == 6 ? AF_INET6 : AF_INET, a->addr, buf) != 1)
				return FIELD_ERR(e, "facts field 'net.interfaces.%zu.addrs.%zu.addr' is not "
						 "a numeric IPv%d address", i, k, a->family);
		}
	}
	return 0;
}

struct node_model *cluster_peer_model(const json_t *facts, struct err *e)
{
	struct err me = ERR_INIT;
	struct node_model *m = node_model_new(facts, &me);

	if (!m) {
		FIELD_ERR(e, "%s", me.msg);
		return NULL;
	}
	if (peer_usable(m, e) < 0) {
		node_model_free(m);
		return NULL;
	}
	return m;
}

void cluster_node_fill(struct cnode *n, json_t *facts, struct node_model *m,
		       const char *fallback_name)
{
	size_t alloc = 0;

	snprintf(n->name, sizeof(n->name), "%s", m->hostname ? m->hostname : fallback_name);
	n->facts = json_incref(facts);
	n->m = m;
	for (size_t i = 0; i < m->nifaces; i++) {
		const struct nm_iface *it = &m->ifaces[i];

		if (!it->up)
			continue;
		for (size_t k = 0; k < it->naddrs; k++) {
			const struct nm_iface_addr *a = &it->addrs[k];
			struct caddr *c;

			if (!want_class(a->cls))
				continue;
			ALLOC_GROW(n->addrs, n->naddrs + 1, alloc);
			c = &n->addrs[n->naddrs++];
			snprintf(c->ifname, sizeof(c->ifname), "%s", it->name);
			snprintf(c->addr, sizeof(c->addr), "%s", a->addr);
			c->family = a->family;
			c->priv = !strcmp(a->cls, "private");
			ceiling_compute(it->speed_mbps > 0 ? (double)it->speed_mbps : 0, it->virtual,
					it->mtu > 0 ? (int)it->mtu : 0, c->family == 6, &c->ceil);
		}
	}
	if (m->ports.known) {
		n->range_lo = (int)m->ports.lo;
		n->range_hi = (int)m->ports.hi;
	}
	snprintf(n->boot_id, sizeof(n->boot_id), "%s", m->boot_id ? m->boot_id : "");
	n->pus = m->cpus.allowed > 0 ? m->cpus.allowed : 0;
	n->nofile = m->limits.nofile_hard == -2 ? 0 : m->limits.nofile_hard;
}

/* ---- what the rendezvous saw, judged by rules/cluster_rdv.c ---- */

void cluster_events_findings(struct rdv *r, const struct rdv_opts *ro, const char *master_ip,
			     struct findings *fs)
{
	struct rdv_event *ev;
	size_t n = rdv_events(r, &ev);

	cluster_rdv_findings(ev, n, ro, master_ip, fs);
	free(ev);
}

/* ---- the report ---- */

/* links[i] of the report, made when a writer reaches it (struct cluster_links) */
static json_t *link_json(void *arg, size_t i)
{
	const struct cluster_links *cl = arg;
	const struct cluster_link *l = &cl->v[i];
	json_t *o = json_object();

	jset_int(o, "target", l->target);
	jset_int(o, "peer", l->peer);
	jset_str(o, "target_name", cl->names[l->target]);
	jset_str(o, "peer_name", cl->names[l->peer]);
	jset_str(o, "ifname", l->ifname);
	jset_str(o, "test", link_kind_name(l->kind));
	jset_bool(o, "ran", l->ran);
	if (!l->ran)
		jset_str(o, "error", l->error);
	json_object_set_new(o, "result", link_result_to_json(&l->res));
	/*
	 * what the bandwidth is measured against (the HTML report draws it; nothing judges it
	 * here): the target interface's line rate at its MTU; null when sysfs has none or only a
	 * software link's nominal figure (bench's ceiling "known" is the same rule)
	 */
	if (l->kind == LINK_BW)
		json_object_set_new(o, "ceiling_gbps",
				    l->ceil.ceiling_gbps > 0 && !l->ceil.nominal
				    ? json_real(l->ceil.ceiling_gbps) : json_null());
	return o;
}

/* The run's link tests move to a struct cluster_links whose placeholder `payload` holds. */
static void links_take(struct run *run, json_t *payload)
{
	struct cluster_links *cl = xcalloc(1, sizeof(*cl));
	json_t *at = json_array();

	cluster_links_free(run->report_links);
	cl->v = run->links;
	cl->n = run->nlinks;
	run->links = NULL;
	run->nlinks = run->alinks = 0;
	cl->nnodes = run->n;
	cl->names = xcalloc((size_t)(run->n > 0 ? run->n : 1), sizeof(*cl->names));
	for (int i = 0; i < run->n; i++)
		memcpy(cl->names[i], run->nodes[i].name, sizeof(cl->names[i]));
	cl->sp = (struct jsplice){ .at = at, .n = cl->n, .item = link_json, .arg = cl };
	json_object_set_new(payload, "links", at);
	run->report_links = cl;
}

void cluster_links_free(struct cluster_links *cl)
{
	if (!cl)
		return;
	for (size_t i = 0; i < cl->n; i++)
		link_result_release(&cl->v[i].res);
	free(cl->v);
	free(cl->names);
	free(cl);
}

/* ---- each node's own checks, settled by the link tests ---- */

void cluster_node_checks(struct run *run)
{
	if (!run->o->node_rules || run->node_fs)
		return;
	run->node_fs = xcalloc((size_t)(run->n > 0 ? run->n : 1), sizeof(*run->node_fs));
	run->settled = xcalloc((size_t)(run->n > 0 ? run->n : 1), sizeof(*run->settled));
	for (int i = 0; i < run->n; i++) {
		cluster_settled_init(&run->settled[i]);
		if (!run->nodes[i].m)
			continue;
		run->node_fs[i] = findings_new();
		run->o->node_rules(run->nodes[i].m, run->node_fs[i]);
	}
}

void cluster_node_checks_free(struct run *run)
{
	for (int i = 0; run->node_fs && i < run->n; i++) {
		findings_free(run->node_fs[i]);
		cluster_settled_release(&run->settled[i]);
	}
	free(run->node_fs);
	free(run->settled);
	run->node_fs = NULL;
	run->settled = NULL;
}

size_t cluster_node_errors(const struct run *run)
{
	size_t n = 0;

	for (int i = 0; run->settled && i < run->n; i++)
		for (size_t k = 0; k < run->settled[i].n; k++)
			n += run->settled[i].v[k].verdict == CLUSTER_CONFIRMED &&
			     run->settled[i].v[k].f->sev == SEV_ERROR &&
			     !finding_folded(run->settled[i].v[k].f);
	return n;
}

int cluster_exit_code(const struct findings *fs, size_t node_errors)
{
	size_t errors = findings_count(fs, SEV_ERROR), untested = 0;

	for (size_t i = 0; fs && i < fs->n; i++)
		untested += fs->v[i]->sev == SEV_ERROR && !finding_folded(fs->v[i]) &&
			    !strcmp(fs->v[i]->id, "cluster.link.untested");
	if (errors > untested || node_errors)
		return EXIT_FINDINGS;
	return untested ? EXIT_CANNOT_RUN : EXIT_CLEAN;
}

/* nodes[].settled[]: each settleable finding's verdict; a withdrawn one keeps its whole finding. */
static json_t *settled_json(const struct cluster_settled *st)
{
	json_t *arr = json_array();

	for (size_t k = 0; k < st->n; k++) {
		const struct cluster_settle_entry *e = &st->v[k];
		json_t *o = json_object();

		jset_str(o, "id", e->f->id);
		jset_str(o, "verdict", cluster_settle_name(e->verdict));
		jset_str(o, "severity", severity_name(e->f->sev));
		jset_str(o, "title", e->f->title);
		jset_str(o, "evidence", e->evidence);
		if (e->verdict == CLUSTER_WITHDRAWN) {
			struct findings one = { .v = (struct finding **)&e->f, .n = 1, .alloc = 1 };
			json_t *a = findings_to_json(&one);

			json_object_set(o, "finding", json_array_get(a, 0));
			json_decref(a);
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

/* Each kept finding the settle table covers says so: "settled": "confirmed" or "unsettled". */
static void mark_settled(json_t *arr, const struct findings *fs, const struct cluster_settled *st)
{
	for (size_t i = 0; i < fs->n; i++)
		for (size_t k = 0; k < st->n; k++)
			if (st->v[k].f == fs->v[i])
				jset_str(json_array_get(arr, i), "settled",
					 cluster_settle_name(st->v[k].verdict));
}

json_t *cluster_report_doc(struct run *run, struct findings *fs, int code)
{
	json_t *payload = json_object(), *nodes = json_array(), *doc;

	cluster_node_checks(run);	/* a run that failed early: unsettled */
	for (int i = 0; i < run->n; i++) {
		json_t *o;
		const char *addr = i ? rdv_member_addr(run->r, i) : NULL;

		if (!run->nodes[i].name[0])
			continue;	/* a run that failed before the facts: nothing known */
		o = json_object();
		jset_int(o, "rank", i);
		jset_str(o, "name", run->nodes[i].name);
		jset_str(o, "addr", addr);
		if (run->nodes[i].facts)
			json_object_set(o, "facts", run->nodes[i].facts);
		if (run->node_fs && run->node_fs[i]) {
			json_t *arr;

			findings_sort(run->node_fs[i]);
			arr = findings_to_json(run->node_fs[i]);
			if (run->settled[i].done) {
				mark_settled(arr, run->node_fs[i], &run->settled[i]);
				json_object_set_new(o, "settled", settled_json(&run->settled[i]));
			}
			json_object_set_new(o, "findings", arr);
		}
		json_array_append_new(nodes, o);
	}
	json_object_set_new(payload, "nodes", nodes);
	links_take(run, payload);
	jset_int(run->timings, "total", time_now_ms() - run->t0);
	json_object_set(payload, "timings_ms", run->timings);
	doc = render_json_doc("cluster", payload, fs, code);
	json_decref(payload);
	return doc;
}

/* A node's own report when the run could not complete: what it knows, and why. */
json_t *cluster_local_report(struct run *run, const struct err *why, int *code)
{
	struct findings *fs = findings_new();
	json_t *doc;

	cluster_events_findings(run->r, &run->o->rdv, run->master_ip, fs);
	cluster_rdv_aborted(fs, why->msg);
	/* a run that did not finish is "the check could not run" on every node, whatever the
	 * cause (a duplicate rank, a wrong count, a wrong token, a dead node): the same exit
	 * everywhere for one cause, as the help defines it; the findings say which */
	*code = EXIT_CANNOT_RUN;
	findings_sort(fs);
	doc = cluster_report_doc(run, fs, *code);
	json_object_set_new(doc, "error", json_string(why->msg));
	findings_free(fs);
	return doc;
}

/* Moves the findings of `from` that `want` accepts to the end of `to`. */
static void move_wanted(struct findings *from, int (*want)(const char *id), struct findings *to)
{
	size_t keep = 0;

	for (size_t i = 0; i < from->n; i++) {
		struct finding *f = from->v[i];

		if (!want(f->id)) {
			from->v[keep++] = f;
			continue;
		}
		ALLOC_GROW(to->v, to->n + 1, to->alloc);
		to->v[to->n++] = f;
	}
	from->n = keep;
}

int cluster_report_node_findings(const json_t *report, int (*want)(const char *id),
				 struct findings *out, struct err *e)
{
	const json_t *nodes = json_object_get(report, "nodes"), *n;
	struct findings *got = findings_new();
	size_t i;

	if (!json_is_array(nodes)) {
		findings_free(got);
		return err_set(e, ERR_PEER, "the cluster report has no 'nodes' array");
	}
	json_array_foreach(nodes, i, n) {
		const json_t *rank = json_object_get(n, "rank");
		const json_t *arr = json_object_get(n, "findings");
		const char *name = json_string_value(json_object_get(n, "name"));
		struct findings *one;
		size_t first = got->n;
		char msg[256];

		if (!json_is_integer(rank) || json_integer_value(rank) < 0 || !name || !*name ||
		    json_integer_value(rank) >= (json_int_t)json_array_size(nodes)) {
			findings_free(got);
			return err_set(e, ERR_PEER, "the cluster report's nodes.%zu has no rank and "
				       "name", i);
		}
		if (!arr)
			continue;
		one = findings_new();
		if (!json_is_array(arr) || findings_from_json(one, arr, msg, sizeof(msg)) < 0) {
			findings_free(one);
			findings_free(got);
			return err_set(e, ERR_PEER, "the cluster report's findings of %.200s "
				       "(rank %lld) are unreadable: %s", name,
				       (long long)json_integer_value(rank),
				       json_is_array(arr) ? msg : "not an array");
		}
		move_wanted(one, want, got);
		findings_free(one);
		for (size_t k = first; k < got->n; k++) {
			finding_node(got->v[k], name);
			finding_rank(got->v[k], (int)json_integer_value(rank));
		}
	}
	for (i = 0; i < got->n; i++) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n++] = got->v[i];
	}
	got->n = 0;
	findings_free(got);
	return 0;
}
