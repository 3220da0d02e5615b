#!/bin/bash
# run on every node of a multi-node launch decides together: when one node's launch does not
# add up (here node 1 exports WORLD_SIZE=3 for 2 nodes x 1 process), EVERY node refuses to start
# CMD, promptly and with the same message naming that node and the finding id. Before, node 1
# refused on its own environment while node 0 passed the cluster verdict, started CMD and waited
# in torch's rendezvous for a rank that never came. The launch variables travel in each node's
# facts; the master judges them; every node reads them from the one report. Also: the master
# itself with the error (the worker refuses too), and a consistent launch that starts on both.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use rs2
P=$LAB_PREFIX
BOUND=30	# seconds each node may take to refuse (the rendezvous and link tests take ~3 s)

timeout 60 "$NCCLCHECK" lab up --nodes 2 --prefix $P >/dev/null
rc=$?
[ $rc = 0 ] || { echo "SKIP: lab up failed (exit $rc): no network namespaces here?"; exit 77; }

# both N0ENV N1ENV: `run -- touch marker` on both nodes at once, each with its extra environment;
# sets rc0 rc1, el0 el1 (seconds) and leaves out.0 out.1 and the markers in $LAB_TMP
both() {
	local envs=("$1" "$2") pids=() i
	rm -f "$LAB_TMP"/started.* "$LAB_TMP"/out.* "$LAB_TMP"/t.*
	for i in 0 1; do
		# shellcheck disable=SC2086 # the extra environment is words on purpose
		( s=$(date +%s%N)
		  timeout 90 "$NCCLCHECK" lab exec $P-n$i -- env ${envs[$i]} "$NCCLCHECK" run \
			--no-python --timeout 20 -- touch "$LAB_TMP/started.$i" >"$LAB_TMP/out.$i" 2>&1
		  r=$?
		  echo "$r $(( ($(date +%s%N) - s) / 1000000 ))" >"$LAB_TMP/t.$i" ) &
		pids+=($!)
	done
	for i in 0 1; do wait "${pids[$i]}"; done
	read -r rc0 ms0 <"$LAB_TMP/t.0"; read -r rc1 ms1 <"$LAB_TMP/t.1"
	el0=$((ms0 / 1000)); el1=$((ms1 / 1000))
	echo "  node 0: exit $rc0 after $ms0 ms; node 1: exit $rc1 after $ms1 ms"
}

BAD="LOCAL_WORLD_SIZE=1 WORLD_SIZE=3"
GOOD="LOCAL_WORLD_SIZE=1 WORLD_SIZE=2"

# 1. node 1's launch is inconsistent: both nodes refuse, neither starts CMD
both "$GOOD" "$BAD"
expect_rc 1 "$rc0" "node 0 refuses because of node 1's finding"
expect_rc 1 "$rc1" "node 1 refuses"
[ ! -e "$LAB_TMP/started.0" ] && pass "node 0 did not start CMD" || fail "node 0 started CMD"
[ ! -e "$LAB_TMP/started.1" ] && pass "node 1 did not start CMD" || fail "node 1 started CMD"
[ "$el0" -lt $BOUND ] && [ "$el1" -lt $BOUND ] && pass "both refused within $BOUND s" ||
	fail "too slow: $el0 s, $el1 s"
for i in 0 1; do
	out=$(cat "$LAB_TMP/out.$i")
	expect_match "$out" "node and cluster checks: node rank $i of 2" "node $i: the cluster check ran"
	expect_match "$out" "not starting 'touch': 1 error\(s\) that the recommended environment does not fix: launch\.world_size on $P-n1 \(rank 1\)$" \
		"node $i: the refusal names node 1 and launch.world_size"
	expect_match "$out" "WORLD_SIZE=3, but 2 nodes x 1 process per node = 2 +\[$P-n1\]" \
		"node $i: shows node 1's finding"
	expect_match "$out" "every node of the job stops on this same verdict" \
		"node $i: says that every node stops"
	expect_match "$out" "^verdict: not starting 'touch': WORLD_SIZE=3, but 2 nodes" \
		"node $i: the verdict names the refusal and its cause"
	v=$(printf '%s\n' "$out" | grep -n -m1 '^verdict:' | cut -d: -f1)
	w=$(printf '%s\n' "$out" | grep -n -m1 '^ERROR .*WORLD_SIZE=3, but 2 nodes' | cut -d: -f1)
	[ -n "$v" ] && [ -n "$w" ] && [ "$v" -lt "$w" ] && pass "node $i: the verdict comes before the findings" ||
		fail "node $i: the verdict (line ${v:-none}) is not before the findings (line ${w:-none})"
done

# 2. the master's own launch is the inconsistent one: the worker refuses as well
both "$BAD" "$GOOD"
[ "$rc0 $rc1" = "1 1" ] && pass "master's error: both refuse (exit 1 1)" ||
	fail "master's error: exit $rc0 $rc1, expected 1 1"
[ ! -e "$LAB_TMP/started.0" ] && [ ! -e "$LAB_TMP/started.1" ] && pass "neither started CMD" ||
	fail "CMD started: $(ls "$LAB_TMP" | grep started)"
expect_match "$(cat "$LAB_TMP/out.1")" "launch\.world_size on $P-n0 \(rank 0\)$" \
	"node 1's refusal names node 0"

# 3. a consistent launch (the same variables, numbers that add up) starts on both
both "$GOOD" "$GOOD"
[ "$rc0 $rc1" = "0 0" ] && pass "consistent launch: CMD ran on both (exit 0 0)" ||
	{ fail "consistent launch: exit $rc0 $rc1"; tail -n 6 "$LAB_TMP/out.0" "$LAB_TMP/out.1" >&2; }
[ -e "$LAB_TMP/started.0" ] && [ -e "$LAB_TMP/started.1" ] && pass "both markers written" ||
	fail "a marker is missing"
expect_no_match "$(cat "$LAB_TMP/out.0" "$LAB_TMP/out.1")" "launch\." "no launch finding"

timeout 60 "$NCCLCHECK" lab down --prefix $P >/dev/null; expect_rc 0 $? "down"
lab_gone $P
finish
