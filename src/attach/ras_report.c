/* NCCL RAS STATUS report decoder, JSON and text (see ras.h); the client is in ras.c. */
#include "attach/ras_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

const char *const ras_op_names[RAS_NOPS] = {
	"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce",
	"AlltoAll", "Gather", "Scatter", "Send", "Recv",
};

static int op_index(const char *name, size_t len)
{
	for (int i = 0; i < RAS_NOPS; i++)
		if (strlen(ras_op_names[i]) == len && !strncmp(ras_op_names[i], name, len))
			return i;
	return -1;
}

/* ---- the report ---------------------------------------------------------------------------- */

void ras_report_free(struct ras_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ncomms; i++) {
		free(r->comms[i].ranks);
		free(r->comms[i].missing);
	}
	free(r->comms);
	free(r->dead);
	free(r->incomplete);
	free(r);
}

int ras_version_at_least(const struct ras_report *r, int maj, int min, int patch)
{
	if (r->vmaj != maj)
		return r->vmaj > maj;
	if (r->vmin != min)
		return r->vmin > min;
	return r->vpatch >= patch;
}

static void set_version(struct ras_report *r, const char *v)
{
	snprintf(r->version, sizeof(r->version), "%s", v);
	if (sscanf(v, "%d.%d.%d", &r->vmaj, &r->vmin, &r->vpatch) != 3)
		r->vmaj = r->vmin = r->vpatch = 0;
	/* "2.28.9+cuda12.9" and friends: keep only the number */
	r->version[strspn(r->version, "0123456789.")] = '\0';
}

/* Strict JSON ------------------------------------------------------------------------------ */

static int jint(const json_t *o, const char *key, long long lo, long long hi, long long *out,
		const char *where, struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		return err_set(e, ERR_PARSE, "RAS report: %s.%s is %s, expected an integer", where, key,
			       v ? "not an integer" : "missing");
	if (json_integer_value(v) < lo || json_integer_value(v) > hi)
		return err_set(e, ERR_PARSE, "RAS report: %s.%s = %lld is out of range", where, key,
			       (long long)json_integer_value(v));
	*out = json_integer_value(v);
	return 0;
}

static int jbool(const json_t *o, const char *key, int *out, const char *where, struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_boolean(v))
		return err_set(e, ERR_PARSE, "RAS report: %s.%s is %s, expected true/false", where, key,
			       v ? "not a boolean" : "missing");
	*out = json_is_true(v);
	return 0;
}

static int jstr(const json_t *o, const char *key, char *out, size_t len, const char *where,
		struct err *e)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		return err_set(e, ERR_PARSE, "RAS report: %s.%s is %s, expected a string", where, key,
			       v ? "not a string" : "missing");
	if (json_string_length(v) >= len)
		return err_set(e, ERR_PARSE, "RAS report: %s.%s is longer than %zu bytes", where, key,
			       len - 1);
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

static int decode_proc(const json_t *o, const char *where, int *rank, char *host, int *pid,
		       int *cuda, int *nvml, struct err *e)
{
	long long v;

	if (!json_is_object(o))
		return err_set(e, ERR_PARSE, "RAS report: %s is not an object", where);
	if (jint(o, "rank", 0, 1 << 24, &v, where, e) < 0)
		return -1;
	*rank = (int)v;
	if (jstr(o, "host", host, 64, where, e) < 0)
		return -1;
	if (jint(o, "pid", -1, 1LL << 31, &v, where, e) < 0)
		return -1;
	*pid = (int)v;
	if (jint(o, "cuda_dev", -1, 1 << 16, &v, where, e) < 0)
		return -1;
	*cuda = (int)v;
	if (jint(o, "nvml_dev", -1, 1 << 16, &v, where, e) < 0)
		return -1;
	*nvml = (int)v;
	return 0;
}

