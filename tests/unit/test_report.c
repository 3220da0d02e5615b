/* report/: findings model, text and JSON rendering. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "rdv/rdv.h"
#include "report/cluster_text.h"
#include "report/render.h"
#include "rules/cluster_rdv.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/wrap.h"

static struct findings *sample(void)
{
	struct findings *fs = findings_new();
	struct finding *f;

	finding_add(fs, SEV_OK, "compat.driver", "driver 580.82 supports CUDA 13.0");
	f = finding_add(fs, SEV_WARN, "env.nccl_algo_forced", "NCCL_ALGO=Ring is forced globally");
	finding_fix(f, "unset NCCL_ALGO");
	finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCL_ALGO", NULL);
	f = finding_add(fs, SEV_ERROR, "net.bootstrap.wrong_if", "NCCL will bootstrap on eth0");
	finding_export(f, "NCCL_SOCKET_IFNAME", "eth1");
	finding_why(f, "MASTER_ADDR is reached through eth1");
	finding_evidence(f, "eth0 203.0.113.5/24");
	finding_node(f, "node1");
	finding_add(fs, SEV_INFO, "host.container", "running in docker");
	return fs;
}

static void sorts_errors_first_stably(void **state)
{
	struct findings *fs = sample();

	(void)state;
	findings_sort(fs);
	assert_int_equal(fs->v[0]->sev, SEV_ERROR);
	assert_int_equal(fs->v[1]->sev, SEV_WARN);
	assert_int_equal(fs->v[2]->sev, SEV_INFO);
	assert_int_equal(fs->v[3]->sev, SEV_OK);
	assert_int_equal(findings_max(fs), SEV_ERROR);
	assert_int_equal(findings_count(fs, SEV_WARN), 1);
	assert_non_null(findings_find(fs, "env.nccl_algo_forced"));
	assert_null(findings_find(fs, "nope"));
	findings_free(fs);
}

/*
 * finding.h promises a stable order: many findings of each severity, interleaved, keep their
 * insertion order within a severity (an unstable sort, e.g. qsort's, mixes them up here).
 */
static void sort_is_stable(void **state)
{
	struct findings *fs = findings_new();
	static const enum severity order[] = { SEV_INFO, SEV_ERROR, SEV_OK, SEV_WARN };
	int last[4] = { -1, -1, -1, -1 };

	(void)state;
	for (int i = 0; i < 64; i++) {
		char id[32];

		snprintf(id, sizeof(id), "x.%d", i);
		finding_add(fs, order[(i * 7 + i / 5) % 4], id, "%d", i);
	}
	findings_sort(fs);
	for (size_t i = 0; i < fs->n; i++) {
		int k = atoi(fs->v[i]->title);

		if (i)
			assert_true(fs->v[i - 1]->sev >= fs->v[i]->sev);
		/* within a severity: increasing insertion index */
		assert_true(k > last[fs->v[i]->sev]);
		last[fs->v[i]->sev] = k;
	}
	findings_free(fs);
}

/* A folded finding is not counted anywhere: count, max, the summary, the JSON summary. */
static void folded_do_not_count(void **state)
{
	struct findings *fs = findings_new();
	struct finding *root, *f;
	json_t *doc;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	struct render_opts ro = { .roots = 1 };

	(void)state;
	root = finding_add(fs, SEV_ERROR, "link.ports.range", "n1 drops TCP ports 32768-49151 on eth1");
	finding_pair(root, "n1", NULL, "eth1");
	finding_setting_for(root, WHERE_SYSCTL, "n1", "net.ipv4.ip_local_port_range", "49152 60999");
	f = finding_add(fs, SEV_ERROR, "cluster.link.unreachable", "n1's eth1 is unreachable");
	finding_caused_by(f, root);
	f = finding_add(fs, SEV_WARN, "link.ports.blocked", "n1 drops TCP from n0 on eth1");
	finding_caused_by(f, root);
	assert_true(finding_cause_is(f, root));
	assert_int_equal(findings_count(fs, SEV_ERROR), 1);
	assert_int_equal(findings_count(fs, SEV_WARN), 0);
	doc = render_json_doc("cluster", NULL, fs, 1);
	assert_int_equal(jpath_int(doc, "summary.error", -1), 1);
	assert_int_equal(jpath_int(doc, "summary.warn", -1), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		json_array_get(json_object_get(doc, "findings"), 1), "caused_by"), "id")),
		"link.ports.range");
	json_decref(doc);
	m = open_memstream(&buf, &len);
	render_verdict_text(m, fs, &ro, NULL);
	render_findings_text(m, fs, &ro);
	render_summary_line(m, fs, &ro);
	fclose(m);
	/* the verdict, then the fix block with the exact command under its node */
	assert_true(!strncmp(buf, "verdict: n1 drops TCP ports 32768-49151 on eth1; it explains 2 other "
			     "findings (-v lists them)\n", 94));
	/* the value one shell word, quoted as emit_sh_word quotes it */
	assert_non_null(strstr(buf, "  # on n1\n  sysctl -w net.ipv4.ip_local_port_range='49152 60999'\n"));
	assert_null(strstr(buf, "unreachable"));	/* folded: not on the first screen */
	assert_non_null(strstr(buf, "1 error, 0 warnings"));
	free(buf);
	findings_free(fs);
}

