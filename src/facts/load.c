/* facts/load: see load.h. */
#include "facts/load.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file.h"
#include "util/strbuf.h"

/* Accepts the full `node --json` output and the bare facts object; steals `doc`. */
static json_t *unwrap(json_t *doc, const char *what, struct err *e)
{
	json_t *facts = json_is_object(doc) ? json_object_get(doc, "facts") : NULL;

	if (facts) {
		json_incref(facts);
		json_decref(doc);
		doc = facts;
	}
	if (!json_is_object(doc) || !json_object_get(doc, "schema_version")) {
		json_decref(doc);
		err_set(e, ERR_PARSE, "facts '%s' is not a facts document (no schema_version)", what);
		return NULL;
	}
	if (!json_is_integer(json_object_get(doc, "schema_version"))) {
		json_decref(doc);
		err_set(e, ERR_PARSE, "facts '%s': schema_version is not an integer", what);
		return NULL;
	}
	return doc;
}

json_t *facts_load_file(const char *path, struct err *e)
{
	json_error_t jerr;
	struct stat st;
	json_t *doc;

	if (stat(path, &st) < 0) {
		err_set(e, ERR_SYS, "cannot read facts '%s': %s", path, err_errno_text(errno));
		return NULL;
	}
	if (st.st_size > FACTS_MAX_BYTES) {
		err_set(e, ERR_PARSE, "facts '%s' is %lld bytes; a facts document is at most %ld", path,
			(long long)st.st_size, FACTS_MAX_BYTES);
		return NULL;
	}
	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		err_set(e, ERR_PARSE, "facts '%s' is not JSON: %s (line %d, column %d)", path, jerr.text,
			jerr.line, jerr.column);
		return NULL;
	}
	return unwrap(doc, path, e);
}

json_t *facts_load_bytes(const char *buf, size_t len, struct err *e)
{
	json_error_t jerr;
	json_t *doc;

	if (len > (size_t)FACTS_MAX_BYTES) {
		err_set(e, ERR_PARSE, "a facts document is at most %ld bytes, not %zu", FACTS_MAX_BYTES, len);
		return NULL;
	}
	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		err_set(e, ERR_PARSE, "facts are not JSON: %s (line %d, column %d)", jerr.text, jerr.line,
			jerr.column);
		return NULL;
	}
	return unwrap(doc, "<bytes>", e);
}

json_t *facts_load_doc(const char *path, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	struct err fe = ERR_INIT;
	json_error_t jerr;
	json_t *doc;

	if (file_read(path, &sb, (size_t)FACTS_MAX_BYTES, &fe) < 0) {
		err_set(e, fe.code, "cannot read '%s': %s", path, fe.msg);
		strbuf_release(&sb);
		return NULL;
	}
	doc = json_loadb(sb.buf, sb.len, JSON_REJECT_DUPLICATES, &jerr);
	strbuf_release(&sb);
	if (!doc)
		err_set(e, ERR_PARSE, "'%s' is not JSON: %s (line %d, column %d)", path, jerr.text,
			jerr.line, jerr.column);
	return doc;
}
