/*
 * Text the GPU probes parse comes from files and programs we do not control: the kernel module's
 * /proc/driver/nvidia/version, `nvcc --version`, a toolkit's version.json / version.txt /
 * include/cuda.h, cuDNN headers, library file names and NVML's bus ids. Every parser gets every
 * input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/gpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, a[64], b[64];
	int x, y, z, open;

	if (size > 1 << 20)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	nvidia_proc_version_parse(s, a, sizeof(a), &open);
	nvidia_proc_version_parse(s, a, 3, &open);
	nvcc_version_parse(s, a, sizeof(a), b, sizeof(b));
	nvcc_version_parse(s, a, 2, b, 0);
	cuda_version_json_parse((const char *)data, size, a, sizeof(a));
	cuda_version_txt_parse(s, a, sizeof(a));
	cuda_header_version_parse(s, &x);
	if (cudnn_header_parse(s, &x, &y, &z) == 0)
		cudnn_version_encode(x, y, z);
	soname_version(s, "libcudnn.so.", 1, a, sizeof(a));
	soname_version(s, "libnvidia-ml.so.", 2, a, 4);
	pci_busid_normalize(s, a, sizeof(a));
	pci_busid_normalize(s, a, 5);
	if (size >= sizeof(long)) {
		long code;
		memcpy(&code, data, sizeof(code));
		cudnn_version_decode(code, &x, &y, &z);
		nvml_error_name((int)code);
		cuda_error_name((int)code);
	}
	free(s);
	return 0;
}
