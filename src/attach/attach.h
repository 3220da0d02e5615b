/*
 * ncclcheck attach: a job hangs now; which rank, which collective, and what is that rank doing.
 *
 * attach_collect() does the I/O (it only reads: RAS STATUS polls, one RAS DIAGNOSTICS request
 * on NCCL >= 2.31 (NCCL's read-only cross-rank checks), flight-recorder files, /proc),
 * attach_reason() is pure: the collected data in, findings and one verdict line out. The
 * facts behind both: ../shared/research/frontier-2026.md §1.2, §1.4, §3(a).
 */
#ifndef NCCLCHECK_ATTACH_H
#define NCCLCHECK_ATTACH_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "attach/fr.h"
#include "attach/jobstacks.h"
#include "attach/proc.h"
#include "attach/ras.h"
#include "attach/ras_ask.h"
#include "attach/ras_diag.h"
#include "attach/stacks.h"
#include "finding.h"

/* Polling limits: never faster than this, never more polls than that (NVIDIA/nccl#1718). */
#define ATTACH_MIN_INTERVAL_MS 2000
#define ATTACH_MAX_POLLS 10

struct attach_opts {
	const char *ras_host;	/* NULL: do not ask RAS */
	const char *ras_port;
	int polls;		/* default 2 */
	long interval_ms;	/* default 4000, at least ATTACH_MIN_INTERVAL_MS */
	double ras_timeout_s;	/* TIMEOUT sent to the server; default 2 (a float to NCCL >= 2.31) */
	int no_diagnostics;	/* do not ask RAS for NCCL's DIAGNOSTICS report */
	long deadline_ms;	/* the whole collection; default 14000 */
	size_t max_bytes;	/* cap on one STATUS answer; default 16 MiB */
	int want_json;		/* default 1 */
	const char *fr_dir;	/* NULL: no flight-recorder dumps */
	const char *fr_prefix;	/* file name prefix, NULL: any name ending in a rank number */
	const char *proc_root;	/* "/proc" */
	/* live dumps from torch's per-rank WorkerServer: explicit RANK=URL pairs, and with fr_live
	 * the TORCH_WORKER_SERVER_SOCKET of every local rank (from its /proc/PID/environ) */
	const int *fr_url_ranks;
	const char *const *fr_urls;
	size_t nfr_urls;
	int fr_live;
	/* the hosts (RAS "host" addresses) whose processes this /proc shows; NULL: this host's
	 * own addresses (getifaddrs) */
	const char *const *local_hosts;
	size_t nlocal_hosts;
	/* do not read the local ranks' Python stacks (they are read only from the real /proc:
	 * a fixture --proc-root's pids are not this machine's processes) */
	int no_stacks;
};

struct attach_poll {
	int64_t t_ms;		/* since the first poll */
	struct ras_answer answer;
	struct ras_report *report;	/* NULL when the query or the decoding failed */
	char *error;
	struct proc_sample *procs;
	size_t nprocs;
};

struct attach_data {
	struct attach_poll *polls;
	size_t npolls;
	int ras_asked;
	int stopped_polling;	/* the old-NCCL-during-init guard stopped further polls */
	char ras_addr[300];
	/* NCCL's own diagnostics (>= 2.31), asked once after the polls on a connection of its own */
	struct ras_diag_ask ask;
	struct fr_set fr;
	int fr_asked;
	char *fr_error;		/* the directory could not be read */
	size_t fr_fetched;	/* dumps that came live from a WorkerServer */
	char **local_hosts;
	size_t nlocal_hosts;
	long interval_ms;
	long ticks_per_sec;
	/* the Python stacks of the local ranks the last poll sampled, read after the polls */
	struct attach_stacks *stacks;
	size_t nstacks;
	/* across nodes: what the attach on every other node said its local ranks do (borrowed;
	 * the verdict describes a rank of another node from it) */
	const struct js_node *remote;
	size_t nremote;
};

/* Fills the defaults of unset members (polls, interval, timeouts, caps, proc_root). */
void attach_opts_defaults(struct attach_opts *o);

/*
 * Polls RAS, samples /proc for the ranks on local hosts at every poll, reads the dumps. Never
 * writes to the job. Returns 0, or -1 with `e` only for a usage error (a too-fast interval, too
 * many polls); a RAS service that cannot be reached is data (poll.error), not a failure.
 */
int attach_collect(const struct attach_opts *o, struct attach_data *d, struct err *e);
void attach_data_release(struct attach_data *d);

/*
 * Pure: the collected data -> findings (ids attach.*) and the verdict line (caller frees), and a
 * JSON payload for --json (new reference: {"verdict", "ras", "flight_recorder", "processes"}).
 * Returns 1 when it could conclude nothing at all because no source answered (exit 3), else 0.
 */
int attach_reason(const struct attach_data *d, struct findings *fs, char **verdict,
		  json_t **payload);

/*
 * Pure: this node's local ranks as the other nodes need them (jobstacks.h): each local rank
 * process the polls sampled, its rank in the job's largest communicator, the verdict's words
 * for what it does and its main thread's whole stack. Returns the count; *out is freed with
 * attach_summaries_release().
 */
size_t attach_summaries(const struct attach_data *d, struct js_rank **out);
void attach_summaries_release(struct js_rank *v, size_t n);

/* The RAS recording of all polls (for --record FILE). */
json_t *attach_transcript(const struct attach_data *d);

#endif
