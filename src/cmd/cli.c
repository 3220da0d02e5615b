/*
 * The verb layer: getopt_long's table, the synopsis and --help generated from one options table
 * per verb, with the options every verb shares parsed once (see cmd.h).
 */
#include "cmd/cmd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "ncclcheck.h"
#include "util/i18n.h"
#include "util/wrap.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/* getopt_long's val for the verb's option i, and for the common options. */
#define VAL_OPT 0x1000
enum { VAL_JSON = 0x2000, VAL_NO_COLOR, VAL_HTML, VAL_VERBOSE = 'v', VAL_HELP = 'h' };

#define HELP_WIDTH 100
#define HELP_COLUMN 25

static const struct cli_opt common_json = {
	.name = "json", .help = N_("print the result as one JSON document"),
};
static const struct cli_opt common_html = {
	.name = "html", .arg = "FILE",
	.help = N_("also write the report as one self-contained HTML page to FILE\n"
		   "(the --json document rendered: no script, nothing fetched)"),
};
static const struct cli_opt common_verbose = {
	.name = "verbose", .short_name = 'v',
	.help = N_("show every piece of evidence and every passed check in full"),
};
static const struct cli_opt common_no_color = {
	.name = "no-color",
	.help = N_("no colours (also: NO_COLOR=1; colours are only used on a terminal)"),
};

