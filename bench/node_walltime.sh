#!/usr/bin/env bash
# Wall time of `ncclcheck node` without and with the Python probe, against the peer tool people
# run for the same question, `python -m torch.utils.collect_env` (via /usr/bin/python3, the
# interpreter with torch), all measured in this run on this machine; prints medians and ratios.
# Target: the median of `node --no-python` under 1 s.
# Usage: bench/node_walltime.sh [N] [N_SLOW]   (N runs of the fast modes, default 21; N_SLOW runs
#        of the full probe and of collect_env, default 5; NCCLCHECK=path, default build/release)
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
NCCLCHECK=${NCCLCHECK:-$REPO/build/release/ncclcheck}
N=${1:-21}
NSLOW=${2:-5}
PEER_PY=${PEER_PY:-/usr/bin/python3}
[ -x "$NCCLCHECK" ] || { echo "bench: build first: cmake --preset release && cmake --build --preset release (or set NCCLCHECK)" >&2; exit 2; }

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

echo "machine: $(nproc) cpus, $(uname -r); ncclcheck: $NCCLCHECK"
# one warm-up of each, so the page cache is equally warm for everyone
"$NCCLCHECK" node --json --no-python >/dev/null 2>&1 || true
fast=$(median_ms "$N" "$NCCLCHECK" node --json --no-python)
text=$(median_ms "$N" "$NCCLCHECK" node --no-python --no-color)
full=$(median_ms "$NSLOW" "$NCCLCHECK" node --json)
peer="n/a"
if [ -x "$PEER_PY" ] && "$PEER_PY" -c 'import torch.utils.collect_env' 2>/dev/null; then
	"$PEER_PY" -m torch.utils.collect_env >/dev/null 2>&1 || true
	peer=$(median_ms "$NSLOW" "$PEER_PY" -m torch.utils.collect_env)
fi
pyonly=$("$NCCLCHECK" node --json | "${PEER_PY}" -c 'import json,sys; print(json.load(sys.stdin)["facts"]["timings_ms"].get("python", "n/a"))' 2>/dev/null || echo n/a)

printf '%-44s %8s\n' "run" "median"
printf '%-44s %6s ms  (%d runs)\n' "ncclcheck node --json --no-python" "$fast" "$N"
printf '%-44s %6s ms  (%d runs)\n' "ncclcheck node --no-python (text)" "$text" "$N"
printf '%-44s %6s ms  (%d runs; python probe alone: %s ms)\n' "ncclcheck node --json (with python)" "$full" "$NSLOW" "$pyonly"
printf '%-44s %6s ms  (%d runs)\n' "$PEER_PY -m torch.utils.collect_env" "$peer" "$NSLOW"
if [ "$peer" != "n/a" ]; then
	echo "ratio node --no-python / collect_env: $(ratio "$fast" "$peer")"
	echo "ratio node (full) / collect_env:      $(ratio "$full" "$peer")"
fi
if [ "$fast" -lt 1000 ]; then
	echo "target (median node --no-python < 1000 ms): met ($fast ms)"
else
	echo "target (median node --no-python < 1000 ms): NOT met ($fast ms)"
	exit 1
fi
