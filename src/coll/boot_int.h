/*
 * coll/boot_int.h: what the bootstrap's files share (boot.c: the star over rdv/, its collectives
 * and the ring; boot_relay.c: a forked child's collectives run by its parent). Internal to
 * src/coll.
 */
#ifndef NCCLCHECK_COLL_BOOT_INT_H
#define NCCLCHECK_COLL_BOOT_INT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "coll/boot.h"
#include "rdv/rdv.h"
#include "util/err.h"

#define BOOT_ADDR 64

struct boot {
	int rank, world;
	long timeout_ms;
	uint64_t hash, nonce;
	struct rdv *rdv; /* NULL for a world of one, and in a forked child */
	long step;       /* every rank runs the same collectives in the same order: their number */
	int gave_up;     /* this rank told the others why it stops: flush that before closing */
	int lfd;         /* the ring's listener */
	char (*addr)[BOOT_ADDR];
	int *port;
	char (*name)[BOOT_ADDR + 32];
	int relay; /* a forked child: its socketpair to the parent, which runs every collective */
};

/* `len` bytes as a JSON string of hex digits. */
json_t *boot_hex(const void *p, size_t len);
/* Exactly `len` bytes from such a string, or -1. */
int boot_unhex(const json_t *j, void *out, size_t len);
int64_t boot_deadline_in(long ms);
/* A forked child's collective, run by the parent (boot_relay.c): `op` with out[olen], the
 * answer into in[ilen]. */
int boot_relay_call(struct boot *b, const char *op, const void *out, size_t olen, void *in,
		    size_t ilen, struct err *e);

#endif
