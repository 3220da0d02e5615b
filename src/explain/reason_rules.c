/*
 * The cross-rank rules: what no single line says but the ranks together do (a bootstrap
 * interface outside MASTER_ADDR's network, NCCL_SOCKET_IFNAME matching nothing, mixed NCCL
 * versions, missing ranks, init that never completed, Lightning's rendezvous vs NCCL hangs,
 * watchdog timeouts on different collectives). Each adds findings through the reasoner's helpers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/reason_impl.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int bad_class(enum aclass c)
{
	return c == A_PUBLIC || c == A_DOCKER || c == A_LOOPBACK || c == A_LINKLOCAL;
}

void rule_wrong_interface(struct rs *r)
{
	const struct run_obs *x = r->x;
	size_t *flag = xmalloc((r->np ? r->np : 1) * sizeof(*flag)), nf = 0;
	int stuck_any = 0, any_sure = 0;
	struct finding *d;

	for (size_t i = 0; i < r->np; i++) {
		struct part *p = &r->p[i];
		enum aclass c;
		uint32_t a;
		int stuck, mismatch, sure = 0;

		if (!p->m.boot_loc.line)
			continue;
		c = aclass_of(p->m.boot_if, p->m.boot_addr);
		/* a rank that failed with an error of its own (NCCL_NET=IB, a CUDA error) is not stuck */
		stuck = p->m.init_start.line && !p->m.init_complete.line && (!p->err_sig || p->net_sig);
		if (!stuck && !p->net_sig)
			continue;
		if (c == A_LOOPBACK && p->m.nnodes == 1)
			continue;
		if (r->master_is_v4 && addr_v4(p->m.boot_addr, &a)) {
			int pre = rs_iface_prefix(x, p->m.boot_if, p->m.boot_addr);
			enum aclass mc = aclass_of("", x->master);
			if (pre > 0) {
				mismatch = !addr_same_net(a, r->master_v4, pre);
				sure = 1;
			} else if (mc != c && (bad_class(c) || bad_class(mc))) {
				mismatch = 1;
				sure = 1;
			} else {
				mismatch = !addr_same_net(a, r->master_v4, 16);
			}
		} else {
			mismatch = bad_class(c);
		}
		if (!mismatch)
			continue;
		stuck_any |= stuck;
		any_sure |= sure;
		flag[nf++] = i;
	}
	if (!nf) {
		free(flag);
		return;
	}
	d = rs_add(r, "explain.net.wrong_interface", SEV_ERROR,
		     any_sure ? CONF_HIGH : CONF_MEDIUM, 150);
	{
		const struct part *p0 = &r->p[flag[0]];
		enum aclass c0 = aclass_of(p0->m.boot_if, p0->m.boot_addr);
		if (x->master[0])
			rs_title(d, "NCCL bootstraps on %s %s (%s), not on the network of MASTER_ADDR %s%s",
				   aclass_name(c0), p0->m.boot_if, p0->m.boot_addr, x->master,
				   stuck_any ? ": ranks hang after Init START" : "");
		else
			rs_title(d, "NCCL bootstraps on %s %s (%s)%s", aclass_name(c0), p0->m.boot_if,
				   p0->m.boot_addr, stuck_any ? " and the ranks hang after Init START" : "");
	}
	rs_parts(r, d, flag, nf);
	rs_fix_ifname(r, d);
	rs_fix(d, "to test it: %s", CHECK_NODE_CMD);
	finding_why(d, "%s confidence: with NCCL_SOCKET_IFNAME unset NCCL takes the first interface that is "
		 "not docker/lo (NCCL 2.28+: not virbr either), often the public NIC on cloud VMs; its "
		 "peers cannot reach that address (firewall, security group, no route), so bootstrap "
		 "connections hang or fail while the TCPStore on MASTER_ADDR works.%s",
		 any_sure ? "High" : "Medium",
		 x->master[0] ? "" : r->suggest_if[0] ?
		 " MASTER_ADDR is not in the log: the interface named is the private one of NCCL's own "
		 "NET/Socket list; --master-addr confirms it." :
		 " MASTER_ADDR is not in the log: pass --master-addr to name the interface.");
	for (size_t i = 0; i < nf && i < 4; i++) {
		const struct part *p = &r->p[flag[i]];
		char what[256], addr[160];
		snprintf(what, sizeof(what), "%s bootstrap", p->label);
		snprintf(addr, sizeof(addr), "%s %s (%s)", p->m.boot_if, p->m.boot_addr,
			 aclass_name(aclass_of(p->m.boot_if, p->m.boot_addr)));
		rs_at(r, d, p->m.boot_loc, what, addr);
		if (p->m.init_start.line && !p->m.init_complete.line && p->m.last_loc.line) {
			snprintf(what, sizeof(what), "%s last line", p->label);
			rs_at(r, d, p->m.last_loc, what, p->m.last);
		}
	}
	if (x->master_loc.line)
		rs_at(r, d, x->master_loc, "MASTER_ADDR", x->master);
	else if (x->master[0])
		finding_evidence(d, "MASTER_ADDR %s (from %s)", x->master, x->master_src);
	free(flag);
}

