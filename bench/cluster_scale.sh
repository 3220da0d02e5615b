#!/bin/bash
# Wall time of `ncclcheck cluster` for N lab nodes (healthy scenario, every node started at once
# with the lab's torchrun-style environment), per phase from the master's --json timings.
# Targets (issue #9): 16 nodes under 30 s, growth past full_mesh_max (32) close to flat.
#   sudo bench/cluster_scale.sh     NODES="2 4 8 16 32 64" ARGS="--no-python" NCCLCHECK=build/release/ncclcheck
#   KEEP=/tmp/scale keeps each master report as /tmp/scale.N.json
set -euo pipefail
cd "$(dirname "$0")/.."
NCCLCHECK=${NCCLCHECK:-build/release/ncclcheck}
NODES=${NODES:-"2 4 8 16 32 64"}
ARGS=${ARGS:---no-python}
P=nclntb
[ "$(id -u)" = 0 ] || { echo "bench: needs root (lab namespaces)" >&2; exit 2; }
[ -x "$NCCLCHECK" ] || { echo "bench: build first (or set NCCLCHECK)" >&2; exit 2; }
NCCLCHECK=$(realpath "$NCCLCHECK")
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	"$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
printf '%-6s %-8s %-8s %-8s %-8s %-8s %-8s %s\n' nodes wall_ms join connect mtu scan bw rounds
for n in $NODES; do
	"$NCCLCHECK" lab up --nodes "$n" --scenario healthy --prefix $P --force >/dev/null
	pids=""
	t0=$(date +%s%3N)
	for i in $(seq 1 $((n - 1))); do
		# shellcheck disable=SC2086
		timeout 600 "$NCCLCHECK" lab exec "$P-n$i" -- "$NCCLCHECK" cluster $ARGS --timeout 120 \
			>/dev/null 2>&1 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	timeout 600 "$NCCLCHECK" lab exec "$P-n0" -- "$NCCLCHECK" cluster $ARGS --timeout 120 --json \
		>"$tmp/m.json" 2>/dev/null || true
	[ -z "${KEEP:-}" ] || cp "$tmp/m.json" "$KEEP.$n.json"
	t1=$(date +%s%3N)
	for p in $pids; do wait "$p" || true; done
	pids=""
	python3 - "$tmp/m.json" "$n" $((t1 - t0)) <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d.get("timings_ms", {})
g = lambda k: str(t.get(k, "-"))
print("%-6s %-8s %-8s %-8s %-8s %-8s %-8s %s" % (sys.argv[2], sys.argv[3], g("join"), g("connect"),
      g("mtu"), g("scan"), g("bw"), g("rounds")), "" if d["exit_code"] == 0 else "exit %d" % d["exit_code"])
PY
done
