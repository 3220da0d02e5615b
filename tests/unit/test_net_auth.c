/* net/auth: MACs bind token, role, both nonces, rank and count; constant-time equality. */
#include <string.h>

#include "cmocka_helpers.h"
#include "net/auth.h"

static void nonces_are_fresh_hex(void **state)
{
	char a[PROTO_NONCE_HEX + 1], b[PROTO_NONCE_HEX + 1];
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(auth_nonce(a, &e), 0);
	assert_int_equal(auth_nonce(b, &e), 0);
	assert_int_equal(strlen(a), PROTO_NONCE_HEX);
	assert_int_equal(strspn(a, "0123456789abcdef"), PROTO_NONCE_HEX);
	assert_string_not_equal(a, b);
}

static void mac_binds_everything(void **state)
{
	const char *wn = "00112233445566778899aabbccddeeff", *mn = "ffeeddccbbaa99887766554433221100";
	char m[PROTO_MAC_HEX + 1], x[PROTO_MAC_HEX + 1];

	(void)state;
	auth_mac("secret", 6, "worker", wn, mn, 1, 2, m);
	assert_int_equal(strlen(m), PROTO_MAC_HEX);
	auth_mac("secret", 6, "worker", wn, mn, 1, 2, x);
	assert_true(auth_equal(m, x));
	auth_mac("secreT", 6, "worker", wn, mn, 1, 2, x);
	assert_false(auth_equal(m, x));
	auth_mac("secret", 6, "master", wn, mn, 1, 2, x);
	assert_false(auth_equal(m, x));
	auth_mac("secret", 6, "worker", mn, wn, 1, 2, x);
	assert_false(auth_equal(m, x));
	auth_mac("secret", 6, "worker", wn, mn, 0, 2, x);
	assert_false(auth_equal(m, x));
	auth_mac("secret", 6, "worker", wn, mn, 1, 3, x);
	assert_false(auth_equal(m, x));
	assert_false(auth_equal(m, ""));
	assert_false(auth_equal("", ""));
	assert_false(auth_equal(NULL, m));
}

static void known_answer(void **state)
{
	/* python3 -c 'import hmac,hashlib; print(hmac.new(b"k", b"ncclcheck-cluster-v1\0worker\0a\0b\0001\0002", hashlib.sha256).hexdigest())' */
	char m[PROTO_MAC_HEX + 1];

	(void)state;
	auth_mac("k", 1, "worker", "a", "b", 1, 2, m);
	assert_string_equal(m, "6dd011c1ea1766f650f297a86a4ad689980c5a35ced7e04291477a7dbeb2e147");
}

static void token_text(void **state)
{
	const char *t;
	size_t n;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(auth_token_parse("  s3cret\n", 9, &t, &n, &e), 0);
	assert_int_equal(n, 6);
	assert_memory_equal(t, "s3cret", 6);
	assert_int_equal(auth_token_parse(" \n", 2, &t, &n, &e), -1);
	assert_non_null(strstr(e.msg, "empty"));
	assert_int_equal(auth_token_parse("a\0b", 3, &t, &n, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nonces_are_fresh_hex),
		cmocka_unit_test(mac_binds_everything),
		cmocka_unit_test(known_answer),
		cmocka_unit_test(token_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
