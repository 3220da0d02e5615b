/* NCCL's diagnostics report: decoding and folding (see ras_diag.h). */
#include "attach/ras_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *find_n(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	for (const char *p = s; p && p + n <= end; p++) {
		p = memchr(p, lit[0], (size_t)(end - p));
		if (!p || p + n > end)
			return NULL;
		if (!memcmp(p, lit, n))
			return p;
	}
	return NULL;
}

static int starts(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - s) >= n && !memcmp(s, lit, n);
}

/* Copies [s, end) into out (cap bytes), control bytes as '?'. */
static void copy_clean(char *out, size_t cap, const char *s, const char *end)
{
	size_t n = 0;

	while (s < end && n + 1 < cap) {
		unsigned char c = (unsigned char)*s++;
		out[n++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
}

static long num(const char **pp, const char *end, int *ok)
{
	const char *p = *pp;
	long v = 0;

	*ok = 0;
	while (p < end && *p >= '0' && *p <= '9' && v < 100000000) {
		v = v * 10 + (*p++ - '0');
		*ok = 1;
	}
	*pp = p;
	return v;
}

/* "rank(s) {1,3,...} (N=12)" anywhere in the text. */
static void rank_set(const char *s, const char *end, struct ras_diag_line *l)
{
	const char *p = find_n(s, end, "rank(s) {");
	int ok;

	if (!p)
		return;
	p += 9;
	while (p < end && *p != '}') {
		long v = num(&p, end, &ok);
		if (ok && l->nranks < RAS_DIAG_RANKS)
			l->ranks[l->nranks++] = (int)v;
		else if (!ok && !(p < end && (*p == ',' || *p == '.')))
			break;
		if (p < end && *p != '}')
			p++;
	}
	l->ranks_total = l->nranks;
	if (p < end && *p == '}' && starts(p + 1, end, " (N=")) {
		const char *q = p + 5;
		long t = num(&q, end, &ok);
		if (ok && t >= l->nranks)
			l->ranks_total = (int)t;
	}
}

static void comm_and_size(const char *s, const char *end, struct ras_diag_line *l)
{
	const char *p = find_n(s, end, " comm 0x"), *q;
	int ok;

	if (p) {
		p += 6;
		for (q = p + 2; q < end && strchr("0123456789abcdefABCDEF", *q) && *q; q++)
			;
		copy_clean(l->comm, sizeof(l->comm), p, q);
	}
	if ((p = find_n(s, end, "across "))) {
		p += 7;
		long v = num(&p, end, &ok);
		if (ok && (starts(p, end, " ranks") || starts(p, end, " of ")))
			l->comm_ranks = (int)v;
	}
}

static const struct {
	const char *prefix;
	enum ras_diag_check check;
} check_names[] = {
	{ "GPU inventory:", RAS_DIAG_GPU },
	{ "CUDA driver version:", RAS_DIAG_DRIVER },
	{ "ECC:", RAS_DIAG_ECC },
	{ "NVLink:", RAS_DIAG_NVLINK },
	{ "NCCL environment:", RAS_DIAG_ENV },
	{ "Xid/SXid:", RAS_DIAG_XID },
	{ "Xid ", RAS_DIAG_XID },
	{ "SXid ", RAS_DIAG_XID },
};

/* What an [INFO] line says; text is the message after the tag. */
static enum ras_diag_kind classify(struct ras_diag_line *l, const char *t, const char *end)
{
	const char *p;

	if (find_n(t, end, "diagnostics incomplete") || find_n(t, end, "unavailable"))
		return RAS_DIAG_NOTE;
	switch (l->check) {
	case RAS_DIAG_GPU:
	case RAS_DIAG_DRIVER:
		if (!find_n(t, end, " mismatch across "))
			return RAS_DIAG_NOTE;
		if ((p = find_n(t, end, "differ from ")))
			copy_clean(l->key, sizeof(l->key), p + 12, end);
		return RAS_DIAG_DIFF;
	case RAS_DIAG_ECC:
		return starts(t, end, "ECC: uncorrected volatile errors on ") ||
		       starts(t, end, "ECC: corrected volatile errors at or above ") ?
		       RAS_DIAG_FAULT : RAS_DIAG_NOTE;
	case RAS_DIAG_NVLINK:
		if (starts(t, end, "NVLink: inactive link(s) on "))
			return RAS_DIAG_FAULT;
		if (!starts(t, end, "NVLink: link-count mismatch "))
			return RAS_DIAG_NOTE;
		if ((p = find_n(t, end, "differ from ")))
			copy_clean(l->key, sizeof(l->key), p + 12, end);
		return RAS_DIAG_DIFF;
	case RAS_DIAG_ENV:
		if (starts(t, end, "NCCL environment: mismatch across ") &&
		    (p = find_n(t, end, " for "))) {
			copy_clean(l->key, sizeof(l->key), p + 5, end);
			return RAS_DIAG_DIFF;
		}
		/* "NCCL environment: K=V on rank(s) {..}": the last " on rank(s) " ends the value */
		if ((p = memchr(t, '=', (size_t)(end - t))) && starts(t, end, "NCCL environment: NCCL_")) {
			const char *on = NULL, *q = p;
			while ((q = find_n(q, end, " on rank(s) {")))
				on = q++;
			if (on) {
				copy_clean(l->key, sizeof(l->key), t + 18, p);
				copy_clean(l->value, sizeof(l->value), p + 1, on);
				return RAS_DIAG_ENV_VALUE;
			}
		}
		return RAS_DIAG_NOTE;
	case RAS_DIAG_XID:
		if ((starts(t, end, "Xid ") || starts(t, end, "SXid ")) &&
		    (p = find_n(t, end, " detected "))) {
			const char *h = find_n(p, end, " on host ");
			copy_clean(l->key, sizeof(l->key), t, p);
			if (h) {
				const char *he = h + 9;
				while (he < end && *he != ' ' && !(*he == '.' && (he + 1 == end || he[1] == ' ')))
					he++;
				copy_clean(l->value, sizeof(l->value), h + 9, he);
			}
			return RAS_DIAG_FAULT;
		}
		return RAS_DIAG_NOTE;
	case RAS_DIAG_OTHER:
		break;
	}
	return RAS_DIAG_NOTE;
}

int ras_diag_parse_line(const char *s, size_t len, struct ras_diag_line *out)
{
	const char *end = s + len, *tag, *t;
	struct ras_diag_line l;
	int info = 0;

	tag = find_n(s, len > 400 ? s + 400 : end, "NCCL DIAG ");
	if (!tag)
		return 0;
	memset(&l, 0, sizeof(l));
	l.pid = -1;
	if (tag > s + 2 && tag[-1] == ' ') {	/* "<host>:<pid> " just before */
		const char *b = tag - 1, *colon = NULL;
		while (b > s && b[-1] != ' ' && b[-1] != ']' && tag - b < 90)
			b--;
		for (const char *q = tag - 2; q > b; q--)
			if (*q == ':') {
				colon = q;
				break;
			}
		if (colon && colon > b && colon + 1 < tag - 1) {
			const char *q = colon + 1;
			int ok;
			long pid = num(&q, tag - 1, &ok);
			if (ok && q == tag - 1) {
				copy_clean(l.host, sizeof(l.host), b, colon);
				l.pid = pid;
			}
		}
	}
	t = tag + 10;
	while (end > t && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	l.kind = RAS_DIAG_NOTE;
	if (starts(t, end, "[OK]")) {
		t += 4;
	} else if (starts(t, end, "[INFO]")) {
		t += 6;
		info = 1;
	} else if (starts(t, end, "=== RAS Diagnostics")) {
		l.kind = RAS_DIAG_HEADER;
	} else if (starts(t, end, "RAS diagnostics completed in ")) {
		l.kind = RAS_DIAG_DONE;
	} else if (starts(t, end, "ERROR: diagnostics summary failed")) {
		l.kind = RAS_DIAG_FAILED;
	}
	while (t < end && *t == ' ')
		t++;
	copy_clean(l.text, sizeof(l.text), t, end);
	if (l.kind == RAS_DIAG_NOTE && t == tag + 10) {	/* untagged: not a check's line */
		*out = l;
		return 1;
	}
	if (l.kind != RAS_DIAG_NOTE) {
		*out = l;
		return 1;
	}
	for (size_t i = 0; i < sizeof(check_names) / sizeof(check_names[0]); i++)
		if (starts(t, end, check_names[i].prefix)) {
			l.check = check_names[i].check;
			break;
		}
	comm_and_size(t, end, &l);
	rank_set(t, end, &l);
	l.kind = info ? classify(&l, t, end) : RAS_DIAG_OK;
	*out = l;
	return 1;
}

void ras_diag_add(struct ras_diag *d, const struct ras_diag_line *l)
{
	if (l->kind == RAS_DIAG_DONE) {
		const char *p = l->text + strlen("RAS diagnostics completed in "), *q;
		char *e;
		d->done = 1;
		d->ms = strtod(p, &e);
		if ((q = strstr(e, " across ")))
			d->peers = atoi(q + 8);
	}
	if (d->n >= RAS_DIAG_MAX_LINES) {
		d->dropped++;
		return;
	}
	ALLOC_GROW(d->v, d->n + 1, d->alloc);
	d->v[d->n++] = *l;
}

int ras_diag_parse(const char *buf, size_t len, struct ras_diag *d, struct err *e)
{
	const char *p = buf, *end = buf + len;
	int first = 1;

	memset(d, 0, sizeof(*d));
	if (!len)
		return err_set(e, ERR_PEER, "the RAS service closed the connection without a "
			       "diagnostics report");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct ras_diag_line l;
		size_t n = (size_t)(le - p);

		if (n && p[n - 1] == '\r')
			n--;
		if (first && n) {
			first = 0;
			/* protocol answers come without the host prefix, on the first line */
			if (starts(p, p + n, "BUSY")) {
				d->answer = RAS_DIAG_BUSY;
			} else if (starts(p, p + n, "ERROR: Unknown command")) {
				d->answer = RAS_DIAG_UNKNOWN_CMD;
			} else if (starts(p, p + n, "ERROR")) {
				d->answer = RAS_DIAG_REFUSED;
			}
			if (d->answer != RAS_DIAG_REPORT) {
				copy_clean(d->answer_text, sizeof(d->answer_text), p, p + n);
				return 0;
			}
		}
		if (n && ras_diag_parse_line(p, n, &l))
			ras_diag_add(d, &l);
		else if (n)
			d->unparsed++;
		p = nl ? nl + 1 : end;
	}
	if (!d->n && !d->dropped) {
		ras_diag_release(d);
		return err_set(e, ERR_PEER, "the diagnostics answer holds no NCCL DIAG line: not "
			       "NCCL's RAS service?");
	}
	return 0;
}

void ras_diag_release(struct ras_diag *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* ---- folding into findings ---------------------------------------------------------------- */

/* Only NCCL's logging: a difference in them changes what is printed, not what NCCL does. */
static int logging_only(const char *key)
{
	static const char *const keys[] = {
		"NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE", "NCCL_DEBUG_LEVELS",
		"NCCL_DEBUG_TIMESTAMP_FORMAT", "NCCL_DEBUG_TIMESTAMP_LEVELS",
		"NCCL_WARN_ENABLE_DEBUG_INFO", "NCCL_SET_THREAD_NAME",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static void evidence(struct finding *f, const struct ras_diag_line *l)
{
	if (l->where[0])
		finding_evidence(f, "%s: NCCL DIAG %s", l->where, l->text);
	else if (l->host[0])
		finding_evidence(f, "%s:%ld NCCL DIAG %s", l->host, l->pid, l->text);
	else
		finding_evidence(f, "NCCL DIAG %s", l->text);
}

static void ranks_of(struct finding *f, const struct ras_diag_line *l)
{
	for (int i = 0; i < l->nranks; i++)
		finding_rank(f, l->ranks[i]);
}

struct fold_row {
	const char *id;
	enum ras_diag_check check;
	const char *what;	/* for the title */
	const char *why;
	const char *fix;
};

static const struct fold_row fold_rows[] = {
	{ .id = "nccl.diag.gpu", .check = RAS_DIAG_GPU, .what = "GPU inventory",
	  .why = "NCCL's diagnostics compare every rank's GPU model and the GPU count of its node, "
		 "per communicator: a node with another GPU, or one whose GPU fell off the bus, "
		 "runs at a different pace or not at all.",
	  .fix = N_("nvidia-smi -L   # on the nodes of the ranks named: the same GPUs as the others; "
		 "otherwise take the node out of the job")},
	{ .id = "nccl.diag.driver", .check = RAS_DIAG_DRIVER, .what = "CUDA driver version",
	  .why = "NCCL's diagnostics compare the CUDA driver version every rank sees: nodes on "
		 "different drivers behave differently (P2P, NVLS, CUDA graph support).",
	  .fix = N_("nvidia-smi --query-gpu=driver_version --format=csv,noheader   # on every node: "
		 "install one driver version everywhere")},
	{ .id = "nccl.diag.ecc", .check = RAS_DIAG_ECC, .what = "ECC",
	  .why = "NVML reports volatile ECC errors on the GPU of those ranks (uncorrected always; "
		 "corrected at or above NCCL_DIAGNOSTICS_ECC_THRESHOLD): the GPU corrupts or "
		 "loses data.",
	  .fix = N_("nvidia-smi -q -d ECC   # on the node of those ranks; uncorrected errors: drain "
		 "the node, reset the GPU (nvidia-smi -r -i <gpu>) or replace it")},
	{ .id = "nccl.diag.nvlink", .check = RAS_DIAG_NVLINK, .what = "NVLink",
	  .why = "NVML reports NVLinks of those ranks' GPUs not enabled, or fewer links than on "
		 "the other ranks: NCCL falls back to slower paths or hangs on a dead link.",
	  .fix = N_("nvidia-smi nvlink --status   # on the node of those ranks; inactive links: "
		 "reset the GPU, check systemctl status nvidia-fabricmanager, or replace the "
		 "node")},
	{ .id = "nccl.diag.xid", .check = RAS_DIAG_XID, .what = "Xid/SXid",
	  .why = "the kernel log of that host shows GPU (Xid) or NVSwitch (SXid) errors that "
		 "NVIDIA's catalog says need action; NCCL's line names the response.",
	  .fix = N_("dmesg -T | grep -iE 'xid|sxid'   # on the host named; then the response NCCL's "
		 "line names (https://docs.nvidia.com/deploy/xid-errors/)")},
};

static size_t fold_check(const struct ras_diag *d, const struct fold_row *row, const char *source,
			 ras_diag_add_fn add, void *ctx)
{
	const struct ras_diag_line *first = NULL;
	size_t nlines = 0, nfault = 0;
	struct strbuf title = STRBUF_INIT;
	struct finding *f;

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].check == row->check &&
		    (d->v[i].kind == RAS_DIAG_DIFF || d->v[i].kind == RAS_DIAG_FAULT)) {
			if (!first)
				first = &d->v[i];
			nlines++;
			nfault += d->v[i].kind == RAS_DIAG_FAULT;
		}
	if (!first)
		return 0;
	strbuf_addf(&title, "NCCL's diagnostics (%s): %s", source, first->text);
	if (nlines > 1)
		strbuf_addf(&title, " (and %zu more %s line%s)", nlines - 1, row->what,
			    nlines > 2 ? "s" : "");
	/* uncorrected ECC, inactive links, an Xid that needs action: a fault; else a difference */
	f = add(ctx, row->id, nfault && !(row->check == RAS_DIAG_ECC &&
				       !strstr(first->text, "uncorrected")) ? SEV_ERROR : SEV_WARN,
		title.buf);
	strbuf_release(&title);
	if (!f)
		return 0;
	f->conf = CONF_HIGH;
	finding_why(f, "%s", row->why);
	finding_fix(f, "%s", row->fix);
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].check == row->check &&
		    (d->v[i].kind == RAS_DIAG_DIFF || d->v[i].kind == RAS_DIAG_FAULT)) {
			ranks_of(f, &d->v[i]);
			evidence(f, &d->v[i]);
		}
	return 1;
}

static size_t fold_env(const struct ras_diag *d, const char *source, ras_diag_add_fn add, void *ctx)
{
	struct strbuf keys = STRBUF_INIT, title = STRBUF_INIT;
	size_t nkeys = 0, nreal = 0;
	struct finding *f;

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].check == RAS_DIAG_ENV && d->v[i].kind == RAS_DIAG_DIFF) {
			strbuf_addf(&keys, "%s%s", nkeys ? ", " : "", d->v[i].key);
			nkeys++;
			nreal += !logging_only(d->v[i].key);
		}
	if (!nkeys) {
		strbuf_release(&keys);
		return 0;
	}
	strbuf_addf(&title, "NCCL's diagnostics (%s): the ranks' environments differ in %s", source,
		    keys.buf);
	f = add(ctx, "nccl.diag.env", nreal ? SEV_WARN : SEV_INFO, title.buf);
	strbuf_release(&title);
	strbuf_release(&keys);
	if (!f)
		return 0;
	f->conf = nreal ? CONF_MEDIUM : CONF_HIGH;
	finding_why(f, "NCCL compares the NCCL_* variables of each rank's process environment "
		    "(not nccl.conf, not an env plugin, not whether a value is valid) and names any "
		    "difference. %s", nreal ? "Ranks that disagree on a setting NCCL acts on can "
		    "pick different interfaces, transports or protocols and hang at connection time." :
		    "These variables only change NCCL's logging: harmless.");
	for (size_t i = 0; i < d->n; i++) {
		const struct ras_diag_line *l = &d->v[i];
		if (l->check != RAS_DIAG_ENV)
			continue;
		if (l->kind == RAS_DIAG_DIFF) {
			evidence(f, l);
			if (!logging_only(l->key))
				finding_fix(f, N_("env | grep '^%s='   # on the ranks named below: set one "
					    "value for every rank in the launcher"), l->key);
		} else if (l->kind == RAS_DIAG_ENV_VALUE) {
			evidence(f, l);
			if (!logging_only(l->key))
				ranks_of(f, l);
		}
	}
	return 1;
}

