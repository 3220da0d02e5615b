/* NCCL RAS client (see ras.h); the STATUS report decoders are in ras_report.c. */
#include "attach/ras_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/sock.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

int ras_addr_parse(const char *s, char *host, size_t hostlen, char *port, size_t portlen,
		   struct err *e)
{
	const char *colon, *h = s;
	size_t hl;

	if (!s || !*s)
		return err_set(e, ERR_USAGE, "empty RAS address");
	if (*s == '[') {
		const char *rb = strchr(s, ']');
		if (!rb)
			return err_set(e, ERR_USAGE, "'%s': unclosed '['", s);
		h = s + 1;
		hl = (size_t)(rb - h);
		colon = rb[1] == ':' ? rb + 1 : NULL;
		if (rb[1] && !colon)
			return err_set(e, ERR_USAGE, "'%s': junk after ']'", s);
	} else {
		colon = strrchr(s, ':');
		if (colon && strchr(s, ':') != colon)
			return err_set(e, ERR_USAGE, "'%s': an IPv6 address needs [brackets]:port", s);
		hl = colon ? (size_t)(colon - s) : strlen(s);
	}
	if (hl == 0) {
		h = "localhost";
		hl = strlen(h);
	}
	if (hl >= hostlen)
		return err_set(e, ERR_USAGE, "'%s': host name too long", s);
	for (size_t i = 0; i < hl; i++)
		if (!isalnum((unsigned char)h[i]) && !strchr(".-_:%", h[i]))
			return err_set(e, ERR_USAGE, "'%s': not a host name or address", s);
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (colon) {
		char *end;
		long p = strtol(colon + 1, &end, 10);
		if (!colon[1] || *end || p < 1 || p > 65535)
			return err_set(e, ERR_USAGE, "'%s': the port must be 1-65535", s);
		snprintf(port, portlen, "%ld", p);
	} else {
		snprintf(port, portlen, "%s", RAS_DEFAULT_PORT);
	}
	return 0;
}

int ras_addr_pick(const char *given, const char *env, char *host, size_t hostlen, char *port,
		  size_t portlen, struct err *e)
{
	const char *s = given ? given : env;

	if (!s || !*s)
		s = "localhost:" RAS_DEFAULT_PORT;
	return ras_addr_parse(s, host, hostlen, port, portlen, e);
}

/* ---- the bounded connection ---------------------------------------------------------------- */

struct conn {
	int fd;
	int64_t deadline;
	char buf[4096];		/* bytes received but not consumed yet */
	size_t have;
};

/* The RAS service's words for net/sock's failures: a timeout names the step it stopped in. */
static int ras_err(struct err *e, const char *what, const char *doing)
{
	if (e && e->code == ERR_TIMEOUT)
		return err_set(e, ERR_TIMEOUT, "no answer from the RAS service while %s (the "
			       "deadline passed: a frozen process holds the socket?)", what);
	return doing ? err_prefix(e, "%s", doing) : -1;
}

static int conn_open(struct conn *c, const struct ras_opts *o, struct err *e)
{
	struct net_connect_opts no = { .flags = NET_FULL_MSS };
	enum net_fail why = NET_OTHER;
	char *end;
	long port = strtol(o->port, &end, 10);

	if (*end || end == o->port)
		return err_set(e, ERR_NOTFOUND, "cannot resolve '%s': bad port '%s'", o->host,
			       o->port);
	c->fd = net_connect(o->host, (int)port, &no, c->deadline, &why, e);
	if (c->fd >= 0 || why == NET_RESOLVE || why == NET_LOCAL)
		return c->fd < 0 ? -1 : 0;
	if (why == NET_TIMEOUT)
		return ras_err(e, "connecting", NULL);
	return err_sys(e, "cannot connect to the RAS service at %s:%s (is an NCCL >= 2.24 job "
		       "running here, with NCCL_RAS_ENABLE not 0?)", o->host, o->port);
}

static int conn_send(struct conn *c, const char *line, struct err *e)
{
	if (net_write_full(c->fd, line, strlen(line), c->deadline, e) < 0)
		return ras_err(e, "sending", "sending to the RAS service");
	return 0;
}

