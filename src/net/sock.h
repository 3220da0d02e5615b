/*
 * TCP sockets with deadlines (redis anet style): every helper takes the caller's `struct err`
 * and returns -1 with the message filled in. All descriptors are non-blocking and close-on-exec;
 * the waiting is done with poll() against an absolute deadline on the monotonic clock
 * (time_now_ms()), so a peer that stalls costs at most the caller's deadline. Nothing prints.
 */
#ifndef NCCLCHECK_NET_SOCK_H
#define NCCLCHECK_NET_SOCK_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

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

/* Flags of struct net_connect_opts and net_listen_flags(). */
enum {
	/*
	 * Keep the path's own segment size. Without it the control channel's segments are clamped
	 * (see NET_CONTROL_MSS in sock.c); the link tests and bench's data sockets measure the path.
	 */
	NET_FULL_MSS = 1 << 0,
	/* connect: SO_BINDTODEVICE refused for want of CAP_NET_RAW is no failure: the source
	 * address and the routes pick the path (the link tests) */
	NET_SOFT_IFNAME = 1 << 1,
	/* listen: a taken port is a plain error with errno EADDRINUSE, without the walk of /proc
	 * that names its holder (a port scan's listeners meet many) */
	NET_QUIET_TAKEN = 1 << 2,
};

struct net_connect_opts {
	const char *src_addr;	/* bind to this local address first (NULL: the kernel's choice) */
	const char *src_ifname;	/* SO_BINDTODEVICE to this interface (NULL: none; needs CAP_NET_RAW) */
	int family;		/* AF_INET, AF_INET6 or 0 (AF_UNSPEC: every address getaddrinfo gives) */
	unsigned flags;		/* NET_FULL_MSS, NET_SOFT_IFNAME */
	int src_port;		/* bind this source port (SO_REUSEADDR: a port scan's many
				 * connects share one whose replies are known to come back) */
};

/*
 * The one wait on the program's sockets: poll() until `deadline_ms` (time_now_ms() clock; -1:
 * no deadline), restarted on EINTR with the time left. Returns how many descriptors are ready,
 * 0 when the deadline passed, -1 when poll failed (errno kept).
 */
int net_poll(struct pollfd *p, size_t n, int64_t deadline_ms);
/* One descriptor: 1 ready (its revents into *revents, which may be NULL), 0 deadline, -1 failed. */
int net_wait_fd(int fd, short events, int64_t deadline_ms, short *revents);

/*
 * Connects to host:port before `deadline_ms` (time_now_ms() clock). Returns the connected
 * descriptor (non-blocking, TCP_NODELAY) or -1 with `e` set, `*why` (may be NULL) saying which
 * kind of failure it was and errno the error the attempt met (ETIMEDOUT at the deadline, 0 when
 * it never started). With several addresses the last failure is reported.
 */
int net_connect(const char *host, int port, const struct net_connect_opts *o, int64_t deadline_ms,
		enum net_fail *why, struct err *e);
/* The same to one address already resolved (TCP, or AF_UNIX with the opts' fields unused). */
int net_connect_sa(const struct sockaddr *sa, socklen_t len, const struct net_connect_opts *o,
		   int64_t deadline_ms, enum net_fail *why, struct err *e);
/*
 * Starts a connect and returns at once (a port scan keeps thousands in flight): the descriptor
 * with *err_no 0 (connected already) or EINPROGRESS (wait for POLLOUT, then
 * net_connect_result()); or -1 with *err_no the errno the kernel answered at once, or with
 * *err_no 0 and `e` set when this side could not even try (socket(), the source binding).
 */
int net_connect_start(const struct sockaddr *sa, socklen_t len, const struct net_connect_opts *o,
		      int *err_no, struct err *e);
/* How a connect net_connect_start() left under way ended: 0 connected, else its errno. */
int net_connect_result(int fd);

/* A numeric address (no DNS: peers send addresses, never names) and a port into *ss. */
int net_sockaddr(const char *addr, int port, struct sockaddr_storage *ss, socklen_t *len,
		 struct err *e);
