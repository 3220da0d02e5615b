/*
 * Parsers for the two files a lab leaves in its state directory: state.json (what `up` built)
 * and the per-node env files `lab exec` exports. Both are re-read after crashes and by other
 * tools, so any bytes must give a clean error (fuzzed: tests/fuzz/fuzz_labstate.c, fuzz_labenv.c).
 */
#include "lab/lab.h"
#include "lab/plan.h"

#include <string.h>

#include "util/envmap.h"
#include "util/json.h"
#include "util/xalloc.h"

#define ENV_LINE_MAX 4096

/* The buffer is not a C string: copy bytes, never scan for a NUL (strndup may). */
static char *dup_bytes(const char *p, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

int lab_env_parse(const char *buf, size_t len, int (*fn)(void *arg, const char *name,
							 const char *value),
		  void *arg, struct err *e)
{
	size_t pos = 0;
	int lineno = 0;

	while (pos < len) {
		const char *line = buf + pos, *nl = memchr(line, '\n', len - pos), *eq;
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		char *name, *value;
		int rc;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (!n || line[0] == '#')
			continue;
		if (n > ENV_LINE_MAX)
			return err_set(e, ERR_PARSE, "line %d is longer than %d bytes", lineno,
				       ENV_LINE_MAX);
		if (memchr(line, '\0', n))
			return err_set(e, ERR_PARSE, "line %d holds a NUL byte", lineno);
		eq = memchr(line, '=', n);
		if (!eq || !envmap_name_ok(line, (size_t)(eq - line)))
			return err_set(e, ERR_PARSE, "line %d is not NAME=value", lineno);
		name = dup_bytes(line, (size_t)(eq - line));
		value = dup_bytes(eq + 1, n - (size_t)(eq - line) - 1);
		rc = fn(arg, name, value);
		free(name);
		free(value);
		if (rc < 0)
			return err_set(e, ERR_PARSE, "line %d was refused", lineno);
	}
	return 0;
}

static int check_strings(const json_t *arr)
{
	size_t i;
	json_t *v;

	if (!json_is_array(arr))
		return -1;
	json_array_foreach(arr, i, v)
		if (!json_is_string(v))
			return -1;
	return 0;
}

json_t *lab_state_parse(const char *buf, size_t len, struct err *e)
{
	json_error_t jerr;
	json_t *st = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr), *nodes, *faults, *v;
	const char *prefix;
	size_t i;

	if (!st) {
		err_set(e, ERR_PARSE, "not JSON: %s (line %d)", jerr.text, jerr.line);
		return NULL;
	}
	prefix = jpath_str(st, "prefix");
	nodes = json_object_get(st, "nodes");
	faults = json_object_get(st, "faults");
	if (!json_is_object(st) || !json_is_integer(json_object_get(st, "version")) || !prefix ||
	    lab_prefix_check(prefix, NULL) < 0 || !jpath_str(st, "scenario") ||
	    !jpath_str(st, "master_addr") || check_strings(json_object_get(st, "namespaces")) < 0 ||
	    !json_is_array(nodes) || !json_is_array(faults))
		goto bad;
	/* names must be the lab's own: status and exec act on them */
	json_array_foreach(json_object_get(st, "namespaces"), i, v)
		if (!lab_ns_matches(prefix, json_string_value(v), NULL))
			goto bad;
	json_array_foreach(nodes, i, v) {
		const char *name = jpath_str(v, "name"), *netns = jpath_str(v, "netns");
		if (!json_is_object(v) || !name || !netns || !lab_ns_matches(prefix, netns, NULL))
			goto bad;
	}
	json_array_foreach(faults, i, v)
		if (!jpath_str(v, "netns") || !jpath_str(v, "what"))
			goto bad;
	return st;
bad:
	json_decref(st);
	err_set(e, ERR_PARSE, "not a lab state document");
	return NULL;
}
