#!/bin/bash
# lab docker0-duplicate: every node has docker0 172.17.0.1/16, up; 172.17.0.1 is always the node
# itself, so a rank that advertises it sends its peers to themselves.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use t4d

"$NCCLCHECK" lab up --nodes 2 --scenario docker0-duplicate --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up docker0-duplicate"
for n in n0 n1; do
	out=$(lx $n ip -o -4 addr show dev docker0)
	expect_match "$out" "inet 172\.17\.0\.1/16" "$n: docker0 has 172.17.0.1/16"
	out=$(lx $n ip -br link show dev docker0)
	expect_match "$out" "^docker0 +UP " "$n: docker0 is up with carrier (a container port)"
	out=$(lx $n ls /sys/class/net | tr '\n' ' ')
	expect_match "$out" "docker0 eth0 eth1 lo" "$n: docker0 next to eth0/eth1"
	out=$(lx $n ip -o addr show dev vethdock1)
	expect_no_match "$out" "inet" "$n: the container port has no address"
done
out=$(lx n1 ip -o link | awk -F': ' '{print $2}' | sed 's/@.*//' | tr '\n' ' ')
expect_match "$out" "^lo eth0 eth1 docker0 " "ifindex order lo, eth0, eth1, docker0"

serve n0 5001 || finish
serve n1 5001 || finish
out=$(probe n1 send 172.17.0.1 5001 100 3)
expect_match "$out" "^ok 100 .* $LAB_PREFIX-n1$" "from n1, 172.17.0.1 answers as n1 itself"
out=$(probe n0 send 172.17.0.1 5001 100 3)
expect_match "$out" "^ok 100 .* $LAB_PREFIX-n0$" "from n0, 172.17.0.1 answers as n0 itself"
out=$(probe n1 send 10.10.0.10 5001 100 3)
expect_match "$out" "^ok 100 .* $LAB_PREFIX-n0$" "eth1 reaches the real n0"
serve n0 5002 || finish
out=$(probe n1 connect 172.17.0.1 5002 2)
expect_match "$out" "^refused$" "n0's listener on 5002 is unreachable through 172.17.0.1"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
