/*
 * The verb layer: getopt_long's table, the synopsis and --help generated from one options table
 * per verb, with the options every verb shares parsed once (see cmd.h).
 */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

#include "ncclcheck.h"
#include "util/xalloc.h"

/* getopt_long's val for the verb's option i, and for the common options. */
#define VAL_OPT 0x1000
enum { VAL_JSON = 0x2000, VAL_NO_COLOR, VAL_VERBOSE = 'v', VAL_HELP = 'h' };

#define HELP_WIDTH 100
#define HELP_COLUMN 25

static const struct cli_opt common_json = {
	.name = "json", .help = "print the result as one JSON document",
};
static const struct cli_opt common_verbose = {
	.name = "verbose", .short_name = 'v',
	.help = "show every piece of evidence and every passed check in full",
};
static const struct cli_opt common_no_color = {
	.name = "no-color", .help = "no colours (also: NO_COLOR=1; colours are only used on a terminal)",
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
	/* a fresh scan: verbs may parse more than once in one process (help VERB, tests) */
	optind = 0;
	opterr = 0;
}

/* The first word of "lab up": the page `--help` is on. */
static const char *help_page(const struct verb *v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(v->name, " "), v->name);
	return buf;
}

int cli_next(struct cli *c)
{
	const struct verb *v = c->verb;
	char page[64];
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
			c->code = cli_usage_error(help_page(v, page, sizeof(page)),
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
	if (ch >= VAL_OPT && ch < VAL_OPT + (int)nopts(v->opts))
		return v->opts[ch - VAL_OPT].id;
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		if (v->opts[i].short_name == ch)
			return v->opts[i].id;
	/* unreachable: getopt returns only what the tables hold */
	c->code = cli_usage_error(help_page(v, page, sizeof(page)), "cannot parse option '%c'", ch);
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

	if (o->flags & CLI_OPT_HIDDEN)
		return;
	snprintf(item, sizeof(item), "[--%s%s%s]%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "",
		 o->flags & CLI_OPT_MULTI ? "..." : "");
	synopsis_item(out, col, indent, item);
}

void cli_help_synopsis(FILE *out, const struct verb *v, const char *lead)
{
	int col = fprintf(out, "%sncclcheck %s ", lead, v->name), indent = col;

	col = indent;
	if (v->flags & VERB_JSON)
		synopsis_opt(out, &col, indent, &common_json);
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		synopsis_opt(out, &col, indent, &v->opts[i]);
	if (v->flags & VERB_TEXT) {
		synopsis_opt(out, &col, indent, &common_verbose);
		synopsis_opt(out, &col, indent, &common_no_color);
	}
	if (v->args)
		synopsis_item(out, &col, indent, v->args);
	fputc('\n', out);
}

static void option_line(FILE *out, const struct cli_opt *o, const char *help)
{
	char label[128];
	int n;

	if (o->flags & CLI_OPT_HIDDEN)
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
	for (const char *p = help ? help : ""; *p;) {
		size_t len = strcspn(p, "\n");
		fwrite(p, 1, len, out);
		p += len;
		if (*p == '\n') {
			p++;
			fprintf(out, "\n%*s", HELP_COLUMN, "");
		}
	}
	fputc('\n', out);
}

void cli_help_options(FILE *out, const struct verb *v)
{
	const struct cli_opt *opts = v->opts;
	unsigned verb_flags = v->flags;

	if (verb_flags & VERB_JSON)
		option_line(out, &common_json, v->json_help ? v->json_help : common_json.help);
	for (size_t i = 0; opts && opts[i].name; i++)
		option_line(out, &opts[i], opts[i].help);
	if (verb_flags & VERB_TEXT) {
		option_line(out, &common_verbose, common_verbose.help);
		option_line(out, &common_no_color, common_no_color.help);
	}
}

void cli_help(FILE *out, const struct verb *v)
{
	cli_help_synopsis(out, v, "usage: ");
	if (v->description)
		fprintf(out, "\n%s", v->description);
	fputc('\n', out);
	cli_help_options(out, v);
	if (v->epilogue)
		fprintf(out, "\n%s", v->epilogue);
}
