/*
 * ncclcheck cluster: run on every node at once; they meet on MASTER_ADDR:MASTER_PORT, exchange
 * their facts, test every link between them, and every node prints the same verdict. The work is
 * in net/cluster_run.c; this file reads the command line, the environment and the token, and
 * prints.
 */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attach/ras_ask.h"
#include "finding.h"
#include "ncclcheck.h"
#include "cluster/run.h"
#include "launch/launch.h"
#include "probe/probe.h"
#include "report/cluster_text.h"
#include "report/render.h"
#include "rules/cluster.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

extern char **environ;

enum { OPT_TIMEOUT = 1, OPT_TOKEN_FILE, OPT_NO_PYTHON, OPT_NO_PORTS, OPT_NO_MTU, OPT_NO_BW,
	OPT_FULL_MESH_MAX, OPT_WITH_RAS };

static const struct cli_opt cluster_opts[] = {
	CLI_ROW_MASTER,
	CLI_ROW_NODES,
	CLI_ROW_NODE_RANK,
	{ .name = "timeout", .arg = "SECONDS", .id = OPT_TIMEOUT,
	  .help = N_("how long to wait for every node to join (default 60)") },
	{ .name = "token-file", .arg = "FILE", .id = OPT_TOKEN_FILE,
	  .help = N_("a secret every node shares (else $NCCLCHECK_TOKEN); without one any\n"
		     "process that reaches the port may join, and rank 0 warns") },
	{ .name = "no-python", .id = OPT_NO_PYTHON,
	  .help = N_("skip the Python probe (importing torch takes a second or more)") },
	{ .name = "no-ports", .id = OPT_NO_PORTS,
	  .help = N_("skip the scan of each node's ephemeral port range") },
	{ .name = "no-mtu", .id = OPT_NO_MTU, .help = N_("skip the path MTU test") },
	{ .name = "no-bw", .id = OPT_NO_BW, .help = N_("skip the bandwidth rounds") },
	{ .name = "full-mesh-max", .arg = "N", .id = OPT_FULL_MESH_MAX,
	  .help = N_("test all pairs up to N nodes (default 32), ring neighbours beyond") },
	{ .name = "with-ras", .id = OPT_WITH_RAS,
	  .help = N_("on a running job: rank 0 asks NCCL's RAS ($NCCL_RAS_ADDR, else\n"
		     "localhost:28028) for its DIAGNOSTICS report (NCCL >= 2.31: GPUs, driver,\n"
		     "ECC, Xid, NVLink and NCCL_* env compared across the job's ranks)") },
	{ 0 },
};

const struct verb verb_cluster = {
	.name = "cluster",
	.summary = N_("run on every node: can these nodes train together, and with which settings?"),
	.description =
		N_("Run it on every node of the job at the same time. The nodes meet on MASTER_ADDR:\n"
		   "MASTER_PORT (rank 0 listens there itself, the port torch's TCPStore will use, so a join\n"
		   "proves that path), exchange what each node is, test every link between every pair over\n"
		   "every interface (TCP connect both ways, latency, path MTU, the peer's ephemeral port\n"
		   "range, bandwidth in a constant number of rounds), and every node prints the same report.\n"
		   "\n"
		   "With no flags, rank, node count and master come from the launcher: torchrun, srun (the\n"
		   "master is the first host of SLURM_JOB_NODELIST unless MASTER_ADDR is set), mpirun, PMI\n"
		   "launchers, Kubeflow (PET_*), or a script's MASTER_ADDR, MASTER_PORT, NODE_RANK and\n"
		   "NNODES. With several processes per node only local rank 0 takes part; the others exit\n"
		   "at once.\n"),
	.opts = cluster_opts,
	.json_help = N_("print the report as JSON: nodes[{name, facts}], links[], findings"),
	.examples =
		N_("  ncclcheck cluster --master 10.0.0.1:29500 --nodes 2 --node-rank 0    (on node 0)\n"
		   "  ncclcheck cluster --master 10.0.0.1:29500 --nodes 2 --node-rank 1    (on node 1)\n"
		   "  srun -N4 --ntasks-per-node=1 ncclcheck cluster --json > cluster.json\n"),
	.exit_codes =
		N_("0 no errors, 1 at least one error finding, 2 usage error, 3 the check could not\n"
		   "run (a node never came, died, or the port is taken; or a link test could not run\n"
		   "its probes in time and no other error stands: an error found beside it gives 1).\n"),
	.flags = VERB_REPORT | VERB_HTML,
	.run = cmd_cluster,
};

