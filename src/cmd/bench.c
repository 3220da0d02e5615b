/* ncclcheck bench: collectives across nodes in nccl-tests' format, without MPI. */
#include "cmd/cmd.h"
#include "cmd/bench_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/boot.h"
#include "coll/coll.h"
#include "coll/links.h"
#include "coll/nccl.h"
#include "coll/nccl_log.h"
#include "coll/sweep.h"
#include "coll/tcp_ring.h"
#include "coll/tune.h"
#include "finding.h"
#include "launch/vars.h"
#include "ncclcheck.h"
#include "rules/bench.h"
#include "rules/link_ceiling.h"
#include "probe/probe.h"
#include "report/bench.h"
#include "util/envmap.h"
#include "util/xalloc.h"

extern char **environ;

enum {
	OPT_MINBYTES = 1, OPT_MAXBYTES, OPT_STEPBYTES, OPT_STEPFACTOR, OPT_ITERS, OPT_WARMUP,
	OPT_CHECK, OPT_DATATYPE, OPT_OP, OPT_ROOT, OPT_NGPUS, OPT_TIMEOUT, OPT_BACKEND, OPT_PEERS,
	OPT_STRIPES, OPT_CHUNK, OPT_WINDOW, OPT_NCCL, OPT_CUDA, OPT_REPEAT, OPT_TOKEN_FILE,
	OPT_COMPARE,
};

/* nccl-tests' flags, same names and meaning; sizes take K/M/G (binary) */
#define BENCH_ROWS_SWEEP \
	{ .name = "minbytes", .short_name = 'b', .arg = "N", .id = OPT_MINBYTES, \
	  .help = N_("smallest size (default 32M)") }, \
	{ .name = "maxbytes", .short_name = 'e', .arg = "N", .id = OPT_MAXBYTES, \
	  .help = N_("largest size (default 32M)") }, \
	{ .name = "stepbytes", .short_name = 'i', .arg = "N", .id = OPT_STEPBYTES, \
	  .help = N_("add N between sizes (default 1M)") }, \
	{ .name = "stepfactor", .short_name = 'f', .arg = "N", .id = OPT_STEPFACTOR, \
	  .help = N_("multiply sizes by N instead (default 1: off)") }, \
	{ .name = "iters", .short_name = 'n', .arg = "N", .id = OPT_ITERS, \
	  .help = N_("timed iterations per size and placement (default 20)") }, \
	{ .name = "warmup_iters", .short_name = 'w', .arg = "N", .id = OPT_WARMUP, \
	  .help = N_("warm-up iterations per size before the sweep (default 1)") }, \
	{ .name = "check", .short_name = 'c', .arg = "N", .id = OPT_CHECK, \
	  .help = N_("tcp: 0 skips checking, else every timed iteration is checked;\n" \
		     "nccl: N checked runs after the timed ones (default 1)") }, \
	{ .name = "datatype", .short_name = 'd', .arg = "T", .id = OPT_DATATYPE, \
	  .help = N_("int8 uint8 int32 uint32 int64 uint64 half float double bfloat16\n" \
		     "(default float)") }, \
	{ .name = "op", .short_name = 'o', .arg = "OP", .id = OPT_OP, \
	  .help = N_("sum prod max min (default sum)") }, \
	{ .name = "root", .short_name = 'r', .arg = "N", .id = OPT_ROOT, \
	  .help = N_("root of broadcast (default 0)") }, \
	{ .name = "ngpus", .short_name = 'g', .arg = "N", .id = OPT_NGPUS, \
	  .help = N_("nccl: GPUs driven by this process, one rank each (default 1)") }, \
	{ .name = "timeout", .short_name = 'T', .arg = "SEC", .id = OPT_TIMEOUT, \
	  .help = N_("give up (abort NCCL) after SEC without progress (default 60)") }

