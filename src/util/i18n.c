/* Languages: see i18n.h. */
#include "util/i18n.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n_table.h"
#include "util/xalloc.h"

/* set once by main() before any thread starts, then only read */
static enum i18n_lang current = I18N_EN;

void i18n_set_lang(enum i18n_lang lang)
{
	current = lang;
}

enum i18n_lang i18n_lang(void)
{
	return current;
}

const char *i18n_lang_code(enum i18n_lang lang)
{
	return lang == I18N_ZH ? "zh_CN" : "en";
}

int i18n_parse_lang(const char *s, enum i18n_lang *out)
{
	if (!s)
		return -1;
	/* "zh", "zh_CN", "zh_CN.UTF-8", "zh-Hans": Simplified Chinese is the one Chinese we have */
	if (!strncmp(s, "zh", 2) && (!s[2] || strchr("_-.@", s[2]))) {
		*out = I18N_ZH;
		return 0;
	}
	if (!strcmp(s, "C") || !strcmp(s, "POSIX") ||
	    (!strncmp(s, "en", 2) && (!s[2] || strchr("_-.@", s[2])))) {
		*out = I18N_EN;
		return 0;
	}
	return -1;
}

enum i18n_lang i18n_lang_from_env(const char *lc_all, const char *lc_messages, const char *lang)
{
	const char *v = lc_all && *lc_all ? lc_all :
			lc_messages && *lc_messages ? lc_messages : lang;

	/* any other language (de_DE, ja_JP) reads English: it is what we have for it */
	return v && !strncmp(v, "zh", 2) ? I18N_ZH : I18N_EN;
}

static int by_id(const void *key, const void *elem)
{
	return strcmp(key, ((const struct i18n_entry *)elem)->id);
}

static const struct i18n_entry *find(enum i18n_lang lang, const char *msgid)
{
	if (lang != I18N_ZH || !msgid)
		return NULL;
	return bsearch(msgid, i18n_zh_CN, i18n_zh_CN_count, sizeof(*i18n_zh_CN), by_id);
}

const char *i18n_lookup(enum i18n_lang lang, const char *msgid)
{
	const struct i18n_entry *e = find(lang, msgid);

	return e ? e->str : NULL;
}

const char *i18n_tr(const char *msgid)
{
	const struct i18n_entry *e = find(current, msgid);

	return e ? e->str : msgid;
}

const char *i18n_trn(const char *one, const char *other, unsigned long n)
{
	const struct i18n_entry *e = find(current, one);

	if (e)
		return e->str;	/* zh_CN: nplurals=1 */
	return n == 1 ? one : other;
}

/* ---- formatted text back to its format ---- */

#define CAPS_MAX 16
/* how deep a value inside a value is put into the language: an error's causes nest */
#define I18N_DEPTH 4

struct cap {
	const char *p;
	size_t n;
};

/*
 * The conversion at f ('%' there, not "%%"): its length, and its type character. Positional
 * "N$", flags, width, precision and length modifiers are skipped, as printf reads them.
 */
static size_t spec(const char *f, char *type)
{
	size_t i = 1;

	while (f[i] >= '0' && f[i] <= '9')
		i++;
	if (f[i] != '$')
		i = 1;	/* those digits were a width */
	else
		i++;
	while (f[i] && strchr("-+ #0'", f[i]))
		i++;
	while (f[i] == '*' || (f[i] >= '0' && f[i] <= '9'))
		i++;
	if (f[i] == '.') {
		i++;
		while (f[i] == '*' || (f[i] >= '0' && f[i] <= '9'))
			i++;
	}
	while (f[i] && strchr("hlLqjzZt", f[i]))
		i++;
	*type = f[i];
	return f[i] ? i + 1 : i;
}

