/* Streaming line reader: see lreader.h. */
#include "explain/lreader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

#define LR_CHUNK (1u << 20)

struct lreader {
	int fd;			/* -1 in memory mode */
	char *buf;		/* owned in fd mode */
	const char *mem;	/* the data: buf or the caller's memory */
	size_t size, start, end;
	size_t max_line;
	int eof;
	char *head;		/* the kept head of an over-long line */
	uint64_t lineno, bytes;
};

static struct lreader *lr_alloc(size_t max_line)
{
	struct lreader *r = xcalloc(1, sizeof(*r));

	r->max_line = max_line ? max_line : 1;
	r->fd = -1;
	return r;
}

struct lreader *lreader_fd(int fd, size_t max_line)
{
	struct lreader *r = lr_alloc(max_line);

	r->fd = fd;
	r->size = LR_CHUNK > 2 * r->max_line ? LR_CHUNK : 2 * r->max_line;
	r->buf = xmalloc(r->size);
	r->mem = r->buf;
	r->head = xmalloc(r->max_line);
	return r;
}

struct lreader *lreader_mem(const void *buf, size_t len, size_t max_line)
{
	struct lreader *r = lr_alloc(max_line);

	r->mem = buf ? buf : "";
	r->size = r->end = buf ? len : 0;
	r->eof = 1;
	return r;
}

void lreader_free(struct lreader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->head);
	free(r);
}

uint64_t lreader_bytes(const struct lreader *r)
{
	return r->bytes;
}

/* Reads more into the free tail of the buffer; 0 ok (maybe eof), -1 error. */
static int fill(struct lreader *r, struct err *e)
{
	ssize_t n;

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	do
		n = read(r->fd, r->buf + r->end, r->size - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return err_sys(e, "cannot read log");
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return 0;
}

static void emit(struct lreader *r, struct lr_line *out, const char *s, size_t len,
		 uint64_t dropped)
{
	if (len && s[len - 1] == '\r' && !dropped)
		len--;
	out->s = s;
	out->len = len;
	out->dropped = dropped;
	out->lineno = ++r->lineno;
}

/* An over-long line in fd mode: keep its head, discard input up to the newline. */
static int long_line(struct lreader *r, struct lr_line *out, struct err *e)
{
	uint64_t dropped = r->end - r->start - r->max_line;
	const char *nl;

	memcpy(r->head, r->mem + r->start, r->max_line);
	r->bytes += r->end - r->start;
	r->start = r->end;
	for (;;) {
		if (fill(r, e) < 0)
			return -1;
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			size_t k = (size_t)(nl - (r->buf + r->start));
			dropped += k;
			r->bytes += k + 1;
			r->start += k + 1;
			break;
		}
		dropped += r->end - r->start;
		r->bytes += r->end - r->start;
		r->start = r->end;
		if (r->eof)
			break;
	}
	emit(r, out, r->head, r->max_line, dropped);
	return 1;
}

int lreader_next(struct lreader *r, struct lr_line *out, struct err *e)
{
	for (;;) {
		const char *p = r->mem + r->start;
		size_t avail = r->end - r->start;
		const char *nl = avail ? memchr(p, '\n', avail) : NULL;

		if (nl) {
			size_t len = (size_t)(nl - p);
			r->start += len + 1;
			r->bytes += len + 1;
			if (len > r->max_line)
				emit(r, out, p, r->max_line, len - r->max_line);
			else
				emit(r, out, p, len, 0);
			return 1;
		}
		if (r->eof) {
			if (!avail)
				return 0;
			r->start = r->end;
			r->bytes += avail;
			if (avail > r->max_line)
				emit(r, out, p, r->max_line, avail - r->max_line);
			else
				emit(r, out, p, avail, 0);
			return 1;
		}
		if (avail >= r->max_line)
			return long_line(r, out, e);
		if (fill(r, e) < 0)
			return -1;
	}
}
