/*
 * What the rendezvous saw, judged: a node that never came, two nodes with one rank, a stranger
 * without the token, a peer that stalled or died, facts a peer sent that this node cannot use.
 * The rendezvous (rdv/) records these as typed events and judges nothing; see cluster_rdv.h.
 */
#include "rules/cluster_rdv.h"

#include <string.h>

#include "util/i18n.h"
#include "util/addr.h"

static const char *event_id(const struct rdv_event *ev)
{
	const char *code = ev->code;

	switch (ev->kind) {
	case RDV_EV_AUTH_NONE: return "cluster.auth.none";
	case RDV_EV_MISSING: return "cluster.rdv.missing";
	case RDV_EV_DUPLICATE_RANK: return "cluster.rdv.duplicate_rank";
	case RDV_EV_WRONG_COUNT: return "cluster.rdv.wrong_count";
	case RDV_EV_BAD_RANK: return "cluster.rdv.bad_rank";
	case RDV_EV_VERSION: return "cluster.rdv.version";
	case RDV_EV_AUTH_FAILED: return "cluster.auth.failed";
	case RDV_EV_GARBAGE: return "cluster.peer.garbage";
	case RDV_EV_OVERSIZED: return "cluster.peer.oversized";
	case RDV_EV_STALLED: return "cluster.peer.stalled";
	case RDV_EV_DEAD: return "cluster.peer.dead";
	case RDV_EV_UNREACHABLE: return "cluster.rdv.unreachable";
	case RDV_EV_SLOW: return "cluster.peer.slow";
	case RDV_EV_REJECTED:
	case RDV_EV_ABORTED:
		if (!strcmp(code, "duplicate_rank")) return "cluster.rdv.duplicate_rank";
		if (!strcmp(code, "wrong_count")) return "cluster.rdv.wrong_count";
		if (!strcmp(code, "bad_rank")) return "cluster.rdv.bad_rank";
		if (!strcmp(code, "version")) return "cluster.rdv.version";
		if (!strcmp(code, "auth")) return "cluster.auth.failed";
		if (!strcmp(code, "missing")) return "cluster.rdv.missing";
		if (!strcmp(code, "dead")) return "cluster.peer.dead";
		if (!strcmp(code, "slow")) return "cluster.peer.slow";
		return "cluster.rdv.aborted";
	default: return "cluster.rdv.aborted";
	}
}

