/* ELF dynamic sections and symbol lookups without loading: see elf.h. */
#include "probe/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define PHDRS_MAX 512
#define DYN_MAX 4096		/* entries of the dynamic section we read */
#define STR_MAX 4096		/* longest name or path we take from .dynstr */
#define CHAIN_MAX 100000	/* hash chain steps before we call the table malformed */

struct rd {
	const struct elf_src *src;
	int is64, little;
};

static int get(const struct rd *r, void *buf, size_t n, uint64_t off)
{
	if (off > r->src->size || n > r->src->size - off)
		return -1;
	return r->src->read_at(r->src, buf, n, off) == (ssize_t)n ? 0 : -1;
}

static uint64_t u(const struct rd *r, const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[r->little ? i : n - 1 - i] << (8 * i);
	return v;
}

/* A NUL-terminated string at off (bounded), or NULL. */
static char *str_at(const struct rd *r, uint64_t off, uint64_t limit_end)
{
	char buf[STR_MAX];
	uint64_t end = limit_end < r->src->size ? limit_end : r->src->size;
	size_t n;

	if (off >= end)
		return NULL;
	n = end - off < sizeof(buf) ? (size_t)(end - off) : sizeof(buf);
	if (r->src->read_at(r->src, buf, n, off) != (ssize_t)n)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			return xstrndup(buf, i);
	return NULL;
}

struct load {
	uint64_t vaddr, memsz, offset, filesz;
};

/* A virtual address to a file offset through the PT_LOAD segments; 0 when unmapped. */
static uint64_t v2off(const struct load *ld, size_t n, uint64_t va)
{
	for (size_t i = 0; i < n; i++)
		if (va >= ld[i].vaddr && va - ld[i].vaddr < ld[i].filesz)
			return ld[i].offset + (va - ld[i].vaddr);
	return 0;
}

