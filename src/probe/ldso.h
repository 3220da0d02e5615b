/*
 * The dynamic loader, modelled so that probes can say which copy of a library a plain program
 * would load, and tests and fuzzers can reach the parsers without touching the machine: glibc's
 * ld.so.cache, ld.so's search order, and the loader's own directories.
 */
#ifndef NCCLCHECK_PROBE_LDSO_H
#define NCCLCHECK_PROBE_LDSO_H

#include <stddef.h>

#include "util/err.h"

/* An ld.so.cache bigger than this is not one. */
#define LDCACHE_FILE_MAX (64u << 20)

/* One record of /etc/ld.so.cache: the name a program asks for and the file the loader opens. */
struct ldcache_entry {
	char *key;	/* "libnccl.so.2" */
	char *path;	/* "/usr/lib/x86_64-linux-gnu/libnccl.so.2" */
	int flags;	/* glibc's FLAG_* word: library type and architecture */
};

struct ldcache {
	struct ldcache_entry *v;
	size_t n, alloc;
};

/*
 * Parses a glibc ld.so.cache image (the "glibc-ld.so.cache1.1" format, alone or after the old
 * "ld.so-1.7.0" table). Returns 0, or -1 with `e` set when the bytes are not such a cache;
 * entries whose strings point outside the image are dropped, never followed.
 */
int ldcache_parse(const void *data, size_t len, struct ldcache *out, struct err *e);
void ldcache_release(struct ldcache *c);
/* Reads and parses the cache file at `path` (at most LDCACHE_FILE_MAX bytes); 0, or -1 with `e`. */
int ldcache_read(const char *path, struct ldcache *out, struct err *e);
/* Whether an entry's flags say it is for this process's architecture (what ld.so checks). */
int ldcache_native(int flags);

/* What the loader searches for a library name, for a program with no RPATH or RUNPATH. */
struct ld_search {
	const char *preload;		/* LD_PRELOAD (space or colon separated), may be NULL */
	const char *library_path;	/* LD_LIBRARY_PATH, may be NULL */
	const struct ldcache *cache;	/* may be NULL */
	const char *const *system_dirs;	/* ld.so's built-in directories, in order */
	size_t nsystem_dirs;
	const char *const *hwcaps;	/* glibc-hwcaps subdirectories this CPU supports, best first */
	size_t nhwcaps;
	const char *cwd;		/* what an empty LD_LIBRARY_PATH element means */
};

/*
 * Resolves `soname` the way ld.so does: LD_PRELOAD, then LD_LIBRARY_PATH (each directory's
 * glibc-hwcaps subdirectories first), then the cache, then the system directories, taking the
 * first file that exists and is an ELF object for this architecture. Returns the path (caller
 * frees) and sets *how to "LD_PRELOAD", "LD_LIBRARY_PATH", "ld.so.cache" or "system directory";
 * NULL when nothing matches.
 */
char *ld_search_resolve(const struct ld_search *s, const char *soname, const char **how);

/* 1 when `path` is an ELF shared object this process could load (class and machine match). */
int elf_loadable(const char *path);

/* The loader's system directories and the glibc-hwcaps levels this CPU supports. */
struct ldso_dirs {
	char **dirs;
	size_t ndirs, adirs;
	char **hwcaps;
	size_t nhwcaps, ahwcaps;
	const char *source;	/* "ld.so --help" or "built-in list" */
};

/*
 * Asks the program interpreter every plain program uses (`ld.so --help`, glibc 2.33+, run as a
 * child with a 2 s deadline); a per-distribution list when it cannot tell.
 */
void ldso_dirs_get(struct ldso_dirs *d);
void ldso_dirs_release(struct ldso_dirs *d);

#endif