struct probe_arg {
	struct probe_ctx po;
};

static json_t *do_probe(void *arg)
{
	struct probe_arg *pa = arg;

	return probe_node(&pa->po);
}

struct progress_state {
	int tty;
	int shown;
	/* $NCCLCHECK_PROGRESS_FILE: each new phase's name replaces the file's line, so a test (or a
	 * wrapper) waits for a state of the run instead of sleeping */
	const char *file;
	const char *written;
	const char *phase;	/* the phase t0 is of */
	int64_t t0;
	int lines;		/* not a terminal: a line per change of the join (not with --json) */
	const char *master;	/* "10.10.0.10:29500", for a worker's line */
	char last[800];		/* the last join line printed, without its time left */
};

/*
 * While the nodes join: on a terminal one line rewritten in place ("2/3 joined; missing: rank
 * 2 (n2); 57 s left"); piped, a line each time who has joined changes, so a log shows when
 * each node came and which never did.
 */
static void on_waiting(void *arg, const struct rdv_join_status *st, int master)
{
	struct progress_state *ps = arg;
	struct strbuf l10n = STRBUF_INIT;
	char what[800];

	if (master)
		snprintf(what, sizeof(what), _("waiting for the nodes: %d/%d joined; missing: rank%s %s"),
			 st->joined, st->expected, strchr(st->missing, ',') ? "s" : "", st->missing);
	else
		snprintf(what, sizeof(what), _("joining the master %s: %s"), ps->master,
			 st->last_fail[0] ? render_l10n(&l10n, st->last_fail) : _("no answer yet"));
	strbuf_release(&l10n);
	if (ps->tty) {
		fputs("\r\033[K", stderr);
		fprintf(stderr, _("%s; %ld s left"), what, (st->left_ms + 999) / 1000);
		fflush(stderr);
		ps->shown = 1;
	} else if (ps->lines && strcmp(what, ps->last)) {
		fprintf(stderr, _("ncclcheck cluster: %s; %ld s left\n"), what,
			(st->left_ms + 999) / 1000);
		fflush(stderr);
	}
	snprintf(ps->last, sizeof(ps->last), "%s", what);
}

/* A phase's name as a person reads it: the names are --json's timing keys, so they stay English
 * there and are put into the language here. */
static const char *phase_label(const char *phase)
{
	static const char *const words[] = {
		N_("listening"), N_("joining"), N_("exchanging facts"),
		N_("serving the master's link tests"), N_("waiting for the report"),
		N_("asking NCCL's RAS"), N_("connect"), N_("scan"), N_("mtu"), N_("bw"),
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(phase, words[i]))
			return _(words[i]);
	return phase;
}

static void on_progress(void *arg, const char *phase, int done, int total)
{
	struct progress_state *ps = arg;
	int64_t now = time_now_ms();

	if (ps->file && phase != ps->written) {
		FILE *f = fopen(ps->file, "w");

		ps->written = phase;
		if (f) {
			fprintf(f, "%s\n", phase);
			fclose(f);
		}
	}
	if (!ps->tty)
		return;
	if (phase != ps->phase) {
		ps->phase = phase;
		ps->t0 = now;
	}
	fputs("\r\033[K", stderr);
	if (total < 0)
		fprintf(stderr, "%s ...", phase_label(phase));
	else if (done > 0 && done < total && now - ps->t0 > 500)
		/* the tests of a phase cost about the same: the pace so far is the best guess */
		fprintf(stderr, _("%s: %d/%d tests, about %.0f s left"), phase_label(phase), done,
			total, (double)(now - ps->t0) / done * (total - done) / 1000.0);
	else
		fprintf(stderr, _("%s: %d/%d tests"), phase_label(phase), done, total);
	fflush(stderr);
	ps->shown = 1;
}

/* what the text's head and tail read besides the report */
struct cluster_tail_arg {
	const struct launch *l;
	size_t deferred;	/* link tests the report holds as a placeholder (cluster_links) */
};

/* Why this node could not finish, right under the verdict. */
static void cluster_head(FILE *out, const json_t *report, const struct render_opts *ro,
			 const void *arg)
{
	const struct launch *l = ((const struct cluster_tail_arg *)arg)->l;
	struct strbuf l10n = STRBUF_INIT;
	char host[256];

	(void)ro;
	if (!json_object_get(report, "error"))
		return;
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "rank-%d", l->node_rank);
	host[sizeof(host) - 1] = '\0';
	fprintf(out, _("this node (rank %d, %s) could not finish: %s\n\n"), l->node_rank, host,
		render_l10n(&l10n, json_string_value(json_object_get(report, "error"))));
	strbuf_release(&l10n);
}

