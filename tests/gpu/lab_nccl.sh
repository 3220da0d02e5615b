#!/bin/bash
# GPU machine: do the lab's faults break real NCCL the way the scenarios say? Two lab nodes, one
# H200 each, torch's NCCL all_reduce between them over the lab network (sockets only: IB, P2P,
# SHM and NVLS off, a different NCCL_HOSTID per node so NCCL treats them as two hosts).
#
#   healthy               NCCL left alone           -> small and 256 MB all_reduce ok (over eth0)
#   cloud-public-blocked  NCCL left alone           -> no all_reduce finishes (bootstrap on eth0)
#   cloud-public-blocked  NCCL_SOCKET_IFNAME=eth1   -> ok (the fix ncclcheck prints)
#   mtu-blackhole         NCCL_SOCKET_IFNAME=eth1   -> the TCPStore and NCCL's first bootstrap messages
#                         pass, then init stalls: NCCL's bootstrap all-gathers (topology, peer info)
#                         need full-size segments (seen on 2×H200 with NCCL 2.28.9, 2026-11-29)
#
# Also records what `ncclcheck node` predicts on a node next to what NCCL then logs.
# Output: $OUT/lab_nccl/summary.txt (one line per case, then PASS/FAIL) and every log.
. "$(dirname "$0")/env.sh"
set -u
. "$(dirname "$0")/../../scripts/lab_prefix.sh"
P=$(lab_prefix glb)	# this run's own lab: a second run on the machine never shares it
lab_sweep glb
D=$OUT/lab_nccl
mkdir -p "$D"
cleanup() { "$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1; }
trap cleanup EXIT
trap 'exit 130' INT TERM
PY=${PYTHON:-python3}

cat > "$D/allreduce.py" <<'EOF'
import datetime, os, sys, time
import torch, torch.distributed as dist
rank, world = int(os.environ["NODE_RANK"]), int(os.environ["NNODES"])
n, timeout = int(sys.argv[1]), int(sys.argv[2])
torch.cuda.set_device(0)   # CUDA_VISIBLE_DEVICES gives each node its own GPU
t0 = time.time()
dist.init_process_group("nccl", rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=timeout))
print("store ok %.1f s" % (time.time() - t0), flush=True)
x = torch.ones(4, device="cuda"); dist.all_reduce(x); torch.cuda.synchronize()
print("small ok %.1f %.1f s" % (x[0].item(), time.time() - t0), flush=True)
y = torch.ones(n, device="cuda"); dist.all_reduce(y); torch.cuda.synchronize()
print("large ok %.1f %.1f s" % (y[0].item(), time.time() - t0), flush=True)
dist.destroy_process_group()
EOF

# case NAME SCENARIO IFNAME(or -) EXPECT(ok|nosmall|nolarge)
results=""
run_case() {
	local name=$1 scenario=$2 ifname=$3 expect=$4 i pids="" got
	"$NCCLCHECK" lab up --nodes 2 --scenario "$scenario" --prefix $P --force > "$D/$name.up.txt" 2>&1 ||
		{ results="$results$name: lab up failed: $(tail -1 "$D/$name.up.txt")\n"; return; }
	for i in 0 1; do
		env CUDA_VISIBLE_DEVICES=$i NCCL_HOSTID=$P-n$i NCCL_IB_DISABLE=1 NCCL_P2P_DISABLE=1 \
			NCCL_SHM_DISABLE=1 NCCL_MNNVL_ENABLE=0 NCCL_NVLS_ENABLE=0 NCCL_DEBUG=INFO \
			NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP ${ifname:+NCCL_SOCKET_IFNAME=$ifname} \
			"$NCCLCHECK" lab exec $P-n$i -- timeout -k 5 100 "$PY" "$D/allreduce.py" $((64 << 20)) 60 \
			> "$D/$name.n$i.log" 2>&1 &
		pids="$pids $!"
	done
	wait $pids
	got=ok
	grep -q "^large ok 2.0" "$D/$name.n0.log" && grep -q "^large ok 2.0" "$D/$name.n1.log" || got=nolarge
	grep -q "^small ok 2.0" "$D/$name.n0.log" && grep -q "^small ok 2.0" "$D/$name.n1.log" || got=nosmall
	results="$results$name ($scenario, NCCL_SOCKET_IFNAME=${ifname:-unset}): expected $expect, got $got"
	results="$results; NCCL on n1: $(grep -m1 -oE 'Bootstrap ?: ?Using [^ ]+' "$D/$name.n1.log" || echo 'no bootstrap line')"
	[ "$got" = "$expect" ] && results="$results  PASS\n" || results="$results  FAIL\n"
}

# What ncclcheck predicts on n1 of the blocked lab (with torch: the NCCL copy it loads).
"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P --force > "$D/predict.up.txt" 2>&1
"$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" node > "$D/predict.node-n1.txt" 2>&1
echo "node exit $?" >> "$D/predict.node-n1.txt"
NCCL_SOCKET_IFNAME=eth1 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" node > "$D/predict.node-n1-fixed.txt" 2>&1
echo "node exit $?" >> "$D/predict.node-n1-fixed.txt"

run_case healthy healthy "" ok
run_case blocked cloud-public-blocked "" nosmall
run_case blocked-fixed cloud-public-blocked eth1 ok
run_case mtu mtu-blackhole eth1 nosmall

{
	printf '%b' "$results"
	echo "ncclcheck node on n1 (blocked): $(grep -m1 -E '^ERROR' "$D/predict.node-n1.txt" || echo 'no ERROR line')"
	echo "ncclcheck node on n1 (NCCL_SOCKET_IFNAME=eth1): $(tail -1 "$D/predict.node-n1-fixed.txt")"
	grep -q FAIL <<<"$(printf '%b' "$results")" && echo "lab_nccl: FAIL" || echo "lab_nccl: PASS"
} | tee "$D/summary.txt"
