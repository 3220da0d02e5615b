#!/bin/bash
# cluster: a node whose own link goes down mid-run (ip link set eth1 down in its namespace).
# That node sees it and says so ("my eth1 went down"); the others name that node, never a
# bystander: a worker's link down is named by the master and the other worker, the master's link
# down is named by the master itself while the workers name the master. Every node exits 3.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use ld
P=$LAB_PREFIX
ms() { date +%s%3N; }

out=$("$NCCLCHECK" lab up --nodes 3 --scenario healthy --prefix $P 2>&1); expect_rc 0 $? "lab up"

# scenario NODE: NODE's eth1 goes down 1.5 s into the run (the port scans take several seconds)
scenario() {
	local v=$1 tk w="" i
	for i in 2 1 0; do
		( timeout 40 "$NCCLCHECK" lab exec $P-n$i -- "$NCCLCHECK" cluster --no-python \
			>"$LAB_TMP/n$i.out" 2>&1; echo $? >"$LAB_TMP/n$i.rc"; ms >"$LAB_TMP/n$i.t" ) &
		w="$w $!"
		[ $i = 0 ] || sleep 0.2
	done
	sleep 1.5
	tk=$(ms)
	lx "$v" ip link set eth1 down
	# shellcheck disable=SC2086
	wait $w
	lx "$v" ip link set eth1 up
	for i in 0 1 2; do
		expect_rc 3 "$(cat "$LAB_TMP/n$i.rc")" "$v down: n$i cannot finish (exit 3)"
		t=$(cat "$LAB_TMP/n$i.t")
		[ $((t - tk)) -lt 15000 ] && pass "$v down: n$i ended $((t - tk)) ms after the link" ||
			fail "$v down: n$i took $((t - tk)) ms"
	done
	expect_match "$(cat "$LAB_TMP/$v.out")" "lost its own link: my eth1 went down" \
		"$v down: $v says its own eth1 went down"
}

scenario n2
expect_match "$(cat "$LAB_TMP/n0.out")" "rank 2 \($P-n2\) sent nothing" "n2 down: the master names rank 2"
expect_match "$(cat "$LAB_TMP/n1.out")" "rank 2 \($P-n2\) sent nothing" "n2 down: rank 1 names rank 2"
# the master sees the link go: n2's kernel stopped acknowledging its heartbeats (a stopped process's
# kernel would still acknowledge them: cluster_dead's SIGSTOP)
expect_match "$(cat "$LAB_TMP/n0.out")" "rank 2 \($P-n2\) sent nothing for [0-9.]+ s and its host has acknowledged nothing this node sent for [0-9.]+ s: its link or its host is down" \
	"n2 down: the master says rank 2's link or host is down"
expect_match "$(cat "$LAB_TMP/n1.out")" "its link or its host is down" "n2 down: rank 1 hears the same"
expect_no_match "$(cat "$LAB_TMP/n1.out")" "the master \(rank 0" "n2 down: rank 1 does not blame the master"
head0=$(grep -m1 "^cluster: 3 nodes: " "$LAB_TMP/n0.out")
[ -n "$head0" ] && grep -qxF "$head0" "$LAB_TMP/n1.out" &&
	pass "n2 down: rank 1 prints the master's header" || fail "n2 down: rank 1's header ('$head0')"
expect_no_match "$(cat "$LAB_TMP/n2.out")" "the master \(rank 0, [0-9.:]+\) sent nothing" \
	"n2 down: n2 does not blame the master"

scenario n0
expect_no_match "$(cat "$LAB_TMP/n0.out")" "rank [12] \($P-n[12]\) sent nothing" \
	"n0 down: the master blames no worker"
for i in 1 2; do
	expect_match "$(cat "$LAB_TMP/n$i.out")" "the master \(rank 0, 10\.10\.0\.10:29500\) sent nothing.*own link to it is up" \
		"n0 down: rank $i names the master, its own link up"
done
finish
