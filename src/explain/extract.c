/*
 * Extractors: what the lines that are not signatures say. One row per anchor, grouped by the
 * family of lines it reads (NCCL init, torch/Lightning, the job's settings, ifconfig / ip addr);
 * each row's function records the value in the line's stream or in the job-wide observations.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/ngc.h"
#include "explain/scan_int.h"
#include "explain/text.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* `p` is just past the anchor, `a` at its start, both inside the line's body. */
typedef void (*extract_fn)(struct lctx *c, const char *p, const char *a);

#define BODY(c) ((c)->li->body)
#define END(c) ((c)->li->body + (c)->li->blen)

/* ---- job-wide records ----------------------------------------------------------------------- */

static void add_iface(struct scan *x, const char *ifname, const char *addr, int prefix,
		      uint64_t line)
{
	struct run_obs *o = &x->obs;
	struct iface_obs *f;

	if (!*ifname || !*addr)
		return;
	for (int i = 0; i < o->nifs; i++)
		if (!strcmp(o->ifs[i].ifname, ifname) && !strcmp(o->ifs[i].addr, addr)) {
			if (o->ifs[i].prefix < 0)
				o->ifs[i].prefix = prefix;
			return;
		}
	if (o->nifs >= OBS_MAX_IFACES)
		return;
	f = &o->ifs[o->nifs++];
	snprintf(f->ifname, sizeof(f->ifname), "%s", ifname);
	snprintf(f->addr, sizeof(f->addr), "%s", addr);
	f->prefix = prefix;
	f->file = x->cur;
	f->line = line;
}

/* A MASTER_ADDR candidate; a more reliable source (higher prio) wins. */
static void set_master(struct scan *x, const char *p, const char *end, int prio, const char *src,
		       struct loc l, int strip_port)
{
	struct run_obs *o = &x->obs;
	char v[64];
	char *colon;

	if (prio < o->master_prio)
		return;
	while (p < end && (*p == ' ' || *p == '\'' || *p == '"'))
		p++;
	xt_take(p, end, " \t'\",)]}", v, sizeof(v));
	if (strip_port && (colon = strrchr(v, ':')) && strchr(v, ':') == colon)
		*colon = '\0';
	if (!v[0] || !(isalnum((unsigned char)v[0])))
		return;
	if (!strcmp(v, "localhost") && prio < 3)
		return;
	if (prio == o->master_prio) {	/* the same kind of source twice: nodes may disagree */
		if (strcmp(v, o->master) && !o->master2[0] && v[0] != '$' && v[0] != '<') {
			snprintf(o->master2, sizeof(o->master2), "%s", v);
			o->master2_loc = l;
		}
		return;
	}
	snprintf(o->master, sizeof(o->master), "%s", v);
	o->master_prio = prio;
	o->master_loc = l;
	snprintf(o->master_src, sizeof(o->master_src), "%s", src);
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

/*
 * The first echo of a name wins, but NCCL's own ("set by environment to") replaces what a shell
 * or launcher line said: it is what the process really read.
 */
static void set_env(struct scan *x, const char *name, const char *p, const char *end, struct loc l,
		    char src, uint32_t si)
{
	struct run_obs *o = &x->obs;
	struct env_obs *ev = NULL;
	size_t n;

	for (int i = 0; i < o->nenv; i++)
		if (!strcmp(o->env[i].name, name)) {
			struct env_obs *e = &o->env[i];
			if ((src == 'N' || src == 'T') && e->src == src && e->stream != si &&
			    !e->value2[0]) {
				/* the processes of one job read different values */
				char v[sizeof(e->value2)];
				xt_take(p, end, " \t\"'", v, sizeof(v));
				n = strlen(v);
				if (n && v[n - 1] == '.')
					v[n - 1] = '\0';
				if (v[0] && strcmp(v, e->value)) {
					memcpy(e->value2, v, sizeof(v));
					e->loc2 = l;
				}
			}
			if (e->src != 'S' || (src != 'N' && src != 'T'))
				return;
			ev = e;
		}
	if (!ev && o->nenv >= OBS_MAX_ENV)
		return;
	if (!ev)
		ev = &o->env[o->nenv++];
	ev->src = src;
	ev->stream = si;
	ev->value2[0] = '\0';
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	xt_take(p, end, " \t\"'", ev->value, sizeof(ev->value));
	n = strlen(ev->value);
	if (n && ev->value[n - 1] == '.')
		ev->value[n - 1] = '\0';
	ev->loc = l;
}

/* ---- NCCL init: version, interfaces, transports, progress ------------------------------------ */

/*
 * NCCL prints its version line bare, without the host:pid prefix (rank 0, or each process of
 * older releases): it belongs to the process whose NCCL line came just before it in this input,
 * so that the hosts of one pasted bundle each keep their own version.
 */
static void ex_version(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	uint32_t prev = c->x->last_nccl;

	(void)a;
	if (!c->li->hlen && prev && prev - 1 != c->si && c->x->st[prev - 1].file == c->x->cur &&
	    !c->x->st[prev - 1].nccl_version[0])
		s = &c->x->st[prev - 1];
	if (!s->nccl_version[0] && p < END(c) && xt_digit(*p)) {
		xt_take(p, END(c), " \t", s->nccl_version, sizeof(s->nccl_version));
		s->ver_loc = c->loc;
	}
}

/* "Bootstrap : Using eth0:10.0.0.1<0>" (2.19+: "Using [0]eth0:…") */
static void ex_bootstrap(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	const char *end = END(c);

	(void)a;
	if (s->boot_loc.line)
		return;
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '[') {
		const char *rb = memchr(p, ']', (size_t)(end - p));
		if (rb)
			p = rb + 1;
	}
	p += xt_take(p, end, ": ", s->boot_if, sizeof(s->boot_if));
	if (p < end && *p == ':') {
		xt_take(p + 1, end, "< ", s->boot_addr, sizeof(s->boot_addr));
		s->boot_loc = c->loc;
		add_iface(c->x, s->boot_if, s->boot_addr, -1, 0);
	}
}

/* "NET/Socket : Using [0]eth0:203.0.113.10<0> [1]eth1:10.10.0.1<0>" */
static void ex_net_socket(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	const char *end = END(c);

	(void)a;
	if (s->sock_loc.line)
		return;
	s->sock_loc = c->loc;
	{	/* "NET/Socket : Using" and nothing after it: the list wraps onto the next lines */
		const char *q = p;
		while (q < end && *q == ' ')
			q++;
		c->x->sock_wrap = q == end ? c->si + 1 : 0;
	}
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
		p += xt_take(p, end, ": ", si->ifname, sizeof(si->ifname));
		if (p >= end || *p != ':')
			break;
		p++;
		p += xt_take(p, end, "< ", si->addr, sizeof(si->addr));
		add_iface(c->x, si->ifname, si->addr, -1, 0);
		s->nsock++;
	}
}

static void ex_net_ib(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;

	(void)a;
	if (!s->ib_loc.line) {
		xt_excerpt(p, (size_t)(END(c) - p), s->ib, sizeof(s->ib));
		s->ib_loc = c->loc;
	}
}

static void ex_network(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	if (c->li->nccl && !c->s->network[0]) {
		xt_take(p, END(c), " \t", c->s->network, sizeof(c->s->network));
		c->s->network_loc = c->loc;
	}
}

static long number_at(const char *p, const char *end);

/* "cudaDriverVersion 12040": the CUDA version of the loaded driver, per process (the line is no
 * C string: its number is read up to END) */
static void ex_cuda_driver(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	if (c->li->nccl && !c->s->cuda_driver && p < END(c) && xt_digit(*p)) {
		c->s->cuda_driver = (int)number_at(p, END(c));
		c->s->cuda_driver_loc = c->loc;
	}
}

/*
 * The net plugin NCCL loaded: "NET/Plugin: Loaded net plugin NCCL RDMA Plugin v6 (v6)", "Plugin
 * Path : /opt/hpcx/.../libnccl-net.so", or NCCL's own ("Using internal network plugin", "No plugin
 * found (libnccl-net.so), using internal implementation"); a loaded plugin outranks the internal
 * one (NCCL tries several symbol versions before it loads one).
 */
static void set_plugin(struct lctx *c, const char *name, size_t n, int loaded)
{
	struct stream_obs *s = c->s;

	if (!c->li->nccl || (s->net_plugin[0] && (!loaded || strcmp(s->net_plugin, "internal"))))
		return;
	while (n && (name[n - 1] == ' ' || name[n - 1] == '.'))
		n--;
	if (!n)
		return;
	snprintf(s->net_plugin, sizeof(s->net_plugin), "%.*s", (int)n, name);
	s->plugin_loc = c->loc;
}

static void ex_plugin_loaded(struct lctx *c, const char *p, const char *a)
{
	const char *end = END(c), *q = p;

	(void)a;
	while (q < end && *q != '(')
		q++;
	set_plugin(c, p, (size_t)(q - p), 1);
}

static void ex_plugin_path(struct lctx *c, const char *p, const char *a)
{
	const char *end = END(c), *q = p;

	(void)a;
	while (q < end && *q != ' ' && *q != '\t')
		q++;
	set_plugin(c, p, (size_t)(q - p), 1);
}

static void ex_plugin_internal(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	(void)a;
	set_plugin(c, "internal", 8, 0);
}

/* NCCL 2.0-2.2 printed its rings without devices, "3 -> 12 via NET/IB/0/GDRDMA"; the
 * "[dev] via" form is ex_via's */
static void ex_via_bare(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	int gdr;

	if (a > BODY(c) && a[-1] == ']')
		return;
	gdr = xt_find(p, END(c), "/GDRDMA") != NULL;
	if (!(gdr ? o->via_gdr++ : o->via_nogdr++))
		*(gdr ? &o->via_gdr_loc : &o->via_nogdr_loc) = c->loc;
}

