/* attach_collect(): the read-only I/O side of ncclcheck attach (see attach.h). */
#include "attach/attach.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attach/http.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define FR_MAX_FILES 4096
#define FR_MAX_BYTES (256u << 20)

void attach_opts_defaults(struct attach_opts *o)
{
	if (!o->polls)
		o->polls = 2;
	if (!o->interval_ms)
		o->interval_ms = 4000;
	if (!o->ras_timeout_s)
		o->ras_timeout_s = 2;
	if (!o->deadline_ms)
		o->deadline_ms = 14000;
	if (!o->max_bytes)
		o->max_bytes = 16u << 20;
	if (!o->proc_root)
		o->proc_root = "/proc";
}

static void add_host(struct attach_data *d, const char *h, size_t *alloc)
{
	for (size_t i = 0; i < d->nlocal_hosts; i++)
		if (!strcmp(d->local_hosts[i], h))
			return;
	ALLOC_GROW(d->local_hosts, d->nlocal_hosts + 1, *alloc);
	d->local_hosts[d->nlocal_hosts++] = xstrdup(h);
}

static void local_hosts(const struct attach_opts *o, struct attach_data *d)
{
	struct ifaddrs *ifa = NULL, *p;
	size_t alloc = 0;

	if (o->local_hosts) {
		for (size_t i = 0; i < o->nlocal_hosts; i++)
			add_host(d, o->local_hosts[i], &alloc);
		return;
	}
	if (getifaddrs(&ifa) < 0)
		return;
	for (p = ifa; p; p = p->ifa_next) {
		char buf[INET6_ADDRSTRLEN];
		if (!p->ifa_addr)
			continue;
		if (p->ifa_addr->sa_family == AF_INET &&
		    inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)p->ifa_addr)->sin_addr, buf,
			      sizeof(buf)))
			add_host(d, buf, &alloc);
		else if (p->ifa_addr->sa_family == AF_INET6 &&
			 inet_ntop(AF_INET6, &((struct sockaddr_in6 *)(void *)p->ifa_addr)->sin6_addr,
				   buf, sizeof(buf)))
			add_host(d, buf, &alloc);
	}
	freeifaddrs(ifa);
}

static int is_local(const struct attach_data *d, const char *host)
{
	for (size_t i = 0; i < d->nlocal_hosts; i++)
		if (!strcmp(d->local_hosts[i], host))
			return 1;
	return 0;
}

static void sample_pid(struct attach_poll *p, const char *proc_root, int pid, int64_t t)
{
	for (size_t i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid)
			return;
	p->procs = xrealloc(p->procs, (p->nprocs + 1) * sizeof(*p->procs));
	proc_sample(proc_root, pid, t, &p->procs[p->nprocs++]);
}

