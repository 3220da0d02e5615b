/*
 * What each thread of a process is doing in the kernel and in native code, from /proc alone
 * (no stop, no signal): its name, state, wchan, the system call it blocks in and the mapped
 * file its instruction pointer is in (/proc/PID/task/TID/syscall gives the pc; /proc/PID/maps
 * names the file). A thread in a blocking call usually has its pc in libc's syscall wrapper:
 * "in a futex" is then the better word than "in libc".
 */
#ifndef NCCLCHECK_ATTACH_TASKS_H
#define NCCLCHECK_ATTACH_TASKS_H

#include <stddef.h>
#include <stdint.h>

#define TASKS_MAX 4096

struct task_state {
	long tid;
	char name[32];
	char state;		/* R S D T t Z X I, '?' unread */
	char wchan[64];		/* "" when 0 or unreadable */
	long syscall;		/* the call it blocks in; -1 running, -2 unknown (no access) */
	uint64_t pc;		/* 0 unknown */
	char lib[128];		/* the mapped file of pc, basename; "" unknown */
	char where[192];		/* the summary: "in a futex", "in libnccl.so.2", "running" */
};

struct task_list {
	struct task_state *v;
	size_t n;
};

/* Reads every thread of `pid` under `proc_root`. 0, or -1 when the process is gone. */
int tasks_read(const char *proc_root, int pid, struct task_list *out);
void task_list_release(struct task_list *l);

/* One line of /proc/PID/maps: its range, file offset and path ("" when anonymous). */
struct maps_line {
	uint64_t start, end, offset;
	const char *path;	/* into the line, up to its end */
	size_t path_len;
};

/*
 * Parses the line at `line` (up to its '\n' or NUL) into *out. Returns the next line, NULL at
 * the end; out->start == out->end when the line is not a mapping.
 */
const char *maps_line_next(const char *line, struct maps_line *out);

/* The summary of one thread from its fields (pure: unit-tested). */
void task_where(struct task_state *t);

#endif
