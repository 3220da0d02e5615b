#!/bin/bash
# cluster between namespaces of one kernel (every lab node has the same host.boot_id): what the
# bandwidth phase may blame there.
# 1. 4 nodes, n3's eth1 capped by tbf inside its namespace: a real per-link limit the user set up.
#    It stays slow measured alone, so link.bw.slow_host names n3 (a warning, exit 0), its why
#    says the nodes share one kernel and the cap stayed alone, its evidence has the figures
#    measured alone; link.bw.low is given for n3's links only; no link or pair is blamed.
# 2. 64 healthy nodes at once on this machine's few cores: every flow gets a sliver of CPU
#    (about 0.5 Gbit/s on 2 cores, 5 % of a veth's nominal 10 Gbit/s). Nothing of that is a
#    slow host, link or pair, nor a link far below its line rate: no link.bw warning at all.
# ctest: run alone
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use hs1
P=$LAB_PREFIX

# all N ARGS...: every node of the lab runs cluster ARGS at once (lab_cluster)
all() { local n=$1; shift; lab_cluster "$n" 180 "$@"; }

"$NCCLCHECK" lab up --nodes 4 --prefix $P >/dev/null 2>&1
expect_rc 0 $? "lab up, 4 nodes"
lx n3 tc qdisc add dev eth1 root tbf rate 100mbit burst 1mb latency 50ms
expect_rc 0 $? "tbf 100 Mbit/s on n3's eth1"
all 4 --json --no-ports --no-mtu
for i in 0 1 2 3; do
	expect_rc 0 "$(cat "$LAB_TMP/n$i.rc")" "rank $i exits 0 (a slow node is a warning)"
done
"$PY" - "$LAB_TMP/n0.out" "$P" <<'PY' && pass "a tbf cap in one namespace: slow_host names $P-n3, confirmed alone" || fail "the capped node's report"
import json, sys
d = json.load(open(sys.argv[1])); P = sys.argv[2]
n3 = P + "-n3"
assert len({n["facts"]["host"]["boot_id"] for n in d["nodes"]}) == 1, "the lab's nodes share one kernel"
bw = [f for f in d["findings"] if f["id"].startswith("link.bw.") and f["severity"] != "ok"]
slow = [f for f in bw if f["id"] == "link.bw.slow_host"]
assert len(slow) == 1 and slow[0]["node"] == n3 and slow[0]["severity"] == "warn", bw
s = slow[0]
assert s["title"].startswith(n3 + " is slow with every peer: it sends"), s["title"]
assert "share one kernel" in s["why"] and "stayed slow" in s["why"], s["why"]
alone = [float(e.split(", ")[1].split()[0]) for e in s["evidence"] if "measured alone" in e]
assert len(alone) == 3 and max(alone) < 0.2, s["evidence"]   # 100 Mbit/s, alone too
assert not [f for f in bw if f["id"] in ("link.bw.slow_link", "link.bw.slow_pair")], bw
low = [f for f in bw if f["id"] == "link.bw.low"]
assert low and all(n3 in (f["node"], f["peer"]) for f in low), [(f["node"], f["peer"]) for f in low]
# the other three pairs were measured and are fine
fast = [l for l in d["links"] if l["test"] == "bw" and n3 not in (l["peer_name"], l["target_name"])]
assert fast and all(l["result"]["total_gbps"] > 0.5 for l in fast), fast
assert d["exit_code"] == 0
PY

"$NCCLCHECK" lab up --nodes 64 --prefix $P --force >/dev/null 2>&1
expect_rc 0 $? "lab up, 64 nodes"
t0=$(date +%s%3N)
all 64 --json --no-ports --no-mtu
t1=$(date +%s%3N)
echo "64 nodes on $(nproc) cores: $((t1 - t0)) ms"
bad=0
for i in $(seq 0 63); do
	rc=$(cat "$LAB_TMP/n$i.rc")
	[ "$rc" = 0 ] && continue
	bad=$((bad + 1))
	[ $bad -le 3 ] && echo "n$i exit $rc: $(tail -3 "$LAB_TMP/n$i.err" | tr "\n" " ")"
done
[ $bad = 0 ] && pass "64 nodes: every rank exits 0" || fail "64 nodes: $bad ranks did not exit 0"
"$PY" - "$LAB_TMP/n0.out" <<'PY' && pass "64 nodes on one kernel: no link.bw warning" || fail "64 nodes on one kernel blame a host or link"
import json, sys
d = json.load(open(sys.argv[1]))
g = sorted(l["result"]["total_gbps"] for l in d["links"] if l["test"] == "bw" and l["ran"])
print("bw flows: %d, %.2f to %.2f Gbit/s" % (len(g), g[0], g[-1]))
warn = [(f["id"], f["title"]) for f in d["findings"] if f["id"].startswith("link.bw.") and f["severity"] != "ok"
        and f["severity"] != "info"]
assert not warn, warn[:5]
info = [f for f in d["findings"] if f["id"] == "link.bw.same_host"]
assert all(f["severity"] == "info" and "same boot id" in f["why"] for f in info), info
assert d["exit_code"] == 0
PY

"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