/*
 * No token: the fix is a command that runs as printed (no "<...>" to fill in) and makes one
 * secret; the setting stays a placeholder, which the first screen's fix block leaves out rather
 * than print `export NCCLCHECK_TOKEN='<...>'`.
 */
static void auth_none_fix_runs(void **state)
{
	struct findings *fs = findings_new();
	struct rdv_event ev = { .kind = RDV_EV_AUTH_NONE, .rank = -1 };
	struct rdv_opts ro = { .master_host = "10.10.0.10", .master_port = 29500, .nnodes = 2 };
	struct render_opts o = { .roots = 1 };
	const struct finding *f;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	snprintf(ev.msg, sizeof(ev.msg), "no token: any process that reaches port 29500 may join");
	cluster_rdv_findings(&ev, 1, &ro, "10.10.0.10", fs);
	f = findings_find(fs, "cluster.auth.none");
	assert_non_null(f);
	assert_true(f->nfix > 0);
	for (size_t i = 0; i < f->nfix; i++)
		assert_null(strchr(f->fix[i], '<'));
	assert_non_null(strstr(f->fix[0], "printf 'export NCCLCHECK_TOKEN=%s\\n' \"$(head -c 16 "
			       "/dev/urandom | od -An -tx1 | tr -d ' \\n')\""));
	assert_true(setting_placeholder(finding_find_setting(f, "NCCLCHECK_TOKEN")->value));
	m = open_memstream(&buf, &len);
	render_verdict_text(m, fs, &o, NULL);
	render_findings_text(m, fs, &o);
	fclose(m);
	assert_null(strchr(buf, '<'));
	assert_null(strstr(buf, "export NCCLCHECK_TOKEN='"));
	assert_non_null(strstr(buf, "printf 'export NCCLCHECK_TOKEN="));
	free(buf);
	findings_free(fs);
}

/* One wrapping helper: word boundaries, the label's hang, nothing wider, commands that still run. */
static void wrap_fits(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	char *copy, *line, *save;

	(void)state;
	wrap_text(&sb, "       why:   NCCL has no port setting: every listener binds port 0 and the "
		  "kernel picks it from net.ipv4.ip_local_port_range — so a firewall that closes "
		  "part of that range makes init hang\nERROR  short line\n", 60, -1, WRAP_PROSE);
	copy = strdup(sb.buf);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(wrap_cols(line, strlen(line)) <= 60);
		/* continuation lines hang under the label's text, at column 14 */
		if (strncmp(line, "       why:", 11) && strncmp(line, "ERROR", 5))
			assert_true(!strncmp(line, "              ", 14) && line[14] != ' ');
	}
	free(copy);
	assert_non_null(strstr(sb.buf, "\nERROR  short line\n"));
	/* no word was split: every word of the input is still whole */
	assert_non_null(strstr(sb.buf, "net.ipv4.ip_local_port_range"));
	strbuf_reset(&sb);
	wrap_text(&sb, "  iptables -I INPUT -i eth1 -p tcp -s 10.10.0.10,10.10.0.11 --dport 32768:49151 "
		  "-j ACCEPT", 50, 4, WRAP_SHELL);
	for (p = sb.buf; (p = strchr(p, '\n')); p++)
		assert_true(p[-1] == '\\' && p[-2] == ' ');
	assert_true(wrap_cols("\033[1;31mERROR\033[0m — x", 22) == 9);
	strbuf_release(&sb);
}

