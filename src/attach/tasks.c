/* Threads of a process from /proc: state, wchan, system call, the library of the pc (tasks.h). */
#include "attach/tasks.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The calls a stuck rank's threads block in, and how the verdict says it. */
static const struct {
	long nr;
	const char *what;
} blocking_calls[] = {
	{ .nr = SYS_futex, .what = "in a futex (a lock, a condition variable, a join)" },
#ifdef SYS_nanosleep
	{ .nr = SYS_nanosleep, .what = "sleeping (nanosleep)" },
#endif
	{ .nr = SYS_clock_nanosleep, .what = "sleeping (clock_nanosleep)" },
#ifdef SYS_poll
	{ .nr = SYS_poll, .what = "polling file descriptors (poll)" },
#endif
	{ .nr = SYS_ppoll, .what = "polling file descriptors (ppoll)" },
#ifdef SYS_epoll_wait
	{ .nr = SYS_epoll_wait, .what = "polling file descriptors (epoll_wait)" },
#endif
	{ .nr = SYS_epoll_pwait, .what = "polling file descriptors (epoll_pwait)" },
#ifdef SYS_select
	{ .nr = SYS_select, .what = "polling file descriptors (select)" },
#endif
	{ .nr = SYS_pselect6, .what = "polling file descriptors (pselect6)" },
	{ .nr = SYS_read, .what = "reading a file descriptor (read)" },
	{ .nr = SYS_write, .what = "writing a file descriptor (write)" },
	{ .nr = SYS_recvfrom, .what = "receiving on a socket (recvfrom)" },
	{ .nr = SYS_recvmsg, .what = "receiving on a socket (recvmsg)" },
	{ .nr = SYS_accept, .what = "accepting a connection (accept)" },
	{ .nr = SYS_accept4, .what = "accepting a connection (accept4)" },
	{ .nr = SYS_connect, .what = "connecting a socket (connect)" },
	{ .nr = SYS_ioctl, .what = "in an ioctl (a driver call: the GPU driver, a device)" },
	{ .nr = SYS_wait4, .what = "waiting for a child process (wait4)" },
	{ .nr = SYS_waitid, .what = "waiting for a child process (waitid)" },
};

/* The libraries a rank's native frames are worth naming by. */
static const char *const named_libs[] = { "libnccl", "libcuda", "libcudart", "libtorch_cuda",
	"libibverbs", "libmlx5", "libnvidia" };

void task_where(struct task_state *t)
{
	if (t->state == 'R' || t->syscall == -1) {
		snprintf(t->where, sizeof(t->where), "running%s%s", t->lib[0] ? " in " : "", t->lib);
		return;
	}
	for (size_t i = 0; i < sizeof(named_libs) / sizeof(named_libs[0]); i++)
		if (!strncmp(t->lib, named_libs[i], strlen(named_libs[i]))) {
			snprintf(t->where, sizeof(t->where), "in %s", t->lib);
			return;
		}
	for (size_t i = 0; i < sizeof(blocking_calls) / sizeof(blocking_calls[0]); i++)
		if (t->syscall == blocking_calls[i].nr) {
			snprintf(t->where, sizeof(t->where), "%s", blocking_calls[i].what);
			return;
		}
	if (t->syscall >= 0)
		snprintf(t->where, sizeof(t->where), "in system call %ld%s%s", t->syscall,
			 t->wchan[0] ? ", kernel " : "", t->wchan);
	else if (t->wchan[0])
		snprintf(t->where, sizeof(t->where), "waiting in the kernel (%s)", t->wchan);
	else if (t->lib[0])
		snprintf(t->where, sizeof(t->where), "in %s", t->lib);
	else
		t->where[0] = '\0';	/* nothing more than the state itself */
}

const char *maps_line_next(const char *line, struct maps_line *out)
{
	const char *nl = strchr(line, '\n');
	size_t n = nl ? (size_t)(nl - line) : strlen(line);
	unsigned long long a, b, off;
	int pos = 0;

	memset(out, 0, sizeof(*out));
	out->path = "";
	if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &a, &b, &off, &pos) >= 3 && a < b) {
		out->start = a;
		out->end = b;
		out->offset = off;
		if (pos && (size_t)pos < n && line[pos] == '/') {
			out->path = line + pos;
			out->path_len = n - (size_t)pos;
		}
	}
	return nl && nl[1] ? nl + 1 : NULL;
}

