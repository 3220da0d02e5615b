/*
 * The three primitives the cluster protocol's authentication needs: random bytes, HMAC-SHA256
 * and constant-time equality. The normal build takes them from OpenSSL's libcrypto; the portable
 * build (NCCLCHECK_OWN_CRYPTO, see docs/install.md) uses the SHA-256 below and the kernel's
 * getrandom, because a static libcrypto alone would exceed the 5 MB the release binary may
 * weigh. Both produce the same MAC for the same input (tests/unit/test_crypto.c checks RFC 4231's
 * vectors and, in the normal build, compares the two on random inputs), so the two builds
 * interoperate in one cluster.
 */
#ifndef NCCLCHECK_CRYPTO_H
#define NCCLCHECK_CRYPTO_H

#include <stddef.h>

#define CRYPTO_SHA256_LEN 32

/* n bytes from the system's cryptographic random source: 0, or -1 with errno set. */
int crypto_random(void *buf, size_t n);

/* 0, or -1 when the library failed (out is then unspecified: the caller must not use it). */
int crypto_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		       unsigned char out[CRYPTO_SHA256_LEN]);

/* 1 when the n bytes at a and b are equal, in time that does not depend on where they differ. */
int crypto_equal(const void *a, const void *b, size_t n);

/* The in-tree implementations, built in every configuration so the tests can compare them. */
void crypto_own_sha256(const void *msg, size_t n, unsigned char out[CRYPTO_SHA256_LEN]);
void crypto_own_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
			    unsigned char out[CRYPTO_SHA256_LEN]);
int crypto_own_random(void *buf, size_t n);

#endif
