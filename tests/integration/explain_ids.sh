#!/bin/bash
# explain's reasoner findings that no scenario fixture produced: one rank's log out of several
# (explain.log.single_rank), an NCCL error without NCCL_DEBUG=INFO (explain.log.no_nccl_debug),
# and Lightning processes that registered and then said nothing (explain.lightning.nccl_hang).
set -u
. "$SRCDIR/tests/integration/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ids() {
	timeout 20 "$NCCLCHECK" explain "$@" --json | python3 -c 'import json, sys
print(" ".join(x["id"] for x in json.load(sys.stdin)["findings"]))'
}

out=$(ids "$FIXTURES/logs/scenarios/missing_rank/rank0.log")
expect_match "$out" "explain\.log\.single_rank" "one rank's log of a larger world: single_rank"
expect_no_match "$out" "explain\.ranks\.missing" "and not ranks.missing (that needs two logs)"

cat > "$tmp/nodebug.log" <<'LOG'
Traceback (most recent call last):
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
LOG
out=$(ids "$tmp/nodebug.log")
expect_match "$out" "explain\.log\.no_nccl_debug" "an NCCL error without INFO lines: no_nccl_debug"
{ echo "host:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0"; cat "$tmp/nodebug.log"; } > "$tmp/debug.log"
out=$(ids "$tmp/debug.log")
expect_no_match "$out" "explain\.log\.no_nccl_debug" "with an INFO line it is not said"

mkdir "$tmp/pl"
cat > "$tmp/pl/node0.log" <<'LOG'
GPU available: True (cuda), used: True
LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]
Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2
----------------------------------------------------------------------------------------------------
distributed_backend=nccl
All distributed processes registered. Starting with 2 processes
----------------------------------------------------------------------------------------------------
LOG
sed 's/GLOBAL_RANK: 0, MEMBER: 1/GLOBAL_RANK: 1, MEMBER: 2/' "$tmp/pl/node0.log" | grep -v 'All distributed' > "$tmp/pl/node1.log"
out=$(ids "$tmp/pl")
expect_match "$out" "explain\.lightning\.nccl_hang" "registered, then silence: nccl_hang"
expect_no_match "$out" "explain\.lightning\.rendezvous_hang" "not a rendezvous hang"
finish
