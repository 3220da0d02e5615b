#!/bin/bash
# cluster: n1's ncclcheck (not the master) is stopped (SIGSTOP) once the run is in its port
# scans, then continued: a CPU-starved node. Its timers fire late and its kernel keeps
# answering, so what a scan saw while it slept is the scheduler, not the network.
# Two thresholds, one derived from the other (cluster/run.c CLUSTER_DEAD_MS): a scan whose own
# timers stalled 3 s (two looks again: LINK_SCAN_STARVED_MS) trusts none of its drops, and a
# node silent 6 s (twice that) is dead. A stop shows in a scan as its length less the look it
# was in (at most 1.5 s), and at the master as its length plus a heartbeat (0.5 s).
#   - stopped 1.5 s (spoils no scan): the run goes on. No port block or port range about
#     anyone (a starved scan is not a firewall), no error or warning naming n0 or n2 unless it
#     is n1's own scan reported as not run (cluster.link.untested), every node exits the same
#     code, 0 or 1, and nobody is given up as dead.
#   - stopped 4.5 s (spoils a scan n1 was running, short of dead): nobody is given up as dead,
#     nothing names n0 or n2, and every node exits the same code: 3 with n1's own scan reported
#     as not run (cluster.link.untested) when n1 was scanning, else 0 or 1 (it only served).
#     Before the dead time was derived (3 s, the scan's own limit) this stop was a dead peer.
#   - stopped 7.5 s (past dead): n1 is named dead (cluster.peer.dead) and nobody else is named;
#     every node exits 3, n1 itself too once continued.
# ctest: run alone
# ctest: timeout 900
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_noise.sh"
lab_use nstv
noise_up

# scanning: the master's NCCLCHECK_PROGRESS_FILE says the run is in its port scans (a state,
# not a sleep that a loaded machine outruns)
scanning() { grep -qx "scan" "$LAB_TMP/n0.state" 2>/dev/null; }

# starve_run NAME SECONDS: cluster --json --no-bw on every node; n1 stopped SECONDS in the scans
starve_run() {
	local i victim w="" t0 st STOP_S=$2
	rm -f "$LAB_TMP"/n*.state "$LAB_TMP"/n*.rc
	t0=$(date +%s%3N)
	for i in 2 0; do
		( timeout 180 "$NCCLCHECK" lab exec "$LAB_PREFIX-n$i" -- \
			env NCCLCHECK_PROGRESS_FILE="$LAB_TMP/n$i.state" "$NCCLCHECK" cluster \
			--no-python --json --no-bw >"$LAB_TMP/n$i.out" 2>"$LAB_TMP/n$i.err"
		  echo $? >"$LAB_TMP/n$i.rc" ) &
		w="$w $!"
	done
	# not under timeout: the stop must reach ncclcheck itself (lab exec and env exec it)
	"$NCCLCHECK" lab exec "$LAB_PREFIX-n1" -- env NCCLCHECK_PROGRESS_FILE="$LAB_TMP/n1.state" \
		"$NCCLCHECK" cluster --no-python --json --no-bw >"$LAB_TMP/n1.out" \
		2>"$LAB_TMP/n1.err" &
	victim=$!
	LAB_PIDS="$LAB_PIDS $victim"
	( sleep 180; kill -KILL "$victim" ) >/dev/null 2>&1 &
	local dog=$!
	for _ in $(seq 2400); do scanning && break; sleep 0.05; done
	if scanning; then
		pass "$1: the run reached its port scans"
	else
		fail "$1: the run never reached its port scans ($(cat "$LAB_TMP/n0.state" 2>/dev/null))"
	fi
	kill -STOP "$victim"
	# the signal lands asynchronously: the state reads T once it did
	for _ in $(seq 100); do
		st=$(awk '{print $3}' "/proc/$victim/stat" 2>/dev/null)
		[ "$st" = T ] && break
		sleep 0.01
	done
	expect_match "$(cat "/proc/$victim/comm" 2>/dev/null) $st" "^ncclcheck T$" \
		"$1: n1's ncclcheck is stopped"
	sleep "$STOP_S"
	kill -CONT "$victim"
	wait "$victim"
	echo $? >"$LAB_TMP/n1.rc"
	kill "$dog" 2>/dev/null
	# shellcheck disable=SC2086
	wait $w
	NOISE_MS=$(($(date +%s%3N) - t0))
	echo "$1: cluster on 3 nodes, n1 stopped $STOP_S s, took $NOISE_MS ms (timing figures:" \
		"bench/, not asserted)"
	[ -n "${NOISE_BENCH:-}" ] && echo "$1 $NOISE_MS" >>"$NOISE_BENCH"
	return 0
}

