#!/bin/bash
# Wall time of `ncclcheck cluster` on 3 lab nodes under the faults of issue #30 that the
# integration tests keep (tests/integration/cluster_noise_*.sh): n1 dropping 40000-44999 on eth1,
# 5 % and 1 % random loss on n1, 200 ms added on n1 (NFQUEUE delayer), n1's ncclcheck stopped
# 1.5 s and 4 s in its port scans (SIGSTOP). Each scenario REPEATS
# times; every run's verdict is checked by the test itself (a flip is a FAIL line), the times
# land in OUT (one "scenario ms" line per run). Target: <= 20 s per run for 2-4 nodes on a
# machine of its own; a lab shares one machine's cores, so a loaded box reads slower.
#   sudo bench/cluster_noise.sh     REPEATS=5 BUILD=build/release OUT=/tmp/noise.times
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/debug}
REPEATS=${REPEATS:-5}
OUT=${OUT:-/tmp/cluster_noise.times}
[ "$(id -u)" = 0 ] || { echo "bench: needs root (lab namespaces)" >&2; exit 2; }
: >"$OUT"
for t in block loss delay starve; do
	NOISE_REPEATS=$REPEATS NOISE_BENCH=$(realpath "$OUT") scripts/isolated.sh \
		ctest --test-dir "$BUILD" -R "integration.cluster_noise_$t\$" --output-on-failure |
		grep -E "^(ok|FAIL):|took" || true
done
echo "times (ms):"
cat "$OUT"
