/*
 * Internal to attach/ras.c (the client protocol) and attach/ras_report.c (the STATUS report
 * decoders): what both use. Not a public interface.
 */
#ifndef NCCLCHECK_ATTACH_RAS_INT_H
#define NCCLCHECK_ATTACH_RAS_INT_H

#include "attach/ras.h"

#define RAS_LINE_MAX 1024

#endif
