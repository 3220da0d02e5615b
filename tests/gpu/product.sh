#!/bin/bash
# GPU machine (issue #15): the whole product on real NCCL — two lab nodes (network namespaces with
# the cloud layout: public eth0, private eth1) share one H200, each with its own NCCL_HOSTID, so
# NCCL sees two hosts and runs NET/Socket between them (IB, P2P and SHM off, NVLS off).
#
#   bash tests/gpu/product.sh [A|B|C|D ...]     (default: all four; $OUT set)
#
#   A healthy               cluster and bench --backend nccl pass on both nodes; the seed's §4.1
#                           all-reduce, launched by torchrun with config's environment, passes
#   B cloud-public-blocked  node and cluster predict the failure; the job without ncclcheck's
#                           environment hangs at NCCL init (bounded); explain on its log names eth0
#                           and NCCL_SOCKET_IFNAME=eth1; with config's environment it passes; a
#                           Lightning DDP fit passes under `ncclcheck run` and hangs without it
#   C firewall-port-range   cluster maps the dropped sub-range; NCCL (on eth1) with the kernel's
#                           whole range vs with the range cluster recommends
#   D mtu-blackhole         cluster finds the black hole; NCCL on eth1 stalls as predicted
#
# Output: $OUT/product_summary.txt (one line per check, PASS/FAIL) and $OUT/product.tgz with every
# log, JSON document and recorded NCCL log (the fixtures of tests/fixtures/gpu/product/).
. "$(dirname "$0")/env.sh"
set -u
. "$(dirname "$0")/../../scripts/lab_prefix.sh"
P=$(lab_prefix gpd)	# this run's own lab: a second run on the machine never shares it
lab_sweep gpd
W=/tmp/product
rm -rf "$W"; mkdir -p "$W"
PY=${PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
CASES=${*:-A B C D}
SUM=$OUT/product_summary.txt
: > "$SUM"
T0=$(date +%s)
cleanup() { "$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1; }
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { echo "$*" | tee -a "$SUM"; }
check() { # NAME CONDITION-EXIT-CODE DETAIL
	if [ "$2" = 0 ]; then say "PASS $1${3:+: $3}"; else say "FAIL $1${3:+: $3}"; fi
}

# What makes two namespaces on one GPU two NCCL hosts; not advice for real nodes.
node_env() { # I
	echo "CUDA_VISIBLE_DEVICES=0 NCCL_HOSTID=$P-n$1 NCCL_IB_DISABLE=1 NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NVLS_ENABLE=0 NCCL_MNNVL_ENABLE=0"
}
lx() { # I CMD... : CMD on node I with the GPU-sharing variables
	local i=$1; shift
	# shellcheck disable=SC2046 # the variables are words on purpose
	env $(node_env "$i") "$NCCLCHECK" lab exec $P-n$i -- "$@"
}
up() { "$NCCLCHECK" lab up --nodes 2 --scenario "$1" --prefix $P --force > "$W/$1.up.txt" 2>&1; }

# The seed's §4.1 test (seed 1), as torchrun runs it on every node: its own mp.spawn version
# starts both ranks on one machine and never crosses the network.
cat > "$W/seed41.py" <<'EOF'
import datetime, os, torch, torch.distributed as dist
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=int(os.environ.get("JOB_TIMEOUT", "40"))))
rank = dist.get_rank()
torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
t = torch.ones(1).cuda()
dist.all_reduce(t, op=dist.ReduceOp.SUM)
print(f"Rank {rank} result: {t.item()}", flush=True)
dist.destroy_process_group()
EOF
cat > "$W/fit.py" <<'EOF'
import os, torch, lightning as L
from torch.utils.data import DataLoader, TensorDataset
class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.l = torch.nn.Linear(8, 1)
    def training_step(self, b, i):
        x, y = b; return torch.nn.functional.mse_loss(self.l(x), y)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)
ds = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
t = L.Trainer(accelerator="gpu", devices=1, num_nodes=2, strategy="ddp", max_steps=4,
              enable_progress_bar=False, logger=False, enable_checkpointing=False)
t.fit(M(), DataLoader(ds, batch_size=8))
print(f"fit done on node {os.environ.get('NODE_RANK')} global_rank {t.global_rank}", flush=True)
EOF

