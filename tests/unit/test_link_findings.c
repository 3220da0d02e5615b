/*
 * net/link_findings: a link result becomes the finding of its status, with the pair, and the
 * "how to look" fix of that failure; a scan with every port open is one ok finding.
 */
#include "cmocka_helpers.h"

#include <string.h>

#include "link/ceiling.h"
#include "rules/link_findings.h"

static const struct link_who who = { .peer = "n0", .target = "n1", .ifname = "eth1" };

static struct findings *connect_result(enum link_status st)
{
	struct link_result r;
	struct findings *fs = findings_new();

	memset(&r, 0, sizeof(r));
	r.kind = LINK_CONNECT;
	strcpy(r.addr, "10.10.0.11");
	r.c.status = st;
	r.c.ntries = 1;
	r.c.tries[0].port = 29500;
	r.c.tries[0].status = st;
	r.c.rtt_p50_us = 80;
	r.c.rtt_p99_us = 120;
	link_findings(&r, &who, NULL, fs);
	return fs;
}

static void connect_statuses(void **state)
{
	static const struct {
		enum link_status st;
		const char *id;
		const char *fix;	/* in the first fix line; NULL: none */
	} want[] = {
		{ LINK_OK, "link.connect.ok", NULL },
		{ LINK_REFUSED, "link.connect.refused", "REJECT" },
		{ LINK_TIMEOUT, "link.connect.timeout", "DROP" },
		{ LINK_NOROUTE, "link.connect.noroute", "ip route get 10.10.0.11" },
		{ LINK_HOSTUNREACH, "link.connect.hostunreach", "ip route get 10.10.0.11" },
		{ LINK_ERROR, "link.connect.error", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct findings *fs = connect_result(want[i].st);
		const struct finding *f = findings_find(fs, want[i].id);

		assert_int_equal(fs->n, 1);
		assert_non_null(f);
		assert_int_equal(f->sev, want[i].st == LINK_OK ? SEV_OK : SEV_ERROR);
		assert_non_null(strstr(f->title, "n0 -> n1 (10.10.0.11) over eth1"));
		if (want[i].fix) {
			assert_true(f->nfix > 0);
			assert_non_null(strstr(f->fix[0], want[i].fix));
		}
		findings_free(fs);
	}
}

static void scan_all_open(void **state)
{
	struct link_interval iv = { .lo = 32768, .hi = 32799, .state = LINK_PORT_OPEN };
	struct link_result r;
	struct findings *fs = findings_new();
	const struct finding *f;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.kind = LINK_SCAN;
	strcpy(r.addr, "10.10.0.11");
	r.s.lo = 32768;
	r.s.hi = 32799;
	r.s.counts[LINK_PORT_OPEN] = 32;
	r.s.iv = &iv;
	r.s.niv = 1;
	link_findings(&r, &who, NULL, fs);
	assert_int_equal(fs->n, 1);
	f = findings_find(fs, "link.ports.ok");
	assert_non_null(f);
	assert_int_equal(f->sev, SEV_OK);
	assert_non_null(strstr(f->title, "all 32 tested ports 32768-32799"));
	assert_null(findings_find(fs, "link.ports.blocked"));
	findings_free(fs);
}

/* A closed run of ports: the ACCEPT it proposes lets in only the measured peer, on its interface. */
static void scan_blocked_scoped(void **state)
{
	struct link_interval iv[2] = { { .lo = 32768, .hi = 32783, .state = LINK_PORT_DROPPED },
				       { .lo = 32784, .hi = 32799, .state = LINK_PORT_OPEN } };
	struct link_result r;
	const struct finding *f;
	(void)state;

	for (int src = 0; src < 2; src++) {
		struct findings *fs = findings_new();

		memset(&r, 0, sizeof(r));
		r.kind = LINK_SCAN;
		strcpy(r.addr, "10.10.0.11");
		if (src)
			strcpy(r.src, "10.10.0.10");
		r.s.lo = 32768;
		r.s.hi = 32799;
		r.s.counts[LINK_PORT_DROPPED] = 16;
		r.s.counts[LINK_PORT_OPEN] = 16;
		r.s.iv = iv;
		r.s.niv = 2;
		link_findings(&r, &who, NULL, fs);
		f = findings_find(fs, "link.ports.blocked");
		assert_non_null(f);
		for (size_t i = 0; i < f->nfix; i++)
			if (strstr(f->fix[i], "iptables -I") && (!strstr(f->fix[i], " -s ") ||
								  !strstr(f->fix[i], " -i ")))
				fail_msg("an unscoped ACCEPT: %s", f->fix[i]);
		assert_int_equal(finding_fix_contains(f, "iptables -I INPUT -i eth1 -p tcp -s "
						      "10.10.0.10 --dport 32768:32783 -j ACCEPT"),
				 src);
		findings_free(fs);
	}
}

/* Bandwidth against a nominal (software link) ceiling and a real one. */
static void bw_against_ceiling(void **state)
{
	struct link_result r;
	struct link_ceiling c;
	struct findings *fs = findings_new();
	const struct finding *f;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.kind = LINK_BW;
	strcpy(r.addr, "10.10.0.11");
	r.b.streams = 1;
	r.b.total_gbps = 35.9;
	ceiling_compute(10000, 1, 1500, 0, &c);		/* a veth's made-up 10 Gbit/s */
	link_findings(&r, &who, &c, fs);
	f = expect_finding(fs, "link.bw.ok", SEV_OK);
	assert_non_null(strstr(f->title, "above the nominal 10000 Mbit/s"));
	assert_null(strstr(f->title, "%"));
	findings_free(fs);

	fs = findings_new();
	r.b.total_gbps = 9.0;
	ceiling_compute(10000, 0, 1500, 0, &c);		/* a physical NIC's line rate */
	link_findings(&r, &who, &c, fs);
	f = expect_finding(fs, "link.bw.ok", SEV_OK);
	assert_non_null(strstr(f->title, "% of the link's"));
	findings_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(connect_statuses),
		cmocka_unit_test(scan_all_open),
		cmocka_unit_test(scan_blocked_scoped),
		cmocka_unit_test(bw_against_ceiling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
