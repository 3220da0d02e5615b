/*
 * The one writer of `bench`'s collective output: nccl-tests' header, columns, rows and footer
 * (v2.17.3+ layout, see research/bench-anchors.md §1.7), so scripts that read all_reduce_perf
 * read ncclcheck too; and the same figures as JSON (nccl-tests' -J shape, inside the verb's
 * document). Rows stream out as they are measured.
 */
#ifndef NCCLCHECK_REPORT_BENCH_H
#define NCCLCHECK_REPORT_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

struct bench_device {
	int rank, group, pid;
	char host[64];
	int device;
	unsigned pci_domain, pci_bus, pci_dev;
	char name[96];
};

struct bench_meta {
	const char *perf;    /* "all_reduce_perf" */
	const char *backend; /* "tcp" | "nccl" */
	int lib_version;     /* NCCL's version code, 0 for tcp */
	int nthreads, ngpus;
	size_t minbytes, maxbytes, step;
	int step_factor; /* step is a factor (-f) rather than bytes (-i) */
	int warmup, iters, agg, check, graph, unalign;
	const struct bench_device *devs;
	size_t ndevs;
};

struct bench_half {
	double time_us, algbw, busbw;
	int64_t wrong; /* summed over ranks */
	int checked;   /* 0: #wrong prints N/A (-c 0) */
};

struct bench_row {
	size_t bytes, count;
	const char *type, *redop;
	int root;
	int has_oop, has_ip;
	struct bench_half oop, ip;
};

struct bench_report;

/* `out` NULL: JSON only (bench_report_json at the end). */
struct bench_report *bench_report_new(FILE *out, const struct bench_meta *m);
void bench_report_free(struct bench_report *r);
/* The column header (after the device lines and any notes). */
void bench_report_columns(struct bench_report *r);
void bench_report_row(struct bench_report *r, const struct bench_row *row);
/* A "# text" comment line (what NCCL chose, a tuning note); also kept for the JSON. */
void bench_report_note(struct bench_report *r, const char *text);
/* The footer; returns the "Out of bounds values" count (rows x placements with #wrong > 0). */
int bench_report_footer(struct bench_report *r);
double bench_report_avg_busbw(const struct bench_report *r);
/* The highest busbw of any row and placement. */
double bench_report_peak_busbw(const struct bench_report *r);
/* A "# text" line for the footer, after "Avg bus bandwidth" (call before the footer). */
void bench_report_footer_line(struct bench_report *r, const char *text);
/* An extra member of the JSON object (e.g. "ceiling"); takes the reference. */
void bench_report_json_set(struct bench_report *r, const char *key, json_t *v);
/* nccl-tests' JSON shape: {config, devices, results[], out_of_bounds, average_bus_bandwidth}. */
json_t *bench_report_json(const struct bench_report *r);

/* nccl-tests' getFloatStr: %.2f, else %.1f, %.0f, %.1e (width >= 7) / %.0e to fit `width`. */
void bench_float_str(double v, int width, char *buf, size_t len);

#endif