# torchrun on both nodes at once; ENVFILE (or "") is sourced first; returns 0 when both print 2.0
job() { # NAME ENVFILE TIMEOUT
	local name=$1 envf=$2 to=$3 i pids=""
	for i in 0 1; do
		lx $i sh -c "${envf:+set -a; . $envf; set +a; }NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP JOB_TIMEOUT=$to \
			timeout -k 5 $to $PY -m torch.distributed.run --nnodes 2 --node_rank $i \
			--nproc_per_node 1 --master_addr \$MASTER_ADDR --master_port \$MASTER_PORT $W/seed41.py" \
			> "$W/$name.n$i.log" 2>&1 &
		pids="$pids $!"
	done
	wait $pids
	grep -q "result: 2.0" "$W/$name.n0.log" && grep -q "result: 2.0" "$W/$name.n1.log"
}

# ncclcheck cluster on both nodes at once; the JSON of each in W/NAME.nI.json, exit codes in rc.nI
cluster() { # NAME [ARGS...]
	local name=$1 i pids=""; shift
	for i in 0 1; do
		( lx $i "$NCCLCHECK" cluster --timeout 30 --json "$@" > "$W/$name.n$i.json" 2> "$W/$name.n$i.err"
		  echo $? > "$W/$name.rc.n$i" ) &
		pids="$pids $!"
	done
	wait $pids
}
first_error() { # JSON: the first error finding's id and title
	"$PY" -c 'import json,sys
d=json.load(open(sys.argv[1]))
e=[f for f in d.get("findings",[]) if f["severity"]=="error"]
print(e[0]["id"]+": "+e[0]["title"] if e else "no error")' "$1" 2>/dev/null
}
has_setting() { # JSON NAME VALUE
	"$PY" -c 'import json,sys
d=json.load(open(sys.argv[1]))
ok=any(s["name"]==sys.argv[2] and s.get("value")==sys.argv[3] for f in d.get("findings",[]) for s in f.get("settings",[]))
sys.exit(0 if ok else 1)' "$@"
}

case_A() {
	up healthy || { say "FAIL A: lab up"; return; }
	cluster A.cluster
	check "A cluster on healthy exits 0 on both nodes" $(( $(cat $W/A.cluster.rc.n0) + $(cat $W/A.cluster.rc.n1) )) \
		"$(cat $W/A.cluster.rc.n0)/$(cat $W/A.cluster.rc.n1)"
	local pids="" i
	for i in 0 1; do
		lx $i "$NCCLCHECK" bench allreduce --backend nccl -b 1M -e 64M -f 4 -n 10 > "$W/A.bench.n$i.txt" 2>&1 &
		pids="$pids $!"
	done
	wait $pids; local rc=$?
	check "A bench allreduce --backend nccl" $rc "$(grep -m1 'Avg bus bandwidth' $W/A.bench.n0.txt)"
	lx 0 "$NCCLCHECK" config --from "$W/A.cluster.n0.json" --out "$W/A.config" > "$W/A.config.txt" 2>&1
	check "A config --out" $? "$(ls $W/A.config 2>/dev/null | tr '\n' ' ')"
	job A.seed41 "$W/A.config/ncclcheck.env" 60
	check "A seed §4.1 all-reduce via torchrun with config's environment" $? "$(grep -h 'result' $W/A.seed41.n*.log | tr '\n' ' ')"
}

