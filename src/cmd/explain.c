/* ncclcheck explain: read logs (files, a directory of per-rank logs, stdin) and print diagnoses. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/explain.h"
#include "ncclcheck.h"
#include "finding.h"
#include "report/explain_text.h"
#include "report/render.h"
#include "util/strbuf.h"

static const char explain_usage[] =
"usage: ncclcheck explain [--json] [--master-addr ADDR] [--verbose] [--no-color] [LOG|DIR|-]...\n"
"\n"
"Reads NCCL / PyTorch / Lightning / torchrun / Slurm output and says what went wrong, on which\n"
"rank, why, and what to change. Give it every rank's log: files, a directory with one log per\n"
"rank (rank0.log, rank1.log ...), or '-' for standard input (the default when input is piped).\n"
"Prefixes are understood: torchrun's [rank3]: / [default0]:, srun -l's '3: ', ANSI colours and\n"
"NCCL's 'host:pid:tid [dev] NCCL INFO'. Logs of any size are streamed in bounded memory.\n"
"\n"
"  --json               print the per-rank extraction and the diagnoses as one JSON document\n"
"  --master-addr ADDR   MASTER_ADDR of the job, when the log does not show it (lets explain\n"
"                       name the interface NCCL_SOCKET_IFNAME should be)\n"
"  -v, --verbose        show every piece of evidence\n"
"      --no-color       no colours (also: NO_COLOR=1)\n"
"\n"
"Best results come from logs recorded with\n"
"  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP TORCH_DISTRIBUTED_DEBUG=DETAIL\n"
"\n"
"Exit codes: 0 no error found, 1 an error-level diagnosis, 2 usage error, 3 unreadable input.\n";

/* The inputs' errors reach the user here; explain itself never prints. */
static int feed(struct explain *x, const char *path)
{
	struct err e = ERR_INIT;
	int rc = path ? explain_feed_path(x, path, &e) : explain_feed_fd(x, "<stdin>", 0, &e);

	if (rc < 0)
		error("%s", e.msg);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "master-addr", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct explain_opts eo = { 0 };
	struct render_opts ro;
	int json = 0, verbose = 0, no_color = 0, c, code;
	struct explain *x;
	struct findings *fs;
	json_t *payload;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'm':
			if (!*optarg || strlen(optarg) > 63 || strpbrk(optarg, " \t/"))
				return cli_usage_error("explain", "--master-addr wants an address or host name, not '%s'", optarg);
			eo.master_addr = optarg;
			break;
		case 'v': verbose = 1; break;
		case 'C': no_color = 1; break;
		case 'h': fputs(explain_usage, stdout); return cli_finish(EXIT_CLEAN);
		default: return cli_bad_option("explain", c, argv, longopts);
		}
	}
	if (optind == argc && isatty(0))
		return cli_usage_error("explain", "no log given: name files or a directory, or pipe a log into '-'");

	x = explain_new(&eo);
	if (optind == argc) {
		if (feed(x, NULL) < 0) {
			explain_free(x);
			return EXIT_CANNOT_RUN;
		}
	}
	for (int i = optind; i < argc; i++)
		if (feed(x, argv[i]) < 0) {
			explain_free(x);
			return EXIT_CANNOT_RUN;
		}

	fs = findings_new();
	payload = explain_finish(x, fs);
	code = findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	if (json) {
		json_t *doc = render_json_doc("explain", payload, fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
	} else {
		struct strbuf sb = STRBUF_INIT;
		cli_render_opts(&ro, verbose, no_color);
		render_explain_ranks(payload, &sb);
		fputs(sb.buf, stdout);
		fputc('\n', stdout);
		strbuf_release(&sb);
		render_findings_text(stdout, fs, &ro);
		fputc('\n', stdout);
		render_summary_line(stdout, fs, &ro);
	}
	json_decref(payload);
	findings_free(fs);
	explain_free(x);
	return cli_finish(code);
}
