#!/bin/bash
# attach --all-nodes across 3 lab nodes (network namespaces), one stand-in rank each: a live
# Python process (tests/fixtures/pystack/sleeper.py) that maps a fake libnccl, as a rank does.
# Ranks 0 and 1 sleep in inner_sleep; rank 2 spins in spin(). Each node's RAS is a replay
# (tests/fakes/ras_replay.py) of one job-wide answer in which rank 2 has launched one AllReduce
# fewer. attach runs on every node at once: each reads only its own rank's stack, and every node
# prints the same verdict (rank 2's code, read on n2) and the same groups, the odd rank named.
# Then the failures: a node that never comes (named, the others answer, bounded), one that
# freezes once joined (SIGSTOP), a node with a wrong token, and garbage on the master's port.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use atn
SL=$SRCDIR/tests/fixtures/pystack/sleeper.py
REPLAY=$SRCDIR/tests/fakes/ras_replay.py
LOAD=$FAKESDIR/nccl/libnccl.so.2
[ -e "$LOAD" ] || { echo "SKIP: no fake libnccl at $LOAD"; exit 77; }
T=$LAB_TMP
export NCCLCHECK_TOKEN=attach-nodes-test
APORT=29611	# attach's own rendezvous port: a job's TCPStore holds MASTER_PORT

out=$("$NCCLCHECK" lab up --nodes 3 --scenario healthy --prefix "$LAB_PREFIX" 2>&1)
expect_rc 0 $? "lab up" || { echo "$out"; finish; }

# the stand-in ranks, started in their nodes; ${pid[i]} once each has printed "ready"
addr=() pid=()
for i in 0 1 2; do
	addr[i]=$(lx "n$i" ip -4 -o addr show scope global | awk '{print $4}' | cut -d/ -f1 | head -1)
	mode=; [ "$i" = 2 ] && mode=spin
	# exec: the pid the shell writes is the Python process's
	lx "n$i" sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/rank$i.pid" env SLEEPER_LOAD="$LOAD" \
		"$PY" "$SL" $mode >"$T/rank$i.out" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
done
for i in 0 1 2; do
	for _ in $(seq 200); do grep -q ready "$T/rank$i.out" 2>/dev/null && break; sleep 0.05; done
	pid[i]=$(cat "$T/rank$i.pid" 2>/dev/null)
	LAB_PIDS="$LAB_PIDS ${pid[i]}"
done
[ -n "${pid[0]}" ] && [ -n "${pid[1]}" ] && [ -n "${pid[2]}" ] && [ -n "${addr[2]}" ] ||
	{ fail "stand-in ranks: pids '${pid[*]}', addresses '${addr[*]}'"; finish; }
pass "3 stand-in ranks: pids ${pid[*]} on ${addr[*]}"
sleep 0.3	# past print(): into the sleep and the loop

# one job-wide RAS answer, two polls: rank 2 launched 5 AllReduce, the others 6
"$PY" "$SRCDIR/tests/fakes/ras_job.py" "$SRCDIR/tests/fixtures/attach/ras/sleep.json" "$T/ras.json" \
	"${addr[*]}" "${pid[*]}" 2 1 "attach_nodes.sh: 3 ranks, rank 2 one AllReduce behind; synthetic"
# serve_ras I: a replay on node I's own loopback; its port in $T/ras_port$i
serve_ras() {
	rm -f "$T/ras_port$1"
	lx "n$1" timeout 120 "$PY" "$REPLAY" "$T/ras.json" --port-file "$T/ras_port$1" --idle 60 \
		>/dev/null 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	for _ in $(seq 200); do [ -s "$T/ras_port$1" ] && break; sleep 0.05; done
}
# attach_on I ARGS...: attach --all-nodes on node I, output in $T/a$I.out, exit code in .rc
attach_on() {
	local i=$1; shift
	timeout 60 "$NCCLCHECK" lab exec "$LAB_PREFIX-n$i" -- "$NCCLCHECK" attach --no-color \
		--all-nodes --master "${addr[0]}:$APORT" --ras "127.0.0.1:$(cat "$T/ras_port$i")" \
		--interval 2s "$@" >"$T/a$i.out" 2>&1
	echo $? >"$T/a$i.rc"
}
ms() { date +%s%3N; }

