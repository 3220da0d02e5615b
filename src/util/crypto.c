/* util/crypto: see crypto.h. SHA-256 as specified in FIPS 180-4, HMAC as in RFC 2104. */
#include "util/crypto.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef NCCLCHECK_OWN_CRYPTO
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#endif

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	unsigned char blk[64];
	size_t used;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, s->h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
			      ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
		uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
			      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));

		memmove(v + 1, v, 7 * sizeof(*v));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		s->h[i] += v[i];
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memset(s, 0, sizeof(*s));
	memcpy(s->h, h0, sizeof(h0));
}

static void sha256_add(struct sha256 *s, const void *msg, size_t n)
{
	const unsigned char *p = msg;

	s->len += n;
	while (n) {
		size_t take = sizeof(s->blk) - s->used < n ? sizeof(s->blk) - s->used : n;

		memcpy(s->blk + s->used, p, take);
		s->used += take;
		p += take;
		n -= take;
		if (s->used == sizeof(s->blk)) {
			sha256_block(s, s->blk);
			s->used = 0;
		}
	}
}

static void sha256_done(struct sha256 *s, unsigned char out[CRYPTO_SHA256_LEN])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, len[8];

	sha256_add(s, &pad, 1);
	while (s->used != 56)
		sha256_add(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_add(s, len, sizeof(len));
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void crypto_own_sha256(const void *msg, size_t n, unsigned char out[CRYPTO_SHA256_LEN])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_add(&s, msg, n);
	sha256_done(&s, out);
}

void crypto_own_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
			    unsigned char out[CRYPTO_SHA256_LEN])
{
	unsigned char k[64] = { 0 }, pad[64], inner[CRYPTO_SHA256_LEN];
	struct sha256 s;

	if (klen > sizeof(k))
		crypto_own_sha256(key, klen, k);
	else if (klen)
		memcpy(k, key, klen);
	for (size_t i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&s);
	sha256_add(&s, pad, sizeof(pad));
	sha256_add(&s, msg, mlen);
	sha256_done(&s, inner);
	for (size_t i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&s);
	sha256_add(&s, pad, sizeof(pad));
	sha256_add(&s, inner, sizeof(inner));
	sha256_done(&s, out);
}

int crypto_own_random(void *buf, size_t n)
{
	unsigned char *p = buf;
	int fd = -1;

	/* the syscall, not getrandom(3): glibc before 2.25 has no wrapper, and the portable binary
	 * runs there; kernels before 3.17 lack the call, then /dev/urandom answers */
	while (n) {
		long got = syscall(SYS_getrandom, p, n, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == ENOSYS) {
			if (fd < 0 && (fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0)
				return -1;
			got = read(fd, p, n);
			if (got < 0 && errno == EINTR)
				continue;
			if (got == 0)
				errno = EIO;
		}
		if (got <= 0) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		p += got;
		n -= (size_t)got;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

#ifdef NCCLCHECK_OWN_CRYPTO
int crypto_random(void *buf, size_t n)
{
	return crypto_own_random(buf, n);
}

int crypto_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		       unsigned char out[CRYPTO_SHA256_LEN])
{
	crypto_own_hmac_sha256(key, klen, msg, mlen, out);
	return 0;
}

int crypto_equal(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
#else
int crypto_random(void *buf, size_t n)
{
	if (n > 0x7fffffff || RAND_bytes(buf, (int)n) != 1) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int crypto_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		       unsigned char out[CRYPTO_SHA256_LEN])
{
	unsigned mdlen = 0;

	if (klen > 0x7fffffff || !HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &mdlen) ||
	    mdlen != CRYPTO_SHA256_LEN)
		return -1;
	return 0;
}

int crypto_equal(const void *a, const void *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n) == 0;
}
#endif
