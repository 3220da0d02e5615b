/*
 * NCCL_* lint (rules/envlint.c): each case is a facts document and the finding NCCL's own parsing
 * implies, with its severity and fix. Also the variable table and the config-file precedence.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "model/nccl_vars.h"
#include "rules/rules.h"

/* Runs the lint on facts built from `env` and `extra` (more top-level members, may be ""). */
static struct findings *lint(const char *version, const char *env, const char *extra)
{
	char buf[8192];
	json_t *facts;
	struct findings *fs = findings_new();

	snprintf(buf, sizeof(buf),
		 "{\"schema_version\":1,\"env\":{%s},"
		 "\"net\":{\"assume_nccl\":\"%s\",\"ifaddrs\":[{\"ifname\":\"lo\",\"family\":4,\"addr\":\"127.0.0.1\","
		 "\"prefixlen\":8,\"flags\":{\"running\":true}},{\"ifname\":\"eth0\",\"family\":4,\"addr\":\"10.0.0.2\","
		 "\"prefixlen\":24,\"flags\":{\"running\":true}}]}%s%s}",
		 env, version, *extra ? "," : "", extra);
	facts = json_lit(buf);
	run_rule(rule_nccl_env, facts, fs);
	/* findings borrow nothing from the facts: free them now to prove it */
	json_decref(facts);
	return fs;
}




static int title_has(const struct finding *f, const char *s)
{
	return strstr(f->title, s) != NULL;
}

static void test_unknown_names(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.28.9", "\"NCCL_SOCKET_IFNAM\":\"eth1\"", "");
	f = expect_finding(fs, "nccl.env.unknown", SEV_WARN);
	assert_true(title_has(f, "did you mean NCCL_SOCKET_IFNAME"));
	assert_true(finding_has_fix(f, "unset NCCL_SOCKET_IFNAM"));
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_IFNAME=eth1"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_SOCKET_NAME\":\"eth1\"", "");
	f = expect_finding(fs, "nccl.env.unknown", SEV_WARN);
	assert_true(title_has(f, "did you mean NCCL_SOCKET_IFNAME"));
	findings_free(fs);

	/* PyTorch's, plugins' and containers' own NCCL_ names are not NCCL's business */
	fs = lint("2.28.9", "\"NCCL_BLOCKING_WAIT\":\"1\",\"NCCL_ASYNC_ERROR_HANDLING\":\"1\",\"NCCL_OFI_USE_GDRCOPY\":\"1\","
		  "\"NCCL_VERSION\":\"2.28.9\",\"NCCL_GPUDIRECTTCPX_CTRL_DEV\":\"eth0\"", "");
	expect_no_finding(fs, "nccl.env.unknown");
	findings_free(fs);
}

static void test_integers(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.28.9", "\"NCCL_IB_DISABLE\":\"true\"", "");
	f = expect_finding(fs, "nccl.env.int", SEV_WARN);
	assert_true(title_has(f, "NCCL_IB_DISABLE='true' is read as 0: InfiniBand stays enabled"));
	assert_true(finding_has_fix(f, "export NCCL_IB_DISABLE=1"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_BUFFSIZE\":\"4M\"", "");
	f = expect_finding(fs, "nccl.env.int", SEV_WARN);
	assert_true(title_has(f, "read as 4"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_IB_TIMEOUT\":\"010\"", "");
	f = expect_finding(fs, "nccl.env.int", SEV_WARN);
	assert_true(title_has(f, "octal"));
	assert_true(title_has(f, "reads 8"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_IB_RETRY_CNT\":\"9\"", "");
	expect_finding(fs, "nccl.env.range", SEV_WARN);
	findings_free(fs);

	/* the documented sentinel defaults are allowed */
	fs = lint("2.28.9", "\"NCCL_SOCKET_NTHREADS\":\"-2\",\"NCCL_IB_SL\":\"-1\"", "");
	expect_no_finding(fs, "nccl.env.range");
	expect_finding(fs, "nccl.env.ok", SEV_OK);
	findings_free(fs);
}

static void test_tuning(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* both seeds: NCCL_ALGO=Tree / Ring, NCCL_PROTO=Simple */
	fs = lint("2.28.9", "\"NCCL_ALGO\":\"Tree\",\"NCCL_PROTO\":\"simple\"", "");
	f = expect_finding(fs, "nccl.env.algo_forced", SEV_WARN);
	assert_true(strstr(f->why, "debugging"));
	assert_true(finding_has_fix(f, "unset NCCL_ALGO"));
	expect_finding(fs, "nccl.env.proto_forced", SEV_WARN);
	findings_free(fs);

	/* unknown token: fatal from 2.24, silently ignored before */
	fs = lint("2.28.9", "\"NCCL_ALGO\":\"Ring, Tree\"", "");
	f = expect_finding(fs, "nccl.env.tuning_syntax", SEV_ERROR);
	assert_true(title_has(f, "' Tree'"));
	findings_free(fs);
	fs = lint("2.21.5", "\"NCCL_ALGO\":\"Ring, Tree\"", "");
	expect_finding(fs, "nccl.env.tuning_syntax", SEV_WARN);
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_ALGO\":\"allreduce:tree;ring\"", "");
	expect_finding(fs, "nccl.env.tuning_syntax", SEV_ERROR);
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_PROTO\":\"LL,Simple;allreduce:^LL\"", "");
	expect_no_finding(fs, "nccl.env.tuning_syntax");
	expect_finding(fs, "nccl.env.proto_forced", SEV_WARN);
	findings_free(fs);
}

