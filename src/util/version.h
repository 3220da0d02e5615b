/* Dotted version numbers ("2.28.9", "580.82.07", "12.4", "2.6.0+cu126") as comparable values. */
#ifndef NCCLCHECK_VERSION_H
#define NCCLCHECK_VERSION_H

#define VERSION_PARTS 4

struct version {
	int n;			/* number of parts parsed, 0 if none */
	long part[VERSION_PARTS];
};

/*
 * Parses leading digits-and-dots; stops at the first other character ("+cu126", "a0", "rc1").
 * Returns 0, or -1 when `s` does not start with a digit.
 */
int version_parse(const char *s, struct version *v);
/* <0, 0, >0. Missing parts count as 0, so "12.4" == "12.4.0". */
int version_cmp(const struct version *a, const struct version *b);
/* Convenience: compare two strings; an unparseable side sorts lowest. */
int version_cmp_str(const char *a, const char *b);

/*
 * NCCL's integer code from ncclGetVersion: X*10000+Y*100+Z from 2.9 on, X*1000+Y*100+Z before.
 * Writes "X.Y.Z" into `out`.
 */
void version_nccl_code_str(int code, char *out, unsigned len);
/* CUDA's integer code (12040 = 12.4): writes "X.Y". */
void version_cuda_code_str(int code, char *out, unsigned len);

#endif
