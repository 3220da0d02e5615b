/* Python stacks of another process, read without stopping it (see pystack.h). */
#include "attach/pystack.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attach/tasks.h"
#include "probe/elf.h"
#include "util/file.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAPS_MAX (8u << 20)

#if defined(__x86_64__)
#define NATIVE_MACHINE 62	/* EM_X86_64 */
#elif defined(__aarch64__)
#define NATIVE_MACHINE 183	/* EM_AARCH64 */
#else
#define NATIVE_MACHINE 0	/* no table was checked on this architecture: nothing matches */
#endif
#define LINETABLE_MAX (256u << 10)
#define STR_READ_MAX 512		/* characters of a name or path we read */

/*
 * Where the walk's fields lie in one Python version's structures. `cframe` is the offset of
 * the current frame inside _PyCFrame (3.11, 3.12) or NO_CFRAME where the thread state points at
 * the frame itself (3.13+).
 */
#define NO_CFRAME UINT64_MAX
#define NO_OWNER UINT64_MAX

/* What a frame's position is and how its code maps it to a line. */
enum frame_kind {
	FRAME_INTERP,		/* 3.11+: an instruction pointer into co_code_adaptive, location table */
	FRAME_LASTI_310,	/* 3.10: PyFrameObject.f_lasti in code units, co_linetable of pairs */
	FRAME_LASTI_39,		/* 3.9: f_lasti in bytes, co_lnotab */
};

struct py_layout {
	unsigned minor;
	int tested_here;
	enum frame_kind frame;
	uint64_t rt_interp_head;
	uint64_t is_next, is_threads_head;
	uint64_t ts_next, ts_native_tid, ts_frame, cframe;
	uint64_t fr_previous, fr_code, fr_instr, fr_owner;
	unsigned owner_not_python;	/* owner >= this: a C-stack shim or interpreter frame */
	int code_tagged;		/* f_executable is a _PyStackRef: low bits are tags (3.14) */
	uint64_t ob_type;
	uint64_t co_filename, co_name, co_qualname, co_firstlineno, co_linetable, co_code;
	uint64_t str_length, str_state, str_ascii_size, str_compact_size;
	uint64_t bytes_size, bytes_sval;
};

/*
 * 3.9-3.12: offsetof() against each version's own internal headers (pyenv's 3.9.18, 3.10.13,
 * 3.11.7, 3.12.1 and Debian's 3.11.2 on the build machine), and live walks of each (tests/).
 * 3.9 and 3.10 have no native_thread_id: their threads are matched to the kernel's by order.
 */
static const struct py_layout layout_39 = {
	.minor = 9,
	.tested_here = 1,
	.frame = FRAME_LASTI_39,
	.rt_interp_head = 32,
	.is_next = 0,
	.is_threads_head = 8,
	.ts_next = 8,
	.ts_native_tid = NO_CFRAME,
	.ts_frame = 24,
	.cframe = NO_CFRAME,
	.fr_previous = 24,
	.fr_code = 32,
	.fr_instr = 104,
	.fr_owner = NO_OWNER,
	.ob_type = 8,
	.co_filename = 104,
	.co_name = 112,
	.co_qualname = NO_OWNER,
	.co_firstlineno = 40,
	.co_linetable = 120,
	.str_length = 16,
	.str_state = 32,
	.str_ascii_size = 48,
	.str_compact_size = 72,
	.bytes_size = 16,
	.bytes_sval = 32,
};

static const struct py_layout layout_310 = {
	.minor = 10,
	.tested_here = 1,
	.frame = FRAME_LASTI_310,
	.rt_interp_head = 32,
	.is_next = 0,
	.is_threads_head = 8,
	.ts_next = 8,
	.ts_native_tid = NO_CFRAME,
	.ts_frame = 24,
	.cframe = NO_CFRAME,
	.fr_previous = 24,
	.fr_code = 32,
	.fr_instr = 96,
	.fr_owner = NO_OWNER,
	.ob_type = 8,
	.co_filename = 104,
	.co_name = 112,
	.co_qualname = NO_OWNER,
	.co_firstlineno = 40,
	.co_linetable = 120,
	.str_length = 16,
	.str_state = 32,
	.str_ascii_size = 48,
	.str_compact_size = 72,
	.bytes_size = 16,
	.bytes_sval = 32,
};

