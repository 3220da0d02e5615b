/*
 * Verbs (git's builtin/, tmux's cmd_entry): one file per verb, holding a `struct verb`
 * descriptor and cmd_<verb>(), which parses and orchestrates only. Everything a verb decides
 * lives in rules/, probe/, net/...; only cmd/ and main.c print errors and pick exit codes.
 *
 * A verb in four steps (cmd/node.c is the example):
 *
 *	enum { OPT_FACTS = 1, OPT_PYTHON };
 *	static const struct cli_opt node_opts[] = {
 *		{ .name = "facts", .arg = "FILE", .id = OPT_FACTS, .help = N_("re-run on saved facts") },
 *		{ .name = "python", .arg = "PATH", .id = OPT_PYTHON, .flags = CLI_OPT_MULTI,
 *		  .help = N_("also inspect this interpreter") },
 *		{ 0 },
 *	};
 *	const struct verb verb_node = {
 *		.name = "node", .summary = "...", .description = "...", .opts = node_opts,
 *		.examples = "  ncclcheck node --no-python\n", .exit_codes = "0 no errors, ...\n",
 *		.flags = VERB_REPORT, .run = cmd_node,
 *	};
 *	int cmd_node(int argc, char **argv)
 *	{
 *		struct cli c;
 *		int id;
 *
 *		cli_start(&c, &verb_node, argc, argv);
 *		while ((id = cli_next(&c)) > 0)
 *			switch (id) { case OPT_FACTS: file = c.arg; break; ... }
 *		if (id == CLI_STOP)
 *			return c.code;		// --help was printed, or a usage error reported
 *		... argv[c.optind..] are the arguments (only when .args is set) ...
 *		return cmd_report(&c, payload, findings, &text);
 *	}
 *
 * then `extern const struct verb verb_node;` below and `&verb_node` in cmd/verbs.c's table.
 * A verb with subcommands has one descriptor per subcommand ("bench p2p", "lab up") listed in
 * its .subs; cli_select() (lab) or cli_sub() (bench, whose other words are a COLLECTIVE) picks
 * one from argv[1], as bpftool's cmd_select does at every level, and the verb's --help lists
 * them. Options several verbs share are rows defined once: the launch rows below (--master,
 * --nodes, --node-rank, --nproc-per-node), cmd/verdict.h's job rows for config and run. An old
 * spelling stays a row of its own flagged CLI_OPT_ALIAS with the new one's id.
 *
 * The options table is the only description of the command line: getopt_long's table, the
 * synopsis and the option list of --help are all generated from it, so help cannot drift from
 * the parser (integration.cli_help walks every verb and subcommand). --json, -v/--verbose,
 * --no-color and -h/--help are parsed once, here, into c.common, as the verb's flags ask.
 */
#ifndef NCCLCHECK_CMD_H
#define NCCLCHECK_CMD_H

#include <getopt.h>
#include <stdio.h>

#include <jansson.h>

#include "finding.h"
#include "report/html.h"
#include "report/render.h"
#include "util/envmap.h"
#include "util/i18n.h"
#include "util/strbuf.h"

/* One option of a verb: a row of its options table, which ends with { 0 }. */
struct cli_opt {
	const char *name;	/* long name without "--" */
	int short_name;		/* 'x' for -x, or 0 */
	const char *arg;	/* the value's placeholder in help ("FILE"); NULL for a flag */
	int id;			/* what cli_next() returns for it: > 0, unique in the verb */
	unsigned flags;		/* CLI_OPT_* */
	/*
	 * One line, or several separated by '\n' (indented under the first in --help): what it
	 * does and its default. An alias row (CLI_OPT_ALIAS) has none: --help names it under
	 * the option with its id.
	 */
	const char *help;
};

enum cli_opt_flags {
	CLI_OPT_MULTI = 1 << 0,		/* may be repeated: "[--python PATH]..." */
	CLI_OPT_HIDDEN = 1 << 1,	/* parsed but not in --help */
	/*
	 * An old spelling of the option with the same id, kept for one release: accepted with a
	 * note on stderr, listed in --help under the new one, not in the synopsis.
	 */
	CLI_OPT_ALIAS = 1 << 2,
};

