/*
 * The cross-rank reasoner: resolves streams to ranks, turns signature hits into diagnoses, and
 * reasons across ranks (wrong bootstrap interface, NCCL version mismatch, missing ranks, partial
 * init, rendezvous vs NCCL hangs, watchdog desync). Pure: no I/O.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/reason.h"
#include "explain/sigs.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAX_PARTS 4096
#define CHECK_NODE_CMD EXPLAIN_CHECK_NODE

/* One participant: a rank (its streams merged), or the unresolved lines of one input. */
struct part {
	int rank;
	char label[96];
	struct stream_obs m;
	int err_sig;		/* an error-level signature hit one of its streams */
	int net_sig;		/* a network signature hit one of its streams */
};

struct diag {
	char *id;
	enum severity sev;
	enum confidence conf;
	int score;
	char *title, *why, *node;
	char **fix, **ev;
	size_t nfix, afix, nev, aev;
	json_t *ranks, *where;
	uint64_t count;
	const char *rerun, *check;
};

struct rs {
	const struct run_obs *x;
	struct part *p;
	size_t np;
	int32_t *st2p;		/* stream -> part */
	struct diag *d;
	size_t nd, ad;
	char suggest_if[32];	/* the interface in MASTER_ADDR's subnet, when the log shows one */
	char suggest_why[320];
	uint32_t master_v4;
	int master_is_v4;
};

/* ---- diagnoses ------------------------------------------------------------------------------ */

static struct diag *diag_new(struct rs *r, const char *id, enum severity sev, enum confidence conf,
			     int bonus)
{
	struct diag *d;

	ALLOC_GROW(r->d, r->nd + 1, r->ad);
	d = &r->d[r->nd++];
	memset(d, 0, sizeof(*d));
	d->id = xstrdup(id);
	d->sev = sev;
	d->conf = conf;
	d->score = (int)sev * 1000 + (int)conf * 100 + bonus;
	d->ranks = json_array();
	d->where = json_array();
	return d;
}

static char *vfmt(const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	return strbuf_detach(&sb, NULL);
}

static void diag_title(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag_title(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(d->title);
	d->title = vfmt(fmt, ap);
	va_end(ap);
}

static void diag_why(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag_why(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(d->why);
	d->why = vfmt(fmt, ap);
	va_end(ap);
}

static void diag_fix(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag_fix(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(d->fix, d->nfix + 1, d->afix);
	va_start(ap, fmt);
	d->fix[d->nfix++] = vfmt(fmt, ap);
	va_end(ap);
}

static void diag_ev(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag_ev(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(d->ev, d->nev + 1, d->aev);
	va_start(ap, fmt);
	d->ev[d->nev++] = vfmt(fmt, ap);
	va_end(ap);
}

/* An evidence line "file:line: text" and its location in `where`. */
static void diag_at(struct rs *r, struct diag *d, struct loc l, const char *what, const char *text)
{
	char w[512];

	if (!l.line)
		return;
	obs_loc_fmt(r->x, l, w, sizeof(w));
	json_array_append_new(d->where, json_string(w));
	if (text && *text)
		diag_ev(d, "%s: %s%s%s", w, what ? what : "", what ? ": " : "", text);
	else
		diag_ev(d, "%s: %s", w, what ? what : "");
}

static void diag_free(struct diag *d)
{
	free(d->id);
	free(d->title);
	free(d->why);
	free(d->node);
	for (size_t i = 0; i < d->nfix; i++)
		free(d->fix[i]);
	for (size_t i = 0; i < d->nev; i++)
		free(d->ev[i]);
	free(d->fix);
	free(d->ev);
	json_decref(d->ranks);
	json_decref(d->where);
}

/* "rank 3", "ranks 0-2, 5", "ranks 0-7 and 12 more" from a sorted unique list. */
static void rank_list(const int *v, size_t n, struct strbuf *sb)
{
	size_t i = 0, groups = 0;

	if (!n)
		return;
	strbuf_addstr(sb, n == 1 ? "rank " : "ranks ");
	while (i < n) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (groups == 6) {
			strbuf_addf(sb, " and %zu more", n - i);
			break;
		}
		strbuf_addf(sb, "%s%d", groups ? ", " : "", v[i]);
		if (j > i)
			strbuf_addf(sb, "%s%d", j == i + 1 ? ", " : "-", v[j]);
		groups++;
		i = j + 1;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Sets d->node and d->ranks from a set of parts. */
static void diag_parts(struct rs *r, struct diag *d, const size_t *parts, size_t n)
{
	int *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t nv = 0, unresolved = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct part *p = &r->p[parts[i]];
		if (p->rank >= 0) {
			int dup = 0;
			for (size_t k = 0; k < nv; k++)
				dup |= v[k] == p->rank;
			if (!dup)
				v[nv++] = p->rank;
		} else {
			unresolved++;
			if (unresolved == 1 && n == 1)
				strbuf_addstr(&sb, p->label);
		}
	}
	qsort(v, nv, sizeof(*v), cmp_int);
	for (size_t i = 0; i < nv; i++)
		json_array_append_new(d->ranks, json_integer(v[i]));
	if (nv) {
		strbuf_reset(&sb);
		rank_list(v, nv, &sb);
	}
	if (sb.len) {
		free(d->node);
		d->node = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	free(v);
}

/* ---- addresses ----------------------------------------------------------------------------- */

enum aclass { A_UNKNOWN, A_PRIVATE, A_PUBLIC, A_LOOPBACK, A_LINKLOCAL, A_DOCKER };

static const char *aclass_name(enum aclass c)
{
	static const char *const n[] = { "unknown", "private", "public", "loopback", "link-local",
					 "docker bridge" };
	return n[c];
}

static int v4(const char *s, uint32_t *out)
{
	struct in_addr a;
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", s);
	buf[strcspn(buf, "%<")] = '\0';
	if (inet_pton(AF_INET, buf, &a) != 1)
		return 0;
	*out = ntohl(a.s_addr);
	return 1;
}

static enum aclass classify(const char *ifname, const char *addr)
{
	uint32_t a;

	if (!strncmp(ifname, "docker", 6) || !strncmp(ifname, "br-", 3) || !strncmp(ifname, "virbr", 5))
		return A_DOCKER;
	if (!strncmp(addr, "fe80", 4))
		return A_LINKLOCAL;
	if (!strcmp(addr, "::1") || !strcmp(ifname, "lo"))
		return A_LOOPBACK;
	if (!v4(addr, &a))
		return A_UNKNOWN;
	if ((a >> 24) == 127)
		return A_LOOPBACK;
	if ((a >> 16) == 0xa9fe)
		return A_LINKLOCAL;
	if ((a >> 16) == ((172u << 8) | 17))
		return A_DOCKER;
	if ((a >> 24) == 10 || (a >> 20) == ((172u << 4) | 1) || (a >> 16) == ((192u << 8) | 168) ||
	    (a >> 22) == ((100u << 2) | 1))
		return A_PRIVATE;
	return A_PUBLIC;
}

static int same_net(uint32_t a, uint32_t b, int prefix)
{
	uint32_t m = prefix <= 0 ? 0 : prefix >= 32 ? 0xffffffffu : ~((1u << (32 - prefix)) - 1);
	return (a & m) == (b & m);
}

static int iface_prefix(const struct run_obs *x, const char *ifname, const char *addr)
{
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].addr, addr) && (!ifname || !strcmp(x->ifs[i].ifname, ifname)) &&
		    x->ifs[i].prefix >= 0)
			return x->ifs[i].prefix;
	return -1;
}

/* The interface whose address is MASTER_ADDR or in its subnet, as the log shows them. */
static void find_suggestion(struct rs *r)
{
	const struct run_obs *x = r->x;
	static const int guesses[] = { 24, 16 };
	uint32_t a;

	if (!r->master_is_v4)
		return;
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].addr, x->master)) {
			snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
			snprintf(r->suggest_why, sizeof(r->suggest_why), "%s has MASTER_ADDR %s itself",
				 x->ifs[i].ifname, x->master);
			return;
		}
	for (int i = 0; i < x->nifs; i++)
		if (x->ifs[i].prefix > 0 && v4(x->ifs[i].addr, &a) &&
		    same_net(a, r->master_v4, x->ifs[i].prefix)) {
			snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
			snprintf(r->suggest_why, sizeof(r->suggest_why), "%s (%s/%d) is in MASTER_ADDR %s's subnet",
				 x->ifs[i].ifname, x->ifs[i].addr, x->ifs[i].prefix, x->master);
			return;
		}
	for (size_t g = 0; g < ARRAY_SIZE(guesses); g++)
		for (int i = 0; i < x->nifs; i++)
			if (x->ifs[i].prefix < 0 && v4(x->ifs[i].addr, &a) &&
			    classify(x->ifs[i].ifname, x->ifs[i].addr) == classify("", x->master) &&
			    same_net(a, r->master_v4, guesses[g])) {
				snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
				snprintf(r->suggest_why, sizeof(r->suggest_why),
					 "%s (%s) shares MASTER_ADDR %s's /%d", x->ifs[i].ifname,
					 x->ifs[i].addr, x->master, guesses[g]);
				return;
			}
}

