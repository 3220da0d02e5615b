/*
 * NCCL_SOCKET_IFNAME, NCCL_SOCKET_FAMILY and NCCL_COMM_ID come from the user's environment and
 * config files: the grammar parsers and the prediction must take any bytes. Input: three
 * NUL-separated strings (ifname, family, comm id) run against a fixed interface list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/ifselect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void addr(struct ifs_addr *a, const char *name, int family, const unsigned char *b, int plen,
		 unsigned scope, int running, const char *text)
{
	memset(a, 0, sizeof(*a));
	a->name = name;
	a->family = family;
	memcpy(a->addr, b, family == 4 ? 4 : 16);
	a->prefixlen = plen;
	a->scope_id = scope;
	a->ifindex = scope;
	a->running = running;
	a->text = text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char lo4[4] = { 127, 0, 0, 1 }, e0[4] = { 203, 0, 113, 10 }, e1[4] = { 10, 0, 0, 2 };
	static const unsigned char lo6[16] = { [15] = 1 }, ll[16] = { 0xfe, 0x80, [15] = 2 };
	struct ifs_addr a[5];
	struct ifs_input in;
	struct ifs_result r;
	char *buf, *parts[3] = { NULL, NULL, NULL };
	size_t n = 0;

	if (size > 1 << 16)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	parts[0] = buf;
	for (size_t i = 0; i < size && n < 2; i++)
		if (!buf[i])
			parts[++n] = buf + i + 1;
	addr(&a[0], "lo", 4, lo4, 8, 0, 1, "127.0.0.1");
	addr(&a[1], "eth0", 4, e0, 24, 0, data[0] & 1, "203.0.113.10");
	addr(&a[2], "eth1", 4, e1, 24, 0, 1, "10.0.0.2");
	addr(&a[3], "lo", 6, lo6, 128, 0, 1, "::1");
	addr(&a[4], "eth1", 6, ll, 64, 3, 1, "fe80::2");
	memset(&in, 0, sizeof(in));
	in.addrs = a;
	in.naddrs = 5;
	in.socket_ifname = parts[0];
	in.socket_family = parts[1];
	in.comm_id = parts[2];
	version_parse(size && (data[size - 1] & 1) ? "2.27.7" : "2.28.9", &in.nccl);
	ifs_predict(&in, &r);
	free(buf);
	return 0;
}