void rule_ifname_nomatch(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *ev = obs_env(x, "NCCL_SOCKET_IFNAME");
	const struct explain_sig *g = explain_sig_find("nccl.bootstrap.no_interface");
	const struct sig_hit *h;
	size_t parts[OBS_SIG_STREAMS], np;
	struct finding *d;
	struct strbuf seen = STRBUF_INIT;

	if (!ev || !g)
		return;
	h = &x->hits[g - explain_sigs];
	if (!h->count) {
		g = explain_sig_find("nccl.socket.no_interface");
		h = &x->hits[g - explain_sigs];
		if (!h->count)
			return;
	}
	d = rs_add(r, "explain.net.ifname_nomatch", SEV_ERROR, CONF_HIGH, 200);
	rs_title(d, "NCCL_SOCKET_IFNAME=%s matches no interface that is up", ev->value);
	rs_sig_parts(r, h, parts, &np);
	rs_parts(r, d, parts, np);
	if (r->suggest_if[0] || x->master[0]) {
		rs_fix_ifname(r, d);
	} else {
		rs_fix(d, "ip -o -4 addr show   # pick the interface with the address the other nodes reach");
		rs_fix(d, "export NCCL_SOCKET_IFNAME=<that name>   # a prefix (eth) matches eth0, eth1...; '=eth1' matches exactly");
	}
	rs_fix(d, "to test it: %s", CHECK_NODE_CMD);
	for (int i = 0; i < x->nifs; i++)
		strbuf_addf(&seen, "%s%s (%s)", i ? ", " : "", x->ifs[i].ifname, x->ifs[i].addr);
	finding_why(d, "High confidence: NCCL read NCCL_SOCKET_IFNAME=%s and then found no interface "
		 "matching it, so bootstrap cannot start.%s%s", ev->value,
		 seen.len ? " Interfaces this log shows: " : "", seen.buf);
	rs_at(r, d, ev->loc, "NCCL_SOCKET_IFNAME", ev->value);
	for (int k = 0; k < h->nev; k++)
		rs_at(r, d, h->ev[k], NULL, h->ev_text[k]);
	strbuf_release(&seen);
}

