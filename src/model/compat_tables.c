/* NVIDIA driver / CUDA / cuDNN / torch-wheel compatibility tables and lookups (see compat_tables.h). */
#include "model/compat_tables.h"

#include <stdio.h>
#include <string.h>

#include "util/version.h"

/* compat-data.md §1a, CUDA release notes Table 3 (13.2 Update 2 edition), newest first. */
const struct compat_cuda_driver compat_cuda_driver_tab[] = {
	{ "13.2.2", "595.71.05" }, { "13.2.1", "595.58.03" }, { "13.2.0", "595.45.04" },
	{ "13.1.1", "590.48.01" }, { "13.1.0", "590.44.01" },
	{ "13.0.2", "580.95.05" }, { "13.0.1", "580.82.07" }, { "13.0.0", "580.65.06" },
	{ "12.9.1", "575.57.08" }, { "12.9.0", "575.51.03" },
	{ "12.8.1", "570.124.06" }, { "12.8.0", "570.26" },
	{ "12.6.3", "560.35.05" }, { "12.6.2", "560.35.03" }, { "12.6.1", "560.35.03" },
	{ "12.6.0", "560.28.03" },
	{ "12.5.1", "555.42.06" }, { "12.5.0", "555.42.02" },
	{ "12.4.1", "550.54.15" }, { "12.4.0", "550.54.14" },
	{ "12.3.1", "545.23.08" }, { "12.3.0", "545.23.06" },
	{ "12.2.2", "535.104.05" }, { "12.2.1", "535.86.09" }, { "12.2.0", "535.54.03" },
	{ "12.1.1", "530.30.02" }, { "12.1.0", "530.30.02" },
	{ "12.0.1", "525.85.12" }, { "12.0.0", "525.60.13" },
	{ "11.8.0", "520.61.05" },
	{ "11.7.1", "515.48.07" }, { "11.7.0", "515.43.04" },
	{ "11.6.2", "510.47.03" }, { "11.6.1", "510.47.03" }, { "11.6.0", "510.39.01" },
	{ "11.5.2", "495.29.05" }, { "11.5.1", "495.29.05" }, { "11.5.0", "495.29.05" },
	{ "11.4.4", "470.82.01" }, { "11.4.3", "470.82.01" }, { "11.4.2", "470.57.02" },
	{ "11.4.1", "470.57.02" }, { "11.4.0", "470.42.01" },
	{ "11.3.1", "465.19.01" }, { "11.3.0", "465.19.01" },
	{ "11.2.2", "460.32.03" }, { "11.2.1", "460.32.03" }, { "11.2.0", "460.27.03" },
	{ "11.1.1", "455.32" }, { "11.1.0", "455.23" },
	{ "11.0.3", "450.51.06" }, { "11.0.2", "450.51.05" }, { "11.0.1", "450.36.06" },
	{ "10.2.89", "440.33" },
};
const size_t compat_cuda_driver_count = sizeof(compat_cuda_driver_tab) / sizeof(compat_cuda_driver_tab[0]);

/* compat-data.md §1b, Table 2, with the exact floors the cuDNN matrices use. 10.x has none. */
const struct compat_cuda_floor compat_cuda_floor_tab[] = {
	{ 13, "580.65.06" },
	{ 12, "525.60.13" },
	{ 11, "450.80.02" },
};
const size_t compat_cuda_floor_count = sizeof(compat_cuda_floor_tab) / sizeof(compat_cuda_floor_tab[0]);

/*
 * compat-data.md §4b: release wheel variants per pytorch/test-infra; 2.13 from RELEASE.md, 2.14
 * from pytorch#194367 (RELEASE.md: CUDA 12.6 and 13.0 stable, 13.2 experimental).
 */
