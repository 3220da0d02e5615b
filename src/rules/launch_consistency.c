/*
 * Launcher consistency (see launch_consistency.h). The contracts are launch-and-cloud.md §1:
 * SLURM_NTASKS_PER_NODE exists only with --ntasks-per-node; SLURM_TASKS_PER_NODE is "2(x3),1";
 * Lightning's SLURMEnvironment checks devices against SLURM_NTASKS_PER_NODE and num_nodes
 * against SLURM_NNODES; torchrun's WORLD_SIZE is nnodes x nproc_per_node. Pure: no I/O.
 */
#include "rules/launch_consistency.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "launch/vars.h"
#include "model/node.h"
#include "util/envmap.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void launch_facts_init(struct launch_facts *lf)
{
	memset(lf, 0, sizeof(*lf));
	lf->slurm_nodeid = -1;
	lf->node_rank = -1;
	lf->gpus_visible = -1;
}

/* A non-negative decimal, or -1. */
static int num(const char *s)
{
	char *end;
	long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v > 1000000)
		return -1;
	return (int)v;
}

static int pos(const char *s)
{
	int v = num(s);
	return v > 0 ? v : 0;
}

/* This node's task count in "2(x3),1" (node `idx`, 0 when unknown). */
static int tasks_for_node(const char *s, int idx)
{
	int node = 0;

	if (!s)
		return 0;
	if (idx < 0)
		idx = 0;
	while (*s) {
		char *end;
		long count = strtol(s, &end, 10), rep = 1;
		if (end == s || count < 0)
			return 0;
		s = end;
		if (!strncmp(s, "(x", 2)) {
			rep = strtol(s + 2, &end, 10);
			if (end == s + 2 || *end != ')' || rep < 1)
				return 0;
			s = end + 1;
		}
		if (idx < node + rep)
			return (int)count;
		node += (int)rep;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return 0;
}

/* Entries in CUDA_VISIBLE_DEVICES; -1 when unset. "" and "-1"-first lists hide every GPU. */
static int visible(const char *s)
{
	int n = 0;

	if (!s)
		return -1;
	if (!*s || !strncmp(s, "-1", 2) || !strcmp(s, "NoDevFiles"))
		return 0;
	for (const char *p = s; *p; p++)
		n += *p == ',';
	return n + 1;
}

/* get() of one variable */
#define GET(id) get(src, lv_name(LV_##id))

static const enum launch_var_id env_nodes[] = { LV_SLURM_JOB_NUM_NODES, LV_SLURM_NNODES, LV_NONE };
static const enum launch_var_id env_world[] = { LV_WORLD_SIZE, LV_OMPI_COMM_WORLD_SIZE, LV_PMI_SIZE,
						LV_NONE };
static const enum launch_var_id env_local[] = { LV_LOCAL_WORLD_SIZE, LV_OMPI_COMM_WORLD_LOCAL_SIZE,
						LV_MPI_LOCALNRANKS, LV_NONE };
static const enum launch_var_id env_nn[] = { LV_NNODES, LV_PET_NNODES, LV_NONE };
static const enum launch_var_id env_nr[] = { LV_NODE_RANK, LV_GROUP_RANK, LV_NONE };
static const enum launch_var_id env_step[] = { LV_SLURM_STEP_ID, LV_SLURM_PROCID, LV_NONE };

static void fill(struct launch_facts *lf, lv_getter get, const void *src, int gpus)
{
	launch_facts_init(lf);
	lf->slurm_job = GET(SLURM_JOB_ID) != NULL;
	lf->slurm_step = lv_first_value(get, src, env_step) != NULL;
	lf->slurm_nodes = pos(lv_first_value(get, src, env_nodes));
	lf->slurm_ntasks = pos(GET(SLURM_NTASKS));
	lf->slurm_ntasks_per_node = pos(GET(SLURM_NTASKS_PER_NODE));
	lf->slurm_nodeid = num(GET(SLURM_NODEID));
	lf->slurm_tasks_here = tasks_for_node(lf->slurm_step ? GET(SLURM_STEP_TASKS_PER_NODE) :
					      GET(SLURM_TASKS_PER_NODE), lf->slurm_nodeid);
	if (!lf->slurm_tasks_here && lf->slurm_step)
		lf->slurm_tasks_here = tasks_for_node(GET(SLURM_TASKS_PER_NODE), lf->slurm_nodeid);
	lf->torchrun = GET(TORCHELASTIC_RUN_ID) != NULL;
	lf->agent_store = GET(TORCHELASTIC_USE_AGENT_STORE) &&
			  !strcasecmp(GET(TORCHELASTIC_USE_AGENT_STORE), "true");
	lf->master_port = pos(GET(MASTER_PORT));
	lf->world_size = pos(lv_first_value(get, src, env_world));
	lf->local_world_size = pos(lv_first_value(get, src, env_local));
	lf->nnodes = pos(lv_first_value(get, src, env_nn));
	lf->node_rank = num(lv_first_value(get, src, env_nr));
	lf->gpus_on_node = gpus > 0 ? gpus : 0;
	lf->gpus_visible = visible(GET(CUDA_VISIBLE_DEVICES));
}

#undef GET

void launch_facts_from_env(struct launch_facts *lf, const struct envmap *env, int gpus_on_node)
{
	fill(lf, lv_from_envmap, env, gpus_on_node);
}

void launch_facts_from_model(struct launch_facts *lf, const struct node_model *m)
{
	fill(lf, lv_from_model, m, 0);
	lf->gpus_on_node = (int)m->ngpus;
}

/* "--opt=N", "--opt N", "-X N", "-XN" in `line`: N, or 0. */
static int opt_value(const char *line, const char *lng, const char *shrt)
{
	const char *p;
	size_t n = strlen(lng);

	for (p = strstr(line, lng); p; p = strstr(p + 1, lng)) {
		const char *v = p + n;
		if (p > line && !isspace((unsigned char)p[-1]))
			continue;
		if (*v == '=' || *v == ' ')
			return atoi(v + 1);
	}
	if (shrt) {
		n = strlen(shrt);
		for (p = strstr(line, shrt); p; p = strstr(p + 1, shrt)) {
			const char *v = p + n;
			if (p > line && !isspace((unsigned char)p[-1]))
				continue;
			while (*v == ' ' || *v == '=')
				v++;
			if (isdigit((unsigned char)*v))
				return atoi(v);
		}
	}
	return 0;
}

static int has_word(const char *line, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(line, w); p; p = strstr(p + 1, w)) {
		int before = p == line || isspace((unsigned char)p[-1]) || p[-1] == '/' || p[-1] == ';' ||
			     p[-1] == '(' || p[-1] == '&' || p[-1] == '|';
		int after = !p[n] || isspace((unsigned char)p[n]) || p[n] == ';';
		if (before && after)
			return 1;
	}
	return 0;
}

