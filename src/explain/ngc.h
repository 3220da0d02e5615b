/*
 * NVIDIA's NGC PyTorch containers (nvcr.io/nvidia/pytorch:YY.MM-py3): the NCCL each release
 * ships, for a log that names its image but prints no "NCCL version" line. The rows are read from
 * NVIDIA's "PyTorch Release YY.MM" release notes (ngc.c names the page of each).
 */
#ifndef NCCLCHECK_EXPLAIN_NGC_H
#define NCCLCHECK_EXPLAIN_NGC_H

#include <stddef.h>

struct ngc_pytorch {
	int yy, mm;		/* the release: 19.11 is yy 19, mm 11 */
	int nccl;		/* 10000 * major + 100 * minor + patch (2.5.6 is 20506) */
	const char *cuda;	/* the CUDA the page names */
	const char *pytorch;	/* the PyTorch the page names, or NULL where it names none */
};

extern const struct ngc_pytorch ngc_pytorch_releases[];
extern const size_t ngc_pytorch_nreleases;

/* The NCCL of PyTorch container release yy.mm as 10000 * major + 100 * minor + patch; 0 when the
 * table does not have that release. */
int ngc_pytorch_nccl(int yy, int mm);

#endif
