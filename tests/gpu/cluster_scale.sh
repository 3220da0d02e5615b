#!/bin/bash
# GPU machine (16 cores): bench/cluster_scale.sh there, where 64 lab nodes get 8x the cores of
# the 2-core CI machine, so the wall time is nearer what a real cluster sees (each node its own
# CPU). Issue #9's targets: 16 nodes under 30 s, close to flat past full_mesh_max (32).
#   bash tests/gpu/cluster_scale.sh      -> $OUT/cluster_scale/{table.txt,report.N.json}
. "$(dirname "$0")/env.sh"
set -u
D=$OUT/cluster_scale
mkdir -p "$D"
KEEP=$D/report NODES=${NODES:-"2 8 16 32 64"} NCCLCHECK=$NCCLCHECK \
	bash "$REPO/bench/cluster_scale.sh" | tee "$D/table.txt"
nproc | sed 's/^/cores: /' >> "$D/table.txt"
# Every lab node shares this kernel (one boot id): bandwidth slowness there is the CPUs'. The
# reports should hold no link.bw warning (slow_host/slow_link/slow_pair/low), at most the
# link.bw.same_host note; one line per size in bw_findings.txt.
for f in "$D"/report.*.json; do
	[ -e "$f" ] || continue
	python3 - "$f" <<'PY' | tee -a "$D/bw_findings.txt"
import collections, json, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter("%s %s" % (x["severity"], x["id"]) for x in d["findings"]
                        if x["id"].startswith("link.bw.") and x["id"] != "link.bw.ok")
print("%d nodes: %s" % (len(d["nodes"]), dict(c) or "no link.bw finding"))
PY
done
