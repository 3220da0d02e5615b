#!/bin/bash
# GPU machine: does `ncclcheck attach` name the culprit of a real hung torch 2.11 / NCCL 2.28.9
# job within 15 s, and record what RAS and the flight recorder really say (the fixtures of the
# CPU suite)? Two lab nodes (network namespaces, eth1 10.10.0.10/.11; ATTACH_NODES=4 for four)
# share the one GPU, one rank each, NCCL_HOSTID per node, sockets only. Every rank runs 5 warm-up all_reduces, then
# waits for "go" and runs all_reduce #6. Cases (the culprit is always rank 1, on node n1):
#   sleep   rank 1 sleeps in a function "load_batch" instead of entering all_reduce #6 (the
#           verdict must name load_batch with job.py:line, read from the rank's memory)
#   spin    rank 1 spins in a loop in "spin_loop" instead (the verdict: running, in spin_loop)
#   stop    rank 1 is SIGSTOPped before #6
#   kill    rank 1 is SIGKILLed before #6
#   net     all of n1's traffic on eth0 and eth1 is dropped (iptables in n1) before #6; every rank
#           enters it
# and across nodes (issue #27: `attach --all-nodes` started on every node at once, each reading
# only its own node's ranks, every node printing the one verdict and every rank's stack grouped;
# each node's wall time from the common start is asserted <= 15 s):
#   xsleep  rank 0 (on n0, the rendezvous master) sleeps in load_batch before all_reduce #6
#   xspin   rank 1 (on n1, a worker) spins in spin_loop
# so that on either node the culprit's code was read on the other one in one of the two cases.
# TORCH_NCCL_ASYNC_ERROR_HANDLING=0: when rank 1 is killed, rank 0's NCCL sees the closed socket
# as an asynchronous error; with torch's default (3, tear down) rank 0 would exit too and there
# would be no hang left to attach to. With 0 it stays, hung, as jobs with other settings do.
# For each: after "go" and 3 s, every rank is asked for a flight-recorder dump (its
# TORCH_NCCL_DEBUG_INFO_PIPE_FILE FIFO, and a Python thread calling _dump_nccl_trace() as a second
# source), then `ncclcheck attach --fr DIR --record ras.json` runs on n0 (timed), then with
# --fr-live (the dumps asked live from each rank's WorkerServer, torch.distributed.elastic's
# worker_main on TORCH_WORKER_SERVER_SOCKET; timed), then with --json; in the stop case also on
# n1, where the stopped process itself holds the RAS socket (a frozen server). n0 and n1 share
# one PID namespace, so --local-host names both.
#
# Usage (repo root, as root, $OUT set): [ATTACH_NODES=4] bash tests/gpu/attach_record.sh [case...]
#   (default: sleep spin stop kill net; the across cases: ... attach_record.sh xsleep xspin)
# Output (few files: a device call brings back at most 8):
#   $OUT/attach_summary.txt   one line per case: expected, verdict, seconds, PASS/FAIL
#   $OUT/attach_record.tgz    attach_record/<case>/{ras.json, attach.txt, attach.json, fr/,
#                             frpy/, rank0.log, rank1.log, expect_replay.txt, ...}
# To make fixtures of them (CPU machine, repo root):
#   tar xzf attach_record.tgz -C /tmp && bash tests/fixtures/attach/import_recorded.sh /tmp/attach_record
# then tests/integration/attach_recorded.sh replays every case.
. "$(dirname "$0")/env.sh"
set -u
[ "$(id -u)" = 0 ] || { echo "attach_record: needs root (network namespaces)" >&2; exit 1; }
. "$(dirname "$0")/../../scripts/lab_prefix.sh"
P=$(lab_prefix gat)	# this run's own lab: a second run on the machine never shares it
lab_sweep gat
N=${ATTACH_NODES:-2}
case $N in 2|3|4) ;; *) echo "attach_record: ATTACH_NODES must be 2-4" >&2; exit 2 ;; esac
LOCALS=()
for ((i = 0; i < N; i++)); do LOCALS+=(--local-host "10.10.0.$((10 + i))"); done
W=/tmp/attach_record
rm -rf "$W"; mkdir -p "$W"
PY=${PYTHON:-}
[ -n "$PY" ] || { [ -x /opt/torch/.venv/bin/python3 ] && PY=/opt/torch/.venv/bin/python3 || PY=python3; }
T0=$(date +%s)
CASES=${*:-sleep spin stop kill net}
jobpids=()
cleanup() {
	for p in "${jobpids[@]}"; do kill -CONT "$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; done
	"$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cat > "$W/job.py" <<'PYEOF'
import datetime, os, sys, threading, time
import torch, torch.distributed as dist

rank, world = int(os.environ["NODE_RANK"]), int(os.environ["NNODES"])
mode, culprit, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
torch.cuda.set_device(0)          # every node shares the one GPU
try:                              # torch's per-rank WorkerServer on TORCH_WORKER_SERVER_SOCKET
    from torch.distributed.elastic.control_plane import worker_main
    ws = worker_main()
    ws.__enter__()
    print("worker server on %s" % os.environ.get("TORCH_WORKER_SERVER_SOCKET"), flush=True)
except Exception as e:
    print("no worker server: %r" % (e,), flush=True)
dist.init_process_group("nccl", rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=300))

