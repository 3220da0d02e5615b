/* file: see file.h. */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

int file_read(const char *path, struct strbuf *sb, size_t cap, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t total = 0;

	if (fd < 0)
		return err_sys(e, "cannot open '%s'", path);
	while (total < cap) {
		char chunk[4096];
		size_t want = cap - total < sizeof(chunk) ? cap - total : sizeof(chunk);
		ssize_t n = read(fd, chunk, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return err_sys(e, "cannot read '%s'", path);
		}
		if (n == 0)
			break;
		strbuf_add(sb, chunk, (size_t)n);
		total += (size_t)n;
	}
	close(fd);
	return 0;
}

int file_read_line(const char *path, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl;

	if (!len || file_read(path, &sb, 4096, NULL) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	nl = strchr(sb.buf, '\n');
	if (nl)
		*nl = '\0';
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
	return buf[0] ? 0 : -1;
}

int file_read_long(const char *path, long *out)
{
	char buf[64], *end;
	long v;

	if (file_read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -1;
	*out = v;
	return 0;
}

int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int file_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *path_join(const char *root, const char *rel)
{
	size_t rl;

	if (!root || !*root)
		root = "/";
	rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	while (*rel == '/')
		rel++;
	if (rl == 1 && root[0] == '/')
		return xasprintf("/%s", rel);
	return xasprintf("%.*s/%s", (int)rl, root, rel);
}