/* python, python3, python3.11, torchrun as a command word */
static const char *python_word(const char *line)
{
	for (const char *p = line; *p; p++) {
		if ((p == line || isspace((unsigned char)p[-1]) || p[-1] == '/') &&
		    (!strncmp(p, "python", 6) || !strncmp(p, "torchrun", 8))) {
			const char *q = p + (*p == 'p' ? 6 : 8);
			while (isdigit((unsigned char)*q) || *q == '.')
				q++;
			if (!*q || isspace((unsigned char)*q))
				return p;
		}
	}
	return NULL;
}

/* `name=N` (or `name = N`) as a keyword argument: N, or 0. */
static int kw_int(const char *line, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
		const char *v = p + n;
		if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-'))
			continue;
		while (*v == ' ')
			v++;
		if (*v++ != '=')
			continue;
		while (*v == ' ')
			v++;
		if (isdigit((unsigned char)*v))
			return atoi(v);
	}
	return 0;
}

/*
 * "tcp://host:PORT" after init_method (a keyword argument) or --dist-url / --dist_url (a script
 * argument, as detectron2's and DeiT's launchers spell it): PORT when it is a literal, else 0.
 */
static int tcp_init_port(const char *line)
{
	static const char *const keys[] = { "init_method", "--dist-url", "--dist_url" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = strstr(line, keys[i]), *t, *colon;

		if (!p || !(t = strstr(p, "tcp://")) || t - p > (long)strlen(keys[i]) + 4)
			continue;
		t += 6;
		colon = t + strcspn(t, ":'\" \t)/");
		if (*colon == ':' && isdigit((unsigned char)colon[1]))
			return atoi(colon + 1);
	}
	return 0;
}

