/*
 * attach_reason(), the flight-recorder half: aligns the ranks' dumps per process group and says
 * which collective a rank never entered, or where ranks disagree (see reason.c for the order
 * of trust).
 */
#include "attach/reason_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
/* ---- flight recorder ---- */

struct frpg {
	const char *name, *desc;
	const struct fr_pg *cfg;	/* from the first dump that has it */
};

static const struct fr_entry *last_coll(const struct fr_dump *dp, const char *pg)
{
	const struct fr_entry *best = NULL;

	for (size_t i = 0; i < dp->nentries; i++) {
		const struct fr_entry *en = &dp->entries[i];
		if (en->is_p2p || strcmp(en->pg_name, pg))
			continue;
		if (!best || en->collective_seq_id > best->collective_seq_id)
			best = en;
	}
	return best;
}

static const struct fr_entry *coll_at(const struct fr_dump *dp, const char *pg, long seq)
{
	for (size_t i = 0; i < dp->nentries; i++) {
		const struct fr_entry *en = &dp->entries[i];
		if (!en->is_p2p && !strcmp(en->pg_name, pg) && en->collective_seq_id == seq)
			return en;
	}
	return NULL;
}

static void add_stack(struct finding *f, int rank, const struct fr_entry *en, const char *what)
{
	size_t shown = 0;

	if (!en || !en->nframes)
		return;
	finding_evidence(f, "rank %d %s %s #%ld, Python stack:", rank, what, fr_op_name(en),
			 en->collective_seq_id);
	for (size_t i = 0; i < en->nframes && shown < 8; i++) {
		const struct fr_frame *fr = &en->frames[i];
		/* torch's own wrappers say nothing about the user's code */
		if (strstr(fr->filename, "/torch/distributed/") && i + 1 < en->nframes)
			continue;
		finding_evidence(f, "  %s (%s:%ld)", fr->name, fr->filename, fr->line);
		shown++;
	}
}

static const char *pg_label(const struct frpg *pg)
{
	return pg->desc && *pg->desc ? pg->desc : pg->name;
}

static void fr_mismatch(struct ctx *c, const struct frpg *pg, const struct fr_dump *const *dumps,
			size_t n, long lo, long hi)
{
	int seen_op = 0, seen_size = 0, seen_dtype = 0;

	for (long s = lo; s <= hi; s++) {
		const struct fr_entry *ref = NULL;
		int refrank = -1;
		for (size_t i = 0; i < n; i++) {
			const struct fr_entry *en = coll_at(dumps[i], pg->name, s);
			const char *kind = NULL, *id = NULL;
			char a[160], b[160];
			struct finding *f;
			int *seen;
			if (!en)
				continue;
			if (!ref) {
				ref = en;
				refrank = dumps[i]->rank;
				continue;
			}
			if (strcmp(ref->profiling_name, en->profiling_name)) {
				kind = "operation";
				id = "attach.fr.op_mismatch";
				seen = &seen_op;
				snprintf(a, sizeof(a), "%s", ref->profiling_name);
				snprintf(b, sizeof(b), "%s", en->profiling_name);
			} else if (strcmp(ref->input_dtypes, en->input_dtypes) ||
				   strcmp(ref->output_dtypes, en->output_dtypes)) {
				kind = "dtype";
				id = "attach.fr.dtype_mismatch";
				seen = &seen_dtype;
				snprintf(a, sizeof(a), "%s -> %s", ref->input_dtypes, ref->output_dtypes);
				snprintf(b, sizeof(b), "%s -> %s", en->input_dtypes, en->output_dtypes);
			} else if (strcmp(ref->input_sizes, en->input_sizes) ||
				   strcmp(ref->output_sizes, en->output_sizes)) {
				kind = "size";
				id = "attach.fr.size_mismatch";
				seen = &seen_size;
				snprintf(a, sizeof(a), "%.70s -> %.70s", ref->input_sizes, ref->output_sizes);
				snprintf(b, sizeof(b), "%.70s -> %.70s", en->input_sizes, en->output_sizes);
			} else {
				continue;
			}
			if (*seen)
				continue;
			*seen = 1;
			f = finding_add(c->fs, SEV_ERROR, id, "collective #%ld of process group '%s': rank "
					"%d and rank %d disagree on the %s", s, pg_label(pg), refrank,
					dumps[i]->rank, kind);
			finding_rank(f, refrank);
			finding_rank(f, dumps[i]->rank);
			finding_why(f, "Every rank of a process group must call the same collective, with the "
				    "same sizes and dtypes, in the same order. A mismatch hangs the job or "
				    "corrupts data silently; NCCL does not check it.");
			finding_fix(f, N_("fix the code path that builds this tensor on rank %d (the stacks "
				    "below show where each rank called it)"), dumps[i]->rank);
			finding_rerun(f, "TORCH_DISTRIBUTED_DEBUG=DETAIL (checks shapes and ops at each "
				      "collective and raises instead of hanging)");
			finding_evidence(f, "rank %d: %s", refrank, a);
			finding_evidence(f, "rank %d: %s", dumps[i]->rank, b);
			add_stack(f, refrank, ref, "called");
			add_stack(f, dumps[i]->rank, en, "called");
			reason_verdict(c, 0, "rank %d and rank %d disagree on the %s of collective #%ld (%s) of "
				"process group '%s'", refrank, dumps[i]->rank, kind, s, fr_op_name(ref),
				pg_label(pg));
		}
	}
}

