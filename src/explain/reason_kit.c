/*
 * The reasoner's kit: the finding helpers (ranking key, fix lines read as settings, evidence,
 * rank lists) and the address classes that the driver (reason.c), the cross-rank rules
 * (reason_rules.c) and the payload (payload.c) share. Each of those calls down into this file
 * and none calls another, so the reasoner has no circle. Pure: no I/O.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/reason_int.h"
#include "util/addr.h"
#include "util/i18n.h"
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

/* The fix lines for "use the interface that reaches MASTER_ADDR". */
void rs_fix_ifname(struct rs *r, struct finding *d)
{
	if (r->suggest_loc.line)	/* the fix rests on it */
		rs_at(r, d, r->suggest_loc, "NET/Socket", r->suggest_ev);
	if (r->suggest_if[0]) {
		/* a msgid as a whole line: its reason ("eth1 has MASTER_ADDR ... itself") is a format
		 * that would otherwise take the comment's words for its first value */
		rs_fix(d, N_("export NCCL_SOCKET_IFNAME=%s GLOO_SOCKET_IFNAME=%s   # on every node: %s"),
		       r->suggest_if, r->suggest_if, r->suggest_why);
	} else if (r->x->master[0]) {
		rs_fix(d, "export NCCL_SOCKET_IFNAME=$(ip -o route get %s | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')   "
			 "# on every node: the interface that reaches MASTER_ADDR", r->x->master);
	} else {
		rs_fix(d, "%s", EXPLAIN_FIX_IFNAME);
	}
}

/* ---- addresses ----------------------------------------------------------------------------- */

const char *aclass_name(enum aclass c)
{
	/* words of titles ("NCCL bootstraps on public eth0"): the renderer translates them */
	static const char *const n[] = { N_("unknown"), N_("private"), N_("public"), N_("loopback"),
					 N_("link-local"), N_("docker bridge") };
	return n[c];
}

int addr_v4(const char *s, unsigned char out[16])
{
	char buf[64];
	int family;

	snprintf(buf, sizeof(buf), "%s", s);
	buf[strcspn(buf, "%<")] = '\0';
	return addr_parse(buf, &family, out) == 0 && family == 4;
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

int rs_iface_prefix(const struct run_obs *x, const char *ifname, const char *addr)
{
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].addr, addr) && (!ifname || !strcmp(x->ifs[i].ifname, ifname)) &&
		    x->ifs[i].prefix >= 0)
			return x->ifs[i].prefix;
	return -1;
}

int rs_flight_recorder_on(const struct run_obs *x)
{
	const struct env_obs *size = obs_env(x, "TORCH_NCCL_TRACE_BUFFER_SIZE");
	const struct env_obs *dump = obs_env(x, "TORCH_NCCL_DUMP_ON_TIMEOUT");

	return size && dump && size->src == 'T' && dump->src == 'T' && atol(size->value) > 0 &&
	       !strcmp(dump->value, "1");
}
