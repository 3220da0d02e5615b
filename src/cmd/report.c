/* The tail every verb shares: findings -> exit code -> the JSON document or the text report. */
#include "cmd/cmd.h"

#include "ncclcheck.h"

int cmd_print_json(const char *verb, json_t *payload, int code)
{
	json_t *doc = render_json_doc(verb, payload, NULL, code);

	cli_print_doc(doc);
	json_decref(doc);
	return cli_finish(code);
}

int cmd_report(const struct cli *c, json_t *payload, const struct findings *fs,
	       const struct report_text *text)
{
	static const struct report_text plain;
	const struct report_text *t = text ? text : &plain;
	int code = t->flags & REPORT_CODE ? t->code
		   : findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	struct render_opts ro;

	if (c->common.json) {
		json_t *doc = t->flags & REPORT_DOC ? json_incref(payload)
			      : render_json_doc(t->doc_verb ? t->doc_verb : c->verb->name, payload,
						fs, code);

		cli_print_doc(doc);
		json_decref(doc);
		return cli_finish(code);
	}
	cli_render_opts(&ro, c->common.verbose || (t->flags & REPORT_VERBOSE), c->common.no_color);
	if (t->head)
		t->head(stdout, payload, &ro, t->arg);
	render_findings_text(stdout, fs, &ro);
	if (!(t->flags & REPORT_NO_SUMMARY)) {
		if (!(t->flags & REPORT_BLANK_IF_ANY) || fs->n)
			fputc('\n', stdout);
		render_summary_line(stdout, fs, &ro);
	}
	if (t->tail)
		t->tail(stdout, payload, &ro, t->arg);
	return cli_finish(code);
}
