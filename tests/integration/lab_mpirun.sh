#!/usr/bin/env bash
# Open MPI across lab nodes with no flags: every node's environment names `ncclcheck lab rsh` as
# mpirun's rsh agent, so `mpirun --host P-n0,P-n1` starts each rank inside its own node.
. "$(dirname "$0")/lib_lab.sh"
command -v mpirun >/dev/null || { echo "SKIP: mpirun missing (scripts/deps.sh installs openmpi-bin)"; exit 77; }
lab_use s2
P=$LAB_PREFIX
"$NCCLCHECK" lab up --nodes 3 --prefix $P >/dev/null; expect_rc 0 $? "lab up"
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- mpirun -np 3 --host $P-n0,$P-n1,$P-n2 sh -c \
	'echo "rank $OMPI_COMM_WORLD_RANK of $OMPI_COMM_WORLD_SIZE local $OMPI_COMM_WORLD_LOCAL_RANK on $(hostname) eth1 $(ip -o -4 addr show eth1 | awk "{print \$4}")"' 2>&1)
expect_rc 0 $? "mpirun -np 3"
for i in 0 1 2; do
	expect_match "$out" "rank $i of 3 local 0 on $P-n$i eth1 10.10.0.1$i/24" "rank $i in node $i"
done
# an address of the node works as the host too, as it does in a hostfile
out=$(timeout 60 "$NCCLCHECK" lab exec $P-n0 -- mpirun -np 2 --host 10.10.0.10,10.10.0.12 sh -c \
	'echo "rank $OMPI_COMM_WORLD_RANK on $(hostname)"' 2>&1)
expect_rc 0 $? "mpirun by address"
expect_match "$out" "rank 1 on $P-n2" "10.10.0.12 is node 2"
err=$("$NCCLCHECK" lab rsh --prefix $P nosuch true 2>&1); expect_rc 3 $? "rsh to a node that is not there"
expect_match "$err" "'nosuch' is not a lab node" "names the host"
"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
