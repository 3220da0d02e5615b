/* The bounded pickle reader and the flight-recorder decoder on top of it. */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "attach/fr.h"
#include "attach/pickle.h"
#include "util/strbuf.h"
#include "util/file.h"

static struct strbuf read_fixture(const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];

	snprintf(path, sizeof(path), "%s/attach/%s", FIXTURES_DIR, rel);
	if (file_read(path, &sb, 1 << 24, NULL) < 0)
		fail_msg("cannot read %s", path);
	return sb;
}

#define LOAD(bytes, e) pk_load((bytes), sizeof(bytes) - 1, NULL, (e))

static void test_scalars_and_containers(void **state)
{
	/* {"a": [1, -2, 300, 70000, None, True], "b": ("x", 1.5)} by hand, protocol 2 */
	static const char p[] =
		"\x80\x02}q\x00(X\x01\x00\x00\x00" "a" "q\x01]q\x02(K\x01J\xfe\xff\xff\xff"
		"M,\x01J\x70\x11\x01\x00N\x88" "eX\x01\x00\x00\x00" "b" "X\x01\x00\x00\x00" "x"
		"G\x3f\xf8\x00\x00\x00\x00\x00\x00\x86u.";
	struct err e = ERR_INIT;
	struct pk_doc *d = LOAD(p, &e);
	const struct pk_value *a, *b;

	(void)state;
	assert_non_null(d);
	a = pk_get(pk_root(d), "a");
	assert_non_null(a);
	assert_int_equal(a->type, PK_LIST);
	assert_int_equal(a->u.c.n, 6);
	assert_int_equal(a->u.c.items[1]->u.i, -2);
	assert_int_equal(a->u.c.items[2]->u.i, 300);
	assert_int_equal(a->u.c.items[3]->u.i, 70000);
	assert_int_equal(a->u.c.items[4]->type, PK_NONE);
	assert_int_equal(a->u.c.items[5]->u.b, 1);
	b = pk_get(pk_root(d), "b");
	assert_int_equal(b->type, PK_TUPLE);
	assert_string_equal(b->u.c.items[0]->u.str.s, "x");
	assert_true(b->u.c.items[1]->u.f == 1.5);
	assert_null(pk_get(pk_root(d), "c"));
	pk_free(d);
}

static void test_long1_and_memo(void **state)
{
	/* [2**40, -1 via LONG1 one byte, memo get of the first string] */
	static const char p[] =
		"\x80\x02](\x8a\x06\x00\x00\x00\x00\x00\x01\x8a\x01\xff"
		"X\x02\x00\x00\x00hiq\x05h\x05" "e.";
	struct err e = ERR_INIT;
	struct pk_doc *d = LOAD(p, &e);
	const struct pk_value *l;

	(void)state;
	assert_non_null(d);
	l = pk_root(d);
	assert_int_equal(l->u.c.n, 4);
	assert_true(l->u.c.items[0]->u.i == (int64_t)1 << 40);
	assert_int_equal(l->u.c.items[1]->u.i, -1);
	assert_ptr_equal(l->u.c.items[2], l->u.c.items[3]);
	pk_free(d);
}

static void test_torch_type_tags(void **state)
{
	/* older torch: restore_type_tag({...}, "Dict[str, Any]") and build_intlist([1, 2]) */
	static const char p[] =
		"\x80\x02" "ctorch.jit._pickle\nrestore_type_tag\nq\x00"
		"}(X\x01\x00\x00\x00k" "ctorch.jit._pickle\nbuild_intlist\nq\x01(](K\x01K\x02" "et" "R" "u"
		"X\x0e\x00\x00\x00" "Dict[str, Any]" "\x86R.";
	struct err e = ERR_INIT;
	struct pk_doc *d = LOAD(p, &e);
	const struct pk_value *k;

	(void)state;
	if (!d)
		fail_msg("%s", e.msg);
	k = pk_get(pk_root(d), "k");
	assert_non_null(k);
	assert_int_equal(k->type, PK_LIST);
	assert_int_equal(k->u.c.n, 2);
	pk_free(d);
}