void rule_version_mismatch(struct rs *r)
{
	char vers[8][40];
	int count[8] = { 0 }, nv = 0, best = 0;
	struct finding *d;
	size_t *parts = xmalloc((r->np ? r->np : 1) * sizeof(*parts)), np = 0;

	for (size_t i = 0; i < r->np; i++) {
		char v[40];
		int k;
		if (!r->p[i].m.nccl_version[0])
			continue;
		snprintf(v, sizeof(v), "%s", r->p[i].m.nccl_version);
		v[strcspn(v, "+")] = '\0';
		for (k = 0; k < nv; k++)
			if (!strcmp(vers[k], v))
				break;
		if (k == nv) {
			if (nv == 8)
				continue;
			snprintf(vers[nv++], sizeof(vers[0]), "%s", v);
		}
		count[k]++;
	}
	if (nv < 2) {
		free(parts);
		return;
	}
	for (int k = 1; k < nv; k++)
		if (count[k] > count[best])
			best = k;
	d = rs_add(r, "explain.nccl.version_mismatch", SEV_ERROR, CONF_HIGH, 120);
	rs_title(d, "ranks run different NCCL versions: %s on %d rank%s, %s on %d", vers[best],
		   count[best], count[best] == 1 ? "" : "s", vers[best == 0 ? 1 : 0],
		   count[best == 0 ? 1 : 0]);
	for (size_t i = 0; i < r->np; i++) {
		char v[40];
		snprintf(v, sizeof(v), "%s", r->p[i].m.nccl_version);
		v[strcspn(v, "+")] = '\0';
		if (r->p[i].m.nccl_version[0] && strcmp(v, vers[best]))
			parts[np++] = i;
	}
	rs_parts(r, d, parts, np);
	{
		const char *cu = NULL;
		for (size_t i = 0; i < r->np && !cu; i++)
			if (strstr(r->p[i].m.nccl_version, "+cuda"))
				cu = strstr(r->p[i].m.nccl_version, "+cuda") + 5;
		if (cu && atoi(cu) > 0)
			rs_fix(d, "pip install nvidia-nccl-cu%d==%s   # on the nodes with another version (or the same torch / image everywhere)",
				 atoi(cu), vers[best]);
		else
			rs_fix(d, "install NCCL %s on every node (the same torch wheel or container image everywhere)", vers[best]);
	}
	rs_fix(d, "python -c 'import torch; print(torch.cuda.nccl.version())'   # on every node, to confirm");
	rs_fix(d, "to test it: %s", CHECK_NODE_CMD);
	finding_why(d, "High confidence: one communicator needs one NCCL protocol; mixed versions fail "
		 "with 'Message truncated', 'Mismatched NCCL version' or hang");
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.ver_loc.line) {
			char what[256];
			snprintf(what, sizeof(what), "%s NCCL version", r->p[i].label);
			rs_at(r, d, r->p[i].m.ver_loc, what, r->p[i].m.nccl_version);
			if (d->nevidence >= 8)
				break;
		}
	free(parts);
}

static int world_size(const struct rs *r)
{
	int n = -1;

	for (size_t i = 0; i < r->np; i++) {
		const struct stream_obs *m = &r->p[i].m;
		if (m->start_nranks > n)
			n = m->start_nranks;
		if (m->nranks > n)
			n = m->nranks;
		if (m->pl_world > n)
			n = m->pl_world;
	}
	if (r->x->pl_world > n)
		n = r->x->pl_world;
	return n;
}

void rule_missing_ranks(struct rs *r)
{
	int n = world_size(r), nres = 0, *miss, nm = 0;
	char *seen;
	struct finding *d;
	struct strbuf sb = STRBUF_INIT;

	if (n < 2 || n > 1 << 20)
		return;
	seen = xcalloc((size_t)n, 1);
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].rank >= 0 && r->p[i].rank < n) {
			seen[r->p[i].rank] = 1;
			nres++;
		}
	miss = xmalloc((size_t)n * sizeof(*miss));
	for (int i = 0; i < n; i++)
		if (!seen[i])
			miss[nm++] = i;
	if (!nm) {
		free(seen);
		free(miss);
		return;
	}
	rs_rank_list(miss, (size_t)nm, &sb);
	if (nres >= 2) {
		d = rs_add(r, "explain.ranks.missing", SEV_WARN, CONF_MEDIUM, 0);
		rs_title(d, "%s of %d left no line in these logs", sb.buf, n);
		rs_fix(d, "if their logs exist, pass them too: ncclcheck explain <dir with one log per rank>");
		rs_fix(d, "otherwise the process of %s never started or died before printing: on its node run "
			 "'ncclcheck node' and start it by hand with the same MASTER_ADDR/MASTER_PORT/WORLD_SIZE", sb.buf);
		finding_why(d, "Medium confidence: the world size is %d but no line of these logs belongs to %s; a "
			 "rank that never joins makes every other rank wait in the rendezvous or in NCCL init", n, sb.buf);
	} else {
		d = rs_add(r, "explain.log.single_rank", SEV_INFO, CONF_HIGH, 0);
		rs_title(d, "the logs show 1 of %d ranks: the cause may be in another rank's log", n);
		rs_fix(d, "collect every rank's output (torchrun --log-dir DIR --tee 3, or srun -l) and run: ncclcheck explain DIR");
		finding_why(d, "errors such as 'remote process exited' or a hang are often the echo of another rank's failure");
	}
	finding_rank(d, miss[0]);
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.topo_loc.line || r->p[i].m.init_start.line) {
			rs_at(r, d, r->p[i].m.init_start.line ? r->p[i].m.init_start : r->p[i].m.topo_loc,
				"world size", NULL);
			break;
		}
	strbuf_release(&sb);
	free(seen);
	free(miss);
}

