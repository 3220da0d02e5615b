/* Summarises NCCL's INFO lines: network, channels, transports, algorithm and protocol. */
#include "coll/nccl_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void nccl_log_init(struct nccl_log_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->coll_channels = -1;
}

/* NCCL before 2.2x printed the tuning choice as numbers: algorithm and protocol indices. */
static const char *algo_name(int a)
{
	static const char *const n[] = {"Tree",     "Ring", "CollNetDirect", "CollNetChain", "NVLS",
	                                "NVLSTree", "PAT"};
	return a >= 0 && a < (int)(sizeof(n) / sizeof(n[0])) ? n[a] : "?";
}

static const char *proto_name(int p)
{
	static const char *const n[] = {"LL", "LL128", "Simple"};
	return p >= 0 && p < 3 ? n[p] : "?";
}

static void add_choice(struct nccl_log_summary *s, const char *coll, long long bytes,
                       const char *algo, const char *proto)
{
	for (size_t i = 0; i < s->nchoices; i++)
		if (s->choices[i].bytes == bytes && !strcmp(s->choices[i].coll, coll))
			return;
	if (s->nchoices == NCCL_LOG_MAX)
		return;
	snprintf(s->choices[s->nchoices].coll, sizeof(s->choices[0].coll), "%.23s", coll);
	s->choices[s->nchoices].bytes = bytes;
	snprintf(s->choices[s->nchoices].algo, sizeof(s->choices[0].algo), "%.15s", algo);
	snprintf(s->choices[s->nchoices].proto, sizeof(s->choices[0].proto), "%.15s", proto);
	s->nchoices++;
}

void nccl_log_line(struct nccl_log_summary *s, const char *line)
{
	const char *p = strstr(line, "NCCL INFO ");
	char a[48], b[48], coll[24];
	int from, to, n, ia, ib;
	long long bytes;

	p = p ? p + 10 : line;
	if (sscanf(p, "Using network %31s", s->network) == 1)
		return;
	if (!strncmp(p, "NET/Socket : Using ", 19) || !strncmp(p, "NET/IB : Using ", 15)) {
		const char *v = strstr(p, "Using ") + 6;
		snprintf(s->ifaces, sizeof(s->ifaces), "%.*s", (int)strcspn(v, "\r\n;"), v);
		return;
	}
	ia = 0;
	if (sscanf(p, "%d coll channels%n", &n, &ia) == 1 && ia > 0) {
		s->coll_channels = n;
		return;
	}
	/* "Channel 00/0 : 0[0] -> 1[1] [send] via NET/Socket/0" (also without the /0 and [send]) */
	if (!strncmp(p, "Channel ", 8)) {
		const char *arrow = strstr(p, " -> "), *via = strstr(p, " via ");
		const char *colon = strstr(p, " : ");
		if (!arrow || !via || !colon || sscanf(colon + 3, "%d", &from) != 1 ||
		    sscanf(arrow + 4, "%d", &to) != 1 || sscanf(via + 5, "%47s", a) != 1)
			return;
		if (strstr(p, "[receive]"))
			return; /* each link is counted once, from its sending side */
		for (size_t i = 0; i < s->nlinks; i++)
			if (s->links[i].from == from && s->links[i].to == to &&
			    !strcmp(s->links[i].via, a)) {
				s->links[i].channels++;
				return;
			}
		if (s->nlinks < NCCL_LOG_MAX) {
			s->links[s->nlinks].from = from;
			s->links[s->nlinks].to = to;
			snprintf(s->links[s->nlinks].via, sizeof(s->links[0].via), "%s", a);
			s->links[s->nlinks++].channels = 1;
		}
		return;
	}
	/* 2.2x: "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..1}" */
	if (sscanf(p, "%23[A-Za-z]: %lld Bytes -> Algo %47s proto %47s", coll, &bytes, a, b) == 4) {
		add_choice(s, coll, bytes, a, b);
		return;
	}
	/* older: "1048576 Bytes -> Algo 1 proto 2 time 123.4" */
	if (sscanf(p, "%lld Bytes -> Algo %d proto %d", &bytes, &ia, &ib) == 3)
		add_choice(s, "Collective", bytes, algo_name(ia), proto_name(ib));
}

static void push(char ***lines, size_t *n, char *l)
{
	*lines = xrealloc(*lines, (*n + 1) * sizeof(**lines));
	(*lines)[(*n)++] = l;
}

size_t nccl_log_describe(const struct nccl_log_summary *s, char ***lines)
{
	size_t n = 0;

	*lines = NULL;
	if (s->network[0] || s->coll_channels >= 0)
		push(lines, &n,
		     s->ifaces[0] ? xasprintf(N_("NCCL chose: network %s over %s, %d coll channels"),
		                              s->network[0] ? s->network : "?", s->ifaces,
		                              s->coll_channels)
		                  : xasprintf(N_("NCCL chose: network %s, %d coll channels"),
		                              s->network[0] ? s->network : "?", s->coll_channels));
	for (size_t i = 0; i < s->nlinks; i++)
		push(lines, &n,
		     xasprintf(N_("NCCL transport: rank %d -> %d via %s (%d channel%s)"),
		               s->links[i].from, s->links[i].to, s->links[i].via,
		               s->links[i].channels, s->links[i].channels > 1 ? "s" : ""));
	/* algorithm/protocol runs: "AllReduce 1024..65536 B Tree/LL" */
	for (size_t i = 0; i < s->nchoices;) {
		size_t j = i;
		while (j + 1 < s->nchoices && !strcmp(s->choices[j + 1].coll, s->choices[i].coll) &&
		       !strcmp(s->choices[j + 1].algo, s->choices[i].algo) &&
		       !strcmp(s->choices[j + 1].proto, s->choices[i].proto))
			j++;
		if (j == i)
			push(lines, &n,
			     xasprintf(N_("NCCL algorithm: %s %lld B %s/%s"), s->choices[i].coll,
			               s->choices[i].bytes, s->choices[i].algo,
			               s->choices[i].proto));
		else
			push(lines, &n,
			     xasprintf(N_("NCCL algorithm: %s %lld..%lld B %s/%s"), s->choices[i].coll,
			               s->choices[i].bytes, s->choices[j].bytes, s->choices[i].algo,
			               s->choices[i].proto));
		i = j + 1;
	}
	return n;
}

int nccl_log_note_net(const char *note, char *net, size_t netlen, char *ifname, size_t iflen,
                      int *uses_net)
{
	const char *p, *over;

	if (!strncmp(note, "NCCL transport: ", 16)) {
		if (strstr(note, " via NET/"))
			*uses_net = 1;
		return 0;
	}
	if (strncmp(note, "NCCL chose: network ", 20))
		return 0;
	p = note + 20;
	snprintf(net, netlen, "%.*s", (int)strcspn(p, " ,"), p);
	ifname[0] = 0;
	over = strstr(p, " over ");
	if (over) {
		/* "[0]eth1:10.10.0.10<0>" (Socket) or "[0]mlx5_0:1/IB" (IB) */
		over += 6;
		if (*over == '[' && strchr(over, ']'))
			over = strchr(over, ']') + 1;
		if (!strcmp(net, "IB"))
			snprintf(ifname, iflen, "%.*s", (int)strcspn(over, "/ ,<["), over);
		else
			snprintf(ifname, iflen, "%.*s", (int)strcspn(over, ": ,<["), over);
	}
	return 1;
}