static void expect_reject(const char *p, size_t n, const char *why)
{
	struct err e = ERR_INIT;
	struct pk_doc *d = pk_load(p, n, NULL, &e);

	if (d) {
		pk_free(d);
		fail_msg("accepted a pickle that should fail with '%s'", why);
	}
	if (!strstr(e.msg, why))
		fail_msg("error '%s' does not say '%s'", e.msg, why);
}

#define REJECT(lit, why) expect_reject(lit, sizeof(lit) - 1, why)

static void test_malicious(void **state)
{
	static char deep[256];

	(void)state;
	REJECT("\x80\x02" "cos\nsystem\n(X\x02\x00\x00\x00idtR.", "GLOBAL");
	REJECT("\x80\x02" "X\x05\x00\x00\x00posix" "X\x06\x00\x00\x00system\x93.", "GLOBAL");
	REJECT("\x80\x02h\x07.", "memo get");
	REJECT("\x80\x02X\xff\xff\xff\x7f" "abc.", "cap");
	REJECT("\x80\x02X\x10\x00\x00\x00" "abc", "truncated");
	REJECT("\x80\x02]q\x00", "ended before STOP");
	REJECT("\x80\x02K\x01K\x02.", "STOP with other");
	REJECT("\x80\x02}K\x01u.", "no MARK");
	REJECT("\x80\x02}(K\x01u.", "odd number");
	REJECT("\x80\x02}(]K\x01u.", "unhashable");
	REJECT("\x80\x02" "(S'x'\n.", "unsupported opcode");
	REJECT("\x80\x09N.", "protocol");
	REJECT("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.", "wider than 64");
	REJECT("{}", "not a binary pickle");
	deep[0] = '\x80';
	deep[1] = 2;
	memset(deep + 2, '(', 200);
	expect_reject(deep, 202, "nesting");
}

static void test_self_reference_is_bounded(void **state)
{
	/* l = []; l.append(l): loads (it is valid), and the decoder rejects it without looping */
	static const char p[] = "\x80\x02]q\x00h\x00" "a.";
	struct err e = ERR_INIT;
	struct pk_doc *d = LOAD(p, &e);
	struct fr_dump *fd;

	(void)state;
	assert_non_null(d);
	assert_ptr_equal(pk_root(d)->u.c.items[0], pk_root(d));
	pk_free(d);
	fd = fr_dump_parse(p, sizeof(p) - 1, 0, "x", &e);
	assert_null(fd);
	assert_non_null(strstr(e.msg, "not a dict"));
}

static void test_fr_fixture(void **state)
{
	struct strbuf sb = read_fixture("fr/sleep/nccl_trace_rank_1");
	struct err e = ERR_INIT;
	struct fr_dump *d = fr_dump_parse(sb.buf, sb.len, 1, "rank1", &e);
	const struct fr_entry *en;

	(void)state;
	if (!d)
		fail_msg("%s", e.msg);
	assert_string_equal(d->version, "2.10");
	assert_string_equal(d->comm_lib_version, "2.28.9");
	assert_int_equal(d->npgs, 1);
	assert_string_equal(d->pgs[0].desc, "default_pg");
	assert_int_equal(d->pgs[0].nrank_list, 2);
	assert_int_equal(d->nstatus, 1);
	assert_int_equal(d->status[0].last_completed, 5);
	assert_int_equal(d->nentries, 5);
	en = &d->entries[4];
	assert_int_equal(en->collective_seq_id, 5);
	assert_string_equal(en->profiling_name, "nccl:all_reduce");
	assert_string_equal(fr_op_name(en), "all_reduce");
	assert_string_equal(en->input_sizes, "[[1048576]]");
	assert_string_equal(en->input_dtypes, "Float");
	assert_int_equal(en->state, FR_COMPLETED);
	assert_int_equal(en->nframes, 5);
	assert_string_equal(en->frames[2].name, "load_batch");
	assert_int_equal(en->frames[2].line, 55);
	assert_true(en->has_duration);
	fr_dump_free(d);
	strbuf_release(&sb);
}