void rule_init_progress(struct rs *r, int net_diag)
{
	size_t *stuck = xmalloc((r->np ? r->np : 1) * sizeof(*stuck)), ns = 0, started = 0, done = 0;
	struct strbuf failed_sb = STRBUF_INIT;
	struct finding *d;

	for (size_t i = 0; i < r->np; i++) {
		const struct part *p = &r->p[i];
		if (!p->m.init_start.line && !p->m.init_complete.line)
			continue;
		started++;
		if (p->m.init_complete.line)
			done++;
		else if (!p->err_sig || p->net_sig)
			stuck[ns++] = i;
	}
	if (!started) {
		free(stuck);
		return;
	}
	if (!ns && done == started) {
		d = rs_add(r, "explain.init.ok", SEV_OK, CONF_HIGH, 0);
		{
			size_t *all = xmalloc(r->np * sizeof(*all)), na = 0;
			const struct stream_obs *m0 = NULL;
			for (size_t i = 0; i < r->np; i++)
				if (r->p[i].m.init_complete.line) {
					all[na++] = i;
					if (!m0)
						m0 = &r->p[i].m;
				}
			rs_parts(r, d, all, na);
			rs_title(d, "NCCL init completed on %zu rank%s%s%s%s%s", na, na == 1 ? "" : "s",
				   m0 && m0->nccl_version[0] ? " (NCCL " : "",
				   m0 && m0->nccl_version[0] ? m0->nccl_version : "",
				   m0 && m0->nccl_version[0] ? ")" : "",
				   m0 && m0->network[0] ? (strcmp(m0->network, "IB") ? ", network Socket" : ", network IB") : "");
			if (m0)
				rs_at(r, d, m0->init_complete, "Init COMPLETE", NULL);
			free(all);
		}
		free(stuck);
		return;
	}
	if (!ns) {
		free(stuck);
		return;
	}
	/* ranks that failed with their own error: the stuck ones are most likely waiting for them */
	{
		int *failed = xmalloc(r->np * sizeof(*failed));
		size_t nf = 0;
		for (size_t i = 0; i < r->np; i++)
			if (r->p[i].err_sig && !r->p[i].net_sig && r->p[i].rank >= 0)
				failed[nf++] = r->p[i].rank;
		if (nf) {
			strbuf_reset(&failed_sb);
			rs_rank_list(failed, nf, &failed_sb);
		}
		free(failed);
	}
	d = rs_add(r, done ? "explain.init.partial" : "explain.init.stuck", SEV_ERROR,
		     net_diag || failed_sb.len ? CONF_LOW : CONF_MEDIUM, net_diag || failed_sb.len ? -300 : 50);
	rs_parts(r, d, stuck, ns);
	if (done)
		rs_title(d, "NCCL init completed on %zu rank%s but %zu stopped after Init START", done,
			   done == 1 ? "" : "s", ns);
	else
		rs_title(d, "NCCL init never completed: %zu rank%s stopped after Init START", ns,
			   ns == 1 ? "" : "s");
	if (failed_sb.len)
		rs_fix(d, "fix the error of %s first (above): the others wait for it in NCCL's bootstrap",
			 failed_sb.buf);
	else if (net_diag)
		rs_fix(d, "fix the network diagnosis above first; this hang is its consequence");
	rs_fix_ifname(r, d);
	rs_fix(d, "to test it: %s", CHECK_NODE_CMD);
	rs_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP");
	finding_why(d, "%s confidence: NCCL's bootstrap blocks without a timeout until every rank connects; "
		 "ranks that print Init START and nothing after it are waiting for peers they cannot "
		 "reach (wrong interface, firewall on ephemeral ports), for a rank that failed or for "
		 "one that never started", net_diag || failed_sb.len ? "Low" : "Medium");
	for (size_t i = 0; i < ns && i < 4; i++) {
		const struct part *p = &r->p[stuck[i]];
		char what[256];
		snprintf(what, sizeof(what), "%s Init START", p->label);
		rs_at(r, d, p->m.init_start, what, NULL);
		snprintf(what, sizeof(what), "%s last line", p->label);
		rs_at(r, d, p->m.last_loc, what, p->m.last);
	}
	free(stuck);
	strbuf_release(&failed_sb);
}

