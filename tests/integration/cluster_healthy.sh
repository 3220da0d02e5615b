#!/bin/bash
# cluster healthy: two lab nodes started with the lab's torchrun-style environment and no flags
# join on MASTER_ADDR:MASTER_PORT, test every link, and both print the same verdict with exit 0,
# in under 5 s with the Python probe on; --json has nodes[{name, facts}], links[] and findings.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt1

out=$("$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX 2>&1); rc=$?
expect_rc 0 $rc "lab up healthy"

# run_pair ARGS...: both nodes at once; outputs in $LAB_TMP/n0.out, n1.out; rc in n0.rc, n1.rc
run_pair() {
	( timeout 120 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster "$@" \
		>"$LAB_TMP/n1.out" 2>"$LAB_TMP/n1.err"; echo $? >"$LAB_TMP/n1.rc" ) &
	local w=$!
	timeout 120 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster "$@" \
		>"$LAB_TMP/n0.out" 2>"$LAB_TMP/n0.err"; echo $? >"$LAB_TMP/n0.rc"
	wait $w
}
ms() { date +%s%3N; }

t0=$(ms); run_pair -v; t1=$(ms)
expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "rank 0 (python probe on, -v)"
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "rank 1 (python probe on)"
echo "wall with the Python probe: $((t1 - t0)) ms"
# speed is judged in bench/cluster_scale.sh (2 nodes with the Python probe under 5 s), not here
# (a debug build took 7.7 s on an idle 2-core box)
out=$(cat "$LAB_TMP/n0.out")
expect_match "$out" "cluster: 2 nodes: $LAB_PREFIX-n0, $LAB_PREFIX-n1" "names both nodes"
expect_match "$out" "connect $LAB_PREFIX-n1 -> $LAB_PREFIX-n0 eth1: connect 10\.10\.0\.10: ok" "n1 -> n0 over eth1"
expect_match "$out" "connect $LAB_PREFIX-n0 -> $LAB_PREFIX-n1 eth0: connect 203\.0\.113\.11: ok" "n0 -> n1 over eth0"
expect_match "$out" "scan +$LAB_PREFIX-n1 -> $LAB_PREFIX-n0 eth1: ports 32768-60999 .*32768-60999 open" "port range of n0 open"
expect_match "$out" "mtu +$LAB_PREFIX-n0 -> $LAB_PREFIX-n1 eth1: path MTU to 10\.10\.0\.11: 1500" "path MTU"
expect_match "$out" "0 errors," "no errors"
expect_match "$out" "cluster.auth.none" "no token is a warning"
# bandwidth figures of lab nodes that share one loaded CPU may differ (link.bw.*); nothing else warns
other=$(printf '%s\n' "$out" | unwrap | grep -E '^warn ' |
	grep -v -E '\((cluster\.auth\.none|link\.bw\.[a-z_]+)\)( |$)')
[ -z "$other" ] && pass "no other warnings" || fail "unexpected warnings: $other"
# both nodes print the same findings (the master's report)
a=$(grep -E '^(ok|warn|error|note) ' "$LAB_TMP/n0.out"); b=$(grep -E '^(ok|warn|error|note) ' "$LAB_TMP/n1.out")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "both nodes print the same findings" || fail "the nodes' findings differ"
expect_match "$(cat "$LAB_TMP/n1.err")" "rank 1 of 2 \(env\), master 10\.10\.0\.10:29500" "rank 1 found its place from the environment"

t0=$(ms); run_pair --no-python; t1=$(ms)
expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "rank 0 --no-python"
echo "wall without the Python probe: $((t1 - t0)) ms"
# without -v: the verdict first, no measurements, the brief line at the end
out=$(cat "$LAB_TMP/n0.out")
expect_match "$(head -2 "$LAB_TMP/n0.out")" "^verdict: no errors .*NCCL's own interface choice works for every pair" \
	"the verdict is the first line, and says which interfaces work"
expect_no_match "$out" "^  (connect|scan|mtu) " "the link measurements only with -v"
expect_match "$out" "cluster: 2 nodes: $LAB_PREFIX-n0, $LAB_PREFIX-n1; [0-9]+ link tests" "the brief line names both nodes"

# JSON: the same report on both nodes, with facts per node and the link matrix
run_pair --no-python --json --no-ports
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "rank 1 --json"
"$PY" - "$LAB_TMP/n0.out" "$LAB_TMP/n1.out" "$LAB_PREFIX" <<'PY' && pass "JSON report shape" || fail "JSON report shape"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
P = sys.argv[3]
assert a["verb"] == "cluster" and a["exit_code"] == 0, a.get("exit_code")
assert [n["name"] for n in a["nodes"]] == [P + "-n0", P + "-n1"]
assert all(n["facts"]["schema_version"] == 1 for n in a["nodes"])
tests = sorted((l["test"], l["peer_name"], l["target_name"], l["ifname"]) for l in a["links"]
               if l["test"] in ("connect", "mtu"))
assert len(tests) == 8 and all(l["ran"] for l in a["links"]), tests
bw = [l for l in a["links"] if l["test"] == "bw"]
assert len(bw) >= 2 and all(l["result"]["total_gbps"] > 0 for l in bw), bw
assert all(l["result"]["kind"] == "connect" for l in a["links"] if l["test"] == "connect")
assert {f["id"] for f in a["findings"]} >= {"cluster.auth.none", "link.connect.ok", "cluster.verdict.ifname"}
assert a["findings"] == b["findings"] and a["links"] == b["links"]
PY

# several processes per node: local rank 1 stays out at once
out=$(lx n0 env LOCAL_RANK=1 "$NCCLCHECK" cluster 2>&1); rc=$?
expect_rc 0 $rc "local rank 1 exits"
expect_match "$out" "only local rank 0 of each node takes part" "and says why"
# a usage error is exit 2
out=$(lx n0 env -u NNODES -u WORLD_SIZE "$NCCLCHECK" cluster 2>&1); expect_rc 2 $? "no node count"
expect_match "$out" "no node count" "names what is missing"
finish
