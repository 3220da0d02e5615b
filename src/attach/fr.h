/*
 * PyTorch flight-recorder dumps (one pickle per rank, written by c10d's DebugInfoWriter to
 * TORCH_NCCL_DEBUG_INFO_TEMP_FILE<rank>, default /tmp/nccl_trace_rank_<rank>), decoded strictly
 * into typed records. The layout follows torch/csrc/distributed/c10d/FlightRecorderDetail.hpp
 * (dump_dict / getCollectiveTrace, format versions "2.x"): a dict with version, pg_config,
 * pg_status and entries[]. Unknown keys are ignored (minor versions add fields); a known key of
 * the wrong type rejects the whole dump, naming the entry and the key.
 */
#ifndef NCCLCHECK_ATTACH_FR_H
#define NCCLCHECK_ATTACH_FR_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum fr_state {
	FR_SCHEDULED = 0,	/* enqueued on the CPU side, the kernel not seen starting */
	FR_STARTED,		/* the kernel started, not seen completing */
	FR_COMPLETED,
};

struct fr_frame {
	char *name;
	char *filename;
	long line;
};

struct fr_entry {
	long record_id;
	long pg_id;
	char *pg_name;		/* process_group[0], e.g. "0" */
	char *pg_desc;		/* process_group[1], e.g. "default_pg" */
	long collective_seq_id;
	long p2p_seq_id;
	long op_id;
	char *profiling_name;	/* "nccl:all_reduce", "nccl:send 0->1" */
	int64_t time_created_ns;
	char *input_sizes;	/* canonical "[[1024], [2, 3]]" */
	char *input_dtypes;	/* "Float, Float" */
	char *output_sizes;
	char *output_dtypes;
	enum fr_state state;
	int retired;
	int is_p2p;
	long timeout_ms;
	int has_duration;
	double duration_ms;
	struct fr_frame *frames;	/* innermost first, as torch writes them */
	size_t nframes;
	char *thread_name;	/* NULL before format 2.7 */
};

struct fr_pg {
	char *name;
	char *desc;
	char *ranks;		/* as written: "[0, 1]" */
	int *rank_list;		/* parsed from ranks; NULL when it does not parse */
	size_t nrank_list;
};

struct fr_pg_status {
	char *pg_id;
	long last_enqueued;
	long last_started;
	long last_completed;
};

struct fr_dump {
	int rank;		/* from the file name's trailing number */
	char *path;
	char *version;
	char *comm_lib_version;	/* NULL before it was written */
	struct fr_pg *pgs;
	size_t npgs;
	struct fr_pg_status *status;
	size_t nstatus;
	struct fr_entry *entries;	/* in recording order */
	size_t nentries;
};

/* Decodes one dump from memory; `rank` and `path` are stored as given. NULL with `e` on error. */
struct fr_dump *fr_dump_parse(const void *data, size_t len, int rank, const char *path,
			      struct err *e);
void fr_dump_free(struct fr_dump *d);

struct fr_set {
	struct fr_dump **v;
	size_t n, alloc;
	/* files that looked like dumps but did not decode: "path: reason" */
	char **bad;
	size_t nbad, abad;
};

/*
 * Reads every file of `dir` whose name is `prefix` followed by a rank number (prefix NULL: any
 * name ending in a number; *.pipe FIFOs are skipped), at most `max_files`, each at most
 * `max_bytes`. Undecodable files are listed in set->bad, not fatal. -1 only when `dir` cannot
 * be read.
 */
int fr_load_dir(const char *dir, const char *prefix, size_t max_files, size_t max_bytes,
		struct fr_set *set, struct err *e);
void fr_set_release(struct fr_set *set);
/* Orders the dumps by rank (after adding some by hand). */
void fr_set_sort(struct fr_set *set);

const char *fr_state_name(enum fr_state s);
/* "all_reduce" from "nccl:all_reduce"; the name itself when it has no "backend:" prefix. */
const char *fr_op_name(const struct fr_entry *en);

#endif
