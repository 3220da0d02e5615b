/* net/frame: see frame.h. */
#include "net/frame.h"

#include <stdlib.h>
#include <string.h>

#include "net/sock.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const status_names[] = {
	[FRAME_OK] = "ok", [FRAME_AGAIN] = "again", [FRAME_EOF] = "eof",
	[FRAME_TOOBIG] = "too-big", [FRAME_NOTJSON] = "not-json", [FRAME_TIMEOUT] = "timeout",
	[FRAME_IO] = "io",
};

const char *frame_status_name(enum frame_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ? status_names[s] : "?";
}

/* frames written as the encoder goes: a 7 MB report is never held whole besides its frames */
struct chunker {
	struct strbuf *out;
	size_t cap, msg_cap;
	size_t hdr;		/* where the open frame's header is */
	size_t in_frame;	/* its body bytes so far */
	size_t total;
	int started;
};

static void close_frame(struct chunker *k, uint32_t more)
{
	put_be32((unsigned char *)k->out->buf + k->hdr, (uint32_t)k->in_frame | more);
}

static int chunk_cb(const char *buf, size_t size, void *data)
{
	struct chunker *k = data;

	k->total += size;
	if (k->total > k->msg_cap || !k->cap)
		return -1;
	while (size) {
		size_t n;

		if (!k->started || k->in_frame == k->cap) {
			if (k->started)
				close_frame(k, FRAME_MORE);
			k->started = 1;
			k->hdr = k->out->len;
			k->in_frame = 0;
			strbuf_add(k->out, "\0\0\0\0", FRAME_HDR);
		}
		n = size < k->cap - k->in_frame ? size : k->cap - k->in_frame;
		strbuf_add(k->out, buf, n);
		k->in_frame += n;
		buf += n;
		size -= n;
	}
	return 0;
}

enum frame_status frame_encode_splice(const json_t *msg, const struct jsplice *sp, size_t cap,
				      size_t msg_cap, struct strbuf *out, struct err *e)
{
	struct chunker k = { .out = out, .cap = cap > FRAME_MORE - 1 ? FRAME_MORE - 1 : cap,
			     .msg_cap = msg_cap };
	size_t was = out->len;

	if (!json_is_object(msg)) {
		err_set(e, ERR_INTERNAL, "a frame carries one JSON object");
		return FRAME_NOTJSON;
	}
	if (jdump_splice(msg, JSON_COMPACT | JSON_PRESERVE_ORDER, sp, chunk_cb, &k) < 0) {
		strbuf_setlen(out, was);
		if (k.total > k.msg_cap || !k.cap) {
			err_set(e, ERR_USAGE, "a message of more than %zu bytes is over the %s cap of "
				"%zu", msg_cap, msg_cap > cap ? "message" : "frame", msg_cap);
			return FRAME_TOOBIG;
		}
		err_set(e, ERR_INTERNAL, "cannot encode a message");
		return FRAME_NOTJSON;
	}
	close_frame(&k, 0);
	return FRAME_OK;
}

enum frame_status frame_encode_chunked(const json_t *msg, size_t cap, size_t msg_cap,
				       struct strbuf *out, struct err *e)
{
	return frame_encode_splice(msg, NULL, cap, msg_cap, out, e);
}

enum frame_status frame_encode(const json_t *msg, size_t cap, struct strbuf *out, struct err *e)
{
	return frame_encode_chunked(msg, cap, cap, out, e);
}

enum frame_status frame_decode_body(const void *body, size_t len, json_t **out, struct err *e)
{
	json_error_t jerr;
	json_t *j;

	*out = NULL;
	/* JSON_REJECT_DUPLICATES: {"rank":0,"rank":1} must not mean whichever came last */
	j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!j) {
		err_set(e, ERR_PARSE, "a frame of %zu bytes is not JSON: %s (at byte %d)", len,
			jerr.text, jerr.position);
		return FRAME_NOTJSON;
	}
	if (!json_is_object(j)) {
		err_set(e, ERR_PARSE, "a frame holds a JSON %s, not an object",
			json_is_array(j) ? "array" : json_is_string(j) ? "string" : "scalar");
		json_decref(j);
		return FRAME_NOTJSON;
	}
	*out = j;
	return FRAME_OK;
}

