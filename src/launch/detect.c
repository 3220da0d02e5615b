/* net/launch: see launch.h. */
#include "launch/launch.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/vars.h"
#include "net/sock.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const launcher_names[] = {
	[LAUNCH_FLAGS] = "flags", [LAUNCH_TORCHRUN] = "torchrun", [LAUNCH_OMPI] = "openmpi",
	[LAUNCH_SLURM] = "slurm", [LAUNCH_PMI] = "pmi", [LAUNCH_PMIX] = "pmix",
	[LAUNCH_KUBEFLOW] = "kubeflow", [LAUNCH_ENV] = "env",
};

const char *launcher_name(enum launcher l)
{
	return (unsigned)l < ARRAY_SIZE(launcher_names) ? launcher_names[l] : "?";
}

/* ---- hostlists ---- */

struct hl {
	char **v;
	size_t n, alloc, max;
};

static int hl_add(struct hl *h, const char *s, struct err *e)
{
	if (h->n >= h->max)
		return err_set(e, ERR_PARSE, "the host list names more than %zu hosts", h->max);
	ALLOC_GROW(h->v, h->n + 1, h->alloc);
	h->v[h->n++] = xstrdup(s);
	return 0;
}

/* Expands `rest` (one name, maybe with bracket groups) after the literal `done`. */
static int expand_one(struct hl *h, struct strbuf *done, const char *rest, struct err *e)
{
	const char *lb = strchr(rest, '['), *rb;
	size_t keep = done->len;
	const char *p;

	if (!lb) {
		if (strchr(rest, ']'))
			return err_set(e, ERR_PARSE, "unbalanced ']' in the host list");
		strbuf_addstr(done, rest);
		if (!done->len)
			return err_set(e, ERR_PARSE, "an empty host name in the host list");
		int rc = hl_add(h, done->buf, e);
		strbuf_setlen(done, keep);
		return rc;
	}
	rb = strchr(lb, ']');
	if (!rb || memchr(lb + 1, '[', (size_t)(rb - lb - 1)))
		return err_set(e, ERR_PARSE, "unbalanced '[' in the host list");
	if (memchr(rest, ']', (size_t)(lb - rest)))
		return err_set(e, ERR_PARSE, "unbalanced ']' in the host list");
	strbuf_add(done, rest, (size_t)(lb - rest));
	p = lb + 1;
	if (p == rb)
		return err_set(e, ERR_PARSE, "an empty range '[]' in the host list");
	while (p < rb) {
		const char *comma = memchr(p, ',', (size_t)(rb - p)), *end = comma ? comma : rb;
		const char *dash = memchr(p, '-', (size_t)(end - p));
		char lo_s[16], hi_s[16];
		size_t llen = (size_t)((dash ? dash : end) - p), hlen;
		unsigned long lo, hi;
		char *ep;

		hlen = dash ? (size_t)(end - dash - 1) : llen;
		if (!llen || !hlen || llen >= sizeof(lo_s) || hlen >= sizeof(hi_s))
			return err_set(e, ERR_PARSE, "a malformed range in '[%.*s]'", (int)(rb - lb - 1),
				       lb + 1);
		memcpy(lo_s, p, llen);
		lo_s[llen] = '\0';
		memcpy(hi_s, dash ? dash + 1 : p, hlen);
		hi_s[hlen] = '\0';
		for (size_t i = 0; i < llen; i++)
			if (!isdigit((unsigned char)lo_s[i]))
				return err_set(e, ERR_PARSE, "'%s' in a host range is not a number", lo_s);
		for (size_t i = 0; i < hlen; i++)
			if (!isdigit((unsigned char)hi_s[i]))
				return err_set(e, ERR_PARSE, "'%s' in a host range is not a number", hi_s);
		errno = 0;
		lo = strtoul(lo_s, &ep, 10);
		hi = strtoul(hi_s, &ep, 10);
		if (errno || hi < lo)
			return err_set(e, ERR_PARSE, "the host range %s-%s runs backwards", lo_s, hi_s);
		if (hi - lo >= h->max)
			return err_set(e, ERR_PARSE, "the host list names more than %zu hosts", h->max);
		for (unsigned long v = lo; v <= hi; v++) {
			size_t k = done->len;

			strbuf_addf(done, "%0*lu", (int)llen, v);
			if (expand_one(h, done, rb + 1, e) < 0)
				return -1;
			strbuf_setlen(done, k);
		}
		p = comma ? comma + 1 : rb;
		if (comma && comma + 1 == rb)
			return err_set(e, ERR_PARSE, "a trailing ',' in '[%.*s]'", (int)(rb - lb - 1),
				       lb + 1);
	}
	strbuf_setlen(done, keep);
	return 0;
}

