/* json: see json.h. */
#include "util/json.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

json_t *jpath(const json_t *root, const char *path)
{
	const json_t *cur = root;
	const char *p = path;

	while (cur && *p) {
		char key[128];
		size_t n = strcspn(p, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		p += n;
		if (*p == '.')
			p++;
		if (json_is_array(cur)) {
			char *end;
			long idx = strtol(key, &end, 10);
			if (*end || end == key || idx < 0)
				return NULL;
			cur = json_array_get(cur, (size_t)idx);
		} else if (json_is_object(cur)) {
			cur = json_object_get(cur, key);
		} else {
			return NULL;
		}
	}
	return (json_t *)cur;
}

const char *jpath_str(const json_t *root, const char *path)
{
	return json_string_value(jpath(root, path));
}

long long jpath_int(const json_t *root, const char *path, long long def)
{
	json_t *v = jpath(root, path);

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v))
		return (long long)json_real_value(v);
	return def;
}

int jpath_bool(const json_t *root, const char *path, int def)
{
	json_t *v = jpath(root, path);

	if (json_is_boolean(v))
		return json_is_true(v);
	return def;
}

void jset_str(json_t *obj, const char *key, const char *val)
{
	json_object_set_new(obj, key, val ? json_string(val) : json_null());
	/* json_string rejects invalid UTF-8 (and returns NULL, which set_new ignores); keep the bytes legible */
	if (val && !json_object_get(obj, key)) {
		char *copy = strdup(val);
		for (char *c = copy; c && *c; c++)
			if ((unsigned char)*c >= 0x80 || !isprint((unsigned char)*c))
				*c = '?';
		json_object_set_new(obj, key, json_string(copy ? copy : ""));
		free(copy);
	}
}

void jset_int(json_t *obj, const char *key, long long val)
{
	json_object_set_new(obj, key, json_integer(val));
}

void jset_bool(json_t *obj, const char *key, int val)
{
	json_object_set_new(obj, key, json_boolean(val));
}

void jset_real(json_t *obj, const char *key, double val)
{
	json_object_set_new(obj, key, json_real(val));
}

void jset_fmt(json_t *obj, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	jset_str(obj, key, buf);
}

void jset_unknown(json_t *obj, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	json_t *u = json_object();

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	jset_str(u, "unknown", buf);
	json_object_set_new(obj, key, u);
}

const char *junknown(const json_t *v)
{
	if (!json_is_object(v))
		return NULL;
	return json_string_value(json_object_get(v, "unknown"));
}

json_t *jobj_child(json_t *obj, const char *key)
{
	json_t *c = json_object_get(obj, key);

	if (!json_is_object(c)) {
		c = json_object();
		json_object_set_new(obj, key, c);
	}
	return c;
}

json_t *jarr_child(json_t *obj, const char *key)
{
	json_t *c = json_object_get(obj, key);

	if (!json_is_array(c)) {
		c = json_array();
		json_object_set_new(obj, key, c);
	}
	return c;
}

int jarr_has_str(const json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return 1;
	return 0;
}

void jarr_join(const json_t *arr, struct strbuf *sb)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v))
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", json_string_value(v));
}

/* ---- an array written one element at a time (struct jsplice) ---- */

struct jout {
	json_dump_callback_t cb;
	void *data;
	size_t indent;		/* spaces per level; 0: one line */
	int compact;
};

static int put(const struct jout *o, const char *s, size_t n)
{
	return n ? o->cb(s, n, o->data) : 0;
}

/* jansson's dump_indent: a line break and `depth` levels, or a space between items */
static int put_break(const struct jout *o, size_t depth, int space)
{
	static const char spaces[] = "                                ";
	size_t left = o->indent * depth;

	if (!o->indent)
		return space && !o->compact ? put(o, " ", 1) : 0;
	if (put(o, "\n", 1) < 0)
		return -1;
	for (; left; left -= left < 32 ? left : 32)
		if (put(o, spaces, left < 32 ? left : 32) < 0)
			return -1;
	return 0;
}

struct reindent {
	const struct jout *o;
	size_t depth;
};

/* a value written at depth 0 moved to `depth`: JSON text has no line break but its indent's */
static int reindent_cb(const char *buf, size_t n, void *data)
{
	const struct reindent *r = data;
	size_t start = 0;

	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n')
			continue;
		if (put(r->o, buf + start, i - start) < 0 || put_break(r->o, r->depth, 0) < 0)
			return -1;
		start = i + 1;
	}
	return put(r->o, buf + start, n - start);
}

static int put_value(const struct jout *o, const json_t *v, size_t flags, size_t depth)
{
	struct reindent r = { .o = o, .depth = depth };

	return json_dump_callback(v, reindent_cb, &r, flags | JSON_ENCODE_ANY);
}

