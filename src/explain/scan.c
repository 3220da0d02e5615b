/* The log scanner: lines -> struct run_obs (see scan.h). */
#include "explain/scan.h"

#include <ctype.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "explain/scan_int.h"
#include "explain/sigs.h"
#include "explain/text.h"
#include "util/xalloc.h"

/* ---- streams ------------------------------------------------------------------------------ */

static uint32_t host_hash(const char *host, size_t hlen)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < hlen; i++)
		h = (h ^ (unsigned char)host[i]) * 16777619u;
	return h;
}

static void stream_init(struct stream_obs *s, uint32_t file, char kind, int key, const char *host,
			size_t hlen, long pid)
{
	memset(s, 0, sizeof(*s));
	s->file = file;
	s->kind = kind;
	s->key = key;
	s->pid = pid;
	s->hlen = (uint16_t)hlen;
	s->hhash = host_hash(host, hlen);
	if (hlen >= sizeof(s->host))
		hlen = sizeof(s->host) - 1;
	memcpy(s->host, host ? host : "", hlen);
	s->npid = -1;
	s->rank = -1;
	s->rank_prio = -1;
	s->rank_nranks = -1;
	s->init_total = -1;
	s->wd_seq = s->wd_timeout_ms = -1;
	s->pl_rank = s->pl_world = -1;
	s->nranks = s->nnodes = s->local_ranks = s->start_nranks = -1;
}

static int stream_is(const struct stream_obs *s, uint32_t file, char kind, int key, long pid,
		     size_t hlen, uint32_t hh)
{
	return s->file == file && s->kind == kind && s->key == key && s->pid == pid &&
	       s->hlen == hlen && s->hhash == hh;
}

/*
 * The stream of a line. Hot path: the previous line's stream, then a small direct-mapped cache,
 * then the hash table; all compare the key fields at the head of the stream (one cache line).
 */
static uint32_t stream_get(struct scan *x, char kind, int key, const char *host, size_t hlen,
			   long pid)
{
	uint32_t hh = host_hash(host, hlen), ci, i, v;
	uint64_t h;

	if (hlen > 0xffff)
		hlen = 0xffff;
	if (x->last_stream && stream_is(&x->st[x->last_stream - 1], x->cur, kind, key, pid, hlen, hh))
		return x->last_stream - 1;
	ci = (hh ^ (uint32_t)key * 2654435761u ^ (uint32_t)pid * 40503u ^ (uint32_t)kind) & 63;
	v = x->scache[ci];
	if (v && stream_is(&x->st[v - 1], x->cur, kind, key, pid, hlen, hh)) {
		x->last_stream = v;
		return v - 1;
	}
	h = ((uint64_t)x->cur << 40) ^ ((uint64_t)(unsigned char)kind << 32) ^ (uint32_t)key;
	h ^= (uint64_t)pid * 0x9e3779b97f4a7c15ull ^ (uint64_t)hh << 16;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	for (i = (uint32_t)h & (x->hcap - 1);; i = (i + 1) & (x->hcap - 1)) {
		v = x->hash[i];
		if (!v)
			break;
		if (x->htag[i] == (uint32_t)(h >> 32) &&
		    stream_is(&x->st[v - 1], x->cur, kind, key, pid, hlen, hh)) {
			x->last_stream = x->scache[ci] = v;
			return v - 1;
		}
	}
	if (x->nst >= OBS_MAX_STREAMS) {
		/* bounded: everything beyond the cap lands in the last stream */
		x->obs.stream_overflow++;
		return OBS_MAX_STREAMS - 1;
	}
	if (x->nst + 1 > x->ast) {
		ALLOC_GROW(x->st, x->nst + 1, x->ast);
		x->last_text = xrealloc(x->last_text, x->ast * sizeof(*x->last_text));
	}
	stream_init(&x->st[x->nst], x->cur, kind, key, host, hlen, pid);
	x->last_text[x->nst][0] = '\0';
	x->hash[i] = x->nst + 1;
	x->htag[i] = (uint32_t)(h >> 32);
	x->last_stream = x->scache[ci] = x->nst + 1;
	return x->nst++;
}

