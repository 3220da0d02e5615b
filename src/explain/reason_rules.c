/*
 * The cross-rank rules: what no single line says but the ranks together do (a bootstrap
 * interface outside MASTER_ADDR's network, NCCL_SOCKET_IFNAME matching nothing, mixed NCCL
 * versions, missing ranks, init that never completed, Lightning's rendezvous vs NCCL hangs,
 * watchdog timeouts on different collectives). Each adds findings through the reasoner's helpers.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "attach/ras_diag.h"
#include "explain/reason_int.h"
#include "model/ifselect.h"
#include "model/stack_tables.h"
#include "util/addr.h"
#include "util/i18n.h"
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
		unsigned char a[16];
		int stuck, mismatch, sure = 0;

		if (!p->m.boot_loc.line)
			continue;
		c = aclass_of(p->m.boot_if, p->m.boot_addr);
		/* a rank that failed with an error of its own (NCCL_NET=IB, a CUDA error, an IB queue
		 * pair: its HCA, not the socket interface) is not stuck */
		stuck = p->m.init_start.line && !p->m.init_complete.line && (!p->err_sig || p->sock_sig);
		if (!stuck && !p->sock_sig)
			continue;
		if (c == A_LOOPBACK && p->m.nnodes == 1)
			continue;
		if (r->master_is_v4 && addr_v4(p->m.boot_addr, a)) {
			int pre = rs_iface_prefix(x, p->m.boot_if, p->m.boot_addr);
			enum aclass mc = aclass_of("", x->master);
			if (pre > 0) {
				mismatch = !addr_same_subnet(4, a, r->master_ip, pre);
				sure = 1;
			} else if (mc != c && (bad_class(c) || bad_class(mc))) {
				mismatch = 1;
				sure = 1;
			} else {
				mismatch = !addr_same_subnet(4, a, r->master_ip, 16);
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
		/* whole formats, not a pasted ending: the renderer finds each one's translation */
		if (x->master[0] && stuck_any)
			rs_title(d, "NCCL bootstraps on %s %s (%s), not on the network of MASTER_ADDR %s: "
				 "ranks hang after Init START", aclass_name(c0), p0->m.boot_if,
				 p0->m.boot_addr, x->master);
		else if (x->master[0])
			rs_title(d, "NCCL bootstraps on %s %s (%s), not on the network of MASTER_ADDR %s",
				 aclass_name(c0), p0->m.boot_if, p0->m.boot_addr, x->master);
		else if (stuck_any)
			rs_title(d, "NCCL bootstraps on %s %s (%s) and the ranks hang after Init START",
				 aclass_name(c0), p0->m.boot_if, p0->m.boot_addr);
		else
			rs_title(d, "NCCL bootstraps on %s %s (%s)", aclass_name(c0), p0->m.boot_if,
				 p0->m.boot_addr);
	}
	rs_parts(r, d, flag, nf);
	rs_fix_ifname(r, d);
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
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

/* The one interface of the log that another node could reach (not lo, a bridge or link-local). */
static const char *only_routable_iface(const struct run_obs *x)
{
	const char *pick = NULL;

	for (int i = 0; i < x->nifs; i++) {
		enum aclass c = aclass_of(x->ifs[i].ifname, x->ifs[i].addr);
		if (c != A_PRIVATE && c != A_PUBLIC)
			continue;
		if (pick && strcmp(pick, x->ifs[i].ifname))
			return NULL;
		pick = x->ifs[i].ifname;
	}
	return pick;
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
	const char *exact_named = NULL, *only = only_routable_iface(x);
	struct ifs_spec spec;

	if (!ev || !g)
		return;
	h = &x->hits[g - explain_sigs];
	if (!h->count) {
		g = explain_sig_find("nccl.socket.no_interface");
		h = &x->hits[g - explain_sigs];
		if (!h->count)
			return;
	}
	/* '=name' naming an interface the log shows, yet nothing matched: this NCCL took the '='
	 * as part of the name (a doubled '=' from a defaults file, or a build without exact match) */
	ifs_spec_parse(ev->value, 1, &spec);
	if (ev->value[0] == '=')
		for (int i = 0; i < x->nifs && !exact_named; i++)
			if (ifs_spec_names(&spec, x->ifs[i].ifname))
				exact_named = x->ifs[i].ifname;
	d = rs_add(r, "explain.net.ifname_nomatch", SEV_ERROR, CONF_HIGH, 200);
	if (exact_named)
		rs_title(d, "NCCL_SOCKET_IFNAME=%s matched no interface although %s exists: the '=' "
			   "(exact match) was not honoured", ev->value, exact_named);
	else
		rs_title(d, "NCCL_SOCKET_IFNAME=%s matches no interface that is up", ev->value);
	rs_sig_parts(r, h, parts, &np);
	rs_parts(r, d, parts, np);
	if (exact_named) {
		rs_fix(d, "export NCCL_SOCKET_IFNAME=%s   # without the '=': a prefix that every NCCL "
			 "release matches", exact_named);
	} else if (r->suggest_if[0] || x->master[0]) {
		rs_fix_ifname(r, d);
	} else if (only) {
		rs_fix(d, "export NCCL_SOCKET_IFNAME=%s   # the only interface this log shows that "
			 "another node can reach; check it is the same network on every node", only);
	} else {
		rs_fix(d, "ip -o -4 addr show   # pick the interface with the address the other nodes reach");
		rs_fix(d, "export NCCL_SOCKET_IFNAME=<that name>   # a prefix (eth) matches eth0, eth1...; '=eth1' matches exactly");
	}
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
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

/*
 * NCCL_SOCKET_IFNAME replaces NCCL's default filter ("^docker,lo"): an exclusion list that does
 * not name lo leaves loopback eligible, and lo comes first in the kernel's interface list, so
 * every rank bootstraps on 127.0.0.1 and a job across nodes hangs at init (NCCL's environment
 * documentation: the default is "^docker,lo"). Said when the job spans nodes or hangs and no
 * bootstrap line shows another interface chosen.
 */
void rule_ifname_excludes(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *ev = obs_env(x, "NCCL_SOCKET_IFNAME");
	int multi = x->nt_hosts > 1, stuck = 0, chose_other = 0;
	struct ifs_spec spec;
	struct finding *d;

	if (!ev || ev->value[0] != '^')
		return;
	ifs_spec_parse(ev->value, 1, &spec);
	if (ifs_spec_names(&spec, "lo"))
		return;
	for (size_t i = 0; i < r->np; i++) {
		const struct stream_obs *m = &r->p[i].m;
		multi |= m->nnodes > 1;
		stuck |= m->init_start.line && !m->init_complete.line;
		if (m->boot_loc.line && aclass_of(m->boot_if, m->boot_addr) != A_LOOPBACK)
			chose_other = 1;
	}
	if (chose_other || !(multi || stuck || x->hang_loc.line || x->peer_lines))
		return;
	d = rs_add(r, "net.ifname.lo_eligible", SEV_ERROR, CONF_MEDIUM, 120);
	rs_title(d, "NCCL_SOCKET_IFNAME=%s excludes some interfaces but not lo: NCCL can bootstrap "
		   "on loopback, which other nodes cannot reach", ev->value);
	rs_fix(d, "export NCCL_SOCKET_IFNAME=%s,lo   # keep loopback out, as NCCL's own default (^docker,lo) does",
	       ev->value);
	rs_fix(d, "unset NCCL_SOCKET_IFNAME   # or let NCCL's default filter apply, or name the one interface the nodes share");
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "Medium confidence: a value of NCCL_SOCKET_IFNAME replaces NCCL's default filter, "
		 "which excludes docker* and lo; with '^' and no lo, loopback is eligible and comes first "
		 "on Linux, so ranks advertise 127.0.0.1 and the job hangs at init. An NCCL_DEBUG=INFO "
		 "'Bootstrap : Using lo' line confirms it.");
	rs_at(r, d, ev->loc, "NCCL_SOCKET_IFNAME", ev->value);
	rs_at(r, d, x->hang_loc, "hang", NULL);
}

/*
 * Without NCCL's own version lines, pip's pins pasted from several machines: one package (the
 * wheel torch loads, nvidia-nccl-cu12) at two versions. cu11 next to cu12 is two packages and
 * no mismatch.
 */
static void pinned_versions(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct pin_obs *q = NULL;
	struct finding *d;

	for (int i = 0; i < x->npins && !q; i++)
		if (x->pins[i].ver[1][0])
			q = &x->pins[i];
	if (!q)
		return;
	d = rs_add(r, "explain.nccl.version_mismatch", SEV_ERROR, CONF_MEDIUM, 200);
	rs_title(d, "the machines have different NCCL versions installed: %s %s and %s",
		   q->pkg, q->ver[0], q->ver[1]);
	rs_fix(d, "pip install %s==%s   # on every machine: one NCCL version (or the same torch wheel / container image everywhere)",
		 q->pkg, q->ver[0]);
	rs_fix(d, "python -c 'import torch; print(torch.cuda.nccl.version())'   # on every node, to confirm which one torch loads");
	finding_why(d, "Medium confidence: one communicator needs one NCCL protocol; mixed versions fail "
		 "with 'Message truncated', garbage addresses (family 0) or hang; the pins show two "
		 "versions of the package torch loads NCCL from");
	rs_at(r, d, q->loc[0], q->pkg, q->ver[0]);
	rs_at(r, d, q->loc[1], q->pkg, q->ver[1]);
}

static int nccl_version_num(const char *v);

/*
 * One NCCL version per job. Counted per process where ranks are known, and per host where a
 * bundle pasted as one file mixes hosts without rank prefixes (those share one part): the
 * streams carry each host's own "NCCL version" line.
 */
void rule_version_mismatch(struct rs *r)
{
	enum { UNITS = 64 };
	struct vunit {
		char key[96];		/* "rank 3", or the host */
		char ver[40];		/* without "+cuda..." */
		const char *full;
		struct loc loc;
		size_t part;
	} *u = xmalloc(UNITS * sizeof(*u));
	char vers[8][40];
	int count[8] = { 0 }, nv = 0, best = 0, nu = 0, by_host = 0;
	struct finding *d;
	size_t *parts = xmalloc((r->np ? r->np : 1) * sizeof(*parts)), np = 0;

	for (uint32_t i = 0; i < r->x->nst && nu < UNITS; i++) {
		const struct stream_obs *m = &r->x->st[i];
		const char *host = m->nhost[0] ? m->nhost : m->host;
		int k, p = r->st2p[i];
		char key[96];

		if (!m->nccl_version[0] || p < 0)
			continue;
		if (r->p[p].rank < 0 && host[0]) {
			snprintf(key, sizeof(key), "%s", host);
			by_host = 1;
		} else {
			snprintf(key, sizeof(key), "%s", r->p[p].label);
		}
		for (k = 0; k < nu && strcmp(u[k].key, key); k++)
			;
		if (k < nu)
			continue;	/* the first version a process or host names is its own */
		snprintf(u[nu].key, sizeof(u[nu].key), "%s", key);
		snprintf(u[nu].ver, sizeof(u[nu].ver), "%s", m->nccl_version);
		u[nu].ver[strcspn(u[nu].ver, "+")] = '\0';
		u[nu].full = m->nccl_version;
		u[nu].loc = m->ver_loc;
		u[nu].part = (size_t)p;
		nu++;
	}
	for (int i = 0; i < nu; i++) {
		int k;
		for (k = 0; k < nv && strcmp(vers[k], u[i].ver); k++)
			;
		if (k == nv) {
			if (nv == 8)
				continue;
			snprintf(vers[nv++], sizeof(vers[0]), "%s", u[i].ver);
		}
		count[k]++;
	}
	if (nv < 2) {
		free(parts);
		free(u);
		pinned_versions(r);
		return;
	}
	/* the reference is the version most run; on a tie, the newer */
	for (int k = 1; k < nv; k++)
		if (count[k] > count[best] || (count[k] == count[best] &&
		    nccl_version_num(vers[k]) > nccl_version_num(vers[best])))
			best = k;
	d = rs_add(r, "explain.nccl.version_mismatch", SEV_ERROR, CONF_HIGH, 120);
	if (by_host) {
		struct strbuf t = STRBUF_INIT;
		for (int k = 0; k < nv; k++) {
			int shown = 0;
			strbuf_addf(&t, "%s%s on ", k ? "; " : "", vers[k]);
			for (int i = 0; i < nu; i++)
				if (!strcmp(u[i].ver, vers[k]) && shown++ < 3)
					strbuf_addf(&t, "%s%s", shown > 1 ? ", " : "", u[i].key);
			if (count[k] > 3)
				strbuf_addf(&t, " and %d more", count[k] - 3);
		}
		rs_title(d, "the hosts run different NCCL versions: %s", t.buf);
		strbuf_release(&t);
	} else {
		rs_title(d, "ranks run different NCCL versions: %s on %d rank%s, %s on %d", vers[best],
			 count[best], count[best] == 1 ? "" : "s", vers[best == 0 ? 1 : 0],
			 count[best == 0 ? 1 : 0]);
	}
	for (int i = 0; i < nu; i++) {
		size_t k;
		if (!strcmp(u[i].ver, vers[best]))
			continue;
		for (k = 0; k < np && parts[k] != u[i].part; k++)
			;
		if (k == np)
			parts[np++] = u[i].part;
	}
	rs_parts(r, d, parts, np);
	{
		const char *cu = NULL;
		for (int i = 0; i < nu && !cu; i++)
			if (strstr(u[i].full, "+cuda"))
				cu = strstr(u[i].full, "+cuda") + 5;
		if (cu && atoi(cu) > 0)
			rs_fix(d, "pip install nvidia-nccl-cu%d==%s   # on the nodes with another version (or the same torch / image everywhere)",
				 atoi(cu), vers[best]);
		else
			rs_fix(d, "install NCCL %s on every node (the same torch wheel or container image everywhere)", vers[best]);
	}
	rs_fix(d, "python -c 'import torch; print(torch.cuda.nccl.version())'   # on every node, to confirm");
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "High confidence: one communicator needs one NCCL protocol; mixed versions fail "
		 "with 'Message truncated', 'Mismatched NCCL version' or hang");
	for (int i = 0; i < nu && d->nevidence < 8; i++)
		if (u[i].loc.line) {
			char what[128];
			snprintf(what, sizeof(what), "%s NCCL version", u[i].key);
			rs_at(r, d, u[i].loc, what, u[i].full);
		}
	free(parts);
	free(u);
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
			const char *v = m0 && m0->nccl_version[0] ? m0->nccl_version : NULL;
			const char *net = m0 && m0->network[0] ? (strcmp(m0->network, "IB") ?
				", network Socket" : ", network IB") : "";

			/* one format per number: a plural "s" next to the other values would be
			 * taken for one of them where the renderer finds the format again */
			if (na == 1)
				rs_title(d, "NCCL init completed on %zu rank%s%s%s%s", na, v ? " (NCCL " : "",
					 v ? v : "", v ? ")" : "", net);
			else
				rs_title(d, "NCCL init completed on %zu ranks%s%s%s%s", na, v ? " (NCCL " : "",
					 v ? v : "", v ? ")" : "", net);
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
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
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
		rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
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
			rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
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
	if (rs_flight_recorder_on(r->x))
		rs_fix(d, "%s", RS_FR_READ);
	else
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

/* Whether this run found an error or a warning (a cause or a symptom), or a check that passed. */
static int cause_or_warning(const struct rs *r)
{
	for (size_t i = r->first; i < r->fs->n; i++)
		if (r->fs->v[i]->sev >= SEV_WARN || r->fs->v[i]->sev == SEV_OK)
			return 1;
	return 0;
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
	/* NCCL warned in words no row knows, and nothing else explains the run: quote it, at low
	 * confidence, with what to run to learn more, instead of calling the log unrecognised */
	if (x->warn_loc.line && !cause_or_warning(r)) {
		d = rs_add(r, "explain.nccl.warn_unknown", SEV_WARN, CONF_LOW, 0);
		rs_title(d, "NCCL warned '%s': explain has no row for this message", x->warn_text);
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALL   # rerun: the INFO lines around the WARN name the call that failed and its arguments");
		rs_fix(d, "search NCCL's issues for the message: https://github.com/NVIDIA/nccl/issues (the words after 'NCCL WARN', without addresses and numbers)");
		finding_why(d, "Low confidence: the WARN line is NCCL's own report of the failure, but explain "
			 "has no knowledge of this message, so it cannot say what causes it");
		rs_at(r, d, x->warn_loc, "NCCL WARN", x->warn_text);
		any = 1;
	}
	if (nccl_sig && !x->nccl_info_lines) {
		d = rs_add(r, "explain.log.no_nccl_debug", SEV_INFO, CONF_HIGH, 0);
		rs_title(d, "the log has no NCCL INFO lines, so NCCL's own view of the failure is missing");
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP   # rerun, then: ncclcheck explain <the new logs>");
		finding_why(d, "with NCCL_DEBUG=INFO NCCL prints the interface it bootstraps on, every connection "
			 "and the WARN line that names the failing call");
	}
	/* Low: the top finding's confidence says whether it names the cause, and these say only
	 * what to run to find it (bench/explain_corpus.sh's calibration table checks that) */
	if (any && !cause_or_warning(r)) {
		d = rs_add(r, "explain.log.no_cause", SEV_INFO, CONF_LOW, 0);
		rs_title(d, "nothing in these %llu lines names a failure: the log is not enough to decide",
			   (unsigned long long)x->total_lines);
		if (x->hang_loc.line && x->multi_host_loc.line)
			rs_fix(d, "srun --ntasks-per-node=1 ncclcheck cluster   # a hang across nodes: on every node at once "
			       "(or under torchrun/mpirun), it tests the interfaces, routes and NCCL's ports between them");
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_NCCL_DUMP_ON_TIMEOUT=1   # rerun, capture every rank's stdout and stderr, then: ncclcheck explain <the logs>");
		rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
		finding_why(d, "Low confidence: the lines recognised (versions, progress, settings) show no error, "
			 "WARN or hang that explain could tie to a cause; NCCL's INFO lines name the interface, "
			 "transport and the failing call");
	}
	/* a finding reasoned from the reporter's words and stacks (a known bug, P2P) recognised it */
	if (!any && !cause_or_warning(r)) {
		d = rs_add(r, "explain.log.unrecognised", SEV_INFO, CONF_LOW, 0);
		rs_title(d, "nothing in %llu lines was recognised as NCCL, torch, Lightning or Slurm output",
			   (unsigned long long)x->total_lines);
		/* the reporter's "hangs on two nodes": the test that decides it first */
		if (x->hang_loc.line && x->multi_host_loc.line)
			rs_fix(d, "srun --ntasks-per-node=1 ncclcheck cluster   # a hang across nodes: on every node at once "
			       "(or under torchrun/mpirun), it tests the interfaces, routes and NCCL's ports between them");
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun and capture stdout and stderr of every rank");
		rs_fix(d, "torchrun --log-dir logs --tee 3 ...   # one log per rank; then: ncclcheck explain logs/");
		finding_why(d, "explain needs the training output itself (both streams, every rank)");
	}
}


/* ---- issue #13: known bugs, launch mistakes, nccl-tests runs ---------------------------------- */

static const struct sig_hit *sig_hit_of(const struct rs *r, const char *id)
{
	const struct explain_sig *g = explain_sig_find(id);

	return g && r->x->hits[g - explain_sigs].count ? &r->x->hits[g - explain_sigs] : NULL;
}

/* "2.27.3+cuda12.4" -> 22703; -1 when it is not a version. */
static int nccl_version_num(const char *v)
{
	unsigned a, b, c = 0;

	if (sscanf(v, "%u.%u.%u", &a, &b, &c) < 2 || a > 9 || b > 99 || c > 99)
		return -1;
	return (int)(a * 10000 + b * 100 + c);
}

static void fix_lines(struct finding *d, const char *fix)
{
	for (const char *f = fix; f && *f;) {
		size_t n = strcspn(f, "\n");
		rs_fix(d, "%.*s", (int)n, f);
		f += n + (f[n] == '\n');
	}
}

/* The one NCCL wheel version pip pins show (two different ones decide nothing), or -1. */
static int pinned_nccl(const struct run_obs *x, const char **ver, struct loc *loc)
{
	for (int i = 0; i < x->npins; i++)
		if (!strncmp(x->pins[i].pkg, "nvidia-nccl", 11) && !x->pins[i].ver[1][0]) {
			*ver = x->pins[i].ver[0];
			*loc = x->pins[i].loc[0];
			return nccl_version_num(*ver);
		}
	return -1;
}

/*
 * A setting's whole-number value: "4", or "4," and "4)" where a sentence goes on after it; -1 for
 * anything else ("4x", "auto"), which is not a number NCCL would read.
 */
static long kb_value_int(const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (end == v || !isdigit((unsigned char)*v) || (*end && !(strchr(",;)", *end) && !end[1])))
		return -1;
	return n;
}

/* What a setting's value must be for a known-bug row's fact (see kb_fact_lines). */
static int kb_value_one(const char *v)
{
	return kb_value_int(v) == 1;
}

static int kb_value_set(const char *v)
{
	return v[0] != '\0';
}

/* several QPs: "16" counts as much as "4"; "1" is the default */
static int kb_value_above_one(const char *v)
{
	return kb_value_int(v) > 1;
}

/*
 * The facts a known-bug row can need that are one observation each: the fact holds when its line
 * was seen, and that line is the finding's evidence. A setting's fact is read from the settings
 * the scanner keeps (NCCL's echo, an export, a launcher's -x) by its value, so that any value
 * counts and not only the ones someone wrote an anchor for. The others (a hang, wrong results, a
 * port scan in bootstrap, Intel and AMD hosts) are read by kb_facts() itself.
 */
static const struct kb_fact {
	uint64_t bit;
	size_t loc;		/* offsetof(struct run_obs, <the struct loc>), unless `env` */
	const char *env;	/* or the setting whose value makes the fact when `holds` says so */
	int (*holds)(const char *value);
	const char *what;
} kb_fact_lines[] = {
	{ .bit = KB_NEED_RAS, .loc = offsetof(struct run_obs, ras_loc), .what = "NCCL RAS is running" },
	{ .bit = KB_NEED_ARM, .loc = offsetof(struct run_obs, arm_loc), .what = "aarch64 host" },
	{ .bit = KB_NEED_LAUNCH_BLOCKING, .loc = offsetof(struct run_obs, launch_blocking_loc),
	  .what = "CUDA_LAUNCH_BLOCKING=1" },
	{ .bit = KB_NEED_NONBLOCKING, .loc = offsetof(struct run_obs, nonblocking_loc),
	  .what = "non-blocking NCCL init" },
	{ .bit = KB_NEED_ALLTOALL, .loc = offsetof(struct run_obs, alltoall_loc), .what = "all-to-all" },
	{ .bit = KB_NEED_NVLS, .loc = offsetof(struct run_obs, nvls_loc), .what = "NVLS in use" },
	{ .bit = KB_NEED_STACK_UNLIMITED, .loc = offsetof(struct run_obs, stack_unlimited_loc),
	  .what = "stack limit unlimited" },
	{ .bit = KB_NEED_CUDAGRAPH, .loc = offsetof(struct run_obs, cudagraph_loc), .what = "CUDA graphs" },
	{ .bit = KB_NEED_ABORT, .loc = offsetof(struct run_obs, abort_loc), .what = "abort" },
	{ .bit = KB_NEED_SHARP, .loc = offsetof(struct run_obs, sharp_loc), .what = "IB SHARP (CollNet)" },
	{ .bit = KB_NEED_BF16, .loc = offsetof(struct run_obs, bf16_loc), .what = "bfloat16" },
	{ .bit = KB_NEED_FP8, .loc = offsetof(struct run_obs, fp8_loc), .what = "fp8" },
	{ .bit = KB_NEED_ENQUEUE, .loc = offsetof(struct run_obs, enqueue_loc), .what = "in enqueue.cc" },
	{ .bit = KB_NEED_CROSS_NIC, .loc = offsetof(struct run_obs, cross_nic_loc), .what = "NCCL_CROSS_NIC" },
	{ .bit = KB_NEED_NET_INIT, .loc = offsetof(struct run_obs, net_init_loc),
	  .what = "in NCCL's network plugin init" },
	{ .bit = KB_NEED_SCAN, .loc = offsetof(struct run_obs, scan_loc), .what = "a port scan" },
	{ .bit = KB_NEED_GDR_OFF, .loc = offsetof(struct run_obs, gdr_off_loc), .what = "GPUDirect RDMA off" },
	{ .bit = KB_NEED_B40, .loc = offsetof(struct run_obs, b40_loc), .what = "B40 GPUs" },
	{ .bit = KB_NEED_MLOPART, .loc = offsetof(struct run_obs, mlopart_loc), .what = "MPS MLOPart" },
	{ .bit = KB_NEED_NO_RUNTIME_CONNECT, .loc = offsetof(struct run_obs, no_rtc_loc),
	  .what = "NCCL_RUNTIME_CONNECT=0" },
	{ .bit = KB_NEED_TRANSPORT, .loc = offsetof(struct run_obs, transport_loc),
	  .what = "in transport.cc" },
	{ .bit = KB_NEED_CE_COLL, .loc = offsetof(struct run_obs, ce_coll_loc), .what = "in ce_coll.cc" },
	{ .bit = KB_NEED_INSPECTOR, .loc = offsetof(struct run_obs, inspector_loc),
	  .what = "the Inspector plugin" },
	{ .bit = KB_NEED_SPLIT_SHARE, .env = "NCCL_COMM_SPLIT_SHARE_RESOURCES", .holds = kb_value_one,
	  .what = "NCCL_COMM_SPLIT_SHARE_RESOURCES=1" },
	{ .bit = KB_NEED_GDR_C2C, .env = "NCCL_NET_GDR_C2C", .holds = kb_value_one,
	  .what = "NCCL_NET_GDR_C2C=1" },
	{ .bit = KB_NEED_TOPO_FILE, .env = "NCCL_TOPO_FILE", .holds = kb_value_set, .what = "NCCL_TOPO_FILE" },
	{ .bit = KB_NEED_USER_REG, .loc = offsetof(struct run_obs, user_reg_loc),
	  .what = "user buffer registration" },
	{ .bit = KB_NEED_MULTI_QP, .env = "NCCL_IB_QPS_PER_CONNECTION", .holds = kb_value_above_one,
	  .what = "NCCL_IB_QPS_PER_CONNECTION above 1" },
	{ .bit = KB_NEED_SYMMETRIC, .loc = offsetof(struct run_obs, symmetric_loc),
	  .what = "symmetric memory windows" },
};

/* The NCCL return codes torch reports: NCCL failed on its own before what follows (a crash in
 * its error path is then a consequence). */
static const char *const kb_nccl_errors[] = {
	"nccl.error.system", "nccl.error.internal", "nccl.error.remote", "nccl.error.cuda",
	"nccl.error.invalid_usage",
};

static const struct sig_hit *kb_nccl_error(const struct rs *r)
{
	const struct sig_hit *h = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(kb_nccl_errors) && !h; i++)
		h = sig_hit_of(r, kb_nccl_errors[i]);
	return h;
}

