/* subproc: see subproc.h. */
#include "util/subproc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/timeutil.h"

static pid_t join_group; /* subproc_set_group(): 0 = each child its own group */

void subproc_result_init(struct subproc_result *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->out, 0);
	strbuf_init(&r->errout, 0);
}

void subproc_result_release(struct subproc_result *r)
{
	strbuf_release(&r->out);
	strbuf_release(&r->errout);
}

static void drain(int *fd, struct strbuf *sb, size_t cap)
{
	char buf[8192];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n > 0) {
		size_t room = sb->len < cap ? cap - sb->len : 0;
		strbuf_add(sb, buf, (size_t)n < room ? (size_t)n : room);
	} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
		close(*fd);
		*fd = -1;
	}
}

/* Pumps both pipes until EOF or the deadline, then reaps the child. */
static int collect(pid_t pid, int ofd, int efd, int64_t start, long timeout_ms, size_t cap,
		   struct subproc_result *r)
{
	int64_t deadline = start + timeout_ms;
	int wstatus = 0;

	while (ofd >= 0 || efd >= 0) {
		struct pollfd p[2];
		int np = 0, left = (int)(deadline - time_now_ms());

		if (left <= 0) {
			r->timed_out = 1;
			break;
		}
		if (ofd >= 0)
			p[np++] = (struct pollfd){ .fd = ofd, .events = POLLIN };
		if (efd >= 0)
			p[np++] = (struct pollfd){ .fd = efd, .events = POLLIN };
		if (poll(p, (nfds_t)np, left) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < np; i++) {
			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (p[i].fd == ofd)
				drain(&ofd, &r->out, cap);
			else
				drain(&efd, &r->errout, cap);
		}
	}
	/* Pipes closed does not mean exited; give the child what is left of its time. */
	while (!r->timed_out) {
		pid_t w = waitpid(pid, &wstatus, WNOHANG);
		if (w == pid)
			goto reaped;
		if (w < 0 && errno != EINTR)
			break;
		if (time_now_ms() >= deadline) {
			r->timed_out = 1;
			break;
		}
		usleep(2000);
	}
	if (!join_group)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
reaped:
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	r->elapsed_ms = (long)(time_now_ms() - start);
	if (WIFEXITED(wstatus)) {
		r->exited = !r->timed_out;
		r->status = WEXITSTATUS(wstatus);
	} else if (WIFSIGNALED(wstatus)) {
		r->status = WTERMSIG(wstatus);
	}
	return 0;
}

void subproc_set_group(int pgid)
{
	join_group = (pid_t)pgid;
}

/* Both sides set the group (the usual pair): whichever runs first, exec sees it set. */
static void place(pid_t pid)
{
	setpgid(pid, join_group ? join_group : pid);
}

static void child_stdio(int ofd, int efd)
{
	int devnull = open("/dev/null", O_RDWR);

	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(ofd, 1);
	dup2(efd, 2);
	place(0);
}

/* env_set: added to the inherited environment; envp (when not NULL): the whole environment. */
static int start(struct subproc *sp, char *const argv[], char *const env_set[], char *const envp[],
		 struct err *e)
{
	int op[2], ep[2];
	pid_t pid;

	if (pipe2(op, O_CLOEXEC) < 0)
		return err_sys(e, "cannot create pipe");
	if (pipe2(ep, O_CLOEXEC) < 0) {
		close(op[0]);
		close(op[1]);
		return err_sys(e, "cannot create pipe");
	}
	pid = fork();
	if (pid < 0) {
		close(op[0]); close(op[1]); close(ep[0]); close(ep[1]);
		return err_sys(e, "cannot fork '%s'", argv[0]);
	}
	if (pid == 0) {
		child_stdio(op[1], ep[1]);
		for (int i = 0; env_set && env_set[i]; i++)
			putenv(env_set[i]);
		if (envp)
			execvpe(argv[0], argv, envp);
		else
			execvp(argv[0], argv);
		dprintf(2, "exec %s: %s\n", argv[0], err_errno_text(errno));
		_exit(127);
	}
	place(pid);
	close(op[1]);
	close(ep[1]);
	sp->pid = pid;
	sp->ofd = op[0];
	sp->efd = ep[0];
	sp->start_ms = time_now_ms();
	return 0;
}

int subproc_start(struct subproc *sp, char *const argv[], char *const env_set[], struct err *e)
{
	return start(sp, argv, env_set, NULL, e);
}

int subproc_start_envp(struct subproc *sp, char *const argv[], char *const envp[], struct err *e)
{
	return start(sp, argv, NULL, envp, e);
}

int subproc_finish(struct subproc *sp, long timeout_ms, size_t out_cap, struct subproc_result *r)
{
	int rc = collect(sp->pid, sp->ofd, sp->efd, sp->start_ms, timeout_ms, out_cap, r);

	sp->pid = -1;
	sp->ofd = sp->efd = -1;
	return rc;
}

int subproc_run(char *const argv[], char *const env_set[], long timeout_ms, size_t out_cap,
		struct subproc_result *r, struct err *e)
{
	struct subproc sp = { .pid = -1, .ofd = -1, .efd = -1, .start_ms = 0 };

	if (subproc_start(&sp, argv, env_set, e) < 0)
		return -1;
	return subproc_finish(&sp, timeout_ms, out_cap, r);
}

int subproc_fork(int (*fn)(void *arg, int fd), void *arg, long timeout_ms, size_t out_cap,
		 struct subproc_result *r, struct err *e)
{
	int op[2], ep[2];
	pid_t pid;

	if (pipe2(op, O_CLOEXEC) < 0)
		return err_sys(e, "cannot create pipe");
	if (pipe2(ep, O_CLOEXEC) < 0) {
		close(op[0]);
		close(op[1]);
		return err_sys(e, "cannot create pipe");
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(op[0]); close(op[1]); close(ep[0]); close(ep[1]);
		return err_sys(e, "cannot fork");
	}
	if (pid == 0) {
		int ans = dup(op[1]);
		child_stdio(ep[1], ep[1]); /* the library's chatter goes to stderr, not the answer */
		_exit(fn(arg, ans >= 0 ? ans : op[1]));
	}
	place(pid);
	close(op[1]);
	close(ep[1]);
	return collect(pid, op[0], ep[0], time_now_ms(), timeout_ms, out_cap, r);
}
