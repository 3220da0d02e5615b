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

#include "finding.h"
#include "ncclcheck.h"
#include "cluster/run.h"
#include "launch/launch.h"
#include "probe/probe.h"
#include "report/render.h"
#include "rules/cluster.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

extern char **environ;

static const char cluster_usage[] =
"usage: ncclcheck cluster [--master ADDR:PORT --nodes N --node-rank R] [--timeout SECONDS]\n"
"                         [--token-file FILE] [--json] [--no-python] [--no-ports] [--no-mtu]\n"
"                         [--no-bw] [--full-mesh-max N] [--verbose] [--no-color]\n"
"\n"
"Run it on every node of the job at the same time. The nodes meet on MASTER_ADDR:MASTER_PORT\n"
"(rank 0 listens there itself, the port torch's TCPStore will use, so a join proves that path),\n"
"exchange what each node is, test every link between every pair over every interface (TCP\n"
"connect both ways, latency, path MTU, the peer's ephemeral port range, bandwidth in a constant\n"
"number of rounds), and every node prints the same report.\n"
"\n"
"With no flags, rank, node count and master come from the launcher: torchrun, srun (the master\n"
"is the first host of SLURM_JOB_NODELIST unless MASTER_ADDR is set), mpirun, PMI launchers,\n"
"Kubeflow (PET_*), or a script's MASTER_ADDR, MASTER_PORT, NODE_RANK and NNODES. With several\n"
"processes per node only local rank 0 takes part; the others exit at once.\n"
"\n"
"  --master ADDR:PORT     rank 0's address and port (default $MASTER_ADDR:$MASTER_PORT)\n"
"  --nodes N              how many nodes take part (default $NNODES, ...)\n"
"  --node-rank R          this node's rank, 0..N-1 (default $NODE_RANK, ...)\n"
"  --timeout SECONDS      how long to wait for every node to join (default 60)\n"
"  --token-file FILE      a secret every node shares (else $NCCLCHECK_TOKEN); without one any\n"
"                         process that reaches the port may join, and rank 0 warns\n"
"  --json                 print the report as JSON: nodes[{name, facts}], links[], findings\n"
"  --no-python            skip the Python probe (importing torch takes a second or more)\n"
"  --no-ports             skip the scan of each node's ephemeral port range\n"
"  --no-mtu               skip the path MTU test\n"
"  --no-bw                skip the bandwidth rounds\n"
"  --full-mesh-max N      test all pairs up to N nodes (default 32), ring neighbours beyond\n"
"  -v, --verbose          show every piece of evidence and every passed check\n"
"      --no-color         no colours (also NO_COLOR=1)\n"
"\n"
"Exit codes: 0 no errors, 1 at least one error finding, 2 usage error, 3 the check could not\n"
"run (a node never came, died, or the port is taken).\n";

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
	const char *phase;	/* the phase t0 is of */
	int64_t t0;
};

static void on_progress(void *arg, const char *phase, int done, int total)
{
	struct progress_state *ps = arg;
	int64_t now = time_now_ms();

	if (!ps->tty)
		return;
	if (phase != ps->phase) {
		ps->phase = phase;
		ps->t0 = now;
	}
	if (total < 0)
		fprintf(stderr, "\r\033[K%s ...", phase);
	else if (done > 0 && done < total && now - ps->t0 > 500)
		/* the tests of a phase cost about the same: the pace so far is the best guess */
		fprintf(stderr, "\r\033[K%s: %d/%d tests, about %.0f s left", phase, done, total,
			(double)(now - ps->t0) / done * (total - done) / 1000.0);
	else
		fprintf(stderr, "\r\033[K%s: %d/%d tests", phase, done, total);
	fflush(stderr);
	ps->shown = 1;
}

