/*
 * ncclcheck config: the env file, torchrun lines, Trainer arguments, sbatch script, TaskProlog,
 * mpirun line and Kubernetes job that fit what was measured. The writers are emit/'s; this file
 * gathers the verdict (shared with `run`), picks the outputs and writes them.
 */
#include "cmd/cmd.h"
#include "cmd/recommend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ncclcheck.h"
#include "report/render.h"
#include "rules/launch_consistency.h"
#include "rules/rules.h"
#include "util/envmap.h"
#include "util/file.h"
#include "util/json.h"
#include "util/xalloc.h"

extern char **environ;

static const char config_usage[] =
"usage: ncclcheck config [--env] [--torchrun] [--lightning] [--sbatch] [--taskprolog]\n"
"                        [--mpirun] [--k8s] [--out DIR] [--json] [--from FILE]\n"
"                        [--nodes N] [--gpus-per-node N] [--master ADDR[:PORT]] [--node-rank R]\n"
"                        [--cloud autodl|aws|aliyun|azure|gcp|oci|generic] [--launcher CMD]\n"
"                        [--script CMD] [--find-unused-parameters] [--static-graph] ...\n"
"\n"
"Writes the environment and the launch commands that fit what ncclcheck measured: only the\n"
"settings the checks showed to be needed, each with the reason, and never the obsolete or\n"
"wrong advice in circulation (the reason for leaving each out is written too).\n"
"\n"
"Outputs (none chosen: --env; --out DIR writes all of them into DIR):\n"
"  --env                  env file / .bashrc block                 (ncclcheck.env)\n"
"  --torchrun             torchrun per node, and the c10d form     (torchrun-node<R>.sh, torchrun-c10d.sh)\n"
"  --lightning            PyTorch Lightning Trainer(...)           (trainer.py)\n"
"  --sbatch               Slurm batch script                       (job.sbatch)\n"
"  --taskprolog           Slurm TaskProlog printing the exports    (taskprolog.sh)\n"
"  --mpirun               Open MPI mpirun with -x                  (mpirun.sh)\n"
"  --k8s                  Kubeflow PyTorchJob                      (pytorchjob.yaml)\n"
"  --out DIR              write every output into DIR (created), plus recommendation.json,\n"
"                         and nccl.conf / sysctl-nccl.conf when settings belong there\n"
"  --json                 print the recommendation, the outputs and the findings as JSON\n"
"  --check FILE           instead: check a batch script / Trainer(...) file (repeatable, read\n"
"                         together) for launcher numbers that disagree (exit 1 on an error)\n"
"\n"
"The verdict:\n"
"  --from FILE            a saved 'ncclcheck cluster --json' or 'node --json' document (or bare\n"
"                         facts); without it this node is checked now, as 'ncclcheck node' does\n"
"  --no-python            skip the Python probe when checking this node\n"
"  --python-timeout SEC   give up on an interpreter after SEC seconds\n"
"\n"
"The job (defaults: what the facts and the launch environment show):\n"
"  --nodes N              number of nodes (NNODES, PET_NNODES, SLURM_JOB_NUM_NODES)\n"
"  --gpus-per-node N      processes per node = Lightning devices (the GPUs seen)\n"
"  --master ADDR[:PORT]   rank 0's address and TCPStore port (MASTER_ADDR, MASTER_PORT, 29500)\n"
"  --rdzv-port PORT       the c10d rendezvous port (29400)\n"
"  --node-rank R          --torchrun: only node R's script\n"
"  --cloud NAME           add a cloud's documented settings (default: the detected cloud)\n"
"  --launcher CMD         the torchrun command (default: torchrun)\n"
"  --script CMD           the training script and its arguments (default: train.py)\n"
"  --job-name NAME        sbatch / Kubernetes job name (default: train)\n"
"  --image IMAGE          container image for --k8s\n"
"  --find-unused-parameters  the model has parameters without a gradient in some steps\n"
"  --static-graph         the model's graph is the same every step (DDP static_graph)\n"
"\n"
"Exit codes: 0 written, 2 usage error or unusable document, 3 could not run or write.\n";

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
	if (!verdict_env) {
		verdict_env = cli_environ();
		atexit(verdict_env_free);
	}
	probe_ctx_init(&o->po, verdict_env);
	probe_ctx_knobs(&o->po, verdict_env);
}

