/*
 * A stand-in libibverbs.so.1 for CI, which has no RDMA hardware. It exports the IBVERBS_1.1
 * symbols NCCL (and ncclcheck's RDMA probe) bind to with dlvsym. FAKE_IBV_SCENARIO picks the
 * behaviour: "two" (default: mlx5_0 and mlx5_1), "none" (loads, lists nothing: the missing
 * provider case), "crash", "hang". Built twice: with the version script (fake_ibverbs.map) and,
 * as FAKE_IBV_UNVERSIONED, without it (a library that is not rdma-core's).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

struct ibv_device {
	char name[64];
};

static struct ibv_device devs[2] = { { "mlx5_0" }, { "mlx5_1" } };

static const char *scenario(void)
{
	const char *s = getenv("FAKE_IBV_SCENARIO");
	return s && *s ? s : "two";
}

EXPORT struct ibv_device **ibv_get_device_list(int *num)
{
	const char *s = scenario();
	struct ibv_device **list = calloc(3, sizeof(*list));

	if (!strcmp(s, "crash"))
		raise(SIGSEGV);
	if (!strcmp(s, "hang"))
		for (;;)
			pause();
	*num = 0;
	if (!list)
		return NULL;
	if (strcmp(s, "none")) {
		list[0] = &devs[0];
		list[1] = &devs[1];
		*num = 2;
	}
	return list;
}

EXPORT void ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

EXPORT const char *ibv_get_device_name(struct ibv_device *dev)
{
	return dev ? dev->name : NULL;
}