int cmd_cluster(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "master", required_argument, NULL, 'm' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "node-rank", required_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "token-file", required_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-python", no_argument, NULL, 'P' },
		{ "no-ports", no_argument, NULL, 'O' },
		{ "no-mtu", no_argument, NULL, 'U' },
		{ "no-bw", no_argument, NULL, 'B' },
		{ "full-mesh-max", required_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct launch_flags lf = { .master = NULL, .nodes = -1, .node_rank = -1 };
	struct cluster_opts co;
	struct probe_arg pa;
	struct progress_state ps = { .tty = isatty(2) };
	struct render_opts ro;
	struct strbuf tok = STRBUF_INIT, text = STRBUF_INIT;
	struct launch l;
	struct envmap *env;
	struct err e = ERR_INIT;
	const char *token_file = NULL;
	long timeout_ms = 60000, v;
	int json = 0, verbose = 0, no_color = 0, skip_python = 0, c, code;
	char host[256];
	json_t *report = NULL;

	cluster_opts_init(&co);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': lf.master = optarg; break;
		case 'n':
			if (cli_parse_long(optarg, 1, LAUNCH_HOSTS_MAX, &lf.nodes) < 0)
				return cli_usage_error("cluster", "--nodes wants a count, not '%s'", optarg);
			break;
		case 'r':
			if (cli_parse_long(optarg, 0, LAUNCH_HOSTS_MAX - 1, &lf.node_rank) < 0)
				return cli_usage_error("cluster", "--node-rank wants 0..N-1, not '%s'",
						       optarg);
			break;
		case 't':
			if (cli_parse_duration_ms(optarg, &timeout_ms) < 0 || timeout_ms < 100)
				return cli_usage_error("cluster", "--timeout wants seconds, not '%s'",
						       optarg);
			break;
		case 'k': token_file = optarg; break;
		case 'j': json = 1; break;
		case 'P': skip_python = 1; break;
		case 'O': co.ports = 0; break;
		case 'U': co.mtu = 0; break;
		case 'B': co.bw = 0; break;
		case 'F':
			if (cli_parse_long(optarg, 2, LAUNCH_HOSTS_MAX, &v) < 0)
				return cli_usage_error("cluster", "--full-mesh-max wants a count, not '%s'",
						       optarg);
			co.full_mesh_max = (int)v;
			break;
		case 'v': verbose = 1; break;
		case 'C': no_color = 1; break;
		case 'h': fputs(cluster_usage, stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("cluster", c, argv, longopts);
		}
	}
	if (optind < argc)
		return cli_usage_error("cluster", "unexpected argument '%s'", argv[optind]);

	/* the job's environment: the probes read it, the launcher is detected from it */
	env = cli_environ();
	probe_ctx_init(&pa.po, env);
	probe_ctx_knobs(&pa.po, env);
	pa.po.skip_python = skip_python;
	if (launch_detect(env, &lf, &l, &e) < 0) {
		envmap_free(env);
		return cli_usage_error("cluster", "%s", e.msg);
	}
	if (!l.participate) {
		fprintf(stderr, "ncclcheck: note: %s; this process exits\n", l.note);
		launch_release(&l);
		envmap_free(env);
		return cli_finish(EXIT_CLEAN);
	}
	/* a knob for tests and very slow nodes: how long rank 0 waits for every node's facts */
	if (envmap_get(env, "NCCLCHECK_FACTS_TIMEOUT_MS") &&
	    cli_parse_long(envmap_get(env, "NCCLCHECK_FACTS_TIMEOUT_MS"), 100, 3600000, &v) == 0)
		co.facts_timeout_ms = v;
	if (cli_cluster_token(token_file, env, &tok) < 0)
		goto usage;
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "rank-%d", l.node_rank);
	host[sizeof(host) - 1] = '\0';

	co.rdv.master_host = l.master_addr[0] ? l.master_addr : NULL;
	co.rdv.master_port = l.master_port;
	co.rdv.rank = l.node_rank;
	co.rdv.nnodes = l.nnodes;
	co.rdv.host = host;
	co.rdv.join_timeout_ms = timeout_ms;
	co.rdv.token = tok.len ? tok.buf : NULL;
	co.rdv.token_len = tok.len;
	co.rdv.proc_root = pa.po.root_proc;
	co.rdv.expected_hosts = (const char *const *)l.hosts;
	co.rdv.nexpected = l.nhosts;
	pa.po.master_addr = l.master_addr[0] ? l.master_addr : NULL;
	co.probe = do_probe;
	co.probe_arg = &pa;
	co.node_rules = rules_run_facts;
	co.xrules = cluster_xrules;
	co.progress = on_progress;
	co.progress_arg = &ps;
	if (!json && l.node_rank == 0)
		fprintf(stderr, "ncclcheck cluster: rank 0 of %d (%s), listening on port %d\n",
			l.nnodes, launcher_name(l.kind), l.master_port);
	else if (!json)
		fprintf(stderr, "ncclcheck cluster: rank %d of %d (%s), master %s:%d\n", l.node_rank,
			l.nnodes, launcher_name(l.kind), l.master_addr, l.master_port);

	code = cluster_run(&co, &report, &e);
	if (ps.shown)
		fputs("\r\033[K", stderr);
	if (code < 0) {
		error("%s", e.msg);
		code = EXIT_CANNOT_RUN;
		goto out;
	}
	if (json) {
		render_json_print(stdout, report);
	} else {
		struct findings *fs = findings_new();
		char ferr[256];

		cluster_report_text(report, verbose, &text);
		fputs(text.buf, stdout);
		if (json_object_get(report, "error"))
			printf("\nthis node (rank %d, %s) could not finish: %s\n", l.node_rank, host,
			       json_string_value(json_object_get(report, "error")));
		if (findings_from_json(fs, json_object_get(report, "findings"), ferr, sizeof(ferr)) < 0)
			error("the report's findings are unreadable: %s", ferr);
		cli_render_opts(&ro, verbose, no_color);
		fputc('\n', stdout);
		render_findings_text(stdout, fs, &ro);
		fputc('\n', stdout);
		render_summary_line(stdout, fs, &ro);
		findings_free(fs);
	}
out:
	json_decref(report);
	strbuf_release(&text);
	strbuf_release(&tok);
	launch_release(&l);
	envmap_free(env);
	return cli_finish(code);
usage:
	strbuf_release(&tok);
	launch_release(&l);
	envmap_free(env);
	return EXIT_USAGE;
}
