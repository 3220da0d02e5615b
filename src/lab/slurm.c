/*
 * lab slurm: a real Slurm over the lab's nodes (`lab up --slurm`), so `srun`/`sbatch` start
 * ncclcheck and training jobs the way they start on a real cluster. A private munged (its own key
 * and socket, in the root namespace: its socket is a file every namespace can reach), slurmctld
 * in node 0 and one slurmd per node, each started like `lab exec` starts a command (the node's
 * network namespace, /sys remounted for it, its own hostname), all files under
 * LAB_SLURM_ROOT/<prefix> so `lab down` finds and removes them by prefix alone, also after a
 * crash. Several labs can run Slurm at once: the daemons' ports are per network namespace.
 */
#include "lab/lab.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/plan.h"
#include "lab/sys.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define SLURM_STEP_TIMEOUT_MS 15000
#define SLURM_READY_TIMEOUT_MS 15000

char *lab_slurm_dir(const char *prefix)
{
	return xasprintf("%s/%s", LAB_SLURM_ROOT, prefix);
}

int lab_slurm_tools_find(struct lab_slurm_tools *t, struct err *e)
{
	static const struct {
		const char *name;
		size_t off;
	} tools[] = {
		{ "munged", offsetof(struct lab_slurm_tools, munged) },
		{ "slurmctld", offsetof(struct lab_slurm_tools, slurmctld) },
		{ "slurmd", offsetof(struct lab_slurm_tools, slurmd) },
		{ "sinfo", offsetof(struct lab_slurm_tools, sinfo) },
		{ "unshare", offsetof(struct lab_slurm_tools, unshare) },
	};

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (lab_which(tools[i].name, (char *)t + tools[i].off, LAB_SLURM_PATH_MAX) < 0)
			return err_set(e, ERR_NOTFOUND,
				       "'%s' is not on PATH; --slurm needs Slurm and munge: "
				       "apt-get install slurm-wlm munge", tools[i].name);
	return 0;
}

/* slurm.conf for the plan's nodes: every path under `dir`, nothing constrained (no cgroups). */
static void write_conf(const struct lab_plan *p, const char *dir, int task_prolog,
		       struct strbuf *sb)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	strbuf_addf(sb,
		    "# ncclcheck lab '%s': a real Slurm over the lab's nodes (removed by 'lab down')\n"
		    "ClusterName=%s\n"
		    "SlurmctldHost=%s-n0(%s)\n"
		    "SlurmUser=root\nSlurmdUser=root\n"
		    "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=%s/munge/socket\n"
		    /* ip netns exec hides the cgroup hierarchies; tasks are tracked by /proc */
		    "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
		    "JobAcctGatherType=jobacct_gather/none\nSelectType=select/cons_tres\n"
		    "MpiDefault=none\nReturnToService=2\nMailProg=/bin/true\n"
		    "SlurmctldTimeout=10\nSlurmdTimeout=10\nMessageTimeout=5\n"
		    "StateSaveLocation=%s/state\nSlurmdSpoolDir=%s/spool/%%n\n"
		    "SlurmctldPidFile=%s/slurmctld.pid\nSlurmdPidFile=%s/slurmd-%%n.pid\n"
		    "SlurmctldLogFile=%s/slurmctld.log\nSlurmdLogFile=%s/slurmd-%%n.log\n",
		    p->prefix, p->prefix, p->prefix, LAB_PRIV_NET ".10", dir, dir, dir, dir, dir,
		    dir, dir);
	for (int i = 0; i < p->nnodes; i++)
		strbuf_addf(sb, "NodeName=%s-n%d NodeAddr=%s.%d CPUs=%ld State=UNKNOWN\n", p->prefix,
			    i, LAB_PRIV_NET, LAB_HOST_BASE + i, cpus > 0 ? cpus : 1);
	strbuf_addstr(sb, "PartitionName=lab Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
	if (task_prolog)
		strbuf_addf(sb, "TaskProlog=%s/taskprolog.sh\n", dir);
}

