/*
 * ncclcheck config: the env file, torchrun lines, Trainer arguments, sbatch script, TaskProlog,
 * mpirun line and Kubernetes job that fit what was measured. The writers are emit/'s; this file
 * gathers the verdict (shared with `run`), picks the outputs and writes them.
 */
#include "cmd/cmd.h"
#include "cmd/verdict.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "facts/load.h"
#include "ncclcheck.h"
#include "report/render.h"
#include "rules/launch_consistency.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/file.h"
#include "util/json.h"
#include "util/xalloc.h"

extern char **environ;

enum { OPT_ENV = 1, OPT_TORCHRUN, OPT_LIGHTNING, OPT_SBATCH, OPT_TASKPROLOG, OPT_MPIRUN, OPT_K8S,
	OPT_OUT, OPT_CHECK };

static const struct cli_opt config_opts[] = {
	{ .name = "env", .id = OPT_ENV, .help = N_("env file / .bashrc block (ncclcheck.env)") },
	{ .name = "torchrun", .id = OPT_TORCHRUN,
	  .help = N_("torchrun per node, and the c10d form (torchrun-node<R>.sh,\n"
		     "torchrun-c10d.sh)") },
	{ .name = "lightning", .id = OPT_LIGHTNING,
	  .help = N_("PyTorch Lightning Trainer(...) (trainer.py)") },
	{ .name = "sbatch", .id = OPT_SBATCH, .help = N_("Slurm batch script (job.sbatch)") },
	{ .name = "taskprolog", .id = OPT_TASKPROLOG,
	  .help = N_("Slurm TaskProlog printing the exports (taskprolog.sh)") },
	{ .name = "mpirun", .id = OPT_MPIRUN, .help = N_("Open MPI mpirun with -x (mpirun.sh)") },
	{ .name = "k8s", .id = OPT_K8S, .help = N_("Kubeflow PyTorchJob (pytorchjob.yaml)") },
	{ .name = "out", .arg = "DIR", .id = OPT_OUT,
	  .help = N_("write every output into DIR (created), plus recommendation.json,\n"
		     "and nccl.conf / sysctl-nccl.conf when settings belong there\n"
		     "(no output chosen and no --out: --env on standard output)") },
	{ .name = "check", .arg = "FILE", .id = OPT_CHECK, .flags = CLI_OPT_MULTI,
	  .help = N_("instead: check a batch script / Trainer(...) file (repeatable, read\n"
		     "together) for launcher numbers that disagree (exit 1 on an error)") },
	VERDICT_ROW_FROM,
	VERDICT_ROW_NO_PYTHON,
	VERDICT_ROW_PYTHON_TIMEOUT,
	VERDICT_ROWS_JOB,
	CLI_ROW_NODE_RANK,
	{ 0 },
};

const struct verb verb_config = {
	.name = "config",
	.summary = N_("write the env file, torchrun / sbatch / mpirun / Kubernetes lines and Trainer(...) "
		      "that fit"),
	.description =
		N_("Writes the environment and the launch commands that fit what ncclcheck measured: only\n"
		   "the settings the checks showed to be needed, each with the reason, and never the\n"
		   "obsolete or wrong advice in circulation (the reason for leaving each out is written too).\n"
		   "The verdict is a saved document (--from) or this node, checked now. The job's numbers\n"
		   "default to what the facts and the launch environment show (NNODES, PET_NNODES,\n"
		   "SLURM_JOB_NUM_NODES, MASTER_ADDR, MASTER_PORT); --node-rank R with --torchrun writes\n"
		   "only node R's script.\n"),
	.opts = config_opts,
	.json_help = N_("print the recommendation, the outputs and the findings as JSON"),
	.examples =
		N_("  ncclcheck config                                   (the env file, for this node)\n"
		   "  ncclcheck config --from cluster.json --out job/    (every output, from a verdict)\n"
		   "  ncclcheck config --torchrun --nodes 2 --nproc-per-node 8 --master 10.0.0.1:29500\n"
		   "  ncclcheck config --check job.sbatch --check train.py\n"),
	.exit_codes = N_("0 written, 1 --check found an error, 2 usage error or unusable document,\n"
		         "3 could not run or write.\n"),
	.flags = VERB_JSON,
	.run = cmd_config,
};

