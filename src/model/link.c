/* Link measurements as data: names, and what a link can carry. See link.h. */
#include "model/link.h"

#include <math.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const kind_names[] = { "connect", "scan", "mtu", "bw" };
static const char *const status_names[LINK_STATUS_N] = {
	"ok", "refused", "timeout", "noroute", "hostunreach", "error",
};
static const char *const state_names[LINK_PORT_STATE_N] = {
	"untested", "open", "rejected", "dropped", "unreach", "in_use", "error",
};

static int name_parse(const char *const *names, int n, const char *s, int *out)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(names[i], s)) {
			*out = i;
			return 0;
		}
	return -1;
}

const char *link_kind_name(enum link_kind k)
{
	return (unsigned)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "?";
}

int link_kind_parse(const char *s, enum link_kind *out)
{
	int v;

	if (name_parse(kind_names, (int)ARRAY_SIZE(kind_names), s, &v) < 0)
		return -1;
	*out = (enum link_kind)v;
	return 0;
}

const char *link_status_name(enum link_status s)
{
	return (unsigned)s < LINK_STATUS_N ? status_names[s] : "?";
}

int link_status_parse(const char *s, enum link_status *out)
{
	int v;

	if (name_parse(status_names, LINK_STATUS_N, s, &v) < 0)
		return -1;
	*out = (enum link_status)v;
	return 0;
}

const char *link_port_state_name(enum link_port_state s)
{
	return (unsigned)s < LINK_PORT_STATE_N ? state_names[s] : "?";
}

int link_port_state_parse(const char *s, enum link_port_state *out)
{
	int v;

	if (name_parse(state_names, LINK_PORT_STATE_N, s, &v) < 0)
		return -1;
	*out = (enum link_port_state)v;
	return 0;
}

void ceiling_compute(double speed_mbps, int nominal, int mtu, int ipv6, struct link_ceiling *c)
{
	int hdr = ipv6 ? 72 : 52;

	memset(c, 0, sizeof(*c));
	c->mtu = mtu;
	c->ipv6 = ipv6;
	c->nominal = nominal;
	c->line_gbps = speed_mbps > 0 ? speed_mbps / 1000.0 : 0;
	c->goodput_frac = mtu > hdr ? (double)(mtu - hdr) / (double)(mtu + 38) : 0;
	c->ceiling_gbps = c->line_gbps * c->goodput_frac;
}

double ceiling_percent(const struct link_ceiling *c, double measured_gbps)
{
	if (c->ceiling_gbps <= 0)
		return -1;
	return 100.0 * measured_gbps / c->ceiling_gbps;
}

static int clampi(double v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : (int)v;
}

double link_handshake_share(int retrans, int done)
{
	if (retrans <= 0)
		return 0;
	return done > retrans ? (double)retrans / (done - retrans) : 1;
}

double link_loss_from_share(double q)
{
	if (q <= 0)
		return 0;
	if (q >= 1)
		return 100;
	return 100.0 * (1.0 - sqrt(1.0 - q));
}

/*
 * Why these figures: Linux retransmits an unanswered SYN after 1 s (then 2 s, 4 s), so a first
 * look that waits less than 1 s sees a lost SYN or SYN-ACK as a drop, and a look again that
 * waits 1 s plus the round trip sees it only when both tries were lost. Three round trips cover
 * the p99 spread of a queue; the floors are what a LAN under load needed (400 ms per port).
 * Looks again: a port dropped by loss survives k of them with probability q^(2k) (q: the share
 * of connects with a loss), a filtered one always; k is the least that leaves under 0.01 of
 * the range's ~28,000 ports standing by chance.
 */
void link_timeouts_derive(double rtt_us, double loss_pct, struct link_timeouts *t)
{
	double rtt = rtt_us > 0 ? rtt_us / 1000.0 : 0;
	double p = loss_pct > 0 ? loss_pct / 100.0 : 0, q = 1 - (1 - p) * (1 - p);
	double standing = 28232.0 * q;

	t->connect_ms = clampi(2000 + 3 * rtt, 2000, 10000);
	t->scan_ms = clampi(300 + 3 * rtt, LINK_SCAN_FIRST_FLOOR_MS, 5000);
	t->retry_ms = clampi(1500 + 3 * rtt, 1500, 8000);
	t->mtu_ms = clampi(250 + 3 * rtt, 250, 5000);
	t->bw_stall_ms = clampi(3000 + 4 * rtt, 3000, 15000);
	t->looks = 1;
	while (q > 0 && t->looks < LINK_LOOKS_MAX && (standing *= q * q) >= 0.01)
		t->looks++;
}

int link_scan_port_state(const struct link_scan_result *s, uint16_t port)
{
	/* in-use ports sit inside a run of another state: they come first */
	for (size_t i = 0; i < s->nin_use; i++)
		if (s->in_use[i] == port)
			return LINK_PORT_IN_USE;
	for (size_t i = 0; i < s->niv; i++)
		if (s->iv[i].lo <= port && port <= s->iv[i].hi)
			return (int)s->iv[i].state;
	return -1;
}

int link_connect_contradicted(const struct link_connect_result *c, const struct link_scan_result *s)
{
	if (!c || !s || c->status == LINK_OK)
		return 0;
	for (int i = 0; i < c->ntries; i++)
		if (c->tries[i].status == LINK_TIMEOUT &&
		    link_scan_port_state(s, c->tries[i].port) == LINK_PORT_OPEN)
			return 1;
	return 0;
}

int link_scan_starved(const struct link_scan_result *s)
{
	/* answers the kernel took while this process slept still count (the scan looks before it
	 * expires a port), so only a stall of two looks again and more leaves no trust in drops */
	int stall = s->retry_ms > LINK_SCAN_RETRY_TIMEOUT_MS ? 2 * s->retry_ms : LINK_SCAN_STARVED_MS;

	return s->late_ms >= stall && s->counts[LINK_PORT_DROPPED] > 0;
}