/*
 * The command a wrapped command still is: each " \" line break and the next line's blanks read as
 * one blank, as the shell reads them; a comment continued on a line of its own ("# " and its next
 * words) is read back as the one comment.
 */
static char *unwrapped(const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = text; *p; p++) {
		size_t blanks = 0;

		if (!strncmp(p, " \\\n", 3) || *p == '\n') {
			const char *q = p + (*p == '\n' ? 1 : 3);

			blanks = strspn(q, " ");
			if (*p == '\n' && strncmp(q + blanks, "# ", 2)) {
				strbuf_addch(&sb, *p);
				continue;
			}
			p = q + blanks + (*p == '\n' ? 2 : 0) - 1;
			strbuf_addch(&sb, ' ');
			continue;
		}
		strbuf_addch(&sb, *p);
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * Each line break of a wrapped command ends its line in " \", and only a command's: a line in a
 * comment ends as it is (a backslash would not continue the comment) and the comment goes on as a
 * comment line of its own. No line is wider than `width` but for one word that is.
 */
static void expect_continued(const char *text, int width)
{
	char *copy = strdup(text), *line, *save = NULL;
	int comment = 0;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line), blanks = strspn(line, " ");

		if (comment)
			assert_true(!strncmp(line + blanks, "# ", 2));
		comment |= !strncmp(line + blanks, "# ", 2) || strstr(line, " # ") != NULL;
		if (comment)
			assert_true(line[n - 1] != '\\');
		else if (*save)
			assert_true(n >= 2 && !strcmp(line + n - 2, " \\"));
		/* a line overflows only with a word wider than the line, its first */
		if (wrap_cols(line, n) > (size_t)width) {
			size_t at = blanks + (!strncmp(line + blanks, "# ", 2) ? 2 : 0), end = at;
			char quote = 0;

			/* the first shell word: to a blank outside quotes */
			for (; line[end] && (quote || line[end] != ' '); end++)
				if (line[end] == '\\' && quote != '\'' && line[end + 1])
					end++;
				else if (line[end] == quote)
					quote = 0;
				else if (!quote && (line[end] == '\'' || line[end] == '"'))
					quote = line[end];
			assert_true(end + 2 > (size_t)width);
		}
	}
	free(copy);
}

static void expect_wraps_to(const char *cmd, int width, const char *whole)
{
	struct strbuf sb = STRBUF_INIT;
	char *back;

	wrap_text(&sb, cmd, width, 4, WRAP_SHELL);
	print_message("%s\n", sb.buf);
	assert_non_null(strchr(sb.buf, '\n'));	/* it did break */
	expect_continued(sb.buf, width);
	back = unwrapped(sb.buf);
	assert_string_equal(back, cmd);
	assert_non_null(strstr(sb.buf, whole));
	free(back);
	strbuf_release(&sb);
}

