/*
 * The firewall parsers (probe/firewall.c) on real `iptables-save` and `nft -j list ruleset`
 * output kept in tests/fixtures/firewall/, and the evaluation model (rules/fwmodel.c) on them:
 * jumps, policies, conntrack states, negations, source subnets, nft sets and ranges.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/firewall.h"
#include "model/fwmodel.h"
#include "util/err.h"
#include "util/file.h"
#include "util/strbuf.h"

static json_t *parse_fixture(const char *name, int nft, int skip_xt)
{
	char path[4096];
	struct strbuf sb = STRBUF_INIT;
	struct err e = ERR_INIT;
	json_t *fw = json_object();

	snprintf(path, sizeof(path), "%s/firewall/%s", FIXTURES_DIR, name);
	if (file_read(path, &sb, 1 << 20, &e) < 0)
		fail_msg("%s", e.msg);
	if (nft)
		assert_true(fw_parse_nft_json(sb.buf, sb.len, skip_xt, fw) >= 0);
	else
		assert_true(fw_parse_iptables_save(sb.buf, sb.len, "ip", fw) > 0);
	strbuf_release(&sb);
	return fw;
}

static enum fw_verdict verdict(const struct fw_model *m, const char *iface, const char *src, long port,
			       struct fw_result *r)
{
	struct fw_packet p = { 4, iface, src, port };

	fw_eval(m, &p, r);
	return r->verdict;
}

static void test_ufw(void **state)
{
	json_t *fw = parse_fixture("iptables_ufw.txt", 0, 0);
	struct fw_model *m = fw_model_new(fw);
	struct fw_result r;

	(void)state;
	assert_int_equal(json_array_size(json_object_get(fw, "chains")), 7);
	assert_int_equal(json_array_size(json_object_get(fw, "rules")), 12);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(fw, "rules"), 0), "action")), "JUMP");
	/* the store port is allowed through the user chain, everything else meets policy DROP */
	assert_int_equal(verdict(m, "eth1", NULL, 29500, &r), FW_ACCEPT);
	assert_non_null(strstr(r.rule, "--dport 29500"));
	assert_int_equal(verdict(m, "eth1", NULL, 40000, &r), FW_DROP);
	assert_null(r.rule);
	assert_string_equal(r.chain, "INPUT");
	assert_int_equal(verdict(m, "lo", NULL, 40000, &r), FW_ACCEPT);
	fw_model_free(m);
	json_decref(fw);
}

static void test_iptables_nccl(void **state)
{
	json_t *fw = parse_fixture("iptables_nccl.txt", 0, 0), *r0;
	struct fw_model *m = fw_model_new(fw);
	struct fw_result r;
	struct fw_span spans[8];
	size_t n;

	(void)state;
	r0 = json_array_get(json_object_get(fw, "rules"), 2);
	assert_string_equal(json_string_value(json_object_get(r0, "src")), "10.0.0.0/8");
	assert_int_equal(json_array_size(json_object_get(r0, "dports")), 2);
	assert_false(json_is_true(json_object_get(r0, "conditional")));
	/* peers in 10/8 get in on the listed ports */
	assert_int_equal(verdict(m, "eth1", "10.0.0.5", 40000, &r), FW_ACCEPT);
	assert_int_equal(verdict(m, "eth1", "10.0.0.5", 29500, &r), FW_ACCEPT);
	/* others fall through the user chain to policy DROP */
	assert_int_equal(verdict(m, "eth1", "192.168.1.1", 40000, &r), FW_DROP);
	assert_int_equal(verdict(m, "eth0", "192.168.1.1", 1500, &r), FW_REJECT);
	assert_non_null(strstr(r.rule, "! -i eth1"));
	assert_int_equal(verdict(m, "eth1", "192.168.1.1", 1500, &r), FW_DROP);
	/* without the peer's address the source rule cannot be judged */
	verdict(m, "eth1", NULL, 40000, &r);
	assert_true(r.uncertain);

	n = fw_scan(m, 4, "eth1", "10.0.0.5", 29000, 33000, spans, 8);
	assert_int_equal(n, 4);
	assert_int_equal(spans[0].lo, 29000);
	assert_int_equal(spans[0].hi, 29499);
	assert_int_equal(spans[0].r.verdict, FW_DROP);
	assert_int_equal(spans[1].lo, 29500);
	assert_int_equal(spans[1].hi, 29500);
	assert_int_equal(spans[1].r.verdict, FW_ACCEPT);
	assert_int_equal(spans[2].r.verdict, FW_DROP);
	assert_int_equal(spans[3].lo, 32768);
	assert_int_equal(spans[3].hi, 33000);
	assert_int_equal(spans[3].r.verdict, FW_ACCEPT);
	fw_model_free(m);
	json_decref(fw);
}

