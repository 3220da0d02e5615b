/*
 * Every --help text of every verb and subcommand has a Chinese entry, and every --help page fits
 * 100 columns in Chinese as in English (a CJK character is two). Walks the verb table itself, so
 * a new verb, option or line of help fails here until po/zh_CN.po has it (po/update.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmocka_helpers.h"
#include "util/i18n.h"
#include "util/wrap.h"

static size_t missing;

static void need(const char *verb, const char *what, const char *s)
{
	if (!s || i18n_lookup(I18N_ZH, s))
		return;
	fprintf(stderr, "%s: no zh_CN entry for its %s: msgid \"%s\"\n", verb, what, s);
	missing++;
}

/* Examples are commands; those with a comment ('#' or a parenthesis) have words to translate. */
static int has_words(const char *examples)
{
	return examples && strpbrk(examples, "#(");
}

static void need_verb(const struct verb *v)
{
	need(v->name, "summary", v->summary);
	need(v->name, "description", v->description);
	need(v->name, "epilogue", v->epilogue);
	need(v->name, "exit codes", v->exit_codes);
	need(v->name, "--json help", v->json_help);
	if (has_words(v->examples))
		need(v->name, "examples", v->examples);
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		need(v->name, v->opts[i].name, v->opts[i].help);
	for (size_t i = 0; i < v->nsubs; i++)
		need_verb(v->subs[i]);
}

static void every_help_text_has_chinese(void **state)
{
	(void)state;
	missing = 0;
	for (size_t i = 0; i < cmd_nverbs; i++)
		need_verb(cmd_verbs[i]);
	assert_int_equal(missing, 0);
}

/* Lines of `s` wider than 100 columns, printed. */
static size_t too_wide(const char *page, const char *s)
{
	size_t bad = 0;

	while (*s) {
		size_t n = strcspn(s, "\n");

		if (wrap_cols(s, n) > 100) {
			fprintf(stderr, "%s: %zu columns: '%.*s'\n", page, wrap_cols(s, n), (int)n, s);
			bad++;
		}
		s += n + (s[n] == '\n');
	}
	return bad;
}

static size_t page_fits(const struct verb *v)
{
	char *buf = NULL;
	size_t len = 0, bad;
	FILE *out = open_memstream(&buf, &len);

	if (v->help)
		v->help(out, v);
	else
		cli_help(out, v);
	fclose(out);
	bad = too_wide(v->name, buf);
	/* the page is Chinese: its option lines are not English left over */
	if (i18n_lang() == I18N_ZH && !strstr(buf, "用法："))
		bad++;
	free(buf);
	for (size_t i = 0; i < v->nsubs; i++)
		bad += page_fits(v->subs[i]);
	return bad;
}

static void every_help_page_fits_100_columns(void **state)
{
	size_t bad = 0;

	(void)state;
	for (int lang = I18N_EN; lang <= I18N_ZH; lang++) {
		i18n_set_lang((enum i18n_lang)lang);
		for (size_t i = 0; i < cmd_nverbs; i++)
			bad += page_fits(cmd_verbs[i]);
	}
	i18n_set_lang(I18N_EN);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_help_text_has_chinese),
		cmocka_unit_test(every_help_page_fits_100_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
