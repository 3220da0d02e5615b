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

/* The code point of the UTF-8 sequence at s (n > 0 bytes left) and its length in *len; a byte
 * that starts no valid sequence is read alone, as itself. */
static unsigned utf8_at(const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc0 ? 2 : 1;
	unsigned cp = k == 4 ? u[0] & 0x07 : k == 3 ? u[0] & 0x0f : k == 2 ? u[0] & 0x1f : u[0];

	if (k > n)
		k = 1;
	for (size_t i = 1; i < k; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*len = 1;
			return u[0];
		}
		cp = cp << 6 | (u[i] & 0x3f);
	}
	*len = k;
	return cp;
}

int wrap_cp_cols(unsigned cp)
{
	/* Unicode's EastAsianWidth W and F ranges that text can hold (UAX #11), as glibc's wcwidth */
	static const struct { unsigned lo, hi; } wide[] = {
		{ 0x1100, 0x115f },	/* Hangul Jamo initials */
		{ 0x2e80, 0x303e },	/* CJK radicals, Kangxi, CJK symbols and punctuation (、。「」) */
		{ 0x3041, 0x33ff },	/* kana, bopomofo, CJK compatibility */
		{ 0x3400, 0x4dbf },	/* CJK extension A */
		{ 0x4e00, 0x9fff },	/* CJK unified ideographs: Chinese text */
		{ 0xa000, 0xa4cf },	/* Yi */
		{ 0xac00, 0xd7a3 },	/* Hangul syllables */
		{ 0xf900, 0xfaff },	/* CJK compatibility ideographs */
		{ 0xfe10, 0xfe19 },	/* vertical forms */
		{ 0xfe30, 0xfe6f },	/* CJK compatibility and small forms */
		{ 0xff00, 0xff60 },	/* fullwidth forms: （），：；！？ */
		{ 0xffe0, 0xffe6 },	/* fullwidth signs */
		{ 0x1f300, 0x1f64f },	/* pictographs, emoticons */
		{ 0x1f900, 0x1f9ff },	/* supplemental symbols */
		{ 0x20000, 0x3fffd },	/* CJK extensions B and later */
	};

	if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) || cp == 0xfe0f)
		return 0;	/* combining marks, zero-width spaces and joiners, variation selector */
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (cp >= wide[i].lo && cp <= wide[i].hi)
			return 2;
	return 1;
}

size_t wrap_cols(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n;) {
		size_t e = esc_len(s + i, n - i), len;

		if (e) {
			i += e;
			continue;
		}
		cols += (size_t)wrap_cp_cols(utf8_at(s + i, n - i, &len));
		i += len;
	}
	return cols;
}

/*
 * Whether a line of s[0..n) may break at byte pos with no blank there: between two characters of
 * which one is CJK, unless what follows closes (，。）》) or what precedes opens (（《「) — the
 * rule Chinese typesetting keeps (a line starting with a comma reads as a mistake).
 */
static int cjk_break(const char *s, size_t n, size_t pos)
{
	static const char *const no_start[] = { "，", "。", "、", "；", "：", "！", "？", "）",
						 "》", "」", "』", "…", "”", "’" };
	static const char *const no_end[] = { "（", "《", "「", "『", "“", "‘" };
	size_t p = pos, len;
	unsigned before, after;

	if (pos == 0 || pos >= n || ((unsigned char)s[pos] & 0xc0) == 0x80)
		return 0;
	while (p > 0 && ((unsigned char)s[p - 1] & 0xc0) == 0x80)
		p--;
	if (p == 0)
		return 0;
	before = utf8_at(s + p - 1, n - p + 1, &len);
	if (len != pos - p + 1)
		return 0;
	after = utf8_at(s + pos, n - pos, &len);
	if (wrap_cp_cols(before) != 2 && wrap_cp_cols(after) != 2)
		return 0;
	for (size_t i = 0; i < sizeof(no_start) / sizeof(no_start[0]); i++)
		if (!strncmp(s + pos, no_start[i], strlen(no_start[i])))
			return 0;
	for (size_t i = 0; i < sizeof(no_end) / sizeof(no_end[0]); i++)
		if (pos >= strlen(no_end[i]) &&
		    !strncmp(s + pos - strlen(no_end[i]), no_end[i], strlen(no_end[i])))
			return 0;
	return 1;
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
		int w;

		if (e) {
			i += e;
			continue;
		}
		w = wrap_cp_cols(utf8_at(s + i, n - i, &k));
		if (c + (size_t)w > cols)
			break;
		i += k;
		c += (size_t)w;
	}
	return i;
}

/* Where the shell is in a command line: inside a quote (' or "), in a comment to the line's end. */
struct shell_state {
	char quote;
	int comment;
};

/*
 * The shell's reading of the byte at s[i]: a quote opens or closes, an unquoted '#' that starts a
 * word starts a comment. Returns the bytes read (2 for a backslash and what it escapes).
 */
