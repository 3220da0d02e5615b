/* ncclcheck lab: build, inspect, enter and remove a simulated multi-node cluster (src/lab/). */
#include "cmd/cmd.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "ncclcheck.h"
#include "report/render.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static const char lab_usage_head[] =
"usage: ncclcheck lab up [--nodes N] [--scenario NAME] [--prefix P] [--docker0] [--slurm]\n"
"                        [--private-name I=NAME]... [--force] [--json]\n"
"       ncclcheck lab status [--prefix P] [--json]\n"
"       ncclcheck lab exec [--prefix P] NODE [--] [CMD [ARG]...]\n"
"       ncclcheck lab down [--prefix P] [--json]\n"
"       ncclcheck lab rsh [--prefix P] HOST CMD...   (Open MPI's rsh agent; see below)\n"
"\n"
"Builds a simulated multi-node GPU cluster on this Linux machine: every node is a network\n"
"namespace with the NICs of a cloud VM, and a scenario adds one real kernel fault (iptables,\n"
"MTU, tbf, a missing hosts entry) that breaks NCCL the way it breaks in the field. The lab is\n"
"where the other verbs are tried out: 'ncclcheck lab exec n1 -- ncclcheck node'. Needs root.\n"
"\n"
"  up       build nodes P-n0 .. P-n<N-1> with the scenario's fault\n"
"  status   nodes, addresses, scenario and the faults in place (every lab unless --prefix)\n"
"  exec     run CMD (default: $SHELL) on NODE (n0, n1, ... or P-n1) with the node's launch\n"
"           environment exported (MASTER_ADDR, MASTER_PORT, NODE_RANK, NNODES, WORLD_SIZE),\n"
"           its /etc/hosts and its hostname; exits with CMD's exit code\n"
"  down     remove the lab: processes left in it, namespaces, links, /etc/netns entries and\n"
"           state, found by prefix alone (works after a crash); safe to repeat\n"
"\n"
"  --nodes N          1 to 64 nodes (default 2)\n"
"  --scenario NAME    one of the scenarios below (default healthy)\n"
"  --prefix P         names every namespace and link of the lab: P-n0, P-hub, P-n0e0 ...\n"
"                     (a-z, 0-9, '-', at most 9 characters; default ncl)\n"
"  --docker0          give every node docker0 with 172.17.0.1/16 whatever the scenario\n"
"  --slurm            up: also start a real Slurm over the nodes (munged, slurmctld in n0, a\n"
"                     slurmd per node, partition 'lab'): 'lab exec n0 -- srun -N2 ...' works\n"
"                     (needs: apt-get install slurm-wlm munge)\n"
"  --private-name I=NAME  up: call node I's private NIC NAME instead of eth1 (1=ens5): nodes\n"
"                     whose interface names differ, as in mixed cloud instance types\n"
"  --force            up: remove a lab with the same prefix first, instead of refusing\n"
"  --json             machine-readable output\n"
"\n"
"Layout: node i has eth0 203.0.113.(10+i)/24 on the \"public\" bridge and eth1 10.10.0.(10+i)/24\n"
"on the \"private\" bridge, both bridges in the hidden namespace P-hub; eth0 comes first, as\n"
"on the VMs. Hostnames P-n<i> resolve to eth1 addresses (/etc/netns/P-n<i>/hosts).\n"
"MASTER_ADDR is n0's eth1 address, MASTER_PORT 29500. Every node's ip_local_port_range is\n"
"32768-60999. Firewall rules go in with the machine's iptables (its default backend;\n"
"iptables-legacy when there is no iptables), in each node's own tables: 'iptables -S' on a\n"
"node shows them, the host's firewall is never touched.\n"
"\n"
"Launchers: Open MPI's mpirun works from any node with no flags ('lab exec n0 -- mpirun -np 2\n"
"--host P-n0,P-n1 CMD'): each node's environment names 'ncclcheck lab rsh' as its rsh agent,\n"
"which runs the command inside the node HOST names (a hostname or an address of the lab).\n"
"torchrun needs nothing: run it on every node with 'lab exec' and the exported variables.\n"
"\n"
"Scenarios:\n";