/* An x86 host (Intel or AMD named) beside an aarch64 one: the first x86 line. */
static struct loc kb_x86_loc(const struct run_obs *x)
{
	return x->intel_cpu_loc.line ? x->intel_cpu_loc : x->amd_cpu_loc;
}

/* The line that shows the fact; line 0 when the log does not. */
static struct loc kb_fact_loc(const struct run_obs *x, const struct kb_fact *f)
{
	const struct env_obs *ev;
	struct loc none = { 0, 0 };

	if (!f->env)
		return *(const struct loc *)((const char *)x + f->loc);
	if (!(ev = obs_env(x, f->env)))
		return none;
	if (f->holds(ev->value))
		return ev->loc;
	/* another process read a value of its own: the fact holds for that one */
	return ev->value2[0] && f->holds(ev->value2) ? ev->loc2 : none;
}

/* The first rank that bootstraps on loopback ("Bootstrap : Using lo:127.0.0.1"), or no line. */
static struct loc kb_boot_lo(const struct rs *r)
{
	for (size_t i = 0; i < r->np; i++)
		if (r->p[i].m.boot_loc.line && aclass_of(r->p[i].m.boot_if, r->p[i].m.boot_addr) == A_LOOPBACK)
			return r->p[i].m.boot_loc;
	return (struct loc){ 0, 0 };
}

/* Whether every KB_NEED_* fact in `needs` was seen (KB_MEDIUM and KB_NEED_WRONG are not facts
 * here: the caller reads them). */
static int kb_facts(const struct rs *r, uint64_t needs, int hang, int wd)
{
	const struct run_obs *x = r->x;

	for (size_t i = 0; i < ARRAY_SIZE(kb_fact_lines); i++)
		if ((needs & kb_fact_lines[i].bit) && !kb_fact_loc(x, &kb_fact_lines[i]).line)
			return 0;
	return !(((needs & KB_NEED_BOOT_SCAN) && !(x->scan_loc.line && x->boot_chain_loc.line)) ||
		 ((needs & KB_NEED_HANG) && !hang) ||
		 ((needs & KB_NEED_MIXED_CPU) && !(x->intel_cpu_loc.line && x->amd_cpu_loc.line)) ||
		 ((needs & KB_NEED_MIXED_ARCH) && !(x->arm_loc.line && kb_x86_loc(x).line)) ||
		 ((needs & KB_NEED_NCCL_ERROR) && !kb_nccl_error(r)) ||
		 ((needs & KB_NEED_SEGFAULT) && !sig_hit_of(r, "sys.segfault")) ||
		 ((needs & KB_NEED_HOPPER) && x->gpu_sm != 90) ||
		 ((needs & KB_NEED_COMM_ID_LO) && !(x->comm_id_loc.line && kb_boot_lo(r).line)) ||
		 ((needs & KB_PROSE_A2A) && !wd && !x->alltoall_loc.line));
}

/*
 * The NCCL a torch release's wheels ship, for a log that names the release: by its CUDA when the
 * log says it (+cu121), else only when every CUDA variant of that release ships the same NCCL.
 * `verified` is 0 when the research marks every such row inferred.
 */
static const char *torch_wheel_nccl(const struct run_obs *x, int *verified)
{
	const struct torch_nccl_pin *pin;
	const char *nccl = NULL;
	char mm[32];

	*verified = 0;
	if (x->torch_cuda[0]) {
		pin = stack_find_nccl_pin(x->torch_ver, x->torch_cuda);
		*verified = pin && pin->verified;
		return pin ? pin->nccl : NULL;
	}
	if (stack_major_minor(x->torch_ver, mm, sizeof(mm)) < 0)
		return NULL;
	for (size_t i = 0; i < stack_torch_nccl_count; i++) {
		pin = &stack_torch_nccl[i];
		if (strcmp(pin->torch, mm))
			continue;
		if (nccl && strcmp(nccl, pin->nccl))
			return NULL;	/* the variants differ: which one ran is unknown */
		nccl = pin->nccl;
		*verified |= pin->verified;
	}
	return nccl;
}

void rule_known_bugs(struct rs *r)
{
	const struct run_obs *x = r->x;
	size_t *parts = xmalloc(OBS_SIG_STREAMS * sizeof(*parts)), np;
	const char *vtext = NULL;
	struct loc vloc = { 0, 0 };
	const struct sig_hit *wd = sig_hit_of(r, "torch.watchdog.timeout");
	char ngc_text[120], torch_text[96];
	int ver = -1, inferred = 0;

	for (size_t i = 0; i < r->np && ver < 0; i++)
		if (r->p[i].m.nccl_version[0] && (ver = nccl_version_num(r->p[i].m.nccl_version)) >= 0) {
			vtext = r->p[i].m.nccl_version;
			vloc = r->p[i].m.ver_loc;
		}
	if (ver < 0)
		ver = pinned_nccl(x, &vtext, &vloc);
	if (ver < 0 && x->prose_nccl > 0) {	/* the reporter's "with NCCL 2.25.1" */
		ver = x->prose_nccl;
		vtext = x->prose_nccl_text;
		vloc = x->prose_nccl_loc;
	}
	if (ver < 0 && x->ngc_nccl > 0 && !x->ngc_differs) {	/* only the image names it */
		ver = x->ngc_nccl;
		snprintf(ngc_text, sizeof(ngc_text), "%d.%d.%d (the NCCL of %s)", ver / 10000,
			 ver / 100 % 100, ver % 100, x->ngc_image);
		vtext = ngc_text;
		vloc = x->ngc_loc;
	}
	if (ver < 0 && x->torch_ver[0]) {	/* only torch's release is named: the NCCL its wheels ship */
		int verified;
		const char *wheel = torch_wheel_nccl(x, &verified);
		if (wheel && verified && (ver = nccl_version_num(wheel)) >= 0) {
			snprintf(torch_text, sizeof(torch_text), "%s (the NCCL torch %s's wheels ship)", wheel,
				 x->torch_ver);
			vtext = torch_text;
			vloc = x->torch_loc;
			inferred = 1;
		}
	}
	for (size_t k = 0; k < explain_nknown_bugs; k++) {
		const struct explain_known_bug *kb = &explain_known_bugs[k];
		const struct sig_hit *h = kb->symptom ? sig_hit_of(r, kb->symptom) : NULL;
		int hang = wd || x->hang_loc.line, wrong = x->nt_oob > 0;
		enum confidence conf = ver >= 0 && !inferred && !(kb->needs & KB_MEDIUM) ? CONF_HIGH : CONF_MEDIUM;
		struct finding *d;

		if (kb->symptom ? !h : (kb->needs & KB_NEED_WRONG) ? !wrong : !hang)
			if (!kb->or_needs || !kb_facts(r, kb->or_needs, hang, wd != NULL))
				continue;
		if (!kb_facts(r, kb->needs, hang, wd != NULL))
			continue;
		if (ver >= 0 ? (ver < kb->from || (kb->to && ver >= kb->to)) : kb->version_required)
			continue;
		d = rs_add(r, kb->id, SEV_ERROR, conf, 150);
		if (h) {
			rs_sig_parts(r, h, parts, &np);
			rs_parts(r, d, parts, np);
		} else if (wd) {
			rs_sig_parts(r, wd, parts, &np);
			rs_parts(r, d, parts, np);
		}
		rs_title(d, "%s", kb->title);
		fix_lines(d, kb->fix);
		if (ver < 0)
			rs_fix(d, "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # the log does not show the NCCL version: confirm it is affected");
		else if (vtext == ngc_text)
			rs_fix(d, "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # in the container: a torch installed over the image's brings its own NCCL");
		else if (inferred)
			rs_fix(d, "python3 -c 'import torch; print(torch.cuda.nccl.version())'   # the log names torch's release, not its NCCL: confirm this one runs the wheel's");
		/* whole sentences, so that the renderer finds each one's translation */
		if (ver >= 0 && kb->fixed_in)
			finding_why(d, "%s confidence: %s; the log shows an affected NCCL %s",
				    conf == CONF_HIGH ? "High" : "Medium", kb->cause, vtext);
		else if (ver >= 0)
			finding_why(d, "%s confidence: %s; the log shows an affected NCCL %s (no fixed "
				    "release is named by a release note yet)",
				    conf == CONF_HIGH ? "High" : "Medium", kb->cause, vtext);
		else if (kb->fixed_in)
			finding_why(d, "%s confidence: %s; the NCCL version is not in the log", "Medium",
				    kb->cause);
		else
			finding_why(d, "%s confidence: %s; the NCCL version is not in the log (no fixed "
				    "release is named by a release note yet)", "Medium", kb->cause);
		if (kb->fixed_in)
			finding_evidence(d, "fixed in NCCL %s", kb->fixed_in);
		finding_evidence(d, "source: %s", kb->source);
		if (h)
			rs_at(r, d, h->ev[0], kb->symptom, h->ev_text[0]);
		else if (kb->needs & KB_NEED_WRONG)
			rs_at(r, d, x->nt_oob_loc, "nccl-tests", "results out of bounds");
		else if (wd)
			rs_at(r, d, wd->ev[0], "torch.watchdog.timeout", wd->ev_text[0]);
		else
			rs_at(r, d, x->hang_loc, "hang", NULL);
		for (size_t i = 0; i < ARRAY_SIZE(kb_fact_lines); i++) {
			const struct kb_fact *f = &kb_fact_lines[i];
			uint64_t bits = kb->needs | kb->or_needs | (kb->needs & KB_PROSE_A2A ? KB_NEED_ALLTOALL : 0);
			if (bits & f->bit)
				rs_at(r, d, kb_fact_loc(x, f), f->what, NULL);
		}
		if (kb->needs & KB_NEED_MIXED_CPU) {
			rs_at(r, d, x->intel_cpu_loc, "an Intel host", NULL);
			rs_at(r, d, x->amd_cpu_loc, "an AMD host", NULL);
		}
		if (kb->needs & KB_NEED_MIXED_ARCH) {
			rs_at(r, d, x->arm_loc, "an aarch64 host", NULL);
			rs_at(r, d, kb_x86_loc(x), "an x86 host", NULL);
		}
		if (kb->needs & KB_NEED_NCCL_ERROR) {
			const struct sig_hit *e = kb_nccl_error(r);
			rs_at(r, d, e->ev[0], "NCCL's error first", e->ev_text[0]);
		}
		if (kb->needs & KB_NEED_COMM_ID_LO) {
			rs_at(r, d, x->comm_id_loc, "NCCL_COMM_ID", NULL);
			rs_at(r, d, kb_boot_lo(r), "bootstrap on loopback", NULL);
		}
		if (kb->needs & KB_NEED_BOOT_SCAN) {
			rs_at(r, d, x->boot_chain_loc, "in bootstrap", NULL);
			rs_at(r, d, x->scan_loc, "a port scan", NULL);
		}
		if (ver >= 0)
			rs_at(r, d, vloc, "NCCL version", vtext);
	}
	free(parts);
}