/* The fix lines for "use the interface that reaches MASTER_ADDR". */
static void fix_ifname(struct rs *r, struct diag *d)
{
	if (r->suggest_if[0]) {
		diag_fix(d, "export NCCL_SOCKET_IFNAME=%s GLOO_SOCKET_IFNAME=%s   # on every node: %s",
			 r->suggest_if, r->suggest_if, r->suggest_why);
	} else if (r->x->master[0]) {
		diag_fix(d, "export NCCL_SOCKET_IFNAME=$(ip -o route get %s | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')   "
			 "# on every node: the interface that reaches MASTER_ADDR", r->x->master);
	} else {
		diag_fix(d, "%s", EXPLAIN_FIX_IFNAME);
	}
}

/* ---- resolution ----------------------------------------------------------------------------- */

static void merge_loc(struct loc *dst, struct loc src)
{
	if (!dst->line && src.line)
		*dst = src;
}

static void merge(struct stream_obs *d, const struct stream_obs *s)
{
#define TAKE_STR(f) do { if (!d->f[0] && s->f[0]) memcpy(d->f, s->f, sizeof(d->f)); } while (0)
#define TAKE_INT(f) do { if (d->f < 0 && s->f >= 0) d->f = s->f; } while (0)
	if (!d->nhost[0] && s->nhost[0]) {
		memcpy(d->nhost, s->nhost, sizeof(d->nhost));
		d->npid = s->npid;
	}
	d->lines += s->lines;
	d->nccl_lines += s->nccl_lines;
	if (!d->nccl_version[0] && s->nccl_version[0]) {
		memcpy(d->nccl_version, s->nccl_version, sizeof(d->nccl_version));
		d->ver_loc = s->ver_loc;
	}
	if (!d->boot_loc.line && s->boot_loc.line) {
		memcpy(d->boot_if, s->boot_if, sizeof(d->boot_if));
		memcpy(d->boot_addr, s->boot_addr, sizeof(d->boot_addr));
		d->boot_loc = s->boot_loc;
	}
	if (!d->sock_loc.line && s->sock_loc.line) {
		memcpy(d->sock, s->sock, sizeof(d->sock));
		d->nsock = s->nsock;
		d->sock_loc = s->sock_loc;
	}
	if (!d->ib_loc.line && s->ib_loc.line) {
		memcpy(d->ib, s->ib, sizeof(d->ib));
		d->ib_loc = s->ib_loc;
	}
	TAKE_STR(network);
	if (d->nranks < 0 && s->nranks >= 0) {
		d->nranks = s->nranks;
		d->nnodes = s->nnodes;
		d->local_ranks = s->local_ranks;
		d->topo_loc = s->topo_loc;
	}
	merge_loc(&d->init_start, s->init_start);
	merge_loc(&d->init_complete, s->init_complete);
	TAKE_INT(start_nranks);
	if (d->init_total < 0 && s->init_total >= 0)
		d->init_total = s->init_total;
	d->transports |= s->transports;
	if (!d->nvia && s->nvia) {
		memcpy(d->via_example, s->via_example, sizeof(d->via_example));
		d->via_loc = s->via_loc;
	}
	d->nvia += s->nvia;
	merge_loc(&d->pl_init, s->pl_init);
	merge_loc(&d->pl_registered, s->pl_registered);
	TAKE_INT(pl_rank);
	TAKE_INT(pl_world);
	if (!d->wd_count && s->wd_count) {
		d->wd_seq = s->wd_seq;
		d->wd_timeout_ms = s->wd_timeout_ms;
		memcpy(d->wd_op, s->wd_op, sizeof(d->wd_op));
		d->wd_loc = s->wd_loc;
	}
	d->wd_count += s->wd_count;
	/* the latest exception and the latest line win (same file: larger line number) */
	if (s->exc_loc.line && (!d->exc_loc.line || s->exc_loc.line > d->exc_loc.line)) {
		memcpy(d->exception, s->exception, sizeof(d->exception));
		d->exc_loc = s->exc_loc;
	}
	if (s->last_loc.line && (!d->last_loc.line || s->last_loc.line > d->last_loc.line)) {
		memcpy(d->last, s->last, sizeof(d->last));
		d->last_loc = s->last_loc;
	}
#undef TAKE_STR
#undef TAKE_INT
}

/* qsort has no context argument in C11: the array being sorted rides in a thread-local. */
static _Thread_local const struct part *sort_parts;