static int decode_rank(const json_t *o, struct ras_rank *rk, const char *where, struct err *e)
{
	const json_t *st, *cc, *v;
	const char *k;
	long long x;

	memset(rk, 0, sizeof(*rk));
	if (decode_proc(o, where, &rk->rank, rk->host, &rk->pid, &rk->cuda_dev, &rk->nvml_dev, e) < 0)
		return -1;
	st = json_object_get(o, "status");
	if (!json_is_object(st))
		return err_set(e, ERR_PARSE, "RAS report: %s.status is not an object", where);
	if (jint(st, "init_state", 0, 1000, &x, where, e) < 0)
		return -1;
	rk->init_state = (int)x;
	if (jint(st, "async_error", 0, 1000, &x, where, e) < 0)
		return -1;
	rk->async_error = (int)x;
	if (jbool(st, "finalize_called", &rk->finalize_called, where, e) < 0 ||
	    jbool(st, "destroy_flag", &rk->destroy_flag, where, e) < 0 ||
	    jbool(st, "abort_flag", &rk->abort_flag, where, e) < 0)
		return -1;
	cc = json_object_get(o, "collective_counts");
	if (!json_is_object(cc))
		return err_set(e, ERR_PARSE, "RAS report: %s.collective_counts is not an object", where);
	json_object_foreach((json_t *)cc, k, v) {
		int i = op_index(k, strlen(k));
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return err_set(e, ERR_PARSE, "RAS report: %s.collective_counts.%.32s is not a "
				       "count", where, k);
		if (i < 0)
			continue;	/* an operation type a newer NCCL counts */
		rk->counts[i] = (uint64_t)json_integer_value(v);
		rk->counts_known |= 1u << i;
	}
	return 0;
}

static int decode_json(const json_t *root, struct ras_report *r, struct err *e)
{
	const json_t *comms, *c, *ras;
	char ver[32];
	long long x;
	size_t ci;

	if (!json_is_object(root))
		return err_set(e, ERR_PARSE, "RAS report: the JSON is not an object");
	if (jstr(root, "nccl_version", ver, sizeof(ver), "report", e) < 0)
		return -1;
	set_version(r, ver);
	if (!r->vmaj)
		return err_set(e, ERR_PARSE, "RAS report: nccl_version '%s' is not a version", ver);
	if (json_object_get(root, "timestamp") &&
	    jstr(root, "timestamp", r->timestamp, sizeof(r->timestamp), "report", e) < 0)
		return -1;
	comms = json_object_get(root, "communicators");
	if (!json_is_array(comms))
		return err_set(e, ERR_PARSE, "RAS report: communicators is not an array");
	if (json_array_size(comms) > 65536)
		return err_set(e, ERR_PARSE, "RAS report: too many communicators");
	json_array_foreach(comms, ci, c) {
		struct ras_comm *cm;
		const json_t *ranks, *miss, *m;
		size_t i;
		char where[64];

		snprintf(where, sizeof(where), "communicators[%zu]", ci);
		if (!json_is_object(c))
			return err_set(e, ERR_PARSE, "RAS report: %s is not an object", where);
		ALLOC_GROW(r->comms, r->ncomms + 1, r->acomms);
		cm = &r->comms[r->ncomms++];
		memset(cm, 0, sizeof(*cm));
		if (jstr(c, "hash", cm->hash, sizeof(cm->hash), where, e) < 0 ||
		    jint(c, "size", 0, 1 << 24, &x, where, e) < 0)
			return -1;
		cm->size = (int)x;
		ranks = json_object_get(c, "ranks");
		miss = json_object_get(c, "missing_ranks");
		if (!json_is_array(ranks) || !json_is_array(miss))
			return err_set(e, ERR_PARSE, "RAS report: %s.ranks or .missing_ranks is not an "
				       "array", where);
		if (json_array_size(ranks) + json_array_size(miss) > (size_t)cm->size)
			return err_set(e, ERR_PARSE, "RAS report: %s lists more ranks than its size %d",
				       where, cm->size);
		json_array_foreach(ranks, i, m) {
			char w2[128];
			snprintf(w2, sizeof(w2), "%s.ranks[%zu]", where, i);
			ALLOC_GROW(cm->ranks, cm->nranks + 1, cm->aranks);
			if (decode_rank(m, &cm->ranks[cm->nranks++], w2, e) < 0)
				return -1;
		}
		json_array_foreach(miss, i, m) {
			struct ras_missing *mr;
			const json_t *st;
			char w2[128];
			snprintf(w2, sizeof(w2), "%s.missing_ranks[%zu]", where, i);
			ALLOC_GROW(cm->missing, cm->nmissing + 1, cm->amissing);
			mr = &cm->missing[cm->nmissing++];
			memset(mr, 0, sizeof(*mr));
			if (decode_proc(m, w2, &mr->rank, mr->host, &mr->pid, &mr->cuda_dev,
					&mr->nvml_dev, e) < 0)
				return -1;
			st = json_object_get(m, "status");
			if (!json_is_object(st))
				return err_set(e, ERR_PARSE, "RAS report: %s.status is not an object", w2);
			if (jbool(st, "unresponsive", &mr->unresponsive, w2, e) < 0 ||
			    jbool(st, "considered_dead", &mr->dead, w2, e) < 0)
				return -1;
		}
	}
	ras = json_object_get(root, "ras");
	if (ras) {
		const json_t *t = json_object_get(ras, "collection_time_sec");
		if (!json_is_object(ras) || (t && !json_is_number(t)))
			return err_set(e, ERR_PARSE, "RAS report: 'ras' is malformed");
		r->collection_time_s = t ? json_number_value(t) : 0;
		if (json_object_get(ras, "timeouts_count") &&
		    jint(ras, "timeouts_count", 0, 1 << 30, &x, "ras", e) < 0)
			return -1;
		r->timeouts = json_object_get(ras, "timeouts_count") ? (int)x : 0;
	}
	return 0;
}