/* The user's TaskProlog, copied into the lab's dir (so 'lab down' removes it), executable. */
static int copy_task_prolog(const char *from, const char *dir, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096], *to;
	FILE *in = fopen(from, "re");
	size_t n;
	int rc;

	if (!in)
		return err_sys(e, "cannot open the TaskProlog '%s'", from);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0 && sb.len < (1u << 20))
		strbuf_add(&sb, buf, n);
	rc = ferror(in) ? err_sys(e, "cannot read the TaskProlog '%s'", from) : 0;
	fclose(in);
	if (rc == 0 && sb.len >= (1u << 20))
		rc = err_set(e, ERR_USAGE, "the TaskProlog '%s' is over 1 MiB", from);
	if (rc == 0) {
		to = xasprintf("%s/taskprolog.sh", dir);
		rc = lab_write_file(to, sb.buf, 0755, e);
		free(to);
	}
	strbuf_release(&sb);
	return rc;
}

static const char cgroup_conf[] =
	"CgroupPlugin=cgroup/v1\nCgroupAutomount=no\nConstrainCores=no\nConstrainRAMSpace=no\n"
	"ConstrainDevices=no\n";

/*
 * Inside a node (after `ip netns exec`): its hostname, the cgroup v1 hierarchies slurmd wants
 * back (ip netns exec remounted /sys and so hid them; a missing controller is harmless with
 * proctrack/linuxproc), then the daemon. $1 hostname, $2... the daemon and its arguments.
 */
static const char start_sh[] =
	"#!/bin/sh\n"
	"# written by 'ncclcheck lab up --slurm'\n"
	"host=$1; shift\n"
	"hostname \"$host\"\n"
	"if ! [ -d /sys/fs/cgroup/freezer ]; then\n"
	"\tmount -t tmpfs tmpfs /sys/fs/cgroup 2>/dev/null\n"
	"\tfor c in cpuset memory devices freezer pids; do\n"
	"\t\tmkdir -p /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c 2>/dev/null\n"
	"\tdone\n"
	"fi\n"
	"exec \"$@\"\n";

static int run_step(char *const argv[], char *const env[], const char *what, struct err *e)
{
	struct subproc_result r;
	char line[240];
	int rc = 0;

	subproc_result_init(&r);
	if (subproc_run(argv, env, SLURM_STEP_TIMEOUT_MS, 16384, &r, e) < 0) {
		rc = err_prefix(e, "%s", what);
	} else if (!r.exited || r.status) {
		lab_first_line(&r, line, sizeof(line));
		rc = err_set(e, ERR_SYS, "%s failed: %s", what, line[0] ? line : "no output");
	}
	subproc_result_release(&r);
	return rc;
}

/* Starts one daemon inside node `i`, as `lab exec` would place it; the daemon forks away. */
static int start_in_node(const struct lab_plan *p, int i, const struct lab_tools *t,
			 const struct lab_slurm_tools *st, const char *dir, const char *daemon,
			 char *const env[], struct err *e)
{
	char host[32], *script = xasprintf("%s/start.sh", dir), *what;
	char *argv[] = { (char *)t->ip, "netns", "exec", p->ns[p->node[i].ns].name,
			 (char *)st->unshare, "--uts", "/bin/sh", script, host, (char *)daemon,
			 !strcmp(daemon, st->slurmd) ? "-N" : NULL, host, NULL };
	int rc;

	snprintf(host, sizeof(host), "%s-n%d", p->prefix, i);
	if (strcmp(daemon, st->slurmd))
		argv[11] = NULL;
	what = xasprintf("starting %s on %s", strrchr(daemon, '/') + 1, host);
	rc = run_step(argv, env, what, e);
	free(what);
	free(script);
	return rc;
}

static int interrupted(const volatile sig_atomic_t *cancel, struct err *e)
{
	return cancel && *cancel ? err_set(e, ERR_TIMEOUT, "interrupted") : 0;
}

