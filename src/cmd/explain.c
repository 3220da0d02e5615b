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

enum { OPT_MASTER_ADDR = 1 };

static const struct cli_opt explain_opts[] = {
	{ .name = "master-addr", .arg = "ADDR", .id = OPT_MASTER_ADDR,
	  .help = N_("MASTER_ADDR of the job, when the log does not show it (lets explain\n"
		     "name the interface NCCL_SOCKET_IFNAME should be)") },
	{ 0 },
};

const struct verb verb_explain = {
	.name = "explain",
	.summary = N_("read NCCL / torch / Lightning logs and say what failed and how to fix it"),
	.args = "[LOG|DIR|-]...",
	.description =
		N_("Reads NCCL / PyTorch / Lightning / torchrun / Slurm output and says what went wrong, on which\n"
		   "rank, why, and what to change. Give it every rank's log: files, a directory with one log per\n"
		   "rank (rank0.log, rank1.log ...), or '-' for standard input (the default when input is piped).\n"
		   "Prefixes are understood: torchrun's [rank3]: / [default0]:, srun -l's '3: ', ANSI colours and\n"
		   "NCCL's 'host:pid:tid [dev] NCCL INFO'. Logs of any size are streamed in bounded memory.\n"),
	.opts = explain_opts,
	.json_help = N_("print the per-rank extraction and the findings as one JSON document"),
	.epilogue =
		N_("Best results come from logs recorded with\n"
		   "  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP TORCH_DISTRIBUTED_DEBUG=DETAIL\n"),
	.examples =
		N_("  ncclcheck explain logs/                  (one log per rank: rank0.log, rank1.log ...)\n"
		   "  ncclcheck explain rank0.log rank1.log --master-addr 10.0.0.1\n"
		   "  torchrun ... 2>&1 | ncclcheck explain -\n"),
	.exit_codes = N_("0 no error found, 1 an error-level diagnosis, 2 usage error, 3 unreadable input.\n"),
	.flags = VERB_REPORT | VERB_HTML,
	.run = cmd_explain,
};

/* The inputs' errors reach the user here; explain itself never prints. */
static int feed(struct explain *x, const char *path)
{
	struct err e = ERR_INIT;
	int rc = path ? explain_feed_path(x, path, &e) : explain_feed_fd(x, "<stdin>", 0, &e);

	if (rc < 0)
		error("%s", e.msg);
	return rc;
}

/* The per-rank table before the findings. */
static void explain_head(FILE *out, const json_t *payload, const struct render_opts *ro, const void *arg)
{
	struct strbuf sb = STRBUF_INIT;

	(void)ro;
	(void)arg;
	render_explain_ranks(payload, &sb);
	fputs(sb.buf, out);
	fputc('\n', out);
	strbuf_release(&sb);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts eo = { 0 };
	struct cli c;
	int id, code;
	struct explain *x;
	struct findings *fs;
	json_t *payload;

	cli_start(&c, &verb_explain, argc, argv);
	while ((id = cli_next(&c)) > 0) {
		switch (id) {
		case OPT_MASTER_ADDR:
			if (!*c.arg || strlen(c.arg) > 63 || strpbrk(c.arg, " \t/"))
				return cli_usage_error("explain", "--master-addr wants an address or host name, not '%s'", c.arg);
			eo.master_addr = c.arg;
			break;
		}
	}
	if (id == CLI_STOP)
		return c.code;
	if (c.optind == argc && isatty(0))
		return cli_usage_error("explain", "no log given: name files or a directory, or pipe a log into '-'");

	x = explain_new(&eo);
	if (c.optind == argc) {
		if (feed(x, NULL) < 0) {
			explain_free(x);
			return EXIT_CANNOT_RUN;
		}
	}
	for (int i = c.optind; i < argc; i++)
		if (feed(x, argv[i]) < 0) {
			explain_free(x);
			return EXIT_CANNOT_RUN;
		}

	fs = findings_new();
	payload = explain_finish(x, fs);
	code = cmd_report(&c, payload, fs, &(struct report_text){ .head = explain_head });
	json_decref(payload);
	findings_free(fs);
	explain_free(x);
	return code;
}
