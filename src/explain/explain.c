/* The log scanner: prefixes, streams, extraction and signature hits (see explain.h). */
#include "explain/explain.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "explain/internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Extractor anchors: consumer ids explain_nsigs + E_*. */
enum {
	E_VERSION,
	E_BOOT1,
	E_BOOT2,
	E_SOCK,
	E_IB,
	E_NETWORK,
	E_VIA,
	E_START,
	E_COMPLETE,
	E_TIMINGS,
	E_NRANKS,
	E_PL_INIT,
	E_PL_REG,
	E_WD,
	E_TB,
	E_MADDR_ENV,
	E_MADDR_ARG,
	E_MADDR_ARG2,
	E_RDZV,
	E_C10D_TARGET,
	E_ENV,
	E_ENV_IFNAME,
	E_FLAGS,
	E_IPLINK,
	E_IPLINK2,
	E_IPLINK3,
	E_INET,
	E_COUNT
};

static const char *const extractor_anchor[E_COUNT] = {
	[E_VERSION] = "NCCL version ",
	[E_BOOT1] = "Bootstrap : Using",
	[E_BOOT2] = "Bootstrap: Using",
	[E_SOCK] = "NET/Socket : Using",
	[E_IB] = "NET/IB : Using",
	[E_NETWORK] = "Using network ",
	[E_VIA] = "] via ",
	[E_START] = "Init START",
	[E_COMPLETE] = "Init COMPLETE",
	[E_TIMINGS] = "Init timings",
	[E_NRANKS] = "nRanks ",
	[E_PL_INIT] = "Initializing distributed: GLOBAL_RANK:",
	[E_PL_REG] = "All distributed processes registered",
	[E_WD] = "Watchdog caught collective operation timeout",
	[E_TB] = "Traceback (most recent call last)",
	[E_MADDR_ENV] = "MASTER_ADDR",
	[E_MADDR_ARG] = "master_addr",
	[E_MADDR_ARG2] = "master-addr",
	[E_RDZV] = "rdzv_endpoint",
	[E_C10D_TARGET] = "trying to connect to (",
	[E_ENV] = "by environment to ",
	[E_ENV_IFNAME] = "NCCL_SOCKET_IFNAME set to ",
	[E_FLAGS] = "flags=",
	[E_IPLINK] = "<BROADCAST",
	[E_IPLINK2] = "<LOOPBACK",
	[E_IPLINK3] = "<NO-CARRIER",
	[E_INET] = NULL,	/* found by inet_at(): "in" is too common a pair for the prefilter */
};

/* ---- small bounded string helpers ---------------------------------------------------------- */

/* Copies [p, end) up to the first byte of `stop` (or end) into out; returns the bytes taken. */
static size_t take(const char *p, const char *end, const char *stop, char *out, size_t cap)
{
	size_t n = 0, w = 0;

	while (p + n < end && !strchr(stop, p[n]) && p[n]) {
		if (w + 1 < cap)
			out[w++] = p[n];
		n++;
	}
	if (cap)
		out[w] = '\0';
	return n;
}

