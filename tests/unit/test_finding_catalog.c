/*
 * The finding-id catalogue (src/finding_catalog.c) against the code, the tests and the docs, by
 * reading the sources:
 *  - every id literal that code passes to an emitter (finding_add, explain's rs_add, envlint's
 *    add) is a catalogue row or an explain signature (explain/sigs.c rows carry their own);
 *    so is any id-shaped literal anywhere under src/ in a namespace whose ids come from tables
 *    and switches (`table_namespaces`: explain.*, cluster.*, link.*, ...), so that an id picked at
 *    run time or by a renamed emitter cannot hide;
 *  - every row is emitted by some code and asserted by some test (tests/unit, tests/integration,
 *    tests/fixtures outside the facts documents);
 *  - docs/findings.md has exactly one section per row, whose first line is "**sev**: summary",
 *    and whose "- Code:" line names the source files that make it (each holds the id literal),
 *    so that any id's code is one hop from its section.
 * When an emitter is renamed or added, add it to `emitters` below.
 */
#include "cmocka_helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "explain/sigs.h"
#include "finding_catalog.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Calls whose argument `id_arg` (0-based) is a finding id; `first`, when set, must be arg 0. */
static const struct {
	const char *name;
	int id_arg;
	const char *first;
} emitters[] = {
	{ "finding_add", 2, NULL },
	{ "rs_add", 1, NULL },		/* explain/reason*.c */
	{ "add", 2, "l" },		/* rules/envlint.c: add(l, sev, id, setting, fmt, ...) */
};

struct strs {
	char **v;
	size_t n, alloc;
};

static void strs_add(struct strs *s, const char *p, size_t len)
{
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = xstrndup(p, len);
}

static int strs_has(const struct strs *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 1;
	return 0;
}

static void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static char root[4096];

static void find_root(void)
{
	char *p;

	snprintf(root, sizeof(root), "%s", FIXTURES_DIR);
	p = strstr(root, "/tests/fixtures");
	if (!p)
		fail_msg("FIXTURES_DIR '%s' is not under tests/fixtures", FIXTURES_DIR);
	*p = '\0';
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;

	if (!f)
		fail_msg("cannot read %s", path);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb, NULL);
}

/* Every regular file under `dir` whose name ends with one of `exts` ("" = any), except `skip`. */
static void walk(const char *dir, const char *const *exts, const char *skip, struct strs *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		size_t ln = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!skip || !strstr(path, skip))
				walk(path, exts, skip, out);
			continue;
		}
		if (skip && strstr(path, skip))
			continue;
		for (const char *const *e = exts; *e; e++) {
			size_t le = strlen(*e);
			if (ln >= le && !strcmp(de->d_name + ln - le, *e)) {
				strs_add(out, path, strlen(path));
				break;
			}
		}
	}
	closedir(d);
}

/* Skips a string or character literal starting at s[i]; returns the index after it. */
static size_t skip_literal(const char *s, size_t i)
{
	char q = s[i++];

	while (s[i] && s[i] != q) {
		if (s[i] == '\\' && s[i + 1])
			i++;
		i++;
	}
	return s[i] ? i + 1 : i;
}

/*
 * The string literals inside s[a, b), appended to `out` (escapes kept: ids have none). With
 * `top`, only those outside parentheses: in an id argument such as
 * `!strcmp(name, "X") ? "a.b" : "a.c"` the literals of a nested call are not ids.
 */
static void literals_at(const char *s, size_t a, size_t b, int top, struct strs *out)
{
	int depth = 0;

	for (size_t i = a; i < b; i++) {
		if (s[i] == '/' && s[i + 1] == '*') {	/* an apostrophe in a comment is no literal */
			const char *e = strstr(s + i + 2, "*/");
			i = e ? (size_t)(e - s) + 1 : b;
		} else if (s[i] == '/' && s[i + 1] == '/') {
			while (i < b && s[i] != '\n')
				i++;
		} else if (s[i] == '(') {
			depth++;
		} else if (s[i] == ')') {
			depth--;
		} else if (s[i] == '\'') {
			i = skip_literal(s, i) - 1;
		} else if (s[i] == '"') {
			size_t e = skip_literal(s, i);
			if (!top || depth <= 0)
				strs_add(out, s + i + 1, e - i - 2);
			i = e - 1;
		}
	}
}

