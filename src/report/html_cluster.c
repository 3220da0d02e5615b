/*
 * The cluster page's sections, from cluster/report.c's document: the reachability matrix per
 * interface (the connect tests), the ephemeral port map (the scans' intervals on 1024-65535),
 * path MTU per link, bandwidth per link against its ceiling, the nodes side by side. Every cell
 * is one link test of the document's "links" (data-l: its index); a state shown is the test's
 * own status, "slow" where a root finding about that link says so.
 */
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/xalloc.h"

#define PORT_LO 1024
#define PORT_HI 65535
#define MAP_W 960	/* the port map's width in px */
#define MAP_LABEL 250	/* its labels' column */
#define MAP_ROW 14

struct cview {
	const json_t *doc, *nodes, *links, *findings;
	size_t n;		/* nodes */
	const char **ifnames;	/* the interfaces of the connect tests, in order of appearance */
	size_t nif;
};

static const char *node_name(const struct cview *v, long long rank)
{
	const char *s = json_string_value(json_object_get(json_array_get(v->nodes, (size_t)rank),
							  "name"));

	return s ? s : "?";
}

static const char *lstr(const json_t *l, const char *key)
{
	return str_or(json_string_value(json_object_get(l, key)), "");
}

/*
 * Whether a root warning or error (not folded) with id `want` is about this pair over this
 * interface, either way round (the slow-link findings name "a <-> b").
 */
static int link_finding(const struct cview *v, const json_t *l, const char *want)
{
	const char *t = lstr(l, "target_name"), *p = lstr(l, "peer_name");
	const json_t *f;
	size_t i;

	json_array_foreach(v->findings, i, f) {
		const char *id = lstr(f, "id"), *sev = lstr(f, "severity");
		const char *fn = lstr(f, "node"), *fp = lstr(f, "peer");

		if (strcmp(id, want) || json_object_get(f, "caused_by") ||
		    (strcmp(sev, "warn") && strcmp(sev, "error")))
			continue;
		if (((!strcmp(fn, t) && !strcmp(fp, p)) || (!strcmp(fn, p) && !strcmp(fp, t))) &&
		    !strcmp(lstr(f, "ifname"), lstr(l, "ifname")))
			return 1;
	}
	return 0;
}

static void collect_ifnames(struct cview *v)
{
	const json_t *l;
	size_t i, alloc = 0;

	json_array_foreach(v->links, i, l) {
		const char *ifn = lstr(l, "ifname");
		int seen = 0;

		if (strcmp(lstr(l, "test"), "connect"))
			continue;
		for (size_t k = 0; k < v->nif; k++)
			seen |= !strcmp(v->ifnames[k], ifn);
		if (seen)
			continue;
		ALLOC_GROW(v->ifnames, v->nif + 1, alloc);
		v->ifnames[v->nif++] = ifn;
	}
}

static int valid_rank(const struct cview *v, const json_t *x)
{
	return json_is_integer(x) && json_integer_value(x) >= 0 &&
	       (size_t)json_integer_value(x) < v->n;
}

/* ---- reachability ---- */

static const char *const cell_mark[][2] = {
	{ "ok", "\u2713" }, { "refused", "R" }, { "timeout", "D" }, { "noroute", "N" },
	{ "hostunreach", "H" }, { "error", "E" },
};

/*
 * The statuses as words of the reader's language in a cell's tooltip (html_tx finds them by
 * their exact msgid): the document's tokens are English words, marked here so they have one.
 */
static const char *const status_words[] __attribute__((unused)) = {
	N_("ok"), N_("refused"), N_("timeout"), N_("noroute"), N_("hostunreach"), N_("error"),
};

/* The row of cell_mark for `status`; NULL for a status no link test writes (a peer's garbage). */
static const char *const *mark_of(const char *status)
{
	for (size_t i = 0; i < sizeof(cell_mark) / sizeof(cell_mark[0]); i++)
		if (!strcmp(status, cell_mark[i][0]))
			return cell_mark[i];
	return NULL;
}