def py_dumper():
    # second source of dumps: the same pickle torch writes, asked from Python
    while not os.path.exists(d + "/dumpnow"):
        time.sleep(0.1)
    try:
        blob = torch._C._distributed_c10d._dump_nccl_trace(True, True, False)
        with open("%s/frpy/nccl_trace_rank_%d" % (d, rank), "wb") as f:
            f.write(blob)
        print("py dump ok %d bytes" % len(blob), flush=True)
    except Exception as e:
        print("py dump failed: %r" % (e,), flush=True)

threading.Thread(target=py_dumper, daemon=True).start()
x = torch.ones(1 << 20, device="cuda")
for i in range(5):
    dist.all_reduce(x)
torch.cuda.synchronize()
print("warm-up ok %.1f" % x[0].item(), flush=True)
with open("%s/ready.%d" % (d, rank), "w") as f:
    f.write(str(os.getpid()))

def load_batch():
    time.sleep(600)

def spin_loop():
    n = 0
    while True:
        n += 1

while not os.path.exists(d + "/go"):
    time.sleep(0.05)
if mode == "sleep" and rank == culprit:
    load_batch()
if mode == "spin" and rank == culprit:
    spin_loop()
dist.all_reduce(x)                # collective #6
torch.cuda.synchronize()
print("all_reduce 6 ok %.1f" % x[0].item(), flush=True)
dist.destroy_process_group()
PYEOF

wait_file() { # file seconds
	local i
	for i in $(seq $(( $2 * 10 ))); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}