/* The ids of failures inside NCCL, as opposed to what NCCL reports of the network or the host. */
static int nccl_inside_failure(const char *id)
{
	static const char *const inside[] = {
		"nccl.error.internal", "nccl.error.cuda", "nccl.error.system", "nccl.cuda.failure",
		"nccl.cuda.nvls",
		"nccl.proxy.", "nccl.ring.", "nccl.topo.", "nccl.no_transport", "nccl.algo.",
		"nccl.p2p.ipc_open", "nccl.collective.",
	};

	for (size_t i = 0; i < ARRAY_SIZE(inside); i++)
		if (!strncmp(id, inside[i], strlen(inside[i])))
			return 1;
	return 0;
}

/*
 * A torch release and the NCCL it runs, both named: an NCCL older than the one that release's
 * wheels ship means another libnccl is loaded first (LD_LIBRARY_PATH, LD_PRELOAD, a source
 * build) and lacks what that torch was tested with. The node-side compat.torch_nccl.older reads it
 * from the process; here only from the log's own lines, never from an inferred version.
 */
void rule_torch_nccl(struct rs *r)
{
	const struct run_obs *x = r->x;
	const char *vtext = NULL, *wheel;
	struct loc vloc = { 0, 0 };
	struct finding *d;
	int ver = -1, want, nccl_err = 0, sure = 0, verified;

	if (!x->torch_ver[0] || !(wheel = torch_wheel_nccl(x, &verified)))
		return;
	for (size_t i = 0; i < r->np && ver < 0; i++)
		if (r->p[i].m.nccl_version[0] && (ver = nccl_version_num(r->p[i].m.nccl_version)) >= 0) {
			vtext = r->p[i].m.nccl_version;
			vloc = r->p[i].m.ver_loc;
		}
	if (ver < 0 && x->prose_nccl > 0) {
		ver = x->prose_nccl;
		vtext = x->prose_nccl_text;
		vloc = x->prose_nccl_loc;
	}
	want = nccl_version_num(wheel);
	/* minor releases only: a patch release apart is how the CUDA variants of one torch differ */
	if (ver < 0 || want < 0 || ver / 100 >= want / 100)
		return;
	/*
	 * NCCL itself failed inside (an internal, CUDA or proxy error, a topology it could not
	 * build) and nothing explains it with confidence: the old NCCL is the first suspect. A
	 * refused connect, a reset socket or an IB completion error is the network's, whatever
	 * NCCL reports it: an older NCCL is no cause of those, so it stays a warning there.
	 */
	for (size_t i = r->first; i < r->fs->n; i++) {
		const struct finding *f = r->fs->v[i];
		if (f->sev == SEV_ERROR && f->conf == CONF_HIGH)
			sure = 1;
		else if (f->sev == SEV_ERROR && nccl_inside_failure(f->id))
			nccl_err = 1;
	}
	if (nccl_err && !sure && verified) {
		d = rs_add(r, "explain.torch.nccl_older", SEV_ERROR, CONF_MEDIUM, 100);
		rs_title(d, "torch %s runs NCCL %s, older than the %s its wheels ship: NCCL fails, upgrade it first",
			 x->torch_ver, vtext, wheel);
	} else {
		d = rs_add(r, "explain.torch.nccl_older", SEV_WARN, verified ? CONF_MEDIUM : CONF_LOW, 0);
		rs_title(d, "torch %s runs NCCL %s, older than the %s its wheels ship", x->torch_ver, vtext, wheel);
	}
	rs_fix(d, "python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'   # on every node: the NCCL torch really loads");
	rs_fix(d, "pip install 'nvidia-nccl-cu%s==%s'   # the NCCL torch %s was tested with; and drop a system libnccl from LD_LIBRARY_PATH / LD_PRELOAD",
	       x->torch_cuda[0] == '1' && x->torch_cuda[1] == '1' ? "11" : x->torch_cuda[0] == '1' && x->torch_cuda[1] == '3' ? "13" : "12",
	       wheel, x->torch_ver);
	finding_why(d, "%s confidence: PyTorch tests each release against one NCCL; an older one usually means a "
		 "system libnccl ahead of the wheel's on the library path, or torch built from source against it, "
		 "and it lacks the fixes that torch release relies on", verified ? "Medium" : "Low");
	rs_at(r, d, x->torch_loc, "torch", x->torch_ver);
	rs_at(r, d, vloc, "NCCL version", vtext);
}

/* Two values of MASTER_ADDR from the same kind of source: the nodes were told different things. */
void rule_master_differs(struct rs *r)
{
	const struct run_obs *x = r->x;
	struct finding *d;
	size_t a = strcspn(x->master, ":"), b = strcspn(x->master2, ":");

	if (!x->master2[0] || (a == b && !strncmp(x->master, x->master2, a)))
		return;
	d = rs_add(r, "explain.launch.master_addr_differs", SEV_ERROR, CONF_HIGH, 200);
	rs_title(d, "the nodes were given different MASTER_ADDR values: %s and %s", x->master, x->master2);
	rs_fix(d, "use one MASTER_ADDR on every node, the address of the node that runs rank 0 (one of %s / %s is a typo or stale)",
	       x->master, x->master2);
	rs_fix(d, "export MASTER_ADDR=<the rank-0 node's IP>   # the same value on every node, before the launcher starts");
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "High confidence: every rank must rendezvous at the same MASTER_ADDR:MASTER_PORT; with two "
		 "values the ranks form separate groups, and NCCL then sees ranks that do not fit ('Invalid rank "
		 "requested', a world-size mismatch) or the rendezvous waits forever");
	rs_at(r, d, x->master_loc, "MASTER_ADDR", x->master);
	rs_at(r, d, x->master2_loc, "MASTER_ADDR", x->master2);
}

/* One input, no per-rank prefixes: the same GLOBAL_RANK twice while others never appear. */
void rule_lightning_duplicates(struct rs *r)
{
	const struct run_obs *x = r->x;
	struct finding *d;

	if (!x->pl_dups || x->pl_world_max <= 0 || x->pl_distinct >= x->pl_world_max)
		return;
	for (size_t i = r->first; i < r->fs->n; i++)
		if (!strcmp(r->fs->v[i]->id, "explain.lightning.duplicate_rank"))
			return;
	d = rs_add(r, "explain.lightning.duplicate_rank", SEV_ERROR, CONF_HIGH, 180);
	rs_title(d, "GLOBAL_RANK %d is claimed by more than one process and only %d of %d ranks appear: every process was started twice",
		 x->pl_dup_rank, x->pl_distinct, x->pl_world_max);
	finding_rank(d, x->pl_dup_rank);
	rs_fix(d, "under Slurm, srun must start one task per GPU: #SBATCH --ntasks-per-node=<devices per node> and --nodes=<num_nodes>, the numbers of Trainer(devices=, num_nodes=)");
	rs_fix(d, "without Slurm, do not wrap the script in srun or mpirun: Lightning starts the processes of a node itself; give each node its NODE_RANK");
	finding_why(d, "High confidence: Lightning derives GLOBAL_RANK from the launcher's variables; when one task "
		 "per node starts its own %d local processes (or srun starts one task per node), the ranks repeat "
		 "and the rendezvous waits forever for the ones nobody claims", x->pl_world_max / 2 ? x->pl_world_max / 2 : 1);
	rs_at(r, d, x->pl_dup_loc, "the same GLOBAL_RANK again", NULL);
}

static int error_causes(const struct rs *r, int with_symptoms)
{
	for (size_t i = 0; i < explain_nsigs; i++)
		if (r->x->hits[i].count && explain_sigs[i].sev == SEV_ERROR &&
		    (with_symptoms || !(explain_sigs[i].flags & SIG_SYMPTOM)))
			return 1;
	return 0;
}

/*
 * Whether anything in the paste says the job spanned hosts, whatever nccl-tests' device table
 * shows: a paste of a multi-node run often keeps one host's rows only. A connection over the
 * network (via NET/...), NCCL lines of two hosts (or two bootstrap addresses), more ranks than the
 * table has rows (NCCL's nranks, the highest rank a row names, mpirun's -np times -g), mpirun's
 * host list or torchrun's --nnodes naming more than one, NCCL's nNodes, the reporter's "two
 * nodes".
 */
static int spans_hosts(const struct rs *r)
{
	const struct run_obs *x = r->x;
	const char *host = NULL, *addr = NULL;
	int ranks = x->nt_rank_end;

	if (x->nt_hosts > 1 || x->via_net_loc.line || x->launch_hosts_loc.line ||
	    x->multi_host_loc.line || atoi(x->tr.nnodes) > 1)
		return 1;
	if (x->launch_np > 0 && x->launch_np * (x->nt_gpus > 0 ? x->nt_gpus : 1) > ranks)
		ranks = x->launch_np * (x->nt_gpus > 0 ? x->nt_gpus : 1);
	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *m = &x->st[i];

		if (m->nnodes > 1)
			return 1;
		ranks = m->nranks > ranks ? m->nranks : ranks;
		ranks = m->start_nranks > ranks ? m->start_nranks : ranks;
		if (!m->nhost[0] || !m->nccl_lines)
			continue;
		if ((host && strcmp(host, m->nhost)) || (addr && m->boot_addr[0] && strcmp(addr, m->boot_addr)))
			return 1;
		host = m->nhost;
		addr = m->boot_addr[0] ? m->boot_addr : addr;
	}
	return x->nt_rows > 0 && ranks > x->nt_rows;
}

/* nccl-tests' own output: its device table says how many hosts took part (unless the rest of
 * the paste shows more: spans_hosts), its header and the final "Avg bus bandwidth" line say
 * whether the run got through. */
void rule_nccl_tests(struct rs *r)
{
	const struct run_obs *x = r->x;
	struct finding *d;

	if (!x->nt_rows)
		return;
	/* one host's rows of a multi-node run: its system error can be the network's, not /dev/shm */
	if (x->nt_hosts == 1 && !spans_hosts(r) && !error_causes(r, 0) &&
	    (sig_hit_of(r, "nccl.error.system") || sig_hit_of(r, "nccl.error.internal"))) {
		/* NVIDIA/nccl#473, nccl-tests#14: single-node system errors in docker were /dev/shm */
		d = rs_add(r, "explain.nccltests.single_node_system", SEV_ERROR, CONF_MEDIUM, 0);
		rs_title(d, "nccl-tests failed with a system error on one node (%d GPUs on %s): in a container this is usually a too small /dev/shm",
			 x->nt_rows, x->nt_host);
		rs_fix(d, "docker run --ipc=host ...   # or --shm-size=1g: Docker's default 64 MB /dev/shm is too small for NCCL's shared-memory transport");
		rs_fix(d, "df -h /dev/shm   # inside the container");
		rs_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=WARN (the WARN line names the failing call)");
		finding_why(d, "Medium confidence: on one node the system calls NCCL makes are shared memory "
			 "(/dev/shm segments) and local sockets; without a WARN line the usual culprit in "
			 "containers is the 64 MB /dev/shm");
		rs_at(r, d, x->nt_loc, "nccl-tests devices", x->nt_gpu);
		return;
	}
	if (!x->nt_header_loc.line || x->nt_done_loc.line || error_causes(r, 1))
		return;
	if (x->nt_hosts == 1 && !spans_hosts(r)) {
		/* NVIDIA/nccl-tests#117 (RTX 4090), nccl#257 and #120 (IOMMU), #631 (ACS) */
		d = rs_add(r, "explain.hang.p2p", SEV_ERROR, x->nt_consumer ? CONF_HIGH : CONF_MEDIUM, 100);
		rs_title(d, "nccl-tests printed its header and then nothing: the first collective between the %d GPUs of %s never completed",
			 x->nt_rows, x->nt_host);
		rs_fix(d, "export NCCL_P2P_DISABLE=1   # rerun the same test: if it completes, GPU peer-to-peer is broken on this machine");
		rs_fix(d, "sudo lspci -vvv | grep ACSCtl; cat /proc/cmdline   # ACS on (SrcValid+) or an IOMMU without iommu=pt breaks P2P");
		if (x->nt_consumer)
			rs_fix(d, "on GeForce/TITAN boards the driver can report P2P that does not work: keep NCCL_P2P_DISABLE=1 or update the driver");
		finding_why(d, "%s confidence: on one node the first collective only uses P2P or shared memory; a "
			 "silent stop there is P2P that the driver reports but the platform does not deliver (%s)",
			 x->nt_consumer ? "High" : "Medium", x->nt_gpu[0] ? x->nt_gpu : "these GPUs");
	} else {
		d = rs_add(r, "explain.hang.nccltests", SEV_ERROR, CONF_MEDIUM, 100);
		rs_title(d, "nccl-tests printed its header and then nothing: the first collective between the nodes never completed");
		rs_fix_ifname(r, d);
		rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET   # rerun: the transports and interfaces NCCL chose");
		rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
		finding_why(d, "Medium confidence: no error and no result line: the ranks wait on a connection "
			 "between the nodes (wrong interface, blocked ports, a silent IB/RoCE problem)");
	}
	rs_at(r, d, x->nt_loc, "nccl-tests devices", x->nt_gpu);
	rs_at(r, d, x->nt_header_loc, "results header, then no result", NULL);
}

/*
 * NCCL's socket transport uses every interface of its NET/Socket list; one real interface next to
 * docker bridges or link-local veths means connections over interfaces the peer cannot reach
 * (NVIDIA/nccl#697, maintainer: "we're trying to use all of these interfaces"). Only stated when
 * NCCL also failed and the list points at a single usable interface.
 */
void rule_socket_bridges(struct rs *r)
{
	const struct part *at = NULL;
	int bad = 0;
	struct finding *d;

	if (!r->suggest_loc.line || !r->suggest_if[0] ||
	    !(sig_hit_of(r, "nccl.error.system") || sig_hit_of(r, "nccl.error.internal") ||
	      sig_hit_of(r, "nccl.error.remote") || sig_hit_of(r, "nccl.socket.closed_by_peer")))
		return;
	for (size_t i = 0; i < r->np && !at; i++)
		if (r->p[i].m.sock_loc.line == r->suggest_loc.line && r->p[i].m.sock_loc.file == r->suggest_loc.file)
			at = &r->p[i];
	if (!at)
		return;
	for (int k = 0; k < at->m.nsock; k++) {
		enum aclass c = aclass_of(at->m.sock[k].ifname, at->m.sock[k].addr);
		bad += c == A_DOCKER || c == A_LINKLOCAL || c == A_LOOPBACK;
	}
	if (!bad)
		return;
	d = rs_add(r, "explain.net.socket_bridges", SEV_ERROR, CONF_MEDIUM, 50);
	rs_title(d, "NCCL's socket transport also uses docker bridges or link-local interfaces: only %s reaches the other nodes",
		 r->suggest_if);
	rs_fix_ifname(r, d);
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "Medium confidence: without NCCL_SOCKET_IFNAME the socket transport spreads its connections "
		 "over every interface it lists; a peer cannot reach another node's bridge addresses, so those "
		 "connections fail ('unhandled system error', closed connections) or hang");
}

/* Whether a finding with `id` is among this run's. */
static int emitted(const struct rs *r, const char *id)
{
	for (size_t i = r->first; i < r->fs->n; i++)
		if (!strcmp(r->fs->v[i]->id, id))
			return 1;
	return 0;
}

/* Whether a finding of the family `prefix` ("nccl.known_bug.") was emitted by explain. */
static int emitted_family(const struct rs *r, const char *prefix)
{
	for (size_t i = r->first; i < r->fs->n; i++)
		if (!strncmp(r->fs->v[i]->id, prefix, strlen(prefix)))
			return 1;
	return 0;
}

/* A known NCCL bug names the cause: the generic suspects of the same symptom stay silent. */
static int known_bug_emitted(const struct rs *r)
{
	return emitted_family(r, "nccl.known_bug.");
}

/*
 * Several NCCL processes of the log, all on one host (NCCL's host:pid prefix, one bootstrap
 * address) and no more ranks than those: its GPUs talk to each other over P2P or shared memory,
 * whatever the log says of the transports.
 */
