/*
 * What the links' own measurements say before any test is judged: the round trip and the loss
 * the connect test measured on every link (link.latency, link.loss), and the tests that could
 * not run their probes in time (cluster.link.untested). Each is laid at the door of the one
 * node every slow link touches, when the links between the other nodes are fast (a pair is
 * named only when no single node explains it); for loss, at the node whose links' handshakes,
 * pooled, a likelihood ratio test singles out (link_loss_judge), and otherwise at no node: the
 * nodes the figures fit are said as suspects, each with the counters that decide.
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

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"
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

/* Binomial log-likelihood of k events in n trials at their own rate (0 log 0 = 0). */
static double loglik(int k, int n)
{
	double p;

	if (n <= 0 || k <= 0 || k >= n)
		return 0;
	p = (double)k / n;
	return k * log(p) + (n - k) * log1p(-p);
}

/* One node's fit: its links pooled (in) and the others' pooled (out). */
struct nodefit {
	int in_k, in_n, out_k, out_n;
	double gain;			/* log-likelihood over one rate for every link; 0: no fit */
};

static int pooled_lossy(int k, int n)
{
	const struct pairfig f = { .have = 1, .probes = n, .retrans = k };

	return n > 0 && lossy(&f);
}

/*
 * Each node's hypothesis "the loss is at x": its links lose at one rate, the others at another,
 * lower one; its gain is the log-likelihood it adds over one rate for every link (a likelihood
 * ratio test). A node is named when its gain is significant (LOSS_NAME_GAIN: p < 0.001), its
 * pooled links clear the bar, the other links lose at most a third of its share (a second
 * source that large would go unsaid under its name), and it is LOSS_MARGIN times likelier than
 * any other node; the nodes within that margin with a gain of at least LOSS_SUSPECT_GAIN
 * (p < 0.05) are the suspects said when none is named. Pooled, because a pair holds 384
 * handshakes: at 1 % one of a lossy node's pairs can show 8 retransmits and the other 1, and a
 * handshake between innocent nodes can retransmit too (a loaded host answers late); a rule on
 * single pairs, or on a share against a share, then names an innocent end (the simulation in
 * tests/unit/test_link_noise.c measures both).
 */
#define LOSS_NAME_GAIN (10.83 / 2)
#define LOSS_SUSPECT_GAIN (3.84 / 2)
#define LOSS_MARGIN 3.0			/* ln 20 */
#define LOSS_OTHERS 3.0		/* the others' share at most a third of the node's */

int link_loss_judge(size_t n, const int *probes, const int *retrans, unsigned char *suspect)
{
	struct nodefit *fit = xcalloc(n ? n : 1, sizeof(*fit));
	int all_k = 0, all_n = 0, best = -1, named = 1;
	size_t pairs = 0, ends[2] = { 0, 0 };
	double l0;

	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++) {
			int k = retrans[a * n + b], m = probes[a * n + b];

			if (m <= 0)
				continue;
			k = k < 0 ? 0 : k > m ? m : k;
			all_k += k;
			all_n += m;
			for (size_t x = 0; x < n; x++) {
				int in = a == x || b == x;

				*(in ? &fit[x].in_k : &fit[x].out_k) += k;
				*(in ? &fit[x].in_n : &fit[x].out_n) += m;
			}
		}
	l0 = loglik(all_k, all_n);
	for (size_t x = 0; x < n; x++) {
		struct nodefit *f = &fit[x];

		suspect[x] = 0;
		if (!f->in_n || !f->out_n || !pooled_lossy(f->in_k, f->in_n) ||
		    (double)f->in_k * f->out_n <= (double)f->out_k * f->in_n)
			continue;
		f->gain = loglik(f->in_k, f->in_n) + loglik(f->out_k, f->out_n) - l0;
		if (best < 0 || f->gain > fit[best].gain)
			best = (int)x;
	}
	for (size_t x = 0; x < n && best >= 0; x++) {
		if (!fit[x].gain || fit[best].gain - fit[x].gain >= LOSS_MARGIN)
			continue;
		named &= (int)x == best;
		suspect[x] = fit[x].gain >= LOSS_SUSPECT_GAIN;
	}
	if (best >= 0 && named && fit[best].gain >= LOSS_NAME_GAIN &&
	    LOSS_OTHERS * fit[best].out_k * fit[best].in_n <= (double)fit[best].in_k * fit[best].out_n) {
		free(fit);
		return best;
	}
	free(fit);
	/* one link alone, lossy and as significant as a node must be: either end could be it */
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++) {
			int k = retrans[a * n + b], m = probes[a * n + b];

			if (m <= 0 || k <= 0 || k > m || !pooled_lossy(k, m) ||
			    loglik(k, m) + loglik(all_k - k, all_n - m) - l0 < LOSS_NAME_GAIN)
				continue;
			suspect[a] = suspect[b] = 1;
		}
	for (size_t x = 0; x < n; x++)
		if (suspect[x])
			return LOSS_UNSURE;
	if (!pooled_lossy(all_k, all_n))
		return LOSS_NONE;
	/* one link in all (two nodes): its two ends, not "every link alike" */
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			if (probes[a * n + b] > 0) {
				pairs++;
				ends[0] = a;
				ends[1] = b;
			}
	if (pairs == 1)
		suspect[ends[0]] = suspect[ends[1]] = 1;
	return LOSS_UNSURE;
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
	finding_fix(f, N_("ping -c 20 %s   # from a peer: confirm the round trip, then look for the "
		       "queue or route that adds it (tc qdisc show; mtr)"), v->nodes[who >= 0 ? (size_t)who
										   : b].name);
	strbuf_release(&ev);
}

