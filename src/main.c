/* ncclcheck's entry point: dispatch on cmd/verbs.c's table, nothing else (git's git.c). */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "ncclcheck.h"
#include "util/i18n.h"
#include "util/suggest.h"
#include "util/xalloc.h"

static void usage(FILE *out)
{
	fputs(_("usage: ncclcheck [--version] [--help] [--lang zh|en] VERB [ARGS]\n"
		"\n"
		"Makes multi-node PyTorch / Lightning training on NCCL work the first time: checks\n"
		"every node's stack and network, predicts what NCCL will do, explains failures, and\n"
		"answers with the exact fix.\n"
		"\n"
		"Verbs:\n"), out);
	for (size_t i = 0; i < cmd_nverbs; i++)
		fprintf(out, "  %-10s %s%s\n", cmd_verbs[i]->name, _(cmd_verbs[i]->summary),
			cmd_verbs[i]->flags & VERB_ROOT ? _(" (needs root)") : "");
	fputs(_("\n"
		"'ncclcheck VERB --help' explains a verb and its options (and 'ncclcheck VERB\n"
		"SUBCOMMAND --help' a subcommand, as 'ncclcheck bench p2p --help').\n"
		"The verbs that report take --json for machine-readable output.\n"
		"--lang zh|en: the language of what a person reads (default: LC_ALL, LC_MESSAGES\n"
		"or LANG; zh_CN.UTF-8 gives Chinese); --json output stays English.\n"
		"\n"
		"Exit codes: 0 nothing at error level, 1 at least one error finding,\n"
		"            2 usage error, 3 the check itself could not run.\n"), out);
}

static const struct verb *find_verb(const char *name)
{
	for (size_t i = 0; i < cmd_nverbs; i++)
		if (!strcmp(cmd_verbs[i]->name, name))
			return cmd_verbs[i];
	return NULL;
}

static int unknown_verb(const char *name)
{
	const char **names = xcalloc(cmd_nverbs, sizeof(*names));
	const char *best;

	for (size_t i = 0; i < cmd_nverbs; i++)
		names[i] = cmd_verbs[i]->name;
	best = suggest_closest(name, names, cmd_nverbs);
	fprintf(stderr, _("ncclcheck: error: '%s' is not a ncclcheck verb"), name);
	if (best)
		fprintf(stderr, _("; did you mean '%s'?"), best);
	fputs(_("\nusage: see 'ncclcheck --help'\n"), stderr);
	free(names);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct verb *cmd;
	const char *verb;
	int shift;

	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* JSON and our own number parsing need '.' decimals */
	/* the language before anything is printed: --lang first, else the locale's variables */
	i18n_set_lang(i18n_lang_from_env(getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG")));
	while (argc >= 2 && (!strcmp(argv[1], "--lang") || !strncmp(argv[1], "--lang=", 7))) {
		const char *v = argv[1][6] == '=' ? argv[1] + 7 : argc >= 3 ? argv[2] : NULL;
		enum i18n_lang lang;

		if (i18n_parse_lang(v, &lang) < 0) {
			fprintf(stderr, _("ncclcheck: error: --lang wants zh or en, not '%s'\n"
					  "usage: see 'ncclcheck --help'\n"), v ? v : "");
			return EXIT_USAGE;
		}
		i18n_set_lang(lang);
		/* argv[0] is never read again: the verb gets argv + 1 */
		shift = argv[1][6] == '=' ? 1 : 2;
		argc -= shift;
		argv += shift;
	}

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
		cmd = find_verb(argv[2]);
		if (!cmd)
			return unknown_verb(argv[2]);
		{
			/* help VERB [SUBCOMMAND]: that page, as --help at its level gives it */
			char *hargv[] = { (char *)cmd->name, argc > 3 ? argv[3] : (char *)"--help",
					  (char *)"--help", NULL };
			return cmd->run(argc > 3 ? 3 : 2, hargv);
		}
	}
	if (verb[0] == '-') {
		fprintf(stderr, _("ncclcheck: error: unknown option '%s'\nusage: see 'ncclcheck --help'\n"),
			verb);
		return EXIT_USAGE;
	}
	cmd = find_verb(verb);
	if (!cmd)
		return unknown_verb(verb);
	/* The verb sees argv[0] = its own name, like a git builtin. */
	return cli_json_error_flush(cmd->run(argc - 1, argv + 1));
}
