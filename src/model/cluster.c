/* The cluster view's queries and the interface verdict: see cluster.h. */
#include "model/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/addr.h"
#include "util/xalloc.h"

const struct cluster_link *cluster_link_of(const struct cluster_view *v, enum link_kind kind,
					   size_t peer, size_t target, const char *ifname)
{
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];

		if (l->ran && l->kind == kind && (size_t)l->peer == peer &&
		    (size_t)l->target == target && !strcmp(l->ifname, ifname))
			return l;
	}
	return NULL;
}

const struct link_result *cluster_link_find(const struct cluster_view *v, enum link_kind kind,
					    size_t peer, size_t target, const char *ifname)
{
	const struct cluster_link *l = cluster_link_of(v, kind, peer, target, ifname);

	return l ? &l->res : NULL;
}

int cluster_nccl_uses(const struct node_model *m, const char *ifname)
{
	if (!m->have_ifs)
		return 0;
	if (m->pred.boot && !strcmp(m->pred.boot->name, ifname))
		return 1;
	for (int k = 0; k < m->pred.sockets.n; k++)
		if (!strcmp(m->pred.sockets.v[k]->name, ifname))
			return 1;
	return 0;
}

enum cluster_reach cluster_path_reach(const struct cluster_view *v, size_t peer, size_t target,
				      const char *ifname)
{
	const struct link_result *r = cluster_link_find(v, LINK_CONNECT, peer, target, ifname), *s;

	if (!r)
		return CLUSTER_UNTESTED;
	if (r->c.status == LINK_OK)
		return CLUSTER_REACHED;
	s = cluster_link_find(v, LINK_SCAN, peer, target, ifname);
	return s && link_connect_contradicted(&r->c, &s->s) ? CLUSTER_REACHED_LATER
							    : CLUSTER_NOT_REACHED;
}

int cluster_if_reachable(const struct cluster_view *v, size_t node, const char *ifname)
{
	int seen = 0;

	for (size_t c = 0; c < v->n; c++) {
		enum cluster_reach r = c == node ? CLUSTER_UNTESTED : cluster_path_reach(v, c, node, ifname);

		if (r == CLUSTER_UNTESTED)
			continue;
		if (r == CLUSTER_NOT_REACHED)
			return 0;
		seen++;
	}
	/* in a full mesh every peer must have tried: one unmeasured peer leaves it open */
	if (seen && (seen == (int)v->n - 1 || (v->sampled && seen >= 2)))
		return 1;
	return -1;
}

/*
 * An interface with link-local addresses only (169.254/16, fe80::/10): GH200 nodes carry the same
 * 169.254.3.1 each, so a peer's connect to it can land on its own host and look like a path.
 */
static int link_local_only(const struct nm_iface *it)
{
	for (size_t a = 0; a < it->naddrs; a++)
		if (addr_classify_text(it->addrs[a].addr) != ADDR_LINK_LOCAL)
			return 0;
	return it->naddrs > 0;
}

/*
 * The interfaces of node `i` that every peer reached, in the node's interface order; never one
 * whose addresses are all link-local, which the verdict must not recommend.
 */
static size_t working(const struct cluster_view *v, size_t i, const char **out, size_t max)
{
	const struct node_model *m = v->nodes[i].m;
	size_t n = 0;

	for (size_t k = 0; k < m->nifaces && n < max; k++)
		if (!link_local_only(&m->ifaces[k]) &&
		    cluster_if_reachable(v, i, m->ifaces[k].name) == 1)
			out[n++] = m->ifaces[k].name;
	return n;
}

static int in_list(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] && s && !strcmp(v[i], s))
			return 1;
	return 0;
}

#define WORK_MAX 32

/* Whether NCCL, with NCCL_SOCKET_IFNAME=value (NULL: as configured), bootstraps on `want` and
 * opens NET/Socket only on interfaces every peer reaches. */
static int proves(const struct cluster_view *v, size_t i, const char *value, const char *want)
{
	const char *work[WORK_MAX];
	size_t nw = working(v, i, work, WORK_MAX);
	struct nm_override ov = { .name = "NCCL_SOCKET_IFNAME", .value = value };
	struct ifs_result r;

	if (node_model_predict(v->nodes[i].m, value ? &ov : NULL, value ? 1 : 0, &r) < 0 ||
	    r.boot_status != IFS_OK || !r.boot || (want && strcmp(r.boot->name, want)) ||
	    !in_list(work, nw, r.boot->name) || r.socket_status != IFS_OK ||
	    ifs_addr_link_local_any(r.boot))
		return 0;
	for (int k = 0; k < r.sockets.n; k++)
		if (!in_list(work, nw, r.sockets.v[k]->name) || ifs_addr_link_local_any(r.sockets.v[k]))
			return 0;
	return 1;
}

