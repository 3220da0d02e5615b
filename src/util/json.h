/* Small conveniences over jansson for reading facts documents without NULL checks everywhere. */
#ifndef NCCLCHECK_JSON_H
#define NCCLCHECK_JSON_H

#include <jansson.h>

/*
 * Looks up a dotted path ("driver.version", "gpus.0.name": numeric parts index arrays).
 * Returns a borrowed reference or NULL.
 */
json_t *jpath(const json_t *root, const char *path);
/* String at `path`, or NULL when absent or not a string. */
const char *jpath_str(const json_t *root, const char *path);
/* Integer at `path` (a JSON real is truncated); `def` when absent. */
long long jpath_int(const json_t *root, const char *path, long long def);
/* Truthy boolean at `path`; `def` when absent. */
int jpath_bool(const json_t *root, const char *path, int def);

/* Set helpers that accept NULL strings (stored as JSON null) and steal nothing. */
void jset_str(json_t *obj, const char *key, const char *val);
void jset_int(json_t *obj, const char *key, long long val);
void jset_bool(json_t *obj, const char *key, int val);
void jset_real(json_t *obj, const char *key, double val);
/* printf into a string member. */
void jset_fmt(json_t *obj, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Marks a fact as not readable: sets `key` to {"unknown": reason}. Every probe uses this shape,
 * so renderers and rules can tell "absent" from "could not be read".
 */
void jset_unknown(json_t *obj, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The reason when `v` is an unknown marker, else NULL. */
const char *junknown(const json_t *v);

/* 1 when the array `arr` holds the string `s`. */
int jarr_has_str(const json_t *arr, const char *s);
/* Appends the array's strings to `sb`, ", "-separated (after what `sb` already holds). */
struct strbuf;
void jarr_join(const json_t *arr, struct strbuf *sb);

/* Creates (or returns) the object member `key` of `obj`. Borrowed reference. */
json_t *jobj_child(json_t *obj, const char *key);
/* Creates (or returns) the array member `key` of `obj`. Borrowed reference. */
json_t *jarr_child(json_t *obj, const char *key);

/*
 * An array written one element at a time where a document holds the placeholder `at` (an
 * empty array): a cluster report's thousands of link tests cost ten times their JSON text as a
 * jansson tree (102 MB at 32 nodes), so rank 0 makes each element, writes it and frees it.
 * item(arg, i) returns element i (a new reference). `at` is found through objects only (a
 * placeholder inside an array is written as the empty array it is).
 */
struct jsplice {
	const json_t *at;
	size_t n;
	json_t *(*item)(void *arg, size_t i);
	void *arg;
};

/*
 * json_dump_callback of `doc` with sp's elements in place of sp->at (sp NULL: none), byte for
 * byte what json_dump_callback writes of the document holding them (objects in their order;
 * JSON_SORT_KEYS is not supported). -1 when the callback fails or the document does not encode.
 */
int jdump_splice(const json_t *doc, size_t flags, const struct jsplice *sp,
		 json_dump_callback_t cb, void *data);
/* Puts the whole array in place of sp->at in `doc` (the writers that read it as a tree), after
 * which sp is empty. */
void jsplice_materialize(json_t *doc, struct jsplice *sp);

/*
 * What jansson says of a file it cannot read as JSON (json_error_t.text), as msgids: an error
 * that quotes it reads whole in the reader's language (util/i18n.h). unit.i18n checks each has
 * a Chinese entry.
 */
extern const char *const json_error_msgids[];
extern const size_t json_error_nmsgids;

#endif
