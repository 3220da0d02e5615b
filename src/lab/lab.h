/*
 * ncclcheck lab: a simulated multi-node cluster on one Linux box. Every "node" is a network
 * namespace with the NIC layout of a cloud VM (eth0 public, eth1 private, optionally docker0),
 * wired through bridges in a hidden hub namespace, and a scenario adds one real kernel fault
 * (iptables, MTU, tbf, a missing hosts entry) that breaks NCCL the way it breaks in the field.
 *
 * Everything the lab creates is named after its prefix, so `down` finds it again after a crash
 * and removes nothing else. Building needs root (CAP_SYS_ADMIN + CAP_NET_ADMIN) and iproute2;
 * the firewall scenarios need iptables, slow-link needs tc.
 */
#ifndef NCCLCHECK_LAB_H
#define NCCLCHECK_LAB_H

#include <signal.h>
#include <stddef.h>

#include <jansson.h>

#include "util/err.h"

#define LAB_PREFIX_DEFAULT "ncl"
/* "<prefix>-n63e0" must fit IFNAMSIZ - 1 = 15 characters */
#define LAB_PREFIX_MAX 9
#define LAB_NODES_MAX 64
#define LAB_MASTER_PORT 29500

/* Where things live; fixed by iproute2 (netns, /etc/netns) or owned by us (state). */
#define LAB_NETNS_DIR "/run/netns"
#define LAB_ETC_NETNS_DIR "/etc/netns"
#define LAB_STATE_ROOT "/run/ncclcheck/lab"
#define LAB_SLURM_ROOT "/run/ncclcheck/slurm"	/* <prefix>/: munge key, slurm.conf, spool, logs */

enum lab_flags {
	LAB_DOCKER0 = 1u << 0,		/* docker0 with the same 172.17.0.1/16 on every node */
	LAB_ROUTED = 1u << 1,		/* eth1 traffic crosses two router namespaces (1500-byte hop) */
	LAB_MASTER_BY_NAME = 1u << 2,	/* MASTER_ADDR is node 0's hostname, not its address */
	LAB_NEEDS_IPTABLES = 1u << 3,
	LAB_NEEDS_TC = 1u << 4,
};

struct lab_plan;

struct lab_scenario {
	const char *name;
	const char *summary;	/* one line: the fault */
	const char *reproduces;	/* the field failure and what NCCL does in it */
	const char *seed;	/* which seed section it comes from */
	const char *show;	/* how to see the fault with plain tools */
	int min_nodes;
	unsigned flags;
	void (*faults)(struct lab_plan *p);	/* adds the fault to a built plan; NULL for none */
};

/* The scenario table (one place): every scenario, in documentation order. */
const struct lab_scenario *lab_scenarios(size_t *n);
const struct lab_scenario *lab_scenario_find(const char *name);

/* A private NIC name (--private-name) is [a-z][a-z0-9]*, at most 15, not one the lab uses. */
int lab_private_name_check(const char *name, struct err *e);

/* A prefix is [a-z][a-z0-9-]*, at most LAB_PREFIX_MAX long, not ending in '-'. */
int lab_prefix_check(const char *prefix, struct err *e);

/*
 * Privileges: 0 when this process may build namespaces. Otherwise -1 and `*not_root` says whether
 * the fix is sudo (not root) or a capability (root in a container without CAP_SYS_ADMIN).
 */
int lab_check_privileges(int *not_root, struct err *e);

/* Tools found on PATH; `needs` is a LAB_NEEDS_* mask (ip is always needed). */
struct lab_tools {
	char ip[512];
	char tc[512];
	char iptables[512];	/* iptables (the machine's backend), else iptables-legacy */
};
int lab_tools_find(unsigned needs, struct lab_tools *t, struct err *e);

struct lab_up_opts {
	const char *prefix;
	int nodes;
	const struct lab_scenario *sc;
	int docker0;		/* docker0 on every node even when the scenario does not ask */
	int force;		/* rebuild a lab that already exists under this prefix */
	int slurm;		/* also start a real Slurm over the nodes (lab_slurm_up) */
	const char *task_prolog;	/* with slurm: slurm.conf's TaskProlog= (a copy), or NULL */
	const char *priv_names[LAB_NODES_MAX];	/* per node: the private NIC's name, NULL = eth1 */
	const volatile sig_atomic_t *cancel;	/* set by SIGINT/SIGTERM: stop and clean up */
};

/*
 * Builds the lab. On any failure, and when *cancel becomes set, removes what it built and
 * returns -1. ERR_USAGE: the lab exists (without --force) or the options do not fit.
 */
int lab_up(const struct lab_up_opts *o, const struct lab_tools *t, struct err *e);

