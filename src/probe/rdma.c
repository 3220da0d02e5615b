/*
 * RDMA facts: devices and ports from /sys/class/infiniband (state, rate, IB or RoCE), whether
 * libibverbs loads and sees the same devices (NCCL dlopens it; without it NCCL silently uses
 * TCP sockets), and whether GPUDirect RDMA's kernel module is loaded. libibverbs and its provider
 * plugins run in a forked child: a broken provider must not take the tool down.
 */
#include "probe/probe.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/dl.h"
#include "util/err.h"
#include "util/file.h"
#include "util/json.h"
#include "util/subproc.h"
#include "util/xalloc.h"

#define VERBS_TIMEOUT_MS 5000

static void read_str(const char *dir, const char *name, json_t *obj, const char *key)
{
	char *p = path_join(dir, name), buf[128];

	if (file_read_line(p, buf, sizeof(buf)) == 0)
		jset_str(obj, key, buf);
	free(p);
}

/* "4: ACTIVE" -> "ACTIVE" */
static void read_state(const char *dir, const char *name, json_t *obj, const char *key)
{
	char *p = path_join(dir, name), buf[128];

	if (file_read_line(p, buf, sizeof(buf)) == 0) {
		const char *c = strchr(buf, ':');
		jset_str(obj, key, c ? c + 1 + strspn(c + 1, " ") : buf);
	}
	free(p);
}

static json_t *list_dir(const char *path)
{
	json_t *names = json_array();
	struct dirent *d;
	DIR *dir = opendir(path);

	if (!dir)
		return names;
	while ((d = readdir(dir)) != NULL)
		if (d->d_name[0] != '.')
			json_array_append_new(names, json_string(d->d_name));
	closedir(dir);
	return names;
}

static json_t *device_facts(const char *root, const char *name)
{
	char *dir = path_join(root, name), *pdir = path_join(dir, "ports"), *ndir;
	json_t *dev = json_object(), *ports = json_array(), *pnames = list_dir(pdir), *pn;
	size_t i;

	jset_str(dev, "name", name);
	read_str(dir, "node_type", dev, "node_type");
	read_str(dir, "fw_ver", dev, "fw_ver");
	json_array_foreach(pnames, i, pn) {
		char *port = path_join(pdir, json_string_value(pn));
		json_t *p = json_object();
		char *end;
		long num = strtol(json_string_value(pn), &end, 10);

		jset_int(p, "port", *end ? -1 : num);
		read_state(port, "state", p, "state");
		read_state(port, "phys_state", p, "phys_state");
		read_str(port, "rate", p, "rate");
		read_str(port, "link_layer", p, "link_layer");
		json_array_append_new(ports, p);
		free(port);
	}
	json_decref(pnames);
	json_object_set_new(dev, "ports", ports);
	ndir = path_join(dir, "device/net");
	json_object_set_new(dev, "netdevs", list_dir(ndir));
	free(ndir);
	free(pdir);
	free(dir);
	return dev;
}

struct ibv_device;
typedef struct ibv_device **(*get_list_fn)(int *);
typedef void (*free_list_fn)(struct ibv_device **);
typedef const char *(*get_name_fn)(struct ibv_device *);

