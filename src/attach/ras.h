/*
 * NCCL's RAS service (NCCL >= 2.24): the client side of its text protocol on the job's RAS
 * socket (NCCL_RAS_ADDR, default localhost:28028), and its STATUS report decoded strictly into
 * typed structs. Formats follow NVIDIA/nccl src/ras/client.cc and client_support.cc, v2.24.3 to
 * v2.30.7: protocol 2 ("CLIENT PROTOCOL 2" -> "SERVER PROTOCOL 2"), "TIMEOUT <s>" -> "OK",
 * "SET FORMAT json" -> "OK" from 2.28.7 (older servers: "ERROR: Unknown command ..."), then
 * "STATUS" -> the report, read to EOF. NCCL 2.31 (client.cc, client_support.cc at 889806836)
 * parses TIMEOUT with strtod and adds "DIAGNOSTICS" (text only): its report read to EOF, or one
 * "BUSY: diagnostics already in progress" line; older servers answer "ERROR: Unknown command"
 * and keep the connection open (attach/ras_diag.h decodes the answer).
 *
 * Every connection and read is bounded: a deadline for the whole exchange, a cap on the answer,
 * at most one line of 1 KiB for each protocol reply.
 */
#ifndef NCCLCHECK_ATTACH_RAS_H
#define NCCLCHECK_ATTACH_RAS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "util/err.h"

#define RAS_DEFAULT_PORT "28028"
#define RAS_PROTOCOL 2
/* The collective operation types RAS counts, in the order of NCCL's ncclFunc_t names. */
#define RAS_NOPS 10
extern const char *const ras_op_names[RAS_NOPS];

struct ras_opts {
	const char *host;	/* name or address, no brackets */
	const char *port;
	double timeout_s;	/* sent as TIMEOUT (the server's per-leg wait for peers); <0: not sent */
	int timeout_float;	/* the server is NCCL >= 2.31: TIMEOUT as a float ("%g"); older
				 * servers take an integer, so the value is rounded up for them */
	int diagnostics;	/* ask DIAGNOSTICS (NCCL >= 2.31, text only) instead of STATUS */
	int want_json;		/* ask SET FORMAT json, fall back to text on ERROR */
	int verbose;		/* VERBOSE STATUS: attach never sets it (it corrupted memory in
				 * NCCL 2.27.3 at 128 GPUs, NVIDIA/nccl#1762) */
	long deadline_ms;	/* the whole exchange, connect to EOF */
	size_t max_bytes;	/* cap on the STATUS answer */
};

/* One line sent and what came back (the recording). */
struct ras_xchg {
	char *send;
	char *recv;		/* may hold a partial answer when the exchange failed */
	size_t recv_len;
};

struct ras_answer {
	int server_protocol;
	int json;		/* the server accepted SET FORMAT json */
	char *status;		/* the STATUS report, NUL-terminated */
	size_t status_len;
	struct ras_xchg *x;
	size_t nx, ax;
	char *error;		/* why the exchange failed, or NULL */
	int64_t t_ms;		/* when it started, relative to the first poll */
};

/* Parses "HOST:PORT", "[V6]:PORT", "HOST" or ":PORT" into host and port (defaults filled in). */
int ras_addr_parse(const char *s, char *host, size_t hostlen, char *port, size_t portlen,
		   struct err *e);
/* The job's RAS socket: `given` (a flag), else `env` ($NCCL_RAS_ADDR), else localhost:28028. */
int ras_addr_pick(const char *given, const char *env, char *host, size_t hostlen, char *port,
		  size_t portlen, struct err *e);

/*
 * Speaks the protocol once; fills `a` (also on failure: the exchange so far, a->error). Returns
 * 0 when a STATUS answer was read to EOF. With o->diagnostics it asks DIAGNOSTICS and returns 0
 * with whatever answered in a->status: a report read to EOF, or a BUSY/ERROR line.
 */
int ras_query(const struct ras_opts *o, struct ras_answer *a, struct err *e);
void ras_answer_release(struct ras_answer *a);

/* A typed STATUS report. Text reports fill only what text shows (see ras_report.counts_known). */
struct ras_rank {
	int rank;
	char host[64];
	int pid;
	int cuda_dev, nvml_dev;
	int init_state;		/* ncclResult_t: 0 ok, 7 in progress, other an error */
	int async_error;	/* ncclResult_t, 0 none */
	int finalize_called, destroy_flag, abort_flag;
	uint64_t counts[RAS_NOPS];
	unsigned counts_known;	/* bit i: counts[i] is known */
	char error_text[64];	/* text reports: "Remote process error" */
};

struct ras_missing {
	int rank;
	char host[64];
	int pid;
	int cuda_dev, nvml_dev;
	int unresponsive;	/* RAS got no answer from its process */
	int dead;		/* RAS considers its process dead */
};

struct ras_comm {
	char hash[40];
	int size;		/* 0 when the text report does not say */
	struct ras_rank *ranks;
	size_t nranks, aranks;
	struct ras_missing *missing;
	size_t nmissing, amissing;
	/* text reports list only outliers: the highest count of an operation type seen in the
	 * comm's MISMATCH section (a group header or a rank line) and how many ranks have it */
	uint64_t text_hi[RAS_NOPS];
	int text_hi_n[RAS_NOPS];
	unsigned text_known;
};

/* A process line of a text report's DEAD or INCOMPLETE section. */
struct ras_process {
	int pid;
	char host[64];
	char gpus[32];
};

struct ras_report {
	int json;
	char version[32];	/* "2.28.9" */
	int vmaj, vmin, vpatch;
	char timestamp[32];
	struct ras_comm *comms;
	size_t ncomms, acomms;
	struct ras_process *dead;
	size_t ndead, adead;
	struct ras_process *incomplete;
	size_t nincomplete, aincomplete;
	double collection_time_s;
	int timeouts;
	int repaired;		/* the missing-comma JSON of NCCL 2.28.7-2.28.9 was repaired */
};

/* Decodes a STATUS answer (JSON or text, told apart by its first byte). NULL with `e`. */
struct ras_report *ras_report_parse(const char *buf, size_t len, struct err *e);
void ras_report_free(struct ras_report *r);
/* version >= maj.min.patch */
int ras_version_at_least(const struct ras_report *r, int maj, int min, int patch);

/* The recording: {"ncclcheck_ras_transcript": 1, "polls": [{"t_ms", "exchange": [...]}]} */
json_t *ras_transcript_json(const struct ras_answer *a, size_t n, const char *source);

#endif
