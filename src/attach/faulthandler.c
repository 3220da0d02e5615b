/* faulthandler's traceback text into Python stacks (faulthandler.h). */
#include "attach/faulthandler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

/* A field of a line into dst: printable ASCII kept, anything else '?', cut at `cap`. */
static void copy_field(char *dst, size_t cap, const char *src, size_t n)
{
	size_t k = n < cap - 1 ? n : cap - 1;

	for (size_t i = 0; i < k; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[k] = '\0';
}

static int starts(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(p, prefix, k);
}

static int ends(const char *p, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(p + n - k, suffix, k);
}

/* The last occurrence of `needle` in p[0..n). */
static const char *last_of(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = n >= k ? n - k + 1 : 0; i-- > 0;)
		if (!memcmp(p + i, needle, k))
			return p + i;
	return NULL;
}

/* `  File "F", line N in NAME`: the file may hold '"' (faulthandler does not escape it), so
 * the last `", line ` ends it. 0 and *f filled, or -1. */
static int frame_line(const char *p, size_t n, struct py_frame *f)
{
	static const char head[] = "  File \"";
	const char *q, *in, *end = p + n;
	long line = 0;

	if (!starts(p, n, head))
		return -1;
	p += sizeof(head) - 1;
	q = last_of(p, (size_t)(end - p), "\", line ");
	if (!q)
		return -1;
	copy_field(f->file, sizeof(f->file), p, (size_t)(q - p));
	q += 8;
	in = last_of(q, (size_t)(end - q), " in ");
	if (!in)
		return -1;
	for (const char *d = q; d < in; d++) {
		if (*d < '0' || *d > '9') {
			line = 0;	/* "???": unknown */
			break;
		}
		if (line < 100000000)
			line = line * 10 + (*d - '0');
	}
	f->line = (int)line;
	copy_field(f->func, sizeof(f->func), in + 4, (size_t)(end - in - 4));
	return 0;
}

static int thread_header(const char *p, size_t n)
{
	return (starts(p, n, "Thread 0x") || starts(p, n, "Current thread 0x") ||
		starts(p, n, "Stack (most recent call first)")) &&
	       ends(p, n, "(most recent call first):");
}

static void add_frame(struct py_thread *th, size_t *alloc, const struct py_frame *f)
{
	if (th->nframes >= PY_FRAMES_MAX) {
		th->truncated = 1;
		snprintf(th->note, sizeof(th->note), "more than %d frames", PY_FRAMES_MAX);
		return;
	}
	ALLOC_GROW(th->frames, th->nframes + 1, *alloc);
	th->frames[th->nframes++] = *f;
}

int faulthandler_parse(const char *buf, size_t len, struct py_stacks *s)
{
	struct py_thread *th = NULL;
	size_t talloc = 0, falloc = 0, i = 0;

	memset(s, 0, sizeof(*s));
	if (len > FAULTHANDLER_TEXT_MAX)
		len = FAULTHANDLER_TEXT_MAX;
	while (i < len) {
		const char *p = buf + i, *nl = memchr(p, '\n', len - i);
		size_t n = nl ? (size_t)(nl - p) : len - i;
		struct py_frame f;

		i += n + (nl != NULL);
		if (n && p[n - 1] == '\r')
			n--;
		if (thread_header(p, n)) {
			th = NULL;
			if (s->nthreads >= PY_THREADS_MAX)
				continue;	/* faulthandler itself stops at 100 */
			ALLOC_GROW(s->threads, s->nthreads + 1, talloc);
			th = &s->threads[s->nthreads++];
			memset(th, 0, sizeof(*th));
			falloc = 0;
		} else if (!th) {
			continue;	/* text before the first header, or of a dropped thread */
		} else if (frame_line(p, n, &f) == 0) {
			add_frame(th, &falloc, &f);
		} else if (n == 5 && !memcmp(p, "  ...", 5)) {
			th->truncated = 1;
			snprintf(th->note, sizeof(th->note),
				 N_("faulthandler writes at most 100 frames"));
		}
	}
	if (!s->nthreads) {
		s->status = PY_UNREADABLE;
		snprintf(s->error, sizeof(s->error),
			 N_("the answer is not faulthandler's traceback (no \"Thread 0x... (most "
			    "recent call first):\" line)"));
		return -1;
	}
	return 0;
}
