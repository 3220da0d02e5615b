#!/usr/bin/env bash
# The TaskProlog that `ncclcheck config --taskprolog` writes, run for real by the lab's slurmd
# (lab up --slurm --task-prolog FILE names a copy of it in slurm.conf's TaskProlog=): in
# cloud-public-blocked every task gets NCCL_SOCKET_IFNAME=eth1 in its environment on both nodes,
# while the submitting shell has none (issue #12).
. "$(dirname "$0")/lib_lab.sh"
for t in slurmctld slurmd munged srun; do
	command -v "$t" >/dev/null || { echo "SKIP: '$t' missing (scripts/deps.sh installs slurm-wlm munge)"; exit 77; }
done
lab_use q2
P=$LAB_PREFIX
"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P >/dev/null 2>&1
expect_rc 0 $? "lab up cloud-public-blocked"
D=$LAB_TMP/cfg
lx n1 "$NCCLCHECK" config --no-python --taskprolog --out "$D" --nodes 2 --gpus-per-node 1 >/dev/null
expect_rc 0 $? "config --taskprolog"
expect_match "$(cat "$D/taskprolog.sh")" "export NCCL_SOCKET_IFNAME=eth1" "the TaskProlog prints the export"
"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P --slurm --force \
	--task-prolog "$D/taskprolog.sh" >/dev/null 2>&1
expect_rc 0 $? "lab up --slurm --task-prolog"
conf=$(cat /run/ncclcheck/slurm/$P/slurm.conf)
expect_match "$conf" "^TaskProlog=/run/ncclcheck/slurm/$P/taskprolog.sh$" "slurm.conf names the copy"
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- env -u NCCL_SOCKET_IFNAME srun -N2 --ntasks-per-node=1 \
	sh -c 'echo "$(hostname) NCCL_SOCKET_IFNAME=$(printenv NCCL_SOCKET_IFNAME)"' 2>&1)
expect_rc 0 $? "srun printenv"
expect_match "$out" "^$P-n0 NCCL_SOCKET_IFNAME=eth1$" "node 0's task has NCCL_SOCKET_IFNAME=eth1"
expect_match "$out" "^$P-n1 NCCL_SOCKET_IFNAME=eth1$" "node 1's task has NCCL_SOCKET_IFNAME=eth1"
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- srun -N2 --ntasks-per-node=1 printenv NCCL_SOCKET_IFNAME 2>&1)
expect_match "$out" "^eth1$" "srun printenv NCCL_SOCKET_IFNAME prints eth1"
[ "$(printf '%s\n' "$out" | grep -c '^eth1$')" = 2 ] && pass "on both nodes" || fail "printenv: $out"
err=$("$NCCLCHECK" lab up --nodes 2 --prefix $P --slurm --force --task-prolog /nonexistent/tp.sh 2>&1)
[ $? != 0 ] && pass "a missing TaskProlog is refused" || fail "missing TaskProlog accepted"
expect_match "$err" "/nonexistent/tp.sh" "and named"
"$NCCLCHECK" lab up --nodes 2 --prefix $P --task-prolog "$D/taskprolog.sh" >/dev/null 2>&1
expect_rc 2 $? "--task-prolog without --slurm is a usage error"
"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
