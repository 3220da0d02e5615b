/* bench's bootstrap: a star of control connections through rank 0, and the ring's data sockets. */
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

#define BOOT_MAGIC       0x4e434231u /* "NCB1" */
#define BOOT_HDR         16
#define BOOT_MAX_PAYLOAD (1u << 20)
#define BOOT_ADDR        64

enum msg_type {
	MSG_HELLO = 1,
	MSG_TABLE,
	MSG_ERROR,
	MSG_BARRIER,
	MSG_SUM,
	MSG_BCAST,
	MSG_GATHER,
	MSG_BYE,
	MSG_DATA,
	MSG_MAX
};

struct hdr {
	uint32_t magic;
	uint16_t type;
	uint32_t rank, len;
};

struct boot {
	int rank, world;
	long timeout_ms;
	uint64_t hash, nonce;
	int lfd;
	int *ctrl; /* rank 0: ctrl[r] per worker r; a worker: ctrl[0] */
	char (*addr)[BOOT_ADDR];
	int *port;
	char (*name)[BOOT_ADDR + 32];
};

/* ---- wire helpers ---- */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static int64_t deadline_in(long ms)
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

static int read_full(int fd, void *buf, size_t n, int64_t deadline, struct err *e)
{
	char *p = buf;

	while (n) {
		ssize_t r = recv(fd, p, n, MSG_DONTWAIT);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
			continue;
		}
		if (r == 0)
			return err_set(e, ERR_PEER, "connection closed");
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (wait_fd(fd, POLLIN, deadline, e) < 0)
				return -1;
			continue;
		}
		return err_set(e, ERR_PEER, "connection lost (%s)", strerror(errno));
	}
	return 0;
}

static int send_msg(int fd, enum msg_type type, int rank, const void *payload, size_t len,
                    int64_t deadline, struct err *e)
{
	unsigned char h[BOOT_HDR] = {0};

	put32(h, BOOT_MAGIC);
	h[4] = (unsigned char)(type >> 8);
	h[5] = (unsigned char)type;
	put32(h + 8, (uint32_t)rank);
	put32(h + 12, (uint32_t)len);
	if (write_full(fd, h, sizeof(h), deadline, e) < 0)
		return -1;
	return len ? write_full(fd, payload, len, deadline, e) : 0;
}

static int decode_hdr(const unsigned char *h, struct hdr *out, struct err *e)
{
	out->magic = get32(h);
	out->type = (uint16_t)(h[4] << 8 | h[5]);
	out->rank = get32(h + 8);
	out->len = get32(h + 12);
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
static int recv_msg(int fd, struct hdr *h, void *buf, size_t cap, int64_t deadline, struct err *e)
{
	unsigned char raw[BOOT_HDR];
	char text[ERR_MSG_LEN];

	if (read_full(fd, raw, sizeof(raw), deadline, e) < 0 || decode_hdr(raw, h, e) < 0)
		return -1;
	if (h->type == MSG_ERROR) {
		size_t n = h->len < sizeof(text) - 1 ? h->len : sizeof(text) - 1;
		if (read_full(fd, text, n, deadline, e) < 0)
			return -1;
		text[n] = '\0';
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)text[i] < 0x20)
				text[i] = ' ';
		return err_set(e, ERR_PEER, "gave up: %s", text);
	}
	if (h->len > cap)
		return err_set(e, ERR_PEER, "sent %u bytes where at most %zu fit", h->len, cap);
	return read_full(fd, buf, h->len, deadline, e);
}

static int expect_msg(int fd, enum msg_type type, void *buf, size_t len, int64_t deadline,
                      struct err *e)
{
	struct hdr h;

	if (recv_msg(fd, &h, buf, len, deadline, e) < 0)
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

static int listen_on(const char *host, int port, struct err *e)
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
static int connect_retry(const char *host, int port, int64_t deadline, struct err *e)
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

static int accept_until(int lfd, int64_t deadline, struct err *e)
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

static void numeric_host(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	if (getnameinfo((const struct sockaddr *)ss, sizeof(*ss), buf, (socklen_t)len, NULL, 0,
	                NI_NUMERICHOST))
		snprintf(buf, len, "?");
}

/* ---- the star ---- */

static void set_name(struct boot *b, int r)
{
	snprintf(b->name[r], sizeof(b->name[r]), "rank %d (%s)", r,
	         b->addr[r][0] ? b->addr[r] : "?");
}

const char *boot_peer_name(const struct boot *b, int rank)
{
	return rank >= 0 && rank < b->world ? b->name[rank] : "rank ?";
}

int boot_rank(const struct boot *b)
{
	return b->rank;
}

int boot_world(const struct boot *b)
{
	return b->world;
}

static struct boot *boot_alloc(const struct boot_opts *o)
{
	struct boot *b = xcalloc(1, sizeof(*b));

