/* ncclcheck attach: a job hangs now; name the rank, the collective, and what that rank does. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attach/across.h"
#include "attach/attach.h"
#include "attach/http.h"
#include "attach/stacks.h"
#include "finding.h"
#include "ncclcheck.h"
#include "launch/launch.h"
#include "report/render.h"
#include "util/envmap.h"
#include "util/xalloc.h"

enum { OPT_RAS = 1, OPT_NO_RAS, OPT_FR, OPT_FR_PREFIX, OPT_FR_URL, OPT_FR_LIVE, OPT_POLLS,
	OPT_INTERVAL, OPT_TIMEOUT, OPT_DEADLINE, OPT_TEXT, OPT_LOCAL_HOST, OPT_PROC_ROOT,
	OPT_RECORD, OPT_NO_DIAG, OPT_PID, OPT_NO_STACKS, OPT_ALL_NODES, OPT_TOKEN_FILE,
	OPT_JOIN_TIMEOUT, OPT_STACKS_FROM };

static const struct cli_opt attach_opts[] = {
	{ .name = "ras", .arg = "HOST:PORT", .id = OPT_RAS,
	  .help = N_("the job's RAS socket (default: $NCCL_RAS_ADDR, else localhost:28028)") },
	{ .name = "no-ras", .id = OPT_NO_RAS, .help = N_("do not ask RAS (flight-recorder dumps only)") },
	{ .name = "fr", .arg = "DIR", .id = OPT_FR,
	  .help = N_("a directory of flight-recorder dumps, one file per rank, as\n"
		     "TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1\n"
		     "TORCH_NCCL_DEBUG_INFO_TEMP_FILE=DIR/nccl_trace_rank_ write them") },
	{ .name = "fr-prefix", .arg = "P", .id = OPT_FR_PREFIX,
	  .help = N_("only files named P<rank> (default: any name ending in a rank number\n"
		     "whose content starts like a pickle)") },
	{ .name = "fr-url", .arg = "RANK=URL", .id = OPT_FR_URL, .flags = CLI_OPT_MULTI,
	  .help = N_("ask that rank's torch WorkerServer for its dump, live: URL is\n"
		     "unix:/PATH or http://127.0.0.1:PORT (this machine only; repeatable)") },
	{ .name = "fr-live", .id = OPT_FR_LIVE,
	  .help = N_("ask every local rank whose environment has TORCH_WORKER_SERVER_SOCKET\n"
		     "(torch.distributed.elastic's worker server) for its dump, live") },
	{ .name = "polls", .arg = "N", .id = OPT_POLLS,
	  .help = N_("RAS polls, 1-10 (default 2: a stall is told from progress by two)") },
	{ .name = "interval", .arg = "DUR", .id = OPT_INTERVAL,
	  .help = N_("time between polls, at least 2s (default 4s)") },
	{ .name = "timeout", .arg = "SECS", .id = OPT_TIMEOUT,
	  .help = N_("how long RAS waits for unresponsive peers per query, 0.1-60 (default\n"
		     "2; NCCL < 2.31 takes whole seconds: a fraction is rounded up for it)") },
	{ .name = "no-diagnostics", .id = OPT_NO_DIAG,
	  .help = N_("do not ask RAS for NCCL's own DIAGNOSTICS report (NCCL >= 2.31: it\n"
		     "compares GPUs, driver, ECC, Xid, NVLink and NCCL_* env across ranks)") },
	{ .name = "deadline", .arg = "DUR", .id = OPT_DEADLINE,
	  .help = N_("the whole collection (default 14s)") },
	{ .name = "text", .id = OPT_TEXT,
	  .help = N_("ask RAS for its text report even where JSON exists (NCCL >= 2.28.7)") },
	{ .name = "local-host", .arg = "ADDR", .id = OPT_LOCAL_HOST, .flags = CLI_OPT_MULTI,
	  .help = N_("a RAS host address whose processes this /proc shows (repeatable;\n"
		     "default: this machine's own addresses)") },
	{ .name = "proc-root", .arg = "DIR", .id = OPT_PROC_ROOT, .help = N_("read /proc from DIR (tests)") },
	{ .name = "record", .arg = "FILE", .id = OPT_RECORD,
	  .help = N_("save the RAS exchanges as a transcript (tests/fakes/ras_replay.py\n"
		     "serves it again); with --pid, the memory the stack reader read") },
	{ .name = "no-stacks", .id = OPT_NO_STACKS,
	  .help = N_("do not read the local ranks' Python stacks for the verdict") },
	{ .name = "stacks-from", .arg = "SRC", .id = OPT_STACKS_FROM,
	  .help = N_("where the Python stacks come from: auto (default: the process's memory,\n"
		     "and where that read fails, torch's WorkerServer at the process's\n"
		     "TORCH_WORKER_SERVER_SOCKET, /handler/dump_traceback, torch 2.10+),\n"
		     "memory, or worker-server (only the server: it answers under the GIL,\n"
		     "so not while the rank's native code holds it)") },
	{ .name = "all-nodes", .id = OPT_ALL_NODES,
	  .help = N_("run on every node of the job at once: the nodes meet as `ncclcheck\n"
		     "cluster`'s do (--master, --nodes, --node-rank or the launcher's), and\n"
		     "every node prints one verdict and every rank's stack grouped; give\n"
		     "--master a port the job does not use (its TCPStore holds MASTER_PORT)") },
	CLI_ROW_MASTER,
	CLI_ROW_NODES,
	CLI_ROW_NODE_RANK,
	{ .name = "token-file", .arg = "FILE", .id = OPT_TOKEN_FILE,
	  .help = N_("with --all-nodes: a secret every node shares (else $NCCLCHECK_TOKEN)") },
	{ .name = "join-timeout", .arg = "DUR", .id = OPT_JOIN_TIMEOUT,
	  .help = N_("with --all-nodes: how long rank 0 waits for every node (default 10s);\n"
		     "one that does not come is named, the others answer") },
	{ .name = "pid", .arg = "PID", .id = OPT_PID,
	  .help = N_("print the Python stacks and thread states of one local process, job\n"
		     "or not (read from its memory: never stopped, never signalled)") },
	{ 0 },
};

const struct verb verb_attach = {
	.name = "attach",
	.summary = N_("a job hangs now: name the rank, the collective and what that rank does"),
	.description =
		N_("Run it on a node of a job that hangs. It asks NCCL's RAS service (NCCL >= 2.24, on by\n"
		   "default) a few times, reads PyTorch flight-recorder dumps if you have them, looks at the\n"
		   "local ranks' processes in /proc, and prints one verdict line: which rank, on which host\n"
		   "and GPU, has not entered which collective that the others entered, and what it is doing.\n"
		   "Read-only: it never signals or writes to the job, and polls RAS no faster than every 2 s.\n"),
	.opts = attach_opts,
	.json_help = N_("one JSON document: verdict, RAS polls, dumps, processes, findings"),
	.examples =
		N_("  ncclcheck attach                          (on a node of the hung job; RAS on 28028)\n"
		   "  ncclcheck attach --no-ras --fr /tmp/fr    (flight-recorder dumps only)\n"
		   "  ncclcheck attach --fr-live --json\n"
		   "  ncclcheck attach --pid 4242                (one process's Python stacks)\n"
		   "  ncclcheck attach --all-nodes --master 10.0.0.1:29600 --nodes 4 --node-rank R\n"
		   "                                            (on every node at once)\n"),
	.exit_codes =
		N_("0 no hang found, 1 a culprit or a stall found, 2 usage error,\n"
		   "3 nothing answered (no RAS service, no dump).\n"),
	.flags = VERB_REPORT | VERB_HTML,
	.run = cmd_attach,
};

struct attach_args {
	struct attach_opts o;
	struct cli_launch lo;
	int across;		/* --all-nodes or a launch option */
	const char *token_file;
	long join_ms;
	const char *ras, *record;
	const char **locals, **urls;
	int *url_ranks;
	size_t nlocals, alocals, nurls, aurls, aurl_ranks;
	int no_ras;
	long pid;
};

