/* Renderers: findings (and the facts behind them) as human text or as JSON. */
#ifndef NCCLCHECK_RENDER_H
#define NCCLCHECK_RENDER_H

#include <stdio.h>

#include <jansson.h>

#include "finding.h"
#include "util/strbuf.h"

/* JSON output's schema version: bump when a key changes meaning or disappears. */
#define REPORT_SCHEMA_VERSION 1

struct render_opts {
	int color;		/* ANSI colours: only on a TTY and never with NO_COLOR */
	int verbose;		/* show evidence and "ok" findings in full */
	int roots;		/* the first screen: no passes, no folded findings (-v shows both) */
	int width;		/* the columns text is wrapped to (util/wrap.h); 0: WRAP_MAX */
};

/*
 * A finding's English text (title, why, a fix line that is a comment, evidence) in the reader's
 * language (util/i18n.h): `text` itself in English or when no translation produced it, else
 * sb's buffer, valid until sb changes.
 */
const char *render_l10n(struct strbuf *sb, const char *text);
/*
 * A fix line in the reader's language: a command stays as written, a comment (the whole line,
 * or after the command's "  # ") is translated. Returns `line` or sb's buffer, as render_l10n.
 */
const char *render_fix_l10n(struct strbuf *sb, const char *line);

/* Colour is on when `stream` is a terminal, NO_COLOR is unset or empty and TERM is not "dumb". */
int render_want_color(FILE *stream);

/* ANSI escapes, or "" when colour is off. */
const char *render_sgr(const struct render_opts *o, enum severity sev);
const char *render_bold(const struct render_opts *o);
const char *render_reset(const struct render_opts *o);

/*
 * The text writers below wrap their own lines to o->width (titles and reasons as prose, commands
 * by the shell's rules), so a caller prints their text as it is.
 *
 * Human text: errors first, the fix right under the title, then why and the evidence; "ok"
 * findings as one line each; a closing count line.
 */
void render_findings_text(FILE *out, const struct findings *fs, const struct render_opts *o);
/*
 * The first screen's top: "verdict: ..." in one or two lines (the first root error, how many
 * more; or that nothing stops the job), `lead` before it when not NULL ("not starting 'x'"), then
 * one copy-paste block of the exact commands each node needs (from the settings of the root
 * errors, or of the warnings when there is no error), under "# on NODE" lines.
 */
void render_verdict_text(FILE *out, const struct findings *fs, const struct render_opts *o,
			 const char *lead);
/*
 * The verdict's words alone (no "verdict:", not wrapped) and the fix block's commands by node
 * ("  # on NODE" then "  CMD" lines) of the root findings of severity `sev`, returning how many
 * commands: the two halves of render_verdict_text(), for a writer that lays them out itself
 * (report/html.c).
 */
void render_verdict_line(struct strbuf *sb, const struct findings *fs,
			 const struct render_opts *o, const char *lead);
size_t render_fix_block(const struct findings *fs, enum severity sev, struct strbuf *sb);
/* One setting as the command that applies it ("export X=1", "sysctl -w k='a b'", the value one
 * shell word as emit_sh_word quotes it); 0 when it is not a command (a launcher option), would
 * not be one line (a control byte in the value) or does not fit `len`. */
int render_setting_command(const struct setting *st, char *buf, size_t len);
/* "ID on NODE over IFNAME": the cause a finding is folded under, as its "cause:" line reads. */
void render_cause(struct strbuf *sb, const struct finding_cause *cause);
/* "2 errors, 1 warning, 3 notes, 12 checks passed" */
void render_summary_line(FILE *out, const struct findings *fs, const struct render_opts *o);

/*
 * The JSON document every verb prints with --json:
 *   { schema_version, tool: {name, version}, verb, <payload members>, findings: [...],
 *     summary: {error, warn, info, ok}, exit_code }
 * `payload` is an object whose members are copied in (e.g. "facts"); may be NULL. Returns a new
 * reference.
 */
json_t *render_json_doc(const char *verb, json_t *payload, const struct findings *fs, int exit_code);
/* Dumps `doc` indented, with a newline; returns -1 on a write error. */
int render_json_print(FILE *out, const json_t *doc);
/* As render_json_print, with sp's elements in place of its placeholder (util/json.h). */
struct jsplice;
int render_json_print_splice(FILE *out, const json_t *doc, const struct jsplice *sp);

#endif
