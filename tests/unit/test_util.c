/* util/: strbuf, err, suggest, version, json paths, file helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "util/dl.h"
#include "util/envmap.h"
#include "util/err.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/version.h"

static void strbuf_grows_and_formats(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	size_t len;

	(void)state;
	assert_string_equal(sb.buf, "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	assert_true(sb.len > 3000);
	assert_int_equal(strlen(sb.buf), sb.len);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "  padded \n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "padded");
	p = strbuf_detach(&sb, &len);
	assert_int_equal(len, 6);
	assert_string_equal(sb.buf, "");
	free(p);
	strbuf_release(&sb);
}

/* a list of addresses for iptables -s: an address that is a prefix of one listed still joins */
static void strbuf_unique_list(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_add_unique(&sb, "10.0.0.11");
	strbuf_add_unique(&sb, "10.0.0.1");
	strbuf_add_unique(&sb, "10.0.0.11");
	strbuf_add_unique(&sb, "10.0.0.1");
	strbuf_add_unique(&sb, "0.0.1");
	assert_string_equal(sb.buf, "10.0.0.11,10.0.0.1,0.0.1");
	strbuf_release(&sb);
}

static void err_prefix_and_sys(void **state)
{
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(err_set(&e, ERR_PARSE, "bad value '%s'", "x"), -1);
	err_prefix(&e, "reading '%s'", "f.json");
	assert_string_equal(e.msg, "reading 'f.json': bad value 'x'");
	assert_int_equal(e.code, ERR_PARSE);
	assert_int_equal(err_sys(NULL, "ignored"), -1);
}

static void suggest_finds_typos(void **state)
{
	const char *const verbs[] = { "node", "cluster", "bench", "explain", "config", "run", "lab" };
	const char *const vars[] = { "NCCL_SOCKET_IFNAME", "NCCL_SOCKET_FAMILY", "NCCL_IB_DISABLE" };

	(void)state;
	assert_string_equal(suggest_closest("nod", verbs, 7), "node");
	assert_string_equal(suggest_closest("clsuter", verbs, 7), "cluster");
	assert_string_equal(suggest_closest("expain", verbs, 7), "explain");
	assert_null(suggest_closest("zzzzzz", verbs, 7));
	assert_string_equal(suggest_closest("NCCL_SOCKET_IFNAM", vars, 3), "NCCL_SOCKET_IFNAME");
	assert_string_equal(suggest_closest("NCCL_SOCKET_NAME", vars, 3), "NCCL_SOCKET_IFNAME");
	assert_int_equal(suggest_distance("ab", "ba"), 1);
}

static void version_parses_and_compares(void **state)
{
	struct version v;
	char buf[32];

	(void)state;
	assert_int_equal(version_parse("2.6.0+cu126", &v), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.part[1], 6);
	assert_int_equal(version_parse("abc", &v), -1);
	assert_true(version_cmp_str("2.28.9", "2.28.3") > 0);
	assert_true(version_cmp_str("12.4", "12.4.0") == 0);
	assert_true(version_cmp_str("580.82.07", "450.80.02") > 0);
	assert_true(version_cmp_str("1.13.1", "2.0") < 0);
	assert_true(version_cmp_str("garbage", "1.0") < 0);
	version_nccl_code_str(22809, buf, sizeof(buf));
	assert_string_equal(buf, "2.28.9");
	version_nccl_code_str(2708, buf, sizeof(buf));
	assert_string_equal(buf, "2.7.8");
	version_cuda_code_str(12040, buf, sizeof(buf));
	assert_string_equal(buf, "12.4");
}

static void json_paths(void **state)
{
	json_t *j = json_lit("{\"a\":{\"b\":[{\"c\":\"x\"},{\"n\":5}]},\"u\":{\"unknown\":\"no driver\"}}");

	(void)state;
	assert_string_equal(jpath_str(j, "a.b.0.c"), "x");
	assert_int_equal(jpath_int(j, "a.b.1.n", -1), 5);
	assert_int_equal(jpath_int(j, "a.b.2.n", -1), -1);
	assert_null(jpath(j, "a.b.x"));
	assert_string_equal(junknown(jpath(j, "u")), "no driver");
	assert_null(junknown(jpath(j, "a")));
	jset_str(j, "bad", "caf\xff");
	assert_non_null(jpath_str(j, "bad"));
	json_decref(j);
}

static void file_reads_are_bounded(void **state)
{
	char path[] = "/tmp/ncclcheck-test-XXXXXX";
	int fd = mkstemp(path);
	struct strbuf sb = STRBUF_INIT;
	long v;
	char *joined;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1500\nrest\n", 10), 10);
	close(fd);
	assert_int_equal(file_read_long(path, &v), 0);
	assert_int_equal(v, 1500);
	assert_int_equal(file_read(path, &sb, 4, NULL), 0);
	assert_string_equal(sb.buf, "1500");
	unlink(path);
	assert_int_equal(file_read_long(path, &v), -1);
	strbuf_release(&sb);
	joined = path_join("/tmp/root/", "/sys/class/net");
	assert_string_equal(joined, "/tmp/root/sys/class/net");
	free(joined);
	joined = path_join("/", "etc/os-release");
	assert_string_equal(joined, "/etc/os-release");
	free(joined);
}

