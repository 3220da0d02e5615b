/*
 * Python stacks from the text of faulthandler.dump_traceback(fd, all_threads=True): what torch's
 * WorkerServer returns from /handler/dump_traceback (torch/csrc/distributed/c10d/control_plane/
 * PythonHandlers.cpp, torch 2.10+), taken inside the process under the GIL. A second source for
 * when the memory reader (pystack.h) is refused or does not know the interpreter's layout.
 *
 * The format, as CPython 3.9-3.13 write it (tests/fixtures/faulthandler holds each one's):
 *
 *   Thread 0x00007f833b0466c0 (most recent call first):
 *     File "/path/job.py", line 16 in load_batch
 *     File "/usr/lib/python3.11/threading.py", line 975 in run
 *
 *   Current thread 0x00007f833ba65b80 (most recent call first):
 *     File "/path/job.py", line 33 in <module>
 *
 * Threads newest first (the main thread last), frames innermost first: the memory reader's
 * orders. "  ..." ends a stack deeper than faulthandler's 100 frames, "  <no Python frame>" is
 * a thread outside the interpreter's loop, "???" an unknown line or name. The thread id is a
 * pthread_t, not the kernel's TID: native_tid stays 0. faulthandler escapes non-ASCII
 * (\xfc, \u20ac): names are kept as written; any other byte outside printable ASCII is hostile
 * and becomes '?'.
 */
#ifndef NCCLCHECK_ATTACH_FAULTHANDLER_H
#define NCCLCHECK_ATTACH_FAULTHANDLER_H

#include <stddef.h>

#include "attach/pystack.h"

/* Bytes of text read at most (faulthandler writes at most 100 threads of 100 frames). */
#define FAULTHANDLER_TEXT_MAX (4u << 20)

/*
 * Parses `len` bytes (any bytes) into *s (zeroed first). PY_OK and 0 when at least one thread
 * header was found; else PY_UNREADABLE, s->error, -1. Threads past PY_THREADS_MAX are dropped,
 * frames past PY_FRAMES_MAX mark the thread truncated.
 */
int faulthandler_parse(const char *buf, size_t len, struct py_stacks *s);

#endif