/* A wrapped command is the same command: no break in a quote, in a comment or in a word. */
static void wrap_shell_keeps_the_command(void **state)
{
	(void)state;
	/* a quoted value: its blanks are not breaks */
	expect_wraps_to("  export NCCL_IB_HCA='mlx5_0 mlx5_1 mlx5_2 mlx5_3 mlx5_4' NCCL_DEBUG=WARN "
			"NCCL_X=1", 40, "'mlx5_0 mlx5_1 mlx5_2 mlx5_3 mlx5_4'");
	expect_wraps_to("  echo \"a \\\" b c d e f g h i j k l m n o p q r s t u\" > /tmp/x y z", 40,
			"\"a \\\" b c d e f g h i j k l m n o p q r s t u\"");
	/* a trailing comment: no backslash after its words; it goes on as a comment line */
	expect_wraps_to("  ip -s link show eth0; ethtool -S eth0 # on node-b: the counters that "
			"name a bad cable", 40, "\n    # ");
	/* a '#' inside a word starts no comment: the line still breaks after it */
	expect_wraps_to("  echo a#b c d e f g h i j k l m n o p q r s t u v w x y z", 40,
			"\n    ");
	/* a word wider than the line is not cut: the line overflows */
	expect_wraps_to("  curl -o /tmp/x https://example.invalid/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			"aaaaaaaaaaaa && echo done", 40,
			"https://example.invalid/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	/* an escaped blank is part of its word */
	expect_wraps_to("  ls /mnt/a\\ b/1 /mnt/a\\ b/22 /mnt/a\\ b/333 /mnt/a\\ b/4444", 40,
			"/mnt/a\\ b/333");
}

/* A quote left open at a line's end (a multi-line value) keeps the next line whole. */
static void wrap_shell_carries_a_quote(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *second = "    c d e f g h i j k l m n o p q r s t' && echo u v w x y z";

	(void)state;
	wrap_text(&sb, "  printf '%s\\n' 'a b\n    c d e f g h i j k l m n o p q r s t' && echo u v w x y z",
		  40, 4, WRAP_SHELL);
	print_message("%s\n", sb.buf);
	assert_non_null(strstr(sb.buf, second));
	strbuf_reset(&sb);
	/* closed on its own line, the next line breaks again */
	wrap_text(&sb, "  echo 'a b'\n  echo c d e f g h i j k l m n o p q r s t u v w x y z", 40, 4,
		  WRAP_SHELL);
	assert_non_null(strstr(sb.buf, " \\\n    "));
	strbuf_release(&sb);
}

/* A fix is wrapped as a command: its comment's words never start a line of a command. */
static void fix_wraps_as_a_command(void **state)
{
	struct findings *fs = findings_new();
	struct finding *f = finding_add(fs, SEV_ERROR, "link.loss", "eth0 on node-b loses frames");
	struct render_opts ro = { .width = 100 };
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int in_fix = 0;

	(void)state;
	finding_fix(f, "ip -s link show eth0; ethtool -S eth0 | grep -iE 'drop|err|crc'   # on node-b: "
		    "the counters that name a bad cable, a dirty fibre or a failing port");
	finding_why(f, "a link that drops frames makes every collective over it wait for "
		    "retransmissions, and the slowest link sets the pace of the whole ring");
	render_findings_text(m, fs, &ro);
	fclose(m);
	print_message("%s", buf);
	/* the comment goes on as a comment line: its words never run as a command */
	assert_non_null(strstr(buf, "# on node-b: the\n              # counters that name a bad cable, "
			       "a dirty fibre or a failing port\n"));
	assert_non_null(strstr(buf, "grep -iE 'drop|err|crc'"));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (strstr(line, "fix:"))
			in_fix = 1;
		else if (strstr(line, "why:"))
			in_fix = 0;
		/* a fix line continues the command or is in its comment, never ends in a backslash */
		if (in_fix)
			assert_true(strchr(line, '#') && line[n - 1] != '\\');
		assert_true(wrap_cols(line, n) <= 100);
	}
	free(buf);
	findings_free(fs);
}

/* A setting's command quotes its value as one shell word, a ' included. */
static void setting_command_quotes(void **state)
{
	struct setting env = { .where = WHERE_ENV, .name = "NCCL_X", .value = "it's a b" };
	struct setting plain = { .where = WHERE_ENV, .name = "NCCL_X", .value = "eth1,eth2" };
	struct setting unset = { .where = WHERE_ENV, .name = "NCCL_X" };
	struct setting sysctl = { .where = WHERE_SYSCTL, .name = "net.ipv4.ip_local_port_range",
				  .value = "50000 51000" };
	struct setting conf = { .where = WHERE_NCCL_CONF, .name = "NCCL_X", .value = "a'b" };
	struct setting two_lines = { .where = WHERE_ENV, .name = "NCCL_X", .value = "a\nb" };
	char cmd[256], tiny[8];

	(void)state;
	assert_int_equal(render_setting_command(&env, cmd, sizeof(cmd)), 1);
	assert_string_equal(cmd, "export NCCL_X='it'\\''s a b'");
	assert_int_equal(render_setting_command(&plain, cmd, sizeof(cmd)), 1);
	assert_string_equal(cmd, "export NCCL_X=eth1,eth2");
	assert_int_equal(render_setting_command(&unset, cmd, sizeof(cmd)), 1);
	assert_string_equal(cmd, "unset NCCL_X");
	assert_int_equal(render_setting_command(&sysctl, cmd, sizeof(cmd)), 1);
	assert_string_equal(cmd, "sysctl -w net.ipv4.ip_local_port_range='50000 51000'");
	assert_int_equal(render_setting_command(&conf, cmd, sizeof(cmd)), 1);
	assert_string_equal(cmd, "echo 'NCCL_X=a'\\''b' >> /etc/nccl.conf");
	/* a command cut short is none, and so is one a newline would split */
	assert_int_equal(render_setting_command(&env, tiny, sizeof(tiny)), 0);
	assert_int_equal(render_setting_command(&two_lines, cmd, sizeof(cmd)), 0);
	conf.value = "eth1";
	assert_int_equal(render_setting_command(&conf, cmd, sizeof(cmd)), 1);
	assert_string_equal(cmd, "echo NCCL_X=eth1 >> /etc/nccl.conf");
}