/* "via NET/Socket/0", "[send] via NET/IB/1/GDRDMA", in any release's form: a connection that a
 * network transport carries, so the job is not one host's GPUs talking to each other */
static void ex_via_net(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	(void)a;
	if (!c->x->obs.via_net_loc.line)
		c->x->obs.via_net_loc = c->loc;
}

/* "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM" */
static void ex_via(struct lctx *c, const char *p, const char *a)
{
	static const struct {
		const char *prefix;
		unsigned bit;
	} via[] = {
		{ "NET/Socket", TR_NET_SOCKET }, { "NET/IB", TR_NET_IB }, { "NET/", TR_NET_OTHER },
		{ "P2P/", TR_P2P }, { "SHM/", TR_SHM }, { "COLLNET", TR_COLLNET },
	};
	struct stream_obs *s = c->s;
	size_t left = (size_t)(END(c) - p), i;

	(void)a;
	for (i = 0; i < ARRAY_SIZE(via); i++) {
		size_t n = strlen(via[i].prefix);
		if (left >= n && !memcmp(p, via[i].prefix, n))
			break;
	}
	if (i == ARRAY_SIZE(via))
		return;
	if (via[i].bit == TR_NET_IB) {	/* pasted connection lines count too, prefix or not */
		struct run_obs *o = &c->x->obs;
		int gdr = xt_find(p, END(c), "/GDRDMA") != NULL;
		if (!(gdr ? o->via_gdr++ : o->via_nogdr++))
			*(gdr ? &o->via_gdr_loc : &o->via_nogdr_loc) = c->loc;
	}
	if (!c->li->nccl || c->li->blen < 8 || memcmp(BODY(c), "Channel ", 8))
		return;
	s->transports |= via[i].bit;
	if (!s->nvia++) {
		xt_excerpt(BODY(c), c->li->blen, s->via_example, sizeof(s->via_example));
		s->via_loc = c->loc;
	}
}

static void ex_init_start(struct lctx *c, const char *p, const char *a)
{
	long r = xt_num_after(BODY(c), END(c), " rank "), n = xt_num_after(BODY(c), END(c), " nranks ");

	(void)p;
	(void)a;
	if (!c->s->init_start.line) {
		c->s->init_start = c->loc;
		c->s->start_nranks = (int)n;
	}
	if (r >= 0)
		scan_set_rank(c->s, (int)r, 2, (int)n);
}

static void ex_init_complete(struct lctx *c, const char *p, const char *a)
{
	long r = xt_num_after(BODY(c), END(c), " rank "), n = xt_num_after(BODY(c), END(c), " nranks ");

	(void)p;
	(void)a;
	c->s->init_complete = c->loc;
	if (r >= 0)
		scan_set_rank(c->s, (int)r, 2, (int)n);
}

static void ex_init_timings(struct lctx *c, const char *p, const char *a)
{
	const char *t = xt_find(p, END(c), " total ");
	char num[32];

	(void)a;
	if (t) {
		xt_take(t + 7, END(c), " (", num, sizeof(num));
		c->s->init_total = strtod(num, NULL);
	}
}

/* "comm 0x… rank 3 nRanks 8 nNodes 2 localRanks 4 localRank 3" */
static void ex_topology(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	const char *b = BODY(c), *end = END(c);
	long v;

	(void)p;
	(void)a;
	if (!c->li->nccl)
		return;
	if ((v = xt_num_after(b, end, " nRanks ")) >= 0 && !s->topo_loc.line) {
		s->nranks = (int)v;
		s->nnodes = (int)xt_num_after(b, end, " nNodes ");
		s->local_ranks = (int)xt_num_after(b, end, " localRanks ");
		s->topo_loc = c->loc;
		if ((v = xt_num_after(b, end, " rank ")) >= 0)
			scan_set_rank(s, (int)v, 2, s->nranks);
	}
}

/* "rank 0 nranks 8" (NCCL 2.3-2.4), "comm 0x... rank 0 nranks 8 cudaDev 0 ... Init COMPLETE":
 * the job's size where no topology line gives it */
static void ex_nranks(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	const char *b = BODY(c), *end = END(c);
	long v;

	(void)p;
	(void)a;
	if (!c->li->nccl || s->nranks >= 0 || (v = xt_num_after(b, end, " nranks ")) <= 0)
		return;
	s->nranks = (int)v;
	if ((v = xt_num_after(b, end, "rank ")) >= 0)
		scan_set_rank(s, (int)v, 2, s->nranks);
}

/* ---- torch and Lightning ---------------------------------------------------------------------- */

/* "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/4" */
static void ex_pl_init(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	long v = xt_num_after(p, END(c), "");
	const char *slash;

	(void)a;
	if (v < 0)
		return;
	slash = xt_find(p, END(c), "/");
	s->pl_rank = (int)v;
	s->pl_world = slash ? (int)xt_num_after(slash, END(c), "/") : -1;
	s->pl_init = c->loc;
	scan_set_rank(s, (int)v, 1, s->pl_world);
	if (v < OBS_PL_RANKS) {
		struct run_obs *o = &c->x->obs;
		uint64_t bit = 1ull << (v % 64);
		if (o->pl_seen[v / 64] & bit) {
			if (!o->pl_dups++) {
				o->pl_dup_rank = (int)v;
				o->pl_dup_loc = c->loc;
			}
		} else {
			o->pl_seen[v / 64] |= bit;
			o->pl_distinct++;
		}
		if (s->pl_world > o->pl_world_max)
			o->pl_world_max = s->pl_world;
	}
}

static void ex_pl_registered(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;

	(void)p;
	(void)a;
	c->s->pl_registered = c->loc;
	if (!o->pl_registered.line) {
		o->pl_registered = c->loc;
		o->pl_world = (int)xt_num_after(BODY(c), END(c), "Starting with ");
	}
}

static void ex_watchdog(struct lctx *c, const char *p, const char *a)
{
	struct stream_obs *s = c->s;
	const char *b = BODY(c), *end = END(c), *op;

	(void)p;
	(void)a;
	if (s->wd_count++)
		return;
	s->wd_seq = xt_num_after(b, end, "SeqNum=");
	s->wd_timeout_ms = xt_num_after(b, end, "Timeout(ms)=");
	if ((op = xt_find(b, end, "OpType=")))
		xt_take(op + 7, end, ", )", s->wd_op, sizeof(s->wd_op));
	s->wd_loc = c->loc;
}

static void ex_traceback(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	(void)a;
	c->s->in_tb = 1;
}

/* ---- the job's settings: MASTER_ADDR, NCCL_* echoes -------------------------------------------- */

static void ex_master_env(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	if ((p = assigned(p, END(c))))
		set_master(c->x, p, END(c), 3, "MASTER_ADDR", c->loc, 0);
}

/* "--master_addr=10.0.0.1", "--master-addr 10.0.0.1", "master_addr: 10.0.0.1" */
static void ex_master_arg(struct lctx *c, const char *p, const char *a)
{
	const char *q = assigned(p, END(c));

	(void)a;
	if (!q && p < END(c) && *p == ' ')
		q = p + 1;
	if (q)
		set_master(c->x, q, END(c), 2, N_("launcher arguments"), c->loc, 0);
}

static void ex_rdzv(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	if ((p = assigned(p, END(c))))
		set_master(c->x, p, END(c), 1, "rdzv_endpoint", c->loc, 1);
}

/* The port of "host, port)" or "host:port" at p, 0 when none. */
static int port_at(const char *p, const char *end)
{
	const char *q = p;
	long v = 0;

	while (q < end && q - p < 96 && *q != ',' && *q != ':' && *q != ')' && *q != ' ')
		q++;
	if (q >= end || (*q != ',' && *q != ':'))
		return 0;
	for (q++; q < end && *q == ' '; q++)
		;
	while (q < end && xt_digit(*q) && v < 100000)
		v = v * 10 + (*q++ - '0');
	return v > 0 && v < 65536 ? (int)v : 0;
}

static void store_wait(struct lctx *c, int port)
{
	struct run_obs *o = &c->x->obs;

	if (port && !o->store_wait_port) {
		o->store_wait_port = port;
		o->store_wait_loc = c->loc;
	}
}

/* "... while trying to connect to (localhost, 35980)" */
static void ex_c10d_target(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	set_master(c->x, p, END(c), 0, N_("c10d connect target"), c->loc, 0);
	store_wait(c, port_at(p, END(c)));
}

/* c10d's trace "The server socket on localhost:35980 is not yet listening (errno: 111 ...)" */
static void ex_not_listening(struct lctx *c, const char *p, const char *a)
{
	const char *on = NULL, *b = BODY(c);

	(void)p;
	for (const char *q = b; (q = xt_find(q, a, "socket on ")); q++)
		on = q + 10;
	if (on)
		store_wait(c, port_at(on, a));
}

/* init_process_group(..., init_method="tcp://10.0.0.1:23456") in a traceback, a script or prose */
static void ex_init_method(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *end = END(c), *t = xt_find(p, end - p > 12 ? p + 12 : end, "tcp://");
	int port;

	(void)a;
	if (!t || o->init_tcp_port)
		return;
	t += 6;
	if (!(port = port_at(t, end)))
		return;
	xt_take(t, end, " \t'\",)", o->init_tcp, sizeof(o->init_tcp));
	o->init_tcp_port = port;
	o->init_tcp_loc = c->loc;
}

/* torchrun's "--master-port 29500" / "--master_port=29500", or a MASTER_PORT echo */
static void ex_master_port(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *q = assigned(p, END(c));
	long v = 0;

	(void)a;
	if (!q && p < END(c) && *p == ' ')
		q = p + 1;
	if (!q || o->master_port)
		return;
	while (q < END(c) && xt_digit(*q) && v < 100000)
		v = v * 10 + (*q++ - '0');
	if (v > 0 && v < 65536) {
		o->master_port = (int)v;
		o->master_port_loc = c->loc;
	}
}

