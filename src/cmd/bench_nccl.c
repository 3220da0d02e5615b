/* ncclcheck bench --backend nccl (real NCCL through dlopen) and bench tune. See bench_int.h. */
#include "cmd/cmd.h"
#include "cmd/bench_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/links.h"
#include "coll/nccl.h"
#include "coll/nccl_log.h"
#include "coll/tune.h"
#include "launch/vars.h"
#include "rules/bench.h"
#include "ncclcheck.h"
#include "probe/probe.h"
#include "util/xalloc.h"

struct nccl_ctx {
	const struct bench_args *a;
	struct bench_report *rep;
	struct row_ctx rc;
	struct bench_device *devs;
	size_t ndevs;
	int version;
	char path[512];
	char net[32], ifname[32]; /* from "NCCL chose: network Socket over [0]eth1:..." */
	int uses_net;             /* some transport is NET/ (else all inside the host) */
};

static void nccl_on_version(void *arg, int code, const char *path)
{
	struct nccl_ctx *n = arg;

	n->version = code;
	snprintf(n->path, sizeof(n->path), "%s", path);
}

static void nccl_on_devices(void *arg, const struct nccl_device *d, size_t nd)
{
	struct nccl_ctx *n = arg;
	const struct bench_args *a = n->a;
	struct bench_meta m;

	n->devs = xcalloc(nd + 1, sizeof(*n->devs));
	for (size_t i = 0; i < nd; i++) {
		struct bench_device *b = &n->devs[i];
		b->rank = d[i].rank;
		b->pid = d[i].pid;
		b->device = d[i].device;
		b->pci_domain = d[i].pci_domain;
		b->pci_bus = d[i].pci_bus;
		b->pci_dev = d[i].pci_dev;
		snprintf(b->host, sizeof(b->host), "%.*s", (int)sizeof(d[i].host) - 1, d[i].host);
		snprintf(b->name, sizeof(b->name), "%.*s", (int)sizeof(d[i].name) - 1, d[i].name);
	}
	n->ndevs = nd;
	m = bench_meta_from_args(a, "nccl", n->devs, nd);
	m.lib_version = n->version;
	m.ngpus = a->so.nlocal;
	n->rep = bench_report_new(a->json ? NULL : stdout, &m);
	n->rc.rep = n->rep;
	if (n->path[0]) {
		char note[600];
		snprintf(note, sizeof(note), N_("NCCL %d.%d.%d from %s"), n->version / 10000,
		         n->version / 100 % 100, n->version % 100, n->path);
		bench_report_note(n->rep, note);
	}
	bench_report_columns(n->rep);
}

static int nccl_on_row(void *arg, const struct coll_row *row)
{
	struct nccl_ctx *n = arg;

	return n->rep ? bench_on_row(&n->rc, row) : 0;
}

static void nccl_on_note(void *arg, const char *text)
{
	struct nccl_ctx *n = arg;

	nccl_log_note_net(text, n->net, sizeof(n->net), n->ifname, sizeof(n->ifname),
	                  &n->uses_net);
	if (n->rep)
		bench_report_note(n->rep, text);
}

/* The copy torch loads, from the probes (the same facts 'node' reports), else the default. */
static const char *pick_nccl(const struct bench_args *a, const struct envmap *env, char *buf,
                             size_t len)
{
	struct probe_ctx po;
	struct python_run *py;
	const char *how;
	json_t *facts;

	if (a->nccl_path) {
		snprintf(buf, len, "%s", a->nccl_path);
		return "--nccl";
	}
	if (envmap_get(env, "NCCLCHECK_NCCL_LIB")) {
		snprintf(buf, len, "%s", envmap_get(env, "NCCLCHECK_NCCL_LIB"));
		return "NCCLCHECK_NCCL_LIB";
	}
	probe_ctx_init(&po, env);
	probe_ctx_knobs(&po, env);
	facts = json_object();
	py = probe_python_start(&po);
	probe_nccl_libs(&po, facts);
	probe_python_finish(py, &po, facts);
	probe_nccl_libs_site(&po, facts);
	how = coll_nccl_pick_lib(facts, buf, len);
	json_decref(facts);
	return how;
}