/* A peer's report without a member prints "?" there, never a NULL. */
static void cluster_text_missing_members(void **state)
{
	json_t *r = json_lit("{\"nodes\":[{\"name\":\"a\"},{}],"
			     "\"links\":[{\"test\":\"bw\",\"error\":\"refused\"}]}");
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	cluster_report_text(r, 1, &sb);
	print_message("%s", sb.buf);
	assert_non_null(strstr(sb.buf, "cluster: 2 nodes: a, ?\n"));
	assert_non_null(strstr(sb.buf, "bw    ? -> ? ?: could not run: refused\n"));
	assert_null(strstr(sb.buf, "(null)"));
	strbuf_release(&sb);
	json_decref(r);
}

static void json_round_trip(void **state)
{
	struct findings *fs = sample(), *back = findings_new();
	json_t *j = findings_to_json(fs), *j2;
	char *a, *b;

	(void)state;
	assert_int_equal(findings_from_json(back, j, NULL, 0), 0);
	j2 = findings_to_json(back);
	a = json_dumps(j, JSON_SORT_KEYS);
	b = json_dumps(j2, JSON_SORT_KEYS);
	assert_string_equal(a, b);
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 2), "node")), "node1");
	free(a);
	free(b);
	json_decref(j);
	json_decref(j2);
	findings_free(fs);
	findings_free(back);

	back = findings_new();
	j = json_lit("[{\"id\":\"x\",\"severity\":\"bogus\",\"title\":\"t\"}]");
	assert_int_equal(findings_from_json(back, j, NULL, 0), -1);
	json_decref(j);
	findings_free(back);
}

static void text_puts_fix_first_and_no_colour(void **state)
{
	struct findings *fs = sample();
	struct render_opts ro = { .color = 0, .verbose = 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char *err, *fix, *why;

	(void)state;
	findings_sort(fs);
	render_findings_text(m, fs, &ro);
	render_summary_line(m, fs, &ro);
	fclose(m);
	err = strstr(buf, "NCCL will bootstrap on eth0");
	fix = strstr(buf, "fix:   export NCCL_SOCKET_IFNAME=eth1");
	why = strstr(buf, "why:");
	assert_non_null(err);
	assert_non_null(fix);
	assert_non_null(why);
	assert_true(err < fix && fix < why);
	assert_null(strchr(buf, '\033'));
	assert_non_null(strstr(buf, "1 error, 1 warning, 1 note, 1 check passed"));
	free(buf);
	findings_free(fs);
}

static void json_doc_has_schema_and_summary(void **state)
{
	struct findings *fs = sample();
	json_t *payload = json_lit("{\"facts\":{\"schema_version\":1}}");
	json_t *doc = render_json_doc("node", payload, fs, 1);

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(doc, "schema_version")), REPORT_SCHEMA_VERSION);
	assert_string_equal(json_string_value(json_object_get(doc, "verb")), "node");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "summary"), "error")), 1);
	assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), 1);
	assert_non_null(json_object_get(doc, "facts"));
	json_decref(doc);
	json_decref(payload);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorts_errors_first_stably),
		cmocka_unit_test(sort_is_stable),
		cmocka_unit_test(folded_do_not_count),
		cmocka_unit_test(wrap_fits),
		cmocka_unit_test(auth_none_fix_runs),
		cmocka_unit_test(wrap_shell_keeps_the_command),
		cmocka_unit_test(wrap_shell_carries_a_quote),
		cmocka_unit_test(fix_wraps_as_a_command),
		cmocka_unit_test(setting_command_quotes),
		cmocka_unit_test(cluster_text_missing_members),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(text_puts_fix_first_and_no_colour),
		cmocka_unit_test(json_doc_has_schema_and_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
