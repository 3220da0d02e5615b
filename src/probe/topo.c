/*
 * Topology facts from hwloc (linked): CPUs and NUMA nodes as hwloc counts them (a cross-check of
 * host.cpus, which sysfs gives), the NICs in the PCI tree, and how far each GPU is from each NIC
 * in nvidia-smi's words (PIX/PXB/PHB/NODE/SYS). Debian's hwloc has no NVML plugin, so GPUs are
 * found as plain PCI devices by the bus ids NVML reported (facts.gpus, probed before this).
 *
 * hwloc always reads the real /sys; with an injected sys root (fixture runs) topology is taken
 * from the XML file NCCLCHECK_HWLOC_XML names (`lstopo --of xml` output), or skipped with the
 * reason.
 */
#include "probe/topo.h"

#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "probe/gpu.h"
#include "probe/probe.h"
#include "util/json.h"
#include "util/xalloc.h"

/* ---- the classifier (pure) ---- */

#define TOPO_MAX_DEPTH 128

void topo_tree_release(struct topo_tree *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->alloc = 0;
}

int topo_tree_add(struct topo_tree *t, int parent, enum topo_kind kind, uint64_t nodeset)
{
	ALLOC_GROW(t->v, t->n + 1, t->alloc);
	t->v[t->n] = (struct topo_node){ .parent = parent, .kind = kind, .nodeset = nodeset };
	return (int)t->n++;
}

/* Node, parent, grandparent ... root; 0 when the chain is broken or too deep. */
static size_t chain(const struct topo_tree *t, int x, int *out)
{
	size_t n = 0;

	while (x >= 0) {
		if ((size_t)x >= t->n || n == TOPO_MAX_DEPTH)
			return 0;
		out[n++] = x;
		x = t->v[x].parent;
	}
	return n;
}

static int bridges_below(const struct topo_tree *t, const int *c, size_t upto)
{
	int n = 0;

	for (size_t i = 1; i < upto; i++)
		n += t->v[c[i]].kind == TOPO_BRIDGE;
	return n;
}

static uint64_t cpu_side_nodeset(const struct topo_tree *t, const int *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t->v[c[i]].kind == TOPO_CPU_SIDE)
			return t->v[c[i]].nodeset;
	return 0;
}

enum topo_level topo_classify(const struct topo_tree *t, int a, int b)
{
	int ca[TOPO_MAX_DEPTH], cb[TOPO_MAX_DEPTH];
	size_t na = chain(t, a, ca), nb = chain(t, b, cb), ia, ib;

	if (!na || !nb)
		return TOPO_UNKNOWN;
	if (a == b)
		return TOPO_PIX;
	for (ia = 0; ia < na; ia++) {
		for (ib = 0; ib < nb; ib++)
			if (ca[ia] == cb[ib])
				goto found;
	}
	return TOPO_UNKNOWN;
found:
	switch (t->v[ca[ia]].kind) {
	case TOPO_DEVICE:
		return TOPO_PIX;
	case TOPO_BRIDGE:
		/* a switch is an upstream port over downstream ports: one port each side is PIX */
		return bridges_below(t, ca, ia) <= 1 && bridges_below(t, cb, ib) <= 1 ? TOPO_PIX : TOPO_PXB;
	case TOPO_HOSTBRIDGE:
		return TOPO_PHB;
	case TOPO_CPU_SIDE:
	default:
		return cpu_side_nodeset(t, ca, na) == cpu_side_nodeset(t, cb, nb) ? TOPO_NODE : TOPO_SYS;
	}
}

const char *topo_level_name(enum topo_level level)
{
	static const char *const names[] = { "PIX", "PXB", "PHB", "NODE", "SYS", "unknown" };

	return (unsigned)level < sizeof(names) / sizeof(names[0]) ? names[level] : "unknown";
}

/* ---- hwloc -> tree ---- */

struct obj_map {
	hwloc_obj_t *obj;
	int *idx;
	size_t n, alloc, ialloc;
};

