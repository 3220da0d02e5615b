/*
 * The slice of NVML's C API that ncclcheck calls, declared from NVIDIA's public NVML API
 * reference (docs.nvidia.com/deploy/nvml-api): return codes, the handful of structs we read, and
 * the function pointer types we dlsym(). Written by hand, never copied from nvml.h, so the build
 * needs no NVIDIA headers and the binary never links libnvidia-ml.
 */
#ifndef NCCLCHECK_NVML_ABI_H
#define NCCLCHECK_NVML_ABI_H

/* nvmlReturn_t: an int enum; the documented values we tell apart. */
typedef int nvmlReturn_t;
enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_UNINITIALIZED = 1,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_ALREADY_INITIALIZED = 5,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
	NVML_ERROR_INSUFFICIENT_POWER = 8,
	NVML_ERROR_DRIVER_NOT_LOADED = 9,
	NVML_ERROR_TIMEOUT = 10,
	NVML_ERROR_IRQ_ISSUE = 11,
	NVML_ERROR_LIBRARY_NOT_FOUND = 12,
	NVML_ERROR_FUNCTION_NOT_FOUND = 13,
	NVML_ERROR_CORRUPTED_INFOROM = 14,
	NVML_ERROR_GPU_IS_LOST = 15,
	NVML_ERROR_RESET_REQUIRED = 16,
	NVML_ERROR_OPERATING_SYSTEM = 17,
	NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
	NVML_ERROR_IN_USE = 19,
	NVML_ERROR_MEMORY = 20,
	NVML_ERROR_NO_DATA = 21,
	NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
	NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
	NVML_ERROR_NOT_READY = 27,
	NVML_ERROR_GPU_NOT_FOUND = 28,
	NVML_ERROR_UNKNOWN = 999,
};

/* Buffer sizes the reference gives for string queries. */
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE 80
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16
/* Newer drivers have up to 18 (Hopper) or more links; asking past the last one just fails. */
#define NVML_NVLINK_MAX_LINKS 36

typedef struct nvmlDevice_st *nvmlDevice_t;

/* nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3 / nvmlDeviceGetNvLinkRemotePciInfo_v2. */
typedef struct {
	char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;
	unsigned int pciSubSystemId;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfo_t;

typedef struct {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
} nvmlMemory_t;

/* nvmlGpuTopologyLevel_t: how far apart two GPUs sit in the PCI tree. */
enum {
	NVML_TOPOLOGY_INTERNAL = 0,
	NVML_TOPOLOGY_SINGLE = 10,
	NVML_TOPOLOGY_MULTIPLE = 20,
	NVML_TOPOLOGY_HOSTBRIDGE = 30,
	NVML_TOPOLOGY_NODE = 40,
	NVML_TOPOLOGY_SYSTEM = 50,
};

/* nvmlEnableState_t */
enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };

/* nvmlIntNvLinkDeviceType_t: what sits at the far end of an NVLink. */
enum {
	NVML_NVLINK_DEVICE_TYPE_GPU = 0,
	NVML_NVLINK_DEVICE_TYPE_IBMNPU = 1,
	NVML_NVLINK_DEVICE_TYPE_SWITCH = 2,
	NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xFF,
};

typedef nvmlReturn_t (*nvml_init_fn)(void);
typedef nvmlReturn_t (*nvml_shutdown_fn)(void);
typedef const char *(*nvml_error_string_fn)(nvmlReturn_t);
typedef nvmlReturn_t (*nvml_get_string_fn)(char *buf, unsigned int len);
typedef nvmlReturn_t (*nvml_get_int_fn)(int *v);
typedef nvmlReturn_t (*nvml_count_fn)(unsigned int *n);
typedef nvmlReturn_t (*nvml_handle_by_index_fn)(unsigned int i, nvmlDevice_t *d);
typedef nvmlReturn_t (*nvml_dev_string_fn)(nvmlDevice_t d, char *buf, unsigned int len);
typedef nvmlReturn_t (*nvml_dev_pci_fn)(nvmlDevice_t d, nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*nvml_dev_memory_fn)(nvmlDevice_t d, nvmlMemory_t *m);
typedef nvmlReturn_t (*nvml_dev_cc_fn)(nvmlDevice_t d, int *major, int *minor);
typedef nvmlReturn_t (*nvml_dev_uint_fn)(nvmlDevice_t d, unsigned int *v);
typedef nvmlReturn_t (*nvml_dev_topo_fn)(nvmlDevice_t a, nvmlDevice_t b, int *level);
typedef nvmlReturn_t (*nvml_link_state_fn)(nvmlDevice_t d, unsigned int link, int *state);
typedef nvmlReturn_t (*nvml_link_pci_fn)(nvmlDevice_t d, unsigned int link, nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*nvml_link_type_fn)(nvmlDevice_t d, unsigned int link, int *type);

#endif