static int cmp_part(const void *a, const void *b)
{
	const struct part *pa = &sort_parts[*(const size_t *)a], *pb = &sort_parts[*(const size_t *)b];
	long ka = pa->rank < 0 ? (1L << 40) + pa->m.file : pa->rank;
	long kb = pb->rank < 0 ? (1L << 40) + pb->m.file : pb->rank;

	return (ka > kb) - (ka < kb);
}

static void resolve(struct rs *r)
{
	const struct run_obs *x = r->x;
	int *file_rank = xmalloc((x->nin ? x->nin : 1) * sizeof(*file_rank));
	int *srank = xmalloc((x->nst ? x->nst : 1) * sizeof(*srank));

	/* a file whose resolved streams all name one rank lends it to its unresolved streams */
	for (uint32_t f = 0; f < x->nin; f++)
		file_rank[f] = -2;	/* -2 none yet, -1 several */
	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *s = &x->st[i];
		srank[i] = s->rank_prio >= 0 ? s->rank : -1;
		if (s->rank_prio < 0 || s->file >= x->nin)
			continue;
		if (file_rank[s->file] == -2)
			file_rank[s->file] = s->rank;
		else if (file_rank[s->file] != s->rank)
			file_rank[s->file] = -1;
	}
	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *s = &x->st[i];
		if (s->rank_prio >= 0 || s->file >= x->nin)
			continue;
		if (x->in[s->file].name_rank >= 0)
			srank[i] = x->in[s->file].name_rank;
		else if (file_rank[s->file] >= 0)
			srank[i] = file_rank[s->file];
	}
	free(file_rank);

	r->st2p = xmalloc((x->nst ? x->nst : 1) * sizeof(*r->st2p));
	r->p = xcalloc(x->nst ? x->nst : 1, sizeof(*r->p));
	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *s = &x->st[i];
		int rank = srank[i];
		size_t k;
		r->st2p[i] = -1;
		if (!s->lines)
			continue;
		for (k = 0; k < r->np; k++) {
			if (rank >= 0 ? r->p[k].rank == rank
				      : (r->p[k].rank < 0 && r->p[k].m.file == s->file))
				break;
		}
		if (k == r->np) {
			if (r->np >= MAX_PARTS)
				continue;
			r->np++;
			r->p[k].rank = rank;
			r->p[k].m = *s;
			if (rank >= 0)
				snprintf(r->p[k].label, sizeof(r->p[k].label), "rank %d", rank);
			else
				snprintf(r->p[k].label, sizeof(r->p[k].label), "%s",
					 s->file < x->nin ? x->in[s->file].name : "-");
		} else {
			merge(&r->p[k].m, s);
		}
		r->st2p[i] = (int32_t)k;
	}
	free(srank);
	/* resolved ranks in order, unresolved inputs after them */
	{
		size_t *perm = xmalloc((r->np ? r->np : 1) * sizeof(*perm));
		size_t *inv = xmalloc((r->np ? r->np : 1) * sizeof(*inv));
		struct part *sorted = xcalloc(r->np ? r->np : 1, sizeof(*sorted));
		for (size_t i = 0; i < r->np; i++)
			perm[i] = i;
		sort_parts = r->p;
		qsort(perm, r->np, sizeof(*perm), cmp_part);
		for (size_t i = 0; i < r->np; i++) {
			sorted[i] = r->p[perm[i]];
			inv[perm[i]] = i;
		}
		for (uint32_t i = 0; i < x->nst; i++)
			if (r->st2p[i] >= 0)
				r->st2p[i] = (int32_t)inv[r->st2p[i]];
		free(r->p);
		r->p = sorted;
		free(perm);
		free(inv);
	}
}

/* ---- signature diagnoses ---------------------------------------------------------------------- */

static void sig_parts(struct rs *r, const struct sig_hit *h, size_t *out, size_t *n)
{
	*n = 0;
	for (int i = 0; i < h->nstreams; i++) {
		int32_t p = h->streams[i] < r->x->nst ? r->st2p[h->streams[i]] : -1;
		int dup = 0;
		if (p < 0)
			continue;
		for (size_t k = 0; k < *n; k++)
			dup |= out[k] == (size_t)p;
		if (!dup)
			out[(*n)++] = (size_t)p;
	}
}

static char *subst(const char *title, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	const char *m = strstr(title, "{}");

	if (!m) {
		strbuf_addstr(&sb, title);
	} else {
		strbuf_add(&sb, title, (size_t)(m - title));
		strbuf_addstr(&sb, value && *value ? value : "?");
		strbuf_addstr(&sb, m + 2);
	}
	return strbuf_detach(&sb, NULL);
}

static void sig_diags(struct rs *r)
{
	const struct run_obs *x = r->x;
	size_t *parts = xmalloc(OBS_SIG_STREAMS * sizeof(*parts)), np;

	for (size_t i = 0; i < explain_nsigs; i++) {
		const struct explain_sig *g = &explain_sigs[i];
		const struct sig_hit *h = &x->hits[i];
		struct diag *d;
		char *t;

		if (!h->count)
			continue;
		d = diag_new(r, g->id, g->sev, g->conf,
			     (g->flags & SIG_SYMPTOM) ? -400 : (g->flags & SIG_BENIGN) ? -50 : 0);
		d->count = h->count;
		d->rerun = g->rerun;
		d->check = g->check;
		t = subst(g->title, h->capture);
		if (!strcmp(g->id, "nccl.net.not_found") && obs_env(x, "NCCL_NET")) {
			free(t);
			t = xasprintf("NCCL_NET=%s names a network this node does not have",
				      obs_env(x, "NCCL_NET")->value);
		}
		diag_title(d, "%s", t);
		free(t);
		sig_parts(r, h, parts, &np);
		diag_parts(r, d, parts, np);
		for (size_t p = 0; p < np; p++) {
			if (g->sev == SEV_ERROR)
				r->p[parts[p]].err_sig = 1;
			if (g->flags & SIG_NET)
				r->p[parts[p]].net_sig = 1;
		}
		for (const char *f = g->fix; f && *f;) {
			size_t n = strcspn(f, "\n");
			if (n == strlen(EXPLAIN_FIX_IFNAME) && !strncmp(f, EXPLAIN_FIX_IFNAME, n))
				fix_ifname(r, d);
			else
				diag_fix(d, "%.*s", (int)n, f);
			f += n + (f[n] == '\n');
		}
		if (g->check)
			diag_fix(d, "to test it: %s", g->check);
		if (g->rerun && (g->conf < CONF_HIGH || ((g->flags & SIG_NCCL) && !x->nccl_info_lines)))
			diag_fix(d, "if the log is not enough: rerun with %s", g->rerun);
		diag_why(d, "%s confidence: %s", g->conf == CONF_HIGH ? "High" :
			 g->conf == CONF_MEDIUM ? "Medium" : "Low", g->cause);
		for (int k = 0; k < h->nev; k++)
			diag_at(r, d, h->ev[k], NULL, h->ev_text[k]);
		if (h->count > (uint64_t)h->nev)
			diag_ev(d, "seen %llu times in all", (unsigned long long)h->count);
		if ((g->flags & SIG_NET) && x->master[0] && x->master_loc.line)
			diag_at(r, d, x->master_loc, "MASTER_ADDR", x->master);
	}
	free(parts);
}