static size_t nopts(const struct cli_opt *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

static void add_long(struct cli *c, size_t *n, const char *name, int has_arg, int val)
{
	if (*n >= CLI_OPTS_MAX) {
		c->overflow = 1; /* cli_next() says so instead of parsing a partial table */
		return;
	}
	c->longopts[*n] = (struct option){ .name = name, .has_arg = has_arg, .flag = NULL, .val = val };
	(*n)++;
}

static void add_short(struct cli *c, int ch, int has_arg)
{
	size_t len = strlen(c->optstring);

	if (len + 3 > sizeof(c->optstring)) {
		c->overflow = 1;
		return;
	}
	c->optstring[len++] = (char)ch;
	if (has_arg)
		c->optstring[len++] = ':';
	c->optstring[len] = '\0';
}

void cli_start(struct cli *c, const struct verb *v, int argc, char **argv)
{
	size_t n = 0, k = nopts(v->opts);

	memset(c, 0, sizeof(*c));
	c->verb = v;
	c->argc = argc;
	c->argv = argv;
	/* '+': stop at the first argument; ':': report a missing value as ':' */
	strcpy(c->optstring, v->flags & VERB_STOP_AT_ARG ? "+:" : ":");
	if (v->flags & VERB_JSON)
		add_long(c, &n, "json", no_argument, VAL_JSON);
	if (v->flags & VERB_HTML)
		add_long(c, &n, "html", required_argument, VAL_HTML);
	for (size_t i = 0; i < k; i++) {
		const struct cli_opt *o = &v->opts[i];
		add_long(c, &n, o->name, o->arg ? required_argument : no_argument, VAL_OPT + (int)i);
		if (o->short_name)
			add_short(c, o->short_name, o->arg != NULL);
	}
	if (v->flags & VERB_TEXT) {
		add_long(c, &n, "verbose", no_argument, VAL_VERBOSE);
		add_long(c, &n, "no-color", no_argument, VAL_NO_COLOR);
		add_short(c, 'v', 0);
	}
	add_long(c, &n, "help", no_argument, VAL_HELP);
	add_short(c, 'h', 0);
	c->longopts[n] = (struct option){ 0 };
	if (v->flags & VERB_JSON)
		for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
			if (!strcmp(argv[i], "--json"))
				cli_json_errors(1);
	/* a fresh scan: verbs may parse more than once in one process (help VERB, tests) */
	optind = 0;
	opterr = 0;
}

/* The row an alias stands for: the first one with its id that is not an alias. */
static const struct cli_opt *alias_target(const struct verb *v, const struct cli_opt *alias)
{
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		if (v->opts[i].id == alias->id && !(v->opts[i].flags & CLI_OPT_ALIAS))
			return &v->opts[i];
	return alias;
}

static void alias_note(const struct verb *v, const struct cli_opt *o)
{
	fflush(stdout);
	fprintf(stderr, _("ncclcheck: note: '%s --%s' is the old spelling of '--%s'; it works for "
			  "one more release\n"), v->name, o->name, alias_target(v, o)->name);
}

int cli_fail(struct cli *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->code = cli_usage_error(c->verb->name, "%s", msg);
	return CLI_STOP;
}

int cli_next(struct cli *c)
{
	const struct verb *v = c->verb;
	int ch;

	if (c->overflow) {
		error("internal: verb '%s' has more than %d options", v->name, CLI_OPTS_MAX);
		c->code = EXIT_CANNOT_RUN;
		return CLI_STOP;
	}
	ch = getopt_long(c->argc, c->argv, c->optstring, c->longopts, NULL);
	c->arg = optarg;
	switch (ch) {
	case -1:
		c->optind = optind;
		if (!v->args && optind < c->argc) {
			c->code = cli_usage_error(v->name,
						  "unexpected argument '%s'", c->argv[optind]);
			return CLI_STOP;
		}
		return CLI_END;
	case VAL_JSON:
		c->common.json = 1;
		return cli_next(c);
	case VAL_VERBOSE:
		c->common.verbose = 1;
		return cli_next(c);
	case VAL_NO_COLOR:
		c->common.no_color = 1;
		return cli_next(c);
	case VAL_HTML:
		if (!*optarg)
			return cli_fail(c, "--html wants a file name");
		c->common.html = optarg;
		return cli_next(c);
	case VAL_HELP:
		if (v->help)
			v->help(stdout, v);
		else
			cli_help(stdout, v);
		c->code = cli_finish(EXIT_CLEAN);
		return CLI_STOP;
	case '?':
	case ':':
		c->code = cli_bad_option(v->name, ch, c->argv, c->longopts);
		return CLI_STOP;
	default:
		break;
	}
	if (ch >= VAL_OPT && ch < VAL_OPT + (int)nopts(v->opts)) {
		const struct cli_opt *o = &v->opts[ch - VAL_OPT];

		if (o->flags & CLI_OPT_ALIAS)
			alias_note(v, o);
		return o->id;
	}
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		if (v->opts[i].short_name == ch)
			return v->opts[i].id;
	/* unreachable: getopt returns only what the tables hold */
	c->code = cli_usage_error(v->name, "cannot parse option '%c'", ch);
	return CLI_STOP;
}

/* ---- help ---- */

/* Appends `item` to a synopsis line, wrapping under `indent` before `width`. */
static void synopsis_item(FILE *out, int *col, int indent, const char *item)
{
	int w = (int)strlen(item);

	if (*col + 1 + w > HELP_WIDTH && *col > indent) {
		fprintf(out, "\n%*s", indent, "");
		*col = indent;
	} else if (*col > indent) {
		fputc(' ', out);
		(*col)++;
	}
	fputs(item, out);
	*col += w;
}

static void synopsis_opt(FILE *out, int *col, int indent, const struct cli_opt *o)
{
	char item[128];

	if (o->flags & (CLI_OPT_HIDDEN | CLI_OPT_ALIAS))
		return;
	snprintf(item, sizeof(item), "[--%s%s%s]%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "",
		 o->flags & CLI_OPT_MULTI ? "..." : "");
	synopsis_item(out, col, indent, item);
}

void cli_help_synopsis(FILE *out, const struct verb *v, const char *lead)
{
	/* columns, not bytes: a Chinese "usage: " is narrower than its bytes */
	int indent = (int)(wrap_cols(lead, strlen(lead)) + strlen("ncclcheck  ") + strlen(v->name));
	int col = indent;

	fprintf(out, "%sncclcheck %s ", lead, v->name);
	if (v->flags & VERB_JSON)
		synopsis_opt(out, &col, indent, &common_json);
	if (v->flags & VERB_HTML)
		synopsis_opt(out, &col, indent, &common_html);
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		synopsis_opt(out, &col, indent, &v->opts[i]);
	if (v->flags & VERB_TEXT) {
		synopsis_opt(out, &col, indent, &common_verbose);
		synopsis_opt(out, &col, indent, &common_no_color);
	}
	if (v->args)
		synopsis_item(out, &col, indent, v->args);
	fputc('\n', out);
	if (v->nsubs)
		fprintf(out, "%*sncclcheck %s SUBCOMMAND ...\n", (int)wrap_cols(lead, strlen(lead)), "",
			v->name);
}

/* Writes `text`, whose lines after the first are indented by `indent`. */
static void hanging(FILE *out, const char *text, int indent)
{
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");

		fwrite(p, 1, len, out);
		p += len;
		if (*p == '\n' && *++p)
			fprintf(out, "\n%*s", indent, "");
	}
	fputc('\n', out);
}

