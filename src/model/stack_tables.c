/* The software-stack compatibility tables (see stack_tables.h for where each comes from). */
#include "model/stack_tables.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"
#include "util/version.h"

/*
 * compat-data.md §3b. Rows for one torch line go from the most specific CUDA prefix to "".
 * 1.12 / 1.13 link NCCL statically and no primary record of the version was found; the cu118
 * values of 2.4 / 2.7 and 2.0's cu118 builder image are inferred.
 */
const struct torch_nccl_pin stack_torch_nccl[] = {
	/* pytorch#194367 (RELEASE.md, values from release/2.14); pytorch#187526 moved cu13 to 2.30.7 */
	{ "2.14", "13.", "2.30.7", 1 },
	{ "2.14", "12.", "2.29.3", 1 },
	{ "2.13", "13.", "2.29.7", 1 },
	{ "2.13", "12.", "2.29.3", 1 },
	{ "2.12", "13.", "2.29.7", 1 },
	{ "2.12", "12.", "2.29.3", 1 },
	{ "2.11", "", "2.28.9", 1 },
	{ "2.10", "13.", "2.28.9", 1 },
	{ "2.10", "12.", "2.27.5", 1 },
	{ "2.9", "13.", "2.27.7", 1 },
	{ "2.9", "12.", "2.27.5", 1 },
	{ "2.8", "", "2.27.3", 1 },
	{ "2.7", "12.", "2.26.2", 1 },
	{ "2.7", "11.", "2.21.5", 0 },
	{ "2.6", "", "2.21.5", 1 },
	{ "2.5", "", "2.21.5", 1 },
	{ "2.4", "12.", "2.20.5", 1 },
	{ "2.4", "11.", "2.20.5", 0 },
	{ "2.3", "12.", "2.20.5", 1 },
	{ "2.3", "", "2.20.5", 0 },
	{ "2.2", "", "2.19.3", 1 },
	{ "2.1", "12.", "2.18.1", 1 },
	{ "2.1", "11.", "2.18.5", 1 },
	{ "2.0", "11.7", "2.14.3", 1 },
	{ "2.0", "11.8", "2.15.5", 0 },
	{ "1.13", "", "2.14.3", 0 },
	{ "1.12", "", "2.10.3", 0 },
};
const size_t stack_torch_nccl_count = sizeof(stack_torch_nccl) / sizeof(stack_torch_nccl[0]);

/*
 * compat-data.md §4a (versioning.rst) and, for 2.6, the release tags: 2.6.0 kept Python 3.9 and
 * was CI-tested up to torch 2.9; 2.6.1+ need Python 3.10 and were tested up to torch 2.10.
 */
const struct lightning_compat stack_lightning[] = {
	{ "2.6", "2.6.0", "2.1", "2.9", "3.9" },
	{ "2.6", NULL, "2.1", "2.10", "3.10" },
	{ "2.5", NULL, "2.1", "2.8", "3.9" },
	{ "2.4", NULL, "2.1", "2.6", "3.9" },
	{ "2.3", NULL, "2.0", "2.3", "3.8" },
	{ "2.2", NULL, "1.13", "2.2", "3.8" },
	{ "2.1", NULL, "1.12", "2.1", "3.8" },
	{ "2.0", NULL, "1.11", "2.0", "3.8" },
	{ "1.9", NULL, "1.10", "1.13", "3.7" },
	{ "1.8", NULL, "1.10", "1.13", "3.7" },
	{ "1.7", NULL, "1.9", "1.12", "3.7" },
	{ "1.6", NULL, "1.8", "1.11", "3.7" },
};
const size_t stack_lightning_count = sizeof(stack_lightning) / sizeof(stack_lightning[0]);

/* compat-data.md §4b: the newest Python counts experimental wheels, since they exist. */
const struct torch_python stack_torch_python_tab[] = {
	{ "2.14", "3.10", "3.15" },
	{ "2.13", "3.10", "3.15" },
	{ "2.12", "3.10", "3.14" },
	{ "2.11", "3.10", "3.14" },
	{ "2.10", "3.10", "3.14" },
	{ "2.9", "3.10", "3.14" },
	{ "2.8", "3.9", "3.13" },
	{ "2.7", "3.9", "3.13" },
	{ "2.6", "3.9", "3.13" },
	{ "2.5", "3.9", "3.13" },
	{ "2.4", "3.8", "3.12" },
	{ "2.3", "3.8", "3.12" },
	{ "2.2", "3.8", "3.12" },
	{ "2.1", "3.8", "3.11" },
	{ "2.0", "3.8", "3.11" },
	{ "1.13", "3.7", "3.10" },
	{ "1.12", "3.7", "3.10" },
};
const size_t stack_torch_python_count =
	sizeof(stack_torch_python_tab) / sizeof(stack_torch_python_tab[0]);

