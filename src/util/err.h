/*
 * Error values for core code (redis anet style): a fallible function takes a trailing
 * `struct err *` and returns -1 (or NULL) with the message filled in. Core code never prints and
 * never exits; only main.c and cmd/ decide what reaches the user. Thread-safe: no global state.
 *
 * Message rules (git's): lowercase, no full stop, the error first, the subject in single quotes.
 */
#ifndef NCCLCHECK_ERR_H
#define NCCLCHECK_ERR_H

enum err_code {
	ERR_NONE = 0,
	ERR_USAGE,	/* the caller asked for something invalid (exit 2) */
	ERR_SYS,	/* an OS call failed */
	ERR_PARSE,	/* malformed input */
	ERR_TIMEOUT,
	ERR_NOTFOUND,
	ERR_PEER,	/* a remote peer misbehaved or vanished */
	ERR_INTERNAL,
};

#define ERR_MSG_LEN 256

struct err {
	enum err_code code;
	char msg[ERR_MSG_LEN];
};

#define ERR_INIT { ERR_NONE, { 0 } }

/* All return -1 so that `return err_set(e, ...)` reads naturally. `e` may be NULL. */
int err_set(struct err *e, enum err_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Like err_set(ERR_SYS, ...) with ": strerror(errno)" appended. */
int err_sys(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepends "context: " to the message already in `e`, as an error unwinds. */
int err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void err_clear(struct err *e);
/*
 * strerror(), but the common errors' text is always glibc's English, a msgid: the text of a
 * message reads in the reader's language wherever it is shown (util/i18n.h).
 */
const char *err_errno_text(int errnum);
/* gai_strerror(), the same way. */
const char *err_gai_text(int rc);

#endif
