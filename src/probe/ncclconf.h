/* NCCL's config files: the bytes of nccl.conf split into NAME=value lines the way NCCL does. */
#ifndef NCCLCHECK_PROBE_NCCLCONF_H
#define NCCLCHECK_PROBE_NCCLCONF_H

#include <stddef.h>

/* One NAME=value line of an NCCL config file, as NCCL itself splits it. */
struct ncclconf_var {
	char *name;	/* everything before the first '=', untrimmed, at most 1023 bytes */
	char *value;	/* the rest of the line without its '\n', at most 1023 bytes */
	int line;	/* 1-based */
	int shadowed;	/* an earlier line set the same name: NCCL keeps the first (setenv, no overwrite) */
};

struct ncclconf {
	struct ncclconf_var *v;
	size_t n, alloc;
	int comment_lines;	/* lines starting with '#', skipped by NCCL 2.26+ */
	int ignored_lines;	/* lines without '=' or with an empty name */
};

/* Splits a config file the way NCCL's setEnvFile() does. Never fails; any bytes are accepted. */
void ncclconf_parse(const char *data, size_t len, struct ncclconf *out);
void ncclconf_release(struct ncclconf *c);

#endif
