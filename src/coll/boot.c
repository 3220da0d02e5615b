/* bench's bootstrap: the rendezvous (rdv/) as a star of collectives, and the ring's data sockets. */
#include "coll/boot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/boot_int.h"
#include "net/auth.h"
#include "net/frame.h"
#include "net/sock.h"
#include "util/crypto.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* What a ring connection says first: who it is, which stripe, and this run's nonce (a stale
 * connection from an earlier run on the same ports is told apart). */
#define RING_MAGIC 0x4e435231u /* "NCR1" */
#define RING_HELLO 20

int64_t boot_deadline_in(long ms)
{
	return time_now_ms() + ms;
}

json_t *boot_hex(const void *p, size_t len)
{
	char *s = xmalloc(2 * len + 1);
	json_t *j;

	auth_hex(p, len, s);
	j = json_string(s);
	free(s);
	return j;
}

static int nib(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int boot_unhex(const json_t *j, void *out, size_t len)
{
	const char *s = json_string_value(j);
	unsigned char *o = out;

	if (!s || strlen(s) != 2 * len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int h = nib(s[2 * i]), l = nib(s[2 * i + 1]);
		if (h < 0 || l < 0)
			return -1;
		o[i] = (unsigned char)(h << 4 | l);
	}
	return 0;
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

static struct boot *boot_alloc(int rank, int world, const struct boot_opts *o)
{
	struct boot *b = xcalloc(1, sizeof(*b));

	b->rank = rank;
	b->world = world;
	b->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
	b->hash = o->params_hash;
	b->lfd = -1;
	b->relay = -1;
	b->addr = xcalloc((size_t)b->world, sizeof(*b->addr));
	b->port = xcalloc((size_t)b->world, sizeof(*b->port));
	b->name = xcalloc((size_t)b->world, sizeof(*b->name));
	for (int i = 0; i < b->world; i++)
		set_name(b, i);
	return b;
}

void boot_drop(struct boot *b)
{
	if (!b)
		return;
	if (b->rdv) {
		/* why this rank gave up, or the rendezvous' own abort (rank 0: the ranks that never
		 * joined), goes out first, bounded; a rank that merely drops its bootstrap vanishes
		 * without a word, and the rendezvous names it as gone */
		if (b->gave_up || rdv_failed(b->rdv, NULL))
			rdv_finish(b->rdv);
		rdv_free(b->rdv);
	}
	if (b->lfd >= 0)
		close(b->lfd);
	if (b->relay >= 0)
		close(b->relay);
	free(b->addr);
	free(b->port);
	free(b->name);
	free(b);
}

void boot_free(struct boot *b)
{
	if (b && b->rdv) {
		/* workers say bye; rank 0 waits for every bye (or for the silent to be declared gone) */
		rdv_finish(b->rdv);
		rdv_free(b->rdv);
		b->rdv = NULL;
	}
	boot_drop(b);
}

/* Every rank's `mine` (stolen) for (phase, step) to rank 0: as an array by rank in *all (a new
 * reference) there, NULL on a worker. */
static int gather(struct boot *b, const char *phase, long step, json_t *mine, json_t **all,
		  struct err *e)
{
	json_t *none = NULL;
	int rc = rdv_gather(b->rdv, phase, step, mine, b->timeout_ms, all ? all : &none, e);

	json_decref(none);
	return rc;
}

/* Rank 0's *out (borrowed) for (phase, step) to everyone; a worker's *out is a new reference. */
static int bcast(struct boot *b, const char *phase, long step, json_t **out, struct err *e)
{
	if (b->rank)
		*out = NULL;
	return rdv_bcast(b->rdv, phase, step, out, b->timeout_ms, e);
}

/*
 * The join's "2 of 3 ranks joined in 2 s; missing rank 2" from the rendezvous' events, with what
 * a missing rank's refused attempts were (a wrong token, ...) when it made any.
 */
static int join_err(struct boot *b, struct err *e)
{
	struct rdv_event *ev = NULL;
	size_t n = rdv_events(b->rdv, &ev), nmiss = 0;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (ev[i].kind == RDV_EV_MISSING) {
			const char *w = strstr(ev[i].msg, "; ");

			strbuf_addf(&sb, "%s%d", nmiss ? ", " : "", ev[i].rank);
			if (w)
				strbuf_addf(&why, "; rank %d: %s", ev[i].rank, w + 2);
			nmiss++;
		}
	free(ev);
	if (b->rank == 0 && nmiss)
		err_set(e, ERR_TIMEOUT, "%d of %d ranks joined in %ld s; missing rank%s %s%s",
			b->world - (int)nmiss, b->world, b->timeout_ms / 1000, nmiss > 1 ? "s" : "",
			sb.buf, why.buf);
	strbuf_release(&sb);
	strbuf_release(&why);
	return -1;
}

static int ok_host(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n >= BOOT_ADDR)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
			return 0; /* a host name or address, nothing else */
	return 1;
}

int boot_decode_table(const json_t *t, int world, uint64_t *nonce, char (*addr)[64], int *port)
{
	const json_t *ranks = json_object_get(t, "ranks");
	unsigned char nb[8];

	if (!json_is_object(t) || world < 1 || json_object_size(t) != 2 || !json_is_array(ranks) ||
	    json_array_size(ranks) != (size_t)world ||
	    boot_unhex(json_object_get(t, "nonce"), nb, sizeof(nb)) < 0)
		return -1;
	*nonce = (uint64_t)get_be32(nb) << 32 | get_be32(nb + 4);
	for (int r = 0; r < world; r++) {
		const json_t *x = json_array_get(ranks, (size_t)r), *p = json_object_get(x, "port");
		const char *h = json_string_value(json_object_get(x, "addr"));

		if (!json_is_object(x) || json_object_size(x) != 2 || !ok_host(h) ||
		    !json_is_integer(p) || json_integer_value(p) < 1 || json_integer_value(p) > 65535)
			return -1;
		snprintf(addr[r], 64, "%s", h);
		port[r] = (int)json_integer_value(p);
	}
	return 0;
}

/*
 * Every rank says where its ring listens and which options it runs with; rank 0 checks them and
 * sends the table (its nonce tells this run's ring connections from stale ones).
 */
static int exchange(struct boot *b, struct err *e)
{
	unsigned char hb[8];
	json_t *mine = json_object(), *all = NULL, *table = NULL;
	long step = b->step++;
	int rc = -1;

	put_be32(hb, (uint32_t)(b->hash >> 32));
	put_be32(hb + 4, (uint32_t)b->hash);
	json_object_set_new(mine, "hash", boot_hex(hb, sizeof(hb)));
	json_object_set_new(mine, "addr", json_string(b->addr[b->rank]));
	json_object_set_new(mine, "port", json_integer(b->port[b->rank]));
	if (b->rank) {
		if (gather(b, "join", step, mine, NULL, e) < 0 ||
		    bcast(b, "join", step, &table, e) < 0)
			return -1;
		if (boot_decode_table(table, b->world, &b->nonce, b->addr, b->port) < 0) {
			json_decref(table);
			return err_set(e, ERR_PEER, "%s sent a malformed address table", b->name[0]);
		}
		json_decref(table);
		for (int r = 0; r < b->world; r++)
			set_name(b, r);
		return 0;
	}
	if (gather(b, "join", step, mine, &all, e) < 0)
		return -1;
	for (int r = 1; r < b->world; r++) {
		const json_t *x = json_array_get(all, (size_t)r), *p = json_object_get(x, "port");
		const char *h = json_string_value(json_object_get(x, "addr"));
		unsigned char got[8];
		char why[300];

		if (!ok_host(h) || !json_is_integer(p) || json_integer_value(p) < 1 ||
		    json_integer_value(p) > 65535 ||
		    boot_unhex(json_object_get(x, "hash"), got, sizeof(got)) < 0) {
			snprintf(why, sizeof(why), "rank %d sent a malformed ring address", r);
			rdv_abort(b->rdv, "protocol", why, 0);
			b->gave_up = 1;
			err_set(e, ERR_PEER, "%s", why);
			goto out;
		}
		snprintf(b->addr[r], sizeof(b->addr[r]), "%s", h);
		b->port[r] = (int)json_integer_value(p);
		set_name(b, r);
		if (memcmp(got, hb, sizeof(hb))) {
			snprintf(why, sizeof(why), "%s runs other bench options than rank 0: every "
				 "rank must run the same command", b->name[r]);
			rdv_abort(b->rdv, "options", why, 0);
			b->gave_up = 1;
			err_set(e, ERR_USAGE, "%s", why);
			goto out;
		}
	}
	{
		unsigned char nb[8];
		json_t *ranks = json_array();

		put_be32(nb, (uint32_t)(b->nonce >> 32));
		put_be32(nb + 4, (uint32_t)b->nonce);
		table = json_object();
		json_object_set_new(table, "nonce", boot_hex(nb, sizeof(nb)));
		for (int r = 0; r < b->world; r++)
			json_array_append_new(ranks, json_pack("{s:s,s:i}", "addr", b->addr[r],
							       "port", b->port[r]));
		json_object_set_new(table, "ranks", ranks);
	}
	rc = bcast(b, "join", step, &table, e);
out:
	json_decref(table);
	json_decref(all);
	return rc;
}

struct boot *boot_new(const struct boot_opts *o, struct err *e)
{
	char mhost[BOOT_ADDR], lhost[BOOT_ADDR] = "";
	const char *expected[1];
	int mport, lport = 0, world = o->world;
	struct rdv_opts ro;
	struct boot *b;

	if (o->peers && o->npeers) {
		if (o->world && o->world != (int)o->npeers)
			return err_set(e, ERR_USAGE, "--world %d but %zu peers listed", o->world,
			               o->npeers),
			       NULL;
		for (size_t i = 0; i < o->npeers; i++)
			if (net_parse_listen_hostport(o->peers[i], lhost, sizeof(lhost), &lport) < 0)
				return err_set(e, ERR_USAGE, "bad peer address '%s' (want host:port)",
				               o->peers[i]),
				       NULL;
		net_parse_listen_hostport(o->peers[0], mhost, sizeof(mhost), &mport);
		world = (int)o->npeers;
		lport = 0;
		lhost[0] = '\0';
		if (o->rank > 0 && o->rank < world)
			net_parse_listen_hostport(o->peers[o->rank], lhost, sizeof(lhost), &lport);
	} else if (!o->master || net_parse_listen_hostport(o->master, mhost, sizeof(mhost), &mport) < 0) {
		return err_set(e, ERR_USAGE, "bad master address '%s' (want host:port)",
		               o->master ? o->master : ""),
		       NULL;
	}
	if (world < 1 || world > 4096 || o->rank < 0 || o->rank >= world)
		return err_set(e, ERR_USAGE, "rank %d does not fit a world of %d", o->rank, world),
		       NULL;
	b = boot_alloc(o->rank, world, o);
	snprintf(b->addr[0], sizeof(b->addr[0]), "%s", mhost);
	set_name(b, 0);
	if (world == 1)
		return b; /* nobody to meet */
	if (b->rank == 0) {
		if (crypto_random(&b->nonce, sizeof(b->nonce)) < 0)
			b->nonce = (uint64_t)time_now_ns() ^ (uint64_t)getpid() << 32;
		snprintf(lhost, sizeof(lhost), "%s", mhost);
	} else if (!lhost[0] && net_route_source_name(mhost, lhost, sizeof(lhost), e) < 0) {
		/* listen where rank 0 reaches us: the source address of the route to it */
		err_prefix(e, "rank 0 (the master, %s:%d)", mhost, mport);
		goto fail;
	}
	b->lfd = net_listen_flags(lhost, lport, 128, NET_FULL_MSS, o->proc_root, e);
	if (b->lfd < 0)
		goto fail;
	snprintf(b->addr[b->rank], sizeof(b->addr[b->rank]), "%s", lhost);
	b->port[b->rank] = net_local_port(b->lfd);
	set_name(b, b->rank);

	rdv_opts_init(&ro);
	ro.master_host = mhost;
	ro.master_port = mport;
	ro.listen_addr = mhost;
	ro.rank = b->rank;
	ro.nnodes = world;
	ro.host = lhost; /* peers are named by the address they are reached at */
	ro.join_timeout_ms = b->timeout_ms;
	ro.token = o->token;
	ro.token_len = o->token_len;
	ro.proc_root = o->proc_root;
	expected[0] = mhost;
	ro.expected_hosts = expected;
	ro.nexpected = 1;
	b->rdv = rdv_new(&ro);
	if (rdv_start(b->rdv, e) < 0)
		goto fail;
	if (rdv_wait_joined(b->rdv, e) < 0) {
		join_err(b, e);
		goto fail;
	}
	if (exchange(b, e) < 0)
		goto fail;
	return b;
fail:
	boot_drop(b);
	return NULL;
}

int boot_barrier(struct boot *b, struct err *e)
{
	json_t *all = NULL, *out = NULL;
	long step = b->step++;
	int rc;

	if (b->world == 1)
		return 0;
	if (b->relay >= 0)
		return boot_relay_call(b, "barrier", NULL, 0, NULL, 0, e);
	if (gather(b, "barrier", step, json_object(), &all, e) < 0)
		return -1;
	json_decref(all);
	if (!b->rank)
		out = json_object();
	rc = bcast(b, "barrier", step, &out, e);
	json_decref(out);
	return rc;
}

/* The doubles as their bit patterns: exact, and NaN or Inf travel too. */
static json_t *doubles_hex(const double *v, size_t n)
{
	unsigned char buf[64 * 8];

	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		put_be32(buf + 8 * i, (uint32_t)(u >> 32));
		put_be32(buf + 8 * i + 4, (uint32_t)u);
	}
	return boot_hex(buf, 8 * n);
}