static int one_host_ranks(const struct rs *r)
{
	const struct run_obs *x = r->x;
	const char *host = NULL, *addr = NULL;
	long pid = 0;
	int procs = 0, nranks = 0;

	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *m = &x->st[i];

		if (!m->nhost[0] || !m->nccl_lines || !m->npid)
			continue;
		if (host && strcmp(host, m->nhost))
			return 0;
		/* one name, two bootstrap addresses: two machines (or namespaces) named alike */
		if (m->boot_addr[0]) {
			if (addr && strcmp(addr, m->boot_addr))
				return 0;
			addr = m->boot_addr;
		}
		host = m->nhost;
		procs += !pid || m->npid != pid;
		pid = m->npid;
		nranks = m->nranks > nranks ? m->nranks : nranks;
	}
	/* "nranks 8" from two processes of this host: the job has ranks elsewhere too */
	return procs >= 2 && nranks <= procs;
}

/*
 * NVIDIA driver branches reported to break PCIe P2P that NCCL then uses and hangs on, with the
 * branch the reports found working. A driver the log names outside this table proves nothing.
 */
static const struct p2p_driver_bug {
	int branch;
	const char *works, *source;
} p2p_driver_bugs[] = {
	{ .branch = 545, .works = "535 (or a current branch)",
	  .source = "NVIDIA/nccl#1127: P2P on RTX 3090s failed with 545, downgrading to 535 fixed it" },
	{ .branch = 560, .works = "570 or later",
	  .source = "dmlc/xgboost#11242: NCCL hangs with P2P on 560; tested fixed with 570" },
};

static const struct p2p_driver_bug *p2p_driver_bug(int branch)
{
	for (size_t i = 0; i < ARRAY_SIZE(p2p_driver_bugs); i++)
		if (p2p_driver_bugs[i].branch == branch)
			return &p2p_driver_bugs[i];
	return NULL;
}

/* GeForce boards of the Ada and Blackwell generations (RTX 40xx, 50xx) have no PCIe P2P of their
 * own; drivers that still reported it made NCCL hang (NVIDIA/nccl-tests#117, nccl#1637). */
static int geforce_no_p2p(const char *gpu)
{
	const char *q = strstr(gpu, "RTX ");

	return q && (q[4] == '4' || q[4] == '5') && isdigit((unsigned char)q[5]) &&
	       isdigit((unsigned char)q[6]) && isdigit((unsigned char)q[7]);
}

/*
 * Wrong results from nccl-tests run on one host (its device table names one host, and nothing
 * says the job spanned more): no network carried the data, so GDR is out and the GPUs' own path
 * to each other (P2P over PCIe, else shared memory) is what corrupted it.
 */
static int wrong_on_one_node(const struct rs *r)
{
	return r->x->nt_oob_loc.line && r->x->nt_hosts == 1 && !spans_hosts(r);
}

/*
 * GPU peer-to-peer over PCIe, read from the log, a pasted `nvidia-smi topo -m` and the reporter's
 * own words together: a hang or failed collective (or "it works with NCCL_P2P_DISABLE=1") on GPUs
 * that the matrix shows linked through PCIe switches (ACS redirects their traffic) or through the
 * CPU (the IOMMU translates it), with IOMMU faults, ACS on, GeForce boards whose driver can report
 * P2P that does not work, or p2pBandwidthLatencyTest refusing pairs (NVIDIA/nccl-tests#117,
 * nccl#257, #120, #631). The id names the mechanism the evidence shows: explain.pcie.iommu,
 * explain.pcie.acs, or explain.pcie.p2p when it cannot tell. Never when a network error explains
 * the failure: P2P is one node's business.
 */
void rule_p2p_topology(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct sig_hit *iommu = sig_hit_of(r, "sys.iommu.fault");
	const struct sig_hit *acs = sig_hit_of(r, "sys.pci.acs_enabled");
	static const char *const symptoms[] = {
		"torch.watchdog.timeout", "nccl.error.system", "nccl.error.internal", "nccl.error.cuda",
		"cuda.illegal_access", "cuda.launch_failure", "torch.comm.aborted",
	};
	const char *symptom = NULL, *id;
	const struct p2p_driver_bug *bug = p2p_driver_bug(x->nv_driver);
	struct loc sloc = { 0, 0 };
	/* any NVLink pair: the matrix may lack its header, and a SYS column could be a NIC */
	int pcie = x->topo_rows >= 2 && !x->topo_nv && x->topo_switch + x->topo_host > 0;
	int hang = emitted(r, "explain.hang.p2p") || emitted(r, "explain.init.stuck") ||
		   x->hang_loc.line;
	int works_off = x->p2p_off_loc.line && !x->p2p_nohelp_loc.line, timeout, multi = 0;
	/* silent corruption is the other face of P2P that does not deliver (rule_wrong_results
	 * leaves one node's wrong results here), unless a forced protocol or a known bug names it */
	int wrong = wrong_on_one_node(r) && !obs_env(x, "NCCL_P2P_DISABLE") &&
		    !emitted(r, "nccl.env.proto_forced") && !emitted(r, "nccl.env.algo_forced");
	/* GPUs of one node talking to each other: nccl-tests on one host, or NCCL's P2P transport */
	int one_node_gpus = x->nt_rows >= 2 && x->nt_hosts == 1 && !spans_hosts(r);
	int gpus = pcie || x->consumer_gpu[0] || x->peer_cannot_loc.line || x->acs_loc.line ||
		   iommu || acs || works_off || one_node_gpus;
	enum confidence conf;
	struct finding *d;

	for (size_t i = 0; i < explain_nsigs; i++)
		if (x->hits[i].count && (explain_sigs[i].flags & SIG_NET) && explain_sigs[i].sev == SEV_ERROR)
			return;
	for (size_t i = 0; i < r->np; i++) {
		multi |= r->p[i].m.nnodes > 1;
		gpus |= (r->p[i].m.transports & TR_P2P) != 0;
	}
	/* weak evidence: only where no error of its own names the cause */
	gpus |= !error_causes(r, 0) && one_host_ranks(r);
	/* across nodes the network is the first suspect; one host's device rows do not make one node */
	if (!gpus || multi || spans_hosts(r))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(symptoms) && !symptom; i++) {
		const struct sig_hit *h = sig_hit_of(r, symptoms[i]);
		if (h) {
			symptom = symptoms[i];
			sloc = h->ev[0];
		}
	}
	if (wrong && known_bug_emitted(r))
		wrong = 0;
	if (!symptom && !hang && !iommu && !acs && !works_off && !wrong)
		return;
	if (acs && !pcie && !iommu)
		return;		/* sys.pci.acs_enabled names it, with its fixes */
	if (x->p2p_nohelp_loc.line && !iommu && !acs)
		return;		/* the run with P2P off failed the same way: not P2P */
	if (sig_hit_of(r, "nccl.version.nccl1") && !iommu && !acs)
		return;		/* a NCCL 1 build is the suspect before the platform */
	if (emitted(r, "explain.hang.nvls") && !iommu && !acs)
		return;		/* NVSwitch GPUs: their peer traffic is NVLink, not PCIe */
	if (emitted(r, "explain.hang.p2p") && !pcie && !iommu && !acs)
		return;		/* nccl-tests' own hang finding already says it all */
	if (emitted(r, "explain.nccltests.single_node_system") && !iommu && !acs)
		return;		/* a system error on one node: /dev/shm first */
	if (!pcie && !symptom && !hang && !iommu && !acs && !x->peer_cannot_loc.line && !wrong)
		return;		/* only the variable named: nothing failed */
	timeout = hang || (symptom && !strcmp(symptom, "torch.watchdog.timeout"));
	if (iommu || acs || (works_off && (timeout || symptom || wrong)) ||
	    (x->consumer_gpu[0] && (timeout || wrong)))
		conf = CONF_HIGH;
	else if (timeout || wrong || x->peer_cannot_loc.line)
		conf = CONF_MEDIUM;
	else
		conf = CONF_LOW;	/* a generic error only: said, below the findings that name a cause */
	/*
	 * With nothing to tell them apart the IOMMU comes first: Linux turns ACS on in every PCIe
	 * switch port when an IOMMU is enabled (pci_request_acs() from the Intel and AMD IOMMU
	 * set-up), so peer traffic goes up to the CPU and is translated there; NCCL's
	 * troubleshooting guide names VT-d/IOMMU as the cause of these hangs. A driver branch
	 * known to break P2P, or a GeForce board without P2P, outranks it.
	 */
	if (iommu || (pcie && !x->topo_switch))
		id = "explain.pcie.iommu";
	else if (acs || (pcie && !x->topo_host))
		id = "explain.pcie.acs";
	else if (bug)
		id = "explain.pcie.driver_p2p_bug";
	else if (pcie || geforce_no_p2p(x->consumer_gpu))
		id = "explain.pcie.p2p";
	else
		id = "explain.pcie.iommu";
	d = rs_add(r, id, SEV_ERROR, conf, conf == CONF_LOW ? -100 : 160);
	if (pcie)
		rs_title(d, "GPU peer-to-peer over PCIe does not deliver: the GPUs have no NVLink between "
			   "them (%s in nvidia-smi topo), and the %s", x->topo_switch && x->topo_host ?
			   N_("PCIe switch and CPU paths") : x->topo_switch ? N_("PCIe switch paths") : N_("CPU paths"),
			   iommu ? N_("IOMMU faults their DMA") : acs ? N_("PCIe switches have ACS on") :
			   hang ? N_("collectives hang") : wrong ? N_("results come back wrong") :
			   N_("collectives fail or time out"));
	else {
		/* whole sentences, so a translation sees each part (adjacent %s cannot be told apart) */
		const char *what = iommu ? N_("the IOMMU faults the GPUs' DMA") :
				   acs ? N_("ACS is on in the PCIe switches") :
				   works_off ? N_("the job works with NCCL_P2P_DISABLE=1") :
				   hang ? N_("the collective hangs") :
				   wrong ? N_("nccl-tests' results come back wrong") :
				   N_("collectives fail or time out");
		char why[256];

		if (!iommu && !acs && bug)
			snprintf(why, sizeof(why), N_("%s; driver %s"), what, x->nv_driver_ver);
		else if (!iommu && !acs && !strcmp(id, "explain.pcie.iommu"))
			snprintf(why, sizeof(why), N_("%s; the likeliest cause is the IOMMU"), what);
		else
			snprintf(why, sizeof(why), "%s", what);
		if (x->consumer_gpu[0])
			rs_title(d, "GPU peer-to-peer on %s does not deliver: %s", x->consumer_gpu, why);
		else
			rs_title(d, "GPU peer-to-peer does not deliver: %s", why);
	}
	if (bug && !iommu && !acs) {
		rs_fix(d, "sudo apt install nvidia-driver-%s   # or your distribution's package: driver %s is reported to break PCIe P2P; %s works",
		       strncmp(bug->works, "570", 3) ? "535" : "570", x->nv_driver_ver, bug->works);
		rs_fix(d, "nvidia-smi --query-gpu=driver_version --format=csv,noheader   # after the reboot: the new branch on every GPU");
	}
	rs_fix(d, "export NCCL_P2P_DISABLE=1   # to confirm: rerun; if it completes, P2P is the fault (NCCL then uses shared memory, slower)");
	if (iommu || x->topo_host || !pcie)
		rs_fix(d, "cat /proc/cmdline; sudo dmesg | grep -i -e DMAR -e AMD-Vi -e IO_PAGE_FAULT   # an IOMMU that translates peer DMA: boot with iommu=pt (amd_iommu=pt, or intel_iommu=on iommu=pt) or turn it off in the BIOS");
	if (acs || x->topo_switch || !pcie)
		rs_fix(d, "sudo lspci -vvv | grep ACSCtl   # 'SrcValid+' on a PCIe switch port means ACS is on: disable it in the BIOS, or at boot with setpci -s <bridge> ECAP_ACS+0x6.w=0000");
	if (x->topo_switch && x->topo_host && !acs)
		rs_fix(d, "export NCCL_P2P_LEVEL=PXB   # if only the paths through the CPU fail: P2P through PCIe switches only, shared memory across the CPU");
	rs_fix(d, "nvidia-smi topo -p2p r   # the driver's P2P verdict per GPU pair: GeForce boards and some driver releases report P2P the platform does not carry; keep NCCL_P2P_DISABLE=1 or change the driver");
	rs_fix(d, "to test it: ./p2pBandwidthLatencyTest   (cuda-samples: every GPU pair must show P2P bandwidth and correct results, and dmesg no new faults)");
	finding_why(d, "%s confidence: on one node NCCL moves data GPU to GPU with P2P when the driver "
		 "allows it; over PCIe that traffic crosses switches (ACS sends it up to the root complex) "
		 "or the CPU (an IOMMU not in passthrough translates and can drop it), and on GeForce boards "
		 "the driver can report P2P the platform does not carry: the collective hangs or returns "
		 "zeros, with no error naming P2P.%s%s%s%s", conf == CONF_HIGH ? "High" :
		 conf == CONF_MEDIUM ? "Medium" : "Low",
		 conf == CONF_LOW ? " The log only shows a generic failure: the NCCL_P2P_DISABLE=1 rerun "
		 "decides it." : "", bug ? " Driver branch: " : "", bug ? bug->source : "",
		 !bug && !strcmp(id, "explain.pcie.iommu") && !iommu && !pcie ? N_(" Nothing here "
		 "tells the IOMMU from ACS set in the BIOS or a driver fault; the IOMMU is checked first "
		 "because Linux turns ACS on in every PCIe switch when an IOMMU is enabled.") : "");
	if (x->topo_loc.line)
		rs_at(r, d, x->topo_loc, "nvidia-smi topo", x->topo_row);
	if (x->consumer_loc.line)
		rs_at(r, d, x->consumer_loc, "GPU", x->consumer_gpu);
	if (bug)
		rs_at(r, d, x->nv_driver_loc, "driver", x->nv_driver_ver);
	if (iommu)
		rs_at(r, d, iommu->ev[0], "IOMMU fault", iommu->ev_text[0]);
	if (acs)
		rs_at(r, d, acs->ev[0], "ACS", acs->ev_text[0]);
	else if (x->acs_loc.line)
		rs_at(r, d, x->acs_loc, "ACS checked", NULL);
	rs_at(r, d, x->peer_cannot_loc, "p2pBandwidthLatencyTest: a GPU pair without peer access", NULL);
	rs_at(r, d, x->p2p_off_loc, "works with P2P off", NULL);
	if (wrong)
		rs_at(r, d, x->nt_oob_loc, "nccl-tests", "results out of bounds");
	rs_at(r, d, x->hang_loc, "hang", NULL);
	if (symptom)
		rs_at(r, d, sloc, symptom, NULL);
}

/* Hopper and Blackwell boards that sit on NVSwitch (SXM/HGX): NVLS needs NVSwitch */
static int nvswitch_gpu(const struct run_obs *x)
{
	const char *name = x->nt_gpu[0] ? x->nt_gpu : x->gpu_model;

	if (x->gpu_sm < 90 || strstr(name, "PCIe") || strstr(name, "NVL"))
		return 0;	/* H100 PCIe and H100 NVL pairs have no NVSwitch */
	return !strcmp(x->gpu_model, "H100") || !strcmp(x->gpu_model, "H800") ||
	       !strcmp(x->gpu_model, "H200") || !strcmp(x->gpu_model, "B200");
}

/*
 * A hang on one node of NVSwitch GPUs (H100/H800/H200/B200 SXM) that P2P does not explain: NCCL
 * (2.17 on) runs collectives among the GPUs of an NVSwitch node through NVLink SHARP (NVLS),
 * multicast objects the fabric manager sets up; when that path stalls, the job hangs after init
 * with nothing in the log, and NCCL_P2P_DISABLE=1 changes nothing since NVLS is not P2P. The NCCL
 * environment-variable docs name NCCL_NVLS_ENABLE=0 to turn NVLS off; the fabric manager state
 * (nvidia-smi -q: Fabric State) is where it breaks. Said only when the board is an NVSwitch one
 * and either NCCL announced NVLS or a run with P2P off hung the same way; never across nodes
 * (spans_hosts: a device table of one host may be one node's rows of a job whose hang is the
 * network's).
 */
void rule_nvls_hang(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *nvls = obs_env(x, "NCCL_NVLS_ENABLE");
	const struct env_obs *p2p = obs_env(x, "NCCL_P2P_DISABLE");
	int hang = x->hang_loc.line || emitted(r, "explain.hang.p2p") || emitted(r, "explain.init.stuck");
	int p2p_off = x->p2p_nohelp_loc.line || (p2p && p2p->value[0] == '1');
	const char *v = NULL;
	struct finding *d;

	if (!hang || !nvswitch_gpu(x) || spans_hosts(r) || error_causes(r, 1) ||
	    (nvls && nvls->value[0] == '0') || (!x->nvls_loc.line && !p2p_off))
		return;
	for (size_t i = 0; i < r->np; i++) {
		if (r->p[i].m.nnodes > 1)
			return;
		if (!v && r->p[i].m.nccl_version[0])
			v = r->p[i].m.nccl_version;
	}
	if (v && nccl_version_num(v) >= 0 && nccl_version_num(v) < 21700)
		return;		/* NVLS came with 2.17 */
	d = rs_add(r, "explain.hang.nvls", SEV_ERROR, CONF_MEDIUM, 170);
	rs_title(d, "the GPUs of one NVSwitch node (%s) hang after init%s: the NVLink SHARP (NVLS) path of the collectives is the suspect",
		 x->nt_gpu[0] ? x->nt_gpu : x->gpu_model, p2p_off ? " with P2P off as well" : "");
	rs_fix(d, "export NCCL_NVLS_ENABLE=0   # rerun: if it completes, NVLS is the fault (NCCL falls back to NVLink rings and trees)");
	rs_fix(d, "nvidia-smi -q | grep -A2 -i fabric; systemctl status nvidia-fabricmanager   # NVLS needs the fabric manager running and every GPU's fabric state 'Completed'");
	rs_fix(d, "upgrade NCCL and the driver/fabric manager together (the same driver branch), then rerun without NCCL_NVLS_ENABLE");
	finding_why(d, "Medium confidence: on an NVSwitch node NCCL (2.17 on) runs collectives through NVLS "
		 "multicast, set up by the fabric manager; %s, so the GPU peer-to-peer path is not what "
		 "hangs. A fabric manager restarted while the GPUs were in use, or one of another "
		 "driver branch, leaves NVLS half set up.", p2p_off ? "the run with NCCL_P2P_DISABLE=1 "
		 "hung the same way" : "NCCL announced NVLS for these GPUs");
	if (x->nt_loc.line)
		rs_at(r, d, x->nt_loc, "nccl-tests devices", x->nt_gpu);
	rs_at(r, d, x->nvls_loc, "NVLS", NULL);
	if (p2p)
		rs_at(r, d, p2p->loc, "NCCL_P2P_DISABLE", p2p->value);
	rs_at(r, d, x->p2p_nohelp_loc, "P2P off changed nothing", NULL);
	rs_at(r, d, x->hang_loc, "hang", NULL);
}