/* The bytes of the number a numeric conversion of `type` printed at s: 0 if none. */
static size_t number_at(const char *s, char type)
{
	size_t i = 0, digits = 0;
	const char *set = strchr("xXp", type) ? "0123456789abcdefABCDEFx" :
			  strchr("eEfFgGaA", type) ? "0123456789.eE+-" : "0123456789";

	if (s[0] == '-' && !strchr("uxXop", type))
		i++;
	if (strchr("eEfFgGaA", type) && (!strncmp(s + i, "inf", 3) || !strncmp(s + i, "nan", 3)))
		return i + 3;
	while (s[i] && strchr(set, s[i])) {
		i++;
		digits++;
	}
	return digits ? i : 0;
}

/* Whether text s is what format f printed; the values of its conversions into caps. */
static int match(const char *f, const char *s, struct cap *caps, int k, int *ncaps)
{
	while (*f) {
		char type;
		size_t len;

		if (*f != '%') {
			if (*f != *s)
				return 0;
			f++;
			s++;
			continue;
		}
		if (f[1] == '%') {
			if (*s != '%')
				return 0;
			f += 2;
			s++;
			continue;
		}
		if (k == CAPS_MAX)
			return 0;
		len = spec(f, &type);
		f += len;
		if (type == 's') {
			/* the shortest value the rest matches after: a title's values are short */
			for (const char *e = s;; e++) {
				if (!*f || *f == '%' || *e == *f) {
					caps[k] = (struct cap){ .p = s, .n = (size_t)(e - s) };
					if (!*f) {
						caps[k].n = strlen(s);
						*ncaps = k + 1;
						return 1;
					}
					if (match(f, e, caps, k + 1, ncaps))
						return 1;
				}
				if (!*e)
					return 0;
			}
		}
		if (type == 'c') {
			size_t n = 1;

			if (!*s)
				return 0;
			while (((unsigned char)s[n] & 0xc0) == 0x80)
				n++;
			caps[k++] = (struct cap){ .p = s, .n = n };
			s += n;
			continue;
		}
		len = number_at(s, type);
		if (!len)
			return 0;
		caps[k++] = (struct cap){ .p = s, .n = len };
		s += len;
	}
	if (*s)
		return 0;
	*ncaps = k;
	return 1;
}

static void text_at(struct strbuf *out, const char *text, int depth);

/*
 * `str` (the translation of a format) with its conversions replaced by the values in caps. A
 * string value is itself English a rule composed ("drops", "NCCL's automatic pass, ..."): it is
 * put into the language too, a word by its exact msgid, words by a format as well; names,
 * addresses and numbers match no msgid and stay as they are.
 */
static void fill(struct strbuf *out, const char *str, const struct cap *caps, int ncaps, int depth)
{
	const char *start = str;
	int seq = 0;

	while (*str) {
		char type;
		size_t len;
		int at;

		if (*str != '%') {
			strbuf_addch(out, *str++);
			continue;
		}
		if (str[1] == '%') {
			strbuf_addch(out, '%');
			str += 2;
			continue;
		}
		len = spec(str, &type);
		at = seq++;
		/* "%.0s": a translation that drops a value ("stream%s"'s plural "s") */
		if (type == 's' && len >= 4 && !strncmp(str + len - 3, ".0s", 3)) {
			str += len;
			continue;
		}
		if (str[1] >= '1' && str[1] <= '9') {
			/* "%2$s": a translation that needs the values in another order */
			char *end;
			long pos = strtol(str + 1, &end, 10);

			if (*end == '$')
				at = (int)pos - 1;
		}
		/* "NAME=%s": an assignment's value is what the user typed ("yes"), never a word */
		if (at >= 0 && at < ncaps && type == 's' && depth < I18N_DEPTH && caps[at].n &&
		    !(str > start && str[-1] == '=')) {
			char *v = xstrndup(caps[at].p, caps[at].n);

			text_at(out, v, depth + 1);
			free(v);
		} else if (at >= 0 && at < ncaps) {
			strbuf_add(out, caps[at].p, caps[at].n);
		}
		str += len;
	}
}

