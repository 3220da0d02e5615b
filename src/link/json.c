/*
 * Link tests as data: names, request defaults and bounds, and the strict JSON both ways for
 * requests, readies and results (they cross the wire between nodes). See link_test.h.
 */
#include "link/link_int.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/xalloc.h"

/* ---- requests ---------------------------------------------------------------------------- */

void link_req_init(struct link_req *r, enum link_kind kind)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	switch (kind) {
	case LINK_CONNECT:
		/* past the first SYN retransmit (1 s) and its answer over a 500 ms round trip; the
		 * ports are tried at once, so one lost SYN seldom matters, and an address that drops
		 * everything costs this in every pair round */
		r->timeout_ms = 1500;
		r->nports = 1;
		r->pings = 100;
		break;
	case LINK_SCAN:
		r->timeout_ms = LINK_SCAN_TIMEOUT_DEFAULT;
		r->lo = 32768;
		r->hi = 60999;
		r->batch = LINK_SCAN_BATCH_DEFAULT;
		break;
	case LINK_MTU:
		r->timeout_ms = 250;
		r->min_mtu = 576;
		break;
	case LINK_BW:
		r->timeout_ms = 3000;
		r->streams = 1;
		r->duration_ms = 3000;
		break;
	}
}

int link_req_check(const struct link_req *r, struct err *e)
{
	if ((unsigned)r->kind > LINK_BW)
		return err_set(e, ERR_USAGE, "unknown link test %d", (int)r->kind);
	if (!link_addr_valid(r->addr))
		return err_set(e, ERR_USAGE, "link test target '%s' is not a numeric address", r->addr);
	if (r->src[0] && !link_addr_valid(r->src))
		return err_set(e, ERR_USAGE, "link test source '%s' is not a numeric address", r->src);
	if (memchr(r->ifname, '\0', sizeof(r->ifname)) == NULL || strchr(r->ifname, '/'))
		return err_set(e, ERR_USAGE, "bad interface name");
	if (r->timeout_ms < 1 || r->timeout_ms > LINK_TIMEOUT_MAX)
		return err_set(e, ERR_USAGE, "timeout %d ms is outside 1..%d", r->timeout_ms,
			       LINK_TIMEOUT_MAX);
	switch (r->kind) {
	case LINK_CONNECT:
		if (r->nports < 1 || r->nports > LINK_CONNECT_PORTS_MAX)
			return err_set(e, ERR_USAGE, "a connect test takes 1..%d ports, not %d",
				       LINK_CONNECT_PORTS_MAX, r->nports);
		if (r->pings < 0 || r->pings > LINK_PINGS_MAX)
			return err_set(e, ERR_USAGE, "pings %d is outside 0..%d", r->pings,
				       LINK_PINGS_MAX);
		if (r->probes < 0 || r->probes > LINK_PROBES_MAX)
			return err_set(e, ERR_USAGE, "probes %d is outside 0..%d", r->probes,
				       LINK_PROBES_MAX);
		break;
	case LINK_SCAN:
		if (r->nlist < 0 || r->nlist > LINK_SCAN_LIST_MAX)
			return err_set(e, ERR_USAGE, "a port list holds at most %d ports",
				       LINK_SCAN_LIST_MAX);
		if (!r->nlist && (!r->lo || r->lo > r->hi))
			return err_set(e, ERR_USAGE, "port range %u-%u is empty or starts at 0",
				       (unsigned)r->lo, (unsigned)r->hi);
		for (int i = 0; i < r->nlist; i++)
			if (!r->list[i])
				return err_set(e, ERR_USAGE, "port 0 in a scan list");
		if (r->window < 0 || r->window > LINK_SCAN_BATCH_MAX || r->batch < 0 ||
		    r->batch > LINK_SCAN_BATCH_MAX)
			return err_set(e, ERR_USAGE, "scan window/batch outside 0..%d",
				       LINK_SCAN_BATCH_MAX);
		if (r->retry_ms < 0 || r->retry_ms > LINK_TIMEOUT_MAX || r->looks < 0 ||
		    r->looks > LINK_LOOKS_MAX)
			return err_set(e, ERR_USAGE, "scan retry %d ms / looks %d out of bounds",
				       r->retry_ms, r->looks);
		break;
	case LINK_MTU:
		if (r->nports < 0 || r->nports > 1)
			return err_set(e, ERR_USAGE, "an MTU test listens on at most one port");
		if (r->min_mtu < 68 || r->min_mtu > 65535 || r->max_mtu < 0 || r->max_mtu > 65535 ||
		    (r->max_mtu && r->max_mtu < r->min_mtu))
			return err_set(e, ERR_USAGE, "MTU search %d..%d is outside 68..65535",
				       r->min_mtu, r->max_mtu);
		break;
	case LINK_BW:
		if (r->nports < 0 || r->nports > 1)
			return err_set(e, ERR_USAGE, "a bandwidth test listens on at most one port");
		if (r->streams < 1 || r->streams > LINK_BW_STREAMS_MAX)
			return err_set(e, ERR_USAGE, "streams %d is outside 1..%d", r->streams,
				       LINK_BW_STREAMS_MAX);
		if (r->duration_ms < 0 || r->duration_ms > LINK_DURATION_MAX || r->bytes < 0 ||
		    r->bytes > (1LL << 40) || (!r->duration_ms && !r->bytes))
			return err_set(e, ERR_USAGE, "a bandwidth test needs a duration (at most "
				       "%d ms) or a byte count", LINK_DURATION_MAX);
		break;
	}
	return 0;
}

