/*
 * Probes read the machine and write facts: one JSON document per node (see docs/facts.md). Every
 * probe is bounded in time and never fails the run: what it cannot read becomes
 * {"unknown": "because ..."} (jset_unknown) with the reason. Every probe reads the machine
 * through one `struct probe_ctx` (probe/ctx.h), never through the process environment.
 */
#ifndef NCCLCHECK_PROBE_H
#define NCCLCHECK_PROBE_H

#include <stddef.h>

#include <jansson.h>

#include "probe/ctx.h"

/* Facts schema version: bump when a key changes meaning or disappears. */
#define FACTS_SCHEMA_VERSION 1

/* Runs every probe in the table's order (probe.c); returns the facts document (new reference). */
json_t *probe_node(const struct probe_ctx *ctx);

/*
 * The order probe_node() runs the table in: every probe after the ones it needs, otherwise in
 * table order. Fills names[] (at most `max`) and returns how many probes there are.
 */
size_t probe_schedule(const char **names, size_t max);

/* Each probe fills its own top-level members of `facts`. */
void probe_host(const struct probe_ctx *ctx, json_t *facts);
void probe_env(const struct probe_ctx *ctx, json_t *facts);
/* net.*, hostname_resolution; sysctl, limits.nofile; rdma; firewall (probe/nic.c ... firewall.c) */
void probe_nic(const struct probe_ctx *ctx, json_t *facts);
void probe_sysctl(const struct probe_ctx *ctx, json_t *facts);
void probe_rdma(const struct probe_ctx *ctx, json_t *facts);
void probe_firewall(const struct probe_ctx *ctx, json_t *facts);
void probe_nvml(const struct probe_ctx *ctx, json_t *facts);
void probe_cuda(const struct probe_ctx *ctx, json_t *facts);
void probe_cudnn(const struct probe_ctx *ctx, json_t *facts);
void probe_topo(const struct probe_ctx *ctx, json_t *facts);
void probe_nccl_libs(const struct probe_ctx *ctx, json_t *facts);
void probe_resources(const struct probe_ctx *ctx, json_t *facts);
/* cloud provider from DMI and device hints, offline (probe/cloud.c) */
void probe_cloud(const struct probe_ctx *ctx, json_t *facts);
/*
 * One library's version as those probes read it, for the Python probe's static path (reused, so
 * both say the same): `lib` has "realpath" (and "path" for cuDNN); version, version_code or
 * {"unknown"} are set on it. libnccl: ncclGetVersion in a child; libcudnn: the cuDNN probe's way.
 */
void probe_nccl_lib_version(const struct probe_ctx *ctx, json_t *lib);
void probe_cudnn_lib_versions(json_t *libs);
/* After the Python probe: NCCL copies in each interpreter's site-packages and the one torch maps. */
void probe_nccl_libs_site(const struct probe_ctx *ctx, json_t *facts);
/* Python children start before the other probes and are collected after them (NULL: skipped). */
struct python_run *probe_python_start(const struct probe_ctx *ctx);
/* Writes facts.python[]; returns the wall time the Python probe took, in ms. */
long probe_python_finish(struct python_run *run, const struct probe_ctx *ctx, json_t *facts);

#endif
