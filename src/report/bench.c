/*
 * nccl-tests' output format for bench, text and JSON, from one set of rows. The lines nccl-tests
 * prints ("# nThread", "# Using devices", "#  Rank", the column header, "# Out of bounds values",
 * "# Avg bus bandwidth", "# Collective test starting/concluded") are the format that scripts grep
 * and parse: they stay as nccl-tests writes them in every language. ncclcheck's own lines (its
 * banner, the notes, the lines under the footer, a CPU device's name) are prose: stored English
 * (the JSON) and printed in the reader's language.
 */
#include "report/bench.h"

#include <stdlib.h>
#include <string.h>

#include "ncclcheck.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct bench_report {
	FILE *out;
	struct bench_meta m;
	struct bench_device *devs;
	json_t *rows, *notes, *tail, *extra;
	double bw_sum, bw_peak;
	size_t bw_n;
	int oob;
};

/* "# " and one of ncclcheck's own lines, put into the reader's language. */
static void prose_line(FILE *out, const char *text)
{
	struct strbuf t = STRBUF_INIT;

	i18n_text(&t, text);
	fprintf(out, "# %s\n", t.buf);
	fflush(out);
	strbuf_release(&t);
}

void bench_float_str(double v, int width, char *buf, size_t len)
{
	static const char *const fixed[] = {"%*.2f", "%*.1f", "%*.0f"};

	for (size_t i = 0; i < 3; i++)
		if (snprintf(buf, len, fixed[i], width, v) <= width)
			return;
	snprintf(buf, len, width >= 7 ? "%*.1e" : "%*.0e", width, v);
}

struct bench_report *bench_report_new(FILE *out, const struct bench_meta *m)
{
	struct bench_report *r = xcalloc(1, sizeof(*r));

	r->out = out;
	r->m = *m;
	if (m->ndevs) {
		r->devs = xcalloc(m->ndevs, sizeof(*r->devs));
		memcpy(r->devs, m->devs, m->ndevs * sizeof(*r->devs));
	}
	r->m.devs = r->devs;
	r->rows = json_array();
	r->notes = json_array();
	r->tail = json_array();
	r->extra = json_object();
	if (!out)
		return r;
	fputs("# ", out);
	fprintf(out, _("ncclcheck %s bench, nccl-tests format, backend %s"), NCCLCHECK_VERSION,
	        m->backend);
	if (m->lib_version)
		fprintf(out, " nccl-library=%d", m->lib_version);
	fputc('\n', out);
	fprintf(out, "# Collective test starting: %s\n", m->perf);
	fprintf(out,
	        "# nThread %d nGpus %d minBytes %zu maxBytes %zu step: %zu(%s) warmup iters: %d "
	        "iters: %d agg iters: %d validation: %d graph: %d unalign: %d\n",
	        m->nthreads, m->ngpus, m->minbytes, m->maxbytes, m->step,
	        m->step_factor ? "factor" : "bytes", m->warmup, m->iters, m->agg, m->check,
	        m->graph, m->unalign);
	fputs("#\n# Using devices\n", out);
	for (size_t i = 0; i < m->ndevs; i++) {
		const struct bench_device *d = &m->devs[i];
		struct strbuf name = STRBUF_INIT;

		i18n_text(&name, d->name);
		fprintf(out,
		        "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s\n",
		        d->rank, d->group, d->pid, d->host, d->device, d->pci_domain, d->pci_bus,
		        d->pci_dev, name.buf);
		strbuf_release(&name);
	}
	fflush(out);
	return r;
}

void bench_report_free(struct bench_report *r)
{
	if (!r)
		return;
	json_decref(r->rows);
	json_decref(r->notes);
	json_decref(r->tail);
	json_decref(r->extra);
	free(r->devs);
	free(r);
}

void bench_report_columns(struct bench_report *r)
{
	if (!r->out)
		return;
	fprintf(r->out, "#\n");
	fprintf(r->out,
	        "# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
	        "in-place          \n",
	        "", "", "", "", "");
	fprintf(r->out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n",
	        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
	        "time", "algbw", "busbw", "#wrong", 0, "");
	fprintf(r->out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n",
	        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)",
	        "(GB/s)", "", 0, "");
	fflush(r->out);
}

void bench_report_note(struct bench_report *r, const char *text)
{
	json_array_append_new(r->notes, json_string(text));
	if (r->out)
		prose_line(r->out, text);
}

static void half_text(FILE *out, const struct bench_half *h)
{
	char t[16], a[16], b[16];

	bench_float_str(h->time_us, 7, t, sizeof(t));
	bench_float_str(h->algbw, 6, a, sizeof(a));
	bench_float_str(h->busbw, 6, b, sizeof(b));
	if (h->checked)
		fprintf(out, "  %7s  %6s  %6s  %6g", t, a, b, (double)h->wrong);
	else
		fprintf(out, "  %7s  %6s  %6s    N/A", t, a, b);
}

