/* Bounded pickle subset reader (see pickle.h). No recursion: the stack and the memo are arrays. */
#include "attach/pickle.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* An allowed torch container helper, as a value on the stack until REDUCE applies it. */
#define PK_GLOBAL_TYPE ((enum pk_type)100)

enum pk_global {
	G_RESTORE_TYPE_TAG = 1,	/* (container, type string) -> container */
	G_BUILD_LIST,		/* (list,) -> list */
};

struct pk_doc {
	struct pk_value **nodes;	/* every value made, for pk_free */
	size_t nnodes, anodes;
	struct pk_value *root;
};

struct pk_rd {
	const unsigned char *p, *end, *start;
	struct pk_limits lim;
	struct pk_doc *doc;
	struct pk_value **stack;
	size_t sp, astack;
	size_t *marks;
	size_t nmarks, amarks;
	struct pk_value **memo;
	size_t amemo, memo_set;
	size_t nitems;		/* container slots filled: the memo lets them outgrow the nodes */
	struct err *e;
	unsigned op;
	size_t op_off;
};

static const struct pk_limits pk_defaults = {
	.max_input = 64u << 20,
	.max_nodes = 2u << 20,
	.max_depth = 64,
	.max_str = 1u << 20,
	.max_memo = 1u << 20,
};

const char *pk_type_name(enum pk_type t)
{
	switch (t) {
	case PK_NONE: return "None";
	case PK_BOOL: return "bool";
	case PK_INT: return "int";
	case PK_FLOAT: return "float";
	case PK_STR: return "str";
	case PK_BYTES: return "bytes";
	case PK_LIST: return "list";
	case PK_TUPLE: return "tuple";
	case PK_DICT: return "dict";
	}
	return "global";
}

static int bad(struct pk_rd *r, const char *what)
{
	return err_set(r->e, ERR_PARSE, "pickle: %s (opcode 0x%02x at offset %zu)", what, r->op,
		       r->op_off);
}

static struct pk_value *node(struct pk_rd *r, enum pk_type t)
{
	struct pk_value *v;

	if (r->doc->nnodes >= r->lim.max_nodes) {
		bad(r, "too many values");
		return NULL;
	}
	v = xcalloc(1, sizeof(*v));
	v->type = t;
	ALLOC_GROW(r->doc->nodes, r->doc->nnodes + 1, r->doc->anodes);
	r->doc->nodes[r->doc->nnodes++] = v;
	return v;
}

static int push(struct pk_rd *r, struct pk_value *v)
{
	if (!v)
		return -1;
	/* DUP and memo gets push without making values */
	if (r->sp >= r->lim.max_nodes)
		return bad(r, "stack deeper than the cap");
	ALLOC_GROW(r->stack, r->sp + 1, r->astack);
	r->stack[r->sp++] = v;
	return 0;
}

static int need(struct pk_rd *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return bad(r, "truncated argument");
	return 0;
}

static uint64_t le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The base of the innermost MARK, or -1 when the stack is empty of marks. */
static int mark_base(struct pk_rd *r, size_t *base)
{
	if (!r->nmarks)
		return bad(r, "no MARK on the stack");
	*base = r->marks[r->nmarks - 1];
	if (*base > r->sp)
		return bad(r, "MARK above the stack");
	return 0;
}

static void pop_mark(struct pk_rd *r, size_t base)
{
	r->sp = base;
	r->nmarks--;
}

static int add_item(struct pk_rd *r, struct pk_value *c, struct pk_value *it)
{
	if (++r->nitems > r->lim.max_nodes)
		return bad(r, "more container items than the cap");
	ALLOC_GROW(c->u.c.items, c->u.c.n + 1, c->u.c.alloc);
	c->u.c.items[c->u.c.n++] = it;
	return 0;
}

static int is_value(const struct pk_value *v)
{
	return v->type != PK_GLOBAL_TYPE;
}

static int op_string(struct pk_rd *r, unsigned lenbytes, enum pk_type t)
{
	uint64_t n;
	struct pk_value *v;

	if (need(r, lenbytes) < 0)
		return -1;
	n = le(r->p, lenbytes);
	r->p += lenbytes;
	if (n > r->lim.max_str)
		return bad(r, "string longer than the cap");
	if (need(r, (size_t)n) < 0)
		return -1;
	v = node(r, t);
	if (!v)
		return -1;
	v->u.str.s = xmalloc((size_t)n + 1);
	memcpy(v->u.str.s, r->p, (size_t)n);
	v->u.str.s[n] = '\0';
	v->u.str.len = (size_t)n;
	r->p += n;
	return push(r, v);
}