static void fr_pg_reason(struct ctx *c, const struct frpg *pg)
{
	const struct fr_set *set = &c->d->fr;
	const struct fr_dump **dumps = xcalloc(set->n ? set->n : 1, sizeof(*dumps));
	const struct fr_entry **last = xcalloc(set->n ? set->n : 1, sizeof(*last));
	struct strbuf nodump = STRBUF_INIT;
	size_t n = 0;
	long lo = -1, hi = -1, first_common = 0;

	for (size_t i = 0; i < set->n; i++) {
		const struct fr_entry *en = last_coll(set->v[i], pg->name);
		if (!en)
			continue;
		dumps[n] = set->v[i];
		last[n++] = en;
		if (lo < 0 || en->collective_seq_id < lo)
			lo = en->collective_seq_id;
		if (en->collective_seq_id > hi)
			hi = en->collective_seq_id;
	}
	/* ranks of the group that wrote no dump */
	if (pg->cfg && pg->cfg->rank_list) {
		for (size_t r = 0; r < pg->cfg->nrank_list; r++) {
			int have = 0;
			for (size_t i = 0; i < set->n; i++)
				have |= set->v[i]->rank == pg->cfg->rank_list[r];
			if (!have)
				strbuf_addf(&nodump, "%s%d", nodump.len ? ", " : "", pg->cfg->rank_list[r]);
		}
	}
	if (nodump.len) {
		struct finding *f = finding_add(c->fs, SEV_WARN, "attach.fr.no_dump",
						"no flight-recorder dump from rank(s) %s of process group "
						"'%s'", nodump.buf, pg_label(pg));
		finding_why(f, "A rank that wrote no dump was not asked (the dump is per rank, written "
			    "on timeout or on request), or could not answer: a stopped, frozen or dead "
			    "process writes nothing. Its absence is itself a clue.");
		finding_fix(f, N_("ask a live rank for its dump: echo 1 > <TORCH_NCCL_DEBUG_INFO_PIPE_FILE>"
			    "<rank>.pipe (the job must run with that variable set)"));
		finding_fix(f, N_("collect every rank's TORCH_NCCL_DEBUG_INFO_TEMP_FILE<rank> into one "
			    "directory (one file per rank)"));
		for (size_t r = 0; pg->cfg && r < pg->cfg->nrank_list; r++) {
			int have = 0;
			for (size_t i = 0; i < set->n; i++)
				have |= set->v[i]->rank == pg->cfg->rank_list[r];
			if (!have)
				finding_rank(f, pg->cfg->rank_list[r]);
		}
	}
	if (n >= 1 && lo < hi) {
		long seq = lo + 1;
		const struct fr_entry *ent = NULL;
		struct strbuf missing = STRBUF_INIT, entered = STRBUF_INIT;
		struct finding *f;
		int firstmiss = -1;

		for (size_t i = 0; i < n; i++) {
			if (last[i]->collective_seq_id < seq) {
				strbuf_addf(&missing, "%s%d", missing.len ? ", " : "", dumps[i]->rank);
				if (firstmiss < 0)
					firstmiss = (int)i;
			} else {
				strbuf_addf(&entered, "%s%d", entered.len ? ", " : "", dumps[i]->rank);
				if (!ent)
					ent = coll_at(dumps[i], pg->name, seq);
			}
		}
		f = finding_add(c->fs, SEV_ERROR, "attach.fr.not_entered",
				"rank(s) %s never entered %s #%ld of process group '%s' that rank(s) %s "
				"entered", missing.buf, ent ? fr_op_name(ent) : "collective", seq,
				pg_label(pg), entered.buf);
		for (size_t i = 0; i < n; i++)
			if (last[i]->collective_seq_id < seq)
				finding_rank(f, dumps[i]->rank);
		finding_why(f, "PyTorch's flight recorder logs every collective a rank enters, with its "
			    "sequence number in the process group. The ranks above stopped before "
			    "collective #%ld: they are busy elsewhere (a data loader, a rank-dependent "
			    "branch, an exception caught and ignored, I/O) while the others wait in it.",
			    seq);
		if (ent)
			finding_evidence(f, "collective #%ld: %s, input %s %s, output %s %s", seq,
					 ent->profiling_name, ent->input_sizes, ent->input_dtypes,
					 ent->output_sizes, ent->output_dtypes);
		for (size_t i = 0; i < n; i++)
			finding_evidence(f, "rank %d: last collective #%ld %s (%s)", dumps[i]->rank,
					 last[i]->collective_seq_id, fr_op_name(last[i]),
					 fr_state_name(last[i]->state));
		add_stack(f, dumps[firstmiss]->rank, last[firstmiss], N_("last entered"));
		for (size_t i = 0; i < n; i++)
			if (last[i]->collective_seq_id >= seq) {
				add_stack(f, dumps[i]->rank, coll_at(dumps[i], pg->name, seq), N_("waits in"));
				break;
			}
		finding_fix(f, N_("see what rank %d does after the stack above: ncclcheck attach --pid <its pid>"),
			    dumps[firstmiss]->rank);
		finding_fix(f, N_("make every rank reach the same collectives in the same order"));
		{
			struct who who;
			struct strbuf w = STRBUF_INIT, doing = STRBUF_INIT;
			int rk = dumps[firstmiss]->rank;
			int joined = c->main && c->main->size >= (int)n && strcmp(pg->name, "0") == 0;
			if (joined && reason_find_who(c->main, rk, &who)) {
				reason_who_str(&who, &w);
				reason_proc_doing(c, who.host, who.pid, &doing);
				finding_node(f, who.host);
				if (doing.len)
					finding_evidence(f, "/proc: rank %d: %s", rk, doing.buf);
			} else {
				strbuf_addf(&w, "rank %d", rk);
			}
			reason_verdict(c, 3, "%s has not entered %s #%ld (process group '%s') that rank(s) %s "
				"entered%s%s", w.buf, ent ? fr_op_name(ent) : "collective", seq,
				pg_label(pg), entered.buf, doing.len ? "; " : "", doing.buf);
			strbuf_release(&w);
			strbuf_release(&doing);
		}
		strbuf_release(&missing);
		strbuf_release(&entered);
	} else if (n >= 1 && lo == hi) {
		int done = 1;
		struct strbuf states = STRBUF_INIT;
		for (size_t i = 0; i < n; i++) {
			done &= last[i]->state == FR_COMPLETED;
			strbuf_addf(&states, "%srank %d %s", i ? ", " : "", dumps[i]->rank,
				    fr_state_name(last[i]->state));
		}
		if (!done && nodump.len) {
			struct finding *f = finding_add(c->fs, SEV_ERROR, "attach.fr.not_entered",
							"rank(s) %s wrote no dump while every other rank "
							"waits in %s #%ld of process group '%s'", nodump.buf,
							fr_op_name(last[0]), hi, pg_label(pg));
			for (size_t r = 0; pg->cfg && r < pg->cfg->nrank_list; r++) {
				int have = 0;
				for (size_t i = 0; i < set->n; i++)
					have |= set->v[i]->rank == pg->cfg->rank_list[r];
				if (!have)
					finding_rank(f, pg->cfg->rank_list[r]);
			}
			f->conf = CONF_MEDIUM;
			finding_why(f, "The ranks that dumped all entered the collective and wait in it; the "
				    "rank(s) without a dump are the ones they wait for: stopped, frozen, dead, "
				    "or busy before the collective (then its dump, once asked, shows it).");
			finding_evidence(f, "%s", states.buf);
			add_stack(f, dumps[0]->rank, last[0], N_("waits in"));
			finding_fix(f, N_("look at rank(s) %s: ncclcheck attach on their node (RAS and /proc), "
				    "ncclcheck attach --pid <pid>"), nodump.buf);
			/* an absence (no dump) is weaker than what RAS and /proc say of those ranks (a
			 * count behind, a state, the Python stack): any of those verdicts comes first */
			reason_verdict(c, 6, "rank(s) %s wrote no dump while rank(s) that did all wait in %s #%ld "
				"(process group '%s'): they are stopped, frozen, dead or elsewhere",
				nodump.buf, fr_op_name(last[0]), hi, pg_label(pg));
		} else if (!done) {
			struct finding *f = finding_add(c->fs, SEV_ERROR, "attach.fr.all_entered",
							"every rank entered %s #%ld of process group '%s' "
							"and it did not complete", fr_op_name(last[0]), hi,
							pg_label(pg));
			finding_why(f, "The application side is in step: all ranks called the collective. "
				    "It does not finish, so the cause is below PyTorch: the network between "
				    "the nodes (firewall, MTU, a dead link) or a GPU. 'started' means the "
				    "kernel runs and waits for data; 'scheduled' means the stream never got "
				    "to it (an earlier kernel or a copy is stuck).");
			finding_evidence(f, "%s", states.buf);
			finding_check(f, N_("ncclcheck cluster   # the links between the nodes"));
			f->conf = CONF_MEDIUM;
			reason_verdict(c, 8, "every rank entered %s #%ld (process group '%s') and it does not "
				"complete: a network or GPU stall below PyTorch", fr_op_name(last[0]), hi,
				pg_label(pg));
		} else if (done && !nodump.len) {
			finding_add(c->fs, SEV_OK, "attach.fr.completed",
				    "process group '%s': every rank completed collective #%ld", pg_label(pg),
				    hi);
		}
		strbuf_release(&states);
	}
	/* mismatches over the range every dump still holds (the buffer is a ring) */
	for (size_t i = 0; i < n; i++) {
		long min_seq = -1;
		for (size_t j = 0; j < dumps[i]->nentries; j++) {
			const struct fr_entry *en = &dumps[i]->entries[j];
			if (!en->is_p2p && !strcmp(en->pg_name, pg->name) &&
			    (min_seq < 0 || en->collective_seq_id < min_seq))
				min_seq = en->collective_seq_id;
		}
		if (min_seq > first_common)
			first_common = min_seq;
	}
	if (n >= 2)
		fr_mismatch(c, pg, dumps, n, first_common, hi);
	strbuf_release(&nodump);
	free(dumps);
	free(last);
}

