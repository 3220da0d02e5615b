/*
 * What the kernel of each lab namespace holds now, read back with the tools a user would use
 * (iptables -S, tc qdisc show, ip -o link show, cat ip_local_port_range), and how it compares
 * with the plan recorded at `lab up`: a rule flushed by hand, a qdisc deleted or an MTU changed
 * makes the lab's scenario a different one, and `lab status` must say so.
 */
#include "lab/lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/plan.h"
#include "lab/sys.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define READ_TIMEOUT_MS 5000

/* Runs argv in `netns`; 0 with the output in r->out, or -1 with a one-line reason in `why`. */
static int run_in(const char *netns, char *const argv[], struct subproc_result *r, char *why,
		  size_t len)
{
	struct err e = ERR_INIT;

	subproc_result_init(r);
	if (lab_run_in_netns(netns, argv, READ_TIMEOUT_MS, r, &e) < 0) {
		snprintf(why, len, "%s", e.msg);
		return -1;
	}
	if (r->timed_out || !r->exited || r->status != 0) {
		char line[256];

		lab_first_line(r, line, sizeof(line));
		snprintf(why, len, "'%s' failed in %s: %s", argv[0], netns,
			 r->timed_out ? "timed out" : line[0] ? line : "no output");
		return -1;
	}
	return 0;
}

/* Each line of `text` that `keep` accepts, as a string array. */
static json_t *lines(char *text, int (*keep)(const char *line))
{
	json_t *arr = json_array();
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (keep(l))
			json_array_append_new(arr, json_string(l));
	return arr;
}

/* Rules and non-default policies; `-N chain` and ACCEPT policies are the empty table. */
static int ipt_keep(const char *l)
{
	return !strncmp(l, "-A ", 3) || (!strncmp(l, "-P ", 3) && !strstr(l, " ACCEPT"));
}

/* The qdiscs a fresh namespace has by itself are no fault. */
static int tc_keep(const char *l)
{
	static const char *const defaults[] = { "noqueue", "pfifo_fast", "fq_codel", "mq", "noop" };
	char kind[32];

	if (sscanf(l, "qdisc %31s", kind) != 1)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
		if (!strcmp(kind, defaults[i]))
			return 0;
	return 1;
}

/* "2: eth1@if7: <...> mtu 9000 qdisc ..." -> {"eth1": 9000}; lo is left out. */
static json_t *mtus(char *text)
{
	json_t *o = json_object();
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[64];
		const char *m = strstr(l, " mtu ");
		int mtu;

		if (sscanf(l, "%*d: %63[^:@ ]", name) != 1 || !m || sscanf(m, " mtu %d", &mtu) != 1)
			continue;
		if (strcmp(name, "lo"))
			jset_int(o, name, mtu);
	}
	return o;
}

/* "32768\t60999\n" -> "32768 60999" */
static void port_range(json_t *k, const char *text)
{
	unsigned lo, hi;

	if (sscanf(text, "%u %u", &lo, &hi) == 2)
		jset_fmt(k, "port_range", "%u %u", lo, hi);
	else
		jset_unknown(k, "port_range", "unexpected ip_local_port_range '%.40s'", text);
}

/* `node`: a node namespace, whose port range the lab sets (the routers and the hub keep theirs). */
static void read_ns(json_t *k, const char *netns, const struct lab_tools *t, int node)
{
	char why[ERR_MSG_LEN + 64];
	struct subproc_result r;

	if (t->iptables[0]) {
		char *argv[] = { (char *)t->iptables, (char *)"-S", NULL };
		if (run_in(netns, argv, &r, why, sizeof(why)) == 0)
			json_object_set_new(k, "iptables", lines(r.out.buf, ipt_keep));
		else
			jset_unknown(k, "iptables", "%s", why);
		subproc_result_release(&r);
	}
	if (t->tc[0]) {
		char *argv[] = { (char *)t->tc, (char *)"qdisc", (char *)"show", NULL };
		if (run_in(netns, argv, &r, why, sizeof(why)) == 0)
			json_object_set_new(k, "tc", lines(r.out.buf, tc_keep));
		else
			jset_unknown(k, "tc", "%s", why);
		subproc_result_release(&r);
	}
	{
		char *argv[] = { (char *)t->ip, (char *)"-o", (char *)"link", (char *)"show", NULL };
		if (run_in(netns, argv, &r, why, sizeof(why)) == 0)
			json_object_set_new(k, "mtu", mtus(r.out.buf));
		else
			jset_unknown(k, "mtu", "%s", why);
		subproc_result_release(&r);
	}
	if (node) {
		/* /proc/sys/net is the reader's namespace: cat runs inside it */
		char *argv[] = { (char *)(access("/bin/cat", X_OK) == 0 ? "/bin/cat" : "/usr/bin/cat"),
				 (char *)"/proc/sys/net/ipv4/ip_local_port_range", NULL };
		if (run_in(netns, argv, &r, why, sizeof(why)) == 0)
			port_range(k, r.out.buf);
		else
			jset_unknown(k, "port_range", "%s", why);
		subproc_result_release(&r);
	}
}

