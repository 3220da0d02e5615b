/*
 * Kernel settings NCCL's sockets depend on: the ephemeral port range (NCCL binds port 0, so this
 * range is every port a firewall must let through), socket buffer ceilings, SYN retries (how long
 * a DROP firewall stalls a connect), the neighbour table's limits and the open-files limit.
 * /proc/sys/net is per network namespace, so inside a container these are the container's own
 * values — except the neighbour table's, which the kernel keeps once per host and shows only in
 * the initial namespace.
 */
#include "probe/probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/file.h"
#include "util/json.h"

static void read_long_fact(const struct probe_ctx *ctx, json_t *obj, const char *key, const char *rel)
{
	char *p = probe_proc_path(ctx, rel);
	long v;

	if (file_read_long(p, &v) < 0)
		jset_unknown(obj, key, "cannot read '%s'", p);
	else
		jset_int(obj, key, v);
	free(p);
}

static void port_range(const struct probe_ctx *ctx, json_t *sc)
{
	char *p = probe_proc_path(ctx, "sys/net/ipv4/ip_local_port_range");
	char line[128];
	long lo, hi;

	if (file_read_line(p, line, sizeof(line)) < 0 || sscanf(line, "%ld %ld", &lo, &hi) != 2 ||
	    lo < 0 || hi > 65535 || lo > hi) {
		jset_unknown(sc, "ip_local_port_range", "cannot read '%s'", p);
	} else {
		json_t *r = json_array();
		json_array_append_new(r, json_integer(lo));
		json_array_append_new(r, json_integer(hi));
		json_object_set_new(sc, "ip_local_port_range", r);
	}
	free(p);
	p = probe_proc_path(ctx, "sys/net/ipv4/ip_local_reserved_ports");
	if (file_read_line(p, line, sizeof(line)) == 0)
		jset_str(sc, "ip_local_reserved_ports", line);
	else if (file_exists(p))
		jset_str(sc, "ip_local_reserved_ports", "");
	free(p);
}

static void neigh_limits(const struct probe_ctx *ctx, json_t *sc)
{
	char *dir = probe_proc_path(ctx, "sys/net/ipv4/neigh/default");

	if (!file_exists(dir)) {
		jset_unknown(sc, "neigh_gc_thresh2", "not visible in this network namespace: the "
			     "host's one table and its limits apply");
		jset_unknown(sc, "neigh_gc_thresh3", "not visible in this network namespace: the "
			     "host's one table and its limits apply");
	} else {
		read_long_fact(ctx, sc, "neigh_gc_thresh2", "sys/net/ipv4/neigh/default/gc_thresh2");
		read_long_fact(ctx, sc, "neigh_gc_thresh3", "sys/net/ipv4/neigh/default/gc_thresh3");
	}
	free(dir);
}

static void nofile(json_t *facts)
{
	json_t *limits = jobj_child(facts, "limits"), *nf = json_object();
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		json_decref(nf);
		jset_unknown(limits, "nofile", "getrlimit(RLIMIT_NOFILE) failed: %s", strerror(errno));
		return;
	}
	jset_int(nf, "soft", rl.rlim_cur == RLIM_INFINITY ? -1 : (long long)rl.rlim_cur);
	jset_int(nf, "hard", rl.rlim_max == RLIM_INFINITY ? -1 : (long long)rl.rlim_max);
	json_object_set_new(limits, "nofile", nf);
}

void probe_sysctl(const struct probe_ctx *ctx, json_t *facts)
{
	json_t *sc = jobj_child(facts, "sysctl");
	char *src = probe_proc_path(ctx, "sys");

	jset_str(sc, "source", src);
	free(src);
	port_range(ctx, sc);
	read_long_fact(ctx, sc, "rmem_max", "sys/net/core/rmem_max");
	read_long_fact(ctx, sc, "wmem_max", "sys/net/core/wmem_max");
	read_long_fact(ctx, sc, "tcp_syn_retries", "sys/net/ipv4/tcp_syn_retries");
	neigh_limits(ctx, sc);
	nofile(facts);
}