/* Copies a line excerpt, replacing control bytes so the text is printable and valid-ish JSON. */
static void excerpt(const char *p, size_t len, char *out, size_t cap)
{
	size_t w = 0;

	while (len && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	for (size_t i = 0; i < len && w + 1 < cap; i++) {
		unsigned char c = (unsigned char)p[i];
		out[w++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
	}
	while (w && out[w - 1] == ' ')
		w--;
	out[w] = '\0';
}

static const char *find(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if (p >= end)
		return NULL;
	return memmem(p, (size_t)(end - p), lit, n);
}

/* A decimal after `lit` on [p, end); -1 when absent. */
static long num_after(const char *p, const char *end, const char *lit)
{
	const char *q = find(p, end, lit);
	long v = 0;
	int any = 0;

	if (!q)
		return -1;
	q += strlen(lit);
	while (q < end && *q == ' ')
		q++;
	while (q < end && isdigit((unsigned char)*q) && v < 100000000) {
		v = v * 10 + (*q++ - '0');
		any = 1;
	}
	return any ? v : -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- prefix stripping ---------------------------------------------------------------------- */

/* Removes ANSI escape sequences (CSI, OSC, two-byte escapes) into scratch. */
static size_t strip_ansi(const char *s, size_t len, char *out)
{
	size_t w = 0, i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		if (c != 0x1b) {
			out[w++] = (char)c;
			i++;
			continue;
		}
		i++;
		if (i >= len)
			break;
		if (s[i] == '[') {		/* CSI: params, intermediates, one final byte */
			i++;
			while (i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
				i++;
			if (i < len)
				i++;
		} else if (s[i] == ']') {	/* OSC: up to BEL or ESC \ */
			i++;
			while (i < len && s[i] != '\a' && s[i] != 0x1b)
				i++;
			if (i < len && s[i] == 0x1b)
				i++;
			if (i < len)
				i++;
		} else {
			i++;
		}
	}
	return w;
}

/* "[rank3]:" / "[default0]:" at p: returns the length, fills rank or local rank. */
static size_t torchrun_prefix(const char *p, size_t len, int *rank, int *local)
{
	size_t i = 1, name = 0;
	long v = 0;

	if (len < 4 || p[0] != '[')
		return 0;
	while (i < len && i < 40 && (isalpha((unsigned char)p[i]) || p[i] == '_'))
		i++;
	name = i - 1;
	if (!name || i >= len || !is_digit(p[i]))
		return 0;
	while (i < len && is_digit(p[i]) && v < 10000000)
		v = v * 10 + (p[i++] - '0');
	if (i + 1 >= len + 1 || i + 1 > len || p[i] != ']' || i + 1 >= len || p[i + 1] != ':')
		return 0;
	if (name == 4 && !memcmp(p + 1, "rank", 4))
		*rank = (int)v;
	else
		*local = (int)v;
	i += 2;
	if (i < len && p[i] == ' ')
		i++;
	return i;
}

/* srun -l: optional spaces, digits, ": " */
static size_t srun_prefix(const char *p, size_t len, int *rank)
{
	size_t i = 0;
	long v = 0;

	while (i < len && i < 8 && p[i] == ' ')
		i++;
	if (i >= len || !is_digit(p[i]))
		return 0;
	while (i < len && is_digit(p[i]) && v < 10000000)
		v = v * 10 + (p[i++] - '0');
	if (i + 1 >= len || p[i] != ':' || p[i + 1] != ' ')
		return 0;
	/* "2: eth1    inet 10.0.0.2/24 ..." and "2: eth1: <BROADCAST" are `ip` output, not labels */
	{
		size_t j = i + 2, t0 = j;
		while (j < len && j - t0 < 32 && (isalnum((unsigned char)p[j]) || strchr("._@-", p[j])))
			j++;
		if (j > t0 && j + 2 < len && p[j] == ':' && p[j + 1] == ' ' && p[j + 2] == '<')
			return 0;
		while (j < len && j > t0 && p[j] == ' ')
			j++;
		if (j > t0 && j + 5 <= len && !memcmp(p + j, "inet", 4) && (p[j + 4] == ' ' || p[j + 4] == '6'))
			return 0;
	}
	*rank = (int)v;
	return i + 2;
}

/* NCCL's "[ts] host:pid:tid [dev] ... NCCL LEVEL " prefix; returns the body offset or 0. */
static size_t nccl_prefix(const char *p, size_t len, struct explain_line_info *li)
{
	size_t i = 0, h0, h1;
	long pid = 0;
	const char *lvl, *end;

	if (len > 2 && p[0] == '[') {	/* 2.26+ WARN timestamp "[2024-01-01 10:00:00] " */
		const char *rb = memchr(p, ']', len < 40 ? len : 40);
		if (rb && (size_t)(rb - p) + 1 < len && rb[1] == ' ')
			i = (size_t)(rb - p) + 2;
	}
	h0 = i;
	while (i < len && i - h0 < 256 && p[i] != ':' && p[i] != ' ' && p[i] != '[')
		i++;
	if (i == h0 || i >= len || p[i] != ':')
		return 0;
	h1 = i++;
	if (i >= len || !is_digit(p[i]))
		return 0;
	while (i < len && is_digit(p[i]) && pid < 100000000)
		pid = pid * 10 + (p[i++] - '0');
	if (i >= len || p[i] != ':')
		return 0;
	i++;
	if (i >= len || !is_digit(p[i]))
		return 0;
	while (i < len && is_digit(p[i]))
		i++;
	if (i + 1 >= len || p[i] != ' ')
		return 0;
	/* " [dev]" for INFO/WARN/TRACE; "NCCL CALL" lines have none */
	end = p + (len - i < 300 ? len : i + 300);
	lvl = NULL;
	{	/* fast path: "tid [dev] NCCL INFO" */
		size_t j = i + 1;
		if (j < len && p[j] == '[') {
			j++;
			while (j < len && is_digit(p[j]))
				j++;
			if (j + 7 < len && p[j] == ']' && p[j + 1] == ' ' && !memcmp(p + j + 2, "NCCL ", 5))
				lvl = p + j + 2;
		}
	}
	if (!lvl)
		lvl = find(p + i, end, "NCCL ");
	if (!lvl)
		return 0;
	li->host = p + h0;
	li->hlen = h1 - h0;
	li->pid = pid;
	lvl += 5;
	if ((size_t)(end - lvl) >= 5 && !memcmp(lvl, "INFO ", 5)) {
		li->nccl = 1;
		lvl += 5;
	} else if ((size_t)(end - lvl) >= 5 && !memcmp(lvl, "WARN ", 5)) {
		li->nccl = 2;
		lvl += 5;
	} else {
		li->nccl = 3;
		while (lvl < p + len && *lvl != ' ')
			lvl++;
		if (lvl < p + len)
			lvl++;
	}
	return (size_t)(lvl - p);
}

void explain_strip(const char *s, size_t len, char *scratch, struct explain_line_info *li)
{
	size_t off;

	memset(li, 0, sizeof(*li));
	li->prefix_rank = li->local_rank = -1;
	li->pid = -1;
	if (len > EXPLAIN_MAX_LINE)
		len = EXPLAIN_MAX_LINE;
	if (memchr(s, 0x1b, len)) {
		len = strip_ansi(s, len, scratch);
		s = scratch;
	}
	/* torchrun and srun prefixes can stack ("0: [rank0]: ..."); peel a few */
	for (int k = 0; k < 3; k++) {
		int r = -1, l = -1;
		off = torchrun_prefix(s, len, &r, &l);
		if (!off)
			off = srun_prefix(s, len, &r);
		if (!off)
			break;
		if (r >= 0 && li->prefix_rank < 0)
			li->prefix_rank = r;
		if (l >= 0 && li->local_rank < 0)
			li->local_rank = l;
		s += off;
		len -= off;
	}
	off = nccl_prefix(s, len, li);
	li->body = s + off;
	li->blen = len - off;
}

/* ---- streams ------------------------------------------------------------------------------ */

static uint32_t host_hash(const char *host, size_t hlen)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < hlen; i++)
		h = (h ^ (unsigned char)host[i]) * 16777619u;
	return h;
}

static void stream_init(struct xstream *s, uint32_t file, char kind, int key, const char *host,
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

static int stream_is(const struct xstream *s, uint32_t file, char kind, int key, long pid,
		     size_t hlen, uint32_t hh)
{
	return s->file == file && s->kind == kind && s->key == key && s->pid == pid &&
	       s->hlen == hlen && s->hhash == hh;
}

/*
 * The stream of a line. Hot path: the previous line's stream, then a small direct-mapped cache,
 * then the hash table; all compare the key fields at the head of the stream (one cache line).
 */
static uint32_t stream_get(struct explain *x, char kind, int key, const char *host, size_t hlen,
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
	if (x->nst >= X_MAX_STREAMS) {
		/* bounded: everything beyond the cap lands in the last stream */
		x->stream_overflow++;
		return X_MAX_STREAMS - 1;
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

static void set_rank(struct xstream *s, int rank, int prio, int nranks)
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
 * The matcher depends only on the tables above, so it is built once per process and then only
 * read (each explain has its own scan state): building it is most of the start-up cost.
 */
static pthread_once_t ac_once = PTHREAD_ONCE_INIT;
static struct ac *ac_shared;

static void ac_build_shared(void)
{
	struct ac *a = ac_new();

	for (size_t i = 0; i < explain_nsigs; i++)
		for (int k = 0; k < SIG_MAX_ANCHORS && explain_sigs[i].anchors[k]; k++)
			ac_add(a, explain_sigs[i].anchors[k], (uint16_t)i);
	for (int e = 0; e < E_COUNT; e++)
		ac_add(a, extractor_anchor[e], (uint16_t)(explain_nsigs + (size_t)e));
	ac_build(a);
	ac_shared = a;
}

struct explain *explain_new(const struct explain_opts *o)
{
	struct explain *x = xcalloc(1, sizeof(*x));

	pthread_once(&ac_once, ac_build_shared);
	x->ac = ac_shared;
	x->seen.seen = xcalloc(ac_consumers(x->ac) + 1, sizeof(*x->seen.seen));
	x->hits = xcalloc(explain_nsigs, sizeof(*x->hits));
	x->hcap = 2 * X_MAX_STREAMS;
	x->hash = xcalloc(x->hcap, sizeof(*x->hash));
	x->htag = xcalloc(x->hcap, sizeof(*x->htag));
	x->master_prio = -1;
	x->pl_world = -1;
	if (o && o->master_addr && *o->master_addr) {
		snprintf(x->master, sizeof(x->master), "%s", o->master_addr);
		x->master_prio = 100;
		snprintf(x->master_src, sizeof(x->master_src), "--master-addr");
	}
	return x;
}

void explain_free(struct explain *x)
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
	free(x);
}

void explain_loc_fmt(const struct explain *x, struct loc l, char *buf, size_t len)
{
	const char *name = l.file < x->nin ? x->in[l.file].name : "?";

	snprintf(buf, len, "%s:%llu", name, (unsigned long long)l.line);
}

const struct xenv *explain_env(const struct explain *x, const char *name)
{
	for (int i = 0; i < x->nenv; i++)
		if (!strcmp(x->env[i].name, name))
			return &x->env[i];
	return NULL;
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
	if (!is_digit(*p))
		return -1;
	return atoi(p) >= 0 && atoi(p) < 10000000 ? atoi(p) : -1;
}

void explain_begin_input(struct explain *x, const char *name)
{
	struct xinput *in;

	if (x->nin >= X_MAX_INPUTS) {	/* bounded: later inputs share the last slot */
		x->cur = x->nin - 1;
		return;
	}
	ALLOC_GROW(x->in, x->nin + 1, x->ain);
	in = &x->in[x->nin];
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(name ? name : "-");
	in->name_rank = name_rank(in->name);
	x->cur = x->nin++;
}

void explain_end_input(struct explain *x, uint64_t bytes)
{
	if (x->nin) {
		x->in[x->cur].bytes += bytes;
		x->total_bytes += bytes;
	}
}

/* ---- extraction ----------------------------------------------------------------------------- */

struct lctx {
	struct explain *x;
	struct xstream *s;
	uint32_t si;
	const struct explain_line_info *li;
	struct loc loc;
	uint16_t hits[48];
	size_t ends[48];
	int nhits;
};

static void on_hit(void *ctx, uint16_t consumer, size_t end)
{
	struct lctx *c = ctx;

	if (c->nhits < (int)ARRAY_SIZE(c->hits)) {
		c->hits[c->nhits] = consumer;
		c->ends[c->nhits++] = end;
	}
}

static void add_iface(struct explain *x, const char *ifname, const char *addr, int prefix)
{
	struct xiface *f;

	if (!*ifname || !*addr)
		return;
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].ifname, ifname) && !strcmp(x->ifs[i].addr, addr)) {
			if (x->ifs[i].prefix < 0)
				x->ifs[i].prefix = prefix;
			return;
		}
	if (x->nifs >= X_MAX_IFACES)
		return;
	f = &x->ifs[x->nifs++];
	snprintf(f->ifname, sizeof(f->ifname), "%s", ifname);
	snprintf(f->addr, sizeof(f->addr), "%s", addr);
	f->prefix = prefix;
	f->file = x->cur;
}