	b->rank = o->rank;
	b->world = o->world;
	b->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
	b->hash = o->params_hash;
	b->lfd = -1;
	b->ctrl = xcalloc((size_t)b->world, sizeof(*b->ctrl));
	for (int i = 0; i < b->world; i++)
		b->ctrl[i] = -1;
	b->addr = xcalloc((size_t)b->world, sizeof(*b->addr));
	b->port = xcalloc((size_t)b->world, sizeof(*b->port));
	b->name = xcalloc((size_t)b->world, sizeof(*b->name));
	for (int i = 0; i < b->world; i++)
		set_name(b, i);
	return b;
}

/*
 * Closing a socket with unread bytes makes the kernel send a reset, and a reset can destroy the
 * peer's copy of what we told it last (why we give up): drain first, then close.
 */
static void close_gently(int fd)
{
	char sink[4096];

	shutdown(fd, SHUT_WR);
	while (recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0)
		;
	close(fd);
}

void boot_drop(struct boot *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->world; i++)
		if (b->ctrl[i] >= 0)
			close_gently(b->ctrl[i]);
	if (b->lfd >= 0)
		close(b->lfd);
	free(b->ctrl);
	free(b->addr);
	free(b->port);
	free(b->name);
	free(b);
}

static int encode_hello(unsigned char *p, const struct boot *b, const char *host, int port)
{
	size_t n = strlen(host);

	put32(p, (uint32_t)b->world);
	put64(p + 4, b->hash);
	p[12] = (unsigned char)(port >> 8);
	p[13] = (unsigned char)port;
	p[14] = (unsigned char)n;
	memcpy(p + 15, host, n);
	return (int)(15 + n);
}

/* Rank 0: accepts every worker's hello, checks it, answers with the table. */
static int master_join(struct boot *b, int64_t deadline, struct err *e)
{
	unsigned char buf[15 + BOOT_ADDR], *table;
	int joined = 1;
	size_t tlen = 12, off;

	while (joined < b->world) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct err e2 = ERR_INIT;
		struct hdr h;
		int fd = accept_until(b->lfd, deadline, &e2);

		if (fd < 0) {
			char missing[160] = "";
			size_t m = 0;
			for (int r = 1; r < b->world && m < sizeof(missing) - 12; r++)
				if (b->ctrl[r] < 0)
					m += (size_t)snprintf(missing + m, sizeof(missing) - m,
					                      "%s%d", m ? ", " : "", r);
			return err_set(e, e2.code,
			               "%d of %d ranks joined in %ld s; missing rank%s "
			               "%s (%s)",
			               joined, b->world, b->timeout_ms / 1000,
			               strchr(missing, ',') ? "s" : "", missing, e2.msg);
		}
		getpeername(fd, (struct sockaddr *)&ss, &sl);
		/* a connection that is not a bench worker is dropped, not fatal */
		if (recv_msg(fd, &h, buf, sizeof(buf), time_now_ms() + 3000, &e2) < 0 ||
		    h.type != MSG_HELLO || h.len < 15 || h.len != 15u + buf[14] ||
		    buf[14] >= BOOT_ADDR) {
			close(fd);
			continue;
		}
		int r = (int)h.rank;
		if (r <= 0 || r >= b->world || get32(buf) != (uint32_t)b->world ||
		    b->ctrl[r] >= 0) {
			char why[128];
			snprintf(why, sizeof(why),
			         "rank %d / world %u does not fit rank 0's world of "
			         "%d%s",
			         r, get32(buf), b->world,
			         r > 0 && r < b->world && b->ctrl[r] >= 0 ? " (rank taken twice)"
			                                                  : "");
			send_msg(fd, MSG_ERROR, 0, why, strlen(why), time_now_ms() + 1000, NULL);
			close(fd);
			return err_set(e, ERR_USAGE, "a peer asked for %s", why);
		}
		b->ctrl[r] = fd;
		b->port[r] = buf[12] << 8 | buf[13];
		memcpy(b->addr[r], buf + 15, buf[14]);
		b->addr[r][buf[14]] = '\0';
		if (!b->addr[r][0])
			numeric_host(&ss, b->addr[r], sizeof(b->addr[r]));
		set_name(b, r);
		if (get64(buf + 4) != b->hash) {
			static const char why[] = "its bench options differ from rank 0's";
			send_msg(fd, MSG_ERROR, 0, why, sizeof(why) - 1, time_now_ms() + 1000,
			         NULL);
			return err_set(e, ERR_USAGE,
			               "%s runs other bench options than rank 0: every "
			               "rank must run the same command",
			               b->name[r]);
		}
		joined++;
	}
	table = xmalloc(12 + (size_t)b->world * (3 + BOOT_ADDR));
	put64(table, b->nonce);
	put32(table + 8, (uint32_t)b->world);
	off = tlen;
	for (int r = 0; r < b->world; r++) {
		size_t n = strlen(b->addr[r]);
		table[off] = (unsigned char)(b->port[r] >> 8);
		table[off + 1] = (unsigned char)b->port[r];
		table[off + 2] = (unsigned char)n;
		memcpy(table + off + 3, b->addr[r], n);
		off += 3 + n;
	}
	for (int r = 1; r < b->world; r++)
		if (send_msg(b->ctrl[r], MSG_TABLE, 0, table, off, deadline, e) < 0) {
			free(table);
			return err_prefix(e, "%s", b->name[r]);
		}
	free(table);
	return 0;
}