/* "a, b or c": the suspects' names. */
static int suspect_names(const struct cluster_view *v, const unsigned char *suspect,
			 struct strbuf *sb)
{
	int n = 0;

	for (size_t x = 0; x < v->n; x++)
		n += suspect[x] ? 1 : 0;
	for (size_t x = 0, k = 0; x < v->n; x++) {
		if (!suspect[x])
			continue;
		k++;
		strbuf_addf(sb, "%s%s", k == 1 ? "" : (int)k == n ? " or " : ", ", v->nodes[x].name);
	}
	return n;
}

#define LOSS_EVIDENCE_PAIRS 16

/*
 * who >= 0: that node loses the packets. LOSS_UNSURE: the suspects' links do, and the figures
 * do not tell which of them (none: every link alike); no node is named then, so no innocent
 * one is, and the fix runs the deciding counters on each suspect.
 */
static void loss_finding(const struct cluster_view *v, const char *ifn, const struct pairfig *m,
			 int who, const unsigned char *suspect, struct findings *out)
{
	struct strbuf ev = STRBUF_INIT, names = STRBUF_INIT;
	int k_in = 0, n_in = 0, k_out = 0, n_out = 0, listed = 0, quiet = 0, nsus = 0;
	struct finding *f;
	double pct, share;

	if (who < 0)
		nsus = suspect_names(v, suspect, &names);
	for (size_t p = 0; p < v->n; p++)
		for (size_t q = p + 1; q < v->n; q++) {
			const struct pairfig *x = &m[p * v->n + q];
			int mine = who >= 0 ? p == (size_t)who || q == (size_t)who
					    : !nsus || suspect[p] || suspect[q];

			if (!x->have)
				continue;
			*(mine ? &k_in : &k_out) += x->retrans;
			*(mine ? &n_in : &n_out) += x->probes;
			if (!mine)
				continue;
			if (!x->retrans || listed == LOSS_EVIDENCE_PAIRS) {
				quiet++;
				continue;
			}
			listed++;
			strbuf_addf(&ev, "%s%s <-> %s: %d of %d handshakes retransmitted",
				    ev.len ? "; " : "", v->nodes[p].name, v->nodes[q].name, x->retrans,
				    x->probes);
		}
	if (quiet)
		strbuf_addf(&ev, "%s%d more pair%s: %s", ev.len ? "; " : "", quiet,
			    quiet == 1 ? "" : "s", listed == LOSS_EVIDENCE_PAIRS ? "not listed"
										 : "none retransmitted");
	share = 100.0 * link_handshake_share(k_in, n_in);
	pct = link_loss_from_share(share / 100.0);
	/* a handshake is two packets, one each way: the share is the loss of one way alone, or
	 * about half of it per packet when both ways lose */
	if (who >= 0)
		f = finding_add(out, SEV_WARN, "link.loss",
				"%s loses packets on %s: %.1f %% of TCP handshakes with it lost a "
				"packet (%d of %d; about %.1f %% per packet if both ways lose, %.1f %% "
				"if one way does); between the other nodes %d of %d",
				v->nodes[who].name, ifn, share, k_in, n_in, pct, share, k_out, n_out);
	else if (nsus == 1 && n_out)
		f = finding_add(out, SEV_WARN, "link.loss",
				"%s may be losing packets on %s: %.1f %% of TCP handshakes with it lost "
				"a packet (%d of %d; about %.1f %% per packet if both ways lose); between "
				"the other nodes %d of %d: too few retransmits to be sure where",
				names.buf, ifn, share, k_in, n_in, pct, k_out, n_out);
	else if (nsus && n_out)
		f = finding_add(out, SEV_WARN, "link.loss",
				"%s loses packets on %s, and these figures cannot tell which: %.1f %% "
				"of TCP handshakes on their links lost a packet (%d of %d; about %.1f %% "
				"per packet if both ways lose); between the other nodes %d of %d",
				names.buf, ifn, share, k_in, n_in, pct, k_out, n_out);
	else if (nsus)
		f = finding_add(out, SEV_WARN, "link.loss",
				"%s loses packets on %s, and these figures cannot tell which: %.1f %% "
				"of TCP handshakes lost a packet (%d of %d; about %.1f %% per packet if "
				"both ways lose)", names.buf, ifn, share, k_in, n_in, pct);
	else
		f = finding_add(out, SEV_WARN, "link.loss",
				"packets are lost over %s on every node's links alike: %.1f %% of TCP "
				"handshakes lost one (%d of %d; about %.1f %% per packet if both ways "
				"lose); no one node stands out", ifn, share, k_in, n_in, pct);
	finding_pair(f, who >= 0 ? v->nodes[who].name : NULL, NULL, ifn);
	finding_why(f, "NCCL's NET/Socket transport runs over TCP: a lost segment is retransmitted, "
		       "after at least Linux's 200 ms minimum RTO when fast retransmit cannot repair "
		       "it, and every collective waits for its slowest connection, so loss shows as "
		       "stalls and a bandwidth far below the line rate, not as errors. The port scans "
		       "looked again at every port a lost SYN left unanswered: this is not a firewall.%s",
		    who >= 0 ? "" : nsus > 1 ? " The retransmits fit more than one node (or the "
					       "link between them) too well to name one: the drop and "
					       "error counters on each decide."
			     : nsus ? " The retransmits are too few to tell a lossy node from chance: "
				      "its own drop and error counters decide."
				  : " Loss on every link alike points at what they share: the switch, "
				    "the hosts' common path, or CPU load on every node.");
	finding_evidence(f, "%s", ev.buf);
	if (who >= 0)
		finding_fix(f, N_("ip -s link show %s; ethtool -S %s | grep -iE 'drop|err|crc'   # on %s: "
			       "the counters that name a bad cable, NIC or full queue"), ifn, ifn,
			    v->nodes[who].name);
	else if (nsus == 1)
		finding_fix(f, N_("ip -s link show %s; ethtool -S %s | grep -iE 'drop|err|crc'   # on %s, "
			       "before and after ncclcheck cluster runs again: if its drop or error "
			       "counters grow it is losing the packets, if not run the same on its peers"),
			    ifn, ifn, names.buf);
	else
		finding_fix(f, N_("ip -s link show %s; ethtool -S %s | grep -iE 'drop|err|crc'   # on %s, "
			       "before and after ncclcheck cluster runs again: the node whose drop or "
			       "error counters grow is losing the packets"), ifn, ifn,
			    nsus ? names.buf : "every node");
	strbuf_release(&names);
	strbuf_release(&ev);
}

