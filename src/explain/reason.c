/*
 * The reasoner (see reason.h): stream -> rank resolution, signature hits -> findings, the
 * address classes and the MASTER_ADDR interface suggestion, and the driver that runs the
 * cross-rank rules (reason_rules.c) and ranks what they found. Pure: no I/O.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/reason_impl.h"
#include "util/addr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- findings ------------------------------------------------------------------------------- */

struct finding *rs_add(struct rs *r, const char *id, enum severity sev, enum confidence conf,
		       int bonus)
{
	struct finding *f = finding_add(r->fs, sev, id, "%s", id);
	size_t i = r->fs->n - 1 - r->first;

	f->conf = conf;
	ALLOC_GROW(r->score, i + 1, r->ascore);
	r->score[i] = (int)sev * 1000 + (int)conf * 100 + bonus;
	return f;
}

void rs_title(struct finding *f, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(f->title);
	f->title = strbuf_detach(&sb, NULL);
}

/* One shell word of a fix line: quotes, $(…) and <placeholders> keep their spaces. */
static size_t shell_word(const char *p)
{
	size_t i = 0;
	int depth = 0, angle = 0;
	char q = 0;

	for (; p[i]; i++) {
		char c = p[i];
		if (angle) {		/* <rank 0's IP>: a placeholder, quotes in it are prose */
			angle = c != '>';
		} else if (q) {
			if (c == q)
				q = 0;
		} else if (c == '\'' || c == '"') {
			q = c;
		} else if (c == '(') {
			depth++;
		} else if (c == ')') {
			depth -= depth > 0;
		} else if (c == '<' && !depth) {
			angle = 1;
		} else if (c == ' ' && !depth && !angle) {
			break;
		}
	}
	return i;
}

static size_t name_len(const char *p, int sysctl)
{
	size_t i = 0;

	if (!isalpha((unsigned char)p[0]) && p[0] != '_')
		return 0;
	while (isalnum((unsigned char)p[i]) || p[i] == '_' || (sysctl && (p[i] == '.' || p[i] == '-')))
		i++;
	return i;
}

static void fix_settings(struct finding *f, const char *line)
{
	static const struct {
		const char *cmd;
		enum setting_where where;
		int unset;
	} cmds[] = {
		{ "export ", WHERE_ENV, 0 }, { "unset ", WHERE_ENV, 1 },
		{ "sudo sysctl -w ", WHERE_SYSCTL, 0 }, { "sysctl -w ", WHERE_SYSCTL, 0 },
	};
	const char *p = NULL;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(cmds); k++)
		if (!strncmp(line, cmds[k].cmd, strlen(cmds[k].cmd))) {
			p = line + strlen(cmds[k].cmd);
			break;
		}
	if (!p)
		return;
	for (;;) {
		char name[128];
		size_t n, w;

		while (*p == ' ')
			p++;
		n = name_len(p, cmds[k].where == WHERE_SYSCTL);
		if (!n || n >= sizeof(name))
			return;
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		if (cmds[k].unset) {
			if (*p && *p != ' ')
				return;
			if (!finding_find_setting(f, name))
				finding_setting(f, WHERE_ENV, SCOPE_ALL, name, NULL);
			continue;
		}
		if (*p != '=')
			return;
		p++;
		w = shell_word(p);
		if (!finding_find_setting(f, name)) {
			/* 'a b' -> a b: the value, not its shell quoting */
			if (w >= 2 && (p[0] == '\'' || p[0] == '"') && p[w - 1] == p[0] &&
			    !memchr(p + 1, p[0], w - 2))
				finding_setting(f, cmds[k].where, SCOPE_ALL, name, "%.*s", (int)(w - 2), p + 1);
			else
				finding_setting(f, cmds[k].where, SCOPE_ALL, name, "%.*s", (int)w, p);
		}
		p += w;
	}
}

void rs_fix(struct finding *f, const char *fmt, ...)
{
	static const char test[] = "to test it: ", rerun[] = "if the log is not enough: rerun with ";
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	finding_fix(f, "%s", sb.buf);
	fix_settings(f, sb.buf);
	if (!f->check && !strncmp(sb.buf, test, sizeof(test) - 1))
		finding_check(f, sb.buf + sizeof(test) - 1);
	if (!f->rerun && !strncmp(sb.buf, rerun, sizeof(rerun) - 1))
		finding_rerun(f, sb.buf + sizeof(rerun) - 1);
	strbuf_release(&sb);
}

