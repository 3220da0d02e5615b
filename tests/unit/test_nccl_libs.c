/*
 * probe/nccl_libs: the ld.so.cache and nccl.conf parsers, the loader's search order, and the
 * probe itself against the fake libnccl variants (a crash and a hang must become "unknown,
 * because ...", never take the run down) and the real CUDA 13 copy on this machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "probe/ldso.h"
#include "probe/ncclconf.h"
#include "probe/probe.h"
#include "util/envmap.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define NATIVE_FLAGS 0x0303

/* Writes a "glibc-ld.so.cache1.1" image with `n` entries into `out`; returns its length. */
static size_t build_cache(unsigned char *out, size_t cap, const char *const *keys,
			  const char *const *vals, const int *flags, size_t n)
{
	size_t strings = 48 + n * 24, o = strings;
	uint32_t nlibs = (uint32_t)n;

	memset(out, 0, cap);
	memcpy(out, "glibc-ld.so.cache1.1", 20);
	memcpy(out + 20, &nlibs, 4);
	for (size_t i = 0; i < n; i++) {
		unsigned char *r = out + 48 + i * 24;
		uint32_t k = (uint32_t)o, v;
		int32_t f = flags[i];

		memcpy(out + o, keys[i], strlen(keys[i]) + 1);
		o += strlen(keys[i]) + 1;
		v = (uint32_t)o;
		memcpy(out + o, vals[i], strlen(vals[i]) + 1);
		o += strlen(vals[i]) + 1;
		memcpy(r, &f, 4);
		memcpy(r + 4, &k, 4);
		memcpy(r + 8, &v, 4);
	}
	assert_true(o <= cap);
	return o;
}

static void cache_synthetic(void **state)
{
	const char *keys[] = { "libnccl.so.2", "libnccl.so.2", "libc.so.6" };
	const char *vals[] = { "/lib32/libnccl.so.2", "/usr/lib/x86_64-linux-gnu/libnccl.so.2",
			       "/lib/x86_64-linux-gnu/libc.so.6" };
	const int flags[] = { 0x0803, NATIVE_FLAGS, NATIVE_FLAGS };
	unsigned char buf[1024];
	size_t len = build_cache(buf, sizeof(buf), keys, vals, flags, 3);
	struct ldcache c;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(ldcache_parse(buf, len, &c, &e), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[1].path, "/usr/lib/x86_64-linux-gnu/libnccl.so.2");
	assert_int_equal(c.v[0].flags, 0x0803);
#if defined(__x86_64__)
	assert_false(ldcache_native(c.v[0].flags)); /* an i386 copy is not for us */
	assert_true(ldcache_native(c.v[1].flags));
#endif
	ldcache_release(&c);
}

static void cache_old_then_new(void **state)
{
	const char *keys[] = { "libnccl.so.2" };
	const char *vals[] = { "/opt/nccl/lib/libnccl.so.2" };
	const int flags[] = { NATIVE_FLAGS };
	unsigned char buf[1024], newpart[512];
	size_t nlen = build_cache(newpart, sizeof(newpart), keys, vals, flags, 1);
	uint32_t nold = 2;
	struct ldcache c;

	(void)state;
	/* old header (16 bytes) + 2 old records (24 bytes) = 40, new table aligned at 40 */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "ld.so-1.7.0", 11);
	memcpy(buf + 12, &nold, 4);
	memcpy(buf + 40, newpart, nlen);
	assert_int_equal(ldcache_parse(buf, 40 + nlen, &c, NULL), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].path, "/opt/nccl/lib/libnccl.so.2");
	ldcache_release(&c);
}