static int attach_option(struct cli *c, int id, struct attach_args *a)
{
	struct err e = ERR_INIT;
	long v;
	int took = cli_launch_option(c, id, &a->lo);

	if (took) {
		a->across = 1;
		return took;
	}
	switch (id) {
	case OPT_ALL_NODES: a->across = 1; break;
	case OPT_TOKEN_FILE: a->token_file = c->arg; break;
	case OPT_JOIN_TIMEOUT:
		if (cli_parse_duration_ms(c->arg, &a->join_ms) < 0 || a->join_ms < 100 ||
		    a->join_ms > 600000)
			return cli_fail(c, "--join-timeout wants a duration up to 10m, not '%s'",
					c->arg);
		break;
	case OPT_RAS: a->ras = c->arg; break;
	case OPT_NO_RAS: a->no_ras = 1; break;
	case OPT_FR: a->o.fr_dir = c->arg; break;
	case OPT_FR_PREFIX: a->o.fr_prefix = c->arg; break;
	case OPT_FR_URL: {
		char *eq = strchr(c->arg, '=');
		long r;

		if (eq)
			*eq = '\0';
		if (!eq || cli_parse_long(c->arg, 0, 1 << 24, &r) < 0 ||
		    http_url_ok(eq + 1, &e) < 0)
			return cli_fail(c, "--fr-url wants RANK=URL%s%s", e.msg[0] ? ": " : "",
					e.msg);
		ALLOC_GROW(a->urls, a->nurls + 1, a->aurls);
		ALLOC_GROW(a->url_ranks, a->nurls + 1, a->aurl_ranks);
		a->url_ranks[a->nurls] = (int)r;
		a->urls[a->nurls++] = eq + 1;
		break;
	}
	case OPT_FR_LIVE: a->o.fr_live = 1; break;
	case OPT_POLLS:
		if (cli_parse_long(c->arg, 1, ATTACH_MAX_POLLS, &v) < 0)
			return cli_fail(c, "--polls wants 1-%d, not '%s'", ATTACH_MAX_POLLS,
					c->arg);
		a->o.polls = (int)v;
		break;
	case OPT_INTERVAL:
		if (cli_parse_duration_ms(c->arg, &a->o.interval_ms) < 0 || a->o.interval_ms <= 0)
			return cli_fail(c, "--interval wants a duration, not '%s'", c->arg);
		if (a->o.interval_ms < ATTACH_MIN_INTERVAL_MS)
			return cli_fail(c, "--interval %s is too fast: RAS is polled at least 2s "
					"apart (tight polling crashed NCCL 2.26.5, NVIDIA/nccl#1718)",
					c->arg);
		break;
	case OPT_TIMEOUT:
	{
		char *end;
		double t = strtod(c->arg, &end);
		if (end == c->arg || *end || !(t >= 0.1 && t <= 60))
			return cli_fail(c, "--timeout wants 0.1-60 seconds, not '%s'", c->arg);
		a->o.ras_timeout_s = t;
		break;
	}
	case OPT_NO_DIAG: a->o.no_diagnostics = 1; break;
	case OPT_DEADLINE:
		if (cli_parse_duration_ms(c->arg, &a->o.deadline_ms) < 0 ||
		    a->o.deadline_ms < 1000 || a->o.deadline_ms > 600000)
			return cli_fail(c, "--deadline wants 1s-10m, not '%s'", c->arg);
		break;
	case OPT_TEXT: a->o.want_json = 0; break;
	case OPT_LOCAL_HOST:
		ALLOC_GROW(a->locals, a->nlocals + 1, a->alocals);
		a->locals[a->nlocals++] = c->arg;
		break;
	case OPT_PROC_ROOT: a->o.proc_root = c->arg; break;
	case OPT_RECORD: a->record = c->arg; break;
	case OPT_NO_STACKS: a->o.no_stacks = 1; break;
	case OPT_STACKS_FROM:
		if (attach_stacks_from_parse(c->arg, &a->o.stacks_from) < 0)
			return cli_fail(c, "--stacks-from wants auto, memory or worker-server, not '%s'",
					c->arg);
		break;
	case OPT_PID:
		if (cli_parse_long(c->arg, 1, 1L << 22, &a->pid) < 0)
			return cli_fail(c, "--pid wants a process id, not '%s'", c->arg);
		break;
	}
	return id;
}