case_B() {
	up cloud-public-blocked || { say "FAIL B: lab up"; return; }
	lx 1 "$NCCLCHECK" node --no-python > "$W/B.node.n1.txt" 2>&1
	local rc=$?
	grep -q "NCCL_SOCKET_IFNAME=eth1" "$W/B.node.n1.txt"
	check "B node predicts it (exit 1, NCCL_SOCKET_IFNAME=eth1)" $(( (rc != 1) + $? )) "exit $rc"
	cluster B.cluster
	rc=$(( $(cat $W/B.cluster.rc.n0) == 1 && $(cat $W/B.cluster.rc.n1) == 1 ? 0 : 1 ))
	check "B cluster exits 1 on both nodes" $rc "$(first_error $W/B.cluster.n0.json)"
	has_setting "$W/B.cluster.n0.json" NCCL_SOCKET_IFNAME eth1
	check "B cluster's settings[] has NCCL_SOCKET_IFNAME=eth1" $?
	first_error "$W/B.cluster.n0.json" | grep -q eth0
	check "B cluster's first error names eth0" $?

	job B.plain "" 45
	rc=$?
	check "B the job without ncclcheck's environment does not finish (bounded 45 s)" $(( rc == 0 )) \
		"$(grep -m1 -ohE 'Bootstrap ?: ?Using [^ ]+' $W/B.plain.n1.log)"
	"$NCCLCHECK" explain --no-color "$W/B.plain.n0.log" "$W/B.plain.n1.log" > "$W/B.explain.txt" 2>&1
	grep -q "NCCL_SOCKET_IFNAME=eth1" "$W/B.explain.txt" && grep -q eth0 "$W/B.explain.txt"
	check "B explain on the hung job's logs names eth0 and NCCL_SOCKET_IFNAME=eth1" $? \
		"$(grep -m1 -E '^ERROR' $W/B.explain.txt)"

	lx 0 "$NCCLCHECK" config --from "$W/B.cluster.n0.json" --out "$W/B.config" > "$W/B.config.txt" 2>&1
	job B.fixed "$W/B.config/ncclcheck.env" 60
	check "B the same job with config's environment passes" $? "$(grep -h 'result' $W/B.fixed.n*.log | tr '\n' ' ')"

	local pids="" i
	for i in 0 1; do
		lx $i sh -c "timeout -k 5 120 $NCCLCHECK run --no-python -- $PY $W/fit.py" > "$W/B.fit-run.n$i.log" 2>&1 &
		pids="$pids $!"
	done
	wait $pids
	grep -q "fit done" "$W/B.fit-run.n0.log" && grep -q "fit done" "$W/B.fit-run.n1.log"
	check "B Lightning ddp fit under 'ncclcheck run' passes" $?
	pids=""
	for i in 0 1; do
		lx $i sh -c "TORCH_NCCL_ASYNC_ERROR_HANDLING=1 timeout -k 5 50 $PY $W/fit.py" > "$W/B.fit-plain.n$i.log" 2>&1 &
		pids="$pids $!"
	done
	wait $pids
	grep -q "fit done" "$W/B.fit-plain.n0.log" && grep -q "fit done" "$W/B.fit-plain.n1.log"
	check "B Lightning ddp fit without the fix does not finish (bounded 50 s)" $(( $? == 0 ))
}

case_C() {
	up firewall-port-range || { say "FAIL C: lab up"; return; }
	cluster C.cluster
	"$PY" -c 'import json,sys
d=json.load(open(sys.argv[1]))
t=[f["title"] for f in d["findings"] if "ports" in f["id"] and f["severity"]=="error"]
print(t[0] if t else ""); sys.exit(0 if t and "32768-49151" in t[0] else 1)' "$W/C.cluster.n0.json" > "$W/C.ports.txt"
	check "C cluster maps 32768-49151 as blocked" $? "$(cat $W/C.ports.txt)"
	echo "NCCL_SOCKET_IFNAME=eth1 GLOO_SOCKET_IFNAME=eth1; export NCCL_SOCKET_IFNAME GLOO_SOCKET_IFNAME" > "$W/C.eth1.env"
	job C.range "$W/C.eth1.env" 45
	local rc=$?
	say "INFO C NCCL on eth1 with the whole 32768-60999 range: $([ $rc = 0 ] && echo finished || echo did not finish)"
	local i
	for i in 0 1; do lx $i sysctl -qw net.ipv4.ip_local_port_range="49152 60999"; done
	job C.narrowed "$W/C.eth1.env" 60
	check "C NCCL passes once ip_local_port_range is the open part (cluster's sysctl setting)" $?
}

case_D() {
	up mtu-blackhole || { say "FAIL D: lab up"; return; }
	cluster D.cluster
	grep -q "mtu.blackhole" "$W/D.cluster.n0.json"
	check "D cluster finds the MTU black hole" $? "$(first_error $W/D.cluster.n0.json)"
	echo "NCCL_SOCKET_IFNAME=eth1; export NCCL_SOCKET_IFNAME" > "$W/D.eth1.env"
	job D.stall "$W/D.eth1.env" 45
	check "D NCCL on eth1 does not finish, as predicted (bounded 45 s)" $(( $? == 0 ))
}

for c in $CASES; do
	"case_$c"
	cleanup
done
say "total $(( $(date +%s) - T0 )) s"
grep -q '^FAIL' "$SUM" && say "product: FAIL" || say "product: PASS"
tar czf "$OUT/product.tgz" -C /tmp product 2>/dev/null