/* After the summary: the measurements (-v), or one line of what was measured. */
static void cluster_tail(FILE *out, const json_t *report, const struct render_opts *ro,
			 const void *arg)
{
	const struct cluster_tail_arg *ta = arg;
	struct strbuf text = STRBUF_INIT;

	if (ro->verbose) {
		fputc('\n', out);
		cluster_report_text(report, ro->verbose, &text);
	} else {
		cluster_report_brief(report, ta->deferred, &text);
	}
	fputs(text.buf, out);
	strbuf_release(&text);
}

/* cluster's own options, besides the launch ones, and what they set */
struct cluster_args {
	const char *token_file;
	long timeout_ms;
	int skip_python;
	int with_ras;
};

/*
 * --with-ras: RAS is job-wide, so one ask on rank 0 covers every rank. TIMEOUT is RAS's wait for
 * unresponsive peers; NCCL may take that plus 5 s more, so each exchange gets a bound of its own
 * and the workers (waiting 60 s for the report) never notice.
 */
#define CLUSTER_RAS_TIMEOUT_S 1
#define CLUSTER_RAS_DEADLINE_MS 6500

struct ras_arg {
	char host[256], port[16];
};

static void ask_ras(void *arg, struct findings *fs)
{
	const struct ras_arg *ra = arg;
	struct ras_diag_ask a = { 0 };
	char addr[300];

	snprintf(addr, sizeof(addr), strchr(ra->host, ':') ? "[%s]:%s" : "%s:%s", ra->host,
		 ra->port);
	ras_diag_ask_once(&a, ra->host, ra->port, CLUSTER_RAS_TIMEOUT_S, CLUSTER_RAS_DEADLINE_MS);
	ras_diag_ask_findings(&a, addr, "ncclcheck cluster --with-ras", fs);
	ras_diag_ask_release(&a);
}

static int cluster_option(struct cli *c, int id, struct cli_launch *lo, struct cluster_opts *co,
			  struct cluster_args *o)
{
	long v;
	int r = cli_launch_option(c, id, lo);

	if (r)
		return r;
	switch (id) {
	case OPT_TIMEOUT:
		if (cli_parse_duration_ms(c->arg, &o->timeout_ms) < 0 || o->timeout_ms < 100)
			return cli_fail(c, "--timeout wants seconds, not '%s'", c->arg);
		break;
	case OPT_TOKEN_FILE: o->token_file = c->arg; break;
	case OPT_NO_PYTHON: o->skip_python = 1; break;
	case OPT_WITH_RAS: o->with_ras = 1; break;
	case OPT_NO_PORTS: co->ports = 0; break;
	case OPT_NO_MTU: co->mtu = 0; break;
	case OPT_NO_BW: co->bw = 0; break;
	case OPT_FULL_MESH_MAX:
		if (cli_parse_long(c->arg, 2, LAUNCH_HOSTS_MAX, &v) < 0)
			return cli_fail(c, "--full-mesh-max wants a count, not '%s'", c->arg);
		co->full_mesh_max = (int)v;
		break;
	}
	return id;
}

