/* Project-wide constants: version and the exit codes every verb shares. */
#ifndef NCCLCHECK_H
#define NCCLCHECK_H

/* project(VERSION) in CMakeLists.txt, the one place the version is written */
#ifndef NCCLCHECK_VERSION
#error "NCCLCHECK_VERSION comes from CMakeLists.txt's project(VERSION): build with CMake"
#endif

/* Exit codes, for every verb (documented in README.md and `ncclcheck --help`). */
enum {
	EXIT_CLEAN = 0,		/* nothing at error level */
	EXIT_FINDINGS = 1,	/* at least one error finding */
	EXIT_USAGE = 2,		/* malformed command line */
	EXIT_CANNOT_RUN = 3,	/* the check itself could not run: timeout, peer missing, internal failure */
};

#endif
