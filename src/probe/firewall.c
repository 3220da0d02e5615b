/*
 * The local packet filter, when it can be read: `iptables-save` / `ip6tables-save` and
 * `nft -j list ruleset`, each with a deadline, parsed into one normalised rule list (firewall.h)
 * that rules/fwmodel.c evaluates for NCCL's ports. Reading needs root (CAP_NET_ADMIN); without it
 * the fact is "unknown" with that reason, never a guess.
 */
#include "probe/firewall.h"
#include "probe/probe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/subproc.h"
#include "util/xalloc.h"

#define FW_TIMEOUT_MS 5000
#define FW_OUT_CAP (8u << 20)
#define FW_MAX_RULES 20000	/* a hostile or enormous rule set is cut, not swallowed whole */

/* ---- shared ---- */

static json_t *new_rule(const char *source, const char *family, const char *table, const char *chain)
{
	json_t *r = json_object();

	jset_str(r, "source", source);
	jset_str(r, "family", family);
	jset_str(r, "table", table);
	jset_str(r, "chain", chain);
	jset_str(r, "action", "OTHER");
	json_object_set_new(r, "proto", json_null());
	json_object_set_new(r, "dports", json_array());
	json_object_set_new(r, "states", json_array());
	jset_bool(r, "conditional", 0);
	return r;
}

static void add_range(json_t *rule, long lo, long hi)
{
	json_t *pair = json_array();

	if (lo < 0 || hi > 65535 || lo > hi) {
		jset_bool(rule, "conditional", 1);
		json_decref(pair);
		return;
	}
	json_array_append_new(pair, json_integer(lo));
	json_array_append_new(pair, json_integer(hi));
	json_array_append_new(json_object_get(rule, "dports"), pair);
}

/* "22", "1000:2000" (iptables), "1000-2000"; lists separated by ',' (multiport). */
static void add_ports(json_t *rule, const char *s)
{
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			goto bad;
		if (*end == ':' || *end == '-') {
			const char *h = end + 1;
			hi = strtol(h, &end, 10);
			if (end == h)
				hi = 65535; /* "1024:" means up to the top */
		}
		add_range(rule, lo, hi);
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		s = end;
	}
	return;
bad:
	jset_bool(rule, "conditional", 1);
}

static void add_chain(json_t *fw, const char *source, const char *family, const char *table,
		      const char *name, const char *hook, const char *policy)
{
	json_t *c = json_object();

	jset_str(c, "source", source);
	jset_str(c, "family", family);
	jset_str(c, "table", table);
	jset_str(c, "name", name);
	jset_str(c, "hook", hook);
	jset_str(c, "policy", policy);
	json_array_append_new(jarr_child(fw, "chains"), c);
}

