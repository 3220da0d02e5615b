/* Bounded HTTP/1.1 POST to a local WorkerServer (see http.h). */
#include "attach/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/un.h>
#include <unistd.h>

#include "net/sock.h"
#include "util/timeutil.h"

#define HTTP_HEAD_MAX 16384

struct target {
	int unix_sock;
	char path[108];
	char host[64];
	char port[8];
};

static int parse_url(const char *url, struct target *t, struct err *e)
{
	memset(t, 0, sizeof(*t));
	if (!strncmp(url, "unix:", 5)) {
		if (!url[5] || strlen(url + 5) >= sizeof(t->path))
			return err_set(e, ERR_USAGE, "'%s': a Unix socket path of 1-107 bytes", url);
		t->unix_sock = 1;
		snprintf(t->path, sizeof(t->path), "%s", url + 5);
		return 0;
	}
	if (!strncmp(url, "http://", 7)) {
		const char *h = url + 7, *colon, *end;
		size_t hl;
		char *pe;
		long p;
		if (*h == '[') {
			end = strchr(h, ']');
			if (!end || end[1] != ':')
				return err_set(e, ERR_USAGE, "'%s': want http://[ADDR]:PORT", url);
			h++;
			hl = (size_t)(end - h);
			colon = end + 1;
		} else {
			colon = strchr(h, ':');
			if (!colon)
				return err_set(e, ERR_USAGE, "'%s': want http://HOST:PORT", url);
			hl = (size_t)(colon - h);
		}
		if (!hl || hl >= sizeof(t->host))
			return err_set(e, ERR_USAGE, "'%s': bad host", url);
		memcpy(t->host, h, hl);
		p = strtol(colon + 1, &pe, 10);
		if (p < 1 || p > 65535 || (*pe && strcmp(pe, "/")))
			return err_set(e, ERR_USAGE, "'%s': bad port", url);
		snprintf(t->port, sizeof(t->port), "%ld", p);
		/* only this machine: the debug servers are "for trusted networks only" */
		{
			struct in_addr a4;
			struct in6_addr a6;
			if (strcmp(t->host, "localhost") &&
			    !(inet_pton(AF_INET, t->host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127) &&
			    !(inet_pton(AF_INET6, t->host, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6)))
				return err_set(e, ERR_USAGE, "'%s': only loopback addresses or a Unix socket "
					       "(run attach on the rank's node)", url);
		}
		return 0;
	}
	return err_set(e, ERR_USAGE, "'%s': want unix:/PATH or http://127.0.0.1:PORT", url);
}

int http_url_ok(const char *url, struct err *e)
{
	struct target t;

	return parse_url(url, &t, e);
}

/* The worker server's words for net/sock's failures: a timeout, else what we were doing. */
static int server_err(struct err *e, const char *doing)
{
	if (e && e->code == ERR_TIMEOUT)
		return err_set(e, ERR_TIMEOUT, "the worker server did not answer in time");
	return doing ? err_prefix(e, "%s", doing) : -1;
}

static int do_connect(const struct target *t, int64_t deadline, struct err *e)
{
	struct net_connect_opts o = { .flags = NET_FULL_MSS };
	enum net_fail why = NET_OTHER;
	int fd;

	if (t->unix_sock) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };

		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", t->path);
		fd = net_connect_sa((struct sockaddr *)&sa, sizeof(sa), NULL, deadline, &why, e);
	} else {
		fd = net_connect(t->host, atoi(t->port), &o, deadline, &why, e);
	}
	if (fd >= 0 || why == NET_RESOLVE || why == NET_LOCAL)
		return fd;
	if (why == NET_TIMEOUT)
		return server_err(e, NULL);
	if (t->unix_sock)
		return err_set(e, ERR_SYS, "cannot connect to '%s': %s", t->path, err_errno_text(errno));
	return err_set(e, ERR_SYS, "cannot connect to %s:%s: %s", t->host, t->port, err_errno_text(errno));
}

