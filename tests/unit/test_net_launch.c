/* net/launch: Slurm host lists, and rank / count / master from each launcher's environment. */
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "launch/launch.h"

static void expands(const char *expr, const char *want)
{
	struct err e = ERR_INIT;
	char **h;
	size_t n;
	char got[1024] = "";

	if (hostlist_expand(expr, 1000, &h, &n, &e) < 0)
		fail_msg("'%s': %s", expr, e.msg);
	for (size_t i = 0; i < n; i++) {
		strcat(got, i ? " " : "");
		strcat(got, h[i]);
	}
	hostlist_free(h, n);
	if (strcmp(got, want))
		fail_msg("'%s' gave '%s', want '%s'", expr, got, want);
}

static void refuses(const char *expr, const char *want)
{
	struct err e = ERR_INIT;
	char **h;
	size_t n;

	if (hostlist_expand(expr, 1000, &h, &n, &e) == 0)
		fail_msg("'%s' accepted", expr);
	if (!strstr(e.msg, want))
		fail_msg("'%s': '%s' lacks '%s'", expr, e.msg, want);
}

static void hostlists(void **state)
{
	(void)state;
	expands("node[01-03,7],gpu5", "node01 node02 node03 node7 gpu5");
	expands("node[01-04,07],gpu-a[9-11]", "node01 node02 node03 node04 node07 gpu-a9 gpu-a10 gpu-a11");
	expands("n0", "n0");
	expands("a,b,c", "a b c");
	expands("linux[0000-0002]", "linux0000 linux0001 linux0002");
	expands("rack[0-1]_blade[0-1]", "rack0_blade0 rack0_blade1 rack1_blade0 rack1_blade1");
	expands("x[8-10]y", "x8y x9y x10y");
	refuses("", "empty");
	refuses("node[", "unbalanced");
	refuses("node]", "unbalanced");
	refuses("node[3-1]", "backwards");
	refuses("node[a-b]", "not a number");
	refuses("node[]", "empty range");
	refuses("node[1,]", "trailing");
	refuses("a,,b", "empty host name");
	refuses("node[[1]]", "unbalanced");
	refuses("n[0-99999]", "more than 1000");
	refuses("a b", "space");
}

static struct envmap *env(const char *const *kv)
{
	return envmap_new((char *const *)kv);
}

static void detect_ok(const char *const *kv, const struct launch_flags *f, struct launch *l)
{
	struct err e = ERR_INIT;
	struct envmap *em = env(kv);
	struct launch_flags none = { .nodes = -1, .node_rank = -1 };

	if (launch_detect(em, f ? f : &none, l, &e) < 0)
		fail_msg("detect: %s", e.msg);
	envmap_free(em);
}

static void detect_fails(const char *const *kv, const struct launch_flags *f, const char *want)
{
	struct err e = ERR_INIT;
	struct envmap *em = env(kv);
	struct launch_flags none = { .nodes = -1, .node_rank = -1 };
	struct launch l;

	if (launch_detect(em, f ? f : &none, &l, &e) == 0)
		fail_msg("accepted, want '%s'", want);
	if (!strstr(e.msg, want))
		fail_msg("'%s' lacks '%s'", e.msg, want);
	assert_int_equal(e.code, ERR_USAGE);
	envmap_free(em);
}

static void torchrun_style_script(void **state)
{
	const char *kv[] = { "MASTER_ADDR=10.10.0.10", "MASTER_PORT=29500", "NODE_RANK=1", "NNODES=2",
			     "WORLD_SIZE=2", NULL };
	struct launch l;

	(void)state;
	detect_ok(kv, NULL, &l);
	assert_int_equal(l.kind, LAUNCH_ENV);
	assert_string_equal(l.master_addr, "10.10.0.10");
	assert_int_equal(l.master_port, 29500);
	assert_int_equal(l.node_rank, 1);
	assert_int_equal(l.nnodes, 2);
	assert_true(l.participate);
	assert_string_equal(l.src_rank, "NODE_RANK");
	assert_string_equal(l.src_nodes, "NNODES");
	launch_release(&l);
	/* WORLD_SIZE alone, one process per node */
	const char *kv2[] = { "MASTER_ADDR=m", "NODE_RANK=0", "WORLD_SIZE=4", NULL };
	detect_ok(kv2, NULL, &l);
	assert_int_equal(l.nnodes, 4);
	assert_string_equal(l.src_port, "torch's default 29500");
	launch_release(&l);
}

