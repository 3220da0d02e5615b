#!/bin/bash
# link scan on firewall-port-range: n0's whole ephemeral range 32768-60999 scanned from n1 over
# eth1 finds exactly 32768-49151 dropped and 49152-60999 open in under 10 s, with the firewall
# line and the ip_local_port_range that fix it; sampled ports in list mode; and the kernel-picked
# connect port is judged like NCCL's listeners would be.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_link.sh"
lab_use lk3

"$NCCLCHECK" lab up --nodes 2 --scenario firewall-port-range --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up firewall-port-range"
p2p_serve n0 10.10.0.10 || finish

p2p n1 "$LAB_TMP/scan.json" --connect 10.10.0.10:$CTL_PORT --tests scan
expect_rc 1 $rc "a blocked sub-range is an error finding"
J=$LAB_TMP/scan.json
expect_py $J "r[0]['lo'] == 32768 and r[0]['hi'] == 60999" "the whole range 32768-60999"
expect_py $J "[(i['lo'], i['hi'], i['state']) for i in r[0]['intervals']] == [(32768, 49151, 'dropped'), (49152, 60999, 'open')]" \
	"exactly two intervals: 32768-49151 dropped, 49152-60999 open"
expect_py $J "r[0]['counts']['dropped'] + r[0]['counts']['open'] + r[0]['counts']['in_use'] == 28232" \
	"every one of the 28,232 ports classified"
expect_py $J "r[0]['counts']['rejected'] == 0 and r[0]['counts']['error'] == 0" "no port misread as rejected"
expect_py $J "r[0]['batches'] == 7" "7 batches of at most 4096 listeners"
ms=$(jq_py $J "r[0]['elapsed_ms']")
# bounded, not fast: the dropped half waits out its probes (slack for a loaded 2-core CI box)
[ "$ms" -lt 30000 ] && pass "scan took $ms ms (< 30 s; wall $wall_ms ms)" || fail "scan took $ms ms"
[ "$wall_ms" -lt 30000 ] && pass "whole run $wall_ms ms" || fail "whole run $wall_ms ms"
expect_py $J "'iptables -I INPUT -i eth1 -p tcp -s 10.10.0.11 --dport 32768:49151 -j ACCEPT' in f('link.ports.blocked')['fix'][0]" \
	"the firewall line that opens 32768:49151 to the measured peer (n1's 10.10.0.11) alone"
expect_py $J "[s for s in f('link.ports.blocked')['settings'] if s['name'] == 'net.ipv4.ip_local_port_range'][0]['value'] == '49152 60999'" \
	"or ip_local_port_range narrowed to 49152 60999 (a sysctl setting)"
expect_py $J "f('link.ports.blocked')['ifname'] == 'eth1'" "names the interface"

# sampled ports from another peer: list mode (n0's own address on eth0 too)
p2p n1 "$LAB_TMP/list.json" --connect 10.10.0.10:$CTL_PORT --addr 203.0.113.10 --tests scan \
	--port-list 40000,49151,49152,50000,60999
expect_py "$LAB_TMP/list.json" "[(i['lo'], i['hi'], i['state']) for i in r[0]['intervals']] == [(40000, 40000, 'dropped'), (49151, 49151, 'dropped'), (49152, 49152, 'open'), (50000, 50000, 'open'), (60999, 60999, 'open')]" \
	"sampled ports on eth0: 40000, 49151 dropped; 49152, 50000, 60999 open"

# connect to ports the target opens on purpose: one in the open range passes, one below times out
p2p n1 "$LAB_TMP/c.json" --connect 10.10.0.10:$CTL_PORT --tests connect --connect-ports 50001,40001 \
	--timeout 1s
expect_py "$LAB_TMP/c.json" "r[0]['status'] == 'ok' and [t['status'] for t in r[0]['tries']] == ['ok', 'timeout']" \
	"connect: 50001 ok, 40001 times out (the interface works, the port range does not)"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
finish