static void option_line(FILE *out, const struct verb *v, const struct cli_opt *o, const char *help)
{
	char label[128];
	int n;

	if (o->flags & (CLI_OPT_HIDDEN | CLI_OPT_ALIAS))
		return;
	if (o->short_name)
		snprintf(label, sizeof(label), "-%c, --%s%s%s", o->short_name, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(label, sizeof(label), "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	n = fprintf(out, "  %s", label);
	if (n + 1 > HELP_COLUMN) {
		fputc('\n', out);
		n = 0;
	}
	fprintf(out, "%*s", HELP_COLUMN - n, "");
	hanging(out, _(help), HELP_COLUMN);
	/* its old spellings, each on a line of its own under it */
	for (size_t i = 0; v && v->opts && v->opts[i].name; i++)
		if ((v->opts[i].flags & CLI_OPT_ALIAS) && v->opts[i].id == o->id)
			fprintf(out, _("%*s(old spelling --%s%s%s: works, with a note, for one more "
				       "release)\n"), HELP_COLUMN, "", v->opts[i].name,
				v->opts[i].arg ? " " : "", v->opts[i].arg ? v->opts[i].arg : "");
}

void cli_help_options(FILE *out, const struct verb *v)
{
	const struct cli_opt *opts = v->opts;
	unsigned verb_flags = v->flags;

	if (verb_flags & VERB_JSON)
		option_line(out, NULL, &common_json,
			    v->json_help ? v->json_help : common_json.help);
	if (verb_flags & VERB_HTML)
		option_line(out, NULL, &common_html, common_html.help);
	for (size_t i = 0; opts && opts[i].name; i++)
		option_line(out, v, &opts[i], opts[i].help);
	if (verb_flags & VERB_TEXT) {
		option_line(out, NULL, &common_verbose, common_verbose.help);
		option_line(out, NULL, &common_no_color, common_no_color.help);
	}
}

/* The last word of "bench p2p": what argv[1] says to choose it. */
static const char *sub_word(const struct verb *sub)
{
	const char *sp = strrchr(sub->name, ' ');

	return sp ? sp + 1 : sub->name;
}

void cli_help_subs(FILE *out, const struct verb *v)
{
	if (!v->nsubs)
		return;
	fprintf(out, _("\nSubcommands ('ncclcheck %s SUBCOMMAND --help' explains each):\n"), v->name);
	for (size_t i = 0; i < v->nsubs; i++) {
		fprintf(out, "  %-10s ", sub_word(v->subs[i]));
		hanging(out, _(v->subs[i]->summary), 13);
	}
}

void cli_help_tail(FILE *out, const struct verb *v)
{
	if (v->epilogue)
		fprintf(out, "\n%s", _(v->epilogue));
	if (v->examples)
		fprintf(out, "\n%s\n%s", _("Examples:"), _(v->examples));
	if (v->exit_codes)
		fprintf(out, "\n%s %s", _("Exit codes:"), _(v->exit_codes));
}

void cli_help(FILE *out, const struct verb *v)
{
	cli_help_synopsis(out, v, _("usage: "));
	fprintf(out, "\n%s", _(v->description ? v->description : v->summary));
	if (!v->description)
		fputc('\n', out);
	fputc('\n', out);
	cli_help_options(out, v);
	cli_help_subs(out, v);
	cli_help_tail(out, v);
}

/* ---- subcommands ---- */

const struct verb *cli_sub(const struct verb *v, int argc, char **argv)
{
	if (argc < 2)
		return NULL;
	for (size_t i = 0; i < v->nsubs; i++)
		if (!strcmp(argv[1], sub_word(v->subs[i])))
			return v->subs[i];
	return NULL;
}

int cli_select(const struct verb *v, int argc, char **argv)
{
	const struct verb *sub = cli_sub(v, argc, argv);
	const char **words;
	const char *best;
	struct strbuf list = STRBUF_INIT;
	int code;

	if (sub)
		return sub->run(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "help"))) {
		if (v->help)
			v->help(stdout, v);
		else
			cli_help(stdout, v);
		return cli_finish(EXIT_CLEAN);
	}
	words = xcalloc(v->nsubs + 1, sizeof(*words));
	for (size_t i = 0; i < v->nsubs; i++) {
		words[i] = sub_word(v->subs[i]);
		/* names only, no "or": the list reads the same in every language */
		strbuf_addf(&list, "%s%s", i ? ", " : "", words[i]);
	}
	if (argc < 2)
		code = cli_usage_error(v->name, "'%s' needs a subcommand: %s", v->name, list.buf);
	else if ((best = suggest_closest(argv[1], words, v->nsubs)))
		code = cli_usage_error(v->name, "unknown subcommand '%s'; did you mean '%s'?",
				       argv[1], best);
	else
		code = cli_usage_error(v->name, "unknown subcommand '%s' (%s)", argv[1], list.buf);
	strbuf_release(&list);
	free(words);
	return code;
}