static void cache_rejects_garbage(void **state)
{
	unsigned char buf[256];
	const char *keys[] = { "libnccl.so.2" };
	const char *vals[] = { "/x" };
	const int flags[] = { NATIVE_FLAGS };
	size_t len;
	struct ldcache c;
	struct err e = ERR_INIT;
	uint32_t huge = 0x7fffffff, bad = 100000;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(ldcache_parse(buf, sizeof(buf), &c, &e), -1);
	assert_non_null(strstr(e.msg, "not a glibc ld.so.cache"));
	assert_int_equal(ldcache_parse(buf, 0, &c, &e), -1);
	/* an entry count the file cannot hold */
	len = build_cache(buf, sizeof(buf), keys, vals, flags, 1);
	memcpy(buf + 20, &huge, 4);
	assert_int_equal(ldcache_parse(buf, len, &c, &e), -1);
	/* a string offset outside the file: the entry is dropped, not followed */
	len = build_cache(buf, sizeof(buf), keys, vals, flags, 1);
	memcpy(buf + 48 + 8, &bad, 4);
	assert_int_equal(ldcache_parse(buf, len, &c, &e), 0);
	assert_int_equal(c.n, 0);
	ldcache_release(&c);
	/* an unterminated last string */
	len = build_cache(buf, sizeof(buf), keys, vals, flags, 1);
	assert_int_equal(ldcache_parse(buf, len - 1, &c, &e), 0);
	assert_int_equal(c.n, 0);
	ldcache_release(&c);
}

/* The machine's own cache parses and agrees with `ldconfig -p` on the number of entries. */
static void cache_real(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct ldcache c;
	FILE *p;
	char line[256];
	unsigned long want = 0;

	(void)state;
	if (file_read("/etc/ld.so.cache", &sb, 64u << 20, NULL) < 0)
		skip();
	assert_int_equal(ldcache_parse(sb.buf, sb.len, &c, NULL), 0);
	p = popen("ldconfig -p 2>/dev/null | head -1", "r");
	if (p && fgets(line, sizeof(line), p))
		want = strtoul(line, NULL, 10);
	if (p)
		pclose(p);
	if (want)
		assert_int_equal(c.n, want);
	assert_true(c.n > 10);
	ldcache_release(&c);
	strbuf_release(&sb);
}

static void conf_like_nccl(void **state)
{
	static const char text[] =
		"NCCL_DEBUG=INFO\n"
		"# NCCL_DEBUG=WARN\n"
		"NCCL_SOCKET_IFNAME==eth0\n"
		"NCCL_IB_HCA = mlx5_0\n"
		"no equals sign here\n"
		"=orphan value\n"
		"\n"
		"NCCL_DEBUG=TRACE\n"
		"NCCL_ALGO=Ring\r\n"
		"NCCL_LAST=no newline";
	struct ncclconf c;

	(void)state;
	ncclconf_parse(text, sizeof(text) - 1, &c);
	assert_int_equal(c.n, 6);
	assert_string_equal(c.v[0].name, "NCCL_DEBUG");
	assert_string_equal(c.v[0].value, "INFO");
	assert_int_equal(c.v[0].line, 1);
	assert_string_equal(c.v[1].name, "NCCL_SOCKET_IFNAME");
	assert_string_equal(c.v[1].value, "=eth0"); /* the exact-match form */
	assert_string_equal(c.v[2].name, "NCCL_IB_HCA "); /* NCCL does not trim */
	assert_string_equal(c.v[2].value, " mlx5_0");
	assert_string_equal(c.v[3].name, "NCCL_DEBUG");
	assert_true(c.v[3].shadowed); /* setenv(..., 0): the first line wins */
	assert_int_equal(c.v[3].line, 8);
	assert_string_equal(c.v[4].value, "Ring\r"); /* a CRLF file keeps the \r */
	assert_string_equal(c.v[5].value, "no newline");
	assert_int_equal(c.comment_lines, 1);
	assert_int_equal(c.ignored_lines, 2);
	ncclconf_release(&c);
}

static void conf_limits(void **state)
{
	char *big = xmalloc(5000);
	struct ncclconf c;
	static const char nul[] = "NCCL_A=x\0y\nNC\0CL_B=z\n";

	(void)state;
	memset(big, 'K', 2000);
	big[2000] = '=';
	memset(big + 2001, 'v', 2000);
	ncclconf_parse(big, 4001, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.v[0].name), 1023);
	assert_int_equal(strlen(c.v[0].value), 1023);
	ncclconf_release(&c);
	free(big);
	/* a NUL ends the value; a NUL before '=' makes the line a non-assignment */
	ncclconf_parse(nul, sizeof(nul) - 1, &c);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].value, "x");
	assert_int_equal(c.ignored_lines, 1);
	ncclconf_release(&c);
}

/* ---- the loader's search order, over real directories with real ELF files ---------------- */

static char tmpdir[] = "/tmp/nct-b-unit-XXXXXX";

/* Runs a shell command built with printf; fails the test when it fails. */
static void sh(const char *fmt, const char *arg)
{
	char *cmd = xasprintf(fmt, arg);
	int rc = system(cmd);

	free(cmd);
	assert_int_equal(rc, 0);
}

