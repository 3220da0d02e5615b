#!/bin/bash
# GPU machine: `config` and `run` with real GPUs and real NCCL.
#   1. On the host: `ncclcheck config --lightning --sbatch` must write devices=<GPUs seen> and
#      precision="bf16-mixed" (H200: compute capability 9.0), and --ntasks-per-node = devices.
#   2. In the lab's cloud-public-blocked scenario, one H200 per node, NCCL over sockets:
#      `ncclcheck run -- python3 allreduce.py` on both nodes -> the NCCL all_reduce passes
#      (run adds NCCL_SOCKET_IFNAME=eth1), while the same job without run does not finish.
#   3. `ncclcheck config --env` inside the blocked lab exports NCCL_SOCKET_IFNAME=eth1.
# Output: $OUT/config_run/summary.txt (one line per check, then PASS/FAIL) and every log.
. "$(dirname "$0")/env.sh"
set -u
. "$(dirname "$0")/../../scripts/lab_prefix.sh"
P=$(lab_prefix gcf)	# this run's own lab: a second run on the machine never shares it
lab_sweep gcf
D=$OUT/config_run
mkdir -p "$D"
cleanup() { "$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1; }
trap cleanup EXIT
trap 'exit 130' INT TERM
PY=${PYTHON:-python3}
results=""
res() { results="$results$1: $2\n"; }

# 1. the host's own verdict
"$NCCLCHECK" config --lightning --sbatch --nodes 2 > "$D/host-config.txt" 2>&1
echo "exit $?" >> "$D/host-config.txt"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if grep -q "devices=$ngpu," "$D/host-config.txt" && grep -q 'precision="bf16-mixed"' "$D/host-config.txt" &&
	grep -q "^#SBATCH --ntasks-per-node=$ngpu$" "$D/host-config.txt"; then
	res "host config: devices=$ngpu, bf16-mixed, --ntasks-per-node=$ngpu" PASS
else
	res "host config: devices/precision/ntasks (want $ngpu, bf16-mixed)" FAIL
fi

cat > "$D/allreduce.py" <<'EOF'
import datetime, os, sys
import torch, torch.distributed as dist
rank, world = int(os.environ["NODE_RANK"]), int(os.environ["NNODES"])
torch.cuda.set_device(0)   # CUDA_VISIBLE_DEVICES gives each node its own GPU
dist.init_process_group("nccl", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=60))
x = torch.full((1 << 20,), float(rank + 1), device="cuda"); dist.all_reduce(x); torch.cuda.synchronize()
print("allreduce %s %s" % (x[0].item(), os.environ.get("NCCL_SOCKET_IFNAME", "-")), flush=True)
dist.destroy_process_group()
EOF

# pair NAME via(run|bare): the job on both lab nodes at once
pair() {
	local name=$1 via=$2 i pids=""
	for i in 0 1; do
		local pre=()
		[ "$via" = run ] && pre=("$NCCLCHECK" run --no-python --)
		env CUDA_VISIBLE_DEVICES=$i NCCL_HOSTID=$P-n$i NCCL_IB_DISABLE=1 NCCL_P2P_DISABLE=1 \
			NCCL_SHM_DISABLE=1 NCCL_MNNVL_ENABLE=0 NCCL_NVLS_ENABLE=0 \
			"$NCCLCHECK" lab exec $P-n$i -- timeout -k 5 100 "${pre[@]}" "$PY" "$D/allreduce.py" \
			> "$D/$name.n$i.log" 2>&1 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
	grep -q "^allreduce 3.0 " "$D/$name.n0.log" && grep -q "^allreduce 3.0 " "$D/$name.n1.log"
}

"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P --force > "$D/up.txt" 2>&1
"$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" config --env > "$D/lab-config.txt" 2>&1
if grep -q '^export NCCL_SOCKET_IFNAME=eth1$' "$D/lab-config.txt"; then ok=PASS; else ok=FAIL; fi
res "lab config --env: NCCL_SOCKET_IFNAME=eth1" $ok
if pair through-run run; then ok=PASS; else ok=FAIL; fi
res "NCCL all_reduce through ncclcheck run (blocked lab)" $ok
if pair bare bare; then ok=FAIL; else ok=PASS; fi
res "the same job without run does not finish" $ok

{
	printf '%b' "$results"
	grep -q FAIL <<<"$(printf '%b' "$results")" && echo "config_run: FAIL" || echo "config_run: PASS"
} | tee "$D/summary.txt"