int cmd_cluster(int argc, char **argv)
{
	struct cli_launch lo;
	struct launch_flags lf = { .master = NULL, .nodes = -1, .node_rank = -1 };
	struct cluster_opts co;
	struct probe_arg pa;
	struct progress_state ps = { .tty = isatty(2) };
	struct strbuf tok = STRBUF_INIT;
	struct launch l;
	struct envmap *env;
	struct err e = ERR_INIT;
	struct cli c;
	struct cluster_args o = { .timeout_ms = 60000 };
	struct ras_arg ra;
	long v;
	int id, code;
	char host[256], master_at[300];
	json_t *report = NULL;
	struct cluster_links *links = NULL;

	cluster_opts_init(&co);
	cli_launch_init(&lo);
	cli_start(&c, &verb_cluster, argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (cluster_option(&c, id, &lo, &co, &o) == CLI_STOP)
			return c.code;
	if (id == CLI_STOP)
		return c.code;
	lf.master = lo.master;
	lf.nodes = lo.nodes;
	lf.node_rank = lo.node_rank;

	/* the job's environment: the probes read it, the launcher is detected from it */
	env = cli_environ();
	probe_ctx_init(&pa.po, env);
	probe_ctx_knobs(&pa.po, env);
	pa.po.skip_python = o.skip_python;
	if (launch_detect(env, &lf, &l, &e) < 0) {
		envmap_free(env);
		return cli_usage_error("cluster", "%s", e.msg);
	}
	if (!l.participate) {
		fprintf(stderr, _("ncclcheck: note: %s; this process exits\n"), l.note);
		launch_release(&l);
		envmap_free(env);
		return cli_finish(EXIT_CLEAN);
	}
	/* a knob for tests and very slow nodes: how long rank 0 waits for every node's facts */
	if (envmap_get(env, "NCCLCHECK_FACTS_TIMEOUT_MS") &&
	    cli_parse_long(envmap_get(env, "NCCLCHECK_FACTS_TIMEOUT_MS"), 100, 3600000, &v) == 0)
		co.facts_timeout_ms = v;
	if (o.with_ras && ras_addr_pick(NULL, envmap_get(env, "NCCL_RAS_ADDR"), ra.host,
					sizeof(ra.host), ra.port, sizeof(ra.port), &e) < 0) {
		code = cli_usage_error("cluster", "--with-ras: $NCCL_RAS_ADDR %s", e.msg);
		goto out;
	}
	if (cli_cluster_token(o.token_file, env, &tok) < 0) {
		code = EXIT_USAGE;
		goto out;
	}
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "rank-%d", l.node_rank);
	host[sizeof(host) - 1] = '\0';

	co.rdv.master_host = l.master_addr[0] ? l.master_addr : NULL;
	co.rdv.master_port = l.master_port;
	co.rdv.rank = l.node_rank;
	co.rdv.nnodes = l.nnodes;
	co.rdv.host = host;
	co.rdv.join_timeout_ms = o.timeout_ms;
	co.rdv.token = tok.len ? tok.buf : NULL;
	co.rdv.token_len = tok.len;
	co.rdv.proc_root = pa.po.root_proc;
	co.rdv.expected_hosts = (const char *const *)l.hosts;
	co.rdv.nexpected = l.nhosts;
	pa.po.master_addr = l.master_addr[0] ? l.master_addr : NULL;
	co.probe = do_probe;
	co.probe_arg = &pa;
	co.node_rules = rules_run_node;
	co.xrules = cluster_xrules;
	co.links = &links;
	if (o.with_ras) {
		co.master_findings = ask_ras;
		co.master_findings_arg = &ra;
	}
	ps.file = envmap_get(env, "NCCLCHECK_PROGRESS_FILE");
	co.progress = on_progress;
	co.waiting = on_waiting;
	co.progress_arg = &ps;
	ps.lines = !c.common.json;
	snprintf(master_at, sizeof(master_at), "%s:%d", l.master_addr, l.master_port);
	ps.master = master_at;
	if (!c.common.json && l.node_rank == 0)
		fprintf(stderr, _("ncclcheck cluster: rank 0 of %d (%s), listening on port %d\n"),
			l.nnodes, launcher_name(l.kind), l.master_port);
	else if (!c.common.json)
		fprintf(stderr, _("ncclcheck cluster: rank %d of %d (%s), master %s:%d\n"), l.node_rank,
			l.nnodes, launcher_name(l.kind), l.master_addr, l.master_port);

	code = cluster_run(&co, &report, &e);
	if (ps.shown)
		fputs("\r\033[K", stderr);
	if (code < 0) {
		error("%s", e.msg);
		code = EXIT_CANNOT_RUN;
	} else {
		struct findings *fs = findings_new();
		struct cluster_tail_arg ta = { .l = &l };
		char ferr[256];

		/* the writers that read the links as a tree get them there; --json writes them one
		 * at a time, the first screen only counts them */
		if (links && (c.common.html || (!c.common.json && c.common.verbose)))
			jsplice_materialize(report, &links->sp);
		ta.deferred = links ? links->sp.n : 0;
		if (!c.common.json && findings_from_json(fs, json_object_get(report, "findings"),
							 ferr, sizeof(ferr)) < 0)
			error("the report's findings are unreadable: %s", ferr);
		code = cmd_report(&c, report, fs, &(struct report_text){
			.head = cluster_head, .tail = cluster_tail, .arg = &ta,
			.splice = links ? &links->sp : NULL,
			.flags = REPORT_CODE | REPORT_DOC | REPORT_VERDICT,
			.code = code });
		findings_free(fs);
	}
	json_decref(report);
	cluster_links_free(links);
out:
	strbuf_release(&tok);
	launch_release(&l);
	envmap_free(env);
	return code;
}