static int op_int(struct pk_rd *r, int64_t i)
{
	struct pk_value *v = node(r, PK_INT);

	if (!v)
		return -1;
	v->u.i = i;
	return push(r, v);
}

static int op_long(struct pk_rd *r, unsigned lenbytes)
{
	uint64_t n, u;

	if (need(r, lenbytes) < 0)
		return -1;
	n = le(r->p, lenbytes);
	r->p += lenbytes;
	if (n > 8)
		return bad(r, "integer wider than 64 bits");
	if (need(r, (size_t)n) < 0)
		return -1;
	u = le(r->p, (unsigned)n);
	if (n && n < 8 && (r->p[n - 1] & 0x80))	/* sign-extend two's complement */
		u |= ~(uint64_t)0 << (8 * n);
	r->p += n;
	return op_int(r, (int64_t)u);
}

static int memo_put(struct pk_rd *r, uint64_t id)
{
	if (!r->sp)
		return bad(r, "memo put on an empty stack");
	if (id >= r->lim.max_memo)
		return bad(r, "memo index beyond the cap");
	if (id >= r->amemo) {
		size_t n = r->amemo ? r->amemo : 64;
		while (n <= id)
			n *= 2;
		if (n > r->lim.max_memo)
			n = r->lim.max_memo;
		r->memo = xrealloc(r->memo, n * sizeof(*r->memo));
		memset(r->memo + r->amemo, 0, (n - r->amemo) * sizeof(*r->memo));
		r->amemo = n;
	}
	if (!r->memo[id])
		r->memo_set++;
	r->memo[id] = r->stack[r->sp - 1];
	return 0;
}

static int memo_get(struct pk_rd *r, uint64_t id)
{
	if (id >= r->amemo || !r->memo[id])
		return bad(r, "memo get of an unset slot");
	return push(r, r->memo[id]);
}

static int global(struct pk_rd *r, const char *mod, size_t modlen, const char *name, size_t namelen)
{
	static const struct {
		const char *name;
		enum pk_global g;
	} allowed[] = {
		{ "restore_type_tag", G_RESTORE_TYPE_TAG },
		{ "build_intlist", G_BUILD_LIST },
		{ "build_doublelist", G_BUILD_LIST },
		{ "build_boollist", G_BUILD_LIST },
	};
	struct pk_value *v;

	if (modlen != strlen("torch.jit._pickle") || memcmp(mod, "torch.jit._pickle", modlen))
		return bad(r, "a GLOBAL other than torch's container helpers");
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		if (namelen == strlen(allowed[i].name) && !memcmp(name, allowed[i].name, namelen)) {
			v = node(r, PK_GLOBAL_TYPE);
			if (!v)
				return -1;
			v->u.i = allowed[i].g;
			return push(r, v);
		}
	return bad(r, "a GLOBAL other than torch's container helpers");
}

static int op_global(struct pk_rd *r)
{
	const unsigned char *nl1, *nl2;

	nl1 = memchr(r->p, '\n', (size_t)(r->end - r->p) < 256 ? (size_t)(r->end - r->p) : 256);
	if (!nl1)
		return bad(r, "GLOBAL without its module line");
	nl2 = memchr(nl1 + 1, '\n', (size_t)(r->end - nl1 - 1) < 256 ? (size_t)(r->end - nl1 - 1) : 256);
	if (!nl2)
		return bad(r, "GLOBAL without its name line");
	if (global(r, (const char *)r->p, (size_t)(nl1 - r->p), (const char *)nl1 + 1,
		   (size_t)(nl2 - nl1 - 1)) < 0)
		return -1;
	r->p = nl2 + 1;
	return 0;
}

static int op_stack_global(struct pk_rd *r)
{
	struct pk_value *mod, *name;

	if (r->sp < 2)
		return bad(r, "STACK_GLOBAL needs two strings");
	mod = r->stack[r->sp - 2];
	name = r->stack[r->sp - 1];
	if (mod->type != PK_STR || name->type != PK_STR)
		return bad(r, "STACK_GLOBAL needs two strings");
	if (r->nmarks && r->marks[r->nmarks - 1] > r->sp - 2)
		return bad(r, "STACK_GLOBAL across a MARK");
	r->sp -= 2;
	return global(r, mod->u.str.s, mod->u.str.len, name->u.str.s, name->u.str.len);
}