int elf_dyn_read(const struct elf_src *src, struct elf_dyn *out, struct err *e)
{
	unsigned char eh[64], ph[56];
	struct load ld[64];
	struct rd r = { .src = src };
	uint64_t phoff, dynoff = 0, dynsz = 0, strtab_va = 0, strsz = 0;
	uint64_t runpath = (uint64_t)-1, rpath = (uint64_t)-1, soname = (uint64_t)-1;
	uint64_t needed[ELF_NEEDED_MAX], symtab_va = 0, gnu_va = 0, hash_va = 0, syment = 0;
	size_t nld = 0, nneeded = 0, phentsize, phnum, dsz;

	memset(out, 0, sizeof(*out));
	if (src->size < 52 || src->read_at(src, eh, src->size < 64 ? 52 : 64, 0) < 52 ||
	    memcmp(eh, ELFMAG, SELFMAG))
		return err_set(e, ERR_PARSE, "not an ELF file");
	if (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64)
		return err_set(e, ERR_PARSE, "unknown ELF class %u", eh[EI_CLASS]);
	if (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB)
		return err_set(e, ERR_PARSE, "unknown ELF byte order %u", eh[EI_DATA]);
	r.is64 = eh[EI_CLASS] == ELFCLASS64;
	r.little = eh[EI_DATA] == ELFDATA2LSB;
	if (r.is64 && src->size < 64)
		return err_set(e, ERR_PARSE, "truncated ELF header");
	out->is64 = r.is64;
	out->little = r.little;
	out->type = (unsigned)u(&r, eh + 16, 2);
	out->machine = (unsigned)u(&r, eh + 18, 2);
	phoff = r.is64 ? u(&r, eh + 32, 8) : u(&r, eh + 28, 4);
	phentsize = (size_t)u(&r, eh + (r.is64 ? 54 : 42), 2);
	phnum = (size_t)u(&r, eh + (r.is64 ? 56 : 44), 2);
	if (phentsize != (r.is64 ? 56u : 32u) || !phnum || phnum > PHDRS_MAX)
		return err_set(e, ERR_PARSE, "bad program header table (%zu entries of %zu bytes)",
			       phnum, phentsize);

	for (size_t i = 0; i < phnum; i++) {
		uint32_t type;
		uint64_t off, va, filesz, memsz;

		if (get(&r, ph, phentsize, phoff + i * phentsize) < 0)
			return err_set(e, ERR_PARSE, "program header %zu is outside the file", i);
		type = (uint32_t)u(&r, ph, 4);
		if (r.is64) {
			off = u(&r, ph + 8, 8);
			va = u(&r, ph + 16, 8);
			filesz = u(&r, ph + 32, 8);
			memsz = u(&r, ph + 40, 8);
		} else {
			off = u(&r, ph + 4, 4);
			va = u(&r, ph + 8, 4);
			filesz = u(&r, ph + 16, 4);
			memsz = u(&r, ph + 20, 4);
		}
		if (type == PT_LOAD && !out->load_base_set && va >= off) {
			/* where file offset 0 lands before the load bias: the first segment's
			 * address less its offset (ld.so maps every segment at the same bias) */
			out->load_base = (va - off) & ~(uint64_t)0xfff;
			out->load_base_set = 1;
		}
		if (type == PT_LOAD && nld < sizeof(ld) / sizeof(ld[0]))
			ld[nld++] = (struct load){ .vaddr = va, .memsz = memsz, .offset = off,
						   .filesz = filesz };
		else if (type == PT_DYNAMIC) {
			dynoff = off;
			dynsz = filesz;
		}
	}
	if (!dynsz)
		return err_set(e, ERR_PARSE, "no dynamic section (a static executable?)");
	dsz = r.is64 ? 16 : 8;
	for (size_t i = 0; i < dynsz / dsz && i < DYN_MAX; i++) {
		unsigned char d[16];
		uint64_t tag, val;

		if (get(&r, d, dsz, dynoff + i * dsz) < 0)
			return err_set(e, ERR_PARSE, "the dynamic section runs past the file");
		tag = u(&r, d, dsz / 2);
		val = u(&r, d + dsz / 2, dsz / 2);
		if (tag == DT_NULL)
			break;
		switch (tag) {
		case DT_NEEDED:
			if (nneeded < ELF_NEEDED_MAX)
				needed[nneeded++] = val;
			break;
		case DT_STRTAB: strtab_va = val; break;
		case DT_STRSZ: strsz = val; break;
		case DT_RUNPATH: runpath = val; break;
		case DT_RPATH: rpath = val; break;
		case DT_SONAME: soname = val; break;
		case DT_SYMTAB: symtab_va = val; break;
		case DT_SYMENT: syment = val; break;
		case DT_GNU_HASH: gnu_va = val; break;
		case DT_HASH: hash_va = val; break;
		default: break;
		}
	}
	out->strtab = v2off(ld, nld, strtab_va);
	out->strsz = strsz;
	if (!out->strtab || !strsz || out->strtab > src->size || strsz > src->size - out->strtab)
		return err_set(e, ERR_PARSE, "the dynamic string table is missing or outside the file");
	out->symtab = v2off(ld, nld, symtab_va);
	out->gnu_hash = v2off(ld, nld, gnu_va);
	out->sysv_hash = v2off(ld, nld, hash_va);
	out->syment = syment ? syment : (r.is64 ? 24 : 16);

#define STR(v) ((v) < strsz ? str_at(&r, out->strtab + (v), out->strtab + strsz) : NULL)
	for (size_t i = 0; i < nneeded; i++) {
		char *s = STR(needed[i]);
		if (!s) {
			elf_dyn_release(out);
			return err_set(e, ERR_PARSE, "DT_NEEDED %zu points outside the string table", i);
		}
		out->needed[out->nneeded++] = s;
	}
	if (runpath != (uint64_t)-1)
		out->runpath = STR(runpath);
	if (rpath != (uint64_t)-1)
		out->rpath = STR(rpath);
	if (soname != (uint64_t)-1)
		out->soname = STR(soname);
#undef STR
	return 0;
}

