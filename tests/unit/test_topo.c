/* The GPU<->NIC classifier (probe/topo.c) on hand-built PCI trees, one per nvidia-smi level. */
#include <string.h>

#include "cmocka_helpers.h"

#include "probe/topo.h"

/*
 * machine (nodes 0,1)
 *  +- package0 (node 0)
 *  |   +- hostbridge A
 *  |   |   +- root port A1 - switch up S - down S1 - gpu0
 *  |   |   |                            + down S2 - nic0           gpu0-nic0: PIX
 *  |   |   |                            + down S3 - switch up T - down T1 - nic1   gpu0-nic1: PXB
 *  |   |   +- root port A2 - nic2                                  gpu0-nic2: PHB
 *  |   +- hostbridge B - root port B1 - nic3                       gpu0-nic3: NODE
 *  +- package1 (node 1)
 *      +- hostbridge C - root port C1 - gpu1                       gpu0-gpu1: SYS
 */
struct fixture {
	struct topo_tree t;
	int gpu0, gpu1, nic0, nic1, nic2, nic3, lone;
};

static void build(struct fixture *f)
{
	struct topo_tree *t = &f->t;
	int m, p0, p1, a, a1, s, s1, s2, s3, tu, t1, a2, b, b1, c, c1;

	memset(f, 0, sizeof(*f));
	m = topo_tree_add(t, -1, TOPO_CPU_SIDE, 0x3);
	p0 = topo_tree_add(t, m, TOPO_CPU_SIDE, 0x1);
	p1 = topo_tree_add(t, m, TOPO_CPU_SIDE, 0x2);
	a = topo_tree_add(t, p0, TOPO_HOSTBRIDGE, 0);
	a1 = topo_tree_add(t, a, TOPO_BRIDGE, 0);
	s = topo_tree_add(t, a1, TOPO_BRIDGE, 0);
	s1 = topo_tree_add(t, s, TOPO_BRIDGE, 0);
	s2 = topo_tree_add(t, s, TOPO_BRIDGE, 0);
	s3 = topo_tree_add(t, s, TOPO_BRIDGE, 0);
	f->gpu0 = topo_tree_add(t, s1, TOPO_DEVICE, 0);
	f->nic0 = topo_tree_add(t, s2, TOPO_DEVICE, 0);
	tu = topo_tree_add(t, s3, TOPO_BRIDGE, 0);
	t1 = topo_tree_add(t, tu, TOPO_BRIDGE, 0);
	f->nic1 = topo_tree_add(t, t1, TOPO_DEVICE, 0);
	a2 = topo_tree_add(t, a, TOPO_BRIDGE, 0);
	f->nic2 = topo_tree_add(t, a2, TOPO_DEVICE, 0);
	b = topo_tree_add(t, p0, TOPO_HOSTBRIDGE, 0);
	b1 = topo_tree_add(t, b, TOPO_BRIDGE, 0);
	f->nic3 = topo_tree_add(t, b1, TOPO_DEVICE, 0);
	c = topo_tree_add(t, p1, TOPO_HOSTBRIDGE, 0);
	c1 = topo_tree_add(t, c, TOPO_BRIDGE, 0);
	f->gpu1 = topo_tree_add(t, c1, TOPO_DEVICE, 0);
	f->lone = topo_tree_add(t, -1, TOPO_DEVICE, 0); /* a second root: not in the same tree */
}

static void test_levels(void **state)
{
	struct fixture f;

	(void)state;
	build(&f);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.nic0), TOPO_PIX);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.nic1), TOPO_PXB);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.nic2), TOPO_PHB);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.nic3), TOPO_NODE);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.gpu1), TOPO_SYS);
	assert_int_equal(topo_classify(&f.t, f.gpu1, f.nic0), TOPO_SYS);
	/* the same verdict either way round */
	assert_int_equal(topo_classify(&f.t, f.nic1, f.gpu0), TOPO_PXB);
	assert_int_equal(topo_classify(&f.t, f.nic3, f.nic2), TOPO_NODE);
	topo_tree_release(&f.t);
}

static void test_degenerate(void **state)
{
	struct fixture f;

	(void)state;
	build(&f);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.gpu0), TOPO_PIX);
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.lone), TOPO_UNKNOWN);
	assert_int_equal(topo_classify(&f.t, f.gpu0, 9999), TOPO_UNKNOWN);
	assert_int_equal(topo_classify(&f.t, -1, f.gpu0), TOPO_UNKNOWN);
	/* a corrupt tree (a node its own parent) must end, not loop */
	f.t.v[f.nic0].parent = f.nic0;
	assert_int_equal(topo_classify(&f.t, f.gpu0, f.nic0), TOPO_UNKNOWN);
	topo_tree_release(&f.t);
	assert_null(f.t.v);
}

/* A cloud VM's flattened tree: every device straight under one host bridge. */
static void test_flat_vm(void **state)
{
	struct topo_tree t = TOPO_TREE_INIT;
	int m = topo_tree_add(&t, -1, TOPO_CPU_SIDE, 0x1);
	int hb = topo_tree_add(&t, m, TOPO_HOSTBRIDGE, 0);
	int gpu = topo_tree_add(&t, hb, TOPO_DEVICE, 0);
	int nic = topo_tree_add(&t, hb, TOPO_DEVICE, 0);

	(void)state;
	assert_int_equal(topo_classify(&t, gpu, nic), TOPO_PHB);
	topo_tree_release(&t);
}

/* Two host bridges hanging off the machine (locality unknown) and a package. */
static void test_unknown_locality_is_sys(void **state)
{
	struct topo_tree t = TOPO_TREE_INIT;
	int m = topo_tree_add(&t, -1, TOPO_CPU_SIDE, 0x3);
	int p0 = topo_tree_add(&t, m, TOPO_CPU_SIDE, 0x1);
	int h0 = topo_tree_add(&t, p0, TOPO_HOSTBRIDGE, 0);
	int h1 = topo_tree_add(&t, m, TOPO_HOSTBRIDGE, 0);
	int a = topo_tree_add(&t, h0, TOPO_DEVICE, 0);
	int b = topo_tree_add(&t, h1, TOPO_DEVICE, 0);

	(void)state;
	assert_int_equal(topo_classify(&t, a, b), TOPO_SYS);
	topo_tree_release(&t);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(topo_level_name(TOPO_PIX), "PIX");
	assert_string_equal(topo_level_name(TOPO_PXB), "PXB");
	assert_string_equal(topo_level_name(TOPO_PHB), "PHB");
	assert_string_equal(topo_level_name(TOPO_NODE), "NODE");
	assert_string_equal(topo_level_name(TOPO_SYS), "SYS");
	assert_string_equal(topo_level_name(TOPO_UNKNOWN), "unknown");
	assert_string_equal(topo_level_name((enum topo_level)42), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_flat_vm),
		cmocka_unit_test(test_unknown_locality_is_sys),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
