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
#include "coll/boot_int.h"

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
	b->relay = -1;
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
	if (b->relay >= 0)
		close(b->relay);
	free(b->ctrl);
	free(b->addr);
	free(b->port);
	free(b->name);
	free(b);
}

static int encode_hello(unsigned char *p, const struct boot *b, const char *host, int port)
{
	size_t n = strlen(host);

	boot_put32(p, (uint32_t)b->world);
	boot_put64(p + 4, b->hash);
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
		struct err e2 = ERR_INIT;
		struct hdr h;
		int fd = boot_accept_until(b->lfd, deadline, &e2);

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
		/* a connection that is not a bench worker is dropped, not fatal */
		if (boot_recv_msg(fd, &h, buf, sizeof(buf), time_now_ms() + 3000, &e2) < 0 ||
		    h.type != MSG_HELLO || h.len < 15 || h.len != 15u + buf[14] ||
		    buf[14] >= BOOT_ADDR) {
			close(fd);
			continue;
		}
		int r = (int)h.rank;
		if (r <= 0 || r >= b->world || boot_get32(buf) != (uint32_t)b->world ||
		    b->ctrl[r] >= 0) {
			char why[128];
			snprintf(why, sizeof(why),
			         "rank %d / world %u does not fit rank 0's world of "
			         "%d%s",
			         r, boot_get32(buf), b->world,
			         r > 0 && r < b->world && b->ctrl[r] >= 0 ? " (rank taken twice)"
			                                                  : "");
			boot_send_msg(fd, MSG_ERROR, 0, why, strlen(why), time_now_ms() + 1000, NULL);
			close(fd);
			return err_set(e, ERR_USAGE, "a peer asked for %s", why);
		}
		b->ctrl[r] = fd;
		b->port[r] = buf[12] << 8 | buf[13];
		memcpy(b->addr[r], buf + 15, buf[14]);
		b->addr[r][buf[14]] = '\0';
		if (!b->addr[r][0])
			net_peer_name(fd, b->addr[r], sizeof(b->addr[r]), 0);
		set_name(b, r);
		if (boot_get64(buf + 4) != b->hash) {
			static const char why[] = "its bench options differ from rank 0's";
			boot_send_msg(fd, MSG_ERROR, 0, why, sizeof(why) - 1, time_now_ms() + 1000,
			         NULL);
			return err_set(e, ERR_USAGE,
			               "%s runs other bench options than rank 0: every "
			               "rank must run the same command",
			               b->name[r]);
		}
		joined++;
	}
	table = xmalloc(12 + (size_t)b->world * (3 + BOOT_ADDR));
	boot_put64(table, b->nonce);
	boot_put32(table + 8, (uint32_t)b->world);
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
		if (boot_send_msg(b->ctrl[r], MSG_TABLE, 0, table, off, deadline, e) < 0) {
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

	b->ctrl[0] = boot_connect_retry(mhost, mport, deadline, e);
	if (b->ctrl[0] < 0)
		return err_prefix(e, "rank 0 (the master, %s:%d)", mhost, mport);
	snprintf(b->addr[0], sizeof(b->addr[0]), "%s", mhost);
	set_name(b, 0);
	n = encode_hello(hello, b, adv_host, b->port[b->rank]);
	if (boot_send_msg(b->ctrl[0], MSG_HELLO, b->rank, hello, (size_t)n, deadline, e) < 0)
		return err_prefix(e, "%s", b->name[0]);
	table = xmalloc(cap);
	if (boot_recv_msg(b->ctrl[0], &h, table, cap, deadline, e) < 0) {
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

	if (len < 12 || world < 1 || boot_get32(p + 8) != (uint32_t)world)
		return -1;
	*nonce = boot_get64(p);
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
		if (net_parse_listen_hostport(o->peers[0], mhost, sizeof(mhost), &mport) < 0)
			return err_set(e, ERR_USAGE, "bad peer address '%s' (want host:port)",
			               o->peers[0]),
			       NULL;
		for (size_t i = 0; i < o->npeers; i++)
			if (net_parse_listen_hostport(o->peers[i], lhost, sizeof(lhost), &lport) < 0)
				return err_set(e, ERR_USAGE,
				               "bad peer address '%s' (want "
				               "host:port)",
				               o->peers[i]),
				       NULL;
		net_parse_listen_hostport(
		    o->peers[o->rank < (int)o->npeers && o->rank >= 0 ? o->rank : 0], lhost,
		    sizeof(lhost), &lport);
	} else if (!o->master || net_parse_listen_hostport(o->master, mhost, sizeof(mhost), &mport) < 0) {
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
	deadline = boot_deadline_in(b->timeout_ms);
	if (b->rank == 0) {
		if (getrandom(&b->nonce, sizeof(b->nonce), 0) != sizeof(b->nonce))
			b->nonce = (uint64_t)time_now_ns() ^ (uint64_t)getpid() << 32;
		b->lfd = boot_listen_on(mhost, mport, e);
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
		int probe = boot_connect_retry(mhost, mport, deadline, e);
		if (probe < 0) {
			err_prefix(e, "rank 0 (the master, %s:%d)", mhost, mport);
			goto fail;
		}
		net_local_name(probe, lhost, sizeof(lhost), 0);
		close(probe); /* rank 0 drops a connection that sends no hello */
	}
	b->lfd = boot_listen_on(lhost, lport, e);
	if (b->lfd < 0)
		goto fail;
	b->port[b->rank] = net_local_port(b->lfd);
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
	deadline = boot_deadline_in(b->timeout_ms < 5000 ? b->timeout_ms : 5000);
	if (b->rank) {
		char c;
		if (boot_send_msg(b->ctrl[0], MSG_BYE, b->rank, NULL, 0, deadline, NULL) == 0)
			net_read_full(b->ctrl[0], &c, 1, deadline, NULL); /* rank 0 closes after all */
	} else {
		for (int r = 1; r < b->world; r++)
			if (b->ctrl[r] >= 0)
				boot_expect_msg(b->ctrl[r], MSG_BYE, NULL, 0, deadline, NULL);
	}
	boot_drop(b);
}

/* Rank 0 reads one `type` message of `len` bytes from every worker. */
static int master_collect(struct boot *b, enum msg_type type, void *buf, size_t len,
                          void (*fold)(void *acc, const void *in, int rank, void *arg), void *acc,
                          void *arg, struct err *e)
{
	int64_t deadline = boot_deadline_in(b->timeout_ms);

	for (int r = 1; r < b->world; r++) {
		if (boot_expect_msg(b->ctrl[r], type, buf, len, deadline, e) < 0) {
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
	int64_t deadline = boot_deadline_in(b->timeout_ms);

	for (int r = 1; r < b->world; r++)
		if (boot_send_msg(b->ctrl[r], type, 0, buf, len, deadline, e) < 0)
			return err_prefix(e, "%s", b->name[r]);
	return 0;
}

static int worker_roundtrip(struct boot *b, enum msg_type type, const void *out, size_t olen,
                            void *in, size_t ilen, struct err *e)
{
	int64_t deadline = boot_deadline_in(b->timeout_ms);

	if (out && boot_send_msg(b->ctrl[0], type, b->rank, out, olen, deadline, e) < 0)
		return err_prefix(e, "%s", b->name[0]);
	if (in && boot_expect_msg(b->ctrl[0], type, in, ilen, deadline, e) < 0) {
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
	if (b->relay >= 0)
		return boot_relay_call(b, "barrier", NULL, 0, NULL, 0, e);
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
		uint64_t u = boot_get64(p + 8 * i);
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
	if (b->relay >= 0)
		return boot_relay_call(b, "sum", v, 8 * n, v, 8 * n, e);
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		boot_put64(buf + 8 * i, u);
	}
	if (b->rank) {
		if (worker_roundtrip(b, MSG_SUM, buf, 8 * n, buf, 8 * n, e) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			uint64_t u = boot_get64(buf + 8 * i);
			memcpy(&v[i], &u, 8);
		}
		return 0;
	}
	if (master_collect(b, MSG_SUM, buf, 8 * n, fold_sum, v, &n, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		boot_put64(buf + 8 * i, u);
	}
	return master_send_all(b, MSG_SUM, buf, 8 * n, e);
}

int boot_bcast(struct boot *b, void *buf, size_t len, struct err *e)
{
	if (b->world == 1)
		return 0;
	if (b->relay >= 0)
		return boot_relay_call(b, "bcast", buf, len, buf, len, e);
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

	if (b->relay >= 0 && b->world > 1)
		return boot_relay_call(b, "gather", mine, len, all,
				       b->rank ? 0 : len * (size_t)b->world, e);
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
	int64_t deadline = boot_deadline_in(1000);
	size_t n = strlen(msg);

	if (n > 200)
		n = 200;
	if (b->relay >= 0) {
		boot_relay_call(b, "error", msg, n, NULL, 0, NULL);
		return;
	}
	for (int r = 0; r < b->world; r++)
		if (r != b->rank && b->ctrl[r] >= 0)
			boot_send_msg(b->ctrl[r], MSG_ERROR, b->rank, msg, n, deadline, NULL);
}

/* ---- the ring's data sockets ---- */

int boot_ring(struct boot *b, int nstripes, int *send_fds, int *recv_fds, struct err *e)
{
	int next = (b->rank + 1) % b->world, prev = (b->rank + b->world - 1) % b->world;
	int64_t deadline = boot_deadline_in(b->timeout_ms);
	unsigned char p[12];
	int got = 0;

	for (int s = 0; s < nstripes; s++)
		send_fds[s] = recv_fds[s] = -1;
	if (b->world == 1)
		return 0;
	boot_put64(p, b->nonce);
	for (int s = 0; s < nstripes; s++) {
		send_fds[s] = boot_connect_retry(b->addr[next], b->port[next], deadline, e);
		if (send_fds[s] < 0)
			goto fail_next;
		boot_put32(p + 8, (uint32_t)s);
		if (boot_send_msg(send_fds[s], MSG_DATA, b->rank, p, sizeof(p), deadline, e) < 0)
			goto fail_next;
	}
	while (got < nstripes) {
		struct err e2 = ERR_INIT;
		struct hdr h;
		int fd = boot_accept_until(b->lfd, deadline, &e2);
		uint32_t s;

		if (fd < 0) {
			err_set(e, e2.code, "%s never connected its ring sockets (%s)",
			        b->name[prev], e2.msg);
			goto fail;
		}
		if (boot_recv_msg(fd, &h, p, sizeof(p), time_now_ms() + 3000, &e2) < 0 ||
		    h.type != MSG_DATA || h.len != sizeof(p) || boot_get64(p) != b->nonce ||
		    (int)h.rank != prev || (s = boot_get32(p + 8)) >= (uint32_t)nstripes ||
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
	if (boot_decode_hdr(raw, &h, e) < 0)
		return err_prefix(e, "%s", boot_peer_name(b, rank)), 1;
	if (h.type == MSG_ERROR) {
		boot_recv_msg(fd, &h, NULL, 0, boot_deadline_in(1000), e);
		return err_prefix(e, "%s", boot_peer_name(b, rank)), 2;
	}
	return 0;
}
