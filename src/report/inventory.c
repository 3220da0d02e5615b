/* The inventory's section table and the host section. */
#include "report/inventory.h"

#include <stdarg.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/wrap.h"


static void (*const sections[])(FILE *, const struct node_model *, const struct render_opts *) = {
	inv_host,
	inv_cloud,
	inv_gpu,
	inv_stack,
	inv_net,
};

void render_inventory_text(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		sections[i](out, m, o);
	fputc('\n', out);
}

void inv_heading(FILE *out, const struct render_opts *o, const char *title)
{
	fprintf(out, "%s%s%s\n", render_bold(o), _(title), render_reset(o));
}

/*
 * The key in the reader's language, padded to 18 columns (not bytes: a Chinese key is narrower
 * than its bytes); the value formatted in English and put into the language as a finding's
 * text is (util/i18n.h): a value whose format is a msgid reads translated, names and numbers
 * as they are.
 */
void inv_line(FILE *out, const char *key, const char *fmt, ...)
{
	struct strbuf value = STRBUF_INIT, l10n = STRBUF_INIT, line = STRBUF_INIT;
	const char *k = *key ? _(key) : key;
	size_t w = wrap_cols(k, strlen(k));
	va_list ap;

	strbuf_addf(&line, "  %s%*s ", k, w < 18 ? (int)(18 - w) : 0, "");
	va_start(ap, fmt);
	strbuf_vaddf(&value, fmt, ap);
	va_end(ap);
	strbuf_addstr(&line, render_l10n(&l10n, value.buf));
	/*
	 * A key of two words ("NCCL copies") is no label the writer's wrap hangs under: a long
	 * value continues under the value column here (21), as it does after a one-word key.
	 */
	if (strchr(k, ' ') && wrap_cols(line.buf, line.len) > WRAP_MAX) {
		struct strbuf wrapped = STRBUF_INIT;

		wrap_text(&wrapped, line.buf, WRAP_MAX, 21, WRAP_PROSE);
		strbuf_release(&line);
		line = wrapped;
	}
	fputs(line.buf, out);
	fputc('\n', out);
	strbuf_release(&line);
	strbuf_release(&value);
	strbuf_release(&l10n);
}

void inv_text(FILE *out, const char *key, const struct nm_text *t)
{
	if (t->unknown)
		inv_line(out, key, N_("unknown (%s)"), t->unknown);
	else if (t->value)
		inv_line(out, key, "%s", t->value);
	else
		inv_line(out, key, "-");
}

void inv_host(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	inv_heading(out, o, N_("Host"));
	inv_text(out, N_("hostname"), &m->host_name);
	inv_text(out, N_("os"), &m->os_pretty);
	inv_text(out, N_("kernel"), &m->kernel);
	inv_text(out, N_("container"), &m->container_kind);
	inv_line(out, N_("cpus / numa"), "%lld / %lld", m->cpus.online, m->cpus.numa_online);
}