static void literals(const char *s, size_t a, size_t b, struct strs *out)
{
	literals_at(s, a, b, 0, out);
}

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The id literals of every emitter call in source `s` (comments and literals skipped). */
static void scan_calls(const char *s, const char *path, struct strs *ids)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '/' && s[i + 1] == '*') {
			const char *e = strstr(s + i + 2, "*/");
			i = e ? (size_t)(e - s) + 1 : len;
			continue;
		}
		if (s[i] == '/' && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		if (s[i] == '"' || s[i] == '\'') {
			i = skip_literal(s, i) - 1;
			continue;
		}
		if (i && ident_char(s[i - 1]))
			continue;
		for (size_t k = 0; k < sizeof(emitters) / sizeof(emitters[0]); k++) {
			size_t nl = strlen(emitters[k].name), j, start[16], end[16];
			int depth = 1, arg = 0;

			if (strncmp(s + i, emitters[k].name, nl) || s[i + nl] != '(')
				continue;
			/* split the argument list at top-level commas */
			j = i + nl + 1;
			start[0] = j;
			while (j < len && depth > 0 && arg < 15) {
				if (s[j] == '"' || s[j] == '\'') {
					j = skip_literal(s, j);
					continue;
				}
				if (s[j] == '(' || s[j] == '[' || s[j] == '{')
					depth++;
				else if (s[j] == ')' || s[j] == ']' || s[j] == '}')
					depth--;
				else if (s[j] == ',' && depth == 1) {
					end[arg] = j;
					start[++arg] = j + 1;
				}
				j++;
			}
			end[arg] = j - 1;
			if (arg < emitters[k].id_arg)
				continue;	/* a declaration or a call with fewer arguments */
			if (emitters[k].first) {
				char a0[64];
				size_t a = start[0], b = end[0];
				while (a < b && s[a] == ' ')
					a++;
				snprintf(a0, sizeof(a0), "%.*s", (int)(b - a), s + a);
				if (strcmp(a0, emitters[k].first))
					continue;
			}
			{
				size_t before = ids->n;
				literals_at(s, start[emitters[k].id_arg], end[emitters[k].id_arg], 1,
					    ids);
				for (size_t x = before; x < ids->n; x++)
					if (!ids->v[x][0])
						fail_msg("%s: empty finding id", path);
			}
		}
	}
}

/*
 * Namespaces whose emitters pick the id from a table, a switch or a variable (explain's reasoner,
 * attach's verdicts, cluster's rendezvous events and version checks, link's connect statuses):
 * every id-shaped literal of these anywhere under src/ is an id and must be catalogued.
 */
static const char *const table_namespaces[] = {
	"explain.", "attach.", "bench.", "cluster.", "launch.", "link.", "nccl.diag.",
};

static int in_table_namespace(const char *s)
{
	for (size_t i = 0; i < sizeof(table_namespaces) / sizeof(table_namespaces[0]); i++)
		if (!strncmp(s, table_namespaces[i], strlen(table_namespaces[i])))
			return 1;
	return 0;
}

/* Dotted lower-case words: "cluster.rdv.missing", not "link.connect.%s" or a sentence. */
static int id_shaped(const char *s)
{
	int dot = 1;

	for (; *s; s++) {
		if (*s == '.') {
			if (dot)
				return 0;
			dot = 1;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_') {
			dot = 0;
		} else {
			return 0;
		}
	}
	return !dot;
}

static const char *const c_ext[] = { ".c", NULL };