static void event_finding(const struct rdv_opts *ro, const struct rdv_event *ev,
			  const char *master_ip, struct findings *fs)
{
	const char *mh = ro->master_host ? ro->master_host : "MASTER_ADDR";

	const char *id = event_id(ev);
	enum severity sev = SEV_ERROR;
	struct finding *f;

	if (ev->kind == RDV_EV_AUTH_NONE || ev->kind == RDV_EV_GARBAGE ||
	    ev->kind == RDV_EV_OVERSIZED || ev->kind == RDV_EV_STALLED)
		sev = SEV_WARN;
	if (ev->kind == RDV_EV_AUTH_FAILED && ro->rank == 0)
		sev = SEV_WARN;	/* the master refused a stranger; a missing rank is the error */
	if (findings_find(fs, id) && (ev->kind == RDV_EV_ABORTED || ev->kind == RDV_EV_REJECTED))
		return;	/* the same news through two channels */
	f = finding_add(fs, sev, id, "%s", ev->msg);
	if (ev->rank >= 0)
		finding_rank(f, ev->rank);
	if (ev->host[0])
		finding_node(f, ev->host);
	if (ev->addr[0])
		finding_evidence(f, "peer address: %s", ev->addr);
	if (!strcmp(id, "cluster.auth.none")) {
		finding_why(f, "without a token any process that reaches MASTER_PORT can join and "
			    "feed this run its facts and results");
		/* one secret, made once, the same on every node: the command prints the exact
		 * export line with its value for the user to run on each node */
		finding_fix(f, N_("printf 'export NCCLCHECK_TOKEN=%%s\\n' \"$(head -c 16 /dev/urandom "
			    "| od -An -tx1 | tr -d ' \\n')\"   # %s"), N_("on one node: it prints the line "
			    "to run on each node, this one too, before ncclcheck cluster"));
		finding_setting(f, WHERE_ENV, SCOPE_ALL, "NCCLCHECK_TOKEN",
				N_("<the value the printf line printed, the same on every node>"));
	} else if (!strcmp(id, "cluster.rdv.missing")) {
		unsigned char bin[16];
		int fam, numeric = addr_parse(mh, &fam, bin) == 0;
		const char *ip = master_ip && master_ip[0] ? master_ip : mh;

		if (!ro->verb)
			finding_why(f, "a node that never reaches MASTER_ADDR:MASTER_PORT is a node "
				    "whose torch rendezvous will hang there too. Check on it, in this "
				    "order: that ncclcheck cluster was started there (same --nodes, its "
				    "own --node-rank), that MASTER_ADDR resolves there, and that TCP %d "
				    "reaches this node", ro->master_port);
		else
			finding_why(f, "it never reached this node's port %d: check on it, in this "
				    "order, that ncclcheck %s was started there (same --nodes and "
				    "--master, its own --node-rank), that the address resolves there, "
				    "and that TCP %d reaches this node", ro->master_port, ro->verb,
				    ro->master_port);
		if (master_ip && master_ip[0])
			finding_evidence(f, "this node (rank 0) listens on %s:%d%s%s%s", master_ip,
					 ro->master_port, numeric ? "" : ": MASTER_ADDR=",
					 numeric ? "" : mh, numeric ? "" : " resolves to it here");
		if (numeric)
			finding_fix(f, N_("nc -zv %s %d   # on the missing node: is the port reachable"),
				    mh, ro->master_port);
		else
			finding_fix(f, N_("getent hosts %s; nc -zv %s %d   # on the missing node: does "
				    "the name resolve, is the port reachable"), mh, ip,
				    ro->master_port);
		/* the address itself works on every node, rank 0's included */
		if (!numeric && master_ip && master_ip[0])
			finding_export(f, "MASTER_ADDR", "%s", master_ip);
		finding_fix(f, N_("ncclcheck %s   # on the missing node, with the same --nodes "
				  "and its own --node-rank"), ro->verb ? ro->verb : "cluster");
	} else if (!strcmp(id, "cluster.rdv.unreachable")) {
		if (!ro->verb)
			finding_why(f, "torch's TCPStore listens on the same address and port: if "
				    "this node cannot reach it, init_process_group will hang here as "
				    "well");
		if (!strcmp(ev->code, "refused"))
			finding_fix(f, N_("start rank 0 first, or open TCP %d on it (a REJECT rule also "
				    "answers 'refused')"), ro->master_port);
		else if (!strcmp(ev->code, "timeout"))
			finding_fix(f, "MASTER_ADDR must be rank 0's address on a network this node "
				    "reaches; a DROP rule or security group blocks TCP %d", ro->master_port);
		else if (!strcmp(ev->code, "resolve")) {
			finding_fix(f, N_("getent hosts %s; grep -n '%s' /etc/hosts; cat /etc/resolv.conf"
				    "   # MASTER_ADDR is in neither /etc/hosts nor DNS here"), mh, mh);
			finding_fix(f, N_("# then export MASTER_ADDR as rank 0's address (rank 0's "
				    "report prints it: export MASTER_ADDR=...), or add '%s' to "
				    "/etc/hosts with that address"), mh);
		}
		else
			finding_fix(f, N_("check the route to MASTER_ADDR: ip route get %s"),
				    ro->master_host ? ro->master_host : "MASTER_ADDR");
	} else if (!strcmp(id, "cluster.rdv.duplicate_rank")) {
		finding_why(f, "every node needs its own node rank; torchrun's rendezvous would "
			    "fail or pair the wrong processes");
		finding_fix(f, N_("give each node its own NODE_RANK / --node-rank 0..N-1 (under srun: "
			    "--ntasks-per-node=1, or let ncclcheck read SLURM_NODEID)"));
		finding_setting(f, WHERE_LAUNCHER, SCOPE_ALL, "--ntasks-per-node", "1");
	} else if (!strcmp(id, "cluster.rdv.wrong_count") || !strcmp(id, "cluster.rdv.bad_rank")) {
		finding_fix(f, N_("start every node with the same --nodes / NNODES and ranks 0..N-1"));
	} else if (!strcmp(id, "cluster.rdv.version")) {
		finding_fix(f, N_("install the same ncclcheck on every node"));
	} else if (!strcmp(id, "cluster.auth.failed")) {
		finding_fix(f, N_("give every node the same NCCLCHECK_TOKEN or --token-file"));
	} else if (!strcmp(id, "cluster.peer.dead")) {
		finding_why(f, "a node that dies or stops mid-run here would hang the job's "
			    "collectives until NCCL's timeout");
		finding_fix(f, N_("look at that node: is the process stopped (kill -CONT), killed "
			    "(dmesg: OOM), or is its network gone?"));
	}
}

void cluster_rdv_findings(const struct rdv_event *ev, size_t n, const struct rdv_opts *ro,
			  const char *master_ip, struct findings *fs)
{
	for (size_t i = 0; i < n; i++)
		event_finding(ro, &ev[i], master_ip, fs);
}

void cluster_rdv_aborted(struct findings *fs, const char *why)
{
	if (!findings_count(fs, SEV_ERROR))
		finding_add(fs, SEV_ERROR, "cluster.rdv.aborted",
			    "the cluster check could not finish: %s", why);
}

void cluster_peer_facts_refused(struct findings *fs, const char *host, int rank, const char *why)
{
	struct finding *f = finding_add(fs, SEV_ERROR, "cluster.peer.facts",
					"%s (rank %d) sent facts this node cannot use: %s",
					host ? host : "?", rank, why);

	finding_node(f, host);
	finding_rank(f, rank);
	finding_fix(f, N_("run the same ncclcheck on every node"));
}