static void ex_agent_store(struct lctx *c, const char *p, const char *a)
{
	const char *q = assigned(p, END(c));

	(void)a;
	if (q && !strncmp(q, "True", 4) && !c->x->obs.agent_store_loc.line)
		c->x->obs.agent_store_loc = c->loc;
}

static void ex_elastic(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	(void)a;
	if (!c->x->obs.elastic_loc.line)
		c->x->obs.elastic_loc = c->loc;
}

/* NCCL's ENV echo: "NCCL_IB_HCA set by environment to mlx5_0." (the name is the word before) */
static void ex_env(struct lctx *c, const char *p, const char *a)
{
	const char *b = BODY(c), *n0;
	char name[48];

	if (a - b < 5 || memcmp(a - 5, " set ", 5))
		return;
	a -= 5;
	n0 = a;
	while (n0 > b && (isalnum((unsigned char)n0[-1]) || n0[-1] == '_'))
		n0--;
	if (a - n0 < 3 || (size_t)(a - n0) >= sizeof(name))
		return;
	memcpy(name, n0, (size_t)(a - n0));
	name[a - n0] = '\0';
	set_env(c->x, name, p, END(c), c->loc, 'N', c->si);
}

static void ex_env_ifname(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	set_env(c->x, "NCCL_SOCKET_IFNAME", p, END(c), c->loc, 'N', c->si);
}

/*
 * A setting written as an assignment: "export NCCL_IB_HCA=mlx5", mpirun's "-x NCCL_PROTO=LL128",
 * a line of /etc/nccl.conf, "NCCL_SOCKET_IFNAME==eth0" (the value keeps its own '=' or '^').
 * A sentence's "it works with NCCL_P2P_DISABLE=1" counts too (the reporter ran with it); an
 * NCCL echo of the same name replaces it.
 */
static void env_assign_at(struct lctx *c, const char *a)
{
	const char *b = BODY(c), *end = END(c), *q = a + 5;
	char name[48];

	if (a > b && (isalnum((unsigned char)a[-1]) || a[-1] == '_' || a[-1] == '$' || a[-1] == '{'))
		return;	/* TORCH_NCCL_..., $NCCL_X, ${NCCL_X} */
	while (q < end && (isupper((unsigned char)*q) || xt_digit(*q) || *q == '_'))
		q++;
	if (q >= end - 1 || *q != '=' || (size_t)(q - a) >= sizeof(name) || q == a + 5)
		return;
	memcpy(name, a, (size_t)(q - a));
	name[q - a] = '\0';
	q++;
	while (q < end && (*q == '"' || *q == '\''))
		q++;
	if (q >= end || *q == ' ' || *q == '$' || *q == '<')
		return;	/* empty, or a placeholder */
	set_env(c->x, name, q, end, c->loc, 'S', c->si);
}

/* the matcher reports an anchor once per line: a launch line sets several */
static void ex_env_assign(struct lctx *c, const char *p, const char *a)
{
	for (; a; a = xt_find(p, END(c), "NCCL_"), p = a ? a + 5 : p)
		env_assign_at(c, a);
}

/* ---- interface listings: ifconfig, ip addr, ip -o addr ----------------------------------------- */

/* ifconfig: "eth1: flags=4163<UP,...>" */
static void ex_ifconfig_flags(struct lctx *c, const char *p, const char *a)
{
	const char *q = BODY(c);

	(void)p;
	(void)a;
	while (q < END(c) && *q == ' ')
		q++;
	xt_take(q, END(c), ": ", c->x->cur_if, sizeof(c->x->cur_if));
}

/* ip addr: "2: eth1: <BROADCAST,...>" */
static void ex_iplink(struct lctx *c, const char *p, const char *a)
{
	const char *q = BODY(c), *end = END(c);

	(void)p;
	(void)a;
	while (q < end && *q == ' ')
		q++;
	if (q >= end || !xt_digit(*q))
		return;
	while (q < end && xt_digit(*q))
		q++;
	if (q + 2 < end && q[0] == ':' && q[1] == ' ')
		xt_take(q + 2, end, ":@ ", c->x->cur_if, sizeof(c->x->cur_if));
}

static int mask_prefix(const char *p, const char *end)
{
	const char *nm = xt_find(p, end, "netmask ");
	char mask[32];
	unsigned a1, a2, a3, a4;
	uint32_t m;
	int prefix = 0;

	if (!nm)
		return -1;
	xt_take(nm + 8, end, " \t", mask, sizeof(mask));
	if (sscanf(mask, "%u.%u.%u.%u", &a1, &a2, &a3, &a4) != 4)
		return -1;
	m = (a1 << 24) | (a2 << 16) | (a3 << 8) | a4;
	while (m & 0x80000000u) {
		prefix++;
		m <<= 1;
	}
	return prefix;
}

/* "    inet 10.0.0.1 netmask 255.255.255.0", "2: eth1    inet 10.0.0.2/24 ... scope global eth1" */
static void ex_inet(struct lctx *c, const char *p, const char *a)
{
	const char *q = BODY(c), *end = END(c), *sc;
	char addr[64], ifname[32];
	int prefix = -1;
	char *slash;

	(void)a;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	/* "ip -o addr": the "2: " may already be gone, taken for an srun label */
	if (q < end && xt_digit(*q) && p - q < 40) {
		while (q < end && xt_digit(*q))
			q++;
		if (q + 2 < end && q[0] == ':' && q[1] == ' ')
			q += 2;
		while (q < end && *q == ' ')
			q++;
	}
	if (q != p - 5) {
		char name[32];
		const char *t = q + xt_take(q, end, " \t", name, sizeof(name));
		while (t < end && (*t == ' ' || *t == '\t'))
			t++;
		if (t != p - 5 || !name[0])
			return;	/* "inet" inside a sentence */
		name[strcspn(name, ":@")] = '\0';
		memcpy(c->x->cur_if, name, sizeof(name));
	}
	xt_take(p, end, " \t", addr, sizeof(addr));
	if ((slash = strchr(addr, '/'))) {
		prefix = atoi(slash + 1);
		*slash = '\0';
	} else {
		prefix = mask_prefix(p, end);
	}
	snprintf(ifname, sizeof(ifname), "%s", c->x->cur_if);
	if ((sc = xt_find(p, end, "scope global ")))
		xt_take(sc + 13, end, " \t\\", ifname, sizeof(ifname));
	if (ifname[0] && addr[0] && (xt_digit(addr[0]) || strchr(addr, ':')))
		add_iface(c->x, ifname, addr, prefix, c->loc.line);
}

