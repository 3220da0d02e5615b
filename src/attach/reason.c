/*
 * attach_reason(): pure reasoning over what attach_collect() gathered. Order of trust: the
 * flight recorder says which collective a rank never entered (the application side); RAS says
 * which processes are gone, unreachable, erroring, and whether launch counts froze unequal
 * (some ranks never launched the next collective) or equal (all launched: a GPU or network
 * stall that RAS cannot see further, NVIDIA/nccl#1730); /proc says what a local rank does now.
 */
#include "attach/reason_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
void reason_verdict(struct ctx *c, int prio, const char *fmt, ...)
{
	va_list ap;

	if (c->verdict.len && prio >= c->vprio)
		return;
	strbuf_reset(&c->verdict);
	va_start(ap, fmt);
	strbuf_vaddf(&c->verdict, fmt, ap);
	va_end(ap);
	c->vprio = prio;
}

/* ---- who is rank R (from RAS) ---- */

/* Rank numbers are per communicator: `cm` is the one `rank` belongs to. */
int reason_find_who(const struct ras_comm *cm, int rank, struct who *w)
{
	memset(w, 0, sizeof(*w));
	w->rank = rank;
	w->pid = -1;
	if (!cm)
		return 0;
	for (size_t i = 0; i < cm->nranks; i++)
		if (cm->ranks[i].rank == rank && cm->ranks[i].pid > 0) {
			snprintf(w->host, sizeof(w->host), "%s", cm->ranks[i].host);
			w->pid = cm->ranks[i].pid;
			w->gpu = cm->ranks[i].cuda_dev;
			return w->known = 1;
		}
	for (size_t i = 0; i < cm->nmissing; i++)
		if (cm->missing[i].rank == rank && cm->missing[i].pid > 0) {
			snprintf(w->host, sizeof(w->host), "%s", cm->missing[i].host);
			w->pid = cm->missing[i].pid;
			w->gpu = cm->missing[i].cuda_dev;
			return w->known = 1;
		}
	return 0;
}

void reason_who_str(const struct who *w, struct strbuf *sb)
{
	strbuf_addf(sb, "rank %d", w->rank);
	if (w->known)
		strbuf_addf(sb, " (pid %d on %s, GPU %d)", w->pid, w->host, w->gpu);
}

/* ---- /proc ---- */

static enum pkind reason_proc_doing_proc(const struct ctx *c, int pid, struct strbuf *sb);

static const struct proc_sample *sample_of(const struct attach_poll *p, int pid)
{
	for (size_t i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid)
			return &p->procs[i];
	return NULL;
}

/*
 * Where the process's main thread is in Python, when its stack was read: ", in f (a.py:3) → g
 * (b.py:9)", and what the thread does natively under the innermost frame. A spinning rank's
 * innermost frame is the loop itself.
 */
static void stack_doing(const struct ctx *c, int pid, struct strbuf *sb)
{
	const struct attach_stacks *st = NULL;
	size_t before = sb->len;

	for (size_t i = 0; i < c->d->nstacks; i++)
		if (c->d->stacks[i].pid == pid)
			st = &c->d->stacks[i];
	if (!st || st->py.status != PY_OK)
		return;
	strbuf_addstr(sb, "; it is ");
	attach_stacks_phrase(st, 3, sb);
	if (sb->len == before + 8) {
		strbuf_setlen(sb, before);
		return;
	}
	if (st->source == SOURCE_WORKER_SERVER)
		strbuf_addstr(sb, " (from torch's WorkerServer)");
	for (size_t i = 0; i < st->tasks.n; i++)
		if (st->tasks.v[i].tid == pid && st->tasks.v[i].where[0] &&
		    strncmp(st->tasks.v[i].where, "running", 7))
			strbuf_addf(sb, " → %s", st->tasks.v[i].where);
}

/* RAS's address for a rank's node is one whose processes this /proc shows. */
static int host_local(const struct attach_data *d, const char *host)
{
	for (size_t i = 0; i < d->nlocal_hosts; i++)
		if (!strcmp(d->local_hosts[i], host))
			return 1;
	return 0;
}

/* the verdict's classes travel between nodes as jobstacks' kinds: one order for both */
_Static_assert((int)P_UNKNOWN == (int)JS_UNKNOWN && (int)P_GONE == (int)JS_GONE &&
	       (int)P_STOPPED == (int)JS_STOPPED && (int)P_ZOMBIE == (int)JS_ZOMBIE &&
	       (int)P_DSTATE == (int)JS_DSTATE && (int)P_IDLE == (int)JS_IDLE &&
	       (int)P_BUSY == (int)JS_BUSY && (int)P_ALIVE == (int)JS_ALIVE,
	       "enum pkind and enum js_kind differ");

/*
 * What process `pid` on `host` does: from this node's samples when the host is local, else
 * from what the attach on the rank's own node said of it (across nodes); "" and P_UNKNOWN
 * when neither knows. A pid alone is not enough: another node's rank can have a local
 * process's number.
 */
enum pkind reason_proc_doing(const struct ctx *c, const char *host, int pid, struct strbuf *sb)
{
	enum pkind k = P_UNKNOWN;

	if (!host || host_local(c->d, host)) {
		k = reason_proc_doing_proc(c, pid, sb);
		if (k == P_IDLE || k == P_BUSY || k == P_ALIVE || k == P_DSTATE)
			stack_doing(c, pid, sb);
	}
	if (k != P_UNKNOWN || !host)
		return k;
	for (size_t i = 0; i < c->d->nremote; i++) {
		const struct js_node *n = &c->d->remote[i];

		for (size_t j = 0; j < n->n; j++)
			if (n->v[j].pid == pid && !strcmp(n->v[j].host, host) && n->v[j].doing[0]) {
				strbuf_addstr(sb, n->v[j].doing);
				return (enum pkind)n->v[j].kind;
			}
	}
	return P_UNKNOWN;
}

/* reason_proc_doing() from /proc's samples alone. */
static enum pkind reason_proc_doing_proc(const struct ctx *c, int pid, struct strbuf *sb)
{
	const struct proc_sample *a = NULL, *b = NULL;
	const struct attach_data *d = c->d;