static void test_sockets(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.28.9", "\"NCCL_NSOCKS_PERTHREAD\":\"32\",\"NCCL_SOCKET_NTHREADS\":\"4\"", "");
	f = expect_finding(fs, "nccl.env.sockets", SEV_WARN);
	assert_true(title_has(f, "32 x 4 = 128"));
	assert_true(finding_has_fix(f, "export NCCL_NSOCKS_PERTHREAD=16"));
	findings_free(fs);

	/* the first seed: NSOCKS alone on an ordinary NIC does nothing */
	fs = lint("2.28.9", "\"NCCL_NSOCKS_PERTHREAD\":\"4\"",
		  "\"net2\":0");
	f = expect_finding(fs, "nccl.env.sockets", SEV_WARN);
	assert_true(title_has(f, "has no effect"));
	findings_free(fs);

	/* the second seed's 4 x 2 is fine */
	fs = lint("2.28.9", "\"NCCL_NSOCKS_PERTHREAD\":\"4\",\"NCCL_SOCKET_NTHREADS\":\"2\"", "");
	expect_no_finding(fs, "nccl.env.sockets");
	findings_free(fs);
}

static void test_sockets_aws(void **state)
{
	struct findings *fs = findings_new();
	json_t *facts;

	(void)state;
	/* on an AWS ENA NIC NCCL's automatic thread count is 2: NSOCKS alone does take effect */
	facts = json_lit("{\"env\":{\"NCCL_NSOCKS_PERTHREAD\":\"4\"},\"net\":{\"assume_nccl\":\"2.28.9\","
			 "\"ifaddrs\":[{\"ifname\":\"ens5\",\"family\":4,\"addr\":\"10.0.0.2\",\"prefixlen\":24}],"
			 "\"interfaces\":[{\"name\":\"ens5\",\"vendor\":\"0x1d0f\"}]}}");
	run_rule(rule_nccl_env, facts, fs);
	expect_no_finding(fs, "nccl.env.sockets");
	json_decref(facts);
	findings_free(fs);
}

static void test_hardware(void **state)
{
	static const char rdma[] = "\"rdma\":{\"devices\":[{\"name\":\"mlx5_0\",\"ports\":[{\"port\":1,"
				   "\"state\":\"ACTIVE\",\"link_layer\":\"InfiniBand\"}]}],\"verbs\":{\"loaded\":true}}";
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.28.9", "\"NCCL_IB_DISABLE\":\"1\"", rdma);
	f = expect_finding(fs, "nccl.env.ib_disabled", SEV_WARN);
	assert_true(title_has(f, "mlx5_0:1/InfiniBand"));
	findings_free(fs);

	/* the second seed on a machine without IB: nothing to say */
	fs = lint("2.28.9", "\"NCCL_IB_DISABLE\":\"1\"", "\"rdma\":{\"devices\":[]}");
	expect_no_finding(fs, "nccl.env.ib_disabled");
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_NET\":\"IB\"", "\"rdma\":{\"devices\":[]}");
	f = expect_finding(fs, "nccl.env.net_ib", SEV_ERROR);
	assert_true(finding_has_fix(f, "unset NCCL_NET"));
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_NET\":\"IB\"", rdma);
	expect_no_finding(fs, "nccl.env.net_ib");
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_NET\":\"Libfabric\"", "\"nccl\":{\"plugins\":[]}");
	expect_finding(fs, "nccl.env.net_unknown", SEV_ERROR);
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_NET\":\"ofi\"", "\"nccl\":{\"plugins\":[{\"name\":\"libnccl-net-ofi.so\"}]}");
	expect_no_finding(fs, "nccl.env.net_unknown");
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_IB_HCA\":\"=mlx5_9\"", rdma);
	expect_finding(fs, "nccl.env.ib_hca_nomatch", SEV_WARN);
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_IB_HCA\":\"mlx5\"", rdma);
	expect_no_finding(fs, "nccl.env.ib_hca_nomatch");
	findings_free(fs);
}