static const char lab_usage_tail[] =
"\n"
"Examples:\n"
"  sudo ncclcheck lab up --nodes 2 --scenario cloud-public-blocked\n"
"  sudo ncclcheck lab exec n1 -- ncclcheck node --no-python\n"
"  sudo NCCL_SOCKET_IFNAME=eth1 ncclcheck lab exec n1 -- ncclcheck node --no-python\n"
"  sudo ncclcheck lab down\n"
"\n"
"Exit codes: 0 done, 2 usage error, 3 could not run (not root, ip/iptables/tc missing, the lab\n"
"exists already, a step failed; the reason is printed). exec exits with the command's code.\n";

/* Prints `text` wrapped at `width` columns, every line indented by `indent` spaces. */
static void wrapped(FILE *out, const char *label, const char *text, int indent, int width)
{
	int col = fprintf(out, "%*s%s", indent, "", label);

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col + 1 + (int)w > width && col > indent + (int)strlen(label)) {
			col = fprintf(out, "\n%*s", indent + (int)strlen(label), "") - 1;
		} else if (col > indent + (int)strlen(label)) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", (int)w, text);
		text += w;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

static void lab_usage(FILE *out)
{
	size_t n;
	const struct lab_scenario *sc = lab_scenarios(&n);

	fputs(lab_usage_head, out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %s%s\n", sc[i].name, i == 0 ? " (default)" : "");
		wrapped(out, "", sc[i].summary, 6, 96);
		wrapped(out, "reproduces: ", sc[i].reproduces, 6, 96);
		wrapped(out, "from: ", sc[i].seed, 6, 96);
		wrapped(out, "see it: ", sc[i].show, 6, 96);
	}
	fputs(lab_usage_tail, out);
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
	fprintf(stderr, "hint: run it as root: sudo ncclcheck%s\n", sb.buf);
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
			fputs("hint: run the container with --privileged, or with --cap-add SYS_ADMIN "
			      "--cap-add NET_ADMIN\n", stderr);
		return EXIT_CANNOT_RUN;
	}
	if (lab_tools_find(needs, t, &e) < 0) {
		error("%s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	return 0;
}

static int print_json(json_t *payload, int code)
{
	json_t *doc = render_json_doc("lab", payload, NULL, code);

	render_json_print(stdout, doc);
	json_decref(doc);
	return cli_finish(code);
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

static int lab_up_cmd(int argc, char **argv, int full_argc, char **full_argv)
{
	static const struct option longopts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "scenario", required_argument, NULL, 's' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "docker0", no_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "slurm", no_argument, NULL, 'S' },
		{ "private-name", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lab_up_opts o = {
		.prefix = LAB_PREFIX_DEFAULT, .nodes = 2, .cancel = &interrupted,
	};
	const char *scenario = "healthy";
	struct sigaction sa, old_int, old_term, old_hup;
	struct lab_tools t;
	struct err e = ERR_INIT;
	long nodes;
	int json = 0, c, code, rc;
	int64_t t0;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (cli_parse_long(optarg, 1, LAB_NODES_MAX, &nodes) < 0)
				return cli_usage_error("lab", "--nodes wants 1 to %d, not '%s'",
						       LAB_NODES_MAX, optarg);
			o.nodes = (int)nodes;
			break;
		case 's': scenario = optarg; break;
		case 'p': o.prefix = optarg; break;
		case 'd': o.docker0 = 1; break;
		case 'f': o.force = 1; break;
		case 'S': o.slurm = 1; break;
		case 'P': {
			char *eq = strchr(optarg, '=');
			long idx;

			if (!eq || eq == optarg)
				return cli_usage_error("lab", "--private-name wants NODE=NAME (1=ens5), "
						       "not '%s'", optarg);
			*eq = '\0';
			if (cli_parse_long(optarg[0] == 'n' ? optarg + 1 : optarg, 0,
					   LAB_NODES_MAX - 1, &idx) < 0)
				return cli_usage_error("lab", "--private-name: '%s' is not a node "
						       "index", optarg);
			if (lab_private_name_check(eq + 1, &e) < 0)
				return cli_usage_error("lab", "--private-name: %s", e.msg);
			o.priv_names[idx] = eq + 1;
			break;
		}
		case 'j': json = 1; break;
		case 'h': lab_usage(stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("lab up", c, argv, longopts);
		}
	}
	if (optind < argc)
		return cli_usage_error("lab", "unexpected argument '%s'", argv[optind]);
	o.sc = lab_scenario_find(scenario);
	if (!o.sc)
		return unknown_scenario(scenario);
	if (lab_prefix_check(o.prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	for (int i = o.nodes; i < LAB_NODES_MAX; i++)
		if (o.priv_names[i])
			return cli_usage_error("lab", "--private-name names node %d, but the lab has "
					       "%d node%s", i, o.nodes, o.nodes == 1 ? "" : "s");
	if (o.nodes < o.sc->min_nodes)
		return cli_usage_error("lab", "scenario '%s' needs --nodes %d or more", o.sc->name,
				       o.sc->min_nodes);
	code = preflight(o.sc->flags | (o.docker0 ? LAB_DOCKER0 : 0), &t, full_argc, full_argv);
	if (code)
		return code;

	/* Ctrl-C or a kill: finish the step in flight, then remove what was built */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	t0 = time_now_ms();
	rc = lab_up(&o, &t, &e);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
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

		if (json)
			code = print_json(st, EXIT_CLEAN);
		else {
			printf("lab '%s' is up: %d node%s, scenario '%s', built in %.2f s\n\n", o.prefix,
			       o.nodes, o.nodes == 1 ? "" : "s", o.sc->name,
			       (double)(time_now_ms() - t0) / 1000.0);
			lab_status_print(stdout, st);
			code = cli_finish(EXIT_CLEAN);
		}
		json_decref(st);
	}
	return code;
}

static int lab_status_cmd(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "prefix", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prefix = NULL;
	struct err e = ERR_INIT;
	int json = 0, c, code;
	json_t *st;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': prefix = optarg; break;
		case 'j': json = 1; break;
		case 'h': lab_usage(stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("lab status", c, argv, longopts);
		}
	}
	if (optind < argc)
		return cli_usage_error("lab", "unexpected argument '%s'", argv[optind]);
	if (prefix && lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	st = lab_status(prefix);
	if (json) {
		code = print_json(st, EXIT_CLEAN);
	} else {
		if (prefix && !json_array_size(json_object_get(st, "labs")))
			printf("no lab '%s'\n", prefix);
		else
			lab_status_print(stdout, st);
		code = cli_finish(EXIT_CLEAN);
	}
	json_decref(st);
	return code;
}

static int lab_down_cmd(int argc, char **argv, int full_argc, char **full_argv)
{
	static const struct option longopts[] = {
		{ "prefix", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prefix = LAB_PREFIX_DEFAULT;
	struct lab_down_result r;
	struct lab_tools t;
	struct err e = ERR_INIT;
	int json = 0, c, code, not_root;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': prefix = optarg; break;
		case 'j': json = 1; break;
		case 'h': lab_usage(stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("lab down", c, argv, longopts);
		}
	}
	if (optind < argc)
		return cli_usage_error("lab", "unexpected argument '%s'", argv[optind]);
	if (lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	if (lab_check_privileges(&not_root, &e) < 0) {
		error("%s", e.msg);
		if (not_root)
			hint_sudo(full_argc, full_argv);
		return EXIT_CANNOT_RUN;
	}
	/* ip is only needed for links leaked into the root namespace; down works without it */
	if (lab_tools_find(0, &t, NULL) < 0)
		t.ip[0] = '\0';
	if (lab_down(prefix, t.ip[0] ? t.ip : NULL, &r, &e) < 0) {
		error("lab down: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	if (json) {
		json_t *p = json_object(), *rm = jobj_child(p, "removed");

		jset_str(p, "prefix", prefix);
		jset_int(rm, "namespaces", r.namespaces);
		jset_int(rm, "processes", r.processes);
		jset_int(rm, "links", r.links);
		jset_int(rm, "etc_netns_dirs", r.etc_dirs);
		jset_bool(rm, "state", r.state);
		jset_bool(rm, "slurm", r.slurm);
		code = print_json(p, EXIT_CLEAN);
		json_decref(p);
		return code;
	}
	if (!r.namespaces && !r.links && !r.etc_dirs && !r.state && !r.slurm)
		printf("lab '%s': nothing to remove\n", prefix);
	else
		printf("lab '%s' removed: %d namespace%s, %d process%s left inside, %d root link%s, "
		       "%d /etc/netns entr%s\n", prefix, r.namespaces, r.namespaces == 1 ? "" : "s",
		       r.processes, r.processes == 1 ? "" : "es", r.links, r.links == 1 ? "" : "s",
		       r.etc_dirs, r.etc_dirs == 1 ? "y" : "ies");
	if (r.slurm)
		printf("lab '%s': its Slurm is stopped and removed (munged, spool, logs)\n", prefix);
	return cli_finish(EXIT_CLEAN);
}

static int lab_exec_cmd(int argc, char **argv, int full_argc, char **full_argv)
{
	static const struct option longopts[] = {
		{ "prefix", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prefix = NULL, *node, *shell = getenv("SHELL");
	char *shell_argv[] = { (char *)(shell && *shell ? shell : "/bin/sh"), NULL };
	char netns[128];
	struct lab_tools t;
	struct err e = ERR_INIT;
	int c, code;

	/* '+': stop at NODE, so that CMD's own options are left alone */
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': prefix = optarg; break;
		case 'h': lab_usage(stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("lab exec", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("lab", "'lab exec' needs a node: 'ncclcheck lab exec n1 -- CMD'");
	node = argv[optind++];
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (prefix && lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	code = preflight(0, &t, full_argc, full_argv);
	if (code)
		return code;
	if (lab_resolve_node(prefix, node, netns, sizeof(netns), &e) < 0) {
		if (e.code == ERR_USAGE)
			return cli_usage_error("lab", "%s", e.msg);
		error("%s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	fflush(stdout);
	lab_exec(netns, t.ip, optind < argc ? argv + optind : shell_argv, &e);
	error("lab exec: %s", e.msg);
	return EXIT_CANNOT_RUN;
}

/*
 * Open MPI's rsh agent: mpirun calls it as `AGENT HOST CMD...` like ssh, so CMD is one shell
 * string to run on HOST. HOST is a node's hostname, its short name or one of its addresses.
 */
static int lab_rsh_cmd(int argc, char **argv, int full_argc, char **full_argv)
{
	static const struct option longopts[] = {
		{ "prefix", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prefix = NULL, *host;
	char netns[128], node[16];
	struct strbuf cmd = STRBUF_INIT;
	struct lab_tools t;
	struct err e = ERR_INIT;
	int c, code;
	unsigned a, b, cc, d;

	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': prefix = optarg; break;
		case 'h': lab_usage(stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("lab rsh", c, argv, longopts);
		}
	}
	/* ssh options an rsh caller may pass (-x, -l user) mean nothing inside the lab */
	while (optind < argc && argv[optind][0] == '-')
		optind += !strcmp(argv[optind], "-l") ? 2 : 1;
	if (optind + 1 >= argc)
		return cli_usage_error("lab", "'lab rsh' needs a host and a command");
	host = argv[optind++];
	/* an address of the lab stands for its node: .10+i on both segments */
	if (sscanf(host, "%u.%u.%u.%u", &a, &b, &cc, &d) == 4 && d >= 10 && d < 10 + LAB_NODES_MAX) {
		snprintf(node, sizeof(node), "n%u", d - 10);
		host = node;
	}
	if (prefix && lab_prefix_check(prefix, &e) < 0)
		return cli_usage_error("lab", "%s", e.msg);
	code = preflight(0, &t, full_argc, full_argv);
	if (code)
		return code;
	if (lab_resolve_node(prefix, host, netns, sizeof(netns), &e) < 0) {
		error("lab rsh: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	for (int i = optind; i < argc; i++)
		strbuf_addf(&cmd, "%s%s", i > optind ? " " : "", argv[i]);
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
	static const char *const subs[] = { "up", "status", "exec", "down", "rsh" };
	const char *sub, *best;

	opterr = 0;
	if (argc < 2)
		return cli_usage_error("lab", "'lab' needs a subcommand: up, status, exec or down");
	sub = argv[1];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
		lab_usage(stdout);
		return cli_finish(EXIT_CLEAN);
	}
	/* each subcommand parses from its own name on, like a verb */
	if (!strcmp(sub, "up"))
		return lab_up_cmd(argc - 1, argv + 1, argc, argv);
	if (!strcmp(sub, "status"))
		return lab_status_cmd(argc - 1, argv + 1);
	if (!strcmp(sub, "exec"))
		return lab_exec_cmd(argc - 1, argv + 1, argc, argv);
	if (!strcmp(sub, "down"))
		return lab_down_cmd(argc - 1, argv + 1, argc, argv);
	if (!strcmp(sub, "rsh"))
		return lab_rsh_cmd(argc - 1, argv + 1, argc, argv);
	best = suggest_closest(sub, subs, ARRAY_SIZE(subs));
	if (best)
		return cli_usage_error("lab", "unknown subcommand '%s'; did you mean '%s'?", sub, best);
	return cli_usage_error("lab", "unknown subcommand '%s' (up, status, exec, down)", sub);
}
