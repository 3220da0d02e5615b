#!/bin/bash
# lab firewall-port-range: MASTER_PORT and 49152-65535 accept connections, the rest of the
# kernel's ephemeral range 32768-60999 (where NCCL's listeners land) does not.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use t4c

"$NCCLCHECK" lab up --nodes 2 --scenario firewall-port-range --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up firewall-port-range"
out=$(lx n0 cat /proc/sys/net/ipv4/ip_local_port_range | tr -s '\t ' ' ')
expect_match "$out" "^32768 60999$" "n0 hands out ephemeral ports from 32768-60999"

serve n0 29500 40000 50000 60999 || finish
for a in 10.10.0.10 203.0.113.10; do
	out=$(probe n1 connect $a 29500 2); expect_match "$out" "^connected$" "$a:29500 (MASTER_PORT) open"
	out=$(probe n1 connect $a 50000 2); expect_match "$out" "^connected$" "$a:50000 (inside 49152-65535) open"
	out=$(probe n1 connect $a 60999 2); expect_match "$out" "^connected$" "$a:60999 open"
	out=$(probe n1 connect $a 40000 2); expect_match "$out" "^timeout$" "$a:40000 (ephemeral, outside) times out"
done
# replies to n0's own connections pass: only new inbound connections are filtered
serve n1 40001 || finish
out=$(probe n0 connect 10.10.0.11 40001 2); expect_match "$out" "^timeout$" "inbound 40001 on n1 blocked too"
out=$(probe n1 send 10.10.0.10 50000 1000000 10); expect_match "$out" "^ok 1000000 " "1 MB through an open port"

# where NCCL's listeners would land: port 0 gives ports across the whole range, many closed
ports=$(probe n0 ephemeral 64)
below=$(echo "$ports" | awk '$1 < 49152' | wc -l)
outside=$(echo "$ports" | awk '$1 < 32768 || $1 > 60999' | wc -l)
[ "$outside" -eq 0 ] && pass "64 port-0 listeners all in 32768-60999" || fail "$outside ports outside 32768-60999"
[ "$below" -gt 0 ] && pass "$below of 64 port-0 listeners land below 49152 (closed)" || fail "no port below 49152: $ports"
p=$(echo "$ports" | awk '$1 < 49152 {print; exit}')
serve n0 "$p" || finish
out=$(probe n1 connect 10.10.0.10 "$p" 2); expect_match "$out" "^timeout$" "a kernel-chosen port ($p) is unreachable"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
