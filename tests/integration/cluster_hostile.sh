#!/bin/bash
# cluster: hostile connections and claims of identity.
# 1. While n2 floods the master's port (300 idle connections, 100 slow-loris ones trickling a
#    byte a second, 100 that speak HTTP, all reopened as soon as they are closed), n0 and n1 run a
#    2-node check: both join and pass, and the master's report names 10.10.0.12 and what it did.
# 2. n2 claims rank 0 as well (its own listener on its own address): within seconds every node
#    exits 3 with the same sentence, naming both processes (host, address, pid).
# 3. the master is told another node count than the workers: every node exits 3, same sentence.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use ho
P=$LAB_PREFIX
ms() { date +%s%3N; }

out=$("$NCCLCHECK" lab up --nodes 3 --scenario healthy --prefix $P 2>&1); expect_rc 0 $? "lab up"

cat >"$LAB_TMP/flood.py" <<'PY'
import socket, sys, time
port, secs = int(sys.argv[1]), float(sys.argv[2])
want = {"idle": 300, "slow": 100, "http": 100}
live = {k: [] for k in want}
opened = 0
end = time.time() + secs
while time.time() < end:
    for kind, n in want.items():
        while len(live[kind]) < n:
            try:
                s = socket.create_connection(("10.10.0.10", port), 1)
            except OSError:
                break
            opened += 1
            if kind == "http":
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            s.setblocking(False)
            live[kind].append(s)
        keep = []
        for s in live[kind]:
            try:
                if s.recv(64) == b"":
                    s.close(); continue
            except BlockingIOError:
                pass
            except OSError:
                s.close(); continue
            if kind == "slow":
                try:
                    s.send(b"\x00")
                except OSError:
                    s.close(); continue
            keep.append(s)
        live[kind] = keep
    time.sleep(0.5)
print("opened", opened)
PY
lx n2 "$PY" "$LAB_TMP/flood.py" 29500 25 >"$LAB_TMP/flood.out" 2>&1 &
fl=$!
LAB_PIDS="$LAB_PIDS $fl"
( timeout 60 "$NCCLCHECK" lab exec $P-n0 -- env NNODES=2 "$NCCLCHECK" cluster --no-python \
	--no-ports --no-bw --timeout 30 >"$LAB_TMP/n0.out" 2>&1; echo $? >"$LAB_TMP/n0.rc" ) &
m=$!
sleep 4	# the flood is in place before the worker comes
t0=$(ms)
timeout 60 "$NCCLCHECK" lab exec $P-n1 -- env NNODES=2 "$NCCLCHECK" cluster --no-python \
	--no-ports --no-bw --timeout 30 >"$LAB_TMP/n1.out" 2>&1; rc=$?
t1=$(ms)
wait $m
expect_rc 0 $rc "flood: the real worker joins and passes ($((t1 - t0)) ms)"
expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "flood: the master passes"
wait $fl
echo "flood: $(cat "$LAB_TMP/flood.out")"
out=$(cat "$LAB_TMP/n0.out")
expect_match "$out" "10\.10\.0\.12 held connections to the master's port open without finishing the handshake.*\[[0-9]+ connections from 10\.10\.0\.12 did this\]" \
	"flood: the squatter is named once with its address and a count"
expect_match "$out" "starts with 'GET ', not a frame header; dropped" "flood: the HTTP speaker is named"
expect_match "$out" "cluster.peer.stalled" "flood: as cluster.peer.stalled"
[ "$(grep -c "10\.10\.0\.12" <<<"$out")" -lt 20 ] && pass "flood: a few lines, not one per connection" ||
	fail "flood: $(grep -c "10\.10\.0\.12" <<<"$out") lines name 10.10.0.12"

# 2. a second rank 0
t0=$(ms)
for i in 0 1 2; do
	r=$i; [ $i = 2 ] && r=0
	( timeout 60 "$NCCLCHECK" lab exec $P-n$i -- env NODE_RANK=$r "$NCCLCHECK" cluster --no-python \
		--timeout 30 >"$LAB_TMP/n$i.out" 2>&1; echo $? >"$LAB_TMP/n$i.rc"; ms >"$LAB_TMP/n$i.t" ) &
	eval "p$i=$!"
	sleep 0.3
done
# shellcheck disable=SC2154
wait "$p0" "$p1" "$p2"
re="two processes claim rank 0: $P-n[02] \(the master at 10\.10\.0\.10, pid [0-9]+\) and $P-n[02] \(10\.10\.0\.12:[0-9]+, pid [0-9]+\)"
for i in 0 1 2; do
	expect_rc 3 "$(cat "$LAB_TMP/n$i.rc")" "two rank 0: n$i exits 3"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "$re" "two rank 0: n$i names both processes"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "cluster.rdv.duplicate_rank" "two rank 0: n$i as cluster.rdv.duplicate_rank"
	t=$(cat "$LAB_TMP/n$i.t")
	[ $((t - t0)) -lt 10000 ] && pass "two rank 0: n$i ended $((t - t0)) ms after the first start (timeout 30 s)" ||
		fail "two rank 0: n$i took $((t - t0)) ms"
done
s0=$(grep -o "two processes claim rank 0[^:]*: [^:]*: every node needs its own[^ ]*" "$LAB_TMP/n0.out" | head -1)
for i in 1 2; do
	grep -qF "$s0" "$LAB_TMP/n$i.out" && pass "two rank 0: n$i prints the master's very sentence" ||
		fail "two rank 0: n$i says otherwise"
done

# 3. the master told another node count than the workers
( timeout 60 "$NCCLCHECK" lab exec $P-n0 -- env NNODES=4 "$NCCLCHECK" cluster --no-python \
	--timeout 30 >"$LAB_TMP/n0.out" 2>&1; echo $? >"$LAB_TMP/n0.rc" ) &
m=$!
sleep 0.3
for i in 1 2; do
	( timeout 60 "$NCCLCHECK" lab exec $P-n$i -- "$NCCLCHECK" cluster --no-python --timeout 30 \
		>"$LAB_TMP/n$i.out" 2>&1; echo $? >"$LAB_TMP/n$i.rc" ) &
	eval "w$i=$!"
done
# shellcheck disable=SC2154
wait $m "$w1" "$w2"
for i in 0 1 2; do
	expect_rc 3 "$(cat "$LAB_TMP/n$i.rc")" "wrong --nodes on the master: n$i exits 3"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "was told the job has 3 nodes, the master \($P-n0\) 4" \
		"wrong --nodes on the master: n$i names both counts"
done
finish
