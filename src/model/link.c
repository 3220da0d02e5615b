/* Link measurements as data: names, and what a link can carry. See link.h. */
#include "model/link.h"

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
