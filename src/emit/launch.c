/* emit: torchrun (static and c10d rendezvous), Open MPI, Slurm batch script and TaskProlog. */
#include "emit/emit_int.h"

#include <string.h>

/* rank 0's address, or a shell expansion that stops with a message when it is unset */
static void master_word(struct strbuf *sb, const struct recommendation *rec)
{
	if (rec->master_addr)
		strbuf_addstr(sb, rec->master_addr);
	else
		strbuf_addf(sb, "\"${MASTER_ADDR:?%s}\"", _("set MASTER_ADDR to the address of rank 0"));
}

static void script_head(struct strbuf *sb, const struct recommendation *rec, const char *what)
{
	strbuf_addstr(sb, "#!/bin/sh\n");
	em_header(sb, rec, "# ", what);
	strbuf_addstr(sb, "set -e\n\n");
	em_exports(sb, rec, "");
	strbuf_addch(sb, '\n');
}

void emit_torchrun(struct strbuf *sb, const struct recommendation *rec, int node_rank)
{
	struct strbuf what = STRBUF_INIT;

	if (node_rank == 0)
		strbuf_addf(&what, _("torchrun for node %d of %d (rank 0's machine: it hosts the "
				     "TCPStore)"), node_rank, rec->nodes);
	else
		strbuf_addf(&what, _("torchrun for node %d of %d"), node_rank, rec->nodes);
	script_head(sb, rec, what.buf);
	strbuf_release(&what);
	strbuf_addf(sb, "# %s\n", _("every node runs this with its own --node_rank; start them all "
				     "within the rendezvous timeout"));
	strbuf_addf(sb, "exec %s \\\n"
		    "\t--nnodes=%d \\\n"
		    "\t--node_rank=%d \\\n"
		    "\t--nproc_per_node=%d \\\n"
		    "\t--master_addr=", rec->torchrun, rec->nodes, node_rank, rec->gpus_per_node);
	master_word(sb, rec);
	strbuf_addf(sb, " \\\n\t--master_port=%d \\\n\t%s\n", rec->master_port, rec->script);
	em_notes(sb, rec, "# ");
}

/* a name, not an address: letters first, no ':' */
static int is_name(const char *s)
{
	return s && !strchr(s, ':') && strspn(s, "0123456789.") != strlen(s);
}

void emit_torchrun_c10d(struct strbuf *sb, const struct recommendation *rec)
{
	const char *m = rec->master_addr;

	script_head(sb, rec, _("torchrun with the c10d rendezvous: the same command on every node"));
	/*
	 * torchrun hosts the rendezvous store only where the endpoint equals the host name or an
	 * address that name resolves to; a name resolving elsewhere (the public IP in /etc/hosts)
	 * leaves nobody hosting it and every node waits. Deciding is_host from the interfaces
	 * themselves does not depend on that.
	 */
	strbuf_addf(sb, "# %s\nis_host=0\n", _("the machine that owns the endpoint address hosts the "
					     "rendezvous store (said explicitly: torchrun's own guess "
					     "goes by the host name's address)"));
	if (is_name(m))
		strbuf_addf(sb, "if [ \"$(uname -n)\" = %s ] || [ \"$(uname -n | cut -d. -f1)\" = %s ]; "
			    "then is_host=1; fi\n", m, m);
	else if (m)
		strbuf_addf(sb, "if ip -o addr show 2>/dev/null | grep -qF ' %s/'; then is_host=1; fi\n", m);
	else
		strbuf_addf(sb, "if ip -o addr show 2>/dev/null | grep -qF \" ${MASTER_ADDR:?%s}/\"; "
			    "then is_host=1; fi\n", _("set MASTER_ADDR to the address of rank 0"));
	strbuf_addstr(sb, "\n# ");
	strbuf_addf(sb, _("node ranks are assigned at the rendezvous; the endpoint is rank 0's "
			  "machine (port %d, not the TCPStore's)"), rec->rdzv_port);
	strbuf_addf(sb, "\nexec %s \\\n"
		    "\t--nnodes=%d \\\n"
		    "\t--nproc_per_node=%d \\\n"
		    "\t--rdzv_backend=c10d \\\n"
		    "\t--rdzv_endpoint=", rec->torchrun, rec->nodes, rec->gpus_per_node);
	if (m)
		em_endpoint(sb, m, rec->rdzv_port);
	else
		strbuf_addf(sb, "\"${MASTER_ADDR}:%d\"", rec->rdzv_port);
	strbuf_addf(sb, " \\\n\t--rdzv_conf=is_host=\"$is_host\" \\\n\t--rdzv_id=%s \\\n\t%s\n",
		    rec->job_name, rec->script);
	em_notes(sb, rec, "# ");
}

