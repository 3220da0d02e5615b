/* Which NCCL the job runs, decided from the facts for the node model (model/node.c). Pure. */
#ifndef NCCLCHECK_RULES_STACK_H
#define NCCLCHECK_RULES_STACK_H

#include <jansson.h>

/*
 * Which NCCL the user's training will run with, and why we think so. In order of evidence:
 * the libnccl a torch process actually mapped (python[].torch.nccl_mapped, with the version
 * torch reports), else the version torch reports, else the copy the dynamic loader picks for a
 * plain program (nccl.libs[] with default = true), else the newest copy found.
 * Returns the version string ("2.28.9") or NULL when no NCCL is known; *path (may be NULL) and
 * *why (a short phrase for findings) are borrowed from `facts` or static.
 */
const char *stack_effective_nccl(const json_t *facts, const char **path, const char **why);

/* The first python[] entry whose torch reports an NCCL version (a CUDA build), or NULL. */
const json_t *stack_nccl_python(const json_t *facts);

#endif