static int parse_master(struct verdict_opts *o, const char *verb, const char *arg)
{
	char *addr = o->master_buf;
	const size_t addrlen = sizeof(o->master_buf);
	const char *colon;
	long port;

	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');
		if (!end || (end[1] && end[1] != ':') || (size_t)(end - arg - 1) >= addrlen)
			return -cli_usage_error(verb, "--master wants ADDR[:PORT] or [IPv6]:PORT, not '%s'", arg);
		memcpy(addr, arg + 1, (size_t)(end - arg - 1));
		addr[end - arg - 1] = '\0';
		colon = end[1] ? end + 1 : NULL;
	} else {
		colon = strchr(arg, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL;	/* a bare IPv6 address */
		if (strlen(arg) >= addrlen)
			return -cli_usage_error(verb, "--master '%s' is too long", arg);
		strcpy(addr, arg);
		if (colon)
			addr[colon - arg] = '\0';
	}
	if (colon) {
		if (cli_parse_long(colon + 1, 1, 65535, &port) < 0)
			return -cli_usage_error(verb, "--master port must be 1..65535, not '%s'", colon + 1);
		o->master_port = (int)port;
	}
	if (!addr[0])
		return -cli_usage_error(verb, "--master wants an address, not '%s'", arg);
	o->master_addr = addr;
	return 1;
}

int verdict_option(struct verdict_opts *o, const char *verb, int c, const char *arg)
{
	long v;

	switch (c) {
	case 1000: o->from = arg; return 1;
	case 1001:
		if (cli_parse_long(arg, 1, 100000, &v) < 0)
			return -cli_usage_error(verb, "--nodes wants 1..100000, not '%s'", arg);
		o->nodes = (int)v;
		return 1;
	case 1002:
		if (cli_parse_long(arg, 1, 1024, &v) < 0)
			return -cli_usage_error(verb, "--gpus-per-node wants 1..1024, not '%s'", arg);
		o->gpus_per_node = (int)v;
		return 1;
	case 1003: return parse_master(o, verb, arg);
	case 1004:
		if (cli_parse_long(arg, 1, 65535, &v) < 0)
			return -cli_usage_error(verb, "--rdzv-port wants 1..65535, not '%s'", arg);
		o->rdzv_port = (int)v;
		return 1;
	case 1005:
		if (emit_cloud_parse(arg, &o->cloud) < 0)
			return -cli_usage_error(verb, "--cloud wants autodl, aws, aliyun, azure, gcp, oci or "
						"generic, not '%s'", arg);
		o->cloud_set = 1;
		return 1;
	case 1006: o->find_unused = 1; return 1;
	case 1007: o->static_graph = 1; return 1;
	case 1008: o->torchrun = arg; return 1;
	case 1009: o->script = arg; return 1;
	case 1010: o->job_name = arg; return 1;
	case 1011: o->image = arg; return 1;
	case 1012: o->po.skip_python = 1; return 1;
	case 1013:
		if (cli_parse_duration_ms(arg, &o->po.python_timeout_ms) < 0 || !o->po.python_timeout_ms)
			return -cli_usage_error(verb, "--python-timeout wants seconds, not '%s'", arg);
		return 1;
	default: return 0;
	}
}

/* Saved documents are small; anything bigger is not one. */
#define DOC_MAX (64u << 20)

static json_t *load_doc(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	json_error_t jerr;
	json_t *doc;

	if (file_read(path, &sb, DOC_MAX, &e) < 0) {
		error("cannot read '%s': %s", path, e.msg);
		strbuf_release(&sb);
		return NULL;
	}
	doc = json_loadb(sb.buf, sb.len, JSON_REJECT_DUPLICATES, &jerr);
	strbuf_release(&sb);
	if (!doc)
		error("'%s' is not JSON: %s (line %d, column %d)", path, jerr.text, jerr.line, jerr.column);
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

/* The findings' settings, the cloud profile and the defaults, once the verdict is in. */
static int verdict_end(const struct verdict_opts *o, struct verdict *v)
{
	struct recommendation *rec = v->rec;
	struct err e = ERR_INIT;

	findings_sort(v->fs);
	rec_from_findings(rec, v->fs);
	if (o->cloud_set)
		rec_apply_cloud(rec, o->cloud);
	else
		rec_apply_cloud(rec, emit_cloud_from_provider(jpath_str(v->facts, "cloud.provider")));
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
			rules_run_facts(v->facts, v->fs);
			rec_numbers_from_facts(rec, v->facts);
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
		rules_run_facts(v->facts, v->fs);
		rec_numbers_from_facts(rec, v->facts);
		host = jpath_str(v->facts, "host.hostname");
		rec->source = xasprintf("ncclcheck node on %s", host ? host : "this machine");
	}
	return verdict_end(o, v);
}

void verdict_release(struct verdict *v)
{
	rec_free(v->rec);
	findings_free(v->fs);
	json_decref(v->facts);
	memset(v, 0, sizeof(*v));
}