/* rules/other_ccl.c over the same facts as lint(): "" as version leaves NCCL unknown */
static struct findings *other_ccl(const char *version, const char *env, const char *extra)
{
	char buf[4096];
	json_t *facts;
	struct findings *fs = findings_new();

	snprintf(buf, sizeof(buf), "{\"schema_version\":1,\"env\":{%s},\"net\":{%s%s%s}%s%s}", env,
		 *version ? "\"assume_nccl\":\"" : "", version, *version ? "\"" : "",
		 *extra ? "," : "", extra);
	facts = json_lit(buf);
	run_rule(rule_other_ccl, facts, fs);
	json_decref(facts);
	return fs;
}

static void test_other_ccl(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* an Ascend recipe on an NCCL node: every HCCL_* variable named, unset, its twin named */
	fs = other_ccl("2.28.9", "\"HCCL_CONNECT_TIMEOUT\":\"1200\",\"NCCL_DEBUG\":\"WARN\","
		       "\"HCCL_SOCKET_IFNAME\":\"eth1\"", "");
	f = expect_finding(fs, "nccl.env.other_ccl", SEV_WARN);
	assert_non_null(strstr(f->title, "HCCL_CONNECT_TIMEOUT, HCCL_SOCKET_IFNAME set: Huawei "
					 "Ascend's HCCL reads them"));
	assert_null(strstr(f->title, "NCCL_DEBUG"));
	assert_true(finding_has_fix(f, "unset HCCL_CONNECT_TIMEOUT"));
	assert_true(finding_has_fix(f, "unset HCCL_SOCKET_IFNAME"));
	assert_true(finding_fix_contains(f, "# NCCL's own variable for HCCL_SOCKET_IFNAME is "
					 "NCCL_SOCKET_IFNAME:"));
	assert_null(finding_find_setting(f, "NCCL_SOCKET_IFNAME"));	/* never copied over */
	assert_non_null(finding_find_setting(f, "HCCL_SOCKET_IFNAME"));
	assert_null(finding_find_setting(f, "HCCL_SOCKET_IFNAME")->value);
	findings_free(fs);

	/* MetaX's clones: one finding per library */
	fs = other_ccl("2.28.9", "\"MCCL_P2P_LEVEL\":\"SYS\",\"HCCL_IF_IP\":\"10.0.0.2\"", "");
	assert_int_equal(fs->n, 2);
	assert_non_null(strstr(fs->v[1]->title, "MCCL_P2P_LEVEL set: MetaX's MCCL"));
	findings_free(fs);

	/* no NCCL known and no NVIDIA driver: an Ascend node's own settings are not ours to judge */
	fs = other_ccl("", "\"HCCL_IF_IP\":\"10.0.0.2\"", "");
	expect_no_finding(fs, "nccl.env.other_ccl");
	findings_free(fs);
	fs = other_ccl("", "\"HCCL_IF_IP\":\"10.0.0.2\"", "\"driver\":{\"present\":true}");
	expect_finding(fs, "nccl.env.other_ccl", SEV_WARN);
	findings_free(fs);
	fs = other_ccl("2.28.9", "\"NCCL_DEBUG\":\"WARN\"", "");
	expect_no_finding(fs, "nccl.env.other_ccl");
	findings_free(fs);
}

