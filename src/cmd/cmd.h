/*
 * Verbs (git's builtin/): one cmd_<verb>() per file, argument parsing and orchestration only.
 * Everything a verb decides lives in rules/, probe/, net/…; only cmd/ and main.c print errors and
 * pick exit codes.
 */
#ifndef NCCLCHECK_CMD_H
#define NCCLCHECK_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "report/render.h"

int cmd_node(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_config(int argc, char **argv);	/* cmd/config.c */
int cmd_run(int argc, char **argv);	/* cmd/run.c */

/* "ncclcheck: error: ..." on stderr (git's message rules); returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Reports a getopt_long failure for `verb` with a "did you mean" when one is close, and returns
 * EXIT_USAGE. Call it on '?' or ':' with an optstring starting with ':'.
 */
int cli_bad_option(const char *verb, int c, char **argv, const struct option *longopts);
/* Prints "error: MSG" and the hint to run `ncclcheck VERB --help`; returns EXIT_USAGE. */
int cli_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses "30", "1.5", "500ms", "2m" as milliseconds; -1 on garbage. */
int cli_parse_duration_ms(const char *s, long *ms);
/* A decimal integer in [min, max]; -1 otherwise. */
int cli_parse_long(const char *s, long min, long max, long *out);

/* Default render options for stdout (colour decided from the terminal and NO_COLOR). */
void cli_render_opts(struct render_opts *ro, int verbose, int no_color);

/* Flushes stdout and turns a write error (full disk, closed pipe) into EXIT_CANNOT_RUN. */
int cli_finish(int code);

#endif
