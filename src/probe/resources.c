/*
 * Resources NCCL needs from the host: /dev/shm for its SHM transport and proxy buffers (Docker
 * gives 64 MB unless told otherwise), and the locked-memory limit that RDMA memory registration
 * runs into. Writability is tested with a real file, because a read-only mount, a full tmpfs or
 * a container's mask all look fine to statvfs.
 */
#include "probe/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/err.h"
#include "util/json.h"
#include "util/xalloc.h"

#define TMPFS_MAGIC_ 0x01021994

/* NCCLCHECK_SHM_PATH (ctx->shm_path) lets tests point the probe at a small tmpfs they mounted. */
static const char *shm_path(const struct probe_ctx *ctx)
{
	return ctx->shm_path ? ctx->shm_path : "/dev/shm";
}

/* Creates, writes and removes a file the way NCCL's shm segments are made; errno on failure. */
static int write_test(const char *dir)
{
	char *path = xasprintf("%s/ncclcheck-probe-XXXXXX", dir);
	char block[4096];
	int fd = mkstemp(path), err = 0;

	if (fd < 0) {
		err = errno;
		free(path);
		return err;
	}
	memset(block, 0, sizeof(block));
	/* a real page of data: a full tmpfs accepts the create and fails the write */
	if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
		err = errno ? errno : ENOSPC;
	close(fd);
	unlink(path);
	free(path);
	return err;
}

static void probe_shm(const struct probe_ctx *ctx, json_t *facts)
{
	const char *path = shm_path(ctx);
	json_t *shm = json_object();
	struct statvfs vfs;
	struct statfs fs;
	struct stat st;
	int err;

	jset_str(shm, "path", path);
	jset_str(shm, "source", "statvfs + a test file");
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		jset_bool(shm, "exists", 0);
		jset_bool(shm, "writable", 0);
		jset_fmt(shm, "error", "%s", stat(path, &st) < 0 ? err_errno_text(errno) : "not a directory");
		json_object_set_new(facts, "shm", shm);
		return;
	}
	jset_bool(shm, "exists", 1);
	if (statvfs(path, &vfs) == 0) {
		jset_int(shm, "size_bytes", (long long)vfs.f_blocks * (long long)vfs.f_frsize);
		jset_int(shm, "avail_bytes", (long long)vfs.f_bavail * (long long)vfs.f_frsize);
		jset_bool(shm, "read_only", (vfs.f_flag & ST_RDONLY) != 0);
	} else {
		jset_unknown(shm, "size_bytes", "statvfs('%s') failed: %s", path, err_errno_text(errno));
	}
	if (statfs(path, &fs) == 0)
		jset_str(shm, "fstype", (unsigned long)fs.f_type == TMPFS_MAGIC_ ? "tmpfs" : "other");
	err = write_test(path);
	jset_bool(shm, "writable", err == 0);
	if (err)
		jset_fmt(shm, "error", "cannot create and write a file in '%s': %s", path,
			 err_errno_text(err));
	json_object_set_new(facts, "shm", shm);
}

static void probe_memlock(json_t *facts)
{
	json_t *limits = jobj_child(facts, "limits"), *ml = json_object();
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0) {
		json_decref(ml);
		jset_unknown(limits, "memlock", "getrlimit(RLIMIT_MEMLOCK) failed: %s", err_errno_text(errno));
		return;
	}
	jset_int(ml, "soft", rl.rlim_cur == RLIM_INFINITY ? -1 : (long long)rl.rlim_cur);
	jset_int(ml, "hard", rl.rlim_max == RLIM_INFINITY ? -1 : (long long)rl.rlim_max);
	jset_str(ml, "source", "getrlimit");
	json_object_set_new(limits, "memlock", ml);
}

void probe_resources(const struct probe_ctx *ctx, json_t *facts)
{
	probe_shm(ctx, facts);
	probe_memlock(facts);
}
