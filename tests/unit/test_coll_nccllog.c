/* coll/nccl_log.c: what NCCL chose, from its own INFO lines (new and old formats). */
#include "cmocka_helpers.h"

#include <stdlib.h>

#include "coll/nccl_log.h"

static void test_summary(void **state)
{
	static const char *const log[] = {
	    "vm:789:789 [0] NCCL INFO Using network Socket",
	    "vm:789:789 [0] NCCL INFO NET/Socket : Using [0]eth0:203.0.113.1<0> "
	    "[1]eth1:10.0.0.1<0>",
	    "vm:789:789 [0] NCCL INFO 4 coll channels, 4 collnet channels, 0 nvls channels, 4 p2p "
	    "channels, 2 p2p channels per peer",
	    "vm:789:789 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/Socket/0",
	    "vm:789:789 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] [send] via NET/Socket/1",
	    "vm:789:789 [0] NCCL INFO Channel 02/0 : 0[0] -> 1[1] [send] via NET/Socket/0",
	    "vm:789:789 [0] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [receive] via NET/Socket/0",
	    "vm:789:789 [0] NCCL INFO AllReduce: 1024 Bytes -> Algo TREE proto LL "
	    "channel{Lo..Hi}={0..0}",
	    "vm:789:789 [0] NCCL INFO AllReduce: 2048 Bytes -> Algo TREE proto LL "
	    "channel{Lo..Hi}={0..0}",
	    "vm:789:789 [0] NCCL INFO AllReduce: 8388608 Bytes -> Algo RING proto SIMPLE "
	    "channel{Lo..Hi}={0..3}",
	    "node-0:309:309 [0] NCCL INFO 37756928 Bytes -> Algo 1 proto 2 time 2860.208008",
	    "garbage Channel 00 : x -> y",
	    "NCCL INFO 5 Bytes -> Algo",
	};
	struct nccl_log_summary s;
	char **lines;
	size_t n;

	(void)state;
	nccl_log_init(&s);
	for (size_t i = 0; i < sizeof(log) / sizeof(log[0]); i++)
		nccl_log_line(&s, log[i]);
	n = nccl_log_describe(&s, &lines);
	assert_int_equal(n, 6);
	assert_string_equal(lines[0], "NCCL chose: network Socket over [0]eth0:203.0.113.1<0> "
	                              "[1]eth1:10.0.0.1<0>, 4 coll channels");
	assert_string_equal(lines[1], "NCCL transport: rank 0 -> 1 via NET/Socket/0 (2 channels)");
	assert_string_equal(lines[2], "NCCL transport: rank 0 -> 1 via NET/Socket/1 (1 channel)");
	assert_string_equal(lines[3], "NCCL algorithm: AllReduce 1024..2048 B TREE/LL");
	assert_string_equal(lines[4], "NCCL algorithm: AllReduce 8388608 B RING/SIMPLE");
	assert_string_equal(lines[5], "NCCL algorithm: Collective 37756928 B Ring/Simple");
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* bench's ceiling follows NCCL's chosen interface from these notes */
static void test_note_net(void **state)
{
	char net[32] = "", ifn[32] = "";
	int uses = 0;

	(void)state;
	assert_int_equal(nccl_log_note_net("NCCL transport: rank 0 -> 1 via P2P/CUMEM", net,
	                                   sizeof(net), ifn, sizeof(ifn), &uses),
	                 0);
	assert_int_equal(uses, 0);
	assert_int_equal(nccl_log_note_net("NCCL chose: network Socket over [0]eth0:203.0.113.1<0> "
	                                   "[1]eth1:10.0.0.1<0>, 4 coll channels",
	                                   net, sizeof(net), ifn, sizeof(ifn), &uses),
	                 1);
	assert_string_equal(net, "Socket");
	assert_string_equal(ifn, "eth0");
	nccl_log_note_net("NCCL transport: rank 0 -> 1 via NET/Socket/0 (2 channels)", net,
	                  sizeof(net), ifn, sizeof(ifn), &uses);
	assert_int_equal(uses, 1);
	nccl_log_note_net("NCCL chose: network IB over [0]mlx5_0:1/IB [1]mlx5_1:1/IB, 8 coll "
	                  "channels",
	                  net, sizeof(net), ifn, sizeof(ifn), &uses);
	assert_string_equal(net, "IB");
	assert_string_equal(ifn, "mlx5_0:1");
	nccl_log_note_net("NCCL chose: network ?, 2 coll channels", net, sizeof(net), ifn,
	                  sizeof(ifn), &uses);
	assert_string_equal(net, "?");
	assert_string_equal(ifn, "");
	assert_int_equal(nccl_log_note_net("unrelated", net, sizeof(net), ifn, sizeof(ifn), &uses),
	                 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_note_net),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
