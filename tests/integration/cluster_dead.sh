#!/bin/bash
# cluster: a node killed mid-run, and a node stopped (SIGSTOP) mid-run. The other two nodes name
# it (killed: at once; stopped: after cluster's 6 s dead time, CLUSTER_DEAD_MS), exit 3, and
# nobody hangs; rank 1 prints the master's header and findings.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt3
ms() { date +%s%3N; }

out=$("$NCCLCHECK" lab up --nodes 3 --scenario healthy --prefix $LAB_PREFIX 2>&1); expect_rc 0 $? "lab up"

# linking: true once the run is in its link tests, as the nodes' NCCLCHECK_PROGRESS_FILEs say:
# n2 serves them (it has joined and sent its facts) and the master runs them (it holds every
# node's facts, so its report has the node table). A state, not a sleep that a loaded machine
# outruns.
linking() {
	local m
	grep -qx "serving the master's link tests" "$LAB_TMP/n2.state" 2>/dev/null &&
		m=$(cat "$LAB_TMP/n0.state" 2>/dev/null) && [ -n "$m" ] &&
		[ "$m" != listening ] && [ "$m" != "exchanging facts" ]
}

# scenario SIGNAL: n2 gets SIGNAL in the middle of the run, once its link tests began
scenario() {
	local sig=$1 victim t0 t1 tk
	rm -f "$LAB_TMP/n2.state" "$LAB_TMP/n0.state"
	"$NCCLCHECK" lab exec $LAB_PREFIX-n2 -- env NCCLCHECK_PROGRESS_FILE="$LAB_TMP/n2.state" \
		"$NCCLCHECK" cluster --no-python >"$LAB_TMP/n2.out" 2>&1 &
	victim=$!
	LAB_PIDS="$LAB_PIDS $victim"
	( timeout 90 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python \
		>"$LAB_TMP/n1.out" 2>&1; echo $? >"$LAB_TMP/n1.rc"; date +%s%3N >"$LAB_TMP/n1.t" ) &
	local w=$!
	( timeout 90 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- env NCCLCHECK_PROGRESS_FILE="$LAB_TMP/n0.state" \
		"$NCCLCHECK" cluster --no-python \
		>"$LAB_TMP/n0.out" 2>&1; echo $? >"$LAB_TMP/n0.rc"; date +%s%3N >"$LAB_TMP/n0.t" ) &
	local m=$!
	for _ in $(seq 1200); do linking && break; sleep 0.05; done
	linking && pass "SIG$sig: the run reached its link tests" ||
		fail "SIG$sig: the run never reached its link tests"
	tk=$(ms)
	kill -"$sig" "$victim"
	wait $m $w
	t0=$(cat "$LAB_TMP/n0.t"); t1=$(cat "$LAB_TMP/n1.t")
	expect_rc 3 "$(cat "$LAB_TMP/n0.rc")" "SIG$sig: the master cannot finish"
	expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "SIG$sig: nor can rank 1"
	expect_match "$(cat "$LAB_TMP/n0.out")" "rank 2 \($LAB_PREFIX-n2\) $2" "SIG$sig: the master names rank 2 and what it did"
	expect_match "$(cat "$LAB_TMP/n1.out")" "rank 2 \($LAB_PREFIX-n2\) $2" "SIG$sig: rank 1 names it too"
	expect_match "$(cat "$LAB_TMP/n0.out")" "cluster.peer.dead" "SIG$sig: as cluster.peer.dead"
	expect_match "$(cat "$LAB_TMP/n1.out")" "\[$LAB_PREFIX-n2\] +\(cluster.peer.dead\)" "SIG$sig: about that node on rank 1 too"
	head0=$(grep -m1 "^cluster: 3 nodes: " "$LAB_TMP/n0.out")
	[ -n "$head0" ] && grep -qxF "$head0" "$LAB_TMP/n1.out" &&
		pass "SIG$sig: rank 1 prints the master's header and node table ($head0)" ||
		fail "SIG$sig: rank 1's header differs from the master's ('$head0'; the master printed: $(head -c 600 "$LAB_TMP/n0.out"))"
	echo "SIG$sig: the master exited $((t0 - tk)) ms, rank 1 $((t1 - tk)) ms after the signal"
	# bounded, not fast: the run's own timeout is far later (slack for a loaded 2-core CI box)
	[ $((t0 - tk)) -lt 15000 ] && [ $((t1 - tk)) -lt 15000 ] &&
		pass "SIG$sig: both reported within 15 s" || fail "SIG$sig: took $((t0 - tk)) / $((t1 - tk)) ms"
	kill -CONT "$victim" 2>/dev/null
	kill -KILL "$victim" 2>/dev/null
	wait "$victim" 2>/dev/null
}

scenario KILL "(closed|reset) the connection"
scenario STOP "sent nothing for [0-9.]+ s"
# a stopped process's kernel still acknowledges: its link is not accused
expect_no_match "$(cat "$LAB_TMP/n0.out")" "acknowledged nothing|link or its host is down" \
	"SIGSTOP: the master does not blame rank 2's link"
finish
