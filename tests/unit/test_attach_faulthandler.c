/*
 * faulthandler's traceback text, the WorkerServer's /handler/dump_traceback answer, into Python
 * stacks: real output of every CPython on the build machine (tests/fixtures/faulthandler: 3.8
 * to 3.13, three threads each, a name faulthandler escapes, a stack past its 100 frames), and
 * hostile text.
 */
#include "cmocka_helpers.h"

#include <stdlib.h>

#include "attach/faulthandler.h"
#include "attach/stacks.h"
#include "util/file.h"
#include "util/strbuf.h"

static void parse_fixture(const char *name, struct py_stacks *s)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];

	snprintf(path, sizeof(path), "%s/faulthandler/%s", FIXTURES_DIR, name);
	if (file_read(path, &sb, 1 << 20, NULL) < 0)
		fail_msg("cannot read %s", path);
	assert_int_equal(faulthandler_parse(sb.buf, sb.len, s), 0);
	assert_int_equal(s->status, PY_OK);
	strbuf_release(&sb);
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void expect_frame(const struct py_frame *f, const char *func, const char *file, int line)
{
	assert_string_equal(f->func, func);
	assert_string_equal(base(f->file), file);
	assert_int_equal(f->line, line);
}

/* dumper.py: wait_lock's thread, load_batch's, then the main thread (newest first) */
static void check_dumper(const char *name, int run_line)
{
	struct attach_stacks a = { .pid = 4242, .source = SOURCE_WORKER_SERVER };
	struct strbuf phrase = STRBUF_INIT;

	parse_fixture(name, &a.py);
	assert_int_equal(a.py.nthreads, 3);
	assert_int_equal(a.py.threads[0].nframes, 4);
	expect_frame(&a.py.threads[0].frames[0], "wait_lock", "dumper.py", 21);
	expect_frame(&a.py.threads[0].frames[1], "run", "threading.py", run_line);
	expect_frame(&a.py.threads[1].frames[0], "load_batch", "dumper.py", 16);
	assert_int_equal(a.py.threads[2].nframes, 2);
	expect_frame(&a.py.threads[2].frames[0], "step_\\xfcn\\xef", "dumper.py", 30);
	expect_frame(&a.py.threads[2].frames[1], "<module>", "dumper.py", 33);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(a.py.threads[i].native_tid, 0);	/* a pthread_t, not a TID */
		assert_false(a.py.threads[i].truncated);
	}
	/* the verdict's phrase takes the last thread, the main one */
	attach_stacks_phrase(&a, 3, &phrase);
	assert_string_equal(phrase.buf, "in <module> (dumper.py:33) → step_\\xfcn\\xef (dumper.py:30)");
	strbuf_release(&phrase);
	attach_stacks_release(&a);
}

static void test_py38(void **state) { (void)state; check_dumper("py38.txt", 870); }
static void test_py39(void **state) { (void)state; check_dumper("py39.txt", 917); }
static void test_py310(void **state) { (void)state; check_dumper("py310.txt", 953); }
static void test_py311(void **state) { (void)state; check_dumper("py311.txt", 982); }
static void test_py311_debian(void **state) { (void)state; check_dumper("py311_debian.txt", 975); }
static void test_py312(void **state) { (void)state; check_dumper("py312.txt", 1010); }
static void test_py313(void **state) { (void)state; check_dumper("py313.txt", 992); }

static void test_deep(void **state)
{
	struct py_stacks s;

	(void)state;
	parse_fixture("py312_deep.txt", &s);
	assert_int_equal(s.nthreads, 1);
	assert_int_equal(s.threads[0].nframes, 100);
	assert_true(s.threads[0].truncated);
	expect_frame(&s.threads[0].frames[0], "down", "deep.py", 10);
	py_stacks_release(&s);
}

#define expect_unreadable(lit) expect_unreadable_n(lit, sizeof(lit) - 1)
static void expect_unreadable_n(const char *text, size_t len)
{
	struct py_stacks s;

	assert_int_equal(faulthandler_parse(text, len, &s), -1);
	assert_int_equal(s.status, PY_UNREADABLE);
	assert_non_null(strstr(s.error, "faulthandler"));
	py_stacks_release(&s);
}