static void scan_line(struct launch_facts *lf, const char *line, int lineno, int shell)
{
	const char *p = line, *py;
	int v;

	while (isspace((unsigned char)*p))
		p++;
	if (!strncmp(p, "#SBATCH", 7)) {
		if ((v = opt_value(p, "--nodes", "-N")) > 0)
			lf->script_nodes = v;
		if ((v = opt_value(p, "--ntasks-per-node", NULL)) > 0)
			lf->script_ntasks_per_node = v;
		return;
	}
	if (*p == '#' || !*p)
		return;
	/* a trailing comment says nothing about the numbers ("world size = num_nodes * devices") */
	for (const char *h = p + 1; *h; h++)
		if (*h == '#' && isspace((unsigned char)h[-1])) {
			char *cut = xstrndup(p, (size_t)(h - p));
			scan_line(lf, cut, lineno, shell);
			free(cut);
			return;
		}
	if ((v = tcp_init_port(p)) > 0 && !lf->init_tcp_port) {
		lf->init_tcp_port = v;
		lf->init_tcp_line = lineno;
	}
	if ((v = kw_int(p, "devices")) > 0)
		lf->lightning_devices = v;
	if ((v = kw_int(p, "num_nodes")) > 0)
		lf->lightning_num_nodes = v;
	if (!shell)
		return;
	py = python_word(p);
	if ((py && !strncmp(py, "torchrun", 8)) || strstr(p, "torch.distributed.run")) {
		if (!lf->script_torchrun)
			lf->script_torchrun = lineno;
		if ((v = opt_value(p, "--master_port", NULL)) > 0 ||
		    (v = opt_value(p, "--master-port", NULL)) > 0)
			lf->master_port = v;
		if (strstr(p, "c10d"))
			lf->script_c10d = 1;
	}
	if (has_word(p, "srun")) {
		const char *s = strstr(p, "srun");
		if (!strstr(p, "--ntasks-per-node") && !lf->script_ntasks_per_node && !lf->script_srun_no_tpn)
			lf->script_srun_no_tpn = lineno;
		if ((strstr(s, "torchrun") || strstr(s, "torch.distributed.run")) && !strstr(s, "--node_rank") &&
		    !strstr(s, "--node-rank") && !strstr(s, "c10d") && !lf->script_torchrun_no_rank)
			lf->script_torchrun_no_rank = lineno;
		if (!py || py > s)
			return;
	}
	if (py && !lf->script_python_no_srun)
		lf->script_python_no_srun = lineno;
}

void launch_scan_text(struct launch_facts *lf, const char *text)
{
	struct strbuf line = STRBUF_INIT;
	/* a shell script (its python lines are commands), or Python (only keyword arguments count) */
	const char *eol = strchr(text, '\n');
	size_t l1 = eol ? (size_t)(eol - text) : strlen(text);
	int shell = !strncmp(text, "#!", 2) && l1 < 256 && !memmem(text, l1, "python", 6) &&
		    memmem(text, l1, "sh", 2);
	int lineno = 0, start = 0;
	const char *p = text;

	if (strstr(text, "#SBATCH"))
		shell = 1;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		if (!line.len)
			start = lineno;
		strbuf_add(&line, p, n);
		if (line.len && line.buf[line.len - 1] == '\\') {
			/* continuation: the command goes on */
			strbuf_setlen(&line, line.len - 1);
			strbuf_addch(&line, ' ');
		} else {
			scan_line(lf, line.buf, start, shell);
			strbuf_reset(&line);
		}
		p += n + (nl ? 1 : 0);
	}
	if (line.len)
		scan_line(lf, line.buf, start, shell);
	strbuf_release(&line);
}

/* ---- the rule ---- */

int launch_consistency_id(const char *id)
{
	static const char *const ids[] = {
		"launch.devices_mismatch", "launch.nodes_mismatch", "launch.world_size",
		"launch.gpus.hidden", "launch.gpus.oversubscribed", "launch.gpus.one_per_task",
		"launch.sbatch.no_srun", "launch.node_rank.duplicate", "launch.srun.ntasks_per_node",
		"launch.torchrun.agent_store",
	};

	for (size_t i = 0; id && i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(id, ids[i]))
			return 1;
	return 0;
}

static int tasks_per_node(const struct launch_facts *lf, const char **from)
{
	if (lf->slurm_ntasks_per_node && !lf->torchrun) {
		*from = "SLURM_NTASKS_PER_NODE (srun/sbatch --ntasks-per-node)";
		return lf->slurm_ntasks_per_node;
	}
	if (lf->script_ntasks_per_node) {
		*from = "#SBATCH --ntasks-per-node";
		return lf->script_ntasks_per_node;
	}
	if (lf->local_world_size) {
		*from = lf->torchrun ? "LOCAL_WORLD_SIZE (torchrun --nproc_per_node)" :
				       "the launcher's local size";
		return lf->local_world_size;
	}
	if (lf->slurm_step && lf->slurm_tasks_here && !lf->torchrun) {
		*from = lv_name(LV_SLURM_TASKS_PER_NODE);
		return lf->slurm_tasks_here;
	}
	*from = NULL;
	return 0;
}