static void copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f;
	char *dir = xstrdup(to), *slash = strrchr(dir, '/');

	*slash = '\0';
	sh("mkdir -p '%s'", dir);
	free(dir);
	assert_int_equal(file_read(from, &sb, 64u << 20, NULL), 0);
	f = fopen(to, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(sb.buf, 1, sb.len, f), sb.len);
	fclose(f);
	strbuf_release(&sb);
}

static char *tpath(const char *rel)
{
	return xasprintf("%s/%s", tmpdir, rel);
}

static int setup_tree(void **state)
{
	const char *elf = FAKES_DIR "/nccl/libnccl.so.2";
	static const char *const where[] = {
		"lp1/libnccl.so.2", "lp2/libnccl.so.2", "lp2/glibc-hwcaps/x86-64-v3/libnccl.so.2",
		"cachedir/libnccl.so.2", "sys/libnccl.so.2", "pre/libnccl.so.2.18.5",
	};

	(void)state;
	if (!file_exists(elf))
		return -1;
	if (!mkdtemp(tmpdir))
		return -1;
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char *p = tpath(where[i]);
		copy_file(elf, p);
		free(p);
	}
	/* not an ELF object: the loader skips it and so must we */
	{
		char *p = tpath("text/libnccl.so.2");
		FILE *f;
		sh("mkdir -p '%s/text'", tmpdir);
		f = fopen(p, "w");
		fputs("not a library\n", f);
		fclose(f);
		free(p);
	}
	return 0;
}

static int teardown_tree(void **state)
{
	(void)state;
	sh("rm -rf '%s'", tmpdir);
	return 0;
}

static void search_order(void **state)
{
	char *lp = xasprintf("%s/text:%s/lp1:%s/lp2", tmpdir, tmpdir, tmpdir);
	char *sysdir = tpath("sys"), *cached = tpath("cachedir/libnccl.so.2"), *p;
	const char *dirs[] = { sysdir };
	const char *hw[] = { "x86-64-v3" };
	struct ldcache cache = { 0 };
	struct ld_search s = { 0 };
	const char *how = NULL;

	(void)state;
	cache.v = xcalloc(1, sizeof(*cache.v));
	cache.v[0].key = xstrdup("libnccl.so.2");
	cache.v[0].path = xstrdup(cached);
	cache.v[0].flags = 1;
	cache.n = cache.alloc = 1;
	s.cache = &cache;
	s.system_dirs = dirs;
	s.nsystem_dirs = 1;
	s.hwcaps = hw;
	s.nhwcaps = 1;

	/* LD_LIBRARY_PATH first; the non-ELF file in text/ is skipped */
	s.library_path = lp;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	assert_non_null(p);
	assert_string_equal(how, "LD_LIBRARY_PATH");
	assert_non_null(strstr(p, "/lp1/libnccl.so.2"));
	free(p);

	/* a directory's glibc-hwcaps subdirectory comes before the directory itself */
	free(lp);
	lp = xasprintf("%s/lp2", tmpdir);
	s.library_path = lp;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	assert_non_null(strstr(p, "/lp2/glibc-hwcaps/x86-64-v3/libnccl.so.2"));
	free(p);

	/* then the cache, then the system directories */
	s.library_path = NULL;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	assert_string_equal(how, "ld.so.cache");
	assert_string_equal(p, cached);
	free(p);
	s.cache = NULL;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	assert_string_equal(how, "system directory");
	assert_non_null(strstr(p, "/sys/libnccl.so.2"));
	free(p);

	/* LD_PRELOAD beats everything; a versioned file name counts as the soname */
	free(lp);
	lp = xasprintf("/nonexistent %s/pre/libnccl.so.2.18.5", tmpdir);
	s.preload = lp;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	assert_string_equal(how, "LD_PRELOAD");
	assert_non_null(strstr(p, "/pre/libnccl.so.2.18.5"));
	free(p);

	/* nothing anywhere */
	s.preload = NULL;
	s.nsystem_dirs = 0;
	assert_null(ld_search_resolve(&s, "libnccl.so.2", &how));

	/* an empty LD_LIBRARY_PATH element is the current directory */
	s.library_path = ":";
	s.cwd = sysdir;
	p = ld_search_resolve(&s, "libnccl.so.2", &how);
	assert_string_equal(how, "LD_LIBRARY_PATH");
	free(p);

	ldcache_release(&cache);
	free(lp);
	free(sysdir);
	free(cached);
}