/* Waits until sinfo in node 0 shows every node idle. */
static int wait_ready(const struct lab_plan *p, const struct lab_tools *t,
		      const struct lab_slurm_tools *st, char *const env[],
		      const volatile sig_atomic_t *cancel, struct err *e)
{
	char want[32], got[128] = "";
	char *argv[] = { (char *)t->ip, "netns", "exec", p->ns[p->node[0].ns].name,
			 (char *)st->sinfo, "-h", "-o", "%T %D", NULL };
	int64_t end = time_now_ms() + SLURM_READY_TIMEOUT_MS;

	snprintf(want, sizeof(want), "idle %d", p->nnodes);
	while (time_now_ms() < end) {
		struct subproc_result r;

		if (interrupted(cancel, e) < 0)
			return -1;
		subproc_result_init(&r);
		if (subproc_run(argv, env, 3000, 4096, &r, NULL) == 0 && r.exited && !r.status) {
			snprintf(got, sizeof(got), "%.*s", (int)strcspn(r.out.buf, "\n"), r.out.buf);
			if (!strcmp(got, want)) {
				subproc_result_release(&r);
				return 0;
			}
		}
		subproc_result_release(&r);
		usleep(100 * 1000);
	}
	return err_set(e, ERR_TIMEOUT,
		       "Slurm did not show %d idle nodes within %d s (sinfo says '%s'); see the "
		       "logs in %s/%s", p->nnodes, SLURM_READY_TIMEOUT_MS / 1000, got, LAB_SLURM_ROOT,
		       p->prefix);
}

int lab_slurm_up(const struct lab_plan *p, const struct lab_tools *t, const char *task_prolog,
		 const volatile sig_atomic_t *cancel, struct err *e)
{
	struct lab_slurm_tools st;
	char *dir = lab_slurm_dir(p->prefix), *f = NULL, *conf_env = NULL;
	struct strbuf sb = STRBUF_INIT;
	unsigned char key[1024];
	int rc = -1;

	if (lab_slurm_tools_find(&st, e) < 0)
		goto out;
	if (mkdir(LAB_SLURM_ROOT, 0755) < 0 && errno != EEXIST) {
		err_sys(e, "cannot create '%s'", LAB_SLURM_ROOT);
		goto out;
	}
	if (mkdir(dir, 0700) < 0) {
		err_sys(e, "cannot create '%s' (a Slurm of lab '%s' is left: 'ncclcheck lab down "
			"--prefix %s')", dir, p->prefix, p->prefix);
		goto out;
	}
	{
		static const char *const sub[] = { "munge", "state", "spool" };
		for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
			free(f);
			f = xasprintf("%s/%s", dir, sub[i]);
			if (mkdir(f, 0700) < 0) {
				err_sys(e, "cannot create '%s'", f);
				goto out;
			}
		}
	}

	/* munge: a key of our own, so the lab never touches /etc/munge or a running munged */
	{
		FILE *ur = fopen("/dev/urandom", "re");
		size_t got = ur ? fread(key, 1, sizeof(key), ur) : 0;

		if (ur)
			fclose(ur);
		if (got != sizeof(key)) {
			err_set(e, ERR_SYS, "cannot read /dev/urandom for the munge key");
			goto out;
		}
		free(f);
		f = xasprintf("%s/munge/munge.key", dir);
		strbuf_reset(&sb);
		strbuf_add(&sb, key, sizeof(key));
		{
			FILE *kf = fopen(f, "wxe");
			int ok = kf && fwrite(sb.buf, 1, sb.len, kf) == sb.len;
			if (kf && fclose(kf))
				ok = 0;
			if (!ok || chmod(f, 0400) < 0) {
				err_sys(e, "cannot write '%s'", f);
				goto out;
			}
		}
	}
	{
		char *sock = xasprintf("--socket=%s/munge/socket", dir);
		char *keyf = xasprintf("--key-file=%s/munge/munge.key", dir);
		char *logf = xasprintf("--log-file=%s/munge/munged.log", dir);
		char *pidf = xasprintf("--pid-file=%s/munge/munged.pid", dir);
		char *seedf = xasprintf("--seed-file=%s/munge/munged.seed", dir);
		char *argv[] = { st.munged, "--force", sock, keyf, logf, pidf, seedf, NULL };

		rc = run_step(argv, NULL, "starting munged", e);
		free(sock);
		free(keyf);
		free(logf);
		free(pidf);
		free(seedf);
		if (rc < 0)
			goto out;
		rc = -1;
	}

	if (task_prolog && copy_task_prolog(task_prolog, dir, e) < 0)
		goto out;
	strbuf_reset(&sb);
	write_conf(p, dir, task_prolog != NULL, &sb);
	free(f);
	f = xasprintf("%s/slurm.conf", dir);
	if (lab_write_file(f, sb.buf, 0644, e) < 0)
		goto out;
	free(f);
	f = xasprintf("%s/cgroup.conf", dir);
	if (lab_write_file(f, cgroup_conf, 0644, e) < 0)
		goto out;
	free(f);
	f = xasprintf("%s/start.sh", dir);
	if (lab_write_file(f, start_sh, 0755, e) < 0)
		goto out;

	conf_env = xasprintf("SLURM_CONF=%s/slurm.conf", dir);
	{
		char *env[] = { conf_env, NULL };

		if (start_in_node(p, 0, t, &st, dir, st.slurmctld, env, e) < 0)
			goto out;
		for (int i = 0; i < p->nnodes; i++)
			if (interrupted(cancel, e) < 0 ||
			    start_in_node(p, i, t, &st, dir, st.slurmd, env, e) < 0)
				goto out;
		if (wait_ready(p, t, &st, env, cancel, e) < 0)
			goto out;
	}
	rc = 0;
