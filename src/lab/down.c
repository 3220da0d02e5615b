/*
 * lab down: finds a lab by its prefix alone — namespaces in /run/netns, links in the root
 * namespace, /etc/netns directories, the state directory — so it works after `up` was killed
 * half-way, and removes only names that match the lab's own patterns.
 */
#include "lab/lab.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/plan.h"
#include "lab/sys.h"
#include "util/file.h"
#include "util/json.h"
#include "util/subproc.h"
#include "util/xalloc.h"

/* how long `down` waits for the processes it SIGKILLed to be gone */
#define KILL_WAIT_MS 10000

/* The lab's network namespaces as stat() shows their files; in_namespaces tests a process. */
struct ns_ids {
	struct stat *v;
	size_t n;
};

static int in_namespaces(const struct lab_proc *p, void *ctx)
{
	const struct ns_ids *ids = ctx;
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%ld/ns/net", p->pid);
	if (stat(path, &st) < 0)
		return 0;
	for (size_t i = 0; i < ids->n; i++)
		if (ids->v[i].st_dev == st.st_dev && ids->v[i].st_ino == st.st_ino)
			return 1;
	return 0;
}

/*
 * A process left inside (a listener started with `lab exec`, the Slurm daemons) keeps its
 * namespace, and with it the veth pairs, alive after the name is gone: end those processes
 * first, and scan again until none runs (a daemon may fork between two scans), so that `down`
 * returns only after they have exited. Returns how many there were.
 */
static int kill_inside(const struct lab_names *nss)
{
	struct ns_ids ids = { .v = xcalloc(nss->n + 1, sizeof(*ids.v)) };
	int killed = 0;

	for (size_t i = 0; i < nss->n; i++) {
		char *path = xasprintf("%s/%s", LAB_NETNS_DIR, nss->v[i]);

		if (stat(path, &ids.v[ids.n]) == 0)
			ids.n++;
		free(path);
	}
	if (ids.n)
		killed = lab_kill_all(in_namespaces, &ids, KILL_WAIT_MS);
	free(ids.v);
	return killed;
}

/*
 * A `lab up` that still runs or was killed half-way: its children (the `ip -batch` builders)
 * go on creating namespaces for a while. End `up` and every member of its process group
 * (group.c) and wait until none of them runs, before anything is listed. Not from inside `up`
 * itself (its clean-up): it has reaped its children already.
 */
static int end_builder(const char *prefix)
{
	json_t *st = lab_state_load(prefix, NULL);
	long up;
	unsigned long long up_start;
	int n = 0;

	if (!st)
		return 0;
	up = (long)jpath_int(st, "pid", 0);
	up_start = (unsigned long long)jpath_int(st, "pid_start", 0);
	if (up != (long)getpid()) {
		/* only the very process that wrote the state: a pid alone may be another's now */
		if (up_start)
			n += lab_proc_end(up, up_start, 0, KILL_WAIT_MS);
		n += lab_group_end((long)jpath_int(st, "pgid", 0),
				   (unsigned long long)jpath_int(st, "pgid_start", 0), KILL_WAIT_MS);
	}
	json_decref(st);
	return n;
}

/* What `ip netns del` does: detach the namespace's bind mount and remove the name. */
static int netns_delete(const char *name, struct err *e)
{
	char *path = xasprintf("%s/%s", LAB_NETNS_DIR, name);
	int rc = 0;

	if (umount2(path, MNT_DETACH) < 0 && errno != EINVAL && errno != ENOENT)
		rc = err_sys(e, "cannot unmount '%s'", path);
	else if (unlink(path) < 0 && errno != ENOENT)
		rc = err_sys(e, "cannot remove '%s'", path);
	free(path);
	return rc;
}

static int link_delete(const char *ip, const char *name, struct err *e)
{
	char *argv[] = { (char *)ip, (char *)"link", (char *)"del", (char *)name, NULL };
	struct subproc_result r;
	char line[200];
	int rc = 0;

	if (!ip)
		return err_set(e, ERR_NOTFOUND,
			       "link '%s' is left in the root namespace and 'ip' is not on PATH", name);
	subproc_result_init(&r);
	if (subproc_run(argv, NULL, 10000, 4096, &r, e) < 0) {
		rc = -1;
	} else if (!r.exited || r.status) {
		lab_first_line(&r, line, sizeof(line));
		rc = err_set(e, ERR_SYS, "ip link del %s failed: %s", name, line);
	}
	subproc_result_release(&r);
	return rc;
}

