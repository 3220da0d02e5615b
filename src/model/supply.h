/*
 * The supply-chain facts of one Python environment (facts python[].supply): the wheels checked
 * against their RECORD and any Lightning payload directory. Kept apart from node.c so the
 * decoding of this one section reads in one place.
 */
#ifndef NCCLCHECK_MODEL_SUPPLY_H
#define NCCLCHECK_MODEL_SUPPLY_H

#include <jansson.h>

#include "model/node.h"

/* Fills p->dists and p->payloads from `supply` (absent or unknown: none). */
void nm_python_supply(struct nm_python *p, const json_t *supply);
void nm_python_supply_free(struct nm_python *p);

#endif