/* a member of a job-wide group: "rank 9 on node-3", "pid 4242 on node-3" without a rank */
static void member_str(FILE *out, const json_t *m)
{
	const json_t *rank = json_object_get(m, "rank");
	const char *node = json_string_value(json_object_get(m, "node"));

	if (json_is_integer(rank))
		fprintf(out, "rank %lld", (long long)json_integer_value(rank));
	else
		fprintf(out, "pid %lld", (long long)json_integer_value(json_object_get(m, "pid")));
	fprintf(out, " on %s", node ? node : "?");
}

/* --all-nodes: every node's ranks by stack, largest group first (the odd ones out last: the
 * suspects), a small group's members named; then the nodes that did not answer */
#define GROUP_NAMES_MAX 8
static void job_groups(FILE *out, const json_t *payload)
{
	const json_t *groups = json_object_get(payload, "job_stack_groups"), *g, *n;
	const char *error = json_string_value(json_object_get(payload, "error"));
	size_t i, k;

	if (error)
		fprintf(out, _("not every node's answer: %s\n"), error);
	if (json_array_size(groups)) {
		fputs(_("ranks by Python stack (main thread), every node:\n"), out);
		json_array_foreach(groups, i, g) {
			const json_t *ranks = json_object_get(g, "ranks"), *m;
			const char *stack = json_string_value(json_object_get(g, "stack"));
			size_t nr = json_array_size(ranks);

			fprintf(out, _("  %zu rank%s"), nr, nr == 1 ? "" : "s");
			/* a group of many is the job at large: its count says it */
			if (nr <= GROUP_NAMES_MAX) {
				fputs(" (", out);
				json_array_foreach(ranks, k, m) {
					if (k)
						fputs(", ", out);
					member_str(out, m);
				}
				fputc(')', out);
			}
			fprintf(out, ": %s\n", stack ? stack : "?");
		}
	}
	json_array_foreach(json_object_get(payload, "nodes"), i, n) {
		const char *name = json_string_value(json_object_get(n, "name"));
		const char *why = json_string_value(json_object_get(n, "error"));

		if (!json_is_true(json_object_get(n, "answered")))
			fprintf(out, _("node %lld (%s) is not in it: %s\n"),
				(long long)json_integer_value(json_object_get(n, "node_rank")),
				name ? name : "?", why ? why : "?");
	}
	fputc('\n', out);
}

