/*
 * A cluster report (cluster/run.h's document, the master's or a node's own) as lines for people:
 * the nodes, each link test's measurement, how the link tests settled each node's own checks,
 * the timings. It reads the document only (a worker prints the one the master sent, so every
 * member is checked before use); the findings are render.c's.
 */
#include "report/cluster_text.h"

#include <string.h>

#include "finding.h"
#include "link/link.h"
#include "report/link_text.h"
#include "report/render.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CLUSTER_TEXT_LINKS 24	/* more link tests than this are listed with --verbose only */

/* Counts a settled[] array's verdicts. */
static void settled_counts(const json_t *st, size_t c[3])
{
	json_t *e;
	size_t k;

	c[0] = c[1] = c[2] = 0;
	json_array_foreach(st, k, e) {
		const char *v = json_string_value(json_object_get(e, "verdict"));

		if (!v)
			continue;
		c[!strcmp(v, "confirmed") ? 0 : !strcmp(v, "withdrawn") ? 1 : 2]++;
	}
}

/*
 * Per node: what the link tests made of its own guesses, and the confirmed ones (the unsettled
 * too with --verbose). Withdrawn ones are not shown: the measurement disproved them.
 */
/* the settle verdicts shown (withdrawn ones are not), as msgids */
static const char *const settle_words[] __attribute__((unused)) = {
	N_("confirmed"), N_("unsettled"),
};

static void node_checks_text(const json_t *nodes, int verbose, struct strbuf *sb)
{
	json_t *n;
	size_t i, errors = 0;
	int head = 0;

	json_array_foreach(nodes, i, n) {
		json_t *st = json_object_get(n, "settled"), *e;
		struct findings *fs = findings_new();
		size_t c[3], k, ne, nw, ni;
		char buf[256];

		if (!json_object_get(n, "findings") ||
		    findings_from_json(fs, json_object_get(n, "findings"), buf, sizeof(buf)) < 0) {
			findings_free(fs);
			continue;
		}
		if (!head++)
			strbuf_addstr(sb, _("\nnode checks ('ncclcheck node' on each node), settled by "
					    "the link tests:\n"));
		settled_counts(st, c);
		ne = findings_count(fs, SEV_ERROR);
		nw = findings_count(fs, SEV_WARN);
		ni = findings_count(fs, SEV_INFO);
		strbuf_addf(sb, "  %-20s ", str_or(jpath_str(n, "name"), "?"));
		if (st)
			strbuf_addf(sb, _("%zu confirmed, %zu withdrawn by measurement, %zu unsettled; "
					  "left: "), c[0], c[1], c[2]);
		else
			strbuf_addstr(sb, _("not settled (the link tests did not finish): "));
		strbuf_addf(sb, _("%zu error%s, %zu warning%s, %zu note%s\n"), ne, ne == 1 ? "" : "s",
			    nw, nw == 1 ? "" : "s", ni, ni == 1 ? "" : "s");
		json_array_foreach(st, k, e) {
			const char *v = json_string_value(json_object_get(e, "verdict"));
			const char *id = str_or(jpath_str(e, "id"), "?");
			const char *title = str_or(jpath_str(e, "title"), "?");
			const char *sev = str_or(jpath_str(e, "severity"), "?");
			const struct finding *kept = NULL;

			if (!v || !strcmp(v, "withdrawn") || (!strcmp(v, "unsettled") && !verbose))
				continue;
			/* the finding itself says whether it was folded under a cause */
			for (size_t j = 0; j < fs->n && !kept; j++)
				if (!strcmp(fs->v[j]->id, id) && !strcmp(fs->v[j]->title, title))
					kept = fs->v[j];
			errors += !strcmp(v, "confirmed") && !strcmp(sev, "error") &&
				  !(kept && kept->caused_by);
			{
				/* the words and the finding's English in the reader's language */
				struct strbuf t = STRBUF_INIT, ev = STRBUF_INIT;

				strbuf_addf(sb, "    %s %s %s: %s\n      %s: %s\n", _(v), _(sev), id,
					    render_l10n(&t, title),
					    !strcmp(v, "confirmed") ? _("measured") : _("why not"),
					    render_l10n(&ev, str_or(jpath_str(e, "evidence"), "?")));
				strbuf_release(&t);
				strbuf_release(&ev);
			}
			if (kept && kept->caused_by) {
				strbuf_addstr(sb, _("      cause: "));
				render_cause(sb, kept->caused_by);
				strbuf_addstr(sb, _(" (not counted)\n"));
			}
		}
		findings_free(fs);
	}
	if (errors)
		strbuf_addf(sb, _("  (%zu confirmed error%s: measured failures, counted in the exit "
				  "code)\n"), errors, errors == 1 ? "" : "s");
}

