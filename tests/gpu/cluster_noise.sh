#!/bin/bash
# GPU machine (16 cores): issue #30's noise faults five times each on 3 lab nodes, each node with
# CPUs to itself — n1 dropping 40000-44999 on eth1, 5 % and 1 % random loss on n1, 200 ms added
# on n1 (NFQUEUE delayer), n1's ncclcheck stopped in its scans — through the integration tests
# themselves (tests/integration/cluster_noise_*.sh: every run's verdict asserted), without ctest.
#   bash tests/gpu/cluster_noise.sh      -> $OUT/cluster_noise/{block,loss,delay,starve}.txt, times
. "$(dirname "$0")/env.sh"
set -u
D=$OUT/cluster_noise
mkdir -p "$D"
: >"$D/times"
rc=0
for t in ${TESTS:-block loss delay starve}; do
	SRCDIR=$REPO NCCLCHECK=$NCCLCHECK NOISE_REPEATS=${REPEATS:-5} NOISE_BENCH=$D/times \
		timeout 540 bash "$REPO/tests/integration/cluster_noise_$t.sh" >"$D/$t.txt" 2>&1
	r=$?
	echo "$t: exit $r, $(grep -c '^ok' "$D/$t.txt") ok, $(grep -c '^FAIL' "$D/$t.txt") FAIL"
	grep '^FAIL' "$D/$t.txt" | head -5
	[ $r = 0 ] || rc=1
done
echo "times (ms):"; cat "$D/times"
exit $rc
