/*
 * The link agent: what a node runs to take part in link tests, whatever carries the messages
 * (the cluster's protocol, link_ctl's control connection, a unit test calling it directly).
 *
 * Messages (JSON objects, decoded strictly; anything else is rejected with a message):
 *   {"op": "start", "req": REQ}           -> {"id": N, "ready": READY}   target side
 *   {"op": "run", "req": REQ, "ready": R} -> {"result": RESULT}          peer side
 *   {"op": "stop", "id": N}               -> {}                          target side
 * REQ, READY and RESULT are link_req_to_json / link_ready_to_json / link_result_to_json. A
 * "run" blocks for the length of the test (a bandwidth run: its duration; a scan batch: about
 * timeout_ms); call the agent from a thread that may block that long. Thread-safe.
 */
#ifndef NCCLCHECK_LINK_AGENT_H
#define NCCLCHECK_LINK_AGENT_H

#include <jansson.h>

#include "link/link.h"

#define LINK_AGENT_SERVERS_MAX 16	/* servers one agent keeps open at once */

struct link_agent;

struct link_agent *link_agent_new(void);
/* Stops every server still open. NULL is fine. */
void link_agent_free(struct link_agent *a);

/* Handles one message; returns the reply (new reference) or NULL with `e` set. */
json_t *link_agent_handle(struct link_agent *a, const json_t *msg, struct err *e);

/* How long a channel should wait for the reply to a message about `req` (ms). */
int link_msg_timeout_ms(const struct link_req *req, const char *op);

/* A link_chan over two in-process agents (tests; a node testing its own interfaces). */
struct link_local_chan {
	struct link_agent *target, *peer;
};
json_t *link_local_call(void *arg, enum link_side side, const json_t *msg, int timeout_ms,
			struct err *e);

#endif
