/*
 * ncclcheck run -- CMD...: check first, then start CMD with the recommended environment. The
 * recommendation is proven before it is used: the node's rules run again on the facts as the
 * job will see them (the recommended variables applied), and CMD starts only when no error is
 * left. CMD replaces ncclcheck (exec), so its exit code is the job's.
 */
#include "cmd/cmd.h"
#include "cmd/verdict.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "launch/launch.h"
#include "launch/gate.h"
#include "report/render.h"
#include "rules/launch_consistency.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/json.h"
#include "util/strbuf.h"

extern char **environ;

enum { OPT_DRY_RUN = 1, OPT_QUIET, OPT_NO_CLUSTER, OPT_TIMEOUT, OPT_TOKEN_FILE };

static const struct cli_opt run_opts[] = {
	{ .name = "dry-run", .id = OPT_DRY_RUN,
	  .help = N_("print which checks ran, the environment changes and the command;\n"
		     "start nothing") },
	{ .name = "quiet", .short_name = 'q', .id = OPT_QUIET,
	  .help = N_("no summary line on standard error before CMD starts") },
	{ .name = "no-cluster", .id = OPT_NO_CLUSTER,
	  .help = N_("this node's checks only, even in a multi-node launch") },
	CLI_ROW_NODE_RANK,
	{ .name = "timeout", .arg = "SECONDS", .id = OPT_TIMEOUT,
	  .help = N_("how long to wait for every node to join the cluster check (default 60)") },
	{ .name = "token-file", .arg = "FILE", .id = OPT_TOKEN_FILE,
	  .help = N_("the cluster check's shared secret (else $NCCLCHECK_TOKEN)") },
	VERDICT_ROW_FROM,
	VERDICT_ROW_NO_PYTHON,
	VERDICT_ROW_PYTHON_TIMEOUT,
	VERDICT_ROWS_JOB,
	{ 0 },
};

const struct verb verb_run = {
	.name = "run",
	.summary = N_("check this node, then start a command with the recommended environment"),
	.args = "-- CMD [ARGS]...",
	.description =
		N_("Checks first, then starts CMD with the environment the checks showed it needs (the\n"
		   "settings 'ncclcheck config --env' writes), after checking again as the job will run\n"
		   "with it. When an error is left that the environment does not fix, CMD is not started:\n"
		   "the findings are shown instead (exit code 1). CMD replaces ncclcheck, so its exit code\n"
		   "is the job's.\n"
		   "\n"
		   "Which checks: this node's ('ncclcheck node'), and, when run is started on every node of\n"
		   "a multi-node launch, the cluster's ('ncclcheck cluster': the nodes meet on MASTER_ADDR:\n"
		   "MASTER_PORT, test every link, and every node gets the same verdict, with its own\n"
		   "per-node values such as its interface name). The launch is read from run's --master,\n"
		   "--nodes and --node-rank, then from torchrun's own arguments in CMD (--nnodes,\n"
		   "--node_rank, --master_addr, --master_port, --rdzv_endpoint), then from the launcher's\n"
		   "environment (srun, mpirun, PMI, Kubeflow PET_*, or MASTER_ADDR, MASTER_PORT, NODE_RANK\n"
		   "and NNODES). The rendezvous is over, and its port closed, on every node before any\n"
		   "starts CMD, so torch's TCPStore can take MASTER_PORT. When the launch of any node does\n"
		   "not add up (WORLD_SIZE, NNODES, SLURM_*, ...), every node refuses, naming it. With\n"
		   "several processes per node only local rank 0 takes part. Under torchrun (ncclcheck run\n"
		   "started by torchrun) only the node checks run: torchrun's TCPStore already holds\n"
		   "MASTER_PORT.\n"),
	.opts = run_opts,
	.examples =
		N_("  ncclcheck run -- torchrun --nnodes=2 --node_rank=$R --master_addr=$A \\\n"
		   "      --master_port=29500 --nproc_per_node=8 train.py      (on each of the 2 nodes)\n"
		   "  ncclcheck run --dry-run --no-cluster -- python train.py\n"
		   "  ncclcheck run --from cluster.json -- torchrun --standalone --nproc-per-node 8 train.py\n"),
	.exit_codes =
		N_("CMD's own once it starts; 1 an error finding stopped it; 2 usage error;\n"
		   "3 the checks could not run (a node never came) or CMD could not be started.\n"),
	.flags = VERB_TEXT | VERB_STOP_AT_ARG,
	.run = cmd_run,
};