static void set_master(struct explain *x, const char *p, const char *end, int prio, const char *src,
		       struct loc l, int strip_port)
{
	char v[64];
	char *colon;

	if (prio <= x->master_prio)
		return;
	while (p < end && (*p == ' ' || *p == '\'' || *p == '"'))
		p++;
	take(p, end, " \t'\",)]}", v, sizeof(v));
	if (strip_port && (colon = strrchr(v, ':')) && strchr(v, ':') == colon)
		*colon = '\0';
	if (!v[0] || !(isalnum((unsigned char)v[0])))
		return;
	if (!strcmp(v, "localhost") && prio < 3)
		return;
	snprintf(x->master, sizeof(x->master), "%s", v);
	x->master_prio = prio;
	x->master_loc = l;
	snprintf(x->master_src, sizeof(x->master_src), "%s", src);
}

/* "NAME = value" / "NAME: value" / "NAME=value": returns the value start or NULL. */
static const char *assigned(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	if (p >= end || (*p != '=' && *p != ':'))
		return NULL;
	p++;
	while (p < end && (*p == ' ' || *p == '"' || *p == '\''))
		p++;
	return p < end ? p : NULL;
}

static void parse_sock_list(struct xstream *s, const char *p, const char *end, struct explain *x)
{
	while (p < end && s->nsock < (int)ARRAY_SIZE(s->sock)) {
		const char *lb = memchr(p, '[', (size_t)(end - p)), *rb;
		struct sock_if *si;
		if (!lb)
			break;
		rb = memchr(lb, ']', (size_t)(end - lb));
		if (!rb)
			break;
		p = rb + 1;
		si = &s->sock[s->nsock];
		p += take(p, end, ": ", si->ifname, sizeof(si->ifname));
		if (p >= end || *p != ':')
			break;
		p++;
		p += take(p, end, "< ", si->addr, sizeof(si->addr));
		add_iface(x, si->ifname, si->addr, -1);
		s->nsock++;
	}
}

