/*
 * The dynamic loader, modelled: glibc's ld.so.cache format, the search order ld.so follows for a
 * soname, and the loader's own system directories. Used by every probe that asks "which copy of
 * this library would a plain program load" (NCCL, cuDNN; libcuda and libibverbs next).
 */
#include "probe/ldso.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/xalloc.h"

/* ---- ld.so.cache ------------------------------------------------------------------------ */

#define LDCACHE_OLD_MAGIC "ld.so-1.7.0"
#define LDCACHE_NEW_MAGIC "glibc-ld.so.cache"
#define LDCACHE_NEW_VERSION "1.1"
/* Header sizes and record sizes of glibc's on-disk structs (sysdeps/generic/dl-cache.h). */
#define LDCACHE_OLD_HDR 16
#define LDCACHE_OLD_REC 12
#define LDCACHE_NEW_HDR 48
#define LDCACHE_NEW_REC 24
/* The new table follows the old one aligned like struct cache_file_new (it holds a uint64_t). */
#define LDCACHE_ALIGN 8

/* glibc's FLAG_* values for the library type and the 64-bit architectures we run on. */
#define LDFLAG_LIBC6 0x0003
#define LDFLAG_X8664_LIB64 0x0300
#define LDFLAG_POWERPC_LIB64 0x0500
#define LDFLAG_AARCH64_LIB64 0x0a00

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* A NUL-terminated string at `off` inside [base, base+size), or NULL. */
static const char *cache_str(const unsigned char *base, size_t size, uint32_t off)
{
	if (off >= size || !memchr(base + off, '\0', size - off))
		return NULL;
	return (const char *)base + off;
}

static void cache_add(struct ldcache *c, const char *key, const char *path, int flags)
{
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n].key = xstrdup(key);
	c->v[c->n].path = xstrdup(path);
	c->v[c->n].flags = flags;
	c->n++;
}

/* The new format: string offsets are relative to the start of its own header. */
static int parse_new(const unsigned char *p, size_t len, struct ldcache *out)
{
	uint32_t nlibs;

	if (len < LDCACHE_NEW_HDR || memcmp(p, LDCACHE_NEW_MAGIC, strlen(LDCACHE_NEW_MAGIC)) ||
	    memcmp(p + strlen(LDCACHE_NEW_MAGIC), LDCACHE_NEW_VERSION, strlen(LDCACHE_NEW_VERSION)))
		return -1;
	nlibs = rd32(p + 20);
	if (nlibs > (len - LDCACHE_NEW_HDR) / LDCACHE_NEW_REC)
		return -1;
	for (uint32_t i = 0; i < nlibs; i++) {
		const unsigned char *r = p + LDCACHE_NEW_HDR + (size_t)i * LDCACHE_NEW_REC;
		const char *key = cache_str(p, len, rd32(r + 4));
		const char *val = cache_str(p, len, rd32(r + 8));
		int32_t flags;

		memcpy(&flags, r, sizeof(flags));
		if (key && val)
			cache_add(out, key, val, flags);
	}
	return 0;
}

int ldcache_parse(const void *data, size_t len, struct ldcache *out, struct err *e)
{
	const unsigned char *p = data;
	size_t olen = strlen(LDCACHE_OLD_MAGIC);

	memset(out, 0, sizeof(*out));
	if (parse_new(p, len, out) == 0)
		return 0;
	if (len >= LDCACHE_OLD_HDR && !memcmp(p, LDCACHE_OLD_MAGIC, olen)) {
		uint32_t nlibs = rd32(p + 12);
		size_t strings, off;

		if (nlibs > (len - LDCACHE_OLD_HDR) / LDCACHE_OLD_REC)
			return err_set(e, ERR_PARSE, "ld.so.cache claims %u entries in %zu bytes",
				       nlibs, len);
		strings = LDCACHE_OLD_HDR + (size_t)nlibs * LDCACHE_OLD_REC;
		off = (strings + LDCACHE_ALIGN - 1) & ~(size_t)(LDCACHE_ALIGN - 1);
		if (off < len && parse_new(p + off, len - off, out) == 0)
			return 0;
		/* only the old table: its strings follow the records */
		for (uint32_t i = 0; i < nlibs; i++) {
			const unsigned char *r = p + LDCACHE_OLD_HDR + (size_t)i * LDCACHE_OLD_REC;
			const char *key = cache_str(p + strings, len - strings, rd32(r + 4));
			const char *val = cache_str(p + strings, len - strings, rd32(r + 8));
			int32_t flags;

			memcpy(&flags, r, sizeof(flags));
			if (key && val)
				cache_add(out, key, val, flags);
		}
		return 0;
	}
	return err_set(e, ERR_PARSE, "not a glibc ld.so.cache (bad magic)");
}