for run in $(seq "${NOISE_REPEATS:-1}"); do
	starve_run "n1 stopped 1.5 s (run $run)" 1.5
	rcs="$(cat "$LAB_TMP/n0.rc") $(cat "$LAB_TMP/n1.rc") $(cat "$LAB_TMP/n2.rc")"
	expect_match "$rcs" "^([01]) \1 \1$" "every node exits the same code, 0 or 1 ($rcs)"
	expect_nq '[f["id"] + ": " + f["title"] for f in F if f["id"] in ("link.ports.blocked", "link.ports.range", "net.firewall.blocks")]' \
		'\[\]' "no port block, port range or firewall about anyone"
	expect_nq '[f["id"] + ": " + f["title"] for f in E + W if innocent(f) and not (f["id"] == "cluster.link.untested" and f.get("node") == P + "-n1")]' \
		'\[\]' "nothing names n0 or n2 but n1's own scans reported as not run"
	expect_nq '[f["id"] for f in F if f["id"] in ("cluster.peer.dead", "cluster.rdv.aborted")]' \
		'\[\]' "no node given up as dead"
	echo "findings that count: $(nq '[f["id"] + " [" + str(f.get("node")) + "]" for f in E + W]')"

	starve_run "n1 stopped 4.5 s (run $run)" 4.5
	rcs="$(cat "$LAB_TMP/n0.rc") $(cat "$LAB_TMP/n1.rc") $(cat "$LAB_TMP/n2.rc")"
	expect_nq '[f["id"] for f in F if f["id"] in ("cluster.peer.dead", "cluster.rdv.aborted")]' \
		'\[\]' "4.5 s: no node given up as dead (dead is 6 s)"
	untested=$(nq '[f["node"] for f in E if f["id"] == "cluster.link.untested"]')
	if [ "$untested" = "[]" ]; then
		expect_match "$rcs" "^([01]) \1 \1$" "4.5 s, n1 only served: every node exits 0 or 1 ($rcs)"
	else
		expect_match "$untested" "^\[('$LAB_PREFIX-n1'(, )?)+\]$" \
			"4.5 s: the scans reported as not run are n1's own ($untested)"
		expect_match "$rcs" "^3 3 3$" "4.5 s: every node exits 3, no verdict on n1's scans ($rcs)"
	fi
	expect_nq '[f["id"] + ": " + f["title"] for f in F if f["id"] in ("link.ports.blocked", "link.ports.range", "net.firewall.blocks")]' \
		'\[\]' "4.5 s: no port block, port range or firewall about anyone"
	expect_nq '[f["id"] + ": " + f["title"] for f in E + W if innocent(f) and not (f["id"] == "cluster.link.untested" and f.get("node") == P + "-n1")]' \
		'\[\]' "4.5 s: nothing names n0 or n2 but n1's own scans reported as not run"
	echo "4.5 s: n1's scans reported as not run: $untested"

	starve_run "n1 stopped 7.5 s (run $run)" 7.5
	rcs="$(cat "$LAB_TMP/n0.rc") $(cat "$LAB_TMP/n1.rc") $(cat "$LAB_TMP/n2.rc")"
	expect_match "$rcs" "^3 3 3$" "every node exits 3, n1 too ($rcs)"
	expect_nq '[f["node"] for f in E if f["id"] == "cluster.peer.dead"]' "\['$LAB_PREFIX-n1'\]" \
		"the master names n1 dead"
	expect_match "$(cat "$LAB_TMP/n2.out")" "cluster.peer.dead" "so does n2"
	expect_nq '[f["id"] + ": " + f["title"] for f in F if f["id"] in ("link.ports.blocked", "link.ports.range", "net.firewall.blocks")]' \
		'\[\]' "no port block, port range or firewall about anyone"
	noise_no_innocent
done
finish
