/*
 * Another process's memory, read without stopping it: process_vm_readv, else pread on
 * /proc/PID/mem (both need ptrace read access, PTRACE_MODE_ATTACH, but neither attaches, stops
 * or signals the process). The stack reader (pystack.h) only ever reads through a pymem, so the
 * same walk runs on a live process, on a recorded image (tests, `attach --record`), and on
 * arbitrary bytes (the fuzzer).
 *
 * An image is the few kilobytes a walk read, with the target's interpreter facts:
 *   "NCPYMEM1" | u32 version_hex | u32 nsegs | u64 runtime | u64 code_type | u64 debug_offsets
 *   | nsegs x (u64 addr | u32 len | len bytes)          all little-endian
 */
#ifndef NCCLCHECK_ATTACH_PYMEM_H
#define NCCLCHECK_ATTACH_PYMEM_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

#define PYMEM_IMAGE_MAGIC "NCPYMEM1"
#define PYMEM_SEG_MAX (1u << 20)	/* one recorded read */
#define PYMEM_SEGS_MAX 65536

enum pymem_kind { PYMEM_LIVE, PYMEM_IMAGE };

struct pymem_seg {
	uint64_t addr;
	uint32_t len;
	const unsigned char *data;	/* into the image buffer, or owned by a recording */
};

/* What the reader found out about the interpreter before the walk (recorded with an image). */
struct py_target {
	unsigned version_hex;		/* PY_VERSION_HEX: 0x030b07f0 for 3.11.7 final */
	uint64_t runtime;		/* &_PyRuntime in the process */
	uint64_t code_type;		/* &PyCode_Type, 0 unknown (frames are then not type-checked) */
	uint64_t debug_offsets;		/* 3.13+: &_Py_DebugOffsets (the start of _PyRuntime) */
};

struct pymem {
	enum pymem_kind kind;
	int pid;
	int memfd;			/* /proc/PID/mem, opened when process_vm_readv is refused */
	int last_errno;			/* of the last failed live read */
	/* image */
	struct pymem_seg *segs;
	size_t nsegs, asegs;
	/* recording (live): every successful read is kept for pymem_image_write */
	int recording;
	struct strbuf rec;		/* the segment records, back to back */
	uint32_t nrec;
	uint64_t nread;			/* bytes read, for the caller's budget */
};

/* A live source for `pid` (nothing is opened until the first read). */
void pymem_live(struct pymem *m, int pid, int record);

/*
 * An image source over `buf` (which must outlive it): the header into *t. Returns 0, or -1 with
 * `e` (ERR_PARSE) for bytes that are not an image; every length is checked against the buffer.
 */
int pymem_image(struct pymem *m, const void *buf, size_t len, struct py_target *t,
		struct err *e);

/* n bytes at addr: 0, or -1 (errno-like reason in m->last_errno for a live source). */
int pymem_read(struct pymem *m, uint64_t addr, void *buf, size_t n);

/* The recorded reads with `t` as an image file's bytes (live, record=1). */
void pymem_image_bytes(const struct pymem *m, const struct py_target *t, struct strbuf *out);

void pymem_release(struct pymem *m);

#endif