size_t extract_inet_at(const char *b, size_t len)
{
	size_t i = 0, t;

	while (i < len && i < 48 && (b[i] == ' ' || b[i] == '\t'))
		i++;
	if (i + 5 <= len && !memcmp(b + i, "inet ", 5))
		return i + 5;
	if (i || len > 400)
		return 0;
	while (i < len && i < 8 && xt_digit(b[i]))
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

/*
 * `ip -br addr` and hand-written tables: "eno1   UP   192.168.3.10/20 fe80::1/64", also with a
 * redacted host part ("192.168.3.x/20"). Only lines that start with a name and then, after an
 * optional state word, an IPv4 address with its prefix.
 */
/* The bytes of an interface name: letters, digits, '.', '_', '@', '-'. */
static const unsigned char ifname_ch[256] = {
	['-'] = 1, ['.'] = 1, ['@'] = 1, ['_'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
};


void extract_brief(struct lctx *c)
{
	const char *b = BODY(c), *end = END(c), *q = b, *n0, *n1, *a0;
	char ifname[32], addr[64];
	int dots = 0;
	long plen;

	while (q < end && q - b < 8 && *q == ' ')
		q++;
	n0 = q;
	if (q >= end || (unsigned)((*q | 32) - 'a') > 25)
		return;
	/* called on most lines that are not NCCL's: one table load per byte */
	while (q < end && q - n0 < 31 && ifname_ch[(unsigned char)*q])
		q++;
	n1 = q;
	if (q >= end || *q != ' ' || n1 - n0 < 2)
		return;
	while (q < end && *q == ' ')
		q++;
	if (q < end && isupper((unsigned char)*q)) {	/* UP, DOWN, UNKNOWN */
		while (q < end && isupper((unsigned char)*q))
			q++;
		while (q < end && *q == ' ')
			q++;
	}
	a0 = q;
	if (q >= end || !xt_digit(*q))
		return;
	while (q < end && q - a0 < 20 && (xt_digit(*q) || *q == '.' || *q == 'x' || *q == '*'))
		dots += *q++ == '.';
	if (dots != 3 || q >= end - 1 || *q != '/' || !xt_digit(q[1]))
		return;
	snprintf(ifname, sizeof(ifname), "%.*s", (int)(n1 - n0), n0);
	if (!strcmp(ifname, "inet"))
		return;
	snprintf(addr, sizeof(addr), "%.*s", (int)(q - a0), a0);
	/* the line is not NUL-terminated: the prefix length is read within it */
	plen = number_at(q + 1, end);
	add_iface(c->x, ifname, addr, plen >= 0 && plen <= 32 ? (int)plen : -1, c->loc.line);
}

int extract_sock_cont(struct lctx *c)
{
	const char *p = BODY(c), *end = END(c), *rb;
	struct stream_obs *s = &c->x->st[c->x->sock_wrap - 1];
	struct sock_if *si;

	if (p + 3 >= end || *p != '[' || !xt_digit(p[1]) || !(rb = memchr(p, ']', (size_t)(end - p))))
		return 0;
	if (s->nsock >= (int)ARRAY_SIZE(s->sock))
		return 1;
	si = &s->sock[s->nsock];
	p = rb + 1;
	p += xt_take(p, end, ": ", si->ifname, sizeof(si->ifname));
	if (p >= end || *p != ':')
		return 0;
	xt_take(p + 1, end, "< ", si->addr, sizeof(si->addr));
	add_iface(c->x, si->ifname, si->addr, -1, 0);
	s->nsock++;
	return 1;
}

/* The number after `p` (spaces skipped), or -1. */
static long number_at(const char *p, const char *end)
{
	long v = 0;

	while (p < end && *p == ' ')
		p++;
	if (p >= end || !xt_digit(*p))
		return -1;
	while (p < end && xt_digit(*p) && v < 1000000)
		v = v * 10 + (*p++ - '0');
	return v;
}

/*
 * nccl-tests' device table, in the forms its releases printed:
 *   "#  Rank  0 Group  0 Pid 1234 on node-a device  0 [0x1a] NVIDIA GeForce RTX 4090" (2019 on)
 *   "#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB"              (2017-2018)
 *   "#   Rank  0 uses device  0 [0x02] Tesla P100-PCIE-16GB"  (NCCL 1's single-process tests:
 *   one process, so one node, which the line does not name)
 */
static void ex_nt_device(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *end = END(c), *q = a + 5, *on, *name;
	char host[64];
	long rank;

	(void)p;
	while (q < end && *q == ' ')
		q++;
	if (q >= end || !xt_digit(*q))
		return;
	rank = number_at(q, end);
	while (q < end && xt_digit(*q))
		q++;
	/* only the table's own words follow the rank: torch's "[Rank 0] ..." lines are not rows */
	{
		const char *w = q;
		while (w < end && *w == ' ')
			w++;
		if (xt_find(w, end, "Group ") != w && xt_find(w, end, "Pid ") != w &&
		    xt_find(w, end, "on ") != w && xt_find(w, end, "uses device ") != w)
			return;
	}
	if (xt_find(q, end, " uses device ") == q) {
		snprintf(host, sizeof(host), "%s", "this node");
		on = q;
	} else {
		if (!(on = xt_find(q, end, " on ")) || !xt_find(on, end, " device "))
			return;
		on += 4;
		while (on < end && *on == ' ')
			on++;
		xt_take(on, end, " ", host, sizeof(host));
		if (!host[0])
			return;
	}
	if (rank >= o->nt_rank_end)
		o->nt_rank_end = (int)rank + 1;
	if (!o->nt_rows++) {
		snprintf(o->nt_host, sizeof(o->nt_host), "%s", host);
		o->nt_loc = c->loc;
		o->nt_hosts = 1;
	} else if (strcmp(host, o->nt_host)) {
		o->nt_hosts = 2;
	}
	if ((name = xt_find(on, end, "] "))) {
		if (!o->nt_gpu[0])
			xt_take(name + 2, end, "", o->nt_gpu, sizeof(o->nt_gpu));
		/* consumer boards: P2P reported by the driver is not always usable (NVIDIA/nccl-tests#117) */
		if (xt_find(name, end, "GeForce") || xt_find(name, end, "TITAN"))
			o->nt_consumer = 1;
	}
}

static void ex_nt_header(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	(void)a;
	if (!c->x->obs.nt_header_loc.line)
		c->x->obs.nt_header_loc = c->loc;
}

/* nccl-tests' footer "Out of bounds values : 2 FAILED" (0 OK): elements that were wrong */
static void ex_nt_oob(struct lctx *c, const char *p, const char *a)
{
	long n = xt_num_after(p, END(c), ":");

	(void)a;
	if (n > 0 && xt_find(p, END(c), "FAILED") && !c->x->obs.nt_oob_loc.line) {
		c->x->obs.nt_oob = n;
		c->x->obs.nt_oob_loc = c->loc;
	}
}

static void ex_nt_done(struct lctx *c, const char *p, const char *a)
{
	const char *q = p, *end = END(c);

	(void)a;
	c->x->obs.nt_done_loc = c->loc;
	c->x->obs.nt_done_count++;
	while (q < end && (*q == ' ' || *q == ':' || *q == '\t'))
		q++;
	if (!c->x->obs.nt_busbw && q < end && xt_digit(*q)) {
		char buf[24];
		snprintf(buf, sizeof(buf), "%.*s", (int)(end - q < 23 ? end - q : 23), q);
		c->x->obs.nt_busbw = strtod(buf, NULL);
	}
}

static void nt_gpus(struct lctx *c, long n)
{
	struct run_obs *o = &c->x->obs;

	if (n > o->nt_gpus) {
		o->nt_gpus = (int)n;
		o->nt_gpus_loc = c->loc;
	}
}

/* nccl-tests' header "# nThread 1 nGpus 2 minBytes 8 ..." */
static void ex_nt_ngpus(struct lctx *c, const char *p, const char *a)
{
	(void)a;
	if (xt_find(BODY(c), END(c), "nThread"))
		nt_gpus(c, number_at(p, END(c)));
}

/*
 * How many hosts mpirun's host list names (Open MPI's -H/-host/--host, MPICH's -hosts: "a,b",
 * "node1:8,node2:8", a host's slots after ':'): 0 without one, 2 for two or more.
 */
static int launch_hosts(const char *p, const char *end)
{
	static const char *const flags[] = { " -H ", " -host ", " --host ", " -hosts ", " --hosts ",
					     " --host=", " --hosts=" };
	char list[256];
	const char *v = NULL, *first = NULL;
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(flags) && !v; i++) {
		const char *f = xt_find(p - 1, end, flags[i]);
		if (f)
			v = f + strlen(flags[i]);
	}
	if (!v)
		return 0;
	while (v < end && *v == ' ')
		v++;
	xt_take(v, end, " \t\"'", list, sizeof(list));
	for (char *h = list, *next; h && *h && n < 2; h = next) {
		size_t len;

		next = strchr(h, ',');
		if (next)
			*next++ = '\0';
		len = strcspn(h, ":");
		if (!len)
			continue;
		h[len] = '\0';
		if (!n++)
			first = h;
		else if (!strcmp(h, first))
			n--;	/* the same host again: "a:4,a:4" */
	}
	return n;
}

/* A launch command: "mpirun -np 40 ./build/all_gather_perf -b 8 -g 4" */
static void ex_mpirun(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *end = END(c), *q, *perf = xt_find(p, end, "_perf");
	long n = -1;

	(void)a;
	for (q = p - 1; q + 4 < end && n < 0; q++)	/* p - 1: the space after "mpirun"; "-np " read whole */
		if (q[0] == ' ' && q[1] == '-' && (!memcmp(q + 1, "-np ", 4) || !memcmp(q + 1, "-n ", 3)))
			n = number_at(q + (q[2] == 'n' && q[3] == 'p' ? 4 : 3), end);
	if (n > 0 && !o->launch_np) {
		o->launch_np = (int)n;
		o->launch_loc = c->loc;
	}
	if (!o->launch_hosts_loc.line && launch_hosts(p, end) > 1)
		o->launch_hosts_loc = c->loc;
	if (perf && (q = xt_find(perf, end, " -g ")))
		nt_gpus(c, number_at(q + 4, end));
}

/* The value of a command-line flag "--name=v" or "--name v" in [p, end), or "" (both spellings
 * of a torchrun flag: "-" and "_"). */
static void flag_value(const char *p, const char *end, const char *name, char *out, size_t cap)
{
	char alt[40];
	const char *q = NULL;
	size_t n = strlen(name);

	snprintf(alt, sizeof(alt), "%s", name);
	for (char *u = alt + 2; *u; u++)
		*u = *u == '-' ? '_' : *u;
	out[0] = '\0';
	for (const char *w = p; w < end && !q; w++) {
		if ((size_t)(end - w) <= n + 1 || w[0] != '-' || w[1] != '-' || (w > p && w[-1] != ' '))
			continue;
		if ((!memcmp(w, name, n) || !memcmp(w, alt, n)) && (w[n] == '=' || w[n] == ' '))
			q = w + n + 1;
	}
	if (q)
		xt_take(q, end, " \t\"'", out, cap);
}

/* "torchrun --nnodes=2 --node-rank=0 --rdzv-backend=c10d --rdzv-endpoint=host:29400 ..." */
static void ex_torchrun(struct lctx *c, const char *p, const char *a)
{
	struct torchrun_obs *t = &c->x->obs.tr;
	const char *end = END(c);

	(void)a;
	if (t->lines++)
		return;
	t->loc = c->loc;
	flag_value(p, end, "--node-rank", t->node_rank, sizeof(t->node_rank));
	flag_value(p, end, "--nnodes", t->nnodes, sizeof(t->nnodes));
	flag_value(p, end, "--rdzv-backend", t->backend, sizeof(t->backend));
	flag_value(p, end, "--rdzv-endpoint", t->endpoint, sizeof(t->endpoint));
}

/*
 * torch's effective settings, printed by every process group at INFO (torch's C++ log):
 * "ProcessGroupNCCL environments: NCCL version: 2.25.1, TORCH_NCCL_ASYNC_ERROR_HANDLING: 3, ...",
 * "HeartbeatMonitor environments: TORCH_NCCL_ENABLE_MONITORING (Whether to kill ...): 1, ...",
 * "PGNCCL Watchdog environments: TORCH_NCCL_RETHROW_CUDA_ERRORS: 1, ...". What the process
 * really ran with: recorded as the 'T' echo of each setting the reasoning reads, and the NCCL
 * version as the stream's.
 */
static void ex_torch_env(struct lctx *c, const char *p, const char *a)
{
	static const char *const keep[] = {
		"TORCH_NCCL_ASYNC_ERROR_HANDLING", "TORCH_NCCL_BLOCKING_WAIT",
		"TORCH_NCCL_DUMP_ON_TIMEOUT", "TORCH_NCCL_TRACE_BUFFER_SIZE", "TORCH_DISTRIBUTED_DEBUG",
		"TORCH_NCCL_ENABLE_MONITORING", "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC",
		"TORCH_NCCL_DESYNC_DEBUG", "TORCH_NCCL_PROPAGATE_ERROR", "TORCH_NCCL_RETHROW_CUDA_ERRORS",
	};
	const char *end = END(c);

	(void)a;
	while (p < end) {
		const char *comma = xt_find(p, end, ", "), *ie = comma ? comma : end, *k = p, *ke, *v;
		char name[48];

		while (k < ie && *k == ' ')
			k++;
		for (ke = k; ke < ie && (isupper((unsigned char)*ke) || xt_digit(*ke) || *ke == '_' ||
					 *ke == ' '); ke++)
			;
		while (ke > k && ke[-1] == ' ')
			ke--;
		/* the value follows the item's last ": " (a key may carry "(explanation): ") */
		v = NULL;
		for (const char *q = k; (q = xt_find(q, ie, ": ")); q += 2)
			v = q + 2;
		if (v && (size_t)(ie - k) > 14 && !memcmp(k, "NCCL version: ", 14)) {
			if (!c->s->nccl_version[0] && xt_digit(*v)) {
				xt_take(v, ie, " \t", c->s->nccl_version, sizeof(c->s->nccl_version));
				c->s->ver_loc = c->loc;
			}
		} else if (v && ke > k && (size_t)(ke - k) < sizeof(name)) {
			memcpy(name, k, (size_t)(ke - k));
			name[ke - k] = '\0';
			for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
				if (!strcmp(name, keep[i]))
					set_env(c->x, name, v, ie, c->loc, 'T', c->si);
		}
		p = comma ? comma + 2 : end;
	}
}

/* "<host>:<pid> NCCL DIAG [INFO] ECC: ..." (NCCL 2.31+ diagnostics: rank 0's stdout or ncclras -D) */
static void ex_diag(struct lctx *c, const char *p, const char *a)
{
	struct ras_diag_line l;

	(void)p;
	(void)a;
	if (!ras_diag_parse_line(BODY(c), c->li->blen, &l))
		return;
	snprintf(l.where, sizeof(l.where), "%s:%llu", c->x->in[c->loc.file].name,
		 (unsigned long long)c->loc.line);
	ras_diag_add(&c->x->diag, &l);
}

static void ex_ras(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	(void)a;
	if (!c->x->obs.ras_loc.line)
		c->x->obs.ras_loc = c->loc;
}

/* `nvidia-smi topo -m` header: "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity ...": GPU columns */
static void ex_topo_header(struct lctx *c, const char *p, const char *a)
{
	const char *b = BODY(c);
	int n = 0;

	(void)p;
	for (const char *q = b; q + 3 < a; q++)
		if (!memcmp(q, "GPU", 3) && xt_digit(q[3]) && (q == b || q[-1] == ' ' || q[-1] == '\t'))
			n++;
	if (n)
		c->x->obs.topo_gpu_cols = n;
}

/* One cell of the matrix: 'X' the diagonal, 'N' NVLink, 'S' a PCIe switch, 'H' the host side. */
static char topo_cell(const char *w, size_t n)
{
	static const struct {
		const char *name;
		char kind;
	} cells[] = {
		{ "X", 'X' }, { "PIX", 'S' }, { "PXB", 'S' }, { "PHB", 'H' }, { "NODE", 'H' },
		{ "SYS", 'H' }, { "SOC", 'H' },
	};

	if (n >= 3 && w[0] == 'N' && w[1] == 'V' && xt_digit(w[2]))
		return 'N';
	for (size_t i = 0; i < ARRAY_SIZE(cells); i++)
		if (strlen(cells[i].name) == n && !memcmp(w, cells[i].name, n))
			return cells[i].kind;
	return 0;
}

/* A GPU row of the matrix: "GPU1     PXB      X      PIX     0-23   0   N/A" (the anchor is its X) */
static void ex_topo_row(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *q = BODY(c), *end = END(c);
	int col = 0, nv = 0, sw = 0, host = 0, diag = 0;

	(void)p;
	(void)a;
	if (o->topo_last.line == c->loc.line && o->topo_last.file == c->loc.file)
		return;
	o->topo_last = c->loc;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (end - q < 5 || memcmp(q, "GPU", 3) || !xt_digit(q[3]))
		return;
	q += 3;
	while (q < end && xt_digit(*q))
		q++;
	for (;;) {
		const char *w;
		char k;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		w = q;
		while (q < end && *q != ' ' && *q != '\t')
			q++;
		if (q == w || !(k = topo_cell(w, (size_t)(q - w))))
			break;
		if (o->topo_gpu_cols && col >= o->topo_gpu_cols)
			break;		/* the NIC columns */
		col++;
		diag += k == 'X';
		nv += k == 'N';
		sw += k == 'S';
		host += k == 'H';
	}
	if (diag != 1 || col < 2)
		return;
	if (!o->topo_rows++) {
		o->topo_loc = c->loc;
		xt_take(BODY(c), end, "", o->topo_row, sizeof(o->topo_row));
		for (char *t = o->topo_row; *t; t++)
			if (*t == '\t')
				*t = ' ';
	}
	o->topo_nv += nv;
	o->topo_switch += sw;
	o->topo_host += host;
}

/* "NVIDIA GeForce RTX 4090" in nvidia-smi, torch or nccl-tests output */
static void ex_consumer_gpu(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;

	(void)p;
	if (o->consumer_gpu[0])
		return;
	xt_take(a, END(c), "|,)'\"", o->consumer_gpu, sizeof(o->consumer_gpu));
	for (size_t n = strlen(o->consumer_gpu); n && o->consumer_gpu[n - 1] == ' ';)
		o->consumer_gpu[--n] = '\0';
	o->consumer_loc = c->loc;
}

/*
 * The NVIDIA driver: a branch of three digits (>= 300: a CUDA version such as deviceQuery's
 * "CUDA Driver Version / Runtime Version 12.2" is not one), with its minor and patch when
 * given. `a` is the anchor, `n` its length: only blanks, ':' and '=' may stand between.
 */
static void nv_driver_at(struct lctx *c, const char *a, size_t n)
{
	struct run_obs *o = &c->x->obs;
	const char *q = a + n, *end = END(c), *v;
	long branch;

	if (o->nv_driver)
		return;
	while (q < end && (*q == ' ' || *q == '\t' || *q == ':' || *q == '='))
		q++;
	if (q + 3 > end || !xt_digit(q[0]) || !xt_digit(q[1]) || !xt_digit(q[2]) ||
	    (q + 3 < end && xt_digit(q[3])))
		return;
	branch = number_at(q, end);
	if (branch < 300)
		return;
	for (v = q; v < end && (xt_digit(*v) || *v == '.') && v - q < 15; v++)
		;
	while (v > q && v[-1] == '.')
		v--;
	o->nv_driver = (int)branch;
	snprintf(o->nv_driver_ver, sizeof(o->nv_driver_ver), "%.*s", (int)(v - q), q);
	o->nv_driver_loc = c->loc;
}

/* One extractor for every anchor of the driver: the words before the number, longest first. */
static void ex_nv_driver(struct lctx *c, const char *p, const char *a)
{
	static const char *const lead[] = { "Driver Version", "driver version", "Kernel Module", "driver",
					    "Driver" };

	(void)p;
	for (size_t i = 0; i < ARRAY_SIZE(lead); i++) {
		size_t n = strlen(lead[i]);
		if ((size_t)(END(c) - a) >= n && !memcmp(a, lead[i], n)) {
			nv_driver_at(c, a, n);
			return;
		}
	}
}

/*
 * An NCCL version outside NCCL's own lines: "NCCL 2.25.1-1", "NCCL v2.18", vLLM's "using
 * nccl==2.21.5". `n` is the anchor's length up to the digits; two different versions make it
 * undecided (-1), as the reporter may be comparing releases.
 */
static void prose_nccl_at(struct lctx *c, const char *a, size_t n)
{
	struct run_obs *o = &c->x->obs;
	const char *q = a + n, *end = END(c), *v;
	unsigned maj, min, pat = 0;
	char buf[24];
	int num;

	if (c->li->nccl || o->prose_nccl < 0 || q >= end || !xt_digit(*q))
		return;
	for (v = q; v < end && (xt_digit(*v) || *v == '.') && v - q < 12; v++)
		;
	while (v > q && v[-1] == '.')
		v--;
	snprintf(buf, sizeof(buf), "%.*s", (int)(v - q), q);
	if (sscanf(buf, "%u.%u.%u", &maj, &min, &pat) < 2 || maj != 2 || min > 99 || pat > 99)
		return;
	num = (int)(maj * 10000 + min * 100 + pat);
	if (o->prose_nccl_loc.line) {
		if (o->prose_nccl != num)
			o->prose_nccl = -1;
		return;
	}
	o->prose_nccl = num;
	snprintf(o->prose_nccl_text, sizeof(o->prose_nccl_text), "%s", buf);
	o->prose_nccl_loc = c->loc;
}

static void ex_prose_nccl(struct lctx *c, const char *p, const char *a)
{
	(void)p;
	prose_nccl_at(c, a, a[4] == ' ' && a[5] == 'v' ? 6 : a[4] == '=' ? 6 : 5);
}

/*
 * A torch release outside NCCL's lines: collect_env's "PyTorch version: 2.3.0+cu121", pip's
 * "torch==2.3.0" and "torch    2.3.0", the reporter's "PyTorch 2.3". `p` is past the anchor.
 */
static void ex_torch_version(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *end = END(c), *v = p, *q;
	char ver[16], cuda[8] = "";
	unsigned maj, min;

	(void)a;
	if (c->li->nccl || o->torch_ambiguous)
		return;
	while (v < end && (*v == ' ' || *v == ':' || *v == '=' || *v == 'v' || *v == '\t') && v - p < 40)
		v++;
	for (q = v; q < end && (xt_digit(*q) || *q == '.') && q - v < 12; q++)
		;
	while (q > v && q[-1] == '.')
		q--;
	snprintf(ver, sizeof(ver), "%.*s", (int)(q - v), v);
	if (sscanf(ver, "%u.%u", &maj, &min) != 2 || maj < 1 || maj > 3 || min > 99 || !strchr(ver, '.'))
		return;
	if (end - q > 5 && !strncmp(q, "+cu", 3) && xt_digit(q[3]) && xt_digit(q[4]) && xt_digit(q[5]))
		snprintf(cuda, sizeof(cuda), "%c%c.%c", q[3], q[4], q[5]);	/* +cu121: CUDA 12.1 */
	if (o->torch_loc.line) {
		size_t n = strlen(o->torch_ver) < strlen(ver) ? strlen(o->torch_ver) : strlen(ver);
		if (strncmp(o->torch_ver, ver, n)) {	/* "2.3" and "2.3.0" agree */
			o->torch_ambiguous = 1;
			o->torch_ver[0] = 0;
		}
		return;
	}
	snprintf(o->torch_ver, sizeof(o->torch_ver), "%s", ver);
	snprintf(o->torch_cuda, sizeof(o->torch_cuda), "%s", cuda);
	o->torch_loc = c->loc;
}

/* "docker run ... --shm-size=16g" or "--ipc=host": whether the container's /dev/shm was sized */
static void ex_docker_run(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;

	(void)p;
	if (o->docker_loc.line)
		return;
	o->docker_loc = c->loc;
	o->docker_shm = xt_find(a, END(c), "--shm-size") || xt_find(a, END(c), "--ipc=host") ||
			xt_find(a, END(c), "--ipc host");
	if (!o->container_loc.line)
		o->container_loc = c->loc;
}

/* The reporter's words: kept once, only from lines that are not NCCL's own. */
static void ex_prose_loc(struct lctx *c, struct loc *l)
{
	if (!l->line && !c->li->nccl)
		*l = c->loc;
}

/*
 * Data-center GPU models and their compute capability, for "no kernels for this GPU" (CUDA's
 * sm_XY). Whole model names only: a name inside a longer word or number is not one (A30 is not
 * an RTX A3000); consumer series are left out (RTX 4000 is a Turing Quadro, RTX 4090 Ada).
 */
static const struct {
	const char *name;
	int sm;
} gpu_models[] = {
	{ "K20", 35 }, { "K40", 35 }, { "K80", 37 }, { "M40", 52 }, { "M60", 52 },
	{ "P100", 60 }, { "P40", 61 }, { "V100", 70 }, { "T4", 75 }, { "A100", 80 },
	{ "A800", 80 }, { "A30", 80 }, { "A10G", 86 }, { "A40", 86 }, { "A6000", 86 },
	{ "L40", 89 }, { "H100", 90 }, { "H800", 90 }, { "H200", 90 },
	{ "B200", 100 },
};

static void ex_gpu_model(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *body = BODY(c), *end = END(c);

	if (o->gpu_sm || (a > body && isalnum((unsigned char)a[-1])))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(gpu_models); i++) {
		size_t n = strlen(gpu_models[i].name);

		if ((size_t)(end - a) < n || memcmp(a, gpu_models[i].name, n))
			continue;
		/* K40m, K40c, A100-SXM4, H100 80GB: a suffix letter or a separator, never a digit */
		if (a + n < end && (isdigit((unsigned char)a[n]) ||
				    (isalpha((unsigned char)a[n]) && a + n + 1 < end &&
				     isalpha((unsigned char)a[n + 1]))))
			continue;
		snprintf(o->gpu_model, sizeof(o->gpu_model), "%s", gpu_models[i].name);
		o->gpu_sm = gpu_models[i].sm;
		return;
	}
	(void)p;
}