void rs_at(struct rs *r, struct finding *f, struct loc l, const char *what, const char *text)
{
	char w[512];

	if (!l.line)
		return;
	obs_loc_fmt(r->x, l, w, sizeof(w));
	if (text && *text)
		finding_evidence(f, "%s: %s%s%s", w, what ? what : "", what ? ": " : "", text);
	else
		finding_evidence(f, "%s: %s", w, what ? what : "");
}

/* "rank 3", "ranks 0-2, 5", "ranks 0-7 and 12 more" from a sorted unique list. */
void rs_rank_list(const int *v, size_t n, struct strbuf *sb)
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


void rs_parts(struct rs *r, struct finding *f, const size_t *parts, size_t n)
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
		finding_rank(f, v[i]);
	if (nv) {
		strbuf_reset(&sb);
		rs_rank_list(v, nv, &sb);
	}
	if (sb.len)
		finding_node(f, sb.buf);
	strbuf_release(&sb);
	free(v);
}

/* ---- addresses ----------------------------------------------------------------------------- */

const char *aclass_name(enum aclass c)
{
	static const char *const n[] = { "unknown", "private", "public", "loopback", "link-local",
					 "docker bridge" };
	return n[c];
}

int addr_v4(const char *s, uint32_t *out)
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

/*
 * util/addr classifies the address; explain adds only what it knows from the interface name
 * (bridges, "lo") and Docker's default bridge subnet, and folds the classes into the few its
 * rules reason with. IPv6 beyond loopback and link-local stays unknown: the rules judge only
 * IPv4 reachability, and a mapped address is IPv6 text as NCCL printed it.
 */
enum aclass aclass_of(const char *ifname, const char *addr)
{
	unsigned char a[16];
	char buf[64];
	enum addr_class c;
	int family;

	if (!strncmp(ifname, "docker", 6) || !strncmp(ifname, "br-", 3) || !strncmp(ifname, "virbr", 5))
		return A_DOCKER;
	snprintf(buf, sizeof(buf), "%s", addr);
	buf[strcspn(buf, "%<")] = '\0';
	if (addr_parse(buf, &family, a) < 0)
		return strcmp(ifname, "lo") ? A_UNKNOWN : A_LOOPBACK;
	c = addr_classify(family, a);
	if (family == 6 && c == ADDR_LINK_LOCAL)
		return A_LINKLOCAL;
	if (!strcmp(ifname, "lo") || c == ADDR_LOOPBACK)
		return A_LOOPBACK;
	if (family != 4)
		return A_UNKNOWN;
	if (c == ADDR_LINK_LOCAL)
		return A_LINKLOCAL;
	if (a[0] == 172 && a[1] == 17)
		return A_DOCKER;
	return c == ADDR_PRIVATE || c == ADDR_CGNAT ? A_PRIVATE : A_PUBLIC;
}

int addr_same_net(uint32_t a, uint32_t b, int prefix)
{
	uint32_t m = prefix <= 0 ? 0 : prefix >= 32 ? 0xffffffffu : ~((1u << (32 - prefix)) - 1);
	return (a & m) == (b & m);
}

int rs_iface_prefix(const struct run_obs *x, const char *ifname, const char *addr)
{
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].addr, addr) && (!ifname || !strcmp(x->ifs[i].ifname, ifname)) &&
		    x->ifs[i].prefix >= 0)
			return x->ifs[i].prefix;
	return -1;
}

