/*
 * Rules: pure functions from a node model (model/node.h) to findings. No I/O, no clock, no
 * environment: everything a rule knows comes from the model of one facts document, so a saved
 * document (--facts FILE), a peer's or a fixture gives the same verdicts anywhere. A rule reads the
 * model's typed members; the NCCL version, the settings NCCL sees, its interface prediction, the
 * MASTER_ADDR route, the port range and the firewall are decided there once, never here.
 */
#ifndef NCCLCHECK_RULES_H
#define NCCLCHECK_RULES_H

#include "finding.h"
#include "model/node.h"

typedef void (*rule_fn)(const struct node_model *m, struct findings *out);

struct rule {
	const char *name;
	rule_fn fn;
};

/* Runs every single-node rule on one node's model. */
void rules_run_node(const struct node_model *m, struct findings *out);
/*
 * The node rules on a facts document (a peer's, a saved one): its model first; a document the
 * model rejects gives the finding facts.invalid instead.
 */
void rules_run_facts(const json_t *facts, struct findings *out);
/* The same, handing the model on to a caller that reads it too (NULL: rejected; free it). */
struct node_model *rules_judge_facts(const json_t *facts, struct findings *out);

/* One file per topic. */
void rule_facts_health(const struct node_model *m, struct findings *out);
void rule_compat_driver(const struct node_model *m, struct findings *out);
void rule_compat_cudnn(const struct node_model *m, struct findings *out);
void rule_cpu_affinity(const struct node_model *m, struct findings *out);
void rule_compat_stack(const struct node_model *m, struct findings *out);
void rule_launcher_env(const struct node_model *m, struct findings *out);
void rule_resources(const struct node_model *m, struct findings *out);
void rule_nccl_env(const struct node_model *m, struct findings *out);	/* envlint.c: NCCL_* lint */
/* other_ccl.c: HCCL_* (Huawei Ascend), MCCL_* (MetaX) variables where NCCL runs */
void rule_other_ccl(const struct node_model *m, struct findings *out);
/* net_iface.c: interface prediction, NCCL_SOCKET_IFNAME, NCCL_COMM_ID, MASTER_ADDR route */
void rule_net_iface(const struct node_model *m, struct findings *out);
void rule_net_ports(const struct node_model *m, struct findings *out);	/* net_ports.c: port range, firewall */
void rule_host_limits(const struct node_model *m, struct findings *out);	/* host_limits.c: nofile, socket buffers, host name */
void rule_rdma(const struct node_model *m, struct findings *out);	/* rdma.c: RDMA NCCL cannot use */
void rule_compat_toolkit(const struct node_model *m, struct findings *out);	/* CUDA toolkit vs torch's CUDA */
void rule_mtu(const struct node_model *m, struct findings *out);	/* mtu.c: MTU on NCCL's interfaces */
void rule_cloud(const struct node_model *m, struct findings *out);	/* cloud.c: per-cloud and container tips */
/* supply.c: compromised releases, Lightning payloads, files that differ from RECORD */
void rule_supply(const struct node_model *m, struct findings *out);

#endif
