#!/bin/bash
# bench --backend tcp against the link and against torch's gloo, in one run, on a lab:
#   64 MB float32 all-reduce busbw vs iperf3 goodput on the same tbf cap (2 and 4 nodes at
#   1 Gbit/s, 2 nodes at 10 Gbit/s), vs gloo's all_reduce (Debian python3-torch) capped and
#   uncapped, and the peak RSS of a 256 MB all-reduce over the buffer size.
# Targets (issue #10): >= 0.97x iperf3, >= 1.0x gloo capped, >= 1.5x gloo uncapped, RSS <= 2.5x.
# Usage (root): bench/coll_tcp.sh [path/to/ncclcheck]   (a release build is best)
# Env: ITERS, STRIPES, PREFIX (lab prefix), SETUPS (e.g. "none 4;10gbit 2": only those rows),
#      RSS=0 (skip the RSS run)
set -u
NC=${1:-$(dirname "$0")/../build/release/ncclcheck}
NC=$(readlink -f "$NC")
PY=/usr/bin/python3
P=${PREFIX:-nclco2}
ITERS=${ITERS:-5}
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

# GB/s of TCP goodput n1 -> n0, one stream; with --bidir both ways at once (the mean of the
# two directions), which is what a ring puts on each link: every node's egress carries its own
# data and the ACKs of what it receives, and on 2 nodes the one link carries data both ways.
iperf() {
	lx n0 iperf3 -s -1 -p 5299 >/dev/null 2>&1 &
	sleep 0.5
	lx n1 iperf3 -c "$(addr 0)" -p 5299 -t 4 "$@" -J 2>/dev/null |
		$PY -c 'import json,sys
e = json.load(sys.stdin)["end"]; v = [e[k]["bits_per_second"] for k in ("sum_received", "sum_received_bidir_reverse") if k in e]
print("%.4f" % (sum(v) / len(v) / 8e9))'
	wait
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

M64=$((64 << 20))
echo "# bench --backend tcp, 64 MB float32 all-reduce, $ITERS iterations, $STRIPES stripes, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# 'ours' times back-to-back iterations (-c 0) like iperf3 and gloo; 'checked' is the default"
echo "# (every iteration checked; the checks' idle gaps refill tbf's 4 MB bucket, which flatters it)"
echo "# iperf3: one direction, one stream; bidir: both directions at once (per direction), the"
echo "# traffic an all-reduce puts on a link. ours/iperf uses one-way, ours/bidir the bidir figure"
printf "%-22s %8s %8s %8s %8s %8s %10s %10s %10s\n" "setup" "ours" "checked" "iperf3" "bidir" "gloo" \
	"ours/iperf" "ours/bidir" "ours/gloo"
IFS=';' read -r -a ROWS <<<"${SETUPS:-1gbit 2;1gbit 4;10gbit 2;none 2;none 4}"
for setup in "${ROWS[@]}"; do
	set -- $setup
	cap "$1"
	i=$([ "$1" = none ] && echo "-" || iperf)
	bi=$([ "$1" = none ] && echo "-" || iperf --bidir)
	o=$(ours "$2" $M64 -c 0)
	k=$(ours "$2" $M64)
	g=$(gloo "$2" $M64)
	printf "%-22s %8s %8s %8s %8s %8s %10s %10s %10s\n" "$2 nodes, cap $1" "$o" "$k" "$i" "$bi" "$g" \
		"$([ "$i" = - ] && echo - || ratio "$o" "$i")" "$([ "$bi" = - ] && echo - || ratio "$o" "$bi")" \
		"$(ratio "$o" "$g")"
done
cap none
[ "${RSS:-1}" = 0 ] && exit 0
# peak RSS of a 256 MB all-reduce on rank 0 (out of place: send + receive buffers)
lx n1 env NNODES=2 WORLD_SIZE=2 "$NC" bench allreduce -b 256M -e 256M -n 2 -w 0 >/dev/null 2>&1 &
lx n0 env NNODES=2 WORLD_SIZE=2 /usr/bin/time -v "$NC" bench allreduce -b 256M -e 256M -n 2 -w 0 >/dev/null 2>"$T/time"
wait
kb=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$T/time")
echo "# peak RSS, 256 MB all-reduce, rank 0: $((kb / 1024)) MiB = $(ratio "$kb" $((256 * 1024))) the buffer (target <= 2.5x)"
