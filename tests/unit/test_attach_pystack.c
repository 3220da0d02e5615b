/*
 * The Python stack reader on recorded memory images of real interpreters (tests/fixtures/pystack:
 * sleeper.py under 3.9.18, 3.10.13, 3.11.7, Debian's 3.11.2, 3.12.1 and 3.13.0, recorded with
 * `ncclcheck attach --pid PID --record FILE`), the line-table decoders, hostile images, and the
 * thread summaries.
 */
#include "cmocka_helpers.h"

#include <stdlib.h>

#include "attach/pymem.h"
#include "attach/pystack.h"
#include "attach/stacks.h"
#include "attach/tasks.h"
#include "util/file.h"
#include "util/strbuf.h"

static struct strbuf read_image(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];

	snprintf(path, sizeof(path), "%s/pystack/%s", FIXTURES_DIR, name);
	if (file_read(path, &sb, 1 << 24, NULL) < 0)
		fail_msg("cannot read %s", path);
	return sb;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* A thread whose innermost frame is `func`, or NULL. */
static const struct py_thread *thread_in(const struct py_stacks *s, const char *func)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].nframes && !strcmp(s->threads[i].frames[0].func, func))
			return &s->threads[i];
	return NULL;
}

static void expect_frame(const struct py_frame *f, const char *func, const char *file, int line)
{
	assert_string_equal(f->func, func);
	assert_string_equal(base(f->file), file);
	assert_int_equal(f->line, line);
}

static void check_image(const char *name, unsigned minor, int qualname)
{
	struct strbuf img = read_image(name);
	struct attach_stacks a;
	struct err e = ERR_INIT;
	const struct py_thread *main_th, *locker;
	struct strbuf phrase = STRBUF_INIT;

	assert_int_equal(attach_stacks_from_image(img.buf, img.len, &a, &e), 0);
	assert_int_equal(a.py.status, PY_OK);
	assert_int_equal(a.py.version_hex >> 16 & 0xff, minor);
	assert_int_equal(a.py.nthreads, 2);
	main_th = thread_in(&a.py, "inner_sleep");
	assert_non_null(main_th);
	assert_int_equal(main_th->nframes, 3);
	expect_frame(&main_th->frames[0], "inner_sleep", "sleeper.py", 9);
	expect_frame(&main_th->frames[1], "outer", "sleeper.py", 11);
	expect_frame(&main_th->frames[2], "<module>", "sleeper.py", 21);
	assert_string_equal(main_th->note, "");
	locker = thread_in(&a.py, "blocked");
	assert_non_null(locker);
	expect_frame(&locker->frames[0], "blocked", "sleeper.py", 18);
	/* threading's frames below it: Thread.run where co_qualname exists (3.11+), run before */
	assert_true(locker->nframes >= 3);
	assert_string_equal(locker->frames[1].func, qualname ? "Thread.run" : "run");
	assert_string_equal(base(locker->frames[1].file), "threading.py");
	/* the verdict's phrase: the main thread (the last the interpreter lists) */
	attach_stacks_phrase(&a, 2, &phrase);
	assert_string_equal(phrase.buf, "in outer (sleeper.py:11) → inner_sleep (sleeper.py:9)");
	strbuf_release(&phrase);
	attach_stacks_release(&a);
	strbuf_release(&img);
}

static void test_image_39(void **state) { (void)state; check_image("py39.img", 9, 0); }
static void test_image_310(void **state) { (void)state; check_image("py310.img", 10, 0); }
static void test_image_311(void **state) { (void)state; check_image("py311.img", 11, 1); }
static void test_image_311_debian(void **state)
{
	(void)state;
	check_image("py311_debian.img", 11, 1);
}
static void test_image_312(void **state) { (void)state; check_image("py312.img", 12, 1); }
static void test_image_313(void **state) { (void)state; check_image("py313.img", 13, 1); }

