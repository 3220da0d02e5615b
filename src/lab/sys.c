/*
 * Lab plumbing: privileges, finding ip/tc/iptables, listing namespaces and links, running a tool
 * inside a namespace, sysctls, and the state directory. See sys.h and lab.h.
 */
#include "lab/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/lab.h"
#include "util/file.h"
#include "util/xalloc.h"

void lab_names_add(struct lab_names *l, const char *s)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(s);
}

void lab_names_free(struct lab_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

static int list_dir(const char *dir, struct lab_names *out, struct err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		if (errno == ENOENT)
			return 0;
		return err_sys(e, "cannot list '%s'", dir);
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			lab_names_add(out, de->d_name);
	closedir(d);
	return 0;
}

int lab_netns_list(struct lab_names *out, struct err *e)
{
	return list_dir(LAB_NETNS_DIR, out, e);
}

int lab_state_list(struct lab_names *out)
{
	return list_dir(LAB_STATE_ROOT, out, NULL);
}

int lab_etc_list(struct lab_names *out)
{
	return list_dir(LAB_ETC_NETNS_DIR, out, NULL);
}

int lab_links_list(struct lab_names *out, struct err *e)
{
	return list_dir("/sys/class/net", out, e);
}

/* CapEff from /proc/self/status: a hex mask. */
static int cap_effective(unsigned long long *mask)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int rc = -1;

	if (file_read("/proc/self/status", &sb, 1 << 16, NULL) == 0 &&
	    (p = strstr(sb.buf, "\nCapEff:")) != NULL) {
		*mask = strtoull(p + 8, NULL, 16);
		rc = 0;
	}
	strbuf_release(&sb);
	return rc;
}

int lab_check_privileges(int *not_root, struct err *e)
{
	unsigned long long caps = 0;
	const unsigned long long need = (1ull << 12) | (1ull << 21); /* NET_ADMIN, SYS_ADMIN */

	*not_root = geteuid() != 0;
	if (*not_root)
		return err_set(e, ERR_USAGE, "the lab needs root to create network namespaces");
	if (cap_effective(&caps) == 0 && (caps & need) != need)
		return err_set(e, ERR_USAGE,
			       "the lab needs CAP_SYS_ADMIN and CAP_NET_ADMIN, which this root "
			       "process lacks (a container without --privileged?)");
	return 0;
}

/* Looks `name` up on PATH like execvp would. */
int lab_which(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");

	if (!path || !*path)
		return -1;
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);

		if (n) {
			snprintf(out, len, "%.*s/%s", (int)n, path, name);
			if (access(out, X_OK) == 0 && !file_is_dir(out))
				return 0;
		}
		path += n + (colon ? 1 : 0);
	}
	return -1;
}

int lab_tools_find(unsigned needs, struct lab_tools *t, struct err *e)
{
	memset(t, 0, sizeof(*t));
	if (lab_which("ip", t->ip, sizeof(t->ip)) < 0)
		return err_set(e, ERR_NOTFOUND,
			       "'ip' (iproute2) is not on PATH; install it: apt-get install iproute2 "
			       "iptables");
	if ((needs & LAB_NEEDS_TC) && lab_which("tc", t->tc, sizeof(t->tc)) < 0)
		return err_set(e, ERR_NOTFOUND,
			       "'tc' (iproute2) is not on PATH; install it: apt-get install iproute2");
	/*
	 * The machine's own iptables first, whichever backend it uses (nft on Debian 12): the
	 * lab's rules then show in `iptables -S` / `iptables-save` inside a node exactly like a
	 * host firewall would, for the user and for the firewall probe. Both backends keep their
	 * tables per network namespace, so the host's ruleset is never touched.
	 */
	if ((needs & LAB_NEEDS_IPTABLES) &&
	    lab_which("iptables", t->iptables, sizeof(t->iptables)) < 0 &&
	    lab_which("iptables-legacy", t->iptables, sizeof(t->iptables)) < 0)
		return err_set(e, ERR_NOTFOUND,
			       "'iptables' is not on PATH; install it: apt-get install iptables");
	return 0;
}

struct in_netns {
	const char *netns;
	char *const *argv;
};

static int enter(const char *netns)
{
	char path[512];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", LAB_NETNS_DIR, netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = setns(fd, CLONE_NEWNET);
	close(fd);
	return rc;
}

static int in_netns_child(void *arg, int fd)
{
	const struct in_netns *a = arg;

	/* the tool's stdout is the answer (iptables -S, tc qdisc show); stderr stays the errors */
	if (fd != 1) {
		dup2(fd, 1);
		close(fd);
	}
	if (enter(a->netns) < 0) {
		fprintf(stderr, "cannot enter namespace '%s': %s\n", a->netns, err_errno_text(errno));
		return 126;
	}
	execv(a->argv[0], a->argv);
	fprintf(stderr, "cannot run '%s': %s\n", a->argv[0], err_errno_text(errno));
	return 127;
}

int lab_run_in_netns(const char *netns, char *const argv[], long timeout_ms,
		     struct subproc_result *r, struct err *e)
{
	struct in_netns a = { netns, argv };

	return subproc_fork(in_netns_child, &a, timeout_ms, 8192, r, e);
}

struct sysctl_arg {
	const struct lab_sysctl_job *jobs;
	size_t n;
};

static int write_sysctl(const char *key, const char *val)
{
	char path[512];
	int fd;
	ssize_t w;

	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	w = write(fd, val, strlen(val));
	close(fd);
	return w == (ssize_t)strlen(val) ? 0 : -1;
}