enum verb_flags {
	VERB_JSON = 1 << 0,		/* takes --json */
	VERB_TEXT = 1 << 1,		/* takes -v/--verbose and --no-color */
	VERB_REPORT = VERB_JSON | VERB_TEXT,	/* ends in cmd_report() */
	VERB_ROOT = 1 << 2,		/* needs root: `ncclcheck --help` says "(needs root)" */
	VERB_STOP_AT_ARG = 1 << 3,	/* options end at the first argument: CMD's own are left alone */
	VERB_HTML = 1 << 4,		/* takes --html FILE: cmd_report() writes the page there too */
};

struct verb {
	const char *name;		/* "node", or "lab up" for a subcommand */
	const char *summary;		/* one line: `ncclcheck --help`, the parent's list */
	const char *args;		/* positional arguments in the synopsis ("[LOG|DIR|-]..."), or
					 * NULL: the verb takes none, and one is a usage error */
	const char *description;	/* the paragraphs between the synopsis and the options
					 * (NULL: the summary) */
	const struct cli_opt *opts;	/* may be NULL */
	const char *epilogue;		/* notes after the options; may be NULL */
	const char *examples;		/* "Examples:" lines, each "  ncclcheck ..." */
	const char *exit_codes;		/* "Exit codes: " and this */
	const char *json_help;		/* what --json prints, for --help (NULL: a generic line) */
	unsigned flags;			/* VERB_* */
	int (*run)(int argc, char **argv);
	/* Replaces the generated --help (lab: one page for its subcommands); may be NULL. */
	void (*help)(FILE *out, const struct verb *v);
	/*
	 * Subcommands ("bench p2p", "lab up"), chosen by cli_select() / cli_sub() from argv[1];
	 * each is a verb of its own: options, --help, run (called with argv[0] = its last word).
	 */
	const struct verb *const *subs;
	size_t nsubs;
};

/* The options every verb shares, filled by cli_next(). */
struct common_opts {
	int json, verbose, no_color;
	const char *html;	/* --html FILE, or NULL */
};

#define CLI_OPTS_MAX 48

/* The parser's state; lives on the verb's stack, needs no cleanup. */
struct cli {
	const struct verb *verb;
	struct common_opts common;
	const char *arg;	/* the current option's value (optarg) */
	int argc;
	char **argv;
	int optind;		/* after CLI_END: the first argument */
	int code;		/* after CLI_STOP: what the verb returns */
	/* private */
	struct option longopts[CLI_OPTS_MAX + 1];
	char optstring[2 * CLI_OPTS_MAX + 4];
	int overflow;
};

enum { CLI_END = 0, CLI_STOP = -1 };

/* Prepares parsing argv (argv[0] is the verb's name). */
void cli_start(struct cli *c, const struct verb *v, int argc, char **argv);
/*
 * The next option's id (> 0, its value in c->arg); CLI_END when the options are over; CLI_STOP
 * when the verb must return c->code now: --help was printed (0, or 3 on a write error), or a
 * usage error (unknown option with a "did you mean", missing value, unexpected argument) was
 * reported (2).
 */
