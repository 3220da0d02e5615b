/*
 * A stand-in for a torch wheel's lib/libtorch_cuda.so, for the static torch probe: it needs
 * libnccl.so.2 through RUNPATH $ORIGIN/../../nvidia/nccl/lib like the real wheel, or (FAKE_TORCH_STATIC)
 * carries NCCL inside it (exports ncclGetVersion) like a build with NCCL linked in.
 */
#ifdef FAKE_TORCH_STATIC
#define EXPORT __attribute__((visibility("default")))
EXPORT int ncclGetVersion(int *v)
{
	*v = 22703;
	return 0;
}
#else
int ncclGetVersion(int *v);
#endif

__attribute__((visibility("default"))) int fake_torch_cuda_nccl(void)
{
	int v = 0;

	return ncclGetVersion(&v) ? -1 : v;
}