void cluster_report_text(const json_t *report, int verbose, struct strbuf *sb)
{
	json_t *nodes = json_object_get(report, "nodes"), *links = json_object_get(report, "links");
	json_t *n, *l;
	size_t i;

	if (json_array_size(nodes)) {
		strbuf_addf(sb, _("cluster: %zu nodes"), json_array_size(nodes));
		json_array_foreach(nodes, i, n)
			strbuf_addf(sb, "%s %s", i ? "," : ":",
				    str_or(jpath_str(n, "name"), "?"));
		strbuf_addch(sb, '\n');
	}
	if (!verbose && json_array_size(links) > CLUSTER_TEXT_LINKS) {
		strbuf_addf(sb, _("\n%zu link tests (each one is a finding below; --verbose lists the "
				  "measurements)\n"), json_array_size(links));
		links = NULL;
	}
	if (json_array_size(links))
		strbuf_addstr(sb, _("\nlinks (peer -> target address over the target's interface):\n"));
	json_array_foreach(links, i, l) {
		struct link_result r;
		struct err e = ERR_INIT;
		const char *err = json_string_value(json_object_get(l, "error"));

		strbuf_addf(sb, "  %-5s %s -> %s %s: ", str_or(jpath_str(l, "test"), "?"),
			    str_or(jpath_str(l, "peer_name"), "?"),
			    str_or(jpath_str(l, "target_name"), "?"),
			    str_or(jpath_str(l, "ifname"), "?"));
		if (err) {
			strbuf_addf(sb, _("could not run: %s\n"), err);
			continue;
		}
		if (link_result_from_json(json_object_get(l, "result"), &r, &e) < 0) {
			strbuf_addf(sb, _("(unreadable result: %s)\n"), e.msg);
			continue;
		}
		link_result_text(&r, sb);
		strbuf_addch(sb, '\n');
		link_result_release(&r);
	}
	node_checks_text(nodes, verbose, sb);
	{
		json_t *t = json_object_get(report, "timings_ms");

		static const char *const keys[] = { "probe", "join", "links", "total" };
		const char *sep = "\n";

		for (size_t k = 0; t && k < ARRAY_SIZE(keys); k++) {
			if (!json_is_integer(json_object_get(t, keys[k])))
				continue;
			strbuf_addf(sb, "%s%s %lld ms", sep, keys[k], jpath_int(t, keys[k], -1));
			sep = ", ";
		}
		if (t)
			strbuf_addch(sb, '\n');
	}
}

void cluster_report_brief(const json_t *report, size_t deferred, struct strbuf *sb)
{
	json_t *nodes = json_object_get(report, "nodes"), *n, *f;
	size_t i, folded = 0;

	json_array_foreach(json_object_get(report, "findings"), i, f)
		folded += json_object_get(f, "caused_by") != NULL;
	json_array_foreach(nodes, i, n) {
		json_t *nf;
		size_t k;

		json_array_foreach(json_object_get(n, "findings"), k, nf)
			folded += json_object_get(nf, "caused_by") != NULL;
	}
	if (!json_array_size(nodes))
		return;
	{
		struct strbuf names = STRBUF_INIT;

		json_array_foreach(nodes, i, n)
			strbuf_addf(&names, "%s%s", i ? ", " : "", str_or(jpath_str(n, "name"), "?"));
		strbuf_addf(sb, _("cluster: %zu nodes: %s; %zu link tests"), json_array_size(nodes),
			    names.buf, json_array_size(json_object_get(report, "links")) + deferred);
		strbuf_release(&names);
	}
	if (json_is_integer(jpath(report, "timings_ms.total")))
		strbuf_addf(sb, _(" in %.1f s"), (double)jpath_int(report, "timings_ms.total", 0) / 1000);
	strbuf_addstr(sb, folded ? _("\n(-v: every measurement, the node checks, and the findings "
				     "folded under their cause)\n") :
				   _("\n(-v: every measurement, the node checks)\n"));
}