/* who is who: the launch options every multi-node verb shares, and bench's old spellings */
#define BENCH_ROWS_RANKS \
	CLI_ROW_MASTER, \
	CLI_ROW_NODES, \
	CLI_ROW_NODE_RANK, \
	{ .name = "nproc-per-node", .arg = "N", .id = OPT_LAUNCH_NPROC, \
	  .help = N_("processes per node: N x --nodes ranks, this one LOCAL_RANK of its\n" \
		     "node (default 1: one process per node)") }, \
	{ .name = "world", .arg = "N", .id = OPT_LAUNCH_NODES, .flags = CLI_OPT_ALIAS }, \
	{ .name = "rank", .arg = "R", .id = OPT_LAUNCH_NODE_RANK, .flags = CLI_OPT_ALIAS }, \
	{ .name = "peers", .arg = "LIST", .id = OPT_PEERS, \
	  .help = N_("host:port of every rank, comma-separated, rank 0 first (instead of\n" \
		     "--master)") }, \
	{ .name = "token-file", .arg = "FILE", .id = OPT_TOKEN_FILE, \
	  .help = N_("a secret every rank shares (else $NCCLCHECK_TOKEN), as cluster's;\n" \
		     "without one any process that reaches the port may join") }

#define BENCH_ROWS_NCCL \
	{ .name = "nccl", .arg = "PATH", .id = OPT_NCCL, \
	  .help = N_("nccl: the libnccl.so.2 to load (default: the copy torch loads,\n" \
		     "else the loader's default)") }, \
	{ .name = "cuda", .arg = "PATH", .id = OPT_CUDA, .help = N_("nccl: libcuda.so.1 to load") }

static const struct cli_opt bench_opts[] = {
	BENCH_ROWS_SWEEP,
	BENCH_ROWS_RANKS,
	{ .name = "backend", .arg = "B", .id = OPT_BACKEND,
	  .help = N_("tcp (default): a pipelined CPU ring over TCP; nccl: real NCCL on GPUs") },
	{ .name = "stripes", .arg = "N", .id = OPT_STRIPES,
	  .help = N_("tcp: sockets per ring neighbour (default 4)") },
	{ .name = "chunk", .arg = "N", .id = OPT_CHUNK,
	  .help = N_("tcp: bytes per pipelined piece (default 512K)") },
	{ .name = "window", .arg = "N", .id = OPT_WINDOW,
	  .help = N_("tcp: clamp each receiving socket's TCP window to N bytes (default:\n"
		     "the kernel's autotuning)") },
	BENCH_ROWS_NCCL,
	{ .name = "compare", .arg = "FILE", .id = OPT_COMPARE,
	  .help = N_("with --html: draw this second sweep's busbw over this one's (a\n"
		     "'bench --json' document, or nccl-tests' JSON output)") },
	{ 0 },
};

static const struct cli_opt tune_opts[] = {
	BENCH_ROWS_SWEEP,
	BENCH_ROWS_RANKS,
	BENCH_ROWS_NCCL,
	{ .name = "repeat", .arg = "N", .id = OPT_REPEAT,
	  .help = N_("runs of each configuration, 2..8 (default 3)") },
	{ 0 },
};

static const char bench_exit_codes[] =
	N_("0 every result correct, 1 wrong results, 2 usage error, 3 could not run\n"
	   "(a peer missing or dead, no GPU, NCCL failed).\n");

static int cmd_bench_tune(int argc, char **argv);

const struct verb verb_bench_tune = {
	.name = "bench tune",
	.summary = N_("find the NCCL socket settings that beat the defaults on this network"),
	.description =
		N_("Runs an NCCL all-reduce (sizes and -n as for bench) under NCCL_NSOCKS_PERTHREAD x\n"
		   "NCCL_SOCKET_NTHREADS, NCCL_BUFFSIZE and NCCL_MIN_NCHANNELS, --repeat times each, and\n"
		   "recommends the best only when it beats the defaults by more than their run-to-run\n"
		   "spread. Run the same command on every node.\n"),
	.opts = tune_opts,
	.json_help = N_("every configuration's runs and the recommendation as JSON"),
	.examples =
		"  ncclcheck bench tune --master 10.0.0.1:29500 --nodes 2 --node-rank 0 -b 64M -e 64M\n",
	.exit_codes = bench_exit_codes,
	.flags = VERB_JSON | VERB_HTML,
	.run = cmd_bench_tune,
};