static const struct py_layout layout_312 = {
	.minor = 12,
	.tested_here = 1,
	.frame = FRAME_INTERP,
	.rt_interp_head = 40,
	.is_next = 0,
	.is_threads_head = 72,
	.ts_next = 8,
	.ts_native_tid = 144,
	.ts_frame = 56,
	.cframe = 0,
	.fr_previous = 8,
	.fr_code = 0,
	.fr_instr = 56,
	.fr_owner = 70,
	.owner_not_python = 3,	/* FRAME_OWNED_BY_CSTACK: the shim of a C call into Python */
	.ob_type = 8,
	.co_filename = 112,
	.co_name = 120,
	.co_qualname = 128,
	.co_firstlineno = 68,
	.co_linetable = 136,
	.co_code = 192,
	.str_length = 16,
	.str_state = 32,
	.str_ascii_size = 40,
	.str_compact_size = 56,
	.bytes_size = 16,
	.bytes_sval = 32,
};

static const struct py_layout layout_311 = {
	.minor = 11,
	.tested_here = 1,
	.frame = FRAME_INTERP,
	.rt_interp_head = 40,
	.is_next = 0,
	.is_threads_head = 16,
	.ts_next = 8,
	.ts_native_tid = 160,
	.ts_frame = 56,
	.cframe = 8,
	.fr_previous = 48,
	.fr_code = 32,
	.fr_instr = 56,
	.fr_owner = 69,
	.owner_not_python = 3,
	.ob_type = 8,
	.co_filename = 112,
	.co_name = 120,
	.co_qualname = 128,
	.co_firstlineno = 72,
	.co_linetable = 136,
	.co_code = 184,
	.str_length = 16,
	.str_state = 32,
	.str_ascii_size = 48,
	.str_compact_size = 72,
	.bytes_size = 16,
	.bytes_sval = 32,
};

/*
 * 3.13+: where each needed member of _Py_DebugOffsets lies (byte offsets into it), per minor
 * version, from CPython's pycore_runtime.h (3.13) and pycore_debug_offsets.h (3.14: threads_main
 * added to the interpreter block, stackpointer to the frame block). The values found there are
 * checked against the sizes the same block states before they are trusted.
 */
struct dbg_pos {
	unsigned minor;
	uint64_t rt_interp_head;
	uint64_t is_size, is_next, is_threads_head;
	uint64_t ts_size, ts_next, ts_frame, ts_native_tid;
	uint64_t fr_size, fr_previous, fr_exec, fr_instr, fr_owner;
	uint64_t co_size, co_filename, co_name, co_qualname, co_linetable, co_firstlineno, co_code;
};

static const struct dbg_pos dbg_positions[] = {
	{ .minor = 13, .rt_interp_head = 40, .is_size = 48, .is_next = 64, .is_threads_head = 72,
	  .ts_size = 152, .ts_next = 168, .ts_frame = 184, .ts_native_tid = 200,
	  .fr_size = 224, .fr_previous = 232, .fr_exec = 240, .fr_instr = 248, .fr_owner = 264,
	  .co_size = 272, .co_filename = 280, .co_name = 288, .co_qualname = 296,
	  .co_linetable = 304, .co_firstlineno = 312, .co_code = 344 },
	{ .minor = 14, .rt_interp_head = 40, .is_size = 48, .is_next = 64, .is_threads_head = 72,
	  .ts_size = 160, .ts_next = 176, .ts_frame = 192, .ts_native_tid = 208,
	  .fr_size = 232, .fr_previous = 240, .fr_exec = 248, .fr_instr = 256, .fr_owner = 272,
	  .co_size = 288, .co_filename = 296, .co_name = 304, .co_qualname = 312,
	  .co_linetable = 320, .co_firstlineno = 328, .co_code = 360 },
};