/* What CMD's environment gets that it does not have now (the per-node values for `node`). */
static void print_changes(FILE *out, const struct recommendation *rec, const struct envmap *before,
			  const struct envmap *after, const char *node)
{
	struct strbuf l10n = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		const char *old, *now;
		int seen = 0;

		if (!rec_var_applies(v, node) || rec_placeholder(v->value))
			continue;
		now = envmap_get(after, v->name);
		/* the value CMD gets: a node's own value overrides the every-node one */
		if ((now && (!v->value || strcmp(now, v->value))) || (!now && v->value))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = rec_var_applies(&rec->v[j], node) && !strcmp(rec->v[j].name, v->name) &&
			       ((!rec->v[j].value && !now) ||
				(rec->v[j].value && now && !strcmp(rec->v[j].value, now)));
		if (seen)
			continue;
		old = envmap_get(before, v->name);
		if (v->value && old && !strcmp(old, v->value))
			continue;
		if (!v->value && !old)
			continue;
		n++;
		if (v->value)
			fprintf(out, "  %s=%s", v->name, v->value);
		else
			fprintf(out, "  unset %s", v->name);
		if (old)
			fprintf(out, _(" (was %s)"), old);
		fprintf(out, "   # %s\n", v->why ? render_l10n(&l10n, v->why) : "");
	}
	strbuf_release(&l10n);
	if (!n)
		fputs(_("  (no changes: the environment already has what the job needs)\n"), out);
}

static void print_command(char **cmd)
{
	fputs(_("command:"), stdout);
	for (char **p = cmd; *p; p++) {
		struct strbuf w = STRBUF_INIT;
		emit_sh_word(&w, *p);
		printf(" %s", w.buf);
		strbuf_release(&w);
	}
	putchar('\n');
}

/* execs CMD with `em` (freed); returns only when it could not */
static int start(char **cmd, struct envmap *em)
{
	int rc;

	if (cli_finish(0) != 0) {
		envmap_free(em);
		return EXIT_CANNOT_RUN;
	}
	fflush(stderr);
	execvpe(cmd[0], cmd, envmap_envp(em));
	rc = errno;
	envmap_free(em);
	error("cannot start '%s': %s", cmd[0], err_errno_text(rc));
	return EXIT_CANNOT_RUN;
}

/* What this node's CMD gets that differs from the environment now: NAME -> value | null. */
static json_t *changed_env(const struct recommendation *rec, const struct envmap *em,
			   const char *self)
{
	json_t *o = json_object();

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		const char *now;

		if (!rec_var_applies(v, self) || rec_placeholder(v->value))
			continue;
		now = envmap_get(em, v->name);
		json_object_set_new(o, v->name, now ? json_string(now) : json_null());
	}
	return o;
}

/* Whether two findings have the same id and the same subject (node, ranks). */
static int same_subject(const struct finding *a, const struct finding *b)
{
	if (strcmp(a->id, b->id) || (!a->node) != (!b->node) || a->nranks != b->nranks ||
	    (a->node && strcmp(a->node, b->node)))
		return 0;
	for (size_t k = 0; k < a->nranks; k++)
		if (a->ranks[k] != b->ranks[k])
			return 0;
	return 1;
}

/* "launch.world_size on node-1 (rank 1), cluster.x" for the errors of `fs`, each subject once. */
static void errors_named(const struct findings *fs, struct strbuf *sb)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = fs->v[i];
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = fs->v[j]->sev == SEV_ERROR && !finding_folded(fs->v[j]) &&
			       same_subject(fs->v[j], f);
		if (f->sev != SEV_ERROR || finding_folded(f) || seen)
			continue;
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", f->id);
		if (f->node)
			strbuf_addf(sb, " on %s", f->node);
		if (f->nranks == 1)
			strbuf_addf(sb, " (rank %d)", f->ranks[0]);
	}
}

/* After the findings that stop the job: what is not started, and why. */
struct refusal {
	const char *cmd;
	const struct findings *fs;
	int all_nodes;		/* every node of a cluster launch stops on this verdict */
};