/* nccl-tests' parsesize: a number with an optional K/M/G (binary) suffix. */
static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v, mul = 1;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'G':
		mul <<= 10; /* fall through */
	case 'M':
		mul <<= 10; /* fall through */
	case 'K':
		mul <<= 10;
		end++;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if ((*end == 'B' || *end == 'b') && mul > 1)
		end++;
	if (*end || v > (1ULL << 40) / mul)
		return -1;
	*out = (size_t)(v * mul);
	return 0;
}

static void split_peers(struct bench_args *a, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		a->peers = xrealloc(a->peers, (a->npeers + 1) * sizeof(*a->peers));
		a->peers[a->npeers++] = xstrdup(t);
	}
	free(dup);
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* What every rank must agree on (the sweep and the data) hashes to one value. */
static uint64_t params_hash(const struct bench_args *a)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s/%d/%d/%d/%zu/%zu/%zu/%d/%d/%d/%d/%d/%d/%zu",
	         a->so.kind->name, a->backend, a->so.dtype, a->so.op, a->so.root, a->so.minbytes,
	         a->so.maxbytes, a->so.stepbytes, a->so.stepfactor, a->so.iters, a->so.warmup,
	         a->so.check, a->so.nlocal, a->stripes, a->chunk);
	return fnv(0xcbf29ce484222325ULL, buf);
}

/* One of bench's (or bench tune's) options into `a`; CLI_STOP after a usage error. */
static int bench_option(struct cli *c, int id, struct bench_args *a, struct cli_launch *lo)
{
	const char *arg = c->arg;
	long v;
	int r = cli_launch_option(c, id, lo);

	if (r)
		return r;
	switch (id) {
	case OPT_MINBYTES:
	case OPT_MAXBYTES:
	case OPT_STEPBYTES:
		if (parse_size(arg, id == OPT_MINBYTES ? &a->so.minbytes
				    : id == OPT_MAXBYTES ? &a->so.maxbytes : &a->so.stepbytes) < 0)
			return cli_fail(c, "-%c wants a size like 8, 64K, 32M or 1G, not '%s'",
					id == OPT_MINBYTES ? 'b' : id == OPT_MAXBYTES ? 'e' : 'i',
					arg);
		break;
	case OPT_STEPFACTOR:
	case OPT_ITERS:
	case OPT_WARMUP:
	case OPT_CHECK:
	case OPT_NGPUS: {
		static const char flag[] = {
			[OPT_STEPFACTOR] = 'f', [OPT_ITERS] = 'n', [OPT_WARMUP] = 'w',
			[OPT_CHECK] = 'c', [OPT_NGPUS] = 'g',
		};
		int *dst[] = { [OPT_STEPFACTOR] = &a->so.stepfactor, [OPT_ITERS] = &a->so.iters,
			       [OPT_WARMUP] = &a->so.warmup, [OPT_CHECK] = &a->so.check,
			       [OPT_NGPUS] = &a->so.nlocal };

		if (cli_parse_long(arg, id == OPT_ITERS || id == OPT_STEPFACTOR || id == OPT_NGPUS,
				   id == OPT_NGPUS ? 16 : 1000000, &v) < 0)
			return cli_fail(c, "-%c wants a number, not '%s'", flag[id], arg);
		*dst[id] = (int)v;
		break;
	}
	case OPT_DATATYPE:
		if (coll_dtype_parse(arg) < 0)
			return cli_fail(c, "unknown datatype '%s' (int8 uint8 int32 uint32 int64 "
					"uint64 half float double bfloat16)", arg);
		a->so.dtype = coll_dtype_parse(arg);
		break;
	case OPT_OP:
		if (coll_op_parse(arg) < 0)
			return cli_fail(c, "unknown op '%s' (sum prod max min; avg is not checked "
					"exactly)", arg);
		a->so.op = coll_op_parse(arg);
		break;
	case OPT_ROOT:
		if (cli_parse_long(arg, 0, 1 << 20, &v) < 0)
			return cli_fail(c, "-r wants a rank, not '%s'", arg);
		a->so.root = (int)v;
		break;
	case OPT_TIMEOUT:
		if (cli_parse_long(arg, 1, 86400, &a->timeout_s) < 0)
			return cli_fail(c, "-T wants seconds, not '%s'", arg);
		break;
	case OPT_BACKEND:
		if (strcmp(arg, "tcp") && strcmp(arg, "nccl"))
			return cli_fail(c, "--backend is tcp or nccl, not '%s'", arg);
		a->backend = arg;
		break;
	case OPT_PEERS: split_peers(a, arg); break;
	case OPT_STRIPES:
		if (cli_parse_long(arg, 1, 16, &v) < 0)
			return cli_fail(c, "--stripes is 1..16, not '%s'", arg);
		a->stripes = (int)v;
		break;
	case OPT_CHUNK:
		if (parse_size(arg, &a->chunk) < 0 || a->chunk < 4096)
			return cli_fail(c, "--chunk wants a size >= 4K, not '%s'", arg);
		break;
	case OPT_WINDOW: {
		size_t w;

		if (parse_size(arg, &w) < 0 || w < 65536 || w > (1u << 30))
			return cli_fail(c, "--window wants a size of 64K..1G, not '%s'", arg);
		a->window = (int)w;
		break;
	}
	case OPT_TOKEN_FILE: a->token_file = arg; break;
	case OPT_COMPARE: a->compare_path = arg; break;
	case OPT_NCCL: a->nccl_path = arg; break;
	case OPT_CUDA: a->cuda_path = arg; break;
	case OPT_REPEAT:
		if (cli_parse_long(arg, 2, TUNE_MAX_REPS, &v) < 0)
			return cli_fail(c, "--repeat is 2..%d", TUNE_MAX_REPS);
		a->repeat = (int)v;
		break;
	}
	return id;
}

