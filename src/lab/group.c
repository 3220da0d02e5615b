/*
 * The process group of a build. Every child `lab up` starts (the `ip -batch` builders, tc,
 * iptables, the sysctl child, the Slurm starters) joins one group led by a small keeper process,
 * and state.json records the group's id. When `lab up` dies without finishing (SIGKILL, the OOM
 * killer), the keeper learns it from the kernel (PR_SET_PDEATHSIG) and kills the whole group at
 * once; `lab down` kills the same group again and waits until none of it runs, because the
 * keeper may not have run yet. Before this, the builders of a killed `up` went on creating
 * namespaces after `down` had returned.
 */
#include "lab/sys.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/file.h"
#include "util/subproc.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

int lab_proc_read(long pid, struct lab_proc *p)
{
	char path[64], buf[1024];
	const char *rp;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (file_read_line(path, buf, sizeof(buf)) < 0 || !(rp = strrchr(buf, ')')))
		return -1;
	/* after "pid (comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt
	 * cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime */
	if (sscanf(rp + 1, " %c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		   "%*d %*d %llu", &p->state, &p->pgrp, &p->start) != 3)
		return -1;
	p->pid = pid;
	return 0;
}

int lab_proc_running(long pid, unsigned long long start)
{
	struct lab_proc p;

	return pid > 1 && lab_proc_read(pid, &p) == 0 && p.state != 'Z' && p.state != 'X' &&
	       (!start || p.start == start);
}

struct pids {
	long *v;
	size_t n, alloc;
};

static void pids_add(struct pids *l, long pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == pid)
			return;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = pid;
}

/* One pass over /proc: SIGKILLs each running process `pick` accepts; how many ran. */
static int kill_pass(int (*pick)(const struct lab_proc *p, void *ctx), void *ctx,
		     struct pids *seen)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct lab_proc p;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 1 || pid == (long)getpid() || lab_proc_read(pid, &p) < 0 ||
		    p.state == 'Z' || p.state == 'X' || !pick(&p, ctx))
			continue;
		kill((pid_t)pid, SIGKILL);
		pids_add(seen, pid);
		n++;
	}
	closedir(d);
	return n;
}

int lab_kill_all(int (*pick)(const struct lab_proc *p, void *ctx), void *ctx, long timeout_ms)
{
	struct pids seen = { 0 };
	int64_t end = time_now_ms() + timeout_ms;
	int n;

	/* again until none is left: a process may fork between two scans, and one SIGKILLed a
	 * moment ago may not have exited yet (`seen` counts it once) */
	while (kill_pass(pick, ctx, &seen) > 0 && time_now_ms() < end)
		usleep(10 * 1000);
	n = (int)seen.n;
	free(seen.v);
	return n;
}

int lab_proc_end(long pid, unsigned long long start, long grace_ms, long timeout_ms)
{
	int64_t now = time_now_ms(), grace = now + grace_ms, end = now + timeout_ms;

	if (!lab_proc_running(pid, start))
		return 0;
	if (grace_ms > 0) {
		kill((pid_t)pid, SIGTERM);
		while (lab_proc_running(pid, start) && time_now_ms() < grace)
			usleep(5000);
	}
	if (lab_proc_running(pid, start))
		kill((pid_t)pid, SIGKILL);
	while (lab_proc_running(pid, start) && time_now_ms() < end)
		usleep(5000);
	return 1;
}

/* The keeper: leads the group, and kills it when `lab up` dies before lab_group_finish(). */
static void keeper(pid_t parent, const sigset_t *wait_for)
{
	int sig = SIGUSR1;

	setpgid(0, 0);
	/* not the builders' business: only lab up's death or its word ends the keeper */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	/* nothing of lab up's (a test's $(...) pipe) stays open through the keeper */
	for (int fd = 0; fd < 1024; fd++)
		close(fd);
	if (prctl(PR_SET_PDEATHSIG, SIGUSR1) == 0 && getppid() == parent)
		while (sigwait(wait_for, &sig) != 0)
			;
	if (sig == SIGUSR1)
		kill(0, SIGKILL);
	_exit(0);
}

int lab_group_start(struct lab_group *g, struct err *e)
{
	pid_t parent = getpid(), pid;
	sigset_t set, old;

	/* blocked before the fork: a word sent at once is not lost before the keeper waits */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		keeper(parent, &set);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		return err_sys(e, "cannot fork the lab's process group keeper");
	setpgid(pid, pid);
	g->pgid = pid;
	g->start = 0;
	{
		struct lab_proc p;

		if (lab_proc_read(pid, &p) == 0)
			g->start = p.start;
	}
	subproc_set_group((int)pid);
	return 0;
}

void lab_group_finish(struct lab_group *g)
{
	if (g->pgid <= 0)
		return;
	subproc_set_group(0);
	kill(g->pgid, SIGUSR2);
	while (waitpid(g->pgid, NULL, 0) < 0 && errno == EINTR)
		;
	g->pgid = 0;
}

/* A member of group `pgid` started no earlier than the keeper (`start`). */
struct member_of {
	long pgid;
	unsigned long long start;
};

static int in_group(const struct lab_proc *p, void *ctx)
{
	const struct member_of *g = ctx;

	return p->pgrp == g->pgid && p->start >= g->start;
}

int lab_group_end(long pgid, unsigned long long start, long timeout_ms)
{
	struct lab_proc leader;

	/* without the keeper's start time the group cannot be told from a later one of that id */
	if (pgid <= 1 || !start || pgid == (long)getpgrp())
		return 0;
	/* a live process with the group's id but another start time: the id was reused */
	if (lab_proc_read(pgid, &leader) == 0 && leader.start != start)
		return 0;
	return lab_kill_all(in_group, &(struct member_of){ .pgid = pgid, .start = start },
			    timeout_ms);
}
