/* Flight-recorder dumps: pickle tree -> typed records, strictly (see fr.h). */
#include "attach/fr.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attach/pickle.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Sizes nest two levels (a list per tensor); anything deeper is not a dump. */
#define FR_MAX_DEPTH 4

const char *fr_state_name(enum fr_state s)
{
	switch (s) {
	case FR_SCHEDULED: return "scheduled";
	case FR_STARTED: return "started";
	case FR_COMPLETED: return "completed";
	}
	return "?";
}

const char *fr_op_name(const struct fr_entry *en)
{
	const char *c = en->profiling_name ? strchr(en->profiling_name, ':') : NULL;

	return c ? c + 1 : (en->profiling_name ? en->profiling_name : "?");
}

/*
 * The memo lets a small pickle share one big value everywhere; copies out of it are budgeted
 * so that a dump cannot expand into more memory than a real one of the input's size would use.
 */
#define FR_COPY_BUDGET (64u << 20)
#define FR_MAX_FRAMES 1024
#define FR_MAX_SIZES_TEXT 65536

struct dec {
	struct err *e;
	size_t entry;		/* index of the entry being decoded, or SIZE_MAX */
	size_t budget;		/* bytes of strings it may still copy */
};

static int spend(struct dec *d, size_t n)
{
	if (n > d->budget)
		return err_set(d->e, ERR_PARSE, "the dump expands beyond %u MiB of text (a memo bomb?)",
			       FR_COPY_BUDGET >> 20);
	d->budget -= n;
	return 0;
}

static int wrong(struct dec *d, const char *key, const char *want, const struct pk_value *v)
{
	if (d->entry != SIZE_MAX)
		return err_set(d->e, ERR_PARSE, "entries[%zu].%s is %s, expected %s", d->entry, key,
			       v ? pk_type_name(v->type) : "missing", want);
	return err_set(d->e, ERR_PARSE, "'%s' is %s, expected %s", key,
		       v ? pk_type_name(v->type) : "missing", want);
}

static int get_str(struct dec *d, const struct pk_value *dict, const char *key, int required,
		   char **out)
{
	const struct pk_value *v = pk_get(dict, key);

	*out = NULL;
	if (!v && !required)
		return 0;
	if (!v || v->type != PK_STR)
		return wrong(d, key, "a string", v);
	if (spend(d, v->u.str.len) < 0)
		return -1;
	*out = xstrndup(v->u.str.s, v->u.str.len);
	return 0;
}

static int get_int(struct dec *d, const struct pk_value *dict, const char *key, int required,
		   int64_t *out)
{
	const struct pk_value *v = pk_get(dict, key);

	if (!v && !required)
		return 0;
	if (!v || v->type != PK_INT)
		return wrong(d, key, "an integer", v);
	*out = v->u.i;
	return 0;
}

static int get_long(struct dec *d, const struct pk_value *dict, const char *key, int required,
		    long *out)
{
	int64_t i = 0;

	if (get_int(d, dict, key, required, &i) < 0)
		return -1;
	if (pk_get(dict, key))
		*out = (long)i;
	return 0;
}

static int get_bool(struct dec *d, const struct pk_value *dict, const char *key, int *out)
{
	const struct pk_value *v = pk_get(dict, key);

	if (!v)
		return 0;
	if (v->type != PK_BOOL)
		return wrong(d, key, "a bool", v);
	*out = v->u.b;
	return 0;
}