static void ex_hca_fail(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;

	(void)a;
	if (!o->hca_fail_loc.line && xt_take(p, END(c), " \t,.:", o->hca_fail, sizeof(o->hca_fail)))
		o->hca_fail_loc = c->loc;
}

/*
 * "NCCL_P2P_DISABLE=1" named: the reporter's workaround, unless the same sentence says it changed
 * nothing ("add or not, the result is not changed", "still hangs with ..."): then P2P was off in a
 * run that failed the same way, which clears P2P instead of accusing it.
 */
static void ex_p2p_off(struct lctx *c, const char *p, const char *a)
{
	static const char *const nohelp[] = {
		"no difference", "not changed", "no change", "no effect", "doesn't help",
		"does not help", "didn't help", "did not help", "still hang", "still stuck",
		"makes no", "same result", "or not",
	};
	const char *b = BODY(c), *end = END(c);

	(void)a;
	if (p >= end || *p != '1')
		return;
	for (size_t i = 0; i < ARRAY_SIZE(nohelp); i++)
		if (xt_find(b, end, nohelp[i])) {
			ex_prose_loc(c, &c->x->obs.p2p_nohelp_loc);
			return;
		}
	ex_prose_loc(c, &c->x->obs.p2p_off_loc);
}

/*
 * The reporter's "returns NaN", "wrong results": data a collective delivered wrong. A NaN loss
 * or gradient is the model diverging, not a transport that corrupts data, so those lines are left.
 */
