#!/usr/bin/env bash
# Wall time of `ncclcheck node --json` with the Python probe (torch read from its files), of the
# peer tool people run for the same question, `python -m torch.utils.collect_env`, and of
# `node --json --deep` (torch imported), all measured in this run on this machine for the
# interpreter with torch (/usr/bin/python3 here, PEER_PY elsewhere); prints medians and ratios,
# and checks that the static and the import path give identical torch facts.
# Target (issue #17): node --json at least 3x faster than collect_env, with identical torch facts.
# Usage: bench/node_walltime.sh [N] [N_SLOW]   (N runs of node --json and --no-python, default 11;
#        N_SLOW runs of collect_env and --deep, default 5; NCCLCHECK=path, default build/release)
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
NCCLCHECK=${NCCLCHECK:-$REPO/build/release/ncclcheck}
N=${1:-11}
NSLOW=${2:-5}
PEER_PY=${PEER_PY:-/usr/bin/python3}
[ -x "$NCCLCHECK" ] || { echo "bench: build first: cmake --preset release && cmake --build --preset release (or set NCCLCHECK)" >&2; exit 2; }
[ -x "$PEER_PY" ] || { echo "bench: no interpreter $PEER_PY (set PEER_PY)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/node-walltime-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# times COUNT CMD...: prints the median wall time in ms of COUNT runs (output discarded)
median_ms() {
	local count=$1 i t0 t1
	shift
	for ((i = 0; i < count; i++)); do
		t0=$(now_ms)
		"$@" >/dev/null 2>&1 || true
		t1=$(now_ms)
		echo $((t1 - t0))
	done | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo "machine: $(nproc) cpus, $(uname -r); ncclcheck: $NCCLCHECK; torch interpreter: $PEER_PY"
# one warm-up of each, so the page cache is equally warm for everyone
"$NCCLCHECK" node --json --python "$PEER_PY" >/dev/null 2>&1 || true
"$NCCLCHECK" node --json --deep --python "$PEER_PY" >/dev/null 2>&1 || true
fast=$(median_ms "$N" "$NCCLCHECK" node --json --no-python)
node=$(median_ms "$N" "$NCCLCHECK" node --json --python "$PEER_PY")
deep=$(median_ms "$NSLOW" "$NCCLCHECK" node --json --deep --python "$PEER_PY")
peer="n/a"
if "$PEER_PY" -c 'import torch.utils.collect_env' 2>/dev/null; then
	"$PEER_PY" -m torch.utils.collect_env >/dev/null 2>&1 || true
	peer=$(median_ms "$NSLOW" "$PEER_PY" -m torch.utils.collect_env)
fi
"$NCCLCHECK" node --json --python "$PEER_PY" > "$tmp/static.json" 2>/dev/null || true
"$NCCLCHECK" node --json --deep --python "$PEER_PY" > "$tmp/deep.json" 2>/dev/null || true
pyms() { "$PEER_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["facts"]["timings_ms"].get("python", "n/a"))' "$1" 2>/dev/null || echo n/a; }

printf '%-48s %6s ms  (%d runs)\n' "ncclcheck node --json --no-python" "$fast" "$N"
printf '%-48s %6s ms  (%d runs; python probe: %s ms)\n' "ncclcheck node --json (torch from its files)" "$node" "$N" "$(pyms "$tmp/static.json")"
printf '%-48s %6s ms  (%d runs)\n' "$PEER_PY -m torch.utils.collect_env" "$peer" "$NSLOW"
printf '%-48s %6s ms  (%d runs; python probe: %s ms)\n' "ncclcheck node --json --deep (torch imported)" "$deep" "$NSLOW" "$(pyms "$tmp/deep.json")"
same=no
if "$PEER_PY" "$REPO/tests/integration/torch_facts_cmp.py" "$tmp/static.json" "$tmp/deep.json" "$PEER_PY" > "$tmp/cmp.txt"; then
	same=yes
fi
echo "torch facts identical on both paths: $same"
[ $same = yes ] || grep FAIL "$tmp/cmp.txt"
echo "ratio collect_env / node --json:   $(ratio "$peer" "$node")"
echo "ratio --deep / node --json:        $(ratio "$deep" "$node")"
if [ "$peer" != "n/a" ] && [ $same = yes ] && [ "$(( node * 3 ))" -le "$peer" ]; then
	echo "target (node --json >= 3x faster than collect_env, identical torch facts): met"
else
	echo "target (node --json >= 3x faster than collect_env, identical torch facts): NOT met"
	exit 1
fi
