/*
 * A bounded HTTP/1.1 client for PyTorch's per-rank WorkerServer (torch/csrc/distributed/c10d/
 * control_plane/WorkerServer.cpp, cpp-httplib): "POST /handler/<name>?params" on a Unix socket
 * (TORCH_WORKER_SERVER_SOCKET) or on TCP. Only this machine: a Unix socket, or a loopback
 * address. One request per connection, a deadline for all of it, a cap on the body.
 */
#ifndef NCCLCHECK_ATTACH_HTTP_H
#define NCCLCHECK_ATTACH_HTTP_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

/* "unix:/path", "http://127.0.0.1:PORT", "http://[::1]:PORT", "http://localhost:PORT". */
int http_url_ok(const char *url, struct err *e);

/*
 * POSTs an empty body to `target` ("/handler/dump_nccl_trace_pickle?onlyactive=false") and
 * leaves the body of a 200 answer in `body`. -1 with `e` on any other status, a malformed or
 * oversized answer, or the deadline.
 */
int http_post(const char *url, const char *target, size_t max_body, long deadline_ms,
	      struct strbuf *body, struct err *e);

#endif