/* NCCL_SOCKET_IFNAME's names without '=' and '^' ("=eth1" -> "eth1", "^docker,lo" -> "docker,lo"). */
static void plain_names(struct strbuf *sb, const char *v)
{
	for (const char *p = v; *p; p++)
		if (*p != '=' && *p != '^')
			strbuf_addch(sb, *p);
}

/*
 * Open MPI's own interface selection, from the interface NCCL is told to use: its daemons (oob)
 * and TCP BTL otherwise try every interface, and hang when the public one is blocked. The same
 * name on every node: that name. Names that differ per node: the private subnet they share as a
 * CIDR (oob_tcp_if_include and btl_tcp_if_include take CIDR notation), else every name, said in
 * a comment. An exclude list: Open MPI's _exclude knobs, with lo added (they replace its own
 * default exclusion of loopback).
 */
static void mpi_ifaces(struct strbuf *sb, struct strbuf *why, const struct recommendation *rec)
{
	struct strbuf first = STRBUF_INIT, names = STRBUF_INIT, cidr = STRBUF_INIT, seen = STRBUF_INIT;
	size_t nodes = rec->nhosts ? rec->nhosts : 1;
	int differ = 0, exclude = 0, any = 0, cidr_ok = 1;

	for (size_t i = 0; i < nodes; i++) {
		const char *host = rec->nhosts ? rec->hosts[i] : NULL;
		const struct rec_var *v = rec_value_on(rec, "NCCL_SOCKET_IFNAME", host);
		struct strbuf n = STRBUF_INIT;
		const char *c;

		if (!v || !v->value || !*v->value || rec_placeholder(v->value)) {
			cidr_ok = 0;
			if (any)
				differ = 1;
			continue;
		}
		plain_names(&n, v->value);
		exclude |= v->value[0] == '^';
		if (!any) {
			strbuf_addstr(&first, n.buf);
		} else if (strcmp(first.buf, n.buf)) {
			differ = 1;
		}
		any = 1;
		strbuf_addf(&seen, "%s%s %s", seen.len ? ", " : "", host ? host : _("this node"), n.buf);
		/* the subnet, when the node's interface is one name with one IPv4 network */
		c = host && !strchr(n.buf, ',') && v->value[0] != '^' ? rec_if_cidr(rec, host, n.buf) : NULL;
		if (!c || (cidr.len && strcmp(cidr.buf, c)))
			cidr_ok = 0;
		else if (!cidr.len)
			strbuf_addstr(&cidr, c);
		if (!names.len || !strstr(names.buf, n.buf))
			strbuf_addf(&names, "%s%s", names.len ? "," : "", n.buf);
		strbuf_release(&n);
	}
	if (!any) {
		/* nothing measured: Open MPI's defaults */
	} else if (exclude && !differ) {
		strbuf_addf(sb, "\t--mca btl_tcp_if_exclude lo,%s --mca oob_tcp_if_exclude lo,%s \\\n",
			    first.buf, first.buf);
		strbuf_addstr(why, "# ");
		strbuf_addf(why, _("Open MPI's daemons and TCP BTL kept off %s as NCCL is "
				   "(NCCL_SOCKET_IFNAME=^%s)"), first.buf, first.buf);
		strbuf_addch(why, '\n');
	} else if (!differ) {
		strbuf_addf(sb, "\t--mca btl_tcp_if_include %s --mca oob_tcp_if_include %s \\\n",
			    first.buf, first.buf);
		strbuf_addstr(why, "# ");
		strbuf_addf(why, _("Open MPI's daemons (oob) and TCP BTL on %s, NCCL's interface: "
				   "otherwise they try every interface and hang on a blocked one"),
			    first.buf);
		strbuf_addch(why, '\n');
	} else if (cidr_ok && !exclude) {
		strbuf_addf(sb, "\t--mca btl_tcp_if_include %s --mca oob_tcp_if_include %s \\\n",
			    cidr.buf, cidr.buf);
		strbuf_addstr(why, "# ");
		strbuf_addf(why, _("the nodes' interface names differ (%s): Open MPI's daemons and TCP "
				   "BTL are given the subnet they share, %s"), seen.buf, cidr.buf);
		strbuf_addch(why, '\n');
	} else if (!exclude) {
		strbuf_addf(sb, "\t--mca btl_tcp_if_include %s --mca oob_tcp_if_include %s \\\n",
			    names.buf, names.buf);
		strbuf_addstr(why, "# ");
		strbuf_addf(why, _("the nodes' interface names differ (%s) and no one subnet is known: "
				   "Open MPI gets every name; check that no node has one of the others' "
				   "names on a blocked network, or give the private subnet instead (--mca "
				   "btl_tcp_if_include 10.0.0.0/16)"), seen.buf);
		strbuf_addch(why, '\n');
	} else {
		strbuf_addstr(why, "# ");
		strbuf_addf(why, _("the nodes' NCCL_SOCKET_IFNAME differ (%s): set Open MPI's --mca "
				   "btl_tcp_if_include / oob_tcp_if_include to the private subnet by hand"),
			    seen.buf);
		strbuf_addch(why, '\n');
	}
	strbuf_release(&first);
	strbuf_release(&names);
	strbuf_release(&cidr);
	strbuf_release(&seen);
}

