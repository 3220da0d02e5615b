/* Helpers every verb shares: messages, option errors, number parsing, exit. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ncclcheck.h"
#include "net/auth.h"
#include "util/file.h"
#include "util/i18n.h"
#include "util/envmap.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/* --json on the command line: the first error is kept for cli_json_error_flush(). */
static struct {
	int on, doc_printed;
	char msg[1024];
} json_err;

void cli_json_errors(int on)
{
	json_err.on = on;
}

static void keep_error(const char *fmt, va_list ap)
{
	if (json_err.on && !json_err.msg[0])
		vsnprintf(json_err.msg, sizeof(json_err.msg), fmt, ap);
}

void cli_print_doc_splice(json_t *doc, const struct jsplice *sp)
{
	json_err.doc_printed = 1;
	render_json_print_splice(stdout, doc, sp);
}

void cli_print_doc(json_t *doc)
{
	cli_print_doc_splice(doc, NULL);
}

int cli_json_error_flush(int code)
{
	json_t *doc;

	if (!json_err.on || json_err.doc_printed || code == EXIT_CLEAN)
		return code;
	doc = json_pack("{s:s, s:i}", "error", json_err.msg[0] ? json_err.msg : "failed",
			"exit_code", code);
	render_json_print(stdout, doc);
	json_decref(doc);
	return cli_finish(code);
}

/*
 * "ncclcheck: error: <message>" (the prefix) on stderr. The message is formatted in English (what --json's
 * "error" keeps) and printed in the reader's language, as findings are (util/i18n.h): so a
 * message a core module wrote into a struct err and passed on as "%s" is translated as well.
 */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT, l10n = STRBUF_INIT;

	fflush(stdout);
	strbuf_vaddf(&msg, fmt, ap);
	i18n_text(&l10n, msg.buf);
	fprintf(stderr, "%s%s", prefix, l10n.buf);
	strbuf_release(&msg);
	strbuf_release(&l10n);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(_("ncclcheck: error: "), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	keep_error(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(_("ncclcheck: warning: "), fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(_("ncclcheck: error: "), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	keep_error(fmt, ap);
	va_end(ap);
	fprintf(stderr, _("\nusage: see 'ncclcheck %s --help'\n"), verb);
	return EXIT_USAGE;
}

int cli_bad_option(const char *verb, int c, char **argv, const struct option *longopts)
{
	const char *arg = argv[optind - 1];
	size_t n = 0, i;
	const char **names;
	const char *best;
	char want[128];

	if (c == ':')
		return cli_usage_error(verb, "option '%s' needs a value", arg);
	if (optopt && (!arg || arg[0] != '-' || arg[1] != '-'))
		return cli_usage_error(verb, "unknown option '-%c'", optopt);

	/* "--flag=value": suggest on the flag alone */
	snprintf(want, sizeof(want), "%s", arg ? arg + 2 : "");
	want[strcspn(want, "=")] = '\0';
	while (longopts[n].name)
		n++;
	names = xcalloc(n + 1, sizeof(*names));
	for (i = 0; i < n; i++)
		names[i] = longopts[i].name;
	best = suggest_closest(want, names, n);
	if (best) {
		free(names);
		return cli_usage_error(verb, "unknown option '--%s' for '%s'; did you mean '--%s'?",
				       want, verb, best);
	}
	free(names);
	return cli_usage_error(verb, "unknown option '--%s' for '%s'", want, verb);
}

int cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_duration_ms(const char *s, long *ms)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		v *= 1000;
	else if (!strcmp(end, "m"))
		v *= 60000;
	else if (strcmp(end, "ms"))
		return -1;
	if (v > 24.0 * 3600 * 1000)
		return -1;
	*ms = (long)v;
	return 0;
}

void cli_render_opts(struct render_opts *ro, int verbose, int no_color)
{
	ro->verbose = verbose;
	ro->color = !no_color && render_want_color(stdout);
}

extern char **environ;

struct envmap *cli_environ(void)
{
	return envmap_new(environ);
}

int cli_finish(int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("ncclcheck: error: cannot write to standard output: %s\n"),
			err_errno_text(errno));
		return EXIT_CANNOT_RUN;
	}
	return code;
}

int cli_cluster_token(const char *token_file, const struct envmap *env, struct strbuf *tok)
{
	const char *envtok = envmap_get(env, "NCCLCHECK_TOKEN"), *t;
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	size_t n;
	int rc = 0;

	if (token_file) {
		if (file_read(token_file, &sb, AUTH_TOKEN_MAX + 64, &e) < 0) {
			error("cannot read the token file '%s': %s", token_file, e.msg);
			rc = -1;
		} else if (auth_token_parse(sb.buf, sb.len, &t, &n, &e) < 0) {
			error("token file '%s': %s", token_file, e.msg);
			rc = -1;
		} else {
			strbuf_add(tok, t, n);
		}
	} else if (envtok && *envtok) {
		if (auth_token_parse(envtok, strlen(envtok), &t, &n, &e) < 0) {
			error("NCCLCHECK_TOKEN: %s", e.msg);
			rc = -1;
		} else {
			strbuf_add(tok, t, n);
		}
	}
	strbuf_release(&sb);
	return rc;
}