summary=""
# across nodes: `attach --all-nodes` on every node at once on a port of its own (the job's
# TCPStore holds MASTER_PORT 29500), no --local-host (each namespace's own addresses say which
# ranks are its), each node's output and wall time kept; both nodes must name the culprit rank,
# all_reduce #6 and the function with job.py:line, and group the culprit apart.
run_across() { # case culprit dir
	local c=$1 k=$2 D=$3 i ok=PASS line verdict expect group secs t0
	local fn=load_batch
	[ "$c" = xspin ] && fn=spin_loop
	expect="rank $k .*(has not entered|has not launched) (all_reduce|AllReduce) #6.*it is in .*$fn \(job\.py:[0-9]+\)"
	group="1 rank \(rank $k on [^)]*\): in .*$fn \(job\.py:[0-9]+\)"
	t0=$(date +%s%N)
	for ((i = 0; i < N; i++)); do
		( timeout 60 "$NCCLCHECK" lab exec $P-n$i -- "$NCCLCHECK" attach --no-color --all-nodes \
			--master 10.10.0.10:29611 --nodes "$N" --node-rank "$i" -v > "$D/across_n$i.txt" 2>&1
		  echo "exit $? after $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$D/across_n$i.txt" ) &
	done
	wait
	for ((i = 0; i < N; i++)); do
		line=$(sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  */ /g' "$D/across_n$i.txt")
		verdict=$(echo "$line" | grep -m1 '^verdict:')
		secs=$(tail -1 "$D/across_n$i.txt" | awk '{printf "%.1f", $4 / 1000}')
		if echo "$verdict" | grep -Eq "$expect" && echo "$line" | grep -Eq "$group" &&
		   awk -v s="$secs" 'BEGIN { exit !(s <= 15) }'; then
			summary="$summary$c on n$i (--all-nodes): ${secs}s, $verdict  PASS\n"
		else
			ok=FAIL
			summary="$summary$c on n$i (--all-nodes): ${secs}s, expected /$expect/ and /$group/, got: $verdict  FAIL\n"
		fi
	done
	summary="$summary    $c groups (n0): $(grep -A3 '^ranks by Python stack' "$D/across_n0.txt" | tail -n +2 | tr '\n' '|')\n"
	[ $ok = PASS ] || summary="$summary    see attach_record/$c/across_n*.txt\n"
}

run_case() {
	local c=$1 D=$W/$1 i pid1 t1 t2 t3 t4 secs verdict expect rc
	local mode=$1 culprit=1
	case $c in xsleep) mode=sleep culprit=0 ;; xspin) mode=spin culprit=1 ;; esac
	mkdir -p "$D/fr" "$D/frpy"
	if [ $(( $(date +%s) - T0 )) -gt 360 ]; then
		summary="$summary$c: skipped (time budget)\n"; return
	fi
	"$NCCLCHECK" lab up --nodes "$N" --scenario healthy --prefix $P --force > "$D/lab_up.txt" 2>&1 ||
		{ summary="$summary$c: lab up failed: $(tail -1 "$D/lab_up.txt")\n"; return; }
	jobpids=()
	for ((i = 0; i < N; i++)); do
		env CUDA_VISIBLE_DEVICES=0 NCCL_HOSTID=$P-n$i NCCL_SOCKET_IFNAME=eth1 NCCL_IB_DISABLE=1 \
			NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NVLS_ENABLE=0 NCCL_MNNVL_ENABLE=0 \
			TORCH_NCCL_ASYNC_ERROR_HANDLING=0 TORCH_NCCL_ENABLE_MONITORING=1 NCCL_RAS_ENABLE=1 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,RAS \
			TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 \
			TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$D/fr/nccl_trace_rank_" \
			TORCH_NCCL_DEBUG_INFO_PIPE_FILE="$D/fr/pipe_" \
			TORCH_WORKER_SERVER_SOCKET="$D/ws_rank$i.sock" \
			"$NCCLCHECK" lab exec $P-n$i -- timeout -k 5 200 "$PY" "$W/job.py" "$mode" "$culprit" "$D" \
			> "$D/rank$i.log" 2>&1 &
		jobpids+=($!)
	done
	for ((i = 0; i < N; i++)); do
		if ! wait_file "$D/ready.$i" $((i ? 30 : 120)); then
			summary="$summary$c: the job did not get through init and warm-up (see rank*.log)  FAIL\n"
			cleanup; return
		fi
		jobpids+=($(cat "$D/ready.$i"))
		echo "rank $i pid $(cat "$D/ready.$i")" >> "$D/pids.txt"
	done
	pid1=$(cat "$D/ready.1")
	case $c in
	stop) kill -STOP "$pid1" ;;
	kill) kill -9 "$pid1" ;;
	net)
		for dev in eth0 eth1; do
			"$NCCLCHECK" lab exec $P-n1 -- "$IPTABLES" -I INPUT -i $dev -j DROP
			"$NCCLCHECK" lab exec $P-n1 -- "$IPTABLES" -I OUTPUT -o $dev -j DROP
		done ;;
	esac
	touch "$D/go"
	sleep 3
	case $c in x*)
		run_across "$c" "$culprit" "$D"
		cleanup
		sleep 1
		return ;;
	esac
	# ask every live rank for its dump: the FIFO (torch's own), and the Python thread
	for ((i = 0; i < N; i++)); do
		[ -p "$D/fr/pipe_$i.pipe" ] && timeout 2 sh -c "echo 1 > '$D/fr/pipe_$i.pipe'" 2>/dev/null
	done
	touch "$D/dumpnow"
	sleep 4
	ls -la "$D/fr" "$D/frpy" > "$D/dumps_ls.txt" 2>&1
	t1=$(date +%s.%N)
	timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" attach --no-color --fr "$D/fr" \
		--fr-prefix nccl_trace_rank_ "${LOCALS[@]}" \
		--record "$D/ras.json" -v > "$D/attach.txt" 2>&1
	rc=$?
	t2=$(date +%s.%N)
	echo "exit $rc" >> "$D/attach.txt"
	timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" attach --json --fr "$D/fr" \
		--fr-prefix nccl_trace_rank_ "${LOCALS[@]}" \
		> "$D/attach.json" 2> "$D/attach.json.err"
	# live: the dumps asked from each local rank's WorkerServer (found in its environment)
	t3=$(date +%s.%N)
	timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" attach --no-color --fr-live \
		"${LOCALS[@]}" -v > "$D/attach_live.txt" 2>&1
	echo "exit $?" >> "$D/attach_live.txt"
	t4=$(date +%s.%N)
	timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" attach --json --no-ras --fr "$D/frpy" \
		> "$D/attach_frpy.json" 2>&1
	timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" attach --text --polls 1 \
		--record "$D/ras_text.json" > "$D/attach_text_format.txt" 2>&1
	# the culprit's Python stacks and threads on their own, and a memory image of a real torch
	# process (a unit-test fixture of the interpreter the GPU machine runs)
	case $c in sleep|spin)
		timeout 40 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" attach --no-color --pid "$pid1" \
			--record "$D/stacks_rank1.img" > "$D/stacks_rank1.txt" 2>&1
		echo "exit $?" >> "$D/stacks_rank1.txt"
		timeout 40 "$NCCLCHECK" attach --json --pid "$pid1" > "$D/stacks_rank1.json" 2>&1 ;;
	esac
	if [ "$c" = stop ]; then
		timeout 40 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" attach --no-color \
			--local-host 10.10.0.11 --record "$D/ras_n1.json" > "$D/attach_n1.txt" 2>&1
		echo "exit $?" >> "$D/attach_n1.txt"
	fi
	verdict=$(sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  */ /g' "$D/attach.txt" | grep -m1 '^verdict:')
	case $c in
	sleep) expect='rank 1 .*(has not entered|has not launched).*it is in .*load_batch \(job\.py:[0-9]+\)' ;;
	spin) expect='rank 1 .*(has not entered|has not launched).*running.*it is in .*spin_loop \(job\.py:[0-9]+\)' ;;
	stop) expect='rank 1 .*(is stopped|does not answer)' ;;
	kill) expect='rank 1 .*(is gone|dead)|process .* dead|rank\(s\) 1 wrote no dump' ;;
	net) expect='node 10\.10\.0\.1[01] does not answer|every rank (launched|entered)' ;;
	esac
	# what the CPU suite's replay (tests/integration/attach_recorded.sh) must conclude without
	# this machine's /proc: RAS and the dumps alone
	case $c in
	sleep|spin) echo 'rank 1 .*(has not entered|has not launched)' ;;
	stop) echo 'rank 1 .*(does not answer|is stopped|wrote no dump)|node 10\.10\.0\.11 does not answer' ;;
	kill) echo 'rank 1 .*(is gone|does not answer|wrote no dump)|process .* dead|node 10\.10\.0\.11 does not answer' ;;
	net) echo 'node 10\.10\.0\.1[01] does not answer|every rank (launched|entered)' ;;
	esac > "$D/expect_replay.txt"
	secs=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }')
	if echo "$verdict" | grep -Eq "$expect" && awk -v s="$secs" 'BEGIN { exit !(s <= 15) }'; then
		summary="$summary$c: ${secs}s, exit $rc, $verdict  PASS\n"
	else
		summary="$summary$c: ${secs}s, exit $rc, expected /$expect/, got: $verdict  FAIL\n"
	fi
	verdict=$(sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  */ /g' "$D/attach_live.txt" | grep -m1 '^verdict:')
	secs=$(awk -v a="$t3" -v b="$t4" 'BEGIN { printf "%.1f", b - a }')
	if echo "$verdict" | grep -Eq "$expect" && awk -v s="$secs" 'BEGIN { exit !(s <= 15) }'; then
		summary="$summary$c (--fr-live): ${secs}s, $verdict  PASS\n"
	else
		summary="$summary$c (--fr-live): ${secs}s, expected /$expect/, got: $verdict  FAIL\n"
	fi
	summary="$summary    dumps: $(ls "$D/fr" | grep -c '^nccl_trace_rank_') by pipe, $(ls "$D/frpy" | grep -c '^nccl_trace_rank_') from Python; live: $(grep -c 'attach.fr.bad_dump' "$D/attach_live.txt") failed\n"
	cleanup
	sleep 1
}

for c in $CASES; do run_case "$c"; done
printf '%b' "$summary" | tee "$OUT/attach_summary.txt"
rm -f "$W/job.py.pyc"
tar czf "$OUT/attach_record.tgz" --exclude='*.pipe' --exclude='*.sock' -C /tmp attach_record
echo "total $(( $(date +%s) - T0 )) s" | tee -a "$OUT/attach_summary.txt"
