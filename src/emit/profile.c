/*
 * Cloud profiles: documented facts only (research/launch-and-cloud.md §2, frontier-2026.md §1.6,
 * the project's cloud rules in rules/cloud.c). A profile never invents a value: where the right
 * value depends on the machine (the interface, the RDMA device list, the VM size's topology
 * file) it comes from the measured facts or is left to a note. RDMA settings are written only
 * where an RDMA device has an active port, so no profile turns on InfiniBand/RoCE on a host
 * without it (the seed's NCCL_IB_DISABLE=0 trap).
 */
#include "emit/emit.h"

#include <stdlib.h>
#include <string.h>

#include "util/version.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The NCCL release from which a line is no longer wanted (NCCL picks the RoCE GID itself from 2.21). */
struct line_gate {
	const char *name;
	const char *nccl_below;
};

static const struct line_gate gates[] = {
	{ "NCCL_IB_GID_INDEX", "2.21" },
};

const struct profile_line emit_profile_lines[] = {
	/* Alibaba Cloud PAI-DLC eRDMA (needs NCCL >= 2.19) [launch-and-cloud S48] */
	{ .cloud = EMIT_CLOUD_ALIYUN, .name = "NCCL_IB_HCA", .value = "erdma", .where = WHERE_ENV,
	  .needs_rdma = 1, .needs_rdma_name = "erdma",
	  .why = N_("Alibaba's eRDMA guide: NCCL drives the eRDMA devices through its IB transport") },
	{ .cloud = EMIT_CLOUD_ALIYUN, .name = "NCCL_IB_GID_INDEX", .value = "1", .where = WHERE_ENV,
	  .needs_rdma = 1, .needs_rdma_name = "erdma",
	  .why = N_("Alibaba's eRDMA guide (NCCL >= 2.21 chooses the GID itself and needs no index)") },
	{ .cloud = EMIT_CLOUD_ALIYUN, .name = "NCCL_IB_QPS_PER_CONNECTION", .value = "8",
	  .where = WHERE_ENV, .needs_rdma = 1, .needs_rdma_name = "erdma",
	  .why = N_("Alibaba's eRDMA guide: 8 queue pairs per connection") },
	{ .cloud = EMIT_CLOUD_ALIYUN, .name = "NCCL_MIN_NCHANNELS", .value = "16", .where = WHERE_ENV,
	  .needs_rdma = 1, .needs_rdma_name = "erdma",
	  .why = N_("Alibaba's eRDMA guide: at least 16 channels") },
	/* Azure ND-series HPC images write these into /etc/nccl.conf [S44] */
	{ .cloud = EMIT_CLOUD_AZURE, .name = "NCCL_IB_PCI_RELAXED_ORDERING", .value = "1",
	  .where = WHERE_NCCL_CONF, .needs_rdma = 1,
	  .why = N_("Azure HPC image's /etc/nccl.conf: relaxed PCI ordering for InfiniBand in a VM "
		 "(1 forces it, 2 is NCCL's auto)") },
	{ .cloud = EMIT_CLOUD_AZURE, .name = "NCCL_IGNORE_CPU_AFFINITY", .value = "1",
	  .where = WHERE_NCCL_CONF, .needs_rdma = 1,
	  .why = N_("Azure HPC image's /etc/nccl.conf: the VM's CPU affinity does not describe the host") },
	/* Oracle OCI BM.GPU.H100.8 RoCE sample [S52] */
	{ .cloud = EMIT_CLOUD_OCI, .name = "NCCL_IB_TC", .value = "41", .where = WHERE_ENV,
	  .needs_rdma = 1, .why = N_("Oracle's RoCE sample: the traffic class OCI's fabric expects") },
	{ .cloud = EMIT_CLOUD_OCI, .name = "NCCL_IB_SL", .value = "0", .where = WHERE_ENV,
	  .needs_rdma = 1, .why = N_("Oracle's RoCE sample: service level 0") },
	{ .cloud = EMIT_CLOUD_OCI, .name = "NCCL_IB_TIMEOUT", .value = "22", .where = WHERE_ENV,
	  .needs_rdma = 1, .why = N_("Oracle's RoCE sample: a longer IB timeout (NCCL's default is 20)") },
	{ .cloud = EMIT_CLOUD_OCI, .name = "NCCL_IB_QPS_PER_CONNECTION", .value = "16",
	  .where = WHERE_ENV, .needs_rdma = 1, .why = N_("Oracle's RoCE sample: 16 queue pairs per connection") },
	{ .cloud = EMIT_CLOUD_OCI, .name = "NCCL_IB_SPLIT_DATA_ON_QPS", .value = "0",
	  .where = WHERE_ENV, .needs_rdma = 1, .why = N_("Oracle's RoCE sample: do not split messages over QPs") },
	{ .cloud = EMIT_CLOUD_OCI, .name = "NCCL_IB_GID_INDEX", .value = "3", .where = WHERE_ENV,
	  .needs_rdma = 1,
	  .why = N_("Oracle's RoCE sample: the RoCE v2 GID (NCCL >= 2.21 chooses it itself)") },
};

const size_t emit_profile_count = ARRAY_SIZE(emit_profile_lines);

