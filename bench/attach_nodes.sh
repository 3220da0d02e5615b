#!/bin/bash
# Wall time of `ncclcheck attach --all-nodes` at 64 ranks (issue #27: the whole answer within
# 15 s): NODES lab nodes with RANKS live Python stand-in ranks each (tests/fixtures/pystack/
# sleeper.py mapping a fake libnccl), the last rank spinning, every other rank sleeping; each
# node's RAS a replay of one job-wide answer in which the last rank launched one AllReduce
# fewer. attach starts on every node at once; each node's time from that start to its exit and
# whether its verdict and groups name the odd rank go to OUT. Defaults: the polls attach makes
# by default (2, 4 s apart). A lab shares one machine's cores: a loaded box reads slower.
#   sudo bench/attach_nodes.sh      NODES=8 RANKS=8 BUILD=build/release OUT=/tmp/attach_nodes.times
# ctest-style environment for the lab helpers; run under scripts/isolated.sh (it re-runs itself so)
set -uo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench: needs root (lab namespaces)" >&2; exit 2; }
if [ -z "${ATTACH_BENCH_ISOLATED:-}" ]; then
	ATTACH_BENCH_ISOLATED=1 exec scripts/isolated.sh "$0" "$@"
fi
BUILD=$(realpath "${BUILD:-build/debug}")
NODES=${NODES:-8} RANKS=${RANKS:-8}
OUT=${OUT:-/tmp/attach_nodes.times}
export SRCDIR=$PWD NCCLCHECK=$BUILD/ncclcheck FAKESDIR=$BUILD/tests/fakes
. tests/integration/lib_lab.sh
lab_use atb
LOAD=$FAKESDIR/nccl/libnccl.so.2
SL=$SRCDIR/tests/fixtures/pystack/sleeper.py
T=$LAB_TMP
export NCCLCHECK_TOKEN=attach-bench
APORT=29612
total=$((NODES * RANKS))
"$NCCLCHECK" lab up --nodes "$NODES" --scenario healthy --prefix "$LAB_PREFIX" >/dev/null 2>&1 ||
	{ echo "lab up failed" >&2; exit 1; }
addrs="" pids=""
for n in $(seq 0 $((NODES - 1))); do
	a=$(lx "n$n" ip -4 -o addr show scope global | awk '{print $4}' | cut -d/ -f1 | head -1)
	for r in $(seq 0 $((RANKS - 1))); do
		k=$((n * RANKS + r)) mode=
		[ $k = $((total - 1)) ] && mode=spin
		lx "n$n" sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/rank$k.pid" env \
			SLEEPER_LOAD="$LOAD" "$PY" "$SL" $mode >"$T/rank$k.out" 2>&1 &
		LAB_PIDS="$LAB_PIDS $!"
		addrs="$addrs $a"
	done
done
for k in $(seq 0 $((total - 1))); do
	for _ in $(seq 400); do grep -q ready "$T/rank$k.out" 2>/dev/null && break; sleep 0.05; done
	p=$(cat "$T/rank$k.pid"); pids="$pids $p"; LAB_PIDS="$LAB_PIDS $p"
done
sleep 0.5
"$PY" "$SRCDIR/tests/fakes/ras_job.py" "$SRCDIR/tests/fixtures/attach/ras/sleep.json" "$T/ras.json" \
	"$addrs" "$pids" $((total - 1)) "$RANKS"
for n in $(seq 0 $((NODES - 1))); do
	rm -f "$T/ras_port$n"
	lx "n$n" timeout 300 "$PY" "$SRCDIR/tests/fakes/ras_replay.py" "$T/ras.json" \
		--port-file "$T/ras_port$n" --idle 120 >/dev/null 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
done
for n in $(seq 0 $((NODES - 1))); do
	for _ in $(seq 200); do [ -s "$T/ras_port$n" ] && break; sleep 0.05; done
done
master=$(echo "$addrs" | awk '{print $1}')
t0=$(date +%s%3N)
for n in $(seq 0 $((NODES - 1))); do
	( timeout 120 "$NCCLCHECK" lab exec "$LAB_PREFIX-n$n" -- "$NCCLCHECK" attach --no-color \
		--all-nodes --master "$master:$APORT" --ras "127.0.0.1:$(cat "$T/ras_port$n")" \
		>"$T/a$n.out" 2>&1; echo "$? $(( $(date +%s%3N) - t0 ))" >"$T/a$n.rc" ) &
done
wait_for=$((total - 1))
for n in $(seq 0 $((NODES - 1))); do
	while [ ! -s "$T/a$n.rc" ]; do sleep 0.1; done
done
: >"$OUT"
for n in $(seq 0 $((NODES - 1))); do
	read -r rc ms <"$T/a$n.rc"
	ok=named
	# the text wraps long lines: joined again before the verdict is read
	sed -e ':a' -e 'N' -e '$!ba' -e 's/\n    */ /g' "$T/a$n.out" |
		grep -Eq "^verdict: rank $wait_for .*spin \(sleeper\.py:14\)" || ok=VERDICT-MISSES-IT
	grep -Eq "^  1 rank \(rank $wait_for on [^)]*\): in .*spin \(sleeper\.py:14\)" "$T/a$n.out" ||
		ok="$ok,GROUP-MISSES-IT"
	grep -Eq "^  $((total - 1)) ranks: in .*inner_sleep" "$T/a$n.out" || ok="$ok,NO-BIG-GROUP"
	echo "n$n exit $rc $ms ms $ok" | tee -a "$OUT"
done
cp "$T/a0.out" "$OUT.n0"	# one node's whole report, to read
echo "$NODES nodes x $RANKS ranks: $(sort -k4 -n "$OUT" | tail -1 | awk '{print $4}') ms the slowest node"