void hostlist_free(char **hosts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(hosts[i]);
	free(hosts);
}

int hostlist_expand(const char *expr, size_t max, char ***hosts, size_t *n, struct err *e)
{
	struct hl h = { .max = max ? max : LAUNCH_HOSTS_MAX };
	struct strbuf item = STRBUF_INIT, done = STRBUF_INIT;
	const char *p = expr ? expr : "";
	int depth = 0, rc = 0;

	*hosts = NULL;
	*n = 0;
	if (!*p)
		return err_set(e, ERR_PARSE, "the host list is empty");
	for (;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if (depth < 0 || depth > 1) {
			rc = err_set(e, ERR_PARSE, "unbalanced brackets in the host list '%s'", expr);
			break;
		}
		if ((*p == ',' && depth == 0) || !*p) {
			if (!item.len) {
				rc = err_set(e, ERR_PARSE, "an empty host name in the host list '%s'", expr);
				break;
			}
			strbuf_reset(&done);
			if (expand_one(&h, &done, item.buf, e) < 0) {
				rc = -1;
				break;
			}
			strbuf_reset(&item);
			if (!*p)
				break;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			rc = err_set(e, ERR_PARSE, "a space in the host list '%s'", expr);
			break;
		}
		strbuf_addch(&item, *p);
	}
	strbuf_release(&item);
	strbuf_release(&done);
	if (rc < 0) {
		hostlist_free(h.v, h.n);
		return -1;
	}
	*hosts = h.v;
	*n = h.n;
	return 0;
}

/* ---- detection ---- */

void launch_release(struct launch *l)
{
	hostlist_free(l->hosts, l->nhosts);
	l->hosts = NULL;
	l->nhosts = 0;
}

/* The integer value of NAME, or -1 unset; -2 with e set when it is not an integer in range. */
static long env_int(const struct envmap *env, const char *name, long min, long max, struct err *e)
{
	const char *v = envmap_get(env, name);
	char *end;
	long x;

	if (!v)
		return -1;
	errno = 0;
	x = strtol(v, &end, 10);
	if (!*v || *end || errno || x < min || x > max) {
		err_set(e, ERR_USAGE, "%s='%s' is not a number in %ld..%ld", name, v, min, max);
		return -2;
	}
	return x;
}

/* The first of `names` that is set (its value in *out, its name returned), or NULL. */
static const char *first_int(const struct envmap *env, const char *const *names, long min,
			     long max, long *out, struct err *e)
{
	for (; *names; names++) {
		long v = env_int(env, *names, min, max, e);

		if (v == -2) {
			*out = -2;
			return *names;
		}
		if (v >= 0) {
			*out = v;
			return *names;
		}
	}
	*out = -1;
	return NULL;
}

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* a launcher variable's name (launch/vars.h) */
#define V(id) lv_name(LV_##id)

struct found {
	long rank, nodes, local, lsize;
	const char *rank_src, *nodes_src;
	char nodes_buf[64], rank_buf[64];
	const char *addr, *addr_src;
	long port;
	const char *port_src;
};

static int take_int(const struct envmap *env, const char *const *names, long min, long max,
		    long *out, const char **src, struct err *e)
{
	*src = first_int(env, names, min, max, out, e);
	return *out == -2 ? -1 : 0;
}

