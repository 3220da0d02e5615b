/*
 * Frames of the cluster protocol: a 4-byte big-endian length, then that many bytes of JSON (one
 * object). The length is capped when reading AND when writing (iperf3 capped only its parameter
 * read), so a hostile or broken peer can make us allocate at most the cap. Facts documents are
 * well under 1 MiB; the default cap leaves room for a master's report of many nodes.
 */
#ifndef NCCLCHECK_NET_FRAME_H
#define NCCLCHECK_NET_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "util/err.h"

#define FRAME_MAX_DEFAULT ((size_t)16 << 20)
#define FRAME_HDR 4
/*
 * A message larger than one frame travels as several: every frame but the last has this bit set
 * in its length ("more follows"), and the reader joins the bodies. Only a reader given a message
 * cap above its frame cap accepts them (a worker reading the master's report); everyone else
 * refuses a set bit as an oversized frame, as before.
 */
#define FRAME_MORE 0x80000000u
/* The largest report a worker accepts from its (authenticated) master: 256 nodes fit. */
#define FRAME_MSG_MAX ((size_t)256 << 20)

/* A frame's length, and any other 32-bit field on the wire, big-endian. */
static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* The outcome of a frame operation; every failure is one of these, with the message in `e`. */
enum frame_status {
	FRAME_OK = 0,
	FRAME_AGAIN,	/* incremental reader: not a whole frame yet */
	FRAME_EOF,	/* the peer closed (between frames or inside one) */
	FRAME_TOOBIG,	/* the length is over the cap (read) or the message is (write) */
	FRAME_NOTJSON,	/* the body is not one JSON object */
	FRAME_TIMEOUT,
	FRAME_IO,	/* the socket failed */
};

/* "ok", "again", "eof", "too-big", "not-json", "timeout", "io" */
const char *frame_status_name(enum frame_status s);

/*
 * Encodes `msg` (compact, keys in insertion order) into `out` as one frame (header + body).
 * FRAME_TOOBIG when the body would be over `cap`.
 */
struct strbuf;
enum frame_status frame_encode(const json_t *msg, size_t cap, struct strbuf *out, struct err *e);
/*
 * As frame_encode, for a message that may be larger than one frame: frames of at most `cap`
 * body bytes, the message at most `msg_cap` (FRAME_TOOBIG past it).
 */
enum frame_status frame_encode_chunked(const json_t *msg, size_t cap, size_t msg_cap,
				       struct strbuf *out, struct err *e);
/* As frame_encode_chunked, with sp's elements written in place of its placeholder (sp NULL:
 * none), one at a time (util/json.h). */
struct jsplice;
enum frame_status frame_encode_splice(const json_t *msg, const struct jsplice *sp, size_t cap,
				      size_t msg_cap, struct strbuf *out, struct err *e);

/* Decodes one frame body; FRAME_NOTJSON (with jansson's reason) when it is not one object. */
enum frame_status frame_decode_body(const void *body, size_t len, json_t **out, struct err *e);

/* Blocking (poll with a deadline) write and read of one frame on a non-blocking socket. */
enum frame_status frame_write(int fd, const json_t *msg, size_t cap, int64_t deadline_ms,
			      struct err *e);
enum frame_status frame_read(int fd, size_t cap, int64_t deadline_ms, json_t **out, struct err *e);

/*
 * An incremental reader for an event loop: feed it whatever recv() returned; it holds partial
 * headers and bodies. The cap is checked as soon as the header is complete, before any body is
 * buffered.
 */
struct frame_reader {
	unsigned char hdr[FRAME_HDR];
	size_t hlen;		/* header bytes held */
	char *body;		/* the message so far: earlier frames' bodies, then this one's */
	size_t want, have;	/* this frame's body length announced, its bytes held */
	size_t done;		/* bytes of earlier frames of this message (FRAME_MORE) */
	int more;		/* this frame has FRAME_MORE */
	size_t cap;
	size_t msg_cap;		/* above cap: FRAME_MORE accepted up to this many bytes in all */
};

void frame_reader_init(struct frame_reader *r, size_t cap);
void frame_reader_release(struct frame_reader *r);
/*
 * Consumes bytes from data[0..n) into the reader; stops after one whole message (the frames of
 * a FRAME_MORE series joined). Returns FRAME_OK
 * with *out set (and *used the bytes consumed, so the caller feeds the rest again), FRAME_AGAIN
 * when all n bytes were consumed without completing a frame, or FRAME_TOOBIG / FRAME_NOTJSON
 * (the reader is then unusable: drop the peer).
 */
enum frame_status frame_reader_feed(struct frame_reader *r, const void *data, size_t n,
				    size_t *used, json_t **out, struct err *e);

#endif
