/*
 * Growable, always NUL-terminated byte buffer (git's strbuf).
 *
 * `buf` is never NULL once initialised with STRBUF_INIT or strbuf_init(); it points at a static
 * empty string until the first append, so an untouched strbuf needs no release. Take ownership of
 * the memory only with strbuf_detach().
 */
#ifndef NCCLCHECK_STRBUF_H
#define NCCLCHECK_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];

/* `s`, or `fallback` when it is NULL: the one helper for printing facts that may be missing. */
const char *str_or(const char *s, const char *fallback);
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Returns the buffer (caller frees) and leaves `sb` empty and valid. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Appends `s` repeated `n` times. */
void strbuf_addchars(struct strbuf *sb, int c, size_t n);

/* Appends `item` to the comma-separated list in `sb`, unless it already is an element of it
 * (a whole element: "10.0.0.1" is not in "10.0.0.11"). */
void strbuf_add_unique(struct strbuf *sb, const char *item);

/* Removes trailing whitespace. */
void strbuf_rtrim(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);

#endif