void reason_fr(struct ctx *c)
{
	const struct fr_set *set = &c->d->fr;
	struct frpg *pgs = NULL;
	size_t npgs = 0, apgs = 0;

	if (c->d->fr_error) {
		struct finding *f = finding_add(c->fs, SEV_ERROR, "attach.fr.unreadable",
						"cannot read the flight-recorder dumps");
		finding_why(f, "%s", c->d->fr_error);
		return;
	}
	for (size_t i = 0; i < set->nbad; i++) {
		struct finding *f = finding_add(c->fs, SEV_WARN, "attach.fr.bad_dump",
						"a flight-recorder file does not decode");
		finding_evidence(f, "%s", set->bad[i]);
		finding_why(f, "It was skipped; the reasoning uses the other dumps. A file cut short "
			    "(the job died while writing) or not a torch dump reads like this.");
	}
	if (!set->n) {
		struct finding *f = finding_add(c->fs, SEV_WARN, "attach.fr.none",
						"no flight-recorder dump to read");
		finding_fix(f, N_("run the job with TORCH_NCCL_TRACE_BUFFER_SIZE=2000 "
			    "TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_NCCL_DEBUG_INFO_TEMP_FILE=/tmp/nccl_trace_"
			    "rank_ TORCH_NCCL_DEBUG_INFO_PIPE_FILE=/tmp/nccl_trace_pipe_"));
		finding_fix(f, N_("when it hangs, on each node: for p in /tmp/nccl_trace_pipe_*.pipe; do timeout 2 "
			    "sh -c \"echo 1 > $p\"; done; then ncclcheck attach --fr /tmp"));
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "TORCH_NCCL_TRACE_BUFFER_SIZE", "2000");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "TORCH_NCCL_DUMP_ON_TIMEOUT", "1");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "%s",
				"/tmp/nccl_trace_rank_");
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "TORCH_NCCL_DEBUG_INFO_PIPE_FILE", "%s",
				"/tmp/nccl_trace_pipe_");
		return;
	}
	/* the process groups, by name, in order of appearance */
	for (size_t i = 0; i < set->n; i++)
		for (size_t j = 0; j < set->v[i]->nentries; j++) {
			const struct fr_entry *en = &set->v[i]->entries[j];
			size_t k;
			for (k = 0; k < npgs; k++)
				if (!strcmp(pgs[k].name, en->pg_name))
					break;
			if (k < npgs)
				continue;
			ALLOC_GROW(pgs, npgs + 1, apgs);
			pgs[npgs].name = en->pg_name;
			pgs[npgs].desc = en->pg_desc;
			pgs[npgs].cfg = NULL;
			for (size_t a = 0; a < set->n && !pgs[npgs].cfg; a++)
				for (size_t b = 0; b < set->v[a]->npgs; b++)
					if (!strcmp(set->v[a]->pgs[b].name, en->pg_name))
						pgs[npgs].cfg = &set->v[a]->pgs[b];
			npgs++;
		}
	for (size_t k = 0; k < npgs && k < 64; k++)
		fr_pg_reason(c, &pgs[k]);
	free(pgs);
}