/*
 * Whether every value is a name or two ("fp-n0", "fp-n0's eth0"): list glue ("%s and %s") joins
 * names; an English sentence that holds "and" stays one sentence.
 */
static int names(const struct cap *caps, int ncaps)
{
	for (int i = 0; i < ncaps; i++) {
		int blanks = 0;

		for (size_t k = 0; k < caps[i].n; k++)
			blanks += caps[i].p[k] == ' ';
		if (blanks > 1)
			return 0;
	}
	return 1;
}

/* The bytes of format f that are its own text, not conversions: how specific it is. */
static size_t literal_len(const char *f)
{
	size_t n = 0;
	char type;

	while (*f) {
		if (*f == '%' && f[1] != '%') {
			f += spec(f, &type);
			continue;
		}
		f += *f == '%' ? 2 : 1;
		n++;
	}
	return n;
}

#define EXACT ((size_t)-1)

/*
 * A short format that puts a message under a prefix of names ("rank %d: %s", "%s (rank %d):
 * %s"): whole texts are read by it when the values before the message are names, which are kept,
 * and the message is put into the language; other short formats ("%s and %s") only ever rewrite
 * a value.
 */
static int prefix_glue(const char *f)
{
	size_t n = strlen(f);

	return n > 4 && !strcmp(f + n - 4, ": %s");
}

static size_t translate(struct strbuf *out, const char *text, int depth);

/* How much of a value its own translation explains: all of it for a msgid, else its format's
 * literal text (0: none). */
static size_t value_explained(const struct cap *c, int depth)
{
	struct strbuf sb = STRBUF_INIT;
	char *v;
	size_t n;

	if (depth >= I18N_DEPTH || !c->n)
		return 0;
	v = xstrndup(c->p, c->n);
	n = translate(&sb, v, depth + 1);
	free(v);
	strbuf_release(&sb);
	return n == EXACT ? c->n : n;
}

/*
 * `text`'s translation appended, when it is a msgid (EXACT) or a format's text (the format's
 * literal_len(), at least 1); 0 when it is neither. Of the formats that match, the one whose
 * reading explains the most literal text wins, its values' own translations counted: "rank %d:
 * %s" over a message that is itself a format beats "rank %s on %s", which matches the same line
 * with more literal text of its own but values that mean nothing ("1: port 2"). Ties keep the
 * most specific format (the table's order).
 */
static size_t translate(struct strbuf *out, const char *text, int depth)
{
	const struct i18n_entry *e = find(current, text);
	const struct i18n_entry *best = NULL;
	struct cap caps[CAPS_MAX], best_caps[CAPS_MAX];
	int ncaps, best_n = 0;
	size_t best_score = 0, best_lit = 0;

	if (e) {
		strbuf_addstr(out, e->str);
		return EXACT;
	}
	/* a value that is one word is only ever looked up exactly */
	if (current != I18N_ZH || !text || (depth > 0 && !strchr(text, ' ')))
		return 0;
	for (size_t i = 0; i < i18n_zh_CN_nformats; i++) {
		const struct i18n_entry *fe = &i18n_zh_CN[i18n_zh_CN_formats[i]];
		size_t lit = strcspn(fe->id, "%"), score;
		int glue = fe->format == 2 && prefix_glue(fe->id);

		/* the literal text before the first conversion: most formats fail here */
		if (strncmp(fe->id, text, lit) || (fe->format == 2 && depth == 0 && !glue))
			continue;
		if (!match(fe->id, text, caps, 0, &ncaps) ||
		    (fe->format == 2 && !names(caps, glue ? ncaps - 1 : ncaps)))
			continue;
		lit = literal_len(fe->id);
		if (!best) {
			/* scored only when a second format matches: most texts have one reading */
			best = fe;
			best_score = SIZE_MAX;	/* not scored yet */
			best_lit = lit;
			best_n = ncaps;
			memcpy(best_caps, caps, sizeof(caps[0]) * (size_t)ncaps);
			continue;
		}
		if (best_score == SIZE_MAX) {
			best_score = best_lit;
			for (int k = 0; k < best_n; k++)
				best_score += value_explained(&best_caps[k], depth);
		}
		score = lit;
		for (int k = 0; k < ncaps; k++)
			score += value_explained(&caps[k], depth);
		if (score > best_score) {
			best = fe;
			best_score = score;
			best_lit = lit;
			best_n = ncaps;
			memcpy(best_caps, caps, sizeof(caps[0]) * (size_t)ncaps);
		}
	}
	if (!best)
		return 0;
	fill(out, best->str, best_caps, best_n, depth);
	return best_lit ? best_lit : 1;
}

