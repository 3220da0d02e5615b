/* `lab status` and `lab up` as text: the status document (lab/status.c) rendered, nothing computed. */
#include "report/lab_text.h"

#include <string.h>

#include "lab/lab.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"

/* How a user names node `node` of lab `prefix` on the command line. */
static void node_arg(char *buf, size_t len, const char *prefix, const char *node)
{
	if (!strcmp(prefix, LAB_PREFIX_DEFAULT))
		snprintf(buf, len, "%s", node);
	else
		snprintf(buf, len, "%s-%s", prefix, node);
}

static void print_list(FILE *out, const char *netns, const char *what, const json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		fprintf(out, "    %-12s %s %s\n", netns, what, json_string_value(v));
}

/* What the kernel holds now, and whether that is still the plan above. */
static void print_kernel(FILE *out, const json_t *lab)
{
	const json_t *kern = json_object_get(lab, "kernel"), *diffs, *k, *v;
	size_t i, j;
	const char *why = junknown(kern);

	if (why) {
		fprintf(out, _("  in the kernel now: not read (%s)\n"), why);
		return;
	}
	if (!json_is_array(kern))
		return;
	fputs(_("  in the kernel now (iptables -S, tc qdisc show, ip link):\n"), out);
	json_array_foreach(kern, i, k) {
		const char *ns = jpath_str(k, "netns"), *key;
		const json_t *m = json_object_get(k, "mtu");

		print_list(out, ns, "iptables", json_object_get(k, "iptables"));
		print_list(out, ns, "tc", json_object_get(k, "tc"));
		if (json_is_object(m))
			json_object_foreach((json_t *)m, key, v)
				if (json_integer_value(v) != 1500)
					fprintf(out, "    %-12s %s mtu %lld\n", ns, key,
						(long long)json_integer_value(v));
		for (j = 0; j < 4; j++) {
			static const char *const parts[] = { "iptables", "tc", "mtu", "port_range" };
			const char *u = junknown(json_object_get(k, parts[j]));
			if (u)
				fprintf(out, "    %-12s %s: unknown (%s)\n", ns, parts[j], u);
		}
	}
	diffs = json_object_get(lab, "kernel_differs");
	if (!json_array_size(diffs)) {
		fputs(_("  the kernel matches the plan\n"), out);
		return;
	}
	fputs(_("  the kernel differs from the plan (changed by hand since 'lab up'?):\n"), out);
	json_array_foreach(diffs, i, v)
		fprintf(out, "    %s\n", json_string_value(v));
}

