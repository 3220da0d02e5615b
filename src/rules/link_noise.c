/*
 * What the links' own measurements say before any test is judged: the round trip and the loss
 * the connect test measured on every link (link.latency, link.loss), and the tests that could
 * not run their probes in time (cluster.link.untested). Each is laid at the door of the one
 * node every slow or lossy link touches, when the links between the other nodes are clean (for
 * loss, over the handshakes of all its links pooled: loss_culprit); a pair is named only when
 * no single node explains it (two nodes: one link, both ends).
 *
 * Thresholds, from what NCCL does with a link:
 *   - latency: NCCL's ring all-reduce takes 2(N-1) steps, each at least one round trip, and its
 *     bootstrap a ring allgather of N steps; one TCP stream carries at most its receive window
 *     (tcp_rmem's default maximum, 6 MiB) per round trip. At 100 ms a 16-node all-reduce of any
 *     size costs >= 3 s and a NET/Socket stream <= 500 Mbit/s: a warning. From 10 ms (beyond a
 *     datacenter) a note; under that nothing to say.
 *   - loss: every TCP segment lost that fast retransmit does not repair stalls its connection
 *     for Linux's minimum RTO (200 ms), and a collective waits for its slowest connection: from
 *     0.5 % per packet (three or more retransmitted handshakes seen) a warning. Loss is never an
 *     error and never a firewall: the scans look again until lost SYNs have answered.
 */
#include "rules/cluster.h"

#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define LATENCY_WARN_MS 100.0
#define LATENCY_NOTE_MS 10.0
#define LOSS_WARN_PCT 0.5
#define LOSS_MIN_RETRANS 3
#define WINDOW_BYTES (6.0 * 1024 * 1024)

/* Per interface name: each unordered pair's figures over the connect tests of both ways. */
struct pairfig {
	int have;
	double rtt_ms;			/* the smaller p50 of the two directions */
	int probes, retrans;		/* loss probe connects that completed, and retransmitted */
};

static struct pairfig *fig(struct pairfig *m, size_t n, size_t a, size_t b)
{
	return &m[(a < b ? a : b) * n + (a < b ? b : a)];
}

static void collect(const struct cluster_view *v, const char *ifname, struct pairfig *m)
{
	memset(m, 0, v->n * v->n * sizeof(*m));
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		const struct link_connect_result *c = &l->res.c;
		struct pairfig *f;
		double rtt;

		if (l->kind != LINK_CONNECT || !l->ran || c->status != LINK_OK || !c->pings ||
		    strcmp(l->ifname, ifname) || l->peer == l->target)
			continue;
		f = fig(m, v->n, (size_t)l->peer, (size_t)l->target);
		rtt = c->rtt_p50_us / 1000.0;
		if (!f->have || rtt < f->rtt_ms)
			f->rtt_ms = rtt;
		f->have = 1;
		f->probes += c->probes - c->unanswered;
		f->retrans += c->retrans;
	}
}

/*
 * The node whose pairs are all bad while some pair without it is good and none is bad: a bad
 * pair it does not touch would be left unsaid under its name. -1 when none.
 */
static int culprit(const struct cluster_view *v, const struct pairfig *m,
		   int (*bad)(const struct pairfig *))
{
	int found = -1;

	for (size_t x = 0; x < v->n; x++) {
		int all_bad = 1, other_good = 0, other_bad = 0, any = 0;

		for (size_t a = 0; a < v->n; a++)
			for (size_t b = a + 1; b < v->n; b++) {
				const struct pairfig *f = &m[a * v->n + b];

				if (!f->have)
					continue;
				if (a == x || b == x) {
					any = 1;
					all_bad &= bad(f);
				} else {
					other_good |= !bad(f);
					other_bad |= bad(f);
				}
			}
		if (any && all_bad && other_good && !other_bad) {
			if (found >= 0)
				return -1;	/* two nodes fit: say the pairs */
			found = (int)x;
		}
	}
	return found;
}

static int slow(const struct pairfig *f) { return f->rtt_ms >= LATENCY_NOTE_MS; }

static double loss_of(const struct pairfig *f)
{
	return link_loss_from_share(link_handshake_share(f->retrans, f->probes));
}

static int lossy(const struct pairfig *f)
{
	return f->retrans >= LOSS_MIN_RETRANS && loss_of(f) >= LOSS_WARN_PCT;
}

/*
 * The node the loss is at: the pairs with it are lossy, pooled or one of them alone; the pairs
 * without it, pooled, show at most a quarter of its share; and no lossy pair leaves it out.
 * Pooled, because a pair holds a few hundred handshakes: at a 2-3 % loss one of a lossy node's
 * pairs alone can fall under the bar, and at 1 % one can pass it while the others do not, and
 * naming that pair would put an innocent end in the warning. -1 when no node, or more than
 * one, fits (then the lossy pairs are named).
 */
