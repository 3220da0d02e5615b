/*
 * The Python probe's parser, split out for unit tests and the fuzzer: an interpreter can print
 * anything (a shim's banner, a warning, a half-written line when it is killed), so the answer is
 * found by a marker and every field is type-checked before it becomes a fact.
 */
#ifndef NCCLCHECK_PROBE_PYTHON_H
#define NCCLCHECK_PROBE_PYTHON_H

#include <stddef.h>

#include <jansson.h>

#include "util/err.h"

/* Starts the line that carries the probe script's JSON answer. */
#define PYPROBE_MARKER "@@ncclcheck-python@@ "

/*
 * Reads the last marker line in `out` and fills the python[] element `entry` (version,
 * executable, prefix, site_packages, torch, lightning, pytorch_lightning). Returns 0, or -1 with
 * `e` describing what was printed instead ("the probe printed 'Traceback ...'").
 */
int python_parse_output(const char *out, size_t len, json_t *entry, struct err *e);

/* The embedded script, for tests that run it under a real interpreter. */
extern const char python_probe_script[];

#endif
