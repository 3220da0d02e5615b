#!/bin/bash
# lab mtu-blackhole: eth1 at MTU 9000, a 1500-byte hop between two router namespaces and ICMP
# "fragmentation needed" dropped: small transfers pass, large ones stall; eth0 is unaffected.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use t4e

"$NCCLCHECK" lab up --nodes 2 --scenario mtu-blackhole --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up mtu-blackhole"
out=$(lx n1 cat /sys/class/net/eth1/mtu); expect_match "$out" "^9000$" "n1 eth1 MTU 9000"
out=$(lx n1 ip -o -4 addr show dev eth1); expect_match "$out" "10\.10\.0\.11/24" "eth1 keeps its /24"
out=$(lx n1 ip route get 10.10.0.10); expect_match "$out" "via 10\.10\.0\.1 dev eth1" "n1 routes to n0 via the router"
out=$(lx rtr cat /sys/class/net/$LAB_PREFIX-wan/mtu); expect_match "$out" "^1500$" "the hop between the routers is 1500"

serve n0 29500 || finish
out=$(probe n1 send 10.10.0.10 29500 1000 5)
expect_match "$out" "^ok 1000 " "1 KB over eth1 arrives"
out=$(probe n1 send 10.10.0.10 29500 1000000 5)
expect_match "$out" "^stalled " "1 MB over eth1 stalls"
out=$(probe n1 send 203.0.113.10 29500 1000000 10)
expect_match "$out" "^ok 1000000 " "1 MB over eth0 (MTU 1500 end to end) arrives"
if command -v ping >/dev/null; then
	lx n1 ping -c 1 -W 2 -M "do" -s 1000 10.10.0.10 >/dev/null; expect_rc 0 $? "ping -M do -s 1000 passes"
	lx n1 ping -c 1 -W 2 -M "do" -s 8000 10.10.0.10 >/dev/null; rc=$?
	[ $rc -ne 0 ] && pass "ping -M do -s 8000 gets no answer (exit $rc)" || fail "8000-byte ping answered"
fi
out=$(lx rtr "$IPTABLES" -L OUTPUT -v -n -x | awk '/DROP/ {print $1}')
[ "${out:-0}" -gt 0 ] && pass "the router swallowed $out 'fragmentation needed' messages" || fail "no ICMP dropped"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
