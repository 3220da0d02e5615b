#!/bin/bash
# What the GPU machine recorded (tests/fixtures/gpu/product/, tests/gpu/product.sh), judged again
# on the CPU machine: explain on the hung job's real NCCL logs, config from the real cluster
# documents (the environment it writes is the one that made the job pass there).
set -u
. "$(dirname "$0")/lib.sh"
R=$FIXTURES/gpu/product
PY=$(command -v /usr/bin/python3 || command -v python3)
[ -f "$R/B.cluster.n0.json" ] || { echo "SKIP: no GPU recordings"; exit 77; }
out=$("$NCCLCHECK" explain --no-color "$R/B.plain.n0.log" "$R/B.plain.n1.log"); rc=$?
expect_rc 1 $rc "explain on the hung job's logs"
expect_match "$(printf '%s\n' "$out" | grep -m1 '^ERROR')" "eth0" "the first error names eth0"
expect_match "$out" "export NCCL_SOCKET_IFNAME=eth1" "the fix is NCCL_SOCKET_IFNAME=eth1"
out=$("$NCCLCHECK" explain --no-color "$R/B.fixed.n0.log"); rc=$?
expect_rc 0 $rc "explain on the fixed job's log finds no error"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NCCLCHECK" config --from "$R/B.cluster.n0.json" --out "$tmp/B" >/dev/null 2>&1
expect_rc 0 $? "config --from the recorded cluster document"
env=$(grep -v '^#' "$tmp/B/ncclcheck.env")
expect_match "$env" "^export NCCL_SOCKET_IFNAME=eth1$" "the env file sets NCCL_SOCKET_IFNAME=eth1"
expect_match "$env" "^export GLOO_SOCKET_IFNAME=eth1$" "and GLOO_SOCKET_IFNAME=eth1"
expect_no_match "$env" "NCCL_HOSTID" "and never one node's NCCL_HOSTID for all"
"$NCCLCHECK" config --from "$R/A.cluster.n0.json" --out "$tmp/A" >/dev/null 2>&1
expect_rc 0 $? "config --from the healthy document"
expect_no_match "$(grep -v '^#' "$tmp/A/ncclcheck.env")" "NCCL_SOCKET_IFNAME" "healthy: nothing to set for the interface"
for c in C D; do
	"$PY" - "$R/$c.cluster.n0.json" "$c" <<'PY' && pass "$c: the recorded verdict" || fail "$c: the recorded verdict"
import json, sys
d = json.load(open(sys.argv[1])); ids = {f["id"] for f in d["findings"] if f["severity"] == "error"}
sys.exit(0 if (sys.argv[2] == "C" and ids & {"link.ports.blocked", "cluster.ports.blocked"}) or
         (sys.argv[2] == "D" and ids & {"link.mtu.blackhole", "cluster.mtu.blackhole"}) else 1)
PY
done
finish