static void matrix_cell(struct strbuf *sb, const struct cview *v, size_t li)
{
	const json_t *l = json_array_get(v->links, li), *r = json_object_get(l, "result");
	const char *st = json_is_true(json_object_get(l, "ran")) ? lstr(r, "status") : "error";
	int slow = !strcmp(st, "ok") && (link_finding(v, l, "link.latency") ||
					  link_finding(v, l, "link.bw.slow_link") ||
					  link_finding(v, l, "link.bw.slow_pair"));
	/* the class is a constant of the table, never the document's string */
	const char *const *mark = mark_of(st);
	char a[64], b[64], c[64];

	struct strbuf f[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };

	strbuf_addf(sb, "<td class=\"c st-%s\" data-l=\"%zu\" title=\"",
		    slow ? "slow" : mark ? mark[0] : "unknown", li);
	html_esc(&f[0], lstr(l, "peer_name"));
	html_esc(&f[1], lstr(l, "target_name"));
	html_esc(&f[2], lstr(r, "addr"));
	html_tx(&f[3], st);
	/* the tooltip is one sentence per case, so that it translates whole */
	if (!json_is_true(json_object_get(l, "ran"))) {
		struct strbuf why = STRBUF_INIT;

		html_tx(&why, lstr(l, "error"));
		html_sentence(sb, _("%s \u2192 %s %s: %s (not run: %s)"), f[0].buf, f[1].buf, f[2].buf,
			      f[3].buf, why.buf);
		strbuf_release(&why);
	} else if (!strcmp(st, "ok")) {
		html_numstr(a, sizeof(a), jpath(r, "rtt_us.p50"));
		html_numstr(b, sizeof(b), jpath(r, "rtt_us.p99"));
		html_numstr(c, sizeof(c), jpath(r, "loss.pct"));
		html_sentence(sb, slow ? _("%s \u2192 %s %s: %s; rtt p50 %s us, p99 %s us; loss %s %%; "
					   "slow (see the findings)")
				       : _("%s \u2192 %s %s: %s; rtt p50 %s us, p99 %s us; loss %s %%"),
			      f[0].buf, f[1].buf, f[2].buf, f[3].buf, a, b, c);
	} else {
		html_sentence(sb, _("%s \u2192 %s %s: %s"), f[0].buf, f[1].buf, f[2].buf, f[3].buf);
	}
	for (size_t i = 0; i < 4; i++)
		strbuf_release(&f[i]);
	strbuf_addf(sb, "\">%s</td>", slow ? "S" : mark ? mark[1] : "?");
}

static void matrix(struct strbuf *sb, const struct cview *v)
{
	size_t *cell = xcalloc(v->n * v->n + 1, sizeof(*cell));

	html_section(sb, "reachability", N_("Reachability (TCP connect), per interface"));
	strbuf_addstr(sb, "<p class=\"legend\">");
	html_esc(sb, _("row: the node that connects; column: the node connected to."));
	strbuf_addstr(sb, " <span class=\"st-ok\">\u2713 ");
	html_esc(sb, _("ok"));
	strbuf_addstr(sb, "</span><span class=\"st-refused\">R ");
	html_esc(sb, _("refused"));
	strbuf_addstr(sb, "</span><span class=\"st-timeout\">D ");
	html_esc(sb, _("dropped (timed out)"));
	strbuf_addstr(sb, "</span><span class=\"st-slow\">S ");
	html_esc(sb, _("slow"));
	strbuf_addstr(sb, "</span><span class=\"st-error\">N/H/E ");
	html_esc(sb, _("no route, host unreachable, error"));
	strbuf_addstr(sb, "</span> ");
	html_esc(sb, _("blank: not tested. Hover a cell for its figures."));
	strbuf_addstr(sb, "</p>\n");
	for (size_t k = 0; k < v->nif; k++) {
		const json_t *l;
		size_t i;

		memset(cell, 0, (v->n * v->n + 1) * sizeof(*cell));
		json_array_foreach(v->links, i, l) {
			const json_t *t = json_object_get(l, "target"), *p = json_object_get(l, "peer");

			if (strcmp(lstr(l, "test"), "connect") || strcmp(lstr(l, "ifname"), v->ifnames[k]) ||
			    !valid_rank(v, t) || !valid_rank(v, p))
				continue;
			cell[(size_t)json_integer_value(p) * v->n + (size_t)json_integer_value(t)] = i + 1;
		}
		strbuf_addstr(sb, "<h3>");
		html_esc(sb, v->ifnames[k]);
		strbuf_addstr(sb, "</h3>\n<div class=\"scroll\"><table class=\"matrix\" data-if=\"");
		html_esc(sb, v->ifnames[k]);
		strbuf_addstr(sb, "\">\n<tr><th>");
		html_esc(sb, _("from \\ to"));
		strbuf_addstr(sb, "</th>");
		for (size_t c = 0; c < v->n; c++) {
			strbuf_addstr(sb, "<th>");
			html_esc(sb, node_name(v, (long long)c));
			strbuf_addstr(sb, "</th>");
		}
		strbuf_addstr(sb, "</tr>\n");
		for (size_t r = 0; r < v->n; r++) {
			strbuf_addstr(sb, "<tr><th>");
			html_esc(sb, node_name(v, (long long)r));
			strbuf_addstr(sb, "</th>");
			for (size_t c = 0; c < v->n; c++)
				if (r == c)
					strbuf_addstr(sb, "<td class=\"st-self\"></td>");
				else if (cell[r * v->n + c])
					matrix_cell(sb, v, cell[r * v->n + c] - 1);
				else
					strbuf_addstr(sb, "<td></td>");
			strbuf_addstr(sb, "</tr>\n");
		}
		strbuf_addstr(sb, "</table></div>\n");
	}
	free(cell);
	html_section_end(sb);
}

