#!/bin/bash
# cluster under launchers, with no cluster flags: a real Open MPI mpirun across two lab nodes
# (rsh agent = `lab exec`), one and two processes per node (local rank 1 stays out); and the
# Slurm srun, Kubeflow and PMI environment contracts (the variables those launchers set; a real
# srun needs the lab's Slurm, issue #12).
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt5
FAST="--no-python --no-ports --no-bw --no-color"

out=$("$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX 2>&1); expect_rc 0 $? "lab up"

if command -v mpirun >/dev/null; then
	cat >"$LAB_TMP/rsh" <<RSH
#!/bin/sh
h=\$1; shift
exec "$NCCLCHECK" lab exec "\$h" -- sh -c "\$*"
RSH
	chmod +x "$LAB_TMP/rsh"
	mpi() { # NP HOSTS
		# shellcheck disable=SC2086
		timeout 60 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- mpirun --allow-run-as-root -np "$1" \
			--host "$2" --mca plm_rsh_agent "$LAB_TMP/rsh" --mca btl self,tcp \
			-x MASTER_ADDR -x MASTER_PORT "$NCCLCHECK" cluster $FAST 2>&1
	}
	out=$(mpi 2 $LAB_PREFIX-n0,$LAB_PREFIX-n1); expect_rc 0 $? "mpirun -np 2, one per node"
	expect_match "$out" "rank 1 of 2 \(openmpi\), master 10\.10\.0\.10:29500" "rank from OMPI_COMM_WORLD_*"
	expect_match "$out" "cluster: 2 nodes: $LAB_PREFIX-n0, $LAB_PREFIX-n1" "both nodes joined"
	out=$(mpi 4 $LAB_PREFIX-n0:2,$LAB_PREFIX-n1:2); expect_rc 0 $? "mpirun -np 4, two per node"
	n=$(printf '%s\n' "$out" | grep -c "only local rank 0 of each node takes part")
	[ "$n" = 2 ] && pass "the two local rank 1 processes stayed out" || fail "$n processes stayed out: $out"
	expect_match "$out" "0 errors" "and the two local rank 0 passed"
else
	echo "note: mpirun missing (openmpi-bin): the real Open MPI case is not run"
fi

# run_env N0_ENV -- N1_ENV: both nodes with these variables (env -u / NAME=VALUE words)
run_env() {
	local a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	# shellcheck disable=SC2086
	( timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- env "${b[@]}" "$NCCLCHECK" cluster $FAST \
		>"$LAB_TMP/n1.out" 2>&1; echo $? >"$LAB_TMP/n1.rc" ) &
	local w=$!
	# shellcheck disable=SC2086
	timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- env "${a[@]}" "$NCCLCHECK" cluster $FAST \
		>"$LAB_TMP/n0.out" 2>&1; echo $? >"$LAB_TMP/n0.rc"
	wait $w
}
CLEAR="-u MASTER_ADDR -u MASTER_PORT -u NODE_RANK -u NNODES -u WORLD_SIZE"
# srun -N2 --ntasks-per-node=1: the master is the first host of the node list
# shellcheck disable=SC2086
run_env $CLEAR SLURM_PROCID=0 SLURM_LOCALID=0 SLURM_NODEID=0 SLURM_NNODES=2 \
	SLURM_JOB_NODELIST="$LAB_PREFIX-n[0-1]" -- \
	$CLEAR SLURM_PROCID=1 SLURM_LOCALID=0 SLURM_NODEID=1 SLURM_NNODES=2 SLURM_JOB_NODELIST="$LAB_PREFIX-n[0-1]"
expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "Slurm environment: rank 0"
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "Slurm environment: rank 1"
expect_match "$(cat "$LAB_TMP/n1.out")" "rank 1 of 2 \(slurm\), master $LAB_PREFIX-n0:29500" \
	"the master is the first host of SLURM_JOB_NODELIST"
out=$(lx n1 env $CLEAR SLURM_PROCID=3 SLURM_LOCALID=1 SLURM_NODEID=1 SLURM_NNODES=2 \
	SLURM_JOB_NODELIST="$LAB_PREFIX-n[0-1]" "$NCCLCHECK" cluster $FAST 2>&1); expect_rc 0 $? "srun's second task on a node"
expect_match "$out" "local rank 1 of node 1 \(slurm\)" "stays out with a note"
# Kubeflow Trainer v2
# shellcheck disable=SC2086
run_env $CLEAR PET_NNODES=2 PET_NODE_RANK=0 PET_MASTER_ADDR=$LAB_PREFIX-n0 PET_MASTER_PORT=29500 -- \
	$CLEAR PET_NNODES=2 PET_NODE_RANK=1 PET_MASTER_ADDR=$LAB_PREFIX-n0 PET_MASTER_PORT=29500
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "Kubeflow PET_* environment"
expect_match "$(cat "$LAB_TMP/n1.out")" "rank 1 of 2 \(kubeflow\), master $LAB_PREFIX-n0:29500" "PET_MASTER_ADDR used"
# PMI (MPICH / Intel MPI hydra) with MASTER_ADDR
# shellcheck disable=SC2086
run_env $CLEAR PMI_RANK=0 PMI_SIZE=2 MASTER_ADDR=10.10.0.10 -- $CLEAR PMI_RANK=1 PMI_SIZE=2 MASTER_ADDR=10.10.0.10
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "PMI environment"
expect_match "$(cat "$LAB_TMP/n1.out")" "rank 1 of 2 \(pmi\)" "rank from PMI_RANK"
finish