static json_t *ports_json(const uint16_t *p, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(p[i]));
	return a;
}

/* Strict port array: integers 0..65535 (1.. when !zero_ok), at most max. */
static int ports_from(const json_t *a, uint16_t *out, size_t max, size_t *n, int zero_ok,
		      const char *what, struct err *e)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return err_set(e, ERR_PARSE, "'%s' is not an array", what);
	if (json_array_size(a) > max)
		return err_set(e, ERR_PARSE, "'%s' holds more than %zu ports", what, max);
	json_array_foreach(a, i, v) {
		json_int_t p = json_is_integer(v) ? json_integer_value(v) : -1;

		if (p < (zero_ok ? 0 : 1) || p > 65535)
			return err_set(e, ERR_PARSE, "'%s' holds a value that is not a port", what);
		out[i] = (uint16_t)p;
	}
	*n = json_array_size(a);
	return 0;
}

static void set_str_nonempty(json_t *o, const char *key, const char *v)
{
	if (v && *v)
		jset_str(o, key, v);
}

json_t *link_req_to_json(const struct link_req *r)
{
	json_t *o = json_object();

	jset_str(o, "kind", link_kind_name(r->kind));
	jset_str(o, "addr", r->addr);
	set_str_nonempty(o, "src", r->src);
	set_str_nonempty(o, "ifname", r->ifname);
	jset_int(o, "timeout_ms", r->timeout_ms);
	switch (r->kind) {
	case LINK_CONNECT:
		json_object_set_new(o, "ports", ports_json(r->ports, (size_t)r->nports));
		jset_int(o, "pings", r->pings);
		if (r->probes)
			jset_int(o, "probes", r->probes);
		break;
	case LINK_SCAN:
		if (r->nlist)
			json_object_set_new(o, "list", ports_json(r->list, (size_t)r->nlist));
		else {
			jset_int(o, "lo", r->lo);
			jset_int(o, "hi", r->hi);
		}
		jset_int(o, "window", r->window);
		jset_int(o, "batch", r->batch);
		if (r->retry_ms)
			jset_int(o, "retry_ms", r->retry_ms);
		if (r->looks)
			jset_int(o, "looks", r->looks);
		if (r->first_only)
			jset_int(o, "first_only", 1);
		if (r->look_all)
			jset_int(o, "look_all", 1);
		if (r->src_port)
			jset_int(o, "src_port", r->src_port);
		break;
	case LINK_MTU:
		if (r->nports)
			json_object_set_new(o, "ports", ports_json(r->ports, (size_t)r->nports));
		jset_int(o, "min_mtu", r->min_mtu);
		jset_int(o, "max_mtu", r->max_mtu);
		break;
	case LINK_BW:
		if (r->nports)
			json_object_set_new(o, "ports", ports_json(r->ports, (size_t)r->nports));
		jset_int(o, "streams", r->streams);
		jset_int(o, "duration_ms", r->duration_ms);
		jset_int(o, "bytes", r->bytes);
		break;
	}
	return o;
}

/* Keys allowed per kind, beyond the common ones. */
static const char *const req_keys[][12] = {
	[LINK_CONNECT] = { "ports", "pings", "probes" },
	[LINK_SCAN] = { "list", "lo", "hi", "window", "batch", "retry_ms", "looks", "first_only",
			"look_all", "src_port" },
	[LINK_MTU] = { "ports", "min_mtu", "max_mtu" },
	[LINK_BW] = { "ports", "streams", "duration_ms", "bytes" },
};

