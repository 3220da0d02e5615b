/* The node model's strict reading of a facts document: see check.h. */
#include "model/check.h"

#include <stdio.h>

#include "util/json.h"

/* ---- strict reading: every member the model reads has the type it must have ---- */

enum want { W_STR, W_INT, W_BOOL, W_OBJ, W_ARR };

static const char *want_name(enum want w)
{
	static const char *const n[] = { "a string", "an integer", "a boolean", "an object", "an array" };
	return n[w];
}

/*
 * 0 when `v` is absent, null, an {"unknown": ...} marker, or of type `w`; -1 with the path in `e`
 * otherwise. Absent and unknown facts are normal (the model says so); a wrong type is not a facts
 * document the probe wrote, so the whole document is refused.
 */
static int check(const json_t *v, enum want w, const char *path, struct err *e)
{
	int ok;

	if (!v || json_is_null(v) || junknown(v))
		return 0;
	switch (w) {
	case W_STR: ok = json_is_string(v); break;
	case W_INT: ok = json_is_integer(v); break;
	case W_BOOL: ok = json_is_boolean(v); break;
	case W_OBJ: ok = json_is_object(v); break;
	default: ok = json_is_array(v); break;
	}
	if (ok)
		return 0;
	return err_set(e, ERR_PARSE, "facts member '%s' is not %s", path, want_name(w));
}

struct field {
	const char *key;
	enum want w;
};

/* Checks the listed members of object `o` (itself at `path`). */
static int check_fields(const json_t *o, const char *path, const struct field *f, size_t n,
			struct err *e)
{
	char p[128];

	if (!json_is_object(o))
		return 0;
	for (size_t i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%.80s.%.40s", path, f[i].key);
		if (check(json_object_get(o, f[i].key), f[i].w, p, e) < 0)
			return -1;
	}
	return 0;
}

/* Every member of array `a` must be an object whose listed fields have their types. */
static int check_array(const json_t *a, const char *path, const struct field *f, size_t n,
		       struct err *e)
{
	const json_t *x;
	size_t i;
	char p[128];

	if (check(a, W_ARR, path, e) < 0)
		return -1;
	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, x) {
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		if (!json_is_object(x))
			return err_set(e, ERR_PARSE, "facts member '%s' is not an object", p);
		if (check_fields(x, p, f, n, e) < 0)
			return -1;
	}
	return 0;
}

