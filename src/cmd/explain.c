/* ncclcheck explain: read logs (files, a directory of per-rank logs, stdin) and print diagnoses. */
#include "cmd/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain/explain.h"
#include "ncclcheck.h"
#include "finding.h"
#include "report/render.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum { OPT_MASTER_ADDR = 1 };

static const struct cli_opt explain_opts[] = {
	{ .name = "master-addr", .arg = "ADDR", .id = OPT_MASTER_ADDR,
	  .help = "MASTER_ADDR of the job, when the log does not show it (lets explain\n"
		  "name the interface NCCL_SOCKET_IFNAME should be)" },
	{ 0 },
};

const struct verb verb_explain = {
	.name = "explain",
	.summary = "read NCCL / torch / Lightning logs and say what failed and how to fix it",
	.args = "[LOG|DIR|-]...",
	.description =
		"Reads NCCL / PyTorch / Lightning / torchrun / Slurm output and says what went wrong, on which\n"
		"rank, why, and what to change. Give it every rank's log: files, a directory with one log per\n"
		"rank (rank0.log, rank1.log ...), or '-' for standard input (the default when input is piped).\n"
		"Prefixes are understood: torchrun's [rank3]: / [default0]:, srun -l's '3: ', ANSI colours and\n"
		"NCCL's 'host:pid:tid [dev] NCCL INFO'. Logs of any size are streamed in bounded memory.\n",
	.opts = explain_opts,
	.json_help = "print the per-rank extraction and the findings as one JSON document",
	.epilogue =
		"Best results come from logs recorded with\n"
		"  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP TORCH_DISTRIBUTED_DEBUG=DETAIL\n"
		"\n"
		"Exit codes: 0 no error found, 1 an error-level diagnosis, 2 usage error, 3 unreadable input.\n",
	.flags = VERB_REPORT,
	.run = cmd_explain,
};

/* Natural order, so rank2.log comes before rank10.log. */
static int natcmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			char *ex, *ey;
			unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
			if (nx != ny)
				return nx < ny ? -1 : 1;
			x = ex;
			y = ey;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

static int feed_fd(struct explain *x, const char *name, int fd)
{
	struct err e = ERR_INIT;
	struct lreader *r = lreader_fd(fd, EXPLAIN_MAX_LINE);
	int rc = explain_feed(x, name, r, &e);

	lreader_free(r);
	if (rc < 0)
		error("%s", e.msg);
	return rc;
}

static int feed_path(struct explain *x, const char *path, int depth);

static int feed_dir(struct explain *x, const char *path, int depth)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;

	if (!d)
		return error("cannot read directory '%s': %s", path, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xasprintf("%s/%s", path, de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), natcmp);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!rc && stat(names[i], &st) == 0 && (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && depth < 1)))
			rc = feed_path(x, names[i], depth + 1);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int feed_path(struct explain *x, const char *path, int depth)
{
	struct stat st;
	int fd, rc;

	if (!strcmp(path, "-"))
		return feed_fd(x, "<stdin>", 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return feed_dir(x, path, depth);
	}
	rc = feed_fd(x, path, fd);
	close(fd);
	return rc;
}

/* The per-rank table before the findings. */
static void explain_head(FILE *out, const json_t *payload, const struct render_opts *ro, const void *arg)
{
	struct strbuf sb = STRBUF_INIT;

	(void)ro;
	(void)arg;
	explain_ranks_text(payload, &sb);
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
		if (feed_fd(x, "<stdin>", 0) < 0) {
			explain_free(x);
			return EXIT_CANNOT_RUN;
		}
	}
	for (int i = c.optind; i < argc; i++)
		if (feed_path(x, argv[i], 0) < 0) {
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