static int op_reduce(struct pk_rd *r)
{
	struct pk_value *fn, *args, *a0;

	if (r->sp < 2)
		return bad(r, "REDUCE on a short stack");
	if (r->nmarks && r->marks[r->nmarks - 1] > r->sp - 2)
		return bad(r, "REDUCE across a MARK");
	fn = r->stack[r->sp - 2];
	args = r->stack[r->sp - 1];
	if (fn->type != PK_GLOBAL_TYPE || args->type != PK_TUPLE || args->u.c.n < 1)
		return bad(r, "REDUCE of something other than torch's container helpers");
	a0 = args->u.c.items[0];
	if (fn->u.i == G_RESTORE_TYPE_TAG) {
		if (args->u.c.n != 2 || (a0->type != PK_DICT && a0->type != PK_LIST))
			return bad(r, "restore_type_tag wants (container, type)");
	} else if (args->u.c.n != 1 || a0->type != PK_LIST) {
		return bad(r, "build_*list wants (list,)");
	}
	r->sp -= 2;
	return push(r, a0);
}

static int make_tuple(struct pk_rd *r, size_t base)
{
	struct pk_value *t = node(r, PK_TUPLE);

	if (!t)
		return -1;
	for (size_t i = base; i < r->sp; i++) {
		if (!is_value(r->stack[i]))
			return bad(r, "a GLOBAL inside a tuple");
		if (add_item(r, t, r->stack[i]) < 0)
			return -1;
	}
	r->sp = base;
	return push(r, t);
}

static int op_tuple_n(struct pk_rd *r, size_t n)
{
	size_t floor = r->nmarks ? r->marks[r->nmarks - 1] : 0;

	if (r->sp < n || r->sp - n < floor)
		return bad(r, "TUPLEn on a short stack");
	return make_tuple(r, r->sp - n);
}

static int op_appends(struct pk_rd *r)
{
	size_t base = 0;
	struct pk_value *l;

	if (mark_base(r, &base) < 0)
		return -1;
	if (base == 0 || (l = r->stack[base - 1])->type != PK_LIST)
		return bad(r, "APPENDS without a list under the MARK");
	for (size_t i = base; i < r->sp; i++) {
		if (!is_value(r->stack[i]))
			return bad(r, "a GLOBAL inside a list");
		if (add_item(r, l, r->stack[i]) < 0)
			return -1;
	}
	pop_mark(r, base);
	return 0;
}

static int op_append(struct pk_rd *r)
{
	size_t floor = r->nmarks ? r->marks[r->nmarks - 1] : 0;
	struct pk_value *l, *v;

	if (r->sp < 2 || r->sp - 2 < floor)
		return bad(r, "APPEND on a short stack");
	l = r->stack[r->sp - 2];
	v = r->stack[r->sp - 1];
	if (l->type != PK_LIST || !is_value(v))
		return bad(r, "APPEND to something other than a list");
	if (add_item(r, l, v) < 0)
		return -1;
	r->sp--;
	return 0;
}

static int set_pair(struct pk_rd *r, struct pk_value *d, struct pk_value *k, struct pk_value *v)
{
	if (!is_value(k) || !is_value(v))
		return bad(r, "a GLOBAL inside a dict");
	if (k->type == PK_LIST || k->type == PK_DICT)
		return bad(r, "an unhashable dict key");
	r->nitems += 2;
	if (r->nitems > r->lim.max_nodes)
		return bad(r, "more container items than the cap");
	ALLOC_GROW(d->u.c.items, 2 * (d->u.c.n + 1), d->u.c.alloc);
	d->u.c.items[2 * d->u.c.n] = k;
	d->u.c.items[2 * d->u.c.n + 1] = v;
	d->u.c.n++;
	return 0;
}

static int op_setitems(struct pk_rd *r)
{
	size_t base = 0;
	struct pk_value *d;

	if (mark_base(r, &base) < 0)
		return -1;
	if (base == 0 || (d = r->stack[base - 1])->type != PK_DICT)
		return bad(r, "SETITEMS without a dict under the MARK");
	if ((r->sp - base) % 2)
		return bad(r, "SETITEMS with an odd number of values");
	for (size_t i = base; i < r->sp; i += 2)
		if (set_pair(r, d, r->stack[i], r->stack[i + 1]) < 0)
			return -1;
	pop_mark(r, base);
	return 0;
}