static int key_allowed(const char *key, enum link_kind kind)
{
	static const char *const common[] = { "kind", "addr", "src", "ifname", "timeout_ms" };

	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		if (!strcmp(key, common[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(req_keys[kind]) && req_keys[kind][i]; i++)
		if (!strcmp(key, req_keys[kind][i]))
			return 1;
	return 0;
}

/* An optional integer member within [min, max]; absent leaves *out alone. */
static int opt_int(const json_t *o, const char *key, long long min, long long max, long long *out,
		   struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return err_set(e, ERR_PARSE, "'%s' is not an integer in %lld..%lld", key, min, max);
	*out = json_integer_value(v);
	return 0;
}

static int opt_str(const json_t *o, const char *key, char *out, size_t len, struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_string(v) || json_string_length(v) >= len ||
	    strlen(json_string_value(v)) != json_string_length(v))
		return err_set(e, ERR_PARSE, "'%s' is not a string of under %zu bytes", key, len);
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* A request's optional int fields of one kind: key, bounds, where it lives. */
struct req_int {
	const char *key;
	long long min, max;
	size_t off;
};

static const struct req_int connect_ints[] = {
	{ .key = "pings", .max = LINK_PINGS_MAX, .off = offsetof(struct link_req, pings) },
	{ .key = "probes", .max = LINK_PROBES_MAX, .off = offsetof(struct link_req, probes) },
};

static const struct req_int scan_ints[] = {
	{ .key = "window", .max = LINK_SCAN_BATCH_MAX, .off = offsetof(struct link_req, window) },
	{ .key = "batch", .max = LINK_SCAN_BATCH_MAX, .off = offsetof(struct link_req, batch) },
	{ .key = "retry_ms", .max = LINK_TIMEOUT_MAX, .off = offsetof(struct link_req, retry_ms) },
	{ .key = "looks", .max = LINK_LOOKS_MAX, .off = offsetof(struct link_req, looks) },
	{ .key = "first_only", .max = 1, .off = offsetof(struct link_req, first_only) },
	{ .key = "look_all", .max = 1, .off = offsetof(struct link_req, look_all) },
	{ .key = "src_port", .max = 65535, .off = offsetof(struct link_req, src_port) },
};

/* Each field of `t` that `j` has, in its bounds, into r; an absent one keeps its default. */
static int opt_ints(const json_t *j, const struct req_int *t, size_t n, struct link_req *r,
		    struct err *e)
{
	for (size_t i = 0; i < n; i++) {
		int *f = (int *)((char *)r + t[i].off);
		long long x = *f;

		if (opt_int(j, t[i].key, t[i].min, t[i].max, &x, e) < 0)
			return -1;
		*f = (int)x;
	}
	return 0;
}

int link_req_from_json(const json_t *j, struct link_req *r, struct err *e)
{
	const char *key;
	json_t *v;
	enum link_kind kind;
	long long x;
	size_t n;

	if (!json_is_object(j))
		return err_set(e, ERR_PARSE, "a link request is not an object");
	if (link_kind_parse(json_string_value(json_object_get(j, "kind")), &kind) < 0)
		return err_set(e, ERR_PARSE, "a link request has no known 'kind'");
	json_object_foreach((json_t *)j, key, v)
		if (!key_allowed(key, kind))
			return err_set(e, ERR_PARSE, "unexpected member '%s' in a %s request", key,
				       link_kind_name(kind));
	link_req_init(r, kind);
	if (!json_object_get(j, "addr"))
		return err_set(e, ERR_PARSE, "a link request has no 'addr'");
	if (opt_str(j, "addr", r->addr, sizeof(r->addr), e) < 0 ||
	    opt_str(j, "src", r->src, sizeof(r->src), e) < 0 ||
	    opt_str(j, "ifname", r->ifname, sizeof(r->ifname), e) < 0)
		return -1;
	x = r->timeout_ms;
	if (opt_int(j, "timeout_ms", 1, LINK_TIMEOUT_MAX, &x, e) < 0)
		return -1;
	r->timeout_ms = (int)x;
	switch (kind) {
	case LINK_CONNECT:
		if ((v = json_object_get(j, "ports"))) {
			if (ports_from(v, r->ports, LINK_CONNECT_PORTS_MAX, &n, 1, "ports", e) < 0)
				return -1;
			r->nports = (int)n;
		}
		if (opt_ints(j, connect_ints, ARRAY_SIZE(connect_ints), r, e) < 0)
			return -1;
		break;
	case LINK_SCAN:
		if ((v = json_object_get(j, "list"))) {
			if (ports_from(v, r->list, LINK_SCAN_LIST_MAX, &n, 0, "list", e) < 0)
				return -1;
			r->nlist = (int)n;
		}
		x = r->lo;
		if (opt_int(j, "lo", 1, 65535, &x, e) < 0)
			return -1;
		r->lo = (uint16_t)x;
		x = r->hi;
		if (opt_int(j, "hi", 1, 65535, &x, e) < 0)
			return -1;
		r->hi = (uint16_t)x;
		if (opt_ints(j, scan_ints, ARRAY_SIZE(scan_ints), r, e) < 0)
			return -1;
		break;
	case LINK_MTU:
		if ((v = json_object_get(j, "ports"))) {
			if (ports_from(v, r->ports, 1, &n, 1, "ports", e) < 0)
				return -1;
			r->nports = (int)n;
		}
		x = r->min_mtu;
		if (opt_int(j, "min_mtu", 68, 65535, &x, e) < 0)
			return -1;
		r->min_mtu = (int)x;
		x = r->max_mtu;
		if (opt_int(j, "max_mtu", 0, 65535, &x, e) < 0)
			return -1;
		r->max_mtu = (int)x;
		break;
	case LINK_BW:
		if ((v = json_object_get(j, "ports"))) {
			if (ports_from(v, r->ports, 1, &n, 1, "ports", e) < 0)
				return -1;
			r->nports = (int)n;
		}
		x = r->streams;
		if (opt_int(j, "streams", 1, LINK_BW_STREAMS_MAX, &x, e) < 0)
			return -1;
		r->streams = (int)x;
		x = r->duration_ms;
		if (opt_int(j, "duration_ms", 0, LINK_DURATION_MAX, &x, e) < 0)
			return -1;
		r->duration_ms = (int)x;
		if (opt_int(j, "bytes", 0, 1LL << 40, &r->bytes, e) < 0)
			return -1;
		break;
	}
	if (link_req_check(r, e) < 0) {
		e->code = ERR_PARSE;
		return -1;
	}
	return 0;
}

/* ---- readies ----------------------------------------------------------------------------- */

void link_ready_init(struct link_ready *r)
{
	memset(r, 0, sizeof(*r));
}

void link_ready_release(struct link_ready *r)
{
	free(r->listening);
	free(r->in_use);
	link_ready_init(r);
}

/* [[lo, hi], ...] runs of consecutive ports of a sorted array. */
static json_t *runs_json(const uint16_t *p, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && p[j + 1] == p[j] + 1)
			j++;
		json_array_append_new(a, json_pack("[ii]", p[i], p[j]));
		i = j + 1;
	}
	return a;
}

