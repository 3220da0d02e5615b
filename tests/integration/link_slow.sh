#!/bin/bash
# link bw on slow-link with 3 nodes: n2's links are capped at 100 Mbit/s (tbf). n0 -> n1 runs
# at veth speed (no finding), n0 -> n2 measures about 95 Mbit/s: link.bw.low names the pair and
# the interface, against the veth's nominal 10 Gbit/s ceiling.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_link.sh"
lab_use lk5

"$NCCLCHECK" lab up --nodes 3 --scenario slow-link --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up slow-link, 3 nodes"
p2p_serve n1 10.10.0.11 || finish
p2p_serve n2 10.10.0.12 || finish

p2p n0 "$LAB_TMP/fast.json" --connect 10.10.0.11:$CTL_PORT --tests bw --duration 1s
expect_rc 0 $rc "n0 -> n1: no finding"
# uncapped: above 3x the 100 Mbit/s cap (a loaded 2-core box gives a debug pair under 1 Gbit/s)
expect_py "$LAB_TMP/fast.json" "r[0]['total_gbps'] > 0.3" "n0 -> n1 over eth1 above 0.3 Gbit/s ($(jq_py "$LAB_TMP/fast.json" "round(r[0]['total_gbps'], 2)"))"
expect_py "$LAB_TMP/fast.json" "'link.bw.low' not in ids and 'link.bw.ok' in ids" "link.bw.ok"

p2p n0 "$LAB_TMP/slow.json" --connect 10.10.0.12:$CTL_PORT --tests bw --duration 2s --streams 1,2
expect_rc 0 $rc "n0 -> n2 (a warning, not an error)"
expect_py "$LAB_TMP/slow.json" "all(0.05 < x['total_gbps'] < 0.11 for x in r)" \
	"n0 -> n2 measured at the 100 Mbit/s cap, 1 and 2 streams ($(jq_py "$LAB_TMP/slow.json" "[round(x['total_gbps'] * 1000) for x in r]") Mbit/s)"
expect_py "$LAB_TMP/slow.json" "f('link.bw.low')['ifname'] == 'eth1' and f('link.bw.low')['severity'] == 'warn'" \
	"link.bw.low on eth1"
expect_py "$LAB_TMP/slow.json" "'10.10.0.12' in f('link.bw.low')['title'] and '9.41 Gbit/s' in f('link.bw.low')['title']" \
	"the title names the target and the ceiling"

# eth0 is capped too
p2p n0 "$LAB_TMP/e0.json" --connect 10.10.0.12:$CTL_PORT --addr 203.0.113.12 --tests bw --duration 1s
expect_py "$LAB_TMP/e0.json" "r[0]['total_gbps'] < 0.11 and f('link.bw.low')['ifname'] == 'eth0'" "eth0 to n2 low as well"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
finish
