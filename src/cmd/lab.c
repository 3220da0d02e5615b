/* ncclcheck lab: build, inspect, enter and remove a simulated multi-node cluster (src/lab/). */
#include "cmd/cmd.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "ncclcheck.h"
#include "report/lab_text.h"
#include "report/render.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/timeutil.h"
#include "util/wrap.h"
#include "util/xalloc.h"

enum { OPT_NODES = 1, OPT_SCENARIO, OPT_PREFIX, OPT_DOCKER0, OPT_FORCE, OPT_SLURM, OPT_PRIVATE_NAME, OPT_TASK_PROLOG };

/* Each option once; the subcommands' tables and the help page's list are built from these rows. */
#define ROW_NODES { .name = "nodes", .arg = "N", .id = OPT_NODES, .help = N_("1 to 64 nodes (default 2)") }
#define ROW_SCENARIO { .name = "scenario", .arg = "NAME", .id = OPT_SCENARIO, \
	.help = N_("a scenario of the list 'ncclcheck lab --help' shows (default healthy)") }
#define ROW_PREFIX { .name = "prefix", .arg = "P", .id = OPT_PREFIX, \
	.help = N_("names every namespace and link of the lab: P-n0, P-hub, P-n0e0 ...\n" \
		   "(a-z, 0-9, '-', at most 9 characters; default ncl)") }
#define ROW_DOCKER0 { .name = "docker0", .id = OPT_DOCKER0, \
	.help = N_("give every node docker0 with 172.17.0.1/16 whatever the scenario") }
#define ROW_FORCE { .name = "force", .id = OPT_FORCE, \
	.help = N_("up: remove a lab with the same prefix first, instead of refusing") }
#define ROW_PRIVATE_NAME { .name = "private-name", .arg = "I=NAME", .id = OPT_PRIVATE_NAME, \
	.help = N_("up: call node I's private NIC NAME instead of eth1 (1=ens5): nodes whose\n" \
		   "interface names differ, as with mixed cloud instance types (repeatable)") }
#define ROW_SLURM { .name = "slurm", .id = OPT_SLURM, \
	.help = N_("up: also start a real Slurm over the nodes (munged, slurmctld in n0, a\n" \
		   "slurmd per node, partition 'lab'): 'lab exec n0 -- srun -N2 ...' works\n" \
		   "(needs: apt-get install slurm-wlm munge)") }
#define ROW_TASK_PROLOG { .name = "task-prolog", .arg = "FILE", .id = OPT_TASK_PROLOG, \
	.help = N_("up --slurm: slurmd runs a copy of FILE before every task (TaskProlog=),\n" \
		   "as 'ncclcheck config --taskprolog' writes it") }

static const struct cli_opt up_opts[] = { ROW_NODES, ROW_SCENARIO, ROW_PREFIX, ROW_DOCKER0, ROW_PRIVATE_NAME, ROW_SLURM, ROW_TASK_PROLOG, ROW_FORCE, { 0 } };
static const struct cli_opt prefix_opts[] = { ROW_PREFIX, { 0 } };
static const struct cli_opt all_opts[] = { ROW_NODES, ROW_SCENARIO, ROW_PREFIX, ROW_DOCKER0, ROW_PRIVATE_NAME, ROW_SLURM, ROW_TASK_PROLOG, ROW_FORCE, { 0 } };

static int lab_up_cmd(int argc, char **argv);
static int lab_status_cmd(int argc, char **argv);
static int lab_exec_cmd(int argc, char **argv);
static int lab_down_cmd(int argc, char **argv);
static int lab_rsh_cmd(int argc, char **argv);
static void lab_help(FILE *out, const struct verb *v);

static const char lab_exit_codes[] =
N_("0 done, 2 usage error, 3 could not run (not root, ip/iptables/tc missing, the lab\n"
"exists already, a step failed; the reason is printed). exec exits with the command's code.\n");

