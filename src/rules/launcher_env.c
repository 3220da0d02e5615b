/*
 * The launcher-facing environment: torch's distributed variables that were renamed (advice
 * written before torch 2.2, like the second seed's NCCL_BLOCKING_WAIT=1, still uses the old
 * names), and rank variables left exported in an interactive shell, which make Lightning believe
 * that a launcher already started every rank, so one process waits forever for the others.
 * Pure: reads facts only.
 */
#include "rules/rules.h"

#include <string.h>

#include "launch/vars.h"
#include "model/stack.h"
#include "model/stack_tables.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/version.h"
#include "util/strbuf.h"

/* ---- renamed torch variables ------------------------------------------------------------- */

static void renamed_one(const struct node_model *m, const struct torch_renamed_var *r, const char *torch,
			const char *pypath, struct findings *out)
{
	const char *ov = node_model_env(m, r->old_name), *nv = node_model_env(m, r->new_name);
	int renamed = torch ? version_cmp_str(torch, r->renamed_in) >= 0 : -1;
	struct finding *f;

	if (ov && nv && strcmp(ov, nv) && renamed != 0) {
		f = finding_add(out, SEV_WARN, "torch.env.both_names",
				"%s=%s and %s=%s are both set; torch uses %s=%s", r->old_name, ov,
				r->new_name, nv, r->new_name, nv);
		finding_evidence(f, "env: %s=%s, %s=%s", r->old_name, ov, r->new_name, nv);
		if (torch)
			finding_evidence(f, "torch %s (%s)", torch, str_or(pypath, "?"));
		finding_why(f, "torch %s+ reads the new name first and falls back to the old one, "
			    "so the old value is ignored whenever they differ. %s: %s.", r->renamed_in,
			    r->new_name, r->meaning);
		finding_fix(f, "unset %s", r->old_name);
		finding_setting(f, WHERE_ENV, SCOPE_ALL, r->old_name, NULL);
		return;
	}
	if (ov && renamed != 0) {
		int blocking = !strcmp(r->old_name, "NCCL_BLOCKING_WAIT");
		if (torch)
			f = finding_add(out, SEV_WARN, "torch.env.renamed",
					"%s=%s is the pre-%s name of %s; torch %s still reads it but "
					"warns", r->old_name, ov, r->renamed_in, r->new_name, torch);
		else
			f = finding_add(out, SEV_INFO, "torch.env.renamed",
					"%s=%s is the pre-%s name of %s (torch version unknown)",
					r->old_name, ov, r->renamed_in, r->new_name);
		finding_evidence(f, "env: %s=%s", r->old_name, ov);
		if (torch)
			finding_evidence(f, "torch %s (%s); renamed in torch %s", torch, str_or(pypath, "?"),
					 r->renamed_in);
		if (blocking)
			finding_why(f, "Advice written before torch %s (the second seed recommends "
				    "NCCL_BLOCKING_WAIT=1 against random disconnects) uses the old name. "
				    "Blocking wait makes every collective block the calling thread and "
				    "turns the watchdog off; torch's default (%s=3 for the async variable) "
				    "already turns a hung collective into an error after the process-group "
				    "timeout, so it rarely helps against disconnects.", r->renamed_in,
				    "TORCH_NCCL_ASYNC_ERROR_HANDLING");
		else
			finding_why(f, "torch %s renamed it (pytorch#114077); the old name still works "
				    "but logs a deprecation warning on every rank. %s: %s.", r->renamed_in,
				    r->new_name, r->meaning);
		finding_fix(f, "unset %s", r->old_name);
		finding_setting(f, WHERE_ENV, SCOPE_ALL, r->old_name, NULL);
		if (blocking)
			finding_fix(f, N_("# only if you really want blocking collectives: export %s=%s"),
				    r->new_name, ov);
		else
			finding_export(f, r->new_name, "%s", ov);
		return;
	}
	if (nv && renamed == 0) {
		f = finding_add(out, SEV_WARN, "torch.env.new_name_ignored",
				"%s=%s is ignored by torch %s, which only reads %s", r->new_name, nv,
				torch, r->old_name);
		finding_evidence(f, "env: %s=%s; torch %s (%s)", r->new_name, nv, torch, str_or(pypath, "?"));
		finding_why(f, "The TORCH_ prefix arrived in torch %s; older releases read only the "
			    "old name. %s: %s.", r->renamed_in, r->old_name, r->meaning);
		finding_export(f, r->old_name, "%s", nv);
	}
}

/* ---- rank variables without a launcher --------------------------------------------------- */

/* The Lightning version of the first interpreter that has one, or NULL. */
static const char *lightning_version(const struct node_model *m)
{
	for (size_t i = 0; i < m->stack.npython; i++)
		if (m->stack.python[i].lightning)
			return m->stack.python[i].lightning;
	return NULL;
}