static void refused(FILE *out, const json_t *payload, const struct render_opts *ro, const void *arg)
{
	const struct refusal *r = arg;
	struct strbuf who = STRBUF_INIT;

	(void)payload;
	(void)ro;
	errors_named(r->fs, &who);
	fprintf(out, _("not starting '%s': %zu error(s) that the recommended environment does not "
		       "fix: %s\n"), r->cmd, findings_count(r->fs, SEV_ERROR), who.buf);
	if (r->all_nodes)
		fprintf(out, _("ncclcheck run: every node of the job stops on this same verdict; none "
			       "starts '%s' to wait for the others\n"), r->cmd);
	strbuf_release(&who);
}

static void gate_stop(struct run_gate *gate, int expect)
{
	if (!gate)
		return;
	run_gate_release(gate, 0, NULL, expect, expect > 0 ? 30000 : 2000);
	run_gate_free(gate);
}

/* Another local rank than 0: local rank 0's verdict decides, and gives the environment. */
static int run_out(const struct run_cluster_opts *rco, const char *key, char **cmd, int dry,
		   int quiet)
{
	struct err e = ERR_INIT;
	struct envmap *em;
	json_t *env = NULL, *val;
	const char *name;
	int go = run_gate_wait(key, 30000, rco->timeout_ms + 15L * 60 * 1000, &env, &e);

	if (go < 0) {
		error("%s; not starting '%s'", e.msg, cmd[0]);
		return EXIT_CANNOT_RUN;
	}
	if (!go) {
		json_decref(env);
		printf(_("not starting '%s': local rank 0 of this node stopped the job (its output "
			 "shows the findings)\n"), cmd[0]);
		return cli_finish(EXIT_FINDINGS);
	}
	em = envmap_new(environ);
	json_object_foreach(env, name, val)
		envmap_set(em, name, json_string_value(val));
	if (dry || !quiet) {
		FILE *out = dry ? stdout : stderr;

		fprintf(out, dry ? _("ncclcheck run: local rank 0's checks pass; it would start CMD "
				     "with:\n") :
				   _("ncclcheck run: local rank 0's checks pass; starting CMD with:\n"));
		json_object_foreach(env, name, val)
			if (json_is_null(val))
				fprintf(out, "  unset %s\n", name);
			else
				fprintf(out, "  %s=%s\n", name, json_string_value(val));
	}
	json_decref(env);
	if (dry) {
		print_command(cmd);
		envmap_free(em);
		return cli_finish(EXIT_CLEAN);
	}
	return start(cmd, em);
}

/* run's own options, besides the verdict's */
static int run_option(struct cli *c, int id, struct verdict_opts *vo, struct run_cluster_opts *rco,
		      int *dry, int *quiet)
{
	int r = verdict_option(vo, c, id);

	if (r)
		return r;
	switch (id) {
	case OPT_DRY_RUN: *dry = 1; break;
	case OPT_QUIET: *quiet = 1; break;
	case OPT_NO_CLUSTER: rco->no_cluster = 1; break;
	case OPT_TIMEOUT:
		if (cli_parse_duration_ms(c->arg, &rco->timeout_ms) < 0 || rco->timeout_ms < 100)
			return cli_fail(c, "--timeout wants seconds, not '%s'", c->arg);
		break;
	case OPT_TOKEN_FILE: rco->token_file = c->arg; break;
	}
	return id;
}

