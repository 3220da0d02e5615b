/* fwmodel: see fwmodel.h. Rules are compiled once so that scanning 30 000 ports stays cheap. */
#include "model/fwmodel.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/xalloc.h"

#define FW_MAX_DEPTH 16
#define FW_MAX_STEPS 20000	/* rule visits per packet: real rule sets are far below, crafted ones are cut */
#define FW_MAX_SEGMENTS 2048	/* distinct port boundaries evaluated per scan, for the same reason */
#define FW_MAX_RANGES 64

enum act { A_ACCEPT, A_DROP, A_REJECT, A_RETURN, A_JUMP, A_GOTO, A_OTHER };

struct crule {
	const char *family, *table, *chain, *target, *proto, *iface, *src, *text, *source;
	enum act act;
	long cid;		/* index of its chain in fw_model.c */
	long tid;		/* JUMP/GOTO target's chain, -1 when unknown */
	int iface_neg, src_neg, dports_neg, conditional, states, new_ok;
	int nr;
	long lo[FW_MAX_RANGES], hi[FW_MAX_RANGES];
};

struct cchain {
	const char *family, *table, *name, *policy, *source;
	int base;
	size_t *rules;		/* indices into fw_model.r, in order */
	size_t n, alloc;
};

struct fw_model {
	struct crule *r;
	size_t nr;
	struct cchain *c;
	size_t nc, ac;
};

/* The chain (family, table, name), created when a rule names one the listing did not declare. */
static long chain_id(struct fw_model *m, const char *family, const char *table, const char *name, int create)
{
	for (size_t i = 0; i < m->nc; i++)
		if (!strcmp(m->c[i].name, name) && !strcmp(m->c[i].table, table) && !strcmp(m->c[i].family, family))
			return (long)i;
	if (!create)
		return -1;
	ALLOC_GROW(m->c, m->nc + 1, m->ac);
	memset(&m->c[m->nc], 0, sizeof(m->c[0]));
	m->c[m->nc].family = family;
	m->c[m->nc].table = table;
	m->c[m->nc].name = name;
	return (long)m->nc++;
}

static const char *str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static enum act parse_act(const char *a)
{
	if (!a)
		return A_OTHER;
	if (!strcmp(a, "ACCEPT"))
		return A_ACCEPT;
	if (!strcmp(a, "DROP"))
		return A_DROP;
	if (!strcmp(a, "REJECT"))
		return A_REJECT;
	if (!strcmp(a, "RETURN"))
		return A_RETURN;
	if (!strcmp(a, "JUMP"))
		return A_JUMP;
	if (!strcmp(a, "GOTO"))
		return A_GOTO;
	return A_OTHER;
}

struct fw_model *fw_model_new(const json_t *fw)
{
	const json_t *rules = json_object_get(fw, "rules"), *chains = json_object_get(fw, "chains"), *e, *x;
	struct fw_model *m;
	size_t i, j;

	if (!json_is_object(fw) || junknown(fw) || (!json_is_array(rules) && !json_is_array(chains)))
		return NULL;
	m = xcalloc(1, sizeof(*m));
	m->r = xcalloc(json_array_size(rules) + 1, sizeof(*m->r));
	json_array_foreach(chains, i, e) {
		const char *fam = str(e, "family"), *table = str(e, "table"), *name = str(e, "name");
		long id;

		if (!fam || !table || !name || chain_id(m, fam, table, name, 0) >= 0)
			continue;
		id = chain_id(m, fam, table, name, 1);
		m->c[id].policy = str(e, "policy");
		m->c[id].source = str(e, "source");
		m->c[id].base = str(e, "hook") && !strcmp(str(e, "hook"), "input");
	}
	json_array_foreach(rules, i, e) {
		struct crule *r = &m->r[m->nr];

		r->family = str(e, "family");
		r->table = str(e, "table");
		r->chain = str(e, "chain");
		if (!r->family || !r->table || !r->chain)
			continue;
		r->act = parse_act(str(e, "action"));
		r->target = str(e, "target");
		r->proto = str(e, "proto");
		r->iface = str(e, "iface");
		r->src = str(e, "src");
		r->text = str(e, "text");
		r->source = str(e, "source");
		r->iface_neg = jpath_bool(e, "iface_neg", 0);
		r->src_neg = jpath_bool(e, "src_neg", 0);
		r->dports_neg = jpath_bool(e, "dports_neg", 0);
		r->conditional = jpath_bool(e, "conditional", 0);
		json_array_foreach(json_object_get(e, "dports"), j, x) {
			if (r->nr >= FW_MAX_RANGES || !json_is_integer(json_array_get(x, 0)) ||
			    !json_is_integer(json_array_get(x, 1))) {
				r->conditional = 1;
				break;
			}
			r->lo[r->nr] = (long)json_integer_value(json_array_get(x, 0));
			r->hi[r->nr] = (long)json_integer_value(json_array_get(x, 1));
			r->nr++;
		}
		json_array_foreach(json_object_get(e, "states"), j, x) {
			const char *st = json_string_value(x);
			r->states = 1;
			if (st && !strcmp(st, "NEW"))
				r->new_ok = 1;
		}
		r->cid = chain_id(m, r->family, r->table, r->chain, 1);
		ALLOC_GROW(m->c[r->cid].rules, m->c[r->cid].n + 1, m->c[r->cid].alloc);
		m->c[r->cid].rules[m->c[r->cid].n++] = m->nr;
		m->nr++;
	}
	/* jump targets live in the same table; resolved after every chain is known */
	for (i = 0; i < m->nr; i++)
		m->r[i].tid = m->r[i].target ? chain_id(m, m->r[i].family, m->r[i].table, m->r[i].target, 0) : -1;
	return m;
}

