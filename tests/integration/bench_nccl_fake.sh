#!/bin/bash
# bench --backend nccl through the real dlopen path with the fake NCCL and CUDA: -g 2 exact,
# wrong results counted (exit 1), a hung init aborted at -T (exit 3), NCCL's error text and the
# explain pointer, and on a machine without a driver a clean exit 3.
set -u
. "$SRCDIR/tests/integration/lib.sh"
F=$FAKESDIR
NC="--nccl $F/nccl_coll/libnccl.so.2 --cuda $F/libcuda.so.1"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export TMPDIR=$T

out=$(timeout 30 "$NCCLCHECK" bench allreduce --backend nccl $NC -g 2 -b 1K -e 256K -f 4 -n 2 2>&1)
expect_rc 0 $? "-g 2 on the fake"
expect_match "$out" "#  Rank  1 Group  0 Pid +[0-9]+ on +[^ ]+ device  1 \[0000:19:00\] Fake GPU 1" "device lines"
expect_match "$out" "# Out of bounds values : 0 OK" "exact"
expect_match "$out" "# NCCL chose: network Socket over \[0\]lo:127.0.0.1<0>, 2 coll channels" "what NCCL chose"
expect_match "$out" "# NCCL algorithm: AllReduce 1024..262144 B RING/SIMPLE" "algorithm per size"
expect_match "$out" "# Link ceiling, rank 0 \([^)]*\) lo: ceiling unknown \(NCCL's log shows no NET transport" \
	"ceiling: unknown, all inside the host"
# in Chinese: NCCL's notes (its choice, transports, algorithms, its log) and the ceiling are
# ncclcheck's prose, put into Chinese; nccl-tests' lines stay (tests/integration/zh_lines.py)
timeout 30 env LANG=zh_CN.UTF-8 LC_ALL= "$NCCLCHECK" bench allreduce --backend nccl $NC -g 2 -b 1K \
	-e 4K -f 4 -n 2 >"$T/zh.out" 2>&1
expect_rc 0 $? "-g 2 on the fake, in Chinese"
zh=$(cat "$T/zh.out")
expect_match "$zh" "^# NCCL 选择：网络 Socket，经由 \[0\]lo:127.0.0.1<0>，2 个集合通信通道" "NCCL's choice in Chinese"
expect_match "$zh" "^# NCCL 算法：AllReduce 1024..4096 B 用 RING/SIMPLE" "the algorithm note in Chinese"
expect_match "$zh" "^# Out of bounds values : 0 OK" "nccl-tests' footer as nccl-tests prints it"
bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" "$T/zh.out" | grep ': English: ')
[ -z "$bad" ] && pass "no English prose in the Chinese NCCL bench" ||
	fail "English prose in the Chinese NCCL bench:$(printf '\n%s' "$bad")"

out=$(FAKE_CUDA_DEVICES=3 timeout 30 "$NCCLCHECK" bench allgather --backend nccl $NC -g 3 -b 3K -e 3K -n 1 2>&1)
expect_rc 0 $? "allgather -g 3"; expect_match "$out" "Out of bounds values : 0 OK" "allgather exact"
out=$(timeout 30 "$NCCLCHECK" bench reducescatter --backend nccl $NC -g 2 -d double -o max -b 4K -e 4K -n 1 2>&1)
expect_rc 0 $? "reducescatter -g 2"; expect_match "$out" "Out of bounds values : 0 OK" "reducescatter exact"

out=$(FAKE_NCCL_SCENARIO=wrong timeout 30 "$NCCLCHECK" bench allreduce --backend nccl $NC -g 2 -b 1K -e 1K -n 1 2>&1)
expect_rc 1 $? "wrong results: exit 1"
expect_match "$out" "# Out of bounds values : 2 FAILED" "both placements counted"
expect_match "$out" "\(bench\.result\.wrong\)" "as bench.result.wrong"

