/*
 * Internals shared by the link_*.c files (not for other modules): socket helpers with
 * deadlines, and each kind's server and client entry points behind link_server_start /
 * link_client_run. Full reads and writes with deadlines are net/sock.h's; see link_test.h.
 */
#ifndef NCCLCHECK_LINK_INT_H
#define NCCLCHECK_LINK_INT_H

#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>

#include "link/link.h"
#include "net/sock.h"

/* Every server starts with this; `stop` frees the whole object. */
struct link_server {
	enum link_kind kind;
	void (*stop)(struct link_server *s, int wait_ms);
};

/* 1 when `addr` is a numeric IPv4 or IPv6 address. */
int link_addr_valid(const char *addr);
/*
 * What the link tests' sockets ask of net/sock: the path's own segment size, and a source
 * interface that without CAP_NET_RAW leaves the choice to the source address and the routes.
 */
#define LINK_CONNECT_OPTS(src, ifname)                                                      \
	((struct net_connect_opts){ .src_addr = (src), .src_ifname = (ifname),              \
				    .flags = NET_FULL_MSS | NET_SOFT_IFNAME })
/*
 * Non-blocking connect until the deadline. Returns the connected fd, or -1 with *st (and
 * *err_out) saying what the attempt met; `e` only carries local failures.
 */
int link_connect_to(const char *addr, uint16_t port, const char *src, const char *ifname,
		    int timeout_ms, enum link_status *st, int *err_out, struct err *e);
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

/*
 * The loss probe's wait (connect.c): settles the connects under way in p[] (fd -1: none),
 * each POLLOUT, until `deadline_ms`. A connect that completed by then is answered however late
 * the process looks; one still under way, or refused, is counted unanswered. Closes them all.
 */
void link_probe_wait(struct pollfd *p, int n, int64_t deadline_ms,
		     struct link_connect_result *c);

/* Percentile (0..100) of a sorted array, nearest rank. */
double link_percentile(const double *sorted, int n, double pct);
/* The RTT figures of `n` ping times (sorted in place): min and max of all; p50 and p99 of the
 * round trips that needed no retransmit (a time TCP_RTO_MIN past the fastest waited for one). */
void link_rtt_figures(double *rtt, int n, struct link_connect_result *c);

#endif
