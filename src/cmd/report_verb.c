/*
 * ncclcheck report: renders a saved --json document (any verb's) as the HTML page --html would
 * have written, so a run on a cluster without a browser is viewed later, elsewhere.
 * (cmd/report.c is the report tail every verb shares; this is the verb.)
 */
#include "cmd/cmd.h"

#include <stdio.h>
#include <string.h>

#include "ncclcheck.h"
#include "report/html.h"
#include "util/strbuf.h"

const struct verb verb_report = {
	.name = "report",
	.summary = "render a saved --json document as one self-contained HTML page",
	.args = "FILE.json|-",
	.description =
		"Reads the document a verb printed with --json (node, cluster, bench, explain,\n"
		"attach; '-' for standard input) and writes the page that verb's --html FILE writes:\n"
		"the verdict and the fix first, the findings by severity, and the verb's own figures\n"
		"(cluster: the reachability matrix, the port map, MTU and bandwidth per link, the\n"
		"nodes side by side; bench: bandwidth against message size). Inline CSS and SVG only:\n"
		"it opens offline, prints, and follows the viewer's dark mode. Without --html the page\n"
		"goes to standard output.\n",
	.examples =
		"  ncclcheck cluster --json > run.json; ncclcheck report run.json --html run.html\n",
	.exit_codes = "0 the page was written, 2 usage error, 3 the file is unreadable or not an\n"
		      "ncclcheck document, or the page could not be written.\n",
	.flags = VERB_HTML,
	.run = cmd_report_file,
};

int cmd_report_file(int argc, char **argv)
{
	const char *in;
	json_t *doc;
	json_error_t jerr;
	char err[512];
	struct cli c;
	int id;

	cli_start(&c, &verb_report, argc, argv);
	while ((id = cli_next(&c)) > 0)
		;
	if (id == CLI_STOP)
		return c.code;
	if (c.optind != argc - 1)
		return cli_usage_error("report", c.optind >= argc ? "which document? (a file that "
				       "an ncclcheck verb's --json wrote, or -)"
				       : "one document at a time");
	in = argv[c.optind];
	doc = !strcmp(in, "-") ? json_loadf(stdin, 0, &jerr) : json_load_file(in, 0, &jerr);
	if (!doc) {
		error("%s: not a JSON document: %s (line %d)", in, jerr.text, jerr.line);
		return EXIT_CANNOT_RUN;
	}
	if (c.common.html) {
		if (html_write_file(c.common.html, doc, err, sizeof(err)) < 0) {
			error("%s: %s", in, err);
			json_decref(doc);
			return EXIT_CANNOT_RUN;
		}
	} else {
		struct strbuf sb = STRBUF_INIT;

		if (html_page(&sb, doc, err, sizeof(err)) < 0) {
			error("%s: %s", in, err);
			json_decref(doc);
			return EXIT_CANNOT_RUN;
		}
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_release(&sb);
	}
	json_decref(doc);
	return cli_finish(EXIT_CLEAN);
}