for i in 0 1 2; do serve_ras $i; done
t0=$(ms)
attach_on 1 & w1=$!
attach_on 2 & w2=$!
attach_on 0
wait $w1 $w2
t1=$(ms)
for i in 0 1 2; do
	o=$(cat "$T/a$i.out")
	expect_rc 1 "$(cat "$T/a$i.rc")" "n$i: a culprit found"
	expect_match "$o" "^verdict: rank 2 \(pid ${pid[2]} on ${addr[2]//./\\.}, GPU 0\) has not launched AllReduce #6 .*it is running.*; it is in <module> \(sleeper\.py:21\) → spin \(sleeper\.py:14\)" \
		"n$i: the verdict names rank 2's loop, read on n2"
	expect_match "$o" "^ranks by Python stack \(main thread\), every node:" "n$i: the job-wide groups"
	expect_match "$o" " 2 ranks \(rank 0 on [^,]*, rank 1 on [^)]*\): in <module> \(sleeper\.py:21\) → outer \(sleeper\.py:11\) → inner_sleep \(sleeper\.py:9\)" \
		"n$i: ranks 0 and 1 in one group"
	expect_match "$o" "^  1 rank \(rank 2 on [^)]*\): in <module> \(sleeper\.py:21\) → spin \(sleeper\.py:14\)$" \
		"n$i: the odd rank named, last"
	expect_no_match "$o" "is not in it" "n$i: every node answered"
done
[ "$(sed -n '/^verdict/,$p' "$T/a0.out")" = "$(sed -n '/^verdict/,$p' "$T/a1.out")" ] &&
[ "$(sed -n '/^verdict/,$p' "$T/a0.out")" = "$(sed -n '/^verdict/,$p' "$T/a2.out")" ] &&
	pass "every node prints the same report" || fail "the reports differ"
# not a timing assertion (bench/ measures): a bound far above the 2 s of polls, far below a hang
[ $((t1 - t0)) -lt 40000 ] && pass "answered in $((t1 - t0)) ms" || fail "took $((t1 - t0)) ms"
echo "timing: 3 nodes answered in $((t1 - t0)) ms"

# --json on every node: the groups with each member's rank, node and pid
for i in 0 1 2; do serve_ras $i; done
attach_on 1 --json & w1=$!
attach_on 2 --json & w2=$!
attach_on 0 --json --html "$T/a0.html"
wait $w1 $w2
if "$PY" "$SRCDIR/tests/integration/html_check.py" "$T/a0.out" "$T/a0.html" >"$T/hc" 2>&1 &&
   grep -q "Every node's ranks by Python stack" "$T/a0.html" && grep -q 'spin (sleeper.py:14)' "$T/a0.html"; then
	pass "--html: the job-wide groups, every figure the document's"
else fail "--html: $(cat "$T/hc")"; fi
for i in 0 1 2; do
	"$PY" - "$T/a$i.out" "${pid[2]}" <<'PY' && pass "n$i --json: job_stack_groups and nodes" || fail "n$i --json: $(head -c 2000 "$T/a$i.out")"
import json, sys
d = json.loads(open(sys.argv[1]).read())
g = d["job_stack_groups"]
assert [len(x["ranks"]) for x in g] == [2, 1], g
odd = g[1]["ranks"][0]
assert odd["rank"] == 2 and odd["pid"] == int(sys.argv[2]) and odd["node_rank"] == 2, odd
assert g[1]["stack"].endswith("spin (sleeper.py:14)"), g
assert all(n["answered"] for n in d["nodes"]) and len(d["nodes"]) == 3, d["nodes"]
assert d["exit_code"] == 1
PY
done

# a node that never comes: named, and the others still answer, bounded by --join-timeout
for i in 0 1; do serve_ras $i; done
t0=$(ms)
attach_on 1 --join-timeout 3s & w1=$!
attach_on 0 --join-timeout 3s
wait $w1
t1=$(ms)
for i in 0 1; do
	o=$(cat "$T/a$i.out")
	expect_match "$o" "^node 2 \([^)]*\) is not in it: did not join" "n$i: the missing node named"
	expect_match "$o" "cluster\.rdv\.missing" "n$i: as cluster.rdv.missing"
	expect_match "$o" "^verdict: rank 2 .*has not launched AllReduce #6" "n$i: RAS still names rank 2"
