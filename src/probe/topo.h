/*
 * GPU <-> NIC distance as `nvidia-smi topo -m` (and NCCL's path types) name it, decided on a
 * small PCI tree: probe/topo.c fills the tree from hwloc, unit tests build it by hand.
 */
#ifndef NCCLCHECK_PROBE_TOPO_H
#define NCCLCHECK_PROBE_TOPO_H

#include <stddef.h>
#include <stdint.h>

enum topo_kind {
	TOPO_CPU_SIDE,		/* Machine, Package, Group, NUMA: has a NUMA node set */
	TOPO_HOSTBRIDGE,	/* a PCI host bridge (root complex) */
	TOPO_BRIDGE,		/* a PCI-to-PCI bridge: a root port or a switch port */
	TOPO_DEVICE,		/* a PCI function: GPU, NIC, ... */
};

/* Closest first, nvidia-smi's legend order. */
enum topo_level {
	TOPO_PIX,	/* at most a single PCIe switch between them */
	TOPO_PXB,	/* several PCIe bridges, but not the host bridge */
	TOPO_PHB,	/* through a PCIe host bridge (the CPU's root complex) */
	TOPO_NODE,	/* between host bridges within one NUMA node */
	TOPO_SYS,	/* across the SMP interconnect between NUMA nodes (QPI/UPI/xGMI) */
	TOPO_UNKNOWN,	/* not in the same tree */
};

struct topo_node {
	int parent;		/* index, -1 for the root */
	enum topo_kind kind;
	uint64_t nodeset;	/* NUMA nodes as a bit set, for TOPO_CPU_SIDE */
};

struct topo_tree {
	struct topo_node *v;
	size_t n, alloc;
};

#define TOPO_TREE_INIT { NULL, 0, 0 }

void topo_tree_release(struct topo_tree *t);
/* Appends a node under `parent` (-1 for a root) and returns its index. */
int topo_tree_add(struct topo_tree *t, int parent, enum topo_kind kind, uint64_t nodeset);

/* The level between devices `a` and `b` (indices into `t`). Pure. */
enum topo_level topo_classify(const struct topo_tree *t, int a, int b);
/* "PIX", "PXB", "PHB", "NODE", "SYS", "unknown" */
const char *topo_level_name(enum topo_level level);

#endif
