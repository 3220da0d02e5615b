/*
 * The environment a job will run with, as data: a NULL-terminated array of "NAME=VALUE" strings
 * (environ's format). Probes, launcher detection and `run` read it instead of getenv(), so
 * ncclcheck can reason "as the job will run with these variables" without setenv() on itself
 * (which is global and not thread-safe).
 */
#ifndef NCCLCHECK_UTIL_ENVMAP_H
#define NCCLCHECK_UTIL_ENVMAP_H

#include <stddef.h>

struct envmap {
	char **v;		/* "NAME=VALUE", NULL-terminated; owned */
	size_t n, alloc;
};

/* A copy of `envp` (environ's format; NULL gives an empty map). */
struct envmap *envmap_new(char *const *envp);
void envmap_free(struct envmap *em);

/* The value of NAME, or NULL when unset. The pointer lives until NAME is set again. */
const char *envmap_get(const struct envmap *em, const char *name);
/* Sets NAME to VALUE (VALUE NULL: unsets it). */
void envmap_set(struct envmap *em, const char *name, const char *value);
/* The environ-format array (for execve and subprocesses); valid until the next change. */
char *const *envmap_envp(const struct envmap *em);
/*
 * Whether the n bytes at s are a variable name a shell can export: a letter or '_', then
 * letters, digits and '_'. Lowercase counts (Open MPI's OMPI_MCA_plm_rsh_agent and such).
 */
int envmap_name_ok(const char *s, size_t n);

#endif