size_t ras_diag_fold(const struct ras_diag *d, const char *source, ras_diag_add_fn add, void *ctx)
{
	size_t n = 0, nok = 0, nincomplete = 0;
	const struct ras_diag_line *why_incomplete = NULL;

	if (d->answer != RAS_DIAG_REPORT)
		return 0;
	for (size_t i = 0; i < sizeof(fold_rows) / sizeof(fold_rows[0]); i++)
		n += fold_check(d, &fold_rows[i], source, add, ctx);
	n += fold_env(d, source, add, ctx);
	for (size_t i = 0; i < d->n; i++) {
		nok += d->v[i].kind == RAS_DIAG_OK;
		if (d->v[i].kind == RAS_DIAG_FAILED || strstr(d->v[i].text, "diagnostics incomplete")) {
			nincomplete++;
			if (!why_incomplete)
				why_incomplete = &d->v[i];
		}
	}
	if (nincomplete || d->dropped) {
		struct finding *f = add(ctx, "nccl.diag.incomplete", SEV_INFO,
					"NCCL's diagnostics could not compare every rank");
		if (f) {
			f->conf = CONF_HIGH;
			finding_why(f, "a check gathered fewer ranks than the communicator has (the "
				    "RAS overlay was not ready, or a rank does not answer), or the "
				    "summary failed: what was compared is above, the rest is unknown.");
			if (why_incomplete)
				evidence(f, why_incomplete);
			if (d->dropped)
				finding_evidence(f, "%zu more lines not read (the cap is %d)", d->dropped,
						 RAS_DIAG_MAX_LINES);
			n++;
		}
	} else if (!n && nok) {
		struct finding *f = add(ctx, "nccl.diag.consistent", SEV_OK,
					"NCCL's diagnostics find the ranks alike");
		if (f) {
			f->conf = CONF_HIGH;
			finding_why(f, "%zu check(s) passed across the ranks: GPUs, driver, ECC, NVLink, "
				    "NCCL_* environment, kernel Xid log. They do not test the network "
				    "between nodes (ncclcheck cluster does).", nok);
			n++;
		}
	}
	return n;
}