void rule_lightning(struct rs *r, int have_errors)
{
	const struct run_obs *x = r->x;
	size_t *pl = xmalloc((r->np ? r->np : 1) * sizeof(*pl)), npl = 0;
	int any_start = 0;
	struct finding *d;

	for (size_t i = 0; i < r->np; i++) {
		if (r->p[i].m.pl_init.line)
			pl[npl++] = i;
		any_start |= r->p[i].m.init_start.line != 0;
	}
	/* the same GLOBAL_RANK from two inputs or two hosts: NODE_RANK not set on one node */
	for (uint32_t i = 0; i < x->nst; i++)
		for (uint32_t j = i + 1; j < x->nst && j < i + 256; j++) {
			const struct stream_obs *a = &x->st[i], *b = &x->st[j];
			if (a->pl_rank < 0 || a->pl_rank != b->pl_rank || a->file == b->file)
				continue;
			d = rs_add(r, "explain.lightning.duplicate_rank", SEV_ERROR, CONF_HIGH, 180);
			rs_title(d, "two processes both say GLOBAL_RANK: %d: NODE_RANK is not set on one node",
				   a->pl_rank);
			finding_rank(d, a->pl_rank);
			rs_fix(d, "export NODE_RANK=<0 on the master node, 1, 2 ... on the others>   # before starting Lightning on each node");
			rs_fix(d, "or launch with torchrun --nnodes=N --node-rank=<i> on each node");
			finding_why(d, "High confidence: without NODE_RANK every node believes it is node 0, so two "
				 "processes claim the same global rank and the rendezvous waits forever for the missing ones");
			rs_at(r, d, a->pl_init, "Initializing distributed", NULL);
			rs_at(r, d, b->pl_init, "Initializing distributed", NULL);
			i = j = x->nst;
		}
	if (!npl) {
		free(pl);
		return;
	}
	if (!x->pl_registered.line && !any_start) {
		d = rs_add(r, "explain.lightning.rendezvous_hang", SEV_ERROR,
			     have_errors ? CONF_LOW : CONF_MEDIUM, have_errors ? -300 : 60);
		rs_parts(r, d, pl, npl);
		rs_title(d, "Lightning never registered all processes: the hang is in the TCPStore rendezvous, not in NCCL");
		rs_fix(d, "nc -zv \"$MASTER_ADDR\" \"$MASTER_PORT\"   # from every node, while rank 0 runs");
		rs_fix(d, "use the same MASTER_ADDR, MASTER_PORT, num_nodes and devices on every node, and a distinct NODE_RANK per node");
		rs_fix(d, "to test it: %s", CHECK_NODE_CMD);
		rs_fix(d, "if the log is not enough: rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO");
		finding_why(d, "%s confidence: 'Initializing distributed' is printed before init_process_group and "
			 "'All distributed processes registered' after it; only the first appeared, so not "
			 "every process reached MASTER_ADDR:MASTER_PORT (wrong address, port blocked, world "
			 "size larger than the processes started, duplicate NODE_RANK)",
			 have_errors ? "Low" : "Medium");
		for (size_t i = 0; i < npl && i < 4; i++)
			rs_at(r, d, r->p[pl[i]].m.pl_init, "Initializing distributed", NULL);
	} else if (x->pl_registered.line && !have_errors) {
		int complete = 0;
		for (size_t i = 0; i < r->np; i++)
			complete |= r->p[i].m.init_complete.line != 0;
		if (!complete) {
			d = rs_add(r, "explain.lightning.nccl_hang", SEV_WARN, CONF_MEDIUM, 40);
			rs_parts(r, d, pl, npl);
			rs_title(d, "all processes registered, then nothing: a hang here is in NCCL, not in the rendezvous");
			rs_fix_ifname(r, d);
			rs_fix(d, "to test it: %s", CHECK_NODE_CMD);
			rs_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP");
			finding_why(d, "Medium confidence: 'All distributed processes registered' means the TCPStore "
				 "worked; NCCL's own connections (other ports, maybe another interface) come next");
			rs_at(r, d, x->pl_registered, "All distributed processes registered", NULL);
		}
	}
	free(pl);
}

