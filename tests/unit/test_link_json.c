/*
 * net/link_json: requests, readies and results round-trip, and the decoders reject what a
 * hostile peer could send (unknown members, members of another kind, out-of-range numbers,
 * names instead of addresses, intervals out of order, oversized lists).
 */
#include "cmocka_helpers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "link/agent.h"
#include "link/link.h"

static void req_round_trip(void **state)
{
	struct link_req r, back;
	struct err e = ERR_INIT;
	json_t *j;

	(void)state;
	for (int k = LINK_CONNECT; k <= LINK_BW; k++) {
		link_req_init(&r, (enum link_kind)k);
		snprintf(r.addr, sizeof(r.addr), "10.10.0.10");
		snprintf(r.src, sizeof(r.src), "10.10.0.11");
		snprintf(r.ifname, sizeof(r.ifname), "eth1");
		if (k == LINK_SCAN) {
			r.nlist = 2;
			r.list[0] = 40000;
			r.list[1] = 50000;
		}
		j = link_req_to_json(&r);
		assert_int_equal(link_req_from_json(j, &back, &e), 0);
		json_decref(j);
		assert_int_equal(back.kind, k);
		assert_string_equal(back.addr, "10.10.0.10");
		assert_string_equal(back.src, "10.10.0.11");
		assert_string_equal(back.ifname, "eth1");
		assert_int_equal(back.timeout_ms, r.timeout_ms);
		assert_int_equal(back.nlist, r.nlist);
		assert_int_equal(back.streams, r.streams);
	}
}

static void expect_req_rejected(const char *text, const char *msg)
{
	struct link_req r;
	struct err e = ERR_INIT;
	json_t *j = json_lit(text);

	assert_int_equal(link_req_from_json(j, &r, &e), -1);
	assert_int_equal(e.code, ERR_PARSE);
	if (!strstr(e.msg, msg))
		fail_msg("'%s' for %s, expected '%s'", e.msg, text, msg);
	json_decref(j);
}

static void req_rejects(void **state)
{
	(void)state;
	expect_req_rejected("[]", "not an object");
	expect_req_rejected("{\"kind\":\"ping\",\"addr\":\"10.0.0.1\"}", "no known 'kind'");
	expect_req_rejected("{\"kind\":\"scan\"}", "no 'addr'");
	expect_req_rejected("{\"kind\":\"scan\",\"addr\":\"node0.example\"}", "not a numeric address");
	expect_req_rejected("{\"kind\":\"scan\",\"addr\":\"10.0.0.1\",\"streams\":2}",
			    "unexpected member 'streams'");
	expect_req_rejected("{\"kind\":\"scan\",\"addr\":\"10.0.0.1\",\"lo\":0}", "'lo'");
	expect_req_rejected("{\"kind\":\"scan\",\"addr\":\"10.0.0.1\",\"lo\":5000,\"hi\":4000}",
			    "empty");
	expect_req_rejected("{\"kind\":\"scan\",\"addr\":\"10.0.0.1\",\"list\":[1,2,70000]}",
			    "not a port");
	expect_req_rejected("{\"kind\":\"scan\",\"addr\":\"10.0.0.1\",\"list\":\"1-9\"}",
			    "not an array");
	expect_req_rejected("{\"kind\":\"bw\",\"addr\":\"10.0.0.1\",\"streams\":65}", "'streams'");
	expect_req_rejected("{\"kind\":\"bw\",\"addr\":\"10.0.0.1\",\"duration_ms\":0}",
			    "duration");
	expect_req_rejected("{\"kind\":\"connect\",\"addr\":\"10.0.0.1\",\"timeout_ms\":1e9}",
			    "timeout_ms");
	expect_req_rejected("{\"kind\":\"connect\",\"addr\":\"10.0.0.1\",\"ports\":[1,2,3,4,5,6,7,8,9]}",
			    "more than 8");
	expect_req_rejected("{\"kind\":\"connect\",\"addr\":\"10.0.0.1\",\"ifname\":\"a/b\"}",
			    "interface");
	expect_req_rejected("{\"kind\":\"mtu\",\"addr\":\"10.0.0.1\",\"min_mtu\":20}", "min_mtu");
}