static int worker_join(struct boot *b, const char *mhost, int mport, const char *adv_host,
                       int64_t deadline, struct err *e)
{
	unsigned char hello[15 + BOOT_ADDR], *table;
	struct hdr h;
	size_t cap = 12 + (size_t)b->world * (3 + BOOT_ADDR);
	int n;

	b->ctrl[0] = connect_retry(mhost, mport, deadline, e);
	if (b->ctrl[0] < 0)
		return err_prefix(e, "rank 0 (the master, %s:%d)", mhost, mport);
	snprintf(b->addr[0], sizeof(b->addr[0]), "%s", mhost);
	set_name(b, 0);
	n = encode_hello(hello, b, adv_host, b->port[b->rank]);
	if (send_msg(b->ctrl[0], MSG_HELLO, b->rank, hello, (size_t)n, deadline, e) < 0)
		return err_prefix(e, "%s", b->name[0]);
	table = xmalloc(cap);
	if (recv_msg(b->ctrl[0], &h, table, cap, deadline, e) < 0) {
		free(table);
		if (e && e->code == ERR_TIMEOUT)
			return err_set(e, ERR_TIMEOUT,
			               "joined rank 0 (%s:%d) but not every rank "
			               "arrived within %ld s",
			               mhost, mport, b->timeout_ms / 1000);
		return err_prefix(e, "%s", b->name[0]);
	}
	if (h.type != MSG_TABLE ||
	    boot_decode_table(table, h.len, b->world, &b->nonce, b->addr, b->port) < 0) {
		free(table);
		return err_set(e, ERR_PEER, "%s sent a malformed address table", b->name[0]);
	}
	for (int r = 0; r < b->world; r++)
		set_name(b, r);
	free(table);
	return 0;
}

int boot_decode_table(const unsigned char *p, size_t len, int world, uint64_t *nonce,
		      char (*addr)[64], int *port)
{
	size_t off = 12;

	if (len < 12 || world < 1 || get32(p + 8) != (uint32_t)world)
		return -1;
	*nonce = get64(p);
	for (int r = 0; r < world; r++) {
		size_t n;
		if (off + 3 > len)
			return -1;
		n = p[off + 2];
		if (!n || n >= BOOT_ADDR || off + 3 + n > len)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (p[off + 3 + i] <= ' ' || p[off + 3 + i] >= 0x7f)
				return -1; /* a host name or address, nothing else */
		port[r] = p[off] << 8 | p[off + 1];
		memcpy(addr[r], p + off + 3, n);
		addr[r][n] = '\0';
		off += 3 + n;
	}
	return off == len ? 0 : -1;
}

