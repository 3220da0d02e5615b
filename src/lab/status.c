/*
 * lab status and node names: which labs exist (from state directories and namespace names),
 * whether each is whole, what faults it carries, and which namespace "n1" means. The text form
 * of the status document is report/lab_text.c.
 */
#include "lab/lab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/plan.h"
#include "lab/sys.h"
#include "util/file.h"
#include "util/json.h"
#include "util/xalloc.h"

/* The prefix a namespace name belongs to, or 0 when it is no lab's. */
static int prefix_of(const char *name, char *prefix, size_t len)
{
	const char *dash = strrchr(name, '-');
	size_t n;

	if (!dash)
		return 0;
	n = (size_t)(dash - name);
	if (n >= len)
		return 0;
	memcpy(prefix, name, n);
	prefix[n] = '\0';
	return lab_prefix_check(prefix, NULL) == 0 && lab_ns_matches(prefix, name, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int has(const struct lab_names *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

json_t *lab_discover(void)
{
	struct lab_names nss = { 0 }, dirs = { 0 }, found = { 0 };
	char prefix[LAB_PREFIX_MAX + 1];
	json_t *out = json_array();

	if (lab_netns_list(&nss, NULL) == 0)
		for (size_t i = 0; i < nss.n; i++)
			if (prefix_of(nss.v[i], prefix, sizeof(prefix)) && !has(&found, prefix))
				lab_names_add(&found, prefix);
	if (lab_state_list(&dirs) == 0)
		for (size_t i = 0; i < dirs.n; i++)
			if (lab_prefix_check(dirs.v[i], NULL) == 0 && !has(&found, dirs.v[i]))
				lab_names_add(&found, dirs.v[i]);
	if (found.n)
		qsort(found.v, found.n, sizeof(*found.v), cmp_str);
	for (size_t i = 0; i < found.n; i++)
		json_array_append_new(out, json_string(found.v[i]));
	lab_names_free(&nss);
	lab_names_free(&dirs);
	lab_names_free(&found);
	return out;
}

static int pid_alive(long long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* One lab: its state document (or a stub) with "state", "problem" and what is missing. */
static json_t *one_lab(const char *prefix, const struct lab_names *nss)
{
	struct err e = ERR_INIT;
	json_t *lab = lab_state_load(prefix, &e), *missing, *found, *v;
	const struct lab_scenario *sc;
	size_t i;

	if (!lab) {
		lab = json_object();
		jset_str(lab, "prefix", prefix);
		if (e.code == ERR_NOTFOUND) {
			jset_str(lab, "state", "incomplete");
			jset_str(lab, "problem", "namespaces without a state file: 'lab up' was "
				 "killed before it wrote one");
		} else {
			jset_str(lab, "state", "damaged");
			jset_str(lab, "problem", e.msg);
		}
	}
	found = jarr_child(lab, "namespaces_found");
	for (i = 0; i < nss->n; i++)
		if (lab_ns_matches(prefix, nss->v[i], NULL))
			json_array_append_new(found, json_string(nss->v[i]));
	missing = jarr_child(lab, "namespaces_missing");
	json_array_foreach(json_object_get(lab, "namespaces"), i, v)
		if (!has(nss, json_string_value(v)))
			json_array_append(missing, v);

	{
		json_t *slurm = lab_slurm_status(prefix);
		if (slurm)
			json_object_set_new(lab, "slurm", slurm);
	}
	if (!jpath_str(lab, "state")) {
		const char *st = jpath_str(lab, "status");

		if (st && !strcmp(st, "building") && pid_alive(jpath_int(lab, "pid", 0))) {
			jset_str(lab, "state", "building");
		} else if (st && !strcmp(st, "building")) {
			jset_str(lab, "state", "incomplete");
			jset_fmt(lab, "problem", "'lab up' (pid %lld) stopped before it finished",
				 jpath_int(lab, "pid", 0));
		} else if (json_array_size(missing)) {
			struct strbuf sb = STRBUF_INIT;

			json_array_foreach(missing, i, v)
				strbuf_addf(&sb, "%s%s", i ? ", " : "", json_string_value(v));
			jset_str(lab, "state", "damaged");
			jset_fmt(lab, "problem", "namespace%s gone: %s",
				 json_array_size(missing) == 1 ? "" : "s", sb.buf);
			strbuf_release(&sb);
		} else {
			jset_str(lab, "state", "up");
		}
	}
	sc = jpath_str(lab, "scenario") ? lab_scenario_find(jpath_str(lab, "scenario")) : NULL;
	if (sc) {
		/* what the renderer shows comes with the document: it looks nothing up */
		jset_str(lab, "summary", sc->summary);
		jset_str(lab, "show", sc->show);
	}
	if (!strcmp(jpath_str(lab, "state"), "up"))
		lab_kernel_read(lab);
	return lab;
}

json_t *lab_status(const char *prefix)
{
	struct lab_names nss = { 0 };
	json_t *doc = json_object(), *labs = jarr_child(doc, "labs"), *prefixes;
	size_t i;
	json_t *v;

	lab_netns_list(&nss, NULL);
	prefixes = lab_discover();
	json_array_foreach(prefixes, i, v)
		if (!prefix || !strcmp(prefix, json_string_value(v)))
			json_array_append_new(labs, one_lab(json_string_value(v), &nss));
	json_decref(prefixes);
	lab_names_free(&nss);
	return doc;
}

static int is_role(const char *node)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "a-%s", node);
	return strlen(node) < 16 && lab_ns_matches("a", buf, NULL);
}

static int netns_exists(const char *name)
{
	char *path = xasprintf("%s/%s", LAB_NETNS_DIR, name);
	int ok = file_exists(path);

	free(path);
	return ok;
}

int lab_resolve_node(const char *prefix, const char *node, char *netns, size_t len, struct err *e)
{
	char p[LAB_PREFIX_MAX + 1];

	if (!prefix && prefix_of(node, p, sizeof(p))) {
		if (!netns_exists(node))
			return err_set(e, ERR_NOTFOUND, "lab '%s' has no node '%s' (see 'ncclcheck "
				       "lab status')", p, node);
		snprintf(netns, len, "%s", node);
		return 0;
	}
	if (!is_role(node)) {
		if (prefix && lab_ns_matches(prefix, node, NULL) && netns_exists(node)) {
			snprintf(netns, len, "%s", node);
			return 0;
		}
		return err_set(e, ERR_USAGE,
			       "'%s' is not a lab node: name it 'n0', 'n1', ... or in full "
			       "('%s-n1')", node, prefix ? prefix : LAB_PREFIX_DEFAULT);
	}
	if (!prefix) {
		json_t *labs = lab_discover();
		size_t n = json_array_size(labs);

		if (n == 0) {
			json_decref(labs);
			return err_set(e, ERR_NOTFOUND, "no lab is up; start one with 'ncclcheck lab up'");
		}
		if (lab_exists(LAB_PREFIX_DEFAULT)) {
			snprintf(p, sizeof(p), "%s", LAB_PREFIX_DEFAULT);
		} else if (n == 1) {
			snprintf(p, sizeof(p), "%s", json_string_value(json_array_get(labs, 0)));
		} else {
			json_decref(labs);
			return err_set(e, ERR_USAGE,
				       "several labs are up; pick one with --prefix or name the node "
				       "in full ('<prefix>-%s')", node);
		}
		json_decref(labs);
		prefix = p;
	}
	snprintf(netns, len, "%s-%s", prefix, node);
	if (!netns_exists(netns))
		return err_set(e, ERR_NOTFOUND, "lab '%s' has no node '%s' (see 'ncclcheck lab status')",
			       prefix, node);
	return 0;
}