void fw_model_free(struct fw_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nc; i++)
		free(m->c[i].rules);
	free(m->r);
	free(m->c);
	free(m);
}

static int family_applies(const char *fam, int family)
{
	return !strcmp(fam, "inet") || (family == 4 && !strcmp(fam, "ip")) || (family == 6 && !strcmp(fam, "ip6"));
}

/* iptables "eth+" and nftables "eth*" are prefix wildcards. */
static int iface_match(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n && (pattern[n - 1] == '+' || pattern[n - 1] == '*'))
		return !strncmp(pattern, name, n - 1);
	return !strcmp(pattern, name);
}

/* 1 match, 0 no match, -1 cannot tell. */
static int src_match(const char *cidr, const char *addr)
{
	unsigned char net[16], a[16];
	char buf[80], *slash;
	int fam, bits, len;

	if (!addr)
		return -1;
	snprintf(buf, sizeof(buf), "%s", cidr);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	if (inet_pton(AF_INET, buf, net) == 1) {
		fam = 4;
		len = 32;
	} else if (inet_pton(AF_INET6, buf, net) == 1) {
		fam = 6;
		len = 128;
	} else {
		return -1;
	}
	if (inet_pton(fam == 4 ? AF_INET : AF_INET6, addr, a) != 1)
		return 0;
	bits = slash ? atoi(slash) : len;
	if (slash && strchr(slash, '.'))
		return -1; /* a dotted netmask: iptables-save does not print those */
	if (bits < 0 || bits > len)
		return -1;
	for (int i = 0; i < len / 8; i++) {
		int b = bits - i * 8;
		unsigned char mask = b >= 8 ? 0xff : b <= 0 ? 0 : (unsigned char)(0xff << (8 - b));
		if ((net[i] & mask) != (a[i] & mask))
			return 0;
	}
	return 1;
}

/* 1 match, 0 no match, -1 cannot tell. */
static int rule_match(const struct crule *r, const struct fw_packet *p)
{
	int hit;

	if (r->conditional)
		return -1;
	if (r->proto && strcmp(r->proto, "tcp") && strcmp(r->proto, "6"))
		return 0;
	if (r->iface && (iface_match(r->iface, p->iface ? p->iface : "") ^ r->iface_neg) == 0)
		return 0;
	if (r->states && !r->new_ok)
		return 0;
	if (r->nr) {
		hit = 0;
		for (int i = 0; i < r->nr; i++)
			if (p->port >= r->lo[i] && p->port <= r->hi[i])
				hit = 1;
		if ((hit ^ r->dports_neg) == 0)
			return 0;
	}
	if (r->src) {
		hit = src_match(r->src, p->src);
		if (hit < 0)
			return -1;
		if ((hit ^ r->src_neg) == 0)
			return 0;
	}
	return 1;
}

enum { CONTINUE = -1 };

struct walk {
	long stack[FW_MAX_DEPTH + 1];	/* chains being evaluated: the kernel refuses loops, we skip them */
	long steps;
};