/*
 * This process's rank and the world from the launch options: one process per node unless
 * --nproc-per-node says more, then this one is LOCAL_RANK of its node. -1 after a usage error.
 */
static int bench_ranks(const struct cli_launch *lo, const struct envmap *env, struct bench_args *a)
{
	long nproc = lo->nproc_per_node > 0 ? lo->nproc_per_node : 1, local = 0;
	const char *lr = envmap_get(env, lv_name(LV_LOCAL_RANK));

	if (lo->nproc_per_node > 1 &&
	    (!lr || cli_parse_long(lr, 0, lo->nproc_per_node - 1, &local) < 0)) {
		cli_usage_error("bench", "--nproc-per-node %ld: which process of the node is this? "
				"%s must be 0..%ld (torchrun and srun set it), not '%s'",
				lo->nproc_per_node, lv_name(LV_LOCAL_RANK), lo->nproc_per_node - 1,
				lr ? lr : "(unset)");
		return -1;
	}
	if (lo->nodes > 0) {
		if (lo->nodes * nproc > 4096) {
			cli_usage_error("bench", "%ld ranks: bench runs up to 4096",
					lo->nodes * nproc);
			return -1;
		}
		a->world = (int)(lo->nodes * nproc);
	}
	if (lo->node_rank >= 0)
		a->rank = (int)(lo->node_rank * nproc + local);
	a->master = lo->master;
	return 0;
}

static int parse_args(const struct verb *v, int argc, char **argv, const struct envmap *env,
		      struct bench_args *a, struct cli *c)
{
	struct cli_launch lo;
	long val;
	int id;

