#!/usr/bin/env bash
# ncclcheck cluster under a real srun (the lab's Slurm): rank, node count and master come from
# Slurm's own environment, one task per node or two (local rank 1 stays out with a note), and the
# verdict is the one started by hand gives: eth0 unreachable, NCCL_SOCKET_IFNAME=eth1 (issue #12).
. "$(dirname "$0")/lib_lab.sh"
for t in slurmctld slurmd munged srun; do
	command -v "$t" >/dev/null || { echo "SKIP: '$t' missing (scripts/deps.sh installs slurm-wlm munge)"; exit 77; }
done
lab_use s4
P=$LAB_PREFIX
for sc in cloud-public-blocked healthy; do
	"$NCCLCHECK" lab up --nodes 2 --scenario $sc --prefix $P --slurm --force >/dev/null 2>&1 ||
		{ fail "lab up --slurm $sc"; continue; }
	for per in 1 2; do
		out=$(timeout 120 "$NCCLCHECK" lab exec $P-n0 -- srun -N2 --ntasks-per-node=$per \
			"$NCCLCHECK" cluster --no-python --no-bw 2>&1); rc=$?
		want=$([ $sc = healthy ] && echo 0 || echo 1)
		expect_rc "$want" $rc "$sc, srun -N2 --ntasks-per-node=$per"
		expect_match "$out" "rank 0 of 2 \(slurm\)" "$sc/$per: rank 0 from Slurm's variables"
		expect_match "$out" "rank 1 of 2 \(slurm\)" "$sc/$per: rank 1 from Slurm's variables"
		if [ $sc = cloud-public-blocked ]; then
			# the verdict as one line: colours off, wrapped lines joined
			flat=$(echo "$out" | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' ' | tr -s ' ')
			expect_match "$flat" "verdict: NCCL as configured uses an interface some peer cannot reach \([^)]*-n0 eth0, [^)]*-n1 eth0\)" "$sc/$per: the verdict names eth0 as what no peer reaches"
			expect_match "$out" "export NCCL_SOCKET_IFNAME=eth1" "$sc/$per: the fix"
		fi
		[ $per = 2 ] && expect_match "$out" "local rank 1 of node 1 \(slurm\).*this process exits" \
			"$sc: the second task of a node stays out"
	done
done
# node's launcher checks on the environment a real srun makes: no --ntasks-per-node, 4 tasks on
# 2 nodes while the submitting shell exported WORLD_SIZE=2 (srun propagates it to every task)
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- srun -N2 -n4 "$NCCLCHECK" node --no-python 2>&1)
expect_match "$out" "launch\.srun\.ntasks_per_node" "srun without --ntasks-per-node is named"
expect_match "$out" "WORLD_SIZE=2, but 2 nodes x 2 processes per node = 4 .*launch\.world_size" \
	"the world size that does not match the tasks"
"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