/* ---- the port map ---- */

static double port_x(double port)
{
	return html_scale_lin(port, PORT_LO, PORT_HI, MAP_LABEL, MAP_W - 10);
}

static void port_axis(struct strbuf *sb, double y)
{
	static const int ticks[] = { 1024, 16384, 32768, 49152, 65535 };

	strbuf_addf(sb, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		    port_x(PORT_LO), y, port_x(PORT_HI), y);
	for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++)
		strbuf_addf(sb, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%d</text>\n",
			    port_x(ticks[i]), y, port_x(ticks[i]), y + 4, port_x(ticks[i]), y + 15,
			    i + 1 < sizeof(ticks) / sizeof(ticks[0]) ? "middle" : "end", ticks[i]);
}

static void port_row(struct strbuf *sb, const struct cview *v, size_t li, double y)
{
	const json_t *l = json_array_get(v->links, li), *r = json_object_get(l, "result"), *iv;
	size_t k;

	strbuf_addf(sb, "<g data-l=\"%zu\"><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", li,
		    MAP_LABEL - 6, y + MAP_ROW - 3);
	html_esc(sb, lstr(l, "target_name"));
	strbuf_addch(sb, ' ');
	html_esc(sb, lstr(l, "ifname"));
	strbuf_addstr(sb, " \u2190 ");
	html_esc(sb, lstr(l, "peer_name"));
	strbuf_addstr(sb, "</text>\n");
	json_array_foreach(json_object_get(r, "intervals"), k, iv) {
		const json_t *lo = json_object_get(iv, "lo"), *hi = json_object_get(iv, "hi");
		double x0, x1;
		char a[32], b[32];

		if (!json_is_integer(lo) || !json_is_integer(hi))
			continue;
		x0 = port_x((double)json_integer_value(lo));
		x1 = port_x((double)json_integer_value(hi) + 1);
		strbuf_addstr(sb, "<rect class=\"p-");
		html_esc(sb, lstr(iv, "state"));
		strbuf_addf(sb, "\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\"><title>",
			    x0, y + 1, x1 - x0 < 0.5 ? 0.5 : x1 - x0, MAP_ROW - 2);
		strbuf_addf(sb, "%s-%s ", html_numstr(a, sizeof(a), lo),
			    html_numstr(b, sizeof(b), hi));
		html_esc(sb, lstr(iv, "state"));
		strbuf_addstr(sb, "</title></rect>\n");
	}
	strbuf_addstr(sb, "</g>\n");
}

