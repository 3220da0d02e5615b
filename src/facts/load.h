/*
 * Reading a saved facts document: `ncclcheck node --json` output (its "facts" member) or the
 * bare facts object, from a file or from bytes (a peer's, a fuzzer's). Strict JSON (duplicate
 * keys are refused), a size cap, and a schema_version check; the typed checks of the members are
 * node_model_new()'s.
 */
#ifndef NCCLCHECK_FACTS_LOAD_H
#define NCCLCHECK_FACTS_LOAD_H

#include <stddef.h>

#include <jansson.h>

#include "util/err.h"

/* Facts documents (and the cluster documents that hold them) are small; anything bigger is not one. */
#define FACTS_MAX_BYTES (64L << 20)

/* The facts object (new reference), or NULL with the reason in `e`. */
json_t *facts_load_file(const char *path, struct err *e);
json_t *facts_load_bytes(const char *buf, size_t len, struct err *e);

/*
 * A saved ncclcheck document as it is: `node --json`, `cluster --json` or bare facts (config
 * --from tells them apart). The same strict reading (size cap, duplicate keys refused), no
 * unwrapping. New reference, or NULL with the reason in `e`.
 */
json_t *facts_load_doc(const char *path, struct err *e);

#endif
