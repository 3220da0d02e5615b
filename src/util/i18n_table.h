/*
 * The translation tables po/po2c.py generates from po/<lang>.po at build time (see i18n.h).
 * Only i18n.c reads them.
 */
#ifndef NCCLCHECK_I18N_TABLE_H
#define NCCLCHECK_I18N_TABLE_H

#include <stddef.h>

struct i18n_entry {
	const char *id;		/* the English msgid */
	const char *str;	/* its translation (msgstr, or msgstr[0] of a plural) */
	int format;		/* a c-format msgid with conversions: i18n_text() matches it
				 * against a whole text (1), or only against a value inside
				 * another format's text (2: few words of its own, "%s and %s") */
};

/* Sorted by id as strcmp() orders it. */
extern const struct i18n_entry i18n_zh_CN[];
extern const size_t i18n_zh_CN_count;
/* Indices into i18n_zh_CN of the format entries, the longest literal text first. */
extern const unsigned i18n_zh_CN_formats[];
extern const size_t i18n_zh_CN_nformats;

#endif