static void extract(struct lctx *c, int e, size_t at)
{
	struct explain *x = c->x;
	struct xstream *s = c->s;
	const char *b = c->li->body, *end = b + c->li->blen, *p = b + at;
	long v;

	switch (e) {
	case E_VERSION:
		if (!s->nccl_version[0] && p < end && is_digit(*p)) {
			take(p, end, " \t", s->nccl_version, sizeof(s->nccl_version));
			s->ver_loc = c->loc;
		}
		break;
	case E_BOOT1:
	case E_BOOT2:
		if (s->boot_loc.line)
			break;
		while (p < end && *p == ' ')
			p++;
		if (p < end && *p == '[') {
			const char *rb = memchr(p, ']', (size_t)(end - p));
			if (rb)
				p = rb + 1;
		}
		p += take(p, end, ": ", s->boot_if, sizeof(s->boot_if));
		if (p < end && *p == ':') {
			take(p + 1, end, "< ", s->boot_addr, sizeof(s->boot_addr));
			s->boot_loc = c->loc;
			add_iface(x, s->boot_if, s->boot_addr, -1);
		}
		break;
	case E_SOCK:
		if (!s->sock_loc.line) {
			s->sock_loc = c->loc;
			parse_sock_list(s, p, end, x);
		}
		break;
	case E_IB:
		if (!s->ib_loc.line) {
			excerpt(p, (size_t)(end - p), s->ib, sizeof(s->ib));
			s->ib_loc = c->loc;
		}
		break;
	case E_NETWORK:
		if (c->li->nccl && !s->network[0])
			take(p, end, " \t", s->network, sizeof(s->network));
		break;
	case E_VIA: {
		const char *t = p;
		size_t left = (size_t)(end - t);
#define AT(lit) (left >= sizeof(lit) - 1 && !memcmp(t, lit, sizeof(lit) - 1))
		if (!c->li->nccl || c->li->blen < 8 || memcmp(b, "Channel ", 8))
			break;
		if (AT("NET/Socket"))
			s->transports |= TR_NET_SOCKET;
		else if (AT("NET/IB"))
			s->transports |= TR_NET_IB;
		else if (AT("NET/"))
			s->transports |= TR_NET_OTHER;
		else if (AT("P2P/"))
			s->transports |= TR_P2P;
		else if (AT("SHM/"))
			s->transports |= TR_SHM;
		else if (AT("COLLNET"))
			s->transports |= TR_COLLNET;
		else
			break;
#undef AT
		if (!s->nvia++) {
			excerpt(b, c->li->blen, s->via_example, sizeof(s->via_example));
			s->via_loc = c->loc;
		}
		break;
	}
	case E_START: {
		long r = num_after(b, end, " rank "), n = num_after(b, end, " nranks ");
		if (!s->init_start.line) {
			s->init_start = c->loc;
			s->start_nranks = (int)n;
		}
		if (r >= 0)
			set_rank(s, (int)r, 2, (int)n);
		break;
	}
	case E_COMPLETE: {
		long r = num_after(b, end, " rank "), n = num_after(b, end, " nranks ");
		s->init_complete = c->loc;
		if (r >= 0)
			set_rank(s, (int)r, 2, (int)n);
		break;
	}
	case E_TIMINGS: {
		const char *t = find(p, end, " total ");
		if (t) {
			char num[32];
			take(t + 7, end, " (", num, sizeof(num));
			s->init_total = strtod(num, NULL);
		}
		break;
	}
	case E_NRANKS:
		if (!c->li->nccl)
			break;
		if ((v = num_after(b, end, " nRanks ")) >= 0 && s->nranks < 0) {
			s->nranks = (int)v;
			s->nnodes = (int)num_after(b, end, " nNodes ");
			s->local_ranks = (int)num_after(b, end, " localRanks ");
			s->topo_loc = c->loc;
			if ((v = num_after(b, end, " rank ")) >= 0)
				set_rank(s, (int)v, 2, s->nranks);
		}
		break;
	case E_PL_INIT:
		v = num_after(p, end, "");
		if (v >= 0) {
			const char *slash = find(p, end, "/");
			s->pl_rank = (int)v;
			s->pl_world = slash ? (int)num_after(slash, end, "/") : -1;
			s->pl_init = c->loc;
			set_rank(s, (int)v, 1, s->pl_world);
		}
		break;
	case E_PL_REG:
		s->pl_registered = c->loc;
		if (!x->pl_registered.line) {
			x->pl_registered = c->loc;
			x->pl_world = (int)num_after(b, end, "Starting with ");
		}
		break;
	case E_WD:
		if (!s->wd_count++) {
			s->wd_seq = num_after(b, end, "SeqNum=");
			s->wd_timeout_ms = num_after(b, end, "Timeout(ms)=");
			{
				const char *o = find(b, end, "OpType=");
				if (o)
					take(o + 7, end, ", )", s->wd_op, sizeof(s->wd_op));
			}
			s->wd_loc = c->loc;
		}
		break;
	case E_TB:
		s->in_tb = 1;
		break;
	case E_MADDR_ENV:
		if ((p = assigned(p, end)))
			set_master(x, p, end, 3, "MASTER_ADDR", c->loc, 0);
		break;
	case E_MADDR_ARG:
	case E_MADDR_ARG2: {
		const char *q = assigned(p, end);
		if (!q && p < end && *p == ' ')	/* "--master-addr 10.0.0.1" */
			q = p + 1;
		if (q)
			set_master(x, q, end, 2, "launcher arguments", c->loc, 0);
		break;
	}
	case E_RDZV:
		if ((p = assigned(p, end)))
			set_master(x, p, end, 1, "rdzv_endpoint", c->loc, 1);
		break;
	case E_C10D_TARGET:
		set_master(x, p, end, 0, "c10d connect target", c->loc, 0);
		break;
	case E_ENV:
	case E_ENV_IFNAME: {
		/* the variable name is the word before " set by environment to " */
		const char *a = b + at - strlen(extractor_anchor[e]), *n0;
		struct xenv *ev = NULL;
		char name[48];
		if (e == E_ENV_IFNAME) {
			snprintf(name, sizeof(name), "NCCL_SOCKET_IFNAME");
		} else {
			if (a - b < 5 || memcmp(a - 5, " set ", 5))
				break;
			a -= 5;
			n0 = a;
			while (n0 > b && (isalnum((unsigned char)n0[-1]) || n0[-1] == '_'))
				n0--;
			if (a - n0 < 3 || (size_t)(a - n0) >= sizeof(name))
				break;
			memcpy(name, n0, (size_t)(a - n0));
			name[a - n0] = '\0';
		}
		for (int i = 0; i < x->nenv; i++)
			if (!strcmp(x->env[i].name, name))
				ev = &x->env[i];
		if (!ev && x->nenv < X_MAX_ENV) {
			ev = &x->env[x->nenv++];
			snprintf(ev->name, sizeof(ev->name), "%s", name);
			take(p, end, " \t", ev->value, sizeof(ev->value));
			{
				size_t l = strlen(ev->value);
				if (l && ev->value[l - 1] == '.')
					ev->value[l - 1] = '\0';
			}
			ev->loc = c->loc;
		}
		break;
	}
	case E_FLAGS: {	/* ifconfig: "eth1: flags=4163<UP,...>" */
		const char *q = b;
		while (q < end && *q == ' ')
			q++;
		take(q, end, ": ", x->in[x->cur].cur_if, sizeof(x->in[x->cur].cur_if));
		break;
	}
	case E_IPLINK:
	case E_IPLINK2:
	case E_IPLINK3: {	/* ip addr: "2: eth1: <BROADCAST,...>" */
		const char *q = b;
		while (q < end && *q == ' ')
			q++;
		if (q >= end || !is_digit(*q))
			break;
		while (q < end && is_digit(*q))
			q++;
		if (q + 2 < end && q[0] == ':' && q[1] == ' ') {
			char name[32];
			take(q + 2, end, ":@ ", name, sizeof(name));
			memcpy(x->in[x->cur].cur_if, name, sizeof(name));
		}
		break;
	}
	case E_INET: {
		const char *q = b, *sc;
		char addr[64], ifname[32];
		int prefix = -1;
		char *slash;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		/* "ip -o addr": "2: eth1    inet 10.0.0.2/24 ... scope global eth1" (the "2: " may
		 * already be gone, taken for an srun label) */
		if (q < end && is_digit(*q) && p - q < 40) {
			while (q < end && is_digit(*q))
				q++;
			if (q + 2 < end && q[0] == ':' && q[1] == ' ')
				q += 2;
			while (q < end && *q == ' ')
				q++;
		}
		if (q != p - 5) {
			char name[32];
			const char *t = q + take(q, end, " \t", name, sizeof(name));
			while (t < end && (*t == ' ' || *t == '\t'))
				t++;
			if (t != p - 5 || !name[0])
				break;	/* "inet" inside a sentence */
			name[strcspn(name, ":@")] = '\0';
			memcpy(x->in[x->cur].cur_if, name, sizeof(name));
		}
		take(p, end, " \t", addr, sizeof(addr));
		if ((slash = strchr(addr, '/'))) {
			prefix = atoi(slash + 1);
			*slash = '\0';
		} else {
			const char *nm = find(p, end, "netmask ");
			if (nm) {
				char mask[32];
				unsigned a1, a2, a3, a4;
				take(nm + 8, end, " \t", mask, sizeof(mask));
				if (sscanf(mask, "%u.%u.%u.%u", &a1, &a2, &a3, &a4) == 4) {
					uint32_t m = (a1 << 24) | (a2 << 16) | (a3 << 8) | a4;
					prefix = 0;
					while (m & 0x80000000u) {
						prefix++;
						m <<= 1;
					}
				}
			}
		}
		snprintf(ifname, sizeof(ifname), "%s", x->in[x->cur].cur_if);
		if ((sc = find(p, end, "scope global ")))
			take(sc + 13, end, " \t\\", ifname, sizeof(ifname));
		if (ifname[0] && addr[0] && (is_digit(addr[0]) || strchr(addr, ':')))
			add_iface(x, ifname, addr, prefix);
		break;
	}
	default:
		break;
	}
}

