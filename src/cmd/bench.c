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
#include "ncclcheck.h"
#include "link/ceiling.h"
#include "probe/probe.h"
#include "report/bench.h"
#include "util/envmap.h"
#include "util/xalloc.h"

extern char **environ;

/* bench p2p lives in cmd/bench_p2p.c (the link benchmarks); absent in a build without it */
int cmd_bench_p2p(int argc, char **argv) __attribute__((weak));

static const char bench_usage[] =
"usage: ncclcheck bench COLLECTIVE [--backend tcp|nccl] [nccl-tests flags] [rank options]\n"
"       ncclcheck bench p2p ...\n"
"       ncclcheck bench tune [nccl-tests flags] [rank options] [--repeat N]\n"
"\n"
"Measures a collective across every rank and checks every result, with nccl-tests' columns\n"
"and footer. Run the same command on every node (like 'cluster'): no MPI, no Python.\n"
"The footer holds busbw against each link's ceiling (sysfs line rate, TCP goodput at its MTU;\n"
"link.bw.low under 60 %), as # lines after 'Avg bus bandwidth' and in --json.\n"
"COLLECTIVE: allreduce, allgather, reducescatter, broadcast, alltoall\n"
"(--backend tcp runs allreduce, allgather and broadcast on the CPU over TCP).\n"
"\n"
"nccl-tests flags, same meaning (sizes take K/M/G, binary):\n"
"  -b, --minbytes N      smallest size (default 32M)\n"
"  -e, --maxbytes N      largest size (default 32M)\n"
"  -i, --stepbytes N     add N between sizes (default 1M)\n"
"  -f, --stepfactor N    multiply sizes by N instead (default 1: off)\n"
"  -n, --iters N         timed iterations per size and placement (default 20)\n"
"  -w, --warmup_iters N  warm-up iterations per size before the sweep (default 1)\n"
"  -c, --check N         tcp: 0 skips checking, else every timed iteration is checked;\n"
"                        nccl: N checked runs after the timed ones (default 1)\n"
"  -d, --datatype T      int8 uint8 int32 uint32 int64 uint64 half float double bfloat16\n"
"  -o, --op OP           sum prod max min (default sum)\n"
"  -r, --root N          root of broadcast (default 0)\n"
"  -g, --ngpus N         nccl: GPUs driven by this process, one rank each (default 1)\n"
"  -T, --timeout SEC     give up (abort NCCL) after SEC without progress (default 60)\n"
"\n"
"Ranks (flags, else MASTER_ADDR/MASTER_PORT and RANK/WORLD_SIZE or NODE_RANK/NNODES):\n"
"      --rank R          this process's rank (0 listens for the others)\n"
"      --world N         number of processes\n"
"      --master H:P      rank 0's address and port (default MASTER_ADDR:MASTER_PORT)\n"
"      --peers LIST      host:port of every rank, comma-separated, rank 0 first\n"
"\n"
"Backends:\n"
"      --backend B       tcp (default): a pipelined CPU ring over TCP; nccl: real NCCL on GPUs\n"
"      --stripes N       tcp: sockets per ring neighbour (default 4)\n"
"      --chunk N         tcp: bytes per pipelined piece (default 512K)\n"
"      --window N        tcp: clamp each receiving socket's TCP window to N bytes\n"
"      --nccl PATH       nccl: the libnccl.so.2 to load (default: the copy torch loads,\n"
"                        else the loader's default)\n"
"      --cuda PATH       nccl: libcuda.so.1 to load\n"
"      --json            nccl-tests' JSON figures inside ncclcheck's document\n"
"\n"
"bench tune runs an NCCL all-reduce (sizes and -n as above) under NCCL_NSOCKS_PERTHREAD x\n"
"NCCL_SOCKET_NTHREADS, NCCL_BUFFSIZE and NCCL_MIN_NCHANNELS, --repeat times each (default 3),\n"
"and recommends the best only when it beats the defaults by more than their run-to-run spread.\n"
"\n"
"Exit codes: 0 every result correct, 1 wrong results, 2 usage error, 3 could not run\n"
"(a peer missing or dead, no GPU, NCCL failed).\n";

