/* addr: see addr.h. */
#include "util/addr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static int in4(const unsigned char *a, unsigned b0, unsigned b1, unsigned b2, int bits)
{
	unsigned long x = ((unsigned long)a[0] << 24) | ((unsigned long)a[1] << 16) |
			  ((unsigned long)a[2] << 8) | a[3];
	unsigned long n = ((unsigned long)b0 << 24) | ((unsigned long)b1 << 16) | ((unsigned long)b2 << 8);
	unsigned long mask = bits ? (0xffffffffUL << (32 - bits)) & 0xffffffffUL : 0;

	return (x & mask) == (n & mask);
}

enum addr_class addr_classify(int family, const unsigned char *a)
{
	static const unsigned char zero[16];

	if (family == 6) {
		static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

		if (!memcmp(a, mapped, 12))
			return addr_classify(4, a + 12);
		if (!memcmp(a, zero, 15))
			return a[15] == 1 ? ADDR_LOOPBACK : a[15] == 0 ? ADDR_UNSPECIFIED : ADDR_PUBLIC;
		if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
			return ADDR_LINK_LOCAL;
		if ((a[0] & 0xfe) == 0xfc)
			return ADDR_PRIVATE;
		if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8)
			return ADDR_DOCUMENTATION;
		if (a[0] == 0xff)
			return ADDR_MULTICAST;
		return ADDR_PUBLIC;
	}
	if (family != 4)
		return ADDR_UNKNOWN;
	if (!memcmp(a, zero, 4))
		return ADDR_UNSPECIFIED;
	if (a[0] == 127)
		return ADDR_LOOPBACK;
	if (in4(a, 169, 254, 0, 16))
		return ADDR_LINK_LOCAL;
	if (a[0] == 10 || in4(a, 172, 16, 0, 12) || in4(a, 192, 168, 0, 16))
		return ADDR_PRIVATE;
	if (in4(a, 100, 64, 0, 10))
		return ADDR_CGNAT;
	if (in4(a, 192, 0, 2, 24) || in4(a, 198, 51, 100, 24) || in4(a, 203, 0, 113, 24))
		return ADDR_DOCUMENTATION;
	if (a[0] >= 224 && a[0] < 240)
		return ADDR_MULTICAST;
	return ADDR_PUBLIC;
}

int addr_parse(const char *text, int *family, unsigned char addr[16])
{
	memset(addr, 0, 16);
	if (!text)
		return -1;
	if (inet_pton(AF_INET, text, addr) == 1) {
		*family = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, text, addr) == 1) {
		*family = 6;
		return 0;
	}
	return -1;
}

enum addr_class addr_classify_text(const char *text)
{
	char buf[64];
	unsigned char a[16];
	int family;

	if (!text)
		return ADDR_UNKNOWN;
	snprintf(buf, sizeof(buf), "%s", text);
	buf[strcspn(buf, "%")] = '\0';
	if (addr_parse(buf, &family, a) < 0)
		return ADDR_UNKNOWN;
	return addr_classify(family, a);
}

const char *addr_class_name(enum addr_class c)
{
	switch (c) {
	case ADDR_UNSPECIFIED: return "unspecified";
	case ADDR_LOOPBACK: return "loopback";
	case ADDR_LINK_LOCAL: return "link-local";
	case ADDR_PRIVATE: return "private";
	case ADDR_CGNAT: return "cgnat";
	case ADDR_DOCUMENTATION: return "documentation";
	case ADDR_MULTICAST: return "multicast";
	case ADDR_PUBLIC: return "public";
	case ADDR_UNKNOWN: break;
	}
	return "unknown";
}

int addr_class_public_like(enum addr_class c)
{
	return c == ADDR_PUBLIC || c == ADDR_DOCUMENTATION;
}

static unsigned char mask_byte(int prefixlen, int i)
{
	int bits = prefixlen - i * 8;

	return bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));
}

int addr_same_subnet(int family, const unsigned char *a, const unsigned char *b, int prefixlen)
{
	int bytes = family == 4 ? 4 : 16;

	if (prefixlen < 0 || prefixlen > bytes * 8)
		return 0;
	for (int i = 0; i < bytes; i++)
		if ((a[i] & mask_byte(prefixlen, i)) != (b[i] & mask_byte(prefixlen, i)))
			return 0;
	return 1;
}

void addr_subnet_text(int family, const unsigned char *a, int prefixlen, const char *text, char *buf,
		      size_t len)
{
	unsigned char b[16];
	int bytes = family == 4 ? 4 : 16;
	char t[INET6_ADDRSTRLEN];

	if (prefixlen < 0 || prefixlen > bytes * 8) {
		snprintf(buf, len, "%s", text ? text : "?");
		return;
	}
	memcpy(b, a, 16);
	for (int i = 0; i < bytes; i++)
		b[i] &= mask_byte(prefixlen, i);
	inet_ntop(family == 4 ? AF_INET : AF_INET6, b, t, sizeof(t));
	snprintf(buf, len, "%s/%d", t, prefixlen);
}