	for (size_t i = 0; i < d->npolls; i++) {
		const struct proc_sample *s = sample_of(&d->polls[i], pid);
		if (!s)
			continue;
		if (!a)
			a = s;
		b = s;
	}
	if (!b)
		return P_UNKNOWN;
	if (!b->exists) {
		strbuf_addf(sb, "its process %d no longer exists", pid);
		return P_GONE;
	}
	if (b->state == 'T' || b->state == 't') {
		strbuf_addf(sb, "it is stopped (state %c: SIGSTOP, Ctrl-Z or a debugger)", b->state);
		return P_STOPPED;
	}
	if (b->state == 'Z' || b->state == 'X') {
		strbuf_addstr(sb, "it has exited (a zombie its parent has not reaped)");
		return P_ZOMBIE;
	}
	if (b->nthreads_d) {
		strbuf_addf(sb, "its thread %d (%s) is in uninterruptible sleep (D)%s%s", b->d_tid,
			    b->d_comm, b->d_wchan[0] ? " in " : "", b->d_wchan);
		return P_DSTATE;
	}
	if (a != b && b->t_ms > a->t_ms) {
		double secs = (double)(b->t_ms - a->t_ms) / 1000.0;
		double cpu = (double)(b->cpu_ticks - a->cpu_ticks) / (double)d->ticks_per_sec;
		double pct = 100.0 * cpu / secs;
		if (pct < IDLE_CPU_PCT) {
			strbuf_addf(sb, "it is idle: state %c, %.0f%% of a CPU over %.1f s (sleeping, "
				    "waiting on a lock, on I/O or on input)", b->state, pct, secs);
			return P_IDLE;
		}
		strbuf_addf(sb, "it is running: state %c, %.0f%% of a CPU over %.1f s", b->state, pct,
			    secs);
		return P_BUSY;
	}
	strbuf_addf(sb, "its process is alive (state %c)", b->state);
	return P_ALIVE;
}

/* ---- RAS ---- */

static int by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* "0, 1, 5-62": the ranks in order, a run of three or more as its ends (63 ranks in one line). */
static void rank_list(int *v, size_t n, struct strbuf *sb)
{
	qsort(v, n, sizeof(*v), by_int);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j - i >= 2) {
			strbuf_addf(sb, "%s%d-%d", sb->len ? ", " : "", v[i], v[j]);
			i = j + 1;
		} else {
			strbuf_addf(sb, "%s%d", sb->len ? ", " : "", v[i]);
			i++;
		}
	}
}

/* The job's communicator: the largest one of a report (its rank numbers are the job's). */
static const struct ras_comm *main_comm(const struct ras_report *r)
{
	const struct ras_comm *m = NULL;

	for (size_t i = 0; r && i < r->ncomms; i++)
		if (!m || r->comms[i].size > m->size ||
		    (r->comms[i].size == 0 && !m->size && r->comms[i].nranks > m->nranks))
			m = &r->comms[i];
	return m;
}

static const struct ras_comm *comm_by_hash(const struct ras_report *r, const char *hash)
{
	for (size_t i = 0; r && i < r->ncomms; i++)
		if (!strcmp(r->comms[i].hash, hash))
			return &r->comms[i];
	return NULL;
}

static const struct ras_rank *rank_in(const struct ras_comm *cm, int rank)
{
	for (size_t i = 0; cm && i < cm->nranks; i++)
		if (cm->ranks[i].rank == rank)
			return &cm->ranks[i];
	return NULL;
}

static const char *nccl_result(int r)
{
	switch (r) {
	case 1: return "ncclUnhandledCudaError";
	case 2: return "ncclSystemError";
	case 3: return "ncclInternalError";
	case 4: return "ncclInvalidArgument";
	case 5: return "ncclInvalidUsage";
	case 6: return "ncclRemoteError";
	case 7: return "ncclInProgress";
	}
	return "an NCCL error";
}

static void rank_subject(struct finding *f, const struct ras_rank *rk)
{
	finding_rank(f, rk->rank);
	if (rk->host[0])
		finding_node(f, rk->host);
}

