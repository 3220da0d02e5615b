#!/bin/bash
# `ncclcheck bench p2p` bandwidth against iperf3 with the same number of streams, on a lab veth
# pair (healthy scenario, n1 -> n0 over eth1), in one run: RUNS interleaved runs per stream
# count, the median of each, and the ratio. Target (issue #10): ratio >= 0.95 at every count.
#   sudo bench/link_p2p.sh        STREAMS="1 2 4" DURATION=3 RUNS=3 NCCLCHECK=build/release/ncclcheck
# CAP=10gbit adds a tbf cap on both nodes' eth1 (a "real" 10 GbE link instead of a CPU-bound one).
set -euo pipefail
cd "$(dirname "$0")/.."
NCCLCHECK=${NCCLCHECK:-build/release/ncclcheck}
STREAMS=${STREAMS:-"1 2 4"}
DURATION=${DURATION:-3}
RUNS=${RUNS:-3}
CAP=${CAP:-}
. scripts/lab_prefix.sh
P=$(lab_prefix lp)	# this run's own lab: a second run or a test suite never shares it
lab_sweep lp
[ "$(id -u)" = 0 ] || { echo "bench: needs root (lab namespaces)" >&2; exit 2; }
[ -x "$NCCLCHECK" ] || { echo "bench: build first: cmake --preset release && cmake --build --preset release (or set NCCLCHECK)" >&2; exit 2; }
command -v iperf3 >/dev/null || { echo "bench: iperf3 missing (scripts/deps.sh installs it)" >&2; exit 2; }
NCCLCHECK=$(realpath "$NCCLCHECK")
tmp=$(mktemp -d)
cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	[ -n "${ipid:-}" ] && kill "$ipid" 2>/dev/null
	"$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
lx() { local n=$1; shift; "$NCCLCHECK" lab exec "$P-$n" -- "$@"; }

"$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1 || true
"$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $P >/dev/null
if [ -n "$CAP" ]; then
	for n in n0 n1; do lx $n tc qdisc add dev eth1 root tbf rate "$CAP" burst 4mb latency 200ms; done
fi
lx n0 timeout $((RUNS * 40 * 4 + 60)) iperf3 -s -B 10.10.0.10 -p 5201 >/dev/null 2>&1 & ipid=$!
lx n0 timeout $((RUNS * 40 * 4 + 60)) "$NCCLCHECK" bench p2p --serve 10.10.0.10:29500 --idle 60s \
	>/dev/null 2>&1 & spid=$!
sleep 1

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$2"; }

printf '# link_p2p: n1 -> n0 over eth1 (veth%s), %s s per run, median of %s runs\n' \
	"${CAP:+, tbf $CAP}" "$DURATION" "$RUNS"
printf '%8s %14s %14s %8s\n' streams "iperf3 Gb/s" "ncclcheck Gb/s" ratio
worst=
for s in $STREAMS; do
	ip_runs= nc_runs=
	for _ in $(seq "$RUNS"); do
		lx n1 timeout $((DURATION + 20)) iperf3 -c 10.10.0.10 -p 5201 -P "$s" -t "$DURATION" -J \
			>"$tmp/i.json" 2>/dev/null || { echo "bench: iperf3 failed" >&2; exit 3; }
		ip_runs="$ip_runs $(py "d['end']['sum_received']['bits_per_second'] / 1e9" "$tmp/i.json")"
		lx n1 timeout $((DURATION + 20)) "$NCCLCHECK" bench p2p --connect 10.10.0.10:29500 \
			--tests bw --streams "$s" --duration "${DURATION}s" --json >"$tmp/n.json" ||
			[ $? = 1 ] || { echo "bench: ncclcheck failed" >&2; exit 3; }
		nc_runs="$nc_runs $(py "d['results'][0]['total_gbps']" "$tmp/n.json")"
	done
	i=$(echo "$ip_runs" | median) n=$(echo "$nc_runs" | median)
	r=$(python3 -c "print(f'{$n / $i:.3f}')")
	printf '%8s %14.2f %14.2f %8s   (iperf3:%s; ncclcheck:%s)\n' "$s" "$i" "$n" "$r" "$ip_runs" "$nc_runs"
	worst=$(python3 -c "print(min(float('$r'), float('${worst:-9}')))")
done
echo "# worst ratio $worst (target >= 0.95)"
