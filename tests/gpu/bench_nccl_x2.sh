#!/bin/bash
# GPU machine with 2 H200 (issue #16): `ncclcheck bench --backend nccl` beside nccl-tests on the
# same GPUs, in one run: -g 2 (one process, two GPUs grouped) and two processes with one GPU
# each (--rank/--world over loopback), over NVLink and with NCCL_P2P_DISABLE=1
# NCCL_SHM_DISABLE=1; NCCL_NVLS_ENABLE=0 always.
#
# nccl-tests is never committed here: build it on the machine from its public source carried
# in the ignored .gpu/nccl-tests (make -C .gpu/nccl-tests CUDA_HOME=... NCCL_HOME=...
# NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90"), or point NCCL_TESTS_BIN at its build/.
#
#   bash tests/gpu/bench_nccl_x2.sh  -> $OUT/bench_nccl_x2/summary.txt: per collective and mode,
#   size, our busbw, nccl-tests' busbw, ratio; "bench_nccl_x2: PASS" when every size >= 1 MB is
#   within 3 % and every size < 64 KB within 1.2x in time.
. "$(dirname "$0")/env.sh"
set -u
D=$OUT/bench_nccl_x2
mkdir -p "$D"
NT=${NCCL_TESTS_BIN:-$REPO/.gpu/nccl-tests/build}
[ -x "$NT/all_reduce_perf" ] || { echo "no nccl-tests in $NT (see the header)" | tee "$D/summary.txt"; exit 77; }
ARGS="-b 8 -e 256M -f 2 -n 20 -w 5 -c 1"
: > "$D/summary.txt"
for mode in nvlink sockets; do
	extra=""; [ $mode = sockets ] && extra="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1"
	for c in all_reduce all_gather reduce_scatter; do
		ours=${c//_/}
		env $extra "$NT/${c}_perf" -g 2 $ARGS > "$D/$mode.$c.nccltests.txt" 2>&1
		env $extra "$NCCLCHECK" bench $ours --backend nccl -g 2 $ARGS > "$D/$mode.$c.g2.txt" 2>&1
		for r in 1 0; do
			env $extra CUDA_VISIBLE_DEVICES=$r "$NCCLCHECK" bench $ours --backend nccl \
				--rank $r --world 2 --master 127.0.0.1:29655 $ARGS > "$D/$mode.$c.p$r.txt" 2>&1 &
		done
		wait
		for ours_f in g2 p0; do
			python3 - "$D/$mode.$c.nccltests.txt" "$D/$mode.$c.$ours_f.txt" "$mode $c $ours_f" <<'PYEOF' >> "$D/summary.txt"
import sys
def rows(p):
    r = {}
    for l in open(p):
        f = l.split()
        if f and f[0].isdigit() and len(f) >= 13: r[int(f[0])] = (float(f[5]), float(f[7]))
    return r
ref, ours = rows(sys.argv[1]), rows(sys.argv[2]); bad = []
for nb in sorted(ref):
    if nb not in ours: bad.append(nb); continue
    (rt, rb), (ot, ob) = ref[nb], ours[nb]
    ok = (nb < 1 << 20 or (rb and ob / rb >= 0.97)) and (nb >= 64 << 10 or ot <= 1.2 * rt)
    if not ok: bad.append(nb)
    print("%-28s %12d ours %8.2f us %7.2f GB/s  nccl-tests %8.2f us %7.2f GB/s  %s" % (sys.argv[3], nb, ot, ob, rt, rb, "ok" if ok else "MISS"))
print("%-28s %s" % (sys.argv[3], "PASS" if not bad and ref else "FAIL %s" % bad))
PYEOF
		done
	done
done
grep -q FAIL "$D/summary.txt" && echo "bench_nccl_x2: FAIL" >> "$D/summary.txt" || echo "bench_nccl_x2: PASS" >> "$D/summary.txt"
cat "$D/summary.txt"