/* The verdict line before the findings. */
static void attach_head(FILE *out, const json_t *payload, const struct render_opts *ro,
			const void *arg)
{
	const json_t *groups = json_object_get(payload, "stack_groups"), *g;
	struct strbuf l10n = STRBUF_INIT;
	size_t i;

	/* the verdict is English (as --json keeps it), put into the reader's language here */
	fprintf(out, "%s%s%s%s\n\n", render_bold(ro), _("verdict: "), render_reset(ro),
		render_l10n(&l10n, (const char *)arg));
	strbuf_release(&l10n);
	if (json_object_get(payload, "nodes")) {
		job_groups(out, payload);
		return;
	}
	/* only where the local ranks stand apart: one group says nothing the verdict does not */
	if (json_array_size(groups) < 2)
		return;
	fputs(_("local ranks by Python stack (main thread):\n"), out);
	json_array_foreach(groups, i, g) {
		const json_t *pids = json_object_get(g, "pids"), *p;
		size_t k;

		fputs("  ", out);
		fprintf(out, Q_("%zu process (pid", "%zu processes (pid", json_array_size(pids)),
			json_array_size(pids));
		json_array_foreach(pids, k, p)
			fprintf(out, "%s %lld", k ? "," : "", (long long)json_integer_value(p));
		fprintf(out, _("): %s\n"), json_string_value(json_object_get(g, "stack")));
	}
	fputc('\n', out);
}

