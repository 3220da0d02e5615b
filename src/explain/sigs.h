/*
 * The signature table: every known log line that means something, in one place. A signature is
 * found by literal anchors (scanned all at once by ac.c), optionally confirmed by a second literal
 * on the same line, and carries its cause, the concrete fix, what to rerun with when the log is
 * not enough, and the ncclcheck command that tests the suspicion. Adding one is adding a row here
 * and a section to tests/fixtures/logs/signatures.log (the unit test fails otherwise).
 */
#ifndef NCCLCHECK_EXPLAIN_SIGS_H
#define NCCLCHECK_EXPLAIN_SIGS_H

#include <stddef.h>
#include <stdint.h>

#include "finding.h"

enum {
	SIG_SYMPTOM = 1 << 0,	/* a generic consequence (ncclSystemError, ChildFailedError): ranked
				 * below causes */
	SIG_BENIGN = 1 << 1,	/* scary-looking but harmless: said so, never an error */
	SIG_NCCL = 1 << 2,	/* an NCCL failure: NCCL_DEBUG=INFO lines would explain it */
	SIG_NET = 1 << 3,	/* a network failure: the interface reasoning applies */
	SIG_WARN_ONLY = 1 << 4,	/* only on an "NCCL WARN" line (the same text at INFO is normal) */
	SIG_VARIANT_CONF = 1 << 5,	/* the confidence holds only for a line one of the variants
					 * names; any other message of the family is low */
};

#define SIG_MAX_ANCHORS 8
#define SIG_UNTIL "\x01"

/* The ncclcheck command that tests an interface/route suspicion on one node. */
#define EXPLAIN_CHECK_NODE "ncclcheck node   (on every node: predicts NCCL's interface and checks the route to MASTER_ADDR)"

/* The generic fix for a wrong interface; the reasoner replaces it with the exact name when the log shows it. */
#define EXPLAIN_FIX_IFNAME "export NCCL_SOCKET_IFNAME=$(ip -o route get \"$MASTER_ADDR\" | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')   # the interface that reaches MASTER_ADDR, on every node"

/*
 * One meaning of a signature whose line carries a code (an errno, a status, an event name): the
 * first variant whose `when` is on the first matched line (the whole line, not its excerpt)
 * replaces the row's title, cause and fix.
 */
struct explain_sig_variant {
	const char *when;	/* NULL ends the list */
	const char *title, *cause, *fix;
};

struct explain_sig {
	const char *id;
	enum severity sev;
	enum confidence conf;
	unsigned flags;
	const char *anchors[SIG_MAX_ANCHORS];	/* any one of them triggers */
	const char *also;	/* must also be on the line, or NULL */
	const char *unless;	/* must not be on the line, or NULL; several literals are joined by
				 * SIG_UNTIL ("a" SIG_UNTIL "b": neither may be there) */
	const char *cap_after;	/* the value for "{}" in the title: the text after this literal (or
				 * the first on the line of several joined by SIG_UNTIL) */
	const char *cap_stop;	/* ... up to one of these characters (end of line when NULL), or
				 * up to the literal after SIG_UNTIL */
	const char *title;	/* one line; "{}" is replaced by the captured value */
	const char *cause;
	const char *fix;	/* lines separated by '\n' */
	const char *rerun;	/* environment to rerun with when the log is not enough, or NULL */
	const char *check;	/* an ncclcheck command that tests the suspicion, or NULL */
	const struct explain_sig_variant *variants;	/* by the code on the line, or NULL */
};

extern const struct explain_sig explain_sigs[];
extern const size_t explain_nsigs;

/*
 * Known NCCL bugs by version: consulted by the reasoner when their symptom shows, before anything
 * blames the set-up. Versions are 10000 * major + 100 * minor + patch (2.27.3 is 22703).
 */
/* The bits of a row's `needs` and `or_needs`, one per fact (64 available). */
/* NCCL's RAS thread was running (its INFO line was seen) */
#define KB_NEED_RAS (UINT64_C(1) << 0)
/* the log names an aarch64 host (aarch64, arm64, Grace: GH200, GB200) */
#define KB_NEED_ARM (UINT64_C(1) << 1)
/* a hang: a watchdog timeout, or the reporter's "hangs", "stuck" */
#define KB_NEED_HANG (UINT64_C(1) << 2)
/* the symptom is generic: medium confidence even with the version */
#define KB_MEDIUM (UINT64_C(1) << 3)
/* with no symptom row: wrong results (nccl-tests' "Out of bounds values : N FAILED"), not a
 * hang, are the symptom */
#define KB_NEED_WRONG (UINT64_C(1) << 4)
/* the failure ran through bootstrap.cc and the reporter names a port scan (nmap, a security
 * scanner, health checks) */
#define KB_NEED_BOOT_SCAN (UINT64_C(1) << 5)
/* CUDA_LAUNCH_BLOCKING=1 is set (a launch line, an export, torch's environment dump) */
#define KB_NEED_LAUNCH_BLOCKING (UINT64_C(1) << 6)
/* torch used NCCL's non-blocking API: init_process_group's device_id= (eager init, torch
 * 2.7.0) or TORCH_NCCL_USE_COMM_NONBLOCKING=1 */