/* One child walks every namespace: setns is cheap, a process per namespace is not. */
static int sysctl_child(void *arg, int fd)
{
	const struct sysctl_arg *a = arg;

	for (size_t i = 0; i < a->n; i++) {
		char *lines = xstrdup(a->jobs[i].lines), *save = NULL;

		if (enter(a->jobs[i].netns) < 0) {
			dprintf(fd, "cannot enter namespace '%s': %s", a->jobs[i].netns,
				err_errno_text(errno));
			return 1;
		}
		for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *eq = strchr(l, '=');

			if (!eq)
				continue;
			*eq = '\0';
			if (write_sysctl(l, eq + 1) < 0) {
				dprintf(fd, "cannot set %s=%s in '%s': %s", l, eq + 1,
					a->jobs[i].netns, err_errno_text(errno));
				return 1;
			}
		}
		free(lines);
	}
	return 0;
}

int lab_sysctls_apply(const struct lab_sysctl_job *jobs, size_t n, struct err *e)
{
	struct sysctl_arg a = { jobs, n };
	struct subproc_result r;
	int rc = 0;

	subproc_result_init(&r);
	if (subproc_fork(sysctl_child, &a, 10000, 4096, &r, e) < 0)
		rc = -1;
	else if (!r.exited || r.status)
		rc = err_set(e, ERR_SYS, "%s", r.out.len ? r.out.buf : "setting sysctls failed");
	subproc_result_release(&r);
	return rc;
}

static int write_long(const char *path, long v, struct err *e)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", v);
	return lab_write_file(path, buf, 0644, e);
}

int lab_host_neigh_fit(int nodes, long *from, long *to, struct err *e)
{
	static const char dir[] = "/proc/sys/net/ipv4/neigh/default";
	char p2[96], p3[96];
	long t2, t3, need = 2L * nodes * nodes + 512;	/* both NICs, every peer, routers, slack */

	snprintf(p2, sizeof(p2), "%s/gc_thresh2", dir);
	snprintf(p3, sizeof(p3), "%s/gc_thresh3", dir);
	*from = *to = 0;
	/* the limits are the initial namespace's: inside a container's network namespace the
	 * kernel shows none and only the host can raise them */
	if (access(dir, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (file_read_long(p3, &t3) < 0 || file_read_long(p2, &t2) < 0)
		return err_set(e, ERR_SYS, "cannot read the host's neighbour table limits in '%s'",
			       dir);
	*from = *to = t3;
	if (t3 >= need)
		return 0;
	/* thresh2 is where the collector starts evicting entries older than 5 s: keep it below */
	if (write_long(p3, need, e) < 0 || (t2 < need * 3 / 4 && write_long(p2, need * 3 / 4, e) < 0)) {
		err_prefix(e, "raising the host's neighbour table limit for %d nodes", nodes);
		return -1;
	}
	*to = need;
	return 0;
}

char *lab_state_dir(const char *prefix)
{
	return xasprintf("%s/%s", LAB_STATE_ROOT, prefix);
}

json_t *lab_state_load(const char *prefix, struct err *e)
{
	char *dir = lab_state_dir(prefix), *path = xasprintf("%s/state.json", dir);
	struct strbuf sb = STRBUF_INIT;
	json_t *st = NULL;

	if (!file_exists(path))
		err_set(e, ERR_NOTFOUND, "lab '%s' has no state file '%s'", prefix, path);
	else if (file_read(path, &sb, 1 << 20, e) == 0)
		st = lab_state_parse(sb.buf, sb.len, e);
	if (!st && e && e->code != ERR_NOTFOUND)
		err_prefix(e, "'%s'", path);
	strbuf_release(&sb);
	free(path);
	free(dir);
	return st;
}

int lab_write_file(const char *path, const char *text, int mode, struct err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen(text), off = 0;

	if (fd < 0)
		return err_sys(e, "cannot write '%s'", path);
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return err_sys(e, "cannot write '%s'", path);
		}
		off += (size_t)w;
	}
	if (close(fd) < 0)
		return err_sys(e, "cannot write '%s'", path);
	return 0;
}

int lab_state_save(const char *prefix, const json_t *state, struct err *e)
{
	char *dir = lab_state_dir(prefix);
	char *tmp = xasprintf("%s/state.json.tmp", dir), *path = xasprintf("%s/state.json", dir);
	char *text = json_dumps(state, JSON_INDENT(2) | JSON_SORT_KEYS);
	int rc = -1;

	if (!text)
		err_set(e, ERR_INTERNAL, "cannot serialise the lab state");
	else if (lab_write_file(tmp, text, 0644, e) == 0) {
		if (rename(tmp, path) < 0)
			err_sys(e, "cannot write '%s'", path);
		else
			rc = 0;
	}
	free(text);
	free(tmp);
	free(path);
	free(dir);
	return rc;
}

void lab_first_line(const struct subproc_result *r, char *buf, size_t len)
{
	const struct strbuf *sb = r->errout.len ? &r->errout : &r->out;
	const char *s = sb->buf;
	size_t n;

	while (*s == ' ' || *s == '\n')
		s++;
	n = strcspn(s, "\n");
	if (!n) {
		if (r->timed_out)
			snprintf(buf, len, "timed out after %ld ms", r->elapsed_ms);
		else if (!r->exited)
			snprintf(buf, len, "killed by signal %d", r->status);
		else
			snprintf(buf, len, "exit status %d", r->status);
		return;
	}
	snprintf(buf, len, "%.*s", (int)n, s);
}