/* ---- cross-rank reasoning --------------------------------------------------------------------- */

static int bad_class(enum aclass c)
{
	return c == A_PUBLIC || c == A_DOCKER || c == A_LOOPBACK || c == A_LINKLOCAL;
}

static void wrong_interface(struct rs *r)
{
	const struct run_obs *x = r->x;
	size_t *flag = xmalloc((r->np ? r->np : 1) * sizeof(*flag)), nf = 0;
	int stuck_any = 0, any_sure = 0;
	struct diag *d;

	for (size_t i = 0; i < r->np; i++) {
		struct part *p = &r->p[i];
		enum aclass c;
		uint32_t a;
		int stuck, mismatch, sure = 0;

		if (!p->m.boot_loc.line)
			continue;
		c = classify(p->m.boot_if, p->m.boot_addr);
		/* a rank that failed with an error of its own (NCCL_NET=IB, a CUDA error) is not stuck */
		stuck = p->m.init_start.line && !p->m.init_complete.line && (!p->err_sig || p->net_sig);
		if (!stuck && !p->net_sig)
			continue;
		if (c == A_LOOPBACK && p->m.nnodes == 1)
			continue;
		if (r->master_is_v4 && v4(p->m.boot_addr, &a)) {
			int pre = iface_prefix(x, p->m.boot_if, p->m.boot_addr);
			enum aclass mc = classify("", x->master);
			if (pre > 0) {
				mismatch = !same_net(a, r->master_v4, pre);
				sure = 1;
			} else if (mc != c && (bad_class(c) || bad_class(mc))) {
				mismatch = 1;
				sure = 1;
			} else {
				mismatch = !same_net(a, r->master_v4, 16);
			}
		} else {
			mismatch = bad_class(c);
		}
		if (!mismatch)
			continue;
		stuck_any |= stuck;
		any_sure |= sure;
		flag[nf++] = i;
	}
	if (!nf) {
		free(flag);
		return;
	}
	d = diag_new(r, "explain.net.wrong_interface", SEV_ERROR,
		     any_sure ? CONF_HIGH : CONF_MEDIUM, 150);
	{
		const struct part *p0 = &r->p[flag[0]];
		enum aclass c0 = classify(p0->m.boot_if, p0->m.boot_addr);
		if (x->master[0])
			diag_title(d, "NCCL bootstraps on %s %s (%s), not on the network of MASTER_ADDR %s%s",
				   aclass_name(c0), p0->m.boot_if, p0->m.boot_addr, x->master,
				   stuck_any ? ": ranks hang after Init START" : "");
		else
			diag_title(d, "NCCL bootstraps on %s %s (%s)%s", aclass_name(c0), p0->m.boot_if,
				   p0->m.boot_addr, stuck_any ? " and the ranks hang after Init START" : "");
	}
	diag_parts(r, d, flag, nf);
	fix_ifname(r, d);
	diag_fix(d, "to test it: %s", CHECK_NODE_CMD);
	diag_why(d, "%s confidence: with NCCL_SOCKET_IFNAME unset NCCL takes the first interface that is "
		 "not docker/lo (NCCL 2.28+: not virbr either), often the public NIC on cloud VMs; its "
		 "peers cannot reach that address (firewall, security group, no route), so bootstrap "
		 "connections hang or fail while the TCPStore on MASTER_ADDR works.%s",
		 any_sure ? "High" : "Medium",
		 x->master[0] ? "" : " MASTER_ADDR is not in the log: pass --master-addr to name the interface.");
	for (size_t i = 0; i < nf && i < 4; i++) {
		const struct part *p = &r->p[flag[i]];
		char what[256], addr[160];
		snprintf(what, sizeof(what), "%s bootstrap", p->label);
		snprintf(addr, sizeof(addr), "%s %s (%s)", p->m.boot_if, p->m.boot_addr,
			 aclass_name(classify(p->m.boot_if, p->m.boot_addr)));
		diag_at(r, d, p->m.boot_loc, what, addr);
		if (p->m.init_start.line && !p->m.init_complete.line && p->m.last_loc.line) {
			snprintf(what, sizeof(what), "%s last line", p->label);
			diag_at(r, d, p->m.last_loc, what, p->m.last);
		}
	}
	if (x->master_loc.line)
		diag_at(r, d, x->master_loc, "MASTER_ADDR", x->master);
	else if (x->master[0])
		diag_ev(d, "MASTER_ADDR %s (from %s)", x->master, x->master_src);
	free(flag);
}

static void ifname_nomatch(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *ev = obs_env(x, "NCCL_SOCKET_IFNAME");
	const struct explain_sig *g = explain_sig_find("nccl.bootstrap.no_interface");
	const struct sig_hit *h;
	size_t parts[OBS_SIG_STREAMS], np;
	struct diag *d;
	struct strbuf seen = STRBUF_INIT;

	if (!ev || !g)
		return;
	h = &x->hits[g - explain_sigs];
	if (!h->count) {
		g = explain_sig_find("nccl.socket.no_interface");
		h = &x->hits[g - explain_sigs];
		if (!h->count)
			return;
	}
	d = diag_new(r, "explain.net.ifname_nomatch", SEV_ERROR, CONF_HIGH, 200);
	diag_title(d, "NCCL_SOCKET_IFNAME=%s matches no interface that is up", ev->value);
	sig_parts(r, h, parts, &np);
	diag_parts(r, d, parts, np);
	if (r->suggest_if[0] || x->master[0]) {
		fix_ifname(r, d);
	} else {
		diag_fix(d, "ip -o -4 addr show   # pick the interface with the address the other nodes reach");
		diag_fix(d, "export NCCL_SOCKET_IFNAME=<that name>   # a prefix (eth) matches eth0, eth1...; '=eth1' matches exactly");
	}
	diag_fix(d, "to test it: %s", CHECK_NODE_CMD);
	for (int i = 0; i < x->nifs; i++)
		strbuf_addf(&seen, "%s%s (%s)", i ? ", " : "", x->ifs[i].ifname, x->ifs[i].addr);
	diag_why(d, "High confidence: NCCL read NCCL_SOCKET_IFNAME=%s and then found no interface "
		 "matching it, so bootstrap cannot start.%s%s", ev->value,
		 seen.len ? " Interfaces this log shows: " : "", seen.buf);
	diag_at(r, d, ev->loc, "NCCL_SOCKET_IFNAME", ev->value);
	for (int k = 0; k < h->nev; k++)
		diag_at(r, d, h->ev[k], NULL, h->ev_text[k]);
	strbuf_release(&seen);
}