static void test_values(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.28.9", "\"NCCL_DEBUG\":\"INFO\"", "");
	f = expect_finding(fs, "nccl.env.debug", SEV_INFO);
	assert_true(finding_has_fix(f, "export NCCL_DEBUG=WARN"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_DEBUG\":\"verbose\"", "");
	f = expect_finding(fs, "nccl.env.value", SEV_WARN);
	assert_true(title_has(f, "prints nothing"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_SOCKET_FAMILY\":\"af_inet\"", "");
	f = expect_finding(fs, "nccl.env.value", SEV_WARN);
	assert_true(strstr(f->why, "case matters"));
	assert_true(finding_has_fix(f, "export NCCL_SOCKET_FAMILY=AF_INET"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_LAUNCH_MODE\":\"PARALLEL\"", "");
	expect_finding(fs, "nccl.env.launch_mode", SEV_INFO);
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_BUFFSIZE\":\"4194304\"", "");
	expect_finding(fs, "nccl.env.buffsize", SEV_INFO);
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_BUFFSIZE\":\"3000000\"", "");
	expect_finding(fs, "nccl.env.buffsize", SEV_WARN);
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_P2P_LEVEL\":\"nvl\"", "");
	f = expect_finding(fs, "nccl.env.value", SEV_WARN);
	assert_true(finding_has_fix(f, "export NCCL_P2P_LEVEL=NVL"));
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_NET_GDR_LEVEL\":\"5\",\"NCCL_P2P_LEVEL\":\"C2C\"", "");
	expect_no_finding(fs, "nccl.env.value");
	findings_free(fs);
	fs = lint("2.26.6", "\"NCCL_P2P_LEVEL\":\"C2C\"", "");
	expect_finding(fs, "nccl.env.value", SEV_WARN);
	findings_free(fs);
}

static void test_versions(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.21.5", "\"NCCL_CONF_FILE\":\"/opt/nccl.conf\"", "");
	f = expect_finding(fs, "nccl.env.too_new", SEV_WARN);
	assert_true(title_has(f, "read from NCCL 2.23.4 on; this job loads 2.21.5"));
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_WORK_FIFO_DEPTH\":\"65536\"", "");
	expect_finding(fs, "nccl.env.removed", SEV_WARN);
	findings_free(fs);

	fs = lint("2.28.9", "\"NCCL_LL_THRESHOLD\":\"0\"", "");
	expect_finding(fs, "nccl.env.removed", SEV_WARN);
	findings_free(fs);
}

static void test_conf_files(void **state)
{
	struct findings *fs;
	const struct finding *f;
	struct nccl_settings s;
	json_t *facts;

	(void)state;
	/* the file's value is linted and attributed to its line; a key with a space is lost */
	fs = lint("2.28.9", "",
		  "\"nccl\":{\"conf\":[{\"path\":\"/etc/nccl.conf\",\"source\":\"/etc/nccl.conf\","
		  "\"vars\":{\"NCCL_IB_DISABLE\":\"yes\",\"NCCL_DEBUG \":\" INFO\"},\"lines\":{\"NCCL_IB_DISABLE\":3}}]}");
	f = expect_finding(fs, "nccl.env.int", SEV_WARN);
	assert_string_equal(f->evidence[0], "NCCL_IB_DISABLE=yes (source: /etc/nccl.conf line 3)");
	assert_true(finding_has_fix(f, "sed -i 's|^NCCL_IB_DISABLE=.*|NCCL_IB_DISABLE=1|' /etc/nccl.conf"));
	expect_finding(fs, "nccl.env.conf_key", SEV_WARN);
	findings_free(fs);

	/* environment over the file */
	fs = lint("2.28.9", "\"NCCL_DEBUG\":\"WARN\"",
		  "\"nccl\":{\"conf\":[{\"path\":\"/etc/nccl.conf\",\"source\":\"/etc/nccl.conf\","
		  "\"vars\":{\"NCCL_DEBUG\":\"INFO\"}}]}");
	f = expect_finding(fs, "nccl.env.shadowed", SEV_INFO);
	assert_true(title_has(f, "NCCL_DEBUG=INFO in /etc/nccl.conf is overridden by NCCL_DEBUG=WARN from environment"));
	expect_no_finding(fs, "nccl.env.debug");
	findings_free(fs);

	/* NCCL_CONF_FILE replaces ~/.nccl.conf from 2.23 on, and is ignored before */
	facts = json_lit("{\"env\":{\"NCCL_CONF_FILE\":\"/opt/my.conf\"},\"nccl\":{\"conf\":["
			 "{\"path\":\"/opt/my.conf\",\"source\":\"NCCL_CONF_FILE\",\"vars\":{\"NCCL_ALGO\":\"Ring\"}},"
			 "{\"path\":\"/root/.nccl.conf\",\"source\":\"~/.nccl.conf\",\"vars\":{\"NCCL_ALGO\":\"Tree\","
			 "\"NCCL_PROTO\":\"LL\"}},"
			 "{\"path\":\"/etc/nccl.conf\",\"source\":\"/etc/nccl.conf\",\"vars\":{\"NCCL_ALGO\":\"NVLS\","
			 "\"NCCL_DEBUG\":\"WARN\"}}]}}");
	nccl_settings_collect(facts, "2.28.9", &s);
	assert_string_equal(nccl_settings_get(&s, "NCCL_ALGO")->value, "Ring");
	assert_null(nccl_settings_get(&s, "NCCL_PROTO"));
	assert_string_equal(nccl_settings_get(&s, "NCCL_DEBUG")->value, "WARN");
	assert_string_equal(s.skipped_conf, "/root/.nccl.conf");
	nccl_settings_release(&s);
	nccl_settings_collect(facts, "2.21.5", &s);
	assert_string_equal(nccl_settings_get(&s, "NCCL_ALGO")->value, "Tree");
	assert_string_equal(nccl_settings_get(&s, "NCCL_PROTO")->source, "/root/.nccl.conf");
	assert_string_equal(s.skipped_conf, "/opt/my.conf");
	nccl_settings_release(&s);
	json_decref(facts);
}