/* The interface whose address is MASTER_ADDR or in its subnet, as the log shows them. */
static int master_suggestion(struct rs *r)
{
	const struct run_obs *x = r->x;
	static const int guesses[] = { 24, 16 };
	uint32_t a;

	if (!r->master_is_v4)
		return 0;
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].addr, x->master)) {
			snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
			snprintf(r->suggest_why, sizeof(r->suggest_why), "%s has MASTER_ADDR %s itself",
				 x->ifs[i].ifname, x->master);
			return 1;
		}
	for (int i = 0; i < x->nifs; i++)
		if (x->ifs[i].prefix > 0 && addr_v4(x->ifs[i].addr, &a) &&
		    addr_same_net(a, r->master_v4, x->ifs[i].prefix)) {
			snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
			snprintf(r->suggest_why, sizeof(r->suggest_why), "%s (%s/%d) is in MASTER_ADDR %s's subnet",
				 x->ifs[i].ifname, x->ifs[i].addr, x->ifs[i].prefix, x->master);
			return 1;
		}
	for (size_t g = 0; g < ARRAY_SIZE(guesses); g++)
		for (int i = 0; i < x->nifs; i++)
			if (x->ifs[i].prefix < 0 && addr_v4(x->ifs[i].addr, &a) &&
			    aclass_of(x->ifs[i].ifname, x->ifs[i].addr) == aclass_of("", x->master) &&
			    addr_same_net(a, r->master_v4, guesses[g])) {
				snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
				snprintf(r->suggest_why, sizeof(r->suggest_why),
					 "%s (%s) shares MASTER_ADDR %s's /%d", x->ifs[i].ifname,
					 x->ifs[i].addr, x->master, guesses[g]);
				return 1;
			}
	return 0;
}

/*
 * Without MASTER_ADDR's network in the log, NCCL's own NET/Socket line ("Using [0]eth0:203.0.113.10
 * [1]eth1:10.10.0.1") lists the interfaces each rank could use: when exactly one interface name
 * among them has a private address and others are public, docker or link-local, that is the
 * network the nodes share. Not when MASTER_ADDR is itself public or loopback: then the job
 * deliberately uses another network.
 */
static void socket_list_suggestion(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct part *at = NULL;
	const struct sock_if *pick = NULL;
	struct strbuf others = STRBUF_INIT;
	enum aclass mc = x->master[0] ? aclass_of("", x->master) : A_UNKNOWN;

	if (mc != A_UNKNOWN && mc != A_PRIVATE)
		return;
	for (size_t i = 0; i < r->np; i++) {
		const struct stream_obs *m = &r->p[i].m;
		for (int k = 0; k < m->nsock; k++) {
			enum aclass c = aclass_of(m->sock[k].ifname, m->sock[k].addr);
			if (c == A_PRIVATE) {
				if (pick && strcmp(pick->ifname, m->sock[k].ifname)) {
					strbuf_release(&others);
					return;	/* two private networks: the log cannot tell which */
				}
				if (!pick) {
					pick = &m->sock[k];
					at = &r->p[i];
				}
			} else if (c != A_UNKNOWN && !others.len) {
				strbuf_addf(&others, "%s %s is %s", m->sock[k].ifname, m->sock[k].addr,
					    aclass_name(c));
			}
		}
	}
	if (pick && others.len) {
		snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", pick->ifname);
		snprintf(r->suggest_why, sizeof(r->suggest_why),
			 "%s (%s) is the only private interface in NCCL's NET/Socket list (%s)",
			 pick->ifname, pick->addr, others.buf);
		r->suggest_loc = at->m.sock_loc;
		for (int k = 0; k < at->m.nsock; k++)
			snprintf(r->suggest_ev + strlen(r->suggest_ev),
				 sizeof(r->suggest_ev) - strlen(r->suggest_ev), "%s%s %s (%s)",
				 k ? ", " : "", at->m.sock[k].ifname, at->m.sock[k].addr,
				 aclass_name(aclass_of(at->m.sock[k].ifname, at->m.sock[k].addr)));
	}
	strbuf_release(&others);
}

static void find_suggestion(struct rs *r)
{
	if (!master_suggestion(r))
		socket_list_suggestion(r);
}