/* The basename of the file mapped at `pc` in a maps text; "" when anonymous or unmapped. */
static void lib_of(const char *maps, uint64_t pc, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *line = maps; line && *line;) {
		struct maps_line ml;
		const char *slash;

		line = maps_line_next(line, &ml);
		if (pc < ml.start || pc >= ml.end)
			continue;
		slash = ml.path;
		for (size_t i = 0; i < ml.path_len; i++)
			if (ml.path[i] == '/')
				slash = ml.path + i + 1;
		snprintf(out, len, "%.*s", (int)(ml.path + ml.path_len - slash), slash);
		return;
	}
}

static void read_task(const char *proc_root, int pid, long tid, const char *maps,
		      struct task_state *t)
{
	struct strbuf sb = STRBUF_INIT;
	char path[512];
	const char *lp, *rp;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->state = '?';
	t->syscall = -2;
	snprintf(path, sizeof(path), "%s/%d/task/%ld/stat", proc_root, pid, tid);
	if (file_read(path, &sb, 4096, NULL) == 0 && (lp = strchr(sb.buf, '(')) &&
	    (rp = strrchr(sb.buf, ')')) && rp > lp) {
		snprintf(t->name, sizeof(t->name), "%.*s", (int)(rp - lp - 1), lp + 1);
		if (rp[1] == ' ' && rp[2])
			t->state = rp[2];
	}
	snprintf(path, sizeof(path), "%s/%d/task/%ld/wchan", proc_root, pid, tid);
	if (file_read_line(path, t->wchan, sizeof(t->wchan)) < 0 || !strcmp(t->wchan, "0"))
		t->wchan[0] = '\0';
	/* "NR arg1..arg6 sp pc", "running", or "-1 sp pc" (blocked outside a system call) */
	snprintf(path, sizeof(path), "%s/%d/task/%ld/syscall", proc_root, pid, tid);
	strbuf_reset(&sb);
	if (file_read(path, &sb, 4096, NULL) == 0 && sb.len) {
		if (!strncmp(sb.buf, "running", 7)) {
			t->syscall = -1;
		} else {
			char *tok[9], *save = NULL;
			int n = 0;
			for (char *p = strtok_r(sb.buf, " \n", &save); p && n < 9;
			     p = strtok_r(NULL, " \n", &save))
				tok[n++] = p;
			if (n >= 1)
				t->syscall = strtol(tok[0], NULL, 0) >= 0 ? strtol(tok[0], NULL, 0) : -2;
			if (n >= 3)
				t->pc = strtoull(tok[n - 1], NULL, 0);
		}
	}
	if (t->pc && maps)
		lib_of(maps, t->pc, t->lib, sizeof(t->lib));
	strbuf_release(&sb);
	task_where(t);
}

static int by_tid(const void *a, const void *b)
{
	const struct task_state *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int tasks_read(const char *proc_root, int pid, struct task_list *out)
{
	struct strbuf maps = STRBUF_INIT;
	char path[512];
	size_t alloc = 0;
	struct dirent *de;
	DIR *d;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/%d/task", proc_root, pid);
	d = opendir(path);
	if (!d)
		return -1;
	snprintf(path, sizeof(path), "%s/%d/maps", proc_root, pid);
	if (file_read(path, &maps, 8u << 20, NULL) < 0)
		strbuf_reset(&maps);
	while ((de = readdir(d)) && out->n < TASKS_MAX) {
		long tid = atol(de->d_name);
		if (tid <= 0)
			continue;
		ALLOC_GROW(out->v, out->n + 1, alloc);
		read_task(proc_root, pid, tid, maps.len ? maps.buf : NULL, &out->v[out->n++]);
	}
	closedir(d);
	strbuf_release(&maps);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), by_tid);
	return 0;
}

void task_list_release(struct task_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