static void ras_dead_and_missing(struct ctx *c, const struct ras_comm *cm)
{
	/* hosts whose every rank of this comm is missing: the node, or the path to it */
	for (size_t i = 0; i < cm->nmissing; i++) {
		const struct ras_missing *m = &cm->missing[i];
		struct strbuf doing = STRBUF_INIT, w = STRBUF_INIT;
		struct who who;
		enum pkind k = m->pid > 0 ? reason_proc_doing(c, m->host, m->pid, &doing) : P_UNKNOWN;
		struct finding *f;
		int host_all = 1, n_on_host = 0;

		reason_find_who(cm, m->rank, &who);
		reason_who_str(&who, &w);
		/* RAS writes "unknown" (pid -1) for a rank whose process it no longer knows */
		if (!m->host[0] || !strcmp(m->host, "unknown"))
			host_all = 0;
		for (size_t j = 0; j < cm->nranks; j++)
			if (!strcmp(cm->ranks[j].host, m->host))
				host_all = 0;
		for (size_t j = 0; j < cm->nmissing; j++)
			n_on_host += !strcmp(cm->missing[j].host, m->host);
		if (m->dead || k == P_GONE || k == P_ZOMBIE) {
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.dead", "%s is gone", w.buf);
			finding_why(f, "RAS %s. Every other rank of communicator %s waits for it in its "
				    "next collective until the watchdog (default 10 min) aborts the job.",
				    m->dead ? "considers the process dead (unreachable over the RAS network "
				    "for 60 s, or its connections closed)" :
				    "could not reach the process, and /proc confirms it is gone", cm->hash);
			finding_fix(f, N_("find why it exited: its log, dmesg (OOM killer: 'Killed process "
				    "%d'), the launcher's exit report"), m->pid);
			finding_fix(f, N_("restart the job; with torchrun, --max-restarts lets the launcher do "
				    "it"));
			finding_check(f, N_("ncclcheck explain <that rank's log>"));
			reason_verdict(c, 1, "%s is gone%s%s; the other ranks wait for it", w.buf,
				doing.len ? ": " : "", doing.buf);
		} else if (k == P_STOPPED) {
			f = finding_add(c->fs, SEV_ERROR, "attach.proc.stopped", "%s is stopped", w.buf);
			finding_why(f, "The process is stopped, so neither its training loop nor its NCCL "
				    "threads run; RAS gets no answer from it and every other rank waits.");
			finding_fix(f, N_("kill -CONT %d   # if it was stopped by mistake (Ctrl-Z, SIGSTOP)"),
				    m->pid);
			finding_fix(f, N_("detach the debugger that holds it, if one does"));
			reason_verdict(c, 2, "%s is stopped (SIGSTOP, Ctrl-Z or a debugger): every other rank waits "
				"for it", w.buf);
		} else if (host_all && n_on_host > 0) {
			/* reported once per host: at its first missing rank */
			int first = 1;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(cm->missing[j].host, m->host))
					first = 0;
			if (!first) {
				strbuf_release(&doing);
				strbuf_release(&w);
				continue;
			}
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.unresponsive",
					"node %s does not answer: all its %d rank(s) of communicator %s are "
					"unresponsive", m->host, n_on_host, cm->hash);
			finding_node(f, m->host);
			finding_why(f, "RAS reached no process on that node within its timeout. When every "
				    "rank of a node is silent at once, the network between the nodes (a "
				    "firewall, a link, a route) or the node itself is down; a frozen single "
				    "process looks different (one rank, not the node).");
			finding_fix(f, N_("from this node: ping %s; check the firewall on both ends"), m->host);
			finding_fix(f, N_("on %s: is the node up, are its ranks running (ncclcheck attach there)"),
				    m->host);
			finding_check(f, N_("ncclcheck cluster   # every interface between the nodes, both ways"));
			reason_verdict(c, 5, "node %s does not answer (%d rank(s) unresponsive): the network between "
				"the nodes or the node itself is down", m->host, n_on_host);
		} else {
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.unresponsive", "%s does not answer",
					w.buf);
			finding_why(f, "RAS got no data from that process within its timeout while other "
				    "ranks on its node answered: the process is frozen (stopped, in a "
				    "debugger, out of memory and swapping) or its RAS thread is stuck.");
			if (m->pid > 0)
				finding_fix(f, N_("on %s: ncclcheck attach --pid %d (its state and Python "
					    "stacks)"), m->host, m->pid);
			else
				finding_fix(f, N_("RAS no longer knows its process: find rank %d's node and "
					    "process from the launcher (its exit code, its log)"), m->rank);
			reason_verdict(c, 6, "%s does not answer RAS%s%s", w.buf, doing.len ? "; " : "", doing.buf);
		}
		finding_rank(f, m->rank);
		if (!f->node && m->host[0] && strcmp(m->host, "unknown"))
			finding_node(f, m->host);
		finding_evidence(f, "RAS communicator %s: rank %d (pid %d on %s, GPU %d) missing: "
				 "unresponsive=%s considered_dead=%s", cm->hash, m->rank, m->pid, m->host,
				 m->cuda_dev, m->unresponsive ? "true" : "false",
				 m->dead ? "true" : "false");
		if (doing.len)
			finding_evidence(f, "/proc: %s", doing.buf);
		strbuf_release(&doing);
		strbuf_release(&w);
	}
}

static void ras_errors(struct ctx *c, const struct ras_comm *cm)
{
	for (size_t i = 0; i < cm->nranks; i++) {
		const struct ras_rank *rk = &cm->ranks[i];
		struct finding *f;
		struct who who;
		struct strbuf w = STRBUF_INIT;

		reason_find_who(cm, rk->rank, &who);
		reason_who_str(&who, &w);
		if (rk->async_error) {
			const char *name = rk->async_error > 0 ? nccl_result(rk->async_error) :
					   rk->error_text;
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.async_error",
					"%s reported an asynchronous NCCL error (%s)", w.buf, name);
			rank_subject(f, rk);
			finding_why(f, "An asynchronous error means a collective of that rank failed after "
				    "launch (a peer vanished, a network error, a CUDA fault). The "
				    "communicator is unusable; the other ranks hang until they time out.");
			finding_fix(f, N_("read that rank's NCCL WARN lines (NCCL_DEBUG=WARN is enough)"));
			finding_check(f, N_("ncclcheck explain <that rank's log>"));
			finding_evidence(f, "RAS communicator %s: rank %d async_error=%d%s%s", cm->hash,
					 rk->rank, rk->async_error, rk->error_text[0] ? " " : "",
					 rk->error_text);
			reason_verdict(c, 7, "%s reported an asynchronous NCCL error (%s)", w.buf, name);
		}
		if (rk->init_state != 0 && rk->init_state != 7) {
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.init_error",
					"%s failed to initialise communicator %s (%s)", w.buf, cm->hash,
					rk->init_state > 0 ? nccl_result(rk->init_state) : rk->error_text);
			rank_subject(f, rk);
			finding_check(f, N_("ncclcheck explain <that rank's log>"));
			finding_evidence(f, "RAS communicator %s: rank %d init_state=%d", cm->hash, rk->rank,
					 rk->init_state);
			reason_verdict(c, 7, "%s failed to initialise NCCL", w.buf);
		}
		strbuf_release(&w);
	}
}

/* Counts of operation `op` for every rank of `cm`, all known? */
static int counts_known(const struct ras_comm *cm, int op)
{
	if (!cm->nranks)
		return 0;
	for (size_t i = 0; i < cm->nranks; i++)
		if (!(cm->ranks[i].counts_known & (1u << op)))
			return 0;
	return 1;
}

static int frozen(const struct ras_comm *a, const struct ras_comm *b, int op)
{
	if (!a || a == b || a->nranks != b->nranks)
		return 0;
	for (size_t i = 0; i < b->nranks; i++) {
		const struct ras_rank *x = rank_in(a, b->ranks[i].rank);
		if (!x || !(x->counts_known & (1u << op)) || x->counts[op] != b->ranks[i].counts[op])
			return 0;
	}
	return 1;
}

/*
 * Text reports (NCCL < 2.28.7) list a MISMATCH only, and within it only the outlier ranks: the
 * ranks below the highest count are behind; the others are "N ranks" without names.
 */