static int loss_culprit(const struct cluster_view *v, const struct pairfig *m)
{
	int found = -1;

	for (size_t x = 0; x < v->n; x++) {
		struct pairfig in = { 0 }, out = { 0 };
		int stray = 0, mine = 0;

		for (size_t a = 0; a < v->n; a++)
			for (size_t b = a + 1; b < v->n; b++) {
				const struct pairfig *f = &m[a * v->n + b];
				struct pairfig *pool = a == x || b == x ? &in : &out;

				if (!f->have)
					continue;
				pool->have = 1;
				pool->probes += f->probes;
				pool->retrans += f->retrans;
				stray |= pool == &out && lossy(f);
				mine |= pool == &in && lossy(f);
			}
		if (!in.have || !out.have || stray || !(mine || lossy(&in)) ||
		    4.0 * out.retrans * in.probes > (double)in.retrans * out.probes)
			continue;
		if (found >= 0)
			return -1;
		found = (int)x;
	}
	return found;
}

static void latency_finding(const struct cluster_view *v, const char *ifn, const struct pairfig *m,
			    int who, size_t a, size_t b, struct findings *out)
{
	struct strbuf ev = STRBUF_INIT;
	double worst = 0, least = -1;
	struct finding *f;
	int warn;

	for (size_t p = 0; p < v->n; p++)
		for (size_t q = p + 1; q < v->n; q++) {
			const struct pairfig *x = &m[p * v->n + q];

			if (!x->have || !slow(x) || (who >= 0 && p != (size_t)who && q != (size_t)who) ||
			    (who < 0 && (p != a || q != b)))
				continue;
			worst = x->rtt_ms > worst ? x->rtt_ms : worst;
			least = least < 0 || x->rtt_ms < least ? x->rtt_ms : least;
			strbuf_addf(&ev, "%s%s <-> %s %.0f ms", ev.len ? ", " : "", v->nodes[p].name,
				    v->nodes[q].name, x->rtt_ms);
		}
	warn = worst >= LATENCY_WARN_MS;
	if (who >= 0)
		f = finding_add(out, warn ? SEV_WARN : SEV_INFO, "link.latency",
				"the round trip to %s over %s is %.0f ms from every peer (%s); "
				"between the other nodes it is under %.0f ms", v->nodes[who].name, ifn,
				least, ev.buf, LATENCY_NOTE_MS);
	else
		f = finding_add(out, warn ? SEV_WARN : SEV_INFO, "link.latency",
				"the round trip %s -> %s over %s is %.0f ms", v->nodes[a].name,
				v->nodes[b].name, ifn, worst);
	if (who >= 0)
		finding_pair(f, v->nodes[who].name, NULL, ifn);
	else
		finding_pair(f, v->nodes[a].name, v->nodes[b].name, ifn);
	finding_why(f, "NCCL's ring all-reduce takes 2(N-1) steps of at least one round trip each "
		       "(at %.0f ms: %.1f s per all-reduce on 16 nodes, whatever its size), and one "
		       "NET/Socket stream carries at most its TCP window per round trip (%.0f Mbit/s "
		       "with the default 6 MiB). Expect slow init and small collectives; raise "
		       "NCCL_NSOCKS_PERTHREAD / NCCL_SOCKET_NTHREADS and tcp_rmem for bandwidth.",
		    worst, 30 * worst / 1000.0, WINDOW_BYTES * 8 / (worst / 1000.0) / 1e6);
	finding_evidence(f, "connect test ping-pongs, p50 per pair: %s", ev.buf);
	finding_fix(f, "ping -c 20 %s   # from a peer: confirm the round trip, then look for the "
		       "queue or route that adds it (tc qdisc show; mtr)", v->nodes[who >= 0 ? (size_t)who
										   : b].name);
	strbuf_release(&ev);
}

