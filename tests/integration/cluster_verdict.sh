#!/bin/bash
# cluster's verdict on the lab's faults: the interface every pair reaches, proven on every node's
# model and given as settings[]; the port-range map; the MTU black hole; docker0's address on
# every node; interface names that differ between nodes (one value that fits both).
# ctest: run alone
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use xv
P=$LAB_PREFIX

# pair SCENARIO [LAB-UP ARGS]: both nodes run cluster --json at once; documents in n0.json/n1.json
pair() {
	local sc=$1; shift
	"$NCCLCHECK" lab up --nodes 2 --scenario "$sc" --prefix $P --force "$@" >/dev/null 2>&1 ||
		{ fail "lab up $sc"; return 1; }
	( timeout 60 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --no-python --no-bw --json \
		>"$LAB_TMP/n1.json" 2>/dev/null; echo $? >"$LAB_TMP/n1.rc" ) &
	local w=$!
	T0=$(date +%s%3N)
	timeout 60 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python --no-bw --json \
		>"$LAB_TMP/n0.json" 2>/dev/null; echo $? >"$LAB_TMP/n0.rc"
	wait $w
	T1=$(date +%s%3N)
}
# q EXPR: a Python expression over d (rank 0's document), f (findings by id), s (settings)
q() {
	"$PY" - "$LAB_TMP/n0.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {}
for x in d["findings"]:
    f.setdefault(x["id"], x)
s = [(st["name"], st.get("value"), st.get("node"), x["id"]) for x in d["findings"] for st in x.get("settings", [])]
print(eval(sys.argv[2]))
PY
}
expect_q() { expect_match "$(q "$1" 2>&1)" "^$2\$" "$3"; }

pair cloud-public-blocked
expect_rc 1 "$(cat "$LAB_TMP/n0.rc")" "cloud-public-blocked: rank 0 exits 1"
expect_rc 1 "$(cat "$LAB_TMP/n1.rc")" "cloud-public-blocked: rank 1 exits 1"
echo "cloud-public-blocked verdict in $((T1 - T0)) ms"
[ $((T1 - T0)) -lt 15000 ] && pass "verdict in under 15 s" || echo "note: $((T1 - T0)) ms on a loaded box"
expect_q '"eth0" in f["cluster.link.unreachable"]["title"] and f["cluster.link.unreachable"]["severity"]' error \
	"eth0 is named unreachable, an error"
expect_q '("NCCL_SOCKET_IFNAME", "eth1", None, "cluster.verdict.ifname") in s' True \
	"the verdict's settings[] has NCCL_SOCKET_IFNAME=eth1 for every node"
expect_q '("GLOO_SOCKET_IFNAME", "eth1", None, "cluster.verdict.ifname") in s' True "and GLOO_SOCKET_IFNAME=eth1"
expect_q '"export NCCL_SOCKET_IFNAME=eth1" in f["cluster.link.unreachable"]["fix"]' True "the error's fix is the export line"
expect_q '[x["id"] for x in d["findings"] if x["severity"] == "error" and "caused_by" not in x], d["summary"]["error"]' \
	"\(\['cluster.verdict.ifname'\], 1\)" "one root error: the proven NCCL_SOCKET_IFNAME, counted once"
expect_q 'f["cluster.link.unreachable"]["caused_by"]["id"]' cluster.verdict.ifname \
	"the unreachable eth0 is folded under the verdict that moves NCCL off it"
expect_q '[(n["name"][-2:], x["id"]) for n in d["nodes"] for x in n.get("findings", []) if x.get("settled") == "confirmed" and "caused_by" not in x and x["severity"] == "error"]' \
	'\[\]' "no node guess about eth0 is left as an error"

pair cloud-public-blocked --private-name 1=ens5
expect_q 'f["cluster.verdict.ifname"]["title"]' ".*NCCL_SOCKET_IFNAME=eth1,ens5.*" \
	"names differ: one value that fits both nodes"
expect_q '("NCCL_SOCKET_IFNAME", "eth1,ens5", None, "cluster.verdict.ifname") in s' True "as a setting for every node"
expect_q '("GLOO_SOCKET_IFNAME", "ens5", "'$P'-n1", "cluster.verdict.ifname") in s' True "gloo's exact name per node"

pair firewall-port-range
expect_q 'any("32768-49151" in x["title"] for x in d["findings"] if x["id"] in ("cluster.ports.blocked", "link.ports.blocked"))' True \
	"firewall-port-range: 32768-49151 found exactly"
expect_q '[x["id"] for x in d["findings"] if x["severity"] == "error" and "caused_by" not in x]' "\['link.ports.range'\]" \
	"firewall-port-range: one root error, the port range"
expect_q 'any(n == "net.ipv4.ip_local_port_range" and v == "49152 60999" for n, v, _, _ in s)' True \
	"the sysctl that moves NCCL's ports into the open part"

pair mtu-blackhole
expect_q '"cluster.mtu.blackhole" in f or "link.mtu.blackhole" in f' True "mtu-blackhole: the black hole is found"

pair docker0-duplicate
expect_q 'f["cluster.ip.duplicate"]["severity"] in ("info", "error") and "172.17.0.1" in f["cluster.ip.duplicate"]["title"]' True \
	"docker0-duplicate: 172.17.0.1 on both nodes is named"

"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