t0=$(date +%s)
out=$(FAKE_NCCL_SCENARIO=init_hang timeout 30 "$NCCLCHECK" bench allreduce --backend nccl $NC -T 2 -b 1K -e 1K 2>&1)
rc=$?; dt=$(( $(date +%s) - t0 ))
expect_rc 3 $rc "hung init: exit 3"
expect_match "$out" "did not finish within 2 s: aborted \(ncclCommAbort\)" "aborted at the timeout"
[ "$dt" -le 25 ] && pass "in ${dt}s (bounded: timeout 30 would have killed a hang)" || fail "took ${dt}s"

out=$(FAKE_NCCL_SCENARIO=init_error timeout 30 "$NCCLCHECK" bench allreduce --backend nccl $NC -b 1K -e 1K 2>&1)
expect_rc 3 $? "init error: exit 3"
expect_match "$out" "ncclCommInitRankConfig failed: unhandled system error: socketStartConnect: Connect to 10.0.0.2<43211> failed" "NCCL's words"
expect_match "$out" "try 'ncclcheck explain " "points at explain"

out=$(FAKE_CUDA_SCENARIO=no_device timeout 30 "$NCCLCHECK" bench allreduce --backend nccl $NC -b 1K -e 1K 2>&1)
expect_rc 3 $? "no device: exit 3"
expect_match "$out" "cuInit failed: no CUDA-capable device is detected \(CUDA error 100\)" "cuInit's error"

out=$(timeout 30 "$NCCLCHECK" bench allreduce --backend nccl $NC -g 3 -b 1K -e 1K 2>&1)
expect_rc 3 $? "more GPUs than there are: exit 3"
expect_match "$out" "Invalid number of GPUs: 3 requested but only 2 were found" "nccl-tests' words"

# the real libnccl of this machine (CUDA 13 toolkit) without a driver: a clean failure
real=$(ls /usr/local/cuda*/lib*/libnccl.so.2 2>/dev/null | head -1)
if [ -n "$real" ] && ! ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 >/dev/null 2>&1; then
	out=$(timeout 30 "$NCCLCHECK" bench allreduce --backend nccl --nccl "$real" -b 1K -e 1K 2>&1)
	expect_rc 3 $? "real NCCL, no driver: exit 3"
	expect_match "$out" "NCCL 2\.[0-9]+\.[0-9]+ loaded from .*, but: cannot load the CUDA driver libcuda.so.1" "says which NCCL and what is missing"
fi

# bench tune finds the one setting the fake rewards, and says so with settings[]
out=$(FAKE_NCCL_TUNED=NCCL_SOCKET_NTHREADS=2 timeout 120 "$NCCLCHECK" bench tune $NC -g 2 -b 64K -e 64K -n 4 --repeat 2 --json 2>&1)
expect_rc 0 $? "bench tune"
v=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); f=[x for x in d["findings"] if x["id"].startswith("bench.tune")][0]; print(f["id"], " ".join("%s=%s" % (s["name"], s["value"]) for s in f["settings"]))')
# the rewarded setting must be there; a neutral one beside it may win a 2-core box's noise (a
# fresh CI run once kept NCCL_NSOCKS_PERTHREAD=2 with it, which the fake neither helps nor hurts)
expect_match "$v" "^bench.tune.better (NCCL_NSOCKS_PERTHREAD=[0-9]+ )?NCCL_SOCKET_NTHREADS=2( NCCL_NSOCKS_PERTHREAD=[0-9]+)?$" \
	"tune recommends what measured better ($v)"

out=$(timeout 10 "$NCCLCHECK" bench alltoall --backend tcp 2>&1)
expect_rc 2 $? "alltoall over tcp is a usage error"
out=$(timeout 10 "$NCCLCHECK" bench allreduce -b 1X 2>&1)
expect_rc 2 $? "bad size"
expect_match "$out" "-b wants a size like 8, 64K, 32M or 1G, not '1X'" "says why"
finish