int cli_next(struct cli *c);
/* A usage error about the current option: prints it, sets c->code; returns CLI_STOP. */
int cli_fail(struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Subcommands (bpftool's cmd_select): the one of v->subs that argv[1] names exactly, or NULL
 * (no argv[1], an option, or another word: the verb's own arguments, as bench's COLLECTIVE).
 */
const struct verb *cli_sub(const struct verb *v, int argc, char **argv);
/*
 * Runs the subcommand argv[1] names with argv + 1. --help (or "help") prints v's page; no
 * subcommand or an unknown one is a usage error with a "did you mean".
 */
int cli_select(const struct verb *v, int argc, char **argv);

/* The generated --help: synopsis, description, options, subcommands, examples, exit codes. */
void cli_help(FILE *out, const struct verb *v);
/* Pieces for a verb that writes its own help page (lab). */
void cli_help_synopsis(FILE *out, const struct verb *v, const char *lead);
void cli_help_options(FILE *out, const struct verb *v);
void cli_help_subs(FILE *out, const struct verb *v);
void cli_help_tail(FILE *out, const struct verb *v);

/*
 * The rank and launch options `cluster`, `bench`, `run` and `config` share, spelled as torchrun
 * spells them; a verb puts the rows it takes into its table and hands their ids to
 * cli_launch_option(). Values not given stay -1 / NULL, for the launcher's environment to fill.
 */
enum cli_launch_id {
	OPT_LAUNCH_MASTER = 200,	/* above every verb's own ids */
	OPT_LAUNCH_NODES,
	OPT_LAUNCH_NODE_RANK,
	OPT_LAUNCH_NPROC,
};
#define CLI_ROW_MASTER { .name = "master", .arg = "ADDR:PORT", .id = OPT_LAUNCH_MASTER, \
	.help = N_("rank 0's address and port; the port may be left out (default\n" \
		   "$MASTER_ADDR:$MASTER_PORT or the launcher's, port 29500)") }
#define CLI_ROW_NODES { .name = "nodes", .arg = "N", .id = OPT_LAUNCH_NODES, \
	.help = N_("how many nodes take part (default $NNODES or the launcher's)") }
#define CLI_ROW_NODE_RANK { .name = "node-rank", .arg = "R", .id = OPT_LAUNCH_NODE_RANK, \
	.help = N_("this node's rank, 0..N-1; 0 is the master (default $NODE_RANK or\n" \
		   "the launcher's)") }
#define CLI_ROW_NPROC { .name = "nproc-per-node", .arg = "N", .id = OPT_LAUNCH_NPROC, \
	.help = N_("processes per node, one per GPU (torchrun's --nproc-per-node)") }

struct cli_launch {
	const char *master;		/* --master as given, or NULL */
	char master_addr[256];		/* its address ("" when not given) */
	int master_port;		/* its port, 0 when not given */
	long nodes, node_rank, nproc_per_node;	/* -1 when not given */
};

void cli_launch_init(struct cli_launch *l);
/* Takes option `id` when it is a launch option (1), else 0; CLI_STOP after a usage error. */
int cli_launch_option(struct cli *c, int id, struct cli_launch *l);

/*
 * How a verb's report looks: text->head before the findings (the inventory, the per-rank
 * table), tail() after the summary line (timings); either may be NULL. `arg` is passed through.
 * The flags and fields below are for the verbs whose report has always looked different.
 */
struct report_text {
	void (*head)(FILE *out, const json_t *payload, const struct render_opts *ro, const void *arg);
	void (*tail)(FILE *out, const json_t *payload, const struct render_opts *ro, const void *arg);
	const void *arg;
	unsigned flags;		/* REPORT_* */
	int code;		/* the exit code, with REPORT_CODE */
	const char *doc_verb;	/* the JSON document's "verb" (NULL: the descriptor's name) */
	const char *lead;	/* REPORT_VERDICT: words before the verdict ("not starting 'x'") */
	/* --json: an array the document holds as a placeholder, written one element at a time
	 * (cluster's link tests, util/json.h); NULL or empty: none. --html needs it in the
	 * document (jsplice_materialize) */
	const struct jsplice *splice;
	/* last: gcc < 11 (PR 82283) warns of the fields after a nested compound literal in a
	 * designated initializer (bench's `.html = &(struct html_opts){...}`) */
	const struct html_opts *html;	/* --html: what the page shows besides the document
					 * (bench's --compare); NULL for nothing */
};

enum report_flags {
	REPORT_CODE = 1 << 0,		/* exit with text->code, not the findings' code */
	REPORT_NO_SUMMARY = 1 << 1,	/* the findings alone: no blank line and summary line */
	REPORT_BLANK_IF_ANY = 1 << 2,	/* the summary's blank line only after findings */
	REPORT_VERBOSE = 1 << 3,	/* every finding in full, as -v would */
	REPORT_DOC = 1 << 4,		/* payload is the whole JSON document (cluster's) */
	/* the first screen: the verdict and the fix block first, then the root findings; passes
	 * and folded findings with -v only */
	REPORT_VERDICT = 1 << 5,
};

