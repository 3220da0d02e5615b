/*
 * The reasoner's own state and helpers (reason_kit.c), shared by the driver (reason.c), the
 * cross-rank rules (reason_rules.c) and the payload (payload.c). The rules and the payload
 * call only the kit, the driver calls them: no file calls back up.
 */
#ifndef NCCLCHECK_EXPLAIN_REASON_INT_H
#define NCCLCHECK_EXPLAIN_REASON_INT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "explain/obs.h"
#include "explain/reason.h"
#include "explain/sigs.h"
#include "finding.h"

#define MAX_PARTS 4096

struct strbuf;

/* One participant: a rank (its streams merged), or the unresolved lines of one input. */
struct part {
	int rank;
	char label[96];
	struct stream_obs m;
	int err_sig;		/* an error-level signature hit one of its streams */
	int net_sig;		/* a network signature hit one of its streams */
	int sock_sig;		/* ... one of the socket path's, not an IB or OFI transport's */
};

struct rs {
	const struct run_obs *x;
	struct part *p;
	size_t np;
	int32_t *st2p;		/* stream -> part */
	struct findings *fs;
	size_t first;		/* fs->v[first …] are this run's findings */
	int *score;		/* their ranking key, by index - first: best first at the end */
	size_t ascore;
	char suggest_if[32];	/* the interface in MASTER_ADDR's subnet, when the log shows one */
	char suggest_why[320];
	struct loc suggest_loc;	/* the NET/Socket line the suggestion comes from, if it does */
	char suggest_ev[320];	/* what that line lists, with the address classes */
	unsigned char master_ip[16];	/* MASTER_ADDR when it is IPv4 (util/addr.h bytes) */
	int master_is_v4;
};

/* ---- findings (reason_kit.c) ---- */

/* A finding ranked by severity, confidence and `bonus` (a cause above its symptoms). */
struct finding *rs_add(struct rs *r, const char *id, enum severity sev, enum confidence conf,
		       int bonus);
void rs_title(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A fix line. What it recommends is also recorded as data: `export A=1 B=2` and `unset A` as env
 * settings, `sysctl -w k=v` as a sysctl setting (the first recommendation of a name wins: later
 * lines of a fix are alternatives), "to test it: CMD" as the check and "if the log is not enough:
 * rerun with ENV" as the rerun hint.
 */
void rs_fix(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Evidence "file:line: what: text". */
void rs_at(struct rs *r, struct finding *f, struct loc l, const char *what, const char *text);
/* The finding's ranks and node label from a set of parts. */
void rs_parts(struct rs *r, struct finding *f, const size_t *parts, size_t n);
/* The parts (ranks) whose streams a signature hit. */
void rs_sig_parts(struct rs *r, const struct sig_hit *h, size_t *out, size_t *n);
/* The fix lines for "use the interface that reaches MASTER_ADDR". */
void rs_fix_ifname(struct rs *r, struct finding *f);
/* "rank 3", "ranks 0-2, 5", "ranks 0-7 and 12 more" from a sorted unique list. */
void rs_rank_list(const int *v, size_t n, struct strbuf *sb);

/*
 * torch printed that the flight recorder ran (TORCH_NCCL_TRACE_BUFFER_SIZE > 0) and dumped on the
 * timeout (TORCH_NCCL_DUMP_ON_TIMEOUT 1) in its own "... environments:" line: the dumps exist,
 * so a fix or rerun that sets FR_SETTING is replaced by reading them (RS_FR_READ).
 */
int rs_flight_recorder_on(const struct run_obs *x);
#define FR_SETTING "TORCH_NCCL_TRACE_BUFFER_SIZE="
#define RS_FR_READ "ncclcheck attach --no-ras --fr <the directory of TORCH_NCCL_DEBUG_INFO_TEMP_FILE>" \
	"   # the flight recorder was on in this run (torch's own environment line): its dumps " \
	"name the op"

/* ---- addresses (reason_kit.c) ---- */

/* util/addr's classes folded into what the rules reason with, plus bridges known by name. */
enum aclass { A_UNKNOWN, A_PRIVATE, A_PUBLIC, A_LOOPBACK, A_LINKLOCAL, A_DOCKER };

const char *aclass_name(enum aclass c);
enum aclass aclass_of(const char *ifname, const char *addr);
/* 1 when s ("%scope" or "<…>" suffix allowed) is IPv4; its bytes for util/addr.h's arithmetic. */
int addr_v4(const char *s, unsigned char out[16]);
/* The prefix length the log shows for addr (on ifname when not NULL), or -1. */
int rs_iface_prefix(const struct run_obs *x, const char *ifname, const char *addr);

/* ---- cross-rank rules (reason_rules.c) ---- */

void rule_wrong_interface(struct rs *r);
void rule_ifname_nomatch(struct rs *r);
void rule_ifname_excludes(struct rs *r);
void rule_version_mismatch(struct rs *r);
void rule_missing_ranks(struct rs *r);
void rule_init_progress(struct rs *r, int net_diag);
void rule_lightning(struct rs *r, int have_errors);
void rule_watchdog_desync(struct rs *r);
void rule_log_hints(struct rs *r);
void rule_known_bugs(struct rs *r);
void rule_torch_nccl(struct rs *r);
void rule_master_differs(struct rs *r);
void rule_lightning_duplicates(struct rs *r);
void rule_nccl_tests(struct rs *r);
void rule_socket_bridges(struct rs *r);
void rule_nvls_hang(struct rs *r);
void rule_multinode_blind(struct rs *r);
void rule_p2p_topology(struct rs *r);
void rule_nccl_tests_launch(struct rs *r);
void rule_gdr_partial(struct rs *r);
void rule_shm_container(struct rs *r);
void rule_container_hosts(struct rs *r);
void rule_wrong_results(struct rs *r);
void rule_k8s_sidecar(struct rs *r);
void rule_common_peer(struct rs *r);
void rule_peer_address(struct rs *r);
void rule_hosts_bootstrap(struct rs *r);
void rule_ib_unused(struct rs *r);
void rule_hang_after_init(struct rs *r);
void rule_cudagraph_hang(struct rs *r);
void rule_torchrun_rdzv(struct rs *r);
void rule_forced_protocol(struct rs *r);
void rule_virtual_iface(struct rs *r);
void rule_subnet_overlap(struct rs *r);
void rule_net_mismatch_ignored(struct rs *r);
void rule_env_differs(struct rs *r);
void rule_nccl_diag(struct rs *r);
void rule_agent_store(struct rs *r);
void rule_hosts_facts(struct rs *r);

/* ---- payload (payload.c) ---- */

json_t *rs_payload(const struct rs *r);

#endif