struct lab_down_result {
	int namespaces;		/* network namespaces removed */
	int processes;		/* processes that were still running inside them */
	int builders;		/* processes of an unfinished `lab up` (it, its children) ended */
	int links;		/* links leaked into the root namespace */
	int etc_dirs;		/* /etc/netns/<ns> directories */
	int state;		/* 1 when the state directory was removed */
	int slurm;		/* 1 when the lab's Slurm (munged, spool, logs) was removed */
};

/*
 * Removes every namespace, root-namespace link, /etc/netns directory and state file of the lab
 * `prefix`, found by name alone (works after a crash). Idempotent: nothing to remove is success.
 * First it ends, and waits for, every process the lab started: an unfinished `lab up` and its
 * children, the processes inside the namespaces (Slurm's daemons), munged; nothing of the lab
 * is created after it returns.
 * `ip` may be NULL; it is only needed when links leaked into the root namespace.
 */
int lab_down(const char *prefix, const char *ip, struct lab_down_result *r, struct err *e);
/*
 * `lab down --json`'s payload: {prefix, removed: {namespaces, processes, builders, links,
 * etc_netns_dirs, state, slurm}}.
 */
json_t *lab_down_json(const char *prefix, const struct lab_down_result *r);

/* 1 when anything of lab `prefix` is left: state, a namespace, an /etc/netns directory. */
int lab_exists(const char *prefix);

/* Labs found by prefix (state directories and namespaces): a new array of strings. */
json_t *lab_discover(void);

/*
 * The status document: { "labs": [ { prefix, state, scenario, nodes: [...], faults: [...],
 * master_addr, master_port, namespaces_missing: [...] } ] } for one prefix, or all when NULL.
 */
json_t *lab_status(const char *prefix);
/*
 * Reads back what the kernel of each of `lab`'s namespaces_found holds (iptables -S, shaping
 * qdiscs, link MTUs) into lab.kernel [{netns, iptables, tc, mtu}], and every way it differs from
 * the recorded plan into lab.kernel_differs (strings). Needs root to enter the namespaces;
 * without it lab.kernel is {"unknown": reason}. lab_status() calls it for labs that are up.
 */
void lab_kernel_read(json_t *lab);

/* --slurm: munged, slurmctld in node 0, one slurmd per node (slurm.c). */
#define LAB_SLURM_PATH_MAX 256
struct lab_slurm_tools {
	char munged[LAB_SLURM_PATH_MAX];
	char slurmctld[LAB_SLURM_PATH_MAX];
	char slurmd[LAB_SLURM_PATH_MAX];
	char sinfo[LAB_SLURM_PATH_MAX];
	char unshare[LAB_SLURM_PATH_MAX];
};
/* Finds the Slurm and munge programs; ERR_NOTFOUND names the package that brings them. */
int lab_slurm_tools_find(struct lab_slurm_tools *t, struct err *e);
/* LAB_SLURM_ROOT/<prefix> (new string). */
char *lab_slurm_dir(const char *prefix);
/*
 * Starts the lab's Slurm over a built lab and waits until every node is idle in sinfo. On
 * failure what was started stays for lab_slurm_down() (lab_up's clean-up calls it).
 */
/* task_prolog: NULL, or a file copied into the lab's Slurm dir and named by TaskProlog=. */
/* cancel: as lab_up_opts' (NULL: never), checked between daemons and while waiting. */
int lab_slurm_up(const struct lab_plan *p, const struct lab_tools *t, const char *task_prolog,
		 const volatile sig_atomic_t *cancel, struct err *e);
/* Ends the lab's munged and removes LAB_SLURM_ROOT/<prefix>; 1 when there was one, else 0. */
int lab_slurm_down(const char *prefix);
/* { dir, conf, munged: bool, slurmctld: bool } of a lab's Slurm, or NULL when it has none. */
json_t *lab_slurm_status(const char *prefix);

/*
 * Resolves NODE ("n1", "<prefix>-n1", "hub", "rtr", "core") to a namespace name. `prefix` may be
 * NULL: then a full name decides, else the default lab, else the only lab that is up.
 */
int lab_resolve_node(const char *prefix, const char *node, char *netns, size_t len, struct err *e);

/*
 * Runs argv inside the node's namespace with its launch environment (MASTER_ADDR, MASTER_PORT,
 * NODE_RANK, NNODES, WORLD_SIZE), its /etc/hosts and its hostname: execs `ip netns exec`, so it
 * only returns on failure. A CMD of plain `ncclcheck` is this running binary (/proc/self/exe).
 */
int lab_exec(const char *netns, const char *ip, char *const argv[], struct err *e);

/*
 * Parses a node's env file ("NAME=value" lines, '#' comments). Calls fn for every pair; returns
 * -1 with `e` set on the first malformed line.
 */
int lab_env_parse(const char *buf, size_t len, int (*fn)(void *arg, const char *name,
							 const char *value),
		  void *arg, struct err *e);

/* Parses and validates a state document; NULL with `e` set when it is not one. */
json_t *lab_state_parse(const char *buf, size_t len, struct err *e);

#endif