void emit_mpirun(struct strbuf *sb, const struct recommendation *rec)
{
	struct strbuf mca = STRBUF_INIT, why = STRBUF_INIT;
	int per_node = 0;

	for (size_t i = 0; i < rec->n; i++)
		per_node |= rec->v[i].where == WHERE_ENV && rec->v[i].scope == SCOPE_NODE;
	mpi_ifaces(&mca, &why, rec);
	script_head(sb, rec, _("Open MPI mpirun: one process per GPU on every node"));
	strbuf_addf(sb, "# %s\n", _("the job reads its rank from OMPI_COMM_WORLD_RANK / _LOCAL_RANK / "
				     "_SIZE (Lightning: MPIEnvironment, needs mpi4py)"));
	strbuf_add(sb, why.buf, why.len);
	if (per_node)
		strbuf_addf(sb, "# %s\n", _("some settings differ per node: -x would pass this node's "
					     "values to every rank, so each rank sources ncclcheck.env "
					     "(its case on the host name) from the working directory"));
	if (!rec->nhosts) {
		strbuf_addstr(sb, "# ");
		strbuf_addf(sb, _("hostfile: one line per node, \"<host> slots=%d\", rank 0's machine "
				  "first"), rec->gpus_per_node);
		strbuf_addch(sb, '\n');
	}
	strbuf_addf(sb, "exec mpirun -np %d --map-by ppr:%d:node \\\n",
		    rec->nodes * rec->gpus_per_node, rec->gpus_per_node);
	if (rec->nhosts) {
		strbuf_addstr(sb, "\t--host ");
		for (size_t i = 0; i < rec->nhosts; i++)
			strbuf_addf(sb, "%s%s:%d", i ? "," : "", rec->hosts[i], rec->gpus_per_node);
		strbuf_addstr(sb, " \\\n");
	} else {
		strbuf_addstr(sb, "\t--hostfile hostfile \\\n");
	}
	strbuf_add(sb, mca.buf, mca.len);
	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		if (v->where != WHERE_ENV || v->scope != SCOPE_ALL || !v->value ||
		    rec_placeholder(v->value))
			continue;	/* a placeholder: the commented line above says what to set */
		/* the value is already in this shell's environment (exported above) */
		strbuf_addf(sb, "\t-x %s \\\n", v->name);
	}
	strbuf_addstr(sb, "\t-x MASTER_ADDR=");
	master_word(sb, rec);
	strbuf_addf(sb, " -x MASTER_PORT=%d \\\n", rec->master_port);
	if (per_node)
		strbuf_addf(sb, "\tsh -c '. ./ncclcheck.env && exec \"$@\"' sh python3 %s\n", rec->script);
	else
		strbuf_addf(sb, "\tpython3 %s\n", rec->script);
	strbuf_release(&mca);
	strbuf_release(&why);
	em_notes(sb, rec, "# ");
}

