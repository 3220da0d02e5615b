/*
 * Loading optional libraries at run time (htop's pattern): NVML, the CUDA driver, NCCL and
 * libibverbs are never linked, so ncclcheck runs where they are absent.
 */
#ifndef NCCLCHECK_DL_H
#define NCCLCHECK_DL_H

#include "util/err.h"

/*
 * dlopen()s the first of `names` that loads (RTLD_NOW | RTLD_LOCAL). When `override` (a full
 * path, for tests and odd installs; NULL or "" for none) is given, only it is tried, and a failure
 * names `override_from` (the knob it came from, e.g. "NCCLCHECK_NVML_LIB"). Try the versioned
 * soname before the bare name: only -dev packages install the bare one. Returns the handle, or
 * NULL with every attempt's dlerror() summarised in `e`.
 */
void *dl_open_first(const char *override, const char *override_from, const char *const names[],
		    struct err *e);

/*
 * Resolves `name` into *fn (a function pointer variable passed as void **). Returns 0, or -1 with
 * `e` naming the missing symbol.
 */
int dl_sym(void *handle, const char *name, void **fn, struct err *e);

/* The file a handle was loaded from (dlinfo RTLD_DI_LINKMAP), into buf; -1 if unknown. */
int dl_path(void *handle, char *buf, unsigned len);

#endif