static void version_mismatch(struct rs *r)
{
	char vers[8][40];
	int count[8] = { 0 }, nv = 0, best = 0;
	struct diag *d;
	size_t *parts = xmalloc((r->np ? r->np : 1) * sizeof(*parts)), np = 0;

	for (size_t i = 0; i < r->np; i++) {
		char v[40];
		int k;
		if (!r->p[i].m.nccl_version[0])
			continue;
		snprintf(v, sizeof(v), "%s", r->p[i].m.nccl_version);
		v[strcspn(v, "+")] = '\0';
		for (k = 0; k < nv; k++)
			if (!strcmp(vers[k], v))
				break;
		if (k == nv) {
			if (nv == 8)
				continue;
			snprintf(vers[nv++], sizeof(vers[0]), "%s", v);
		}
		count[k]++;
	}
	if (nv < 2) {
		free(parts);
		return;
	}
	for (int k = 1; k < nv; k++)
		if (count[k] > count[best])
			best = k;
	d = diag_new(r, "explain.nccl.version_mismatch", SEV_ERROR, CONF_HIGH, 120);
	diag_title(d, "ranks run different NCCL versions: %s on %d rank%s, %s on %d", vers[best],
		   count[best], count[best] == 1 ? "" : "s", vers[best == 0 ? 1 : 0],
		   count[best == 0 ? 1 : 0]);
	for (size_t i = 0; i < r->np; i++) {
		char v[40];
		snprintf(v, sizeof(v), "%s", r->p[i].m.nccl_version);
		v[strcspn(v, "+")] = '\0';
		if (r->p[i].m.nccl_version[0] && strcmp(v, vers[best]))
			parts[np++] = i;
	}
	diag_parts(r, d, parts, np);
	{
		const char *cu = NULL;
		for (size_t i = 0; i < r->np && !cu; i++)
			if (strstr(r->p[i].m.nccl_version, "+cuda"))
				cu = strstr(r->p[i].m.nccl_version, "+cuda") + 5;
		if (cu && atoi(cu) > 0)
			diag_fix(d, "pip install nvidia-nccl-cu%d==%s   # on the nodes with another version (or the same torch / image everywhere)",
				 atoi(cu), vers[best]);
		else
			diag_fix(d, "install NCCL %s on every node (the same torch wheel or container image everywhere)", vers[best]);
	}
	diag_fix(d, "python -c 'import torch; print(torch.cuda.nccl.version())'   # on every node, to confirm");
	diag_fix(d, "to test it: %s", CHECK_NODE_CMD);
	diag_why(d, "High confidence: one communicator needs one NCCL protocol; mixed versions fail "
		 "with 'Message truncated', 'Mismatched NCCL version' or hang");
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.ver_loc.line) {
			char what[256];
			snprintf(what, sizeof(what), "%s NCCL version", r->p[i].label);
			diag_at(r, d, r->p[i].m.ver_loc, what, r->p[i].m.nccl_version);
			if (d->nev >= 8)
				break;
		}
	free(parts);
}

static int world_size(const struct rs *r)
{
	int n = -1;

	for (size_t i = 0; i < r->np; i++) {
		const struct stream_obs *m = &r->p[i].m;
		if (m->start_nranks > n)
			n = m->start_nranks;
		if (m->nranks > n)
			n = m->nranks;
		if (m->pl_world > n)
			n = m->pl_world;
	}
	if (r->x->pl_world > n)
		n = r->x->pl_world;
	return n;
}

static void missing_ranks(struct rs *r)
{
	int n = world_size(r), nres = 0, *miss, nm = 0;
	char *seen;
	struct diag *d;
	struct strbuf sb = STRBUF_INIT;

	if (n < 2 || n > 1 << 20)
		return;
	seen = xcalloc((size_t)n, 1);
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].rank >= 0 && r->p[i].rank < n) {
			seen[r->p[i].rank] = 1;
			nres++;
		}
	miss = xmalloc((size_t)n * sizeof(*miss));
	for (int i = 0; i < n; i++)
		if (!seen[i])
			miss[nm++] = i;
	if (!nm) {
		free(seen);
		free(miss);
		return;
	}
	rank_list(miss, (size_t)nm, &sb);
	if (nres >= 2) {
		d = diag_new(r, "explain.ranks.missing", SEV_WARN, CONF_MEDIUM, 0);
		diag_title(d, "%s of %d left no line in these logs", sb.buf, n);
		diag_fix(d, "if their logs exist, pass them too: ncclcheck explain <dir with one log per rank>");
		diag_fix(d, "otherwise the process of %s never started or died before printing: on its node run "
			 "'ncclcheck node' and start it by hand with the same MASTER_ADDR/MASTER_PORT/WORLD_SIZE", sb.buf);
		diag_why(d, "Medium confidence: the world size is %d but no line of these logs belongs to %s; a "
			 "rank that never joins makes every other rank wait in the rendezvous or in NCCL init", n, sb.buf);
	} else {
		d = diag_new(r, "explain.log.single_rank", SEV_INFO, CONF_HIGH, 0);
		diag_title(d, "the logs show 1 of %d ranks: the cause may be in another rank's log", n);
		diag_fix(d, "collect every rank's output (torchrun --log-dir DIR --tee 3, or srun -l) and run: ncclcheck explain DIR");
		diag_why(d, "errors such as 'remote process exited' or a hang are often the echo of another rank's failure");
	}
	json_array_append_new(d->ranks, json_integer(miss[0]));
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.topo_loc.line || r->p[i].m.init_start.line) {
			diag_at(r, d, r->p[i].m.init_start.line ? r->p[i].m.init_start : r->p[i].m.topo_loc,
				"world size", NULL);
			break;
		}
	strbuf_release(&sb);
	free(seen);
	free(miss);
}