static int eval_chain(const struct fw_model *m, long cid, const struct fw_packet *p, struct fw_result *res,
		      int depth, struct walk *w)
{
	const struct cchain *c = &m->c[cid];

	if (depth > FW_MAX_DEPTH) {
		res->uncertain = 1;
		return CONTINUE;
	}
	for (int i = 0; i < depth; i++)
		if (w->stack[i] == cid) {
			res->uncertain = 1;
			return CONTINUE;
		}
	w->stack[depth] = cid;
	for (size_t k = 0; k < c->n; k++) {
		const struct crule *r = &m->r[c->rules[k]];
		int hit, v;

		if (++w->steps > FW_MAX_STEPS) {
			res->uncertain = 1;
			return CONTINUE;
		}
		hit = rule_match(r, p);
		if (hit < 0) {
			res->uncertain = 1;
			continue;
		}
		if (!hit)
			continue;
		switch (r->act) {
		case A_ACCEPT:
		case A_DROP:
		case A_REJECT:
			res->rule = r->text;
			res->chain = r->chain;
			res->table = r->table;
			res->family = r->family;
			res->source = r->source;
			return r->act == A_ACCEPT ? FW_ACCEPT : r->act == A_DROP ? FW_DROP : FW_REJECT;
		case A_RETURN:
			return CONTINUE;
		case A_JUMP:
		case A_GOTO:
			if (r->tid < 0) {
				res->uncertain = 1;
				continue;
			}
			v = eval_chain(m, r->tid, p, res, depth + 1, w);
			if (v != CONTINUE || r->act == A_GOTO)
				return v;
			break;
		case A_OTHER:
			break;
		}
	}
	return CONTINUE;
}

void fw_eval(const struct fw_model *m, const struct fw_packet *p, struct fw_result *r)
{
	int uncertain = 0;

	memset(r, 0, sizeof(*r));
	r->verdict = FW_ACCEPT;
	if (!m)
		return;
	/* every input-hook chain must accept: nftables runs them all, a drop anywhere is final */
	for (size_t i = 0; i < m->nc; i++) {
		const struct cchain *c = &m->c[i];
		struct fw_result one;
		struct walk w;
		int v;

		if (!c->base || !family_applies(c->family, p->family))
			continue;
		memset(&one, 0, sizeof(one));
		memset(&w, 0, sizeof(w));
		v = eval_chain(m, (long)i, p, &one, 0, &w);
		uncertain |= one.uncertain;
		if (v == CONTINUE) {
			v = c->policy && !strcmp(c->policy, "DROP") ? FW_DROP : FW_ACCEPT;
			one.rule = NULL;
			one.chain = c->name;
			one.table = c->table;
			one.family = c->family;
			one.source = c->source;
		}
		*r = one;
		r->verdict = (enum fw_verdict)v;
		r->uncertain = uncertain;
		if (v != FW_ACCEPT)
			return;
	}
}

/* Accepted ports merge whatever rule accepted them; blocked ones stay apart by rule. */
static int same_outcome(const struct fw_result *a, const struct fw_result *b)
{
	if (a->verdict != b->verdict || a->uncertain != b->uncertain)
		return 0;
	return a->verdict == FW_ACCEPT || (a->rule == b->rule && a->chain == b->chain);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

size_t fw_scan(const struct fw_model *m, int family, const char *iface, const char *src, long lo,
	       long hi, struct fw_span *spans, size_t max)
{
	struct fw_packet p = { family, iface, src, lo };
	size_t n = 0, ncut = 0, acut = 0;
	long *cuts = NULL;

	if (lo > hi || !max)
		return 0;
	/* the verdict can only change where some rule's port range starts or ends */
	ALLOC_GROW(cuts, ncut + 2, acut);
	cuts[ncut++] = lo;
	cuts[ncut++] = hi + 1;
	for (size_t i = 0; m && i < m->nr; i++)
		for (int k = 0; k < m->r[i].nr; k++) {
			long b[2] = { m->r[i].lo[k], m->r[i].hi[k] + 1 };
			for (int j = 0; j < 2; j++)
				if (b[j] > lo && b[j] <= hi) {
					ALLOC_GROW(cuts, ncut + 1, acut);
					cuts[ncut++] = b[j];
				}
		}
	qsort(cuts, ncut, sizeof(*cuts), cmp_long);
	for (size_t i = 0, seg = 0; i + 1 < ncut; i++) {
		struct fw_result r;

		if (cuts[i] == cuts[i + 1])
			continue;
		p.port = cuts[i];
		if (++seg > FW_MAX_SEGMENTS) {
			/* the rest in one span, judged at its first port and marked uncertain */
			fw_eval(m, &p, &r);
			r.uncertain = 1;
			if (n == max)
				break;
			spans[n].lo = cuts[i];
			spans[n].hi = hi;
			spans[n].r = r;
			n++;
			break;
		}
		fw_eval(m, &p, &r);
		if (n && same_outcome(&spans[n - 1].r, &r)) {
			spans[n - 1].hi = cuts[i + 1] - 1;
			continue;
		}
		if (n == max)
			break;
		spans[n].lo = cuts[i];
		spans[n].hi = cuts[i + 1] - 1;
		spans[n].r = r;
		n++;
	}
	free(cuts);
	return n;
}
