/*
 * The lab's build plan: every namespace, the `ip -batch` lines, sysctls, tc lines, iptables
 * rules and /etc files that make a scenario, computed without touching the machine. lab_up()
 * executes it; unit tests read it; the state file records it so `status` can show the faults.
 */
#ifndef NCCLCHECK_LAB_PLAN_H
#define NCCLCHECK_LAB_PLAN_H

#include <jansson.h>

#include "lab/lab.h"
#include "util/strbuf.h"

/* Address plan: documentation and private ranges only. */
#define LAB_PUB_NET "203.0.113"		/* RFC 5737 TEST-NET-3: the "public" segment */
#define LAB_PRIV_NET "10.10.0"		/* the private segment */
#define LAB_HOST_BASE 10		/* node i is .10+i on both */
#define LAB_RTR_ADDR "10.10.0.1"	/* mtu-blackhole: the nodes' gateway */
#define LAB_WAN_RTR "10.255.255.1"	/* the 1500-byte hop between the two routers */
#define LAB_WAN_CORE "10.255.255.2"
#define LAB_DOCKER0_CIDR "172.17.0.1/16"
#define LAB_JUMBO_MTU 9000
#define LAB_HOP_MTU 1500
#define LAB_SLOW_RATE "100mbit"
#define LAB_PORT_RANGE "32768 60999"	/* Linux's default, set explicitly so faults are exact */
#define LAB_OPEN_RANGE "49152:65535"	/* what seed 1 says to open */

enum lab_phase {
	LAB_PHASE_CREATE = 0,	/* its batch creates veth pairs whose far ends land elsewhere */
	LAB_PHASE_CONFIG = 1,	/* its batch configures the ends it was given */
};

struct lab_ns {
	char *name;		/* namespace name: "<prefix>-n0", "<prefix>-hub" */
	char *role;		/* "n0", "hub", "rtr", "core" */
	enum lab_phase phase;
	struct strbuf sysctl;	/* "net/ipv4/ip_forward=1" lines, relative to /proc/sys */
	struct strbuf ip;	/* `ip -batch` lines */
	struct strbuf tc;	/* `tc -batch` lines */
	struct strbuf ipt;	/* iptables argument lines (split on spaces, no quoting) */
};

struct lab_node {
	char name[8];		/* "n0" */
	int ns;			/* index into plan->ns */
	char eth0[32];		/* "203.0.113.10/24" */
	char eth1[32];
	char priv_if[16];	/* the private NIC's name: "eth1", or what --private-name gave */
	int eth1_mtu;
	int docker0;
	struct strbuf env;	/* the env file `lab exec` exports */
	struct strbuf hosts;	/* its /etc/hosts */
};

struct lab_plan {
	char prefix[LAB_PREFIX_MAX + 1];
	int nnodes;
	const struct lab_scenario *sc;
	unsigned flags;		/* scenario flags, plus LAB_DOCKER0 when asked for */
	struct lab_ns *ns;	/* hub first, then rtr and core when routed, then the nodes */
	size_t nns;
	struct lab_node *node;
	char master_addr[64];
	int master_port;
	json_t *faults;		/* [{ "netns", "what" }]: what status shows as "faults in place" */
};

/* Builds the plan for `nodes` nodes of scenario `sc`; NULL with `e` set when they do not fit. */
/* priv_names: NULL, or per node the private NIC's name (NULL entries: "eth1"). */
struct lab_plan *lab_plan_new(const char *prefix, int nodes, const struct lab_scenario *sc,
			      int docker0, const char *const *priv_names, struct err *e);
void lab_plan_free(struct lab_plan *p);

/* Index of the namespace with role `role` ("hub", "n3"), or -1. */
int lab_plan_ns(const struct lab_plan *p, const char *role);

/* For scenario fault functions: add to a namespace and record it as a fault. */
void lab_plan_ipt(struct lab_plan *p, int ns, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lab_plan_tc(struct lab_plan *p, int ns, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lab_plan_sysctl(struct lab_plan *p, int ns, const char *key, const char *val);
void lab_plan_fault(struct lab_plan *p, int ns, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Rewrites node i's /etc/hosts, without node 0's name when `omit_master`. */
void lab_plan_hosts(struct lab_plan *p, int i, int omit_master);

/* The state document for a plan (without the run-time members lab_up adds). */
json_t *lab_plan_to_json(const struct lab_plan *p);

/* Does `name` look like one of the namespaces of lab `prefix`? Sets *role when it does. */
int lab_ns_matches(const char *prefix, const char *name, const char **role);
/* Does `name` look like a root-namespace link name of lab `prefix`? */
int lab_link_matches(const char *prefix, const char *name);

#endif