static int runs_from(const json_t *a, uint16_t **out, size_t *n, struct err *e)
{
	size_t i, total = 0;
	json_t *v;
	int prev = 0;

	*out = NULL;
	*n = 0;
	if (!json_is_array(a))
		return err_set(e, ERR_PARSE, "'listening' is not an array");
	json_array_foreach(a, i, v) {
		json_t *lo = json_array_get(v, 0), *hi = json_array_get(v, 1);
		json_int_t l, h;

		if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(lo) ||
		    !json_is_integer(hi))
			return err_set(e, ERR_PARSE, "'listening' holds something not [lo, hi]");
		l = json_integer_value(lo);
		h = json_integer_value(hi);
		if (l < 1 || h > 65535 || l > h || l <= prev)
			return err_set(e, ERR_PARSE, "'listening' runs are not ascending ports");
		prev = (int)h;
		total += (size_t)(h - l + 1);
	}
	if (total > LINK_SCAN_BATCH_MAX)
		return err_set(e, ERR_PARSE, "'listening' holds more than %d ports",
			       LINK_SCAN_BATCH_MAX);
	*out = xcalloc(total ? total : 1, sizeof(**out));
	json_array_foreach(a, i, v) {
		for (json_int_t p = json_integer_value(json_array_get(v, 0));
		     p <= json_integer_value(json_array_get(v, 1)); p++)
			(*out)[(*n)++] = (uint16_t)p;
	}
	return 0;
}

json_t *link_ready_to_json(const struct link_ready *r)
{
	json_t *o = json_object();

	jset_str(o, "kind", link_kind_name(r->kind));
	if (r->kind == LINK_SCAN) {
		json_object_set_new(o, "listening", runs_json(r->listening, r->nlistening));
		json_object_set_new(o, "in_use", ports_json(r->in_use, r->nin_use));
	} else
		json_object_set_new(o, "ports", ports_json(r->ports, (size_t)r->nports));
	if (r->kind == LINK_CONNECT && r->accepts > 0)
		jset_int(o, "accepts", r->accepts);
	return o;
}

int link_ready_from_json(const json_t *j, enum link_kind kind, struct link_ready *r,
			 struct err *e)
{
	const char *key;
	json_t *v;
	enum link_kind k;
	size_t n;

	link_ready_init(r);
	if (!json_is_object(j) || link_kind_parse(json_string_value(json_object_get(j, "kind")), &k))
		return err_set(e, ERR_PARSE, "a link ready is not an object with a known 'kind'");
	if (k != kind)
		return err_set(e, ERR_PARSE, "a %s ready answers a %s request", link_kind_name(k),
			       link_kind_name(kind));
	r->kind = k;
	json_object_foreach((json_t *)j, key, v) {
		if (!strcmp(key, "kind"))
			continue;
		if (k == LINK_SCAN && !strcmp(key, "listening")) {
			if (runs_from(v, &r->listening, &r->nlistening, e) < 0)
				goto bad;
		} else if (k == LINK_SCAN && !strcmp(key, "in_use")) {
			r->in_use = xcalloc(LINK_SCAN_BATCH_MAX, sizeof(*r->in_use));
			if (ports_from(v, r->in_use, LINK_SCAN_BATCH_MAX, &r->nin_use, 0, "in_use",
				       e) < 0)
				goto bad;
		} else if (k != LINK_SCAN && !strcmp(key, "ports")) {
			if (ports_from(v, r->ports, LINK_CONNECT_PORTS_MAX, &n, 0, "ports", e) < 0)
				goto bad;
			r->nports = (int)n;
		} else if (k == LINK_CONNECT && !strcmp(key, "accepts")) {
			long long x = 0;

			if (opt_int(j, "accepts", 1, 1 << 20, &x, e) < 0)
				goto bad;
			r->accepts = (int)x;
		} else {
			err_set(e, ERR_PARSE, "unexpected member '%s' in a link ready", key);
			goto bad;
		}
	}
	if (k != LINK_SCAN && r->nports < 1) {
		err_set(e, ERR_PARSE, "a %s ready names no port", link_kind_name(k));
		goto bad;
	}
	return 0;
bad:
	link_ready_release(r);
	return -1;
}