/* --pid: each thread, its state and its Python stack, outermost frame first. */
static void stacks_head(FILE *out, const json_t *payload, const struct render_opts *ro,
			const void *arg)
{
	const json_t *py = json_object_get(payload, "python"), *th;
	struct strbuf l10n = STRBUF_INIT;
	size_t i;

	(void)arg;
	/* "process %lld" alone: a format that starts and ends in a conversion would match inside
	 * any message that names a process (i18n_text) */
	fputs(render_bold(ro), out);
	fprintf(out, _("process %lld"), (long long)json_integer_value(json_object_get(payload, "pid")));
	fputs(render_reset(ro), out);
	if (json_is_string(json_object_get(py, "version")))
		fprintf(out, ": Python %s (%s)%s", json_string_value(json_object_get(py, "version")),
			json_string_value(json_object_get(py, "binary")),
			json_is_true(json_object_get(py, "layout_tested")) ? "" :
			_(" [layout from CPython's headers, not tested on a live interpreter here]"));
	if (json_is_string(json_object_get(payload, "worker_server")) &&
	    json_is_string(json_object_get(payload, "stack_source")))
		fprintf(out, _(": from torch's WorkerServer (%s)"),
			json_string_value(json_object_get(payload, "worker_server")));
	fputc('\n', out);
	if (json_is_string(json_object_get(payload, "memory_error")))
		fprintf(out, _("its memory was not read: %s\n"),
			render_l10n(&l10n, json_string_value(json_object_get(payload, "memory_error"))));
	if (json_is_string(json_object_get(py, "error")))
		fprintf(out, _("no Python stacks: %s\n"),
			render_l10n(&l10n, json_string_value(json_object_get(py, "error"))));
	json_array_foreach(json_object_get(payload, "threads"), i, th) {
		const json_t *frames = json_object_get(th, "frames"), *f;
		size_t k;

		fprintf(out, _("\nthread %lld"), (long long)json_integer_value(json_object_get(th, "tid")));
		if (json_is_string(json_object_get(th, "name")))
			fprintf(out, _(" \"%s\" state %s%s%s"), json_string_value(json_object_get(th, "name")),
				json_string_value(json_object_get(th, "state")),
				*json_string_value(json_object_get(th, "where")) ? ", " : "",
				json_string_value(json_object_get(th, "where")));
		fputc('\n', out);
		if (!json_array_size(frames)) {
			if (json_is_true(json_object_get(th, "python")))
				fputs(_("  (no Python frames: outside the interpreter's loop)\n"), out);
			continue;
		}
		fprintf(out, "  Traceback (most recent call last):\n");
		json_array_foreach(frames, k, f) {
			const json_t *line = json_object_get(f, "line");
			if (json_is_integer(line))
				fprintf(out, "    File \"%s\", line %lld, in %s\n",
					json_string_value(json_object_get(f, "file")),
					(long long)json_integer_value(line),
					json_string_value(json_object_get(f, "function")));
			else
				fprintf(out, "    File \"%s\", in %s\n",
					json_string_value(json_object_get(f, "file")),
					json_string_value(json_object_get(f, "function")));
		}
		if (json_is_string(json_object_get(th, "frames_note")))
			fprintf(out, _("    ... stopped: %s\n"),
				render_l10n(&l10n, json_string_value(json_object_get(th, "frames_note"))));
	}
	fputc('\n', out);
	strbuf_release(&l10n);
}

