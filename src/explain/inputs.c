/* Which inputs a command line names: files, '-', directories of per-rank logs (see explain.h). */
#include "explain/explain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

int explain_natcmp(const char *x, const char *y)
{
	while (*x && *y) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			char *ex, *ey;
			unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
			if (nx != ny)
				return nx < ny ? -1 : 1;
			x = ex;
			y = ey;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

static int natcmp_ptr(const void *a, const void *b)
{
	return explain_natcmp(*(char *const *)a, *(char *const *)b);
}

int explain_feed_fd(struct explain *x, const char *name, int fd, struct err *e)
{
	struct lreader *r = lreader_fd(fd, EXPLAIN_MAX_LINE);
	int rc = explain_feed(x, name, r, e);

	lreader_free(r);
	return rc;
}

static int feed_path(struct explain *x, const char *path, int depth, struct err *e);

static int feed_dir(struct explain *x, const char *path, int depth, struct err *e)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;

	if (!d)
		return err_sys(e, "cannot read directory '%s'", path);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xasprintf("%s/%s", path, de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), natcmp_ptr);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		/* regular files, and one level of subdirectories (a directory per node) */
		if (!rc && stat(names[i], &st) == 0 &&
		    (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && depth < 1)))
			rc = feed_path(x, names[i], depth + 1, e);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int feed_path(struct explain *x, const char *path, int depth, struct err *e)
{
	struct stat st;
	int fd, rc;

	if (!strcmp(path, "-"))
		return explain_feed_fd(x, "<stdin>", 0, e);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_sys(e, "cannot read '%s'", path);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return feed_dir(x, path, depth, e);
	}
	rc = explain_feed_fd(x, path, fd, e);
	close(fd);
	return rc;
}

int explain_feed_path(struct explain *x, const char *path, struct err *e)
{
	return feed_path(x, path, 0, e);
}