/* Reads into c->buf; 0 on EOF, >0 bytes, -1 on error or deadline. */
static ssize_t conn_fill(struct conn *c, char *dst, size_t cap, const char *what, struct err *e)
{
	long n = net_read_some(c->fd, dst, cap, c->deadline, e);

	if (n < 0)
		return ras_err(e, what, "reading from the RAS service");
	return n;
}

/* One protocol reply line (without its newline) into `out`, at most RAS_LINE_MAX bytes. */
static int conn_line(struct conn *c, struct strbuf *out, const char *what, struct err *e)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->have);
		ssize_t n;
		if (nl) {
			size_t l = (size_t)(nl - c->buf);
			strbuf_add(out, c->buf, l + 1);
			memmove(c->buf, nl + 1, c->have - l - 1);
			c->have -= l + 1;
			return 0;
		}
		if (c->have >= RAS_LINE_MAX) {
			strbuf_add(out, c->buf, c->have);
			return err_set(e, ERR_PEER, "the RAS service answered %s with a line longer than "
				       "%d bytes: not a RAS server?", what, RAS_LINE_MAX);
		}
		n = conn_fill(c, c->buf + c->have, sizeof(c->buf) - c->have, what, e);
		if (n < 0)
			return -1;
		if (n == 0) {
			strbuf_add(out, c->buf, c->have);
			return err_set(e, ERR_PEER, "the RAS service closed the connection while %s", what);
		}
		c->have += (size_t)n;
	}
}

static struct ras_xchg *xchg_add(struct ras_answer *a, const char *send)
{
	struct ras_xchg *x;

	ALLOC_GROW(a->x, a->nx + 1, a->ax);
	x = &a->x[a->nx++];
	x->send = xstrdup(send);
	x->recv = NULL;
	x->recv_len = 0;
	return x;
}

static void xchg_set(struct ras_xchg *x, struct strbuf *sb)
{
	x->recv_len = sb->len;
	x->recv = strbuf_detach(sb, NULL);
}

/* Sends `line`, reads one reply line; the reply (with newline) stays in `reply`. */
static int request(struct conn *c, struct ras_answer *a, const char *line, struct strbuf *reply,
		   const char *what, struct err *e)
{
	struct ras_xchg *x = xchg_add(a, line);
	int rc;

	strbuf_reset(reply);
	rc = conn_send(c, line, e);
	if (rc == 0)
		rc = conn_line(c, reply, what, e);
	{
		struct strbuf copy = STRBUF_INIT;
		strbuf_add(&copy, reply->buf, reply->len);
		xchg_set(x, &copy);
	}
	return rc;
}

static int chomp_eq(const struct strbuf *sb, const char *want)
{
	size_t n = sb->len;

	while (n && (sb->buf[n - 1] == '\n' || sb->buf[n - 1] == '\r'))
		n--;
	return n == strlen(want) && !strncasecmp(sb->buf, want, n);
}