struct boot *boot_new(const struct boot_opts *o, struct err *e)
{
	char mhost[BOOT_ADDR], lhost[BOOT_ADDR] = "";
	int mport, lport = 0;
	int64_t deadline;
	struct boot *b;

	if (o->peers && o->npeers) {
		if (o->world && o->world != (int)o->npeers)
			return err_set(e, ERR_USAGE, "--world %d but %zu peers listed", o->world,
			               o->npeers),
			       NULL;
		if (boot_split_hostport(o->peers[0], mhost, sizeof(mhost), &mport) < 0)
			return err_set(e, ERR_USAGE, "bad peer address '%s' (want host:port)",
			               o->peers[0]),
			       NULL;
		for (size_t i = 0; i < o->npeers; i++)
			if (boot_split_hostport(o->peers[i], lhost, sizeof(lhost), &lport) < 0)
				return err_set(e, ERR_USAGE,
				               "bad peer address '%s' (want "
				               "host:port)",
				               o->peers[i]),
				       NULL;
		boot_split_hostport(
		    o->peers[o->rank < (int)o->npeers && o->rank >= 0 ? o->rank : 0], lhost,
		    sizeof(lhost), &lport);
	} else if (!o->master || boot_split_hostport(o->master, mhost, sizeof(mhost), &mport) < 0) {
		return err_set(e, ERR_USAGE, "bad master address '%s' (want host:port)",
		               o->master ? o->master : ""),
		       NULL;
	}
	{
		struct boot_opts oo = *o;
		if (o->peers && o->npeers)
			oo.world = (int)o->npeers;
		if (oo.world < 1 || oo.world > 4096 || oo.rank < 0 || oo.rank >= oo.world)
			return err_set(e, ERR_USAGE, "rank %d does not fit a world of %d", oo.rank,
			               oo.world),
			       NULL;
		b = boot_alloc(&oo);
	}
	deadline = deadline_in(b->timeout_ms);
	if (b->rank == 0) {
		if (getrandom(&b->nonce, sizeof(b->nonce), 0) != sizeof(b->nonce))
			b->nonce = (uint64_t)time_now_ns() ^ (uint64_t)getpid() << 32;
		b->lfd = listen_on(mhost, mport, e);
		if (b->lfd < 0)
			goto fail;
		snprintf(b->addr[0], sizeof(b->addr[0]), "%s", mhost);
		b->port[0] = mport;
		set_name(b, 0);
		if (b->world > 1 && master_join(b, deadline, e) < 0)
			goto fail;
		return b;
	}
	if (!lhost[0]) {
		/* listen where rank 0 reaches us: the source address of a route to it */
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int probe = connect_retry(mhost, mport, deadline, e);
		if (probe < 0) {
			err_prefix(e, "rank 0 (the master, %s:%d)", mhost, mport);
			goto fail;
		}
		getsockname(probe, (struct sockaddr *)&ss, &sl);
		numeric_host(&ss, lhost, sizeof(lhost));
		close(probe); /* rank 0 drops a connection that sends no hello */
	}
	b->lfd = listen_on(lhost, lport, e);
	if (b->lfd < 0)
		goto fail;
	{
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		getsockname(b->lfd, (struct sockaddr *)&ss, &sl);
		b->port[b->rank] =
		    ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
		                                   : ((struct sockaddr_in *)&ss)->sin_port);
	}
	if (worker_join(b, mhost, mport, lhost, deadline, e) < 0)
		goto fail;
	return b;
fail:
	boot_drop(b);
	return NULL;
}

void boot_free(struct boot *b)
{
	int64_t deadline;

	if (!b)
		return;
	deadline = deadline_in(b->timeout_ms < 5000 ? b->timeout_ms : 5000);
	if (b->rank) {
		char c;
		if (send_msg(b->ctrl[0], MSG_BYE, b->rank, NULL, 0, deadline, NULL) == 0)
			read_full(b->ctrl[0], &c, 1, deadline, NULL); /* rank 0 closes after all */
	} else {
		for (int r = 1; r < b->world; r++)
			if (b->ctrl[r] >= 0)
				expect_msg(b->ctrl[r], MSG_BYE, NULL, 0, deadline, NULL);
	}
	boot_drop(b);
}

