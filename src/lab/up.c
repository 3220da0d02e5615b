/*
 * lab up: executes a plan with as few processes as possible (one `ip -batch` per namespace, run
 * side by side; sysctls from one forked child that hops between namespaces), and removes
 * everything again when a step fails or the user interrupts.
 */
#include "lab/lab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/plan.h"
#include "lab/sys.h"
#include "util/file.h"
#include "util/json.h"
#include "util/subproc.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define STEP_TIMEOUT_MS 30000
#define MAX_PARALLEL 8

struct job {
	char *argv[8];
	char *what;		/* "ip -n ncl-n0 -batch": for messages */
	struct subproc sp;
	int started;
};

static void job_free(struct job *j)
{
	for (size_t i = 0; i < ARRAY_SIZE(j->argv); i++)
		free(j->argv[i]);
	free(j->what);
}

/* Runs jobs at most MAX_PARALLEL at a time; the first failure wins, the rest still finish. */
static int run_jobs(struct job *jobs, size_t n, struct err *e)
{
	int rc = 0;

	for (size_t base = 0; base < n; base += MAX_PARALLEL) {
		size_t end = base + MAX_PARALLEL < n ? base + MAX_PARALLEL : n;

		for (size_t i = base; i < end; i++) {
			struct err se = ERR_INIT;

			if (subproc_start(&jobs[i].sp, jobs[i].argv, NULL, &se) < 0) {
				if (!rc)
					rc = err_set(e, ERR_SYS, "%s: %s", jobs[i].what, se.msg);
				continue;
			}
			jobs[i].started = 1;
		}
		for (size_t i = base; i < end; i++) {
			struct subproc_result r;
			char line[200];

			if (!jobs[i].started)
				continue;
			subproc_result_init(&r);
			subproc_finish(&jobs[i].sp, STEP_TIMEOUT_MS, 16384, &r);
			if ((!r.exited || r.status) && !rc) {
				lab_first_line(&r, line, sizeof(line));
				rc = err_set(e, ERR_SYS, "%s failed: %s", jobs[i].what, line);
			}
			subproc_result_release(&r);
		}
	}
	return rc;
}

static void job_set(struct job *j, const char *what, const char *a0, const char *a1,
		    const char *a2, const char *a3, const char *a4)
{
	const char *a[] = { a0, a1, a2, a3, a4 };

	memset(j, 0, sizeof(*j));
	for (size_t i = 0; i < ARRAY_SIZE(a) && a[i]; i++)
		j->argv[i] = xstrdup(a[i]);
	j->what = xstrdup(what);
}

/* Writes `text` to <dir>/<name> and queues `tool [-n ns] -batch file`. */
static int queue_batch(struct job *jobs, size_t *n, const char *dir, const char *tool,
		       const char *tool_name, const char *ns, const char *ext, const char *text,
		       struct err *e)
{
	char *file = xasprintf("%s/%s.%s", dir, ns ? ns : "netns", ext);
	char *what = ns ? xasprintf("%s -n %s -batch %s", tool_name, ns, file)
			: xasprintf("%s -batch %s", tool_name, file);
	int rc = lab_write_file(file, text, 0644, e);

	if (rc == 0) {
		if (ns)
			job_set(&jobs[(*n)++], what, tool, "-n", ns, "-batch", file);
		else
			job_set(&jobs[(*n)++], what, tool, "-batch", file, NULL, NULL);
	}
	free(what);
	free(file);
	return rc;
}

static int run_batches(struct job *jobs, size_t n, struct err *e)
{
	int rc = run_jobs(jobs, n, e);

	for (size_t i = 0; i < n; i++)
		job_free(&jobs[i]);
	return rc;
}

static int mkdir_one(const char *path, struct err *e)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return err_sys(e, "cannot create '%s'", path);
	return 0;
}