static void ready_strict(void **state)
{
	struct link_ready r;
	struct err e = ERR_INIT;
	json_t *j;

	(void)state;
	j = json_lit("{\"kind\":\"scan\",\"listening\":[[100,200],[300,300]],\"in_use\":[250]}");
	assert_int_equal(link_ready_from_json(j, LINK_SCAN, &r, &e), 0);
	assert_int_equal(r.nlistening, 102);
	assert_int_equal(r.listening[101], 300);
	assert_int_equal(r.nin_use, 1);
	json_decref(j);
	j = link_ready_to_json(&r);
	link_ready_release(&r);
	assert_int_equal(json_array_size(json_object_get(j, "listening")), 2);
	json_decref(j);

	j = json_lit("{\"kind\":\"scan\",\"listening\":[[300,400],[100,200]]}");
	assert_int_equal(link_ready_from_json(j, LINK_SCAN, &r, &e), -1);
	json_decref(j);
	j = json_lit("{\"kind\":\"scan\",\"listening\":[[1,65535]]}");
	assert_int_equal(link_ready_from_json(j, LINK_SCAN, &r, &e), -1);
	assert_non_null(strstr(e.msg, "more than"));
	json_decref(j);
	j = json_lit("{\"kind\":\"bw\",\"ports\":[5000]}");
	assert_int_equal(link_ready_from_json(j, LINK_SCAN, &r, &e), -1);
	assert_non_null(strstr(e.msg, "answers a scan"));
	json_decref(j);
	j = json_lit("{\"kind\":\"bw\",\"ports\":[]}");
	assert_int_equal(link_ready_from_json(j, LINK_BW, &r, &e), -1);
	json_decref(j);

	/* a connect target's queue size travels; an older peer's absent one reads as unknown */
	j = json_lit("{\"kind\":\"connect\",\"ports\":[5000,5001],\"accepts\":64}");
	assert_int_equal(link_ready_from_json(j, LINK_CONNECT, &r, &e), 0);
	assert_int_equal(r.accepts, 64);
	json_decref(j);
	j = link_ready_to_json(&r);
	assert_int_equal(json_integer_value(json_object_get(j, "accepts")), 64);
	json_decref(j);
	j = json_lit("{\"kind\":\"connect\",\"ports\":[5000]}");
	assert_int_equal(link_ready_from_json(j, LINK_CONNECT, &r, &e), 0);
	assert_int_equal(r.accepts, 0);
	json_decref(j);
	j = json_lit("{\"kind\":\"connect\",\"ports\":[5000],\"accepts\":0}");
	assert_int_equal(link_ready_from_json(j, LINK_CONNECT, &r, &e), -1);
	json_decref(j);
}

static void result_round_trip(void **state)
{
	struct link_result r, back;
	struct err e = ERR_INIT;
	json_t *j;

	(void)state;
	j = json_lit("{\"kind\":\"scan\",\"addr\":\"10.10.0.10\",\"lo\":32768,\"hi\":60999,"
		     "\"counts\":{},\"intervals\":[{\"lo\":32768,\"hi\":49151,\"state\":\"dropped\"},"
		     "{\"lo\":49152,\"hi\":60999,\"state\":\"open\"}],\"in_use\":[50000],"
		     "\"retried\":0,\"batches\":7,\"elapsed_ms\":2500}");
	assert_int_equal(link_result_from_json(j, &r, &e), 0);
	json_decref(j);
	/* counts come from the intervals, not from what the peer claimed */
	assert_int_equal(r.s.counts[LINK_PORT_DROPPED], 16384);
	assert_int_equal(r.s.counts[LINK_PORT_OPEN], 60999 - 49152 + 1 - 1);
	assert_int_equal(r.s.counts[LINK_PORT_IN_USE], 1);
	j = link_result_to_json(&r);
	assert_int_equal(link_result_from_json(j, &back, &e), 0);
	json_decref(j);
	assert_int_equal(back.s.niv, 2);
	assert_int_equal(back.s.iv[1].lo, 49152);
	link_result_release(&back);
	link_result_release(&r);

	j = json_lit("{\"kind\":\"scan\",\"addr\":\"10.10.0.10\",\"lo\":100,\"hi\":200,\"counts\":{},"
		     "\"intervals\":[{\"lo\":150,\"hi\":160,\"state\":\"open\"},"
		     "{\"lo\":140,\"hi\":145,\"state\":\"open\"}],\"in_use\":[],\"retried\":0,"
		     "\"batches\":1,\"elapsed_ms\":1}");
	assert_int_equal(link_result_from_json(j, &r, &e), -1);
	assert_non_null(strstr(e.msg, "ascending"));
	json_decref(j);

	j = json_lit("{\"kind\":\"bw\",\"addr\":\"10.10.0.10\",\"streams\":2,\"gbps\":[1.5],"
		     "\"bytes\":[1,2],\"stalled\":0,\"total_gbps\":3,\"total_bytes\":3,\"seconds\":1}");
	assert_int_equal(link_result_from_json(j, &r, &e), -1);
	json_decref(j);
	j = json_lit("{\"kind\":\"mtu\",\"addr\":\"10.10.0.10\",\"if_mtu\":9000,\"path_mtu\":1500,"
		     "\"icmp_mtu\":0,\"blackhole\":true,\"probes\":9,\"elapsed_ms\":800}");
	assert_int_equal(link_result_from_json(j, &r, &e), 0);
	assert_true(r.m.blackhole);
	assert_int_equal(r.m.path_mtu, 1500);
	link_result_release(&r);
	json_decref(j);
	j = json_lit("{\"kind\":\"connect\",\"addr\":\"10.10.0.10\",\"status\":\"maybe\",\"tries\":[],"
		     "\"pings\":0,\"rtt_us\":{\"p50\":0,\"p99\":0,\"min\":0,\"max\":0}}");
	assert_int_equal(link_result_from_json(j, &r, &e), -1);
	json_decref(j);
}