void rule_watchdog_desync(struct rs *r)
{
	long lo = -1, hi = -1;
	size_t *low = xmalloc((r->np ? r->np : 1) * sizeof(*low)), nl = 0;
	struct finding *d;

	for (size_t i = 0; i < r->np; i++) {
		long s = r->p[i].m.wd_count ? r->p[i].m.wd_seq : -1;
		if (s < 0)
			continue;
		if (lo < 0 || s < lo)
			lo = s;
		if (s > hi)
			hi = s;
	}
	if (lo < 0 || lo == hi) {
		free(low);
		return;
	}
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.wd_count && r->p[i].m.wd_seq == lo)
			low[nl++] = i;
	d = rs_add(r, "explain.watchdog.desync", SEV_ERROR, CONF_HIGH, 160);
	rs_parts(r, d, low, nl);
	rs_title(d, "ranks timed out on different collectives: SeqNum %ld vs %ld", lo, hi);
	rs_fix(d, "the ranks at SeqNum %ld skipped a collective the others entered: look for rank-dependent "
		 "branches, uneven batches or a caught exception around that point", lo);
	rs_fix(d, "export TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: the flight recorder names the op");
	finding_why(d, "High confidence: collectives are numbered per process group; different SeqNums at the "
		 "timeout mean the ranks did not issue the same sequence of collectives (a desync, not the network)");
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.wd_count) {
			char what[256];
			snprintf(what, sizeof(what), "%s SeqNum=%ld OpType=%s", r->p[i].label,
				 r->p[i].m.wd_seq, r->p[i].m.wd_op);
			rs_at(r, d, r->p[i].m.wd_loc, what, NULL);
			if (d->nevidence >= 8)
				break;
		}
	free(low);
}

void rule_log_hints(struct rs *r)
{
	const struct run_obs *x = r->x;
	int nccl_sig = 0, any = 0;
	struct finding *d;

	for (size_t i = 0; i < explain_nsigs; i++)
		if (x->hits[i].count) {
			any = 1;
			if ((explain_sigs[i].flags & SIG_NCCL) && explain_sigs[i].sev >= SEV_WARN)
				nccl_sig = 1;
		}
	for (size_t i = 0; i < r->np && !any; i++)
		any = r->p[i].m.nccl_version[0] || r->p[i].m.init_start.line || r->p[i].m.pl_init.line ||
		      r->p[i].m.exc_loc.line;
	if (nccl_sig && !x->nccl_info_lines) {
		d = rs_add(r, "explain.log.no_nccl_debug", SEV_INFO, CONF_HIGH, 0);
		rs_title(d, "the log has no NCCL INFO lines, so NCCL's own view of the failure is missing");
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP   # rerun, then: ncclcheck explain <the new logs>");
		finding_why(d, "with NCCL_DEBUG=INFO NCCL prints the interface it bootstraps on, every connection "
			 "and the WARN line that names the failing call");
	}
	if (!any) {
		d = rs_add(r, "explain.log.unrecognised", SEV_INFO, CONF_HIGH, 0);
		rs_title(d, "nothing in %llu lines was recognised as NCCL, torch, Lightning or Slurm output",
			   (unsigned long long)x->total_lines);
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun and capture stdout and stderr of every rank");
		rs_fix(d, "torchrun --log-dir logs --tee 3 ...   # one log per rank; then: ncclcheck explain logs/");
		finding_why(d, "explain needs the training output itself (both streams, every rank)");
	}
}