static void port_map(struct strbuf *sb, const struct cview *v)
{
	const json_t *l;
	size_t i, rows = 0;
	double y = 0;

	json_array_foreach(v->links, i, l)
		rows += !strcmp(lstr(l, "test"), "scan") && json_is_true(json_object_get(l, "ran"));
	if (!rows)
		return;
	html_section(sb, "ports", N_("Ephemeral ports, per node and interface (1024-65535)"));
	strbuf_addstr(sb, "<p class=\"legend\">");
	html_esc(sb, _("Each row: the node's ports as a peer's scan found them."));
	strbuf_addstr(sb, " <span class=\"st-ok\">");
	html_esc(sb, _("open"));
	strbuf_addstr(sb, "</span><span class=\"st-refused\">");
	html_esc(sb, _("rejected"));
	strbuf_addstr(sb, "</span><span class=\"st-timeout\">");
	html_esc(sb, _("dropped"));
	strbuf_addstr(sb, "</span><span class=\"st-slow\">");
	html_esc(sb, _("in use"));
	strbuf_addstr(sb, "</span> ");
	html_esc(sb, _("the outline: the node's net.ipv4.ip_local_port_range, where NCCL's "
		       "listeners land."));
	strbuf_addstr(sb, "</p>\n");
	strbuf_addf(sb, "<svg class=\"portmap\" viewBox=\"0 0 %d %.0f\" width=\"%d\" role=\"img\">\n",
		    MAP_W, (double)rows * MAP_ROW + 30, MAP_W);
	for (size_t t = 0; t < v->n; t++)
		json_array_foreach(v->links, i, l) {
			const json_t *rg;

			if (strcmp(lstr(l, "test"), "scan") || !json_is_true(json_object_get(l, "ran")) ||
			    json_integer_value(json_object_get(l, "target")) != (long long)t)
				continue;
			port_row(sb, v, i, y);
			rg = jpath(json_object_get(json_array_get(v->nodes, t), "facts"),
				   "sysctl.ip_local_port_range");
			if (json_is_integer(json_array_get(rg, 0)) &&
			    json_is_integer(json_array_get(rg, 1))) {
				double x0 = port_x((double)json_integer_value(json_array_get(rg, 0)));
				double x1 = port_x((double)json_integer_value(json_array_get(rg, 1)) + 1);

				strbuf_addf(sb, "<rect class=\"p-range\" x=\"%.2f\" y=\"%.1f\" "
					    "width=\"%.2f\" height=\"%d\"><title>ip_local_port_range "
					    "%lld-%lld</title></rect>\n", x0, y + 0.5, x1 - x0, MAP_ROW - 1,
					    (long long)json_integer_value(json_array_get(rg, 0)),
					    (long long)json_integer_value(json_array_get(rg, 1)));
			}
			y += MAP_ROW;
		}
	port_axis(sb, y + 4);
	strbuf_addstr(sb, "</svg>\n");
	html_section_end(sb);
}

/* ---- MTU and bandwidth ---- */

static void link_label(struct strbuf *sb, const json_t *l)
{
	strbuf_addstr(sb, "<td>");
	html_esc(sb, lstr(l, "peer_name"));
	strbuf_addstr(sb, "</td><td>");
	html_esc(sb, lstr(l, "target_name"));
	strbuf_addstr(sb, "</td><td>");
	html_esc(sb, lstr(l, "ifname"));
	strbuf_addstr(sb, "</td>");
}

static void mtu_table(struct strbuf *sb, const struct cview *v)
{
	const json_t *l;
	size_t i;
	int head = 0;

	json_array_foreach(v->links, i, l) {
		const json_t *r = json_object_get(l, "result");

		if (strcmp(lstr(l, "test"), "mtu") || !json_is_true(json_object_get(l, "ran")))
			continue;
		if (!head++) {
			html_section(sb, "mtu", N_("Path MTU per link"));
			strbuf_addstr(sb, "<div class=\"scroll\"><table class=\"mtu\">\n");
			html_th_row(sb, N_("from"), N_("to"), N_("interface"), N_("interface MTU"),
				    N_("path MTU"), N_("ICMP said"), N_("black hole"), NULL);
		}
		strbuf_addf(sb, "<tr data-l=\"%zu\">", i);
		link_label(sb, l);
		strbuf_addstr(sb, "<td>");
		html_num(sb, json_object_get(r, "if_mtu"), "/links/%zu/result/if_mtu", i);
		strbuf_addstr(sb, "</td><td>");
		html_num(sb, json_object_get(r, "path_mtu"), "/links/%zu/result/path_mtu", i);
		strbuf_addstr(sb, "</td><td>");
		html_num(sb, json_object_get(r, "icmp_mtu"), "/links/%zu/result/icmp_mtu", i);
		strbuf_addf(sb, "</td><td>%s</td></tr>\n",
			    json_is_true(json_object_get(r, "blackhole")) ? _("yes") : _("no"));
	}
	if (head) {
		strbuf_addstr(sb, "</table></div>\n");
		html_section_end(sb);
	}
}