/* What the link measured first (round trip, loss) and what the scan met travel to the rules. */
static void noise_round_trip(void **state)
{
	struct link_result r, back;
	struct link_req q, qb;
	struct err e = ERR_INIT;
	json_t *j;

	(void)state;
	j = json_lit("{\"kind\":\"connect\",\"addr\":\"10.10.0.10\",\"status\":\"ok\","
		     "\"tries\":[{\"port\":43354,\"status\":\"timeout\",\"errno\":110,"
		     "\"connect_us\":2000000},{\"port\":50412,\"status\":\"ok\",\"errno\":0,"
		     "\"connect_us\":400}],\"pings\":20,\"rtt_us\":{\"p50\":450000,"
		     "\"p99\":451000,\"min\":449000,\"max\":452000},\"open_port\":50412,"
		     "\"loss\":{\"probes\":32,\"retrans\":3,\"unanswered\":0,\"pct\":4.8}}");
	assert_int_equal(link_result_from_json(j, &r, &e), 0);
	json_decref(j);
	assert_int_equal(r.c.open_port, 50412);
	assert_int_equal(r.c.retrans, 3);
	j = link_result_to_json(&r);
	assert_int_equal(link_result_from_json(j, &back, &e), 0);
	json_decref(j);
	assert_int_equal(back.c.probes, 32);
	assert_true(back.c.loss_pct > 4.7 && back.c.loss_pct < 4.9);
	link_result_release(&back);
	link_result_release(&r);
	/* more retransmits than probes is a lie */
	j = json_lit("{\"kind\":\"connect\",\"addr\":\"10.10.0.10\",\"status\":\"ok\","
		     "\"tries\":[],\"pings\":0,\"rtt_us\":{\"p50\":0,\"p99\":0,\"min\":0,"
		     "\"max\":0},\"loss\":{\"probes\":4,\"retrans\":5,\"unanswered\":0,"
		     "\"pct\":1}}");
	assert_int_equal(link_result_from_json(j, &r, &e), -1);
	json_decref(j);
	/* no loss member: an older peer; the figure is unknown, not zero */
	j = json_lit("{\"kind\":\"connect\",\"addr\":\"10.10.0.10\",\"status\":\"ok\","
		     "\"tries\":[],\"pings\":0,\"rtt_us\":{\"p50\":0,\"p99\":0,\"min\":0,"
		     "\"max\":0}}");
	assert_int_equal(link_result_from_json(j, &r, &e), 0);
	assert_true(r.c.loss_pct < 0);
	json_decref(j);
	link_result_release(&r);
	j = json_lit("{\"kind\":\"scan\",\"addr\":\"10.10.0.10\",\"lo\":100,\"hi\":200,"
		     "\"counts\":{},\"intervals\":[],\"in_use\":[],\"retried\":5,\"batches\":1,"
		     "\"elapsed_ms\":1,\"timeout_ms\":900,\"retry_ms\":2100,\"looks\":3,"
		     "\"first_drops\":12,\"late_ms\":7,\"src_port\":40001}");
	assert_int_equal(link_result_from_json(j, &r, &e), 0);
	json_decref(j);
	assert_int_equal(r.s.src_port, 40001);
	assert_int_equal(r.s.timeout_ms, 900);
	assert_int_equal(r.s.retry_ms, 2100);
	assert_int_equal(r.s.looks, 3);
	assert_int_equal(r.s.first_drops, 12);
	assert_int_equal(r.s.late_ms, 7);
	link_result_release(&r);
	/* the scan's derived timeouts and an MTU/bandwidth test's known-open port */
	link_req_init(&q, LINK_SCAN);
	snprintf(q.addr, sizeof(q.addr), "10.10.0.10");
	q.retry_ms = 2100;
	q.looks = 3;
	/* a batch of a range that is looked at again as a whole: the peer that scans must know
	 * (it stayed on the master's side, and every batch of a lossy range waited out its own
	 * SYN retransmit: 7 x 1.5 s per full scan) */
	q.first_only = 1;
	q.look_all = 1;
	q.src_port = 33001;
	j = link_req_to_json(&q);
	assert_int_equal(link_req_from_json(j, &qb, &e), 0);
	json_decref(j);
	assert_int_equal(qb.retry_ms, 2100);
	assert_int_equal(qb.looks, 3);
	assert_int_equal(qb.first_only, 1);
	assert_int_equal(qb.look_all, 1);
	assert_int_equal(qb.src_port, 33001);
	j = json_lit("{\"kind\":\"scan\",\"addr\":\"10.10.0.10\",\"first_only\":2}");
	assert_int_equal(link_req_from_json(j, &qb, &e), -1);
	json_decref(j);
	link_req_init(&q, LINK_BW);
	snprintf(q.addr, sizeof(q.addr), "10.10.0.10");
	q.nports = 1;
	q.ports[0] = 50412;
	j = link_req_to_json(&q);
	assert_int_equal(link_req_from_json(j, &qb, &e), 0);
	json_decref(j);
	assert_int_equal(qb.nports, 1);
	assert_int_equal(qb.ports[0], 50412);
	j = json_lit("{\"kind\":\"scan\",\"addr\":\"10.10.0.10\",\"looks\":99}");
	assert_int_equal(link_req_from_json(j, &qb, &e), -1);
	json_decref(j);
}

