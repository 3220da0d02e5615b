/*
 * What a local rank's process is doing, from /proc (under a root, so tests use fixture trees):
 * its state, the CPU time it has used (to tell "sleeping" from "spinning" between two polls), and
 * a thread in uninterruptible sleep (D) with the kernel function it waits in.
 */
#ifndef NCCLCHECK_ATTACH_PROC_H
#define NCCLCHECK_ATTACH_PROC_H

#include <stddef.h>
#include <stdint.h>

struct proc_sample {
	int pid;
	int exists;
	char state;		/* R S D T t Z X I, of the main thread */
	char comm[32];
	unsigned long long cpu_ticks;	/* utime + stime of the whole process, clock ticks */
	int nthreads;
	int nthreads_d;		/* threads in D state */
	int d_tid;		/* the first of them */
	char d_comm[32];
	char d_wchan[64];
	int nthreads_stopped;	/* threads in T/t */
	int64_t t_ms;		/* monotonic time of the sample */
};

/* Samples `pid` under `proc_root` ("/proc" or a fixture tree). Never fails: exists=0 if gone. */
void proc_sample(const char *proc_root, int pid, int64_t t_ms, struct proc_sample *s);

/* "unix:PATH" from TORCH_WORKER_SERVER_SOCKET in the process's environment (torch's per-rank
 * WorkerServer), "" when unset or unreadable. */
void proc_worker_socket(const char *proc_root, int pid, char *out, size_t len);

/* Clock ticks per second for cpu_ticks (sysconf, 100 on Linux). */
long proc_ticks_per_sec(void);

#endif
