/*
 * The reasoner (see reason.h): stream -> rank resolution, signature hits -> findings, the
 * MASTER_ADDR interface suggestion, and the driver that runs the cross-rank rules
 * (reason_rules.c) and ranks what they found. Its helpers are in reason_kit.c. Pure: no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/reason_int.h"
#include "util/addr.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The interface whose address is MASTER_ADDR or in its subnet, as the log shows them. */
static int master_suggestion(struct rs *r)
{
	const struct run_obs *x = r->x;
	static const int guesses[] = { 24, 16 };
	unsigned char a[16];

	if (!r->master_is_v4)
		return 0;
	for (int i = 0; i < x->nifs; i++)
		if (!strcmp(x->ifs[i].addr, x->master)) {
			snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
			snprintf(r->suggest_why, sizeof(r->suggest_why), N_("%s has MASTER_ADDR %s itself"),
				 x->ifs[i].ifname, x->master);
			return 1;
		}
	for (int i = 0; i < x->nifs; i++)
		if (x->ifs[i].prefix > 0 && addr_v4(x->ifs[i].addr, a) &&
		    addr_same_subnet(4, a, r->master_ip, x->ifs[i].prefix)) {
			snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
			snprintf(r->suggest_why, sizeof(r->suggest_why), N_("%s (%s/%d) is in MASTER_ADDR %s's subnet"),
				 x->ifs[i].ifname, x->ifs[i].addr, x->ifs[i].prefix, x->master);
			return 1;
		}
	for (size_t g = 0; g < ARRAY_SIZE(guesses); g++)
		for (int i = 0; i < x->nifs; i++)
			if (x->ifs[i].prefix < 0 && addr_v4(x->ifs[i].addr, a) &&
			    aclass_of(x->ifs[i].ifname, x->ifs[i].addr) == aclass_of("", x->master) &&
			    addr_same_subnet(4, a, r->master_ip, guesses[g])) {
				snprintf(r->suggest_if, sizeof(r->suggest_if), "%s", x->ifs[i].ifname);
				snprintf(r->suggest_why, sizeof(r->suggest_why),
					 N_("%s (%s) shares MASTER_ADDR %s's /%d"), x->ifs[i].ifname,
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
			 N_("%s (%s) is the only private interface in NCCL's NET/Socket list (%s)"),
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

/* A name the kernel could give an interface: what a fix line may paste into a shell. */
static int plausible_ifname(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 15)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-' || *s == '@' || *s == ':'))
			return 0;
	return 1;
}

static void find_suggestion(struct rs *r)
{
	if (!master_suggestion(r))
		socket_list_suggestion(r);
	if (r->suggest_if[0] && !plausible_ifname(r->suggest_if)) {
		/* garbage in a pasted listing: the generic fix, never a broken command */
		r->suggest_if[0] = '\0';
		r->suggest_why[0] = '\0';
		r->suggest_ev[0] = '\0';
		r->suggest_loc.line = 0;
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
	if (!d->network[0] && s->network[0]) {
		memcpy(d->network, s->network, sizeof(d->network));
		d->network_loc = s->network_loc;
	}
	if (!d->net_plugin[0] && s->net_plugin[0]) {
		memcpy(d->net_plugin, s->net_plugin, sizeof(d->net_plugin));
		d->plugin_loc = s->plugin_loc;
	}
	if (!d->cuda_driver && s->cuda_driver) {
		d->cuda_driver = s->cuda_driver;
		d->cuda_driver_loc = s->cuda_driver_loc;
	}
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

/* Whether the NCCL lines of input `file` name more than one host. */
static int multi_host(const struct run_obs *x, uint32_t file)
{
	const char *first = NULL;

	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *s = &x->st[i];
		if (s->file != file || !s->nhost[0])
			continue;
		if (!first)
			first = s->nhost;
		else if (strcmp(first, s->nhost))
			return 1;
	}
	return 0;
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
		/*
		 * Without ranks the processes of one file are one part, so that torch's traceback and
		 * the NCCL lines around it stay together; a file whose NCCL lines come from several hosts
		 * (a bundle pasted from every node) gets a part per host, and its lines without a host go
		 * with the first host's.
		 */
		for (k = 0; k < r->np; k++) {
			if (rank >= 0 ? r->p[k].rank == rank
				      : (r->p[k].rank < 0 && r->p[k].m.file == s->file &&
					 (!s->nhost[0] || !r->p[k].m.nhost[0] ||
					  !strcmp(r->p[k].m.nhost, s->nhost) || !multi_host(x, s->file))))
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

/* The hosts of a signature's parts, for "{node}": "a", "a,b", "a,b and 3 more". */
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
	/* no host named: prose says which node it means, a command argument keeps a placeholder */
	if (!shown)
		strbuf_addstr(sb, sb->len && sb->buf[sb->len - 1] == '=' ? "<node>" : N_("the failing node"));
	else if (more)
		strbuf_addf(sb, " and %zu more", more);
}

/*
 * How the launcher the log names gives each process its GPU, as a fix line ("" when none is
 * named: the torch lines of the row say it for torchrun and plain scripts).
 */
static void launcher_gpu(const struct run_obs *x, struct strbuf *sb)
{
	if (x->ray_loc.line)
		strbuf_addstr(sb, "@ray.remote(num_gpus=1)   # Ray: every worker asks for its GPU; Ray sets CUDA_VISIBLE_DEVICES per worker, so each uses cuda:0 (ray.get_gpu_ids()); if Ray still hands two workers one GPU, upgrade Ray");
	else if (x->srun_loc.line)
		strbuf_addstr(sb, "srun --ntasks-per-node=<GPUs> --gpus-per-task=1 ...   # Slurm: one GPU per task (or torch.cuda.set_device(int(os.environ['SLURM_LOCALID'])))");
	else if (x->launch_loc.line)
		strbuf_addstr(sb, "torch.cuda.set_device(int(os.environ['OMPI_COMM_WORLD_LOCAL_RANK']))   # mpirun: the local rank Open MPI gives each process");
	else if (x->deepspeed_loc.line)
		strbuf_addstr(sb, "deepspeed --num_gpus=<GPUs> ...   # DeepSpeed: one process per GPU, each using its --local_rank / LOCAL_RANK");
	else if (x->accelerate_loc.line)
		strbuf_addstr(sb, "accelerate launch --num_processes=<GPUs> ...   # accelerate: one process per GPU; accelerator.device, not a fixed cuda:0");
}

/*
 * A signature's text with its placeholders filled: "{}" the value captured from the line,
 * "{node}" the hosts whose lines matched, "{env:NAME}" a setting the log echoes ("?" unknown),
 * "{gpu_arch}" the compute capability of the GPU model the log names ("sm_35 (K40)").
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
		} else if (!strncmp(m, "{gpu_arch}", 10)) {
			if (r->x->gpu_sm)
				strbuf_addf(&sb, "sm_%d (%s)", r->x->gpu_sm, r->x->gpu_model);
			else
				strbuf_addstr(&sb, N_("this GPU's architecture"));
			p = m + 10;
		} else if (!strncmp(m, "{launcher_gpu}", 14)) {
			launcher_gpu(r->x, &sb);
			p = m + 14;
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
	int fr_on = rs_flight_recorder_on(x);
	size_t *parts = xmalloc(OBS_SIG_STREAMS * sizeof(*parts)), np;

	for (size_t i = 0; i < explain_nsigs; i++) {
		const struct explain_sig *g = &explain_sigs[i];
		const struct sig_hit *h = &x->hits[i];
		struct finding *d;
		const char *title, *cause, *fix;
		enum confidence conf;
		char *t, *chk;

		if (!h->count)
			continue;
		title = g->title;
		cause = g->cause;
		fix = g->fix;
		if (h->variant) {
			const struct explain_sig_variant *v = &g->variants[h->variant - 1];
			title = v->title;
			cause = v->cause;
			fix = v->fix;
		}
		/* a CUDA message no row knows says what failed, not why: not a medium-confidence cause */
		conf = (g->flags & SIG_VARIANT_CONF) && !h->variant ? CONF_LOW : g->conf;
		d = rs_add(r, g->id, g->sev, conf,
			     (g->flags & SIG_SYMPTOM) ? -400 : (g->flags & SIG_BENIGN) ? -50 : 0);
		rs_sig_parts(r, h, parts, &np);
		/* torch said the flight recorder ran: its dumps exist, asking for them again is wrong */
		finding_rerun(d, fr_on && g->rerun && strstr(g->rerun, FR_SETTING) ? NULL : g->rerun);
		chk = g->check ? expand(r, parts, np, g->check, NULL) : NULL;
		finding_check(d, chk);
		t = expand(r, parts, np, title, h->capture);
		if (!strcmp(g->id, "nccl.net.not_found") && obs_env(x, "NCCL_NET")) {
			free(t);
			t = xasprintf(N_("NCCL_NET=%s names a network this node does not have"),
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
			if ((g->flags & SIG_NET) && strncmp(g->id, "nccl.ib.", 8) &&
			    strncmp(g->id, "nccl.ofi.", 9))
				r->p[parts[p]].sock_sig = 1;
		}
		for (const char *f = fix; f && *f;) {
			size_t n = strcspn(f, "\n");
			if (n == strlen(EXPLAIN_FIX_IFNAME) && !strncmp(f, EXPLAIN_FIX_IFNAME, n)) {
				rs_fix_ifname(r, d);
			} else {
				char *line = xasprintf("%.*s", (int)n, f);
				char *e = expand(r, parts, np, line, h->capture);
				if (!*e)
					;	/* a placeholder with nothing to say */
				else if (fr_on && strstr(e, FR_SETTING))
					rs_fix(d, "%s", RS_FR_READ);
				else
					rs_fix(d, "%s", e);
				free(e);
				free(line);
			}
			f += n + (f[n] == '\n');
		}
		if (chk)
			rs_fix(d, N_("to test it: %s"), chk);
		free(chk);
		if (g->rerun && !(fr_on && strstr(g->rerun, FR_SETTING)) &&
		    (conf < CONF_HIGH || ((g->flags & SIG_NCCL) && !x->nccl_info_lines)))
			rs_fix(d, N_("if the log is not enough: rerun with %s"), g->rerun);
		t = expand(r, parts, np, cause, h->capture);
		/* the words every rule's "%s confidence: ..." starts with: the renderer translates them */
		finding_why(d, "%s confidence: %s", conf == CONF_HIGH ? N_("High") :
			 conf == CONF_MEDIUM ? N_("Medium") : N_("Low"), t);
		free(t);
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
	r.master_is_v4 = x->master[0] && addr_v4(x->master, r.master_ip);
	resolve(&r);
	find_suggestion(&r);

	sig_findings(&r);
	rule_ifname_nomatch(&r);
	rule_ifname_excludes(&r);
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
	rule_torch_nccl(&r);
	rule_master_differs(&r);
	rule_lightning_duplicates(&r);
	rule_nccl_tests(&r);
	rule_nccl_tests_launch(&r);
	rule_gdr_partial(&r);
	rule_shm_container(&r);
	rule_container_hosts(&r);
	rule_common_peer(&r);
	rule_peer_address(&r);
	rule_hosts_bootstrap(&r);
	rule_ib_unused(&r);
	rule_version_mismatch(&r);
	rule_init_progress(&r, net_diag);
	rule_hang_after_init(&r);
	rule_cudagraph_hang(&r);
	rule_lightning(&r, have_errors);
	rule_watchdog_desync(&r);
	rule_missing_ranks(&r);
	rule_torchrun_rdzv(&r);
	rule_forced_protocol(&r);
	rule_wrong_results(&r);
	rule_k8s_sidecar(&r);
	rule_virtual_iface(&r);
	rule_subnet_overlap(&r);
	rule_net_mismatch_ignored(&r);
	rule_env_differs(&r);
	rule_hosts_facts(&r);
	rule_nccl_diag(&r);
	rule_agent_store(&r);
	rule_nvls_hang(&r);
	rule_multinode_blind(&r);
	rule_p2p_topology(&r);
	rule_log_hints(&r);
	rank_findings(&r);

	payload = rs_payload(&r);
	free(r.score);
	free(r.p);
	free(r.st2p);
	return payload;
}