static void ras_counts_text(struct ctx *c, const struct ras_comm *cm)
{
	const struct ras_comm *old = comm_by_hash(c->first, cm->hash);
	double secs = (double)(c->last_t - c->first_t) / 1000.0;
	int two = old && old != cm && secs > 0;

	for (int op = 0; op < RAS_NOPS; op++) {
		uint64_t hi = cm->text_hi[op];
		const struct ras_rank *lag = NULL;
		struct strbuf behind = STRBUF_INIT, w = STRBUF_INIT, doing = STRBUF_INIT;
		struct finding *f;
		int fz = two && (old->text_known & (1u << op)) && old->text_hi[op] == hi;
		struct who who;

		if (!(cm->text_known & (1u << op)))
			continue;
		for (size_t i = 0; i < cm->nranks; i++) {
			const struct ras_rank *rk = &cm->ranks[i];
			const struct ras_rank *was = rank_in(old, rk->rank);
			if (!(rk->counts_known & (1u << op)) || rk->counts[op] >= hi)
				continue;
			strbuf_addf(&behind, "%s%d", behind.len ? ", " : "", rk->rank);
			if (!lag || rk->counts[op] < lag->counts[op])
				lag = rk;
			if (!was || !(was->counts_known & (1u << op)) || was->counts[op] != rk->counts[op])
				fz = 0;
		}
		if (!lag) {
			strbuf_release(&behind);
			continue;
		}
		if (!fz) {
			f = finding_add(c->fs, two ? SEV_INFO : SEV_WARN, "attach.ras.skew",
					"%s counts differ (rank(s) %s behind %llu)%s", ras_op_names[op],
					behind.buf, (unsigned long long)hi, two ? " but move: normal skew" : "; seen once");
			f->conf = two ? CONF_HIGH : CONF_LOW;
			strbuf_release(&behind);
			continue;
		}
		reason_find_who(cm, lag->rank, &who);
		reason_who_str(&who, &w);
		reason_proc_doing(c, lag->host, lag->pid, &doing);
		f = finding_add(c->fs, SEV_ERROR, "attach.ras.counts_unequal",
				"rank(s) %s never launched %s #%llu that %d other rank(s) launched",
				behind.buf, ras_op_names[op], (unsigned long long)(lag->counts[op] + 1), cm->text_hi_n[op]);
		for (size_t i = 0; i < cm->nranks; i++)
			if ((cm->ranks[i].counts_known & (1u << op)) && cm->ranks[i].counts[op] < hi) {
				finding_rank(f, cm->ranks[i].rank);
				if (!f->node)
					finding_node(f, cm->ranks[i].host);
			}
		finding_why(f, "RAS counts the collectives each rank has launched; its report lists the "
			    "ranks behind, and the counts did not move for %.1f s: those ranks never "
			    "called the next collective. That is their application side (a data loader, a "
			    "rank-dependent branch, a swallowed exception), not NCCL or the network.", secs);
		finding_fix(f, N_("look at what %s does now: ncclcheck attach --pid %d"), w.buf, lag->pid);
		finding_evidence(f, "RAS communicator %s: %d rank(s) launched up to %s %llu; rank(s) "
				 "%s fewer, unchanged over %.1f s", cm->hash, cm->text_hi_n[op],
				 ras_op_names[op], (unsigned long long)hi, behind.buf, secs);
		if (doing.len)
			finding_evidence(f, "/proc: rank %d: %s", lag->rank, doing.buf);
		reason_verdict(c, 4, "%s has not launched %s #%llu that %d other rank(s) launched%s%s",
			w.buf, ras_op_names[op], (unsigned long long)(lag->counts[op] + 1), cm->text_hi_n[op],
			doing.len ? "; " : "", doing.buf);
		strbuf_release(&behind);
		strbuf_release(&w);
		strbuf_release(&doing);
	}
}