static void init_progress(struct rs *r, int net_diag)
{
	size_t *stuck = xmalloc((r->np ? r->np : 1) * sizeof(*stuck)), ns = 0, started = 0, done = 0;
	struct strbuf failed_sb = STRBUF_INIT;
	struct diag *d;

	for (size_t i = 0; i < r->np; i++) {
		const struct part *p = &r->p[i];
		if (!p->m.init_start.line && !p->m.init_complete.line)
			continue;
		started++;
		if (p->m.init_complete.line)
			done++;
		else if (!p->err_sig || p->net_sig)
			stuck[ns++] = i;
	}
	if (!started) {
		free(stuck);
		return;
	}
	if (!ns && done == started) {
		d = diag_new(r, "explain.init.ok", SEV_OK, CONF_HIGH, 0);
		{
			size_t *all = xmalloc(r->np * sizeof(*all)), na = 0;
			const struct stream_obs *m0 = NULL;
			for (size_t i = 0; i < r->np; i++)
				if (r->p[i].m.init_complete.line) {
					all[na++] = i;
					if (!m0)
						m0 = &r->p[i].m;
				}
			diag_parts(r, d, all, na);
			diag_title(d, "NCCL init completed on %zu rank%s%s%s%s%s", na, na == 1 ? "" : "s",
				   m0 && m0->nccl_version[0] ? " (NCCL " : "",
				   m0 && m0->nccl_version[0] ? m0->nccl_version : "",
				   m0 && m0->nccl_version[0] ? ")" : "",
				   m0 && m0->network[0] ? (strcmp(m0->network, "IB") ? ", network Socket" : ", network IB") : "");
			if (m0)
				diag_at(r, d, m0->init_complete, "Init COMPLETE", NULL);
			free(all);
		}
		free(stuck);
		return;
	}
	if (!ns) {
		free(stuck);
		return;
	}
	/* ranks that failed with their own error: the stuck ones are most likely waiting for them */
	{
		int *failed = xmalloc(r->np * sizeof(*failed));
		size_t nf = 0;
		for (size_t i = 0; i < r->np; i++)
			if (r->p[i].err_sig && !r->p[i].net_sig && r->p[i].rank >= 0)
				failed[nf++] = r->p[i].rank;
		if (nf) {
			strbuf_reset(&failed_sb);
			rank_list(failed, nf, &failed_sb);
		}
		free(failed);
	}
	d = diag_new(r, done ? "explain.init.partial" : "explain.init.stuck", SEV_ERROR,
		     net_diag || failed_sb.len ? CONF_LOW : CONF_MEDIUM, net_diag || failed_sb.len ? -300 : 50);
	diag_parts(r, d, stuck, ns);
	if (done)
		diag_title(d, "NCCL init completed on %zu rank%s but %zu stopped after Init START", done,
			   done == 1 ? "" : "s", ns);
	else
		diag_title(d, "NCCL init never completed: %zu rank%s stopped after Init START", ns,
			   ns == 1 ? "" : "s");
	if (failed_sb.len)
		diag_fix(d, "fix the error of %s first (above): the others wait for it in NCCL's bootstrap",
			 failed_sb.buf);
	else if (net_diag)
		diag_fix(d, "fix the network diagnosis above first; this hang is its consequence");
	fix_ifname(r, d);
	diag_fix(d, "to test it: %s", CHECK_NODE_CMD);
	diag_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP");
	diag_why(d, "%s confidence: NCCL's bootstrap blocks without a timeout until every rank connects; "
		 "ranks that print Init START and nothing after it are waiting for peers they cannot "
		 "reach (wrong interface, firewall on ephemeral ports), for a rank that failed or for "
		 "one that never started", net_diag || failed_sb.len ? "Low" : "Medium");
	for (size_t i = 0; i < ns && i < 4; i++) {
		const struct part *p = &r->p[stuck[i]];
		char what[256];
		snprintf(what, sizeof(what), "%s Init START", p->label);
		diag_at(r, d, p->m.init_start, what, NULL);
		snprintf(what, sizeof(what), "%s last line", p->label);
		diag_at(r, d, p->m.last_loc, what, p->m.last);
	}
	free(stuck);
	strbuf_release(&failed_sb);
}

static void lightning(struct rs *r, int have_errors)
{
	const struct run_obs *x = r->x;
	size_t *pl = xmalloc((r->np ? r->np : 1) * sizeof(*pl)), npl = 0;
	int any_start = 0;
	struct diag *d;

	for (size_t i = 0; i < r->np; i++) {
		if (r->p[i].m.pl_init.line)
			pl[npl++] = i;
		any_start |= r->p[i].m.init_start.line != 0;
	}
	/* the same GLOBAL_RANK from two inputs or two hosts: NODE_RANK not set on one node */
	for (uint32_t i = 0; i < x->nst; i++)
		for (uint32_t j = i + 1; j < x->nst && j < i + 256; j++) {
			const struct stream_obs *a = &x->st[i], *b = &x->st[j];
			if (a->pl_rank < 0 || a->pl_rank != b->pl_rank || a->file == b->file)
				continue;
			d = diag_new(r, "explain.lightning.duplicate_rank", SEV_ERROR, CONF_HIGH, 180);
			diag_title(d, "two processes both say GLOBAL_RANK: %d: NODE_RANK is not set on one node",
				   a->pl_rank);
			json_array_append_new(d->ranks, json_integer(a->pl_rank));
			diag_fix(d, "export NODE_RANK=<0 on the master node, 1, 2 ... on the others>   # before starting Lightning on each node");
			diag_fix(d, "or launch with torchrun --nnodes=N --node-rank=<i> on each node");
			diag_why(d, "High confidence: without NODE_RANK every node believes it is node 0, so two "
				 "processes claim the same global rank and the rendezvous waits forever for the missing ones");
			diag_at(r, d, a->pl_init, "Initializing distributed", NULL);
			diag_at(r, d, b->pl_init, "Initializing distributed", NULL);
			i = j = x->nst;
		}
	if (!npl) {
		free(pl);
		return;
	}
	if (!x->pl_registered.line && !any_start) {
		d = diag_new(r, "explain.lightning.rendezvous_hang", SEV_ERROR,
			     have_errors ? CONF_LOW : CONF_MEDIUM, have_errors ? -300 : 60);
		diag_parts(r, d, pl, npl);
		diag_title(d, "Lightning never registered all processes: the hang is in the TCPStore rendezvous, not in NCCL");
		diag_fix(d, "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from every node, while rank 0 runs");
		diag_fix(d, "use the same MASTER_ADDR, MASTER_PORT, num_nodes and devices on every node, and a distinct NODE_RANK per node");
		diag_fix(d, "to test it: %s", CHECK_NODE_CMD);
		diag_fix(d, "if the log is not enough: rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO");
		diag_why(d, "%s confidence: 'Initializing distributed' is printed before init_process_group and "
			 "'All distributed processes registered' after it; only the first appeared, so not "
			 "every process reached MASTER_ADDR:MASTER_PORT (wrong address, port blocked, world "
			 "size larger than the processes started, duplicate NODE_RANK)",
			 have_errors ? "Low" : "Medium");
		for (size_t i = 0; i < npl && i < 4; i++)
			diag_at(r, d, r->p[pl[i]].m.pl_init, "Initializing distributed", NULL);
	} else if (x->pl_registered.line && !have_errors) {
		int complete = 0;
		for (size_t i = 0; i < r->np; i++)
			complete |= r->p[i].m.init_complete.line != 0;
		if (!complete) {
			d = diag_new(r, "explain.lightning.nccl_hang", SEV_WARN, CONF_MEDIUM, 40);
			diag_parts(r, d, pl, npl);
			diag_title(d, "all processes registered, then nothing: a hang here is in NCCL, not in the rendezvous");
			fix_ifname(r, d);
			diag_fix(d, "to test it: %s", CHECK_NODE_CMD);
			diag_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP");
			diag_why(d, "Medium confidence: 'All distributed processes registered' means the TCPStore "
				 "worked; NCCL's own connections (other ports, maybe another interface) come next");
			diag_at(r, d, x->pl_registered, "All distributed processes registered", NULL);
		}
	}
	free(pl);
}