static int holds(const json_t *j, const json_t *at)
{
	const char *k;
	json_t *v;

	if (j == at)
		return 1;
	if (!json_is_object(j))
		return 0;
	json_object_foreach((json_t *)j, k, v)
		if (holds(v, at))
			return 1;
	return 0;
}

static int put_items(const struct jout *o, size_t flags, size_t depth, const struct jsplice *sp)
{
	if (!sp->n)
		return put(o, "[]", 2);
	if (put(o, "[", 1) < 0 || put_break(o, depth + 1, 0) < 0)
		return -1;
	for (size_t i = 0; i < sp->n; i++) {
		json_t *v = sp->item(sp->arg, i);
		int rc = v ? put_value(o, v, flags, depth + 1) : -1;

		json_decref(v);
		if (rc < 0 || (i + 1 < sp->n && (put(o, ",", 1) < 0 || put_break(o, depth + 1, 1) < 0)))
			return -1;
	}
	return put_break(o, depth, 0) < 0 ? -1 : put(o, "]", 1);
}

/* the objects on the way to the placeholder are written key by key, as jansson does */
static int put_tree(const struct jout *o, const json_t *j, size_t flags, size_t depth,
		    const struct jsplice *sp)
{
	const char *k;
	json_t *v;
	int first = 1;

	if (j == sp->at)
		return put_items(o, flags, depth, sp);
	if (!holds(j, sp->at))
		return put_value(o, j, flags, depth);
	if (put(o, "{", 1) < 0 || put_break(o, depth + 1, 0) < 0)
		return -1;
	json_object_foreach((json_t *)j, k, v) {
		json_t *key = json_string(k);
		int rc;

		if (!first && (put(o, ",", 1) < 0 || put_break(o, depth + 1, 1) < 0)) {
			json_decref(key);
			return -1;
		}
		first = 0;
		rc = key ? json_dump_callback(key, o->cb, o->data, flags | JSON_ENCODE_ANY) : -1;
		json_decref(key);
		if (rc < 0 || put(o, o->compact ? ":" : ": ", o->compact ? 1 : 2) < 0 ||
		    put_tree(o, v, flags, depth + 1, sp) < 0)
			return -1;
	}
	return put_break(o, depth, 0) < 0 ? -1 : put(o, "}", 1);
}

int jdump_splice(const json_t *doc, size_t flags, const struct jsplice *sp,
		 json_dump_callback_t cb, void *data)
{
	struct jout o = { .cb = cb, .data = data, .indent = flags & JSON_MAX_INDENT,
			  .compact = !!(flags & JSON_COMPACT) };

	if (!sp || !sp->at)
		return json_dump_callback(doc, cb, data, flags);
	if (!json_is_object(doc) && doc != sp->at)
		return -1;
	return put_tree(&o, doc, flags, 0, sp);
}

static int replace(json_t *j, const json_t *at, json_t *arr)
{
	const char *k;
	json_t *v;

	if (!json_is_object(j))
		return 0;
	json_object_foreach(j, k, v) {
		if (v == at)
			return json_object_set_new(j, k, arr) == 0;
		if (replace(v, at, arr))
			return 1;
	}
	return 0;
}

void jsplice_materialize(json_t *doc, struct jsplice *sp)
{
	json_t *arr;

	if (!sp || !sp->at)
		return;
	arr = json_array();
	for (size_t i = 0; i < sp->n; i++)
		json_array_append_new(arr, sp->item(sp->arg, i));
	if (!replace(doc, sp->at, arr))
		json_decref(arr);
	sp->at = NULL;
	sp->n = 0;
}

/* jansson's load.c: "<message> near '<token>'", or "... near end of file" at its end */
const char *const json_error_msgids[] = {
	N_("'[' or '{' expected near '%s'"),
	N_("'[' or '{' expected near end of file"),
	N_("end of file expected near '%s'"),
	N_("unexpected token near '%s'"),
	N_("unexpected token near end of file"),
	N_("invalid token near '%s'"),
	N_("invalid token near end of file"),
	N_("string or '}' expected near '%s'"),
	N_("string or '}' expected near end of file"),
	N_("':' expected near '%s'"),
	N_("']' expected near '%s'"),
	N_("premature end of input near '%s'"),
	N_("premature end of input near end of file"),
	N_("duplicate object key near '%s'"),
	N_("maximum parsing depth reached near '%s'"),
	N_("unable to open %s: %s"),
};
const size_t json_error_nmsgids = sizeof(json_error_msgids) / sizeof(json_error_msgids[0]);
