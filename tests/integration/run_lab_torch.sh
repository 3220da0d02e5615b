#!/bin/bash
# The acceptance test of `run`: in cloud-public-blocked, `ncclcheck run -- python3 -m
# torch.distributed.run ... job.py` on both lab nodes checks each node, proves that the
# recommended environment (NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME = eth1) clears every error,
# and execs torchrun with it: a real gloo all-reduce passes, while the same torchrun command
# started directly fails within a bounded time. Also: --dry-run, CMD's exit code passing
# through, a node whose errors no environment fixes (the job does not start), bad usage.
# As in config_lab_torch.sh, each node's own name resolves to its public eth0 address, so Gloo
# ends up on eth0 unless told otherwise (the lab's default maps names to eth1).
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
TORCHPY=/usr/bin/python3
"$TORCHPY" -c 'import torch.distributed' 2>/dev/null ||
	{ echo "SKIP: $TORCHPY has no torch (Debian python3-torch; scripts/deps.sh installs it)"; exit 77; }
lab_use em2
JOB=$SRCDIR/tests/integration/em_job.py
# Debian's torch 1.13 on Python 3.11 cannot parse torchrun's default --redirects/--tee "0"
LAUNCH=("$TORCHPY" -m torch.distributed.run --redirects 2 --tee 2 --nnodes=2 --nproc_per_node=1
	--master_addr=10.10.0.10 --master_port=29500)

# both NODE_CMD... on n0 and n1 at once, with --node_rank=i appended after the launcher
# arguments; $1 label, $2 limit, then "run" (through ncclcheck run) or "bare"
pair() {
	local label=$1 limit=$2 how=$3 i pids="" rcs=""
	for i in 0 1; do
		if [ "$how" = run ]; then
			timeout "$limit" "$NCCLCHECK" lab exec $LAB_PREFIX-n$i -- env EM_JOB_TIMEOUT=6 \
				"$NCCLCHECK" run --no-cluster --no-python -- "${LAUNCH[@]}" --node_rank=$i "$JOB" \
				>"$LAB_TMP/$label.$i" 2>&1 &
		else
			timeout "$limit" "$NCCLCHECK" lab exec $LAB_PREFIX-n$i -- env EM_JOB_TIMEOUT=6 \
				"${LAUNCH[@]}" --node_rank=$i "$JOB" >"$LAB_TMP/$label.$i" 2>&1 &
		fi
		pids="$pids $!"
	done
	for p in $pids; do wait "$p"; rcs="$rcs $?"; done
	echo "$rcs"
}

"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up cloud-public-blocked"
for i in 0 1; do sed -i "s/^10\.10\.0\.1$i\t/203.0.113.1$i\t/" /etc/netns/$LAB_PREFIX-n$i/hosts; done

# --dry-run: what would change, and the command, and nothing started
out=$(lx n1 "$NCCLCHECK" run --no-cluster --no-python --dry-run -- "${LAUNCH[@]}" --node_rank=1 "$JOB")
expect_rc 0 $? "run --dry-run"
expect_match "$out" "^  NCCL_SOCKET_IFNAME=eth1 " "--dry-run shows NCCL_SOCKET_IFNAME=eth1"
expect_match "$out" "^  GLOO_SOCKET_IFNAME=eth1 " "--dry-run shows GLOO_SOCKET_IFNAME=eth1"
expect_match "$out" "^command: $TORCHPY -m torch.distributed.run .* --node_rank=1 " "--dry-run shows the command"

rcs=$(pair through-run 120 run)
if [ "$rcs" = " 0 0" ] && grep -q "rank 0/2 .* OK GLOO_SOCKET_IFNAME=eth1" "$LAB_TMP/through-run.0" &&
	grep -q "rank 1/2 .* OK GLOO_SOCKET_IFNAME=eth1" "$LAB_TMP/through-run.1"; then
	pass "ncclcheck run -- torchrun on both nodes: the all-reduce passes (exit 0 0)"
