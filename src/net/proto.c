/* net/proto: see proto.h. One field table per message type serves decode, encode and release. */
#include "net/proto.h"

#include <stdlib.h>
#include <string.h>

#include "net/frame.h"
#include "util/xalloc.h"

enum ftype {
	FT_INT,		/* long, within [min, max] */
	FT_STR,		/* char *, printable, at most maxlen bytes */
	FT_HEX,		/* char[maxlen + 1], exactly maxlen lowercase hex digits (or "" if min) */
	FT_OBJ,		/* json_t *, an object */
	FT_ANY,		/* json_t *, an object or an array */
	FT_ARR,		/* json_t *, an array */
};

struct field {
	const char *name;
	enum ftype type;
	int required;
	size_t off;		/* offsetof(struct msg, u.x.field) */
	long long min, max;	/* FT_INT bounds; FT_HEX: min 1 allows "" */
	size_t maxlen;		/* FT_STR / FT_HEX */
};

#define F_INT(t, f, lo, hi) \
	{ .name = #f, .type = FT_INT, .required = 1, .off = offsetof(struct msg, u.t.f), \
	  .min = (lo), .max = (hi) }
#define F_STR(t, f, len) \
	{ .name = #f, .type = FT_STR, .required = 1, .off = offsetof(struct msg, u.t.f), \
	  .maxlen = (len) }
#define F_STR_OPT(t, f, len) \
	{ .name = #f, .type = FT_STR, .required = 0, .off = offsetof(struct msg, u.t.f), \
	  .maxlen = (len) }
#define F_HEX(t, f, len, empty_ok) \
	{ .name = #f, .type = FT_HEX, .required = 1, .off = offsetof(struct msg, u.t.f), \
	  .min = (empty_ok), .maxlen = (len) }