static void test_catalogue_is_sane(void **state)
{
	(void)state;
	assert_true(finding_catalog_count > 100);
	for (size_t i = 0; i < finding_catalog_count; i++) {
		const struct finding_kind *k = &finding_catalog[i];

		assert_non_null(k->summary);
		assert_true(strlen(k->summary) > 10);
		assert_ptr_equal(finding_catalog_find(k->id), k);	/* no duplicate */
		if (explain_sig_find(k->id))
			fail_msg("'%s' is an explain signature: its sigs.c row is its catalogue entry", k->id);
	}
	assert_null(finding_catalog_find("no.such.id"));
}

static void test_code_matches_catalogue(void **state)
{
	struct strs files = { 0 }, ids = { 0 }, all = { 0 };
	char dir[4200];

	(void)state;
	find_root();
	snprintf(dir, sizeof(dir), "%s/src", root);
	walk(dir, c_ext, "/finding_catalog.c", &files);
	assert_true(files.n > 50);
	for (size_t i = 0; i < files.n; i++) {
		char *s = slurp(files.v[i]);
		size_t before = ids.n;

		scan_calls(s, files.v[i], &ids);
		for (size_t j = before; j < ids.n; j++)
			if (!finding_catalog_find(ids.v[j]) && !explain_sig_find(ids.v[j]))
				fail_msg("%s emits '%s', which is not in src/finding_catalog.c", files.v[i],
					 ids.v[j]);
		literals(s, 0, strlen(s), &all);
		free(s);
	}
	/* ids of the namespaces built from tables and switches, however they are emitted */
	for (size_t j = 0; j < all.n; j++)
		if (in_table_namespace(all.v[j]) && id_shaped(all.v[j]) &&
		    !finding_catalog_find(all.v[j]) && !explain_sig_find(all.v[j]))
			fail_msg("'%s' looks like a finding id and is not catalogued", all.v[j]);
	for (size_t i = 0; i < finding_catalog_count; i++)
		if (!strs_has(&ids, finding_catalog[i].id) && !strs_has(&all, finding_catalog[i].id))
			fail_msg("catalogue row '%s' is emitted by nothing under src/", finding_catalog[i].id);
	strs_free(&files);
	strs_free(&ids);
	strs_free(&all);
}

/* `id` written in a test: as it is, or as a regex with escaped dots. */
static int mentions(const char *text, const char *id)
{
	char re[256];
	size_t n = 0;

	if (strstr(text, id))
		return 1;
	for (const char *p = id; *p && n + 3 < sizeof(re); p++) {
		if (*p == '.')
			re[n++] = '\\';
		re[n++] = *p;
	}
	re[n] = '\0';
	return strstr(text, re) != NULL;
}

static void test_every_id_is_tested(void **state)
{
	static const char *const exts[] = { ".c", ".sh", ".log", ".txt", ".json", ".expect", "", NULL };
	struct strs files = { 0 };
	struct strbuf text = STRBUF_INIT;
	char dir[4200];

	(void)state;
	find_root();
	snprintf(dir, sizeof(dir), "%s/tests/unit", root);
	walk(dir, c_ext, "/test_finding_catalog.c", &files);
	snprintf(dir, sizeof(dir), "%s/tests/integration", root);
	walk(dir, exts, NULL, &files);
	/* expected outputs count; facts documents (which may carry saved findings) do not */
	snprintf(dir, sizeof(dir), "%s/tests/fixtures", root);
	walk(dir, exts, "/fixtures/facts", &files);
	for (size_t i = 0; i < files.n; i++) {
		char *s = slurp(files.v[i]);
		strbuf_addstr(&text, s);
		strbuf_addch(&text, '\n');
		free(s);
	}
	for (size_t i = 0; i < finding_catalog_count; i++)
		if (!mentions(text.buf, finding_catalog[i].id))
			fail_msg("no test under tests/ asserts '%s'", finding_catalog[i].id);
	strbuf_release(&text);
	strs_free(&files);
}

