/* bench's bootstrap: the control messages' framing and the sockets under them (see boot.c). */
#include "coll/boot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xalloc.h"
#include "coll/boot_int.h"

/* ---- wire helpers ---- */

void boot_put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

uint32_t boot_get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void boot_put64(unsigned char *p, uint64_t v)
{
	boot_put32(p, (uint32_t)(v >> 32));
	boot_put32(p + 4, (uint32_t)v);
}

uint64_t boot_get64(const unsigned char *p)
{
	return (uint64_t)boot_get32(p) << 32 | boot_get32(p + 4);
}

int64_t boot_deadline_in(long ms)
{
	return time_now_ms() + ms;
}

/*
 * net/sock moves the bytes; bench's callers read "timed out" and "connection lost" (and turn a
 * timeout into who did not answer), so its failures keep those words.
 */
static int write_full(int fd, const void *buf, size_t n, int64_t deadline, struct err *e)
{
	if (net_write_full(fd, buf, n, deadline, e) == 0)
		return 0;
	if (e && e->code == ERR_TIMEOUT)
		return err_set(e, ERR_TIMEOUT, "timed out");
	return e ? err_set(e, ERR_PEER, "connection lost (%s)", e->msg) : -1;
}

int boot_send_msg(int fd, enum msg_type type, int rank, const void *payload, size_t len,
                    int64_t deadline, struct err *e)
{
	unsigned char h[BOOT_HDR] = {0};

	boot_put32(h, BOOT_MAGIC);
	h[4] = (unsigned char)(type >> 8);
	h[5] = (unsigned char)type;
	boot_put32(h + 8, (uint32_t)rank);
	boot_put32(h + 12, (uint32_t)len);
	if (write_full(fd, h, sizeof(h), deadline, e) < 0)
		return -1;
	return len ? write_full(fd, payload, len, deadline, e) : 0;
}

int boot_decode_hdr(const unsigned char *h, struct hdr *out, struct err *e)
{
	out->magic = boot_get32(h);
	out->type = (uint16_t)(h[4] << 8 | h[5]);
	out->rank = boot_get32(h + 8);
	out->len = boot_get32(h + 12);
	if (out->magic != BOOT_MAGIC)
		return err_set(e, ERR_PEER,
		               "sent bytes that are not a ncclcheck bench message "
		               "(another program on that port?)");
	if (out->type == 0 || out->type >= MSG_MAX || out->len > BOOT_MAX_PAYLOAD || h[6] || h[7])
		return err_set(e, ERR_PEER, "sent a malformed bench message (type %u, %u bytes)",
		               out->type, out->len);
	return 0;
}

/*
 * Reads one message; its payload (at most `cap` bytes) into buf, or a new allocation in *dyn
 * when buf is NULL. An ERROR message becomes an error carrying the peer's text.
 */
int boot_recv_msg(int fd, struct hdr *h, void *buf, size_t cap, int64_t deadline, struct err *e)
{
	unsigned char raw[BOOT_HDR];
	char text[ERR_MSG_LEN];

	if (net_read_full(fd, raw, sizeof(raw), deadline, e) < 0 || boot_decode_hdr(raw, h, e) < 0)
		return -1;
	if (h->type == MSG_ERROR) {
		size_t n = h->len < sizeof(text) - 1 ? h->len : sizeof(text) - 1;
		if (net_read_full(fd, text, n, deadline, e) < 0)
			return -1;
		text[n] = '\0';
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)text[i] < 0x20)
				text[i] = ' ';
		return err_set(e, ERR_PEER, "gave up: %s", text);
	}
	if (h->len > cap)
		return err_set(e, ERR_PEER, "sent %u bytes where at most %zu fit", h->len, cap);
	return net_read_full(fd, buf, h->len, deadline, e);
}

int boot_expect_msg(int fd, enum msg_type type, void *buf, size_t len, int64_t deadline,
                      struct err *e)
{
	struct hdr h;

	if (boot_recv_msg(fd, &h, buf, len, deadline, e) < 0)
		return -1;
	if (h.type != type || h.len != len)
		return err_set(e, ERR_PEER,
		               "sent message type %u (%u bytes) where type %u (%zu "
		               "bytes) belongs",
		               h.type, h.len, type, len);
	return 0;
}

/* ---- sockets: net/sock's, at the path's own segment size (the ring's data ride on them) ---- */

int boot_listen_on(const char *host, int port, struct err *e)
{
	return net_listen_flags(host, port, 128, NET_FULL_MSS, NULL, e);
}

/* Connects to host:port, retrying with backoff (the peer may not listen yet) until `deadline`. */
int boot_connect_retry(const char *host, int port, int64_t deadline, struct err *e)
{
	struct net_connect_opts o = { .flags = NET_FULL_MSS };
	long backoff = 20;
	int last = 0;

	while (time_now_ms() < deadline) {
		int64_t until = time_now_ms() + 2000;
		struct err ce = ERR_INIT;
		enum net_fail why;
		int fd = net_connect(host, port, &o, until < deadline ? until : deadline, &why, &ce);

		if (fd >= 0)
			return fd;
		last = errno;
		if (why == NET_RESOLVE || why == NET_LOCAL) {
			/* no retry mends a name that does not resolve or a bad port */
			err_set(e, ERR_USAGE, "%s", ce.msg);
			return -1;
		}
		struct timespec ts = {0, backoff * 1000000L};
		nanosleep(&ts, NULL);
		backoff = backoff * 2 > 500 ? 500 : backoff * 2;
	}
	return err_set(e, ERR_TIMEOUT, "cannot connect to %s port %d: %s", host, port,
	               last ? strerror(last) : "timed out");
}

int boot_accept_until(int lfd, int64_t deadline, struct err *e)
{
	int fd = net_accept(lfd, deadline, NULL, 0, e);

	if (fd < 0 && e && e->code == ERR_TIMEOUT)
		err_set(e, ERR_TIMEOUT, "timed out");
	return fd;
}