	*a = (struct bench_args){
	    .backend = "tcp", .rank = -1, .world = -1, .stripes = 4, .timeout_s = 60, .repeat = 3,
	    .cli = c, .token = STRBUF_INIT};
	a->so = (struct sweep_opts){.dtype = COLL_FLOAT,
	                            .op = COLL_SUM,
	                            .minbytes = 32 << 20,
	                            .maxbytes = 32 << 20,
	                            .stepbytes = 1 << 20,
	                            .stepfactor = 1,
	                            .iters = 20,
	                            .warmup = 1,
	                            .check = 1,
	                            .nlocal = 1};
	cli_launch_init(&lo);
	cli_start(c, v, argc, argv);
	while ((id = cli_next(c)) > 0)
		if (bench_option(c, id, a, &lo) == CLI_STOP)
			return c->code;
	if (id == CLI_STOP)
		return c->code ? c->code : -1;
	if (bench_ranks(&lo, env, a) < 0)
		return EXIT_USAGE;
	a->json = c->common.json;
	if (v == &verb_bench_tune) {
		/* an all-reduce over NCCL, per configuration */
		a->backend = "nccl";
		a->so.kind = coll_kind_by_name("allreduce");
	} else {
		if (c->optind != argc - 1)
			return cli_usage_error("bench", c->optind >= argc ?
					       "which collective? (allreduce, allgather, "
					       "reducescatter, broadcast, alltoall, p2p)"
					       : "one collective per run");
		a->so.kind = coll_kind_by_name(argv[c->optind]);
		if (!a->so.kind)
			return cli_usage_error("bench", "unknown collective '%s' (allreduce, "
					       "allgather, reducescatter, broadcast, alltoall, p2p)",
					       argv[c->optind]);
	}
	if (a->so.minbytes > a->so.maxbytes)
		return cli_usage_error("bench", "-b %zu is larger than -e %zu", a->so.minbytes,
		                       a->so.maxbytes);
	if (!strcmp(a->backend, "tcp") && !ring_supports(a->so.kind->id))
		return cli_usage_error("bench",
		                       "--backend tcp runs allreduce, allgather and "
		                       "broadcast; use --backend nccl for %s",
		                       a->so.kind->name);
	if (!strcmp(a->backend, "tcp") && a->so.nlocal != 1)
		return cli_usage_error("bench", "-g is for --backend nccl (tcp: one rank per "
		                                "process)");
	a->so.check_every_iter = !strcmp(a->backend, "tcp");

	/* ranks from the launcher's environment when the flags do not say */
	if (a->rank < 0) {
		static const enum launch_var_id ids[] = { LV_RANK, LV_NODE_RANK, LV_NONE };
		const char *r = lv_first_value(lv_from_envmap, env, ids);

		if (r && cli_parse_long(r, 0, 4096, &val) == 0)
			a->rank = (int)val;
	}
	if (a->world < 0 && !a->npeers) {
		static const enum launch_var_id ids[] = { LV_WORLD_SIZE, LV_NNODES, LV_NONE };
		const char *w = lv_first_value(lv_from_envmap, env, ids);

		if (w && cli_parse_long(w, 1, 4096, &val) == 0)
			a->world = (int)val;
	}
	if (a->rank < 0)
		a->rank = 0;
	if (a->world < 0)
		a->world = a->npeers ? (int)a->npeers : 1;
	if (!a->master && !a->npeers) {
		const char *h = envmap_get(env, lv_name(LV_MASTER_ADDR));
		const char *p = envmap_get(env, lv_name(LV_MASTER_PORT));
		if (h && *h) {
			snprintf(a->master_buf, sizeof(a->master_buf),
			         strchr(h, ':') ? "[%s]:%s" : "%s:%s", h, p && *p ? p : "29500");
			a->master = a->master_buf;
		} else if (a->world == 1) {
			a->master = "127.0.0.1:0";
		} else {
			return cli_usage_error("bench",
			                       "%d ranks but no rank 0 address: give "
			                       "--master HOST:PORT or --peers, or set MASTER_ADDR",
			                       a->world);
		}
	}
	if (a->rank >= a->world)
		return cli_usage_error("bench", "rank %d does not fit a world of %d", a->rank,
		                       a->world);
	if (cli_cluster_token(a->token_file, env, &a->token) < 0)
		return EXIT_USAGE;
	snprintf(a->sysnet, sizeof(a->sysnet), "%s/class/net",
	         envmap_get(env, "NCCLCHECK_SYS_ROOT") && *envmap_get(env, "NCCLCHECK_SYS_ROOT")
	             ? envmap_get(env, "NCCLCHECK_SYS_ROOT")
	             : "/sys");
	if (a->so.kind->rooted && a->so.root >= a->world * a->so.nlocal)
		return cli_usage_error("bench", "root %d does not fit %d ranks", a->so.root,
		                       a->world * a->so.nlocal);
	return 0;
}