/* The pids of local ranks this poll or any earlier one named (a rank may vanish later). */
static void sample_procs(const struct attach_opts *o, struct attach_data *d, struct attach_poll *p)
{
	int64_t t = time_now_ms();

	for (size_t k = 0; k < d->npolls; k++) {
		const struct ras_report *r = d->polls[k].report;
		if (!r)
			continue;
		for (size_t c = 0; c < r->ncomms; c++) {
			const struct ras_comm *cm = &r->comms[c];
			for (size_t i = 0; i < cm->nranks; i++)
				if (cm->ranks[i].pid > 0 && is_local(d, cm->ranks[i].host))
					sample_pid(p, o->proc_root, cm->ranks[i].pid, t);
			for (size_t i = 0; i < cm->nmissing; i++)
				if (cm->missing[i].pid > 0 && is_local(d, cm->missing[i].host))
					sample_pid(p, o->proc_root, cm->missing[i].pid, t);
		}
		for (size_t i = 0; i < r->ndead; i++)
			if (r->dead[i].pid > 0 && is_local(d, r->dead[i].host))
				sample_pid(p, o->proc_root, r->dead[i].pid, t);
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Generating a report while a communicator initialises has crashed NCCL: < 2.27.3 (#1669,
 * #1718: "even at a 5 second poll interval"), and 2.29.7 at scale while communicators churn
 * (#2346, open). So: never ask again while any rank reports init in progress, on any version;
 * on NCCL < 2.27.3 also not while no communicator exists yet (init is still to come).
 */
static int init_unsafe(const struct ras_report *r)
{
	return ras_report_initialising(r) || (r->ncomms == 0 && !ras_version_at_least(r, 2, 27, 3));
}

#define FR_LIVE_TARGET "/handler/dump_nccl_trace_pickle?includecollectives=true&" \
	"includestacktraces=true&onlyactive=false"

static void fr_bad(struct attach_data *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fr_bad(struct attach_data *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(d->fr.bad, d->fr.nbad + 1, d->fr.abad);
	d->fr.bad[d->fr.nbad++] = strbuf_detach(&sb, NULL);
}

static int have_rank(const struct attach_data *d, int rank)
{
	for (size_t i = 0; i < d->fr.n; i++)
		if (d->fr.v[i]->rank == rank)
			return 1;
	return 0;
}

static void fetch_one(struct attach_data *d, int rank, const char *url, int64_t deadline)
{
	struct strbuf body = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct fr_dump *fd;
	int64_t left = deadline - time_now_ms();

	if (have_rank(d, rank))
		return;
	d->fr_asked = 1;
	if (http_post(url, FR_LIVE_TARGET, FR_MAX_BYTES, (long)(left < 3000 ? 3000 : left), &body,
		      &e) < 0) {
		fr_bad(d, "%s (rank %d): %s", url, rank, e.msg);
	} else if (!(fd = fr_dump_parse(body.buf, body.len, rank, url, &e))) {
		fr_bad(d, "%s (rank %d): %s", url, rank, e.msg);
	} else {
		ALLOC_GROW(d->fr.v, d->fr.n + 1, d->fr.alloc);
		d->fr.v[d->fr.n++] = fd;
		d->fr_fetched++;
	}
	strbuf_release(&body);
}

static void fetch_live(const struct attach_opts *o, struct attach_data *d, int64_t deadline)
{
	const struct ras_report *r = NULL;

	for (size_t i = 0; i < o->nfr_urls; i++)
		fetch_one(d, o->fr_url_ranks[i], o->fr_urls[i], deadline);
	if (!o->fr_live)
		return;
	for (size_t i = 0; i < d->npolls; i++)
		if (d->polls[i].report)
			r = d->polls[i].report;
	if (!r) {
		d->fr_asked = 1;
		fr_bad(d, "--fr-live: no RAS report, so no local ranks to ask");
		return;
	}
	for (size_t c = 0; c < r->ncomms; c++)
		for (size_t i = 0; i < r->comms[c].nranks; i++) {
			const struct ras_rank *rk = &r->comms[c].ranks[i];
			char url[300];
			if (rk->pid <= 0 || !is_local(d, rk->host))
				continue;
			proc_worker_socket(o->proc_root, rk->pid, url, sizeof(url));
			if (url[0])
				fetch_one(d, rk->rank, url, deadline);
			else if (!have_rank(d, rk->rank)) {
				d->fr_asked = 1;
				fr_bad(d, "rank %d (pid %d): no TORCH_WORKER_SERVER_SOCKET in its environment "
				       "(the job does not run torch's worker server)", rk->rank, rk->pid);
			}
		}
}

static const struct ras_report *last_report(const struct attach_data *d)
{
	const struct ras_report *r = NULL;

	for (size_t i = 0; i < d->npolls; i++)
		if (d->polls[i].report)
			r = d->polls[i].report;
	return r;
}

/* A TIMEOUT with a fraction goes as a float only to a server known to be NCCL >= 2.31. */
static int float_timeout(const struct attach_data *d)
{
	const struct ras_report *r = last_report(d);

	return r && ras_version_at_least(r, 2, 31, 0);
}

/*
 * NCCL's DIAGNOSTICS compare the ranks of every communicator (GPUs, driver, ECC, Xid, NVLink,
 * NCCL_* env) without exercising NCCL's data paths: asked once, when a STATUS report shows NCCL
 * >= 2.31 and no communicator is initialising (the checks need the ranks' peer info).
 */
static void ask_diagnostics(const struct attach_opts *o, struct attach_data *d, int64_t start,
			    int64_t deadline)
{
	const struct ras_report *r = last_report(d);
	struct ras_opts ro = {
		.host = o->ras_host,
		.port = o->ras_port,
		.timeout_s = o->ras_timeout_s,
		.timeout_float = 1,
	};
	int64_t budget = deadline - time_now_ms();

	if (o->no_diagnostics || !r)
		return;
	/* the last report is the one that stopped the polls, if one did */
	if (!ras_diag_ask_ready(&d->ask, r))
		return;
	if (budget < 2000) {
		ras_diag_ask_skip(&d->ask, "the --deadline left %lld ms after the polls",
				  (long long)budget);
		return;
	}
	ro.deadline_ms = (long)(budget < (o->ras_timeout_s + 6) * 1000 ?
				budget : (o->ras_timeout_s + 6) * 1000);
	d->ask.answer.t_ms = time_now_ms() - start;
	ras_diag_ask_query(&d->ask, &ro);
}

/*
 * Every local rank process the polls sampled, once: where its Python threads are, read after
 * the polls (the moment the verdict describes). Only from this machine's own /proc, and only
 * processes that map NCCL.
 */
static void read_stacks(const struct attach_opts *o, struct attach_data *d, int64_t deadline)
{
	if (o->no_stacks || strcmp(o->proc_root, "/proc") != 0)
		return;
	for (size_t i = 0; i < d->npolls; i++)
		for (size_t j = 0; j < d->polls[i].nprocs; j++) {
			const struct proc_sample *s = &d->polls[i].procs[j];
			int seen = 0;
			for (size_t k = 0; k < d->nstacks && !seen; k++)
				seen = d->stacks[k].pid == s->pid;
			if (seen || !s->exists)
				continue;
			d->stacks = xrealloc(d->stacks, (d->nstacks + 1) * sizeof(*d->stacks));
			/* each WorkerServer may take its whole timeout: none past the deadline */
			attach_stacks_collect(s->pid, o->proc_root,
					      o->stacks_from == STACKS_AUTO &&
					      deadline - time_now_ms() < STACKS_WORKER_SERVER_MS ?
					      STACKS_MEMORY : o->stacks_from, NULL, &d->stacks[d->nstacks]);
			/* a pid RAS reported from another PID namespace (a container) can be another
			 * process here: only one that maps NCCL is taken for the rank */
			if (!d->stacks[d->nstacks].maps_nccl)
				attach_stacks_release(&d->stacks[d->nstacks]);
			else
				d->nstacks++;
		}
}

int attach_collect(const struct attach_opts *o, struct attach_data *d, struct err *e)
{
	int64_t start = time_now_ms(), deadline;

	memset(d, 0, sizeof(*d));
	if (o->interval_ms < ATTACH_MIN_INTERVAL_MS)
		return err_set(e, ERR_USAGE, "polling RAS every %ld ms is too fast: at least %d ms "
			       "apart (tight polling crashed NCCL 2.26.5, NVIDIA/nccl#1718)",
			       o->interval_ms, ATTACH_MIN_INTERVAL_MS);
	if (o->polls < 1 || o->polls > ATTACH_MAX_POLLS)
		return err_set(e, ERR_USAGE, "%d polls: between 1 and %d", o->polls, ATTACH_MAX_POLLS);
	d->interval_ms = o->interval_ms;
	d->ticks_per_sec = proc_ticks_per_sec();
	deadline = start + o->deadline_ms;
	local_hosts(o, d);

	if (o->fr_dir) {
		struct err fe = ERR_INIT;
		d->fr_asked = 1;
		if (fr_load_dir(o->fr_dir, o->fr_prefix, FR_MAX_FILES, FR_MAX_BYTES, &d->fr, &fe) < 0)
			d->fr_error = xstrdup(fe.msg);
	}
	if (!o->ras_host) {
		fetch_live(o, d, deadline);
		return 0;
	}
	d->ras_asked = 1;
	snprintf(d->ras_addr, sizeof(d->ras_addr), strchr(o->ras_host, ':') ? "[%s]:%s" : "%s:%s",
		 o->ras_host, o->ras_port);
	d->polls = xcalloc((size_t)o->polls, sizeof(*d->polls));
	for (int i = 0; i < o->polls; i++) {
		struct ras_opts ro = {
			.host = o->ras_host,
			.port = o->ras_port,
			.timeout_s = o->ras_timeout_s,
			.timeout_float = float_timeout(d),
			.want_json = o->want_json,
			.max_bytes = o->max_bytes,
		};
		struct attach_poll *p;
		struct err qe = ERR_INIT;
		int64_t now = time_now_ms(), budget;

		if (i > 0) {
			int64_t at = start + i * o->interval_ms;
			/* a query may take TIMEOUT plus NCCL's 5 s extra; do not start one we cannot finish */
			if (at + 1000 > deadline)
				break;
			if (at > now)
				sleep_ms((long)(at - now));
			now = time_now_ms();
		}
		budget = deadline - now;
		ro.deadline_ms = (long)(budget < (o->ras_timeout_s + 6) * 1000 ?
					budget : (o->ras_timeout_s + 6) * 1000);
		p = &d->polls[d->npolls++];
		p->t_ms = now - start;
		p->answer.t_ms = p->t_ms;
		if (ras_query(&ro, &p->answer, &qe) < 0) {
			p->error = xstrdup(qe.msg);
		} else if (!(p->report = ras_report_parse(p->answer.status, p->answer.status_len, &qe))) {
			p->error = xstrdup(qe.msg);
		}
		sample_procs(o, d, p);
		if (p->report && init_unsafe(p->report)) {
			d->stopped_polling = 1;
			break;
		}
		/* nothing listens: asking again in a few seconds will not change that */
		if (!p->report && p->answer.nx == 0)
			break;
	}
	read_stacks(o, d, deadline);
	ask_diagnostics(o, d, start, deadline);
	fetch_live(o, d, deadline);
	if (d->fr.n > 1)
		fr_set_sort(&d->fr);
	return 0;
}

void attach_data_release(struct attach_data *d)
{
	for (size_t i = 0; i < d->npolls; i++) {
		ras_answer_release(&d->polls[i].answer);
		ras_report_free(d->polls[i].report);
		free(d->polls[i].error);
		free(d->polls[i].procs);
	}
	free(d->polls);
	ras_diag_ask_release(&d->ask);
	for (size_t i = 0; i < d->nstacks; i++)
		attach_stacks_release(&d->stacks[i]);
	free(d->stacks);
	fr_set_release(&d->fr);
	free(d->fr_error);
	for (size_t i = 0; i < d->nlocal_hosts; i++)
		free(d->local_hosts[i]);
	free(d->local_hosts);
	memset(d, 0, sizeof(*d));
}

json_t *attach_transcript(const struct attach_data *d)
{
	struct ras_answer *a = xcalloc(d->npolls + 1, sizeof(*a));
	json_t *j;
	char src[400];
	size_t n = 0;

	for (size_t i = 0; i < d->npolls; i++)
		a[n++] = d->polls[i].answer;
	/* the diagnostics connection comes after the polls: the replay serves connection i poll i */
	if (d->ask.asked)
		a[n++] = d->ask.answer;
	snprintf(src, sizeof(src), "ncclcheck attach --record, RAS at %s", d->ras_addr);
	j = ras_transcript_json(a, n, src);
	free(a);
	return j;
}
