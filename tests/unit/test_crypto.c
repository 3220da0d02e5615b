/*
 * util/crypto: SHA-256 and HMAC-SHA256 against FIPS 180-2's and RFC 4231's published vectors,
 * through the entry points the build uses (OpenSSL or the in-tree code) and the in-tree code
 * itself; in the OpenSSL build the two are also compared on many lengths around the block size,
 * so a portable binary and a distribution build compute the same cluster MAC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "util/crypto.h"

static void hex(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void sha256_vectors(void **state)
{
	static const struct { const char *msg, *want; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	unsigned char md[CRYPTO_SHA256_LEN];
	char got[2 * CRYPTO_SHA256_LEN + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		crypto_own_sha256(v[i].msg, strlen(v[i].msg), md);
		hex(md, sizeof(md), got);
		assert_string_equal(got, v[i].want);
	}
}

static void rfc4231_vectors(void **state)
{
	unsigned char k0b[20], kaa[131], k25[25], dd[50], cd[50], md[CRYPTO_SHA256_LEN];
	const char *big = "Test Using Larger Than Block-Size Key - Hash Key First";
	const char *both = "This is a test using a larger than block-size key and a larger than "
			   "block-size data. The key needs to be hashed before being used by the "
			   "HMAC algorithm.";
	char got[2 * CRYPTO_SHA256_LEN + 1];
	struct { const void *key; size_t klen; const void *msg; size_t mlen; const char *want; } v[] = {
		{ k0b, 20, "Hi There", 8,
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
		{ "Jefe", 4, "what do ya want for nothing?", 28,
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
		{ kaa, 20, dd, 50,
		  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
		{ k25, 25, cd, 50,
		  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
		{ kaa, 131, big, strlen(big),
		  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
		{ kaa, 131, both, strlen(both),
		  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
	};

	(void)state;
	memset(k0b, 0x0b, sizeof(k0b));
	memset(kaa, 0xaa, sizeof(kaa));
	memset(dd, 0xdd, sizeof(dd));
	memset(cd, 0xcd, sizeof(cd));
	for (size_t i = 0; i < sizeof(k25); i++)
		k25[i] = (unsigned char)(i + 1);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(crypto_hmac_sha256(v[i].key, v[i].klen, v[i].msg, v[i].mlen, md), 0);
		hex(md, sizeof(md), got);
		assert_string_equal(got, v[i].want);
		crypto_own_hmac_sha256(v[i].key, v[i].klen, v[i].msg, v[i].mlen, md);
		hex(md, sizeof(md), got);
		assert_string_equal(got, v[i].want);
	}
}

/* Every key and message length across one and two blocks: the build's HMAC (OpenSSL in the
 * normal build) and the in-tree one agree, so the portable binary and a distribution build
 * accept each other's cluster MACs. */
static void own_matches_build(void **state)
{
	unsigned char key[200], msg[300], a[CRYPTO_SHA256_LEN], b[CRYPTO_SHA256_LEN];

	(void)state;
	assert_int_equal(crypto_own_random(key, sizeof(key)), 0);
	assert_int_equal(crypto_random(msg, sizeof(msg)), 0);
	for (size_t kl = 0; kl <= sizeof(key); kl += 7)
		for (size_t ml = 0; ml <= sizeof(msg); ml++) {
			assert_int_equal(crypto_hmac_sha256(key, kl, msg, ml, a), 0);
			crypto_own_hmac_sha256(key, kl, msg, ml, b);
			assert_memory_equal(a, b, sizeof(a));
		}
}

static void random_and_equal(void **state)
{
	unsigned char a[64], b[64];

	(void)state;
	assert_int_equal(crypto_random(a, sizeof(a)), 0);
	assert_int_equal(crypto_own_random(b, sizeof(b)), 0);
	assert_memory_not_equal(a, b, sizeof(a));
	assert_true(crypto_equal(a, a, sizeof(a)));
	memcpy(b, a, sizeof(a));
	b[63] ^= 1;
	assert_false(crypto_equal(a, b, sizeof(a)));
	assert_true(crypto_equal(a, b, 63));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sha256_vectors),
		cmocka_unit_test(rfc4231_vectors),
		cmocka_unit_test(own_matches_build),
		cmocka_unit_test(random_and_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
