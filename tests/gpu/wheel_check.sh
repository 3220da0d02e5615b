#!/bin/bash
# The wheel in the training environment (issue #24): `pip install --no-index` of the wheel that
# scripts/release.sh made (carried in .gpu/dist by prepare.sh) into the venv that holds torch,
# then `ncclcheck node --json` from that venv against the source build (.gpu/bin/ncclcheck) run
# the same way: the same facts and findings, timings aside. Nothing outside /opt/torch/.venv
# changes, and that only on the leased machine.
#   bash tests/gpu/wheel_check.sh   -> $OUT/wheel_check.txt, $OUT/wheel_node.json, $OUT/src_node.json
. "$(dirname "$0")/env.sh"
VENV=${VENV:-/opt/torch/.venv}
log=$OUT/wheel_check.txt
exec > >(tee "$log") 2>&1
whl=$(ls "$REPO"/.gpu/dist/ncclcheck-*-py3-none-manylinux_2_17_x86_64.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || { echo "FAIL: no wheel in .gpu/dist (run tests/gpu/prepare.sh)"; exit 1; }
py=$VENV/bin/python
"$py" -m pip --version >/dev/null 2>&1 || "$py" -m ensurepip >/dev/null 2>&1 ||
	{ echo "FAIL: $VENV has no pip and ensurepip failed"; exit 1; }
echo "venv: $VENV ($("$py" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__)'))"
"$py" -m pip install --no-index --no-deps --force-reinstall "$whl" 2>&1 | tail -n 2
w=$VENV/bin/ncclcheck
[ -x "$w" ] || { echo "FAIL: pip put no ncclcheck in $VENV/bin"; exit 1; }
echo "wheel: $(basename "$whl"): $("$w" --version); python -m ncclcheck: $("$py" -m ncclcheck --version)"
# both from inside the venv: the same python, torch and NCCL for the probes to find
PATH=$VENV/bin:$PATH "$w" node --json >"$OUT/wheel_node.json"; wrc=$?
PATH=$VENV/bin:$PATH "$NCCLCHECK" node --json >"$OUT/src_node.json"; src=$?
echo "exit codes: wheel $wrc, source build $src"
# the GPU machine has no jq: its python normalises (timings and the moment of collection differ)
norm() { "$py" -c '
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("collected_at", "probe_ms", "timings_ms", "elapsed_ms")}
    return [strip(v) for v in x] if isinstance(x, list) else x
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))' "$1"; }
fail=0
[ "$wrc" = "$src" ] || { echo "FAIL: exit codes differ"; fail=1; }
if diff <(norm "$OUT/wheel_node.json") <(norm "$OUT/src_node.json") >"$OUT/diff.txt"; then
	echo "ok: the same facts and findings ($("$py" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$OUT/src_node.json") findings)"
else
	echo "FAIL: facts differ:"; head -n 40 "$OUT/diff.txt"; fail=1
fi
"$py" -c 'import json, sys
f = json.load(open(sys.argv[1]))["facts"]
for k in ("gpus", "driver", "nccl", "python"):
    print("  %s: %s" % (k, json.dumps(f.get(k))[:160]))' "$OUT/wheel_node.json"
[ "$fail" = 0 ] && echo "PASS" || echo "FAIL"
exit "$fail"