static const struct verb lab_subs[] = {
	{
		.name = "lab up",
		.summary = N_("build nodes P-n0 .. P-n<N-1> with the scenario's fault"),
		.description =
			N_("Builds nodes P-n0 .. P-n<N-1> (network namespaces with a cloud VM's NICs) and puts\n"
			   "the scenario's kernel fault in place; 'ncclcheck lab --help' lists the scenarios\n"
			   "and the layout.\n"),
		.examples =
			"  sudo ncclcheck lab up --nodes 2 --scenario cloud-public-blocked\n"
			"  sudo ncclcheck lab up --nodes 4 --slurm --prefix ncs\n",
		.exit_codes = lab_exit_codes,
		.opts = up_opts, .flags = VERB_JSON | VERB_ROOT, .run = lab_up_cmd,
	},
	{
		.name = "lab status",
		.summary = N_("nodes, addresses, scenario and the faults in place (every lab unless --prefix);\n"
			      "the faults are read back from each node's kernel and compared with the plan"),
		.examples = "  ncclcheck lab status\n  ncclcheck lab status --prefix ncs --json\n",
		.exit_codes = lab_exit_codes,
		.opts = prefix_opts, .flags = VERB_JSON, .run = lab_status_cmd,
	},
	{
		.name = "lab exec",
		.summary = N_("run CMD (default: $SHELL) on NODE (n0, n1, ... or P-n1) with the node's launch\n"
			      "environment exported (MASTER_ADDR, MASTER_PORT, NODE_RANK, NNODES, WORLD_SIZE),\n"
			      "its /etc/hosts and its hostname; exits with CMD's exit code"),
		.args = "NODE [--] [CMD [ARG]...]",
		.examples =
			"  sudo ncclcheck lab exec n1 -- ncclcheck node --no-python\n"
			"  sudo ncclcheck lab exec --prefix ncs n0\n",
		.exit_codes = lab_exit_codes,
		.opts = prefix_opts, .flags = VERB_STOP_AT_ARG | VERB_ROOT, .run = lab_exec_cmd,
	},
	{
		.name = "lab down",
		.summary = N_("remove the lab: processes left in it, namespaces, links, /etc/netns entries and\n"
			      "state, found by prefix alone (works after a crash); safe to repeat"),
		.examples = "  sudo ncclcheck lab down\n  sudo ncclcheck lab down --prefix ncs\n",
		.exit_codes = lab_exit_codes,
		.opts = prefix_opts, .flags = VERB_JSON | VERB_ROOT, .run = lab_down_cmd,
	},
	{
		.name = "lab rsh",
		.summary = N_("Open MPI's rsh agent: run the shell command CMD on the node HOST names (a\n"
			      "hostname, n1, or one of its addresses), like ssh HOST CMD"),
		.args = "HOST CMD...",
		.examples = N_("  sudo ncclcheck lab rsh ncl-n1 hostname     (as mpirun calls it)\n"),
		.exit_codes = lab_exit_codes,
		.opts = prefix_opts, .flags = VERB_STOP_AT_ARG | VERB_ROOT, .run = lab_rsh_cmd,
	},
};

static const struct verb *const lab_sub_list[] = {
	&lab_subs[0], &lab_subs[1], &lab_subs[2], &lab_subs[3], &lab_subs[4],
};

const struct verb verb_lab = {
	.name = "lab",
	.summary = N_("build a simulated multi-node cluster with real network faults"),
	.flags = VERB_ROOT,
	.run = cmd_lab,
	.help = lab_help,
	.subs = lab_sub_list,
	.nsubs = ARRAY_SIZE(lab_sub_list),
};

static const char lab_description[] =
N_("Builds a simulated multi-node GPU cluster on this Linux machine: every node is a network\n"
"namespace with the NICs of a cloud VM, and a scenario adds one real kernel fault (iptables,\n"
"MTU, tbf, a missing hosts entry) that breaks NCCL the way it breaks in the field. The lab is\n"
"where the other verbs are tried out: 'ncclcheck lab exec n1 -- ncclcheck node'. Needs root.\n");

