/*
 * A stand-in libnvidia-ml.so.1 for machines without an NVIDIA driver: the probe loads it through
 * its real dlopen path (NCCLCHECK_NVML_LIB) and gets canned machines and canned failures, picked
 * by FAKE_NVML_SCENARIO when nvmlInit runs:
 *
 *   h200x2 (default)  2x H200 on two sockets, driver 580.95.05, CUDA 13.0, 18 NVLinks each to NVSwitch
 *   a100_bridge       2x A100 PCIe joined by 12 direct NVLinks, driver 535.183.01, CUDA 12.2
 *   old_driver        1x V100, driver 470.82.01, CUDA 11.4
 *   zero_gpus         driver loaded, no GPU visible
 *   device_errors     2x H200, the second one lost (NVML_ERROR_GPU_IS_LOST)
 *   none              nvmlInit: NVML_ERROR_DRIVER_NOT_LOADED
 *   no_permission     nvmlInit: NVML_ERROR_NO_PERMISSION
 *   rm_mismatch       nvmlInit: NVML_ERROR_LIB_RM_VERSION_MISMATCH
 *   hang              nvmlInit never returns
 *   crash             nvmlInit dies of SIGSEGV
 *
 * Built twice: the legacy variant (-DFAKE_NVML_LEGACY) exports only the old, unversioned entry
 * points, as drivers before the _v2/_v3 calls did, so the probe's fallbacks are exercised.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/nvml_abi.h"

#define EXPORT __attribute__((visibility("default")))

struct fake_gpu {
	const char *name, *uuid, *bus;
	unsigned long long mem_mib;
	int cc_major, cc_minor;
	unsigned numa;
	int links;		/* NVLinks up */
	int link_type;		/* what they reach: NVML_NVLINK_DEVICE_TYPE_* */
	int lost;		/* every query fails with GPU_IS_LOST */
	int gap;		/* a link index that is down in the middle of the up ones, or 0 */
};

struct fake_machine {
	const char *scenario;
	nvmlReturn_t init_rc;
	const char *driver;
	int cuda;
	int ngpus;
	int topo_level;
	struct fake_gpu gpu[2];
};

static const struct fake_machine machines[] = {
	{ "h200x2", NVML_SUCCESS, "580.95.05", 13000, 2, NVML_TOPOLOGY_SYSTEM, {
		{ "NVIDIA H200", "GPU-0f6c3b2a-1111-4c2e-9d7a-000000000000", "00000000:18:00.0", 143771, 9, 0, 0, 18, NVML_NVLINK_DEVICE_TYPE_SWITCH, 0, 0 },
		{ "NVIDIA H200", "GPU-0f6c3b2a-2222-4c2e-9d7a-000000000001", "00000000:9A:00.0", 143771, 9, 0, 1, 18, NVML_NVLINK_DEVICE_TYPE_SWITCH, 0, 0 } } },
	{ "a100_bridge", NVML_SUCCESS, "535.183.01", 12020, 2, NVML_TOPOLOGY_HOSTBRIDGE, {
		{ "NVIDIA A100 80GB PCIe", "GPU-a100-0000", "00000000:3B:00.0", 81920, 8, 0, 0, 12, NVML_NVLINK_DEVICE_TYPE_GPU, 0, 6 },
		{ "NVIDIA A100 80GB PCIe", "GPU-a100-0001", "00000000:5E:00.0", 81920, 8, 0, 0, 12, NVML_NVLINK_DEVICE_TYPE_GPU, 0, 6 } } },
	{ "old_driver", NVML_SUCCESS, "470.82.01", 11040, 1, 0, {
		{ "Tesla V100-SXM2-32GB", "GPU-v100-0000", "00000000:00:1E.0", 32510, 7, 0, 0, 0, 0, 0, 0 } } },
	{ "zero_gpus", NVML_SUCCESS, "580.95.05", 13000, 0, 0, { { 0 } } },
	{ "device_errors", NVML_SUCCESS, "580.95.05", 13000, 2, NVML_TOPOLOGY_SYSTEM, {
		{ "NVIDIA H200", "GPU-h200-0000", "00000000:18:00.0", 143771, 9, 0, 0, 0, 0, 0, 0 },
		{ "NVIDIA H200", "GPU-h200-0001", "00000000:9A:00.0", 143771, 9, 0, 1, 0, 0, 1, 0 } } },
	{ "none", NVML_ERROR_DRIVER_NOT_LOADED, NULL, 0, 0, 0, { { 0 } } },
	{ "no_permission", NVML_ERROR_NO_PERMISSION, NULL, 0, 0, 0, { { 0 } } },
	{ "rm_mismatch", NVML_ERROR_LIB_RM_VERSION_MISMATCH, NULL, 0, 0, 0, { { 0 } } },
};

static const struct fake_machine *m;	/* set by nvmlInit */

struct fake_dev {
	int index;
};
static struct fake_dev devs[2] = { { 0 }, { 1 } };

static const struct fake_gpu *gpu_of(nvmlDevice_t d)
{
	const struct fake_dev *fd = (const struct fake_dev *)d;

	if (!m || !fd || fd->index < 0 || fd->index >= m->ngpus)
		return NULL;
	return &m->gpu[fd->index];
}

#define GPU_OR_FAIL(g, d)                                    \
	const struct fake_gpu *g = gpu_of(d);                \
	if (!g)                                              \
		return NVML_ERROR_INVALID_ARGUMENT;          \
	if (g->lost)                                         \
		return NVML_ERROR_GPU_IS_LOST

