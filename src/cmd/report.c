/* The tail every verb shares: findings -> exit code -> the JSON document or the text report. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "util/strbuf.h"
#include "util/wrap.h"

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
	ro.width = wrap_width(1);
	ro.roots = !!(t->flags & REPORT_VERDICT);
	/* every writer's text, then wrapped to the terminal in one place */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		struct strbuf wrapped = STRBUF_INIT;

		if (!out)
			return cli_finish(EXIT_CANNOT_RUN);
		if (t->flags & REPORT_VERDICT)
			render_verdict_text(out, fs, &ro, t->lead);
		if (t->head)
			t->head(out, payload, &ro, t->arg);
		render_findings_text(out, fs, &ro);
		if (!(t->flags & REPORT_NO_SUMMARY)) {
			if (!(t->flags & REPORT_BLANK_IF_ANY) || fs->n)
				fputc('\n', out);
			render_summary_line(out, fs, &ro);
		}
		if (t->tail)
			t->tail(out, payload, &ro, t->arg);
		fclose(out);
		wrap_text(&wrapped, buf ? buf : "", ro.width, -1, WRAP_PROSE);
		fwrite(wrapped.buf, 1, wrapped.len, stdout);
		strbuf_release(&wrapped);
		free(buf);
	}
	return cli_finish(code);
}