/*
 * The tail every findings verb shares: the exit code from the findings (1 when one is an error,
 * else 0; REPORT_CODE: text->code); with --json the document {verb, <payload members>, findings,
 * summary, exit_code}; else text->head, the findings, a blank line, the summary line and
 * text->tail. With --html FILE the same document is also written to FILE as one HTML page
 * (report/html.h). Flushes stdout and returns the exit code, or 3 when stdout or the page
 * could not be written.
 * Borrows everything; `text` may be NULL.
 */
int cmd_report(const struct cli *c, json_t *payload, const struct findings *fs,
	       const struct report_text *text);
/* --json output without findings (lab): the document for `verb` with exit_code `code`. */
int cmd_print_json(const char *verb, json_t *payload, int code);

/* Every verb, in `ncclcheck --help`'s order (cmd/verbs.c). */
extern const struct verb *const cmd_verbs[];
extern const size_t cmd_nverbs;

extern const struct verb verb_node, verb_cluster, verb_bench, verb_config, verb_run,
	verb_explain, verb_lab, verb_attach, verb_report;
/* bench's subcommands, defined beside their code: `bench p2p` (bench_p2p.c), `bench tune`. */
extern const struct verb verb_bench_p2p, verb_bench_tune;

int cmd_node(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_cluster(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_config(int argc, char **argv);	/* cmd/config.c */
int cmd_run(int argc, char **argv);	/* cmd/run.c */
int cmd_report_file(int argc, char **argv);	/* cmd/report_verb.c: `ncclcheck report` */

/* "ncclcheck: error: ..." on stderr (git's message rules); returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cli_next()'s report of a getopt_long failure ('?' or ':' with an optstring starting with ':')
 * for `verb`, with a "did you mean" when one is close; returns EXIT_USAGE.
 */
int cli_bad_option(const char *verb, int c, char **argv, const struct option *longopts);
/* Prints "error: MSG" and the hint to run `ncclcheck VERB --help`; returns EXIT_USAGE. */
int cli_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses "30", "1.5", "500ms", "2m" as milliseconds; -1 on garbage. */
int cli_parse_duration_ms(const char *s, long *ms);
/* A decimal integer in [min, max]; -1 otherwise. */
int cli_parse_long(const char *s, long min, long max, long *out);

/*
 * This process's environment as data (caller frees with envmap_free): what a verb gives
 * probe_ctx_init() as the job's environment and probe_ctx_knobs() as ncclcheck's knobs. `run`
 * and `config` edit a copy of it to probe "as the job will run".
 */
struct envmap *cli_environ(void);

/* Default render options for stdout (colour decided from the terminal and NO_COLOR). */
void cli_render_opts(struct render_opts *ro, int verbose, int no_color);
/*
 * The cluster's shared secret for `cluster` and `run`: --token-file's, else $NCCLCHECK_TOKEN's,
 * else none (tok stays empty). -1 after printing why it cannot be used.
 */
int cli_cluster_token(const char *token_file, const struct envmap *env, struct strbuf *tok);

/* Flushes stdout and turns a write error (full disk, closed pipe) into EXIT_CANNOT_RUN. */
int cli_finish(int code);

/*
 * With --json on the command line, an error is JSON too (bpftool's p_err): when the verb ends
 * with `code` != 0 without having printed its document, the first error message goes to stdout
 * as {"error": MSG, "exit_code": CODE}, besides stderr. main() calls this after every verb.
 */
int cli_json_error_flush(int code);
/* cli_start() turns this on when the verb takes --json and argv has it. */
void cli_json_errors(int on);
/* Prints a verb's JSON document (and remembers that one was printed). */
void cli_print_doc(json_t *doc);
/* As cli_print_doc, with sp's elements in place of its placeholder (util/json.h). */
void cli_print_doc_splice(json_t *doc, const struct jsplice *sp);

#endif