static int stacks_main(struct cli *c, struct attach_args *a)
{
	struct strbuf image = STRBUF_INIT;
	struct attach_stacks st;
	struct findings *fs;
	json_t *payload;
	int code, ok;

	attach_stacks_collect((int)a->pid, a->o.proc_root ? a->o.proc_root : "/proc",
			      a->o.stacks_from, a->record ? &image : NULL, &st);
	ok = st.py.status == PY_OK;
	if (a->record && st.source == SOURCE_MEMORY) {
		FILE *f = fopen(a->record, "wb");
		int bad = !f;

		if (f) {
			bad = fwrite(image.buf, 1, image.len, f) != image.len;
			bad |= fclose(f) != 0;	/* closed either way */
		}
		if (bad)
			warning("cannot write the memory image to '%s': %s", a->record, err_errno_text(errno));
	}
	payload = attach_stacks_json(&st);
	fs = findings_new();
	code = cmd_report(c, payload, fs, &(struct report_text){
		.head = stacks_head, .flags = REPORT_CODE | REPORT_NO_SUMMARY,
		.code = ok ? EXIT_CLEAN : EXIT_CANNOT_RUN });
	if (!ok)
		error("no Python stacks for process %d: %s", st.pid, st.py.error);
	json_decref(payload);
	findings_free(fs);
	attach_stacks_release(&st);
	strbuf_release(&image);
	return code;
}

/* --all-nodes: the report the master sent (or this node's own), printed as a lone attach's. */
static int across_print(struct cli *c, const json_t *doc, int code)
{
	const json_t *payload = json_object_get(doc, "payload");
	const char *verdict = json_string_value(json_object_get(payload, "verdict"));
	struct findings *fs = findings_new();
	char ferr[256];

	if (!json_is_object(payload) || !verdict ||
	    findings_from_json(fs, json_object_get(doc, "findings"), ferr, sizeof(ferr)) < 0) {
		findings_free(fs);
		error("the master's report is unreadable%s%s", verdict ? ": " : "",
		      verdict ? ferr : "");
		return cli_finish(EXIT_CANNOT_RUN);
	}
	code = cmd_report(c, (json_t *)payload, fs, &(struct report_text){
		.head = attach_head, .arg = verdict, .flags = REPORT_CODE, .code = code });
	findings_free(fs);
	return code;
}

struct printed {
	struct cli *c;
	int code;
	int done;
};

static void deliver(void *arg, const json_t *doc, int code)
{
	struct printed *p = arg;

	p->code = across_print(p->c, doc, code);
	p->done = 1;
}

static int across_main(struct cli *c, struct attach_args *a)
{
	struct launch_flags lf = { .master = a->lo.master, .nodes = a->lo.nodes,
				   .node_rank = a->lo.node_rank };
	struct printed pr = { .c = c };
	struct across_opts x = { .answer_ms = ACROSS_ANSWER_MS, .deliver = deliver,
				 .deliver_arg = &pr };
	struct strbuf tok = STRBUF_INIT;
	struct envmap *env = cli_environ();
	struct err e = ERR_INIT;
	struct launch l;
	json_t *doc = NULL;
	char host[256];
	int code;

	if (launch_detect(env, &lf, &l, &e) < 0) {
		envmap_free(env);
		return cli_usage_error("attach", "--all-nodes: %s", e.msg);
	}
	if (!l.participate) {
		fprintf(stderr, _("ncclcheck: note: %s; this process exits\n"), l.note);
		code = cli_finish(EXIT_CLEAN);
		goto out;
	}
	if (cli_cluster_token(a->token_file, env, &tok) < 0) {
		code = EXIT_USAGE;
		goto out;
	}
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "rank-%d", l.node_rank);
	host[sizeof(host) - 1] = '\0';
	rdv_opts_init(&x.rdv);
	x.rdv.master_host = l.master_addr[0] ? l.master_addr : NULL;
	x.rdv.master_port = l.master_port;
	x.rdv.rank = l.node_rank;
	x.rdv.nnodes = l.nnodes;
	x.rdv.host = host;
	x.rdv.join_timeout_ms = a->join_ms ? a->join_ms : 10000;
	x.rdv.verb = "attach --all-nodes";
	x.rdv.token = tok.len ? tok.buf : NULL;
	x.rdv.token_len = tok.len;
	x.rdv.expected_hosts = (const char *const *)l.hosts;
	x.rdv.nexpected = l.nhosts;
	if (!c->common.json)
		fprintf(stderr, _("ncclcheck attach: node %d of %d (%s), master %s:%d\n"), l.node_rank,
			l.nnodes, launcher_name(l.kind), l.master_addr, l.master_port);
	if (attach_across(&a->o, &x, &doc, &code, &e) < 0) {
		error("%s", e.msg);
		code = cli_finish(EXIT_CANNOT_RUN);
		goto out;
	}
	code = pr.done ? pr.code : across_print(c, doc, code);
