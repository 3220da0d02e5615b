/* ncclcheck node: inventory this machine, predict what NCCL will do, and say what to fix. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ncclcheck.h"
#include "probe/probe.h"
#include "facts/load.h"
#include "finding.h"
#include "model/node.h"
#include "report/inventory.h"
#include "report/render.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/envmap.h"
#include "util/json.h"
#include "util/xalloc.h"

enum { OPT_FACTS = 1, OPT_PYTHON, OPT_NO_PYTHON, OPT_PYTHON_TIMEOUT, OPT_MASTER_ADDR,
	OPT_DEEP };

static const struct cli_opt node_opts[] = {
	{ .name = "facts", .arg = "FILE", .id = OPT_FACTS,
	  .help = N_("do not probe: re-run the rules on a facts document saved with\n"
		     "'ncclcheck node --json > FILE' (its \"facts\" member, or the bare facts)") },
	{ .name = "python", .arg = "PATH", .id = OPT_PYTHON, .flags = CLI_OPT_MULTI,
	  .help = N_("also inspect this interpreter (repeatable); python3 on PATH,\n"
		     "/usr/bin/python3 and the active venv/conda are inspected anyway") },
	{ .name = "no-python", .id = OPT_NO_PYTHON,
	  .help = N_("skip the Python probe (importing torch takes seconds)") },
	{ .name = "python-timeout", .arg = "SEC", .id = OPT_PYTHON_TIMEOUT,
	  .help = N_("give up on an interpreter after SEC seconds (default 20)") },
	{ .name = "deep", .id = OPT_DEEP,
	  .help = N_("import torch in each interpreter (seconds) instead of reading\n"
		     "its files, version.py and libtorch_cuda.so's libraries") },
	{ .name = "master-addr", .arg = "ADDR", .id = OPT_MASTER_ADDR,
	  .help = N_("rank 0's address (default $MASTER_ADDR): the kernel's route to it\n"
		     "must leave through the interface NCCL bootstraps on") },
	{ 0 },
};

const struct verb verb_node = {
	.name = "node",
	.summary = N_("check this machine's stack and predict what NCCL will do here"),
	.description =
		N_("Inventories this machine's GPU / CUDA / NCCL / PyTorch / Lightning stack and its network,\n"
		   "predicts what NCCL will do here (which interface it bootstraps on, which library torch\n"
		   "loads), and reports every problem with the exact fix. Nothing is changed on the machine.\n"),
	.opts = node_opts,
	.json_help = N_("print the facts and the findings as one JSON document"),
	.epilogue =
		N_("For tests, NCCLCHECK_SYS_ROOT, NCCLCHECK_PROC_ROOT and NCCLCHECK_ETC_ROOT point the probes\n"
		   "at fixture trees that stand for /sys, /proc and /etc. NCCLCHECK_ASSUME_NCCL=2.28.9 predicts\n"
		   "NCCL's interface choice for that version instead of the one torch loads.\n"),
	.examples =
		"  ncclcheck node\n"
		"  ncclcheck node --no-python --master-addr 10.0.0.1\n"
		"  ncclcheck node --json > node.json   and later   ncclcheck node --facts node.json\n",
	.exit_codes = N_("0 no errors, 1 at least one error finding, 2 usage error, 3 could not run.\n"),
	.flags = VERB_REPORT | VERB_HTML,
	.run = cmd_node,
};

/* What the text renderers get: the model of the facts, and whether they came from a file. */
struct node_view {
	const struct node_model *m;
	int from_file;
};

/*
 * After the verdict, the findings and the summary: what the node is (the inventory), and the
 * probes' time when this run probed.
 */
static void node_tail(FILE *out, const json_t *payload, const struct render_opts *ro, const void *arg)
{
	fputc('\n', out);
	render_inventory_text(out, ((const struct node_view *)arg)->m, ro);
	if (!((const struct node_view *)arg)->from_file)
		fprintf(out, _("probes took %lld ms\n"),
			jpath_int(json_object_get(payload, "facts"), "timings_ms.total", -1));
}

static int node_main(int argc, char **argv, struct envmap *env)
{
	struct probe_ctx po;
	struct cli c;
	const char *facts_file = NULL;
	const char **pythons = NULL;
	size_t npy = 0;
	int id, code;
	struct findings *fs;
	struct node_model *model;
	struct node_view view;
	struct err e = ERR_INIT;
	json_t *facts, *payload;

	/* the job runs with our environment, and our NCCLCHECK_* knobs come from it too */
	probe_ctx_init(&po, env);
	probe_ctx_knobs(&po, env);
	cli_start(&c, &verb_node, argc, argv);
	while ((id = cli_next(&c)) > 0) {
		switch (id) {
		case OPT_FACTS: facts_file = c.arg; break;
		case OPT_PYTHON:
			pythons = xrealloc(pythons, (npy + 1) * sizeof(*pythons));
			pythons[npy++] = c.arg;
			break;
		case OPT_NO_PYTHON: po.skip_python = 1; break;
		case OPT_MASTER_ADDR: po.master_addr = c.arg; break;
		case OPT_DEEP: po.deep = 1; break;
		case OPT_PYTHON_TIMEOUT:
			if (cli_parse_duration_ms(c.arg, &po.python_timeout_ms) < 0 || !po.python_timeout_ms) {
				free(pythons);
				return cli_usage_error("node", "--python-timeout wants seconds, not '%s'", c.arg);
			}
			break;
		}
	}
	if (id == CLI_STOP) {
		free(pythons);
		return c.code;
	}
	po.pythons = pythons;
	po.npythons = npy;

	facts = facts_file ? facts_load_file(facts_file, &e) : probe_node(&po);
	free(pythons);
	if (!facts) {
		error("%s", e.msg);
		return EXIT_USAGE;
	}
	model = node_model_new(facts, &e);
	if (!model) {
		if (facts_file)
			error("facts '%s' rejected: %s", facts_file, e.msg);
		else
			error("the probes wrote facts the model rejects: %s", e.msg);
		json_decref(facts);
		return facts_file ? EXIT_USAGE : EXIT_CANNOT_RUN;
	}

	fs = findings_new();
	rules_run_node(model, fs);
	findings_sort(fs);

	payload = json_object();
	json_object_set(payload, "facts", facts);
	view = (struct node_view){ .m = model, .from_file = facts_file != NULL };
	code = cmd_report(&c, payload, fs,
			  &(struct report_text){ .tail = node_tail, .arg = &view,
						 .flags = REPORT_VERDICT });
	json_decref(payload);
	findings_free(fs);
	node_model_free(model);
	json_decref(facts);
	return code;
}

int cmd_node(int argc, char **argv)
{
	struct envmap *env = cli_environ();
	int code = node_main(argc, argv, env);

	envmap_free(env);
	return code;
}