/* Rank 0 reads one `type` message of `len` bytes from every worker. */
static int master_collect(struct boot *b, enum msg_type type, void *buf, size_t len,
                          void (*fold)(void *acc, const void *in, int rank, void *arg), void *acc,
                          void *arg, struct err *e)
{
	int64_t deadline = deadline_in(b->timeout_ms);

	for (int r = 1; r < b->world; r++) {
		if (expect_msg(b->ctrl[r], type, buf, len, deadline, e) < 0) {
			if (e && e->code == ERR_TIMEOUT)
				return err_set(e, ERR_TIMEOUT, "%s did not answer within %ld s",
				               b->name[r], b->timeout_ms / 1000);
			if (e && !strcmp(e->msg, "connection closed"))
				return err_set(e, ERR_PEER, "%s is gone (its connection closed)",
				               b->name[r]);
			return err_prefix(e, "%s", b->name[r]);
		}
		if (fold)
			fold(acc, buf, r, arg);
	}
	return 0;
}

static int master_send_all(struct boot *b, enum msg_type type, const void *buf, size_t len,
                           struct err *e)
{
	int64_t deadline = deadline_in(b->timeout_ms);

	for (int r = 1; r < b->world; r++)
		if (send_msg(b->ctrl[r], type, 0, buf, len, deadline, e) < 0)
			return err_prefix(e, "%s", b->name[r]);
	return 0;
}

static int worker_roundtrip(struct boot *b, enum msg_type type, const void *out, size_t olen,
                            void *in, size_t ilen, struct err *e)
{
	int64_t deadline = deadline_in(b->timeout_ms);

	if (out && send_msg(b->ctrl[0], type, b->rank, out, olen, deadline, e) < 0)
		return err_prefix(e, "%s", b->name[0]);
	if (in && expect_msg(b->ctrl[0], type, in, ilen, deadline, e) < 0) {
		if (e && e->code == ERR_TIMEOUT)
			return err_set(e, ERR_TIMEOUT, "%s did not answer within %ld s", b->name[0],
			               b->timeout_ms / 1000);
		if (e && !strcmp(e->msg, "connection closed"))
			return err_set(e, ERR_PEER, "%s is gone (its connection closed)",
			               b->name[0]);
		return err_prefix(e, "%s", b->name[0]);
	}
	return 0;
}

int boot_barrier(struct boot *b, struct err *e)
{
	char dummy = 0;

	if (b->world == 1)
		return 0;
	if (b->rank)
		return worker_roundtrip(b, MSG_BARRIER, &dummy, 0, &dummy, 0, e);
	if (master_collect(b, MSG_BARRIER, NULL, 0, NULL, NULL, NULL, e) < 0)
		return -1;
	return master_send_all(b, MSG_BARRIER, NULL, 0, e);
}

static void fold_sum(void *acc, const void *in, int rank, void *arg)
{
	double *v = acc;
	const unsigned char *p = in;
	size_t n = *(size_t *)arg;

	(void)rank;
	for (size_t i = 0; i < n; i++) {
		uint64_t u = get64(p + 8 * i);
		double d;
		memcpy(&d, &u, 8);
		v[i] += d;
	}
}

int boot_sum(struct boot *b, double *v, size_t n, struct err *e)
{
	unsigned char buf[64 * 8];

	if (n > 64)
		return err_set(e, ERR_INTERNAL, "boot_sum of %zu values", n);
	if (b->world == 1)
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		put64(buf + 8 * i, u);
	}
	if (b->rank) {
		if (worker_roundtrip(b, MSG_SUM, buf, 8 * n, buf, 8 * n, e) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			uint64_t u = get64(buf + 8 * i);
			memcpy(&v[i], &u, 8);
		}
		return 0;
	}
	if (master_collect(b, MSG_SUM, buf, 8 * n, fold_sum, v, &n, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		put64(buf + 8 * i, u);
	}
	return master_send_all(b, MSG_SUM, buf, 8 * n, e);
}

int boot_bcast(struct boot *b, void *buf, size_t len, struct err *e)
{
	if (b->world == 1)
		return 0;
	if (b->rank)
		return worker_roundtrip(b, MSG_BCAST, NULL, 0, buf, len, e);
	return master_send_all(b, MSG_BCAST, buf, len, e);
}

static void fold_gather(void *acc, const void *in, int rank, void *arg)
{
	size_t len = *(size_t *)arg;

	memcpy((char *)acc + (size_t)rank * len, in, len);
}

