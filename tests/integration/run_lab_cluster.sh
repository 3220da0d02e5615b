#!/bin/bash
# run on every node of a multi-node launch runs the cluster check before CMD (issue #11): in
# cloud-public-blocked, `ncclcheck run -- torchrun ...` started on both lab nodes at once meets
# on torchrun's own --master_addr/--master_port (the lab's launch variables removed: CMD's
# arguments are all it has), tests every link, and starts the real torch job (gloo all-reduce,
# sum checked) with the cluster-proven NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME=eth1; torchrun's
# TCPStore then binds the very port the rendezvous used. Also: the launch from the environment
# (MASTER_ADDR, NODE_RANK, NNODES) with CMD's exit code passed through, and a node whose peer
# never comes (the command does not start, exit 3).
# The same torchrun without run fails in this scenario until its bounded timeout: that is
# proven by run_lab_torch.sh ("the same torchrun without ncclcheck run fails") and
# config_lab_torch.sh ("blocked-without"), with the same hosts remap; not repeated here (40 s).
# ctest: run alone
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
TORCHPY=/usr/bin/python3
"$TORCHPY" -c 'import torch.distributed' 2>/dev/null ||
	{ echo "SKIP: $TORCHPY has no torch (Debian python3-torch; scripts/deps.sh installs it)"; exit 77; }
lab_use rc1
P=$LAB_PREFIX
JOB=$SRCDIR/tests/integration/em_job.py
# Debian's torch 1.13 on Python 3.11 cannot parse torchrun's default --redirects/--tee "0"
LAUNCH=("$TORCHPY" -m torch.distributed.run --redirects 2 --tee 2 --nnodes=2 --nproc_per_node=1
	--master_addr=10.10.0.10 --master_port=29500)
NOLAUNCH=(env -u MASTER_ADDR -u MASTER_PORT -u NODE_RANK -u NNODES -u WORLD_SIZE)

"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P >/dev/null
expect_rc 0 $? "lab up cloud-public-blocked"
# each node's own name resolves to its public eth0, so Gloo too lands on eth0 unless told
for i in 0 1; do sed -i "s/^10\.10\.0\.1$i\t/203.0.113.1$i\t/" /etc/netns/$P-n$i/hosts; done

# 1. ncclcheck run -- torchrun on both nodes at once, the rendezvous only in torchrun's args
t0=$(date +%s); pids=""; rcs=""
for i in 0 1; do
	timeout 90 "$NCCLCHECK" lab exec $P-n$i -- "${NOLAUNCH[@]}" EM_JOB_TIMEOUT=8 \
		EM_JOB_ENV_OUT="$LAB_TMP/env" "$NCCLCHECK" run --no-python -- "${LAUNCH[@]}" \
		--node_rank=$i "$JOB" >"$LAB_TMP/torch.$i" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p"; rcs="$rcs $?"; done
if [ "$rcs" = " 0 0" ] && grep -q "rank 0/2 .* OK GLOO_SOCKET_IFNAME=eth1$" "$LAB_TMP/torch.0" &&
	grep -q "rank 1/2 .* OK GLOO_SOCKET_IFNAME=eth1$" "$LAB_TMP/torch.1"; then
	pass "run -- torchrun on both nodes: the all-reduce passes (exit 0 0, $(($(date +%s) - t0)) s)"
else
	fail "run -- torchrun: exit$rcs"; tail -n 12 "$LAB_TMP/torch.0" "$LAB_TMP/torch.1" >&2
fi
for i in 0 1; do
	out=$(cat "$LAB_TMP/torch.$i")
	expect_match "$out" "node and cluster checks: node rank $i of 2 .*rendezvous on 10\.10\.0\.10:29500" \
		"node $i: the cluster check ran, on torchrun's --master_addr/--master_port"
	expect_match "$out" "checks pass \(node and cluster" "node $i: started after the cluster verdict"
	expect_match "$out" "^  NCCL_SOCKET_IFNAME=eth1 .*every peer reaches" \
		"node $i: NCCL_SOCKET_IFNAME=eth1 from the cluster's link tests"
	env=$(cat "$LAB_TMP/env.$i" 2>/dev/null)
	expect_match "$env" "^NCCL_SOCKET_IFNAME=eth1$" "rank $i's job ran with NCCL_SOCKET_IFNAME=eth1"
	expect_match "$env" "^GLOO_SOCKET_IFNAME=eth1$" "rank $i's job ran with GLOO_SOCKET_IFNAME=eth1"
	expect_no_match "$env" "NCCLCHECK_TOKEN" "no placeholder token put into the job's environment"
done

# 2. the launch from the lab's own MASTER_ADDR / NODE_RANK / NNODES; CMD's exit code passes through
pids=""; rcs=""
for i in 0 1; do
	timeout 60 "$NCCLCHECK" lab exec $P-n$i -- "$NCCLCHECK" run --no-python -- \
		sh -c 'test "$NCCL_SOCKET_IFNAME" = eth1 && exit 7' >"$LAB_TMP/envl.$i" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p"; rcs="$rcs $?"; done
[ "$rcs" = " 7 7" ] && pass "launch from the environment: CMD's exit 7 passes through on both nodes" ||
	{ fail "launch from the environment: exit$rcs, expected 7 7"; tail -n 8 "$LAB_TMP/envl.1" >&2; }
expect_match "$(cat "$LAB_TMP/envl.1")" "node rank 1 of 2 \(env\)" "rank from NODE_RANK / NNODES"

# 3. the peer never comes: nothing starts
rm -f "$LAB_TMP/started"
lx n1 "$NCCLCHECK" run --no-python --timeout 3 -- touch "$LAB_TMP/started" >"$LAB_TMP/alone" 2>&1
expect_rc 3 $? "a node alone: the cluster check cannot finish"
expect_match "$(cat "$LAB_TMP/alone")" "not starting the command" "says the command is not started"
expect_match "$(cat "$LAB_TMP/alone")" "cluster\.rdv\.unreachable" "and why (the master is unreachable)"
[ ! -e "$LAB_TMP/started" ] && pass "CMD did not start" || fail "CMD started anyway"
# --no-cluster: the node's checks only, and --dry-run says which checks ran
out=$(lx n1 "$NCCLCHECK" run --no-python --no-cluster --dry-run -- true)
expect_rc 0 $? "run --no-cluster --dry-run"
expect_match "$out" "checks: node checks only \(--no-cluster\)" "--dry-run names the checks that ran"
out=$(lx n1 "${NOLAUNCH[@]}" "$NCCLCHECK" run --no-python --dry-run -- "${LAUNCH[@]}" --standalone "$JOB")
expect_match "$out" "checks: node checks only: torchrun --standalone" "torchrun --standalone: one node"

"$NCCLCHECK" lab down --prefix $P >/dev/null; expect_rc 0 $? "down"
lab_gone $P
finish