static void test_docs_match_catalogue(void **state)
{
	char path[4200], *doc, *p;
	size_t sections = 0;

	(void)state;
	find_root();
	snprintf(path, sizeof(path), "%s/docs/findings.md", root);
	doc = slurp(path);
	for (p = strstr(doc, "\n## `"); p; p = strstr(p + 1, "\n## `")) {
		char id[128], want[1024], *e = strchr(p + 5, '`'), *line;
		const struct finding_kind *k;

		assert_non_null(e);
		snprintf(id, sizeof(id), "%.*s", (int)(e - (p + 5)), p + 5);
		k = finding_catalog_find(id);
		if (!k)
			fail_msg("docs/findings.md has a section for '%s', which is not catalogued", id);
		sections++;
		line = strstr(e, "\n\n");
		assert_non_null(line);
		line += 2;
		snprintf(want, sizeof(want), "**%s**: %s\n", severity_name(k->sev), k->summary);
		if (strncmp(line, want, strlen(want)))
			fail_msg("docs/findings.md '%s' does not start with the catalogue row: %s", id, want);
		if (!strstr(line, "- Fix: ") || (strstr(line, "\n## ") && strstr(line, "- Fix: ") > strstr(line, "\n## ")))
			fail_msg("docs/findings.md '%s' has no '- Fix:' line", id);
	}
	/* one section per row: with no unknown and no duplicate (find returns the first), counts agree */
	if (sections != finding_catalog_count)
		fail_msg("docs/findings.md has %zu sections for %zu catalogue rows", sections, finding_catalog_count);
	for (size_t i = 0; i < finding_catalog_count; i++) {
		char h[160];
		snprintf(h, sizeof(h), "\n## `%s`\n", finding_catalog[i].id);
		if (!strstr(doc, h))
			fail_msg("docs/findings.md has no section for '%s'", finding_catalog[i].id);
	}
	free(doc);
}

/* Every section's "- Code: `src/...`, ..." line: each named file exists and holds "id". */
static void test_docs_name_the_code(void **state)
{
	char path[4200], *doc, *p;
	size_t sections = 0;

	(void)state;
	find_root();
	snprintf(path, sizeof(path), "%s/docs/findings.md", root);
	doc = slurp(path);
	for (p = strstr(doc, "\n## `"); p; p = strstr(p + 1, "\n## `")) {
		char id[128], lit[140], *e = strchr(p + 5, '`'), *next, *code, *eol;
		size_t named = 0;

		assert_non_null(e);
		snprintf(id, sizeof(id), "%.*s", (int)(e - (p + 5)), p + 5);
		snprintf(lit, sizeof(lit), "\"%s\"", id);
		next = strstr(e, "\n## ");
		code = strstr(e, "\n- Code: ");
		if (!code || (next && code > next))
			fail_msg("docs/findings.md '%s' has no '- Code:' line naming its source file", id);
		code += strlen("\n- Code: ");
		eol = strchr(code, '\n');
		assert_non_null(eol);
		for (char *q = code; q < eol; q++) {
			char rel[512], file[4800], *s, *end;

			if (*q != '`')
				continue;
			end = memchr(q + 1, '`', (size_t)(eol - q - 1));
			if (!end)
				fail_msg("docs/findings.md '%s': unbalanced ` in its Code line", id);
			snprintf(rel, sizeof(rel), "%.*s", (int)(end - q - 1), q + 1);
			if (strncmp(rel, "src/", 4))
				fail_msg("docs/findings.md '%s' names '%s', not a file under src/", id, rel);
			snprintf(file, sizeof(file), "%s/%s", root, rel);
			s = slurp(file);
			if (!strstr(s, lit))
				fail_msg("docs/findings.md '%s' names %s, which does not hold %s", id, rel,
					 lit);
			free(s);
			named++;
			q = end;
		}
		if (!named)
			fail_msg("docs/findings.md '%s': its Code line names no file", id);
		sections++;
	}
	assert_int_equal(sections, finding_catalog_count);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue_is_sane),
		cmocka_unit_test(test_code_matches_catalogue),
		cmocka_unit_test(test_every_id_is_tested),
		cmocka_unit_test(test_docs_match_catalogue),
		cmocka_unit_test(test_docs_name_the_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