/* The value of header `name` in `head` (lines after the status line), or NULL. */
static const char *header(const char *head, const char *name, char *out, size_t outlen)
{
	const char *p = strstr(head, "\r\n");
	size_t nl = strlen(name);

	while (p && p[2] && !(p[2] == '\r' && p[3] == '\n')) {
		const char *line = p + 2, *end = strstr(line, "\r\n");
		if (!end)
			return NULL;
		if ((size_t)(end - line) > nl && !strncasecmp(line, name, nl) && line[nl] == ':') {
			const char *v = line + nl + 1;
			while (*v == ' ')
				v++;
			snprintf(out, outlen, "%.*s", (int)(end - v), v);
			return out;
		}
		p = end;
	}
	return NULL;
}

int http_post(const char *url, const char *target, size_t max_body, long deadline_ms,
	      struct strbuf *body, struct err *e)
{
	struct target t;
	int64_t deadline = time_now_ms() + deadline_ms;
	struct strbuf req = STRBUF_INIT, in = STRBUF_INIT;
	char *hend, val[64];
	size_t hoff = SIZE_MAX;		/* where the headers end; an offset, since `in` grows */
	int fd, status = 0, rc = -1;
	long long clen = -1;

	if (parse_url(url, &t, e) < 0)
		return -1;
	fd = do_connect(&t, deadline, e);
	if (fd < 0)
		return -1;
	strbuf_addf(&req, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 0\r\nConnection: close\r\n"
		    "User-Agent: ncclcheck-attach\r\n\r\n", target, t.unix_sock ? "localhost" : t.host);
	if (net_write_full(fd, req.buf, req.len, deadline, e) < 0) {
		server_err(e, "sending to the worker server");
		goto out;
	}
	for (;;) {
		char buf[16384];
		long n = net_read_some(fd, buf, sizeof(buf), deadline, e);

		if (n < 0) {
			server_err(e, "reading from the worker server");
			goto out;
		}
		if (n == 0)
			break;
		strbuf_add(&in, buf, (size_t)n);
		if (hoff == SIZE_MAX) {
			char *h = memmem(in.buf, in.len, "\r\n\r\n", 4);
			if (h)
				hoff = (size_t)(h - in.buf) + 4;
			else if (in.len > HTTP_HEAD_MAX) {
				err_set(e, ERR_PEER, "the worker server's answer has no end of headers");
				goto out;
			}
		}
		if (hoff != SIZE_MAX) {
			if (in.len - hoff > max_body) {
				err_set(e, ERR_PEER, "the worker server's answer is larger than %zu bytes",
					max_body);
				goto out;
			}
			if (clen < 0) {
				in.buf[hoff - 2] = '\0';
				if (header(in.buf, "Content-Length", val, sizeof(val)))
					clen = strtoll(val, NULL, 10);
				in.buf[hoff - 2] = '\r';
				if (clen < -1 || clen > (long long)max_body) {
					err_set(e, ERR_PEER, "the worker server announces %lld body bytes", clen);
					goto out;
				}
				if (clen < 0)
					clen = -2;	/* none: read to EOF (we sent Connection: close) */
			}
			if (clen >= 0 && in.len - hoff >= (size_t)clen)
				break;
		}
	}
	if (hoff == SIZE_MAX || sscanf(in.buf, "HTTP/1.%*[01] %d", &status) != 1) {
		err_set(e, ERR_PEER, "not an HTTP answer: '%.40s'", in.buf);
		goto out;
	}
	hend = in.buf + hoff - 2;	/* keep the last header line's \r\n */
	*hend = '\0';
	if (header(in.buf, "Transfer-Encoding", val, sizeof(val))) {
		err_set(e, ERR_PEER, "the worker server answered with Transfer-Encoding %s", val);
		goto out;
	}
	if (status != 200) {
		err_set(e, ERR_PEER, "the worker server answered HTTP %d: %.80s", status, in.buf + hoff);
		goto out;
	}
	if (clen >= 0 && (size_t)clen != in.len - hoff) {
		err_set(e, ERR_PEER, "the worker server sent %zu of %lld body bytes", in.len - hoff, clen);
		goto out;
	}
	strbuf_add(body, in.buf + hoff, in.len - hoff);
	rc = 0;
out:
	close(fd);
	strbuf_release(&req);
	strbuf_release(&in);
	return rc;
}