/* Errors left when the job runs with the recommended environment: the rules judge again. */
struct findings *verdict_what_if(const struct verdict *v, const struct findings *extra)
{
	struct findings *after = findings_new();

	if (v->facts && !v->cluster && json_object_get(v->facts, "env")) {
		json_t *facts = json_deep_copy(v->facts);
		rec_apply_facts(v->rec, facts, jpath_str(v->facts, "host.hostname"));
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
		error("cannot write '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while (off < p->text.len) {
		ssize_t w = write(fd, p->text.buf + off, p->text.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			error("cannot write '%s': %s", path, strerror(errno));
			rc = -1;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && !rc) {
		error("cannot write '%s': %s", path, strerror(errno));
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
static int check_files(const char **files, size_t n, int json)
{
	struct launch_facts lf;
	struct findings *fs = findings_new();
	struct render_opts ro;
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
	code = findings_count(fs, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
	if (json) {
		json_t *payload = json_object(), *doc, *arr = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(arr, json_string(files[i]));
		json_object_set_new(payload, "checked", arr);
		doc = render_json_doc("config", payload, fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
		json_decref(payload);
	} else {
		cli_render_opts(&ro, 1, 0);
		render_findings_text(stdout, fs, &ro);
		if (fs->n)
			fputc('\n', stdout);
		render_summary_line(stdout, fs, &ro);
	}
	findings_free(fs);
	return cli_finish(code);
}

int cmd_config(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "env", no_argument, NULL, 'e' },
		{ "torchrun", no_argument, NULL, 't' },
		{ "lightning", no_argument, NULL, 'l' },
		{ "sbatch", no_argument, NULL, 's' },
		{ "taskprolog", no_argument, NULL, 'T' },
		{ "mpirun", no_argument, NULL, 'm' },
		{ "k8s", no_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "node-rank", required_argument, NULL, 'r' },
		{ "check", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		VERDICT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct verdict_opts vo;
	struct verdict v;
	int want[O_COUNT] = { 0 }, any = 0, json = 0, c, rc, code = EXIT_CLEAN;
	long node_rank = -1;
	const char *out_dir = NULL, **checks = NULL;
	size_t nchecks = 0;
	struct produced *prod = NULL;
	size_t nprod = 0, unfixed;

	verdict_opts_init(&vo);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': want[O_ENV] = any = 1; break;
		case 't': want[O_TORCHRUN] = any = 1; break;
		case 'l': want[O_LIGHTNING] = any = 1; break;
		case 's': want[O_SBATCH] = any = 1; break;
		case 'T': want[O_TASKPROLOG] = any = 1; break;
		case 'm': want[O_MPIRUN] = any = 1; break;
		case 'k': want[O_K8S] = any = 1; break;
		case 'o': out_dir = optarg; break;
		case 'j': json = 1; break;
		case 'r':
			if (cli_parse_long(optarg, 0, 99999, &node_rank) < 0)
				return cli_usage_error("config", "--node-rank wants 0..99999, not '%s'", optarg);
			break;
		case 'c':
			checks = xrealloc(checks, (nchecks + 1) * sizeof(*checks));
			checks[nchecks++] = optarg;
			break;
		case 'h': fputs(config_usage, stdout); free(checks); return cli_finish(EXIT_CLEAN);
		default:
			rc = verdict_option(&vo, "config", c, optarg);
			if (rc <= 0)
				free(checks);
			if (rc < 0)
				return -rc;
			if (!rc)
				return cli_bad_option("config", c, argv, longopts);
		}
	}
	if (optind < argc) {
		free(checks);
		return cli_usage_error("config", "unexpected argument '%s'", argv[optind]);
	}
	if (nchecks) {
		rc = check_files(checks, nchecks, json);
		free(checks);
		return rc;
	}
	if (out_dir && !any)
		for (int i = 0; i < O_COUNT; i++)
			want[i] = 1;
	else if (!any)
		want[O_ENV] = 1;

	rc = verdict_gather(&vo, &v);
	if (rc) {
		verdict_release(&v);
		return rc;
	}
	if (node_rank >= v.rec->nodes) {
		rc = cli_usage_error("config", "--node-rank %ld is not below --nodes %d", node_rank, v.rec->nodes);
		verdict_release(&v);
		return rc;
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
		if (mkdir(out_dir, 0755) < 0 && errno != EEXIST) {
			error("cannot create '%s': %s", out_dir, strerror(errno));
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
	if (json) {
		json_t *payload = json_object(), *files = json_array(), *doc;
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
		doc = render_json_doc("config", payload, v.fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
		json_decref(payload);
	} else if (out_dir) {
		if (code == EXIT_CLEAN) {
			printf("wrote %zu files into %s:", nprod, out_dir);
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
	if (unfixed && !json)
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
