/* Project-wide constants: version and the exit codes every verb shares. */
#ifndef NCCLCHECK_H
#define NCCLCHECK_H

#define NCCLCHECK_VERSION "0.1.0"

/* Exit codes, for every verb (documented in README.md and `ncclcheck --help`). */
enum {
	EXIT_CLEAN = 0,		/* nothing at error level */
	EXIT_FINDINGS = 1,	/* at least one error finding */
	EXIT_USAGE = 2,		/* malformed command line */
	EXIT_CANNOT_RUN = 3,	/* the check itself could not run: timeout, peer missing, internal failure */
};

#endif
