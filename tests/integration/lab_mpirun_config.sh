#!/bin/bash
# The mpirun line `ncclcheck config --mpirun` writes, under a real Open MPI in the lab's
# cloud-public-blocked (issue #11): from a cluster verdict it carries Open MPI's own interface
# selection (--mca oob_tcp_if_include eth1 --mca btl_tcp_if_include eth1, the interface NCCL is
# told to use) besides -x NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME, and it runs the real torch job
# (gloo all-reduce, sum checked) on both nodes; the very same line without the --mca flags hangs
# (orted on node 1 dials mpirun's first address, the blocked 203.0.113.10) until a bounded timeout.
# Also `mpirun -np 4 ncclcheck run -- CMD` with two ranks per node: one cluster check per node,
# the other local rank waits at the node's gate and starts with the verdict's environment.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
command -v mpirun >/dev/null || { echo "SKIP: mpirun missing (scripts/deps.sh installs openmpi-bin)"; exit 77; }
TORCHPY=/usr/bin/python3
"$TORCHPY" -c 'import torch.distributed' 2>/dev/null ||
	{ echo "SKIP: $TORCHPY has no torch (Debian python3-torch; scripts/deps.sh installs it)"; exit 77; }
lab_use rc2
P=$LAB_PREFIX
JOB=$SRCDIR/tests/integration/em_job.py
"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P >/dev/null
expect_rc 0 $? "lab up cloud-public-blocked"

# the verdict: ncclcheck cluster on both nodes at once
( timeout 60 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --no-python --no-bw --json \
	>/dev/null 2>&1 ) &
w=$!
timeout 60 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python --no-bw --json \
	>"$LAB_TMP/cluster.json" 2>/dev/null
expect_rc 1 $? "cluster in cloud-public-blocked: exit 1 (eth0 blocked)"
wait $w
D=$LAB_TMP/out
lx n0 "$NCCLCHECK" config --from "$LAB_TMP/cluster.json" --gpus-per-node 1 --script "$JOB" \
	--out "$D" >/dev/null
expect_rc 0 $? "config --from the cluster verdict"
m=$(cat "$D/mpirun.sh")
expect_match "$m" "--mca btl_tcp_if_include eth1 --mca oob_tcp_if_include eth1 " \
	"the mpirun line carries Open MPI's own interface selection (eth1)"
expect_match "$m" "--host $P-n0:1,$P-n1:1 " "the hosts from the verdict"
expect_match "$m" "^export NCCL_SOCKET_IFNAME=eth1$" "and exports NCCL_SOCKET_IFNAME=eth1 (-x)"
bash -n "$D/mpirun.sh"; expect_rc 0 $? "bash -n mpirun.sh"
if command -v shellcheck >/dev/null; then
	shellcheck "$D/mpirun.sh"; expect_rc 0 $? "shellcheck mpirun.sh"
fi

# the python3 on this CI's PATH may be a venv without torch: Debian's, by full path (the only edit)
sed "s|^\tpython3 |\t$TORCHPY |" "$D/mpirun.sh" >"$LAB_TMP/gen.sh"
expect_match "$(cat "$LAB_TMP/gen.sh")" "^	$TORCHPY $JOB$" "the job's command line"
t0=$(date +%s)
timeout 90 "$NCCLCHECK" lab exec $P-n0 -- env EM_JOB_TIMEOUT=10 sh "$LAB_TMP/gen.sh" >"$LAB_TMP/gen" 2>&1
rc=$?
out=$(cat "$LAB_TMP/gen")
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q "rank 0/2 on $P-n0: .* OK GLOO_SOCKET_IFNAME=eth1$" &&
	printf '%s\n' "$out" | grep -q "rank 1/2 on $P-n1: .* OK GLOO_SOCKET_IFNAME=eth1$"; then
	pass "the generated mpirun line runs the torch job on both nodes ($(($(date +%s) - t0)) s)"
else
	fail "the generated mpirun line: exit $rc"; tail -n 12 "$LAB_TMP/gen" >&2
fi

# the same line without Open MPI's interface selection
grep -v -- '--mca ' "$LAB_TMP/gen.sh" >"$LAB_TMP/nomca.sh"
expect_no_match "$(cat "$LAB_TMP/nomca.sh")" "if_include" "the copy has no --mca flags"
t0=$(date +%s)
timeout 20 "$NCCLCHECK" lab exec $P-n0 -- env EM_JOB_TIMEOUT=10 sh "$LAB_TMP/nomca.sh" >"$LAB_TMP/nomca" 2>&1
rc=$?
if [ $rc != 0 ] && ! grep -q "OK GLOO" "$LAB_TMP/nomca"; then
	pass "without the --mca flags the same line fails or hangs (exit $rc after $(($(date +%s) - t0)) s)"
else
	fail "without the --mca flags: exit $rc"; tail -n 8 "$LAB_TMP/nomca" >&2
fi

# ncclcheck run under mpirun, two ranks per node: local rank 0 of each node takes part in the
# cluster check; local rank 1 waits at the node's gate for its verdict and environment.
# mpirun4 OUT [-x ...]: mpirun -np 4 --map-by ppr:2:node ncclcheck run -- sh -c 'echo ...'
mpirun4() {
	local out=$1; shift
	timeout 90 "$NCCLCHECK" lab exec $P-n0 -- mpirun --mca oob_tcp_if_include eth1 \
		--mca btl_tcp_if_include eth1 -np 4 --map-by ppr:2:node --host $P-n0:2,$P-n1:2 "$@" \
		"$NCCLCHECK" run --no-python -- sh -c \
		'echo "rank $OMPI_COMM_WORLD_RANK local $OMPI_COMM_WORLD_LOCAL_RANK on $(hostname) IF=$NCCL_SOCKET_IFNAME"' \
		>"$out" 2>&1
}
# the lab's launch environment exports WORLD_SIZE=2 (one process per node): wrong for 4 ranks,
# so every local rank 0 stops, and tells its local rank 1 to stop too
mpirun4 "$LAB_TMP/stop"
rc=$?
out=$(cat "$LAB_TMP/stop")
[ $rc != 0 ] && pass "WORLD_SIZE=2 for 4 ranks: the job does not start (exit $rc)" || fail "exit 0 with WORLD_SIZE=2"
expect_match "$out" "launch\.world_size" "local rank 0 shows the finding"
expect_match "$out" "local rank 0 of this node stopped the job" "local rank 1 was told to stop"
expect_no_match "$out" "^rank [0-3] local" "no rank started"
t0=$(date +%s)
mpirun4 "$LAB_TMP/go" -x WORLD_SIZE=4
rc=$?
out=$(cat "$LAB_TMP/go")
expect_rc 0 $rc "mpirun -np 4 (2 per node) -x WORLD_SIZE=4 ncclcheck run -- sh ($(($(date +%s) - t0)) s)"
for r in 0 1 2 3; do
	expect_match "$out" "^rank $r local $((r % 2)) on $P-n$((r / 2)) IF=eth1$" \
		"rank $r started with the cluster's NCCL_SOCKET_IFNAME=eth1"
done
expect_match "$out" "node and cluster checks: node rank 1 of 2 \(openmpi\)" "local rank 0 of node 1 took part"
expect_match "$out" "only local rank 0 of each node takes part" "local rank 1 waited for it"
expect_match "$out" "told 1 other local rank\(s\) to start" "and was told to start"

"$NCCLCHECK" lab down --prefix $P >/dev/null; expect_rc 0 $? "down"
lab_gone $P
finish
