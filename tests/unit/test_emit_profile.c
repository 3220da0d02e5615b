/*
 * emit/profile.c: every cloud profile line is held against NCCL's variable table (the name
 * exists, NCCL still reads it, NCCL owns it) and against the advice no writer may repeat; a
 * profile written for a host without RDMA sets no InfiniBand/RoCE variable.
 */
#include "cmocka_helpers.h"

#include <stdlib.h>

#include "emit/emit.h"
#include "model/nccl_vars.h"
#include "model/stack_tables.h"

static const char *const banned[] = {
	"NCCL_ALGO", "NCCL_PROTO", "NCCL_BLOCKING_WAIT", "NCCL_ASYNC_ERROR_HANDLING", "NCCL_TIMEOUT",
	"NCCL_PORT_RANGE", "FI_EFA_USE_DEVICE_RDMA", "FI_EFA_FORK_SAFE", "RDMAV_FORK_SAFE",
	"FI_PROVIDER", "NCCL_LAUNCH_MODE",
};

static void check_name(const char *name, const char *value, const char *where)
{
	for (size_t i = 0; i < sizeof(banned) / sizeof(banned[0]); i++)
		if (!strcmp(banned[i], name))
			fail_msg("%s: %s is advice ncclcheck never writes", where, name);
	if (!strcmp(name, "NCCL_IB_DISABLE") && value && !strcmp(value, "0"))
		fail_msg("%s: NCCL_IB_DISABLE=0", where);
	if (!strncmp(name, "NCCL_", 5)) {
		const struct nccl_var *v = nccl_var_find(name);
		if (!v)
			fail_msg("%s: %s is not a variable NCCL reads", where, name);
		if (v->gone)
			fail_msg("%s: NCCL stopped reading %s in %s", where, name, v->gone);
		if (v->owner != NV_OWN_NCCL)
			fail_msg("%s: %s is not read by NCCL at run time", where, name);
		if (stack_find_renamed(name))
			fail_msg("%s: %s is torch's renamed variable", where, name);
	} else if (!emit_known_foreign_name(name)) {
		fail_msg("%s: %s is neither NCCL's nor a known Gloo/torch/libfabric name", where, name);
	}
}

static void test_table(void **state)
{
	(void)state;
	assert_true(emit_profile_count > 0);
	for (size_t i = 0; i < emit_profile_count; i++) {
		const struct profile_line *l = &emit_profile_lines[i];
		char where[64];
		snprintf(where, sizeof(where), "profile %s line %zu", emit_cloud_name(l->cloud), i);
		check_name(l->name, l->value, where);
		assert_non_null(l->why);
		assert_true(strlen(l->why) > 10);
	}
}

static void test_every_profile(void **state)
{
	static const char *const clouds[] = { "generic", "autodl", "aws", "aliyun", "azure", "gcp", "oci" };
	(void)state;

	for (size_t c = 0; c < sizeof(clouds) / sizeof(clouds[0]); c++) {
		for (int rdma = 0; rdma <= 1; rdma++) {
			struct recommendation *rec = rec_new();
			enum emit_cloud cl;
			struct strbuf sb = STRBUF_INIT;

			assert_int_equal(emit_cloud_parse(clouds[c], &cl), 0);
			rec->nodes = 2;
			rec->gpus_per_node = 8;
			rec_defaults(rec);
			if (rdma) {
				rec->rdma = 2;
				rec->rdma_devs = strdup("erdma_0,mlx5_0");
			}
			/* a measured setting and what old recipes say */
			rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_SOCKET_IFNAME", "eth1", "measured", NULL);
			rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "FI_EFA_USE_DEVICE_RDMA", "1", NULL, NULL);
			rec_set(rec, WHERE_ENV, SCOPE_ALL, NULL, "NCCL_PROTO", "simple", NULL, NULL);
			rec_apply_cloud(rec, cl);
			for (size_t i = 0; i < rec->n; i++) {
				char where[64];
				snprintf(where, sizeof(where), "--cloud %s%s", clouds[c], rdma ? " (RDMA)" : "");
				check_name(rec->v[i].name, rec->v[i].value, where);
				if (!rdma && !strncmp(rec->v[i].name, "NCCL_IB_", 8))
					fail_msg("--cloud %s without RDMA sets %s", clouds[c], rec->v[i].name);
			}
			/* the measured interface wins over any profile */
			assert_string_equal(rec_get(rec, "NCCL_SOCKET_IFNAME")->value, "eth1");
			emit_env(&sb, rec);
			if (strstr(sb.buf, "export NCCL_PROTO") || strstr(sb.buf, "export FI_EFA_USE_DEVICE_RDMA"))
				fail_msg("--cloud %s wrote obsolete advice:\n%s", clouds[c], sb.buf);
			strbuf_release(&sb);
			rec_free(rec);
		}
	}
}

static void test_gates(void **state)
{
	struct recommendation *rec = rec_new();
	enum emit_cloud cl;
	(void)state;

	assert_int_equal(emit_cloud_parse("alibaba", &cl), 0);
	assert_int_equal(cl, EMIT_CLOUD_ALIYUN);
	assert_int_equal(emit_cloud_parse("ibm", &cl), -1);
	assert_int_equal(emit_cloud_from_provider("alibaba"), EMIT_CLOUD_ALIYUN);
	assert_int_equal(emit_cloud_from_provider(NULL), EMIT_CLOUD_GENERIC);

	/* OCI with NCCL 2.28: the GID index is NCCL's own choice, the HCA list is the measured one */
	rec->rdma = 2;
	rec->rdma_devs = strdup("mlx5_0,mlx5_1");
	rec->nccl_version = strdup("2.28.9");
	rec_apply_cloud(rec, EMIT_CLOUD_OCI);
	assert_null(rec_get(rec, "NCCL_IB_GID_INDEX"));
	assert_string_equal(rec_get(rec, "NCCL_IB_HCA")->value, "=mlx5_0,mlx5_1");
	assert_string_equal(rec_get(rec, "NCCL_IB_TC")->value, "41");
	rec_free(rec);

	/* Alibaba's eRDMA lines need an eRDMA device, not any RDMA device */
	rec = rec_new();
	rec->rdma = 1;
	rec->rdma_devs = strdup("mlx5_0");
	rec_apply_cloud(rec, EMIT_CLOUD_ALIYUN);
	assert_null(rec_get(rec, "NCCL_IB_HCA"));
	rec_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_every_profile),
		cmocka_unit_test(test_gates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
