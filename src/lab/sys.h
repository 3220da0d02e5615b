/* Lab internals shared by up, down, status and exec: namespaces on disk, running in them, state. */
#ifndef NCCLCHECK_LAB_SYS_H
#define NCCLCHECK_LAB_SYS_H

#include <stddef.h>

#include <jansson.h>

#include "util/err.h"
#include "util/strbuf.h"
#include "util/subproc.h"

struct lab_names {
	char **v;
	size_t n, alloc;
};

void lab_names_add(struct lab_names *l, const char *s);
void lab_names_free(struct lab_names *l);

/* Names in /run/netns (what `ip netns list` shows); empty when the directory does not exist. */
int lab_netns_list(struct lab_names *out, struct err *e);
/* Directories in LAB_STATE_ROOT (one per lab prefix). */
int lab_state_list(struct lab_names *out);
/* Directories in /etc/netns. */
int lab_etc_list(struct lab_names *out);
/* Links of the namespace this process is in (/sys/class/net). */
int lab_links_list(struct lab_names *out, struct err *e);

/*
 * Runs argv[0] (an absolute path) inside namespace `netns` (setns in a forked child, no mount
 * games): for tools that need the namespace's netfilter tables, like iptables. Its stdout lands
 * in r->out, its stderr in r->errout.
 */
int lab_run_in_netns(const char *netns, char *const argv[], long timeout_ms,
		     struct subproc_result *r, struct err *e);

/* Writes "key=value" lines (relative to /proc/sys) inside each namespace, in one child. */
struct lab_sysctl_job {
	const char *netns;
	const char *lines;
};
int lab_sysctls_apply(const struct lab_sysctl_job *jobs, size_t n, struct err *e);

/*
 * Every lab node's ARP entries live in the host kernel's one neighbour table (its limits,
 * net.ipv4.neigh.default.gc_thresh1..3, exist only in the initial namespace): `nodes` nodes
 * with two interfaces each need about 2 * nodes * (nodes - 1) entries at once, and past
 * gc_thresh3 (1024 by default, so from 24 nodes on) the kernel drops new ones and SYNs vanish.
 * Raises the limits when they are too small (never lowers them); *from and *to are the old
 * and new gc_thresh3, equal when nothing changed (both 0 inside a network namespace, where the
 * kernel hides the limits).
 */
int lab_host_neigh_fit(int nodes, long *from, long *to, struct err *e);

/* A process as /proc/<pid>/stat shows it: enough to tell a member of a build's group. */
struct lab_proc {
	long pid;
	char state;			/* R, S, D, Z ... */
	long pgrp;
	unsigned long long start;	/* clock ticks after boot: with the pid, one process ever */
};
int lab_proc_read(long pid, struct lab_proc *p);
/* 1 when `pid` runs (not a zombie) and, when `start` is not 0, is the process started then. */
int lab_proc_running(long pid, unsigned long long start);
/*
 * SIGKILLs every running process but this one that `pick` accepts, and scans /proc again until
 * none is left or `timeout_ms` has passed; returns how many processes it killed.
 */
int lab_kill_all(int (*pick)(const struct lab_proc *p, void *ctx), void *ctx, long timeout_ms);
/*
 * Ends process `pid` (the one started at `start`; any when 0): SIGTERM and up to `grace_ms` to
 * exit when grace_ms > 0, then SIGKILL, and waits until it is gone, at most `timeout_ms` in all.
 * 1 when it was running.
 */
int lab_proc_end(long pid, unsigned long long start, long grace_ms, long timeout_ms);

/*
 * The process group of a build (group.c): lab_group_start() forks its keeper and makes every
 * child started afterwards (util/subproc) join it; lab_group_finish() ends it when `up` is done.
 * Should `up` die first, the keeper SIGKILLs the group.
 */
struct lab_group {
	long pgid;
	unsigned long long start;	/* the keeper's start time */
};
int lab_group_start(struct lab_group *g, struct err *e);
void lab_group_finish(struct lab_group *g);
/*
 * `lab down`'s side: SIGKILLs every member of group `pgid` (started no earlier than `start`,
 * the keeper's time) until none runs, for at most `timeout_ms`; returns how many ran. Nothing
 * when a process with the id `pgid` runs with another start time (the id was reused).
 */
int lab_group_end(long pgid, unsigned long long start, long timeout_ms);

/* The state directory of a prefix: LAB_STATE_ROOT/<prefix>. Caller frees. */
char *lab_state_dir(const char *prefix);
/* Reads and validates <state dir>/state.json; NULL with `e` set (ERR_NOTFOUND when absent). */
json_t *lab_state_load(const char *prefix, struct err *e);
/* Writes it atomically (temporary file, rename). */
int lab_state_save(const char *prefix, const json_t *state, struct err *e);
/* Writes a small file, creating or truncating it. */
int lab_write_file(const char *path, const char *text, int mode, struct err *e);

/* Looks `name` up on PATH like execvp would: 0 with the absolute path in `out`, else -1. */
int lab_which(const char *name, char *out, size_t len);
/* First line of a child's stderr (or stdout), trimmed, for error messages. */
void lab_first_line(const struct subproc_result *r, char *buf, size_t len);

#endif