static void bw_table(struct strbuf *sb, const struct cview *v)
{
	const json_t *l;
	size_t i;
	double top = 0;
	int head = 0;

	json_array_foreach(v->links, i, l) {
		const json_t *r = json_object_get(l, "result");
		double g = json_number_value(json_object_get(r, "total_gbps"));
		double c = json_number_value(json_object_get(l, "ceiling_gbps"));

		if (!strcmp(lstr(l, "test"), "bw"))
			top = g > top ? g : c > top ? c : top;
	}
	json_array_foreach(v->links, i, l) {
		const json_t *r = json_object_get(l, "result"), *ceil = json_object_get(l, "ceiling_gbps");
		double g = json_number_value(json_object_get(r, "total_gbps"));

		if (strcmp(lstr(l, "test"), "bw") || !json_is_true(json_object_get(l, "ran")))
			continue;
		if (!head++) {
			html_section(sb, "bandwidth", N_("Bandwidth per link against its ceiling"));
			strbuf_addstr(sb, "<p class=\"mut\">");
			html_esc(sb, _("The bar: the measured TCP bandwidth; the red mark: the link's "
				       "ceiling (its line rate at its MTU), when sysfs knows the line "
				       "rate."));
			strbuf_addstr(sb, "</p>\n<div class=\"scroll\"><table class=\"bw\">\n<tr><th>");
			html_esc(sb, _("from"));
			strbuf_addstr(sb, "</th><th>");
			html_esc(sb, _("to"));
			strbuf_addstr(sb, "</th><th>");
			html_esc(sb, _("interface"));
			strbuf_addstr(sb, "</th><th>Gbit/s</th><th>");
			html_esc(sb, _("streams"));
			strbuf_addstr(sb, "</th><th>");
			html_esc(sb, _("ceiling Gbit/s"));
			strbuf_addstr(sb, "</th><th style=\"min-width:320px\"></th></tr>\n");
		}
		strbuf_addf(sb, "<tr data-l=\"%zu\">", i);
		link_label(sb, l);
		strbuf_addstr(sb, "<td>");
		html_num(sb, json_object_get(r, "total_gbps"), "/links/%zu/result/total_gbps", i);
		strbuf_addstr(sb, "</td><td>");
		html_num(sb, json_object_get(r, "streams"), "/links/%zu/result/streams", i);
		strbuf_addstr(sb, "</td><td>");
		html_num(sb, ceil, "/links/%zu/ceiling_gbps", i);
		strbuf_addf(sb, "</td><td><svg viewBox=\"0 0 300 14\" width=\"300\" height=\"14\">"
			    "<rect class=\"bar\" x=\"0\" y=\"2\" width=\"%.1f\" height=\"10\"/>",
			    html_scale_lin(g, 0, top, 0, 296));
		if (json_is_number(ceil))
			strbuf_addf(sb, "<line class=\"ceil\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" "
				    "y2=\"14\"/>", html_scale_lin(json_number_value(ceil), 0, top, 0, 296),
				    html_scale_lin(json_number_value(ceil), 0, top, 0, 296));
		strbuf_addstr(sb, "</svg></td></tr>\n");
	}
	if (head) {
		strbuf_addstr(sb, "</table></div>\n");
		html_section_end(sb);
	}
}

void html_cluster(struct strbuf *sb, const json_t *doc)
{
	struct cview v = {
		.doc = doc,
		.nodes = json_object_get(doc, "nodes"),
		.links = json_object_get(doc, "links"),
		.findings = json_object_get(doc, "findings"),
	};

	v.n = json_array_size(v.nodes);
	collect_ifnames(&v);
	if (v.nif)
		matrix(sb, &v);
	port_map(sb, &v);
	mtu_table(sb, &v);
	bw_table(sb, &v);
	if (v.n) {
		const json_t **facts = xcalloc(v.n, sizeof(*facts));
		const char **names = xcalloc(v.n, sizeof(*names));

		for (size_t i = 0; i < v.n; i++) {
			facts[i] = json_object_get(json_array_get(v.nodes, i), "facts");
			names[i] = node_name(&v, (long long)i);
		}
		html_inventory(sb, facts, names, v.n);
		free(facts);
		free(names);
	}
	free(v.ifnames);
}