static int hex_doubles(const json_t *j, double *v, size_t n)
{
	unsigned char buf[64 * 8];

	if (boot_unhex(j, buf, 8 * n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t u = (uint64_t)get_be32(buf + 8 * i) << 32 | get_be32(buf + 8 * i + 4);
		memcpy(&v[i], &u, 8);
	}
	return 0;
}

int boot_sum(struct boot *b, double *v, size_t n, struct err *e)
{
	json_t *all = NULL, *out = NULL;
	long step;
	int rc = -1;

	if (n > 64)
		return err_set(e, ERR_INTERNAL, "boot_sum of %zu values", n);
	if (b->world == 1)
		return 0;
	if (b->relay >= 0)
		return boot_relay_call(b, "sum", v, 8 * n, v, 8 * n, e);
	step = b->step++;
	if (gather(b, "sum", step, json_pack("{s:o}", "v", doubles_hex(v, n)), &all, e) < 0)
		return -1;
	if (b->rank) {
		if (bcast(b, "sum", step, &out, e) < 0)
			return -1;
		if (hex_doubles(json_object_get(out, "v"), v, n) < 0)
			err_set(e, ERR_PEER, "%s sent a malformed sum", b->name[0]);
		else
			rc = 0;
		json_decref(out);
		return rc;
	}
	/* rank 0 sums in rank order, so every rank gets the same bits */
	for (int r = 1; r < b->world; r++) {
		double w[64];

		if (hex_doubles(json_object_get(json_array_get(all, (size_t)r), "v"), w, n) < 0) {
			json_decref(all);
			return err_set(e, ERR_PEER, "%s sent a malformed sum", b->name[r]);
		}
		for (size_t i = 0; i < n; i++)
			v[i] += w[i];
	}
	json_decref(all);
	out = json_pack("{s:o}", "v", doubles_hex(v, n));
	rc = bcast(b, "sum", step, &out, e);
	json_decref(out);
	return rc;
}

int boot_bcast(struct boot *b, void *buf, size_t len, struct err *e)
{
	json_t *out = NULL;
	long step;
	int rc;

	if (b->world == 1)
		return 0;
	if (b->relay >= 0)
		return boot_relay_call(b, "bcast", buf, len, buf, len, e);
	step = b->step++;
	if (!b->rank)
		out = json_pack("{s:o}", "data", boot_hex(buf, len));
	rc = bcast(b, "bcast", step, &out, e);
	if (rc == 0 && b->rank && boot_unhex(json_object_get(out, "data"), buf, len) < 0)
		rc = err_set(e, ERR_PEER, "%s broadcast %s", b->name[0], "bytes of the wrong length");
	json_decref(out);
	return rc;
}

int boot_gather(struct boot *b, const void *mine, size_t len, void *all, struct err *e)
{
	json_t *got = NULL;

	if (b->relay >= 0 && b->world > 1)
		return boot_relay_call(b, "gather", mine, len, all,
				       b->rank ? 0 : len * (size_t)b->world, e);
	if (!b->rank)
		memcpy(all, mine, len);
	if (b->world == 1)
		return 0;
	if (gather(b, "gather", b->step++, json_pack("{s:o}", "data", boot_hex(mine, len)),
		   b->rank ? NULL : &got, e) < 0)
		return -1;
	for (int r = 1; !b->rank && r < b->world; r++)
		if (boot_unhex(json_object_get(json_array_get(got, (size_t)r), "data"),
			       (char *)all + (size_t)r * len, len) < 0) {
			json_decref(got);
			return err_set(e, ERR_PEER, "%s gathered %s", b->name[r],
				       "bytes of the wrong length");
		}
	json_decref(got);
	return 0;
}

void boot_report_error(struct boot *b, const char *msg)
{
	if (b->relay >= 0) {
		boot_relay_call(b, "error", msg, strlen(msg) < 200 ? strlen(msg) : 200, NULL, 0, NULL);
		return;
	}
	if (!b->rdv)
		return;
	/* rank 0 tells every worker; a worker tells rank 0, which tells the others */
	rdv_abort(b->rdv, "bench", msg, b->rank);
	b->gave_up = 1;
}

/* ---- the ring's data sockets ---- */

int boot_ring(struct boot *b, int nstripes, int *send_fds, int *recv_fds, struct err *e)
{
	int next = (b->rank + 1) % b->world, prev = (b->rank + b->world - 1) % b->world;
	int64_t deadline = boot_deadline_in(b->timeout_ms);
	struct net_connect_opts co = { .flags = NET_FULL_MSS };
	unsigned char p[RING_HELLO];
	int got = 0;

	for (int s = 0; s < nstripes; s++)
		send_fds[s] = recv_fds[s] = -1;
	if (b->world == 1)
		return 0;
	put_be32(p, RING_MAGIC);
	put_be32(p + 4, (uint32_t)b->rank);
	put_be32(p + 12, (uint32_t)(b->nonce >> 32));
	put_be32(p + 16, (uint32_t)b->nonce);
	/* every listener exists before the table went out: one attempt each */
	for (int s = 0; s < nstripes; s++) {
		send_fds[s] = net_connect(b->addr[next], b->port[next], &co, deadline, NULL, e);
		if (send_fds[s] < 0)
			goto fail_next;
		put_be32(p + 8, (uint32_t)s);
		if (net_write_full(send_fds[s], p, sizeof(p), deadline, e) < 0)
			goto fail_next;
	}
	while (got < nstripes) {
		struct err e2 = ERR_INIT;
		unsigned char h[RING_HELLO];
		int fd = net_accept(b->lfd, deadline, NULL, 0, &e2);
		uint32_t s;

		if (fd < 0) {
			err_set(e, e2.code, "%s never connected its ring sockets (%s)",
			        b->name[prev], e2.code == ERR_TIMEOUT ? "timed out" : e2.msg);
			goto fail;
		}
		if (net_read_full(fd, h, sizeof(h), time_now_ms() + 3000, &e2) < 0 ||
		    get_be32(h) != RING_MAGIC || get_be32(h + 4) != (uint32_t)prev ||
		    memcmp(h + 12, p + 12, 8) || (s = get_be32(h + 8)) >= (uint32_t)nstripes ||
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
	int fd = b->rdv ? rdv_fail_fd(b->rdv) : -1;

	if (fd < 0 || !max)
		return 0;
	fds[0] = fd;
	ranks[0] = -1;
	return 1;
}

int boot_watch_event(struct boot *b, int fd, int rank, struct err *e)
{
	(void)fd;
	(void)rank;
	return b->rdv && rdv_failed(b->rdv, e) ? 1 : 0;
}
