/*
 * util/i18n.c's i18n_text() reads English that came from elsewhere (a cluster peer's report, a
 * saved --json document) and the renderers wrap what it returns, counting CJK columns: any
 * bytes (cut UTF-8, conversions' own text inside values), never a crash or a read past the end.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct strbuf zh = STRBUF_INIT, wrapped = STRBUF_INIT;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';	/* a finding's text is a C string: up to the first NUL */
	i18n_set_lang(I18N_ZH);
	i18n_text(&zh, text);
	wrap_text(&wrapped, zh.buf, 40 + (int)(size % 61), size % 2 ? -1 : 14,
		  size % 3 ? WRAP_PROSE : WRAP_SHELL);
	strbuf_release(&zh);
	strbuf_release(&wrapped);
	free(text);
	return 0;
}