static int detect_env(const struct envmap *env, struct launch *l, struct found *fd, struct err *e)
{
	const char *ign;
	long x;

	if (envmap_get(env, V(TORCHELASTIC_RUN_ID))) {
		l->kind = LAUNCH_TORCHRUN;
		if (take_int(env, NAMES(V(LOCAL_RANK)), 0, 1 << 20, &fd->local, &ign, e) < 0 ||
		    take_int(env, NAMES(V(LOCAL_WORLD_SIZE)), 1, 1 << 20, &fd->lsize, &ign, e) < 0 ||
		    take_int(env, NAMES(V(GROUP_RANK), V(NODE_RANK)), 0, 1 << 20, &fd->rank,
			     &fd->rank_src, e) < 0 ||
		    take_int(env, NAMES(V(GROUP_WORLD_SIZE), V(NNODES)), 1, 1 << 20, &fd->nodes,
			     &fd->nodes_src, e) < 0)
			return -1;
		if (fd->nodes < 0) {
			long ws = env_int(env, V(WORLD_SIZE), 1, 1 << 30, e);

			if (ws == -2)
				return -1;
			if (ws > 0 && fd->lsize > 0 && ws % fd->lsize == 0) {
				fd->nodes = ws / fd->lsize;
				fd->nodes_src = "WORLD_SIZE / LOCAL_WORLD_SIZE";
			}
		}
		return 0;
	}
	if (envmap_get(env, V(OMPI_COMM_WORLD_RANK))) {
		long rank, size;

		l->kind = LAUNCH_OMPI;
		rank = env_int(env, V(OMPI_COMM_WORLD_RANK), 0, 1 << 30, e);
		size = env_int(env, V(OMPI_COMM_WORLD_SIZE), 1, 1 << 30, e);
		fd->local = env_int(env, V(OMPI_COMM_WORLD_LOCAL_RANK), 0, 1 << 20, e);
		fd->lsize = env_int(env, V(OMPI_COMM_WORLD_LOCAL_SIZE), 1, 1 << 20, e);
		if (rank == -2 || size == -2 || fd->local == -2 || fd->lsize == -2)
			return -1;
		if (fd->lsize < 0)
			fd->lsize = 1;
		/* mpirun places a node's ranks next to each other by default (--map-by slot/core) */
		if (rank >= 0 && size > 0 && size % fd->lsize == 0) {
			fd->rank = rank / fd->lsize;
			fd->nodes = size / fd->lsize;
			fd->rank_src = fd->lsize > 1 ? "OMPI_COMM_WORLD_RANK / LOCAL_SIZE"
						     : V(OMPI_COMM_WORLD_RANK);
			fd->nodes_src = fd->lsize > 1 ? "OMPI_COMM_WORLD_SIZE / LOCAL_SIZE"
						      : V(OMPI_COMM_WORLD_SIZE);
			if (fd->lsize > 1)
				snprintf(l->note, sizeof(l->note), "node rank assumes mpirun's default "
					 "placement (a node's ranks are consecutive)");
		}
		return 0;
	}
	if (envmap_get(env, V(SLURM_PROCID))) {
		const char *list = envmap_get(env, V(SLURM_STEP_NODELIST));

		l->kind = LAUNCH_SLURM;
		if (take_int(env, NAMES(V(SLURM_NODEID)), 0, 1 << 20, &fd->rank, &fd->rank_src, e) < 0 ||
		    take_int(env, NAMES(V(SLURM_STEP_NUM_NODES), V(SLURM_JOB_NUM_NODES), V(SLURM_NNODES)),
			     1, 1 << 20, &fd->nodes, &fd->nodes_src, e) < 0 ||
		    take_int(env, NAMES(V(SLURM_LOCALID)), 0, 1 << 20, &fd->local, &ign, e) < 0)
			return -1;
		if (!list)
			list = envmap_get(env, V(SLURM_JOB_NODELIST));
		if (!list)
			list = envmap_get(env, V(SLURM_NODELIST));
		if (list) {
			if (hostlist_expand(list, LAUNCH_HOSTS_MAX, &l->hosts, &l->nhosts, e) < 0) {
				err_prefix(e, "SLURM_JOB_NODELIST='%.100s'", list);
				if (e)
					e->code = ERR_USAGE;
				return -1;
			}
			fd->addr = l->hosts[0];
			fd->addr_src = "the first host of SLURM_JOB_NODELIST";
		}
		return 0;
	}
	if (envmap_get(env, V(PMI_RANK))) {
		long rank, size;

		l->kind = LAUNCH_PMI;
		rank = env_int(env, V(PMI_RANK), 0, 1 << 30, e);
		size = env_int(env, V(PMI_SIZE), 1, 1 << 30, e);
		if (rank == -2 || size == -2 ||
		    take_int(env, NAMES(V(MPI_LOCALRANKID), V(PMI_LOCAL_RANK)), 0, 1 << 20, &fd->local,
			     &ign, e) < 0 ||
		    take_int(env, NAMES(V(MPI_LOCALNRANKS), V(PMI_LOCAL_SIZE)), 1, 1 << 20, &fd->lsize,
			     &ign, e) < 0)
			return -1;
		x = fd->lsize > 0 ? fd->lsize : 1;
		if (rank >= 0 && size > 0 && size % x == 0) {
			fd->rank = rank / x;
			fd->nodes = size / x;
			fd->rank_src = x > 1 ? "PMI_RANK / local size" : V(PMI_RANK);
			fd->nodes_src = x > 1 ? "PMI_SIZE / local size" : V(PMI_SIZE);
		}
		return 0;
	}
	if (envmap_get(env, V(PMIX_RANK))) {
		/* PMIx gives sizes only through PMIx_Get: the count must come from elsewhere */
		l->kind = LAUNCH_PMIX;
		if (take_int(env, NAMES(V(PMIX_RANK)), 0, 1 << 30, &fd->rank, &fd->rank_src, e) < 0)
			return -1;
		return 0;
	}
	if (envmap_get(env, V(PET_NNODES)) || envmap_get(env, V(PET_NODE_RANK))) {
		const char *nn = envmap_get(env, V(PET_NNODES));

		l->kind = LAUNCH_KUBEFLOW;
		if (nn && strchr(nn, ':'))
			return err_set(e, ERR_USAGE, "PET_NNODES='%s' is an elastic range: pass --nodes N "
				       "with the node count of this run", nn);
		if (take_int(env, NAMES(V(PET_NODE_RANK)), 0, 1 << 20, &fd->rank, &fd->rank_src, e) < 0 ||
		    take_int(env, NAMES(V(PET_NNODES)), 1, 1 << 20, &fd->nodes, &fd->nodes_src, e) < 0)
			return -1;
		if (envmap_get(env, V(PET_MASTER_ADDR))) {
			fd->addr = envmap_get(env, V(PET_MASTER_ADDR));
			fd->addr_src = V(PET_MASTER_ADDR);
		}
		if (take_int(env, NAMES(V(PET_MASTER_PORT)), 1, 65535, &fd->port, &fd->port_src, e) < 0)
			return -1;
		return 0;
	}
	l->kind = LAUNCH_ENV;
	if (take_int(env, NAMES(V(NODE_RANK), V(GROUP_RANK)), 0, 1 << 20, &fd->rank, &fd->rank_src,
		     e) < 0 ||
	    take_int(env, NAMES(V(NNODES)), 1, 1 << 20, &fd->nodes, &fd->nodes_src, e) < 0 ||
	    take_int(env, NAMES(V(LOCAL_RANK)), 0, 1 << 20, &fd->local, &ign, e) < 0)
		return -1;
	if (fd->nodes < 0) {
		long ws = env_int(env, V(WORLD_SIZE), 1, 1 << 30, e), lws;

		if (ws == -2)
			return -1;
		lws = env_int(env, V(LOCAL_WORLD_SIZE), 1, 1 << 20, e);
		if (lws == -2)
			return -1;
		if (ws > 0 && lws > 0 && ws % lws == 0) {
			fd->nodes = ws / lws;
			fd->nodes_src = "WORLD_SIZE / LOCAL_WORLD_SIZE";
		} else if (ws > 0 && lws < 0 && fd->local < 0) {
			/* a script that exports WORLD_SIZE for one process per node */
			fd->nodes = ws;
			fd->nodes_src = V(WORLD_SIZE);
		}
	}
	return 0;
}

