#!/usr/bin/env bash
# ncclcheck explain throughput and peak memory on a 1 GB synthetic multi-rank log, against peers
# in the same run: grep with every signature anchor (-F -f, and -E), and python3 doing the same
# substring matching line by line. Targets (release build): >= 200 MB/s, peak RSS < 64 MB.
# Usage: bench/explain_throughput.sh [SIZE_MB]   (NCCLCHECK=path/to/ncclcheck, default build/release)
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
NCCLCHECK=${NCCLCHECK:-$REPO/build/release/ncclcheck}
SIZE_MB=${1:-1024}
PY_MB=${PY_MB:-32}	# python is slow: it gets a prefix of the log, and its rate is compared
PY=${PYTHON:-python3}
[ -x "$NCCLCHECK" ] || { echo "bench: build first: cmake --preset release && cmake --build --preset release (or set NCCLCHECK)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (scripts/deps.sh installs it)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every anchor of the signature table, one per line (grep -F -f), straight from src/explain/sigs.c.
"$PY" - "$REPO/src/explain/sigs.c" > "$tmp/anchors.txt" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
table = src[src.index("explain_sigs[] = {"):]
out = set()
for m in re.finditer(r'\.anchors = \{((?:\s*"(?:[^"\\]|\\.)*",?)+)\s*\}', table):
    for a in re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)):
        out.add(a.encode().decode("unicode_escape"))
print("\n".join(sorted(out)))
PY
nanchors=$(wc -l < "$tmp/anchors.txt")
sed 's/[][\\.*^$+?(){}|]/\\&/g' "$tmp/anchors.txt" > "$tmp/anchors.ere"

# The log: torchrun/srun/plain prefixes, NCCL INFO lines of many ranks, Python chatter, progress
# bars, a few WARNs and watchdog lines, each rank writing in bursts of 1-32 lines as buffered
# stdio does: written in 1 MB blocks by python, not byte by byte.
"$PY" - "$tmp/big.log" "$SIZE_MB" <<'PY'
import random, sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
random.seed(7)
def block(seed):
    r = random.Random(seed); out = []; n = 0
    burst = 0
    while n < (1 << 20):
        # each process writes its output in bursts (stdio buffers a pipe's output), 1-32 lines
        if burst == 0:
            rank = r.randrange(256); host = f"node{rank // 8}"; pid = 4000 + rank
            pre = r.choice([f"[rank{rank}]:", f"{rank}: ", "", f"[default{rank % 8}]:"])
            burst = r.randrange(1, 33)
        burst -= 1
        k = r.random()
        if k < 0.45:
            line = f"{pre}{host}:{pid}:{pid + 7} [{rank % 8}] NCCL INFO Channel {r.randrange(32):02d}/0 : {rank}[{rank % 8}] -> {(rank + 1) % 256}[{(rank + 1) % 8}] [send] via NET/Socket/{r.randrange(2)}"
        elif k < 0.55:
            line = f"{pre}{host}:{pid}:{pid} [{rank % 8}] NCCL INFO comm 0x55d0c8a0 rank {rank} nRanks 256 nNodes 32 localRanks 8 localRank {rank % 8} MNNVL 0"
        elif k < 0.75:
            line = f"{pre}Epoch {r.randrange(100)}: {r.randrange(100)}%|#####     | {r.randrange(5000)}/5000 [01:{r.randrange(60):02d}<02:10, 31.2it/s, loss={r.random():.4f}, v_num=3]"
        elif k < 0.85:
            line = f"{pre}{{'step': {r.randrange(10**6)}, 'lr': 0.0003, 'grad_norm': {r.random():.3f}, 'tokens_per_sec': {r.randrange(10**5)}}}"
        elif k < 0.93:
            line = f"{pre}{host}:{pid}:{pid} [{rank % 8}] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin."
        elif k < 0.97:
            line = f"{pre}W0301 10:00:{r.randrange(60):02d}.000000 {pid} torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default"
        elif k < 0.985:
            line = f"{pre}{host}:{pid}:{pid + 9} [{rank % 8}] misc/socket.cc:598 NCCL WARN socketPollConnect: connect to 10.0.{rank // 8}.1<4{r.randrange(9999):04d}> returned Connection timed out, exceeded error retry count after 35 attempts"
        else:
            line = f"{pre}[E301 10:10:00.4 ProcessGroupNCCL.cpp:629] [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={r.randrange(50)}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600081 milliseconds before timing out."
        out.append(line); n += len(line) + 1
    return ("\n".join(out) + "\n").encode()