int cmd_run(int argc, char **argv)
{
	struct run_cluster_opts rco = { .node_rank = -1, .timeout_ms = 60000 };
	struct verdict_opts vo;
	struct verdict v;
	struct launch l;
	struct findings *after, *launch;
	struct envmap *before, *em;
	struct cli c;
	int dry = 0, quiet = 0, id, rc, plan;
	char **cmd, checks[512], shown[1024], key[200];
	struct strbuf l10n = STRBUF_INIT;
	const char *self;
	struct run_gate *gate = NULL;
	int expect = -1;

	verdict_opts_init(&vo);
	/* VERB_STOP_AT_ARG: options end at the first word of CMD, as with env(1) */
	cli_start(&c, &verb_run, argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (run_option(&c, id, &vo, &rco, &dry, &quiet) == CLI_STOP)
			return c.code;
	if (id == CLI_STOP)
		return c.code;
	rco.node_rank = vo.launch.node_rank;
	rco.cli = &c;
	if (c.optind >= argc)
		return cli_usage_error("run", "no command to run (ncclcheck run -- CMD ...)");
	cmd = argv + c.optind;

	plan = run_cluster_plan(&vo, &rco, cmd, &l, checks, sizeof(checks));
	if (plan < 0)
		return -plan;
	/* `checks` stays English for the test below: what a person reads is `shown` */
	snprintf(shown, sizeof(shown), "%s", render_l10n(&l10n, checks));
	strbuf_release(&l10n);
	/* which checks, unless nothing at all looked like a multi-node launch */
	if (!quiet && (plan != RUN_PLAN_NODE || !strstr(checks, "no rendezvous given")))
		fprintf(stderr, "ncclcheck run: %s\n", shown);
	run_gate_key(&vo, &l, key, sizeof(key));
	if (plan == RUN_PLAN_OUT) {
		launch_release(&l);
		return run_out(&rco, key, cmd, dry, quiet);
	}
	/* the other local ranks of this node wait for this one's verdict */
	if (plan == RUN_PLAN_CLUSTER && l.local_rank == 0 && l.local_size != 1) {
		struct err e = ERR_INIT;

		gate = run_gate_open(key, &e);
		if (!gate) {
			error("%s", e.msg);
			launch_release(&l);
			return EXIT_CANNOT_RUN;
		}
		expect = l.local_size > 1 ? l.local_size - 1 : -1;
	}
	launch = findings_new();
	if (plan == RUN_PLAN_CLUSTER)
		rc = run_cluster_verdict(&vo, &rco, &l, &v, launch);
	else
		rc = verdict_gather(&vo, &v);
	launch_release(&l);
	if (rc) {
		gate_stop(gate, expect);
		findings_free(launch);
		verdict_release(&v);
		return cli_finish(rc);
	}
	before = envmap_new(environ);
	/*
	 * The launcher's own numbers, as the job's processes will see them. In a cluster launch
	 * they came with every node's facts and the master judged them (run_cluster_verdict): a
	 * check of this node's environment alone here would let this node refuse while the others
	 * start and wait in torch's rendezvous for it.
	 */
	if (plan != RUN_PLAN_CLUSTER) {
		const json_t *gpus = v.facts ? json_object_get(v.facts, "gpus") : NULL;
		struct launch_facts lf;

		launch_facts_from_env(&lf, before, (int)json_array_size(gpus));
		rule_launch_consistency(&lf, launch);
	}
	after = verdict_what_if(&v, launch);
	findings_free(launch);
	if (findings_count(after, SEV_ERROR)) {
		struct refusal r = { .cmd = cmd[0], .fs = after,
				     .all_nodes = v.cluster && plan == RUN_PLAN_CLUSTER };
		char lead[300];
		int code;

		snprintf(lead, sizeof(lead), _("not starting '%.250s'"), cmd[0]);
		gate_stop(gate, expect);
		code = cmd_report(&c, NULL, after, &(struct report_text){
			.tail = refused, .arg = &r, .lead = lead,
			.flags = REPORT_CODE | REPORT_VERDICT, .code = EXIT_FINDINGS });
		findings_free(after);
		envmap_free(before);
		verdict_release(&v);
		return code;
	}
	em = envmap_new(environ);
	self = jpath_str(v.facts, "host.hostname");
	rec_apply_env(v.rec, em, self);
	if (gate) {
		json_t *genv = changed_env(v.rec, em, self);
		int told = run_gate_release(gate, 1, genv, expect, expect > 0 ? 30000 : 2000);

		json_decref(genv);
		run_gate_free(gate);
		if (!quiet)
			fprintf(stderr, _("ncclcheck run: told %d other local rank(s) to start\n"), told);
	}
	if (dry) {
		printf(_("ncclcheck run: checks: %s\n"), shown);
		printf(_("ncclcheck run: the checks pass with this environment (%zu warning(s)); it "
			 "would start CMD with:\n"), findings_count(after, SEV_WARN));
		print_changes(stdout, v.rec, before, em, self);
		print_command(cmd);
		findings_free(after);
		envmap_free(before);
		envmap_free(em);
		verdict_release(&v);
		return cli_finish(EXIT_CLEAN);
	}
	if (!quiet) {
		fprintf(stderr, v.cluster ? _("ncclcheck run: checks pass (node and cluster; %zu "
					      "warning(s)); starting %s with:\n") :
					    _("ncclcheck run: checks pass (node; %zu warning(s)); starting "
					      "%s with:\n"), findings_count(after, SEV_WARN), cmd[0]);
		print_changes(stderr, v.rec, before, em, self);
	}
	findings_free(after);
	envmap_free(before);
	verdict_release(&v);
	return start(cmd, em);
}