static void test_hostile(void **state)
{
	static const char quote[] =
		"Thread 0x1 (most recent call first):\n"
		"  File \"/a \"b\", line 7 in c\", line 9 in f\xff\x01g\r\n"
		"  File \"x.py\", line ??? in ???\n"
		"  File \"no line number\n"
		"  File \"y.py\", line 99999999999999999999 in big\n"
		"  <no Python frame>\n"
		"Current thread 0x2 (most recent call first):\n"
		"  <no Python frame>";
	struct py_stacks s;
	char *many;
	size_t n = 0;

	(void)state;
	expect_unreadable("");
	expect_unreadable("Handler not found");
	expect_unreadable("Thread 0x1\n  File \"a\", line 1 in f\n");
	expect_unreadable("\0\0\0Thread 0x1 (most recent call first):");

	assert_int_equal(faulthandler_parse(quote, sizeof(quote) - 1, &s), 0);
	assert_int_equal(s.nthreads, 2);
	assert_int_equal(s.threads[0].nframes, 3);
	/* the file holds a quote: the last `", line ` ends it; bytes outside ASCII are '?' */
	assert_string_equal(s.threads[0].frames[0].file, "/a \"b\", line 7 in c");
	assert_string_equal(s.threads[0].frames[0].func, "f??g");
	assert_int_equal(s.threads[0].frames[0].line, 9);
	assert_string_equal(s.threads[0].frames[1].func, "???");
	assert_int_equal(s.threads[0].frames[1].line, 0);
	assert_true(s.threads[0].frames[2].line > 0);	/* capped, not overflowed */
	assert_int_equal(s.threads[1].nframes, 0);
	py_stacks_release(&s);

	/* more threads and frames than the caps: bounded, marked */
	many = malloc(1 << 20);
	for (int i = 0; i < PY_THREADS_MAX + 10; i++)
		n += (size_t)sprintf(many + n, "Thread 0x%x (most recent call first):\n", i);
	for (int i = 0; i < PY_FRAMES_MAX + 10; i++)
		n += (size_t)sprintf(many + n, "  File \"f.py\", line %d in g\n", i + 1);
	assert_int_equal(faulthandler_parse(many, n, &s), 0);
	assert_int_equal(s.nthreads, PY_THREADS_MAX);
	assert_int_equal(s.threads[PY_THREADS_MAX - 1].nframes, 0);	/* its frames: a dropped thread's */
	py_stacks_release(&s);
	n = (size_t)sprintf(many, "Thread 0x1 (most recent call first):\n");
	for (int i = 0; i < PY_FRAMES_MAX + 10; i++)
		n += (size_t)sprintf(many + n, "  File \"f.py\", line %d in g\n", i + 1);
	assert_int_equal(faulthandler_parse(many, n, &s), 0);
	assert_int_equal(s.threads[0].nframes, PY_FRAMES_MAX);
	assert_true(s.threads[0].truncated);
	py_stacks_release(&s);
	free(many);
}

/* --json says where the stacks came from */
static void test_json_source(void **state)
{
	struct attach_stacks a = { .pid = 7, .source = SOURCE_WORKER_SERVER };
	json_t *j;

	(void)state;
	snprintf(a.worker_server, sizeof(a.worker_server), "unix:/run/ws.sock");
	snprintf(a.memory_error, sizeof(a.memory_error), "Python 3.8: not readable");
	parse_fixture("py312.txt", &a.py);
	j = attach_stacks_json(&a);
	assert_string_equal(json_string_value(json_object_get(j, "stack_source")), "worker_server");
	assert_string_equal(json_string_value(json_object_get(j, "worker_server")), "unix:/run/ws.sock");
	assert_string_equal(json_string_value(json_object_get(j, "memory_error")),
			    "Python 3.8: not readable");
	assert_int_equal(json_array_size(json_object_get(j, "threads")), 3);
	json_decref(j);
	attach_stacks_release(&a);
}

static void test_from_parse(void **state)
{
	enum stacks_from f;

	(void)state;
	assert_int_equal(attach_stacks_from_parse("worker-server", &f), 0);
	assert_int_equal(f, STACKS_WORKER_SERVER);
	assert_int_equal(attach_stacks_from_parse("auto", &f), 0);
	assert_int_equal(f, STACKS_AUTO);
	assert_int_equal(attach_stacks_from_parse("gdb", &f), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_py38),
		cmocka_unit_test(test_py39),
		cmocka_unit_test(test_py310),
		cmocka_unit_test(test_py311),
		cmocka_unit_test(test_py311_debian),
		cmocka_unit_test(test_py312),
		cmocka_unit_test(test_py313),
		cmocka_unit_test(test_deep),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_json_source),
		cmocka_unit_test(test_from_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