/*
 * Rank 0's end of NCCL's network path, from what NCCL's log said it chose (only rank 0 hears
 * the notes): a socket interface's ceiling from sysfs; IB, or no NET transport, say why not.
 */
static void nccl_link(const struct nccl_ctx *n, struct ceiling_link *l)
{
	char host[64] = "";

	gethostname(host, sizeof(host) - 1);
	if (!strcmp(n->net, "Socket") && n->ifname[0] && n->uses_net) {
		ceiling_link_of_ifname(n->a->sysnet, n->ifname, 0, 0, host, l);
		return;
	}
	memset(l, 0, sizeof(*l));
	snprintf(l->host, sizeof(l->host), "%s", host);
	snprintf(l->ifname, sizeof(l->ifname), "%.15s", n->ifname);
	if (!n->uses_net)
		snprintf(l->why, sizeof(l->why), "%s", N_("NCCL's log shows no NET transport: every "
							   "byte moved inside the host (P2P/SHM), not "
							   "over a link"));
	else if (n->net[0])
		snprintf(l->why, sizeof(l->why), n->ifname[0] ?
			 N_("NCCL uses network %s over %s: only a socket interface's rate is read") :
			 N_("NCCL uses network %s%s: only a socket interface's rate is read"),
			 n->net, n->ifname);
	else
		snprintf(l->why, sizeof(l->why), "%s", N_("NCCL's log does not say which network it used"));
}

int bench_run_nccl(const struct bench_args *a, const struct envmap *env, const struct boot_opts *bo)
{
	struct nccl_ctx n = {.a = a};
	struct ceiling_link link;
	struct findings *fs;
	struct nccl_sink sink = {.arg = &n,
	                         .version = nccl_on_version,
	                         .devices = nccl_on_devices,
	                         .row = nccl_on_row,
	                         .note = nccl_on_note};
	struct nccl_opts no = {.cuda_path = a->cuda_path ? a->cuda_path
	                                                 : envmap_get(env, "NCCLCHECK_CUDA_LIB"),
	                       .timeout_ms = a->timeout_s * 1000,
	                       .env = env,
	                       .log_dir = envmap_get(env, "TMPDIR")};
	struct err e = ERR_INIT;
	char lib[1024];
	const char *how, *lr = envmap_get(env, lv_name(LV_LOCAL_RANK));
	struct boot *b;
	long v;
	int rc;

	n.rc.a = a;
	how = pick_nccl(a, env, lib, sizeof(lib));
	no.nccl_path = how ? lib : NULL;
	if (lr && cli_parse_long(lr, 0, 1024, &v) == 0)
		no.first_device = (int)v * a->so.nlocal;
	b = boot_new(bo, &e);
	if (!b) {
		error("rank %d: %s", bo->rank, e.msg);
		return e.code == ERR_USAGE ? EXIT_USAGE : EXIT_CANNOT_RUN;
	}
	rc = coll_nccl_bench(&no, &a->so, b, &sink, &e);
	if (rc < 0) {
		error("rank %d: %s", boot_rank(b), e.msg);
		if (e.code == ERR_NOTFOUND)
			fputs(_("hint: 'bench allreduce --backend tcp' measures the network without "
				"GPUs; 'ncclcheck node' shows which NCCL and driver this machine "
				"has\n"),
			      stderr);
		boot_drop(b);
		free(n.devs);
		bench_report_free(n.rep);
		return EXIT_CANNOT_RUN;
	}
	boot_free(b);
	if (!n.rep) {
		free(n.devs);
		return EXIT_CLEAN;
	}
	fs = findings_new();
	nccl_link(&n, &link);
	bench_add_ceiling(n.rep, &link, 1, 1, fs);
	bench_report_footer(n.rep);
	rc = bench_finish(a, n.rep, n.rc.wrong, EXIT_CLEAN, fs);
	bench_report_free(n.rep);
	free(n.devs);
	return rc;
}

