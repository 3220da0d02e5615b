/*
 * run's cluster phase: when `ncclcheck run -- CMD` is started on every node of a multi-node
 * launch, the nodes check each other as `ncclcheck cluster` does (net/cluster_run.h) before any
 * of them starts CMD, and the environment comes from that verdict (per-node values for this
 * node). This file only decides whether to take part and wires the library's options; the check
 * is cluster_run()'s.
 *
 * The rendezvous listens on MASTER_PORT, the port torchrun's TCPStore binds once CMD starts. So
 * the order matters: cluster_run() returns on the master only after every worker has the report
 * and said bye (or rdv_finish's bound passed), and its listener is closed (rdv_free; every socket
 * is SOCK_CLOEXEC besides) before exec. A worker execs after its own report: it then connects to
 * a port that is either not yet listening (torch retries until its timeout) or already torch's.
 */
#include "cmd/cmd.h"
#include "cmd/verdict.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "finding.h"
#include "ncclcheck.h"
#include "cluster/run.h"
#include "launch/launch.h"
#include "launch/vars.h"
#include "launch/argv.h"
#include "probe/probe.h"
#include "report/render.h"
#include "rules/cluster.h"
#include "rules/launch_consistency.h"
#include "rules/rules.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int run_cluster_plan(const struct verdict_opts *vo, const struct run_cluster_opts *ro,
		     char *const *cmd, struct launch *l, char *why, size_t len)
{
	struct launch_flags lf = { .master = NULL, .nodes = -1, .node_rank = -1 };
	struct torchrun_argv t;
	struct err e = ERR_INIT;
	char master[300];

	memset(l, 0, sizeof(*l));
	if (vo->from) {
		snprintf(why, len, N_("node checks only: the saved verdict %s is used"), vo->from);
		return RUN_PLAN_NODE;
	}
	if (ro->no_cluster) {
		snprintf(why, len, "%s", N_("node checks only (--no-cluster)"));
		return RUN_PLAN_NODE;
	}
	/* the rendezvous CMD itself names, over the environment's; run's own flags over both */
	launch_argv_torchrun(cmd, &t);
	if (t.standalone) {
		snprintf(why, len, "%s", N_("node checks only: torchrun --standalone runs on one node"));
		return RUN_PLAN_NODE;
	}
	if (t.nnodes == -2) {
		snprintf(why, len, "%s", N_("node checks only: torchrun's --nnodes MIN:MAX is elastic, "
			 "the node count is not fixed (run 'ncclcheck cluster' on every node to check "
			 "them together)"));
		return RUN_PLAN_NODE;
	}
	if (vo->master_addr) {
		snprintf(master, sizeof(master), strchr(vo->master_addr, ':') ? "[%s]:%d" : "%s:%d",
			 vo->master_addr, vo->master_port ? vo->master_port : LAUNCH_DEFAULT_PORT);
		lf.master = master;
	} else if (t.master_addr[0]) {
		if (t.master_port)
			snprintf(master, sizeof(master), strchr(t.master_addr, ':') ? "[%s]:%d" : "%s:%d",
				 t.master_addr, t.master_port);
		else
			snprintf(master, sizeof(master), "%s", t.master_addr);
		lf.master = master;
	}
	lf.nodes = vo->nodes > 0 ? vo->nodes : t.nnodes;
	lf.node_rank = ro->node_rank >= 0 ? ro->node_rank : t.node_rank;
	if (launch_detect(vo->po.env, &lf, l, &e) < 0) {
		launch_release(l);
		memset(l, 0, sizeof(*l));
		if (ro->node_rank >= 0) {
			cli_usage_error("run", "%s", e.msg);
			return -EXIT_USAGE;
		}
		snprintf(why, len, N_("node checks only: no multi-node launch seen (%s)"), e.msg);
		return RUN_PLAN_NODE;
	}
	if (l->nnodes <= 1) {
		snprintf(why, len, "%s", N_("node checks only: a job of one node"));
		return RUN_PLAN_NODE;
	}
	if (l->kind == LAUNCH_TORCHRUN) {
		snprintf(why, len, "%s", N_("node checks only: started by torchrun, whose TCPStore "
			 "already holds MASTER_PORT (start torchrun through run instead: ncclcheck "
			 "run -- torchrun ...)"));
		return RUN_PLAN_NODE;
	}
	if (!l->participate) {
		snprintf(why, len, N_("node checks only: %s"), l->note);
		return RUN_PLAN_OUT;
	}
	snprintf(why, len, N_("node and cluster checks: node rank %d of %d (%s), rendezvous on %s:%d"),
		 l->node_rank, l->nnodes, launcher_name(l->kind),
		 l->master_addr[0] ? l->master_addr : "this node", l->master_port);
	return RUN_PLAN_CLUSTER;
}