static void ex_wrong_words(struct lctx *c, const char *p, const char *a)
{
	static const char *const model[] = { "loss", "Loss", "grad", "Grad", "lr ", "learning rate" };
	const char *b = BODY(c), *end = END(c);

	(void)p;
	(void)a;
	for (size_t i = 0; i < ARRAY_SIZE(model); i++)
		if (xt_find(b, end, model[i]))
			return;
	ex_prose_loc(c, &c->x->obs.wrong_loc);
}

/*
 * "nvcr.io/nvidia/pytorch:23.11-py3": the image as written (from the start of its word) and the
 * NCCL its release ships. The first image of a known release is kept; one of another NCCL named
 * later makes the two undecided (ngc_differs).
 */
static void ex_ngc_pytorch(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *body = BODY(c), *end = END(c), *s = a;
	int yy, mm, nccl;

	if (end - p < 5 || !xt_digit(p[0]) || !xt_digit(p[1]) || p[2] != '.' || !xt_digit(p[3]) ||
	    !xt_digit(p[4]) || (p + 5 < end && xt_digit(p[5])))
		return;
	yy = (p[0] - '0') * 10 + (p[1] - '0');
	mm = (p[3] - '0') * 10 + (p[4] - '0');
	if (mm < 1 || mm > 12)
		return;
	nccl = ngc_pytorch_nccl(yy, mm);
	if (o->ngc_loc.line && (o->ngc_nccl || !nccl)) {
		if (nccl && nccl != o->ngc_nccl)
			o->ngc_differs = 1;
		return;
	}
	while (s > body && !strchr(" \t'\"=(`[", s[-1]))
		s--;
	xt_take(s, end, " \t'\",)]`;", o->ngc_image, sizeof(o->ngc_image));
	o->ngc_nccl = nccl;
	o->ngc_loc = c->loc;
}

/* "nvidia-nccl-cu12==2.20.5" (pip freeze) or "nvidia-nccl-cu12    2.20.5" (pip list) */
static void ex_pip_pin(struct lctx *c, const char *p, const char *a)
{
	struct run_obs *o = &c->x->obs;
	const char *end = END(c), *v = p;
	char pkg[24], ver[24];

	while (v < end && xt_digit(*v))
		v++;
	xt_take(a, v, "", pkg, sizeof(pkg));
	while (v < end && (*v == '=' || *v == ' '))
		v++;
	if (v >= end || !xt_digit(*v) || v == p)
		return;
	xt_take(v, end, " \t,;)", ver, sizeof(ver));
	for (int i = 0; i < o->npins; i++) {
		struct pin_obs *q = &o->pins[i];
		if (strcmp(q->pkg, pkg))
			continue;
		if (!q->ver[1][0] && strcmp(q->ver[0], ver)) {
			snprintf(q->ver[1], sizeof(q->ver[1]), "%s", ver);
			q->loc[1] = c->loc;
		}
		return;
	}
	if (o->npins < (int)ARRAY_SIZE(o->pins)) {
		struct pin_obs *q = &o->pins[o->npins++];
		snprintf(q->pkg, sizeof(q->pkg), "%s", pkg);
		snprintf(q->ver[0], sizeof(q->ver[0]), "%s", ver);
		q->loc[0] = c->loc;
	}
}

/* ---- the table -------------------------------------------------------------------------------- */

/* An observation that is only where a line was seen: obs.FIELD, a struct loc */
#define OBS_LOC(field) (offsetof(struct run_obs, field) + 1)