/* How many planned faults of `netns` start with `tool` ("iptables ", "tc "). */
static size_t planned(const json_t *faults, const char *netns, const char *tool)
{
	size_t i, n = 0;
	json_t *f;

	json_array_foreach(faults, i, f) {
		const char *ns = jpath_str(f, "netns"), *what = jpath_str(f, "what");
		if (ns && what && !strcmp(ns, netns) && !strncmp(what, tool, strlen(tool)))
			n++;
	}
	return n;
}

/* The planned eth1 MTU of the node in `netns`, or 0 when it is not a node. */
static long long planned_mtu(const json_t *lab, const char *netns)
{
	size_t i;
	json_t *n;

	json_array_foreach(json_object_get(lab, "nodes"), i, n)
		if (jpath_str(n, "netns") && !strcmp(jpath_str(n, "netns"), netns))
			return jpath_int(n, "eth1_mtu", 0);
	return 0;
}

/* Adds to `diffs` every way the kernel of `netns` (`k`) is not what the plan says. */
static void compare(const json_t *lab, const char *netns, const json_t *k, json_t *diffs)
{
	const json_t *faults = json_object_get(lab, "faults");
	const json_t *ipt = json_object_get(k, "iptables"), *tc = json_object_get(k, "tc");
	long long want_mtu = planned_mtu(lab, netns);
	size_t want;

	if (json_is_array(ipt) && (want = planned(faults, netns, "iptables ")) !=
				     json_array_size(ipt)) {
		json_array_append_new(diffs, json_sprintf(
			"%s has %zu iptables rule%s, the plan %zu", netns, json_array_size(ipt),
			json_array_size(ipt) == 1 ? "" : "s", want));
	}
	if (json_is_array(tc) && (want = planned(faults, netns, "tc ")) != json_array_size(tc)) {
		json_array_append_new(diffs, json_sprintf(
			"%s has %zu shaping qdisc%s, the plan %zu", netns, json_array_size(tc),
			json_array_size(tc) == 1 ? "" : "s", want));
	}
	if (want_mtu && json_is_object(json_object_get(k, "mtu"))) {
		long long have = jpath_int(json_object_get(k, "mtu"), "eth1", -1);

		if (have != want_mtu)
			json_array_append_new(diffs, json_sprintf(
				"%s eth1 has MTU %lld, the plan %lld", netns, have, want_mtu));
	}
	if (want_mtu && jpath_str(k, "port_range") && strcmp(jpath_str(k, "port_range"), LAB_PORT_RANGE))
		json_array_append_new(diffs, json_sprintf(
			"%s ip_local_port_range is %s, the plan %s", netns, jpath_str(k, "port_range"),
			LAB_PORT_RANGE));
}

void lab_kernel_read(json_t *lab)
{
	json_t *kern = json_array(), *diffs = json_array(), *v;
	const char *used = jpath_str(lab, "iptables");
	struct lab_tools t, tmp;
	struct err e = ERR_INIT;
	int not_root;
	size_t i;

	if (lab_check_privileges(&not_root, &e) < 0 || lab_tools_find(0, &t, &e) < 0) {
		json_decref(kern);
		json_decref(diffs);
		jset_unknown(lab, "kernel", "cannot read the namespaces back: %s", e.msg);
		return;
	}
	if (lab_tools_find(LAB_NEEDS_TC, &tmp, NULL) == 0)
		snprintf(t.tc, sizeof(t.tc), "%s", tmp.tc);
	/* the iptables `lab up` used: the other backend would show other tables */
	if (used && *used)
		snprintf(t.iptables, sizeof(t.iptables), "%s", used);
	else if (lab_tools_find(LAB_NEEDS_IPTABLES, &tmp, NULL) == 0)
		snprintf(t.iptables, sizeof(t.iptables), "%s", tmp.iptables);
	json_array_foreach(json_object_get(lab, "namespaces_found"), i, v) {
		json_t *k = json_object();
		const char *ns = json_string_value(v);

		jset_str(k, "netns", ns);
		read_ns(k, ns, &t, planned_mtu(lab, ns) != 0);
		compare(lab, ns, k, diffs);
		json_array_append_new(kern, k);
	}
	json_object_set_new(lab, "kernel", kern);
	json_object_set_new(lab, "kernel_differs", diffs);
}
