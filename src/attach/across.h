/*
 * attach on every node of a job at once, over `cluster`'s rendezvous (rdv/rdv.h: the same
 * launch styles, MASTER_ADDR:MASTER_PORT, token and bounded waits). Each node collects as a lone
 * attach does (RAS polls, /proc, its local ranks' Python stacks) while the nodes join; each
 * worker sends what its local ranks do (attach/jobstacks.h); the master reasons over its own
 * collection with every node's words for its ranks, so the verdict names the code of a rank on
 * another node, groups every rank's stack, and sends one report that every node prints.
 */
#ifndef NCCLCHECK_ATTACH_ACROSS_H
#define NCCLCHECK_ATTACH_ACROSS_H

#include <jansson.h>

#include "attach/attach.h"
#include "rdv/rdv.h"

/* the whole answer; the collection, the join and the gather are cut to fit in it */
#define ACROSS_ANSWER_MS 14000
#define ACROSS_COLLECT_MS 9000

struct across_opts {
	struct rdv_opts rdv;	/* join_timeout_ms: how long the master waits for every node */
	long answer_ms;		/* the master's whole answer (default ACROSS_ANSWER_MS) */
	/* called with the report as soon as it is known, before the goodbyes (NULL: none) */
	void (*deliver)(void *arg, const json_t *doc, int code);
	void *deliver_arg;
};

/*
 * Runs this node's part. On success *doc is the report every node prints (new reference):
 * {"payload": attach's payload with "job_stack_groups" and "nodes", "findings": [...]} and
 * *code its exit code (the master's, the same on every node). -1 with `e` when nothing could
 * be said at all (the port is taken, the master never answered and sent no report).
 */
int attach_across(const struct attach_opts *o, const struct across_opts *x, json_t **doc,
		  int *code, struct err *e);

#endif