/*
 * NCCL 2.28.7-2.28.9 write missing_ranks[] entries without the comma after "nvml_dev" (fixed in
 * 2.29.2), so exactly the report of a job with a dead or unresponsive rank is not JSON. Insert
 * that one comma where the layout puts it; nothing else is repaired.
 */
static char *repair_228(const char *buf, size_t len, int *fixed)
{
	static const char pat[] = "\"nvml_dev\": ";
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	*fixed = 0;
	while (i < len) {
		const char *p = memmem(buf + i, len - i, pat, sizeof(pat) - 1);
		size_t j;
		if (!p)
			break;
		j = (size_t)(p - buf) + sizeof(pat) - 1;
		if (j < len && buf[j] == '-')
			j++;
		while (j < len && isdigit((unsigned char)buf[j]))
			j++;
		strbuf_add(&sb, buf + i, j - i);
		i = j;
		{
			size_t k = j;
			while (k < len && (buf[k] == '\n' || buf[k] == ' ' || buf[k] == '\r'))
				k++;
			if (k + 8 <= len && !memcmp(buf + k, "\"status\"", 8)) {
				strbuf_addch(&sb, ',');
				(*fixed)++;
			}
		}
	}
	strbuf_add(&sb, buf + i, len - i);
	return strbuf_detach(&sb, NULL);
}

static struct ras_report *parse_json(const char *buf, size_t len, struct err *e)
{
	struct ras_report *r = xcalloc(1, sizeof(*r));
	json_error_t je;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);

	r->json = 1;
	if (!root && strstr(buf, "\"nccl_version\": \"2.28.")) {
		int fixed;
		char *fx = repair_228(buf, len, &fixed);
		if (fixed) {
			root = json_loadb(fx, strlen(fx), JSON_REJECT_DUPLICATES, &je);
			r->repaired = root != NULL;
		}
		free(fx);
	}
	if (!root) {
		err_set(e, ERR_PARSE, "RAS report: not JSON: %s (line %d)", je.text, je.line);
		ras_report_free(r);
		return NULL;
	}
	if (decode_json(root, r, e) < 0) {
		json_decref(root);
		ras_report_free(r);
		return NULL;
	}
	json_decref(root);
	return r;
}

/* Text --------------------------------------------------------------------------------------- */

struct tstate {
	struct ras_report *r;
	enum { S_HEAD, S_ERRORS, S_WARNINGS } sec;
	enum { B_NONE, B_DEAD, B_INCOMPLETE, B_COMM_INCOMPLETE, B_COMM_ERROR, B_MISMATCH_STATUS,
	       B_MISMATCH_COUNTS, B_TIMEOUT } block;
	struct ras_comm *comm;
	int op;
	uint64_t value;
	int async;		/* in an "Asynchronous error" breakdown (vs initialization) */
	char err_text[64];
};

static struct ras_comm *comm_by_hash(struct ras_report *r, const char *hash)
{
	struct ras_comm *c;

	for (size_t i = 0; i < r->ncomms; i++)
		if (!strcmp(r->comms[i].hash, hash))
			return &r->comms[i];
	ALLOC_GROW(r->comms, r->ncomms + 1, r->acomms);
	c = &r->comms[r->ncomms++];
	memset(c, 0, sizeof(*c));
	snprintf(c->hash, sizeof(c->hash), "0x%s", hash + strspn(hash, "0"));
	if (!strcmp(c->hash, "0x"))
		snprintf(c->hash, sizeof(c->hash), "0x0");
	return c;
}

static struct ras_rank *rank_in(struct ras_comm *c, int rank)
{
	struct ras_rank *rk;

	for (size_t i = 0; i < c->nranks; i++)
		if (c->ranks[i].rank == rank)
			return &c->ranks[i];
	ALLOC_GROW(c->ranks, c->nranks + 1, c->aranks);
	rk = &c->ranks[c->nranks++];
	memset(rk, 0, sizeof(*rk));
	rk->rank = rank;
	rk->pid = -1;
	return rk;
}