/* compat-data.md §5: pytorch#114077, first released in torch 2.2.0. The meanings are the
 * why's value (launcher_env.c): msgids, so the sentence reads in the reader's language. */
const struct torch_renamed_var stack_torch_renamed[] = {
	{ "NCCL_BLOCKING_WAIT", "TORCH_NCCL_BLOCKING_WAIT", "2.2",
	  N_("collectives block the calling thread and raise on timeout; no watchdog thread runs") },
	{ "NCCL_ASYNC_ERROR_HANDLING", "TORCH_NCCL_ASYNC_ERROR_HANDLING", "2.2",
	  N_("what the watchdog does to a failed or timed-out collective (0 nothing, 1 abort and "
	  "tear down, 2 abort only, 3 tear down without abort; 3 is the default)") },
	{ "NCCL_DESYNC_DEBUG", "TORCH_NCCL_DESYNC_DEBUG", "2.2",
	  N_("reports which rank is out of step when a collective times out") },
	{ "NCCL_ENABLE_TIMING", "TORCH_NCCL_ENABLE_TIMING", "2.2",
	  N_("records CUDA events around every collective to time it") },
	{ "ENABLE_NCCL_HEALTH_CHECK", "TORCH_ENABLE_NCCL_HEALTH_CHECK", "2.2",
	  N_("runs a health-check collective when the process group starts") },
	{ "NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK", "TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK",
	  "2.2", N_("registers the caching allocator's memory with NCCL") },
};
const size_t stack_torch_renamed_count = sizeof(stack_torch_renamed) / sizeof(stack_torch_renamed[0]);

int stack_major_minor(const char *v, char *buf, size_t len)
{
	struct version pv;

	if (!v || version_parse(v, &pv) < 0 || pv.n < 2)
		return -1;
	snprintf(buf, len, "%ld.%ld", pv.part[0], pv.part[1]);
	return 0;
}

const struct torch_nccl_pin *stack_find_nccl_pin(const char *torch, const char *cuda)
{
	char mm[32];

	if (stack_major_minor(torch, mm, sizeof(mm)) < 0)
		return NULL;
	for (size_t i = 0; i < stack_torch_nccl_count; i++) {
		const struct torch_nccl_pin *p = &stack_torch_nccl[i];
		if (strcmp(p->torch, mm))
			continue;
		if (!p->cuda[0] || (cuda && !strncmp(cuda, p->cuda, strlen(p->cuda))))
			return p;
	}
	return NULL;
}

const struct lightning_compat *stack_find_lightning(const char *version)
{
	char mm[32];

	if (stack_major_minor(version, mm, sizeof(mm)) < 0)
		return NULL;
	for (size_t i = 0; i < stack_lightning_count; i++) {
		const struct lightning_compat *l = &stack_lightning[i];
		if (strcmp(l->lightning, mm))
			continue;
		if (!l->upto || version_cmp_str(version, l->upto) <= 0)
			return l;
	}
	return NULL;
}

const struct torch_python *stack_find_torch_python(const char *torch)
{
	char mm[32];

	if (stack_major_minor(torch, mm, sizeof(mm)) < 0)
		return NULL;
	for (size_t i = 0; i < stack_torch_python_count; i++)
		if (!strcmp(stack_torch_python_tab[i].torch, mm))
			return &stack_torch_python_tab[i];
	return NULL;
}

const struct torch_renamed_var *stack_find_renamed(const char *name)
{
	for (size_t i = 0; i < stack_torch_renamed_count; i++)
		if (!strcmp(stack_torch_renamed[i].old_name, name) ||
		    !strcmp(stack_torch_renamed[i].new_name, name))
			return &stack_torch_renamed[i];
	return NULL;
}