static void watchdog_desync(struct rs *r)
{
	long lo = -1, hi = -1;
	size_t *low = xmalloc((r->np ? r->np : 1) * sizeof(*low)), nl = 0;
	struct diag *d;

	for (size_t i = 0; i < r->np; i++) {
		long s = r->p[i].m.wd_count ? r->p[i].m.wd_seq : -1;
		if (s < 0)
			continue;
		if (lo < 0 || s < lo)
			lo = s;
		if (s > hi)
			hi = s;
	}
	if (lo < 0 || lo == hi) {
		free(low);
		return;
	}
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.wd_count && r->p[i].m.wd_seq == lo)
			low[nl++] = i;
	d = diag_new(r, "explain.watchdog.desync", SEV_ERROR, CONF_HIGH, 160);
	diag_parts(r, d, low, nl);
	diag_title(d, "ranks timed out on different collectives: SeqNum %ld vs %ld", lo, hi);
	diag_fix(d, "the ranks at SeqNum %ld skipped a collective the others entered: look for rank-dependent "
		 "branches, uneven batches or a caught exception around that point", lo);
	diag_fix(d, "export TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: the flight recorder names the op");
	diag_why(d, "High confidence: collectives are numbered per process group; different SeqNums at the "
		 "timeout mean the ranks did not issue the same sequence of collectives (a desync, not the network)");
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.wd_count) {
			char what[256];
			snprintf(what, sizeof(what), "%s SeqNum=%ld OpType=%s", r->p[i].label,
				 r->p[i].m.wd_seq, r->p[i].m.wd_op);
			diag_at(r, d, r->p[i].m.wd_loc, what, NULL);
			if (d->nev >= 8)
				break;
		}
	free(low);
}

static void log_hints(struct rs *r)
{
	const struct run_obs *x = r->x;
	int nccl_sig = 0, any = 0;
	struct diag *d;

	for (size_t i = 0; i < explain_nsigs; i++)
		if (x->hits[i].count) {
			any = 1;
			if ((explain_sigs[i].flags & SIG_NCCL) && explain_sigs[i].sev >= SEV_WARN)
				nccl_sig = 1;
		}
	for (size_t i = 0; i < r->np && !any; i++)
		any = r->p[i].m.nccl_version[0] || r->p[i].m.init_start.line || r->p[i].m.pl_init.line ||
		      r->p[i].m.exc_loc.line;
	if (nccl_sig && !x->nccl_info_lines) {
		d = diag_new(r, "explain.log.no_nccl_debug", SEV_INFO, CONF_HIGH, 0);
		diag_title(d, "the log has no NCCL INFO lines, so NCCL's own view of the failure is missing");
		diag_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP   # rerun, then: ncclcheck explain <the new logs>");
		diag_why(d, "with NCCL_DEBUG=INFO NCCL prints the interface it bootstraps on, every connection "
			 "and the WARN line that names the failing call");
	}
	if (!any) {
		d = diag_new(r, "explain.log.unrecognised", SEV_INFO, CONF_HIGH, 0);
		diag_title(d, "nothing in %llu lines was recognised as NCCL, torch, Lightning or Slurm output",
			   (unsigned long long)x->total_lines);
		diag_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun and capture stdout and stderr of every rank");
		diag_fix(d, "torchrun --log-dir logs --tee 3 ...   # one log per rank; then: ncclcheck explain logs/");
		diag_why(d, "explain needs the training output itself (both streams, every rank)");
	}
}

/* ---- payload -------------------------------------------------------------------------------- */

static json_t *jloc(const struct run_obs *x, struct loc l)
{
	char w[512];

	if (!l.line)
		return json_null();
	obs_loc_fmt(x, l, w, sizeof(w));
	return json_string(w);
}

static json_t *jstr_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *part_json(const struct run_obs *x, const struct part *p)
{
	const struct stream_obs *m = &p->m;
	json_t *o = json_object(), *t;

	json_object_set_new(o, "rank", p->rank >= 0 ? json_integer(p->rank) : json_null());
	jset_str(o, "label", p->label);
	json_object_set_new(o, "host", jstr_or_null(m->nhost));
	json_object_set_new(o, "pid", m->npid >= 0 ? json_integer(m->npid) : json_null());
	jset_int(o, "lines", (long long)m->lines);
	json_object_set_new(o, "nccl_version", jstr_or_null(m->nccl_version));
	if (m->boot_loc.line) {
		t = json_object();
		jset_str(t, "ifname", m->boot_if);
		jset_str(t, "addr", m->boot_addr);
		jset_str(t, "class", aclass_name(classify(m->boot_if, m->boot_addr)));
		json_object_set_new(t, "where", jloc(x, m->boot_loc));
		json_object_set_new(o, "bootstrap", t);
	} else {
		json_object_set_new(o, "bootstrap", json_null());
	}
	t = json_array();
	for (int i = 0; i < m->nsock; i++) {
		json_t *s = json_object();
		jset_str(s, "ifname", m->sock[i].ifname);
		jset_str(s, "addr", m->sock[i].addr);
		json_array_append_new(t, s);
	}
	json_object_set_new(o, "net_socket", t);
	json_object_set_new(o, "net_ib", jstr_or_null(m->ib));
	json_object_set_new(o, "network", jstr_or_null(m->network));
	json_object_set_new(o, "nranks", m->nranks >= 0 ? json_integer(m->nranks) :
			    m->start_nranks >= 0 ? json_integer(m->start_nranks) : json_null());
	json_object_set_new(o, "nnodes", m->nnodes >= 0 ? json_integer(m->nnodes) : json_null());
	json_object_set_new(o, "local_ranks", m->local_ranks >= 0 ? json_integer(m->local_ranks) : json_null());
	t = json_object();
	json_object_set_new(t, "start", jloc(x, m->init_start));
	json_object_set_new(t, "complete", jloc(x, m->init_complete));
	json_object_set_new(t, "total_s", m->init_total >= 0 ? json_real(m->init_total) : json_null());
	json_object_set_new(o, "init", t);
	t = json_array();
	{
		static const struct { unsigned bit; const char *name; } tr[] = {
			{ TR_NET_SOCKET, "NET/Socket" }, { TR_NET_IB, "NET/IB" }, { TR_NET_OTHER, "NET/plugin" },
			{ TR_P2P, "P2P" }, { TR_SHM, "SHM" }, { TR_COLLNET, "CollNet" },
		};
		for (size_t i = 0; i < ARRAY_SIZE(tr); i++)
			if (m->transports & tr[i].bit)
				json_array_append_new(t, json_string(tr[i].name));
	}
	json_object_set_new(o, "transports", t);
	json_object_set_new(o, "transport_example", jstr_or_null(m->via_example));
	t = json_object();
	json_object_set_new(t, "initializing", jloc(x, m->pl_init));
	json_object_set_new(t, "registered", jloc(x, m->pl_registered));
	json_object_set_new(t, "global_rank", m->pl_rank >= 0 ? json_integer(m->pl_rank) : json_null());
	json_object_set_new(t, "world_size", m->pl_world >= 0 ? json_integer(m->pl_world) : json_null());
	json_object_set_new(o, "lightning", t);
	if (m->wd_count) {
		t = json_object();
		json_object_set_new(t, "seq", m->wd_seq >= 0 ? json_integer(m->wd_seq) : json_null());
		json_object_set_new(t, "op", jstr_or_null(m->wd_op));
		json_object_set_new(t, "timeout_ms", m->wd_timeout_ms >= 0 ? json_integer(m->wd_timeout_ms) : json_null());
		jset_int(t, "count", m->wd_count);
		json_object_set_new(t, "where", jloc(x, m->wd_loc));
		json_object_set_new(o, "watchdog", t);
	} else {
		json_object_set_new(o, "watchdog", json_null());
	}
	if (m->exc_loc.line) {
		t = json_object();
		jset_str(t, "text", m->exception);
		json_object_set_new(t, "where", jloc(x, m->exc_loc));
		json_object_set_new(o, "exception", t);
	} else {
		json_object_set_new(o, "exception", json_null());
	}
	if (m->last_loc.line) {
		t = json_object();
		jset_str(t, "text", m->last);
		json_object_set_new(t, "where", jloc(x, m->last_loc));
		json_object_set_new(o, "last_line", t);
	} else {
		json_object_set_new(o, "last_line", json_null());
	}
	return o;
}

