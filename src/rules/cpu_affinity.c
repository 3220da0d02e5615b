/*
 * The CPUs this process may use against what sysfs says is online: a process confined to fewer
 * CPUs or NUMA nodes (docker --cpuset-cpus, taskset, a Slurm cgroup) than the machine has feeds
 * its GPUs with fewer data-loader and NCCL proxy threads than it looks like. Pure.
 */
#include "rules/rules.h"
#include "util/i18n.h"

void rule_cpu_affinity(const struct node_model *m, struct findings *out)
{
	const struct nm_cpus *c = &m->cpus;
	long long pus = c->allowed, ngpu = (long long)m->ngpus, want;
	struct finding *f;

	if (c->bound > 0 && c->bound < pus)
		pus = c->bound;
	if (c->online <= 0 || pus <= 0 || pus >= c->online)
		return;
	f = finding_add(out, SEV_INFO, "host.cpus.restricted",
			"this process may use %lld of the %lld online CPUs%s", pus, c->online,
			c->numa_allowed > 0 && c->numa_online > c->numa_allowed ? " and not every NUMA node" : "");
	finding_why(f, "a cgroup or CPU affinity limit applies (docker --cpuset-cpus, taskset, a Slurm "
		    "allocation); data-loader workers, OpenMP threads and NCCL's proxy threads all share "
		    "these CPUs");
	want = ngpu > 0 ? (pus / ngpu > 0 ? pus / ngpu : 1) : pus;
	if (ngpu > 0)
		finding_fix(f, N_("export OMP_NUM_THREADS=%lld   # %lld usable CPUs shared by %lld ranks (one per GPU)"),
			    want, pus, ngpu);
	else
		finding_fix(f, N_("export OMP_NUM_THREADS=%lld   # no more threads than usable CPUs"), want);
	finding_setting(f, WHERE_ENV, SCOPE_NODE, "OMP_NUM_THREADS", "%lld", want);
	finding_evidence(f, "host.cpus = %lld (sysfs, online)", c->online);
	finding_evidence(f, "topology.cpus = %lld allowed (hwloc), %lld in this process's affinity mask",
			 c->allowed, c->bound);
	if (c->numa_allowed > 0 && c->numa_online > 0)
		finding_evidence(f, "NUMA nodes: %lld online, %lld allowed", c->numa_online, c->numa_allowed);
}