const struct compat_torch_cuda compat_torch_cuda_tab[] = {
	{ "2.14", { "12.6", "13.0", "13.2", NULL } },
	{ "2.13", { "12.6", "13.0", "13.2", NULL } },
	{ "2.12", { "12.6", "13.0", "13.2", NULL } },
	{ "2.11", { "12.6", "12.8", "13.0", NULL } },
	{ "2.10", { "12.6", "12.8", "13.0", NULL } },
	{ "2.9", { "12.6", "12.8", "13.0", NULL } },
	{ "2.8", { "12.6", "12.8", "12.9", NULL } },
	{ "2.7", { "11.8", "12.6", "12.8", NULL } },
	{ "2.6", { "11.8", "12.4", "12.6", NULL } },
	{ "2.5", { "11.8", "12.1", "12.4", NULL } },
	{ "2.4", { "11.8", "12.1", "12.4", NULL } },
	{ "2.3", { "11.8", "12.1", NULL, NULL } },
	{ "2.2", { "11.8", "12.1", NULL, NULL } },
	{ "2.1", { "11.8", "12.1", NULL, NULL } },
	{ "2.0", { "11.7", "11.8", NULL, NULL } },
	{ "1.13", { "11.6", "11.7", NULL, NULL } },
	{ "1.12", { "10.2", "11.3", "11.6", NULL } },
};
const size_t compat_torch_cuda_count = sizeof(compat_torch_cuda_tab) / sizeof(compat_torch_cuda_tab[0]);

static int same_minor(const struct version *a, const struct version *b)
{
	return a->part[0] == b->part[0] && a->part[1] == b->part[1];
}

const char *compat_driver_full(const char *cuda, const char **row)
{
	const struct compat_cuda_driver *best = NULL, *ga = NULL;
	struct version want, r;

	if (row)
		*row = NULL;
	if (version_parse(cuda, &want) < 0 || want.n < 2)
		return NULL;
	for (size_t i = 0; i < compat_cuda_driver_count; i++) {
		const struct compat_cuda_driver *c = &compat_cuda_driver_tab[i];
		if (version_parse(c->cuda, &r) < 0 || !same_minor(&r, &want))
			continue;
		ga = c; /* rows run newest first: the last match is the GA release */
		if (want.n >= 3 && !best && r.part[2] <= want.part[2])
			best = c;
	}
	if (!best)
		best = ga;
	if (best && row)
		*row = best->cuda;
	return best ? best->driver : NULL;
}

const char *compat_driver_floor(const char *cuda)
{
	struct version v;

	if (version_parse(cuda, &v) < 0)
		return NULL;
	for (size_t i = 0; i < compat_cuda_floor_count; i++)
		if (compat_cuda_floor_tab[i].cuda_major == v.part[0])
			return compat_cuda_floor_tab[i].driver;
	return NULL;
}

int compat_cuda_for_driver(const char *driver, char *buf, size_t len)
{
	struct version d, r;

	if (version_parse(driver, &d) < 0)
		return -1;
	for (size_t i = 0; i < compat_cuda_driver_count; i++) {
		if (version_cmp_str(driver, compat_cuda_driver_tab[i].driver) >= 0 &&
		    version_parse(compat_cuda_driver_tab[i].cuda, &r) == 0) {
			snprintf(buf, len, "%ld.%ld", r.part[0], r.part[1]);
			return 0;
		}
	}
	return -1;
}

const struct compat_torch_cuda *compat_torch_variants(const char *torch)
{
	struct version want, r;

	if (version_parse(torch, &want) < 0 || want.n < 2)
		return NULL;
	for (size_t i = 0; i < compat_torch_cuda_count; i++)
		if (version_parse(compat_torch_cuda_tab[i].torch, &r) == 0 && same_minor(&r, &want))
			return &compat_torch_cuda_tab[i];
	return NULL;
}

/* Is `cuda` newer than every release the driver table lists? */
static int newer_than_table(const struct version *c)
{
	struct version top;

	version_parse(compat_cuda_driver_tab[0].cuda, &top);
	return c->part[0] > top.part[0] || (c->part[0] == top.part[0] && c->part[1] > top.part[1]);
}