static void test_nft(void **state)
{
	json_t *fw = parse_fixture("nft_input.json", 1, 0), *r0;
	struct fw_model *m = fw_model_new(fw);
	struct fw_result r;

	(void)state;
	assert_int_equal(json_array_size(json_object_get(fw, "rules")), 3);
	r0 = json_array_get(json_object_get(fw, "rules"), 0);
	assert_string_equal(json_string_value(json_object_get(r0, "iface")), "eth0");
	assert_int_equal(json_array_size(json_object_get(r0, "dports")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(r0, "states"), 0)), "NEW");
	assert_int_equal(verdict(m, "eth0", "10.0.0.1", 40000, &r), FW_DROP);
	assert_string_equal(r.source, "nft");
	assert_int_equal(verdict(m, "eth1", "10.0.0.1", 40000, &r), FW_ACCEPT);
	assert_int_equal(verdict(m, "eth1", "192.168.0.1", 40000, &r), FW_REJECT);
	assert_int_equal(verdict(m, "eth1", "192.168.0.1", 5000, &r), FW_DROP);
	assert_null(r.rule);
	assert_string_equal(r.family, "inet");
	fw_model_free(m);
	json_decref(fw);

	/* iptables-nft's own tables: skipped when iptables-save reported them, else opaque */
	fw = parse_fixture("nft_xt.json", 1, 1);
	assert_int_equal(json_array_size(json_object_get(fw, "rules")), 0);
	json_decref(fw);
	fw = parse_fixture("nft_xt.json", 1, 0);
	r0 = json_array_get(json_object_get(fw, "rules"), 1);
	assert_true(json_is_true(json_object_get(r0, "conditional")));
	m = fw_model_new(fw);
	verdict(m, "eth1", NULL, 40000, &r);
	assert_true(r.uncertain);
	fw_model_free(m);
	json_decref(fw);
}

static void test_garbage(void **state)
{
	static const char *const junk[] = {
		"", "*filter\n-A\n-A INPUT -p\n-A INPUT --dport 99999:1 -j DROP\n-A INPUT -j\n:\n",
		"*filter\n-A INPUT \"unterminated -j DROP\n",
	};
	static const char nul[] = "\x01\x02*filter\n-A INPUT -m\0 -j DROP";
	const char *nftj = "{\"nftables\":[{\"rule\":{\"family\":1}},{\"chain\":[]},7]}";
	json_t *fw = json_object();
	struct fw_model *m;
	struct fw_result r;

	(void)state;
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		fw_parse_iptables_save(junk[i], strlen(junk[i]), "ip", fw);
	fw_parse_iptables_save(nul, sizeof(nul) - 1, "ip", fw);
	assert_int_equal(fw_parse_nft_json("not json", 8, 0, fw), -1);
	assert_int_equal(fw_parse_nft_json(nftj, strlen(nftj), 0, fw), 1);
	m = fw_model_new(fw);
	verdict(m, "eth0", NULL, 1, &r);
	fw_model_free(m);
	json_decref(fw);
	assert_null(fw_model_new(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ufw),
		cmocka_unit_test(test_iptables_nccl),
		cmocka_unit_test(test_nft),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