/* ---- results ----------------------------------------------------------------------------- */

void link_result_init(struct link_result *r, enum link_kind kind)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->c.loss_pct = -1;
}

void link_result_release(struct link_result *r)
{
	free(r->s.iv);
	free(r->s.in_use);
	free(r->s.state);
	free(r->b.gbps);
	free(r->b.bytes);
	link_result_init(r, r->kind);
}

json_t *link_result_to_json(const struct link_result *r)
{
	json_t *o = json_object(), *a, *c;

	jset_str(o, "kind", link_kind_name(r->kind));
	jset_str(o, "addr", r->addr);
	set_str_nonempty(o, "src", r->src);
	set_str_nonempty(o, "ifname", r->ifname);
	switch (r->kind) {
	case LINK_CONNECT:
		jset_str(o, "status", link_status_name(r->c.status));
		a = jarr_child(o, "tries");
		for (int i = 0; i < r->c.ntries; i++) {
			const struct link_port_try *t = &r->c.tries[i];

			json_array_append_new(a, json_pack("{sisssisi}", "port", t->port, "status",
							   link_status_name(t->status), "errno",
							   t->err, "connect_us", t->connect_us));
		}
		jset_int(o, "pings", r->c.pings);
		json_object_set_new(o, "rtt_us", json_pack("{sfsfsfsf}", "p50", r->c.rtt_p50_us,
							   "p99", r->c.rtt_p99_us, "min",
							   r->c.rtt_min_us, "max", r->c.rtt_max_us));
		if (r->c.open_port)
			jset_int(o, "open_port", r->c.open_port);
		/* no probe answered: the share is unknown, not a number out of range */
		if (r->c.probes)
			json_object_set_new(o, "loss", json_pack("{sisisiso}", "probes",
								 r->c.probes, "retrans",
								 r->c.retrans, "unanswered",
								 r->c.unanswered, "pct",
								 r->c.loss_pct < 0
								 ? json_null()
								 : json_real(r->c.loss_pct)));
		break;
	case LINK_SCAN:
		jset_int(o, "lo", r->s.lo);
		jset_int(o, "hi", r->s.hi);
		c = jobj_child(o, "counts");
		for (int s = LINK_PORT_OPEN; s < LINK_PORT_STATE_N; s++)
			jset_int(c, link_port_state_name((enum link_port_state)s), r->s.counts[s]);
		a = jarr_child(o, "intervals");
		for (size_t i = 0; i < r->s.niv; i++)
			json_array_append_new(a, json_pack("{sisiss}", "lo", r->s.iv[i].lo, "hi",
							   r->s.iv[i].hi, "state",
							   link_port_state_name(r->s.iv[i].state)));
		json_object_set_new(o, "in_use", ports_json(r->s.in_use, r->s.nin_use));
		jset_int(o, "retried", r->s.retried);
		jset_int(o, "flaky", r->s.flaky);
		jset_int(o, "batches", r->s.batches);
		jset_int(o, "elapsed_ms", r->s.elapsed_ms);
		jset_int(o, "timeout_ms", r->s.timeout_ms);
		jset_int(o, "retry_ms", r->s.retry_ms);
		jset_int(o, "looks", r->s.looks);
		jset_int(o, "first_drops", r->s.first_drops);
		jset_int(o, "late_ms", r->s.late_ms);
		if (r->s.src_port)
			jset_int(o, "src_port", r->s.src_port);
		break;
	case LINK_MTU:
		jset_int(o, "if_mtu", r->m.if_mtu);
		jset_int(o, "path_mtu", r->m.path_mtu);
		jset_int(o, "icmp_mtu", r->m.icmp_mtu);
		jset_bool(o, "blackhole", r->m.blackhole);
		jset_int(o, "probes", r->m.probes);
		jset_int(o, "wait_ms", r->m.wait_ms);
		jset_int(o, "elapsed_ms", r->m.elapsed_ms);
		break;
	case LINK_BW:
		jset_int(o, "streams", r->b.streams);
		a = jarr_child(o, "gbps");
		c = jarr_child(o, "bytes");
		for (int i = 0; r->b.gbps && r->b.bytes && i < r->b.streams; i++) {
			json_array_append_new(a, json_real(r->b.gbps[i]));
			json_array_append_new(c, json_integer(r->b.bytes[i]));
		}
		jset_int(o, "stalled", r->b.stalled);
		jset_real(o, "total_gbps", r->b.total_gbps);
		jset_int(o, "total_bytes", r->b.total_bytes);
		jset_real(o, "seconds", r->b.seconds);
		break;
	}
	return o;
}