static const struct extractor {
	const char *anchor;	/* NULL: found by extract_inet_at(), "in" is too common for the prefilter */
	extract_fn fn;
	size_t first;		/* OBS_LOC(field), no fn: the first line with the anchor goes there */
	int prose;		/* ... only a line that is not NCCL's own (the reporter's words) */
} extractors[] = {
	{ .anchor = "NCCL version ", .fn = ex_version },
	{ .anchor = "Bootstrap : Using", .fn = ex_bootstrap },
	{ .anchor = "Bootstrap: Using", .fn = ex_bootstrap },
	{ .anchor = "NET/Socket : Using", .fn = ex_net_socket },
	{ .anchor = "NET/IB : Using", .fn = ex_net_ib },
	{ .anchor = "Using network ", .fn = ex_network },
	{ .anchor = "cudaDriverVersion ", .fn = ex_cuda_driver },
	{ .anchor = "Loaded net plugin ", .fn = ex_plugin_loaded },
	{ .anchor = "Plugin Path : ", .fn = ex_plugin_path },
	{ .anchor = "Using internal network plugin", .fn = ex_plugin_internal },
	{ .anchor = "using internal implementation", .fn = ex_plugin_internal },
	{ .anchor = "] via ", .fn = ex_via },
	{ .anchor = " via NET/IB", .fn = ex_via_bare },
	{ .anchor = " via NET/", .fn = ex_via_net },
	{ .anchor = "Init START", .fn = ex_init_start },
	{ .anchor = "Init COMPLETE", .fn = ex_init_complete },
	{ .anchor = "Init timings", .fn = ex_init_timings },
	{ .anchor = "nRanks ", .fn = ex_topology },
	{ .anchor = " nranks ", .fn = ex_nranks },
	{ .anchor = "Initializing distributed: GLOBAL_RANK:", .fn = ex_pl_init },
	{ .anchor = "initializing ddp: GLOBAL_RANK:", .fn = ex_pl_init },	/* Lightning < 1.6 */
	{ .anchor = "Rank ", .fn = ex_nt_device },
	/* the results header: "(elements)" since 2019, the column names in every release */
	{ .anchor = "(elements)", .fn = ex_nt_header },
	{ .anchor = " algbw ", .fn = ex_nt_header },
	{ .anchor = "Avg bus bandwidth", .fn = ex_nt_done },
	{ .anchor = "Out of bounds values", .fn = ex_nt_oob },
	{ .anchor = "nGpus ", .fn = ex_nt_ngpus },
	{ .anchor = "nvidia-nccl-cu", .fn = ex_pip_pin },
	{ .anchor = "mpirun ", .fn = ex_mpirun },
	{ .anchor = "torchrun ", .fn = ex_torchrun },
	{ .anchor = "torch.distributed.run ", .fn = ex_torchrun },
	{ .anchor = "RAS client listening socket", .fn = ex_ras },
	{ .anchor = "NCCL DIAG ", .fn = ex_diag },
	{ .anchor = "ProcessGroupNCCL environments: ", .fn = ex_torch_env },
	{ .anchor = "HeartbeatMonitor environments: ", .fn = ex_torch_env },
	{ .anchor = "PGNCCL Watchdog environments: ", .fn = ex_torch_env },
	{ .anchor = "CPU Affinity", .fn = ex_topo_header },
	{ .anchor = " X ", .fn = ex_topo_row },
	{ .anchor = "\tX\t", .fn = ex_topo_row },
	{ .anchor = "GeForce ", .fn = ex_consumer_gpu },
	{ .anchor = "torch==", .fn = ex_torch_version },
	{ .anchor = "torch version", .fn = ex_torch_version },
	{ .anchor = "Torch version", .fn = ex_torch_version },
	{ .anchor = "torch ", .fn = ex_torch_version },
	{ .anchor = "Torch ", .fn = ex_torch_version },	/* PyTorch 2.3 */
	{ .anchor = "NCCL 2.", .fn = ex_prose_nccl },
	{ .anchor = "NCCL v2.", .fn = ex_prose_nccl },
	{ .anchor = "nccl 2.", .fn = ex_prose_nccl },
	{ .anchor = "nccl==2.", .fn = ex_prose_nccl },
	{ .anchor = "NCCL==2.", .fn = ex_prose_nccl },
	{ .anchor = "InfiniBand", .first = OBS_LOC(rdma_named_loc), .prose = 1 },
	{ .anchor = "Infiniband", .first = OBS_LOC(rdma_named_loc), .prose = 1 },
	{ .anchor = "RoCE", .first = OBS_LOC(rdma_named_loc), .prose = 1 },
	{ .anchor = "ConnectX", .first = OBS_LOC(rdma_named_loc), .prose = 1 },
	{ .anchor = " slow", .first = OBS_LOC(slow_loc), .prose = 1 },
	{ .anchor = "Slow", .first = OBS_LOC(slow_loc), .prose = 1 },
	{ .anchor = "low bandwidth", .first = OBS_LOC(slow_loc), .prose = 1 },
	{ .anchor = "ncclCommAbort", .first = OBS_LOC(abort_loc) },
	{ .anchor = "ProcessGroupNCCL::abort", .first = OBS_LOC(abort_loc) },
	{ .anchor = "ProcessGroupNCCL.abort", .first = OBS_LOC(abort_loc) },
	{ .anchor = "Driver Version", .fn = ex_nv_driver },
	{ .anchor = "driver version", .fn = ex_nv_driver },
	{ .anchor = "driver ", .fn = ex_nv_driver },
	{ .anchor = "Driver ", .fn = ex_nv_driver },
	{ .anchor = "Kernel Module ", .fn = ex_nv_driver },
	{ .anchor = "docker run", .fn = ex_docker_run },
	{ .anchor = ".svc.cluster.local", .first = OBS_LOC(k8s_loc) },
	{ .anchor = "PyTorchJob", .first = OBS_LOC(k8s_loc) },
	{ .anchor = "kubeflow", .first = OBS_LOC(k8s_loc) },
	{ .anchor = "Kubeflow", .first = OBS_LOC(k8s_loc) },
	{ .anchor = "istio", .first = OBS_LOC(mesh_loc) },
	{ .anchor = "envoy", .first = OBS_LOC(mesh_loc) },
	{ .anchor = "linkerd", .first = OBS_LOC(mesh_loc) },
	{ .anchor = "The client socket has connected to", .first = OBS_LOC(store_conn_loc) },
	{ .anchor = "never returns", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "K20", .fn = ex_gpu_model },
	{ .anchor = "K40", .fn = ex_gpu_model },
	{ .anchor = "K80", .fn = ex_gpu_model },
	{ .anchor = "M40", .fn = ex_gpu_model },
	{ .anchor = "M60", .fn = ex_gpu_model },
	{ .anchor = "P100", .fn = ex_gpu_model },
	{ .anchor = "P40", .fn = ex_gpu_model },
	{ .anchor = "V100", .fn = ex_gpu_model },
	{ .anchor = "T4", .fn = ex_gpu_model },
	{ .anchor = "A100", .fn = ex_gpu_model },
	{ .anchor = "A800", .fn = ex_gpu_model },
	{ .anchor = "A30", .fn = ex_gpu_model },
	{ .anchor = "A10G", .fn = ex_gpu_model },
	{ .anchor = "A40", .fn = ex_gpu_model },
	{ .anchor = "A6000", .fn = ex_gpu_model },
	{ .anchor = "L40", .fn = ex_gpu_model },
	{ .anchor = "H100", .fn = ex_gpu_model },
	{ .anchor = "H800", .fn = ex_gpu_model },
	{ .anchor = "H200", .fn = ex_gpu_model },
	{ .anchor = "B200", .fn = ex_gpu_model },
	{ .anchor = "ray::", .first = OBS_LOC(ray_loc) },
	{ .anchor = "RayWorker", .first = OBS_LOC(ray_loc) },
	{ .anchor = "ray.init", .first = OBS_LOC(ray_loc) },
	{ .anchor = "by Ray", .first = OBS_LOC(ray_loc) },
	{ .anchor = "(raylet)", .first = OBS_LOC(ray_loc) },
	{ .anchor = "srun ", .first = OBS_LOC(srun_loc) },
	{ .anchor = "SLURM_LOCALID", .first = OBS_LOC(srun_loc) },
	{ .anchor = "SLURM_PROCID", .first = OBS_LOC(srun_loc) },
	{ .anchor = "deepspeed --", .first = OBS_LOC(deepspeed_loc) },
	{ .anchor = "deepspeed.launcher", .first = OBS_LOC(deepspeed_loc) },
	{ .anchor = "accelerate launch", .first = OBS_LOC(accelerate_loc) },
	{ .anchor = "nmap", .first = OBS_LOC(scan_loc), .prose = 1 },
	{ .anchor = "port scan", .first = OBS_LOC(scan_loc), .prose = 1 },
	{ .anchor = "security scan", .first = OBS_LOC(scan_loc), .prose = 1 },
	{ .anchor = "bootstrap.cc:", .first = OBS_LOC(boot_chain_loc) },
	{ .anchor = "CUDA_LAUNCH_BLOCKING=1", .first = OBS_LOC(launch_blocking_loc) },
	{ .anchor = "device_id=", .first = OBS_LOC(nonblocking_loc) },
	{ .anchor = "TORCH_NCCL_USE_COMM_NONBLOCKING=1", .first = OBS_LOC(nonblocking_loc) },
	{ .anchor = "NCCL timeout in: ", .first = OBS_LOC(nonblocking_loc) },
	{ .anchor = "GenuineIntel", .first = OBS_LOC(intel_cpu_loc) },
	{ .anchor = "Intel(R) Xeon", .first = OBS_LOC(intel_cpu_loc) },
	{ .anchor = "AuthenticAMD", .first = OBS_LOC(amd_cpu_loc) },
	{ .anchor = "AMD EPYC", .first = OBS_LOC(amd_cpu_loc) },
	{ .anchor = "ALLTOALL", .first = OBS_LOC(alltoall_loc) },
	{ .anchor = "all-to-all", .first = OBS_LOC(alltoall_loc) },
	{ .anchor = "alltoall", .first = OBS_LOC(alltoall_loc) },
	{ .anchor = "AllToAll", .first = OBS_LOC(alltoall_loc) },
	{ .anchor = "all_to_all", .first = OBS_LOC(alltoall_loc) },
	{ .anchor = "NVLS multicast support is available", .first = OBS_LOC(nvls_loc) },
	{ .anchor = "ulimit -s unlimited", .first = OBS_LOC(stack_unlimited_loc) },
	{ .anchor = "(kbytes, -s) unlimited", .first = OBS_LOC(stack_unlimited_loc) },
	{ .anchor = "ncclLaunchKernelBefore", .first = OBS_LOC(launch_frame_loc) },
	{ .anchor = "waitWorkFifoAvailable", .first = OBS_LOC(launch_frame_loc) },
	{ .anchor = "doLaunches", .first = OBS_LOC(launch_frame_loc) },
	{ .anchor = "cudagraph", .first = OBS_LOC(cudagraph_loc) },
	{ .anchor = "CUDA graph", .first = OBS_LOC(cudagraph_loc) },
	{ .anchor = "cuda graph", .first = OBS_LOC(cudagraph_loc) },
	{ .anchor = "CUDAGraph", .first = OBS_LOC(cudagraph_loc) },
	{ .anchor = "cuda_graph", .first = OBS_LOC(cudagraph_loc) },
	{ .anchor = "CollNet", .first = OBS_LOC(sharp_loc) },
	{ .anchor = "COLLNET_ENABLE=1", .first = OBS_LOC(sharp_loc) },
	{ .anchor = "COLLNET_ENABLE set by environment to 1", .first = OBS_LOC(sharp_loc) },
	{ .anchor = "IB SHARP", .first = OBS_LOC(sharp_loc) },
	{ .anchor = "bfloat16", .first = OBS_LOC(bf16_loc) },
	{ .anchor = "bf16", .first = OBS_LOC(bf16_loc) },
	{ .anchor = "BFloat16", .first = OBS_LOC(bf16_loc) },
	{ .anchor = "Float8e4m3", .first = OBS_LOC(fp8_loc) },
	{ .anchor = "Float8e5m2", .first = OBS_LOC(fp8_loc) },
	{ .anchor = "float8_e4m3", .first = OBS_LOC(fp8_loc) },
	{ .anchor = "float8_e5m2", .first = OBS_LOC(fp8_loc) },
	{ .anchor = "fp8", .first = OBS_LOC(fp8_loc) },
	{ .anchor = "FP8", .first = OBS_LOC(fp8_loc) },
	{ .anchor = "enqueue.cc:", .first = OBS_LOC(enqueue_loc) },
	{ .anchor = "NCCL_CROSS_NIC", .first = OBS_LOC(cross_nic_loc) },
	{ .anchor = "ncclNetPluginInit", .first = OBS_LOC(net_init_loc) },
	{ .anchor = "ncclNetInit", .first = OBS_LOC(net_init_loc) },
	{ .anchor = "NCCL_NET_GDR_LEVEL=LOC", .first = OBS_LOC(gdr_off_loc) },
	{ .anchor = "NCCL_NET_GDR_LEVEL set by environment to LOC", .first = OBS_LOC(gdr_off_loc) },
	{ .anchor = "NCCL_NET_GDR_LEVEL=0", .first = OBS_LOC(gdr_off_loc) },
	{ .anchor = "NCCL_NET_GDR_LEVEL set by environment to 0", .first = OBS_LOC(gdr_off_loc) },
	{ .anchor = "NVIDIA B40", .first = OBS_LOC(b40_loc) },
	{ .anchor = "MLOPart", .first = OBS_LOC(mlopart_loc) },
	{ .anchor = "MLoPart", .first = OBS_LOC(mlopart_loc) },
	{ .anchor = "mlopart", .first = OBS_LOC(mlopart_loc) },
	{ .anchor = "NCCL_RUNTIME_CONNECT=0", .first = OBS_LOC(no_rtc_loc) },
	{ .anchor = "NCCL_RUNTIME_CONNECT set by environment to 0", .first = OBS_LOC(no_rtc_loc) },
	{ .anchor = "NCCL_INSPECTOR_ENABLE=1", .first = OBS_LOC(inspector_loc) },
	{ .anchor = "NCCL_INSPECTOR_ENABLE set by environment to 1", .first = OBS_LOC(inspector_loc) },
	{ .anchor = "libnccl-profiler-inspector", .first = OBS_LOC(inspector_loc) },
	{ .anchor = "ncclCommWindowRegister", .first = OBS_LOC(symmetric_loc) },
	{ .anchor = "NCCL_WIN_COLL_SYMMETRIC", .first = OBS_LOC(symmetric_loc) },
	{ .anchor = "ncclCommRegister", .first = OBS_LOC(user_reg_loc) },
	{ .anchor = "TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK=1", .first = OBS_LOC(user_reg_loc) },
	{ .anchor = "register_mem_pool", .first = OBS_LOC(user_reg_loc) },
	{ .anchor = "NCCL_COMM_ID", .first = OBS_LOC(comm_id_loc) },
	{ .anchor = "two machines", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "two nodes", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "two hosts", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "2 machines", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "2 nodes", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "multi-node", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "multiple nodes", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "multiple machines", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "Docker", .first = OBS_LOC(container_loc) },
	{ .anchor = "docker ", .first = OBS_LOC(container_loc) },
	{ .anchor = "nvcr.io/", .first = OBS_LOC(container_loc) },
	{ .anchor = "nvidia/pytorch:", .fn = ex_ngc_pytorch },
	{ .anchor = "libnccl.so.2:", .first = OBS_LOC(nccl_frame_loc) },
	{ .anchor = "libnccl.so.2(", .first = OBS_LOC(nccl_frame_loc) },
	{ .anchor = "ncclGroupEnd()", .first = OBS_LOC(nccl_frame_loc) },
	{ .anchor = " hang", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "Hang", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "deadlock", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "freez", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = " stuck", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = " wedge", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "just stops", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "stops responding", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "stopped responding", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "no progress", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "never finish", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "never complete", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "does not finish", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "doesn't finish", .first = OBS_LOC(hang_loc), .prose = 1 },
	/* results the reporter calls wrong: NaN or garbage where a sum was expected */
	{ .anchor = " NaN", .fn = ex_wrong_words },
	{ .anchor = "wrong result", .fn = ex_wrong_words },
	{ .anchor = "incorrect result", .fn = ex_wrong_words },
	{ .anchor = "results are wrong", .fn = ex_wrong_words },
	{ .anchor = "结果错误", .fn = ex_wrong_words },
	{ .anchor = "结果不对", .fn = ex_wrong_words },
	/* the Chinese community's words for the same (CSDN, Zhihu, the seed articles' readers) */
	{ .anchor = "卡住", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "卡死", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "hang住", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "没有反应", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "一直等待", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "不动了", .first = OBS_LOC(hang_loc), .prose = 1 },
	{ .anchor = "多机", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "两台", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "双机", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "跨节点", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "多节点", .first = OBS_LOC(multi_host_loc), .prose = 1 },
	{ .anchor = "veth", .first = OBS_LOC(veth_loc), .prose = 1 },
	{ .anchor = "Unable to open device ", .fn = ex_hca_fail },
	{ .anchor = "aarch64", .first = OBS_LOC(arm_loc) },
	{ .anchor = "arm64", .first = OBS_LOC(arm_loc) },
	{ .anchor = "GH200", .first = OBS_LOC(arm_loc) },
	{ .anchor = "GB200", .first = OBS_LOC(arm_loc) },
	{ .anchor = "GB300", .first = OBS_LOC(arm_loc) },
	{ .anchor = "NCCL_P2P_DISABLE=", .fn = ex_p2p_off },
	{ .anchor = "CANNOT Access Peer", .first = OBS_LOC(peer_cannot_loc), .prose = 1 },
	{ .anchor = "ACSCtl", .first = OBS_LOC(acs_loc), .prose = 1 },
	{ .anchor = "TITAN ", .fn = ex_consumer_gpu },
	{ .anchor = "All distributed processes registered", .fn = ex_pl_registered },
	{ .anchor = "Watchdog caught collective operation timeout", .fn = ex_watchdog },
	{ .anchor = "Traceback (most recent call last)", .fn = ex_traceback },
	{ .anchor = "MASTER_ADDR", .fn = ex_master_env },
	{ .anchor = "master_addr", .fn = ex_master_arg },
	{ .anchor = "master-addr", .fn = ex_master_arg },
	{ .anchor = "rdzv_endpoint", .fn = ex_rdzv },
	{ .anchor = "trying to connect to (", .fn = ex_c10d_target },
	{ .anchor = "is not yet listening", .fn = ex_not_listening },
	{ .anchor = "init_method", .fn = ex_init_method },
	{ .anchor = "master_port", .fn = ex_master_port },
	{ .anchor = "master-port", .fn = ex_master_port },
	{ .anchor = "MASTER_PORT", .fn = ex_master_port },
	{ .anchor = "TORCHELASTIC_USE_AGENT_STORE", .fn = ex_agent_store },
	{ .anchor = "torch/distributed/run.py", .fn = ex_elastic },
	{ .anchor = "torch.distributed.elastic", .fn = ex_elastic },
	{ .anchor = "by environment to ", .fn = ex_env },
	{ .anchor = "NCCL_SOCKET_IFNAME set to ", .fn = ex_env_ifname },
	{ .anchor = "NCCL_", .fn = ex_env_assign },
	{ .anchor = "flags=", .fn = ex_ifconfig_flags },
	{ .anchor = "<BROADCAST", .fn = ex_iplink },
	{ .anchor = "<LOOPBACK", .fn = ex_iplink },
	{ .anchor = "<NO-CARRIER", .fn = ex_iplink },
	{ .anchor = NULL, .fn = ex_inet },
};

size_t extract_count(void)
{
	return ARRAY_SIZE(extractors);
}

const char *extract_anchor(size_t e)
{
	return e < ARRAY_SIZE(extractors) ? extractors[e].anchor : NULL;
}

size_t extract_inet(void)
{
	return ARRAY_SIZE(extractors) - 1;
}

void extract_run(struct lctx *c, size_t e, size_t at)
{
	const struct extractor *x = &extractors[e];
	const char *p = c->li->body + at;

	if (x->first) {
		struct loc *l = (struct loc *)((char *)&c->x->obs + x->first - 1);

		if (!l->line && !(x->prose && c->li->nccl))
			*l = c->loc;
		return;
	}
	x->fn(c, p, x->anchor ? p - strlen(x->anchor) : p);
}