/* [[1024], [2, 3]]: a list (per tensor) of lists of ints. */
static int get_sizes(struct dec *d, const struct pk_value *dict, const char *key, char **out)
{
	const struct pk_value *v = pk_get(dict, key);
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (!v || v->type != PK_LIST)
		return wrong(d, key, "a list of size lists", v);
	strbuf_addch(&sb, '[');
	for (size_t i = 0; i < v->u.c.n; i++) {
		const struct pk_value *t = v->u.c.items[i];
		if (t->type != PK_LIST) {
			strbuf_release(&sb);
			return wrong(d, key, "a list of size lists", t);
		}
		strbuf_addstr(&sb, i ? ", [" : "[");
		for (size_t j = 0; j < t->u.c.n; j++) {
			if (t->u.c.items[j]->type != PK_INT) {
				strbuf_release(&sb);
				return wrong(d, key, "integer sizes", t->u.c.items[j]);
			}
			strbuf_addf(&sb, "%s%" PRId64, j ? ", " : "", t->u.c.items[j]->u.i);
			if (sb.len > FR_MAX_SIZES_TEXT) {
				strbuf_release(&sb);
				return err_set(d->e, ERR_PARSE, "entries[%zu].%s is longer than any tensor "
					       "list", d->entry, key);
			}
		}
		strbuf_addch(&sb, ']');
	}
	strbuf_addch(&sb, ']');
	if (spend(d, sb.len) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

static int get_dtypes(struct dec *d, const struct pk_value *dict, const char *key, char **out)
{
	const struct pk_value *v = pk_get(dict, key);
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (!v || v->type != PK_LIST)
		return wrong(d, key, "a list of dtype names", v);
	for (size_t i = 0; i < v->u.c.n; i++) {
		const struct pk_value *t = v->u.c.items[i];
		if (t->type != PK_STR) {
			strbuf_release(&sb);
			return wrong(d, key, "dtype names", t);
		}
		if (i)
			strbuf_addstr(&sb, ", ");
		strbuf_add(&sb, t->u.str.s, t->u.str.len);
		if (sb.len > FR_MAX_SIZES_TEXT) {
			strbuf_release(&sb);
			return err_set(d->e, ERR_PARSE, "entries[%zu].%s is longer than any dtype list",
				       d->entry, key);
		}
	}
	if (spend(d, sb.len) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

static int get_frames(struct dec *d, const struct pk_value *dict, struct fr_entry *en)
{
	const struct pk_value *v = pk_get(dict, "frames");

	if (!v)
		return 0;	/* dumped without stack traces */
	if (v->type != PK_LIST)
		return wrong(d, "frames", "a list", v);
	if (v->u.c.n > FR_MAX_FRAMES)
		return err_set(d->e, ERR_PARSE, "entries[%zu].frames: %zu frames, more than %d",
			       d->entry, v->u.c.n, FR_MAX_FRAMES);
	en->frames = xcalloc(v->u.c.n ? v->u.c.n : 1, sizeof(*en->frames));
	for (size_t i = 0; i < v->u.c.n; i++) {
		const struct pk_value *f = v->u.c.items[i];
		struct fr_frame *fr = &en->frames[en->nframes];
		if (f->type != PK_DICT)
			return wrong(d, "frames[]", "a dict", f);
		en->nframes++;
		if (get_str(d, f, "name", 1, &fr->name) < 0 ||
		    get_str(d, f, "filename", 1, &fr->filename) < 0 ||
		    get_long(d, f, "line", 1, &fr->line) < 0)
			return -1;
	}
	return 0;
}

static int decode_entry(struct dec *d, const struct pk_value *v, struct fr_entry *en)
{
	const struct pk_value *pg, *st;
	int64_t t = 0;

	if (v->type != PK_DICT)
		return wrong(d, "(entry)", "a dict", v);
	pg = pk_get(v, "process_group");
	if (!pg || pg->type != PK_TUPLE || pg->u.c.n != 2 || pg->u.c.items[0]->type != PK_STR ||
	    pg->u.c.items[1]->type != PK_STR)
		return wrong(d, "process_group", "a (name, desc) tuple", pg);
	if (spend(d, pg->u.c.items[0]->u.str.len + pg->u.c.items[1]->u.str.len) < 0)
		return -1;
	en->pg_name = xstrndup(pg->u.c.items[0]->u.str.s, pg->u.c.items[0]->u.str.len);
	en->pg_desc = xstrndup(pg->u.c.items[1]->u.str.s, pg->u.c.items[1]->u.str.len);
	st = pk_get(v, "state");
	if (!st || st->type != PK_STR)
		return wrong(d, "state", "a string", st);
	if (!strcmp(st->u.str.s, "scheduled"))
		en->state = FR_SCHEDULED;
	else if (!strcmp(st->u.str.s, "started"))
		en->state = FR_STARTED;
	else if (!strcmp(st->u.str.s, "completed"))
		en->state = FR_COMPLETED;
	else
		return err_set(d->e, ERR_PARSE, "entries[%zu].state '%.32s' is not scheduled, started "
			       "or completed", d->entry, st->u.str.s);
	if (get_long(d, v, "record_id", 1, &en->record_id) < 0 ||
	    get_long(d, v, "pg_id", 1, &en->pg_id) < 0 ||
	    get_long(d, v, "collective_seq_id", 1, &en->collective_seq_id) < 0 ||
	    get_long(d, v, "p2p_seq_id", 1, &en->p2p_seq_id) < 0 ||
	    get_long(d, v, "op_id", 1, &en->op_id) < 0 ||
	    get_str(d, v, "profiling_name", 1, &en->profiling_name) < 0 ||
	    get_int(d, v, "time_created_ns", 1, &t) < 0 ||
	    get_sizes(d, v, "input_sizes", &en->input_sizes) < 0 ||
	    get_dtypes(d, v, "input_dtypes", &en->input_dtypes) < 0 ||
	    get_sizes(d, v, "output_sizes", &en->output_sizes) < 0 ||
	    get_dtypes(d, v, "output_dtypes", &en->output_dtypes) < 0 ||
	    get_bool(d, v, "retired", &en->retired) < 0 ||
	    get_bool(d, v, "is_p2p", &en->is_p2p) < 0 ||
	    get_long(d, v, "timeout_ms", 0, &en->timeout_ms) < 0 ||
	    get_str(d, v, "thread_name", 0, &en->thread_name) < 0 ||
	    get_frames(d, v, en) < 0)
		return -1;
	en->time_created_ns = t;
	{
		const struct pk_value *du = pk_get(v, "duration_ms");
		if (du && du->type != PK_FLOAT && du->type != PK_NONE)
			return wrong(d, "duration_ms", "a float", du);
		if (du && du->type == PK_FLOAT) {
			en->has_duration = 1;
			en->duration_ms = du->u.f;
		}
	}
	/* p2p entries before is_p2p existed: the name says "send"/"recv" */
	if (!pk_get(v, "is_p2p") && en->profiling_name &&
	    (strstr(en->profiling_name, ":send") || strstr(en->profiling_name, ":recv")))
		en->is_p2p = 1;
	return 0;
}

/* "[0, 1, 2]" -> {0, 1, 2}; leaves the list empty when it does not parse. */
static void parse_ranks(struct fr_pg *pg)
{
	const char *p = pg->ranks;
	size_t alloc = 0;

	if (!p || *p != '[')
		return;
	p++;
	while (*p == ' ')
		p++;
	while (*p && *p != ']') {
		char *end;
		long r = strtol(p, &end, 10);
		if (end == p || r < 0 || r > 1 << 24 || pg->nrank_list >= 1 << 16)
			goto bad;
		ALLOC_GROW(pg->rank_list, pg->nrank_list + 1, alloc);
		pg->rank_list[pg->nrank_list++] = (int)r;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		while (*p == ' ')
			p++;
	}
	if (*p == ']')
		return;
bad:
	free(pg->rank_list);
	pg->rank_list = NULL;
	pg->nrank_list = 0;
}

static int decode(struct dec *d, const struct pk_value *root, struct fr_dump *fd)
{
	const struct pk_value *v;

	if (root->type != PK_DICT)
		return err_set(d->e, ERR_PARSE, "the dump is a %s, not a dict", pk_type_name(root->type));
	if (get_str(d, root, "version", 1, &fd->version) < 0 ||
	    get_str(d, root, "comm_lib_version", 0, &fd->comm_lib_version) < 0)
		return -1;
	if (strncmp(fd->version, "2.", 2))
		return err_set(d->e, ERR_PARSE, "flight-recorder format version '%.16s' is not 2.x",
			       fd->version);
	v = pk_get(root, "pg_config");
	if (v) {
		if (v->type != PK_DICT)
			return wrong(d, "pg_config", "a dict", v);
		fd->pgs = xcalloc(v->u.c.n ? v->u.c.n : 1, sizeof(*fd->pgs));
		for (size_t i = 0; i < v->u.c.n; i++) {
			const struct pk_value *pg = v->u.c.items[2 * i + 1];
			struct fr_pg *p = &fd->pgs[fd->npgs];
			if (pg->type != PK_DICT)
				return wrong(d, "pg_config[]", "a dict", pg);
			fd->npgs++;
			if (get_str(d, pg, "name", 1, &p->name) < 0 ||
			    get_str(d, pg, "desc", 0, &p->desc) < 0 ||
			    get_str(d, pg, "ranks", 1, &p->ranks) < 0)
				return -1;
			parse_ranks(p);
		}
	}
	v = pk_get(root, "pg_status");
	if (v) {
		if (v->type != PK_DICT)
			return wrong(d, "pg_status", "a dict", v);
		fd->status = xcalloc(v->u.c.n ? v->u.c.n : 1, sizeof(*fd->status));
		for (size_t i = 0; i < v->u.c.n; i++) {
			const struct pk_value *k = v->u.c.items[2 * i], *s = v->u.c.items[2 * i + 1];
			struct fr_pg_status *ps = &fd->status[fd->nstatus];
			if (k->type != PK_STR || s->type != PK_DICT)
				return wrong(d, "pg_status[]", "a dict under a string key", s);
			fd->nstatus++;
			if (spend(d, k->u.str.len) < 0)
				return -1;
			ps->pg_id = xstrndup(k->u.str.s, k->u.str.len);
			ps->last_enqueued = ps->last_started = ps->last_completed = -1;
			if (get_long(d, s, "last_enqueued_collective", 1, &ps->last_enqueued) < 0 ||
			    get_long(d, s, "last_started_collective", 1, &ps->last_started) < 0 ||
			    get_long(d, s, "last_completed_collective", 1, &ps->last_completed) < 0)
				return -1;
		}
	}
	v = pk_get(root, "entries");
	if (!v)
		return 0;	/* dumped with includecollectives=false, or nothing recorded */
	if (v->type != PK_LIST)
		return wrong(d, "entries", "a list", v);
	fd->entries = xcalloc(v->u.c.n ? v->u.c.n : 1, sizeof(*fd->entries));
	for (size_t i = 0; i < v->u.c.n; i++) {
		d->entry = i;
		fd->nentries++;
		if (decode_entry(d, v->u.c.items[i], &fd->entries[i]) < 0)
			return -1;
	}
	d->entry = SIZE_MAX;
	return 0;
}

struct fr_dump *fr_dump_parse(const void *data, size_t len, int rank, const char *path,
			      struct err *e)
{
	struct dec d = { e, SIZE_MAX, FR_COPY_BUDGET };
	struct pk_doc *doc = pk_load(data, len, NULL, e);
	struct fr_dump *fd;

	if (!doc)
		return NULL;
	fd = xcalloc(1, sizeof(*fd));
	fd->rank = rank;
	fd->path = xstrdup(path ? path : "");
	if (decode(&d, pk_root(doc), fd) < 0) {
		fr_dump_free(fd);
		fd = NULL;
	}
	pk_free(doc);
	return fd;
}

void fr_dump_free(struct fr_dump *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nentries; i++) {
		struct fr_entry *en = &d->entries[i];
		free(en->pg_name);
		free(en->pg_desc);
		free(en->profiling_name);
		free(en->input_sizes);
		free(en->input_dtypes);
		free(en->output_sizes);
		free(en->output_dtypes);
		free(en->thread_name);
		for (size_t j = 0; j < en->nframes; j++) {
			free(en->frames[j].name);
			free(en->frames[j].filename);
		}
		free(en->frames);
	}
	free(d->entries);
	for (size_t i = 0; i < d->npgs; i++) {
		free(d->pgs[i].name);
		free(d->pgs[i].desc);
		free(d->pgs[i].ranks);
		free(d->pgs[i].rank_list);
	}
	free(d->pgs);
	for (size_t i = 0; i < d->nstatus; i++)
		free(d->status[i].pg_id);
	free(d->status);
	free(d->version);
	free(d->comm_lib_version);
	free(d->path);
	free(d);
}

/* The rank a dump file is for: its name is <prefix><rank>. -1 when it is not such a name. */
static int file_rank(const char *name, const char *prefix)
{
	size_t n = strlen(name), i = n;
	long r;

	if (prefix && strncmp(name, prefix, strlen(prefix)))
		return -1;
	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == n || n - i > 7 || (prefix && i != strlen(prefix)))
		return -1;
	r = strtol(name + i, NULL, 10);
	return (int)r;
}

static int read_capped(const char *path, size_t cap, struct strbuf *sb, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return err_sys(e, "cannot open '%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(e, ERR_PARSE, "'%s' is not a regular file", path);
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (sb->len + (size_t)n > cap) {
			close(fd);
			return err_set(e, ERR_PARSE, "'%s' is larger than %zu bytes", path, cap);
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	if (n < 0)
		return err_sys(e, "cannot read '%s'", path);
	return 0;
}

static int starts_like_pickle(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	unsigned char c = 0;
	int ok;

	if (fd < 0)
		return 0;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, &c, 1) == 1 && c == 0x80;
	close(fd);
	return ok;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct fr_dump *x = *(struct fr_dump *const *)a, *y = *(struct fr_dump *const *)b;

	return x->rank - y->rank;
}

int fr_load_dir(const char *dir, const char *prefix, size_t max_files, size_t max_bytes,
		struct fr_set *set, struct err *e)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t seen = 0;

	if (!dp)
		return err_sys(e, "cannot read the flight-recorder directory '%s'", dir);
	while ((de = readdir(dp)) && seen < max_files) {
		struct strbuf sb = STRBUF_INIT;
		struct err fe = ERR_INIT;
		struct fr_dump *d;
		char *path;
		int rank;
		size_t nl = strlen(de->d_name);

		if (de->d_name[0] == '.' || (nl > 5 && !strcmp(de->d_name + nl - 5, ".pipe")))
			continue;
		rank = file_rank(de->d_name, prefix);
		if (rank < 0)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		/* without a prefix, a file is a candidate only when it starts like a pickle */
		if (!prefix && !starts_like_pickle(path)) {
			free(path);
			continue;
		}
		seen++;
		if (read_capped(path, max_bytes, &sb, &fe) == 0 &&
		    (d = fr_dump_parse(sb.buf, sb.len, rank, path, &fe))) {
			int dup = 0;
			for (size_t i = 0; i < set->n; i++)
				dup |= set->v[i]->rank == rank;
			if (dup) {
				ALLOC_GROW(set->bad, set->nbad + 1, set->abad);
				set->bad[set->nbad++] = xasprintf("%s: a second dump for rank %d (ignored)",
								  path, rank);
				fr_dump_free(d);
			} else {
				ALLOC_GROW(set->v, set->n + 1, set->alloc);
				set->v[set->n++] = d;
			}
		} else {
			ALLOC_GROW(set->bad, set->nbad + 1, set->abad);
			set->bad[set->nbad++] = xasprintf("%s: %s", path, fe.msg);
		}
		strbuf_release(&sb);
		free(path);
	}
	closedir(dp);
	if (set->n > 1)
		qsort(set->v, set->n, sizeof(*set->v), cmp_rank);
	return 0;
}

void fr_set_sort(struct fr_set *set)
{
	if (set->n > 1)
		qsort(set->v, set->n, sizeof(*set->v), cmp_rank);
}

void fr_set_release(struct fr_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		fr_dump_free(set->v[i]);
	free(set->v);
	for (size_t i = 0; i < set->nbad; i++)
		free(set->bad[i]);
	free(set->bad);
	memset(set, 0, sizeof(*set));
}