static void torchrun_worker(void **state)
{
	const char *kv[] = { "TORCHELASTIC_RUN_ID=abc", "MASTER_ADDR=h0", "MASTER_PORT=1234",
			     "RANK=9", "LOCAL_RANK=1", "LOCAL_WORLD_SIZE=4", "GROUP_RANK=2",
			     "WORLD_SIZE=16", NULL };
	struct launch l;

	(void)state;
	detect_ok(kv, NULL, &l);
	assert_int_equal(l.kind, LAUNCH_TORCHRUN);
	assert_int_equal(l.node_rank, 2);
	assert_int_equal(l.nnodes, 4);
	assert_int_equal(l.local_rank, 1);
	assert_false(l.participate);
	assert_non_null(strstr(l.note, "only local rank 0"));
	assert_int_equal(l.master_port, 1234);
	launch_release(&l);
}

static void slurm(void **state)
{
	const char *kv[] = { "SLURM_PROCID=3", "SLURM_LOCALID=0", "SLURM_NODEID=1", "SLURM_NNODES=3",
			     "SLURM_JOB_NODELIST=gpu[07-08],login1", NULL };
	struct launch l;

	(void)state;
	detect_ok(kv, NULL, &l);
	assert_int_equal(l.kind, LAUNCH_SLURM);
	assert_string_equal(l.master_addr, "gpu07");
	assert_string_equal(l.src_addr, "the first host of SLURM_JOB_NODELIST");
	assert_int_equal(l.node_rank, 1);
	assert_int_equal(l.nnodes, 3);
	assert_true(l.participate);
	assert_int_equal(l.nhosts, 3);
	assert_string_equal(l.hosts[2], "login1");
	launch_release(&l);
	/* a second task on the node stays out; MASTER_ADDR wins over the list */
	const char *kv2[] = { "SLURM_PROCID=4", "SLURM_LOCALID=1", "SLURM_NODEID=1", "SLURM_NNODES=2",
			      "SLURM_JOB_NODELIST=n[0-1]", "MASTER_ADDR=10.0.0.1", NULL };
	detect_ok(kv2, NULL, &l);
	assert_false(l.participate);
	assert_string_equal(l.master_addr, "10.0.0.1");
	launch_release(&l);
	const char *kv3[] = { "SLURM_PROCID=0", "SLURM_NODEID=0", "SLURM_NNODES=2",
			      "SLURM_JOB_NODELIST=n[0-", NULL };
	detect_fails(kv3, NULL, "SLURM_JOB_NODELIST='n[0-'");
}

static void openmpi(void **state)
{
	const char *kv[] = { "OMPI_COMM_WORLD_RANK=5", "OMPI_COMM_WORLD_SIZE=8",
			     "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=4",
			     "OMPI_COMM_WORLD_NODE_RANK=1", "MASTER_ADDR=n0", "PMIX_RANK=5", NULL };
	struct launch l;

	(void)state;
	detect_ok(kv, NULL, &l);
	assert_int_equal(l.kind, LAUNCH_OMPI);
	assert_int_equal(l.node_rank, 1);
	assert_int_equal(l.nnodes, 2);
	assert_false(l.participate);
	launch_release(&l);
	const char *kv2[] = { "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2",
			      "OMPI_COMM_WORLD_LOCAL_RANK=0", "OMPI_COMM_WORLD_LOCAL_SIZE=1", NULL };
	detect_fails(kv2, NULL, "mpirun -x MASTER_ADDR");
}

