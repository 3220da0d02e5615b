/*
 * coll/boot_int.h: what the bootstrap's files share (boot_io.c: the control messages' framing
 * and the sockets; boot.c: the star, its collectives and the ring). Internal to src/coll.
 */
#ifndef NCCLCHECK_COLL_BOOT_INT_H
#define NCCLCHECK_COLL_BOOT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "coll/boot.h"
#include "net/sock.h"
#include "util/err.h"

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
	int relay; /* a forked child: its socketpair to the parent, which runs every collective */
};

void boot_put32(unsigned char *p, uint32_t v);
uint32_t boot_get32(const unsigned char *p);
void boot_put64(unsigned char *p, uint64_t v);
uint64_t boot_get64(const unsigned char *p);
int64_t boot_deadline_in(long ms);
int boot_send_msg(int fd, enum msg_type type, int rank, const void *payload, size_t len,
                    int64_t deadline, struct err *e);
int boot_decode_hdr(const unsigned char *h, struct hdr *out, struct err *e);
int boot_recv_msg(int fd, struct hdr *h, void *buf, size_t cap, int64_t deadline, struct err *e);
int boot_expect_msg(int fd, enum msg_type type, void *buf, size_t len, int64_t deadline,
                      struct err *e);
int boot_listen_on(const char *host, int port, struct err *e);
int boot_connect_retry(const char *host, int port, int64_t deadline, struct err *e);
/* A forked child's collective, run by the parent (boot_relay.c): `op` with out[olen], the
 * answer into in[ilen]. */
int boot_relay_call(struct boot *b, const char *op, const void *out, size_t olen, void *in,
		    size_t ilen, struct err *e);
int boot_accept_until(int lfd, int64_t deadline, struct err *e);

#endif