struct bench_meta bench_meta_from_args(const struct bench_args *a, const char *backend,
				       const struct bench_device *devs, size_t ndevs)
{
	return (struct bench_meta){.perf = a->so.kind->perf,
	                           .backend = backend,
	                           .nthreads = 1,
	                           .ngpus = 1,
	                           .minbytes = a->so.minbytes,
	                           .maxbytes = a->so.maxbytes,
	                           .step = a->so.stepfactor > 1 ? (size_t)a->so.stepfactor
	                                                        : a->so.stepbytes,
	                           .step_factor = a->so.stepfactor > 1,
	                           .warmup = a->so.warmup,
	                           .iters = a->so.iters,
	                           .agg = 1,
	                           .check = a->so.check,
	                           .devs = devs,
	                           .ndevs = ndevs};
}

int bench_on_row(void *arg, const struct coll_row *row)
{
	struct row_ctx *rc = arg;
	const struct coll_kind *k = rc->a->so.kind;
	struct bench_row br = {
	    .bytes = row->bytes,
	    .count = row->count,
	    .type = coll_dtype_name(rc->a->so.dtype),
	    .redop = k->reduces ? coll_op_name(rc->a->so.op) : "none",
	    .root = k->rooted ? rc->a->so.root : -1,
	    .has_oop = 1,
	    .has_ip = 1,
	};

	for (int ip = 0; ip < 2; ip++) {
		struct bench_half *h = ip ? &br.ip : &br.oop;
		*h = (struct bench_half){.time_us = row->time_us[ip],
		                         .algbw = row->algbw[ip],
		                         .busbw = row->busbw[ip],
		                         .wrong = row->wrong[ip],
		                         .checked = row->checked};
		rc->wrong += row->wrong[ip];
	}
	bench_report_row(rc->rep, &br);
	return 0;
}

/* This process's device lines, gathered on rank 0 in rank order. */
int bench_gather_devices(struct boot *b, const struct bench_args *a,
                          const struct bench_device *mine, struct bench_device **all, struct err *e)
{
	size_t n = (size_t)a->so.nlocal, len = n * sizeof(*mine);

	*all = xcalloc((size_t)boot_world(b), len);
	return boot_gather(b, mine, len, *all, e);
}

/*
 * Rank 0: busbw against every link's ceiling, in the footer and the JSON; link.bw.low into
 * `fs` when the peak is far under the slowest known one.
 */
void bench_add_ceiling(struct bench_report *rep, const struct ceiling_link *links, size_t n,
                        int streams, struct findings *fs)
{
	const char **next = xcalloc(n ? n : 1, sizeof(*next));
	char **lines;
	size_t nl;
	json_t *j;

	for (size_t i = 0; i < n; i++)
		next[i] = n > 1 ? links[(i + 1) % n].host : NULL;
	j = ceiling_coll_report(links, n, next, bench_report_peak_busbw(rep),
	                        bench_report_avg_busbw(rep), streams, &lines, &nl, fs);
	for (size_t i = 0; i < nl; i++) {
		bench_report_footer_line(rep, lines[i]);
		free(lines[i]);
	}
	free(lines);
	free(next);
	bench_report_json_set(rep, "ceiling", j);
}

int bench_finish(const struct bench_args *a, struct bench_report *rep, int64_t wrong, int code,
                  struct findings *fs)
{

	if (wrong) {
		bench_result_findings(fs, a->so.kind->name, wrong);
		code = EXIT_FINDINGS;
	}
	{
		json_t *payload = json_object();

		json_object_set_new(payload, "bench", rep ? bench_report_json(rep) : json_null());
		code = cmd_report(a->cli, payload, fs, &(struct report_text){
			.flags = REPORT_CODE | REPORT_NO_SUMMARY, .code = code,
			.doc_verb = "bench",
			.html = &(struct html_opts){ .compare = a->compare,
						     .compare_label = a->compare_path } });
		json_decref(payload);
	}
	findings_free(fs);
	return code;
}

