/* Reading another process's memory without stopping it, or a recorded image of it (pymem.h). */
#include "attach/pymem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util/xalloc.h"

#define HDR_LEN (8 + 4 + 4 + 8 + 8 + 8)

void pymem_live(struct pymem *m, int pid, int record)
{
	memset(m, 0, sizeof(*m));
	m->kind = PYMEM_LIVE;
	m->pid = pid;
	m->memfd = -1;
	m->recording = record;
	strbuf_init(&m->rec, 0);
}

static uint64_t le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put_le(struct strbuf *sb, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addch(sb, (int)((v >> (8 * i)) & 0xff));
}

int pymem_image(struct pymem *m, const void *buf, size_t len, struct py_target *t,
		struct err *e)
{
	const unsigned char *p = buf;
	size_t off = HDR_LEN;
	uint32_t n;

	memset(m, 0, sizeof(*m));
	m->kind = PYMEM_IMAGE;
	m->memfd = -1;
	strbuf_init(&m->rec, 0);
	memset(t, 0, sizeof(*t));
	if (len < HDR_LEN || memcmp(p, PYMEM_IMAGE_MAGIC, 8))
		return err_set(e, ERR_PARSE, "not a memory image (no %s header)", PYMEM_IMAGE_MAGIC);
	t->version_hex = (unsigned)le(p + 8, 4);
	n = (uint32_t)le(p + 12, 4);
	t->runtime = le(p + 16, 8);
	t->code_type = le(p + 24, 8);
	t->debug_offsets = le(p + 32, 8);
	if (n > PYMEM_SEGS_MAX)
		return err_set(e, ERR_PARSE, "memory image: %u segments (at most %u)", n,
			       PYMEM_SEGS_MAX);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t sl;

		if (len - off < 12) {
			pymem_release(m);
			return err_set(e, ERR_PARSE, "memory image: segment %u is truncated", i);
		}
		sl = (uint32_t)le(p + off + 8, 4);
		if (sl > PYMEM_SEG_MAX || sl > len - off - 12) {
			pymem_release(m);
			return err_set(e, ERR_PARSE, "memory image: segment %u says %u bytes, %zu left", i,
				       sl, len - off - 12);
		}
		ALLOC_GROW(m->segs, m->nsegs + 1, m->asegs);
		m->segs[m->nsegs++] = (struct pymem_seg){ .addr = le(p + off, 8), .len = sl,
							  .data = p + off + 12 };
		off += 12 + (size_t)sl;
	}
	if (off != len) {
		pymem_release(m);
		return err_set(e, ERR_PARSE, "memory image: %zu bytes after the last segment", len - off);
	}
	return 0;
}

/* An image serves a read only from one segment that holds all of it (later segments win: a
 * recording may have read the same address twice as the process moved on). */
static int image_read(const struct pymem *m, uint64_t addr, void *buf, size_t n)
{
	for (size_t i = m->nsegs; i-- > 0;) {
		const struct pymem_seg *s = &m->segs[i];
		if (addr >= s->addr && addr - s->addr <= s->len && n <= s->len - (addr - s->addr)) {
			memcpy(buf, s->data + (addr - s->addr), n);
			return 0;
		}
	}
	return -1;
}

static int live_read(struct pymem *m, uint64_t addr, void *buf, size_t n)
{
	struct iovec local = { buf, n }, remote = { (void *)(uintptr_t)addr, n };
	ssize_t got;

	if (m->memfd < 0) {
		got = process_vm_readv(m->pid, &local, 1, &remote, 1, 0);
		if (got == (ssize_t)n)
			return 0;
		/* ENOSYS (an old kernel, a seccomp filter in a container) or EPERM under some LSMs:
		 * /proc/PID/mem is the same access check through another door */
		if (got >= 0 || (errno != ENOSYS && errno != EPERM)) {
			m->last_errno = got >= 0 ? EFAULT : errno;
			return -1;
		}
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/mem", m->pid);
		m->memfd = open(path, O_RDONLY | O_CLOEXEC);
		if (m->memfd < 0) {
			m->last_errno = errno;
			m->memfd = -2;	/* neither door: do not try again */
			return -1;
		}
	}
	if (m->memfd == -2)
		return -1;
	got = pread(m->memfd, buf, n, (off_t)addr);
	if (got != (ssize_t)n) {
		m->last_errno = got < 0 ? errno : EFAULT;
		return -1;
	}
	return 0;
}

int pymem_read(struct pymem *m, uint64_t addr, void *buf, size_t n)
{
	if (n > PYMEM_SEG_MAX || addr + n < addr)
		return -1;
	if (m->kind == PYMEM_IMAGE)
		return image_read(m, addr, buf, n);
	if (live_read(m, addr, buf, n) < 0)
		return -1;
	m->nread += n;
	if (m->recording && m->nrec < PYMEM_SEGS_MAX) {
		put_le(&m->rec, addr, 8);
		put_le(&m->rec, n, 4);
		strbuf_add(&m->rec, buf, n);
		m->nrec++;
	}
	return 0;
}

void pymem_image_bytes(const struct pymem *m, const struct py_target *t, struct strbuf *out)
{
	strbuf_add(out, PYMEM_IMAGE_MAGIC, 8);
	put_le(out, t->version_hex, 4);
	put_le(out, m->nrec, 4);
	put_le(out, t->runtime, 8);
	put_le(out, t->code_type, 8);
	put_le(out, t->debug_offsets, 8);
	strbuf_add(out, m->rec.buf, m->rec.len);
}

void pymem_release(struct pymem *m)
{
	if (m->memfd >= 0)
		close(m->memfd);
	free(m->segs);
	strbuf_release(&m->rec);
	memset(m, 0, sizeof(*m));
	m->memfd = -1;
}