static int op_setitem(struct pk_rd *r)
{
	size_t floor = r->nmarks ? r->marks[r->nmarks - 1] : 0;
	struct pk_value *d;

	if (r->sp < 3 || r->sp - 3 < floor)
		return bad(r, "SETITEM on a short stack");
	d = r->stack[r->sp - 3];
	if (d->type != PK_DICT)
		return bad(r, "SETITEM on something other than a dict");
	if (set_pair(r, d, r->stack[r->sp - 2], r->stack[r->sp - 1]) < 0)
		return -1;
	r->sp -= 2;
	return 0;
}

static int step(struct pk_rd *r, int *done)
{
	unsigned char op;
	double f;
	uint64_t u;
	struct pk_value *v;
	size_t base = 0;

	r->op_off = (size_t)(r->p - r->start);
	op = *r->p++;
	r->op = op;
	switch (op) {
	case 0x80: /* PROTO */
		if (need(r, 1) < 0)
			return -1;
		if (r->op_off != 0 || *r->p < 2 || *r->p > 5)
			return bad(r, "protocol other than 2-5, or PROTO not first");
		r->p++;
		return 0;
	case 0x95: /* FRAME: a length hint for buffered readers */
		if (need(r, 8) < 0)
			return -1;
		r->p += 8;
		return 0;
	case '.': /* STOP */
		if (r->sp != 1 || r->nmarks || !is_value(r->stack[0]))
			return bad(r, "STOP with other than one value on the stack");
		r->doc->root = r->stack[0];
		*done = 1;
		return 0;
	case '(': /* MARK */
		if (r->nmarks >= r->lim.max_depth)
			return bad(r, "nesting deeper than the cap");
		ALLOC_GROW(r->marks, r->nmarks + 1, r->amarks);
		r->marks[r->nmarks++] = r->sp;
		return 0;
	case '}': return push(r, node(r, PK_DICT));
	case ']': return push(r, node(r, PK_LIST));
	case ')': return push(r, node(r, PK_TUPLE));
	case 'N': return push(r, node(r, PK_NONE));
	case 0x88: case 0x89: /* NEWTRUE, NEWFALSE */
		v = node(r, PK_BOOL);
		if (!v)
			return -1;
		v->u.b = op == 0x88;
		return push(r, v);
	case 't': /* TUPLE */
		if (mark_base(r, &base) < 0 || make_tuple(r, base) < 0)
			return -1;
		/* make_tuple left the tuple at `base`; drop the mark under it */
		r->nmarks--;
		return 0;
	case 0x85: return op_tuple_n(r, 1);
	case 0x86: return op_tuple_n(r, 2);
	case 0x87: return op_tuple_n(r, 3);
	case 'a': return op_append(r);
	case 'e': return op_appends(r);
	case 's': return op_setitem(r);
	case 'u': return op_setitems(r);
	case 'K': /* BININT1 */
		if (need(r, 1) < 0)
			return -1;
		return op_int(r, *r->p++);
	case 'M': /* BININT2 */
		if (need(r, 2) < 0)
			return -1;
		u = le(r->p, 2);
		r->p += 2;
		return op_int(r, (int64_t)u);
	case 'J': /* BININT: signed 32 */
		if (need(r, 4) < 0)
			return -1;
		u = le(r->p, 4);
		r->p += 4;
		return op_int(r, (int64_t)(int32_t)(uint32_t)u);
	case 0x8a: return op_long(r, 1);	/* LONG1 */
	case 0x8b: return op_long(r, 4);	/* LONG4 */
	case 'G': /* BINFLOAT: big-endian IEEE 754 */
		if (need(r, 8) < 0)
			return -1;
		u = 0;
		for (int i = 0; i < 8; i++)
			u = (u << 8) | r->p[i];
		r->p += 8;
		memcpy(&f, &u, sizeof(f));
		v = node(r, PK_FLOAT);
		if (!v)
			return -1;
		v->u.f = f;
		return push(r, v);
	case 'X': return op_string(r, 4, PK_STR);	/* BINUNICODE */
	case 0x8c: return op_string(r, 1, PK_STR);	/* SHORT_BINUNICODE */
	case 0x8d: return op_string(r, 8, PK_STR);	/* BINUNICODE8 */
	case 'C': return op_string(r, 1, PK_BYTES);	/* SHORT_BINBYTES */
	case 'B': return op_string(r, 4, PK_BYTES);	/* BINBYTES */
	case 0x8e: return op_string(r, 8, PK_BYTES);	/* BINBYTES8 */
	case 'q': /* BINPUT */
		if (need(r, 1) < 0)
			return -1;
		return memo_put(r, *r->p++);
	case 'r': /* LONG_BINPUT */
		if (need(r, 4) < 0)
			return -1;
		u = le(r->p, 4);
		r->p += 4;
		return memo_put(r, u);
	case 0x94: /* MEMOIZE: the next free index, as Python's len(memo) */
		return memo_put(r, r->memo_set);
	case 'h': /* BINGET */
		if (need(r, 1) < 0)
			return -1;
		return memo_get(r, *r->p++);
	case 'j': /* LONG_BINGET */
		if (need(r, 4) < 0)
			return -1;
		u = le(r->p, 4);
		r->p += 4;
		return memo_get(r, u);
	case '0': /* POP */
		if (!r->sp || (r->nmarks && r->marks[r->nmarks - 1] == r->sp))
			return bad(r, "POP on an empty stack");
		r->sp--;
		return 0;
	case '1': /* POP_MARK */
		if (mark_base(r, &base) < 0)
			return -1;
		pop_mark(r, base);
		return 0;
	case '2': /* DUP */
		if (!r->sp)
			return bad(r, "DUP on an empty stack");
		return push(r, r->stack[r->sp - 1]);
	case 'c': return op_global(r);
	case 0x93: return op_stack_global(r);
	case 'R': return op_reduce(r);
	default:
		return bad(r, "unsupported opcode");
	}
}

