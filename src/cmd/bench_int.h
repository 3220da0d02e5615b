/*
 * cmd/bench_int.h: what bench.c (arguments, the tcp backend, the report) and bench_nccl.c (the
 * nccl backend and bench tune) share. Internal to src/cmd.
 */
#ifndef NCCLCHECK_CMD_BENCH_INT_H
#define NCCLCHECK_CMD_BENCH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "coll/boot.h"
#include "coll/sweep.h"
#include "finding.h"
#include "link/ceiling.h"
#include "report/bench.h"
#include "util/envmap.h"
#include "util/strbuf.h"

struct cli;

struct bench_args {
	const struct cli *cli;	/* the command line parsed: --json, and the report's tail */
	struct sweep_opts so;
	const char *backend, *master, *nccl_path, *cuda_path;
	const char *token_file;	/* --token-file (else $NCCLCHECK_TOKEN): cli_cluster_token's */
	struct strbuf token;	/* the job's token, empty for none */
	char **peers;
	size_t npeers;
	int rank, world, stripes, json, window;
	int repeat;		/* bench tune: runs per configuration */
	size_t chunk;
	long timeout_s;
	char master_buf[320]; /* MASTER_ADDR:MASTER_PORT when no flag gives it */
	char sysnet[512];     /* /sys/class/net, under NCCLCHECK_SYS_ROOT for tests */
	const char *compare_path;	/* --compare FILE, or NULL */
	json_t *compare;	/* its document, loaded before the run (rank 0 draws it) */
};

/* One sweep's rows into the report; wrong elements counted. */
struct row_ctx {
	struct bench_report *rep;
	const struct bench_args *a;
	int64_t wrong;
};

int bench_on_row(void *arg, const struct coll_row *row);
/* The header's sweep fields (sizes, iterations, check) from the flags; the backend adds its own. */
struct bench_meta bench_meta_from_args(const struct bench_args *a, const char *backend,
				       const struct bench_device *devs, size_t ndevs);
/* This process's device lines, gathered on rank 0 in rank order. */
int bench_gather_devices(struct boot *b, const struct bench_args *a,
			 const struct bench_device *mine, struct bench_device **all, struct err *e);
/* Rank 0: busbw against every link's ceiling, in the footer and the JSON (and link.bw.low). */
void bench_add_ceiling(struct bench_report *rep, const struct ceiling_link *links, size_t n,
		       int streams, struct findings *fs);
/* The report and the findings printed; the exit code (bench.result.wrong when wrong). */
int bench_finish(const struct bench_args *a, struct bench_report *rep, int64_t wrong, int code,
		 struct findings *fs);

/* bench_nccl.c: the nccl backend (bench --backend nccl) and bench tune */
int bench_run_nccl(const struct bench_args *a, const struct envmap *env, const struct boot_opts *bo);
int bench_run_tune(const struct bench_args *a, const struct envmap *env, const struct boot_opts *bo,
		   int repeat);

#endif