static const char lab_layout[] =
N_("Layout: node i has eth0 203.0.113.(10+i)/24 on the \"public\" bridge and eth1 10.10.0.(10+i)/24\n"
"on the \"private\" bridge, both bridges in the hidden namespace P-hub; eth0 comes first, as\n"
"on the VMs. Hostnames P-n<i> resolve to eth1 addresses (/etc/netns/P-n<i>/hosts).\n"
"MASTER_ADDR is n0's eth1 address, MASTER_PORT 29500. Every node's ip_local_port_range is\n"
"32768-60999. Firewall rules go in with the machine's iptables (its default backend;\n"
"iptables-legacy when there is no iptables), in each node's own tables: 'iptables -S' on a\n"
"node shows them, the host's firewall is never touched.\n"
"\n"
"Launchers: Open MPI's mpirun works from any node with no flags ('lab exec n0 -- mpirun -np 2\n"
"--host P-n0,P-n1 CMD'): each node's environment names 'ncclcheck lab rsh' as its rsh agent.\n"
"With --slurm, srun and sbatch work from any node (SLURM_CONF is exported). torchrun needs\n"
"nothing: run it on every node with 'lab exec' and the exported variables.\n"
"\n"
"Scenarios:\n");

static const char lab_examples[] =
"  sudo ncclcheck lab up --nodes 2 --scenario cloud-public-blocked\n"
"  sudo ncclcheck lab exec n1 -- ncclcheck node --no-python\n"
"  sudo NCCL_SOCKET_IFNAME=eth1 ncclcheck lab exec n1 -- ncclcheck node --no-python\n"
"  sudo ncclcheck lab down\n";

/* Prints `label` and `text` wrapped at `width` columns (CJK counted as two), indented by
 * `indent`, continuation lines under the text. */
static void wrapped(FILE *out, const char *label, const char *text, int indent, int width)
{
	struct strbuf line = STRBUF_INIT, w = STRBUF_INIT;

	strbuf_addf(&line, "%*s%s%s", indent, "", label, text);
	wrap_text(&w, line.buf, width, indent + (int)wrap_cols(label, strlen(label)), WRAP_PROSE);
	fputs(w.buf, out);
	fputc('\n', out);
	strbuf_release(&line);
	strbuf_release(&w);
}