static int run_tcp(const struct bench_args *a, struct boot *b)
{
	struct ring_opts ro = {.nstripes = a->stripes,
	                       .segment = a->chunk,
	                       .timeout_ms = a->timeout_s * 1000,
	                       .window = a->window};
	struct bench_device me = {.rank = boot_rank(b), .pid = (int)getpid()}, *devs = NULL;
	struct ceiling_link mine, *links = NULL;
	struct findings *fs;
	struct bench_meta m;
	struct row_ctx rc = {.a = a};
	struct coll_backend be;
	struct err e = ERR_INIT;
	struct ring *r;
	int rcode;

	gethostname(me.host, sizeof(me.host) - 1);
	/* English in the JSON's device_info; the table puts it into the reader's language */
	snprintf(me.name, sizeof(me.name), a->stripes > 1 ? N_("CPU, tcp ring, %d sockets per neighbour")
	                                                  : N_("CPU, tcp ring, %d socket per neighbour"),
	         a->stripes);
	r = ring_new(b, &ro, &e);
	if (!r || bench_gather_devices(b, a, &me, &devs, &e) < 0) {
		error("rank %d: %s", boot_rank(b), e.msg);
		boot_report_error(b, e.msg);
		ring_free(r);
		free(devs);
		boot_drop(b);
		return EXIT_CANNOT_RUN;
	}
	m = bench_meta_from_args(a, "tcp", devs, (size_t)boot_world(b));
	if (boot_rank(b) == 0) {
		rc.rep = bench_report_new(a->json ? NULL : stdout, &m);
		bench_report_columns(rc.rep);
	}
	ring_backend(r, &be);
	if (coll_sweep(&a->so, &be, b, bench_on_row, &rc, &e) < 0) {
		error("rank %d: %s", boot_rank(b), e.msg);
		boot_report_error(b, e.msg);
		ring_free(r);
		boot_drop(b);
		bench_report_free(rc.rep);
		free(devs);
		return EXIT_CANNOT_RUN;
	}
	ceiling_link_of_socket(a->sysnet, ring_send_fd(r), boot_rank(b), me.host, &mine);
	if (coll_links_gather(b, &mine, &links, &e) < 0) {
		error("rank %d: %s", boot_rank(b), e.msg);
		ring_free(r);
		boot_drop(b);
		bench_report_free(rc.rep);
		free(devs);
		return EXIT_CANNOT_RUN;
	}
	ring_free(r);
	boot_free(b);
	free(devs);
	if (!rc.rep) {
		free(links);
		return EXIT_CLEAN;
	}
	fs = findings_new();
	bench_add_ceiling(rc.rep, links, (size_t)a->world, a->stripes, fs);
	free(links);
	bench_report_footer(rc.rep);
	rcode = bench_finish(a, rc.rep, rc.wrong, EXIT_CLEAN, fs);
	bench_report_free(rc.rep);
	return rcode;
}

static const struct verb *const bench_subs[] = { &verb_bench_p2p, &verb_bench_tune };

const struct verb verb_bench = {
	.name = "bench",
	.summary = N_("measure links and collectives across nodes in nccl-tests' format (tcp or NCCL)"),
	.args = "COLLECTIVE",
	.description =
		N_("Measures a collective across every rank and checks every result, with nccl-tests'\n"
		   "columns and footer. Run the same command on every node (like 'cluster'): no MPI, no\n"
		   "Python. The footer holds busbw against each link's ceiling (sysfs line rate, TCP goodput\n"
		   "at its MTU; link.bw.low under 60 %), as # lines after 'Avg bus bandwidth' and in --json.\n"
		   "COLLECTIVE: allreduce, allgather, reducescatter, broadcast, alltoall (--backend tcp runs\n"
		   "allreduce, allgather and broadcast on the CPU over TCP).\n"
		   "\n"
		   "Ranks come from --master, --nodes and --node-rank (one process per node; with\n"
		   "--nproc-per-node N, N per node and this one is LOCAL_RANK of its node), else from\n"
		   "MASTER_ADDR/MASTER_PORT and RANK/WORLD_SIZE or NODE_RANK/NNODES.\n"),
	.opts = bench_opts,
	.json_help = N_("nccl-tests' JSON figures inside ncclcheck's document"),
	.examples =
		N_("  ncclcheck bench allreduce --master 10.0.0.1:29500 --nodes 2 --node-rank 0   (node 0)\n"
		   "  ncclcheck bench allreduce --master 10.0.0.1:29500 --nodes 2 --node-rank 1   (node 1)\n"
		   "  ncclcheck bench allgather --backend nccl -b 8 -e 128M -f 2 -g 8 --json\n"
		   "  ncclcheck bench p2p --serve 5201     and     ncclcheck bench p2p --connect ADDR:5201\n"),
	.exit_codes = bench_exit_codes,
	.flags = VERB_JSON | VERB_HTML,
	.run = cmd_bench,
	.subs = bench_subs,
	.nsubs = ARRAY_SIZE(bench_subs),
};

