/*
 * Text for a terminal: every text writer's lines fit WRAP_MAX columns (100), or the terminal's
 * width when it is narrower. One helper wraps them all: a long line breaks at word boundaries and
 * its continuation lines hang under the line's label ("fix:   ", "ERROR  ") or four columns in.
 */
#ifndef NCCLCHECK_WRAP_H
#define NCCLCHECK_WRAP_H

#include <stddef.h>

#include "util/strbuf.h"

#define WRAP_MAX 100
#define WRAP_MIN 40

/* The width to write `fd` for: the terminal's (TIOCGWINSZ) capped at WRAP_MAX; WRAP_MAX when it
 * is not a terminal or says nothing. */
int wrap_width(int fd);

/*
 * Display columns of s[0..n), as a terminal shows them: a CJK character (East Asian Wide or
 * Fullwidth: Han, kana, Hangul, the fullwidth punctuation of Chinese text) takes two, a
 * combining mark none, any other code point one; ANSI escape sequences take none.
 */
size_t wrap_cols(const char *s, size_t n);
/* The columns of one code point (0, 1 or 2): wcwidth() for the ranges our text has. */
int wrap_cp_cols(unsigned cp);

enum wrap_mode {
	WRAP_PROSE = 0,		/* continuation lines are plain text */
	WRAP_SHELL,		/* a command: each broken line ends in " \", so it still runs; it
				 * breaks only between words outside quotes (a word or quote wider
				 * than the line overflows it), and a comment goes on as a "# "
				 * line of its own */
};

/*
 * Appends `text` (any number of lines) to `out` with every line wider than `width` broken at
 * word boundaries (in prose a word wider than the line is cut; WRAP_SHELL never cuts one).
 * Chinese has no blanks between words: a line may also break before or after a CJK character,
 * but never before closing punctuation (，。）) nor after opening punctuation (（《).
 * `hang` < 0: continuation lines hang under the line's label, else `hang` columns in.
 */
void wrap_text(struct strbuf *out, const char *text, int width, int hang, enum wrap_mode mode);

#endif
