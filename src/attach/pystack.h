/*
 * A CPython process's Python stacks, read from outside without stopping it (the py-spy way:
 * memory reads only, never ptrace-stop, never a signal). The interpreter is found from the
 * `_PyRuntime` symbol of the python executable or libpython mapped into the process (ELF read
 * from the file, load bias from /proc/PID/maps); the structure offsets come from the
 * interpreter itself on 3.13+ (`_Py_DebugOffsets`, cookie "xdebugpy", at the start of
 * _PyRuntime) and from a table per minor version before that.
 *
 * Versions: 3.9-3.12 by a table per minor version, from offsetof() against each version's own
 * internal headers; 3.13 and 3.14 from the interpreter's debug offsets, at the positions
 * CPython's pycore_runtime.h (3.13) and pycore_debug_offsets.h (3.14) give, checked at run time
 * against the sizes the same block states. 3.9, 3.10, 3.11, 3.12 and 3.13 are walked live by
 * the tests on the build machine; 3.14 is not (no interpreter there). Free-threaded builds are
 * refused with a message.
 *
 * The walk reads only through a pymem (pymem.h), so a recorded image replays it exactly and
 * arbitrary bytes fuzz it: every pointer is followed with bounds on count, length and depth.
 */
#ifndef NCCLCHECK_ATTACH_PYSTACK_H
#define NCCLCHECK_ATTACH_PYSTACK_H

#include <stddef.h>
#include <stdint.h>

#include "attach/pymem.h"
#include "util/err.h"

#define PY_NAME_MAX 128
#define PY_FILE_MAX 512
#define PY_FRAMES_MAX 256	/* deeper stacks keep their innermost frames, marked truncated */
#define PY_THREADS_MAX 512
#define PY_INTERPS_MAX 16

enum py_status {
	PY_OK = 0,
	PY_NOT_PYTHON,		/* no interpreter found in the process's mappings */
	PY_NO_PERMISSION,	/* maps or memory refused: see pystack_why_denied() */
	PY_GONE,		/* the process exited (before or while it was read) */
	PY_UNSUPPORTED,		/* a Python version or build whose layout this reader lacks */
	PY_UNREADABLE,		/* the structures did not read back as an interpreter */
};

struct py_frame {
	char func[PY_NAME_MAX];		/* co_qualname where it exists (3.11+), else co_name */
	char file[PY_FILE_MAX];
	int line;			/* 0: unknown */
};

struct py_thread {
	long native_tid;		/* the kernel's TID (/proc/PID/task/TID), 0 unknown */
	struct py_frame *frames;	/* innermost first, as the interpreter links them */
	size_t nframes;
	int truncated;			/* more than PY_FRAMES_MAX, or a frame that did not read */
	char note[128];			/* why the walk stopped early; "" when it reached the end */
};

struct py_stacks {
	enum py_status status;
	char error[384];		/* what went wrong and what to do, when status != PY_OK */
	unsigned version_hex;
	char binary[PY_FILE_MAX];	/* the mapped file that holds _PyRuntime */
	int layout_tested;		/* the version's layout was checked on a live interpreter */
	struct py_thread *threads;
	size_t nthreads;
};

/* Finds the interpreter of `pid` (maps + ELF) into *t and s->binary / s->version_hex; on
 * failure sets s->status and s->error and returns -1. */
int pystack_locate(int pid, struct py_target *t, struct py_stacks *s);

/* Walks every interpreter's thread states through `m`. Sets s->status; 0 or -1. */
int pystack_walk(struct pymem *m, const struct py_target *t, struct py_stacks *s);

/* Locate + walk a live process (record=1 keeps the reads for pymem_image_bytes through *m,
 * which the caller releases). */
int pystack_read_pid(int pid, struct pymem *m, struct py_target *t, int record,
		     struct py_stacks *s);

/* Why reading `pid` was refused, and what to run instead (ptrace_scope, another user, a
 * container without CAP_SYS_PTRACE), into buf. */
void pystack_why_denied(int pid, char *buf, size_t len);

void py_stacks_release(struct py_stacks *s);

/* "3.11.7" from a PY_VERSION_HEX. */
void py_version_str(unsigned hex, char *buf, size_t len);

/* The line of code-unit index `lasti` in a 3.11+ location table (co_linetable); 0 unknown. */
int py_linetable_line(const unsigned char *tab, size_t len, int firstlineno, long lasti);
/* The same for 3.10's co_linetable and 3.9's co_lnotab (`addr` a byte offset). */
int py_linetable310_line(const unsigned char *tab, size_t len, int firstlineno, long addr);
int py_lnotab_line(const unsigned char *tab, size_t len, int firstlineno, long addr);

#endif
