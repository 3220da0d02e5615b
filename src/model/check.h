/*
 * The types of every facts member the node model reads (model/node.c), checked before anything
 * is decoded: a member that is absent, null or {"unknown": ...} is fine; one of another type (a
 * string where a number belongs, an object where a list does), or a port range that is not one,
 * refuses the whole document with the member's path in `e`. Peers' documents and --facts FILE
 * pass through here, so nothing downstream ever sees a half-valid document.
 */
#ifndef NCCLCHECK_MODEL_CHECK_H
#define NCCLCHECK_MODEL_CHECK_H

#include <jansson.h>

#include "util/err.h"

/* 0 when `facts` may become a model, else -1 with ERR_PARSE and the reason in `e`. */
int node_facts_check(const json_t *facts, struct err *e);

#endif
