/* State shared by the scanner (explain.c) and the reasoner (reason.c); not a public interface. */
#ifndef NCCLCHECK_EXPLAIN_INTERNAL_H
#define NCCLCHECK_EXPLAIN_INTERNAL_H

#include <stdint.h>

#include "explain/ac.h"
#include "explain/explain.h"
#include "explain/sigs.h"

#define X_MAX_STREAMS 4096	/* distinct processes/ranks tracked; more share one overflow stream */
#define X_MAX_INPUTS 4096
#define X_MAX_IFACES 64
#define X_MAX_ENV 32
#define X_SIG_EV 5		/* evidence locations kept per signature */
#define X_SIG_STREAMS 64	/* streams remembered per signature */
#define X_TEXT 200		/* kept excerpt of a line */

struct loc {
	uint32_t file;
	uint64_t line;		/* 0: none */
};

struct sock_if {
	char ifname[32];
	char addr[64];
};

/* What one process (or one prefixed rank of one file) printed. */
struct xstream {
	/* hot: touched by every line (kept together in the first cache lines) */
	uint32_t file;
	char kind;		/* 'R' [rankN]: / srun label, 'L' [defaultN]:, 'P' NCCL host:pid, 'F' the file */
	char in_tb;
	uint16_t hlen;		/* the key's host: its length and hash (compared instead of the bytes) */
	uint32_t hhash;
	int key;
	long pid;
	int rank, rank_prio;	/* resolved rank; how sure (-1 unresolved, 0 file name … 3 prefix) */
	int rank_nranks;
	uint64_t lines, nccl_lines;
	struct loc last_loc;
	char host[64];
	/* cold: set by the lines that matter */
	char nhost[64];		/* the host and pid of NCCL's prefix, for display (never the key) */
	long npid;
	char nccl_version[40];
	struct loc ver_loc;
	char boot_if[32], boot_addr[64];
	struct loc boot_loc;
	struct sock_if sock[4];
	int nsock;
	struct loc sock_loc;
	char ib[128];
	struct loc ib_loc;
	char network[32];
	int nranks, nnodes, local_ranks;
	struct loc topo_loc;
	struct loc init_start, init_complete;
	int start_nranks;
	double init_total;	/* seconds, <0 unknown */
	unsigned transports;	/* TR_* bits */
	uint64_t nvia;
	char via_example[96];
	struct loc via_loc;
	struct loc pl_init, pl_registered;
	int pl_rank, pl_world;
	long wd_seq, wd_timeout_ms;
	char wd_op[32];
	struct loc wd_loc;
	uint32_t wd_count;
	char exception[X_TEXT];
	struct loc exc_loc;
	char last[X_TEXT];	/* filled from explain.last_text when the scan ends */
};

enum {
	TR_NET_SOCKET = 1 << 0,
	TR_NET_IB = 1 << 1,
	TR_NET_OTHER = 1 << 2,
	TR_P2P = 1 << 3,
	TR_SHM = 1 << 4,
	TR_COLLNET = 1 << 5,
};

struct sig_hit {
	uint64_t count;
	struct loc ev[X_SIG_EV];
	char ev_text[X_SIG_EV][X_TEXT];
	int nev;
	uint32_t streams[X_SIG_STREAMS];
	int nstreams;
	int streams_overflow;
	char capture[96];
};

struct xinput {
	char *name;
	uint64_t lines, bytes, long_lines;
	int name_rank;		/* rank from a file name like rank3.log; -1 */
	char cur_if[32];	/* ifconfig / ip addr parsing: the interface being listed */
};

struct xiface {
	char ifname[32];
	char addr[64];
	int prefix;		/* -1 unknown */
	uint32_t file;
};

struct xenv {
	char name[48];
	char value[96];
	struct loc loc;
};

struct explain {
	const struct ac *ac;	/* shared, built once per process */
	struct ac_seen seen;
	struct xinput *in;
	uint32_t nin, ain, cur;
	struct xstream *st;
	uint32_t nst, ast;
	uint32_t *hash;		/* open addressing: stream index + 1, 0 empty */
	uint32_t *htag;
	uint32_t last_stream;	/* index + 1 of the stream of the previous line */
	uint32_t scache[64];	/* direct-mapped: recent streams by a cheap key hash, index + 1 */
	char (*last_text)[X_TEXT];	/* per stream: its latest line, apart from the streams so that
					 * the per-line copy does not drag the big structs through the cache */		/* the key's hash, compared before touching the stream */
	uint32_t hcap;
	uint64_t stream_overflow;
	struct sig_hit *hits;	/* one per signature */
	char master[64];
	int master_prio;	/* -1 none */
	struct loc master_loc;
	char master_src[32];
	struct xiface ifs[X_MAX_IFACES];
	int nifs;
	struct xenv env[X_MAX_ENV];
	int nenv;
	uint64_t total_lines, total_bytes, nccl_info_lines, long_lines;
	struct loc pl_registered;
	int pl_world;
	char scratch[EXPLAIN_MAX_LINE];
	int finished;
};

/* Reasoner (reason.c). */
json_t *explain_reason(struct explain *x, struct findings *fs);

/* "name:line" of a location. */
void explain_loc_fmt(const struct explain *x, struct loc l, char *buf, size_t len);
/* The value of an env echo seen in the log (NCCL_SOCKET_IFNAME...), or NULL. */
const struct xenv *explain_env(const struct explain *x, const char *name);

#endif