void scan_set_rank(struct stream_obs *s, int rank, int prio, int nranks)
{
	if (rank < 0 || rank > 10000000)
		return;
	if (prio > s->rank_prio || (prio == s->rank_prio && prio == 2 && nranks > s->rank_nranks)) {
		s->rank = rank;
		s->rank_prio = prio;
		s->rank_nranks = nranks;
	}
}

/* ---- setup -------------------------------------------------------------------------------- */

/*
 * The matcher depends only on the tables (sigs.c, extract.c), so it is built once per process and
 * then only read (each scan has its own scan state): building it is most of the start-up cost.
 */
static pthread_once_t ac_once = PTHREAD_ONCE_INIT;
static struct ac *ac_shared;
static size_t ac_refused;	/* anchors the automaton could not take: a table past its limit */

static void ac_build_shared(void)
{
	struct ac *a = ac_new();

	for (size_t i = 0; i < explain_nsigs; i++)
		for (int k = 0; k < SIG_MAX_ANCHORS && explain_sigs[i].anchors[k]; k++)
			ac_refused += !ac_add(a, explain_sigs[i].anchors[k], (uint16_t)i);
	for (size_t e = 0; e < extract_count(); e++)
		if (extract_anchor(e))
			ac_refused += !ac_add(a, extract_anchor(e), (uint16_t)(explain_nsigs + e));
	ac_build(a);
	ac_shared = a;
}

size_t scan_anchors_refused(size_t *states)
{
	pthread_once(&ac_once, ac_build_shared);
	if (states)
		*states = ac_states(ac_shared);
	return ac_refused;
}

struct scan *scan_new(const char *master_addr)
{
	struct scan *x = xcalloc(1, sizeof(*x));

	pthread_once(&ac_once, ac_build_shared);
	x->ac = ac_shared;
	x->seen.seen = xcalloc(ac_consumers(x->ac) + 1, sizeof(*x->seen.seen));
	x->hits = xcalloc(explain_nsigs, sizeof(*x->hits));
	x->hcap = 2 * OBS_MAX_STREAMS;
	x->hash = xcalloc(x->hcap, sizeof(*x->hash));
	x->htag = xcalloc(x->hcap, sizeof(*x->htag));
	x->obs.master_prio = -1;
	x->obs.pl_world = -1;
	if (master_addr && *master_addr) {
		snprintf(x->obs.master, sizeof(x->obs.master), "%s", master_addr);
		x->obs.master_prio = 100;
		snprintf(x->obs.master_src, sizeof(x->obs.master_src), "--master-addr");
	}
	return x;
}

void scan_free(struct scan *x)
{
	if (!x)
		return;
	free(x->seen.seen);
	for (uint32_t i = 0; i < x->nin; i++)
		free(x->in[i].name);
	free(x->in);
	free(x->st);
	free(x->hash);
	free(x->htag);
	free(x->last_text);
	free(x->hits);
	ras_diag_release(&x->diag);
	free(x);
}

/* rank3.log, rank_3.txt, x-rank-12.out */
static int name_rank(const char *name)
{
	const char *base = strrchr(name, '/'), *p;

	base = base ? base + 1 : name;
	p = strstr(base, "rank");
	if (!p)
		return -1;
	p += 4;
	if (*p == '_' || *p == '-' || *p == '.')
		p++;
	if (!xt_digit(*p))
		return -1;
	return atoi(p) >= 0 && atoi(p) < 10000000 ? atoi(p) : -1;
}

void scan_begin_input(struct scan *x, const char *name)
{
	struct input_obs *in;

	if (x->nin >= OBS_MAX_INPUTS) {	/* bounded: later inputs share the last slot */
		x->cur = x->nin - 1;
		return;
	}
	ALLOC_GROW(x->in, x->nin + 1, x->ain);
	in = &x->in[x->nin];
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(name ? name : "-");
	in->name_rank = name_rank(in->name);
	x->cur = x->nin++;
	x->cur_if[0] = '\0';
}

void scan_end_input(struct scan *x, uint64_t bytes)
{
	if (x->nin) {
		x->in[x->cur].bytes += bytes;
		x->obs.total_bytes += bytes;
	}
}

/* ---- lines ---------------------------------------------------------------------------------- */