static int tree_index(struct topo_tree *t, struct obj_map *m, hwloc_obj_t o)
{
	int parent, idx;
	enum topo_kind kind;
	uint64_t ns = 0;

	if (!o)
		return -1;
	for (size_t i = 0; i < m->n; i++)
		if (m->obj[i] == o)
			return m->idx[i];
	parent = tree_index(t, m, o->parent);
	if (o->type == HWLOC_OBJ_BRIDGE)
		kind = o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST ? TOPO_HOSTBRIDGE : TOPO_BRIDGE;
	else if (o->type == HWLOC_OBJ_PCI_DEVICE || o->type == HWLOC_OBJ_OS_DEVICE)
		kind = TOPO_DEVICE;
	else
		kind = TOPO_CPU_SIDE;
	if (kind == TOPO_CPU_SIDE && o->nodeset)
		ns = (uint64_t)hwloc_bitmap_to_ulong(o->nodeset);
	idx = topo_tree_add(t, parent, kind, ns);
	ALLOC_GROW(m->obj, m->n + 1, m->alloc);
	ALLOC_GROW(m->idx, m->n + 1, m->ialloc);
	m->obj[m->n] = o;
	m->idx[m->n++] = idx;
	return idx;
}

static void busid_of(hwloc_obj_t pci, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", pci->attr->pcidev.domain, pci->attr->pcidev.bus,
		 pci->attr->pcidev.dev, pci->attr->pcidev.func);
}

/* The single NUMA node a PCI device is local to, or -1 when hwloc cannot say. */
static int numa_of(hwloc_topology_t t, hwloc_obj_t o)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, o);

	if (!anc || !anc->nodeset || hwloc_bitmap_weight(anc->nodeset) != 1)
		return -1;
	return hwloc_bitmap_first(anc->nodeset);
}

static void cpu_facts(hwloc_topology_t t, json_t *topo, int xml_loaded)
{
	json_t *c = json_object();

	jset_int(c, "pus", hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU));
	jset_int(c, "cores", hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE));
	jset_int(c, "packages", hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE));
	jset_int(c, "numa_nodes", hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE));
	/* taskset / sched_setaffinity narrow the process further than the cgroup does */
	if (xml_loaded == 0) {
		hwloc_bitmap_t set = hwloc_bitmap_alloc();
		if (set && hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0)
			jset_int(c, "bound_pus", hwloc_bitmap_weight(set));
		hwloc_bitmap_free(set);
	}
	json_object_set_new(topo, "cpus", c);
}

/* One entry per PCI NIC function, with its RDMA and network device names. */
static json_t *nic_facts(hwloc_topology_t t, hwloc_obj_t **pcis, size_t *npci)
{
	json_t *nics = json_array();
	hwloc_obj_t os = NULL;
	size_t alloc = 0;

	*pcis = NULL;
	*npci = 0;
	while ((os = hwloc_get_next_osdev(t, os)) != NULL) {
		hwloc_obj_osdev_type_t type = os->attr->osdev.type;
		hwloc_obj_t pci = os->parent;
		const char *key = type == HWLOC_OBJ_OSDEV_OPENFABRICS ? "rdma" : "netdev";
		json_t *n = NULL;
		size_t i;
		char bus[32];

		if ((type != HWLOC_OBJ_OSDEV_NETWORK && type != HWLOC_OBJ_OSDEV_OPENFABRICS) || !pci ||
		    pci->type != HWLOC_OBJ_PCI_DEVICE || !os->name)
			continue;
		for (i = 0; i < *npci; i++)
			if ((*pcis)[i] == pci)
				n = json_array_get(nics, i);
		if (!n) {
			n = json_object();
			busid_of(pci, bus, sizeof(bus));
			jset_str(n, "bus_id", bus);
			jset_int(n, "numa_node", numa_of(t, pci));
			json_array_append_new(nics, n);
			ALLOC_GROW(*pcis, *npci + 1, alloc);
			(*pcis)[(*npci)++] = pci;
		}
		if (!json_object_get(n, key))
			jset_str(n, key, os->name);
		/* nvidia-smi's legend names NICs by their RDMA device when they have one */
		jset_str(n, "name", json_string_value(json_object_get(n, json_object_get(n, "rdma") ? "rdma" : "netdev")));
	}
	return nics;
}

