/*
 * The slice of the CUDA driver API (libcuda.so.1) that ncclcheck calls, declared from NVIDIA's
 * public CUDA Driver API reference, never copied from cuda.h: the binary never links libcuda and
 * builds without a toolkit.
 */
#ifndef NCCLCHECK_CUDA_ABI_H
#define NCCLCHECK_CUDA_ABI_H

typedef int CUresult;
typedef int CUdevice;

/* CUresult values the probe explains in words. */
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
	CUDA_ERROR_SYSTEM_NOT_READY = 802,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUDA_ERROR_UNKNOWN = 999,
};

typedef CUresult (*cu_driver_get_version_fn)(int *version);
typedef CUresult (*cu_init_fn)(unsigned int flags);
typedef CUresult (*cu_device_get_count_fn)(int *count);
typedef CUresult (*cu_get_error_name_fn)(CUresult err, const char **name);

#endif
