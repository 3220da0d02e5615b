/* /proc/<pid>/stat and its threads, bounded (see proc.h). */
#include "attach/proc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"
#include "util/strbuf.h"

#define PROC_MAX_THREADS 4096

void proc_worker_socket(const char *proc_root, int pid, char *out, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char path[512];
	static const char key[] = "TORCH_WORKER_SERVER_SOCKET=";

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%d/environ", proc_root, pid);
	if (file_read(path, &sb, 1u << 20, NULL) == 0) {
		for (size_t i = 0; i < sb.len;) {
			const char *v = sb.buf + i;
			size_t n = strnlen(v, sb.len - i);
			if (n > sizeof(key) - 1 && !strncmp(v, key, sizeof(key) - 1))
				snprintf(out, len, "unix:%.*s", (int)(n - sizeof(key) + 1), v + sizeof(key) - 1);
			i += n + 1;
		}
	}
	strbuf_release(&sb);
}

long proc_ticks_per_sec(void)
{
	long t = sysconf(_SC_CLK_TCK);

	return t > 0 ? t : 100;
}

/* "pid (comm) S ppid ..." -> state, comm, utime + stime; -1 when it does not parse. */
static int parse_stat(const char *buf, char *state, char *comm, size_t commlen,
		      unsigned long long *ticks)
{
	const char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
	unsigned long long ut, st;

	if (!lp || !rp || rp < lp)
		return -1;
	snprintf(comm, commlen, "%.*s", (int)(rp - lp - 1), lp + 1);
	/* after ") ": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (sscanf(rp + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", state, &ut, &st) != 3)
		return -1;
	*ticks = ut + st;
	return 0;
}

void proc_sample(const char *proc_root, int pid, int64_t t_ms, struct proc_sample *s)
{
	char path[512], tcomm[32], tstate;
	struct strbuf sb = STRBUF_INIT;
	unsigned long long ticks;
	DIR *d;
	struct dirent *de;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->t_ms = t_ms;
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, pid);
	if (file_read(path, &sb, 4096, NULL) < 0 ||
	    parse_stat(sb.buf, &s->state, s->comm, sizeof(s->comm), &s->cpu_ticks) < 0) {
		strbuf_release(&sb);
		return;
	}
	s->exists = 1;
	snprintf(path, sizeof(path), "%s/%d/task", proc_root, pid);
	d = opendir(path);
	while (d && (de = readdir(d)) && s->nthreads < PROC_MAX_THREADS) {
		int tid = atoi(de->d_name);
		if (tid <= 0)
			continue;
		s->nthreads++;
		snprintf(path, sizeof(path), "%s/%d/task/%d/stat", proc_root, pid, tid);
		strbuf_reset(&sb);
		if (file_read(path, &sb, 4096, NULL) < 0 ||
		    parse_stat(sb.buf, &tstate, tcomm, sizeof(tcomm), &ticks) < 0)
			continue;
		if (tstate == 'T' || tstate == 't')
			s->nthreads_stopped++;
		if (tstate == 'D') {
			if (!s->nthreads_d) {
				s->d_tid = tid;
				snprintf(s->d_comm, sizeof(s->d_comm), "%s", tcomm);
				snprintf(path, sizeof(path), "%s/%d/task/%d/wchan", proc_root, pid, tid);
				if (file_read_line(path, s->d_wchan, sizeof(s->d_wchan)) < 0 ||
				    !strcmp(s->d_wchan, "0"))
					s->d_wchan[0] = '\0';
			}
			s->nthreads_d++;
		}
	}
	if (d)
		closedir(d);
	strbuf_release(&sb);
}
