/* bench's bootstrap: the control messages' framing and the sockets under them (see boot.c). */
#include "coll/boot.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
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

static int wait_fd(int fd, short events, int64_t deadline, struct err *e)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = events};
		int64_t left = deadline - time_now_ms();
		int rc;

		if (left <= 0)
			return err_set(e, ERR_TIMEOUT, "timed out");
		rc = poll(&p, 1, left > 1000 ? 1000 : (int)left);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return err_sys(e, "poll");
	}
}

static int write_full(int fd, const void *buf, size_t n, int64_t deadline, struct err *e)
{
	const char *p = buf;

	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (wait_fd(fd, POLLOUT, deadline, e) < 0)
				return -1;
			continue;
		}
		return err_set(e, ERR_PEER, "connection lost (%s)", strerror(errno));
	}
	return 0;
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

/* ---- sockets ---- */

int boot_split_hostport(const char *s, char *host, size_t hlen, int *port)
{
	const char *colon;
	size_t n;
	char *end;
	long p;

	if (!s || !*s)
		return -1;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':')
			return -1;
		n = (size_t)(close - s - 1);
		s++;
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)
			return -1;
		n = (size_t)(colon - s);
	}
	if (!n || n >= hlen)
		return -1;
	errno = 0;
	p = strtol(colon + 1, &end, 10);
	if (errno || *end || end == colon + 1 || p < 0 || p > 65535)
		return -1;
	memcpy(host, s, n);
	host[n] = '\0';
	*port = (int)p;
	return 0;
}

static void tune_socket(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

int boot_listen_on(const char *host, int port, struct err *e)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC,
	                         .ai_socktype = SOCK_STREAM,
	                         .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
	struct addrinfo *res, *ai;
	char ps[16];
	int fd = -1, rc, saved = 0;

	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(host && *host ? host : NULL, ps, &hints, &res);
	if (rc)
		return err_set(e, ERR_USAGE, "cannot resolve '%s': %s", host ? host : "*",
		               gai_strerror(rc));
	for (ai = res; ai; ai = ai->ai_next) {
		int one = 1;
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 128))
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		errno = saved;
		return err_sys(e, "cannot listen on '%s' port %d", host ? host : "*", port);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* One connect attempt bounded by `until`; -1 with errno set. */
static int connect_once(const struct addrinfo *ai, int64_t until)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		if (errno != EINPROGRESS) {
			int s = errno;
			close(fd);
			errno = s;
			return -1;
		}
		for (;;) {
			struct pollfd p = {.fd = fd, .events = POLLOUT};
			int64_t left = until - time_now_ms();
			int rc = poll(&p, 1, left > 0 ? (int)left : 0);
			if (rc > 0)
				break;
			if (rc == 0 || (rc < 0 && errno != EINTR)) {
				close(fd);
				errno = ETIMEDOUT;
				return -1;
			}
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0 || soerr) {
			close(fd);
			errno = soerr ? soerr : EIO;
			return -1;
		}
	}
	tune_socket(fd);
	return fd;
}

/* Connects to host:port, retrying with backoff (the peer may not listen yet) until `deadline`. */
int boot_connect_retry(const char *host, int port, int64_t deadline, struct err *e)
{
	struct addrinfo hints = {
	    .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *res;
	char ps[16];
	long backoff = 20;
	int rc, last = 0;

	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc)
		return err_set(e, ERR_USAGE, "cannot resolve '%s': %s", host, gai_strerror(rc));
	while (time_now_ms() < deadline) {
		for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
			int64_t until = time_now_ms() + 2000;
			int fd = connect_once(ai, until < deadline ? until : deadline);
			if (fd >= 0) {
				freeaddrinfo(res);
				return fd;
			}
			last = errno;
		}
		struct timespec ts = {0, backoff * 1000000L};
		nanosleep(&ts, NULL);
		backoff = backoff * 2 > 500 ? 500 : backoff * 2;
	}
	freeaddrinfo(res);
	return err_set(e, ERR_TIMEOUT, "cannot connect to %s port %d: %s", host, port,
	               last ? strerror(last) : "timed out");
}

int boot_accept_until(int lfd, int64_t deadline, struct err *e)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0) {
			tune_socket(fd);
			return fd;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNABORTED)
			return err_sys(e, "accept");
		if (wait_fd(lfd, POLLIN, deadline, e) < 0)
			return -1;
	}
}

void boot_numeric_host(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	if (getnameinfo((const struct sockaddr *)ss, sizeof(*ss), buf, (socklen_t)len, NULL, 0,
	                NI_NUMERICHOST))
		snprintf(buf, len, "?");
}
