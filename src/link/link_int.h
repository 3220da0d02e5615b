/*
 * Internals shared by the link_*.c files (not for other modules): socket helpers with
 * deadlines, and each kind's server and client entry points behind link_server_start /
 * link_client_run. Full reads and writes with deadlines are net/sock.h's; see link_test.h.
 */
#ifndef NCCLCHECK_LINK_INT_H
#define NCCLCHECK_LINK_INT_H

#include <stdint.h>
#include <sys/socket.h>

#include "link/link.h"
#include "net/sock.h"

/* Every server starts with this; `stop` frees the whole object. */
struct link_server {
	enum link_kind kind;
	void (*stop)(struct link_server *s, int wait_ms);
};

/* A numeric address (no DNS: peers send addresses, never names) and a port. */
int link_sockaddr(const char *addr, uint16_t port, struct sockaddr_storage *ss, socklen_t *len,
		  struct err *e);
/* 1 when `addr` is a numeric IPv4 or IPv6 address. */
int link_addr_valid(const char *addr);
/* A socket of the address's family, CLOEXEC, non-blocking when `nonblock`. */
int link_socket(const struct sockaddr_storage *ss, int type, int nonblock, struct err *e);
/* Binds the client end to a source address and/or interface (either may be ""). */
int link_bind_source(int fd, int family, const char *src, const char *ifname, struct err *e);
/* Waits for `events` on fd until the monotonic deadline (ms); 1 ready, 0 timeout, -1 error. */
int link_poll(int fd, short events, int64_t deadline_ms);
/*
 * Non-blocking connect until the deadline. Returns the connected fd, or -1 with *st (and
 * *err_out) saying what the attempt met; `e` only carries local failures.
 */
int link_connect_to(const char *addr, uint16_t port, const char *src, const char *ifname,
		    int timeout_ms, enum link_status *st, int *err_out, struct err *e);
/* Full reads and writes until the deadline: 0 done, -1 with e (ERR_TIMEOUT, ERR_PEER, ERR_SYS). */
/* A listening TCP socket on addr:port (SO_REUSEADDR); -1 with errno kept for EADDRINUSE. */
int link_listen(const char *addr, uint16_t port, int backlog, uint16_t *bound, struct err *e);
/* An interface's MTU (SIOCGIFMTU), -1 when unknown. */
int link_if_mtu(const char *ifname);
/* Descriptors this process has open now (from /proc/self/fd). */
long link_open_fds(void);
/* Closes with an RST instead of a FIN (no TIME_WAIT left behind). */
void link_close_rst(int fd);

/* Server starts per kind (link_connect.c, link_scan.c, link_mtu.c, link_bw.c). */
struct link_server *link_connect_server(const struct link_req *req, struct link_ready *ready,
					struct err *e);
struct link_server *link_scan_server(const struct link_req *req, struct link_ready *ready,
				     struct err *e);
struct link_server *link_mtu_server(const struct link_req *req, struct link_ready *ready,
				    struct err *e);
struct link_server *link_bw_server(const struct link_req *req, struct link_ready *ready,
				   struct err *e);

/* Client runs per kind. */
int link_connect_client(const struct link_req *req, const struct link_ready *ready,
			struct link_result *res, struct err *e);
int link_scan_client(const struct link_req *req, const struct link_ready *ready,
		     struct link_result *res, struct err *e);
int link_mtu_client(const struct link_req *req, const struct link_ready *ready,
		    struct link_result *res, struct err *e);
int link_bw_client(const struct link_req *req, const struct link_ready *ready,
		   struct link_result *res, struct err *e);

/* Percentile (0..100) of a sorted array, nearest rank. */
double link_percentile(const double *sorted, int n, double pct);

#endif
