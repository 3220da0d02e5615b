/* What the HTML report's sections share (report/html*.c); not for callers outside report/. */
#ifndef NCCLCHECK_HTML_INT_H
#define NCCLCHECK_HTML_INT_H

#include <jansson.h>

#include "report/html.h"
#include "util/strbuf.h"

/*
 * A number of the document as the JSON prints it (an integer as it is, a real as %.6g) into
 * `buf`; "–" for null or a non-number. Returns buf.
 */
const char *html_numstr(char *buf, size_t len, const json_t *v);
/*
 * The number `v` as <span class="n" data-j="POINTER">: the JSON pointer (RFC 6901) of the value
 * in the document, so a test finds every figure shown and compares it with the document's.
 */
void html_num(struct strbuf *sb, const json_t *v, const char *ptr_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * One sentence of the page from a translated format (_("...")): each %s (or %N$s, where the
 * translation orders the parts otherwise) is the next fragment, HTML already made (a figure's
 * html_num span, escaped text), and the format's own text is escaped. So a sentence with figures
 * in it is one msgid that a translator sees whole, never English pasted around numbers. At most
 * HTML_SENTENCE_MAX fragments, all const char *.
 */
#define HTML_SENTENCE_MAX 9
void html_sentence(struct strbuf *sb, const char *fmt, ...);
/* <h2 id=ID>TITLE</h2> opening a <section>; html_section_end() closes it. */
void html_section(struct strbuf *sb, const char *id, const char *title);
void html_section_end(struct strbuf *sb);
/* `text` (English, a finding's or a msgid) in the reader's language, escaped (i18n_text). */
void html_tx(struct strbuf *sb, const char *text);
/* A table's header row: <tr><th>LABEL</th>...</tr>, each label a msgid (N_()), NULL-terminated. */
void html_th_row(struct strbuf *sb, ...) __attribute__((sentinel));
/* <h3>TITLE</h3><p class="mut">NOTE</p>, both msgids put into the reader's language; note may be NULL. */
void html_h3(struct strbuf *sb, const char *title, const char *note);
/* The facts of n nodes side by side, a row per fact, a value that differs from column 0's marked. */
void html_inventory(struct strbuf *sb, const json_t *const *facts, const char *const *names,
		    size_t n);

/* The sections of one verb, after the verdict and before the findings. */
void html_cluster(struct strbuf *sb, const json_t *doc);
void html_bench(struct strbuf *sb, const json_t *doc, const struct html_opts *o);
void html_explain(struct strbuf *sb, const json_t *doc);
void html_attach(struct strbuf *sb, const json_t *doc);

#endif
