#!/usr/bin/env bash
# ncclcheck cluster under a real mpirun (Open MPI, issue #12) in cloud-public-blocked: rank and
# size from Open MPI's own variables, and the same verdict as started by hand on each node
# (exit 1, the verdict names eth0, NCCL_SOCKET_IFNAME=eth1, the same finding ids).
# Open MPI's own out-of-band and TCP BTL traffic must be kept off the blocked eth0
# (--mca oob_tcp_if_include eth1 --mca btl_tcp_if_include eth1): without them orted on node 1
# dials mpirun's first address, 203.0.113.10 on eth0, and the launch hangs before any rank starts
# (seen: still nothing after 90 s) — the same trap NCCL falls into, in the launcher.
. "$(dirname "$0")/lib_lab.sh"
command -v mpirun >/dev/null || { echo "SKIP: mpirun missing (scripts/deps.sh installs openmpi-bin)"; exit 77; }
lab_use q3
P=$LAB_PREFIX
"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P >/dev/null 2>&1
expect_rc 0 $? "lab up cloud-public-blocked"
ids() { grep -o '([a-z0-9_]*\.[a-z0-9_.]*)$' "$1" | sort -u | tr '\n' ' '; }

# by hand: one process per node, at once
( timeout 90 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --no-python --no-bw \
	>"$LAB_TMP/hand1" 2>&1; echo $? >"$LAB_TMP/hand1.rc" ) &
w=$!
timeout 90 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python --no-bw >"$LAB_TMP/hand0" 2>&1
hrc=$?
wait $w
expect_rc 1 $hrc "by hand: rank 0 exits 1"

timeout 120 "$NCCLCHECK" lab exec $P-n0 -- mpirun --mca oob_tcp_if_include eth1 \
	--mca btl_tcp_if_include eth1 -np 2 --host $P-n0,$P-n1 \
	"$NCCLCHECK" cluster --no-python --no-bw >"$LAB_TMP/mpi" 2>&1
mrc=$?
expect_rc 1 $mrc "mpirun -np 2 --host $P-n0,$P-n1 ncclcheck cluster"
out=$(cat "$LAB_TMP/mpi")
expect_match "$out" "rank 0 of 2 \(openmpi\)" "rank 0 from Open MPI's variables"
expect_match "$out" "rank 1 of 2 \(openmpi\)" "rank 1 from Open MPI's variables"
# the verdict as one line: colours off, wrapped lines joined
flat=$(echo "$out" | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' ' | tr -s ' ')
expect_match "$flat" "verdict: NCCL as configured uses an interface some peer cannot reach \([^)]*-n0 eth0, [^)]*-n1 eth0\)" "the verdict names eth0 as what no peer reaches"
expect_match "$out" "export NCCL_SOCKET_IFNAME=eth1" "the fix: NCCL_SOCKET_IFNAME=eth1"
a=$(ids "$LAB_TMP/hand0"); b=$(ids "$LAB_TMP/mpi")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "the same findings as by hand: $a" ||
	fail "findings differ: by hand '$a', mpirun '$b'"
"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