enum out_kind { O_ENV, O_TORCHRUN, O_LIGHTNING, O_SBATCH, O_TASKPROLOG, O_MPIRUN, O_K8S, O_COUNT };

static const struct output {
	const char *file;
	int mode;
	void (*write)(struct strbuf *, const struct recommendation *);
} outputs[O_COUNT] = {
	[O_ENV] = { "ncclcheck.env", 0644, emit_env },
	[O_TORCHRUN] = { "torchrun-c10d.sh", 0755, emit_torchrun_c10d },
	[O_LIGHTNING] = { "trainer.py", 0644, emit_lightning },
	[O_SBATCH] = { "job.sbatch", 0755, emit_sbatch },
	[O_TASKPROLOG] = { "taskprolog.sh", 0755, emit_taskprolog },
	[O_MPIRUN] = { "mpirun.sh", 0755, emit_mpirun },
	[O_K8S] = { "pytorchjob.yaml", 0644, emit_k8s },
};

/* Per-node torchrun files beyond this many nodes: node 0's and the c10d form only. */
#define TORCHRUN_FILES_MAX 256

/* ---- the verdict, shared with run.c ---- */

/* The process's environment for the probes; one per process, freed at exit. */
static struct envmap *verdict_env;

static void verdict_env_free(void)
{
	envmap_free(verdict_env);
	verdict_env = NULL;
}

void verdict_opts_init(struct verdict_opts *o)
{
	memset(o, 0, sizeof(*o));
	cli_launch_init(&o->launch);
	if (!verdict_env) {
		verdict_env = cli_environ();
		atexit(verdict_env_free);
	}
	probe_ctx_init(&o->po, verdict_env);
	probe_ctx_knobs(&o->po, verdict_env);
}

int verdict_option(struct verdict_opts *o, struct cli *c, int id)
{
	struct cli_launch *l = &o->launch;
	long v;
	int r = cli_launch_option(c, id, l);

	if (r) {
		o->nodes = l->nodes > 0 ? (int)l->nodes : 0;
		o->gpus_per_node = l->nproc_per_node > 0 ? (int)l->nproc_per_node : 0;
		o->master_addr = l->master ? l->master_addr : NULL;
		o->master_port = l->master_port;
		return r;
	}
	switch (id) {
	case OPT_VERDICT_FROM: o->from = c->arg; return 1;
	case OPT_VERDICT_RDZV_PORT:
		if (cli_parse_long(c->arg, 1, 65535, &v) < 0)
			return cli_fail(c, "--rdzv-port wants 1..65535, not '%s'", c->arg);
		o->rdzv_port = (int)v;
		return 1;
	case OPT_VERDICT_CLOUD:
		if (emit_cloud_parse(c->arg, &o->cloud) < 0)
			return cli_fail(c, "--cloud wants autodl, aws, aliyun, azure, gcp, oci or "
					"generic, not '%s'", c->arg);
		o->cloud_set = 1;
		return 1;
	case OPT_VERDICT_FIND_UNUSED: o->find_unused = 1; return 1;
	case OPT_VERDICT_STATIC_GRAPH: o->static_graph = 1; return 1;
	case OPT_VERDICT_LAUNCHER: o->torchrun = c->arg; return 1;
	case OPT_VERDICT_SCRIPT: o->script = c->arg; return 1;
	case OPT_VERDICT_JOB_NAME: o->job_name = c->arg; return 1;
	case OPT_VERDICT_IMAGE: o->image = c->arg; return 1;
	case OPT_VERDICT_NO_PYTHON: o->po.skip_python = 1; return 1;
	case OPT_VERDICT_PYTHON_TIMEOUT:
		if (cli_parse_duration_ms(c->arg, &o->po.python_timeout_ms) < 0 ||
		    !o->po.python_timeout_ms)
			return cli_fail(c, "--python-timeout wants seconds, not '%s'", c->arg);
		return 1;
	default: return 0;
	}
}