static void gpu_nic_facts(hwloc_topology_t t, const json_t *facts, json_t *topo, const json_t *nics,
			  hwloc_obj_t *nic_pcis, size_t nnic)
{
	json_t *pairs = json_array(), *gnuma = json_array(), *g;
	struct topo_tree tree = TOPO_TREE_INIT;
	struct obj_map m = { NULL, NULL, 0, 0, 0 };
	size_t i;

	json_array_foreach(json_object_get(facts, "gpus"), i, g) {
		const char *bus = json_string_value(json_object_get(g, "bus_id"));
		hwloc_obj_t pci = bus ? hwloc_get_pcidev_by_busidstring(t, bus) : NULL;
		json_t *e = json_object();
		int gi;

		jset_int(e, "gpu", jpath_int(g, "index", (long long)i));
		jset_str(e, "bus_id", bus);
		if (!pci) {
			jset_unknown(e, "numa_node", "hwloc has no PCI device %s", bus ? bus : "(no bus id)");
			json_array_append_new(gnuma, e);
			continue;
		}
		jset_int(e, "numa_node", numa_of(t, pci));
		json_array_append_new(gnuma, e);
		gi = tree_index(&tree, &m, pci);
		for (size_t k = 0; k < nnic; k++) {
			json_t *p = json_object(), *nic = json_array_get(nics, k);
			int ni = tree_index(&tree, &m, nic_pcis[k]);

			jset_int(p, "gpu", jpath_int(g, "index", (long long)i));
			jset_str(p, "gpu_bus_id", bus);
			jset_str(p, "nic", jpath_str(nic, "name"));
			jset_str(p, "nic_bus_id", jpath_str(nic, "bus_id"));
			jset_str(p, "level", topo_level_name(topo_classify(&tree, gi, ni)));
			json_array_append_new(pairs, p);
		}
	}
	json_object_set_new(topo, "gpus", gnuma);
	json_object_set_new(topo, "gpu_nic", pairs);
	topo_tree_release(&tree);
	free(m.obj);
	free(m.idx);
}

void probe_topo(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *topo = jobj_child(facts, "topology"), *nics;
	const char *xml = ctx->hwloc_xml;
	hwloc_topology_t t;
	hwloc_obj_t *nic_pcis;
	size_t nnic;

	if ((!xml || !*xml) && strcmp(ctx->root_sys, "/") != 0) {
		jset_unknown(topo, "gpu_nic", "the sys root is '%s' but hwloc reads the real /sys; set "
			     "NCCLCHECK_HWLOC_XML to a topology saved with 'lstopo --of xml'", ctx->root_sys);
		return;
	}
	if (hwloc_topology_init(&t) < 0) {
		jset_unknown(topo, "gpu_nic", "hwloc_topology_init failed");
		return;
	}
	hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	/*
	 * No verdict needs caches, nor the x86 backend, which binds to every CPU in turn to run
	 * CPUID (hundreds of ms on a 192-CPU GPU node); Linux' sysfs gives all we count.
	 */
	hwloc_topology_set_cache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
	/*
	 * Nor the plugins of libhwloc-plugins, so the answer is the same with and without that
	 * package: gl calls XOpenDisplay on :0.N, a TCP connect that hangs for minutes where a
	 * firewall drops SYNs on lo; opencl loads GPU drivers into this process, which the GPU
	 * probes only ever do in a child with a deadline; pci (libpciaccess) leaks and adds
	 * nothing here, since the linux component reads the same PCI tree from sysfs.
	 */
	hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
	hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
	hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
	if (xml && *xml && hwloc_topology_set_xml(t, xml) < 0) {
		jset_unknown(topo, "gpu_nic", "hwloc cannot read the topology XML '%s'", xml);
		hwloc_topology_destroy(t);
		return;
	}
	if (hwloc_topology_load(t) < 0) {
		jset_unknown(topo, "gpu_nic", "hwloc could not load the topology%s%s", xml ? " from " : "",
			     xml ? xml : "");
		hwloc_topology_destroy(t);
		return;
	}
	if (xml && *xml)
		jset_fmt(topo, "source", "hwloc (XML '%s')", xml);
	else
		jset_str(topo, "source", "hwloc");
	cpu_facts(t, topo, xml && *xml);
	nics = nic_facts(t, &nic_pcis, &nnic);
	json_object_set_new(topo, "nics", nics);
	if (json_is_array(json_object_get(facts, "gpus")))
		gpu_nic_facts(t, facts, topo, nics, nic_pcis, nnic);
	else
		jset_unknown(topo, "gpu_nic", "the GPUs are not known (see gpus)");
	free(nic_pcis);
	hwloc_topology_destroy(t);
}
