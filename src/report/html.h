/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched)
 * rendered from a verb's JSON document, the same document --json prints. It computes nothing the
 * document does not hold: the verdict and the fix block are render.c's, from the document's
 * findings; every figure is the document's number, printed as the JSON prints it (%.6g).
 */
#ifndef NCCLCHECK_HTML_H
#define NCCLCHECK_HTML_H

#include <stddef.h>

#include <jansson.h>

#include "util/strbuf.h"

/* What a page may show besides its document. */
struct html_opts {
	/* bench: a second sweep drawn over the first (ncclcheck's bench document or nccl-tests'
	 * JSON, both with "results"), or NULL; compare_label names it in the legend */
	const json_t *compare;
	const char *compare_label;
};

/*
 * The page of `doc` (any verb's --json document) appended to `sb`; `o` may be NULL. -1 with the
 * reason in `err` when the document is not one (no "verb", findings that do not decode), and
 * nothing appended.
 */
int html_page(struct strbuf *sb, const json_t *doc, const struct html_opts *o, char *err,
	      size_t errlen);
/* html_page() written to `path` (replaced whole, or left alone on an error); -1 with `err`. */
int html_write_file(const char *path, const json_t *doc, const struct html_opts *o, char *err,
		    size_t errlen);

/*
 * `s` as HTML text or an attribute value: & < > " ' as entities, a control byte other than
 * newline and tab as U+FFFD (a log's escape sequences show as a mark, never as markup).
 */
void html_esc(struct strbuf *sb, const char *s);

/*
 * The SVG charts' scales: `v` of the domain [d0, d1] onto the range [r0, r1] (pixels), linear or
 * base-10 logarithmic; a value outside the domain is clamped to it, a log scale's domain and
 * value must be > 0 (a value <= 0 lands on r0), an empty domain maps to r0.
 */
double html_scale_lin(double v, double d0, double d1, double r0, double r1);
double html_scale_log(double v, double d0, double d1, double r0, double r1);
/* A round tick step (1, 2 or 5 times a power of ten) that cuts [0, top] into at most n steps. */
double html_nice_step(double top, int n);
/* 10 to the power of floor(log10(x)): the decade x lies in (1 for x <= 0) */
double html_decade(double x);

#endif