static json_t *load_doc(const char *path)
{
	struct err e = ERR_INIT;
	json_t *doc = facts_load_doc(path, &e);

	if (!doc)
		error("%s", e.msg);
	return doc;
}

static void set_opt_str(char **dst, const char *s)
{
	if (s) {
		free(*dst);
		*dst = xstrdup(s);
	}
}

/* The options' part of the recommendation, before any verdict. */
static void verdict_begin(const struct verdict_opts *o, struct verdict *v)
{
	struct recommendation *rec = rec_new();

	memset(v, 0, sizeof(*v));
	v->rec = rec;
	v->fs = findings_new();
	rec->nodes = o->nodes;
	rec->gpus_per_node = o->gpus_per_node;
	rec->master_port = o->master_port;
	rec->rdzv_port = o->rdzv_port;
	rec->find_unused = o->find_unused;
	rec->static_graph = o->static_graph;
	set_opt_str(&rec->master_addr, o->master_addr);
	set_opt_str(&rec->torchrun, o->torchrun);
	set_opt_str(&rec->script, o->script);
	set_opt_str(&rec->job_name, o->job_name);
	set_opt_str(&rec->image, o->image);
}

/* The facts decoded once: what the recommendation needs of them (host name, cloud) is read from
 * the typed model. Facts that do not decode leave those unknown, as if never recorded. */
static void verdict_decode(struct verdict *v)
{
	struct err e = ERR_INIT;

	if (v->facts && !v->model)
		v->model = node_model_new(v->facts, &e);
}

/* This node's facts (probed, or a bare facts file): decoded once, judged, and read for the
 * recommendation's numbers. */
static void verdict_judge(struct verdict *v)
{
	v->model = rules_judge_facts(v->facts, v->fs);
	if (v->model)
		rec_numbers_from_model(v->rec, v->model);
}

/* The findings' settings, the cloud profile and the defaults, once the verdict is in. */
static int verdict_end(const struct verdict_opts *o, struct verdict *v)
{
	struct recommendation *rec = v->rec;
	struct err e = ERR_INIT;

	verdict_decode(v);
	findings_sort(v->fs);
	rec_from_findings(rec, v->fs);
	if (o->cloud_set)
		rec_apply_cloud(rec, o->cloud);
	else
		rec_apply_cloud(rec, emit_cloud_from_provider(v->model ? v->model->cloud.provider
								    : NULL));
	rec_defaults(rec);
	if (rec_check(rec, &e) < 0) {
		error("%s", e.msg);
		return EXIT_USAGE;
	}
	return 0;
}

int verdict_gather_doc(const struct verdict_opts *o, struct verdict *v, const json_t *doc,
		       const json_t *self, const char *source)
{
	struct err e = ERR_INIT;

	verdict_begin(o, v);
	rec_numbers_from_env(v->rec, o->po.env);
	if (rec_from_doc(v->rec, doc, v->fs, &e) < 0) {
		error("the cluster report is not usable: %s", e.msg);
		return EXIT_CANNOT_RUN;
	}
	v->cluster = json_is_array(json_object_get(doc, "nodes"));
	v->facts = json_incref((json_t *)(self ? self : jpath(doc, "nodes.0.facts")));
	v->rec->source = xstrdup(source);
	return verdict_end(o, v);
}

int verdict_gather(const struct verdict_opts *o, struct verdict *v)
{
	struct recommendation *rec;
	struct err e = ERR_INIT;
	const char *host;

	verdict_begin(o, v);
	rec = v->rec;
	if (o->from) {
		json_t *doc = load_doc(o->from);
		if (!doc)
			return EXIT_USAGE;
		if (!json_object_get(doc, "findings") && json_object_get(doc, "schema_version")) {
			/* bare facts: judge them now, as `node --facts` would */
			v->facts = doc;
			verdict_judge(v);
		} else {
			if (rec_from_doc(rec, doc, v->fs, &e) < 0) {
				error("'%s' is not a usable ncclcheck document: %s", o->from, e.msg);
				json_decref(doc);
				return EXIT_USAGE;
			}
			v->cluster = json_is_array(json_object_get(doc, "nodes"));
			v->facts = json_incref(json_object_get(doc, "facts"));
			if (!v->facts)
				v->facts = json_incref(jpath(doc, "nodes.0.facts"));
			json_decref(doc);
		}
		rec->source = xasprintf("%s", o->from);
	} else {
		/* this node alone; `run` on every node of a launch takes the cluster's verdict
		 * instead (run_cluster_verdict) */
		rec_numbers_from_env(rec, o->po.env);
		v->facts = probe_node(&o->po);
		verdict_judge(v);
		host = v->model ? v->model->hostname : NULL;
		rec->source = xasprintf("ncclcheck node on %s", host ? host : "this machine");
	}
	return verdict_end(o, v);
}