#define F_JSON(t, f, ty, req) \
	{ .name = #f, .type = (ty), .required = (req), .off = offsetof(struct msg, u.t.f) }
#define PHASE_MAX 64

static const struct field hello_fields[] = {
	F_INT(hello, version, 0, 1000000),
	F_INT(hello, rank, 0, PROTO_NODES_MAX),
	F_INT(hello, nnodes, 1, PROTO_NODES_MAX),
	F_INT(hello, pid, 0, 1LL << 31),
	F_STR(hello, host, PROTO_HOST_MAX),
	F_STR(hello, tool, 64),
	F_HEX(hello, nonce, PROTO_NONCE_HEX, 0),
};
static const struct field challenge_fields[] = {
	F_INT(challenge, version, 0, 1000000),
	F_INT(challenge, auth, 0, 1),
	F_INT(challenge, heartbeat_ms, 50, 60000),
	F_HEX(challenge, nonce, PROTO_NONCE_HEX, 0),
};
static const struct field auth_fields[] = {
	F_HEX(auth, mac, PROTO_MAC_HEX, 1),
};
static const struct field welcome_fields[] = {
	F_INT(welcome, nnodes, 1, PROTO_NODES_MAX),
	F_HEX(welcome, mac, PROTO_MAC_HEX, 1),
};
static const struct field reject_fields[] = {
	F_STR(reject, code, 32),
	F_STR(reject, message, PROTO_TEXT_MAX),
};
static const struct field facts_fields[] = {
	F_INT(facts, rank, 0, PROTO_NODES_MAX - 1),
	F_JSON(facts, facts, FT_OBJ, 1),
};
static const struct field plan_fields[] = {
	F_STR(plan, phase, PHASE_MAX),
	F_INT(plan, step, 0, 1 << 30),
	F_JSON(plan, payload, FT_ANY, 1),
};
static const struct field result_fields[] = {
	F_STR(result, phase, PHASE_MAX),
	F_INT(result, step, 0, 1 << 30),
	F_INT(result, rank, 0, PROTO_NODES_MAX - 1),
	F_JSON(result, payload, FT_ANY, 1),
};
static const struct field report_fields[] = {
	F_INT(report, exit_code, 0, 255),
	F_JSON(report, report, FT_OBJ, 1),
};
static const struct field heartbeat_fields[] = {
	F_INT(heartbeat, rank, 0, PROTO_NODES_MAX - 1),
	F_INT(heartbeat, seq, 0, 1LL << 40),
};
static const struct field abort_fields[] = {
	F_STR(abort, code, 32),
	F_STR(abort, message, PROTO_TEXT_MAX),
	F_INT(abort, rank, -1, PROTO_NODES_MAX - 1),
	F_STR_OPT(abort, host, PROTO_HOST_MAX),
	F_JSON(abort, findings, FT_ARR, 0),
};
static const struct field bye_fields[] = {
	F_INT(bye, rank, 0, PROTO_NODES_MAX - 1),
};

static const struct msg_desc {
	const char *name;
	const struct field *fields;
	size_t nfields;
} descs[MSG_TYPE_COUNT] = {
#define D(t, n) [t] = { .name = #n, .fields = n##_fields, .nfields = ARRAY_SIZE(n##_fields) }
	D(MSG_HELLO, hello), D(MSG_CHALLENGE, challenge), D(MSG_AUTH, auth),
	D(MSG_WELCOME, welcome), D(MSG_REJECT, reject), D(MSG_FACTS, facts),
	D(MSG_PLAN, plan), D(MSG_RESULT, result), D(MSG_REPORT, report),
	D(MSG_HEARTBEAT, heartbeat), D(MSG_ABORT, abort), D(MSG_BYE, bye),
#undef D
};

const char *msg_type_name(enum msg_type t)
{
	return (unsigned)t < MSG_TYPE_COUNT ? descs[t].name : NULL;
}

void msg_init(struct msg *m, enum msg_type t)
{
	memset(m, 0, sizeof(*m));
	m->type = t;
	if (t == MSG_ABORT)
		m->u.abort.rank = -1;
}

#define AT(m, f, T) ((T *)((char *)(m) + (f)->off))

void msg_release(struct msg *m)
{
	if ((unsigned)m->type < MSG_TYPE_COUNT) {
		const struct msg_desc *d = &descs[m->type];

		for (size_t i = 0; i < d->nfields; i++) {
			const struct field *f = &d->fields[i];

			if (f->type == FT_STR)
				free(*AT(m, f, char *));
			else if (f->type == FT_OBJ || f->type == FT_ANY || f->type == FT_ARR)
				json_decref(*AT(m, f, json_t *));
		}
	}
	memset(m, 0, sizeof(*m));
}

static const char *jtype(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static const char *want_type(enum ftype t)
{
	switch (t) {
	case FT_INT: return "an integer";
	case FT_STR: case FT_HEX: return "a string";
	case FT_OBJ: return "an object";
	case FT_ARR: return "an array";
	default: return "an object or an array";
	}
}

static int printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Checks one value against its field; on success stores it in m. */
static int take(struct msg *m, const char *mname, const struct field *f, json_t *v, struct err *e)
{
	switch (f->type) {
	case FT_INT: {
		json_int_t x;

		if (!json_is_integer(v))
			break;
		x = json_integer_value(v);
		if (x < f->min || x > f->max)
			return err_set(e, ERR_PEER, "message '%s': field '%s' is %lld, outside %lld..%lld",
				       mname, f->name, (long long)x, f->min, f->max);
		*AT(m, f, long) = (long)x;
		return 0;
	}
	case FT_STR: case FT_HEX: {
		const char *s;
		size_t n;

		if (!json_is_string(v))
			break;
		s = json_string_value(v);
		n = json_string_length(v);
		if (f->type == FT_STR) {
			if (n > f->maxlen)
				return err_set(e, ERR_PEER, "message '%s': field '%s' is %zu bytes long, "
					       "over %zu", mname, f->name, n, f->maxlen);
			if (!printable(s, n))
				return err_set(e, ERR_PEER, "message '%s': field '%s' holds control "
					       "characters", mname, f->name);
			*AT(m, f, char *) = xstrndup(s, n);
			return 0;
		}
		if (!(n == 0 && f->min) && (n != f->maxlen || !is_hex(s, n)))
			return err_set(e, ERR_PEER, "message '%s': field '%s' is not %zu lowercase hex "
				       "digits", mname, f->name, f->maxlen);
		memcpy(AT(m, f, char), s, n);
		AT(m, f, char)[n] = '\0';
		return 0;
	}
	case FT_OBJ: case FT_ANY: case FT_ARR:
		if ((f->type != FT_ARR && json_is_object(v)) || (f->type != FT_OBJ && json_is_array(v))) {
			*AT(m, f, json_t *) = json_incref(v);
			return 0;
		}
		break;
	}
	return err_set(e, ERR_PEER, "message '%s': field '%s' is %s, not %s", mname, f->name,
		       jtype(v), want_type(f->type));
}

int msg_from_json(const json_t *j, struct msg *m, struct err *e)
{
	const struct msg_desc *d = NULL;
	const char *tname, *key;
	json_t *tv, *v;
	int t;

	memset(m, 0, sizeof(*m));
	if (!json_is_object(j))
		return err_set(e, ERR_PEER, "a message is a JSON object, not %s", j ? jtype(j) : "nothing");
	tv = json_object_get(j, "type");
	if (!tv)
		return err_set(e, ERR_PEER, "a message has no field 'type'");
	if (!json_is_string(tv))
		return err_set(e, ERR_PEER, "field 'type' is %s, not a string", jtype(tv));
	tname = json_string_value(tv);
	for (t = 0; t < MSG_TYPE_COUNT; t++)
		if (!strcmp(descs[t].name, tname))
			break;
	if (t == MSG_TYPE_COUNT)
		return err_set(e, ERR_PEER, "unknown message type '%.40s'",
			       printable(tname, strlen(tname)) ? tname : "(control characters)");
	d = &descs[t];
	msg_init(m, (enum msg_type)t);

	json_object_foreach((json_t *)j, key, v) {
		size_t i;

		if (!strcmp(key, "type"))
			continue;
		for (i = 0; i < d->nfields; i++)
			if (!strcmp(d->fields[i].name, key))
				break;
		if (i == d->nfields) {
			err_set(e, ERR_PEER, "message '%s': unknown field '%.40s'", d->name,
				printable(key, strlen(key)) ? key : "(control characters)");
			goto fail;
		}
	}
	for (size_t i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];

		v = json_object_get(j, f->name);
		if (!v) {
			if (!f->required)
				continue;
			err_set(e, ERR_PEER, "message '%s': field '%s' is missing", d->name, f->name);
			goto fail;
		}
		if (take(m, d->name, f, v, e) < 0)
			goto fail;
	}
	return 0;
fail:
	msg_release(m);
	return -1;
}

json_t *msg_to_json(const struct msg *m, struct err *e)
{
	const struct msg_desc *d;
	json_t *j;
	struct msg check;
	struct err ce = ERR_INIT;

	if ((unsigned)m->type >= MSG_TYPE_COUNT) {
		err_set(e, ERR_INTERNAL, "message type %d does not exist", (int)m->type);
		return NULL;
	}
	d = &descs[m->type];
	j = json_object();
	json_object_set_new(j, "type", json_string(d->name));
	for (size_t i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];
		json_t *v = NULL;

		switch (f->type) {
		case FT_INT:
			v = json_integer(*AT(m, f, const long));
			break;
		case FT_STR: {
			const char *s = *AT(m, f, char *const);

			v = s || f->required ? json_string(s ? s : "") : NULL;
			break;
		}
		case FT_HEX:
			v = json_string(AT(m, f, const char));
			break;
		default:
			v = *AT(m, f, json_t *const);
			if (v)
				json_incref(v);
			break;
		}
		if (!v && f->required) {
			err_set(e, ERR_INTERNAL, "message '%s': field '%s' is not set (or not UTF-8)",
				d->name, f->name);
			json_decref(j);
			return NULL;
		}
		if (v)
			json_object_set_new(j, f->name, v);
	}
	/* what we send must be what a peer accepts */
	if (msg_from_json(j, &check, &ce) < 0) {
		err_set(e, ERR_INTERNAL, "would send an invalid message: %s", ce.msg);
		json_decref(j);
		return NULL;
	}
	msg_release(&check);
	return j;
}

int msg_send(int fd, const struct msg *m, size_t cap, int64_t deadline_ms, struct err *e)
{
	json_t *j = msg_to_json(m, e);
	enum frame_status st;

	if (!j)
		return -1;
	st = frame_write(fd, j, cap, deadline_ms, e);
	json_decref(j);
	return st == FRAME_OK ? 0 : -1;
}

int msg_recv(int fd, size_t cap, int64_t deadline_ms, struct msg *m, struct err *e)
{
	json_t *j = NULL;
	int rc;

	memset(m, 0, sizeof(*m));
	if (frame_read(fd, cap, deadline_ms, &j, e) != FRAME_OK)
		return -1;
	rc = msg_from_json(j, m, e);
	json_decref(j);
	return rc;
}
