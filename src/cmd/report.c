/* The tail every verb shares: findings -> exit code -> the JSON document or the text report. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "report/html.h"
#include "util/strbuf.h"
#include "util/wrap.h"

int cmd_print_json(const char *verb, json_t *payload, int code)
{
	json_t *doc = render_json_doc(verb, payload, NULL, code);

	cli_print_doc(doc);
	json_decref(doc);
	return cli_finish(code);
}

/* The report's text as its writers write it into `out`, section by section. */
struct section {
	FILE *out;
	char *buf;
	size_t len, done;
	int width;
	struct strbuf text;
};

/* Moves what was written since the last call to `text`, wrapped as prose when `wrap`. */
static void section_take(struct section *s, int wrap)
{
	fflush(s->out);
	if (!s->buf || s->len == s->done)
		return;
	if (wrap)
		wrap_text(&s->text, s->buf + s->done, s->width, -1, WRAP_PROSE);
	else
		strbuf_add(&s->text, s->buf + s->done, s->len - s->done);
	s->done = s->len;
}

int cmd_report(const struct cli *c, json_t *payload, const struct findings *fs,
	       const struct report_text *text)
{
	static const struct report_text plain;
	const struct report_text *t = text ? text : &plain;
	int code = t->flags & REPORT_CODE ? t->code
		   : findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	struct render_opts ro;
	int page_failed = 0;

	/* the page is the JSON document rendered: one document for both */
	if (c->common.json || c->common.html) {
		json_t *doc = t->flags & REPORT_DOC ? json_incref(payload)
			      : render_json_doc(t->doc_verb ? t->doc_verb : c->verb->name, payload,
						fs, code);
		char err[512];

		if (c->common.html && html_write_file(c->common.html, doc, t->html, err, sizeof(err)) < 0)
			page_failed = error("--html: %s", err);
		if (c->common.json)
			cli_print_doc_splice(doc, t->splice);
		json_decref(doc);
		if (c->common.json)
			return cli_finish(page_failed ? EXIT_CANNOT_RUN : code);
	}
	cli_render_opts(&ro, c->common.verbose || (t->flags & REPORT_VERBOSE), c->common.no_color);
	ro.width = wrap_width(1);
	ro.roots = !!(t->flags & REPORT_VERDICT);
	/*
	 * render's writers wrap their own text (a fix by the shell's rules); a verb's head and tail
	 * are prose, wrapped here. Nothing is wrapped twice: a command a wrap left wider than the
	 * line (one long word, a comment) must not be broken again as prose.
	 */
	{
		struct section s = { .width = ro.width, .text = STRBUF_INIT };

		s.out = open_memstream(&s.buf, &s.len);
		if (!s.out)
			return cli_finish(EXIT_CANNOT_RUN);
		if (t->flags & REPORT_VERDICT)
			render_verdict_text(s.out, fs, &ro, t->lead);
		section_take(&s, 0);
		if (t->head)
			t->head(s.out, payload, &ro, t->arg);
		section_take(&s, 1);
		render_findings_text(s.out, fs, &ro);
		if (!(t->flags & REPORT_NO_SUMMARY)) {
			if (!(t->flags & REPORT_BLANK_IF_ANY) || fs->n)
				fputc('\n', s.out);
			render_summary_line(s.out, fs, &ro);
		}
		section_take(&s, 0);
		if (t->tail)
			t->tail(s.out, payload, &ro, t->arg);
		section_take(&s, 1);
		fclose(s.out);
		fwrite(s.text.buf, 1, s.text.len, stdout);
		strbuf_release(&s.text);
		free(s.buf);
	}
	return cli_finish(page_failed ? EXIT_CANNOT_RUN : code);
}
