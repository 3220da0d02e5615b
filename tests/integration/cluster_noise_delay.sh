#!/bin/bash
# cluster: every packet n1 (not the master) receives on eth1 waits 200 ms (nfq_delay.py on an
# NFQUEUE queue: the kernel has no netem). The round trip is its own finding — link.latency,
# a warning about n1 that states the figure — and every link test's timeouts follow it: no MTU
# black hole, no port block, no unreachable interface, nothing about n0 or n2.
# ctest: run alone
# ctest: timeout 900
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_noise.sh"
lab_use ndly
NOISE_ARGS=(--no-bw)
noise_up
lx n1 "$PY" "$SRCDIR/tests/integration/nfq_delay.py" --queue 7 --delay-ms 200 \
	--ready "$LAB_TMP/nfq.ready" --seconds 600 2>"$LAB_TMP/nfq.err" &
LAB_PIDS="$LAB_PIDS $!"
for _ in $(seq 100); do [ -e "$LAB_TMP/nfq.ready" ] && break; sleep 0.05; done
[ -e "$LAB_TMP/nfq.ready" ] || { fail "nfq_delay did not bind its queue: $(cat "$LAB_TMP/nfq.err")"; finish; }
lx n1 "$IPTABLES" -I INPUT -i eth1 -j NFQUEUE --queue-num 7 --queue-bypass
expect_rc 0 $? "n1's eth1 input goes through the delayer"
# the round trip n0 -> n1 over eth1: a TCP connect to a closed port (SYN, then n1's RST), the
# best of three — not ping, which some machines (the GPU one) lack
rtt=$(lx n0 "$PY" -c '
import socket, time
best = None
for _ in range(3):
    s = socket.socket(); s.settimeout(3); t = time.monotonic()
    try:
        s.connect(("10.10.0.11", 9))
    except OSError:
        pass
    ms = (time.monotonic() - t) * 1000
    best = ms if best is None or ms < best else best
    s.close()
print(int(best))')
[ "${rtt:-0}" -ge 190 ] && pass "round trip n0 -> n1 over eth1: $rtt ms" ||
	fail "the delay is not there (round trip: ${rtt:-none} ms)"

for run in $(seq "${NOISE_REPEATS:-1}"); do
	noise_run "200 ms delay (run $run)"
	noise_same_rc 0
	expect_nq '[f["id"] + ": " + f["title"] for f in E]' '\[\]' "no error"
	expect_nq '[f["id"] for f in F if f["id"] in ("link.ports.blocked", "cluster.link.unreachable", "link.mtu.blackhole", "cluster.verdict.none", "cluster.link.failed")]' \
		'\[\]' "no port block, unreachable interface, black hole or failed test"
	noise_no_innocent
	expect_nq '[(f["severity"], f["node"]) for f in F if f["id"] == "link.latency"]' \
		"\[\('warn', '$LAB_PREFIX-n1'\)\]" "one link.latency warning, about n1"
	expect_nq '[f["title"] for f in F if f["id"] == "link.latency"][0]' \
		"the round trip to $LAB_PREFIX-n1 over eth1 is 2[0-9][0-9] ms from every peer.*" \
		"it states the round trip"
done
finish
