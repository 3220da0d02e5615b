/*
 * The verb layer as a table (perf's builtin-test): every verb of cmd/verbs.c and every
 * subcommand its .subs lists, walked. Each descriptor's --help names every option it has and no
 * option it lacks, fits 100 columns and ends in examples and exit codes; each option's row parses
 * back to its id; the launch options parse the addresses people type.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "ncclcheck.h"

/* Calls fn(v) for every verb and subcommand; returns how many. */
static size_t walk(void (*fn)(const struct verb *v))
{
	size_t n = 0;

	for (size_t i = 0; i < cmd_nverbs; i++) {
		fn(cmd_verbs[i]);
		n++;
		for (size_t k = 0; k < cmd_verbs[i]->nsubs; k++) {
			fn(cmd_verbs[i]->subs[k]);
			n++;
		}
	}
	return n;
}

static char *help_of(const struct verb *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (v->help)
		v->help(f, v);
	else
		cli_help(f, v);
	fclose(f);
	return buf;
}

/* Whether `v` has an option row named `name` (an old spelling counts), or takes it in common. */
static int takes(const struct verb *v, const char *name, size_t len)
{
	if ((v->flags & VERB_JSON) && len == 4 && !strncmp(name, "json", 4))
		return 1;
	if ((v->flags & VERB_HTML) && len == 4 && !strncmp(name, "html", 4))
		return 1;
	if ((v->flags & VERB_TEXT) && ((len == 7 && !strncmp(name, "verbose", 7)) ||
				       (len == 8 && !strncmp(name, "no-color", 8))))
		return 1;
	for (size_t i = 0; v->opts && v->opts[i].name; i++)
		if (strlen(v->opts[i].name) == len && !strncmp(v->opts[i].name, name, len))
			return 1;
	/* lab's page lists its subcommands' options */
	for (size_t k = 0; v->help && k < v->nsubs; k++)
		if (takes(v->subs[k], name, len))
			return 1;
	return 0;
}

/* Whether `text` has `word` not followed by more of an option's name. */
static int names(const char *text, const char *word)
{
	for (const char *p = text; (p = strstr(p, word)); p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", p[strlen(word)]) ||
		    !p[strlen(word)])
			return 1;
	return 0;
}

static void check_help(const struct verb *v)
{
	char *help = help_of(v), *line, *save = NULL, *copy = strdup(help);
	char want[96];

	/* every row is in the page: an option by its name, an old spelling under its option */
	for (size_t i = 0; v->opts && v->opts[i].name; i++) {
		const struct cli_opt *o = &v->opts[i];

		if (o->flags & CLI_OPT_HIDDEN)
			continue;
		snprintf(want, sizeof(want), "%s--%s", o->flags & CLI_OPT_ALIAS ? "(old spelling " : "",
			 o->name);
		if (!names(help, want))
			fail_msg("%s: --help does not name '%s'", v->name, want);
	}
	/* every line fits; every option the synopsis and the option list name is taken */
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int option_row = !strncmp(line, "  -", 3);
		int synopsis = !strncmp(line, "usage:", 6) || !strncmp(line, "       ncclcheck ", 17);
		char *p = line;

		if (strlen(line) > 100)
			fail_msg("%s: a help line of %zu columns: %s", v->name, strlen(line), line);
		if (!option_row && !synopsis)
			continue;
		while ((p = strstr(p, "--"))) {
			size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-_");

			if (len && !takes(v, p + 2, len))
				fail_msg("%s: --help names --%.*s, which it does not take", v->name,
					 (int)len, p + 2);
			p += 2 + len;
			if (option_row)
				break;	/* the option's own name; its help text may name others */
		}
	}
	if (!strstr(help, "\nExamples:\n  "))
		fail_msg("%s: --help has no examples", v->name);
	if (!strstr(help, "\nExit codes: "))
		fail_msg("%s: --help has no exit codes", v->name);
	free(copy);
	free(help);
}

static void test_help(void **state)
{
	(void)state;
	assert_int_equal(cmd_nverbs, 9);
	assert_true(walk(check_help) >= 9 + 2 + 5);
}

