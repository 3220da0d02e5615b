/*
 * `attach --pid PID`, and the culprit's stack in attach's verdict: one process's Python stacks
 * (pystack.h) joined to its threads' kernel view (tasks.h) by native thread id. Collection does
 * the reads; attach_stacks_json() is the one description of the result that the text and the
 * --json output both render.
 */
#ifndef NCCLCHECK_ATTACH_STACKS_H
#define NCCLCHECK_ATTACH_STACKS_H

#include <jansson.h>

#include "attach/pystack.h"
#include "attach/tasks.h"
#include "util/strbuf.h"

/*
 * Where the stacks come from. The memory reader first: it needs neither the GIL nor anything
 * of the job's, so it reads a rank that spins in Python too. Torch's WorkerServer
 * (TORCH_WORKER_SERVER_SOCKET, /handler/dump_traceback, torch 2.10+) answers from inside the
 * process, under the GIL: where the memory read is refused (ptrace_scope, a container) or the
 * interpreter's layout is unknown, and the rank does not hold the GIL.
 */
enum stacks_from {
	STACKS_AUTO = 0,		/* memory, then the WorkerServer when the read fails */
	STACKS_MEMORY,
	STACKS_WORKER_SERVER,
};

enum stack_source {
	SOURCE_NONE = 0,
	SOURCE_MEMORY,
	SOURCE_WORKER_SERVER,
};

/* The WorkerServer's answer within this (a rank whose native code holds the GIL keeps the
 * server from answering, and attach must not wait on it). */
#define STACKS_WORKER_SERVER_MS 2000
#define STACKS_WORKER_SERVER_TARGET "/handler/dump_traceback"

struct attach_stacks {
	int pid;
	enum stack_source source;	/* where py came from; SOURCE_NONE: nowhere */
	char worker_server[300];	/* the URL asked, "" when none was */
	char memory_error[384];		/* why the memory read failed, when the server was asked */
	int exists;
	/* it maps NCCL (libnccl, or libtorch_cuda with NCCL linked in): the process RAS named,
	 * not another one that happens to have its pid in this PID namespace */
	int maps_nccl;
	struct py_stacks py;
	struct task_list tasks;
};

/* Reads `pid` (never stops or signals it) from the sources `from` names. With `image` non-NULL
 * the memory the walk read is appended to it as a pymem image (for --record and test
 * fixtures). */
void attach_stacks_collect(int pid, const char *proc_root, enum stacks_from from,
			   struct strbuf *image, struct attach_stacks *a);

/* "auto", "memory", "worker-server" into *out; -1 for anything else. */
int attach_stacks_from_parse(const char *s, enum stacks_from *out);

/* From a recorded image instead of a live process (tests): no threads' kernel view. */
int attach_stacks_from_image(const void *buf, size_t len, struct attach_stacks *a,
			     struct err *e);

void attach_stacks_release(struct attach_stacks *a);

/*
 * {"pid", "stack_source": "memory"|"worker_server"|null, "worker_server": URL (when asked),
 * "memory_error" (when the server was asked because the read failed),
 * "python": {"version", "binary", "layout_tested", "status", "error"}, "threads": [
 *   {"tid", "name", "state", "wchan", "syscall", "lib", "where", "frames": [{"function", "file",
 *   "line"}], "frames_note"}]}: frames outermost first (Python's "most recent call last").
 * Python threads with no kernel thread in the list (an image) are listed with their tid alone.
 */
json_t *attach_stacks_json(const struct attach_stacks *a);

/* The thread of `tid` in the Python stacks, or NULL. */
const struct py_thread *attach_stacks_thread(const struct attach_stacks *a, long tid);

/*
 * The one phrase the verdict uses for what a rank's main thread is doing in Python:
 * "in save_checkpoint (train.py:42) → torch.save (serialization.py:618) → write"
 * (the innermost `depth` frames, outermost of them first, file names without directories);
 * "" when no stack was read.
 */
void attach_stacks_phrase(const struct attach_stacks *a, size_t depth, struct strbuf *sb);

/*
 * The processes whose main threads stand in the same Python code, largest group first (the
 * odd ones out last: on a hung job, the suspects). Each group's key is its whole main-thread
 * phrase; processes whose stack was not read are left out. Returns the count; *out is freed
 * with attach_stack_groups_release().
 */
struct stack_group {
	char *stack;		/* attach_stacks_phrase() of its first member, all frames */
	int *pids;
	size_t npids;
};

size_t attach_stack_groups(const struct attach_stacks *v, size_t n, struct stack_group **out);
void attach_stack_groups_release(struct stack_group *g, size_t n);
json_t *attach_stack_groups_json(const struct stack_group *g, size_t n);

#endif
