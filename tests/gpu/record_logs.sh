#!/usr/bin/env bash
# Records real NCCL / torch logs for `ncclcheck explain` on the GPU machine: two network
# namespaces act as two nodes (eth0 "public" 203.0.113.0/24, eth1 "private" 10.0.0.0/24, one
# bridge per network in the root namespace), one rank per namespace, one GPU per rank, a plain
# torch all_reduce with env:// rendezvous on MASTER_ADDR=10.0.0.1 (eth1). Set-ups:
#   healthy       nothing wrong (NCCL picks eth0 and it works)
#   firewalled    TCP on eth0 dropped between the nodes: NCCL bootstraps on eth0 and hangs after
#                 Init START while the TCPStore on eth1 works
#   bad_ifname    NCCL_SOCKET_IFNAME=eth9, an interface that does not exist
#   nccl_net_ib   NCCL_NET=IB on a machine without InfiniBand
# Each rank's output goes to $OUT/logs/<setup>/rank<N>.log (8 files: the most $OUT brings back).
# The lead commits them under tests/fixtures/logs/real/ and tests/integration/explain_real.sh
# checks that explain names the right cause and fix for each.
# Usage (repo root, as root): bash tests/gpu/record_logs.sh [setup...]
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ -f "$REPO/tests/gpu/env.sh" ] && . "$REPO/tests/gpu/env.sh"
IP=${IP:-ip}
IPTABLES=${IPTABLES:-iptables}
OUT=${OUT:-/tmp/gpu-out}
PY=${PYTHON:-python3}
NS_A=ncE-a NS_B=ncE-b BR_PUB=brE-pub BR_PRIV=brE-priv
WORK=$(mktemp -d)
export NCCL_NVLS_ENABLE=0

[ "$(id -u)" = 0 ] || { echo "record_logs: needs root (network namespaces)" >&2; exit 1; }

cleanup() {
	"$IP" netns del "$NS_A" 2>/dev/null
	"$IP" netns del "$NS_B" 2>/dev/null
	"$IP" link del "$BR_PUB" 2>/dev/null
	"$IP" link del "$BR_PRIV" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
cleanup 2>/dev/null
WORK=$(mktemp -d)

net_up() {
	set -e
	"$IP" netns add "$NS_A"
	"$IP" netns add "$NS_B"
	for br in "$BR_PUB" "$BR_PRIV"; do
		"$IP" link add "$br" type bridge
		"$IP" link set "$br" up
	done
	local i=1
	for ns in "$NS_A" "$NS_B"; do
		# eth0 first, so that getifaddrs() lists it first and NCCL picks it by default
		"$IP" link add "vpE$i" type veth peer name eth0 netns "$ns"
		"$IP" link add "vqE$i" type veth peer name eth1 netns "$ns"
		"$IP" link set "vpE$i" master "$BR_PUB" up
		"$IP" link set "vqE$i" master "$BR_PRIV" up
		"$IP" -n "$ns" addr add "203.0.113.$i/24" dev eth0
		"$IP" -n "$ns" addr add "10.0.0.$i/24" dev eth1
		"$IP" -n "$ns" link set lo up
		"$IP" -n "$ns" link set eth0 up
		"$IP" -n "$ns" link set eth1 up
		i=$((i + 1))
	done
	set +e
}

cat > "$WORK/allreduce.py" <<'PY'
import datetime, os, sys, torch, torch.distributed as dist
rank = int(os.environ["RANK"])
torch.cuda.set_device(0)
print(f"rank {rank}: torch {torch.__version__} cuda {torch.version.cuda} nccl {torch.cuda.nccl.version()}", flush=True)
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=60),
                        device_id=torch.device("cuda", 0))
t = torch.ones(1, device="cuda") * (rank + 1)
dist.all_reduce(t)
torch.cuda.synchronize()
print(f"rank {rank}: all_reduce ok: {t.item()}", flush=True)
dist.destroy_process_group()
PY

run_setup() {
	local setup=$1 dir="$OUT/logs/$1" extra=() r ns
	mkdir -p "$dir"
	case $setup in
	healthy) ;;
	firewalled)
		for ns in "$NS_A" "$NS_B"; do
			"$IP" netns exec "$ns" "$IPTABLES" -A INPUT -i eth0 -p tcp -j DROP
		done ;;
	bad_ifname) extra=(NCCL_SOCKET_IFNAME=eth9) ;;
	nccl_net_ib) extra=(NCCL_NET=IB) ;;
	*) echo "record_logs: unknown set-up '$setup'" >&2; return 1 ;;
	esac
	for r in 0 1; do
		ns=$([ $r = 0 ] && echo "$NS_A" || echo "$NS_B")
		{
			echo "+ ip -o -4 addr show   # on node$r"
			"$IP" -n "$ns" -o -4 addr show
			echo "+ MASTER_ADDR=10.0.0.1 MASTER_PORT=29511 RANK=$r WORLD_SIZE=2 NCCL_DEBUG=INFO ${extra[*]} python3 allreduce.py"
		} > "$dir/rank$r.log"
		"$IP" netns exec "$ns" env MASTER_ADDR=10.0.0.1 MASTER_PORT=29511 RANK=$r WORLD_SIZE=2 \
			LOCAL_RANK=0 CUDA_VISIBLE_DEVICES=$r NCCL_HOSTID="ncclcheck-node$r" \
			NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP,ENV NCCL_NVLS_ENABLE=0 \
			"${extra[@]}" timeout -k 5 90 "$PY" "$WORK/allreduce.py" >> "$dir/rank$r.log" 2>&1 &
	done
	wait
	echo "+ exit (timeout 90 s means a hang)" | tee -a "$dir/rank0.log" >> "$dir/rank1.log"
	if [ "$setup" = firewalled ]; then
		for ns in "$NS_A" "$NS_B"; do "$IP" netns exec "$ns" "$IPTABLES" -F INPUT; done
	fi
	echo "== $setup: $(grep -c 'NCCL' "$dir/rank0.log") NCCL lines on rank 0, $(grep -c 'all_reduce ok' "$dir"/rank*.log | paste -sd' ')"
	if [ -x "${NCCLCHECK:-}" ]; then
		"$NCCLCHECK" explain --no-color "$dir" | grep -E '^(ERROR|warn |ok   )|fix:' | head -12
	fi
}

net_up || { echo "record_logs: could not build the namespaces" >&2; exit 1; }
setups=("$@")
[ ${#setups[@]} -gt 0 ] || setups=(healthy firewalled bad_ifname nccl_net_ib)
for s in "${setups[@]}"; do run_setup "$s"; done
