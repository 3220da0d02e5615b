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

/*
 * The neighbour table's own counters (/proc/net/stat/arp_cache: a header naming the columns, then
 * one line of hex per CPU): its entries now, and table_fulls summed over the CPUs — how often
 * the kernel refused a new entry (and dropped the packet waiting for it) since boot. The file
 * exists in the initial network namespace only.
 */
static void neigh_counters(const struct probe_ctx *ctx, json_t *sc)
{
	char *p = probe_proc_path(ctx, "net/stat/arp_cache");
	FILE *f = fopen(p, "re");
	char line[1024];
	int col_entries = -1, col_fulls = -1, lines = 0;
	long long entries = -1, fulls = 0;

	if (!f) {
		jset_unknown(sc, "neigh_table_fulls", "cannot read '%s' (only the initial network "
			     "namespace has it)", p);
		free(p);
		return;
	}
	if (fgets(line, sizeof(line), f)) {
		int k = 0;

		for (char *save = NULL, *t = strtok_r(line, " \t\n", &save); t;
		     t = strtok_r(NULL, " \t\n", &save), k++) {
			if (!strcmp(t, "entries"))
				col_entries = k;
			else if (!strcmp(t, "table_fulls"))
				col_fulls = k;
		}
	}
	while (col_fulls >= 0 && fgets(line, sizeof(line), f) && lines < 4096) {
		int k = 0;

		for (char *save = NULL, *t = strtok_r(line, " \t\n", &save); t;
		     t = strtok_r(NULL, " \t\n", &save), k++) {
			char *end;
			unsigned long long v = strtoull(t, &end, 16);

			if (*end || v > 1ULL << 48)
				continue;
			if (k == col_fulls)
				fulls += (long long)v;
			else if (k == col_entries && !lines)
				entries = (long long)v;
		}
		lines++;
	}
	fclose(f);
	if (col_fulls < 0 || !lines) {
		jset_unknown(sc, "neigh_table_fulls", "'%s' has no table_fulls column", p);
	} else {
		jset_int(sc, "neigh_table_fulls", fulls);
		if (entries >= 0)
			jset_int(sc, "neigh_entries", entries);
	}
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
	neigh_counters(ctx, sc);
}

static void nofile(json_t *facts)
{
	json_t *limits = jobj_child(facts, "limits"), *nf = json_object();
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		json_decref(nf);
		jset_unknown(limits, "nofile", "getrlimit(RLIMIT_NOFILE) failed: %s", err_errno_text(errno));
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
