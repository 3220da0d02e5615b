/* net/frame: caps on both sides, partial reads, typed errors for everything that is not a frame. */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmocka_helpers.h"
#include "net/frame.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv), 0);
}

static void roundtrip_over_a_socket(void **state)
{
	struct err e = ERR_INIT;
	json_t *m = json_pack("{s:s, s:i}", "type", "heartbeat", "rank", 3), *got = NULL;
	int sv[2];

	(void)state;
	pair(sv);
	assert_int_equal(frame_write(sv[0], m, FRAME_MAX_DEFAULT, time_now_ms() + 1000, &e), FRAME_OK);
	assert_int_equal(frame_read(sv[1], FRAME_MAX_DEFAULT, time_now_ms() + 1000, &got, &e), FRAME_OK);
	assert_true(json_equal(m, got));
	json_decref(got);
	/* nothing more: a timeout, then EOF once the writer closes */
	assert_int_equal(frame_read(sv[1], 64, time_now_ms() + 50, &got, &e), FRAME_TIMEOUT);
	close(sv[0]);
	assert_int_equal(frame_read(sv[1], 64, time_now_ms() + 1000, &got, &e), FRAME_EOF);
	close(sv[1]);
	json_decref(m);
}

static void caps_on_read_and_write(void **state)
{
	struct err e = ERR_INIT;
	json_t *m = json_pack("{s:s}", "type", "0123456789012345678901234567890123456789"), *got;
	unsigned char hdr[4] = { 0x7f, 0xff, 0xff, 0xff };
	int sv[2];

	(void)state;
	pair(sv);
	assert_int_equal(frame_write(sv[0], m, 16, time_now_ms() + 1000, &e), FRAME_TOOBIG);
	assert_non_null(strstr(e.msg, "over the frame cap"));
	/* a peer announcing 2 GiB gets refused before anything is allocated */
	assert_int_equal(write(sv[0], hdr, 4), 4);
	assert_int_equal(frame_read(sv[1], FRAME_MAX_DEFAULT, time_now_ms() + 1000, &got, &e),
			 FRAME_TOOBIG);
	assert_null(got);
	assert_non_null(strstr(e.msg, "2147483647 bytes"));
	close(sv[0]);
	close(sv[1]);
	json_decref(m);
}

static void not_json_is_typed(void **state)
{
	struct err e = ERR_INIT;
	json_t *got;

	(void)state;
	assert_int_equal(frame_decode_body("GET / HTTP", 10, &got, &e), FRAME_NOTJSON);
	assert_non_null(strstr(e.msg, "not JSON"));
	assert_int_equal(frame_decode_body("[1,2]", 5, &got, &e), FRAME_NOTJSON);
	assert_non_null(strstr(e.msg, "array"));
	assert_int_equal(frame_decode_body("", 0, &got, &e), FRAME_NOTJSON);
	assert_int_equal(frame_decode_body("{\"a\":1,\"a\":2}", 13, &got, &e), FRAME_NOTJSON);
	assert_int_equal(frame_decode_body("{\"a\":\"\\u0000\"}", 14, &got, &e), FRAME_NOTJSON);
	assert_int_equal(frame_decode_body("{} {}", 5, &got, &e), FRAME_NOTJSON);
	assert_int_equal(frame_decode_body("{}", 2, &got, &e), FRAME_OK);
	json_decref(got);
	assert_string_equal(frame_status_name(FRAME_NOTJSON), "not-json");
}

static void incremental_reader(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct frame_reader r;
	struct err e = ERR_INIT;
	json_t *a = json_pack("{s:s}", "type", "bye"), *b = json_pack("{s:i}", "x", 7), *got;
	size_t used, off = 0;
	int n = 0;

	(void)state;
	assert_int_equal(frame_encode(a, 1024, &sb, &e), FRAME_OK);
	assert_int_equal(frame_encode(b, 1024, &sb, &e), FRAME_OK);
	frame_reader_init(&r, 1024);
	/* byte by byte: every partial header and body is held */
	while (off < sb.len) {
		enum frame_status st = frame_reader_feed(&r, sb.buf + off, 1, &used, &got, &e);

		off += used;
		if (st == FRAME_OK) {
			assert_true(json_equal(got, n == 0 ? a : b));
			json_decref(got);
			n++;
		} else {
			assert_int_equal(st, FRAME_AGAIN);
		}
	}
	assert_int_equal(n, 2);
	/* both at once: the first frame stops the feed, the rest is fed again */
	off = 0;
	n = 0;
	while (off < sb.len) {
		enum frame_status st = frame_reader_feed(&r, sb.buf + off, sb.len - off, &used, &got, &e);

		assert_int_equal(st, FRAME_OK);
		off += used;
		json_decref(got);
		n++;
	}
	assert_int_equal(n, 2);
	/* an oversized announcement is refused at the header */
	unsigned char big[4] = { 0, 0, 4, 1 };
	assert_int_equal(frame_reader_feed(&r, big, 4, &used, &got, &e), FRAME_TOOBIG);
	frame_reader_release(&r);
	strbuf_release(&sb);
	json_decref(a);
	json_decref(b);
}

