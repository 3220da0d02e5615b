#!/bin/bash
# On the GPU machine: the Python probe's static path (torch's files, no import) against the import
# path (--deep) for the torch 2.11 wheel in /opt/torch/.venv, which maps its own nvidia/nccl copy
# (2.28.9) while the system has 2.28.3. Compares every torch fact, prints PASS/FAIL per fact and
# the wall time of both runs (three of each, medians), and writes $OUT/torch_static.txt plus the
# four facts documents. Exit 0 when every fact matches and the static path did not fall back.
#
#   bash tests/gpu/torch_static_check.sh [PYTHON]    # from the repository root; about 30 s
#
# Changes nothing on the machine and never touches GPU settings; every run has a deadline.
set -u
. "$(dirname "$0")/env.sh"
cd "$REPO" || exit 3
PY=${1:-/opt/torch/.venv/bin/python3}
bin=$NCCLCHECK
[ -x "$OUT/build/ncclcheck" ] && bin=$OUT/build/ncclcheck	# record_facts.sh's build, when it ran
[ -x "$bin" ] || { echo "no ncclcheck binary ($bin)"; exit 3; }
[ -x "$PY" ] || { echo "no interpreter $PY"; exit 3; }
R=$OUT/torch_static.txt
: > "$R"
say() { echo "$*" | tee -a "$R"; }

# one MODE N: runs node --json [--deep] for $PY, prints the wall time in ms; keeps the last facts
one() {
	local t0 t1 rc
	t0=$(date +%s%N)
	timeout -k 5 60 "$bin" node --json $1 --python "$PY" --python-timeout 40 \
		> "$OUT/torch_static${1:+-deep}-$2.json" 2> "$OUT/torch_static${1:+-deep}-$2.err"
	rc=$?
	t1=$(date +%s%N)
	[ $rc -le 1 ] || say "FAIL node --json $1 exited $rc (see $OUT/torch_static${1:+-deep}-$2.err)"
	echo $(( (t1 - t0) / 1000000 ))
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

"$bin" --version >> "$R" 2>&1
s=(); d=()
for i in 1 2 3; do
	s+=("$(one "" "$i")")
	d+=("$(one --deep "$i")")
done
say "wall_ms static: ${s[*]} (median $(median "${s[@]}"))"
say "wall_ms --deep: ${d[*]} (median $(median "${d[@]}"))"
"$PY" - "$(median "${s[@]}")" "$(median "${d[@]}")" <<'PY' | tee -a "$R"
import sys
a, b = int(sys.argv[1]), int(sys.argv[2])
print("ratio --deep/static: %.2fx; static %s the 1.5 s target" % (b / max(a, 1), "meets" if a <= 1500 else "MISSES"))
PY
"$PY" tests/integration/torch_facts_cmp.py "$OUT/torch_static-3.json" "$OUT/torch_static-deep-3.json" "$PY" \
	| tee -a "$R"
rc=${PIPESTATUS[0]}
# what each path said about the libnccl, for the record
"$PY" - "$OUT/torch_static-3.json" "$PY" <<'PY' | tee -a "$R"
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
for p in f["python"]:
    if p.get("path") == sys.argv[2] or sys.argv[2] in p.get("also_as", []):
        t = p.get("torch", {})
        print("static: nccl %s from %s (%s), cudnn %s, devices %s, python probe %s ms, total %s ms"
              % (t.get("nccl_version"), t.get("nccl_mapped"), t.get("nccl_how"), t.get("cudnn"),
                 t.get("device_count"), f["timings_ms"].get("python"), f["timings_ms"].get("total")))
PY
grep -q '^FAIL' "$R" && rc=1
say "torch_static_check: $([ "$rc" = 0 ] && echo ALL PASS || echo FAIL)"
exit "$rc"
