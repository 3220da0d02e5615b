/* The tail every verb shares: findings -> exit code -> the JSON document or the text report. */
#include "cmd/cmd.h"

#include "ncclcheck.h"

int cmd_print_json(const char *verb, json_t *payload, int code)
{
	json_t *doc = render_json_doc(verb, payload, NULL, code);

	render_json_print(stdout, doc);
	json_decref(doc);
	return cli_finish(code);
}

int cmd_report(const struct cli *c, json_t *payload, const struct findings *fs,
	       const struct report_text *text)
{
	int code = findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	struct render_opts ro;

	if (c->common.json) {
		json_t *doc = render_json_doc(c->verb->name, payload, fs, code);

		render_json_print(stdout, doc);
		json_decref(doc);
		return cli_finish(code);
	}
	cli_render_opts(&ro, c->common.verbose, c->common.no_color);
	if (text && text->head)
		text->head(stdout, payload, &ro, text->arg);
	render_findings_text(stdout, fs, &ro);
	fputc('\n', stdout);
	render_summary_line(stdout, fs, &ro);
	if (text && text->tail)
		text->tail(stdout, payload, &ro, text->arg);
	return cli_finish(code);
}