static void upcase(char *s)
{
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

/* ---- iptables-save ---- */

/* Splits a rule line into words, honouring "double quotes" (comments). Returns the count. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *p = line;

	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (*p == '"') {
			w[n++] = ++p;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
		} else {
			w[n++] = p;
			while (*p && *p != ' ' && *p != '\t')
				p++;
		}
		if (*p)
			*p++ = '\0';
	}
	return n;
}

static const char *const understood_modules[] = { "tcp", "udp", "multiport", "conntrack", "state",
						  "comment", "icmp", "icmp6", "ipv6-icmp" };

static void parse_rule_words(json_t *r, char **w, int n)
{
	int neg = 0;

	for (int i = 0; i < n; i++) {
		const char *o = w[i], *arg = i + 1 < n ? w[i + 1] : NULL;

		if (!strcmp(o, "!")) {
			neg = 1;
			continue;
		}
		if ((!strcmp(o, "-p") || !strcmp(o, "--protocol")) && arg) {
			char proto[32];
			snprintf(proto, sizeof(proto), "%s", arg);
			if (neg)
				jset_bool(r, "conditional", 1);
			else if (strcmp(proto, "all"))
				jset_str(r, "proto", proto);
			i++;
		} else if ((!strcmp(o, "-i") || !strcmp(o, "--in-interface")) && arg) {
			jset_str(r, "iface", arg);
			jset_bool(r, "iface_neg", neg);
			i++;
		} else if ((!strcmp(o, "-s") || !strcmp(o, "--source")) && arg) {
			jset_str(r, "src", arg);
			jset_bool(r, "src_neg", neg);
			i++;
		} else if ((!strcmp(o, "--dport") || !strcmp(o, "--destination-port") || !strcmp(o, "--dports") ||
			    !strcmp(o, "--destination-ports")) && arg) {
			add_ports(r, arg);
			jset_bool(r, "dports_neg", neg);
			i++;
		} else if ((!strcmp(o, "--ctstate") || !strcmp(o, "--state")) && arg) {
			char buf[128], *save = NULL, *t;
			json_t *st = json_object_get(r, "states");

			snprintf(buf, sizeof(buf), "%s", arg);
			if (neg)
				jset_bool(r, "conditional", 1);
			for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				upcase(t);
				json_array_append_new(st, json_string(t));
			}
			i++;
		} else if ((!strcmp(o, "-j") || !strcmp(o, "--jump") || !strcmp(o, "-g") || !strcmp(o, "--goto")) &&
			   arg) {
			int go = o[1] == 'g' || !strcmp(o, "--goto");

			if (!strcmp(arg, "ACCEPT") || !strcmp(arg, "DROP") || !strcmp(arg, "REJECT") ||
			    !strcmp(arg, "RETURN"))
				jset_str(r, "action", arg);
			else if (!strcmp(arg, "LOG") || !strcmp(arg, "NFLOG") || !strcmp(arg, "MARK") ||
				 !strcmp(arg, "CONNMARK") || !strcmp(arg, "AUDIT") || !strcmp(arg, "TRACE"))
				jset_str(r, "action", "OTHER"); /* non-terminating */
			else {
				jset_str(r, "action", go ? "GOTO" : "JUMP");
				jset_str(r, "target", arg);
			}
			i++;
		} else if ((!strcmp(o, "-m") || !strcmp(o, "--match")) && arg) {
			int known = 0;
			for (size_t k = 0; k < sizeof(understood_modules) / sizeof(understood_modules[0]); k++)
				if (!strcmp(arg, understood_modules[k]))
					known = 1;
			if (!known)
				jset_bool(r, "conditional", 1);
			i++;
		} else if (!strcmp(o, "--comment") || !strcmp(o, "--reject-with") || !strcmp(o, "--log-prefix") ||
			   !strcmp(o, "--log-level") || !strcmp(o, "--icmp-type") || !strcmp(o, "--icmpv6-type") ||
			   !strcmp(o, "--tcp-flags") || !strcmp(o, "--set-mark") || !strcmp(o, "--set-xmark")) {
			/* options of understood modules or targets; --tcp-flags also takes a second word */
			if (!strcmp(o, "--tcp-flags")) {
				jset_bool(r, "conditional", 1);
				i++;
			}
			if (arg)
				i++;
		} else if (!strcmp(o, "--syn")) {
			/* only new connections: what NCCL's connect sends */
		} else if (o[0] == '-') {
			/* -d, -o, --sport, -f and every module option we do not model */
			jset_bool(r, "conditional", 1);
			if (arg && arg[0] != '-' && strcmp(arg, "!"))
				i++;
		}
		neg = 0;
	}
}

int fw_parse_iptables_save(const char *text, size_t len, const char *family, json_t *fw)
{
	char table[64] = "", line[4096];
	const char *p = text, *end = text + len;
	json_t *rules = jarr_child(fw, "rules");
	int count = 0;

	while (p < end) {
		size_t n = 0;

		while (p < end && *p != '\n') {
			if (n + 1 < sizeof(line))
				line[n++] = *p ? *p : ' ';
			p++;
		}
		line[n] = '\0';
		if (p < end)
			p++;
		if (line[0] == '*') {
			snprintf(table, sizeof(table), "%.63s", line + 1);
			continue;
		}
		if (strcmp(table, "filter"))
			continue;
		if (line[0] == ':') {
			char name[64] = "", policy[32] = "";
			if (sscanf(line + 1, "%63s %31s", name, policy) >= 1) {
				int builtin = strcmp(policy, "-") && policy[0];
				add_chain(fw, "iptables", family, table, name, !strcmp(name, "INPUT") ? "input" : NULL,
					  builtin ? policy : NULL);
			}
			continue;
		}
		if (!strncmp(line, "-A ", 3) && json_array_size(rules) < FW_MAX_RULES) {
			char copy[4096], *w[256], chain[64];
			int nw;
			json_t *r;

			snprintf(copy, sizeof(copy), "%s", line);
			nw = split_words(copy, w, 256);
			if (nw < 2)
				continue;
			snprintf(chain, sizeof(chain), "%s", w[1]);
			r = new_rule("iptables", family, table, chain);
			parse_rule_words(r, w + 2, nw - 2);
			jset_str(r, "text", line);
			json_array_append_new(rules, r);
			count++;
		}
	}
	return count;
}