static void text_hi(struct ras_comm *c, int op, uint64_t v, int n)
{
	if (!(c->text_known & (1u << op)) || v > c->text_hi[op]) {
		c->text_hi[op] = v;
		c->text_hi_n[op] = n;
	} else if (v == c->text_hi[op]) {
		c->text_hi_n[op] += n;
	}
	c->text_known |= 1u << op;
}

/* "GPU 0 managed by process 4101 on node 10.77.0.1" (GPU may read "0 (NVML 1)") */
static int parse_managed(const char *s, int *gpu, int *pid, char *host)
{
	const char *m = strstr(s, " managed by process ");
	int n = 0;

	if (strncmp(s, "GPU ", 4) || !m)
		return -1;
	*gpu = atoi(s + 4);
	if (sscanf(m, " managed by process %d on node %63s%n", pid, host, &n) != 2)
		return -1;
	return 0;
}

static void add_proc(struct ras_process **v, size_t *n, size_t *alloc, const char *line)
{
	struct ras_process p = { 0 };
	int k = 0;

	/* "  Process 4202 on node 10.77.0.2 managing GPU 0" / "GPUs 0,1" */
	if (sscanf(line, "  Process %d on node %63s managing GPU%*[s] %31[^\n]%n", &p.pid, p.host,
		   p.gpus, &k) < 2 &&
	    sscanf(line, "  Process %d on node %63s managing GPU %31[^\n]", &p.pid, p.host, p.gpus) < 2)
		return;
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = p;
}

