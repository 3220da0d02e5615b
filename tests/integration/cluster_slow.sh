#!/bin/bash
# cluster on the lab's slow-link scenario (issue #9 acceptance): the last of three nodes has
# both NICs capped at 100 Mbit/s both ways (tbf on its side and the hub's), so it is slow with
# every peer — a slow host, told from a slow link by the third node. All three nodes run
# cluster at once, each under timeout: the report names n2 in link.bw.slow_host (a warning:
# exit 0), blames neither the fast pair n0 <-> n1 nor a single link, and is the same on every
# node. Then the other half of "host or link": a healthy lab whose n1 <-> n2 path alone is capped
# (htb + a u32 filter on each end's eth1): link.bw.slow_link names that pair, no host is blamed.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use sg2
P=$LAB_PREFIX

"$NCCLCHECK" lab up --nodes 3 --scenario slow-link --prefix $P >/dev/null 2>&1
expect_rc 0 $? "lab up slow-link, 3 nodes"

# trio ARGS...: the three nodes run cluster ARGS at once (lab_cluster)
trio() { lab_cluster 3 120 "$@"; }

t0=$(date +%s%3N)
trio --json --no-ports
t1=$(date +%s%3N)
for i in 0 1 2; do
	expect_rc 0 "$(cat "$LAB_TMP/n$i.rc")" "rank $i exits 0 (a slow node is a warning)"
done
echo "slow-link, 3 nodes: $((t1 - t0)) ms"
[ $((t1 - t0)) -lt 120000 ] && pass "bounded: $((t1 - t0)) ms" || fail "took $((t1 - t0)) ms"

"$PY" - "$LAB_TMP"/n0.out "$LAB_TMP"/n1.out "$LAB_TMP"/n2.out "$P" <<'PY' && pass "link.bw.slow_host names $P-n2, nothing else is blamed, the same on every node" || fail "slow-link's report"
import json, sys
docs = [json.load(open(p)) for p in sys.argv[1:4]]
P = sys.argv[4]
d = docs[0]
ids = [f["id"] for f in d["findings"]]
slow = [f for f in d["findings"] if f["id"] == "link.bw.slow_host"]
assert len(slow) == 1, [(f["id"], f["title"]) for f in d["findings"] if f["id"].startswith("link.bw")]
s = slow[0]
assert s["severity"] == "warn" and s.get("node") == P + "-n2", s
assert s["title"].startswith(P + "-n2 is slow with every peer"), s["title"]
assert "sends and receives" in s["title"], s["title"]
# its evidence: both of n2's links, each far below the fast pair
ev = [e for e in s["evidence"] if "<->" in e]
assert len(ev) == 2 and all(P + "-n2" in e for e in ev), ev
assert "link.bw.slow_link" not in ids and "link.bw.slow_pair" not in ids, ids
# the fast pair was measured and is fine
bw = {(l["peer_name"], l["target_name"]): l["result"]["total_gbps"] for l in d["links"] if l["test"] == "bw"}
fast = [g for (a, b), g in bw.items() if P + "-n2" not in (a, b)]
capped = [g for (a, b), g in bw.items() if P + "-n2" in (a, b)]
assert fast and capped and min(fast) > 5 * max(capped), bw
assert max(capped) < 0.2, capped   # 100 Mbit/s tbf
assert all(x["findings"] == d["findings"] for x in docs[1:]), "the nodes' reports differ"
assert d["exit_code"] == 0
PY

# what a person sees
trio --no-ports --no-mtu
expect_rc 0 "$(cat "$LAB_TMP/n2.rc")" "text run: the slow node itself exits 0"
expect_match "$(cat "$LAB_TMP/n2.out")" "^warn +$P-n2 is slow with every peer: it sends and receives below" \
	"the slow node's own output names it"
expect_match "$(cat "$LAB_TMP/n0.out")" "\(link\.bw\.slow_host\)" "with the finding's id"

# ---- a slow link: n1 <-> n2 capped on both ends, each fast with n0 ----
"$NCCLCHECK" lab up --nodes 3 --scenario healthy --prefix $P --force >/dev/null 2>&1
expect_rc 0 $? "lab up healthy, 3 nodes"
cap() { # NODE DST: NODE's eth1 sends to DST at 100 Mbit/s, everything else unshaped
	lx "$1" tc qdisc add dev eth1 root handle 1: htb default 20 &&
		lx "$1" tc class add dev eth1 parent 1: classid 1:10 htb rate 100mbit burst 64kb 2>/dev/null &&
		lx "$1" tc filter add dev eth1 parent 1: protocol ip prio 1 u32 match ip dst "$2/32" flowid 1:10
}
if ! cap n1 10.10.0.12 2>/dev/null || ! cap n2 10.10.0.11 2>/dev/null; then
	echo "note: this kernel has no htb or u32 (tc): the slow-link half is not run"
else
	trio --json --no-ports --no-mtu
	expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "slow link: rank 0 exits 0"
	"$PY" - "$LAB_TMP"/n0.out "$P" <<'PY' && pass "link.bw.slow_link names $P-n1 <-> $P-n2, no host is blamed" || fail "the slow link's report"
import json, sys
d = json.load(open(sys.argv[1])); P = sys.argv[2]
bw = [(f["id"], f.get("node"), f.get("peer"), f["title"]) for f in d["findings"] if f["id"].startswith("link.bw.slow")]
assert [(i, n, p) for i, n, p, _ in bw] == [("link.bw.slow_link", P + "-n1", P + "-n2")], bw
assert "while both reach" in bw[0][3], bw
PY
fi

"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
