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

#include "finding.h"

enum {
	SIG_SYMPTOM = 1 << 0,	/* a generic consequence (ncclSystemError, ChildFailedError): ranked
				 * below causes */
	SIG_BENIGN = 1 << 1,	/* scary-looking but harmless: said so, never an error */
	SIG_NCCL = 1 << 2,	/* an NCCL failure: NCCL_DEBUG=INFO lines would explain it */
	SIG_NET = 1 << 3,	/* a network failure: the interface reasoning applies */
	SIG_WARN_ONLY = 1 << 4,	/* only on an "NCCL WARN" line (the same text at INFO is normal) */
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
enum {
	KB_NEED_RAS = 1 << 0,	/* NCCL's RAS thread was running (its INFO line was seen) */
	KB_NEED_ARM = 1 << 1,	/* the log names an aarch64 host (aarch64, arm64, Grace: GH200, GB200) */
	KB_NEED_HANG = 1 << 2,	/* a hang: a watchdog timeout, or the reporter's "hangs", "stuck" */
	KB_MEDIUM = 1 << 3,	/* the symptom is generic: medium confidence even with the version */
	KB_NEED_WRONG = 1 << 4,	/* with no symptom row: wrong results (nccl-tests' "Out of bounds
				 * values : N FAILED"), not a hang, are the symptom */
	KB_NEED_BOOT_SCAN = 1 << 5,	/* the failure ran through bootstrap.cc and the reporter names
					 * a port scan (nmap, a security scanner, health checks) */
	KB_NEED_LAUNCH_BLOCKING = 1 << 6,	/* CUDA_LAUNCH_BLOCKING=1 is set (a launch line, an
						 * export, torch's environment dump) */
	KB_NEED_NONBLOCKING = 1 << 7,	/* torch used NCCL's non-blocking API: init_process_group's
					 * device_id= (eager init, torch 2.7.0) or
					 * TORCH_NCCL_USE_COMM_NONBLOCKING=1 */
	KB_NEED_MIXED_CPU = 1 << 8,	/* the log names both an Intel and an AMD host CPU */
	KB_NEED_ALLTOALL = 1 << 9,	/* all-to-all traffic named: OpType=ALLTOALL, alltoall_perf */
	KB_NEED_NVLS = 1 << 10,		/* NCCL found NVLS (NVLink SHARP) usable on the GPUs */
	KB_NEED_STACK_UNLIMITED = 1 << 11,	/* the stack limit is unlimited: ulimit -s unlimited */
	KB_NEED_CUDAGRAPH = 1 << 12,	/* CUDA graphs named: capture, cudagraph (vLLM, SGLang) */
	KB_NEED_ABORT = 1 << 14,	/* a stack or the reporter names NCCL's or torch's abort
					 * (ncclCommAbort, ProcessGroupNCCL::abort) */
	KB_PROSE_A2A = 1 << 13,	/* a hang with no watchdog timeout (the reporter's "hangs") counts
				 * only when the log names all-to-all (alltoall_perf, ALLTOALL) */
};

struct explain_known_bug {
	const char *id;
	int from, to;		/* affected: from <= version < to (to 0: no fixed release known) */
	const char *fixed_in;	/* NULL: not fixed yet */
	const char *symptom;	/* the signature id that must have matched; NULL: a hang, or wrong
				 * results with KB_NEED_WRONG */
	unsigned needs;		/* KB_NEED_* facts that must also have been seen */
	unsigned or_needs;	/* when the symptom did not match: these KB_NEED_* facts together
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
