/*
 * The NCCL variable table (model/nccl_vars.c) against the names newer NCCL releases read:
 * tests/fixtures/nccl_vars/<version>.txt lists, one a line, the NCCL_* names of that release's
 * string table. Every one must be a row of the table that upstream NCCL owns, read by that
 * release (since <= version, not gone by it); a name the lint does not know would be reported
 * as 'not an NCCL variable' to a user of that release.
 */
#include "cmocka_helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/nccl_vars.h"
#include "util/version.h"

/* Why the table fails `name` for NCCL `version`, or NULL when it does not. */
static const char *table_fault(const char *name, const char *version)
{
	const struct nccl_var *v = nccl_var_find(name);

	if (!v)
		return "missing from the table";
	if (v->owner != NV_OWN_NCCL)
		return "marked as not upstream NCCL's";
	if (v->since && version_cmp_str(v->since, version) > 0)
		return "marked as introduced after this release";
	if (v->gone && version_cmp_str(v->gone, version) <= 0)
		return "marked as gone by this release";
	return NULL;
}

/* Checks one fixture list; returns the number of names the table fails and prints each. */
static int check_list(FILE *in, const char *version, int *names)
{
	char line[256];
	int faults = 0;

	*names = 0;
	while (fgets(line, sizeof(line), in)) {
		const char *why;

		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		(*names)++;
		why = table_fault(line, version);
		if (why) {
			fprintf(stderr, "NCCL %s reads %s: %s\n", version, line, why);
			faults++;
		}
	}
	return faults;
}

static void test_fixture_lists(void **state)
{
	char dir[512];
	DIR *d;
	struct dirent *e;
	int files = 0, saw_231 = 0, saw_232 = 0, faults = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/nccl_vars", FIXTURES_DIR);
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char path[1024], version[64];
		FILE *in;
		int names;

		if (n < 5 || strcmp(e->d_name + n - 4, ".txt"))
			continue;
		snprintf(version, sizeof(version), "%.*s", (int)(n - 4), e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		in = fopen(path, "r");
		assert_non_null(in);
		faults += check_list(in, version, &names);
		fclose(in);
		assert_true(names > 200); /* a whole string table, not a stub */
		files++;
		saw_231 |= !strcmp(version, "2.31.2");
		saw_232 |= !strcmp(version, "2.32.3");
	}
	closedir(d);
	assert_true(files >= 2);
	assert_true(saw_231 && saw_232);
	assert_int_equal(faults, 0);
}

/* The check itself fails on each kind of fault (a name absent, too new, gone, not NCCL's). */
static void test_check_can_fail(void **state)
{
	static const char list[] = "# a comment\nNCCL_SOCKET_IFNAME\nNCCL_NOT_A_VARIABLE\n"
				   "NCCL_PROGRESS_COUNTERS\nNCCL_SHM_MEMCPY_MODE\nNCCL_COLLTRACE\n";
	FILE *in = fmemopen((void *)list, sizeof(list) - 1, "r");
	int names;

	(void)state;
	assert_non_null(in);
	assert_int_equal(check_list(in, "2.31.2", &names), 4);
	assert_int_equal(names, 5);
	fclose(in);
	assert_string_equal(table_fault("NCCL_PROGRESS_COUNTERS", "2.31.2"),
			    "marked as introduced after this release");
	assert_null(table_fault("NCCL_PROGRESS_COUNTERS", "2.32.3"));
	assert_string_equal(table_fault("NCCL_SHM_MEMCPY_MODE", "2.31.2"), "marked as gone by this release");
	assert_string_equal(table_fault("NCCL_COLLTRACE", "2.31.2"), "marked as not upstream NCCL's");
}

/* The rows the 2.31/2.32 lint relies on, with the types their parsers need. */
static void test_rows(void **state)
{
	const struct nccl_var *v;

	(void)state;
	v = nccl_var_find("NCCL_RAS_TIMEOUT_FACTOR");
	assert_non_null(v);
	assert_int_equal(v->type, NV_FLOAT);
	assert_string_equal(v->typed_since, "2.31.2");
	assert_string_equal(v->def, "1");
	v = nccl_var_find("NCCL_DEBUG");
	assert_non_null(v);
	assert_non_null(strstr(v->values, "ATTN"));
	assert_string_equal(nccl_var_find("NCCL_DEBUG_LEVELS")->since, "2.32.3");
	assert_int_equal(nccl_var_find("NCCL_SOCKET_IPADDR_PREFIX")->owner, NV_OWN_NCCLX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_lists),
		cmocka_unit_test(test_check_can_fail),
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