int launch_detect(const struct envmap *env, const struct launch_flags *f, struct launch *l,
		  struct err *e)
{
	struct found fd = { .rank = -1, .nodes = -1, .local = -1, .lsize = -1, .port = -1 };
	char host[256];
	int port = -1;

	memset(l, 0, sizeof(*l));
	l->local_rank = l->local_size = -1;
	l->participate = 1;
	if (detect_env(env, l, &fd, e) < 0)
		return -1;

	/* MASTER_ADDR / MASTER_PORT: what the job itself will use, over a launcher's guess */
	if (envmap_get(env, V(MASTER_ADDR)) && *envmap_get(env, V(MASTER_ADDR))) {
		fd.addr = envmap_get(env, V(MASTER_ADDR));
		fd.addr_src = V(MASTER_ADDR);
	}
	if (envmap_get(env, V(MASTER_PORT))) {
		if (take_int(env, NAMES(V(MASTER_PORT)), 1, 65535, &fd.port, &fd.port_src, e) < 0)
			return -1;
	}
	if (f && f->master) {
		if (net_parse_hostport(f->master, host, sizeof(host), &port) == 0) {
			fd.port = port;
			fd.port_src = "--master";
		} else if (strchr(f->master, ':') && !strchr(f->master, '[') &&
			   strchr(f->master, ':') == strrchr(f->master, ':')) {
			return err_set(e, ERR_USAGE, "--master '%s' is not ADDR:PORT", f->master);
		} else {
			snprintf(host, sizeof(host), "%s", f->master);
		}
		fd.addr = host;
		fd.addr_src = "--master";
	}
	if (f && f->nodes >= 0) {
		fd.nodes = f->nodes;
		fd.nodes_src = "--nodes";
	}
	if (f && f->node_rank >= 0) {
		fd.rank = f->node_rank;
		fd.rank_src = "--node-rank";
		fd.local = -1;	/* the user chose this process explicitly */
	}
	if (l->kind == LAUNCH_ENV && fd.rank < 0 && fd.nodes < 0 && !fd.addr && !(f && f->master))
		return err_set(e, ERR_USAGE, "no rendezvous given: pass --master ADDR:PORT --nodes N "
			       "--node-rank R, or run under torchrun, srun, mpirun or with "
			       "MASTER_ADDR, MASTER_PORT, NODE_RANK and NNODES set");
	if (fd.nodes < 0)
		return err_set(e, ERR_USAGE, "no node count (%s launch): pass --nodes N or set NNODES",
			       launcher_name(l->kind));
	if (fd.nodes < 1 || fd.nodes > LAUNCH_HOSTS_MAX)
		return err_set(e, ERR_USAGE, "the node count %ld is outside 1..%d", fd.nodes,
			       LAUNCH_HOSTS_MAX);
	if (fd.rank < 0)
		return err_set(e, ERR_USAGE, "no node rank (%s launch): pass --node-rank R or set "
			       "NODE_RANK", launcher_name(l->kind));
	if (fd.rank >= fd.nodes)
		return err_set(e, ERR_USAGE, "node rank %ld (%s) is not below the node count %ld (%s)",
			       fd.rank, fd.rank_src ? fd.rank_src : "?", fd.nodes,
			       fd.nodes_src ? fd.nodes_src : "?");
	if (!fd.addr && fd.nodes > 1) {
		if (fd.rank != 0)
			return err_set(e, ERR_USAGE, "no master address (%s launch): pass --master "
				       "ADDR:PORT or set MASTER_ADDR%s", launcher_name(l->kind),
				       l->kind == LAUNCH_OMPI ? " (mpirun -x MASTER_ADDR=...)" : "");
	}
	if (fd.addr && strlen(fd.addr) >= sizeof(l->master_addr))
		return err_set(e, ERR_USAGE, "the master address is too long");
	if (l->kind == LAUNCH_ENV && f && f->master && f->nodes >= 0 && f->node_rank >= 0)
		l->kind = LAUNCH_FLAGS;

