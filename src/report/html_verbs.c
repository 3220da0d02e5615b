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
	{ .place = "out_of_place", .what = "alg_bw", .cls = "l-alg", .label = N_("algbw, out of place") },
	{ .place = "out_of_place", .what = "bus_bw", .cls = "l-bus", .label = N_("busbw, out of place") },
	{ .place = "in_place", .what = "alg_bw", .cls = "l-alg l-cmp", .label = N_("algbw, in place") },
	{ .place = "in_place", .what = "bus_bw", .cls = "l-bus l-cmp", .label = N_("busbw, in place") },
};
/* the run compared with (--compare): its busbw, both placements */
static const struct series cmp_series[] = {
	{ .place = "out_of_place", .what = "bus_bw", .cls = "l-other", .label = N_("busbw, out of place") },
	{ .place = "in_place", .what = "bus_bw", .cls = "l-other l-cmp", .label = N_("busbw, in place") },
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
			struct strbuf label = STRBUF_INIT;

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
			html_esc(&label, _(se[k].label));
			html_sentence(sb, _("%s bytes: %s %s GB/s"),
				      html_numstr(a, sizeof(a), json_object_get(r, "size")), label.buf,
				      html_numstr(b, sizeof(b), v));
			strbuf_addstr(sb, "</title></circle>\n");
			strbuf_release(&label);
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
		    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x0, y0, x1, y0, x0, y0, x0, y1,
		    (x0 + x1) / 2, CH_H - 12);
	html_esc(sb, _("message size (bytes, log)"));
	strbuf_addf(sb, "</text><text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" "
		    "transform=\"rotate(-90 14 %.1f)\">GB/s</text>\n", (y0 + y1) / 2, (y0 + y1) / 2);
	if (json_is_number(cg)) {
		double y = html_scale_lin(json_number_value(cg) / 8, 0, p.ymax, y0, y1);
		char num[64];

		html_numstr(num, sizeof(num), cg);
		strbuf_addf(sb, "<line class=\"l-ceil\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"><title>", x0, y, x1, y);
		html_sentence(sb, _("ceiling %s Gbit/s"), num);
		strbuf_addf(sb, "</title></line><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			    x1, y - 4);
		html_sentence(sb, _("ceiling %s Gbit/s"), num);
		strbuf_addstr(sb, "</text>\n");
	}
	draw(sb, &p, results, series, sizeof(series) / sizeof(series[0]), NULL);
	if (other)
		draw(sb, &p, other, cmp_series, sizeof(cmp_series) / sizeof(cmp_series[0]),
		     other_label ? other_label : _("compared"));
	strbuf_addstr(sb, "</svg>\n<p class=\"legend mut\">");
	if (other) {
		struct strbuf who = STRBUF_INIT;

		html_esc(&who, other_label ? other_label : _("the run compared with"));
		html_sentence(sb, _("solid: out of place, dashed: in place; blue: algbw, green: busbw; "
				    "red dashes: the lowest link's ceiling; orange: busbw of %s."), who.buf);
		strbuf_release(&who);
	} else {
		html_sentence(sb, _("solid: out of place, dashed: in place; blue: algbw, green: busbw; "
				    "red dashes: the lowest link's ceiling."));
	}
	strbuf_addstr(sb, "</p>\n");
}

/* The sweep in one sentence: the test, the backend, busbw average and peak, the lowest ceiling. */
static void headline(struct strbuf *sb, const json_t *b)
{
	struct strbuf f[8] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
			       STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };

	html_esc(&f[0], jstr(b, "test"));
	html_esc(&f[1], jstr(b, "backend"));
	html_num(&f[2], jpath(b, "average_bus_bandwidth.bandwidth"),
		 "/bench/average_bus_bandwidth/bandwidth");
	html_num(&f[3], jpath(b, "ceiling.peak_busbw_gbps"), "/bench/ceiling/peak_busbw_gbps");
	strbuf_addstr(sb, "<p>");
	if (json_is_object(jpath(b, "ceiling.lowest"))) {
		html_num(&f[4], jpath(b, "ceiling.lowest.ceiling_gbps"),
			 "/bench/ceiling/lowest/ceiling_gbps");
		html_esc(&f[5], jpath_str(b, "ceiling.lowest.host"));
		html_esc(&f[6], jpath_str(b, "ceiling.lowest.ifname"));
		html_num(&f[7], jpath(b, "ceiling.peak_pct"), "/bench/ceiling/peak_pct");
		html_sentence(sb, _("%s over %s; average busbw %s GB/s; peak busbw %s Gbit/s; the lowest "
				    "ceiling %s Gbit/s (%s %s), peak at %s %% of it."), f[0].buf, f[1].buf,
			      f[2].buf, f[3].buf, f[4].buf, f[5].buf, f[6].buf, f[7].buf);
	} else {
		html_sentence(sb, _("%s over %s; average busbw %s GB/s; peak busbw %s Gbit/s."),
			      f[0].buf, f[1].buf, f[2].buf, f[3].buf);
	}
	strbuf_addstr(sb, "</p>\n");
	for (size_t i = 0; i < 8; i++)
		strbuf_release(&f[i]);
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
	headline(sb, b);
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
	html_esc(sb, _(label));
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
	{
		struct strbuf n = STRBUF_INIT;

		html_num(&n, json_object_get(doc, "lines"), "/lines");
		html_sentence(sb, _("%s lines read; each rank's events in the order NCCL and torch log "
				    "them (init, the watchdog, the exception), ending with its last "
				    "line."), n.buf);
		strbuf_release(&n);
	}
	strbuf_addstr(sb, "</p>\n");
	json_array_foreach(ranks, i, r) {
		const json_t *wd = json_object_get(r, "watchdog");
		struct strbuf who = STRBUF_INIT, where = STRBUF_INIT;

		strbuf_addstr(sb, "<div class=\"finding rank\"><h4>");
		html_esc(&who, str_or(jstr(r, "label"), "rank ?"));
		if (jstr(r, "host")) {
			html_esc(&where, jstr(r, "host"));
			html_sentence(sb, _("%s on %s"), who.buf, where.buf);
		} else {
			strbuf_addstr(sb, who.buf);
		}
		strbuf_reset(&who);
		strbuf_release(&where);
		strbuf_addstr(sb, "</h4>\n<p class=\"mut\">");
		html_num(&who, json_object_get(r, "lines"), "/ranks/%zu/lines", i);
		html_sentence(sb, _("%s lines"), who.buf);
		strbuf_release(&who);
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
		event(sb, N_("init start"), jpath(r, "init.start"), NULL);
		event(sb, N_("init complete"), jpath(r, "init.complete"), NULL);
		event(sb, N_("Lightning initializing"), jpath(r, "lightning.initializing"), NULL);
		event(sb, N_("Lightning registered"), jpath(r, "lightning.registered"), NULL);
		if (json_is_object(wd)) {
			struct strbuf t = STRBUF_INIT;
			char a[32], b[32];

			strbuf_addf(&t, "SeqNum %s %s, timeout %s ms",
				    html_numstr(a, sizeof(a), json_object_get(wd, "seq")),
				    str_or(jstr(wd, "op"), "?"),
				    html_numstr(b, sizeof(b), json_object_get(wd, "timeout_ms")));
			event(sb, N_("watchdog timeout"), json_object_get(wd, "where"), t.buf);
			strbuf_release(&t);
		}
		event(sb, N_("exception"), jpath(r, "exception.where"), jpath_str(r, "exception.text"));
		event(sb, N_("last line"), jpath(r, "last_line.where"), jpath_str(r, "last_line.text"));
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
	strbuf_addstr(sb, "<p class=\"mut\">");
	{
		struct strbuf t = STRBUF_INIT, v = STRBUF_INIT;

		html_num(&t, json_object_get(poll, "t_ms"), "/ras/polls/%zu/t_ms", pi);
		html_esc(&v, jpath_str(poll, "report.nccl_version"));
		html_sentence(sb, _("From RAS's last report (poll at %s ms, NCCL %s); a marked row is a "
				    "rank an error finding names."), t.buf, v.buf);
		strbuf_release(&t);
		strbuf_release(&v);
	}
	strbuf_addstr(sb, "</p>\n");
	json_array_foreach(jpath(poll, "report.communicators"), i, cm) {
		const json_t *first = json_object_get(json_array_get(json_object_get(cm, "ranks"), 0),
						      "collective_counts");
		struct strbuf hash = STRBUF_INIT, size = STRBUF_INIT, miss = STRBUF_INIT;

		strbuf_addstr(&hash, "<code>");
		html_esc(&hash, jstr(cm, "hash"));
		strbuf_addstr(&hash, "</code>");
		html_num(&size, json_object_get(cm, "size"),
			 "/ras/polls/%zu/report/communicators/%zu/size", pi, i);
		json_array_foreach(json_object_get(cm, "missing_ranks"), k, x) {
			strbuf_addstr(&miss, k ? " " : "");
			html_num(&miss, x, "/ras/polls/%zu/report/communicators/%zu/missing_ranks/%zu",
				 pi, i, k);
		}
		strbuf_addstr(sb, "<p>");
		if (miss.len)
			html_sentence(sb, _("communicator %s, size %s; missing ranks: %s"), hash.buf,
				      size.buf, miss.buf);
		else
			html_sentence(sb, _("communicator %s, size %s"), hash.buf, size.buf);
		strbuf_release(&hash);
		strbuf_release(&size);
		strbuf_release(&miss);
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
		struct strbuf pid = STRBUF_INIT, tid = STRBUF_INIT, where = STRBUF_INIT;

		html_num(&pid, json_object_get(st, "pid"), "%s/pid", base);
		html_num(&tid, json_object_get(th, "tid"), "%s/threads/%zu/tid", base, t);
		html_esc(&where, jstr(th, "where") ? jstr(th, "where") : "");
		strbuf_addstr(sb, "<p>");
		/* a stack the process's own server gave (faulthandler's text), not its memory */
		if (jstr(st, "stack_source") && !strcmp(jstr(st, "stack_source"), "worker_server"))
			html_sentence(sb, _("process %s, thread %s (%s), outermost frame first, from "
					    "torch's WorkerServer:"), pid.buf, tid.buf, where.buf);
		else
			html_sentence(sb, _("process %s, thread %s (%s), outermost frame first:"),
				      pid.buf, tid.buf, where.buf);
		strbuf_release(&pid);
		strbuf_release(&tid);
		strbuf_release(&where);
		strbuf_addstr(sb, "</p>\n<pre>");
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

	/* html_sentence, not html_h3: the apostrophe stays one, as the page always wrote it */
	strbuf_addstr(sb, "<h3>");
	html_sentence(sb, _("Every node's ranks by Python stack"));
	strbuf_addstr(sb, "</h3>\n<p class=\"mut\">");
	html_sentence(sb, _("Their main threads, each read on its own node; the smallest groups are "
			    "the odd ones out."));
	strbuf_addstr(sb, "</p>\n<table class=\"stacks\">\n");
	html_th_row(sb, N_("ranks"), N_("where the main thread is"), NULL);
	json_array_foreach(groups, i, g) {
		strbuf_addstr(sb, "<tr><td>");
		json_array_foreach(json_object_get(g, "ranks"), k, m) {
			struct strbuf id = STRBUF_INIT, node = STRBUF_INIT;

			strbuf_addstr(sb, k ? ", " : "");
			html_esc(&node, jstr(m, "node") ? jstr(m, "node") : "?");
			if (json_is_integer(json_object_get(m, "rank"))) {
				html_num(&id, json_object_get(m, "rank"),
					 "/job_stack_groups/%zu/ranks/%zu/rank", i, k);
				html_sentence(sb, _("rank %s on %s"), id.buf, node.buf);
			} else {
				html_num(&id, json_object_get(m, "pid"),
					 "/job_stack_groups/%zu/ranks/%zu/pid", i, k);
				html_sentence(sb, _("pid %s on %s"), id.buf, node.buf);
			}
			strbuf_release(&id);
			strbuf_release(&node);
		}
		strbuf_addstr(sb, "</td><td>");
		html_esc(sb, jstr(g, "stack") ? jstr(g, "stack") : "");
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		if (json_is_true(json_object_get(n, "answered")))
			continue;
		struct strbuf nr = STRBUF_INIT, name = STRBUF_INIT, why = STRBUF_INIT;

		html_num(&nr, json_object_get(n, "node_rank"), "/nodes/%zu/node_rank", i);
		html_esc(&name, jstr(n, "name") ? jstr(n, "name") : "?");
		html_tx(&why, jstr(n, "error") ? jstr(n, "error") : "?");
		strbuf_addstr(sb, "<p class=\"mut\">");
		html_sentence(sb, _("Node %s (%s) is not in it: %s"), nr.buf, name.buf, why.buf);
		strbuf_addstr(sb, "</p>\n");
		strbuf_release(&nr);
		strbuf_release(&name);
		strbuf_release(&why);
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