static void ras_counts(struct ctx *c, const struct ras_comm *cm)
{
	const struct ras_comm *old = comm_by_hash(c->first, cm->hash);
	double secs = (double)(c->last_t - c->first_t) / 1000.0;
	int two = old && old != cm && secs > 0;
	int best = -1, best_uneq = 0;
	uint64_t bestmax = 0;

	/* the operation type to judge by: an unequal one first, then the busiest */
	for (int op = 0; op < RAS_NOPS; op++) {
		uint64_t lo = UINT64_MAX, hi = 0;
		int uneq;
		if (!counts_known(cm, op))
			continue;
		for (size_t i = 0; i < cm->nranks; i++) {
			lo = cm->ranks[i].counts[op] < lo ? cm->ranks[i].counts[op] : lo;
			hi = cm->ranks[i].counts[op] > hi ? cm->ranks[i].counts[op] : hi;
		}
		uneq = lo != hi;
		if (best < 0 || uneq > best_uneq || (uneq == best_uneq && hi > bestmax)) {
			best = op;
			best_uneq = uneq;
			bestmax = hi;
		}
	}
	if (best < 0)
		return;
	{
		int op = best, fz = two && frozen(old, cm, op);
		uint64_t lo = UINT64_MAX, hi = 0;
		struct strbuf behind = STRBUF_INIT, ahead = STRBUF_INIT;
		const struct ras_rank *lag = NULL;
		int nbehind = 0;
		struct finding *f;

		for (size_t i = 0; i < cm->nranks; i++) {
			lo = cm->ranks[i].counts[op] < lo ? cm->ranks[i].counts[op] : lo;
			hi = cm->ranks[i].counts[op] > hi ? cm->ranks[i].counts[op] : hi;
		}
		int *nb = xcalloc(cm->nranks + 1, sizeof(*nb)), *na = xcalloc(cm->nranks + 1, sizeof(*na));
		size_t nnb = 0, nna = 0;

		for (size_t i = 0; i < cm->nranks; i++) {
			if (cm->ranks[i].counts[op] < hi) {
				nbehind++;
				if (!lag || cm->ranks[i].counts[op] < lag->counts[op])
					lag = &cm->ranks[i];
				nb[nnb++] = cm->ranks[i].rank;
			} else {
				na[nna++] = cm->ranks[i].rank;
			}
		}
		rank_list(nb, nnb, &behind);
		rank_list(na, nna, &ahead);
		free(nb);
		free(na);
		if (lo != hi && fz) {
			struct who who;
			struct strbuf w = STRBUF_INIT, doing = STRBUF_INIT;
			reason_find_who(cm, lag->rank, &who);
			reason_who_str(&who, &w);
			reason_proc_doing(c, lag->host, lag->pid, &doing);
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.counts_unequal",
					"rank(s) %s never launched %s #%llu that rank(s) %s launched",
					behind.buf, ras_op_names[op], (unsigned long long)(lag->counts[op] + 1), ahead.buf);
			for (size_t i = 0; i < cm->nranks; i++)
				if (cm->ranks[i].counts[op] < hi) {
					finding_rank(f, cm->ranks[i].rank);
					if (!f->node)
						finding_node(f, cm->ranks[i].host);
				}
			finding_why(f, "RAS counts the collectives each rank has launched. The counts are "
				    "unequal and did not move for %.1f s: the ranks behind never called "
				    "the next collective. That is the application side of those ranks (a "
				    "data loader, a rank-dependent branch, an exception swallowed, a "
				    "checkpoint or an eval only some ranks run), not NCCL or the network.",
				    secs);
			finding_fix(f, N_("look at what %s does now: ncclcheck attach --pid %d (on %s)"), w.buf,
				    lag->pid, lag->host[0] ? lag->host : "its node");
			finding_fix(f, N_("make every rank call the same collectives in the same order; "
				    "TORCH_DISTRIBUTED_DEBUG=DETAIL checks that at each collective"));
			finding_rerun(f, "TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 "
				      "TORCH_NCCL_DEBUG_INFO_PIPE_FILE=/tmp/nccl_trace_pipe_ (then "
				      "echo 1 > /tmp/nccl_trace_pipe_<rank>.pipe dumps a hung rank, and "
				      "ncclcheck attach --fr DIR names the collective and its stack)");
			for (size_t i = 0; i < cm->nranks; i++)
				finding_evidence(f, "RAS communicator %s: rank %d (pid %d on %s, GPU %d) "
						 "launched %llu %s, %llu %.1f s earlier",
						 cm->hash, cm->ranks[i].rank, cm->ranks[i].pid,
						 cm->ranks[i].host, cm->ranks[i].cuda_dev,
						 (unsigned long long)cm->ranks[i].counts[op], ras_op_names[op],
						 (unsigned long long)rank_in(old, cm->ranks[i].rank)->counts[op], secs);
			if (doing.len)
				finding_evidence(f, "/proc: rank %d: %s", lag->rank, doing.buf);
			reason_verdict(c, 4, "%s has not launched %s #%llu that rank(s) %s launched%s%s",
				w.buf, ras_op_names[op], (unsigned long long)(lag->counts[op] + 1), ahead.buf,
				doing.len ? "; " : "", doing.buf);
			strbuf_release(&w);
			strbuf_release(&doing);
		} else if (lo != hi) {
			f = finding_add(c->fs, two ? SEV_INFO : SEV_WARN, "attach.ras.skew",
					"%s counts differ (%llu..%llu)%s", ras_op_names[op], (unsigned long long)lo,
					(unsigned long long)hi, two ? " but move: normal skew" : "; seen once");
			finding_why(f, "%s", two ?
				    "Ranks launch collectives asynchronously, so counts differ in flight; "
				    "only counts that stay unequal across polls point at a rank." :
				    "One poll cannot tell skew in flight from ranks that stopped; poll again "
				    "(the default is two polls) before trusting it.");
			f->conf = two ? CONF_HIGH : CONF_LOW;
			finding_evidence(f, "ranks behind: %s; ahead: %s", behind.buf, ahead.buf);
		} else if (cm->nmissing == 0 && fz) {
			f = finding_add(c->fs, SEV_ERROR, "attach.ras.counts_equal",
					"every rank launched %s #%llu and none moved on for %.1f s: a "
					"GPU-side or network stall", ras_op_names[op], (unsigned long long)hi, secs);
			finding_why(f, "All %zu ranks of communicator %s launched the same number of "
				    "collectives and nothing changed between polls. The application side "
				    "did its part; the collective itself does not finish. RAS counts "
				    "launches only and cannot see inside a running collective "
				    "(NVIDIA/nccl#1730): the cause is the network between the nodes (a "
				    "firewall dropping NCCL's ports, an MTU black hole, a dead link) or a "
				    "GPU that stopped making progress.", cm->nranks, cm->hash);
			finding_fix(f, N_("check the path between the nodes on every interface NCCL uses"));
			finding_fix(f, N_("nvidia-smi on each node: a GPU at 100%% with no progress, Xid errors "
				    "in dmesg"));
			finding_check(f, N_("ncclcheck cluster   # reachability, ports and MTU between the nodes"));
			finding_rerun(f, "TORCH_NCCL_TRACE_BUFFER_SIZE=2000 (the flight recorder tells "
				      "'started' from 'scheduled' per rank)");
			f->conf = CONF_MEDIUM;
			finding_evidence(f, "RAS communicator %s: %s count %llu on ranks %s, unchanged "
					 "over %.1f s", cm->hash, ras_op_names[op], (unsigned long long)hi, ahead.buf, secs);
			reason_verdict(c, 8, "every rank launched %s #%llu and it does not complete: a GPU or "
				"network stall that RAS cannot see into", ras_op_names[op], (unsigned long long)hi);
		} else if (cm->nmissing == 0 && two) {
			uint64_t ohi = 0;
			for (size_t i = 0; i < old->nranks; i++)
				if (old->ranks[i].counts[op] > ohi)
					ohi = old->ranks[i].counts[op];
			f = finding_add(c->fs, SEV_OK, "attach.ras.progressing",
					"communicator %s is making progress: %s %llu -> %llu"
					" in %.1f s", cm->hash, ras_op_names[op], (unsigned long long)ohi, (unsigned long long)hi, secs);
			reason_verdict(c, 9, "the job is making progress: %s count went from %llu to %llu in %.1f s",
				       ras_op_names[op], (unsigned long long)ohi, (unsigned long long)hi, secs);
		}
		strbuf_release(&behind);
		strbuf_release(&ahead);
	}
}