/* An object whose members must all be strings (env, nccl.conf[].vars). */
static int check_strings(const json_t *o, const char *path, struct err *e)
{
	const char *k;
	json_t *v;

	if (check(o, W_OBJ, path, e) < 0)
		return -1;
	if (!json_is_object(o) || junknown(o))
		return 0;
	json_object_foreach((json_t *)o, k, v)
		if (!json_is_string(v))
			return err_set(e, ERR_PARSE, "facts member '%s.%s' is not a string", path, k);
	return 0;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int node_facts_check(const json_t *facts, struct err *e)
{
	static const struct field ifaddr[] = {
		{ "ifname", W_STR }, { "addr", W_STR }, { "prefixlen", W_INT }, { "scope_id", W_INT },
		{ "index", W_INT }, { "flags", W_OBJ }, { "class", W_STR },
	};
	static const struct field iface[] = {
		{ "name", W_STR }, { "kind", W_STR }, { "vendor", W_STR }, { "driver", W_STR },
		{ "mtu", W_INT }, { "up", W_BOOL }, { "addrs", W_ARR }, { "speed_mbps", W_INT },
		{ "virtual", W_BOOL }, { "running", W_BOOL },
	};
	static const struct field master[] = {
		{ "set", W_BOOL }, { "addr", W_STR }, { "from", W_STR }, { "port", W_INT },
		{ "resolved", W_STR }, { "source_addr", W_STR }, { "source_ifname", W_STR },
		{ "local", W_BOOL },
	};
	static const struct field conf[] = {
		{ "path", W_STR }, { "source", W_STR }, { "lines", W_OBJ }, { "exists", W_BOOL },
	};
	static const struct field lib[] = {
		{ "path", W_STR }, { "realpath", W_STR }, { "version", W_STR }, { "default", W_BOOL },
		{ "default_how", W_STR }, { "paths", W_ARR }, { "found_by", W_ARR },
	};
	static const struct field python[] = { { "path", W_STR }, { "version", W_STR }, { "torch", W_OBJ } };
	static const struct field lightning[] = { { "version", W_STR } };
	static const struct field torch[] = {
		{ "version", W_STR }, { "cuda", W_STR }, { "nccl_version", W_STR },
		{ "nccl_mapped", W_STR }, { "nccl_static", W_BOOL }, { "path", W_STR },
	};
	static const struct field gpu[] = {
		{ "index", W_INT }, { "name", W_STR }, { "bus_id", W_STR }, { "compute_capability", W_STR },
	};
	static const struct field top[] = {
		{ "env", W_OBJ }, { "net", W_OBJ }, { "nccl", W_OBJ }, { "sysctl", W_OBJ },
		{ "firewall", W_OBJ }, { "driver", W_OBJ }, { "host", W_OBJ }, { "python", W_ARR },
		{ "gpus", W_ARR },
	};
	static const struct field net[] = {
		{ "ifaddrs", W_ARR }, { "interfaces", W_ARR }, { "master", W_OBJ },
		{ "default_route", W_OBJ }, { "comm_id", W_OBJ }, { "assume_nccl", W_STR },
	};
	static const struct field hostres[] = {
		{ "name", W_STR }, { "addrs", W_ARR }, { "loopback", W_BOOL },
	};
	static const struct field rdma[] = { { "devices", W_ARR }, { "verbs", W_OBJ }, { "peermem", W_OBJ } };
	static const struct field verbs[] = {
		{ "loaded", W_BOOL }, { "error", W_STR }, { "path", W_STR }, { "devices", W_ARR },
	};
	static const struct field rdev[] = { { "name", W_STR }, { "ports", W_ARR }, { "netdevs", W_ARR } };
	static const struct field ifaddr2[] = { { "addr", W_STR }, { "family", W_INT }, { "class", W_STR } };
	static const struct field netplugin[] = {
		{ "state", W_STR }, { "path", W_STR }, { "env", W_STR }, { "tries", W_STR },
	};
	static const struct field rport[] = {
		{ "port", W_INT }, { "state", W_STR }, { "link_layer", W_STR },
	};
	static const struct field plugin[] = { { "name", W_STR }, { "path", W_STR } };
	static const struct field toolkit[] = {
		{ "path", W_STR }, { "version", W_STR }, { "aliases", W_ARR }, { "source", W_STR },
		{ "default", W_BOOL },
	};
	static const struct field cudnn[] = {
		{ "path", W_STR }, { "version", W_STR }, { "source", W_STR }, { "toolkit", W_STR },
		{ "found_by", W_ARR },
	};
	static const struct field driver[] = {
		{ "present", W_BOOL }, { "reason", W_STR }, { "version", W_STR }, { "source", W_STR },
		{ "cuda_max", W_STR }, { "cuda_max_source", W_STR }, { "nvml", W_OBJ },
		{ "kernel_module", W_OBJ }, { "cuda_driver", W_OBJ },
	};
	static const struct field nvmlf[] = {
		{ "status", W_STR }, { "error", W_STR }, { "hint", W_STR }, { "library", W_STR },
		{ "library_version", W_STR }, { "cuda_version", W_STR }, { "error_code", W_INT },
		{ "cuda_version_code", W_INT },
	};
	static const struct field kmodf[] = { { "version", W_STR }, { "source", W_STR } };
	static const struct field cudadrv[] = {
		{ "init", W_STR }, { "init_hint", W_STR }, { "library", W_STR }, { "version", W_STR },
		{ "version_code", W_INT },
	};
	static const struct field nvcc[] = {
		{ "found", W_BOOL }, { "toolkit", W_STR }, { "path", W_STR }, { "version", W_STR },
	};
	static const struct field shmf[] = {
		{ "path", W_STR }, { "exists", W_BOOL }, { "writable", W_BOOL }, { "read_only", W_BOOL },
		{ "size_bytes", W_INT }, { "avail_bytes", W_INT }, { "error", W_STR },
	};
	/* scalar members and sections, by dotted path */
	static const struct field paths[] = {
		{ "net.default_route.ifname", W_STR },
		{ "net.comm_id.resolved", W_STR },
		{ "sysctl.ip_local_reserved_ports", W_STR },
		{ "driver.version", W_STR },
		{ "cloud.provider", W_STR },
		{ "cloud.instance_type", W_STR },
		{ "cloud.instance_id", W_STR },
		{ "cloud.efa", W_ARR },
		{ "cloud.erdma", W_ARR },
		{ "nccl.default.why", W_STR },
		{ "host.os.id", W_STR },
		{ "cloud.evidence", W_STR },
		{ "host.container.kind", W_STR },
		{ "host.container.netns", W_STR },
		{ "host.hostname", W_STR },
		{ "host.os.pretty_name", W_STR },
		{ "host.kernel", W_STR },
		{ "host.boot_id", W_STR },
		{ "host.interactive", W_BOOL },
		{ "host.cpus", W_INT },
		{ "host.numa_nodes", W_INT },
		{ "topology.cpus.pus", W_INT },
		{ "topology.cpus.bound_pus", W_INT },
		{ "topology.cpus.numa_nodes", W_INT },
		{ "limits.nofile.soft", W_INT },
		{ "limits.nofile.hard", W_INT },
		{ "sysctl.rmem_max", W_INT },
		{ "sysctl.neigh_gc_thresh2", W_INT },
		{ "sysctl.neigh_gc_thresh3", W_INT },
		{ "sysctl.neigh_table_fulls", W_INT },
		{ "sysctl.neigh_entries", W_INT },
		{ "limits.memlock.soft", W_INT },
		{ "limits.memlock.hard", W_INT },
		{ "sysctl.wmem_max", W_INT },
		{ "rdma.peermem.loaded", W_BOOL },
		{ "cuda", W_OBJ },
		{ "schema_version", W_INT },
	};
	const json_t *confs = jpath(facts, "nccl.conf"), *x, *range;
	const json_t *ifaddrs = jpath(facts, "net.ifaddrs");
	size_t i;
	char p[128];

	if (!json_is_object(facts))
		return err_set(e, ERR_PARSE, "a facts document is a JSON object");
	for (size_t k = 0; k < N(paths); k++) {
		if (check(jpath(facts, paths[k].key), paths[k].w, paths[k].key, e) < 0)
			return -1;
	}
	if (check_fields(facts, "facts", top, N(top), e) < 0 ||
	    check_fields(json_object_get(facts, "net"), "net", net, N(net), e) < 0 ||
	    check_strings(json_object_get(facts, "env"), "env", e) < 0 ||
	    check_array(ifaddrs, "net.ifaddrs", ifaddr, N(ifaddr), e) < 0 ||
	    check_array(jpath(facts, "net.interfaces"), "net.interfaces", iface, N(iface), e) < 0 ||
	    check_fields(jpath(facts, "net.master"), "net.master", master, N(master), e) < 0 ||
	    check_array(confs, "nccl.conf", conf, N(conf), e) < 0 ||
	    check_array(jpath(facts, "nccl.libs"), "nccl.libs", lib, N(lib), e) < 0 ||
	    check_array(jpath(facts, "nccl.plugins"), "nccl.plugins", plugin, N(plugin), e) < 0 ||
	    check_array(jpath(facts, "cuda.toolkits"), "cuda.toolkits", toolkit, N(toolkit), e) < 0 ||
	    check_fields(jpath(facts, "cuda.nvcc"), "cuda.nvcc", nvcc, N(nvcc), e) < 0 ||
	    check_array(json_object_get(facts, "python"), "python", python, N(python), e) < 0 ||
	    check_array(json_object_get(facts, "gpus"), "gpus", gpu, N(gpu), e) < 0 ||
	    check_fields(jpath(facts, "nccl.net_plugin"), "nccl.net_plugin", netplugin, N(netplugin),
			 e) < 0 ||
	    check_array(json_object_get(facts, "cudnn"), "cudnn", cudnn, N(cudnn), e) < 0 ||
	    check_fields(json_object_get(facts, "driver"), "driver", driver, N(driver), e) < 0 ||
	    check_fields(jpath(facts, "driver.nvml"), "driver.nvml", nvmlf, N(nvmlf), e) < 0 ||
	    check_fields(jpath(facts, "driver.kernel_module"), "driver.kernel_module", kmodf, N(kmodf),
			 e) < 0 ||
	    check_fields(jpath(facts, "driver.cuda_driver"), "driver.cuda_driver", cudadrv, N(cudadrv),
			 e) < 0 ||
	    check_fields(json_object_get(facts, "shm"), "shm", shmf, N(shmf), e) < 0 ||
	    check_fields(json_object_get(facts, "hostname_resolution"), "hostname_resolution", hostres,
			 N(hostres), e) < 0 ||
	    check_fields(json_object_get(facts, "rdma"), "rdma", rdma, N(rdma), e) < 0 ||
	    check_fields(jpath(facts, "rdma.verbs"), "rdma.verbs", verbs, N(verbs), e) < 0 ||
	    check_array(jpath(facts, "rdma.devices"), "rdma.devices", rdev, N(rdev), e) < 0)
		return -1;
	json_array_foreach(ifaddrs, i, x) {
		snprintf(p, sizeof(p), "net.ifaddrs[%zu].flags", i);
		if (check(jpath(x, "flags.running"), W_BOOL, p, e) < 0)
			return -1;
	}
	json_array_foreach(jpath(facts, "net.interfaces"), i, x) {
		snprintf(p, sizeof(p), "net.interfaces[%zu].addrs", i);
		if (check_array(json_object_get(x, "addrs"), p, ifaddr2, N(ifaddr2), e) < 0)
			return -1;
	}
	json_array_foreach(jpath(facts, "rdma.devices"), i, x) {
		snprintf(p, sizeof(p), "rdma.devices[%zu].ports", i);
		if (check_array(json_object_get(x, "ports"), p, rport, N(rport), e) < 0)
			return -1;
	}
	x = jpath(facts, "hostname_resolution.addrs");
	if (json_is_array(x) && json_array_size(x) && !json_is_string(json_array_get(x, 0)))
		return err_set(e, ERR_PARSE, "facts member 'hostname_resolution.addrs[0]' is not a string");
	json_array_foreach(confs, i, x) {
		snprintf(p, sizeof(p), "nccl.conf[%zu].vars", i);
		if (check_strings(json_object_get(x, "vars"), p, e) < 0)
			return -1;
	}
	json_array_foreach(json_object_get(facts, "python"), i, x) {
		snprintf(p, sizeof(p), "python[%zu].torch", i);
		if (check_fields(json_object_get(x, "torch"), p, torch, N(torch), e) < 0)
			return -1;
		snprintf(p, sizeof(p), "python[%zu].lightning", i);
		if (check_fields(json_object_get(x, "lightning"), p, lightning, N(lightning), e) < 0)
			return -1;
		snprintf(p, sizeof(p), "python[%zu].pytorch_lightning", i);
		if (check_fields(json_object_get(x, "pytorch_lightning"), p, lightning, N(lightning), e) < 0)
			return -1;
	}
	range = jpath(facts, "sysctl.ip_local_port_range");
	if (range && !junknown(range)) {
		json_int_t lo, hi;

		if (!json_is_array(range) || json_array_size(range) != 2 ||
		    !json_is_integer(json_array_get(range, 0)) || !json_is_integer(json_array_get(range, 1)))
			return err_set(e, ERR_PARSE,
				       "facts member 'sysctl.ip_local_port_range' is not [lo, hi]");
		lo = json_integer_value(json_array_get(range, 0));
		hi = json_integer_value(json_array_get(range, 1));
		if (lo < 1 || hi > 65535 || lo > hi)
			return err_set(e, ERR_PARSE,
				       "facts member 'sysctl.ip_local_port_range' is [%lld, %lld], "
				       "not a port range", (long long)lo, (long long)hi);
	}
	x = jpath(facts, "net.master.port");
	if (json_is_integer(x) && (json_integer_value(x) < 1 || json_integer_value(x) > 65535))
		return err_set(e, ERR_PARSE, "facts member 'net.master.port' is %lld, not a port",
			       (long long)json_integer_value(x));
	return 0;
}