static void loss_finding(const struct cluster_view *v, const char *ifn, const struct pairfig *m,
			 int who, size_t a, size_t b, struct findings *out)
{
	struct strbuf ev = STRBUF_INIT;
	int probes = 0, retrans = 0;
	struct finding *f;
	double pct, share;

	for (size_t p = 0; p < v->n; p++)
		for (size_t q = p + 1; q < v->n; q++) {
			const struct pairfig *x = &m[p * v->n + q];

			if (!x->have || (who >= 0 && p != (size_t)who && q != (size_t)who) ||
			    (who < 0 && (p != a || q != b)))
				continue;
			probes += x->probes;
			retrans += x->retrans;
			strbuf_addf(&ev, "%s%s <-> %s: %d of %d handshakes retransmitted",
				    ev.len ? "; " : "", v->nodes[p].name, v->nodes[q].name, x->retrans,
				    x->probes);
		}
	share = 100.0 * link_handshake_share(retrans, probes);
	pct = link_loss_from_share(share / 100.0);
	/* a handshake is two packets, one each way: the share is the loss of one way alone, or
	 * about half of it per packet when both ways lose */
	if (who >= 0)
		f = finding_add(out, SEV_WARN, "link.loss",
				"%s loses packets on %s: %.1f %% of TCP handshakes with it lost a "
				"packet (%d of %d; about %.1f %% per packet if both ways lose, %.1f %% "
				"if one way does); between the other nodes none or few",
				v->nodes[who].name, ifn, share, retrans, probes, pct, share);
	else
		f = finding_add(out, SEV_WARN, "link.loss",
				"the link %s <-> %s over %s loses packets: %.1f %% of TCP handshakes "
				"lost one (%d of %d; about %.1f %% per packet if both ways lose)",
				v->nodes[a].name, v->nodes[b].name, ifn, share, retrans, probes, pct);
	if (who >= 0)
		finding_pair(f, v->nodes[who].name, NULL, ifn);
	else
		finding_pair(f, v->nodes[a].name, v->nodes[b].name, ifn);
	finding_why(f, "NCCL's NET/Socket transport runs over TCP: a lost segment is retransmitted, "
		       "after at least Linux's 200 ms minimum RTO when fast retransmit cannot repair "
		       "it, and every collective waits for its slowest connection, so loss shows as "
		       "stalls and a bandwidth far below the line rate, not as errors. The port scans "
		       "looked again at every port a lost SYN left unanswered: this is not a firewall.");
	finding_evidence(f, "%s", ev.buf);
	finding_fix(f, "ip -s link show %s; ethtool -S %s | grep -iE 'drop|err|crc'   # on %s: "
		       "the counters that name a bad cable, NIC or full queue", ifn, ifn,
		    v->nodes[who >= 0 ? (size_t)who : b].name);
	strbuf_release(&ev);
}

static void judge_if(const struct cluster_view *v, const char *ifn, struct findings *out)
{
	struct pairfig *m = xcalloc(v->n * v->n, sizeof(*m));
	int (*const tests[2])(const struct pairfig *) = { slow, lossy };

	collect(v, ifn, m);
	for (int k = 0; k < 2; k++) {
		int who = k ? loss_culprit(v, m) : culprit(v, m, tests[k]);

		if (who >= 0) {
			(k ? loss_finding : latency_finding)(v, ifn, m, who, 0, 0, out);
			continue;
		}
		for (size_t a = 0; a < v->n; a++)
			for (size_t b = a + 1; b < v->n; b++)
				if (m[a * v->n + b].have && tests[k](&m[a * v->n + b]))
					(k ? loss_finding : latency_finding)(v, ifn, m, -1, a, b,
									     out);
	}
	free(m);
}

/* Scans whose probes this process could not run in time: their drops are no measurement. */
static void untested(const struct cluster_view *v, struct findings *out)
{
	for (size_t i = 0; i < v->nlinks; i++) {
		const struct cluster_link *l = &v->links[i];
		struct finding *f;

		if (l->kind != LINK_SCAN || !l->ran || !link_scan_starved(&l->res.s))
			continue;
		f = finding_add(out, SEV_ERROR, "cluster.link.untested",
				"%s -> %s over %s: the port scan could not run its probes in time (its "
				"timers fired up to %d ms late, a look again waits %d ms): no verdict "
				"on these ports", v->nodes[l->peer].name, v->nodes[l->target].name,
				l->ifname, l->res.s.late_ms, l->res.s.retry_ms);
		finding_pair(f, v->nodes[l->peer].name, v->nodes[l->target].name, l->ifname);
		finding_why(f, "A process starved of CPU (an overloaded host, a cgroup CPU limit, a "
			       "stopped process) answers and reads its connects late, and a late "
			       "answer looks like a dropped port: this scan measured the scheduler, not "
			       "the network, so it is reported as not run rather than as a firewall.");
		finding_evidence(f, "%d ports without an answer, %d dropped on the first look",
				 l->res.s.counts[LINK_PORT_DROPPED], l->res.s.first_drops);
		finding_fix(f, "uptime; top -bn1 | head -15   # on %s: what takes the CPUs; then "
			       "re-run ncclcheck cluster", v->nodes[l->peer].name);
	}
}

void xrule_link_noise(const struct cluster_view *v, struct findings *out)
{
	const char *seen[64];
	size_t nseen = 0;

	for (size_t i = 0; i < v->nlinks && nseen < 64; i++) {
		const struct cluster_link *l = &v->links[i];
		int dup = 0;

		if (l->kind != LINK_CONNECT)
			continue;
		for (size_t k = 0; k < nseen; k++)
			dup |= !strcmp(seen[k], l->ifname);
		if (dup)
			continue;
		seen[nseen++] = l->ifname;
		judge_if(v, l->ifname, out);
	}
	untested(v, out);
}