/* One page for all subcommands: their synopses, what each does, every option once, scenarios. */
static void lab_help(FILE *out, const struct verb *v)
{
	const struct verb all = { .name = "lab", .opts = all_opts, .flags = VERB_JSON,
				  .json_help = N_("machine-readable output") };
	size_t n;
	const struct lab_scenario *sc = lab_scenarios(&n);

	(void)v;
	for (size_t i = 0; i < ARRAY_SIZE(lab_subs); i++)
		cli_help_synopsis(out, &lab_subs[i], i ? "       " : _("usage: "));
	fprintf(out, "\n%s\n", _(lab_description));
	fputs(_("Subcommands ('ncclcheck lab SUBCOMMAND --help' explains each):\n"), out);
	for (size_t i = 0; i < ARRAY_SIZE(lab_subs); i++) {
		const char *p = _(lab_subs[i].summary);

		fprintf(out, "  %-8s ", lab_subs[i].name + strlen("lab "));
		while (*p) {
			size_t len = strcspn(p, "\n");
			fwrite(p, 1, len, out);
			p += len;
			if (*p == '\n' && *++p)
				fprintf(out, "\n%11s", "");
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	cli_help_options(out, &all);
	fprintf(out, "\n%s", _(lab_layout));
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %s%s\n", sc[i].name, i == 0 ? _(" (default)") : "");
		wrapped(out, "", _(sc[i].summary), 6, 96);
		wrapped(out, _("reproduces: "), _(sc[i].reproduces), 6, 96);
		wrapped(out, _("from: "), _(sc[i].seed), 6, 96);
		wrapped(out, _("see it: "), _(sc[i].show), 6, 96);
	}
	fprintf(out, "\n%s\n%s\n%s %s", _("Examples:"), lab_examples, _("Exit codes:"),
		_(lab_exit_codes));
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* "sudo ncclcheck lab up --nodes 2 ..." from the arguments the user typed. */
static void hint_sudo(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < argc; i++) {
		if (strpbrk(argv[i], " \t'\"$"))
			strbuf_addf(&sb, " '%s'", argv[i]);
		else
			strbuf_addf(&sb, " %s", argv[i]);
	}
	fprintf(stderr, _("hint: run it as root: sudo ncclcheck%s\n"), sb.buf);
	strbuf_release(&sb);
}

/* Root and the tools the scenario needs; prints the fix and returns EXIT_CANNOT_RUN when not. */
static int preflight(unsigned needs, struct lab_tools *t, int argc, char **argv)
{
	struct err e = ERR_INIT;
	int not_root;

	if (lab_check_privileges(&not_root, &e) < 0) {
		error("%s", e.msg);
		if (not_root)
			hint_sudo(argc, argv);
		else
			fputs(_("hint: run the container with --privileged, or with --cap-add SYS_ADMIN "
				"--cap-add NET_ADMIN\n"), stderr);
		return EXIT_CANNOT_RUN;
	}
	if (lab_tools_find(needs, t, &e) < 0) {
		error("%s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	return 0;
}

static int unknown_scenario(const char *name)
{
	size_t n;
	const struct lab_scenario *sc = lab_scenarios(&n);
	const char **names = xcalloc(n, sizeof(*names));
	const char *best;
	int rc;

	for (size_t i = 0; i < n; i++)
		names[i] = sc[i].name;
	best = suggest_closest(name, names, n);
	if (best)
		rc = cli_usage_error("lab", "unknown scenario '%s'; did you mean '%s'?", name, best);
	else
		rc = cli_usage_error("lab", "unknown scenario '%s' (see 'ncclcheck lab --help')", name);
	free(names);
	return rc;
}

/* Subcommands get lab's argv + 1: argv[-1] is "lab", which the sudo hint repeats. */
static int lab_up_cmd(int argc, char **argv)
{
	struct lab_up_opts o = {
		.prefix = LAB_PREFIX_DEFAULT,
		.nodes = 2,
		.sc = NULL,
		.docker0 = 0,
		.force = 0,
		.cancel = &interrupted,
	};
	const char *scenario = "healthy";
	struct sigaction sa;
	struct lab_tools t;
	struct err e = ERR_INIT;
	struct cli c;
	long nodes;
	int id, code, rc;
	int64_t t0;

	cli_start(&c, &lab_subs[0], argc, argv);
	while ((id = cli_next(&c)) > 0) {
		switch (id) {
		case OPT_NODES:
			if (cli_parse_long(c.arg, 1, LAB_NODES_MAX, &nodes) < 0)
				return cli_usage_error("lab", "--nodes wants 1 to %d, not '%s'",
						       LAB_NODES_MAX, c.arg);
			o.nodes = (int)nodes;
			break;
		case OPT_SCENARIO: scenario = c.arg; break;
		case OPT_PREFIX: o.prefix = c.arg; break;
		case OPT_DOCKER0: o.docker0 = 1; break;
		case OPT_FORCE: o.force = 1; break;
		case OPT_SLURM: o.slurm = 1; break;
		case OPT_TASK_PROLOG: o.task_prolog = c.arg; break;
		case OPT_PRIVATE_NAME: {
			char *eq = strchr(c.arg, '=');
			long idx;

			if (!eq || eq == c.arg)
				return cli_usage_error("lab", "--private-name wants NODE=NAME (1=ens5), "
						       "not '%s'", c.arg);
			*eq = '\0';
			if (cli_parse_long(c.arg[0] == 'n' ? c.arg + 1 : c.arg, 0, LAB_NODES_MAX - 1,
					   &idx) < 0)
				return cli_usage_error("lab", "--private-name: '%s' is not a node "
						       "index", c.arg);
			if (lab_private_name_check(eq + 1, &e) < 0)
				return cli_usage_error("lab", "--private-name: %s", e.msg);
			o.priv_names[idx] = eq + 1;
			break;
		}
		}
	}
	if (id == CLI_STOP)
		return c.code;
	o.sc = lab_scenario_find(scenario);
	if (!o.sc)
		return unknown_scenario(scenario);
	if (lab_prefix_check(o.prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	for (int i = o.nodes; i < LAB_NODES_MAX; i++)
		if (o.priv_names[i])
			return cli_usage_error("lab", "--private-name names node %d, but the lab has "
					       "%d node%s", i, o.nodes, o.nodes == 1 ? "" : "s");
	if (o.task_prolog && !o.slurm)
		return cli_usage_error("lab", "--task-prolog is slurmd's: it needs --slurm");
	if (o.nodes < o.sc->min_nodes)
		return cli_usage_error("lab", "scenario '%s' needs --nodes %d or more", o.sc->name,
				       o.sc->min_nodes);
	code = preflight(o.sc->flags | (o.docker0 ? LAB_DOCKER0 : 0), &t, argc + 1, argv - 1);
	if (code)
		return code;

	/*
	 * Ctrl-C or a kill: finish the step in flight, then remove what was built. The handlers
	 * stay until the command ends: a signal while the status is printed removes the lab too.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	t0 = time_now_ms();
	rc = lab_up(&o, &t, &e);
	if (rc < 0) {
		if (interrupted)
			error("lab '%s' interrupted; everything it had built is removed again",
			      o.prefix);
		else
			error("lab up: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	{
		json_t *st = lab_status(o.prefix);

		if (c.common.json)
			code = cmd_print_json("lab", st, EXIT_CLEAN);
		else {
			printf(_("lab '%s' is up: %d node%s, scenario '%s', built in %.2f s\n\n"), o.prefix,
			       o.nodes, o.nodes == 1 ? "" : "s", o.sc->name,
			       (double)(time_now_ms() - t0) / 1000.0);
			render_lab_status_text(stdout, st);
			code = cli_finish(EXIT_CLEAN);
		}
		json_decref(st);
	}
	if (interrupted) {
		struct lab_down_result dr;

		fflush(stdout);
		if (lab_down(o.prefix, t.ip, &dr, &e) < 0)
			error("lab '%s' interrupted after it was built; removing it failed: %s "
			      "(retry: ncclcheck lab down --prefix %s)", o.prefix, e.msg, o.prefix);
		else
			error("lab '%s' interrupted; everything it had built is removed again",
			      o.prefix);
		return EXIT_CANNOT_RUN;
	}
	return code;
}

static int lab_status_cmd(int argc, char **argv)
{
	const char *prefix = NULL;
	struct err e = ERR_INIT;
	struct cli c;
	int id, code;
	json_t *st;

	cli_start(&c, &lab_subs[1], argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (id == OPT_PREFIX)
			prefix = c.arg;
	if (id == CLI_STOP)
		return c.code;
	if (prefix && lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	st = lab_status(prefix);
	if (c.common.json) {
		code = cmd_print_json("lab", st, EXIT_CLEAN);
	} else {
		if (prefix && !json_array_size(json_object_get(st, "labs")))
			printf(_("no lab '%s'\n"), prefix);
		else
			render_lab_status_text(stdout, st);
		code = cli_finish(EXIT_CLEAN);
	}
	json_decref(st);
	return code;
}

static int lab_down_cmd(int argc, char **argv)
{
	const char *prefix = LAB_PREFIX_DEFAULT;
	struct lab_down_result r;
	struct lab_tools t;
	struct err e = ERR_INIT;
	struct cli c;
	int id, code, not_root;

	cli_start(&c, &lab_subs[3], argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (id == OPT_PREFIX)
			prefix = c.arg;
	if (id == CLI_STOP)
		return c.code;
	if (lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	if (lab_check_privileges(&not_root, &e) < 0) {
		error("%s", e.msg);
		if (not_root)
			hint_sudo(argc + 1, argv - 1);
		return EXIT_CANNOT_RUN;
	}
	/* ip is only needed for links leaked into the root namespace; down works without it */
	if (lab_tools_find(0, &t, NULL) < 0)
		t.ip[0] = '\0';
	if (lab_down(prefix, t.ip[0] ? t.ip : NULL, &r, &e) < 0) {
		error("lab down: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	if (c.common.json) {
		json_t *p = lab_down_json(prefix, &r);

		code = cmd_print_json("lab", p, EXIT_CLEAN);
		json_decref(p);
		return code;
	}
	if (!r.namespaces && !r.links && !r.etc_dirs && !r.state && !r.slurm && !r.builders)
		printf(_("lab '%s': nothing to remove\n"), prefix);
	else
		printf(_("lab '%s' removed: %d namespace%s, %d process%s left inside, %d root link%s, "
			 "%d /etc/netns entr%s\n"), prefix, r.namespaces, r.namespaces == 1 ? "" : "s",
		       r.processes, r.processes == 1 ? "" : "es", r.links, r.links == 1 ? "" : "s",
		       r.etc_dirs, r.etc_dirs == 1 ? "y" : "ies");
	if (r.builders)
		printf(_("lab '%s': ended %d process%s of a 'lab up' that had not finished\n"), prefix,
		       r.builders, r.builders == 1 ? "" : "es");
	if (r.slurm)
		printf(_("lab '%s': its Slurm is stopped and removed (munged, spool, logs)\n"), prefix);
	return cli_finish(EXIT_CLEAN);
}

static int lab_exec_cmd(int argc, char **argv)
{
	const char *prefix = NULL, *node, *shell = getenv("SHELL");
	char *shell_argv[] = { (char *)(shell && *shell ? shell : "/bin/sh"), NULL };
	char netns[128];
	struct lab_tools t;
	struct err e = ERR_INIT;
	struct cli c;
	int id, code, arg;

	/* VERB_STOP_AT_ARG: options end at NODE, so that CMD's own options are left alone */
	cli_start(&c, &lab_subs[2], argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (id == OPT_PREFIX)
			prefix = c.arg;
	if (id == CLI_STOP)
		return c.code;
	arg = c.optind;
	if (arg >= argc)
		return cli_usage_error("lab", "'lab exec' needs a node: 'ncclcheck lab exec n1 -- CMD'");
	node = argv[arg++];
	if (arg < argc && !strcmp(argv[arg], "--"))
		arg++;
	if (prefix && lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	code = preflight(0, &t, argc + 1, argv - 1);
	if (code)
		return code;
	if (lab_resolve_node(prefix, node, netns, sizeof(netns), &e) < 0) {
		if (e.code == ERR_USAGE)
			return cli_usage_error("lab", "%s", e.msg);
		error("%s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	fflush(stdout);
	lab_exec(netns, t.ip, arg < argc ? argv + arg : shell_argv, &e);
	error("lab exec: %s", e.msg);
	return EXIT_CANNOT_RUN;
}

/*
 * Open MPI's rsh agent: mpirun calls it as `AGENT HOST CMD...` like ssh, so CMD is one shell
 * string to run on HOST. HOST is a node's hostname, its short name or one of its addresses.
 */
static int lab_rsh_cmd(int argc, char **argv)
{
	const char *prefix = NULL, *host;
	char netns[128], node[16];
	struct strbuf cmd = STRBUF_INIT;
	struct lab_tools t;
	struct err e = ERR_INIT;
	struct cli c;
	int id, code, arg;
	unsigned a, b, cc, d;

	cli_start(&c, &lab_subs[4], argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (id == OPT_PREFIX)
			prefix = c.arg;
	if (id == CLI_STOP)
		return c.code;
	arg = c.optind;
	/* ssh options an rsh caller may pass (-x, -l user) mean nothing inside the lab */
	while (arg < argc && argv[arg][0] == '-')
		arg += !strcmp(argv[arg], "-l") ? 2 : 1;
	if (arg + 1 >= argc)
		return cli_usage_error("lab", "'lab rsh' needs a host and a command");
	host = argv[arg++];
	/* an address of the lab stands for its node: .10+i on both segments */
	if (sscanf(host, "%u.%u.%u.%u", &a, &b, &cc, &d) == 4 && d >= 10 && d < 10 + LAB_NODES_MAX) {
		snprintf(node, sizeof(node), "n%u", d - 10);
		host = node;
	}
	if (prefix && lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	code = preflight(0, &t, argc + 1, argv - 1);
	if (code)
		return code;
	if (lab_resolve_node(prefix, host, netns, sizeof(netns), &e) < 0) {
		error("lab rsh: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	for (int i = arg; i < argc; i++)
		strbuf_addf(&cmd, "%s%s", i > arg ? " " : "", argv[i]);
	{
		char *sh_argv[] = { (char *)"/bin/sh", (char *)"-c", cmd.buf, NULL };

		fflush(stdout);
		lab_exec(netns, t.ip, sh_argv, &e);
	}
	strbuf_release(&cmd);
	error("lab rsh: %s", e.msg);
	return EXIT_CANNOT_RUN;
}

int cmd_lab(int argc, char **argv)
{
	/* each subcommand parses from its own name on, like a verb */
	return cli_select(&verb_lab, argc, argv);
}