static void on_hit(void *ctx, uint16_t consumer, size_t end)
{
	struct lctx *c = ctx;

	if (c->nhits < (int)ARRAY_SIZE(c->hits)) {
		c->hits[c->nhits] = consumer;
		c->ends[c->nhits++] = end;
	}
}

/* The address a failing network line names, tallied job-wide with the streams that name it. */
static void note_peer(struct lctx *c, const char *b, const char *end)
{
	static const char *const lead[] = { "onnect to ", "from peer ", "remote peer " };
	struct run_obs *o = &c->x->obs;
	const char *q = NULL;
	struct peer_obs *pe = NULL;
	char addr[64];
	size_t k;

	if (o->peer_last.line == c->loc.line && o->peer_last.file == c->loc.file)
		return;
	o->peer_last = c->loc;
	for (k = 0; k < sizeof(lead) / sizeof(lead[0]) && !q; k++)
		q = xt_find(b, end, lead[k]);
	if (!q)
		return;
	xt_take(q + strlen(lead[k - 1]), end, " ,<()", addr, sizeof(addr));
	if (!addr[0] || !strchr(addr, '.'))	/* an IPv4 address or a host name with a domain */
		return;
	o->peer_lines++;
	for (int i = 0; i < o->npeers && !pe; i++)
		if (!strcmp(o->peers[i].addr, addr))
			pe = &o->peers[i];
	if (!pe) {
		if (o->npeers >= (int)(sizeof(o->peers) / sizeof(o->peers[0])))
			return;
		pe = &o->peers[o->npeers++];
		snprintf(pe->addr, sizeof(pe->addr), "%s", addr);
		pe->loc = c->loc;
	}
	pe->count++;
	pe->sock |= k == 1 && !xt_find(b, end, "NET/IB") && !xt_find(b, end, "NET/OFI");
	for (int i = 0; i < pe->nstreams; i++)
		if (pe->streams[i] == c->si)
			return;
	if (pe->nstreams < (int)(sizeof(pe->streams) / sizeof(pe->streams[0])))
		pe->streams[pe->nstreams++] = c->si;
}

/* Whether one of the SIG_UNTIL-separated literals of `list` is in [b, end). */
static int any_of(const char *b, const char *end, const char *list)
{
	char lit[128];

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, SIG_UNTIL);

		if (n < sizeof(lit)) {
			memcpy(lit, p, n);
			lit[n] = '\0';
			if (xt_find(b, end, lit))
				return 1;
		}
		p += n + (p[n] != '\0');
	}
	return 0;
}

/* NCCL source files whose WARNs the known-bug table tells apart (a CUDA failure in kernel set-up,
 * in transport set-up, in a copy-engine collective): the first WARN of each. "transport.cc" is the
 * top-level file only: transport/net.cc does not contain it. */
static const struct {
	const char *file;
	size_t loc;		/* offsetof(struct run_obs, <the struct loc>) */
} warn_sources[] = {
	{ "enqueue.cc", offsetof(struct run_obs, enqueue_loc) },
	{ "transport.cc", offsetof(struct run_obs, transport_loc) },
	{ "ce_coll.cc", offsetof(struct run_obs, ce_coll_loc) },
};

static void note_warn_source(struct run_obs *o, const struct explain_line_info *li, struct loc at)
{
	for (size_t i = 0; i < ARRAY_SIZE(warn_sources); i++) {
		struct loc *l = (struct loc *)((char *)o + warn_sources[i].loc);

		if (!l->line && xt_find(li->src, li->src + li->srclen, warn_sources[i].file))
			*l = at;
	}
}

