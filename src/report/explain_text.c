/* explain's per-rank table as text, from the payload that --json prints (see explain_text.h). */
#include "report/explain_text.h"

#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"

void render_explain_ranks(const json_t *payload, struct strbuf *out)
{
	const json_t *ranks = json_object_get(payload, "ranks"), *rk;
	const json_t *m = json_object_get(payload, "master_addr");
	size_t i;

	strbuf_addf(out, _("read %lld lines, %lld bytes"), jpath_int(payload, "lines", 0),
		    jpath_int(payload, "bytes", 0));
	if (json_is_object(m))
		strbuf_addf(out, _("; MASTER_ADDR %s (%s)"), jpath_str(m, "value"),
			    _(jpath_str(m, "source")));
	strbuf_addch(out, '\n');
	json_array_foreach(ranks, i, rk) {
		const char *v = jpath_str(rk, "nccl_version"), *bi = jpath_str(rk, "bootstrap.ifname");
		const char *net = jpath_str(rk, "network"), *last = jpath_str(rk, "last_line.text");
		const char *exc = jpath_str(rk, "exception.text");
		const json_t *tr = json_object_get(rk, "transports"), *t;
		size_t k;

		if (i == 64) {
			strbuf_addf(out, _("  … %zu more (see --json)\n"), json_array_size(ranks) - 64);
			break;
		}
		strbuf_addf(out, "  %-10s", jpath_str(rk, "label"));
		if (jpath_str(rk, "host"))
			strbuf_addf(out, " %s", jpath_str(rk, "host"));
		if (v)
			strbuf_addf(out, "  NCCL %s", v);
		if (bi)
			strbuf_addf(out, _("  bootstrap %s %s (%s)"), bi, jpath_str(rk, "bootstrap.addr"),
				    _(jpath_str(rk, "bootstrap.class")));
		if (net)
			strbuf_addf(out, "  net %s", net);
		json_array_foreach(tr, k, t)
			strbuf_addf(out, "%s%s", k ? "," : "  via ", json_string_value(t));
		if (jpath_str(rk, "init.complete"))
			strbuf_addstr(out, _("  init complete"));
		else if (jpath_str(rk, "init.start"))
			strbuf_addstr(out, _("  init STARTED, not completed"));
		if (json_is_number(jpath(rk, "init.total_s")))
			strbuf_addf(out, " (%.2f s)", json_number_value(jpath(rk, "init.total_s")));
		strbuf_addch(out, '\n');
		if (exc)
			strbuf_addf(out, _("             exception: %s  (%s)\n"), exc, jpath_str(rk, "exception.where"));
		if (last)
			strbuf_addf(out, _("             last line: %.120s  (%s)\n"), last, jpath_str(rk, "last_line.where"));
	}
}
