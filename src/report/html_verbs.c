/*
 * The bench, explain and attach pages' sections: bench's bandwidth against message size (a log
 * axis, both placements, the lowest link's ceiling), explain's per-rank timeline of the events
 * the logs hold, attach's verdict and per-rank flight-recorder dumps.
 */
#include <math.h>
#include <string.h>

#include "report/html_int.h"
#include "util/i18n.h"
#include "util/json.h"

#define CH_W 1000	/* the chart's size in px */
#define CH_H 400
#define CH_L 64		/* its margins: left (the y labels), right, top, bottom */
#define CH_R 16
#define CH_T 16
#define CH_B 48

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* ---- bench ---- */

/* One series' points: results[i].<place>.<what> against results[i].size. */
struct series {
	const char *place, *what, *cls, *label;
};

static const struct series series[] = {
	{ .place = "out_of_place", .what = "alg_bw", .cls = "l-alg", .label = "algbw, out of place" },
	{ .place = "out_of_place", .what = "bus_bw", .cls = "l-bus", .label = "busbw, out of place" },
	{ .place = "in_place", .what = "alg_bw", .cls = "l-alg l-cmp", .label = "algbw, in place" },
	{ .place = "in_place", .what = "bus_bw", .cls = "l-bus l-cmp", .label = "busbw, in place" },
};
/* the run compared with (--compare): its busbw, both placements */
static const struct series cmp_series[] = {
	{ .place = "out_of_place", .what = "bus_bw", .cls = "l-other", .label = "busbw, out of place" },
	{ .place = "in_place", .what = "bus_bw", .cls = "l-other l-cmp", .label = "busbw, in place" },
};

struct plot {
	double xmin, xmax, ymax, x0, x1, y0, y1;
};

static void domain(struct plot *p, const json_t *results, const struct series *se, size_t n)
{
	const json_t *r;
	size_t i;

	json_array_foreach(results, i, r) {
		double s = json_number_value(json_object_get(r, "size"));

		if (s > 0 && (!p->xmin || s < p->xmin))
			p->xmin = s;
		p->xmax = s > p->xmax ? s : p->xmax;
		for (size_t k = 0; k < n; k++) {
			double v = json_number_value(jpath(json_object_get(r, se[k].place), se[k].what));

			p->ymax = v > p->ymax ? v : p->ymax;
		}
	}
}

/* The series' lines and points; a point's tooltip is its figures as the document has them. */
static void draw(struct strbuf *sb, const struct plot *p, const json_t *results,
		 const struct series *se, size_t n, const char *who)
{
	const json_t *r;
	size_t i;

	for (size_t k = 0; k < n; k++) {
		strbuf_addf(sb, "<polyline class=\"%s\" points=\"", se[k].cls);
		json_array_foreach(results, i, r) {
			const json_t *v = jpath(json_object_get(r, se[k].place), se[k].what);

			if (json_is_number(v) && json_number_value(json_object_get(r, "size")) > 0)
				strbuf_addf(sb, "%.1f,%.1f ",
					    html_scale_log(json_number_value(json_object_get(r, "size")),
							   p->xmin, p->xmax, p->x0, p->x1),
					    html_scale_lin(json_number_value(v), 0, p->ymax, p->y0, p->y1));
		}
		strbuf_addstr(sb, "\"/>\n");
		json_array_foreach(results, i, r) {
			const json_t *v = jpath(json_object_get(r, se[k].place), se[k].what);
			char a[64], b[64];

			if (!json_is_number(v) || !(json_number_value(json_object_get(r, "size")) > 0))
				continue;
			strbuf_addf(sb, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>",
				    who ? "d-other" : se[k].what[0] == 'a' ? "d-alg" : "d-bus",
				    html_scale_log(json_number_value(json_object_get(r, "size")),
						   p->xmin, p->xmax, p->x0, p->x1),
				    html_scale_lin(json_number_value(v), 0, p->ymax, p->y0, p->y1));
			if (who) {
				html_esc(sb, who);
				strbuf_addstr(sb, ": ");
			}
			strbuf_addf(sb, "%s bytes: %s %s GB/s</title></circle>\n",
				    html_numstr(a, sizeof(a), json_object_get(r, "size")), se[k].label,
				    html_numstr(b, sizeof(b), v));
		}
	}
}