static void record_sig(struct lctx *c, size_t si, size_t at)
{
	const struct explain_sig *g = &explain_sigs[si];
	const char *b = c->li->body, *end = b + c->li->blen;
	struct sig_hit *h = &c->x->hits[si];
	int k;

	if ((g->flags & SIG_WARN_ONLY) && c->li->nccl != 2)
		return;
	if (g->also && !find(b, end, g->also))
		return;
	if (g->unless && find(b, end, g->unless))
		return;
	h->count++;
	if (h->nev < X_SIG_EV) {
		h->ev[h->nev] = c->loc;
		excerpt(b, c->li->blen, h->ev_text[h->nev], X_TEXT);
		h->nev++;
	}
	for (k = 0; k < h->nstreams; k++)
		if (h->streams[k] == c->si)
			break;
	if (k == h->nstreams) {
		if (h->nstreams < X_SIG_STREAMS)
			h->streams[h->nstreams++] = c->si;
		else
			h->streams_overflow = 1;
	}
	if (g->cap_after && !h->capture[0]) {
		const char *q = find(b, end, g->cap_after);
		(void)at;
		if (q) {
			q += strlen(g->cap_after);
			if (g->cap_stop && g->cap_stop[0] == SIG_UNTIL[0]) {
				const char *u = find(q, end, g->cap_stop + 1);
				take(q, u ? u : end, "", h->capture, sizeof(h->capture));
			} else {
				take(q, end, g->cap_stop ? g->cap_stop : "", h->capture, sizeof(h->capture));
			}
			/* trim trailing punctuation and spaces */
			for (size_t l = strlen(h->capture); l && strchr(" .,;:", h->capture[l - 1]); l--)
				h->capture[l - 1] = '\0';
		}
	}
}

