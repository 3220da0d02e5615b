/*
 * ncclcheck report: renders a saved --json document (any verb's) as the HTML page --html would
 * have written, so a run on a cluster without a browser is viewed later, elsewhere.
 * (cmd/report.c is the report tail every verb shares; this is the verb.)
 */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "report/html.h"
#include "util/err.h"
#include "util/strbuf.h"

enum { OPT_COMPARE = 1 };

static const struct cli_opt report_opts[] = {
	{ .name = "compare", .arg = "FILE", .id = OPT_COMPARE,
	  .help = N_("bench: draw this second sweep's busbw over the document's (another\n"
		     "'bench --json' document, or nccl-tests' JSON output)") },
	{ 0 },
};

const struct verb verb_report = {
	.name = "report",
	.summary = N_("render a saved --json document as one self-contained HTML page"),
	.args = "FILE.json|-",
	.description =
		N_("Reads the document a verb printed with --json (node, cluster, bench, explain,\n"
		   "attach; '-' for standard input) and writes the page that verb's --html FILE writes:\n"
		   "the verdict and the fix first, the findings by severity, and the verb's own figures\n"
		   "(cluster: the reachability matrix, the port map, MTU and bandwidth per link, the\n"
		   "nodes side by side; bench: bandwidth against message size). Inline CSS and SVG only:\n"
		   "it opens offline, prints, and follows the viewer's dark mode. Without --html the page\n"
		   "goes to standard output.\n"),
	.opts = report_opts,
	.examples =
		"  ncclcheck cluster --json > run.json; ncclcheck report run.json --html run.html\n"
		"  ncclcheck report bench-new.json --compare bench-old.json --html bench.html\n",
	.exit_codes = N_("0 the page was written, 2 usage error, 3 the file is unreadable or not an\n"
		         "ncclcheck document, or the page could not be written.\n"),
	.flags = VERB_HTML,
	.run = cmd_report_file,
};

/* A JSON file ("-": standard input), or NULL after saying why not. */
static json_t *load(const char *path)
{
	json_error_t jerr;
	json_t *doc;

	/* the system's reason, not jansson's English sentence around it */
	if (strcmp(path, "-") && access(path, R_OK) < 0) {
		error("cannot read '%s': %s", path, err_errno_text(errno));
		return NULL;
	}
	doc = !strcmp(path, "-") ? json_loadf(stdin, 0, &jerr) : json_load_file(path, 0, &jerr);
	if (!doc)
		error("%s: not a JSON document: %s", path, jerr.text);
	return doc;
}

int cmd_report_file(int argc, char **argv)
{
	const char *in, *compare = NULL;
	struct html_opts o = { 0 };
	json_t *doc;
	char err[512];
	struct cli c;
	int id;

	cli_start(&c, &verb_report, argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (id == OPT_COMPARE)
			compare = c.arg;
	if (id == CLI_STOP)
		return c.code;
	if (c.optind != argc - 1)
		return cli_usage_error("report", c.optind >= argc ? "which document? (a file that "
				       "an ncclcheck verb's --json wrote, or -)"
				       : "one document at a time");
	in = argv[c.optind];
	if (compare && !strcmp(compare, "-") && !strcmp(in, "-"))
		return cli_usage_error("report", "the document and --compare cannot both be stdin");
	doc = load(in);
	if (!doc)
		return EXIT_CANNOT_RUN;
	if (compare) {
		const json_t *b;

		o.compare = load(compare);
		o.compare_label = compare;
		b = o.compare && json_is_object(json_object_get(o.compare, "bench"))
		    ? json_object_get(o.compare, "bench") : o.compare;
		if (o.compare && !json_is_array(json_object_get(b, "results")))
			error("%s: no bench results to compare with (neither 'bench --json' nor "
			      "nccl-tests' JSON)", compare);
		if (!o.compare || !json_is_array(json_object_get(b, "results"))) {
			json_decref((json_t *)o.compare);
			json_decref(doc);
			return EXIT_CANNOT_RUN;
		}
		if (strcmp(str_or(json_string_value(json_object_get(doc, "verb")), ""), "bench"))
			warning("--compare draws over a bench document's chart; %s is not one", in);
	}
	if (c.common.html) {
		if (html_write_file(c.common.html, doc, &o, err, sizeof(err)) < 0)
			id = error("%s: %s", in, err);
	} else {
		struct strbuf sb = STRBUF_INIT;

		if (html_page(&sb, doc, &o, err, sizeof(err)) < 0)
			id = error("%s: %s", in, err);
		else
			fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_release(&sb);
	}
	json_decref((json_t *)o.compare);
	json_decref(doc);
	return id < 0 ? EXIT_CANNOT_RUN : cli_finish(EXIT_CLEAN);
}