static void chart(struct strbuf *sb, const json_t *results, const json_t *ceiling,
		  const json_t *other, const char *other_label)
{
	const json_t *cg = jpath(ceiling, "lowest.ceiling_gbps");
	struct plot p = { .x0 = CH_L, .x1 = CH_W - CH_R, .y0 = CH_H - CH_B, .y1 = CH_T };
	double x0 = p.x0, x1 = p.x1, y0 = p.y0, y1 = p.y1, step;

	domain(&p, results, series, sizeof(series) / sizeof(series[0]));
	domain(&p, other, cmp_series, sizeof(cmp_series) / sizeof(cmp_series[0]));
	/* the ceiling is in Gbit/s, the results in GB/s (nccl-tests' unit): drawn at gbps / 8 */
	if (json_is_number(cg) && json_number_value(cg) / 8 > p.ymax)
		p.ymax = json_number_value(cg) / 8;
	if (!(p.xmax > 0) || !(p.ymax > 0))
		return;
	if (p.xmin == p.xmax)
		p.xmax = p.xmin * 10;
	step = html_nice_step(p.ymax * 1.02, 5);
	p.ymax = ceil(p.ymax * 1.02 / step) * step;
	strbuf_addf(sb, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" role=\"img\">\n",
		    CH_W, CH_H, CH_W);
	/* the axes: decades of bytes below, GB/s in round steps on the left */
	for (double d = html_decade(p.xmin); d <= p.xmax * 1.0001; d *= 10) {
		double x = html_scale_log(d, p.xmin, p.xmax, x0, x1);

		if (d < p.xmin / 1.0001)
			continue;
		strbuf_addf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
			    x, y0, x, y1, x, y0 + 14, d);
	}
	for (int k = 0; k * step <= p.ymax * (1 + 1e-9); k++) {
		double v = k * step, y = html_scale_lin(v, 0, p.ymax, y0, y1);

		strbuf_addf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			    x0, y, x1, y, x0 - 4, y + 4, v);
	}
	strbuf_addf(sb, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		    "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n"
		    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">message size (bytes, log)</text>"
		    "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">"
		    "GB/s</text>\n", x0, y0, x1, y0, x0, y0, x0, y1, (x0 + x1) / 2, CH_H - 12,
		    (y0 + y1) / 2, (y0 + y1) / 2);
	if (json_is_number(cg)) {
		double y = html_scale_lin(json_number_value(cg) / 8, 0, p.ymax, y0, y1);
		char num[64];

		strbuf_addf(sb, "<line class=\"l-ceil\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"><title>ceiling %s Gbit/s</title></line>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">ceiling %s Gbit/s</text>\n",
			    x0, y, x1, y, html_numstr(num, sizeof(num), cg), x1, y - 4, num);
	}
	draw(sb, &p, results, series, sizeof(series) / sizeof(series[0]), NULL);
	if (other)
		draw(sb, &p, other, cmp_series, sizeof(cmp_series) / sizeof(cmp_series[0]),
		     other_label ? other_label : "compared");
	strbuf_addstr(sb, "</svg>\n<p class=\"legend mut\">solid: out of place, dashed: in place; "
		      "blue: algbw, green: busbw; red dashes: the lowest link's ceiling");
	if (other) {
		strbuf_addstr(sb, "; orange: busbw of ");
		html_esc(sb, other_label ? other_label : "the run compared with");
	}
	strbuf_addstr(sb, ".</p>\n");
}