enum compat_support compat_driver_supports(const char *driver, const char *cuda_max,
					   const char *cuda, const char **need)
{
	const char *full = compat_driver_full(cuda, NULL), *floor = compat_driver_floor(cuda);
	struct version c, d, m;

	if (need)
		*need = full;
	if (version_parse(cuda, &c) < 0)
		return COMPAT_UNVERIFIED;
	if (version_parse(driver, &d) == 0) {
		if (full && version_cmp_str(driver, full) >= 0)
			return COMPAT_FULL;
		if (!full && !newer_than_table(&c))
			return COMPAT_UNVERIFIED; /* older than the table (CUDA 10.1 and before) */
		if (floor && version_cmp_str(driver, floor) >= 0)
			return full ? COMPAT_MINOR : COMPAT_UNVERIFIED;
		return floor || full ? COMPAT_NONE : COMPAT_UNVERIFIED;
	}
	if (version_parse(cuda_max, &m) == 0 && m.n >= 2) {
		if (c.part[0] < m.part[0] || (c.part[0] == m.part[0] && c.part[1] <= m.part[1]))
			return COMPAT_FULL;
		if (c.part[0] == m.part[0] && floor)
			return COMPAT_MINOR;
		return COMPAT_NONE;
	}
	return COMPAT_UNVERIFIED;
}

enum compat_support compat_cudnn_cuda(const char *cudnn, const char *cuda, const char **note)
{
	struct version n, c;
	long M, m, C, cm;

	*note = "the cuDNN support matrices this tool knows do not list this pair";
	if (version_parse(cudnn, &n) < 0 || version_parse(cuda, &c) < 0 || n.n < 2 || c.n < 2)
		return COMPAT_UNVERIFIED;
	M = n.part[0], m = n.part[1], C = c.part[0], cm = c.part[1];
	if (M >= 10 || C >= 14)
		return COMPAT_UNVERIFIED;
	if (M == 9) {
		if (C == 13) {
			*note = "cuDNN 9.17 for CUDA 13.x lists 13.0 and 13.1; PyTorch's CUDA 13.0 wheels ship "
				"cuDNN 9.13 and later; cuDNN 9.10.2 lists no CUDA 13";
			if (m <= 10)
				return COMPAT_NONE;
			if (cm >= 2)
				return m >= 20 ? COMPAT_FULL : COMPAT_UNVERIFIED;
			return m >= 13 ? COMPAT_FULL : COMPAT_UNVERIFIED;
		}
		if (C == 12) {
			*note = "cuDNN 9.0 to 9.17 ship builds for CUDA 12.x";
			return COMPAT_FULL;
		}
		if (C == 11) {
			*note = "cuDNN 9.0 to 9.10.2 support CUDA 11.8 (9.4 also 11.0 to 11.7); 9.17 has no "
				"CUDA 11 build";
			if (cm == 8)
				return m <= 10 ? COMPAT_FULL : m >= 17 ? COMPAT_NONE : COMPAT_UNVERIFIED;
			return m <= 4 ? COMPAT_FULL : COMPAT_NONE;
		}
		*note = "cuDNN 9 has no build for CUDA 10 or older";
		return COMPAT_NONE;
	}
	if (M == 8) {
		*note = "cuDNN 8.x supports CUDA 10.2 and 11.x; 8.9.x also CUDA 12.0 to 12.2; no CUDA 13";
		if (C == 13)
			return COMPAT_NONE;
		if (C == 12) {
			if (m >= 9)
				return cm <= 2 ? COMPAT_FULL : COMPAT_UNVERIFIED;
			return m == 8 && cm == 0 ? COMPAT_UNVERIFIED : COMPAT_NONE;
		}
		if (C == 11)
			return COMPAT_FULL;
		if (C == 10)
			return cm == 2 && m <= 2 ? COMPAT_FULL : COMPAT_UNVERIFIED;
		return COMPAT_NONE;
	}
	if (M == 7 && C >= 12) {
		*note = "cuDNN 7 predates CUDA 12";
		return COMPAT_NONE;
	}
	return COMPAT_UNVERIFIED;
}