void ldcache_release(struct ldcache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].key);
		free(c->v[i].path);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int ldcache_native(int flags)
{
	/* ld.so's _dl_cache_check_flags: plain ELF (1) or exactly this ABI's default id */
	if (flags == 1)
		return 1;
#if defined(__x86_64__)
	return flags == (LDFLAG_X8664_LIB64 | LDFLAG_LIBC6);
#elif defined(__aarch64__)
	return flags == (LDFLAG_AARCH64_LIB64 | LDFLAG_LIBC6);
#elif defined(__powerpc64__)
	return flags == (LDFLAG_POWERPC_LIB64 | LDFLAG_LIBC6);
#else
	return (flags & 0xff) == LDFLAG_LIBC6;
#endif
}

int ldcache_read(const char *path, struct ldcache *out, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (file_read(path, &sb, LDCACHE_FILE_MAX, e) < 0)
		rc = -1;
	else if (ldcache_parse(sb.buf, sb.len, out, e) < 0) {
		ldcache_release(out);
		rc = err_prefix(e, "'%s'", path);
	}
	strbuf_release(&sb);
	return rc;
}

/* ---- the loader's search order -------------------------------------------------------------- */

int elf_loadable(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;
	uint16_t machine, type;
	struct stat st;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return 0;
	memcpy(&type, h + 16, sizeof(type));
	memcpy(&machine, h + 18, sizeof(machine));
	if (h[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) || type != ET_DYN)
		return 0;
#if defined(__x86_64__)
	return machine == EM_X86_64;
#elif defined(__aarch64__)
	return machine == EM_AARCH64;
#elif defined(__powerpc64__)
	return machine == EM_PPC64;
#else
	(void)machine;
	return 1;
#endif
}

/* dir/soname when it is a loadable object; caller frees. */
static char *try_dir(const char *dir, const char *sub, const char *soname)
{
	char *p = sub ? xasprintf("%s/glibc-hwcaps/%s/%s", dir, sub, soname)
		      : xasprintf("%s/%s", dir, soname);

	if (elf_loadable(p))
		return p;
	free(p);
	return NULL;
}

static char *try_dir_hwcaps(const struct ld_search *s, const char *dir, const char *soname)
{
	char *p;

	for (size_t i = 0; i < s->nhwcaps; i++)
		if ((p = try_dir(dir, s->hwcaps[i], soname)))
			return p;
	return try_dir(dir, NULL, soname);
}

static char *resolve_no_preload(const struct ld_search *s, const char *soname, const char **how)
{
	char *p;

	if (s->library_path) {
		/* ':' and ';' separate; an empty element means the current directory */
		const char *q = s->library_path;
		while (1) {
			size_t n = strcspn(q, ":;");
			char *dir = n ? xstrndup(q, n) : xstrdup(s->cwd ? s->cwd : ".");

			p = try_dir_hwcaps(s, dir, soname);
			free(dir);
			if (p) {
				*how = "LD_LIBRARY_PATH";
				return p;
			}
			if (!q[n])
				break;
			q += n + 1;
		}
	}
	if (s->cache) {
		for (size_t i = 0; i < s->cache->n; i++) {
			const struct ldcache_entry *ce = &s->cache->v[i];
			if (!strcmp(ce->key, soname) && ldcache_native(ce->flags) &&
			    elf_loadable(ce->path)) {
				*how = "ld.so.cache";
				return xstrdup(ce->path);
			}
		}
	}
	for (size_t i = 0; i < s->nsystem_dirs; i++)
		if ((p = try_dir_hwcaps(s, s->system_dirs[i], soname))) {
			*how = "system directory";
			return p;
		}
	return NULL;
}