/* The local ranks that RAS lists as present: stopped or in D state is worth saying. */
static void ras_local_procs(struct ctx *c, const struct ras_comm *cm)
{
	for (size_t i = 0; i < cm->nranks; i++) {
		const struct ras_rank *rk = &cm->ranks[i];
		struct strbuf doing = STRBUF_INIT, w = STRBUF_INIT;
		enum pkind k = rk->pid > 0 ? reason_proc_doing(c, rk->host, rk->pid, &doing) : P_UNKNOWN;
		struct finding *f = NULL;
		struct who who;

		reason_find_who(cm, rk->rank, &who);
		reason_who_str(&who, &w);
		if (k == P_GONE || k == P_ZOMBIE) {
			f = finding_add(c->fs, SEV_ERROR, "attach.proc.gone", "%s has exited", w.buf);
			finding_why(f, "RAS still lists it (its death is declared only after 60 s), but "
				    "/proc shows the process is gone.");
			reason_verdict(c, 1, "%s is gone: %s; the other ranks wait for it", w.buf, doing.buf);
		} else if (k == P_STOPPED) {
			f = finding_add(c->fs, SEV_ERROR, "attach.proc.stopped", "%s is stopped", w.buf);
			finding_why(f, "A stopped process runs neither its training loop nor NCCL's threads; "
				    "every other rank waits for it.");
			finding_fix(f, N_("kill -CONT %d   # if it was stopped by mistake"), rk->pid);
			reason_verdict(c, 2, "%s is stopped (SIGSTOP, Ctrl-Z or a debugger): every other rank waits "
				"for it", w.buf);
		} else if (k == P_DSTATE) {
			f = finding_add(c->fs, SEV_WARN, "attach.proc.dstate",
					"%s has a thread in uninterruptible sleep", w.buf);
			finding_why(f, "A thread in D state waits in the kernel (a file system such as NFS "
				    "or Lustre, a GPU driver call, swap); it cannot be interrupted.");
			finding_fix(f, N_("cat /proc/%d/task/*/stack (as root) shows where"), rk->pid);
		}
		if (f) {
			rank_subject(f, rk);
			finding_evidence(f, "/proc: %s", doing.buf);
		}
		strbuf_release(&doing);
		strbuf_release(&w);
	}
}

static void ras_reason(struct ctx *c)
{
	const struct attach_data *d = c->d;
	size_t nok = 0;

	for (size_t i = 0; i < d->npolls; i++) {
		if (!d->polls[i].report)
			continue;
		if (!c->first) {
			c->first = d->polls[i].report;
			c->first_t = d->polls[i].t_ms;
		}
		c->last = d->polls[i].report;
		c->last_t = d->polls[i].t_ms;
		nok++;
	}
	if (!nok) {
		if (d->npolls) {
			struct finding *f = finding_add(c->fs, d->fr_asked ? SEV_WARN : SEV_ERROR,
							"attach.ras.unreachable",
							"no RAS report from %s", d->ras_addr);
			f->conf = CONF_HIGH;
			finding_why(f, "%s", d->polls[d->npolls - 1].error ?
				    d->polls[d->npolls - 1].error : "no answer");
			finding_fix(f, N_("run attach on a node of the job (RAS listens on localhost:28028 "
				    "there), or give --ras HOST:PORT as set in NCCL_RAS_ADDR"));
			finding_fix(f, N_("RAS needs NCCL >= 2.24 and NCCL_RAS_ENABLE not 0"));
			finding_evidence(f, "%zu poll(s) of %s failed", d->npolls, d->ras_addr);
		}
		return;
	}
	c->main = main_comm(c->last);
	for (size_t i = 0; i < d->npolls; i++)
		if (d->polls[i].report && d->polls[i].answer.server_protocol != RAS_PROTOCOL) {
			struct finding *f = finding_add(c->fs, SEV_INFO, "attach.ras.protocol",
							"the RAS service speaks protocol %d, this client %d",
							d->polls[i].answer.server_protocol, RAS_PROTOCOL);
			finding_why(f, "NCCL's own client only warns and continues, as attach did; the "
				    "report decoded, but fields a newer protocol added are not used.");
			break;
		}
	if (c->last->repaired) {
		struct finding *f = finding_add(c->fs, SEV_INFO, "attach.ras.json_repaired",
						"NCCL %s's RAS report is not valid JSON; repaired",
						c->last->version);
		finding_why(f, "NCCL 2.28.7 to 2.28.9 omit a comma in missing_ranks[] entries (fixed in "
			    "2.29.2), so the report of a job with a missing rank does not parse as "
			    "JSON. ncclcheck inserts exactly that comma; other tools may fail here.");
	}
	if (nok == 1) {
		struct finding *f = finding_add(c->fs, SEV_INFO, "attach.ras.one_poll",
						"RAS answered once: counts not known to be frozen");
		f->conf = CONF_LOW;
		finding_why(f, "%s", d->stopped_polling ?
			    "A communicator is still initialising. Generating RAS reports during "
			    "initialisation has crashed NCCL (before 2.27.3: NVIDIA/nccl#1669, #1718; "
			    "2.29.7 at scale: #2346), so attach asked once and stopped. Run it again "
			    "once the job has started training." :
			    "Only one poll succeeded; a stall is told from progress by two polls.");
	}
	if (c->last->ndead) {
		for (size_t i = 0; i < c->last->ndead; i++) {
			const struct ras_process *p = &c->last->dead[i];
			int listed = 0;
			for (size_t k = 0; k < c->last->ncomms; k++)
				for (size_t j = 0; j < c->last->comms[k].nmissing; j++)
					listed |= c->last->comms[k].missing[j].pid == p->pid;
			if (!listed) {
				struct finding *f = finding_add(c->fs, SEV_ERROR, "attach.ras.dead",
								"process %d on %s (GPU %s) is dead", p->pid,
								p->host, p->gpus);
				finding_node(f, p->host);
				finding_evidence(f, "RAS DEAD: Process %d on node %s managing GPU %s", p->pid,
						 p->host, p->gpus);
				reason_verdict(c, 1, "process %d on %s (GPU %s) is dead; the other ranks wait for it",
					p->pid, p->host, p->gpus);
			} else {
				for (size_t k = 0; k < c->last->ncomms; k++)
					for (size_t j = 0; j < c->last->comms[k].nmissing; j++)
						if (c->last->comms[k].missing[j].pid == p->pid)
							c->last->comms[k].missing[j].dead = 1;
			}
		}
	}
	for (size_t i = 0; i < c->last->ncomms; i++) {
		const struct ras_comm *cm = &c->last->comms[i];
		ras_dead_and_missing(c, cm);
		ras_errors(c, cm);
		ras_local_procs(c, cm);
		if (c->last->json)
			ras_counts(c, cm);
		else
			ras_counts_text(c, cm);
	}
	if (!c->last->ncomms)
		reason_verdict(c, 10, "RAS at %s answers but lists no NCCL communicator (NCCL %s): the job has "
			"not initialised NCCL yet, or has destroyed it", d->ras_addr, c->last->version);
}

