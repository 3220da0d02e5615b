/*
 * emit: the environment and the launch commands that fit the measured cluster, written from one
 * typed input, struct recommendation. Its settings come from the findings' settings[] (what the
 * rules proved necessary), its numbers from the cluster or node facts (nodes, GPUs per node, rank
 * 0's address, bf16 support) or the user's flags, and optionally a documented cloud profile.
 *
 * Every writer is a pure function into a strbuf: no I/O, no environment, no clock. What a writer
 * leaves out on purpose (an obsolete variable a rule or a profile proposed, a tuning knob that
 * must not be forced globally) is said in a comment of the output, with the reason.
 */
#ifndef NCCLCHECK_EMIT_H
#define NCCLCHECK_EMIT_H

#include <stddef.h>

#include <jansson.h>

#include "finding.h"
#include "util/err.h"
#include "util/strbuf.h"

struct envmap;
struct node_model;

enum emit_cloud {
	EMIT_CLOUD_GENERIC = 0,
	EMIT_CLOUD_AUTODL,
	EMIT_CLOUD_AWS,
	EMIT_CLOUD_ALIYUN,
	EMIT_CLOUD_AZURE,
	EMIT_CLOUD_GCP,
	EMIT_CLOUD_OCI,
};

/* "generic", "autodl", "aws", "aliyun" (also "alibaba"), "azure", "gcp", "oci"; -1 otherwise. */
int emit_cloud_parse(const char *s, enum emit_cloud *out);
const char *emit_cloud_name(enum emit_cloud c);
/* The profile for facts.cloud.provider ("aws", "alibaba", ...); generic when unknown. */
enum emit_cloud emit_cloud_from_provider(const char *provider);

/* One recommended setting. */
struct rec_var {
	char *name;
	char *value;		/* NULL: unset it */
	char *why;		/* one line, for the comment beside it */
	char *source;		/* the finding id or "cloud profile <name>" it comes from */
	enum setting_where where;
	enum setting_scope scope;
	char *node;		/* SCOPE_NODE: the node (hostname) it is for */
};

/* A node's IPv4 network on one interface, from the facts (for Open MPI's CIDR form). */
struct rec_if {
	char *node;
	char *ifname;
	char *cidr;		/* "10.10.0.0/24" */
};

struct recommendation {
	/* the job's shape */
	int nodes;		/* >= 1 */
	int gpus_per_node;	/* processes per node = Lightning devices = --ntasks-per-node */
	char *master_addr;	/* rank 0's address (NULL: unknown, a placeholder is written) */
	int master_port;	/* the TCPStore's port (torchrun's default 29500) */
	int rdzv_port;		/* the c10d rendezvous endpoint's port (torchrun's default 29400) */
	char **hosts;		/* node names in rank order, when known (a cluster verdict) */
	size_t nhosts;
	int bf16;		/* 1 every GPU has compute capability >= 8.0, 0 one has not, -1 unknown */
	int find_unused;	/* some parameters get no gradient in some steps */
	int static_graph;	/* the user asserts the graph is the same every step */
	int rdma;		/* RDMA devices with an active port on the nodes */
	char *rdma_devs;	/* their names, comma separated, or NULL */
	char *nccl_version;	/* the NCCL the job loads, or NULL */
	char *torch_version;	/* the job's torch, or NULL */
	char *ifname;		/* the interface the nodes talk over, when measured */
	struct rec_if *ifs;	/* every node's IPv4 networks, when the facts give them */
	size_t nifs, aifs;
	char *torchrun;		/* the launcher command, default "torchrun" */
	char *script;		/* the training command after the launcher, default "train.py" */
	char *job_name;		/* sbatch / Kubernetes job name, default "train" */
	char *image;		/* container image for the Kubernetes snippet */
	int pl_package;		/* 0 lightning (lightning.pytorch), 1 only pytorch_lightning is installed */
	int pl_major;		/* Lightning's major version when known (1.x spells precision 16 / "bf16") */
	char *source;		/* what the verdict came from, for the header comment */
	enum emit_cloud cloud;
	struct rec_var *v;
	size_t n, alloc;
	char **notes;		/* comment lines: what was left out on purpose, and why */
	size_t nnotes, anotes;
};

struct recommendation *rec_new(void);
void rec_free(struct recommendation *rec);

/*
 * Adds (or replaces, by name, where and node) a setting after the lint every writer relies on:
 * an NCCL_* name that NCCL does not read, or no longer reads, is dropped; a torch variable that
 * lost its NCCL_ prefix is written under its new name; tuning knobs that must not be forced
 * globally (NCCL_ALGO, NCCL_PROTO) and settings that repeat NCCL's default are dropped. Every
 * drop or rename becomes a note. Returns 0 when the setting was kept (maybe renamed), -1 when
 * it was dropped. A value with a control character is dropped too (it cannot be written safely).
 * Unsetting (value NULL) passes the lint: removing NCCL_ALGO or NCCL_BLOCKING_WAIT is right.
 */
int rec_set(struct recommendation *rec, enum setting_where where, enum setting_scope scope,
	    const char *node, const char *name, const char *value, const char *why,
	    const char *source);