static void envmap_is_the_environment_as_data(void **state)
{
	char *envp[] = { "A=1", "NCCL_SOCKET_IFNAME=eth1", "B=", "garbage", NULL };
	struct envmap *em = envmap_new(envp);
	(void)state;

	assert_string_equal(envmap_get(em, "A"), "1");
	assert_string_equal(envmap_get(em, "B"), "");
	assert_null(envmap_get(em, "NCCL"));	/* a prefix is not a name */
	assert_null(envmap_get(em, "garbage"));
	envmap_set(em, "A", "2");
	envmap_set(em, "NCCL_SOCKET_IFNAME", NULL);
	assert_string_equal(envmap_get(em, "A"), "2");
	assert_null(envmap_get(em, "NCCL_SOCKET_IFNAME"));
	assert_int_equal(em->n, 2);
	assert_null(envmap_envp(em)[2]);
	envmap_free(em);
}

/* The override is an argument, not a variable read behind the caller's back. */
static void dl_open_first_takes_the_override(void **state)
{
	static const char *const names[] = { "libnot-there-ncclcheck.so.9", "libc.so.6", NULL };
	static const char *const none[] = { "libnot-there-ncclcheck.so.9", NULL };
	struct err e = ERR_INIT;
	char path[4096];
	void *h;

	(void)state;
	h = dl_open_first(NULL, "NCCLCHECK_X_LIB", names, &e);
	assert_non_null(h);	/* the first name fails, libc.so.6 loads */
	assert_int_equal(dl_path(h, path, sizeof(path)), 0);
	assert_non_null(strstr(path, "libc.so.6"));
	assert_null(dl_open_first("", "NCCLCHECK_X_LIB", none, &e)); /* "" is no override */
	assert_non_null(strstr(e.msg, "libnot-there-ncclcheck.so.9"));
	setenv("NCCLCHECK_X_LIB", "/nonexistent/libc.so.6", 1); /* ignored: not passed */
	assert_non_null(dl_open_first(NULL, "NCCLCHECK_X_LIB", names, &e));
	unsetenv("NCCLCHECK_X_LIB");
	assert_null(dl_open_first("/nonexistent/libx.so.1", "NCCLCHECK_X_LIB", names, &e));
	assert_non_null(strstr(e.msg, "NCCLCHECK_X_LIB='/nonexistent/libx.so.1' does not load"));
}

/* splice_items: element i of the spliced array, made on demand */
static json_t *splice_item(void *arg, size_t i)
{
	const json_t *items = arg;

	return json_deep_copy(json_array_get(items, i));
}

struct dump_sink {
	struct strbuf sb;
	size_t calls;
};

static int sink_cb(const char *buf, size_t size, void *data)
{
	struct dump_sink *d = data;

	d->calls++;
	strbuf_add(&d->sb, buf, size);
	return 0;
}

/* A document written with a spliced array is byte for byte the one holding the array, in every
 * layout the writers use (the wire's compact, --json's indented with its precision), nested or
 * at the top, empty or not; materialized, the document is the one holding it. */
static void json_splice_writes_what_the_tree_would(void **state)
{
	static const size_t flags[] = {
		JSON_COMPACT | JSON_PRESERVE_ORDER, JSON_INDENT(2) | JSON_REAL_PRECISION(6),
		JSON_INDENT(3), 0,
	};
	json_t *items = json_pack("[{s:i, s:[i, i], s:{s:f, s:[]}, s:s}, {s:n}, [], 1.23456789, "
				  "{s:{s:{s:s}}}]", "target", 1, "ports", 80, 443, "result",
				  "gbps", 9.87654321, "none", "name", "a\nb \"q\"", "ceiling", "deep",
				  "er", "x", "y");

	(void)state;
	for (size_t nitems = 0; nitems <= json_array_size(items); nitems += 5) {
		for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
			json_t *at = json_array(), *full = json_array();
			json_t *doc = json_pack("{s:s, s:{s:i, s:{s:o, s:i}, s:[i]}, s:f}", "verb", "c",
						"report", "exit_code", 1, "inner", "links",
						json_incref(at), "after", 2, "list", 3, "last", 0.5);
			json_t *whole = json_deep_copy(doc);
			struct jsplice sp = { .at = at, .n = nitems, .item = splice_item,
					      .arg = items };
			struct dump_sink got = { .sb = STRBUF_INIT };
			char *want;

			for (size_t i = 0; i < nitems; i++)
				json_array_append_new(full, splice_item(items, i));
			json_object_set_new(jpath(whole, "report.inner"), "links", full);
			want = json_dumps(whole, flags[f]);
			assert_int_equal(jdump_splice(doc, flags[f], &sp, sink_cb, &got), 0);
			assert_string_equal(got.sb.buf, want);
			/* the spliced array never went through one buffer */
			assert_true(got.calls > 1);
			jsplice_materialize(doc, &sp);
			assert_null(sp.at);
			assert_true(json_equal(doc, whole));
			free(want);
			strbuf_release(&got.sb);
			json_decref(at);
			json_decref(doc);
			json_decref(whole);
		}
	}
	json_decref(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_grows_and_formats),
		cmocka_unit_test(strbuf_unique_list),
		cmocka_unit_test(err_prefix_and_sys),
		cmocka_unit_test(suggest_finds_typos),
		cmocka_unit_test(version_parses_and_compares),
		cmocka_unit_test(json_paths),
		cmocka_unit_test(json_splice_writes_what_the_tree_would),
		cmocka_unit_test(file_reads_are_bounded),
		cmocka_unit_test(envmap_is_the_environment_as_data),
		cmocka_unit_test(dl_open_first_takes_the_override),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
