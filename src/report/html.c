/*
 * The HTML report's page: the head (inline CSS: light, dark through prefers-color-scheme, print),
 * the verdict and its fix block first, the verb's own sections, then the findings by severity.
 * Every string of the document goes through html_esc(); the markup around it is constant.
 */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "report/html_int.h"
#include "report/render.h"
#include "util/err.h"
#include "util/i18n.h"
#include "util/json.h"

static const char css[] =
	":root{--bg:#fff;--fg:#1b1f24;--mut:#57606a;--line:#d0d7de;--box:#f6f8fa;"
	"--err:#cf222e;--warn:#9a6700;--info:#0969da;--ok:#1a7f37;--diff:#fff8c5;--bar:#0969da}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--mut:#8d96a0;"
	"--line:#30363d;--box:#161b22;--err:#ff7b72;--warn:#d29922;--info:#58a6ff;--ok:#3fb950;"
	"--diff:#3b2f00;--bar:#58a6ff}}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;max-width:1200px;padding:1em 1.5em;background:var(--bg);color:var(--fg);"
	"font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
	"h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.2em;border-bottom:1px solid var(--line);"
	"padding-bottom:.2em;margin-top:1.6em}h3{font-size:1.05em}h4{margin:.2em 0;font-size:1em}\n"
	".meta,.mut{color:var(--mut)}\n"
	"pre,code{font:13px/1.4 ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace}\n"
	"pre{background:var(--box);border:1px solid var(--line);border-radius:6px;padding:.6em .8em;"
	"white-space:pre-wrap;overflow-wrap:anywhere;user-select:all}\n"
	"code{overflow-wrap:anywhere}\n"
	".verdict{border-left:6px solid var(--ok);padding:.2em 1em;background:var(--box)}\n"
	".verdict.sev-error{border-color:var(--err)}.verdict.sev-warn{border-color:var(--warn)}\n"
	".headline{font-size:1.15em;font-weight:600;overflow-wrap:anywhere}\n"
	".badge{display:inline-block;min-width:3.6em;text-align:center;border-radius:4px;"
	"padding:0 .4em;color:#fff;font-size:.85em;font-weight:600;margin-right:.4em}\n"
	".b-error{background:var(--err)}.b-warn{background:var(--warn)}"
	".b-info{background:var(--info)}.b-ok{background:var(--ok)}\n"
	".finding{border:1px solid var(--line);border-radius:6px;padding:.5em .8em;margin:.6em 0;"
	"overflow-wrap:anywhere}\n"
	".finding.folded{opacity:.85;border-style:dashed}\n"
	".finding ul{margin:.2em 0;padding-left:1.4em}\n"
	"table{border-collapse:collapse;margin:.5em 0;font-size:13px}\n"
	"th,td{border:1px solid var(--line);padding:.2em .45em;text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere}\n"
	"th{background:var(--box)}table.inv th:first-child,table.matrix th{white-space:nowrap}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"td.diff,tr.behind td{background:var(--diff);font-weight:600}\n"
	"td.c{text-align:center;min-width:1.8em;font-weight:600}\n"
	".st-ok{background:#2da44e;color:#fff}.st-refused{background:#cf222e;color:#fff}"
	".st-timeout{background:#6e40c9;color:#fff}.st-slow{background:#bf8700;color:#fff}"
	".st-error,.st-noroute,.st-hostunreach{background:#57606a;color:#fff}"
	".st-self{background:var(--box)}\n"
	".legend span{display:inline-block;padding:0 .5em;margin-right:.4em;border-radius:3px}\n"
	"svg{max-width:100%;height:auto;font:11px system-ui,sans-serif}\n"
	"svg text{fill:var(--fg)}svg .axis{stroke:var(--mut);stroke-width:1}\n"
	"svg .grid{stroke:var(--line);stroke-width:1}\n"
	".p-open{fill:#2da44e}.p-rejected{fill:#cf222e}.p-dropped{fill:#6e40c9}"
	".p-unreach,.p-error{fill:#57606a}.p-in_use{fill:#bf8700}.p-range{fill:none;"
	"stroke:var(--fg);stroke-width:1.5}\n"
	".l-alg{stroke:var(--info);fill:none;stroke-width:2}.l-bus{stroke:var(--ok);fill:none;"
	"stroke-width:2}.l-cmp{stroke-dasharray:5 3}.l-ceil{stroke:var(--err);stroke-width:1.5;"
	"stroke-dasharray:6 4}.d-alg{fill:var(--info)}.d-bus{fill:var(--ok)}\n"
	".l-other{stroke:#e8590c;fill:none;stroke-width:2}.d-other{fill:#e8590c}\n"
	".bar{fill:var(--bar)}.ceil{fill:none;stroke:var(--err);stroke-width:1.5}\n"
	"@media print{body{max-width:none;font-size:11px}pre{white-space:pre-wrap}"
	".finding,table,svg{break-inside:avoid}a{color:inherit;text-decoration:none}"
	".scroll{overflow:visible}}\n";

