/* attach on every node at once (across.h). */
#include "attach/across.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "ncclcheck.h"
#include "rules/cluster_rdv.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* what is left of a budget that started at t0, at least `floor_ms` */
static long left_ms(int64_t t0, long budget_ms, long floor_ms)
{
	long left = (long)(t0 + budget_ms - time_now_ms());

	return left > floor_ms ? left : floor_ms;
}

static json_t *nodes_json(const struct js_node *nodes, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_pack("{s:i, s:s, s:b, s:I}", "node_rank", nodes[i].node, "name",
				      nodes[i].name, "answered", nodes[i].answered, "ranks",
				      (json_int_t)nodes[i].n);
		if (!nodes[i].answered)
			json_object_set_new(o, "error", json_string(nodes[i].error));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* attach.peer.stacks: a node's summary that the decoder refused. */
static void refused(struct findings *fs, const struct js_node *n)
{
	struct finding *f = finding_add(fs, SEV_WARN, "attach.peer.stacks",
					"node %d (%s) sent a stack summary that cannot be read",
					n->node, n->name);
	f->conf = CONF_HIGH;
	finding_node(f, n->name);
	finding_why(f, "%s. Its ranks are left out of the groups, and a verdict about one of "
		    "them cannot say what it does.", n->error);
	finding_fix(f, "run the same ncclcheck version on every node (ncclcheck --version)");
}

/*
 * The report: this node's collection reasoned over with every node's words for its ranks,
 * the rendezvous' events as findings, every rank's stack grouped.
 */
static json_t *report_doc(struct attach_data *d, const struct js_node *nodes, size_t nn,
			  struct rdv *r, const struct rdv_opts *ro, const char *error, int *code)
{
	struct findings *fs = findings_new();
	struct rdv_event *ev;
	struct js_group *g;
	size_t nev = rdv_events(r, &ev), ng;
	char *verdict;
	json_t *payload, *doc;
	int nothing;

	d->remote = nodes;
	d->nremote = nn;
	nothing = attach_reason(d, fs, &verdict, &payload);
	d->remote = NULL;
	d->nremote = 0;
	cluster_rdv_findings(ev, nev, ro, NULL, fs);
	free(ev);
	for (size_t i = 0; i < nn; i++)
		if (nodes[i].refused)
			refused(fs, &nodes[i]);
	findings_sort(fs);
	ng = js_groups(nodes, nn, &g);
	json_object_set_new(payload, "job_stack_groups", js_groups_json(nodes, g, ng));
	js_groups_release(g, ng);
	json_object_set_new(payload, "nodes", nodes_json(nodes, nn));
	if (error)
		json_object_set_new(payload, "error", json_string(error));
	*code = nothing ? EXIT_CANNOT_RUN : findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS
									   : EXIT_CLEAN;
	doc = json_pack("{s:o, s:o, s:i}", "payload", payload, "findings", findings_to_json(fs),
			"exit_code", *code);
	free(verdict);
	findings_free(fs);
	return doc;
}

/* rank left the run (died, or went silent past the heartbeats) */
static int left_run(const struct rdv_event *ev, size_t nev, int rank)
{
	for (size_t i = 0; i < nev; i++)
		if (ev[i].kind == RDV_EV_DEAD && ev[i].rank == rank)
			return 1;
	return 0;
}

/* The master's nodes: itself first, then each worker's decoded summary (or why there is none). */
static struct js_node *master_nodes(struct rdv *r, const struct across_opts *x,
				    struct js_rank *mine, size_t nmine, const json_t *all,
				    const char *why_none)
{
	int nn = x->rdv.nnodes;
	struct js_node *nodes = xcalloc((size_t)nn, sizeof(*nodes));
	struct rdv_event *ev;
	size_t nev = rdv_events(r, &ev);

	for (int i = 0; i < nn; i++) {
		struct js_node *n = &nodes[i];
		const char *h = i ? rdv_member_host(r, i) : x->rdv.host;
		const json_t *part = json_array_get(all, (size_t)i);
		struct err de = ERR_INIT;

		n->node = i;
		snprintf(n->name, sizeof(n->name), "%s", h ? h : "?");
		if (!i) {
			n->v = mine;
			n->n = nmine;
			n->answered = 1;
		} else if (!part || json_is_null(part)) {
			snprintf(n->error, sizeof(n->error), "%s", left_run(ev, nev, i) ?
				 "died or went silent before it answered" : why_none);
		} else if (js_decode(part, n, &de) < 0) {
			snprintf(n->error, sizeof(n->error), "%s", de.msg);
			n->refused = 1;
		} else {
			n->answered = 1;
		}
	}
	free(ev);
	return nodes;
}

static void nodes_free(struct js_node *nodes, size_t nn)
{
	for (size_t i = 1; i < nn; i++)
		js_node_release(&nodes[i]);
	free(nodes);
}

static void run_master(struct rdv *r, const struct across_opts *x, struct attach_data *d,
		       struct js_rank *mine, size_t nmine, int64_t t0, json_t **doc, int *code)
{
	struct err we = ERR_INIT;
	json_t *all = NULL;
	struct js_node *nodes;
	const char *why = "did not join";

	if (rdv_wait_joined(r, &we) == 0) {
		/* its own part is in nodes[0] already: an empty object stands for it */
		rdv_gather_partial(r, "stacks", 0, json_object(), left_ms(t0, x->answer_ms, 500),
				   &all, &we);
		why = rdv_failed(r, NULL) ? "was lost before it answered" : "sent no stacks in time";
	}
	nodes = master_nodes(r, x, mine, nmine, all, why);
	json_decref(all);
	*doc = report_doc(d, nodes, (size_t)x->rdv.nnodes, r, &x->rdv,
			  rdv_failed(r, &we) ? we.msg : NULL, code);
	/* the workers still connected print this same report */
	rdv_report(r, doc, NULL, code, 0, &we);
	nodes_free(nodes, (size_t)x->rdv.nnodes);
}

/* A doc's exit code, read from a peer: only the codes attach has. */
static int doc_code(const json_t *doc)
{
	json_int_t c = json_integer_value(json_object_get(doc, "exit_code"));

	return c >= EXIT_CLEAN && c <= EXIT_CANNOT_RUN && c != EXIT_USAGE ? (int)c : EXIT_CANNOT_RUN;
}

static void run_worker(struct rdv *r, const struct across_opts *x, struct attach_data *d,
		       struct js_rank *mine, size_t nmine, int64_t t0, json_t **doc, int *code)
{
	struct err we = ERR_INIT;
	json_t *none = NULL;
	struct js_node self = { .node = x->rdv.rank, .answered = 1, .v = mine, .n = nmine };

	snprintf(self.name, sizeof(self.name), "%s", x->rdv.host ? x->rdv.host : "?");
	if (rdv_wait_joined(r, &we) == 0 &&
	    rdv_gather(r, "stacks", 0, js_encode(mine, nmine), 0, &none, &we) == 0 &&
	    rdv_report(r, doc, NULL, code, left_ms(t0, x->answer_ms + x->rdv.join_timeout_ms, 2000),
		       &we) == 0 && json_is_object(*doc)) {
		*code = doc_code(*doc);
		return;
	}
	json_decref(*doc);
	*doc = NULL;
	/* the master ended the run (a node died or never came): its report, if it sent one */
	if (rdv_failure_report(r, doc, 3000) == 0 && json_is_object(*doc)) {
		*code = doc_code(*doc);
		return;
	}
	json_decref(*doc);
	/* no master: this node's own answer, with why the others are not in it */
	*doc = report_doc(d, &self, 1, r, &x->rdv, we.msg, code);
}

int attach_across(const struct attach_opts *o, const struct across_opts *x, json_t **doc,
		  int *code, struct err *e)
{
	int64_t t0 = time_now_ms();
	struct rdv_opts ro = x->rdv;
	struct rdv *r;
	struct attach_data d;
	struct js_rank *mine;
	size_t nmine;

	*doc = NULL;
	ro.survive_dead = 1;	/* a node that freezes is named; the others' answers stand */
	r = rdv_new(&ro);
	if (rdv_start(r, e) < 0) {
		rdv_free(r);
		return -1;
	}
	/* the nodes join while each collects: the join costs no time of its own */
	if (attach_collect(o, &d, e) < 0) {
		rdv_abort(r, "usage", e->msg, x->rdv.rank);
		attach_data_release(&d);
		rdv_free(r);
		return -1;
	}
	nmine = attach_summaries(&d, &mine);
	if (rdv_is_master(r))
		run_master(r, x, &d, mine, nmine, t0, doc, code);
	else
		run_worker(r, x, &d, mine, nmine, t0, doc, code);
	attach_summaries_release(mine, nmine);
	attach_data_release(&d);
	/* the answer is out before the goodbyes: the master stays until each worker has its copy
	 * (a slow one can keep it a while), and the person waiting should not */
	if (x->deliver)
		x->deliver(x->deliver_arg, *doc, *code);
	rdv_finish(r);
	rdv_free(r);
	return 0;
}