/* The fix lines for "use the interface that reaches MASTER_ADDR". */
void rs_fix_ifname(struct rs *r, struct finding *d)
{
	if (r->suggest_loc.line)	/* the fix rests on it */
		rs_at(r, d, r->suggest_loc, "NET/Socket", r->suggest_ev);
	if (r->suggest_if[0]) {
		rs_fix(d, "export NCCL_SOCKET_IFNAME=%s GLOO_SOCKET_IFNAME=%s   # on every node: %s",
			 r->suggest_if, r->suggest_if, r->suggest_why);
	} else if (r->x->master[0]) {
		rs_fix(d, "export NCCL_SOCKET_IFNAME=$(ip -o route get %s | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')   "
			 "# on every node: the interface that reaches MASTER_ADDR", r->x->master);
	} else {
		rs_fix(d, "%s", EXPLAIN_FIX_IFNAME);
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

/* ---- signature findings ----------------------------------------------------------------------- */

void rs_sig_parts(struct rs *r, const struct sig_hit *h, size_t *out, size_t *n)
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

/* The hosts of a signature's parts, for "{node}": "a", "a, b", "a, b and 3 more" or "<node>". */
static void part_hosts(const struct rs *r, const size_t *parts, size_t np, struct strbuf *sb)
{
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < np; i++) {
		const struct stream_obs *m = &r->p[parts[i]].m;
		const char *h = m->nhost[0] ? m->nhost : m->host;
		int dup = 0;

		if (!h[0])
			continue;
		for (size_t j = 0; j < i && !dup; j++) {
			const struct stream_obs *o = &r->p[parts[j]].m;
			dup = !strcmp(o->nhost[0] ? o->nhost : o->host, h);
		}
		if (dup)
			continue;
		if (shown < 2) {
			if (shown)
				strbuf_addstr(sb, ",");
			strbuf_addstr(sb, h);
			shown++;
		} else {
			more++;
		}
	}
	if (!shown)
		strbuf_addstr(sb, "<node>");
	else if (more)
		strbuf_addf(sb, " and %zu more", more);
}

/*
 * A signature's text with its placeholders filled: "{}" the value captured from the line,
 * "{node}" the hosts whose lines matched, "{env:NAME}" a setting the log echoes ("?" unknown).
 */
static char *expand(const struct rs *r, const size_t *parts, size_t np, const char *text,
		    const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text;

	while (*p) {
		const char *m = strchr(p, '{');
		if (!m) {
			strbuf_addstr(&sb, p);
			break;
		}
		strbuf_add(&sb, p, (size_t)(m - p));
		if (m[1] == '}') {
			strbuf_addstr(&sb, value && *value ? value : "?");
			p = m + 2;
		} else if (!strncmp(m, "{node}", 6)) {
			part_hosts(r, parts, np, &sb);
			p = m + 6;
		} else if (!strncmp(m, "{env:", 5) && strchr(m, '}')) {
			const char *e = strchr(m, '}');
			char name[48];
			const struct env_obs *v;
			snprintf(name, sizeof(name), "%.*s", (int)(e - m - 5), m + 5);
			v = obs_env(r->x, name);
			strbuf_addstr(&sb, v ? v->value : "?");
			p = e + 1;
		} else {
			strbuf_add(&sb, m, 1);
			p = m + 1;
		}
	}
	return strbuf_detach(&sb, NULL);
}

static void sig_findings(struct rs *r)
{
	const struct run_obs *x = r->x;
	size_t *parts = xmalloc(OBS_SIG_STREAMS * sizeof(*parts)), np;

	for (size_t i = 0; i < explain_nsigs; i++) {
		const struct explain_sig *g = &explain_sigs[i];
		const struct sig_hit *h = &x->hits[i];
		struct finding *d;
		char *t, *chk;

		if (!h->count)
			continue;
		d = rs_add(r, g->id, g->sev, g->conf,
			     (g->flags & SIG_SYMPTOM) ? -400 : (g->flags & SIG_BENIGN) ? -50 : 0);
		rs_sig_parts(r, h, parts, &np);
		finding_rerun(d, g->rerun);
		chk = g->check ? expand(r, parts, np, g->check, NULL) : NULL;
		finding_check(d, chk);
		t = expand(r, parts, np, g->title, h->capture);
		if (!strcmp(g->id, "nccl.net.not_found") && obs_env(x, "NCCL_NET")) {
			free(t);
			t = xasprintf("NCCL_NET=%s names a network this node does not have",
				      obs_env(x, "NCCL_NET")->value);
		}
		rs_title(d, "%s", t);
		free(t);
		rs_parts(r, d, parts, np);
		for (size_t p = 0; p < np; p++) {
			if (g->sev == SEV_ERROR)
				r->p[parts[p]].err_sig = 1;
			if (g->flags & SIG_NET)
				r->p[parts[p]].net_sig = 1;
		}
		for (const char *f = g->fix; f && *f;) {
			size_t n = strcspn(f, "\n");
			if (n == strlen(EXPLAIN_FIX_IFNAME) && !strncmp(f, EXPLAIN_FIX_IFNAME, n)) {
				rs_fix_ifname(r, d);
			} else {
				char *line = xasprintf("%.*s", (int)n, f);
				char *e = expand(r, parts, np, line, h->capture);
				rs_fix(d, "%s", e);
				free(e);
				free(line);
			}
			f += n + (f[n] == '\n');
		}
		if (chk)
			rs_fix(d, "to test it: %s", chk);
		free(chk);
		if (g->rerun && (g->conf < CONF_HIGH || ((g->flags & SIG_NCCL) && !x->nccl_info_lines)))
			rs_fix(d, "if the log is not enough: rerun with %s", g->rerun);
		finding_why(d, "%s confidence: %s", g->conf == CONF_HIGH ? "High" :
			 g->conf == CONF_MEDIUM ? "Medium" : "Low", g->cause);
		for (int k = 0; k < h->nev; k++)
			rs_at(r, d, h->ev[k], NULL, h->ev_text[k]);
		if (h->count > (uint64_t)h->nev)
			finding_evidence(d, "seen %llu times in all", (unsigned long long)h->count);
		if ((g->flags & SIG_NET) && x->master[0] && x->master_loc.line)
			rs_at(r, d, x->master_loc, "MASTER_ADDR", x->master);
	}
	free(parts);
}

/* ---- the driver ----------------------------------------------------------------------------- */

/* Best first: stable, so findings of equal rank keep the order the rules emitted them in. */
static void rank_findings(struct rs *r)
{
	size_t n = r->fs->n - r->first;
	struct finding **v;

	if (n < 2)	/* also: no array at all when nothing was found */
		return;
	v = r->fs->v + r->first;
	for (size_t i = 1; i < n; i++) {
		struct finding *f = v[i];
		int s = r->score[i];
		size_t j = i;
		while (j > 0 && r->score[j - 1] < s) {
			v[j] = v[j - 1];
			r->score[j] = r->score[j - 1];
			j--;
		}
		v[j] = f;
		r->score[j] = s;
	}
}

json_t *explain_reason(const struct run_obs *x, struct findings *fs)
{
	struct rs r;
	json_t *payload;
	int net_diag = 0, have_errors = 0;

	memset(&r, 0, sizeof(r));
	r.x = x;
	r.fs = fs;
	r.first = fs->n;
	r.master_is_v4 = x->master[0] && addr_v4(x->master, &r.master_v4);
	resolve(&r);
	find_suggestion(&r);

	sig_findings(&r);
	rule_ifname_nomatch(&r);
	rule_wrong_interface(&r);
	rule_socket_bridges(&r);
	for (size_t i = r.first; i < fs->n; i++) {
		const struct finding *f = fs->v[i];
		if (f->sev == SEV_ERROR)
			have_errors = 1;
		if (!strcmp(f->id, "explain.net.wrong_interface") ||
		    !strcmp(f->id, "explain.net.ifname_nomatch"))
			net_diag = 1;
		else if (f->sev == SEV_ERROR && f->conf >= CONF_MEDIUM &&
			 !strncmp(f->id, "nccl.connect.", 13))
			net_diag = 1;
	}
	rule_known_bugs(&r);
	rule_master_differs(&r);
	rule_lightning_duplicates(&r);
	rule_nccl_tests(&r);
	rule_version_mismatch(&r);
	rule_init_progress(&r, net_diag);
	rule_lightning(&r, have_errors);
	rule_watchdog_desync(&r);
	rule_missing_ranks(&r);
	rule_log_hints(&r);
	rank_findings(&r);

	payload = rs_payload(&r);
	free(r.score);
	free(r.p);
	free(r.st2p);
	return payload;
}