blocks = [block(s) for s in range(16)]
with open(path, "wb") as f:
    w = 0; i = 0
    while w < size:
        b = blocks[i % len(blocks)]; f.write(b); w += len(b); i += 1
PY
bytes=$(stat -c %s "$tmp/big.log")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
head -c $((PY_MB << 20)) "$tmp/big.log" | sed '$d' > "$tmp/py.log"
pybytes=$(stat -c %s "$tmp/py.log")
cat "$tmp/big.log" > /dev/null	# page cache: every tool reads from memory

measure() { # name, command...: prints "wall_s rss_kb user_s sys_s"
	local name=$1; shift
	/usr/bin/time -f '%e %M %U %S' -o "$tmp/t.$name" "$@" > "$tmp/o.$name" 2> "$tmp/e.$name" || true
	cat "$tmp/t.$name" | tail -1
}
read -r t_x rss_x u_x s_x <<< "$(measure explain "$NCCLCHECK" explain --json "$tmp/big.log")"
read -r t_gf rss_gf u_gf s_gf <<< "$(measure grepF grep -c -F -f "$tmp/anchors.txt" "$tmp/big.log")"
read -r t_ge rss_ge u_ge s_ge <<< "$(measure grepE grep -c -E -f "$tmp/anchors.ere" "$tmp/big.log")"
read -r t_py rss_py u_py s_py <<< "$(measure python "$PY" -c '
import sys
anchors = [l.rstrip("\n").encode() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
n = 0
with open(sys.argv[2], "rb") as f:
    for line in f:
        if any(a in line for a in anchors):
            n += 1
print(n)' "$tmp/anchors.txt" "$tmp/py.log")"

rate() { awk -v b="$1" -v t="$2" 'BEGIN { if (t < 0.01) t = 0.01; printf "%.0f", b / 1048576 / t }'; }
cpu() { awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }'; }
c_x=$(cpu "$u_x" "$s_x"); c_gf=$(cpu "$u_gf" "$s_gf"); c_ge=$(cpu "$u_ge" "$s_ge"); c_py=$(cpu "$u_py" "$s_py")
r_x=$(rate "$bytes" "$t_x"); r_gf=$(rate "$bytes" "$t_gf"); r_ge=$(rate "$bytes" "$t_ge"); r_py=$(rate "$pybytes" "$t_py")
k_x=$(rate "$bytes" "$c_x"); k_gf=$(rate "$bytes" "$c_gf"); k_ge=$(rate "$bytes" "$c_ge"); k_py=$(rate "$pybytes" "$c_py")
diag=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["ranks"]), "ranks,", len(d["findings"]), "findings, first:", d["findings"][0]["id"] if d["findings"] else "-")' "$tmp/o.explain" 2>/dev/null || echo "?")
echo "explain throughput on a ${mb} MB synthetic log ($(wc -l < "$tmp/big.log") lines, $nanchors anchors); load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores"
printf '  %-34s %9s %9s %8s %10s\n' "" "wall MB/s" "CPU MB/s" "wall s" "peak RSS"
row() { printf '  %-34s %9s %9s %8s %7s kB %s\n' "$@"; }
row "ncclcheck explain --json" "$r_x" "$k_x" "$t_x" "$rss_x" ""
row "grep -c -F -f anchors" "$r_gf" "$k_gf" "$t_gf" "$rss_gf" ""
row "grep -c -E -f anchors (escaped)" "$r_ge" "$k_ge" "$t_ge" "$rss_ge" ""
row "python3 substring match per line" "$r_py" "$k_py" "$t_py" "$rss_py" "(first $PY_MB MB)"
echo "  explain found: $diag"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo "ratios (wall): explain/grep-F $(ratio "$r_x" "$r_gf")x, explain/grep-E $(ratio "$r_x" "$r_ge")x, explain/python $(ratio "$r_x" "$r_py")x"
echo "ratios (CPU):  explain/grep-F $(ratio "$k_x" "$k_gf")x, explain/grep-E $(ratio "$k_x" "$k_ge")x, explain/python $(ratio "$k_x" "$k_py")x"
ok=1
[ "$r_x" -ge 200 ] || [ "$k_x" -ge 200 ] || { echo "MISS: explain below 200 MB/s"; ok=0; }
[ "$r_x" -ge 200 ] || echo "note: wall-clock rate below 200 MB/s on a loaded machine; CPU rate $k_x MB/s"
[ "$rss_x" -lt 65536 ] || { echo "MISS: explain peak RSS not under 64 MB"; ok=0; }
[ $ok = 1 ] && echo "targets met: >= 200 MB/s and peak RSS < 64 MB"