static void pmi_and_pmix(void **state)
{
	const char *kv[] = { "PMI_RANK=3", "PMI_SIZE=4", "MPI_LOCALRANKID=1", "MPI_LOCALNRANKS=2",
			     "MASTER_ADDR=h", NULL };
	struct launch l;

	(void)state;
	detect_ok(kv, NULL, &l);
	assert_int_equal(l.kind, LAUNCH_PMI);
	assert_int_equal(l.node_rank, 1);
	assert_int_equal(l.nnodes, 2);
	assert_false(l.participate);
	launch_release(&l);
	const char *kv2[] = { "PMIX_RANK=1", "MASTER_ADDR=h", NULL };
	detect_fails(kv2, NULL, "no node count (pmix launch)");
	const char *kv3[] = { "PMIX_RANK=1", "MASTER_ADDR=h", "NNODES=2", NULL };
	struct launch_flags f = { .nodes = 2, .node_rank = -1 };
	detect_ok(kv3, &f, &l);
	assert_int_equal(l.kind, LAUNCH_PMIX);
	assert_int_equal(l.node_rank, 1);
	launch_release(&l);
}

static void kubeflow(void **state)
{
	const char *kv[] = { "PET_NNODES=2", "PET_NODE_RANK=1", "PET_MASTER_ADDR=job-node-0-0.job",
			     "PET_MASTER_PORT=29500", NULL };
	struct launch l;

	(void)state;
	detect_ok(kv, NULL, &l);
	assert_int_equal(l.kind, LAUNCH_KUBEFLOW);
	assert_string_equal(l.master_addr, "job-node-0-0.job");
	assert_int_equal(l.nnodes, 2);
	launch_release(&l);
	const char *kv2[] = { "PET_NNODES=1:4", "PET_NODE_RANK=1", NULL };
	detect_fails(kv2, NULL, "elastic range");
}

static void flags_win(void **state)
{
	const char *kv[] = { "MASTER_ADDR=10.10.0.10", "MASTER_PORT=29500", "NODE_RANK=1",
			     "NNODES=2", NULL };
	struct launch_flags f = { .master = "127.0.0.1:4000", .nodes = 3, .node_rank = 2 };
	struct launch l;

	(void)state;
	detect_ok(kv, &f, &l);
	assert_int_equal(l.kind, LAUNCH_FLAGS);
	assert_string_equal(l.master_addr, "127.0.0.1");
	assert_int_equal(l.master_port, 4000);
	assert_int_equal(l.node_rank, 2);
	assert_int_equal(l.nnodes, 3);
	assert_string_equal(l.src_rank, "--node-rank");
	launch_release(&l);
	struct launch_flags g = { .master = "[::1]:5", .nodes = 2, .node_rank = 0 };
	const char *none[] = { NULL };
	detect_ok(none, &g, &l);
	assert_string_equal(l.master_addr, "::1");
	assert_int_equal(l.master_port, 5);
	launch_release(&l);
	struct launch_flags h = { .master = "host:", .nodes = 2, .node_rank = 0 };
	detect_fails(none, &h, "not ADDR:PORT");
}

static void what_is_missing_is_named(void **state)
{
	const char *none[] = { NULL };
	const char *norank[] = { "MASTER_ADDR=a", "NNODES=2", NULL };
	const char *badrank[] = { "MASTER_ADDR=a", "NNODES=2", "NODE_RANK=2", NULL };
	const char *garbage[] = { "MASTER_ADDR=a", "NNODES=two", "NODE_RANK=0", NULL };
	const char *port[] = { "MASTER_ADDR=a", "NNODES=2", "NODE_RANK=0", "MASTER_PORT=70000", NULL };
	const char *noaddr[] = { "NNODES=2", "NODE_RANK=1", NULL };

	(void)state;
	detect_fails(none, NULL, "no rendezvous given");
	detect_fails(norank, NULL, "no node rank");
	detect_fails(badrank, NULL, "node rank 2 (NODE_RANK) is not below the node count 2 (NNODES)");
	detect_fails(garbage, NULL, "NNODES='two' is not a number");
	detect_fails(port, NULL, "MASTER_PORT='70000'");
	detect_fails(noaddr, NULL, "no master address");
	assert_string_equal(launcher_name(LAUNCH_SLURM), "slurm");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostlists),
		cmocka_unit_test(torchrun_style_script),
		cmocka_unit_test(torchrun_worker),
		cmocka_unit_test(slurm),
		cmocka_unit_test(openmpi),
		cmocka_unit_test(pmi_and_pmix),
		cmocka_unit_test(kubeflow),
		cmocka_unit_test(flags_win),
		cmocka_unit_test(what_is_missing_is_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
