/*
 * NVIDIA compatibility data the driver and cuDNN rules judge by, kept in one place
 * (../shared/research/compat-data.md §1a, §1b, §2a, §4b; each row names its source there).
 */
#ifndef NCCLCHECK_RULES_COMPAT_TABLES_H
#define NCCLCHECK_RULES_COMPAT_TABLES_H

#include <stddef.h>

/* The first seed article's floor for the driver ("NVIDIA驱动 ≥450.80.02"). */
#define COMPAT_DRIVER_SEED_MIN "450.80.02"

/* "Table 3: CUDA Toolkit and Corresponding Driver Versions", Linux x86_64 column (§1a). */
struct compat_cuda_driver {
	const char *cuda;	/* toolkit release as version.json states it: "13.0.2" = 13.0 Update 2 */
	const char *driver;	/* minimum Linux driver for every feature of that release */
};

/* "Table 2: minimum driver for CUDA minor version compatibility" (§1b). */
struct compat_cuda_floor {
	int cuda_major;
	const char *driver;	/* the exact floor NVIDIA's library matrices use */
};

/* CUDA variants of a torch release's Linux wheels on download.pytorch.org (§4b). */
struct compat_torch_cuda {
	const char *torch;		/* "2.11": major.minor */
	const char *variants[4];	/* oldest first, NULL-terminated when fewer */
};

extern const struct compat_cuda_driver compat_cuda_driver_tab[];
extern const size_t compat_cuda_driver_count;
extern const struct compat_cuda_floor compat_cuda_floor_tab[];
extern const size_t compat_cuda_floor_count;
extern const struct compat_torch_cuda compat_torch_cuda_tab[];
extern const size_t compat_torch_cuda_count;

/*
 * The minimum driver for all features of CUDA `cuda` ("12.4", "12.4.1", "10.2.89"): the row of
 * the latest update not newer than `cuda`, the GA row when only major.minor is known. NULL when
 * the table has no row for that major.minor. *row gets the row's CUDA release (may be NULL).
 */
const char *compat_driver_full(const char *cuda, const char **row);
/* The minor-version-compatibility floor of `cuda`'s major release, or NULL (10.x and older). */
const char *compat_driver_floor(const char *cuda);
/* The newest CUDA major.minor a driver supports in full ("13.0" for 580.95.05), into buf; -1 if none. */
int compat_cuda_for_driver(const char *driver, char *buf, size_t len);

/* The wheel variants of torch `torch` ("2.11.0+cu130"), or NULL when the release is not listed. */
const struct compat_torch_cuda *compat_torch_variants(const char *torch);

enum compat_support {
	COMPAT_FULL,		/* the driver (or pairing) is supported as is */
	COMPAT_MINOR,		/* works through minor-version compatibility, with limits */
	COMPAT_UNVERIFIED,	/* the published matrices this tool knows do not say */
	COMPAT_NONE,		/* will not work */
};

/*
 * Can a driver run code built for CUDA `cuda`? Judged from the driver version when known, else
 * from the highest CUDA version the driver reports (`cuda_max`, e.g. "12.2"). *need gets the
 * driver version for full support when the table knows it (may be NULL).
 */
enum compat_support compat_driver_supports(const char *driver, const char *cuda_max,
					   const char *cuda, const char **need);

/*
 * Does cuDNN `cudnn` ("8.9.2") support CUDA `cuda` ("12.4")? (§2a) *note gets the matrix row's
 * wording for the finding.
 */
enum compat_support compat_cudnn_cuda(const char *cudnn, const char *cuda, const char **note);

#endif
