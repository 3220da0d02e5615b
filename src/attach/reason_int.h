/*
 * Internal to attach_reason() (reason.c, reason_fr.c): the reasoning context and the helpers
 * that the RAS and flight-recorder halves share. Not a public interface.
 */
#ifndef NCCLCHECK_ATTACH_REASON_INT_H
#define NCCLCHECK_ATTACH_REASON_INT_H

#include <stdint.h>

#include "attach/attach.h"
#include "util/strbuf.h"

/* Below this share of one core between two polls, a process is not computing. */
#define IDLE_CPU_PCT 5.0

enum pkind { P_UNKNOWN = 0, P_GONE, P_STOPPED, P_ZOMBIE, P_DSTATE, P_IDLE, P_BUSY, P_ALIVE };

struct who {
	int rank;
	char host[64];
	int pid;
	int gpu;
	int known;		/* RAS told us host/pid/gpu */
};

struct ctx {
	const struct attach_data *d;
	struct findings *fs;
	const struct ras_report *first, *last;	/* first and last decoded RAS reports */
	int64_t first_t, last_t;
	const struct ras_comm *main;	/* the largest communicator of the last report */
	struct strbuf verdict;
	int vprio;		/* lower is stronger */
};

void reason_verdict(struct ctx *c, int prio, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Rank numbers are per communicator: `cm` is the one `rank` belongs to. */
int reason_find_who(const struct ras_comm *cm, int rank, struct who *w);
void reason_who_str(const struct who *w, struct strbuf *sb);
/* What process `pid` on `host` (NULL: this node) does: this node's samples, else what the
 * attach on its own node said; "" and P_UNKNOWN when neither knows. */
enum pkind reason_proc_doing(const struct ctx *c, const char *host, int pid, struct strbuf *sb);

/* The flight-recorder half (reason_fr.c). */
void reason_fr(struct ctx *c);

#endif