/* The JSON the text and --json both render: outermost first. */
static void test_json_order(void **state)
{
	struct strbuf img = read_image("py312.img");
	struct attach_stacks a;
	struct err e = ERR_INIT;
	json_t *j, *threads, *frames = NULL;
	size_t i;
	json_t *t;

	(void)state;
	assert_int_equal(attach_stacks_from_image(img.buf, img.len, &a, &e), 0);
	j = attach_stacks_json(&a);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "python"),
							       "version")), "3.12.1");
	threads = json_object_get(j, "threads");
	json_array_foreach(threads, i, t) {
		json_t *fr = json_object_get(t, "frames");
		if (json_array_size(fr) == 3)
			frames = fr;
	}
	assert_non_null(frames);
	assert_string_equal(json_string_value(json_object_get(json_array_get(frames, 0), "function")),
			    "<module>");
	assert_string_equal(json_string_value(json_object_get(json_array_get(frames, 2), "function")),
			    "inner_sleep");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(frames, 2), "line")), 9);
	json_decref(j);
	attach_stacks_release(&a);
	strbuf_release(&img);
}

/* Local ranks grouped by their main thread's stack: the spinning one stands apart, last. */
static void test_groups(void **state)
{
	static const char *const names[] = { "py311.img", "py312.img", "py311_spin.img",
					     "py313.img" };
	struct attach_stacks a[4];
	struct strbuf img[4];
	struct stack_group *g;
	struct err e = ERR_INIT;
	size_t ng;

	(void)state;
	for (int i = 0; i < 4; i++) {
		img[i] = read_image(names[i]);
		assert_int_equal(attach_stacks_from_image(img[i].buf, img[i].len, &a[i], &e), 0);
		a[i].pid = 100 + i;
	}
	ng = attach_stack_groups(a, 4, &g);
	assert_int_equal(ng, 2);
	assert_int_equal(g[0].npids, 3);
	assert_string_equal(g[0].stack, "in <module> (sleeper.py:21) → outer (sleeper.py:11) → "
			    "inner_sleep (sleeper.py:9)");
	assert_int_equal(g[1].npids, 1);
	assert_int_equal(g[1].pids[0], 102);
	assert_string_equal(g[1].stack, "in <module> (sleeper.py:21) → spin (sleeper.py:14)");
	attach_stack_groups_release(g, ng);
	for (int i = 0; i < 4; i++) {
		attach_stacks_release(&a[i]);
		strbuf_release(&img[i]);
	}
}

/* Truncated, padded and bit-flipped images: an error or a bounded walk, never a crash. */
static void test_hostile_images(void **state)
{
	struct strbuf img = read_image("py311.img");
	struct attach_stacks a;
	struct err e = ERR_INIT;
	char *copy = malloc(img.len + 8);

	(void)state;
	assert_int_equal(attach_stacks_from_image("NCPYMEM1", 8, &a, &e), -1);
	assert_non_null(strstr(e.msg, "not a memory image"));
	err_clear(&e);
	/* cut inside a segment */
	assert_int_equal(attach_stacks_from_image(img.buf, img.len - 5, &a, &e), -1);
	assert_non_null(strstr(e.msg, "segment"));
	err_clear(&e);
	/* trailing bytes */
	memcpy(copy, img.buf, img.len);
	memset(copy + img.len, 0, 8);
	assert_int_equal(attach_stacks_from_image(copy, img.len + 8, &a, &e), -1);
	err_clear(&e);
	/* every byte after the header flipped in turn: the walk ends, with or without stacks */
	for (size_t i = 40; i < img.len; i += 7) {
		memcpy(copy, img.buf, img.len);
		copy[i] ^= 0x5a;
		if (attach_stacks_from_image(copy, img.len, &a, &e) == 0)
			assert_true(a.py.nthreads <= PY_THREADS_MAX);
		attach_stacks_release(&a);
		err_clear(&e);
	}
	/* a version the tables do not know is refused with the reason */
	memcpy(copy, img.buf, img.len);
	copy[10] = 8;	/* 3.8 */
	assert_int_equal(attach_stacks_from_image(copy, img.len, &a, &e), -1);
	assert_int_equal(a.py.status, PY_UNSUPPORTED);
	assert_non_null(strstr(a.py.error, "3.9 to 3.14"));
	attach_stacks_release(&a);
	/* no version at all */
	memcpy(copy, img.buf, img.len);
	memset(copy + 8, 0, 4);
	assert_int_equal(attach_stacks_from_image(copy, img.len, &a, &e), -1);
	assert_non_null(strstr(a.py.error, "version could not be read"));
	attach_stacks_release(&a);
	free(copy);
	strbuf_release(&img);
}