static const char *const sev_word[] = {
	[SEV_OK] = "ok", [SEV_INFO] = "info", [SEV_WARN] = "warn", [SEV_ERROR] = "error",
};
/* the badges: the text renderer's severity words, in the reader's language */
static const char *const sev_label[] = {
	[SEV_OK] = N_("ok"), [SEV_INFO] = N_("info"), [SEV_WARN] = N_("warn"), [SEV_ERROR] = N_("error"),
};
static const char *const conf_word[] = {
	[CONF_LOW] = N_("confidence low"), [CONF_MEDIUM] = N_("confidence medium"),
	[CONF_HIGH] = N_("confidence high"),
};
static const char *const sev_heading[] = {
	[SEV_OK] = N_("Checks passed"), [SEV_INFO] = N_("Notes"), [SEV_WARN] = N_("Warnings"),
	[SEV_ERROR] = N_("Errors"),
};

void html_esc(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
		switch (*p) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		case '\n': case '\t': strbuf_addch(sb, *p); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				strbuf_addstr(sb, "&#xFFFD;");
			else
				strbuf_addch(sb, *p);
		}
}

static const char *sev_badge(enum severity sev)
{
	return _(sev_label[sev]);
}

/* `fmt` (a translated c-format) with one size_t, into `sb` (cleared first); its text */
static const char *html_fmt(struct strbuf *sb, const char *fmt, size_t n)
{
	strbuf_reset(sb);
	strbuf_addf(sb, fmt, n);
	return sb->buf;
}

double html_scale_lin(double v, double d0, double d1, double r0, double r1)
{
	double t;

	if (!(d1 != d0) || isnan(v))
		return r0;
	t = (v - d0) / (d1 - d0);
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return r0 + t * (r1 - r0);
}

double html_scale_log(double v, double d0, double d1, double r0, double r1)
{
	if (!(d0 > 0) || !(d1 > 0) || !(v > 0))
		return r0;
	return html_scale_lin(log10(v), log10(d0), log10(d1), r0, r1);
}

double html_decade(double x)
{
	double d = 1;
	int k = x > 0 && isfinite(x) ? (int)floor(log10(x)) : 0;

	/* not pow(): its GLIBC_2.29 version would keep the portable build off older glibc */
	for (; k > 0; k--)
		d *= 10;
	for (; k < 0; k++)
		d /= 10;
	return d;
}

double html_nice_step(double top, int n)
{
	double raw, mag;

	if (!(top > 0) || n < 1)
		return 1;
	raw = top / n;
	mag = html_decade(raw);
	if (raw <= mag * (1 + 1e-9))
		return mag;
	if (raw <= 2 * mag * (1 + 1e-9))
		return 2 * mag;
	if (raw <= 5 * mag * (1 + 1e-9))
		return 5 * mag;
	return 10 * mag;
}

const char *html_numstr(char *buf, size_t len, const json_t *v)
{
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.6g", json_real_value(v));
	else
		snprintf(buf, len, "\u2013");
	return buf;
}