static void set_status(struct py_stacks *s, enum py_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_status(struct py_stacks *s, enum py_status st, const char *fmt, ...)
{
	va_list ap;

	s->status = st;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
}

void py_version_str(unsigned hex, char *buf, size_t len)
{
	/* no release level: only the file name's minor was known (3.9, 3.10) */
	if (!(hex & 0xf0))
		snprintf(buf, len, "%u.%u", (hex >> 24) & 0xff, (hex >> 16) & 0xff);
	else
		snprintf(buf, len, "%u.%u.%u", (hex >> 24) & 0xff, (hex >> 16) & 0xff, (hex >> 8) & 0xff);
}

/* ---- reading ---- */

static int rd_u64(struct pymem *m, uint64_t addr, uint64_t *v)
{
	unsigned char b[8];

	if (pymem_read(m, addr, b, 8) < 0)
		return -1;
	*v = 0;
	for (int i = 0; i < 8; i++)
		*v |= (uint64_t)b[i] << (8 * i);
	return 0;
}

static int rd_u32(struct pymem *m, uint64_t addr, uint32_t *v)
{
	unsigned char b[4];

	if (pymem_read(m, addr, b, 4) < 0)
		return -1;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return 0;
}

/* A user-space pointer: non-NULL, 8-aligned, below the x86-64/aarch64 canonical limit. */
static int ptr_ok(uint64_t p)
{
	return p >= 4096 && p < (1ull << 56) && !(p & 7);
}

/* One UTF-8 byte sequence for code point c (surrogates and out-of-range become '?'). */
static void put_utf8(char *out, size_t len, size_t *o, uint32_t c)
{
	unsigned char u[4];
	size_t n;

	if (c < 0x80) {
		u[0] = (unsigned char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (unsigned char)(0xc0 | c >> 6);
		u[1] = (unsigned char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000 && (c < 0xd800 || c > 0xdfff)) {
		u[0] = (unsigned char)(0xe0 | c >> 12);
		u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (unsigned char)(0x80 | (c & 0x3f));
		n = 3;
	} else if (c >= 0x10000 && c < 0x110000) {
		u[0] = (unsigned char)(0xf0 | c >> 18);
		u[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (unsigned char)(0x80 | (c & 0x3f));
		n = 4;
	} else {
		u[0] = '?';
		n = 1;
	}
	if (*o + n >= len)
		return;
	memcpy(out + *o, u, n);
	*o += n;
}

/*
 * A compact str object into UTF-8 (every CPython identifier and file name is compact). The
 * state bits (interned:2 kind:3 compact:1 ascii:1) sit at the same place in 3.9-3.14 builds
 * with the GIL. -1 for anything that is not a compact string of sane length.
 */
static int rd_str(struct pymem *m, const struct py_layout *L, uint64_t obj, char *out,
		  size_t len)
{
	unsigned char raw[STR_READ_MAX * 4];
	uint64_t n;
	uint32_t state;
	unsigned kind;
	size_t o = 0, take;

	out[0] = '\0';
	if (!ptr_ok(obj) || rd_u64(m, obj + L->str_length, &n) < 0 ||
	    rd_u32(m, obj + L->str_state, &state) < 0)
		return -1;
	kind = (state >> 2) & 7;
	if (!(state & (1u << 5)) || n > (1u << 20) || (kind != 1 && kind != 2 && kind != 4))
		return -1;
	take = n < STR_READ_MAX ? (size_t)n : STR_READ_MAX;
	if (state & (1u << 6)) {	/* ascii: the bytes follow the PyASCIIObject */
		if (kind != 1 || pymem_read(m, obj + L->str_ascii_size, raw, take) < 0)
			return -1;
		for (size_t i = 0; i < take && o + 1 < len; i++)
			out[o++] = raw[i] < 0x80 && raw[i] >= 0x20 ? (char)raw[i] : '?';
	} else {
		if (pymem_read(m, obj + L->str_compact_size, raw, take * kind) < 0)
			return -1;
		for (size_t i = 0; i < take; i++) {
			uint32_t c = kind == 1 ? raw[i] : kind == 2 ?
				(uint32_t)raw[2 * i] | (uint32_t)raw[2 * i + 1] << 8 :
				(uint32_t)raw[4 * i] | (uint32_t)raw[4 * i + 1] << 8 |
				(uint32_t)raw[4 * i + 2] << 16 | (uint32_t)raw[4 * i + 3] << 24;
			put_utf8(out, len, &o, c < 0x20 ? '?' : c);
		}
	}
	out[o] = '\0';
	return 0;
}

/* ---- line numbers: the 3.11+ location table (Objects/locations.md in CPython) ---- */

static int varint(const unsigned char *t, size_t len, size_t *i, uint32_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*i < len && shift < 32) {
		unsigned char b = t[(*i)++];
		*v |= (uint32_t)(b & 63) << shift;
		if (!(b & 64))
			return 0;
		shift += 6;
	}
	return -1;
}

static int svarint(const unsigned char *t, size_t len, size_t *i, int *v)
{
	uint32_t u;

	if (varint(t, len, i, &u) < 0)
		return -1;
	*v = (u & 1) ? -(int)(u >> 1) : (int)(u >> 1);
	return 0;
}

int py_linetable_line(const unsigned char *tab, size_t len, int firstlineno, long lasti)
{
	long addr = 0;
	int line = firstlineno;
	size_t i = 0;

	if (lasti < 0)
		return 0;
	while (i < len) {
		unsigned char b = tab[i++];
		unsigned code = (b >> 3) & 15, n = (b & 7) + 1;
		int delta = 0, here;
		uint32_t skip;

		if (!(b & 0x80))
			return 0;	/* every entry starts with the high bit set */
		switch (code) {
		case 15:	/* no location */
			break;
		case 14:	/* long form: line delta, end line, column, end column */
			if (svarint(tab, len, &i, &delta) < 0 || varint(tab, len, &i, &skip) < 0 ||
			    varint(tab, len, &i, &skip) < 0 || varint(tab, len, &i, &skip) < 0)
				return 0;
			break;
		case 13:	/* no columns */
			if (svarint(tab, len, &i, &delta) < 0)
				return 0;
			break;
		case 12: case 11: case 10:	/* one line, delta 0-2, two column bytes */
			delta = (int)code - 10;
			i += 2;
			break;
		default:	/* short form: same line, one column byte */
			i += 1;
			break;
		}
		line += delta;
		here = code == 15 ? 0 : line;
		if (lasti >= addr && lasti < addr + (long)n)
			return here > 0 ? here : 0;
		addr += n;
	}
	return 0;
}

/* 3.10: (bytes advanced, signed line delta) pairs; -128 is "no line" (addr in bytes). */
int py_linetable310_line(const unsigned char *tab, size_t len, int firstlineno, long addr)
{
	long start = 0;
	int line = firstlineno;

	if (addr < 0)
		return 0;
	for (size_t i = 0; i + 1 < len; i += 2) {
		long end = start + tab[i];
		signed char d = (signed char)tab[i + 1];
		int here;

		if (d != -128)
			line += d;
		here = d == -128 ? 0 : line;
		if (addr >= start && addr < end)
			return here > 0 ? here : 0;
		start = end;
	}
	return 0;
}

/* 3.9: co_lnotab's (address increment, signed line increment) pairs (addr in bytes). */
int py_lnotab_line(const unsigned char *tab, size_t len, int firstlineno, long addr)
{
	long a = 0;
	int line = firstlineno;

	if (addr < 0)
		return 0;
	for (size_t i = 0; i + 1 < len; i += 2) {
		a += tab[i];
		if (a > addr)
			break;
		line += (signed char)tab[i + 1];
	}
	return line > 0 ? line : 0;
}

/* ---- the walk ---- */

/* The layout of the version in *t (3.13+: built from the interpreter's debug offsets). */
static int pick_layout(struct pymem *m, const struct py_target *t, struct py_layout *L,
		       struct py_stacks *s)
{
	unsigned major = t->version_hex >> 24, minor = (t->version_hex >> 16) & 0xff;
	const struct dbg_pos *P = NULL;
	unsigned char head[24];
	uint64_t v[24];
	char ver[32];

	py_version_str(t->version_hex, ver, sizeof(ver));
	if (!t->version_hex) {
		set_status(s, PY_UNSUPPORTED, "the interpreter's version could not be read (no "
			   "Py_Version in it, and its file name has no python3.N)");
		return -1;
	}
	if (major != 3 || minor < 9 || minor > 14) {
		set_status(s, PY_UNSUPPORTED, "Python %s: this build reads the stacks of Python "
			   "3.9 to 3.14; py-spy dump --pid PID may read this one", ver);
		return -1;
	}
	if (minor <= 12) {
		static const struct py_layout *const by_minor[] = {
			[9] = &layout_39, [10] = &layout_310, [11] = &layout_311, [12] = &layout_312,
		};
		*L = *by_minor[minor];
		return 0;
	}
	for (size_t i = 0; i < sizeof(dbg_positions) / sizeof(dbg_positions[0]); i++)
		if (dbg_positions[i].minor == minor)
			P = &dbg_positions[i];
	if (pymem_read(m, t->debug_offsets, head, sizeof(head)) < 0) {
		set_status(s, PY_UNREADABLE, "cannot read _Py_DebugOffsets at 0x%llx",
			   (unsigned long long)t->debug_offsets);
		return -1;
	}
	if (memcmp(head, "xdebugpy", 8)) {
		set_status(s, PY_UNREADABLE, "Python %s: no \"xdebugpy\" cookie at the start of "
			   "_PyRuntime", ver);
		return -1;
	}
	if (head[16]) {
		set_status(s, PY_UNSUPPORTED, "Python %s is a free-threaded build: its objects have "
			   "another header, which this reader does not decode yet", ver);
		return -1;
	}
	/* the members we use, each read at its recorded position */
	{
		const uint64_t pos[] = { P->rt_interp_head, P->is_size, P->is_next, P->is_threads_head,
					 P->ts_size, P->ts_next, P->ts_frame, P->ts_native_tid,
					 P->fr_size, P->fr_previous, P->fr_exec, P->fr_instr,
					 P->fr_owner, P->co_size, P->co_filename, P->co_name,
					 P->co_qualname, P->co_linetable, P->co_firstlineno,
					 P->co_code };
		for (size_t i = 0; i < sizeof(pos) / sizeof(pos[0]); i++)
			if (rd_u64(m, t->debug_offsets + pos[i], &v[i]) < 0) {
				set_status(s, PY_UNREADABLE, "cannot read _Py_DebugOffsets");
				return -1;
			}
	}
	/* a field offset beyond the size its own block states means the block is elsewhere: a
	 * layout this table does not know (a later patch release), refused rather than misread */
	if (v[2] >= v[1] || v[3] >= v[1] || v[1] > (1u << 20) ||
	    v[5] >= v[4] || v[6] >= v[4] || v[7] >= v[4] || v[4] > (1u << 20) ||
	    v[9] >= v[8] || v[10] >= v[8] || v[11] >= v[8] || v[12] >= v[8] || v[8] > 4096 ||
	    v[14] >= v[13] || v[15] >= v[13] || v[16] >= v[13] || v[17] >= v[13] ||
	    v[18] >= v[13] || v[19] > v[13] || v[13] > 4096) {
		set_status(s, PY_UNSUPPORTED, "Python %s: its _Py_DebugOffsets do not have the layout "
			   "this build expects for 3.%u", ver, minor);
		return -1;
	}
	*L = (struct py_layout){
		.minor = minor,
		.tested_here = minor == 13,	/* pyenv's 3.13.0 on the build machine; 3.14 not */
		.frame = FRAME_INTERP,
		.rt_interp_head = v[0],
		.is_next = v[2],
		.is_threads_head = v[3],
		.ts_next = v[5],
		.ts_frame = v[6],
		.ts_native_tid = v[7],
		.cframe = NO_CFRAME,
		.fr_previous = v[9],
		.fr_code = v[10],
		.fr_instr = v[11],
		.fr_owner = v[12],
		/* 3.13: FRAME_OWNED_BY_CSTACK = 3; 3.14 adds FRAME_OWNED_BY_INTERPRETER = 3 and moves
		 * the C-stack shim to 4: neither holds a Python function */
		.owner_not_python = 3,
		.code_tagged = minor >= 14,
		.ob_type = 8,
		.co_filename = v[14],
		.co_name = v[15],
		.co_qualname = v[16],
		.co_linetable = v[17],
		.co_firstlineno = v[18],
		.co_code = v[19],
		/* 3.12+ with the GIL: PyASCIIObject is 40 bytes (no wstr), the compact form 56 */
		.str_length = 16,
		.str_state = 32,
		.str_ascii_size = 40,
		.str_compact_size = 56,
		.bytes_size = 16,
		.bytes_sval = 32,
	};
	return 0;
}

/* One frame's code object into f; 1 a Python function frame, 0 one to skip, -1 unreadable. */
static int read_frame(struct pymem *m, const struct py_layout *L, const struct py_target *t,
		      uint64_t frame, struct py_frame *f)
{
	uint64_t code, instr = 0, type, lt, ltn;
	uint32_t first, lasti32 = 0;
	unsigned char owner;
	unsigned char *tab;

	memset(f, 0, sizeof(*f));
	if (rd_u64(m, frame + L->fr_code, &code) < 0)
		return -1;
	if (L->fr_owner != NO_OWNER) {
		if (pymem_read(m, frame + L->fr_owner, &owner, 1) < 0)
			return -1;
		if (owner >= L->owner_not_python)
			return 0;
	}
	if (L->code_tagged)
		code &= ~(uint64_t)3;
	if (!ptr_ok(code) || rd_u64(m, code + L->ob_type, &type) < 0)
		return -1;
	if (t->code_type && type != t->code_type)
		return 0;	/* not a code object: a frame being torn down, or a shim */
	{
		uint64_t nm = 0, fn = 0;
		if ((L->co_qualname == NO_OWNER || rd_u64(m, code + L->co_qualname, &nm) < 0 ||
		     rd_str(m, L, nm, f->func, sizeof(f->func)) < 0) &&
		    (rd_u64(m, code + L->co_name, &nm) < 0 || rd_str(m, L, nm, f->func, sizeof(f->func)) < 0))
			snprintf(f->func, sizeof(f->func), "?");
		if (rd_u64(m, code + L->co_filename, &fn) < 0 ||
		    rd_str(m, L, fn, f->file, sizeof(f->file)) < 0)
			snprintf(f->file, sizeof(f->file), "?");
	}
	if (rd_u32(m, code + L->co_firstlineno, &first) < 0 ||
	    (L->frame == FRAME_INTERP ? rd_u64(m, frame + L->fr_instr, &instr) :
	     rd_u32(m, frame + L->fr_instr, &lasti32)) < 0 ||
	    rd_u64(m, code + L->co_linetable, &lt) < 0 || !ptr_ok(lt) ||
	    rd_u64(m, lt + L->bytes_size, &ltn) < 0 || ltn > LINETABLE_MAX)
		return 1;	/* a name without a line is still worth printing */
	f->line = (int)first > 0 ? (int)first : 0;
	tab = xmalloc(ltn ? (size_t)ltn : 1);
	if (pymem_read(m, lt + L->bytes_sval, tab, (size_t)ltn) == 0) {
		int line = 0;

		if (L->frame == FRAME_INTERP && instr >= code + L->co_code)
			line = py_linetable_line(tab, (size_t)ltn, (int)first,
						 (long)((instr - (code + L->co_code)) / 2));
		else if (L->frame == FRAME_LASTI_310)
			line = py_linetable310_line(tab, (size_t)ltn, (int)first, (int32_t)lasti32 * 2L);
		else if (L->frame == FRAME_LASTI_39)
			line = py_lnotab_line(tab, (size_t)ltn, (int)first, (int32_t)lasti32);
		if (line > 0)
			f->line = line;
	}
	free(tab);
	return 1;
}

static void walk_thread(struct pymem *m, const struct py_layout *L, const struct py_target *t,
			uint64_t ts, struct py_thread *th)
{
	uint64_t frame = 0, tid = 0, prev_frame = 0;
	size_t alloc = 0;

	memset(th, 0, sizeof(*th));
	if (L->ts_native_tid != NO_CFRAME && rd_u64(m, ts + L->ts_native_tid, &tid) == 0 &&
	    tid < (1u << 30))
		th->native_tid = (long)tid;
	if (rd_u64(m, ts + L->ts_frame, &frame) < 0) {
		snprintf(th->note, sizeof(th->note), "its thread state did not read");
		th->truncated = 1;
		return;
	}
	if (L->cframe != NO_CFRAME && frame && rd_u64(m, frame + L->cframe, &frame) < 0) {
		snprintf(th->note, sizeof(th->note), "its C frame did not read");
		th->truncated = 1;
		return;
	}
	for (int steps = 0; frame; steps++) {
		struct py_frame f;
		int r;

		if (steps >= PY_FRAMES_MAX * 4 || th->nframes >= PY_FRAMES_MAX) {
			snprintf(th->note, sizeof(th->note), "deeper than %d frames", PY_FRAMES_MAX);
			th->truncated = 1;
			return;
		}
		if (!ptr_ok(frame) || frame == prev_frame) {
			snprintf(th->note, sizeof(th->note), "a frame pointer 0x%llx is not one "
				 "(the stack changed while it was read)", (unsigned long long)frame);
			th->truncated = 1;
			return;
		}
		r = read_frame(m, L, t, frame, &f);
		if (r < 0) {
			snprintf(th->note, sizeof(th->note), "a frame did not read (the stack changed "
				 "while it was read, or the process exited)");
			th->truncated = 1;
			return;
		}
		if (r > 0) {
			ALLOC_GROW(th->frames, th->nframes + 1, alloc);
			th->frames[th->nframes++] = f;
		}
		prev_frame = frame;
		if (rd_u64(m, frame + L->fr_previous, &frame) < 0) {
			snprintf(th->note, sizeof(th->note), "a frame's link did not read");
			th->truncated = 1;
			return;
		}
	}
}

int pystack_walk(struct pymem *m, const struct py_target *t, struct py_stacks *s)
{
	struct py_layout L;
	uint64_t interp;
	size_t alloc = 0;

	s->version_hex = t->version_hex;
	if (pick_layout(m, t, &L, s) < 0)
		return -1;
	s->layout_tested = L.tested_here;
	if (rd_u64(m, t->runtime + L.rt_interp_head, &interp) < 0) {
		set_status(s, m->kind == PYMEM_LIVE && m->last_errno == ESRCH ? PY_GONE : PY_UNREADABLE,
			   "cannot read _PyRuntime at 0x%llx%s", (unsigned long long)t->runtime,
			   m->last_errno == ESRCH ? ": the process exited" : "");
		return -1;
	}
	for (int ni = 0; interp && ni < PY_INTERPS_MAX; ni++) {
		uint64_t ts;

		if (!ptr_ok(interp) || rd_u64(m, interp + L.is_threads_head, &ts) < 0)
			break;
		for (int nt = 0; ts && s->nthreads < PY_THREADS_MAX && nt < PY_THREADS_MAX; nt++) {
			if (!ptr_ok(ts))
				break;
			ALLOC_GROW(s->threads, s->nthreads + 1, alloc);
			walk_thread(m, &L, t, ts, &s->threads[s->nthreads++]);
			if (rd_u64(m, ts + L.ts_next, &ts) < 0)
				break;
		}
		if (rd_u64(m, interp + L.is_next, &interp) < 0)
			break;
	}
	if (m->kind == PYMEM_LIVE && m->last_errno == ESRCH) {
		set_status(s, PY_GONE, "the process exited while its stacks were read");
		return -1;
	}
	if (!s->nthreads) {
		set_status(s, PY_UNREADABLE, "no thread state in the interpreter (it is starting or "
			   "shutting down)");
		return -1;
	}
	s->status = PY_OK;
	return 0;
}

/* ---- locating the interpreter ---- */

struct mapping {
	uint64_t start, offset;
	char path[PY_FILE_MAX];
};

static int is_python_name(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	return !strncmp(b, "python", 6) || !strncmp(b, "libpython", 9);
}

/* The minor version a file name says: python3.11, libpython3.11.so.1.0; 0 none. */
static unsigned name_minor(const char *path)
{
	const char *p = strstr(path, "python3.");

	return p ? (unsigned)atoi(p + 8) : 0;
}

/* Looks `path` (as the process sees it) up: 1 found with *t filled, 0 not there, -1 error. */
static int try_binary(int pid, const struct mapping *mp, struct py_target *t, uint64_t *pv_addr)
{
	char host[PY_FILE_MAX + 64];
	struct elf_src src;
	struct elf_dyn d;
	struct elf_sym rt, ct, pv;
	uint64_t bias;
	int fd;

	/* the process's own view of its files, across a mount namespace (a container) */
	snprintf(host, sizeof(host), "/proc/%d/root%s", pid, mp->path);
	fd = open(host, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = open(mp->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (elf_src_fd(&src, fd) < 0 || elf_dyn_read(&src, &d, NULL) < 0) {
		close(fd);
		return -1;
	}
	/* the tables are for 64-bit little-endian processes of this machine's own architecture */
	if (!d.is64 || !d.little || d.machine != NATIVE_MACHINE ||
	    elf_lookup(&src, &d, "_PyRuntime", &rt) != 1 || !d.load_base_set ||
	    mp->start < d.load_base) {
		elf_dyn_release(&d);
		close(fd);
		return 0;
	}
	bias = mp->start - d.load_base;
	memset(t, 0, sizeof(*t));
	t->runtime = rt.value + bias;
	t->debug_offsets = t->runtime;
	if (elf_lookup(&src, &d, "PyCode_Type", &ct) == 1)
		t->code_type = ct.value + bias;
	/* Py_Version (3.11+) is read from the process; before it, the file name says the minor */
	*pv_addr = elf_lookup(&src, &d, "Py_Version", &pv) == 1 ? pv.value + bias : 0;
	t->version_hex = name_minor(mp->path) && name_minor(mp->path) < 256 ?
		0x03000000u | name_minor(mp->path) << 16 : 0;
	elf_dyn_release(&d);
	close(fd);
	return 1;
}

static int locate(int pid, struct py_target *t, uint64_t *pv_addr, struct py_stacks *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	char path[64];
	int found = 0;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (file_read(path, &sb, MAPS_MAX, &e) < 0) {
		snprintf(path, sizeof(path), "/proc/%d", pid);
		if (!file_exists(path))
			set_status(s, PY_GONE, "no process %d here (it exited, or runs in another PID "
				   "namespace: a container's pids are not the host's)", pid);
		else if (errno == EACCES || errno == EPERM) {
			s->status = PY_NO_PERMISSION;
			pystack_why_denied(pid, s->error, sizeof(s->error));
		} else
			set_status(s, PY_UNREADABLE, "%s", e.msg);
		strbuf_release(&sb);
		return -1;
	}
	if (!sb.len) {
		set_status(s, PY_NOT_PYTHON, "process %d has no memory mappings (a kernel thread or "
			   "a zombie)", pid);
		strbuf_release(&sb);
		return -1;
	}
	for (const char *line = sb.buf; line && *line && !found;) {
		struct mapping mp = { 0 };
		struct maps_line ml;

		line = maps_line_next(line, &ml);
		if (!ml.path_len || ml.offset != 0)
			continue;
		mp.start = ml.start;
		mp.offset = ml.offset;
		snprintf(mp.path, sizeof(mp.path), "%.*s", (int)ml.path_len, ml.path);
		if (!is_python_name(mp.path))
			continue;
		if (try_binary(pid, &mp, t, pv_addr) == 1) {
			found = 1;
			snprintf(s->binary, sizeof(s->binary), "%s", mp.path);
		}
	}
	strbuf_release(&sb);
	if (!found) {
		set_status(s, PY_NOT_PYTHON, "process %d maps no CPython interpreter (no python or "
			   "libpython file that defines _PyRuntime)", pid);
		return -1;
	}
	return 0;
}

/* The version from the process's own Py_Version, else the file name's minor. */
static void read_version(struct pymem *m, uint64_t pv_addr, struct py_target *t)
{
	uint32_t v;

	if (pv_addr && rd_u32(m, pv_addr, &v) == 0 && (v >> 24) == 3)
		t->version_hex = v;
}

int pystack_locate(int pid, struct py_target *t, struct py_stacks *s)
{
	struct pymem m;
	uint64_t pv_addr = 0;

	if (locate(pid, t, &pv_addr, s) < 0)
		return -1;
	pymem_live(&m, pid, 0);
	read_version(&m, pv_addr, t);
	pymem_release(&m);
	s->version_hex = t->version_hex;
	return 0;
}

/* A refused read: which door was closed and why. */
static void denied(int pid, const struct pymem *m, struct py_stacks *s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d", pid);
	if (m->last_errno == ESRCH || !file_exists(path)) {
		set_status(s, PY_GONE, "process %d exited while its stacks were read", pid);
		return;
	}
	s->status = PY_NO_PERMISSION;
	pystack_why_denied(pid, s->error, sizeof(s->error));
}

int pystack_read_pid(int pid, struct pymem *m, struct py_target *t, int record,
		     struct py_stacks *s)
{
	uint64_t pv_addr = 0;

	memset(s, 0, sizeof(*s));
	pymem_live(m, pid, record);
	if (locate(pid, t, &pv_addr, s) < 0)
		return -1;
	read_version(m, pv_addr, t);
	s->version_hex = t->version_hex;
	if (pv_addr && (m->last_errno == EPERM || m->last_errno == EACCES || m->last_errno == ESRCH)) {
		denied(pid, m, s);
		return -1;
	}
	if (pystack_walk(m, t, s) < 0) {
		if (m->last_errno == EPERM || m->last_errno == EACCES || m->last_errno == ESRCH)
			denied(pid, m, s);
		return -1;
	}
	return 0;
}

/* kernel.yama.ptrace_scope, -1 when there is no Yama */
static long ptrace_scope(void)
{
	long v;

	return file_read_long("/proc/sys/kernel/yama/ptrace_scope", &v) == 0 ? v : -1;
}

/* The first number of the "Key:" line of /proc/PID/status (Uid: real, CapEff: hex). */
static int status_field(const char *path, const char *key, int hex, unsigned long long *v)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int r = -1;

	if (file_read(path, &sb, 1u << 16, NULL) == 0 && (p = strstr(sb.buf, key)))
		r = sscanf(p + strlen(key), hex ? " %llx" : " %llu", v) == 1 ? 0 : -1;
	strbuf_release(&sb);
	return r;
}

void pystack_why_denied(int pid, char *buf, size_t len)
{
	unsigned long long uid = 0, cap = 0;
	char path[64];
	long scope = ptrace_scope();
	int have_cap;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	have_cap = status_field("/proc/self/status", "CapEff:", 1, &cap) == 0 && (cap >> 19 & 1);
	if (status_field(path, "Uid:", 0, &uid) == 0 && uid != (unsigned long long)geteuid() &&
	    !have_cap) {
		snprintf(buf, len, N_("process %d belongs to uid %llu and ncclcheck runs as uid %u: run "
			 "it as that user, or with sudo"), pid, uid, (unsigned)geteuid());
		return;
	}
	if (scope == 3) {
		snprintf(buf, len, N_("kernel.yama.ptrace_scope=3 forbids reading any other process's "
			 "memory until the next reboot: py-spy cannot either; only the job itself "
			 "(faulthandler.dump_traceback_later) can say where it is"));
		return;
	}
	if (scope == 2 && !have_cap) {
		snprintf(buf, len, N_("kernel.yama.ptrace_scope=2 lets only CAP_SYS_PTRACE read another "
			 "process's memory: run ncclcheck with sudo"));
		return;
	}
	if (scope == 1 && !have_cap) {
		snprintf(buf, len, N_("kernel.yama.ptrace_scope=1 lets a process read only its own "
			 "children: run ncclcheck with sudo (or sudo sysctl kernel.yama.ptrace_scope=0)"));
		return;
	}
	if (geteuid() == 0 && !have_cap) {
		snprintf(buf, len, N_("ncclcheck runs as root without CAP_SYS_PTRACE, as in a container: "
			 "start the container with --cap-add=SYS_PTRACE, or run ncclcheck on the host"));
		return;
	}
	snprintf(buf, len, N_("reading process %d's memory was refused (a security module such as "
		 "AppArmor or SELinux, or a container boundary): run ncclcheck with sudo on the host"),
		 pid);
}

void py_stacks_release(struct py_stacks *s)
{
	for (size_t i = 0; i < s->nthreads; i++)
		free(s->threads[i].frames);
	free(s->threads);
	memset(s, 0, sizeof(*s));
}