/* torchrun's --nnodes as written ("2", "1:4"): the most nodes it allows, or 0 */
static int torchrun_nodes(const struct run_obs *x)
{
	const char *n = strchr(x->tr.nnodes, ':');

	return atoi(n ? n + 1 : x->tr.nnodes);
}

/*
 * A job launched across nodes that failed inside NCCL while NCCL printed nothing (NCCL_DEBUG
 * unset): the log cannot tell which transport failed, and the commonest failures between nodes
 * are NCCL choosing an InfiniBand/RoCE device that has no path to the other node (NCCL uses IB
 * whenever it finds an HCA; NCCL_IB_DISABLE=1 makes it use TCP sockets) or a socket interface the
 * other node cannot reach. Said at low confidence, with the checks that decide it, only when no
 * error of its own names a cause and the launch line shows more than one node.
 */
void rule_multinode_blind(struct rs *r)
{
	const struct run_obs *x = r->x;
	static const char *const symptoms[] = {
		"torch.comm.aborted", "torch.watchdog.timeout", "nccl.error.remote", "nccl.error.system",
		"nccl.error.internal",
	};
	const struct sig_hit *h = NULL;
	int nodes = torchrun_nodes(x);
	struct finding *d;

	if (nodes < 2 || x->nccl_info_lines || error_causes(r, 0))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(symptoms) && !h; i++)
		h = sig_hit_of(r, symptoms[i]);
	if (!h)
		return;
	d = rs_add(r, "explain.multinode.no_detail", SEV_ERROR, CONF_LOW, 60);
	rs_title(d, "a job across %d nodes failed in NCCL and the log has no NCCL detail: the transport between the nodes (InfiniBand/RoCE, or the socket interface) is the first suspect",
		 nodes);
	rs_fix(d, "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET   # rerun on every node: the NET lines name the transport (IB or Socket) and the interface NCCL chose");
	rs_fix(d, "export NCCL_IB_DISABLE=1   # if the nodes have no working InfiniBand/RoCE path between them: NCCL uses IB whenever it finds an HCA, and TCP sockets only with this");
	rs_fix_ifname(r, d);
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "Low confidence: the launch line runs %d nodes and NCCL printed no INFO lines, so the "
		 "log cannot say which transport failed; between nodes the usual failures are an "
		 "InfiniBand/RoCE device NCCL picked that has no path to the other node, or a socket "
		 "interface the other node cannot reach. The NCCL_DEBUG=INFO rerun decides it.", nodes);
	rs_at(r, d, x->tr.loc, "torchrun", x->tr.nnodes);
	rs_at(r, d, h->ev[0], "failure", NULL);
}

/*
 * How nccl-tests was started, from its own output and the launch line: with -g N each process
 * takes N GPUs counted from its local index times N, so more processes on a node than GPUs / N
 * ask for devices that do not exist (nccl-tests' README; NVIDIA/nccl-tests#14-style threads); and
 * one summary per process under an mpirun of several processes is a binary built without MPI=1,
 * which runs as independent single-process tests.
 */
void rule_nccl_tests_launch(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct sig_hit *ord = sig_hit_of(r, "cuda.invalid_ordinal");
	struct finding *d;

	if (ord && x->nt_gpus > 1) {
		d = rs_add(r, "explain.nccltests.gpus_per_process", SEV_ERROR, CONF_HIGH, 200);
		rs_title(d, "nccl-tests asked for more GPUs than the node has: -g %d per process%s",
			 x->nt_gpus, x->launch_np > 1 ? " with several processes per node" : "");
		if (x->launch_np > 1)
			rs_fix(d, "mpirun -np <GPUs in all> ... ./build/all_reduce_perf ... -g 1   # one process per GPU (or one process per node with -g <GPUs per node>)");
		else
			rs_fix(d, "./build/all_reduce_perf ... -g <GPUs on this node>   # or one process per GPU: mpirun -np <GPUs> ... -g 1");
		rs_fix(d, "nvidia-smi -L   # the GPUs each node really has (CUDA_VISIBLE_DEVICES narrows them)");
		finding_why(d, "High confidence: each nccl-tests process uses -g GPUs starting at local rank x -g, "
			 "so %d GPUs per process fit only GPUs/%d processes per node; the others fail with "
			 "'invalid device ordinal'%s", x->nt_gpus, x->nt_gpus,
			 x->launch_np > 1 ? "" : " (with mpirun not reaching the other nodes, every process "
			 "lands on one node: check that MPI starts across the hosts first)");
		rs_at(r, d, x->nt_gpus_loc, "GPUs per process", NULL);
		rs_at(r, d, x->launch_loc, "launch", NULL);
		rs_at(r, d, ord->ev[0], "cuda.invalid_ordinal", ord->ev_text[0]);
	}
	if (x->launch_np > 1 && x->nt_done_count >= 2 && !x->nt_rows) {
		/* a binary built with MPI=1 prints one table of every rank and one summary */
		d = rs_add(r, "explain.nccltests.not_mpi_build", SEV_ERROR, CONF_MEDIUM, 100);
		rs_title(d, "mpirun started %d copies of nccl-tests that each ran alone (%d summaries): the binary was built without MPI=1",
			 x->launch_np, x->nt_done_count);
		rs_fix(d, "make clean && make MPI=1 MPI_HOME=/usr/lib/x86_64-linux-gnu/openmpi CUDA_HOME=/usr/local/cuda   # rebuild nccl-tests with MPI (MPI_HOME: where mpi.h lives)");
		rs_fix(d, "mpirun -np 2 -H <host1>,<host2> ./build/all_reduce_perf -g 1   # then one run prints every rank in '# Using devices' and one summary");
		finding_why(d, "Medium confidence: without MPI=1 every process is a world of its own: mpirun "
			 "starts N independent single-process tests, each printing its own summary at one node's "
			 "bandwidth");
		rs_at(r, d, x->launch_loc, "launch", NULL);
		rs_at(r, d, x->nt_done_loc, "one of the summaries", NULL);
	}
}

/*
 * Shared memory in a container: Docker gives a container 64 MB of /dev/shm unless it runs with
 * --shm-size or --ipc=host, and NCCL's SHM transport maps its buffers there as sparse files. A
 * bus error inside NCCL's own frames is a touch of a mapped page the full tmpfs could not back;
 * "No space left on device" in a container started without either flag is the same limit met
 * when a segment is sized (NVIDIA/nccl#290, Megatron-LM#878-style threads). The generic rows
 * (torch.dataloader.shm, sys.no_space) cannot tell NCCL's or a container's case from the rest.
 */
void rule_shm_container(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct sig_hit *bus = sig_hit_of(r, "torch.dataloader.shm");
	const struct sig_hit *nospc = sig_hit_of(r, "sys.no_space");
	int bare = x->docker_loc.line && !x->docker_shm;
	int boxed = bare || (!x->docker_loc.line && x->container_loc.line);
	struct finding *d;

	if (bus && x->nccl_frame_loc.line) {
		d = rs_add(r, "explain.shm.sigbus", SEV_ERROR, boxed ? CONF_HIGH : CONF_MEDIUM, 200);
		rs_title(d, "NCCL died of a bus error in its own code: a shared-memory buffer in /dev/shm "
			 "could not be backed%s", boxed ? " (a container: Docker's /dev/shm is 64 MB unless "
			 "sized)" : "");
		rs_fix(d, "docker run --shm-size=16g ...   # or --ipc=host; in Kubernetes an emptyDir with medium: Memory mounted at /dev/shm");
		rs_fix(d, "df -h /dev/shm   # inside the container: 64M is Docker's default");
		rs_fix(d, "export NCCL_SHM_DISABLE=1   # to confirm without a restart: the run gets through, slower, without NCCL's SHM transport");
		finding_why(d, "%s confidence: NCCL's SHM transport maps files in /dev/shm; on a full tmpfs "
			 "the first touch of an unbacked page raises SIGBUS, here in NCCL's own frames%s",
			 boxed ? "High" : "Medium", boxed ? ", in a container" : "");
		rs_at(r, d, bus->ev[0], "bus error", bus->ev_text[0]);
		rs_at(r, d, x->nccl_frame_loc, "NCCL frame", NULL);
		if (boxed)
			rs_at(r, d, bare ? x->docker_loc : x->container_loc, "container", NULL);
	}
	if (nospc && boxed) {
		d = rs_add(r, "explain.shm.container_full", SEV_ERROR, bare ? CONF_HIGH : CONF_MEDIUM, 200);
		rs_title(d, "no space left on a device in a container%s: its /dev/shm is Docker's 64 MB "
			 "default, too small for NCCL's and the DataLoader's shared memory",
			 bare ? " started without --shm-size or --ipc=host" : "");
		rs_fix(d, "docker run --shm-size=16g ...   # or --ipc=host: restart the container with either");
		rs_fix(d, "df -h /dev/shm /tmp .   # inside the container: which device is full");
		finding_why(d, "%s confidence: %s; a full disk says the same, which df tells apart",
			 bare ? "High" : "Medium", bare ? "the docker run line sizes no /dev/shm"
			 : "the log names a container, not how it was started");
		rs_at(r, d, nospc->ev[0], "no space", nospc->ev_text[0]);
		rs_at(r, d, bare ? x->docker_loc : x->container_loc, "container", NULL);
	}
}

/*
 * Containers on two or more hosts that fail with nothing but a system error: on Docker's default
 * bridge network each container advertises its private address (172.17.0.x), which no other host
 * can reach, and NCCL's first connect to a peer fails as "unhandled system error" (pytorch#23363,
 * insightface#1444-style threads; the fix is host networking). Medium: the log shows containers
 * and several hosts, not the network mode.
 */
void rule_container_hosts(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct sig_hit *sys = sig_hit_of(r, "nccl.error.system");
	struct finding *d;

	if (!sys || !x->multi_host_loc.line || error_causes(r, 0) ||
	    !(x->container_loc.line || x->veth_loc.line))
		return;
	d = rs_add(r, "explain.net.container_bridge", SEV_ERROR, CONF_MEDIUM, 200);
	rs_title(d, "NCCL failed with a system error between containers on several hosts: on Docker's "
		 "default bridge network each container advertises a private address the other hosts "
		 "cannot reach");
	rs_fix(d, "docker run --network=host ...   # on every host: the containers then use the hosts' own interfaces and addresses");
	rs_fix(d, "export NCCL_SOCKET_IFNAME=<the host interface that reaches MASTER_ADDR>   # with host networking, if the hosts have several");
	rs_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO (its 'NET/Socket : Using' line shows the address each rank advertises: 172.17.x is the bridge)");
	finding_why(d, "Medium confidence: the log shows containers and several hosts and no cause "
		 "but a system error; the network mode itself is not in the log");
	rs_at(r, d, sys->ev[0], "system error", sys->ev_text[0]);
	rs_at(r, d, x->container_loc.line ? x->container_loc : x->veth_loc, "container", NULL);
	rs_at(r, d, x->multi_host_loc, "several hosts", NULL);
}

/*
 * GPUDirect RDMA on some IB connections of a job and not on others (NCCL's "via NET/IB/0/GDRDMA"
 * beside "via NET/IB/1"): NCCL decides GDR per node and HCA, so one node without a loaded
 * peer-memory module (or with GDR disabled for distance) sends through host memory while the
 * others do not (NVIDIA/nccl#1676-style reports). Medium at most: distance alone can do it.
 */
void rule_gdr_partial(struct rs *r)
{
	const struct run_obs *x = r->x;
	struct finding *d;

	if (!x->via_gdr || !x->via_nogdr)
		return;
	d = rs_add(r, "explain.rdma.gdr_partial", SEV_WARN, CONF_MEDIUM, 0);
	rs_title(d, "GPUDirect RDMA is used on %llu IB connections and not on %llu: a node without nvidia-peermem is the usual cause",
		 (unsigned long long)x->via_gdr, (unsigned long long)x->via_nogdr);
	rs_fix(d, "lsmod | grep -E 'nvidia_peermem|nv_peer_mem'; ls /sys/kernel/mm/memory_peers/   # on every node: the peermem module loaded (nv_mem listed)");
	rs_fix(d, "sudo modprobe nvidia-peermem   # on the nodes without it; NCCL <= 2.22.3 also needs the old nv_peer_mem name (fixed in 2.23.4)");
	rs_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET (the 'GPU Direct RDMA Enabled/Disabled for HCA' lines name the node and the reason)");
	finding_why(d, "Medium confidence: NCCL enables GPUDirect RDMA per node and HCA; when one node lacks "
		 "the peer-memory module its connections go through host memory and the whole ring runs "
		 "at that speed. GPUs far from their NIC (NCCL_NET_GDR_LEVEL) also show the split.");
	rs_at(r, d, x->via_gdr_loc, "with GPUDirect RDMA", NULL);
	rs_at(r, d, x->via_nogdr_loc, "without", NULL);
}

/*
 * The address a failing connection names, read for what it is: an address of loopback, Docker's
 * default bridge (docker0 is 172.17.0.1/16 unless configured otherwise), libvirt's default
 * virbr0 (192.168.122.0/24) or IPv4 link-local is one a peer advertised from the wrong interface:
 * other hosts cannot reach it (NCCL's default filter excludes only lo and docker*, so a bridge
 * under another name, or a container's own eth0 on the bridge, is still chosen).
 */
void rule_peer_address(struct rs *r)
{
	static const struct {
		const char *prefix, *what;
		enum confidence conf;
	} kinds[] = {
		{ .prefix = "127.", .what = "a loopback address", .conf = CONF_HIGH },
		{ .prefix = "172.17.", .what = "in Docker's default bridge network (docker0, 172.17.0.0/16)", .conf = CONF_MEDIUM },
		{ .prefix = "192.168.122.", .what = "in libvirt's default bridge network (virbr0, 192.168.122.0/24)", .conf = CONF_MEDIUM },
		{ .prefix = "169.254.", .what = "an IPv4 link-local address", .conf = CONF_MEDIUM },
	};
	const struct run_obs *x = r->x;
	struct finding *d;

	for (int i = 0; i < x->npeers; i++) {
		const struct peer_obs *pe = &x->peers[i];
		/* an IB completion's peer is the RoCE/IPoIB address the fabric uses, not a choice of
		 * socket interface: only socket connects are read here */
		for (size_t k = 0; k < ARRAY_SIZE(kinds) && pe->sock; k++) {
			if (strncmp(pe->addr, kinds[k].prefix, strlen(kinds[k].prefix)))
				continue;
			d = rs_add(r, "explain.net.peer_address", SEV_ERROR, kinds[k].conf, 260);
			rs_title(d, "NCCL tried to reach %s, %s: a peer advertised an address other hosts cannot reach",
				 pe->addr, kinds[k].what);
			rs_fix_ifname(r, d);
			if (k == 1)
				rs_fix(d, "docker run --network=host ...   # containers on several hosts: the host's own interfaces, not the bridge (or NCCL_SOCKET_IFNAME=^docker0,lo,veth)");
			else if (k == 2)
				rs_fix(d, "export NCCL_SOCKET_IFNAME=^virbr0,lo,docker0   # on every node: never the libvirt bridge");
			rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
			finding_why(d, "%s confidence: NCCL connects to the address each rank advertised from the "
				 "interface it chose; %s exists on every such host and leads nowhere across hosts, so "
				 "the connection is refused or times out. NCCL_SOCKET_IFNAME names the interface that "
				 "carries the nodes' own addresses.%s", kinds[k].conf == CONF_HIGH ? "High" : "Medium",
				 pe->addr, kinds[k].conf == CONF_HIGH ? "" : " (If this range is really your nodes' "
				 "network, this finding does not apply: the connection error below it does.)");
			rs_at(r, d, pe->loc, "a failing connection to", pe->addr);
			return;
		}
	}
	/* the address a rank advertises itself: a link-local one (IPv6 fe80::, or 169.254/16) serves
	 * only its own link, as NCCL picks it when the chosen interface has nothing routable */
	for (uint32_t i = 0; i < x->nst; i++) {
		const struct stream_obs *m = &x->st[i];
		int v6 = !strncasecmp(m->boot_addr, "fe80:", 5), v4 = !strncmp(m->boot_addr, "169.254.", 8);
		int failed = error_causes(r, 1) || x->hang_loc.line, hosts = 0;
		if (!v6 && !v4)
			continue;
		for (uint32_t j = 0; j < x->nst && hosts < 2; j++)
			hosts += x->st[j].nhost[0] && strcmp(x->st[j].nhost, m->nhost);
		if (!failed && !hosts && !x->multi_host_loc.line)
			return;		/* one host: a link-local address serves it */
		d = rs_add(r, "explain.net.peer_address", failed ? SEV_ERROR : SEV_WARN, CONF_MEDIUM,
			   failed ? 200 : 0);
		rs_title(d, "NCCL bootstraps on %s%s%s, a link-local address: other hosts cannot reach it",
			 m->boot_if, m->boot_if[0] ? " " : "", m->boot_addr);
		rs_fix_ifname(r, d);
		if (v6)
			rs_fix(d, "export NCCL_SOCKET_FAMILY=AF_INET   # on every node: only IPv4 addresses (NCCL tries IPv6 when an interface has no IPv4)");
		rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
		finding_why(d, "Medium confidence: a link-local address (%s) is valid only on its own link and "
			 "needs the interface's scope; NCCL advertises it when the interface it chose has no "
			 "routable address, and ranks on other hosts then cannot connect.", v6 ? "fe80::/10" : "169.254.0.0/16");
		rs_at(r, d, m->boot_loc, "Bootstrap", m->boot_addr);
		return;
	}
}