else
	fail "ncclcheck run -- torchrun: exit$rcs"; tail -n 8 "$LAB_TMP/through-run.0" "$LAB_TMP/through-run.1" >&2
fi
expect_match "$(cat "$LAB_TMP/through-run.1")" "ncclcheck run: checks pass" "run says the checks passed before starting"

# torchrun starting `ncclcheck run -- python3 job.py` per worker (--no_python): run sees the
# launcher's own variables (RANK, LOCAL_WORLD_SIZE, NCCL_ASYNC_ERROR_HANDLING that torch 1.13's
# torchrun exports) and must leave the launcher's settings alone
rcs=""; pids=""
for i in 0 1; do
	timeout 120 "$NCCLCHECK" lab exec $LAB_PREFIX-n$i -- env EM_JOB_TIMEOUT=6 "${LAUNCH[@]}" --no_python \
		--node_rank=$i "$NCCLCHECK" run --no-cluster --no-python -- "$TORCHPY" "$JOB" >"$LAB_TMP/under.$i" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p"; rcs="$rcs $?"; done
if [ "$rcs" = " 0 0" ] && grep -q "rank 1/2 .* OK GLOO_SOCKET_IFNAME=eth1" "$LAB_TMP/under.1"; then
	pass "torchrun --no_python ... ncclcheck run -- python3 job.py: passes on both nodes"
else
	fail "torchrun ... ncclcheck run: exit$rcs"; tail -n 8 "$LAB_TMP/under.0" "$LAB_TMP/under.1" >&2
fi
expect_no_match "$(cat "$LAB_TMP/under.0")" "unset NCCL_ASYNC_ERROR_HANDLING" "torch 1.13's own NCCL_ASYNC_ERROR_HANDLING is kept"

t0=$(date +%s)
rcs=$(pair bare 60 bare)
case "$rcs" in
*" 0"*) fail "the same torchrun without run: exit$rcs (expected both to fail)" ;;
*) pass "the same torchrun without ncclcheck run fails (exit$rcs, $(($(date +%s) - t0)) s)" ;;
esac

# CMD's exit code passes through; CMD sees the recommended environment
lx n1 "$NCCLCHECK" run --no-cluster --no-python -q -- sh -c 'test "$NCCL_SOCKET_IFNAME" = eth1 && exit 7'
expect_rc 7 $? "CMD's exit code passes through (and it saw NCCL_SOCKET_IFNAME=eth1)"
lx n1 "$NCCLCHECK" run --no-cluster --no-python -q -- /nonexistent/cmd 2>"$LAB_TMP/err"
expect_rc 3 $? "a CMD that cannot start"
expect_match "$(cat "$LAB_TMP/err")" "cannot start '/nonexistent/cmd'" "says why"
lx n1 "$NCCLCHECK" run --no-cluster --no-python 2>/dev/null; expect_rc 2 $? "no CMD"

# a saved verdict: run --from FILE
lx n1 "$NCCLCHECK" node --no-python --json >"$LAB_TMP/n1.json"
out=$(lx n1 "$NCCLCHECK" run --from "$LAB_TMP/n1.json" --dry-run -- true)
expect_rc 0 $? "run --from a saved node verdict"
expect_match "$out" "^  NCCL_SOCKET_IFNAME=eth1 " "the saved verdict gives the same environment"

# an error that no environment fixes: the last node cannot resolve MASTER_ADDR (a host name)
"$NCCLCHECK" lab up --nodes 2 --scenario dns-broken --prefix $LAB_PREFIX --force >/dev/null
expect_rc 0 $? "lab up dns-broken"
rm -f "$LAB_TMP/started"
out=$(lx n1 "$NCCLCHECK" run --no-cluster --no-python -- touch "$LAB_TMP/started")
expect_rc 1 $? "run stops on an error the environment does not fix"
expect_match "$out" "not starting 'touch'" "and says so"
expect_match "$out" "net\.master\.unresolved" "showing the finding"
[ ! -e "$LAB_TMP/started" ] && pass "CMD did not start" || fail "CMD started anyway"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