/* Only the files `up` writes; a directory someone else filled is left alone. */
static int etc_delete(const char *name)
{
	static const char *const files[] = { "hosts", "hostname", "resolv.conf" };
	char *dir = xasprintf("%s/%s", LAB_ETC_NETNS_DIR, name);
	int rc;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *f = xasprintf("%s/%s", dir, files[i]);
		unlink(f);
		free(f);
	}
	rc = rmdir(dir) == 0 || errno == ENOENT ? 0 : -1;
	free(dir);
	return rc;
}

static int state_delete(const char *prefix, struct err *e)
{
	char *dir = lab_state_dir(prefix);
	struct lab_names files = { 0 };
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		free(dir);
		return errno == ENOENT ? 0 : err_sys(e, "cannot list '%s'", LAB_STATE_ROOT);
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			lab_names_add(&files, de->d_name);
	closedir(d);
	for (size_t i = 0; i < files.n; i++) {
		char *f = xasprintf("%s/%s", dir, files.v[i]);
		unlink(f);
		free(f);
	}
	if (rmdir(dir) < 0 && errno != ENOENT)
		rc = err_sys(e, "cannot remove '%s'", dir);
	else
		rc = 1;
	lab_names_free(&files);
	free(dir);
	return rc;
}

static void lab_names_filter(struct lab_names *all, const char *prefix, struct lab_names *out)
{
	for (size_t i = 0; i < all->n; i++)
		if (lab_ns_matches(prefix, all->v[i], NULL))
			lab_names_add(out, all->v[i]);
}

int lab_exists(const char *prefix)
{
	struct lab_names all = { 0 }, mine = { 0 };
	char *dir = lab_state_dir(prefix);
	int found = file_is_dir(dir);

	if (!found && lab_netns_list(&all, NULL) == 0) {
		lab_names_filter(&all, prefix, &mine);
		found = mine.n > 0;
	}
	lab_names_free(&all);
	lab_names_free(&mine);
	free(dir);
	return found;
}

int lab_down(const char *prefix, const char *ip, struct lab_down_result *r, struct err *e)
{
	struct lab_names all = { 0 }, mine = { 0 }, links = { 0 }, etc = { 0 };
	int rc = 0, st;

	memset(r, 0, sizeof(*r));
	if (lab_prefix_check(prefix, e) < 0)
		return -1;
	r->builders = end_builder(prefix);
	if (lab_netns_list(&all, e) < 0)
		return -1;
	lab_names_filter(&all, prefix, &mine);

	r->processes = kill_inside(&mine);
	r->slurm = lab_slurm_down(prefix);
	for (size_t i = 0; i < mine.n; i++) {
		if (netns_delete(mine.v[i], e) < 0)
			rc = -1;
		else
			r->namespaces++;
	}

	/* the builder never creates links here; anything matching leaked from a crash or by hand */
	if (lab_links_list(&links, NULL) == 0)
		for (size_t i = 0; i < links.n; i++)
			if (lab_link_matches(prefix, links.v[i])) {
				if (link_delete(ip, links.v[i], e) < 0)
					rc = -1;
				else
					r->links++;
			}

	if (lab_etc_list(&etc) == 0)
		for (size_t i = 0; i < etc.n; i++)
			if (lab_ns_matches(prefix, etc.v[i], NULL) && etc_delete(etc.v[i]) == 0)
				r->etc_dirs++;

	/* last, so that a failed `down` still shows up in `status` */
	if (rc == 0) {
		st = state_delete(prefix, e);
		if (st < 0)
			rc = -1;
		r->state = st > 0;
	}
	lab_names_free(&all);
	lab_names_free(&mine);
	lab_names_free(&links);
	lab_names_free(&etc);
	return rc;
}

json_t *lab_down_json(const char *prefix, const struct lab_down_result *r)
{
	json_t *p = json_object(), *rm = jobj_child(p, "removed");

	jset_str(p, "prefix", prefix);
	jset_int(rm, "namespaces", r->namespaces);
	jset_int(rm, "processes", r->processes);
	jset_int(rm, "builders", r->builders);
	jset_int(rm, "links", r->links);
	jset_int(rm, "etc_netns_dirs", r->etc_dirs);
	jset_bool(rm, "state", r->state);
	jset_bool(rm, "slurm", r->slurm);
	return p;
}