void elf_dyn_release(struct elf_dyn *d)
{
	for (size_t i = 0; i < d->nneeded; i++)
		free(d->needed[i]);
	free(d->runpath);
	free(d->rpath);
	free(d->soname);
	memset(d, 0, sizeof(*d));
}

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0, g;

	for (; *s; s++) {
		h = (h << 4) + (unsigned char)*s;
		g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/* Symbol `idx`: 1 when it is `name` and defined (its value and size into *out), 0 when not,
 * -1 when unreadable. */
static int sym_is(const struct rd *r, const struct elf_dyn *d, uint64_t idx, const char *name,
		  struct elf_sym *out)
{
	unsigned char s[24];
	uint64_t nameoff, shndx;
	char *nm;
	int hit;

	if (get(r, s, (size_t)(r->is64 ? 24 : 16), d->symtab + idx * d->syment) < 0)
		return -1;
	nameoff = u(r, s, 4);
	shndx = r->is64 ? u(r, s + 6, 2) : u(r, s + 14, 2);
	if (nameoff >= d->strsz)
		return -1;
	nm = str_at(r, d->strtab + nameoff, d->strtab + d->strsz);
	if (!nm)
		return -1;
	hit = !strcmp(nm, name) && shndx != SHN_UNDEF;
	free(nm);
	if (hit && out) {
		out->value = r->is64 ? u(r, s + 8, 8) : u(r, s + 4, 4);
		out->size = r->is64 ? u(r, s + 16, 8) : u(r, s + 8, 4);
	}
	return hit;
}

int elf_defines(const struct elf_src *src, const struct elf_dyn *d, const char *name)
{
	return elf_lookup(src, d, name, NULL);
}

int elf_lookup(const struct elf_src *src, const struct elf_dyn *d, const char *name,
	       struct elf_sym *out)
{
	struct rd r = { .src = src, .is64 = d->is64, .little = d->little };
	unsigned char b[16];

	if (!d->symtab || (d->syment != (d->is64 ? 24u : 16u)))
		return -1;
	if (d->gnu_hash) {
		uint32_t nbuckets, symoffset, bloom_size, h = gnu_hash(name), v;
		uint64_t buckets, chain;
		size_t word = d->is64 ? 8 : 4;

		if (get(&r, b, 16, d->gnu_hash) < 0)
			return -1;
		nbuckets = (uint32_t)u(&r, b, 4);
		symoffset = (uint32_t)u(&r, b + 4, 4);
		bloom_size = (uint32_t)u(&r, b + 8, 4);
		if (!nbuckets || bloom_size > (1u << 24))
			return -1;
		buckets = d->gnu_hash + 16 + (uint64_t)bloom_size * word;
		chain = buckets + (uint64_t)nbuckets * 4;
		if (get(&r, b, 4, buckets + (uint64_t)(h % nbuckets) * 4) < 0)
			return -1;
		v = (uint32_t)u(&r, b, 4);
		if (v < symoffset)
			return 0;
		for (int steps = 0; steps < CHAIN_MAX; steps++, v++) {
			uint32_t ch;

			if (get(&r, b, 4, chain + (uint64_t)(v - symoffset) * 4) < 0)
				return -1;
			ch = (uint32_t)u(&r, b, 4);
			if ((ch | 1) == (h | 1)) {
				int is = sym_is(&r, d, v, name, out);
				if (is != 0)
					return is;
			}
			if (ch & 1)
				return 0;
		}
		return -1;
	}
	if (d->sysv_hash) {
		uint32_t nbucket, nchain, idx;

		if (get(&r, b, 8, d->sysv_hash) < 0)
			return -1;
		nbucket = (uint32_t)u(&r, b, 4);
		nchain = (uint32_t)u(&r, b + 4, 4);
		if (!nbucket)
			return -1;
		if (get(&r, b, 4, d->sysv_hash + 8 + (uint64_t)(sysv_hash(name) % nbucket) * 4) < 0)
			return -1;
		idx = (uint32_t)u(&r, b, 4);
		for (int steps = 0; idx != STN_UNDEF && steps < CHAIN_MAX; steps++) {
			int is;

			if (idx >= nchain)
				return -1;
			is = sym_is(&r, d, idx, name, out);
			if (is != 0)
				return is;
			if (get(&r, b, 4, d->sysv_hash + 8 + ((uint64_t)nbucket + idx) * 4) < 0)
				return -1;
			idx = (uint32_t)u(&r, b, 4);
		}
		return idx == STN_UNDEF ? 0 : -1;
	}
	return -1;
}

static ssize_t fd_read(const struct elf_src *src, void *buf, size_t n, uint64_t off)
{
	return pread(src->fd, buf, n, (off_t)off);
}

int elf_src_fd(struct elf_src *src, int fd)
{
	struct stat st;

	memset(src, 0, sizeof(*src));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	src->read_at = fd_read;
	src->fd = fd;
	src->size = (uint64_t)st.st_size;
	return 0;
}

static ssize_t mem_read(const struct elf_src *src, void *buf, size_t n, uint64_t off)
{
	if (off >= src->size)
		return 0;
	if (n > src->size - off)
		n = (size_t)(src->size - off);
	memcpy(buf, src->mem + off, n);
	return (ssize_t)n;
}

void elf_src_mem(struct elf_src *src, const void *data, size_t len)
{
	memset(src, 0, sizeof(*src));
	src->read_at = mem_read;
	src->mem = data;
	src->size = len;
	src->fd = -1;
}

int elf_dyn_read_path(const char *path, struct elf_dyn *out, int *defines_nccl, struct err *e)
{
	struct elf_src src;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return err_sys(e, "cannot open '%s'", path);
	if (elf_src_fd(&src, fd) < 0) {
		close(fd);
		return err_set(e, ERR_PARSE, "'%s' is not a regular file", path);
	}
	rc = elf_dyn_read(&src, out, e);
	if (rc == 0 && defines_nccl)
		*defines_nccl = elf_defines(&src, out, "ncclGetVersion");
	close(fd);
	if (rc < 0)
		err_prefix(e, "'%s'", path);
	return rc;
}

int elf_path_defines(const char *path, const char *name)
{
	struct elf_dyn d;
	struct elf_src src;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc = -1;

	if (fd < 0)
		return -1;
	if (elf_src_fd(&src, fd) == 0 && elf_dyn_read(&src, &d, NULL) == 0) {
		rc = elf_defines(&src, &d, name);
		elf_dyn_release(&d);
	}
	close(fd);
	return rc;
}

char *elf_expand_origin(const char *elem, size_t len, const char *origin)
{
	static const struct {
		const char *tok;
		const char *val;	/* NULL: the origin */
	} subst[] = {
		{ "${ORIGIN}", NULL }, { "$ORIGIN", NULL },
#if defined(__x86_64__) || defined(__aarch64__)
		{ "${LIB}", "lib64" }, { "$LIB", "lib64" },
#endif
#if defined(__x86_64__)
		{ "${PLATFORM}", "x86_64" }, { "$PLATFORM", "x86_64" },
#elif defined(__aarch64__)
		{ "${PLATFORM}", "aarch64" }, { "$PLATFORM", "aarch64" },
#endif
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	while (i < len) {
		size_t k;

		for (k = 0; k < sizeof(subst) / sizeof(subst[0]); k++) {
			size_t tl = strlen(subst[k].tok);
			if (len - i >= tl && !memcmp(elem + i, subst[k].tok, tl)) {
				strbuf_addstr(&sb, subst[k].val ? subst[k].val : origin);
				i += tl;
				break;
			}
		}
		if (k == sizeof(subst) / sizeof(subst[0]))
			strbuf_addch(&sb, elem[i++]);
	}
	return strbuf_detach(&sb, NULL);
}