/*
 * Messages a probe joined with "; " (each tool's reason: "'iptables-save' is not installed; 'nft'
 * is not installed"), read message by message when every one is a msgid's text and together
 * they say more than one format the whole happens to match ("'%s' is not installed" over both).
 * Appends the parts to `out` and returns 1, or leaves `out` alone and returns 0.
 */
static int messages_at(struct strbuf *out, const char *text, int depth, size_t got)
{
	struct strbuf sb = STRBUF_INIT;
	size_t sum = 0;
	const char *p = text;

	if (got == EXACT || !strstr(text, "; "))
		return 0;
	for (;;) {
		const char *end = strstr(p, "; ");
		char *part = end ? xstrndup(p, (size_t)(end - p)) : xstrdup(p);
		size_t n = translate(&sb, part, depth);

		free(part);
		if (!n || n == EXACT) {
			strbuf_release(&sb);
			return 0;
		}
		sum += n;
		if (!end)
			break;
		strbuf_addstr(&sb, "\xef\xbc\x9b");	/* the full-width semicolon */
		p = end + 2;
	}
	if (sum <= got) {
		strbuf_release(&sb);
		return 0;
	}
	strbuf_add(out, sb.buf, sb.len);
	strbuf_release(&sb);
	return 1;
}

static void text_at(struct strbuf *out, const char *text, int depth)
{
	struct strbuf whole = STRBUF_INIT, head = STRBUF_INIT;
	size_t got = translate(&whole, text, depth);

	if (current == I18N_ZH && text && messages_at(out, text, depth, got)) {
		strbuf_release(&whole);
		return;
	}

	if (got == EXACT || current != I18N_ZH || !text) {
		strbuf_addstr(out, got ? whole.buf : text ? text : "");
		strbuf_release(&whole);
		return;
	}
	/*
	 * An error that unwound through err_prefix() or err_sys() reads "context: message": no one
	 * format wrote it, but each part is a msgid's text. The first head that is one, and more
	 * specific than a format the whole text happens to match ("cannot connect to %s: %s"),
	 * is put into the language, and the rest is read as a message of its own.
	 */
	for (const char *c = strstr(text, ": "); c; c = strstr(c + 2, ": ")) {
		char *h = xstrndup(text, (size_t)(c - text));
		size_t hl;

		strbuf_reset(&head);
		hl = translate(&head, h, 0);
		/* a head that reads the same in every language ("/dev/shm", a name) is no context of
		 * an error: the whole text's format ("%s: %s, writable") says more */
		if (got && hl == EXACT && !strcmp(head.buf, h))
			hl = 0;
		free(h);
		if (hl && hl > got) {
			strbuf_add(out, head.buf, head.len);
			strbuf_addstr(out, "\xef\xbc\x9a");	/* the full-width colon */
			text_at(out, c + 2, depth);
			strbuf_release(&head);
			strbuf_release(&whole);
			return;
		}
	}
	strbuf_addstr(out, got ? whole.buf : text);
	strbuf_release(&head);
	strbuf_release(&whole);
}

void i18n_text(struct strbuf *out, const char *text)
{
	text_at(out, text, 0);
}
