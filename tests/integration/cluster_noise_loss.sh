#!/bin/bash
# cluster: n1 (not the master) loses 5 %, then 1 %, of the packets it receives on eth1 (iptables
# statistic match). Loss is a warning with its figure about n1 (link.loss) when the handshakes
# show it, never an error and never a firewall: no port block, no unreachable interface, no MTU
# black hole, on n1 or on an innocent n0 or n2. At 1 % the warning may or may not show (a few
# retransmitted handshakes of 768), and when it does it names no node (n1 as a maybe, or the
# suspects): only the absence of false findings is asserted.
# ctest: run alone
# ctest: timeout 900
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_noise.sh"
lab_use nlos
NOISE_ARGS=(--no-bw)
noise_up

for prob in ${NOISE_PROBS:-0.05 0.01}; do
	lx n1 "$IPTABLES" -F INPUT
	lx n1 "$IPTABLES" -I INPUT -i eth1 -m statistic --mode random --probability $prob -j DROP
	expect_rc 0 $? "n1 drops $prob of its eth1 input at random"
	for run in $(seq "${NOISE_REPEATS:-1}"); do
		noise_run "loss $prob (run $run)"
		noise_same_rc 0
		expect_nq '[f["id"] + ": " + f["title"] for f in E]' '\[\]' "loss $prob: no error"
		expect_nq '[f["id"] for f in F if f["id"] in ("link.ports.blocked", "cluster.link.unreachable", "link.mtu.blackhole", "cluster.verdict.none", "cluster.link.failed")]' \
			'\[\]' "loss $prob: no firewall, unreachable interface, black hole or failed test"
		noise_no_innocent
		if [ $prob = 0.05 ]; then
			expect_nq '[(f["severity"], f["node"]) for f in F if f["id"] == "link.loss"]' \
				"\[\('warn', '$LAB_PREFIX-n1'\)\]" "loss $prob: one link.loss warning, about n1"
			expect_nq '[f["title"] for f in F if f["id"] == "link.loss"][0]' \
				"$LAB_PREFIX-n1 loses packets on eth1: [0-9.]+ % of TCP handshakes with it lost a packet.*" \
				"loss $prob: it states the figure"
		fi
		echo "loss $prob: $(nq '[f["title"] for f in F if f["id"] == "link.loss"]')"
	done
done
finish