/* ---- nftables JSON ---- */

static const char *verdict_name(const char *key)
{
	static const char *const v[][2] = { { "accept", "ACCEPT" }, { "drop", "DROP" }, { "reject", "REJECT" },
					    { "return", "RETURN" }, { "jump", "JUMP" }, { "goto", "GOTO" } };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(key, v[i][0]))
			return v[i][1];
	return NULL;
}

/* Ports from a match's right side: 22, {"range":[a,b]}, {"set":[...]}. */
static void nft_ports(json_t *r, const json_t *right, int depth)
{
	const json_t *range = json_object_get(right, "range"), *set = json_object_get(right, "set"), *e;
	size_t i;

	if (json_is_integer(right)) {
		long v = (long)json_integer_value(right);
		add_range(r, v, v);
	} else if (json_is_array(range) && json_array_size(range) == 2 &&
		   json_is_integer(json_array_get(range, 0)) && json_is_integer(json_array_get(range, 1))) {
		add_range(r, (long)json_integer_value(json_array_get(range, 0)),
			  (long)json_integer_value(json_array_get(range, 1)));
	} else if ((json_is_array(set) || json_is_array(right)) && depth < 2) {
		json_array_foreach(json_is_array(set) ? set : right, i, e)
			nft_ports(r, e, depth + 1);
	} else {
		jset_bool(r, "conditional", 1);
	}
}

static void nft_states(json_t *r, const json_t *right)
{
	json_t *st = json_object_get(r, "states"), *e;
	const json_t *list = json_object_get(right, "set");
	size_t i;

	if (json_is_string(right)) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%s", json_string_value(right));
		upcase(buf);
		json_array_append_new(st, json_string(buf));
		return;
	}
	if (!list)
		list = right;
	if (!json_is_array(list)) {
		jset_bool(r, "conditional", 1);
		return;
	}
	json_array_foreach(list, i, e)
		if (json_is_string(e)) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%s", json_string_value(e));
			upcase(buf);
			json_array_append_new(st, json_string(buf));
		}
}

static void nft_match(json_t *r, const json_t *m, struct strbuf *text)
{
	const char *op = jpath_str(m, "op");
	const json_t *left = json_object_get(m, "left"), *right = json_object_get(m, "right");
	const char *meta = jpath_str(left, "meta.key"), *proto = jpath_str(left, "payload.protocol");
	const char *field = jpath_str(left, "payload.field"), *ct = jpath_str(left, "ct.key");
	int neg = op && !strcmp(op, "!=");

	if (!op || (strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "in"))) {
		jset_bool(r, "conditional", 1);
		return;
	}
	if (meta && (!strcmp(meta, "iifname") || !strcmp(meta, "iif")) && json_is_string(right)) {
		jset_str(r, "iface", json_string_value(right));
		jset_bool(r, "iface_neg", neg);
		strbuf_addf(text, " iifname %s%s", neg ? "!= " : "", json_string_value(right));
	} else if (meta && !strcmp(meta, "l4proto") && json_is_string(right) && !neg) {
		jset_str(r, "proto", json_string_value(right));
		strbuf_addf(text, " meta l4proto %s", json_string_value(right));
	} else if (proto && field && (!strcmp(field, "dport")) && (!strcmp(proto, "tcp") || !strcmp(proto, "udp") ||
								   !strcmp(proto, "th"))) {
		if (strcmp(proto, "th"))
			jset_str(r, "proto", proto);
		nft_ports(r, right, 0);
		jset_bool(r, "dports_neg", neg);
		strbuf_addf(text, " %s dport %s", proto, neg ? "!= ..." : "...");
	} else if (proto && field && !strcmp(field, "saddr") && (!strcmp(proto, "ip") || !strcmp(proto, "ip6"))) {
		const char *a = json_string_value(right);
		char buf[80];

		if (!a && json_is_object(json_object_get(right, "prefix"))) {
			snprintf(buf, sizeof(buf), "%s/%lld", jpath_str(right, "prefix.addr") ? jpath_str(right, "prefix.addr") : "?",
				 jpath_int(right, "prefix.len", 0));
			a = buf;
		}
		if (a) {
			jset_str(r, "src", a);
			jset_bool(r, "src_neg", neg);
			strbuf_addf(text, " %s saddr %s%s", proto, neg ? "!= " : "", a);
		} else {
			jset_bool(r, "conditional", 1);
		}
	} else if (proto && field && ((!strcmp(proto, "ip") && !strcmp(field, "protocol")) ||
				      (!strcmp(proto, "ip6") && !strcmp(field, "nexthdr"))) &&
		   json_is_string(right) && !neg) {
		jset_str(r, "proto", json_string_value(right));
		strbuf_addf(text, " %s %s %s", proto, field, json_string_value(right));
	} else if (ct && !strcmp(ct, "state") && !neg) {
		nft_states(r, right);
		strbuf_addstr(text, " ct state ...");
	} else {
		jset_bool(r, "conditional", 1);
		strbuf_addstr(text, " <match>");
	}
}

