#!/bin/bash
# bench --backend tcp against the link and against torch's gloo, in one run, on a lab:
#   64 MB float32 all-reduce busbw vs iperf3 goodput on the same tbf cap (2 and 4 nodes at
#   1 Gbit/s, 2 nodes at 10 Gbit/s), vs gloo's all_reduce (Debian python3-torch) capped and
#   uncapped, and the peak RSS of a 256 MB all-reduce over the buffer size.
# Targets (issue #10): >= 0.97x iperf3, >= 1.0x gloo capped, >= 1.5x gloo uncapped, RSS <= 2.5x.
# Usage (root): bench/coll_tcp.sh [path/to/ncclcheck]   (a release build is best)
# Env: ITERS, REPS (alternating runs per figure, medians; default 3), STRIPES, PREFIX (lab
#      prefix), SETUPS (e.g. "none 4;10gbit 2": only those rows), RSS=0 (skip the RSS run),
#      PY (a python with torch; default Debian's), VERBOSE=1 (every run's figure)
set -u
NC=${1:-$(dirname "$0")/../build/release/ncclcheck}
NC=$(readlink -f "$NC")
PY=${PY:-/usr/bin/python3}
. "$(dirname "$0")/../scripts/lab_prefix.sh"
export NCCLCHECK=$NC	# lab_sweep removes a killed run's lab with it
P=${PREFIX:-$(lab_prefix co)}	# this run's own lab unless PREFIX says
lab_sweep co
ITERS=${ITERS:-5}
REPS=${REPS:-3}
STRIPES=${STRIPES:-4}
[ "$(id -u)" = 0 ] || { echo "needs root (lab namespaces)"; exit 77; }
$PY -c 'import torch.distributed' 2>/dev/null || { echo "needs python3-torch"; exit 77; }
command -v iperf3 >/dev/null || { echo "needs iperf3"; exit 77; }
T=$(mktemp -d)
cleanup() { "$NC" lab down --prefix $P >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT
"$NC" lab up --nodes 4 --prefix $P --force >/dev/null || exit 3
lx() { local n=$1; shift; "$NC" lab exec "$P-$n" -- "$@"; }
addr() { echo "10.10.0.$((10 + $1))"; }

cap() { # RATE|none: every node's eth1 egress
	for i in 0 1 2 3; do
		lx n$i tc qdisc del dev eth1 root 2>/dev/null
		[ "$1" = none ] || lx n$i tc qdisc add dev eth1 root tbf rate "$1" burst 4mb latency 200ms
	done
}

# GB/s of TCP goodput n1 -> n0, one stream, one direction: what the cap lets one flow carry.
iperf() {
	lx n0 iperf3 -s -1 -p 5299 >/dev/null 2>&1 &
	sleep 0.5
	lx n1 iperf3 -c "$(addr 0)" -p 5299 -t 4 -J 2>/dev/null |
		$PY -c 'import json,sys; print("%.4f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 8e9))'
	wait
}

# GB/s per link with iperf3 (as many streams as stripes) on every ring link at once (node i ->
# i+1; on 2 nodes both directions of the one link): the traffic a ring all-reduce puts on the
# nodes, with no reduction and no schedule. Every egress then carries data and the ACKs of what
# it receives, and on a CPU-bound lab the kernel's TCP work for all of it: the ceiling of any
# TCP ring.
ring() { # N
	local n=$1 i
	rm -f "$T"/ring?
	for i in $(seq 0 $((n - 1))); do lx n$i iperf3 -s -1 -p 5300 >/dev/null 2>&1 & done
	sleep 0.5
	for i in $(seq 0 $((n - 1))); do
		lx n$i iperf3 -c "$(addr $(((i + 1) % n)))" -p 5300 -t 4 -P "$STRIPES" -J >"$T/ring$i" 2>/dev/null &
	done
	wait
	$PY -c 'import json,sys
v = [json.load(open(f))["end"]["sum_received"]["bits_per_second"] / 8e9 for f in sys.argv[1:]]
print("%.4f" % (sum(v) / len(v)))' "$T"/ring? 2>/dev/null || echo ERR
}

ours() { # N BYTES [extra]: busbw (GB/s), mean of out-of-place and in-place, rank 0
	local n=$1 bytes=$2 i; shift 2
	for i in $(seq $((n - 1)) -1 1); do
		lx n$i env NNODES=$n WORLD_SIZE=$n "$NC" bench allreduce -b "$bytes" -e "$bytes" \
			-n "$ITERS" -w 1 --stripes "$STRIPES" "$@" >/dev/null 2>&1 &
	done
	lx n0 env NNODES=$n WORLD_SIZE=$n "$NC" bench allreduce -b "$bytes" -e "$bytes" -n "$ITERS" \
		-w 1 --stripes "$STRIPES" --json "$@" >"$T/ours" 2>&1
	wait
	$PY -c 'import json,sys
d = json.load(open(sys.argv[1]))["bench"]
assert d["out_of_bounds"]["count"] == 0
r = d["results"][-1]
print("%.4f" % ((r["out_of_place"]["bus_bw"] + r["in_place"]["bus_bw"]) / 2))' "$T/ours" 2>/dev/null || echo ERR
}

cat >"$T/gloo.py" <<'PYEOF'
import os, sys, time, torch, torch.distributed as dist
n, r, nbytes, iters = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
dist.init_process_group("gloo", init_method="tcp://%s:29611" % sys.argv[5], rank=r, world_size=n)
x = torch.ones(nbytes // 4, dtype=torch.float32)
for _ in range(2): dist.all_reduce(x)
dist.barrier(); t = time.perf_counter()
for _ in range(iters): dist.all_reduce(x)
dt = (time.perf_counter() - t) / iters
if r == 0: print("%.4f" % (2 * (n - 1) / n * nbytes / dt / 1e9))
dist.destroy_process_group()
PYEOF

gloo() { # N BYTES: busbw GB/s
	local n=$1 bytes=$2 i
	for i in $(seq $((n - 1)) -1 1); do
		lx n$i env GLOO_SOCKET_IFNAME=eth1 $PY "$T/gloo.py" $n $i $bytes $ITERS "$(addr 0)" >/dev/null 2>&1 &
	done
	lx n0 env GLOO_SOCKET_IFNAME=eth1 $PY "$T/gloo.py" $n 0 $bytes $ITERS "$(addr 0)" 2>/dev/null | tail -1
	wait
}

ratio() { $PY -c "import sys; a,b=sys.argv[1:3]; print('%.2fx' % (float(a)/float(b)) if a not in ('','ERR') and b not in ('','0','ERR') and float(b) > 0 else 'n/a')" "$1" "$2"; }

median() { printf '%s\n' "$@" | grep -v ERR | sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "ERR" }'; }

M64=$((64 << 20))
echo "# bench --backend tcp, 64 MB float32 all-reduce, $ITERS iterations, $STRIPES stripes, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# every figure is the median of $REPS alternating runs (ours, iperf3, ring, gloo, ...)"
echo "# ours: back-to-back iterations (-c 0) like iperf3 and gloo; checked: the default (every"
echo "# iteration checked; the checks' idle gaps refill tbf's 4 MB bucket, which flatters it)"
echo "# iperf3: one stream, one direction (the issue's yardstick); ring: iperf3 on every ring link at"
echo "# once, per link (on 2 nodes: both directions), the ceiling of any TCP ring on this lab"
printf "%-20s %7s %7s %7s %7s %7s %10s %9s %9s %9s\n" "setup" "ours" "checked" "iperf3" "ring" "gloo" \
	"ours/iperf" "ours/ring" "ours/gloo" "gloo/ring"
IFS=';' read -r -a ROWS <<<"${SETUPS:-1gbit 2;1gbit 4;10gbit 2;none 2;none 4}"
for setup in "${ROWS[@]}"; do
	set -- $setup
	cap "$1"
	O=() I=() R=() G=()
	for rep in $(seq "$REPS"); do
		O+=("$(ours "$2" $M64 -c 0)")
		[ "$1" = none ] || I+=("$(iperf)")
		R+=("$(ring "$2")")
		G+=("$(gloo "$2" $M64)")
	done
	k=$(ours "$2" $M64)
	o=$(median "${O[@]}") r=$(median "${R[@]}") g=$(median "${G[@]}")
	i=$([ "$1" = none ] && echo - || median "${I[@]}")
	[ "${VERBOSE:-0}" = 1 ] && echo "# $2 nodes, cap $1: ours ${O[*]} | iperf3 ${I[*]:-} | ring ${R[*]} | gloo ${G[*]}"
	printf "%-20s %7s %7s %7s %7s %7s %10s %9s %9s %9s\n" "$2 nodes, cap $1" "$o" "$k" "$i" "$r" "$g" \
		"$([ "$i" = - ] && echo - || ratio "$o" "$i")" "$(ratio "$o" "$r")" "$(ratio "$o" "$g")" \
		"$(ratio "$g" "$r")"
done
cap none
[ "${RSS:-1}" = 0 ] && exit 0
# peak RSS of a 256 MB all-reduce on rank 0 (out of place: send + receive buffers)
lx n1 env NNODES=2 WORLD_SIZE=2 "$NC" bench allreduce -b 256M -e 256M -n 2 -w 0 >/dev/null 2>&1 &
lx n0 env NNODES=2 WORLD_SIZE=2 /usr/bin/time -v "$NC" bench allreduce -b 256M -e 256M -n 2 -w 0 >/dev/null 2>"$T/time"
wait
kb=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$T/time")
echo "# peak RSS, 256 MB all-reduce, rank 0: $((kb / 1024)) MiB = $(ratio "$kb" $((256 * 1024))) the buffer (target <= 2.5x)"
