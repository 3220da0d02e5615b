/*
 * lab exec: a command on a lab node as if it ran on that VM — its namespace, its /etc/hosts (via
 * `ip netns exec`, which also remounts /sys for the namespace), its own hostname (a private UTS
 * namespace) and the launch environment a torchrun user would have exported there.
 */
#include "lab/lab.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/plan.h"
#include "lab/sys.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int set_one(void *arg, const char *name, const char *value)
{
	(void)arg;
	return setenv(name, value, 1);
}

static int load_env(const char *prefix, const char *role, struct err *e)
{
	char *dir = lab_state_dir(prefix), *path = xasprintf("%s/%s.env", dir, role);
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;

	if (!file_exists(path))
		err_set(e, ERR_NOTFOUND,
			"node '%s' of lab '%s' has no launch environment ('%s' is missing); "
			"rebuild the lab with 'ncclcheck lab up --force'", role, prefix, path);
	else if (file_read(path, &sb, 1 << 16, e) == 0 &&
		 lab_env_parse(sb.buf, sb.len, set_one, NULL, e) == 0)
		rc = 0;
	else
		err_prefix(e, "'%s'", path);
	strbuf_release(&sb);
	free(path);
	free(dir);
	return rc;
}

/* The running binary's path, or NULL when /proc does not say. */
static char *self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0 || n >= (ssize_t)sizeof(buf) - 1)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

int lab_exec(const char *netns, const char *ip, char *const argv[], struct err *e)
{
	const char *dash = strrchr(netns, '-'), *role;
	char prefix[LAB_PREFIX_MAX + 1];
	size_t argc = 0;
	char **nargv, *self = NULL;

	if (!dash || (size_t)(dash - netns) > LAB_PREFIX_MAX)
		return err_set(e, ERR_USAGE, "'%s' is not a lab namespace", netns);
	memcpy(prefix, netns, (size_t)(dash - netns));
	prefix[dash - netns] = '\0';
	if (!lab_ns_matches(prefix, netns, &role))
		return err_set(e, ERR_USAGE, "'%s' is not a lab namespace", netns);

	if (role[0] == 'n') {
		if (load_env(prefix, role, e) < 0)
			return -1;
		/* hostname is per UTS namespace, not per network namespace: give the node its own */
		if (unshare(CLONE_NEWUTS) < 0)
			return err_sys(e, "cannot create a UTS namespace for '%s'", netns);
		if (sethostname(netns, strlen(netns)) < 0)
			return err_sys(e, "cannot set the hostname '%s'", netns);
	}

	while (argv[argc])
		argc++;
	nargv = xcalloc(argc + 5, sizeof(*nargv));
	nargv[0] = (char *)ip;
	nargv[1] = (char *)"netns";
	nargv[2] = (char *)"exec";
	nargv[3] = (char *)netns;
	memcpy(nargv + 4, argv, argc * sizeof(*argv));
	/* 'lab exec n1 -- ncclcheck ...' means this ncclcheck (a wheel's, a build tree's), also when
	 * none is on PATH or PATH has another version */
	if (argc && !strcmp(argv[0], "ncclcheck") && (self = self_exe()))
		nargv[4] = self;
	execv(ip, nargv);
	err_sys(e, "cannot run '%s'", ip);
	free(self);
	free(nargv);
	return -1;
}