/* bench tune: every configuration, --repeat times, on one bootstrap; rank 0 judges. */
struct tune_sink {
	double sum;
	size_t n;
};

static int tune_on_row(void *arg, const struct coll_row *row)
{
	struct tune_sink *t = arg;

	t->sum += row->busbw[0] + row->busbw[1];
	t->n += 2;
	return 0;
}

int bench_run_tune(const struct bench_args *a, const struct envmap *env, const struct boot_opts *bo,
		   int repeat)
{
	size_t ncfg;
	const struct tune_config *cfg = tune_configs(&ncfg);
	struct tune_result *res = xcalloc(ncfg, sizeof(*res));
	struct nccl_opts no = {.cuda_path = a->cuda_path ? a->cuda_path
	                                                 : envmap_get(env, "NCCLCHECK_CUDA_LIB"),
	                       .timeout_ms = a->timeout_s * 1000,
	                       .log_dir = envmap_get(env, "TMPDIR")};
	struct findings *fs;
	struct err e = ERR_INIT;
	char lib[1024];
	struct boot *b;
	double spread;
	int rc = EXIT_CLEAN;

	no.nccl_path = pick_nccl(a, env, lib, sizeof(lib)) ? lib : NULL;
	b = boot_new(bo, &e);
	if (!b) {
		error("rank %d: %s", bo->rank, e.msg);
		free(res);
		return e.code == ERR_USAGE ? EXIT_USAGE : EXIT_CANNOT_RUN;
	}
	for (size_t c = 0; c < ncfg; c++) {
		for (int r = 0; r < repeat; r++) {
			struct envmap *cenv = envmap_new(envmap_envp(env));
			struct tune_sink ts = {0};
			struct nccl_sink sink = {.arg = &ts, .row = tune_on_row};
			for (size_t v = 0; v < cfg[c].nvars; v++)
				envmap_set(cenv, cfg[c].names[v], cfg[c].values[v]);
			no.env = cenv;
			if (coll_nccl_bench(&no, &a->so, b, &sink, &e) < 0) {
				envmap_free(cenv);
				error("rank %d: tune %s: %s", boot_rank(b), cfg[c].label, e.msg);
				boot_drop(b);
				free(res);
				return EXIT_CANNOT_RUN;
			}
			envmap_free(cenv);
			if (boot_rank(b) == 0 && ts.n && res[c].n < TUNE_MAX_REPS) {
				res[c].busbw[res[c].n++] = ts.sum / (double)ts.n;
				if (!a->json) {
					printf("# ");
					printf(_("tune %-22s run %d: %.3f GB/s busbw"), cfg[c].label,
					       r + 1, ts.sum / (double)ts.n);
					putchar('\n');
					fflush(stdout);
				}
			}
		}
	}
	boot_free(b);
	if (bo->rank != 0) {
		free(res);
		return EXIT_CLEAN;
	}
	spread = tune_spread(&res[0], 0.02);
	fs = findings_new();
	tune_findings(cfg, res, ncfg, spread, fs);
	{
		json_t *payload = json_object(), *arr = json_array();

		for (size_t c = 0; c < ncfg; c++) {
			json_t *runs = json_array();
			for (size_t r = 0; r < res[c].n; r++)
				json_array_append_new(runs, json_real(res[c].busbw[r]));
			json_array_append_new(arr,
			                      json_pack("{s:s, s:f, s:o}", "config", cfg[c].label,
			                                "busbw", tune_mean(&res[c]), "runs", runs));
		}
		json_object_set_new(payload, "tune",
		                    json_pack("{s:o, s:f}", "results", arr, "spread", spread));
		rc = cmd_report(a->cli, payload, fs, &(struct report_text){
			.flags = REPORT_CODE | REPORT_NO_SUMMARY | REPORT_VERBOSE, .code = rc,
			.doc_verb = "bench" });
		json_decref(payload);
	}
	findings_free(fs);
	free(res);
	return rc;
}

