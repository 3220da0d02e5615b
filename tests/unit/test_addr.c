/* util/addr: the one address classification, text parsing, subnet arithmetic. */
#include "cmocka_helpers.h"

#include <string.h>

#include "util/addr.h"

static void test_classify(void **state)
{
	static const struct {
		const char *text;
		enum addr_class c;
	} rows[] = {
		{ "10.1.2.3", ADDR_PRIVATE }, { "172.16.0.1", ADDR_PRIVATE }, { "172.32.0.1", ADDR_PUBLIC },
		{ "192.168.9.9", ADDR_PRIVATE }, { "100.64.0.1", ADDR_CGNAT }, { "100.128.0.1", ADDR_PUBLIC },
		{ "127.0.0.53", ADDR_LOOPBACK }, { "::1", ADDR_LOOPBACK }, { "::ffff:127.0.0.1", ADDR_LOOPBACK },
		{ "169.254.1.1", ADDR_LINK_LOCAL }, { "fe80::1%eth0", ADDR_LINK_LOCAL },
		{ "203.0.113.10", ADDR_DOCUMENTATION }, { "2001:db8::1", ADDR_DOCUMENTATION },
		{ "fd00::1", ADDR_PRIVATE }, { "0.0.0.0", ADDR_UNSPECIFIED }, { "::", ADDR_UNSPECIFIED },
		{ "224.0.0.1", ADDR_MULTICAST }, { "ff02::1", ADDR_MULTICAST }, { "8.8.8.8", ADDR_PUBLIC },
		{ "2606:4700::1", ADDR_PUBLIC }, { "eth0", ADDR_UNKNOWN }, { "", ADDR_UNKNOWN },
		{ "10.0.0.256", ADDR_UNKNOWN },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (addr_classify_text(rows[i].text) != rows[i].c)
			fail_msg("%s is %s, expected %s", rows[i].text, addr_class_name(addr_classify_text(rows[i].text)),
				 addr_class_name(rows[i].c));
	assert_int_equal(addr_classify_text(NULL), ADDR_UNKNOWN);
	assert_string_equal(addr_class_name(ADDR_CGNAT), "cgnat");
	assert_true(addr_class_public_like(ADDR_DOCUMENTATION));
	assert_false(addr_class_public_like(ADDR_PRIVATE));
}

static void test_subnets(void **state)
{
	unsigned char a[16], b[16];
	char buf[64];
	int fa, fb;

	(void)state;
	assert_int_equal(addr_parse("10.0.0.2", &fa, a), 0);
	assert_int_equal(fa, 4);
	assert_int_equal(addr_parse("10.0.0.77", &fb, b), 0);
	assert_true(addr_same_subnet(4, a, b, 24));
	assert_false(addr_same_subnet(4, a, b, 26));
	assert_true(addr_same_subnet(4, a, b, 0));
	assert_false(addr_same_subnet(4, a, b, 33));	/* out of range never matches */
	assert_false(addr_same_subnet(4, a, b, -1));
	addr_subnet_text(4, a, 24, "10.0.0.2", buf, sizeof(buf));
	assert_string_equal(buf, "10.0.0.0/24");
	addr_subnet_text(4, a, 99, "10.0.0.2", buf, sizeof(buf));
	assert_string_equal(buf, "10.0.0.2");
	assert_int_equal(addr_parse("2001:db8:1::5", &fa, a), 0);
	assert_int_equal(fa, 6);
	addr_subnet_text(6, a, 48, "2001:db8:1::5", buf, sizeof(buf));
	assert_string_equal(buf, "2001:db8:1::/48");
	assert_int_equal(addr_parse("nope", &fa, a), -1);
	assert_int_equal(addr_parse(NULL, &fa, a), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_subnets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
