#define _GNU_SOURCE
/*
 * A stand-in libcuda.so.1 for machines without an NVIDIA driver, loaded by the probe's real
 * dlopen path (NCCLCHECK_CUDA_LIB). FAKE_CUDA_VERSION (default 13000) is what cuDriverGetVersion
 * answers, FAKE_CUDA_DEVICES (default 2) what cuDeviceGetCount answers, and FAKE_CUDA_SCENARIO
 * picks a failure:
 *
 *   ok (default)  everything answers
 *   stub          the toolkit's link-time stub: every call fails with CUDA_ERROR_STUB_LIBRARY
 *   no_uvm        cuInit fails with CUDA_ERROR_UNKNOWN (nvidia_uvm not loaded)
 *   no_device     cuInit fails with CUDA_ERROR_NO_DEVICE
 */
#include <stdlib.h>
#include <string.h>

#include "probe/cuda_abi.h"

#define EXPORT __attribute__((visibility("default")))

static int scenario_is(const char *name)
{
	const char *s = getenv("FAKE_CUDA_SCENARIO");
	return s && !strcmp(s, name);
}

static int env_int(const char *name, int def)
{
	const char *s = getenv(name);
	return s && *s ? atoi(s) : def;
}

EXPORT CUresult cuDriverGetVersion(int *v)
{
	if (scenario_is("stub"))
		return CUDA_ERROR_STUB_LIBRARY;
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	*v = env_int("FAKE_CUDA_VERSION", 13000);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuInit(unsigned flags)
{
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (scenario_is("stub"))
		return CUDA_ERROR_STUB_LIBRARY;
	if (scenario_is("no_uvm"))
		return CUDA_ERROR_UNKNOWN;
	if (scenario_is("no_device"))
		return CUDA_ERROR_NO_DEVICE;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *n)
{
	if (scenario_is("stub"))
		return CUDA_ERROR_STUB_LIBRARY;
	*n = env_int("FAKE_CUDA_DEVICES", 2);
	return CUDA_SUCCESS;
}

/*
 * The slice bench --backend nccl uses: "device memory" is host memory, streams complete at
 * once, so the fake NCCL (fake_nccl.c, FAKE_NCCL_COLL) can work on the pointers directly.
 */
#include <stdint.h>
#include <stdio.h>

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	if (ordinal < 0 || ordinal >= env_int("FAKE_CUDA_DEVICES", 2))
		return CUDA_ERROR_INVALID_DEVICE;
	*d = ordinal;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	snprintf(name, (size_t)len, "Fake GPU %d", d);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
	*v = attr == 33 ? 0x18 + d : 0; /* PCI bus id; domain and device 0 */
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d)
{
	*ctx = (void *)(uintptr_t)(d + 1);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(void *ctx)
{
	(void)ctx;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemAlloc_v2(unsigned long long *p, size_t n)
{
	void *m = calloc(1, n ? n : 1);
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*p = (unsigned long long)(uintptr_t)m;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemFree_v2(unsigned long long p)
{
	free((void *)(uintptr_t)p);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n)
{
	memcpy((void *)(uintptr_t)dst, src, n);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t n)
{
	memcpy(dst, (const void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamCreate(void **s, unsigned flags)
{
	(void)flags;
	*s = (void *)(uintptr_t)0x5;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamSynchronize(void *s)
{
	(void)s;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamQuery(void *s)
{
	(void)s;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuGetErrorString(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_NO_DEVICE ? "no CUDA-capable device is detected" : "fake CUDA error";
	return CUDA_SUCCESS;
}
