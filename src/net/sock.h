/*
 * TCP sockets with deadlines (redis anet style): every helper takes the caller's `struct err`
 * and returns -1 with the message filled in. All descriptors are non-blocking and close-on-exec;
 * the waiting is done with poll() against an absolute deadline on the monotonic clock
 * (time_now_ms()), so a peer that stalls costs at most the caller's deadline. Nothing prints.
 */
#ifndef NCCLCHECK_NET_SOCK_H
#define NCCLCHECK_NET_SOCK_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Why a connect failed, told apart the way a firewall or a route decides it. */
enum net_fail {
	NET_OK = 0,
	NET_REFUSED,	/* RST: nobody listens, or a REJECT rule with tcp-reset / port-unreachable */
	NET_TIMEOUT,	/* no answer before the deadline: a DROP rule, a black hole, a dead host */
	NET_NOROUTE,	/* EHOSTUNREACH: no route to the host, or an ICMP host-prohibited reject */
	NET_UNREACH,	/* ENETUNREACH: no route to the network at all */
	NET_RESOLVE,	/* the name did not resolve */
	NET_LOCAL,	/* this side could not even try: bind to the source, socket(), permissions */
	NET_OTHER,
};

/* "refused", "timeout", "no-route", "unreachable", "resolve", "local", "other", "ok" */
const char *net_fail_name(enum net_fail f);
/* The reverse; -1 for an unknown name. */
int net_fail_parse(const char *s, enum net_fail *out);

struct net_connect_opts {
	const char *src_addr;	/* bind to this local address first (NULL: the kernel's choice) */
	const char *src_ifname;	/* SO_BINDTODEVICE to this interface (NULL: none; needs CAP_NET_RAW) */
	int family;		/* AF_INET, AF_INET6 or 0 (AF_UNSPEC: every address getaddrinfo gives) */
};

/*
 * Connects to host:port before `deadline_ms` (time_now_ms() clock). Returns the connected
 * descriptor (non-blocking, TCP_NODELAY) or -1 with `e` set and `*why` (may be NULL) saying
 * which kind of failure it was. With several addresses the last failure is reported.
 */
int net_connect(const char *host, int port, const struct net_connect_opts *o, int64_t deadline_ms,
		enum net_fail *why, struct err *e);

/*
 * Listens on addr:port (addr NULL or "": every address, IPv6 dual-stack when it can, else IPv4;
 * port 0: an ephemeral port, read it back with net_local_port()). SO_REUSEADDR is set. When the
 * port is taken, the message names the process holding it, found under `proc_root` (NULL or "/":
 * the real /proc; else a tree that stands for /proc, as struct probe_opts' root_proc).
 */
int net_listen(const char *addr, int port, int backlog, const char *proc_root, struct err *e);

/*
 * Accepts one connection before `deadline_ms` (-1 with ERR_TIMEOUT when none came). The peer's
 * numeric address goes to `peer` ("10.0.0.2:41234"; may be NULL).
 */
int net_accept(int lfd, int64_t deadline_ms, char *peer, size_t peerlen, struct err *e);

/*
 * Moves exactly n bytes before `deadline_ms`. -1 with ERR_TIMEOUT at the deadline, ERR_PEER when
 * the peer closed (read) or reset the connection, ERR_SYS otherwise. SIGPIPE is never raised.
 */
int net_read_full(int fd, void *buf, size_t n, int64_t deadline_ms, struct err *e);
int net_write_full(int fd, const void *buf, size_t n, int64_t deadline_ms, struct err *e);

/* The local / remote port of a socket, or -1. */
int net_local_port(int fd);
/* The numeric address of a socket's remote end as "addr:port" (or "addr" with port 0). */
int net_peer_name(int fd, char *buf, size_t len, int with_port);

/*
 * Who listens on TCP `port` here: reads proc_root/net/tcp and tcp6 for a LISTEN socket on the
 * port, then proc_root/<pid>/fd/ for the process owning its inode. Writes "pid 1234 (python3)"
 * or, when the socket is found but not its owner (another user's process), "socket inode 5678"
 * into buf; returns 0, or -1 when no listener is on the port.
 */
int net_port_holder(const char *proc_root, int port, char *buf, size_t len);

/* Parses "host:port", "[v6]:port"; host is copied into `host`. -1 on anything else. */
int net_parse_hostport(const char *s, char *host, size_t hostlen, int *port);

#endif