static int nodes(const struct launch_facts *lf, const char **from)
{
	if (lf->slurm_nodes) {
		*from = "SLURM_JOB_NUM_NODES (--nodes)";
		return lf->slurm_nodes;
	}
	if (lf->script_nodes) {
		*from = "#SBATCH --nodes";
		return lf->script_nodes;
	}
	if (lf->nnodes) {
		*from = "NNODES / PET_NNODES (torchrun --nnodes)";
		return lf->nnodes;
	}
	*from = NULL;
	return 0;
}

/*
 * torchrun exports TORCHELASTIC_USE_AGENT_STORE=True to its workers, and torch's
 * _create_c10d_store() took it as "a client for every endpoint": init_process_group with
 * init_method="tcp://host:P" on another port than the agent's store made every rank a client and
 * none a server (pytorch#192113, fixed on main in August 2026). Only a port the text names is
 * judged; with c10d the agent's port is its own choice, so nothing is said.
 */
static void agent_store(const struct launch_facts *lf, struct findings *out)
{
	int torchrun = lf->agent_store || lf->torchrun || lf->script_torchrun;
	int store = lf->master_port > 0 ? lf->master_port : 29500;
	struct finding *f;

	if (!torchrun || !lf->init_tcp_port || lf->init_tcp_port == store ||
	    (lf->script_c10d && lf->master_port <= 0))
		return;
	f = finding_add(out, SEV_WARN, "launch.torchrun.agent_store",
			"Under torchrun, init_method tcp://...:%d is not torchrun's store (port %d): "
			"every rank waits for a server that no rank starts", lf->init_tcp_port, store);
	finding_why(f, "torchrun's agent serves the TCPStore at MASTER_ADDR:MASTER_PORT and tells "
		    "each worker so (TORCHELASTIC_USE_AGENT_STORE=True). torch releases before the "
		    "August 2026 fix (pytorch#192113) applied that to every store address, so "
		    "init_process_group(init_method=\"tcp://host:%d\") makes every rank a client: "
		    "nothing listens on %d and start-up hangs silently until the store timeout (10 "
		    "minutes for nccl, 30 for gloo).", lf->init_tcp_port, lf->init_tcp_port);
	if (lf->init_tcp_line)
		finding_evidence(f, "line %d: tcp://...:%d", lf->init_tcp_line, lf->init_tcp_port);
	finding_evidence(f, "torchrun's store: port %d (%s)", store,
			 lf->master_port > 0 ? "MASTER_PORT / --master_port" : "torchrun's default");
	finding_fix(f, N_("# let torchrun's variables name the store: init_method=\"env://\" (or leave "
		    "init_method out), or use port %d in the tcp:// address"), store);
}

