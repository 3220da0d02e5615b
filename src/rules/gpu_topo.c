/*
 * The CPU side of a GPU node as hwloc sees it against what sysfs says is online: a process
 * confined to fewer CPUs or NUMA nodes (docker --cpuset-cpus, taskset, a Slurm cgroup) than the
 * machine has feeds its GPUs with fewer data-loader and NCCL proxy threads than it looks like.
 */
#include "rules/rules.h"

#include "util/json.h"

void rule_gpu_topology(const json_t *facts, struct findings *out)
{
	long long online = jpath_int(facts, "host.cpus", -1);
	long long pus = jpath_int(facts, "topology.cpus.pus", -1);
	long long bound = jpath_int(facts, "topology.cpus.bound_pus", -1);
	long long nodes = jpath_int(facts, "host.numa_nodes", -1);
	long long hw_nodes = jpath_int(facts, "topology.cpus.numa_nodes", -1);
	long long ngpu = json_is_array(json_object_get(facts, "gpus")) ? (long long)json_array_size(json_object_get(facts, "gpus")) : 0;
	struct finding *f;

	if (bound > 0 && bound < pus)
		pus = bound;
	if (online <= 0 || pus <= 0 || pus >= online)
		return;
	f = finding_add(out, SEV_INFO, "host.cpus.restricted",
			"this process may use %lld of the %lld online CPUs%s", pus, online,
			hw_nodes > 0 && nodes > hw_nodes ? " and not every NUMA node" : "");
	finding_why(f, "a cgroup or CPU affinity limit applies (docker --cpuset-cpus, taskset, a Slurm "
		    "allocation); data-loader workers, OpenMP threads and NCCL's proxy threads all share "
		    "these CPUs");
	if (ngpu > 0)
		finding_fix(f, "export OMP_NUM_THREADS=%lld   # %lld usable CPUs shared by %lld ranks (one per GPU)",
			    pus / ngpu > 0 ? pus / ngpu : 1, pus, ngpu);
	else
		finding_fix(f, "export OMP_NUM_THREADS=%lld   # no more threads than usable CPUs", pus);
	finding_evidence(f, "host.cpus = %lld (sysfs, online)", online);
	finding_evidence(f, "topology.cpus = %lld allowed (hwloc), %lld in this process's affinity mask",
			 jpath_int(facts, "topology.cpus.pus", -1), bound);
	if (hw_nodes > 0 && nodes > 0)
		finding_evidence(f, "NUMA nodes: %lld online, %lld allowed", nodes, hw_nodes);
}