static int do_query(struct conn *c, const struct ras_opts *o, struct ras_answer *a, struct err *e)
{
	struct strbuf reply = STRBUF_INIT, status = STRBUF_INIT;
	char line[64];
	struct ras_xchg *x;
	int rc = -1;

	snprintf(line, sizeof(line), "CLIENT PROTOCOL %d\n", RAS_PROTOCOL);
	if (request(c, a, line, &reply, "negotiating the protocol", e) < 0)
		goto out;
	if (strncasecmp(reply.buf, "SERVER PROTOCOL ", 16) || !isdigit((unsigned char)reply.buf[16])) {
		strbuf_rtrim(&reply);
		err_set(e, ERR_PEER, "not a NCCL RAS service: it answered '%.60s' to CLIENT PROTOCOL",
			reply.buf);
		goto out;
	}
	a->server_protocol = atoi(reply.buf + 16);
	if (o->timeout_s >= 0) {
		char val[32];
		/* NCCL < 2.31 reads an integer (strtol to the end of the line) */
		if (o->timeout_float)
			snprintf(val, sizeof(val), "%g", o->timeout_s);
		else
			snprintf(val, sizeof(val), "%ld", (long)o->timeout_s +
				 ((double)(long)o->timeout_s < o->timeout_s));
		snprintf(line, sizeof(line), "TIMEOUT %s\n", val);
		if (request(c, a, line, &reply, "setting the timeout", e) < 0)
			goto out;
		if (!chomp_eq(&reply, "OK")) {
			strbuf_rtrim(&reply);
			err_set(e, ERR_PEER, "the RAS service refused TIMEOUT %s: '%.60s'", val,
				reply.buf);
			goto out;
		}
	}
	if (o->want_json && !o->diagnostics) {
		if (request(c, a, "SET FORMAT json\n", &reply, "choosing the format", e) < 0)
			goto out;
		if (chomp_eq(&reply, "OK"))
			a->json = 1;
		else if (strncasecmp(reply.buf, "ERROR", 5)) {
			strbuf_rtrim(&reply);
			err_set(e, ERR_PEER, "unexpected answer to SET FORMAT: '%.60s'", reply.buf);
			goto out;
		}
		/* ERROR: an NCCL older than 2.28.7; the report comes as text */
	}
	x = xchg_add(a, o->diagnostics ? "DIAGNOSTICS\n" :
		     o->verbose ? "VERBOSE STATUS\n" : "STATUS\n");
	if (conn_send(c, x->send, e) < 0)
		goto out;
	if (c->have)
		strbuf_add(&status, c->buf, c->have);
	c->have = 0;
	for (;;) {
		char buf[16384];
		ssize_t n;
		/* an NCCL < 2.31 answers ERROR and waits for the next command: do not wait for EOF */
		if (o->diagnostics && memchr(status.buf, '\n', status.len) &&
		    (!strncmp(status.buf, "ERROR", 5) || !strncmp(status.buf, "BUSY", 4))) {
			rc = 0;
			break;
		}
		n = conn_fill(c, buf, sizeof(buf), o->diagnostics ? "waiting for the diagnostics" :
			      "waiting for the STATUS report", e);
		if (n < 0)
			break;
		if (n == 0) {
			rc = 0;
			break;
		}
		if (status.len + (size_t)n > o->max_bytes) {
			err_set(e, ERR_PEER, "the STATUS report is larger than %zu bytes: not read further",
				o->max_bytes);
			break;
		}
		strbuf_add(&status, buf, (size_t)n);
	}
	{
		struct strbuf copy = STRBUF_INIT;
		strbuf_add(&copy, status.buf, status.len);
		xchg_set(x, &copy);
	}
	if (rc == 0 && status.len == 0) {
		rc = err_set(e, ERR_PEER, "the RAS service closed the connection without a %s",
			     o->diagnostics ? "diagnostics report" : "report");
	}
	if (rc == 0) {
		a->status_len = status.len;
		a->status = strbuf_detach(&status, NULL);
	}
out:
	strbuf_release(&reply);
	strbuf_release(&status);
	return rc;
}

int ras_query(const struct ras_opts *o, struct ras_answer *a, struct err *e)
{
	struct conn c = { .fd = -1 };
	int rc;

	c.deadline = time_now_ms() + (o->deadline_ms > 0 ? o->deadline_ms : 10000);
	rc = conn_open(&c, o, e);
	if (rc == 0)
		rc = do_query(&c, o, a, e);
	if (c.fd >= 0)
		close(c.fd);
	if (rc < 0)
		a->error = xstrdup(e && e->msg[0] ? e->msg : "failed");
	return rc;
}

void ras_answer_release(struct ras_answer *a)
{
	for (size_t i = 0; i < a->nx; i++) {
		free(a->x[i].send);
		free(a->x[i].recv);
	}
	free(a->x);
	free(a->status);
	free(a->error);
	memset(a, 0, sizeof(*a));
}

json_t *ras_transcript_json(const struct ras_answer *a, size_t n, const char *source)
{
	json_t *polls = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *p = json_object(), *ex = json_array();
		json_object_set_new(p, "t_ms", json_integer(a[i].t_ms));
		for (size_t j = 0; j < a[i].nx; j++) {
			json_t *x = json_object();
			json_object_set_new(x, "send", json_string(a[i].x[j].send));
			json_object_set_new(x, "recv", a[i].x[j].recv ?
					    json_stringn_nocheck(a[i].x[j].recv, a[i].x[j].recv_len) :
					    json_null());
			json_array_append_new(ex, x);
		}
		json_object_set_new(p, "exchange", ex);
		if (a[i].error)
			json_object_set_new(p, "error", json_string(a[i].error));
		json_array_append_new(polls, p);
	}
	return json_pack("{s:i, s:s, s:o}", "ncclcheck_ras_transcript", 1, "source",
			 source ? source : "", "polls", polls);
}