/*
 * The reporter names an RDMA fabric (InfiniBand, RoCE, ConnectX) and NCCL says it uses TCP
 * sockets ("NET/IB : No device found", "Using network Socket"): the IB devices are not visible to
 * NCCL, which is why the job is slow (or, across nodes, why nccl-tests' bus bandwidth is a few
 * GB/s). NCCL's own "no device" line is fine on Ethernet clouds; it is wrong where the user says
 * the fabric is there.
 */
void rule_ib_unused(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct sig_hit *nodev = sig_hit_of(r, "nccl.ib.no_device");
	int socket = 0;
	struct loc sloc = { 0, 0 };
	struct finding *d;

	for (uint32_t i = 0; i < x->nst && !socket; i++)
		if (!strcmp(x->st[i].network, "Socket")) {
			socket = 1;
			sloc = x->st[i].network_loc;
		}
	if (!x->rdma_named_loc.line || !(nodev || socket) || sig_hit_of(r, "nccl.ib.provider_missing") ||
	    obs_env(x, "NCCL_IB_DISABLE"))
		return;
	d = rs_add(r, "explain.rdma.ib_unused", SEV_ERROR,
		   x->slow_loc.line || x->nt_busbw > 0 ? CONF_HIGH : CONF_MEDIUM, 180);
	if (x->nt_busbw > 0)
		rs_title(d, "NCCL runs over TCP sockets although the nodes have an RDMA fabric: %.2f GB/s bus bandwidth",
			 x->nt_busbw);
	else
		rs_title(d, "NCCL runs over TCP sockets although the nodes have an RDMA fabric: it does not see the HCAs");
	rs_fix(d, "ibv_devinfo   # in the job's own environment (the container): the HCAs must be listed with state PORT_ACTIVE");
	rs_fix(d, "docker run --device=/dev/infiniband --cap-add=IPC_LOCK --ulimit memlock=-1 ...   # containers (Kubernetes: the RDMA device plugin's resource); the image needs rdma-core (ibverbs-providers)");
	rs_fix(d, "env | grep -E 'NCCL_(IB_HCA|NET|IB_DISABLE)'   # a setting that filters every HCA out or forces sockets");
	rs_fix(d, "if the log is not enough: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET (the NET/IB lines say why each HCA was skipped)");
	finding_why(d, "%s confidence: NCCL says it found no usable InfiniBand/RoCE device and uses TCP "
		 "sockets, while the reporter names the RDMA fabric the nodes have; sockets carry a few GB/s "
		 "where the fabric carries tens, and the usual reasons are a container without the RDMA "
		 "devices or libraries, or a setting that filters the HCAs out.",
		 x->slow_loc.line || x->nt_busbw > 0 ? "High" : "Medium");
	rs_at(r, d, x->rdma_named_loc, "the fabric named", NULL);
	if (nodev)
		rs_at(r, d, nodev->ev[0], "NET/IB", nodev->ev_text[0]);
	else
		rs_at(r, d, sloc, "network", "Socket");
	if (x->nt_busbw > 0)
		rs_at(r, d, x->nt_done_loc, "bus bandwidth", NULL);
	rs_at(r, d, x->slow_loc, "slow", NULL);
}

/*
 * Across hosts: the address each host's NCCL bootstraps on ("Bootstrap : Using <if>:<addr>"),
 * compared. Hosts whose addresses are of different kinds (private and public) or, both private
 * IPv4, in different RFC 1918 blocks are on different networks as far as NCCL is concerned: each connects
 * to the address the other advertised, which it may not reach (a public address behind a
 * security group, another site's private range). A failure in the bundle makes it an error.
 */
static int rfc1918_block(const unsigned char *a)
{
	return a[0] == 10 ? 1 : a[0] == 172 && (a[1] & 0xf0) == 16 ? 2 : a[0] == 192 && a[1] == 168 ? 3 : 0;
}

void rule_hosts_bootstrap(struct rs *r)
{
	enum { HOSTS = 16 };
	const struct run_obs *x = r->x;
	struct {
		const char *host, *ifname, *addr;
		enum addr_class cls;
		struct loc loc;
	} h[HOSTS];
	int n = 0, differ = 0, failed = error_causes(r, 1) || x->hang_loc.line ||
					  sig_hit_of(r, "torch.watchdog.timeout");
	struct strbuf t = STRBUF_INIT;
	struct finding *d;

	for (uint32_t i = 0; i < x->nst && n < HOSTS; i++) {
		const struct stream_obs *m = &x->st[i];
		int k;
		if (!m->nhost[0] || !m->boot_addr[0])
			continue;
		for (k = 0; k < n && strcmp(h[k].host, m->nhost); k++)
			;
		if (k < n)
			continue;
		h[n].host = m->nhost;
		h[n].ifname = m->boot_if;
		h[n].addr = m->boot_addr;
		h[n].cls = addr_classify_text(m->boot_addr);
		h[n].loc = m->boot_loc;
		n++;
	}
	for (int i = 1; i < n && !differ; i++) {
		int fa, fb;
		unsigned char a[16], b[16];
		if (addr_class_public_like(h[i].cls) != addr_class_public_like(h[0].cls)) {
			differ = 1;
			break;
		}
		/* two private IPv4 blocks (10/8, 172.16/12, 192.168/16): a routed cluster can span
		 * several subnets of one block, but not usually two blocks */
		if (!addr_class_public_like(h[0].cls) && addr_parse(h[0].addr, &fa, a) == 0 &&
		    addr_parse(h[i].addr, &fb, b) == 0 && fa == 4 && fb == 4 &&
		    rfc1918_block(a) && rfc1918_block(b) && rfc1918_block(a) != rfc1918_block(b))
			differ = 1;
	}
	if (n < 2 || !differ)
		return;
	for (int i = 0; i < n && i < 4; i++)
		strbuf_addf(&t, "%s%s %s %s (%s)", i ? ", " : "", h[i].host, h[i].ifname, h[i].addr,
			    addr_class_name(h[i].cls));
	d = rs_add(r, "explain.hosts.bootstrap_differs", failed ? SEV_ERROR : SEV_WARN,
		   failed ? CONF_MEDIUM : CONF_LOW, failed ? 230 : 0);
	rs_title(d, "the hosts bootstrap NCCL on different networks: %s", t.buf);
	rs_fix(d, "ip -o -4 addr   # on every host: an interface on one network all hosts share (the cluster's private network)");
	rs_fix(d, "export NCCL_SOCKET_IFNAME=<that interface>   # per host (names may differ: NCCL_SOCKET_IFNAME=eth0,enp3s0 takes every prefix listed); GLOO_SOCKET_IFNAME the same");
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "%s confidence: NCCL connects to the address each host advertised; hosts on "
		 "different networks (a private address next to a public one, or two private ranges) reach "
		 "each other only if routing and firewalls allow it, and a public address usually sits "
		 "behind a security group that drops NCCL's ports.%s", failed ? "Medium" : "Low",
		 failed ? "" : " Nothing failed in these lines: it is a difference to rule out.");
	for (int i = 0; i < n && i < 4; i++)
		rs_at(r, d, h[i].loc, h[i].host, h[i].addr);
	strbuf_release(&t);
}

/*
 * Across hosts: when the failing network lines of several ranks all name one peer address, that
 * node is the suspect (its process died first, or its NIC, port or cable failed), not the
 * network of every rank; the finding says how to rerun without it with the launcher in use.
 */
void rule_common_peer(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct peer_obs *pe;
	size_t parts[8], np = 0;
	int hosts = 0, witnesses;
	enum confidence conf;
	struct finding *d;

	if (x->npeers != 1 || x->peer_lines < 2)
		return;
	pe = &x->peers[0];
	for (int i = 0; i < pe->nstreams; i++) {
		int32_t p = pe->streams[i] < x->nst ? r->st2p[pe->streams[i]] : -1;
		int dup = 0;
		for (size_t k = 0; k < np; k++)
			dup |= parts[k] == (size_t)p;
		if (p >= 0 && !dup)
			parts[np++] = (size_t)p;
	}
	{	/* ranks, or the hosts of NCCL's prefix when the lines name no rank */
		for (int i = 0; i < pe->nstreams; i++) {
			const struct stream_obs *a = pe->streams[i] < x->nst ? &x->st[pe->streams[i]] : NULL;
			int seen = 0;
			if (!a || !a->nhost[0])
				continue;
			for (int j = 0; j < i && !seen; j++)
				seen = pe->streams[j] < x->nst && !strcmp(x->st[pe->streams[j]].nhost, a->nhost);
			hosts += !seen;
		}
		if (np < 2 && hosts < 2)
			return;		/* one rank or one host: nothing to compare */
	}
	/* three independent witnesses naming one peer localise the fault better than any one
	 * connection error says what it is: the verdict comes first, the errors are its evidence */
	witnesses = (int)np > hosts ? (int)np : hosts;
	conf = witnesses >= 3 ? CONF_HIGH : CONF_MEDIUM;
	d = rs_add(r, "explain.hosts.common_peer", SEV_ERROR, conf, conf == CONF_HIGH ? 300 : 100);
	rs_title(d, "every failing rank points at one peer, %s: look at that node first", pe->addr);
	rs_parts(r, d, parts, np);
	rs_fix(d, "grep -n -m3 -e 'NCCL WARN' -e Error -e Traceback <the log of the rank on %s>   # its first error is the cause; the others only lost their peer", pe->addr);
	rs_fix(d, "ssh %s 'dmesg | tail -50; nvidia-smi -q | grep -i -e xid -e retired; ibstat'   # the node itself: GPU errors, link state", pe->addr);
	rs_fix(d, "ssh %s ncclcheck node   # or its 'Bootstrap : Using' line: an address the others cannot reach (public IP, docker0) fails the same way", pe->addr);
	if (x->srun_loc.line || sig_hit_of(r, "slurm.task_failed") || sig_hit_of(r, "slurm.cancelled") ||
	    sig_hit_of(r, "slurm.step_create"))
		rs_fix(d, "srun --exclude=$(getent hosts %s | awk '{print $2}') ...   # rerun without that node", pe->addr);
	else if (x->launch_np)
		rs_fix(d, "mpirun --host <every host but %s> ...   # rerun without that node", pe->addr);
	else if (x->deepspeed_loc.line)
		rs_fix(d, "deepspeed --exclude=$(getent hosts %s | awk '{print $2}') ...   # rerun without that node", pe->addr);
	else
		rs_fix(d, "remove %s from the hostfile or node list (torchrun: start the job on the other nodes) and rerun", pe->addr);
	finding_why(d, "%s confidence: %d processes logged %llu network failures and all name %s; a "
		 "network-wide problem would show several peers, one node that died, lost its link or "
		 "advertised an address the others cannot reach shows as the one address everyone else "
		 "fails to reach", conf == CONF_HIGH ? "High" : "Medium", witnesses,
		 (unsigned long long)x->peer_lines, pe->addr);
	rs_at(r, d, pe->loc, "first failure naming it", NULL);
}

/*
 * torchrun's two ways to form a job mixed on one command line: --node-rank belongs to the static
 * launch (--master-addr/--master-port, a distinct rank typed on every node), --rdzv-backend=c10d
 * to the dynamic one, where the rendezvous at --rdzv-endpoint hands out node ranks and every node
 * must name the same endpoint. A job across nodes started with both, or with an endpoint each
 * node expands to itself ($(hostname), localhost), waits at startup for nodes that joined another
 * rendezvous (torch.distributed.run's documentation; NVIDIA/nvidia-resiliency-ext#142, where
 * dropping --node-rank ended the hang).
 */
void rule_torchrun_rdzv(struct rs *r)
{
	const struct torchrun_obs *t = &r->x->tr;
	const char *colon = strchr(t->nnodes, ':');
	int nn = atoi(colon ? colon + 1 : t->nnodes);
	int dynamic = t->backend[0] && strcmp(t->backend, "static");
	int self = !strncmp(t->endpoint, "$(hostname", 10) || !strncmp(t->endpoint, "`hostname", 9) ||
		   !strncmp(t->endpoint, "localhost", 9) || !strncmp(t->endpoint, "127.", 4);
	int hang = r->x->hang_loc.line != 0 || emitted(r, "explain.init.stuck");
	enum confidence conf = hang || self ? CONF_MEDIUM : CONF_LOW;
	struct finding *d;

	if (!t->lines || nn < 2 || !dynamic || !(t->node_rank[0] || self))
		return;
	d = rs_add(r, "explain.launch.node_rank_c10d", SEV_ERROR, conf, conf == CONF_LOW ? -100 : 100);
	if (t->node_rank[0])
		rs_title(d, "torchrun mixes --node-rank=%s (the static launch) with --rdzv-backend=%s "
			   "across %d nodes%s", t->node_rank, t->backend, nn,
			   self ? ", and every node names itself as --rdzv-endpoint" : "");
	else
		rs_title(d, "torchrun's --rdzv-endpoint=%s is each node itself: the %d nodes of "
			   "--rdzv-backend=%s never meet", t->endpoint, nn, t->backend);
	rs_fix(d, "torchrun --nnodes=%s --rdzv-backend=%s --rdzv-endpoint=<node 0's address>:29400 "
	       "--rdzv-id=<job id> ...   # the same line on every node, without --node-rank: the "
	       "rendezvous assigns node ranks", t->nnodes, t->backend);
	rs_fix(d, "torchrun --nnodes=%s --node-rank=<0..%d, one per node> --master-addr=<node 0's "
	       "address> --master-port=29500 ...   # or the static launch, without --rdzv-*",
	       t->nnodes, nn - 1);
	finding_why(d, "%s confidence: --node-rank only places a node in the static launch; with a "
		 "dynamic rendezvous (%s) every node must reach the same --rdzv-endpoint, where ranks are "
		 "handed out as nodes arrive. Nodes that each wait at a different endpoint, or that were "
		 "typed the same --node-rank, sit at startup with no error.%s",
		 conf == CONF_MEDIUM ? "Medium" : "Low", t->backend,
		 hang ? "" : " The log shows no hang: check the launch lines of every node.");
	rs_at(r, d, t->loc, "torchrun", NULL);
	rs_at(r, d, r->x->hang_loc, "hang", NULL);
}

/*
 * nccl-tests checked its results and found wrong ones while NCCL_PROTO or NCCL_ALGO was forced.
 * NCCL enables LL128 only where the path keeps 128-byte stores whole (NVLink, some PCIe
 * platforms); forced elsewhere, over sockets or host memory, it can deliver corrupted data, and
 * a forced algorithm is the other setting that takes NCCL off its own validated choices
 * (NVIDIA/nccl#831, the maintainer: LL128 must not be forced; NCCL's environment documentation).
 */
void rule_forced_protocol(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *proto = obs_env(x, "NCCL_PROTO"), *algo = obs_env(x, "NCCL_ALGO");
	const struct env_obs *ev = proto ? proto : algo;
	int ll128 = proto && (strstr(proto->value, "LL128") || strstr(proto->value, "ll128"));
	struct finding *d;

	if (!x->nt_oob_loc.line || !ev)
		return;
	d = rs_add(r, proto ? "nccl.env.proto_forced" : "nccl.env.algo_forced", SEV_ERROR,
		   ll128 ? CONF_HIGH : CONF_MEDIUM, 150);
	rs_title(d, "nccl-tests returned wrong results (%ld out of bounds) with %s=%s forced",
		 x->nt_oob, ev->name, ev->value);
	rs_fix(d, "unset %s   # let NCCL pick per size and path; rerun the same test: the results "
	       "must come back correct", ev->name);
	finding_why(d, "%s confidence: %s. Wrong results with no error are what a forced setting "
		 "NCCL would not have chosen for this path produces; the rerun without it decides.",
		 ll128 ? "High" : "Medium",
		 ll128 ? "NCCL turns LL128 on only where the hardware path keeps 128-byte stores whole "
		 "(NVLink, some PCIe platforms); forced over sockets or host memory it can deliver "
		 "corrupted data" : "a forced protocol or algorithm bypasses NCCL's own choice per "
		 "size and topology");
	rs_at(r, d, ev->loc, ev->name, ev->value);
	rs_at(r, d, x->nt_oob_loc, "nccl-tests", "results out of bounds");
}

/*
 * Kubernetes pods whose ranks reach the store and then wait for ever, with no error: a service
 * mesh sidecar (istio's envoy, linkerd) in the pods intercepts their TCP, and the connections
 * c10d, Gloo and NCCL open to pod addresses and ephemeral ports after the store never arrive
 * (pytorch#81704 and kubeflow/trainer threads: sidecar.istio.io/inject: "false" fixed it).
 * Medium when the log names the mesh, low when it shows only Kubernetes and the stall.
 */
void rule_k8s_sidecar(struct rs *r)
{
	const struct run_obs *x = r->x;
	struct finding *d;
	int mesh = x->mesh_loc.line != 0;

	if (!x->k8s_loc.line || !x->store_conn_loc.line || !x->hang_loc.line || error_causes(r, 1))
		return;
	d = rs_add(r, "explain.k8s.sidecar", SEV_ERROR, mesh ? CONF_MEDIUM : CONF_LOW, 100);
	rs_title(d, "the pods reach the rendezvous store and then wait with no error: %s",
		 mesh ? "the service mesh sidecar in the pods intercepts the ranks' own connections"
		 : "in Kubernetes, a service mesh sidecar (istio) that intercepts the ranks' own connections "
		 "is the usual cause");
	rs_fix(d, "kubectl get pod <a training pod> -o jsonpath='{.spec.containers[*].name}'   # an istio-proxy (or linkerd-proxy) container means a sidecar");
	rs_fix(d, "sidecar.istio.io/inject: \"false\"   # as an annotation on the PyTorchJob's pod templates (Master and Worker), then resubmit");
	finding_why(d, "%s confidence: the store connection works (the log shows it), so names and the "
		 "service resolve; what follows goes to pod addresses and ephemeral ports, which a "
		 "mesh proxy in the pod captures and cannot route. %s", mesh ? "Medium" : "Low",
		 mesh ? "The log names the mesh." : "The log does not name a mesh: the container list decides.");
	rs_at(r, d, x->store_conn_loc, "store connected", NULL);
	rs_at(r, d, x->k8s_loc, "Kubernetes", NULL);
	rs_at(r, d, x->hang_loc, "hang", NULL);
	if (mesh)
		rs_at(r, d, x->mesh_loc, "service mesh", NULL);
}

