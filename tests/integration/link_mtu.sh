#!/bin/bash
# link mtu on mtu-blackhole: eth1 at MTU 9000 through a 1500-byte hop whose ICMP "fragmentation
# needed" is dropped: the DF search finds exactly 1500 and calls it a black hole; a bulk TCP
# transfer over it stalls (a result, not a hang); eth0 passes. A 1500-byte hop whose router
# does send ICMP (three namespaces of this test) is only a smaller MTU, not a black hole.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_link.sh"
lab_use lk4

"$NCCLCHECK" lab up --nodes 2 --scenario mtu-blackhole --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up mtu-blackhole"
p2p_serve n0 10.10.0.10 || finish

p2p n1 "$LAB_TMP/m.json" --connect 10.10.0.10:$CTL_PORT --tests connect,mtu
expect_rc 1 $rc "the black hole is an error finding"
J=$LAB_TMP/m.json
expect_py $J "r[0]['status'] == 'ok'" "connect over eth1 works (small packets pass)"
expect_py $J "r[1]['if_mtu'] == 9000 and r[1]['path_mtu'] == 1500" "largest DF packet: exactly 1500 of 9000"
expect_py $J "r[1]['blackhole'] is True and r[1]['icmp_mtu'] == 0" "black hole: no ICMP came back"
expect_py $J "f('link.mtu.blackhole')['ifname'] == 'eth1' and 'ip link set dev eth1 mtu 1500' in f('link.mtu.blackhole')['fix'][0]" \
	"link.mtu.blackhole names eth1 and the MTU that fits"
ms=$(jq_py $J "r[1]['elapsed_ms']")
# bounded, not fast (slack for a loaded 2-core CI box)
[ "$ms" -lt 15000 ] && pass "MTU search took $ms ms" || fail "MTU search took $ms ms"

p2p n1 "$LAB_TMP/bw.json" --connect 10.10.0.10:$CTL_PORT --tests bw --duration 1s --timeout 2s
expect_rc 1 $rc "bulk TCP over the black hole"
expect_py "$LAB_TMP/bw.json" "r[0]['stalled'] == 1 and 'link.bw.stalled' in ids" "the transfer stalls: link.bw.stalled"
[ "$wall_ms" -lt 30000 ] && pass "bounded: $wall_ms ms" || fail "stall took $wall_ms ms"

p2p n1 "$LAB_TMP/e0.json" --connect 10.10.0.10:$CTL_PORT --addr 203.0.113.10 --tests mtu
expect_rc 0 $rc "eth0 (1500 end to end) passes"
expect_py "$LAB_TMP/e0.json" "r[0]['path_mtu'] == r[0]['if_mtu'] == 1500 and 'link.mtu.ok' in ids" "eth0: 1500 = its MTU"

# a plain smaller hop whose router does send ICMP (the lab's routers cannot: their own replies
# come back to them as martians): A --9000-- R --1500-- B in namespaces of this test
"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
A=${LAB_PREFIX}a R=${LAB_PREFIX}r Bn=${LAB_PREFIX}b
trap 'for n in $A $R $Bn; do ip netns del $n 2>/dev/null; done; lab_cleanup' EXIT
for n in $A $R $Bn; do ip netns del $n 2>/dev/null; ip netns add $n || { fail "netns $n"; finish; }; done
ip -n $A link add name a0 mtu 9000 type veth peer name r0 mtu 9000 netns $R
ip -n $R link add name r1 mtu 1500 type veth peer name b0 mtu 1500 netns $Bn
ip -n $A addr add 10.77.1.2/24 dev a0 && ip -n $A link set a0 up && ip -n $A link set lo up
ip -n $R addr add 10.77.1.1/24 dev r0 && ip -n $R link set r0 up
ip -n $R addr add 10.77.2.1/24 dev r1 && ip -n $R link set r1 up
ip -n $Bn addr add 10.77.2.2/24 dev b0 && ip -n $Bn link set b0 up && ip -n $Bn link set lo up
ip -n $A route add default via 10.77.1.1 && ip -n $Bn route add default via 10.77.2.1
ip netns exec $R sysctl -qw net.ipv4.ip_forward=1
ip netns exec $Bn timeout 60 "$NCCLCHECK" bench p2p --serve 10.77.2.2:$CTL_PORT --idle 30s 2>/dev/null &
LAB_PIDS="$LAB_PIDS $!"
for _ in $(seq 100); do ip netns exec $Bn ss -Hltn "sport = :$CTL_PORT" | grep -q LISTEN && break; sleep 0.05; done
ip netns exec $A timeout 60 "$NCCLCHECK" bench p2p --json --connect 10.77.2.2:$CTL_PORT --tests mtu \
	>"$LAB_TMP/icmp.json" 2>&1
rc=$?; [ $rc = 0 ] || cat "$LAB_TMP/icmp.json"; expect_rc 0 $rc "a smaller hop that sends ICMP is not an error"
expect_py "$LAB_TMP/icmp.json" "r[0]['if_mtu'] == 9000 and r[0]['path_mtu'] == 1500 and r[0]['icmp_mtu'] == 1500 and r[0]['blackhole'] is False" \
	"path 1500 of 9000, ICMP named 1500, no black hole"
expect_py "$LAB_TMP/icmp.json" "'link.mtu.smaller' in ids and 'link.mtu.blackhole' not in ids" "link.mtu.smaller (info)"
finish
