/*
 * The human-readable inventory that `node` prints above its findings, rendered from the node
 * model: the facts as they are, and what the model concluded (the interface NCCL will use). It
 * computes nothing of its own.
 */
#ifndef NCCLCHECK_INVENTORY_H
#define NCCLCHECK_INVENTORY_H

#include <stdio.h>

#include "model/node.h"
#include "report/render.h"

void render_inventory_text(FILE *out, const struct node_model *m, const struct render_opts *o);

/*
 * Section renderers, one per area of facts, each in the file of its area. Each prints a heading
 * and aligned "key  value" lines, and prints "unknown (reason)" for unknown facts.
 */
void inv_host(FILE *out, const struct node_model *m, const struct render_opts *o);
void inv_cloud(FILE *out, const struct node_model *m, const struct render_opts *o);
void inv_gpu(FILE *out, const struct node_model *m, const struct render_opts *o);
void inv_stack(FILE *out, const struct node_model *m, const struct render_opts *o);
void inv_net(FILE *out, const struct node_model *m, const struct render_opts *o);

/* Shared line helpers for section renderers. */
void inv_heading(FILE *out, const struct render_opts *o, const char *title);
void inv_line(FILE *out, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A string fact, or "unknown (reason)", or "-" when absent. */
void inv_text(FILE *out, const char *key, const struct nm_text *t);

#endif
