/*
 * The NCCL variable table and the settings NCCL would see. The rows were taken from NCCL's own
 * source (every NCCL_PARAM, every literal "NCCL_*" name handed to ncclGetEnv/getenv, every
 * DEFINE_NCCL_PARAM) at each release tag from v2.7.8 to v2.30.7, which gives `since` and `gone`
 * exactly at tag granularity; types, ranges and values come from env.rst and the parsing code.
 */
#include "model/nccl_vars.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/stack.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/version.h"
#include "util/xalloc.h"

#define V(n, t, d, vals, lo, hi, since, gone) { n, t, d, vals, lo, hi, since, gone, NV_OWN_NCCL, NULL, NULL }
#define VN(n, t, d, vals, lo, hi, since, gone, note) \
	{ n, t, d, vals, lo, hi, since, gone, NV_OWN_NCCL, note, NULL }
#define OWNED(n, owner, note) { n, NV_STR, NULL, NULL, 0, -1, NULL, NULL, owner, note, NULL }

const struct nccl_var nccl_vars[] = {
	V("NCCL_AGG_ALLOC_MODE", NV_STR, NULL, NULL, 0, -1, "2.10.3", "2.13.4"),
	V("NCCL_AGG_CHANNEL_SIZE", NV_INT, "-2", NULL, 0, -1, "2.10.3", "2.20.3"),
	V("NCCL_ALGO", NV_ALGO, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_ALLGATHERV_ENABLE", NV_INT, "1", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_ALLOC_P2P_NET_LL_BUFFERS", NV_INT, "0", NULL, 0, -1, "2.14.3", NULL),
	V("NCCL_BUFFSIZE", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_CGA_CLUSTER_SIZE", NV_INT, "unset", NULL, 0, 8, "2.15.1", NULL),
	V("NCCL_CHECK_MODE", NV_ENUM, NULL, "DEFAULT|DEBUG_LOCAL|DEBUG_GLOBAL", 0, -1, "2.29.7", NULL),
	V("NCCL_CHECK_POINTERS", NV_INT, "0", NULL, 0, -1, NULL, NULL),
	V("NCCL_CHUNK_SIZE", NV_INT, "0", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_COLLNET_ENABLE", NV_INT, "unset", NULL, 0, -1, NULL, NULL),
	V("NCCL_COLLNET_NODE_THRESHOLD", NV_INT, "2", NULL, 0, -1, "2.9.9", NULL),
	V("NCCL_COMM_BLOCKING", NV_INT, "unset", NULL, 0, 1, "2.14.3", NULL),
	V("NCCL_COMM_ID", NV_ADDR, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_COMM_SHRINK_SHARE_RESOURCES", NV_INT, "unset", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_COMM_SPLIT_SHARE_RESOURCES", NV_INT, "unset", NULL, 0, -1, "2.18.1", NULL),
	V("NCCL_CONF_FILE", NV_PATH, NULL, NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_CONNECT_ROUND_MAX_PEERS", NV_INT, "128", NULL, 0, -1, "2.19.4", NULL),
	V("NCCL_CREATE_THREAD_CONTEXT", NV_INT, "0", NULL, 0, -1, "2.13.4", "2.30.7"),
	V("NCCL_CROSS_NIC", NV_INT, "2", NULL, 0, 2, NULL, NULL),
	V("NCCL_CTA_POLICY", NV_STR, NULL, NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_CUDA_PATH", NV_PATH, NULL, NULL, 0, -1, "2.13.4", "2.21.5"),
	V("NCCL_CUMEM_ENABLE", NV_INT, "-2", NULL, 0, 1, "2.18.1", NULL),
	V("NCCL_CUMEM_HOST_ENABLE", NV_INT, "-1", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_DEBUG", NV_ENUM, NULL, "VERSION|WARN|INFO|ABORT|TRACE|ATTN", 0, -1, NULL, NULL),
	V("NCCL_DEBUG_FILE", NV_PATH, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_DEBUG_SUBSYS", NV_SUBSYS, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_DEBUG_TIMESTAMP_FORMAT", NV_STR, NULL, NULL, 0, -1, "2.26.2", NULL),
	V("NCCL_DEBUG_TIMESTAMP_LEVELS", NV_STR, NULL, NULL, 0, -1, "2.26.2", NULL),
	V("NCCL_DEV_API_JIT", NV_INT, "0", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_DISABLE_MEM_MANAGER", NV_INT, "0", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_DMABUF_ENABLE", NV_INT, "1", NULL, 0, -1, "2.13.4", NULL),
	V("NCCL_ELASTIC_BUFFER_REGISTER", NV_INT, "1", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_ENABLE_VERSION_CHECK", NV_INT, "1", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_ENV_PLUGIN", NV_STR, NULL, NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GDAKI_USE_RELIABLE_DB", NV_INT, "0", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_GDRCOPY_ENABLE", NV_INT, "0", NULL, 0, -1, "2.9.6", NULL),
	V("NCCL_GDRCOPY_FIFO_ENABLE", NV_INT, "1", NULL, 0, -1, "2.9.6", NULL),
	V("NCCL_GDRCOPY_FLUSH_ENABLE", NV_INT, "0", NULL, 0, -1, "2.9.6", NULL),
	V("NCCL_GDRCOPY_SYNC_ENABLE", NV_INT, "1", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_GDRCOPY_TAIL_ENABLE", NV_INT, "1", NULL, 0, -1, "2.9.6", "2.12.7"),
	V("NCCL_GDR_FLUSH_DISABLE", NV_INT, "0", NULL, 0, -1, NULL, NULL),
	V("NCCL_GIN_CONNECTION_RAIL", NV_STR, NULL, NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_GIN_COUNTER_POOL_SIZE", NV_INT, "524288", NULL, 0, -1, "2.28.7", "2.30.3"),
	V("NCCL_GIN_ENABLE", NV_INT, "1", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GIN_ERROR_QUERY_SEC", NV_INT, "10", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GIN_EXCLUSIVE_CONTEXTS", NV_INT, "-1", NULL, 0, -1, "2.29.7", "2.30.3"),
	V("NCCL_GIN_GDAKI_MAX_DEST_RD_ATOMIC", NV_INT, "-2", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_GIN_GDAKI_MAX_QP_RD_ATOMIC", NV_INT, "-2", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_GIN_GDAKI_NIC_HANDLER", NV_INT, "0", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GIN_GDAKI_QP_DEPTH", NV_INT, "128", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GIN_IB_TC", NV_INT, "-1", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_GIN_NCONNECTIONS", NV_INT, "-2", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_GIN_NCONTEXTS", NV_INT, "-1", NULL, 0, -1, "2.28.7", "2.30.3"),
	V("NCCL_GIN_PLUGIN", NV_STR, NULL, NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_GIN_PLUGIN_REF_COUNT", NV_INT, "0", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_GIN_PROXY_QUEUE_SIZE", NV_INT, "-1", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GIN_SIGNAL_POOL_SIZE", NV_INT, "524288", NULL, 0, -1, "2.28.7", "2.30.3"),
	V("NCCL_GIN_TYPE", NV_INT, "-1", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_GRAPH_DUMP_FILE", NV_PATH, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_GRAPH_DUMP_FILE_RANK", NV_INT, "0", NULL, 0, -1, NULL, NULL),
	V("NCCL_GRAPH_FILE", NV_PATH, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_GRAPH_HELPER_DISABLE", NV_INT, "0", NULL, 0, -1, "2.11.4", NULL),
	V("NCCL_GRAPH_MIXING_SUPPORT", NV_INT, "unset", NULL, 0, -1, "2.13.4", NULL),
	V("NCCL_GRAPH_REGISTER", NV_INT, "1", NULL, 0, -1, "2.11.4", NULL),
	V("NCCL_GRAPH_STREAM_ORDERING", NV_INT, "unset", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_GROUP_CUDA_STREAM", NV_INT, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_HOSTID", NV_STR, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_IBVERBS_LIB", NV_PATH, NULL, NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_ADAPTIVE_ROUTING", NV_INT, "-2", NULL, 0, -1, "2.16.2", NULL),
	V("NCCL_IB_ADDR_FAMILY", NV_ENUM_CS, NULL, "AF_INET|AF_INET6", 0, -1, "2.21.5", NULL),
	V("NCCL_IB_ADDR_RANGE", NV_STR, NULL, NULL, 0, -1, "2.21.5", NULL),
	V("NCCL_IB_AR_THRESHOLD", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_IB_DATA_DIRECT", NV_INT, "1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_IB_DEVICE_PCI_ORDER", NV_INT, "1", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_IB_DISABLE", NV_INT, "0", NULL, 0, 1, NULL, NULL),
	V("NCCL_IB_ECE_ENABLE", NV_INT, "1", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_IB_FIFO_TC", NV_INT, "-1", NULL, 0, 255, "2.22.3", NULL),
	V("NCCL_IB_GID_INDEX", NV_INT, "-1", NULL, 0, -1, NULL, NULL),
	V("NCCL_IB_HCA", NV_HCALIST, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_IB_MERGE_NICS", NV_INT, "1", NULL, 0, -1, "2.20.3", NULL),
	V("NCCL_IB_MERGE_VFS", NV_INT, "1", NULL, 0, -1, "2.18.1", NULL),
	V("NCCL_IB_MQP_RETRY_ALL", NV_INT, "0", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_IB_MQP_RETRY_CNT", NV_INT, "34", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_IB_MQP_RETRY_SLEEP_MSEC", NV_INT, "100", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_IB_OOO_RQ", NV_INT, "0", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_PCI_RELAXED_ORDERING", NV_INT, "2", NULL, 0, 2, "2.12.7", NULL),
	V("NCCL_IB_PKEY", NV_INT, "0", NULL, 0, -1, "2.8.3", NULL),
	V("NCCL_IB_PREPOST_RECEIVE_WORK_REQUESTS", NV_INT, "-2", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_IB_QPS_PER_CONNECTION", NV_INT, "1", NULL, 1, 128, "2.10.3", NULL),
	V("NCCL_IB_QUERY_PORT_SPEED", NV_INT, "1", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_IB_RECEIVER_SIDE_MATCHING_SCHEME", NV_INT, "-2", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_IB_RESILIENCY_PORT_FAILOVER", NV_INT, "0", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_IB_RESILIENCY_PORT_FAILOVER_MAX_ATTEMPTS", NV_INT, "1", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_IB_RESILIENCY_PORT_FAILOVER_PROBE_DELAY", NV_INT, "10", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY", NV_INT, "0", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_ACK_TIMEOUT", NV_INT, "5000", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_ALIVE_MSG_BATCH_INTERVAL", NV_INT, "500", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_ALIVE_MSG_BATCH_SIZE", NV_INT, "5", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_ALIVE_MSG_SEQUENCE_SIZE", NV_INT, "5", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_ALIVE_MSG_TIMEOUT", NV_INT, "4000", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_ATTEMPTS_MAX", NV_INT, "5", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RESILIENCY_PORT_RECOVERY_START_DELAY", NV_INT, "200", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IB_RETRY_CNT", NV_INT, "7", NULL, 0, 7, NULL, NULL),
	V("NCCL_IB_RETURN_ASYNC_EVENTS", NV_INT, "1", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_IB_ROCE_VERSION_NUM", NV_INT, "2", NULL, 1, 2, "2.21.5", NULL),
	V("NCCL_IB_ROUTABLE_FLID_GID_INDEX", NV_INT, "1", NULL, 0, -1, "2.22.3", NULL),
	V("NCCL_IB_SL", NV_INT, "-1", NULL, 0, 15, NULL, NULL),
	V("NCCL_IB_SPLIT_DATA_ON_QPS", NV_INT, "0", NULL, 0, -1, "2.18.1", NULL),
	V("NCCL_IB_SUBNET_AWARE_ROUTING", NV_INT, "0", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_IB_SUBNET_PREFIX_LEN", NV_INT, "24", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_IB_TC", NV_INT, "-1", NULL, 0, 255, NULL, NULL),
	V("NCCL_IB_TIMEOUT", NV_INT, "20", NULL, 0, 31, NULL, NULL),
	V("NCCL_IB_USE_INLINE", NV_INT, "0", NULL, 0, -1, "2.8.3", NULL),
	V("NCCL_IB_WARN_RAIL_LOCAL", NV_INT, "0", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_IGNORE_COLLNET_MISMATCH", NV_INT, "0", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IGNORE_CPU_AFFINITY", NV_INT, "0", NULL, 0, 1, NULL, NULL),
	V("NCCL_IGNORE_DISABLED_P2P", NV_INT, "0", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_IGNORE_NET_MISMATCH", NV_INT, "1", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_IPC_USE_ABSTRACT_SOCKET", NV_INT, "1", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_L1_SHARED_MEMORY_CARVEOUT", NV_INT, "0", NULL, 0, -1, "2.12.10", NULL),
	V("NCCL_LAUNCH_MODE", NV_ENUM, NULL, "PARALLEL|GROUP", 0, -1, NULL, NULL),
	V("NCCL_LAUNCH_ORDER_IMPLICIT", NV_INT, "0", NULL, 0, -1, "2.26.2", NULL),
	V("NCCL_LAUNCH_RACE_FATAL", NV_INT, "1", NULL, 0, -1, "2.26.2", NULL),
	V("NCCL_LEGACY_CUDA_REGISTER", NV_INT, "0", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_LL128_BUFFSIZE", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_LL128_C2C", NV_INT, "1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_LL128_NTHREADS", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_LL_BUFFSIZE", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_LOCAL_REGISTER", NV_INT, "1", NULL, 0, -1, "2.19.1", NULL),
	V("NCCL_LSA_TEAM_SIZE", NV_INT, "0", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_MAX_CTAS", NV_INT, "unset", NULL, 1, 64, "2.17.1", NULL),
	V("NCCL_MAX_NCHANNELS", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	VN("NCCL_MAX_NRINGS", NV_INT, "-2", NULL, 0, -1, NULL, NULL, N_("old name of NCCL_MAX_NCHANNELS (2.5), ignored when that is set")),
	V("NCCL_MAX_P2P_NCHANNELS", NV_INT, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_MEM_SYNC_DOMAIN", NV_INT, "1", NULL, 0, -1, "2.16.2", NULL),
	V("NCCL_MIN_CTAS", NV_INT, "unset", NULL, 1, 64, "2.17.1", NULL),
	V("NCCL_MIN_NCHANNELS", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	VN("NCCL_MIN_NRINGS", NV_INT, "-2", NULL, 0, -1, NULL, NULL, N_("old name of NCCL_MIN_NCHANNELS (2.5), ignored when that is set")),
	V("NCCL_MIN_P2P_NCHANNELS", NV_INT, "1", NULL, 0, -1, NULL, NULL),
	V("NCCL_MLOPART_RDMA_ENABLE", NV_INT, "0", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_MNNVL", NV_INT, "-2", NULL, 0, -1, "2.20.3", "2.21.5"),
	V("NCCL_MNNVL_CLIQUE_ID", NV_INT, "-1", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_MNNVL_CROSS_CLIQUE", NV_INT, "0", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_MNNVL_ENABLE", NV_INT, "2", NULL, 0, -1, "2.21.5", NULL),
	V("NCCL_MNNVL_RAIL_PER_HOST", NV_INT, "0", NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_MNNVL_SCATTER_NETS_ENABLE", NV_INT, "1", NULL, 0, -1, "2.27.5", NULL),
	V("NCCL_MNNVL_UUID", NV_INT, "-1", NULL, 0, -1, "2.25.1", NULL),
	V("NCCL_MULTI_RANK_GPU_ENABLE", NV_INT, "0", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_MULTI_SEGMENT_REGISTER", NV_INT, "1", NULL, 0, -1, "2.29.2", NULL),
	VN("NCCL_NCCL_ALLOC_P2P_NET_LL_BUFFERS", NV_INT, "0", NULL, 0, -1, "2.14.3", "2.16.5", N_("the doubled prefix is how NCCL 2.14-2.16 spelled NCCL_ALLOC_P2P_NET_LL_BUFFERS")),
	V("NCCL_NCHANNELS_PER_NET_PEER", NV_INT, "unset", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_NET", NV_NET, NULL, NULL, 0, -1, "2.10.3", NULL),
	V("NCCL_NETDEVS_POLICY", NV_STR, NULL, NULL, 0, -1, "2.28.3", NULL),
	V("NCCL_NET_DISABLE_INTRA", NV_INT, "0", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_NET_FORCE_FLUSH", NV_INT, "0", NULL, 0, -1, "2.15.1", NULL),
	V("NCCL_NET_FORCE_MERGE", NV_STR, NULL, NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_NET_GDR_C2C", NV_INT, "1", NULL, 0, -1, "2.26.2", NULL),
	V("NCCL_NET_GDR_LEVEL", NV_LEVEL, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_NET_GDR_MLOPART", NV_INT, "0", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_NET_GDR_READ", NV_INT, "-2", NULL, 0, 1, NULL, NULL),
	V("NCCL_NET_MERGE_LEVEL", NV_STR, NULL, NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_NET_MERGE_POLICY", NV_STR, NULL, NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_NET_OPTIONAL_RECV_COMPLETION", NV_INT, "1", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_NET_OVERHEAD", NV_INT, "-2", NULL, 0, -1, "2.18.1", NULL),
	V("NCCL_NET_PLUGIN", NV_STR, NULL, NULL, 0, -1, "2.11.4", NULL),
	V("NCCL_NET_PLUGIN_REF_COUNT", NV_INT, "0", NULL, 0, -1, "2.26.2", NULL),
	V("NCCL_NET_SHARED_BUFFERS", NV_INT, "-2", NULL, 0, -1, "2.8.3", NULL),
	V("NCCL_NET_SHARED_COMMS", NV_INT, "1", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_NO_CACHE", NV_STR, NULL, NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_NSOCKS_PERTHREAD", NV_INT, "-2", NULL, 1, 64, NULL, NULL),
	V("NCCL_NTHREADS", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_NUM_RMA_CTX", NV_INT, "unset", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_NVB_DISABLE", NV_INT, "0", NULL, 0, -1, "2.9.9", NULL),
	V("NCCL_NVB_PRECONNECT", NV_INT, "1", NULL, 0, -1, "2.9.9", NULL),
	V("NCCL_NVLINK_UTIL_CENTRIC_SCHED_ENABLE", NV_INT, "unset", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_NVLSTREE_MAX_CHUNKSIZE", NV_INT, "-2", NULL, 0, -1, "2.20.3", NULL),
	V("NCCL_NVLS_CHUNKSIZE", NV_INT, "131072", NULL, 0, -1, "2.21.5", NULL),
	V("NCCL_NVLS_ENABLE", NV_INT, "2", NULL, 0, 2, "2.17.1", NULL),
	V("NCCL_NVLS_NCHANNELS", NV_INT, "unset", NULL, 0, -1, "2.17.1", NULL),
	V("NCCL_NVTX_DISABLE", NV_INT, "0", NULL, 0, -1, "2.28.3", NULL),
	V("NCCL_OOB_NET_ENABLE", NV_INT, "0", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_OOB_NET_IFNAME", NV_IFLIST, NULL, NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_P2P_DIRECT_DISABLE", NV_INT, "0", NULL, 0, -1, "2.12.12", NULL),
	V("NCCL_P2P_DISABLE", NV_INT, NULL, NULL, 0, 1, NULL, NULL),
	V("NCCL_P2P_EPOCH_ENABLE", NV_INT, "1", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_P2P_LEVEL", NV_LEVEL, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_P2P_LL_THRESHOLD", NV_INT, "16384", NULL, 0, -1, "2.14.3", NULL),
	V("NCCL_P2P_MAX_PEERS", NV_INT, "unset", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_P2P_NET_CHUNKSIZE", NV_INT, "131072", NULL, 0, -1, "2.14.3", NULL),
	V("NCCL_P2P_NVL_CHUNKSIZE", NV_INT, "524288", NULL, 0, -1, "2.16.2", NULL),
	V("NCCL_P2P_PCI_CHUNKSIZE", NV_INT, "131072", NULL, 0, -1, "2.16.2", NULL),
	V("NCCL_P2P_PER_CHANNEL_NET_BW", NV_INT, "14", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_P2P_PXN_LEVEL", NV_INT, "2", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_P2P_READ_ENABLE", NV_INT, "-2", NULL, 0, -1, NULL, NULL),
	V("NCCL_P2P_SCHEDULE_GROUP_SIZE", NV_INT, NULL, NULL, 0, -1, "2.28.7", NULL),
	V("NCCL_P2P_USE_CUDA_MEMCPY", NV_INT, "0", NULL, 0, -1, "2.13.4", NULL),
	V("NCCL_PARAM_DUMP_ALL", NV_STR, NULL, NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_PAT_ENABLE", NV_INT, "2", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_PROFILER_PLUGIN", NV_STR, NULL, NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_PROGRESS_APPENDOP_FREQ", NV_INT, "8", NULL, 0, -1, "2.16.5", NULL),
	V("NCCL_PROTO", NV_PROTO, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_PROXY_APPEND_BATCH_SIZE", NV_INT, "16", NULL, 0, -1, "2.16.2", NULL),
	V("NCCL_PROXY_CPUSET", NV_STR, NULL, NULL, 0, -1, "2.28.3", NULL),
	V("NCCL_PROXY_DUMP_SIGNAL", NV_INT, "-1", NULL, 0, -1, "2.14.3", NULL),
	V("NCCL_PROXY_PROFILE", NV_STR, NULL, NULL, 0, -1, "2.12.7", "2.23.4"),
	V("NCCL_PXN_C2C", NV_INT, "1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_PXN_DISABLE", NV_INT, "0", NULL, 0, 1, "2.12.7", NULL),
	V("NCCL_RAS_ADDR", NV_ADDR, NULL, NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_RAS_ENABLE", NV_INT, "1", NULL, 0, 1, "2.24.3", NULL),
	/*
	 * NCCL_PARAM (strtoll) until 2.30; from 2.31.2 src/ras/ras_param.cc reads it with strtod and
	 * takes the default 1 for anything but a whole finite number above 0 (NVIDIA/nccl 889806836)
	 */
	{ .name = "NCCL_RAS_TIMEOUT_FACTOR", .type = NV_FLOAT, .def = "1", .min = 0, .max = -1,
	  .since = "2.24.3", .typed_since = "2.31.2" },
	V("NCCL_REPORT_CONNECT_PROGRESS", NV_INT, "0", NULL, 0, -1, "2.19.4", NULL),
	V("NCCL_RMA_DISABLE", NV_INT, "0", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_RMA_PLUGIN", NV_STR, NULL, NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_RMA_PLUGIN_REF_COUNT", NV_INT, "0", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_RMA_PROXY_DUMP_SIGNAL", NV_INT, "-1", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_RMA_PROXY_QUEUE_SIZE", NV_INT, "-1", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_RUNTIME_CONNECT", NV_INT, "1", NULL, 0, 1, "2.22.3", NULL),
	V("NCCL_SET_CPU_STACK_SIZE", NV_INT, "1", NULL, 0, -1, "2.28.3", NULL),
	V("NCCL_SET_STACK_SIZE", NV_INT, "0", NULL, 0, -1, "2.9.6", NULL),
	V("NCCL_SET_THREAD_NAME", NV_INT, "0", NULL, 0, -1, "2.12.7", NULL),
	V("NCCL_SHADOW_MEMPOOL_MAX_SIZE", NV_INT, "1073741824", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_SHARED_BUFF_COUNT", NV_INT, "-2", NULL, 0, -1, "2.8.3", "2.9.6"),
	V("NCCL_SHM_DISABLE", NV_INT, "0", NULL, 0, 1, NULL, NULL),
	V("NCCL_SHM_LOCALITY", NV_INT, "2", NULL, 0, -1, "2.13.4", NULL),
	V("NCCL_SHM_MEMCPY_MODE", NV_INT, "1", NULL, 0, -1, "2.13.4", "2.30.7"),
	V("NCCL_SHM_USE_CUDA_MEMCPY", NV_INT, "0", NULL, 0, -1, "2.13.4", "2.30.7"),
	V("NCCL_SINGLE_PROC_MEM_REG_ENABLE", NV_INT, "0", NULL, 0, -1, "2.28.3", NULL),
	V("NCCL_SOCKET_FAMILY", NV_ENUM_CS, NULL, "AF_INET|AF_INET6", 0, -1, NULL, NULL),
	V("NCCL_SOCKET_IFNAME", NV_IFLIST, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_SOCKET_INLINE", NV_INT, "128", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_SOCKET_MAGIC", NV_STR, NULL, NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_SOCKET_MIN_TASKSIZE", NV_INT, "65536", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_SOCKET_NTHREADS", NV_INT, "-2", NULL, 1, 16, NULL, NULL),
	V("NCCL_SOCKET_POLL_TIMEOUT_MSEC", NV_INT, "0", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_SOCKET_RCVBUF", NV_INT, "-1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_SOCKET_RETRY_CNT", NV_INT, "34", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_SOCKET_RETRY_SLEEP_MSEC", NV_INT, "100", NULL, 0, -1, "2.24.3", NULL),
	V("NCCL_SOCKET_SNDBUF", NV_INT, "-1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_SYM_CE_THRESHOLD", NV_INT, "8388608", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_SYM_CTAS", NV_INT, "0", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_SYM_GIN_KERNELS_ENABLE", NV_INT, "1", NULL, 0, -1, "2.29.7", NULL),
	V("NCCL_SYM_KERNEL", NV_STR, NULL, NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_SYM_NOWIN_ENABLE", NV_INT, "0", NULL, 0, -1, "2.29.2", NULL),
	V("NCCL_SYM_REUSE_SYSMEM_HANDLES", NV_INT, "0", NULL, 0, -1, "2.30.4", NULL),
	V("NCCL_SYM_RS_GIN_CHUNK_SIZE", NV_INT, "-1", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_SYM_TMA_ENABLE", NV_INT, "0", NULL, 0, -1, "2.30.3", NULL),
	V("NCCL_THREAD_THRESHOLDS", NV_STR, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_TOPO_DUMP_FILE", NV_PATH, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_TOPO_DUMP_FILE_RANK", NV_INT, "0", NULL, 0, -1, NULL, NULL),
	V("NCCL_TOPO_FILE", NV_PATH, NULL, NULL, 0, -1, NULL, NULL),
	V("NCCL_TOPO_SPLIT_MLOPART", NV_INT, "1", NULL, 0, -1, "2.30.7", NULL),
	V("NCCL_TUNER_PLUGIN", NV_STR, NULL, NULL, 0, -1, "2.19.1", NULL),
	V("NCCL_UID_STAGGER_RATE", NV_INT, "7000", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_UID_STAGGER_THRESHOLD", NV_INT, "256", NULL, 0, -1, "2.23.4", NULL),
	V("NCCL_UNPACK_DOUBLE_NCHANNELS", NV_INT, "1", NULL, 0, -1, "2.22.3", NULL),
	V("NCCL_WARN_ENABLE_DEBUG_INFO", NV_STR, NULL, NULL, 0, -1, "2.19.4", NULL),
	V("NCCL_WIN_ENABLE", NV_INT, "1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_WIN_STRIDE", NV_INT, "-1", NULL, 0, -1, "2.27.3", NULL),
	V("NCCL_WORK_ARGS_BYTES", NV_INT, "9223372036854775807", NULL, 0, -1, "2.22.3", NULL),
	V("NCCL_WORK_FIFO_BYTES", NV_INT, NULL, NULL, 0, -1, "2.22.3", NULL),
	V("NCCL_WORK_FIFO_DEPTH", NV_INT, "65536", NULL, 0, -1, "2.13.4", "2.22.3"),
	/* read by NCCL versions older than any PyTorch 2.x ships (env.rst "deprecated" section) */
	VN("NCCL_SINGLE_RING_THRESHOLD", NV_INT, NULL, NULL, 0, -1, NULL, "2.3", N_("removed in NCCL 2.3")),
	VN("NCCL_LL_THRESHOLD", NV_INT, NULL, NULL, 0, -1, NULL, "2.5", N_("removed in NCCL 2.5; use NCCL_PROTO only for debugging")),
	VN("NCCL_TREE_THRESHOLD", NV_INT, NULL, NULL, 0, -1, NULL, "2.5", N_("removed in NCCL 2.5; use NCCL_ALGO only for debugging")),
	VN("NCCL_CHECKS_DISABLE", NV_INT, NULL, NULL, 0, -1, NULL, "2.2.12", N_("deprecated in NCCL 2.2.12")),
	VN("NCCL_IB_CUDA_SUPPORT", NV_INT, NULL, NULL, 0, -1, NULL, "2.4.0", N_("removed in NCCL 2.4.0; NCCL_NET_GDR_LEVEL replaces it")),
	VN("NCCL_IB_GDR_LEVEL", NV_LEVEL, NULL, NULL, 0, -1, NULL, "2.4.0", N_("renamed NCCL_NET_GDR_LEVEL in NCCL 2.4.0")),
	/* set by NVIDIA containers and build systems, read by nobody at run time */
	/*
	 * 2.31 and 2.32: no local source tag yet, so these rows come from the 2.31.2 library's
	 * strings (the ROCm RCCL "NCCL 2.31 to RCCL sync triage"), NVIDIA/nccl at v2.32.3
	 * (src/ras/progress_monitor.cc, docs/userguide troubleshooting/diagnostics.rst, ras.rst) and
	 * the v2.32.3-1 release notes; `since` is the first release that has them.
	 */
	V("NCCL_CE_COLL_AG_MULTICAST_THRESHOLD", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_CFT_ENABLE", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_DIAGNOSTICS_ECC_THRESHOLD", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_ENQUEUE_REARCH_ENABLE", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_GDRCOPY_USE_INTERNAL_DMABUF", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_GIN_IB_OOO_OPT", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_GIN_PROXY_NTHREADS", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_GIN_PROXY_POLL_BATCH", NV_INT, "32", NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_HIER_CE_COLL_NUM_CTX", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_IB_EVENT_BASED_LB", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_IB_EVENT_BASED_LB_REMOTE", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_IB_PKEY_VALUE", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_IB_WQE_LATENCY_REPORT", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_IB_WQE_LATENCY_THRESHOLD_NS", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_NUM_RMA_INT_CTX", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_P2P_PER_CHANNEL_REG_NET_BW", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_RMA_EAGER_INIT", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_RMA_MULTI_CTX_THRESHOLD", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_RUN_DIAGNOSTICS", NV_INT, "0", NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_RUN_RAS_DIAGNOSTICS", NV_INT, "0", NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_TOPO_SCATTER_START_NET", NV_INT, NULL, NULL, 0, -1, "2.31.2", NULL),
	V("NCCL_DEBUG_LEVELS", NV_STR, NULL, NULL, 0, -1, "2.32.3", NULL),
	V("NCCL_HIER_CE_COLL_AG_RAIL_RING_ENABLE", NV_INT, NULL, NULL, 0, -1, "2.32.3", NULL),
	V("NCCL_PROGRESS_COUNTERS", NV_INT, "0", NULL, 0, -1, "2.32.3", NULL),
	/* NCCL clamps values below 50 ms and 1000 ms up to those */
	V("NCCL_PROGRESS_COUNTER_MONITOR_POLL_MS", NV_INT, "1000", NULL, 0, -1, "2.32.3", NULL),
	V("NCCL_PROGRESS_COUNTER_MONITOR_STALE_MS", NV_INT, "5000", NULL, 0, -1, "2.32.3", NULL),
	V("NCCL_PROGRESS_COUNTER_MONITOR_STALE_WARN_SEC", NV_INT, "600", NULL, 0, -1, "2.32.3", NULL),
	V("NCCL_WIN_GIN_ONLY", NV_INT, NULL, NULL, 0, -1, "2.32.3", NULL),
	/* Meta's NCCLX (meta-pytorch/torchcomms comms/ncclx): names upstream NCCL never reads */
	OWNED("NCCL_SOCKET_IPADDR_PREFIX", NV_OWN_NCCLX, N_("NCCLX picks the interface by IP prefix")),
	OWNED("NCCL_CLIENT_SOCKET_IFNAME", NV_OWN_NCCLX,
	      N_("NCCLX binds outgoing sockets to this device (SO_BINDTODEVICE); upstream lets the "
		 "kernel's routing choose")),
	OWNED("NCCL_SOCKET_TOS_CONFIG", NV_OWN_NCCLX, N_("NCCLX sets the IP TOS of its sockets")),
	OWNED("NCCL_COLLTRACE", NV_OWN_NCCLX, N_("NCCLX's collective trace")),
	OWNED("NCCL_COMMSMONITOR_ENABLE", NV_OWN_NCCLX, N_("NCCLX's communicator monitor")),
	OWNED("NCCL_VERSION", NV_OWN_BUILD, N_("set by NVIDIA container images to describe their NCCL")),
	OWNED("NCCL_HOME", NV_OWN_BUILD, N_("a build-time hint for finding NCCL")),
	OWNED("NCCL_ROOT", NV_OWN_BUILD, N_("a build-time hint for finding NCCL")),
	OWNED("NCCL_ROOT_DIR", NV_OWN_BUILD, N_("a build-time hint for finding NCCL")),
	OWNED("NCCL_INCLUDE_DIR", NV_OWN_BUILD, N_("a build-time hint for finding NCCL")),
	OWNED("NCCL_LIB_DIR", NV_OWN_BUILD, N_("a build-time hint for finding NCCL")),
	OWNED("NCCL_LIBRARY", NV_OWN_BUILD, N_("a build-time hint for finding NCCL")),
};
const size_t nccl_vars_count = sizeof(nccl_vars) / sizeof(nccl_vars[0]);

const struct nccl_var *nccl_var_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < nccl_vars_count; i++)
		if (!strcmp(nccl_vars[i].name, name))
			return &nccl_vars[i];
	return NULL;
}

/* Plugins and tools that read their own NCCL_-prefixed variables. */
static const struct {
	const char *prefix, *owner;
} plugin_prefixes[] = {
	{ "NCCL_OFI_", "aws-ofi-nccl (the AWS EFA plugin)" },
	{ "NCCL_GPUDIRECTTCPX_", "Google's GPUDirect-TCPX plugin" },
	{ "NCCL_FASTRAK_", "Google's GPUDirect-TCPXO plugin" },
	{ "NCCL_SHIMNET_", "Google's TCPXO guest config checker" },
	{ "NCCL_SHARP_", "the SHARP plugin (nccl-rdma-sharp-plugins)" },
	{ "NCCL_TESTS_", "nccl-tests" },
	{ "NCCL_TUNER_CONFIG", "NCCL's example tuner plugin" },
};

const char *nccl_var_plugin(const char *name)
{
	for (size_t i = 0; i < sizeof(plugin_prefixes) / sizeof(plugin_prefixes[0]); i++)
		if (!strncmp(name, plugin_prefixes[i].prefix, strlen(plugin_prefixes[i].prefix)))
			return plugin_prefixes[i].owner;
	return NULL;
}

long long nccl_parse_int(const char *s, enum nv_parse *how)
{
	const char *p = s;
	char *end;
	long long v;

	*how = NV_PARSE_OK;
	if (!s || !*s) {
		*how = NV_PARSE_EMPTY;
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno == ERANGE) {
		*how = NV_PARSE_RANGE;
		return 0;
	}
	if (end == s) {
		*how = NV_PARSE_JUNK;
		return 0;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\v' || *p == '\f' || *p == '\r')
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		*how = NV_PARSE_HEX;
	else if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
		*how = NV_PARSE_OCTAL;
	else if (*end)
		*how = NV_PARSE_TRAILING;
	return v;
}

/* The order NCCL reads config files in: lower numbers win (setenv without overwrite). */
enum conf_rank { CONF_USER = 1, CONF_HOME = 2, CONF_SYSTEM = 3, CONF_SKIPPED = 99 };

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * probe/nccl_libs.c lists the files with "source" naming which rule found them; older facts may
 * only have a path.
 */
static int conf_rank(const json_t *conf, const json_t *confs, const char *conf_file_env,
		     const char *version)
{
	const char *path = jpath_str(conf, "path"), *src = jpath_str(conf, "source");
	int v223 = !version || version_cmp_str(version, "2.23") >= 0;
	int v230 = !version || version_cmp_str(version, "2.30") >= 0;
	int have_cf = conf_file_env && *conf_file_env;
	const json_t *other;
	size_t i;

	if (!path)
		return CONF_SKIPPED;
	if (!src) {
		if (have_cf && !strcmp(path, conf_file_env))
			src = "NCCL_CONF_FILE";
		else if (ends_with(path, "/.nccl.conf"))
			src = "~/.nccl.conf";
		else
			src = "/etc/nccl.conf";
	}
	if (!strcmp(src, "NCCL_CONF_FILE"))
		return v223 ? CONF_USER : CONF_SKIPPED;
	if (!strcmp(src, "/etc/nccl.conf"))
		return CONF_SYSTEM;
	/* the home file: replaced by NCCL_CONF_FILE from 2.23; found through $HOME from 2.30 */
	if (v223 && have_cf)
		return CONF_SKIPPED;
	if (!strcmp(src, "$HOME/.nccl.conf"))
		return v230 ? CONF_HOME : CONF_SKIPPED;
	if (v230)
		json_array_foreach(confs, i, other)
			if (jpath_str(other, "source") && !strcmp(jpath_str(other, "source"), "$HOME/.nccl.conf"))
				return CONF_SKIPPED;
	return CONF_HOME;
}

static void settings_add(struct nccl_settings *s, const char *name, const char *value,
			 const char *source, int from_file, int line)
{
	int effective = !nccl_settings_get(s, name);

	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n].name = name;
	s->v[s->n].value = value;
	s->v[s->n].source = source;
	s->v[s->n].from_file = from_file;
	s->v[s->n].line = line;
	s->v[s->n].effective = effective;
	s->n++;
}

void nccl_settings_collect(const json_t *facts, const char *version, struct nccl_settings *out)
{
	const json_t *env = jpath(facts, "env"), *confs = jpath(facts, "nccl.conf"), *conf, *v;
	const char *conf_file_env = jpath_str(env, "NCCL_CONF_FILE");
	const char *key;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (json_is_object(env))
		json_object_foreach((json_t *)env, key, v)
			if (!strncmp(key, "NCCL_", 5) && json_is_string(v))
				settings_add(out, key, json_string_value(v), N_("environment"), 0, 0);
	if (!json_is_array(confs))
		return;
	for (int rank = CONF_USER; rank <= CONF_SYSTEM; rank++) {
		json_array_foreach(confs, i, conf) {
			const json_t *vars = json_object_get(conf, "vars");
			const char *path = jpath_str(conf, "path");

			if (conf_rank(conf, confs, conf_file_env, version) != rank ||
			    !json_is_object(vars))
				continue;
			json_object_foreach((json_t *)vars, key, v)
				if (json_is_string(v))
					settings_add(out, key, json_string_value(v), path, 1,
						     (int)jpath_int(json_object_get(conf, "lines"), key, 0));
		}
	}
	json_array_foreach(confs, i, conf)
		if (conf_rank(conf, confs, conf_file_env, version) == CONF_SKIPPED &&
		    json_is_object(json_object_get(conf, "vars")) && !out->skipped_conf)
			out->skipped_conf = jpath_str(conf, "path");
}

void nccl_settings_release(struct nccl_settings *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

const struct nccl_setting *nccl_settings_get(const struct nccl_settings *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].effective && !strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}
