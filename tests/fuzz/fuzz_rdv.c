/*
 * The rendezvous master against many clients at once: up to 16 hostile connections, driven by
 * the input (connect, raw bytes split anyhow, well-formed hellos and auths with fuzzed fields,
 * close, read), interleaved with one real worker that starts at a point the input picks. The
 * master holds a token, so whatever the strangers do the invariant is strict: the real worker
 * joins, the run does not fail, nothing crashes or leaks, and every wait stays bounded.
 *
 * Input: a script of ops; op byte b: slot b & 15, action (b >> 4) % 8; operands follow.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/frame.h"
#include "net/proto.h"
#include "net/sock.h"
#include "rdv/rdv.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SLOTS 16
#define TOKEN "fuzz-token"

struct in {
	const uint8_t *p;
	size_t n, off;
};

static unsigned byte(struct in *in)
{
	return in->off < in->n ? in->p[in->off++] : 0;
}

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static struct rdv *node(int port, int rank)
{
	struct rdv_opts o;

	rdv_opts_init(&o);
	o.master_host = "127.0.0.1";
	o.listen_addr = "127.0.0.1";
	o.master_port = port;
	o.rank = rank;
	o.nnodes = 2;
	o.host = rank ? "real-worker" : "master";
	o.join_timeout_ms = 10000;
	o.heartbeat_ms = 100;
	o.dead_ms = 2000;
	o.handshake_ms = 300;
	o.token = TOKEN;
	o.token_len = strlen(TOKEN);
	return rdv_new(&o);
}

static void send_msg(int fd, const struct msg *m)
{
	struct err e = ERR_INIT;

	msg_send(fd, m, 65536, time_now_ms() + 50, &e);	/* a full or closed socket: fine */
}

static void op(struct in *in, int *fds, int port, struct rdv *w, int *wstarted)
{
	unsigned b = byte(in), slot = b & 15, act = (b >> 4) % 8;
	int *fd = &fds[slot];
	struct err e = ERR_INIT;
	char buf[4096], hex[PROTO_MAC_HEX + 1];
	struct msg m;

	switch (act) {
	case 0:	/* connect */
		if (*fd < 0)
			*fd = net_connect("127.0.0.1", port, NULL, time_now_ms() + 200, NULL, &e);
		break;
	case 1: {	/* raw bytes, as many as the next byte says */
		unsigned n = byte(in) % 64;

		for (unsigned i = 0; i < n; i++)
			buf[i] = (char)byte(in);
		if (*fd >= 0 && n)
			send(*fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		break;
	}
	case 2: {	/* a well-formed hello with fuzzed claims */
		unsigned v = byte(in), rank = byte(in), nn = byte(in);

		msg_init(&m, MSG_HELLO);
		m.u.hello.version = v & 1 ? PROTO_VERSION : (long)(v % 5);
		m.u.hello.rank = rank % 4;
		m.u.hello.nnodes = nn & 1 ? 2 : (long)(nn % 6);
		m.u.hello.pid = 4242;
		m.u.hello.host = (char *)"stranger";
		m.u.hello.tool = (char *)"fuzz";
		snprintf(m.u.hello.nonce, sizeof(m.u.hello.nonce), "%032x", b);
		if (*fd >= 0)
			send_msg(*fd, &m);
		break;
	}
	case 3:	/* an auth with a made-up MAC (or none) */
		msg_init(&m, MSG_AUTH);
		memset(hex, 0, sizeof(hex));
		if (byte(in) & 1)
			for (int i = 0; i < PROTO_MAC_HEX; i++)
				hex[i] = "0123456789abcdef"[byte(in) & 15];
		memcpy(m.u.auth.mac, hex, sizeof(hex));
		if (*fd >= 0)
			send_msg(*fd, &m);
		break;
	case 4:	/* a member's message out of turn */
		msg_init(&m, MSG_HEARTBEAT);
		m.u.heartbeat.rank = byte(in) % 3;
		m.u.heartbeat.seq = 1;
		if (*fd >= 0)
			send_msg(*fd, &m);
		break;
	case 5:
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		break;
	case 6:
		if (*fd >= 0)
			recv(*fd, buf, sizeof(buf), MSG_DONTWAIT);
		break;
	case 7:	/* the real worker comes now */
		if (!*wstarted && rdv_start(w, &e) == 0)
			*wstarted = 1;
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { .p = data, .n = size > 4096 ? 4096 : size };
	int fds[SLOTS], port = free_port(), wstarted = 0;
	struct rdv *m, *w;
	struct err e = ERR_INIT, we = ERR_INIT;

	if (port < 0)
		return 0;
	for (int i = 0; i < SLOTS; i++)
		fds[i] = -1;
	m = node(port, 0);
	w = node(port, 1);
	if (rdv_start(m, &e) < 0) {	/* the port was taken between free_port and here */
		rdv_free(w);
		rdv_free(m);
		return 0;
	}
	while (in.off < in.n)
		op(&in, fds, port, w, &wstarted);
	if (!wstarted && rdv_start(w, &e) < 0)
		abort();
	if (rdv_wait_joined(w, &we) < 0 || rdv_wait_joined(m, &e) < 0) {
		fprintf(stderr, "the real worker was kept out: master: %s; worker: %s\n", e.msg,
			we.msg);
		abort();
	}
	for (int i = 0; i < SLOTS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	rdv_finish(w);
	rdv_finish(m);
	if (rdv_failed(m, &e)) {
		fprintf(stderr, "a stranger ended the run: %s\n", e.msg);
		abort();
	}
	rdv_free(w);
	rdv_free(m);
	return 0;
}
