#!/bin/bash
# cluster: a node that never comes. The master waits --timeout, then names the rank that never
# joined and exits 3; a worker whose master never listens gives up after --timeout with the
# reason (refused) and exits 3. Both bounded.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt2
ms() { date +%s%3N; }

out=$("$NCCLCHECK" lab up --nodes 3 --scenario healthy --prefix $LAB_PREFIX 2>&1); expect_rc 0 $? "lab up"

# n0 and n1 come, n2 never does
( timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python --timeout 2 \
	>"$LAB_TMP/n1.out" 2>&1; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
t0=$(ms)
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --timeout 2 2>&1); rc=$?
t1=$(ms)
wait $w
expect_rc 3 $rc "the master cannot run without rank 2"
expect_match "$out" "rank 2 never arrived within 2 s" "the master names the missing rank"
expect_match "$out" "cluster.rdv.missing" "as cluster.rdv.missing"
expect_match "$out" "nc -zv 10\.10\.0\.10 29500   # on the missing node: is the port reachable" "with what to check on it"
# the wait, piped: a line per change of who joined (not one per tick), with the time left
expect_match "$out" "waiting for the nodes: 2/3 joined; missing: rank 2; [0-9]+ s left" "the live line names the missing rank"
nw=$(printf '%s\n' "$out" | grep -c "waiting for the nodes:")
[ "$nw" -ge 1 ] && [ "$nw" -le 3 ] && pass "piped: $nw waiting line(s), one per change" \
	|| fail "piped: $nw waiting lines"
# bounded, not fast: without the timeout it would wait until timeout 30 (slack for a loaded box)
[ $((t1 - t0)) -lt 15000 ] && pass "bounded: $((t1 - t0)) ms for a 2 s timeout" || fail "took $((t1 - t0)) ms"
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "the joined worker exits 3 too"
expect_match "$(cat "$LAB_TMP/n1.out")" "rank 2 never joined the master" "and names the missing rank"

# on a terminal the line is rewritten in place (\r, erase to the end of the line), each time
# with the time left
script -qec "timeout 30 $NCCLCHECK lab exec $LAB_PREFIX-n0 -- $NCCLCHECK cluster --no-python --timeout 2" \
	/dev/null >"$LAB_TMP/tty.out" 2>&1 </dev/null
n=$(grep -ao $'\r\e\[Kwaiting for the nodes: 1/3 joined; missing: ranks 1, 2; [0-9]* s left' \
	"$LAB_TMP/tty.out" | wc -l)
[ "$n" -ge 2 ] && pass "tty: the live line rewritten in place ($n times)" || fail "tty: $n live lines"

# a worker alone: nothing listens on MASTER_ADDR:MASTER_PORT
t0=$(ms)
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n2 -- "$NCCLCHECK" cluster --no-python --timeout 1.5 2>&1); rc=$?
t1=$(ms)
expect_rc 3 $rc "a worker without a master"
expect_match "$out" "could not be reached within 2 s|could not be reached within 1 s" "says the master was not reached"
expect_match "$out" "Connection refused" "and why (refused)"
expect_match "$out" "cluster.rdv.unreachable" "as cluster.rdv.unreachable"
expect_match "$out" "start rank 0 first" "with the fix for a refusal"
[ $((t1 - t0)) -lt 15000 ] && pass "bounded: $((t1 - t0)) ms" || fail "took $((t1 - t0)) ms"

# two nodes claim rank 1: a named error on every node, exit 3 (the check could not run), at once
# (not at the timeout)
( timeout 90 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python --timeout 60 \
	>"$LAB_TMP/n1.out" 2>&1; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
sleep 0.3
( timeout 90 "$NCCLCHECK" lab exec $LAB_PREFIX-n2 -- env NODE_RANK=1 "$NCCLCHECK" cluster --no-python \
	--timeout 60 >"$LAB_TMP/n2.out" 2>&1; echo $? >"$LAB_TMP/n2.rc" ) &
w2=$!
t0=$(ms)
out=$(timeout 90 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --timeout 60 2>&1); rc=$?
t1=$(ms)
wait $w $w2
expect_rc 3 $rc "duplicate rank: the master"
expect_match "$out" "two processes claim rank 1: $LAB_PREFIX-n[12] \(10\.10\.0\.1[12]:[0-9]+, pid [0-9]+\) and $LAB_PREFIX-n[12] \(10\.10\.0\.1[12]:[0-9]+, pid [0-9]+\)" "names both claimants"
expect_match "$out" "cluster.rdv.duplicate_rank" "as cluster.rdv.duplicate_rank"
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "duplicate rank: the first claimant"
expect_rc 3 "$(cat "$LAB_TMP/n2.rc")" "duplicate rank: the second claimant"
# at once, not at the 60 s timeout (slack for a loaded 2-core CI box)
[ $((t1 - t0)) -lt 20000 ] && pass "at once: $((t1 - t0)) ms with a 60 s timeout" || fail "took $((t1 - t0)) ms"
# a node told another node count
( timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- env NNODES=2 "$NCCLCHECK" cluster --no-python \
	--timeout 10 >"$LAB_TMP/n1.out" 2>&1; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --timeout 10 2>&1); rc=$?
wait $w
expect_rc 3 $rc "wrong count: the master"
expect_match "$out" "$LAB_PREFIX-n1 \(10\.10\.0\.11:[0-9]+, rank 1\) was told the job has 2 nodes, the master \($LAB_PREFIX-n0\) 3" "names the node and both counts"
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "wrong count: the worker"
expect_match "$(cat "$LAB_TMP/n1.out")" "cluster.rdv.wrong_count" "as cluster.rdv.wrong_count"

# the port taken on the master: the holder is named, exit 3
serve n0 29500 || finish
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --timeout 1 2>&1); rc=$?
expect_rc 3 $rc "the port is taken"
expect_match "$out" "port 29500 .*is taken by pid [0-9]+ \(python3\)" "names the process holding it"
finish
