/*
 * A stand-in libcudnn.so.N: what the cuDNN probe asks a library that carries no version in its
 * file name (pip wheels ship only "libcudnn.so.9"). Built once per encoding era: FAKE_CUDNN_CODE
 * is the cudnnGetVersion() answer (8907 = 8.9.7 in cuDNN 8's encoding, 91002 = 9.10.2 in cuDNN
 * 9's), FAKE_CUDNN_CUDART the CUDA runtime it claims to be built for.
 */
#include <stddef.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT size_t cudnnGetVersion(void)
{
	return FAKE_CUDNN_CODE;
}

EXPORT size_t cudnnGetCudartVersion(void)
{
	return FAKE_CUDNN_CUDART;
}
