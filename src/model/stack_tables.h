/*
 * The software-stack compatibility data the stack rules judge by, kept in one place
 * (../shared/research/compat-data.md §3b, §4a, §4b, §5; each row names its source there).
 */
#ifndef NCCLCHECK_RULES_STACK_TABLES_H
#define NCCLCHECK_RULES_STACK_TABLES_H

#include <stddef.h>

/* The seed article's floor for NCCL ("NCCL ≥ 2.7.8"); torch itself refuses to build below 2.7. */
#define STACK_NCCL_MIN "2.7.8"

/* The NCCL a torch release's Linux wheels were built and tested with (compat-data.md §3b). */
struct torch_nccl_pin {
	const char *torch;	/* "2.11": major.minor */
	const char *cuda;	/* CUDA variant prefix ("13.", "12.", "11."), "" for any */
	const char *nccl;
	int verified;		/* 0 where the research marks the value unverified or inferred */
};

/* A Lightning release line (compat-data.md §4a and the 2.6 tags). */
struct lightning_compat {
	const char *lightning;	/* "2.6" */
	const char *upto;	/* last patch the row holds for, NULL for the whole line */
	const char *torch_min;	/* hard lower bound */
	const char *torch_tested; /* last CI-tested torch: informational, not enforced by pip */
	const char *python_min;
};

/* Python versions a torch release ships wheels for (compat-data.md §4b, RELEASE.md). */
struct torch_python {
	const char *torch;	/* "2.11" */
	const char *python_min;	/* "3.10" */
	const char *python_max;	/* "3.14": newest with official wheels */
};

/* torch's distributed variables that lost their NCCL_ prefix (compat-data.md §5). */
struct torch_renamed_var {
	const char *old_name;
	const char *new_name;
	const char *renamed_in;	/* the torch release that renamed it */
	const char *meaning;
};

extern const struct torch_nccl_pin stack_torch_nccl[];
extern const size_t stack_torch_nccl_count;
extern const struct lightning_compat stack_lightning[];
extern const size_t stack_lightning_count;
extern const struct torch_python stack_torch_python_tab[];
extern const size_t stack_torch_python_count;
extern const struct torch_renamed_var stack_torch_renamed[];
extern const size_t stack_torch_renamed_count;

/* The pin for a torch version ("2.11.0+cu130") and its CUDA ("13.0", or NULL); NULL if none. */
const struct torch_nccl_pin *stack_find_nccl_pin(const char *torch, const char *cuda);
/* The row for a Lightning version ("2.6.6"); NULL when the line is not in the table. */
const struct lightning_compat *stack_find_lightning(const char *version);
const struct torch_python *stack_find_torch_python(const char *torch);
/* The renamed-variable row whose old or new name is `name`, or NULL. */
const struct torch_renamed_var *stack_find_renamed(const char *name);

/* "2.11" from "2.11.0+cu130" into buf; -1 when `v` has no major.minor. */
int stack_major_minor(const char *v, char *buf, size_t len);

#endif