struct pk_doc *pk_load(const void *data, size_t len, const struct pk_limits *lim, struct err *e)
{
	struct pk_rd r = { 0 };
	int done = 0;

	r.lim = pk_defaults;
	if (lim) {
		if (lim->max_input)
			r.lim.max_input = lim->max_input;
		if (lim->max_nodes)
			r.lim.max_nodes = lim->max_nodes;
		if (lim->max_depth)
			r.lim.max_depth = lim->max_depth;
		if (lim->max_str)
			r.lim.max_str = lim->max_str;
		if (lim->max_memo)
			r.lim.max_memo = lim->max_memo;
	}
	if (len > r.lim.max_input) {
		err_set(e, ERR_PARSE, "pickle: %zu bytes, more than the %zu-byte cap", len,
			r.lim.max_input);
		return NULL;
	}
	if (len < 2 || ((const unsigned char *)data)[0] != 0x80) {
		err_set(e, ERR_PARSE, "not a binary pickle (no PROTO opcode first)");
		return NULL;
	}
	r.start = r.p = data;
	r.end = r.p + len;
	r.e = e;
	r.doc = xcalloc(1, sizeof(*r.doc));
	while (!done) {
		if (r.p >= r.end) {
			r.op_off = len;
			r.op = 0;
			bad(&r, "ended before STOP");
			break;
		}
		if (step(&r, &done) < 0)
			break;
	}
	free(r.stack);
	free(r.marks);
	free(r.memo);
	if (!done) {
		pk_free(r.doc);
		return NULL;
	}
	return r.doc;
}

void pk_free(struct pk_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nnodes; i++) {
		struct pk_value *v = d->nodes[i];
		if (v->type == PK_STR || v->type == PK_BYTES)
			free(v->u.str.s);
		else if (v->type == PK_LIST || v->type == PK_TUPLE || v->type == PK_DICT)
			free(v->u.c.items);
		free(v);
	}
	free(d->nodes);
	free(d);
}

const struct pk_value *pk_root(const struct pk_doc *d)
{
	return d->root;
}

const struct pk_value *pk_get(const struct pk_value *dict, const char *key)
{
	size_t kl = strlen(key);

	if (!dict || dict->type != PK_DICT)
		return NULL;
	for (size_t i = 0; i < dict->u.c.n; i++) {
		const struct pk_value *k = dict->u.c.items[2 * i];
		if (k->type == PK_STR && k->u.str.len == kl && !memcmp(k->u.str.s, key, kl))
			return dict->u.c.items[2 * i + 1];
	}
	return NULL;
}
