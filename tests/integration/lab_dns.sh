#!/bin/bash
# lab dns-broken: MASTER_ADDR is node 0's hostname; it resolves on every node but the last,
# where the lookup fails at once (no DNS server to wait for).
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use t4g

"$NCCLCHECK" lab up --nodes 3 --scenario dns-broken --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up dns-broken, 3 nodes"
for n in n0 n1 n2; do
	out=$(lx $n sh -c 'echo $MASTER_ADDR'); expect_match "$out" "^$LAB_PREFIX-n0$" "$n: MASTER_ADDR=$LAB_PREFIX-n0"
done
for n in n0 n1; do
	out=$(lx $n getent hosts $LAB_PREFIX-n0); expect_match "$out" "^10\.10\.0\.10 +$LAB_PREFIX-n0" "$n resolves the master"
done
t0=$(date +%s%N)
lx n2 getent hosts $LAB_PREFIX-n0 >/dev/null; expect_rc 2 $? "n2: getent hosts $LAB_PREFIX-n0 finds nothing"
out=$(probe n2 resolve $LAB_PREFIX-n0)
ms=$((($(date +%s%N) - t0) / 1000000))
expect_match "$out" "^fail " "n2: getaddrinfo of MASTER_ADDR fails ($out)"
# the default resolver would retry for 10 s; the bound has slack for a loaded 2-core CI box
[ $ms -lt 8000 ] && pass "it fails fast ($ms ms), not after a DNS timeout" || fail "lookup took $ms ms"
out=$(probe n2 resolve $LAB_PREFIX-n1); expect_match "$out" "^10\.10\.0\.11$" "n2 still resolves the other nodes"
out=$(probe n2 connect 10.10.0.10 22 2); expect_match "$out" "^refused$" "n2 reaches the master by address"
out=$("$NCCLCHECK" lab status --prefix $LAB_PREFIX)
expect_match "$out" "$LAB_PREFIX-n2 +/etc/hosts has no entry for $LAB_PREFIX-n0" "status names the fault"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
