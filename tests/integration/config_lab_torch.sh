#!/bin/bash
# The acceptance test of `config`: a real torch job (Debian's python3-torch, gloo backend, an
# all-reduce whose result is checked) across 2 lab nodes, started with the torchrun scripts that
# `ncclcheck config` wrote.
#   healthy:              the generated scripts pass.
#   cloud-public-blocked: the generated scripts pass (NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME
#                         =eth1 are in them), while the very same torchrun lines without those
#                         exports fail within a bounded time: the recommendation is what makes
#                         the job work. The c10d form passes too.
# The lab maps node names to eth1, which already steers Gloo right (it binds the address its
# host name resolves to). Here each node's own name resolves to its public eth0 address instead,
# as on VMs whose /etc/hosts lists the public IP, so that Gloo, like NCCL, ends up on eth0 unless
# it is told otherwise.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
TORCHPY=/usr/bin/python3
"$TORCHPY" -c 'import torch.distributed' 2>/dev/null ||
	{ echo "SKIP: $TORCHPY has no torch (Debian python3-torch; scripts/deps.sh installs it)"; exit 77; }
lab_use em1
JOB=$SRCDIR/tests/integration/em_job.py
# Debian's torch 1.13 on Python 3.11: torchrun's default --redirects/--tee "0" fail to parse
# (Std.from_str returns None); 2 is accepted and keeps both streams on the console.
LAUNCHER="$TORCHPY -m torch.distributed.run --redirects 2 --tee 2"

# run_pair LABEL EXPECT SCRIPT_PREFIX LIMIT [GLOO]: SCRIPT_PREFIX<i>.sh on node i, both at
# once; EXPECT pass (both ranks exit 0, the sum right, GLOO_SOCKET_IFNAME=GLOO) or fail
run_pair() {
	local label=$1 expect=$2 prefix=$3 limit=$4 gloo=${5:-.*} rc0 rc1 p0 p1
	timeout "$limit" "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- env EM_JOB_TIMEOUT=8 sh "${prefix}0.sh" >"$LAB_TMP/$label.0" 2>&1 &
	p0=$!
	timeout "$limit" "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- env EM_JOB_TIMEOUT=8 sh "${prefix}1.sh" >"$LAB_TMP/$label.1" 2>&1 &
	p1=$!
	wait $p0; rc0=$?
	wait $p1; rc1=$?
	if [ "$expect" = pass ]; then
		if [ $rc0 = 0 ] && [ $rc1 = 0 ] && grep -Eq "rank 0/2 .* OK GLOO_SOCKET_IFNAME=$gloo\$" "$LAB_TMP/$label.0" &&
			grep -Eq "rank 1/2 .* OK GLOO_SOCKET_IFNAME=$gloo\$" "$LAB_TMP/$label.1"; then
			pass "$label: both ranks exit 0 with the all-reduce right"
		else
			fail "$label: exit $rc0/$rc1"; tail -n 5 "$LAB_TMP/$label.0" "$LAB_TMP/$label.1" >&2
		fi
	else
		if [ $rc0 != 0 ] && [ $rc1 != 0 ]; then
			pass "$label: fails without the recommendation (exit $rc0/$rc1)"
		else
			fail "$label: expected failure, got exit $rc0/$rc1"; tail -n 5 "$LAB_TMP/$label.0" >&2
		fi
	fi
}

# config on node 1 writes the scripts for both nodes; $1: the output directory
configure() {
	lx n1 "$NCCLCHECK" config --no-python --out "$1" --gpus-per-node 1 --launcher "$LAUNCHER" \
		--script "$JOB" >/dev/null
}

# --- healthy ---
"$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "lab up healthy"
configure "$LAB_TMP/h"; expect_rc 0 $? "config on a healthy lab"
expect_match "$(cat "$LAB_TMP/h/torchrun-node1.sh")" "--nnodes=2 " "--nnodes from the launch environment (NNODES)"
run_pair healthy pass "$LAB_TMP/h/torchrun-node" 120

# --- cloud-public-blocked ---
"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $LAB_PREFIX --force >/dev/null
expect_rc 0 $? "lab up cloud-public-blocked"
for i in 0 1; do sed -i "s/^10\.10\.0\.1$i\t/203.0.113.1$i\t/" /etc/netns/$LAB_PREFIX-n$i/hosts; done
out=$(lx n1 getent hosts $LAB_PREFIX-n1); expect_match "$out" "^203\.0\.113\.11 " "n1's own name resolves to its public eth0"
D=$LAB_TMP/b
configure "$D"; expect_rc 0 $? "config --out on cloud-public-blocked"
env=$(cat "$D/ncclcheck.env")
expect_match "$env" "^export NCCL_SOCKET_IFNAME=eth1$" "the env file exports NCCL_SOCKET_IFNAME=eth1"
expect_match "$env" "^export GLOO_SOCKET_IFNAME=eth1$" "and GLOO_SOCKET_IFNAME=eth1, which the gloo backend reads"
expect_match "$(cat "$D/torchrun-node1.sh")" "--node_rank=1 " "node 1's script has --node_rank=1"

run_pair blocked-generated pass "$D/torchrun-node" 120 eth1
# the same torchrun lines without the recommended exports
for i in 0 1; do grep -v '^export ' "$D/torchrun-node$i.sh" >"$LAB_TMP/bare$i.sh"; done
t0=$(date +%s)
run_pair blocked-without fail "$LAB_TMP/bare" 60
echo "note: the job without the recommendation gave up after $(($(date +%s) - t0)) s"
grep -h "Connect timeout\|timed out\|Timeout" "$LAB_TMP/blocked-without.0" "$LAB_TMP/blocked-without.1" | head -n 2
# the c10d rendezvous form, the same environment
cp "$D/torchrun-c10d.sh" "$LAB_TMP/c10d0.sh"; cp "$D/torchrun-c10d.sh" "$LAB_TMP/c10d1.sh"
run_pair blocked-c10d pass "$LAB_TMP/c10d" 120 eth1

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