static void record_sig(struct lctx *c, size_t si)
{
	const struct explain_sig *g = &explain_sigs[si];
	const char *b = c->li->body, *end = b + c->li->blen;
	struct sig_hit *h = &c->x->hits[si];
	int k;

	if ((g->flags & SIG_WARN_ONLY) && c->li->nccl != 2)
		return;
	/* "also" may be in NCCL's source location ("transport/shm.cc:590 NCCL WARN ...") */
	if (g->also && !xt_find(b, end, g->also) &&
	    !(c->li->src && xt_find(c->li->src, c->li->src + c->li->srclen, g->also)))
		return;
	if (g->unless && any_of(b, end, g->unless))
		return;
	h->count++;
	if (!h->nev && g->variants)	/* decided on the whole line: the code can sit past the excerpt */
		for (int v = 0; g->variants[v].when && !h->variant; v++)
			if (xt_find(b, end, g->variants[v].when))
				h->variant = v + 1;
	if (h->nev < OBS_SIG_EV) {
		h->ev[h->nev] = c->loc;
		xt_excerpt(b, c->li->blen, h->ev_text[h->nev], OBS_TEXT);
		h->nev++;
	}
	for (k = 0; k < h->nstreams; k++)
		if (h->streams[k] == c->si)
			break;
	if (k == h->nstreams) {
		if (h->nstreams < OBS_SIG_STREAMS)
			h->streams[h->nstreams++] = c->si;
		else
			h->streams_overflow = 1;
	}
	if ((g->flags & SIG_NET) && g->sev == SEV_ERROR && !(g->flags & SIG_SYMPTOM))
		note_peer(c, b, end);
	if (g->cap_after && !h->capture[0]) {
		/* several literals joined by SIG_UNTIL: the first one on the line */
		const char *alt = g->cap_after, *q = NULL;
		char lit[64];
		size_t n = 0;

		while (!q && *alt) {
			n = strcspn(alt, SIG_UNTIL);
			snprintf(lit, sizeof(lit), "%.*s", (int)n, alt);
			q = xt_find(b, end, lit);
			alt += n + (alt[n] != '\0');
		}
		if (q) {
			q += strlen(lit);
			if (g->cap_stop && g->cap_stop[0] == SIG_UNTIL[0]) {
				const char *u = xt_find(q, end, g->cap_stop + 1);
				xt_take(q, u ? u : end, "", h->capture, sizeof(h->capture));
			} else {
				xt_take(q, end, g->cap_stop ? g->cap_stop : "", h->capture, sizeof(h->capture));
			}
			/* trim trailing punctuation and spaces */
			for (size_t l = strlen(h->capture); l && strchr(" .,;:", h->capture[l - 1]); l--)
				h->capture[l - 1] = '\0';
		}
	}
}


/* A Python exception line: "Name: message", "pkg.mod.Name: message" or a bare "Name". */
static int exception_line(const char *b, size_t len)
{
	size_t i = 0;

	if (!len || !(isalpha((unsigned char)b[0]) || b[0] == '_'))
		return 0;
	while (i < len && (isalnum((unsigned char)b[i]) || b[i] == '_' || b[i] == '.'))
		i++;
	return i == len || b[i] == ':';
}