/* Each row parses back to its id; ids and short names are unique; the table fits the parser. */
static void check_parse(const struct verb *v)
{
	struct cli c;
	size_t n = 0;

	for (size_t i = 0; v->opts && v->opts[i].name; i++, n++) {
		const struct cli_opt *o = &v->opts[i];
		char opt[96], val[] = "1";
		char *argv[] = { (char *)v->name, opt, o->arg ? val : NULL, NULL };
		int id;

		assert_true(o->id > 0);
		for (size_t j = 0; j < i; j++) {
			if (v->opts[j].id == o->id && !((o->flags | v->opts[j].flags) & CLI_OPT_ALIAS))
				fail_msg("%s: --%s and --%s share id %d", v->name, o->name,
					 v->opts[j].name, o->id);
			if (o->short_name && v->opts[j].short_name == o->short_name)
				fail_msg("%s: two options are -%c", v->name, o->short_name);
		}
		snprintf(opt, sizeof(opt), "--%s", o->name);
		cli_start(&c, v, o->arg ? 3 : 2, argv);
		id = cli_next(&c);
		if (id != o->id)
			fail_msg("%s: --%s parsed as %d, not %d", v->name, o->name, id, o->id);
		if (o->arg)
			assert_string_equal(c.arg, "1");
		assert_int_equal(cli_next(&c), CLI_END);
	}
	assert_true(n + 4 <= CLI_OPTS_MAX);
	{
		char *argv[] = { (char *)v->name, (char *)"--no-such-option", NULL };

		cli_start(&c, v, 2, argv);
		assert_int_equal(cli_next(&c), CLI_STOP);
		assert_int_equal(c.code, EXIT_USAGE);
	}
}

static void test_parse(void **state)
{
	(void)state;
	walk(check_parse);
}

/* parse_one("--master", "h:1", &l): what cli_launch_option() makes of one option */
static int parse_one(const char *name, const char *val, struct cli_launch *l)
{
	static const struct cli_opt opts[] = { CLI_ROW_MASTER, CLI_ROW_NODES, CLI_ROW_NODE_RANK,
					       CLI_ROW_NPROC, { 0 } };
	static const struct verb v = { .name = "test", .summary = "test", .opts = opts };
	char *argv[] = { (char *)"test", (char *)name, (char *)val, NULL };
	struct cli c;
	int id;

	cli_launch_init(l);
	cli_start(&c, &v, 3, argv);
	id = cli_next(&c);
	assert_true(id > 0);
	return cli_launch_option(&c, id, l);
}

static void test_launch_options(void **state)
{
	struct cli_launch l;

	(void)state;
	assert_int_equal(parse_one("--master", "10.0.0.1:29500", &l), 1);
	assert_string_equal(l.master_addr, "10.0.0.1");
	assert_int_equal(l.master_port, 29500);
	assert_string_equal(l.master, "10.0.0.1:29500");
	assert_int_equal(parse_one("--master", "[fd00::1]:6000", &l), 1);
	assert_string_equal(l.master_addr, "fd00::1");
	assert_int_equal(l.master_port, 6000);
	assert_int_equal(parse_one("--master", "fd00::1", &l), 1);	/* bare v6, no port */
	assert_string_equal(l.master_addr, "fd00::1");
	assert_int_equal(l.master_port, 0);
	assert_int_equal(parse_one("--master", "node-0", &l), 1);
	assert_int_equal(l.master_port, 0);
	assert_int_equal(parse_one("--master", "h:0", &l), CLI_STOP);
	assert_int_equal(parse_one("--master", "h:99999", &l), CLI_STOP);
	assert_int_equal(parse_one("--master", ":29500", &l), CLI_STOP);
	assert_int_equal(parse_one("--master", "[fd00::1", &l), CLI_STOP);
	assert_int_equal(parse_one("--nodes", "2", &l), 1);
	assert_int_equal(l.nodes, 2);
	assert_int_equal(l.node_rank, -1);
	assert_int_equal(parse_one("--nodes", "0", &l), CLI_STOP);
	assert_int_equal(parse_one("--node-rank", "0", &l), 1);
	assert_int_equal(l.node_rank, 0);
	assert_int_equal(parse_one("--node-rank", "-1", &l), CLI_STOP);
	assert_int_equal(parse_one("--nproc-per-node", "8", &l), 1);
	assert_int_equal(l.nproc_per_node, 8);
	assert_int_equal(parse_one("--nproc-per-node", "0", &l), CLI_STOP);
}

/* The subcommand argv[1] names; a verb's own words (bench's COLLECTIVE) are none. */
static void test_subcommands(void **state)
{
	char *p2p[] = { (char *)"bench", (char *)"p2p", NULL };
	char *coll[] = { (char *)"bench", (char *)"allreduce", NULL };
	char *none[] = { (char *)"lab", NULL };
	char *typo[] = { (char *)"lab", (char *)"statu", NULL };

	(void)state;
	assert_ptr_equal(cli_sub(&verb_bench, 2, p2p), &verb_bench_p2p);
	assert_null(cli_sub(&verb_bench, 2, coll));
	assert_int_equal(cli_select(&verb_lab, 1, none), EXIT_USAGE);
	assert_int_equal(cli_select(&verb_lab, 2, typo), EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_launch_options),
		cmocka_unit_test(test_subcommands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