static void nft_rule(json_t *fw, const json_t *rule)
{
	const char *family = jpath_str(rule, "family"), *table = jpath_str(rule, "table");
	const char *chain = jpath_str(rule, "chain");
	const json_t *expr = json_object_get(rule, "expr"), *e;
	struct strbuf text = STRBUF_INIT;
	json_t *r;
	size_t i;

	if (!family || !table || !chain || !json_is_array(expr))
		return;
	r = new_rule("nft", family, table, chain);
	strbuf_addf(&text, "nft: %s %s %s (handle %lld):", family, table, chain, jpath_int(rule, "handle", -1));
	json_array_foreach(expr, i, e) {
		const char *key;
		json_t *val;

		if (!json_is_object(e) || json_object_size(e) != 1)
			continue;
		json_object_foreach((json_t *)e, key, val) {
			const char *v = verdict_name(key);

			if (!strcmp(key, "match")) {
				nft_match(r, val, &text);
			} else if (v) {
				jset_str(r, "action", v);
				if (json_is_string(jpath(val, "target")))
					jset_str(r, "target", jpath_str(val, "target"));
				strbuf_addf(&text, " %s", key);
				if (jpath_str(val, "target"))
					strbuf_addf(&text, " %s", jpath_str(val, "target"));
			} else if (!strcmp(key, "counter") || !strcmp(key, "log") || !strcmp(key, "comment")) {
				/* no effect on the verdict */
			} else {
				/* xt (iptables-nft compat), vmap, limit, lookups: not modelled */
				jset_bool(r, "conditional", 1);
				strbuf_addf(&text, " <%s>", key);
			}
		}
	}
	jset_str(r, "text", text.buf);
	strbuf_release(&text);
	json_array_append_new(jarr_child(fw, "rules"), r);
}

static int xt_owned(const char *family, const char *table)
{
	static const char *const t[] = { "filter", "nat", "mangle", "raw", "security" };

	if (!family || !table || (strcmp(family, "ip") && strcmp(family, "ip6")))
		return 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(table, t[i]))
			return 1;
	return 0;
}

int fw_parse_nft_json(const char *text, size_t len, int skip_xt_tables, json_t *fw)
{
	json_error_t jerr;
	json_t *doc = json_loadb(text, len, 0, &jerr), *items, *it;
	size_t i;
	int count = 0;

	items = json_object_get(doc, "nftables");
	if (!json_is_array(items)) {
		json_decref(doc);
		return -1;
	}
	json_array_foreach(items, i, it) {
		const json_t *c = json_object_get(it, "chain"), *r = json_object_get(it, "rule");
		const json_t *obj = c ? c : r;
		const char *fam = jpath_str(obj, "family"), *table = jpath_str(obj, "table");

		if (!json_is_object(obj) || (skip_xt_tables && xt_owned(fam, table)))
			continue;
		if (c && fam && table && jpath_str(c, "name")) {
			char policy[16] = "";
			const char *pol = jpath_str(c, "policy"), *hook = jpath_str(c, "hook");

			if (pol) {
				snprintf(policy, sizeof(policy), "%s", pol);
				upcase(policy);
			}
			/* only filter-type chains decide; a nat or route chain on the input hook does not drop */
			if (hook && jpath_str(c, "type") && strcmp(jpath_str(c, "type"), "filter"))
				continue;
			add_chain(fw, "nft", fam, table, jpath_str(c, "name"), hook,
				  hook ? (policy[0] ? policy : "ACCEPT") : NULL);
		} else if (r && json_array_size(json_object_get(fw, "rules")) < FW_MAX_RULES) {
			nft_rule(fw, r);
			count++;
		}
	}
	json_decref(doc);
	return count;
}