/* Child side (arg: NCCLCHECK_IBVERBS_LIB or NULL): "path\n" then one device name per line, or "!reason". */
static int verbs_child(void *arg, int fd)
{
	static const char *const names[] = { "libibverbs.so.1", "libibverbs.so", NULL };
	struct err e = ERR_INIT;
	void *h = dl_open_first(arg, "NCCLCHECK_IBVERBS_LIB", names, &e);
	get_list_fn get_list;
	free_list_fn free_list;
	get_name_fn get_name;
	struct ibv_device **list;
	char path[PATH_MAX];
	int n = 0;

	if (!h) {
		dprintf(fd, "!%s\n", e.msg);
		return 1;
	}
	if (dl_path(h, path, sizeof(path)) < 0)
		snprintf(path, sizeof(path), "libibverbs");
	/* the versioned symbols NCCL binds to (ibvwrap.cc) */
	get_list = (get_list_fn)dlvsym(h, "ibv_get_device_list", "IBVERBS_1.1");
	free_list = (free_list_fn)dlvsym(h, "ibv_free_device_list", "IBVERBS_1.1");
	get_name = (get_name_fn)dlvsym(h, "ibv_get_device_name", "IBVERBS_1.1");
	if (!get_list || !free_list || !get_name) {
		dprintf(fd, "%s\n!lacks ibv_get_device_list@IBVERBS_1.1\n", path);
		return 1;
	}
	dprintf(fd, "%s\n", path);
	list = get_list(&n);
	for (int i = 0; list && i < n; i++)
		dprintf(fd, "%s\n", get_name(list[i]));
	if (list)
		free_list(list);
	return 0;
}

static void verbs(const struct probe_ctx *ctx, json_t *rdma)
{
	struct subproc_result r;
	struct err e = ERR_INIT;
	json_t *v = json_object(), *devs = json_array();
	char *line, *save = NULL;
	int first = 1;

	subproc_result_init(&r);
	if (subproc_fork(verbs_child, (void *)ctx->ibverbs_lib, VERBS_TIMEOUT_MS, 64 << 10, &r, &e) < 0) {
		jset_unknown(rdma, "verbs", "cannot start the libibverbs check: %s", e.msg);
		goto out;
	}
	if (r.timed_out) {
		jset_unknown(rdma, "verbs", "libibverbs did not answer within %d s", VERBS_TIMEOUT_MS / 1000);
		goto out;
	}
	if (!r.exited) {
		jset_unknown(rdma, "verbs", "libibverbs crashed the check (signal %d)", r.status);
		goto out;
	}
	for (line = strtok_r(r.out.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '!') {
			jset_str(v, "error", line + 1);
			continue;
		}
		if (first) {
			jset_str(v, "path", line);
			first = 0;
			continue;
		}
		json_array_append_new(devs, json_string(line));
	}
	jset_bool(v, "loaded", !first);
	json_object_set_new(v, "devices", devs);
	devs = NULL;
	json_object_set_new(rdma, "verbs", v);
	v = NULL;
out:
	json_decref(devs);
	json_decref(v);
	subproc_result_release(&r);
}

/* nvidia_peermem (or Mellanox's older nv_peer_mem): GPUDirect RDMA through the peer-memory API. */
static void peermem(const struct probe_ctx *ctx, json_t *rdma)
{
	static const char *const mods[] = { "nvidia_peermem", "nv_peer_mem" };
	json_t *pm = json_object();
	const char *loaded = NULL;

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]) && !loaded; i++) {
		char rel[64], *p;

		snprintf(rel, sizeof(rel), "module/%s", mods[i]);
		p = probe_sys_path(ctx, rel);
		if (file_is_dir(p))
			loaded = mods[i];
		free(p);
	}
	jset_bool(pm, "loaded", loaded != NULL);
	jset_str(pm, "module", loaded);
	{
		char *p = probe_sys_path(ctx, "module");
		jset_str(pm, "source", p);
		free(p);
	}
	json_object_set_new(rdma, "peermem", pm);
}

void probe_rdma(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *rdma = jobj_child(facts, "rdma"), *devs = json_array(), *names, *n;
	char *root = probe_sys_path(ctx, "class/infiniband");
	size_t i;

	jset_str(rdma, "source", root);
	names = list_dir(root);
	json_array_foreach(names, i, n)
		json_array_append_new(devs, device_facts(root, json_string_value(n)));
	json_decref(names);
	json_object_set_new(rdma, "devices", devs);
	free(root);
	/* only the live system has a libibverbs that matches its /sys */
	if (!strcmp(ctx->root_sys, "/"))
		verbs(ctx, rdma);
	peermem(ctx, rdma);
}
