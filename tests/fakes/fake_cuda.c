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
