/* Host facts: OS, kernel, hostname, container runtime, CPUs and NUMA nodes. */
#include "probe/probe.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* os-release values may be quoted; returns the value of KEY without quotes. */
static int os_release_get(const char *text, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1, *end = strchr(v, '\n');
			size_t n = end ? (size_t)(end - v) : strlen(v);
			if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
				v++;
				n -= 2;
			}
			snprintf(out, len, "%.*s", (int)n, v);
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static void probe_os(const struct probe_ctx *ctx, json_t *host)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = probe_etc_path(ctx, "os-release");
	json_t *os = json_object();
	char v[256];

	if (file_read(path, &sb, 64 * 1024, NULL) == 0) {
		if (!os_release_get(sb.buf, "PRETTY_NAME", v, sizeof(v)))
			jset_str(os, "pretty_name", v);
		if (!os_release_get(sb.buf, "ID", v, sizeof(v)))
			jset_str(os, "id", v);
		if (!os_release_get(sb.buf, "VERSION_ID", v, sizeof(v)))
			jset_str(os, "version_id", v);
		jset_str(os, "source", path);
		json_object_set_new(host, "os", os);
	} else {
		json_decref(os);
		jset_unknown(host, "os", "'%s' is not readable", path);
	}
	free(path);
	strbuf_release(&sb);
}

/*
 * Whether this process's network is the container's own: "container" when its network
 * namespace is PID 1's (a runtime puts the container's processes in the one it built: a bridge,
 * a pod network, the host's), "nested" when it is another one made inside the container (ip
 * netns, a lab node: the runtime's markers then say nothing about these interfaces).
 */
static void probe_netns(const struct probe_ctx *ctx, json_t *c)
{
	/* ns/net names the namespace, but PID 1 may refuse it (ptrace rules: a PID 1 with more
	 * capabilities than this process); each namespace has its own proc entry for net/dev */
	static const char *const pairs[][2] = { { "1/ns/net", "self/ns/net" },
						{ "1/net/dev", "self/net/dev" } };
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		char *init = probe_proc_path(ctx, pairs[i][0]);
		char *self = probe_proc_path(ctx, pairs[i][1]);
		struct stat a, b;
		int ok = stat(init, &a) == 0 && stat(self, &b) == 0;

		if (!ok)
			strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", pairs[i][0],
				    err_errno_text(errno));
		free(init);
		free(self);
		if (ok) {
			jset_str(c, "netns", a.st_dev == b.st_dev && a.st_ino == b.st_ino
						     ? "container" : "nested");
			strbuf_release(&why);
			return;
		}
	}
	jset_unknown(c, "netns", "cannot compare with PID 1's network namespace (%s)", why.buf);
	strbuf_release(&why);
}

/*
 * Docker leaves /.dockerenv; Podman /run/.containerenv; Kubernetes injects KUBERNETES_SERVICE_HOST
 * into every pod; cgroup paths name the runtime in most other cases.
 */
static void probe_container(const struct probe_ctx *ctx, json_t *host)
{
	json_t *c = json_object();
	struct strbuf cg = STRBUF_INIT;
	char *cgpath = probe_proc_path(ctx, "1/cgroup");
	const char *kind = "none", *evidence = "no container markers found";

	file_read(cgpath, &cg, 64 * 1024, NULL);
	if (envmap_get(ctx->env, "KUBERNETES_SERVICE_HOST")) {
		kind = "kubernetes";
		evidence = "KUBERNETES_SERVICE_HOST is set";
	} else if (strstr(cg.buf, "kubepods")) {
		kind = "kubernetes";
		evidence = "cgroup path contains 'kubepods'";
	} else if (strcmp(ctx->root_sys, "/") == 0 && file_exists("/.dockerenv")) {
		kind = "docker";
		evidence = "/.dockerenv exists";
	} else if (strstr(cg.buf, "docker")) {
		kind = "docker";
		evidence = "cgroup path contains 'docker'";
	} else if (strcmp(ctx->root_sys, "/") == 0 && file_exists("/run/.containerenv")) {
		kind = "podman";
		evidence = "/run/.containerenv exists";
	} else if (strstr(cg.buf, "lxc") || strstr(cg.buf, "containerd") || strstr(cg.buf, "libpod")) {
		kind = "other";
		evidence = "cgroup path names a container runtime";
	} else if (envmap_get(ctx->env, "container")) {
		kind = "other";
		evidence = "the 'container' variable is set";
	}
	jset_str(c, "kind", kind);
	jset_str(c, "evidence", evidence);
	if (strcmp(kind, "none"))
		probe_netns(ctx, c);
	json_object_set_new(host, "container", c);
	free(cgpath);
	strbuf_release(&cg);
}

/* Counts the CPUs or nodes in a sysfs list such as "0-63,128-191". */
static long count_list(const char *s)
{
	long n = 0;

	while (*s && !isspace((unsigned char)*s)) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b >= a)
			n += b - a + 1;
		s = end;
		if (*s == ',')
			s++;
	}
	return n;
}

static void probe_cpus(const struct probe_ctx *ctx, json_t *host)
{
	char line[4096];
	char *cpu = probe_sys_path(ctx, "devices/system/cpu/online");
	char *node = probe_sys_path(ctx, "devices/system/node/online");
	long n;

	if (!file_read_line(cpu, line, sizeof(line)) && (n = count_list(line)) > 0)
		jset_int(host, "cpus", n);
	else
		jset_unknown(host, "cpus", "'%s' is not readable", cpu);
	/* Kernels built without NUMA have no node directory: that is one node, not "unknown". */
	if (!file_read_line(node, line, sizeof(line)) && (n = count_list(line)) > 0)
		jset_int(host, "numa_nodes", n);
	else
		jset_int(host, "numa_nodes", 1);
	free(cpu);
	free(node);
}

void probe_host(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *host = jobj_child(facts, "host");
	struct utsname u;
	char name[256];

	if (gethostname(name, sizeof(name)) == 0) {
		name[sizeof(name) - 1] = '\0';
		jset_str(host, "hostname", name);
	} else {
		jset_unknown(host, "hostname", "gethostname failed");
	}
	if (uname(&u) == 0) {
		jset_str(host, "kernel", u.release);
		jset_str(host, "arch", u.machine);
	}
	/*
	 * One per running kernel: NCCL hashes it with the host name into its host hash, and nodes
	 * that share it (containers or namespaces on one machine) share that machine's CPUs.
	 */
	{
		char *p = probe_proc_path(ctx, "sys/kernel/random/boot_id");
		char id[64];

		if (file_read_line(p, id, sizeof(id)) == 0 && id[0])
			jset_str(host, "boot_id", id);
		else
			jset_unknown(host, "boot_id", "cannot read '%s'", p);
		free(p);
	}
	/*
	 * A terminal on stdin means a person's shell: rank variables exported there leak into every
	 * program started from it (Lightning then believes a launcher started the ranks).
	 */
	jset_bool(host, "interactive", isatty(STDIN_FILENO));
	probe_os(ctx, host);
	probe_container(ctx, host);
	probe_cpus(ctx, host);
}
