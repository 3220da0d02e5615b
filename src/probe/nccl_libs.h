/*
 * The pieces of the NCCL-copies probe that parse untrusted bytes or model the dynamic loader,
 * split out so that unit tests and fuzzers reach them without touching the machine.
 */
#ifndef NCCLCHECK_PROBE_NCCL_LIBS_H
#define NCCLCHECK_PROBE_NCCL_LIBS_H

#include <stddef.h>

#include <jansson.h>

#include "util/err.h"

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
/* Whether an entry's flags say it is for this process's architecture (what ld.so checks). */
int ldcache_native(int flags);

/* One NAME=value line of an NCCL config file, as NCCL itself splits it. */
struct ncclconf_var {
	char *name;	/* everything before the first '=', untrimmed, at most 1023 bytes */
	char *value;	/* the rest of the line without its '\n', at most 1023 bytes */
	int line;	/* 1-based */
	int shadowed;	/* an earlier line set the same name: NCCL keeps the first (setenv, no overwrite) */
};

struct ncclconf {
	struct ncclconf_var *v;
	size_t n, alloc;
	int comment_lines;	/* lines starting with '#', skipped by NCCL 2.26+ */
	int ignored_lines;	/* lines without '=' or with an empty name */
};

/* Splits a config file the way NCCL's setEnvFile() does. Never fails; any bytes are accepted. */
void ncclconf_parse(const char *data, size_t len, struct ncclconf *out);
void ncclconf_release(struct ncclconf *c);

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

#endif