/* ---- NCCL's own diagnostics ---- */

static void diag_reason(struct ctx *c)
{
	const struct attach_data *d = c->d;

	ras_diag_ask_findings(&d->ask, d->ras_addr, "ncclcheck attach", c->fs);
	if (!d->ask.asked || d->ask.error || d->ask.diag.answer != RAS_DIAG_REPORT)
		return;
	/* a stall RAS cannot see into, and NCCL's own checks name a GPU fault: that is the lead */
	if (c->vprio != 8)
		return;
	for (size_t i = 0; i < c->fs->n; i++) {
		const struct finding *g = c->fs->v[i];
		struct strbuf ranks = STRBUF_INIT;
		if (g->sev != SEV_ERROR || strncmp(g->id, "nccl.diag.", 10))
			continue;
		for (size_t k = 0; k < g->nranks; k++)
			strbuf_addf(&ranks, "%s%d", k ? ", " : "", g->ranks[k]);
		reason_verdict(c, 7, "every rank launched the collective and it does not complete; "
			       "NCCL's diagnostics report %s%s%s: %s", g->nranks ? "rank(s) " : "a fault",
			       ranks.buf, g->nranks ? " at fault" : "", g->evidence && g->nevidence ?
			       g->evidence[0] : g->title);
		strbuf_release(&ranks);
		break;
	}
}

/* ---- payload ---- */

static json_t *proc_json(const struct proc_sample *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "pid", json_integer(s->pid));
	json_object_set_new(o, "exists", json_boolean(s->exists));
	if (s->exists) {
		char st[2] = { s->state, 0 };
		json_object_set_new(o, "state", json_string(st));
		json_object_set_new(o, "comm", json_string(s->comm));
		json_object_set_new(o, "cpu_ticks", json_integer((json_int_t)s->cpu_ticks));
		json_object_set_new(o, "threads", json_integer(s->nthreads));
		json_object_set_new(o, "threads_d", json_integer(s->nthreads_d));
		if (s->nthreads_d)
			json_object_set_new(o, "d_wchan", json_string(s->d_wchan));
	}
	json_object_set_new(o, "t_ms", json_integer(s->t_ms));
	return o;
}

static json_t *report_json(const struct ras_report *r)
{
	json_t *o = json_object(), *comms = json_array();

	json_object_set_new(o, "nccl_version", json_string(r->version));
	json_object_set_new(o, "format", json_string(r->json ? "json" : "text"));
	for (size_t i = 0; i < r->ncomms; i++) {
		const struct ras_comm *cm = &r->comms[i];
		json_t *c = json_object(), *ranks = json_array(), *miss = json_array();
		json_object_set_new(c, "hash", json_string(cm->hash));
		json_object_set_new(c, "size", json_integer(cm->size));
		for (size_t j = 0; j < cm->nranks; j++) {
			const struct ras_rank *rk = &cm->ranks[j];
			json_t *x = json_object(), *cc = json_object();
			json_object_set_new(x, "rank", json_integer(rk->rank));
			json_object_set_new(x, "host", json_string(rk->host));
			json_object_set_new(x, "pid", json_integer(rk->pid));
			json_object_set_new(x, "gpu", json_integer(rk->cuda_dev));
			json_object_set_new(x, "init_state", json_integer(rk->init_state));
			json_object_set_new(x, "async_error", json_integer(rk->async_error));
			for (int op = 0; op < RAS_NOPS; op++)
				if (rk->counts_known & (1u << op))
					json_object_set_new(cc, ras_op_names[op],
							    json_integer((json_int_t)rk->counts[op]));
			json_object_set_new(x, "collective_counts", cc);
			json_array_append_new(ranks, x);
		}
		for (size_t j = 0; j < cm->nmissing; j++) {
			const struct ras_missing *m = &cm->missing[j];
			json_array_append_new(miss, json_pack("{s:i, s:s, s:i, s:i, s:b, s:b}", "rank",
							      m->rank, "host", m->host, "pid", m->pid,
							      "gpu", m->cuda_dev, "unresponsive",
							      m->unresponsive, "dead", m->dead));
		}
		json_object_set_new(c, "ranks", ranks);
		json_object_set_new(c, "missing_ranks", miss);
		json_array_append_new(comms, c);
	}
	json_object_set_new(o, "communicators", comms);
	return o;
}

static json_t *diag_json(const struct attach_data *d)
{
	static const char *const answers[] = {
		[RAS_DIAG_REPORT] = "report", [RAS_DIAG_BUSY] = "busy",
		[RAS_DIAG_UNKNOWN_CMD] = "unknown_command", [RAS_DIAG_REFUSED] = "refused",
	};
	json_t *o = json_object(), *lines = json_array();

	json_object_set_new(o, "asked", json_boolean(d->ask.asked));
	if (d->ask.skipped)
		json_object_set_new(o, "skipped", json_string(d->ask.skipped));
	if (d->ask.error)
		json_object_set_new(o, "error", json_string(d->ask.error));
	if (d->ask.asked && !d->ask.error) {
		json_object_set_new(o, "answer", json_string(answers[d->ask.diag.answer]));
		json_object_set_new(o, "complete", json_boolean(d->ask.diag.done));
		for (size_t i = 0; i < d->ask.diag.n; i++)
			json_array_append_new(lines, json_string(d->ask.diag.v[i].text));
	}
	json_object_set_new(o, "lines", lines);
	return o;
}

