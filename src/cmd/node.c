/* ncclcheck node: inventory this machine, predict what NCCL will do, and say what to fix. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ncclcheck.h"
#include "probe/probe.h"
#include "finding.h"
#include "report/inventory.h"
#include "report/render.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/json.h"
#include "util/xalloc.h"

static const char node_usage[] =
"usage: ncclcheck node [--json] [--facts FILE] [--python PATH]... [--no-python]\n"
"                      [--python-timeout SECONDS] [--master-addr ADDR] [--verbose] [--no-color]\n"
"\n"
"Inventories this machine's GPU / CUDA / NCCL / PyTorch / Lightning stack and its network,\n"
"predicts what NCCL will do here (which interface it bootstraps on, which library torch\n"
"loads), and reports every problem with the exact fix. Nothing is changed on the machine.\n"
"\n"
"  --json                 print the facts and the findings as one JSON document\n"
"  --facts FILE           do not probe: re-run the rules on a facts document saved with\n"
"                         'ncclcheck node --json > FILE' (its \"facts\" member, or the bare facts)\n"
"  --python PATH          also inspect this interpreter (repeatable); python3 on PATH,\n"
"                         /usr/bin/python3 and the active venv/conda are inspected anyway\n"
"  --no-python            skip the Python probe (importing torch takes seconds)\n"
"  --python-timeout SEC   give up on an interpreter after SEC seconds (default 20)\n"
"  --master-addr ADDR     rank 0's address (default $MASTER_ADDR): the kernel's route to it\n"
"                         must leave through the interface NCCL bootstraps on\n"
"  -v, --verbose          show every piece of evidence and every passed check in full\n"
"      --no-color         no colours (also: NO_COLOR=1; colours are only used on a terminal)\n"
"\n"
"Exit codes: 0 no errors, 1 at least one error finding, 2 usage error, 3 could not run.\n"
"For tests, NCCLCHECK_SYS_ROOT, NCCLCHECK_PROC_ROOT and NCCLCHECK_ETC_ROOT point the probes\n"
"at fixture trees that stand for /sys, /proc and /etc. NCCLCHECK_ASSUME_NCCL=2.28.9 predicts\n"
"NCCL's interface choice for that version instead of the one torch loads.\n";

extern char **environ;

/* Facts documents are small; anything bigger is not one. */
#define FACTS_FILE_MAX (64L << 20)

static json_t *load_facts(const char *path)
{
	json_error_t jerr;
	struct stat st;
	json_t *doc, *facts;

	if (stat(path, &st) < 0) {
		error("cannot read facts '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (st.st_size > FACTS_FILE_MAX) {
		error("facts '%s' is %lld bytes; a facts document is at most %ld", path,
		      (long long)st.st_size, FACTS_FILE_MAX);
		return NULL;
	}
	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		error("facts '%s' is not JSON: %s (line %d, column %d)", path, jerr.text, jerr.line,
		      jerr.column);
		return NULL;
	}
	/* accept both the full `node --json` output and the bare facts object */
	facts = json_object_get(doc, "facts");
	if (facts) {
		json_incref(facts);
		json_decref(doc);
		doc = facts;
	}
	if (!json_is_object(doc) || !json_object_get(doc, "schema_version")) {
		error("facts '%s' is not a facts document (no schema_version)", path);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static int node_main(int argc, char **argv, struct envmap *env)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "facts", required_argument, NULL, 'f' },
		{ "python", required_argument, NULL, 'p' },
		{ "no-python", no_argument, NULL, 'P' },
		{ "master-addr", required_argument, NULL, 'm' },
		{ "python-timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct probe_ctx po;
	struct render_opts ro;
	const char *facts_file = NULL;
	const char **pythons = NULL;
	size_t npy = 0;
	int json = 0, verbose = 0, no_color = 0, c, code;
	struct findings *fs;
	json_t *facts;

	/* the job runs with our environment, and our NCCLCHECK_* knobs come from it too */
	probe_ctx_init(&po, env);
	probe_ctx_knobs(&po, env);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'f': facts_file = optarg; break;
		case 'p':
			pythons = xrealloc(pythons, (npy + 1) * sizeof(*pythons));
			pythons[npy++] = optarg;
			break;
		case 'P': po.skip_python = 1; break;
		case 'm': po.master_addr = optarg; break;
		case 't':
			if (cli_parse_duration_ms(optarg, &po.python_timeout_ms) < 0 || !po.python_timeout_ms) {
				free(pythons);
				return cli_usage_error("node", "--python-timeout wants seconds, not '%s'", optarg);
			}
			break;
		case 'v': verbose = 1; break;
		case 'C': no_color = 1; break;
		case 'h': fputs(node_usage, stdout); free(pythons); return cli_finish(EXIT_CLEAN);
		default: free(pythons); return cli_bad_option("node", c, argv, longopts);
		}
	}
	if (optind < argc) {
		free(pythons);
		return cli_usage_error("node", "unexpected argument '%s'", argv[optind]);
	}
	po.pythons = pythons;
	po.npythons = npy;

	facts = facts_file ? load_facts(facts_file) : probe_node(&po);
	free(pythons);
	if (!facts)
		return EXIT_USAGE;

	fs = findings_new();
	rules_run_node(facts, fs);
	findings_sort(fs);
	code = findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;

	if (json) {
		json_t *payload = json_object(), *doc;
		json_object_set(payload, "facts", facts);
		doc = render_json_doc("node", payload, fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
		json_decref(payload);
	} else {
		cli_render_opts(&ro, verbose, no_color);
		render_inventory_text(stdout, facts, &ro);
		render_findings_text(stdout, fs, &ro);
		fputc('\n', stdout);
		render_summary_line(stdout, fs, &ro);
		if (!facts_file)
			printf("probes took %lld ms\n", jpath_int(facts, "timings_ms.total", -1));
	}
	findings_free(fs);
	json_decref(facts);
	return cli_finish(code);
}

int cmd_node(int argc, char **argv)
{
	struct envmap *env = envmap_new(environ);
	int code = node_main(argc, argv, env);

	envmap_free(env);
	return code;
}