void rule_launch_consistency(const struct launch_facts *lf, struct findings *out)
{
	const char *tfrom, *nfrom;
	int tpn = tasks_per_node(lf, &tfrom), n = nodes(lf, &nfrom), vis;
	char per_node[32];
	struct finding *f;

	if (tpn && lf->lightning_devices && tpn != lf->lightning_devices) {
		f = finding_add(out, SEV_ERROR, "launch.devices_mismatch",
				"The launcher starts %d process%s per node, but Trainer(devices=%d)", tpn,
				tpn == 1 ? "" : "es", lf->lightning_devices);
		finding_why(f, "Lightning expects exactly `devices` processes on every node, each driving "
			    "one GPU. Under Slurm it refuses to start (or waits for ranks that never come) "
			    "when --ntasks-per-node differs; under torchrun the world size no longer adds up "
			    "and init_process_group hangs.");
		finding_evidence(f, "processes per node: %d from %s", tpn, tfrom);
		finding_evidence(f, "Trainer(devices=%d)", lf->lightning_devices);
		finding_fix(f, N_("make them equal: #SBATCH --ntasks-per-node=%d / --nproc_per_node=%d, or "
			    "Trainer(devices=%d)"), lf->lightning_devices, lf->lightning_devices, tpn);
		finding_setting(f, WHERE_LAUNCHER, SCOPE_ALL, "--ntasks-per-node", "%d", lf->lightning_devices);
	}
	if (n && lf->lightning_num_nodes && n != lf->lightning_num_nodes) {
		f = finding_add(out, SEV_ERROR, "launch.nodes_mismatch",
				"The job has %d node%s, but Trainer(num_nodes=%d)", n, n == 1 ? "" : "s",
				lf->lightning_num_nodes);
		finding_why(f, "Lightning computes the world size as num_nodes x devices; with another "
			    "number of nodes the ranks wait for peers that do not exist (or are never "
			    "counted) and init_process_group hangs until its timeout.");
		finding_evidence(f, "nodes: %d from %s", n, nfrom);
		finding_evidence(f, "Trainer(num_nodes=%d)", lf->lightning_num_nodes);
		finding_fix(f, N_("Trainer(num_nodes=%d)   # or #SBATCH --nodes=%d / torchrun --nnodes=%d"), n,
			    lf->lightning_num_nodes, lf->lightning_num_nodes);
		finding_setting(f, WHERE_LAUNCHER, SCOPE_ALL, "--nodes", "%d", lf->lightning_num_nodes);
	}
	if (lf->world_size && n && tpn && lf->world_size != n * tpn) {
		f = finding_add(out, SEV_ERROR, "launch.world_size",
				"WORLD_SIZE=%d, but %d node%s x %d process%s per node = %d", lf->world_size,
				n, n == 1 ? "" : "s", tpn, tpn == 1 ? "" : "es", n * tpn);
		finding_why(f, "Every rank waits in init_process_group until WORLD_SIZE ranks have joined: "
			    "too large and it hangs until the timeout, too small and the extra ranks are "
			    "refused.");
		finding_evidence(f, "nodes %d from %s; processes per node %d from %s", n, nfrom, tpn, tfrom);
		finding_fix(f, N_("let the launcher set WORLD_SIZE (torchrun, srun) instead of exporting it by hand"));
	} else if (lf->slurm_step && lf->slurm_ntasks && lf->slurm_nodes && lf->slurm_ntasks_per_node &&
		   !lf->torchrun && lf->slurm_ntasks != lf->slurm_nodes * lf->slurm_ntasks_per_node) {
		f = finding_add(out, SEV_ERROR, "launch.world_size",
				"SLURM_NTASKS=%d, but %d nodes x --ntasks-per-node=%d = %d", lf->slurm_ntasks,
				lf->slurm_nodes, lf->slurm_ntasks_per_node,
				lf->slurm_nodes * lf->slurm_ntasks_per_node);
		finding_why(f, "Lightning takes the world size from SLURM_NTASKS and the layout from "
			    "--ntasks-per-node; when they disagree some node runs fewer ranks than it "
			    "expects and the job hangs at start-up.");
		finding_fix(f, "drop --ntasks / -n and give --nodes with --ntasks-per-node only");
	}

	vis = lf->gpus_visible >= 0 ? lf->gpus_visible : lf->gpus_on_node;
	/* one process per GPU: this node's count, else Slurm's for the job's nodes (set with --gpus*) */
	if (vis > 0)
		snprintf(per_node, sizeof(per_node), "%d", vis);
	else
		snprintf(per_node, sizeof(per_node), "\"$SLURM_GPUS_ON_NODE\"");
	if (lf->gpus_visible == 0 && lf->gpus_on_node > 0) {
		f = finding_add(out, SEV_ERROR, "launch.gpus.hidden",
				"CUDA_VISIBLE_DEVICES hides every GPU from this task (the node has %d)",
				lf->gpus_on_node);
		finding_why(f, "torch sees no GPU: Trainer(accelerator=\"gpu\") stops, and a plain job "
			    "falls back to the CPU or fails in init_process_group(\"nccl\").");
		finding_fix(f, N_("request the GPUs for the step: srun --gres=gpu:%d (or #SBATCH --gres=gpu:%d), "
			    "and do not export CUDA_VISIBLE_DEVICES by hand"), lf->gpus_on_node, lf->gpus_on_node);
	} else if (tpn > 1 && vis > 1 && tpn > vis) {
		f = finding_add(out, SEV_ERROR, "launch.gpus.oversubscribed",
				"%d processes per node, but only %d GPU%s visible to them", tpn, vis,
				vis == 1 ? "" : "s");
		finding_why(f, "Two ranks end up on one GPU; NCCL refuses that (\"Duplicate GPU detected\") "
			    "and the process group fails to start.");
		finding_evidence(f, "processes per node %d from %s", tpn, tfrom);
		finding_fix(f, N_("one process per GPU: --ntasks-per-node=%d / --nproc_per_node=%d"), vis, vis);
	} else if (lf->gpus_visible == 1 && tpn > 1 && lf->lightning_devices > 1) {
		f = finding_add(out, SEV_WARN, "launch.gpus.one_per_task",
				"Each task sees one GPU (CUDA_VISIBLE_DEVICES has one entry), but "
				"Trainer(devices=%d)", lf->lightning_devices);
		f->conf = CONF_MEDIUM;
		finding_why(f, "With per-task GPU binding (--gpus-per-task=1, --gpu-bind) every task's "
			    "only GPU is cuda:0, while a Trainer with devices=N picks cuda:LOCAL_RANK: local "
			    "ranks above 0 fail with \"invalid device ordinal\".");
		finding_fix(f, N_("let every task see the node's GPUs (no --gpus-per-task / --gpu-bind), or "
			    "bind and use devices=1 per process"));
	}

	if (lf->script_python_no_srun) {
		int many = lf->script_nodes > 1 || lf->slurm_nodes > 1;
		f = finding_add(out, many ? SEV_ERROR : SEV_WARN, "launch.sbatch.no_srun",
				"The batch script starts python without srun (line %d)", lf->script_python_no_srun);
		finding_why(f, "A batch script runs on the first node of the allocation only: a python or "
			    "torchrun started directly is one process on one node, and every rank it waits "
			    "for on the other nodes never starts.");
		finding_fix(f, N_("srun --ntasks-per-node=%s python3 train.py   # or: srun "
			    "--ntasks-per-node=1 torchrun --node_rank=\"$SLURM_NODEID\" ..."), per_node);
	}
	if (lf->script_torchrun_no_rank || (lf->slurm_step && lf->slurm_nodeid > 0 && lf->node_rank == 0)) {
		f = finding_add(out, SEV_ERROR, "launch.node_rank.duplicate",
				"Every node thinks it is node rank 0");
		finding_why(f, "torchrun started by srun on every node, with no --node_rank (and no c10d "
			    "rendezvous), gives each node node_rank 0: two groups of ranks claim the same "
			    "ranks and the rendezvous hangs or fails.");
		if (lf->script_torchrun_no_rank)
			finding_evidence(f, "line %d: srun ... torchrun without --node_rank", lf->script_torchrun_no_rank);
		else
			finding_evidence(f, "SLURM_NODEID=%d but NODE_RANK/GROUP_RANK=0", lf->slurm_nodeid);
		finding_fix(f, N_("srun --ntasks-per-node=1 torchrun --nnodes=\"$SLURM_JOB_NUM_NODES\" "
			    "--node_rank=\"$SLURM_NODEID\" ...   # or --rdzv_backend=c10d"));
	}
	if (lf->script_srun_no_tpn || (lf->slurm_step && !lf->slurm_ntasks_per_node && !lf->torchrun &&
				       lf->slurm_ntasks > lf->slurm_nodes && lf->slurm_nodes > 0)) {
		f = finding_add(out, SEV_WARN, "launch.srun.ntasks_per_node",
				"srun without --ntasks-per-node: Slurm decides how many tasks each node gets");
		finding_why(f, "Without --ntasks-per-node, SLURM_NTASKS_PER_NODE is not set, Lightning "
			    "cannot check devices against it, and Slurm may pack the tasks unevenly; with "
			    "torchrun under srun it starts one launcher per task, not per node.");
		if (lf->script_srun_no_tpn)
			finding_evidence(f, "line %d", lf->script_srun_no_tpn);
		finding_fix(f, N_("srun --ntasks-per-node=%s ...   # or #SBATCH --ntasks-per-node=%s"), per_node,
			    per_node);
	}
	agent_store(lf, out);
}

void rule_launch_env(const json_t *facts, struct findings *out)
{
	struct err e = ERR_INIT;
	struct node_model *m = node_model_new(facts, &e);

	/* a document the model refuses is reported by the node rules (facts.invalid) */
	if (m)
		rule_launch_node(m, out);
	node_model_free(m);
}

void rule_launch_node(const struct node_model *m, struct findings *out)
{
	struct launch_facts lf;

	launch_facts_from_model(&lf, m);
	rule_launch_consistency(&lf, out);
}