static void elf_check(void **state)
{
	char *text = tpath("text/libnccl.so.2");

	(void)state;
	assert_true(elf_loadable(FAKES_DIR "/nccl/libnccl.so.2"));
	assert_false(elf_loadable(text));
	assert_false(elf_loadable("/nonexistent/libnccl.so.2"));
	assert_false(elf_loadable(tmpdir)); /* a directory */
	free(text);
}

/* ---- the probe, against the fakes ----------------------------------------------------------- */

static const json_t *lib_by_dir(const json_t *facts, const char *dir)
{
	size_t i;
	json_t *lib;

	json_array_foreach(jpath(facts, "nccl.libs"), i, lib)
		if (strstr(jpath_str(lib, "path"), dir))
			return lib;
	return NULL;
}

static void probe_isolates_bad_copies(void **state)
{
	char *lp = xasprintf("%s/nccl:%s/nccl_crash:%s/nccl_hang:%s/nccl_nosym:%s/nccl_old",
			     FAKES_DIR, FAKES_DIR, FAKES_DIR, FAKES_DIR, FAKES_DIR);
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object();
	const json_t *l;
	const char *why;

	(void)state;
	envmap_set(env, "LD_LIBRARY_PATH", lp);
	probe_ctx_init(&o, env);
	o.lib_timeout_ms = 700;
	/* the fake library's own input, read in the version child */
	setenv("FAKE_NCCL_VERSION_CODE", "22803", 1);
	probe_nccl_libs(&o, facts);

	l = lib_by_dir(facts, "/nccl/");
	assert_non_null(l);
	assert_string_equal(jpath_str(l, "version"), "2.28.3");
	assert_true(jpath_bool(l, "default", 0)); /* first in LD_LIBRARY_PATH */
	assert_string_equal(jpath_str(l, "default_how"), "LD_LIBRARY_PATH");

	why = junknown(jpath(lib_by_dir(facts, "/nccl_crash/"), "version"));
	assert_non_null(why);
	assert_non_null(strstr(why, "crashed"));
	assert_non_null(strstr(why, "signal 11"));
	why = junknown(jpath(lib_by_dir(facts, "/nccl_hang/"), "version"));
	assert_non_null(why);
	assert_non_null(strstr(why, "did not return within 700 ms"));
	why = junknown(jpath(lib_by_dir(facts, "/nccl_nosym/"), "version"));
	assert_non_null(strstr(why, "not NCCL"));
	assert_string_equal(jpath_str(lib_by_dir(facts, "/nccl_old/"), "version"), "2.4.8");

	/* the net plugin next to the first copy is found and would load */
	assert_string_equal(jpath_str(facts, "nccl.net_plugin.state"), "loads");
	assert_non_null(strstr(jpath_str(facts, "nccl.net_plugin.path"), "/nccl/libnccl-net.so"));

	unsetenv("FAKE_NCCL_VERSION_CODE");
	envmap_free(env);
	json_decref(facts);
	free(lp);
}

/*
 * NCCL 2.32's TLS support, read in the version child: a TLS build holds the PSK identity (and
 * then whether libssl.so.3 loads is asked); a 2.32 built without it says so; older NCCL has
 * no "tls" at all.
 */
static void probe_reads_tls_support(void **state)
{
	char *lp = xasprintf("%s/nccl_tls:%s/nccl", FAKES_DIR, FAKES_DIR);
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object();
	const json_t *l;

	(void)state;
	envmap_set(env, "LD_LIBRARY_PATH", lp);
	probe_ctx_init(&o, env);
	setenv("FAKE_NCCL_VERSION_CODE", "23203", 1);
	probe_nccl_libs(&o, facts);
	l = lib_by_dir(facts, "/nccl_tls/");
	assert_string_equal(jpath_str(l, "version"), "2.32.3");
	assert_true(jpath_bool(l, "tls.built", 0));
	/* whether this machine has OpenSSL 3 is its own business: the member is there either way */
	assert_true(json_is_boolean(jpath(l, "tls.libssl")));
	l = lib_by_dir(facts, "/nccl/");
	assert_string_equal(jpath_str(l, "version"), "2.32.3");
	assert_false(jpath_bool(l, "tls.built", 1));
	assert_null(jpath(l, "tls.libssl"));
	json_decref(facts);

	facts = json_object();
	setenv("FAKE_NCCL_VERSION_CODE", "23107", 1);
	probe_nccl_libs(&o, facts);
	assert_null(jpath(lib_by_dir(facts, "/nccl/"), "tls"));
	unsetenv("FAKE_NCCL_VERSION_CODE");
	envmap_free(env);
	json_decref(facts);
	free(lp);
}

