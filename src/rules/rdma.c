/*
 * RDMA that NCCL cannot use, so it silently falls back to TCP sockets: ports that are not ACTIVE,
 * libibverbs that does not load or lists no device (a missing provider), and GPUDirect RDMA
 * without nvidia_peermem. Pure.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

struct net {
	const struct node_model *m;
	struct findings *out;
};

static void report_rdma(struct net *n)
{
	const struct nm_rdma *rdma = &n->m->rdma;
	int active = 0, devices = rdma->ndevices, ib_disabled = 0;
	struct finding *f;
	struct strbuf names = STRBUF_INIT;
	const struct nccl_setting *st;

	if (!rdma->known)
		return;
	for (size_t i = 0; i < rdma->nports; i++) {
		const struct nm_rdma_port *p = &rdma->ports[i];

		if (p->state && !strcmp(p->state, "ACTIVE")) {
			strbuf_addf(&names, "%s%s:%ld", active ? ", " : "", str_or(p->dev, "?"), p->port);
			active++;
		}
	}
	st = node_model_setting(n->m, "NCCL_IB_DISABLE");
	ib_disabled = st && atoi(st->value) != 0;
	if (!devices || ib_disabled)
		goto out;
	if (!active) {
		f = finding_add(n->out, SEV_INFO, "net.rdma.down", "%d RDMA device(s) but no port is ACTIVE: NCCL "
				"uses TCP sockets", devices);
		finding_fix(f, N_("ibstat   # check cabling / subnet manager, or the RoCE interface's link"));
		goto out;
	}
	if (rdma->verbs_probed && rdma->verbs_loaded != 1) {
		f = finding_add(n->out, SEV_WARN, "net.rdma.verbs",
				"RDMA ports are active (%s) but libibverbs does not load: NCCL silently uses TCP sockets",
				names.buf);
		finding_evidence(f, "rdma.verbs.error: %s", str_or(rdma->verbs_error, "?"));
		finding_fix(f, N_("apt-get install ibverbs-providers libibverbs1   # or your distribution's rdma-core"));
		goto out;
	}
	/*
	 * libibverbs itself loads, but lists no device although /sys has them: the per-vendor
	 * provider (libmlx5, …) is missing, a common container mistake; NCCL then says
	 * "NET/IB : No device found" and falls back to sockets.
	 */
	if (rdma->verbs_devices == 0) {
		f = finding_add(n->out, SEV_WARN, "net.rdma.providers",
				"RDMA ports are active (%s) but libibverbs lists no device: its provider "
				"library is missing, so NCCL silently uses TCP sockets", names.buf);
		finding_evidence(f, "rdma.verbs.path: %s; rdma.verbs.devices: []",
				 str_or(rdma->verbs_path, "?"));
		finding_fix(f, N_("apt-get install ibverbs-providers   # libmlx5 and the other providers (rdma-core)"));
		finding_fix(f, N_("ibv_devices   # must list the devices /sys/class/infiniband shows"));
		goto out;
	}
	if (rdma->peermem_probed && !rdma->peermem_loaded) {
		f = finding_add(n->out, SEV_INFO, "net.rdma.peermem",
				"RDMA is active (%s) but nvidia_peermem is not loaded", names.buf);
		finding_why(f, "Without it (or DMA-BUF support: kernel 5.12+, open GPU kernel modules) NCCL "
			    "stages GPU data through host memory instead of GPUDirect RDMA: correct but slower.");
		finding_fix(f, "modprobe nvidia_peermem");
	}
out:
	strbuf_release(&names);
}

void rule_rdma(const struct node_model *m, struct findings *out)
{
	struct net n = { m, out };

	if (!m->have_ifs)
		return;
	report_rdma(&n);
}