void html_bench(struct strbuf *sb, const json_t *doc, const struct html_opts *o)
{
	/* a second run: ncclcheck's bench document or nccl-tests' own JSON (the same "results") */
	const json_t *cmp = o && o->compare ? o->compare : NULL;
	const json_t *other = cmp ? json_object_get(json_is_object(json_object_get(cmp, "bench"))
						    ? json_object_get(cmp, "bench") : cmp, "results")
				  : NULL;
	const json_t *b = json_object_get(doc, "bench"), *results = json_object_get(b, "results"), *r;
	size_t i;

	if (!json_is_object(b))
		return;
	html_section(sb, "bench", N_("Bandwidth against message size"));
	strbuf_addstr(sb, "<p>");
	html_esc(sb, jstr(b, "test"));
	strbuf_addstr(sb, " over ");
	html_esc(sb, jstr(b, "backend"));
	strbuf_addstr(sb, "; average busbw ");
	html_num(sb, jpath(b, "average_bus_bandwidth.bandwidth"),
		 "/bench/average_bus_bandwidth/bandwidth");
	strbuf_addstr(sb, " GB/s; peak busbw ");
	html_num(sb, jpath(b, "ceiling.peak_busbw_gbps"), "/bench/ceiling/peak_busbw_gbps");
	strbuf_addstr(sb, " Gbit/s");
	if (json_is_object(jpath(b, "ceiling.lowest"))) {
		strbuf_addstr(sb, "; the lowest ceiling ");
		html_num(sb, jpath(b, "ceiling.lowest.ceiling_gbps"),
			 "/bench/ceiling/lowest/ceiling_gbps");
		strbuf_addstr(sb, " Gbit/s (");
		html_esc(sb, jpath_str(b, "ceiling.lowest.host"));
		strbuf_addch(sb, ' ');
		html_esc(sb, jpath_str(b, "ceiling.lowest.ifname"));
		strbuf_addstr(sb, "), peak at ");
		html_num(sb, jpath(b, "ceiling.peak_pct"), "/bench/ceiling/peak_pct");
		strbuf_addstr(sb, " % of it");
	}
	strbuf_addstr(sb, ".</p>\n");
	chart(sb, results, json_object_get(b, "ceiling"), json_is_array(other) ? other : NULL,
	      o ? o->compare_label : NULL);
	strbuf_addstr(sb, "<div class=\"scroll\"><table class=\"results\">\n");
	html_th_row(sb, N_("bytes"), N_("count"), N_("type"), N_("out of place: time (us)"),
		    "algbw GB/s", "busbw GB/s", N_("wrong"), N_("in place: time (us)"), "algbw GB/s",
		    "busbw GB/s", N_("wrong"), NULL);
	json_array_foreach(results, i, r) {
		static const char *const place[] = { "out_of_place", "in_place" };
		static const char *const what[] = { "time", "alg_bw", "bus_bw", "nwrong" };

		strbuf_addstr(sb, "<tr><td>");
		html_num(sb, json_object_get(r, "size"), "/bench/results/%zu/size", i);
		strbuf_addstr(sb, "</td><td>");
		html_num(sb, json_object_get(r, "count"), "/bench/results/%zu/count", i);
		strbuf_addstr(sb, "</td><td>");
		html_esc(sb, jstr(r, "type"));
		strbuf_addstr(sb, "</td>");
		for (size_t p = 0; p < 2; p++)
			for (size_t w = 0; w < 4; w++) {
				strbuf_addstr(sb, "<td>");
				html_num(sb, jpath(json_object_get(r, place[p]), what[w]),
					 "/bench/results/%zu/%s/%s", i, place[p], what[w]);
				strbuf_addstr(sb, "</td>");
			}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table></div>\n");
	html_section_end(sb);
}

/* ---- explain ---- */

/* One event of a rank's timeline: a label, the log line it was read from, what it says. */
static void event(struct strbuf *sb, const char *label, const json_t *where, const char *text)
{
	if (!json_is_string(where))
		return;
	strbuf_addstr(sb, "<li><b>");
	html_esc(sb, label);
	strbuf_addstr(sb, "</b> <code class=\"mut\">");
	html_esc(sb, json_string_value(where));
	strbuf_addstr(sb, "</code>");
	if (text) {
		strbuf_addstr(sb, "<br><code>");
		html_esc(sb, text);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, "</li>\n");
}

void html_explain(struct strbuf *sb, const json_t *doc)
{
	const json_t *ranks = json_object_get(doc, "ranks"), *r;
	size_t i;

	if (!json_array_size(ranks))
		return;
	html_section(sb, "timeline", N_("Per rank: what the logs say, in order"));
	strbuf_addstr(sb, "<p class=\"mut\">");
	html_num(sb, json_object_get(doc, "lines"), "/lines");
	strbuf_addstr(sb, " lines read; each rank's events in the order NCCL and torch log them "
		      "(init, the watchdog, the exception), ending with its last line.</p>\n");
	json_array_foreach(ranks, i, r) {
		const json_t *wd = json_object_get(r, "watchdog");

		strbuf_addstr(sb, "<div class=\"finding rank\"><h4>");
		html_esc(sb, str_or(jstr(r, "label"), "rank ?"));
		if (jstr(r, "host")) {
			strbuf_addstr(sb, " on ");
			html_esc(sb, jstr(r, "host"));
		}
		strbuf_addstr(sb, "</h4>\n<p class=\"mut\">");
		html_num(sb, json_object_get(r, "lines"), "/ranks/%zu/lines", i);
		strbuf_addstr(sb, " lines");
		if (jstr(r, "nccl_version")) {
			strbuf_addstr(sb, " \u00b7 NCCL ");
			html_esc(sb, jstr(r, "nccl_version"));
		}
		if (json_is_object(json_object_get(r, "bootstrap"))) {
			strbuf_addstr(sb, " \u00b7 bootstrap ");
			html_esc(sb, jpath_str(r, "bootstrap.ifname"));
			strbuf_addch(sb, ' ');
			html_esc(sb, jpath_str(r, "bootstrap.addr"));
		}
		strbuf_addstr(sb, "</p>\n<ol class=\"events\">\n");
		event(sb, "init start", jpath(r, "init.start"), NULL);
		event(sb, "init complete", jpath(r, "init.complete"), NULL);
		event(sb, "Lightning initializing", jpath(r, "lightning.initializing"), NULL);
		event(sb, "Lightning registered", jpath(r, "lightning.registered"), NULL);
		if (json_is_object(wd)) {
			struct strbuf t = STRBUF_INIT;
			char a[32], b[32];

			strbuf_addf(&t, "SeqNum %s %s, timeout %s ms",
				    html_numstr(a, sizeof(a), json_object_get(wd, "seq")),
				    str_or(jstr(wd, "op"), "?"),
				    html_numstr(b, sizeof(b), json_object_get(wd, "timeout_ms")));
			event(sb, "watchdog timeout", json_object_get(wd, "where"), t.buf);
			strbuf_release(&t);
		}
		event(sb, "exception", jpath(r, "exception.where"), jpath_str(r, "exception.text"));
		event(sb, "last line", jpath(r, "last_line.where"), jpath_str(r, "last_line.text"));
		strbuf_addstr(sb, "</ol></div>\n");
	}
	html_section_end(sb);
}

/* ---- attach ---- */

/* Whether a root error finding of the document names `rank` (the rank attach says is behind). */
static int rank_named(const json_t *doc, const json_t *rank)
{
	const json_t *f, *r;
	size_t i, k;

	json_array_foreach(json_object_get(doc, "findings"), i, f) {
		const char *sev = jstr(f, "severity");

		if (!sev || strcmp(sev, "error") || json_object_get(f, "caused_by"))
			continue;
		json_array_foreach(json_object_get(f, "ranks"), k, r)
			if (json_equal((json_t *)r, (json_t *)rank))
				return 1;
	}
	return 0;
}

/* RAS's last report: per communicator, each rank's collective counts (who is behind). */
static void ras_counts(struct strbuf *sb, const json_t *doc)
{
	const json_t *polls = jpath(doc, "ras.polls"), *poll = NULL, *cm, *rk, *x;
	size_t i, pi = 0, k, q;
	const char *op;

	json_array_foreach(polls, i, x)
		if (json_is_object(json_object_get(x, "report"))) {
			poll = x;
			pi = i;
		}
	if (!poll)
		return;
	html_h3(sb, N_("NCCL RAS: each rank's collective counts"), NULL);
	strbuf_addstr(sb, "<p class=\"mut\">From RAS's last report (poll at ");
	html_num(sb, json_object_get(poll, "t_ms"), "/ras/polls/%zu/t_ms", pi);
	strbuf_addstr(sb, " ms, NCCL ");
	html_esc(sb, jpath_str(poll, "report.nccl_version"));
	strbuf_addstr(sb, "); a marked row is a rank an error finding names.</p>\n");
	json_array_foreach(jpath(poll, "report.communicators"), i, cm) {
		const json_t *first = json_object_get(json_array_get(json_object_get(cm, "ranks"), 0),
						      "collective_counts");

		strbuf_addstr(sb, "<p>communicator <code>");
		html_esc(sb, jstr(cm, "hash"));
		strbuf_addstr(sb, "</code>, size ");
		html_num(sb, json_object_get(cm, "size"),
			 "/ras/polls/%zu/report/communicators/%zu/size", pi, i);
		if (json_array_size(json_object_get(cm, "missing_ranks"))) {
			strbuf_addstr(sb, "; missing ranks:");
			json_array_foreach(json_object_get(cm, "missing_ranks"), k, x) {
				strbuf_addch(sb, ' ');
				html_num(sb, x, "/ras/polls/%zu/report/communicators/%zu/missing_ranks/%zu",
					 pi, i, k);
			}
		}
		strbuf_addstr(sb, "</p>\n<div class=\"scroll\"><table class=\"ras\">\n<tr>");
		{
			static const char *const th[] = { N_("rank"), N_("host"), "pid", "GPU",
							  N_("init state"), N_("async error") };

			for (size_t h = 0; h < sizeof(th) / sizeof(th[0]); h++) {
				strbuf_addstr(sb, "<th>");
				html_esc(sb, _(th[h]));
				strbuf_addstr(sb, "</th>");
			}
		}
		json_object_foreach((json_t *)first, op, x) {
			strbuf_addstr(sb, "<th>");
			html_esc(sb, op);
			strbuf_addstr(sb, "</th>");
		}
		strbuf_addstr(sb, "</tr>\n");
		json_array_foreach(json_object_get(cm, "ranks"), k, rk) {
			static const char *const col[] = { "pid", "gpu", "init_state", "async_error" };

			strbuf_addstr(sb, rank_named(doc, json_object_get(rk, "rank"))
				      ? "<tr class=\"behind\"><td>" : "<tr><td>");
			html_num(sb, json_object_get(rk, "rank"),
				 "/ras/polls/%zu/report/communicators/%zu/ranks/%zu/rank", pi, i, k);
			strbuf_addstr(sb, "</td><td>");
			html_esc(sb, jstr(rk, "host"));
			for (q = 0; q < 4; q++) {
				strbuf_addstr(sb, "</td><td>");
				html_num(sb, json_object_get(rk, col[q]),
					 "/ras/polls/%zu/report/communicators/%zu/ranks/%zu/%s", pi, i,
					 k, col[q]);
			}
			json_object_foreach((json_t *)first, op, x) {
				struct strbuf ptr = STRBUF_INIT;

				/* the op's name is a JSON pointer token: ~ and / escaped (RFC 6901) */
				for (const char *c = op; *c; c++)
					strbuf_addstr(&ptr, *c == '~' ? "~0" : *c == '/' ? "~1"
							     : (char[2]){ *c, 0 });
				strbuf_addstr(sb, "</td><td>");
				html_num(sb, json_object_get(json_object_get(rk, "collective_counts"), op),
					 "/ras/polls/%zu/report/communicators/%zu/ranks/%zu/"
					 "collective_counts/%s", pi, i, k, ptr.buf);
				strbuf_release(&ptr);
			}
			strbuf_addstr(sb, "</td></tr>\n");
		}
		strbuf_addstr(sb, "</table></div>\n");
	}
}

/* One process's Python threads, outermost frame first; `base` is its JSON pointer ("" when the
 * document is the process itself, attach --pid's). */
static void py_process(struct strbuf *sb, const json_t *st, const char *base)
{
	const json_t *th, *f;
	size_t t, k;

	json_array_foreach(json_object_get(st, "threads"), t, th) {
		const json_t *frames = json_object_get(th, "frames");

		if (!json_array_size(frames))
			continue;
		strbuf_addstr(sb, "<p>process ");
		html_num(sb, json_object_get(st, "pid"), "%s/pid", base);
		strbuf_addstr(sb, ", thread ");
		html_num(sb, json_object_get(th, "tid"), "%s/threads/%zu/tid", base, t);
		strbuf_addstr(sb, " (");
		html_esc(sb, jstr(th, "where") ? jstr(th, "where") : "");
		strbuf_addstr(sb, "), outermost frame first");
		/* a stack the process's own server gave (faulthandler's text), not its memory */
		if (jstr(st, "stack_source") && !strcmp(jstr(st, "stack_source"), "worker_server"))
			strbuf_addstr(sb, ", from torch's WorkerServer");
		strbuf_addstr(sb, ":</p>\n<pre>");
		json_array_foreach(frames, k, f) {
			html_esc(sb, jstr(f, "file"));
			strbuf_addch(sb, ':');
			html_num(sb, json_object_get(f, "line"), "%s/threads/%zu/frames/%zu/line", base,
				 t, k);
			strbuf_addstr(sb, " in ");
			html_esc(sb, jstr(f, "function"));
			strbuf_addch(sb, '\n');
		}
		strbuf_addstr(sb, "</pre>\n");
	}
}

/* attach --all-nodes: every node's ranks by stack (the odd ones out last), then who is not in it. */
static void job_stacks(struct strbuf *sb, const json_t *doc)
{
	const json_t *groups = json_object_get(doc, "job_stack_groups"), *g, *m, *n;
	size_t i, k;

	strbuf_addstr(sb, "<h3>Every node's ranks by Python stack</h3>\n<p class=\"mut\">Their main "
		      "threads, each read on its own node; the smallest groups are the odd ones "
		      "out.</p>\n<table class=\"stacks\">\n<tr><th>ranks</th>"
		      "<th>where the main thread is</th></tr>\n");
	json_array_foreach(groups, i, g) {
		strbuf_addstr(sb, "<tr><td>");
		json_array_foreach(json_object_get(g, "ranks"), k, m) {
			strbuf_addstr(sb, k ? ", " : "");
			if (json_is_integer(json_object_get(m, "rank"))) {
				strbuf_addstr(sb, "rank ");
				html_num(sb, json_object_get(m, "rank"),
					 "/job_stack_groups/%zu/ranks/%zu/rank", i, k);
			} else {
				strbuf_addstr(sb, "pid ");
				html_num(sb, json_object_get(m, "pid"),
					 "/job_stack_groups/%zu/ranks/%zu/pid", i, k);
			}
			strbuf_addstr(sb, " on ");
			html_esc(sb, jstr(m, "node") ? jstr(m, "node") : "?");
		}
		strbuf_addstr(sb, "</td><td>");
		html_esc(sb, jstr(g, "stack") ? jstr(g, "stack") : "");
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		if (json_is_true(json_object_get(n, "answered")))
			continue;
		strbuf_addstr(sb, "<p class=\"mut\">Node ");
		html_num(sb, json_object_get(n, "node_rank"), "/nodes/%zu/node_rank", i);
		strbuf_addstr(sb, " (");
		html_esc(sb, jstr(n, "name") ? jstr(n, "name") : "?");
		strbuf_addstr(sb, ") is not in it: ");
		html_esc(sb, jstr(n, "error") ? jstr(n, "error") : "?");
		strbuf_addstr(sb, "</p>\n");
	}
}

/* The local ranks' Python stacks: the groups (the odd ones out last), then each process. */
static void py_stacks(struct strbuf *sb, const json_t *doc)
{
	const json_t *groups = json_object_get(doc, "stack_groups"), *g, *p, *st;
	size_t i, k;

	if (json_object_get(doc, "nodes"))
		job_stacks(sb, doc);
	if (json_array_size(groups)) {
		html_h3(sb, N_("Local ranks by Python stack"),
			N_("Their main threads, read from their memory; the smallest groups are the "
			   "odd ones out."));
		strbuf_addstr(sb, "<table class=\"stacks\">\n");
		html_th_row(sb, "pids", N_("where the main thread is"), NULL);
		json_array_foreach(groups, i, g) {
			strbuf_addstr(sb, "<tr><td>");
			json_array_foreach(json_object_get(g, "pids"), k, p) {
				strbuf_addstr(sb, k ? ", " : "");
				html_num(sb, p, "/stack_groups/%zu/pids/%zu", i, k);
			}
			strbuf_addstr(sb, "</td><td>");
			html_esc(sb, jstr(g, "stack"));
			strbuf_addstr(sb, "</td></tr>\n");
		}
		strbuf_addstr(sb, "</table>\n");
	}
	json_array_foreach(json_object_get(doc, "stacks"), i, st) {
		char base[32];

		snprintf(base, sizeof(base), "/stacks/%zu", i);
		py_process(sb, st, base);
	}
}

void html_attach(struct strbuf *sb, const json_t *doc)
{
	const json_t *dumps = jpath(doc, "flight_recorder.dumps"), *d, *st;
	size_t i, k;

	html_section(sb, "attach", N_("The job as attach found it"));
	if (jstr(doc, "verdict")) {
		strbuf_addstr(sb, "<p class=\"headline\">");
		html_tx(sb, jstr(doc, "verdict"));
		strbuf_addstr(sb, "</p>\n");
	}
	ras_counts(sb, doc);
	if (json_array_size(dumps)) {
		html_h3(sb, N_("Flight recorder: each rank's collective sequence numbers"),
			N_("Per process group, as each rank's dump states them; a marked row is a rank "
			   "an error finding names."));
		strbuf_addstr(sb, "<div class=\"scroll\"><table class=\"fr\">\n");
		html_th_row(sb, N_("rank"), N_("process group"), N_("last enqueued"),
			    N_("last started"), N_("last completed"), N_("entries"), N_("version"),
			    N_("dump"), NULL);
		json_array_foreach(dumps, i, d) {
			size_t n = json_array_size(json_object_get(d, "pg_status"));

			for (k = 0; k < (n ? n : 1); k++) {
				static const char *const seq[] = { "last_enqueued", "last_started",
								   "last_completed" };

				st = json_array_get(json_object_get(d, "pg_status"), k);
				strbuf_addstr(sb, rank_named(doc, json_object_get(d, "rank"))
					      ? "<tr class=\"behind\"><td>" : "<tr><td>");
				html_num(sb, json_object_get(d, "rank"),
					 "/flight_recorder/dumps/%zu/rank", i);
				strbuf_addstr(sb, "</td><td>");
				html_esc(sb, jstr(st, "pg_id"));
				for (size_t q = 0; q < 3; q++) {
					strbuf_addstr(sb, "</td><td>");
					html_num(sb, json_object_get(st, seq[q]),
						 "/flight_recorder/dumps/%zu/pg_status/%zu/%s", i, k,
						 seq[q]);
				}
				strbuf_addstr(sb, "</td><td>");
				html_num(sb, json_object_get(d, "entries"),
					 "/flight_recorder/dumps/%zu/entries", i);
				strbuf_addstr(sb, "</td><td>");
				html_esc(sb, jstr(d, "version"));
				strbuf_addstr(sb, "</td><td><code>");
				html_esc(sb, jstr(d, "path"));
				strbuf_addstr(sb, "</code></td></tr>\n");
			}
		}
		strbuf_addstr(sb, "</table></div>\n");
	}
	/* attach --pid's document is one process: the same rendering as one rank's */
	if (json_is_array(json_object_get(doc, "threads")))
		py_process(sb, doc, "");
	else
		py_stacks(sb, doc);
	html_section_end(sb);
}