static nvmlReturn_t fake_init(void)
{
	const char *s = getenv("FAKE_NVML_SCENARIO");

	if (!s || !*s)
		s = "h200x2";
	if (!strcmp(s, "hang"))
		for (;;)
			pause();
	if (!strcmp(s, "crash"))
		raise(SIGSEGV);
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(machines[i].scenario, s)) {
			if (machines[i].init_rc != NVML_SUCCESS)
				return machines[i].init_rc;
			m = &machines[i];
			return NVML_SUCCESS;
		}
	return NVML_ERROR_UNKNOWN;
}

EXPORT const char *nvmlErrorString(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
	case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
	case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "Driver/library version mismatch";
	case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	default: return "Unknown Error";
	}
}

EXPORT nvmlReturn_t nvmlShutdown(void)
{
	m = NULL;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
	if (!m)
		return NVML_ERROR_UNINITIALIZED;
	if (strlen(m->driver) + 1 > len)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	snprintf(buf, len, "%s", m->driver);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *buf, unsigned len)
{
	if (!m)
		return NVML_ERROR_UNINITIALIZED;
	snprintf(buf, len, "%d.%s", m->cuda / 1000, m->driver);
	return NVML_SUCCESS;
}

static nvmlReturn_t cuda_version(int *v)
{
	if (!m)
		return NVML_ERROR_UNINITIALIZED;
	*v = m->cuda;
	return NVML_SUCCESS;
}

static nvmlReturn_t count(unsigned *n)
{
	if (!m)
		return NVML_ERROR_UNINITIALIZED;
	*n = (unsigned)m->ngpus;
	return NVML_SUCCESS;
}

static nvmlReturn_t by_index(unsigned i, nvmlDevice_t *d)
{
	if (!m)
		return NVML_ERROR_UNINITIALIZED;
	if (i >= (unsigned)m->ngpus)
		return NVML_ERROR_INVALID_ARGUMENT;
	*d = (nvmlDevice_t)&devs[i];
	return NVML_SUCCESS;
}

static nvmlReturn_t pci_info(nvmlDevice_t d, nvmlPciInfo_t *p)
{
	GPU_OR_FAIL(g, d);
	memset(p, 0, sizeof(*p));
	snprintf(p->busId, sizeof(p->busId), "%s", g->bus);
	snprintf(p->busIdLegacy, sizeof(p->busIdLegacy), "%s", g->bus + 4);
	p->pciDeviceId = 0x233510de;
	return NVML_SUCCESS;
}

static int link_up(const struct fake_gpu *g, unsigned link)
{
	unsigned last = (unsigned)g->links + (g->gap ? 1 : 0);
	return link < last && (!g->gap || link != (unsigned)g->gap);
}

/* NVLink far ends: the NVSwitch trays (four of them) or the other GPU of an NVLink bridge. */
static void remote_bus(const struct fake_gpu *g, unsigned link, char *buf, size_t len)
{
	if (g->link_type == NVML_NVLINK_DEVICE_TYPE_SWITCH)
		snprintf(buf, len, "00000000:%02X:00.0", 0x05 + link % 4);
	else
		snprintf(buf, len, "%s", g == &m->gpu[0] ? m->gpu[1].bus : m->gpu[0].bus);
}

#ifdef FAKE_NVML_LEGACY
EXPORT nvmlReturn_t nvmlInit(void) { return fake_init(); }
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v) { return cuda_version(v); }
EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned *n) { return count(n); }
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned i, nvmlDevice_t *d) { return by_index(i, d); }
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t d, nvmlPciInfo_t *p) { return pci_info(d, p); }
#else
EXPORT nvmlReturn_t nvmlInit_v2(void) { return fake_init(); }
/* Present in real libraries too; the probe must prefer _v2. Answers wrongly to prove it does. */
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v) { *v = 9000; return NVML_SUCCESS; }
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v) { return cuda_version(v); }
EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *n) { return count(n); }
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d) { return by_index(i, d); }
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p) { return pci_info(d, p); }

EXPORT nvmlReturn_t nvmlDeviceGetNumaNodeId(nvmlDevice_t d, unsigned *n)
{
	GPU_OR_FAIL(g, d);
	*n = g->numa;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t d, unsigned link, int *type)
{
	GPU_OR_FAIL(g, d);
	if (!link_up(g, link))
		return NVML_ERROR_INVALID_ARGUMENT;
	*type = g->link_type;
	return NVML_SUCCESS;
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned len)
{
	GPU_OR_FAIL(g, d);
	snprintf(buf, len, "%s", g->name);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *buf, unsigned len)
{
	GPU_OR_FAIL(g, d);
	snprintf(buf, len, "%s", g->uuid);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *mem)
{
	GPU_OR_FAIL(g, d);
	mem->total = g->mem_mib << 20;
	mem->used = 1ULL << 20;
	mem->free = mem->total - mem->used;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
	GPU_OR_FAIL(g, d);
	*major = g->cc_major;
	*minor = g->cc_minor;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned link, int *state)
{
	GPU_OR_FAIL(g, d);
	if (!g->links)
		return NVML_ERROR_NOT_SUPPORTED;
	/* real drivers reject links past the last; a gap (one link down) must not stop the scan */
	if (link >= 18)
		return NVML_ERROR_INVALID_ARGUMENT;
	*state = link_up(g, link) ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t d, unsigned link, nvmlPciInfo_t *p)
{
	GPU_OR_FAIL(g, d);
	if (!link_up(g, link))
		return NVML_ERROR_INVALID_ARGUMENT;
	memset(p, 0, sizeof(*p));
	remote_bus(g, link, p->busId, sizeof(p->busId));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t a, nvmlDevice_t b, int *level)
{
	GPU_OR_FAIL(ga, a);
	GPU_OR_FAIL(gb, b);
	(void)ga;
	(void)gb;
	*level = m->topo_level;
	return NVML_SUCCESS;
}