static int num(const json_t *o, const char *key, double min, double max, double *out,
	       struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v) || json_number_value(v) < min || json_number_value(v) > max)
		return err_set(e, ERR_PARSE, "'%s' is missing or not a number in range", key);
	*out = json_number_value(v);
	return 0;
}

static int req_int(const json_t *o, const char *key, long long min, long long max,
		   long long *out, struct err *e)
{
	if (!json_object_get(o, key))
		return err_set(e, ERR_PARSE, "a link result has no '%s'", key);
	return opt_int(o, key, min, max, out, e);
}

static int check_keys(const json_t *o, const char *const *keys, struct err *e)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		int ok = 0;

		for (size_t i = 0; keys[i]; i++)
			ok |= !strcmp(keys[i], key);
		if (!ok)
			return err_set(e, ERR_PARSE, "unexpected member '%s' in a link result", key);
	}
	return 0;
}

static int connect_from(const json_t *j, struct link_result *r, struct err *e)
{
	static const char *const keys[] = { "kind", "addr", "src", "ifname", "status", "tries",
					    "pings", "rtt_us", "open_port", "loss", NULL };
	const json_t *tries = json_object_get(j, "tries"), *rtt = json_object_get(j, "rtt_us"), *t;
	long long x;
	size_t i;

	if (check_keys(j, keys, e) < 0)
		return -1;
	if (link_status_parse(json_string_value(json_object_get(j, "status")), &r->c.status))
		return err_set(e, ERR_PARSE, "a connect result has no known 'status'");
	if (!json_is_array(tries) || json_array_size(tries) > LINK_CONNECT_PORTS_MAX)
		return err_set(e, ERR_PARSE, "'tries' is not an array of at most %d",
			       LINK_CONNECT_PORTS_MAX);
	json_array_foreach(tries, i, t) {
		struct link_port_try *pt = &r->c.tries[i];
		static const char *const tkeys[] = { "port", "status", "errno", "connect_us", NULL };

		if (!json_is_object(t) || check_keys(t, tkeys, e) < 0 ||
		    req_int(t, "port", 0, 65535, &x, e) < 0)
			return err_set(e, ERR_PARSE, "a connect try is malformed");
		pt->port = (uint16_t)x;
		if (link_status_parse(json_string_value(json_object_get(t, "status")), &pt->status))
			return err_set(e, ERR_PARSE, "a connect try has no known 'status'");
		if (req_int(t, "errno", 0, 4095, &x, e) < 0)
			return -1;
		pt->err = (int)x;
		if (req_int(t, "connect_us", 0, 1LL << 31, &x, e) < 0)
			return -1;
		pt->connect_us = (int)x;
	}
	r->c.ntries = (int)json_array_size(tries);
	if (req_int(j, "pings", 0, LINK_PINGS_MAX, &x, e) < 0)
		return -1;
	r->c.pings = (int)x;
	if (!json_is_object(rtt) || json_object_size(rtt) != 4 ||
	    num(rtt, "p50", 0, 1e12, &r->c.rtt_p50_us, e) < 0 ||
	    num(rtt, "p99", 0, 1e12, &r->c.rtt_p99_us, e) < 0 ||
	    num(rtt, "min", 0, 1e12, &r->c.rtt_min_us, e) < 0 ||
	    num(rtt, "max", 0, 1e12, &r->c.rtt_max_us, e) < 0)
		return err_set(e, ERR_PARSE, "'rtt_us' is not {p50, p99, min, max}");
	x = 0;
	if (opt_int(j, "open_port", 0, 65535, &x, e) < 0)
		return -1;
	r->c.open_port = (uint16_t)x;
	r->c.loss_pct = -1;
	if ((t = json_object_get(j, "loss"))) {
		static const char *const lkeys[] = { "probes", "retrans", "unanswered", "pct",
						     NULL };
		long long pr, rt, un;
		const json_t *pct = json_is_object(t) ? json_object_get(t, "pct") : NULL;
		/* null (or absent): no probe was answered, so there is no share to read */
		bool unknown = !pct || json_is_null(pct);

		if (!json_is_object(t) || check_keys(t, lkeys, e) < 0 ||
		    req_int(t, "probes", 1, LINK_PROBES_MAX, &pr, e) < 0 ||
		    req_int(t, "retrans", 0, pr, &rt, e) < 0 ||
		    req_int(t, "unanswered", 0, pr - rt, &un, e) < 0 ||
		    (unknown && un != pr) ||
		    (!unknown && num(t, "pct", 0, 100, &r->c.loss_pct, e) < 0))
			return err_set(e, ERR_PARSE, "'loss' is not {probes, retrans, unanswered, "
				       "pct} in range");
		r->c.probes = (int)pr;
		r->c.retrans = (int)rt;
		r->c.unanswered = (int)un;
	}
	return 0;
}

