/*
 * Binds every glibc function the portable binary calls to a symbol version from glibc 2.17 or
 * older, so it starts on any Linux since about 2013, though it is linked on a current Debian.
 * The linker is run with --wrap=SYM for every OLD()/OWN() line below (portable.cmake reads this
 * file for them), so each reference to SYM, in our objects and in the static jansson and hwloc
 * alike, goes to __wrap_SYM defined here:
 *   OLD(sym, version): a jump to the same function at its old x86_64 version (aarch64's oldest
 *                      is GLIBC_2.17 for everything), which glibc keeps exporting for old binaries;
 *   OWN(sym):          a function below, for calls that have no old version of the same name.
 * packaging/portable/check.sh fails the build when a newer version appears: add a line here.
 */
#define _GNU_SOURCE	/* syscall() */
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__x86_64__)
#define OLD_VERSION(x86) x86
#define JUMP(target) "jmp " target "@PLT"
#define FUNCTION_TYPE "@function"
#define STAT_VER 1		/* _STAT_VER_LINUX of x86_64's old __xstat interface */
#elif defined(__aarch64__)
#define OLD_VERSION(x86) "GLIBC_2.17"
#define JUMP(target) "b " target
#define FUNCTION_TYPE "%function"
#define STAT_VER 0
#else
#error "the portable build knows x86_64 and aarch64"
#endif

#define OLD(sym, version)                                                                      \
	__asm__(".symver ncclcheck_old_" #sym ", " #sym "@" OLD_VERSION(version) "\n"          \
		".pushsection .text\n"                                                         \
		".globl __wrap_" #sym "\n"                                                     \
		".type __wrap_" #sym ", " FUNCTION_TYPE "\n"                                   \
		"__wrap_" #sym ":\n\t" JUMP("ncclcheck_old_" #sym) "\n"                        \
		".size __wrap_" #sym ", . - __wrap_" #sym "\n"                                 \
		".popsection\n")
#define OWN(sym)

/* moved from libpthread and libdl into libc (2.34); the old versions live in libpthread.so.0
 * and libdl.so.2 on older glibc, which portable.cmake keeps in DT_NEEDED */
OLD(pthread_create, "GLIBC_2.2.5");
OLD(pthread_join, "GLIBC_2.2.5");
OLD(pthread_once, "GLIBC_2.2.5");
OLD(pthread_condattr_setclock, "GLIBC_2.3.3");
OLD(pthread_getaffinity_np, "GLIBC_2.3.4");
OLD(pthread_setaffinity_np, "GLIBC_2.3.4");
OLD(dlopen, "GLIBC_2.2.5");
OLD(dlsym, "GLIBC_2.2.5");
OLD(dlvsym, "GLIBC_2.2.5");
OLD(dlerror, "GLIBC_2.2.5");
OLD(dlinfo, "GLIBC_2.3.3");
/* 2.27 changed how glob() treats dangling symlinks only */
OLD(glob, "GLIBC_2.2.5");
/* 2.29 added new versions of log (and exp, pow) that drop the SVID error handling only: the
 * same results for the finite arguments link.loss's likelihoods pass */
OLD(log, "GLIBC_2.2.5");

/* stat() and friends became functions in 2.33; before, the headers inlined __xstat() calls */
extern int ncclcheck_xstat(int ver, const char *path, struct stat *st);
extern int ncclcheck_fxstat(int ver, int fd, struct stat *st);
extern int ncclcheck_fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
__asm__(".symver ncclcheck_xstat, __xstat@" OLD_VERSION("GLIBC_2.2.5"));
__asm__(".symver ncclcheck_fxstat, __fxstat@" OLD_VERSION("GLIBC_2.2.5"));
__asm__(".symver ncclcheck_fxstatat, __fxstatat@" OLD_VERSION("GLIBC_2.4"));

int __wrap_stat(const char *path, struct stat *st);
int __wrap_fstat(int fd, struct stat *st);
int __wrap_fstatat(int dirfd, const char *path, struct stat *st, int flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags);

OWN(stat)
int __wrap_stat(const char *path, struct stat *st)
{
	return ncclcheck_xstat(STAT_VER, path, st);
}

OWN(fstat)
int __wrap_fstat(int fd, struct stat *st)
{
	return ncclcheck_fxstat(STAT_VER, fd, st);
}

OWN(fstatat)
int __wrap_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return ncclcheck_fxstatat(STAT_VER, dirfd, path, st, flags);
}

/* glibc's wrapper came in 2.25; the kernel call (3.17) is older; ENOSYS tells callers to fall
 * back, as they do on a glibc without it */
OWN(getrandom)
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags)
{
	return syscall(SYS_getrandom, buf, n, flags);
}

/*
 * Start-up. crt1.o of glibc 2.34+ calls __libc_start_main@GLIBC_2.34 with no init function,
 * because that glibc runs the executable's constructors itself; an older glibc runs only the
 * init function it is given (its crt1.o passed __libc_csu_init). So the old entry point gets
 * one that does what __libc_csu_init did: _init, then .init_array (.preinit_array is the
 * dynamic linker's in every version). A new glibc given an init function runs it instead of
 * its own pass, so constructors run once either way.
 */
typedef int (*main_fn)(int, char **, char **);
typedef void (*init_fn)(int, char **, char **);
extern int ncclcheck_old_start_main(main_fn main, int argc, char **argv, init_fn init,
				    void (*fini)(void), void (*rtld_fini)(void), void *stack_end);
__asm__(".symver ncclcheck_old_start_main, __libc_start_main@" OLD_VERSION("GLIBC_2.2.5"));
extern init_fn __init_array_start[] __attribute__((visibility("hidden")));
extern init_fn __init_array_end[] __attribute__((visibility("hidden")));
extern void _init(void);
int __wrap___libc_start_main(main_fn main, int argc, char **argv, init_fn init,
			     void (*fini)(void), void (*rtld_fini)(void), void *stack_end);

static void run_init(int argc, char **argv, char **envp)
{
	_init();
	for (init_fn *f = __init_array_start; f < __init_array_end; f++)
		(*f)(argc, argv, envp);
}

OWN(__libc_start_main)
int __wrap___libc_start_main(main_fn main, int argc, char **argv, init_fn init,
			     void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
	(void)init;
	(void)fini;	/* the dynamic linker runs .fini_array in every version */
	return ncclcheck_old_start_main(main, argc, argv, run_init, NULL, rtld_fini, stack_end);
}
