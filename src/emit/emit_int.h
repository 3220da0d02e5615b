/* Helpers the writers share (emit/common.c); not part of emit's interface. */
#ifndef NCCLCHECK_EMIT_INTERNAL_H
#define NCCLCHECK_EMIT_INTERNAL_H

#include "emit/emit.h"
#include "util/i18n.h"

/* "<prefix>text\n" with control characters turned into spaces (text from findings is one line). */
void em_comment(struct strbuf *sb, const char *prefix, const char *text);
/*
 * em_comment() in the reader's language: `text` is the English a msgid produced (a finding's
 * title, a note of recommend.c), put into the language the way the text renderers do
 * (i18n_text), so recommendation.json keeps the English while the files a person reads follow
 * --lang.
 */
void em_comment_tr(struct strbuf *sb, const char *prefix, const char *text);
/* The header every shell-like output starts with: what it is, the job's shape, the source. */
void em_header(struct strbuf *sb, const struct recommendation *rec, const char *comment,
	       const char *what);
/*
 * The job's environment as shell lines, each after a comment that says why: every-node
 * settings, then the node-scoped ones in a `case` on the host name, then nccl.conf, sysctl and
 * launcher settings as comments. `indent` prefixes every line.
 */
void em_exports(struct strbuf *sb, const struct recommendation *rec, const char *indent);
/*
 * A setting whose value is a placeholder (rec_placeholder) as a commented instruction:
 * "<indent># <form with the name>   # to fill in: <the placeholder>", e.g. form "export %s=...".
 */
void em_placeholder(struct strbuf *sb, const char *indent, const char *form, const struct rec_var *v);
/* "to fill in: <the placeholder>", the placeholder (a rule's "<...>") in the reader's language. */
void em_fill_in(struct strbuf *sb, const char *placeholder);
/* Whether v is an env setting for host `node` only. */
int em_is_node_var(const struct rec_var *v, const char *node);
/* Whether rec->v[i] is the first node-scoped env setting of its node (one `case` arm per node). */
int em_first_of_node(const struct recommendation *rec, size_t i);
/* Number of env settings for every node. */
size_t em_env_count(const struct recommendation *rec);
/* "# Not written, on purpose:" and the notes, with `comment` ("# " or "// "). */
void em_notes(struct strbuf *sb, const struct recommendation *rec, const char *comment);
/* The c10d endpoint host: IPv6 addresses in brackets. */
void em_endpoint(struct strbuf *sb, const char *addr, int port);

#endif