static int scan_from(const json_t *j, struct link_result *r, struct err *e)
{
	static const char *const keys[] = { "kind", "addr", "src", "ifname", "lo", "hi", "counts",
					    "intervals", "in_use", "retried", "flaky", "batches",
					    "elapsed_ms", "timeout_ms", "retry_ms", "looks",
					    "first_drops", "late_ms", "src_port", NULL };
	static const struct { const char *key; long long max; size_t off; } extra[] = {
		{ "timeout_ms", LINK_TIMEOUT_MAX, offsetof(struct link_scan_result, timeout_ms) },
		{ "retry_ms", LINK_TIMEOUT_MAX, offsetof(struct link_scan_result, retry_ms) },
		{ "looks", LINK_LOOKS_MAX, offsetof(struct link_scan_result, looks) },
		{ "first_drops", 65536, offsetof(struct link_scan_result, first_drops) },
		{ "late_ms", 1LL << 30, offsetof(struct link_scan_result, late_ms) },
		{ "src_port", 65535, offsetof(struct link_scan_result, src_port) },
	};
	const json_t *iv = json_object_get(j, "intervals"), *v;
	long long x;
	size_t i;
	int prev = 0;
	uint8_t *st;

	if (check_keys(j, keys, e) < 0)
		return -1;
	if (req_int(j, "lo", 1, 65535, &x, e) < 0)
		return -1;
	r->s.lo = (uint16_t)x;
	if (req_int(j, "hi", 1, 65535, &x, e) < 0)
		return -1;
	r->s.hi = (uint16_t)x;
	if (r->s.lo > r->s.hi)
		return err_set(e, ERR_PARSE, "scan result range is empty");
	if (req_int(j, "retried", 0, 65536, &x, e) < 0)
		return -1;
	r->s.retried = (int)x;
	x = 0;
	if (opt_int(j, "flaky", 0, 65536, &x, e) < 0)
		return -1;
	r->s.flaky = (int)x;
	if (req_int(j, "batches", 0, 65536, &x, e) < 0)
		return -1;
	r->s.batches = (int)x;
	if (req_int(j, "elapsed_ms", 0, 1LL << 40, &x, e) < 0)
		return -1;
	r->s.elapsed_ms = (long)x;
	for (size_t k = 0; k < ARRAY_SIZE(extra); k++) {
		x = 0;
		if (opt_int(j, extra[k].key, 0, extra[k].max, &x, e) < 0)
			return -1;
		*(int *)((char *)&r->s + extra[k].off) = (int)x;
	}
	if (!json_is_array(iv) || json_array_size(iv) > 65536)
		return err_set(e, ERR_PARSE, "'intervals' is not an array");
	/* the per-port array is only scratch here: a cluster holds thousands of decoded scans,
	 * and their intervals say everything (link_scan_merge rebuilds states when it needs them) */
	st = xcalloc(65536, 1);
	r->s.iv = xcalloc(json_array_size(iv) + 1, sizeof(*r->s.iv));
	json_array_foreach(iv, i, v) {
		static const char *const ikeys[] = { "lo", "hi", "state", NULL };
		struct link_interval *t = &r->s.iv[i];
		long long lo, hi;

		if (!json_is_object(v) || check_keys(v, ikeys, e) < 0 ||
		    req_int(v, "lo", 1, 65535, &lo, e) < 0 || req_int(v, "hi", 1, 65535, &hi, e) < 0 ||
		    link_port_state_parse(json_string_value(json_object_get(v, "state")), &t->state)) {
			free(st);
			return err_set(e, ERR_PARSE, "an interval is not {lo, hi, state}");
		}
		if (lo > hi || lo <= prev || lo < r->s.lo || hi > r->s.hi ||
		    t->state == LINK_PORT_UNTESTED) {
			free(st);
			return err_set(e, ERR_PARSE, "intervals are not ascending inside the range");
		}
		prev = (int)hi;
		t->lo = (uint16_t)lo;
		t->hi = (uint16_t)hi;
		for (long long p = lo; p <= hi; p++)
			st[p] = (uint8_t)t->state;
	}
	r->s.niv = json_array_size(iv);
	r->s.in_use = xcalloc(65536, sizeof(*r->s.in_use));
	if (ports_from(json_object_get(j, "in_use"), r->s.in_use, 65536, &r->s.nin_use, 0,
		       "in_use", e) < 0) {
		free(st);
		return -1;
	}
	r->s.in_use = xrealloc(r->s.in_use, (r->s.nin_use + 1) * sizeof(*r->s.in_use));
	for (size_t k = 0; k < r->s.nin_use; k++)
		st[r->s.in_use[k]] = LINK_PORT_IN_USE;
	/* counts are recomputed from the intervals, never trusted */
	for (long p = r->s.lo; p <= r->s.hi; p++)
		r->s.counts[st[p]]++;
	r->s.counts[LINK_PORT_UNTESTED] = 0;
	free(st);
	return 0;
}