void verdict_release(struct verdict *v)
{
	rec_free(v->rec);
	findings_free(v->fs);
	node_model_free(v->model);
	json_decref(v->facts);
	memset(v, 0, sizeof(*v));
}

/* Errors left when the job runs with the recommended environment: the rules judge again. */
struct findings *verdict_what_if(const struct verdict *v, const struct findings *extra)
{
	struct findings *after = findings_new();

	if (v->facts && !v->cluster && json_object_get(v->facts, "env")) {
		json_t *facts = json_deep_copy(v->facts);
		rec_apply_facts(v->rec, facts, v->model ? v->model->hostname : NULL);
		rules_run_facts(facts, after);
		json_decref(facts);
	} else {
		/* a cluster document: its findings cannot be judged again here; those that no
		 * setting addresses still stand */
		for (size_t i = 0; i < v->fs->n; i++) {
			const struct finding *f = v->fs->v[i];
			/* fixed: the recommendation applies its settings, or keeps the job off the
			 * interface the finding is about */
			int fixed = rec_covers(v->rec, f) ||
				    (f->ifname && rec_steers_off(v->rec, f->node, f->ifname));
			for (size_t j = 0; j < v->rec->n && !fixed; j++)
				fixed = v->rec->v[j].source && !strcmp(v->rec->v[j].source, f->id);
			if (f->sev == SEV_ERROR && !fixed)
				finding_copy(after, f);
		}
	}
	for (size_t i = 0; extra && i < extra->n; i++)
		finding_copy(after, extra->v[i]);
	findings_sort(after);
	return after;
}

/* ---- config itself ---- */

struct produced {
	char *name;
	int mode;
	struct strbuf text;
};

static void produce(struct produced **p, size_t *n, const char *name, int mode)
{
	*p = xrealloc(*p, (*n + 1) * sizeof(**p));
	(*p)[*n].name = xstrdup(name);
	(*p)[*n].mode = mode;
	strbuf_init(&(*p)[*n].text, 0);
	(*n)++;
}

static int write_file(const char *dir, const struct produced *p)
{
	char *path = path_join(dir, p->name);
	int fd, rc = 0;
	size_t off = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, p->mode);
	if (fd < 0) {
		error("cannot write '%s': %s", path, err_errno_text(errno));
		free(path);
		return -1;
	}
	while (off < p->text.len) {
		ssize_t w = write(fd, p->text.buf + off, p->text.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			error("cannot write '%s': %s", path, err_errno_text(errno));
			rc = -1;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && !rc) {
		error("cannot write '%s': %s", path, err_errno_text(errno));
		rc = -1;
	}
	if (!rc)
		(void)chmod(path, (mode_t)p->mode);	/* O_CREAT's mode only applies to a new file */
	free(path);
	return rc;
}

/* Scripts and Trainer calls are small; anything bigger is not one. */
#define SCRIPT_MAX (4u << 20)