/* Every loss probe unanswered (replies dropped on this side): the share is unknown, and the
 * result still travels back, so a real measurement is not read as "could not run". */
static void loss_unanswered_round_trip(void **state)
{
	struct link_result r, back;
	struct err e = ERR_INIT;
	json_t *j, *loss;

	(void)state;
	link_result_init(&r, LINK_CONNECT);
	snprintf(r.addr, sizeof(r.addr), "10.10.0.10");
	r.c.status = LINK_OK;
	r.c.open_port = 50412;
	r.c.probes = 32;
	r.c.unanswered = 32;
	r.c.loss_pct = -1;
	j = link_result_to_json(&r);
	loss = json_object_get(j, "loss");
	assert_non_null(loss);
	assert_true(json_is_null(json_object_get(loss, "pct")));
	assert_int_equal(link_result_from_json(j, &back, &e), 0);
	json_decref(j);
	link_result_release(&r);
	assert_int_equal(back.c.probes, 32);
	assert_int_equal(back.c.unanswered, 32);
	assert_int_equal(back.c.retrans, 0);
	assert_true(back.c.loss_pct < 0);
	link_result_release(&back);
	/* an absent pct reads the same */
	j = json_lit("{\"kind\":\"connect\",\"addr\":\"10.10.0.10\",\"status\":\"ok\","
		     "\"tries\":[],\"pings\":0,\"rtt_us\":{\"p50\":0,\"p99\":0,\"min\":0,"
		     "\"max\":0},\"loss\":{\"probes\":4,\"retrans\":0,\"unanswered\":4}}");
	assert_int_equal(link_result_from_json(j, &back, &e), 0);
	assert_true(back.c.loss_pct < 0);
	json_decref(j);
	link_result_release(&back);
	/* no share although some probes were answered: the share is hidden, not unknown */
	j = json_lit("{\"kind\":\"connect\",\"addr\":\"10.10.0.10\",\"status\":\"ok\","
		     "\"tries\":[],\"pings\":0,\"rtt_us\":{\"p50\":0,\"p99\":0,\"min\":0,"
		     "\"max\":0},\"loss\":{\"probes\":4,\"retrans\":0,\"unanswered\":1,"
		     "\"pct\":null}}");
	assert_int_equal(link_result_from_json(j, &back, &e), -1);
	json_decref(j);
}

