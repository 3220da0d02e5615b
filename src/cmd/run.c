/*
 * ncclcheck run -- CMD...: check first, then start CMD with the recommended environment. The
 * recommendation is proven before it is used: the node's rules run again on the facts as the
 * job will see them (the recommended variables applied), and CMD starts only when no error is
 * left. CMD replaces ncclcheck (exec), so its exit code is the job's.
 */
#include "cmd/cmd.h"
#include "cmd/recommend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "report/render.h"
#include "rules/launch_consistency.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/json.h"
#include "util/strbuf.h"

extern char **environ;

static const char run_usage[] =
"usage: ncclcheck run [--dry-run] [--quiet] [--from FILE] [--no-python] [config's job options]\n"
"                     -- CMD [ARGS]...\n"
"\n"
"Checks this node as 'ncclcheck node' does, works out the environment the job needs (the\n"
"settings 'ncclcheck config --env' writes), checks again as the job will run with it, and only\n"
"then starts CMD with that environment. When an error is left that the environment does not\n"
"fix, CMD is not started: the findings are shown instead (exit code 1).\n"
"\n"
"  --dry-run              print the environment changes and the command, start nothing\n"
"  -q, --quiet            no summary line on standard error before CMD starts\n"
"  --from FILE            use a saved 'cluster --json' / 'node --json' verdict instead of\n"
"                         checking this node now\n"
"  --no-python            skip the Python probe (importing torch takes seconds)\n"
"  --cloud NAME, --nodes N, --gpus-per-node N, --master ADDR[:PORT], ...: as for 'config'\n"
"  -v, --verbose          show every piece of evidence of the findings that stop the run\n"
"      --no-color         no colours\n"
"\n"
"Exit codes: CMD's own once it starts; 1 an error finding stopped it; 2 usage error;\n"
"3 the checks could not run or CMD could not be started.\n";

static void print_changes(FILE *out, const struct recommendation *rec, const struct envmap *before)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		const char *old;
		if (v->where != WHERE_ENV || v->scope != SCOPE_ALL)
			continue;
		old = envmap_get(before, v->name);
		if (v->value && old && !strcmp(old, v->value))
			continue;
		if (!v->value && !old)
			continue;
		n++;
		if (v->value)
			fprintf(out, "  %s=%s%s%s%s   # %s\n", v->name, v->value, old ? " (was " : "",
				old ? old : "", old ? ")" : "", v->why ? v->why : "");
		else
			fprintf(out, "  unset %s (was %s)   # %s\n", v->name, old, v->why ? v->why : "");
	}
	if (!n)
		fputs("  (no changes: the environment already has what the job needs)\n", out);
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		VERDICT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct verdict_opts vo;
	struct verdict v;
	struct render_opts ro;
	struct findings *after, *launch;
	struct envmap *before, *em;
	int dry = 0, quiet = 0, verbose = 0, no_color = 0, c, rc;
	char **cmd;

	verdict_opts_init(&vo);
	opterr = 0;
	/* '+': options end at the first word of CMD, as with env(1) */
	while ((c = getopt_long(argc, argv, "+:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': dry = 1; break;
		case 'q': quiet = 1; break;
		case 'v': verbose = 1; break;
		case 'C': no_color = 1; break;
		case 'h': fputs(run_usage, stdout); return cli_finish(EXIT_CLEAN);
		default:
			rc = verdict_option(&vo, "run", c, optarg);
			if (rc < 0)
				return -rc;
			if (!rc)
				return cli_bad_option("run", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("run", "no command to run (ncclcheck run -- CMD ...)");
	cmd = argv + optind;

	rc = verdict_gather(&vo, &v);
	if (rc) {
		verdict_release(&v);
		return rc;
	}
	before = envmap_new(environ);
	launch = findings_new();
	/* the launcher's own numbers, as the job's processes will see them */
	{
		const json_t *gpus = v.facts ? json_object_get(v.facts, "gpus") : NULL;
		struct launch_facts lf;

		launch_facts_from_env(&lf, before, (int)json_array_size(gpus));
		rule_launch_consistency(&lf, launch);
	}
	after = verdict_what_if(&v, launch);
	findings_free(launch);
	if (findings_count(after, SEV_ERROR)) {
		cli_render_opts(&ro, verbose, no_color);
		render_findings_text(stdout, after, &ro);
		fputc('\n', stdout);
		render_summary_line(stdout, after, &ro);
		printf("not starting '%s': %zu error(s) that the recommended environment does not fix\n",
		       cmd[0], findings_count(after, SEV_ERROR));
		findings_free(after);
		envmap_free(before);
		verdict_release(&v);
		return cli_finish(EXIT_FINDINGS);
	}
	em = envmap_new(environ);
	rec_apply_env(v.rec, em, jpath_str(v.facts, "host.hostname"));
	if (dry) {
		printf("ncclcheck run: the checks pass with this environment (%zu warning(s)); it would "
		       "start CMD with:\n", findings_count(after, SEV_WARN));
		print_changes(stdout, v.rec, before);
		fputs("command:", stdout);
		for (char **p = cmd; *p; p++) {
			struct strbuf w = STRBUF_INIT;
			emit_sh_word(&w, *p);
			printf(" %s", w.buf);
			strbuf_release(&w);
		}
		putchar('\n');
		findings_free(after);
		envmap_free(before);
		envmap_free(em);
		verdict_release(&v);
		return cli_finish(EXIT_CLEAN);
	}
	if (!quiet) {
		fprintf(stderr, "ncclcheck run: checks pass (%zu warning(s)); starting %s with:\n",
			findings_count(after, SEV_WARN), cmd[0]);
		print_changes(stderr, v.rec, before);
	}
	findings_free(after);
	envmap_free(before);
	verdict_release(&v);
	if (cli_finish(0) != 0) {
		envmap_free(em);
		return EXIT_CANNOT_RUN;
	}
	fflush(stderr);
	execvpe(cmd[0], cmd, envmap_envp(em));
	rc = errno;
	envmap_free(em);
	error("cannot start '%s': %s", cmd[0], strerror(rc));
	return EXIT_CANNOT_RUN;
}