/* --check FILE...: the launcher consistency rule over the files' numbers together. */
static int check_files(const struct cli *c, const char **files, size_t n)
{
	struct launch_facts lf;
	struct findings *fs = findings_new();
	json_t *payload, *arr;
	int code;

	launch_facts_init(&lf);
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		struct err e = ERR_INIT;
		if (file_read(files[i], &sb, SCRIPT_MAX, &e) < 0) {
			error("cannot read '%s': %s", files[i], e.msg);
			strbuf_release(&sb);
			findings_free(fs);
			return EXIT_USAGE;
		}
		if (memchr(sb.buf, '\0', sb.len)) {
			error("'%s' is not a text file", files[i]);
			strbuf_release(&sb);
			findings_free(fs);
			return EXIT_USAGE;
		}
		launch_scan_text(&lf, sb.buf);
		strbuf_release(&sb);
	}
	rule_launch_consistency(&lf, fs);
	findings_sort(fs);
	payload = json_object();
	arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_string(files[i]));
	json_object_set_new(payload, "checked", arr);
	code = cmd_report(c, payload, fs, &(struct report_text){
		.flags = REPORT_VERBOSE | REPORT_BLANK_IF_ANY });
	json_decref(payload);
	findings_free(fs);
	return code;
}

/* config's own options: which outputs, where, or --check's files instead */
struct config_args {
	struct verdict_opts vo;
	int want[O_COUNT], any;
	const char *out_dir, **checks;
	size_t nchecks;
};

static int config_option(struct cli *c, int id, struct config_args *a)
{
	static const enum out_kind kinds[] = {
		[OPT_ENV] = O_ENV, [OPT_TORCHRUN] = O_TORCHRUN, [OPT_LIGHTNING] = O_LIGHTNING,
		[OPT_SBATCH] = O_SBATCH, [OPT_TASKPROLOG] = O_TASKPROLOG, [OPT_MPIRUN] = O_MPIRUN,
		[OPT_K8S] = O_K8S,
	};
	int r = verdict_option(&a->vo, c, id);

	if (r)
		return r;
	switch (id) {
	case OPT_ENV: case OPT_TORCHRUN: case OPT_LIGHTNING: case OPT_SBATCH: case OPT_TASKPROLOG:
	case OPT_MPIRUN: case OPT_K8S:
		a->want[kinds[id]] = a->any = 1;
		break;
	case OPT_OUT: a->out_dir = c->arg; break;
	case OPT_CHECK:
		a->checks = xrealloc(a->checks, (a->nchecks + 1) * sizeof(*a->checks));
		a->checks[a->nchecks++] = c->arg;
		break;
	}
	return id;
}