void html_num(struct strbuf *sb, const json_t *v, const char *ptr_fmt, ...)
{
	char num[64];
	va_list ap;

	if (!json_is_number(v)) {
		strbuf_addstr(sb, "\u2013");
		return;
	}
	strbuf_addstr(sb, "<span class=\"n\" data-j=\"");
	{
		struct strbuf ptr = STRBUF_INIT;

		va_start(ap, ptr_fmt);
		strbuf_vaddf(&ptr, ptr_fmt, ap);
		va_end(ap);
		html_esc(sb, ptr.buf);
		strbuf_release(&ptr);
	}
	strbuf_addf(sb, "\">%s</span>", html_numstr(num, sizeof(num), v));
}

void html_tx(struct strbuf *sb, const char *text)
{
	struct strbuf l10n = STRBUF_INIT;

	i18n_text(&l10n, text ? text : "");
	html_esc(sb, l10n.buf);
	strbuf_release(&l10n);
}

void html_sentence(struct strbuf *sb, const char *fmt, ...)
{
	const char *frag[HTML_SENTENCE_MAX];
	va_list ap;
	int n = 0, seq = 0;

	/* the format's conversions are all %s: count them, then take that many fragments */
	for (const char *p = fmt; *p; p++)
		if (*p == '%' && p[1] == '%')
			p++;
		else if (*p == '%' && n < HTML_SENTENCE_MAX)
			n++;
	va_start(ap, fmt);
	for (int i = 0; i < n; i++)
		frag[i] = va_arg(ap, const char *);
	va_end(ap);
	while (*fmt) {
		char *end;
		long at;

		/* the format's own text: safe in an element and in a "..." attribute (a tooltip);
		 * an apostrophe is left as it is, as the page's literal text always has it */
		if (*fmt != '%') {
			char c[2] = { *fmt++, 0 };

			if (*c == '\'')
				strbuf_addch(sb, *c);
			else
				html_esc(sb, c);
			continue;
		}
		if (fmt[1] == '%') {
			strbuf_addch(sb, '%');
			fmt += 2;
			continue;
		}
		/* "%s", or "%2$s" where the translation puts the parts in another order */
		at = seq++;
		if (fmt[1] >= '1' && fmt[1] <= '9') {
			long pos = strtol(fmt + 1, &end, 10);

			if (*end == '$') {
				at = pos - 1;
				fmt = end;
			}
		}
		while (*fmt && *fmt != 's')
			fmt++;
		if (*fmt)
			fmt++;
		if (at >= 0 && at < n && frag[at])
			strbuf_addstr(sb, frag[at]);
	}
}

void html_section(struct strbuf *sb, const char *id, const char *title)
{
	strbuf_addf(sb, "<section id=\"%s\">\n<h2>", id);
	html_esc(sb, _(title));
	strbuf_addstr(sb, "</h2>\n");
}

void html_th_row(struct strbuf *sb, ...)
{
	va_list ap;
	const char *label;

	strbuf_addstr(sb, "<tr>");
	va_start(ap, sb);
	while ((label = va_arg(ap, const char *))) {
		strbuf_addstr(sb, "<th>");
		html_esc(sb, *label ? _(label) : label);
		strbuf_addstr(sb, "</th>");
	}
	va_end(ap);
	strbuf_addstr(sb, "</tr>\n");
}

void html_h3(struct strbuf *sb, const char *title, const char *note)
{
	strbuf_addstr(sb, "<h3>");
	html_esc(sb, _(title));
	strbuf_addstr(sb, "</h3>\n");
	if (note) {
		strbuf_addstr(sb, "<p class=\"mut\">");
		html_esc(sb, _(note));
		strbuf_addstr(sb, "</p>\n");
	}
}

void html_section_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</section>\n");
}

/* ---- the node inventory ---- */

/* One row of the inventory: a label and where its value is in a facts document. */
struct inv_row {
	const char *label;
	const char *path;	/* util/json.h jpath(); a scalar, an object or an array */
};