/* Names outside NCCL's table that a writer may set. */
int emit_known_foreign_name(const char *name)
{
	static const char *const names[] = {
		"GLOO_SOCKET_IFNAME", "TORCH_NCCL_BLOCKING_WAIT", "TORCH_NCCL_ASYNC_ERROR_HANDLING",
		"TORCH_NCCL_DESYNC_DEBUG", "TORCH_NCCL_ENABLE_TIMING", "TORCH_NCCL_TRACE_BUFFER_SIZE",
		"TORCH_NCCL_DUMP_ON_TIMEOUT", "TORCH_DISTRIBUTED_DEBUG", "FI_EFA_USE_HUGE_PAGE",
		"LD_LIBRARY_PATH", "MASTER_ADDR", "MASTER_PORT", "OMP_NUM_THREADS", "CUDA_DEVICE_ORDER",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

static int gated_out(const struct recommendation *rec, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(gates); i++)
		if (!strcmp(gates[i].name, name) && rec->nccl_version &&
		    version_cmp_str(rec->nccl_version, gates[i].nccl_below) >= 0)
			return 1;
	return 0;
}

static void notes(struct recommendation *rec, enum emit_cloud cloud)
{
	switch (cloud) {
	case EMIT_CLOUD_AUTODL:
		rec_note(rec, "AutoDL publishes no multi-node NIC layout: the interface written here is "
			 "the one measured to reach rank 0, not an assumed eth1");
		rec_note(rec, "AutoDL's torch 1.11 image (seed 2 §5.1) is years behind current torch and "
			 "Lightning; a current torch wheel brings its own NCCL");
		break;
	case EMIT_CLOUD_AWS:
		rec_note(rec, "AWS EFA: NCCL has no EFA transport of its own; the aws-ofi-nccl plugin must "
			 "load (its lib directory, e.g. /opt/amazon/ofi-nccl/lib, on LD_LIBRARY_PATH)");
		rec_note(rec, "AWS: the security group needs a self-referencing all-traffic rule in and "
			 "out, and EFA instances belong in one cluster placement group");
		rec_note(rec, "AWS: FI_EFA_USE_DEVICE_RDMA, FI_EFA_FORK_SAFE, RDMAV_FORK_SAFE, "
			 "FI_PROVIDER=efa and NCCL_PROTO=simple from old EFA recipes are not written: "
			 "aws-ofi-nccl's own table says not to set them with current plugins");
		break;
	case EMIT_CLOUD_ALIYUN:
		if (rec->master_addr)
			rec_note(rec, "Alibaba Cloud: jumbo frames are 8500 bytes (not 8000 or 9000), and "
				 "only help when every hop carries them: check from every node with ping -M "
				 "do -s 8472 -c 3 %s", rec->master_addr);
		else
			rec_note(rec, "Alibaba Cloud: jumbo frames are 8500 bytes (not 8000 or 9000), and "
				 "only help when every hop carries them: check between every two nodes with "
				 "ping -M do -s 8472 -c 3 and the other's address");
		rec_note(rec, "Alibaba Cloud eRDMA needs NCCL >= 2.19; in ACK, hostNetwork lets NCCL "
			 "reach the eRDMA device");
		break;
	case EMIT_CLOUD_AZURE:
		rec_note(rec, "Azure ND-series: NCCL_TOPO_FILE=/opt/microsoft/<ndv4|ndv5>/topo.xml for "
			 "the VM size (the HPC images write it into /etc/nccl.conf); without it NCCL "
			 "guesses the topology and runs slower");
		rec_note(rec, "Azure: InfiniBand links only join VMs of one scale set");
		break;
	case EMIT_CLOUD_GCP:
		rec_note(rec, "GCP A3 Mega (GPUDirect-TCPXO): source /var/lib/tcpxo/lib64/"
			 "nccl-env-profile.sh instead of copying its values, which its guest config "
			 "checker validates; A3 High (TCPX) needs /usr/local/tcpx/lib64 on LD_LIBRARY_PATH");
		rec_note(rec, "GCP: every VM takes its VPC network's MTU; firewall rules are per VPC "
			 "network, so each extra network needs its own ingress rule");
		break;
	case EMIT_CLOUD_OCI:
		rec_note(rec, "OCI: NCCL_NET_PLUGIN=none, NCCL_CUMEM_ENABLE=0 and NCCL_BUFFSIZE from "
			 "Oracle's benchmark script are not written: they tune that benchmark, not every job");
		break;
	case EMIT_CLOUD_GENERIC:
		break;
	}
}

void rec_apply_cloud(struct recommendation *rec, enum emit_cloud cloud)
{
	char *src = xasprintf(N_("cloud profile %s"), emit_cloud_name(cloud));
	int skipped = 0;

	rec->cloud = cloud;
	for (size_t i = 0; i < emit_profile_count; i++) {
		const struct profile_line *l = &emit_profile_lines[i];

		if (l->cloud != cloud || rec_get(rec, l->name))
			continue;	/* a measured setting wins over a profile's */
		if (l->needs_rdma && (!rec->rdma || (l->needs_rdma_name && (!rec->rdma_devs ||
				      !strstr(rec->rdma_devs, l->needs_rdma_name))))) {
			skipped++;
			continue;
		}
		if (gated_out(rec, l->name)) {
			rec_note(rec, "%s not set: NCCL %s chooses the RoCE GID itself (from 2.21)", l->name,
				 rec->nccl_version);
			continue;
		}
		rec_set(rec, l->where, SCOPE_ALL, NULL, l->name, l->value, l->why, src);
	}
	if (cloud == EMIT_CLOUD_OCI && rec->rdma && rec->rdma_devs && !rec_get(rec, "NCCL_IB_HCA")) {
		char *hca = xasprintf("=%s", rec->rdma_devs);
		rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_IB_HCA", hca,
			N_("exactly the RDMA devices with an active port (Oracle's sample lists them "
			   "with '=')"),
			src);
		free(hca);
	}
	if (skipped)
		rec_note(rec, "%d RDMA setting(s) of the %s profile not written: no matching RDMA device "
			 "with an active port was seen", skipped, emit_cloud_name(cloud));
	notes(rec, cloud);
	free(src);
}