/* Line tables built by hand from CPython's formats. */
static void test_line_tables(void **state)
{
	/* 3.11+: short form (code 0, 2 units), one-line +1 (code 11, 1 unit, 2 col bytes),
	 * no-columns with line delta -3 (code 13, svarint 7), no location (code 15, 1 unit) */
	static const unsigned char loc[] = { 0x80 | 0 << 3 | 1, 0x05,
		0x80 | 11 << 3 | 0, 0x04, 0x08,
		0x80 | 13 << 3 | 0, 7,
		0x80 | 15 << 3 | 0 };
	/* 3.10: (6 bytes, +0), (4 bytes, +2), (2 bytes, no line) */
	static const unsigned char l310[] = { 6, 0, 4, 2, 2, 0x80 };
	/* 3.9: (0, +1), (8, +1), (4, -1 as 0xff) */
	static const unsigned char l39[] = { 0, 1, 8, 1, 4, 0xff };

	(void)state;
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, 0), 10);
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, 1), 10);
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, 2), 11);
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, 3), 8);
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, 4), 0);
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, 5), 0);
	assert_int_equal(py_linetable_line(loc, sizeof(loc), 10, -1), 0);
	assert_int_equal(py_linetable310_line(l310, sizeof(l310), 5, 0), 5);
	assert_int_equal(py_linetable310_line(l310, sizeof(l310), 5, 7), 7);
	assert_int_equal(py_linetable310_line(l310, sizeof(l310), 5, 10), 0);
	assert_int_equal(py_lnotab_line(l39, sizeof(l39), 20, 0), 21);
	assert_int_equal(py_lnotab_line(l39, sizeof(l39), 20, 7), 21);
	assert_int_equal(py_lnotab_line(l39, sizeof(l39), 20, 8), 22);
	assert_int_equal(py_lnotab_line(l39, sizeof(l39), 20, 12), 21);
}

/* /proc/PID/maps lines: a file (offset, path with a space), an anonymous one, garbage, the last
 * line without its newline */
static void test_maps_lines(void **state)
{
	const char *maps = "7f10a000-7f10b000 r-xp 00002000 08:01 1234   /usr/lib/lib nccl.so.2\n"
			   "7ffc0000-7ffd0000 rw-p 00000000 00:00 0 \n"
			   "not a mapping\n"
			   "55550000-55560000 r--p 00000000 08:01 99 /usr/bin/python3.11";
	struct maps_line ml;
	const char *next;

	(void)state;
	next = maps_line_next(maps, &ml);
	assert_true(ml.start == 0x7f10a000 && ml.end == 0x7f10b000 && ml.offset == 0x2000);
	assert_int_equal(ml.path_len, strlen("/usr/lib/lib nccl.so.2"));
	assert_memory_equal(ml.path, "/usr/lib/lib nccl.so.2", ml.path_len);
	next = maps_line_next(next, &ml);
	assert_true(ml.start == 0x7ffc0000 && ml.path_len == 0);
	next = maps_line_next(next, &ml);
	assert_true(ml.start == ml.end);
	next = maps_line_next(next, &ml);
	assert_null(next);
	assert_int_equal(ml.path_len, strlen("/usr/bin/python3.11"));
}

static void test_task_where(void **state)
{
	struct task_state t = { .tid = 7, .state = 'S', .syscall = 202, .lib = "libc.so.6" };

	(void)state;
#ifdef __x86_64__
	task_where(&t);
	assert_non_null(strstr(t.where, "in a futex"));
#endif
	snprintf(t.lib, sizeof(t.lib), "libnccl.so.2");
	task_where(&t);
	assert_string_equal(t.where, "in libnccl.so.2");
	t.syscall = -1;
	t.state = 'R';
	snprintf(t.lib, sizeof(t.lib), "%s", "");
	task_where(&t);
	assert_string_equal(t.where, "running");
	t = (struct task_state){ .state = 'S', .syscall = -2 };
	task_where(&t);
	assert_string_equal(t.where, "");
	snprintf(t.wchan, sizeof(t.wchan), "do_epoll_wait");
	task_where(&t);
	assert_string_equal(t.where, "waiting in the kernel (do_epoll_wait)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_39),
		cmocka_unit_test(test_image_310),
		cmocka_unit_test(test_image_311),
		cmocka_unit_test(test_image_311_debian),
		cmocka_unit_test(test_image_312),
		cmocka_unit_test(test_image_313),
		cmocka_unit_test(test_json_order),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_hostile_images),
		cmocka_unit_test(test_line_tables),
		cmocka_unit_test(test_maps_lines),
		cmocka_unit_test(test_task_where),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