static void print_lab(FILE *out, const json_t *lab)
{
	const char *prefix = jpath_str(lab, "prefix"), *state = jpath_str(lab, "state");
	const char *scen = jpath_str(lab, "scenario");
	const char *summary = jpath_str(lab, "summary"), *show = jpath_str(lab, "show");
	json_t *nodes = json_object_get(lab, "nodes"), *faults = json_object_get(lab, "faults"), *v;
	size_t i, nn = json_array_size(nodes);
	char arg[64];

	if (!state)
		state = "unknown";
	/* the states lab/state.c writes, as a person reads them */
	fprintf(out, _("lab '%s': %s"), prefix, !strcmp(state, "up") ? _("up") : state);
	if (scen)
		fprintf(out, _(", %zu node%s, scenario '%s'"), nn, nn == 1 ? "" : "s", scen);
	fputc('\n', out);
	if (jpath_str(lab, "problem"))
		fprintf(out, _("  problem: %s\n  fix: ncclcheck lab down%s%s\n"), jpath_str(lab, "problem"),
			strcmp(prefix, LAB_PREFIX_DEFAULT) ? " --prefix " : "",
			strcmp(prefix, LAB_PREFIX_DEFAULT) ? prefix : "");
	if (summary)
		fprintf(out, "  %s\n", _(summary));	/* a scenario row's summary (lab/scenario.c) */
	if (jpath_str(lab, "host_change"))
		fprintf(out, _("  host: %s\n"), jpath_str(lab, "host_change"));
	if (nn) {
		fprintf(out, "\n  %-5s %-14s %-18s %-18s %-5s %s\n", "node", "hostname",
			"eth0 (public)", "eth1 (private)", "mtu", "docker0");
		json_array_foreach(nodes, i, v) {
			char priv[48];

			snprintf(priv, sizeof(priv), "%s%s%s",
				 jpath_str(v, "eth1") ? jpath_str(v, "eth1") : "?",
				 jpath_str(v, "private_if") ? " " : "",
				 jpath_str(v, "private_if") ? jpath_str(v, "private_if") : "");
			fprintf(out, "  %-5s %-14s %-18s %-18s %-5lld %s\n", jpath_str(v, "name"),
				jpath_str(v, "hostname") ? jpath_str(v, "hostname") : "?",
				jpath_str(v, "eth0") ? jpath_str(v, "eth0") : "?",
				priv,
				jpath_int(v, "eth1_mtu", 0),
				jpath_str(v, "docker0") ? jpath_str(v, "docker0") : "-");
		}
		fprintf(out, _("\n  launch environment ('lab exec' exports it): MASTER_ADDR=%s "
			       "MASTER_PORT=%lld NNODES=%zu WORLD_SIZE=%zu NODE_RANK=<the node's index>\n"),
			jpath_str(lab, "master_addr") ? jpath_str(lab, "master_addr") : "?",
			jpath_int(lab, "master_port", 0), nn, nn);
	}
	if (json_is_object(json_object_get(lab, "slurm"))) {
		const json_t *sl = json_object_get(lab, "slurm");
		int up = jpath_bool(sl, "munged", 0) && jpath_bool(sl, "slurmctld", 0);

		fprintf(out, _("  slurm: %s (partition 'lab', SLURM_CONF=%s; munged %s, slurmctld %s)\n"),
			up ? _("up") : _("broken"), jpath_str(sl, "conf"),
			jpath_bool(sl, "munged", 0) ? _("running") : _("gone"),
			jpath_bool(sl, "slurmctld", 0) ? _("running") : _("gone"));
	}
	if (json_array_size(faults)) {
		fputs(_("  faults in place:\n"), out);
		json_array_foreach(faults, i, v) {
			struct strbuf what = STRBUF_INIT;

			/* the fault as the plan wrote it (lab_plan_fault), in the reader's language */
			i18n_text(&what, jpath_str(v, "what"));
			fprintf(out, "    %-12s %s\n", jpath_str(v, "netns"), what.buf);
			strbuf_release(&what);
		}
	} else if (scen) {
		fputs(_("  faults in place: none\n"), out);
	}
	print_kernel(out, lab);
	if (show && nn && !strcmp(state, "up")) {
		node_arg(arg, sizeof(arg), prefix, nn > 1 ? "n1" : "n0");
		fprintf(out, _("  see it: %s\n"), _(show));
		fprintf(out, _("  try:    ncclcheck lab exec %s -- ncclcheck node\n"), arg);
		fprintf(out, _("  remove: ncclcheck lab down%s%s\n"),
			strcmp(prefix, LAB_PREFIX_DEFAULT) ? " --prefix " : "",
			strcmp(prefix, LAB_PREFIX_DEFAULT) ? prefix : "");
	}
}

void render_lab_status_text(FILE *out, const json_t *status)
{
	json_t *labs = json_object_get(status, "labs"), *v;
	size_t i;

	if (!json_array_size(labs)) {
		fputs(_("no lab is up; start one with: sudo ncclcheck lab up --nodes 2 "
			"--scenario cloud-public-blocked\n"), out);
		return;
	}
	json_array_foreach(labs, i, v) {
		if (i)
			fputc('\n', out);
		print_lab(out, v);
	}
}