enum {
	OPT_BACKEND = 256,
	OPT_RANK,
	OPT_WORLD,
	OPT_MASTER,
	OPT_PEERS,
	OPT_STRIPES,
	OPT_CHUNK,
	OPT_NCCL,
	OPT_CUDA,
	OPT_JSON,
	OPT_WINDOW
};

static const struct option bench_opts[] = {
    {"minbytes", required_argument, NULL, 'b'},
    {"maxbytes", required_argument, NULL, 'e'},
    {"stepbytes", required_argument, NULL, 'i'},
    {"stepfactor", required_argument, NULL, 'f'},
    {"iters", required_argument, NULL, 'n'},
    {"warmup_iters", required_argument, NULL, 'w'},
    {"check", required_argument, NULL, 'c'},
    {"datatype", required_argument, NULL, 'd'},
    {"op", required_argument, NULL, 'o'},
    {"root", required_argument, NULL, 'r'},
    {"ngpus", required_argument, NULL, 'g'},
    {"timeout", required_argument, NULL, 'T'},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"rank", required_argument, NULL, OPT_RANK},
    {"world", required_argument, NULL, OPT_WORLD},
    {"master", required_argument, NULL, OPT_MASTER},
    {"peers", required_argument, NULL, OPT_PEERS},
    {"stripes", required_argument, NULL, OPT_STRIPES},
    {"chunk", required_argument, NULL, OPT_CHUNK},
    {"window", required_argument, NULL, OPT_WINDOW},
    {"nccl", required_argument, NULL, OPT_NCCL},
    {"cuda", required_argument, NULL, OPT_CUDA},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
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