void run_gate_key(const struct verdict_opts *vo, const struct launch *l, char *key, size_t len)
{
	/* what names this job (and this step) to its launcher */
	static const enum launch_var_id ids[] = { LV_SLURM_JOB_ID, LV_SLURM_STEP_ID,
						  LV_PMIX_NAMESPACE, LV_OMPI_MCA_ESS_BASE_JOBID,
						  LV_TORCHELASTIC_RUN_ID, LV_NONE };
	struct strbuf sb = STRBUF_INIT;
	size_t j = 0;

	for (const enum launch_var_id *id = ids; *id != LV_NONE; id++)
		if (envmap_get(vo->po.env, lv_name(*id)))
			strbuf_addf(&sb, "%s-", envmap_get(vo->po.env, lv_name(*id)));
	strbuf_addf(&sb, "%s-%d-%d", l->master_addr, l->master_port, l->nnodes);
	/* a name, not a path: only the safe characters */
	for (size_t i = 0; i < sb.len && j + 1 < len; i++)
		key[j++] = isalnum((unsigned char)sb.buf[i]) || strchr(".-_", sb.buf[i]) ? sb.buf[i] : '_';
	key[j] = '\0';
	strbuf_release(&sb);
}

static json_t *do_probe(void *arg)
{
	return probe_node(arg);
}

/* The report's entry for this rank, or NULL. */
static const json_t *own_node(const json_t *report, int rank)
{
	const json_t *nodes = json_object_get(report, "nodes"), *n;
	size_t i;

	json_array_foreach(nodes, i, n)
		if (json_integer_value(json_object_get(n, "rank")) == rank)
			return n;
	return NULL;
}

/* The findings of a cluster check that could not finish, through the tail every verb shares. */
static void show_failure(const struct cli *c, const json_t *report)
{
	struct findings *fs = findings_new();
	char ferr[256];

	if (findings_from_json(fs, json_object_get(report, "findings"), ferr, sizeof(ferr)) < 0)
		error("the cluster report's findings are unreadable: %s", ferr);
	cmd_report(c, NULL, fs, &(struct report_text){ .flags = REPORT_CODE,
						      .code = EXIT_CANNOT_RUN });
	findings_free(fs);
}

int run_cluster_verdict(const struct verdict_opts *vo, const struct run_cluster_opts *ro,
			const struct launch *l, struct verdict *v, struct findings *launch)
{
	struct cluster_opts co;
	struct probe_ctx po = vo->po;
	struct strbuf tok = STRBUF_INIT;
	struct err e = ERR_INIT;
	const json_t *self;
	char host[256], *source;
	json_t *report = NULL;
	int code, rc;

	memset(v, 0, sizeof(*v));
	if (cli_cluster_token(ro->token_file, vo->po.env, &tok) < 0) {
		strbuf_release(&tok);
		return EXIT_USAGE;
	}
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "rank-%d", l->node_rank);
	host[sizeof(host) - 1] = '\0';
	cluster_opts_init(&co);
	co.rdv.master_host = l->master_addr[0] ? l->master_addr : NULL;
	co.rdv.master_port = l->master_port;
	co.rdv.rank = l->node_rank;
	co.rdv.nnodes = l->nnodes;
	co.rdv.host = host;
	co.rdv.join_timeout_ms = ro->timeout_ms;
	co.rdv.token = tok.len ? tok.buf : NULL;
	co.rdv.token_len = tok.len;
	co.rdv.proc_root = po.root_proc;
	co.rdv.expected_hosts = (const char *const *)l->hosts;
	co.rdv.nexpected = l->nhosts;
	po.master_addr = l->master_addr[0] ? l->master_addr : NULL;
	co.probe = do_probe;
	co.probe_arg = &po;
	co.node_rules = rules_run_node;
	co.xrules = cluster_xrules;
	code = cluster_run(&co, &report, &e);
	strbuf_release(&tok);
	if (code < 0) {
		error("the cluster check could not start: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	if (code == EXIT_CANNOT_RUN || json_object_get(report, "error")) {
		show_failure(ro->cli, report);
		printf("not starting the command: this node (rank %d, %s) could not finish the cluster "
		       "check: %s\n", l->node_rank, host,
		       json_string_value(json_object_get(report, "error")) ?
		       json_string_value(json_object_get(report, "error")) : "see the findings");
		json_decref(report);
		return EXIT_CANNOT_RUN;
	}
	/* every node's launch, as the master judged it from that node's facts: one decision */
	if (cluster_report_node_findings(report, launch_consistency_id, launch, &e) < 0) {
		error("not starting the command: %s", e.msg);
		json_decref(report);
		return EXIT_CANNOT_RUN;
	}
	self = own_node(report, l->node_rank);
	source = xasprintf("ncclcheck cluster across %d nodes (this is rank %d, %s)", l->nnodes,
			   l->node_rank, host);
	rc = verdict_gather_doc(vo, v, report, json_object_get(self, "facts"), source);
	free(source);
	json_decref(report);
	return rc;
}
