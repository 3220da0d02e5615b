/* util/subproc: deadlines, output caps, crashes in isolated children. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "util/subproc.h"

static void runs_and_captures(void **state)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct subproc_result r;

	(void)state;
	subproc_result_init(&r);
	assert_int_equal(subproc_run(argv, NULL, 5000, 1024, &r, NULL), 0);
	assert_true(r.exited);
	assert_int_equal(r.status, 3);
	assert_string_equal(r.out.buf, "out\n");
	assert_string_equal(r.errout.buf, "err\n");
	subproc_result_release(&r);
}

static void deadline_kills_the_group(void **state)
{
	/* the grandchild keeps the pipe open: the deadline must still hold */
	char *argv[] = { "sh", "-c", "sleep 30 & sleep 30", NULL };
	struct subproc_result r;

	(void)state;
	subproc_result_init(&r);
	assert_int_equal(subproc_run(argv, NULL, 300, 1024, &r, NULL), 0);
	assert_true(r.timed_out);
	assert_false(r.exited);
	assert_true(r.elapsed_ms < 5000);
	subproc_result_release(&r);
}

static void output_is_capped(void **state)
{
	char *argv[] = { "sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x", NULL };
	struct subproc_result r;

	(void)state;
	subproc_result_init(&r);
	assert_int_equal(subproc_run(argv, NULL, 10000, 1000, &r, NULL), 0);
	assert_int_equal(r.out.len, 1000);
	assert_true(r.exited);
	subproc_result_release(&r);
}

static void env_is_added(void **state)
{
	char *argv[] = { "sh", "-c", "printf %s \"$NCCLCHECK_T\"", NULL };
	char *env[] = { "NCCLCHECK_T=hello", NULL };
	struct subproc_result r;

	(void)state;
	subproc_result_init(&r);
	assert_int_equal(subproc_run(argv, env, 5000, 100, &r, NULL), 0);
	assert_string_equal(r.out.buf, "hello");
	subproc_result_release(&r);
}

static int crashes(void *arg, int fd)
{
	(void)arg;
	assert_true(write(fd, "partial", 7) == 7);
	raise(SIGKILL); /* uncatchable, unlike SIGSEGV under ASan */
	return 0;
}

static int answers(void *arg, int fd)
{
	return write(fd, arg, strlen(arg)) > 0 ? 0 : 1;
}

static void fork_isolates_crashes(void **state)
{
	struct subproc_result r;

	(void)state;
	subproc_result_init(&r);
	assert_int_equal(subproc_fork(crashes, NULL, 5000, 100, &r, NULL), 0);
	assert_false(r.exited);
	assert_int_equal(r.status, SIGKILL);
	assert_string_equal(r.out.buf, "partial");
	subproc_result_release(&r);

	subproc_result_init(&r);
	assert_int_equal(subproc_fork(answers, "22809", 5000, 100, &r, NULL), 0);
	assert_true(r.exited);
	assert_string_equal(r.out.buf, "22809");
	subproc_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_and_captures),
		cmocka_unit_test(deadline_kills_the_group),
		cmocka_unit_test(output_is_capped),
		cmocka_unit_test(env_is_added),
		cmocka_unit_test(fork_isolates_crashes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
