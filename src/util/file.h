/* Bounded reads of small files (sysfs, procfs, /etc, version headers). */
#ifndef NCCLCHECK_FILE_H
#define NCCLCHECK_FILE_H

#include <stddef.h>

#include "util/err.h"

struct strbuf;

/*
 * Appends at most `cap` bytes of `path` to `sb`. Returns 0, or -1 with `e` set when the file
 * cannot be opened or read. A file longer than `cap` is truncated silently: callers read
 * small, known files, and must not be made to allocate whatever a hostile file holds.
 */
int file_read(const char *path, struct strbuf *sb, size_t cap, struct err *e);

/* The first line of `path` without its newline, into `buf`; -1 when unreadable or empty. */
int file_read_line(const char *path, char *buf, size_t len);

/* A file holding one integer (sysfs style); -1 when unreadable or not a number. */
int file_read_long(const char *path, long *out);

int file_exists(const char *path);
int file_is_dir(const char *path);

/* Joins `root` and `rel` ("/" + "sys/class/net" or "/tmp/fx" + "/sys/class/net"). Caller frees. */
char *path_join(const char *root, const char *rel);

#endif