static void text_line(struct tstate *t, const char *l)
{
	struct ras_report *r = t->r;
	char hash[40], word[32];
	int g, cidx, rank, gpu, pid, cnt;
	unsigned long long val;
	char host[64];
	const char *dash;

	if (!strcmp(l, "Errors")) {
		t->sec = S_ERRORS;
		t->block = B_NONE;
		return;
	}
	if (!strcmp(l, "Warnings")) {
		t->sec = S_WARNINGS;
		t->block = B_NONE;
		return;
	}
	if (t->sec == S_HEAD) {
		double secs;
		if (sscanf(l, "Communicators... (%lfs)", &secs) == 1)
			r->collection_time_s = secs;
		return;
	}
	if (!*l) {
		if (t->block != B_MISMATCH_COUNTS)
			t->block = B_NONE;
		return;
	}
	if (!strcmp(l, "DEAD")) {
		t->block = B_DEAD;
		return;
	}
	if (!strcmp(l, "INCOMPLETE")) {
		t->block = B_INCOMPLETE;
		return;
	}
	if (!strcmp(l, "TIMEOUT")) {
		t->block = B_TIMEOUT;
		return;
	}
	if (sscanf(l, "#%d-%d (%39[0-9a-fA-F]) %31s", &g, &cidx, hash, word) == 4) {
		t->comm = comm_by_hash(r, hash);
		t->block = !strcmp(word, "INCOMPLETE") ? B_COMM_INCOMPLETE :
			   !strcmp(word, "ERROR") ? B_COMM_ERROR :
			   !strcmp(word, "MISMATCH") ? B_MISMATCH_STATUS : B_NONE;
		t->op = -1;
		return;
	}
	switch (t->block) {
	case B_DEAD:
		add_proc(&r->dead, &r->ndead, &r->adead, l);
		return;
	case B_INCOMPLETE:
		add_proc(&r->incomplete, &r->nincomplete, &r->aincomplete, l);
		return;
	case B_TIMEOUT:
		if (sscanf(l, "  Encountered %d communication timeout", &cnt) == 1)
			r->timeouts = cnt;
		return;
	case B_COMM_INCOMPLETE:
		if (sscanf(l, "  Rank %d -- ", &rank) == 1 && (dash = strstr(l, " -- "))) {
			struct ras_missing *m;
			ALLOC_GROW(t->comm->missing, t->comm->nmissing + 1, t->comm->amissing);
			m = &t->comm->missing[t->comm->nmissing++];
			memset(m, 0, sizeof(*m));
			m->rank = rank;
			m->pid = -1;
			m->unresponsive = 1;	/* text lists the ranks RAS got no data from */
			if (parse_managed(dash + 4, &gpu, &pid, host) == 0) {
				m->cuda_dev = m->nvml_dev = gpu;
				m->pid = pid;
				snprintf(m->host, sizeof(m->host), "%s", host);
			}
		}
		return;
	case B_COMM_ERROR:
		if (!strncmp(l, "  Asynchronous error", 20)) {
			t->async = 1;
			return;
		}
		if (!strncmp(l, "  Initialization error", 22)) {
			t->async = 0;
			return;
		}
		if (sscanf(l, "  %d ranks reported %63[^\n]", &cnt, t->err_text) == 2)
			return;
		if (sscanf(l, "  Rank %d ", &rank) == 1 && (dash = strstr(l, " -- "))) {
			const char *rep = strstr(l, " reported ");
			struct ras_rank *rk = rank_in(t->comm, rank);
			if (rep && rep < dash)
				snprintf(t->err_text, sizeof(t->err_text), "%.*s",
					 (int)(dash - rep - 10), rep + 10);
			snprintf(rk->error_text, sizeof(rk->error_text), "%s", t->err_text);
			if (t->async)
				rk->async_error = -1;	/* an error; its code is not in the text */
			else
				rk->init_state = -1;
			if (parse_managed(dash + 4, &gpu, &pid, host) == 0) {
				rk->cuda_dev = rk->nvml_dev = gpu;
				rk->pid = pid;
				snprintf(rk->host, sizeof(rk->host), "%s", host);
			}
		}
		return;
	case B_MISMATCH_STATUS:
	case B_MISMATCH_COUNTS: {
		char opn[32];
		if (sscanf(l, "  Communicator ranks have different %31s operation counts", opn) == 1) {
			t->op = op_index(opn, strlen(opn));
			if (!strcmp(opn, "collective"))	/* 2.24/2.25: one count for all types */
				t->op = 4;
			t->block = B_MISMATCH_COUNTS;
			return;
		}
		if (!strcmp(l, "  Communicator ranks have different status")) {
			t->block = B_MISMATCH_STATUS;
			t->op = -1;
			return;
		}
		if (t->block != B_MISMATCH_COUNTS || t->op < 0)
			return;
		if (sscanf(l, "  %d ranks have launched up to operation %llu", &cnt, &val) == 2) {
			t->value = val;
			text_hi(t->comm, t->op, val, cnt);
			return;
		}
		if (sscanf(l, "  %d ranks have not launched any operations", &cnt) == 1) {
			t->value = 0;
			text_hi(t->comm, t->op, 0, cnt);
			return;
		}
		if (sscanf(l, "  Rank %d ", &rank) == 1 && (dash = strstr(l, " -- "))) {
			struct ras_rank *rk = rank_in(t->comm, rank);
			uint64_t v = t->value;
			if (sscanf(l, "  Rank %*d has launched up to operation %llu", &val) == 1)
				v = val;
			else if (strstr(l, " has not launched any operations"))
				v = 0;
			rk->counts[t->op] = v;
			rk->counts_known |= 1u << t->op;
			/* a rank line with its own count is a group of one; under a header, counted there */
			if (strstr(l, " has launched up to operation ") || strstr(l, " has not launched any "))
				text_hi(t->comm, t->op, v, 1);
			if (parse_managed(dash + 4, &gpu, &pid, host) == 0) {
				rk->cuda_dev = rk->nvml_dev = gpu;
				rk->pid = pid;
				snprintf(rk->host, sizeof(rk->host), "%s", host);
			}
		}
		return;
	}
	case B_NONE:
		return;
	}
}

static struct ras_report *parse_text(const char *buf, size_t len, struct err *e)
{
	struct ras_report *r = xcalloc(1, sizeof(*r));
	struct tstate t = { .r = r, .op = -1 };
	char ver[32];
	size_t i = 0;
	int lines = 0;

	if (sscanf(buf, "NCCL version %31[0-9.]", ver) != 1) {
		err_set(e, ERR_PARSE, "RAS report: text that does not start with 'NCCL version'");
		ras_report_free(r);
		return NULL;
	}
	set_version(r, ver);
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
		char line[RAS_LINE_MAX];
		if (++lines > 1 << 20)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1),
			 buf + i);
		if (memchr(line, '\0', strlen(line)) == NULL)
			text_line(&t, line);
		i += l + 1;
	}
	return r;
}

struct ras_report *ras_report_parse(const char *buf, size_t len, struct err *e)
{
	size_t i = 0;

	if (memchr(buf, '\0', len)) {
		err_set(e, ERR_PARSE, "RAS report: NUL bytes in the answer");
		return NULL;
	}
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	if (i < len && buf[i] == '{')
		return parse_json(buf, len, e);
	if (len - i >= 13 && !strncmp(buf + i, "NCCL version ", 13))
		return parse_text(buf + i, len - i, e);
	err_set(e, ERR_PARSE, "RAS report: neither JSON nor NCCL's text report: '%.40s'", buf + i);
	return NULL;
}