/* The real CUDA 13 copy in this machine's ld.so cache is found with the version it reports. */
static void probe_finds_real_copy(void **state)
{
	static const char real[] = "/usr/local/cuda-13.0/lib/libnccl.so.2";
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object();
	size_t i;
	json_t *lib;
	int found = 0;

	(void)state;
	if (!file_exists(real)) {
		envmap_free(env);
		skip();
	}
	probe_ctx_init(&o, env);	/* no LD_LIBRARY_PATH */
	probe_nccl_libs(&o, facts);
	json_array_foreach(jpath(facts, "nccl.libs"), i, lib) {
		char rp[4096];
		if (!realpath(real, rp) || strcmp(jpath_str(lib, "realpath"), rp))
			continue;
		found = 1;
		assert_non_null(jpath_str(lib, "version"));
		assert_true(jpath_int(lib, "version_code", 0) >= 22800);
	}
	assert_true(found);
	json_decref(facts);
	envmap_free(env);
}

static void probe_reads_conf_files(void **state)
{
	char *etc = tpath("etc"), *conf = tpath("etc/nccl.conf"), *user = tpath("user.conf");
	struct envmap *env = envmap_new(NULL);
	struct probe_ctx o;
	json_t *facts = json_object(), *c0, *c1;
	FILE *f;

	(void)state;
	if (mkdir(etc, 0755) < 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", etc, strerror(errno));
	f = fopen(conf, "w");
	fputs("NCCL_SOCKET_IFNAME=eth1\nNCCL_DEBUG=WARN\n", f);
	fclose(f);
	f = fopen(user, "w");
	fputs("NCCL_DEBUG=INFO\nNCCL_DEBUG=TRACE\n", f);
	fclose(f);
	probe_ctx_init(&o, env);
	o.root_etc = etc;
	envmap_set(env, "NCCL_CONF_FILE", user);
	probe_nccl_libs(&o, facts);
	c0 = json_array_get(jpath(facts, "nccl.conf"), 0);
	assert_string_equal(jpath_str(c0, "source"), "NCCL_CONF_FILE");
	assert_string_equal(jpath_str(c0, "vars.NCCL_DEBUG"), "INFO");
	assert_int_equal(json_array_size(json_object_get(c0, "duplicates")), 1);
	c1 = json_array_get(jpath(facts, "nccl.conf"),
			    json_array_size(jpath(facts, "nccl.conf")) - 1);
	assert_string_equal(jpath_str(c1, "source"), "/etc/nccl.conf");
	assert_string_equal(jpath_str(c1, "vars.NCCL_SOCKET_IFNAME"), "eth1");

	/* NCCL_CONF_FILE naming a missing file is recorded, not skipped */
	json_decref(facts);
	facts = json_object();
	envmap_set(env, "NCCL_CONF_FILE", "/nonexistent/nccl.conf");
	probe_nccl_libs(&o, facts);
	c0 = json_array_get(jpath(facts, "nccl.conf"), 0);
	assert_false(jpath_bool(c0, "exists", 1));
	assert_non_null(junknown(json_object_get(c0, "vars")));
	envmap_free(env);
	json_decref(facts);
	free(etc);
	free(conf);
	free(user);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cache_synthetic),
		cmocka_unit_test(cache_old_then_new),
		cmocka_unit_test(cache_rejects_garbage),
		cmocka_unit_test(cache_real),
		cmocka_unit_test(conf_like_nccl),
		cmocka_unit_test(conf_limits),
		cmocka_unit_test(search_order),
		cmocka_unit_test(elf_check),
		cmocka_unit_test(probe_isolates_bad_copies),
		cmocka_unit_test(probe_reads_tls_support),
		cmocka_unit_test(probe_finds_real_copy),
		cmocka_unit_test(probe_reads_conf_files),
	};

	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
