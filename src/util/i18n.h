/*
 * Languages: English (the source text) and Simplified Chinese (po/zh_CN.po, compiled into the
 * binary by po/po2c.py: nothing is read at run time).
 *
 * One way to make a string translatable: write it in English in the code and mark it, _("...")
 * where it is used, N_("...") where it is only stored (tables); po/POTFILES lists the files
 * whose marked strings and finding texts must have a Chinese entry (unit.i18n, unit.cli_i18n, integration.po_zh).
 *
 * Findings are the one exception to "translate where it is used": a rule formats its title, why
 * and fix lines in English (finding_add() etc.; JSON, peers and saved reports carry that text),
 * and the text renderers put them into the reader's language with i18n_text(), which finds the
 * format the English came from and formats its translation with the same values. So a cluster
 * worker, `report run.json` and the HTML page show a report in the language of whoever reads it.
 * See docs/architecture.md, "Languages".
 */
#ifndef NCCLCHECK_I18N_H
#define NCCLCHECK_I18N_H

#include <stddef.h>

#include "util/strbuf.h"

enum i18n_lang {
	I18N_EN = 0,
	I18N_ZH,
};

/*
 * The language of everything a person reads. Process-wide like the locale: main() sets it once,
 * from --lang or the environment, before any thread starts; the default is English.
 */
void i18n_set_lang(enum i18n_lang lang);
enum i18n_lang i18n_lang(void);
/* "en", "zh_CN": the "lang" member of a --json document that is not English. */
const char *i18n_lang_code(enum i18n_lang lang);
/* --lang's value: "en", "zh", or a locale name ("zh_CN.UTF-8", "en_US"); -1 if neither. */
int i18n_parse_lang(const char *s, enum i18n_lang *out);
/*
 * The language the environment asks for, as gettext reads it: the first of LC_ALL,
 * LC_MESSAGES, LANG that is set and not empty decides; Chinese when it starts with "zh".
 */
enum i18n_lang i18n_lang_from_env(const char *lc_all, const char *lc_messages, const char *lang);

/* `msgid`'s translation in the current language, or `msgid` itself. */
const char *i18n_tr(const char *msgid) __attribute__((format_arg(1)));
/* The same in `lang`; NULL when it has none (tests: is a string translated?). */
const char *i18n_lookup(enum i18n_lang lang, const char *msgid);
/* ngettext: `one` or `other` by `n` in English; Chinese has one form. */
const char *i18n_trn(const char *one, const char *other, unsigned long n)
	__attribute__((format_arg(1))) __attribute__((format_arg(2)));

#define _(s) i18n_tr(s)
#define N_(s) s
#define Q_(one, other, n) i18n_trn(one, other, n)

/*
 * Appends `text`, an English text that a c-format msgid (or a plain one) produced, in the
 * current language: the msgid it is exactly, else the most specific format it matches (the
 * literal parts equal, each conversion standing for what was formatted there: digits for %d,
 * any text for %s) with its translation filled with the same values, a %s value put into the
 * language in turn (a word only by its exact msgid). Text no msgid produced is appended as it
 * is.
 */
void i18n_text(struct strbuf *out, const char *text);

#endif