out:
	json_decref(doc);
	strbuf_release(&tok);
	launch_release(&l);
	envmap_free(env);
	return code;
}

static int attach_main(struct attach_args *a, int argc, char **argv)
{
	char host[256], port[16];
	struct attach_data d;
	struct err e = ERR_INIT;
	struct findings *fs;
	struct cli c;
	char *verdict;
	json_t *payload;
	int id, code, nothing;

	cli_start(&c, &verb_attach, argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (attach_option(&c, id, a) == CLI_STOP)
			return c.code;
	if (id == CLI_STOP)
		return c.code;
	if (a->pid && (a->ras || a->no_ras || a->o.fr_dir || a->nurls || a->o.fr_live))
		return cli_usage_error("attach", "--pid reads one process alone: not with --ras, "
				       "--no-ras or the flight-recorder options");
	if (a->pid && a->across)
		return cli_usage_error("attach", "--pid reads one local process: not with "
				       "--all-nodes or the launch options");
	if (a->pid)
		return stacks_main(&c, a);
	if (a->across && a->record)
		return cli_usage_error("attach", "--record keeps one node's RAS exchanges: not with "
				       "--all-nodes");
	if (a->no_ras && a->ras)
		return cli_usage_error("attach", "--ras and --no-ras contradict each other");
	if (a->no_ras && !a->o.fr_dir && !a->nurls)
		return cli_usage_error("attach", "--no-ras needs --fr DIR or --fr-url: nothing "
				       "else to read");
	if (a->no_ras && a->o.fr_live)
		return cli_usage_error("attach", "--fr-live finds the local ranks through RAS: "
				       "not with --no-ras (use --fr-url RANK=URL)");
	if (!a->no_ras) {
		if (ras_addr_pick(a->ras, getenv("NCCL_RAS_ADDR"), host, sizeof(host), port,
				  sizeof(port), &e) < 0)
			return cli_usage_error("attach", "--ras: %s", e.msg);
		a->o.ras_host = host;
		a->o.ras_port = port;
	}
	a->o.local_hosts = a->locals;
	a->o.nlocal_hosts = a->nlocals;
	a->o.fr_urls = a->urls;
	a->o.fr_url_ranks = a->url_ranks;
	a->o.nfr_urls = a->nurls;
	/* across nodes the whole answer is bounded: the collection gets its part of it */
	if (a->across && !a->o.deadline_ms)
		a->o.deadline_ms = ACROSS_COLLECT_MS;
	attach_opts_defaults(&a->o);
	if (a->across)
		return across_main(&c, a);
	if (attach_collect(&a->o, &d, &e) < 0) {
		attach_data_release(&d);
		return cli_usage_error("attach", "%s", e.msg);
	}
	if (a->record) {
		json_t *t = attach_transcript(&d);
		if (json_dump_file(t, a->record, JSON_INDENT(1)) < 0)
			warning("cannot write the RAS transcript to '%s'", a->record);
		json_decref(t);
	}
	fs = findings_new();
	nothing = attach_reason(&d, fs, &verdict, &payload);
	code = cmd_report(&c, payload, fs, &(struct report_text){
		.head = attach_head, .arg = verdict, .flags = REPORT_CODE,
		.code = nothing ? EXIT_CANNOT_RUN : findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS
										  : EXIT_CLEAN });
	if (nothing)
		error("%s", verdict);
	free(verdict);
	json_decref(payload);
	findings_free(fs);
	attach_data_release(&d);
	return code;
}

int cmd_attach(int argc, char **argv)
{
	struct attach_args a = { .o = { .want_json = 1 } };
	int code;

	cli_launch_init(&a.lo);
	code = attach_main(&a, argc, argv);

	free(a.locals);
	free(a.urls);
	free(a.url_ranks);
	return code;
}