void rec_note(struct recommendation *rec, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The first setting `name` (any where / node), or NULL. */
const struct rec_var *rec_get(const struct recommendation *rec, const char *name);

/*
 * Takes every setting of every finding (settings[]); GLOO_SOCKET_IFNAME joins an
 * NCCL_SOCKET_IFNAME that names interfaces exactly, because torch's Gloo groups read only it.
 */
void rec_from_findings(struct recommendation *rec, const struct findings *fs);

/*
 * The job's numbers from one node's facts document (GPUs, bf16, MASTER_ADDR/PORT, the launch
 * environment, RDMA, NCCL, the cloud): only the fields still at their defaults are filled, so
 * flags set before win.
 */
void rec_numbers_from_model(struct recommendation *rec, const struct node_model *m);
/* The same on the model of `facts`; nothing when the model refuses them. */
void rec_numbers_from_facts(struct recommendation *rec, const json_t *facts);

/* The same from the launch environment (NNODES, PET_NNODES, SLURM_JOB_NUM_NODES, MASTER_*). */
void rec_numbers_from_env(struct recommendation *rec, const struct envmap *em);

/*
 * A saved `node --json` or `cluster --json` document: its findings (read strictly), the facts
 * (of the first node for a cluster document) and the node names. -1 with `e` set on a document
 * that is neither.
 */
int rec_from_doc(struct recommendation *rec, const json_t *doc, struct findings *fs, struct err *e);

/* Adds the documented settings of a cloud profile (emit/profile.c) and its notes. */
void rec_apply_cloud(struct recommendation *rec, enum emit_cloud cloud);

/* Fills what is still unknown with the launchers' defaults (1 node, 1 GPU, ports 29500/29400). */
void rec_defaults(struct recommendation *rec);
/* Numbers in range, a master address without shell or YAML metacharacters; -1 with `e` set. */
int rec_check(const struct recommendation *rec, struct err *e);

/*
 * The job's environment with the recommended variables set or unset (for `run`): the ones for
 * every node, and those for `node` (its host name, short or full; NULL: none of them).
 */
void rec_apply_env(const struct recommendation *rec, struct envmap *em, const char *node);
/* The env setting `name` as it applies on `node`: its own value over the every-node one; NULL. */
const struct rec_var *rec_value_on(const struct recommendation *rec, const char *name,
				   const char *node);
/* The IPv4 network (CIDR) of `ifname` on `node` from the facts, or NULL. */
const char *rec_if_cidr(const struct recommendation *rec, const char *node, const char *ifname);
/* Whether env setting `v` applies on host `node` ("gpu1" matches "gpu1.cluster" both ways). */
int rec_var_applies(const struct rec_var *v, const char *node);
/*
 * Whether the recommended NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME, when set) on `node` keep
 * the job off interface `ifname`: a cluster finding about that interface then no longer matters.
 */
int rec_steers_off(const struct recommendation *rec, const char *node, const char *ifname);
/*
 * Whether a value is a placeholder ("<a shared secret>") for the user to fill in: never written
 * as a value (the writers put a commented instruction instead) nor applied by `run`.
 */
int rec_placeholder(const char *value);
/* Whether every setting of `f` is env and recommended with the same value on its node. */
int rec_covers(const struct recommendation *rec, const struct finding *f);
/* The same on a facts document's "env" object, so the rules can judge "as the job will run". */
void rec_apply_facts(const struct recommendation *rec, json_t *facts, const char *node);

/* The recommendation as JSON (config --json). New reference. */
json_t *rec_to_json(const struct recommendation *rec);

/* ---- the writers ---- */

/* An env file / .bashrc block: only what is needed, each line with why. */
void emit_env(struct strbuf *sb, const struct recommendation *rec);
/* The script for node `node_rank`: the exports, then torchrun with a static rendezvous. */
void emit_torchrun(struct strbuf *sb, const struct recommendation *rec, int node_rank);
/* The same job with the c10d rendezvous: one command for every node. */
void emit_torchrun_c10d(struct strbuf *sb, const struct recommendation *rec);
/* A PyTorch Lightning Trainer(...) that matches the launcher. */
void emit_lightning(struct strbuf *sb, const struct recommendation *rec);
/* A Slurm batch script: --nodes, --ntasks-per-node = devices, --gres, srun. */
void emit_sbatch(struct strbuf *sb, const struct recommendation *rec);
/* A Slurm TaskProlog that prints each node's `export` lines. */
void emit_taskprolog(struct strbuf *sb, const struct recommendation *rec);
/* An Open MPI mpirun line that passes the environment with -x. */
void emit_mpirun(struct strbuf *sb, const struct recommendation *rec);
/* A Kubernetes PyTorchJob: env, hostNetwork, /dev/shm in memory, an init container check. */
void emit_k8s(struct strbuf *sb, const struct recommendation *rec);

/*
 * The settings that live in files, when there are any (the writers return 0 and write nothing
 * otherwise): nccl.conf lines (NCCL reads /etc/nccl.conf, or NCCL_CONF_FILE from 2.23), and a
 * sysctl.d file for the kernel settings.
 */
size_t emit_nccl_conf(struct strbuf *sb, const struct recommendation *rec);
size_t emit_sysctl(struct strbuf *sb, const struct recommendation *rec);

/* Appends `s` as one shell word (single quotes when it needs any). */
void emit_sh_word(struct strbuf *sb, const char *s);

/* ---- cloud profiles (emit/profile.c), exposed for the unit test that holds them ---- */

struct profile_line {
	enum emit_cloud cloud;
	const char *name;
	const char *value;
	enum setting_where where;
	int needs_rdma;		/* only with an active RDMA device */
	const char *needs_rdma_name;	/* only when that device kind is present ("erdma") */
	const char *why;
};

extern const struct profile_line emit_profile_lines[];
extern const size_t emit_profile_count;

/* Names outside NCCL that a writer may set (Gloo, torch, libfabric, Open MPI), for the tests. */
int emit_known_foreign_name(const char *name);

#endif
