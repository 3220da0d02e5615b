/*
 * Probes read the machine and write facts: one JSON document per node (see docs/facts.md). Every
 * probe is bounded in time and never fails the run: what it cannot read becomes
 * {"unknown": "because ..."} (jset_unknown) with the reason.
 */
#ifndef NCCLCHECK_PROBE_H
#define NCCLCHECK_PROBE_H

#include <stddef.h>

#include <jansson.h>

/* Facts schema version: bump when a key changes meaning or disappears. */
#define FACTS_SCHEMA_VERSION 1

struct probe_opts {
	/* File-system roots, "/" in production; tests point them at fixture trees. */
	const char *root_sys;
	const char *root_proc;
	const char *root_etc;
	/* Extra interpreters to inspect (--python), beyond python3 on PATH, /usr/bin/python3, venv/conda. */
	const char *const *pythons;
	size_t npythons;
	int skip_python;
	long python_timeout_ms;
	/* --master-addr: the address rank 0's TCPStore listens on (else $MASTER_ADDR) */
	const char *master_addr;
};

/* Defaults: roots from NCCLCHECK_SYS_ROOT / NCCLCHECK_PROC_ROOT / NCCLCHECK_ETC_ROOT or "/". */
void probe_opts_init(struct probe_opts *o);

/* Path of `rel` under the sys, proc or etc root (caller frees). */
char *probe_sys_path(const struct probe_opts *o, const char *rel);
char *probe_proc_path(const struct probe_opts *o, const char *rel);
char *probe_etc_path(const struct probe_opts *o, const char *rel);

/* Runs every probe; returns the facts document (new reference). Never NULL. */
json_t *probe_node(const struct probe_opts *o);

/* Each probe fills its own top-level members of `facts`. */
void probe_host(const struct probe_opts *o, json_t *facts);
void probe_env(const struct probe_opts *o, json_t *facts);
/* net.*, hostname_resolution; sysctl, limits.nofile; rdma; firewall (probe/nic.c ... firewall.c) */
void probe_nic(const struct probe_opts *o, json_t *facts);
void probe_sysctl(const struct probe_opts *o, json_t *facts);
void probe_rdma(const struct probe_opts *o, json_t *facts);
void probe_firewall(const struct probe_opts *o, json_t *facts);
void probe_nvml(const struct probe_opts *o, json_t *facts);
void probe_cuda(const struct probe_opts *o, json_t *facts);
void probe_cudnn(const struct probe_opts *o, json_t *facts);
void probe_topo(const struct probe_opts *o, json_t *facts);
void probe_nccl_libs(const struct probe_opts *o, json_t *facts);
void probe_resources(const struct probe_opts *o, json_t *facts);
/* cloud provider from DMI and device hints, offline (probe/cloud.c) */
void probe_cloud(const struct probe_opts *o, json_t *facts);
/* After the Python probe: NCCL copies in each interpreter's site-packages and the one torch maps. */
void probe_nccl_libs_site(const struct probe_opts *o, json_t *facts);
/* Python children start before the other probes and are collected after them (NULL: skipped). */
struct python_run *probe_python_start(const struct probe_opts *o);
/* Writes facts.python[]; returns the wall time the Python probe took, in ms. */
long probe_python_finish(struct python_run *run, const struct probe_opts *o, json_t *facts);

#endif
