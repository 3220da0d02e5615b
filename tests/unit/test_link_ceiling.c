/*
 * link/ceiling and rules/link_ceiling: the TCP share of the line at 1500 and 9000 (frontier-2026 §3(c): 94.1 % and
 * 99.0 %), unknown speeds, sysfs trees with a physical NIC, a veth (nominal) and a link that is
 * down, and the "measured low" finding naming the pair and the interface; a collective's links
 * (bench): per-interface ceilings with their reasons, the wire form ranks exchange (strict),
 * the footer lines, JSON and verdict against the slowest known link.
 */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules/link_ceiling.h"

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

static char *tree(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/ncclcheck-ceil-XXXXXX");
	assert_non_null(mkdtemp(dir));
	put(dir, "ens5", "speed", "100000\n");
	put(dir, "ens5", "mtu", "9001\n");
	put(dir, "ens5", "device", NULL);
	put(dir, "ens6", "speed", "25000\n");
	put(dir, "ens6", "mtu", "1500\n");
	put(dir, "ens6", "device", NULL);
	put(dir, "eth1", "speed", "10000\n");
	put(dir, "eth1", "mtu", "1500\n");
	put(dir, "lo", "mtu", "65536\n");
	return dir;
}

static void rmtree(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void links(void **state)
{
	char *dir = tree();
	struct ceiling_link l;

	(void)state;
	ceiling_link_of_ifname(dir, "ens5", 0, 3, "n3", &l);
	assert_true(l.known);
	assert_int_equal(l.rank, 3);
	assert_string_equal(l.host, "n3");
	assert_float_equal(l.c.ceiling_gbps, 100 * (9001 - 52) / (9001.0 + 38), 1e-9);
	ceiling_link_of_ifname(dir, "eth1", 0, 0, "n0", &l);
	assert_false(l.known);
	assert_non_null(strstr(l.why, "software link"));
	assert_non_null(strstr(l.why, "tc cap"));
	ceiling_link_of_ifname(dir, "lo", 0, 0, "n0", &l);
	assert_false(l.known);
	assert_non_null(strstr(l.why, "no line rate"));
	ceiling_link_of_ifname(dir, "nope0", 0, 0, "n0", &l);
	assert_false(l.known);
	assert_non_null(strstr(l.why, "no interface 'nope0'"));
	ceiling_link_of_socket(dir, -1, 0, "n0", &l);
	assert_false(l.known);
	assert_non_null(strstr(l.why, "no connection"));
	rmtree(dir);
}

static void wire(void **state)
{
	char *dir = tree();
	struct ceiling_link l, back;
	struct ceiling_wire w;

	(void)state;
	ceiling_link_of_ifname(dir, "ens6", 0, 1, "n1", &l);
	ceiling_link_to_wire(&l, &w);
	ceiling_link_from_wire(&w, &back);
	assert_true(back.known);
	assert_string_equal(back.host, "n1");
	assert_string_equal(back.ifname, "ens6");
	assert_float_equal(back.c.ceiling_gbps, l.c.ceiling_gbps, 1e-9);
	/* what a broken or hostile peer might send: unterminated, absurd, contradictory */
	memset(w.host, 'x', sizeof(w.host));
	ceiling_link_from_wire(&w, &back);
	assert_false(back.known);
	assert_non_null(strstr(back.why, "malformed"));
	ceiling_link_to_wire(&l, &w);
	w.mtu = 12;
	ceiling_link_from_wire(&w, &back);
	assert_false(back.known);
	ceiling_link_to_wire(&l, &w);
	w.known = 7;
	ceiling_link_from_wire(&w, &back);
	assert_false(back.known);
	ceiling_link_to_wire(&l, &w);
	w.nominal = 1; /* known and nominal at once */
	ceiling_link_from_wire(&w, &back);
	assert_false(back.known);
	rmtree(dir);
}

static void report(void **state)
{
	char *dir = tree();
	struct ceiling_link ls[3];
	const char *next[3] = {"n1", "n2", "n0"};
	struct findings *fs = findings_new();
	const struct finding *f;
	char **lines;
	size_t nl;
	json_t *j;

	(void)state;
	ceiling_link_of_ifname(dir, "ens5", 0, 0, "n0", &ls[0]); /* 99 Gbit/s */
	ceiling_link_of_ifname(dir, "ens6", 0, 1, "n1", &ls[1]); /* 23.54 Gbit/s: the lowest */
	ceiling_link_of_ifname(dir, "eth1", 0, 2, "n2", &ls[2]); /* nominal: unknown */
	/* 1.25 GB/s = 10 Gbit/s: 42.5 % of 23.5 */
	j = ceiling_coll_report(ls, 3, next, 1.25, 1.0, 4, &lines, &nl, fs);
	assert_int_equal(nl, 4);
	assert_non_null(strstr(lines[0], "rank 0 (n0) ens5: line rate 100 Gbit/s (sysfs), MTU 9001"));
	assert_non_null(strstr(lines[1], "TCP goodput <= 23.54 Gbit/s; busbw 10.00 Gbit/s = 42.5 %"));
	assert_non_null(strstr(lines[2], "rank 2 (n2) eth1: ceiling unknown (eth1 is a software"));
	assert_non_null(strstr(lines[3], "42.5 % of the lowest known ceiling (rank 1 (n1) ens6"));
	assert_non_null(strstr(lines[3], "under 60 %"));
	assert_string_equal(json_string_value(json_object_get(j, "verdict")), "low");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "lowest"),
							     "ifname")), "ens6");
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "links"), 2),
						 "tcp_goodput_gbps")));
	f = expect_finding(fs, "link.bw.low", SEV_WARN);
	assert_string_equal(f->node, "n1");
	assert_string_equal(f->peer, "n2");
	assert_string_equal(f->ifname, "ens6");
	for (size_t i = 0; i < nl; i++)
		free(lines[i]);
	free(lines);
	json_decref(j);
	findings_free(fs);

	/* 2 GB/s = 16 Gbit/s: 68 % of the lowest, no finding */
	fs = findings_new();
	j = ceiling_coll_report(ls, 3, next, 2.0, 2.0, 4, &lines, &nl, fs);
	assert_string_equal(json_string_value(json_object_get(j, "verdict")), "ok");
	assert_int_equal(fs->n, 0);
	for (size_t i = 0; i < nl; i++)
		free(lines[i]);
	free(lines);
	json_decref(j);
	findings_free(fs);

	/* every ceiling unknown (a lab of veths): the lines say so, no verdict, no finding */
	fs = findings_new();
	j = ceiling_coll_report(&ls[2], 1, NULL, 0.01, 0.01, 1, &lines, &nl, fs);
	assert_int_equal(nl, 2);
	assert_non_null(strstr(lines[1], "unknown on every link, no verdict"));
	assert_string_equal(json_string_value(json_object_get(j, "verdict")), "unknown");
	assert_true(json_is_null(json_object_get(j, "peak_pct")));
	assert_int_equal(fs->n, 0);
	for (size_t i = 0; i < nl; i++)
		free(lines[i]);
	free(lines);
	json_decref(j);
	findings_free(fs);
	rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arithmetic),
		cmocka_unit_test(sysfs),
		cmocka_unit_test(finding),
		cmocka_unit_test(links),
		cmocka_unit_test(wire),
		cmocka_unit_test(report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