static int parse_args(int argc, char **argv, const struct envmap *env, struct bench_args *a)
{
	long v;
	int c;

	*a = (struct bench_args){
	    .backend = "tcp", .rank = -1, .world = -1, .stripes = 4, .timeout_s = 60};
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
	optind = 1;
	while ((c = getopt_long(argc, argv, ":b:e:i:f:n:w:c:d:o:r:g:T:h", bench_opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'b':
		case 'e':
		case 'i':
			if (parse_size(optarg, c == 'b'   ? &a->so.minbytes
			                       : c == 'e' ? &a->so.maxbytes
			                                  : &a->so.stepbytes) < 0)
				return cli_usage_error("bench",
				                       "-%c wants a size like 8, 64K, 32M or "
				                       "1G, not '%s'",
				                       c, optarg);
			break;
		case 'f':
		case 'n':
		case 'w':
		case 'c':
		case 'g':
			if (cli_parse_long(optarg, c == 'n' || c == 'f' || c == 'g' ? 1 : 0,
			                   c == 'g' ? 16 : 1000000, &v) < 0)
				return cli_usage_error("bench", "-%c wants a number, not '%s'", c,
				                       optarg);
			if (c == 'f')
				a->so.stepfactor = (int)v;
			else if (c == 'n')
				a->so.iters = (int)v;
			else if (c == 'w')
				a->so.warmup = (int)v;
			else if (c == 'c')
				a->so.check = (int)v;
			else
				a->so.nlocal = (int)v;
			break;
		case 'd':
			if (coll_dtype_parse(optarg) < 0)
				return cli_usage_error("bench",
				                       "unknown datatype '%s' (int8 uint8 int32 "
				                       "uint32 int64 uint64 half float double "
				                       "bfloat16)",
				                       optarg);
			a->so.dtype = coll_dtype_parse(optarg);
			break;
		case 'o':
			if (coll_op_parse(optarg) < 0)
				return cli_usage_error("bench",
				                       "unknown op '%s' (sum prod max min; "
				                       "avg is not checked exactly)",
				                       optarg);
			a->so.op = coll_op_parse(optarg);
			break;
		case 'r':
			if (cli_parse_long(optarg, 0, 1 << 20, &v) < 0)
				return cli_usage_error("bench", "-r wants a rank, not '%s'",
				                       optarg);
			a->so.root = (int)v;
			break;
		case 'T':
			if (cli_parse_long(optarg, 1, 86400, &a->timeout_s) < 0)
				return cli_usage_error("bench", "-T wants seconds, not '%s'",
				                       optarg);
			break;
		case OPT_BACKEND:
			if (strcmp(optarg, "tcp") && strcmp(optarg, "nccl"))
				return cli_usage_error(
				    "bench", "--backend is tcp or nccl, not '%s'", optarg);
			a->backend = optarg;
			break;
		case OPT_RANK:
		case OPT_WORLD:
			if (cli_parse_long(optarg, c == OPT_RANK ? 0 : 1, 4096, &v) < 0)
				return cli_usage_error("bench", "--%s wants a number, not '%s'",
				                       c == OPT_RANK ? "rank" : "world", optarg);
			*(c == OPT_RANK ? &a->rank : &a->world) = (int)v;
			break;
		case OPT_MASTER:
			a->master = optarg;
			break;
		case OPT_PEERS:
			split_peers(a, optarg);
			break;
		case OPT_STRIPES:
			if (cli_parse_long(optarg, 1, 16, &v) < 0)
				return cli_usage_error("bench", "--stripes is 1..16, not '%s'",
				                       optarg);
			a->stripes = (int)v;
			break;
		case OPT_CHUNK:
			if (parse_size(optarg, &a->chunk) < 0 || a->chunk < 4096)
				return cli_usage_error(
				    "bench", "--chunk wants a size >= 4K, not '%s'", optarg);
			break;
		case OPT_WINDOW: {
			size_t w;
			if (parse_size(optarg, &w) < 0 || w < 65536 || w > (1u << 30))
				return cli_usage_error(
				    "bench", "--window wants a size of 64K..1G, not '%s'", optarg);
			a->window = (int)w;
			break;
		}
		case OPT_NCCL:
			a->nccl_path = optarg;
			break;
		case OPT_CUDA:
			a->cuda_path = optarg;
			break;
		case OPT_JSON:
			a->json = 1;
			break;
		case 'h':
			fputs(bench_usage, stdout);
			return cli_finish(EXIT_CLEAN) == EXIT_CLEAN ? -1 : EXIT_CANNOT_RUN;
		default:
			return cli_bad_option("bench", c, argv, bench_opts);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error(
		    "bench", optind >= argc ? "which collective? (allreduce, "
		                              "allgather, reducescatter, broadcast, alltoall, p2p)"
		                            : "one collective per run");
	a->so.kind = coll_kind_by_name(argv[optind]);
	if (!a->so.kind)
		return cli_usage_error("bench",
		                       "unknown collective '%s' (allreduce, allgather, "
		                       "reducescatter, broadcast, alltoall, p2p)",
		                       argv[optind]);
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
		const char *r = envmap_get(env, "RANK") ? envmap_get(env, "RANK")
		                                        : envmap_get(env, "NODE_RANK");
		if (r && cli_parse_long(r, 0, 4096, &v) == 0)
			a->rank = (int)v;
	}
	if (a->world < 0 && !a->npeers) {
		const char *w = envmap_get(env, "WORLD_SIZE") ? envmap_get(env, "WORLD_SIZE")
		                                              : envmap_get(env, "NNODES");
		if (w && cli_parse_long(w, 1, 4096, &v) == 0)
			a->world = (int)v;
	}
	if (a->rank < 0)
		a->rank = 0;
	if (a->world < 0)
		a->world = a->npeers ? (int)a->npeers : 1;
	if (!a->master && !a->npeers) {
		const char *h = envmap_get(env, "MASTER_ADDR"), *p = envmap_get(env, "MASTER_PORT");
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
		struct finding *f = finding_add(fs, SEV_ERROR, "bench.result.wrong",
		                                "%s returned wrong results", a->so.kind->name);
		finding_why(f,
		            "%lld elements differed from the exact expected values (the inputs "
		            "are small integers, so any difference is corruption, not rounding)",
		            (long long)wrong);
		finding_fix(f, "rerun with -c 1 on fewer ranks to find the rank or link, and check "
		               "'ncclcheck node' on every node");
		code = EXIT_FINDINGS;
	}
	if (a->json) {
		json_t *payload = json_object(), *doc;
		json_object_set_new(payload, "bench", rep ? bench_report_json(rep) : json_null());
		doc = render_json_doc("bench", payload, fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
		json_decref(payload);
	} else if (findings_count(fs, SEV_OK) || findings_max(fs) > SEV_OK) {
		struct render_opts ro;
		cli_render_opts(&ro, 0, 0);
		render_findings_text(stdout, fs, &ro);
	}
	findings_free(fs);
	return cli_finish(code);
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
	snprintf(me.name, sizeof(me.name), "CPU, tcp ring, %d socket%s per neighbour", a->stripes,
	         a->stripes > 1 ? "s" : "");
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

int cmd_bench(int argc, char **argv)
{
	struct envmap *env;
	struct bench_args a;
	struct boot_opts bo;
	struct err e = ERR_INIT;
	struct boot *b;
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "p2p")) {
		if (!cmd_bench_p2p) {
			error("'bench p2p' is not in this build");
			return EXIT_CANNOT_RUN;
		}
		return cmd_bench_p2p(argc - 1, argv + 1);
	}
	env = envmap_new(environ);
	if (argc >= 2 && !strcmp(argv[1], "tune")) {
		/* bench tune [flags] [--repeat N]: an all-reduce over NCCL, per configuration */
		char **nargv = xcalloc((size_t)argc + 4, sizeof(*nargv));
		int nargc = 0, repeat = 3;
		long v;
		nargv[nargc++] = argv[0];
		nargv[nargc++] = (char *)"--backend";
		nargv[nargc++] = (char *)"nccl";
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
				if (cli_parse_long(argv[++i], 2, TUNE_MAX_REPS, &v) < 0) {
					free(nargv);
					envmap_free(env);
					return cli_usage_error("bench", "--repeat is 2..%d",
					                       TUNE_MAX_REPS);
				}
				repeat = (int)v;
				continue;
			}
			nargv[nargc++] = argv[i];
		}
		nargv[nargc++] = (char *)"allreduce";
		rc = parse_args(nargc, nargv, env, &a);
		if (!rc) {
			a.backend = "nccl";
			a.so.check_every_iter = 0;
			bo = (struct boot_opts){.rank = a.rank,
			                        .world = a.world,
			                        .master = a.master,
			                        .peers = (const char *const *)a.peers,
			                        .npeers = a.npeers,
			                        .timeout_ms = a.timeout_s * 1000,
			                        .params_hash = params_hash(&a) ^ 0x7475};
			rc = bench_run_tune(&a, env, &bo, repeat);
		} else if (rc < 0) {
			rc = EXIT_CLEAN;
		}
		free(nargv);
		for (size_t i = 0; i < a.npeers; i++)
			free(a.peers[i]);
		free(a.peers);
		envmap_free(env);
		return rc;
	}
	rc = parse_args(argc, argv, env, &a);
	if (rc) {
		envmap_free(env);
		return rc < 0 ? EXIT_CLEAN : rc;
	}
	bo = (struct boot_opts){.rank = a.rank,
	                        .world = a.world,
	                        .master = a.master,
	                        .peers = (const char *const *)a.peers,
	                        .npeers = a.npeers,
	                        .timeout_ms = a.timeout_s * 1000,
	                        .params_hash = params_hash(&a)};
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
	for (size_t i = 0; i < a.npeers; i++)
		free(a.peers[i]);
	free(a.peers);
	envmap_free(env);
	return rc;
}
