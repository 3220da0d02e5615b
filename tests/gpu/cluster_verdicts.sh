#!/bin/bash
# GPU machine (16 cores): bench/cluster_verdicts.sh there — issue #30's lab acceptance
# (firewall-port-range, cloud-public-blocked before and after its fix, mtu-blackhole, dns-broken)
# five times each on 2 and on 4 nodes, each node with CPUs to itself, so the wall times are the
# ones the <= 20 s target is about.
#   bash tests/gpu/cluster_verdicts.sh      -> $OUT/cluster_verdicts/{2,4}.txt
. "$(dirname "$0")/env.sh"
set -u
D=$OUT/cluster_verdicts
mkdir -p "$D"
rc=0
for n in ${NODES:-2 4}; do
	NODES=$n REPEATS=${REPEATS:-5} NCCLCHECK=$NCCLCHECK PREFIX=gcv$n \
		bash "$REPO/bench/cluster_verdicts.sh" 2>&1 | tee "$D/$n.txt"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
done
exit $rc
