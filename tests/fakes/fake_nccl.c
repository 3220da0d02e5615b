/*
 * A stand-in libnccl.so.2 for the NCCL-copies probe: it exports ncclGetVersion like the real
 * library, and its variants misbehave the way foreign copies do, so the probe's isolation (a
 * forked child with a deadline) is tested for real.
 *
 * Built variants (tests/fakes/CMakeLists.txt), each in its own directory as libnccl.so.2:
 *   nccl/        answers FAKE_NCCL_VERSION_CODE from the environment, else FAKE_NCCL_CODE
 *   nccl_old/    answers 2408 (NCCL 2.4.8, older than the seed's 2.7.8)
 *   nccl_crash/  dies with SIGSEGV inside ncclGetVersion
 *   nccl_hang/   never returns from ncclGetVersion
 *   nccl_nosym/  exports no ncclGetVersion (a file named libnccl.so.2 that is not NCCL)
 *   nccl_tls/    answers 23203 (NCCL 2.32.3) and holds crypt.cc's PSK identity, as a TLS build does
 * Any variant also obeys FAKE_NCCL_MODE=crash|hang at run time.
 * FAKE_NCCL_PLUGIN builds an (inert) libnccl-net.so instead.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* a variant built with its own code ignores FAKE_NCCL_VERSION_CODE */
#ifndef FAKE_NCCL_CODE
#define FAKE_NCCL_CODE 21805
#define FAKE_NCCL_ENV_VERSION 1
#else
#define FAKE_NCCL_ENV_VERSION 0
#endif

#if defined(FAKE_NCCL_PLUGIN)
EXPORT int ncclNetPlugin_v8_fake_marker = 8;
#elif !defined(FAKE_NCCL_NOSYM)
static void misbehave(const char *mode)
{
	if (mode && !strcmp(mode, "crash"))
		raise(SIGSEGV);
	if (mode && !strcmp(mode, "hang"))
		for (;;)
			pause();
}

#if defined(FAKE_NCCL_TLS)
/* read-only data, where a TLS build keeps it (src/misc/crypt.cc ncclCryptPskIdentity) */
EXPORT const char fake_nccl_psk_identity[] = "nccl-psk-v1";
#endif

EXPORT int ncclGetVersion(int *version)
{
#if defined(FAKE_NCCL_CRASH)
	misbehave("crash");
#elif defined(FAKE_NCCL_HANG)
	misbehave("hang");
#endif
	const char *env = getenv("FAKE_NCCL_VERSION_CODE");

	misbehave(getenv("FAKE_NCCL_MODE"));
	if (!version)
		return 4; /* ncclInvalidArgument */
	*version = FAKE_NCCL_ENV_VERSION && env && *env ? atoi(env) : FAKE_NCCL_CODE;
	return 0;
}
#else
EXPORT int ncclNotTheVersionFunction(void)
{
	return 0;
}
#endif