/* iptables rules, one process each (a handful per node), inside the namespace. */
static int apply_iptables(const struct lab_plan *p, const char *iptables, struct err *e)
{
	for (size_t i = 0; i < p->nns; i++) {
		char *rules = xstrdup(p->ns[i].ipt.buf), *save = NULL;
		int rc = 0;

		for (char *l = strtok_r(rules, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
			char *argv[32], *copy = xstrdup(l), *s2 = NULL;
			size_t n = 0;
			struct subproc_result r;
			char line[200];

			argv[n++] = (char *)iptables;
			argv[n++] = (char *)"-w";
			argv[n++] = (char *)"10";
			for (char *w = strtok_r(copy, " ", &s2); w && n < ARRAY_SIZE(argv) - 1;
			     w = strtok_r(NULL, " ", &s2))
				argv[n++] = w;
			argv[n] = NULL;
			subproc_result_init(&r);
			if (lab_run_in_netns(p->ns[i].name, argv, STEP_TIMEOUT_MS, &r, e) < 0) {
				rc = -1;
			} else if (!r.exited || r.status) {
				lab_first_line(&r, line, sizeof(line));
				rc = err_set(e, ERR_SYS, "iptables %s in '%s' failed: %s", l,
					     p->ns[i].name, line);
			}
			subproc_result_release(&r);
			free(copy);
		}
		free(rules);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * /etc/netns/<node>/: `ip netns exec` bind-mounts each file over /etc/<file>, but only files that
 * exist in /etc (a missing target makes it warn), so hostname and resolv.conf follow the host.
 */
static int write_etc(const struct lab_plan *p, struct err *e)
{
	if (mkdir_one(LAB_ETC_NETNS_DIR, e) < 0)
		return -1;
	for (int i = 0; i < p->nnodes; i++) {
		const char *ns = p->ns[p->node[i].ns].name;
		char *dir = xasprintf("%s/%s", LAB_ETC_NETNS_DIR, ns), *f;
		int rc = mkdir_one(dir, e);

		if (rc == 0) {
			f = xasprintf("%s/hosts", dir);
			rc = lab_write_file(f, p->node[i].hosts.buf, 0644, e);
			free(f);
		}
		if (rc == 0 && file_exists("/etc/hostname")) {
			char *text = xasprintf("%s\n", ns);
			f = xasprintf("%s/hostname", dir);
			rc = lab_write_file(f, text, 0644, e);
			free(f);
			free(text);
		}
		/* no DNS server in the lab: a name missing from hosts fails at once, not after 5 s */
		if (rc == 0 && file_exists("/etc/resolv.conf")) {
			f = xasprintf("%s/resolv.conf", dir);
			rc = lab_write_file(f, "# ncclcheck lab: no DNS server; names come from /etc/hosts\n"
					    "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n",
					    0644, e);
			free(f);
		}
		free(dir);
		if (rc)
			return -1;
	}
	return 0;
}

static int write_env(const struct lab_plan *p, const char *dir, struct err *e)
{
	for (int i = 0; i < p->nnodes; i++) {
		char *f = xasprintf("%s/%s.env", dir, p->node[i].name);
		int rc = lab_write_file(f, p->node[i].env.buf, 0644, e);

		free(f);
		if (rc)
			return -1;
	}
	return 0;
}

static int cancelled(const struct lab_up_opts *o, struct err *e)
{
	if (o->cancel && *o->cancel)
		return err_set(e, ERR_TIMEOUT, "interrupted");
	return 0;
}

/* The steps, in order; each one's failure leaves the cleanup to the caller. */
static int build(const struct lab_up_opts *o, const struct lab_tools *t,
		 const struct lab_plan *p, const char *dir, struct err *e)
{
	struct job *jobs = xcalloc(p->nns * 2 + 1, sizeof(*jobs));
	struct lab_sysctl_job *sj = xcalloc(p->nns, sizeof(*sj));
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, ns = 0;
	int rc = -1;

	/* 1. every namespace, from one ip process */
	for (size_t i = 0; i < p->nns; i++)
		strbuf_addf(&sb, "netns add %s\n", p->ns[i].name);
	if (queue_batch(jobs, &n, dir, t->ip, "ip", NULL, "ip", sb.buf, e) < 0 ||
	    run_batches(jobs, n, e) < 0 || cancelled(o, e) < 0)
		goto out;

	/* 2. sysctls before any link exists: routers' rp_filter defaults apply to new links */
	for (size_t i = 0; i < p->nns; i++)
		if (p->ns[i].sysctl.len)
			sj[ns++] = (struct lab_sysctl_job){ p->ns[i].name, p->ns[i].sysctl.buf };
	if (lab_sysctls_apply(sj, ns, e) < 0 || cancelled(o, e) < 0)
		goto out;

	/* 3. the hub creates every veth pair; 4. every namespace configures its ends */
	for (int phase = LAB_PHASE_CREATE; phase <= LAB_PHASE_CONFIG; phase++) {
		n = 0;
		for (size_t i = 0; i < p->nns; i++)
			if ((int)p->ns[i].phase == phase && p->ns[i].ip.len &&
			    queue_batch(jobs, &n, dir, t->ip, "ip", p->ns[i].name, "ip",
					p->ns[i].ip.buf, e) < 0) {
				run_batches(jobs, n, NULL);
				goto out;
			}
		if (run_batches(jobs, n, e) < 0 || cancelled(o, e) < 0)
			goto out;
	}

	/* 5. the faults: tc and iptables */
	n = 0;
	for (size_t i = 0; i < p->nns; i++)
		if (p->ns[i].tc.len &&
		    queue_batch(jobs, &n, dir, t->tc, "tc", p->ns[i].name, "tc", p->ns[i].tc.buf,
				e) < 0) {
			run_batches(jobs, n, NULL);
			goto out;
		}
	if (run_batches(jobs, n, e) < 0 || cancelled(o, e) < 0)
		goto out;
	if (apply_iptables(p, t->iptables, e) < 0 || cancelled(o, e) < 0)
		goto out;

	/* 6. names and the launch environment */
	if (write_etc(p, e) < 0 || write_env(p, dir, e) < 0)
		goto out;
	rc = 0;
out:
	strbuf_release(&sb);
	free(sj);
	free(jobs);
	return rc;
}

/*
 * What every node's launch environment adds beyond torchrun's variables: Open MPI's rsh agent is
 * this binary's `lab rsh`, so `mpirun --host <prefix>-n0,<prefix>-n1` starts its daemons inside
 * the right nodes (mpirun runs as root in the lab, which Open MPI refuses unless told twice);
 * with --slurm, where the lab's slurm.conf is.
 */
static void add_launcher_env(struct lab_plan *p, const struct lab_up_opts *o)
{
	char exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	for (int i = 0; i < p->nnodes; i++) {
		struct strbuf *env = &p->node[i].env;

		if (n > 0)
			strbuf_addf(env, "OMPI_MCA_plm_rsh_agent=%s lab rsh --prefix %s\n", exe,
				    p->prefix);
		strbuf_addstr(env, "OMPI_ALLOW_RUN_AS_ROOT=1\nOMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1\n");
		if (o->slurm)
			strbuf_addf(env, "SLURM_CONF=%s/%s/slurm.conf\n", LAB_SLURM_ROOT, p->prefix);
	}
}

int lab_up(const struct lab_up_opts *o, const struct lab_tools *t, struct err *e)
{
	struct lab_plan *p = lab_plan_new(o->prefix, o->nodes, o->sc, o->docker0, o->priv_names, e);
	char *dir = NULL, when[32];
	json_t *state = NULL;
	struct lab_group group = { 0 };
	int64_t t0 = time_now_ms();
	int rc = -1;

	if (!p)
		return -1;
	if (o->slurm) {
		struct lab_slurm_tools st;

		if (lab_slurm_tools_find(&st, e) < 0)
			goto out;
	}
	add_launcher_env(p, o);
	if (((p->flags & LAB_NEEDS_TC) && !t->tc[0]) ||
	    ((p->flags & LAB_NEEDS_IPTABLES) && !t->iptables[0])) {
		err_set(e, ERR_INTERNAL, "scenario '%s' needs tools that were not looked up",
			o->sc->name);
		goto out;
	}
	if (lab_exists(o->prefix)) {
		struct lab_down_result dr;

		if (!o->force) {
			err_set(e, ERR_USAGE,
				"lab '%s' already exists; remove it with 'ncclcheck lab down --prefix "
				"%s' or rebuild it with --force", o->prefix, o->prefix);
			goto out;
		}
		if (lab_down(o->prefix, t->ip, &dr, e) < 0)
			goto out;
	}
	if (mkdir_one("/run/ncclcheck", e) < 0 || mkdir_one(LAB_STATE_ROOT, e) < 0)
		goto out;
	dir = lab_state_dir(o->prefix);
	if (mkdir(dir, 0755) < 0) {
		/* another `lab up` of the same prefix got here first */
		err_sys(e, "cannot create '%s'", dir);
		goto out;
	}

	state = lab_plan_to_json(p);
	{
		long from, to;

		if (lab_host_neigh_fit(p->nnodes, &from, &to, e) < 0)
			goto out;
		if (to != from)
			json_object_set_new(state, "host_change", json_sprintf(
				"raised the host's net.ipv4.neigh.default.gc_thresh3 from %ld to %ld: "
				"the nodes' ARP entries share the host kernel's one table, and past it "
				"new neighbours are dropped (SYNs time out)", from, to));
	}
	time_iso8601(when, sizeof(when));
	jset_str(state, "status", "building");
	jset_int(state, "pid", (long long)getpid());
	{
		struct lab_proc self;

		if (lab_proc_read((long)getpid(), &self) == 0)
			jset_int(state, "pid_start", (long long)self.start);
	}
	/* before anything is built: `lab down` finds this build's children by the group's id */
	if (lab_group_start(&group, e) < 0)
		goto cleanup;
	jset_int(state, "pgid", group.pgid);
	jset_int(state, "pgid_start", (long long)group.start);
	jset_str(state, "created", when);
	jset_str(state, "iptables", t->iptables[0] ? t->iptables : NULL);
	jset_bool(state, "slurm", o->slurm);
	if (lab_state_save(o->prefix, state, e) < 0 || cancelled(o, e) < 0 ||
	    build(o, t, p, dir, e) < 0 ||
	    (o->slurm && lab_slurm_up(p, t, o->task_prolog, o->cancel, e) < 0) ||
	    cancelled(o, e) < 0)
		goto cleanup;
	jset_str(state, "status", "up");
	jset_int(state, "build_ms", (long long)(time_now_ms() - t0));
	if (lab_state_save(o->prefix, state, e) < 0)
		goto cleanup;
	rc = 0;
	goto out;
cleanup: {
		struct lab_down_result dr;
		lab_down(o->prefix, t->ip, &dr, NULL);
	}
out:
	lab_group_finish(&group);
	json_decref(state);
	free(dir);
	lab_plan_free(p);
	return rc;
}