/* A preloaded object takes the place of any later dependency with the same soname. */
static int preload_matches(const char *entry, const char *soname)
{
	const char *base = strrchr(entry, '/');
	size_t stem = strcspn(soname, ".");

	base = base ? base + 1 : entry;
	/* libnccl.so, libnccl.so.2, libnccl.so.2.28.9 all carry soname libnccl.so.2 */
	return !strncmp(base, soname, stem) && !strncmp(base + stem, ".so", 3);
}

char *ld_search_resolve(const struct ld_search *s, const char *soname, const char **how)
{
	if (s->preload) {
		const char *q = s->preload;
		while (*q) {
			size_t n;
			char *ent, *p = NULL;
			const char *inner;

			q += strspn(q, " :");
			n = strcspn(q, " :");
			if (!n)
				break;
			ent = xstrndup(q, n);
			q += n;
			if (!preload_matches(ent, soname)) {
				free(ent);
				continue;
			}
			if (strchr(ent, '/'))
				p = elf_loadable(ent) ? xstrdup(ent) : NULL;
			else
				p = resolve_no_preload(s, ent, &inner);
			free(ent);
			if (p) {
				*how = "LD_PRELOAD";
				return p;
			}
		}
	}
	return resolve_no_preload(s, soname, how);
}

/* ---- the loader's own directories ------------------------------------------------------------ */

static void push(char ***v, size_t *n, size_t *alloc, const char *s)
{
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = xstrdup(s);
}

static int interp_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	char *out = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP) {
			snprintf(out, PATH_MAX, "%s",
				 (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr));
			return 1;
		}
	return 1; /* only the main program (the first object) has the answer */
}

static const char *multiarch_triplet(void)
{
#if defined(__x86_64__)
	return "x86_64-linux-gnu";
#elif defined(__aarch64__)
	return "aarch64-linux-gnu";
#elif defined(__powerpc64__)
	return "powerpc64le-linux-gnu";
#else
	return NULL;
#endif
}

void ldso_dirs_get(struct ldso_dirs *d)
{
	char interp[PATH_MAX] = "";
	struct subproc_result r;
	int section = 0;

	memset(d, 0, sizeof(*d));
	dl_iterate_phdr(interp_cb, interp);
	subproc_result_init(&r);
	if (interp[0]) {
		char *argv[] = { interp, "--help", NULL };
		if (subproc_run(argv, NULL, 2000, 64 * 1024, &r, NULL) == 0 && r.exited) {
			char *save = NULL;
			for (char *line = strtok_r(r.out.buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				char *sp;
				if (!strncmp(line, "Shared library search path", 26))
					section = 1;
				else if (!strncmp(line, "Subdirectories of glibc-hwcaps", 30))
					section = 2;
				else if (line[0] != ' ')
					section = 0;
				else if (section == 1 && (sp = strstr(line, " (system search path)"))) {
					*sp = '\0';
					push(&d->dirs, &d->ndirs, &d->adirs, line + strspn(line, " "));
				} else if (section == 2 && (sp = strstr(line, " (supported, searched)"))) {
					*sp = '\0';
					push(&d->hwcaps, &d->nhwcaps, &d->ahwcaps, line + strspn(line, " "));
				}
			}
		}
	}
	subproc_result_release(&r);
	if (d->ndirs) {
		d->source = "ld.so --help";
		return;
	}
	d->source = "built-in list";
	{
		const char *t = multiarch_triplet();
		char buf[PATH_MAX];

		snprintf(buf, sizeof(buf), "/lib/%s", t ? t : "");
		if (t && file_is_dir(buf)) {
			push(&d->dirs, &d->ndirs, &d->adirs, buf);
			snprintf(buf, sizeof(buf), "/usr/lib/%s", t);
			push(&d->dirs, &d->ndirs, &d->adirs, buf);
		} else if (sizeof(void *) == 8) {
			push(&d->dirs, &d->ndirs, &d->adirs, "/lib64");
			push(&d->dirs, &d->ndirs, &d->adirs, "/usr/lib64");
		}
		push(&d->dirs, &d->ndirs, &d->adirs, "/lib");
		push(&d->dirs, &d->ndirs, &d->adirs, "/usr/lib");
	}
}

void ldso_dirs_release(struct ldso_dirs *d)
{
	for (size_t i = 0; i < d->ndirs; i++)
		free(d->dirs[i]);
	for (size_t i = 0; i < d->nhwcaps; i++)
		free(d->hwcaps[i]);
	free(d->dirs);
	free(d->hwcaps);
}
