/*
 * host:port comes from flags and the job's environment (MASTER_ADDR:MASTER_PORT, --master,
 * bench's --peers) and numeric addresses from peers (the link tests): net/sock's parsers take any
 * text and either refuse it or hand back a host that fits and a port in range, never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/sock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char host[64], *s;
	int port = -1;

	if (size > 512)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (net_parse_hostport(s, host, sizeof(host), &port) == 0 &&
	    (port < 1 || port > 65535 || !host[0] || strlen(host) >= sizeof(host)))
		abort();
	if (net_parse_listen_hostport(s, host, sizeof(host), &port) == 0) {
		if (port < 0 || port > 65535 || !host[0])
			abort();
		/* a parsed host that is a numeric address (no DNS here: numeric only) */
		if (net_sockaddr(host, port, &ss, &len, NULL) == 0 &&
		    (len > sizeof(ss) || (ss.ss_family != AF_INET && ss.ss_family != AF_INET6)))
			abort();
	}
	free(s);
	return 0;
}