static int mtu_from(const json_t *j, struct link_result *r, struct err *e)
{
	static const char *const keys[] = { "kind", "addr", "src", "ifname", "if_mtu", "path_mtu",
					    "icmp_mtu", "blackhole", "probes", "wait_ms", "elapsed_ms",
					    NULL };
	long long x;

	if (check_keys(j, keys, e) < 0)
		return -1;
	if (req_int(j, "if_mtu", 0, 65535, &x, e) < 0)
		return -1;
	r->m.if_mtu = (int)x;
	if (req_int(j, "path_mtu", 0, 65535, &x, e) < 0)
		return -1;
	r->m.path_mtu = (int)x;
	if (req_int(j, "icmp_mtu", 0, 65535, &x, e) < 0)
		return -1;
	r->m.icmp_mtu = (int)x;
	if (!json_is_boolean(json_object_get(j, "blackhole")))
		return err_set(e, ERR_PARSE, "'blackhole' is not a boolean");
	r->m.blackhole = json_is_true(json_object_get(j, "blackhole"));
	if (req_int(j, "probes", 0, 100000, &x, e) < 0)
		return -1;
	r->m.probes = (int)x;
	x = 0;
	if (opt_int(j, "wait_ms", 0, LINK_TIMEOUT_MAX, &x, e) < 0)
		return -1;
	r->m.wait_ms = (int)x;
	if (req_int(j, "elapsed_ms", 0, 1LL << 40, &x, e) < 0)
		return -1;
	r->m.elapsed_ms = (long)x;
	return 0;
}

static int bw_from(const json_t *j, struct link_result *r, struct err *e)
{
	static const char *const keys[] = { "kind", "addr", "src", "ifname", "streams", "gbps",
					    "bytes", "stalled", "total_gbps", "total_bytes", "seconds",
					    NULL };
	const json_t *g = json_object_get(j, "gbps"), *b = json_object_get(j, "bytes");
	long long x;

	if (check_keys(j, keys, e) < 0)
		return -1;
	if (req_int(j, "streams", 1, LINK_BW_STREAMS_MAX, &x, e) < 0)
		return -1;
	r->b.streams = (int)x;
	if (!json_is_array(g) || !json_is_array(b) || json_array_size(g) != (size_t)x ||
	    json_array_size(b) != (size_t)x)
		return err_set(e, ERR_PARSE, "'gbps' and 'bytes' are not arrays of 'streams'");
	r->b.gbps = xcalloc((size_t)x, sizeof(*r->b.gbps));
	r->b.bytes = xcalloc((size_t)x, sizeof(*r->b.bytes));
	for (int i = 0; i < r->b.streams; i++) {
		const json_t *gi = json_array_get(g, (size_t)i), *bi = json_array_get(b, (size_t)i);

		if (!json_is_number(gi) || json_number_value(gi) < 0 || !json_is_integer(bi) ||
		    json_integer_value(bi) < 0)
			return err_set(e, ERR_PARSE, "a stream's figures are not numbers");
		r->b.gbps[i] = json_number_value(gi);
		r->b.bytes[i] = json_integer_value(bi);
	}
	if (req_int(j, "stalled", 0, r->b.streams, &x, e) < 0)
		return -1;
	r->b.stalled = (int)x;
	if (num(j, "total_gbps", 0, 1e9, &r->b.total_gbps, e) < 0 ||
	    num(j, "seconds", 0, 1e9, &r->b.seconds, e) < 0 ||
	    req_int(j, "total_bytes", 0, 1LL << 50, &r->b.total_bytes, e) < 0)
		return -1;
	return 0;
}

int link_result_from_json(const json_t *j, struct link_result *r, struct err *e)
{
	enum link_kind kind;
	int rc;

	link_result_init(r, LINK_CONNECT);
	if (!json_is_object(j) || link_kind_parse(json_string_value(json_object_get(j, "kind")),
						  &kind))
		return err_set(e, ERR_PARSE, "a link result is not an object with a known 'kind'");
	r->kind = kind;
	if (opt_str(j, "addr", r->addr, sizeof(r->addr), e) < 0 ||
	    opt_str(j, "src", r->src, sizeof(r->src), e) < 0 ||
	    opt_str(j, "ifname", r->ifname, sizeof(r->ifname), e) < 0)
		return -1;
	if (!link_addr_valid(r->addr))
		return err_set(e, ERR_PARSE, "a link result's 'addr' is not an address");
	switch (kind) {
	case LINK_CONNECT:
		rc = connect_from(j, r, e);
		break;
	case LINK_SCAN:
		rc = scan_from(j, r, e);
		break;
	case LINK_MTU:
		rc = mtu_from(j, r, e);
		break;
	default:
		rc = bw_from(j, r, e);
		break;
	}
	if (rc < 0)
		link_result_release(r);
	return rc;
}
