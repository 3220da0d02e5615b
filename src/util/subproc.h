/*
 * Child processes with a deadline and bounded output. Probes use them for anything that can hang
 * or crash: importing torch, dlopen'ing a foreign libnccl, running nvcc.
 */
#ifndef NCCLCHECK_SUBPROC_H
#define NCCLCHECK_SUBPROC_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

struct subproc_result {
	int exited;		/* 1 when the child exited normally */
	int status;		/* exit status when exited, else the signal number */
	int timed_out;		/* 1 when the deadline killed it */
	long elapsed_ms;
	struct strbuf out;	/* stdout, at most the cap given */
	struct strbuf errout;	/* stderr, at most the cap given */
};

void subproc_result_init(struct subproc_result *r);

/*
 * Children started from now on join process group `pgid` instead of one of their own (0, the
 * default: each child leads its own group). `lab up` groups everything it starts under one id
 * so that `lab down` can end a killed build's children by that id. A deadline then kills only
 * the child, not a group of its own.
 */
void subproc_set_group(int pgid);
void subproc_result_release(struct subproc_result *r);

/* A started child whose output is collected later by subproc_finish(). */
struct subproc {
	int pid;
	int ofd, efd;
	long long start_ms;
};

/*
 * Starts argv like subproc_run() but returns at once, so slow probes (importing torch) overlap
 * with the rest. The child may block once it has written a pipe's worth (64 KiB) of output
 * before subproc_finish() reads it; keep such children terse.
 */
int subproc_start(struct subproc *sp, char *const argv[], char *const env_set[], struct err *e);
/*
 * subproc_start() with `envp` (environ's format) as the child's whole environment instead of
 * ours: a probe runs a child "as the job will run" (struct probe_ctx's env).
 */
int subproc_start_envp(struct subproc *sp, char *const argv[], char *const envp[], struct err *e);
/* Collects output until `timeout_ms` after the start, then kills and reaps. Always reaps. */
int subproc_finish(struct subproc *sp, long timeout_ms, size_t out_cap, struct subproc_result *r);

/*
 * Runs argv[0] (looked up in PATH when it has no '/') with stdin from /dev/null. `env_set` is a
 * NULL-terminated list of "NAME=value" strings added to the inherited environment (may be NULL).
 * The whole process group is killed at `timeout_ms`. Returns 0 when the child was started and
 * reaped (whatever its status), -1 with `e` set when it could not be started.
 */
int subproc_run(char *const argv[], char *const env_set[], long timeout_ms, size_t out_cap,
		struct subproc_result *r, struct err *e);

/*
 * Runs fn(arg, fd) in a forked child, which writes its answer to `fd` and returns an exit code.
 * Isolates code that may crash or hang the process (a foreign library's constructor, say).
 * stdout/stderr of the child are silenced. Same return convention as subproc_run; the answer is
 * in r->out.
 */
int subproc_fork(int (*fn)(void *arg, int fd), void *arg, long timeout_ms, size_t out_cap,
		 struct subproc_result *r, struct err *e);

#endif
