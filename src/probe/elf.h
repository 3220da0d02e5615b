/*
 * What the dynamic loader reads from an ELF shared object, read without loading it: DT_NEEDED,
 * DT_RUNPATH / DT_RPATH, DT_SONAME, and whether it defines a given dynamic symbol (through its
 * GNU or SysV hash table, as ld.so looks symbols up). This is how `node` tells which libnccl a
 * torch build maps — or that NCCL is linked in — without importing torch, which takes seconds.
 *
 * The bytes are untrusted (any file on the machine; fuzzed): every offset and size is checked
 * against the file, tables are bounded, and only what is read through `read_at` is used, so a
 * 1 GB libtorch_cuda.so costs a few kilobytes of reads.
 */
#ifndef NCCLCHECK_PROBE_ELF_H
#define NCCLCHECK_PROBE_ELF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

struct elf_src;
/* Reads n bytes at off into buf; returns the count read (short at the end), -1 on error. */
typedef ssize_t (*elf_read_fn)(const struct elf_src *src, void *buf, size_t n, uint64_t off);

struct elf_src {
	elf_read_fn read_at;
	uint64_t size;			/* the file's size */
	int fd;				/* elf_src_fd */
	const unsigned char *mem;	/* elf_src_mem */
};

#define ELF_NEEDED_MAX 256

struct elf_dyn {
	int is64;
	int little;			/* byte order */
	unsigned machine;		/* e_machine */
	unsigned type;			/* e_type: ET_DYN, ET_EXEC */
	char *soname;			/* NULL when none */
	char *runpath;			/* DT_RUNPATH, NULL when none */
	char *rpath;			/* DT_RPATH, NULL when none */
	char *needed[ELF_NEEDED_MAX];	/* DT_NEEDED in order */
	size_t nneeded;
	/* for symbol lookups: file offsets of the tables (0: absent) */
	uint64_t symtab, strtab, strsz, gnu_hash, sysv_hash;
	uint64_t syment;
	/* the page-aligned virtual address of the lowest PT_LOAD segment: a mapping of the file at
	 * address A has load bias A - load_base (0 for a non-PIE executable) */
	uint64_t load_base;
	int load_base_set;
};

struct elf_sym {
	uint64_t value;			/* st_value: a virtual address before the load bias */
	uint64_t size;
};

/* Reads the dynamic section. Returns 0, or -1 with `e` set (ERR_PARSE) when it is not ELF or
 * the dynamic section is malformed; nothing half-read is left in `out` then. */
int elf_dyn_read(const struct elf_src *src, struct elf_dyn *out, struct err *e);
void elf_dyn_release(struct elf_dyn *d);

/*
 * Whether the object defines the dynamic symbol `name` (a defined, not undefined, entry):
 * 1 yes, 0 no, -1 it has no hash table to look it up with (or the table is malformed).
 */
int elf_defines(const struct elf_src *src, const struct elf_dyn *d, const char *name);

/* elf_defines() that also gives the symbol's value and size (out may be NULL). */
int elf_lookup(const struct elf_src *src, const struct elf_dyn *d, const char *name,
	       struct elf_sym *out);

/* An elf_src over an open file descriptor (pread). */
int elf_src_fd(struct elf_src *src, int fd);
/* An elf_src over bytes in memory (tests, fuzzing); `data` must outlive it. */
void elf_src_mem(struct elf_src *src, const void *data, size_t len);

/* Convenience: elf_dyn_read of the file at `path`; *defines_nccl (may be NULL) is
 * elf_defines(..., "ncclGetVersion"). */
int elf_dyn_read_path(const char *path, struct elf_dyn *out, int *defines_nccl, struct err *e);

/* Expands $ORIGIN / ${ORIGIN} (and $LIB, $PLATFORM as ld.so would on this machine) in one
 * RUNPATH/RPATH element; `origin` is the object's directory. New string. */
/* elf_defines() for the object at `path`: 1, 0, or -1 when it cannot be read or has no table. */
int elf_path_defines(const char *path, const char *name);

char *elf_expand_origin(const char *elem, size_t len, const char *origin);

#endif
