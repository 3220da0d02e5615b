/*
 * probe/elf and probe/torch_static: the dynamic section of real and fake libraries, and the
 * torch facts of a wheel-shaped tree (tests/fakes: torch/lib/libtorch_cuda.so needing
 * libnccl.so.2 through RUNPATH $ORIGIN/../../nvidia/nccl/lib, and a build with NCCL linked in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "probe/elf.h"
#include "probe/torch_static.h"
#include "util/file.h"

static void version_py_forms(void **state)
{
	static const char wheel[] =
		"from typing import Optional\n__all__ = ['__version__', 'debug', 'cuda']\n"
		"__version__ = '2.11.0+cu130'\ndebug = False\ncuda: Optional[str] = '13.0'\n"
		"git_version = '70d99e998b4955e0c2b8e2a8e1e8a3d8f6e9a1b2'\nhip: Optional[str] = None\n";
	static const char debian[] = "__version__ = '1.13.0a0'\ndebug = False\ncuda = None\n"
				     "git_version = 'Unknown'\nhip = None";
	struct torch_version_py v;
	struct err e = ERR_INIT;
	(void)state;

	assert_int_equal(torch_version_py_parse(wheel, strlen(wheel), &v, &e), 0);
	assert_string_equal(v.version, "2.11.0+cu130");
	assert_string_equal(v.cuda, "13.0");
	assert_true(v.has_cuda);
	assert_string_equal(v.hip, "");
	assert_int_equal(torch_version_py_parse(debian, strlen(debian), &v, &e), 0);
	assert_string_equal(v.version, "1.13.0a0");
	assert_string_equal(v.cuda, "");
	assert_true(v.has_cuda);
	assert_int_equal(torch_version_py_parse("cuda = '12.1'\n", 14, &v, &e), -1);
	assert_int_equal(torch_version_py_parse("__version__ = '2.1\n", 19, &v, &e), -1);
	assert_int_equal(torch_version_py_parse("", 0, &v, &e), -1);
}

static void elf_real_libraries(void **state)
{
	struct elf_dyn d;
	struct err e = ERR_INIT;
	int def = -1;
	const char *nccl = "/usr/local/cuda/lib64/libnccl.so.2";
	(void)state;

	assert_int_equal(elf_dyn_read_path("/bin/sh", &d, &def, &e), 0);
	assert_true(d.nneeded >= 1);
	{
		int libc = 0;
		for (size_t i = 0; i < d.nneeded; i++)
			libc |= !strcmp(d.needed[i], "libc.so.6");
		assert_true(libc);
	}
	assert_int_equal(def, 0);	/* the shell is no NCCL */
	elf_dyn_release(&d);
	if (file_exists(nccl)) {
		assert_int_equal(elf_dyn_read_path(nccl, &d, &def, &e), 0);
		assert_int_equal(def, 1);
		assert_non_null(d.soname);
		assert_string_equal(d.soname, "libnccl.so.2");
		elf_dyn_release(&d);
	}
	assert_int_equal(elf_dyn_read_path("/etc/hostname", &d, NULL, &e), -1);
	assert_int_equal(elf_dyn_read_path("/nonexistent.so", &d, NULL, &e), -1);
}

static void elf_hostile_bytes(void **state)
{
	unsigned char buf[4096];
	struct elf_src src;
	struct elf_dyn d;
	struct err e = ERR_INIT;
	FILE *f = fopen("/bin/sh", "rb");
	size_t n;
	(void)state;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* every truncation of a real header, and every byte flipped, is refused or read safely */
	for (size_t len = 0; len < 256; len++) {
		elf_src_mem(&src, buf, len);
		if (elf_dyn_read(&src, &d, &e) == 0)
			elf_dyn_release(&d);
	}
	for (size_t i = 0; i < 128; i++) {
		unsigned char c[4096];
		memcpy(c, buf, n);
		c[i] ^= 0xff;
		elf_src_mem(&src, c, n);
		if (elf_dyn_read(&src, &d, &e) == 0) {
			(void)elf_defines(&src, &d, "ncclGetVersion");
			elf_dyn_release(&d);
		}
	}
	elf_src_mem(&src, "\177ELF", 4);
	assert_int_equal(elf_dyn_read(&src, &d, &e), -1);
}

static void origin_expansion(void **state)
{
	char *s = elf_expand_origin("$ORIGIN/../../nvidia/nccl/lib", 29, "/sp/torch/lib");
	(void)state;

	assert_string_equal(s, "/sp/torch/lib/../../nvidia/nccl/lib");
	free(s);
	s = elf_expand_origin("${ORIGIN}:x", 11, "/o");
	assert_string_equal(s, "/o:x");
	free(s);
}

static void write_version_py(const char *torch_dir, const char *cuda)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%.4000s/version.py", torch_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "__version__ = '2.11.0+cu130'\ncuda: Optional[str] = %s\n", cuda);
	fclose(f);
}

static void wheel_tree(void **state)
{
	static const char *const sys[] = { "/nonexistent" };
	char torch[4096], ldpath[4096];
	struct ld_search s = { .system_dirs = sys, .nsystem_dirs = 1 };
	struct torch_static t;
	struct err e = ERR_INIT;
	(void)state;

	snprintf(torch, sizeof(torch), "%s/torchwheel/torch", FAKES_DIR);
	write_version_py(torch, "'13.0'");
	assert_int_equal(torch_static_read(torch, &s, &t, &e), 0);
	assert_string_equal(t.unsettled, "");
	assert_string_equal(t.v.version, "2.11.0+cu130");
	assert_non_null(t.nccl_path);
	assert_non_null(strstr(t.nccl_path, "torchwheel/torch/lib/../../nvidia/nccl/lib/libnccl.so.2"));
	assert_string_equal(t.nccl_how, "RUNPATH");
	assert_false(t.nccl_static);
	torch_static_release(&t);

	/* LD_LIBRARY_PATH comes before RUNPATH: another NCCL wins */
	snprintf(ldpath, sizeof(ldpath), "%s/nccl", FAKES_DIR);
	s.library_path = ldpath;
	assert_int_equal(torch_static_read(torch, &s, &t, &e), 0);
	assert_non_null(strstr(t.nccl_path, "/fakes/nccl/libnccl.so.2"));
	assert_string_equal(t.nccl_how, "LD_LIBRARY_PATH");
	torch_static_release(&t);
	s.library_path = NULL;

	/* a CPU build maps no NCCL */
	write_version_py(torch, "None");
	assert_int_equal(torch_static_read(torch, &s, &t, &e), 0);
	assert_null(t.nccl_path);
	assert_string_equal(t.unsettled, "");
	torch_static_release(&t);

	snprintf(torch, sizeof(torch), "%s/torchstatic/torch", FAKES_DIR);
	write_version_py(torch, "'12.8'");
	assert_int_equal(torch_static_read(torch, &s, &t, &e), 0);
	assert_true(t.nccl_static);
	assert_non_null(strstr(t.nccl_path, "libtorch_cuda.so"));
	torch_static_release(&t);

	/* no version.py: the caller imports instead */
	assert_int_equal(torch_static_read("/nonexistent/torch", &s, &t, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_py_forms),
		cmocka_unit_test(elf_real_libraries),
		cmocka_unit_test(elf_hostile_bytes),
		cmocka_unit_test(origin_expansion),
		cmocka_unit_test(wheel_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
