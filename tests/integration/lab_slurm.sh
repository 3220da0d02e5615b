#!/usr/bin/env bash
# lab up --slurm: a real Slurm (munged, slurmctld, one slurmd per node) over four lab nodes; srun
# and sbatch place tasks in the right nodes; status shows it; down removes every daemon and file.
. "$(dirname "$0")/lib_lab.sh"
for t in slurmctld slurmd munged srun sbatch sinfo; do
	command -v "$t" >/dev/null || { echo "SKIP: '$t' missing (scripts/deps.sh installs slurm-wlm munge)"; exit 77; }
done
lab_use s1
P=$LAB_PREFIX

t0=$(date +%s%N)
out=$("$NCCLCHECK" lab up --nodes 4 --prefix $P --slurm 2>&1); rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_rc 0 $rc "lab up --slurm"
echo "note: 4-node lab with Slurm up in $ms ms (speed is not judged here: bench/lab_up.sh)"
expect_match "$out" "slurm: up \(partition 'lab'" "up shows the Slurm"

out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- sinfo -h -o '%P %T %D'); expect_rc 0 $? "sinfo"
expect_match "$out" "^lab\*? idle 4$" "four idle nodes in partition lab"

# one task per node: each sees its own node's eth1 and hostname, ranks 0..3
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- srun -N4 --ntasks-per-node=1 sh -c \
	'echo "task $SLURM_PROCID node $SLURM_NODEID of $SLURM_NNODES on $(hostname) eth1 $(ip -o -4 addr show eth1 | awk "{print \$4}") list $SLURM_JOB_NODELIST"' | sort)
expect_rc 0 $? "srun -N4"
for i in 0 1 2 3; do
	expect_match "$out" "task $i node $i of 4 on $P-n$i eth1 10.10.0.1$i/24 list $P-n\[0-3\]" "task $i runs in node $i"
done

# two tasks per node: local ids 0 and 1 on each node
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- srun -N2 --ntasks-per-node=2 sh -c \
	'echo "task $SLURM_PROCID local $SLURM_LOCALID node $SLURM_NODEID $(hostname)"' | sort)
expect_rc 0 $? "srun --ntasks-per-node=2"
expect_match "$out" "task 1 local 1 node 0 $P-n0" "second task of node 0"
expect_match "$out" "task 3 local 1 node 1 $P-n1" "second task of node 1"

# sbatch: the batch script runs in node 0 and its srun reaches both nodes
job=$LAB_TMP/job.sh
cat > "$job" <<JOB
#!/bin/sh
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --output=$LAB_TMP/job-%j.out
srun sh -c 'echo "batch task \$SLURM_PROCID on \$(hostname)"'
JOB
timeout 60 "$NCCLCHECK" lab exec $P-n0 -- sbatch --wait "$job" >/dev/null; expect_rc 0 $? "sbatch --wait"
out=$(cat "$LAB_TMP"/job-*.out 2>/dev/null)
expect_match "$out" "batch task 0 on $P-n0" "batch task 0"
expect_match "$out" "batch task 1 on $P-n1" "batch task 1"

out=$("$NCCLCHECK" lab status --prefix $P --json)
expect_match "$out" '"slurmctld": true' "status --json: slurmctld running"
expect_match "$out" '"munged": true' "status --json: munged running"

munged=$(cat /run/ncclcheck/slurm/$P/munge/munged.pid)
out=$("$NCCLCHECK" lab down --prefix $P); expect_rc 0 $? "down"
expect_match "$out" "Slurm is stopped and removed" "down says the Slurm is gone"
alive() { [ -r "/proc/$1/stat" ] && ! awk '{ exit ($3 == "Z") ? 0 : 1 }' "/proc/$1/stat"; }
alive "$munged" && fail "munged $munged still runs" || pass "munged ended"
left=$(ps -eo args | grep -F "/run/ncclcheck/slurm/$P" | grep -v grep)
[ -z "$left" ] && pass "no Slurm daemon of the lab is left" || fail "left: $left"
[ ! -e /run/ncclcheck/slurm/$P ] && pass "no Slurm files left" || fail "/run/ncclcheck/slurm/$P left"
lab_gone $P

# a missing Slurm is a clear error with the package to install
empty=$(mktemp -d); ln -s "$(command -v ip)" "$empty/ip"
err=$(PATH=$empty "$NCCLCHECK" lab up --prefix $P --slurm 2>&1); expect_rc 3 $? "up --slurm without Slurm"
expect_match "$err" "apt-get install slurm-wlm munge" "names the packages"
rm -rf "$empty"
lab_gone $P
finish