static void scan_piece(struct scan *x, const struct lr_line *l, const char *text, size_t tlen)
{
	struct explain_line_info li;
	struct lctx c;
	struct input_obs *in;
	char kind;
	int key;

	if (!x->nin)
		scan_begin_input(x, "-");
	in = &x->in[x->cur];
	in->lines++;
	x->obs.total_lines++;
	if (l->dropped) {
		in->long_lines++;
		x->obs.long_lines++;
	}
	explain_strip(text, tlen, x->scratch, &li);

	if (li.prefix_rank >= 0) {
		kind = 'R';
		key = li.prefix_rank;
	} else if (li.local_rank >= 0) {
		kind = 'L';
		key = li.local_rank;
	} else if (li.nccl && li.hlen) {
		kind = 'P';
		key = 0;
	} else {
		kind = 'F';
		key = 0;
	}
	c.x = x;
	c.si = stream_get(x, kind, key, kind == 'P' ? li.host : NULL, kind == 'P' ? li.hlen : 0,
			  kind == 'P' ? li.pid : -1);
	c.s = &x->st[c.si];
	c.li = &li;
	c.loc.file = x->cur;
	c.loc.line = l->lineno;
	c.nhits = 0;
	c.s->lines++;
	if (li.nccl) {
		c.s->nccl_lines++;
		if (li.nccl == 1)
			x->obs.nccl_info_lines++;
		if (li.hlen)
			x->last_nccl = c.si + 1;
		if (li.nccl == 2 && li.src)
			note_warn_source(&x->obs, &li, c.loc);
		if (!c.s->nhost[0] && li.hlen) {
			size_t n = li.hlen < sizeof(c.s->nhost) ? li.hlen : sizeof(c.s->nhost) - 1;
			memcpy(c.s->nhost, li.host, n);
			c.s->nhost[n] = '\0';
			c.s->npid = li.pid;
		}
	}
	if (li.prefix_rank >= 0)
		scan_set_rank(c.s, li.prefix_rank, 3, -1);

	/* traceback: indented frames until the first line at column 0, the exception */
	if (c.s->in_tb && li.blen) {
		if (li.body[0] != ' ' && li.body[0] != '\t' && li.body[0] != '^' && li.body[0] != '~' &&
		    !(li.blen >= 9 && !memcmp(li.body, "Traceback", 9))) {
			if (exception_line(li.body, li.blen)) {
				xt_excerpt(li.body, li.blen, c.s->exception, sizeof(c.s->exception));
				c.s->exc_loc = c.loc;
			}
			c.s->in_tb = 0;
		}
	}

	if (x->sock_wrap && !(li.blen && li.body[0] == '[' && extract_sock_cont(&c)))
		x->sock_wrap = 0;
	ac_scan(x->ac, &x->seen, li.body, li.blen, on_hit, &c);
	if (!li.nccl && li.blen > 5) {
		size_t at = extract_inet_at(li.body, li.blen);
		if (at)
			on_hit(&c, (uint16_t)(explain_nsigs + extract_inet()), at);
		else if (li.blen < 200 && li.body[li.blen - 1] != ':')
			extract_brief(&c);
	}
	for (int i = 0; i < c.nhits; i++) {
		if (c.hits[i] < explain_nsigs)
			record_sig(&c, c.hits[i]);
		else
			extract_run(&c, c.hits[i] - explain_nsigs, c.ends[i]);
	}
	/* a WARN no row knows: kept, so a log of NCCL is never called unrecognised */
	if (li.nccl == 2 && !x->obs.warn_loc.line && li.blen) {
		int sig = 0;
		for (int i = 0; i < c.nhits && !sig; i++)
			sig = c.hits[i] < explain_nsigs;
		if (!sig) {
			x->obs.warn_loc = c.loc;
			xt_excerpt(li.body, li.blen, x->obs.warn_text, sizeof(x->obs.warn_text));
		}
	}

	/* the hot path: a raw copy; the reasoner cleans the few that are shown */
	if (li.blen && (li.body[0] != ' ' || li.blen > 1)) {
		size_t n = li.blen < sizeof(c.s->last) - 1 ? li.blen : sizeof(c.s->last) - 1;
		memcpy(x->last_text[c.si], li.body, n);
		x->last_text[c.si][n] = '\0';
		c.s->last_loc = c.loc;
	}
}

void scan_line(struct scan *x, const struct lr_line *l)
{
	size_t len, k, skip, next;
	const char *s = explain_decode(l->s, l->len, x->decoded, &len);

	/* a log joined by literal "\n" (a repr, a JSON string) is read as its lines; one "\n" in a
	 * message ("C:\new") is no join */
	k = explain_escaped_piece(s, len, &skip);
	if (skip)
		explain_escaped_piece(s + k + skip, len - k - skip, &next);
	if (!skip || !next) {
		scan_piece(x, l, s, len);
		return;
	}
	if (s[0] == '\'' || s[0] == '"') {	/* the repr's opening quote */
		s++;
		len--;
		k--;
	}
	for (;;) {
		scan_piece(x, l, s, k);
		if (!skip)
			break;
		s += k + skip;
		len -= k + skip;
		k = explain_escaped_piece(s, len, &skip);
	}
}

/* Printable, trimmed text from a raw line copy. */
static void clean_text(char *s)
{
	char *w = s, *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p; p++)
		*w++ = ((unsigned char)*p < 0x20 || *p == 0x7f) ? ' ' : *p;
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

const struct run_obs *scan_result(struct scan *x)
{
	/* the hot path keeps raw copies apart from the streams; the streams get them cleaned now */
	for (uint32_t i = 0; i < x->nst; i++) {
		memcpy(x->st[i].last, x->last_text[i], sizeof(x->st[i].last));
		clean_text(x->st[i].last);
	}
	x->obs.in = x->in;
	x->obs.nin = x->nin;
	x->obs.st = x->st;
	x->obs.nst = x->nst;
	x->obs.hits = x->hits;
	x->obs.diag = &x->diag;
	return &x->obs;
}