/* Timeouts follow the measured round trip and loss, within their floors and caps. */
static void timeouts_derive(void **state)
{
	struct link_timeouts lan, wan, far, lossy, dead;

	(void)state;
	link_timeouts_derive(100, 0, &lan);
	assert_int_equal(lan.scan_ms, 400);
	assert_int_equal(lan.retry_ms, 1500);
	assert_int_equal(lan.mtu_ms, 250);
	assert_int_equal(lan.looks, 1);
	link_timeouts_derive(200000, 0, &wan);
	assert_int_equal(wan.scan_ms, 900);	/* 3 round trips + 300 */
	assert_int_equal(wan.mtu_ms, 850);
	assert_true(wan.retry_ms > 2000);
	link_timeouts_derive(450000, 0, &far);
	assert_true(far.scan_ms > 3 * 450 && far.mtu_ms > 3 * 450);
	assert_true(far.connect_ms > wan.connect_ms);
	link_timeouts_derive(60e6, -1, &dead);	/* a minute: the caps hold */
	assert_int_equal(dead.scan_ms, 5000);
	assert_int_equal(dead.retry_ms, 8000);
	assert_int_equal(dead.connect_ms, 10000);
	/* 5 % loss: ~2,750 first-look drops of 28,232; three looks leave < 0.01 standing */
	link_timeouts_derive(100, 5, &lossy);
	assert_int_equal(lossy.looks, 3);
	link_timeouts_derive(100, 1, &lossy);
	assert_int_equal(lossy.looks, 2);
	link_timeouts_derive(100, 60, &lossy);
	assert_int_equal(lossy.looks, LINK_LOOKS_MAX);
	/* the share of connects that needed a retransmit, as per-packet loss */
	assert_true(link_loss_from_share(0) == 0);
	assert_true(fabs(link_loss_from_share(0.0975) - 5.0) < 0.05);
	assert_true(link_loss_from_share(1) == 100);
	/* retransmitted / clean: the probe waits past one retransmit only */
	assert_true(fabs(link_handshake_share(12, 256) - 12.0 / 244) < 1e-12);
	assert_true(link_handshake_share(0, 100) == 0);
	assert_true(link_handshake_share(5, 5) == 1);
}

static void agent_rejects(void **state)
{
	struct link_agent *a = link_agent_new();
	struct err e = ERR_INIT;
	json_t *m;

	(void)state;
	m = json_lit("{\"op\":\"explode\"}");
	assert_null(link_agent_handle(a, m, &e));
	assert_non_null(strstr(e.msg, "unknown link message op"));
	json_decref(m);
	m = json_lit("{\"op\":\"stop\",\"id\":42}");
	assert_null(link_agent_handle(a, m, &e));
	json_decref(m);
	m = json_lit("{\"op\":\"start\",\"req\":{\"kind\":\"scan\",\"addr\":\"127.0.0.1\",\"lo\":1000,"
		     "\"hi\":60000},\"extra\":1}");
	assert_null(link_agent_handle(a, m, &e));
	assert_non_null(strstr(e.msg, "extra"));
	json_decref(m);
	/* more ports than a batch: refused, not 59,000 listeners */
	m = json_lit("{\"op\":\"start\",\"req\":{\"kind\":\"scan\",\"addr\":\"127.0.0.1\",\"lo\":1000,"
		     "\"hi\":60000}}");
	assert_null(link_agent_handle(a, m, &e));
	assert_non_null(strstr(e.msg, "split the range"));
	json_decref(m);
	link_agent_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(req_round_trip),
		cmocka_unit_test(req_rejects),
		cmocka_unit_test(ready_strict),
		cmocka_unit_test(result_round_trip),
		cmocka_unit_test(agent_rejects),
		cmocka_unit_test(noise_round_trip),
		cmocka_unit_test(loss_unanswered_round_trip),
		cmocka_unit_test(timeouts_derive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