static int proves_all(const struct cluster_view *v, const char *value, const char **want)
{
	for (size_t i = 0; i < v->n; i++)
		if (!proves(v, i, value, want ? want[i] : NULL))
			return 0;
	return 1;
}

/* How many nodes have `name` among their working interfaces. */
static size_t shared_by(const struct cluster_view *v, const char *name)
{
	size_t c = 0;

	for (size_t i = 0; i < v->n; i++) {
		const char *work[WORK_MAX];
		size_t nw = working(v, i, work, WORK_MAX);
		c += in_list(work, nw, name);
	}
	return c;
}

void cluster_verdict_compute(const struct cluster_view *v, struct cluster_verdict *out)
{
	char list[CLUSTER_VALUE_MAX] = "";
	size_t i;

	memset(out, 0, sizeof(*out));
	out->ifname = xcalloc(v->n ? v->n : 1, sizeof(*out->ifname));
	out->per_node = xcalloc(v->n ? v->n : 1, sizeof(*out->per_node));
	for (i = 0; i < v->nlinks; i++)
		out->measured |= v->links[i].ran && v->links[i].kind == LINK_CONNECT;
	if (!out->measured || !v->n)
		return;

	out->ok = 1;
	for (i = 0; i < v->n; i++) {
		const struct node_model *m = v->nodes[i].m;
		const char *work[WORK_MAX], *best = NULL;
		size_t nw = working(v, i, work, WORK_MAX), best_shared = 0;

		if (!nw) {
			out->ok = 0;
			continue;
		}
		/* keep what NCCL picks today when it works; else the name most nodes share */
		if (m->have_ifs && m->pred.boot && in_list(work, nw, m->pred.boot->name))
			best = m->pred.boot->name;
		for (size_t k = 0; !best && k < nw; k++) {
			size_t s = shared_by(v, work[k]);
			if (s > best_shared) {
				best_shared = s;
				out->ifname[i] = work[k];
			}
		}
		if (best)
			out->ifname[i] = best;
	}
	if (!out->ok)
		return;

	if (proves_all(v, NULL, out->ifname)) {
		out->already = 1;
		return;
	}
	/* one value for every node: the common name (or its exact form), then the list of names */
	{
		const char **uniq = xcalloc(v->n, sizeof(*uniq));
		size_t nu = 0;

		for (i = 0; i < v->n; i++)
			if (!in_list(uniq, nu, out->ifname[i]))
				uniq[nu++] = out->ifname[i];
		for (i = 0; i < nu; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? "," : "", uniq[i]);
		free(uniq);
	}
	if (!strchr(list, ',')) {
		char exact[CLUSTER_VALUE_MAX + 1];

		snprintf(exact, sizeof(exact), "=%s", list);
		if (proves_all(v, list, out->ifname)) {
			snprintf(out->value, sizeof(out->value), "%s", list);
			return;
		}
		if (proves_all(v, exact, out->ifname)) {
			snprintf(out->value, sizeof(out->value), "%.*s", CLUSTER_VALUE_MAX - 1, exact);
			return;
		}
	} else if (proves_all(v, list, out->ifname)) {
		snprintf(out->value, sizeof(out->value), "%s", list);
		return;
	}
	/* no single value: each node its own, each proven on that node */
	for (i = 0; i < v->n; i++) {
		if (node_model_ifname_for(v->nodes[i].m, out->ifname[i], out->per_node[i],
					  sizeof(out->per_node[i])) < 0 ||
		    !proves(v, i, out->per_node[i], out->ifname[i])) {
			out->ok = 0;
			out->per_node[i][0] = '\0';
		}
	}
}

void cluster_verdict_release(struct cluster_verdict *out)
{
	free(out->ifname);
	free(out->per_node);
	memset(out, 0, sizeof(*out));
}

void cluster_settled_init(struct cluster_settled *s)
{
	memset(s, 0, sizeof(*s));
	s->withdrawn = findings_new();
}

void cluster_settled_release(struct cluster_settled *s)
{
	findings_free(s->withdrawn);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

const char *cluster_settle_name(enum cluster_settle v)
{
	switch (v) {
	case CLUSTER_CONFIRMED: return "confirmed";
	case CLUSTER_WITHDRAWN: return "withdrawn";
	default: return "unsettled";
	}
}
