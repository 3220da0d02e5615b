/*
 * Internals shared by the GPU-side probes (nvml.c, cuda.c, cudnn.c, topo.c): the parsers of what
 * drivers, toolkits and headers print, exposed so unit tests and fuzz harnesses reach them
 * directly. None of these functions does I/O.
 */
#ifndef NCCLCHECK_PROBE_GPU_H
#define NCCLCHECK_PROBE_GPU_H

#include <stddef.h>

#include <jansson.h>

/*
 * The first line of /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX x86_64 Kernel Module
 * 580.95.05  Tue ..." or "... Open Kernel Module for x86_64  580.95.05  Release Build ...").
 * Writes the driver version into `ver` and sets *open_module to 1 for the open kernel modules.
 * Returns 0, or -1 when `text` holds no NVRM line with a version.
 */
int nvidia_proc_version_parse(const char *text, char *ver, size_t len, int *open_module);

/*
 * `nvcc --version` output: "Cuda compilation tools, release 13.0, V13.0.88". Writes "13.0" into
 * `release` and "13.0.88" into `build` (empty when absent). Returns 0, or -1 when no release.
 */
int nvcc_version_parse(const char *text, char *release, size_t rlen, char *build, size_t blen);

/* A toolkit's version.json ({"cuda": {"version": "12.4.1"}}); 0 or -1. */
int cuda_version_json_parse(const char *text, size_t n, char *ver, size_t len);
/* An old toolkit's version.txt ("CUDA Version 10.2.89"); 0 or -1. */
int cuda_version_txt_parse(const char *text, char *ver, size_t len);
/* "#define CUDA_VERSION 13000" in include/cuda.h, into *code; 0 or -1. */
int cuda_header_version_parse(const char *text, int *code);

/*
 * CUDNN_MAJOR / CUDNN_MINOR / CUDNN_PATCHLEVEL from cudnn_version.h (cuDNN >= 8) or cudnn.h
 * (cuDNN <= 7). Returns 0, or -1 when the three are not all there.
 */
int cudnn_header_parse(const char *text, int *major, int *minor, int *patch);
/*
 * cudnnGetVersion()'s code: MAJOR*10000+MINOR*100+PATCH from cuDNN 9, MAJOR*1000+MINOR*100+PATCH
 * before. Returns -1 for codes no cuDNN release uses.
 */
int cudnn_version_decode(long code, int *major, int *minor, int *patch);
/* The inverse, with the encoding of `major`'s era. */
long cudnn_version_encode(int major, int minor, int patch);

/*
 * The version in a versioned soname's file name: "libnvidia-ml.so.580.95.05" with prefix
 * "libnvidia-ml.so." gives "580.95.05". Only dotted numbers with at least `min_parts` parts
 * count, so "libcuda.so.1" is not a version. 0 or -1.
 */
int soname_version(const char *path, const char *prefix, int min_parts, char *out, size_t len);

/* NVML's "00000000:18:00.0" (or sysfs' "0000:18:00.0") as sysfs writes it, lower case. 0 or -1. */
int pci_busid_normalize(const char *in, char *out, size_t len);

/* Symbolic names of NVML and CUDA driver return codes ("NVML_ERROR_DRIVER_NOT_LOADED"). */
const char *nvml_error_name(int rc);
const char *cuda_error_name(int rc);
/* One sentence a user can act on, for the codes that have a known cause; NULL otherwise. */
const char *nvml_error_hint(int rc);
const char *cuda_error_hint(int rc);

/*
 * The isolated child's side (run in a subproc_fork() child, which may hang or crash in a broken
 * driver): each fills `out` with what it saw, tagged {"part": "nvml" | "cuda" | "cuda_init"}.
 * cuda_child_query only asks libcuda for its version (no device is touched); cuda_child_init
 * runs cuInit and counts devices, which is what torch.cuda.is_available() depends on. `lib` is
 * the library's full path from NCCLCHECK_NVML_LIB / NCCLCHECK_CUDA_LIB, or NULL to search.
 */
void nvml_child_query(const char *lib, json_t *out);
void cuda_child_query(const char *lib, json_t *out);
void cuda_child_init(const char *lib, json_t *out);
/*
 * The whole child (nvml_child.c): cuda_child_query, nvml_child_query, cuda_child_init, each part
 * written to `fd` as one JSON line. `arg` is the const struct probe_ctx * (its library overrides).
 */
int gpu_child_run(void *arg, int fd);

/*
 * The parent's side: turns the child's answer (newline-separated JSON objects, possibly cut short
 * by a timeout or a crash) into `driver`, `gpus` and `topology.gpu_gpu` facts. `kmod` is what
 * /proc/driver/nvidia/version said (an object, may be NULL), `child_fate` the reason the child
 * stopped early or NULL. Never trusts the answer's types: every field is checked.
 */
void nvml_answer_merge(json_t *facts, const char *answer, size_t n, const json_t *kmod,
		       const char *child_fate);

#endif