static int config_main(struct config_args *a, int argc, char **argv)
{
	struct verdict v;
	struct cli c;
	int *want = a->want, id, rc, code = EXIT_CLEAN;
	long node_rank;
	const char *out_dir;
	struct produced *prod = NULL;
	size_t nprod = 0, unfixed;
	enum i18n_lang lang = I18N_EN;

	cli_start(&c, &verb_config, argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (config_option(&c, id, a) == CLI_STOP)
			return c.code;
	if (id == CLI_STOP)
		return c.code;
	if (a->nchecks)
		return check_files(&c, a->checks, a->nchecks);
	out_dir = a->out_dir;
	node_rank = a->vo.launch.node_rank;
	if (out_dir && !a->any)
		for (int i = 0; i < O_COUNT; i++)
			want[i] = 1;
	else if (!a->any)
		want[O_ENV] = 1;

	rc = verdict_gather(&a->vo, &v);
	if (rc) {
		verdict_release(&v);
		return rc;
	}
	if (node_rank >= v.rec->nodes) {
		rc = cli_usage_error("config", "--node-rank %ld is not below --nodes %d", node_rank, v.rec->nodes);
		verdict_release(&v);
		return rc;
	}

	/*
	 * --json carries the files' text in "content", and a --json document is English in every
	 * language: the files are written in English then (main() set the language and no thread
	 * runs yet, so switching it for the writers and back is seen by nobody else).
	 */
	if (c.common.json) {
		lang = i18n_lang();
		i18n_set_lang(I18N_EN);
	}
	for (int i = 0; i < O_COUNT; i++) {
		if (!want[i])
			continue;
		if (i == O_TORCHRUN) {
			int lo = node_rank >= 0 ? (int)node_rank : 0;
			int hi = node_rank >= 0 ? (int)node_rank + 1 : v.rec->nodes;
			if (hi - lo > TORCHRUN_FILES_MAX)
				hi = lo + 1;
			for (int r = lo; r < hi; r++) {
				char name[64];
				snprintf(name, sizeof(name), "torchrun-node%d.sh", r);
				produce(&prod, &nprod, name, 0755);
				emit_torchrun(&prod[nprod - 1].text, v.rec, r);
			}
		}
		produce(&prod, &nprod, outputs[i].file, outputs[i].mode);
		outputs[i].write(&prod[nprod - 1].text, v.rec);
	}
	if (out_dir) {
		json_t *tmp = rec_to_json(v.rec);
		char *js = json_dumps(tmp, JSON_INDENT(2) | JSON_SORT_KEYS);

		json_decref(tmp);
		struct strbuf conf = STRBUF_INIT;

		if (emit_nccl_conf(&conf, v.rec)) {
			produce(&prod, &nprod, "nccl.conf", 0644);
			strbuf_addstr(&prod[nprod - 1].text, conf.buf);
		}
		strbuf_reset(&conf);
		if (emit_sysctl(&conf, v.rec)) {
			produce(&prod, &nprod, "sysctl-nccl.conf", 0644);
			strbuf_addstr(&prod[nprod - 1].text, conf.buf);
		}
		strbuf_release(&conf);
		produce(&prod, &nprod, "recommendation.json", 0644);
		strbuf_addstr(&prod[nprod - 1].text, js ? js : "{}");
		strbuf_addch(&prod[nprod - 1].text, '\n');
		free(js);
	}
	if (c.common.json)
		i18n_set_lang(lang);
	if (out_dir) {
		if (mkdir(out_dir, 0755) < 0 && errno != EEXIST) {
			error("cannot create '%s': %s", out_dir, err_errno_text(errno));
			code = EXIT_CANNOT_RUN;
		} else if (!file_is_dir(out_dir)) {
			error("'%s' is not a directory", out_dir);
			code = EXIT_CANNOT_RUN;
		}
		for (size_t i = 0; i < nprod && code == EXIT_CLEAN; i++)
			if (write_file(out_dir, &prod[i]) < 0)
				code = EXIT_CANNOT_RUN;
	}

	{
		struct findings *after = verdict_what_if(&v, NULL);
		unfixed = findings_count(after, SEV_ERROR);
		findings_free(after);
	}
	if (c.common.json) {
		json_t *payload = json_object(), *files = json_array();
		json_object_set_new(payload, "recommendation", rec_to_json(v.rec));
		for (size_t i = 0; i < nprod; i++) {
			json_t *f = json_object();
			jset_str(f, "name", prod[i].name);
			jset_fmt(f, "mode", "%04o", prod[i].mode);
			jset_str(f, "content", prod[i].text.buf);
			json_array_append_new(files, f);
		}
		json_object_set_new(payload, "files", files);
		if (out_dir)
			jset_str(payload, "out_dir", out_dir);
		jset_int(payload, "unfixed_errors", (long long)unfixed);
		code = cmd_report(&c, payload, v.fs, &(struct report_text){ .flags = REPORT_CODE,
									   .code = code });
		json_decref(payload);
	} else if (out_dir) {
		if (code == EXIT_CLEAN) {
			printf(_("wrote %zu files into %s:"), nprod, out_dir);
			for (size_t i = 0; i < nprod; i++)
				printf(" %s", prod[i].name);
			putchar('\n');
		}
	} else {
		for (size_t i = 0; i < nprod; i++) {
			if (nprod > 1)
				printf("%s# ---- %s ----\n", i ? "\n" : "", prod[i].name);
			fputs(prod[i].text.buf, stdout);
		}
	}
	if (unfixed && !c.common.json)
		warning("%zu error(s) remain with these settings: they need more than the environment "
			"(see 'ncclcheck node')", unfixed);
	for (size_t i = 0; i < nprod; i++) {
		free(prod[i].name);
		strbuf_release(&prod[i].text);
	}
	free(prod);
	verdict_release(&v);
	return cli_finish(code);
}

int cmd_config(int argc, char **argv)
{
	struct config_args a = { .any = 0 };
	int code;

	verdict_opts_init(&a.vo);
	code = config_main(&a, argc, argv);
	free(a.checks);
	return code;
}
