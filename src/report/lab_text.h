/* The text form of the lab status document. */
#ifndef NCCLCHECK_REPORT_LAB_TEXT_H
#define NCCLCHECK_REPORT_LAB_TEXT_H

#include <stdio.h>

#include <jansson.h>

/*
 * Every lab of `status` (lab_status()): state, problem and fix, nodes, launch environment, the
 * planned faults, what the kernel holds now and whether it matches, and how to see and remove it.
 */
void render_lab_status_text(FILE *out, const json_t *status);

#endif