static enum frame_status io_status(const struct err *e)
{
	switch (e ? e->code : ERR_SYS) {
	case ERR_TIMEOUT: return FRAME_TIMEOUT;
	case ERR_PEER: return FRAME_EOF;
	default: return FRAME_IO;
	}
}

enum frame_status frame_write(int fd, const json_t *msg, size_t cap, int64_t deadline_ms,
			      struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	struct err le = ERR_INIT;
	enum frame_status st = frame_encode(msg, cap, &sb, e);

	if (st == FRAME_OK && net_write_full(fd, sb.buf, sb.len, deadline_ms, &le) < 0) {
		st = io_status(&le);
		err_set(e, le.code, "%s", le.msg);
	}
	strbuf_release(&sb);
	return st;
}

enum frame_status frame_read(int fd, size_t cap, int64_t deadline_ms, json_t **out, struct err *e)
{
	unsigned char hdr[FRAME_HDR];
	struct err le = ERR_INIT;
	enum frame_status st;
	uint32_t len;
	char *body;

	*out = NULL;
	if (net_read_full(fd, hdr, sizeof(hdr), deadline_ms, &le) < 0) {
		err_set(e, le.code, "%s", le.msg);
		return io_status(&le);
	}
	len = get_be32(hdr);
	if (len > cap) {	/* FRAME_MORE too: a blocking reader takes single frames */
		err_set(e, ERR_PEER, "the peer announced a frame of %u bytes, over the cap of %zu",
			len, cap);
		return FRAME_TOOBIG;
	}
	body = xmalloc(len ? len : 1);
	if (net_read_full(fd, body, len, deadline_ms, &le) < 0) {
		free(body);
		err_set(e, le.code, "%s", le.msg);
		return io_status(&le);
	}
	st = frame_decode_body(body, len, out, e);
	free(body);
	return st;
}

void frame_reader_init(struct frame_reader *r, size_t cap)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
}

void frame_reader_release(struct frame_reader *r)
{
	size_t msg_cap = r->msg_cap;

	free(r->body);
	frame_reader_init(r, r->cap);
	r->msg_cap = msg_cap;
}

/* A whole header is held: the next frame's length, checked against the caps. */
static enum frame_status reader_header(struct frame_reader *r, struct err *e)
{
	uint32_t v = get_be32(r->hdr);
	size_t msg_cap = r->msg_cap > r->cap ? r->msg_cap : r->cap;

	r->more = (v & FRAME_MORE) && r->msg_cap > r->cap;
	r->want = r->more ? v & ~FRAME_MORE : v;
	if (r->want > r->cap || r->done + r->want > msg_cap) {
		err_set(e, ERR_PEER, "the peer announced a frame of %zu bytes, over the cap of %zu",
			r->done + r->want, r->want > r->cap ? r->cap : msg_cap);
		return FRAME_TOOBIG;
	}
	r->body = xrealloc(r->body, r->done + r->want + 1);
	r->have = 0;
	return FRAME_OK;
}

enum frame_status frame_reader_feed(struct frame_reader *r, const void *data, size_t n,
				    size_t *used, json_t **out, struct err *e)
{
	const unsigned char *p = data;
	size_t off = 0, take;
	enum frame_status st;

	*out = NULL;
	*used = 0;
	for (;;) {
		if (r->hlen < FRAME_HDR) {
			take = FRAME_HDR - r->hlen < n - off ? FRAME_HDR - r->hlen : n - off;
			memcpy(r->hdr + r->hlen, p + off, take);
			r->hlen += take;
			off += take;
			*used = off;
			if (r->hlen < FRAME_HDR)
				return FRAME_AGAIN;
			if ((st = reader_header(r, e)) != FRAME_OK)
				return st;
		}
		take = r->want - r->have < n - off ? r->want - r->have : n - off;
		memcpy(r->body + r->done + r->have, p + off, take);
		r->have += take;
		off += take;
		*used = off;
		if (r->have < r->want)
			return FRAME_AGAIN;
		r->done += r->want;
		r->hlen = r->want = r->have = 0;
		if (!r->more)
			break;
		if (off == n)
			return FRAME_AGAIN;
	}
	st = frame_decode_body(r->body, r->done, out, e);
	free(r->body);
	r->body = NULL;
	r->done = 0;
	return st;
}