static void judge_if(const struct cluster_view *v, const char *ifn, struct findings *out)
{
	size_t nn = v->n * v->n;
	struct pairfig *m = xcalloc(nn, sizeof(*m));
	int *probes = xcalloc(nn, sizeof(*probes)), *retrans = xcalloc(nn, sizeof(*retrans));
	unsigned char *suspect = xcalloc(v->n, 1);
	int who;

	collect(v, ifn, m);
	who = culprit(v, m, slow);
	if (who >= 0)
		latency_finding(v, ifn, m, who, 0, 0, out);
	else
		for (size_t a = 0; a < v->n; a++)
			for (size_t b = a + 1; b < v->n; b++)
				if (m[a * v->n + b].have && slow(&m[a * v->n + b]))
					latency_finding(v, ifn, m, -1, a, b, out);
	for (size_t i = 0; i < nn; i++) {
		probes[i] = m[i].have ? m[i].probes : 0;
		retrans[i] = m[i].retrans;
	}
	who = link_loss_judge(v->n, probes, retrans, suspect);
	if (who != LOSS_NONE)
		loss_finding(v, ifn, m, who, suspect, out);
	free(suspect);
	free(retrans);
	free(probes);
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
		finding_fix(f, N_("uptime; top -bn1 | head -15   # on %s: what takes the CPUs; then "
			       "re-run ncclcheck cluster"), v->nodes[l->peer].name);
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
