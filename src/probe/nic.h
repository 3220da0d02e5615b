/*
 * Network probe internals that tests reach directly: classifying an interface from what sysfs and
 * the driver say, classing an address, and reading the kernel's route tables. All pure.
 */
#ifndef NCCLCHECK_PROBE_NIC_H
#define NCCLCHECK_PROBE_NIC_H

#include <stddef.h>

/* What /sys/class/net/<if>/ (and the driver, through ethtool) say about one interface. */
struct nic_traits {
	const char *name;
	int arphrd;		/* `type`: 1 ethernet, 32 infiniband, 772 loopback, 65534 none (tun) */
	int has_device;		/* a `device` link: a bus device (PCI, vmbus, virtio...) backs it */
	const char *driver;	/* device/driver link name, or the ethtool driver; may be NULL */
	int is_bridge;		/* a `bridge/` directory */
	int is_bond;		/* a `bonding/` directory */
	int is_tun;		/* a `tun_flags` file */
	int is_vlan;		/* the 8021q driver, or /proc/net/vlan lists it */
};

/* "physical", "veth", "bridge", "docker", "tun", "ib", "bond", "vlan", "loopback" or "other". */
const char *nic_kind(const struct nic_traits *t);

/*
 * "loopback", "link-local", "private" (RFC 1918, fc00::/7), "cgnat" (100.64.0.0/10),
 * "documentation" (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32), "multicast",
 * "unspecified" or "public". `family` is 4 or 6; `a` is in network byte order.
 */
const char *nic_addr_class(int family, const unsigned char *a);

/* A default route from /proc/net/route or /proc/net/ipv6_route text. */
struct nic_route {
	char ifname[32];
	char gateway[64];	/* "" when on-link */
	long metric;
};

/* Returns 1 with the lowest-metric IPv4 default route in *out, 0 when there is none. */
int nic_parse_route4(const char *text, size_t len, struct nic_route *out);
/* The same for IPv6 (::/0 in /proc/net/ipv6_route). */
int nic_parse_route6(const char *text, size_t len, struct nic_route *out);

#endif