static void test_table(void **state)
{
	const struct nccl_var *v;
	enum nv_parse how;

	(void)state;
	/* every name is unique and looks like an NCCL variable */
	for (size_t i = 0; i < nccl_vars_count; i++) {
		assert_int_equal(strncmp(nccl_vars[i].name, "NCCL_", 5), 0);
		for (size_t j = i + 1; j < nccl_vars_count; j++)
			if (!strcmp(nccl_vars[i].name, nccl_vars[j].name))
				fail_msg("duplicate %s", nccl_vars[i].name);
	}
	assert_true(nccl_vars_count > 250);
	v = nccl_var_find("NCCL_SOCKET_IFNAME");
	assert_non_null(v);
	assert_int_equal(v->type, NV_IFLIST);
	v = nccl_var_find("NCCL_IB_TIMEOUT");
	assert_string_equal(v->def, "20");
	assert_string_equal(nccl_var_find("NCCL_CONF_FILE")->since, "2.23.4");
	assert_string_equal(nccl_var_find("NCCL_SOCKET_RETRY_CNT")->since, "2.24.3");
	assert_null(nccl_var_find("NCCL_BLOCKING_WAIT"));

	assert_int_equal(nccl_parse_int("true", &how), 0);
	assert_int_equal(how, NV_PARSE_JUNK);
	assert_int_equal(nccl_parse_int("0x10", &how), 16);
	assert_int_equal(how, NV_PARSE_HEX);
	assert_int_equal(nccl_parse_int("-2", &how), -2);
	assert_int_equal(how, NV_PARSE_OK);
	assert_int_equal(nccl_parse_int("99999999999999999999", &how), 0);
	assert_int_equal(how, NV_PARSE_RANGE);
	nccl_parse_int("", &how);
	assert_int_equal(how, NV_PARSE_EMPTY);
}

/* A setting of finding `f`: `name` with `value` (NULL: unset) where `where` says. */
static void expect_setting(const struct finding *f, const char *name, const char *value,
			   enum setting_where where)
{
	const struct setting *st = finding_find_setting(f, name);

	if (!st)
		fail_msg("finding '%s' has no setting %s", f->id, name);
	if (value)
		assert_string_equal(st->value, value);
	else
		assert_null(st->value);
	assert_int_equal(st->where, where);
}