/* A message over the frame cap travels as several frames (FRAME_MORE) and is joined again, fed
 * whole or a byte at a time, only by a reader that accepts it and only up to its message cap. */
static void chunked_message(void **state)
{
	struct err e = ERR_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct frame_reader rd;
	json_t *m = json_pack("{s:s, s:s}", "type", "report", "text",
			      "a report that is much larger than one sixteen-byte frame"), *got;
	size_t used, off, frames = 0;
	enum frame_status st = FRAME_AGAIN;

	(void)state;
	assert_int_equal(frame_encode_chunked(m, 16, 4096, &sb, &e), FRAME_OK);
	for (off = 0; off < sb.len; frames++) {	/* walk the headers: all but the last say more */
		uint32_t v = (uint32_t)(unsigned char)sb.buf[off] << 24 |
			     (uint32_t)(unsigned char)sb.buf[off + 1] << 16 |
			     (uint32_t)(unsigned char)sb.buf[off + 2] << 8 | (unsigned char)sb.buf[off + 3];

		assert_true((v & ~FRAME_MORE) <= 16);
		off += 4 + (v & ~FRAME_MORE);
		assert_int_equal(!!(v & FRAME_MORE), off < sb.len);
	}
	assert_true(frames > 4);
	/* byte by byte */
	frame_reader_init(&rd, 16);
	rd.msg_cap = 4096;
	for (off = 0; off < sb.len; off += used) {
		st = frame_reader_feed(&rd, sb.buf + off, 1, &used, &got, &e);
		assert_int_equal(used, 1);
		if (st != FRAME_AGAIN)
			break;
	}
	assert_int_equal(st, FRAME_OK);
	assert_int_equal(off + 1, sb.len);
	assert_true(json_equal(m, got));
	json_decref(got);
	/* whole, twice in one buffer: one message per call */
	{
		size_t len = sb.len;
		char *copy = malloc(len);

		memcpy(copy, sb.buf, len);
		strbuf_add(&sb, copy, len);
		free(copy);
	}
	assert_int_equal(frame_reader_feed(&rd, sb.buf, sb.len, &used, &got, &e), FRAME_OK);
	assert_int_equal(used, sb.len / 2);
	json_decref(got);
	assert_int_equal(frame_reader_feed(&rd, sb.buf + used, sb.len - used, &used, &got, &e),
			 FRAME_OK);
	json_decref(got);
	frame_reader_release(&rd);
	/* a reader that takes single frames refuses the series at its first header */
	frame_reader_init(&rd, 16);
	assert_int_equal(frame_reader_feed(&rd, sb.buf, sb.len, &used, &got, &e), FRAME_TOOBIG);
	assert_null(got);
	frame_reader_release(&rd);
	/* the message cap holds for the sum of the frames */
	frame_reader_init(&rd, 16);
	rd.msg_cap = 40;
	assert_int_equal(frame_reader_feed(&rd, sb.buf, sb.len, &used, &got, &e), FRAME_TOOBIG);
	assert_non_null(strstr(e.msg, "over the cap of 40"));
	frame_reader_release(&rd);
	/* and the writer refuses a message over its message cap */
	strbuf_reset(&sb);
	assert_int_equal(frame_encode_chunked(m, 16, 40, &sb, &e), FRAME_TOOBIG);
	assert_non_null(strstr(e.msg, "over the message cap of 40"));
	strbuf_release(&sb);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip_over_a_socket),
		cmocka_unit_test(caps_on_read_and_write),
		cmocka_unit_test(not_json_is_typed),
		cmocka_unit_test(incremental_reader),
		cmocka_unit_test(chunked_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
