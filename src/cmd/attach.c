/* ncclcheck attach: a job hangs now; name the rank, the collective, and what that rank does. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

#include "attach/attach.h"
#include "attach/http.h"
#include "finding.h"
#include "ncclcheck.h"
#include "report/render.h"
#include "util/xalloc.h"

static const char attach_usage[] =
"usage: ncclcheck attach [--ras HOST:PORT | --no-ras] [--fr DIR] [--json] [OPTIONS]\n"
"\n"
"Run it on a node of a job that hangs. It asks NCCL's RAS service (NCCL >= 2.24, on by default)\n"
"a few times, reads PyTorch flight-recorder dumps if you have them, looks at the local ranks'\n"
"processes in /proc, and prints one verdict line: which rank, on which host and GPU, has not\n"
"entered which collective that the others entered, and what it is doing. Read-only: it never\n"
"signals or writes to the job, and polls RAS no faster than every 2 s.\n"
"\n"
"  --ras HOST:PORT      the job's RAS socket (default: $NCCL_RAS_ADDR, else localhost:28028)\n"
"  --no-ras             do not ask RAS (flight-recorder dumps only)\n"
"  --fr DIR             a directory of flight-recorder dumps, one file per rank, as\n"
"                       TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1\n"
"                       TORCH_NCCL_DEBUG_INFO_TEMP_FILE=DIR/nccl_trace_rank_ write them\n"
"  --fr-prefix P        only files named P<rank> (default: any name ending in a rank number\n"
"                       whose content starts like a pickle)\n"
"  --fr-url RANK=URL    ask that rank's torch WorkerServer for its dump, live: URL is\n"
"                       unix:/PATH or http://127.0.0.1:PORT (this machine only; repeatable)\n"
"  --fr-live            ask every local rank whose environment has TORCH_WORKER_SERVER_SOCKET\n"
"                       (torch.distributed.elastic's worker server) for its dump, live\n"
"  --polls N            RAS polls, 1-10 (default 2: a stall is told from progress by two)\n"
"  --interval DUR       time between polls, at least 2s (default 4s)\n"
"  --timeout SECS       how long RAS waits for unresponsive peers per query (default 2)\n"
"  --deadline DUR       the whole collection (default 14s)\n"
"  --text               ask RAS for its text report even where JSON exists (NCCL >= 2.28.7)\n"
"  --local-host ADDR    a RAS host address whose processes this /proc shows (repeatable;\n"
"                       default: this machine's own addresses)\n"
"  --proc-root DIR      read /proc from DIR (tests)\n"
"  --record FILE        save the RAS exchanges as a transcript (tests/fakes/ras_replay.py\n"
"                       serves it again)\n"
"  --json               one JSON document: verdict, RAS polls, dumps, processes, findings\n"
"  -v, --verbose        show all evidence\n"
"      --no-color       no colours (also: NO_COLOR=1)\n"
"\n"
"Exit codes: 0 no hang found, 1 a culprit or a stall found, 2 usage error,\n"
"            3 nothing answered (no RAS service, no dump).\n";

int cmd_attach(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ras", required_argument, NULL, 'r' },
		{ "no-ras", no_argument, NULL, 'R' },
		{ "fr", required_argument, NULL, 'f' },
		{ "fr-prefix", required_argument, NULL, 'P' },
		{ "fr-url", required_argument, NULL, 'U' },
		{ "fr-live", no_argument, NULL, 'F' },
		{ "polls", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 't' },
		{ "deadline", required_argument, NULL, 'd' },
		{ "text", no_argument, NULL, 'T' },
		{ "local-host", required_argument, NULL, 'L' },
		{ "proc-root", required_argument, NULL, 'p' },
		{ "record", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct attach_opts o = { .want_json = 1 };
	const char *ras = NULL, *record = NULL;
	const char **locals = NULL, **urls = NULL;
	int *url_ranks = NULL;
	size_t nlocals = 0, alocals = 0, nurls = 0, aurls = 0, aurl_ranks = 0;
	int no_ras = 0, json = 0, verbose = 0, no_color = 0, c, code, nothing;
	char host[256], port[16];
	struct attach_data d;
	struct err e = ERR_INIT;
	struct findings *fs;
	char *verdict;
	json_t *payload;
	long v;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': ras = optarg; break;
		case 'R': no_ras = 1; break;
		case 'f': o.fr_dir = optarg; break;
		case 'P': o.fr_prefix = optarg; break;
		case 'U': {
			char *eq = strchr(optarg, '=');
			long r;
			if (eq)
				*eq = '\0';
			if (!eq || cli_parse_long(optarg, 0, 1 << 24, &r) < 0 || http_url_ok(eq + 1, &e) < 0) {
				code = cli_usage_error("attach", "--fr-url wants RANK=URL%s%s",
						       e.msg[0] ? ": " : "", e.msg);
				goto out_args;
			}
			ALLOC_GROW(urls, nurls + 1, aurls);
			ALLOC_GROW(url_ranks, nurls + 1, aurl_ranks);
			url_ranks[nurls] = (int)r;
			urls[nurls++] = eq + 1;
			break;
		}
		case 'F': o.fr_live = 1; break;
		case 'n':
			if (cli_parse_long(optarg, 1, ATTACH_MAX_POLLS, &v) < 0) {
				code = cli_usage_error("attach", "--polls wants 1-%d, not '%s'",
						       ATTACH_MAX_POLLS, optarg);
				goto out_args;
			}
			o.polls = (int)v;
			break;
		case 'i':
			if (cli_parse_duration_ms(optarg, &o.interval_ms) < 0 || o.interval_ms <= 0) {
				code = cli_usage_error("attach", "--interval wants a duration, not '%s'", optarg);
				goto out_args;
			}
			if (o.interval_ms < ATTACH_MIN_INTERVAL_MS) {
				code = cli_usage_error("attach", "--interval %s is too fast: RAS is polled at "
						       "least 2s apart (tight polling crashed NCCL 2.26.5, "
						       "NVIDIA/nccl#1718)", optarg);
				goto out_args;
			}
			break;
		case 't':
			if (cli_parse_long(optarg, 1, 60, &v) < 0) {
				code = cli_usage_error("attach", "--timeout wants 1-60 seconds, not '%s'", optarg);
				goto out_args;
			}
			o.ras_timeout_s = (int)v;
			break;
		case 'd':
			if (cli_parse_duration_ms(optarg, &o.deadline_ms) < 0 || o.deadline_ms < 1000 ||
			    o.deadline_ms > 600000) {
				code = cli_usage_error("attach", "--deadline wants 1s-10m, not '%s'", optarg);
				goto out_args;
			}
			break;
		case 'T': o.want_json = 0; break;
		case 'L':
			ALLOC_GROW(locals, nlocals + 1, alocals);
			locals[nlocals++] = optarg;
			break;
		case 'p': o.proc_root = optarg; break;
		case 'w': record = optarg; break;
		case 'j': json = 1; break;
		case 'v': verbose = 1; break;
		case 'C': no_color = 1; break;
		case 'h':
			fputs(attach_usage, stdout);
			code = cli_finish(EXIT_CLEAN);
			goto out_args;
		default:
			code = cli_bad_option("attach", c, argv, longopts);
			goto out_args;
		}
	}
	code = -1;
	if (optind < argc)
		code = cli_usage_error("attach", "unexpected argument '%s'", argv[optind]);
	else if (no_ras && ras)
		code = cli_usage_error("attach", "--ras and --no-ras contradict each other");
	else if (no_ras && !o.fr_dir && !nurls)
		code = cli_usage_error("attach", "--no-ras needs --fr DIR or --fr-url: nothing else to read");
	else if (no_ras && o.fr_live)
		code = cli_usage_error("attach", "--fr-live finds the local ranks through RAS: not with "
				       "--no-ras (use --fr-url RANK=URL)");
	if (code >= 0)
		goto out_args;
	if (!no_ras) {
		if (!ras)
			ras = getenv("NCCL_RAS_ADDR");
		if (!ras || !*ras)
			ras = "localhost:" RAS_DEFAULT_PORT;
		if (ras_addr_parse(ras, host, sizeof(host), port, sizeof(port), &e) < 0) {
			code = cli_usage_error("attach", "--ras: %s", e.msg);
			goto out_args;
		}
		o.ras_host = host;
		o.ras_port = port;
	}
	o.local_hosts = locals;
	o.nlocal_hosts = nlocals;
	o.fr_urls = urls;
	o.fr_url_ranks = url_ranks;
	o.nfr_urls = nurls;
	attach_opts_defaults(&o);
	if (attach_collect(&o, &d, &e) < 0) {
		code = cli_usage_error("attach", "%s", e.msg);
		attach_data_release(&d);
		goto out_args;
	}
	if (record) {
		json_t *t = attach_transcript(&d);
		if (json_dump_file(t, record, JSON_INDENT(1)) < 0)
			warning("cannot write the RAS transcript to '%s'", record);
		json_decref(t);
	}
	fs = findings_new();
	nothing = attach_reason(&d, fs, &verdict, &payload);
	code = nothing ? EXIT_CANNOT_RUN : findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	if (json) {
		json_t *doc = render_json_doc("attach", payload, fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
	} else {
		struct render_opts ro;
		cli_render_opts(&ro, verbose, no_color);
		printf("%sverdict:%s %s\n\n", render_bold(&ro), render_reset(&ro), verdict);
		render_findings_text(stdout, fs, &ro);
		fputc('\n', stdout);
		render_summary_line(stdout, fs, &ro);
	}
	if (nothing)
		error("%s", verdict);
	free(verdict);
	json_decref(payload);
	findings_free(fs);
	attach_data_release(&d);
	code = cli_finish(code);
out_args:
	free(locals);
	free(urls);
	free(url_ranks);
	return code;
}
