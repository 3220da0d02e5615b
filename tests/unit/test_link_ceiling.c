/*
 * net/ceiling: the TCP share of the line at 1500 and 9000 (frontier-2026 §3(c): 94.1 % and
 * 99.0 %), unknown speeds, sysfs trees with a physical NIC, a veth (nominal) and a link that is
 * down, and the "measured low" finding naming the pair and the interface.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/ceiling.h"

static void arithmetic(void **state)
{
	struct link_ceiling c;

	(void)state;
	ceiling_compute(10000, 0, 1500, 0, &c);
	assert_float_equal(c.goodput_frac, 1448.0 / 1538.0, 1e-12);
	assert_float_equal(c.ceiling_gbps, 10 * 1448.0 / 1538.0, 1e-9);
	assert_float_equal(100 * c.goodput_frac, 94.1, 0.05);
	ceiling_compute(100000, 0, 9000, 0, &c);
	assert_float_equal(100 * c.goodput_frac, 99.0, 0.05);
	ceiling_compute(25000, 0, 1500, 1, &c);
	assert_float_equal(c.goodput_frac, 1428.0 / 1538.0, 1e-12);
	assert_float_equal(ceiling_percent(&c, c.ceiling_gbps / 2), 50, 1e-9);
	ceiling_compute(-1, 0, 1500, 0, &c);
	assert_float_equal(c.ceiling_gbps, 0, 0);
	assert_float_equal(ceiling_percent(&c, 5), -1, 0);
}

static void put(const char *dir, const char *ifname, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, ifname);
	mkdir(path, 0755);
	if (!file)
		return;
	snprintf(path, sizeof(path), "%s/%s/%s", dir, ifname, file);
	if (!strcmp(file, "device")) {
		mkdir(path, 0755);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sysfs(void **state)
{
	char dir[] = "/tmp/ncclcheck-ceil-XXXXXX", cmd[600];
	struct link_ceiling c;
	struct err e = ERR_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "ens5", "speed", "25000\n");
	put(dir, "ens5", "mtu", "9001\n");
	put(dir, "ens5", "device", NULL);
	put(dir, "eth1", "speed", "10000\n");
	put(dir, "eth1", "mtu", "1500\n");
	put(dir, "eth9", "mtu", "1500\n");	/* down: reading speed fails */

	assert_int_equal(ceiling_read(dir, "ens5", 0, &c, &e), 0);
	assert_float_equal(c.line_gbps, 25, 1e-12);
	assert_int_equal(c.mtu, 9001);
	assert_false(c.nominal);
	assert_int_equal(ceiling_read(dir, "eth1", 0, &c, &e), 0);
	assert_true(c.nominal);		/* a veth: no device behind it */
	assert_int_equal(ceiling_read(dir, "eth9", 0, &c, &e), 0);
	assert_float_equal(c.ceiling_gbps, 0, 0);
	assert_int_equal(ceiling_read(dir, "nope0", 0, &c, &e), -1);
	assert_int_equal(e.code, ERR_NOTFOUND);
	assert_int_equal(ceiling_read(dir, "../etc", 0, &c, &e), -1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void finding(void **state)
{
	struct findings *fs = findings_new();
	struct link_ceiling c;
	const struct finding *f;

	(void)state;
	ceiling_compute(10000, 0, 1500, 0, &c);
	assert_int_equal(ceiling_check(fs, &c, 6.0, 1, "n0", "n1", "eth1"), 0);	/* 64 % */
	assert_int_equal(ceiling_check(fs, &c, 5.0, 4, "n0", "n1", "eth1"), 1);	/* 53 % */
	f = expect_finding(fs, "link.bw.low", SEV_WARN);
	assert_string_equal(f->node, "n0");
	assert_string_equal(f->peer, "n1");
	assert_string_equal(f->ifname, "eth1");
	assert_non_null(strstr(f->title, "53 %"));
	assert_non_null(strstr(f->evidence[0], "4 TCP streams"));
	findings_free(fs);

	/* a veth's nominal 10 Gbit/s: 3 Gbit/s says nothing, 95 Mbit/s is a cap */
	fs = findings_new();
	ceiling_compute(10000, 1, 1500, 0, &c);
	assert_int_equal(ceiling_check(fs, &c, 3.0, 1, "n0", "n1", "eth0"), 0);
	assert_int_equal(ceiling_check(fs, &c, 0.095, 1, "n0", "n1", "eth0"), 1);
	assert_non_null(strstr(fs->v[0]->why, "nominal"));
	findings_free(fs);

	/* unknown ceiling: no verdict */
	fs = findings_new();
	ceiling_compute(0, 0, 1500, 0, &c);
	assert_int_equal(ceiling_check(fs, &c, 0.001, 1, "n0", "n1", "eth0"), 0);
	assert_int_equal(fs->n, 0);
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arithmetic),
		cmocka_unit_test(sysfs),
		cmocka_unit_test(finding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
