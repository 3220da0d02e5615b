/* Wrapping text to a width: see wrap.h. */
#include "util/wrap.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int wrap_width(int fd)
{
	struct winsize ws;

	if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return WRAP_MAX;
	if (ws.ws_col < WRAP_MIN)
		return WRAP_MIN;
	return ws.ws_col < WRAP_MAX ? ws.ws_col : WRAP_MAX;
}

/* Bytes of the escape sequence at s (ESC [ ... final byte), 0 if none. */
static size_t esc_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && ((unsigned char)s[i] < 0x40 || (unsigned char)s[i] > 0x7e))
		i++;
	return i < n ? i + 1 : n;
}

size_t wrap_cols(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n;) {
		size_t e = esc_len(s + i, n - i);

		if (e) {
			i += e;
			continue;
		}
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
		i++;
	}
	return cols;
}

/*
 * Where continuation lines of `line` start: after the leading blanks, a label (a word and at
 * least two blanks: "ERROR  ", "fix:   ") is hung under; else four columns in.
 */
static size_t hang_of(const char *raw, size_t rn, int width)
{
	struct strbuf plain = STRBUF_INIT;
	const char *line;
	size_t n, lead, w, h;

	/* on the text as seen: colour escapes take no columns */
	for (size_t i = 0; i < rn;) {
		size_t e = esc_len(raw + i, rn - i);

		if (e)
			i += e;
		else
			strbuf_addch(&plain, raw[i++]);
	}
	line = plain.buf;
	n = plain.len;
	lead = strspn(line, " ");
	if (lead > n)
		lead = n;
	w = lead;
	while (w < n && line[w] != ' ')
		w++;
	if (w + 1 < n && line[w] == ' ' && line[w + 1] == ' ' && w > lead) {
		h = w;
		while (h < n && line[h] == ' ')
			h++;
		h = wrap_cols(line, h);
	} else {
		h = wrap_cols(line, lead) + 4;
	}
	strbuf_release(&plain);
	return h > (size_t)width / 2 ? (size_t)width / 2 : h;
}

/* The byte length of the longest prefix of s[0..n) that fits `cols` columns. */
static size_t fit_bytes(const char *s, size_t n, size_t cols)
{
	size_t i = 0, c = 0;

	while (i < n) {
		size_t e = esc_len(s + i, n - i), k;

		if (e) {
			i += e;
			continue;
		}
		if (c == cols)
			break;
		k = 1;
		while (i + k < n && ((unsigned char)s[i + k] & 0xc0) == 0x80)
			k++;
		i += k;
		c++;
	}
	return i;
}

static void wrap_line(struct strbuf *out, const char *s, size_t n, int width, int hang,
		      enum wrap_mode mode)
{
	size_t h, room;
	int first = 1;

	if (width < WRAP_MIN)
		width = WRAP_MIN;
	if (wrap_cols(s, n) <= (size_t)width) {
		strbuf_add(out, s, n);
		return;
	}
	h = hang < 0 ? hang_of(s, n, width) : (size_t)hang;
	while (n) {
		size_t take, cut, skip;

		room = (size_t)width - (first ? 0 : h) - (mode == WRAP_SHELL ? 2 : 0);
		if (!first)
			strbuf_addchars(out, ' ', h);
		/* the last piece needs no " \" */
		if (wrap_cols(s, n) <= room + (mode == WRAP_SHELL ? 2 : 0)) {
			strbuf_add(out, s, n);
			return;
		}
		take = fit_bytes(s, n, room);
		/* the last blank at or before the cut, past the line's own indentation */
		cut = take;
		if (cut < n && s[cut] != ' ') {
			size_t lead = first ? strspn(s, " ") : 0;

			while (cut > lead && s[cut - 1] != ' ')
				cut--;
			if (cut <= lead)
				cut = take;	/* one word wider than the line: cut it */
		}
		skip = cut;
		while (cut > 0 && s[cut - 1] == ' ' && cut > (first ? strspn(s, " ") : 0) + 1)
			cut--;
		strbuf_add(out, s, cut);
		if (mode == WRAP_SHELL)
			strbuf_addstr(out, " \\");
		strbuf_addch(out, '\n');
		while (skip < n && s[skip] == ' ')
			skip++;
		s += skip;
		n -= skip;
		first = 0;
	}
}

void wrap_text(struct strbuf *out, const char *text, int width, int hang, enum wrap_mode mode)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		wrap_line(out, p, n, width, hang, mode);
		if (!nl)
			break;
		strbuf_addch(out, '\n');
		p = nl + 1;
	}
}