void emit_sbatch(struct strbuf *sb, const struct recommendation *rec)
{
	struct strbuf alt = STRBUF_INIT;

	strbuf_addstr(sb, "#!/bin/bash\n");
	em_header(sb, rec, "# ", _("Slurm batch script (sbatch FILE)"));
	strbuf_addf(sb, "# %s\n", _("--ntasks-per-node is Lightning's devices (one task per GPU) and "
				     "--nodes its num_nodes; Lightning's SLURMEnvironment checks both"));
	strbuf_addf(sb, "#SBATCH --job-name=%s\n"
		    "#SBATCH --nodes=%d\n"
		    "#SBATCH --ntasks-per-node=%d\n"
		    "#SBATCH --gres=gpu:%d\n\n"
		    "set -euo pipefail\n\n", rec->job_name, rec->nodes, rec->gpus_per_node,
		    rec->gpus_per_node);
	strbuf_addf(sb, "# %s\n", _("rank 0's address: the first host of the allocation, which is "
				     "where this script runs"));
	strbuf_addf(sb, "MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
		    "export MASTER_ADDR\n"
		    "export MASTER_PORT=%d\n\n", rec->master_port);
	em_exports(sb, rec, "");
	strbuf_addf(sb, "\n# %s\n# ", _("srun starts the tasks on every node; python started without "
					 "srun would run on this node only"));
	strbuf_addf(&alt, "srun --ntasks-per-node=1 %s --nnodes=\"$SLURM_JOB_NUM_NODES\" "
		    "--node_rank=\"$SLURM_NODEID\" --nproc_per_node=%d --master_addr=\"$MASTER_ADDR\" "
		    "--master_port=\"$MASTER_PORT\" %s", rec->torchrun, rec->gpus_per_node, rec->script);
	strbuf_addf(sb, _("(torchrun instead: %s)"), alt.buf);
	strbuf_addf(sb, "\nsrun --ntasks-per-node=%d --kill-on-bad-exit=1 python3 %s\n",
		    rec->gpus_per_node, rec->script);
	strbuf_release(&alt);
	em_notes(sb, rec, "# ");
}

static void prolog_echo(struct strbuf *sb, const char *indent, const struct rec_var *v)
{
	struct strbuf line = STRBUF_INIT;

	if (rec_placeholder(v->value)) {
		em_placeholder(sb, indent, "echo export %s=...", v);
		strbuf_release(&line);
		return;
	}
	/* Slurm takes everything after '=' as the value: no shell quoting in the printed line */
	if (v->value)
		strbuf_addf(&line, "export %s=%s", v->name, v->value);
	else
		strbuf_addf(&line, "unset %s", v->name);
	strbuf_addf(sb, "%secho ", indent);
	emit_sh_word(sb, line.buf);
	strbuf_addch(sb, '\n');
	strbuf_release(&line);
}

void emit_taskprolog(struct strbuf *sb, const struct recommendation *rec)
{
	int any_node = 0;

	strbuf_addstr(sb, "#!/bin/sh\n");
	em_header(sb, rec, "# ", _("Slurm TaskProlog (slurm.conf: "
				   "TaskProlog=/etc/slurm/ncclcheck-taskprolog.sh)"));
	strbuf_addf(sb, "# %s\n# %s\n\n",
		    _("slurmd runs it before every task; the lines it prints (\"export NAME=VALUE\", "
		      "\"unset NAME\") change that task's environment."),
		    _("It fixes the job's settings instead of draining the node: it never fails (a "
		      "failing TaskProlog cancels the task) and calls no Slurm command."));
	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		if (v->where != WHERE_ENV)
			continue;
		if (v->scope == SCOPE_NODE) {
			any_node = 1;
			continue;
		}
		em_comment_tr(sb, "# ", v->why ? v->why : N_("recommended"));
		prolog_echo(sb, "", v);
	}
	if (any_node) {
		strbuf_addstr(sb, "case \"${SLURMD_NODENAME:-$(uname -n)}\" in\n");
		for (size_t i = 0; i < rec->n; i++) {
			const char *node = rec->v[i].node;
			if (!em_first_of_node(rec, i))
				continue;
			strbuf_addf(sb, "%s|%s.*)\n", node, node);
			for (size_t j = i; j < rec->n; j++)
				if (em_is_node_var(&rec->v[j], node))
					prolog_echo(sb, "\t", &rec->v[j]);
			strbuf_addstr(sb, "\t;;\n");
		}
		strbuf_addstr(sb, "esac\n");
	}
	if (!em_env_count(rec) && !any_node)
		strbuf_addf(sb, "# %s\n", _("nothing to export: the checks found the defaults right for "
					     "this job"));
	strbuf_addstr(sb, "exit 0\n");
}