static int cmp_diag(const void *a, const void *b)
{
	const struct diag *x = a, *y = b;

	return (x->score < y->score) - (x->score > y->score);
}

json_t *explain_reason(const struct run_obs *x, struct findings *fs)
{
	struct rs r;
	json_t *payload = json_object(), *arr;
	int net_diag = 0, have_errors = 0;

	memset(&r, 0, sizeof(r));
	r.x = x;
	r.master_is_v4 = x->master[0] && v4(x->master, &r.master_v4);
	resolve(&r);
	find_suggestion(&r);

	sig_diags(&r);
	ifname_nomatch(&r);
	wrong_interface(&r);
	for (size_t i = 0; i < r.nd; i++) {
		if (r.d[i].sev == SEV_ERROR)
			have_errors = 1;
		if (!strcmp(r.d[i].id, "explain.net.wrong_interface") ||
		    !strcmp(r.d[i].id, "explain.net.ifname_nomatch"))
			net_diag = 1;
		else if (r.d[i].sev == SEV_ERROR && r.d[i].conf >= CONF_MEDIUM &&
			 !strncmp(r.d[i].id, "nccl.connect.", 13))
			net_diag = 1;
	}
	version_mismatch(&r);
	init_progress(&r, net_diag);
	lightning(&r, have_errors);
	watchdog_desync(&r);
	missing_ranks(&r);
	log_hints(&r);

	if (r.nd > 1)
		qsort(r.d, r.nd, sizeof(*r.d), cmp_diag);
	arr = json_array();
	for (size_t i = 0; i < r.nd; i++) {
		struct diag *d = &r.d[i];
		struct finding *f = finding_add(fs, d->sev, d->id, "%s", d->title ? d->title : d->id);
		json_t *o = json_object(), *fx = json_array(), *ev = json_array();

		for (size_t k = 0; k < d->nfix; k++) {
			finding_fix(f, "%s", d->fix[k]);
			json_array_append_new(fx, json_string(d->fix[k]));
		}
		if (d->why)
			finding_why(f, "%s", d->why);
		for (size_t k = 0; k < d->nev; k++) {
			finding_evidence(f, "%s", d->ev[k]);
			json_array_append_new(ev, json_string(d->ev[k]));
		}
		if (d->node)
			finding_node(f, d->node);
		jset_str(o, "id", d->id);
		jset_str(o, "severity", severity_name(d->sev));
		jset_str(o, "confidence", confidence_name(d->conf));
		jset_str(o, "title", d->title ? d->title : d->id);
		json_object_set(o, "ranks", d->ranks);
		jset_int(o, "count", (long long)(d->count ? d->count : 1));
		json_object_set(o, "where", d->where);
		json_object_set_new(o, "evidence", ev);
		json_object_set_new(o, "fix", fx);
		json_object_set_new(o, "why", jstr_or_null(d->why));
		json_object_set_new(o, "rerun", jstr_or_null(d->rerun));
		json_object_set_new(o, "check", jstr_or_null(d->check));
		json_array_append_new(arr, o);
		diag_free(d);
	}
	free(r.d);

	{
		json_t *ins = json_array(), *ranks = json_array(), *ifs = json_array(), *env = json_object();
		for (uint32_t i = 0; i < x->nin; i++) {
			json_t *o = json_object();
			jset_str(o, "name", x->in[i].name);
			jset_int(o, "lines", (long long)x->in[i].lines);
			jset_int(o, "bytes", (long long)x->in[i].bytes);
			jset_int(o, "long_lines", (long long)x->in[i].long_lines);
			json_array_append_new(ins, o);
		}
		json_object_set_new(payload, "inputs", ins);
		jset_int(payload, "lines", (long long)x->total_lines);
		jset_int(payload, "bytes", (long long)x->total_bytes);
		if (x->master[0]) {
			json_t *m = json_object();
			jset_str(m, "value", x->master);
			jset_str(m, "source", x->master_src);
			json_object_set_new(m, "where", jloc(x, x->master_loc));
			json_object_set_new(payload, "master_addr", m);
		} else {
			json_object_set_new(payload, "master_addr", json_null());
		}
		for (int i = 0; i < x->nifs; i++) {
			json_t *o = json_object();
			jset_str(o, "ifname", x->ifs[i].ifname);
			jset_str(o, "addr", x->ifs[i].addr);
			json_object_set_new(o, "prefix", x->ifs[i].prefix >= 0 ? json_integer(x->ifs[i].prefix) : json_null());
			json_array_append_new(ifs, o);
		}
		json_object_set_new(payload, "interfaces", ifs);
		for (int i = 0; i < x->nenv; i++)
			jset_str(env, x->env[i].name, x->env[i].value);
		json_object_set_new(payload, "nccl_env", env);
		for (size_t i = 0; i < r.np; i++)
			json_array_append_new(ranks, part_json(x, &r.p[i]));
		json_object_set_new(payload, "ranks", ranks);
		jset_int(payload, "untracked_lines", (long long)x->stream_overflow);
	}
	json_object_set_new(payload, "diagnoses", arr);
	free(r.p);
	free(r.st2p);
	return payload;
}