#define KB_NEED_NONBLOCKING (UINT64_C(1) << 7)
/* the log names both an Intel and an AMD host CPU */
#define KB_NEED_MIXED_CPU (UINT64_C(1) << 8)
/* all-to-all traffic named: OpType=ALLTOALL, alltoall_perf */
#define KB_NEED_ALLTOALL (UINT64_C(1) << 9)
/* NCCL found NVLS (NVLink SHARP) usable on the GPUs */
#define KB_NEED_NVLS (UINT64_C(1) << 10)
/* the stack limit is unlimited: ulimit -s unlimited */
#define KB_NEED_STACK_UNLIMITED (UINT64_C(1) << 11)
/* CUDA graphs named: capture, cudagraph (vLLM, SGLang) */
#define KB_NEED_CUDAGRAPH (UINT64_C(1) << 12)
/* a stack or the reporter names NCCL's or torch's abort (ncclCommAbort,
 * ProcessGroupNCCL::abort) */
#define KB_NEED_ABORT (UINT64_C(1) << 14)
/* a hang with no watchdog timeout (the reporter's "hangs") counts only when the log names all-
 * to-all (alltoall_perf, ALLTOALL) */
#define KB_PROSE_A2A (UINT64_C(1) << 13)
/* IB SHARP in use: CollNet named, NCCL_COLLNET_ENABLE=1 */
#define KB_NEED_SHARP (UINT64_C(1) << 15)
/* bfloat16 named */
#define KB_NEED_BF16 (UINT64_C(1) << 16)
/* an fp8 type named (ncclFloat8e4m3, float8_e5m2, fp8) */
#define KB_NEED_FP8 (UINT64_C(1) << 17)
/* the failure ran through NCCL's enqueue.cc */
#define KB_NEED_ENQUEUE (UINT64_C(1) << 18)
/* NCCL_CROSS_NIC set */
#define KB_NEED_CROSS_NIC (UINT64_C(1) << 19)
/* an aarch64 host and an x86 one (Intel or AMD) in one log */
#define KB_NEED_MIXED_ARCH (UINT64_C(1) << 20)
/* NCCL reported a failure first (torch's 'NCCL error ...: unhandled system/cuda/internal
 * error', invalid usage) */
#define KB_NEED_NCCL_ERROR (UINT64_C(1) << 21)
/* the GPUs are Hopper (H100, H800, H200 named) */
#define KB_NEED_HOPPER (UINT64_C(1) << 22)
/* a stack in NCCL's network plugin init (ncclNetPluginInit, ncclNetInit) */
#define KB_NEED_NET_INIT (UINT64_C(1) << 23)
/* the reporter names a port scan or security scanner */
#define KB_NEED_SCAN (UINT64_C(1) << 24)
/* GPUDirect RDMA turned off: NCCL_NET_GDR_LEVEL=LOC (or 0) */
#define KB_NEED_GDR_OFF (UINT64_C(1) << 25)
/* B40 GPUs named */
#define KB_NEED_B40 (UINT64_C(1) << 26)
/* MPS with MLOPart named */
#define KB_NEED_MLOPART (UINT64_C(1) << 27)
/* NCCL_RUNTIME_CONNECT=0 */
#define KB_NEED_NO_RUNTIME_CONNECT (UINT64_C(1) << 28)
/* a WARN of NCCL's transport.cc (transport set-up) */
#define KB_NEED_TRANSPORT (UINT64_C(1) << 29)
/* a WARN of NCCL's ce_coll.cc (copy-engine collectives) */
#define KB_NEED_CE_COLL (UINT64_C(1) << 30)
/* NCCL's Inspector profiler plugin enabled */
#define KB_NEED_INSPECTOR (UINT64_C(1) << 31)
/* split communicators share their parent's resources: NCCL_COMM_SPLIT_SHARE_RESOURCES=1 */
#define KB_NEED_SPLIT_SHARE (UINT64_C(1) << 32)
/* NCCL_NET_GDR_C2C=1 */
#define KB_NEED_GDR_C2C (UINT64_C(1) << 33)
/* NCCL_TOPO_FILE set */
#define KB_NEED_TOPO_FILE (UINT64_C(1) << 34)
/* a segmentation fault was reported (sys.segfault matched) beside the row's own symptom */
#define KB_NEED_SEGFAULT (UINT64_C(1) << 35)
/* user buffers registered with NCCL: ncclCommRegister, torch's
 * TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK=1 or register_mem_pool */
#define KB_NEED_USER_REG (UINT64_C(1) << 36)
/* NCCL_IB_QPS_PER_CONNECTION above 1 (2, 4, 8 and up) */
#define KB_NEED_MULTI_QP (UINT64_C(1) << 37)
/* symmetric-memory windows: ncclCommWindowRegister, NCCL_WIN_COLL_SYMMETRIC */
#define KB_NEED_SYMMETRIC (UINT64_C(1) << 38)
/* NCCL_COMM_ID named, and a rank bootstraps on loopback ("Bootstrap : Using lo:127.0.0.1") */
#define KB_NEED_COMM_ID_LO (UINT64_C(1) << 39)

struct explain_known_bug {
	const char *id;
	int from, to;		/* affected: from <= version < to (to 0: no fixed release known) */
	const char *fixed_in;	/* NULL: not fixed yet */
	const char *symptom;	/* the signature id that must have matched; NULL: a hang, or wrong
				 * results with KB_NEED_WRONG */
	uint64_t needs;		/* KB_NEED_* facts that must also have been seen */
	uint64_t or_needs;	/* when the symptom did not match: these KB_NEED_* facts together
				 * stand for it (0: the symptom is required) */
	int version_required;	/* 1: only when the log shows an affected version */
	const char *title;
	const char *cause;
	const char *fix;	/* lines separated by '\n' */
	const char *source;	/* where the range and the fix are stated: a release note or a maintainer */
};

extern const struct explain_known_bug explain_known_bugs[];
extern const size_t explain_nknown_bugs;

/* The row with `id`, or NULL. */
const struct explain_sig *explain_sig_find(const char *id);

#endif