/* Every prefix of a real dump fails cleanly; every single-byte corruption never crashes. */
static void test_fr_truncations_and_flips(void **state)
{
	struct strbuf sb = read_fixture("fr/no_dump/nccl_trace_rank_0");	/* protocol 4 */
	struct err e = ERR_INIT;
	struct fr_dump *d = fr_dump_parse(sb.buf, sb.len, 0, "x", &e);

	(void)state;
	if (!d)
		fail_msg("protocol 4 dump: %s", e.msg);
	fr_dump_free(d);
	for (size_t n = 0; n < sb.len; n++) {
		d = fr_dump_parse(sb.buf, n, 0, "x", &e);
		if (d)
			fail_msg("a dump cut at %zu of %zu bytes was accepted", n, sb.len);
	}
	for (size_t i = 2; i < sb.len; i += 3) {
		char saved = sb.buf[i];
		sb.buf[i] = (char)(saved ^ 0x5a);
		fr_dump_free(fr_dump_parse(sb.buf, sb.len, 0, "x", &e));
		sb.buf[i] = saved;
	}
	strbuf_release(&sb);
}

static void test_fr_wrong_types(void **state)
{
	struct err e = ERR_INIT;
	/* {"version": "2.10", "entries": [{"pg_id": "0"}]}: a string where an int belongs */
	static const char p[] =
		"\x80\x02}(X\x07\x00\x00\x00versionX\x04\x00\x00\x00" "2.10"
		"X\x07\x00\x00\x00" "entries](}(X\x0d\x00\x00\x00process_group"
		"X\x01\x00\x00\x00" "0X\x01\x00\x00\x00" "d\x86X\x05\x00\x00\x00stateX\x09\x00\x00\x00scheduled"
		"X\x05\x00\x00\x00pg_idX\x01\x00\x00\x00" "0ueu.";
	static const char v1[] = "\x80\x02}(X\x07\x00\x00\x00versionX\x03\x00\x00\x00" "1.0u.";

	(void)state;
	assert_null(fr_dump_parse(p, sizeof(p) - 1, 0, "x", &e));
	assert_non_null(strstr(e.msg, "entries[0]"));
	assert_null(fr_dump_parse(v1, sizeof(v1) - 1, 0, "x", &e));
	assert_non_null(strstr(e.msg, "not 2.x"));
}

/* Python pickles a repeated object once: 100000 entries x 1000 frames x 4 KB from 400 KB */
static void test_fr_memo_bomb(void **state)
{
	struct strbuf sb = read_fixture("fr_bad/memo_bomb");
	struct err e = ERR_INIT;
	struct fr_dump *d;

	(void)state;
	assert_true(sb.len < 1 << 20);
	d = fr_dump_parse(sb.buf, sb.len, 0, "bomb", &e);
	assert_null(d);
	if (!strstr(e.msg, "expands beyond"))
		fail_msg("unexpected error: %s", e.msg);
	strbuf_release(&sb);
}

static void test_fr_load_dir(void **state)
{
	struct fr_set set = { 0 };
	struct err e = ERR_INIT;
	char dir[4096];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/attach/fr/no_dump", FIXTURES_DIR);
	assert_int_equal(fr_load_dir(dir, "nccl_trace_rank_", 100, 1 << 20, &set, &e), 0);
	assert_int_equal(set.n, 2);
	assert_int_equal(set.v[0]->rank, 0);
	assert_int_equal(set.v[1]->rank, 2);
	fr_set_release(&set);
	assert_int_equal(fr_load_dir(dir, "other_", 100, 1 << 20, &set, &e), 0);
	assert_int_equal(set.n, 0);
	fr_set_release(&set);
	assert_int_equal(fr_load_dir(dir, NULL, 100, 100, &set, &e), 0);
	assert_int_equal(set.n, 0);
	assert_int_equal(set.nbad, 2);	/* larger than the 100-byte cap */
	fr_set_release(&set);
	assert_int_equal(fr_load_dir("/nonexistent/fr", NULL, 1, 1, &set, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars_and_containers),
		cmocka_unit_test(test_long1_and_memo),
		cmocka_unit_test(test_torch_type_tags),
		cmocka_unit_test(test_malicious),
		cmocka_unit_test(test_self_reference_is_bounded),
		cmocka_unit_test(test_fr_fixture),
		cmocka_unit_test(test_fr_truncations_and_flips),
		cmocka_unit_test(test_fr_wrong_types),
		cmocka_unit_test(test_fr_memo_bomb),
		cmocka_unit_test(test_fr_load_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
