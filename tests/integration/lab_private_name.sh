#!/usr/bin/env bash
# lab up --private-name: node 1's private NIC is ens5 instead of eth1 (interface names that
# differ between nodes, as with mixed instance types); the network is the same.
. "$(dirname "$0")/lib_lab.sh"
lab_use s3
P=$LAB_PREFIX
out=$("$NCCLCHECK" lab up --nodes 2 --prefix $P --private-name 1=ens5); expect_rc 0 $? "lab up"
expect_match "$out" "10.10.0.11/24 ens5" "status names the renamed NIC"
out=$(lx n1 ip -o -4 addr show dev ens5); expect_match "$out" "10.10.0.11/24" "n1's ens5 holds the private address"
lx n1 ip link show eth1 >/dev/null 2>&1 && fail "n1 still has an eth1" || pass "n1 has no eth1"
out=$(lx n0 ip -o -4 addr show dev eth1); expect_match "$out" "10.10.0.10/24" "n0 keeps eth1"
serve n1 40001
out=$(probe n0 connect 10.10.0.11 40001 2); expect_match "$out" "^connected$" "n0 reaches n1's ens5 address"
"$NCCLCHECK" lab down --prefix $P >/dev/null
for bad in 1=eth0 1=Ens5 1= x=ens5 2=ens5 1=abcdefghijklmnop; do
	"$NCCLCHECK" lab up --nodes 2 --prefix $P --private-name "$bad" >/dev/null 2>&1
	expect_rc 2 $? "--private-name $bad is a usage error"
done
lab_gone $P
finish