/* ---- the launch options ---- */

void cli_launch_init(struct cli_launch *l)
{
	memset(l, 0, sizeof(*l));
	l->nodes = l->node_rank = l->nproc_per_node = -1;
}

/* ADDR, ADDR:PORT, [v6]:PORT or a bare v6 address into l->master_addr and l->master_port. */
static int parse_master(struct cli *c, const char *arg, struct cli_launch *l)
{
	char *addr = l->master_addr;
	const size_t addrlen = sizeof(l->master_addr);
	const char *colon;
	long port;

	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');

		if (!end || (end[1] && end[1] != ':') || (size_t)(end - arg - 1) >= addrlen)
			return cli_fail(c, "--master wants ADDR[:PORT] or [IPv6]:PORT, not '%s'",
					arg);
		memcpy(addr, arg + 1, (size_t)(end - arg - 1));
		addr[end - arg - 1] = '\0';
		colon = end[1] ? end + 1 : NULL;
	} else {
		colon = strchr(arg, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL;	/* a bare IPv6 address */
		if (strlen(arg) >= addrlen)
			return cli_fail(c, "--master '%s' is too long", arg);
		strcpy(addr, arg);
		if (colon)
			addr[colon - arg] = '\0';
	}
	if (colon) {
		if (cli_parse_long(colon + 1, 1, 65535, &port) < 0)
			return cli_fail(c, "--master port must be 1..65535, not '%s'", colon + 1);
		l->master_port = (int)port;
	}
	if (!addr[0])
		return cli_fail(c, "--master wants an address, not '%s'", arg);
	l->master = arg;
	return 1;
}

int cli_launch_option(struct cli *c, int id, struct cli_launch *l)
{
	switch (id) {
	case OPT_LAUNCH_MASTER:
		return parse_master(c, c->arg, l);
	case OPT_LAUNCH_NODES:
		if (cli_parse_long(c->arg, 1, LAUNCH_HOSTS_MAX, &l->nodes) < 0)
			return cli_fail(c, "--nodes wants a count of 1..%d, not '%s'",
					LAUNCH_HOSTS_MAX, c->arg);
		return 1;
	case OPT_LAUNCH_NODE_RANK:
		if (cli_parse_long(c->arg, 0, LAUNCH_HOSTS_MAX - 1, &l->node_rank) < 0)
			return cli_fail(c, "--node-rank wants 0..N-1, not '%s'", c->arg);
		return 1;
	case OPT_LAUNCH_NPROC:
		if (cli_parse_long(c->arg, 1, 1024, &l->nproc_per_node) < 0)
			return cli_fail(c, "--nproc-per-node wants 1..1024, not '%s'", c->arg);
		return 1;
	default:
		return 0;
	}
}
