#!/bin/bash
# cluster: tokens and strangers. The same token on both nodes: a clean run without the no-token
# warning. A wrong token: the worker is refused (exit 3, the check could not run) and the master names rank 1 and why.
# Garbage on the master's port while it waits: dropped with a warning, the run still passes.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt4

out=$("$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX 2>&1); expect_rc 0 $? "lab up"
printf 's3cret-of-this-job\n' >"$LAB_TMP/tok"
printf 'another-job\n' >"$LAB_TMP/bad"

# run_pair N0_ARGS -- N1_ARGS
run_pair() {
	local a=() b=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	( timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python --no-ports \
		"${b[@]}" >"$LAB_TMP/n1.out" 2>&1; echo $? >"$LAB_TMP/n1.rc" ) &
	local w=$!
	timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --no-ports \
		"${a[@]}" >"$LAB_TMP/n0.out" 2>&1; echo $? >"$LAB_TMP/n0.rc"
	wait $w
}

run_pair --token-file "$LAB_TMP/tok" -- --token-file "$LAB_TMP/tok"
expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "same token: the master passes"
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "same token: the worker passes"
expect_no_match "$(cat "$LAB_TMP/n0.out")" "cluster.auth.none" "no no-token warning with a token"
# NCCLCHECK_TOKEN works as well as the file
( timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- env NCCLCHECK_TOKEN=s3cret-of-this-job \
	"$NCCLCHECK" cluster --no-python --no-ports >/dev/null 2>&1; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --no-ports \
	--token-file "$LAB_TMP/tok" 2>&1); expect_rc 0 $? "NCCLCHECK_TOKEN on the worker"
wait $w

run_pair --token-file "$LAB_TMP/tok" --timeout 2 -- --token-file "$LAB_TMP/bad" --timeout 2
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "wrong token: the worker is refused"
expect_match "$(cat "$LAB_TMP/n1.out")" "refused this node \(auth\).*does not match" "and told why"
expect_match "$(cat "$LAB_TMP/n1.out")" "cluster.auth.failed" "as cluster.auth.failed"
rc=$(cat "$LAB_TMP/n0.rc")
expect_rc 3 "$rc" "wrong token: the master cannot run either"
expect_match "$(cat "$LAB_TMP/n0.out")" "rank 1 never arrived within 2 s; its attempt from 10\.10\.0\.11:[0-9]+ \($LAB_PREFIX-n1\) was refused: wrong token" \
	"the master names rank 1, its address and the wrong token"
# a token on the worker only: it will not trust a master that asks for none
run_pair --timeout 2 -- --token-file "$LAB_TMP/tok" --timeout 2
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "token on the worker only: refused"
expect_match "$(cat "$LAB_TMP/n1.out")" "asks for none" "says the master asks for no token"

# strangers on the port while the master waits: garbage and an oversized frame, then rank 1
timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --no-ports \
	--timeout 10 >"$LAB_TMP/n0.out" 2>&1 &
m=$!
sleep 0.3
lx n1 "$PY" -c '
import socket, struct, time
s = socket.create_connection(("10.10.0.10", 29500), 2); s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
o = socket.create_connection(("10.10.0.10", 29500), 2); o.sendall(struct.pack(">I", 1 << 30) + b"{")
j = socket.create_connection(("10.10.0.10", 29500), 2); j.sendall(struct.pack(">I", 5) + b"[1,2]")
time.sleep(0.3)
for c in (s, o, j):
    c.settimeout(2); assert c.recv(1) == b"", "the master did not drop it"
print("dropped")' >"$LAB_TMP/g.out" 2>&1
expect_match "$(cat "$LAB_TMP/g.out")" "^dropped$" "the master closed all three strangers"
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python --no-ports 2>&1)
expect_rc 0 $? "the real worker still joins and passes"
wait $m; rc=$?
expect_rc 0 $rc "the master survived the strangers"
out=$(cat "$LAB_TMP/n0.out")
expect_match "$out" "starts with 'GET ', not a frame header; dropped" "garbage named (HTTP)"
expect_match "$out" "an oversized frame: .*1073741824 bytes" "oversized frame named"
expect_match "$out" "a JSON array, not an object" "a JSON non-message named"
expect_match "$out" "cluster.peer.garbage" "as cluster.peer.garbage"
expect_match "$out" "cluster.peer.oversized" "and cluster.peer.oversized"
finish