	snprintf(l->master_addr, sizeof(l->master_addr), "%s", fd.addr ? fd.addr : "");
	l->master_port = fd.port > 0 ? (int)fd.port : LAUNCH_DEFAULT_PORT;
	l->node_rank = (int)fd.rank;
	l->nnodes = (int)fd.nodes;
	l->local_rank = (int)fd.local;
	l->local_size = (int)fd.lsize;
	snprintf(l->src_addr, sizeof(l->src_addr), "%s", fd.addr_src ? fd.addr_src : "");
	snprintf(l->src_port, sizeof(l->src_port), "%s",
		 fd.port_src ? fd.port_src : "torch's default 29500");
	snprintf(l->src_rank, sizeof(l->src_rank), "%s", fd.rank_src ? fd.rank_src : "");
	snprintf(l->src_nodes, sizeof(l->src_nodes), "%s", fd.nodes_src ? fd.nodes_src : "");
	if (l->local_rank > 0) {
		l->participate = 0;
		snprintf(l->note, sizeof(l->note), "local rank %d of node %d (%s): only local rank 0 "
			 "of each node takes part in 'cluster'", l->local_rank, l->node_rank,
			 launcher_name(l->kind));
	}
	if (l->nhosts && (size_t)l->nnodes != l->nhosts) {
		/* the list is of the job, the step may be smaller: keep it only when it matches */
		launch_release(l);
	}
	return 0;
}