/*
 * `ifconfig` / `ip addr` address lines: "    inet 10.0.0.1 ...", "2: eth1    inet 10.0.0.2/24 ..."
 * (the "2: " maybe taken as an srun label already). Returns the offset just after "inet ", or 0.
 */
static size_t inet_at(const char *b, size_t len)
{
	size_t i = 0, t;

	while (i < len && i < 48 && (b[i] == ' ' || b[i] == '\t'))
		i++;
	if (i + 5 <= len && !memcmp(b + i, "inet ", 5))
		return i + 5;
	if (i || len > 400)
		return 0;
	while (i < len && i < 8 && is_digit(b[i]))
		i++;
	if (i && i + 1 < len && b[i] == ':' && b[i + 1] == ' ')
		i += 2;
	else if (i)
		return 0;
	while (i < len && b[i] == ' ')
		i++;
	t = i;
	while (i < len && i - t < 32 && (isalnum((unsigned char)b[i]) || strchr("._@-", b[i])))
		i++;
	if (i == t || i >= len || b[i] != ' ')
		return 0;
	while (i < len && b[i] == ' ')
		i++;
	return i + 5 <= len && !memcmp(b + i, "inet ", 5) ? i + 5 : 0;
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

void explain_line(struct explain *x, const struct lr_line *l)
{
	struct explain_line_info li;
	struct lctx c;
	struct xinput *in;
	char kind;
	int key;

	if (!x->nin)
		explain_begin_input(x, "-");
	in = &x->in[x->cur];
	in->lines++;
	x->total_lines++;
	if (l->dropped) {
		in->long_lines++;
		x->long_lines++;
	}
	explain_strip(l->s, l->len, x->scratch, &li);

	if (li.prefix_rank >= 0) {
		kind = 'R';
		key = li.prefix_rank;
	} else if (li.local_rank >= 0) {
		kind = 'L';
		key = li.local_rank;
	} else if (li.nccl) {
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
			x->nccl_info_lines++;
		if (!c.s->nhost[0] && li.hlen) {
			size_t n = li.hlen < sizeof(c.s->nhost) ? li.hlen : sizeof(c.s->nhost) - 1;
			memcpy(c.s->nhost, li.host, n);
			c.s->nhost[n] = '\0';
			c.s->npid = li.pid;
		}
	}
	if (li.prefix_rank >= 0)
		set_rank(c.s, li.prefix_rank, 3, -1);

	/* traceback: indented frames until the first line at column 0, the exception */
	if (c.s->in_tb && li.blen) {
		if (li.body[0] != ' ' && li.body[0] != '\t' && li.body[0] != '^' && li.body[0] != '~' &&
		    !(li.blen >= 9 && !memcmp(li.body, "Traceback", 9))) {
			if (exception_line(li.body, li.blen)) {
				excerpt(li.body, li.blen, c.s->exception, sizeof(c.s->exception));
				c.s->exc_loc = c.loc;
			}
			c.s->in_tb = 0;
		}
	}

	ac_scan(x->ac, &x->seen, li.body, li.blen, on_hit, &c);
	if (!li.nccl && li.blen > 5) {
		size_t at = inet_at(li.body, li.blen);
		if (at)
			on_hit(&c, (uint16_t)(explain_nsigs + E_INET), at);
	}
	for (int i = 0; i < c.nhits; i++) {
		if (c.hits[i] < explain_nsigs)
			record_sig(&c, c.hits[i], c.ends[i]);
		else
			extract(&c, (int)(c.hits[i] - explain_nsigs), c.ends[i]);
	}

	/* the hot path: a raw copy; the reasoner cleans the few that are shown */
	if (li.blen && (li.body[0] != ' ' || li.blen > 1)) {
		size_t n = li.blen < sizeof(c.s->last) - 1 ? li.blen : sizeof(c.s->last) - 1;
		memcpy(x->last_text[c.si], li.body, n);
		x->last_text[c.si][n] = '\0';
		c.s->last_loc = c.loc;
	}
}

int explain_feed(struct explain *x, const char *name, struct lreader *r, struct err *e)
{
	struct lr_line l;
	int rc;

	explain_begin_input(x, name);
	while ((rc = lreader_next(r, &l, e)) > 0)
		explain_line(x, &l);
	explain_end_input(x, lreader_bytes(r));
	if (rc < 0)
		return err_prefix(e, "'%s'", name);
	return 0;
}

json_t *explain_finish(struct explain *x, struct findings *fs)
{
	if (x->finished)
		return json_object();
	x->finished = 1;
	return explain_reason(x, fs);
}