/*
 * Only the per-process variables (launch/vars.h per_process: what torchrun sets in each process
 * it starts) are left over when exported in a shell. MASTER_ADDR, MASTER_PORT, NODE_RANK, NNODES
 * and WORLD_SIZE are a node's launch by hand — what `ncclcheck cluster` (launch/detect.c) and a
 * manual Lightning launch read — and are never called stale.
 */
static void stray_ranks(const struct node_model *m, struct findings *out)
{
	int inter = m->interactive;
	const char *lv = lightning_version(m), *kind = m->cloud.container;
	char names[256] = "", unset[256] = "unset";
	size_t o = 0, u = strlen(unset);
	int local = 0, n = 0, kubeflow;
	struct finding *f;

	/* a marker is set in every process its launcher starts */
	for (int id = LV_NONE + 1; id < LV_COUNT; id++)
		if (launch_vars[id].marker && node_model_env(m, lv_name(id)))
			return; /* started by a launcher: these variables are its contract */
	if (inter == 0)
		return; /* a batch job or a script: whoever set them meant them */
	for (int id = LV_NONE + 1; id < LV_COUNT; id++) {
		const char *name = lv_name(id), *v = node_model_env(m, name);

		if (!launch_vars[id].per_process || !v)
			continue;
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s=%s", n ? " " : "",
				      name, v);
		if (o >= sizeof(names))
			o = sizeof(names) - 1;
		u += (size_t)snprintf(unset + u, sizeof(unset) - u, " %s", name);
		if (u >= sizeof(unset))
			u = sizeof(unset) - 1;
		local |= id == LV_LOCAL_RANK;
		n++;
	}
	if (!n)
		return;
	/* Lightning < 2.0.7 auto-detected Kubeflow from these on any Kubernetes pod */
	kubeflow = kind && !strcmp(kind, "kubernetes") && node_model_env(m, lv_name(LV_RANK)) &&
		   node_model_env(m, lv_name(LV_WORLD_SIZE)) &&
		   node_model_env(m, lv_name(LV_MASTER_ADDR)) &&
		   node_model_env(m, lv_name(LV_MASTER_PORT)) && lv && version_cmp_str(lv, "2.0.7") < 0;
	f = finding_add(out, local || kubeflow ? SEV_ERROR : SEV_WARN, "launch.env.stale_ranks",
			"%s exported in %s shell with no launcher running", names,
			inter == 1 ? "this interactive" : "this");
	finding_evidence(f, "env: %s", names);
	finding_evidence(f, "no launcher variable (TORCHELASTIC_RUN_ID, SLURM_PROCID, "
			 "OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, JSM_NAMESPACE_RANK) is set%s",
			 inter == 1 ? "; stdin is a terminal" : "");
	if (lv)
		finding_evidence(f, "lightning %s", lv);
	if (local)
		finding_why(f, "With LOCAL_RANK set, Lightning concludes that an external launcher "
			    "started every process, so it starts only this one; init_process_group "
			    "then waits for ranks that never come (\"Initializing distributed: "
			    "GLOBAL_RANK: 0, MEMBER: 1/N\" and nothing more) until the 30-minute "
			    "timeout.");
	else if (kubeflow)
		finding_why(f, "On Kubernetes with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set, "
			    "Lightning %s (before 2.0.7) selects its Kubeflow environment, which assumes "
			    "one process per pod started externally: only one process runs and the job "
			    "waits for the rest.", lv);
	else
		finding_why(f, "torchrun sets these for each process it starts; exported once, they "
			    "apply to every later run from this shell: torch's env:// init takes RANK "
			    "from here, so every process started from it claims the same rank, and "
			    "Lightning's rank_zero_only reads RANK first. A node's launch by hand needs "
			    "only MASTER_ADDR, MASTER_PORT, NODE_RANK and NNODES (or WORLD_SIZE).");
	finding_fix(f, N_("%s   # and remove the export from ~/.bashrc"), unset);
	for (int id = LV_NONE + 1; id < LV_COUNT; id++)
		if (launch_vars[id].per_process && node_model_env(m, lv_name(id)))
			finding_setting(f, WHERE_ENV, SCOPE_NODE, lv_name(id), NULL);
	finding_fix(f, N_("# torchrun sets them for each process; a launch by hand (ncclcheck cluster, "
		    "Lightning) reads MASTER_ADDR, MASTER_PORT, NODE_RANK and NNODES"));
}

void rule_launcher_env(const struct node_model *m, struct findings *out)
{
	const struct nm_python *py = m->stack.torch;
	const char *torch = py ? py->torch : NULL;
	const char *pypath = py ? py->path : NULL;

	for (size_t i = 0; i < stack_torch_renamed_count; i++)
		renamed_one(m, &stack_torch_renamed[i], torch, pypath, out);
	stray_ranks(m, out);
}
