/*
 * The slice of NCCL's and the CUDA driver's C ABI that bench calls, declared from their public
 * documentation (never copied from nccl.h / cuda.h): the binary links neither and builds without
 * a toolkit. ncclConfig_t is declared up to the 2.28 fields; NCCL reads `size` and `version` to
 * know how much of it the caller filled, so older libraries get the 2.14 prefix.
 */
#ifndef NCCLCHECK_COLL_NCCL_ABI_H
#define NCCLCHECK_COLL_NCCL_ABI_H

#include <limits.h>
#include <stddef.h>

typedef int nccl_result_t; /* ncclResult_t */
enum {
	NCCL_SUCCESS = 0,
	NCCL_UNHANDLED_CUDA_ERROR = 1,
	NCCL_SYSTEM_ERROR = 2,
	NCCL_INTERNAL_ERROR = 3,
	NCCL_INVALID_ARGUMENT = 4,
	NCCL_INVALID_USAGE = 5,
	NCCL_REMOTE_ERROR = 6,
	NCCL_IN_PROGRESS = 7,
};

typedef struct nccl_comm *nccl_comm_t;
typedef struct {
	char internal[128];
} nccl_unique_id_t;

#define NCCL_CONFIG_MAGIC 0xcafebeefu
#define NCCL_CONFIG_UNDEF INT_MIN
typedef struct {
	size_t size;
	unsigned int magic;
	unsigned int version;
	int blocking;
	int cga_cluster_size;
	int min_ctas;
	int max_ctas;
	const char *net_name;
	int split_share;
	/* 2.17 .. 2.28 */
	int traffic_class;
	const char *comm_name;
	int collnet_enable;
	int cta_policy;
	int shrink_share;
	int nvls_ctas;
	int nchannels_per_net_peer;
	int nvlink_centric_sched;
} nccl_config_t;

/* The 2.14 part alone, for libraries older than 2.28. */
#define NCCL_CONFIG_SIZE_2_14 (offsetof(nccl_config_t, split_share) + sizeof(int))

typedef nccl_result_t (*nccl_get_version_fn)(int *);
typedef nccl_result_t (*nccl_get_unique_id_fn)(nccl_unique_id_t *);
typedef nccl_result_t (*nccl_comm_init_rank_config_fn)(nccl_comm_t *, int, nccl_unique_id_t, int,
                                                       nccl_config_t *);
typedef nccl_result_t (*nccl_comm_fn)(nccl_comm_t);
typedef nccl_result_t (*nccl_comm_get_async_error_fn)(nccl_comm_t, nccl_result_t *);
typedef const char *(*nccl_get_error_string_fn)(nccl_result_t);
typedef const char *(*nccl_get_last_error_fn)(nccl_comm_t);
typedef nccl_result_t (*nccl_group_fn)(void);
typedef nccl_result_t (*nccl_all_reduce_fn)(const void *, void *, size_t, int, int, nccl_comm_t,
                                            void *);
typedef nccl_result_t (*nccl_all_gather_fn)(const void *, void *, size_t, int, nccl_comm_t, void *);
typedef nccl_result_t (*nccl_reduce_scatter_fn)(const void *, void *, size_t, int, int, nccl_comm_t,
                                                void *);
typedef nccl_result_t (*nccl_broadcast_fn)(const void *, void *, size_t, int, int, nccl_comm_t,
                                           void *);
typedef nccl_result_t (*nccl_send_fn)(const void *, size_t, int, int, nccl_comm_t, void *);
typedef nccl_result_t (*nccl_recv_fn)(void *, size_t, int, int, nccl_comm_t, void *);

/* CUDA driver API */
typedef int cu_result_t;
typedef int cu_device_t;
typedef struct cu_ctx *cu_context_t;
typedef struct cu_stream *cu_stream_t;
typedef unsigned long long cu_deviceptr_t;
enum {
	CU_SUCCESS = 0,
	CU_ERROR_NOT_READY = 600,
	CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
	CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
	CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
	CU_STREAM_NON_BLOCKING = 1,
};
typedef cu_result_t (*cu_init_fn)(unsigned);
typedef cu_result_t (*cu_device_get_count_fn)(int *);
typedef cu_result_t (*cu_device_get_fn)(cu_device_t *, int);
typedef cu_result_t (*cu_device_get_name_fn)(char *, int, cu_device_t);
typedef cu_result_t (*cu_device_get_attribute_fn)(int *, int, cu_device_t);
typedef cu_result_t (*cu_primary_ctx_retain_fn)(cu_context_t *, cu_device_t);
typedef cu_result_t (*cu_ctx_set_current_fn)(cu_context_t);
typedef cu_result_t (*cu_mem_alloc_fn)(cu_deviceptr_t *, size_t);
typedef cu_result_t (*cu_mem_free_fn)(cu_deviceptr_t);
typedef cu_result_t (*cu_memcpy_htod_fn)(cu_deviceptr_t, const void *, size_t);
typedef cu_result_t (*cu_memcpy_dtoh_fn)(void *, cu_deviceptr_t, size_t);
typedef cu_result_t (*cu_stream_create_fn)(cu_stream_t *, unsigned);
typedef cu_result_t (*cu_stream_fn)(cu_stream_t);
typedef cu_result_t (*cu_get_error_string_fn)(cu_result_t, const char **);

#endif