static const struct inv_row inv_rows[] = {
	{ .label = "hostname", .path = "host.hostname" },
	{ .label = "OS", .path = "host.os.pretty_name" },
	{ .label = "kernel", .path = "host.kernel" },
	{ .label = "arch", .path = "host.arch" },
	{ .label = "container", .path = "host.container.kind" },
	{ .label = "CPUs", .path = "host.cpus" },
	{ .label = "NUMA nodes", .path = "host.numa_nodes" },
	{ .label = "GPUs", .path = "gpus" },
	{ .label = "driver", .path = "driver.version" },
	{ .label = "CUDA (nvcc)", .path = "cuda.nvcc.version" },
	{ .label = "NCCL (default)", .path = "nccl.default.path" },
	{ .label = "MASTER_ADDR route", .path = "net.master.source_ifname" },
	{ .label = "interfaces", .path = "net.interfaces" },
	{ .label = "ip_local_port_range", .path = "sysctl.ip_local_port_range" },
	{ .label = "rmem_max", .path = "sysctl.rmem_max" },
	{ .label = "wmem_max", .path = "sysctl.wmem_max" },
	{ .label = "nofile (hard)", .path = "limits.nofile.hard" },
	{ .label = "memlock (hard)", .path = "limits.memlock.hard" },
	{ .label = "/dev/shm bytes", .path = "shm.size_bytes" },
	{ .label = "cloud", .path = "cloud.provider" },
};

/* An interface as "name addr/len,... mtu N" (the facts' own fields, no judgement). */
static void inv_iface(struct strbuf *sb, const json_t *it)
{
	const json_t *a;
	size_t k;
	char num[64];

	strbuf_addstr(sb, str_or(json_string_value(json_object_get(it, "name")), "?"));
	json_array_foreach(json_object_get(it, "addrs"), k, a)
		strbuf_addf(sb, "%s%s/%lld", k ? "," : " ",
			    str_or(json_string_value(json_object_get(a, "addr")), "?"),
			    (long long)json_integer_value(json_object_get(a, "prefixlen")));
	strbuf_addf(sb, " mtu %s", html_numstr(num, sizeof(num), json_object_get(it, "mtu")));
	if (json_is_false(json_object_get(it, "up")))
		strbuf_addstr(sb, " down");
}

/* The value at `path` as plain text (escaped later); "" when absent. */
static void inv_value(struct strbuf *sb, const json_t *facts, const struct inv_row *r)
{
	const json_t *v = jpath(facts, r->path), *x;
	size_t i;
	char num[64];

	if (!v || json_is_null(v))
		return;
	if (json_is_string(v))
		strbuf_addstr(sb, json_string_value(v));
	else if (json_is_number(v))
		strbuf_addstr(sb, html_numstr(num, sizeof(num), v));
	else if (json_is_boolean(v))
		strbuf_addstr(sb, json_is_true(v) ? _("yes") : _("no"));
	else if (json_is_array(v) && !strcmp(r->path, "net.interfaces"))
		json_array_foreach(v, i, x) {
			if (i)
				strbuf_addch(sb, '\n');
			inv_iface(sb, x);
		}
	else if (json_is_array(v) && !strcmp(r->path, "gpus"))
		json_array_foreach(v, i, x)
			strbuf_addf(sb, "%s%s", i ? "\n" : "",
				    str_or(json_string_value(json_object_get(x, "name")), "GPU"));
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			strbuf_addf(sb, "%s%s", i ? " " : "",
				    json_is_string(x) ? json_string_value(x)
				    : html_numstr(num, sizeof(num), x));
	else if (junknown(v))
		strbuf_addf(sb, _("unknown: %s"), junknown(v));
}

