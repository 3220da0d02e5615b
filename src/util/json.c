/* json: see json.h. */
#include "util/json.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