static size_t shell_step(struct shell_state *st, const char *s, size_t i, size_t n)
{
	char c = s[i];

	if (st->comment)
		return 1;
	if (st->quote == '\'') {
		st->quote = c == '\'' ? 0 : st->quote;
		return 1;
	}
	if (c == '\\')
		return i + 1 < n ? 2 : 1;
	if (st->quote == '"')
		st->quote = c == '"' ? 0 : st->quote;
	else if (c == '\'' || c == '"')
		st->quote = c;
	else if (c == '#' && (i == 0 || strchr(" \t;&|()<>", s[i - 1])))
		st->comment = 1;
	return 1;
}

/*
 * A command broken only where the shell reads a blank between words: never inside quotes, never
 * inside a word (a word wider than the line overflows it). Every broken line of the command ends
 * in " \", so the pasted lines are the one command. A comment is not continued that way (a
 * backslash does not continue a comment: its rest would run as a command): it goes on as a
 * comment line of its own, "# " and its next words. `st` carries an open quote into the next
 * line of the text.
 */
static void wrap_shell_line(struct strbuf *out, const char *s, size_t n, int width, size_t h,
			    struct shell_state *st)
{
	int first = 1, cont = 0;

	st->comment = 0;
	while (n) {
		size_t room = (size_t)width - (first ? 0 : h) - (cont ? 2 : 0);
		size_t lead = first ? strspn(s, " ") : 0, best = 0, i = 0, skip;
		struct shell_state at = { .quote = st->quote, .comment = cont };
		int best_comment = 0;

		if (!first)
			strbuf_addchars(out, ' ', h);
		if (cont)
			strbuf_addstr(out, "# ");
		if (wrap_cols(s, n) <= room)
			break;
		/* the last legal break that fits, else the first one (the line overflows) */
		while (i < n) {
			/* a blank after a word, past the label ("fix:   ") it would gain nothing; in
			 * a comment also between Chinese characters */
			int cjk = at.comment && s[i] != ' ' && cjk_break(s, n, i);
			size_t cols = s[i] == ' ' || cjk ? wrap_cols(s, i) : 0;

			if (cols > (first ? h : 0) && !at.quote && i > lead && (cjk || s[i - 1] != ' ') &&
			    !(at.comment && s[i - 1] == '#')) {
				/* a command's line needs room for its " \" */
				if (cols + (at.comment ? 0 : 2) > room) {
					if (!best) {
						best = i;
						best_comment = at.comment;
					}
					break;
				}
				best = i;
				best_comment = at.comment;
			}
			i += shell_step(&at, s, i, n);
		}
		if (!best)
			break;
		strbuf_add(out, s, best);
		strbuf_addstr(out, best_comment ? "\n" : " \\\n");
		skip = best;
		while (skip < n && s[skip] == ' ')
			skip++;
		s += skip;
		n -= skip;
		first = 0;
		cont = best_comment;
	}
	strbuf_add(out, s, n);
	st->comment = cont;
	for (size_t i = 0; i < n;)
		i += shell_step(st, s, i, n);
}

static void wrap_line(struct strbuf *out, const char *s, size_t n, int width, int hang,
		      enum wrap_mode mode, struct shell_state *st)
{
	size_t h, room;
	int first = 1;

	if (width < WRAP_MIN)
		width = WRAP_MIN;
	if (mode == WRAP_SHELL && (st->quote || wrap_cols(s, n) <= (size_t)width)) {
		/* inside a quote opened on an earlier line no break is legal */
		strbuf_add(out, s, n);
		st->comment = 0;
		for (size_t i = 0; i < n;)
			i += shell_step(st, s, i, n);
		return;
	}
	if (wrap_cols(s, n) <= (size_t)width) {
		strbuf_add(out, s, n);
		return;
	}
	h = hang < 0 ? hang_of(s, n, width) : (size_t)hang;
	if (mode == WRAP_SHELL) {
		wrap_shell_line(out, s, n, width, h, st);
		return;
	}
	while (n) {
		size_t take, cut, skip;

		room = (size_t)width - (first ? 0 : h);
		if (!first)
			strbuf_addchars(out, ' ', h);
		if (wrap_cols(s, n) <= room) {
			strbuf_add(out, s, n);
			return;
		}
		take = fit_bytes(s, n, room);
		/* the last blank at or before the cut, past the line's own indentation */
		cut = take;
		if (cut < n && s[cut] != ' ') {
			size_t lead = first ? strspn(s, " ") : 0;

			while (cut > lead && s[cut - 1] != ' ' && !cjk_break(s, n, cut))
				cut--;
			if (cut <= lead)
				cut = take;	/* one word wider than the line: cut it */
		}
		skip = cut;
		while (cut > 0 && s[cut - 1] == ' ' && cut > (first ? strspn(s, " ") : 0) + 1)
			cut--;
		strbuf_add(out, s, cut);
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
	struct shell_state st = { 0 };

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		wrap_line(out, p, n, width, hang, mode, &st);
		if (!nl)
			break;
		strbuf_addch(out, '\n');
		p = nl + 1;
	}
}