static json_t *half_json(const struct bench_half *h)
{
	return json_pack("{s:f, s:f, s:f, s:o}", "time", h->time_us, "alg_bw", h->algbw, "bus_bw",
	                 h->busbw, "nwrong",
	                 h->checked ? json_real((double)h->wrong) : json_null());
}

static void account(struct bench_report *r, const struct bench_half *h)
{
	r->bw_sum += h->busbw;
	r->bw_n++;
	if (h->busbw > r->bw_peak)
		r->bw_peak = h->busbw;
	if (h->checked && h->wrong)
		r->oob++;
}

void bench_report_row(struct bench_report *r, const struct bench_row *row)
{
	char root[16];
	json_t *j;

	snprintf(root, sizeof(root), "%6i", row->root);
	j = json_pack("{s:I, s:I, s:s, s:s, s:s}", "size", (json_int_t)row->bytes, "count",
	              (json_int_t)row->count, "type", row->type, "redop", row->redop, "root", root);
	json_object_set_new(j, "out_of_place", row->has_oop ? half_json(&row->oop) : json_null());
	json_object_set_new(j, "in_place", row->has_ip ? half_json(&row->ip) : json_null());
	json_array_append_new(r->rows, j);
	if (row->has_oop)
		account(r, &row->oop);
	if (row->has_ip)
		account(r, &row->ip);
	if (!r->out)
		return;
	fprintf(r->out, "%12zu  %12zu  %8s  %6s  %6s", row->bytes, row->count, row->type,
	        row->redop, root);
	if (row->has_oop)
		half_text(r->out, &row->oop);
	else
		fputs("                                ", r->out);
	if (row->has_ip)
		half_text(r->out, &row->ip);
	fputc('\n', r->out);
	fflush(r->out);
}

double bench_report_avg_busbw(const struct bench_report *r)
{
	return r->bw_n ? r->bw_sum / (double)r->bw_n : 0;
}

double bench_report_peak_busbw(const struct bench_report *r)
{
	return r->bw_peak;
}

void bench_report_footer_line(struct bench_report *r, const char *text)
{
	json_array_append_new(r->tail, json_string(text));
}

void bench_report_json_set(struct bench_report *r, const char *key, json_t *v)
{
	json_object_set_new(r->extra, key, v);
}

int bench_report_footer(struct bench_report *r)
{
	if (r->out) {
		size_t i;
		json_t *t;
		fprintf(r->out, "# %-20s : %d %s\n", "Out of bounds values", r->oob,
		        r->oob ? "FAILED" : "OK");
		fprintf(r->out, "# %-20s : %g %s\n", "Avg bus bandwidth", bench_report_avg_busbw(r),
		        "");
		json_array_foreach(r->tail, i, t)
			prose_line(r->out, json_string_value(t));
		fprintf(r->out, "#\n# Collective test concluded: %s\n#\n", r->m.perf);
		fflush(r->out);
	}
	return r->oob;
}

json_t *bench_report_json(const struct bench_report *r)
{
	const struct bench_meta *m = &r->m;
	json_t *cfg, *devs = json_array();

	for (size_t i = 0; i < m->ndevs; i++) {
		const struct bench_device *d = &m->devs[i];
		char hex[32];
		snprintf(hex, sizeof(hex), "%04x:%02x:%02x", d->pci_domain, d->pci_bus, d->pci_dev);
		json_array_append_new(devs, json_pack("{s:i, s:i, s:i, s:s, s:i, s:s, s:s}", "rank",
		                                      d->rank, "group", d->group, "pid", d->pid,
		                                      "hostname", d->host, "device", d->device,
		                                      "device_hex", hex, "device_info", d->name));
	}
	cfg = json_pack("{s:i, s:i, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:o}", "nthreads",
	                m->nthreads, "ngpus", m->ngpus, "minimum_bytes", (json_int_t)m->minbytes,
	                "maximum_bytes", (json_int_t)m->maxbytes,
	                m->step_factor ? "step_factor" : "step_bytes", (json_int_t)m->step,
	                "warmup_iters", m->warmup, "iterations", m->iters, "aggregated_iterations",
	                m->agg, "validation", m->check, "graph", m->graph, "devices", devs);
	json_t *doc = json_pack("{s:s, s:s, s:i, s:o, s:O, s:O, s:{s:i, s:b}, s:{s:f, s:s}}",
	                        "test", m->perf, "backend", m->backend, "nccl_version",
	                        m->lib_version, "config", cfg, "results", r->rows, "notes", r->notes,
	                        "out_of_bounds", "count", r->oob, "okay", r->oob == 0,
	                        "average_bus_bandwidth", "bandwidth", bench_report_avg_busbw(r),
	                        "okay", "unchecked");

	json_object_update(doc, r->extra);
	return doc;
}
