#!/bin/bash
# cluster when a node is too slow or too starved to take part: a worker whose probes outlast rank
# 0's facts timeout is named slow (cluster.peer.slow); a target without file descriptors for the
# scan's listeners cannot run that link test, which is said (cluster.link.failed), not hidden.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use xl
P=$LAB_PREFIX
"$NCCLCHECK" lab up --nodes 2 --prefix $P >/dev/null || { fail "lab up"; finish; }
mkdir -p "$LAB_TMP/bin"
printf '#!/bin/sh\nsleep 30\n' > "$LAB_TMP/bin/python3"; chmod +x "$LAB_TMP/bin/python3"

# n1's python3 on PATH hangs (the probe gives up after 20 s); rank 0 waits 3 s for facts
( PATH="$LAB_TMP/bin:$PATH" timeout 40 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --json \
	>"$LAB_TMP/s1.json" 2>/dev/null ) &
w=$!
out=$(NCCLCHECK_FACTS_TIMEOUT_MS=3000 timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster \
	--no-python --no-color 2>&1); rc=$?
wait $w
expect_rc 3 $rc "rank 0 cannot finish without n1's facts"
expect_match "$out" "cluster\.peer\.slow" "the slow node is named (cluster.peer.slow)"
expect_match "$out" "$P-n1" "by name"

# n1 runs with 24 file descriptors: its scan listeners do not fit
( timeout 60 "$NCCLCHECK" lab exec $P-n1 -- sh -c "ulimit -n 24; exec $NCCLCHECK cluster --no-python --no-bw --no-mtu" \
	>/dev/null 2>&1 ) &
w=$!
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python --no-bw --no-mtu --no-color 2>&1); rc=$?
wait $w
echo "$out" | grep -E "cluster\.link\.failed|^ERROR" | head -5
expect_match "$out" "cluster\.link\.failed" "a link test that could not run is said (cluster.link.failed)"
"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