out:
	strbuf_release(&sb);
	free(conf_env);
	free(f);
	free(dir);
	return rc;
}

/* The pid in `path`, if that process still runs with `needle` on its command line. */
static pid_t daemon_pid(const char *path, const char *needle)
{
	char buf[32], *cl;
	struct strbuf sb = STRBUF_INIT;
	long pid;
	pid_t found = 0;

	if (file_read_line(path, buf, sizeof(buf)) < 0 || (pid = strtol(buf, NULL, 10)) <= 1)
		return 0;
	cl = xasprintf("/proc/%ld/cmdline", pid);
	if (file_read(cl, &sb, 1 << 16, NULL) == 0 && memmem(sb.buf, sb.len, needle, strlen(needle)))
		found = (pid_t)pid;
	strbuf_release(&sb);
	free(cl);
	return found;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

int lab_slurm_down(const char *prefix)
{
	char *dir = lab_slurm_dir(prefix), *pidf;
	pid_t pid;
	int found = file_is_dir(dir);

	if (!found) {
		free(dir);
		return 0;
	}
	/* the daemons inside the nodes die with the namespaces; munged lives in ours */
	pidf = xasprintf("%s/munge/munged.pid", dir);
	pid = daemon_pid(pidf, dir);
	if (pid > 0)
		lab_proc_end(pid, 0, 1000, 6000);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(pidf);
	free(dir);
	return 1;
}

json_t *lab_slurm_status(const char *prefix)
{
	char *dir = lab_slurm_dir(prefix), *pidf, *conf;
	json_t *o;

	if (!file_is_dir(dir)) {
		free(dir);
		return NULL;
	}
	o = json_object();
	pidf = xasprintf("%s/munge/munged.pid", dir);
	conf = xasprintf("%s/slurm.conf", dir);
	jset_str(o, "dir", dir);
	jset_str(o, "conf", conf);
	jset_bool(o, "munged", daemon_pid(pidf, dir) > 0);
	free(pidf);
	free(conf);
	pidf = xasprintf("%s/slurmctld.pid", dir);
	{
		char buf[32];
		long pid = file_read_line(pidf, buf, sizeof(buf)) == 0 ? strtol(buf, NULL, 10) : 0;
		jset_bool(o, "slurmctld", pid > 1 && kill((pid_t)pid, 0) == 0);
	}
	free(pidf);
	free(dir);
	return o;
}
