/* ncclcheck's entry point: the verb table and dispatch, nothing else (git's git.c). */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "ncclcheck.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/*
 * A row is a verb's descriptor (cmd/cmd.h: name, summary, options, run), or, for a verb without
 * one yet, its name, function and summary.
 */
static const struct cmd_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct verb *verb;
} commands[] = {
	{ .verb = &verb_node },
	{ .verb = &verb_explain },
	{ .verb = &verb_lab },
	{ .name = "bench", .fn = cmd_bench_p2p_dispatch,
	  .summary = "measure links between nodes: 'bench p2p' (connect, ports, MTU, bandwidth)" },
};

static const char *entry_name(const struct cmd_entry *c)
{
	return c->verb ? c->verb->name : c->name;
}

static int entry_run(const struct cmd_entry *c, int argc, char **argv)
{
	return c->verb ? c->verb->run(argc, argv) : c->fn(argc, argv);
}

static void usage(FILE *out)
{
	fputs("usage: ncclcheck [--version] [--help] VERB [ARGS]\n"
	      "\n"
	      "Makes multi-node PyTorch / Lightning training on NCCL work the first time: checks\n"
	      "every node's stack and network, predicts what NCCL will do, explains failures, and\n"
	      "answers with the exact fix.\n"
	      "\n"
	      "Verbs:\n", out);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s%s\n", entry_name(&commands[i]),
			commands[i].verb ? commands[i].verb->summary : commands[i].summary,
			commands[i].verb && (commands[i].verb->flags & VERB_ROOT) ? " (needs root)" : "");
	fputs("\n"
	      "'ncclcheck VERB --help' explains a verb and its options.\n"
	      "Every verb takes --json for machine-readable output.\n"
	      "\n"
	      "Exit codes: 0 nothing at error level, 1 at least one error finding,\n"
	      "            2 usage error, 3 the check itself could not run.\n", out);
}

static const struct cmd_entry *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(entry_name(&commands[i]), name))
			return &commands[i];
	return NULL;
}

static int unknown_verb(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	const char *best;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = entry_name(&commands[i]);
	best = suggest_closest(name, names, ARRAY_SIZE(commands));
	fprintf(stderr, "ncclcheck: error: '%s' is not a ncclcheck verb", name);
	if (best)
		fprintf(stderr, "; did you mean '%s'?", best);
	fputs("\nusage: see 'ncclcheck --help'\n", stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *cmd;
	const char *verb;

	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* JSON and our own number parsing need '.' decimals */

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	verb = argv[1];
	if (!strcmp(verb, "--help") || !strcmp(verb, "-h")) {
		usage(stdout);
		return cli_finish(EXIT_CLEAN);
	}
	if (!strcmp(verb, "--version") || !strcmp(verb, "version")) {
		printf("ncclcheck %s\n", NCCLCHECK_VERSION);
		return cli_finish(EXIT_CLEAN);
	}
	if (!strcmp(verb, "help")) {
		if (argc < 3) {
			usage(stdout);
			return cli_finish(EXIT_CLEAN);
		}
		cmd = find_cmd(argv[2]);
		if (!cmd)
			return unknown_verb(argv[2]);
		{
			char *hargv[] = { (char *)entry_name(cmd), (char *)"--help", NULL };
			return entry_run(cmd, 2, hargv);
		}
	}
	if (verb[0] == '-') {
		fprintf(stderr, "ncclcheck: error: unknown option '%s'\nusage: see 'ncclcheck --help'\n",
			verb);
		return EXIT_USAGE;
	}
	cmd = find_cmd(verb);
	if (!cmd)
		return unknown_verb(verb);
	/* The verb sees argv[0] = its own name, like a git builtin. */
	return entry_run(cmd, argc - 1, argv + 1);
}