void html_inventory(struct strbuf *sb, const json_t *const *facts, const char *const *names,
		    size_t n)
{
	html_section(sb, "inventory", n > 1 ? N_("Nodes side by side") : N_("This node"));
	if (n > 1)
		strbuf_addf(sb, "<p class=\"mut\">%s</p>\n",
			    _("A value that differs from the first node's is marked."));
	strbuf_addstr(sb, "<div class=\"scroll\"><table class=\"inv\">\n<tr><th></th>");
	for (size_t j = 0; j < n; j++) {
		strbuf_addstr(sb, "<th>");
		html_esc(sb, names[j]);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr>\n");
	for (size_t r = 0; r < sizeof(inv_rows) / sizeof(inv_rows[0]); r++) {
		struct strbuf first = STRBUF_INIT;

		strbuf_addstr(sb, "<tr><th>");
		html_esc(sb, _(inv_rows[r].label));
		strbuf_addstr(sb, "</th>");
		for (size_t j = 0; j < n; j++) {
			struct strbuf v = STRBUF_INIT;

			inv_value(&v, facts[j], &inv_rows[r]);
			if (!j)
				strbuf_addstr(&first, v.buf);
			strbuf_addstr(sb, j && strcmp(v.buf, first.buf) ? "<td class=\"diff\">"
				      : "<td>");
			html_esc(sb, v.buf);
			strbuf_addstr(sb, "</td>");
			strbuf_release(&v);
		}
		strbuf_addstr(sb, "</tr>\n");
		strbuf_release(&first);
	}
	strbuf_addstr(sb, "</table></div>\n");
	html_section_end(sb);
}

/* ---- the verdict and the findings ---- */

static void verdict(struct strbuf *sb, const struct findings *fs)
{
	/* verbose: the page lists every folded finding, so the line says no "-v lists them" */
	static const struct render_opts plain = { .verbose = 1 };
	size_t e = findings_count(fs, SEV_ERROR), w = findings_count(fs, SEV_WARN);
	struct strbuf line = STRBUF_INIT, block = STRBUF_INIT;

	render_verdict_line(&line, fs, &plain, NULL);
	strbuf_addf(sb, "<section id=\"verdict\" class=\"verdict sev-%s\">\n<h2>%s</h2>\n"
		    "<p class=\"headline\">", e ? "error" : w ? "warn" : "ok", _("Verdict"));
	html_esc(sb, line.buf);
	strbuf_addstr(sb, "</p>\n");
	if (render_fix_block(fs, e ? SEV_ERROR : SEV_WARN, &block)) {
		strbuf_addstr(sb, "<p>");
		html_esc(sb, e ? _("The fix (as root, on the nodes named; then run the check again):")
			 : _("For the warnings (as root, on the nodes named; then run the check again):"));
		strbuf_addstr(sb, "</p>\n<pre class=\"fix\">");
		html_esc(sb, block.buf);
		strbuf_addstr(sb, "</pre>\n");
	}
	strbuf_addstr(sb, "</section>\n");
	strbuf_release(&line);
	strbuf_release(&block);
}

static void subjects(struct strbuf *sb, const struct finding *f)
{
	/* explain's node is "ranks 0, 3" when it has ranks: said once, by the ranks below */
	if (f->node && !(f->nranks && !strncmp(f->node, "rank", 4))) {
		strbuf_addstr(sb, " \u00b7 ");
		html_esc(sb, f->node);
	}
	if (f->peer) {
		strbuf_addstr(sb, " \u2190 ");
		html_esc(sb, f->peer);
	}
	if (f->ifname) {
		strbuf_addch(sb, ' ');
		html_esc(sb, _("over"));
		strbuf_addch(sb, ' ');
		html_esc(sb, f->ifname);
	}
	for (size_t k = 0; k < f->nranks; k++)
		{
		if (!k)
			strbuf_addf(sb, " \u00b7 %s ", _("rank"));
		strbuf_addf(sb, "%s%d", k ? ", " : "", f->ranks[k]);
	}
}

/*
 * Check lines of reports saved before the rules gave them a "  # " comment: msgids whole, so that
 * `ncclcheck report` shows an older document's check in the reader's language too.
 */
static const char *const old_checks[] __attribute__((unused)) = {
	N_("ncclcheck cluster (re-run after the change)"),
	N_("ncclcheck cluster (with the variables exported) or ncclcheck run -- <your launch command>"),
};

static void one_finding(struct strbuf *sb, const struct finding *f, size_t i)
{
	strbuf_addf(sb, "<article class=\"finding sev-%s%s\" id=\"f%zu\">\n<h4>"
		    "<span class=\"badge b-%s\">%s</span>", sev_word[f->sev],
		    f->caused_by ? " folded" : "", i, sev_word[f->sev], sev_badge(f->sev));
	html_tx(sb, f->title);
	strbuf_addstr(sb, "</h4>\n<p class=\"mut\"><code>");
	html_esc(sb, f->id);
	strbuf_addstr(sb, "</code>");
	subjects(sb, f);
	strbuf_addf(sb, " \u00b7 %s</p>\n", _(conf_word[f->conf]));
	if (f->caused_by) {
		struct strbuf c = STRBUF_INIT;

		render_cause(&c, f->caused_by);
		strbuf_addf(sb, "<p class=\"cause\">%s <code>", _("explained by:"));
		html_esc(sb, c.buf);
		strbuf_addf(sb, "</code> %s</p>\n", _("(not counted on its own)"));
		strbuf_release(&c);
	}
	if (f->nfix) {
		strbuf_addf(sb, "<p>%s</p>\n<pre class=\"fix\">", _("fix:"));
		for (size_t k = 0; k < f->nfix; k++) {
			struct strbuf l = STRBUF_INIT;

			render_fix_l10n(&l, f->fix[k]);
			html_esc(sb, l.buf);
			strbuf_release(&l);
			strbuf_addch(sb, '\n');
		}
		strbuf_addstr(sb, "</pre>\n");
	}
	if (f->why) {
		strbuf_addstr(sb, "<p class=\"why\">");
		html_tx(sb, f->why);
		strbuf_addstr(sb, "</p>\n");
	}
	if (f->nevidence) {
		strbuf_addf(sb, "<p>%s</p>\n<ul class=\"evidence\">\n", _("evidence:"));
		for (size_t k = 0; k < f->nevidence; k++) {
			strbuf_addstr(sb, "<li><code>");
			html_tx(sb, f->evidence[k]);
			strbuf_addstr(sb, "</code></li>\n");
		}
		strbuf_addstr(sb, "</ul>\n");
	}
	if (f->rerun) {
		strbuf_addf(sb, "<p>%s <code>", _("to know more, rerun with:"));
		html_esc(sb, f->rerun);
		strbuf_addstr(sb, "</code></p>\n");
	}
	if (f->check) {
		struct strbuf l = STRBUF_INIT;

		/* a command like a fix line: its comment (or the whole line, a msgid) is translated */
		strbuf_addf(sb, "<p>%s <code>", _("check:"));
		html_esc(sb, render_fix_l10n(&l, f->check));
		strbuf_addstr(sb, "</code></p>\n");
		strbuf_release(&l);
	}
	strbuf_addstr(sb, "</article>\n");
}

static void findings_html(struct strbuf *sb, const struct findings *fs, const json_t *summary)
{
	static const enum severity order[] = { SEV_ERROR, SEV_WARN, SEV_INFO, SEV_OK };
	struct strbuf more = STRBUF_INIT;

	html_section(sb, "findings", N_("Findings"));
	strbuf_addstr(sb, "<p class=\"summary\">");
	for (size_t s = 0; s < 4; s++) {
		const char *key = sev_word[order[s]];

		strbuf_addf(sb, "%s<span class=\"badge b-%s\">%s</span>", s ? " " : "", key,
			    sev_badge(order[s]));
		html_num(sb, json_object_get(summary, key), "/summary/%s", key);
	}
	strbuf_addstr(sb, "</p>\n");
	for (size_t s = 0; s < 4; s++) {
		enum severity sev = order[s];
		size_t nroot = 0, nfold = 0;

		for (size_t i = 0; i < fs->n; i++)
			if (fs->v[i]->sev == sev && fs->v[i]->caused_by)
				nfold++;
			else if (fs->v[i]->sev == sev)
				nroot++;
		if (!nroot && !nfold)
			continue;
		strbuf_addf(sb, "<h3 id=\"sev-%s\">%s (%zu)</h3>\n", sev_word[sev], _(sev_heading[sev]),
			    nroot);
		for (size_t i = 0; i < fs->n; i++)
			if (fs->v[i]->sev == sev && !fs->v[i]->caused_by)
				one_finding(sb, fs->v[i], i);
		if (nfold)
			strbuf_addf(sb, "<p class=\"mut\">%s</p>\n",
				    html_fmt(&more, Q_("%zu more, explained by a root cause above:",
						       "%zu more, each explained by a root cause above:",
						       nfold), nfold));
		for (size_t i = 0; i < fs->n; i++)
			if (fs->v[i]->sev == sev && fs->v[i]->caused_by)
				one_finding(sb, fs->v[i], i);
	}
	html_section_end(sb);
	strbuf_release(&more);
}

/* ---- the page ---- */

int html_page(struct strbuf *sb, const json_t *doc, const struct html_opts *o, char *err,
	      size_t errlen)
{
	const char *verb = json_string_value(json_object_get(doc, "verb"));
	const json_t *farr = json_object_get(doc, "findings");
	struct findings *fs;
	struct strbuf page = STRBUF_INIT;
	char why[256];

	if (!json_is_object(doc) || !verb) {
		snprintf(err, errlen, "not an ncclcheck --json document (no \"verb\")");
		return -1;
	}
	if (json_object_get(doc, "error") && !farr) {
		snprintf(err, errlen, "the document is the error of a run that could not finish: %s",
			 str_or(json_string_value(json_object_get(doc, "error")), "?"));
		return -1;
	}
	fs = findings_new();
	if (farr && findings_from_json(fs, farr, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "its findings do not decode: %s", why);
		findings_free(fs);
		return -1;
	}
	strbuf_addf(&page, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "style-src 'unsafe-inline'; img-src data:\">\n<title>ncclcheck ",
		    i18n_lang() == I18N_ZH ? "zh-CN" : "en");
	html_esc(&page, verb);
	strbuf_addstr(&page, "</title>\n<style>\n");
	strbuf_addstr(&page, css);
	strbuf_addstr(&page, "</style>\n</head>\n<body>\n<header>\n<h1>ncclcheck ");
	html_esc(&page, verb);
	strbuf_addstr(&page, "</h1>\n<p class=\"meta\">");
	html_esc(&page, jpath_str(doc, "tool.name"));
	strbuf_addch(&page, ' ');
	html_esc(&page, jpath_str(doc, "tool.version"));
	strbuf_addf(&page, " \u00b7 %s ", _("schema"));
	html_num(&page, json_object_get(doc, "schema_version"), "/schema_version");
	strbuf_addf(&page, " \u00b7 %s ", _("exit code"));
	html_num(&page, json_object_get(doc, "exit_code"), "/exit_code");
	strbuf_addstr(&page, "</p>\n</header>\n");
	verdict(&page, fs);
	if (!strcmp(verb, "cluster"))
		html_cluster(&page, doc);
	else if (!strcmp(verb, "bench"))
		html_bench(&page, doc, o);
	else if (!strcmp(verb, "explain"))
		html_explain(&page, doc);
	else if (!strcmp(verb, "attach"))
		html_attach(&page, doc);
	else if (json_is_object(json_object_get(doc, "facts"))) {
		const json_t *facts = json_object_get(doc, "facts");
		const char *name = str_or(jpath_str(facts, "host.hostname"), "this node");

		html_inventory(&page, &facts, &name, 1);
	}
	findings_html(&page, fs, json_object_get(doc, "summary"));
	strbuf_addstr(&page, "<footer class=\"mut\"><p>");
	html_esc(&page, _("Rendered from the run's --json document; this page loads nothing and "
			  "runs no script."));
	strbuf_addstr(&page, "</p></footer>\n</body>\n</html>\n");
	strbuf_add(sb, page.buf, page.len);
	strbuf_release(&page);
	findings_free(fs);
	return 0;
}

int html_write_file(const char *path, const json_t *doc, const struct html_opts *o, char *err,
		    size_t errlen)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	FILE *f;
	int rc = -1, bad;

	if (html_page(&sb, doc, o, err, errlen) < 0)
		goto out;
	/* a page half written is not the page: a new file, renamed over the old one */
	strbuf_addf(&tmp, "%s.tmp", path);
	f = fopen(tmp.buf, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", tmp.buf, err_errno_text(errno));
		goto out;
	}
	bad = fwrite(sb.buf, 1, sb.len, f) != sb.len;
	bad |= fclose(f) != 0;	/* closed either way */
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", tmp.buf, err_errno_text(errno));
		remove(tmp.buf);
		goto out;
	}
	if (rename(tmp.buf, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, err_errno_text(errno));
		remove(tmp.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&sb);
	strbuf_release(&tmp);
	return rc;
}