/*
 * nccl-tests found wrong results and nothing above names why (no forced protocol, no known bug of
 * the version): data is corrupted on one of the paths NCCL used, and the reruns that turn one
 * path off at a time decide which (GPUDirect RDMA through the driver and nvidia-peermem, P2P
 * between a node's GPUs, shared memory). A driver with a GDR data bug is the classic case
 * (nccl-tests#7: 390.x; the maintainer: use a driver without it).
 */
/*
 * Wrong data reported in the reporter's own words (a NaN sum, "wrong results") on a job whose
 * NCCL connections between nodes all use GPUDirect RDMA, with no error: the NIC writes straight
 * into GPU memory there, and what corrupts that path is the GPU driver (GPUDirect data bugs were
 * fixed in driver releases, nccl-tests#7), the peer-memory module built for another driver, or
 * ACS redirecting the NIC's writes in a PCIe switch (NCCL's troubleshooting guide, "GPU Direct").
 * A run with GPUDirect RDMA off decides it. Never with connections without GDR in the same job
 * (rule_gdr_partial's case), nor when an error names a cause.
 */
static void gdr_wrong_words(struct rs *r)
{
	const struct run_obs *x = r->x;
	struct finding *d;

	if (!x->wrong_loc.line || !x->via_gdr || x->via_nogdr || error_causes(r, 0) ||
	    known_bug_emitted(r) || emitted_family(r, "nccl.env."))
		return;
	d = rs_add(r, "explain.rdma.gdr_wrong_results", SEV_ERROR, CONF_MEDIUM, 120);
	rs_title(d, "the results come back wrong while every network connection NCCL shows uses "
		 "GPUDirect RDMA (%llu via .../GDRDMA): data the NIC writes straight into GPU memory "
		 "is the suspect", (unsigned long long)x->via_gdr);
	rs_fix(d, "export NCCL_NET_GDR_LEVEL=LOC   # rerun without GPUDirect RDMA (NCCL < 2.4: NCCL_IB_CUDA_SUPPORT=0): right results now put the fault on the GDR path");
	rs_fix(d, "nvidia-smi --query-gpu=driver_version --format=csv,noheader   # GPUDirect RDMA data bugs were fixed in GPU driver releases: update the GPU driver, then rebuild or reload nv_peer_mem / nvidia-peermem for it");
	rs_fix(d, "sudo lspci -vvv | grep ACSCtl   # ACS on a PCIe switch between the NIC and the GPU redirects the NIC's writes: every entry must read 'SrcValid-'");
	finding_why(d, "Medium confidence: with GPUDirect RDMA the NIC writes received data straight "
		 "into GPU memory, so a fault on that path (the GPU driver, the peer-memory module, ACS "
		 "in a PCIe switch) corrupts the data with no error; the rerun with GDR off decides it.");
	rs_at(r, d, x->wrong_loc, "wrong results", NULL);
	rs_at(r, d, x->via_gdr_loc, "with GPUDirect RDMA", NULL);
}

void rule_wrong_results(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *gdr = obs_env(x, "NCCL_IB_CUDA_SUPPORT");
	struct finding *d;

	if (!x->nt_oob_loc.line) {
		gdr_wrong_words(r);
		return;
	}
	if (!gdr)
		gdr = obs_env(x, "NCCL_NET_GDR_LEVEL");
	if (emitted(r, "nccl.env.proto_forced") || emitted(r, "nccl.env.algo_forced"))
		return;
	if (known_bug_emitted(r))
		return;
	/* one node with P2P allowed: no network path, GPU to GPU is the suspect (rule_p2p_topology) */
	if (wrong_on_one_node(r) && !obs_env(x, "NCCL_P2P_DISABLE"))
		return;
	d = rs_add(r, "bench.result.wrong", SEV_ERROR, CONF_MEDIUM, 100);
	rs_title(d, "nccl-tests returned wrong results (%ld values out of bounds): data is corrupted on "
		 "a path NCCL used%s%s%s", x->nt_oob, gdr ? ", with " : "", gdr ? gdr->name : "",
		 gdr ? " set (GPUDirect RDMA)" : "");
	rs_fix(d, "export NCCL_NET_GDR_LEVEL=LOC   # rerun the same test without GPUDirect RDMA (NCCL < 2.4: NCCL_IB_CUDA_SUPPORT=0): right results now put the fault on GDR (the driver, nvidia-peermem, the PCIe path between GPU and NIC)");
	rs_fix(d, "export NCCL_P2P_DISABLE=1   # then without P2P between a node's GPUs, and NCCL_SHM_DISABLE=1 without shared memory: one path off per rerun");
	rs_fix(d, "nvidia-smi --query-gpu=driver_version --format=csv,noheader   # a driver release with a GPUDirect data bug (390.x, nccl-tests#7) corrupts exactly this way: change the driver");
	finding_why(d, "Medium confidence: nccl-tests checks every result, and out-of-bounds values with "
		 "no error are data corrupted in flight; which path corrupts it the log does not say, "
		 "the reruns with one path off do");
	rs_at(r, d, x->nt_oob_loc, "nccl-tests", "results out of bounds");
	if (gdr)
		rs_at(r, d, gdr->loc, gdr->name, gdr->value);
}

/* Interfaces that containers and their networks create on a host: never another node's route. */
static int virtual_ifname(const char *n)
{
	static const char *const pre[] = { "veth", "br-", "virbr", "cni", "flannel", "cali", "vxlan",
					   "weave", "kube-", "tunl", "lxc", "cilium" };

	for (size_t i = 0; i < ARRAY_SIZE(pre); i++)
		if (!strncmp(n, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/*
 * A hang at init on a host with container interfaces (a docker bridge network's veth* ports,
 * br-*, CNI bridges) and NCCL_SOCKET_IFNAME unset: NCCL's default filter excludes only docker*
 * and lo (2.28 adds virbr), so it can bootstrap or open socket connections on an interface the
 * other nodes cannot reach. Not when NCCL shows it bootstrapped on a routable interface of its
 * own, nor on one node.
 */
void rule_virtual_iface(struct rs *r)
{
	const struct run_obs *x = r->x;
	const char *named = NULL;
	struct loc at = x->veth_loc;
	/* one host's device rows of a multi-node run are no proof of one node: the paste decides */
	int one_node = x->nt_hosts == 1 && !spans_hosts(r), stuck = 0, good_boot = 0;
	struct finding *d;

	if (obs_env(x, "NCCL_SOCKET_IFNAME"))
		return;
	for (size_t i = 0; i < r->np; i++) {
		const struct stream_obs *m = &r->p[i].m;
		one_node |= m->nnodes == 1;
		stuck |= m->init_start.line && !m->init_complete.line;
		if (m->boot_loc.line && !virtual_ifname(m->boot_if)) {
			enum aclass c = aclass_of(m->boot_if, m->boot_addr);
			good_boot |= c == A_PRIVATE || c == A_PUBLIC;
		}
		if (m->boot_loc.line && virtual_ifname(m->boot_if) && !named) {
			named = m->boot_if;
			at = m->boot_loc;
		}
		for (int k = 0; k < m->nsock && !named; k++)
			if (virtual_ifname(m->sock[k].ifname)) {
				named = m->sock[k].ifname;
				at = m->sock_loc;
			}
	}
	if (one_node || good_boot || !(stuck || x->hang_loc.line) || !(named || x->veth_loc.line))
		return;
	d = rs_add(r, "explain.net.virtual_iface", SEV_ERROR, named ? CONF_MEDIUM : CONF_LOW,
		   named ? 80 : -100);
	rs_title(d, "init hangs on a host with container interfaces (%s) and NCCL_SOCKET_IFNAME unset: "
		   "NCCL can pick one the other nodes cannot reach", named ? named : "veth*");
	rs_fix_ifname(r, d);
	rs_fix(d, "docker run --network=host ...   # or run the containers on the host network: no bridge in the way");
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "%s confidence: NCCL's default interface filter excludes only docker* and lo "
		 "(NCCL 2.28+: virbr too); veth*, br-* and CNI bridges stay eligible, and connections to "
		 "such an address from another node never arrive, so ncclCommInitRank waits.%s",
		 named ? "Medium" : "Low", named ? "" : " Only the report names the interface: an "
		 "NCCL_DEBUG=INFO 'Bootstrap : Using' line shows which one NCCL took.");
	rs_at(r, d, at, "container interface", named);
	rs_at(r, d, x->hang_loc, "hang", NULL);
}

/*
 * The IPv4 address of addr with a redacted host part allowed ("192.168.3.x", "10.0.*.*"): a copy
 * with each redacted octet read as 0, for addr_v4. 0 when the prefix is not 1..32 or covers a
 * redacted octet (that part of the network is unknown).
 */
static int v4_redacted(const char *addr, int prefix, unsigned char out[16])
{
	char buf[64];
	size_t len = 0;

	if (prefix <= 0 || prefix > 32)
		return 0;
	for (int o = 0; o < 4 && len < sizeof(buf) - 5; o++) {
		size_t n = strcspn(addr, ".%<");
		int redacted = n > 0 && strspn(addr, "x*") == n;

		if (redacted && prefix > o * 8)
			return 0;
		if (n > 3 || (o < 3 && addr[n] != '.'))
			return 0;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%.*s", o ? "." : "",
					redacted ? 1 : (int)n, redacted ? "0" : addr);
		addr += n + (o < 3);
	}
	return addr_v4(buf, out);
}

/*
 * Two interfaces of one listing (one host's `ip addr`) in one IPv4 subnet: the kernel has two
 * routes for it and sends by whichever comes first, so traffic leaves by a NIC that
 * NCCL_SOCKET_IFNAME did not name, and the order can differ between hosts (NVIDIA/nccl#1581: eno1
 * and enp37s0f0 both /20, a worker sending by the 1 GbE NIC). Listings closer than 12 lines are
 * taken as one host's.
 */
void rule_subnet_overlap(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *ev = obs_env(x, "NCCL_SOCKET_IFNAME");
	const struct iface_obs *a = NULL, *b = NULL;
	unsigned char na[16], nb[16];
	char net[64];
	int pre = 0;
	struct finding *d;

	for (int i = 0; i < x->nifs && !b; i++) {
		const struct iface_obs *f = &x->ifs[i];
		if (!f->line || !v4_redacted(f->addr, f->prefix, na))
			continue;
		for (int j = i + 1; j < x->nifs && !b; j++) {
			const struct iface_obs *g = &x->ifs[j];
			uint64_t gap = g->line > f->line ? g->line - f->line : f->line - g->line;
			int p = f->prefix < g->prefix ? f->prefix : g->prefix;
			if (!g->line || g->file != f->file || gap > 12 || !strcmp(f->ifname, g->ifname) ||
			    !strcmp(f->addr, g->addr) || !v4_redacted(g->addr, g->prefix, nb) ||
			    aclass_of(f->ifname, f->addr) == A_LOOPBACK || !addr_same_subnet(4, na, nb, p))
				continue;
			a = f;
			b = g;
			pre = p;
		}
	}
	if (!b)
		return;
	d = rs_add(r, "explain.hosts.route_differs", SEV_ERROR, ev ? CONF_MEDIUM : CONF_LOW,
		   ev ? 60 : -100);
	addr_subnet_text(4, na, pre, a->addr, net, sizeof(net));
	rs_title(d, "%s (%s/%d) and %s (%s/%d) are in one subnet, %s: the route order, not "
		 "NCCL_SOCKET_IFNAME, decides which NIC packets leave by", a->ifname, a->addr,
		 a->prefix, b->ifname, b->addr, b->prefix, net);
	rs_fix(d, "ip route show %s   # on every node: two routes for one subnet, in an order that "
	       "can differ between nodes", net);
	rs_fix(d, "give each NIC its own subnet (the real netmask, e.g. /24 for each), or a lower "
	       "route metric on the NIC NCCL should use (nmcli connection modify <conn> ipv4.route-metric 50)");
	rs_fix(d, "to test it: %s", EXPLAIN_CHECK_NODE);
	finding_why(d, "%s confidence: NCCL_SOCKET_IFNAME picks the source address NCCL binds, but the "
		 "kernel sends by the first route that matches the destination; with two NICs in one "
		 "subnet that may be the other NIC (slower, or not the fabric the peers listen on), and a "
		 "different route order per node makes nodes disagree.%s", ev ? "Medium" : "Low",
		 ev ? "" : " NCCL_SOCKET_IFNAME is not in the log.");
	{
		struct loc la = { a->file, a->line }, lb = { b->file, b->line };
		rs_at(r, d, la, a->ifname, a->addr);
		rs_at(r, d, lb, b->ifname, b->addr);
	}
	if (ev)
		rs_at(r, d, ev->loc, "NCCL_SOCKET_IFNAME", ev->value);
}

/*
 * NCCL 2.30.3+ stops at init when the ranks' network device sets differ; NCCL_IGNORE_NET_MISMATCH
 * turns that check off, and when the sets really differ (a node that cannot open one HCA, an
 * NCCL_IB_HCA that differs) ranks place channels on a NIC their peer does not have and the job
 * spins after init with no error (NVIDIA/nccl#2428).
 */
void rule_net_mismatch_ignored(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct env_obs *ev = obs_env(x, "NCCL_IGNORE_NET_MISMATCH");
	const struct sig_hit *wd = sig_hit_of(r, "torch.watchdog.timeout");
	int hang = x->hang_loc.line || wd;
	struct finding *d;

	if (!ev || !strcmp(ev->value, "0") || !(x->hca_fail_loc.line || hang))
		return;
	d = rs_add(r, "explain.hosts.hca_differs", SEV_ERROR,
		   x->hca_fail_loc.line ? CONF_HIGH : CONF_MEDIUM, 170);
	if (x->hca_fail_loc.line)
		rs_title(d, "a node could not open %s, and NCCL_IGNORE_NET_MISMATCH=%s silenced NCCL's check "
			   "that every node has the same network devices", x->hca_fail, ev->value);
	else
		rs_title(d, "the job hangs with NCCL_IGNORE_NET_MISMATCH=%s: NCCL's check that every node has "
			   "the same network devices is off", ev->value);
	rs_fix(d, "ibv_devinfo | grep -E 'hca_id|state'   # on every node: the HCAs it can open, all PORT_ACTIVE");
	if (x->hca_fail[0])
		rs_fix(d, "export NCCL_IB_HCA=^=%s   # on every node: leave out the device one node lacks, "
		       "or name the devices every node has", x->hca_fail);
	else
		rs_fix(d, "export NCCL_IB_HCA=<the devices every node has>   # the same list on every node");
	rs_fix(d, "unset NCCL_IGNORE_NET_MISMATCH   # let NCCL stop at init with the difference instead of hanging");
	finding_why(d, "%s confidence: since 2.30.3 NCCL compares the network devices of all ranks at "
		 "init; with the check off, a rank places channels on a NIC its peer does not have and both "
		 "wait with no error.%s", x->hca_fail_loc.line ? "High" : "Medium",
		 x->hca_fail_loc.line ? "" : " The log shows no device that failed to open: compare "
		 "ibv_devinfo across the nodes.");
	rs_at(r, d, ev->loc, "NCCL_IGNORE_NET_MISMATCH", ev->value);
	rs_at(r, d, x->hca_fail_loc, "HCA", x->hca_fail);
	rs_at(r, d, x->hang_loc, "hang", NULL);
}

/*
 * NCCL's own echo of one setting with different values in different processes of one job: the
 * ranks built their topologies from different inputs. The settings that shape the graph (HCAs,
 * cuMem, P2P, NVLS, protocols, GID) make that an error when the job failed or hung in a way a
 * topology disagreement explains (a ring that does not loop back, mixed device counts, a hang);
 * interface names may differ by design (eth0 here, ens5 there) and debug settings do not matter.
 */
void rule_env_differs(struct rs *r)
{
	const struct run_obs *x = r->x;
	static const char *const shaping[] = {
		"NCCL_IB_HCA", "NCCL_CUMEM_ENABLE", "NCCL_P2P_", "NCCL_NVLS_ENABLE", "NCCL_ALGO",
		"NCCL_PROTO", "NCCL_NET", "NCCL_IB_GID_INDEX", "NCCL_CROSS_NIC", "NCCL_SHM_DISABLE",
		"NCCL_IB_DISABLE", "NCCL_NET_GDR_LEVEL", "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS",
		"NCCL_COLLNET_ENABLE", "NCCL_MNNVL_ENABLE", "NCCL_TOPO_FILE",
	};
	int failed = sig_hit_of(r, "nccl.ring.no_loop") || sig_hit_of(r, "nccl.net.device_count_mismatch") ||
		     sig_hit_of(r, "torch.watchdog.timeout") || x->hang_loc.line ||
		     emitted(r, "explain.init.stuck");

	for (int i = 0; i < x->nenv; i++) {
		const struct env_obs *e = &x->env[i];
		int shapes = 0;
		struct finding *d;

		if (!e->value2[0] || !strncmp(e->name, "NCCL_DEBUG", 10) ||
		    !strcmp(e->name, "NCCL_SOCKET_IFNAME") ||
		    (e->src == 'T' && (strstr(e->name, "DEBUG") || strstr(e->name, "TRACE_BUFFER"))))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(shaping) && !shapes; k++)
			shapes = !strncmp(e->name, shaping[k], strlen(shaping[k]));
		d = rs_add(r, "explain.hosts.env_differs", shapes && failed ? SEV_ERROR : SEV_WARN,
			   shapes && failed ? CONF_MEDIUM : CONF_LOW, shapes && failed ? 160 : 0);
		rs_title(d, "%s differs between the processes of one job: %s in one, %s in another",
			 e->name, e->value, e->value2);
		rs_fix(d, "env | grep ^%s   # on every node and in every launcher script: set %s to one "
		       "value everywhere (or nowhere)", e->src == 'T' ? "TORCH_" : "NCCL_", e->name);
		if (shapes)
			rs_fix(d, "export %s=%s   # the same on every node (the value of the first process shown)",
			       e->name, e->value);
		finding_why(d, "%s confidence: %s both values itself, so the processes really read "
			 "different settings.%s", shapes && failed ? "Medium" : "Low",
			 e->src == 'T' ? "torch's ProcessGroupNCCL printed" : "NCCL echoed",
			 shapes ? " This one shapes NCCL's topology: ranks that disagree on it build "
			 "different rings or trees, which fails at init ('does not loop back') or hangs." :
			 " It may be intended; check it is.");
		rs_at(r, d, e->loc, e->name, e->value);
		rs_at(r, d, e->loc2, e->name, e->value2);
	}
}