done
expect_no_match "$(cat "$T/a0.out")" "spin \(sleeper" "rank 2's code is not guessed without its node"
[ $((t1 - t0)) -lt 30000 ] && pass "bounded: $((t1 - t0)) ms with a node missing" || fail "took $((t1 - t0)) ms"

# a node that freezes once joined (SIGSTOP: its heartbeats stop): named dead, the others answer.
# Polls 6 s apart: it is declared dead (3 s of silence) while the others still collect, and
# their answers must still count
for i in 0 1 2; do serve_ras $i; done
attach_on 1 --interval 6s & w1=$!
attach_on 2 --interval 6s & w2=$!
# its attach (and the lab exec before it) by its RAS port, once it has had a second to join
frozen() { pgrep -f -- "--ras 127.0.0.1:$(cat "$T/ras_port2")"; }
( sleep 1; kill -STOP $(frozen) ) &
t0=$(ms)
attach_on 0 --interval 6s
t1=$(ms)
wait $w1
kill -CONT $(frozen) 2>/dev/null
wait $w2
expect_rc 1 "$(cat "$T/a0.rc")" "a frozen node: the master still answers"
expect_match "$(cat "$T/a0.out")" "cluster\.peer\.dead|cluster\.rdv\.missing" "the frozen node is named (dead; missing had it frozen before it joined)"
expect_match "$(cat "$T/a0.out")" "^node 2 \([^)]*\) is not in it: (died or went silent|did not join)" "and left out of the answer"
expect_match "$(cat "$T/a0.out")" " 2 ranks \(rank 0 on [^,]*, rank 1 on [^)]*\): in <module>" "node 1's rank still in the groups"
expect_match "$(cat "$T/a1.out")" "^verdict: rank 2 " "node 1 prints the master's answer"
expect_match "$(cat "$T/a1.out")" " 2 ranks \(rank 0 on [^,]*, rank 1 on [^)]*\): in <module>" "the same groups"
[ $((t1 - t0)) -lt 30000 ] && pass "bounded: $((t1 - t0)) ms with a node frozen" || fail "took $((t1 - t0)) ms"

# a node with the wrong token: refused, named; the one with the right token answers
for i in 0 1 2; do serve_ras $i; done
attach_on 1 --join-timeout 4s & w1=$!
( NCCLCHECK_TOKEN=wrong attach_on 2 --join-timeout 4s ) & w2=$!
attach_on 0 --join-timeout 4s
wait $w1 $w2
expect_match "$(cat "$T/a0.out")" "cluster\.auth\.failed" "a wrong token: cluster.auth.failed on the master"
expect_match "$(cat "$T/a0.out")" "^node 2 \([^)]*\) is not in it" "and that node is not in the answer"
expect_match "$(cat "$T/a1.out")" "^verdict: rank 2 " "the right-token node still prints the answer"
case $(cat "$T/a2.rc") in 0|1|3) pass "the wrong-token node exits $(cat "$T/a2.rc"), no crash" ;;
	*) fail "the wrong-token node: exit $(cat "$T/a2.rc"): $(cat "$T/a2.out")" ;; esac

# garbage on the master's port while the nodes meet: dropped, the answer stands
for i in 0 1; do serve_ras $i; done
attach_on 1 --nodes 2 & w1=$!
( sleep 0.5; lx n2 "$PY" -c '
import socket, sys
for junk in (b"GET / HTTP/1.0\r\n\r\n", b"\xff" * 70000, b"\x00\x00\x00\x05hello"):
    try:
        s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=2)
        s.sendall(junk); s.close()
    except OSError:
        pass
' "${addr[0]}" "$APORT" ) &
attach_on 0 --nodes 2
wait $w1
expect_rc 1 "$(cat "$T/a0.rc")" "garbage on the port: the master still answers"
expect_match "$(cat "$T/a0.out")" "^  1 rank \(rank 1 on [^)]*\)|^  2 ranks" "with node 1's rank in the groups"
expect_match "$(cat "$T/a0.out")" "cluster\.peer\.(garbage|oversized|stalled)" "the garbage is named"
finish
