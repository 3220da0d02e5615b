/*
 * lab down: finds a lab by its prefix alone — namespaces in /run/netns, links in the root
 * namespace, /etc/netns directories, the state directory — so it works after `up` was killed
 * half-way, and removes only names that match the lab's own patterns.
 */
#include "lab/lab.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
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

struct ns_id {
	dev_t dev;
	ino_t ino;
};

static int matches_any(const struct ns_id *ids, size_t n, const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i].dev == st->st_dev && ids[i].ino == st->st_ino)
			return 1;
	return 0;
}

/* Signals every process whose network namespace is one of `ids`; returns how many. */
static int signal_inside(const struct ns_id *ids, size_t n, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int count = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[64];
		struct stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 1 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/ns/net", pid);
		if (stat(path, &st) == 0 && matches_any(ids, n, &st)) {
			kill((pid_t)pid, sig);
			count++;
		}
	}
	closedir(d);
	return count;
}

/*
 * A process left inside (a listener started with `lab exec`) keeps its namespace, and with it
 * the veth pairs, alive after the name is gone: end those processes first.
 */
static int kill_inside(const struct lab_names *nss)
{
	struct ns_id *ids = xcalloc(nss->n + 1, sizeof(*ids));
	size_t n = 0;
	int killed;

	for (size_t i = 0; i < nss->n; i++) {
		char *path = xasprintf("%s/%s", LAB_NETNS_DIR, nss->v[i]);
		struct stat st;

		if (stat(path, &st) == 0) {
			ids[n].dev = st.st_dev;
			ids[n].ino = st.st_ino;
			n++;
		}
		free(path);
	}
	killed = n ? signal_inside(ids, n, SIGKILL) : 0;
	for (int tries = 0; killed && tries < 200 && signal_inside(ids, n, 0); tries++)
		usleep(10000);
	free(ids);
	return killed;
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
	jset_int(rm, "links", r->links);
	jset_int(rm, "etc_netns_dirs", r->etc_dirs);
	jset_bool(rm, "state", r->state);
	jset_bool(rm, "slurm", r->slurm);
	return p;
}