/* ---- NCCL's own diagnostics (2.31+) in the log ---- */

static struct finding *diag_add(void *ctx, const char *id, enum severity sev, const char *title)
{
	/* a GPU fault NCCL measured outranks what the log merely suggests */
	struct finding *d = rs_add(ctx, id, sev, CONF_HIGH, sev == SEV_ERROR ? 150 : 0);

	rs_title(d, "%s", title);
	return d;
}

/*
 * NCCL_RUN_DIAGNOSTICS prints its report on rank 0 (and `ncclras -D` prints the same lines):
 * NCCL compared the ranks itself, so its differences are folded in as they are, never re-derived.
 */
void rule_nccl_diag(struct rs *r)
{
	if (r->x->diag && r->x->diag->n)
		ras_diag_fold(r->x->diag, "in the log", diag_add, r);
}

/*
 * torchrun exports TORCHELASTIC_USE_AGENT_STORE=True into every worker: its agent hosts the store
 * at MASTER_ADDR:MASTER_PORT. Until pytorch/pytorch#192113 (August 2026) c10d applied the flag to
 * any endpoint, so a script's init_process_group(init_method="tcp://host:port") on another port
 * made every rank a store client of a server no rank starts: each sits in connect-retry until
 * the store timeout (ten minutes on nccl), with nothing in the log. Said only when the log shows
 * torchrun, the tcp:// init_method, and ranks waiting on exactly that port; never when the port is
 * the agent's own.
 */
void rule_agent_store(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct torchrun_obs *t = &x->tr;
	const char *colon = strrchr(t->endpoint, ':');
	int agent_port = x->master_port ? x->master_port : colon ? atoi(colon + 1) : t->lines ? 29500 : 0;
	int elastic = t->lines || x->agent_store_loc.line || x->elastic_loc.line;
	struct finding *d;

	if (!elastic || !x->init_tcp_port || x->store_wait_port != x->init_tcp_port ||
	    agent_port == x->init_tcp_port)
		return;
	d = rs_add(r, "explain.launch.agent_store_port", SEV_ERROR,
		   agent_port && x->agent_store_loc.line ? CONF_HIGH : CONF_MEDIUM, 140);
	rs_title(d, "under torchrun, init_method=\"tcp://%s\" waits for a store no rank starts "
		 "(torchrun's agent store is %s%d)", x->init_tcp, agent_port ? "on port " : "elsewhere",
		 agent_port ? agent_port : 0);
	rs_fix(d, "dist.init_process_group(backend, init_method=\"env://\")   # or no init_method: "
	       "torchrun already exports MASTER_ADDR and MASTER_PORT for its own store");
	rs_fix(d, "torchrun --master-port=%d ...   # or launch torchrun on the port the script names",
	       x->init_tcp_port);
	rs_fix(d, "pip install --upgrade torch   # a release with pytorch/pytorch#192113 (August 2026) "
	       "honours TORCHELASTIC_USE_AGENT_STORE only at the agent's own address");
	finding_why(d, "%s confidence: torchrun exports TORCHELASTIC_USE_AGENT_STORE=True to every "
		    "worker, and torch before pytorch/pytorch#192113 applied it to any store address: "
		    "every rank became a client of %s, no rank started the server, and each retried the "
		    "connection until the store timeout (ten minutes on nccl, thirty on gloo) with no "
		    "error before it.%s", d->conf == CONF_HIGH ? "High" : "Medium", x->init_tcp,
		    agent_port ? "" : " torchrun's own port is not in the log.");
	rs_at(r, d, x->init_tcp_loc, "init_method", x->init_tcp);
	rs_at(r, d, x->store_wait_loc, "ranks wait on that port", NULL);
	rs_at(r, d, x->agent_store_loc.line ? x->agent_store_loc : t->lines ? t->loc : x->elastic_loc,
	      x->agent_store_loc.line ? "TORCHELASTIC_USE_AGENT_STORE=True" : "torchrun", NULL);
	if (x->master_port)
		rs_at(r, d, x->master_port_loc, "torchrun's store port", NULL);
}

/* ---- the hosts of one bundle compared: what each host's NCCL said about its set-up ---- */

#define HF_HOSTS 64

struct host_fact {
	char host[64];
	char value[64];		/* "" unknown */
	struct loc loc;
	size_t part;
	uint32_t stream;
};

/* One value per host (the first process that says it), for the parts that name their host. */
static int host_values(const struct rs *r, struct host_fact *h, int which)
{
	int n = 0;

	/* per stream, not per part: the processes of a log without rank prefixes share one part */
	for (uint32_t i = 0; i < r->x->nst; i++) {
		const struct stream_obs *m = &r->x->st[i];
		const char *host = m->nhost[0] ? m->nhost : m->host;
		char v[64] = "";
		struct loc l = { 0, 0 };
		int k;

		if (which == 0 && m->network[0]) {
			snprintf(v, sizeof(v), "%s", m->network);
			l = m->network_loc;
		} else if (which == 1 && m->net_plugin[0]) {
			snprintf(v, sizeof(v), "%s", strcmp(m->net_plugin, "internal") ? "external" : "internal");
			l = m->plugin_loc;
		} else if (which == 2 && m->cuda_driver) {
			snprintf(v, sizeof(v), "%d", m->cuda_driver);
			l = m->cuda_driver_loc;
		}
		if (!v[0] || !host[0] || r->st2p[i] < 0)
			continue;
		for (k = 0; k < n && strcmp(h[k].host, host); k++)
			;
		if (k < n || n == HF_HOSTS)
			continue;
		snprintf(h[n].host, sizeof(h[n].host), "%s", host);
		snprintf(h[n].value, sizeof(h[n].value), "%s", v);
		h[n].loc = l;
		h[n].part = (size_t)r->st2p[i];
		h[n].stream = i;
		n++;
	}
	return n;
}

/*
 * Every host of one job must use the same network, the same net plugin (or none) and should run
 * the same driver. NCCL prints each per process ("Using network IB", "NET/Plugin: Loaded net
 * plugin ...", "cudaDriverVersion 12040"): when the hosts of one bundle disagree, the hosts in
 * the minority are named, with what to check on them. A failure or hang in the same bundle makes
 * a network or plugin difference an error; alone it is a warning.
 */
void rule_hosts_facts(struct rs *r)
{
	static const struct {
		const char *id, *what;
	} facts[] = {
		{ "explain.hosts.network_differs", "the network NCCL uses" },
		{ "explain.hosts.plugin_differs", "the NCCL net plugin" },
		{ "explain.hosts.driver_differs", "the CUDA driver version" },
	};
	struct host_fact *h = xmalloc(HF_HOSTS * sizeof(*h));
	int failed = error_causes(r, 1) || r->x->hang_loc.line || sig_hit_of(r, "torch.watchdog.timeout");

	for (int which = 0; which < (int)ARRAY_SIZE(facts); which++) {
		int n = host_values(r, h, which), odd[HF_HOSTS], nodd = 0, first_count = 0;
		size_t parts[HF_HOSTS], np = 0;
		const char *major = NULL, *minor = NULL;
		struct strbuf hosts = STRBUF_INIT;
		struct finding *d;
		int err = which < 2 && failed;

		if (n < 2)
			continue;
		for (int i = 0; i < n; i++)
			first_count += !strcmp(h[i].value, h[0].value);
		if (first_count == n)
			continue;
		/* the majority value is the reference; a tie keeps the first host's */
		major = first_count * 2 >= n ? h[0].value : NULL;
		for (int i = 0; i < n && !major; i++) {
			int c = 0;
			for (int j = 0; j < n; j++)
				c += !strcmp(h[j].value, h[i].value);
			if (c * 2 > n)
				major = h[i].value;
		}
		if (!major)
			major = h[0].value;
		for (int i = 0; i < n; i++)
			if (strcmp(h[i].value, major)) {
				size_t k = 0;
				while (k < np && parts[k] != h[i].part)
					k++;
				if (k == np)
					parts[np++] = h[i].part;
				odd[nodd++] = i;
				minor = h[i].value;
				strbuf_addf(&hosts, "%s%s", hosts.len ? ", " : "", h[i].host);
			}
		d = rs_add(r, facts[which].id, err ? SEV_ERROR : SEV_WARN, err ? CONF_MEDIUM : CONF_LOW,
			   err ? 170 : 0);
		rs_parts(r, d, parts, np);
		rs_title(d, "the hosts of this job differ in %s: %s on %s, %s on the other %d host%s",
			 facts[which].what, minor, hosts.buf, major, n - nodd, n - nodd == 1 ? "" : "s");
		if (which == 0) {
			rs_fix(d, "ibv_devinfo; env | grep -E 'NCCL_IB_DISABLE|NCCL_NET='   # on %s: the RDMA devices NCCL could not use there (a container needs --device=/dev/infiniband and IPC_LOCK), and settings that differ",
			       hosts.buf);
			rs_fix(d, "export NCCL_NET=Socket   # to test it: every host on the same (slower) network; remove once %s sees its HCAs",
			       hosts.buf);
		} else if (which == 1) {
			rs_fix(d, "echo $NCCL_NET_PLUGIN $LD_LIBRARY_PATH; ls /opt/hpcx/nccl_rdma_sharp_plugin/lib   # on every host: the same libnccl-net.so must be found everywhere, or nowhere");
			rs_fix(d, "export NCCL_NET_PLUGIN=none   # to test it: every host uses NCCL's internal network code");
		} else {
			rs_fix(d, "nvidia-smi   # on %s and the others: install the same driver version on every host", hosts.buf);
		}
		finding_why(d, "%s confidence: NCCL printed %s on every host shown, and %d of %d hosts "
			 "disagree with the rest.%s", err ? "Medium" : "Low", facts[which].what, nodd, n,
			 which == 0 ? " Ranks on different networks cannot connect: the other side "
			 "expects a handle of its own transport." :
			 which == 1 ? " A plugin on some hosts only makes those ranks speak its protocol "
			 "while the others use NCCL's own; connections between the two fail or hang." :
			 " Different drivers do not break NCCL by themselves; it is a difference to rule out.");
		for (int i = 0; i < nodd && i < 2; i++)
			rs_at(r, d, h[odd[i]].loc, h[odd[i]].host,
			      which == 1 ? r->x->st[h[odd[i]].stream].net_plugin : h[odd[i]].value);
		for (int i = 0; i < n; i++)
			if (!strcmp(h[i].value, major)) {
				rs_at(r, d, h[i].loc, h[i].host,
				      which == 1 ? r->x->st[h[i].stream].net_plugin : h[i].value);
				break;
			}
		strbuf_release(&hosts);
	}
	free(h);
}

/*
 * Every rank finished NCCL init on two or more hosts, then the job hangs (the reporter's words or a
 * watchdog timeout) with no error: the bootstrap got through, so MASTER_ADDR and the interface
 * are right. Since 2.12 NCCL opens the connections between nodes at the first collective
 * ("Channel NN/0 : a[..] -> b[..] via NET/Socket/0"); without any such line they were never
 * made: the data connections go to other, ephemeral ports than the bootstrap's, and a firewall
 * or security group that lets one through drops the others. With them, the hang is after the
 * network came up: ranks in different collectives, which the flight recorder shows.
 */
void rule_hang_after_init(struct rs *r)
{
	const struct run_obs *x = r->x;
	const struct sig_hit *wd = sig_hit_of(r, "torch.watchdog.timeout");
	const char *first = NULL;
	int hosts = 0, net = 0, complete = 0, old = 0;
	struct finding *d;

	if (!emitted(r, "explain.init.ok") || !(x->hang_loc.line || wd) || error_causes(r, 0))
		return;
	for (size_t i = 0; i < r->np; i++) {
		const struct stream_obs *m = &r->p[i].m;
		if (!m->init_complete.line)
			continue;
		complete++;
		net |= (m->transports & (TR_NET_SOCKET | TR_NET_IB | TR_NET_OTHER)) != 0;
		if (m->nhost[0] && (!first || strcmp(first, m->nhost))) {
			hosts += !first || strcmp(first, m->nhost);
			if (!first)
				first = m->nhost;
		}
	}
	if (complete < 2 || hosts < 2)
		return;
	/* a watchdog on a later collective (SeqNum > 1) means earlier ones crossed the network */
	for (size_t i = 0; i < r->np && !net; i++)
		net = r->p[i].m.wd_seq > 1;
	/* before 2.12 NCCL connected during init: a completed init had its connections */
	for (size_t i = 0; i < r->np && !old; i++)
		old = r->p[i].m.nccl_version[0] && nccl_version_num(r->p[i].m.nccl_version) >= 0 &&
		      nccl_version_num(r->p[i].m.nccl_version) < 21200;
	if (!net && !old) {
		d = rs_add(r, "explain.hang.after_init", SEV_ERROR, CONF_MEDIUM, 150);
		rs_title(d, "NCCL init completed on every rank, then the job hangs and no connection between the nodes appears: the data ports are the likely block");
		rs_fix(d, "sudo sysctl -w net.ipv4.ip_local_port_range='50000 51000'   # on every node, then allow 50000-51000/tcp between the nodes only (firewall or security group)");
		rs_fix(d, "nc -zv <the other node> 50000   # from each node while a listener runs there: NCCL's data connections use ports other than MASTER_PORT");
		rs_fix(d, "to test it: ncclcheck cluster   (from every node: checks the bootstrap port and NCCL's port range between the nodes)");
		finding_why(d, "Medium confidence: the bootstrap worked (every rank printed Init COMPLETE), and since "
			 "NCCL 2.12 the connections between nodes are opened at the first collective; no "
			 "'via NET/...' connection line appears, so they most likely never completed: a firewall or "
			 "security group that admits MASTER_PORT but drops the ephemeral ports NCCL listens on is "
			 "the usual cause. A log cut after init, or ranks that call different collectives, look "
			 "the same; the port check and the flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE=2000) "
			 "tell them apart.");
	} else {
		d = rs_add(r, "explain.hang.after_init", SEV_ERROR, CONF_LOW, 40);
		rs_title(d, "NCCL init and its connections completed on every rank, then the job hangs: the ranks are most likely in different collectives");
		rs_fix(d, "export TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_DISTRIBUTED_DEBUG=DETAIL   # rerun: at the timeout torch dumps what each rank last called");
		rs_fix(d, "to test it: ncclcheck attach   (on every node while it hangs: names the rank that is not where the others are)");
		finding_why(d, "Low confidence: NCCL connected the nodes (its 'via NET/...' lines), so the network "
			 "carried the set-up; a hang after that is most often one rank in another collective or "
			 "stuck outside NCCL (data loading, a checkpoint), which the flight recorder or attach shows.");
	}
	rs_at(r, d, x->hang_loc.line ? x->hang_loc : wd->ev[0], "hang", NULL);
}

/*
 * A hang of ranks that replay CUDA graphs with NCCL inside, stuck in NCCL's launch path (or with
 * nothing else to blame): NCCL's user guide warns that its graph-mixing mechanism has been seen
 * to deadlock CUDA when graphs of several communicators are launched from one thread
 * (NCCL_GRAPH_MIXING_SUPPORT), and users report such deadlocks gone with newer NCCL (a work-FIFO
 * leak, NVIDIA/nccl#1251: 2.21.5 -> 2.22.3 in sgl-project/sglang#7602; 2.28.9 -> 2.30.4 in
 * vllm-project/vllm#52504). Eager mode decides it.
 */
void rule_cudagraph_hang(struct rs *r)
{
	const struct run_obs *x = r->x;
	int hang = x->hang_loc.line || sig_hit_of(r, "torch.watchdog.timeout") ||
		   sig_hit_of(r, "torch.watchdog.heartbeat");
	struct finding *d;

	if (!x->cudagraph_loc.line || !hang || error_causes(r, 0) ||
	    (!x->launch_frame_loc.line && emitted(r, "explain.hang.after_init")))
		return;
	d = rs_add(r, "explain.hang.cudagraph", SEV_ERROR, x->launch_frame_loc.line ? CONF_MEDIUM : CONF_LOW,
		   x->launch_frame_loc.line ? 120 : 20);
	rs_title(d, "ranks replaying CUDA graphs with NCCL inside hang%s: a CUDA-graph/NCCL deadlock",
		 x->launch_frame_loc.line ? " in NCCL's kernel launch" : "");
	rs_fix(d, "run eagerly to test it (vLLM/SGLang: --enforce-eager / --disable-cuda-graph; torch.compile: no 'reduce-overhead' mode): if the hang goes away, the graphs are where it is");
	rs_fix(d, "export NCCL_GRAPH_MIXING_SUPPORT=0   # NCCL's documented switch for the deadlock of graphs of several communicators launched from one thread");
	rs_fix(d, "pip install -U nvidia-nccl-cu12   # reports: a 2.20/2.21 work-FIFO deadlock gone with 2.22.3 (nccl#1251), a 2.28.9 cross-node replay deadlock gone with 2.30.4");
	finding_why(d, "%s confidence: the processes use CUDA graphs that contain NCCL collectives%s; NCCL's "
		 "user guide warns that its graph-mixing mechanism can deadlock CUDA when graphs of several "
		 "communicators are launched from one thread, and several NCCL releases had graph deadlocks that "
		 "newer ones fixed.", x->launch_frame_loc.line ? "Medium" : "Low",
		 x->launch_frame_loc.line ? " and a stack spins in NCCL's launch path" : "");
	rs_at(r, d, x->cudagraph_loc, "CUDA graphs", NULL);
	rs_at(r, d, x->launch_frame_loc, "NCCL launch frame", NULL);
	rs_at(r, d, x->hang_loc, "hang", NULL);
}