void net_sockaddr_set_port(struct sockaddr_storage *ss, int port);
/* A socket of `family` and `type`, close-on-exec, non-blocking when `nonblock`. */
int net_socket(int family, int type, int nonblock, struct err *e);
/* Binds a socket to o's source interface and address (either may be NULL or "") before use. */
int net_bind_source(int fd, int family, const struct net_connect_opts *o, struct err *e);
/*
 * A UDP socket connected to the numeric addr:port from o's source. With `df`, the path-MTU
 * probing options (don't fragment, no local fragmentation, IP_RECVERR: the kernel's and the
 * hops' "too big" come back on the error queue). -1 with e and errno.
 */
int net_udp_connect(const char *addr, int port, const struct net_connect_opts *o, int df,
		    struct err *e);
/* A UDP socket bound to the numeric addr:port (0: ephemeral), non-blocking; -1 with e, errno. */
int net_udp_bind(const char *addr, int port, struct err *e);
/*
 * Which local address the routing table picks towards the numeric `addr` (from `src` when it
 * is set): a connected UDP socket sends nothing, it only asks the routes.
 */
int net_route_source(const char *addr, const char *src, struct sockaddr_storage *local,
		     struct err *e);

/*
 * TCP's own view of a connection (TCP_INFO): segments sent and not yet acknowledged, and the
 * milliseconds since the peer's kernel last acknowledged anything. A peer whose process is
 * stopped still acknowledges; one whose link or host is gone does not. -1 when unknown.
 */
int net_tcp_acks(int fd, unsigned *unacked, unsigned *since_ack_ms);
/* The same for a host name or address (its first address): the local address, numeric. */
int net_route_source_name(const char *host, char *buf, size_t len, struct err *e);

/*
 * Listens on addr:port (addr NULL or "": every address, IPv6 dual-stack when it can, else IPv4;
 * port 0: an ephemeral port, read it back with net_local_port()). SO_REUSEADDR is set. When the
 * port is taken, the message names the process holding it, found under `proc_root` (NULL or "/":
 * the real /proc; else a tree that stands for /proc, as struct probe_opts' root_proc).
 */
int net_listen(const char *addr, int port, int backlog, const char *proc_root, struct err *e);
/* The same with NET_FULL_MSS / NET_QUIET_TAKEN; on failure errno is the bind's or listen's. */
int net_listen_flags(const char *addr, int port, int backlog, unsigned flags, const char *proc_root,
		     struct err *e);

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
/*
 * Reads what has come, up to `cap` bytes, waiting for some until `deadline_ms`: the count, 0 when
 * the peer closed, -1 with e as net_read_full's (ERR_TIMEOUT: nothing came in time).
 */
long net_read_some(int fd, void *buf, size_t cap, int64_t deadline_ms, struct err *e);

/* The local / remote port of a socket, or -1. */
int net_local_port(int fd);
/* The numeric address of a socket's remote end as "addr:port" (or "addr" with port 0). */
int net_peer_name(int fd, char *buf, size_t len, int with_port);
/* The same of its local end (after a connect: the source address the routes picked). */
int net_local_name(int fd, char *buf, size_t len, int with_port);

/*
 * Who listens on TCP `port` here: reads proc_root/net/tcp and tcp6 for a LISTEN socket on the
 * port, then proc_root/<pid>/fd/ for the process owning its inode. Writes "pid 1234 (python3)"
 * or, when the socket is found but not its owner (another user's process), "socket inode 5678"
 * into buf; returns 0, or -1 when no listener is on the port.
 */
int net_port_holder(const char *proc_root, int port, char *buf, size_t len);

/* Parses "host:port", "[v6]:port"; host is copied into `host`. -1 on anything else. */
int net_parse_hostport(const char *s, char *host, size_t hostlen, int *port);
/* The same for an address to listen on, where port 0 (an ephemeral port) is allowed. */
int net_parse_listen_hostport(const char *s, char *host, size_t hostlen, int *port);

#endif