int boot_gather(struct boot *b, const void *mine, size_t len, void *all, struct err *e)
{
	void *tmp;
	int rc;

	if (b->rank)
		return worker_roundtrip(b, MSG_GATHER, mine, len, NULL, 0, e);
	memcpy(all, mine, len);
	if (b->world == 1)
		return 0;
	tmp = xmalloc(len ? len : 1);
	rc = master_collect(b, MSG_GATHER, tmp, len, fold_gather, all, &len, e);
	free(tmp);
	return rc;
}

void boot_report_error(struct boot *b, const char *msg)
{
	int64_t deadline = deadline_in(1000);
	size_t n = strlen(msg);

	if (n > 200)
		n = 200;
	for (int r = 0; r < b->world; r++)
		if (r != b->rank && b->ctrl[r] >= 0)
			send_msg(b->ctrl[r], MSG_ERROR, b->rank, msg, n, deadline, NULL);
}

/* ---- the ring's data sockets ---- */

int boot_ring(struct boot *b, int nstripes, int *send_fds, int *recv_fds, struct err *e)
{
	int next = (b->rank + 1) % b->world, prev = (b->rank + b->world - 1) % b->world;
	int64_t deadline = deadline_in(b->timeout_ms);
	unsigned char p[12];
	int got = 0;

	for (int s = 0; s < nstripes; s++)
		send_fds[s] = recv_fds[s] = -1;
	if (b->world == 1)
		return 0;
	put64(p, b->nonce);
	for (int s = 0; s < nstripes; s++) {
		send_fds[s] = connect_retry(b->addr[next], b->port[next], deadline, e);
		if (send_fds[s] < 0)
			goto fail_next;
		put32(p + 8, (uint32_t)s);
		if (send_msg(send_fds[s], MSG_DATA, b->rank, p, sizeof(p), deadline, e) < 0)
			goto fail_next;
	}
	while (got < nstripes) {
		struct err e2 = ERR_INIT;
		struct hdr h;
		int fd = accept_until(b->lfd, deadline, &e2);
		uint32_t s;

		if (fd < 0) {
			err_set(e, e2.code, "%s never connected its ring sockets (%s)",
			        b->name[prev], e2.msg);
			goto fail;
		}
		if (recv_msg(fd, &h, p, sizeof(p), time_now_ms() + 3000, &e2) < 0 ||
		    h.type != MSG_DATA || h.len != sizeof(p) || get64(p) != b->nonce ||
		    (int)h.rank != prev || (s = get32(p + 8)) >= (uint32_t)nstripes ||
		    recv_fds[s] >= 0) {
			close(fd); /* a stray or stale connection; the real one may still come */
			continue;
		}
		recv_fds[s] = fd;
		got++;
	}
	return 0;
fail_next:
	err_prefix(e, "ring connection to %s", b->name[next]);
fail:
	for (int s = 0; s < nstripes; s++) {
		if (send_fds[s] >= 0)
			close(send_fds[s]);
		if (recv_fds[s] >= 0)
			close(recv_fds[s]);
		send_fds[s] = recv_fds[s] = -1;
	}
	return -1;
}

size_t boot_watch_fds(const struct boot *b, int *fds, int *ranks, size_t max)
{
	size_t n = 0;

	for (int r = 0; r < b->world && n < max; r++)
		if (r != b->rank && b->ctrl[r] >= 0) {
			fds[n] = b->ctrl[r];
			ranks[n++] = r;
		}
	return n;
}

int boot_watch_event(struct boot *b, int fd, int rank, struct err *e)
{
	unsigned char raw[BOOT_HDR];
	ssize_t n = recv(fd, raw, sizeof(raw), MSG_PEEK | MSG_DONTWAIT);
	struct hdr h;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		return err_set(e, ERR_PEER,
		               "%s is gone: its control connection closed "
		               "mid-collective",
		               boot_peer_name(b, rank)),
		       1;
	if (n < (ssize_t)sizeof(raw))
		return 0;
	if (decode_hdr(raw, &h, e) < 0)
		return err_prefix(e, "%s", boot_peer_name(b, rank)), 1;
	if (h.type == MSG_ERROR) {
		recv_msg(fd, &h, NULL, 0, deadline_in(1000), e);
		return err_prefix(e, "%s", boot_peer_name(b, rank)), 2;
	}
	return 0;
}
