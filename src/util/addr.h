/*
 * IP addresses as data: the one classification of an address for the whole program (probes record
 * it in facts, rules and explain reason with it), text parsing, and subnet arithmetic. Pure.
 */
#ifndef NCCLCHECK_UTIL_ADDR_H
#define NCCLCHECK_UTIL_ADDR_H

#include <stddef.h>

enum addr_class {
	ADDR_UNKNOWN = 0,	/* not an IP address */
	ADDR_UNSPECIFIED,	/* 0.0.0.0, :: */
	ADDR_LOOPBACK,		/* 127/8, ::1 */
	ADDR_LINK_LOCAL,	/* 169.254/16, fe80::/10 */
	ADDR_PRIVATE,		/* RFC 1918, fc00::/7 */
	ADDR_CGNAT,		/* 100.64/10 */
	ADDR_DOCUMENTATION,	/* 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32 */
	ADDR_MULTICAST,
	ADDR_PUBLIC,
};

/* `family` 4 or 6, `a` in network byte order; IPv4-mapped IPv6 is classified as IPv4. */
enum addr_class addr_classify(int family, const unsigned char *a);
/* The class of a textual address ("%scope" suffix allowed); ADDR_UNKNOWN when it is none. */
enum addr_class addr_classify_text(const char *text);
/* "private", "public", "loopback", "link-local", "cgnat", "documentation", "multicast", ... */
const char *addr_class_name(enum addr_class c);
/* Public, or in a documentation range (which lab and examples use as stand-ins for public). */
int addr_class_public_like(enum addr_class c);

/* Parses IPv4 or IPv6 text (no scope) into 16 bytes; returns 0 and sets *family (4/6), or -1. */
int addr_parse(const char *text, int *family, unsigned char addr[16]);
/* Whether a and b (same family) agree in their first `prefixlen` bits. */
int addr_same_subnet(int family, const unsigned char *a, const unsigned char *b, int prefixlen);
/*
 * "10.0.0.0/24" for address `a` with `prefixlen` into buf; when prefixlen is out of range, the
 * address itself (`text`).
 */
void addr_subnet_text(int family, const unsigned char *a, int prefixlen, const char *text, char *buf,
		      size_t len);

#endif