static json_t *payload_json(const struct ctx *c, const char *verdict_line)
{
	const struct attach_data *d = c->d;
	json_t *p = json_object(), *polls = json_array(), *dumps = json_array();

	json_object_set_new(p, "verdict", json_string(verdict_line));
	for (size_t i = 0; i < d->npolls; i++) {
		const struct attach_poll *ap = &d->polls[i];
		json_t *o = json_object(), *procs = json_array();
		json_object_set_new(o, "t_ms", json_integer(ap->t_ms));
		if (ap->error)
			json_object_set_new(o, "error", json_string(ap->error));
		if (ap->report)
			json_object_set_new(o, "report", report_json(ap->report));
		for (size_t j = 0; j < ap->nprocs; j++)
			json_array_append_new(procs, proc_json(&ap->procs[j]));
		json_object_set_new(o, "processes", procs);
		json_array_append_new(polls, o);
	}
	if (d->nstacks) {
		json_t *st = json_array();
		struct stack_group *g;
		size_t ng = attach_stack_groups(d->stacks, d->nstacks, &g);

		for (size_t i = 0; i < d->nstacks; i++)
			json_array_append_new(st, attach_stacks_json(&d->stacks[i]));
		json_object_set_new(p, "stacks", st);
		/* the local ranks by where their main threads stand: the smallest groups are the
		 * odd ones out */
		json_object_set_new(p, "stack_groups", attach_stack_groups_json(g, ng));
		attach_stack_groups_release(g, ng);
	}
	if (d->ras_asked) {
		json_t *ras = json_pack("{s:s, s:o, s:b}", "address", d->ras_addr, "polls", polls,
					"stopped_polling", d->stopped_polling);
		json_object_set_new(ras, "diagnostics", diag_json(d));
		json_object_set_new(p, "ras", ras);
	} else
		json_decref(polls);
	for (size_t i = 0; i < d->fr.n; i++) {
		const struct fr_dump *dp = d->fr.v[i];
		json_t *o = json_pack("{s:i, s:s, s:s, s:I}", "rank", dp->rank, "path", dp->path,
				      "version", dp->version, "entries", (json_int_t)dp->nentries);
		json_t *st = json_array();

		/* each process group's sequence numbers as the dump states them (who is behind) */
		for (size_t k = 0; k < dp->nstatus; k++)
			json_array_append_new(st, json_pack("{s:s, s:I, s:I, s:I}", "pg_id",
							    dp->status[k].pg_id, "last_enqueued",
							    (json_int_t)dp->status[k].last_enqueued,
							    "last_started",
							    (json_int_t)dp->status[k].last_started,
							    "last_completed",
							    (json_int_t)dp->status[k].last_completed));
		json_object_set_new(o, "pg_status", st);
		json_array_append_new(dumps, o);
	}
	if (d->fr_asked)
		json_object_set_new(p, "flight_recorder", json_pack("{s:o}", "dumps", dumps));
	else
		json_decref(dumps);
	return p;
}

/* The rank of the local process `pid` in the job's communicator and RAS's address for its node. */
static int local_rank_of(const struct ras_comm *cm, const struct attach_data *d, int pid,
			 const char **host)
{
	for (size_t i = 0; cm && i < cm->nranks; i++)
		if (cm->ranks[i].pid == pid && host_local(d, cm->ranks[i].host)) {
			*host = cm->ranks[i].host;
			return cm->ranks[i].rank;
		}
	for (size_t i = 0; cm && i < cm->nmissing; i++)
		if (cm->missing[i].pid == pid && host_local(d, cm->missing[i].host)) {
			*host = cm->missing[i].host;
			return cm->missing[i].rank;
		}
	return -1;
}

size_t attach_summaries(const struct attach_data *d, struct js_rank **out)
{
	struct ctx c = { .d = d };
	const struct attach_poll *p = d->npolls ? &d->polls[d->npolls - 1] : NULL;
	struct js_rank *v;
	size_t n = 0;

	for (size_t i = 0; i < d->npolls; i++)
		if (d->polls[i].report)
			c.last = d->polls[i].report;
	c.main = main_comm(c.last);
	v = xcalloc(p && p->nprocs ? p->nprocs : 1, sizeof(*v));
	for (size_t i = 0; p && i < p->nprocs && n < JS_RANKS_MAX; i++) {
		struct js_rank *r = &v[n];
		struct strbuf doing = STRBUF_INIT, st = STRBUF_INIT;
		const char *host = NULL;

		r->pid = p->procs[i].pid;
		r->rank = local_rank_of(c.main, d, r->pid, &host);
		if (!host)
			continue;	/* a pid of another communicator only: not a rank of the job's */
		snprintf(r->host, sizeof(r->host), "%s", host);
		r->kind = (enum js_kind)reason_proc_doing(&c, host, r->pid, &doing);
		for (size_t k = 0; k < d->nstacks; k++)
			if (d->stacks[k].pid == r->pid && d->stacks[k].py.status == PY_OK)
				attach_stacks_phrase(&d->stacks[k], PY_FRAMES_MAX, &st);
		r->doing = strbuf_detach(&doing, NULL);
		r->stack = strbuf_detach(&st, NULL);
		n++;
	}
	*out = v;
	return n;
}

void attach_summaries_release(struct js_rank *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].doing);
		free(v[i].stack);
	}
	free(v);
}

int attach_reason(const struct attach_data *d, struct findings *fs, char **verdict_out,
		  json_t **payload)
{
	struct ctx c = { .d = d, .fs = fs, .verdict = STRBUF_INIT, .vprio = 100 };
	int nothing = 0;

	if (d->ras_asked) {
		ras_reason(&c);
		diag_reason(&c);
	}
	if (d->fr_asked)
		reason_fr(&c);
	if (!c.verdict.len) {
		int ras_ok = c.last != NULL;
		int fr_ok = d->fr_asked && d->fr.n > 0;
		if (!ras_ok && !fr_ok) {
			nothing = 1;
			strbuf_addstr(&c.verdict, N_("could not attach: no RAS report and no "
						     "flight-recorder dump"));
		} else {
			strbuf_addstr(&c.verdict, N_("no hang found: no rank is missing, stopped or behind"));
		}
	}
	findings_sort(fs);
	*payload = payload_json(&c, c.verdict.buf);
	*verdict_out = strbuf_detach(&c.verdict, NULL);
	return nothing;
}