/* The lints no other test reached, each with the fix as data. */
static void test_more_lints(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	fs = lint("2.28.9", "\"NCCL_P2P_DISABLE\":\"1\",\"NCCL_SHM_DISABLE\":\"1\",\"NCCL_COMM_BLOCKING\":\"0\","
		  "\"NCCL_IB_GID_INDEX\":\"3\",\"NCCL_NTHREADS\":\"\"", "");
	f = expect_finding(fs, "nccl.env.p2p_disabled", SEV_WARN);
	expect_setting(f, "NCCL_P2P_DISABLE", NULL, WHERE_ENV);
	assert_true(finding_has_fix(f, "unset NCCL_P2P_DISABLE"));
	f = expect_finding(fs, "nccl.env.shm_disabled", SEV_WARN);
	expect_setting(f, "NCCL_SHM_DISABLE", NULL, WHERE_ENV);
	f = expect_finding(fs, "nccl.env.comm_blocking", SEV_WARN);
	expect_setting(f, "NCCL_COMM_BLOCKING", NULL, WHERE_ENV);
	expect_finding(fs, "nccl.env.gid_index", SEV_INFO);
	f = expect_finding(fs, "nccl.env.empty", SEV_INFO);
	expect_setting(f, "NCCL_NTHREADS", NULL, WHERE_ENV);
	expect_no_finding(fs, "nccl.env.ok");
	findings_free(fs);

	/* before 2.21 the GID index is the user's to choose */
	fs = lint("2.20.5", "\"NCCL_IB_GID_INDEX\":\"3\"", "");
	expect_no_finding(fs, "nccl.env.gid_index");
	findings_free(fs);

	/* NCCL_NET naming a plugin's network: only the plugin knows its name */
	fs = lint("2.28.9", "\"NCCL_NET\":\"AWS Libfabric\"",
		  "\"nccl\":{\"plugins\":[{\"path\":\"/opt/libnccl-net.so\",\"name\":\"libnccl-net.so\"}]}");
	expect_finding(fs, "nccl.env.net_plugin", SEV_INFO);
	expect_no_finding(fs, "nccl.env.net_unknown");
	findings_free(fs);

	/* from 2.23 NCCL_CONF_FILE replaces ~/.nccl.conf: the home file's settings are not in force */
	fs = lint("2.28.9", "\"NCCL_CONF_FILE\":\"/opt/my.conf\"",
		  "\"nccl\":{\"conf\":[{\"path\":\"/opt/my.conf\",\"source\":\"NCCL_CONF_FILE\","
		  "\"vars\":{\"NCCL_DEBUG\":\"WARN\"}},{\"path\":\"/root/.nccl.conf\",\"source\":\"~/.nccl.conf\","
		  "\"vars\":{\"NCCL_ALGO\":\"Ring\"}}]}");
	f = expect_finding(fs, "nccl.env.conf_skipped", SEV_INFO);
	assert_non_null(strstr(f->title, "/root/.nccl.conf"));
	expect_no_finding(fs, "nccl.env.algo_forced");
	findings_free(fs);
	fs = lint("2.21.5", "\"NCCL_CONF_FILE\":\"/opt/my.conf\"",
		  "\"nccl\":{\"conf\":[{\"path\":\"/opt/my.conf\",\"source\":\"NCCL_CONF_FILE\","
		  "\"vars\":{\"NCCL_DEBUG\":\"WARN\"}}]}");
	f = expect_finding(fs, "nccl.env.conf_skipped", SEV_INFO);
	assert_non_null(strstr(f->title, "/opt/my.conf"));
	findings_free(fs);

	/* a value from a config file is fixed in that file: the setting says nccl.conf */
	fs = lint("2.28.9", "", "\"nccl\":{\"conf\":[{\"path\":\"/etc/nccl.conf\",\"source\":\"/etc/nccl.conf\","
		  "\"vars\":{\"NCCL_P2P_DISABLE\":\"1\"},\"lines\":{\"NCCL_P2P_DISABLE\":2}}]}");
	f = expect_finding(fs, "nccl.env.p2p_disabled", SEV_WARN);
	expect_setting(f, "NCCL_P2P_DISABLE", NULL, WHERE_NCCL_CONF);
	assert_true(finding_fix_contains(f, "sed -i"));
	findings_free(fs);
}