/* ---- the probe ---- */

/* Runs `argv`; returns 0 with the output in r->out, or -1 with the reason in `why`. */
static int run_tool(char *const argv[], struct subproc_result *r, char *why, size_t len)
{
	struct err e = ERR_INIT;

	if (subproc_run(argv, NULL, FW_TIMEOUT_MS, FW_OUT_CAP, r, &e) < 0) {
		snprintf(why, len, N_("cannot run '%s': %.200s"), argv[0], e.msg);
		return -1;
	}
	if (r->timed_out) {
		snprintf(why, len, N_("'%s' did not finish within %d s"), argv[0], FW_TIMEOUT_MS / 1000);
		return -1;
	}
	if (!r->exited || r->status) {
		strbuf_rtrim(&r->errout);
		if (r->exited && r->status == 127)
			snprintf(why, len, N_("'%s' is not installed"), argv[0]);
		else
			snprintf(why, len, N_("'%s' failed: %.160s"), argv[0],
				 r->errout.len ? r->errout.buf : "no message");
		return -1;
	}
	return 0;
}

void probe_firewall(const struct probe_ctx *ctx, json_t *facts)
{
	char *ipt4[] = { (char *)"iptables-save", (char *)"-t", (char *)"filter", NULL };
	char *ipt6[] = { (char *)"ip6tables-save", (char *)"-t", (char *)"filter", NULL };
	char *nft[] = { (char *)"nft", (char *)"-j", (char *)"list", (char *)"ruleset", NULL };
	json_t *fw = json_object(), *sources = json_array(), *errors = json_array();
	struct subproc_result r;
	char why[256];
	int xt_nft = 0, any = 0;

	(void)ctx;
	json_object_set_new(fw, "chains", json_array());
	json_object_set_new(fw, "rules", json_array());
	subproc_result_init(&r);
	if (run_tool(ipt4, &r, why, sizeof(why)) == 0) {
		fw_parse_iptables_save(r.out.buf, r.out.len, "ip", fw);
		/* iptables-nft: its tables show up again in nft's listing, as opaque "xt" matches */
		xt_nft |= strstr(r.out.buf, "(nf_tables)") != NULL;
		json_array_append_new(sources, json_string("iptables-save"));
		any = 1;
	} else {
		json_array_append_new(errors, json_string(why));
	}
	subproc_result_release(&r);
	subproc_result_init(&r);
	if (run_tool(ipt6, &r, why, sizeof(why)) == 0) {
		fw_parse_iptables_save(r.out.buf, r.out.len, "ip6", fw);
		xt_nft |= strstr(r.out.buf, "(nf_tables)") != NULL;
		json_array_append_new(sources, json_string("ip6tables-save"));
		any = 1;
	}
	subproc_result_release(&r);
	subproc_result_init(&r);
	if (run_tool(nft, &r, why, sizeof(why)) == 0) {
		if (fw_parse_nft_json(r.out.buf, r.out.len, xt_nft, fw) >= 0) {
			json_array_append_new(sources, json_string("nft"));
			any = 1;
		} else {
			json_array_append_new(errors, json_string("'nft -j list ruleset' did not print nft JSON"));
		}
	} else {
		json_array_append_new(errors, json_string(why));
	}
	subproc_result_release(&r);

	if (!any) {
		struct strbuf sb = STRBUF_INIT;
		size_t i;
		json_t *e;

		json_array_foreach(errors, i, e)
			strbuf_addf(&sb, "%s%s", i ? "; " : "", json_string_value(e));
		jset_unknown(facts, "firewall", "%s", sb.buf);
		strbuf_release(&sb);
		json_decref(fw);
		json_decref(sources);
		json_decref(errors);
		return;
	}
	json_object_set_new(fw, "source", sources);
	if (json_array_size(errors))
		json_object_set_new(fw, "errors", errors);
	else
		json_decref(errors);
	json_object_set_new(facts, "firewall", fw);
}
