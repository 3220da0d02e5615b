/*
 * Rules: pure functions from facts to findings. No I/O, no clock, no environment: everything a
 * rule knows comes from the facts document, so a saved document (--facts FILE) or a fixture gives
 * the same verdicts anywhere.
 */
#ifndef NCCLCHECK_RULES_H
#define NCCLCHECK_RULES_H

#include <jansson.h>

#include "finding.h"

typedef void (*rule_fn)(const json_t *facts, struct findings *out);

struct rule {
	const char *name;
	rule_fn fn;
};

/* Runs every single-node rule on one node's facts. */
void rules_run_node(const json_t *facts, struct findings *out);

/* The node rule table, for --help listings and tests. */
extern const struct rule rules_node[];
extern const unsigned rules_node_count;

/* One file per topic. */
void rule_facts_health(const json_t *facts, struct findings *out);
void rule_compat_driver(const json_t *facts, struct findings *out);
void rule_compat_cudnn(const json_t *facts, struct findings *out);
void rule_gpu_topology(const json_t *facts, struct findings *out);
void rule_compat_stack(const json_t *facts, struct findings *out);
void rule_launcher_env(const json_t *facts, struct findings *out);
void rule_resources(const json_t *facts, struct findings *out);
void rule_nccl_env(const json_t *facts, struct findings *out);	/* envlint.c: NCCL_* lint */
void rule_net(const json_t *facts, struct findings *out);	/* net.c: interface prediction, ports, firewall */
void rule_compat_toolkit(const json_t *facts, struct findings *out);	/* CUDA toolkit vs torch's CUDA */
void rule_mtu(const json_t *facts, struct findings *out);	/* mtu.c: MTU on NCCL's interfaces */
void rule_cloud(const json_t *facts, struct findings *out);	/* cloud.c: per-cloud and container tips */

#endif
