/*
 * Internal to probe/python.c (choosing and running the interpreters, the static torch path)
 * and probe/python_parse.c (the embedded script and its answer): what both use. Not a public
 * interface.
 */
#ifndef NCCLCHECK_PROBE_PYTHON_INT_H
#define NCCLCHECK_PROBE_PYTHON_INT_H

#include <stddef.h>

#include "probe/python.h"
#include "util/json.h"

/* A short, printable excerpt of what an interpreter printed, for "unknown, because ...". */
void python_excerpt(const char *s, size_t len, char *out, size_t outlen);
const char *python_str_member(const json_t *o, const char *key);
/* torch.backends.cudnn.version()'s code, in the encoding of its era (91002, 8907). */
void python_set_cudnn(json_t *out, long long v);

#endif