static void free_peers(struct bench_args *a)
{
	json_decref(a->compare);
	a->compare = NULL;
	for (size_t i = 0; i < a->npeers; i++)
		free(a->peers[i]);
	free(a->peers);
	strbuf_release(&a->token);
}

static struct boot_opts boot_opts_of(const struct bench_args *a, uint64_t salt)
{
	return (struct boot_opts){.rank = a->rank,
	                          .world = a->world,
	                          .master = a->master,
	                          .peers = (const char *const *)a->peers,
	                          .npeers = a->npeers,
	                          .timeout_ms = a->timeout_s * 1000,
	                          .params_hash = params_hash(a) ^ salt,
	                          .token = a->token.len ? a->token.buf : NULL,
	                          .token_len = a->token.len};
}

/* bench tune [flags] [--repeat N] */
static int cmd_bench_tune(int argc, char **argv)
{
	struct envmap *env = envmap_new(environ);
	struct bench_args a;
	struct boot_opts bo;
	struct cli c;
	int rc = parse_args(&verb_bench_tune, argc, argv, env, &a, &c);

	if (!rc) {
		a.so.check_every_iter = 0;
		bo = boot_opts_of(&a, 0x7475);
		rc = bench_run_tune(&a, env, &bo, a.repeat);
	} else if (rc < 0) {
		rc = EXIT_CLEAN;
	}
	free_peers(&a);
	envmap_free(env);
	return rc;
}

/* --compare FILE, read before the run: a sweep to draw, or a clear error now, not after it. */
static int load_compare(struct bench_args *a)
{
	json_error_t jerr;
	const json_t *b;

	if (!a->cli->common.html)
		return cli_usage_error("bench", "--compare draws on the --html page: give --html FILE");
	a->compare = json_load_file(a->compare_path, 0, &jerr);
	if (!a->compare) {
		error("--compare %s: not a JSON document: %s", a->compare_path, jerr.text);
		return EXIT_CANNOT_RUN;
	}
	b = json_is_object(json_object_get(a->compare, "bench")) ? json_object_get(a->compare, "bench")
								  : a->compare;
	if (!json_is_array(json_object_get(b, "results"))) {
		error("--compare %s: no bench results to compare with (neither 'bench --json' nor "
		      "nccl-tests' JSON)", a->compare_path);
		return EXIT_CANNOT_RUN;
	}
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	const struct verb *sub = cli_sub(&verb_bench, argc, argv);
	struct envmap *env;
	struct bench_args a;
	struct boot_opts bo;
	struct err e = ERR_INIT;
	struct boot *b;
	struct cli c;
	int rc;

	if (sub)
		return sub->run(argc - 1, argv + 1);
	env = envmap_new(environ);
	rc = parse_args(&verb_bench, argc, argv, env, &a, &c);
	if (!rc && a.compare_path)
		rc = load_compare(&a);
	if (rc) {
		free_peers(&a);
		envmap_free(env);
		return rc < 0 ? EXIT_CLEAN : rc;
	}
	bo = boot_opts_of(&a, 0);
	if (!strcmp(a.backend, "nccl")) {
		rc = bench_run_nccl(&a, env, &bo);
	} else {
		b = boot_new(&bo, &e);
		if (!b) {
			error("rank %d: %s", a.rank, e.msg);
			rc = e.code == ERR_USAGE ? EXIT_USAGE : EXIT_CANNOT_RUN;
		} else {
			rc = run_tcp(&a, b);
		}
	}
	free_peers(&a);
	envmap_free(env);
	return rc;
}