/* One row per class of the 2.31/2.32 additions and the NCCLX-only names. */
static void test_nccl_231_232(void **state)
{
	struct findings *fs;
	const struct finding *f;

	(void)state;
	/* a 2.31 variable under 2.30.7: ignored; under 2.31.2: read */
	fs = lint("2.30.7", "\"NCCL_RUN_DIAGNOSTICS\":\"1\"", "");
	f = expect_finding(fs, "nccl.env.too_new", SEV_WARN);
	assert_true(title_has(f, "read from NCCL 2.31.2 on; this job loads 2.30.7"));
	findings_free(fs);
	fs = lint("2.31.2", "\"NCCL_RUN_DIAGNOSTICS\":\"1\",\"NCCL_IB_PKEY_VALUE\":\"32767\"", "");
	expect_no_finding(fs, "nccl.env.too_new");
	expect_no_finding(fs, "nccl.env.unknown");
	findings_free(fs);
	/* a 2.32 variable under 2.31.2: ignored; under 2.32.3: read */
	fs = lint("2.31.2", "\"NCCL_PROGRESS_COUNTERS\":\"1\"", "");
	f = expect_finding(fs, "nccl.env.too_new", SEV_WARN);
	assert_true(title_has(f, "read from NCCL 2.32.3 on; this job loads 2.31.2"));
	findings_free(fs);
	fs = lint("2.32.6", "\"NCCL_PROGRESS_COUNTERS\":\"1\",\"NCCL_DEBUG_LEVELS\":\"WARN,ATTN\","
		  "\"NCCL_RAS_TIMEOUT_FACTOR\":\"1.5\",\"NCCL_DEBUG\":\"ATTN\"", "");
	assert_int_equal(findings_count(fs, SEV_WARN) + findings_count(fs, SEV_ERROR), 0);
	findings_free(fs);
	/* the RAS timeout factor: strtoll until 2.30, strtod over the whole value from 2.31.2 */
	fs = lint("2.30.7", "\"NCCL_RAS_TIMEOUT_FACTOR\":\"1.5\"", "");
	f = expect_finding(fs, "nccl.env.int", SEV_WARN);
	assert_true(title_has(f, "is read as 1: NCCL ignores the rest"));
	expect_no_finding(fs, "nccl.env.float");
	findings_free(fs);
	fs = lint("2.31.2", "\"NCCL_RAS_TIMEOUT_FACTOR\":\"1.5\"", "");
	expect_no_finding(fs, "nccl.env.int");
	expect_no_finding(fs, "nccl.env.float");
	findings_free(fs);
	for (size_t i = 0; i < 4; i++) {
		static const char *const bad[] = { "2x", "0", "-1", "inf" };
		char env[96];

		snprintf(env, sizeof(env), "\"NCCL_RAS_TIMEOUT_FACTOR\":\"%s\"", bad[i]);
		fs = lint("2.32.3", env, "");
		f = expect_finding(fs, "nccl.env.float", SEV_WARN);
		assert_true(title_has(f, "is not a number above 0: NCCL uses 1"));
		assert_true(finding_fix_contains(f, "unset NCCL_RAS_TIMEOUT_FACTOR"));
		findings_free(fs);
	}
	/* NCCL_DEBUG=ATTN: a level of 2.32.3; older NCCL takes it as unknown and prints nothing */
	fs = lint("2.31.2", "\"NCCL_DEBUG\":\"ATTN\"", "");
	f = expect_finding(fs, "nccl.env.value", SEV_WARN);
	assert_true(title_has(f, "NCCL_DEBUG=ATTN is a value from NCCL 2.32.3 on; NCCL 2.31.2 does not "
			      "know it: it prints nothing at all"));
	assert_true(finding_fix_contains(f, "export NCCL_DEBUG=WARN"));
	findings_free(fs);
	fs = lint("2.32.3", "\"NCCL_DEBUG\":\"attn\"", "");
	expect_no_finding(fs, "nccl.env.value");
	findings_free(fs);
	/* NCCLX-only names are named as such, with the fix to unset them */
	fs = lint("2.28.9", "\"NCCL_SOCKET_IPADDR_PREFIX\":\"10.\"", "");
	f = expect_finding(fs, "nccl.env.ncclx_only", SEV_WARN);
	assert_true(title_has(f, "NCCL_SOCKET_IPADDR_PREFIX is read only by Meta's NCCLX"));
	assert_true(finding_fix_contains(f, "unset NCCL_SOCKET_IPADDR_PREFIX"));
	expect_no_finding(fs, "nccl.env.unknown");
	findings_free(fs);
	fs = lint("2.28.9", "\"NCCL_CLIENT_SOCKET_IFNAME\":\"eth0\",\"NCCL_COLLTRACE\":\"trace\"", "");
	assert_int_equal(findings_count(fs, SEV_WARN), 2);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_nccl_231_232),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_tuning),
		cmocka_unit_test(test_sockets),
		cmocka_unit_test(test_sockets_aws),
		cmocka_unit_test(test_hardware),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_other_ccl),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_conf_files),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_more_lints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
